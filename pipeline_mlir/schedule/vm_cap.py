"""Global-load waits capped at what ``vmcnt`` holds, for schedules that keep more DMAs in
flight than the counter counts.

A schedule whose global loads each take many narrow DMA instructions (the 4-wave kernel's
``dma=dword``: four ``buffer_load_dword ... lds`` per ``buffer_load_dwordx4``) can derive
a ``WAIT_VM`` that leaves more loads in flight than gfx950's 6-bit ``vmcnt`` holds (two
blocks of 32 dword DMAs are 64; the limit is 63).  Global loads complete in order, so a
smaller count is a stronger wait: :func:`cap_vm_waits` lowers every such count to the
limit, completing the extra loads early rather than overflowing the field.  Schedules
that do not ask for it (:attr:`PipelineSchedule.cap_vm_waits`) keep the error of
:func:`pipeline_mlir.schedule.stages.check_wait_limits`.  No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.records import replace
from pipeline_mlir.schedule.types import WAIT_VM, OpDesc, ScheduleEntry
from pipeline_mlir.target.gfx950 import VMCNT_MAX


def cap_vm_waits(entries: list[ScheduleEntry]) -> list[ScheduleEntry]:
    """``entries`` with every ``WAIT_VM`` count over :data:`VMCNT_MAX` lowered to it (a
    stronger wait: loads complete in order); every other entry unchanged."""
    return [replace(e, op=OpDesc.wait_vm(VMCNT_MAX))
            if e.op.tag == WAIT_VM and e.op.wait_value > VMCNT_MAX else e for e in entries]


__all__ = ["cap_vm_waits"]
