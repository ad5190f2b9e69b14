"""Copies through registers made direct-to-LDS copies.

IREE copies fp8 and i8 tiles (and any tile when its direct load is off) through registers:
a global load (``vector.load`` / ``vector.transfer_read`` of a fat raw buffer) whose value
one LDS store (``vector.store`` / ``vector.transfer_write``) writes into a padded LDS tile
(``memref<128x136xf8E4M3FN>``: rows of 128 bytes and 8 bytes of padding, which keep the
register path's stores and reads apart in the banks).  The scan recognises the pair as one
copy (:func:`~pipeline_mlir.frontend.scan.register_copy`); :func:`convert_register_copies`
makes each an ``amdgpu.gather_to_lds``, the copy the schedules pipeline:

* the LDS layout is the front end's.  A direct-to-LDS copy writes its wave's 64 lanes
  contiguously from one wave-uniform address, which the padding breaks: a buffer whose
  copies fill the first ``C`` columns of every row of a ``rows x P`` tile becomes the dense
  ``rows x C`` tile, and every view and read of it is rebuilt on the dense buffer (the same
  element, the row stride ``C``).  The copies must then write each wave's lanes in order,
  ``transfer`` elements apart; the wave's first address, a constant plus a multiple of the
  wave index, is emitted before the loop;
* each copy moves a size a direct-to-LDS copy moves (:data:`~pipeline_mlir.target.gfx950.
  LDS_DMA_BYTES`); one whose global address is not proven aligned to what its
  direct-to-LDS copies move in every workgroup, K step and launch (:func:`proven_aligned`,
  from the index arithmetic), or is not aligned in some thread of the analysis' sample (its
  workgroup, the two iterations it evaluates), is marked :data:`STAGED` (register-staged by
  ``sched-stage-copies`` after the schedule);
* a load that keeps a mask in its index (:data:`~pipeline_mlir.frontend.kept_masks.KEPT`)
  gives its mark to the copy, so that the front end does not replace it by copies of its
  own (:mod:`~pipeline_mlir.frontend.layout`), which would not carry the mask;
* IREE's XOR swizzle of the buffer is dropped (the ``iree_codegen.swizzle`` attribute) or
  undone (written as index arithmetic, :mod:`~pipeline_mlir.frontend.unswizzle`);
* everything is checked on the per-lane addresses
  (:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`), and what does not fit is an error
  at the op that says why.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.attrs import is_storage_buffer
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.locations import written_as
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.analysis.ir_facts import (dense_row_major, element_bytes, parse_xor_shuffle,
                                             transfer)
from pipeline_mlir.analysis.loop_eval import DYNAMIC, attr_names, dense_i64
from pipeline_mlir.analysis.views import INDEXING_VIEWS
from pipeline_mlir.frontend.cut_runs import piece_bytes, prove_pieces
from pipeline_mlir.frontend.dword_runs import unaligned_refusal
from pipeline_mlir.frontend.marks import CUT, NARROW, ODD, REMAINDER_ATTR, STAGED
from pipeline_mlir.frontend.kept_masks import KEPT
from pipeline_mlir.frontend.kernel_ir import collapsed, describe, erase_unused
from pipeline_mlir.frontend.launch_stride import launch_aligned, view_stride_divisors
from pipeline_mlir.frontend.scan import SYNC_OPS, Access, LoopScan, in_shared, loop_evaluator
from pipeline_mlir.frontend.split_copy import (GATHER, SPLIT_BYTES, check_split, lane_odd,
                                              split_copy)
from pipeline_mlir.frontend.unswizzle import undo_explicit_swizzle
from pipeline_mlir.kernel.int_arrays import distinct
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, WAVE_SIZE

SWIZZLE = "iree_codegen.swizzle"
#: view ops whose result layout is rebuilt on a dense buffer
VIEW_OPS = INDEXING_VIEWS
#: ops that use an LDS buffer without a layout of their own (their operand is switched)
LAYOUT_FREE_USERS = ("vector.load", "vector.transfer_read", "amdgpu.transpose_load",
                     "memref.dealloc")


def convert_register_copies(scan: LoopScan) -> None:
    """Make every register copy of ``scan`` (an ``Access`` with a ``store``) an
    ``amdgpu.gather_to_lds`` (module docstring); ``scan`` is updated in place."""
    regs = [a for a in scan.copies if a.store is not None]
    if not regs:
        return
    loop = scan.loop
    ev, iv, lb, step = loop_evaluator(scan)
    staged, narrow = set(), {}
    for a in regs:
        _check_vectors(a)
        if _narrow(a):
            narrow[id(a)] = narrow_reason(a)
            continue
        for k in (lb, lb + step):
            ev.bind(iv, k)
            if not _check_source(ev, a):
                staged.add(id(a))
        if not proven_aligned(a, scan.block):
            staged.add(id(a))                       # (the sample's verdict is not enough)
    ev.bind(iv, lb)
    by_root: dict = {}
    for a in regs:
        by_root.setdefault(ev.view(a.view).root, []).append(a)
    wave = _wave_index(scan, regs[0].op)
    kept = {id(a) for a in regs if KEPT in a.op.attributes or CUT in a.op.attributes}
    odd = {id(a): a.op.attributes[ODD] for a in regs if ODD in a.op.attributes}
    done = {}
    for root, accs in by_root.items():
        done.update(_convert_buffer(ev, scan, root, accs, wave, (iv, lb, step)))
    for key in staged:
        for c in done[key]:
            set_attribute(c.op, STAGED, ir.UnitAttr.get())
    for key in kept:        # (a mask kept in its index: frontend/kept_masks.py)
        for c in done[key]:
            set_attribute(c.op, KEPT, ir.UnitAttr.get())
    for key, piece in odd.items():    # (pieces of one element: no DMA moves them,
        for c in done[key]:           # cut_runs.py)
            set_attribute(c.op, ODD, piece)
            set_attribute(c.op, STAGED, ir.UnitAttr.get())
    for key, why in narrow.items():     # (only the front end's own copies replace it;
        for c in done[key]:             # a remainder loop stages it, as the kernel copied)
            set_attribute(c.op, NARROW, ir.StringAttr.get(why))
            set_attribute(c.op, STAGED, ir.UnitAttr.get())
    scan.copies = [c for a in scan.copies for c in done.get(id(a), [a])]
    scan.ops = [_op(o) for o in loop.regions[0].blocks[0].operations][:-1]


def binding_copy(scan: LoopScan) -> str | None:
    """Why a rewrite that keeps the loop's copies (the K steps a merge leaves over) cannot
    take them, or None: a copy made here from a binding IREE left in
    ``#hal.descriptor_type<storage_buffer>`` reads that binding, which no direct-to-LDS copy
    reads; only the layout's own copies (from its fat raw buffer) replace it."""
    for c in scan.copies:
        src = c.src if c.src is not None else c.op.operands[0]
        if is_storage_buffer(src.type):
            return (f"{describe(c.op)} copies through registers from {src.type}, a binding "
                    f"of a size known only at launch (not a fat raw buffer); the merge "
                    f"does not make such a copy a direct-to-LDS one")
    return None


