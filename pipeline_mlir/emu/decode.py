"""gfx950 machine code -> instructions: the decoder and LLVM's text form of each instruction.

:func:`decode` turns the bytes of a kernel into :class:`Instr` records.  Each record holds
the encoding, the opcode, the mnemonic (from :mod:`pipeline_mlir.emu.opcodes`) and the
operand fields in a normalised form that does not depend on where the instruction came
from: :mod:`pipeline_mlir.emu.asmtext` produces the same records from assembly text, so a
test can compare the two for every instruction of a kernel.

Source operands use the hardware's 9-bit operand numbering (``src``): 0-101 SGPRs, 106/107
VCC, 124 M0, 126/127 EXEC, 128-192 the integers 0..64, 193-208 -1..-16, 240-248 the float
constants, 253 SCC, 255 a literal (in ``Instr.lit``), 256-511 VGPRs.  AGPR operands of
matrix instructions are flagged in the fields (``acc``, ``acc_cd``).

Encodings (gfx9 / CDNA3 / CDNA4 layout, bit positions as in the ISA documents): SOP1,
SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3 (VOP3a and VOP3b), VOP3P (packed
math and MAI), DS, MUBUF, FLAT/GLOBAL/SCRATCH.  Anything else is refused with the
address and the raw dwords.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.opcodes import TABLES
from pipeline_mlir.isa.waitcnt import EXPCNT_MAX, LGKMCNT_MAX, VMCNT_MAX, decode_waitcnt
from pipeline_mlir.target.gfx950 import NAME

LITERAL = 255
VGPR0 = 256
#: the src0 codes of VOP1/VOP2/VOPC that announce a second dword: SDWA and DPP
SDWA, DPP = 249, 250
#: SDWA operand and destination selects (``src0_sel:WORD_1``...): (shift, bits)
SDWA_SELECTS = {0: ("BYTE_0", 0, 8), 1: ("BYTE_1", 8, 8), 2: ("BYTE_2", 16, 8),
                3: ("BYTE_3", 24, 8), 4: ("WORD_0", 0, 16), 5: ("WORD_1", 16, 16),
                6: ("DWORD", 0, 32)}
SDWA_UNUSED = {0: "UNUSED_PAD", 1: "UNUSED_SEXT", 2: "UNUSED_PRESERVE"}

#: SOPP opcodes that branch (relative target)
BRANCHES = frozenset({"s_branch", "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz",
                      "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz"})
#: VOP3 opcodes with a scalar carry/condition destination (VOP3b layout)
VOP3B = frozenset({"v_add_co_u32_e64", "v_sub_co_u32_e64", "v_subrev_co_u32_e64",
                   "v_addc_co_u32_e64", "v_subb_co_u32_e64", "v_subbrev_co_u32_e64",
                   "v_div_scale_f32", "v_div_scale_f64", "v_mad_u64_u32", "v_mad_i64_i32"})
#: VOP2 opcodes that read or write VCC implicitly (printed as an operand)
VOP2_CARRY_OUT = frozenset({"v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32",
                            "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"})
VOP2_CARRY_IN = frozenset({"v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32",
                           "v_cndmask_b32"})
FLOAT_CONSTANTS = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0,
                   247: -4.0, 248: 0.15915494309189535}
_FLOAT_TEXT = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0",
               246: "4.0", 247: "-4.0", 248: "0.15915494"}
_SPECIAL_NAMES = {102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo",
                  105: "xnack_mask_hi", 106: "vcc_lo", 107: "vcc_hi", 124: "m0",
                  126: "exec_lo", 127: "exec_hi", 235: "src_shared_base",
                  236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
                  239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz",
                  253: "src_scc", 254: "src_lds_direct"}
_PAIR_NAMES = {102: "flat_scratch", 104: "xnack_mask", 106: "vcc", 126: "exec"}


@dataclass
class Instr:
    """One decoded instruction.  ``addr`` is the byte offset from the kernel's entry."""

    addr: int
    size: int
    enc: str
    op: int
    name: str
    f: dict = field(default_factory=dict)
    lit: int | None = None
    text: str = ""

    @property
    def base(self) -> str:
        """The mnemonic without the ``_e32`` / ``_e64`` / ``_sdwa`` encoding suffix."""
        n = self.name
        if n.endswith("_sdwa"):
            return n[:-5]
        return n[:-4] if n.endswith(("_e32", "_e64")) else n

    @property
    def target(self) -> int | None:
        """The branch target (byte offset) of a relative branch, else None."""
        if self.enc == "SOPP" and self.name in BRANCHES:
            imm = self.f["imm"]
            return self.addr + 4 + 4 * (imm - 0x10000 if imm & 0x8000 else imm)
        return None

    def key(self) -> tuple:
        """What identifies the instruction (for comparing two sources of it)."""
        return (self.addr, self.size, self.enc, self.op, tuple(sorted(self.f.items())),
                self.lit)


