"""Spread global loads in the interleave pipelines (``sched-lower-to-rocdl{spread-loads}``).

The kernels with accumulators in AGPRs (the 4-wave 256x256 tiles, one wave per SIMD)
spread each MMA block's global loads over the MFMAs after its fragment reads; the others
keep one load after each of the first MFMAs.
"""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.schedule.fences import interleave_groups, spread_slots

DS, VM = "ds_read", "vmem_read"
MASKS = {"8": "M", "256": "D", "32": "G"}   # MFMA, DS read, VMEM read (sync id 1)


def test_spread_slots_keeps_reads_first_and_spreads_the_rest():
    assert spread_slots(16, [DS] * 8 + [VM] * 4) == \
        [[DS]] * 8 + [[VM], [], [VM], [], [VM], [], [VM], []]
    assert spread_slots(32, [DS] * 8 + [VM] * 4) == \
        [[DS]] * 8 + ([[VM]] + [[]] * 5) * 4
    # more loads than MFMAs: the last MFMA takes the reads left, the global loads share
    assert spread_slots(2, [DS] * 3 + [VM] * 3) == [[DS], [DS, DS, VM, VM, VM]]
    assert spread_slots(3, [VM, VM, VM]) == [[VM], [VM], [VM]]
    assert spread_slots(4, [DS, DS]) == [[DS], [DS], [], []]
    assert spread_slots(1, []) == [[]]


def test_interleave_groups_spread():
    assert interleave_groups(6, [DS] * 2 + [VM] * 2, spread=True) == [
        ("mfma", 1), (DS, 1), ("mfma", 1), (DS, 1), ("mfma", 1), (VM, 1), ("mfma", 1),
        ("mfma", 1), (VM, 1), ("mfma", 1)]
    # without spread the global loads follow the next MFMAs one each
    assert interleave_groups(6, [DS] * 2 + [VM] * 2) == [
        ("mfma", 1), (DS, 1), ("mfma", 1), (DS, 1), ("mfma", 1), (VM, 1), ("mfma", 1),
        (VM, 1), ("mfma", 1), ("mfma", 1)]
    assert interleave_groups(0, [DS], spread=True) == []


def _pipelines(ll: str) -> list[str]:
    """The interleave pipelines of the LLVM IR, one letter per group (sync id 1)."""
    groups = re.findall(r"sched\.group\.barrier\(i32 (\d+), i32 1, i32 1\)", ll)
    return "".join(MASKS[g] for g in groups).replace("MD", "|MD").split("|")[1:]


@pytest.mark.parametrize("key, spread", [("4wave-fp8-256", True), ("4wave-bf16", False)])
def test_kernels_spread_where_accumulators_are_in_agprs(key, spread):
    from kernel_builds import build

    b = build(key)
    assert b.plan.spread_loads is spread
    pipes = [p for p in _pipelines(b.ll) if "G" in p]
    assert pipes
    for p in pipes:
        gaps = [len(s) for s in p[p.index("G"):].split("G")[1:-1]]   # MFMAs between loads
        assert all(g >= 2 for g in gaps) if spread else all(g == 1 for g in gaps), p
