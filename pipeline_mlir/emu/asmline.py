"""One line of gfx950 assembly (LLVM's syntax) -> an :class:`~pipeline_mlir.emu.instr.Instr`
record, the same the decoder produces from the machine code.

:func:`parse_instruction` reads the mnemonic, the operands and the modifiers into the
encoding, opcode and operand fields; its size follows from the encoding and a literal.  A
branch to a label returns the label (the kernel reader, :mod:`pipeline_mlir.emu.asmtext`,
turns it into the offset).  Only the syntax LLVM prints is accepted; anything else raises
:class:`LineError` saying what is wrong.

Size: one reader per encoding family (SOP*, VOP*, DS, MUBUF, FLAT, SMEM, MFMA, ...) and the
operand syntax they share (registers, literals, modifiers, ``hwreg(...)``), kept together so
that each field is read by one function.
"""

from __future__ import annotations

import re

from pipeline_mlir.emu.instr import (BRANCHES, CACHE_CONTROLS, FP8_DST_SEL, LITERAL,
                                     SDWA_SELECTS, SDWA_UNUSED, VCC, VGPR0, VOP2_CARRY_IN,
                                     VOP2_CARRY_OUT, VOP3B, FLOAT_TEXT, GPR_IDX_SLOTS, Instr,
                                     vop3_sources)
from pipeline_mlir.emu.opcodes import TABLES
from pipeline_mlir.emu.scaled import UNSCALED_NAME, scale_fields
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.target.gfx950 import EXPCNT, LGKMCNT, NAME, VMCNT


_BY_NAME: dict[str, tuple[str, int]] = {}
for _enc, _table in TABLES.items():
    for _op, _name in _table.items():
        _BY_NAME.setdefault(_name, (_enc, _op))

_FLOATS = {text: code for code, text in FLOAT_TEXT.items()}
_SPECIAL = {"vcc": 106, "vcc_lo": 106, "vcc_hi": 107, "exec": 126, "exec_lo": 126,
            "exec_hi": 127, "m0": 124, "flat_scratch": 102, "flat_scratch_lo": 102,
            "flat_scratch_hi": 103, "xnack_mask": 104, "src_vccz": 251, "src_execz": 252,
            "src_scc": 253, "scc": 253, "vccz": 251, "execz": 252}
_REG = re.compile(r"^(v|s|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")
#: the registers of each file an operand may name: v0..v255, a0..a255, s0..s101 (s102 on
#: are flat_scratch, xnack_mask and vcc, named so), ttmp0..ttmp15
_FILE_SIZE = {"v": 256, "a": 256, "s": 102, "ttmp": 16}


class LineError(Exception):
    """A line of assembly this reader cannot accept (the message says why)."""


def _reg(text: str):
    """(kind, first, count) of a register operand, or None."""
    m = _REG.match(text)
    if not m:
        return None
    kind = m.group(1)
    if m.group(2) is not None:
        lo = hi = int(m.group(2))
    else:
        lo, hi = int(m.group(3)), int(m.group(4))
        if hi < lo:
            raise LineError(f"register range {text!r} ends before it starts")
    size = _FILE_SIZE[kind]
    if hi >= size:
        raise LineError(f"register {text!r} does not exist: the {NAME} registers of its file "
                        f"are {kind}0..{kind}{size - 1}")
    return kind, lo, hi - lo + 1


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise LineError(f"expected an integer, got {text!r}") from None


def parse_src(text: str, agpr: bool = False) -> tuple[int, int | None, bool]:
    """(operand code, literal, is AGPR) of a source operand; an AGPR only with ``agpr`` (the
    matrix instructions; no other vector ALU instruction reads an AGPR operand)."""
    t = text.strip()
    r = _reg(t)
    if r:
        kind, first, _n = r
        if kind == "s":
            return first, None, False
        if kind == "ttmp":
            return 108 + first, None, False
        if kind == "a" and not agpr:
            raise LineError(f"{t!r}: this operand cannot be an AGPR (only the matrix "
                            f"instructions, v_accvgpr_* and memory data read AGPRs)")
        return VGPR0 + first, None, kind == "a"
    if t in _SPECIAL:
        return _SPECIAL[t], None, False
    if t in _FLOATS:
        return _FLOATS[t], None, False
    if re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", t):
        v = _int(t)
        if not t.lower().startswith(("0x", "-0x")) and -16 <= v <= 64:
            return (128 + v if v >= 0 else 192 - v), None, False
        if not -(1 << 31) <= v < (1 << 32):
            raise LineError(f"literal {t} does not fit in 32 bits")
        return LITERAL, v & 0xFFFFFFFF, False
    raise LineError(f"cannot read the operand {t!r}")


