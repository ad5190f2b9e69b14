"""A reader of gfx950 assembly as LLVM (llvmlite) prints it.

:func:`parse_asm` turns the text of ``TargetMachine.emit_assembly`` into an
:class:`AsmModule`: functions split into basic blocks of :class:`AsmInstr`
records (mnemonic, operands, modifiers, registers written and read, an
instruction kind from :data:`pipeline_mlir.sim.instr.KINDS`, decoded
``s_waitcnt`` counters), the control-flow edges between blocks, natural loops,
and the kernel metadata LLVM writes beside the code (the ``.amdgpu_metadata``
YAML document, the ``.amdhsa_kernel`` directives, the ``.set <fn>.<field>``
symbols and the verbose ``; Kernel info:`` comments).

Conventions:

* LLVM prints the compiler-only fences as comments, ``; sched_barrier
  mask(0x00000000)`` and ``; sched_group_barrier mask(0x00000008) size(1)
  SyncID(0)``; they become pseudo instructions of kind ``sched_barrier`` /
  ``sched_group_barrier`` whose ``value`` is the mask.
* A block starts at a ``.LBB<f>_<n>:`` label or a ``; %bb.<n>:`` comment; the
  text after ``;`` on that line is the block's ``comment``.
* Text that has instructions before any function label (a hand-written
  snippet) is read as one function named ``<snippet>``.
* Registers are expanded one per 32-bit register (``v[8:11]`` -> ``v8 v9 v10
  v11``); ``vcc_lo/vcc_hi`` count as ``vcc``, ``exec_lo/exec_hi`` as ``exec``.
  Implicit registers recorded: ``scc`` (SALU arithmetic and compares write it,
  ``s_cselect``/``s_addc``/``s_subb``/``s_cbranch_scc*`` read it), ``vcc`` (VOPC
  and carry ops in e32 form, ``v_cndmask_b32_e32``, ``s_cbranch_vcc*``),
  ``exec`` (read by every vector instruction; written by ``*_saveexec``,
  ``v_cmpx``), ``m0`` (read by LDS-DMA loads).

Bad input (a line that is not gfx9 assembly, a malformed register or counter)
raises :class:`AsmError` naming the line.  This module does not import MLIR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import yaml

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.waitcnt import EXPCNT_MAX, LGKMCNT_MAX, VMCNT_MAX, decode_waitcnt

if TYPE_CHECKING:  # networkx is imported where the CFG is built: it costs ~0.1 s to load
    import networkx as nx

__all__ = [
    "AsmError", "AsmInstr", "AsmBlock", "AsmFunction", "AsmModule", "parse_asm",
    "parse_yaml", "SNIPPET_FUNCTION",
]

#: name of the function that holds instructions found before any function label
SNIPPET_FUNCTION = "<snippet>"


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


@dataclass
class AsmBlock:
    label: str
    instrs: list[AsmInstr] = field(default_factory=list)
    succs: list[str] = field(default_factory=list)
    comment: str = ""
    line: int = 0


@dataclass
class AsmFunction:
    name: str
    blocks: list[AsmBlock] = field(default_factory=list)
    line: int = 0

    def instrs(self) -> list[AsmInstr]:
        return [i for b in self.blocks for i in b.instrs]

    def block(self, label: str) -> AsmBlock:
        for b in self.blocks:
            if b.label == label:
                return b
        raise AsmError(f"function {self.name!r} has no block {label!r}")

    def _cfg(self) -> nx.DiGraph:
        """The control-flow graph on block positions (0 = entry)."""
        import networkx as nx

        index = {b.label: i for i, b in enumerate(self.blocks)}
        g = nx.DiGraph()
        g.add_nodes_from(range(len(self.blocks)))
        g.add_edges_from((i, index[s]) for i, b in enumerate(self.blocks) for s in b.succs)
        return g

    def _dominator_sets(self, g: nx.DiGraph) -> dict[int, set[int]]:
        """Block position -> positions of its dominators, for blocks reachable from 0."""
        import networkx as nx

        idom = nx.immediate_dominators(g, 0)
        out = {}
        for n in set(idom) | {0}:
            d, m = {n}, n
            while m != 0:
                m = idom[m]
                d.add(m)
            out[n] = d
        return out

    def dominators(self) -> dict[str, set[str]]:
        """Block label -> labels of the blocks dominating it (entry = first block).

        Blocks unreachable from the entry are left out.
        """
        if not self.blocks:
            return {}
        dom = self._dominator_sets(self._cfg())
        return {self.blocks[i].label: {self.blocks[j].label for j in d} for i, d in dom.items()}

    def loops(self) -> list[list[AsmBlock]]:
        """Natural loops, one per loop header (back edges to one header are merged).

        A back edge is a CFG edge ``t -> h`` whose target ``h`` dominates ``t``;
        its loop is ``h`` plus every block that reaches ``t`` without passing
        through ``h``.  Each loop lists its blocks in layout order; loops are
        sorted innermost first (fewer blocks first, then by position).
        """
        import networkx as nx

        if not self.blocks:
            return []
        g = self._cfg()
        dom = self._dominator_sets(g)
        back: dict[int, list[int]] = {}
        for t, h in g.edges:
            if t in dom and h in dom[t]:
                back.setdefault(h, []).append(t)
        loops = []
        for head, tails in back.items():
            rest = g.subgraph(set(g) - {head})
            body = {head}
            for t in tails:
                if t != head:
                    body |= {t} | nx.ancestors(rest, t)
            loops.append(sorted(body))
        loops.sort(key=lambda blk: (len(blk), blk[0]))
        return [[self.blocks[i] for i in blk] for blk in loops]

    def main_loop(self) -> list[AsmBlock]:
        """The main K-loop: among the innermost loops holding MFMAs, the one with most.

        (A loop enclosing another MFMA loop, e.g. a persistent-tile loop, is not
        a candidate.)  A function without a loop that holds an MFMA raises
        :class:`AsmError`: it has no main loop, so phases relative to one are
        undefined.
        """
        def mfmas(lp):
            return sum(1 for b in lp for i in b.instrs if i.kind == "mfma")
        cands = [lp for lp in self.loops() if mfmas(lp)]
        sets = [{id(b) for b in lp} for lp in cands]
        inner = [lp for lp, st in zip(cands, sets) if not any(o < st for o in sets)]
        if not inner:
            raise AsmError(f"function {self.name!r} has no loop holding MFMA instructions",
                           self.line or None)
        return max(inner, key=mfmas)

    def main_loop_phases(self) -> dict[str, list[AsmInstr]]:
        """``{'prologue', 'loop', 'epilogue'}`` instructions around the main K-loop.

        ``loop`` is the body of :meth:`main_loop` in layout order; ``prologue``
        every block laid out before the loop header, ``epilogue`` every other
        block (laid out after the header and not in the loop).  Raises
        :class:`AsmError` if the function has no such loop.
        """
        loop = self.main_loop()
        in_loop = {id(b) for b in loop}
        head = next(i for i, b in enumerate(self.blocks) if id(b) == id(loop[0]))
        phases: dict[str, list[AsmInstr]] = {"prologue": [], "loop": [], "epilogue": []}
        for i, b in enumerate(self.blocks):
            key = "loop" if id(b) in in_loop else ("prologue" if i < head else "epilogue")
            phases[key].extend(b.instrs)
        return phases


@dataclass
class AsmModule:
    """Parsed assembly: functions and metadata.

    ``metadata`` keys: ``amdgpu_metadata`` (the ``.amdgpu_metadata`` YAML
    document, e.g. ``['amdhsa.kernels'][0]['.vgpr_count']``), ``amdhsa_kernel``
    (``{kernel: {'.amdhsa_next_free_vgpr': 256, ...}}``), ``symbols``
    (``{function: {'num_vgpr': 256, ...}}`` from ``.set``), ``kernel_info``
    (``{function: {'Occupancy': 2, 'LDSByteSize': '131072 bytes/workgroup ...'}}``).
    Missing sections are empty dicts.
    """

    functions: list[AsmFunction]
    metadata: dict

    def function(self, name: str | None = None) -> AsmFunction:
        """The function called ``name``; without a name, the only function."""
        if name is None:
            if len(self.functions) != 1:
                raise AsmError(f"expected one function, the assembly has {len(self.functions)}"
                               f" ({', '.join(f.name for f in self.functions) or 'none'})")
            return self.functions[0]
        for f in self.functions:
            if f.name == name:
                return f
        raise AsmError(f"no function {name!r} in the assembly (functions: "
                       f"{', '.join(f.name for f in self.functions) or 'none'})")

    def kernel_metadata(self, name: str) -> dict:
        """The ``amdhsa.kernels`` entry of kernel ``name`` (``.name`` field)."""
        for k in self.metadata.get("amdgpu_metadata", {}).get("amdhsa.kernels", []) or []:
            if isinstance(k, dict) and k.get(".name") == name:
                return k
        raise AsmError(f"the .amdgpu_metadata document has no kernel {name!r}")


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
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):$")
_BB_COMMENT = re.compile(r"^;\s*(%bb\.\d+):(.*)$")
_PSEUDO = re.compile(r"^;\s*(sched_barrier|sched_group_barrier)(?:\s+(.*))?$")
_MASK = re.compile(r"mask\((0x[0-9a-fA-F]+|\d+)\)")


def split_operands(text: str) -> list[str]:
    """Split on top-level commas (not inside ``[]`` or ``()``)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail or out:
        out.append(tail)
    return out


