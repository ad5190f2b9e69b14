"""One line of gfx950 assembly as LLVM prints it -> an :class:`AsmInstr`.

:func:`parse_instruction` reads the mnemonic, the operands and the modifiers, classifies
the instruction (:func:`classify`: a kind of :data:`pipeline_mlir.sim.instr.KINDS`), lists
the registers it writes and reads (:func:`registers`: one per 32-bit register) and decodes
``s_waitcnt`` counters.  The module reader (:mod:`pipeline_mlir.isa.asm`) puts the
instructions into blocks, functions and loops.

Conventions:

* LLVM prints the compiler-only fences as comments, ``; sched_barrier
  mask(0x00000000)`` and ``; sched_group_barrier mask(0x00000008) size(1)
  SyncID(0)``; they become pseudo instructions of kind ``sched_barrier`` /
  ``sched_group_barrier`` whose ``value`` is the mask.
* Registers are expanded one per 32-bit register (``v[8:11]`` -> ``v8 v9 v10
  v11``); ``vcc_lo/vcc_hi`` count as ``vcc``, ``exec_lo/exec_hi`` as ``exec``.
  Implicit registers recorded: ``scc`` (SALU arithmetic and compares write it,
  ``s_cselect``/``s_addc``/``s_subb``/``s_cbranch_scc*`` read it), ``vcc`` (VOPC
  and carry ops in e32 form, ``v_cndmask_b32_e32``, ``s_cbranch_vcc*``),
  ``exec`` (read by every vector instruction; written by ``*_saveexec``,
  ``v_cmpx``), ``m0`` (read by LDS-DMA loads).

Bad input (a line that is not gfx9 assembly, a malformed register or counter) raises
:class:`AsmError` naming the line.  No MLIR here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.target.gfx950 import NAME
from pipeline_mlir.isa.commas import split_top
from pipeline_mlir.isa.waitcnt import EXPCNT_MAX, LGKMCNT_MAX, VMCNT_MAX, decode_waitcnt


class AsmError(PipelineError):
    """Assembly text this reader cannot accept (names the line)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(frozen=True)
class AsmInstr:
    """One instruction (or compiler pseudo instruction) of the assembly."""

    mnemonic: str
    operands: tuple[str, ...]
    modifiers: tuple[str, ...]
    line: int
    text: str
    defs: tuple[str, ...]
    uses: tuple[str, ...]
    kind: str
    vm: int | None = None
    lgkm: int | None = None
    value: int = 0
    exp: int | None = None


# ---------------------------------------------------------------------------
# operands and registers

_VECTOR_PREFIXES = ("v_", "ds_", "buffer_", "global_", "flat_", "scratch_", "image_", "tbuffer_")
_KNOWN_PREFIXES = _VECTOR_PREFIXES + ("s_", "exp")
_MNEMONIC = re.compile(r"[a-z][a-z0-9_]*$")
_REG_RANGE = re.compile(r"^(v|a|s|ttmp)\[(\d+):(\d+)\]$")
_REG_ONE = re.compile(r"^(v|a|s|ttmp)(\d+)$")
_SPECIAL = {"vcc": "vcc", "vcc_lo": "vcc", "vcc_hi": "vcc", "exec": "exec",
            "exec_lo": "exec", "exec_hi": "exec", "m0": "m0", "scc": "scc"}
_MODIFIER = re.compile(r"^[a-z_][a-z0-9_]*:\S")
_CNT = re.compile(r"^(vmcnt|lgkmcnt|expcnt)\((\d+)\)$")
#: a compiler fence LLVM prints as a comment (an instruction here, a block's line to the
#: module reader)
PSEUDO = re.compile(r"^;\s*(sched_barrier|sched_group_barrier)(?:\s+(.*))?$")
_MASK = re.compile(r"mask\((0x[0-9a-fA-F]+|\d+)\)")


def split_operands(text: str) -> list[str]:
    """Split on top-level commas (not inside ``[]`` or ``()``)."""
    return split_top(text, "[(")


def registers(operand: str, line: int | None = None) -> tuple[str, ...]:
    """Registers named by one operand, one per 32-bit register; () for non-registers."""
    try:
        return _registers(operand)
    except _BadRegister as e:
        raise AsmError(str(e), line) from None


class _BadRegister(ValueError):
    """A register operand :func:`registers` refuses (the line is added there)."""


