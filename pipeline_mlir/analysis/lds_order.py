"""The instruction stream of a kernel's LDS traffic, read from the IR as it is issued.

A helper of the staged-form check (``sched-stage-copies`` and ``sched-verify``): each
function's ops, in program order, become the events of :mod:`pipeline_mlir.sim.lds_events`,
whose model then finds the RAW and WAR hazards:

* ``amdgpu.gather_to_lds``: a copy into the LDS buffer it writes;
* a ``vector.load`` / ``vector.transfer_read`` / ``memref.load`` / ``amdgpu.transpose_load``
  of workgroup memory: a read; of other memory: a global load (registers);
* a ``vector.store`` / ``vector.transfer_write`` / ``memref.store`` into workgroup memory: an
  LDS store (of registers a global load filled, for a staged copy); into other memory, a
  global store (counted on ``vmcnt`` like a load);
* ``rocdl.s.waitcnt`` and ``amdgpu.memory_counter_wait``: a wait (its ``vmcnt`` and
  ``lgkmcnt``, :func:`pipeline_mlir.analysis.barriers.wait_counts`, a counter at its maximum
  not waited); ``rocdl.s.barrier``: a barrier; ``gpu.barrier`` and ``amdgpu.lds_barrier``: a
  wait for every LDS write and read of the wave, direct-to-LDS copies included (their
  workgroup fence; ``vmcnt(0)`` and ``lgkmcnt(0)``: the rule
  :func:`~pipeline_mlir.analysis.barriers.orders` applies, by which such a barrier orders
  every LDS access, and LLVM's lowering of the fence, which waits for the LDS DMA in
  flight), then a barrier (a
  ``gpu.barrier`` whose ``memfence`` leaves out workgroup memory: the barrier alone,
  :mod:`pipeline_mlir.analysis.barriers`);
* any other op that uses values derived from loaded or read registers (an MFMA, a store of
  them): waits for those loads first (LLVM's register dependency).

An LDS buffer is the ``memref.alloc`` (or the argument) its memref views, through subviews
and casts.  An ``scf.for`` with constant bounds runs ``min(trips, UNROLL)`` iterations (its
``iter_args`` carry the registers, so a load issued an iteration ahead feeds the next
iteration's store); a loop of unknown bounds runs :data:`UNROLL`.  Another op with regions
that holds memory ops is not modelled (:func:`lds_events` returns why instead), but an
``scf.if`` whose condition folds to a constant (the kernels' zero-trip fence) runs its
taken branch, and the body of an ``scf.forall`` over workgroups runs once (IREE's or
upstream's mapping, :func:`pipeline_mlir.dialect.attrs.workgroup_forall_problem`; another
forall that holds memory ops is not modelled).

An ``scf.if`` holding memory ops whose condition does not fold (a K tail, a workgroup at the
edge of C) is modelled when the condition is the same for every wave of the workgroup
(:func:`pipeline_mlir.analysis.wg_uniform.is_uniform`, the front end's rule too): built
from constants, the function's arguments, workgroup ids, HAL constants and the induction
variables of loops with such bounds by ops the rule knows compute their results from their
operands alone, not from a thread, lane or wave id, a loaded value, a loop-carried one or
an op the rule does not know.  Every wave then takes the same branch, and :func:`lds_paths` gives one
stream per combination of branches the unrolled function can take (each time an ``scf.if``
is met, in order; at most :data:`MAX_PATHS` streams), each checked on its own.  A
condition that may differ between the waves is not modelled.
"""

from __future__ import annotations

import re

from pipeline_mlir.analysis.barriers import BARRIERS, WAIT_OPS, fences_lds, wait_counts
from pipeline_mlir.analysis.ir_facts import (descendants, memory_space, segments,
                                             workgroup_waves)
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.analysis.wg_uniform import FUNCS, READS, is_uniform
from pipeline_mlir.dialect.attrs import workgroup_forall_problem
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.isa.waitcnt import LGKMCNT_MAX, VMCNT_MAX
from pipeline_mlir.sim import lds_events as L

#: iterations of a loop the stream unrolls (enough for the steady state and its edges)
UNROLL = 3
#: streams (combinations of the branches of unfolded ``scf.if`` ops) a function may have
MAX_PATHS = 64
VIEWS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
         "memref.reinterpret_cast", "memref.assume_alignment", "memref.view",
         "amdgpu.fat_raw_buffer_cast", "memref.memory_space_cast")