def _sreg(text: str) -> int:
    code, lit, _ = parse_src(text)
    if lit is not None or code >= VGPR0 or 128 <= code <= 250:
        raise LineError(f"expected a scalar register, got {text!r}")
    return code


def _vreg(text: str, kinds="v") -> int:
    r = _reg(text.strip())
    if not r or r[0] not in kinds:
        what = "an AGPR" if kinds == "a" else f"a {'/'.join(kinds)} register"
        raise LineError(f"expected {what}, got {text!r}")
    return r[1]


def _split(rest: str) -> tuple[list[str], list[str]]:
    """Operands (comma separated) and trailing space-separated modifiers (a modifier's
    list, ``op_sel:[1,0,0]``, and ``hwreg(...)`` keep their commas and spaces)."""
    parts = [p.strip() for p in re.split(r",(?![^\[]*\])(?![^(]*\))", rest)] \
        if rest.strip() else []
    mods: list[str] = []
    if parts:
        last = re.findall(r"hwreg\([^)]*\)|\S+", parts[-1])
        parts[-1] = last[0] if last else ""
        mods = last[1:]
        if not parts[-1]:
            parts.pop()
    return parts, mods


def _mod_value(mods: list[str], key: str, default=0) -> int:
    for m in mods:
        if m.startswith(key + ":"):
            return _int(m.split(":", 1)[1])
    return default


def _check_mods(mods: list[str], allowed: tuple[str, ...]) -> None:
    for m in mods:
        k = m.split(":", 1)[0]
        if k not in allowed:
            raise LineError(f"unexpected modifier {m!r}")


def _modsrc(text: str) -> tuple[int, int | None, bool, int, int]:
    """(code, literal, agpr, neg, abs) of a VOP3 source with -x / |x| modifiers."""
    t = text.strip()
    neg = absv = 0
    if t.startswith("-") and (t[1:2] in "|vsa" and not re.match(r"^-\d", t)):
        neg, t = 1, t[1:]
    if t.startswith("|") and t.endswith("|"):
        absv, t = 1, t[1:-1]
    code, lit, acc = parse_src(t)
    return code, lit, acc, neg, absv


def parse_instruction(text: str, addr: int) -> tuple[Instr, str | None]:
    """(instruction, branch label or None) of one line of LLVM assembly."""
    mnem, _, rest = text.strip().partition(" ")
    ops, mods = _split(rest)
    if mnem.endswith("_sdwa") and _BY_NAME.get(mnem[:-5] + "_e32", ("",))[0] in ("VOP1",
                                                                               "VOP2",
                                                                               "VOPC"):
        enc, op = _BY_NAME[mnem[:-5] + "_e32"]
        ins = Instr(addr, 8, enc, op, mnem, _sdwa(mnem, enc, ops, mods))
        return ins, None
    if mnem in UNSCALED_NAME:
        return _scaled_mfma(mnem, ops, mods, addr), None
    if mnem not in _BY_NAME:
        raise LineError(f"unknown instruction {mnem!r}")
    enc, op = _BY_NAME[mnem]
    o = _Operands(mnem, enc, op, rest, ops, mods)
    f = _READERS[enc](o)
    size = 4 if enc in ("SOP2", "SOP1", "SOPC", "SOPK", "SOPP", "VOP1", "VOP2", "VOPC") else 8
    if o.lit is not None:
        size += 4
    ins = Instr(addr, size, enc, op, mnem, f, o.lit)
    return ins, o.label


