"""gfx950 assembly text -> the same :class:`~pipeline_mlir.emu.decode.Instr` records the decoder
produces (the emulator's fallback input, and what mutation tests edit).

Each instruction line is read back into its encoding, opcode and operand fields; the
addresses are the ones the instructions would have in the code object (sizes follow
from the encoding and a literal), so branch labels become the same offsets the decoder
sees.  The kernel descriptor comes from the ``.amdhsa_kernel`` block, the kernel's
metadata (its arguments, workgroup size) from the ``.amdgpu_metadata`` document, as in
the code object.  Only the syntax LLVM prints is accepted; anything else is an error
naming the line.
"""

from __future__ import annotations

import re

from pipeline_mlir.emu.codeobj import Kernel, launch_from_descriptor
from pipeline_mlir.emu.decode import (BRANCHES, LITERAL, SDWA_SELECTS, SDWA_UNUSED, VGPR0,
                                      VOP2_CARRY_IN, VOP2_CARRY_OUT, VOP3B, Instr,
                                      _vop3_sources, format_instr)
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.opcodes import TABLES
from pipeline_mlir.isa.asm import AsmError, parse_yaml
from pipeline_mlir.target.gfx950 import EXPCNT, LGKMCNT, NAME, VMCNT

_BY_NAME: dict[str, tuple[str, int]] = {}
for _enc, _table in TABLES.items():
    for _op, _name in _table.items():
        _BY_NAME.setdefault(_name, (_enc, _op))

_FLOATS = {v: k for k, v in {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0",
                             245: "-2.0", 246: "4.0", 247: "-4.0", 248: "0.15915494"}.items()}
_SPECIAL = {"vcc": 106, "vcc_lo": 106, "vcc_hi": 107, "exec": 126, "exec_lo": 126,
            "exec_hi": 127, "m0": 124, "flat_scratch": 102, "flat_scratch_lo": 102,
            "flat_scratch_hi": 103, "xnack_mask": 104, "src_vccz": 251, "src_execz": 252,
            "src_scc": 253, "scc": 253, "vccz": 251, "execz": 252}
_REG = re.compile(r"^(v|s|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):")


class _Line(Exception):
    pass


def _reg(text: str):
    """(kind, first, count) of a register operand, or None."""
    m = _REG.match(text)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    lo, hi = int(m.group(3)), int(m.group(4))
    if hi < lo:
        raise _Line(f"register range {text!r} ends before it starts")
    return m.group(1), lo, hi - lo + 1


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise _Line(f"expected an integer, got {text!r}") from None


def parse_src(text: str) -> tuple[int, int | None, bool]:
    """(operand code, literal, is AGPR) of a source operand."""
    t = text.strip()
    r = _reg(t)
    if r:
        kind, first, _n = r
        if kind == "s":
            return first, None, False
        if kind == "ttmp":
            return 108 + first, None, False
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
            raise _Line(f"literal {t} does not fit in 32 bits")
        return LITERAL, v & 0xFFFFFFFF, False
    raise _Line(f"cannot read the operand {t!r}")


def _sreg(text: str) -> int:
    code, lit, _ = parse_src(text)
    if lit is not None or code >= VGPR0 or 128 <= code <= 250:
        raise _Line(f"expected a scalar register, got {text!r}")
    return code


def _vreg(text: str, kinds="v") -> int:
    r = _reg(text.strip())
    if not r or r[0] not in kinds:
        raise _Line(f"expected a {'/'.join(kinds)} register, got {text!r}")
    return r[1]


