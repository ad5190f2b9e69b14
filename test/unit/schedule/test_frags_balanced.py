"""``frags_ahead=balanced`` (pipeline_mlir/schedule/frags_ahead.py): the move plan it picks
(the smallest largest LDS-port count of a segment, then the fewest moved instructions),
the plans it skips (registers in use), its limit, and the FP8 ping-pong schedule it gives:
safe in the functional model, unsafe with any of its guards removed or weakened."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule import frags_ahead as FA
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import BARRIER, OpDesc, OpRole, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.trace import kernel_shape
from test_frags_ahead import guards, mutated

LGKM = (8, 4)      # lgkm instructions of an A and of a B fragment load


def _e(op):
    return ScheduleEntry(op, 0, Phase.KERNEL)


def _read(tag, ch, sub=0):
    return _e(OpDesc(tag=tag, channel=ch, stage=0, subtile=sub, role=OpRole.FRAGMENT_LOAD))


def _mma(stage, sub):
    return _e(OpDesc(tag=MMA, stage=stage, subtile=sub, role=OpRole.COMPUTE))


def _kernel(first_mma=(1, 1)):
    """DMA of A's and B's slots, their wait; an MMA; a load block of B (4) then A (8)
    reads; their MMA.  The load block issues all 12 LDS instructions."""
    dma = [_e(OpDesc(tag=1, channel=ch, stage=0, subtile=0, role=OpRole.GLOBAL_LOAD))
           for ch in (0, 1)]
    return dma + [_e(OpDesc.barrier()), _e(OpDesc.wait_vm(0)), _e(OpDesc.barrier()),
                  _mma(*first_mma), _e(OpDesc.barrier()),
                  _read(MMA_LOAD_B, 1), _read(MMA_LOAD_A, 0), _e(OpDesc.barrier()),
                  _mma(0, 0), _e(OpDesc.barrier())]


def _balanced(kernel):
    return FA.frags_ahead([], kernel, [], list(range(len(kernel))), LGKM, lambda ch: 2,
                          FA.BALANCED)


def _tags(entries):
    return [e.op.tag for e in entries]


def test_the_plan_evens_out_the_segments_with_the_fewest_moves():
    """Segments: [dma 4 + barrier], [wait, barrier], [mma, barrier], [B 4, A 8, barrier],
    [mma, barrier].  Moving B alone leaves 8 + 4 (max 8); moving both leaves 12 before the
    MMA's barrier (max 12): B alone is the plan."""
    _, new, _, _ = _balanced(_kernel())
    tags = _tags(new)
    assert tags.index(MMA_LOAD_B) == tags.index(MMA) + 1
    assert tags.index(MMA_LOAD_A) > tags.index(BARRIER, tags.index(MMA_LOAD_B))


def test_a_plan_whose_reads_overwrite_fragments_in_use_is_skipped():
    """The MMA before reads B's subtile 0: no read may move in front of it, so nothing moves
    (the only plan accepted moves nothing)."""
    kernel = _kernel(first_mma=(1, 0))
    _, new, _, _ = _balanced(kernel)
    assert _tags(new) == _tags(kernel)


def test_a_plan_whose_reads_would_pass_a_load_into_their_slot_is_skipped():
    """A global load into B's slot between the MMA and the reads: B read ahead of it would
    read the slot's previous K tile, so nothing moves."""
    kernel = _kernel()
    at = _tags(kernel).index(MMA_LOAD_B)
    kernel.insert(at, kernel[1])
    _, new, _, _ = _balanced(kernel)
    assert _tags(new) == _tags(kernel)
    with pytest.raises(ConfigError, match=r"KRN\[7\] fills a slot that a read moved ahead"):
        FA._check_slots(kernel, [at + 1], at - 3, at + 1)


def test_too_many_plans_is_an_error(monkeypatch):
    monkeypatch.setattr(FA, "MAX_PLANS", 2)
    with pytest.raises(ConfigError, match="frags_ahead=balanced: 3 move plans, more than the 2"):
        _balanced(_kernel())


def _port_counts(c, lgkm=LGKM, vm=2):
    """The kernel segments' LDS-port instruction counts, largest first."""
    out, n = [], 0
    for e in c.kernel:
        op = e.op
        if op.role == OpRole.FRAGMENT_LOAD:
            n += lgkm[op.channel]
        elif op.role == OpRole.GLOBAL_LOAD:
            n += vm
        if op.tag == BARRIER:
            out.append(n)
            n = 0
    return sorted(out, reverse=True)


def _moved_after_mma(c) -> list[int]:
    return sorted(c.kernel[i + 1].op.tag for i, e in enumerate(c.kernel[:-1])
                  if e.op.tag == MMA and c.kernel[i + 1].op.role == OpRole.FRAGMENT_LOAD)


@pytest.mark.parametrize("mode,like,moved", [
    # inside one iteration: the second half's B reads (as within) and both halves' A reads
    # of the second subtile
    (FA.BALANCED, FA.WITHIN, [MMA_LOAD_A, MMA_LOAD_A, MMA_LOAD_B]),
    # over the back edge too: the first half's B reads as well
    (FA.BALANCED_ACROSS, FA.ACROSS, [MMA_LOAD_A, MMA_LOAD_A, MMA_LOAD_B, MMA_LOAD_B])])
def test_fp8_pingpong_is_balanced_and_safe(mode, like, moved):
    schedule = parse_pipeline(f"pingpong{{is_fp8=true frags_ahead={mode}}}")
    c = schedule.compile()
    other = schedule.with_(frags_ahead=like).compile()
    none = schedule.with_(frags_ahead="none").compile()
    assert _port_counts(c) < _port_counts(other) <= _port_counts(none)
    assert _moved_after_mma(c) == moved
    result = simulate(c, kernel_shape(schedule))
    assert result.safe, result.first_hazard().describe()


@pytest.mark.parametrize("mode", [FA.BALANCED, FA.BALANCED_ACROSS])
@pytest.mark.parametrize("mutation", ["removed", "one too weak"])
def test_fp8_pingpong_guards_are_needed(mode, mutation):
    """Each derived guard removed, or one too weak, is a RAW hazard (A's second subtile,
    moved ahead of an MMA, keeps enough barriers after its load's wait: no guard)."""
    spec = f"pingpong{{is_fp8=true frags_ahead={mode}}}"
    schedule = parse_pipeline(spec)
    c = schedule.compile()
    found = guards(spec)
    assert found
    for at in found:
        result = simulate(mutated(c, at, mutation), kernel_shape(schedule))
        assert not result.safe
