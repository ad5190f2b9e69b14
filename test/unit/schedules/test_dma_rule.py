"""``dma=auto``'s one timing rule (pipeline_mlir/schedules/dma_rule.py): each condition
refuses dwords with its reason, and the rule gives every 4-wave tile its width, the BF16/FP8
and the MX kernels alike."""

from __future__ import annotations

import pytest

from pipeline_mlir.records import replace
from pipeline_mlir.schedules.dma_rule import (LOOP_LOADS, dword_refusal, mfma_cycles,
                                              spread_over_mma)
from pipeline_mlir.schedules.geometry import KernelTraits, four_wave_geometry
from pipeline_mlir.schedules.mx import last_dma_wait
from pipeline_mlir.schedules.registry import parse_pipeline


def test_the_waits_and_mfma_cycles_the_rule_compares():
    # the last of 4 waves waits 3 x 16 cycles for a 16-byte DMA, 3 x 4 for a dword one
    assert (last_dma_wait(4, 16), last_dma_wait(4, 4)) == (48, 12)
    cycles = {d: mfma_cycles(four_wave_geometry(d, 256, 256, 128 if d[-1] in "48" else 64))
              for d in ("bf16", "fp8", "mxfp4", "mxfp8")}
    assert cycles == {"bf16": 16, "fp8": 32, "mxfp4": 16, "mxfp8": 32}
    # MXFP4: 144 L2 cycles a load against 8 x 16 after the reads: over the whole MMA
    assert spread_over_mma(144, 16, 8, 16) and not spread_over_mma(256, 16, 8, 32)


@pytest.mark.parametrize("tile, reason", [
    (("bf16", 256, 256, 64), None),
    (("mxfp4", 256, 256, 128), None),
    (("fp8", 256, 256, 128), "16 dword DMAs of a global load for 8 MFMA gaps"),
    (("mxfp8", 256, 256, 128), "17 dword DMAs of a global load for 16 MFMA gaps"),
    (("bf16", 128, 128, 64), "4 x 8 DMAs take 128 issue cycles of an MMA's 128"),
    (("mxfp4", 128, 128, 256), "9 dword DMAs of a global load for 8 MFMA gaps"),
    (("bf16", 256, 256, 128), "vmcnt (63) holds 1 loads of 32 DMAs"),
])
def test_each_condition_refuses_with_its_reason(tile, reason):
    assert dword_refusal(four_wave_geometry(*tile)) == reason


def test_the_l2_wait_condition_needs_waves_in_step_whose_wait_the_mfma_cannot_cover():
    g = four_wave_geometry("bf16", 256, 256, 64)
    # 2 waves: a 16-cycle wait fits under the 16-cycle MFMA; 8: even a dword DMA's 28 do not
    assert dword_refusal(g, KernelTraits(2, 1)) == (
        "the last of 2 waves waits 16 cycles for a 16-byte DMA and 4 for a dword one against "
        "a 16-cycle MFMA")
    assert dword_refusal(g, KernelTraits(2, 4)).startswith("the last of 8 waves waits 112 ")


def test_the_counter_condition_allows_one_load_less_in_flight():
    g = four_wave_geometry("bf16", 256, 256, 64)
    assert 63 // 16 == LOOP_LOADS - 1 and dword_refusal(g) is None
    # a tile twice as wide with 5 copies a lane (20 DMAs a load): 3 loads still fit; with 6
    # (24) only 2, the loop would wait for two loads more than derived
    wider = replace(g, vm_per_load_a=5, vm_per_load_b=5, BM=512, BN=512)
    assert dword_refusal(wider) is None
    wider = replace(wider, vm_per_load_a=6, vm_per_load_b=6)
    assert dword_refusal(wider) == "vmcnt (63) holds 2 loads of 24 DMAs"


#: the width dma=auto gives each tile (dtype, BM=BN, BK)
AUTO = {("bf16", 256, 64): "dword", ("mxfp4", 256, 128): "dword", ("fp8", 256, 128): "x4",
        ("mxfp8", 256, 128): "x4", ("fp8", 128, 128): "x4", ("mxfp4", 128, 256): "x4"}


@pytest.mark.parametrize("spec, width", [
    (f"4wave{{dtype={d} BM={b} BN={b} BK={k}}}", w) for (d, b, k), w in AUTO.items()])
def test_dma_auto_is_the_rule_for_every_dtype(spec, width):
    schedule = parse_pipeline(spec)
    assert schedule.dma_width() == width
    g = schedule.kernel_geometry()
    assert g.dma_pieces == (4 if width == "dword" else 1)
    # the other width is the kernel's too: the MX kernels take dma=x4 and dma=dword
    other = "x4" if width == "dword" else "dword"
    flipped = parse_pipeline(spec[:-1] + f" dma={other}}}").kernel_geometry()
    assert flipped.dma_pieces == (4 if other == "dword" else 1)
    assert flipped.element_copies(0) == g.element_copies(0)
