"""What each vector ALU instruction (VOP1, VOP2, VOPC, VOP3, their SDWA forms,
``v_accvgpr_*``) does.

:func:`compile_valu` checks the modifiers the emulator does not model, then builds the
:class:`~pipeline_mlir.emu.operands.Step` of the instruction's family: compares, lane
reads, ``v_cndmask``, the lane masks counted (``v_mbcnt``), the carry operations, the 64-bit multiply-adds, ``v_bitop3``, the
64-bit moves and shifts, the AGPR moves, and the operations of the tables
:data:`_VOP1`, :data:`_VOP2`, :data:`_VOP3_3` (one value per lane from one, two or three
sources).  The integer adds and subtracts take ``clamp`` (saturation, :data:`_SATURATING`);
other ``clamp`` forms are refused.  Vector writes honour EXEC; comparisons write 0 for
inactive lanes.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import (FLOAT_CONSTANTS, SDWA_SELECTS, VGPR0, VOP3B, Instr,
                                     bitop3, operand_widths, vop3_sources)
from pipeline_mlir.emu.lanes import readlane, writelane
from pipeline_mlir.emu.operands import (F32, I32, I64, M32, U32, U64, VCC, Reader, Step,
                                        bits_mask, f32, from_f32, mask_bits, refuse, write_s,
                                        write_v)
from pipeline_mlir.target.gfx950 import WAVE_SIZE

def _u(x):
    return np.asarray(x, dtype=U32) if not isinstance(x, np.ndarray) or x.dtype != U32 else x


def _i(x):
    return _u(x).view(I32)


def _shift(x):
    return (x & 31).astype(U32)


_VOP2 = {
    "v_add_u32": lambda a, b: a + b, "v_sub_u32": lambda a, b: a - b,
    "v_subrev_u32": lambda a, b: b - a,
    # the VOP3-only signed forms: without clamp the same bits as the unsigned ones
    "v_add_i32": lambda a, b: a + b, "v_sub_i32": lambda a, b: a - b,
    "v_and_b32": lambda a, b: a & b, "v_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b,
    "v_lshlrev_b32": lambda a, b: b << _shift(a), "v_lshrrev_b32": lambda a, b: b >> _shift(a),
    "v_ashrrev_i32": lambda a, b: (_i(b) >> _shift(a).astype(I32)).view(U32),
    "v_min_u32": np.minimum, "v_max_u32": np.maximum,
    "v_min_i32": lambda a, b: np.minimum(_i(a), _i(b)).view(U32),
    "v_max_i32": lambda a, b: np.maximum(_i(a), _i(b)).view(U32),
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
    "v_mul_hi_i32": lambda a, b: (((_i(a).astype(I64) * _i(b)) >> 32).astype(I32)).view(U32),
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
_VOP2.update({k: (lambda fn: lambda a, b: fn(a & U32(0xFFFF), b & U32(0xFFFF))
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
_SATURATING = {
    f"v_{op}_{kind}{bits}": _saturating(bits, kind == "i", op)
    for op, kind, bits in (("add", "u", 32), ("sub", "u", 32), ("subrev", "u", 32),
                           ("add", "i", 32), ("sub", "i", 32),
                           ("add", "u", 16), ("sub", "u", 16), ("subrev", "u", 16))}
#: the adds and subtracts with a carry out (:func:`_carry`)
_CARRY = frozenset(("v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32",
                    "v_subb_co_u32", "v_subbrev_co_u32"))


def _bf16_bits(a):
    """The bf16 of f32 bits ``a`` (round to nearest even; a NaN stays a NaN, made quiet)."""
    a = _u(a)
    nan = (a & U32(0x7FFFFFFF)) > U32(0x7F800000)
    rounded = (a + U32(0x7FFF) + ((a >> U32(16)) & U32(1))) >> U32(16)
    return np.where(nan, (a >> U32(16)) | U32(0x40), rounded).astype(U32)


def _f16_bits(a):
    """The f16 of f32 bits ``a`` (round to nearest even, subnormals kept, overflow to inf)."""
    with np.errstate(over="ignore"):
        return f32(_u(a)).astype(np.float16).view(np.uint16).astype(U32)


def _i24(x):
    """The low 24 bits of ``x`` as a signed integer (int64)."""
    return ((x.astype(I64) & 0xFFFFFF) ^ 0x800000) - 0x800000


def _i16(x):
    """The low 16 bits of ``x`` as a signed integer (int32)."""
    return ((x.astype(I32) & 0xFFFF) ^ 0x8000) - 0x8000


_VOP1 = {
    "v_mov_b32": lambda a: a, "v_not_b32": lambda a: ~a,
    "v_cvt_f32_u32": lambda a: from_f32(a.astype(np.float64).astype(F32)),
    "v_cvt_f32_i32": lambda a: from_f32(_i(a).astype(np.float64).astype(F32)),
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
_VOP3_3 = {
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
    "v_mad_i32_i24": lambda a, b, c: ((_i24(a) * _i24(b) + c) & M32).astype(U32),
    "v_min3_u32": lambda a, b, c: np.minimum(np.minimum(a, b), c),
    "v_max3_u32": lambda a, b, c: np.maximum(np.maximum(a, b), c),
    "v_fma_f32": lambda a, b, c: from_f32((f32(a).astype(np.float64) * f32(b) + f32(c))
                                          .astype(F32)),
    "v_perm_b32": lambda a, b, c: _perm(a, b, c),
}


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
    src = (b.astype(U64) | (a.astype(U64) << U64(32)))
    out = np.zeros(np.broadcast(a, b, c).shape, dtype=U32)
    for k in range(4):
        sel = (c >> U32(8 * k)) & U32(0xFF)
        byte = ((src >> (8 * np.minimum(sel, 7)).astype(U64)) & U64(0xFF)).astype(U32)
        byte = np.where(sel == 12, U32(0), np.where(sel >= 13, U32(0xFF), byte))
        out |= byte << U32(8 * k)
    return out


def _cvt_int(a, signed: bool):
    x = f32(a).astype(np.float64)
    lo, hi = (-(2.0 ** 31), 2.0 ** 31 - 1) if signed else (0.0, 2.0 ** 32 - 1)
    x = np.where(np.isnan(x), 0.0, np.clip(np.trunc(x), lo, hi))
    return x.astype(I64).astype(U64).astype(U32) if signed else x.astype(U64).astype(U32)


def _rcp(a):
    with np.errstate(divide="ignore", invalid="ignore"):
        return from_f32((1.0 / f32(a).astype(np.float64)).astype(F32))


def _cmp_fn(name: str):
    """(relation, kind) of a v_cmp name: v_cmp_lt_i64 -> ('lt', 'i64')."""
    parts = name.split("_")
    return parts[2], parts[3]


_VCMP = {"eq": np.equal, "ne": np.not_equal, "lg": np.not_equal, "lt": np.less,
         "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def _vcmp_view(kind: str, x):
    if kind == "i32":
        return _u(x).view(I32)
    if kind == "u32":
        return _u(x)
    if kind == "i64":
        return np.asarray(x, dtype=U64).view(I64)
    if kind == "u64":
        return np.asarray(x, dtype=U64)
    if kind == "f32":
        return f32(x)
    if kind == "i16":
        return _i16(_u(x))
    if kind == "u16":
        return _u(x) & U32(0xFFFF)
    raise KeyError(kind)


def compile_valu(ins: Instr, G: int) -> Step:
    """A vector ALU instruction (VOP1/2/C/3, SDWA, ``v_accvgpr_*``)."""
    b, f, enc = ins.base, ins.f, ins.enc
    w = operand_widths(ins)
    is_float = "_f32" in b or "_f64" in b
    rd = Reader(ins, G, is_float)
    vw: set[int] = set()
    sw: set[int] = set()
    clamp_ok = b in _SATURATING or b in _CARRY
    if enc == "VOP3" and ins.name not in VOP3B:
        if f["opsel"] or (f["abs"] and not b.startswith("v_bitop3")):
            raise refuse(ins, "op_sel/abs modifiers")
        if (f["neg"] and not b.startswith("v_bitop3")) or (f["clamp"] and not clamp_ok) or \
                (f["omod"] and not b.startswith("v_bitop3")):
            raise refuse(ins, "neg/clamp/omod modifiers")
    if enc == "VOP3" and ins.name in VOP3B and (f["neg"] or (f["clamp"] and not clamp_ok)
                                                or f["omod"]):
        raise refuse(ins, "neg/clamp/omod modifiers")
    nsrc = 2 if enc in ("VOP2", "VOPC") else 1 if enc == "VOP1" else vop3_sources(ins)
    if f.get("sdwa"):
        return _sdwa(ins, rd, nsrc)
    if b.startswith("v_cmp_") and not b.startswith("v_cmp_class"):
        build = _compare
    else:
        build = _FAMILIES.get(b, _table)
    run = build(ins, rd, w, nsrc, vw, sw)
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                frozenset(sw))


# Each builder takes the instruction, the operand reader (which records the registers
# read), the operand widths, the number of sources and the sets of VGPRs and SGPRs
# written (which it fills), and returns the step's function of a wave.

def _compare(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """Comparisons (VOPC, or VOPC as VOP3 with an SGPR-pair destination)."""
    f = ins.f
    rel, kind = _cmp_fn(ins.base)
    if rel not in _VCMP:
        raise refuse(ins)
    n = w.get("src0", 1)
    try:
        _vcmp_view(kind, np.zeros(1, dtype=U64 if n == 2 else U32))
    except KeyError:
        raise refuse(ins) from None
    if kind in ("i16", "u16") and (f["src0"] in FLOAT_CONSTANTS or f["src1"] in FLOAT_CONSTANTS):
        raise refuse(ins, "a float inline constant as a 16-bit operand")
    s0, s1 = rd.vector(f["src0"], n), rd.vector(f["src1"], n)
    d = VCC if ins.enc == "VOPC" else f["dst"]
    sw.update((d, d + 1))
    cmp = _VCMP[rel]

    def run(wv):
        m = cmp(_vcmp_view(kind, s0(wv)), _vcmp_view(kind, s1(wv))) & wv.exec
        write_s(wv, d, mask_bits(np.broadcast_to(m, wv.exec.shape)), 2)
    return run


def _fmac(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_fmac_f32 D, S0, S1``: ``D = S0 * S1 + D``, ``v_fma_f32`` with D the addend."""
    f, d = ins.f, ins.f["dst"]
    s0, s1, acc = rd.vector(f["src0"]), rd.vector(f["src1"]), rd.vector(VGPR0 + d)
    vw.add(d)
    fma = _VOP3_3["v_fma_f32"]

    def run(wv):
        write_v(wv, d, fma(_u(s0(wv)), _u(s1(wv)), _u(acc(wv))))
    return run


