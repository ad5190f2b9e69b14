"""The 32x32x16 and 32x32x8 bf16/f16 MFMAs' operand and accumulator layouts pinned with one-hot inputs.

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


def _put_operands(V, i, k, j, one, two, kd=8):
    """A[i][k] = one, B[k][j] = two for a 32x32 MFMA taking ``kd`` K values per lane (16:
    4 registers, v[16:19] and v[20:23]; 32x32x8 takes 4, the calculator's entries
    themselves, in 2): lane i + 32 * (k // kd), GPR (k % kd) // 2, half k % 2."""
    V[16:24] = 0
    _set_half(V, 16 + (k % kd) // 2, i + 32 * (k // kd), k % 2, one)
    _set_half(V, 20 + (k % kd) // 2, j + 32 * (k // kd), k % 2, two)


#: (mnemonic, 1.0 and 2.0 in its type, K values per lane, operand registers, one-hot (i, k, j))
ONE_HOT = [(f"v_mfma_f32_32x32x{kk}_{t}", one, two, kk // 2, regs, ikj)
           for kk, regs, points in (
               (16, "v[16:19], v[20:23]", [(0, 0, 0), (5, 9, 3), (31, 15, 31), (4, 7, 12),
                                           (13, 8, 30), (22, 3, 17), (27, 14, 6)]),
               (8, "v[16:17], v[20:21]", [(0, 0, 0), (5, 6, 3), (31, 7, 31), (4, 3, 12),
                                          (13, 4, 30), (22, 1, 17)]))
           for t, one, two in (("bf16", BF16_ONE, BF16_TWO), ("f16", F16_ONE, F16_TWO))
           for ikj in points]


@pytest.mark.parametrize("mnemonic,one,two,kd,regs,ikj", ONE_HOT)
def test_32x32_one_hot(mnemonic, one, two, kd, regs, ikj):
    i, k, j = ikj
    m = run_snippet(f"{mnemonic} v[0:15], {regs}, 0\ns_endpgm",
                    setup=lambda m: _put_operands(m.waves[0].V, i, k, j, one, two, kd))
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

