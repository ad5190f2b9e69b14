"""gfx942's 16x16x32 and 32x32x16 FP8 MFMAs, which gfx950 keeps
(``v_mfma_f32_{16x16x32,32x32x16}_{fp8,bf8}_{fp8,bf8}``), pinned with one-hot inputs, checked
against numpy on random operands and, code by code (16x16x32), against the OCP 8-bit float
spec's values (subnormals, the largest, infinities, NaN).

The positions are written here from the documents, not from the emulator:

* lane ``l`` holds row (A) / column (B) ``l % 16`` and, in its 8 bytes (byte ``b % 4`` of
  register ``b // 4``), the K values ``8 (l // 16) + b`` (the AMD Matrix Instruction
  Calculator's 16x16x32 FP8 layout; IREE's ``MFMA_F32_16x16x32_F8E4M3FN``: thread ``{16, 4}``,
  element ``{1, 8}``); in the 32x32x16 form, row / column ``l % 32`` and K
  ``8 (l // 32) + b`` (the CDNA3 ISA's operands of 64 bits a lane; IREE's
  ``MFMA_F32_32x32x16_F8E4M3FN``: thread ``{32, 2}``, element ``{1, 8}``);
* the formats are the mnemonic's, A's first: ``fp8`` OCP E4M3FN (1.0 = 0x38, 2.0 = 0x40),
  ``bf8`` E5M2 (1.0 = 0x3C, 2.0 = 0x40);
* C and D: 4 registers, register ``r`` of lane ``l`` holding ``[4 (l // 16) + r][l % 16]``;
  32x32x16: 16 registers, ``[8 (r // 4) + 4 (l // 32) + r % 4][l % 32]`` (as the other 32x32
  forms).

A permutation of K shared by A and B changes no D: the K positions are the documents'; the
IREE kernels that issue these MFMAs (``test/unit/tools/test_iree_fp8_mfma16.py``,
``test_iree_fp8_mfma32.py``) check them against IREE's layout on the emulator.
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import EmuError

PROGRAM = "v_mfma_f32_{shape}_{a}_{b} {d}, v[16:17], v[24:25], {c}{mods}\ns_endpgm"
#: each form by its rows M: (shape, D's registers)
SHAPES = {16: ("16x16x32", "v[0:3]"), 32: ("32x32x16", "v[0:15]")}
#: the bytes of 1.0 and 2.0 in each format word of the mnemonic
ONE = {"fp8": 0x38, "bf8": 0x3C}
TWO = {"fp8": 0x40, "bf8": 0x40}
#: a few exact values of each format (sign, powers of two, 3.0, 0.5, 0)
VALUES = {"fp8": {0x00: 0.0, 0x38: 1.0, 0x40: 2.0, 0x44: 3.0, 0x30: 0.5, 0xB8: -1.0,
                  0xC0: -2.0},
          "bf8": {0x00: 0.0, 0x3C: 1.0, 0x40: 2.0, 0x42: 3.0, 0x38: 0.5, 0xBC: -1.0,
                  0xC0: -2.0}}
FORMATS = [("fp8", "fp8"), ("bf8", "bf8"), ("fp8", "bf8"), ("bf8", "fp8")]


def _program(m: int, a: str, b: str, with_c: bool = False, mods: str = "") -> str:
    """The ``m`` x ``m`` MFMA of formats ``a``, ``b``; C its D's registers or 0."""
    shape, d = SHAPES[m]
    return PROGRAM.format(shape=shape, a=a, b=b, d=d, c=d if with_c else "0", mods=mods)


def _slot(k: int, row: int, m: int = 16) -> tuple[int, int, int]:
    """(register offset, lane, byte in the register) of element K ``k`` of row ``row``."""
    return (k % 8) // 4, row + m * (k // 8), k % 4


def _set_byte(V, reg, lane, byte, bits):
    word = int(V[reg, 0, lane])
    V[reg, 0, lane] = (word & ~(0xFF << (8 * byte))) | (bits << (8 * byte))