WRITES = ("vector.store", "vector.transfer_write", "memref.store")


class _BufferNames:
    """The names of a function's LDS buffers (the ``memref.alloc`` or argument a memref
    views, through :data:`VIEWS`), each named once and kept: every name is taken in the
    one naming state of the module (numbering a module's values is what naming one costs;
    the state is the one ``Value.get_name()`` makes, for the module around the first buffer
    named, which does not change while a function's streams are walked)."""

    def __init__(self) -> None:
        self.state = None    # the module's ``ir.AsmState``, made when first needed
        self.names: dict = {}   # buffer -> its name

    def __call__(self, v) -> str:
        """The name of the LDS buffer memref ``v`` views."""
        v = view_root(v, VIEWS)
        got = self.names.get(v)
        if got is None:
            if hasattr(v, "get_name"):
                if self.state is None:
                    self.state = ir.AsmState(v)
                got = v.get_name(self.state)
            else:
                got = str(v)
            self.names[v] = got
        return got


def _where(op) -> str:
    at = re.search(r":(\d+):(\d+)", str(op.location))
    return f"'{op_name(op)}' op" + (f" at line {at.group(1)}:{at.group(2)}" if at else "")


_ARITH = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
          "arith.muli": lambda a, b: a * b}
#: arith.cmpi predicates (their enum values) on folded integers
_CMP = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
        3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
        6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b,
        9: lambda a, b: a >= b}


def _const(v, depth: int = 16) -> int | None:
    """The value of integer ``v`` if constants and ``+ - *``, casts and compares of them give
    it (the non-negative values the kernels' bounds and fences hold)."""
    if isinstance(v, ir.BlockArgument) or depth == 0:
        return None
    o = as_operation(v.owner)
    if o.name == "arith.constant":
        a = o.attributes["value"]
        return a.value if isinstance(a, ir.IntegerAttr) else None
    args = [_const(x, depth - 1) for x in o.operands]
    if None in args:
        return None
    if o.name in _ARITH:
        return _ARITH[o.name](*args)
    if o.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return args[0]
    if o.name == "arith.cmpi":
        return int(_CMP[ir.IntegerAttr(o.attributes["predicate"]).value](*args))
    return None


#: what meeting an op without regions does (:meth:`_Stream._plain`; a wait or a barrier:
#: its events)
_MEMORY, _USE, _CARRY, _NOTHING = "memory", "use", "carry", "nothing"


class _Op:
    """What a stream reads of one op of a block each time it meets it: the op, its name,
    its operands' and results' numbers (:meth:`_Facts.value`), its region count, and, once
    asked, its memory access (:meth:`_Stream._access`) and its location worded."""

    __slots__ = ("op", "name", "operands", "results", "regions", "access", "where", "plain")
    UNSET = object()

    def __init__(self, op, facts: "_Facts") -> None:
        self.op = op
        self.name, self.operands, self.results, self.regions = facts.of(op)
        self.access = _Op.UNSET
        self.where = None
        #: for an op without regions, what every meeting does, found at the first
        #: (:meth:`_Stream._plain`)
        self.plain = None


