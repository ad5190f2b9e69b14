"""``sched-derive-waits``: MMA-centred blocks and their vmcnt/lgkmcnt waits.

Builds the blocks from the scheduled order, redistributes globals, derives the
top-of-half lgkm wait and the last-block vm wait and patches them in; the result
is a ``sched.program`` of ``sched.block`` ops.  Single-buffer schedules have no
blocks: the pass only advances their state.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect.ir_io import write_program

from pipeline_mlir.passes._common import SchedPass, location_index


class DeriveWaits(SchedPass):
    name = "sched-derive-waits"
    summary = "build the MMA blocks of the scheduled order and derive their s_waitcnt counts"
    produces = "blocks"

    def run_pipeline(self, p) -> None:
        s = p.schedule_object()
        if not stages.is_double_buffer(s):
            return
        order = p.order or list(range(len(p.body)))
        program, waits = stages.blocks(s, p.body, p.edges, order)
        write_program(p.block, program, waits, p.schedule_name, location_index(p))