class _Operands:
    """The operands of one line, and what reading them found: the literal (one per
    instruction) and a branch label."""

    def __init__(self, mnem: str, enc: str, op: int, rest: str, ops: list[str],
                 mods: list[str]) -> None:
        self.mnem, self.enc, self.op, self.rest, self.ops, self.mods = \
            mnem, enc, op, rest, ops, mods
        self.lit: int | None = None
        self.label: str | None = None

    def take_lit(self, v: int | None) -> None:
        if v is not None:
            if self.lit is not None and self.lit != v:
                raise LineError("two different literals in one instruction")
            self.lit = v

    def need(self, n: int) -> None:
        if len(self.ops) != n:
            raise LineError(f"{self.mnem} takes {n} operands, got {len(self.ops)}")


def _sopp(o: _Operands) -> dict:
    mnem, ops, mods = o.mnem, o.ops, o.mods
    if mnem != "s_waitcnt":
        _check_mods(mods, ())
    if mnem == "s_waitcnt":
        return dict(imm=_waitcnt_imm(o))
    if mnem in BRANCHES:
        o.need(1)
        if re.match(r"^-?\d+$", ops[0]):
            return dict(imm=_int(ops[0]) & 0xFFFF)
        o.label = ops[0]
        return dict(imm=0)
    if mnem == "s_set_gpr_idx_mode":
        o.need(1)
        return dict(imm=_gpr_idx_mask(ops[0]))
    return dict(imm=_int(ops[0]) & 0xFFFF if ops else 0)


def _gpr_idx_mask(text: str) -> int:
    """The 4-bit mask of the VGPR index mode: ``gpr_idx(SRC0,DST)`` or a number 0..15."""
    m = re.match(r"^gpr_idx\(([A-Z0-9,]*)\)$", text)
    if not m:
        v = _int(text)
        if not 0 <= v <= 15:
            raise LineError(f"the index mode {text!r} is not 0..15 or gpr_idx(...)")
        return v
    names = [n for n in m.group(1).split(",") if n]
    if any(n not in GPR_IDX_SLOTS for n in names) or len(set(names)) != len(names):
        raise LineError(f"the index mode {text!r} names an operand twice or one other than "
                        f"{', '.join(GPR_IDX_SLOTS)}")
    return sum(1 << GPR_IDX_SLOTS.index(n) for n in names)


def _waitcnt_imm(o: _Operands) -> int:
    """The immediate of ``s_waitcnt``: a number, or ``vmcnt(n) expcnt(n) lgkmcnt(n)``
    (a counter left out: not waited for)."""
    vm, exp, lg = VMCNT.max, EXPCNT.max, LGKMCNT.max
    fields = (o.ops + o.mods) if o.ops else o.mods
    if len(fields) == 1 and re.match(r"^(0x[0-9a-fA-F]+|\d+)$", fields[0]):
        return _int(fields[0])
    for item in " ".join(o.rest.split(",")).split():
        m = re.match(r"^(vmcnt|expcnt|lgkmcnt)\((\d+)\)$", item)
        if not m:
            raise LineError(f"cannot read the wait {item!r}")
        v = int(m.group(2))
        if m.group(1) == "vmcnt":
            vm = v
        elif m.group(1) == "expcnt":
            exp = v
        else:
            lg = v
    try:
        return waitcnt_imm(vm, exp, lg)
    except ConfigError as e:
        raise LineError(str(e)) from None


def _sop2(o: _Operands) -> dict:
    o.need(3)
    c0, l0, _ = parse_src(o.ops[1])
    c1, l1, _ = parse_src(o.ops[2])
    o.take_lit(l0), o.take_lit(l1)
    return dict(dst=_sreg(o.ops[0]), src0=c0, src1=c1)


def _sop1(o: _Operands) -> dict:
    mnem, ops = o.mnem, o.ops
    if mnem == "s_getpc_b64":
        o.need(1)
        return dict(dst=_sreg(ops[0]), src0=0)
    if mnem in ("s_setpc_b64", "s_rfe_b64", "s_set_gpr_idx_idx"):
        o.need(1)
        c0, l0, _ = parse_src(ops[0])
        o.take_lit(l0)
        return dict(dst=0, src0=c0)
    o.need(2)
    c0, l0, _ = parse_src(ops[1])
    o.take_lit(l0)
    return dict(dst=_sreg(ops[0]), src0=c0)


