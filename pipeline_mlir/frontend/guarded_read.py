"""An epilogue's guarded read of a binding: ``scf.if`` in bounds, the element, else a pad.

IREE lowers the gather of an edge tile's bias (``iree_linalg_ext.map_load`` at its
prefetch point, read by :mod:`~pipeline_mlir.frontend.epilogue` as a read of the binding)
to one ``scf.if`` per element in its late form::

    %in = arith.cmpi slt, %i, %c520_i32 : i32
    %x = scf.if %in -> (f32) {
      %e = memref.load %bias[%j] : memref<520xf32, ...>
      scf.yield %e : f32
    } else {
      scf.yield %pad : f32
    }

:func:`guarded_load` takes such an ``scf.if`` for a read of the binding the load reads
when it is exactly that: the then-branch the one load, yielded; the else-branch a constant
or ``ub.poison`` (the pad); and, evaluated exactly for every thread of every workgroup of
the grid and every iteration of the constant loops around it (:data:`MAX_POINTS` at most),

* the guard is true exactly where the load's indices lie inside its memref and its
  element inside the binding (a tiny ``C +=``'s guard of the threads staging C: thread
  100's subview starts past C); a wrong bound, a guard of another value, a negated one:
  refused at the ``scf.if``, naming a thread, workgroup and iteration where they differ;
* the element it reads moves by one non-negative stride per loop around it, the same for
  every thread (as the map_load's strided view, ``gather_order.check_in_order`` in
  :mod:`~pipeline_mlir.frontend.epilogue`; a reversed or scrambled gather is refused).

The pad then only fills the elements past the binding's end, which the store of C masks
off as it masks the columns past C's; where it would reach C (a gather shifted onto
another column of the bias), ``--emulate`` compares C element by element and finds it.

``--emulate`` runs a few workgroups; :func:`check_tied` ties the others to them
(:func:`tie_to_c`, which the prefetch point's ``map_load`` shares: ``_tie_gather`` in
:mod:`~pipeline_mlir.frontend.epilogue`).  Once the
epilogue reader knows which of C's indices the bias follows (its columns or its rows), the
tile of C each workgroup of the grid writes is evaluated
(:func:`~pipeline_mlir.analysis.output_tiles.output_tiles`), and, for every thread of every
workgroup and every iteration of the loops around the read, the element the load reads:
as the workgroup moves from the grid's first, each thread's element must move by exactly
what its tile's first column (row) moves (the gather of a workgroup is the first
workgroup's, moved with C's tile; a workgroup that writes nothing is not held to it).
Else an error at the ``scf.if`` naming the workgroup, thread and iteration.  A gather
wrong in a middle workgroup (its index off there only, in bounds and strided as
everywhere) is thus refused, not reported exact on the workgroups the emulator runs.  A
plain read (outside any ``scf.if``: the prefetch point's ``vector.transfer_read`` of a
per-row scale; or in the branch of an ``scf.if`` that runs unguarded, the else-branch of
one on a constant ``false``: IREE's late form of that scale) is tied the same way, at the
element its index reads, and refused at the load.  Such a read of a buffer that reads
zero past its end, starting at or past the end (IREE's late form of a bias of M clamps
the rows past M to M), reads zeros, as the read moved with C's tile does when it starts
past the end too: that lane is not held to the tie (:func:`_buffer_end`).  So is a lane
of a masked ``vector.transfer_read`` whose mask the caller proved exact (false exactly
outside its binding; the prefetch point's read of a bias of M, padded with poison) that
starts at or past the binding's end: wholly masked, it reads no memory.  Of an input of
C's shape (C itself, tied element by element), a lane of such a read, or of a load whose
select the caller proved a masked read (:mod:`~pipeline_mlir.frontend.select_read`), that
lies wholly outside the input in some dimension (IREE's column clamped to N past the edge
tile's width) is not held to the tie where the first workgroup's read moved with C's
tile, dimension by dimension, lies wholly outside too (:func:`_wholly_masked`): both
masked, whatever the flat element.
:func:`tie_to_c` with ``along`` ``element`` ties a read of an input of C's shape (C itself,
read by ``C += A x B``) so: its element must move by what its tile's first element moves
(``dispatch.py`` ties every such read).  C's tiles are evaluated once per kernel for all the
reads (kept in the kernel's :class:`Ties`, with the :class:`Launch` of a kernel sized at
launch), the workgroups side by side.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.analysis.ir_facts import block_size, constant_int, transfer, zero_bits
from pipeline_mlir.analysis.loop_eval import Evaluator, SideBySide, grid_points, grid_stride
from pipeline_mlir.analysis.output_tiles import KernelFacts, bind_launch, bind_workgroup, \
    output_tiles, thread_iterations
from pipeline_mlir.analysis.views import root_indices
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.frontend.const_if import constant_bool
from pipeline_mlir.frontend.kernel_ir import describe, zero_end

#: the most (workgroups x loop iterations) a guard is evaluated at
MAX_POINTS = 1 << 22
#: workgroups evaluated side by side at a time
CHUNK = 256
#: the loads a guarded read's then-branch may hold (one element: its index in bounds is
#: the load in bounds)
LOADS = ("memref.load",)

_WHY = ("the epilogue reader reads an 'scf.if' only as a guarded read of a binding (in "
        "bounds the loaded element, else a constant pad)")


def guarded_load(f, op, is_binding, facts: KernelFacts | None = None):
    """The load of the guarded read ``op`` (an ``scf.if`` of kernel ``f``) after the
    checks of the module docstring; ``is_binding(memref)``: whether a memref is a view
    of a binding; ``facts``: ``f``'s grid and launch ops if found already.  Returns (the
    load, the else-branch's yielded pad value)."""
    load, pad = _shape(op, is_binding)
    loops = loops_around(op)
    ranges, strides = [r for _, r in loops], None
    for ev, chunk in grid_chunks(f, op, loops, "its guard", _WHY, facts):
        at = {}
        for point in itertools.product(*ranges):
            for (iv, _), i in zip(loops, point):
                ev.bind(iv, i)
            at[point] = _element(ev, op, load, point, chunk)
        strides = _check_strides(op, at, ranges, ev.per_workgroup, strides)
    return load, pad


