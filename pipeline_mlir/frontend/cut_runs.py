"""Runs cut inside by C's edge: a lane's copy masked to its first ``s`` elements, ``s``
moving with the workgroup, kept as copies of 4-byte pieces (or of one element each) with
their own conditions.

A ``K x M`` A (``A^T x B``) or ``K x N`` B whose M (N) is not a multiple of the run IREE
copies per lane (8 elements of 2 bytes) has edge tiles whose last run is cut inside: IREE
masks it by ``vector.create_mask 1, s`` (at the prefetch point; in the late form a guarded
load, :mod:`~pipeline_mlir.frontend.guarded_load`, masked by ``vector.create_mask s``),
``s`` the elements of the run left before the buffer's row ends (8, 4 or 0 at 1500).  The
masked elements lie inside the buffer (the next K row's start), so no read of the whole
run past a range-checked end zeroes them; what :mod:`~pipeline_mlir.frontend.kept_masks`
keeps (a condition for the lane's whole run) does not hold them.  :func:`mark_cut_runs`
takes such a read when:

* its mask is a ``vector.create_mask`` whose other sizes are the vector's (1) and whose last
  ``s`` sizes the run along the buffer's contiguous dimension (a global or fat raw buffer of
  two or more dimensions read through same-rank views), and ``s`` depends on the workgroup
  and not on the loop variable (a condition on K is the K tail's, peeled by
  :mod:`~pipeline_mlir.frontend.masks`), or is of the thread ids and constants alone and
  short of the run in some thread (C's edge inside the one tile along M or N);
* ``s`` can be evaluated in every thread of every workgroup of the grid (the workgroups
  side by side; the grid proven to cover C).  Clamped to ``[0, W]`` as
  ``vector.create_mask`` clamps it, a multiple of the elements of 4 bytes (``q``)
  everywhere: the run is copied in 4-byte pieces, each whole or masked whole.  Else (an
  odd M or N: 129 = 16 x 8 + 1 cuts a run of 8 bf16 to 1) it is copied in pieces of one
  element (marked :data:`ODD`, the element's bytes), each whole or masked whole for any
  size.  No direct-to-LDS copy moves 1 or 2 bytes (nor 4 from a row of an odd number of
  2-byte elements, which starts off a 4-byte boundary), so those pieces are
  register-staged.  A grid this cannot evaluate (unbounded, a loop over workgroups, a
  size known only at launch) marks nothing: the masked-tail peel refuses those masks,
  saying why; a run of elements other than 1, 2 or 4 bytes, or not whole 4-byte pieces,
  is an error at the read;
* the buffer meets what a kept mask needs (a fat raw buffer of static shape range-checked
  by it, a padding of zero bits, the offset past the end within 32 bits:
  :func:`~pipeline_mlir.frontend.kept_masks.past_end_rows`), else an error at the read.

The read is marked :data:`CUT` (the rows ``delta`` past the end) and left as the kernel
masks it, so a loop that runs it as written (a remainder loop) stays exact; the guarded
load becomes the masked ``vector.transfer_read`` it computes.  The masked-tail peel passes
over it.  :mod:`~pipeline_mlir.frontend.regcopy` then makes the register copy of a marked
read ``p = W / q`` copies of ``q`` elements (``q = 1`` when :data:`ODD`;
:func:`~pipeline_mlir.frontend.split_copy.split_copy`): lane ``l`` of copy ``h`` moves
piece ``l % p`` of the run of the kernel's lane ``(64 / p) h + l // p``, its mask size
``s`` recomputed for that lane, and keeps piece ``o = (l % p) q`` where ``s > o`` as a
kept mask keeps a run: its indices ``select(s > o, i0, delta)``, ``select(s > o, i_d,
0)``, reading zeros past the end otherwise.  So the pieces move exactly the elements the
kernel's mask keeps, zeros for the others, whatever the mask: a piece of one element never
straddles the row's end, nor the buffer's (a range-checked dword read across
``num_records`` is zeros whole).  Each is marked
:data:`~pipeline_mlir.frontend.kept_masks.KEPT`, so what takes a kept copy (the front end's
own copies, proven over the grid by :mod:`~pipeline_mlir.frontend.kept_layout`; of a
channel with :data:`ODD` pieces one element per lane too, register-staged, so that each
lane's test against the buffer is an element's) takes it.  A marked read that is not a
register copy stays masked and is refused where a masked copy is.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import block_size, constant_int, element_bytes, segments
from pipeline_mlir.analysis.ir_facts import memory_space, transfer
from pipeline_mlir.analysis.box_eval import decided
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import (Evaluator, SideBySide, grid_points, grid_stride,
                                              workgroup_grid)
from pipeline_mlir.analysis.output_tiles import bind_workgroup, check_grid_covers
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.frontend.dynamic_masks import foreign_source, source_text
from pipeline_mlir.frontend.guarded_load import guarded
from pipeline_mlir.frontend.grid_eval import box_limit, grid_launch_ops, over_boxes
from pipeline_mlir.frontend.kept_layout import GRID_LIMIT
from pipeline_mlir.frontend.kept_masks import past_end_rows
from pipeline_mlir.frontend.kernel_ir import depends, describe, kernel_of
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, WAVE_SIZE
from pipeline_mlir.frontend.marks import CUT, ODD

#: the bytes of each piece a cut run is copied in
PIECE_BYTES = LDS_DMA_BYTES[0]
#: workgroups evaluated side by side
_CHUNK = 128


def mark_cut_runs(loop) -> int:
    """Mark every read directly in ``loop``'s body whose run C's edge cuts inside (module
    docstring), a guarded load made its masked read first; the number marked."""
    iv = loop.regions[0].blocks[0].arguments[0]
    found = []
    for o in [_op(o) for o in loop.regions[0].blocks[0].operations]:
        if CUT in o.attributes:
            continue
        if o.name == "vector.transfer_read" and len(segments(o)) > 3 and segments(o)[3]:
            s = cut_size(o, segments(o)[3][0], o, iv)
            if s is not None:
                found.append((o, s, segments(o)[2][0]))
        elif o.name == "scf.if" and guarded(o) is not None:
            g = guarded(o)
            s = cut_size(o, g.mask, g.load, iv)
            if s is not None:
                found.append((o, s, g.passthrough))
    if not found:
        return 0
    odd_reads = _prove_grid(loop, [(at, s) for at, s, _ in found])
    if odd_reads is None:
        return 0
    _check_past_k(loop, [at for at, _, _ in found])
    marked = []
    for at, s, pad in found:
        load = guarded(at).load if at.name == "scf.if" else at
        marked.append((at, s, past_end_rows(loop, at, s, pad, load)))
    i64 = ir.IntegerType.get_signless(64)
    odds = [any(at == o for o in odd_reads) for at, _, _ in marked]
    for (at, s, delta), odd in zip(marked, odds):
        read = _as_read(at) if at.name == "scf.if" else at
        read.attributes[CUT] = ir.IntegerAttr.get(i64, delta)
        if odd:
            read.attributes[ODD] = ir.IntegerAttr.get(i64, _element_bytes(read))
    return len(marked)


def _check_past_k(loop, reads: list) -> None:
    """Not reads of ``reads`` of two buffers (cut runs of a batch buffer, ``[b, row,
    col]``, masked by no K part) read, in the loop's last iteration, a row at or past the
    buffer's K rows unmasked (IREE's late form of a K tail, its row index clamped to K and
    its K mask lost): that row is the next batch's, inside the buffer, and both operands'
    products there are not zero.  One operand's such reads, its partner's row masked,
    multiply by zero, as the kernel does.  Else an error at the first."""
    lb, ub, step = (constant_int(loop.operands[i]) for i in range(3))
    if None in (lb, ub, step) or ub <= lb or step <= 0:   # (step: refused at the loop)
        return
    last = lb + (ub - lb - 1) // step * step
    past = []
    for at in reads:
        load = guarded(at).load if at.name == "scf.if" else at
        mask = guarded(at).mask if at.name == "scf.if" else segments(at)[3][0]
        root = load.operands[0]
        rank = ir.MemRefType(root.type).rank
        if rank < 3 or mask_parts(mask, shape_of(load))[1] or \
                view_root(root) != root and not isinstance(root, ir.BlockArgument) and \
                _op(root.owner).name != "amdgpu.fat_raw_buffer_cast":
            continue
        rows = ir.MemRefType(root.type).shape[-2]
        for ev, _ in grid_evaluators(loop, workgroup_grid(kernel_of(loop))):
            ev.bind(loop.regions[0].blocks[0].arguments[0], last)
            try:
                row = np.asarray(ev.value(load.operands[rank - 1]))
            except Unevaluable:
                break
            if np.any(row >= rows) and all(root != r for _, _, _, r in past):
                past.append((at, int(row.max()), rows, root))
            break
    if len(past) > 1:
        at, row, rows, _ = past[0]
        raise IRError(at, f"{describe(at)} reads row {row} of a batch buffer of {rows} K rows "
                          f"in the loop's last iteration with no K part in its mask (its row "
                          f"clamped to K), and so does {describe(past[1][0])} of the other "
                          f"buffer: that row is not one of K (the next batch's, or past the "
                          f"buffer's end), so the last K tile's products are not zero; the "
                          f"front end takes such a K tail only masked (IREE's prefetch form) "
                          f"or with one operand's row zeroed")


def cut_size(at, mask, load, iv):
    """The size ``s`` that masks the last (contiguous) dimension of ``load``'s run when the
    mask ``mask`` of ``at`` (the read, or its guarded load) cuts a run at C's edge (module
    docstring), else None."""
    sizes, ks = mask_parts(mask, ir.VectorType(load.results[0].type).shape)
    if sizes is None or any(foreign_source(k, {iv}) is not None for k in ks):
        return None
    s = sizes[-1]
    if not ks and _whole_or_none(s, shape_of(load)[-1]):
        return None           # (a whole-run mask: kept_masks.py keeps it in one copy)
    bad = foreign_source(s, {iv})
    if depends(s, {iv}) or bad is not None and "workgroup" not in source_text(bad):
        return None
    if bad is None and not _cuts_somewhere(at, s, iv, shape_of(load)[-1]):
        return None           # (a size of the threads alone that keeps every run whole)
    src = load.operands[0]
    if not isinstance(src.type, ir.MemRefType):
        return None
    root = ir.MemRefType(view_root(src).type)
    if root.rank < 2 or memory_space(root) not in ("global", "fat_raw_buffer") or \
            ir.MemRefType(src.type).rank != root.rank:
        return None
    if load.name == "vector.transfer_read" and not transfer(load).minor_identity:
        return None
    return s


def _cuts_somewhere(at, s, iv, w: int) -> bool:
    """Size ``s``, of the thread ids and constants alone (C's edge in the one tile along M
    or N: the same in every workgroup), clamped to ``[0, W]``, is short of ``w`` in some
    thread of ``at``'s kernel; False where it cannot be evaluated (left to the peel)."""
    loop = at.operation.parent
    ev = Evaluator(block_size(kernel_of(loop)))
    ev.where = loop
    lb = constant_int(loop.operands[0])
    ev.bind(iv, 0 if lb is None else lb)
    try:
        return bool(np.any(np.clip(np.asarray(ev.value(s)), 0, w) < w))
    except Unevaluable:
        return False


