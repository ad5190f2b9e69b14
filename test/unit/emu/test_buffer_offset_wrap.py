"""A buffer access's VGPR offset and instruction offset add in 32 bits; soffset does not wrap.

gfx950 forms ``VGPR offset + instruction offset`` modulo 2^32 and adds soffset to that
without wrapping (AMD's rocjitsu emulator models gfx950 so, in the ROCm systems
repository; whether the range check counts soffset: test_soffset_range.py).  LLVM relies on the wrap: its loop strength
reduction starts a copy's VGPR offset one K step below 0 and adds the step back as the
instruction offset (``s_movk_i32 s3, 0xfe00`` ... ``buffer_load_dwordx4 ... offen
offset:512`` in IREE's fp8 VectorDistribute kernel of 3 K steps, built by ``iree-compile``
or by our driver), so a lane whose offset is below 512 in the first iteration reads its row
only if the sum wraps.  The emulator once added them in 64 bits: those lanes read zeros
(a wrong C of max error 219 on the first row and column of workgroup 0).
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.machine import GlobalMemory

LANES = np.arange(64)
#: one K step below 0, as LLVM's loop strength reduction starts the offset
BELOW = 0xFFFFFE00


def _words(glob: GlobalMemory, name: str = "X", n: int = 256) -> int:
    return glob.add(name, np.arange(n, dtype=np.uint32) + 1000)


def _setup(base: int, records: int, voff, soff: int = 0):
    def setup(m):
        w = m.waves[0]
        w.S[8], w.S[9], w.S[10], w.S[11] = base & 0xFFFFFFFF, base >> 32, records, 0x27000
        w.S[12] = soff
        w.S[124] = 0                        # M0: an LDS DMA's base
        w.V[1] = np.asarray(voff, dtype=np.uint32)[None]
        w.V[2:7] = 7                        # what a load must overwrite
    return setup


@pytest.mark.parametrize("strict", [False, True])
def test_the_vgpr_offset_and_the_instruction_offset_wrap_at_32_bits(strict):
    """A VGPR offset 512 below 0 plus ``offset:512`` is the lane's own offset: in range, not
    a read of zeros and (strict) not a finding."""
    glob = GlobalMemory()
    glob.strict = strict
    base = _words(glob)
    m = run_snippet("""
        buffer_load_dword v2, v1, s[8:11], 0 offen offset:512
        buffer_load_dwordx4 v[3:6], v1, s[8:11], 0 offen offset:516
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_setup(base, 1024, (BELOW + 4 * LANES) & 0xFFFFFFFF))
    V = m.waves[0].V[:, 0]
    assert np.array_equal(V[2], LANES + 1000)
    for j in range(4):
        assert np.array_equal(V[3 + j], LANES + 1001 + j), j


def test_a_store_and_an_lds_dma_wrap_alike():
    glob = GlobalMemory()
    base = _words(glob)
    run_snippet("""
        v_mov_b32_e32 v2, 5
        buffer_store_dword v2, v1, s[8:11], 0 offen offset:768
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_setup(base, 1024, (BELOW + 4 * LANES) & 0xFFFFFFFF))
    words = glob.buffer("X").view(np.uint32)
    assert (words[64:128] == 5).all() and (words[:64] == LANES + 1000).all()
    m = run_snippet("""
        buffer_load_dword v1, s[8:11], 0 offen offset:512 lds
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_setup(base, 1024, (BELOW + 4 * LANES) & 0xFFFFFFFF),
        lds_bytes=1024)
    # the LDS address is M0 + the instruction offset + 4 * lane; the global one wraps
    assert np.array_equal(m.lds[0, 512:768].view(np.uint32), words[:64])


def test_soffset_does_not_wrap():
    """soffset 16 below 2^32 with a VGPR offset 16 above a lane's word: the address is past
    the records, not the word 32-bit arithmetic would give.  The VGPR offset alone is in
    range, so whether the access reads zeros depends on the range check's reading of
    soffset: a ``soffset-range`` finding, naming both offsets (tests of that finding:
    ``test_soffset_range.py``)."""
    glob = GlobalMemory()
    base = _words(glob)
    voff = 16 + 4 * LANES
    for op in ("buffer_load_dword v2, v1, s[8:11], s12 offen",
               "buffer_store_dword v2, v1, s[8:11], s12 offen"):
        with pytest.raises(Finding, match=r"soffset-range: .*lane 0 .*voffset \+ offset 16 "
                                          r".*soffset 4294967280"):
            run_snippet(f"""
                {op}
                s_waitcnt vmcnt(0)
                s_endpgm""", glob=glob, setup=_setup(base, 1024, voff, soff=0xFFFFFFF0))
    assert (glob.buffer("X").view(np.uint32) == np.arange(256) + 1000).all()


def test_an_offset_past_the_records_without_wrapping_still_reads_zero():
    """The wrap is of the 32-bit sum only: a VGPR offset just under 2^32 plus a small
    instruction offset that stays under 2^32 is past the records."""
    glob = GlobalMemory()
    base = _words(glob)
    m = run_snippet("""
        buffer_load_dword v2, v1, s[8:11], 0 offen offset:4
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_setup(base, 1024, np.full(64, 0xFFFFFF00)))
    assert (m.waves[0].V[2, 0] == 0).all()


def test_a_narrow_load_past_the_records_reads_zero():
    """A ``buffer_load_ushort`` / ``_ubyte`` lane past ``num_records`` reads 0, as a dword
    load's does; the lanes inside read their own bytes.  The emulator once gave such a
    lane the buffer's first bytes (offset 0): a cut run's piece of one bf16 read past the
    end (frontend/cut_runs.py) then held A[0][0] in place of a zero."""
    glob = GlobalMemory()
    base = _words(glob)
    voff = np.where(LANES % 2 == 1, 1024, 4 * LANES)     # odd lanes: at the records' end
    m = run_snippet("""
        buffer_load_ushort v2, v1, s[8:11], 0 offen
        buffer_load_ubyte v3, v1, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_setup(base, 1024, voff))
    V = m.waves[0].V[:, 0]
    inside = (LANES + 1000)[LANES % 2 == 0]
    assert np.array_equal(V[2][LANES % 2 == 0], inside & 0xFFFF)
    assert np.array_equal(V[3][LANES % 2 == 0], inside & 0xFF)
    assert (V[2][LANES % 2 == 1] == 0).all() and (V[3][LANES % 2 == 1] == 0).all()
