"""Where the proof of :mod:`~pipeline_mlir.frontend.unused_rows` is asked: the elements
in which the kernel's copies and the front end's differ spared, at a workgroup of the
static grid (:func:`spare_unused`, every workgroup's comparison of
:mod:`~pipeline_mlir.frontend.grid_tables`) or at the sampled points of the copies' checks
(:func:`spare_sampled`, :func:`sampled_workgroup`), and the proof made once per analysis and
LDS buffer (:func:`proof_for`, :func:`unused_first`; :func:`spare_note`, what a layout
refused even with workgroup 0's unused elements free says of them)."""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import mapped_forall
from pipeline_mlir.analysis.loop_eval import grid_stride, workgroup_grid
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.unused_rows import UnusedElements, launch_free

def spare_unused(unused: UnusedElements | None, bad: np.ndarray, safe: np.ndarray,
                 chunk: np.ndarray) -> np.ndarray:
    """``bad`` (workgroups of ``chunk``, LDS elements: where the kernel's copies and the
    front end's differ) without the elements proven unused in their workgroup among those
    ``safe`` says both read where a read is harmless (inside the buffer, or where it reads
    zeros); another stays bad."""
    if unused is None or not bad.any():
        return bad
    out = bad.copy()
    for w in np.flatnonzero(bad.any(axis=1)):
        spare = unused.unused(tuple(int(x) for x in chunk[w]))
        if spare is None or spare.shape[0] != bad.shape[1]:
            return out
        out[w] &= ~(spare & safe[w])
        if out[w].any():    # the first workgroup refused: the later ones are not asked
            return out
    return out


def proof_for(an, buffer: int) -> UnusedElements | None:
    """The proof of :class:`UnusedElements` for LDS buffer ``buffer`` (an id of
    ``an.buffers``) over its kernel's static grid, made once per analysis and buffer: every
    comparison of a channel's copies asks the same one (the sampled points' of
    :func:`~pipeline_mlir.frontend.edges.check_copy_reads`, every workgroup's of
    :mod:`~pipeline_mlir.frontend.every_workgroup`); None for a grid that is not static."""
    if buffer not in an.unused:
        grid = workgroup_grid(kernel_of(an.scan.loop))
        an.unused[buffer] = None if grid is None else UnusedElements(an, buffer, grid)
    return an.unused[buffer]


def unused_first(an, buffer: int) -> np.ndarray | None:
    """The elements of LDS buffer ``buffer`` :func:`proof_for`'s proof finds unused in
    workgroup 0 (the sampled point "every workgroup id 0"), None where nothing is proven."""
    unused = proof_for(an, buffer)
    point = None if unused is None else \
        sampled_workgroup(kernel_of(an.scan.loop), unused.grid, 0)
    return unused.unused(point) if point else None


def spare_note(spare: np.ndarray | None) -> str:
    """A note to the refusal of a channel whose layout is no strided block even with the
    elements :func:`unused_first` found unused in workgroup 0 (``spare``) taken as free;
    empty where none were."""
    if spare is None or not spare.any():
        return ""
    return (f" (not even with the {int(spare.sum())} of its {spare.size} elements no stored "
            f"element of C depends on in workgroup 0 taken as free)")


def _plain_grid(kernel) -> bool:
    """Whether the sample evaluator's "every workgroup id ``w``" is workgroup ``(w, ...)``
    of ``kernel``'s grid wherever ``w`` lies inside it: each workgroup forall counts from 0
    by 1 (not VectorDistribute's offsets) and no loop over workgroups runs."""
    if walk_ops(kernel, lambda o: o.name == "scf.for" and grid_stride(o)):
        return False
    return not any(any(v != want for a, want in (("staticLowerBound", 0), ("staticStep", 1))
                       for v in ir.DenseI64ArrayAttr(o.attributes[a]))
                   for o in walk_ops(kernel, mapped_forall))


def sampled_workgroup(kernel, grid: tuple, wid: int) -> tuple | None:
    """The workgroup of ``grid`` that the sampled point "every workgroup id ``wid``" of
    :func:`~pipeline_mlir.frontend.edges.sample_ids` is: the sample evaluator gives every
    workgroup id and every workgroup forall's variable the value ``wid``
    (:mod:`~pipeline_mlir.analysis.loop_eval`), which is workgroup ``(wid, ...)`` of the
    grid where ``wid`` is inside every bound, each workgroup forall counts from 0 by 1
    (not VectorDistribute's offsets) and no loop over workgroups runs.  Past a bound of
    such a grid, for a kernel of no launch values, the point is no workgroup at all: ``()``
    (IREE's batch of one tile along M, a grid of (4, 1, 5): "every workgroup id 1" has M
    tile 1).  Else None: not known."""
    if wid < 0 or not _plain_grid(kernel):
        return None
    if any(wid >= b for b in grid):
        return () if launch_free(kernel) else None
    return (wid,) * len(grid)


def spare_sampled(an, buffer: int, bad: np.ndarray, safe: np.ndarray, wid: int) -> np.ndarray:
    """``bad`` (per LDS element of buffer ``buffer``: where the kernel's copies and the
    front end's differ at the sampled point "every workgroup id ``wid``") without the
    elements :func:`proof_for`'s proof finds unused in that workgroup among those ``safe``
    says both read inside the buffer (:func:`spare_unused`); unchanged where nothing is
    proven or the point is not known to be a workgroup of a static grid
    (:func:`sampled_workgroup`).  A point that is no workgroup of that grid at all has
    nothing bad: the comparison over every workgroup of the grid, which follows
    (:func:`~pipeline_mlir.frontend.every_workgroup.check_reads`), decides."""
    if not bad.any():
        return bad
    unused = proof_for(an, buffer)
    point = None if unused is None else \
        sampled_workgroup(kernel_of(an.scan.loop), unused.grid, wid)
    if point is None:
        return bad
    if not point:           # (no workgroup)
        return np.zeros_like(bad)
    return spare_unused(unused, bad[None], safe[None], np.array([point]))[0]
