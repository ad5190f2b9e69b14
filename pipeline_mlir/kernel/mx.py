"""OCP Microscaling (MX) numbers and the numpy reference of an MX GEMM.

The OCP Microscaling Formats (MX) Specification v1.0 (Open Compute Project, 2023) defines an
MX block as ``k = 32`` elements sharing one scale ``X``; the value of element ``P_i`` is
``X * P_i`` (section 5.1 of the spec).  The formats used here:

* **E2M1** (MXFP4 elements): 1 sign, 2 exponent bits (bias 1), 1 mantissa bit, no
  infinities or NaN; the sixteen codes are ``+-{0, 0.5, 1, 1.5, 2, 3, 4, 6}`` (the spec's
  table of FP4 values: code ``0b0001`` is the subnormal 0.5, ``0b0111`` the largest, 6.0).
* **E4M3** (MXFP8 elements): OCP E4M3FN, bias 7, max 448, ``S.1111.111`` is NaN, no
  infinities (gfx950's FP8: the CDNA 4 ISA uses the OCP variants, not gfx942's FNUZ).
* **E8M0** (the scale): an unsigned exponent, bias 127, value ``2^(E - 127)``; ``0xFF`` is
  NaN (the spec's scale format; AMD's matrix-core blog: "E = 255 is reserved for NaN").

:func:`mx_reference_gemm` is what an MX kernel computes: ``C = (A * Xa) x (B * Xb)^T`` with A
``M x K`` and B ``N x K`` element codes and one scale per 32 consecutive K values of each
row, every product exact and the sum taken in float64 (the exact value an f32 accumulation
approximates).  :func:`random_mx_operands` draws inputs whose products and sums are exact in
f32 (small integers and halves, power-of-two scales within a narrow range), so a kernel's C
must *equal* the reference.  Plain numpy; no MLIR, nothing of the emulator.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.target.gfx950 import MX_BLOCK

#: E8M0 exponent bias and its NaN code
E8M0_BIAS, E8M0_NAN = 127, 0xFF
#: the element formats an MX operand may have: name -> bits per element
MX_FORMATS = {"e2m1": 4, "e4m3": 8}


def minifloat(exp_bits: int, man_bits: int, specials: str) -> np.ndarray:
    """The value of every code of a sign / exponent / mantissa format (bias
    ``2^(exp_bits-1) - 1``, subnormals at exponent 0).  ``specials``: ``"none"`` (every code
    a number: E2M1), ``"fn"`` (the all-ones code of each sign is NaN: E4M3FN), ``"ieee"``
    (the all-ones exponent is infinity or NaN: E5M2)."""
    bias = (1 << (exp_bits - 1)) - 1
    n = 1 + exp_bits + man_bits
    top_e, top_m = (1 << exp_bits) - 1, (1 << man_bits) - 1
    out = np.zeros(1 << n)
    for code in range(1 << n):
        sign = -1.0 if code >> (n - 1) else 1.0
        e, m = (code >> man_bits) & top_e, code & top_m
        if specials == "fn" and e == top_e and m == top_m:
            out[code] = np.nan
        elif specials == "ieee" and e == top_e:
            out[code] = sign * np.inf if m == 0 else np.nan
        elif e == 0:
            out[code] = sign * m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            out[code] = sign * (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
    return out


#: value of each E2M1 code (0..15) and each E4M3FN code (0..255)
E2M1_VALUES = minifloat(2, 1, "none")
E4M3_VALUES = minifloat(4, 3, "fn")
_TABLES = {"e2m1": E2M1_VALUES, "e4m3": E4M3_VALUES}


def element_values(codes, fmt: str) -> np.ndarray:
    """float64 values of element ``codes`` (one code per array entry) in format ``fmt``."""
    if fmt not in _TABLES:
        raise ValueError(f"unknown MX element format {fmt!r} (formats: {', '.join(_TABLES)})")
    codes = np.asarray(codes)
    if codes.size and (codes.min() < 0 or codes.max() >= len(_TABLES[fmt])):
        raise ValueError(f"{fmt} codes lie in 0..{len(_TABLES[fmt]) - 1}")
    return _TABLES[fmt][codes.astype(np.int64)]


def scale_values(scales) -> np.ndarray:
    """float64 values ``2^(E - 127)`` of E8M0 scale codes (NaN for 0xFF)."""
    e = np.asarray(scales).astype(np.int64)
    if e.size and (e.min() < 0 or e.max() > 0xFF):
        raise ValueError("E8M0 scale codes lie in 0..255")
    return np.where(e == E8M0_NAN, np.nan, np.ldexp(1.0, e - E8M0_BIAS))


def dequantize(codes, scales, fmt: str) -> np.ndarray:
    """``rows x K`` element codes with ``rows x K/32`` scales -> their float64 values."""
    v = element_values(codes, fmt)
    s = scale_values(scales)
    rows, k = v.shape
    if k % MX_BLOCK or s.shape != (rows, k // MX_BLOCK):
        raise ValueError(f"an MX operand of {rows} x {k} elements takes {rows} x "
                         f"{k // MX_BLOCK} scales (one per {MX_BLOCK} K values), got "
                         f"{'x'.join(map(str, s.shape))}")
    return v * np.repeat(s, MX_BLOCK, axis=1)


def mx_reference_gemm(a_codes, a_scales, b_codes, b_scales, a_fmt: str = "e2m1",
                      b_fmt: str = "e2m1") -> np.ndarray:
    """``C = (A * Xa) x (B * Xb)^T`` (float64): A ``M x K``, B ``N x K`` element codes, their
    scales ``M x K/32`` and ``N x K/32`` E8M0 codes."""
    return dequantize(a_codes, a_scales, a_fmt) @ dequantize(b_codes, b_scales, b_fmt).T


def encode(values, fmt: str) -> np.ndarray:
    """The codes (uint8) of ``values``, each of which must be exactly representable."""
    table = _TABLES[fmt]
    v = np.asarray(values, dtype=np.float64)
    out = np.zeros(v.shape, dtype=np.uint8)
    for code in range(len(table)):
        if not np.isnan(table[code]) and not (table[code] == 0 and code):   # +0 for 0
            out[v == table[code]] = code
    if not np.array_equal(table[out.astype(np.int64)], v):
        raise ValueError(f"values not exactly representable in {fmt}")
    return out


#: the element values random inputs draw from: exact in E2M1 and in E4M3
EXACT_VALUES = (-3.0, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
#: the scale exponents random inputs draw from (scale values 1/4 .. 4)
EXACT_SCALE_EXPONENTS = (-2, -1, 0, 1, 2)


def random_mx_operands(rng, rows: int, k: int, fmt: str) -> tuple[np.ndarray, np.ndarray]:
    """(codes ``rows x k`` uint8, scales ``rows x k/32`` uint8) drawn so that every product of
    two scaled values is a multiple of 2^-6 of magnitude at most 144, and so every partial
    sum of a dot product with K <= 1024 is exact in f32 (1024 * 144 * 2^6 < 2^24)."""
    if k % MX_BLOCK:
        raise ValueError(f"K = {k} is not a multiple of the MX block ({MX_BLOCK})")
    vals = rng.choice(np.array(EXACT_VALUES), size=(rows, k))
    exps = rng.choice(np.array(EXACT_SCALE_EXPONENTS), size=(rows, k // MX_BLOCK))
    return encode(vals, fmt), (exps + E8M0_BIAS).astype(np.uint8)


def pack_e2m1(codes) -> np.ndarray:
    """``rows x K`` E2M1 codes -> ``rows x K/2`` bytes, element ``2i`` in the low nibble of
    byte ``i`` (the packing of the MXFP4 operand registers and of memory)."""
    c = np.asarray(codes, dtype=np.uint8)
    if c.shape[-1] % 2 or (c.size and c.max() > 0xF):
        raise ValueError("E2M1 codes lie in 0..15 and pack in pairs along K")
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)


def unpack_e2m1(packed) -> np.ndarray:
    """Inverse of :func:`pack_e2m1`."""
    p = np.asarray(packed, dtype=np.uint8)
    out = np.empty(p.shape[:-1] + (2 * p.shape[-1],), dtype=np.uint8)
    out[..., 0::2] = p & 0xF
    out[..., 1::2] = p >> 4
    return out
