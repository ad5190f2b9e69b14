"""gfx950's f32 -> 8-bit float conversions: ``v_cvt_pk_fp8_f32`` and ``v_cvt_pk_bf8_f32``.

What LLVM makes of an ``arith.truncf`` of f32 to ``f8E4M3FN`` (``fp8``) or ``f8E5M2``
(``bf8``): each instruction converts its two sources and writes the two bytes (the first
source in the low byte) into one 16-bit half of the destination, the other half kept
(``op_sel:[0,0,1]``, the ``word_sel`` of ``llvm.amdgcn.cvt.pk.fp8.f32``, selects the high
half; the destination is read as well as written).

:func:`f32_to_fp8` is the conversion, from the OCP 8-bit formats' definition (gfx950 uses
the OCP variants, E4M3FN and E5M2): the f32 value rounded to the nearest representable
value, ties to the even code, subnormals included.  A finite value whose rounded magnitude
is beyond the format's largest (448, 57344) overflows: to NaN in E4M3FN (it has no
infinity; ``0x7F`` with the sign), to infinity in E5M2; an infinity converts as an
overflow; a NaN becomes ``0x7F`` with its sign in both.  With the ``clamp`` bit the
conversion saturates instead: overflows and infinities become the largest finite value of
their sign (NaN stays NaN).  LLVM 22's assembler accepts no ``clamp`` on these
instructions; the bit is decoded from a code object.  The byte a NaN becomes is this
model's choice (any of E5M2's NaN codes would do): a C compared by value sees a NaN either
way.

:func:`f32_to_fp8_bytes` is the same conversion as bytes, for a launch's buffers of millions
of values: an f32 whose low 16 bits are 0 (every value an 8-bit float holds, so every
input a launch draws) is converted by a table of the 65,536 such f32, made by
:func:`f32_to_fp8` once per process and format; any other value by :func:`f32_to_fp8`
itself (an fp8 buffer of IREE's 2048 x 1028 size: 0.1 s -> 0.01 s of CPU).

The stochastic-rounding forms (``v_cvt_sr_fp8_f32``, ``v_cvt_sr_bf8_f32``) and op_sel bits
on the sources are refused: how the hardware uses the seed's bits is not modelled.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import FP8_PACKED, FP8_STOCHASTIC, VGPR0, Instr
from pipeline_mlir.emu.operands import U32, Reader, refuse, write_v

#: format -> (exponent bits, mantissa bits, the code of the largest finite value (448,
#: 57344), the overflow code (NaN in E4M3FN, infinity in E5M2))
FORMATS = {"fp8": (4, 3, 0x7E, 0x7F), "bf8": (5, 2, 0x7B, 0x7C)}
#: the instructions by mnemonic -> their format
CONVERSIONS = dict(zip(FP8_PACKED, ("fp8", "bf8"), strict=True))
_NAN = 0x7F


def f32_to_fp8(bits, fmt: str, saturate: bool = False) -> np.ndarray:
    """The 8-bit codes (uint32 array) of the f32 values whose bits are ``bits``: integer
    arithmetic on the bits (a normal result: the mantissa rounded to ``mbits`` bits, ties to
    even, a carry moving into the exponent; a subnormal one: the value in units of the
    smallest subnormal, rounded to the nearest even integer, exactly in f32)."""
    ebits, mbits, top_code, over_code = FORMATS[fmt]
    u = np.asarray(bits, dtype=np.uint32)
    sign = (u >> U32(31)) << U32(7)
    a = (u & U32(0x7FFFFFFF)).astype(np.int64)
    bias = (1 << (ebits - 1)) - 1
    emin = 1 - bias                                     # -6 (E4M3), -14 (E5M2)
    shift = 23 - mbits
    lsb = (a >> shift) & 1
    normal = ((a + (1 << (shift - 1)) - 1 + lsb) >> shift) - ((127 - bias) << mbits)
    small = a < (emin + 127) << 23                      # below the smallest normal
    with np.errstate(invalid="ignore", over="ignore"):  # the others are not used
        scaled = (a.astype(np.uint32).view(np.float32) * np.float32(2.0 ** (mbits - emin)))
        sub = np.rint(np.where(small, scaled, 0)).astype(np.int64)
    code = np.where(small, sub, normal)
    over = (code > top_code) | (a == 0x7F800000)        # beyond the largest, or infinity
    code = np.where(over, top_code if saturate else over_code, code)
    code = np.where(a > 0x7F800000, _NAN, code)
    return code.astype(np.uint32) | sign


#: (format, saturate) -> the code of each f32 whose low 16 bits are 0, by its high 16 bits
_BY_HIGH: dict = {}
#: from how many values :func:`f32_to_fp8_bytes` reads the table
TABLE_FROM = 1 << 14


def f32_to_fp8_bytes(bits, fmt: str, saturate: bool = False) -> np.ndarray:
    """:func:`f32_to_fp8`'s codes as a uint8 array, the same for every ``bits``: from
    :data:`TABLE_FROM` values on, read from a table of the f32 whose low 16 bits are 0
    (the high 16 bits are the index), the others converted one by one."""
    u = np.asarray(bits, dtype=np.uint32)
    if u.size < TABLE_FROM:
        return f32_to_fp8(u, fmt, saturate).astype(np.uint8)
    table = _BY_HIGH.get((fmt, saturate))
    if table is None:
        every = np.arange(1 << 16, dtype=np.uint32) << U32(16)
        table = _BY_HIGH[(fmt, saturate)] = f32_to_fp8(every, fmt, saturate).astype(np.uint8)
    out = table[u >> U32(16)]
    low = (u & U32(0xFFFF)) != 0
    if low.any():
        out[low] = f32_to_fp8(u[low], fmt, saturate).astype(np.uint8)
    return out


def cvt_pk_fp8(ins: Instr, rd: Reader, w: dict, nsrc: int, vw: set, sw: set):
    """``v_cvt_pk_{fp8,bf8}_f32 vD, a, b [op_sel:[0,0,1]]`` (the VALU family builder)."""
    f = ins.f
    if ins.base in FP8_STOCHASTIC:      # refused
        raise refuse(ins, "stochastic rounding is not modelled")
    if ins.enc != "VOP3" or f.get("opsel", 0) & 7 or f.get("abs") or f.get("neg") \
            or f.get("omod"):
        raise refuse(ins, "op_sel of a source, abs/neg/omod modifiers")
    fmt, saturate = CONVERSIONS[ins.base], bool(f.get("clamp"))
    shift = U32(16 if f.get("opsel", 0) & 8 else 0)
    keep = U32(0x0000FFFF) if shift else U32(0xFFFF0000)
    a, b = rd.vector(f["src0"]), rd.vector(f["src1"])
    d = f["dst"]
    old = rd.vector(VGPR0 + d)            # the half not selected is kept: the VGPR is read
    vw.add(d)

    def run(wv):
        pair = f32_to_fp8(a(wv), fmt, saturate) | (f32_to_fp8(b(wv), fmt, saturate) << U32(8))
        write_v(wv, d, (old(wv) & keep) | (pair << shift))
    return run