def grid_chunks(f, op, loops: list, what: str, why: str, facts: KernelFacts | None = None):
    """Yield (a :class:`SideBySide` with its workgroups bound, their ids) for every chunk
    of :data:`CHUNK` workgroups of ``f``'s grid, after checking that the grid has a bound
    and that its workgroups times the iterations of ``loops`` (:func:`loops_around`) are
    at most :data:`MAX_POINTS` (else an error at ``op``: ``what`` is evaluated at every
    one of them, ``why``); ``facts``: ``f``'s grid and launch ops if found already."""
    facts = KernelFacts(f) if facts is None else facts
    grid = facts.grid()
    points = math.prod(grid or (0,)) * math.prod(len(r) for _, r in loops)
    if grid is None or not 0 < points <= MAX_POINTS:
        reason = "the grid has no bound" if grid is None else \
            f"there are {points} of them, not 1 to {MAX_POINTS}"
        raise IRError(op, f"{describe(op)}: {what} is evaluated at every workgroup and "
                          f"iteration of the loops around it, and {reason}: {why}")
    ids = grid_points(grid)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        ev = SideBySide(block_size(f) or (256, 1, 1), len(chunk))
        bind_workgroup(ev, f, ev.lane_ids(chunk), facts.launch_ops())
        yield ev, chunk


