"""The front end's own copies of a channel whose copies keep a mask that moves with the workgroup.

:mod:`~pipeline_mlir.frontend.kept_masks` keeps a mask of C's edge in a copy's address: the
load's indices replaced where its condition ``c`` is false (the first by ``delta``, rows
past the end of a range-checked fat buffer, the others by 0), so those lanes read zeros.  Where the
kernel's copies do not split into the schedule's subtiles, the front end makes its own
(:mod:`~pipeline_mlir.frontend.layout`): lane ``t`` of each reads the block the reference
copy's thread 0 reads moved by an offset per dimension of the buffer.  Those lanes are not
the kernel's lanes, so the kernel's condition cannot be cloned for them; instead each lane
of the front end's copies tests its own run against the buffer (:func:`keep_in_bounds`):

* the run's index in every dimension ``d`` of the buffer, ``i_d`` (the reference copy's
  thread-0 index without its kept selects, plus the lane's offset), must satisfy
  ``i_d + 1 <= shape_d`` (``i_d + width <= shape_d`` in the last, contiguous dimension;
  unsigned, so a negative index fails it); where it does not, the lane's indices are
  replaced as the kernel's kept copies' are (``delta``, then zeros): it reads element
  ``delta x stride``, past the end, and so zeros.

That is the kernel's mask only if the kernel's condition is the in-bounds test of the
element coordinates each LDS element's data comes from, against the buffer's bounds.
:func:`prove_kept` proves it first over boxes of workgroups and iterations
(:func:`_by_boxes`, :mod:`~pipeline_mlir.analysis.box_eval`: each box from a few of its
points, every value certified affine over it and every test of the comparison decided the
same at each of them; a box left undecided split, down to single points), whose cost
grows with C's edges rather than the grid; where the boxes fail or give up, by
evaluation, for every workgroup of the grid
(:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`, each workgroup's ids bound per
dimension) and every iteration of the loop (a constant trip count): every LDS element of
the channel gets from the kernel's copies (their condition evaluated, exactly at one bit,
for each of their lanes) what the front end's copies with this test give it: the same
global element, or zeros on both sides.  The evaluation runs the workgroups side by side,
one numpy lane per thread and workgroup, :data:`_CHUNK` at a time; in each chunk, the
first iteration alone, then the others side by side (a lane per thread, workgroup and
iteration, :data:`_LANES` at most; :class:`~pipeline_mlir.analysis.tiled_eval.Crossed`
takes what does not read the loop variable from the first), a batch that fails proven
again one iteration at a time so that the refusal is the first met in the order of the
iterations.  What moves with no workgroup is evaluated for one workgroup and tiled
(:mod:`~pipeline_mlir.analysis.tiled_eval`): what moves with nothing once for every chunk
and, within :func:`shared_sources` (the front end's adoption of a loop), for every proof
of the kernel, the trials of the loop as it is, merged, halved, ...; what moves with the
K step alone once per batch of steps, for every chunk.  The two sides are compared run by run
(:class:`~pipeline_mlir.frontend.kept_compare.RunTables`).  Values known only at launch
are refused, not sampled.  Refused (a :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal`
at the copy): a grid without bounds or of more than :data:`GRID_LIMIT` workgroups, a proof
the boxes do not settle of more lane reads (threads x workgroups x K steps x the kernel's
copies and the front end's) than :data:`~pipeline_mlir.frontend.grid_eval.EVAL_BUDGET`, a loop over
workgroups around the K-loop, a trip count not constant, a K sub-step or a stride known only
at launch (not proven here), a buffer that is not a fat raw buffer of static shape
range-checked by its own shape, a kernel copy whose condition keeps a run that leaves the
buffer, and any element where the two differ (a condition on anything but the element's
coordinates, a bound other than the buffer's): the message names the workgroup, the
iteration, the LDS element and both global elements.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.analysis.ir_facts import constant_bounds, element_bytes, memory_space
from pipeline_mlir.analysis.loop_eval import (Evaluator, Repeated, grid_points, grid_stride,
                                              workgroup_grid)
from pipeline_mlir.analysis.box_eval import Undecided, check_affine, decided, decided_between
from pipeline_mlir.analysis.tiled_eval import Crossed, StepSource, Tiled, TileSource
from pipeline_mlir.analysis.output_tiles import bind_workgroup, check_grid_covers
from pipeline_mlir.frontend.extent import declared_extent
from pipeline_mlir.frontend.grid_eval import (box_limit, grid_launch_ops, grid_proven,
                                             over_boxes, over_budget)
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.kept_compare import RunTables
from pipeline_mlir.frontend.kept_masks import KEPT, OFFSET_LIMIT, kept_parts, unkept
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.launch_stride import NumpyDims
from pipeline_mlir.frontend.masked_rows import fat_view
from pipeline_mlir.frontend.select_masks import truth
from pipeline_mlir.target.gfx950 import WAVE_SIZE

#: the most workgroups the kept condition is proven over (and the front end's other proofs
#: that enumerate the grid's workgroups: one thread each, or every thread at one K step,
#: their proofs over every K step held to the budget of lane reads or made over boxes):
#: IREE's i8 ``A^T x B`` 16392x16392x1024 (16x16 tiles, 1,050,625 workgroups) takes 12 s
#: to its schedule, 530 MB, its grid's coverage proven once (262144 before)
GRID_LIMIT = 1 << 21
#: workgroups evaluated side by side
_CHUNK = 128
#: lanes (threads x workgroups x K steps) evaluated at once, at most (one K step at least)
_LANES = 1 << 15
#: a run that reads zeros (past the buffer's end), in the tables compared
_ZERO = -2
#: a run the front end's copies would read that is neither inside nor past the end
_BAD = -3
#: the scopes of :func:`shared_sources`, innermost last: (kernel, threads) -> its source
_SOURCES: list = []


class Kept(NamedTuple):
    """What the front end's copies of a kept channel test: the buffer's ``shape`` and the
    rows ``delta`` a lane's first index moves past its end where its run leaves it
    (``elem_bytes``: the buffer's element size)."""

    shape: tuple
    delta: int
    elem_bytes: int


def kept_copies(an, copies: list) -> list:
    """The copies of ``copies`` (indices) that keep a mask (:data:`KEPT`)."""
    return [i for i in copies if KEPT in an.ops[an.copies[i].op].attributes]


def prove_kept(an, copies: list, kept_i: list, base, width: int, lanes: list, ref_copy: int,
               full: int, label: str, aligned: list | None = None, skip=None) -> Kept:
    """Prove the front end's copies of a channel (``lanes``: ``(LDS elements (threads,
    width), per-dimension offsets from the reference copy's thread-0 index (threads,))``
    for each of its copies) with :func:`keep_in_bounds` give every LDS element what the
    kernel's ``copies`` give it, in every workgroup and iteration (module docstring);
    ``kept_i``: the copies of ``copies`` that keep a mask (:func:`kept_copies`, not empty).
    ``aligned``: a list of one bool, set False if a run of those copies inside the buffer
    starts, in some workgroup and iteration, at an element not aligned to the run's bytes
    (a direct-to-LDS copy could not move it).  ``skip``: a mask of the LDS elements not
    compared, none of which a fragment read reads (padding rows: ``ChannelPlan.unread``)."""
    scan = an.scan
    at = an.copies[kept_i[0]].op
    op = an.ops[at]
    if memory_space(base.type) != "fat_raw_buffer" or \
            not ir.MemRefType(base.type).has_static_shape:
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address; the "
                             f"front end's own copies test each lane's run against the "
                             f"buffer, which must then be a fat raw buffer of static shape, "
                             f"not {base.type}", (at,))
    try:
        fat_view(base, scan.loop, {})       # range-checked by its own shape
    except IRError as e:
        raise LM.LoopRefusal(f"channel {label}: {e.message}", (at,)) from None
    shape = tuple(ir.MemRefType(base.type).shape)
    rows = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    total = int(np.prod(shape))
    try:
        kept = Kept(shape, -(-total // rows), element_bytes(ir.MemRefType(base.type)))
    except ValueError as e:
        raise LM.LoopRefusal(f"channel {label}: {e}", (at,)) from None
    kept_indices(an, kept_i, label)
    _same_buffer(an, copies, base, total, label, at)
    grid, points, found = _grid(scan, op, label, at)
    bounds = constant_bounds(scan.loop)
    if bounds is None or bounds[2] <= 0:
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address, proven "
                             f"for the front end's own copies at every iteration: the K-loop "
                             f"needs constant bounds", (at,))
    lb, ub, step = bounds
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    t = an.scan.threads
    ks = list(range(lb, ub, step))
    if not ks:
        return kept
    tables = RunTables([an.copies[i].lds for i in copies], [p for p, _ in lanes], full, skip)
    proof = (copies, kept_i, base, width, lanes, ref_copy, kept, tables, label, at, aligned)
    source = _source(scan)              # (what no workgroup moves: once)
    over = over_budget(t, len(points), len(ks), len(copies) + len(lanes))
    settled = _by_boxes(an, proof, (grid, found, source), ks,
                        box_limit(t * len(points) * len(ks) * (len(copies) + len(lanes))))
    if settled is None:
        grid_proven(an, copies, grid, None)
        return kept
    if over:        # (refused where the boxes failed, else for its size)
        _budget(an, len(points), len(ks), len(copies) + len(lanes), label, at,
                _refuse_at(an, source, found, settled, (lb, step), proof))
    by_steps: dict = {}                 # (what only the K step moves: once per step)
    for start in range(0, len(points), _CHUNK):
        chunk = points[start:start + _CHUNK]
        one = _wide_evaluator(source, scan, chunk, found[0])   # one K step: every value
        one.bind(iv, ks[0])
        _prove_steps(an, one, chunk, ks[:1], proof)
        per = max(1, _LANES // (len(chunk) * t))
        rep = None                            # (kept while its size fits: memory reused)
        for k0 in range(1, len(ks), per):
            steps = ks[k0:k0 + per]
            at_steps = _step_source(by_steps, source, steps, iv, t)
            if rep is None or rep.times != len(steps):
                rep = Crossed(one, len(steps), iv, at_steps)
            rep.steps = at_steps              # (rebinding iv forgets what it took there)
            if not _side_by_side(an, rep, chunk, steps, iv, proof):
                rep = None
                for k in steps:               # the first refusal in the order of K steps
                    one.bind(iv, k)
                    _prove_steps(an, one, chunk, [k], proof)
    # no lane of the kernel's copies read before the buffer's start (_kernel_runs): what
    # every_read.py would evaluate of them again
    grid_proven(an, copies, grid, None)
    return kept


def _budget(an, workgroups: int, steps: int, copies: int, label: str, at, why: str) -> None:
    """Refuse a proof of :func:`prove_kept` that the boxes left (``why``) and that would
    evaluate more lane reads than :data:`~pipeline_mlir.frontend.grid_eval.EVAL_BUDGET`
    (every thread of ``workgroups`` workgroups at ``steps`` K steps, ``copies`` copies of
    both sides)."""
    cost = over_budget(an.scan.threads, workgroups, steps, copies)
    if cost:        # (the kernel's copies and the front end's, every lane evaluated)
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address, proven "
                             f"for the front end's own copies in every workgroup at every "
                             f"K step: {why}, and evaluating every lane instead, the "
                             f"{cost}", (at,))


def _by_boxes(an, proof: tuple, where: tuple, ks: list, limit: int):
    """The proof of :func:`prove_kept` over boxes of workgroups and K steps
    (:func:`~pipeline_mlir.frontend.grid_eval.over_boxes`; ``where``: the grid, its launch
    ops and the proof's :class:`~pipeline_mlir.analysis.tiled_eval.TileSource`; ``ks``:
    the loop variable's values): None where it holds on the whole grid (``aligned`` set as
    the lane-by-lane proof sets it), the point (workgroup ids, then the iteration) where it
    fails, or why it gave up (more than ``limit`` boxes)."""
    copies, kept_i, base, width, lanes, ref_copy, kept, tables, label, _at, aligned = proof
    grid, found, source = where
    total, odd = int(np.prod(kept.shape)), []

    def test(ev, box):
        want = _kernel_runs(an, ev, copies, kept_i, total, label, box)
        got = _own_runs(an, ev, base, ref_copy, lanes, kept, label, box)
        check_affine(box, want, "the kernel's runs")
        check_affine(box, got, "the front end's runs")
        bad = tables.first_difference(want, got, _ZERO)
        if bad is not None:
            return bad[0]
        read = (got >= 0).all(axis=0)           # (decided: the same at every point)
        moves = [got[u, read] - got[0, read] for u in box.unit if u is not None]
        if np.any(got[:, read] % width) or any(np.any(m % width) for m in moves):
            odd.append(box)
        return None
    bad = over_boxes(an.scan, kernel_of(an.scan.loop), found, grid, ks, limit, test, source)
    if bad is None and odd and aligned is not None:
        aligned[0] = False
    return bad


def _refuse_at(an, source, found: tuple, point, loop: tuple, proof: tuple) -> str:
    """The refusal of :func:`_prove_steps` at ``point`` (workgroup ids, then the
    iteration; ``loop``: the K-loop's lower bound and step), where :func:`_by_boxes`
    found the proof fails; what to say of the boxes where it holds there, or where they
    gave up (``point`` is then why: the caller refuses for the size)."""
    if not isinstance(point, tuple):
        return point
    lb, step = loop
    chunk = np.asarray([point[:-1]], dtype=np.int64)
    k = lb + step * point[-1]
    one = _wide_evaluator(source, an.scan, chunk, found[0])
    one.bind(an.scan.loop.regions[0].blocks[0].arguments[0], k)
    _prove_steps(an, one, chunk, [k], proof)
    return (f"the proof over boxes of workgroups and K steps failed at workgroup "
            f"{point[:-1]}, iteration {point[-1]}, which evaluated alone holds")


def _step_source(by_steps: dict, source: TileSource, steps: list, iv, t: int) -> StepSource:
    """The :class:`~pipeline_mlir.analysis.tiled_eval.StepSource` of one workgroup (``t``
    threads) at each K step of ``steps`` (``iv`` bound to them), made once per proof
    (``by_steps``) and shared by its chunks of workgroups."""
    key = tuple(steps)
    if key not in by_steps:
        by_steps[key] = StepSource(source, len(steps))
        by_steps[key].bind(iv, np.repeat(np.asarray(steps, np.int64), t))
    return by_steps[key]


@contextmanager
def shared_sources():
    """Within it, the proofs of :func:`prove_kept` of one kernel share what they evaluate
    that no workgroup moves (:func:`_source`): the front end's trials of one loop (as it
    is, merged, halved, diagonal, held whole) prove its kept channels again and again."""
    _SOURCES.append({})
    try:
        yield
    finally:
        _SOURCES.pop()


def _source(scan) -> TileSource:
    """The :class:`~pipeline_mlir.analysis.tiled_eval.TileSource` of ``scan``'s kernel and
    threads: the one :func:`shared_sources` keeps (told of every change of the IR, as
    every evaluator is), else a new one."""
    key = (kernel_of(scan.loop), tuple(scan.block))
    table = _SOURCES[-1] if _SOURCES else {}
    if key not in table:
        table[key] = TileSource(scan.block, launch_values=False)
    return table[key]


def kept_indices(an, kept: list, label: str) -> None:
    """Every kept copy (``kept``: indices) carries its mask as :mod:`kept_masks` builds it (the
    kernel's indices read back by :func:`~pipeline_mlir.frontend.kept_masks.unkept`), or a
    refusal at the copy."""
    for i in kept:
        if unkept(list(an.scan.copies[i].src_indices)) is None:
            raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address, "
                                 f"which a view or a split of the copy has changed: each "
                                 f"index must be the select the front end built", (
                                     an.copies[i].op,))


