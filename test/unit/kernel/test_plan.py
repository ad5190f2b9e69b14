"""The kernel plan (pipeline_mlir/kernel/plan.py): skeleton, warp groups, fences, K tiles,
LDS layout and kernel arguments of the three named schedules, and the invalid inputs it
rejects."""

from __future__ import annotations

import functools
from dataclasses import replace
from types import SimpleNamespace

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedule.fences import INTERLEAVE, Interleaved
from pipeline_mlir.kernel.lds import lds_layout
from pipeline_mlir.kernel.plan import (BARRIER, ENTRIES, KERNARG_WAIT, LOOP, ZERO_TRIP_FENCE,
                                       KernelArgument, KernelPlan, KernelShape, Part,
                                       gemm_arguments, kernel_plan, kernel_shape)
from pipeline_mlir.kernel.launch import kernarg_layout
from pipeline_mlir.schedule.types import (BARRIER as BARRIER_TAG, SCHEDULE_BARRIER, WAIT_LGKM,
                                          WAIT_VM, OpDesc, OpRole, Phase, ScheduleEntry)
from pipeline_mlir.schedules.geometry import KernelTraits
from pipeline_mlir.schedules.registry import parse_pipeline

@functools.lru_cache(maxsize=None)
def compiled(spec):
    """(the complete kernel of ``spec``, its compiled schedule)"""
    k = gemm_kernel(parse_pipeline(spec))
    return k, k.schedule.compile()


def plan_of(spec):
    k, c = compiled(spec)
    return k.plan(c)


def skeleton(plan):
    return [(p.kind, p.name, p.start, p.stop, p.groups) for p in plan.parts]


# ---- the skeleton of each schedule ---------------------------------------------------------

def test_pingpong_skeleton_staggers_two_warp_groups():
    plan = plan_of("pingpong")
    s, n_pro = plan.warp_stagger_index, len(plan.prologue)
    assert (plan.shape.groups, plan.shape.waves_per_group) == (2, 4) and 0 < s < n_pro
    assert skeleton(plan) == [
        (KERNARG_WAIT, "kernarg-wait", 0, 0, None), (ENTRIES, "prologue", 0, s, None),
        (BARRIER, "stagger", 0, 0, (1,)), (ENTRIES, "prologue", s, n_pro, None),
        (BARRIER, "join", 0, 0, None), (LOOP, "kernel", 0, len(plan.kernel), None),
        (ENTRIES, "epilogue", 0, len(plan.epilogue), None), (BARRIER, "realign", 0, 0, (0,))]
    assert not plan.shape.zero_trip_fence
    # where each part lands in the final code
    assert [plan.asm_phase(p) for p in plan.parts] == ["prologue"] * 5 + ["loop", "epilogue",
                                                                          "epilogue"]


def test_four_wave_skeleton_has_the_zero_trip_fence_and_one_group():
    plan = plan_of("4wave")
    assert plan.shape.groups == 1 and plan.shape.zero_trip_fence
    assert plan.warp_stagger_index > len(plan.prologue)    # no stagger: ignored
    assert skeleton(plan) == [
        (KERNARG_WAIT, "kernarg-wait", 0, 0, None),
        (ENTRIES, "prologue", 0, len(plan.prologue), None),
        (ZERO_TRIP_FENCE, "fence", 0, 0, None), (LOOP, "kernel", 0, len(plan.kernel), None),
        (ENTRIES, "epilogue", 0, len(plan.epilogue), None)]
    fence = next(p for p in plan.parts if p.kind == ZERO_TRIP_FENCE)
    assert [(o.tag, o.wait_value) for o in fence.ops()] == [(WAIT_VM, 0), (WAIT_LGKM, 0),
                                                            (BARRIER_TAG, 0)]
    assert plan.asm_phase(fence) == "prologue"


def test_single_buffer_has_no_kernel_plan():
    s = parse_pipeline("single-buffer")
    assert s.kernel_traits is None
    with pytest.raises(ConfigError, match="schedule 'single-buffer' has no complete kernel"):
        kernel_shape(s)
    with pytest.raises(ConfigError, match="pipeline 'single-buffer': no complete GEMM kernel"):
        s.kernel_geometry()


