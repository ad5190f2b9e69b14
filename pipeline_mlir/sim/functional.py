"""The functional model: LDS, registers, counters and barriers of a schedule as a kernel runs it.

What it models (per warp group; every wave of a group runs the same entries):

* **Counters.** Each wave's ``vmcnt`` / ``lgkmcnt`` count the instructions its global
  and fragment loads issued (per-load counts of :class:`~pipeline_mlir.kernel.plan.KernelShape`); they
  complete in issue order, so ``s_waitcnt vmcnt(n)`` at a point completes exactly
  the loads with at least ``n`` instructions issued after them.  A load is *covered*
  at the first wait that completes it; a wait value over the counter's width
  (vmcnt 63, lgkmcnt 15) is a hazard.  A counter holds at most that many instructions
  in flight (:data:`~pipeline_mlir.target.gfx950.IN_FLIGHT`): an instruction that would
  exceed it stalls the wave until the oldest completes, so issuing it completes the
  oldest ones there, as a wait would (no hazard).
* **Barriers.** ``s_barrier`` is a rendezvous of every wave of the workgroup: the
  k-th barrier of one wave meets the k-th of every other.  So an event of one wave
  happens before an event of another exactly when a barrier lies between them:
  ``epoch(a) < epoch(b)``, the epoch being the number of barriers a wave passed.
  Unequal barrier counts between warp groups deadlock the workgroup.
* **LDS.** Every global load is issued by every wave, each moving its share of the
  rows into the slot ``(channel, stage, subtile)``; a fragment load reads rows other
  waves wrote.  So a fragment read needs, for *every* wave, the covering ``vmcnt``
  wait of the load it reads followed by a barrier before the read (RAW); and the
  next load into the slot, in every wave, must come after the read completed
  (its covering ``lgkmcnt`` wait) and a barrier (WAR: a fragment read in flight
  must not be overwritten).
* **Registers and accumulators.** A fragment load fills the register of its
  ``(channel, subtile)`` with the K tile its slot holds; an MMA ``(r, c)`` adds the
  product of fragments ``(A, r)`` and ``(B, c)`` to accumulator ``(r, c)``; both must
  hold the same K tile.  An MFMA reading a fragment whose ``ds_read`` has no explicit
  covering wait before it is not a hazard (LLVM's waitcnt pass adds one for the
  register dependency) but is reported as an *implicit wait*.
* **Result.** For ``N`` main-loop iterations the kernel covers ``2*(N+1)`` K tiles;
  every accumulator must receive each exactly once.

:func:`simulate` runs this for several iteration counts (0..6 by default) and
returns every hazard, each naming the phase, entry, iteration, load and counter.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pipeline_mlir.schedule.types import BARRIER, WAIT_FRAG, WAIT_LGKM, WAIT_VM, OpRole
from pipeline_mlir.sim.trace import KernelShape, Step, channel_of, group_trace, plan_of, role_of
from pipeline_mlir.target.gfx950 import IN_FLIGHT, LGKMCNT_MAX, VMCNT_MAX

CHANNELS = {0: "A", 1: "B", 2: "A scale", 3: "B scale"}  # 2, 3: the MX scale channels


@dataclass(frozen=True)
class Hazard:
    """One hazard: ``kind`` is deadlock | counter | raw | war | empty-slot | fragment |
    fragment-wait | tiles | data-flow."""

    kind: str
    message: str
    iterations: int           # main-loop iteration count of the run that found it
    group: int = -1
    phase: str = ""
    iteration: int = 0
    entry: int = -1
    counter: str = ""         # vmcnt | lgkmcnt | ""
    load: tuple = ()          # raw: (phase, iteration, entry) of the load read; war: of the
                              # load that overwrites the slot
    peer: int = -1            # raw/war: the warp group whose load (raw: whose wait) it is

    @property
    def signature(self) -> tuple:
        """Identifies the same hazard in runs of other iteration counts."""
        return (self.kind, self.group, self.phase, self.entry, self.counter,
                self.message.split(":", 1)[0] if self.kind in ("deadlock", "data-flow") else "")


@dataclass(frozen=True)
class ImplicitWait:
    """An MFMA reading a fragment whose ds_read no explicit lgkmcnt wait covers."""

    group: int
    phase: str
    iteration: int
    entry: int
    fragment: str             # e.g. "A subtile 1"
    load_phase: str
    load_entry: int

    def describe(self) -> str:
        it = f" (iteration {self.iteration})" if self.phase == "kernel" else ""
        return (f"{self.phase} entry {self.entry}{it}: the MMA reads fragment {self.fragment} "
                f"loaded at {self.load_phase} entry {self.load_entry} with no lgkmcnt wait "
                f"covering it; LLVM adds one (visible in the ISA)")


@dataclass
class RunResult:
    """One simulated run (``iterations`` main-loop trips)."""

    iterations: int
    hazards: list[Hazard] = field(default_factory=list)
    implicit_waits: list[ImplicitWait] = field(default_factory=list)
    barriers: list[int] = field(default_factory=list)       # per warp group
    accumulators: dict = field(default_factory=dict)        # (group, r, c) -> K tiles received
    max_outstanding: tuple[int, int] = (0, 0)               # (vm, lgkm) instructions


@dataclass
class SimulationResult:
    shape: KernelShape
    runs: list[RunResult]

    @property
    def safe(self) -> bool:
        return not any(r.hazards for r in self.runs)

    def first_hazard(self) -> Hazard | None:
        for r in self.runs:
            if r.hazards:
                return r.hazards[0]
        return None

    def distinct_hazards(self) -> list[tuple[Hazard, list[int]]]:
        """Each hazard once, with the iteration counts whose run has it."""
        seen: dict[tuple, tuple[Hazard, list[int]]] = {}
        for r in self.runs:
            for h in r.hazards:
                if h.signature in seen:
                    if r.iterations not in seen[h.signature][1]:
                        seen[h.signature][1].append(r.iterations)
                else:
                    seen[h.signature] = (h, [r.iterations])
        return list(seen.values())

    def distinct_implicit_waits(self) -> list[ImplicitWait]:
        seen = {}
        for r in self.runs:
            for w in r.implicit_waits:
                seen.setdefault((w.group, w.phase, w.entry, w.fragment), w)
        return list(seen.values())


# ---------------------------------------------------------------------------------------------

@dataclass
class GroupState:
    steps: list[Step]
    vm_done: dict = field(default_factory=dict)      # load pos -> covering wait pos
    lgkm_done: dict = field(default_factory=dict)    # frag load pos -> covering wait pos
    writes: dict = field(default_factory=dict)       # slot -> [load pos, ...]
    reads: list = field(default_factory=list)        # (frag pos, slot, write pos | None)
    by_origin: dict = field(default_factory=dict)    # (phase, iteration, entry) -> pos
    frag_tiles: dict = field(default_factory=dict)   # frag load pos -> K tile it read (or None)
    partial: dict = field(default_factory=dict)      # load pos -> [(wait pos, left), ...]
    barriers: int = 0


class KernelRun:
    """One run of a schedule on a kernel: per warp group its trace (`groups`), then the
    hazards, implicit waits and accumulators (`result`)."""

    def __init__(self, compiled, shape: KernelShape, iterations: int,
                 emitted: bool = False) -> None:
        self.compiled, self.shape, self.n = compiled, shape, iterations
        self.plan = plan_of(compiled, shape, emitted)
        self.names = dict(getattr(compiled, "tag_names", {}) or {})
        self.result = RunResult(iterations)
        self.groups = [GroupState(group_trace(self.plan, g, iterations))
                       for g in range(shape.groups)]

    # -- naming ---------------------------------------------------------------------------
    def op_text(self, s: Step) -> str:
        op = s.op
        name = self.names.get(op.tag, f"tag {op.tag}")
        role = role_of(op)
        if role == OpRole.GLOBAL_LOAD:
            return f"{name} s={op.stage} sub={op.subtile} (K tile {s.k_tile})"
        if role == OpRole.FRAGMENT_LOAD:
            return f"{name} s={op.stage} sub={op.subtile}"
        return name

    def at(self, g: int, s: Step) -> str:
        grp = f" of warp group {g}" if self.shape.groups > 1 else ""
        return f"{s.where()}{grp}"

    def hazard(self, kind: str, g: int, s: Step, message: str, counter: str = "",
               load: tuple = (), peer: int = -1) -> None:
        self.result.hazards.append(Hazard(kind, message, self.n, g, s.phase, s.iteration,
                                          s.entry, counter, load, peer))

    # -- per group ------------------------------------------------------------------------
    def run_group(self, gi: int) -> None:
        g = self.groups[gi]
        vmq: deque = deque()
        lgq: deque = deque()
        out = {"vm": 0, "lgkm": 0}
        last_write: dict = {}
        regs: dict = {}          # (ch, sub) -> frag pos
        acc: dict = {}
        max_vm = max_lg = 0
        frag_wait = None         # the fragment wait the next MMA runs under
        for s in g.steps:
            g.by_origin[s.origin] = s.pos
            op, role = s.op, role_of(s.op)
            if op.tag == WAIT_VM:
                self._wait(gi, s, vmq, out, "vm", VMCNT_MAX, g.vm_done)
            elif op.tag in (WAIT_LGKM, WAIT_FRAG):
                # a fragment wait's count holds after the MMA's last MFMA; only priorities
                # and fences lie between the two, so it completes the same reads here
                self._wait(gi, s, lgq, out, "lgkm", LGKMCNT_MAX, g.lgkm_done)
                frag_wait = s if op.tag == WAIT_FRAG else None
            elif op.tag == BARRIER:
                g.barriers += 1
            elif role == OpRole.GLOBAL_LOAD:
                ch = channel_of(op)
                slot = (ch, op.stage, op.subtile)
                g.writes.setdefault(slot, []).append(s.pos)
                last_write[slot] = s.pos
                self._issue(s, vmq, out, "vm", self.shape.vm_per_load[ch], g.vm_done)
                max_vm = max(max_vm, out["vm"])
            elif role == OpRole.FRAGMENT_LOAD:
                ch = channel_of(op)
                slot = (ch, op.stage, op.subtile)
                wpos = last_write.get(slot)
                g.reads.append((s.pos, slot, wpos))
                g.frag_tiles[s.pos] = None if wpos is None else g.steps[wpos].k_tile
                regs[(ch, op.subtile)] = s.pos
                self._issue(s, lgq, out, "lgkm", self.shape.lgkm_per_load[ch], g.lgkm_done,
                            g.partial)
                max_lg = max(max_lg, out["lgkm"])
            elif role == OpRole.COMPUTE:
                if frag_wait is not None:
                    self._frag_wait(gi, s, frag_wait, regs)
                    frag_wait = None
                self._mma(gi, s, regs, last_write, acc)
        self.result.barriers.append(g.barriers)
        for (r, c), tiles in acc.items():
            self.result.accumulators[(gi, r, c)] = tiles
        vm0, lg0 = self.result.max_outstanding
        self.result.max_outstanding = (max(vm0, max_vm), max(lg0, max_lg))

    @staticmethod
    def _issue(s, q, out, counter, cost, done, partial=None) -> None:
        """Issue ``cost`` instructions of the load at ``s``: each that would exceed the
        counter's capacity first waits for the oldest in flight (the hardware stalls).  A
        load of more instructions than the counter holds completes everything before it
        and its own first ones, the counter's capacity of its last left in flight (a part
        ``partial`` records)."""
        limit = IN_FLIGHT[counter]
        KernelRun._complete(q, out, counter, max(0, limit - cost), done, s.pos)
        q.append([s.pos, cost])
        out[counter] += cost
        KernelRun._complete(q, out, counter, limit, done, s.pos, partial)

    def _wait(self, gi, s, q, out, counter, limit, done) -> None:
        n = s.op.wait_value
        if n > limit:
            self.hazard("counter", gi, s, f"{self.at(gi, s)}: s_waitcnt {counter}cnt({n}) is "
                        f"over the hardware limit {limit}", f"{counter}cnt")
        self._complete(q, out, counter, n, done, s.pos, self.groups[gi].partial)

    @staticmethod
    def _complete(q, out, counter, n, done, at, partial=None) -> None:
        """Complete the oldest instructions of ``q`` until at most ``n`` are in flight (a
        wait at position ``at``); a load it completes only in part gets ``(at, its
        instructions left)`` in ``partial``."""
        while q and out[counter] - q[0][1] >= n:
            pos, cost = q.popleft()
            out[counter] -= cost
            done[pos] = at
        if q and out[counter] > n:
            # instructions complete in order: the oldest load's first ones are done, so
            # at most n remain outstanding (the load itself is not complete yet)
            q[0][1] -= out[counter] - n
            out[counter] = n
            if partial is not None:
                partial.setdefault(q[0][0], []).append((at, q[0][1]))

    def _frag_wait(self, gi, s, w, regs) -> None:
        """The MMA at ``s`` runs under the fragment wait ``w``: its last MFMA must find
        every read of its fragments complete."""
        g = self.groups[gi]
        unread = self.shape.frag_unread
        for ch, sub in self._operands(s):
            fpos = regs.get((ch, sub))
            if fpos is not None and ch < len(unread) and unread[ch] and \
                    any(left <= unread[ch] for _, left in g.partial.get(fpos, ())):
                continue   # only the reads the MMA may leave unread are still in flight
            if fpos is not None and g.lgkm_done.get(fpos) is None:
                f = g.steps[fpos]
                self.hazard("fragment-wait", gi, s, f"{self.at(gi, s)}: the MMA reads fragment "
                            f"{CHANNELS[ch]} subtile {sub} loaded at {f.where()}, which its "
                            f"fragment wait at {w.where()} (lgkmcnt({w.op.wait_value}) after its "
                            f"last MFMA) leaves in flight", "lgkmcnt", f.origin)

    def _operands(self, s) -> list[tuple[int, int]]:
        """(channel, subtile) of each fragment the MMA at ``s`` reads: A's row and B's
        column subtile, then (the MX scale channels 2, 3) their scales'."""
        r, c = s.op.stage, s.op.subtile
        return [(ch, c if ch % 2 else r) for ch in range(len(self.shape.lgkm_per_load))]

    def _mma(self, gi, s, regs, last_write, acc) -> None:
        g = self.groups[gi]
        r, c = s.op.stage, s.op.subtile
        tiles = []
        for ch, sub in self._operands(s):
            fpos = regs.get((ch, sub))
            if fpos is None:
                self.hazard("fragment", gi, s, f"{self.at(gi, s)}: MMA ({r},{c}) reads fragment "
                            f"{CHANNELS[ch]} subtile {sub}, which no fragment load filled")
                return
            done = g.lgkm_done.get(fpos)
            if done is None or done > s.pos:
                f = g.steps[fpos]
                self.result.implicit_waits.append(ImplicitWait(
                    gi, s.phase, s.iteration, s.entry, f"{CHANNELS[ch]} subtile {sub}",
                    f.phase, f.entry))
            tiles.append(g.frag_tiles[fpos])
        if None in tiles:
            return  # reported at the fragment load
        if tiles[0] != tiles[1]:
            self.hazard("tiles", gi, s, f"{self.at(gi, s)}: MMA ({r},{c}) multiplies A of K "
                        f"tile {tiles[0]} with B of K tile {tiles[1]}")
            return
        for ch in (2, 3)[:len(tiles) - 2]:
            if tiles[ch] != tiles[ch - 2]:
                self.hazard("tiles", gi, s, f"{self.at(gi, s)}: MMA ({r},{c}) scales "
                            f"{CHANNELS[ch - 2]} of K tile {tiles[ch - 2]} with the "
                            f"{CHANNELS[ch]}s of K tile {tiles[ch]}")
                return
        acc.setdefault((r, c), []).append(tiles[0])

    # -- across groups --------------------------------------------------------------------
    def happens_before(self, ga: int, a: int, gb: int, b: int) -> bool:
        if ga == gb and self.shape.waves_per_group == 1:
            return a < b
        return self.groups[ga].steps[a].epoch < self.groups[gb].steps[b].epoch

    def check_memory(self) -> None:
        n_groups = len(self.groups)
        for gr in range(n_groups):
            own = self.groups[gr]
            for rpos, slot, wpos in own.reads:
                rs = own.steps[rpos]
                if wpos is None:
                    self.hazard("empty-slot", gr, rs, f"{self.at(gr, rs)}: {self.op_text(rs)} "
                                f"reads LDS {self._slot(slot)}, which no global load has filled")
                    continue
                self._check_raw(gr, rs, slot, own.steps[wpos])
                later = [p for p in own.writes[slot] if p > wpos]
                if later:
                    self._check_war(gr, rs, slot, own.steps[later[0]])

    def _slot(self, slot) -> str:
        ch, stage, sub = slot
        return f"{CHANNELS[ch]} stage {stage} subtile {sub}"

    def _check_raw(self, gr, rs, slot, ws) -> None:
        for g, grp in enumerate(self.groups):
            wp = grp.by_origin[ws.origin]
            w = grp.steps[wp]
            cover = grp.vm_done.get(wp)
            who = f"warp group {g}" if len(self.groups) > 1 else "the waves"
            if cover is None:
                self.hazard("raw", gr, rs, f"{self.at(gr, rs)}: {self.op_text(rs)} reads LDS "
                            f"{self._slot(slot)} written by {self.op_text(w)} at {w.where()}, "
                            f"which no vmcnt wait of {who} ever covers", "vmcnt", ws.origin, g)
                return
            if not self.happens_before(g, cover, gr, rs.pos):
                c = grp.steps[cover]
                self.hazard("raw", gr, rs, f"{self.at(gr, rs)}: {self.op_text(rs)} reads LDS "
                            f"{self._slot(slot)} written by {self.op_text(w)} at {w.where()}; "
                            f"the vmcnt wait of {who} covering that load ({c.where()}) is not "
                            f"followed by a barrier before the read"
                            + self._scales_left(g, wp, w, (gr, rs.pos)), "vmcnt", ws.origin, g)
                return

    def _check_war(self, gr, rs, slot, nxt) -> None:
        own = self.groups[gr]
        cover = own.lgkm_done.get(rs.pos)
        for g, grp in enumerate(self.groups):
            np_ = grp.by_origin[nxt.origin]
            n = grp.steps[np_]
            who = f" of warp group {g}" if len(self.groups) > 1 else ""
            if cover is None:
                self.hazard("war", gr, rs, f"{self.at(gr, rs)}: {self.op_text(rs)} reads LDS "
                            f"{self._slot(slot)}, no lgkmcnt wait ever covers the read, and "
                            f"{self.op_text(n)}{who} at {n.where()} overwrites the slot",
                            "lgkmcnt", nxt.origin, g)
                return
            if not self.happens_before(gr, cover, g, np_):
                c = own.steps[cover]
                self.hazard("war", gr, rs, f"{self.at(gr, rs)}: {self.op_text(rs)} reads LDS "
                            f"{self._slot(slot)} (completed by the lgkmcnt wait at {c.where()}); "
                            f"{self.op_text(n)}{who} at {n.where()} may overwrite the slot "
                            f"before that: no barrier separates the wait from the load"
                            + self._scales_left(gr, rs.pos, rs, (g, np_)), "lgkmcnt",
                            nxt.origin, g)
                return

    def _scales_left(self, g: int, pos: int, load: Step, later: tuple) -> str:
        """What an MX load's message adds when a wait of warp group ``g`` that a barrier
        separates from ``later`` (group, position) completed the load at ``pos`` only in
        part, leaving in flight no more than its last instructions, the scale DMAs or scale
        reads (which an MX kernel issues after the element ones): that wait, one too weak
        for the scales.  Empty otherwise."""
        global_load = role_of(load.op) == OpRole.GLOBAL_LOAD
        ch = channel_of(load.op)
        scales = (self.shape.scale_loads if global_load else self.shape.scale_reads)[ch]
        grp = self.groups[g]
        waits = [(at, left) for at, left in grp.partial.get(pos, ())
                 if self.happens_before(g, at, *later)]
        if not scales or not waits or waits[-1][1] > scales:
            return ""
        at, left = waits[-1]
        what = "scale DMA" if global_load else "scale read"
        return (f" (the wait at {grp.steps[at].where()} leaves its last {left} "
                f"instruction{'s' * (left > 1)} in flight: {what}{'s' * (left > 1)})")

    def check_result(self) -> None:
        tiles = list(range(2 * (self.n + 1)))
        accs = {(r, c) for _, entries in self.plan.phases() for e in entries
                if role_of(e.op) == OpRole.COMPUTE for r, c in [(e.op.stage, e.op.subtile)]}
        for g in range(len(self.groups)):
            for r, c in accs:
                self.result.accumulators.setdefault((g, r, c), [])
        for (g, r, c), got in sorted(self.result.accumulators.items()):
            if sorted(got) != tiles:
                grp = f" of warp group {g}" if self.shape.groups > 1 else ""
                self.result.hazards.append(Hazard(
                    "data-flow", f"accumulator ({r},{c}){grp}: received K tiles {sorted(got)}; "
                    f"with {iterations_text(self.n)} it must receive tiles 0..{tiles[-1]} "
                    f"once each", self.n, g))

    def run(self) -> RunResult:
        for gi in range(len(self.groups)):
            self.run_group(gi)
        counts = self.result.barriers
        if len(set(counts)) > 1:
            detail = ", ".join(f"warp group {g}: {n}" for g, n in enumerate(counts))
            self.result.hazards.insert(0, Hazard(
                "deadlock", f"deadlock: the warp groups run different numbers of s_barrier "
                f"({detail}); the workgroup never leaves the last barrier", self.n))
            return self.result
        self.check_memory()
        self.check_result()
        self.result.hazards.sort(key=_order_key(self))
        return self.result


