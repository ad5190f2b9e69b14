"""The simulator's fixed kernel is the kernel the lowering emits: the epilogue's fragment
reads no MMA reads (``pipeline_mlir/kernel/unread_frags.py``, the lowered plan's
``unissued``) are not run by its functional and timing models; the findings of the schedule
as printed and a simulated dump run every entry as printed."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.lds_access import kernel_lds
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.schedule.types import OpRole
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim import report as R
from pipeline_mlir.sim.functional import KernelRun
from pipeline_mlir.sim.repair import repair

SPEC = "4wave{dtype=bf16 BM=128 BN=128 BK=64}"


@pytest.fixture(scope="module")
def lowered():
    return compile(CompileOptions(schedule=SPEC, emit="mlir")).plans[0]


def _epilogue_entries(streams) -> set[int]:
    return {i.origin[2] for _, ins in streams for i in ins if i.origin[:1] == ("epilogue",)}


def test_the_fixed_kernel_runs_what_the_lowering_emits(lowered):
    rep = R.simulate_schedule(parse_pipeline(SPEC), ("llvm",), range(0, 2), lds_of=kernel_lds)
    ran = _epilogue_entries(rep.timing[0].streams)
    assert lowered.unissued and not ran & lowered.unissued
    assert any(lowered.epilogue[i].op.role == OpRole.FRAGMENT_LOAD for i in ran)
    # the fixed phases are the lowered plan's: the indices name the same entries
    schedule = parse_pipeline(SPEC)
    fixed = repair(schedule.compile(), rep.shape, range(0, 2))
    assert [e.op for e in fixed.epilogue] == [e.op for e in lowered.epilogue]
    steps = KernelRun(fixed, rep.shape, 1, emitted=True).groups[0].steps
    assert not {s.entry for s in steps if s.phase == "epilogue"} & lowered.unissued
    steps = KernelRun(fixed, rep.shape, 1).groups[0].steps
    assert {s.entry for s in steps if s.phase == "epilogue"} >= lowered.unissued


def test_a_dump_runs_every_entry():
    """A schedule dump is the reference's printed schedule: its epilogue's reads for the next
    partition (``EPI[25]``, ``EPI[29]``) are run."""
    schedule = parse_pipeline(SPEC)
    text = compile(CompileOptions(schedule=SPEC, emit="schedule")).checked_output()
    rep = R.simulate_dump(text, schedule, "dump", ("llvm",), range(0, 2))
    assert {25, 29} <= _epilogue_entries(rep.timing[0].streams)
