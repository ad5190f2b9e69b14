"""The tile of a dispatch's output each workgroup writes, evaluated from the dispatch's IR.

A partial run of a dispatch (some workgroups of its grid) is checked on the tiles of C
those workgroups are responsible for.  :func:`output_tiles` reads them from the dispatch
itself, not from what the machine code stores: for each workgroup it evaluates, for every
thread, the elements every write of the output (``vector.transfer_write``,
``vector.store``, ``memref.store``, ``vector.scatter``, ``memref.copy``: every element of
its target, whose sizes a ``memref.subview`` may give per thread) writes, with

* the workgroup ids as IREE maps them: an ``scf.forall`` over workgroups (each induction
  variable ``lb + id * step`` of the id its mapping names), ``hal.interface.workgroup.id``
  / ``gpu.block_id`` of each dimension, the workgroup count (``hal.interface.workgroup.count``,
  ``gpu.grid_dim``) the grid's; IREE's linearised workgroup loop (an ``scf.for`` from the
  id in steps of the count) runs each of its iterations;
* every other ``scf.for`` around a write run over its iterations (its lower bound and
  step the same for every thread, its upper bound per thread: IREE's loops over the rows
  of a partial tile that a thread writes), an
  ``scf.if`` taken by the threads whose condition says so, a scatter's mask applied;
* vector index arithmetic (a scatter's offsets and mask: ``vector.broadcast``,
  ``shape_cast``, ``transpose``, ``step``, ``from_elements``, ``arith`` element-wise)
  evaluated per element;
* elements past the end of the binding left out (a buffer store there is dropped).

The tile of a workgroup is the box (per dimension of C, from the lowest to the highest
index) its writes span, one per iteration of a linearised workgroup loop (a grid smaller
than the tiles: each workgroup takes several); a workgroup that writes nothing has none.
A box is where a tile lies, not what is written: a loop some threads run fewer times
leaves elements of it unwritten.  What a partial run is responsible for, and what a proof
that a grid covers C counts, is :func:`written_mask`: the elements the writes write, one
by one, so an edge workgroup's partial tile is exact (its elements inside C that the
dispatch writes, none past M or N).  Whatever cannot be evaluated is an
:class:`~pipeline_mlir.dialect.ir_io.IRError` at the op.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, WORKGROUP_COUNT_OPS, WORKGROUP_ID_OPS,
                                             dense_i64, mapped_forall, memory_space, segments)
from pipeline_mlir.analysis.lane_ops import id_dimension
from pipeline_mlir.analysis.loop_eval import (Evaluator, SideBySide, grid_stride, grid_stride_range,
                                              workgroup_grid)
from pipeline_mlir.analysis.vector_index import Vectors
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.analysis.write_slice import writes_key
from pipeline_mlir.dialect.attrs import workgroup_mapping
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops

#: write ops -> the position of their memref operand
WRITES = {"vector.transfer_write": 1, "vector.store": 1, "memref.store": 1,
          "vector.scatter": 0, "memref.copy": 1}
#: iterations of the loops around one write the evaluation runs at most
MAX_ITERATIONS = 4096


def output_writes(f, shape: tuple[int, ...]) -> list:
    """The write ops of ``f`` into the output: the one global buffer of ``shape`` the
    kernel writes (an LDS or private buffer of that shape, C's tile staged through it, is
    none)."""
    roots: dict = {}
    for w in walk_ops(f, lambda o: o.name in WRITES):
        root = view_root(w.operands[WRITES[w.name]])
        if _sized(root.type, shape) and memory_space(root.type) not in ("workgroup",
                                                                          "private"):
            roots.setdefault(root, []).append(w)
    if len(roots) != 1:
        raise IRError(f, f"'{f.name}' op: {len(roots)} buffers of "
                         f"{'x'.join(map(str, shape))} elements are written; the output's "
                         f"tiles are read from the writes of one")
    return next(iter(roots.values()))


def _sized(t, shape: tuple[int, ...]) -> bool:
    """A memref type of ``shape``, its first dimension perhaps sized at launch (the others
    give the row-major strides the evaluation needs)."""
    if not isinstance(t, ir.MemRefType):
        return False
    have = list(ir.MemRefType(t).shape)
    return len(have) == len(shape) and have[1:] == list(shape[1:]) and \
        have[0] in (shape[0], DYNAMIC)


def output_tiles(f, shape: tuple[int, ...], grid: tuple[int, ...], workgroups: list,
                 block: tuple[int, int, int],
                 constants: tuple[int, ...] = ()) -> list[list[tuple[tuple, tuple]]]:
    """Per workgroup of ``workgroups`` (ids: an int on a 1-D ``grid``, else a tuple x, y,
    z), its tiles: the box ``(low, high)`` (high exclusive, per dimension of the output of
    ``shape``) its writes span, one per iteration of a linearised workgroup loop around
    them (a workgroup of a grid smaller than the tiles takes several); none when it writes
    nothing (module docstring).  ``constants``: the launch's push constants
    (``hal.interface.constant.load`` by ordinal: sizes known only at launch).  A box says
    where a tile lies, not that every element of it is written: what is written is
    :func:`written_mask`.  Evaluated :func:`_side_by_side` where it can."""
    boxes = _boxes_side_by_side(f, shape, grid, workgroups, block, constants)
    if boxes is not None:
        return boxes
    out = []
    for tiles in _written_by(f, shape, grid, workgroups, block, constants):
        boxes = []
        for flat in tiles:
            at = np.unravel_index(flat, shape)
            boxes.append((tuple(int(a.min()) for a in at), tuple(int(a.max()) + 1 for a in at)))
        out.append(boxes)
    return out


def written_mask(f, shape: tuple[int, ...], grid: tuple[int, ...], workgroups: list,
                 block: tuple[int, int, int], constants: tuple[int, ...] = ()) -> np.ndarray:
    """The bool mask of the output of ``shape`` the writes of ``workgroups`` write, element
    by element (the arguments: :func:`output_tiles`'s): a tile's box may hold elements no
    thread writes (a loop some threads run fewer times), which the mask leaves out."""
    mask = np.zeros(int(np.prod(shape)), dtype=bool)
    for tiles in _written_by(f, shape, grid, workgroups, block, constants):
        for flat in tiles:
            mask[flat] = True
    return mask.reshape(shape)


def _written_by(f, shape: tuple[int, ...], grid: tuple[int, ...], workgroups: list,
                block: tuple[int, int, int], constants: tuple[int, ...]):
    """Per workgroup of ``workgroups``, per tile (iteration of the linearised workgroup
    loops around the writes, in order) that writes an element inside the output: the flat
    elements it writes there."""
    writes = output_writes(f, shape)
    size = int(np.prod(shape))
    grid3 = tuple(grid) + (1,) * (3 - len(grid))
    ev = Evaluator(block)   # one for all: a bind forgets what was computed from the value
    ops = launch_ops(f)
    vec = Vectors(ev)      # one for all: a value kept is checked against what it read
    for wid in workgroups:
        ids = (wid,) if isinstance(wid, int) else tuple(wid)
        ids3 = ids + (0,) * (3 - len(ids))
        bind_launch(ev, ops, ids3, grid3, constants)
        by_tile: dict = {}
        for w in writes:
            for key, flat, keep in _elements(ev, f, w, ids3, grid3, vec):
                by_tile.setdefault(key, []).append(flat[keep])
        tiles = []
        for key in sorted(by_tile):
            flat = np.concatenate(by_tile[key])
            flat = flat[(flat >= 0) & (flat < size)]
            if flat.size:
                tiles.append(flat)
        yield tiles


#: the ops a launch binds (:func:`launch_ops`)
LAUNCH_OPS = ("hal.interface.constant.load", "scf.forall") + WORKGROUP_ID_OPS + \
    WORKGROUP_COUNT_OPS


def launch_ops(f) -> list:
    """The ops of ``f`` a launch binds (push constants, workgroup foralls, workgroup ids
    and counts), found in one walk: :func:`bind_workgroup` and the evaluation of many
    workgroups bind them without walking the kernel again for each."""
    return walk_ops(f, lambda o: o.name in LAUNCH_OPS)


class KernelFacts:
    """What the proofs over one kernel ``f``'s grid read of it, each found once (a walk of
    the kernel) when first asked: its grid (:func:`~pipeline_mlir.analysis.loop_eval.
    workgroup_grid`) and its :func:`launch_ops`.  For analyses that leave the kernel as it
    is while they hold it (the epilogue reader's masked reads and ties: dozens of proofs
    over the grid per kernel)."""

    def __init__(self, f) -> None:
        self.f = f
        self._found: dict = {}

    def grid(self) -> tuple[int, ...] | None:
        if "grid" not in self._found:
            self._found["grid"] = workgroup_grid(self.f)
        return self._found["grid"]

    def launch_ops(self) -> list:
        if "ops" not in self._found:
            self._found["ops"] = launch_ops(self.f)
        return self._found["ops"]


def bind_launch(ev: Evaluator, ops: list, ids: tuple, grid: tuple,
                constants: tuple | None) -> None:
    """Bind the workgroup ids (ints, or per-lane arrays side by side), the workgroup
    count, the workgroup foralls' induction variables and the push constants (None: left
    unbound) of a kernel (``ops``: its :func:`launch_ops`)."""
    for o in ops:
        if constants is None or o.name != "hal.interface.constant.load":
            continue
        k = ir.IntegerAttr(o.attributes["ordinal"]).value
        if k >= len(constants):
            raise IRError(o, f"'{o.name}' op: push constant #{k}, which the launch does not "
                             f"give")
        ev.bind(o.results[0], constants[k])
    bind_workgroup(ev, None, ids, ops)
    for o in ops:
        if o.name in WORKGROUP_COUNT_OPS:
            ev.bind(o.results[0], grid[id_dimension(o)])


def bind_workgroup(ev: Evaluator, f, ids: tuple, ops: list | None = None) -> None:
    """Bind, in ``ev``, the workgroup ids of ``f`` and the induction variables of its
    workgroup foralls to their values at the workgroup of coordinates ``ids`` (x, y, z)
    (``ops``: ``f``'s :func:`launch_ops`, if found already)."""
    ops = launch_ops(f) if ops is None else ops
    for o in ops:
        if not mapped_forall(o):
            continue
        dims = [workgroup_mapping(m) for m in ir.ArrayAttr(o.attributes["mapping"])]
        if any(d is None for d in dims):
            continue
        lbs, steps = (list(ir.DenseI64ArrayAttr(o.attributes[a])) for a in
                      ("staticLowerBound", "staticStep"))
        if any(v == DYNAMIC for v in lbs + steps):
            raise IRError(o, "'scf.forall' op: a workgroup loop with bounds known only at "
                             "launch; the output's tiles are read from static bounds")
        for arg, d, lb, step in zip(o.regions[0].blocks[0].arguments, dims, lbs, steps):
            ev.bind(arg, lb + ids[d] * step)
    for o in ops:
        if o.name in WORKGROUP_ID_OPS:
            ev.bind(o.results[0], ids[id_dimension(o)])


def _chain(w, f) -> list:
    """The ops around ``w`` up to ``f``, outermost first, with the region ``w`` is in."""
    out = []
    op = w
    while True:
        parent = op.parent
        if parent is None:
            break
        parent = as_operation(parent)
        if parent == f:
            break
        # the region of parent that holds op: scf.if's then (0) or else (1)
        idx = 0
        if parent.name == "scf.if" and len(parent.regions) > 1:
            idx = 1 if any(op == o for b in parent.regions[1].blocks for o in b.operations) \
                else 0
        out.append((parent, idx))
        op = parent
    return out[::-1]


def _elements(ev: Evaluator, f, w, ids: tuple, grid: tuple, vec: Vectors,
              hook=None) -> list[tuple[tuple, np.ndarray, np.ndarray]]:
    """The flat elements of the output ``w`` (a write in function ``f``) writes, over the
    loops around it, by the iteration of the linearised workgroup loops around it (the
    key: their induction variables' values), as :func:`_written` gives them; ``hook``
    called at each, the loops' variables bound."""
    found: list[tuple[tuple, np.ndarray, np.ndarray]] = []

    def leaf(active: np.ndarray, key: tuple) -> None:
        found.append((key,) + _written(ev, w, active, vec))
        if hook is not None:
            hook()
    walk_points(ev, f, w, leaf, lambda o, active: _iterations(ev, o, ids, grid, active),
                "the output's write")
    return found


def walk_points(ev: Evaluator, f, op, leaf, iterations, what: str, condition=None) -> None:
    """Call ``leaf(active, key)`` at every point of the ``scf.for`` loops around ``op`` in
    function ``f``, each loop's variable bound in ``ev``: ``active`` the threads that reach
    ``op`` there (an ``scf.if`` around it taken by the threads whose condition says so, a
    loop's iteration by the threads below their own upper bound), ``key`` the values of
    the linearised workgroup loops' variables around it.  ``iterations(loop, active)``
    gives a loop's iterations and its upper bound per thread (:func:`_iterations`);
    ``condition(if_op)`` an ``scf.if``'s per-thread condition, None where it keeps every
    thread (default: evaluated in ``ev``); ``what`` names ``op`` in the errors (more than
    :data:`MAX_ITERATIONS` iterations, an op around it other than those and a workgroup
    ``scf.forall``)."""
    count = [0]
    cond_of = condition or (lambda o: ev.value(o.operands[0]) != 0)

    def visit(chain: list, active: np.ndarray, key: tuple) -> None:
        if not chain:
            leaf(active, key)
            return
        (o, region), rest = chain[0], chain[1:]
        if o.name == "scf.if":
            cond = cond_of(o)
            visit(rest, active if cond is None else active & (cond if region == 0 else ~cond),
                  key)
        elif o.name == "scf.for":
            its, ub = iterations(o, active)
            count[0] += len(its)
            if count[0] > MAX_ITERATIONS:
                raise IRError(o, f"'scf.for' op: the loops around {what} run more than "
                                 f"{MAX_ITERATIONS} iterations")
            for v in its:
                ev.bind(o.regions[0].blocks[0].arguments[0], v)
                visit(rest, active & (v < ub), key + (v,) if grid_stride(o) else key)
        elif mapped_forall(o) and all(
                workgroup_mapping(m) is not None for m in ir.ArrayAttr(o.attributes["mapping"])):
            visit(rest, active, key)
        else:
            raise IRError(o, f"'{o.name}' op: {what} inside it; the evaluation runs through "
                             f"scf.for, scf.if and workgroup scf.forall only")

    try:
        visit(_chain(op, as_operation(f)), np.ones(ev.threads, dtype=bool), ())
    finally:
        # (visit calls itself through its closure's cell, a cycle that would hold ``ev``
        # and every array it evaluated until the garbage collector's next full pass:
        # some 2 GB of an i8 2048x50257 kernel's grid; emptied here)
        visit = None


def write_iterations(f, w, ids: tuple, grid: tuple, ev: Evaluator,
                     vec: Vectors) -> list[tuple[dict, np.ndarray]]:
    """Per iteration of the loops around the write ``w`` of ``f`` that a workgroup runs
    (its ``ids`` and the launch bound in ``ev``: :func:`bind_launch`): (each ``scf.for``
    variable around ``w`` -> its value, (threads, elements of the written value in
    row-major order) which elements each thread writes, a scatter's and a transfer's masks
    applied)."""
    loops = [o.regions[0].blocks[0].arguments[0] for o, _r in _chain(w, as_operation(f))
             if o.name == "scf.for"]
    envs: list = []
    def env() -> None:
        if any(np.any(ev.bound[v] != ev.bound[v][0]) for v in loops):
            raise IRError(w, f"'{w.name}' op: inside a loop whose variable differs between "
                             f"threads; the iterations are read from loops the same in "
                             f"every thread")
        envs.append({v: int(ev.bound[v][0]) for v in loops})
    found = _elements(ev, f, w, ids, grid, vec, env)
    return [(env, keep) for env, (_key, _flat, keep) in zip(envs, found)]


def _iterations(ev: Evaluator, loop, ids: tuple, grid: tuple,
                active: np.ndarray) -> tuple[list, np.ndarray]:
    """(the iterations of ``loop`` any of the threads ``active`` runs, per thread the upper
    bound: a thread runs those below its own): IREE's linearised workgroup loop's
    (:func:`~pipeline_mlir.analysis.loop_eval.grid_stride_range`), else
    :func:`thread_iterations`."""
    if grid_stride(loop):
        its = grid_stride_range(ev, loop, ids, grid)
        return its, np.full(ev.threads, its.stop, dtype=np.int64)
    return thread_iterations(ev, loop, active)


def thread_iterations(ev: Evaluator, loop, active: np.ndarray) -> tuple[list, np.ndarray]:
    """(the iterations of ``loop`` any of the threads ``active`` runs, each its variable's
    value per thread, and per thread the upper bound: a thread runs the values below its
    own).  The step is the same for every thread and positive; the bounds may not be
    (IREE's loops over the rows of a partial tile a thread writes; the late form's loops
    from the thread id in steps of the workgroup)."""
    lb, ub = (np.asarray(ev.value(v), dtype=np.int64) for v in list(loop.operands)[:2])
    step = ev.uniform(loop.operands[2])
    if not step or step < 0:
        raise IRError(loop, "'scf.for' op: a loop whose step is not the same for every "
                            "thread, or is not positive")
    trips = np.maximum(-(-(ub - lb) // step), 0)
    top = int(trips[active].max()) if active.any() else 0
    return [lb + j * step for j in range(top)], ub


def _written(ev: Evaluator, w, active: np.ndarray,
             vec: Vectors) -> tuple[np.ndarray, np.ndarray]:
    """The flat elements of the output the threads ``active`` write with ``w``: (per thread
    the elements it may write, which of them it writes), two arrays of one shape."""
    at = WRITES[w.name]
    ref = w.operands[at]
    view = ev.view(ref)
    rank = ir.MemRefType(ref.type).rank
    if w.name == "memref.copy":       # every element of its target, of per-thread sizes
        sizes = view_sizes(ev, w, ref)
        pos = np.indices([max(0, int(x.max())) for x in sizes]).reshape(rank, -1)
        keep = np.all([pos[j][None, :] < sizes[j][:, None] for j in range(rank)], axis=0)
        return _flat(view.offset, view.strides, pos, keep, active)
    idx = [ev.value(x) for x in list(w.operands)[at + 1:at + 1 + rank]]
    if w.name == "memref.store":
        return view.element(idx)[:, None], active[:, None]
    if w.name == "vector.scatter":
        vec.next_pass()
        offsets = vec.value(w.operands[at + 1 + rank])
        mask = vec.value(w.operands[at + 2 + rank]) != 0
        base = view.element(idx)[:, None] + offsets * view.strides[-1]
        return np.broadcast_arrays(base, mask & active[:, None])
    vshape = list(ir.VectorType(w.operands[0].type).shape)
    if w.name == "vector.transfer_write":
        if len(w.operands) > 2 + rank:
            raise IRError(w, f"'{w.name}' op: a masked write of the output; the tiles are read "
                             f"from unmasked writes and scatters")
        pmap = ir.AffineMapAttr(w.attributes["permutation_map"]).value \
            if "permutation_map" in w.attributes else None
        if pmap is not None and pmap != ir.AffineMap.get_minor_identity(pmap.n_dims,
                                                                        len(pmap.results)):
            raise IRError(w, f"'{w.name}' op: a permuted write of the output; the tiles are "
                             f"read from minor-identity writes")
    pos = np.indices(vshape).reshape(len(vshape), -1)
    first = rank - len(vshape)
    keep = np.ones((ev.threads, pos.shape[1]), dtype=bool)
    for j in range(len(vshape)):     # a transfer_write's lanes past the memref's edge: masked
        if w.name == "vector.transfer_write" and view.shape[first + j] != DYNAMIC:
            keep &= (idx[first + j][:, None] + pos[j][None, :]) < view.shape[first + j]
    return _flat(view.element(idx), view.strides[first:], pos, keep, active)


def _flat(base: np.ndarray, strides, pos: np.ndarray, keep: np.ndarray,
          active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The flat elements at ``base`` (per thread) plus positions ``pos`` (per dimension,
    per element, times ``strides``) that ``keep`` (threads x elements) keeps and a thread
    of ``active`` writes (:func:`_written`'s two arrays)."""
    offs = sum(pos[j] * strides[j] for j in range(len(pos)))
    flat = base[:, None] + np.asarray(offs)[None, :]
    return np.broadcast_arrays(flat, keep & active[:, None])


def view_sizes(ev: Evaluator, w, ref) -> list[np.ndarray]:
    """Per dimension of memref ``ref`` (an operand of ``memref.copy`` ``w``), per thread:
    its size, static or given by the ``memref.subview`` that makes it."""
    t = ir.MemRefType(ref.type)
    if all(d != DYNAMIC for d in t.shape):
        return [np.full(ev.threads, d, dtype=np.int64) for d in t.shape]
    op = None if isinstance(ref.owner, ir.Block) else as_operation(ref.owner)
    static = dense_i64(op, "static_sizes") \
        if op is not None and op.name == "memref.subview" else []
    if len(static) != t.rank:
        raise IRError(w, f"'{w.name}' op: a copy of a memref of a size known only at run "
                         f"time that no memref.subview of its rank gives; its elements are "
                         f"evaluated for copies whose extent the evaluation sees")
    dyn = iter(segments(op)[2])
    return [np.asarray(ev.value(next(dyn)), dtype=np.int64) if d == DYNAMIC else
            np.full(ev.threads, d, dtype=np.int64) for d in static]


def _static_output(f):
    """The shape of the one global buffer ``f`` writes (its output), when it has one of a
    static shape; else None."""
    roots: dict = {}
    for w in walk_ops(f, lambda o: o.name in WRITES):
        root = view_root(w.operands[WRITES[w.name]])
        if isinstance(root.type, ir.MemRefType) and \
                memory_space(root.type) in ("global", "fat_raw_buffer"):
            roots.setdefault(root, tuple(ir.MemRefType(root.type).shape))
    shapes = list(roots.values())
    if len(shapes) != 1 or any(d == DYNAMIC for d in shapes[0]):
        return None
    return shapes[0]


def check_grid_covers(f, grid: tuple[int, ...], block: tuple[int, int, int], at=None) -> None:
    """Prove the grid the kernel ``f`` states
    (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`: its ids' upper bounds, its
    workgroup loops) covers its output: every element of C is written by some workgroup of
    ``grid`` (:func:`written_mask`: the elements written, not the boxes they span).  A
    proof made over the workgroups of that grid holds on the launch only then: a launch on more workgroups than a bound says
    (a bound short by part of a row of tiles, say) runs workgroups the proof never saw.
    Else an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the first workgroup id op (or
    ``at``) naming the grid and the first element no workgroup writes (which may as well be
    an element the kernel never writes: both are said); also when the output
    is not one global buffer of a static shape (what the proof is made on)."""
    ids = walk_ops(f, lambda o: o.name in WORKGROUP_ID_OPS)
    where = ids[0] if ids else (at if at is not None else f)
    shape = _static_output(f)
    name = f"'{as_operation(where).name}' op"
    if shape is None:
        raise IRError(where, f"{name}: the kernel's grid {'x'.join(map(str, grid))} is proven "
                             f"to cover its output only when it writes one global buffer of "
                             f"a static shape")
    # (what the writes read, not the kernel's text: the front end asks again while it
    # rewrites the K-loop, which changes neither; analysis/write_slice.py)
    key = (writes_key(f, output_writes(f, shape)), shape, tuple(grid), tuple(block))
    if key in _COVERED:         # the same writes proven before in this process
        return
    points = list(np.ndindex(*grid))
    mask = _grid_mask(f, shape, grid, points, block)
    if not mask.all():
        first = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(~mask)[0]), shape))
        raise IRError(where, f"{name}: the {len(points)} workgroups of the kernel's grid "
                             f"{'x'.join(map(str, grid))} (its workgroup ids' upper_bound, "
                             f"its workgroup loops) write no element {list(first)} of the "
                             f"{'x'.join(map(str, shape))} output: either the kernel leaves "
                             f"that element unwritten, or it runs on more workgroups than "
                             f"the bound says and a proof over the grid would leave them "
                             f"unchecked; the front end pipelines a kernel whose grid "
                             f"writes its whole output")
    if len(_COVERED) >= 64:
        _COVERED.clear()
    _COVERED.add(key)


#: the (writes' key, output shape, grid, block) :func:`check_grid_covers` proved, a few at a
#: time
_COVERED: set = set()
#: the workgroups :func:`_side_by_side` evaluates at once
_SIDE_BY_SIDE = 1024


def _grid_mask(f, shape: tuple, grid: tuple, points: list, block: tuple) -> np.ndarray:
    """:func:`written_mask` of every workgroup of ``grid`` (``points``), side by side."""
    ids = [p if len(grid) > 1 else p[0] for p in points]
    mask = np.zeros(int(np.prod(shape)), dtype=bool)
    try:
        for _start, flat, keep in _side_by_side(f, shape, grid, ids, block, ()):
            mask[flat[keep]] = True
    except _OneAtATime:
        return written_mask(f, shape, grid, ids, block)
    return mask.reshape(shape)


def _boxes_side_by_side(f, shape: tuple, grid: tuple, workgroups: list, block: tuple,
                        constants: tuple) -> list | None:
    """:func:`output_tiles` evaluated :func:`_side_by_side`: per workgroup, the one box its
    writes span (none if it writes nothing); None where that cannot be done."""
    big = np.iinfo(np.int64).max
    lo = np.full((len(workgroups), len(shape)), big, dtype=np.int64)
    hi = np.full((len(workgroups), len(shape)), -1, dtype=np.int64)
    try:
        for start, flat, keep in _side_by_side(f, shape, grid, workgroups, block, constants):
            n = len(flat) // _threads(block)            # workgroups in the chunk
            rows = slice(start, start + n)
            every = keep.all()          # (the common case: no where below)
            for d in range(len(shape)):     # (np.unravel_index misreads a broadcast array)
                at = flat // int(np.prod(shape[d + 1:])) % shape[d]
                low = (at if every else np.where(keep, at, big)).min(axis=1)
                high = (at if every else np.where(keep, at, -2)).max(axis=1) + 1
                low, high = low.reshape(n, -1).min(axis=1), high.reshape(n, -1).max(axis=1)
                lo[rows, d] = np.minimum(lo[rows, d], low)
                hi[rows, d] = np.maximum(hi[rows, d], high)
    except _OneAtATime:
        return None
    return [[(tuple(int(x) for x in a), tuple(int(x) for x in b))] if b[0] >= 0 else []
            for a, b in zip(lo, hi)]


def _threads(block: tuple) -> int:
    return int(np.prod(block))


class _OneAtATime(Exception):
    """The workgroups are evaluated one at a time (:func:`_side_by_side` cannot)."""


def _side_by_side(f, shape: tuple, grid: tuple, workgroups: list, block: tuple,
                  constants: tuple):
    """Per write of the output and chunk of :data:`_SIDE_BY_SIDE` of ``workgroups``
    evaluated side by side (a numpy lane per thread and workgroup, workgroup-major): (the
    chunk's first index, :func:`_written`'s two arrays, kept only inside the output).
    :class:`_OneAtATime` when a linearised workgroup loop is in the kernel (tiles per
    iteration) or a loop around the writes starts or steps differently in some of them."""
    if walk_ops(f, lambda o: o.name == "scf.for" and grid_stride(o)):
        raise _OneAtATime
    writes = output_writes(f, shape)
    size = int(np.prod(shape))
    grid3 = tuple(grid) + (1,) * (3 - len(grid))
    ops = launch_ops(f)
    at = np.array([(w,) if isinstance(w, int) else tuple(w) for w in workgroups],
                  dtype=np.int64).reshape(len(workgroups), -1)
    for start in range(0, len(at), _SIDE_BY_SIDE):
        chunk = at[start:start + _SIDE_BY_SIDE]
        ev = SideBySide(block, len(chunk))
        wids = ev.lane_ids(chunk)
        vec = Vectors(ev)
        try:
            bind_launch(ev, ops, wids, grid3, constants)
            found = [x[1:] for w in writes for x in _elements(ev, f, w, wids, grid3, vec)]
        except IRError:
            raise _OneAtATime from None
        for flat, keep in found:
            flat = np.broadcast_to(flat, keep.shape)
            yield start, flat, keep & (flat >= 0) & (flat < size)
