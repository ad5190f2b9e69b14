"""The LDS race shadow at its edges (machine.Machine._lds_index / lds_check): lanes of one
access that span different numbers of blocks at the end of LDS, and a ``ds_write2`` whose two
addresses overlap across its lanes."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import Finding

#: lane l reads the dword at 1020 - 3 l: lane 0 the last dword of 1024 bytes of LDS, aligned
#: (one block), the others unaligned (two blocks each)
END_READ = """
    v_mul_u32_u24_e32 v2, 3, v0
    v_sub_u32_e32 v2, 0x3fc, v2
    ds_read_b32 v4, v2
    s_waitcnt lgkmcnt(0)
    s_endpgm"""


@pytest.mark.parametrize("workgroups", [(0,), (0, 1)])
def test_a_read_whose_lanes_span_unlike_blocks_at_the_end_of_lds(workgroups):
    """Each lane's blocks end at its own last byte: lane 0's one block is the last of its
    workgroup's LDS (no block past it, in the shadow of another slot or past all of them)."""
    lds = np.arange(1024, dtype=np.uint8)

    def setup(m):
        m.lds[:, :1024] = lds
    m = run_snippet(END_READ, workgroups=workgroups, lds_bytes=1024, setup=setup)
    addr = 1020 - 3 * np.arange(64)
    want = lds[addr[:, None] + np.arange(4)].copy().view(np.uint32)[:, 0]
    for g in range(len(workgroups)):
        assert np.array_equal(m.waves[0].V[4, g], want)


def test_a_write2_whose_addresses_overlap_across_lanes_is_a_race():
    """Lane l writes 4 l and 4 l + 4: its second dword is lane l + 1's first; which value
    the hardware keeps is not defined (a located lds-race, not a crash)."""
    text = """
    v_lshlrev_b32_e32 v2, 2, v0
    v_mov_b32_e32 v8, 1
    v_mov_b32_e32 v9, 2
    ds_write2_b32 v2, v8, v9 offset1:1
    s_waitcnt lgkmcnt(0)
    s_endpgm"""
    with pytest.raises(Finding, match=r"lds-race: wave 0 .*'ds_write2_b32 v2, v8, v9 "
                                      r"offset1:1': LDS write of address 4 by its second "
                                      r"address overlaps its first"):
        run_snippet(text)
    # apart (offset1 past every lane's first dword) there is nothing to report
    run_snippet(text.replace("offset1:1", "offset1:64"))


#: each wave writes the dword at 4 (lane % 64): wave 0 from lane 0 only, wave 1 from lanes
#: 1 to 63 (work items 65 to 127): the same addresses under other lanes, no byte shared
DISJOINT_LANES = """
    v_and_b32_e32 v1, 63, v0
    v_lshlrev_b32_e32 v2, 2, v1
    v_mov_b32_e32 v8, 1
    v_cmp_gt_u32_e32 vcc, 1, v0
    v_cmp_lt_u32_e64 s[2:3], {last}, v0
    s_or_b64 exec, vcc, s[2:3]
    ds_write_b32 v2, v8
    s_waitcnt lgkmcnt(0)
    s_endpgm"""


def test_the_same_addresses_under_other_lanes_are_checked_on_those_lanes():
    """The shadow indices kept per access pattern are kept by the lanes too: wave 1's write
    repeats wave 0's addresses but not its lanes, so it touches no byte wave 0 wrote; from
    work item 64 on (lane 0 of wave 1 too) it does, and races."""
    m = run_snippet(DISJOINT_LANES.format(last=64), waves=2)
    assert not m.findings and m.lds[0, :256].view(np.uint32).tolist() == [1] * 64
    with pytest.raises(Finding, match=r"lds-race: wave 1 .*'ds_write_b32 v2, v8': LDS write "
                                      r"of address 0 races the write by wave 0"):
        run_snippet(DISJOINT_LANES.format(last=63), waves=2)
