"""Whole LDS tiles staged in private memory, read from the LDS tile instead.

IREE's dynamic-K kernel copies each operand's whole LDS tile into a private buffer every
iteration (``%t = vector.transfer_read %lds[0, 0] : vector<128x32xbf16>``,
``vector.transfer_write %t, %alloca[0, 0]``) and reads its MFMA fragments from that
buffer (through a ``memref.expand_shape``).  :func:`forward_private_tiles` reads each
fragment from the LDS tile itself, at the same indices through the same views, and drops
the staging copy.  Exact when, checked here (anything else is left for the scan, which
refuses the private write at the op):

* the private buffer ``P`` is a ``memref.alloca`` of a static shape ``S`` (dense,
  row-major: :func:`private_tile`) written in the loop's body by one
  ``vector.transfer_write`` of a whole ``S`` vector at index 0 (no mask, in bounds) of a
  ``vector.transfer_read`` of a whole ``S`` vector at index 0 (no mask: the loop to
  pipeline, its last K tile peeled) of an LDS buffer ``B`` of shape ``S`` (or a
  ``memref.reinterpret_cast`` of it at offset 0 with its row-major strides, the rebased
  tile of :mod:`~pipeline_mlir.frontend.lds_bounds`); or (IREE's late form, row by row) by
  ``vector.store``s at constant indices that write every element of ``P`` once, each of a
  ``vector.load`` of ``B`` at the same indices: then ``P[i] = B[i]`` for every index ``i``
  once written;
* every other use of ``P`` in any loop is a view of it (``memref.expand_shape``,
  ``collapse_shape``) or a read (``vector.transfer_read``, ``vector.load``,
  ``memref.load``) of it or of such a view, directly in the body of a loop that writes
  ``P`` whole as above before them (IREE's peeled remainder loop does too), so no value
  of ``P`` flows from one iteration or loop into another; none is outside a loop;
* between the copy's read of ``B`` and each read of ``P`` in the body, no op writes
  ``B`` (through any view) and no op has regions (in IREE's loop kept as the remainder,
  whose per-thread copy loops stay loops, no op nested in one writes ``B`` either): ``B``
  holds at the read what the copy read; and a barrier that orders the last read follows
  it in the body (one that fences workgroup memory, or a bare ``rocdl.s.barrier`` behind
  a wait of ``lgkmcnt(0)`` after the read: the one rule of
  :func:`pipeline_mlir.analysis.barriers.orders`), so that the next iteration's writes of
  ``B`` by other threads come after it, as they came after the copy (when none does, the
  body's last fenced barrier is repeated at its end, or with none its last bare one behind
  a wait of ``lgkmcnt(0)``, in a body that has barriers directly in it: every thread runs those alike, so it runs
  the added one alike too).

Failures of the last two are refused at the op, saying why.

IREE's loop kept as the remainder (``forward_private_tiles(rem, masked=True)``) stages
its tiles through a mask of the K left; :mod:`~pipeline_mlir.frontend.masked_stage` takes
that form and keeps the mask on each forwarded read.  A private buffer no loop uses any
more is erased.
"""

from __future__ import annotations

import math

from pipeline_mlir.analysis.barriers import BARRIERS, fences_lds, orders
from pipeline_mlir.analysis.ir_facts import (constant_int, dense_i64, dense_row_major,
                                             encloses, memory_space, segments,
                                             transfer)
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe
from pipeline_mlir.frontend.masked_stage import mask_read, read_plan, staging_mask
from pipeline_mlir.isa.waitcnt import waitcnt_imm

__all__ = ["forward_private_tiles", "whole_access", "private_tile", "private_targets"]

VIEWS = ("memref.expand_shape", "memref.collapse_shape")
#: the views :func:`root_of` follows
_ROOT_VIEWS = VIEWS + ("memref.subview", "memref.reinterpret_cast", "memref.cast")
READS = ("vector.transfer_read", "vector.load", "memref.load")
#: ops that only read memory or view it
PASSIVE = READS + _ROOT_VIEWS + ("amdgpu.mfma",) + BARRIERS


def forward_private_tiles(loop, masked: bool = False) -> int:
    """Read the fragments of every whole LDS tile staged in private memory in ``loop``'s
    body from the tile (module docstring); with ``masked`` (IREE's loop kept as the
    remainder) also of tiles staged through a mask of the K left, the mask kept on each
    read (:mod:`~pipeline_mlir.frontend.masked_stage`).  Returns how many tiles."""
    done = 0
    while _forward_one(loop, masked):
        done += 1
    return done


