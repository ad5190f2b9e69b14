"""What each scalar ALU instruction (SOP1, SOP2, SOPC, SOPK) does.

:func:`compile_salu` builds the :class:`~pipeline_mlir.emu.operands.Step` of one
instruction: its family (the two-operand table :data:`_SOP2`, the carries, the selects,
the one-operand moves and bit operations, ``*_saveexec``, the compares, the SOPK
immediates) has a builder that reads the operands and returns the function the machine
runs.  SCC is written as the ISA says for each instruction; an instruction outside these
families is refused when the kernel is loaded.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import Instr, operand_widths
from pipeline_mlir.emu.operands import (EXEC, I32, I64, M32, U32, U64, Reader, Step,
                                        pair_u64, per_slots, refuse, sregs, write_s)

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
    "s_ashr_i64": lambda a, b: _nz((a.astype(U64).view(I64) >>
                                    (b.astype(U64) & U64(63)).astype(I64)).view(U64)),
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


def compile_salu(ins: Instr) -> Step:
    """A scalar (SOP1/2/C/K) ALU instruction."""
    rd = Reader(ins)
    wr: set[int] = set()
    build = _builder(ins.enc, ins.base)
    if build is None:
        raise refuse(ins)
    run = build(ins, rd, wr)
    return Step(ins, run, "salu", sreads=frozenset(rd.sr), swrites=frozenset(wr))


#: SOP1 instructions of :func:`_sop1_unary`
_SOP1_UNARY = ("s_mov_b32", "s_mov_b64", "s_not_b32", "s_not_b64", "s_brev_b32", "s_abs_i32",
               "s_sext_i32_i8", "s_sext_i32_i16", "s_bcnt1_i32_b32", "s_bcnt1_i32_b64",
               "s_ff1_i32_b32", "s_cmov_b32", "s_cmov_b64")


def _builder(enc: str, b: str):
    """The builder of the family of ``b`` (None: not implemented)."""
    if enc == "SOP2":
        if b in _SOP2:
            return _sop2_table
        if b in ("s_addc_u32", "s_subb_u32"):
            return _sop2_carry
        if b in ("s_cselect_b32", "s_cselect_b64"):
            return _sop2_cselect
        return None
    if enc == "SOP1":
        if b in _SOP1_UNARY:
            return _sop1_unary
        if b in ("s_bitset0_b32", "s_bitset1_b32"):
            return _sop1_bitset
        return _sop1_saveexec if b.endswith("_saveexec_b64") else None
    return {"SOPC": _sopc, "SOPK": _sopk}.get(enc)


# Each builder takes the instruction, the operand reader (which records
# the registers read) and the set of registers written (which it fills), and returns the
# step's function of a wave.

def _sop2_table(ins: Instr, rd: Reader, wr: set):
    f, w = ins.f, operand_widths(ins)
    fn = _SOP2[ins.base]
    s0 = rd.scalar(f["src0"], w.get("src0", 1))
    s1 = rd.scalar(f["src1"], w.get("src1", 1))
    d, n = f["dst"], w.get("dst", 1)
    wr.update(sregs(d, n))

    def run(wv):
        res, scc = fn(s0(wv), s1(wv))
        write_s(wv, d, res.astype(U64 if n == 2 else U32), n)
        if scc is not None:
            wv.scc = np.asarray(scc, dtype=bool)
    return run


def _sop2_carry(ins: Instr, rd: Reader, wr: set):
    f = ins.f
    s0, s1 = rd.scalar(f["src0"]), rd.scalar(f["src1"])
    d = f["dst"]
    wr.add(d)
    add = ins.base == "s_addc_u32"

    def run(wv):
        a, c, cin = s0(wv).astype(U64), s1(wv).astype(U64), wv.scc.astype(U64)
        r = a + c + cin if add else a - c - cin
        write_s(wv, d, (r & U64(M32)).astype(U32))
        wv.scc = (r >> U64(32)) != 0 if add else (c + cin > a)
    return run


def _sop2_cselect(ins: Instr, rd: Reader, wr: set):
    f = ins.f
    n = 2 if ins.base.endswith("64") else 1
    s0, s1 = rd.scalar(f["src0"], n), rd.scalar(f["src1"], n)
    d = f["dst"]
    wr.update(sregs(d, n))

    def run(wv):
        write_s(wv, d, np.where(wv.scc, s0(wv), s1(wv)), n)
    return run


def _sop1_unary(ins: Instr, rd: Reader, wr: set):
    b, f, w = ins.base, ins.f, operand_widths(ins)
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
    return run


def _sop1_bitset(ins: Instr, rd: Reader, wr: set):
    """``s_bitset0_b32`` / ``s_bitset1_b32``: bit ``S0[4:0]`` of D cleared / set, its other
    bits kept (D is read); SCC unchanged."""
    f = ins.f
    s0 = rd.scalar(f["src0"])
    d = f["dst"]
    rd.sr.add(d)
    wr.add(d)
    one = ins.base == "s_bitset1_b32"

    def run(wv):
        bit = U32(1) << (s0(wv) & U32(31))
        write_s(wv, d, (wv.S[d] | bit) if one else (wv.S[d] & ~bit))
    return run


#: the operation of each ``s_<op>_saveexec_b64`` on (source, old EXEC)
_SAVEEXEC = {"and": lambda s, e: s & e, "or": lambda s, e: s | e, "xor": lambda s, e: s ^ e,
             "andn2": lambda s, e: s & ~e, "orn2": lambda s, e: s | ~e,
             "nand": lambda s, e: ~(s & e), "nor": lambda s, e: ~(s | e),
             "xnor": lambda s, e: ~(s ^ e)}


def _sop1_saveexec(ins: Instr, rd: Reader, wr: set):
    f = ins.f
    s0 = rd.scalar(f["src0"], 2)
    d = f["dst"]
    rd.sr.update((EXEC, EXEC + 1))
    wr.update(sregs(d, 2))
    wr.update((EXEC, EXEC + 1))
    op = ins.base[2:-len("_saveexec_b64")]
    if op not in _SAVEEXEC:
        raise refuse(ins)
    fn = _SAVEEXEC[op]

    def run(wv):
        s = s0(wv)
        e = pair_u64(wv.S, EXEC)
        write_s(wv, d, e, 2)
        new = fn(s, e)
        write_s(wv, EXEC, new, 2)
        wv.scc = new != 0
    return run


def _sopc(ins: Instr, rd: Reader, wr: set):
    b, f = ins.base, ins.f
    parts = b.split("_")          # s_cmp_eq_u32 / s_bitcmp0_b32
    if parts[1] in ("bitcmp0", "bitcmp1"):
        return _bitcmp(ins, rd, parts[1] == "bitcmp1")
    if parts[1] != "cmp" or parts[2] not in _SOPC:
        raise refuse(ins)
    n = 2 if b.endswith("64") else 1
    s0, s1 = rd.scalar(f["src0"], n), rd.scalar(f["src1"], n)
    cmp = _SOPC[parts[2]]

    def run(wv):
        a, c = _cmp_values(b, s0(wv), s1(wv))
        wv.scc = np.asarray(cmp(a, c), dtype=bool)
    return run


def _bitcmp(ins: Instr, rd: Reader, one: bool):
    """``s_bitcmp0/1_b32`` and ``_b64``: SCC = bit ``S1[4:0]`` (``S1[5:0]`` for ``_b64``)
    of S0 is 0 (``bitcmp0``) or 1 (``bitcmp1``); S1 is 32 bits for both."""
    wide = ins.base.endswith("_b64")
    s0, s1 = rd.scalar(ins.f["src0"], 2 if wide else 1), rd.scalar(ins.f["src1"])
    bits = U64(63 if wide else 31)

    def run(wv):
        bit = (s0(wv).astype(U64) >> (s1(wv).astype(U64) & bits)) & U64(1)
        wv.scc = np.asarray(bit == U64(1 if one else 0), dtype=bool)
    return run


def _sopk(ins: Instr, rd: Reader, wr: set):
    b, f = ins.base, ins.f
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
        run = _sopk_compare(b, imm, simm, d, rd)
    elif b in ("s_addk_i32", "s_mulk_i32"):
        rd.sr.add(d)
        wr.add(d)
        kk_of = per_slots(lambda G: np.full(G, simm & M32, dtype=U32))

        def run(wv):
            kk = kk_of(wv)
            if b == "s_addk_i32":
                r, scc = _add_i32(wv.S[d], kk)
                wv.scc = np.asarray(scc, dtype=bool)
            else:
                r = (wv.S[d].astype(U64) * kk) & M32
            wv.S[d] = r.astype(U32)
    else:
        raise refuse(ins)
    return run


def _sopk_compare(b: str, imm: int, simm: int, d: int, rd: Reader):
    """``s_cmpk_<rel>_{i32,u32}``: SCC = S[d] <rel> the (sign- or zero-extended) immediate."""
    rel = b.split("_")[2]
    signed = b.endswith("_i32")
    k = simm if signed else imm
    rd.sr.add(d)
    cmp = _SOPC[rel]

    def run(wv):
        a = wv.S[d].view(I32).astype(I64) if signed else wv.S[d].astype(I64)
        wv.scc = np.asarray(cmp(a, k), dtype=bool)
    return run