def _split(rest: str) -> tuple[list[str], list[str]]:
    """Operands (comma separated) and trailing space-separated modifiers."""
    parts = [p.strip() for p in rest.split(",")] if rest.strip() else []
    mods: list[str] = []
    if parts:
        last = parts[-1].split()
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
            raise _Line(f"unexpected modifier {m!r}")


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
                                                                               "VOP2"):
        enc, op = _BY_NAME[mnem[:-5] + "_e32"]
        ins = Instr(addr, 8, enc, op, mnem, _sdwa(mnem, enc, ops, mods))
        return ins, None
    if mnem not in _BY_NAME:
        raise _Line(f"unknown instruction {mnem!r}")
    enc, op = _BY_NAME[mnem]
    f: dict = {}
    lit = None
    label = None

    def take_lit(v):
        nonlocal lit
        if v is not None:
            if lit is not None and lit != v:
                raise _Line("two different literals in one instruction")
            lit = v

    def need(n):
        if len(ops) != n:
            raise _Line(f"{mnem} takes {n} operands, got {len(ops)}")

    if enc == "SOPP":
        if mnem != "s_waitcnt":
            _check_mods(mods, ())
        if mnem == "s_waitcnt":
            vm, exp, lg = VMCNT.max, EXPCNT.max, LGKMCNT.max
            fields = (ops + mods) if ops else mods
            if len(fields) == 1 and re.match(r"^(0x[0-9a-fA-F]+|\d+)$", fields[0]):
                imm = _int(fields[0])
            else:
                for item in " ".join(rest.split(",")).split():
                    m = re.match(r"^(vmcnt|expcnt|lgkmcnt)\((\d+)\)$", item)
                    if not m:
                        raise _Line(f"cannot read the wait {item!r}")
                    v = int(m.group(2))
                    if m.group(1) == "vmcnt":
                        vm = v
                    elif m.group(1) == "expcnt":
                        exp = v
                    else:
                        lg = v
                imm = VMCNT.encode(vm) | EXPCNT.encode(exp) | LGKMCNT.encode(lg)
            f = dict(imm=imm)
            mods = []
        elif mnem in BRANCHES:
            need(1)
            if re.match(r"^-?\d+$", ops[0]):
                f = dict(imm=_int(ops[0]) & 0xFFFF)
            else:
                label, f = ops[0], dict(imm=0)
        else:
            f = dict(imm=_int(ops[0]) & 0xFFFF if ops else 0)
    elif enc == "SOP2":
        need(3)
        c0, l0, _ = parse_src(ops[1])
        c1, l1, _ = parse_src(ops[2])
        take_lit(l0), take_lit(l1)
        f = dict(dst=_sreg(ops[0]), src0=c0, src1=c1)
    elif enc == "SOP1":
        if mnem == "s_getpc_b64":
            need(1)
            f = dict(dst=_sreg(ops[0]), src0=0)
        elif mnem in ("s_setpc_b64", "s_rfe_b64"):
            need(1)
            c0, l0, _ = parse_src(ops[0])
            take_lit(l0)
            f = dict(dst=0, src0=c0)
        else:
            need(2)
            c0, l0, _ = parse_src(ops[1])
            take_lit(l0)
            f = dict(dst=_sreg(ops[0]), src0=c0)
    elif enc == "SOPC":
        need(2)
        c0, l0, _ = parse_src(ops[0])
        c1, l1, _ = parse_src(ops[1])
        take_lit(l0), take_lit(l1)
        f = dict(src0=c0, src1=c1)
    elif enc == "SOPK":
        need(2)
        f = dict(dst=_sreg(ops[0]), imm=_int(ops[1]) & 0xFFFF)
    elif enc == "SMEM":
        need(3)
        _check_mods(mods, ("glc",))
        base = _reg(ops[1])
        if not base or base[0] != "s":
            raise _Line(f"expected the SGPR base, got {ops[1]!r}")
        if re.match(r"^(0x[0-9a-fA-F]+|\d+)$", ops[2]):
            imm, offset = 1, _int(ops[2])
        else:
            imm, offset = 0, _sreg(ops[2])
        f = dict(dst=_sreg(ops[0]), sbase=base[1], imm=imm, glc=int("glc" in mods), soe=0,
                 offset=offset, soffset=0)
    elif enc in ("VOP1", "VOP2", "VOPC"):
        _check_mods(mods, ())
        base = mnem[:-4] if mnem.endswith("_e32") else mnem
        if enc == "VOPC":
            need(3)
            if ops[0] != "vcc":
                raise _Line(f"{mnem} writes vcc, got {ops[0]!r}")
            srcs, dst = ops[1:], None
        elif enc == "VOP2" and base in VOP2_CARRY_OUT:
            need(5 if base in VOP2_CARRY_IN else 4)
            if ops[1] != "vcc" or (base in VOP2_CARRY_IN and ops[4] != "vcc"):
                raise _Line(f"{mnem}: the carry operands must be vcc")
            dst, srcs = ops[0], ops[2:4]
        elif enc == "VOP2" and base in VOP2_CARRY_IN:
            need(4)
            dst, srcs = ops[0], ops[1:3]
        elif enc == "VOP1":
            need(2)
            dst, srcs = ops[0], ops[1:]
        else:
            need(3)
            dst, srcs = ops[0], ops[1:]
        c0, l0, _ = parse_src(srcs[0])
        take_lit(l0)
        if enc == "VOP1":
            d = _sreg(dst) if mnem == "v_readfirstlane_b32" else _vreg(dst)
            f = dict(dst=d, src0=c0)
        else:
            c1 = VGPR0 + _vreg(srcs[1])
            f = dict(src0=c0, src1=c1) if enc == "VOPC" else dict(dst=_vreg(dst), src0=c0,
                                                                  src1=c1)
    elif enc == "VOP3":
        f = _vop3(mnem, op, ops, mods)
    elif enc == "VOP3P":
        f = _vop3p(mnem, ops, mods)
    elif enc == "DS":
        f = _ds(mnem, ops, mods)
    elif enc == "MUBUF":
        f = _mubuf(mnem, ops, mods)
    else:
        f = _flat(mnem, enc, ops, mods)
    size = 4 if enc in ("SOP2", "SOP1", "SOPC", "SOPK", "SOPP", "VOP1", "VOP2", "VOPC") else 8
    if lit is not None:
        size += 4
    ins = Instr(addr, size, enc, op, mnem, f, lit)
    return ins, label


