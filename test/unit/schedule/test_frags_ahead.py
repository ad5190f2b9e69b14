"""Fragment reads one MMA run ahead (``frags_ahead``, pipeline_mlir/schedule/frags_ahead.py):
where the reads go, the waits the schedule derives for them, and the functional model's
verdict on the schedule with its guard, without it and with it one too weak."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.frags_ahead import frags_ahead
from pipeline_mlir.schedule.types import (BARRIER, WAIT_LGKM, WAIT_VM, OpDesc, OpRole, Phase,
                                          ScheduleEntry)
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.trace import kernel_shape


def compiled(spec: str):
    schedule = parse_pipeline(spec)
    return schedule, schedule.compile()


def names(entries) -> list[tuple]:
    return [(e.op.tag, e.op.channel, e.op.stage, e.op.subtile, e.op.wait_value) for e in entries]


def reads(entries) -> list[tuple]:
    return [(e.op.channel, e.op.stage, e.op.subtile) for e in entries
            if e.op.role == OpRole.FRAGMENT_LOAD]


def guards(spec: str) -> list[int]:
    """Kernel indices of the WAIT_VMs ``spec`` has and its ``frags_ahead=none`` form lacks
    (compared barrier by barrier: the wait before the same barrier)."""
    def before_barriers(c):
        out, k = [], 0
        for i, e in enumerate(c.kernel):
            if e.op.tag == BARRIER:
                prev = c.kernel[i - 1].op
                out.append((k, prev.wait_value if prev.tag == WAIT_VM else None, i - 1))
                k += 1
        return out
    schedule, new = compiled(spec)
    base = schedule.with_(frags_ahead="none").compile()
    return [i for (k, v, i), (_, v0, _) in zip(before_barriers(new), before_barriers(base))
            if v is not None and v != v0]


@pytest.mark.parametrize("mode", ["within", "across"])
def test_fp8_reads_move_into_the_mma_run_before_and_stay_safe(mode):
    schedule, c = compiled(f"pingpong{{is_fp8=true frags_ahead={mode}}}")
    _, base = compiled("pingpong{is_fp8=true frags_ahead=none}")
    # same reads per iteration, some now right after an MMA
    assert sorted(reads(c.kernel)) == sorted(reads(base.kernel))
    after_mma = [c.kernel[i + 1].op for i, e in enumerate(c.kernel[:-1])
                 if e.op.tag == MMA and c.kernel[i + 1].op.role == OpRole.FRAGMENT_LOAD]
    assert after_mma and all(op.tag == MMA_LOAD_B for op in after_mma)
    assert len(after_mma) == (2 if mode == "across" else 1)
    result = simulate(c, kernel_shape(schedule))
    assert result.safe, result.first_hazard().describe()


def test_across_issues_the_first_reads_in_the_prologue_and_not_in_the_epilogue():
    _, c = compiled("pingpong{is_fp8=true frags_ahead=across}")
    _, base = compiled("pingpong{is_fp8=true frags_ahead=within}")
    extra = [r for r in reads(c.prologue)]
    assert extra and extra == reads(c.kernel[-4:]) and c.prologue[-1].op.tag == MMA_LOAD_B
    assert len(reads(c.epilogue)) == len(reads(base.epilogue)) - len(extra)
    assert len(c.prologue) == len(base.prologue) + len(extra)


def test_the_guard_is_derived_one_barrier_before_the_covering_wait():
    spec = "pingpong{is_fp8=true frags_ahead=within}"
    (at,) = guards(spec)
    _, c = compiled(spec)
    assert c.kernel[at + 1].op.tag == BARRIER
    # the guard completes the DMA of the moved read's slot: no more vm instructions
    # in flight than were issued after it
    assert 0 < c.kernel[at].op.wait_value < 63


def mutated(c, at: int, mutation: str):
    """The compiled schedule ``c`` with its kernel's wait ``at`` removed or one too weak."""
    kernel = list(c.kernel)
    if mutation == "removed":
        del kernel[at]
    else:
        kernel[at] = replace(kernel[at], op=OpDesc.wait_vm(kernel[at].op.wait_value + 1))
    return replace(c, kernel=kernel)