def _sopc(o: _Operands) -> dict:
    o.need(2)
    if o.mnem == "s_set_gpr_idx_on":
        c0, l0, _ = parse_src(o.ops[0])
        o.take_lit(l0)
        return dict(src0=c0, src1=_gpr_idx_mask(o.ops[1]))
    c0, l0, _ = parse_src(o.ops[0])
    c1, l1, _ = parse_src(o.ops[1])
    o.take_lit(l0), o.take_lit(l1)
    return dict(src0=c0, src1=c1)


#: gfx9's hardware registers by LLVM's ``hwreg(...)`` name
_HWREGS = {"HW_REG_MODE": 1, "HW_REG_STATUS": 2, "HW_REG_TRAPSTS": 3, "HW_REG_HW_ID": 4,
           "HW_REG_GPR_ALLOC": 5, "HW_REG_LDS_ALLOC": 6, "HW_REG_IB_STS": 7}


def _hwreg(text: str) -> int:
    """``hwreg(NAME|id[, offset, size])`` (or a number) -> the 16-bit field: id | offset << 6
    | (size - 1) << 11, as LLVM encodes it (size 32 from bit 0 when not given)."""
    m = re.fullmatch(r"hwreg\(\s*(\w+)\s*(?:,\s*(\d+)\s*,\s*(\d+)\s*)?\)", text)
    if m is None:
        return _int(text) & 0xFFFF
    name, off, size = m.group(1), int(m.group(2) or 0), int(m.group(3) or 32)
    rid = int(name) if name.isdigit() else _HWREGS.get(name)
    if rid is None or rid > 63 or off > 31 or not 1 <= size <= 32 - off:
        raise LineError(f"bad hardware register {text!r} (a name of {sorted(_HWREGS)} or an "
                        f"id < 64, offset < 32, 1 <= size <= 32 - offset)")
    return rid | off << 6 | (size - 1) << 11


def _sopk(o: _Operands) -> dict:
    o.need(2)
    if o.mnem == "s_setreg_b32":           # hwreg(...), the SGPR written to it
        return dict(dst=_sreg(o.ops[1]), imm=_hwreg(o.ops[0]))
    if o.mnem == "s_getreg_b32":
        return dict(dst=_sreg(o.ops[0]), imm=_hwreg(o.ops[1]))
    return dict(dst=_sreg(o.ops[0]), imm=_int(o.ops[1]) & 0xFFFF)


def _smem(o: _Operands) -> dict:
    ops, mods = o.ops, o.mods
    o.need(3)
    _check_mods(mods, ("glc",))
    base = _reg(ops[1])
    if not base or base[0] != "s":
        raise LineError(f"expected the SGPR base, got {ops[1]!r}")
    if re.match(r"^(0x[0-9a-fA-F]+|\d+)$", ops[2]):
        imm, offset = 1, _int(ops[2])
    else:
        imm, offset = 0, _sreg(ops[2])
    return dict(dst=_sreg(ops[0]), sbase=base[1], imm=imm, glc=int("glc" in mods), soe=0,
                offset=offset, soffset=0)


def _vop(o: _Operands) -> dict:
    """VOP1, VOP2 and VOPC (the e32 forms): VOPC writes vcc, the carry operations name
    vcc as operands."""
    mnem, enc, ops = o.mnem, o.enc, o.ops
    _check_mods(o.mods, ())
    base = mnem[:-4] if mnem.endswith("_e32") else mnem
    if enc == "VOPC":
        o.need(3)
        if ops[0] != "vcc":
            raise LineError(f"{mnem} writes vcc, got {ops[0]!r}")
        srcs, dst = ops[1:], None
    elif enc == "VOP2" and base in VOP2_CARRY_OUT:
        o.need(5 if base in VOP2_CARRY_IN else 4)
        if ops[1] != "vcc" or (base in VOP2_CARRY_IN and ops[4] != "vcc"):
            raise LineError(f"{mnem}: the carry operands must be vcc")
        dst, srcs = ops[0], ops[2:4]
    elif enc == "VOP2" and base in VOP2_CARRY_IN:
        o.need(4)
        dst, srcs = ops[0], ops[1:3]
    elif enc == "VOP1":
        o.need(2)
        dst, srcs = ops[0], ops[1:]
        if base == "v_accvgpr_mov_b32":      # AGPR to AGPR
            return dict(dst=_vreg(dst, "a"), src0=VGPR0 + _vreg(srcs[0], "a"))
    else:
        o.need(3)
        dst, srcs = ops[0], ops[1:]
    c0, l0, _ = parse_src(srcs[0])
    o.take_lit(l0)
    if enc == "VOP1":
        d = _sreg(dst) if mnem == "v_readfirstlane_b32" else _vreg(dst)
        return dict(dst=d, src0=c0)
    c1 = VGPR0 + _vreg(srcs[1])
    return dict(src0=c0, src1=c1) if enc == "VOPC" else dict(dst=_vreg(dst), src0=c0, src1=c1)


