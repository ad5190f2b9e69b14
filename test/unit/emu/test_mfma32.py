"""The 32x32x16 bf16/f16 MFMAs' operand and accumulator layouts pinned with one-hot inputs.

Expected positions are written from the AMD Matrix Instruction Calculator's 32x32x8
bf16_1k/f16 entries, not from the emulator: "A i: lane % 32", "A k: 4 * floor(lane / 32) +
2 * GPR_num + floor(GPR_bits / 16)" (gfx950's 32x32x16 forms double K: 8 values per lane,
k = 8 * floor(lane / 32) + element), B likewise with j; "C or D i: 8 * floor(GPR_num / 4)
+ 4 * floor(lane / 32) + (GPR_num % 4)", "C or D j: lane % 32" over 16 registers.
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet

BF16_ONE, BF16_TWO = 0x3F80, 0x4000
F16_ONE, F16_TWO = 0x3C00, 0x4000


def _set_half(V, reg, lane, half, bits):
    word = int(V[reg, 0, lane])
    V[reg, 0, lane] = (word & ~(0xFFFF << (16 * half))) | (bits << (16 * half))


def _d_value(V, first, i, j):
    """D[i][j] as the calculator places it."""
    reg = 4 * (i // 8) + i % 4
    lane = j + 32 * ((i // 4) % 2)
    return float(V[first + reg, 0, lane].view(np.float32))


def _all_d(V, first):
    return np.array([[_d_value(V, first, i, j) for j in range(32)] for i in range(32)])


def _put_operands(V, i, k, j, one, two):
    V[16:24] = 0
    # A[i][k] = one: lane i + 32 * (k // 8), GPR (k % 8) // 2, half k % 2 (v[16:19])
    _set_half(V, 16 + (k % 8) // 2, i + 32 * (k // 8), k % 2, one)
    # B[k][j] = two (v[20:23])
    _set_half(V, 20 + (k % 8) // 2, j + 32 * (k // 8), k % 2, two)


@pytest.mark.parametrize("mnemonic,one,two", [("v_mfma_f32_32x32x16_bf16", BF16_ONE, BF16_TWO),
                                              ("v_mfma_f32_32x32x16_f16", F16_ONE, F16_TWO)])
@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 9, 3), (31, 15, 31), (4, 7, 12),
                                   (13, 8, 30), (22, 3, 17), (27, 14, 6)])
def test_32x32x16_one_hot(mnemonic, one, two, i, k, j):
    m = run_snippet(f"{mnemonic} v[0:15], v[16:19], v[20:23], 0\ns_endpgm",
                    setup=lambda m: _put_operands(m.waves[0].V, i, k, j, one, two))
    want = np.zeros((32, 32))
    want[i, j] = 2.0
    assert np.array_equal(_all_d(m.waves[0].V, 0), want)


def test_32x32x16_accumulates_c_in_place():
    def setup(m):
        V = m.waves[0].V
        V[0:16] = 0
        # C[8 * 2 + 4 + 1][9] = 5: GPR 4 * 2 + 1, lane 9 + 32
        V[9, 0, 41] = np.float32(5.0).view(np.uint32)
        _put_operands(V, 21, 11, 9, BF16_ONE, BF16_TWO)      # A[21][11] B[11][9]: += 2

    m = run_snippet("v_mfma_f32_32x32x16_bf16 v[0:15], v[16:19], v[20:23], v[0:15]\n"
                    "s_endpgm", setup=setup)
    want = np.zeros((32, 32))
    want[21, 9] = 7.0
    assert np.array_equal(_all_d(m.waves[0].V, 0), want)


def test_32x32x16_sums_over_k():
    """All-ones A and B: every D element is the K depth, 16."""
    def setup(m):
        V = m.waves[0].V
        V[16:24] = np.uint32(BF16_ONE | (BF16_ONE << 16))

    m = run_snippet("v_mfma_f32_32x32x16_bf16 v[0:15], v[16:19], v[20:23], 0\ns_endpgm",
                    setup=setup)
    assert np.array_equal(_all_d(m.waves[0].V, 0), np.full((32, 32), 16.0))


def _put_operands_x8(V, i, k, j, one, two):
    """The calculator's 32x32x8 entries themselves: A[i][k] in lane i + 32 * (k // 4),
    GPR (k % 4) // 2, half k % 2 (v[16:17]); B[k][j] likewise (v[20:21])."""
    V[16:24] = 0
    _set_half(V, 16 + (k % 4) // 2, i + 32 * (k // 4), k % 2, one)
    _set_half(V, 20 + (k % 4) // 2, j + 32 * (k // 4), k % 2, two)


@pytest.mark.parametrize("mnemonic,one,two", [("v_mfma_f32_32x32x8_bf16", BF16_ONE, BF16_TWO),
                                              ("v_mfma_f32_32x32x8_f16", F16_ONE, F16_TWO)])
@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 6, 3), (31, 7, 31), (4, 3, 12),
                                   (13, 4, 30), (22, 1, 17)])
def test_32x32x8_one_hot(mnemonic, one, two, i, k, j):
    m = run_snippet(f"{mnemonic} v[0:15], v[16:17], v[20:21], 0\ns_endpgm",
                    setup=lambda m: _put_operands_x8(m.waves[0].V, i, k, j, one, two))
    want = np.zeros((32, 32))
    want[i, j] = 2.0
    assert np.array_equal(_all_d(m.waves[0].V, 0), want)
