"""Wait states: the hazards gfx950 leaves to software, checked on every executed instruction.

The CDNA3 and CDNA4 ISA guides list the instruction pairs the hardware does not interlock:
the second instruction of such a pair must issue a number of *wait states* after the first
(AMD Instinct MI300 / CDNA3 ISA Reference Guide, section "Manually Inserted Wait States
(NOPs)", and chapter "Matrix Arithmetic Instructions", section "Dependency Resolution:
Required Independent Instructions"; the CDNA4 guide has the same tables with gfx950's
values).  Compilers fill the gap with independent instructions or ``s_nop N``.

:data:`RULES` is the table, one :class:`Rule` per row.  The counts are gfx950's as LLVM 22
places them (its ``GCNHazardRecognizer``, read for the facts); ``test_hazard_rules.py``
checks each row against a live ``llc-22`` when one is installed.  Matrix rules depend on the
MFMA's pass count (``mfma_passes`` of :mod:`pipeline_mlir.target.gfx950`, the counts its ``d_wait_states``,
``srcc_wait_states`` and ``srcc_war_wait_states``): an XDL MFMA of ``P`` passes writing a
VGPR needs ``P + 4`` wait states (``P + 3`` = 5 for 2 passes) before a VALU, VMEM or DS
instruction, or another MFMA's A/B operand, touches it, ``P + 2`` before an MFMA reads it as
an overlapping (not identical) C; an XDL MFMA reading C needs ``P - 1`` before that VGPR is
overwritten.

Counting is per wave, as the hardware counts: every instruction the wave issues is one wait
state, ``s_nop N`` is ``N + 1``; other waves' instructions do not count.  A taken branch is
one instruction like any other: the rules hold along the path the wave executed.

:class:`WaitStates` is one wave's tracker (the machine keeps one per wave when it collects
findings; otherwise the check on every path, :mod:`.hazard_paths`, decides first): it keeps, per
register, the last instruction of each producing kind and its wait-state clock, and
:meth:`WaitStates.step` returns the violation an instruction commits, if any.  The
per-instruction facts (:class:`Info`) depend only on the instruction record, so the
tracker also runs on instruction sequences that were never executed (the tests' traces).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import FP8_STOCHASTIC, Instr, atomic_dwords, mfma_regs
from pipeline_mlir.emu.operands import Step, sregs, vregs
from pipeline_mlir.target.gfx950 import (d_wait_states, f8f6f4_narrow, mfma_passes,
                                          srcc_wait_states, srcc_war_wait_states)

VGPR0, VCC, M0, EXEC = 256, 106, 124, 126


@dataclass(frozen=True)
class Rule:
    """One row of the wait-state table: ``first`` then ``second`` needs ``need`` wait states."""

    name: str
    first: str
    second: str
    need: str
    section: str


_MANUAL = "ISA guide, 'Manually Inserted Wait States (NOPs)'"
_MATRIX = "ISA guide, 'Dependency Resolution: Required Independent Instructions'"
RULES = {r.name: r for r in (
    Rule("valu-sgpr-vmem", "a VALU writes an SGPR, VCC, EXEC or M0",
         "a VMEM instruction reads it (descriptor, offset, address, EXEC, M0)", "5", _MANUAL),
    Rule("valu-sgpr-valu", "a VALU writes an SGPR or VCC",
         "a VALU reads it as an operand (constant, carry, condition)", "2", _MANUAL),
    Rule("valu-sgpr-lane-select", "a VALU writes an SGPR",
         "v_readlane / v_writelane reads it as the lane select", "4", _MANUAL),
    Rule("valu-exec-lane", "a VALU writes EXEC",
         "v_readlane / v_readfirstlane / v_writelane", "4", _MANUAL),
    Rule("valu-vgpr-readlane", "a VALU writes a VGPR",
         "v_readlane / v_readfirstlane reads it", "1", _MANUAL),
    Rule("valu-vcc-div-fmas", "a VALU writes VCC", "v_div_fmas reads it", "4", _MANUAL),
    Rule("salu-m0", "an SALU writes M0",
         "LDS DMA (buffer/global ... lds), s_movrel, GDS or s_sendmsg reads it", "1", _MANUAL),
    Rule("setreg", "s_setreg writes a hardware register",
         "s_getreg / s_setreg of the same register", "2", _MANUAL),
    Rule("trans", "a transcendental VALU (v_rcp, v_exp, v_sqrt, ...) writes a VGPR",
         "a non-transcendental VALU reads it", "1", _MANUAL),
    Rule("dst-sel", "a VALU writes part of a VGPR (SDWA dst_sel or op_sel)",
         "a VALU reads it", "1", _MANUAL),
    Rule("store-data", "a VMEM store or atomic of more than 64 bits of data (MUBUF: "
                       "constant soffset)",
         "a VALU overwrites its data VGPRs", "2", _MANUAL),
    Rule("valu-exec-mfma", "a VALU writes EXEC", "an MFMA", "4", _MATRIX),
    Rule("valu-vgpr-mfma", "a VALU (not an MFMA) writes a VGPR",
         "an MFMA reads it as A, B or C", "2", _MATRIX),
    Rule("mfma-d-srcc", "an MFMA writes D",
         "an MFMA reads an overlapping, not identical, C (identical: 0; 2 after 2 passes)",
         "XDL: passes + 2 (2 passes, a reader not XDL: 3); other: passes (0 for an XDL "
         "reader)", _MATRIX),
    Rule("mfma-d-srcab", "an MFMA writes D", "an MFMA reads it as A or B",
         "XDL: passes + 4 (2 passes: 5); other: passes + 2", _MATRIX),
    Rule("mfma-d-valu", "an MFMA writes D", "a VALU reads or writes it",
         "XDL: passes + 4 (2 passes: 5); other: passes + 2", _MATRIX),
    Rule("mfma-d-mem", "an MFMA writes D",
         "a VMEM or DS instruction reads it (address, data) or loads into it",
         "XDL: passes + 4 (2 passes: 5); other: passes + 2", _MATRIX),
    Rule("mfma-srcc-war", "an XDL MFMA reads C", "a VALU, VMEM or DS instruction writes it",
         "passes - 1", _MATRIX),
)}

#: transcendental VALU opcodes (their results forward one wait state late)
TRANS = frozenset(f"v_{op}_{t}" for op in ("exp", "log", "rcp", "rsq", "sqrt", "sin", "cos")
                  for t in ("f32", "f16")) | frozenset({
                      "v_rcp_iflag_f32", "v_rcp_f64", "v_rsq_f64", "v_sqrt_f64",
                      "v_exp_legacy_f32", "v_log_legacy_f32"})
_M0_READERS = ("s_movrels", "s_movreld", "s_sendmsg", "s_ttracedata")
_LANE = ("v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32")


@dataclass
class Info:
    """What one compiled instruction (a :class:`~pipeline_mlir.emu.operands.Step`) means
    for the rules: the wait states it issues, the producer tables it must be checked
    against and the entries it leaves in them."""

    ins: Instr
    ws: int                       # wait states it issues
    checks: tuple = ()            # (table, registers, rule name, need: int | fn(entry))
    records: tuple = ()           # (table, registers, payload)


@dataclass(frozen=True)
class Violation:
    rule: Rule
    reg: str                      # the register the two instructions share
    first: Instr
    required: int
    present: int

    def message(self) -> str:
        r = self.rule
        return (f"{self.reg}: {self.present} wait states after 0x{self.first.addr:04x} "
                f"'{self.first.text}', {self.required} required ({r.name}: {r.first}, then "
                f"{r.second}; CDNA3/CDNA4 {r.section})")



def need_after_d(payload) -> int:
    """The most wait states a rule on an MFMA's D entry (``(passes, XDL, D)``) needs:
    :func:`~pipeline_mlir.target.gfx950.d_wait_states`, before a VALU, VMEM or DS
    instruction or another MFMA's A/B (an overlapping C needs no more)."""
    return d_wait_states(payload[0], payload[1])