_SELECTS = {name: k for k, (name, _s, _b) in SDWA_SELECTS.items()}
_UNUSED = {name: k for k, name in SDWA_UNUSED.items()}


def _sdwa(mnem: str, enc: str, ops: list[str], mods: list[str]) -> dict:
    """The fields of a VOP1/VOP2/VOPC SDWA instruction (``v_add_u32_sdwa v7, v1, sext(v7)
    dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0``; a comparison's
    first operand its SGPR pair: ``v_cmp_gt_u16_sdwa s[0:1], v5, v7 src0_sel:BYTE_0
    src1_sel:DWORD``)."""
    nsrc = 2 if enc in ("VOP2", "VOPC") else 1
    b = mnem[:-5]
    _check_mods(mods, ("src0_sel", "src1_sel") if enc == "VOPC" else
                ("clamp", "mul", "div", "dst_sel", "dst_unused", "src0_sel", "src1_sel"))
    if b == "v_cndmask_b32" and len(ops) == 4 and ops[3].strip() == "vcc":
        ops = ops[:3]                   # VCC, the select's condition, is implicit
    elif b in VOP2_CARRY_OUT or b in VOP2_CARRY_IN:
        raise LineError(f"{mnem}: SDWA forms with a carry are not read")
    if len(ops) != nsrc + 1:
        raise LineError(f"{mnem} takes {nsrc + 1} operands, got {len(ops)}")

    def sel(key, table, default):
        for m in mods:
            if m.startswith(key + ":"):
                v = m.split(":", 1)[1]
                if v not in table:
                    raise LineError(f"{mnem}: unknown {key} {v!r}")
                return table[v]
        return default

    omod = {"mul:2": 1, "mul:4": 2, "div:2": 3}
    if enc == "VOPC":
        code, lit, _acc = parse_src(ops[0].strip())
        if lit is not None or code > VCC:
            raise LineError(f"{mnem}: the mask goes to VCC or an SGPR pair, got {ops[0]!r}")
        f = dict(sdst=code, sdwa=1)
    else:
        f = dict(dst=_vreg(ops[0]), sdwa=1, dst_sel=sel("dst_sel", _SELECTS, 6),
                 dst_unused=sel("dst_unused", _UNUSED, 0), clamp=int("clamp" in mods),
                 omod=next((omod[m] for m in mods if m in omod), 0))
    for k, t in enumerate(ops[1:]):
        t = t.strip()
        neg = int(t.startswith("-"))
        t = t[neg:]
        absv = int(t.startswith("|") and t.endswith("|"))
        t = t[1:-1] if absv else t
        sext = int(t.startswith("sext(") and t.endswith(")"))
        t = t[5:-1] if sext else t
        code, lit, _acc = parse_src(t)
        if lit is not None or (128 <= code < VGPR0):
            raise LineError(f"{mnem}: SDWA sources are registers, got {t!r}")
        f.update({f"src{k}": code, f"src{k}_sel": sel(f"src{k}_sel", _SELECTS, 6),
                  f"src{k}_sext": sext, f"src{k}_neg": neg, f"src{k}_abs": absv})
    return f


