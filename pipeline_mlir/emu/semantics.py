"""What each scalar and vector ALU instruction, and each SOPP control instruction, does
(the memory instructions are in :mod:`pipeline_mlir.emu.memops`, the matrix instructions in
:mod:`pipeline_mlir.emu.mfma`; :mod:`pipeline_mlir.emu.program` chooses among them).

Vector writes honour EXEC; comparisons write 0 for inactive lanes.  An instruction the
emulator does not implement raises :class:`~pipeline_mlir.emu.errors.EmuError` naming it
and its address when the kernel is loaded, not when it runs.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.decode import (SDWA_SELECTS, VOP3B, Instr, _vop3_sources, bitop3,
                                      operand_widths)
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.operands import (EXEC, F32, I32, I64, M32, U32, U64, VCC, Reader,
                                        Step, bits_mask, f32, from_f32, mask_bits,
                                        refuse, sregs, write_s, write_v)
from pipeline_mlir.isa.waitcnt import decode_waitcnt

def compile_alu(ins: Instr, G: int) -> Step:
    """A scalar (SOP1/2/C/K) or vector (VOP1/2/C/3, ``v_accvgpr_*``) ALU instruction."""
    if ins.enc in ("SOP1", "SOP2", "SOPC", "SOPK"):
        return _salu(ins, G)
    return _valu(ins, G)


# ---------------------------------------------------------------------------
# SALU

def _s32(x):
    return x.astype(U32).view(I32)


_SOP2 = {
    # name: (fn(a, b) -> (result, scc or None), wide)
    "s_add_u32": lambda a, b: ((a.astype(U64) + b) & M32, (a.astype(U64) + b) >> 32),
    "s_sub_u32": lambda a, b: ((a.astype(U64) - b) & M32, b > a),
    "s_add_i32": lambda a, b: _add_i32(a, b),
    "s_sub_i32": lambda a, b: _sub_i32(a, b),
    "s_min_i32": lambda a, b: (np.where(_s32(a) < _s32(b), a, b), _s32(a) < _s32(b)),
    "s_min_u32": lambda a, b: (np.minimum(a, b), a < b),
    "s_max_i32": lambda a, b: (np.where(_s32(a) > _s32(b), a, b), _s32(a) > _s32(b)),
    "s_max_u32": lambda a, b: (np.maximum(a, b), a > b),
    "s_and_b32": lambda a, b: _nz(a & b), "s_and_b64": lambda a, b: _nz(a & b),
    "s_or_b32": lambda a, b: _nz(a | b), "s_or_b64": lambda a, b: _nz(a | b),
    "s_xor_b32": lambda a, b: _nz(a ^ b), "s_xor_b64": lambda a, b: _nz(a ^ b),
    "s_andn2_b32": lambda a, b: _nz(a & ~b), "s_andn2_b64": lambda a, b: _nz(a & ~b),
    "s_orn2_b32": lambda a, b: _nz(a | ~b), "s_orn2_b64": lambda a, b: _nz(a | ~b),
    "s_nand_b32": lambda a, b: _nz(~(a & b)), "s_nor_b32": lambda a, b: _nz(~(a | b)),
    "s_xnor_b32": lambda a, b: _nz(~(a ^ b)),
    "s_lshl_b32": lambda a, b: _nz((a.astype(U64) << (b & 31)) & M32),
    "s_lshl_b64": lambda a, b: _nz(a << (b.astype(U64) & U64(63))),
    "s_lshr_b32": lambda a, b: _nz(a >> (b & 31)),
    "s_lshr_b64": lambda a, b: _nz(a >> (b.astype(U64) & U64(63))),
    "s_ashr_i32": lambda a, b: _nz((_s32(a) >> (b & 31).astype(I32)).view(U32)),
    "s_mul_i32": lambda a, b: ((a.astype(U64) * b) & M32, None),
    "s_mul_hi_u32": lambda a, b: ((a.astype(U64) * b) >> 32, None),
    "s_mul_hi_i32": lambda a, b: (((_s32(a).astype(I64) * _s32(b)) >> 32).astype(U64) & M32,
                                  None),
    "s_bfm_b32": lambda a, b: ((((1 << (a & 31).astype(U64)) - 1) << (b & 31)) & M32, None),
    "s_bfe_u32": lambda a, b: _nz(_bfe_u(a.astype(U64), b, 32)),
    "s_bfe_i32": lambda a, b: _nz(_bfe_i(a, b)),
    "s_bfe_u64": lambda a, b: _nz(_bfe_u(a, b, 64)),
    "s_absdiff_i32": lambda a, b: _nz(np.abs(_s32(a).astype(I64) - _s32(b)) & M32),
    "s_lshl1_add_u32": lambda a, b: _lshl_add(a, b, 1),
    "s_lshl2_add_u32": lambda a, b: _lshl_add(a, b, 2),
    "s_lshl3_add_u32": lambda a, b: _lshl_add(a, b, 3),
    "s_lshl4_add_u32": lambda a, b: _lshl_add(a, b, 4),
    "s_pack_ll_b32_b16": lambda a, b: ((a & 0xFFFF) | ((b & 0xFFFF) << 16), None),
    "s_pack_lh_b32_b16": lambda a, b: ((a & 0xFFFF) | (b & 0xFFFF0000), None),
    "s_pack_hh_b32_b16": lambda a, b: ((a >> 16) | (b & 0xFFFF0000), None),
}


def _nz(x):
    return x, x != 0


def _add_i32(a, b):
    r = (a.astype(U64) + b) & M32
    sa, sb, sr = a >> 31, b >> 31, r >> 31
    return r, (sa == sb) & (sr != sa)


def _sub_i32(a, b):
    r = (a.astype(U64) - b) & M32
    sa, sb, sr = a >> 31, b >> 31, r >> 31
    return r, (sa != sb) & (sr != sa)


def _bfe_u(a, b, bits):
    off = (b & (bits - 1)).astype(U64)
    width = ((b >> 16) & 0x7F).astype(U64)
    mask = np.where(width >= 64, U64((1 << 64) - 1), (U64(1) << np.minimum(width, 63)) - U64(1))
    return (a.astype(U64) >> off) & mask


def _bfe_i(a, b):
    off = (b & 31).astype(I64)
    width = ((b >> 16) & 0x7F).astype(I64)
    v = _s32(a).astype(I64)
    field = (v >> off) & ((1 << width) - 1)
    sign = np.where(width > 0, (field >> np.maximum(width - 1, 0)) & 1, 0)
    res = np.where(sign == 1, field - (1 << width), field)
    return (res & M32).astype(U32)


def _lshl_add(a, b, n):
    r = (a.astype(U64) << n) + b
    return r & M32, r >> 32


_SOPC = {
    "eq": lambda a, b: a == b, "lg": lambda a, b: a != b,
    "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
}


def _cmp_values(name: str, a, b):
    """Signed/unsigned view of compare operands by the suffix of ``name``."""
    if name.endswith("_i32"):
        return a.view(I32) if a.dtype == U32 else a.astype(U32).view(I32), \
            b.view(I32) if b.dtype == U32 else b.astype(U32).view(I32)
    if name.endswith("_i64"):
        return a.astype(U64).view(I64), b.astype(U64).view(I64)
    return a, b


def _salu(ins: Instr, G: int) -> Step:
    b, f, enc = ins.base, ins.f, ins.enc
    w = operand_widths(ins)
    rd = Reader(ins, G)
    wr: set[int] = set()
    kind = "salu"
    if enc == "SOP2" and b in _SOP2:
        fn = _SOP2[b]
        s0 = rd.scalar(f["src0"], w.get("src0", 1))
        s1 = rd.scalar(f["src1"], w.get("src1", 1))
        d, n = f["dst"], w.get("dst", 1)
        wr.update(sregs(d, n))

        def run(wv):
            res, scc = fn(s0(wv), s1(wv))
            write_s(wv, d, res.astype(U64 if n == 2 else U32), n)
            if scc is not None:
                wv.scc = np.asarray(scc, dtype=bool)
    elif enc == "SOP2" and b in ("s_addc_u32", "s_subb_u32"):
        s0, s1 = rd.scalar(f["src0"]), rd.scalar(f["src1"])
        d = f["dst"]
        wr.add(d)
        add = b == "s_addc_u32"

        def run(wv):
            a, c, cin = s0(wv).astype(U64), s1(wv).astype(U64), wv.scc.astype(U64)
            r = a + c + cin if add else a - c - cin
            write_s(wv, d, (r & U64(M32)).astype(U32))
            wv.scc = (r >> U64(32)) != 0 if add else (c + cin > a)
    elif enc == "SOP2" and b in ("s_cselect_b32", "s_cselect_b64"):
        n = 2 if b.endswith("64") else 1
        s0, s1 = rd.scalar(f["src0"], n), rd.scalar(f["src1"], n)
        d = f["dst"]
        wr.update(sregs(d, n))

        def run(wv):
            write_s(wv, d, np.where(wv.scc, s0(wv), s1(wv)), n)
    elif enc == "SOP1" and b in ("s_mov_b32", "s_mov_b64", "s_not_b32", "s_not_b64",
                                 "s_brev_b32", "s_abs_i32", "s_sext_i32_i8",
                                 "s_sext_i32_i16", "s_bcnt1_i32_b32", "s_bcnt1_i32_b64",
                                 "s_ff1_i32_b32", "s_cmov_b32", "s_cmov_b64"):
        n = w.get("src0", 1)
        s0 = rd.scalar(f["src0"], n)
        d, nd = f["dst"], w.get("dst", 1)
        wr.update(sregs(d, nd))
        if b.startswith("s_cmov"):
            rd.sr.update(sregs(d, nd))

        def run(wv, b=b):
            a = s0(wv)
            scc = None
            if b.startswith("s_mov"):
                r = a
            elif b.startswith("s_cmov"):
                old = wv.S[d] if nd == 1 else (wv.S[d].astype(U64) |
                                               (wv.S[d + 1].astype(U64) << U64(32)))
                r = np.where(wv.scc, a, old)
            elif b.startswith("s_not"):
                r = ~a
                scc = r != 0
            elif b == "s_brev_b32":
                r = np.array([int(f"{int(x):032b}"[::-1], 2) for x in a], dtype=U32)
            elif b == "s_abs_i32":
                r = np.abs(a.view(I32).astype(I64)).astype(U64) & U64(M32)
                scc = r != 0
            elif b == "s_sext_i32_i8":
                r = ((a & 0xFF).astype(U32).astype(np.uint8).view(np.int8).astype(I32)
                     .view(U32))
            elif b == "s_sext_i32_i16":
                r = (a & 0xFFFF).astype(np.uint16).view(np.int16).astype(I32).view(U32)
            elif b.startswith("s_bcnt1"):
                r = np.array([bin(int(x)).count("1") for x in a], dtype=U32)
                scc = r != 0
            else:   # s_ff1_i32_b32
                r = np.array([(int(x) & -int(x)).bit_length() - 1 if x else M32 for x in a],
                             dtype=U64)
            write_s(wv, d, np.asarray(r).astype(U64 if nd == 2 else U32), nd)
            if scc is not None:
                wv.scc = np.asarray(scc, dtype=bool)
    elif enc == "SOP1" and b.endswith("_saveexec_b64"):
        s0 = rd.scalar(f["src0"], 2)
        d = f["dst"]
        rd.sr.update((EXEC, EXEC + 1))
        wr.update(sregs(d, 2))
        wr.update((EXEC, EXEC + 1))
        op = b[2:-len("_saveexec_b64")]
        fns = {"and": lambda s, e: s & e, "or": lambda s, e: s | e, "xor": lambda s, e: s ^ e,
               "andn2": lambda s, e: s & ~e, "orn2": lambda s, e: s | ~e,
               "nand": lambda s, e: ~(s & e), "nor": lambda s, e: ~(s | e),
               "xnor": lambda s, e: ~(s ^ e)}
        if op not in fns:
            raise refuse(ins)
        fn = fns[op]

        def run(wv):
            s = s0(wv)
            e = wv.S[EXEC].astype(U64) | (wv.S[EXEC + 1].astype(U64) << U64(32))
            write_s(wv, d, e, 2)
            new = fn(s, e)
            write_s(wv, EXEC, new, 2)
            wv.scc = new != 0
    elif enc == "SOPC":
        parts = b.split("_")          # s_cmp_eq_u32 / s_bitcmp0_b32
        if parts[1] != "cmp" or parts[2] not in _SOPC:
            raise refuse(ins)
        n = 2 if b.endswith("64") else 1
        s0, s1 = rd.scalar(f["src0"], n), rd.scalar(f["src1"], n)
        cmp = _SOPC[parts[2]]

        def run(wv):
            a, c = _cmp_values(b, s0(wv), s1(wv))
            wv.scc = np.asarray(cmp(a, c), dtype=bool)
    elif enc == "SOPK":
        imm = f["imm"]
        simm = imm - 0x10000 if imm & 0x8000 else imm
        d = f["dst"]
        if b == "s_movk_i32":
            wr.add(d)

            def run(wv):
                wv.S[d] = simm & M32
        elif b == "s_cmovk_i32":
            wr.add(d)

            def run(wv):
                wv.S[d] = np.where(wv.scc, U32(simm & M32), wv.S[d])
        elif b.startswith("s_cmpk_"):
            rel = b.split("_")[2]
            signed = b.endswith("_i32")
            k = simm if signed else imm
            rd.sr.add(d)
            cmp = _SOPC[rel]

            def run(wv):
                a = wv.S[d].view(I32).astype(I64) if signed else wv.S[d].astype(I64)
                wv.scc = np.asarray(cmp(a, k), dtype=bool)
        elif b in ("s_addk_i32", "s_mulk_i32"):
            rd.sr.add(d)
            wr.add(d)
            kk = np.full(G, simm & M32, dtype=U32)

            def run(wv):
                if b == "s_addk_i32":
                    r, scc = _add_i32(wv.S[d], kk)
                    wv.scc = np.asarray(scc, dtype=bool)
                else:
                    r = (wv.S[d].astype(U64) * kk) & M32
                wv.S[d] = r.astype(U32)
        else:
            raise refuse(ins)
    else:
        raise refuse(ins)
    return Step(ins, run, kind, sreads=frozenset(rd.sr), swrites=frozenset(wr))


# ---------------------------------------------------------------------------
# VALU

def _u(x):
    return np.asarray(x, dtype=U32) if not isinstance(x, np.ndarray) or x.dtype != U32 else x


def _i(x):
    return _u(x).view(I32)


def _shift(x):
    return (x & 31).astype(U32)


_VOP2 = {
    "v_add_u32": lambda a, b: a + b, "v_sub_u32": lambda a, b: a - b,
    "v_subrev_u32": lambda a, b: b - a,
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
    raise KeyError(kind)


def _valu(ins: Instr, G: int) -> Step:
    b, f, enc = ins.base, ins.f, ins.enc
    w = operand_widths(ins)
    is_float = "_f32" in b or "_f64" in b
    rd = Reader(ins, G, is_float)
    vw: set[int] = set()
    sw: set[int] = set()
    if enc == "VOP3" and ins.name not in VOP3B:
        if f["opsel"] or (f["abs"] and not b.startswith("v_bitop3")):
            raise refuse(ins, "op_sel/abs modifiers")
        if (f["neg"] and not b.startswith("v_bitop3")) or f["clamp"] or \
                (f["omod"] and not b.startswith("v_bitop3")):
            raise refuse(ins, "neg/clamp/omod modifiers")
    if enc == "VOP3" and ins.name in VOP3B and (f["neg"] or f["clamp"] or f["omod"]):
        raise refuse(ins, "neg/clamp/omod modifiers")
    nsrc = 2 if enc in ("VOP2", "VOPC") else 1 if enc == "VOP1" else _vop3_sources(ins)
    if f.get("sdwa"):
        return _sdwa(ins, rd, nsrc)
    # comparisons (VOPC, or VOPC as VOP3 with an SGPR-pair destination)
    if b.startswith("v_cmp_") and not b.startswith("v_cmp_class"):
        rel, kind = _cmp_fn(b)
        if rel not in _VCMP:
            raise refuse(ins)
        n = w.get("src0", 1)
        try:
            _vcmp_view(kind, np.zeros(1, dtype=U64 if n == 2 else U32))
        except KeyError:
            raise refuse(ins) from None
        s0, s1 = rd.vector(f["src0"], n), rd.vector(f["src1"], n)
        d = VCC if enc == "VOPC" else f["dst"]
        sw.update((d, d + 1))
        cmp = _VCMP[rel]

        def run(wv):
            m = cmp(_vcmp_view(kind, s0(wv)), _vcmp_view(kind, s1(wv))) & wv.exec
            write_s(wv, d, mask_bits(np.broadcast_to(m, wv.exec.shape)), 2)
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(), frozenset(rd.sr),
                    frozenset(sw))
    if b in ("v_readfirstlane_b32", "v_readlane_b32"):
        s0 = rd.vector(f["src0"])
        d = f["dst"]
        sw.add(d)
        lane = rd.scalar(f["src1"]) if b == "v_readlane_b32" else None

        def run(wv):
            v = np.broadcast_to(s0(wv), wv.exec.shape)
            if lane is None:
                first = np.where(wv.exec.any(axis=1), wv.exec.argmax(axis=1), 0)
            else:
                first = lane(wv) & 63
            wv.S[d] = v[np.arange(v.shape[0]), first]
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(), frozenset(rd.sr),
                    frozenset(sw))
    if b == "v_cndmask_b32":
        s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
        cond = VCC if enc == "VOP2" else f["src2"]
        rd.sr.update((cond, cond + 1))
        d = f["dst"]
        vw.add(d)

        def run(wv):
            m = bits_mask(wv.S[cond].astype(U64) | (wv.S[cond + 1].astype(U64) << U64(32)))
            write_v(wv, d, np.where(m, s1(wv), s0(wv)))
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset())
    if b in ("v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32",
             "v_subb_co_u32", "v_subbrev_co_u32"):
        s0, s1 = rd.vector(f["src0"]), rd.vector(f["src1"])
        carry_in = b in ("v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32")
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
            write_v(wv, d, (r & M32).astype(U32))
            m = np.broadcast_to(co != 0, wv.exec.shape) & wv.exec
            write_s(wv, cout, mask_bits(m), 2)
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset(sw))
    if b in ("v_mad_u64_u32", "v_mad_i64_i32"):
        s0, s1, s2 = rd.vector(f["src0"]), rd.vector(f["src1"]), rd.vector(f["src2"], 2)
        d, sd = f["dst"], f["sdst"]
        vw.update((d, d + 1))
        if sd <= 127:
            sw.update((sd, sd + 1))
        signed = b == "v_mad_i64_i32"

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
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset(sw))
    if b in ("v_bitop3_b32", "v_bitop3_b16"):
        s0, s1, s2 = rd.vector(f["src0"]), rd.vector(f["src1"]), rd.vector(f["src2"])
        table = bitop3(ins)
        d = f["dst"]
        vw.add(d)
        # v_bitop3_b16 (gfx950): what it leaves in the high half of the destination is
        # pinned by no source we have (LLVM does not count it among the 16-bit operations
        # that zero it, nor assumes it kept): the emulator makes it poison (all ones), so
        # a kernel that read it would go wrong visibly
        high = U32(0xFFFF0000) if b == "v_bitop3_b16" else None

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
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset())
    if b in ("v_mov_b64", "v_lshlrev_b64", "v_lshrrev_b64", "v_lshl_add_u64"):
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
            else:
                r = (a << (np.asarray(s1(wv), dtype=U64) & U64(7))) + np.asarray(s2(wv),
                                                                                 dtype=U64)
            write_v(wv, d, r, 2)
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset())
    if b == "v_accvgpr_read_b32" or b == "v_accvgpr_write_b32":
        to_acc = b == "v_accvgpr_write_b32"
        s0 = rd.vector(f["src0"], 1, acc=not to_acc)
        d = f["dst"]
        vw.add(d + (256 if to_acc else 0))

        def run(wv):
            write_v(wv, d, s0(wv), 1, acc=to_acc)
        return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                    frozenset())
    table = {1: _VOP1, 2: _VOP2, 3: _VOP3_3}.get(nsrc, {})
    if b not in table and not (nsrc == 2 and b in _VOP2) and not (nsrc == 3 and b in _VOP3_3):
        raise refuse(ins)
    fn = table[b]
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
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset(vw), frozenset(rd.sr),
                frozenset())


def _sdwa(ins: Instr, rd: Reader, nsrc: int) -> Step:
    """A VOP1/VOP2 SDWA instruction (gfx9): each source is the selected byte, word or dword
    of its register, zero- or (``sext``) sign-extended to 32 bits; the operation runs on 32
    bits; the result's low bits go to the destination select, the other bits are zero
    (UNUSED_PAD), copies of the field's top bit above it and zero below (UNUSED_SEXT), or
    the destination's old bits (UNUSED_PRESERVE)."""
    b, f = ins.base, ins.f
    fn = (_VOP1 if nsrc == 1 else _VOP2).get(b)
    if fn is None:
        raise refuse(ins)
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
        r = _u(fn(*(_u(s(wv)) for s in srcs)))
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


