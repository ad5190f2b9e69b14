"""gfx950 instructions as text: what LLVM 22 prints for each :class:`Instr`
(llvm-objdump and the compiler's assembly use the same syntax).

:func:`format_instr` writes one instruction; the decoder stores it in ``Instr.text`` and
the assembly reader does the same for what it read, so the two sources print alike.
"""

from __future__ import annotations

from pipeline_mlir.emu.instr import (BRANCHES, CACHE_CONTROLS, FP8_DST_SEL, FP8_STOCHASTIC,
                                     LITERAL, SDWA_SELECTS, SDWA_UNUSED, VCC, VGPR0,
                                     VOP2_CARRY_IN, VOP2_CARRY_OUT, VOP3B, FLOAT_TEXT, Instr,
                                     bitop3, gpr_idx_text, operand_widths, vop3_sources)
from pipeline_mlir.emu.scaled import scale_text
from pipeline_mlir.isa.waitcnt import EXPCNT_MAX, LGKMCNT_MAX, VMCNT_MAX, decode_waitcnt

_SPECIAL_NAMES = {102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo",
                  105: "xnack_mask_hi", 106: "vcc_lo", 107: "vcc_hi", 124: "m0",
                  126: "exec_lo", 127: "exec_hi", 235: "src_shared_base",
                  236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
                  239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz",
                  253: "src_scc", 254: "src_lds_direct"}
_PAIR_NAMES = {102: "flat_scratch", 104: "xnack_mask", 106: "vcc", 126: "exec"}


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
    if code in FLOAT_TEXT:
        return FLOAT_TEXT[code]
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
    if n == "s_set_gpr_idx_mode" and imm < 16:
        return f"{n} {gpr_idx_text(imm)}"
    if n in BRANCHES:
        return f"{n} {imm}"
    if n in ("s_trap", "s_setprio", "s_sleep", "s_nop", "s_setkill", "s_sethalt",
             "s_incperflevel", "s_decperflevel"):
        return f"{n} {imm}"
    return f"{n} 0x{imm:x}"


def format_instr(ins: Instr) -> str:
    """The instruction as LLVM 22 prints it (llvm-objdump / the compiler's assembly)."""
    return _TEXT.get(ins.enc, _flat_text)(ins, operand_widths(ins))


def _src(ins: Instr, w: dict, key: str, acc: bool = False) -> str:
    """The text of source field ``key`` of ``ins`` (its width from ``w``)."""
    return src_text(ins.f[key], w.get(key, 1), ins.lit, acc)


def _sop_text(ins: Instr, w: dict) -> str:
    n, f, enc = ins.name, ins.f, ins.enc
    if enc == "SOP2":
        return f"{n} {sdst_text(f['dst'], w.get('dst', 1))}, {_src(ins, w, 'src0')}, " \
            f"{_src(ins, w, 'src1')}"
    if enc == "SOP1":
        if n in ("s_getpc_b64",):
            return f"{n} {sdst_text(f['dst'], 2)}"
        if n in ("s_setpc_b64", "s_rfe_b64", "s_set_gpr_idx_idx"):
            return f"{n} {_src(ins, w, 'src0')}"
        return f"{n} {sdst_text(f['dst'], w.get('dst', 1))}, {_src(ins, w, 'src0')}"
    if enc == "SOPC" and n == "s_set_gpr_idx_on":
        return f"{n} {_src(ins, w, 'src0')}, {gpr_idx_text(f['src1'] & 0xF)}"
    if enc == "SOPC":
        return f"{n} {_src(ins, w, 'src0')}, {_src(ins, w, 'src1')}"
    return f"{n} {sdst_text(f['dst'])}, 0x{f['imm']:x}"          # SOPK


def _smem_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    base = reg_text("s", f["sbase"], 4 if "buffer" in n else 2)
    dst = reg_text("s", f["dst"], w["dst"])
    off = f"0x{f['offset']:x}" if f["imm"] else sdst_text(f["offset"])
    return f"{n} {dst}, {base}, {off}" + (" glc" if f["glc"] else "")


def _vop_text(ins: Instr, w: dict) -> str:
    """VOP1, VOP2 (SDWA forms included) and VOPC."""
    n, f, enc, lit = ins.name, ins.f, ins.enc, ins.lit
    if f.get("sdwa"):
        return _sdwa_text(ins, w)
    b = ins.base
    s0, s1 = (lambda: _src(ins, w, "src0")), (lambda: _src(ins, w, "src1"))
    if enc == "VOPC":
        return f"{n} vcc, {s0()}, {s1()}"
    if n == "v_readfirstlane_b32":
        return f"{n} {sdst_text(f['dst'])}, {s0()}"
    if enc == "VOP1" and n in ("v_nop", "v_clrexcp"):
        return n
    if n == "v_accvgpr_mov_b32":
        return f"{n} a{f['dst']}, {src_text(f['src0'], acc=True)}"
    dst = reg_text("v", f["dst"], w.get("dst", 1))
    if enc == "VOP2" and b in VOP2_CARRY_OUT:
        tail = ", vcc" if b in VOP2_CARRY_IN else ""
        return f"{n} {dst}, vcc, {s0()}, {s1()}{tail}"
    if enc == "VOP2" and b in VOP2_CARRY_IN:
        return f"{n} {dst}, {s0()}, {s1()}, vcc"
    if enc == "VOP2" and b in ("v_madmk_f32", "v_fmamk_f32"):
        return f"{n} {dst}, {s0()}, 0x{lit:x}, {s1()}"
    if enc == "VOP2" and b in ("v_madak_f32", "v_fmaak_f32"):
        return f"{n} {dst}, {s0()}, {s1()}, 0x{lit:x}"
    if enc == "VOP1":
        return f"{n} {dst}, {s0()}"
    return f"{n} {dst}, {s0()}, {s1()}"