def _shape(op, is_binding):
    """(the load, the pad) of an ``scf.if`` shaped as a guarded read, else an error."""
    regions = [list(r.blocks) for r in op.regions]
    if len(op.results) != 1 or len(regions) != 2 or any(len(r) != 1 for r in regions):
        raise IRError(op, f"{describe(op)}: not one result and two branches: {_WHY}")
    then = [as_operation(o) for o in regions[0][0].operations]
    other = [as_operation(o) for o in regions[1][0].operations]
    load = then[0]
    if len(then) != 2 or load.name not in LOADS or \
            list(then[1].operands) != [load.results[0]]:
        raise IRError(op, f"{describe(op)}: its then-branch does not yield one load: {_WHY}")
    if not is_binding(load.operands[0]):
        raise IRError(load, f"{describe(load)} in a guarded read loads memory that is not a "
                            f"binding: {_WHY}")
    if any(o.name not in ("arith.constant", "ub.poison") for o in other[:-1]) or \
            len(other[-1].operands) != 1:
        raise IRError(op, f"{describe(op)}: its else-branch computes: {_WHY}")
    pad = other[-1].operands[0]
    if not constant_or_poison(pad):
        raise IRError(op, f"{describe(op)}: its else-branch yields a value that is not a "
                          f"constant or poison: {_WHY}")
    return load, pad


def constant_or_poison(v) -> bool:
    """Whether ``v`` is the result of an ``arith.constant`` or a ``ub.poison`` (a pad)."""
    return not isinstance(v.owner, ir.Block) and \
        as_operation(v.owner).name in ("arith.constant", "ub.poison")


def loops_around(op, what: str = "a guarded read of a binding", why: str = _WHY,
                 workgroup_loops: list | None = None, thread_loops: list | None = None) -> list:
    """[(induction variable, range)] of the ``scf.for`` loops around ``op``, outermost
    first; each must have constant bounds (else an error at the loop, naming ``what`` it
    is around and ``why``), but for IREE's linearised workgroup loops when
    ``workgroup_loops`` is given: those are appended to it (:func:`_bind_one_iteration`),
    as loops of a constant positive step and bounds per thread are to ``thread_loops``
    (the late form's, from the thread id in steps of the workgroup: :func:`_thread_trips`)."""
    out, o = [], op.parent
    while o is not None:
        o = as_operation(o)
        if o.name == "scf.for" and workgroup_loops is not None and grid_stride(o):
            workgroup_loops.insert(0, o)
        elif o.name == "scf.for" and thread_loops is not None and \
                None in (constant_int(o.operands[0]), constant_int(o.operands[1])) and \
                (constant_int(o.operands[2]) or 0) > 0:
            thread_loops.insert(0, o)
        elif o.name == "scf.for":
            lo, hi, st = (constant_int(x) for x in list(o.operands)[:3])
            if None in (lo, hi, st) or st <= 0:
                raise IRError(o, f"{describe(o)}: a loop around {what} without constant "
                                 f"bounds and step; {why}")
            out.insert(0, (o.regions[0].blocks[0].arguments[0], range(lo, hi, st)))
        elif o.name in ("func.func", "gpu.func"):
            break
        o = o.parent
    return out


def _element(ev, op, load, point, ids) -> np.ndarray:
    """The element of its root each lane's load reads at ``point``, after checking there
    that the guard is true exactly where the load is in bounds."""
    ref = load.operands[0]
    t = ir.MemRefType(ref.type)
    if any(d < 0 for d in t.shape):
        raise IRError(load, f"{describe(load)}: a guarded read of a memref of dynamic shape "
                            f"{ref.type}; its bounds are read from a static shape")
    try:
        idx = [ev.value(x) for x in list(load.operands)[1:1 + t.rank]]
        guard = ev.value(op.operands[0]) != 0
        element = ev.view(ref).element(idx)
    except IRError as e:
        raise IRError(op, f"{describe(op)}: its guard or index could not be evaluated ({e})") \
            from None
    inside = np.ones(ev.threads, dtype=bool)
    for i, d in zip(idx, t.shape):
        inside &= (i >= 0) & (i < d)
    root = ir.MemRefType(ev.view(ref).root.type)
    at = root_indices(ev, ref, idx) if root.has_static_shape else None
    if at is not None:      # (a view of the binding: in bounds of the binding too)
        for i, d in zip(at, root.shape):
            inside &= (i >= 0) & (i < d)
    bad = (guard != inside).nonzero()[0]
    if bad.size:
        lane = int(bad[0])
        raise IRError(op, f"{describe(op)}: its guard is {str(bool(guard[lane])).lower()} "
                          f"where the load's index {[int(i[lane]) for i in idx]} is "
                          f"{'inside' if inside[lane] else 'outside'} {ref.type} "
                          f"({lane_place(ev, ids, lane, point)}): {_WHY}, the guard true "
                          f"exactly in bounds")
    return element


