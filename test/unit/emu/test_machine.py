"""The emulator's machine on small programs: scalar and vector semantics, waits, completion
modes, races, barriers, range checks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from emu_helpers import LDS_WAR as WAR
from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.machine import GlobalMemory, parse_mode


def test_scalar_carry_and_compare():
    m = run_snippet("""
        s_mov_b32 s4, 0xffffffff
        s_add_u32 s4, s4, 2
        s_addc_u32 s5, 0, 0
        s_cmp_lg_u64 s[4:5], 0
        s_cselect_b32 s6, 7, 9
        s_sub_i32 s7, 0, 5
        s_movk_i32 s8, 0xab
        s_bfe_u32 s8, s8, 0x40004
        s_lshl2_add_u32 s9, 3, 100
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    assert (S[4], S[5], S[6]) == (1, 1, 7)
    assert S[7] == (-5) & 0xFFFFFFFF and S[8] == 0xA and S[9] == 112


def test_s_bitcmp_tests_one_bit_of_32_or_64():
    """``s_bitcmp1/0_b32`` test bit ``S1[4:0]`` of S0 (36 tests bit 4), ``_b64`` bit
    ``S1[5:0]`` of the pair (LLVM emits ``s_bitcmp1_b32`` for an i1 kept in an SGPR; the
    emulator refused it before)."""
    m = run_snippet("""
        s_mov_b32 s4, 0x10
        s_bitcmp1_b32 s4, 4
        s_cselect_b32 s6, 1, 0
        s_bitcmp0_b32 s4, 4
        s_cselect_b32 s7, 1, 0
        s_bitcmp1_b32 s4, 36
        s_cselect_b32 s8, 1, 0
        s_bitcmp1_b32 s4, 3
        s_cselect_b32 s9, 1, 0
        s_mov_b32 s10, 0
        s_mov_b32 s11, 1
        s_bitcmp1_b64 s[10:11], 32
        s_cselect_b32 s12, 1, 0
        s_bitcmp1_b64 s[10:11], 0
        s_cselect_b32 s13, 1, 0
        s_bitcmp0_b64 s[10:11], 0
        s_cselect_b32 s14, 1, 0
        s_mov_b32 s15, 32
        s_bitcmp1_b64 s[10:11], s15
        s_cselect_b32 s16, 1, 0
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    assert [int(S[k]) for k in (6, 7, 8, 9)] == [1, 0, 1, 0]
    assert [int(S[k]) for k in (12, 13, 14, 16)] == [1, 0, 1, 1]


def test_s_ashr_i64_keeps_the_sign_and_sets_scc():
    m = run_snippet("""
        s_mov_b32 s4, 0
        s_mov_b32 s5, 0x80000000
        s_ashr_i64 s[6:7], s[4:5], 36
        s_cselect_b32 s10, 1, 0
        s_mov_b32 s4, 0x40
        s_mov_b32 s5, 0
        s_ashr_i64 s[8:9], s[4:5], 7
        s_cselect_b32 s11, 1, 0
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    # -2^63 >> 36 = -2^27: the high word all ones, the low word 0xf8000000
    assert (S[6], S[7], S[10]) == (0xF8000000, 0xFFFFFFFF, 1)
    assert (S[8], S[9], S[11]) == (0, 0, 0)      # 0x40 >> 7 = 0: SCC clear


def test_a_64_bit_scalar_source_is_read_before_its_pair_is_written():
    """``s_and_saveexec_b64 s[4:5], s[4:5]`` saves EXEC into s[4:5] and ANDs EXEC with the
    pair's value from before: a 64-bit operand is read as a copy of its registers (on one
    workgroup slot the pair's words side by side are a view of the registers themselves,
    which the save would overwrite first)."""
    m = run_snippet("""
        s_mov_b32 s4, 3
        s_mov_b32 s5, 0
        s_and_saveexec_b64 s[4:5], s[4:5]
        s_mov_b64 s[6:7], s[4:5]
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    assert [int(S[k]) for k in (4, 5, 6, 7)] == [0xFFFFFFFF] * 4   # EXEC before: 64 lanes
    assert (int(S[126]), int(S[127])) == (3, 0)
    assert np.array_equal(m.waves[0].exec[0], np.arange(64) < 2)


def test_vector_ops_and_exec_masking():
    m = run_snippet("""
        s_mov_b32 s14, 0x10000
        v_mad_u64_u32 v[2:3], s[10:11], v0, s14, v[4:5]
        v_cmp_gt_u32_e32 vcc, 4, v0
        s_and_saveexec_b64 s[12:13], vcc
        v_mov_b32_e32 v6, 5
        s_or_b64 exec, exec, s[12:13]
        v_bitop3_b32 v7, v0, 3, 1 bitop3:0xc8
        s_endpgm""", setup=lambda m: (m.waves[0].V.__setitem__(slice(4, 6), 0),
                                     m.waves[0].V.__setitem__(6, 0)))
    V = m.waves[0].V[:, 0]
    lanes = np.arange(64)
    assert np.array_equal(V[2], (lanes << 16) & 0xFFFFFFFF) and not V[3].any()
    assert np.array_equal(V[6], np.where(lanes < 4, 5, 0))
    assert np.array_equal(V[7], (lanes & 3) | 1)          # 0xc8: (a & b) | c


def test_a_register_read_before_its_wait_is_a_finding():
    prog = """
        v_lshlrev_b32_e32 v1, 4, v0
        ds_write_b128 v1, v[4:7]
        s_waitcnt lgkmcnt(0)
        ds_read_b128 v[8:11], v1
        {wait}
        v_add_u32_e32 v12, v8, v8
        s_endpgm"""
    run_snippet(prog.format(wait="s_waitcnt lgkmcnt(0)"))
    with pytest.raises(Finding, match=r"pending-register: wave 0 of workgroup 0, 0x[0-9a-f]+ "
                                      r"'v_add_u32_e32 v12, v8, v8': v8 is used while the load "
                                      r"at 0x[0-9a-f]+ 'ds_read_b128 v\[8:11\], v1'"):
        run_snippet(prog.format(wait=""))




def _lds_zero(m):
    m.lds[:] = 0


def test_write_after_read_race_and_late_sampling():
    # wave 1 overwrites what wave 0 reads; with the wait before the barrier it is ordered
    ok = run_snippet(WAR.format(wait="s_waitcnt lgkmcnt(0)"), waves=2, mode="late",
                     setup=_lds_zero)
    assert not ok.waves[0].V[12, 0].any()
    with pytest.raises(Finding, match=r"lds-race: wave 1 .*'ds_write_b32 v1, v4': LDS write of "
                                      r"address 0 races the read by wave 0 .*not yet waited"):
        run_snippet(WAR.format(wait=""), waves=2, mode="late", setup=_lds_zero)
    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu.machine import Machine

    m = Machine(snippet_kernel(WAR.format(wait="")), GlobalMemory(), [0], 2, "late",
                collect=True)
    _lds_zero(m)
    m.run()
    assert [f.kind for f in m.findings] == ["lds-race"]
    # late: the read completed at wave 0's wait, after wave 1's write: it saw the new value
    assert m.waves[0].V[12, 0, 0] == 1
    e = Machine(snippet_kernel(WAR.format(wait="")), GlobalMemory(), [0], 2, "eager",
                collect=True)
    _lds_zero(e)
    e.run()
    assert e.waves[0].V[12, 0, 0] == 0


def test_a_write_of_several_blocks_is_race_checked():
    # an 8-byte write covers two 4-byte blocks of the race shadow (IREE's ds_write2_b64)
    wide = WAR.replace("ds_write_b32 v1, v4", "ds_write_b64 v1, v[4:5]").replace(
        "v_mov_b32_e32 v4, 1", "v_mov_b32_e32 v4, 1\n    v_mov_b32_e32 v5, 1")
    run_snippet(wide.format(wait="s_waitcnt lgkmcnt(0)"), waves=2, mode="late",
                setup=_lds_zero)
    with pytest.raises(Finding, match=r"lds-race: wave 1 .*'ds_write_b64 v1, v\[4:5\]': LDS "
                                      r"write of address 0 races the read by wave 0"):
        run_snippet(wide.format(wait=""), waves=2, mode="late", setup=_lds_zero)


def test_barrier_count_mismatch():
    with pytest.raises(Finding, match=r"barrier-mismatch: .*wave 0: 1, wave 1: 2"):
        run_snippet("""
            v_readfirstlane_b32 s20, v0
            s_cmp_lt_u32 s20, 64
            s_cbranch_scc1 one
            s_barrier
        one:
            s_barrier
            s_endpgm""", waves=2)


def test_out_of_range_accesses():
    glob = GlobalMemory()
    base = glob.add("X", bytes(256))

    def setup(m):
        w = m.waves[0]
        w.S[8], w.S[9], w.S[10], w.S[11] = base & 0xFFFFFFFF, base >> 32, 256, 0x27000
    prog = """
        v_lshlrev_b32_e32 v1, 2, v0
        buffer_load_dword v2, v1, s[8:11], 0 offen offset:{off}
        s_waitcnt vmcnt(0)
        s_endpgm"""
    run_snippet(prog.format(off=0), glob=glob, setup=setup)
    run_snippet(prog.format(off=4), glob=glob, setup=setup)   # past the records: reads 0
    glob.strict = True
    with pytest.raises(Finding, match=r"out-of-range: .*buffer offset 256 \+ 4 bytes is past "
                                      r"the descriptor's 256 bytes \(lane 63"):
        run_snippet(prog.format(off=4), glob=glob, setup=setup)
    glob.strict = False
    def claims_512(m):                  # a descriptor longer than the buffer behind it
        setup(m)
        m.waves[0].S[10] = 512
    run_snippet(prog.format(off=0), glob=glob, setup=claims_512)
    with pytest.raises(Finding, match=r"out-of-range: .*\+ 4 bytes is past the end of buffer X "
                                      r"\(256 bytes; lane 0\)"):
        run_snippet(prog.format(off=256), glob=glob, setup=claims_512)
    with pytest.raises(Finding, match=r"out-of-range: .*LDS address 4096 \+ 16 bytes is outside"):
        run_snippet("v_mov_b32_e32 v1, 0x1000\nds_read_b128 v[4:7], v1\ns_endpgm")
    with pytest.raises(Finding, match="trap"):
        run_snippet("s_trap 2\ns_endpgm")


def _buffer_at(base: int, records: int):
    def setup(m):
        w = m.waves[0]
        w.S[8], w.S[9], w.S[10], w.S[11] = base & 0xFFFFFFFF, base >> 32, records, 0x27000
        w.V[2:10] = 7                   # what a load must overwrite, even with zeros
        w.S[124] = 0                    # M0: the LDS DMA's base
    return setup


def test_buffer_accesses_past_the_records_read_zero_and_drop_writes():
    """A raw buffer's range check per dword (ISA: out-of-range reads return 0, writes are
    dropped): a load of 4 dwords straddling the end keeps the dwords below it."""
    glob = GlobalMemory()
    base = glob.add("X", np.arange(128, dtype=np.uint32) + 1000)
    m = run_snippet("""
        v_lshlrev_b32_e32 v1, 4, v0
        buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen offset:200
        buffer_load_dword v6, v1, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_buffer_at(base, 256))
    V = m.waves[0].V[:, 0]
    first = (200 + 16 * np.arange(64)) // 4       # dword index of each lane's first word
    for j in range(4):
        want = np.where(first + j < 64, first + j + 1000, 0)
        assert np.array_equal(V[2 + j], want), j
    lanes = np.arange(64)
    assert np.array_equal(V[6], np.where(16 * lanes < 256, 4 * lanes + 1000, 0))
    store = """
        v_lshlrev_b32_e32 v1, 2, v0
        v_mov_b32_e32 v2, 5
        buffer_store_dword v2, v1, s[8:11], 0 offen offset:{off}
        s_waitcnt vmcnt(0)
        s_endpgm"""
    run_snippet(store.format(off=192), glob=glob, setup=_buffer_at(base, 256))
    words = glob.buffer("X").view(np.uint32)
    assert (words[48:64] == 5).all() and (words[64:] == np.arange(64, 128) + 1000).all()
    m = run_snippet("""
        v_lshlrev_b32_e32 v1, 2, v0
        buffer_load_dword v1, s[8:11], 0 offen lds
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=_buffer_at(base, 16), lds_bytes=256)
    lds = m.lds[0, :256].view(np.uint32)
    assert np.array_equal(lds, np.where(np.arange(64) < 4, words[:64], 0))
    glob.strict = True
    with pytest.raises(Finding, match=r"out-of-range: .*buffer offset 256 \+ 4 bytes"):
        run_snippet(store.format(off=192), glob=glob, setup=_buffer_at(base, 256))
    glob.strict = False
    with pytest.raises(Finding, match=r"past the end of buffer X"):   # records past the buffer
        run_snippet(store.format(off=400), glob=glob, setup=_buffer_at(base, 1024))


def test_a_16_bit_store_past_the_records_is_dropped_lane_by_lane():
    glob = GlobalMemory()
    base = glob.add("H", np.zeros(128, dtype=np.uint16))
    prog = """
        v_lshlrev_b32_e32 v1, 1, v0
        v_mov_b32_e32 v2, 0x70005
        buffer_store_short{hi} v2, v1, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
        s_endpgm"""
    run_snippet(prog.format(hi=""), glob=glob, setup=_buffer_at(base, 100))
    halves = glob.buffer("H").view(np.uint16)
    assert (halves[:50] == 5).all() and (halves[50:] == 0).all()
    run_snippet(prog.format(hi="_d16_hi"), glob=glob, setup=_buffer_at(base, 20))
    assert (halves[:10] == 7).all() and (halves[10:50] == 5).all() and (halves[50:] == 0).all()
    glob.strict = True
    with pytest.raises(Finding, match=r"out-of-range: .*buffer offset 100 \+ 2 bytes"):
        run_snippet(prog.format(hi=""), glob=glob, setup=_buffer_at(base, 100))


def test_scalar_loads_need_lgkmcnt_zero():
    glob = GlobalMemory()
    base = glob.add("K", bytes(range(64)))

    def setup(m):
        w = m.waves[0]
        w.S[0], w.S[1] = base & 0xFFFFFFFF, base >> 32
    prog = """
        s_load_dwordx2 s[4:5], s[0:1], 0x8
        v_lshlrev_b32_e32 v1, 4, v0
        ds_read_b32 v2, v1
        s_waitcnt lgkmcnt({n})
        s_add_u32 s6, s4, 1
        s_endpgm"""
    m = run_snippet(prog.format(n=0), glob=glob, setup=setup)
    assert m.waves[0].S[6, 0] == int.from_bytes(bytes(range(8, 12)), "little") + 1
    with pytest.raises(Finding, match="pending-register.*s4 is used"):
        run_snippet(prog.format(n=1), glob=glob, setup=setup)


def test_modes():
    assert parse_mode("eager") == ("eager", 0) and parse_mode("random:0x10") == ("random", 16)
    for bad in ("lazy", "late:3", "random:x"):
        with pytest.raises(Exception, match="emulation mode"):
            parse_mode(bad)


def test_an_edited_instruction_is_compiled_again():
    """A kernel keeps its compiled instructions between runs; editing one (as the mutation
    tests do), in place or by replacing it, takes effect in the next run."""
    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu.asmline import parse_instruction
    from pipeline_mlir.emu.machine import Machine

    def s4(kernel):
        m = Machine(kernel, GlobalMemory(), [0], 1)
        m.run()
        return int(m.waves[0].S[4, 0])

    k = snippet_kernel("s_mov_b32 s4, 1\ns_endpgm")
    assert s4(k) == 1 and s4(k) == 1
    k.instrs[0].f.update(parse_instruction("s_mov_b32 s4, 2", 0)[0].f)
    assert s4(k) == 2
    k.instrs[0] = parse_instruction("s_mov_b32 s4, 3", 0)[0]
    assert s4(k) == 3


def _lanes_of(m, *regs):
    return [m.waves[0].V[r, 0].astype(np.int64) for r in regs]


def test_16_bit_integer_forms_zero_the_high_half():
    # v0 = lane; v1 = 0xABCD0000 | (lane * 0x1111): the high half of every source is junk
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[1] = (0xABCD0000 | (lane * 0x1111 & 0xFFFF))[None]
    m = run_snippet("""
        v_ashrrev_i16_e32 v2, 3, v1
        v_lshrrev_b16_e32 v3, 3, v1
        v_lshlrev_b16_e32 v4, 19, v1
        v_add_u16_e32 v5, v1, v1
        v_add_u16_e64 v6, 0, v1
        v_mul_i32_i24_e32 v7, -3, v1
        v_bfe_i32 v8, v1, 4, 12
        v_bitop3_b16 v9, v1, 0, v1 bitop3:0xf0
        s_endpgm""", setup=setup)
    lane = np.arange(64, dtype=np.int64)
    lo = lane * 0x1111 & 0xFFFF
    s16 = np.where(lo >= 0x8000, lo - 0x10000, lo)
    v2, v3, v4, v5, v6, v7, v8, v9 = _lanes_of(m, *range(2, 10))
    assert np.array_equal(v2, (s16 >> 3) & 0xFFFF)                # arithmetic, 16 bits
    assert np.array_equal(v3, lo >> 3)
    assert np.array_equal(v4, (lo << 3) & 0xFFFF)                 # shift count mod 16
    assert np.array_equal(v5, (2 * lo) & 0xFFFF)                  # wraps at 16 bits
    assert np.array_equal(v6, lo)
    src24 = (0xCD0000 | lo)                                        # low 24 bits, signed
    src24 = src24 - (1 << 24)
    assert np.array_equal(v7, (-3 * src24) & 0xFFFFFFFF)
    f = (lo >> 4) & 0xFFF
    assert np.array_equal(v8, np.where(f >= 0x800, f - 0x1000, f) & 0xFFFFFFFF)
    # bitop3_b16: the low half computed (0xf0: a), the high half poison
    assert np.array_equal(v9, 0xFFFF0000 | lo)


def test_sdwa_selects_and_destination_forms():
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[1] = (0x80F00000 | lane)[None]        # words 0x80F0 and lane
        m.waves[0].V[7] = np.uint32(0x12345678)
    m = run_snippet("""
        v_mov_b32_e32 v2, 4
        v_lshlrev_b32_sdwa v3, v2, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
        v_lshrrev_b32_sdwa v4, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
        v_add_u32_sdwa v7, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:DWORD
        v_mov_b32_sdwa v5, v1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3
        v_mov_b32_sdwa v6, v1 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1
        s_endpgm""", setup=setup)
    lane = np.arange(64, dtype=np.int64)
    v3, v4, v7, v5, v6 = _lanes_of(m, 3, 4, 7, 5, 6)
    assert np.array_equal(v3, np.full(64, ((0x80F0 - 0x10000) << 4) & 0xFFFFFFFF))
    assert np.array_equal(v4, np.full(64, 0x80F0 >> 4))
    assert np.array_equal(v7, ((lane + 4) << 16) | 0x5678)       # the low half preserved
    assert np.array_equal(v5, np.full(64, 0xFFFF8000))            # byte 0x80 at byte 1, sign above
    assert np.array_equal(v6, np.full(64, 0x80F0))


def test_sdwa_cndmask_selects_by_vcc():
    """``v_cndmask_b32_sdwa`` (LLVM's select of a 16-bit half, in IREE's masked loads):
    per lane src1's selected word where VCC is set, else src0."""
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[1] = (0x00010000 + lane)[None]
        m.waves[0].V[2] = (lane << 16 | 0xBEEF)[None]
    m = run_snippet("""
        s_mov_b32 vcc_lo, 0xaaaaaaaa
        s_mov_b32 vcc_hi, 0xaaaaaaaa
        v_cndmask_b32_sdwa v3, v1, v2, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
        v_cndmask_b32_sdwa v4, v1, v2, vcc dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_0
        s_endpgm""", setup=setup)
    lane = np.arange(64, dtype=np.int64)
    v3, v4 = _lanes_of(m, 3, 4)
    assert np.array_equal(v3, np.where(lane % 2, lane, 0x00010000 + lane))
    assert np.array_equal(v4, np.where(lane % 2, 0xBEEF, lane))


def test_sdwa_comparisons_write_their_sgpr_pair_or_vcc():
    """VOPC SDWA (LLVM's test of a byte index: ``v_cmp_gt_u16_sdwa s[0:1], v5, v7
    src0_sel:BYTE_0 src1_sel:DWORD`` in IREE's tiny ``C +=`` kernels): each source the
    selected field, zero- or sign-extended, compared as the instruction's type; the lane
    mask to the SGPR pair the instruction names, or VCC; decoded from its machine code and
    read from its text alike.  And ``v_mad_legacy_u16`` (gfx8's 16-bit multiply-add, the
    result zero-extended)."""
    from pipeline_mlir.emu.decode import decode

    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[5] = (0xAB00 | (lane << 16) | (lane * 4))[None]    # byte 0: 4 * lane
        m.waves[0].V[7] = np.uint32(0x80)
        m.waves[0].V[8] = (0xFFFF0000 | lane * 0x400)[None]
    m = run_snippet("""
        v_cmp_gt_u16_sdwa s[0:1], v5, v7 src0_sel:BYTE_0 src1_sel:DWORD
        v_cmp_lt_u16_sdwa vcc, v5, v7 src0_sel:WORD_1 src1_sel:BYTE_0
        v_cmp_lt_i16_sdwa s[2:3], v8, v7 src0_sel:WORD_0 src1_sel:DWORD
        v_mad_legacy_u16 v9, v5, 3, v8
        s_endpgm""", setup=setup)
    w = m.waves[0]
    lane = np.arange(64, dtype=np.int64)

    def pair(r):
        return int(w.S[r][0]) | int(w.S[r + 1][0]) << 32
    bits = sum(1 << k for k in range(64) if 4 * k > 0x80)
    assert pair(0) == bits                                         # 4 * lane > 128
    assert pair(106) == sum(1 << k for k in range(64) if k < 0x80)  # every lane's word 1
    signed = np.where(lane * 0x400 >= 0x8000, lane * 0x400 - 0x10000, lane * 0x400)
    assert pair(2) == sum(1 << int(k) for k in np.flatnonzero(signed < 0x80))
    (v9,) = _lanes_of(m, 9)
    assert np.array_equal(v9, ((0xAB00 | lane * 4) * 3 + lane * 0x400) & 0xFFFF)
    (ins,) = decode(bytes.fromhex("f90e587d05800006"))          # LLVM's encoding of it
    assert ins.text == "v_cmp_gt_u16_sdwa s[0:1], v5, v7 src0_sel:BYTE_0 src1_sel:DWORD"


def test_unsupported_forms_are_refused_by_name():
    from pipeline_mlir.emu.decode import decode
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.program import compile_instr

    with pytest.raises(EmuError, match=r"0x0000: v_mov_b32_dpp: the DPP form"):
        decode(bytes.fromhex("fa02067e04e400ff"))
    # an SDWA form with a modifier the emulator does not model
    (ins,) = decode(bytes.fromhex("f90a060204061506"))
    assert ins.text.startswith("v_add_f32_sdwa v3, -v4, v5")
    with pytest.raises(EmuError, match=r"'v_add_f32_sdwa v3, -v4, v5.*modifiers"):
        compile_instr(ins, {0: 0})


def test_subtract_with_borrow_reversed():
    # v_subbrev_co_u32: src1 - src0 - borrow (LLVM uses it for floor-division fixups)
    m = run_snippet("""
        v_mov_b32_e32 v1, 16
        v_cmp_gt_u32_e32 vcc, 2, v0
        s_nop 1
        v_subbrev_co_u32_e64 v3, s[4:5], 0, v1, vcc
        v_subbrev_co_u32_e32 v2, vcc, 3, v1, vcc
        s_endpgm""")
    v2, v3 = _lanes_of(m, 2, 3)
    lane = np.arange(64)
    assert np.array_equal(v2, np.where(lane < 2, 12, 13))
    assert np.array_equal(v3, np.where(lane < 2, 15, 16))


def test_global_load_to_lds():
    # global_load_lds_dwordx4: lane l's 16 bytes from saddr + v + offset land at
    # M0 + offset + 16 * l, counted on vmcnt (an LDS read before the wait is a race)
    glob = GlobalMemory()
    data = np.arange(2048, dtype=np.uint32)
    base = glob.add("X", data.tobytes())

    def setup(m):
        w = m.waves[0]
        w.S[2], w.S[3] = base & 0xFFFFFFFF, base >> 32
    prog = """
        v_lshlrev_b32_e32 v1, 4, v0
        s_movk_i32 m0, 0x100
        s_nop 0
        global_load_lds_dwordx4 v1, s[2:3] offset:32
        {wait}
        v_lshlrev_b32_e32 v2, 4, v0
        ds_read_b128 v[4:7], v2 offset:288
        s_waitcnt lgkmcnt(0)
        s_endpgm"""
    m = run_snippet(prog.format(wait="s_waitcnt vmcnt(0)"), glob=glob, setup=setup,
                    mode="late")
    lane = np.arange(64)
    got = np.stack([m.waves[0].V[r, 0] for r in range(4, 8)], axis=1)
    assert np.array_equal(got, data[8 + 4 * lane[:, None] + np.arange(4)])
    with pytest.raises(Finding, match="lds-race"):
        run_snippet(prog.format(wait=""), glob=glob, setup=setup, mode="late")


# ---- instructions LLVM emits for accepted inputs ------------------------------------------
# The expected values are worked out by hand from the instruction descriptions of AMD's
# CDNA3 and CDNA4 ISA reference guides (the same for both):
#   V_MAD_I32_I24   D.i32 = S0.i24 * S1.i24 + S2.i32 (the low 24 bits of S0 and S1, signed)
#   S_BITSET1_B32   D.u32[S0.u32[4:0]] = 1 (the other bits of D kept; SCC unchanged)
#   S_BITSET0_B32   D.u32[S0.u32[4:0]] = 0
#   V_ASHRREV_I64   D.i64 = S1.i64 >> S0.u32[5:0] (arithmetic)
#   V_CMP_GT_I16    D.u64[lane] = S0.i16 > S1.i16 (the low 16 bits, signed; inactive: 0)

def test_v_mad_i32_i24():
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[1] = (0xAB000000 | (lane * 0x31337))[None]  # junk above bit 23
        m.waves[0].V[2] = np.uint32(0x00FFFFFD)                       # -3 in 24 bits
    m = run_snippet("""
        v_mov_b32_e32 v3, 0x80000000
        v_mad_i32_i24 v4, v1, v2, v3
        v_mad_i32_i24 v5, v2, v2, -1
        v_mov_b32_e32 v6, 0x7fffff
        v_mad_i32_i24 v7, v6, v6, 0
        s_endpgm""", setup=setup)
    lane = np.arange(64, dtype=np.int64)
    a = lane * 0x31337 & 0xFFFFFF
    a = np.where(a >= 0x800000, a - 0x1000000, a)
    v4, v5, v7 = _lanes_of(m, 4, 5, 7)
    assert np.array_equal(v4, (a * -3 + 0x80000000) & 0xFFFFFFFF)
    assert np.array_equal(v5, np.full(64, 8))                     # (-3) * (-3) - 1
    assert np.array_equal(v7, np.full(64, (0x7FFFFF ** 2) & 0xFFFFFFFF))  # wraps at 32 bits


def test_signed_and_unsigned_min3_max3_med3():
    """``v_med3_i32`` (LLVM's clamp of a signed value into a range, e.g. IREE's f16
    300x500x200-like edge tiles) and its kin: per lane, the median / least / greatest of
    three, signed or unsigned."""
    def setup(m):
        lane = np.arange(64, dtype=np.int64)
        m.waves[0].V[1] = ((lane - 32) * 3).astype(np.uint32)[None]      # -96 .. 93
    m = run_snippet("""
        v_med3_i32 v2, v1, 0, 32
        v_med3_i32 v3, 32, v1, 0
        v_med3_u32 v4, v1, 0, 32
        v_min3_i32 v5, v1, 7, 40
        v_max3_i32 v6, -12, v1, 7
        s_endpgm""", setup=setup)
    x = (np.arange(64, dtype=np.int64) - 32) * 3
    v2, v3, v4, v5, v6 = _lanes_of(m, 2, 3, 4, 5, 6)
    assert np.array_equal(v2, np.clip(x, 0, 32)) and np.array_equal(v3, np.clip(x, 0, 32))
    assert np.array_equal(v4, np.where(x < 0, 32, np.clip(x, 0, 32)))  # negatives are huge
    assert np.array_equal(v5, np.minimum(x, 7) & 0xFFFFFFFF)
    assert np.array_equal(v6, np.maximum(x, 7))


def test_s_bitset1_b32_and_s_bitset0_b32():
    m = run_snippet("""
        s_mov_b32 s4, 0x100
        s_mov_b32 s3, 35
        s_cmp_eq_u32 0, 0
        s_bitset1_b32 s4, s3
        s_bitset1_b32 s4, 0x108
        s_mov_b32 s5, -1
        s_bitset0_b32 s5, 31
        s_cselect_b32 s6, 1, 2
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    assert S[4] == 0x108                  # bit 35 & 31 = 3 set; bit 0x108 & 31 = 8 already set
    assert S[5] == 0x7FFFFFFF
    assert S[6] == 1                      # SCC (set by s_cmp) unchanged


def test_v_ashrrev_i64():
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        m.waves[0].V[4] = np.uint32(0x89ABCDEF)
        m.waves[0].V[5] = (0x80000000 | lane)[None]               # negative
        m.waves[0].V[1] = lane[None]                                # shift = lane (mod 64)
    m = run_snippet("""
        v_ashrrev_i64 v[6:7], 4, v[4:5]
        v_ashrrev_i64 v[8:9], v1, v[4:5]
        v_mov_b32_e32 v10, 0x12345678
        v_mov_b32_e32 v11, 0x7fffffff
        v_ashrrev_i64 v[12:13], 36, v[10:11]
        s_endpgm""", setup=setup)
    x = [((0x80000000 | k) << 32 | 0x89ABCDEF) - (1 << 64) for k in range(64)]  # signed S1

    def got(lo, hi):
        return [int(a) | int(b) << 32 for a, b in zip(*_lanes_of(m, lo, hi))]
    assert got(6, 7) == [(v >> 4) % (1 << 64) for v in x]
    assert got(8, 9) == [(v >> k) % (1 << 64) for k, v in enumerate(x)]
    assert got(12, 13)[0] == 0x7FFFFFFF12345678 >> 36


def test_v_cmp_gt_i16():
    def setup(m):
        lane = np.arange(64, dtype=np.uint32)
        # the low halves are lane - 32 (negative for lanes 0..31), the high halves junk
        m.waves[0].V[1] = (0x7FFF0000 | ((lane - 32) & 0xFFFF))[None]
    m = run_snippet("""
        v_cmp_gt_i16_e32 vcc, 3, v1
        v_cmp_gt_i16_e64 s[4:5], v1, -2
        v_cmp_lt_u16_e64 s[6:7], v1, 4
        s_mov_b32 exec_lo, 0
        s_mov_b32 exec_hi, 0xffff
        v_cmp_gt_i16_e64 s[8:9], v1, -16
        s_endpgm""", setup=setup)
    S = m.waves[0].S[:, 0].astype(np.uint64)
    lane = np.arange(64)
    s16 = lane - 32

    def bits(mask):
        return sum(1 << int(k) for k in np.flatnonzero(mask))
    assert int(S[106] | S[107] << np.uint64(32)) == bits(3 > s16)          # lanes 0..34
    assert int(S[4] | S[5] << np.uint64(32)) == bits(s16 > -2)             # lanes 31..63
    assert int(S[6] | S[7] << np.uint64(32)) == bits((s16 & 0xFFFF) < 4)   # unsigned: 32..35
    assert int(S[8] | S[9] << np.uint64(32)) == 0xFFFF << 32     # lanes 32..47; inactive: 0


def test_a_float_constant_as_a_16_bit_compare_operand_is_refused():
    from pipeline_mlir.emu.errors import EmuError

    with pytest.raises(EmuError, match=r"v_cmp_gt_i16_e64 s\[4:5\], v1, 1.0.*float inline"):
        run_snippet("v_cmp_gt_i16_e64 s[4:5], v1, 1.0\ns_endpgm")


# ---- AGPR operands ------------------------------------------------------------------------

def test_accvgpr_moves_under_full_and_partial_exec():
    m = run_snippet("""
        v_accvgpr_write_b32 a0, v0
        v_accvgpr_write_b32 a1, 7
        v_accvgpr_mov_b32 a2, a0
        s_mov_b64 exec, 0xff00
        v_accvgpr_mov_b32 a1, a0
        s_mov_b64 exec, -1
        v_accvgpr_read_b32 v1, a1
        v_accvgpr_read_b32 v2, a2
        s_endpgm""")
    lane = np.arange(64)
    v1, v2 = _lanes_of(m, 1, 2)
    assert np.array_equal(v2, lane)
    assert np.array_equal(v1, np.where((lane >= 8) & (lane < 16), lane, 7))
    assert m.kernel.instrs[2].text == "v_accvgpr_mov_b32 a2, a0"


def test_an_agpr_read_before_its_load_is_waited_for_is_a_finding():
    with pytest.raises(Finding, match=r"pending-register: .*'v_accvgpr_mov_b32 a5, a4': a4 is "
                                      r"used while the load"):
        run_snippet("""
            v_lshlrev_b32_e32 v1, 4, v0
            ds_write_b128 v1, v[4:7]
            s_waitcnt lgkmcnt(0)
            ds_read_b128 a[4:7], v1
            v_accvgpr_mov_b32 a5, a4
            s_endpgm""", setup=lambda m: m.waves[0].V.__setitem__(slice(4, 8), 0))


@pytest.mark.parametrize("line,message", [
    ("v_mov_b32_e32 v256, 0", "register 'v256' does not exist: the gfx950 registers of its "
                              "file are v0..v255"),
    ("v_mov_b64_e32 v[255:256], 0", "register 'v[255:256]' does not exist"),
    ("v_accvgpr_write_b32 a256, 0", "register 'a256' does not exist"),
    ("s_mov_b32 s102, 0", "register 's102' does not exist: the gfx950 registers of its file "
                          "are s0..s101"),
    ("v_add_u32_e32 v1, a0, v1", "'a0': this operand cannot be an AGPR"),
    ("v_accvgpr_mov_b32 a1, v0", "expected an AGPR, got 'v0'"),
    ("ds_write_b32 s1, v1", "expected a v register, got 's1'"),
    ("global_load_dword s[2:3], v1, off", "expected the data register (v or a)"),
])
def test_register_operands_the_machine_has_not_are_errors(line, message):
    from pipeline_mlir.emu.asmline import LineError

    with pytest.raises(LineError, match=re.escape(message)):
        run_snippet(line + "\ns_endpgm")


def test_work_item_ids_of_a_3d_workgroup_are_packed_into_v0():
    """gfx950 packs the work-item ids x, y, z into v0, 10 bits each, those the descriptor
    enables; a last wave of fewer than 64 work-items starts with the other lanes off."""
    from dataclasses import replace

    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu.launchdims import LaunchDims
    from pipeline_mlir.emu.machine import Machine

    for enabled in (0, 1, 2):
        kernel = snippet_kernel("s_endpgm")
        kernel.launch = replace(kernel.launch, workitem_id_dims=enabled)
        m = Machine(kernel, GlobalMemory(), [0], 2, dims=LaunchDims((6, 4, 5)))
        t = np.arange(128)
        x, y, z = t % 6, (t // 6) % 4, t // 24
        want = x | (y << 10) * (enabled >= 1) | (z << 20) * (enabled >= 2)
        got = np.concatenate([w.V[0, 0] for w in m.waves])
        assert np.array_equal(got[:120], want[:120]), enabled
        assert m.waves[0].exec.all() and m.waves[1].exec[0].sum() == 120 - 64


def test_a_workgroup_outside_the_grid_is_not_run():
    """A run of given workgroups of a given grid (a campaign's, a test's) names the first
    one the grid does not hold, before running anything: one that stores nothing would
    compare equal to any other that stores nothing."""
    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.iree import Matmul, matmul_c
    from pipeline_mlir.emu.gemm import check_in_grid

    kernel = snippet_kernel("s_endpgm")
    check_in_grid(kernel.name, [0, 15], (16,))
    check_in_grid(kernel.name, [(0, 0), (3, 1)], (4, 2))
    check_in_grid(kernel.name, [5], None)
    for ids, grid, bad in (([0, 37], (16,), "37"), ([(0, 0), (1, 2)], (4, 2), r"\(1, 2\)"),
                           ([(4, 0)], (4, 2), r"\(4, 0\)"), ([-1], (16,), "-1"),
                           ([(0, 0, 1)], (4, 2), r"\(0, 0, 1\)")):
        with pytest.raises(EmuError, match=rf"workgroup {bad} is not in the grid "):
            check_in_grid(kernel.name, ids, grid)
    with pytest.raises(EmuError, match=r"workgroup 37 is not in the grid 16 \(16 workgroups"):
        matmul_c(kernel, Matmul(64, 64, 64, "bf16"), [0, 37], grid=(16,))


def test_dispatch_and_queue_pointers_come_before_the_kernarg_pointer():
    from dataclasses import replace

    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.launchdims import LaunchDims
    from pipeline_mlir.emu.machine import Machine

    kernel = snippet_kernel("s_endpgm")
    kernel.launch = replace(kernel.launch, user_inputs=("dispatch_ptr", "queue_ptr",
                                                        "kernarg_ptr", "dispatch_id"))
    m = Machine(kernel, GlobalMemory(), [0], 1, kernarg_addr=0x300000010,
                dims=LaunchDims((64,), dispatch_addr=0x100000020, queue_addr=0x200000040))
    S = m.waves[0].S[:, 0]
    assert list(S[:8]) == [0x20, 1, 0x40, 2, 0x10, 3, 0, 0]
    with pytest.raises(EmuError, match="asks for the dispatch ptr in user SGPRs; launch it "
                                       "with a launch description"):
        Machine(kernel, GlobalMemory(), [0], 1)


@pytest.mark.parametrize("partial", [False, True])
def test_lane_permutes(partial):
    """ds_bpermute_b32: lane i reads data of lane (addr[i] + offset) / 4 mod 64 (0 from an
    inactive lane); ds_permute_b32: lane i writes its data to that lane (the higher lane
    wins a clash); inactive lanes keep their registers (CDNA3 ISA)."""
    rng = np.random.default_rng(3)
    target = rng.integers(0, 64, size=64)
    active = (np.arange(64) % 3 != 1) if partial else np.ones(64, bool)

    def setup(m):
        w = m.waves[0]
        w.V[1] = (target * 4 - 8) & 0xFFFFFFFF          # offset:8 brings it back
        w.V[2] = np.arange(64) + 100
        w.V[3:5] = 7
        bits = sum(1 << i for i in np.flatnonzero(active))
        w.S[126], w.S[127] = bits & 0xFFFFFFFF, bits >> 32
        w.exec_changed()
    m = run_snippet("""
        ds_bpermute_b32 v3, v1, v2 offset:8
        ds_permute_b32 v4, v1, v2 offset:8
        s_waitcnt lgkmcnt(0)
        s_endpgm""", setup=setup)
    V = m.waves[0].V[:, 0]
    data = np.where(active, np.arange(64) + 100, 0)
    assert np.array_equal(V[3], np.where(active, data[target], 7))
    forward = np.zeros(64, dtype=np.int64)
    for lane in np.flatnonzero(active):
        forward[target[lane]] = data[lane]
    assert np.array_equal(V[4], np.where(active, forward, 7))


@pytest.mark.parametrize("reads", [15, 16, 17])
def test_a_full_counter_stalls_the_wave_until_its_oldest_op_completes(reads):
    """lgkmcnt holds 15 ops in flight: the 16th DS read waits for the first (the hardware
    stalls), so the first read's register is ready without a wait; with 15 it is not, and
    the 17th releases only the second."""
    lines = [f"ds_read_b32 v{8 + i}, v1" for i in range(reads)]
    prog = "v_lshlrev_b32_e32 v1, 2, v0\n" + "\n".join(lines) + "\n{use}\ns_endpgm"
    for reg, released in ((8, reads > 15), (9, reads > 16)):
        use = prog.format(use=f"v_add_u32_e32 v40, v{reg}, v{reg}")
        if released:
            run_snippet(use)
        else:
            with pytest.raises(Finding, match=rf"pending-register: .* v{reg} is used while"):
                run_snippet(use)


def test_mbcnt_counts_the_mask_bits_of_the_lanes_below():
    """``v_mbcnt_lo/hi_u32_b32``: S1 plus the bits of S0 set for the lanes below, of lanes
    0..31 and 32..63: with S0 = -1 the pair is each lane's index; with another mask (an
    SGPR) and a vector S1 the count of that mask's lower lanes plus S1, written only where
    EXEC is set."""
    mask = 0xF0F0_1234_8000_0001

    def setup(m):
        m.waves[0].V[2] = (np.arange(64, dtype=np.uint32) * 1000)[None]
        m.waves[0].V[5] = np.uint32(77)
    m = run_snippet(f"""
        v_mbcnt_lo_u32_b32 v1, -1, 0
        v_mbcnt_hi_u32_b32 v1, -1, v1
        s_mov_b32 s4, {mask & 0xFFFFFFFF:#x}
        s_mov_b32 s5, {mask >> 32:#x}
        v_mbcnt_lo_u32_b32 v3, s4, v2
        v_mbcnt_hi_u32_b32 v4, s5, v3
        s_mov_b32 exec_lo, 0xffff
        s_mov_b32 exec_hi, 0
        v_mbcnt_lo_u32_b32 v5, -1, 0
        s_endpgm""", setup=setup)
    lane = np.arange(64)
    below = [(1 << int(n)) - 1 for n in lane]
    lo = np.array([bin(mask & b & 0xFFFFFFFF).count("1") for b in below])
    hi = np.array([bin(mask & b & ~0xFFFFFFFF).count("1") for b in below])
    v1, v3, v4, v5 = _lanes_of(m, 1, 3, 4, 5)
    assert np.array_equal(v1, lane)
    assert np.array_equal(v3, lane * 1000 + lo)
    assert np.array_equal(v4, lane * 1000 + lo + hi)
    assert np.array_equal(v5, np.where(lane < 16, np.minimum(lane, 32), 77))


def test_mbcnt_decodes_from_a_code_object():
    """The pair as LLVM encodes it (``llvm-mc -mcpu=gfx950 -show-encoding``) decodes to the
    instructions the emulator runs."""
    from pipeline_mlir.emu.decode import decode
    from pipeline_mlir.emu.program import compile_instr

    lo, hi = decode(bytes.fromhex("01008cd2c1000100" "01008dd2c1020200"))
    assert (lo.text, hi.text) == ("v_mbcnt_lo_u32_b32 v1, -1, 0", "v_mbcnt_hi_u32_b32 v1, -1, v1")
    for ins in (lo, hi):
        assert compile_instr(ins, {0: 0}).kind == "valu"


def test_v_perm_picks_each_lanes_bytes():
    """``v_perm_b32 v6, v4, v5, v7``: byte k of lane i is the byte of {v4, v5} (v5 the low
    dword) that byte k of v7 selects, 0 for selector 12, 0xFF from 13; every lane its own
    selectors (a reference per lane with Python integers)."""
    lanes = np.arange(64, dtype=np.uint64)
    hi = ((lanes * 0x9E3779B1 + 0x01234567) & 0xFFFFFFFF).astype(np.uint32)
    lo = ((lanes * 0x85EBCA6B + 0x89ABCDEF) & 0xFFFFFFFF).astype(np.uint32)
    picks = [0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 0x80, 0xFF]
    sel = np.array([sum(picks[(i * 5 + 3 * k + i // 7) % len(picks)] << (8 * k)
                        for k in range(4)) for i in range(64)], dtype=np.uint32)

    def setup(m):
        m.waves[0].V[4], m.waves[0].V[5], m.waves[0].V[7] = hi[None], lo[None], sel[None]

    got = run_snippet("v_perm_b32 v6, v4, v5, v7\ns_endpgm", setup=setup).waves[0].V[6, 0]
    for i in range(64):
        src = (int(hi[i]) << 32) | int(lo[i])
        want = 0
        for k in range(4):
            s = (int(sel[i]) >> (8 * k)) & 0xFF
            byte = (src >> (8 * s)) & 0xFF if s < 8 else 0 if s == 12 else 0xFF
            want |= byte << (8 * k)
        assert int(got[i]) == want, (i, hex(int(sel[i])))


def test_a_run_pauses_the_collector_and_leaves_it_as_it_was(monkeypatch):
    """No cyclic collection while the waves step (each would walk every object of the
    process); after the run, on a finding too, the collector is as the caller left it."""
    import gc

    from pipeline_mlir.emu import machine as machine_mod

    seen = []
    real = machine_mod.Machine.step
    monkeypatch.setattr(machine_mod.Machine, "step",
                        lambda m, w: seen.append(gc.isenabled()) or real(m, w))
    was = gc.isenabled()
    try:
        gc.enable()
        run_snippet("s_mov_b32 s4, 1\ns_endpgm")
        assert seen == [False, False] and gc.isenabled()
        with pytest.raises(Finding, match="out-of-range"):        # v1 is poison
            run_snippet("ds_read_b32 v2, v1\ns_endpgm")
        assert gc.isenabled()
        gc.disable()
        run_snippet("s_mov_b32 s4, 1\ns_endpgm")
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_a_batch_is_made_run_and_detached_with_the_collector_paused(monkeypatch):
    """The collector stays paused from a batch's machine made to it detached, so what the
    run allocated is freed by its counts before a collection walks it; after the batch it
    is on again."""
    import gc

    from emu_helpers import snippet_kernel
    from pipeline_mlir.emu import gemm
    from pipeline_mlir.emu import machine as machine_mod

    seen = []
    init, detach = machine_mod.Machine.__init__, machine_mod.Machine.detach
    monkeypatch.setattr(machine_mod.Machine, "__init__",
                        lambda m, *a, **k: seen.append(gc.isenabled()) or init(m, *a, **k))
    monkeypatch.setattr(machine_mod.Machine, "detach",
                        lambda m: seen.append(gc.isenabled()) or detach(m))
    was = gc.isenabled()
    try:
        gc.enable()
        gemm.run_workgroups(snippet_kernel("s_mov_b32 s4, 1\ns_endpgm"), GlobalMemory(),
                            [0, 1], 1, "eager", 0, 0)
        assert seen == [False, False] and gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_the_stored_bytes_are_the_marked_halfwords_both_bytes():
    """``GlobalMemory.stored``: both bytes of each marked halfword, the last one cut to an
    odd length; with few pages of marks stamped (the race check's page map) only those are
    read, a mark elsewhere (which no store makes) is not seen; an untracked buffer nothing
    stored to is all False.  (Milliseconds.)"""
    glob = GlobalMemory()
    glob.add("odd", bytes(7))
    glob.add("big", bytes(8 * 2048 - 1))          # 8 pages of 1024 halfword marks
    glob.add("other", bytes(4))
    for name in ("odd", "big"):
        glob.track(name)
    odd, big = glob.names.index("odd"), glob.names.index("big")
    glob.marks[odd][[1, 3]] = 5
    glob.race.pages[odd][1][0] = True
    assert glob.stored("odd").tolist() == [False, False, True, True, False, False, True]
    assert glob.stored("odd").dtype == np.bool_
    hw = [1024, 1030, 6 * 1024 + 3, 7 * 1024 - 1]
    glob.marks[big][hw] = 7
    glob.race.pages[big][1][[1, 6]] = True        # 2 of 9: the sparse path
    glob.marks[big][3 * 1024] = 9                 # on a page no store stamped
    want = np.zeros(8 * 2048 - 1, dtype=bool)
    for h in hw:
        want[2 * h:2 * h + 2] = True
    assert np.array_equal(glob.stored("big"), want)
    glob.race.pages[big][1][:] = True             # every page: all read
    want[3 * 2048:3 * 2048 + 2] = True
    assert np.array_equal(glob.stored("big"), want)
    assert not glob.stored("other").any() and len(glob.stored("other")) == 4


def test_a_ds_address_is_its_vgpr_plus_offset_modulo_2_to_the_32():
    """LLVM folds a constant into a DS instruction's offset whatever the sign of the base on
    Sea Islands and later (``isDSOffsetLegal``), so a base below zero plus its offset is the
    address the code means: IREE's fp8 ``A x B`` 11x10x877 pipelined reads ``ds_read_b64_tr_b8
    v160, v107 offset:24448`` with v107 = -256 in lane 0 (byte 24192). The emulator added
    them unwrapped and reported an LDS address of 4294991488 out of range. A sum past the
    LDS after the wrap is still out of range."""
    from emu_helpers import run_transposing_read

    def setup(m):
        m.lds[0, 256:260] = [1, 2, 3, 4]
    m = run_snippet("v_mov_b32_e32 v1, -256\nds_read_b32 v2, v1 offset:512\n"
                    "s_waitcnt lgkmcnt(0)\ns_endpgm", setup=setup)
    assert int(m.waves[0].V[2, 0, 0]) == 0x04030201
    m = run_snippet("v_mov_b32_e32 v1, -16\nv_mov_b32_e32 v2, 0x5a5a5a5a\n"
                    "ds_write_b32 v1, v2 offset:32\ns_waitcnt lgkmcnt(0)\ns_endpgm")
    assert list(m.lds[0, 16:20]) == [0x5A] * 4
    lds = np.arange(512, dtype=np.uint8)
    got, _m = run_transposing_read("ds_read_b64_tr_b8", [(-256 + 8 * i) & 0xFFFFFFFF
                                                         for i in range(64)], lds, data=4,
                                   offset=256)
    want, _m = run_transposing_read("ds_read_b64_tr_b8", [8 * i for i in range(64)], lds,
                                    data=4)
    assert np.array_equal(got, want)
    with pytest.raises(Finding, match=r"out-of-range: .*LDS address 4294967040 \+ 4 bytes"):
        run_snippet("v_mov_b32_e32 v1, -256\nds_read_b32 v2, v1\ns_waitcnt lgkmcnt(0)\n"
                    "s_endpgm")
