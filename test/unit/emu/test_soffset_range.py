"""The emulator reports a buffer access whose result depends on whether soffset is range-checked.

The emulator's range check counts ``soffset`` (``voffset + inst_offset + soffset <
num_records``); LLVM's AMDGPU documentation says soffset is excluded from it.  An access
whose verdict differs between the two, for some active lane's dword, is a ``soffset-range``
finding; an access that is in range, or out of range, either way runs silently (an
out-of-range dword reads 0).
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.machine import GlobalMemory

LANES = np.arange(64)
RECORDS = 1024                      # bytes: 256 words


def _run(op: str, voff, soff: int):
    glob = GlobalMemory()
    base = glob.add("X", np.arange(RECORDS // 4, dtype=np.uint32) + 1000)

    def setup(m):
        w = m.waves[0]
        w.S[8], w.S[9], w.S[10], w.S[11] = base & 0xFFFFFFFF, base >> 32, RECORDS, 0x27000
        w.S[12] = soff
        w.S[124] = 0
        w.V[1] = np.asarray(voff, dtype=np.uint32)[None]
        w.V[2:7] = 7
    m = run_snippet(f"{op}\ns_waitcnt vmcnt(0)\ns_endpgm", glob=glob, setup=setup,
                    lds_bytes=2048)
    return m, glob.buffer("X").view(np.uint32)


@pytest.mark.parametrize("op", ["buffer_load_dword v2, v1, s[8:11], s12 offen",
                                "buffer_store_dword v2, v1, s[8:11], s12 offen",
                                "buffer_load_dword v1, s[8:11], s12 offen lds",
                                "buffer_load_dwordx4 v[2:5], v1, s[8:11], s12 offen"])
def test_an_access_in_range_only_without_soffset_is_a_finding(op):
    """Lanes 32.. are in range by their VGPR offset, past the records with soffset 512."""
    with pytest.raises(Finding, match=r"soffset-range: .*lane 32 \(workgroup slot 0\): dword "
                                      r"0 at voffset \+ offset 512 .* 1024 bytes, with "
                                      r"soffset 512 added"):
        _run(op, 16 * LANES, 512)


def test_each_dword_is_judged_alone():
    """A dwordx4 whose last dword only crosses the end when soffset is added: dword 3."""
    with pytest.raises(Finding, match=r"soffset-range: .*lane 0 .*dword 3 at voffset \+ "
                                      r"offset 0 .*soffset 1012"):
        _run("buffer_load_dwordx4 v[2:5], v1, s[8:11], s12 offen", 0 * LANES, 1012)


def test_an_access_out_of_range_either_way_reads_zero_silently():
    """Lanes 32.. are past the records by their VGPR offset alone: zeros, no finding; lanes
    below are in range with soffset 128 added and read their words."""
    voff = np.where(LANES < 32, 4 * LANES, RECORDS + 4 * LANES)
    m, _ = _run("buffer_load_dword v2, v1, s[8:11], s12 offen", voff, 128)
    v = m.waves[0].V[2, 0]
    assert (v[32:] == 0).all()
    assert np.array_equal(v[:32], 1000 + 128 // 4 + LANES[:32])


def test_an_access_in_range_either_way_runs_and_a_store_is_kept():
    m, words = _run("buffer_store_dword v1, v1, s[8:11], s12 offen", 4 * LANES, 256)
    assert np.array_equal(words[64:128], 4 * LANES)
    m, _ = _run("buffer_load_dword v2, v1, s[8:11], s12 offen", 4 * LANES, 256)
    assert np.array_equal(m.waves[0].V[2, 0], 1064 + LANES)
