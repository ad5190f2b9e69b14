"""What each vector ALU instruction (VOP1, VOP2, VOPC, VOP3, their SDWA forms,
``v_accvgpr_*``) does.

:func:`compile_valu` checks the modifiers the emulator does not model, then builds the
:class:`~pipeline_mlir.emu.operands.Step` of the instruction's family: compares, lane
reads, ``v_cndmask``, the lane masks counted (``v_mbcnt``), the carry operations, the
64-bit multiply-adds, ``v_bitop3``, the 64-bit moves and shifts, the AGPR moves, and the
operations of the tables of :mod:`pipeline_mlir.emu.valu_lanes` (one value per lane from
one, two or three sources).  The integer adds and subtracts take ``clamp`` (saturation,
``SATURATING``); other ``clamp`` forms are refused.  Vector writes honour EXEC;
comparisons write 0 for inactive lanes.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import (FLOAT_CONSTANTS, FP8_DST_SEL, SDWA_SELECTS, VGPR0, VOP3B,
                                     Instr, bitop3, operand_widths, vop3_sources)
from pipeline_mlir.emu.operands import (I64, M32, U32, U64, VCC, Reader, Step, bits_mask,
                                        mask_bits, pair_mask, refuse, write_s, write_v)
from pipeline_mlir.emu.valu_lanes import (CARRY, SATURATING, VCMP, VOP1, VOP2, VOP3_3,
                                          as_i32, as_u32, cmp_fn, vcmp_view)
from pipeline_mlir.emu.fp8cvt import cvt_pk_fp8
from pipeline_mlir.emu.lanes import readlane, writelane
from pipeline_mlir.target.gfx950 import WAVE_SIZE


def compile_valu(ins: Instr) -> Step:
    """A vector ALU instruction (VOP1/2/C/3, SDWA, ``v_accvgpr_*``)."""
    b, f, enc = ins.base, ins.f, ins.enc
    w = operand_widths(ins)
    is_float = "_f32" in b or "_f64" in b
    rd = Reader(ins, is_float)
    vw: set[int] = set()
    sw: set[int] = set()
    clamp_ok = b in SATURATING or b in CARRY
    if b in FP8_DST_SEL:     # op_sel and clamp are theirs to check
        return Step(ins, cvt_pk_fp8(ins, rd, w, 2, vw, sw), "valu", frozenset(rd.vr),
                    frozenset(vw), frozenset(rd.sr), frozenset(sw))
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
        return _sdwa_compare(ins, rd) if ins.enc == "VOPC" else _sdwa(ins, rd, nsrc)
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
    n = w.get("src0", 1)
    rel, kind = _comparison(ins, n)
    if kind in ("i16", "u16") and (f["src0"] in FLOAT_CONSTANTS or f["src1"] in FLOAT_CONSTANTS):
        raise refuse(ins, "a float inline constant as a 16-bit operand")
    s0, s1 = rd.vector(f["src0"], n), rd.vector(f["src1"], n)
    d = VCC if ins.enc == "VOPC" else f["dst"]
    sw.update((d, d + 1))
    cmp = VCMP[rel]

    def run(wv):
        m = cmp(vcmp_view(kind, s0(wv)), vcmp_view(kind, s1(wv))) & wv.exec
        write_s(wv, d, mask_bits(m if m.shape == wv.exec.shape else
                                 np.broadcast_to(m, wv.exec.shape)), 2)
    return run


def _comparison(ins: Instr, n: int = 1) -> tuple[str, str]:
    """``(relation, kind)`` of comparison ``ins`` on sources of ``n`` dwords, or its
    refusal where the emulator has no such relation or kind."""
    rel, kind = cmp_fn(ins.base)
    if rel not in VCMP:
        raise refuse(ins)
    try:
        vcmp_view(kind, np.zeros(1, dtype=U64 if n == 2 else U32))
    except KeyError:
        raise refuse(ins) from None
    return rel, kind


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
    return pair_mask(wv.S, r)


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
            prod = as_i32(a).astype(object) * as_i32(c).astype(object)
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
        a, c, e = as_u32(s0(wv)), as_u32(s1(wv)), as_u32(s2(wv))
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
    """An operation of :data:`VOP1`, :data:`VOP2` or :data:`VOP3_3` by its source count."""
    b, f = ins.base, ins.f
    table = {1: VOP1, 2: VOP2, 3: VOP3_3}.get(nsrc, {})
    if b not in table and not (nsrc == 2 and b in VOP2) and not (nsrc == 3 and b in VOP3_3):
        raise refuse(ins)
    fn = SATURATING[b] if f.get("clamp") else table[b]
    srcs = [rd.vector(f[f"src{k}"]) for k in range(nsrc)]
    d = f["dst"]
    vw.add(d)
    if nsrc == 1:
        s0 = srcs[0]

        def run(wv):
            write_v(wv, d, fn(as_u32(s0(wv))))
    elif nsrc == 2:
        s0, s1 = srcs

        def run(wv):
            write_v(wv, d, fn(as_u32(s0(wv)), as_u32(s1(wv))))
    else:
        s0, s1, s2 = srcs

        def run(wv):
            write_v(wv, d, fn(as_u32(s0(wv)), as_u32(s1(wv)), as_u32(s2(wv))))
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
        write_v(wv, d, np.bitwise_count(as_u32(s0(wv)) & below).astype(U32) + as_u32(s1(wv)))
    return run


def _fmac(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_fmac_f32``: the destination accumulates ``src0 * src1``, as ``v_fma_f32`` does
    (:func:`~pipeline_mlir.emu.valu_lanes.fma_f32`: one rounding, a fused multiply-add)."""
    f = ins.f
    fma = VOP3_3["v_fma_f32"]
    s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
    d = f["dst"]
    acc = rd.vector(VGPR0 + d)
    vw.add(d)

    def run(wv):
        write_v(wv, d, fma(as_u32(s0(wv)), as_u32(s1(wv)), as_u32(acc(wv))))
    return run


