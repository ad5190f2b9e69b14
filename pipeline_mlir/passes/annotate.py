"""``sched-annotate``: fill each body op's cost fields from the target cost model."""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect.ir_io import entry_attrs

from pipeline_mlir.passes._common import SchedPass


class Annotate(SchedPass):
    name = "sched-annotate"
    summary = "set resource/latency/role/vm/lgkm/vgpr attributes from the schedule's cost model"
    produces = "annotated"

    def run_pipeline(self, p) -> None:
        s = p.schedule_object()
        for op, desc in zip(p.body_ops, stages.annotate(s, p.body)):
            for k, v in entry_attrs(desc, p.schedule_name)[1].items():
                op.attributes[k] = v