_SELECTS = {name: k for k, (name, _s, _b) in SDWA_SELECTS.items()}
_UNUSED = {name: k for k, name in SDWA_UNUSED.items()}


def _sdwa(mnem: str, enc: str, ops: list[str], mods: list[str]) -> dict:
    """The fields of a VOP1/VOP2 SDWA instruction (``v_add_u32_sdwa v7, v1, sext(v7)
    dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0``)."""
    nsrc = 2 if enc == "VOP2" else 1
    b = mnem[:-5]
    _check_mods(mods, ("clamp", "mul", "div", "dst_sel", "dst_unused", "src0_sel",
                       "src1_sel"))
    if b in VOP2_CARRY_OUT or b in VOP2_CARRY_IN:
        raise _Line(f"{mnem}: SDWA forms with a carry are not read")
    if len(ops) != nsrc + 1:
        raise _Line(f"{mnem} takes {nsrc + 1} operands, got {len(ops)}")

    def sel(key, table, default):
        for m in mods:
            if m.startswith(key + ":"):
                v = m.split(":", 1)[1]
                if v not in table:
                    raise _Line(f"{mnem}: unknown {key} {v!r}")
                return table[v]
        return default

    omod = {"mul:2": 1, "mul:4": 2, "div:2": 3}
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
            raise _Line(f"{mnem}: SDWA sources are registers, got {t!r}")
        f.update({f"src{k}": code, f"src{k}_sel": sel(f"src{k}_sel", _SELECTS, 6),
                  f"src{k}_sext": sext, f"src{k}_neg": neg, f"src{k}_abs": absv})
    return f


def _vop3(mnem: str, op: int, ops: list[str], mods: list[str]) -> dict:
    _check_mods(mods, ("clamp", "mul", "div", "bitop3"))
    f = dict(dst=0, src0=0, src1=0, src2=0)
    probe = Instr(0, 8, "VOP3", op, mnem, {})
    nsrc = _vop3_sources(probe)
    b = mnem[:-4] if mnem.endswith("_e64") else mnem
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
        raise _Line(f"{mnem} takes {nsrc} sources, got {len(srcs)}")
    neg = absv = 0
    for k, t in enumerate(srcs):
        if b in ("v_cndmask_b32", "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32") \
                and k == 2:
            f["src2"] = _sreg(t)
            continue
        code, lit, _acc, n, a = _modsrc(t)
        if lit is not None:
            raise _Line(f"{mnem}: VOP3 instructions take no literal on {NAME} ({t})")
        f[f"src{k}"] = code
        neg |= n << k
        absv |= a << k
    omod = {"mul:2": 1, "mul:4": 2, "div:2": 3}
    om = next((omod[m] for m in mods if m in omod), 0)
    clamp = int("clamp" in mods)
    if mnem in VOP3B:
        f.update(sdst=f.get("sdst", 0), clamp=clamp, omod=om, neg=neg)
    else:
        f.update(abs=absv, opsel=0, clamp=clamp, omod=om, neg=neg)
    if mnem.startswith("v_bitop3"):
        v = _mod_value(mods, "bitop3")
        f.update(neg=v & 7, abs=(v >> 3) & 7, omod=(v >> 6) & 3)
    return f