def _check_vectors(a: Access) -> None:
    """A copy of one contiguous run of elements: in bounds, unmasked, every vector
    dimension but the last of size 1."""
    for op in (a.op, a.store):
        vt = ir.VectorType(op.results[0].type if op == a.op else op.operands[0].type)
        if any(d != 1 for d in vt.shape[:-1]):
            raise IRError(op, f"{describe(op)} moves {vt}, several runs of elements per lane; "
                              f"a direct-to-LDS copy moves one run per lane")
        if not op.name.startswith("vector.transfer"):
            continue
        facts = transfer(op)
        if facts.masked and CUT not in op.attributes:   # (cut_runs.py: in pieces)
            raise IRError(op, f"{describe(op)} is masked; a masked copy (a K tail) cannot be "
                              f"made a direct-to-LDS copy")
        if not all(facts.in_bounds):
            raise IRError(op, f"{describe(op)} may access out of bounds (in_bounds is not all "
                              f"true); a direct-to-LDS copy cannot pad")
        if not facts.minor_identity:
            pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
            raise IRError(op, f"{describe(op)} uses permutation map {pm}; a copy is a "
                          f"minor-identity run of elements")


def _elements(ev, view_value, indices, n: int, op, what: str) -> np.ndarray:
    """(threads, n) root elements of ``view_value[indices]`` and the ``n - 1`` after it,
    which must be contiguous."""
    v = ev.view(view_value)
    if v.strides and v.strides[-1] != 1:
        raise IRError(op, f"{describe(op)} {what} with a stride of {v.strides[-1]} elements "
                          f"in the innermost dimension; a copy moves contiguous elements")
    start = v.element([ev.value(i) for i in indices])
    return start[:, None] + np.arange(n)[None, :]