def _need_d(entry) -> int:
    """After an MFMA wrote the register: :func:`need_after_d`."""
    return need_after_d(entry[2])


def _need_srcc(c: tuple, reader_xdl: bool):
    """The wait states an MFMA reading C = ``c`` needs after an MFMA wrote (part of) it."""
    def need(entry) -> int:
        passes, xdl, d = entry[2]
        return srcc_wait_states(passes, xdl, reader_xdl, d == c)
    return need


def need_after_srcc(passes: int) -> int:
    """After an XDL MFMA of ``passes`` read a register as C: passes - 1 before it is
    overwritten."""
    return srcc_war_wait_states(passes)


def _need_war(entry) -> int:
    return need_after_srcc(entry[2])


def _mfma(ins: Instr) -> tuple:
    f = ins.f
    # FP4/FP6 operands on both sides: half the FP8 passes (the matrix-unit rate); LLVM 22
    # places the wait states of the FP4 scaled MFMA for 4 passes (P + 4 = 8 before a store
    # of its result, test_mx_compiled.py)
    entry = mfma_passes(ins.name, f8f6f4_narrow(f.get("cbsz", 0), f.get("blgp", 0)))
    if entry is None:
        raise EmuError(f"0x{ins.addr:04x}: '{ins.text}': no wait-state entry for {ins.name} "
                       f"(its pass count is not in the table)")
    na, nb, nc = mfma_regs(ins)
    acc, acc_cd = f.get("acc", 0), bool(f.get("acc_cd", 0))
    ab = vregs(f["src0"], na, bool(acc & 1)) + vregs(f["src1"], nb, bool(acc & 2))
    c = vregs(f["src2"], nc, acc_cd)
    d = vregs(f["dst"] + VGPR0, nc, acc_cd)
    return entry[0], entry[1], ab, c, d


