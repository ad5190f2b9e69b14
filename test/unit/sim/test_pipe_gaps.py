"""The MFMA pipe's idle gaps of a CU-model run and their causes (sim/pipe_gaps.py)."""

from __future__ import annotations

import pytest

from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.pipe_gaps import PipeGapError, gaps_per_iteration, pipe_gaps

MFMA = "v_mfma_f32_16x16x32_bf16"


def _mfmas(n: int, tag: str) -> list[Instr]:
    return [Instr("mfma", MFMA, (f"{tag}{k}",), ("a", "b", f"{tag}{k}")) for k in range(n)]


def _dma() -> Instr:
    return Instr("vmem_load_lds", "buffer_load_dwordx4", uses=("v1",))


def test_back_to_back_mfmas_leave_no_gap():
    run = simulate_cu([(0, _mfmas(6, "c"))], "measured")
    assert pipe_gaps(run, (0, run.total)) == []


def test_a_dependent_mfma_leaves_a_gap_named_by_its_register_dependency():
    chain = [Instr("mfma", MFMA, ("acc",), ("a", "b", "acc"))] * 3
    run = simulate_cu([(0, chain)], "measured")
    gaps = pipe_gaps(run, (0, run.total))
    assert len(gaps) == 2 and all(g.cycles > 0 and g.simd == 0 for g in gaps)
    assert {g.cause for g in gaps} == {f"{MFMA}: register dependency"}


def test_colliding_dmas_of_four_waves_idle_the_last_waves_pipe():
    # four waves in step, one per SIMD, each: MFMA, an LDS DMA, MFMA.  The CU's L2
    # share serves one DMA at a time, so the later waves' second MFMAs wait for it
    waves = [(s, _mfmas(1, "x") + [_dma()] + _mfmas(1, "y")) for s in range(4)]
    run = simulate_cu(waves, "measured")
    gaps = pipe_gaps(run, (0, run.total))
    assert gaps, "the DMA collision must idle some pipe"
    assert {g.cause.split(":")[0] for g in gaps} == {"buffer_load_dwordx4"}
    # the longer the queue in front of a wave's DMA, the longer its pipe idles
    by_simd = {g.simd: g.cycles for g in gaps}
    assert max(by_simd.values()) > min(by_simd.values())
    per_it = gaps_per_iteration(gaps, 1, 4)
    assert sum(per_it.values()) == pytest.approx(sum(g.cycles for g in gaps) / 4)


def test_a_window_keeps_only_its_gaps():
    chain = [Instr("mfma", MFMA, ("acc",), ("a", "b", "acc"))] * 4
    run = simulate_cu([(0, chain)], "measured")
    every = pipe_gaps(run, (0, run.total))
    first = pipe_gaps(run, (0, every[0].start + every[0].cycles + 1))
    assert first == every[:1]


@pytest.mark.parametrize("window", [(5, 5), (9, 3), (-1, 4)])
def test_an_empty_or_negative_window_is_refused(window):
    run = simulate_cu([(0, _mfmas(2, "c"))], "measured")
    with pytest.raises(PipeGapError, match="window"):
        pipe_gaps(run, window)


@pytest.mark.parametrize("iterations, simds", [(0, 4), (-2, 4), (3, 0)])
def test_per_iteration_needs_iterations_and_simds(iterations, simds):
    with pytest.raises(PipeGapError, match="iterations > 0 and simds >= 1"):
        gaps_per_iteration([], iterations, simds)
