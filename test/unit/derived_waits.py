"""The negative both kinds of lowered wait share (``OpDesc.derived_count``: vm_cap's room-left
vmcnt waits, stages.cap_long_load_waits' lgkmcnt(15)): the repaired schedule a kernel runs,
then its lowered loop waits set one instruction over the count they were derived as."""

from __future__ import annotations

from pipeline_mlir.kernel.plan import kernel_shape
from pipeline_mlir.records import replace
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.repair import repair


def hazards_past_derived(spec: str, iterations=range(0, 4)) -> tuple[bool, set[str]]:
    """Whether the repaired schedule of ``spec`` is safe, and the simulator's hazard kinds
    with every main-loop wait that records a derived count set to that count + 1 (nothing
    changed, and so no hazard, when none records one)."""
    named = parse_pipeline(spec)
    shape = kernel_shape(named)
    fixed = repair(named.compile(), shape, iterations)
    safe = simulate(fixed, shape, iterations).safe
    fixed.kernel[:] = [replace(e, op=e.op.with_(wait_value=e.op.derived_count + 1))
                       if e.op.derived_count is not None else e for e in fixed.kernel]
    return safe, {h.kind for h, _ in simulate(fixed, shape, iterations).distinct_hazards()}
