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

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, VALUE_CASTS, WORKGROUP_COUNT_OPS,
                                             WORKGROUP_ID_OPS, dense_i64, mapped_forall,
                                             memory_space, segments)
from pipeline_mlir.analysis.lane_ops import (BINARY, Unevaluable, arith_binary, cast_value,
                                          compare_at, id_dimension)
from pipeline_mlir.analysis.loop_eval import Evaluator, SideBySide, grid_stride, grid_stride_range
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.analysis.int_ranges import signed
from pipeline_mlir.dialect.attrs import workgroup_mapping
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops

#: write ops -> the position of their memref operand
WRITES = {"vector.transfer_write": 1, "vector.store": 1, "memref.store": 1,
          "vector.scatter": 0, "memref.copy": 1}
#: iterations of the loops around one write the evaluation runs at most
MAX_ITERATIONS = 4096
_SAME = ("iree_codegen.index_hint", "util.assume.int")
#: the integer casts, evaluated at their widths
_CASTS = VALUE_CASTS + ("arith.trunci",)


def output_writes(f, shape: tuple[int, ...]) -> list:
    """The write ops of ``f`` into the output: the one global buffer of ``shape`` the
    kernel writes."""
    roots: dict = {}
    for w in walk_ops(f, lambda o: o.name in WRITES):
        root = view_root(w.operands[WRITES[w.name]])
        if _sized(root.type, shape):
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
    :func:`written_mask`."""
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
    vec = _Vectors(ev)      # one for all: a value kept is checked against what it read
    for wid in workgroups:
        ids = (wid,) if isinstance(wid, int) else tuple(wid)
        ids3 = ids + (0,) * (3 - len(ids))
        _bind_launch(ev, ops, ids3, grid3, constants)
        by_tile: dict = {}
        for w in writes:
            for key, flat in _elements(ev, f, w, ids3, grid3, vec):
                by_tile.setdefault(key, []).append(flat)
        tiles = []
        for key in sorted(by_tile):
            flat = np.concatenate(by_tile[key])
            flat = flat[(flat >= 0) & (flat < size)]
            if flat.size:
                tiles.append(flat)
        yield tiles


#: the ops a launch binds (:func:`launch_ops`)
_LAUNCH_OPS = ("hal.interface.constant.load", "scf.forall") + WORKGROUP_ID_OPS + \
    WORKGROUP_COUNT_OPS


def launch_ops(f) -> list:
    """The ops of ``f`` a launch binds (push constants, workgroup foralls, workgroup ids
    and counts), found in one walk: :func:`bind_workgroup` and the evaluation of many
    workgroups bind them without walking the kernel again for each."""
    return walk_ops(f, lambda o: o.name in _LAUNCH_OPS)


def _bind_launch(ev: Evaluator, ops: list, ids: tuple, grid: tuple, constants: tuple) -> None:
    """Bind the workgroup ids, the workgroup count, the workgroup foralls' induction
    variables and the push constants of a kernel (``ops``: its :func:`launch_ops`)."""
    for o in ops:
        if o.name != "hal.interface.constant.load":
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


def _elements(ev: Evaluator, f, w, ids: tuple, grid: tuple,
              vec: _Vectors) -> list[tuple[tuple, np.ndarray]]:
    """The flat elements of the output ``w`` (a write in function ``f``) writes, over the
    loops around it, by the iteration of the linearised workgroup loops around it (the
    key: their induction variables' values)."""
    found: list[tuple[tuple, np.ndarray]] = []
    count = [0]

    def visit(chain: list, active: np.ndarray, key: tuple) -> None:
        if not chain:
            found.append((key, _written(ev, w, active, vec)))
            return
        (o, region), rest = chain[0], chain[1:]
        if o.name == "scf.if":
            cond = ev.value(o.operands[0]) != 0
            visit(rest, active & (cond if region == 0 else ~cond), key)
        elif o.name == "scf.for":
            its, ub = _iterations(ev, o, ids, grid, active)
            count[0] += len(its)
            if count[0] > MAX_ITERATIONS:
                raise IRError(o, f"'scf.for' op: the loops around the output's write run "
                                 f"more than {MAX_ITERATIONS} iterations")
            for v in its:
                ev.bind(o.regions[0].blocks[0].arguments[0], v)
                visit(rest, active & (v < ub), key + (v,) if grid_stride(o) else key)
        elif mapped_forall(o) and all(
                workgroup_mapping(m) is not None for m in ir.ArrayAttr(o.attributes["mapping"])):
            visit(rest, active, key)
        else:
            raise IRError(o, f"'{o.name}' op: the output's write inside it; the tiles are read "
                             f"through scf.for, scf.if and workgroup scf.forall only")

    visit(_chain(w, as_operation(f)), np.ones(ev.threads, dtype=bool), ())
    return found


def _iterations(ev: Evaluator, loop, ids: tuple, grid: tuple,
                active: np.ndarray) -> tuple[range, np.ndarray]:
    """(the iterations of ``loop`` any of the threads ``active`` runs, per thread the upper
    bound: a thread runs those below its own).  The lower bound and the step are the same for every
    thread; the upper bound may not be (IREE's loops over the rows of a partial tile a
    thread writes)."""
    if grid_stride(loop):
        its = grid_stride_range(ev, loop, ids, grid)
        return its, np.full(ev.threads, its.stop, dtype=np.int64)
    lb, step = ev.uniform(loop.operands[0]), ev.uniform(loop.operands[2])
    ub = np.asarray(ev.value(loop.operands[1]), dtype=np.int64)
    if lb is None or not step or step < 0:
        raise IRError(loop, "'scf.for' op: around the output's write, a loop whose lower "
                            "bound or step is not the same for every thread (or whose step "
                            "is not positive)")
    top = int(ub[active].max()) if active.any() else lb     # inactive threads run none
    return range(lb, max(lb, top), step), ub


def _written(ev: Evaluator, w, active: np.ndarray, vec: _Vectors) -> np.ndarray:
    """The flat elements of the output the threads ``active`` write with ``w``."""
    at = WRITES[w.name]
    ref = w.operands[at]
    view = ev.view(ref)
    rank = ir.MemRefType(ref.type).rank
    if w.name == "memref.copy":       # every element of its target, of per-thread sizes
        sizes = _extent(ev, w, ref)
        pos = np.indices([max(0, int(x.max())) for x in sizes]).reshape(rank, -1)
        keep = np.all([pos[j][None, :] < sizes[j][:, None] for j in range(rank)], axis=0)
        return _flat(view.offset, view.strides, pos, keep, active)
    idx = [ev.value(x) for x in list(w.operands)[at + 1:at + 1 + rank]]
    if w.name == "memref.store":
        return view.element(idx)[active]
    if w.name == "vector.scatter":
        vec.next_pass()
        offsets = vec.value(w.operands[at + 1 + rank])
        mask = vec.value(w.operands[at + 2 + rank]) != 0
        base = view.element(idx)[:, None] + offsets * view.strides[-1]
        return base[mask & active[:, None]]
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
          active: np.ndarray) -> np.ndarray:
    """The flat elements at ``base`` (per thread) plus positions ``pos`` (per dimension,
    per element, times ``strides``) that ``keep`` (threads x elements) keeps and a thread
    of ``active`` writes."""
    offs = sum(pos[j] * strides[j] for j in range(len(pos)))
    flat = base[:, None] + np.asarray(offs)[None, :]
    return flat[keep & active[:, None]]


