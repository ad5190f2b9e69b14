"""A 16-pass XDL MFMA's readers need 20 wait states; LLVM 22 looks back only 19.

The emulator's table (``mfma-d-mem``: passes + 4) flags a store 19 wait states after a
``v_mfma_f32_32x32x64_f8f6f4`` with FP8 operands and passes it at 20; the 8-pass 8-bit and
32x32 MFMAs next to it keep their 12.  ``llc-22`` (when installed) agrees on the count at
every gap up to 18 and misses the reader at exactly 19 (the window of its search); the
lowering therefore puts the 20 wait states itself after the pipelined code of a loop that
issues such an MFMA, and after each loop run as written that does
(:mod:`pipeline_mlir.lowering.xdl_window`)."""

from __future__ import annotations

import pytest

from llvm_hazards import LLC, missing_wait_states, pair_mir
from test_hazard_rules import violations
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.lowering.xdl_window import GUARD, LLVM_LOOKBACK, needs_guard, xdl_passes

STORE = ("buffer_store_dword v0, v60, s[0:3], 0 offen",
         "BUFFER_STORE_DWORD_OFFEN $vgpr0, $vgpr60, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, "
         "implicit $exec")


def _r(first: int, n: int) -> str:
    return "$" + "_".join(f"vgpr{i}" for i in range(first, first + n))


def _mfma(asm: str, opcode: str, nd: int, nab: int, tail: str) -> tuple[str, str]:
    return asm, (f"{_r(0, nd)} = {opcode}_vgprcd_e64 {_r(32, nab)}, {_r(40, nab)}, "
                 f"{_r(0, nd)}, {tail}, implicit $mode, implicit $exec")


#: MFMA (asm, MIR) -> the wait states a store of its result needs
MFMAS = {
    "fp8 32x32x64": (_mfma("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[32:39], v[40:47], v[0:15]",
                           "V_MFMA_F32_32X32X64_F8F6F4_f8_f8", 16, 8, "0, 0"), 20),
    "fp8 16x16x128": (_mfma("v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[32:39], v[40:47], v[0:3]",
                            "V_MFMA_F32_16X16X128_F8F6F4_f8_f8", 4, 8, "0, 0"), 12),
    "i8 32x32x32": (_mfma("v_mfma_i32_32x32x32_i8 v[0:15], v[32:35], v[40:43], v[0:15]",
                          "V_MFMA_I32_32X32X32_I8", 16, 4, "0, 0, 0"), 12),
    "i8 16x16x64": (_mfma("v_mfma_i32_16x16x64_i8 v[0:3], v[32:35], v[40:43], v[0:3]",
                          "V_MFMA_I32_16X16X64_I8", 4, 4, "0, 0, 0"), 8),
    "bf16 32x32x16": (_mfma("v_mfma_f32_32x32x16_bf16 v[0:15], v[32:35], v[40:43], v[0:15]",
                            "V_MFMA_F32_32X32X16_BF16", 16, 4, "0, 0, 0"), 12),
}


def _gap(n: int) -> list[str]:
    return ["s_nop 0"] * n


@pytest.mark.parametrize("name", list(MFMAS))
def test_the_emulator_flags_one_wait_state_short_at_the_boundary(name):
    (asm, _), need = MFMAS[name]
    short = violations([asm, *_gap(need - 1), STORE[0]])
    assert [(v.rule.name, v.required, v.present) for v in short] == \
        [("mfma-d-mem", need, need - 1)]
    assert violations([asm, *_gap(need), STORE[0]]) == []


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
def test_llvm_misses_a_reader_exactly_19_wait_states_after_a_16_pass_mfma():
    (_, mir), need = MFMAS["fp8 32x32x64"]

    def added(gap: int) -> int:
        return missing_wait_states(pair_mir([mir, *["S_NOP 0"] * gap, STORE[1]]))
    assert added(0) == need and added(LLVM_LOOKBACK - 1) == need - (LLVM_LOOKBACK - 1)
    assert added(LLVM_LOOKBACK) == 0          # one short: the emulator flags this one
    assert violations([MFMAS["fp8 32x32x64"][0][0], *_gap(LLVM_LOOKBACK), STORE[0]])


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("name", [n for n in MFMAS if n != "fp8 32x32x64"])
def test_llvm_counts_the_other_mfmas_as_the_emulator(name):
    (_, mir), need = MFMAS[name]
    assert [missing_wait_states(pair_mir([mir, *["S_NOP 0"] * g, STORE[1]]))
            for g in (0, need - 1, need)] == [need, 1, 0]


LOOP = """
func.func @f(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E5M2>, %c: vector<16xf32>,
             %x: vector<32xf4E2M1FN>, %i: vector<16xi8>, %h: vector<8xbf16>,
             %c4: vector<4xf32>, %ci: vector<16xi32>) {
  %0 = amdgpu.mfma 32x32x64 %a * %b + %c : vector<32xf8E4M3FN>, vector<32xf8E5M2>, vector<16xf32>
  %1 = amdgpu.mfma 16x16x128 %a * %a + %c4 : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<4xf32>
  %2 = amdgpu.mfma 32x32x32 %i * %i + %ci : vector<16xi8>, vector<16xi8>, vector<16xi32>
  %3 = amdgpu.mfma 32x32x16 %h * %h + %c : vector<8xbf16>, vector<8xbf16>, vector<16xf32>
  %4 = amdgpu.mfma 32x32x64 %x * %x + %c : vector<32xf4E2M1FN>, vector<32xf4E2M1FN>, vector<16xf32>
  return
}
"""


def test_the_lowering_guards_only_16_pass_xdl_mfmas():
    """fp8/bf8 32x32x64: 16 passes, guarded; 16x16x128 fp8, i8 32x32x32, bf16 32x32x16 and
    FP4 32x32x64 (half the FP8 passes): 8, not guarded; ``func.return``: no MFMA."""
    with new_context():
        module = ir.Module.parse(LOOP)
        block = module.body.operations[0].regions[0].blocks[0]
        ops = [op.operation for op in block.operations]
        assert [xdl_passes(op) for op in ops] == [16, 8, 8, 8, 8, None]
        assert needs_guard(ops[0]) and not any(needs_guard(op) for op in ops[1:])
        assert needs_guard(module.operation)
    assert GUARD == MFMAS["fp8 32x32x64"][1] > LLVM_LOOKBACK
