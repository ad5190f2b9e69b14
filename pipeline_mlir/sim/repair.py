"""Make a kernel's schedule hazard-free: the waits and barriers the functional model asks for.

The printed schedule stays the reference's; the *kernel* runs a copy of its phases
with the fixes below inserted, so it has none of the hazards
:func:`~pipeline_mlir.sim.functional.simulate` finds for 0..6 main-loop iterations.

* **RAW** (a fragment read of LDS data whose covering ``vmcnt`` wait is not followed
  by a barrier before the read in some wave): when every wave's covering wait comes
  before the read, a ``BARRIER`` (with a ``SCHED_BARRIER`` after it, so that LLVM
  keeps every instruction on its side) right after that wait if it is in the same phase and
  iteration as the read (one barrier then serves every later read), else right
  before the read; when no wait covers the load before the read, ``WAIT_VM(n)`` and
  a ``BARRIER`` before the read, ``n`` the loosest count that covers it (the vm
  instructions issued after the load).
* **WAR** (a load may overwrite a slot before a fragment read of it has completed
  and a barrier separated the two): ``WAIT_LGKM(n)`` before the last barrier that lies
  between the read and the load in the load's phase, ``n`` the lgkm instructions
  issued after the read up to that barrier; with no such barrier,
  ``WAIT_LGKM(n)`` and a ``BARRIER`` before the load.

Each fix is inserted into the phase list (so a kernel-phase fix runs in every
iteration), then everything is simulated again, until no hazard is left.  Hazards no
wait or barrier can fix (counter overflow, deadlock, wrong K tiles) are errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.schedule.types import (BARRIER, MAX_KERNEL_TAG, SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc,
                     OpRole, Phase, ScheduleEntry, default_op_name)
from pipeline_mlir.sim.functional import KernelRun, iterations_text, simulate
from pipeline_mlir.sim.trace import KernelShape, channel_of, role_of

#: an inserted barrier is followed by a schedule barrier, so that LLVM keeps every
#: instruction on its side of it
_BARRIER = (OpDesc.barrier(), OpDesc.schedule_barrier())
PHASES = {"prologue": Phase.PROLOGUE, "kernel": Phase.KERNEL, "epilogue": Phase.EPILOGUE}
MAX_FIXES = 64


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


def _fix_raw(run: KernelRun, h) -> tuple[str, int, tuple[OpDesc, ...]]:
    gi = h.group
    own = run.groups[gi]
    rpos = own.by_origin[(h.phase, h.iteration, h.entry)]
    covers = []
    for grp in run.groups:
        wpos = grp.by_origin[h.load]
        covers.append(grp.vm_done.get(wpos))
    rpos_in = [grp.by_origin[(h.phase, h.iteration, h.entry)] for grp in run.groups]
    if all(c is not None and c < r for c, r in zip(covers, rpos_in)):
        c = own.steps[covers[gi]]
        if (c.phase, c.iteration) == (h.phase, h.iteration) and c.entry >= 0:
            return h.phase, c.entry + 1, _BARRIER
        return h.phase, h.entry, _BARRIER
    n = _units(run, gi, own.by_origin[h.load], rpos, OpRole.GLOBAL_LOAD)
    return h.phase, h.entry, (OpDesc.wait_vm(n),) + _BARRIER


def _fix_war(run: KernelRun, h) -> tuple[str, int, tuple[OpDesc, ...]]:
    gi = h.group
    own = run.groups[gi]
    rpos = own.by_origin[(h.phase, h.iteration, h.entry)]
    lphase, lit, lentry = h.load
    wpos = own.by_origin[h.load]
    barriers = [s for s in own.steps[rpos + 1:wpos]
                if s.op.tag == BARRIER and (s.phase, s.iteration) == (lphase, lit)
                and s.entry >= 0]
    if barriers:
        b = barriers[-1]
        n = _units(run, gi, rpos, b.pos, OpRole.FRAGMENT_LOAD)
        return lphase, b.entry, (OpDesc.wait_lgkm(n),)
    n = _units(run, gi, rpos, wpos, OpRole.FRAGMENT_LOAD)
    return lphase, lentry, (OpDesc.wait_lgkm(n),) + _BARRIER


def repair(schedule, shape: KernelShape, iterations=range(0, 7)) -> RepairedSchedule:
    """The phases a kernel must run so that ``schedule`` is hazard-free on ``shape``."""
    names = dict(getattr(schedule, "tag_names", {}) or {})
    out = RepairedSchedule(schedule.warp_stagger_index, list(schedule.prologue),
                           list(schedule.kernel), list(schedule.epilogue),
                           getattr(schedule, "name", ""), names, [])
    seen = set()
    for _ in range(MAX_FIXES):
        res = simulate(out, shape, iterations)
        h = res.first_hazard()
        if h is None:
            return out
        run = KernelRun(out, shape, h.iterations)
        run.run()
        if h.kind == "raw":
            where = _fix_raw(run, h)
        elif h.kind == "war":
            where = _fix_war(run, h)
        else:
            when = ("" if "main-loop iteration" in h.message
                    else f" (with {iterations_text(h.iterations)})")
            raise RepairError(f"the kernel cannot run this schedule safely, and no wait or "
                              f"barrier fixes it: {h.message}{when}")
        phase, index, ops = where
        if where in seen:
            raise RepairError(f"inserting {' + '.join(map(_op_text, ops))} before {phase} entry "
                              f"{index} did not remove the hazard: {h.message}")
        seen.add(where)
        entries = out.phase_list(phase)
        index, ops, replaces = _tighten(entries, index, ops)
        before = _entry_text(entries[index], names) if index < len(entries) else "its end"
        entries[index:index + replaces] = [ScheduleEntry(op, -1, PHASES[phase]) for op in ops]
        if phase == "prologue" and index < out.warp_stagger_index:
            out.warp_stagger_index += len(ops) - replaces
        out.fixes.append(Fix(phase, index, ops, before, h.message, replaces))
    raise RepairError(f"more than {MAX_FIXES} fixes needed; giving up")


def _tighten(entries, index, ops):
    """A lone wait inserted right after a run of waits that holds one of the same counter
    tightens that wait instead (``s_waitcnt`` values only ever get smaller)."""
    if len(ops) != 1 or ops[0].tag not in (WAIT_VM, WAIT_LGKM):
        return index, ops, 0
    i = index - 1
    while i >= 0 and entries[i].op.tag in (WAIT_VM, WAIT_LGKM):
        if entries[i].op.tag == ops[0].tag:
            value = min(entries[i].op.wait_value, ops[0].wait_value)
            return i, (entries[i].op.with_(wait_value=value),), 1
        i -= 1
    return index, ops, 0


def _entry_text(e: ScheduleEntry, names: dict) -> str:
    op = e.op
    name = default_op_name(op.tag, names)
    if op.tag <= MAX_KERNEL_TAG:
        return f"{name} s={op.stage} sub={op.subtile}"
    return name
