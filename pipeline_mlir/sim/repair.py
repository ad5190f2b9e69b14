r"""Make a kernel's schedule hazard-free: the waits and barriers the functional model asks for.

The printed schedule stays the reference's; the *kernel* runs a copy of its phases
with the fixes below inserted, so it has none of the hazards
:func:`~pipeline_mlir.sim.functional.simulate` finds for 0..6 main-loop iterations.

Between waves, "happens before" needs barriers: inside one warp group one barrier
between the two events; between the ping-pong kernel's two warp groups, which run one
barrier apart (warp group 1's extra barrier in the prologue), one more than the first
event's group is ahead of the second's in barrier count -- two when warp group 1's
event must precede one of warp group 0 at about the same schedule entry, none
otherwise.  Fixes only ever insert entries into the phase lists both groups run, so
the groups keep passing the same number of barriers.

* **RAW** (a fragment read of LDS data whose covering ``vmcnt`` wait, in some group,
  is not enough barriers before the read): when every group's covering wait comes
  before the read, the missing ``BARRIER``\ s (each with a ``SCHED_BARRIER`` after it,
  so that LLVM keeps every instruction on its side) right after the latest of those
  waits if it is in the same phase and iteration as the read (they then serve every
  later read), else right before the read; when no wait covers the load before the
  read, ``WAIT_VM(n)`` and the barriers before the read, ``n`` the loosest count that
  covers it (the vm instructions issued after the load).
* **WAR** (a load of some group may overwrite a slot before a fragment read of it has
  completed and enough barriers separated the two): ``WAIT_LGKM(n)`` before the latest
  barrier of the load's phase between the read and the load that is far enough ahead
  of the load, ``n`` the lgkm instructions issued after the read up to that barrier;
  with none far enough, the missing barriers before the load first; with none at all,
  ``WAIT_LGKM(n)`` and the barriers before the load.
* **Counters**: nothing to fix: a load that would make more instructions outstanding than
  its counter holds stalls until the oldest completes (the simulator models it, no hazard).

Each fix is inserted into the phase list (so a kernel-phase fix runs in every
iteration), then the iteration counts are simulated again in order, up to the first one
whose run has a hazard (the one fixed next), until no count has any.

A kernel whose main loop runs no trip (``KernelShape.max_trips`` 0: a pipelined loop whose
constant bounds leave it none, :mod:`pipeline_mlir.lowering.straight_pair`) runs only that
path, without the zero-trip fence: the epilogue's vmcnt waits, the schedule's drain of the
last iteration's copies, are derived for the prologue's copies instead
(:func:`_straight_epilogue`; the RAW fix then completes the read's whole K tile).

Last, a vmcnt wait at the end of the main loop that the loop's head repeats moves to the
loop's exit (:func:`~pipeline_mlir.schedule.loop_waits.loop_exit_wait`: two fixes, the
wait out of the kernel phase and into the epilogue's start), so the MMA after it no
longer waits for loads it does not read.  Hazards no
wait or barrier can fix (a wait over a counter's limit -- the lowering refuses it, never
clamps it --, deadlock, wrong K tiles) are errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.wait_order import COUNTER_OF_WAIT, inside_waits
from pipeline_mlir.schedule.loop_waits import loop_exit_wait
from pipeline_mlir.schedule.types import (BARRIER, MAX_KERNEL_TAG, SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc,
                     OpRole, Phase, ScheduleEntry, default_op_name)
from pipeline_mlir.sim.functional import KernelRun, iterations_text, runs
from pipeline_mlir.sim.trace import KernelShape, channel_of, plan_of, role_of
from pipeline_mlir.target.gfx950 import VMCNT_MAX

#: an inserted barrier is followed by a schedule barrier, so that LLVM keeps every
#: instruction on its side of it
_BARRIER = (OpDesc.barrier(), OpDesc.schedule_barrier())
PHASES = {"prologue": Phase.PROLOGUE, "kernel": Phase.KERNEL, "epilogue": Phase.EPILOGUE}
MAX_FIXES = 128


class RepairError(PipelineError):
    """A hazard that no inserted wait or barrier removes."""


@dataclass(frozen=True)
class Fix:
    """``ops`` replace the ``replaces`` entries from entry ``index`` of ``phase`` (0: they
    are inserted before it); indices are those of the list at the time of the fix."""

    phase: str
    index: int
    ops: tuple[OpDesc, ...]
    before: str          # the entry the ops precede (or replace), as text
    reason: str          # the hazard it removes
    replaces: int = 0

    def describe(self) -> str:
        if not self.ops:
            n = self.replaces
            where = (f"entry {self.index}" if n == 1 else
                     f"entries {self.index}..{self.index + n - 1}")
            return f"{self.phase} {where} ({self.before}) removed: {self.reason}"
        what = " + ".join(_op_text(o) for o in self.ops)
        verb = "replaces" if self.replaces else "before"
        return f"{what} {verb} {self.phase} entry {self.index} ({self.before}): {self.reason}"


@dataclass
class RepairedSchedule:
    """The kernel's phases: the schedule's with the fixes inserted."""

    warp_stagger_index: int
    prologue: list[ScheduleEntry]
    kernel: list[ScheduleEntry]
    epilogue: list[ScheduleEntry]
    name: str
    tag_names: dict
    fixes: list[Fix]

    def phases(self):
        return [(Phase.PROLOGUE, self.prologue), (Phase.KERNEL, self.kernel),
                (Phase.EPILOGUE, self.epilogue)]

    def phase_list(self, name: str) -> list[ScheduleEntry]:
        return {"prologue": self.prologue, "kernel": self.kernel, "epilogue": self.epilogue}[name]


def _op_text(op: OpDesc) -> str:
    if op.tag == WAIT_VM:
        return f"WAIT_VM({op.wait_value})"
    if op.tag == WAIT_LGKM:
        return f"WAIT_LGKM({op.wait_value})"
    if op.tag == SCHEDULE_BARRIER:
        return "SCHED_BARRIER"
    return "BARRIER" if op.tag == BARRIER else f"tag {op.tag}"


def _units(run: KernelRun, gi: int, after: int, before: int, role: OpRole) -> int:
    """vm (global loads) or lgkm (fragment loads) instructions issued strictly between
    two positions of group ``gi``'s trace."""
    shape = run.shape
    n = 0
    for s in run.groups[gi].steps[after + 1:before]:
        if role_of(s.op) == role:
            costs = shape.vm_per_load if role == OpRole.GLOBAL_LOAD else shape.lgkm_per_load
            n += costs[channel_of(s.op)]
    return n