def _vop3p(mnem: str, ops: list[str], mods: list[str]) -> dict:
    if mnem.startswith(("v_mfma", "v_smfmac")):
        _check_mods(mods, ("cbsz", "abid", "blgp"))
        if len(ops) != 4:
            raise _Line(f"{mnem} takes 4 operands, got {len(ops)}")
        d = _reg(ops[0])
        if not d or d[0] not in "va":
            raise _Line(f"expected a v/a register destination, got {ops[0]!r}")
        c0, l0, a0 = parse_src(ops[1])
        c1, l1, a1 = parse_src(ops[2])
        c2, l2, a2 = parse_src(ops[3])
        if l0 is not None or l1 is not None or l2 is not None:
            raise _Line(f"{mnem} takes no literal")
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
        raise _Line(f"{mnem} takes {nsrc + 1} operands, got {len(ops)}")
    f = dict(dst=_vreg(ops[0]), src0=0, src1=0, src2=0, neg_hi=0, opsel=0, opsel_hi=7,
             clamp=int("clamp" in mods), neg=0)
    for k, t in enumerate(ops[1:]):
        code, lit, _acc, n, a = _modsrc(t)
        if lit is not None or a:
            raise _Line(f"{mnem}: unexpected operand {t!r}")
        f[f"src{k}"] = code
        f["neg"] |= n << k

    def bits(key, default):
        for m in mods:
            if m.startswith(key + ":["):
                vals = [_int(x) for x in m[len(key) + 2:-1].split(",")]
                out = default
                for k, v in enumerate(vals):
                    out = (out & ~(1 << k)) | (v << k)
                return out
        return default
    f.update(opsel=bits("op_sel", 0), opsel_hi=bits("op_sel_hi", 7), neg_hi=bits("neg_hi", 0))
    return f


def _ds(mnem: str, ops: list[str], mods: list[str]) -> dict:
    _check_mods(mods, ("offset", "offset0", "offset1", "gds"))
    f = dict(offset0=0, offset1=0, gds=int("gds" in mods), acc=0, addr=0, data0=0, data1=0,
             dst=0)
    regs = [_reg(o) for o in ops]
    if any(r is None for r in regs):
        raise _Line(f"{mnem}: expected register operands")
    if mnem.startswith(("ds_read", "ds_load")):
        if len(ops) != 2:
            raise _Line(f"{mnem} takes 2 operands")
        f.update(dst=regs[0][1], addr=regs[1][1], acc=int(regs[0][0] == "a"))
    else:
        if not 2 <= len(ops) <= 3:
            raise _Line(f"{mnem} takes 2 or 3 operands")
        f.update(addr=regs[0][1], data0=regs[1][1], acc=int(regs[1][0] == "a"))
        if len(ops) == 3:
            f["data1"] = regs[2][1]
    off = _mod_value(mods, "offset")
    f["offset0"] = _mod_value(mods, "offset0", off & 0xFF)
    f["offset1"] = _mod_value(mods, "offset1", off >> 8)
    return f


def _mubuf(mnem: str, ops: list[str], mods: list[str]) -> dict:
    _check_mods(mods, ("offen", "idxen", "offset", "sc0", "sc1", "nt", "lds"))
    lds = int("lds" in mods)
    want = 3 if lds else 4
    if len(ops) != want:
        raise _Line(f"{mnem} takes {want} operands, got {len(ops)}")
    data = 0
    acc = 0
    if not lds:
        r = _reg(ops[0])
        if not r or r[0] not in "va":
            raise _Line(f"expected the data register, got {ops[0]!r}")
        data, acc = r[1], int(r[0] == "a")
        ops = ops[1:]
    vaddr = 0 if ops[0] == "off" else _vreg(ops[0])
    rs = _reg(ops[1])
    if not rs or rs[0] != "s" or rs[2] != 4:
        raise _Line(f"expected the buffer resource s[n:n+3], got {ops[1]!r}")
    soff, lit, _ = parse_src(ops[2])
    if lit is not None:
        raise _Line("the buffer offset operand takes no literal")
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
    if "_lds_" in mnem:
        f["vaddr"] = _vreg(ops[0])
    elif "store" in mnem:
        f["vaddr"], f["data"] = _vreg(ops[0]), _vreg(ops[1], "va")
    else:
        r = _reg(ops[0])
        f["dst"], f["acc"] = r[1], int(r[0] == "a")
        f["vaddr"] = _vreg(ops[1])
    return f


def _descriptor(lines: list[str], name: str) -> dict:
    kd: dict = {}
    inside = False
    for ln in lines:
        s = ln.strip()
        if s.startswith(".amdhsa_kernel"):
            inside = s.split()[1:] == [name]
            continue
        if s.startswith(".end_amdhsa_kernel"):
            inside = False
        elif inside and s.startswith(".amdhsa_"):
            key, _, val = s.partition(" ")
            try:
                kd[key[8:]] = int(val.strip(), 0)
            except ValueError:
                kd[key[8:]] = val.strip()
    if not kd:
        raise EmuError(f"kernel {name}: the assembly has no .amdhsa_kernel {name} block "
                       f"(the kernel descriptor)")
    return kd


