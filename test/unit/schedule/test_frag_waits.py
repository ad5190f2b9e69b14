"""Waits per fragment (``waits=fragment``): derivation, the option, and the simulator's
check of a fragment wait one too weak."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.frag_waits import in_flight_after
from pipeline_mlir.schedule.printing import format_schedule
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import WAIT_FRAG, WAIT_LGKM, OpDesc, OpRole
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.repair import repair
from pipeline_mlir.sim.trace import kernel_shape


def _frag(ch: int, sub: int) -> OpDesc:
    return OpDesc.logical(MMA_LOAD_A if ch == 0 else MMA_LOAD_B, ch, 0, sub).with_(
        role=OpRole.FRAGMENT_LOAD)


def _mma(r: int, c: int) -> OpDesc:
    return OpDesc.logical(MMA, -1, r, c).with_(role=OpRole.COMPUTE)


def test_in_flight_after_counts_the_reads_after_the_last_consumed_one():
    lgkm = (8, 4)
    ops = [_frag(1, 0), _frag(0, 0), _frag(0, 1), _frag(1, 1)]
    assert in_flight_after(ops, _mma(0, 0), lgkm) == 8 + 4   # A1 and B1 come after A0
    assert in_flight_after(ops, _mma(1, 1), lgkm) == 0
    assert in_flight_after(ops, _mma(1, 0), lgkm) == 4
    assert in_flight_after(ops[:1], _mma(0, 0), lgkm) is None  # A0 not loaded: no count


def _waits(spec: str) -> list[int]:
    return [e.op.tag for e in parse_pipeline(spec).compile().kernel
            if e.op.tag in (WAIT_FRAG, WAIT_LGKM)]


@pytest.mark.parametrize("fp8", ["false", "true"])
def test_pingpong_kernels_wait_per_fragment_by_default(fp8):
    frag = _waits(f"pingpong{{is_fp8={fp8}}}")
    block = _waits(f"pingpong{{is_fp8={fp8} waits=block}}")
    # the six post-barrier lgkmcnt(0) of each iteration become fragment waits; the two
    # top-of-half waits before a barrier stay
    assert frag.count(WAIT_FRAG) == 6 and frag.count(WAIT_LGKM) == 2
    assert block.count(WAIT_FRAG) == 0 and len(block) == len(frag)


def test_block_form_is_the_reference_form():
    # the core schedule (what the golden listings are compiled from) is the block form
    spec = "pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2}"
    block = format_schedule(parse_pipeline(spec[:-1] + " waits=block}").compile())
    assert "WAIT_FRAG" not in block
    frag = format_schedule(parse_pipeline(spec).compile())
    assert "WAIT_FRAG" in frag
    assert frag.replace("WAIT_FRAG ", "WAIT_LGKM ") == block


def test_bad_waits_value_is_a_located_error():
    with pytest.raises(PipelineError, match=r"option 'waits' expects one of fragment\|block, "
                                            r"got 'blocks'"):
        parse_pipeline("pingpong{waits=blocks}")
    with pytest.raises(ConfigError, match="waits must be one of fragment, block, got 'x'"):
        DeclarativeSchedule(waits="x")


def test_waits_is_a_tune_knob():
    knobs = {k.name: k.values for k in parse_pipeline("pingpong").tune_knobs}
    assert knobs["waits"] == ("fragment", "block")


def _weakened(compiled, k: int):
    """The compiled schedule with its ``k``-th fragment wait of the kernel one weaker."""
    idx = [i for i, e in enumerate(compiled.kernel) if e.op.tag == WAIT_FRAG][k]
    kernel = list(compiled.kernel)
    e = kernel[idx]
    kernel[idx] = replace(e, op=OpDesc.wait_frag(e.op.wait_value + 1))
    return replace(compiled, kernel=kernel), idx


@pytest.mark.parametrize("spec", ["pingpong{is_fp8=false}", "pingpong{is_fp8=true}"])
def test_simulator_finds_the_fragment_waits_exact(spec):
    named = parse_pipeline(spec)
    compiled, shape = named.compile(), kernel_shape(named)
    assert simulate(compiled, shape, range(0, 3)).safe
    for k in range(6):
        weak, idx = _weakened(compiled, k)
        found = [h for h, _ in simulate(weak, shape, range(0, 3)).distinct_hazards()]
        assert any(h.kind == "fragment-wait" for h in found), k
        h = next(h for h in found if h.kind == "fragment-wait")
        assert h.phase == "kernel" and h.entry > idx and "leaves in flight" in h.message


def test_in_flight_after_counts_the_reads_an_mma_leaves_unread():
    """An MMA reading half of a fragment load (a loop split along K): up to ``unread`` of
    that load's instructions may still be in flight after it, besides what follows it."""
    lgkm = (8, 4)
    ops = [_frag(1, 0), _frag(0, 0), _frag(0, 1), _frag(1, 1)]
    assert in_flight_after(ops, _mma(1, 1), lgkm, (0, 2)) == 2       # B1 half read
    assert in_flight_after(ops, _mma(1, 1), lgkm, (3, 0)) == 0       # B1 whole: A1 done
    assert in_flight_after(ops, _mma(1, 0), lgkm, (4, 2)) == 8       # half of A1, and B1
    assert in_flight_after(ops, _mma(1, 0), lgkm, (0, 4)) == 4       # A1 last: B1 after
    assert in_flight_after(ops, _mma(0, 1), lgkm, (4, 2)) == 2


#: the i8 128x128 8-wave kernel's counts (A along K: each MMA reads half of a B load)
SPLIT = ("pingpong{dtype=i8 mfma=32x32x32 lgkm_per_load_a=2 lgkm_per_load_b=4 "
         "vm_per_load_a=1 vm_per_load_b=1 frags_ahead=balanced-across waits=fragment")


def test_unread_reads_make_the_printed_schedule_race_and_the_kernel_wait():
    """Counted as whole (``unread_b=0``), the fragment waits leave the B slot's refill
    after the next barrier unordered with B's unread reads, and the simulator sees nothing;
    counted as in flight (``unread_b=2``), the simulator finds the race in the schedule as
    printed and the kernel (with sched-fix-hazards' waits) is safe, each MMA finding its
    consumed half of the load complete."""
    whole = parse_pipeline(SPLIT + "}")
    assert simulate(whole.compile(), kernel_shape(whole), range(0, 3)).safe
    named = parse_pipeline(SPLIT + " unread_b=2}")
    compiled, shape = named.compile(), kernel_shape(named)
    assert shape.frag_unread == (0, 2)
    found = {h.kind for h, _ in simulate(compiled, shape, range(0, 3)).distinct_hazards()}
    assert found == {"war"}, found
    fixed = repair(compiled, shape, range(0, 3))
    assert fixed.fixes and simulate(fixed, shape, range(0, 3)).safe