def _same_buffer(an, copies: list, base, total: int, label: str, at) -> None:
    """The kernel's copies and the front end's (``base``) count elements from one element
    0 of one buffer of ``total`` elements (the tables compare them)."""
    ev = an.evaluator
    vb = ev.view(base)
    for i in copies:
        v = ev.view(an.scan.copies[i].src)
        if v.root != vb.root or np.any(vb.offset != 0) or \
                declared_extent(ev, an.scan.copies[i].src) != total:
            raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address; the "
                                 f"front end's own copies must read the buffer the kernel's "
                                 f"copies read, from its element 0, {total} elements long",
                                 (at,))


def _said(g) -> str:
    if g == _BAD:
        return "an element neither inside the buffer nor past its end"
    return "zero" if g == _ZERO else f"global element {int(g)}"


def _grid(scan, op, label: str, at) -> tuple:
    """(the kernel's grid, its workgroups, :func:`~pipeline_mlir.frontend.grid_eval.
    grid_launch_ops`: its ops found in one walk), or a refusal."""
    kernel = kernel_of(scan.loop)
    found = grid_launch_ops(kernel)
    if any(o.name == "scf.for" and grid_stride(o) for o in found[2]):
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address, proven "
                             f"for the front end's own copies in every workgroup: a loop over "
                             f"workgroups is not evaluated", (at,))
    grid = workgroup_grid(kernel, None, found[2])
    if grid is None or int(np.prod(grid)) > GRID_LIMIT:
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address, proven "
                             f"for the front end's own copies in every workgroup: a grid of "
                             f"{'unbounded' if grid is None else int(np.prod(grid))} "
                             f"workgroups (at most {GRID_LIMIT})", (at,))
    check_grid_covers(kernel, grid, scan.block)
    return grid, grid_points(grid), found


