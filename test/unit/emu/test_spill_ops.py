"""What LLVM writes in a kernel of many SGPRs and much code (IREE's dynamic-K kernel with
its remainder loop as IREE wrote it): SGPRs spilled into VGPR lanes (``v_writelane_b32``,
``v_readlane_b32``), ``v_fmac_f32``, long branches (``s_getpc_b64`` ... ``s_setpc_b64``)
and 16-bit global loads, each run on the emulator against what the ISA says."""

from __future__ import annotations

import struct
from dataclasses import replace

import pytest

from emu_helpers import buffer_arg, launch_toml, run_snippet, snippet_kernel
from pipeline_mlir.emu.described import emulate_described
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.launchfile import read_launch


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_a_scalar_spilled_into_one_lane_and_back():
    m = run_snippet("""
        v_mov_b32_e32 v1, 9
        s_mov_b32 s4, 77
        s_mov_b32 s5, 5
        s_mov_b32 s8, 68
        s_mov_b64 exec, 0
        v_writelane_b32 v1, s4, s5
        v_writelane_b32 v1, 3, s8
        s_mov_b64 exec, -1
        v_readlane_b32 s6, v1, 5
        v_readlane_b32 s7, v1, 4
        s_endpgm""")
    w = m.waves[0]
    # written whatever EXEC is, lane select modulo 64; the other lanes keep their value
    assert (w.S[6, 0], w.S[7, 0]) == (77, 3)
    assert w.V[1, 0, 5] == 77 and w.V[1, 0, 4] == 3
    assert all(w.V[1, 0, i] == 9 for i in range(64) if i not in (4, 5))


def test_fmac_adds_to_its_destination():
    m = run_snippet(f"""
        v_mov_b32_e32 v1, {_f32(2.0):#x}
        v_mov_b32_e32 v2, {_f32(3.0):#x}
        v_mov_b32_e32 v3, 1.0
        v_fmac_f32_e32 v3, v1, v2
        v_fmac_f32_e32 v3, 0x4f800000, v2
        s_endpgm""")
    assert m.waves[0].V[3, 0, 0] == _f32(7.0 + 2.0 ** 32 * 3.0)


def test_a_long_branch_jumps_to_its_target():
    # s_getpc at 8 (the next instruction at 12), s_setpc at 20; the target 12 + 16 = 28; taken
    # whatever EXEC is
    m = run_snippet("""
        s_mov_b32 s8, 0
        s_mov_b64 exec, 0
        s_getpc_b64 s[4:5]
        s_add_u32 s4, s4, 16
        s_addc_u32 s5, s5, 0
        s_setpc_b64 s[4:5]
        s_mov_b32 s8, 1
        s_mov_b32 s9, 2
        s_endpgm""")
    S = m.waves[0].S[:, 0]
    assert (S[4], S[5], S[8], S[9]) == (28, 0, 0, 2)


@pytest.mark.parametrize("text,message", [
    ("s_setpc_b64 s[4:5]", "jumps to an address the emulator does not know"),
    ("s_getpc_b64 s[4:5]\n s_add_u32 s4, s4, 2\n s_addc_u32 s5, s5, 0\n s_setpc_b64 s[4:5]",
     "jumps to 0x0006, which is not the start of an instruction"),
    ("s_getpc_b64 s[4:5]\n s_add_u32 s4, s4, 16\n s_addc_u32 s5, s5, 0\n"
     " s_setpc_b64 s[6:7]", "jumps to an address the emulator does not know"),
], ids=["alone", "mid-instruction", "another pair"])
def test_a_jump_the_emulator_cannot_resolve_is_refused_at_load(text, message):
    with pytest.raises(EmuError, match=message):
        run_snippet(text + "\n s_endpgm")


#: out[i] = X[i] for 16-bit X (values below 2^15) read with global_load_ushort, i the
#: linear work-item (64 per workgroup), as IREE's element copies from a binding that is no
#: fat raw buffer
NARROW = """
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_and_b32_e32 v0, 0x3ff, v0
    v_lshl_add_u32 v1, s2, 6, v0
    v_lshlrev_b32_e32 v2, 1, v1
    v_lshlrev_b32_e32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    global_load_ushort v3, v2, s[4:5]
    s_waitcnt vmcnt(0)
    global_store_dword v1, v3, s[6:7]
    s_endpgm"""


@pytest.mark.parametrize("mode", ["late", "random:2"])
def test_a_narrow_global_load_reads_its_element(mode):
    k = snippet_kernel(NARROW)
    k.launch = replace(k.launch, workgroup_id=(True, False, False))
    spec = read_launch("narrow.toml", launch_toml(
        dict(grid=[3], block=[64]),
        [buffer_arg("X", "i16", [192], init={"random": [0, 30000]}),
         buffer_arg("out", "i32", [192])], [dict(output="out", expect="X")]))
    name, _, seed = mode.partition(":")
    run = emulate_described(k, spec, name, int(seed or 0))
    assert run.exact and run.problem() is None, run.problem()