def _offset(run: KernelRun, a: int, b: int, origin: tuple) -> int:
    """How many more barriers warp group ``a`` has passed than group ``b`` at the same
    schedule entry (the ping-pong stagger: group 1 runs one extra barrier in the prologue,
    so from there on it is one barrier ahead in count and one block behind in time)."""
    ga, gb = run.groups[a], run.groups[b]
    return ga.steps[ga.by_origin[origin]].epoch - gb.steps[gb.by_origin[origin]].epoch


def _barriers_between(run: KernelRun, gi: int, after: int, before: int) -> list:
    """The schedule's own barriers (not the stagger/realign ones) strictly between two
    positions of group ``gi``'s trace."""
    return [s for s in run.groups[gi].steps[after + 1:before]
            if s.op.tag == BARRIER and s.entry >= 0]


def _need(run: KernelRun, a: int, b: int, origin: tuple) -> int:
    """Barriers that must lie between an event of group ``a`` and a later event of group
    ``b`` (both at about ``origin``, counted in the trace of the group that runs both
    points) for the first to happen before the second: one more than ``a`` is ahead of
    ``b`` in barrier count there (none inside one single-wave group)."""
    if a == b and run.shape.waves_per_group == 1:
        return 0
    return 1 + _offset(run, a, b, origin)


