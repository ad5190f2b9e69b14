"""The 8-bit 32x32 MFMAs: ``v_mfma_i32_32x32x32_i8`` and ``v_mfma_f32_32x32x64_f8f6f4``
(FP8 operands), pinned with one-hot inputs and checked against numpy on random operands.

The positions are written here from the documents, not from the emulator:

* rows and columns: lane ``l`` holds row (A) / column (B) ``l % 32`` and the K values of
  half ``h = l // 32`` (the 32x32 forms of the AMD Matrix Instruction Calculator);
* i8 32x32x32: 16 consecutive K values per lane, byte ``b`` (byte ``b % 4`` of register
  ``b // 4``) being K ``16 h + b`` (IREE's ``MFMA_I32_32x32x32_I8`` layout: element
  ``{1, 16}`` over thread ``{32, 2}``);
* FP8 32x32x64: interleaved 16-element chunks (ROCm's systems repository: "K=64 (32x32x64) produce
  elems_per_group=32, requiring an interleaved 16-element chunk layout"): byte ``b`` is K
  ``16 h + 32 (b // 16) + b % 16``; OCP E4M3FN (1.0 = 0x38, 2.0 = 0x40) and E5M2 (``cbsz``
  / ``blgp`` 1: 1.0 = 0x3C);
* C and D: 16 registers, register ``r`` of lane ``l`` holding
  ``[8 (r // 4) + 4 (l // 32) + r % 4][l % 32]`` (as for the 32x32 bf16 forms).

A permutation of K shared by A and B changes no D, on the hardware as here: these tests pin
rows, columns, the accumulator layout, signed bytes, the i32 wrap and the FP8 formats; the
K positions are the documents' (a wrong one would be invisible to any test).
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet

I8 = "v_mfma_i32_32x32x32_i8 v[0:15], v[16:19], v[24:27], {c}\ns_endpgm"
FP8 = "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], {c}{mods}\ns_endpgm"
#: E4M3FN bytes and their values (the documents' 1.0, 2.0, 3.0, sign bit; 0.5 = 0x30)
E4M3 = {0x00: 0.0, 0x38: 1.0, 0x40: 2.0, 0x44: 3.0, 0x30: 0.5, 0xB8: -1.0, 0xC0: -2.0}


def _k_of(lane: int, byte: int, fp8: bool) -> int:
    h = lane // 32
    return 16 * h + 32 * (byte // 16) + byte % 16 if fp8 else 16 * h + byte


def _slot(k: int, row: int, fp8: bool) -> tuple[int, int, int]:
    """(register offset, lane, byte in the register) of element K ``k`` of row ``row``."""
    h = (k % 32) // 16 if fp8 else k // 16
    byte = 16 * (k // 32) + k % 16 if fp8 else k % 16
    assert _k_of(row + 32 * h, byte, fp8) == k
    return byte // 4, row + 32 * h, byte % 4


def _set_byte(V, reg, lane, byte, bits):
    word = int(V[reg, 0, lane])
    V[reg, 0, lane] = (word & ~(0xFF << (8 * byte))) | (bits << (8 * byte))


def _d(V, dtype=np.float32) -> np.ndarray:
    """D (v[0:16]) as a 32x32 matrix, placed as the documents say."""
    return np.array([[V[4 * (i // 8) + i % 4, 0, j + 32 * ((i // 4) % 2)].view(dtype)
                      for j in range(32)] for i in range(32)])


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 9, 3), (31, 31, 31), (4, 16, 12),
                                   (13, 20, 30), (22, 3, 17)])
def test_i8_32x32x32_one_hot(i, k, j):
    def setup(m):
        V = m.waves[0].V
        V[16:32] = 0
        reg, lane, byte = _slot(k, i, False)
        _set_byte(V, 16 + reg, lane, byte, 3)                    # A[i][k] = 3
        reg, lane, byte = _slot(k, j, False)
        _set_byte(V, 24 + reg, lane, byte, 0xFE)                 # B[k][j] = -2

    m = run_snippet(I8.format(c="0"), setup=setup)
    want = np.zeros((32, 32), dtype=np.int32)
    want[i, j] = -6
    assert np.array_equal(_d(m.waves[0].V, np.int32), want)


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 9, 3), (31, 63, 31), (4, 16, 12),
                                   (13, 40, 30), (22, 33, 17), (7, 48, 1)])
@pytest.mark.parametrize("mods,one,two", [("", 0x38, 0x40), (" cbsz:1 blgp:1", 0x3C, 0x40)])
def test_fp8_32x32x64_one_hot(i, k, j, mods, one, two):
    def setup(m):
        V = m.waves[0].V
        V[16:32] = 0
        reg, lane, byte = _slot(k, i, True)
        _set_byte(V, 16 + reg, lane, byte, one)                  # A[i][k] = 1
        reg, lane, byte = _slot(k, j, True)
        _set_byte(V, 24 + reg, lane, byte, two)                  # B[k][j] = 2

    m = run_snippet(FP8.format(c="0", mods=mods), setup=setup)
    want = np.zeros((32, 32))
    want[i, j] = 2.0
    assert np.array_equal(_d(m.waves[0].V), want)


def _random_operands(V, rng, fp8: bool):
    """Fill A (v[16:]) and B (v[24:]) with random bytes; return A (32 x K) and B (K x 32) as
    numpy matrices built from the documents' layout."""
    regs, depth = (8, 64) if fp8 else (4, 32)
    values = np.array(list(E4M3)) if fp8 else np.arange(256)
    A, B = np.zeros((32, depth)), np.zeros((depth, 32))
    for first, mat, by_row in ((16, A, True), (24, B, False)):
        bits = rng.choice(values, size=(regs * 4, 64))
        for r in range(regs):
            V[first + r, 0, :] = sum(bits[4 * r + y].astype(np.uint32) << (8 * y)
                                     for y in range(4))
        for lane in range(64):
            for b in range(4 * regs):
                v = E4M3[int(bits[b, lane])] if fp8 else np.int8(np.uint8(bits[b, lane]))
                k = _k_of(lane, b, fp8)
                if by_row:
                    mat[lane % 32, k] = v
                else:
                    mat[k, lane % 32] = v
    return A, B


