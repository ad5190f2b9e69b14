"""``sched-schedule``: order the body (IDENTITY, GREEDY or the exact CSP).

Stores ``order = array<i64: ...>`` (body indices in issue order) and, for the
CSP, ``makespan``, ``lower_bound``, ``proven_optimal``, ``search_nodes``, ``vgpr_peak``
and ``stopped_by_budget``.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.ir_io import set_attr

from pipeline_mlir.passes._common import SchedPass


class Schedule(SchedPass):
    name = "sched-schedule"
    summary = "order the body ops with the configured strategy (identity, greedy, csp)"
    produces = "scheduled"

    def run_pipeline(self, p) -> None:
        order, result = stages.order(p.schedule_object(), p.body, p.edges)
        set_attr(p.op, "order", S.INTS, order)
        if result is not None:
            set_attr(p.op, "makespan", S.INT, result.makespan)
            set_attr(p.op, "lower_bound", S.INT, result.lower_bound)
            set_attr(p.op, "proven_optimal", S.BOOL, result.proven_optimal)
            set_attr(p.op, "search_nodes", S.INT, result.nodes)
            set_attr(p.op, "vgpr_peak", S.INT, result.vgpr_peak)
            set_attr(p.op, "stopped_by_budget", S.BOOL, result.stopped_by_budget)