def _narrow(a: Access) -> bool:
    """Copy ``a`` moves fewer bytes per lane than the narrowest direct-to-LDS copy, a
    whole fraction of it (1 or 2 bytes): made an ``amdgpu.gather_to_lds`` marked
    :data:`NARROW`, which only the front end's own copies of its channel, of a direct-to-LDS
    size, replace in the loop to pipeline (:mod:`~pipeline_mlir.frontend.layout`), and
    :data:`STAGED`: a remainder loop that keeps the kernel's copies (the K steps a merge
    leaves over) stages it through registers, as the kernel copied it; one left outside a
    remainder loop is refused (:func:`check_no_narrow`)."""
    size = a.elements * element_bytes(ir.MemRefType(a.src.type))
    return size < LDS_DMA_BYTES[0] and LDS_DMA_BYTES[0] % size == 0


def narrow_reason(a: Access) -> str:
    """Why the copy ``a`` is no direct-to-LDS copy (its size per lane)."""
    vt = ir.VectorType(a.op.results[0].type)
    size = a.elements * element_bytes(ir.MemRefType(a.src.type))
    return (f"{describe(a.op)} copies {size} bytes per lane ({vt}); a direct-to-LDS copy "
            f"moves {' or '.join(map(str, LDS_DMA_BYTES))} bytes per lane (and "
            f"{SPLIT_BYTES} as two copies; a copy that stays in registers is not pipelined)")


def check_no_narrow(kernel) -> None:
    """An error at the first copy :func:`convert_register_copies` marked :data:`NARROW`
    that is still in ``kernel`` (no copies of the front end's own replaced it)."""
    left = [o for o in walk_ops(kernel, lambda o: NARROW in o.attributes)
            if not _in_remainder(o)]
    if left:
        o = left[0]
        raise IRError(o, f"{ir.StringAttr(o.attributes[NARROW]).value}: only the front "
                         f"end's own copies of its channel, of a direct-to-LDS size, replace "
                         f"such a copy, and this loop keeps the kernel's copies")


def _in_remainder(o) -> bool:
    p = o.parent
    while p is not None:
        p = _op(p)
        if REMAINDER_ATTR in p.attributes:
            return True
        p = p.parent
    return False


def _check_source(ev, a: Access) -> bool:
    """The global half of copy ``a`` moves a direct-to-LDS size (at the loop variable's
    current binding); whether every thread's address is aligned to it (a DMA copy) or not
    (a register-staged copy)."""
    v = ev.view(a.src)
    size = a.elements * v.elem_bytes
    if size not in LDS_DMA_BYTES and size != SPLIT_BYTES:
        raise IRError(a.op, f"{describe(a.op)} copies {size} bytes per lane; a direct-to-LDS "
                            f"copy moves {' or '.join(map(str, LDS_DMA_BYTES))} bytes per lane "
                            f"(and {SPLIT_BYTES} as two copies; a copy that stays in registers "
                            f"is not pipelined)")
    el = _elements(ev, a.src, a.src_indices, a.elements, a.op, "reads global memory")
    moved = _moved(a, size)
    return not np.any((el[:, 0] * v.elem_bytes) % moved) and launch_aligned(v.root, moved)


def _moved(a: Access, size: int) -> int:
    """The bytes per lane each direct-to-LDS copy made of ``a`` (``size`` bytes per lane)
    moves: a piece's (cut_runs.py), a dword of a split copy (split_copy.py), else ``size``."""
    return piece_bytes(a.op) if CUT in a.op.attributes else \
        LDS_DMA_BYTES[0] if size == SPLIT_BYTES else size


