"""The evaluators of a kernel's whole static grid that the front end's proofs over every
workgroup share (:mod:`~pipeline_mlir.frontend.every_workgroup`, :mod:`~pipeline_mlir.
frontend.every_read`).

:func:`kernel_grid` is the grid (the workgroups the kernel needs) at the analysis's launch
values, and whether a bound is known only at launch; :func:`k_steps` the K steps a proof
covers (every K step of a constant trip count); :func:`wide_evaluator` an evaluator of the
threads of many workgroups side by side, their workgroup ids and workgroup loops' variables
bound (:func:`grid_launch_ops`: what it binds, found in one walk of the kernel);
:class:`GridFirsts` thread 0 of every workgroup, evaluated once for every proof that reads
a workgroup's part of an index; :class:`GridReads` the kernel's copies whose every lane at
every workgroup and K step is still to be evaluated, unless a later proof that evaluates
them so anyway (:func:`~pipeline_mlir.frontend.every_workgroup.prove_every_workgroup`,
:func:`~pipeline_mlir.frontend.kept_layout.prove_kept`) says it has (:func:`grid_proven`):
one evaluation of the grid for both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.analysis.box_eval import Box, BoxEvaluator, Undecided
from pipeline_mlir.analysis.box_settle import GaveUp, settle
from pipeline_mlir.analysis.tiled_eval import TileSource
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, VALUE_CASTS, WORKGROUP_ID_OPS,
                                             constant_int, constant_trips, dense_i64)
from pipeline_mlir.analysis.lane_ops import LAUNCH_VALUE_OPS, id_dimension
from pipeline_mlir.analysis.loop_eval import (GRID_OPS, SideBySide, Unevaluable, grid_stride,
                                              workgroup_grid)
from pipeline_mlir.analysis.output_tiles import LAUNCH_OPS, bind_workgroup
from pipeline_mlir.frontend.adopt_walk import kernel_name
from pipeline_mlir.frontend.kernel_ir import depends

#: workgroups evaluated side by side
CHUNK = 64
#: the most lane reads one proof over the whole grid evaluates (:func:`over_budget`): a
#: lane read, one thread's copy in one workgroup at one K step, cost the kept-mask proof
#: 11 to 27 ns on a loaded 2-core machine (IREE's kernels of 617x1923 to 3000x4000), so
#: that a proof takes some 15 to 40 s at most
EVAL_BUDGET = 1_500_000_000
#: the boxes a proof over boxes of workgroups and K steps (:mod:`~pipeline_mlir.analysis.
#: box_eval`) evaluates at most before it gives up (some 4 to 10 ms each: a minute at
#: most), where the proof lane by lane would be over :data:`EVAL_BUDGET`
BOXES = 4000
#: within the budget, the lane reads of the proof lane by lane one box stands for: where
#: the boxes would take longer than that proof (at 15 ns a lane read), they give up sooner
READS_PER_BOX = 300_000
#: the boxes each proof over boxes held on, by (kernel, top box, test): where the same test
#: is proven again over the same box (a kernel's copies one by one), its proof starts from
#: them (:func:`hinted_settle`); at most :data:`HINTS` kept
_LEAVES: dict = {}
HINTS = 64


class GridFirsts:
    """Thread 0 of every workgroup of ``points`` side by side at the loop's K step ``k``
    (:func:`wide_evaluator`), made when first asked and then shared, with what it has
    evaluated, by every proof that reads a workgroup's part of an index there
    (:func:`~pipeline_mlir.frontend.every_workgroup.wrap_op`'s ranges,
    :func:`~pipeline_mlir.frontend.every_read.check_every_read`'s moves)."""

    def __init__(self, scan, kernel, points: np.ndarray, k: int, found: tuple | None) -> None:
        self.scan, self.kernel, self.points, self.k, self.found = scan, kernel, points, k, found
        self._ev = None

    def evaluator(self) -> SideBySide:
        if self._ev is None:
            self._ev = wide_evaluator(self.scan, self.kernel, self.points, (1, 1, 1),
                                      self.found)
            self._ev.bind(self.scan.loop.regions[0].blocks[0].arguments[0], self.k)
        return self._ev


@dataclass
class GridReads:
    """The kernel's copies ``mixed`` (indices into ``scan.copies``) whose index mixes the
    workgroup with the rest otherwise than as an offset: that no lane reads an element
    before the buffer's start is proven by evaluating every thread of every workgroup of
    ``wgs`` (the rows of :func:`~pipeline_mlir.analysis.loop_eval.grid_points` of ``grid``)
    at every K step of ``steps`` (:func:`k_steps`) once the loop's analysis is settled
    (:func:`~pipeline_mlir.frontend.every_read.finish_every_read`), but for the copies a
    proof that evaluates them over the same grid and K steps has proven already
    (``proven``, their ops: :func:`grid_proven`).  ``found``: :func:`grid_launch_ops` of
    ``kernel``; ``firsts``: the :class:`GridFirsts` of the grid at the first K step, for
    the proofs of the same loop that read a workgroup's part of an index (None for a grid
    of more than ``GRID_LIMIT`` workgroups: :func:`shared_firsts`)."""
    scan: object
    kernel: object
    found: tuple
    grid: tuple
    wgs: np.ndarray
    steps: list
    mixed: list
    firsts: GridFirsts | None = None
    proven: list = field(default_factory=list)


def shared_firsts(an, steps: list) -> GridFirsts | None:
    """The :class:`GridFirsts` the analysis ``an`` holds (``an.grid_reads``, made by
    :func:`~pipeline_mlir.frontend.every_read.check_every_read`) if it is of ``an``'s loop
    at the first K step of ``steps``, with what it has evaluated; else None (the caller
    makes its own)."""
    g = getattr(an, "grid_reads", None)
    if g is None or g.firsts is None or g.firsts.k != steps[0][0] or \
            g.scan.loop != an.scan.loop:
        return None
    return g.firsts


def grid_proven(an, copies: list, grid: tuple, steps: list | None) -> None:
    """Say that no lane of the kernel's ``copies`` (indices into ``an.copies``) reads an
    element before its buffer's start in any workgroup of ``grid`` at any K step of
    ``steps`` (None: every K step of the loop), as the caller has evaluated: the
    :class:`GridReads` of ``an`` (``an.grid_reads``) need not evaluate them again.  Only a
    proof over the grid and the K steps of that record counts."""
    g = getattr(an, "grid_reads", None)
    if g is None or tuple(grid) != tuple(g.grid) or \
            (steps is not None and [k for k, _ in steps] != [k for k, _ in g.steps]):
        return
    g.proven.extend(an.scan.copies[i].op for i in copies)


def over_budget(threads: int, workgroups: int, steps: int, copies: int) -> str | None:
    """None if a proof that evaluates ``copies`` copies for every one of ``threads``
    threads of ``workgroups`` workgroups at ``steps`` K steps stays within
    :data:`EVAL_BUDGET` lane reads; else what it would cost, said for a refusal."""
    reads = threads * workgroups * steps * copies
    if reads <= EVAL_BUDGET:
        return None
    return (f"{workgroups} workgroups of {threads} threads at {steps} K steps, "
            f"{copies} cop{'y' if copies == 1 else 'ies'} in each, are {reads} lane reads "
            f"to evaluate, more than {EVAL_BUDGET}")


def box_limit(reads: int) -> int:
    """The boxes a proof over boxes evaluates before it gives up, where the proof lane by
    lane would evaluate ``reads`` lane reads: :data:`BOXES` over :data:`EVAL_BUDGET`, else
    one per :data:`READS_PER_BOX` (64 at least, :data:`BOXES` at most)."""
    if reads > EVAL_BUDGET:
        return BOXES
    return min(BOXES, max(64, reads // READS_PER_BOX))


def before_start(op, wid: tuple, when: str, element: int) -> None:
    """Refuse the kernel's copy ``op``: in workgroup ``wid`` at the loop's ``when`` K step
    it reads global element ``element``, before its buffer's start."""
    raise IRError(op, f"'{op.name}' op reads global memory outside its buffer in workgroup "
                      f"{wid} at the loop's {when} K step (element {element}, before the buffer's "
                      f"start); the pipeliner needs the copies' reads in bounds in every "
                      f"workgroup")


def k_steps(scan, points: list) -> list[tuple[int, str]]:
    """(the loop's variable, its name in a message) at each K step the copies are compared
    at: every K step of a constant trip count (a lane's index may move otherwise at one K
    step alone), else the sampled check's (``points``, :func:`~pipeline_mlir.frontend.
    edges.sample_points`: the first)."""
    sampled = sorted({(iv, when) for _w, iv, when in points})
    trips = constant_trips(scan.loop)
    if trips is None or trips < 3 or len(sampled) != 2:
        return sampled
    (lb, _), (last, _) = sorted(sampled, key=lambda p: p[1] != "first")
    step = (last - lb) // (trips - 1)
    return [(lb + i * step, "first" if i == 0 else "last" if i == trips - 1 else
             f"{i + 1}{_ordinal(i + 1)}") for i in range(trips)]


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 < 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def kernel_grid(kernel, ev, found: tuple | None = None) -> tuple[tuple | None, bool]:
    """(the workgroups ``kernel`` needs, :func:`~pipeline_mlir.analysis.loop_eval.
    workgroup_grid`, None if none bounds it; whether a bound is known only at launch, then
    taken at the launch values the analysis samples: the sample's grid is not the
    launch's, a launch of more workgroups runs some it never had); ``found``:
    :func:`grid_launch_ops` of ``kernel``, if found already."""
    at_launch = []

    def values(vs: list) -> list[int]:
        at_launch.append(any(depends(v, _launch_value) for v in vs))
        out = [ev.uniform(v) for v in vs]
        if any(x is None for x in out):
            raise Unevaluable(ev.where, vs[0], "a bound of the grid that differs per thread")
        return out
    try:
        return workgroup_grid(kernel, values, None if found is None else found[2]), \
            any(at_launch)
    except Unevaluable:
        return None, any(at_launch)


def _launch_value(v) -> bool:
    """Whether ``v`` is a value known only at launch: a kernel's argument or a value of
    :data:`~pipeline_mlir.analysis.lane_ops.LAUNCH_VALUE_OPS`."""
    if isinstance(v.owner, ir.Block):
        parent = v.owner.owner
        return parent is not None and _op(parent).name in ("func.func", "gpu.func",
                                                           "llvm.func")
    return _op(v.owner).name in LAUNCH_VALUE_OPS


def wide_evaluator(scan, kernel, chunk: np.ndarray, block: tuple | None = None,
                   found: tuple | None = None) -> SideBySide:
    """An evaluator of one lane per thread of each workgroup of ``chunk`` (workgroup-major;
    rows: ids x, y, z), its workgroup ids, workgroup foralls' and workgroup loops' variables
    bound (one workgroup per iteration of such a loop: ``workgroup_grid``'s count);
    ``block``: the threads per workgroup evaluated if not the kernel's (``(1, 1, 1)``:
    thread 0 alone); ``found``: :func:`grid_launch_ops` of ``kernel``, if found already."""
    ev = SideBySide(scan.block if block is None else block, len(chunk))
    ids = ev.lane_ids(chunk)
    ops, loops, _ = grid_launch_ops(kernel) if found is None else found
    bind_workgroup(ev, kernel, ids, ops)
    for o in loops:
        ev.bind(o.regions[0].blocks[0].arguments[0], ids[id_dimension(_op(o.operands[0].owner))])
    ev.where = scan.loop
    return ev


class GridBoxes:
    """The coordinates of a proof over boxes of a kernel's ``grid`` (its workgroup ids')
    and K steps: the workgroup ids, then the K-loop's iteration counted from 0; but for a
    one-dimensional grid the kernel splits into rows of ``row`` workgroups (a division or
    remainder of the workgroup id by that constant, as IREE's late forms delinearize it),
    the row and the column (the workgroup id ``row x N + column``, affine in them), so that
    a box is a rectangle of C's tiles rather than a run of ids across rows."""

    def __init__(self, grid: tuple, row: int | None = None) -> None:
        self.grid, self.row = tuple(int(n) for n in grid), row

    def top(self, trips: int) -> Box:
        """The box of every workgroup and iteration (``trips`` of them)."""
        hi = (self.grid[0] // self.row - 1, self.row - 1) if self.row else \
            tuple(n - 1 for n in self.grid)
        return Box((0,) * (len(hi) + 1), hi + (trips - 1,))

    def ids(self, points: np.ndarray) -> np.ndarray:
        """The workgroup ids (one row per point) of box points ``points``."""
        if self.row:
            return points[:, :1] * self.row + points[:, 1:2]
        return points[:, :-1]

    def point(self, p: tuple) -> tuple:
        """A box point as the workgroup ids and the iteration."""
        return tuple(int(v) for v in self.ids(np.asarray([p], np.int64))[0]), int(p[-1])


def grid_boxes(kernel, grid: tuple) -> GridBoxes:
    """:class:`GridBoxes` of ``kernel``'s ``grid``: rows where the grid is one-dimensional
    and the kernel divides its workgroup id (through integer casts) by a constant ``N``
    (``divui``, ``divsi``, ``floordivsi``, ``remui``, ``remsi`` or the innermost basis of
    an ``affine.delinearize_index``) that tiles it into rows (``1 < N < grid``, a divisor
    of it): the first such ``N``."""
    if len(grid) != 1:
        return GridBoxes(grid)
    for o in walk_ops(kernel, lambda o: o.name in _ROW_OPS):
        x, n = o.operands[0], None
        while not isinstance(x.owner, ir.Block) and _op(x.owner).name in VALUE_CASTS:
            x = _op(x.owner).operands[0]
        if isinstance(x.owner, ir.Block) or _op(x.owner).name not in WORKGROUP_ID_OPS:
            continue
        if o.name == "affine.delinearize_index":
            basis = dense_i64(o, "static_basis")
            n = basis[-1] if basis and basis[-1] != DYNAMIC else None
        else:
            n = constant_int(o.operands[1])
        if n is not None and 1 < n < grid[0] and grid[0] % n == 0:
            return GridBoxes(grid, n)
    return GridBoxes(grid)


#: the ops whose division of a workgroup id :func:`grid_boxes` takes for its rows
_ROW_OPS = ("arith.divui", "arith.divsi", "arith.floordivsi", "arith.remui", "arith.remsi",
            "affine.delinearize_index")


def box_evaluator(scan, kernel, found: tuple, box, lb: int, step: int,
                  source=None, coords: GridBoxes | None = None) -> BoxEvaluator:
    """A :class:`~pipeline_mlir.analysis.box_eval.BoxEvaluator` of the points of ``box``
    (``coords``' coordinates, :class:`GridBoxes`; by default the workgroup ids of the
    kernel's grid, then the K-loop's iteration, counted from 0), every thread of each: the
    workgroup ids and workgroup foralls' variables bound as :func:`wide_evaluator` binds
    them, the loop variable to ``lb + step x`` the iteration; no value known only at launch
    (those are refused, not sampled); ``found``: :func:`grid_launch_ops` of ``kernel``;
    ``source``: the :class:`~pipeline_mlir.analysis.tiled_eval.TileSource` (of no launch
    values) the proof's boxes share, if any."""
    pts = box.points
    ev = BoxEvaluator(scan.block, len(pts), source, launch_values=False)
    ev.box = box
    ids = pts[:, :-1] if coords is None else coords.ids(pts)
    bind_workgroup(ev, kernel, ev.lane_ids(ids), found[0])
    ev.where = scan.loop
    ev.bind(scan.loop.regions[0].blocks[0].arguments[0],
            np.repeat(lb + step * pts[:, -1], ev.per_workgroup))
    return ev


def over_boxes(scan, kernel, found: tuple, grid: tuple, ivs: list, limit: int, test,
               source=None):
    """A proof over boxes of ``kernel``'s ``grid`` and the K steps ``ivs`` (the loop
    variable's values, evenly spaced; :class:`GridBoxes`' coordinates): ``test(ev, box)``
    of each box's :func:`box_evaluator` returns the row of ``box.points`` where the proof
    fails, or None where it holds on the box, or raises
    :class:`~pipeline_mlir.analysis.box_eval.Undecided`; a refusal or an error at an op
    there (a :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal`, an
    :class:`~pipeline_mlir.dialect.ir_io.IRError`) splits the box, down to the point where
    it is met.  Returns None where the proof holds on the whole grid; else the point
    (workgroup ids, then the index of the K step in ``ivs``) where it fails, or why the
    boxes gave up (more than ``limit`` boxes: :func:`box_limit`).  ``source``: the
    :class:`~pipeline_mlir.analysis.tiled_eval.TileSource` the boxes share (by default one
    of their own)."""
    step = ivs[1] - ivs[0] if len(ivs) > 1 else 0
    if any(k != ivs[0] + i * step for i, k in enumerate(ivs)):
        return "its K steps are not evenly spaced"
    source = TileSource(scan.block, launch_values=False) if source is None else source
    coords = grid_boxes(kernel, grid)

    def check(box):
        ev = box_evaluator(scan, kernel, found, box, ivs[0], step, source, coords)
        try:
            bad = test(ev, box)
        except (LM.LoopRefusal, IRError) as e:
            if box.size() == 1:
                return box.points[0]
            raise Undecided(f"a refusal at one of its points ({e})") from None
        return None if bad is None else box.points[bad]
    try:
        bad = hinted_settle(coords.top(len(ivs)), check, limit,
                            (kernel_name(kernel), test.__code__))
    except GaveUp as e:
        return f"the proof over boxes of workgroups and K steps settled no more in {limit} " \
               f"boxes" + (f" (the last left: {e})" if str(e) else "")
    return None if bad is None else coords.point(bad)[0] + (bad[-1],)


def hinted_settle(top: Box, check, limit: int, key: tuple) -> tuple | None:
    """:func:`~pipeline_mlir.analysis.box_settle.settle` of ``top``, tried first on the
    boxes the last proof of ``key`` over the same box held on: a partition of ``top``
    proves what ``top`` does, and where each of those boxes holds again (a kernel's copies
    proven one by one) the proof skips the boxes the last one split on the way.  A box of
    them left undecided, a failure or an error ends the try, and the proof is made from
    ``top`` alone: what is said (the failing point, why it gave up) is what the proof from
    ``top`` says, whatever was proven before."""
    key = key + (top.lo, top.hi)
    hint = _LEAVES.get(key)
    if hint is not None:
        def held(box):
            try:
                return check(box)
            except Undecided:
                raise _Unhinted() from None
        try:
            if settle(top, held, len(hint), hint) is None:
                return None
        except Exception:   # noqa: BLE001 -- (from top alone: what it says is the answer)
            pass
    leaves: list = []
    bad = settle(top, check, limit, leaves=leaves)
    if bad is None and len(leaves) <= limit // 2:   # (settle's leaves partition top)
        if len(_LEAVES) >= HINTS:
            _LEAVES.clear()
        _LEAVES[key] = leaves
    return bad


class _Unhinted(Exception):
    """A box of a hint left undecided (:func:`hinted_settle`: the proof made from the top)."""


def grid_launch_ops(kernel) -> tuple[list, list, list]:
    """(``kernel``'s :func:`~pipeline_mlir.analysis.output_tiles.launch_ops`, its loops over
    workgroups, its ops of :data:`~pipeline_mlir.analysis.loop_eval.GRID_OPS`), in one walk:
    what :func:`wide_evaluator` binds and :func:`kernel_grid` reads, found once for many
    evaluators of a kernel the caller leaves as it is meanwhile."""
    ops = walk_ops(kernel, lambda o: o.name in _WALKED)
    return ([o for o in ops if o.name in LAUNCH_OPS],
            [o for o in ops if o.name == "scf.for" and grid_stride(o)],
            [o for o in ops if o.name in GRID_OPS])


#: the ops :func:`grid_launch_ops` finds
_WALKED = frozenset(LAUNCH_OPS) | GRID_OPS
