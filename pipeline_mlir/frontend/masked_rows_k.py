"""Copies masked by rows and by the K left (IREE's padded dynamic-M/N kernels whose K is
not a multiple of the K step) made copies masked by the K left only.

With M (or M and N) known only at launch, ``padding`` in its lowering config and a K that
is not a multiple of the K step, IREE 3.13 copies each thread's run of ``W`` elements of
the A (B) tile straight from the global buffer into LDS, masked at once by whether the row
is below M (N) and by how much of the K tile is left: at its prefetch point

* ``vector.transfer_read`` of a ``memref.subview`` of the binding at ``[row, col]`` of
  sizes ``[s, c]``, masked by ``vector.create_mask s, c`` (``s`` is 1 or 0: the row or the
  padding, zero; ``c`` the elements of the run left in K), of ``1 x W`` elements,
* ``vector.transfer_write`` of it into a ``1 x W`` ``memref.subview`` of the LDS tile at
  ``[lr, lc]``.

A buffer of static rows (the B of a dynamic-M kernel) is read unmasked and the run kept
only when it is whole (``arith.select (c == W), run, 0``): :func:`unmask_row_tails` makes
that the equivalent masked read (mask ``1, (c == W ? W : 0)``, padding 0).

A run of this shape whose row is not a row of C's edge goes to
:mod:`~pipeline_mlir.frontend.kept_rows` instead, which keeps its row mask in the copy's
index: a batch's (a 3-D view ``[b, row, col]`` of sizes ``1, s, c``, mask ``1, s, c``,
``1 x 1 x W`` elements), and a ``K x N`` B's, whose row and row mask move with the K-loop
(the K rows left).

For a row-masked run, :func:`unmask_row_tails` proves by evaluation, on every thread, at
the workgroups and sizes :mod:`~pipeline_mlir.frontend.masked_rows` samples (the workgroup
loop over ``ceildiv(L, T)``, ``L`` the launch value that sizes the buffer's rows) that
``s`` is 0 or 1, that a read row is the workgroup's ``T g + lr``, that a masked one has
``T g + lr >= L`` (these three then proven for every workgroup and size by
:mod:`~pipeline_mlir.frontend.row_proof`); and at every iteration of the K-loop that ``0 <= c <= W`` and that the
``c`` elements read lie in the row (``0 <= col``, ``col + c <= K``).  ``s``, the row and
``lr`` must not move with the K-loop or another workgroup dimension, ``c`` and ``col``
must not move with the workgroup or the launch value, and the padding must be zero (every
bit clear).  The read then becomes one of a range-checked view of the binding
(``amdgpu.fat_raw_buffer_cast``, its size the binding's) at ``[T g + lr, col]`` masked by
``1, c``: the same elements when the row is read, zero past the buffer's end (and from the
mask) when it is not.  What is left is a read masked by the K left only, which
:mod:`~pipeline_mlir.frontend.masks` peels (the last K tile run as written after the
pipelined loop, the masks of the others proven full and dropped), and whose unmasked runs
:mod:`~pipeline_mlir.frontend.regcopy` makes direct-to-LDS copies.  A run of this shape
that fails a check is an error at its read; other masked reads are left to the masked-tail
peel.

A binding of static rows (IREE's kernels of static M and N with a partial edge tile and an
unaligned K) takes the same rewrite: its row count is the size, the workgroup dimension is
the one of ``ceildiv(rows, T)`` tiles the row moves with, and the row checks run at every
tile of that grid (exhaustive, so no proof for every size).  A run staged through a private
``1 x W`` row (written whole by the masked read, read back whole after the barrier and
stored to LDS) has had the row forwarded before
(:func:`~pipeline_mlir.frontend.private_values.forward_private_values`): its read's one use
is the LDS write after the barrier.  Each run is read from the range-checked buffer at its
LDS write: the read of the global buffer moves past the barrier, which orders LDS accesses
only.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import block_ops
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (constant_bounds, constant_int, dense_i64,
                                             memory_space, segments, zero_bits)
from pipeline_mlir.analysis.loop_eval import DYNAMIC, Evaluator
from pipeline_mlir.frontend.marks import CUT
from pipeline_mlir.frontend.kernel_ir import (check_read_movable, depends, describe,
                                              erase_unused, owner)
from pipeline_mlir.frontend.kept_rows import keep_row_run, kept_route
from pipeline_mlir.frontend.masked_rows import (check_row_masks, check_tile_rows, fat_view,
                                                flat_block, index_value,
                                                lane_offsets, lane_value, plain_access,
                                                prove_every_size, refuse_nonzero_fill,
                                                row_count, sample_rows, static_rows,
                                                view_offsets, workgroup_iv)

__all__ = ["unmask_row_tails", "k_bounds", "check_columns", "rewrite_runs", "body_ops",
           "whole_run_select", "select_as_masked", "check_fixed_columns"]


def unmask_row_tails(loop) -> int:
    """Make every run directly in ``loop``'s body masked by rows and the K left, and every
    whole-run select of a static buffer, a read masked by the K left only (module
    docstring); the number rewritten."""
    return rewrite_runs(loop, _select_to_mask, "vector.transfer_read", _match, _prove,
                        _rewrite)


def rewrite_runs(loop, to_mask, name: str, match, prove, rewrite) -> int:
    """What both forms do: ``to_mask`` (1 when it rewrote) on every ``arith.select``
    directly in ``loop``'s body, then every ``name`` op there whose parts ``match`` finds
    checked (``prove``) and rewritten (``rewrite``, given the range-checked views made so
    far); the number rewritten."""
    done, fat = 0, {}
    for sel in [o for o in body_ops(loop) if o.name == "arith.select"]:
        done += to_mask(sel)
    # every candidate matched before any is rewritten: a rewrite erases ops of the body
    found = [(op, match(op)) for op in body_ops(loop) if op.name == name]
    for op, parts in found:
        if parts is not None:
            prove(op, loop, parts)
            rewrite(op, loop, parts, fat)
            done += 1
    return done


def body_ops(loop) -> list:
    """The ops directly in ``loop``'s body."""
    return block_ops(loop.regions[0].blocks[0])


