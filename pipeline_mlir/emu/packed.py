"""Packed 16-bit integer VALU instructions (VOP3P): two 16-bit lanes per 32-bit register.

LLVM uses them for address arithmetic of two halves at once, e.g. IREE's build of a
pipelined kernel adds a packed pair of LDS offsets with ``v_pk_add_u16 v6, v4, s16
op_sel_hi:[0,1]``.  For each half of the result (low, then high) every source gives one of
its 16-bit halves: ``op_sel`` bit ``i`` picks source ``i``'s half for the low result
(0: low, 1: high), ``op_sel_hi`` bit ``i`` for the high result.  The operation is done on
the two 16-bit values modulo 2^16 (shifts by the low 4 bits of the shift amount).

Sources are VGPRs, SGPRs and integer inline constants (-16..64) whose low half both
results select (``op_sel`` and ``op_sel_hi`` bit 0 for that source, as LLVM prints
``v_pk_lshrrev_b16 v71, 1, v5 op_sel_hi:[0,1]``): the 16-bit value is the constant's low
16 bits.  What the high half of a constant holds, float constants, literals, the ``neg``
modifiers (which packed integer ops do not use) and ``clamp`` (saturation) are refused
with the instruction's text, as is any other packed instruction.

``v_pk_mov_b32 D, S0, S1 op_sel:[a,b]`` moves two dwords: D's low dword is S0's dword ``a``,
its high dword S1's dword ``b`` (0: the pair's low register, 1: its high one), each source a
VGPR or SGPR pair (LLVM's 64-bit move of a pair is ``op_sel:[0,1]`` of the pair twice,
``v_pk_mov_b32 v[98:99], s[2:3], s[2:3] op_sel:[0,1]``; it swaps a pair with
``op_sel:[1,0]``).  Constants, ``op_sel_hi`` other than its default and the ``neg``/``clamp``
modifiers are refused.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import VGPR0, Instr
from pipeline_mlir.emu.operands import M32, U32, U64, Reader, Step, refuse, write_v

__all__ = ["PACKED_U16", "compile_packed"]

_M16 = np.uint32(0xFFFF)


def _shift(a, b, fn):
    return fn(a, b & np.uint32(15))


#: the packed 16-bit integer instructions: fn(a, b) on uint32 arrays holding 16-bit values
#: (the result is taken modulo 2^16)
PACKED_U16 = {
    "v_pk_add_u16": lambda a, b: a + b,
    "v_pk_add_i16": lambda a, b: a + b,
    "v_pk_sub_u16": lambda a, b: a - b,
    "v_pk_sub_i16": lambda a, b: a - b,
    "v_pk_mul_lo_u16": lambda a, b: a * b,
    "v_pk_lshlrev_b16": lambda a, b: _shift(b, a, np.left_shift),
    "v_pk_lshrrev_b16": lambda a, b: _shift(b, a, np.right_shift),
}


def _is_register(code: int) -> bool:
    return code <= 101 or code >= VGPR0


def _is_integer_constant(code: int) -> bool:
    return 128 <= code <= 208


def compile_packed(ins: Instr) -> Step:
    """The :class:`Step` of a packed 16-bit integer instruction or of ``v_pk_mov_b32``
    (module docstring)."""
    if ins.name == "v_pk_mov_b32":
        return _pk_mov(ins)
    fn = PACKED_U16.get(ins.name)
    if fn is None:
        raise refuse(ins)
    f = ins.f
    if f["neg"] or f["neg_hi"] or f["clamp"]:
        raise refuse(ins, "neg/neg_hi/clamp modifiers")
    picks = [[(f["opsel"] >> i) & 1, (f["opsel_hi"] >> i) & 1] for i in range(2)]
    for i in range(2):
        code = f[f"src{i}"]
        if _is_register(code):
            continue
        if not _is_integer_constant(code) or any(picks[i]):
            raise refuse(ins, f"src{i}: a packed instruction's operand other than a register "
                              f"or an integer inline constant whose low half both results "
                              f"select")
    rd = Reader(ins)
    srcs = (rd.vector(f["src0"]), rd.vector(f["src1"]))
    d = f["dst"]

    def half(v, hi: int):
        return (v >> U32(16)) & _M16 if hi else v & _M16

    def run(wv):
        a, b = (np.broadcast_to(s(wv), wv.exec.shape).astype(U32) for s in srcs)
        lo = fn(half(a, picks[0][0]), half(b, picks[1][0])) & _M16
        hi = fn(half(a, picks[0][1]), half(b, picks[1][1])) & _M16
        write_v(wv, d, (lo | (hi << U32(16))).astype(U32))
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset({d}), frozenset(rd.sr),
                frozenset())


def _pk_mov(ins: Instr) -> Step:
    """``v_pk_mov_b32``: each result dword one dword of its source pair (``op_sel``)."""
    f = ins.f
    if f["neg"] or f["neg_hi"] or f["clamp"] or f["opsel_hi"] != 7 or f["opsel"] & 4:
        raise refuse(ins, "neg/neg_hi/clamp/op_sel_hi modifiers")
    for i in range(2):
        if not _is_register(f[f"src{i}"]):
            raise refuse(ins, f"src{i}: a constant as a v_pk_mov_b32 source")
    rd = Reader(ins)
    srcs = [rd.vector(f[f"src{i}"], 2) for i in range(2)]
    shifts = [U64(32 * ((f["opsel"] >> i) & 1)) for i in range(2)]
    d = f["dst"]

    def run(wv):
        lo, hi = ((s(wv) >> k) & U64(M32) for s, k in zip(srcs, shifts))
        write_v(wv, d, lo | (hi << U64(32)), 2)
    return Step(ins, run, "valu", frozenset(rd.vr), frozenset({d, d + 1}), frozenset(rd.sr),
                frozenset())
