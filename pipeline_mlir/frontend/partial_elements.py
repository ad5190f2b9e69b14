"""A copy by part of the workgroup too narrow to share, spread one element a thread.

IREE's f32 matmuls of a small M or N (``A^T x B`` 94x1826x2660, ``A^T x B^T``
621x1724x1099) copy a 4 x 16 ``K x M`` tile, 64 f32, by threads 0 to 15 of 128, 4 elements
a lane through registers: at the prefetch point under ``scf.if %tid < 16`` (a masked
``vector.transfer_read`` of a ``1 x 4`` run, staged through private memory between two
guards that :func:`~pipeline_mlir.frontend.guarded_pairs.fuse_staged_guards` makes one),
in the late form in a per-thread loop ``scf.for %j = %tid to 16 step 128`` (IREE's guarded
load of the run, ``vector.load`` and ``arith.select`` by its mask).  The spread of
:mod:`~pipeline_mlir.frontend.partial_copy` gives each of the ``f = 8`` threads that share
a copying thread a ``w / f`` of its run, here half an element; :func:`spread_elements`
spreads such a copy otherwise, where :func:`~pipeline_mlir.frontend.partial_copy.spread_copy`
refuses it:

* thread ``t'`` below ``n w`` (the tile's elements) copies element ``p = x mod w`` of the
  run of copying thread ``s = x div w``, ``x = t'``: the region's side-effect free ops
  cloned with the thread id (or the per-thread loop's variable) taken at ``s``, a
  ``vector.load`` of one element from the buffer the read views (its index per dimension
  summed through the subviews, the last moved by ``p``), an ``arith.select`` of it and the
  zero by the ``i1`` that says whether element ``p`` of the run's mask is set (a
  ``vector.create_mask``'s leading sizes at least 1 and ``p`` below its last, ANDed with
  the condition of an ``arith.select`` of such a mask and the all-false one) and the
  condition of the ``arith.select`` of the whole run and zero the kernel writes, if any
  (17x164x4066, N a multiple of the runs: by the K row and C's edge), and a
  ``vector.store`` of it to LDS row ``t' div C``, column ``t' mod C`` (``C`` the columns
  the copy fills): the element the copy wrote there;
* the threads from ``n w`` on read what thread ``t' mod n w`` reads and write rows past the
  tile's (``t' div C`` again), padding rows the LDS buffer gets for them (``memref<4x18xf32>``
  becomes ``memref<8x18xf32>``, ``1x4x18`` ``2x4x18``: grown in its outermost dimension,
  every view of it keeps its strides), which no read reads.
  So every thread copies one element, each element of the buffer written once, each wave's
  lanes in order: :mod:`~pipeline_mlir.frontend.regcopy` makes it a direct-to-LDS copy (the
  buffer made dense, its padding rows kept) as any other copy through registers, and the
  masks are the kernel's, one ``i1`` a lane, which :mod:`~pipeline_mlir.frontend.kept_masks`
  keeps in the address as it keeps IREE's own selects.

The grown buffer is marked :data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR` (a K
merge and the dense buffer of :mod:`~pipeline_mlir.frontend.regcopy` keep the mark): the
tile the payload's geometry is read off (:mod:`~pipeline_mlir.frontend.partition`) counts
the elements of its copies a read reads, not the padding rows'; the front end's own copies
of the channel leave them out (:mod:`~pipeline_mlir.frontend.unread_bits`).

Taken where the copy is one read of a buffer other than LDS and private memory (a
``vector.transfer_read`` in bounds, of the minor identity, padded by zero if masked; a
``vector.load``; IREE's guarded load) whose one use is an LDS write of it in bounds and
unmasked (or an ``arith.select`` of it and zero by one ``i1`` whose one use is that write),
every other op of the region side-effect free; its elements are 4 bytes (the narrowest
direct-to-LDS copy's), a run of ``w`` that divides the ``f`` threads that share it; its LDS
buffer is a ``memref.alloc`` of static sizes, row-major, of 2 dimensions or more (a batch's
``1 x 4 x 18``), used by subviews, loads, stores and its dealloc alone (so a buffer grown in
its outermost dimension changes no view), whose every row the ``n`` copying threads fill,
row by row (its dimensions but the last) in thread order (the element of thread ``s``'s
``p`` is ``s w + p`` of the rows' first ``C`` columns; so the workgroup's ``f n`` threads
are whole rows of ``C`` too); the read's buffer is viewed through casts and same-rank
unit-stride subviews alone.  The spread copy, as emitted, is evaluated per lane beside the
copy and must read, test and write what the copy's element did, the padding rows' lanes each
an element of their own.  Otherwise the op is refused
(:func:`~pipeline_mlir.frontend.partial_copy.partial_copy_refusal`), saying which of these
fails; a region of another form keeps
:func:`~pipeline_mlir.frontend.partial_copy.spread_copy`'s refusal.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pipeline_mlir.analysis.ir_facts import (splat_mask, attr_names, block_size,
                                             dense_row_major, element_bytes, segments,
                                             transfer, zero_bits)
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.index_ops import SGT, SLT
from pipeline_mlir.frontend.index_ops import arith_op as _arith
from pipeline_mlir.frontend.kernel_ir import fat_root, in_lds, in_space, is_pure, kernel_of
from pipeline_mlir.frontend.marks import PADDING_ROWS_ATTR

__all__ = ["element_copy", "first_step_evaluator", "spread_elements"]

#: the bytes of an element a thread copies alone (the narrowest direct-to-LDS copy's)
ELEMENT_BYTES = 4
#: the users an LDS buffer given padding rows may have (none depends on its rows)
USERS = ("memref.subview", "vector.load", "vector.store", "vector.transfer_read",
         "vector.transfer_write", "memref.load", "memref.store", "amdgpu.gather_to_lds",
         "memref.dealloc")


class Copy(NamedTuple):
    """A region's one copy through registers (:func:`element_copy`)."""

    read: object        # the read (or IREE's guarded load, an ``scf.if``)
    write: object       # its LDS write
    src: object         # the memref the run is read from
    indices: list       # its indices
    mask: object        # the run's mask, or None
    width: int          # the run's elements
    select: object      # the ``arith.select`` of the whole run and zero between them, or None