def fixed_size(s, loop) -> bool:
    """Cut size ``s`` of a read of ``loop`` is of the thread ids and constants alone: it
    does not move with the workgroup (C's edge inside the one tile along M or N)."""
    return foreign_source(s, {loop.regions[0].blocks[0].arguments[0]}) is None


def _whole_or_none(s, w: int) -> bool:
    """``s`` is ``arith.select c, W, 0``: the whole run or none of it."""
    if isinstance(s.owner, ir.Block) or _op(s.owner).name != "arith.select":
        return False
    _, full, none = _op(s.owner).operands
    return constant_int(full) == w and constant_int(none) == 0


def shape_of(read) -> list:
    return list(ir.VectorType(read.results[0].type).shape)


def mask_parts(mask, shape) -> tuple:
    """(the sizes of the ``vector.create_mask`` a cut run's mask is, the K parts in it)
    of ``mask`` for a vector of ``shape``: ``vector.create_mask k.., s`` whose leading sizes
    ``k`` are the vector's (constants) or the K rows left (K parts, each of which must be
    at least its dimension where the pipelined loop runs), or ``arith.select ok,
    (vector.create_mask s), false`` (IREE's late form: ``ok`` the K row's test, a K part
    that must hold); (None, None) for other masks."""
    if shape[-1] < 2 or isinstance(mask.owner, ir.Block):
        return None, None
    ks = []
    m = _op(mask.owner)
    if m.name == "arith.select" and not isinstance(m.operands[0].type, ir.VectorType) and \
            not isinstance(m.operands[2].owner, ir.Block) and \
            _op(m.operands[2].owner).name == "arith.constant" and \
            str(_op(m.operands[2].owner).attributes["value"]).startswith("dense<false>"):
        ks.append(m.operands[0])
        m = None if isinstance(m.operands[1].owner, ir.Block) else _op(m.operands[1].owner)
    if m is None or m.name != "vector.create_mask" or len(m.operands) != len(shape):
        return None, None
    sizes = list(m.operands)
    ks += [v for v, n in zip(sizes[:-1], shape[:-1]) if constant_int(v) != n]
    return sizes, ks