def _vop3(mnem: str, op: int, ops: list[str], mods: list[str]) -> dict:
    b = mnem[:-4] if mnem.endswith("_e64") else mnem
    _check_mods(mods, ("clamp", "mul", "div", "bitop3")
                + (("op_sel",) if b in FP8_DST_SEL else ()))
    f = dict(dst=0, src0=0, src1=0, src2=0)
    probe = Instr(0, 8, "VOP3", op, mnem, {})
    nsrc = vop3_sources(probe)
    i = 0
    if op < 0x100 or mnem in ("v_readlane_b32", "v_readfirstlane_b32"):
        f["dst"] = _sreg(ops[0])
        nsrc = 1 if mnem == "v_readfirstlane_b32" else 2
    else:
        f["dst"] = _vreg(ops[0])
    i = 1
    if mnem in VOP3B:
        f["sdst"] = _sreg(ops[1])
        i = 2
    srcs = ops[i:]
    if len(srcs) != nsrc:
        raise LineError(f"{mnem} takes {nsrc} sources, got {len(srcs)}")
    neg = absv = 0
    for k, t in enumerate(srcs):
        if b in ("v_cndmask_b32", "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32") \
                and k == 2:
            f["src2"] = _sreg(t)
            continue
        code, lit, _acc, n, a = _modsrc(t)
        if lit is not None:
            raise LineError(f"{mnem}: VOP3 instructions take no literal on {NAME} ({t})")
        f[f"src{k}"] = code
        neg |= n << k
        absv |= a << k
    omod = {"mul:2": 1, "mul:4": 2, "div:2": 3}
    om = next((omod[m] for m in mods if m in omod), 0)
    clamp = int("clamp" in mods)
    if mnem in VOP3B:
        f.update(sdst=f.get("sdst", 0), clamp=clamp, omod=om, neg=neg)
    else:
        f.update(abs=absv, opsel=_dst_opsel(mods), clamp=clamp, omod=om, neg=neg)
    if mnem.startswith("v_bitop3"):
        v = _mod_value(mods, "bitop3")
        f.update(neg=v & 7, abs=(v >> 3) & 7, omod=(v >> 6) & 3)
    return f


def _scaled_mfma(mnem: str, ops: list[str], mods: list[str], addr: int) -> Instr:
    """A scaled MFMA line: the MFMA's four operands and fields, then the two scale operands
    and their op_sel bits (:mod:`pipeline_mlir.emu.scaled`); 16 bytes."""
    if len(ops) != 6:
        raise LineError(f"{mnem} takes 6 operands (D, A, B, C, scale A, scale B), got "
                        f"{len(ops)}")
    base = UNSCALED_NAME[mnem]
    f = _vop3p(base, ops[:4], [m for m in mods if not m.startswith("op_sel")])
    try:
        f.update(scale_fields(ops[4:], mods, parse_src, lambda k, d: _bits(mods, k, d)))
    except ValueError as e:
        raise LineError(f"{mnem}: {e}") from None
    return Instr(addr, 16, "VOP3P", _BY_NAME[base][1], mnem, f)


def _dst_opsel(mods: list[str]) -> int:
    """The op_sel bits of an :data:`FP8_DST_SEL` conversion: LLVM prints one entry per
    source and the destination's last (``op_sel:[0,0,1]``), whose bit is 3."""
    bits = _bits(mods, "op_sel", 0)
    if any(m.startswith("op_sel:[") and m.count(",") == 2 for m in mods):
        bits = (bits & 3) | ((bits & 4) << 1)
    return bits


def _bits(mods: list[str], key: str, default: int) -> int:
    """A ``key:[b0,b1,..]`` modifier as bits (bit k = entry k), ``default`` if absent."""
    for m in mods:
        if m.startswith(key + ":["):
            vals = [_int(x) for x in m[len(key) + 2:-1].split(",")]
            out = default
            for k, v in enumerate(vals):
                out = (out & ~(1 << k)) | (v << k)
            return out
    return default