def _read_view(read):
    """(the ``memref.subview`` ``read`` reads at its origin, its row, column, the sizes of
    those two and its indices before the row's) when ``read`` reads ``1 x .. x 1 x W``
    elements at the origin of a unit-stride view whose sizes before the row's are 1 (a
    batch's), else None."""
    sv = owner(segments(read)[0][0], "memref.subview")
    vt = ir.VectorType(read.results[0].type)
    r = vt.rank
    if sv is None or r < 2 or list(vt.shape[:-1]) != [1] * (r - 1) or \
            len(dense_i64(sv, "static_sizes")) != r or \
            not plain_access(read, [0] * r, masked=True):
        return None
    offsets = view_offsets(sv)
    if not plain_access(sv, offsets):
        return None
    dyn = iter(segments(sv)[2])
    sizes = [next(dyn) if d == DYNAMIC else d for d in dense_i64(sv, "static_sizes")]
    if sizes[:-2] != [1] * (r - 2):
        return None
    return sv, offsets[-2], offsets[-1], sizes[-2:], offsets[:-2]


def whole_run_select(sel, kind: str):
    """(the ``kind`` op reading the run, the ``arith.cmpi``) of ``arith.select (c == W),
    run, 0``: a run kept only when whole; None when ``sel`` is not one."""
    cond, run, zero = sel.operands
    read, cmp = owner(run, kind), owner(cond, "arith.cmpi")
    if read is None or cmp is None or not zero_bits(zero) or \
            ir.IntegerAttr(cmp.attributes["predicate"]).value != 0:
        return None
    return read, cmp


def select_as_masked(sel, read, shape: list, at, masked) -> int:
    """Replace the whole-run select ``sel`` of the run ``read`` reads by the run read
    masked by ``(c == W ? W : 0)`` in its last dimension (``shape``: the mask's, its other
    sizes 1), built at ``at`` (``masked(mask)``: the new read); ``read`` erased when
    nothing else uses it; 1."""
    with ir.InsertionPoint(at), at.location:
        idx = ir.IndexType.get()
        size = B.arith.select(sel.operands[0], B.arith.constant(idx, shape[-1]),
                              B.arith.constant(idx, 0))
        mask = B.vector.create_mask(ir.VectorType.get(shape, ir.IntegerType.get_signless(1)),
                                    [B.arith.constant(idx, 1) for _ in shape[1:]] + [size])
        new = masked(mask)
    sel.results[0].replace_all_uses_with(new)
    sel.erase()
    if not list(read.results[0].uses):
        read.erase()
    return 1