def proven_aligned(a: Access, block: tuple) -> bool:
    """Whether the global address of copy ``a`` (a workgroup of ``block`` threads) is
    proven a multiple of the bytes its direct-to-LDS copies move in every workgroup, K step
    and launch, from its index arithmetic without evaluating the grid (the test of
    :func:`~pipeline_mlir.frontend.dword_runs.unaligned_refusal`, which the front end's
    own copies pass too: :func:`~pipeline_mlir.frontend.dword_runs.start_zeros`, a stride
    known only at launch counted by its proven divisor, :func:`~pipeline_mlir.frontend.launch_stride.
    view_stride_divisors`, IREE's ``util.assume.int`` ``udiv``), and its buffer's start as
    aligned as the kernel states it (:func:`~pipeline_mlir.frontend.dword_runs.base_zeros`:
    an IREE binding's ``alignment``)."""
    moved = _moved(a, a.elements * element_bytes(ir.MemRefType(a.src.type)))
    return moved & (moved - 1) == 0 and unaligned_refusal(
        a.src, a.src_indices, block, moved, view_stride_divisors) is None


def _wave_index(scan: LoopScan, where):
    """The wave index (linear thread id / 64) as an index value, emitted before the loop at
    the location of ``where`` (the first copy it is for)."""
    bx, by, bz = scan.block
    A = B.arith
    with ir.InsertionPoint(scan.loop), where.location:
        t = ir.IndexType.get()

        def tid(dim: str):
            return B.gpu.thread_id(getattr(B.gpu.Dimension, dim))

        def c(v: int):
            return A.constant(t, ir.IntegerAttr.get(t, v))

        linear = tid("x")
        if by > 1 or bz > 1:
            linear = A.addi(linear, A.muli(tid("y"), c(bx)))
        if bz > 1:
            linear = A.addi(linear, A.muli(tid("z"), c(bx * by)))
        return A.divui(linear, c(WAVE_SIZE))