def _vop3p(mnem: str, ops: list[str], mods: list[str]) -> dict:
    if mnem.startswith(("v_mfma", "v_smfmac")):
        _check_mods(mods, ("cbsz", "abid", "blgp"))
        if len(ops) != 4:
            raise LineError(f"{mnem} takes 4 operands, got {len(ops)}")
        d = _reg(ops[0])
        if not d or d[0] not in "va":
            raise LineError(f"expected a v/a register destination, got {ops[0]!r}")
        c0, l0, a0 = parse_src(ops[1], agpr=True)
        c1, l1, a1 = parse_src(ops[2], agpr=True)
        c2, l2, a2 = parse_src(ops[3], agpr=True)
        if l0 is not None or l1 is not None or l2 is not None:
            raise LineError(f"{mnem} takes no literal")
        return dict(dst=d[1], src0=c0, src1=c1, src2=c2, cbsz=_mod_value(mods, "cbsz"),
                    abid=_mod_value(mods, "abid"), acc_cd=int(d[0] == "a"),
                    acc=int(a0) | (int(a1) << 1), blgp=_mod_value(mods, "blgp"))
    _check_mods(mods, ("op_sel", "op_sel_hi", "neg_lo", "neg_hi", "clamp"))
    if mnem == "v_accvgpr_read_b32":
        return dict(dst=_vreg(ops[0]), src0=VGPR0 + _vreg(ops[1], "a"), src1=0, src2=0,
                    neg_hi=0, opsel=0, opsel_hi=7, clamp=0, neg=0)
    if mnem == "v_accvgpr_write_b32":
        c0, l0, _ = parse_src(ops[1])
        return dict(dst=_vreg(ops[0], "a"), src0=c0, src1=0, src2=0, neg_hi=0, opsel=0,
                    opsel_hi=7, clamp=0, neg=0)
    nsrc = 3 if mnem.startswith(("v_pk_fma", "v_pk_mad", "v_fma_mix", "v_dot")) else 2
    if len(ops) != nsrc + 1:
        raise LineError(f"{mnem} takes {nsrc + 1} operands, got {len(ops)}")
    f = dict(dst=_vreg(ops[0]), src0=0, src1=0, src2=0, neg_hi=0, opsel=0, opsel_hi=7,
             clamp=int("clamp" in mods), neg=0)
    for k, t in enumerate(ops[1:]):
        code, lit, _acc, n, a = _modsrc(t)
        if lit is not None or a:
            raise LineError(f"{mnem}: unexpected operand {t!r}")
        f[f"src{k}"] = code
        f["neg"] |= n << k
    f.update(opsel=_bits(mods, "op_sel", 0), opsel_hi=_bits(mods, "op_sel_hi", 7),
             neg_hi=_bits(mods, "neg_hi", 0))
    return f


def _ds(mnem: str, ops: list[str], mods: list[str]) -> dict:
    _check_mods(mods, ("offset", "offset0", "offset1", "gds"))
    f = dict(offset0=0, offset1=0, gds=int("gds" in mods), acc=0, addr=0, data0=0, data1=0,
             dst=0)
    if mnem.startswith(("ds_read", "ds_load")):
        if len(ops) != 2:
            raise LineError(f"{mnem} takes 2 operands")
        dst, acc = _data_reg(ops[0])
        f.update(dst=dst, addr=_vreg(ops[1]), acc=acc)
    elif mnem in ("ds_permute_b32", "ds_bpermute_b32"):
        if len(ops) != 3:
            raise LineError(f"{mnem} takes 3 operands")
        dst, acc = _data_reg(ops[0])
        data0, acc1 = _data_reg(ops[2])
        if acc1 != acc:
            raise LineError(f"{mnem}: both data operands are VGPRs or both AGPRs")
        f.update(dst=dst, addr=_vreg(ops[1]), data0=data0, acc=acc)
    else:
        if not 2 <= len(ops) <= 3:
            raise LineError(f"{mnem} takes 2 or 3 operands")
        data0, acc = _data_reg(ops[1])
        f.update(addr=_vreg(ops[0]), data0=data0, acc=acc)
        if len(ops) == 3:
            data1, acc1 = _data_reg(ops[2])
            if acc1 != acc:
                raise LineError(f"{mnem}: both data operands are VGPRs or both AGPRs")
            f["data1"] = data1
    off = _mod_value(mods, "offset")
    f["offset0"] = _mod_value(mods, "offset0", off & 0xFF)
    f["offset1"] = _mod_value(mods, "offset1", off >> 8)
    return f


