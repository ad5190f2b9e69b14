"""``sched-reorder``: the schedule's body reorder.

Ping-pong interleaves each half into MMA blocks (``double_buffer_reorder``);
single-buffer applies ``single_buffer_reorder`` and ``optimize_within_barriers``;
4-wave keeps the declared order.  The IR ops are moved, not recreated, so they
keep their locations.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import create_entry

from pipeline_mlir.passes._common import SchedPass, match_ops


class Reorder(SchedPass):
    name = "sched-reorder"
    summary = "reorder the body as the schedule prescribes (ping-pong MMA-block interleave)"
    produces = "reordered"

    def run_pipeline(self, p) -> None:
        new_body = stages.reorder(p.schedule_object(), p.body)
        matched = match_ops(p, new_body)
        kept = {id(o) for o in matched if o is not None}
        for op in p.body_ops:  # control ops the reorder replaced
            if id(op) not in kept:
                op.erase()
        # in this state the block holds only the body: re-append it in the new order
        ip = ir.InsertionPoint(p.block)
        for op, desc in zip(matched, new_body):
            if op is None:  # a control op the reorder added
                with ip:
                    create_entry(desc, p.schedule_name)
            else:
                op.detach_from_parent()
                ip.insert(op)