# ---------------------------------------------------------------------------
# operand widths (in dwords) per mnemonic

def _dwords_of(suffix: str) -> int:
    return {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4, "dwordx8": 8,
            "dwordx16": 16}.get(suffix, 1)


_MFMA_REGS = {  # mnemonic -> (A dwords, B dwords, C/D dwords)
    "v_mfma_f32_16x16x32_bf16": (4, 4, 4), "v_mfma_f32_16x16x32_f16": (4, 4, 4),
    "v_mfma_f32_32x32x16_bf16": (4, 4, 16), "v_mfma_f32_32x32x16_f16": (4, 4, 16),
    "v_mfma_f32_16x16x128_f8f6f4": (8, 8, 4), "v_mfma_f32_32x32x64_f8f6f4": (8, 8, 16),
    "v_mfma_f32_16x16x16_bf16": (2, 2, 4), "v_mfma_f32_16x16x16_f16": (2, 2, 4),
    "v_mfma_f32_32x32x8_bf16": (2, 2, 16), "v_mfma_f32_32x32x8_f16": (2, 2, 16),
    "v_mfma_f32_16x16x32_fp8_fp8": (2, 2, 4), "v_mfma_f32_16x16x32_bf8_bf8": (2, 2, 4),
    "v_mfma_f32_16x16x32_fp8_bf8": (2, 2, 4), "v_mfma_f32_16x16x32_bf8_fp8": (2, 2, 4),
    "v_mfma_i32_16x16x64_i8": (4, 4, 4), "v_mfma_f32_16x16x4_f32": (1, 1, 4),
    "v_mfma_f32_32x32x2_f32": (1, 1, 16),
}
#: f8f6f4 operand dwords by format code (cbsz / blgp): fp8, bf8: 8; fp6, bf6: 6; fp4: 4
F8F6F4_DWORDS = {0: 8, 1: 8, 2: 6, 3: 6, 4: 4}


def mfma_regs(ins: Instr) -> tuple[int, int, int]:
    a, b, c = _MFMA_REGS.get(ins.name, (1, 1, 4))
    if ins.name.endswith("_f8f6f4"):
        a = F8F6F4_DWORDS.get(ins.f.get("cbsz", 0), 8)
        b = F8F6F4_DWORDS.get(ins.f.get("blgp", 0), 8)
    return a, b, c


_W64_SCALAR_ALL = ("_b64", "_u64", "_i64")


