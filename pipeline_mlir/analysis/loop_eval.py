"""Evaluate a kernel's index arithmetic for every thread of a workgroup (numpy).

The address analysis of the front end (``pipeline_mlir/frontend/natural.py``), the tag check
(``pipeline_mlir/frontend/tag_check.py``), the LDS access analysis of complete kernels
(``pipeline_mlir/analysis/lds_access.py``) and the check of ``sched-buffer-soffset``'s
rewrites (``pipeline_mlir/analysis/buffer_copies.py``) need, for every lane of every wave,
the element or byte each memory access touches: this is the one per-lane evaluator they
share.
:class:`Evaluator` computes an SSA value of integer or index type as a numpy ``int64`` array with one entry per thread (``threads`` of them; thread ``t`` is
wave ``t // 64``, lane ``t % 64``), following the value's definition chain through the
ops that compute indices:

* ``arith`` integer ops, ``index`` ops, ``affine.apply`` / ``min`` / ``max`` /
  ``delinearize_index`` / ``linearize_index``, casts, ``select``, ``cmpi``;
* the LLVM dialect's integer ops at their width, and a buffer pointer's byte offset
  (``rocdl.make.buffer.rsrc``, ``llvm.getelementptr``), as
  :mod:`pipeline_mlir.analysis.lane_ops` states;
* thread and block ids (``gpu.thread_id``, ``gpu.lane_id``, ``gpu.subgroup_id``,
  ``gpu.block_id``, ``rocdl.workitem.id.*``, ``rocdl.workgroup.id.*``,
  ``hal.interface.workgroup.id``, ``rocdl.mbcnt.*``), ``rocdl.readfirstlane``, and value hints
  (``iree_codegen.index_hint``, ``util.assume.int``) which pass their operand on.

Values the kernel only knows at launch time (function arguments, workgroup ids, the
induction variables of an ``scf.forall`` over workgroups, HAL push constants) get a
fixed sample value: the front end uses them only in global addresses, where it compares
differences.  An evaluator made with ``launch_values=False`` refuses function arguments,
push constants and grid sizes instead (the LDS access analysis,
:mod:`pipeline_mlir.analysis.lds_access`, whose addresses must not depend on them), but still
samples workgroup ids, whose sample value ``workgroup_id`` sets.  One made with
``thread_only=True`` computes only what is the same in every workgroup and launch: values
of thread ids and constants through the ops of
:data:`~pipeline_mlir.analysis.lane_ops.THREAD_OPS`; any other op or block argument is
:class:`Unevaluable` (the fragment reads' shared address bases,
:mod:`pipeline_mlir.frontend.read_bases`).  An ``scf.forall`` is read as a
loop over workgroups only when its mapping says so
(:func:`pipeline_mlir.dialect.attrs.workgroup_forall_problem`: each dimension its own
workgroup id, IREE's ``#iree_codegen.workgroup_mapping`` or upstream's ``#gpu.block``); the
induction variables of any other (unmapped, over threads, mixed) are :class:`Unevaluable`
at the forall unless bound.  A loop's induction
variable (or any block argument other than a function's) is bound with
:meth:`Evaluator.bind`.  Values and views are memoized, each with the values it was computed
from: a bind forgets only what reads the rebound value, directly or not (a loop's induction
variable rebound per iteration leaves the thread-id arithmetic memoized); so does
:meth:`Evaluator.set_workgroup`, which changes the workgroup ids' sample value.

The workgroups themselves: :func:`grid_stride` recognises IREE's linearised workgroup loop,
and :func:`workgroup_grid` gives the grid a kernel needs (what a dispatch is launched on,
and what the front end evaluates a static grid's row guards over).

:meth:`Evaluator.view` follows a memref through its view ops (``memref.subview``,
``expand_shape``, ``collapse_shape``, ``cast``, ``reinterpret_cast``,
``assume_alignment``, ``memory_space_cast``, ``amdgpu.fat_raw_buffer_cast``,
``iree_codegen.swizzle_hint``) to its root buffer and returns a :class:`View`: the
root, the per-thread element offset and the static strides.

Whatever it cannot evaluate is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the
op, saying what is missing (an unknown op, a block argument it does not sample, a refused
launch-time value: :class:`Unevaluable`, which also names the value).

The per-op rules live in :mod:`pipeline_mlir.analysis.lane_ops`, the view ops in
:mod:`pipeline_mlir.analysis.views`, the attribute and type readers in
:mod:`pipeline_mlir.analysis.ir_facts`; the names the front end imports from here (``View``,
``dense_i64``, ``memory_space``, ``segments``, ``xor_shuffle``,
``is_opaque_identity``, ...) are re-exported.

Size: one concern, the evaluator: its memo and the exact forgetting of it (at a binding, a
workgroup sample, every IR change it is told of) and what it keeps of the IR are one class,
with the workgroup grid it is evaluated over beside it (about 700 lines).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, WORKGROUP_ID_OPS, attr_names,
                                             constant_int, dense_i64, element_bytes, int_attr,
                                             is_opaque_identity, mapped_forall, memory_space,
                                             parse_xor_shuffle, segment_sizes, segments,
                                             workgroup_id_bound, xor_shuffle)
from pipeline_mlir.analysis.lane_ops import (BINARY, HANDLERS, SAMPLE_ARG,
                                             SAMPLE_WORKGROUP, THREAD_OPS, Unevaluable,
                                             arith_binary, id_dimension)
from pipeline_mlir.analysis.views import VIEW_OPS, View, follow_view
from pipeline_mlir.dialect.attrs import workgroup_forall_problem, workgroup_mapping
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import forget_on_change, told_together
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.target.gfx950 import WAVE_SIZE

__all__ = ["Evaluator", "Unevaluable", "View", "SAMPLE_ARG", "SAMPLE_WORKGROUP",
           "DYNAMIC", "attr_names", "int_attr", "dense_i64", "segment_sizes", "segments",
           "memory_space", "element_bytes", "xor_shuffle", "parse_xor_shuffle",
           "is_opaque_identity"]


class Evaluator:
    """Per-thread evaluation of index values (see the module docstring).

    ``workgroup_id``: the sample value of every workgroup id (and of a workgroup loop's
    induction variables); ``launch_values``: whether function arguments, push constants
    and grid sizes take the sample value :data:`SAMPLE_ARG` (False: they are
    :class:`Unevaluable`); ``thread_only``: only thread ids and constants, through
    :data:`~pipeline_mlir.analysis.lane_ops.THREAD_OPS` (nothing sampled)."""

    def __init__(self, block_size: tuple[int, int, int], *,
                 workgroup_id: int = SAMPLE_WORKGROUP, launch_values: bool = True,
                 thread_only: bool = False) -> None:
        self.block_size = tuple(block_size)
        self.threads = int(math.prod(self.block_size))
        self.tid = np.arange(self.threads, dtype=np.int64)
        self.workgroup_id = workgroup_id
        self.launch_values = launch_values and not thread_only
        self.thread_only = thread_only
        self.bound: dict = {}
        self.memo: dict = {}
        self.views: dict = {}
        #: :meth:`fact` key -> the fact, memoized like the values it reads
        self.facts: dict = {}
        #: op (any part of a fact's key but its name) -> the keys of the facts that name it
        self._named: dict = {}
        #: value (or :meth:`view` key) -> the memoized values and views computed from it
        self._users: dict = {}
        #: per evaluation in progress, the values and views it has read so far
        self._reads: list[set] = []
        #: what callers read off the IR alone (no value: what no binding changes), by their
        #: own keys, forgotten at every change of the IR (:meth:`_source_changed`)
        self.structure: dict = {}
        #: value -> how it is computed, read off the IR once (:meth:`_plan`), forgotten with
        #: :attr:`structure` (within :func:`shared_plans`, the scope's, for every evaluator)
        self._plans: dict = _SHARED[-1][0] if _SHARED else {}
        #: an affine map attribute -> its expression trees
        #: (:func:`~pipeline_mlir.analysis.ir_facts.map_trees`): never stale, an attribute
        #: is immutable and its key holds it, and its context, alive
        self.maps: dict = _SHARED[-1][1] if _SHARED else {}
        #: the op errors are reported at when the value itself has no op (e.g. the loop)
        self.where = None
        forget_on_change(self)      # (every op erased, every use rewired while it lives)

    def read_ir_as(self, source: "Evaluator") -> None:
        """Take ``source``'s facts read off the IR (:attr:`structure`, the plans,
        :attr:`maps`) as this evaluator's: one IR, what it says is the source's (a
        :class:`Repeated` or ``tiled_eval.Tiled`` of it)."""
        self.structure, self._plans, self.maps = source.structure, source._plans, source.maps

    # ---- values -------------------------------------------------------------------------
    def const(self, v: int) -> np.ndarray:
        out = np.empty(self.threads, dtype=np.int64)    # (``np.full`` costs twice that)
        out.fill(int(v))
        return out

    def bind(self, value, array) -> None:
        """Give ``value`` (e.g. a loop induction variable) a fixed per-thread value and
        forget everything computed from it (what does not read it stays memoized)."""
        if type(array) is int:      # (the common case, without numpy's broadcast)
            self.bound[value] = self.const(array)
        else:
            self.bound[value] = np.broadcast_to(np.asarray(array, dtype=np.int64),
                                                (self.threads,)).copy()
        self._forget(value)

    def sampled_workgroup(self) -> np.ndarray:
        """The sample value every workgroup id takes, noted as read by the evaluation in
        progress (so :meth:`set_workgroup` forgets what was computed from it)."""
        self._read(WORKGROUP_KEY)
        return self.const(self.workgroup_id)

    def set_workgroup(self, workgroup_id: int) -> None:
        """Give every workgroup id the sample value ``workgroup_id`` and forget everything
        computed from the old one (what does not read a workgroup id stays memoized)."""
        if workgroup_id != self.workgroup_id:
            self.workgroup_id = workgroup_id
            self._forget(WORKGROUP_KEY)

    def unbind(self, value) -> None:
        """Forget the value :meth:`bind` gave ``value`` and everything computed from it."""
        self.bound.pop(value, None)
        self._forget(value)

    def _forget(self, key) -> None:
        """Drop the memoized values, views and facts computed, directly or not, from
        ``key`` (a fact dropped leaves the index of the ops that name it too)."""
        todo = [key]
        while todo:
            for user in self._users.pop(todo.pop(), ()):
                if self.memo.pop(user, None) is not None or \
                        self.views.pop(user, None) is not None:
                    todo.append(user)
                elif self.facts.pop(user, _NONE) is not _NONE:
                    self._unname(user)
                    todo.append(user)

    def _unname(self, key) -> None:
        """Drop fact ``key`` from the index of the ops that name it (:meth:`fact`)."""
        for part in key:
            if not isinstance(part, str) and part in self._named:
                self._named[part].discard(key)

    def forget_ops(self, ops) -> None:
        """Forget the values, views and bindings of the results of ``ops`` and of the ops
        and block arguments nested in them, and everything computed from them, and the
        :meth:`fact` verdicts named by one of those ops: called before they are erased, by
        every ``erase`` (:func:`~pipeline_mlir.dialect.ir_changes.forget_on_change`).  A value
        is memoized under its handle, which compares by the op's address; an op created
        after the erasure may take that address, and would read the erased op's value."""
        self._source_changed()
        if not (self.memo or self.views or self.bound or self.facts):
            return
        shared = told_together()        # (read once for every evaluator told of it)
        nested = None if shared is None else shared.get("forget_ops")
        if nested is None:
            nested = _nested_values(ops)
            if shared is not None:
                shared["forget_ops"] = nested
        for o, values in nested:
            self._forget_op(o, unbind=True, values=values)

    def forget_attributes(self, op) -> None:
        """:meth:`forget_ops` of ``op`` alone, its bindings kept: called before an attribute
        of ``op`` changes in place (``ir_changes.set_attribute``)."""
        self._source_changed()
        if self.memo or self.views or self.bound or self.facts:     # (as forget_ops)
            self._forget_op(op, unbind=False)

    def forget_all(self, _=None) -> None:
        """Forget everything, bindings too: called before a pass manager runs, whose C++
        rewrites erase and create ops unseen (``ir_changes.forget_on_change``)."""
        self._source_changed()
        for table in (self.bound, self.memo, self.views, self.facts, self._named,
                      self._users):
            table.clear()

    def _forget_op(self, o, unbind: bool, values: list | None = None) -> None:
        """:meth:`forget_ops` of ``o`` alone (its results, its blocks' arguments:
        ``values``, :func:`_op_values`, if read already)."""
        if self._named:
            for key in self._named.pop(o, ()):
                self.facts.pop(key, None)
                self._unname(key)
                self._forget(key)
        memo, views, users = self.memo, self.views, self._users
        for v in _op_values(o) if values is None else values:
            if unbind:
                self.bound.pop(v, None)
            for key in (v, _view_key(v)):
                memo.pop(key, None)
                views.pop(key, None)
                if key in users:        # (nothing computed from it: nothing to forget)
                    self._forget(key)

    def _source_changed(self) -> None:
        """The IR changed (what a :class:`Repeated` takes from its source is stale, and
        what :attr:`structure` holds)."""
        if self.structure:
            self.structure.clear()
        if self._plans:
            self._plans.clear()

    def forget_uses(self, v) -> None:
        """Forget everything computed from ``v`` (value or memref): called before its uses
        are given another value (:func:`~pipeline_mlir.dialect.ir_changes.forget_on_change`),
        which the ops that used it then compute from."""
        self._source_changed()
        users = self._users
        if users:
            for key in (v, _view_key(v)):
                if key in users:
                    self._forget(key)

    def dependents(self, key) -> set:
        """The memoized values and :meth:`view` keys computed, directly or not, from
        ``key`` (a value, e.g. a loop's induction variable)."""
        out, todo = set(), [key]
        while todo:
            for user in self._users.get(todo.pop(), ()):
                if user not in out:
                    out.add(user)
                    todo.append(user)
        return out

    def computed_from(self, v, key) -> bool:
        """Whether the memoized value or memref ``v`` (its :meth:`view`) was computed,
        directly or not, from ``key``: evaluate ``v`` first."""
        return (_view_key(v) if isinstance(v.type, ir.MemRefType) else v) in \
            self.dependents(key)

    def from_workgroup(self, v) -> bool:
        """Whether the memoized value or memref ``v`` was computed, directly or not, from a
        workgroup id or a workgroup loop's variable (:meth:`sampled_workgroup`): evaluate
        ``v`` first.  Exact, not sampled: the value may still be the same everywhere."""
        return self.computed_from(v, WORKGROUP_KEY)

    def _read(self, key) -> None:
        """Note that the evaluation in progress reads ``key``."""
        if self._reads:
            self._reads[-1].add(key)

    def _computed(self, reads: set, keys) -> None:
        """Note that ``keys`` (just memoized) were computed from ``reads``."""
        for r in reads:
            self._users.setdefault(r, set()).update(keys)

    def value(self, v) -> np.ndarray:
        """``v``'s value for every thread; a chain of ops too deep to follow is an
        :class:`~pipeline_mlir.dialect.ir_io.IRError` at ``v``'s op (caught here, at the
        evaluation's entry)."""
        if self._reads:
            return self._value(v)
        try:
            return self._value(v)
        except RecursionError:
            owner = v.owner
            op = _op(owner.owner) if isinstance(owner, ir.Block) else _op(owner)
            raise IRError(op, f"'{op.name}' op: its value is computed by a chain of ops too "
                              f"deep to evaluate") from None

    def _value(self, v) -> np.ndarray:
        if self._reads:                     # (:meth:`_read`, inline: the hot path)
            self._reads[-1].add(v)
        got = self.bound.get(v)
        if got is None:
            got = self.memo.get(v)
        if got is not None:
            return got
        plan = self._plans.get(v)
        if plan is None:
            plan = self._plans[v] = _plan(v)
        op, results, at = plan[0], plan[1], plan[2]
        reads: set = set()
        self._reads.append(reads)
        try:
            vals = [self._block_argument(v, plan[3])] if op is None else self._eval(op, v)
        finally:
            self._reads.pop()
        memo = self.memo
        for r, a in zip(results, vals):
            memo[r] = a
        self._computed(reads, results)
        return vals[at]

    def fact(self, key, compute):
        """``compute()``, a fact of the values it reads through this evaluator that holds
        of all the lanes together (whether any lane, or every lane, has a property: the
        same of the lanes repeated, :class:`Repeated`), memoized under ``key`` (a tuple
        that names what it is of) until a :meth:`bind` or :meth:`set_workgroup` changes
        a value it read, as a value is."""
        for part in key:
            if not isinstance(part, str):
                self._named.setdefault(part, set()).add(key)
        return self._memoized(self.facts, key, compute)

    def _memoized(self, table: dict, key, compute):
        """``table[key]``, else ``compute()`` memoized there with what it read (a view, a
        fact), noted as read by the evaluation in progress."""
        self._read(key)
        if key in table:
            return table[key]
        reads: set = set()
        self._reads.append(reads)
        try:
            out = compute()
        finally:
            self._reads.pop()
        table[key] = out
        self._computed(reads, (key,))
        return out

    def uniform(self, v) -> int | None:
        """The value if it is the same for every thread, else None."""
        a = self.value(v)
        return int(a[0]) if np.all(a == a[0]) else None

    def _block_argument(self, v, block) -> np.ndarray:
        parent = block.owner
        parent = _op(parent) if parent is not None else None
        name = parent.name if parent is not None else ""
        if self.thread_only:
            raise Unevaluable(parent if parent is not None else self.where, v,
                              f"'{name}' op: block argument #{v.arg_number}, not a thread id "
                              f"or a constant")
        if name == "scf.forall":
            problem = workgroup_forall_problem(parent)
            if problem is not None:
                raise Unevaluable(parent, v, f"'scf.forall' op {problem}; the address "
                                             f"analysis reads the induction variables of a "
                                             f"loop over workgroups only, as workgroup ids")
            return self.sampled_workgroup()
        if name == "scf.for" and grid_stride(parent):
            return self.sampled_workgroup()
        if name in ("func.func", "gpu.func", "llvm.func") and self.launch_values \
                and block == parent.regions[0].blocks[0]:
            return self.const(SAMPLE_ARG)
        where = parent if parent is not None else self.where
        raise Unevaluable(where, v, f"'{name}' op: the address analysis cannot evaluate block "
                                    f"argument #{v.arg_number} here (only function arguments, "
                                    f"workgroup-loop and pipelined-loop induction variables)")

    def _thread_dim(self, dim: str) -> np.ndarray:
        bx, by, _bz = self.block_size
        if dim == "x":
            return self.tid % bx
        if dim == "y":
            return (self.tid // bx) % by
        return self.tid // (bx * by)

    def _eval(self, op, v) -> list[np.ndarray]:
        name = op.name
        if self.thread_only and (not name.startswith(THREAD_OPS) or len(op.regions)):
            raise Unevaluable(op, v, f"'{name}' op: not computed from thread ids and "
                                     f"constants alone")
        handler = HANDLERS.get(name)
        if handler is None:
            if name.startswith("arith.") and name[6:] in BINARY:
                plan = self._plans.get(v)
                if plan is None or plan[0] is not op:
                    plan = _plan(v)
                x, y = plan[3]
                a = self.value(x)
                return [arith_binary(name[6:], a, self.value(y), op, plan[1][0])]
            raise Unevaluable(op, v, f"'{name}' op: the address analysis cannot evaluate it "
                                     f"(it follows arith, index and affine integer ops, casts, "
                                     f"thread and block ids)")
        return handler(self, op)

    # ---- memrefs ------------------------------------------------------------------------
    def view(self, v) -> View:
        """The :class:`View` of memref ``v`` (:func:`~pipeline_mlir.analysis.views.
        follow_view`), memoized until a :meth:`bind` of a value it reads. The sources of a
        chain of views are followed first, deepest first, each one level down to its
        memoized source: a chain of any depth takes no recursion."""
        key = _view_key(v)
        self._read(key)
        if key in self.views:
            return self.views[key]
        sources = []
        u = v
        while not isinstance(u.owner, ir.Block) and _op(u.owner).name in VIEW_OPS:
            u = _op(u.owner).operands[0]
            if _view_key(u) in self.views:
                break
            sources.append(u)
        for u in reversed(sources):
            self._view(u)
        return self._view(v)

    def _view(self, v) -> View:
        return self._memoized(self.views, _view_key(v), lambda: follow_view(self, v))


def _op_values(o) -> list:
    """The values ``o`` defines: its results and its blocks' arguments."""
    values = list(o.results)
    if len(o.regions):
        values += [a for r in o.regions for b in r.blocks for a in b.arguments]
    return values


def _nested_values(ops) -> list:
    """``(op, its values)`` of each of ``ops`` and of every op nested in them, in walk order
    (:meth:`Evaluator.forget_ops`)."""
    return [(o, _op_values(o)) for top in map(_op, ops)    # (no regions, the common case:
            for o in (walk_ops(top, lambda _o: True) if len(top.regions) else (top,))]  # no walk)


#: the key of the workgroup ids' sample value among what an evaluation reads
WORKGROUP_KEY = ("workgroup id",)


class _Plans(dict):
    """The plans (:func:`_plan`) the evaluators of a :func:`shared_plans` scope share,
    forgotten at every change of the IR as each evaluator's own are (told itself: no
    evaluator may be alive at a change)."""

    def forget_ops(self, _ops) -> None:
        self.clear()

    forget_uses = forget_attributes = forget_all = forget_ops


#: the (plans, affine maps' trees) of the :func:`shared_plans` scopes entered
_SHARED: list[tuple[dict, dict]] = []


@contextmanager
def shared_plans():
    """Within it, the evaluators made share how each value is computed (:func:`_plan`, read
    off the IR, forgotten at every change of it) and the affine maps' trees: the front end
    makes evaluators of one kernel by the hundred per build, each reading the same ops."""
    plans = _Plans()
    forget_on_change(plans)
    _SHARED.append((plans, {}))
    try:
        yield
    finally:
        _SHARED.pop()
#: no fact memoized (a fact may be None or False)
_NONE = object()


def _plan(v) -> tuple:
    """How value ``v`` is computed, read off the IR (which only an IR change changes: the
    evaluator keeps it until then, :meth:`Evaluator._source_changed`): (its op, its op's
    results, ``v``'s place among them, an ``arith`` binary op's operands, else None), or
    for a block argument (None, ``(v,)``, 0, its block)."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None, (v,), 0, owner
    op = _op(owner)
    results, name = tuple(op.results), op.name
    binary = name.startswith("arith.") and name[6:] in BINARY
    return op, results, results.index(v), tuple(op.operands) if binary else None


def tiled(a: np.ndarray, times: int) -> np.ndarray:
    """``np.tile(a, times)``; of a 1-D ``a`` by ``np.concatenate`` (a third of the cost)."""
    return np.concatenate((a,) * times) if a.ndim == 1 and times > 0 else np.tile(a, times)


def _view_key(v) -> tuple:
    """The key of memref ``v``'s :class:`View` among an evaluator's memoized values."""
    return ("view", v)


def grid_stride(loop) -> bool:
    """``loop`` (an ``scf.for``) runs over workgroups: from the workgroup's id in steps of
    the workgroup count (IREE's linearised workgroup loop)."""
    names = [None if isinstance(v.owner, ir.Block) else _op(v.owner).name
             for v in (loop.operands[0], loop.operands[2])]
    return names == ["hal.interface.workgroup.id", "hal.interface.workgroup.count"]


def grid_stride_range(ev: Evaluator, loop, ids: tuple, grid: tuple) -> range:
    """The iterations of IREE's linearised workgroup loop ``loop`` (:func:`grid_stride`)
    in the workgroup of coordinates ``ids`` of ``grid``: its id, id + count, ... below its
    bound, as ``ev`` evaluates the bound (:class:`Unevaluable` when ``ev`` cannot: a bound
    known only at launch in an evaluator that refuses those)."""
    d = id_dimension(_op(loop.operands[0].owner))
    ub = ev.uniform(loop.operands[1])
    if ub is None:
        raise Unevaluable(loop, loop.operands[1], "'scf.for' op: the workgroup loop's bound "
                                                  "differs between threads")
    return range(ids[d], ub, grid[d])


def _at_launch_bounds(forall, values, static: tuple) -> tuple:
    """The bounds of ``forall`` (lower, upper, step lists), a dynamic one given by
    ``values`` (its operand's value at the launch)."""
    groups = segments(forall)[:3]
    out = []
    for bounds, dynamic in zip(static, groups):
        given = iter(values(list(dynamic)))
        out.append([next(given) if b == DYNAMIC else b for b in bounds])
    return tuple(out)


#: the ops :func:`workgroup_grid` reads: workgroup foralls, workgroup loops, workgroup ids
GRID_OPS = frozenset(("scf.forall", "scf.for") + WORKGROUP_ID_OPS)


def workgroup_grid(f, values=None, ops: list | None = None) -> tuple[int, ...] | None:
    """Workgroups along x (, y, z) the kernel ``f`` needs (an ``scf.forall`` over workgroups,
    IREE's linearised workgroup loop, the bound of each workgroup id it reads
    (:func:`~pipeline_mlir.analysis.ir_facts.workgroup_id_bound`), a
    ``gpu.func``'s ``known_grid_size``), or None when a workgroup id it reads has no bound;
    ``values``: what gives the bounds known only at launch (a function of a list of
    values), without which such a bound has none.  What a dispatch is launched on
    (:mod:`~pipeline_mlir.frontend.dispatch`) and a static grid's rows are evaluated over
    (:mod:`~pipeline_mlir.frontend.masked_rows_k_late`).  A bound is a promise of the
    kernel, not a fact: a proof over the grid holds only once
    :func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers` proves it covers C.
    ``ops``: ``f``'s ops of :data:`GRID_OPS` (or more), in walk order, if found already."""
    bounds: dict[int, int | None] = {}
    def over_workgroups(o) -> bool:
        return mapped_forall(o) and any(
            workgroup_mapping(m) is not None for m in ir.ArrayAttr(o.attributes["mapping"]))

    # one walk for the three kinds of op: each kind in walk order, taken in turn below
    ops = walk_ops(f, lambda o: o.name in GRID_OPS) if ops is None else \
        [o for o in ops if o.name in GRID_OPS]
    for o in (o for o in ops if o.name == "scf.forall" and over_workgroups(o)):
        lbs, ubs, steps = (list(ir.DenseI64ArrayAttr(o.attributes[a])) for a in
                           ("staticLowerBound", "staticUpperBound", "staticStep"))
        if values is not None:
            lbs, ubs, steps = _at_launch_bounds(o, values, (lbs, ubs, steps))
        for m, lb, ub, step in zip(ir.ArrayAttr(o.attributes["mapping"]), lbs, ubs, steps):
            d = workgroup_mapping(m)
            if d is None or min(lb, ub) < 0 or step <= 0:  # dynamic (or no grid)
                return None
            bounds[d] = -(-(ub - lb) // step)   # VectorDistribute: offsets, not indices
    for o in (o for o in ops if o.name == "scf.for" and grid_stride(o)):
        # IREE's linearised workgroup loop: one workgroup per iteration (its trip count)
        d, ub = id_dimension(_op(o.operands[0].owner)), constant_int(o.operands[1])
        if ub is None and values is not None:
            ub = values([o.operands[1]])[0]
        bounds[d] = None if ub is None or ub < 0 else max(int(ub), 1)
    for o in (o for o in ops if o.name in WORKGROUP_ID_OPS):
        d = id_dimension(o)
        ub = workgroup_id_bound(o)
        if d not in bounds or bounds[d] is None:
            bounds[d] = ub
        elif ub is not None:
            bounds[d] = min(bounds[d], ub)
    if "known_grid_size" in f.attributes:
        for d, n in enumerate(ir.DenseI32ArrayAttr(f.attributes["known_grid_size"])):
            bounds[d] = n
    if any(v is None for v in bounds.values()):
        return None
    if not bounds:
        return (1,)
    return tuple(bounds.get(d, 1) for d in range(max(bounds) + 1))


def grid_points(grid: tuple) -> np.ndarray:
    """Every workgroup of ``grid`` (:func:`workgroup_grid`), one row of ids per workgroup,
    the first id slowest (``np.ndindex``'s order)."""
    return np.indices(grid, dtype=np.int64).reshape(len(grid), -1).T.copy()


class SideBySide(Evaluator):
    """An :class:`Evaluator` of one numpy lane per thread of each of ``count`` workgroups
    (workgroup-major): the thread ids repeat per workgroup, and a wave's first lane
    (``rocdl.readfirstlane``) is found by position.  :meth:`lane_ids` spreads the
    workgroups' ids over the lanes."""

    def __init__(self, block_size: tuple[int, int, int], count: int, **kwargs) -> None:
        super().__init__(block_size, **kwargs)
        #: threads of one workgroup
        self.per_workgroup = t = self.threads
        self.tid = np.tile(self.tid, count)
        self.threads = self.tid.size
        #: each lane's wave's first lane, by position
        self.first = (np.arange(self.threads) // t) * t + (self.tid // WAVE_SIZE) * WAVE_SIZE

    def lane_ids(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each lane's workgroup id in x, y and z, of the ``count`` workgroups ``points``
        (one row per workgroup, its ids; the missing dimensions 0)."""
        t = self.per_workgroup
        return tuple(np.repeat(points[:, d], t) if d < points.shape[1] else
                     np.zeros(self.threads, dtype=np.int64) for d in range(3))

    def _eval(self, op, v):
        if op.name == "rocdl.readfirstlane":
            return [self.value(op.operands[0])[self.first]]
        return super()._eval(op, v)


class Repeated(SideBySide):
    """The lanes of a :class:`SideBySide` (or one workgroup's :class:`Evaluator`) ``source``
    repeated ``times`` (copy ``c``'s lane ``i`` at ``c x source.threads + i``), for one
    value ``varying`` (a loop's induction variable) to take a value per copy: what
    ``source`` holds that is not computed, directly or not, from ``varying`` is this
    evaluator's too, tiled when first read (so the part of an evaluation that does not
    read ``varying`` runs once, in ``source``, for every copy).  Only ``varying`` may be
    bound here; ``source`` must not change while this evaluator is in use."""

    def __init__(self, source: Evaluator, times: int, varying) -> None:
        per_workgroup = int(math.prod(source.block_size))
        super().__init__(source.block_size, times * (source.threads // per_workgroup),
                         workgroup_id=source.workgroup_id,
                         launch_values=source.launch_values, thread_only=source.thread_only)
        self.times = times
        self.varying = varying
        self.where = source.where
        moved = source.dependents(varying)
        #: the source's memoized values that do not read ``varying``
        self._fixed = {k: a for k, a in source.memo.items() if k not in moved}
        #: and its facts (of all lanes together: the same of the lanes repeated)
        self._fixed_facts = {k: f for k, f in source.facts.items() if k not in moved}
        self.bound = {k: np.tile(a, times) for k, a in source.bound.items() if k != varying}
        self.read_ir_as(source)

    def bind(self, value, array) -> None:
        if value != self.varying:
            raise ValueError("a repeated evaluator binds only its varying value")
        super().bind(value, array)

    def fact(self, key, compute):
        if key not in self.facts and key in self._fixed_facts:
            self._read(key)
            self.facts[key] = self._fixed_facts[key]
        return super().fact(key, compute)

    def _source_changed(self) -> None:
        super()._source_changed()
        self._fixed.clear()             # (the source's values this one tiles when read)
        self._fixed_facts.clear()

    def _value(self, v) -> np.ndarray:
        if v not in self.memo and v in self._fixed:
            self._read(v)
            self.memo[v] = tiled(self._fixed[v], self.times)
        return super()._value(v)
