"""Multi-wave model of one compute unit (CU).

Input: the waves of one workgroup, each ``(simd, instructions)``, and a cost table.

Model
-----
* ``simds`` SIMDs (4 on gfx950).  Each SIMD issues at most one instruction per
  cycle, from one of its waves; each wave issues in order, its next instruction
  not before ``previous issue + gap`` (gap 1; ``s_nop N`` under the measured
  table: N+1).
* An instruction of a wave is *ready* at the first cycle at which its registers
  are ready (producer issue + latency; an MFMA's srcA ``src_a_late`` later, as in
  :mod:`pipeline_mlir.sim.wave_model`), its ``s_waitcnt`` is satisfied (the wave's
  own vm/lgkm counters), its wave has been released from its last ``s_barrier``
  and every unit it reserves is free.
* Units (:data:`pipeline_mlir.sim.costs.UNIT_SCOPE`): ``XDL`` (one MFMA pipe per
  SIMD, shared by the SIMD's waves, busy for the MFMA's passes), ``VALU``,
  ``SALU``, ``BRANCH``, ``LDS_ISSUE`` per SIMD; ``LDS``, ``LGKM``, ``SMEM``,
  ``VMEM``, ``GMEM`` one per CU, shared by all waves (each busy for the cycles the
  table gives: one instruction at a time per unit).  A *deferred* reservation
  (:attr:`pipeline_mlir.sim.costs.Cost.deferred`: the LDS write of a global->LDS
  load) holds its unit for the last cycles before the instruction completes, in the
  first free slot from there (a unit with deferred reservations keeps a calendar of
  busy intervals, so later instructions use the gaps before them); a busy unit
  delays the completion.  A *queued* reservation
  (:attr:`pipeline_mlir.sim.costs.Cost.queued`: an LDS access behind the LDS command
  FIFO) does not hold up the issue: it takes the first free slot of the unit's
  calendar from the issue cycle on, so the accesses of all waves are served in issue
  order, and the time it waits delays its completion.
* Arbitration, each cycle, per SIMD: among the SIMD's ready waves the one with
  the highest ``s_setprio`` wins, then the one that issued least recently
  (oldest first), then the lowest wave index.  SIMDs are visited in rotating
  order (cycle ``t`` starts at SIMD ``t % simds``), so a CU-wide unit two SIMDs
  want in the same cycle goes to the first visited.
* Counters: each wave has its own vmcnt and lgkmcnt; ``s_waitcnt vmcnt(n)``
  waits until at most ``n`` of its vm instructions are still executing.  With a
  table whose ``in_order_counters`` is set an entry completes no earlier than the
  entries before it (hardware), and an instruction that would exceed its counter's
  capacity waits for the oldest in flight; otherwise each on its own and no limit
  (llvm-mca).
* ``s_barrier``: the k-th barrier of each wave meets the k-th barrier of every
  other wave of the workgroup; the waves issue again ``barrier_resume`` cycles
  after the last one arrived.  With ``finished_waves_release_barriers`` a wave
  that has executed all its instructions no longer takes part (hardware
  ``s_endpgm``); without it (default) a barrier some wave never reaches is a
  deadlock, reported in :attr:`CURun.deadlock`.
* ``sched_barrier``/``sched_group_barrier`` issue nothing (zero cycles).

With one wave and the ``llvm`` table the run is exactly the single-wave model's
(and llvm-mca-22's) schedule.

Stall attribution: an instruction's stall is its issue cycle minus the cycle its
wave could first have issued it (previous issue + gap).  The cycles are split by
cause in the order the constraints were lifted: ``register dependency``,
``waitcnt vm``, ``waitcnt lgkm``, ``counter full`` (drawn as a unit busy),
``barrier``, ``<unit> busy`` (``mfma pipe busy`` for XDL), and ``arbitration lost to wave N`` for the remainder; ``reason`` is the
cause with the most cycles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.costs import (UNIT_SCOPE, CostTable, Op, capacity_release, get_table,
                                      prepare, wait_release)
from pipeline_mlir.sim.instr import Instr


class CUModelError(PipelineError):
    """Bad input to the CU model (names the wave and field)."""


@dataclass
class CUOptions:
    """Options of :func:`simulate_cu`."""

    simds: int = 4
    mca_flat_lgkm: bool = False
    finished_waves_release_barriers: bool = False


@dataclass
class WaveTrace:
    """One wave's run: per instruction, parallel lists.

    ``issue``/``end``: cycles; ``stall``: cycles waited beyond previous issue + gap;
    ``reason``: main cause of the stall (``""`` if none); ``causes``: every cause
    with its cycles.
    """

    wave: int
    simd: int
    instrs: list[Instr]
    issue: list[int] = field(default_factory=list)
    end: list[int] = field(default_factory=list)
    stall: list[int] = field(default_factory=list)
    reason: list[str] = field(default_factory=list)
    causes: list[tuple[tuple[str, int], ...]] = field(default_factory=list)
    barriers: int = 0

    @property
    def finished(self) -> bool:
        return len(self.issue) == len(self.instrs)


@dataclass(frozen=True)
class BusyInterval:
    """A unit busy with one instruction: ``unit`` e.g. ``XDL``, ``instance`` ``simd2``
    or ``cu``; cycles ``[start, end)``; the wave and its instruction index."""

    unit: str
    instance: str
    start: int
    end: int
    wave: int
    index: int


@dataclass(frozen=True)
class Deadlock:
    """Waves stuck at barriers that never complete."""

    waiting: dict[int, int]      # wave -> index (0-based) of the barrier it waits at
    barriers: dict[int, int]     # every wave -> barriers it executed (arrivals included)
    finished: tuple[int, ...]    # waves that ran out of instructions
    cycle: int

    @property
    def message(self) -> str:
        wait = ", ".join(f"wave {w} at barrier #{k}" for w, k in sorted(self.waiting.items()))
        counts = ", ".join(f"wave {w}: {n}" for w, n in sorted(self.barriers.items()))
        fin = ", ".join(map(str, self.finished)) or "none"
        return (f"deadlock at cycle {self.cycle}: {wait} can never be released (barriers "
                f"executed per wave: {counts}; finished waves: {fin})")


@dataclass
class CURun:
    """Result of :func:`simulate_cu`."""

    waves: list[WaveTrace]
    busy: list[BusyInterval]
    total: int
    table: str
    simds: int
    deadlock: Deadlock | None = None
    defaulted: set[str] = field(default_factory=set)


_UNIT_REASON = {"XDL": "mfma pipe busy"}


def _first_fit(cal: list[tuple[int, int]], st: int, cyc: int) -> int:
    """First cycle >= ``st`` at which ``cyc`` cycles are free in the sorted, disjoint busy
    intervals ``cal``."""
    for s, e in cal:
        if s >= st + cyc:
            break
        if e > st:
            st = e
    return st


def _reserve(cal: list[tuple[int, int]], s: int, e: int) -> None:
    k = len(cal)
    while k and cal[k - 1][0] > s:
        k -= 1
    cal.insert(k, (s, e))


class _Wave:
    __slots__ = ("trace", "ops", "pc", "base", "release", "ready", "vmq", "lgkmq", "prio",
                 "blocked", "last_issue", "static", "static_pc", "lost_to", "keys", "dkeys",
                 "qkeys", "units", "seen")

    def __init__(self, trace, ops, keys, dkeys, qkeys):
        self.trace, self.ops, self.keys, self.dkeys, self.qkeys = trace, ops, keys, dkeys, qkeys
        self.units: list = []    # per instruction: (key, cycles, calendar or None) per unit
        self.seen = (-1, 0, 0)   # (CU version, cycle asked, answer) of earliest()
        self.pc = 0
        self.base = 0            # previous issue + gap
        self.release = 0         # end of the last barrier wait
        self.ready: dict[str, int] = {}
        self.vmq: list[int] = []
        self.lgkmq: list[int] = []
        self.prio = 0
        self.blocked = False
        self.last_issue = -1
        self.static = None
        self.static_pc = -1
        self.lost_to = -1


def simulate_cu(waves: list[tuple[int, list[Instr]]], table: CostTable | str = "llvm",
                options: CUOptions | None = None) -> CURun:
    """Run the workgroup ``waves`` (``(simd, instructions)`` each) on one CU."""
    opts = options or CUOptions()
    if isinstance(table, str):
        table = get_table(table)
    if opts.simds < 1:
        raise CUModelError(f"CUOptions.simds must be >= 1, got {opts.simds}")
    if not waves:
        raise CUModelError("the workgroup to simulate has no waves (waves is empty)")
    return _CU(waves, table, opts).run()


def _prepared_waves(waves: list, table: CostTable, opts: CUOptions) -> list[_Wave]:
    """The waves with their instructions prepared against ``table`` (the unit keys of each
    instruction: per SIMD or per CU); an instruction shared by waves (a list, or the same
    ``Instr`` in two lists) is prepared once, its keys once per SIMD and cost."""
    prepared: dict[int, Op] = {}
    keyed: dict[tuple[int, int], tuple] = {}
    ws: list[_Wave] = []
    for w, item in enumerate(waves):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise CUModelError(f"wave {w}: expected (simd, instructions), got {item!r:.60}")
        simd, instrs = item
        if not isinstance(simd, int) or not 0 <= simd < opts.simds:
            raise CUModelError(f"wave {w}: simd {simd!r} is outside 0..{opts.simds - 1}")
        fresh = {id(ins): ins for ins in instrs if id(ins) not in prepared}
        prepared.update(zip(fresh, prepare(list(fresh.values()), table, opts.mca_flat_lgkm)))
        ops = [prepared[id(ins)] for ins in instrs]
        per_op = []
        for op in ops:
            k = keyed.get((id(op.cost), simd))
            if k is None:
                k = keyed[id(op.cost), simd] = _unit_keys(op, simd)
            per_op.append(k)
        ws.append(_Wave(WaveTrace(w, simd, instrs), ops, [k for k, _, _ in per_op],
                        [d for _, d, _ in per_op], [q for _, _, q in per_op]))
    return ws


def _unit_keys(op: Op, simd: int) -> tuple[tuple, tuple, tuple]:
    """The keys of the units ``op`` holds at issue (with their names), deferred and queued,
    on ``simd``: ``(unit, simd)``, or ``(unit, -1)`` for a unit of the whole CU."""
    def key(u):
        return (u, simd) if UNIT_SCOPE.get(u, "simd") == "simd" else (u, -1)

    return (tuple((u, key(u)) for u, _ in op.units), tuple(key(u) for u, _ in op.deferred),
            tuple(key(u) for u, _ in op.queued))


class _CU:
    """One run of :func:`simulate_cu`: the waves, the units' state and the trace so far."""

    def __init__(self, waves: list, table: CostTable, opts: CUOptions) -> None:
        self.table, self.opts = table, opts
        self.in_order = table.in_order_counters
        self.ws = ws = _prepared_waves(waves, table, opts)
        self.by_simd = [[x for x in ws if x.trace.simd == s] for s in range(opts.simds)]
        self.free: dict[tuple, int] = {}
        # units some instruction holds at its end or behind a queue keep a calendar of busy
        # intervals
        self.cal: dict[tuple, list[tuple[int, int]]] = {
            k: [] for x in ws for dk in x.dkeys + x.qkeys for k in dk}
        self.busy: list[BusyInterval] = []
        self.arrivals: dict[int, dict[int, int]] = {}
        # wave -> (index of its pending barrier, the barrier's end: issue + latency)
        self.barrier_latency_end: dict[int, tuple[int, int]] = {}
        self.deadlock = None
        self.max_issue = -1
        # a count of the reservations made, and per unit the count when it was last
        # reserved: a wave's earliest() answer holds while none of its units was since
        self.version = 0
        self.stamp: dict[tuple, int] = {}
        units: dict[tuple, tuple] = {}
        for x in ws:
            for ks, op in zip(x.keys, x.ops):
                key = (id(op.cost), ks)
                if key not in units:
                    units[key] = tuple((k, cyc, self.cal.get(k))
                                       for (_u, k), (_u2, cyc) in zip(ks, op.units))
                x.units.append(units[key])

    def run(self) -> CURun:
        ws, opts = self.ws, self.opts
        for x in ws:
            self.skip_pseudo(x)
        t = 0
        while True:
            live = [x for x in ws if x.pc < len(x.ops)]
            if not live:
                break
            for c in self.cal.values():
                while c and c[0][1] <= t:
                    c.pop(0)
            start = t % opts.simds
            for si in range(opts.simds):
                x = self.pick(self.by_simd[(start + si) % opts.simds], t)
                if x is not None:
                    self.issue(x, t)
            nxt = self.next_event(t)
            if nxt is None:
                self.stuck(t)
                break
            t = nxt
        max_end = 0
        for x in ws:
            if x.trace.end:
                max_end = max(max_end, max(x.trace.end))
        total = max(self.max_issue + 1, max_end) + 1 if self.max_issue >= 0 else 0
        return CURun([x.trace for x in ws], self.busy, total, self.table.name, opts.simds,
                     self.deadlock, set(self.table.defaulted))

    # -- when a wave can issue --------------------------------------------------------
    def skip_pseudo(self, x: _Wave) -> None:
        tr = x.trace
        while x.pc < len(x.ops) and x.ops[x.pc].pseudo:
            tr.issue.append(x.base)
            tr.end.append(x.base)
            tr.stall.append(0)
            tr.reason.append("")
            tr.causes.append(())
            x.pc += 1

    def static_parts(self, x: _Wave) -> tuple[int, list]:
        if x.static_pc == x.pc:
            return x.static
        op = x.ops[x.pc]
        ins = op.instr
        parts = []
        if ins.kind == "wait":
            parts.append(("waitcnt vm", wait_release(x.vmq, ins.vm, x.base)))
            parts.append(("waitcnt lgkm", wait_release(x.lgkmq, ins.lgkm, x.base)))
        elif self.in_order and (op.vm_inc or op.lgkm_inc):
            parts.append(("counter full", capacity_release(x.vmq, x.lgkmq, op, x.base)))
        reg = 0
        for r in op.uses:
            rd = x.ready.get(r)
            if rd is not None:
                if r in op.late:
                    rd += op.late_by
                if rd > reg:
                    reg = rd
        parts.append(("register dependency", reg))
        if x.release > x.base:
            parts.append(("barrier", x.release))
        st = max([x.base] + [p[1] for p in parts])
        x.static, x.static_pc = (st, parts), x.pc
        return x.static

    def unit_free(self, x: _Wave, st: int, t: int) -> list[tuple[str, int]]:
        """(unit, first cycle >= st it is free for x's instruction) per unit (a calendar
        unit: free for the whole instruction, from the current cycle ``t`` on)."""
        cal, free = self.cal, self.free
        return [(u, _first_fit(cal[k], max(st, t), cyc) if k in cal else max(st, free.get(k, 0)))
                for (u, k), (_u, cyc) in zip(x.keys[x.pc], x.ops[x.pc].units)]

    def earliest(self, x: _Wave, t: int) -> int:
        """The first cycle x's next instruction can issue, seen at cycle ``t``: its static
        constraints, then every unit free (:meth:`unit_free`, without the list).

        The answer E found at cycle t0 is kept (``x.seen``) and holds at every t in
        t0..E while no unit was reserved and x's static constraints stand: every unit
        term is ``_first_fit`` from max(st, t) (the least free slot from there: monotone
        in t and idempotent) or max(st, free), so E stays a fixed point at such a t, and
        none below it is one; intervals dropped from a calendar end before t0."""
        units = x.units[x.pc]
        version, t0, e = x.seen
        if x.static_pc == x.pc and t0 <= t and (t <= e or t == t0):
            stamp = self.stamp
            for k, _cyc, _cal in units:
                if stamp.get(k, 0) > version:
                    break
            else:
                return e
        st = self.static_parts(x)[0]
        free = self.free
        while True:
            nxt = st
            lo = st if st > t else t
            for k, cyc, cal in units:
                if cal is not None:
                    f = _first_fit(cal, lo, cyc)
                else:
                    f = free.get(k, 0)
                if f > nxt:
                    nxt = f
            if nxt == st:
                break
            st = nxt
        x.seen = (self.version, t, st)
        return st

    def pick(self, group: list[_Wave], t: int) -> _Wave | None:
        """The wave of ``group`` (one SIMD) that issues at ``t``: among the ready ones the
        highest priority, then the least recent issue, then the lowest wave index."""
        cands = []
        earliest = self.earliest
        for x in group:
            if x.blocked or x.pc >= len(x.ops):
                continue
            if earliest(x, t) <= t:
                cands.append(x)
        if not cands:
            return None
        if len(cands) == 1:
            return cands[0]
        best = max(cands, key=lambda c: (c.prio, -c.last_issue, -c.trace.wave))
        for c in cands:
            if c is not best:
                c.lost_to = best.trace.wave
        return best

    def next_event(self, t: int) -> int | None:
        """The next cycle at which some wave may issue (None: every wave is done or
        blocked)."""
        nxt = None
        earliest = self.earliest
        for x in self.ws:
            if x.blocked or x.pc >= len(x.ops):
                continue
            e = earliest(x, t)
            e = t + 1 if e <= t else e
            if nxt is None or e < nxt:
                nxt = e
        return nxt

    def stuck(self, t: int) -> None:
        """No wave can issue any more: a deadlock if some wave waits at a barrier."""
        ws = self.ws
        stuck = {x.trace.wave: x.trace.barriers - 1 for x in ws if x.blocked}
        if stuck:
            self.deadlock = Deadlock(stuck, {x.trace.wave: x.trace.barriers for x in ws},
                                     tuple(x.trace.wave for x in ws
                                           if x.pc >= len(x.ops) and not x.blocked), t)

    # -- issuing ----------------------------------------------------------------------
    def causes(self, x: _Wave, t: int) -> tuple[list, str]:
        """The stall of x's instruction issuing at ``t`` split by cause, in the order the
        constraints were lifted, and the main cause (the module docstring).  An
        instruction issued at ``x.base`` did not stall: none."""
        if t == x.base:         # every constraint is at most t, none above the base
            return [], ""
        st0, parts = self.static_parts(x)
        parts = list(parts)
        for u, f in self.unit_free(x, st0, t):
            parts.append((_UNIT_REASON.get(u, f"{u.lower()} busy"), f))
        parts.sort(key=lambda p: p[1])
        causes = []
        lvl = x.base
        for name, tm in parts:
            if tm > lvl:
                causes.append((name, tm - lvl))
                lvl = tm
        if t > lvl:
            causes.append((f"arbitration lost to wave {x.lost_to}", t - lvl))
        reason = max(causes, key=lambda c: c[1])[0] if causes else ""
        return causes, reason

    def reserve(self, x: _Wave, op, t: int) -> int:
        """Reserve the units x's instruction holds from ``t`` (queued, at issue, deferred)
        and return the cycle it completes."""
        cal, busy, wave, stamp = self.cal, self.busy, x.trace.wave, self.stamp
        self.version = version = self.version + 1
        done = t + op.latency
        for k, (u, cyc) in zip(x.qkeys[x.pc], op.queued):
            stamp[k] = version
            s0 = _first_fit(cal[k], t, cyc)
            _reserve(cal[k], s0, s0 + cyc)
            busy.append(BusyInterval(u, f"simd{k[1]}" if k[1] >= 0 else "cu", s0, s0 + cyc,
                                     wave, x.pc))
            done += s0 - t
        for (u, k), (_u, cyc) in zip(x.keys[x.pc], op.units):
            stamp[k] = version
            if k in cal:
                _reserve(cal[k], t, t + cyc)
            else:
                self.free[k] = t + cyc
            busy.append(BusyInterval(u, f"simd{k[1]}" if k[1] >= 0 else "cu", t, t + cyc,
                                     wave, x.pc))
        for k, (u, cyc) in zip(x.dkeys[x.pc], op.deferred):
            stamp[k] = version
            s0 = _first_fit(cal[k], done - cyc, cyc)
            _reserve(cal[k], s0, s0 + cyc)
            busy.append(BusyInterval(u, "cu", s0, s0 + cyc, wave, x.pc))
            done = max(done, s0 + cyc)
        return done

    def issue(self, x: _Wave, t: int) -> None:
        """x issues its next instruction at ``t``."""
        op = x.ops[x.pc]
        ins = op.instr
        tr = x.trace
        causes, reason = self.causes(x, t)
        done = self.reserve(x, op, t)
        kind = ins.kind
        if kind == "wait":
            x.vmq[:] = [d for d in x.vmq if d > t]
            x.lgkmq[:] = [d for d in x.lgkmq if d > t]
        in_order = self.in_order
        if op.vm_inc:
            x.vmq.append(max(done, x.vmq[-1]) if (in_order and x.vmq) else done)
        if op.lgkm_inc:
            x.lgkmq.append(max(done, x.lgkmq[-1]) if (in_order and x.lgkmq) else done)
        for r in op.defs:
            x.ready[r] = done
        if kind == "setprio":
            x.prio = ins.value
        tr.issue.append(t)
        tr.end.append(done)
        tr.stall.append(t - x.base)
        tr.reason.append(reason)
        tr.causes.append(tuple(causes))
        x.last_issue = t
        x.base = t + op.gap
        x.pc += 1
        x.static_pc = -1
        x.lost_to = -1
        if t > self.max_issue:
            self.max_issue = t
        if kind == "barrier":
            k = tr.barriers
            tr.barriers += 1
            x.blocked = True
            self.barrier_latency_end[tr.wave] = (len(tr.issue) - 1, done)
            self.arrivals.setdefault(k, {})[tr.wave] = t
            self.try_release(k, t)
        self.skip_pseudo(x)
        if x.pc >= len(x.ops) and self.opts.finished_waves_release_barriers:
            for k in list(self.arrivals):
                self.try_release(k, t)

    def try_release(self, k: int, t: int) -> None:
        """Release the k-th barrier if every wave that takes part has arrived."""
        arr = self.arrivals.get(k, {})
        need = [x for x in self.ws if not (self.opts.finished_waves_release_barriers
                                           and x.pc >= len(x.ops) and x.trace.barriers <= k)]
        if not need or any(x.trace.wave not in arr for x in need):
            return
        rel = max(arr.values()) + self.table.barrier_resume
        for w in arr:
            x = self.ws[w]
            x.blocked = False
            x.release = rel
            x.static_pc = -1
            tr = x.trace
            k_b, end = self.barrier_latency_end.pop(w)
            tr.end[k_b] = max(end, rel)
        del self.arrivals[k]