def _sdwa_source(read, shift: int, bits: int, sext: bool):
    if bits == 32:
        return read
    mask, sign = U32((1 << bits) - 1), U32(1 << (bits - 1))

    def value(wv):
        x = (_u(read(wv)) >> U32(shift)) & mask
        return (x ^ sign) - sign if sext else x
    return value


def compile_sopp(ins: Instr, index_of: dict[int, int]) -> Step:
    """A SOPP instruction (waits, barriers, branches, the end) as a :class:`Step`."""
    n, imm = ins.name, ins.f["imm"]
    if n in ("s_nop", "s_setprio", "s_sleep") or (n == "s_icache_inv"):
        return Step(ins, None, "nop")
    if n == "s_endpgm":
        return Step(ins, None, "end")
    if n == "s_barrier":
        return Step(ins, None, "barrier")
    if n == "s_trap":
        return Step(ins, None, "trap")
    if n == "s_waitcnt":
        vm, _exp, lgkm = decode_waitcnt(imm)
        return Step(ins, None, "wait", mem=dict(vm=vm, lgkm=lgkm))
    if n in ("s_branch", "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz",
             "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz"):
        t = ins.target
        if t not in index_of:
            raise EmuError(f"0x{ins.addr:04x}: '{ins.text}' branches to 0x{t:04x}, which is "
                           f"not the start of an instruction of the kernel")
        reads = {"s_cbranch_vccz": (VCC, VCC + 1), "s_cbranch_vccnz": (VCC, VCC + 1),
                 "s_cbranch_execz": (EXEC, EXEC + 1),
                 "s_cbranch_execnz": (EXEC, EXEC + 1)}.get(n, ())
        return Step(ins, None, "branch", sreads=frozenset(reads), target=index_of[t])
    raise refuse(ins)


def branch_taken(step: Step, w) -> np.ndarray:
    """(G,) bool: does the branch go to its target?"""
    n = step.ins.name
    if n == "s_branch":
        return np.ones(w.G, dtype=bool)
    if n == "s_cbranch_scc0":
        return ~w.scc
    if n == "s_cbranch_scc1":
        return w.scc.copy()
    if n in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        z = (w.S[VCC] | w.S[VCC + 1]) == 0
        return z if n.endswith("vccz") else ~z
    z = (w.S[EXEC] | w.S[EXEC + 1]) == 0
    return z if n.endswith("execz") else ~z