def k_parts(read) -> list:
    """The K parts of marked read ``read``'s mask (:func:`mask_parts`): ``(value, least)``,
    each of which must be at least ``least`` (1 for a K row's ``i1`` test)."""
    shape = shape_of(read)
    mask = segments(read)[3][0]
    sizes, ks = mask_parts(mask, shape)
    least = {v: n for v, n in zip(sizes[:-1], shape[:-1])}
    return [(k, least.get(k, 1)) for k in ks]


def cut_mask_size(read):
    """The run's size ``s`` of marked read ``read`` whose mask is its run's alone (a
    ``vector.create_mask`` of the vector's leading sizes and ``s``: :func:`run_mask_only`)."""
    return _op(segments(read)[3][0].owner).operands[len(shape_of(read)) - 1]


def run_mask_only(read) -> None:
    """Marked read ``read`` masked by its run's size alone (``vector.create_mask`` of the
    vector's leading sizes and ``s``), its K parts proven full where it runs."""
    shape = shape_of(read)
    g = segments(read)
    sizes, _ = mask_parts(g[3][0], shape)
    t = ir.IndexType.get()
    with ir.InsertionPoint(read), read.location:
        lead = [ir.Operation.create("arith.constant", results=[t], attributes={
            "value": ir.IntegerAttr.get(t, n)}).results[0] for n in shape[:-1]]
        new = ir.Operation.create("vector.create_mask", results=[g[3][0].type],
                                  operands=lead + [sizes[-1]]).results[0]
    read.operands[len(read.operands) - 1] = new