def registers(operand: str, line: int | None = None) -> tuple[str, ...]:
    """Registers named by one operand, one per 32-bit register; () for non-registers."""
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
            raise AsmError(f"register range {operand!r} ends before it starts", line)
        return tuple(f"{m.group(1)}{r}" for r in range(lo, hi + 1))
    m = _REG_ONE.match(op)
    if m:
        return (f"{m.group(1)}{int(m.group(2))}",)
    if re.match(r"^(v|a|s|ttmp)\[", op):
        raise AsmError(f"malformed register operand {operand!r}", line)
    return ()


# ---------------------------------------------------------------------------
# classification

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
    if m.startswith(("buffer_", "global_", "flat_", "scratch_")):
        if "_load" in m:
            return "vmem_load_lds" if ("lds" in modifiers or "_lds_" in m or m.endswith("_lds")) \
                else "vmem_load"
        # stores and atomics (both are vm events whose data leaves the wave)
        return "vmem_store"
    if m.startswith(("s_load", "s_buffer_load", "s_scratch_load", "s_store", "s_buffer_store")):
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


# SALU instructions that do NOT write scc (everything else of kind salu does)
_SALU_NO_SCC = ("s_mov", "s_movk", "s_cmov", "s_cmovk", "s_mul_i32", "s_mul_hi", "s_cselect",
                "s_getpc", "s_setpc", "s_swappc", "s_sext", "s_brev", "s_bitset", "s_movrel",
                "s_lshl1_add", "s_lshl2_add", "s_lshl3_add", "s_lshl4_add", "s_pack",
                "s_mulk", "s_version", "s_readfirstlane")