def _forward_one(loop, masked: bool) -> bool:
    """Forward the first staged tile of ``loop``'s body; whether there was one."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    for p in private_targets(body):
        staged = _staging(body, p, masked)
        if staged is None:
            continue
        writes, rs, b, mask = staged
        reads = _reads_after(loop, p, writes)
        if reads is None or not _each_loop_stages(p):
            continue
        plans = [read_plan(r, p) for r in reads] if mask is not None else []
        if None in plans:
            continue
        _check_between(body, rs[0], b, reads, nested=masked)
        _ensure_barrier(body, reads)
        _forward(p, b, writes, rs)
        for r, plan in zip(reads, plans):
            mask_read(r, plan, mask)
        return True
    return False


def private_targets(body: list) -> list:
    """The private ``memref.alloca`` buffers that ops of ``body`` write, in order."""
    out = []
    for o in body:
        if o.name in ("vector.transfer_write", "vector.store"):
            p = o.operands[1]
            if not isinstance(p.owner, ir.Block) and _op(p.owner).name == "memref.alloca" \
                    and memory_space(p.type) == "private" and p not in out:
                out.append(p)
    return out


def root_of(v):
    """``v`` through view ops (their first operand) to the value they view."""
    return view_root(v, _ROOT_VIEWS)


def whole_access(op, shape, at_zero: bool = True, masked: bool = False) -> bool:
    """``op`` (a transfer op, or a ``vector.load`` / ``vector.store`` with ``at_zero``)
    moves a whole ``shape`` vector (at index 0 when ``at_zero``), in bounds, unmasked (or
    masked, when ``masked``), in the identity permutation.  A load or store has no mask
    or permutation, and at index 0 of a buffer of ``shape`` it is in bounds."""
    reads = op.name in ("vector.transfer_read", "vector.load")
    vt = ir.VectorType(op.results[0].type if reads else op.operands[0].type)
    if op.name in ("vector.load", "vector.store"):
        indices = list(op.operands)[1 if reads else 2:]
        plain = at_zero
    else:
        g = segments(op)
        access = transfer(op)
        indices = g[1] if reads else g[2]
        plain = (masked or not access.masked) and access.in_view and \
            len(indices) == len(shape)          # (the identity: the buffer's rank)
    return (plain and list(vt.shape) == list(shape) and
            (not at_zero or all(constant_int(i) == 0 for i in indices)))


def private_tile(p) -> bool:
    """Whether ``p`` is a private ``memref.alloca`` of a static shape, dense and row-major
    from its element 0 (the identity layout, or strides that say it)."""
    if isinstance(p.owner, ir.Block) or _op(p.owner).name != "memref.alloca" or \
            memory_space(p.type) != "private":
        return False
    return ir.MemRefType(p.type).has_static_shape and dense_row_major(p.type)


def _whole_write(w) -> bool:
    """Whether ``w`` writes a private ``memref.alloca`` of a static shape whole."""
    if w.name != "vector.transfer_write" or not private_tile(w.operands[1]):
        return False
    return whole_access(w, ir.MemRefType(w.operands[1].type).shape)


def _flat(op, first: int, shape: list) -> list | None:
    """The row-major positions ``vector.load`` / ``vector.store`` ``op`` (its indices from
    operand ``first``) moves in a buffer of ``shape``: constant indices, a 1-D vector along
    the last dimension, in bounds; else None."""
    idx = [constant_int(x) for x in list(op.operands)[first:]]
    vt = ir.VectorType(op.results[0].type if op.name == "vector.load" else op.operands[0].type)
    if None in idx or len(idx) != len(shape) or vt.rank != 1 or \
            idx[-1] + vt.shape[0] > shape[-1] or any(i < 0 or i >= d for i, d in zip(idx, shape)):
        return None
    base = 0
    for i, d in zip(idx, shape):
        base = base * d + i
    return list(range(base, base + vt.shape[0]))


def whole_writes(ops: list, p) -> list | None:
    """The ops of ``ops`` that write private tile ``p`` whole: one whole
    ``vector.transfer_write``, or ``vector.store``s at constant indices that together write
    every element of ``p`` once (IREE's late form stages a tile row by row); else None."""
    if not private_tile(p):
        return None
    whole = [o for o in ops if _whole_write(o) and o.operands[1] == p]
    if len(whole) == 1:
        return whole
    stores = [o for o in ops if o.name == "vector.store" and o.operands[1] == p]
    shape = list(ir.MemRefType(p.type).shape)
    flats = [_flat(o, 2, shape) for o in stores]
    if not stores or None in flats or \
            sorted(x for f in flats for x in f) != list(range(math.prod(shape))):
        return None
    return stores


def _staging(body: list, p, masked: bool):
    """(the writes, their reads, B, the mask or None) when ``body`` stages private tile
    ``p`` whole from LDS tile ``B`` (module docstring; through a mask of the K left when
    ``masked``: :mod:`~pipeline_mlir.frontend.masked_stage`), else None."""
    writes = whole_writes(body, p)
    if writes is None:
        return None
    shape = list(ir.MemRefType(p.type).shape)
    reads, bs = [], set()
    for w in writes:
        v = w.operands[0]
        if isinstance(v.owner, ir.Block) or _op(v.owner).parent != w.parent:
            return None
        r = _op(v.owner)
        if r.name == "vector.transfer_read" and w.name == "vector.transfer_write":
            if not whole_access(r, shape, masked=masked):
                return None
        elif r.name not in ("vector.load",) + (("vector.maskedload",) if masked else ()) \
                or w.name != "vector.store" or \
                [constant_int(x) for x in list(r.operands)[1:1 + len(shape)]] != \
                [constant_int(x) for x in list(w.operands)[2:]]:
            return None
        b = _tile_buffer(r.operands[0], shape)
        if b is None:
            return None
        bs.add(b)
        reads.append(r)
    mask = staging_mask(reads, shape)
    if len(bs) != 1 or mask is False:
        return None
    return writes, sorted(reads, key=body.index), bs.pop(), mask


def _tile_buffer(x, shape: list):
    """The LDS buffer of shape ``shape`` whose elements ``x`` indexes as its own."""
    if not isinstance(x.owner, ir.Block) and _op(x.owner).name == "memref.reinterpret_cast":
        c = _op(x.owner)
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        if dense_i64(c, "static_offsets") != [0] or dense_i64(c, "static_strides") != strides:
            return None
        x = c.operands[0]
    t = ir.MemRefType(x.type)
    if memory_space(x.type) != "workgroup" or list(t.shape) != shape or \
            t.layout != ir.AffineMapAttr.get(ir.AffineMap.get_identity(t.rank)):
        return None
    return x


def _uses_through_views(p) -> list:
    """Every use of ``p`` and of its views (VIEWS), as ops; None if one is of another
    kind."""
    out = []
    for u in p.uses:
        o = _op(u.owner)
        out.append(o)
        if o.name in VIEWS:
            out += _uses_through_views(o.results[0])
    return out


def _reads_after(loop, p, writes: list):
    """The reads of ``p`` (through views) in ``loop``'s body, all after ``writes``; None
    if a use of ``p`` in ``loop`` is of another kind or not directly in its body or before
    the last of ``writes``."""
    order = {o: i for i, o in enumerate(_op(x) for x in loop.regions[0].blocks[0].operations)}
    last = max(order[w] for w in writes)
    reads = []
    for o in _uses_through_views(p):
        if o in writes or not encloses(loop, o):
            continue
        if o not in order or order[o] < last or o.name not in READS + VIEWS:
            return None
        if o.name in READS:
            reads.append(o)
    return reads


def _each_loop_stages(p) -> bool:
    """Every use of ``p`` lies directly in the body of a loop that writes ``p`` whole
    before its other uses there (module docstring)."""
    loops = []    # each loop checked once, however many uses of ``p`` it holds
    for o in _uses_through_views(p):
        loop = _op(o.parent) if o.parent is not None else None
        if loop is None or loop.name != "scf.for":
            return False
        if loop not in loops:
            loops.append(loop)
    for loop in loops:
        writes = whole_writes([_op(x) for x in loop.regions[0].blocks[0].operations], p)
        if writes is None or _reads_after(loop, p, writes) is None:
            return False
    return True


def _check_between(body: list, r, b, reads: list, nested: bool = False) -> None:
    """No op between ``r`` and the last of ``reads`` writes ``b`` or has regions (with
    ``nested``, IREE's remainder loop, whose copy loops stay loops: no op nested in one
    writes ``b``); a barrier after the last read, or one in the body that
    :func:`_ensure_barrier` repeats at its end (module docstring).  Changes nothing."""
    first, last = body.index(r), max(body.index(x) for x in reads)
    for o in body[first + 1:last]:
        if len(o.regions) and not nested:
            raise IRError(o, f"{describe(o)} has regions between the copy of an LDS tile to "
                             f"private memory and a read of that copy; the front end reads "
                             f"the tile in its place only across straight-line code")
        for x in _with_nested(o):
            _check_not_writing(x, b)
    if not any(o.name in BARRIERS for o in body):
        raise IRError(reads[-1], f"{describe(reads[-1])} reads a private copy of an LDS tile "
                                 f"with no barrier after it in the K-loop, whose body has "
                                 f"none; the front end reads the tile in the copy's place "
                                 f"only when a barrier orders the next iteration's writes "
                                 f"after it (it adds one at the end of a body that has "
                                 f"barriers)")


def _with_nested(o) -> list:
    """``o`` and every op nested in its regions."""
    out = [o]
    for region in o.regions:
        for block in region.blocks:
            for x in block.operations:
                out += _with_nested(_op(x))
    return out


def _check_not_writing(o, b) -> None:
    """``o`` (an op between a private copy of LDS tile ``b`` and a read of it) does not
    write ``b``: it only reads or views memory, or has no operand of ``b``'s views."""
    if o.name in PASSIVE + ("vector.maskedload",) or o.name.startswith((
            "arith.", "affine.", "vector.extract", "vector.shape_cast", "vector.insert")):
        return
    if any(_is_memref(x) and root_of(x) in (b, *_views_of(b)) for x in o.operands):
        raise IRError(o, f"{describe(o)} writes the LDS tile that a private copy stages, "
                         f"between that copy and a read of it; the front end reads the "
                         f"tile in the copy's place only when nothing writes it between")


def _ensure_barrier(body: list, reads: list) -> None:
    """A barrier after the last of ``reads`` that orders it (:func:`~pipeline_mlir.analysis.
    barriers.orders`, the one rule: a fenced barrier, or a bare one behind a wait of
    ``lgkmcnt(0)`` after the read): unless one does, the body's last fenced barrier
    repeated at its end, or with none its last barrier behind a ``rocdl.s.waitcnt`` of
    ``lgkmcnt(0)`` (every thread runs the body's barriers alike; :func:`_check_between`
    checked it has one)."""
    last = max(body.index(x) for x in reads)
    if any(orders(body, last, b, "lgkmcnt") for b in range(last + 1, len(body))):
        return
    barriers = [o for o in body if o.name in BARRIERS]
    barrier = ([o for o in barriers if fences_lds(o)] or barriers)[-1]
    point = ir.InsertionPoint(body[-1])
    if not fences_lds(barrier):
        with point, barrier.location:
            B.rocdl.s_waitcnt(waitcnt_imm(lgkmcnt=0))
    barrier.clone(point)


def _is_memref(v) -> bool:
    return str(v.type).startswith("memref<")


def _views_of(b) -> list:
    """``b``'s ``memref.reinterpret_cast`` views (the rebased tile's)."""
    return [_op(u.owner).results[0] for u in b.uses
            if _op(u.owner).name == "memref.reinterpret_cast"]


def _forward(p, b, writes: list, rs: list) -> None:
    """Each read of ``p`` (through views) in the loop of ``writes`` reads ``b`` instead."""
    loop = _op(writes[0].parent)
    mapping = {p: b}
    old_views = []
    for o in _uses_through_views(p):
        if not encloses(loop, o) or o in writes:
            continue
        src = o.operands[0]
        if o.name in VIEWS:
            rt = ir.MemRefType(o.results[0].type)
            bt = ir.MemRefType(b.type)
            nt = ir.MemRefType.get(list(rt.shape), rt.element_type, rt.layout, bt.memory_space)
            attrs = {n: o.attributes[n] for n in o.attributes}
            with ir.InsertionPoint(o), o.location:
                nv = ir.Operation.create(o.name, results=[nt],
                                         operands=[mapping[src], *list(o.operands)[1:]],
                                         attributes=attrs)
            mapping[o.results[0]] = nv.results[0]
            old_views.append(o)
        else:
            o.operands[0] = mapping[src]
    for w in writes:
        w.erase()
    for r in rs:
        if not list(r.results[0].uses):
            masks = [x.owner for x in r.operands if str(x.type).startswith("vector<")
                     and str(x.type).endswith("xi1>") and not isinstance(x.owner, ir.Block)]
            r.erase()
            for m in set(masks):
                if _op(m).name == "vector.create_mask" and not list(_op(m).results[0].uses):
                    _op(m).erase()
    for v in reversed(old_views):   # no use left: each loop's views of ``p`` are its own
        if not list(v.results[0].uses):
            v.erase()
    if not list(p.uses):            # every loop that staged in ``p`` reads ``b`` now
        _op(p.owner).erase()