def fold_k_parts(read) -> None:
    """Marked read ``read`` of a loop that runs it as written (the remainder of a peeled
    K tail, or a loop too short to pipeline), its K parts folded into the run's size: the
    mask ``vector.create_mask 1, .., 1, select(k.. hold, s, 0)``, the same bits, with every
    leading size the constant 1.  The MLIR stack's canonicalization drops a unit dimension
    of a ``vector.create_mask`` whatever its size (a K row left of 0 would read its row
    whole); a constant 1 is its own.  A vector with a leading dimension over 1 is left as
    the kernel masks it."""
    shape = shape_of(read)
    if any(n != 1 for n in shape[:-1]):
        return
    g = segments(read)
    sizes, _ = mask_parts(g[3][0], shape)
    t = ir.IndexType.get()
    A = B.arith
    with ir.InsertionPoint(read), read.location:
        def const(v: int):
            return A.constant(t, ir.IntegerAttr.get(t, v))
        hold = None
        for k, least in k_parts(read):
            c = k if isinstance(k.type, ir.IntegerType) else \
                A.cmpi(A.CmpIPredicate.sge, k, const(least))
            hold = c if hold is None else A.andi(hold, c)
        if hold is None:
            return
        size = A.select(hold, sizes[-1], const(0))
        new = ir.Operation.create("vector.create_mask", results=[g[3][0].type],
                                  operands=[const(1) for _ in shape[:-1]] + [size]).results[0]
    read.operands[len(read.operands) - 1] = new


def _width(read) -> int:
    return ir.VectorType(read.results[0].type).shape[-1]


def _element_bytes(read) -> int:
    return element_bytes(ir.MemRefType.get([1], ir.VectorType(read.results[0].type)
                                           .element_type))


def piece_bytes(read) -> int:
    """The bytes of each piece marked read ``read`` is copied in: one element where its
    size cuts a 4-byte piece (:data:`ODD`), else :data:`PIECE_BYTES`."""
    return ir.IntegerAttr(read.attributes[ODD]).value if ODD in read.attributes \
        else PIECE_BYTES


