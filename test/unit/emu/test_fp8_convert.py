"""``v_cvt_pk_fp8_f32`` / ``v_cvt_pk_bf8_f32`` (``pipeline_mlir/emu/fp8cvt.py``) against a
rounding written here from the OCP formats' definition, with Python floats: every code's
value listed, the nearest taken, a tie to the even code, and the code one step beyond the
largest finite value standing for an overflow (NaN in E4M3FN, infinity in E5M2).  The
instructions run on the emulator, assembled and decoded; a wrong rounding or a wrong
``word_sel`` is caught (the mutants at the end)."""

from __future__ import annotations

import bisect
import functools
import math
import struct
from fractions import Fraction

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu import fp8cvt
from pipeline_mlir.emu.errors import EmuError

#: (exponent bits, mantissa bits, bias, the largest finite code)
SPEC = {"fp8": (4, 3, 7, 0x7E), "bf8": (5, 2, 15, 0x7B)}


def _value(code: int, fmt: str) -> float:
    e_bits, m_bits, bias, _top = SPEC[fmt]
    e, m = code >> m_bits, code & ((1 << m_bits) - 1)
    if e == 0:
        return m * 2.0 ** (1 - bias - m_bits)
    return (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


@functools.cache
def _codes(fmt: str) -> tuple[list[Fraction], list[int]]:
    """The values (exact) of codes 0 .. the largest finite and one beyond, ascending."""
    codes = list(range(SPEC[fmt][3] + 2))
    return [Fraction(_value(c, fmt)) for c in codes], codes


def _reference(x: float, fmt: str, saturate: bool = False) -> int:
    """The code of ``x`` (a Python float holding an f32), distances exact (fractions)."""
    top = SPEC[fmt][3]
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return 0x7F | sign
    over = (top if saturate else {"fp8": 0x7F, "bf8": 0x7C}[fmt]) | sign
    if math.isinf(x):
        return over
    values, codes = _codes(fmt)
    mag = Fraction(abs(x))
    i = min(bisect.bisect_left(values, mag), len(values) - 1)
    near = [(values[j], codes[j]) for j in (i - 1, i) if j >= 0]
    best = min(near, key=lambda vc: (abs(mag - vc[0]), vc[1] % 2))[1]
    if mag > values[-1] or best == top + 1:
        return over
    return best | sign


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _inputs(fmt: str) -> np.ndarray:
    """f32 bit patterns: every code's value, the midpoints between neighbours (ties) and
    next to them, the overflow edge, NaN, infinities, zeros, f32 subnormals, random."""
    vals = [_value(c, fmt) for c in range(SPEC[fmt][3] + 2)]
    pts = set()
    for a, b in zip(vals, vals[1:]):
        mid = np.float32((a + b) / 2)
        pts.update([np.float32(a), mid, np.nextafter(mid, np.float32(0)),
                    np.nextafter(mid, np.float32(np.inf))])
    bits = [int(np.float32(p).view(np.uint32)) for p in pts]
    bits += [0x7FC00000, 0x7F800001, 0x7F800000, 0xFF800000, 0, 0x80000000, 1, 0x80000003,
             0x7F7FFFFF, 0x3F800000, 0xC3E00000]
    rng = np.random.default_rng(5)
    rand = rng.normal(0, 1, 600) * np.exp2(rng.integers(-20, 20, 600))
    bits += [int(b) for b in rand.astype(np.float32).view(np.uint32)]
    bits = np.array(bits, dtype=np.uint32)
    return np.concatenate([bits, bits | np.uint32(0x80000000)])


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
def test_the_conversion_rounds_as_the_format_defines(fmt):
    bits = _inputs(fmt)
    for saturate in (False, True):
        got = fp8cvt.f32_to_fp8(bits, fmt, saturate)
        want = [_reference(_f32(int(b)), fmt, saturate) for b in bits]
        bad = [(hex(int(b)), hex(int(g)), hex(w)) for b, g, w in zip(bits, got, want)
               if g != w]
        assert not bad, (saturate, bad[:5])


def test_the_edges_of_e4m3fn():
    f = fp8cvt.f32_to_fp8
    x = np.array([448.0, 450.0, 464.0, 465.0, 1e30, -464.0, 2.0 ** -9, 2.0 ** -10,
                  1.5 * 2 ** -9], dtype=np.float32).view(np.uint32)
    # 464 is the tie between 448 (0x7E, even) and the overflow: it rounds to 448
    assert [hex(v) for v in f(x, "fp8")] == ["0x7e", "0x7e", "0x7e", "0x7f", "0x7f", "0xfe",
                                             "0x1", "0x0", "0x2"]
    assert [hex(v) for v in f(x, "fp8", True)][3:5] == ["0x7e", "0x7e"]
    big = np.array([57344.0, 61439.0, 61440.0, np.inf], dtype=np.float32).view(np.uint32)
    assert [hex(v) for v in f(big, "bf8")] == ["0x7b", "0x7b", "0x7c", "0x7c"]


_PROGRAM = """
    v_cvt_pk_fp8_f32 v3, v1, v2
    v_cvt_pk_bf8_f32 v3, v2, v1 op_sel:[0,0,1]
    v_cvt_pk_bf8_f32 v4, v1, v2
    s_nop 0
    v_cvt_pk_fp8_f32 v4, v2, v1 op_sel:[0,0,1]
    s_endpgm"""


def _run(text: str):
    a = _inputs("fp8")[:64]
    b = _inputs("fp8")[64:128]

    def setup(m):
        w = m.waves[0]
        w.V[1], w.V[2] = a[None], b[None]
        w.V[4] = np.uint32(0xA5A5A5A5)
    V = run_snippet(text, setup=setup).waves[0].V
    return a, b, V[3, 0], V[4, 0]


def _word(fmt: str, x, y):
    return np.array([_reference(_f32(int(p)), fmt) | (_reference(_f32(int(q)), fmt) << 8)
                     for p, q in zip(x, y)], dtype=np.uint32)


def test_the_instructions_on_the_emulator():
    """The first source in the low byte; op_sel:[0,0,1] writes the high half and keeps the
    low one (the old value of the destination: the word_sel operand's)."""
    a, b, v3, v4 = _run(_PROGRAM)
    assert np.array_equal(v3, _word("fp8", a, b) | (_word("bf8", b, a) << 16))
    assert np.array_equal(v4, _word("bf8", a, b) | (_word("fp8", b, a) << 16))


@pytest.mark.parametrize("mutant", [
    ("op_sel:[0,0,1]", ""),                                 # word_sel ignored
    ("v_cvt_pk_bf8_f32 v4", "v_cvt_pk_fp8_f32 v4"),         # the other format
])
def test_a_wrong_word_sel_or_format_is_caught(mutant):
    a, b, v3, v4 = _run(_PROGRAM.replace(*mutant, 1))
    ok = np.array_equal(v3, _word("fp8", a, b) | (_word("bf8", b, a) << 16)) and \
        np.array_equal(v4, _word("bf8", a, b) | (_word("fp8", b, a) << 16))
    assert not ok


def test_a_wrong_rounding_is_caught(monkeypatch):
    """Truncation in place of round-to-nearest-even (the bits below the format's mantissa
    cleared first) disagrees with the reference, in the instructions' results too."""
    real = fp8cvt.f32_to_fp8

    def truncating(bits, fmt, saturate=False):
        low = (1 << (23 - SPEC[fmt][1])) - 1
        return real(np.asarray(bits, dtype=np.uint32) & np.uint32(~low & 0xFFFFFFFF), fmt,
                    saturate)
    bits = _inputs("fp8")
    got = truncating(bits, "fp8")
    assert any(int(g) != _reference(_f32(int(x)), "fp8") for x, g in zip(bits, got))
    monkeypatch.setattr(fp8cvt, "f32_to_fp8", truncating)
    a, b, v3, _v4 = _run(_PROGRAM)
    assert not np.array_equal(v3, _word("fp8", a, b) | (_word("bf8", b, a) << 16))


def test_stochastic_rounding_and_source_op_sel_are_refused():
    with pytest.raises(EmuError, match=r"v_cvt_sr_fp8_f32.*stochastic rounding is not "
                                       r"modelled"):
        run_snippet("v_cvt_sr_fp8_f32 v3, v1, v2\ns_endpgm")
    with pytest.raises(EmuError, match=r"op_sel of a source"):
        run_snippet("v_cvt_pk_fp8_f32 v3, v1, v2 op_sel:[1,0,0]\ns_endpgm")


@pytest.mark.parametrize("dtype", ["fp8", "fp8e5m2"])
def test_the_launch_bytes_encode_as_the_reference_casts(dtype):
    """A buffer written as fp8 (``expect.encode``) holds the conversion's bytes, so what the
    kernel reads back is what the reference casts: beyond the range too (a far negative
    value is NaN / -inf, not the largest positive value)."""
    from pipeline_mlir.emu.expect import cast, decode, encode
    x = np.array([-1e9, 1000.0, 70000.0, 464.0, 465.0, 61440.0, -0.375, 1e-9, np.nan])
    got, want = decode(encode(x, dtype), dtype), cast(x, dtype)
    assert np.array_equal(got, want, equal_nan=True), (got, want)
    assert np.isnan(got[-1]) and not got[0] > 0


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
def test_the_bytes_by_table_are_the_conversions(fmt):
    """``f32_to_fp8_bytes`` (a table by the high 16 bits when the low ones are 0) gives
    ``f32_to_fp8``'s codes for every high half, each with low bits 0, a tie's 0x8000 or
    random ones, mixed in one array (the values with low bits converted apart),
    saturating or not; a short array too.  About 0.05 s."""
    bits = np.arange(1 << 16, dtype=np.uint32) << np.uint32(16)
    rng = np.random.default_rng(3)
    low = rng.integers(0, 1 << 16, size=bits.size).astype(np.uint32)
    pick = rng.integers(0, 3, size=bits.size)
    bits |= np.where(pick == 0, 0, np.where(pick == 1, 0x8000, low)).astype(np.uint32)
    assert bits.size >= fp8cvt.TABLE_FROM
    for saturate in (False, True):
        want = fp8cvt.f32_to_fp8(bits, fmt, saturate).astype(np.uint8)
        got = fp8cvt.f32_to_fp8_bytes(bits, fmt, saturate)
        assert got.dtype == np.uint8 and np.array_equal(got, want), saturate
        assert np.array_equal(fp8cvt.f32_to_fp8_bytes(bits[:100], fmt, saturate), want[:100])
