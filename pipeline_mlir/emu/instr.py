"""One gfx950 instruction as the emulator sees it: the :class:`Instr` record and what its
fields mean.

Both sources of instructions produce these records: the decoder
(:mod:`pipeline_mlir.emu.decode`, from machine code) and the assembly reader
(:mod:`pipeline_mlir.emu.asmline`, from LLVM's text), so a test can compare the two for
every instruction of a kernel.  Each record holds the encoding, the opcode, the mnemonic
(from :mod:`pipeline_mlir.emu.opcodes`) and the operand fields in a normalised form.

Source operands use the hardware's 9-bit operand numbering (``src``): 0-101 SGPRs, 106/107
VCC, 124 M0, 126/127 EXEC, 128-192 the integers 0..64, 193-208 -1..-16, 240-248 the float
constants, 253 SCC, 255 a literal (in ``Instr.lit``), 256-511 VGPRs.  AGPR operands of
matrix instructions are flagged in the fields (``acc``, ``acc_cd``).  The operand widths
(:func:`operand_widths`) and the source count of a VOP3 instruction
(:func:`vop3_sources`) follow from the mnemonic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LITERAL = 255
#: the operand code of VCC (its low half; the pair VCC, VCC + 1)
VCC = 106
VGPR0 = 256
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
#: the MUBUF cache controls (L2 write-back, invalidate): no operands, only ``sc0`` / ``sc1``
CACHE_CONTROLS = frozenset({"buffer_wbl2", "buffer_inv"})
#: the operands the VGPR index mode's 4-bit mask enables, bit 0 first (``gpr_idx(SRC0,DST)``)
GPR_IDX_SLOTS = ("SRC0", "SRC1", "SRC2", "DST")
FLOAT_CONSTANTS = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0,
                   247: -4.0, 248: 0.15915494309189535}
#: how LLVM writes those constants in assembly (1/(2*pi) to 8 digits)
FLOAT_TEXT = {code: ("0.15915494" if code == 248 else repr(v))
              for code, v in FLOAT_CONSTANTS.items()}


def gpr_idx_text(mask: int) -> str:
    """LLVM's text of an index-mode mask: ``gpr_idx(SRC0,DST)``, ``gpr_idx()`` for 0."""
    return "gpr_idx(" + ",".join(n for k, n in enumerate(GPR_IDX_SLOTS) if mask >> k & 1) + ")"


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
    "v_mfma_scale_f32_16x16x128_f8f6f4": (8, 8, 4),
    "v_mfma_scale_f32_32x32x64_f8f6f4": (8, 8, 16),
    "v_mfma_f32_16x16x16_bf16": (2, 2, 4), "v_mfma_f32_16x16x16_f16": (2, 2, 4),
    "v_mfma_f32_32x32x8_bf16": (2, 2, 16), "v_mfma_f32_32x32x8_f16": (2, 2, 16),
    "v_mfma_f32_16x16x32_fp8_fp8": (2, 2, 4), "v_mfma_f32_16x16x32_bf8_bf8": (2, 2, 4),
    "v_mfma_f32_16x16x32_fp8_bf8": (2, 2, 4), "v_mfma_f32_16x16x32_bf8_fp8": (2, 2, 4),
    "v_mfma_f32_32x32x16_fp8_fp8": (2, 2, 16), "v_mfma_f32_32x32x16_bf8_bf8": (2, 2, 16),
    "v_mfma_f32_32x32x16_fp8_bf8": (2, 2, 16), "v_mfma_f32_32x32x16_bf8_fp8": (2, 2, 16),
    "v_mfma_i32_16x16x64_i8": (4, 4, 4), "v_mfma_i32_32x32x32_i8": (4, 4, 16),
    "v_mfma_i32_16x16x32_i8": (2, 2, 4), "v_mfma_i32_32x32x16_i8": (2, 2, 16),
    "v_mfma_f32_16x16x4_f32": (1, 1, 4),
    "v_mfma_f32_32x32x2_f32": (1, 1, 16),
    "v_mfma_f32_4x4x4_16b_f16": (2, 2, 4), "v_mfma_f32_4x4x4_16b_bf16": (2, 2, 4),
    "v_mfma_i32_4x4x4_16b_i8": (1, 1, 4),
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
        if (atomic := atomic_dwords(n)) is not None:
            w = {"data": atomic[0], "dst": atomic[1]}
        if ins.enc == "MUBUF":
            w["vaddr"] = 2 if (ins.f.get("offen") and ins.f.get("idxen")) else 1
        else:
            w["vaddr"] = 1 if ins.f.get("saddr", 0x7F) != 0x7F else 2
            if ins.enc == "FLAT":
                w["vaddr"] = 2
            if ins.enc == "SCRATCH":
                w["vaddr"] = 1
    return w


def atomic_dwords(name: str) -> tuple[int, int] | None:
    """(data dwords, returned dwords) of a memory atomic (``*_atomic_*``: a compare-swap
    takes the compared and the new value; ``_x2`` and ``_f64`` ones are 64-bit), None for
    another instruction."""
    if "_atomic_" not in name:
        return None
    wide = 2 if name.endswith(("_x2", "_f64")) else 1
    return (2 * wide, wide) if "_cmpswap" in name else (wide, wide)


def bitop3(ins: Instr) -> int:
    """The truth table of ``v_bitop3``, split over the neg, abs and omod fields."""
    f = ins.f
    return f["neg"] | (f["abs"] << 3) | (f["omod"] << 6)


#: the 8-bit float conversions whose VOP3 op_sel selects the part of the destination written
#: (``op_sel:[0,0,1]``: the high half; the stochastic forms' ``op_sel:[0,0,b0,b1]``: the byte)
FP8_PACKED = ("v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32")
FP8_STOCHASTIC = ("v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32")
FP8_DST_SEL = FP8_PACKED + FP8_STOCHASTIC
#: VOP3 opcodes (by base name) that take three sources; the rest of VOP3-only take two
_VOP3_THREE = ("v_mad_", "v_fma_", "v_bfe_", "v_bfi_", "v_alignbit", "v_alignbyte", "v_min3",
               "v_max3", "v_med3", "v_sad_", "v_lerp", "v_cubeid", "v_cubesc", "v_cubetc",
               "v_cubema", "v_div_fixup", "v_div_fmas", "v_div_scale", "v_msad", "v_qsad",
               "v_mqsad", "v_lshl_add", "v_add_lshl", "v_add3", "v_lshl_or", "v_and_or",
               "v_or3", "v_xad", "v_bitop3", "v_perm_b32", "v_cvt_pk_u8_f32", "v_minimum3",
               "v_maximum3", "v_dot2c")


def vop3_sources(ins: Instr) -> int:
    """How many sources a VOP3 instruction reads (by its opcode range and mnemonic)."""
    b, op = ins.base, ins.op
    if 0x140 <= op < 0x180:           # VOP1 as VOP3
        return 1
    if 0x100 <= op < 0x140:           # VOP2 as VOP3
        return 3 if b in ("v_cndmask_b32", "v_addc_co_u32", "v_subb_co_u32",
                          "v_subbrev_co_u32", "v_mac_f32", "v_fmac_f32") else 2
    if b in ("v_addc_co_u32", "v_cndmask_b32"):
        return 3
    return 3 if b.startswith(_VOP3_THREE) else 2