def operand_widths(ins: Instr) -> dict[str, int]:
    """Dwords of each register operand (``dst``, ``src0``.. ``data``...); 1 if not listed."""
    n, b = ins.name, ins.base
    w: dict[str, int] = {}
    if ins.enc in ("SOP1", "SOP2", "SOPC", "SOPK"):
        if b.endswith(_W64_SCALAR_ALL) or b in ("s_cselect_b64",):
            w = {"dst": 2, "src0": 2, "src1": 2}
            if b.startswith(("s_lshl_b64", "s_lshr_b64", "s_ashr_i64", "s_bfe_", "s_bfm_b64")):
                w["src1"] = 1
            if b.startswith("s_bfm_b64"):
                w["src0"] = 1
            if b in ("s_bcnt0_i32_b64", "s_bcnt1_i32_b64", "s_ff0_i32_b64", "s_ff1_i32_b64",
                     "s_flbit_i32_b64", "s_flbit_i32_i64"):
                w["dst"] = 1
        if ins.enc == "SOP1" and b.endswith("saveexec_b64"):
            w = {"dst": 2, "src0": 2}
        if ins.enc == "SOPC" and b.endswith(("_u64", "_i64")):
            w = {"src0": 2, "src1": 2}
    elif ins.enc == "SMEM":
        w = {"dst": _dwords_of(n.rsplit("_", 1)[-1])}
    elif ins.enc in ("VOP1", "VOP2", "VOPC", "VOP3"):
        if ins.enc == "VOPC" or (ins.enc == "VOP3" and ins.op < 0x100):
            wide = 2 if b.endswith(("_f64", "_i64", "_u64")) else 1
            w = {"dst": 2, "src0": wide, "src1": wide}
        elif b in ("v_mov_b64", "v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64",
                   "v_fma_f64", "v_lshl_add_u64"):
            w = {"dst": 2, "src0": 2, "src1": 2, "src2": 2}
            if b == "v_lshl_add_u64":
                w["src1"] = 1
        elif b in ("v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"):
            w = {"dst": 2, "src1": 2}
        elif b in ("v_mad_u64_u32", "v_mad_i64_i32"):
            w = {"dst": 2, "src2": 2}
        elif b in ("v_cvt_f64_f32", "v_cvt_f64_i32", "v_cvt_f64_u32"):
            w = {"dst": 2}
        elif b in ("v_cvt_f32_f64", "v_cvt_i32_f64", "v_cvt_u32_f64"):
            w = {"src0": 2}
        if b in VOP2_CARRY_IN or b in VOP2_CARRY_OUT or b.startswith(("v_cmp", "v_cndmask")) \
                or n in VOP3B:
            w.setdefault("sdst", 2)
            w.setdefault("src2", 2 if b in VOP2_CARRY_IN else w.get("src2", 1))
    elif ins.enc == "VOP3P":
        if n.startswith(("v_mfma", "v_smfmac")):
            a, bb, c = mfma_regs(ins)
            w = {"dst": c, "src0": a, "src1": bb, "src2": c}
        elif n in ("v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32", "v_pk_mov_b32"):
            w = {"dst": 2, "src0": 2, "src1": 2, "src2": 2}
    elif ins.enc == "DS":
        size = {"b32": 1, "b64": 2, "b96": 3, "b128": 4, "u8": 1, "i8": 1, "u16": 1,
                "i16": 1, "b8": 1, "b16": 1}.get(n.rsplit("_", 1)[-1], 1)
        if "2" in n.split("_")[1]:      # ds_read2 / ds_write2 / ds_read2st64 ...
            w = {"dst": 2 * size, "data0": size, "data1": size}
        else:
            w = {"dst": size, "data0": size, "data1": size}
    elif ins.enc in ("MUBUF", "FLAT", "GLOBAL", "SCRATCH"):
        last = n.rsplit("_", 1)[-1]
        d = _dwords_of(last) if last.startswith("dword") else 1
        w = {"data": d}
        if ins.enc == "MUBUF":
            w["vaddr"] = 2 if (ins.f.get("offen") and ins.f.get("idxen")) else 1
        else:
            w["vaddr"] = 1 if ins.f.get("saddr", 0x7F) != 0x7F else 2
            if ins.enc == "FLAT":
                w["vaddr"] = 2
            if ins.enc == "SCRATCH":
                w["vaddr"] = 1
    return w


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
    size, f, lit = 4, {}, None
    if enc == "SOP2":
        op = (w0 >> 23) & 0x7F
        f = dict(dst=(w0 >> 16) & 0x7F, src0=w0 & 0xFF, src1=(w0 >> 8) & 0xFF)
    elif enc == "SOPK":
        op = (w0 >> 23) & 0x1F
        f = dict(dst=(w0 >> 16) & 0x7F, imm=w0 & 0xFFFF)
        if op == 0x14:                       # s_setreg_imm32_b32: a 32-bit literal follows
            lit, size = word(1), 8
    elif enc == "SOP1":
        op = (w0 >> 8) & 0xFF
        f = dict(dst=(w0 >> 16) & 0x7F, src0=w0 & 0xFF)
    elif enc == "SOPC":
        op = (w0 >> 16) & 0x7F
        f = dict(src0=w0 & 0xFF, src1=(w0 >> 8) & 0xFF)
    elif enc == "SOPP":
        op = (w0 >> 16) & 0x7F
        f = dict(imm=w0 & 0xFFFF)
    elif enc == "SMEM":
        w1 = word(1)
        size = 8
        op = (w0 >> 18) & 0xFF
        f = dict(dst=(w0 >> 6) & 0x7F, sbase=(w0 & 0x3F) << 1, imm=(w0 >> 17) & 1,
                 glc=(w0 >> 16) & 1, soe=(w0 >> 14) & 1, offset=w1 & 0x1FFFFF,
                 soffset=(w1 >> 25) & 0x7F)
    elif enc == "VOP2":
        op = (w0 >> 25) & 0x3F
        f = dict(dst=(w0 >> 17) & 0xFF, src0=w0 & 0x1FF, src1=VGPR0 + ((w0 >> 9) & 0xFF))
    elif enc == "VOP1":
        op = (w0 >> 9) & 0xFF
        f = dict(dst=(w0 >> 17) & 0xFF, src0=w0 & 0x1FF)
    elif enc == "VOPC":
        op = (w0 >> 17) & 0xFF
        f = dict(src0=w0 & 0x1FF, src1=VGPR0 + ((w0 >> 9) & 0xFF))
    elif enc in ("VOP3", "VOP3P"):
        w1 = word(1)
        size = 8
        op = (w0 >> 16) & (0x3FF if enc == "VOP3" else 0x7F)
        f = dict(dst=w0 & 0xFF, src0=w1 & 0x1FF, src1=(w1 >> 9) & 0x1FF,
                 src2=(w1 >> 18) & 0x1FF)
        name = TABLES[enc].get(op, "")
        if enc == "VOP3P" and name.startswith(("v_mfma", "v_smfmac")):
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
    elif enc == "DS":
        w1 = word(1)
        size = 8
        op = (w0 >> 17) & 0xFF
        f = dict(offset0=w0 & 0xFF, offset1=(w0 >> 8) & 0xFF, gds=(w0 >> 16) & 1,
                 acc=(w0 >> 25) & 1, addr=w1 & 0xFF, data0=(w1 >> 8) & 0xFF,
                 data1=(w1 >> 16) & 0xFF, dst=(w1 >> 24) & 0xFF)
    elif enc == "MUBUF":
        w1 = word(1)
        size = 8
        op = (w0 >> 18) & 0x7F
        f = dict(offset=w0 & 0xFFF, offen=(w0 >> 12) & 1, idxen=(w0 >> 13) & 1,
                 sc0=(w0 >> 14) & 1, nt=(w0 >> 15) & 1, lds=(w0 >> 16) & 1,
                 sc1=(w0 >> 17) & 1, vaddr=w1 & 0xFF, data=(w1 >> 8) & 0xFF,
                 srsrc=((w1 >> 16) & 0x1F) << 2, acc=(w1 >> 23) & 1, soffset=(w1 >> 24) & 0xFF)
    else:   # FLAT / SCRATCH / GLOBAL
        w1 = word(1)
        size = 8
        op = (w0 >> 18) & 0x7F
        off = w0 & 0x1FFF
        f = dict(offset=off if enc == "FLAT" else _signed(off, 13), lds=(w0 >> 13) & 1,
                 sc0=(w0 >> 16) & 1, sc1=(w0 >> 17) & 1, nt=(w0 >> 25) & 1,
                 vaddr=w1 & 0xFF, data=(w1 >> 8) & 0xFF, saddr=(w1 >> 16) & 0x7F,
                 acc=(w1 >> 23) & 1, dst=(w1 >> 24) & 0xFF)
    name = TABLES[enc].get(op)
    if name is None:
        raise EmuError(f"0x{addr:04x}: unknown {enc} opcode {op} (dword 0x{w0:08x})")
    if enc in ("SOP2", "SOP1", "SOPC", "VOP2", "VOP1", "VOPC") and LITERAL in (
            f.get("src0"), f.get("src1")):
        lit, size = word(size // 4), size + 4
    if enc in ("VOP1", "VOP2", "VOPC") and f["src0"] in (SDWA, DPP):
        mnem = name[:-4] if name.endswith("_e32") else name
        if f["src0"] == DPP or enc == "VOPC":
            form = "DPP" if f["src0"] == DPP else "SDWA"
            raise EmuError(f"0x{addr:04x}: {mnem}_{form.lower()}: the {form} form of {enc} "
                           f"instructions is not decoded by the emulator (dwords 0x{w0:08x} "
                           f"0x{word(1):08x})")
        f.update(_sdwa_fields(word(1), enc, f))
        name, size = mnem + "_sdwa", 8
    ins = Instr(addr, size, enc, op, name, f, lit)
    ins.text = format_instr(ins)
    return ins


def _sdwa_fields(w1: int, enc: str, f: dict) -> dict:
    """The fields of a VOP1/VOP2 SDWA second dword (gfx9 layout): the real src0 (an SGPR
    when S0 is set), the destination select and its unused bits, clamp, omod, and per
    source the select, sign extension, neg and abs (S1: src1 is an SGPR)."""
    out = dict(sdwa=1, src0=(w1 & 0xFF) + (0 if (w1 >> 23) & 1 else VGPR0),
               dst_sel=(w1 >> 8) & 7, dst_unused=(w1 >> 11) & 3, clamp=(w1 >> 13) & 1,
               omod=(w1 >> 14) & 3, src0_sel=(w1 >> 16) & 7, src0_sext=(w1 >> 19) & 1,
               src0_neg=(w1 >> 20) & 1, src0_abs=(w1 >> 21) & 1)
    if enc == "VOP2":
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


# ---------------------------------------------------------------------------
# text (LLVM's syntax)

def reg_text(kind: str, first: int, count: int) -> str:
    return f"{kind}{first}" if count == 1 else f"{kind}[{first}:{first + count - 1}]"


def src_text(code: int, count: int = 1, lit: int | None = None, acc: bool = False) -> str:
    """LLVM's text of a source operand."""
    if code >= VGPR0:
        return reg_text("a" if acc else "v", code - VGPR0, count)
    if code <= 101:
        return reg_text("s", code, count)
    if 108 <= code <= 123:
        return reg_text("ttmp", code - 108, count)
    if count == 2 and code in _PAIR_NAMES:
        return _PAIR_NAMES[code]
    if 128 <= code <= 192:
        return str(code - 128)
    if 193 <= code <= 208:
        return str(192 - code)
    if code in _FLOAT_TEXT:
        return _FLOAT_TEXT[code]
    if code == LITERAL:
        return "<literal>" if lit is None else f"0x{lit:x}"
    return _SPECIAL_NAMES.get(code, f"<src {code}>")


def sdst_text(code: int, count: int = 1) -> str:
    return src_text(code, count)


def _mods_vop3(ins: Instr, k: int, text: str) -> str:
    f = ins.f
    if (f.get("abs", 0) >> k) & 1:
        text = f"|{text}|"
    if (f.get("neg", 0) >> k) & 1:
        text = f"-{text}"
    return text


def _sopp_text(ins: Instr) -> str:
    n, imm = ins.name, ins.f["imm"]
    if n == "s_waitcnt":
        vm, exp, lgkm = decode_waitcnt(imm)
        parts = [f"{k}({v})" for k, v, mx in (("vmcnt", vm, VMCNT_MAX), ("expcnt", exp, EXPCNT_MAX),
                                               ("lgkmcnt", lgkm, LGKMCNT_MAX)) if v != mx]
        if not parts:
            parts = [f"vmcnt({VMCNT_MAX})", f"expcnt({EXPCNT_MAX})", f"lgkmcnt({LGKMCNT_MAX})"]
        return f"{n} {' '.join(parts)}"
    if n in ("s_endpgm", "s_barrier", "s_wakeup", "s_icache_inv", "s_ttracedata",
             "s_endpgm_saved", "s_set_gpr_idx_off", "s_endpgm_ordered_ps_done") and imm == 0:
        return n
    if n in BRANCHES:
        return f"{n} {imm}"
    if n in ("s_trap", "s_setprio", "s_sleep", "s_nop", "s_setkill", "s_sethalt",
             "s_incperflevel", "s_decperflevel"):
        return f"{n} {imm}"
    return f"{n} 0x{imm:x}"


def format_instr(ins: Instr) -> str:
    """The instruction as LLVM 22 prints it (llvm-objdump / the compiler's assembly)."""
    n, f, enc = ins.name, ins.f, ins.enc
    w = operand_widths(ins)
    lit = ins.lit

    def s(key, acc=False):
        return src_text(f[key], w.get(key, 1), lit, acc)

    if enc == "SOPP":
        return _sopp_text(ins)
    if enc == "SOP2":
        return f"{n} {sdst_text(f['dst'], w.get('dst', 1))}, {s('src0')}, {s('src1')}"
    if enc == "SOP1":
        if n in ("s_getpc_b64",):
            return f"{n} {sdst_text(f['dst'], 2)}"
        if n in ("s_setpc_b64", "s_rfe_b64"):
            return f"{n} {s('src0')}"
        return f"{n} {sdst_text(f['dst'], w.get('dst', 1))}, {s('src0')}"
    if enc == "SOPC":
        return f"{n} {s('src0')}, {s('src1')}"
    if enc == "SOPK":
        return f"{n} {sdst_text(f['dst'])}, 0x{f['imm']:x}"
    if enc == "SMEM":
        base = reg_text("s", f["sbase"], 4 if "buffer" in n else 2)
        dst = reg_text("s", f["dst"], w["dst"])
        off = f"0x{f['offset']:x}" if f["imm"] else sdst_text(f["offset"])
        return f"{n} {dst}, {base}, {off}" + (" glc" if f["glc"] else "")
    if enc in ("VOP1", "VOP2") and f.get("sdwa"):
        return _sdwa_text(ins, w)
    if enc in ("VOP1", "VOP2", "VOPC"):
        b = ins.base
        if enc == "VOPC":
            return f"{n} vcc, {s('src0')}, {s('src1')}"
        if n == "v_readfirstlane_b32":
            return f"{n} {sdst_text(f['dst'])}, {s('src0')}"
        if enc == "VOP1" and n in ("v_nop", "v_clrexcp"):
            return n
        dst = reg_text("v", f["dst"], w.get("dst", 1))
        if enc == "VOP2" and b in VOP2_CARRY_OUT:
            tail = ", vcc" if b in VOP2_CARRY_IN else ""
            return f"{n} {dst}, vcc, {s('src0')}, {s('src1')}{tail}"
        if enc == "VOP2" and b in VOP2_CARRY_IN:
            return f"{n} {dst}, {s('src0')}, {s('src1')}, vcc"
        if enc == "VOP2" and b in ("v_madmk_f32", "v_fmamk_f32"):
            return f"{n} {dst}, {s('src0')}, 0x{lit:x}, {s('src1')}"
        if enc == "VOP2" and b in ("v_madak_f32", "v_fmaak_f32"):
            return f"{n} {dst}, {s('src0')}, {s('src1')}, 0x{lit:x}"
        if enc == "VOP1":
            return f"{n} {dst}, {s('src0')}"
        return f"{n} {dst}, {s('src0')}, {s('src1')}"
    if enc == "VOP3":
        return _vop3_text(ins, w)
    if enc == "VOP3P":
        return _vop3p_text(ins, w)
    if enc == "DS":
        return _ds_text(ins, w)
    if enc == "MUBUF":
        vdata = reg_text("a" if f["acc"] else "v", f["data"], w["data"])
        vaddr = reg_text("v", f["vaddr"], w["vaddr"]) if (f["offen"] or f["idxen"]) else "off"
        head = f"{n} {vaddr}" if f["lds"] else f"{n} {vdata}, {vaddr}"
        parts = [head + f", {reg_text('s', f['srsrc'], 4)}, {src_text(f['soffset'])}"]
        for key in ("offen", "idxen"):
            if f[key]:
                parts.append(key)
        if f["offset"]:
            parts.append(f"offset:{f['offset']}")
        parts += _cache_bits(f)
        if f["lds"]:
            parts.append("lds")
        return " ".join(parts)
    # FLAT / GLOBAL / SCRATCH
    vaddr = reg_text("v", f["vaddr"], w["vaddr"])
    saddr = "off" if f["saddr"] == 0x7F else src_text(f["saddr"], 2)
    data = reg_text("a" if f["acc"] else "v", f["data"], w["data"])
    dst = reg_text("a" if f["acc"] else "v", f["dst"], w["data"])
    if "_lds_" in n:
        ops = [vaddr] + ([saddr] if enc != "FLAT" else [])
    elif "store" in n:
        ops = [vaddr, data] + ([saddr] if enc != "FLAT" else [])
    else:
        ops = [dst, vaddr] + ([saddr] if enc != "FLAT" else [])
    parts = [f"{n} {', '.join(ops)}"]
    if f["offset"]:
        parts.append(f"offset:{f['offset']}")
    parts += _cache_bits(f)
    return " ".join(parts)


def _sdwa_text(ins: Instr, w: dict) -> str:
    """``v_add_u32_sdwa v7, v1, sext(v7) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD
    src1_sel:WORD_0`` (LLVM prints every select)."""
    n, f, b = ins.name, ins.f, ins.base
    nsrc = 2 if ins.enc == "VOP2" else 1
    ops = []
    for k in range(nsrc):
        t = src_text(f[f"src{k}"], 1)
        if f[f"src{k}_sext"]:
            t = f"sext({t})"
        if f[f"src{k}_abs"]:
            t = f"|{t}|"
        if f[f"src{k}_neg"]:
            t = f"-{t}"
        ops.append(t)
    dst = reg_text("v", f["dst"], 1)
    if b in VOP2_CARRY_OUT:
        ops = [dst, "vcc"] + ops + (["vcc"] if b in VOP2_CARRY_IN else [])
    elif b in VOP2_CARRY_IN:
        ops = [dst] + ops + ["vcc"]
    else:
        ops = [dst] + ops
    text = f"{n} {', '.join(ops)}"
    if f["clamp"]:
        text += " clamp"
    if f["omod"]:
        text += {1: " mul:2", 2: " mul:4", 3: " div:2"}[f["omod"]]
    text += f" dst_sel:{SDWA_SELECTS[f['dst_sel']][0]} dst_unused:" \
        f"{SDWA_UNUSED.get(f['dst_unused'], f['dst_unused'])}"
    for k in range(nsrc):
        text += f" src{k}_sel:{SDWA_SELECTS[f[f'src{k}_sel']][0]}"
    return text


def _cache_bits(f: dict) -> list[str]:
    return [k for k in ("sc0", "nt", "sc1") if f.get(k)]


def _vop3_text(ins: Instr, w: dict) -> str:
    n, f, b = ins.name, ins.f, ins.base
    op = ins.op

    def s(k):
        text = src_text(f[f"src{k}"], w.get(f"src{k}", 1))
        return text if b.startswith("v_bitop3") else _mods_vop3(ins, k, text)

    if op < 0x100:      # VOPC as VOP3: an SGPR pair destination
        text = f"{n} {sdst_text(f['dst'], 2)}, {s(0)}, {s(1)}"
    elif n in ("v_readlane_b32", "v_readfirstlane_b32"):
        text = f"{n} {sdst_text(f['dst'])}, " + ", ".join(
            [s(0)] + ([s(1)] if n == "v_readlane_b32" else []))
    else:
        dst = reg_text("v", f["dst"], w.get("dst", 1))
        nsrc = _vop3_sources(ins)
        ops = [dst]
        if n in VOP3B:
            ops.append(sdst_text(f["sdst"], 2))
        ops += [s(k) for k in range(nsrc)]
        if b == "v_cndmask_b32" or b in ("v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"):
            ops[-1] = src_text(f["src2"], 2)
        text = f"{n} {', '.join(ops)}"
    if f.get("clamp"):
        text += " clamp"
    if f.get("omod") and n != "v_bitop3_b32" and n != "v_bitop3_b16":
        text += {1: " mul:2", 2: " mul:4", 3: " div:2"}[f["omod"]]
    if n in ("v_bitop3_b32", "v_bitop3_b16"):
        v = bitop3(ins)
        text += f" bitop3:{v}" if v <= 10 else f" bitop3:0x{v:x}"
    return text


def bitop3(ins: Instr) -> int:
    """The truth table of ``v_bitop3``, split over the neg, abs and omod fields."""
    f = ins.f
    return f["neg"] | (f["abs"] << 3) | (f["omod"] << 6)


#: VOP3 opcodes (by base name) that take three sources; the rest of VOP3-only take two
_VOP3_THREE = ("v_mad_", "v_fma_", "v_bfe_", "v_bfi_", "v_alignbit", "v_alignbyte", "v_min3",
               "v_max3", "v_med3", "v_sad_", "v_lerp", "v_cubeid", "v_cubesc", "v_cubetc",
               "v_cubema", "v_div_fixup", "v_div_fmas", "v_div_scale", "v_msad", "v_qsad",
               "v_mqsad", "v_lshl_add", "v_add_lshl", "v_add3", "v_lshl_or", "v_and_or",
               "v_or3", "v_xad", "v_bitop3", "v_perm_b32", "v_cvt_pk_u8_f32", "v_minimum3",
               "v_maximum3", "v_dot2c")


def _vop3_sources(ins: Instr) -> int:
    b, op = ins.base, ins.op
    if 0x140 <= op < 0x180:           # VOP1 as VOP3
        return 1
    if 0x100 <= op < 0x140:           # VOP2 as VOP3
        return 3 if b in ("v_cndmask_b32", "v_addc_co_u32", "v_subb_co_u32",
                          "v_subbrev_co_u32", "v_mac_f32", "v_fmac_f32") else 2
    if b in ("v_addc_co_u32", "v_cndmask_b32"):
        return 3
    return 3 if b.startswith(_VOP3_THREE) else 2


def _vop3p_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    if n.startswith(("v_mfma", "v_smfmac")):
        acc = f["acc"]
        ops = [reg_text("a" if f["acc_cd"] else "v", f["dst"], w["dst"]),
               src_text(f["src0"], w["src0"], acc=bool(acc & 1)),
               src_text(f["src1"], w["src1"], acc=bool(acc & 2)),
               src_text(f["src2"], w["src2"], acc=bool(f["acc_cd"]))]
        text = f"{n} {', '.join(ops)}"
        for k in ("cbsz", "abid", "blgp"):
            if f[k]:
                text += f" {k}:{f[k]}"
        return text
    if n == "v_accvgpr_read_b32":
        return f"{n} v{f['dst']}, a{f['src0'] - VGPR0}"
    if n == "v_accvgpr_write_b32":
        return f"{n} a{f['dst']}, {src_text(f['src0'])}"
    nsrc = 3 if n.startswith(("v_pk_fma", "v_pk_mad", "v_fma_mix", "v_dot")) else 2
    ops = [reg_text("v", f["dst"], w.get("dst", 1))]
    for k in range(nsrc):
        t = src_text(f[f"src{k}"], w.get(f"src{k}", 1))
        ops.append(f"-{t}" if (f["neg"] >> k) & 1 else t)
    text = f"{n} {', '.join(ops)}"
    dflt_hi = (1 << nsrc) - 1
    if f["opsel"]:
        text += " op_sel:[" + ",".join(str((f["opsel"] >> k) & 1) for k in range(nsrc)) + "]"
    if (f["opsel_hi"] & dflt_hi) != dflt_hi:
        text += " op_sel_hi:[" + ",".join(str((f["opsel_hi"] >> k) & 1)
                                          for k in range(nsrc)) + "]"
    if f["neg_hi"]:
        text += " neg_hi:[" + ",".join(str((f["neg_hi"] >> k) & 1) for k in range(nsrc)) + "]"
    if f["clamp"]:
        text += " clamp"
    return text


def _ds_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    r = "a" if f["acc"] else "v"
    two = "2" in n.split("_")[1]
    ops = []
    if n.startswith("ds_read") or n.startswith("ds_load"):
        ops = [reg_text(r, f["dst"], w["dst"]), f"v{f['addr']}"]
    elif n.startswith("ds_write") or n.startswith("ds_store"):
        ops = [f"v{f['addr']}", reg_text(r, f["data0"], w["data0"])]
        if two:
            ops.append(reg_text(r, f["data1"], w["data1"]))
    else:
        ops = [f"v{f['addr']}", reg_text(r, f["data0"], w["data0"])]
    text = f"{n} {', '.join(ops)}"
    if two:
        if f["offset0"]:
            text += f" offset0:{f['offset0']}"
        if f["offset1"]:
            text += f" offset1:{f['offset1']}"
    else:
        off = f["offset0"] | (f["offset1"] << 8)
        if off:
            text += f" offset:{off}"
    if f["gds"]:
        text += " gds"
    return text