def element_copy(body: list) -> Copy | None:
    """The one copy through registers of region ``body`` (its ops but the terminator) as
    the module docstring takes it, else None."""
    reads = [o for o in body if not is_pure(o)]
    if len(reads) != 2:
        return None
    read, write = reads
    copy = _read(read)
    value = write.operands[0] if write.name in ("vector.store", "vector.transfer_write") \
        else None
    sel = None if value is None or isinstance(value.owner, ir.Block) else _op(value.owner)
    if sel is None or sel.name != "arith.select" or sel.operands[1] != read.results[0] or \
            not zero_bits(sel.operands[2]) or isinstance(sel.operands[0].type, ir.VectorType) \
            or len(list(sel.results[0].uses)) != 1:
        sel = None
    if copy is None or value is None or not in_lds(write.operands[1]) or \
            value != (read.results[0] if sel is None else sel.results[0]) or \
            len(list(read.results[0].uses)) != 1 or \
            (write.name == "vector.transfer_write" and not transfer(write).plain):
        return None
    src, indices, mask, vt = copy
    if in_lds(src) or in_space(src, "private") or any(d != 1 for d in vt.shape[:-1]):
        return None
    return Copy(read, write, src, indices, mask, vt.shape[-1], sel)


def _read(o):
    """(source, indices, mask or None, vector type) of read ``o``, None if it is none the
    module takes or pads with other than zero."""
    if o.name == "vector.load":
        return o.operands[0], list(o.operands[1:]), None, ir.VectorType(o.results[0].type)
    if o.name == "vector.transfer_read":
        g, facts = segments(o), transfer(o)
        mask = g[3][0] if len(g) > 3 and g[3] else None
        if not facts.in_view or (mask is not None and not zero_bits(g[2][0])):
            return None     # (unmasked and in bounds, its padding is read nowhere)
        return g[0][0], list(g[1]), mask, ir.VectorType(o.results[0].type)
    if o.name == "scf.if":
        parts = _guarded(o)
        if parts is None or not zero_bits(parts[2]):
            return None
        load, mask, _pad = parts
        return load.operands[0], list(load.operands[1:]), mask, \
            ir.VectorType(o.results[0].type)
    return None


def _guarded(o):
    """(the plain load, the mask, the pass-through) of IREE's guarded load ``o``
    (:mod:`~pipeline_mlir.frontend.guarded_load`, which imports this module's caller): a
    ``vector.maskedload`` yielded in the then region, a ``vector.load`` of the same buffer
    and indices and an ``arith.select`` of it by the same mask and pass-through yielded in
    the else region, whichever the condition takes (the run, element by element, is the
    same: the spread reads each element alone); else None."""
    if len(o.results) != 1 or len(o.regions) != 2 or not len(o.regions[1].blocks):
        return None
    then = [_op(x) for x in o.regions[0].blocks[0].operations]
    other = [_op(x) for x in o.regions[1].blocks[0].operations]
    if [x.name for x in then] != ["vector.maskedload", "scf.yield"] or \
            [x.name for x in other] != ["vector.load", "arith.select", "scf.yield"]:
        return None
    masked, load, select = then[0], other[0], other[1]
    *run, mask, pad = list(masked.operands)
    if then[1].operands[0] != masked.results[0] or other[2].operands[0] != select.results[0] \
            or list(load.operands) != run or list(select.operands) != [mask, load.results[0],
                                                                      pad]:
        return None
    return load, mask, pad