def _extent(ev: Evaluator, w, ref) -> list[np.ndarray]:
    """Per dimension of ``ref`` (the target of ``memref.copy`` ``w``), per thread: its
    size, static or given by the ``memref.subview`` that makes it."""
    t = ir.MemRefType(ref.type)
    if all(d != DYNAMIC for d in t.shape):
        return [np.full(ev.threads, d, dtype=np.int64) for d in t.shape]
    op = None if isinstance(ref.owner, ir.Block) else as_operation(ref.owner)
    static = dense_i64(op, "static_sizes") \
        if op is not None and op.name == "memref.subview" else []
    if len(static) != t.rank:
        raise IRError(w, f"'{w.name}' op: a copy into the output of a size known only at "
                         f"run time that no memref.subview of its rank gives; the tiles "
                         f"are read from writes whose extent the evaluation sees")
    dyn = iter(segments(op)[2])
    return [np.asarray(ev.value(next(dyn)), dtype=np.int64) if d == DYNAMIC else
            np.full(ev.threads, d, dtype=np.int64) for d in static]


class _Vectors:
    """Vector index values per thread: arrays of (threads, elements), row-major.

    One for all the workgroups and iterations of an evaluation: a value computed here is
    kept with the scalars it was computed from (the values ``ev`` gives: ids, induction
    variables, thread ids, and what is computed from them) and their arrays, and used
    again while ``ev`` gives each of them the same array: what does not depend on the
    workgroup (a scatter's per-thread column offsets, its constants) is computed once."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        # value -> (its scalars: ((value, array), ...), its array, the pass it was checked in)
        self.memo: dict = {}
        self.reads: list[dict] = []     # per value being computed, the scalars it read
        self.passes = 0     # one per write evaluated (ev's values fixed during one)

    def next_pass(self) -> None:
        """A new write or binding: every value kept is checked again when used."""
        self.passes += 1

    def value(self, v) -> np.ndarray:
        if isinstance(v.owner, ir.Block):
            if isinstance(v.type, ir.VectorType):
                raise IRError(as_operation(v.owner.owner), "a vector index passed through a "
                              "block argument: the output's tiles cannot be evaluated")
            return self._scalar(v)
        op = as_operation(v.owner)
        if not isinstance(v.type, ir.VectorType):
            try:
                return self._scalar(v)
            except Unevaluable:         # an element of a vector index: evaluated here
                pass
        kept = self.memo.get(v)
        if kept is not None and (kept[2] == self.passes or self._holds(kept[0])):
            if kept[2] != self.passes:
                self.memo[v] = (kept[0], kept[1], self.passes)
            if self.reads:
                self.reads[-1].update((s, (s, a)) for s, a in kept[0])
            return kept[1]
        self.reads.append({})
        try:
            out = self._eval(op, v)
        finally:
            read = self.reads.pop()
        self.memo[v] = (tuple(read.values()), out, self.passes)
        if self.reads:
            self.reads[-1].update(read)
        return out

    def _scalar(self, v) -> np.ndarray:
        a = self.ev.value(v)
        if self.reads:
            self.reads[-1][v] = (v, a)
        return a[:, None]

    def _holds(self, scalars: tuple) -> bool:
        """Whether ``ev`` gives each of ``scalars`` its array still."""
        for s, a in scalars:
            try:
                now = self.ev.value(s)
            except Unevaluable:
                return False
            if now is not a and not np.array_equal(now, a):
                return False
        return True

    def scalar(self, v) -> np.ndarray:
        return self.value(v)[:, 0]

    def _element(self, op, v) -> np.ndarray:
        """The element of a vector ``vector.extract`` (static position) or
        ``vector.to_elements`` gives."""
        src = op.operands[0]
        shape = list(ir.VectorType(src.type).shape)
        if op.name == "vector.to_elements":
            return self.value(src)[:, list(op.results).index(v)]
        pos = list(ir.DenseI64ArrayAttr(op.attributes["static_position"]))
        if len(op.operands) != 1 or any(p < 0 for p in pos) or len(pos) != len(shape):
            raise IRError(op, f"'{op.name}' op: an element of a vector index at a dynamic "
                              f"position: the output's tiles cannot be evaluated")
        return self.value(src)[:, int(np.ravel_multi_index(pos, shape)) if pos else 0]

    def _eval(self, op, v) -> np.ndarray:
        shape = list(ir.VectorType(v.type).shape) if isinstance(v.type, ir.VectorType) \
            else []
        n = int(np.prod(shape))
        name = op.name
        if name in ("vector.extract", "vector.to_elements"):
            return self._element(op, v)[:, None]
        if name == "arith.constant":
            vals = _dense_ints(op.attributes["value"])
            return np.broadcast_to(vals if vals.size == n else vals[:1], (self.ev.threads, n))
        if name == "vector.step":
            return np.broadcast_to(np.arange(n, dtype=np.int64), (self.ev.threads, n))
        if name == "vector.from_elements":
            return np.stack([self.scalar(x) for x in op.operands], axis=1)
        if name == "vector.broadcast":
            src = op.operands[0]
            sshape = list(ir.VectorType(src.type).shape) if isinstance(
                src.type, ir.VectorType) else []
            a = self.value(src).reshape([self.ev.threads] + sshape)
            a = a.reshape([self.ev.threads] + [1] * (len(shape) - len(sshape)) + sshape)
            return np.broadcast_to(a, [self.ev.threads] + shape).reshape(self.ev.threads, n)
        if name in ("vector.shape_cast",) + _SAME:
            return self.value(op.operands[0])
        if name in _CASTS:
            return cast_value(op, self.value(op.operands[0]))
        if name == "vector.transpose":
            src = op.operands[0]
            perm = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
            a = self.value(src).reshape([self.ev.threads] + list(ir.VectorType(src.type).shape))
            return a.transpose([0] + [p + 1 for p in perm]).reshape(self.ev.threads, n)
        if name == "arith.cmpi":
            a, b = (self.value(x) for x in op.operands)
            return compare_at(op, a, b)
        if name == "arith.select":
            c, a, b = (self.value(x) for x in op.operands)
            return np.where(c != 0, a, b)
        if name.startswith("arith.") and name[6:] in BINARY:
            a, b = (self.value(x) for x in op.operands)
            return np.broadcast_to(arith_binary(name[6:], a, b, op), (self.ev.threads, n))
        raise IRError(op, f"'{name}' op: a vector index the output's tiles are read through "
                          f"is computed by it, which the evaluation does not follow")


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
    ``at``) naming the grid and the first element no workgroup writes; also when the output
    is not one global buffer of a static shape (what the proof is made on)."""
    key = (str(as_operation(f)), tuple(grid), tuple(block))
    if key in _COVERED:         # the same kernel text proven before in this process
        return
    ids = walk_ops(f, lambda o: o.name in WORKGROUP_ID_OPS)
    where = ids[0] if ids else (at if at is not None else f)
    shape = _static_output(f)
    name = f"'{as_operation(where).name}' op"
    if shape is None:
        raise IRError(where, f"{name}: the kernel's grid {'x'.join(map(str, grid))} is proven "
                             f"to cover its output only when it writes one global buffer of "
                             f"a static shape")
    points = list(np.ndindex(*grid))
    mask = _grid_mask(f, shape, grid, points, block)
    if not mask.all():
        first = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(~mask)[0]), shape))
        raise IRError(where, f"{name}: the {len(points)} workgroups of the kernel's grid "
                             f"{'x'.join(map(str, grid))} (its workgroup ids' upper_bound, "
                             f"its workgroup loops) write no element {list(first)} of the "
                             f"{'x'.join(map(str, shape))} output; the kernel runs on more "
                             f"workgroups than the bound says, and a proof over the grid "
                             f"would leave them unchecked")
    if len(_COVERED) >= 64:
        _COVERED.clear()
    _COVERED.add(key)


