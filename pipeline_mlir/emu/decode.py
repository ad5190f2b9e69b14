"""gfx950 machine code -> instructions: the decoder.

:func:`decode` turns the bytes of a kernel into :class:`~pipeline_mlir.emu.instr.Instr`
records (the encoding, the opcode, the mnemonic from :mod:`pipeline_mlir.emu.opcodes`, the
operand fields, a literal) and gives each its text (:mod:`pipeline_mlir.emu.disasm`).
:mod:`pipeline_mlir.emu.asmline` produces the same records from assembly text.

Encodings (gfx9 / CDNA3 / CDNA4 layout, bit positions as in the ISA documents): SOP1,
SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3 (VOP3a and VOP3b), VOP3P (packed
math and MAI, and the 16-byte scaled MFMA pairs of :mod:`~pipeline_mlir.emu.scaled`), DS,
MUBUF, FLAT/GLOBAL/SCRATCH.  Anything else is refused with the
address and the raw dwords.
"""

from __future__ import annotations

import struct

from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import LITERAL, VCC, VGPR0, VOP3B, Instr
from pipeline_mlir.emu.opcodes import TABLES
from pipeline_mlir.emu.scaled import LD_SCALE_OP, pair
from pipeline_mlir.target.gfx950 import NAME

#: the src0 codes of VOP1/VOP2/VOPC that announce a second dword: SDWA and DPP
SDWA, DPP = 249, 250


# ---------------------------------------------------------------------------
# the decoder

def _signed(v: int, bits: int) -> int:
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def _encoding(w0: int) -> str | None:
    if w0 >> 31 == 0:
        return "VOP2" if (w0 >> 25) < 0x3E else ("VOPC" if (w0 >> 25) == 0x3E else "VOP1")
    top9 = w0 >> 23
    if top9 == 0x17D:
        return "SOP1"
    if top9 == 0x17E:
        return "SOPC"
    if top9 == 0x17F:
        return "SOPP"
    if w0 >> 28 == 0xB:
        return "SOPK"
    if w0 >> 30 == 0b10:
        return "SOP2"
    top6 = w0 >> 26
    if top6 == 0x30:
        return "SMEM"
    if top6 == 0x34:
        return "VOP3P" if top9 == 0x1A7 else "VOP3"
    if top6 == 0x36:
        return "DS"
    if top6 == 0x38:
        return "MUBUF"
    if top6 == 0x37:
        return ("FLAT", "SCRATCH", "GLOBAL", None)[(w0 >> 14) & 3]
    return None