def _mubuf_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    if n in CACHE_CONTROLS:         # ``buffer_wbl2 sc0 sc1``: no operands
        return " ".join([n] + _cache_bits(f))
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


def _flat_text(ins: Instr, w: dict) -> str:
    """FLAT, GLOBAL and SCRATCH."""
    n, f, enc = ins.name, ins.f, ins.enc
    vaddr = reg_text("v", f["vaddr"], w["vaddr"])
    if enc == "SCRATCH" and not f["sve"]:
        vaddr = "off"
    saddr = "off" if f["saddr"] == 0x7F else src_text(f["saddr"], 1 if enc == "SCRATCH" else 2)
    data = reg_text("a" if f["acc"] else "v", f["data"], w["data"])
    dst = reg_text("a" if f["acc"] else "v", f["dst"], w.get("dst", w["data"]))
    if "_atomic_" in n:      # the returned value first, when sc0 returns it
        ops = ([dst] if f["sc0"] else []) + [vaddr, data] + ([saddr] if enc != "FLAT" else [])
    elif "_lds_" in n:
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
    nsrc = 2 if ins.enc in ("VOP2", "VOPC") else 1
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
    if ins.enc == "VOPC":       # (a comparison: its SGPR pair, no destination select)
        dst = "vcc" if f["sdst"] == VCC else reg_text("s", f["sdst"], 2)
        return f"{n} {', '.join([dst] + ops)}" + "".join(
            f" src{k}_sel:{SDWA_SELECTS[f[f'src{k}_sel']][0]}" for k in range(nsrc))
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
        nsrc = vop3_sources(ins)
        ops = [dst]
        if n in VOP3B:
            ops.append(sdst_text(f["sdst"], 2))
        ops += [s(k) for k in range(nsrc)]
        if b == "v_cndmask_b32" or b in ("v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"):
            ops[-1] = src_text(f["src2"], 2)
        text = f"{n} {', '.join(ops)}"
    if b in FP8_DST_SEL and f.get("opsel"):     # LLVM's: the destination's entry last
        sel = [(f["opsel"] >> k) & 1 for k in range(4)]
        text += " op_sel:[" + ",".join(map(str, sel if b in FP8_STOCHASTIC else
                                           sel[:2] + sel[3:])) + "]"
    if f.get("clamp"):
        text += " clamp"
    if f.get("omod") and n != "v_bitop3_b32" and n != "v_bitop3_b16":
        text += {1: " mul:2", 2: " mul:4", 3: " div:2"}[f["omod"]]
    if n in ("v_bitop3_b32", "v_bitop3_b16"):
        v = bitop3(ins)
        text += f" bitop3:{v}" if v <= 10 else f" bitop3:0x{v:x}"
    return text


def _vop3p_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    if n.startswith(("v_mfma", "v_smfmac")) and n != "v_mfma_ld_scale_b32":
        acc = f["acc"]
        ops = [reg_text("a" if f["acc_cd"] else "v", f["dst"], w["dst"]),
               src_text(f["src0"], w["src0"], acc=bool(acc & 1)),
               src_text(f["src1"], w["src1"], acc=bool(acc & 2)),
               src_text(f["src2"], w["src2"], acc=bool(f["acc_cd"]))]
        text = f"{n} {', '.join(ops)}"
        if "scale_src0" in f:
            text += scale_text(f, src_text)
        for k in ("cbsz", "abid", "blgp"):
            if f[k]:
                text += f" {k}:{f[k]}"
        return text
    if n == "v_mfma_ld_scale_b32":        # alone (not the first half of a scaled MFMA)
        return f"{n} {src_text(f['src0'])}, {src_text(f['src1'])}" + scale_text(
            dict(scale_src0=f["src0"], scale_src1=f["src1"], scale_opsel=f["opsel"],
                 scale_opsel_hi=f["opsel_hi"]), src_text)[len(f", {src_text(f['src0'])}, "
                                                           f"{src_text(f['src1'])}"):]
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


#: the DS lane permutes, whose operands are ``vdst, vaddr, vdata``
PERMUTES = ("ds_permute_b32", "ds_bpermute_b32")


def _ds_text(ins: Instr, w: dict) -> str:
    n, f = ins.name, ins.f
    r = "a" if f["acc"] else "v"
    two = "2" in n.split("_")[1]
    ops = []
    if n.startswith("ds_read") or n.startswith("ds_load"):
        ops = [reg_text(r, f["dst"], w["dst"]), f"v{f['addr']}"]
    elif n in PERMUTES:             # vdst, vaddr, vdata
        ops = [reg_text(r, f["dst"], 1), f"v{f['addr']}", reg_text(r, f["data0"], 1)]
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


#: the text of each encoding (FLAT, GLOBAL and SCRATCH: :func:`_flat_text`)
_TEXT = {"SOPP": lambda ins, w: _sopp_text(ins), "SOP2": _sop_text, "SOP1": _sop_text,
         "SOPC": _sop_text, "SOPK": _sop_text, "SMEM": _smem_text, "VOP1": _vop_text,
         "VOP2": _vop_text, "VOPC": _vop_text, "VOP3": _vop3_text, "VOP3P": _vop3p_text,
         "DS": _ds_text, "MUBUF": _mubuf_text}