#: the builder of each family named by its mnemonic (the rest: compares, or :func:`_table`)
_FAMILIES = {
    "v_fmac_f32": _fmac,
    "v_mbcnt_lo_u32_b32": _mbcnt, "v_mbcnt_hi_u32_b32": _mbcnt,
    "v_readfirstlane_b32": readlane, "v_readlane_b32": readlane, "v_writelane_b32": writelane,
    "v_cndmask_b32": _cndmask,
    **dict.fromkeys(CARRY, _carry),
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
    fn = (VOP1 if nsrc == 1 else VOP2).get(b)
    if b == "v_cndmask_b32":
        rd.sr.update((VCC, VCC + 1))
        op = _vcc_select
    elif fn is None:
        raise refuse(ins)
    else:
        def op(wv, *xs):
            return fn(*xs)
    if f["clamp"] or f["omod"]:
        raise refuse(ins, "neg/abs/clamp/omod modifiers")
    srcs = _sdwa_sources(ins, rd, nsrc)
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
        r = as_u32(op(wv, *(as_u32(s(wv)) for s in srcs)))
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


def _sdwa_compare(ins: Instr, rd: Reader) -> Step:
    """A VOPC SDWA comparison (gfx9): each source the selected byte, word or dword of its
    register, zero- or (``sext``) sign-extended to 32 bits, compared as the instruction's
    type; the lane mask to VCC or to the SGPR pair the instruction names (LLVM's
    ``v_cmp_gt_u16_sdwa s[0:1], v5, v7 src0_sel:BYTE_0 src1_sel:DWORD`` of a byte index)."""
    rel, kind = _comparison(ins)
    srcs = _sdwa_sources(ins, rd, 2)
    d, cmp = ins.f["sdst"], VCMP[rel]

    def run(wv):
        a, b = (vcmp_view(kind, np.broadcast_to(as_u32(s(wv)), wv.exec.shape)) for s in srcs)
        write_s(wv, d, mask_bits(cmp(a, b) & wv.exec), 2)
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset(), frozenset(rd.sr),
                frozenset((d, d + 1)))


def _sdwa_sources(ins: Instr, rd: Reader, nsrc: int) -> list:
    """The ``nsrc`` sources of SDWA instruction ``ins``, each its selected field extended
    (:func:`_sdwa_source`); refused with a neg or abs modifier."""
    f = ins.f
    if any(f.get(f"src{k}_{m}") for k in range(nsrc) for m in ("neg", "abs")):
        raise refuse(ins, "neg/abs/clamp/omod modifiers")
    out = []
    for k in range(nsrc):
        _name, shift, bits = SDWA_SELECTS[f[f"src{k}_sel"]]
        out.append(_sdwa_source(rd.vector(f[f"src{k}"]), shift, bits, bool(f[f"src{k}_sext"])))
    return out


def _vcc_select(wv, a, b):
    """Per lane ``b`` where VCC is set, else ``a`` (``v_cndmask_b32``)."""
    return np.where(_pair_mask(wv, VCC), b, a)


def _sdwa_source(read, shift: int, bits: int, sext: bool):
    if bits == 32:
        return read
    mask, sign = U32((1 << bits) - 1), U32(1 << (bits - 1))

    def value(wv):
        x = (as_u32(read(wv)) >> U32(shift)) & mask
        return (x ^ sign) - sign if sext else x
    return value
