"""What one lane of a vector ALU instruction computes: the operation tables of
:mod:`pipeline_mlir.emu.valu` and their helpers.

:data:`VOP1`, :data:`VOP2` and :data:`VOP3_3` map an instruction's base name to its
operation on one, two or three sources (numpy arrays of a wave's lanes, ``uint32``);
:data:`SATURATING` the integer adds and subtracts that take ``clamp``; :data:`CARRY` the
carry operations; :data:`VCMP` and :func:`vcmp_view` a ``v_cmp``'s relation and the view
of its operands.  No state: :func:`~pipeline_mlir.emu.valu.compile_valu` reads the
operands, applies these and writes the results.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.operands import F32, I32, I64, M32, U32, U64, f32, from_f32


def as_u32(x):
    return np.asarray(x, dtype=U32) if not isinstance(x, np.ndarray) or x.dtype != U32 else x


def as_i32(x):
    return as_u32(x).view(I32)


def _shift(x):
    return (x & 31).astype(U32)


VOP2 = {
    "v_add_u32": lambda a, b: a + b, "v_sub_u32": lambda a, b: a - b,
    "v_subrev_u32": lambda a, b: b - a,
    # the VOP3-only signed forms: without clamp the same bits as the unsigned ones
    "v_add_i32": lambda a, b: a + b, "v_sub_i32": lambda a, b: a - b,
    "v_and_b32": lambda a, b: a & b, "v_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b,
    "v_lshlrev_b32": lambda a, b: b << _shift(a), "v_lshrrev_b32": lambda a, b: b >> _shift(a),
    "v_ashrrev_i32": lambda a, b: (as_i32(b) >> _shift(a).astype(I32)).view(U32),
    "v_min_u32": np.minimum, "v_max_u32": np.maximum,
    "v_min_i32": lambda a, b: np.minimum(as_i32(a), as_i32(b)).view(U32),
    "v_max_i32": lambda a, b: np.maximum(as_i32(a), as_i32(b)).view(U32),
    "v_mul_u32_u24": lambda a, b: (a & 0xFFFFFF) * (b & 0xFFFFFF),
    "v_mul_hi_u32_u24": lambda a, b: ((((a & 0xFFFFFF).astype(U64) * (b & 0xFFFFFF)) >> U64(32))
                                      .astype(U32)),
    "v_mul_f32": lambda a, b: from_f32(f32(a) * f32(b)),
    "v_add_f32": lambda a, b: from_f32(f32(a) + f32(b)),
    "v_sub_f32": lambda a, b: from_f32(f32(a) - f32(b)),
    "v_subrev_f32": lambda a, b: from_f32(f32(b) - f32(a)),
    "v_max_f32": lambda a, b: from_f32(np.fmax(f32(a), f32(b))),
    "v_min_f32": lambda a, b: from_f32(np.fmin(f32(a), f32(b))),
    "v_mul_lo_u32": lambda a, b: ((a.astype(U64) * b) & U64(M32)).astype(U32),
    "v_mul_hi_u32": lambda a, b: ((a.astype(U64) * b) >> U64(32)).astype(U32),
    "v_mul_hi_i32": lambda a, b: (((as_i32(a).astype(I64) * as_i32(b)) >> 32).astype(I32)).view(U32),
    "v_bfm_b32": lambda a, b: ((((U32(1) << _shift(a)) - U32(1)) << _shift(b))),
    "v_mul_i32_i24": lambda a, b: (_i24(a) * _i24(b) & M32).astype(U32),
    "v_mul_hi_i32_i24": lambda a, b: ((_i24(a) * _i24(b) >> 32) & M32).astype(U32),
    # two f32 rounded to nearest even, packed: the first source in the low half
    "v_cvt_pk_bf16_f32": lambda a, b: _bf16_bits(a) | (_bf16_bits(b) << U32(16)),
    "v_cvt_pk_f16_f32": lambda a, b: _f16_bits(a) | (_f16_bits(b) << U32(16)),
}
# 16-bit integer operations on the low halves (shift counts: their low 4 bits).  On gfx9
# (gfx950 included) these write the result zero-extended to 32 bits: LLVM's
# GCNSubtarget::zeroesHigh16BitsOfDest lists them (e32 and e64) as zeroing the high 16
# bits for generations up to GFX9, and its code relies on it.
_VOP2_16 = {
    "v_add_u16": lambda a, b: a + b, "v_sub_u16": lambda a, b: a - b,
    "v_subrev_u16": lambda a, b: b - a, "v_mul_lo_u16": lambda a, b: a * b,
    "v_lshlrev_b16": lambda a, b: b << (a & 15), "v_lshrrev_b16": lambda a, b: b >> (a & 15),
    "v_ashrrev_i16": lambda a, b: (_i16(b) >> (a & 15).astype(I32)).view(U32),
    "v_max_u16": np.maximum, "v_min_u16": np.minimum,
    "v_max_i16": lambda a, b: np.maximum(_i16(a), _i16(b)).view(U32),
    "v_min_i16": lambda a, b: np.minimum(_i16(a), _i16(b)).view(U32),
}
VOP2.update({k: (lambda fn: lambda a, b: fn(a & U32(0xFFFF), b & U32(0xFFFF))
                  .astype(U32) & U32(0xFFFF))(fn) for k, fn in _VOP2_16.items()})


def _saturating(bits: int, signed: bool, op: str):
    """The ``clamp`` form of an integer add or subtract on ``bits``-bit sources (their low
    bits, read as signed or unsigned): the exact sum or difference, saturated to the
    destination type's range (unsigned: 0 .. 2^bits - 1; signed: -2^(bits-1) ..
    2^(bits-1) - 1), zero-extended to 32 bits.  LLVM selects these forms for
    ``uaddsat``/``usubsat``/``saddsat``/``ssubsat`` (its integer-clamp patterns on gfx9)."""
    lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1))
    low = (1 << bits) - 1

    def value(x):
        v = x.astype(I64) & low
        return (v ^ (1 << (bits - 1))) - (1 << (bits - 1)) if signed else v

    def fn(a, b):
        x, y = value(a), value(b)
        r = x + y if op == "add" else x - y if op == "sub" else y - x
        return (np.clip(r, lo, hi) & low).astype(U32)
    return fn


#: the saturating (``clamp``) forms of the VOP2/VOP3 adds and subtracts, by mnemonic
SATURATING = {
    f"v_{op}_{kind}{bits}": _saturating(bits, kind == "i", op)
    for op, kind, bits in (("add", "u", 32), ("sub", "u", 32), ("subrev", "u", 32),
                           ("add", "i", 32), ("sub", "i", 32),
                           ("add", "u", 16), ("sub", "u", 16), ("subrev", "u", 16))}
#: the adds and subtracts with a carry out (:func:`_carry`)
CARRY = frozenset(("v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32",
                    "v_subb_co_u32", "v_subbrev_co_u32"))


def _bf16_bits(a):
    """The bf16 of f32 bits ``a`` (round to nearest even; a NaN stays a NaN, made quiet)."""
    a = as_u32(a)
    nan = (a & U32(0x7FFFFFFF)) > U32(0x7F800000)
    rounded = (a + U32(0x7FFF) + ((a >> U32(16)) & U32(1))) >> U32(16)
    return np.where(nan, (a >> U32(16)) | U32(0x40), rounded).astype(U32)


def _f16_bits(a):
    """The f16 of f32 bits ``a`` (round to nearest even, subnormals kept, overflow to inf)."""
    with np.errstate(over="ignore"):
        return f32(as_u32(a)).astype(np.float16).view(np.uint16).astype(U32)


def _i24(x):
    """The low 24 bits of ``x`` as a signed integer (int64)."""
    return ((x.astype(I64) & 0xFFFFFF) ^ 0x800000) - 0x800000


def _i16(x):
    """The low 16 bits of ``x`` as a signed integer (int32)."""
    return ((x.astype(I32) & 0xFFFF) ^ 0x8000) - 0x8000


VOP1 = {
    "v_mov_b32": lambda a: a, "v_not_b32": lambda a: ~a,
    "v_cvt_f32_u32": lambda a: from_f32(a.astype(np.float64).astype(F32)),
    "v_cvt_f32_i32": lambda a: from_f32(as_i32(a).astype(np.float64).astype(F32)),
    "v_cvt_u32_f32": lambda a: _cvt_int(a, False), "v_cvt_i32_f32": lambda a: _cvt_int(a, True),
    "v_rcp_iflag_f32": lambda a: _rcp(a), "v_rcp_f32": lambda a: _rcp(a),
    "v_bfrev_b32": lambda a: np.array([int(f"{int(x):032b}"[::-1], 2) for x in a.ravel()],
                                      dtype=U32).reshape(a.shape),
    "v_cvt_f32_ubyte0": lambda a: from_f32((a & 0xFF).astype(F32)),
    # the f16 in the low half, the high half zeroed (GFX9's 16-bit VOP1 results)
    "v_cvt_f16_f32": lambda a: _f16_bits(a),
    "v_trunc_f32": lambda a: from_f32(np.trunc(f32(a))),
    "v_floor_f32": lambda a: from_f32(np.floor(f32(a))),
}
VOP3_3 = {
    "v_lshl_add_u32": lambda a, b, c: (a << _shift(b)) + c,
    "v_add_lshl_u32": lambda a, b, c: (a + b) << _shift(c),
    "v_add3_u32": lambda a, b, c: a + b + c,
    "v_lshl_or_b32": lambda a, b, c: (a << _shift(b)) | c,
    "v_and_or_b32": lambda a, b, c: (a & b) | c,
    "v_or3_b32": lambda a, b, c: a | b | c,
    "v_xad_u32": lambda a, b, c: (a ^ b) + c,
    "v_bfe_u32": lambda a, b, c: _vbfe(a, b, c),
    "v_bfe_i32": lambda a, b, c: _vbfe_i(a, b, c),
    "v_bfi_b32": lambda a, b, c: (a & b) | (~a & c),
    "v_alignbit_b32": lambda a, b, c: (((a.astype(U64) << U64(32)) | b) >>
                                       (c & 31).astype(U64)).astype(U32),
    "v_mad_u32_u24": lambda a, b, c: (a & 0xFFFFFF) * (b & 0xFFFFFF) + c,
    # gfx8's 16-bit multiply-add kept on gfx9 as ``_legacy``: the low halves, the result
    # zero-extended (as the other 16-bit integer operations above, zeroesHigh16BitsOfDest)
    "v_mad_legacy_u16": lambda a, b, c: ((a & 0xFFFF) * (b & 0xFFFF) + (c & 0xFFFF)) & 0xFFFF,
    "v_mad_i32_i24": lambda a, b, c: ((_i24(a) * _i24(b) + c) & M32).astype(U32),
    "v_min3_u32": lambda a, b, c: np.minimum(np.minimum(a, b), c),
    "v_max3_u32": lambda a, b, c: np.maximum(np.maximum(a, b), c),
    "v_min3_i32": lambda a, b, c: np.minimum(np.minimum(as_i32(a), as_i32(b)),
                                             as_i32(c)).view(U32),
    "v_max3_i32": lambda a, b, c: np.maximum(np.maximum(as_i32(a), as_i32(b)),
                                             as_i32(c)).view(U32),
    "v_med3_i32": lambda a, b, c: _med3(as_i32(a), as_i32(b), as_i32(c)).view(U32),
    "v_med3_u32": lambda a, b, c: _med3(a, b, c),
    "v_fma_f32": lambda a, b, c: fma_f32(a, b, c),
    "v_perm_b32": lambda a, b, c: _perm(a, b, c),
}


def fma_f32(a, b, c):
    """``a * b + c`` of f32 bit patterns rounded once, to nearest even (a fused
    multiply-add).  The product of two f32 is exact in float64 (48 significant bits); the
    sum is rounded to odd in float64 (the rounded sum and its exact error by TwoSum, the
    sum's last bit set when the error is not zero, after a step toward zero when the error
    points there), and a value rounded to odd with at least two bits more than f32 rounds
    to f32 as the exact sum would.  Infinities and NaNs pass as float64 gives them."""
    p = f32(a).astype(np.float64) * f32(b)
    q = f32(c).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + q
        pp = s - q
        err = (p - pp) + (q - (s - pp))
    inexact = np.isfinite(s) & (err != 0)
    bits = np.asarray(s, dtype=np.float64).view(U64).copy()
    toward_zero = inexact & (np.signbit(err) != np.signbit(s))
    bits[toward_zero] -= U64(1)         # sign and magnitude: one step of the magnitude down
    bits[inexact] |= U64(1)
    with np.errstate(over="ignore"):
        return from_f32(bits.view(np.float64).astype(F32))


def _med3(a, b, c):
    """The median of three integers per lane (``v_med3_i32`` / ``_u32``: of the three,
    the one neither the largest nor the smallest; with equal ones, their value)."""
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def _vbfe(a, b, c):
    off, width = _shift(b), (c & 31).astype(U32)
    mask = ((U64(1) << width.astype(U64)) - U64(1)).astype(U32)
    return (a >> off) & mask


def _vbfe_i(a, b, c):
    """Signed bitfield extract: ``width = c & 31`` bits of ``a`` from bit ``b & 31``,
    sign-extended (0 for width 0)."""
    off, width = _shift(b).astype(I64), (c & 31).astype(I64)
    field = (a.astype(I64) >> off) & ((np.int64(1) << width) - 1)
    sign = np.where(width > 0, np.int64(1) << np.maximum(width - 1, 0), 0)
    return (((field ^ sign) - sign) & M32).astype(U32)


def _perm(a, b, c):
    """``v_perm_b32``: byte ``k`` of the result is the byte of {a, b} (b the low dword) that
    byte ``k`` of ``c`` selects (0..7; 8..11 as 7), 0 for 12, 0xFF from 13; every lane's
    four bytes gathered at once."""
    a, b, c = (np.ascontiguousarray(x, dtype=U32) for x in np.broadcast_arrays(a, b, c))
    src = (b.astype(U64) | (a.astype(U64) << U64(32)))[..., None].view(np.uint8)  # (..., 8)
    sel = c[..., None].view(np.uint8)                                              # (..., 4)
    byte = np.take_along_axis(src, np.minimum(sel, 7), axis=-1)
    byte = np.where(sel == 12, np.uint8(0), np.where(sel >= 13, np.uint8(0xFF), byte))
    return np.ascontiguousarray(byte).view(U32)[..., 0]


def _cvt_int(a, signed: bool):
    x = f32(a).astype(np.float64)
    lo, hi = (-(2.0 ** 31), 2.0 ** 31 - 1) if signed else (0.0, 2.0 ** 32 - 1)
    x = np.where(np.isnan(x), 0.0, np.clip(np.trunc(x), lo, hi))
    return x.astype(I64).astype(U64).astype(U32) if signed else x.astype(U64).astype(U32)


def _rcp(a):
    with np.errstate(divide="ignore", invalid="ignore"):
        return from_f32((1.0 / f32(a).astype(np.float64)).astype(F32))


def cmp_fn(name: str):
    """(relation, kind) of a v_cmp name: v_cmp_lt_i64 -> ('lt', 'i64')."""
    parts = name.split("_")
    return parts[2], parts[3]


VCMP = {"eq": np.equal, "ne": np.not_equal, "lg": np.not_equal, "lt": np.less,
         "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def vcmp_view(kind: str, x):
    if kind == "i32":
        return as_u32(x).view(I32)
    if kind == "u32":
        return as_u32(x)
    if kind == "i64":
        return np.asarray(x, dtype=U64).view(I64)
    if kind == "u64":
        return np.asarray(x, dtype=U64)
    if kind == "f32":
        return f32(x)
    if kind == "i16":
        return _i16(as_u32(x))
    if kind == "u16":
        return as_u32(x) & U32(0xFFFF)
    raise KeyError(kind)
