"""``sched-reorder``: the schedule's body reorder (SPEC 3.3).

Ping-pong interleaves each half into MMA blocks (``double_buffer_reorder``);
single-buffer applies ``single_buffer_reorder`` and ``optimize_within_barriers``;
4-wave keeps the declared order.  The IR ops are moved, not recreated, so they
keep their locations.
"""

from __future__ import annotations

from pipeline_mlir import stages

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import create_entry

from ._common import SchedPass, in_context, match_ops


class Reorder(SchedPass):
    name = "sched-reorder"
    summary = "reorder the body as the schedule prescribes (ping-pong MMA-block interleave)"
    requires, produces = "annotated", "reordered"

    @in_context
    def run_pipeline(self, p) -> None:
        new_body = stages.reorder(p.schedule_object(), p.body)
        matched = match_ops(p, new_body)
        kept = {id(o) for o in matched if o is not None}
        anchor = None
        for op, desc in zip(matched, new_body):
            if op is None:  # a control op the reorder added
                ip = ir.InsertionPoint(p.block) if anchor is None else None
                with (ip or ir.InsertionPoint.at_block_begin(p.block)), p.op.location:
                    op = create_entry(desc, p.schedule)
            if anchor is None:
                op.move_before(_first_op(p.block))
            else:
                op.move_after(anchor)
            anchor = op
        for op in p.body_ops:  # control ops the reorder replaced
            if id(op) not in kept:
                op.erase()


def _first_op(block):
    for op in block.operations:
        return op.operation if hasattr(op, "operation") else op
    return None