def _fix_raw(run: KernelRun, h,
             whole_tile: bool = False) -> tuple[str, int, tuple[OpDesc, ...]]:
    """Every group's covering vmcnt wait must precede the read by enough barriers.  With
    ``whole_tile`` (a main loop of no trip) a missing wait completes every copy of the read
    copy's K tile issued before the read, so that one wait and its barriers serve each read
    of that tile (the next tile's copies left in flight)."""
    gi = h.group
    own = run.groups[gi]
    rorigin = (h.phase, h.iteration, h.entry)
    rpos = own.by_origin[rorigin]
    more, missing_wait, latest = 0, False, None
    for g, grp in enumerate(run.groups):
        cover = grp.vm_done.get(grp.by_origin[h.load])
        if cover is None or cover > grp.by_origin[rorigin]:
            missing_wait = True
            continue
        corigin = grp.steps[cover].origin
        cpos = own.by_origin[corigin]
        have = own.steps[rpos].epoch - own.steps[cpos].epoch
        want = _need(run, g, gi, corigin)
        if want > have:
            more = max(more, want - have)
            latest = cpos if latest is None else max(latest, cpos)
    if missing_wait:
        load = own.by_origin[h.load]
        if whole_tile:
            tile = own.steps[load].k_tile
            load = max(s.pos for s in own.steps[:rpos]
                       if role_of(s.op) == OpRole.GLOBAL_LOAD and s.k_tile == tile)
        n = _units(run, gi, load, rpos, OpRole.GLOBAL_LOAD)
        want = max(_need(run, g, gi, rorigin) for g in range(len(run.groups)))
        return h.phase, h.entry, (OpDesc.wait_vm(n),) + _BARRIER * max(1, want)
    c = own.steps[latest]
    if (c.phase, c.iteration) == (h.phase, h.iteration) and c.entry >= 0:
        return h.phase, c.entry + 1, _BARRIER * more
    return h.phase, h.entry, _BARRIER * more


def _fix_war(run: KernelRun, h) -> tuple[str, int, tuple[OpDesc, ...]]:
    """The read's covering lgkmcnt wait must precede the load of group ``h.peer`` by enough
    barriers: the wait goes before the latest barrier of the schedule between read and load
    that is far enough ahead of the load; with none, barriers go before the load first."""
    gi = h.group
    own = run.groups[gi]
    rpos = own.by_origin[(h.phase, h.iteration, h.entry)]
    lphase, lit, lentry = h.load
    wpos = own.by_origin[h.load]
    want = _need(run, gi, h.peer if h.peer >= 0 else gi, h.load)
    lepoch = own.steps[wpos].epoch
    # the fix goes into the load's phase (and so into every main-loop iteration)
    bars = [b for b in _barriers_between(run, gi, rpos, wpos) if (b.phase, b.iteration) ==
            (lphase, lit)]
    far = [b for b in bars if lepoch - b.epoch >= want]
    if far:
        b = far[-1]
        n = _units(run, gi, rpos, b.pos, OpRole.FRAGMENT_LOAD)
        return lphase, b.entry, (OpDesc.wait_lgkm(n),)
    if not bars:
        n = _units(run, gi, rpos, wpos, OpRole.FRAGMENT_LOAD)
        return lphase, lentry, (OpDesc.wait_lgkm(n),) + _BARRIER * max(1, want)
    return lphase, lentry, _BARRIER * (want - (lepoch - bars[0].epoch))


