"""The global loads of an interleave pipeline spread over the whole MMA where the MFMAs
after the fragment reads are too few to cover the CU's DMAs (the MX 256x256 kernels;
``pipeline_mlir.kernel.load_spread``), and after the reads elsewhere."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline_mlir.kernel.load_spread import load_l2_cycles, mfma_cycles, spread_mode
from pipeline_mlir.schedule.fences import (SPREAD_AFTER_READS, SPREAD_OVER_MMA,
                                           interleave_groups, spread_slots)
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.trace import kernel_shape

DS, VM = "ds_read", "vmem_read"
MXFP4_256 = "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}"


def test_over_mma_puts_the_global_loads_among_the_reads():
    assert spread_slots(16, [DS] * 8 + [VM] * 3, over_mma=True) == \
        [[DS], [DS, VM]] + [[DS]] * 4 + [[DS, VM], [DS]] + [[]] * 3 + [[VM]] + [[]] * 4
    # the reads keep their one-per-MFMA places whatever the program order of the loads
    assert spread_slots(4, [VM, DS, DS], over_mma=True) == [[DS], [DS, VM], [], []]
    assert spread_slots(1, [DS, VM], over_mma=True) == [[DS, VM]]
    # after the reads (the default) the same loads wait for the ninth MFMA
    assert spread_slots(16, [DS] * 8 + [VM] * 3)[:9] == [[DS]] * 8 + [[VM]]


def test_interleave_groups_over_mma():
    assert interleave_groups(4, [DS, DS, VM], spread=SPREAD_OVER_MMA) == [
        ("mfma", 1), (DS, 1), ("mfma", 1), (DS, 1), (VM, 1), ("mfma", 1), ("mfma", 1)]
    assert interleave_groups(4, [DS, DS, VM], spread=SPREAD_AFTER_READS) == \
        interleave_groups(4, [DS, DS, VM], spread=True) == [
        ("mfma", 1), (DS, 1), ("mfma", 1), (DS, 1), ("mfma", 1), (VM, 1), ("mfma", 1)]


@pytest.mark.parametrize("spec,mode", [
    (MXFP4_256, SPREAD_OVER_MMA),                                   # 144 > 8 x 16 cycles
    ("4wave{dtype=mxfp8 BM=256 BN=256 BK=128}", SPREAD_OVER_MMA),   # 272 > 4 x 32
    ("4wave{dtype=fp8 BM=256 BN=256 BK=128}", SPREAD_AFTER_READS),  # 256 = 8 x 32
    ("4wave{dtype=bf16 BM=256 BN=256 BK=64}", SPREAD_AFTER_READS),  # 256 < 24 x 16
])
def test_spread_mode_of_each_kernel(spec, mode):
    named = parse_pipeline(spec)
    shape = kernel_shape(named)
    assert spread_mode(shape) == mode


def test_the_rule_is_the_dma_and_mfma_cycles():
    shape = kernel_shape(parse_pipeline("4wave{dtype=fp8 BM=256 BN=256 BK=128}"))
    assert mfma_cycles(shape) == 32 and load_l2_cycles(shape, 0) == 256
    # one more DMA per global load, or one more read per fragment load: the MFMAs after
    # the reads no longer cover the DMAs
    assert spread_mode(replace(shape, vm_per_load=(5, 4))) == SPREAD_OVER_MMA
    assert spread_mode(replace(shape, lgkm_per_load=(8, 9))) == SPREAD_OVER_MMA
    mx = kernel_shape(parse_pipeline(MXFP4_256))
    assert mfma_cycles(mx) == 16 and load_l2_cycles(mx, 1) == 144
    # the same MX counts at the FP8 rate would fit after the reads
    assert spread_mode(replace(mx, mfma_formats=(0, 0))) == SPREAD_AFTER_READS
    # a shape without its MFMAs keeps the loads after the reads
    assert spread_mode(replace(mx, mfma=None, mfmas_per_mma=None)) == SPREAD_AFTER_READS


def test_the_mx_kernel_is_lowered_with_its_loads_over_the_mma():
    import re

    from kernel_builds import build
    from test_spread_loads import MASKS

    mx, fp8 = build("4wave-mxfp4-256"), build("4wave-fp8-256")
    assert mx.plan.spread_loads and mx.plan.spread_over_mma
    assert fp8.plan.spread_loads and not fp8.plan.spread_over_mma
    for b, among in ((mx, True), (fp8, False)):
        groups = "".join(MASKS[g] for g in re.findall(
            r"sched\.group\.barrier\(i32 (\d+), i32 1, i32 1\)", b.ll))
        # a global load right after the fragment read that follows the same MFMA
        assert ("MDG" in groups) is among, groups
