"""What a run cut by C's edge at an odd size needs before its 4-byte piece at the edge may
be copied whole, proven per read (:mod:`~pipeline_mlir.frontend.cut_runs` asks).

A run of 2-byte (or 1-byte) elements masked to a size that is not a multiple of its 4-byte
pieces (``K x M`` A, M odd: ``s`` = 7 of 8) has no piece that holds exactly what the mask
keeps: copying the piece at the edge whole also moves elements past the row's end.  That
is sound only when those elements are never summed into a stored element of C, which needs,
in this order (each refused at the read, naming where it fails):

* :func:`check_not_k`, the run's dimension is not K: the read's index along the buffer's
  contiguous dimension does not move with the K-loop's variable, and the index of another
  dimension does (that dimension is K, so K elements past a row's end are never read),
  and that K index does not move with the workgroup (a workgroup id, or the variable of a
  loop over workgroups): a K split over workgroups is not taken;
* :func:`check_row_mask`, the kernel's mask keeps exactly the elements inside the row:
  in every thread of every workgroup of the grid (evaluated, the workgroups side by side),
  the size clamped to the run equals the elements of the run before the buffer's row ends
  (``clamp(n - col, 0, W)``, ``col`` the run's first column in the buffer, through casts
  and same-rank unit-stride subviews).  A mask that drops an element inside the row (or
  keeps one past it) is a mask whose elements a whole piece would change: refused.

Both hold for IREE's kernels of an odd M or N; what taking them needs past these (the
elements past the row's end proven unused from the epilogue's store masks, the rows'
4-byte alignment, a piece at the buffer's end) are named by :data:`NOT_YET`.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import WORKGROUP_ID_OPS
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import grid_stride
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.kernel_ir import depends, describe, fat_root
from pipeline_mlir.frontend.launch_stride import NumpyDims


def check_not_k(read, load, iv) -> None:
    """The run of ``load`` (``read``'s load) lies along a dimension that is not K: its
    last index does not move with ``iv`` and another one does; else an error at
    ``read``."""
    src = load.operands[0]
    rank = ir.MemRefType(src.type).rank
    at = list(load.operands[1:1 + rank])
    moves = _Moves({iv})
    idx = dim_indices(moves, moves, src, at, fat_root(src))
    head = (f"{describe(read)} masks the lane's run at C's edge to a size that cuts a "
            f"4-byte piece; the piece is copied whole only along a dimension that is not K")
    if idx is None:
        raise IRError(read, f"{head}, which needs the read's views of "
                            f"{view_root(src).type} to be casts and same-rank unit-stride "
                            f"subviews")
    if idx[-1]:
        raise IRError(read, f"{head}, and the run's index along the contiguous dimension of "
                            f"{view_root(load.operands[0]).type} moves with the K-loop: its "
                            f"elements past the row's end would be K elements summed into C")
    if not any(idx[:-1]):
        raise IRError(read, f"{head}, and no other index of the read moves with the K-loop, "
                            f"so its K dimension is not known")
    wg = _Moves(_workgroup)
    split = dim_indices(wg, wg, src, at, fat_root(src))
    k = next((d for d in range(rank - 1) if idx[d] and split[d]), None)
    if k is not None:
        raise IRError(read, f"{head}, and its K index (dimension {k} of "
                            f"{view_root(src).type}) moves with the workgroup too: K split "
                            f"over workgroups is not proven to leave the run's dimension M "
                            f"or N")


def _workgroup(v) -> bool:
    """``v`` is a workgroup id, or the variable of a loop over workgroups."""
    if isinstance(v.owner, ir.Block):
        parent = v.owner.owner
        parent = None if parent is None else _op(parent)
        return parent is not None and (parent.name == "scf.forall" or (
            parent.name == "scf.for" and bool(grid_stride(parent))))
    return _op(v.owner).name in WORKGROUP_ID_OPS


class _Moves:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations on whether an
    index is computed from ``values`` (a set, or a predicate of a value: a sum or product
    of values is if any of them is)."""

    def __init__(self, values) -> None:
        self.values = values

    def get(self, v) -> bool:
        return depends(v, self.values)

    @staticmethod
    def c(_x: int) -> bool:
        return False

    @staticmethod
    def add(a, b) -> bool:
        return bool(a) or bool(b)

    mul = add


def check_row_mask(read, load, ev, sizes: np.ndarray, chunk: np.ndarray) -> None:
    """``sizes`` (the mask's size in every thread of the workgroups ``chunk`` of ``ev``),
    clamped to ``load``'s run, keep exactly the run's elements inside the buffer's row;
    else an error at ``read`` naming the workgroup, the thread and both counts."""
    src = load.operands[0]
    root = fat_root(src)
    rank = ir.MemRefType(src.type).rank
    w = ir.VectorType(load.results[0].type).shape[-1]
    n = ir.MemRefType(root.type).shape[-1]
    head = (f"{describe(read)} masks the lane's run at C's edge to a size that cuts a "
            f"4-byte piece; the piece is copied whole only where the mask keeps exactly the "
            f"run's elements inside the row of {root.type}")
    dims = NumpyDims(ev)
    try:
        at = dim_indices(dims, dims, src, list(load.operands[1:1 + rank]), root)
    except Unevaluable:
        at = None
    if at is None or ir.ShapedType.is_dynamic_size(n):
        raise IRError(read, f"{head}, which needs a row of static size read through casts "
                            f"and same-rank unit-stride subviews of values known here")
    col = np.broadcast_to(np.asarray(at[-1], np.int64), (ev.threads,))
    want = np.clip(n - col, 0, w)
    got = np.clip(np.broadcast_to(np.asarray(sizes, np.int64), (ev.threads,)), 0, w)
    bad = np.flatnonzero(got != want)
    if len(bad):
        t = int(bad[0])
        wg = tuple(int(x) for x in chunk[t // ev.per_workgroup])
        raise IRError(read, f"{head}: in thread {t % ev.per_workgroup} of workgroup {wg} "
                            f"the run starts at column {int(col[t])} of {n}, so {int(want[t])} "
                            f"of its {w} elements are inside the row, and the mask keeps "
                            f"{int(got[t])}")


#: what a cut run that passed both proofs still lacks (the end of its refusal)
NOT_YET = ("its run's dimension is not K and the mask keeps exactly the row's elements, "
           "but the piece copied whole reads elements past the row's end, which the front "
           "end does not prove unused by every stored element of C, and rows of an odd "
           "size are not 4-byte aligned for a direct-to-LDS copy")