def lane_place(ev, ids, lane: int, point) -> str:
    """Where lane ``lane`` of ``ev`` (the grid's workgroups ``ids`` side by side, at the
    iteration ``point`` of the loops around) is, for a message: its thread, workgroup and
    loop iteration."""
    wg = [int(x) for x in ids[lane // ev.per_workgroup]]
    return f"thread {lane % ev.per_workgroup}, workgroup {wg}, loop iteration {list(point)}"


def _check_strides(op, at: dict, ranges: list, per_workgroup: int, expected) -> list:
    """Each lane's element at every point is the first point's plus, per loop, its
    iterations from the first times one non-negative stride, the same for every lane (and
    ``expected``'s, the strides of the workgroups evaluated before, if any); the strides."""
    p0 = tuple(r[0] for r in ranges)
    first, strides = at[p0], []
    for k, r in enumerate(ranges):
        if len(r) < 2:
            strides.append(0)
            continue
        d = at[p0[:k] + (r[1],) + p0[k + 1:]] - first
        if (d != d[0]).any() or d[0] < 0 or (expected is not None and d[0] != expected[k]):
            raise IRError(op, f"{describe(op)}: the element it reads moves by "
                              f"{int(d.min())}..{int(d.max())} as loop {k} (outermost 0) "
                              f"steps, not by one non-negative stride for every thread: "
                              f"{_WHY}")
        strides.append(int(d[0]))
    off = off_stride(at.items(), first, strides,
                     lambda p: [(p[k] - p0[k]) // r.step for k, r in enumerate(ranges)])
    if off is not None:
        p, lane, got, want = off
        raise IRError(op, f"{describe(op)}: at loop iteration {list(p)} it reads element "
                          f"{got} (thread {lane % per_workgroup}), not {want}: the element "
                          f"is not a strided view of the loops' iterations: {_WHY}")
    return strides


def off_stride(at, first, strides: list, index) -> tuple | None:
    """The first (point, lane, element, expected element) of ``at`` (pairs of a point and
    each lane's element there) whose element is not ``first`` plus, per dimension, the
    point's ``index`` (a list) times that dimension's stride; None when every one is."""
    for p, got in at:
        want = first + sum(i * s for i, s in zip(index(p), strides))
        bad = (got != want).nonzero()[0]
        if bad.size:
            lane = int(bad[0])
            return p, lane, int(got[lane]), int(want[lane])
    return None


def check_tied(f, load, c_shape: tuple, along: str, ties: Ties | None = None,
               mask_exact: bool = False) -> None:
    """Refuse (at its ``scf.if``) the guarded read whose load is ``load`` when, over the
    grid, the element it reads does not move with the ``along`` (:func:`tie_to_c`) origin
    of the tile of C (of ``c_shape``) each workgroup writes (module docstring); a plain
    load (outside any ``scf.if``, or in a branch that runs unguarded) is tied the same way
    (refused at the load).  ``ties``: :func:`tie_to_c`'s.  ``mask_exact``: the caller
    proved over the grid that ``load`` (a masked ``vector.transfer_read``) is masked
    exactly where its elements lie outside its binding (:func:`_buffer_end`)."""
    op = load.parent
    op = None if op is None else as_operation(op)
    if op is None or op.name != "scf.if" or constant_bool(op.operands[0]) is False or \
            load.operation.block != op.regions[0].blocks[0]:
        _tie_plain(f, load, c_shape, along, ties, mask_exact)   # (whatever runs reads it)
        return
    loops = loops_around(op)

    def element(ev, point, chunk):
        for (iv, _), i in zip(loops, point):
            ev.bind(iv, i)
        return _element(ev, op, load, point, chunk)

    tie_to_c(f, op, c_shape, along, list(itertools.product(*[r for _, r in loops])),
             element, "guarded read", "loop iteration", ties)


def _tie_plain(f, load, c_shape: tuple, along: str, ties: Ties | None,
               mask_exact: bool = False) -> None:
    """Refuse (at ``load``) a plain read of an epilogue input (outside any ``scf.if``, or in
    a branch of one that runs unguarded: IREE's late form of a per-row scale, an ``scf.if``
    on a constant ``false`` whose else-branch reads the scale whole) whose element, over
    the grid, does not move with the ``along`` origin of the tile of C each workgroup
    writes, as a guarded read is tied (:func:`tie_to_c`: a read off in a workgroup
    ``--emulate`` does not run is refused)."""
    strided: list = []
    threads: list = []
    loops = loops_around(load, "a read of an epilogue input", _tie("read"), strided, threads)
    trips = _thread_trips(f, threads)
    ref = load.operands[0]
    rank = ir.MemRefType(ref.type).rank

    def element(ev, point, chunk):
        _bind_one_iteration(ev, strided)
        for (iv, _), i in zip(loops, point):
            ev.bind(iv, i)
        try:
            for lp, j in zip(threads, point[len(loops):]):
                ev.bind(lp.regions[0].blocks[0].arguments[0],
                        ev.value(lp.operands[0]) + j * constant_int(lp.operands[2]))
            return ev.view(ref).element([ev.value(x) for x in list(load.operands)[1:1 + rank]])
        except IRError as e:
            raise IRError(load, f"{describe(load)}: its index could not be evaluated ({e}); "
                                f"{_tie('read')}") from None

    def active(ev):         # (bound by element: the lanes whose own iteration it is)
        return np.all([ev.bound[lp.regions[0].blocks[0].arguments[0]] <
                       ev.value(lp.operands[1]) for lp in threads], axis=0)

    tie_to_c(f, load, c_shape, along,
             list(itertools.product(*[r for _, r in loops], *[range(n) for n in trips])),
             element, "read", "loop iteration", ties, _buffer_end(load, mask_exact),
             _wholly_masked(load, mask_exact), active if threads else None)


def _thread_trips(f, loops: list) -> list[int]:
    """The most iterations a thread runs of each loop of ``loops`` (outermost first, each
    of a constant positive step, its bounds per thread), the loops run one inside the other
    with the bounds evaluated from the thread ids alone; else an error at the loop (a bound
    of the workgroup id runs other iterations in other workgroups)."""
    ev = Evaluator(block_size(f) or (256, 1, 1), thread_only=True)
    most = [0] * len(loops)

    def run(k: int) -> None:
        if k == len(loops):
            return
        lp = loops[k]
        try:
            its, _ = thread_iterations(ev, lp, np.ones(ev.threads, dtype=bool))
        except IRError as e:
            raise IRError(lp, f"{describe(lp)}: a loop around a read of an epilogue input "
                              f"whose bounds are not of the thread ids alone ({e}); "
                              f"{_tie('read')}") from None
        most[k] = max(most[k], len(its))
        for iv in its:
            ev.bind(lp.regions[0].blocks[0].arguments[0], iv)
            run(k + 1)
    run(0)
    return most


def _buffer_end(load, mask_exact: bool = False):
    """For a plain read ``load`` of a buffer that reads zero past its end
    (:func:`~pipeline_mlir.frontend.kernel_ir.zero_end`; a ``vector.transfer_read`` only with
    a padding of zero bits, or unmasked and in bounds in every dimension, its padding never
    used: it is lowered to the plain load, IREE's clamped read of a bias of N cut by the
    tile, padded with ``ub.poison``): :func:`tie_to_c`'s ``end``, a function of the
    evaluator; else None.  A masked ``vector.transfer_read`` whose mask is proven exact
    (``mask_exact``: false exactly at the elements outside its binding, the prefetch
    point's read of a bias of M cut by the tile, padded with ``ub.poison``): a lane whose
    read starts at or past the binding's end reads no memory at all, its vector wholly
    masked, and the end is the binding's (:func:`_masked_end`), whatever its padding."""
    rank = ir.MemRefType(load.operands[0].type).rank
    if mask_exact and load.name == "vector.transfer_read" and len(load.operands) > rank + 2:
        return lambda ev: _masked_end(load.operands[0], ev)
    if load.name == "vector.transfer_read" and not zero_bits(load.operands[1 + rank]) and \
            not transfer(load).plain:
        return None
    src = load.operands[0]
    return lambda ev: zero_end(src, ev)


def _wholly_masked(load, mask_exact: bool):
    """For a read ``load`` whose mask the caller proved exact (``mask_exact``: false exactly
    at the elements outside its binding; a masked ``vector.transfer_read``, or a load whose
    one use is the ``arith.select`` of a masked read, :mod:`~pipeline_mlir.frontend.
    select_read`): :func:`tie_to_c`'s ``outside``, a function of the evaluator giving (each
    lane's index per dimension of the binding of the read's first element, the read's extent
    per dimension, the binding's shape), or None when the index is not known per dimension
    (:func:`~pipeline_mlir.analysis.views.root_indices`).  A lane whose read lies wholly
    outside the binding in one dimension is wholly masked: it reads no memory, or what it
    reads its select drops."""
    if not mask_exact:
        return None
    ref = load.operands[0]
    rank = ir.MemRefType(ref.type).rank
    if load.name == "vector.transfer_read":
        access = transfer(load)
        if not access.masked or not access.in_view:
            return None
    elif load.name not in ("vector.load", "memref.load"):
        return None
    shape = ir.VectorType(load.results[0].type).shape \
        if isinstance(load.results[0].type, ir.VectorType) else []
    extent = (1,) * (rank - len(shape)) + tuple(shape)
    if len(extent) != rank:
        return None

    def outside(ev):
        root = ir.MemRefType(ev.view(ref).root.type)
        if not root.has_static_shape or root.rank != rank:
            return None
        at = root_indices(ev, ref, [ev.value(x) for x in list(load.operands)[1:1 + rank]])
        return None if at is None else (at, extent, tuple(root.shape))
    return outside


def _out_of(starts, extent: tuple, shape: tuple) -> np.ndarray:
    """Whether a read of ``extent`` from ``starts`` (one array per dimension) lies wholly
    outside ``shape`` in some dimension."""
    return np.any([(s + e <= 0) | (s >= d) for s, e, d in zip(starts, extent, shape)],
                  axis=0)


def _masked_end(ref, ev) -> tuple[int, int] | None:
    """(one past the last element of the binding ``ref`` views, in elements of the root
    ``ev``'s views index, and a reach no element attains: a wholly masked read reads
    nothing, so no buffer offset limits it) when that root has a static shape; else None."""
    t = ir.MemRefType(ev.view(ref).root.type)
    if not t.has_static_shape:
        return None
    return int(np.prod(t.shape)), int(np.iinfo(np.int64).max)


def _bind_one_iteration(ev, loops: list) -> None:
    """Bind each of IREE's linearised workgroup ``loops`` (outermost first) to the one
    iteration each workgroup runs of it, its workgroup id, after checking at every lane
    that its bound is at most the workgroup count (so no workgroup runs a second one,
    which a tie at the first tile of C would not see; one whose id is past the bound runs
    none and writes no tile of C, so its read is not tied)."""
    for loop in loops:
        lb, ub, step = (ev.value(x) for x in list(loop.operands)[:3])
        if np.any(ub > step):
            raise IRError(loop, f"{describe(loop)}: a workgroup loop whose bound "
                                f"{int(ub.max())} is above the workgroup count "
                                f"{int(step.min())} (a workgroup runs more than one tile); "
                                f"{_tie('read')}")
        ev.bind(loop.regions[0].blocks[0].arguments[0], lb)


@dataclass(frozen=True)
class Launch:
    """What a launch fixes of a kernel sized only at launch, which a tie (:func:`tie_to_c`)
    holds over: its push constants (``i32`` words in ordinal order), its grid and C's
    shape."""
    constants: tuple[int, ...]
    grid: tuple[int, ...] | None
    c_shape: tuple[int, ...]


@dataclass
class Ties:
    """What the ties (:func:`tie_to_c`) of one kernel's reads share: the :class:`Launch` of
    a kernel sized only at launch (None: the grid the kernel's IR bounds, no push constants)
    and C's tiles, evaluated once per shape of C; what the ties read of the kernel, found
    once (:class:`~pipeline_mlir.analysis.output_tiles.KernelFacts`: the ties only read it)."""
    launch: Launch | None = None
    tiles: dict = field(default_factory=dict)
    facts: KernelFacts | None = None

    def of(self, f) -> KernelFacts:
        """The kernel facts of ``f`` (the kernel of the reads tied)."""
        if self.facts is None or self.facts.f != f:
            self.facts = KernelFacts(f)
        return self.facts


def tie_to_c(f, op, c_shape: tuple, along: str, points: list, element, what: str,
             label: str, ties: Ties | None = None, end=None, outside=None,
             active=None) -> None:
    """Refuse (at ``op``) a read of an epilogue input whose element, at every one of
    ``points`` (a loop iteration, a gathered element), does not move from the grid's first
    workgroup's by what the ``along`` origin of the tile of C each workgroup writes moves
    (module docstring): ``column`` or ``row`` (a 1-D input), ``element`` (an input of C's
    shape: its flat element).  ``element(ev, point, workgroup ids)``: each lane's element
    of the input (``ev`` a :class:`SideBySide` with the workgroups bound); ``what`` names
    the read, ``label`` a point in a message; ``ties``: what the ties of one kernel share
    (:class:`Ties`: the launch of a kernel sized at launch, C's tiles once evaluated).
    ``end(ev)`` (a plain read of a buffer that reads zero past its end): the root element
    where it ends and one past the last a buffer load's offset reaches, or None; a read that
    starts there or past it reads zeros, and so does the read moved with C's tile when it
    starts past it too, so such a lane is not held to the tie (IREE clamps the rows of a bias
    of M past C's edge to M: those lanes read zeros, C masks them off).  ``outside(ev)``
    (a read of an input of C's shape, ``along`` ``element``, whose mask the caller proved
    exact: :func:`_wholly_masked`): a lane whose read lies wholly outside the input in some
    dimension, and whose first workgroup's read moved with C's tile (dimension by
    dimension) lies wholly outside too, is masked in both and not held to the tie (IREE
    clamps the columns past C's edge to N: [r, N] is outside along N, though its flat
    element is that of [r + 1, 0]).  ``active(ev)`` (after ``element``): the lanes that run
    the read there (a loop from the thread id: whose own iteration it is), else every lane."""
    ties = Ties() if ties is None else ties
    launch = ties.launch
    facts = ties.of(f)
    grid = facts.grid() if launch is None else launch.grid
    if launch is not None and len(launch.c_shape) == len(c_shape):
        c_shape = tuple(a if a >= 0 else b for a, b in zip(c_shape, launch.c_shape))
    if grid is None or not 0 < math.prod(grid) * max(len(points), 1) <= MAX_POINTS:
        why = "the grid has no bound" if grid is None else \
            f"there are {math.prod(grid) * len(points)} workgroups x elements, not 1 to " \
            f"{MAX_POINTS}"
        raise IRError(op, f"{describe(op)}: a {what} of an epilogue input is tied to C at "
                          f"every workgroup, and {why}; {_tie(what)}")
    block = block_size(f) or (256, 1, 1)
    ids = [tuple(int(x) for x in w) for w in np.ndindex(*grid)]
    constants = () if launch is None else launch.constants
    origin, corner = _tile_origins(f, op, c_shape, along, grid, ids, block, constants,
                                   ties, what)
    ids_a = np.array(ids, dtype=np.int64).reshape(-1, len(grid))
    ops, grid3 = facts.launch_ops(), tuple(grid) + (1,) * (3 - len(grid))
    base: dict = {}
    base_at: dict = {}
    for start in range(0, len(ids_a), CHUNK):
        chunk = ids_a[start:start + CHUNK]
        ev = SideBySide(block, len(chunk))
        # the workgroup ids and counts (a linearised workgroup loop's step), and the
        # sizes known only at launch
        bind_launch(ev, ops, ev.lane_ids(chunk), grid3, None if launch is None else constants)
        n = ev.per_workgroup
        writes = origin[start:start + len(chunk)] >= 0
        moved = (origin[start:start + len(chunk)] - origin[0])[:, None]
        for point in points:
            got = np.broadcast_to(element(ev, point, chunk), (ev.threads,)).reshape(-1, n)
            first = base.setdefault(point, got[:1])
            off = (got - first != moved) & writes[:, None]
            if active is not None:
                off &= np.broadcast_to(active(ev), (ev.threads,)).reshape(-1, n)
            zero = None if end is None else end(ev)
            if zero is not None:
                off &= ~_both_zero(got, first + moved, *zero)
            span = None if outside is None or corner is None else outside(ev)
            if span is not None and len(span[2]) == corner.shape[1]:
                at, extent, shape = span
                at = [np.broadcast_to(a, (ev.threads,)).reshape(-1, n) for a in at]
                first_at = base_at.setdefault(point, [a[:1] for a in at])
                shift = corner[start:start + len(chunk)] - corner[0]
                off &= ~(_out_of(at, extent, shape) &
                         _out_of([a + shift[:, d:d + 1] for d, a in enumerate(first_at)],
                                 extent, shape))
            bad = np.argwhere(off)
            if len(bad):
                w, t = (int(x) for x in bad[0])
                raise IRError(op, f"{describe(op)}: in workgroup "
                                  f"{[int(x) for x in chunk[w]]} thread {t} ({label} "
                                  f"{list(point)}) it reads element {int(got[w, t])}, "
                                  f"{int(got[w, t] - first[0, t])} from the grid's first "
                                  f"workgroup's, where the {along} of the tile of C it "
                                  f"writes moved by {int(moved[w, 0])}: {_tie(what)}")


def _both_zero(got, moved, stop: int, reach: int):
    """The lanes whose read (``got``) and whose first workgroup's read moved with C's tile
    (``moved``) both start at or past a buffer's end ``stop``, below ``reach``: zeros."""
    return (got >= stop) & (moved >= stop) & (got < reach) & (moved < reach)


def _tile_origins(f, op, c_shape: tuple, along: str, grid, ids, block, constants,
                  ties: Ties, what: str):
    """Per workgroup, the ``along`` origin of the tile of C it writes (-1: none) and, for
    ``along`` ``element``, its first element's index (else None): :func:`tie_to_c`'s
    moves, the tiles evaluated once per C shape (``ties``)."""
    if tuple(c_shape) not in ties.tiles:
        try:
            ties.tiles[tuple(c_shape)] = output_tiles(f, tuple(c_shape), tuple(grid), ids, block,
                                                constants)
        except IRError as e:
            raise IRError(op, f"{describe(op)}: the tiles of C the workgroups write could not "
                              f"be evaluated ({e}); {_tie(what)}") from None
    tiles = ties.tiles[tuple(c_shape)]
    if along == "element":
        origin = np.array([np.ravel_multi_index(t[0][0], c_shape) if t else -1
                           for t in tiles], dtype=np.int64)
    else:
        dim = len(c_shape) - (1 if along == "column" else 2)
        origin = np.array([t[0][0][dim] if t else -1 for t in tiles], dtype=np.int64)
    corner = np.array([t[0][0] if t else (0,) * len(c_shape) for t in tiles],
                      dtype=np.int64).reshape(len(tiles), -1) if along == "element" else None
    return origin, corner


def _tie(what: str) -> str:
    return (f"a {what} of an epilogue input is taken only where every workgroup's {what} "
            f"is the first workgroup's, moved with its tile of C (proven over the grid)")