def _mubuf(mnem: str, ops: list[str], mods: list[str]) -> dict:
    if mnem in CACHE_CONTROLS:      # ``buffer_wbl2 sc0 sc1``: no operands, the fields 0
        _check_mods(ops + mods, ("sc0", "sc1"))
        return dict(offset=0, offen=0, idxen=0, sc0=int("sc0" in ops + mods), nt=0, lds=0,
                    sc1=int("sc1" in ops + mods), vaddr=0, data=0, srsrc=0, acc=0, soffset=0)
    _check_mods(mods, ("offen", "idxen", "offset", "sc0", "sc1", "nt", "lds"))
    lds = int("lds" in mods)
    want = 3 if lds else 4
    if len(ops) != want:
        raise LineError(f"{mnem} takes {want} operands, got {len(ops)}")
    data = 0
    acc = 0
    if not lds:
        data, acc = _data_reg(ops[0])
        ops = ops[1:]
    vaddr = 0 if ops[0] == "off" else _vreg(ops[0])
    rs = _reg(ops[1])
    if not rs or rs[0] != "s" or rs[2] != 4:
        raise LineError(f"expected the buffer resource s[n:n+3], got {ops[1]!r}")
    soff, lit, _ = parse_src(ops[2])
    if lit is not None:
        raise LineError("the buffer offset operand takes no literal")
    return dict(offset=_mod_value(mods, "offset"), offen=int("offen" in mods),
                idxen=int("idxen" in mods), sc0=int("sc0" in mods), nt=int("nt" in mods),
                lds=lds, sc1=int("sc1" in mods), vaddr=vaddr, data=data, srsrc=rs[1], acc=acc,
                soffset=soff)


def _flat(mnem: str, enc: str, ops: list[str], mods: list[str]) -> dict:
    _check_mods(mods, ("offset", "sc0", "sc1", "nt"))
    f = dict(offset=_mod_value(mods, "offset"), lds=0, sc0=int("sc0" in mods),
             sc1=int("sc1" in mods), nt=int("nt" in mods), vaddr=0, data=0, saddr=0x7F,
             acc=0, dst=0)
    if enc == "FLAT":
        f["saddr"] = 0
    if enc != "FLAT":
        saddr = ops.pop()
        if saddr != "off":
            f["saddr"] = _sreg(saddr)
    if "_atomic_" in mnem:      # ``[vdst,] vaddr, vdata``: sc0 returns the old value
        if len(ops) != 2 + f["sc0"]:
            raise LineError(f"{mnem} takes {2 + f['sc0']} register operands "
                            f"{'with' if f['sc0'] else 'without'} sc0, got {len(ops)}")
        if f["sc0"]:
            f["dst"], f["acc"] = _data_reg(ops.pop(0))
        vaddr = ops[0]
        f["data"], f["acc"] = _data_reg(ops[1])
    elif "_lds_" in mnem:
        vaddr = ops[0]
    elif "store" in mnem:
        vaddr = ops[0]
        f["data"], f["acc"] = _data_reg(ops[1])
    else:
        f["dst"], f["acc"] = _data_reg(ops[0])
        vaddr = ops[1]
    if enc == "SCRATCH":            # a scratch address without a VGPR: ``off`` (SVE 0)
        f["sve"] = int(vaddr != "off")
        if vaddr == "off":
            return f
    f["vaddr"] = _vreg(vaddr)
    return f


def _data_reg(text: str) -> tuple[int, int]:
    """(first register, 1 for AGPRs) of the data operand of a memory instruction."""
    r = _reg(text.strip())
    if not r or r[0] not in "va":
        raise LineError(f"expected the data register (v or a), got {text!r}")
    return r[1], int(r[0] == "a")


#: the reader of the fields of each encoding
_READERS = {"SOPP": _sopp, "SOP2": _sop2, "SOP1": _sop1, "SOPC": _sopc, "SOPK": _sopk,
            "SMEM": _smem, "VOP1": _vop, "VOP2": _vop, "VOPC": _vop,
            "VOP3": lambda o: _vop3(o.mnem, o.op, o.ops, o.mods),
            "VOP3P": lambda o: _vop3p(o.mnem, o.ops, o.mods),
            "DS": lambda o: _ds(o.mnem, o.ops, o.mods),
            "MUBUF": lambda o: _mubuf(o.mnem, o.ops, o.mods),
            **dict.fromkeys(("FLAT", "GLOBAL", "SCRATCH"),
                            lambda o: _flat(o.mnem, o.enc, o.ops, o.mods))}
