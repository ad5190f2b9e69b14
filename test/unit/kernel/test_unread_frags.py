"""The epilogue's fragment reads no MMA reads, from the schedule alone
(``pipeline_mlir/kernel/unread_frags.py``): the same reads the lowering finds unused on the
IR (``pipeline_mlir/lowering/dead_reads.py``), and the numpy reference does not run them."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.reference import EmulationError, emulate_kernel, reference_gemm
from pipeline_mlir.kernel.unread_frags import as_emitted, unread_reads
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import OpDesc, OpRole, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline

BF16 = "4wave{dtype=bf16 BM=128 BN=128 BK=64}"


@pytest.mark.parametrize("spec", [BF16, "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
                                  "4wave{dtype=mxfp4 BK=256}", "pingpong"])
def test_the_rule_marks_what_the_lowering_marks(spec):
    """The lowered plan's ``unissued`` (read off the IR) is what the schedule's rule gives
    for the same entries; the 4-wave kernels have some (A and B, and the MX scales)."""
    plan = compile(CompileOptions(schedule=spec, emit="mlir")).plans[0]
    assert as_emitted(replace(plan, unissued=frozenset())).unissued == plan.unissued
    assert bool(plan.unissued) == spec.startswith("4wave")


def _entries(*ops: OpDesc) -> list[ScheduleEntry]:
    return [ScheduleEntry(op, i, Phase.EPILOGUE, False) for i, op in enumerate(ops)]


def _read(tag: int, subtile: int) -> OpDesc:
    channel = 0 if tag == MMA_LOAD_A else 1
    return OpDesc.logical(tag, channel, 0, subtile).with_(role=OpRole.FRAGMENT_LOAD)


def _mma(row: int, col: int) -> OpDesc:
    return OpDesc.logical(MMA, -1, row, col).with_(role=OpRole.COMPUTE)


def test_a_read_an_mma_reads_stays():
    """MMA (r, c) reads A's subtile r and B's subtile c; a read is unread when no MMA after
    it reads its subtile before the next read of that subtile."""
    entries = _entries(_read(MMA_LOAD_A, 1), _read(MMA_LOAD_B, 0), _mma(1, 0),
                       _read(MMA_LOAD_A, 1), _read(MMA_LOAD_B, 1), _read(MMA_LOAD_B, 1))
    assert unread_reads(entries, {0, 1}) == {3, 4, 5}
    entries = _entries(_read(MMA_LOAD_A, 1), _read(MMA_LOAD_A, 1), _mma(1, 0))
    assert unread_reads(entries, {0, 1}) == {0}
    assert unread_reads(_entries(_read(MMA_LOAD_B, 0), _mma(1, 0)), {0, 1}) == frozenset()
    # a counted lgkmcnt wait after an unread read keeps it
    entries = _entries(_mma(0, 0), _read(MMA_LOAD_A, 1), OpDesc.wait_lgkm(1), _mma(0, 0))
    assert unread_reads(entries, {0, 1}) == frozenset()


def test_the_reference_does_not_run_an_unread_read():
    """A read no MMA reads is not run by the numpy reference: the epilogue's unread read of
    A made one of an LDS slot nothing fills is not found reading it, and C is exact; made a
    read an MMA after it reads, it is run and the empty slot found."""
    k = gemm_kernel(parse_pipeline(BF16))
    compiled = k.schedule.compile()
    g = k.geometry
    plan = as_emitted(k.plan(compiled))
    (i, _) = sorted(plan.unissued)
    epi = list(compiled.epilogue)
    rng = np.random.default_rng(5)
    A = rng.integers(-4, 5, (g.BM, 4 * g.BK)).astype(np.float64)
    B = rng.integers(-4, 5, (g.BN, 4 * g.BK)).astype(np.float64)
    for stage, fails in ((5, False), (5, True)):
        bad = epi[:i] + [replace(epi[i], op=epi[i].op.with_(stage=stage))] + epi[i + 1:]
        if fails:       # an MMA of A's subtile 0 after it: the read is run
            bad.append(ScheduleEntry(_mma(0, 0), -1, Phase.EPILOGUE, False))
        c = SimpleNamespace(prologue=compiled.prologue, kernel=compiled.kernel, epilogue=bad,
                            warp_stagger_index=compiled.warp_stagger_index)
        if fails:
            with pytest.raises(EmulationError, match="empty LDS slot"):
                emulate_kernel(k, c, A, B)
        else:
            C, _ = emulate_kernel(k, c, A, B)
            assert np.array_equal(C, reference_gemm(A, B, g.dtype))
