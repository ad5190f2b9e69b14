"""Global-load waits capped at what ``vmcnt`` holds, for schedules that keep more DMAs in
flight than the counter counts.

A schedule whose global loads each take many narrow DMA instructions (the 4-wave kernel's
``dma=dword``: four ``buffer_load_dword ... lds`` per ``buffer_load_dwordx4``) can derive
a ``WAIT_VM`` that leaves more loads in flight than gfx950's 6-bit ``vmcnt`` holds (two
blocks of two loads of 16 dword DMAs are 64; the limit is 63).  Global loads complete in
order, so a smaller count is a stronger wait: :func:`cap_vm_waits` lowers such a count to
the largest one that still leaves whole loads in flight (the DMAs of the most recent loads
whose sum fits the limit: 48 for 64 above, completing one more load), so that every
count still falls between two loads, where the kernel can pin the order of its
instructions (:mod:`pipeline_mlir.kernel.wait_order`).  A wait followed, before the next
``WAIT_VM``, by loads that would then make more DMAs outstanding than the counter holds is
lowered further, to the limit less those loads (two loads of 16 after ``vmcnt(48)``: 31),
and records the whole-load count it replaces (``OpDesc.derived_count``): the count may then
fall inside a load, which is only a stronger wait (it completes everything the whole-load
count completes, and more, once the whole-load count's cut is pinned), and the kernel needs
no guard of its own in front of the loads (``sched-fix-hazards`` would put one there,
fenced, between the block's fragment reads and the MFMAs they feed, so that LLVM could no
longer interleave the two).  The lowered wait stays a counted wait: the order checks
(:mod:`pipeline_mlir.kernel.wait_order`, :mod:`pipeline_mlir.isa.wait_order`) pin the cut of
the recorded count and refuse a count above it.  The prologue is left as derived: its
loads are guarded where it is derived (:func:`pipeline_mlir.schedule.phases._counter_guard`
puts a whole-load wait before each load that would overflow the counter), so that every
prologue wait is a derived count the order checks walk as such, and one rule guards it
(``test/unit/schedule/test_vm_cap.py`` shows that guard leaves this module nothing to
lower there, and that without it the prologue overflows).  Schedules that do not ask for it
(:attr:`PipelineSchedule.cap_vm_waits`) keep the error of
:func:`pipeline_mlir.schedule.stages.check_wait_limits`, but for counts that are an input
kernel's (a concrete pipeline, ``stages.phases``' ``input_counts``: IREE's narrow
register-staged copies), which take the cap where a wait would overflow the counter
rather than have the kernel refused.  No MLIR here.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline_mlir.records import replace
from pipeline_mlir.schedule.types import WAIT_VM, OpDesc, OpRole, ScheduleEntry
from pipeline_mlir.target.gfx950 import VMCNT_MAX


def _whole_loads(before: list[ScheduleEntry], vm_of: Callable[[OpDesc], int],
                 limit: int) -> int:
    """The largest sum of the vmcnt costs of the last global loads of ``before`` (in issue
    order) that is at most ``limit``."""
    total = 0
    for e in reversed(before):
        if e.op.role == OpRole.GLOBAL_LOAD:
            if total + vm_of(e.op) > limit:
                break
            total += vm_of(e.op)
    return total


def _issued_before_wait(after: list[ScheduleEntry], vm_of: Callable[[OpDesc], int]) -> int:
    """The vmcnt entries of the global loads of ``after`` before its first ``WAIT_VM``."""
    n = 0
    for e in after:
        if e.op.tag == WAIT_VM:
            break
        if e.op.role == OpRole.GLOBAL_LOAD:
            n += vm_of(e.op)
    return n


def cap_vm_waits(prologue: list[ScheduleEntry], kernel: list[ScheduleEntry],
                 epilogue: list[ScheduleEntry], vm_of: Callable[[OpDesc], int],
                 limit: int = VMCNT_MAX, guards: bool = True):
    """The three phases, the prologue unchanged (its derivation guards its loads), the
    loop's and the epilogue's every ``WAIT_VM`` count over ``limit`` lowered to the loads
    before it that fit (:func:`_whole_loads`; the loop's waits see the previous iteration
    and then the prologue before them, the epilogue's the last iteration), then every
    ``WAIT_VM`` whose count plus the loads issued before the next one (in its phase) is
    over ``limit`` lowered to the room left, recording the count it had (``derived_count``);
    every other entry
    unchanged.  ``vm_of(op)``: the vmcnt entries of global load ``op``.  ``guards=False``
    keeps the whole-load counts (``sched-fix-hazards`` then puts its own fenced waits in
    front of the loads that would overflow the counter); the kernel is exact either way
    (``test/unit/kernel/test_dword_kernel.py``)."""
    def capped(entries, history):
        out = []
        for i, e in enumerate(entries):
            if e.op.tag == WAIT_VM and e.op.wait_value > limit:
                e = replace(e, op=OpDesc.wait_vm(
                    _whole_loads(history + entries[:i], vm_of, limit)))
            if guards and e.op.tag == WAIT_VM:
                room = limit - _issued_before_wait(entries[i + 1:], vm_of)
                if e.op.wait_value > room >= 0:
                    e = replace(e, op=OpDesc.wait_vm(room).with_(
                        derived_count=e.op.wait_value))
            out.append(e)
        return out

    return (list(prologue), capped(kernel, prologue + kernel),
            capped(epilogue, prologue + kernel))


__all__ = ["cap_vm_waits"]
