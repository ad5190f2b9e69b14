"""MFMA operand layouts pinned with one-hot inputs, one MFMA instruction per run.

The expected positions are written from the AMD documents, not from the emulator:

* AMD Matrix Instruction Calculator (CDNA3), ``v_mfma_f32_16x16x16_bf16``: "A i: (lane % 16)",
  "A k: 4 * floor(lane / 16) + 2 * GPR_num + floor(GPR_bits / 16)", B likewise with j;
  "C or D i: 4 * floor(lane / 16) + (GPR_num % 4)", "C or D j: (lane % 16)".  gfx950's
  16x16x32 bf16/f16 forms double K: 8 values per lane, k = 8 * floor(lane / 16) + element.
* AMD's CDNA3/CDNA4 matrix-core article (2025): D lane l, register r holds
  [4 * floor(l / 16) + r][l % 16].
* ROCm (its systems repository) for FP8 16x16x128: "interleaved 16-element chunk layout",
  k = 16 * floor(lane / 16) + 64 * chunk + j; the formats are OCP E4M3FN / E5M2 on CDNA4
  (1.0 = 0x38, 2.0 = 0x40, 3.0 = 0x44, sign bit 0x80 in E4M3; 1.0 = 0x3C, 2.0 = 0x40 in
  E5M2); the f8f6f4 type field: 0 = E4M3, 1 = E5M2.
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet

BF16_ONE, BF16_TWO = 0x3F80, 0x4000
F16_ONE, F16_TWO = 0x3C00, 0x4000


def _set_half(V, reg, lane, half, bits):
    word = int(V[reg, 0, lane])
    word = (word & ~(0xFFFF << (16 * half))) | (bits << (16 * half))
    V[reg, 0, lane] = word


def _set_byte(V, reg, lane, byte, bits):
    word = int(V[reg, 0, lane])
    V[reg, 0, lane] = (word & ~(0xFF << (8 * byte))) | (bits << (8 * byte))


def _d_value(V, first, i, j):
    """D[i][j] as the documents place it: lane j + 16 * (i // 4), register i % 4."""
    return float(V[first + i % 4, 0, j + 16 * (i // 4)].view(np.float32))


def _all_d(V, first):
    return np.array([[_d_value(V, first, i, j) for j in range(16)] for i in range(16)])


def _assert_only(program: str, setup, i: int, j: int, value: float = 2.0) -> None:
    """Run ``program``: D (v[0:3]) is ``value`` at [i][j] and 0 elsewhere."""
    m = run_snippet(program, setup=setup)
    want = np.zeros((16, 16))
    want[i, j] = value
    assert np.array_equal(_all_d(m.waves[0].V, 0), want)


@pytest.mark.parametrize("mnemonic,one,two,per", [
    ("v_mfma_f32_16x16x32_bf16", BF16_ONE, BF16_TWO, 8),
    ("v_mfma_f32_16x16x32_f16", F16_ONE, F16_TWO, 8),
    # gfx942's 16x16x16 form (the front end's MFMAs halved along K): 4 K values per lane
    ("v_mfma_f32_16x16x16_bf16", BF16_ONE, BF16_TWO, 4),
    ("v_mfma_f32_16x16x16_f16", F16_ONE, F16_TWO, 4)])
@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 9, 3), (15, 31, 15), (4, 7, 12),
                                   (11, 24, 1), (3, 17, 8), (11, 6, 1)])
def test_16x16_one_hot(mnemonic, one, two, per, i, k, j):
    """One element of A and of B set: only C[i][j] is their product. Each lane holds
    ``per`` K values, k = per * floor(lane / 16) + element (K taken modulo 4 * per)."""
    k %= 4 * per
    regs = per // 2                     # VGPRs of one operand

    def setup(m):
        V = m.waves[0].V
        V[4:4 + 2 * regs] = 0
        # A[i][k] = 1: lane i + 16 * (k // per), GPR (k % per) // 2, half k % 2
        _set_half(V, 4 + (k % per) // 2, i + 16 * (k // per), k % 2, one)
        # B[k][j] = 2
        _set_half(V, 4 + regs + (k % per) // 2, j + 16 * (k // per), k % 2, two)

    a, b = f"v[4:{3 + regs}]", f"v[{4 + regs}:{3 + 2 * regs}]"
    _assert_only(f"{mnemonic} v[0:3], {a}, {b}, 0\ns_endpgm", setup, i, j)


def test_16x16x32_accumulates_c_in_place():
    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        V[0:4] = 0
        V[2, 0, 16 * 3 + 7] = np.float32(5.0).view(np.uint32)   # C[4*3 + 2][7] = 5
        _set_half(V, 4, 14, 0, BF16_ONE)                          # A[14][0] = 1
        _set_half(V, 8, 7, 0, BF16_TWO)                           # B[0][7] = 2

    _assert_only("v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\ns_endpgm", setup,
                 14, 7, 5.0 + 2.0)


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (1, 16, 2), (7, 63, 9), (15, 64, 15),
                                   (9, 127, 4), (12, 80, 0), (2, 50, 13)])
@pytest.mark.parametrize("mods,one,two", [("", 0x38, 0x40), (" cbsz:1 blgp:1", 0x3C, 0x40),
                                          (" blgp:1", 0x38, 0x40)])
def test_16x16x128_fp8_one_hot(i, k, j, mods, one, two):
    q, rest = divmod(k, 16)
    lane_q, chunk = q % 4, (k // 64)
    j_in = k % 16
    # k = 16 * floor(lane / 16) + 64 * chunk + j: byte 16 * chunk + j of the lane
    assert k == 16 * lane_q + 64 * chunk + j_in and rest == j_in
    byte = 16 * chunk + j_in

    def setup(m):
        V = m.waves[0].V
        V[36:52] = 0
        _set_byte(V, 36 + byte // 4, i + 16 * lane_q, byte % 4, one)
        _set_byte(V, 44 + byte // 4, j + 16 * lane_q, byte % 4, two)

    _assert_only(f"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[36:43], v[44:51], 0{mods}\ns_endpgm",
                 setup, i, j)


def test_fp8_e4m3_values_and_sign():
    def setup(m):
        V = m.waves[0].V
        V[36:52] = 0
        _set_byte(V, 36, 3, 0, 0x44 | 0x80)      # A[3][0] = -3
        _set_byte(V, 44, 5, 0, 0x40)             # B[0][5] = 2
        _set_byte(V, 36, 3, 1, 0x38)             # A[3][1] = 1
        _set_byte(V, 44, 5, 1, 0x44)             # B[1][5] = 3

    m = run_snippet("v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[36:43], v[44:51], 0\ns_endpgm",
                    setup=setup)
    assert _d_value(m.waves[0].V, 0, 3, 5) == -3.0 * 2.0 + 1.0 * 3.0


def test_mfma_with_partial_exec_is_a_finding():
    from pipeline_mlir.emu.errors import Finding

    with pytest.raises(Finding, match="mfma-exec"):
        run_snippet("s_mov_b64 exec, 1\n"
                    "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], 0\ns_endpgm")


# v_mfma_i32_16x16x64_i8: IREE's layout of MFMA_I32_16x16x64_I8 (IREEGPUAttrs.cpp,
# getSingleSubgroupLayout: A thread {16, 4} with strides {1, 16} and element {1, 16}; B the
# transpose): lane l holds row (A) / column (B) l % 16 and the 16 consecutive K values from
# 16 * floor(l / 16), byte b of the lane's 16 (byte b % 4 of register b // 4) being K 16q + b.
@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (1, 15, 2), (7, 16, 9), (15, 63, 15),
                                   (9, 37, 4), (12, 50, 0), (2, 4, 13)])
def test_16x16x64_i8_one_hot(i, k, j):
    lane_q, byte = divmod(k, 16)

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        _set_byte(V, 4 + byte // 4, i + 16 * lane_q, byte % 4, 3)      # A[i][k] = 3
        _set_byte(V, 8 + byte // 4, j + 16 * lane_q, byte % 4, 0xFE)   # B[k][j] = -2

    m = run_snippet("v_mfma_i32_16x16x64_i8 v[0:3], v[4:7], v[8:11], 0\ns_endpgm", setup=setup)
    V = m.waves[0].V
    got = np.array([[int(V[r % 4, 0, c + 16 * (r // 4)].view(np.int32)) for c in range(16)]
                    for r in range(16)])
    want = np.zeros((16, 16), dtype=np.int64)
    want[i, j] = -6
    assert np.array_equal(got, want)


def test_16x16x64_i8_sums_signed_bytes_into_c_and_wraps_to_i32():
    def setup(m):
        V = m.waves[0].V
        V[0:12] = 0
        V[1, 0, 16 * 2 + 5] = np.int32(2**31 - 100).view(np.uint32)   # C[4*2 + 1][5]
        for k in range(64):                        # A[9][k] = -128, B[k][5] = -128
            q, b = divmod(k, 16)
            _set_byte(V, 4 + b // 4, 9 + 16 * q, b % 4, 0x80)
            _set_byte(V, 8 + b // 4, 5 + 16 * q, b % 4, 0x80)

    m = run_snippet("v_mfma_i32_16x16x64_i8 v[0:3], v[4:7], v[8:11], v[0:3]\ns_endpgm",
                    setup=setup)
    got = int(m.waves[0].V[1, 0, 16 * 2 + 5].view(np.int32))
    want = (2**31 - 100 + 64 * 128 * 128 + 2**31) % 2**32 - 2**31     # two's complement wrap
    assert got == want and got < 0


# gfx942's v_mfma_i32_16x16x32_i8 and _32x32x16_i8, which gfx950 keeps (the front end halves
# the deep forms into them: frontend/half_k.py): the deep forms' layouts with 8 bytes a lane,
# byte b of the lane's 8 (byte b % 4 of register b // 4) being K 8 q + b (16x16, q = l // 16)
# or 8 h + b (32x32, h = l // 32); a one-hot product lands on [i][j] alone
@pytest.mark.parametrize("rows, i, k, j", [(16, 0, 0, 0), (16, 3, 7, 9), (16, 15, 31, 2),
                                           (16, 8, 12, 15), (32, 0, 0, 31), (32, 17, 9, 4),
                                           (32, 31, 15, 0)])
def test_gfx942_i8_halves_one_hot(rows, i, k, j):
    group, byte = divmod(k, 8)
    name = "v_mfma_i32_16x16x32_i8 v[0:3]" if rows == 16 else "v_mfma_i32_32x32x16_i8 v[0:15]"

    def setup(m):
        V = m.waves[0].V
        V[16:20] = 0
        _set_byte(V, 16 + byte // 4, i + rows * group, byte % 4, 3)      # A[i][k] = 3
        _set_byte(V, 18 + byte // 4, j + rows * group, byte % 4, 0xFE)   # B[k][j] = -2

    m = run_snippet(f"{name}, v[16:17], v[18:19], 0\ns_endpgm", setup=setup)
    V = m.waves[0].V
    if rows == 16:      # register k of lane l: [4 q + k][l % 16]
        got = np.array([[int(V[r % 4, 0, c + 16 * (r // 4)].view(np.int32)) for c in range(16)]
                        for r in range(16)])
    else:               # register k of lane l: [8 (k // 4) + 4 h + k % 4][l % 32]
        got = np.array([[int(V[4 * (r // 8) + r % 4, 0, c + 32 * (r % 8 // 4)].view(np.int32))
                         for c in range(32)] for r in range(32)])
    want = np.zeros((rows, rows), dtype=np.int64)
    want[i, j] = -6
    assert np.array_equal(got, want)


def test_an_operand_gathered_again_is_kept_by_its_bits():
    """An MFMA operand's matrix is kept for the same layout and register bits (read only),
    and made again when a bit differs or the layout does."""
    from pipeline_mlir.emu import mfma as M

    regs = np.arange(4 * 2 * 64, dtype=np.uint32).reshape(4, 2, 64) * np.uint32(0x10001)
    bf16, f16 = M._Gather(4, "bf16", None, 16), M._Gather(4, "f16", None, 16)
    first = bf16(regs)
    assert bf16(regs.copy()) is first and not first.flags.writeable
    assert f16(regs) is not first and not np.array_equal(f16(regs), first, equal_nan=True)
    changed = regs.copy()
    changed[1, 1, 5] ^= np.uint32(1 << 20)
    again = bf16(changed)
    assert again is not first and not np.array_equal(again, first, equal_nan=True)
    M._GATHERED.clear()
    assert np.array_equal(bf16(changed), again, equal_nan=True)