def launch_from_asm(name: str, kd: dict):
    def g(key, default=0):
        v = kd.get(key, default)
        if not isinstance(v, int):
            raise EmuError(f"kernel {name}: .amdhsa_{key} is not an integer ({v!r})")
        return v

    props = 0
    for bit, key in ((0, "user_sgpr_private_segment_buffer"), (1, "user_sgpr_dispatch_ptr"),
                     (2, "user_sgpr_queue_ptr"), (3, "user_sgpr_kernarg_segment_ptr"),
                     (4, "user_sgpr_dispatch_id"), (5, "user_sgpr_flat_scratch_init"),
                     (6, "user_sgpr_private_segment_size")):
        if g(key):
            props |= 1 << bit
    user = g("user_sgpr_count", 2 * bool(props & 8))
    rsrc2 = (user << 1) | (g("system_sgpr_workgroup_id_x", 1) << 7) | \
        (g("system_sgpr_workgroup_id_y") << 8) | (g("system_sgpr_workgroup_id_z") << 9) | \
        (g("system_sgpr_workgroup_info") << 10) | (g("system_vgpr_workitem_id") << 11)
    vgprs = g("next_free_vgpr", 256)
    rsrc1 = max(0, (vgprs + 7) // 8 - 1)
    rsrc3 = max(0, g("accum_offset", 4) // 4 - 1)
    return launch_from_descriptor(name, g("group_segment_fixed_size"),
                                  g("private_segment_fixed_size"), g("kernarg_size"),
                                  rsrc1, rsrc2, rsrc3, props,
                                  g("user_sgpr_kernarg_preload_length"))


def kernels_from_asm(text: str) -> dict[str, Kernel]:
    """Every kernel (``.amdhsa_kernel``) of LLVM assembly text, read into instructions."""
    lines = text.split("\n")
    names = [ln.split()[1] for ln in lines if ln.strip().startswith(".amdhsa_kernel ")]
    if not names:
        raise EmuError("the assembly has no kernel (no .amdhsa_kernel block)")
    metadata = _metadata(lines)
    out = {}
    for name in names:
        meta = next((k for k in metadata if isinstance(k, dict) and k.get(".name") == name),
                    None)
        out[name] = Kernel(name, _function(lines, name), launch_from_asm(name, _descriptor(
            lines, name)), "asm", meta=meta)
    return out


def _metadata(lines: list[str]) -> list:
    """The ``amdhsa.kernels`` entries of the ``.amdgpu_metadata`` document ([] without one)."""
    start = next((i for i, ln in enumerate(lines) if ln.strip() == ".amdgpu_metadata"), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip() == ".end_amdgpu_metadata"), None)
    if end is None:
        raise EmuError(f"line {start + 1}: .amdgpu_metadata without .end_amdgpu_metadata")
    try:
        doc = parse_yaml("\n".join(lines[start + 1:end]), start + 2)
    except AsmError as e:
        raise EmuError(f"the .amdgpu_metadata document: {e}") from None
    kernels = doc.get("amdhsa.kernels") if isinstance(doc, dict) else None
    if not isinstance(kernels, list):
        raise EmuError(f"line {start + 1}: the .amdgpu_metadata document has no "
                       f"amdhsa.kernels list")
    return kernels


def _function(lines: list[str], name: str) -> list[Instr]:
    start = next((i for i, ln in enumerate(lines) if ln.split(";")[0].strip() == f"{name}:"),
                 None)
    if start is None:
        raise EmuError(f"kernel {name}: no label '{name}:' in the assembly")
    instrs: list[Instr] = []
    labels: dict[str, int] = {}
    pending: list[tuple[int, str, int]] = []
    addr = 0
    for i in range(start + 1, len(lines)):
        s = lines[i].split(";")[0].strip()
        if not s:
            continue
        m = _LABEL.match(s)
        if m:
            if m.group(1).startswith(".Lfunc_end"):
                break
            labels[m.group(1)] = addr
            continue
        if s.startswith("."):
            if s.startswith((".size", ".section")):
                break
            continue
        try:
            ins, label = parse_instruction(s, addr)
        except _Line as e:
            raise EmuError(f"line {i + 1}: {e} (in '{s}')") from None
        if label is not None:
            pending.append((len(instrs), label, i + 1))
        instrs.append(ins)
        addr += ins.size
    for k, label, ln in pending:
        if label not in labels:
            raise EmuError(f"line {ln}: branch to unknown label {label!r}")
        ins = instrs[k]
        ins.f["imm"] = ((labels[label] - ins.addr - 4) // 4) & 0xFFFF
    for ins in instrs:
        ins.text = format_instr(ins)
    if not instrs:
        raise EmuError(f"kernel {name}: no instructions")
    return instrs
