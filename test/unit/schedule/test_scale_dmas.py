"""The MX scale DMAs placed apart from their element tiles' DMAs in an interleave pipeline
that does not spread its global loads (pipeline_mlir/schedule/scale_dmas.py): element DMAs
after the first MFMAs, scale DMAs after the last, the fragment reads where the even share
puts them, the DMAs in program order."""

from __future__ import annotations

import pytest

from pipeline_mlir.schedule.fences import (SPREAD_AFTER_READS, SPREAD_OVER_MMA,
                                           interleave_groups, load_groups)
from pipeline_mlir.schedule.scale_dmas import (SCALE_DMA, mark_scale_dmas, plain_kinds,
                                               scale_slots)

DS, VM, SC = "ds_read", "vmem_read", SCALE_DMA
#: one fragment load and one global load of each 128x128 MX tile, as the lowering sees them
MXFP8_128 = [DS] * 6 + [VM, VM, SC]            # 4 MFMAs per MMA
MXFP4_128_BK256 = [DS] * 8 + [VM, VM, SC]      # 8 MFMAs
MXFP4_128_BK128 = [DS] * 4 + [VM, SC]          # 4 MFMAs


def test_the_lowering_marks_the_dmas_of_a_scale_channels_global_load():
    assert mark_scale_dmas([VM]) == [SC]
    assert mark_scale_dmas([VM, "salu", VM]) == [SC, "salu", SC]
    assert plain_kinds([DS, VM, SC, "mfma"]) == [DS, VM, VM, "mfma"]


@pytest.mark.parametrize("kinds", [[], [DS, DS]])
def test_a_scale_channels_global_load_without_a_dma_is_refused(kinds):
    with pytest.raises(ValueError, match="scale DMAs: a global load of an MX scale channel "
                                         "issues no DMA"):
        mark_scale_dmas(kinds)


def test_element_dmas_after_the_first_mfmas_scales_after_the_last():
    assert interleave_groups(4, MXFP8_128) == [
        ("mfma", 1), (DS, 3), (VM, 1), ("mfma", 1), (DS, 2), (VM, 1), ("mfma", 1),
        (DS, 1), ("mfma", 1), (VM, 1)]
    assert interleave_groups(4, MXFP4_128_BK128) == [
        ("mfma", 1), (DS, 2), (VM, 1), ("mfma", 1), (DS, 2), ("mfma", 1), ("mfma", 1),
        (VM, 1)]
    slots = scale_slots(8, MXFP4_128_BK256, [2, 2, 2, 1, 1, 1, 1, 1])
    assert slots == [[DS, DS, VM], [DS, DS, VM], [DS, DS], [DS], [DS], [], [], [VM]]


def test_without_scales_the_even_share_is_kept():
    # the element DMAs of an unscaled kernel follow the next MFMAs, one each
    assert interleave_groups(4, [DS] * 6 + [VM, VM, VM]) == [
        ("mfma", 1), (DS, 3), ("mfma", 1), (DS, 2), ("mfma", 1), (DS, 1), (VM, 1),
        ("mfma", 1), (VM, 2)]


def test_the_dmas_keep_their_program_order():
    # two global loads in one run: the second's element DMAs cannot pass the first's
    # scale DMA, so they follow the last MFMA too
    slots = scale_slots(4, [DS, DS, VM, SC, VM, SC], [2, 2, 1, 1])
    assert slots == [[DS, DS, VM], [], [], [VM, VM, VM]]
    order = [k for s in slots for k in s if k != DS]
    assert len(order) == 4
    # one MFMA: everything after it
    assert scale_slots(1, [DS, VM, SC], [3]) == [[DS, VM, VM]]


@pytest.mark.parametrize("spread", [True, SPREAD_AFTER_READS, SPREAD_OVER_MMA])
def test_spread_pipelines_see_the_scale_dmas_as_global_loads(spread):
    # the 256x256 MX kernels' pipelines (spread) are what they were
    loads = [DS] * 8 + [VM, VM, SC]
    assert interleave_groups(16, loads, spread) == interleave_groups(16, plain_kinds(loads),
                                                                     spread)
    assert load_groups([DS, DS, VM, SC]) == load_groups([DS, DS, VM, VM])


@pytest.mark.parametrize("mfmas,loads,share", [
    (0, [DS], []), (2, [DS, VM, SC], [1, 1]), (2, [DS, SC], [1])])
def test_a_share_that_does_not_cover_the_loads_is_refused(mfmas, loads, share):
    with pytest.raises(ValueError, match="cannot be shared"):
        scale_slots(mfmas, loads, share)