def _convert_buffer(ev, scan: LoopScan, root, accs: list, wave, steps: tuple) -> dict:
    """The register copies ``accs`` into LDS buffer ``root`` made direct-to-LDS copies,
    the buffer made dense first when it is padded: {old load op: new Access}.  ``steps``:
    the loop variable, its first value and its step (``loop_evaluator``'s)."""
    where = accs[0].store
    owner = root.owner
    if isinstance(owner, ir.Block) or _op(owner).name != "memref.alloc":
        raise IRError(where, f"{describe(where)} stores into LDS that is not a memref.alloc "
                             f"({root.type}); the front end lays out the LDS of register "
                             f"copies itself and needs to own the buffer")
    if SWIZZLE in _op(owner).attributes:
        _drop_swizzle(ev, scan, root, accs)
    else:
        undo_explicit_swizzle(ev, scan, root, accs, lambda view, indices, n, op: _elements(
            ev, view, indices, n, op, "accesses LDS"))
    mt = ir.MemRefType(root.type)
    rows, width = int(np.prod(mt.shape[:-1])), mt.shape[-1]
    if not dense_row_major(mt):
        raise IRError(_op(owner), f"'memref.alloc' op: LDS buffer {root.type} is not row-major")
    written = {a.op: _elements(ev, a.view, a.indices, a.elements, a.store, "writes LDS")
               for a in accs}
    iv = steps[0]
    for a in accs:
        if any(x == iv or ev.computed_from(x, iv) for x in [a.view] + list(a.indices)):
            raise IRError(a.store, f"{describe(a.store)} writes LDS at an index computed from "
                                   f"the K-loop's variable; the direct-to-LDS copy made of it "
                                   f"writes where its first iteration does, which needs the "
                                   f"same LDS elements in every iteration")
    cols = _dense_columns(scan, ev, root, accs, written, rows, width)
    new_root = root
    if cols != width:
        new_root = _dense_alloc(_op(owner), mt, cols)
    flat = collapsed(new_root)
    out = {}
    for a in accs:
        el = written[a.op]
        out[id(a)] = _gather(ev, scan, a, (el // width) * cols + el % width, flat, wave,
                             steps, [r.op for r in scan.reads])
    for a in accs:
        a.store.erase()
        a.op.erase()
    erase_unused([o for a in accs for o in _view_chain(a.view)])  # their views left dead
    if new_root is not root:
        mapping = _reroot(root, new_root)
        for r in scan.reads:
            r.view = mapping.get(r.view, r.view)
        _op(owner).erase()
    return out


def _drop_swizzle(ev, scan, root, accs: list) -> None:
    """Remove IREE's XOR swizzle from LDS buffer ``root``: a permutation of whole
    ``access``-element chunks that every store and read through registers applies alike
    (:mod:`pipeline_mlir.frontend.tail_swizzle`), so dropping it keeps what each read
    reads when every access of the buffer is one of the loop's copies and reads and stays
    inside one chunk (checked; otherwise an error at the access)."""
    alloc = _op(root.owner)
    sw = parse_xor_shuffle(alloc.attributes[SWIZZLE])
    if sw is None:
        raise IRError(alloc, f"'memref.alloc' op: unknown swizzle {alloc.attributes[SWIZZLE]}")
    access = sw[1]
    known = {a.store: (a.view, a.indices, a.elements) for a in accs}
    known.update({r.op: (r.view, r.indices, r.elements) for r in scan.reads
                  if ev.view(r.view).root == root})
    todo = [root]
    while todo:
        v = todo.pop()
        for u in v.uses:
            o = _op(u.owner)
            if o.name in VIEW_OPS and o.operands[0] == v:
                todo.append(o.results[0])
            elif o.name != "memref.dealloc" and o not in known:
                raise IRError(o, f"{describe(o)} uses swizzled LDS buffer {root.type} outside "
                                 f"the K-loop's register copies and reads; the front end drops "
                                 f"the swizzle of a buffer it stages copies through only when "
                                 f"it sees every access")
    for o, (view, indices, n) in known.items():
        el = _elements(ev, view, indices, n, o, "accesses LDS")
        if np.any(el[:, 0] // access != el[:, -1] // access):
            raise IRError(o, f"{describe(o)} accesses {n} elements across the {access}-element "
                             f"chunks that the swizzle of {root.type} permutes")
    set_attribute(alloc, SWIZZLE, None)


def _dense_columns(scan, ev, root, accs, written: dict, rows: int, width: int) -> int:
    """The columns ``C`` the copies fill, in every row, each element once; every fragment
    read of ``root`` reads those."""
    where = accs[0].store
    every = np.concatenate([w.ravel() for w in written.values()])
    cols = int((every % width).max()) + 1
    uniq = distinct(every)
    dense = (np.arange(rows)[:, None] * width + np.arange(cols)[None, :]).ravel()
    if len(uniq) != len(every) or not np.array_equal(uniq, dense):
        twice = len(every) - len(uniq)
        raise IRError(where, f"{describe(where)}: the register copies into {root.type} "
                             f"{f'write {twice} elements twice' if twice else 'leave gaps'}; "
                             f"the front end makes them direct-to-LDS copies when together "
                             f"they write the first {cols} columns of every row once")
    for r in scan.reads:
        if ev.view(r.view).root != root:
            continue
        el = _elements(ev, r.view, r.indices, r.elements, r.op, "reads LDS")
        if int((el % width).max()) >= cols:
            raise IRError(r.op, f"{describe(r.op)} reads columns past the {cols} the copies "
                                f"write in {root.type}")
    return cols


def _dense_alloc(alloc, mt, cols: int):
    """A new LDS allocation of ``mt``'s rows with ``cols`` columns, after ``alloc``."""
    new_t = ir.MemRefType.get(list(mt.shape[:-1]) + [cols], mt.element_type,
                              memory_space=mt.memory_space)
    with ir.InsertionPoint.after(alloc), alloc.location:
        attrs = {n: alloc.attributes[n] for n in attr_names(alloc)}
        return ir.Operation.create("memref.alloc", results=[new_t], operands=[],
                                   attributes=attrs).results[0]


def _gather(ev, scan, a: Access, dense: np.ndarray, flat, wave, steps: tuple,
            reads=()) -> list:
    """The ``amdgpu.gather_to_lds`` of copy ``a`` (two of them for a copy of 8 bytes per
    lane: :mod:`~pipeline_mlir.frontend.split_copy`) whose lanes write the elements ``dense``
    of buffer ``flat`` (checked: each wave's lanes in order from one address, that address
    a constant plus a multiple of the wave index), created where :func:`_copy_point` says
    (``reads``: the loop's LDS reads)."""
    n = a.elements
    lane = np.arange(dense.shape[0]) % WAVE_SIZE
    first = dense[np.arange(dense.shape[0]) - lane, 0]
    want = first[:, None] + lane[:, None] * n + np.arange(n)[None, :]
    if not np.array_equal(dense, want):
        t = int(np.flatnonzero((dense != want).any(axis=1))[0])
        raise IRError(a.store, f"{describe(a.store)}: lane {t % WAVE_SIZE} of wave "
                               f"{t // WAVE_SIZE} writes LDS element {int(dense[t, 0])} of the "
                               f"dense tile, not {int(want[t, 0])}; a direct-to-LDS copy "
                               f"writes a wave's lanes in order from one address")
    bases = first[::WAVE_SIZE]
    b0 = int(bases[0])
    bs = int(bases[1] - bases[0]) if len(bases) > 1 else 0
    if not np.array_equal(bases, b0 + bs * np.arange(len(bases))):
        raise IRError(a.store, f"{describe(a.store)}: the waves start writing at LDS elements "
                               f"{bases.tolist()}, not a constant plus a multiple of the wave "
                               f"index")
    A = B.arith
    t = ir.IndexType.get()
    with ir.InsertionPoint.after(_op(wave.owner)), a.op.location:
        base = A.addi(A.muli(wave, A.constant(t, ir.IntegerAttr.get(t, bs))),
                      A.constant(t, ir.IntegerAttr.get(t, b0)))
    et = ir.MemRefType(flat.type).element_type
    size = n * ev.view(a.src).elem_bytes
    if size == SPLIT_BYTES or CUT in a.op.attributes:     # (split_copy.py, cut_runs.py)
        parts = size // (piece_bytes(a.op) if CUT in a.op.attributes else LDS_DMA_BYTES[0])
        halves = split_copy(a, flat, base, scan.block, _copy_point(a, reads),
                            lane_odd(scan.loop, n // parts, parts), parts)
        iv, lb, step = steps
        for k in (lb + step, lb):                  # (the two iterations checked, lb last)
            ev.bind(iv, k)
            check_split(ev, a, halves)
        if CUT in a.op.attributes:                 # (its mask, piece by piece, every workgroup)
            prove_pieces(a.op, [idx[0] for _, _, _, idx in halves])
        return [Access(op, flat, [lds], n // parts, src, idx) for op, lds, src, idx in halves]
    attrs = {"transferType": ir.TypeAttr.get(ir.VectorType.get([n], et)),
             "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, len(a.src_indices), 1, 1])}
    with ir.InsertionPoint(_copy_point(a, reads)), written_as(a.op, GATHER):
        new = ir.Operation.create(GATHER, operands=[a.src] + list(a.src_indices) + [flat, base],
                                  attributes=attrs)
    return [Access(new, flat, [base], n, a.src, list(a.src_indices))]


def _copy_point(a: Access, reads=()):
    """Where the direct-to-LDS copy of ``a`` goes: its load, or its store when a
    synchronisation op or one of ``reads`` (the loop's LDS reads) lies between them in the
    loop body.  The LDS write never moves above what came before it in the kernel: IREE's
    late form may load a tile before the barrier that guards the previous iteration's reads
    and store it after; a wave may read LDS between a load and its store with no barrier
    (one wave needs none between its own read and store), and the write at the load would
    overwrite what that read still reads.  The write stays where the kernel wrote it (the
    loop's order check then judges the read: here one of the previous iteration's copy)."""
    ops = [_op(o) for o in a.op.operation.block.operations]
    if a.store not in ops:
        return a.op
    i, j = ops.index(a.op), ops.index(a.store)
    between = ops[i + 1:j]
    return a.store if any(o.name in SYNC_OPS or o in reads for o in between) else a.op


# ---------------------------------------------------------------------------------------------
# rebuilding the views of a buffer on its dense replacement
# ---------------------------------------------------------------------------------------------

def _reroot(old, new) -> dict:
    """Rebuild every view of LDS buffer ``old`` on ``new`` (same shape but the last
    dimension) and switch the ops that use them; {old value: new value}."""
    mapping = {old: new}
    todo, views, users = [old], [], []
    while todo:
        v = todo.pop()
        for u in list(v.uses):
            o = _op(u.owner)
            if o.name in VIEW_OPS and o.operands[0] == v:
                rt = _view_type(o, mapping[v].type)
                attrs = {n: o.attributes[n] for n in attr_names(o)}
                with ir.InsertionPoint(o), o.location:
                    n = ir.Operation.create(o.name, results=[rt],
                                            operands=[mapping[v]] + list(o.operands)[1:],
                                            attributes=attrs)
                mapping[o.results[0]] = n.results[0]
                views.append(o)
                todo.append(o.results[0])
            elif o.name in LAYOUT_FREE_USERS or in_shared(o):
                # (a remainder loop on the schedule's buffers: sched-adopt-loop rebuilds
                # it from the pipelined loop's analysis; its ops are not kept)
                users.append((o, v))
            else:
                raise IRError(o, f"{describe(o)} uses LDS buffer {old.type}, whose layout the "
                                 f"front end changes for its direct-to-LDS copies, in a way it "
                                 f"cannot rebuild (it rebuilds {', '.join(VIEW_OPS)})")
    for o, v in users:
        for i, x in enumerate(o.operands):
            if x == v:
                o.operands[i] = mapping[v]
    for o in reversed(views):
        o.erase()
    return mapping


def _layout(shape, strides, offset: int, identity: bool):
    if identity:
        return None
    return ir.StridedLayoutAttr.get(offset, list(strides))


def _view_type(op, src_type):
    """The result type of view ``op`` applied to a source of type ``src_type``."""
    src = ir.MemRefType(src_type)
    old = ir.MemRefType(op.results[0].type)
    strides, offset = src.get_strides_and_offset()
    identity = isinstance(src.layout, ir.AffineMapAttr) and \
        str(ir.AffineMapAttr(src.layout).value) == str(ir.AffineMap.get_identity(src.rank))
    if op.name == "memref.subview":
        return _subview_type(op, src, old, strides, offset)
    groups = [[ir.IntegerAttr(d).value for d in ir.ArrayAttr(g)]
              for g in ir.ArrayAttr(op.attributes["reassociation"])]
    out: list = []
    if op.name == "memref.expand_shape":
        for g, s in zip(groups, strides):
            acc, part = s, []
            for d in reversed(g):
                part.append(acc)
                acc *= old.shape[d]
            out.extend(reversed(part))
    else:
        for g in groups:
            out.append(strides[g[-1]])
            for a, b in zip(g, g[1:]):
                if strides[a] != strides[b] * src.shape[b]:
                    raise IRError(op, f"{describe(op)} collapses dimensions that are not "
                                      f"contiguous in the dense LDS buffer")
    return ir.MemRefType.get(list(old.shape), old.element_type,
                             layout=_layout(old.shape, out, offset, identity),
                             memory_space=old.memory_space)


def _subview_type(op, src, old, strides, offset: int):
    offs = dense_i64(op, "static_offsets")
    steps = dense_i64(op, "static_strides")
    sizes = dense_i64(op, "static_sizes")
    if DYNAMIC in steps:
        raise IRError(op, f"{describe(op)} has dynamic strides")
    full = [s * k for s, k in zip(strides, steps)]
    if offset == DYNAMIC or DYNAMIC in offs:
        off = DYNAMIC
    else:
        off = offset + sum(o * s for o, s in zip(offs, strides))
    old_full = [s * k for s, k in zip(ir.MemRefType(op.operands[0].type)
                                       .get_strides_and_offset()[0], steps)]
    want, _ = old.get_strides_and_offset()
    kept, j = [], 0
    for d, size in enumerate(sizes):
        if len(sizes) == old.rank or (j < old.rank and size == old.shape[j] and
                                      old_full[d] == want[j]):
            kept.append(full[d])
            j += 1
    if j != old.rank:
        raise IRError(op, f"{describe(op)}: its rank reduction cannot be rebuilt")
    return ir.MemRefType.get(list(old.shape), old.element_type,
                             layout=ir.StridedLayoutAttr.get(off, kept),
                             memory_space=old.memory_space)


def _view_chain(v) -> list:
    """The view ops (:data:`VIEW_OPS`) from ``v`` towards its buffer."""
    ops = []
    while not isinstance(v.owner, ir.Block) and _op(v.owner).name in VIEW_OPS:
        ops.append(_op(v.owner))
        v = ops[-1].operands[0]
    return ops