def check_fixed_columns(read, p: dict, fixed: set) -> None:
    """Neither the run's column ``p["col"]`` nor the K left ``p["cols"]`` changes with the
    values ``fixed`` (the workgroup's, the launch's)."""
    if any(isinstance(v, ir.Value) and depends(v, fixed) for v in (p["cols"], p["col"])):
        raise IRError(read, f"{describe(read)}: its column or the K left it reads changes "
                            f"with the workgroup or a size known at launch")


def _select_to_mask(sel) -> int:
    """``arith.select (c == W), run, 0`` of an unmasked run ``1 x W`` read from a view of
    ``c`` columns replaced by the run read masked by ``1, (c == W ? W : 0)`` (module
    docstring); 1 when done."""
    found = whole_run_select(sel, "vector.transfer_read")
    if found is None or segments(found[0])[3]:
        return 0
    read, cmp = found
    view = _read_view(read)
    w = ir.VectorType(read.results[0].type).shape[1]
    if view is None or view[4] or not zero_bits(segments(read)[2][0]) or view[3][0] != 1 or \
            memory_space(read.operands[0].type) == "workgroup":
        return 0
    c, want = cmp.operands
    if view[3][1] != c or constant_int(want) != w:
        return 0
    return select_as_masked(sel, read, [1, w], read, lambda mask: _masked_read(
        read, segments(read)[0][0], list(segments(read)[1]), mask))


def _masked_read(read, src, indices: list, mask):
    """A ``vector.transfer_read`` like ``read`` (its type, padding, permutation and
    ``in_bounds``) of ``src`` at ``indices`` masked by ``mask``, before ``read``."""
    g = segments(read)
    attrs = {a: read.attributes[a] for a in ("in_bounds", "permutation_map")}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(indices), 1, 1])
    return ir.Operation.create("vector.transfer_read", results=[read.results[0].type],
                               operands=[src, *indices, g[2][0], mask],
                               attributes=attrs).results[0]


def _match(read) -> dict | None:
    """The parts of a run masked by rows and the K left whose read is ``read`` (module
    docstring), or None when ``read`` is not one."""
    if not segments(read)[3] or CUT in read.attributes:     # (cut_runs.py)
        return None
    cm = owner(segments(read)[3][0], "vector.create_mask")
    found = _read_view(read)
    uses = [_op(u.owner) for u in read.results[0].uses]
    if cm is None or found is None or len(uses) != 1 or \
            uses[0].name != "vector.transfer_write" or uses[0].operands[0] != read.results[0]:
        return None
    sv, row, col, sizes, lead = found
    *ones, s, c = cm.operands
    if any(isinstance(x, int) for x in sizes) or list(sizes) != [s, c] or \
            constant_int(s) is not None or any(constant_int(x) != 1 for x in ones):
        return None
    if lead and not kept_route(read.parent, s, row, lead):
        return None         # (a batch's run masked by the loop variable alone: masks.py's)
    write = uses[0]
    lds = owner(write.operands[1], "memref.subview")
    if lds is None or memory_space(lds.results[0].type) != "workgroup":
        return None
    return {"size": s, "cols": c, "row": row, "col": col, "buf": sv.operands[0],
            "pad": segments(read)[2][0], "mask": cm, "view": sv, "write": write, "lds": lds,
            "width": ir.VectorType(read.results[0].type).shape[-1], "lead": lead}


def _check_form(read, loop, p: dict, wg, launch) -> None:
    """The run's shape and what its parts may depend on (module docstring)."""
    if not zero_bits(p["pad"]):
        refuse_nonzero_fill(read, "pads masked rows with a value other than zero")
    tt = ir.MemRefType(p["lds"].operands[0].type)
    if tt.rank != 2 or not tt.has_static_shape or dense_i64(p["lds"], "static_sizes") != [
            1, p["width"]] or dense_i64(p["lds"], "static_strides") != [1, 1] or \
            not plain_access(p["write"], [0, 0]):
        raise IRError(read, f"{describe(read)}: a run masked by rows and the K left is "
                            f"written whole to one row of a static 2-D LDS tile")
    others = check_tile_rows(read, loop, wg, (p["size"], p["row"], view_offsets(p["lds"])[0]),
                             "row, row mask or LDS row")
    check_fixed_columns(read, p, others | {wg} | (set() if static_rows(launch) else {launch}))