_SCC_READERS = ("s_cselect", "s_addc", "s_subb", "s_cbranch_scc", "s_cmov", "s_cmovk")
_TWO_DEF = re.compile(r"^v_(add|sub|subrev)_co_u32_e64$|^v_(addc|subb|subbrev)_co_u32_e64$"
                      r"|^v_mad_(u|i)64_(u|i)32$|^v_div_scale_")


def _defs_uses(m: str, kind: str, ops: list[str], mods: tuple[str, ...],
               line: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    regs = [registers(o, line) for o in ops]
    defs: list[str] = []
    uses: list[str] = []
    no_def = kind in ("vmem_store", "ds_write", "vmem_load_lds", "wait", "barrier", "setprio",
                      "nop", "branch", "sched_barrier", "sched_group_barrier", "other") \
        or m.startswith(("s_cmp", "s_bitcmp", "s_store", "s_buffer_store", "v_cmpx"))
    if m.startswith(("buffer_atomic", "global_atomic", "flat_atomic")) and "glc" in mods:
        no_def = False          # returning atomics write their first operand
    if m in ("s_getreg_b32", "s_memtime", "s_memrealtime"):
        no_def = False
    if no_def:
        for r in regs:
            uses.extend(r)
    else:
        ndef = 2 if _TWO_DEF.match(m) else 1
        for k, r in enumerate(regs):
            (defs if k < ndef else uses).extend(r)
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
                    raise AsmError(f"{name}({val}) is outside the gfx950 range 0..{hi}", line)
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
    try:
        val = int(ops[1], 0)
    except ValueError:
        raise AsmError(f"{m} immediate {ops[1]!r} is not an integer", line) from None
    if m == "s_waitcnt_vmcnt":
        return (None if val >= VMCNT_MAX else val), None, None
    if m == "s_waitcnt_lgkmcnt":
        return None, (None if val >= LGKMCNT_MAX else val), None
    if m == "s_waitcnt_expcnt":
        return None, None, (None if val >= EXPCNT_MAX else val)
    # vscnt (stores, gfx10+) has no counter on gfx9: neither vm nor lgkm is waited for
    return None, None, None


def parse_instruction(text: str, line: int) -> AsmInstr:
    """One instruction line (comments already stripped, or a fence comment)."""
    stripped = text.strip()
    pm = _PSEUDO.match(stripped)
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
    kind = classify(mn, mods)
    defs, uses = _defs_uses(mn, kind, ops, mods, line)
    vm = lgkm = exp = None
    value = 0
    if kind == "wait":
        vm, lgkm, exp = _decode_wait(mn, ops, line)
    elif kind in ("setprio", "nop"):
        if len(ops) != 1:
            raise AsmError(f"{mn} expects one immediate", line)
        try:
            value = int(ops[0], 0)
        except ValueError:
            raise AsmError(f"{mn} immediate {ops[0]!r} is not an integer", line) from None
    return AsmInstr(mn, tuple(ops), mods, line, stripped, defs, uses, kind,
                    vm=vm, lgkm=lgkm, value=value, exp=exp)


# ---------------------------------------------------------------------------
# the .amdgpu_metadata YAML document

class _MetadataLoader(yaml.SafeLoader):
    """PyYAML's safe loader, rejecting a key that appears twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        keys = []                   # a list: a key may be unhashable (PyYAML then names it)
        for key_node, _value in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in keys:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}",
                                                        key_node.start_mark)
            keys.append(key)
        return super().construct_mapping(node, deep=deep)


def parse_yaml(text: str, first_line: int = 1):
    """Parse a YAML document (LLVM's AMDGPU metadata) with PyYAML's safe loader.

    ``first_line`` is the line number of the text's first line, for errors; a
    key repeated within one mapping is an error.
    """
    try:
        return yaml.load(text, Loader=_MetadataLoader)
    except yaml.YAMLError as e:
        mark, problem = getattr(e, "problem_mark", None), getattr(e, "problem", None)
        context, cmark = getattr(e, "context", None), getattr(e, "context_mark", None)
        message = f"YAML: {problem or e}"
        if context:
            at = f" at line {first_line + cmark.line}" if cmark is not None and (
                mark is None or cmark.line != mark.line) else ""
            message += f" ({context}{at})"
        raise AsmError(message, first_line + mark.line if mark is not None else None) from None


# ---------------------------------------------------------------------------
# the module reader

def _int_or_text(v: str):
    v = v.strip()
    try:
        return int(v, 0)
    except ValueError:
        return v


_TERMINATORS = ("s_branch", "s_endpgm", "s_setpc_b64")


def parse_asm(text: str) -> AsmModule:
    """Parse gfx950 assembly text (see the module docstring)."""
    if not isinstance(text, str):
        raise AsmError(f"assembly must be text, got {type(text).__name__}")
    lines = text.split("\n")
    fn_symbols = set()
    for ln in lines:
        m = re.match(r"^\s*\.type\s+([^,\s]+)\s*,\s*@function", ln)
        if m:
            fn_symbols.add(m.group(1))

    functions: list[AsmFunction] = []
    meta: dict = {"amdgpu_metadata": {}, "amdhsa_kernel": {}, "symbols": {}, "kernel_info": {}}
    fn: AsmFunction | None = None
    block: AsmBlock | None = None
    in_fn = False
    kd_name: str | None = None
    info_fn: str | None = None     # inside a '; Kernel info:' comment block of this function
    last_fn_name: str | None = None
    i = 0
    while i < len(lines):
        ln = i + 1
        s = lines[i].strip()
        i += 1
        if not s:
            continue
        if s.startswith(".amdgpu_metadata"):
            start = i
            while i < len(lines) and lines[i].strip() != ".end_amdgpu_metadata":
                i += 1
            if i >= len(lines):
                raise AsmError(".amdgpu_metadata without .end_amdgpu_metadata", ln)
            doc = parse_yaml("\n".join(lines[start:i]), start + 1)
            if not isinstance(doc, dict):
                raise AsmError(".amdgpu_metadata is not a YAML mapping", ln)
            meta["amdgpu_metadata"] = doc
            i += 1
            continue
        if kd_name is not None:
            if s.startswith(".end_amdhsa_kernel"):
                kd_name = None
            elif s.startswith(".amdhsa_"):
                key, _, val = s.partition(" ")
                meta["amdhsa_kernel"][kd_name][key] = _int_or_text(val)
            continue
        if s.startswith(";"):
            if s.startswith("; Kernel info:"):
                info_fn = last_fn_name or ""
                meta["kernel_info"].setdefault(info_fn, {})
                continue
            if info_fn is not None:
                m = re.match(r"^;\s*(.*?)\s*:\s+(.*)$", s)
                if m:
                    meta["kernel_info"][info_fn][m.group(1)] = _int_or_text(m.group(2))
                    continue
            bm = _BB_COMMENT.match(s)
            if bm and in_fn:
                block = AsmBlock(bm.group(1), comment=bm.group(2).strip().lstrip(";").strip(),
                                 line=ln)
                fn.blocks.append(block)
            elif _PSEUDO.match(s) and in_fn:
                block = _ensure_block(fn, block, ln)
                block.instrs.append(parse_instruction(s, ln))
            elif s.startswith("; -- End function"):
                in_fn, block = False, None
            continue
        info_fn = None
        code, _, comment = s.partition(";")
        code, comment = code.strip(), comment.strip()
        lm = _LABEL.match(code)
        if lm:
            name = lm.group(1)
            if in_fn and _is_alias(name, fn):
                continue  # '.L<fn>$local:' right at the function's start: the same function
            if name in fn_symbols or (not fn_symbols and not name.startswith(".L")):
                fn = AsmFunction(name, line=ln)
                functions.append(fn)
                last_fn_name = name
                in_fn, block = True, None
            elif name.startswith(".Lfunc_end"):
                in_fn, block = False, None
            elif in_fn:
                block = AsmBlock(name, comment=comment, line=ln)
                fn.blocks.append(block)
            continue
        if code.startswith("."):
            if code.startswith(".amdhsa_kernel"):
                kd_name = code.split(None, 1)[1].strip() if " " in code else ""
                meta["amdhsa_kernel"][kd_name] = {}
                continue
            m = re.match(r"^\.set\s+([^,\s]+)\s*,\s*(.+)$", code)
            if m:
                _record_symbol(meta["symbols"], functions, m.group(1), m.group(2))
            elif re.match(r"^\.size\s", code):
                in_fn, block = False, None
            continue
        # an instruction
        if not in_fn:
            if functions and functions[-1].name != SNIPPET_FUNCTION:
                raise AsmError(f"instruction outside a function: {s!r}", ln)
            if not functions:
                fn = AsmFunction(SNIPPET_FUNCTION, line=ln)
                functions.append(fn)
                last_fn_name = fn.name
            in_fn = True
        block = _ensure_block(fn, block, ln)
        instr = parse_instruction(s, ln)
        block.instrs.append(instr)
        if instr.kind == "branch":
            # a branch ends its basic block even where the assembly has no label or
            # '; %bb' comment after it (assembly printed without verbose comments)
            block = None
    if kd_name is not None:
        raise AsmError(f".amdhsa_kernel {kd_name} without .end_amdhsa_kernel")
    if not functions:
        raise AsmError("no function or instruction found: is this gfx950 assembly?")
    for f in functions:
        _link(f)
    return AsmModule(functions, meta)


def _is_alias(label: str, fn: AsmFunction) -> bool:
    """A second label of ``fn`` (Mojo's ``.L<name>$local:``): named after it and placed
    before its first instruction."""
    return label in (f".L{fn.name}$local", f"{fn.name}$local") and \
        not any(b.instrs for b in fn.blocks)


def _record_symbol(symbols: dict, functions: list[AsmFunction], name: str, value: str) -> None:
    """``.set <fn>.<field>, value`` (Mojo writes ``.set .L<fn>.<field>``)."""
    for f in functions:
        for prefix in (f.name + ".", ".L" + f.name + ".", ".L" + f.name + "$local."):
            if name.startswith(prefix):
                symbols.setdefault(f.name, {})[name[len(prefix):]] = _int_or_text(value)
                return


def _ensure_block(fn: AsmFunction, block: AsmBlock | None, ln: int) -> AsmBlock:
    if block is None:
        block = AsmBlock(fn.name if not fn.blocks else f"<anon@{ln}>", line=ln)
        fn.blocks.append(block)
    return block


def _link(fn: AsmFunction) -> None:
    labels = {b.label for b in fn.blocks}
    for k, b in enumerate(fn.blocks):
        succs: list[str] = []
        last = b.instrs[-1] if b.instrs else None
        for ins in b.instrs:
            if ins.kind == "branch" and ins.mnemonic not in ("s_setpc_b64", "s_swappc_b64"):
                if not ins.operands:
                    raise AsmError(f"{ins.mnemonic} without a target", ins.line)
                target = ins.operands[0]
                if target not in labels:
                    raise AsmError(f"branch to unknown label {target!r} in function "
                                   f"{fn.name!r}", ins.line)
                if target not in succs:
                    succs.append(target)
        ends = last is not None and (last.mnemonic in _TERMINATORS)
        if not ends and k + 1 < len(fn.blocks):
            nxt = fn.blocks[k + 1].label
            if nxt not in succs:
                succs.append(nxt)
        b.succs = succs
