"""Property tests over random valid configurations: compile or fail cleanly, and keep invariants.

The ping-pong property draws 20 configurations in the default run and 60 in the long tier
(``PIPELINE_TEST_LONG=1``, ``long_tier.py``): about 35 ms each, new ones every run."""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import long_tier

from pipeline_mlir.schedule.compiler import compile_schedule
from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.schedules.geometry import four_wave_geometry
from pipeline_mlir.schedules.fourwave import Pipeline4Wave, kernel_target
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule
from pipeline_mlir.schedule.targets import mi355x_target
from pipeline_mlir.schedule.types import DepKind, OpRole, is_prefetch

DATA_ROLES = (OpRole.GLOBAL_LOAD, OpRole.FRAGMENT_LOAD, OpRole.COMPUTE)

sched_configs = st.builds(
    ScheduleConfig,
    scheduling=st.sampled_from([SchedulingStrategy.IDENTITY, SchedulingStrategy.GREEDY,
                                SchedulingStrategy.CSP]),
    sched_barrier_mask=st.integers(0, 255),
    auto_waits=st.booleans(),
    drain_lgkm_mask=st.integers(0, 255),
    auto_drain=st.booleans(),
    lds_contention_penalty=st.sampled_from([0, 0, 2, 8]),
    wait_lgkm_first=st.sampled_from([0, 4, 8, 255]),
    wait_vm_last=st.integers(0, 12),
    lgkm_after_last=st.booleans(),
    minimal_barriers=st.booleans(),
    omit_mma_set_prio=st.booleans(),
    global_before_frag=st.booleans(),
    barrier_before_pre_ops=st.booleans(),
    inter_block_lgkm_drain=st.booleans(),
    partial_prologue_drain=st.booleans(),
    wrap_waits_with_sched_barrier=st.booleans(),
)


def check_invariants(c) -> None:
    for _, entries in c.phases():
        assert [e.time_slot for e in entries] == list(range(len(entries)))
        for e in entries:
            if e.op.role == OpRole.SYNC:
                assert e.op.wait_value >= 0
            if e.is_prefetch:
                assert e.op.role == OpRole.GLOBAL_LOAD and is_prefetch(e.op)
    # the kernel issues every body op exactly once, in the scheduled order
    kernel_data = [e.op for e in c.kernel if e.op.role in DATA_ROLES]
    assert sorted(map(repr, kernel_data)) == sorted(map(repr, c.body))
    if c.sched.scheduling != SchedulingStrategy.IDENTITY:
        # an order from GREEDY/CSP respects every same-iteration edge (C2 of the reference)
        pos = {i: k for k, i in enumerate(c.order)}
        for e in c.edges:
            if e.loop_distance == 0:
                assert pos[e.producer_idx] < pos[e.consumer_idx], e
    # the prologue loads each k-offset prefetch exactly once
    pro_loads = [e.op for e in c.prologue if e.op.role == OpRole.GLOBAL_LOAD]
    assert len(pro_loads) == sum(1 for o in c.body if o.role == OpRole.GLOBAL_LOAD and is_prefetch(o))
    # the epilogue computes every MMA once and prefetches nothing
    epi_mmas = [e.op for e in c.epilogue if e.op.role == OpRole.COMPUTE]
    assert len(epi_mmas) == sum(1 for o in c.body if o.role == OpRole.COMPUTE)
    assert not any(is_prefetch(e.op) for e in c.epilogue if e.op.role == OpRole.GLOBAL_LOAD)
    assert all(e.dep_kind in (DepKind.FLOW, DepKind.ANTI) for e in c.edges)


#: the ping-pong property's examples: the long tier's 60, the default run's 20
PINGPONG_EXAMPLES = 60 if long_tier.runs_long(os.environ) else 20


@settings(max_examples=PINGPONG_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(sched=sched_configs, vm=st.integers(1, 4), lgkm=st.integers(0, 8),
       max_globals=st.integers(0, 2), is_fp8=st.booleans())
def test_pingpong_random_configs(sched, vm, lgkm, max_globals, is_fp8):
    s = DeclarativeSchedule(is_fp8, lgkm, lgkm, sched, mi355x_target(vm, vm, max_globals))
    try:
        c = compile_schedule(s)
    except PipelineError as e:
        assert str(e)  # a clear message, never another exception type
        return
    check_invariants(c)


@settings(max_examples=40, deadline=None)
@given(sched=sched_configs,
       geo=st.sampled_from([("bf16", 128, 128, 64), ("bf16", 128, 128, 128), ("f16", 128, 128, 64),
                            ("fp8", 128, 128, 128), ("fp8", 64, 64, 128), ("bf16", 64, 64, 64),
                            ("bf16", 256, 128, 64), ("fp8", 128, 256, 128)]))
def test_4wave_random_configs(sched, geo):
    g = four_wave_geometry(*geo)
    try:
        c = compile_schedule(Pipeline4Wave(g, sched, kernel_target(g)))
    except PipelineError as e:
        assert str(e)
        return
    check_invariants(c)
    assert len(c.prologue) == 14 and len(c.epilogue) == 32