def k_bounds(loop) -> tuple[int, int, int]:
    """The K-loop's constant bounds and positive step, which its copies masked by rows and
    the K left need."""
    bounds = constant_bounds(loop)
    if bounds is None or bounds[2] <= 0:
        raise IRError(loop, "'scf.for' op: a loop with copies masked by rows and the K left "
                            "needs constant bounds and a positive step")
    return bounds


def check_columns(read, loop, ev, p: dict, bounds: tuple[int, int, int]) -> None:
    """The column checks of the module docstring in every iteration of ``loop`` (of
    ``bounds``): the run ``p``'s per-thread elements left ``p["cols"]`` and column
    ``p["col"]`` (of a run of ``p["width"]``, in rows of ``p["buf"]``) evaluated by
    ``ev``."""
    iv = loop.regions[0].blocks[0].arguments[0]
    K, width = ir.MemRefType(p["buf"].type).shape[1], p["width"]
    for k in range(*bounds):
        ev.bind(iv, k)
        c, col = ev.value(p["cols"]), lane_value(ev, p["col"])
        bad = np.flatnonzero((c < 0) | (c > width) | ((c > 0) & ((col < 0) | (col + c > K))))
        for t in bad[:1]:
            raise IRError(read, f"{describe(read)} reads {int(c[t])} elements at column "
                                f"{int(col[t])} of rows of {K} in thread {t} in iteration "
                                f"{k}; a run masked by the K left reads at most {width} "
                                f"elements, all in the row")


def _prove(read, loop, p: dict) -> None:
    """Check the run ``p`` (module docstring); a batch's run or one of K rows is kept by
    its row instead (:mod:`~pipeline_mlir.frontend.kept_rows`, which checks it)."""
    if kept_route(loop, p["size"], p["row"], p["lead"]):
        p["kept"] = True
        return
    launch = row_count(read, p["buf"])
    wg, T = workgroup_iv(read, loop, launch, _tile_rows(p), p["row"])
    _check_form(read, loop, p, wg, launch)
    size = flat_block(read, loop)
    bounds = k_bounds(loop)
    ev = Evaluator(size, launch_values=False)
    ev.where = read
    iv = loop.regions[0].blocks[0].arguments[0]
    for base, end in sample_rows(ev, wg, launch, T, iv, bounds[0]):
        check_row_masks(read, ev.value(p["size"]), lane_value(ev, p["row"]),
                        lane_offsets(ev, p["lds"])[0], base, end)
    prove_every_size(read, p, wg, launch, T, iv, bounds[0], ev.threads)
    check_columns(read, loop, ev, p, bounds)


def _tile_rows(p: dict) -> int:
    """The rows of the LDS tile the run ``p`` writes (0 when not a static 2-D one, which
    :func:`_check_form` refuses)."""
    tt = ir.MemRefType(p["lds"].operands[0].type)
    return tt.shape[0] if tt.rank == 2 and tt.has_static_shape else 0


def _rewrite(read, loop, p: dict, fat: dict) -> None:
    """``read`` made a read of the range-checked buffer at ``[T g + lr, col]`` masked by
    ``1, c`` (module docstring); a run :func:`_prove` sent to the kept route kept by its
    row."""
    if p.get("kept"):
        keep_row_run(read, loop, p, fat)
        return
    src = fat_view(p["buf"], loop, fat)
    wg, T = workgroup_iv(read, loop, row_count(read, p["buf"]), _tile_rows(p), p["row"])
    lr = view_offsets(p["lds"])[0]
    # read at its LDS write: a run staged through a private row (forwarded) is read after
    # the barrier, which orders LDS accesses only, as the late form's (masked_rows_k_late)
    check_read_movable(read, p["write"], "read at its LDS write")
    with ir.InsertionPoint(p["write"]), read.location:
        lr = index_value(lr)
        row = B.arith.addi(B.arith.muli(wg, index_value(T)), lr)
        col = index_value(p["col"])
        mask = B.vector.create_mask(ir.VectorType(p["mask"].results[0].type),
                                    [index_value(1), p["cols"]])
        new = _masked_read(read, src, [row, col], mask)
    read.results[0].replace_all_uses_with(new)
    read.erase()
    erase_unused([p["mask"], p["view"]])