def repair(compiled, shape: KernelShape, iterations=range(0, 7)) -> RepairedSchedule:
    """The phases a kernel must run so that the compiled schedule ``compiled`` is
    hazard-free on ``shape``.  Every entry is run as printed, the epilogue's reads the
    lowering leaves out (:mod:`pipeline_mlir.kernel.unread_frags`) too: the fixes go into
    the phases the lowering reads before it decides which reads it emits."""
    names = dict(getattr(compiled, "tag_names", {}) or {})
    out = RepairedSchedule(compiled.warp_stagger_index, list(compiled.prologue),
                           list(compiled.kernel), list(compiled.epilogue),
                           getattr(compiled, "name", ""), names, [])
    seen = set()
    straight = shape.max_trips == 0
    # (an epilogue the path finds no hazard in is already derived for it: a second run)
    kept = _straight_epilogue(out) if straight and \
        _first_hazard(out, shape, iterations)[1] is not None else {}
    for _ in range(MAX_FIXES):
        run, h = _first_hazard(out, shape, iterations)
        if h is None:
            _whole_entries(out, shape)
            if straight:
                _repeat_waits(out, kept)
            else:
                _move_exit_wait(out)
            return out
        if h.kind == "raw":
            where = _fix_raw(run, h, straight)
        elif h.kind == "war":
            where = _fix_war(run, h)
        else:
            when = ("" if "main-loop iteration" in h.message
                    else f" (with {iterations_text(h.iterations)})")
            raise RepairError(f"the kernel cannot run this schedule safely, and no wait or "
                              f"barrier fixes it: {h.message}{when}")
        phase, index, ops = where
        # the same ops at the same place of the same phases again: no progress
        state = (where, tuple(e.op for e in out.prologue), tuple(e.op for e in out.kernel),
                 tuple(e.op for e in out.epilogue))
        if state in seen:
            raise RepairError(f"inserting {' + '.join(map(_op_text, ops))} before {phase} entry "
                              f"{index} did not remove the hazard: {h.message}")
        seen.add(state)
        index, ops, replaces = _tighten(out.phase_list(phase), index, ops)
        _apply(out, phase, index, ops, replaces, h.message)
    raise RepairError(f"more than {MAX_FIXES} fixes needed; giving up")


def _first_hazard(out: RepairedSchedule, shape: KernelShape, iterations):
    """The hazard :func:`~pipeline_mlir.sim.functional.simulate` finds first
    (``SimulationResult.first_hazard``: the first of the first count's run that has any,
    counts in the given order) and that run, or ``(None, None)``; the counts after it are
    not simulated (the next round runs them)."""
    plan_of(out, shape)     # what simulate checks first (the stagger index)
    for n in iterations:
        if not runs(shape, n):
            continue
        run = KernelRun(out, shape, n)
        hazards = run.run().hazards
        if hazards:
            return run, hazards[0]
    return None, None


def _apply(out: RepairedSchedule, phase: str, index: int, ops: tuple, replaces: int,
           reason: str, before: str | None = None) -> None:
    """Put ``ops`` in place of ``replaces`` entries of ``phase`` from ``index`` (the stagger
    index follows a change before it) and record the :class:`Fix`; ``before``: the text
    of the entry it precedes or replaces (default: that entry's)."""
    entries = out.phase_list(phase)
    if before is None:
        before = _entry_text(entries[index], out.tag_names) if index < len(entries) \
            else "its end"
    entries[index:index + replaces] = [ScheduleEntry(op, -1, PHASES[phase]) for op in ops]
    if phase == "prologue" and index < out.warp_stagger_index:
        out.warp_stagger_index += len(ops) - replaces
    out.fixes.append(Fix(phase, index, ops, before, reason, replaces))


def _whole_entries(out: RepairedSchedule, shape: KernelShape) -> None:
    """Each counted wait whose count would complete only part of an entry's instructions
    (their order inside the entry is LLVM's, so no fence pins the cut and the lowering
    refuses it) lowered to the count that completes that entry whole
    (:func:`~pipeline_mlir.kernel.wait_order.inside_waits`): a stronger wait."""
    for (phase, index), n in sorted(inside_waits(plan_of(out, shape)).items()):
        op = out.phase_list(phase)[index].op
        counter = COUNTER_OF_WAIT[op.tag]
        # (a count already below, lowered for speed, keeps its own: pinned at n)
        low = op.with_(wait_value=min(op.wait_value, n),
                       derived_count=n if op.wait_value < n else None)
        _apply(out, phase, index, (low,), 1,
               f"{counter}({op.order_count()}) would complete only part of an entry's "
               f"instructions, whose order inside it is LLVM's: {counter}({n}) completes "
               f"that entry whole")