class _Facts:
    """What a function's streams read of each op and block again and again, looked up
    once (the IR does not change while they are walked): a block's ops (each an
    :class:`_Op`), an op's name, operands, results and region count, its location worded
    (:func:`_where`), its memory access (:meth:`_Stream._access`), whether an ``scf.if``
    folds, is opaque or uniform, and a loop's trip count and yield.  Each value is known by
    a number (:meth:`value`), so that the streams' register taint is keyed by integers,
    not by the IR's values (whose hashing and comparing go through the bindings)."""

    def __init__(self) -> None:
        self.blocks: dict = {}
        self.ops: dict = {}
        self.values: dict = {}
        self.wheres: dict = {}
        self.ifs: dict = {}
        self.loops: dict = {}
        self.branchless: dict = {}
        #: value number -> the op (an :class:`_Op`) whose result it is; the loops'
        #: iter_args' numbers; value number -> whether it may carry a load or read
        #: (:meth:`may_carry`)
        self.definer: dict = {}
        self.iter_args: set = set()
        self.carries: dict = {}

    def value(self, v) -> int:
        """The number of value ``v`` (the same for every handle of one value)."""
        got = self.values.get(v)
        if got is None:
            got = self.values[v] = len(self.values)
        return got

    def block_ops(self, block) -> list:
        """The ops of ``block``, each an :class:`_Op`."""
        got = self.blocks.get(block)
        if got is None:
            got = self.blocks[block] = [_Op(as_operation(o), self) for o in block.operations]
            for rec in got:
                for r in rec.results:
                    self.definer[r] = rec
        return got

    def may_carry(self, v: int, memory) -> bool:
        """Whether the value numbered ``v`` may ever carry a load or read event (a stream's
        taint): the result of a memory op (``memory(rec)``: its access, else None) or of an
        op with regions, a loop's iter_arg, or what an op computes from such a value;
        never a function's or an ``scf.forall``'s argument nor what only they and
        constants compute.  Asked of the operands of an op the walk meets, whose
        definitions (earlier in its block or around it) are numbered already."""
        todo = [v]
        while todo:
            u = todo[-1]
            if u in self.carries:
                todo.pop()
                continue
            rec = self.definer.get(u)
            if rec is None:
                self.carries[todo.pop()] = u in self.iter_args
            elif rec.regions or memory(rec) is not None:
                self.carries[todo.pop()] = True
            else:
                open_ = [x for x in rec.operands if x not in self.carries]
                if open_:
                    todo += open_
                    continue
                self.carries[todo.pop()] = any(self.carries[x] for x in rec.operands)
        return self.carries[v]

    def of(self, op) -> tuple:
        """(name, operands' numbers, results' numbers, number of regions) of ``op``."""
        got = self.ops.get(op)
        if got is None:
            got = self.ops[op] = (op.name, tuple(self.value(v) for v in op.operands),
                                  tuple(self.value(v) for v in op.results),
                                  len(op.regions))
        return got

    def loop(self, op) -> tuple:
        """(trips the stream unrolls, body, its iter_args' numbers, the yielded values'
        numbers) of ``scf.for`` ``op``."""
        got = self.loops.get(op)
        if got is None:
            lb, ub, step = (_const(v) for v in tuple(op.operands)[:3])
            trips = UNROLL
            if None not in (lb, ub, step) and step > 0:
                trips = min(UNROLL, max(0, -(-(ub - lb) // step)))
            body = op.regions[0].blocks[0]
            args = tuple(self.value(v) for v in tuple(body.arguments)[1:])
            self.iter_args.update(args)
            got = self.loops[op] = (trips, body, args, self.block_ops(body)[-1].operands)
        return got

    def where(self, op) -> str:
        got = self.wheres.get(op)
        if got is None:
            got = self.wheres[op] = _where(op)
        return got


class _Stream:
    def __init__(self, choices: tuple = (), names: _BufferNames | None = None,
                 facts: _Facts | None = None, resume: tuple | None = None) -> None:
        self.buffer = _BufferNames() if names is None else names   # buffer -> its name
        self.facts = _Facts() if facts is None else facts
        self.events: list[L.Event] = []
        self.ops: list = []         # the op of each event
        self.op_now = None
        self.taint: dict = {}      # value -> frozenset of load / read events it carries
        self.choices = list(choices)   # the branch taken at each unfolded scf.if met
        self.branches: list = []   # (op, then taken) of each unfolded scf.if met
        #: the state of the stream these choices share with an earlier one, taken at the
        #: unfolded scf.if where they part (the last choice, :func:`lds_paths`); until it is
        #: met the walk only finds its way there, making no event (:meth:`op`)
        self.resume = resume
        #: per unfolded scf.if this stream meets first (no choice given): its state there,
        #: which the stream taking the else branch resumes from (:func:`lds_paths`)
        self.forks: dict = {}

    def needs(self, operands: tuple) -> tuple:
        """The load and read events the values numbered ``operands`` carry, in order."""
        out: set = set()
        taint = self.taint
        for v in operands:
            t = taint.get(v)
            if t:
                out |= t
        return tuple(sorted(out)) if out else ()

    def add(self, event: L.Event) -> int:
        self.events.append(event)
        self.ops.append(self.op_now)
        return len(self.events) - 1

    def block(self, block) -> str | None:
        for rec in self.facts.block_ops(block):
            if rec.regions:
                why = self.op(rec)
                if why:
                    return why
            elif self.resume is None and rec.plain is not _NOTHING:
                self._plain_op(rec)     # (else on the way to the parting scf.if: no event)
        return None

    def _plain_op(self, rec: _Op) -> None:
        """:meth:`op` of an op without regions, the stream not on its way to a parting
        ``scf.if`` (the ops met most: what each does is found once, :meth:`_plain`)."""
        self.op_now = rec.op
        plain = rec.plain
        if plain is None:
            plain = rec.plain = self._plain(rec)
        if plain is _NOTHING:
            return
        if plain is _MEMORY:
            self._memory(rec)
        elif plain.__class__ is tuple:      # a wait's or a barrier's events, made once
            for event in plain:
                self.add(event)
        else:
            taint = self.taint
            out = None
            for v in rec.operands:
                t = taint.get(v)
                if t:
                    out = set(t) if out is None else out | t
            needs = tuple(sorted(out)) if out else ()
            if needs and plain is _USE:
                self.add(L.Event(L.USE, self._where(rec), needs=needs))
            elif rec.results:
                t = frozenset(needs)
                for r in rec.results:
                    taint[r] = t

    def _plain(self, rec: _Op):
        """What meeting ``rec``'s op (no regions) does: :data:`_MEMORY` (its event,
        :meth:`_memory`), the events of a wait or a barrier (the same at every meeting:
        an event is a frozen record), :data:`_USE` (an op that waits for the loads and
        reads it uses: a use event if it uses some), :data:`_CARRY` (its results carry
        what its operands carry) or, none of its operands ever carrying a load or read
        (:meth:`_Facts.may_carry`), :data:`_NOTHING`: no event, its results carry nothing
        (absent from the taint: every reader takes that as nothing)."""
        if self._access(rec) is not None:
            return _MEMORY
        op, name = rec.op, rec.name
        if name in WAIT_OPS:
            vm, lgkm = wait_counts(op)
            return (L.Event(L.WAIT, self._where(rec), vm=None if vm >= VMCNT_MAX else vm,
                            lgkm=None if lgkm >= LGKMCNT_MAX else lgkm),)
        if name in BARRIERS:
            fence = (L.Event(L.WAIT, self._where(rec), vm=0, lgkm=0),) if fences_lds(op) \
                else ()         # (the fence drains the copies' LDS writes too)
            return fence + (L.Event(L.BARRIER, self._where(rec)),)
        if not any(self.facts.may_carry(v, self._access) for v in rec.operands):
            return _NOTHING     # (no event, its results carry nothing: absent from the taint)
        return _CARRY if name.startswith(("vector.", "arith.", "scf.yield")) else _USE

    def op(self, rec: _Op) -> str | None:
        """Meet op ``rec`` (one with regions, or any on the way to a parting ``scf.if``:
        :meth:`block` meets the others through :meth:`_plain_op`)."""
        op = self.op_now = rec.op
        name = rec.name
        skip = self.resume is not None     # (finding the way to the parting scf.if)
        if name == "scf.for":
            if skip and self._branchless(self.facts.loop(op)[1]):
                return None
            return self.loop(op)
        if name == "scf.forall" and workgroup_forall_problem(op) is None:
            body = op.regions[0].blocks[0]
            return None if skip and self._branchless(body) else self.block(body)
        if name == "scf.if":
            folded, opaque, uniform = self._if(op)
            if folded is not None:
                taken = op.regions[0 if folded else 1]
                if not len(taken.blocks) or skip and self._branchless(taken.blocks[0]):
                    return None
                return self.block(taken.blocks[0])
            if opaque and uniform:
                return self.branch(op)
        if skip:        # (the earlier stream walked this op: its effect is in the state)
            return None
        if rec.regions:
            return self._opaque(op)
        self._plain_op(rec)
        return None

    def _if(self, op) -> tuple:
        """(the folded condition or None, :meth:`_opaque`'s answer, whether the condition
        is workgroup-uniform) of ``scf.if`` ``op``, each found once (the uniformity only
        where it is asked: an opaque op whose condition does not fold)."""
        got = self.facts.ifs.get(op)
        if got is None:
            folded = _const(op.operands[0])
            opaque = self._opaque(op) if folded is None else None
            uniform = bool(opaque) and is_uniform(op.operands[0])
            got = self.facts.ifs[op] = (folded, opaque, uniform)
        return got

    @staticmethod
    def _where(rec: _Op) -> str:
        """The location of ``rec``'s op worded (:func:`_where`, once per op)."""
        if rec.where is None:
            rec.where = _where(rec.op)
        return rec.where

    def _access(self, rec: _Op) -> tuple | None:
        """The static part of memory op ``rec``'s event (once per op): (kind, event kind,
        buffer name or None), or None if it is not one."""
        if rec.access is not _Op.UNSET:
            return rec.access
        op, name = rec.op, rec.name
        got = None
        if name == "amdgpu.gather_to_lds":
            (dst,) = segments(op)[2]
            got = (L.COPY, L.COPY, self.buffer(dst))
        elif name in READS or name in WRITES:
            mem = op.operands[0 if name in READS else 1]
            kind = L.READ if name in READS else L.STORE
            if memory_space(mem.type) == "workgroup":
                got = (kind, kind, self.buffer(mem))
            else:
                got = (kind, L.LOAD, None)
        rec.access = got
        return got

    def _memory(self, rec: _Op) -> str | None:
        """The event of a memory op (added), or None if ``rec``'s op is not one."""
        got = self._access(rec)
        if got is None:
            return None
        kind, event, buffer = got
        where = self._where(rec)
        if kind == L.COPY:
            self.add(L.Event(L.COPY, where, buffer=buffer))
        elif kind == L.READ:
            e = self.add(L.Event(event, where, buffer=buffer) if buffer is not None
                         else L.Event(event, where))
            self.taint[rec.results[0]] = frozenset([e])
        else:
            needs = self.needs(rec.operands)
            self.add(L.Event(event, where, buffer=buffer, needs=needs) if buffer is not None
                     else L.Event(event, where, needs=needs))
        return kind

    def _opaque(self, op) -> str | None:
        if any(o.name in READS + WRITES + BARRIERS or o.name in ("amdgpu.gather_to_lds",
                                                                 *WAIT_OPS) or len(o.regions)
               for o in descendants(op)):
            return f"{self.facts.where(op)} holds memory ops (not modelled)"
        return None

    def branch(self, op) -> str | None:
        """An ``scf.if`` of a workgroup-uniform condition that does not fold: the branch
        ``choices`` gives for this meeting (the then branch once they run out)."""
        n = len(self.branches)
        if self.resume is not None and n == len(self.choices) - 1:
            self.events, self.ops, self.taint, self.branches = self.resume
            self.resume = None
        elif n >= len(self.choices):
            self.forks[n] = (list(self.events), list(self.ops), dict(self.taint),
                             list(self.branches))
        then = self.choices[n] if n < len(self.choices) else True
        self.branches.append((op, then))
        taken = op.regions[0 if then else 1]
        if not len(taken.blocks):
            return None
        why = self.block(taken.blocks[0])
        if why:
            return why
        yld = self.facts.block_ops(taken.blocks[0])[-1]
        for r, v in zip(self.facts.of(op)[2], yld.operands):
            self.taint[r] = self.taint.get(v, frozenset())
        return None

    def count(self, block, cap: int) -> int:
        """How many streams the ops of ``block`` give (the combinations of the branches
        :meth:`op` would take), from the IR's structure alone (no event is made); any
        count over ``cap`` is given as ``cap + 1``.  An op :meth:`op` does not model counts
        one (the walk returns why instead)."""
        n = 1
        for rec in self.facts.block_ops(block):
            op, name = rec.op, rec.name
            if name == "scf.for":
                trips, body = self.facts.loop(op)[:2]
                per = self.count(body, cap) if trips else 1
                for _ in range(trips):
                    n = min(n * per, cap + 1)
            elif name == "scf.forall" and workgroup_forall_problem(op) is None:
                n = min(n * self.count(op.regions[0].blocks[0], cap), cap + 1)
            elif name == "scf.if":
                folded, opaque, uniform = self._if(op)
                if folded is not None:
                    taken = op.regions[0 if folded else 1]
                    if len(taken.blocks):
                        n = min(n * self.count(taken.blocks[0], cap), cap + 1)
                elif opaque and uniform:
                    both = sum(self.count(r.blocks[0], cap) if len(r.blocks) else 1
                               for r in op.regions)
                    n = min(n * both, cap + 1)
        return n

    def _branchless(self, block) -> bool:
        """Whether the walk of ``block`` meets no unfolded scf.if (:meth:`count`: one
        stream), found once per block."""
        got = self.facts.branchless.get(block)
        if got is None:
            got = self.facts.branchless[block] = self.count(block, 1) == 1
        return got

    def path(self) -> str:
        """The branches this stream took, worded (empty if it met no unfolded scf.if)."""
        taken = [f"{_where(op)} takes its else branch" for op, then in self.branches
                 if not then]
        return f" (on the path where {', '.join(taken)})" if taken else ""

    def loop(self, op) -> str | None:
        got = self.facts.loop(op)
        trips, body, args, yielded = got
        empty = frozenset()
        carried = [self.taint.get(v, empty) for v in self.facts.of(op)[1][3:]]
        for _ in range(trips):
            for arg, t in zip(args, carried):
                self.taint[arg] = t
            why = self.block(body)
            if why:
                return why
            carried = [self.taint.get(v, empty) for v in yielded]
        for r, t in zip(self.facts.of(op)[2], carried):
            self.taint[r] = t
        return None


def lds_events(func) -> tuple[list[L.Event], list] | str:
    """The event stream of function ``func`` (an operation) and the op of each event (the
    first of its :func:`lds_paths`), or why it is not modelled."""
    got = lds_paths(func)
    return got if isinstance(got, str) else (got[0].events, got[0].ops)


def lds_paths(func, shared: tuple | None = None) -> list | str:
    """One stream (a ``_Stream``: ``events``, ``ops``, ``path()``) per combination of the
    branches of the unfolded ``scf.if`` ops of function ``func``, or why it is not
    modelled: the decision tree walked depth first, the then branch first.  ``shared``:
    the (buffer names, facts) of a walk of ``func`` before, if any."""
    names, facts = shared if shared is not None else (_BufferNames(), _Facts())
    out, todo = [], [((), None)]
    while todo:
        choices, resume = todo.pop()
        s = _Stream(choices, names, facts, resume)
        why = s.block(func.regions[0].blocks[0])
        if why:
            return why
        out.append(s)
        taken = [then for _op, then in s.branches]
        # (each stream taking the else branch where this one first took the then branch
        # resumes from this one's state there: its walk up to it is this one's)
        todo += [(tuple(taken[:n]) + (False,), s.forks[n]) for n in
                 reversed(range(len(s.choices), len(taken)))]
        s.forks = {}
        if len(out) + len(todo) > MAX_PATHS:
            return (f"{_where(s.branches[0][0])}: its branches give more than {MAX_PATHS} "
                    f"streams (not modelled)")
    return out


def staged(events: list[L.Event]) -> bool:
    """Whether the stream has an LDS store of registers a global load filled."""
    return any(e.kind == L.STORE and any(events[n].kind == L.LOAD for n in e.needs)
               for e in events)


def staged_hazards(module) -> list[tuple[object, str]]:
    """(op, message) of every hazard of each function of ``module`` that stores registers
    of global loads to LDS (a register-staged copy); functions whose structure the stream
    does not model are skipped (the emulator checks those).  A function whose stated
    workgroup size is one wave is checked as one (:func:`pipeline_mlir.sim.lds_events.check`:
    no barrier is needed between its own accesses); one that states two sizes that differ
    as several (:func:`~pipeline_mlir.analysis.ir_facts.workgroup_waves`)."""
    out = []
    funcs = []

    def visit(o):
        o = as_operation(o)
        if o.name in FUNCS and len(o.regions) and len(o.regions[0].blocks):
            funcs.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for f in funcs:
        # a function of more streams than MAX_PATHS is not modelled: counted from its
        # structure first (walking each stream to find it out costs more than the rest)
        shared = (_BufferNames(), _Facts())
        if _Stream((), *shared).count(f.regions[0].blocks[0], MAX_PATHS) > MAX_PATHS:
            continue
        got = lds_paths(f, shared)
        if isinstance(got, str) or not any(staged(s.events) for s in got):
            continue
        seen = set()
        waves = workgroup_waves(f)
        for s in got:
            for h in L.check(s.events, waves):   # an unrolled loop repeats its hazards: once
                if h.message not in seen:
                    seen.add(h.message)
                    out.append((s.ops[h.at], h.message + s.path()))
    return out