def _d(V, m: int = 16) -> np.ndarray:
    """D (v[0:4], 32x32: v[0:16]) as an ``m`` x ``m`` matrix, placed as the documents say."""
    if m == 32:
        return np.array([[V[4 * (i // 8) + i % 4, 0, j + 32 * ((i // 4) % 2)].view(np.float32)
                          for j in range(32)] for i in range(32)])
    return np.array([[V[i % 4, 0, j + 16 * (i // 4)].view(np.float32) for j in range(16)]
                     for i in range(16)])


@pytest.mark.parametrize("m,i,k,j", [
    (16, 0, 0, 0), (16, 5, 9, 3), (16, 15, 31, 15), (16, 4, 16, 12), (16, 13, 27, 1),
    (16, 9, 6, 8),
    (32, 0, 0, 0), (32, 5, 9, 3), (32, 31, 15, 31), (32, 4, 8, 12), (32, 13, 7, 30),
    (32, 22, 12, 17)])
@pytest.mark.parametrize("a,b", FORMATS)
def test_one_hot(m, i, k, j, a, b):
    def setup(machine):
        V = machine.waves[0].V
        V[16:26] = 0
        reg, lane, byte = _slot(k, i, m)
        _set_byte(V, 16 + reg, lane, byte, ONE[a])              # A[i][k] = 1
        reg, lane, byte = _slot(k, j, m)
        _set_byte(V, 24 + reg, lane, byte, TWO[b])              # B[k][j] = 2

    machine = run_snippet(_program(m, a, b), setup=setup)
    want = np.zeros((m, m))
    want[i, j] = 2.0
    assert np.array_equal(_d(machine.waves[0].V, m), want)


def _random_operand(V, first: int, rng, fmt: str, by_row: bool, m: int) -> np.ndarray:
    """Fill 2 registers from ``first`` with random bytes of ``fmt``; return the operand of the
    ``m`` x ``m`` form as a numpy matrix (A m x K, B K x m) built from the documents' layout."""
    table = VALUES[fmt]
    bits = rng.choice(np.array(list(table)), size=(8, 64))
    for r in range(2):
        V[first + r, 0, :] = sum(bits[4 * r + y].astype(np.uint32) << (8 * y) for y in range(4))
    mat = np.zeros((m, 512 // m))
    for lane in range(64):
        for byte in range(8):
            mat[lane % m, 8 * (lane // m) + byte] = table[int(bits[byte, lane])]
    return mat if by_row else mat.T


@pytest.mark.parametrize("m", sorted(SHAPES))
@pytest.mark.parametrize("a,b", FORMATS)
def test_matches_numpy_with_c(a, b, m):
    """Random operands of each format pair and a random C: D = C + A x B exactly."""
    rng = np.random.default_rng(7)
    got = {}

    def setup(machine):
        V = machine.waves[0].V
        got["a"] = _random_operand(V, 16, rng, a, True, m)
        got["b"] = _random_operand(V, 24, rng, b, False, m)
        n = m * m // 64
        V[0:n, 0, :] = rng.integers(-8, 8, size=(n, 64)).astype(np.float32).view(np.uint32)
        got["c"] = _d(V, m).astype(np.float64)

    machine = run_snippet(_program(m, a, b, with_c=True), setup=setup)
    assert np.array_equal(_d(machine.waves[0].V, m), got["c"] + got["a"] @ got["b"])


@pytest.mark.parametrize("m", sorted(SHAPES))
def test_broadcast_modifier_is_refused(m):
    """cbsz on these MFMAs is a broadcast (not a format, as on the f8f6f4 ones): refused."""
    with pytest.raises(EmuError, match="cbsz/abid/blgp broadcast modifiers"):
        run_snippet(_program(m, "fp8", "fp8", mods=" cbsz:1 abid:1"))


def _ocp(code: int, fmt: str) -> float:
    """An FP8 code's value by the OCP 8-bit float spec, written here: E4M3FN (bias 7, no
    infinities, S.1111.111 NaN, max 0x7E = 448), E5M2 (bias 15, IEEE-like: exponent 31 is
    infinity with a zero mantissa, else NaN; max 0x7B = 57344); exponent 0 subnormal."""
    e_bits, m_bits, bias = (4, 3, 7) if fmt == "fp8" else (5, 2, 15)
    sign = -1.0 if code & 0x80 else 1.0
    e, m = (code >> m_bits) & ((1 << e_bits) - 1), code & ((1 << m_bits) - 1)
    if fmt == "fp8" and (code & 0x7F) == 0x7F or fmt == "bf8" and e == 31 and m:
        return float("nan")
    if fmt == "bf8" and e == 31:
        return sign * float("inf")
    if e == 0:
        return sign * m / (1 << m_bits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


@pytest.mark.parametrize("a,b", FORMATS)
def test_every_code_of_each_operand(a, b):
    """All 256 codes of A's format, A[i][k] = code 16 i + k (k < 16) times B = the identity
    (B[k][j] = 1.0 for k = j): D holds each code's value; the codes of no finite value
    (their products with B's zeros are NaN) one per row, A[i][i], in a second MFMA; then B's
    codes the same way against an identity A."""
    assert (_ocp(0x7E, "fp8"), _ocp(0x01, "fp8"), _ocp(0x7B, "bf8"), _ocp(0x01, "bf8"),
            _ocp(0x7C, "bf8"), _ocp(0xFC, "bf8")) == (448.0, 2.0 ** -9, 57344.0, 2.0 ** -16,
                                                      float("inf"), -float("inf"))
    for codes_side in ("a", "b"):
        fmt, other = (a, b) if codes_side == "a" else (b, a)
        special = [c for c in range(256) if not np.isfinite(_ocp(c, fmt))]
        finite = np.array([c if np.isfinite(_ocp(c, fmt)) else 0
                           for c in range(256)]).reshape(16, 16)
        lone = np.zeros((16, 16), dtype=np.int64)
        for i, c in enumerate(special):
            lone[i, i] = c
        for codes in (finite, lone):
            def setup(m, codes=codes):
                V = m.waves[0].V
                V[16:26] = 0
                for i in range(16):
                    for k in range(16):
                        reg, lane, byte = _slot(k, i)
                        _set_byte(V, (16 if codes_side == "a" else 24) + reg, lane, byte,
                                  int(codes[i, k]))
                        if i == k:                   # the other operand: the identity
                            _set_byte(V, (24 if codes_side == "a" else 16) + reg, lane, byte,
                                      ONE[other])

            m = run_snippet(_program(16, a, b), setup=setup)
            got = _d(m.waves[0].V)
            got = got if codes_side == "a" else got.T
            want = np.vectorize(lambda c: _ocp(int(c), fmt))(codes).astype(np.float32)
            if codes is lone:                      # only each special code's own element
                idx = np.arange(len(special))
                got, want = got[idx, idx], want[idx, idx]
            assert np.array_equal(got, want, equal_nan=True), (codes_side, fmt)