def spread_elements(op, body: list, copy: Copy, runs, iv, loop, refuse, tids,
                    cloner) -> None:
    """``op``'s copy ``copy`` (:func:`element_copy`), made by threads ``0`` to ``n - 1``
    (``runs``), spread one element a thread (module docstring); ``refuse(why)`` gives the
    refusal; ``tids``: the region's thread ids, ``cloner``
    :func:`~pipeline_mlir.frontend.partial_copy._cloner`."""
    threads, n, w = len(runs), int(np.count_nonzero(runs)), copy.width
    if element_bytes(ir.MemRefType(copy.src.type)) != ELEMENT_BYTES:
        raise refuse(f"where its elements are of {ELEMENT_BYTES} bytes, the narrowest a "
                     f"direct-to-LDS copy moves, when a lane's {w} elements do not split "
                     f"into the {threads // n} threads that share it")
    if (threads // n) % w:
        raise refuse(f"where each lane's {w} elements split into the {threads // n} pieces "
                     f"of {threads} / {n} threads, or divide them")
    if copy.mask is not None and not _mask_form(copy.mask):
        raise refuse(f"where the run's mask is {MASKS}")
    alloc = _alloc(copy.write, refuse)
    try:
        ev = first_step_evaluator(op, iv, loop)
        old = _old_elements(ev, copy, runs)
    except IRError as e:
        raise refuse(f"where its addresses evaluate per thread "
                     f"({e.args[0].splitlines()[0][:160]})") from None
    shape = ir.MemRefType(alloc.results[0].type).shape
    cols = _columns(old, n, w, shape[-1], refuse)
    if int(np.prod(shape[:-1])) * cols != n * w:
        raise refuse(f"where the copy fills every row of its LDS buffer "
                     f"{alloc.results[0].type}, not {n * w // cols} of them")
    # (n w whole rows of cols, w dividing threads / n: the threads are whole rows too, and
    # the outermost dimension grows by threads / (n w))
    new_alloc = _grown(alloc, shape[0] * threads // (n * w))
    try:
        new = _emit(op, body, copy, iv, cloner, tids, (threads, n * w, w), cols,
                    new_alloc.results[0], refuse)
    except IRError:
        new_alloc.erase()
        raise
    why = _differs(ev, new, old, w, n * w, cols, ir.MemRefType(alloc.results[0].type))
    if why is not None:
        for o in reversed(new[3]):
            o.erase()
        new_alloc.erase()
        raise refuse(why)
    alloc.results[0].replace_all_uses_with(new_alloc.results[0])
    alloc.erase()
    op.erase()


def _alloc(write, refuse):
    """The ``memref.alloc`` LDS write ``write`` writes (of static sizes, row-major, of 2
    dimensions or more), used as :data:`USERS` say."""
    v = write.operands[1]
    while not isinstance(v.owner, ir.Block) and _op(v.owner).name == "memref.subview":
        v = _op(v.owner).operands[0]
    o = None if isinstance(v.owner, ir.Block) else _op(v.owner)
    if o is None or o.name != "memref.alloc" or ir.MemRefType(v.type).rank < 2 or \
            any(s < 0 for s in ir.MemRefType(v.type).shape) or \
            not dense_row_major(ir.MemRefType(v.type)) or \
            any(_op(u.owner).name not in USERS for u in v.uses):
        raise refuse(f"where its LDS buffer is a 'memref.alloc' of static sizes, row-major, "
                     f"of 2 dimensions or more, used by "
                     f"{', '.join(USERS)} alone (so padding rows change no view)")
    return o


def first_step_evaluator(op, iv, loop):
    """A per-lane evaluator of ``op``'s region at the K-loop ``loop``'s first step (and the
    per-thread loop's first trip, ``iv``), the sampled workgroup."""
    ev = Evaluator(block_size(kernel_of(loop)))
    ev.where = op
    ev.bind(loop.regions[0].blocks[0].arguments[0], ev.value(loop.operands[0]))
    if iv is not None:
        ev.bind(iv, ev.value(op.operands[0]))
    return ev


def _old_elements(ev, copy: Copy, runs) -> tuple:
    """The copy's per thread: (the source's root element of its run, its root, the LDS
    root element of its run, the element's mask as a (threads, w) array)."""
    sv = ev.view(copy.src)
    w = copy.write
    dv = ev.view(w.operands[1])
    idx = list(w.operands[2:]) if w.name == "vector.store" else segments(w)[2]
    if sv.strides[-1] != 1 or dv.strides[-1] != 1:
        raise IRError(w, "a run of elements not contiguous")
    src = sv.element([ev.value(i) for i in copy.indices])
    lds = dv.element([ev.value(i) for i in idx])
    mask = np.ones((len(runs), copy.width), dtype=bool) if copy.mask is None else \
        np.stack([_mask_values(ev, copy.mask, p) for p in range(copy.width)], axis=1)
    if copy.select is not None:
        mask &= (ev.value(copy.select.operands[0]) != 0)[:, None]
    return src, sv.root, lds, mask


#: the masks a run may have, said in a refusal
MASKS = ("a 'vector.create_mask' or an 'arith.select' of an i1, such a mask and the "
         "all-false one")


def _mask_form(mask) -> bool:
    """Whether ``mask`` is one of :data:`MASKS`."""
    o = None if isinstance(mask.owner, ir.Block) else _op(mask.owner)
    if o is not None and o.name == "arith.select":
        return splat_mask(o.operands[2]) is False and not isinstance(o.operands[0].type,
                                                           ir.VectorType) and \
            _mask_form(o.operands[1])
    return o is not None and o.name == "vector.create_mask"


def _mask_values(ev, mask, p: int) -> np.ndarray:
    """Per thread, whether element ``p`` of the run's ``mask`` (:func:`_mask_form`) is set:
    its ops' meaning, in numpy."""
    o = _op(mask.owner)
    if o.name == "vector.create_mask":
        sizes = [ev.value(x) for x in o.operands]
        got = sizes[-1] > p
        for s in sizes[:-1]:
            got = got & (s >= 1)
        return np.asarray(got, dtype=bool)
    return (ev.value(o.operands[0]) != 0) & _mask_values(ev, o.operands[1], p)


def _columns(old: tuple, n: int, w: int, pitch: int, refuse) -> int:
    """The columns ``C`` the copy fills, row by row in thread order (the module's rule)."""
    e = (old[2][:n, None] + np.arange(w)[None, :]).ravel()
    rows, cols = e // pitch, e % pitch
    c = int(cols.max()) + 1
    if (n * w) % c or not np.array_equal(rows * c + cols, np.arange(n * w)):
        raise refuse(f"where its threads fill the rows of its LDS buffer in order, thread "
                     f"s's element p the ({w} s + p)-th of the columns the copy fills")
    return c


def _grown(alloc, outer: int):
    """A ``memref.alloc`` of ``alloc``'s shape but ``outer`` in its outermost dimension, after
    it (its attributes), marked
    :data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR`."""
    mt = ir.MemRefType(alloc.results[0].type)
    with ir.InsertionPoint.after(alloc), alloc.location:
        t = ir.MemRefType.get([outer] + list(mt.shape[1:]), mt.element_type,
                              memory_space=mt.memory_space)
        attrs = {n: alloc.attributes[n] for n in attr_names(alloc)}
        attrs[PADDING_ROWS_ATTR] = ir.UnitAttr.get()
        return ir.Operation.create("memref.alloc", results=[t], operands=list(alloc.operands),
                                   attributes=attrs)


def _condition(mask, p, get):
    """The ``i1`` that element ``p`` of the run's ``mask`` is set, of the cloned operands
    (``get``), at the insertion point (:func:`_mask_values` says which masks)."""
    o = _op(mask.owner)
    if o.name == "vector.create_mask":
        c = _arith("cmpi", p, get(o.operands[len(o.operands) - 1]), SLT)
        for x in list(o.operands)[:-1]:
            c = _arith("andi", c, _arith("cmpi", get(x), index_constant(0), SGT))
        return c
    return _arith("andi", get(o.operands[0]), _condition(o.operands[1], p, get))


def _emit(op, body, copy: Copy, iv, cloner, tids, shape: tuple, cols: int, dst,
          refuse) -> tuple:
    """The spread copy before ``op``: (its load, its ``i1`` or None, its store, the ops
    made, in order of creation); ``shape``: (the workgroup's threads, the tile's elements,
    a run's)."""
    threads, total, w = shape
    block = op.operation.block
    before = _position(block, op)
    box = {}

    def split(tid):
        box["tid"] = tid
        x = _arith("remui", tid, index_constant(total))
        return _arith("divui", x, index_constant(w)), _arith("remui", x, index_constant(w))

    with ir.InsertionPoint(op), op.location:
        get, clone, _s, p = cloner(body, tids, iv, w, threads, 1, split)
        for o in body:
            if all(o is not x and o != x for x in (copy.read, copy.write, copy.select)
                   if x is not None):
                clone(o)
        root = fat_root(copy.src)
        at = dim_indices(_Adder, _Adder, get(copy.src), [get(i) for i in copy.indices], root)
    if at is None:
        for o in reversed([_op(x) for x in block.operations][before:_position(block, op)]):
            o.erase()
        raise refuse("where the buffer its run is read from is viewed through casts and "
                     "unit-stride subviews of its rank alone")
    with ir.InsertionPoint(op), copy.read.location:
        elem = ir.MemRefType(root.type).element_type
        vt = ir.VectorType.get([1], elem)
        at[-1] = _arith("addi", at[-1], p)
        load = ir.Operation.create("vector.load", results=[vt], operands=[root] + at)
        value = load.results[0]
        cond = None if copy.select is None else get(copy.select.operands[0])
        if copy.mask is not None:
            c = _condition(copy.mask, p, get)
            cond = c if cond is None else _arith("andi", cond, c)
        if cond is not None:
            zero = ir.FloatAttr.get(elem, 0.0) if isinstance(elem, ir.FloatType) else \
                ir.IntegerAttr.get(elem, 0)
            pad = ir.Operation.create("arith.constant", results=[vt], attributes={
                "value": ir.DenseElementsAttr.get_splat(vt, zero)}).results[0]
            value = ir.Operation.create("arith.select", results=[vt],
                                        operands=[cond, value, pad]).results[0]
    with ir.InsertionPoint(op), copy.write.location:
        tid = box["tid"]
        store = ir.Operation.create("vector.store", operands=[value, dst] + _row_indices(
            _arith("divui", tid, index_constant(cols)), ir.MemRefType(dst.type).shape[:-1]) +
            [_arith("remui", tid, index_constant(cols))])
    ops = [_op(o) for o in block.operations]
    return load, cond, store, ops[before:_position(block, op)]


def _row_indices(row, dims: list) -> list:
    """The indices along ``dims`` (a buffer's dimensions but its last) of flat row ``row``,
    the outermost unbounded."""
    out = []
    for k in range(len(dims) - 1, 0, -1):
        out.insert(0, _arith("remui", row, index_constant(dims[k])))
        row = _arith("divui", row, index_constant(dims[k]))
    return [row] + out


class _Adder:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations as ``arith``
    ops at the insertion point."""

    @staticmethod
    def get(v):
        return v

    @staticmethod
    def c(k: int):
        return index_constant(k)

    @staticmethod
    def add(a, b):
        return a if b is None else _arith("addi", a, b)


def _position(block, op) -> int:
    """``op``'s index among ``block``'s ops."""
    return next(k for k, o in enumerate(block.operations) if o == op)


def _differs(ev, new: tuple, old: tuple, w: int, total: int, cols: int, mt) -> str | None:
    """Why the spread copy ``new`` (:func:`_emit`), evaluated per lane, does not read, test
    and write what the copy's element did (``old``: :func:`_old_elements`), the padding
    rows' lanes each an element of their own; None when it does."""
    load, cond, store, _ = new
    try:
        sv, dv = ev.view(load.operands[0]), ev.view(store.operands[1])
        src = sv.element([ev.value(i) for i in load.operands[1:]])
        lds = dv.element([ev.value(i) for i in store.operands[2:]])
        got = None if cond is None else ev.value(cond) != 0
    except IRError as e:
        return f"where its addresses evaluate per thread ({e.args[0].splitlines()[0][:160]})"
    t = np.arange(len(src))
    x = t % total
    s, p = x // w, x % w
    pitch = mt.shape[-1]
    want = (t // cols) * pitch + t % cols
    real = t < total
    if sv.root != old[1] or not np.array_equal(src, old[0][s] + p) or \
            (got is not None and not np.array_equal(got, old[3][s, p])) or \
            not np.array_equal(lds, want) or \
            not np.array_equal(want[real], old[2][s[real]] + p[real]) or \
            (cond is None and not old[3].all()):
        return ("where the spread copy, evaluated per lane, reads, tests and writes what the "
                "copy's element did (an internal error: it does not)")
    return None