def decode_one(words, i: int, addr: int) -> Instr:
    """The instruction at dword ``i`` of ``words`` (``addr`` its byte offset)."""
    w0 = words[i]
    enc = _encoding(w0)

    def word(k):
        if i + k >= len(words):
            raise EmuError(f"0x{addr:04x}: instruction runs past the end of the code "
                           f"(dword 0x{w0:08x})")
        return words[i + k]

    if enc is None:
        raise EmuError(f"0x{addr:04x}: unknown instruction encoding (dword 0x{w0:08x}): not "
                       f"one of the {NAME} encodings the emulator decodes")
    op, f, size, lit = _FIELDS.get(enc, _flat)(enc, w0, word)
    name = TABLES[enc].get(op)
    if name is None:
        raise EmuError(f"0x{addr:04x}: unknown {enc} opcode {op} (dword 0x{w0:08x})")
    if enc in ("SOP2", "SOP1", "SOPC", "VOP2", "VOP1", "VOPC") and LITERAL in (
            f.get("src0"), f.get("src1")):
        lit, size = word(size // 4), size + 4
    if enc in ("VOP1", "VOP2", "VOPC") and f["src0"] in (SDWA, DPP):
        mnem = name[:-4] if name.endswith("_e32") else name
        if f["src0"] == DPP:
            raise EmuError(f"0x{addr:04x}: {mnem}_dpp: the DPP form of {enc} instructions "
                           f"is not decoded by the emulator (dwords 0x{w0:08x} "
                           f"0x{word(1):08x})")
        f.update(_sdwa_fields(word(1), enc, f))
        name, size = mnem + "_sdwa", 8
    ins = Instr(addr, size, enc, op, name, f, lit)
    if enc == "VOP3P" and op == LD_SCALE_OP and i + 2 < len(words) \
            and _encoding(words[i + 2]) == "VOP3P":
        scaled = pair(ins, decode_one(words, i + 2, addr + 8))
        if scaled is not None:
            ins = scaled
    ins.text = format_instr(ins)
    return ins


# The fields of each encoding: (opcode, fields, size in bytes, literal) from the first dword
# ``w0`` and ``word(k)``, the k-th dword of the instruction (read only where the encoding
# has it: past the end of the code it is an error).

def _sop2(enc, w0, word):
    return (w0 >> 23) & 0x7F, dict(dst=(w0 >> 16) & 0x7F, src0=w0 & 0xFF,
                                   src1=(w0 >> 8) & 0xFF), 4, None


def _sopk(enc, w0, word):
    op = (w0 >> 23) & 0x1F
    f = dict(dst=(w0 >> 16) & 0x7F, imm=w0 & 0xFFFF)
    if op == 0x14:                       # s_setreg_imm32_b32: a 32-bit literal follows
        return op, f, 8, word(1)
    return op, f, 4, None


def _sop1(enc, w0, word):
    return (w0 >> 8) & 0xFF, dict(dst=(w0 >> 16) & 0x7F, src0=w0 & 0xFF), 4, None


def _sopc(enc, w0, word):
    return (w0 >> 16) & 0x7F, dict(src0=w0 & 0xFF, src1=(w0 >> 8) & 0xFF), 4, None


def _sopp(enc, w0, word):
    return (w0 >> 16) & 0x7F, dict(imm=w0 & 0xFFFF), 4, None


def _smem(enc, w0, word):
    w1 = word(1)
    return (w0 >> 18) & 0xFF, dict(dst=(w0 >> 6) & 0x7F, sbase=(w0 & 0x3F) << 1,
                                   imm=(w0 >> 17) & 1, glc=(w0 >> 16) & 1, soe=(w0 >> 14) & 1,
                                   offset=w1 & 0x1FFFFF, soffset=(w1 >> 25) & 0x7F), 8, None


def _vop2(enc, w0, word):
    return (w0 >> 25) & 0x3F, dict(dst=(w0 >> 17) & 0xFF, src0=w0 & 0x1FF,
                                   src1=VGPR0 + ((w0 >> 9) & 0xFF)), 4, None


def _vop1(enc, w0, word):
    return (w0 >> 9) & 0xFF, dict(dst=(w0 >> 17) & 0xFF, src0=w0 & 0x1FF), 4, None


def _vopc(enc, w0, word):
    return (w0 >> 17) & 0xFF, dict(src0=w0 & 0x1FF, src1=VGPR0 + ((w0 >> 9) & 0xFF)), 4, None


def _vop3(enc, w0, word):
    """VOP3 (VOP3a, or VOP3b for the opcodes with a scalar destination) and VOP3P (packed
    math, or the matrix instructions' own layout)."""
    w1 = word(1)
    op = (w0 >> 16) & (0x3FF if enc == "VOP3" else 0x7F)
    f = dict(dst=w0 & 0xFF, src0=w1 & 0x1FF, src1=(w1 >> 9) & 0x1FF,
             src2=(w1 >> 18) & 0x1FF)
    name = TABLES[enc].get(op, "")
    if enc == "VOP3P" and name.startswith(("v_mfma", "v_smfmac")) and op != LD_SCALE_OP:
        f.update(cbsz=(w0 >> 8) & 7, abid=(w0 >> 11) & 0xF, acc_cd=(w0 >> 15) & 1,
                 acc=(w1 >> 27) & 3, blgp=(w1 >> 29) & 7)
    elif enc == "VOP3P":
        f.update(neg_hi=(w0 >> 8) & 7, opsel=(w0 >> 11) & 7,
                 opsel_hi=((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2),
                 clamp=(w0 >> 15) & 1, neg=(w1 >> 29) & 7)
    elif name in VOP3B:
        f.update(sdst=(w0 >> 8) & 0x7F, clamp=(w0 >> 15) & 1, omod=(w1 >> 27) & 3,
                 neg=(w1 >> 29) & 7)
    else:
        f.update(abs=(w0 >> 8) & 7, opsel=(w0 >> 11) & 0xF, clamp=(w0 >> 15) & 1,
                 omod=(w1 >> 27) & 3, neg=(w1 >> 29) & 7)
    return op, f, 8, None


def _ds(enc, w0, word):
    w1 = word(1)
    return (w0 >> 17) & 0xFF, dict(offset0=w0 & 0xFF, offset1=(w0 >> 8) & 0xFF,
                                   gds=(w0 >> 16) & 1, acc=(w0 >> 25) & 1, addr=w1 & 0xFF,
                                   data0=(w1 >> 8) & 0xFF, data1=(w1 >> 16) & 0xFF,
                                   dst=(w1 >> 24) & 0xFF), 8, None


def _mubuf(enc, w0, word):
    """MUBUF: the cache bits are sc0 at bit 14, sc1 at 15, nt at 17 (gfx940's SC0 / SC1 /
    NT in gfx9's GLC / SCC / SLC places, as LLVM 22 encodes them)."""
    w1 = word(1)
    return (w0 >> 18) & 0x7F, dict(offset=w0 & 0xFFF, offen=(w0 >> 12) & 1,
                                   idxen=(w0 >> 13) & 1, sc0=(w0 >> 14) & 1, sc1=(w0 >> 15) & 1,
                                   lds=(w0 >> 16) & 1, nt=(w0 >> 17) & 1, vaddr=w1 & 0xFF,
                                   data=(w1 >> 8) & 0xFF, srsrc=((w1 >> 16) & 0x1F) << 2,
                                   acc=(w1 >> 23) & 1, soffset=(w1 >> 24) & 0xFF), 8, None


def _flat(enc, w0, word):
    """FLAT, SCRATCH and GLOBAL (the cache bits: sc0 at bit 16, nt at 17, sc1 at 25)."""
    w1 = word(1)
    off = w0 & 0x1FFF
    bit13 = (w0 >> 13) & 1          # SCRATCH on gfx940+: SVE (the VGPR address is used)
    f = dict(offset=off if enc == "FLAT" else _signed(off, 13),
             lds=0 if enc == "SCRATCH" else bit13, sc0=(w0 >> 16) & 1, nt=(w0 >> 17) & 1,
             sc1=(w0 >> 25) & 1, vaddr=w1 & 0xFF, data=(w1 >> 8) & 0xFF,
             saddr=(w1 >> 16) & 0x7F, acc=(w1 >> 23) & 1, dst=(w1 >> 24) & 0xFF)
    if enc == "SCRATCH":
        f["sve"] = bit13
    return (w0 >> 18) & 0x7F, f, 8, None


_FIELDS = {"SOP2": _sop2, "SOPK": _sopk, "SOP1": _sop1, "SOPC": _sopc, "SOPP": _sopp,
           "SMEM": _smem, "VOP2": _vop2, "VOP1": _vop1, "VOPC": _vopc, "VOP3": _vop3,
           "VOP3P": _vop3, "DS": _ds, "MUBUF": _mubuf}


def _sdwa_fields(w1: int, enc: str, f: dict) -> dict:
    """The fields of a VOP1/VOP2/VOPC SDWA second dword (gfx9 layout): the real src0 (an
    SGPR when S0 is set), the destination select and its unused bits, clamp, omod (a
    comparison's: its SGPR pair, VCC unless SD is set), and per source the select, sign
    extension, neg and abs (S1: src1 is an SGPR)."""
    out = dict(sdwa=1, src0=(w1 & 0xFF) + (0 if (w1 >> 23) & 1 else VGPR0),
               src0_sel=(w1 >> 16) & 7, src0_sext=(w1 >> 19) & 1,
               src0_neg=(w1 >> 20) & 1, src0_abs=(w1 >> 21) & 1)
    if enc == "VOPC":
        out["sdst"] = (w1 >> 8) & 0x7F if (w1 >> 15) & 1 else VCC
    else:
        out.update(dst_sel=(w1 >> 8) & 7, dst_unused=(w1 >> 11) & 3, clamp=(w1 >> 13) & 1,
                   omod=(w1 >> 14) & 3)
    if enc in ("VOP2", "VOPC"):
        out.update(src1_sel=(w1 >> 24) & 7, src1_sext=(w1 >> 27) & 1, src1_neg=(w1 >> 28) & 1,
                   src1_abs=(w1 >> 29) & 1)
        if (w1 >> 31) & 1:
            out["src1"] = f["src1"] - VGPR0
    return out


def decode(code: bytes, base: int = 0) -> list[Instr]:
    """Decode ``code`` (a kernel's machine code) into instructions; offsets from ``base``."""
    if len(code) % 4:
        raise EmuError(f"the code is {len(code)} bytes, not a whole number of dwords")
    words = struct.unpack(f"<{len(code) // 4}I", code)
    out, i = [], 0
    while i < len(words):
        ins = decode_one(words, i, base + 4 * i)
        out.append(ins)
        i += ins.size // 4
    return out
