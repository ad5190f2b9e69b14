"""``sched-explicit-blocks``: per-block explicit op lists (4-wave minimal-barrier blocks).

Schedules that expand their blocks from the template (ping-pong) are left as
they are; 4-wave blocks get a second region with the ops in emission order.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect.ir_io import write_program

from pipeline_mlir.passes._common import SchedPass, location_index


class ExplicitBlocks(SchedPass):
    name = "sched-explicit-blocks"
    summary = "attach the schedule's explicit block op lists (4-wave) to the program"
    produces = "explicit"

    def run_pipeline(self, p) -> None:
        if p.program is None:
            return
        lists = stages.explicit(p.schedule_object(), p.body, p.program)
        if not lists:
            return
        p.program.explicit_blocks = lists
        new = write_program(p.block, p.program, p.waits, p.schedule_name, location_index(p))
        new.move_before(p.program_op)
        p.program_op.erase()