#: the (kernel text, grid, block) :func:`check_grid_covers` proved, a few at a time
_COVERED: set = set()
#: the workgroups :func:`_grid_mask` evaluates side by side
_SIDE_BY_SIDE = 128


def _grid_mask(f, shape: tuple, grid: tuple, points: list, block: tuple) -> np.ndarray:
    """:func:`written_mask` of every workgroup of ``grid`` (``points``), evaluated
    :data:`_SIDE_BY_SIDE` workgroups at a time (one numpy lane per thread and workgroup)
    when no linearised workgroup loop is in the kernel (its tiles are per workgroup) and the
    loops around the writes start and step alike in all of them; else one at a time."""
    ids = [p if len(grid) > 1 else p[0] for p in points]
    if walk_ops(f, lambda o: o.name == "scf.for" and grid_stride(o)):
        return written_mask(f, shape, grid, ids, block)
    writes = output_writes(f, shape)
    size = int(np.prod(shape))
    grid3 = tuple(grid) + (1,) * (3 - len(grid))
    ops = launch_ops(f)
    mask = np.zeros(size, dtype=bool)
    at = np.array(points, dtype=np.int64).reshape(len(points), -1)
    for start in range(0, len(at), _SIDE_BY_SIDE):
        chunk = at[start:start + _SIDE_BY_SIDE]
        ev = SideBySide(block, len(chunk))
        wids = ev.lane_ids(chunk)
        vec = _Vectors(ev)
        try:
            _bind_launch(ev, ops, wids, grid3, ())
            for w in writes:
                for _key, flat in _elements(ev, f, w, wids, grid3, vec):
                    mask[flat[(flat >= 0) & (flat < size)]] = True
        except IRError:         # e.g. a loop bound that differs between workgroups
            return written_mask(f, shape, grid, ids, block)
    return mask.reshape(shape)


def _dense_ints(attr) -> np.ndarray:
    """The elements of a dense integer constant as int64, read signed: the bindings read an
    ``index`` element unsigned (``dense<-1> : vector<4xindex>`` as 2^64 - 1, which no int64
    holds), the others signed."""
    return np.array([signed(x, 64) for x in map(int, ir.DenseIntElementsAttr(attr))],
                    dtype=np.int64)