def _store_data(ins: Instr, step) -> tuple:
    """The data VGPRs of a VMEM store (or atomic: ``buffer_atomic_cmpswap_x2``'s 128 bits)
    of more than 64 bits whose data the next VALUs must not overwrite (a MUBUF store only
    when its soffset is not an SGPR)."""
    n = ins.name
    if "_atomic_" in n:
        if atomic_dwords(n)[0] <= 2:
            return ()
    elif "_store_" not in n or n.endswith(("_byte", "_short", "_dword", "_dwordx2", "_b8",
                                           "_b16", "_b32", "_b64")):
        return ()
    if ins.enc == "MUBUF" and ins.f.get("soffset", 128) <= 127:
        return ()
    return tuple(sorted(step.vreads & set(vregs(ins.f["data"] + VGPR0, 4))))


def _partial_write(ins: Instr) -> bool:
    """Does the instruction write part of its VGPR (SDWA dst_sel, VOP3 op_sel of dst)?"""
    f = ins.f
    if ins.name.endswith("_sdwa"):
        return f.get("dst_sel", 6) != 6
    if ins.enc == "VOP3" and ins.base in FP8_STOCHASTIC:
        return bool(f.get("opsel", 0) & 12)         # a byte other than the lowest
    return ins.enc == "VOP3" and bool(f.get("opsel", 0) & 8)


def _valu(ins: Instr, step, trans: bool) -> tuple[list, list]:
    vr, vw, sr, sw = step.vreads, step.vwrites, step.sreads, step.swrites
    b = ins.base
    checks = [("s_valu", sr, "valu-sgpr-valu", 2), ("v_mfma", vr | vw, "mfma-d-valu", _need_d),
              ("v_srcc", vw, "mfma-srcc-war", _need_war), ("v_store", vw, "store-data", 2),
              ("v_sel", vr, "dst-sel", 1)]
    if not trans:
        checks.append(("v_trans", vr, "trans", 1))
    if b in _LANE:
        checks.append(("s_valu", (EXEC, EXEC + 1), "valu-exec-lane", 4))
        if b != "v_writelane_b32":
            checks.append(("v_valu", vr, "valu-vgpr-readlane", 1))
        if b != "v_readfirstlane_b32" and ins.f.get("src1", 255) <= 127:
            checks.append(("s_valu", (ins.f["src1"],), "valu-sgpr-lane-select", 4))
    if b.startswith("v_div_fmas"):
        checks.append(("s_valu", (VCC, VCC + 1), "valu-vcc-div-fmas", 4))
    records = [("v_valu", vw, None), ("s_valu", sw, None)]
    if trans:
        records.append(("v_trans", vw, None))
    if _partial_write(ins):
        records.append(("v_sel", vw, None))
    return checks, records


def _matrix(ins: Instr) -> tuple[list, list]:
    passes, xdl, ab, c, d = _mfma(ins)
    checks = [("s_valu", (EXEC, EXEC + 1), "valu-exec-mfma", 4),
              ("v_valu", ab + c, "valu-vgpr-mfma", 2),
              ("v_mfma", ab, "mfma-d-srcab", _need_d),
              ("v_mfma", c, "mfma-d-srcc", _need_srcc(c, xdl))]
    records = [("v_mfma", d, (passes, xdl, d))]
    if xdl:
        records.append(("v_srcc", c, passes))
    return checks, records


def _memory(ins: Instr, step) -> tuple[list, list]:
    vr, vw = step.vreads, step.vwrites
    checks = [("v_mfma", vr | vw, "mfma-d-mem", _need_d),
              ("v_srcc", vw, "mfma-srcc-war", _need_war)]
    records = []
    if step.kind == "vmem":
        checks.append(("s_valu", step.sreads | {EXEC, EXEC + 1}, "valu-sgpr-vmem", 5))
        if ins.f.get("lds") or "_lds_" in ins.name:
            checks.append(("s_salu", (M0,), "salu-m0", 1))
        data = _store_data(ins, step)
        if data:
            records.append(("v_store", data, None))
    elif ins.f.get("gds"):
        checks.append(("s_salu", (M0,), "salu-m0", 1))
    return checks, records


