"""The kernel's copies' global reads checked at every K step and every workgroup.

:func:`~pipeline_mlir.frontend.edges.check_copy_reads` judges the kernel's copies at the
sampled points (workgroup 0, the sample ones and the last of each grid bound; the first and
the last K step).  The rewrite keeps those copies with their offsets split otherwise than
the kernel (a scalar part and the lane's), so a read before its buffer's start, or in
workgroup 0 past its end, at a workgroup or K step no sample reaches would read other data
in the pipelined kernel than in the kernel (the range check gives zeros in both, which
nothing proves of the split offsets).  :func:`check_every_read` checks the sampled check's
rules at every K step of a constant trip count and every workgroup of a static grid.

Each evaluation is done once and shared (the check runs on every front-end analysis, so its
cost is the front end's):

* workgroup 0's every thread at every K step: the K steps side by side
  (:func:`~pipeline_mlir.frontend.every_workgroup.over_steps`) on the sampled check's own
  evaluator, which holds what no K step moves already (where the kernel's workgroup foralls
  start at 0, so that evaluator's workgroup 0 is the grid's; else workgroup 0 evaluated
  alone, :func:`~pipeline_mlir.frontend.grid_eval.wide_evaluator`);
* the copies whose index joins the workgroup's part and the rest only as an offset: thread
  0 of every workgroup in one evaluator (:class:`~pipeline_mlir.frontend.grid_eval.
  GridFirsts`) for all of them and for the wrap test's ranges
  (:func:`~pipeline_mlir.frontend.every_workgroup.wrap_op`);
* the others: every thread of every workgroup at every K step, evaluated once the loop's
  analysis is settled (:func:`finish_every_read`: an analysis the front end drops, a loop
  it merges, for one, is not evaluated), and only for the copies no proof of the partition
  has evaluated so already (:class:`~pipeline_mlir.frontend.grid_eval.GridReads`): the
  front end's own copies of a channel compared with the kernel's by evaluation in every
  workgroup (:func:`~pipeline_mlir.frontend.every_workgroup.prove_every_workgroup`, which
  refuses such a read as this check does) or proven the kernel's kept mask
  (:func:`~pipeline_mlir.frontend.kept_layout.prove_kept`, which refuses every lane of
  the kernel's copies that reads neither inside the buffer nor past its end); first over
  boxes of workgroups and K steps (:func:`_mixed_by_boxes`: each lane's first element
  certified affine over a box, so at least 0 on it where it is at every point evaluated),
  then, where the boxes give up, lane by lane:
  :data:`~pipeline_mlir.frontend.grid_eval.CHUNK` workgroups and their K steps side by
  side.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.analysis.ir_facts import DYNAMIC, mapped_forall
from pipeline_mlir.analysis.loop_eval import grid_points
from pipeline_mlir.frontend.edges import check_in_global
from pipeline_mlir.frontend.every_workgroup import mixing_op, over_steps, wrap_op
from pipeline_mlir.frontend.extent import declared_extent
from pipeline_mlir.analysis.box_eval import check_affine
from pipeline_mlir.frontend.grid_eval import (CHUNK, GridFirsts, GridReads, before_start,
                                             box_limit, grid_launch_ops, k_steps, kernel_grid,
                                             over_boxes, over_budget, wide_evaluator)
from pipeline_mlir.frontend.kept_layout import GRID_LIMIT
from pipeline_mlir.frontend.kernel_ir import kernel_of, zero_end


def check_every_read(scan, points: list, ev) -> GridReads | None:
    """The sampled check's rules on every copy of ``scan``
    (:func:`~pipeline_mlir.frontend.edges.check_in_global`, at ``points``:
    :func:`~pipeline_mlir.frontend.edges.sample_points`) at every K step of a constant trip
    count (:func:`~pipeline_mlir.frontend.grid_eval.k_steps`) and every workgroup of a
    static grid, ``ev`` the sampled check's evaluator: in workgroup 0 no element past the
    buffer's end (but for :func:`~pipeline_mlir.frontend.kernel_ir.zero_end`'s whole runs),
    and in no workgroup an element before its start.  The first, workgroup 0's every thread
    at every K step, evaluated; the second by structure where a copy's global index joins
    its workgroup's part ``G(w)`` and the rest ``H(t, k)`` only as an offset with no narrow
    sum that may wrap (:func:`~pipeline_mlir.frontend.every_workgroup.mixing_op`,
    :func:`~pipeline_mlir.frontend.every_workgroup.wrap_op`): its least element is ``min
    G(w) - G(0)`` (thread 0 of every workgroup at the first K step) plus workgroup 0's least
    over its threads and K steps; else every thread of every workgroup at every K step,
    evaluated.  That evaluation is returned, left for :func:`finish_every_read` once the
    loop's analysis is settled (a :class:`~pipeline_mlir.frontend.grid_eval.GridReads`, with
    thread 0 of every workgroup as evaluated here; None for a grid not static), so that
    the proofs of the partition that evaluate the same copies over the same grid (the
    front end's own copies compared with them) do it once for both.  A
    grid with a bound known only at launch, or none, keeps the sampled workgroups (a
    launch's grid is not the analysis's; what no sample reaches is not proven there).  An
    :class:`~pipeline_mlir.dialect.ir_io.IRError` at the copy names the workgroup and K
    step."""
    copies, steps = list(range(len(scan.copies))), k_steps(scan, points)
    kernel, iv = kernel_of(scan.loop), scan.loop.regions[0].blocks[0].arguments[0]
    found = grid_launch_ops(kernel)
    ev.set_workgroup(0)                 # (read_copies' state: evaluated as asked)
    ev.bind(iv, steps[0][0])
    sizes = [declared_extent(ev, a.src) for a in scan.copies]
    grid, at_launch = kernel_grid(kernel, ev, found)
    least, base = _workgroup_zero(scan, ev, kernel, found, steps, sizes)
    if grid is None or at_launch:
        return None
    wgs, kinds = grid_points(grid), {}
    offset = [i for i in copies if mixing_op(scan, [i], kinds=kinds) is None] \
        if len(wgs) <= GRID_LIMIT else []
    firsts = GridFirsts(scan, kernel, wgs, steps[0][0], found)
    if offset and wrap_op(scan, offset, ev, kernel, steps, firsts, kinds) is not None:
        offset = [i for i in offset                                       # (one by one)
                  if wrap_op(scan, [i], ev, kernel, steps, firsts, kinds) is None]
    mixed = []
    for i in copies:
        a = scan.copies[i]
        if i in offset:
            moved = _starts(firsts.evaluator(), a) - base[i]
            bad = least[i][0] + moved < 0
            if bad.any():
                w = int(np.argmax(bad))
                before_start(a.op, tuple(int(v) for v in wgs[w]), least[i][1],
                             least[i][0] + int(moved[w]))
        else:
            mixed.append(i)
    return GridReads(scan, kernel, found, tuple(grid), wgs, steps, mixed,
                     firsts if len(wgs) <= GRID_LIMIT else None)


def finish_every_read(an) -> None:
    """The evaluation :func:`check_every_read` left (``an.grid_reads``) of the copies no
    proof of the partition has evaluated over the whole grid and its K steps
    (:func:`~pipeline_mlir.frontend.grid_eval.grid_proven`): no lane of one reads an element
    before its buffer's start in any workgroup at any K step, or an
    :class:`~pipeline_mlir.dialect.ir_io.IRError` at the copy naming both.  Called on the
    analysis the loop is adopted with, before the rewrite."""
    g = an.grid_reads
    if g is None:
        return
    left = [i for i in g.mixed if not any(g.scan.copies[i].op == p for p in g.proven)]
    if not left:
        return
    threads = g.scan.threads
    settled = _mixed_by_boxes(g, left, box_limit(threads * len(g.wgs) * len(g.steps) *
                                                 len(left)))
    if settled is None:
        return
    cost = over_budget(threads, len(g.wgs), len(g.steps), len(left))
    if cost and isinstance(settled, tuple):     # (refused where the boxes found it)
        _check_mixed(g.scan, g.kernel, g.found, np.asarray([settled[:-1]], np.int64),
                     [g.steps[settled[-1]]], left)
        settled = (f"the proof over boxes of workgroups and K steps failed at workgroup "
                   f"{settled[:-1]} at the loop's {g.steps[settled[-1]][1]} K step, which "
                   f"evaluated alone holds")
    if cost:
        a = g.scan.copies[left[0]]
        raise IRError(a.op, f"'{a.op.name}' op: its global index mixes the workgroup with "
                            f"the thread or the K-loop otherwise than as an offset, and no "
                            f"proof of the partition has evaluated it over the grid: "
                            f"{settled}, and evaluating every lane instead, the {cost}, so "
                            f"the pipeliner cannot prove it reads no element before its "
                            f"buffer's start in every workgroup")
    _check_mixed(g.scan, g.kernel, g.found, g.wgs, g.steps, left)


def _mixed_by_boxes(g: GridReads, copies: list, limit: int):
    """:func:`finish_every_read`'s proof over boxes of workgroups and K steps
    (:mod:`~pipeline_mlir.analysis.box_eval`): the first element each lane of ``copies``
    reads is certified affine over each box, so it is at least 0 on the box where it is at
    every corner.  None where that holds on the whole grid; else the point (workgroup ids,
    then the index of the K step in ``g.steps``) where a lane reads before the buffer's
    start, or why the boxes gave up (more than ``limit`` boxes)."""
    def test(ev, box):
        for i in copies:
            rows = _starts(ev, g.scan.copies[i]).reshape(len(box.points), -1)
            check_affine(box, rows, "a copy's first element")
            if (rows < 0).any():
                return int(np.argmax((rows < 0).any(axis=1)))
        return None
    return over_boxes(g.scan, g.kernel, g.found, g.grid, [k for k, _ in g.steps], limit, test)


def _workgroup_zero(scan, ev, kernel, found: tuple, steps: list,
                    sizes: list) -> tuple[dict, list]:
    """Workgroup 0's reads of every copy at every K step of ``steps`` checked
    (:func:`~pipeline_mlir.frontend.edges.check_in_global`; ``sizes``: each copy's buffer's
    elements, None if not known); ``ev``: the sampled check's evaluator, at workgroup 0 and
    the first of ``steps``.  Returns, per copy, (its least element, the K step of it), and
    the element its thread 0 reads first at the first K step."""
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    source = ev if _zero_is_sampled(found) else \
        wide_evaluator(scan, kernel, np.zeros((1, 3), np.int64), None, found)
    if source is not ev:
        source.bind(iv, steps[0][0])
    for a in scan.copies:               # (what the K step does not move, evaluated once)
        _starts(source, a)
    least, done, base = {}, 0, []
    zeros = [zero_end(a.src, ev) for a in scan.copies]
    for part, rep in over_steps(source, iv, [k for k, _ in steps]):
        whens = steps[done:done + len(part)]
        for i, (a, size, zero) in enumerate(zip(scan.copies, sizes, zeros)):
            el = _starts(rep, a).reshape(len(part), source.threads)
            if not done:
                base.append(int(el[0, 0]))
            lo, run = el.min(axis=1), np.arange(a.elements)
            if i not in least or int(lo.min()) < least[i][0]:
                least[i] = (int(lo.min()), whens[int(np.argmin(lo))][1])
            if size is not None and el.max() + run[-1] < size and lo.min() >= 0:
                continue        # (the quick verdict: inside at every step)
            for (_k, when), e in zip(whens, el):
                check_in_global(a.op, e[:, None] + run, size, 0, when, zero)
        done += len(part)
    return least, base


def _zero_is_sampled(found: tuple) -> bool:
    """Whether the evaluator of the sampled check at workgroup 0 (every workgroup id, every
    workgroup forall's and workgroup loop's variable 0) evaluates what the grid's workgroup
    0 does (:func:`~pipeline_mlir.frontend.grid_eval.wide_evaluator`: a workgroup
    forall's variable its lower bound there): every workgroup forall of the kernel starts at
    a static 0 in static steps (else :func:`~pipeline_mlir.analysis.output_tiles.
    bind_workgroup` refuses it as before)."""
    ops, _loops, _grid_ops = found
    return all(all(b == 0 for b in ir.DenseI64ArrayAttr(o.attributes["staticLowerBound"])) and
               all(b != DYNAMIC for b in ir.DenseI64ArrayAttr(o.attributes["staticStep"]))
               for o in ops if mapped_forall(o))


def _check_mixed(scan, kernel, found: tuple, wgs: np.ndarray, steps: list,
                 mixed: list) -> None:
    """No copy of ``mixed`` (indices into ``scan.copies``) reads an element before its
    buffer's start in any workgroup of ``wgs`` at any K step of ``steps``: every thread of
    :data:`~pipeline_mlir.frontend.grid_eval.CHUNK` workgroups at a time, their K
    steps side by side."""
    for first in range(0, len(wgs) if mixed else 0, CHUNK):
        chunk = wgs[first:first + CHUNK]
        _refuse_before(scan, chunk, steps, mixed,
                       _chunk_starts(scan, kernel, found, chunk, steps, mixed))


def _chunk_starts(scan, kernel, found: tuple, chunk: np.ndarray, steps: list, copies):
    """(a part of ``steps``, per copy of ``copies`` the first element each lane reads:
    K steps x workgroups x threads, flat) for every thread of the workgroups of ``chunk``,
    each part's K steps side by side; a generator (evaluated as read)."""
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    source = wide_evaluator(scan, kernel, chunk, None, found)
    source.bind(iv, steps[0][0])
    for i in copies:                    # (what the K step does not move, memoized)
        _starts(source, scan.copies[i])
    for part, rep in over_steps(source, iv, [k for k, _ in steps]):
        yield part, [_starts(rep, scan.copies[i]) for i in copies]


def _refuse_before(scan, chunk: np.ndarray, steps: list, copies, parts) -> None:
    """Refuse the first copy of ``copies`` whose element (``parts``: :func:`_chunk_starts`)
    lies before its buffer's start, part by part, copy by copy: the workgroup of ``chunk``
    and the K step of ``steps`` where it does."""
    done = 0
    for part, els in parts:
        for i, el in zip(copies, els):
            lo = el.reshape(len(part), len(chunk), -1).min(axis=2)
            if (lo < 0).any():
                s, w = (int(v) for v in np.argwhere(lo < 0)[0])
                before_start(scan.copies[i].op, tuple(int(v) for v in chunk[w]),
                              steps[done + s][1], int(lo[s, w]))
        done += len(part)


def _starts(ev, a) -> np.ndarray:
    """The global element copy ``a``'s lanes read first, one per lane of ``ev``."""
    return np.asarray(ev.view(a.src).element([ev.value(x) for x in a.src_indices]))
