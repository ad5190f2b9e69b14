"""The order cuts of the kernels' counted waits (pipeline_mlir/kernel/wait_order.py) and the
fences the lowering puts at them (fenced_sequence's ``cuts``): every cut of every shipped
kernel is pinned by a fence, the fence sequence of before (no order fences) leaves the
ping-pong kernels' cuts open, and a cut inside one entry is refused."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.plan import LOOP, kernel_plan, kernel_shape
from pipeline_mlir.kernel.wait_order import OrderCut, inside_waits, order_cuts, part_cuts
from pipeline_mlir.schedule.fences import ORDER_FENCE, ORDER_FENCE_MASK
from pipeline_mlir.schedule.types import (SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc, OpRole,
                                          Phase, ScheduleEntry)
from pipeline_mlir.schedules.registry import parse_pipeline

SPECS = ("pingpong", "pingpong{is_fp8=true}", "4wave{dtype=bf16 BM=128 BN=128 BK=64}",
         "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=64 BN=64 BK=128}")


@functools.lru_cache(maxsize=None)
def plan_of(spec):
    k = gemm_kernel(parse_pipeline(spec))
    return k.plan(k.schedule.compile())


def open_cuts(plan, with_cuts: bool = True) -> list[OrderCut]:
    """The cuts of ``plan`` with no fence between their two entries in the fence sequence
    the lowering emits (``with_cuts=False``: the sequence of before, without order fences;
    they are only ever added to it)."""
    out = []
    for cut in order_cuts(plan):
        part = plan.parts[cut.part]
        seq = [x for x in plan.fenced(part) if with_cuts or x is not ORDER_FENCE]
        pos = {x: k for k, x in enumerate(seq) if isinstance(x, int)}
        between = seq[pos[cut.done] + 1:pos[cut.first]]
        if not any(x is None or x is ORDER_FENCE or (
                isinstance(x, int) and plan.entries(part.name)[x].op.tag == SCHEDULE_BARRIER)
                for x in between):
            out.append(cut)
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_every_cut_of_the_shipped_kernels_is_fenced(spec):
    plan = plan_of(spec)
    assert order_cuts(plan, strict=True)      # every kernel has counted waits
    assert open_cuts(plan) == []


@pytest.mark.parametrize("spec", ["pingpong", "pingpong{is_fp8=true frags_ahead=none}"])
def test_the_fences_of_before_leave_the_ping_pong_cuts_open(spec):
    """The old IR shape: the B and the A fragment reads before WAIT_LGKM(8) in one region
    (FP8: without frags_ahead, whose default moves the second B read away from them)."""
    plan = plan_of(spec)
    opened = open_cuts(plan, with_cuts=False)
    assert [(c.done, c.first, c.wait) for c in opened] == [
        (0, 1, ("kernel", 3)), (35, 36, ("kernel", 38))]
    loop = next(p for p in plan.parts if p.kind == LOOP)
    entries = plan.entries("kernel")
    assert entries[0].op.tag != entries[1].op.tag         # MMA_LOAD_B, then MMA_LOAD_A
    assert {e.op.role for e in entries[:2]} == {OpRole.FRAGMENT_LOAD}
    seq = plan.fenced(loop)
    assert seq[:3] == [0, ORDER_FENCE, 1]
    cuts = part_cuts(plan, loop)
    assert cuts[1] == 0 and cuts[36] == 35 and len(cuts) == 4   # two are fenced already


def test_the_four_wave_prologue_loads_are_ordered_for_its_vm_waits():
    plan = plan_of("4wave{dtype=bf16 BM=128 BN=128 BK=64}")
    cuts = [(plan.parts[c.part].name, c.done, c.first) for c in order_cuts(plan)]
    assert ("prologue", 0, 1) in cuts and ("prologue", 5, 6) in cuts
    assert [(c.done, c.first) for c in open_cuts(plan, with_cuts=False)
            if plan.parts[c.part].name == "prologue"] == [(0, 1), (1, 2), (3, 4), (5, 6)]


def test_the_order_fence_lets_only_alu_cross():
    # LLVM's sched_barrier classes: ALU 0x1, VALU 0x2, SALU 0x4, MFMA 0x8, TRANS 0x400
    assert ORDER_FENCE_MASK == 0x40F


# ---- synthetic plans ------------------------------------------------------------------------

def _e(tag, phase=Phase.KERNEL, role=OpRole.SYNC, wait=0, channel=-1):
    return ScheduleEntry(OpDesc(tag=tag, role=role, wait_value=wait, channel=channel), 0, phase)


def frag(ch, phase=Phase.KERNEL):
    return _e(4 + ch, phase, OpRole.FRAGMENT_LOAD, channel=ch)


def glob(ch, phase=Phase.PROLOGUE):
    return _e(ch, phase, OpRole.GLOBAL_LOAD, channel=ch)


def synthetic(kernel, prologue=(), epilogue=(), lgkm_b: int = 4):
    """A 4-wave-shaped plan (vm 2/2, lgkm 8/``lgkm_b`` per load A/B) of the given entry
    lists."""
    shape = kernel_shape(parse_pipeline("4wave{vm_per_load_a=2 vm_per_load_b=2 "
                                        f"lgkm_per_load_a=8 lgkm_per_load_b={lgkm_b}}}"))
    sched = SimpleNamespace(prologue=list(prologue), kernel=list(kernel),
                            epilogue=list(epilogue), warp_stagger_index=0)
    return kernel_plan(sched, shape)


def test_a_cut_between_two_fragment_loads():
    plan = synthetic([frag(1), frag(0), _e(WAIT_LGKM, wait=8), _e(WAIT_LGKM, wait=0)])
    (cut,) = order_cuts(plan)
    assert (cut.done, cut.first, cut.wait) == (0, 1, ("kernel", 2))
    loop = plan.parts[cut.part]
    assert loop.kind == LOOP and plan.fenced(loop)[:3] == [0, ORDER_FENCE, 1]


def test_a_cut_inside_an_entry_is_refused_when_lowering():
    plan = synthetic([frag(1), frag(0), _e(WAIT_LGKM, wait=6), _e(WAIT_LGKM, wait=0)])
    assert order_cuts(plan) == []
    with pytest.raises(ConfigError, match=r"KRN\[2\] s_waitcnt lgkmcnt\(6\) completes only "
                                          r"part of the 8 instructions of KRN\[1\]"):
        order_cuts(plan, strict=True)


def test_a_wait_inside_an_entry_gets_the_count_that_completes_it_whole():
    """What ``sched-fix-hazards`` lowers such a wait to (``inside_waits``): B's 4 reads,
    then A's 8; lgkmcnt(6) would leave 6 of A's in flight, lgkmcnt(0) completes A whole.
    With 4 of B's after A's 8 (and lgkmcnt(6): 2 of A's left in flight), 4 completes A
    whole and leaves B's in flight; a wait on an entry boundary has none."""
    plan = synthetic([frag(1), frag(0), _e(WAIT_LGKM, wait=6), _e(WAIT_LGKM, wait=0)])
    assert inside_waits(plan) == {("kernel", 2): 0}
    plan = synthetic([frag(0), frag(1), _e(WAIT_LGKM, wait=6), _e(WAIT_LGKM, wait=0)])
    assert inside_waits(plan) == {("kernel", 2): 4}
    plan = synthetic([frag(1), frag(0), _e(WAIT_LGKM, wait=8), _e(WAIT_LGKM, wait=0)])
    assert inside_waits(plan) == {}


def test_a_stricter_earlier_wait_or_a_block_boundary_needs_no_fence():
    # the earlier lgkmcnt(0) already completed KRN[0]: lgkmcnt(8) relies on no order
    plan = synthetic([frag(1), _e(WAIT_LGKM, wait=0), frag(0), _e(WAIT_LGKM, wait=8)])
    assert order_cuts(plan) == []
    # vmcnt(2) leaves the loop's load in flight and completes the one before it, in the
    # prologue or the previous iteration: a block boundary (the loop's head) lies between
    plan = synthetic([glob(0, Phase.KERNEL), _e(WAIT_VM, wait=2)], prologue=[glob(1)])
    assert order_cuts(plan) == []
    # the same two loads in one block need a fence
    plan = synthetic([glob(1, Phase.KERNEL), glob(0, Phase.KERNEL), _e(WAIT_VM, wait=2),
                      _e(WAIT_VM, wait=0)])
    assert [(c.done, c.first) for c in order_cuts(plan)] == [(0, 1)]


def test_an_existing_fence_is_not_doubled():
    kernel = [frag(1), _e(SCHEDULE_BARRIER), frag(0), _e(WAIT_LGKM, wait=8),
              _e(WAIT_LGKM, wait=0)]
    plan = synthetic(kernel)
    assert len(order_cuts(plan)) == 1
    loop = next(p for p in plan.parts if p.kind == LOOP)
    assert ORDER_FENCE not in plan.fenced(loop)


def test_only_a_marked_overflow_guard_relies_on_no_order():
    """lgkmcnt(7) before a load of 8 instructions fills the counter (15) exactly: the waits
    sched-fix-hazards inserts so are marked and need no fence; an unmarked wait of the same
    counts (one the schedule has) is walked like any other and needs one."""
    def plan(guard: bool):
        wait = _e(WAIT_LGKM, wait=7)
        wait = ScheduleEntry(wait.op.with_(overflow_guard=guard), 0, Phase.KERNEL)
        return synthetic([frag(0), frag(1), wait, frag(0), _e(WAIT_LGKM, wait=0)], lgkm_b=7)

    assert order_cuts(plan(True)) == []
    (cut,) = order_cuts(plan(False))
    assert (cut.done, cut.first, cut.wait) == (0, 1, ("kernel", 2))


def _lowered(wait: int, derived: int) -> ScheduleEntry:
    return ScheduleEntry(OpDesc.wait_vm(wait).with_(derived_count=derived), 0, Phase.KERNEL)


def test_a_wait_lowered_for_speed_is_pinned_at_its_derived_count():
    """vmcnt(1) records the vmcnt(2) its schedule derived (schedule/vm_cap.py): its cut is
    the derived count's, between two whole loads (the lowered count alone falls inside a
    load, which strict lowering refuses), and it is not exempt like an overflow guard."""
    loads = [glob(1, Phase.KERNEL), glob(0, Phase.KERNEL), glob(1, Phase.KERNEL)]
    plan = synthetic(loads + [_lowered(1, 2), _e(WAIT_VM, wait=0)])
    (cut,) = order_cuts(plan, strict=True)
    assert (cut.done, cut.first, cut.wait) == (1, 2, ("kernel", 3))
    with pytest.raises(ConfigError, match=r"s_waitcnt vmcnt\(1\) completes only part"):
        order_cuts(synthetic(loads + [_e(WAIT_VM, wait=1), _e(WAIT_VM, wait=0)]), strict=True)


def test_a_wait_weaker_than_its_derived_count_is_refused():
    plan = synthetic([glob(1, Phase.KERNEL), glob(0, Phase.KERNEL), _lowered(3, 2)])
    for strict in (False, True):
        with pytest.raises(ConfigError, match=r"KRN\[2\] s_waitcnt vmcnt\(3\) is weaker than "
                                              r"the count its schedule derived \(2\)"):
            order_cuts(plan, strict=strict)