def _side_by_side(an, ev: Repeated, chunk: np.ndarray, steps: list, iv, proof: tuple) -> bool:
    """Whether :func:`_prove_steps` passes at ``steps`` side by side in ``ev`` (the lanes
    of ``chunk`` repeated per step, what does not read the loop variable ``iv`` taken from
    its source); False on a refusal or an error at an op (what one K step's proof may
    raise), then dropped with everything it held (the caller proves the steps one at a
    time, meeting the refusal in their order); anything else propagates, so that a bug of
    the side-by-side path is not hidden by the step-by-step one."""
    try:
        ev.bind(iv, np.repeat(np.asarray(steps, np.int64), len(chunk) * ev.per_workgroup))
        _prove_steps(an, ev, chunk, steps, proof)
    except (LM.LoopRefusal, IRError):         # found again step by step
        return False
    return True


def _prove_steps(an, ev, chunk: np.ndarray, steps: list, proof: tuple) -> None:
    """The proof of :func:`prove_kept` in the workgroups ``chunk`` at the K steps ``steps``
    (``proof``: its copies, buffer and tables), in ``ev``: one numpy lane per thread,
    workgroup and K step (K-major), the loop variable bound; or the first refusal met (in
    the order of one K step's checks)."""
    copies, kept_i, base, width, lanes, ref_copy, kept, tables, label, at, aligned = proof
    total = int(np.prod(kept.shape))
    want = _kernel_runs(an, ev, copies, kept_i, total, label)
    got = _own_runs(an, ev, base, ref_copy, lanes, kept, label)
    if aligned is not None and np.any(got[got >= 0] % width):    # (runs inside the buffer)
        aligned[0] = False
    bad = tables.first_difference(want, got, _ZERO)
    if bad is not None:
        r, x, w_said, g_said = bad
        k, w = steps[r // len(chunk)], r % len(chunk)
        raise LM.LoopRefusal(
            f"channel {label}'s copies keep a mask in their address; the front end's "
            f"own copies, each lane's run kept where it lies inside the buffer's "
            f"{'x'.join(map(str, kept.shape))} elements, would not read what they read: "
            f"in workgroup {tuple(int(v) for v in chunk[w])} at K step {k}, LDS "
            f"element {x} gets {_said(w_said)} from the kernel's copies and "
            f"{_said(g_said)} from the front end's (the kept condition must be the "
            f"in-bounds test of the element's coordinates)", (at,))


def _wide_evaluator(source: TileSource, scan, chunk: np.ndarray, ops: list) -> Evaluator:
    """An evaluator of one lane per thread and workgroup of ``chunk`` (workgroup-major),
    every workgroup id and workgroup loop variable bound (none sampled; ``ops``: the
    kernel's launch ops); what moves with neither evaluated once, in ``source`` (one
    workgroup's, shared by the chunks: :mod:`~pipeline_mlir.analysis.tiled_eval`)."""
    threads = scan.threads
    if threads % WAVE_SIZE:
        raise LM.LoopRefusal(f"a workgroup of {threads} threads is not whole waves", ())
    ev = Tiled(source, len(chunk))
    bind_workgroup(ev, kernel_of(scan.loop), ev.lane_ids(chunk), ops)
    ev.where = scan.loop
    return ev


def _kernel_runs(an, ev, copies: list, kept_i: list, total: int, label: str,
                 box=None) -> np.ndarray:
    """(rows, copies x threads): the run each lane of the kernel's ``copies`` gives its LDS
    elements (rows: the evaluator's workgroups), its first global element or :data:`_ZERO`
    (its condition false, or a run past the buffer's end, which the range check reads as
    zeros).  A kept copy must read past the end where its condition is false (the rewrite
    of kept_masks.py, checked here for every lane; ``kept_i``: the copies of ``copies``
    that keep a mask).  ``box``: the :class:`~pipeline_mlir.analysis.box_eval.Box` whose
    points ``ev`` evaluates (a :class:`~pipeline_mlir.analysis.box_eval.BoxEvaluator`),
    each test then checked decided the same at every point of the box
    (:func:`_box_tests`)."""
    t = an.scan.threads
    out = []
    for i in copies:
        a = an.scan.copies[i]
        op = an.ops[an.copies[i].op]
        idx = list(a.src_indices)
        view = ev.view(a.src)
        parts = kept_parts(idx[0]) if i in kept_i else None
        ok = np.ones(ev.threads, bool)
        if parts is not None:
            moved = view.element([ev.value(x) for x in idx])
            idx = unkept(idx)
            ok = np.asarray(truth(op, ev, parts[1]), bool)
        start = view.element([ev.value(x) for x in idx])
        inside = _between(start, 0, total - a.elements)
        if box is not None:
            _box_tests(box, ev, parts and parts[1], ok, moved if parts else start, start,
                       inside, total, total - a.elements)
        if parts is not None and np.any(~ok & (moved < total)):
            j = int(np.flatnonzero(~ok & (moved < total))[0])
            _refuse_lane(an, i, label, j, t, int(moved[j]), total, "its kept condition is "
                         "false and it reads inside the buffer")
        bad = ok & ~inside & (start < total)
        if np.any(bad):
            j = int(np.flatnonzero(bad)[0])
            _refuse_lane(an, i, label, j, t, int(start[j]), total, "its run is neither "
                         "inside the buffer nor past its end")
        out.append(np.where(ok & inside, start, _ZERO).reshape(-1, t))
    return np.concatenate(out, axis=1)


def _box_tests(box, ev, cond, ok, moved, start, inside, total: int, last: int) -> None:
    """The tests of :func:`_kernel_runs` on one kernel copy decided the same at every
    point of ``box`` (:mod:`~pipeline_mlir.analysis.box_eval`): its kept condition
    ``cond`` (None: none) constant, what it selects affine, whether its run lies inside
    the buffer (``0 .. last``) and, where not, past its end; else
    :class:`~pipeline_mlir.analysis.box_eval.Undecided`."""
    if len(box.points) == 1:
        return
    if cond is not None:
        if isinstance(cond.type, ir.VectorType):
            raise Undecided("a kept condition of a vector", ())
        c = ev.value(cond) != 0              # (certified affine: so constant on the box)
        if not np.array_equal(c, ok):       # (then proven point by point)
            raise Undecided("a kept condition evaluated otherwise than its select's", ())
        decided(box, ok, "a kept condition")
        check_affine(box, moved, "a kept copy's moved index")
        decided(box, ok | (moved >= total), "a kept copy's moved run past the end")
    check_affine(box, start, "a kernel copy's run")
    decided_between(box, start, 0, last, inside, "a kernel copy's run")
    decided(box, ~ok | inside | (start >= total), "a kernel copy's run past the end")


def _refuse_lane(an, i: int, label: str, j: int, t: int, element: int, total: int,
                 why: str) -> None:
    raise LM.LoopRefusal(f"channel {label}: thread {j % t} of the kernel's copy reads global "
                         f"element {element} of {total} in a workgroup of the grid, where "
                         f"{why}", (an.copies[i].op,))


def _own_runs(an, ev, base, ref_copy: int, lanes: list, kept: Kept, label: str,
              box=None) -> np.ndarray:
    """(rows, lanes x threads): the run each lane of the front end's copies gives its LDS
    elements (``lanes``; each copy's width that of its LDS elements, a piece's own): its
    indices as :func:`keep_in_bounds` emits them (the test unsigned: ``i + extent <=
    shape``; the indices replaced by ``delta, 0, ...`` where it fails), the element they
    address if its run lies inside the buffer, :data:`_ZERO` if it starts past its end,
    :data:`_BAD` (never the kernel's) otherwise or past a buffer load's 32-bit offset.
    ``box``: as :func:`_kernel_runs`' (each test decided the same over the box)."""
    t = an.scan.threads
    a = an.scan.copies[ref_copy]
    idx = list(a.src_indices)
    idx = unkept(idx) or idx
    g0 = dim_indices(NumpyDims(ev), NumpyDims(ev), a.src, idx, base)
    if g0 is None:
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask in their address; the "
                             f"front end's own copies test each lane's index per dimension, "
                             f"which needs the copies' views of the buffer to be casts and "
                             f"same-rank unit-stride subviews", (an.copies[ref_copy].op,))
    g0 = [np.asarray(g).reshape(-1, t)[:, 0] for g in g0]   # thread 0 of each workgroup
    if box is not None:
        for g in g0:
            check_affine(box, g, "the front end's copies' first index")
    strides = [int(np.prod(kept.shape[d + 1:])) for d in range(len(kept.shape))]
    total = int(np.prod(kept.shape))
    out = []
    for p, offs in lanes:
        width = p.shape[1]             # (a piece of each lane's run: its own width)
        # (an offset the same in every lane: an int; the lanes of the tile's elements, of
        # a padded subtile's copies fewer than the threads: layout.ChannelPlan.padding)
        offs = [np.broadcast_to(np.asarray(o, np.int64), (p.shape[0],)) for o in offs]
        # coordinate d of a lane is g0[d] (per workgroup) + offs[d] (per thread): each
        # test and the element are sums of a workgroup's part and a thread's, formed once
        # at full size
        inb = None
        for d, (g, o) in enumerate(zip(g0, offs)):
            end = (g + (width if d == len(g0) - 1 else 1))[:, None] + o[None, :]
            ok = _between(end, 0, kept.shape[d])
            if box is not None:
                decided_between(box, end, 0, kept.shape[d], ok, "a front-end copy's run")
            inb = ok if inb is None else inb & ok
        e = np.where(inb, sum(g * s for g, s in zip(g0, strides))[:, None] +
                     sum(o * s for o, s in zip(offs, strides))[None, :],
                     kept.delta * strides[0])
        # inside: 0 <= e <= total - width; past: total <= e <= the last start a buffer
        # load's 32-bit offset reaches whole (e + width elements of elem_bytes each)
        inside = _between(e, 0, total - width)
        past = _between(e, total, OFFSET_LIMIT // kept.elem_bytes - width)
        if box is not None:
            decided_between(box, e, 0, total - width, inside, "a front-end copy's run")
            decided_between(box, e, total, OFFSET_LIMIT // kept.elem_bytes - width, past,
                            "a front-end copy's run past the end")
        out.append(np.where(inside, e, np.where(past, _ZERO, _BAD)))
    return np.concatenate(out, axis=1)


def _between(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """``lo <= x <= hi`` element by element (one unsigned comparison; none where
    ``hi < lo``)."""
    if hi < lo:
        return np.zeros(x.shape, bool)
    if x.dtype != np.int64:
        return (x >= lo) & (x <= hi)
    return (x if lo == 0 else x - lo).view(np.uint64) <= hi - lo


def keep_in_bounds(at: list, width: int, kept: Kept) -> list:
    """The indices ``at`` of a front end copy's lane replaced by ``kept.delta, 0, ...``
    (past the buffer's end) where the run of ``width`` elements leaves the buffer
    (module docstring), emitted at the insertion point."""
    t = ir.IndexType.get()

    def const(v: int):
        return B.arith.constant(t, ir.IntegerAttr.get(t, v))
    cond = None
    for d, (i, n) in enumerate(zip(at, kept.shape)):
        ext = width if d == len(at) - 1 else 1
        ok = B.arith.cmpi(B.arith.CmpIPredicate.ule, B.arith.addi(i, const(ext)), const(n))
        cond = ok if cond is None else B.arith.andi(cond, ok)
    return [B.arith.select(cond, i, const(kept.delta if d == 0 else 0))
            for d, i in enumerate(at)]
