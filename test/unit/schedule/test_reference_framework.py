"""Port of the reference's ``test_pipeline_framework.mojo``: 16 framework-only tests.

One test function per reference test, same names, same expected values.
Deliberate difference: ``LoopBody.validate`` raises :class:`BodyError` (a
``PipelineError``) where the reference raises a generic error.
"""

import pytest

from pipeline_mlir.errors import BodyError
from pipeline_mlir.schedules.geometry import derive_safe_max_globals
from pipeline_mlir.schedule.graph import LoopBody, OpNode
from pipeline_mlir.schedule.phases import (
    single_buffer_epilogue_recipe,
    single_buffer_prologue_recipe,
)
from pipeline_mlir.schedule.evaluate import asap_lower_bound, evaluate_makespan
from pipeline_mlir.schedule.types import DepEdge, DepKind, OpDesc, OpRole, ResourceKind


def _global_load(tag: int, lat: int = 200) -> OpNode:
    return OpNode.of(OpDesc.op(tag, ResourceKind.GLOBAL_MEM, lat, OpRole.GLOBAL_LOAD))


def _frag_load(tag: int, lat: int = 20) -> OpNode:
    return OpNode.of(OpDesc.op(tag, ResourceKind.LDS, lat, OpRole.FRAGMENT_LOAD))


def _mma(tag: int, lat: int = 16) -> OpNode:
    return OpNode.of(OpDesc.op(tag, ResourceKind.MMA_UNIT, lat, OpRole.COMPUTE))


def _chain() -> LoopBody:
    """load(200) -> frag(20) -> mma(16), FLOW d=0."""
    return LoopBody([_global_load(0), _frag_load(1), _mma(2)],
                    [DepEdge(0, 1, DepKind.FLOW, 0), DepEdge(1, 2, DepKind.FLOW, 0)])


def _makespan_of_asap(body: LoopBody) -> int:
    asap = body.asap()
    return max(asap[i] + n.latency for i, n in enumerate(body.ops))


def test_opnode_resource_from_opdesc():
    assert _global_load(0).resource == ResourceKind.GLOBAL_MEM
    assert _frag_load(1).resource == ResourceKind.LDS
    assert _mma(2).resource == ResourceKind.MMA_UNIT


def test_opnode_latency_from_opdesc():
    assert _global_load(0, lat=123).latency == 123
    custom = OpNode.of(OpDesc.op(0, ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD), latency=99)
    assert custom.latency == 99


def test_linear_chain_asap():
    assert _chain().asap() == [0, 200, 220]


def test_diamond_asap():
    body = LoopBody([_global_load(0, 200), _global_load(1, 100), _mma(2)],
                    [DepEdge(0, 2, DepKind.FLOW, 0), DepEdge(1, 2, DepKind.FLOW, 0)])
    assert body.asap()[2] == 200


def test_loop_carried_edges_skip_asap():
    body = LoopBody([_global_load(0), _mma(1)], [DepEdge(0, 1, DepKind.FLOW, 1)])
    assert body.asap() == [0, 0]


def test_compute_alap():
    body = _chain()
    makespan = _makespan_of_asap(body)
    assert makespan == 236
    assert body.alap(makespan) == [0, 200, 220]


def test_alap_slack():
    body = LoopBody([_global_load(0, 200), _global_load(1, 50), _mma(2)],
                    [DepEdge(0, 2, DepKind.FLOW, 0)])
    asap = body.asap()
    makespan = _makespan_of_asap(body)
    assert makespan == 216
    slack = body.alap(makespan)[1] - asap[1]
    assert slack > 0
    assert slack == 166


def test_validate_catches_self_loop():
    body = LoopBody([_global_load(0)], [DepEdge(0, 0, DepKind.FLOW, 0)])
    with pytest.raises(BodyError, match="self-loop with d=0"):
        body.validate()


def test_lds_contention_zero_is_noop():
    body = _chain()
    assert evaluate_makespan(body, [0, 1, 2]) == evaluate_makespan(body, [0, 1, 2], 0) == 236


def test_lds_contention_penalty_increases_makespan():
    body = LoopBody([OpNode.of(OpDesc.op(0, ResourceKind.GLOBAL_MEM, 10, OpRole.GLOBAL_LOAD)),
                     OpNode.of(OpDesc.op(1, ResourceKind.GLOBAL_MEM, 10, OpRole.GLOBAL_LOAD)),
                     OpNode.of(OpDesc.op(3, ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD))], [])
    assert evaluate_makespan(body, [0, 1, 2], 0) == 20
    assert evaluate_makespan(body, [0, 1, 2], 15) == 50


def test_lds_contention_lower_bound():
    body = LoopBody([OpNode.of(OpDesc.op(0, ResourceKind.GLOBAL_MEM, 10, OpRole.GLOBAL_LOAD)),
                     OpNode.of(OpDesc.op(1, ResourceKind.GLOBAL_MEM, 10, OpRole.GLOBAL_LOAD)),
                     OpNode.of(OpDesc.op(3, ResourceKind.LDS, 10, OpRole.FRAGMENT_LOAD)),
                     OpNode.of(OpDesc.op(4, ResourceKind.LDS, 10, OpRole.FRAGMENT_LOAD)),
                     OpNode.of(OpDesc.op(5, ResourceKind.MMA_UNIT, 16, OpRole.COMPUTE))], [])
    assert asap_lower_bound(body, 0) == 16
    assert asap_lower_bound(body, 20) == 80


def test_derive_safe_max_globals_bf16():
    assert derive_safe_max_globals(2) == 1


def test_derive_safe_max_globals_fp8():
    assert derive_safe_max_globals(1) == 0


def test_derive_safe_max_globals_large_k():
    assert derive_safe_max_globals(4) == 1


def test_phase_recipe_prologue_structure():
    assert len(single_buffer_prologue_recipe()) == 6


def test_phase_recipe_epilogue_structure():
    assert len(single_buffer_epilogue_recipe()) == 10