@functools.lru_cache(maxsize=4096)
def _registers(operand: str) -> tuple[str, ...]:
    """:func:`registers` of an operand (a kernel names the same few hundred operands
    thousands of times: each is read once; a refused one raises every time)."""
    op = operand.strip()
    for wrap in ("neg(", "abs(", "sext("):
        if op.startswith(wrap) and op.endswith(")"):
            op = op[len(wrap):-1]
    op = op.lstrip("-").strip("|")
    if op in _SPECIAL:
        return (_SPECIAL[op],)
    m = _REG_RANGE.match(op)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        if hi < lo:
            raise _BadRegister(f"register range {operand!r} ends before it starts")
        return tuple(f"{m.group(1)}{r}" for r in range(lo, hi + 1))
    m = _REG_ONE.match(op)
    if m:
        return (f"{m.group(1)}{int(m.group(2))}",)
    if re.match(r"^(v|a|s|ttmp)\[", op):
        raise _BadRegister(f"malformed register operand {operand!r}")
    return ()


# ---------------------------------------------------------------------------
# classification

@functools.lru_cache(maxsize=1024)
def classify(mnemonic: str, modifiers: tuple[str, ...] = ()) -> str:
    """The instruction kind (one of ``pipeline_mlir.sim.instr.KINDS``)."""
    m = mnemonic
    if m.startswith(("v_mfma", "v_smfmac")):
        return "mfma"
    if m.startswith("ds_"):
        if m.startswith(("ds_write", "ds_store")) or (
                not m.startswith(("ds_read", "ds_load", "ds_bpermute", "ds_permute", "ds_swizzle"))
                and "_rtn" not in m):
            return "ds_write"
        return "ds_read"
    if m.startswith(("buffer_", "tbuffer_", "global_", "flat_", "scratch_")):
        if "_load" in m:
            return "vmem_load_lds" if ("lds" in modifiers or "_lds_" in m or m.endswith("_lds")) \
                else "vmem_load"
        # stores and atomics (both are vm events whose data leaves the wave)
        return "vmem_store"
    if m.startswith(("s_load", "s_buffer_load", "s_scratch_load", "s_store", "s_buffer_store",
                     "s_atomic_", "s_buffer_atomic_")):
        return "smem"
    if m.startswith("s_waitcnt"):
        return "wait"
    if m == "s_barrier":
        return "barrier"
    if m == "s_setprio":
        return "setprio"
    if m == "s_nop":
        return "nop"
    if m in ("sched_barrier", "sched_group_barrier"):
        return m
    if m == "s_branch" or m.startswith("s_cbranch") or m in ("s_setpc_b64", "s_swappc_b64"):
        return "branch"
    if m.startswith("v_"):
        return "valu"
    if m in ("s_endpgm", "s_trap", "s_sendmsg", "s_sleep", "s_icache_inv", "s_dcache_inv",
             "s_dcache_wb", "s_memtime", "s_memrealtime", "s_getreg_b32", "s_setreg_b32",
             "s_setreg_imm32_b32", "s_ttracedata", "s_sethalt", "s_code_end") \
            or m.startswith(("s_dcache", "s_icache")):
        return "other"
    if m.startswith("s_"):
        return "salu"
    return "other"


#: atomics, which write their first operand only with a return bit: ``glc`` on gfx9, which
#: gfx940 and later (gfx950) spell ``sc0`` for the vector ones
_ATOMICS = ("buffer_atomic", "global_atomic", "flat_atomic", "s_atomic_", "s_buffer_atomic_")
_RETURNS = frozenset(("glc", "sc0"))
#: LDS instructions of kind ds_write that return a value in their first operand
_DS_DEFS = ("ds_append", "ds_consume", "ds_ordered_count")
#: memory instructions this reader does not model (refused at their line)
_UNREAD = ("image_",)

# SALU instructions that do NOT write scc (everything else of kind salu does), as the ISA
# describes each and the emulator (emu/salu.py) runs it: ``s_lshl{1..4}_add_u32`` do write
# it (the carry out of the add), ``s_bfm``, ``s_ff0``/``s_ff1`` and ``s_flbit`` do not
_SALU_NO_SCC = ("s_mov", "s_movk", "s_cmov", "s_cmovk", "s_mul_i32", "s_mul_hi", "s_cselect",
                "s_getpc", "s_setpc", "s_swappc", "s_sext", "s_brev", "s_bitset", "s_movrel",
                "s_bfm", "s_ff0", "s_ff1", "s_flbit", "s_pack", "s_mulk", "s_version",
                "s_readfirstlane")
