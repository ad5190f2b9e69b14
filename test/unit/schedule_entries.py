"""Schedule entries written by hand for the tests of the schedule's wait rules
(``test_dma_lgkm.py``, ``test_merged_reads.py``)."""

from __future__ import annotations

from pipeline_mlir.schedule.targets import MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import OpDesc, OpRole, Phase, ScheduleEntry


def fragment_load(ch: int, sub: int) -> OpDesc:
    """A fragment load of channel ``ch`` (0: A, 1: B), subtile ``sub``."""
    return OpDesc(tag=(MMA_LOAD_A, MMA_LOAD_B)[ch], role=OpRole.FRAGMENT_LOAD, channel=ch,
                  subtile=sub)


def kernel_phase(*ops: OpDesc) -> tuple[ScheduleEntry, ...]:
    """``ops`` as the loop's entries, in order."""
    return tuple(ScheduleEntry(op, i, Phase.KERNEL) for i, op in enumerate(ops))