def _scalar(ins: Instr, step) -> tuple[list, list]:
    checks, records = [], []
    n = ins.name
    if n.startswith(_M0_READERS):
        checks.append(("s_salu", (M0,), "salu-m0", 1))
    if n.startswith(("s_setreg", "s_getreg")):
        hw = (ins.f.get("imm", 0) & 0x3F,)
        checks.append(("hwreg", hw, "setreg", 2))
        if n.startswith("s_setreg"):
            records.append(("hwreg", hw, None))
    if step.kind == "salu" and M0 in step.swrites:
        records.append(("s_salu", (M0,), None))
    return checks, records


def _regs(code: int, n: int) -> tuple[frozenset, frozenset]:
    """(VGPRs, SGPRs) of a source operand code of ``n`` registers (constants: none)."""
    return frozenset(vregs(code, n)), frozenset(sregs(code, n))


def effects_of(ins: Instr) -> Step | None:
    """The register effects of the rule-bearing instructions the machine does not run, as a
    step with nothing to run (what :func:`info_of` reads of one), for the wait-state rules
    on assembly that has them (``valu-vcc-div-fmas``: ``v_div_fmas``
    reads VCC and its three sources, writes D; ``setreg``: ``s_setreg_b32`` reads its SGPR,
    ``s_getreg_b32`` writes its SGPR, the hardware register in ``imm``; an MFMA with a pass
    count, whose registers the matrix rules read from its encoding); None for others."""
    f, n = ins.f, ins.name
    if n.startswith("v_mfma") and mfma_passes(n) is not None:
        return Step(ins, None, "mfma")
    if n in ("v_div_fmas_f32", "v_div_fmas_f64") and ins.enc == "VOP3":
        w = 2 if n.endswith("f64") else 1
        srcs = [_regs(f[k], w) for k in ("src0", "src1", "src2")]
        return Step(ins, None, "valu", frozenset().union(*(v for v, _ in srcs)),
                    frozenset(range(f["dst"], f["dst"] + w)),
                    frozenset({VCC, VCC + 1}).union(*(s for _, s in srcs)))
    if n == "s_setreg_b32":
        return Step(ins, None, "salu", sreads=frozenset({f["dst"]}))
    if n == "s_getreg_b32":
        return Step(ins, None, "salu", swrites=frozenset({f["dst"]}))
    return None


def info_of(step) -> Info:
    """The rules' view of one compiled instruction."""
    ins = step.ins
    if ins.name == "s_nop":
        return Info(ins, (ins.f.get("imm", 0) & 0xF) + 1)
    if step.kind == "mfma":
        checks, records = _matrix(ins)
    elif step.kind == "valu":
        checks, records = _valu(ins, step, ins.base in TRANS)
    elif step.kind in ("vmem", "ds"):
        checks, records = _memory(ins, step)
    else:
        checks, records = _scalar(ins, step)
    return Info(ins, 1, tuple((t, tuple(r), rule, need) for t, r, rule, need in checks if r),
                tuple((t, tuple(r), p) for t, r, p in records if r))


def infos(steps) -> list:
    """:func:`info_of` of each step, kept on the step (they are compiled once per kernel)."""
    out = []
    for st in steps:
        info = st.__dict__.get("hazard_info")
        if info is None:
            info = st.hazard_info = info_of(st)
        out.append(info)
    return out


_TABLES = ("v_valu", "v_trans", "v_sel", "v_mfma", "v_srcc", "v_store", "s_valu", "s_salu",
           "hwreg")


def reg_name(table: str, r: int) -> str:
    if table == "hwreg":
        return f"hwreg {r}"
    if table.startswith("s_"):
        return {VCC: "vcc_lo", VCC + 1: "vcc_hi", M0: "m0", EXEC: "exec_lo",
                EXEC + 1: "exec_hi"}.get(r, f"s{r}")
    return f"a{r - 256}" if r >= 256 else f"v{r}"


class WaitStates:
    """One wave's wait-state clock and, per register, the last producer of each kind."""

    def __init__(self) -> None:
        self.t = 0
        self.tables = {name: {} for name in _TABLES}

    def step(self, info: Info) -> Violation | None:
        """Account for the wave issuing ``info``'s instruction; the first rule it breaks."""
        t = self.t
        tables = self.tables
        bad = None
        for name, regs, rule, need in info.checks:
            tab = tables[name]
            if not tab:
                continue
            for r in regs:
                entry = tab.get(r)
                if entry is None:
                    continue
                req = need if need.__class__ is int else need(entry)
                have = t - entry[0] - 1
                if have < req:
                    bad = Violation(RULES[rule], reg_name(name, r), entry[1], req, have)
                    break
            if bad is not None:
                break
        for name, regs, payload in info.records:
            tab = tables[name]
            entry = (t, info.ins, payload)
            for r in regs:
                tab[r] = entry
        self.t = t + info.ws
        return bad