#: instructions whose destination is also a source: ``s_addk_i32 s0, 4`` is ``s0 += 4``,
#: ``s_cmov`` keeps the destination when SCC is clear, the ``mac`` / ``fmac`` forms and
#: ``v_dot2c`` accumulate into it, ``s_bitset0`` / ``s_bitset1`` change one bit of it, the
#: 8-bit float conversions write a word or a byte of it and keep the rest
_READS_DEST = ("s_addk", "s_mulk", "s_cmov", "v_mac_", "v_fmac_", "v_pk_fmac_", "v_dot2c_",
               "s_bitset", "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", "v_cvt_sr_fp8_f32",
               "v_cvt_sr_bf8_f32")
_SCC_READERS = ("s_cselect", "s_addc", "s_subb", "s_cbranch_scc", "s_cmov", "s_cmovk")
_TWO_DEF = re.compile(r"^v_(add|sub|subrev)_co_u32_e64$|^v_(addc|subb|subbrev)_co_u32_e64$"
                      r"|^v_mad_(u|i)64_(u|i)32$|^v_div_scale_|^v_swap_b32(_e32)?$")


def _defs_uses(m: str, kind: str, ops: list[str], mods: tuple[str, ...],
               line: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    regs = [registers(o, line) for o in ops]
    defs: list[str] = []
    uses: list[str] = []
    no_def = kind in ("vmem_store", "ds_write", "vmem_load_lds", "wait", "barrier", "setprio",
                      "nop", "branch", "sched_barrier", "sched_group_barrier", "other") \
        or m.startswith(("s_cmp", "s_bitcmp", "s_store", "s_buffer_store")) \
        or (m.startswith("v_cmpx") and len(ops) < 3) or m.startswith(_ATOMICS)
    if m.startswith(_ATOMICS) and _RETURNS.intersection(mods):
        no_def = False          # returning atomics write their first operand
    if m in _DS_DEFS:
        no_def = False
    if m in ("s_getreg_b32", "s_memtime", "s_memrealtime"):
        no_def = False
    if no_def:
        for r in regs:
            uses.extend(r)
    else:
        ndef = 2 if _TWO_DEF.match(m) else 1
        for k, r in enumerate(regs):
            (defs if k < ndef else uses).extend(r)
        if m.startswith("v_swap_b32"):  # each operand written with the other's value
            uses[:0] = [*regs[0], *regs[1]]
        elif m.startswith(_READS_DEST) and regs:
            uses[:0] = regs[0]          # the destination is a source too
    # implicit registers
    if kind == "salu" and not m.startswith(_SALU_NO_SCC):
        defs.append("scc")
    if m.startswith(("s_cmp", "s_bitcmp")):
        defs.append("scc")
    if m.startswith(_SCC_READERS):
        uses.append("scc")
    if m.startswith("s_cbranch_vcc"):
        uses.append("vcc")
    if m.startswith("s_cbranch_exec"):
        uses.append("exec")
    if m.startswith("v_") and m.endswith("_e32"):
        if m.startswith("v_cmp_") or m.startswith("v_cmp_class"):
            if "vcc" not in defs:
                defs.append("vcc")
        if re.match(r"^v_(add|sub|subrev)_co_u32_e32$", m):
            defs.append("vcc")
        if re.match(r"^v_(addc|subb|subbrev)_co_u32_e32$", m):
            defs.append("vcc")
            uses.append("vcc")
        if m == "v_cndmask_b32_e32":
            uses.append("vcc")
    if m.startswith("v_cmpx"):
        defs.append("exec")
    if "saveexec" in m:
        defs.append("exec")
        uses.append("exec")
    if m.startswith(_VECTOR_PREFIXES):
        uses.append("exec")
    if kind == "vmem_load_lds":
        uses.append("m0")

    def dedup(seq):
        return tuple(dict.fromkeys(seq))
    return dedup(defs), dedup(uses)


def _decode_wait(m: str, ops: list[str], line: int) -> tuple[int | None, int | None, int | None]:
    """(vm, lgkm, exp) of a wait; None = that counter is not waited for."""
    if m == "s_waitcnt":
        if len(ops) == 1 and not _CNT.match(ops[0]):
            try:
                imm = int(ops[0], 0)
            except ValueError:
                raise AsmError(f"s_waitcnt operand {ops[0]!r} is neither counters nor an "
                               "immediate", line) from None
            if not 0 <= imm <= 0xFFFF:
                raise AsmError(f"s_waitcnt immediate {ops[0]} is outside 0..0xffff", line)
            vm, exp, lgkm = decode_waitcnt(imm)
        else:
            vm = exp = lgkm = None
            seen = set()
            for o in ops:
                mm = _CNT.match(o)
                if not mm:
                    raise AsmError(f"s_waitcnt operand {o!r} is not vmcnt(n), lgkmcnt(n) or "
                                   "expcnt(n)", line)
                name, val = mm.group(1), int(mm.group(2))
                if name in seen:
                    raise AsmError(f"s_waitcnt names {name} twice", line)
                seen.add(name)
                hi = {"vmcnt": VMCNT_MAX, "lgkmcnt": LGKMCNT_MAX, "expcnt": EXPCNT_MAX}[name]
                if val > hi:
                    raise AsmError(f"{name}({val}) is outside the {NAME} range 0..{hi}", line)
                if name == "vmcnt":
                    vm = val
                elif name == "lgkmcnt":
                    lgkm = val
                else:
                    exp = val
        return (None if vm == VMCNT_MAX else vm, None if lgkm == LGKMCNT_MAX else lgkm,
                None if exp == EXPCNT_MAX else exp)
    # s_waitcnt_vmcnt / _lgkmcnt / _expcnt / _vscnt <sreg>, <imm> (the sreg is null here)
    if len(ops) != 2:
        raise AsmError(f"{m} expects a register and an immediate", line)
    val = _immediate(m, ops[1], line)
    if m == "s_waitcnt_vmcnt":
        return (None if val >= VMCNT_MAX else val), None, None
    if m == "s_waitcnt_lgkmcnt":
        return None, (None if val >= LGKMCNT_MAX else val), None
    if m == "s_waitcnt_expcnt":
        return None, None, (None if val >= EXPCNT_MAX else val)
    # vscnt (stores, gfx10+) has no counter on gfx9: neither vm nor lgkm is waited for
    return None, None, None


def _immediate(mnemonic: str, text: str, line: int) -> int:
    """The integer operand ``text`` of ``mnemonic`` (any base Python reads)."""
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(f"{mnemonic} immediate {text!r} is not an integer", line) from None


def parse_instruction(text: str, line: int) -> AsmInstr:
    """One instruction line (comments already stripped, or a fence comment)."""
    stripped = text.strip()
    pm = PSEUDO.match(stripped)
    if pm:
        mn, rest = pm.group(1), pm.group(2) or ""
        mask = _MASK.search(rest)
        if not mask:
            raise AsmError(f"{mn} comment without a mask(...)", line)
        return AsmInstr(mn, tuple(rest.split()), (), line, stripped, (), (), mn,
                        value=int(mask.group(1), 0))
    body = stripped.split(";", 1)[0].strip()
    parts = body.split(None, 1)
    if not parts:
        raise AsmError(f"not an instruction: {stripped!r}", line)
    mn = parts[0]
    rest = parts[1] if len(parts) > 1 else ""
    if not _MNEMONIC.match(mn) or not mn.startswith(_KNOWN_PREFIXES):
        raise AsmError(f"not a gfx9 instruction: {body!r}", line)
    if mn == "s_waitcnt":
        ops = [t for t in re.split(r"[\s&,]+", rest) if t]
        mods: tuple[str, ...] = ()
    else:
        ops = split_operands(rest)
        mods_l: list[str] = []
        if ops:
            last = ops[-1].split()
            if last and _MODIFIER.match(last[0]) and len(ops) == 1:
                # an instruction with modifiers only
                mods_l, ops = last, []
            elif last:
                ops[-1] = last[0]
                mods_l = last[1:]
        mods = tuple(mods_l)
        if "" in ops:
            raise AsmError(f"empty operand in {body!r}", line)
    if mn.startswith(_UNREAD):
        raise AsmError(f"{mn}: image instructions are not read by the ISA check (which "
                       "registers they write depends on dmask and d16)", line)
    kind = classify(mn, mods)
    defs, uses = _defs_uses(mn, kind, ops, mods, line)
    vm = lgkm = exp = None
    value = 0
    if kind == "wait":
        vm, lgkm, exp = _decode_wait(mn, ops, line)
    elif kind in ("setprio", "nop"):
        if len(ops) != 1:
            raise AsmError(f"{mn} expects one immediate", line)
        value = _immediate(mn, ops[0], line)
    return AsmInstr(mn, tuple(ops), mods, line, stripped, defs, uses, kind,
                    vm=vm, lgkm=lgkm, value=value, exp=exp)