def iterations_text(n: int) -> str:
    return f"{n} main-loop iteration{'' if n == 1 else 's'}"


def _order_key(run: KernelRun):
    def key(h: Hazard):
        if h.kind in ("deadlock", "data-flow"):   # the cause first, its consequence last
            return (0 if h.kind == "deadlock" else 2, 0, max(h.group, 0))
        grp = run.groups[h.group]
        pos = grp.by_origin.get((h.phase, h.iteration, h.entry), len(grp.steps))
        return (1, grp.steps[pos].epoch if pos < len(grp.steps) else 1 << 30, h.group)
    return key


def simulate(compiled, shape: KernelShape, iterations=range(0, 7),
             emitted: bool = False) -> SimulationResult:
    """Run the compiled schedule ``compiled`` (or a parsed dump, or a kernel plan) on the
    kernel ``shape`` for each main-loop iteration count (a count the kernel never runs,
    below its ``min_trips`` or above its ``max_trips``: not run, :func:`runs`);
    ``emitted``: the kernel the lowering emits from it, not the schedule as printed
    (:func:`~pipeline_mlir.sim.trace.plan_of`)."""
    plan_of(compiled, shape)     # the kernel plan checks the stagger index first
    return SimulationResult(shape, [KernelRun(compiled, shape, n, emitted).run()
                                    for n in iterations if runs(shape, n)])


def runs(shape: KernelShape, n: int) -> bool:
    """Whether the kernel ``shape`` may run its main loop ``n`` times (``min_trips`` to
    ``max_trips``): the counts the simulator and the repair run."""
    return shape.min_trips <= n and (shape.max_trips is None or n <= shape.max_trips)
