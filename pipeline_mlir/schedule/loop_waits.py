"""A vmcnt wait at the end of the main loop that the loop's head repeats moves to its exit.

The 4-wave schedules end each half with ``WAIT_VM(n) MMA``: the wait makes this wave's
global->LDS loads land before the next half's barrier, and the next half (the loop's
head, on the back edge) opens with ``WAIT_VM(m)``, ``m <= n``, before that barrier.  On
the back edge the first wait does nothing the second does not do first, since only
MMAs, priorities, compiler fences and waits on the other counter separate them: none of
them touches memory, and an MMA reads registers the fragment loads wrote, never what a
global load brings.  The wait only delays the MMA (and, in the lowered kernel, keeps it
out of the scheduling region of the loads before it).

So the wait leaves the loop body, and the loop's exit gets it instead: it goes at the
epilogue's start, where it guards everything the epilogue does exactly as it did at the
end of the last iteration.  Where the epilogue's leading waits already hold a vmcnt
wait as strict, nothing is added; a weaker one is tightened.  A main loop that runs
zero times then runs one wait more than before, which never makes a kernel wrong.

lgkmcnt waits stay: an MMA after one may read the fragments it waits for.

Plain Python on op lists (no MLIR); ``sim/repair.py`` applies it as the last step of
the kernel's repair, so ``sched-fix-hazards``, the simulator and the kernel agree.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from pipeline_mlir.schedule.types import SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc, OpRole

#: what may follow the moved wait up to the loop's end: MMAs, priorities, compiler
#: fences (and waits on the other counter)
_PASSABLE_ROLES = (OpRole.COMPUTE, OpRole.FENCE)


class ExitWait(NamedTuple):
    """Kernel entries ``start..stop-1`` leave the loop: the wait ``op``, and the schedule
    barriers around it when it was wrapped in one on each side (they fenced only the
    wait); the epilogue gets ``op`` at ``epilogue_index``, replacing ``replaces`` entries
    there (1: it tightens the wait there), or needs nothing (``epilogue_index`` None: its
    own waits are as strict)."""

    start: int
    stop: int
    op: OpDesc
    epilogue_index: int | None
    replaces: int = 0


def _leading_waits(ops: Sequence[OpDesc]) -> list[int]:
    """Indices of the waits before the first entry that is neither a wait nor a fence."""
    out = []
    for i, op in enumerate(ops):
        if op.tag in (WAIT_VM, WAIT_LGKM):
            out.append(i)
        elif op.role != OpRole.FENCE:
            break
    return out


def loop_exit_wait(kernel: Sequence[OpDesc], epilogue: Sequence[OpDesc]) -> ExitWait | None:
    """The vmcnt wait of the loop body ``kernel`` that moves to its exit, or None.

    It is the last vmcnt wait of the body (with the schedule barriers around it when
    there is one on each side) when everything after it is an MMA, a fence, a
    priority or an lgkmcnt wait, and the body's leading waits (before its first entry
    other than a wait or fence) hold a vmcnt wait at least as strict."""
    last = None
    for i in range(len(kernel) - 1, -1, -1):
        op = kernel[i]
        if op.tag == WAIT_VM:
            last = i
            break
        if op.role not in _PASSABLE_ROLES and op.tag != WAIT_LGKM:
            return None
    if last is None:
        return None
    wait = kernel[last]
    head = [i for i in _leading_waits(kernel) if i < last]
    if not any(kernel[i].tag == WAIT_VM and kernel[i].wait_value <= wait.wait_value
               for i in head):
        return None
    start, stop = last, last + 1
    if 0 < last < len(kernel) - 1 and \
            kernel[last - 1].tag == kernel[last + 1].tag == SCHEDULE_BARRIER:
        start, stop = last - 1, last + 2
    for i in _leading_waits(epilogue):
        if epilogue[i].tag == WAIT_VM:
            if epilogue[i].wait_value <= wait.wait_value:
                return ExitWait(start, stop, wait, None)
            return ExitWait(start, stop, wait, i, 1)
    return ExitWait(start, stop, wait, 0)


__all__ = ["ExitWait", "loop_exit_wait"]