def _straight_epilogue(out: RepairedSchedule) -> dict:
    """A main loop of no trip (``max_trips`` 0): the epilogue runs right after the prologue,
    whose copies of both K tiles are the ones in flight.  Its vmcnt waits, which drain every
    copy of the last loop iteration before its first MMA, wait for nothing here (the
    counter's most: ``VMCNT_MAX``); the hazard fixes then put before the first fragment read
    of each K tile not yet waited for the loosest wait that completes that tile's copies
    (the copies issued after them left in flight: the second K tile's under the first
    one's MMAs) and the barriers that hand its LDS to every wave (:func:`_fix_raw`), and
    :func:`_repeat_waits` gives the waits kept their counts.  Returns the kept entries by
    their ``id`` (the entries held, so that no other entry takes an ``id`` of theirs)."""
    kept = {}
    for i, e in enumerate(out.epilogue):
        if e.op.tag == WAIT_VM:
            _apply(out, "epilogue", i, (e.op.with_(wait_value=VMCNT_MAX),), 1,
                   "the main loop runs no trip: the prologue's copies are the ones in flight")
            kept[id(out.epilogue[i])] = out.epilogue[i]
    return kept


def _repeat_waits(out: RepairedSchedule, kept: dict) -> None:
    """Each vmcnt wait :func:`_straight_epilogue` kept in the epilogue, still at the
    counter's most, repeats the derived vmcnt wait before it (it waits for nothing more;
    kept where the schedule put it, between a block's fragment reads and its MMA, so that
    the lowering interleaves neither, as in the epilogue after a loop); one with none
    before it goes."""
    for i in range(len(out.epilogue) - 1, -1, -1):
        e = out.epilogue[i]
        if id(e) not in kept:
            continue
        last = next((x.op for x in reversed(out.epilogue[:i]) if x.op.tag == WAIT_VM
                     and id(x) not in kept), None)
        _apply(out, "epilogue", i, () if last is None else (last,), 1,
               "the main loop runs no trip: the derived wait before it, repeated")


def _move_exit_wait(out: RepairedSchedule) -> None:
    """Move the main loop's last vmcnt wait to the loop's exit where the loop's head
    repeats it (:mod:`pipeline_mlir.schedule.loop_waits`)."""
    move = loop_exit_wait([e.op for e in out.kernel], [e.op for e in out.epilogue])
    if move is None:
        return
    removed = out.kernel[move.start:move.stop]
    _apply(out, "kernel", move.start, (), len(removed),
           "the loop's head waits as long before anything that needs it",
           " + ".join(_entry_text(e, out.tag_names) for e in removed))
    if move.epilogue_index is not None:
        _apply(out, "epilogue", move.epilogue_index, (move.op,), move.replaces,
               "the wait moved out of the main loop's end")


def _tighten(entries, index, ops):
    """A lone wait inserted right after a run of waits that holds one of the same counter
    tightens that wait instead (``s_waitcnt`` values only ever get smaller); the result is
    an overflow guard only if both were (a wait that any order relies on stays checked)."""
    if len(ops) != 1 or ops[0].tag not in (WAIT_VM, WAIT_LGKM):
        return index, ops, 0
    i = index - 1
    while i >= 0 and entries[i].op.tag in (WAIT_VM, WAIT_LGKM):
        if entries[i].op.tag == ops[0].tag:
            old, new = entries[i].op, ops[0]
            value = min(old.wait_value, new.wait_value)
            guard = old.overflow_guard and new.overflow_guard
            return i, (old.with_(wait_value=value, overflow_guard=guard),), 1
        i -= 1
    return index, ops, 0


def _entry_text(e: ScheduleEntry, names: dict) -> str:
    op = e.op
    name = default_op_name(op.tag, names)
    if op.tag <= MAX_KERNEL_TAG:
        return f"{name} s={op.stage} sub={op.subtile}"
    return name
