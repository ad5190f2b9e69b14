"""``sched-derive-edges``: FLOW/ANTI dependency edges with loop distance.

The edges are stored on the pipeline as ``edges = ["P->C<kind><distance>", ...]``
(kind F flow, A anti, O output), indices into the body in its current order.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.ir_io import set_attr

from pipeline_mlir.passes._common import SchedPass


class DeriveEdges(SchedPass):
    name = "sched-derive-edges"
    summary = "derive the dependency edges of the body (edge-rule table, 4-wave cross-stage edges)"
    produces = "edges"

    def run_pipeline(self, p) -> None:
        edges = stages.edges(p.schedule_object(), p.body)
        set_attr(p.op, "edges", S.STRS, [str(e) for e in edges])