def piece_elements(read) -> int:
    """The elements of a 4-byte piece of ``read``'s run (a read, or a guarded load: its
    result's element type), 0 when a piece is not whole elements."""
    try:
        eb = _element_bytes(read)
    except ValueError:
        return 0
    return PIECE_BYTES // eb if eb and PIECE_BYTES % eb == 0 else 0


def _prove_grid(loop, reads: list):
    """The reads of ``reads`` (``(read, s)``) whose size cuts one of their 4-byte pieces
    in some thread of some workgroup of the grid (``s`` clamped to the run; copied in
    pieces of one element, :data:`ODD`), a list; an error at a read that cannot be copied
    in pieces (:func:`_check_sizes`); None (nothing proven) when the grid is not one of
    known workgroups evaluated here (unbounded, a loop over workgroups, a size known only
    at launch): those masks are left to the refusals of the masked-tail peel."""
    at = reads[0][0]
    kernel = kernel_of(loop)
    grid = workgroup_grid(kernel)
    if grid is None or walk_ops(kernel, lambda o: o.name == "scf.for" and grid_stride(o)):
        return None
    if int(np.prod(grid)) > GRID_LIMIT:
        raise IRError(at, f"{describe(at)} masks the lane's run at C's edge inside it; the "
                          f"front end copies such a run in {PIECE_BYTES}-byte pieces, proven "
                          f"for every workgroup of a grid of at most {GRID_LIMIT}, not "
                          f"{int(np.prod(grid))}")
    odd = []
    for ev, chunk in grid_evaluators(loop, grid):
        for read, s in reads:
            try:
                sizes = ev.value(s)
            except Unevaluable:
                return None
            if _check_sizes(read, (s, sizes), loop) and all(read != o for o in odd):
                odd.append(read)
    check_grid_covers(kernel, grid, block_size(kernel))
    return odd


def grid_evaluators(loop, grid: tuple):
    """(an evaluator of every thread of ``_CHUNK`` workgroups side by side, their ids) for
    the workgroups of ``grid``, the loop variable bound to its first value."""
    kernel = kernel_of(loop)
    block = block_size(kernel)
    points = grid_points(grid)
    iv = loop.regions[0].blocks[0].arguments[0]
    lb = constant_int(loop.operands[0])
    for i in range(0, len(points), _CHUNK):
        chunk = points[i:i + _CHUNK]
        ev = SideBySide(block, len(chunk), launch_values=False)
        bind_workgroup(ev, kernel, ev.lane_ids(chunk))
        ev.where = loop
        ev.bind(iv, 0 if lb is None else lb)
        yield ev, chunk


def prove_pieces(read, pieces: list) -> None:
    """The pieces of marked read ``read`` (``pieces``: per copy ``h`` of ``p``,
    its kept first index ``select(c, i0, delta)``) keep, in every thread of every workgroup
    of the grid, piece ``l % p`` of lane ``(64 / p) h + l // p`` exactly where that lane's
    ``s`` exceeds the piece's offset: the kernel's mask, piece by piece (evaluated;
    the grid was evaluated when the read was marked).  Else an error at the read."""
    loop = read.operation.parent
    p, w = len(pieces), _width(read)
    s = cut_mask_size(read)
    if _pieces_by_boxes(loop, s, pieces, w):
        return
    for ev, chunk in grid_evaluators(loop, workgroup_grid(kernel_of(loop))):
        keeps, wants, sizes, others, lane = _piece_masks(ev, s, pieces, w)
        for h, (keep, want, other) in enumerate(zip(keeps, wants, others)):
            if not np.array_equal(keep, want):
                t = int(np.flatnonzero(keep != want)[0])
                n = ev.per_workgroup
                raise IRError(read, f"{describe(read)}: copied in {p} pieces, thread {t % n} "
                                    f"of workgroup {tuple(int(x) for x in chunk[t // n])} "
                                    f"in copy {h} {'keeps' if keep[t] else 'drops'} piece "
                                    f"{lane[t] % p} of lane {other[t] % WAVE_SIZE}'s run, where "
                                    f"the kernel's mask keeps {int(sizes[other][t])} of {w} "
                                    f"elements")