@pytest.mark.parametrize("fp8", [False, True])
def test_matches_numpy_with_c(fp8):
    """Random operands and C: D = C + A x B (i8: exact, wrapped to i32; C[0][0] placed at
    the end of the i32 range that A x B's [0][0] crosses)."""
    rng = np.random.default_rng(3)
    got = {}

    def setup(m):
        V = m.waves[0].V
        A, B = got["ab"] = _random_operands(V, rng, fp8)
        if fp8:
            V[0:16, 0, :] = rng.integers(-8, 8, size=(16, 64)).astype(np.float32).view(np.uint32)
        else:
            C = rng.integers(-2**31, 2**31, size=(16, 64)).astype(np.int32)
            assert A[0] @ B[:, 0] != 0
            C[0, 0] = 2**31 - 1 if A[0] @ B[:, 0] > 0 else -2**31      # D[0][0]: wraps
            V[0:16, 0, :] = C.view(np.uint32)
        got["c"] = _d(V, np.float32 if fp8 else np.int32).astype(np.float64)

    program = FP8.format(c="v[0:15]", mods="") if fp8 else I8.format(c="v[0:15]")
    m = run_snippet(program, setup=setup)
    A, B = got["ab"]
    if fp8:
        assert np.array_equal(_d(m.waves[0].V), got["c"] + A @ B)
        return
    want = (got["c"].astype(np.int64) + (A @ B).astype(np.int64) + 2**31) % 2**32 - 2**31
    d = _d(m.waves[0].V, np.int32)
    assert np.array_equal(d, want.astype(np.int32))
    assert (d[0, 0] < 0) == (got["c"][0, 0] > 0)                          # it wrapped