def test_shapes_follow_the_schedules():
    for spec, groups, fence, mfmas in (("pingpong", 2, False, 16), ("4wave", 1, True, 8),
                                       ("4wave{dtype=fp8 BM=64 BN=64 BK=128}", 1, True, 1)):
        k, _ = compiled(spec)
        sh = k.shape
        assert (sh.groups, sh.zero_trip_fence, sh.mfmas_per_mma, sh.waves) == \
            (groups, fence, mfmas, k.threads // 64)
        g = k.geometry
        assert sh.vm_per_load == (g.vm_per_load_a, g.vm_per_load_b)
        assert sh.lgkm_per_load == (g.lgkm_per_load_a, g.lgkm_per_load_b)
    # without a geometry: the schedule's counts, nothing the kernel alone knows
    sh = kernel_shape(parse_pipeline("pingpong{vm_per_load_a=3}"))
    assert sh.vm_per_load == (3, 2) and sh.mfmas_per_mma is None and sh.lds is None
    assert sh.arguments == ()


# ---- what a warp group runs ----------------------------------------------------------------

def test_run_gives_each_group_the_same_barrier_count_and_the_k_tiles():
    plan = plan_of("pingpong")
    for n in (0, 1, 3):
        g0, g1 = (list(plan.run(g, n)) for g in (0, 1))
        count = [sum(x.op.tag == BARRIER_TAG for x in g) for g in (g0, g1)]
        assert count[0] == count[1]
        # group 1's stagger barrier sits at the stagger index of the prologue
        i = next(i for i, x in enumerate(g1) if x.phase == "stagger")
        assert [x.entry for x in g1[i - 1:i + 2]] == [plan.warp_stagger_index - 1, -1,
                                                      plan.warp_stagger_index]
        assert g0[-1].phase == "realign" and g1[-1].phase == "epilogue"
        assert g0[0].phase == g1[0].phase == "kernarg-wait"
        bases = {(x.phase, x.iteration): x.k_base for x in g0 if x.entry >= 0}
        assert bases[("prologue", 0)] == 0 and bases[("epilogue", 0)] == 2 * (n + 1)
        assert all(bases[("kernel", i)] == 2 * (i + 1) for i in range(n))


def test_zero_trip_fence_runs_only_when_the_loop_does_not():
    plan = plan_of("4wave")
    for n in (0, 1, 2):
        got = [x for x in plan.run(0, n) if x.phase == "fence"]
        assert len(got) == (3 if n == 0 else 0)
        assert sum(x.phase == "kernel" for x in plan.run(0, n)) == n * len(plan.kernel)


def test_k_tiles_of_global_loads():
    plan = plan_of("4wave")
    loads = [x for x in plan.run(0, 1) if x.op.role == OpRole.GLOBAL_LOAD]
    tiles = {(x.phase, x.op.k_offset.name, x.k_tile) for x in loads}
    assert ("prologue", "K0", 0) in tiles and ("prologue", "K1", 1) in tiles
    assert ("kernel", "K0", 2) in tiles and ("kernel", "K1", 3) in tiles


# ---- fences --------------------------------------------------------------------------------

def _e(tag, role=OpRole.SYNC, wait=0, channel=-1, phase=Phase.KERNEL):
    return ScheduleEntry(OpDesc(tag=tag, role=role, wait_value=wait, channel=channel), 0, phase)


def _toy(kernel, blocks=None, stagger=0, shape=None):
    sched = SimpleNamespace(prologue=[], kernel=kernel, epilogue=[], warp_stagger_index=stagger)
    shape = shape or kernel_shape(parse_pipeline("4wave"))
    return kernel_plan(sched, shape, {"kernel": blocks} if blocks else None)


def test_fences_around_wait_runs_and_between_blocks():
    mma = _e(5, OpRole.COMPUTE)
    plan = _toy([mma, _e(WAIT_VM, wait=3), _e(WAIT_LGKM, wait=1), mma, mma, _e(BARRIER_TAG)],
                [0, 0, 0, 0, 1, 1])
    loop = next(p for p in plan.parts if p.kind == LOOP)
    assert plan.fenced(loop) == [0, None, 1, 2, None, 3, None, 4, 5]
    off = replace(plan, fence_waits=False, fence_blocks=False)
    assert off.fenced(loop) == [0, 1, 2, 3, 4, 5]
    # no fence next to an existing schedule barrier
    plan = _toy([_e(WAIT_VM), _e(SCHEDULE_BARRIER), mma])
    assert plan.fenced(next(p for p in plan.parts if p.kind == LOOP)) == [None, 0, 1, 2]
    # a block's fragment loads and global load keep their order (fence_loads, the default)
    frag, glob = _e(3, OpRole.FRAGMENT_LOAD), _e(0, OpRole.GLOBAL_LOAD)
    plan = _toy([frag, frag, glob, mma], [0, 0, 0, 0])
    loop = next(p for p in plan.parts if p.kind == LOOP)
    assert plan.fenced(loop) == [0, 1, None, 2, 3]
    assert replace(plan, fence_loads=False).fenced(loop) == [0, 1, 2, 3]
    # interleave: the run's schedule barrier is Interleaved(index), INTERLEAVE after the MMA
    run = [_e(BARRIER_TAG), _e(3, OpRole.FRAGMENT_LOAD, channel=0), _e(SCHEDULE_BARRIER),
           _e(0, OpRole.GLOBAL_LOAD, channel=0), mma]
    plan = replace(_toy(run, [0] * 5), interleave=True)
    assert plan.fenced(next(p for p in plan.parts if p.kind == LOOP)) == \
        [0, None, 1, Interleaved(2), 3, 4, INTERLEAVE, None]


# ---- LDS layout and arguments --------------------------------------------------------------

@pytest.mark.parametrize("spec", ["pingpong", "pingpong{is_fp8=true}", "4wave",
                                  "4wave{dtype=fp8 BM=64 BN=64 BK=128}"])
def test_lds_layout(spec):
    k, _ = compiled(spec)
    g, lds = k.geometry, k.lds
    assert [(b.channel, b.stage, b.subtile) for b in lds.buffers] == [
        (c, s, u) for c in (0, 1) for s in (0, 1) for u in (0, 1)]
    assert lds.size == k.lds_bytes == 2 * (g.BM + g.BN) * g.BK * g.elem_bytes
    offset = 0
    for b in lds.buffers:      # packed in order, half a tile of BK columns each
        assert b.offset == offset and b.rows == (g.BM, g.BN)[b.channel] // 2
        assert b.size == b.rows * g.BK * g.elem_bytes
        offset += b.size
    assert lds.buffer(1, 0, 1).name == "lds_b01"
    for ch, rows in ((0, g.BM), (1, g.BN)):
        halves = [lds.tile_rows(ch, u) for u in (0, 1)]
        # the two subtiles' buffers hold every tile row once
        assert sorted(halves[0] + halves[1]) == list(range(rows))
        w = lds.warp_tiles[ch]
        assert w == rows // (k.warps_m if ch == 0 else k.warps_n)
        # subtile u holds quadrant u of each warp's tile
        assert all((r % w) // (w // 2) == u for u in (0, 1) for r in halves[u])


def test_kernel_arguments_and_their_layout():
    args = gemm_arguments("bf16")
    assert [(a.name, a.kind, a.element) for a in args] == [
        ("A", "buffer", "bf16"), ("B", "buffer", "bf16"), ("C", "buffer", "f32"),
        ("M", "index", None), ("N", "index", None), ("K", "index", None)]
    layout = kernarg_layout(args)
    assert layout[:5] == (("A.allocated", 0, 8), ("A.aligned", 8, 8), ("A.offset", 16, 8),
                          ("A.size", 24, 8), ("A.stride", 32, 8))
    assert layout[-1] == ("K", 136, 8) and len(layout) == 18
    assert compiled("4wave")[0].shape.arguments == args


# ---- invalid inputs ------------------------------------------------------------------------

def test_stagger_past_the_prologue_is_rejected_for_two_groups():
    k, c = compiled("pingpong")
    bad = SimpleNamespace(prologue=c.prologue, kernel=c.kernel, epilogue=c.epilogue,
                          warp_stagger_index=len(c.prologue) + 1)
    with pytest.raises(ConfigError, match=r"staggers its warp groups at WARP_STAGGER_INDEX, "
                                          r"which is 11, past the prologue's 10 entries"):
        k.plan(bad)
    with pytest.raises(ConfigError, match="warp stagger index must be an integer >= 0"):
        k.plan(SimpleNamespace(**{**vars(bad), "warp_stagger_index": -1}))


@pytest.mark.parametrize("blocks, message", [
    ({"kernel": [0, 1]}, "the kernel has 1 entries but 2 block indices"),
    ({"loop": [0]}, "blocks of unknown phase(s) loop"),
])
def test_bad_blocks_are_rejected(blocks, message):
    sched = SimpleNamespace(prologue=[], kernel=[_e(BARRIER_TAG)], epilogue=[],
                            warp_stagger_index=0)
    with pytest.raises(ConfigError) as e:
        kernel_plan(sched, kernel_shape(parse_pipeline("4wave")), blocks)
    assert message in str(e.value)


def test_bad_run_and_phase_requests_are_rejected():
    plan = _toy([_e(BARRIER_TAG)])
    with pytest.raises(ConfigError, match="warp group 1 does not exist"):
        list(plan.run(1, 0))
    with pytest.raises(ConfigError, match="iterations must be an integer >= 0"):
        list(plan.run(0, -1))
    with pytest.raises(ConfigError, match="unknown phase 'loop'"):
        plan.entries("loop")
    with pytest.raises(ConfigError, match="unknown phase 'loop'"):
        KernelPlan.k_base("loop")
    with pytest.raises(ConfigError, match="has no schedule entries"):
        plan.fenced(next(p for p in plan.parts if p.kind == KERNARG_WAIT))
    with pytest.raises(ConfigError, match="the prologue entries are the schedule's"):
        Part(ENTRIES, "prologue").ops()


@pytest.mark.parametrize("kwargs, message", [
    (dict(groups=3), "3 warp groups"),
    (dict(waves_per_group=0), "waves_per_group must be at least 1"),
    (dict(vm_per_load=(2,)), "vm_per_load must be two counts"),
    (dict(lgkm_per_load=(2, -1)), "lgkm_per_load must be two counts"),
])
def test_bad_shapes_are_rejected(kwargs, message):
    base = dict(schedule_name="x", groups=1, waves_per_group=4, vm_per_load=(2, 2),
                lgkm_per_load=(2, 2))
    with pytest.raises(ConfigError, match=message):
        KernelShape(**{**base, **kwargs})


@pytest.mark.parametrize("kwargs, message", [
    (dict(warps_m=0, warps_n=2), "warps_m must be a positive integer"),
    (dict(warps_m=3, warps_n=2, warp_groups=2), "must split the 3 warp rows evenly"),
    (dict(warps_m=2, warps_n=2, waves_per_eu=0), "waves_per_eu must be a positive integer"),
])
def test_bad_kernel_traits_are_rejected(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        KernelTraits(**kwargs)


def test_bad_arguments_and_buffers_are_rejected():
    with pytest.raises(ConfigError, match="kind must be buffer or index"):
        KernelArgument("A", "pointer", "bf16")
    with pytest.raises(ConfigError, match="a buffer has an element type"):
        KernelArgument("M", "index", "f32")
    k, _ = compiled("4wave")
    with pytest.raises(ConfigError, match="no buffer for channel 0 stage 2 subtile 0"):
        k.lds.buffer(0, 2, 0)
    with pytest.raises(ConfigError, match="no buffer for channel 2 subtile 0"):
        lds_layout(k.geometry, k.traits).tile_rows(2, 0)