@pytest.mark.parametrize("mode", ["within", "across"])
@pytest.mark.parametrize("mutation", ["removed", "one too weak"])
def test_guard_removed_or_weakened_is_a_raw_hazard(mode, mutation):
    spec = f"pingpong{{is_fp8=true frags_ahead={mode}}}"
    schedule, c = compiled(spec)
    shape = kernel_shape(schedule)
    found = guards(spec)
    assert found
    for at in found:
        result = simulate(mutated(c, at, mutation), shape)
        assert not result.safe
        assert any(h.kind == "raw" and h.counter == "vmcnt" for r in result.runs
                   for h in r.hazards), result.first_hazard().describe()


def _e(op):
    return ScheduleEntry(op, 0, Phase.KERNEL)


def _cycle(first_mma=(1, 1), load_segment_early=True) -> list[ScheduleEntry]:
    """A hand-made kernel: a DMA of B's slot, its wait, an MMA, then a load block whose
    closing ``lgkmcnt(8)`` completes B's read (4 instructions) before A's (8)."""
    load = OpDesc(tag=1, channel=1, stage=0, subtile=0, role=OpRole.GLOBAL_LOAD)
    dma = [_e(load), _e(OpDesc.barrier()), _e(OpDesc.wait_vm(0)), _e(OpDesc.barrier())] \
        if load_segment_early else [_e(load), _e(OpDesc.wait_vm(0)), _e(OpDesc.barrier())]
    return dma + [
        _e(OpDesc(tag=MMA, stage=first_mma[0], subtile=first_mma[1], role=OpRole.COMPUTE)),
        _e(OpDesc.wait_lgkm(0)), _e(OpDesc.barrier()),
        _e(OpDesc(tag=MMA_LOAD_B, channel=1, stage=0, subtile=0, role=OpRole.FRAGMENT_LOAD)),
        _e(OpDesc(tag=MMA_LOAD_A, channel=0, stage=0, subtile=0, role=OpRole.FRAGMENT_LOAD)),
        _e(OpDesc.wait_lgkm(8)), _e(OpDesc.barrier()),
        _e(OpDesc(tag=MMA, stage=0, subtile=0, role=OpRole.COMPUTE)), _e(OpDesc.barrier())]


def _ahead(kernel):
    return frags_ahead([], kernel, [], list(range(len(kernel))), (8, 4), lambda ch: 2,
                       "within")


def test_lgkm_waits_between_the_new_and_old_place_are_raised():
    """The wait after the MMA that the read now follows completes the same reads as
    before: its count grows by the moved read's 4 instructions; the guard completes the
    DMA one barrier before the wait that covered it."""
    _, new, _, blocks = _ahead(_cycle())
    tags = [x.op.tag for x in new]
    assert tags.index(MMA_LOAD_B) == tags.index(MMA) + 1
    assert [x.op.wait_value for x in new if x.op.tag == WAIT_LGKM] == [4, 8]
    assert [(i, x.op.wait_value) for i, x in enumerate(new) if x.op.tag == WAIT_VM] == \
        [(1, 0), (3, 0)]
    assert new[2].op.tag == BARRIER
    assert len(blocks) == len(new)


def test_a_read_that_would_overwrite_a_fragment_in_use_is_refused():
    with pytest.raises(ConfigError, match="reads a fragment register"):
        _ahead(_cycle(first_mma=(1, 0)))


def test_a_guard_that_would_precede_its_load_is_refused():
    with pytest.raises(ConfigError, match="completed before a barrier that comes before"):
        _ahead(_cycle(load_segment_early=False))


def test_unknown_counts_and_modes_are_errors():
    with pytest.raises(ConfigError, match="lgkmcnt counts are not known"):
        frags_ahead([], [], [], [], (0, 4), lambda ch: 2, "within")
    with pytest.raises(ConfigError, match="frags_ahead must be one of none, within, across, balanced"):
        frags_ahead([], [], [], [], (8, 4), lambda ch: 2, "sometimes")
    with pytest.raises(ConfigError, match="frags_ahead"):
        parse_pipeline("pingpong{frags_ahead=sometimes}")


def test_defaults_balanced_across_for_fp8_none_otherwise():
    assert parse_pipeline("pingpong{is_fp8=true}").ahead_mode == "balanced-across"
    assert parse_pipeline("pingpong{dtype=i8}").ahead_mode == "none"
    assert parse_pipeline("pingpong").ahead_mode == "none"
    assert parse_pipeline("pingpong{dtype=fp8 frags_ahead=none}").ahead_mode == "none"
