"""The emulator's machine on small programs: scalar and vector semantics, waits, completion
modes, races, barriers, range checks."""

from __future__ import annotations

import numpy as np
import pytest

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


WAR = """
    v_lshlrev_b32_e32 v1, 4, v0
    s_cmp_eq_u32 s2, s2
    v_mov_b32_e32 v4, 1
    v_readfirstlane_b32 s20, v0
    s_cmp_lt_u32 s20, 64
    s_cbranch_scc0 writer
    ds_read_b128 v[8:11], v1
    {wait}
    s_barrier
    s_waitcnt lgkmcnt(0)
    v_mov_b32_e32 v12, v8
    s_endpgm
writer:
    v_subrev_u32_e32 v1, 0x400, v1
    s_barrier
    ds_write_b32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_endpgm
"""


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
    with pytest.raises(Finding, match=r"out-of-range: .*buffer offset 256 \+ 4 bytes is past "
                                      r"the descriptor's 256 bytes \(lane 63"):
        run_snippet(prog.format(off=4), glob=glob, setup=setup)
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
        compile_instr(ins, 1, {0: 0})


def test_subtract_with_borrow_reversed():
    # v_subbrev_co_u32: src1 - src0 - borrow (LLVM uses it for floor-division fixups)
    m = run_snippet("""
        v_mov_b32_e32 v1, 16
        v_cmp_gt_u32_e32 vcc, 2, v0
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