def _piece_masks(ev, s, pieces: list, w: int) -> tuple:
    """(per copy of ``pieces``, whether each lane of ``ev`` keeps its piece; whether the
    kernel's mask keeps it; the mask's size per lane, per copy the lane whose run each
    lane's piece is of, the lanes' index in their wave) for :func:`prove_pieces`."""
    p, sizes = len(pieces), ev.value(s)
    g = np.arange(ev.threads)
    lane = g % WAVE_SIZE
    keep, want, others = [], [], []
    for h, first in enumerate(pieces):
        other = g - lane + WAVE_SIZE // p * h + lane // p
        others.append(other)
        want.append(sizes[other] > (lane % p) * (w // p))
        keep.append(ev.value(_op(first.owner).operands[0]).astype(bool))
    return keep, want, sizes, others, lane


def _pieces_by_boxes(loop, s, pieces: list, w: int) -> bool:
    """Whether :func:`prove_pieces` holds, proven over boxes of the grid's workgroups
    (:func:`~pipeline_mlir.frontend.grid_eval.over_boxes`, the loop variable at its first
    value: the kept conditions certified the same at every point of a box, the kernel's
    size affine, so its test against each piece's offset the same on the box where it is
    at every point); False where the boxes fail or give up (then evaluated workgroup by
    workgroup, which refuses)."""
    kernel = kernel_of(loop)
    found = grid_launch_ops(kernel)
    grid = workgroup_grid(kernel, None, found[2])
    lb = constant_int(loop.operands[0])
    scan = SimpleNamespace(block=block_size(kernel), loop=loop)

    def test(ev, box):
        keep, want, *_ = _piece_masks(ev, s, pieces, w)
        for k, x in zip(keep, want):
            decided(box, x, "whether the kernel's mask keeps a piece")
            differ = (k != x).reshape(len(box.points), -1).any(axis=1)
            if differ.any():
                return int(np.flatnonzero(differ)[0])
        return None
    reads = int(np.prod(scan.block)) * int(np.prod(grid)) * len(pieces)
    return over_boxes(scan, kernel, found, grid, [0 if lb is None else lb],
                      box_limit(reads), test) is None


def _check_sizes(read, size: tuple, loop) -> bool:
    """Whether a mask size of ``size`` (the size, its value in every thread of some
    workgroups), clamped to ``read``'s run, cuts one of its 4-byte pieces
    (the run is then copied in pieces of one element, :data:`ODD`); an error at the read
    when its run is not whole pieces of whole elements."""
    s, sizes = size
    w, q = _width(read), piece_elements(read)
    if not q or w % q:
        load = guarded(read).load if read.name == "scf.if" else read
        how = "the same in every workgroup (C's edge inside the one tile along M or N)" \
            if fixed_size(s, loop) else "that moves with the workgroup (C's edge)"
        raise IRError(read, f"{describe(read)} masks the lane's run of {w} elements along the "
                            f"contiguous dimension of {view_root(load.operands[0]).type} by a "
                            f"size {how}: the elements it masks lie inside the buffer, so the "
                            f"front end copies the run in {PIECE_BYTES}-byte pieces, which "
                            f"needs elements of 1, 2 or 4 bytes and a run of whole pieces")
    return bool(np.any(np.clip(sizes, 0, w) % q))


def _as_read(guard):
    """Guarded load ``guard`` replaced by the masked ``vector.transfer_read`` it computes
    (the mask and pass-through its own, the padding the pass-through's element: zero)."""
    g = guarded(guard)
    load = g.load
    vt = ir.VectorType(load.results[0].type)
    rank = ir.MemRefType(load.operands[0].type).rank
    t = ir.BoolAttr.get(True)
    attrs = {"in_bounds": ir.ArrayAttr.get([t] * vt.rank),
             "permutation_map": ir.AffineMapAttr.get(
                 ir.AffineMap.get_minor_identity(rank, vt.rank)),
             "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, rank, 1, 1])}
    et = vt.element_type
    with ir.InsertionPoint(guard), guard.location:
        zero = ir.FloatAttr.get(et, 0.0) if not isinstance(et, ir.IntegerType) else \
            ir.IntegerAttr.get(et, 0)
        pad = ir.Operation.create("arith.constant", results=[et],
                                  attributes={"value": zero}).results[0]
        new = ir.Operation.create("vector.transfer_read", results=[vt],
                                  operands=list(load.operands) + [pad, g.mask],
                                  attributes=attrs)
    guard.results[0].replace_all_uses_with(new.results[0])
    guard.erase()
    return new