def _cndmask(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    f = ins.f
    s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
    cond = VCC if ins.enc == "VOP2" else f["src2"]
    rd.sr.update((cond, cond + 1))
    d = f["dst"]
    vw.add(d)

    def run(wv):
        write_v(wv, d, np.where(_pair_mask(wv, cond), s1(wv), s0(wv)))
    return run


def _pair_mask(wv, r: int):
    """The lane mask in SGPRs ``r``, ``r + 1``."""
    return bits_mask(wv.S[r].astype(U64) | (wv.S[r + 1].astype(U64) << U64(32)))


def _carry(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """Adds and subtracts with a carry out (and ``*c``/``*b``: a carry in) in an SGPR pair.
    With ``clamp`` the value saturates as unsigned (LLVM's gfx8 ``uaddsat``/``usubsat``
    forms, whose carry out it leaves dead); the carry out stays the operation's own."""
    b, f, enc = ins.base, ins.f, ins.enc
    s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
    carry_in = b in ("v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32")
    clamp = bool(f.get("clamp"))
    cin = (VCC if enc == "VOP2" else f["src2"]) if carry_in else None
    if cin is not None:
        rd.sr.update((cin, cin + 1))
    cout = VCC if enc == "VOP2" else f["sdst"]
    sw.update((cout, cout + 1))
    d = f["dst"]
    vw.add(d)

    def run(wv):
        a, c = s0(wv).astype(np.int64), s1(wv).astype(np.int64)
        ci = 0 if cin is None else bits_mask(
            wv.S[cin].astype(U64) | (wv.S[cin + 1].astype(U64) << U64(32))).astype(np.int64)
        if b.startswith("v_add"):
            r = a + c + ci
            co = r >> 32
        elif b in ("v_subrev_co_u32", "v_subbrev_co_u32"):   # src1 - src0
            r = c - a - ci
            co = r < 0
        else:
            r = a - c - ci
            co = r < 0
        if clamp:                                   # unsigned saturation of the value
            r = np.clip(r, 0, M32)
        write_v(wv, d, (r & M32).astype(U32))
        m = np.broadcast_to(co != 0, wv.exec.shape) & wv.exec
        write_s(wv, cout, mask_bits(m), 2)
    return run


def _mad64(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_mad_u64_u32`` / ``v_mad_i64_i32``: a 64-bit result, the carry in an SGPR pair."""
    f = ins.f
    s0, s1, s2 = rd.vector(f["src0"]), rd.vector(f["src1"]), rd.vector(f["src2"], 2)
    d, sd = f["dst"], f["sdst"]
    vw.update((d, d + 1))
    if sd <= 127:
        sw.update((sd, sd + 1))
    signed = ins.base == "v_mad_i64_i32"

    def run(wv):
        a, c, e = s0(wv), s1(wv), s2(wv)
        if signed:
            prod = _i(a).astype(object) * _i(c).astype(object)
            r = (prod + np.asarray(e, dtype=U64).view(I64).astype(object))
            full = np.vectorize(lambda x: x & ((1 << 64) - 1), otypes=[object])(r)
            res = full.astype(U64)
            carry = np.zeros(res.shape, bool)
        else:
            a64, c64, e64 = a.astype(U64), c.astype(U64), np.asarray(e, dtype=U64)
            prod = a64 * c64
            res = prod + e64
            carry = res < prod
        write_v(wv, d, res, 2)
        if sd <= 127:
            m = np.broadcast_to(carry, wv.exec.shape) & wv.exec
            write_s(wv, sd, mask_bits(m), 2)
    return run


def _bitop3(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    f = ins.f
    s0, s1, s2 = rd.vector(f["src0"]), rd.vector(f["src1"]), rd.vector(f["src2"])
    table = bitop3(ins)
    d = f["dst"]
    vw.add(d)
    # v_bitop3_b16 (gfx950): what it leaves in the high half of the destination is
    # pinned by no source we have (LLVM does not count it among the 16-bit operations
    # that zero it, nor assumes it kept): the emulator makes it poison (all ones), so
    # a kernel that read it would go wrong visibly
    high = U32(0xFFFF0000) if ins.base == "v_bitop3_b16" else None

    def run(wv):
        a, c, e = _u(s0(wv)), _u(s1(wv)), _u(s2(wv))
        r = np.zeros(np.broadcast(a, c, e).shape, dtype=U32)
        for idx in range(8):
            if (table >> idx) & 1:
                ta = a if idx & 4 else ~a
                tb = c if idx & 2 else ~c
                tc = e if idx & 1 else ~e
                r |= ta & tb & tc
        if high is not None:
            r = (r & U32(0xFFFF)) | high
        write_v(wv, d, r)
    return run


def _wide(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """The 64-bit move, shifts and shift-add."""
    b, f = ins.base, ins.f
    n0 = w.get("src0", 1)
    s0 = rd.vector(f["src0"], n0)
    s1 = rd.vector(f["src1"], w.get("src1", 1)) if b != "v_mov_b64" else None
    s2 = rd.vector(f["src2"], 2) if b == "v_lshl_add_u64" else None
    d = f["dst"]
    vw.update((d, d + 1))

    def run(wv):
        a = np.asarray(s0(wv), dtype=U64)
        if b == "v_mov_b64":
            r = a
        elif b == "v_lshlrev_b64":
            r = np.asarray(s1(wv), dtype=U64) << (a & U64(63))
        elif b == "v_lshrrev_b64":
            r = np.asarray(s1(wv), dtype=U64) >> (a & U64(63))
        elif b == "v_ashrrev_i64":
            r = (np.asarray(s1(wv), dtype=U64).view(I64) >> (a & U64(63)).astype(I64)).view(U64)
        else:
            r = (a << (np.asarray(s1(wv), dtype=U64) & U64(7))) + np.asarray(s2(wv),
                                                                             dtype=U64)
        write_v(wv, d, r, 2)
    return run


def _accvgpr(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_accvgpr_read`` (AGPR to VGPR), ``_write`` (VGPR, SGPR or constant to AGPR) and
    ``_mov`` (AGPR to AGPR)."""
    f = ins.f
    to_acc = ins.base != "v_accvgpr_read_b32"
    from_acc = ins.base != "v_accvgpr_write_b32"
    if from_acc and f["src0"] < VGPR0:
        raise refuse(ins, "its source is not an AGPR")
    s0 = rd.vector(f["src0"], 1, acc=from_acc)
    d = f["dst"]
    vw.add(d + (256 if to_acc else 0))

    def run(wv):
        write_v(wv, d, s0(wv), 1, acc=to_acc)
    return run


def _table(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """An operation of :data:`_VOP1`, :data:`_VOP2` or :data:`_VOP3_3` by its source count."""
    b, f = ins.base, ins.f
    table = {1: _VOP1, 2: _VOP2, 3: _VOP3_3}.get(nsrc, {})
    if b not in table and not (nsrc == 2 and b in _VOP2) and not (nsrc == 3 and b in _VOP3_3):
        raise refuse(ins)
    fn = _SATURATING[b] if f.get("clamp") else table[b]
    srcs = [rd.vector(f[f"src{k}"]) for k in range(nsrc)]
    d = f["dst"]
    vw.add(d)
    if nsrc == 1:
        s0 = srcs[0]

        def run(wv):
            write_v(wv, d, fn(_u(s0(wv))))
    elif nsrc == 2:
        s0, s1 = srcs

        def run(wv):
            write_v(wv, d, fn(_u(s0(wv)), _u(s1(wv))))
    else:
        s0, s1, s2 = srcs

        def run(wv):
            write_v(wv, d, fn(_u(s0(wv)), _u(s1(wv)), _u(s2(wv))))
    return run


#: per lane, the bits of the lanes below it in a 64-lane mask: its low and its high half
_BELOW = (np.uint64(1) << np.arange(WAVE_SIZE, dtype=np.uint64)) - np.uint64(1)
_BELOW_HALF = {"v_mbcnt_lo_u32_b32": (_BELOW & np.uint64(M32)).astype(U32),
               "v_mbcnt_hi_u32_b32": (_BELOW >> np.uint64(32)).astype(U32)}


def _mbcnt(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_mbcnt_lo/hi_u32_b32 D, S0, S1``: ``S1`` plus the bits of ``S0`` set for the lanes
    below the lane, of lanes 0..31 (``lo``) or 32..63 (``hi``): the ``-1, 0`` then ``-1, D``
    pair is the lane's index."""
    f = ins.f
    s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
    below = _BELOW_HALF[ins.base]
    d = f["dst"]
    vw.add(d)

    def run(wv):
        write_v(wv, d, np.bitwise_count(_u(s0(wv)) & below).astype(U32) + _u(s1(wv)))
    return run


#: the builder of each family named by its mnemonic (the rest: compares, or :func:`_table`)
_FAMILIES = {
    "v_mbcnt_lo_u32_b32": _mbcnt, "v_mbcnt_hi_u32_b32": _mbcnt,
    "v_readfirstlane_b32": readlane, "v_readlane_b32": readlane, "v_writelane_b32": writelane,
    "v_cndmask_b32": _cndmask, "v_fmac_f32": _fmac,
    **dict.fromkeys(_CARRY, _carry),
    "v_mad_u64_u32": _mad64, "v_mad_i64_i32": _mad64,
    "v_bitop3_b32": _bitop3, "v_bitop3_b16": _bitop3,
    **dict.fromkeys(("v_mov_b64", "v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64",
                     "v_lshl_add_u64"), _wide),
    **dict.fromkeys(("v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32"),
                    _accvgpr),
}


def _sdwa(ins: Instr, rd: Reader, nsrc: int) -> Step:
    """A VOP1/VOP2 SDWA instruction (gfx9): each source is the selected byte, word or dword
    of its register, zero- or (``sext``) sign-extended to 32 bits; the operation runs on 32
    bits; the result's low bits go to the destination select, the other bits are zero
    (UNUSED_PAD), copies of the field's top bit above it and zero below (UNUSED_SEXT), or
    the destination's old bits (UNUSED_PRESERVE).  ``v_cndmask_b32`` selects per lane by
    VCC between its selected sources."""
    b, f = ins.base, ins.f
    fn = (_VOP1 if nsrc == 1 else _VOP2).get(b)
    if b == "v_cndmask_b32":
        rd.sr.update((VCC, VCC + 1))
        op = _vcc_select
    elif fn is None:
        raise refuse(ins)
    else:
        def op(wv, *xs):
            return fn(*xs)
    if f["clamp"] or f["omod"] or any(f.get(f"src{k}_{m}") for k in range(nsrc)
                                      for m in ("neg", "abs")):
        raise refuse(ins, "neg/abs/clamp/omod modifiers")
    srcs = []
    for k in range(nsrc):
        read = rd.vector(f[f"src{k}"])
        _name, shift, bits = SDWA_SELECTS[f[f"src{k}_sel"]]
        srcs.append(_sdwa_source(read, shift, bits, bool(f[f"src{k}_sext"])))
    d = f["dst"]
    _name, shift, bits = SDWA_SELECTS[f["dst_sel"]]
    unused = f["dst_unused"]
    if unused not in (0, 1, 2):
        raise refuse(ins, f"dst_unused {unused}")
    keep = unused == 2 and bits < 32
    if keep:
        rd.vr.add(d)
    field = U32(((1 << bits) - 1) << shift)
    above = U32((M32 << (shift + bits)) & M32)

    def run(wv):
        r = _u(op(wv, *(_u(s(wv)) for s in srcs)))
        if bits < 32:
            r = (r << U32(shift)) & field
            if unused == 1:               # the field's top bit copied above it
                top = (r >> U32(shift + bits - 1)) & U32(1)
                r = r | (top * above)
            elif keep:
                r = r | (wv.V[d] & ~field)
        write_v(wv, d, r)
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset({d}), frozenset(rd.sr),
                frozenset())


def _vcc_select(wv, a, b):
    """Per lane ``b`` where VCC is set, else ``a`` (``v_cndmask_b32``)."""
    return np.where(_pair_mask(wv, VCC), b, a)


def _sdwa_source(read, shift: int, bits: int, sext: bool):
    if bits == 32:
        return read
    mask, sign = U32((1 << bits) - 1), U32(1 << (bits - 1))

    def value(wv):
        x = (_u(read(wv)) >> U32(shift)) & mask
        return (x ^ sign) - sign if sext else x
    return value
