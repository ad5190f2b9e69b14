"""A reader of gfx950 assembly as LLVM (llvmlite) prints it.

:func:`parse_asm` turns the text of ``TargetMachine.emit_assembly`` into an
:class:`AsmModule`: functions split into basic blocks of :class:`AsmInstr`
records (one per instruction line: :mod:`pipeline_mlir.isa.asm_instr`, which reads the
mnemonic, operands, modifiers, registers written and read, the instruction kind and
``s_waitcnt`` counters), the control-flow edges between blocks, natural loops,
and the kernel metadata LLVM writes beside the code (the ``.amdgpu_metadata``
YAML document, the ``.amdhsa_kernel`` directives, the ``.set <fn>.<field>``
symbols and the verbose ``; Kernel info:`` comments).

Conventions:

* A block starts at a ``.LBB<f>_<n>:`` label or a ``; %bb.<n>:`` comment; the
  text after ``;`` on that line is the block's ``comment``.
* Text that has instructions before any function label (a hand-written
  snippet) is read as one function named ``<snippet>``.
* The compiler-only fences LLVM prints as comments are instructions
  (:mod:`pipeline_mlir.isa.asm_instr`).

Bad input (a line that is not gfx9 assembly, a malformed register or counter)
raises :class:`AsmError` naming the line.  This module does not import MLIR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from pipeline_mlir.target.gfx950 import NAME
from pipeline_mlir.isa.asm_instr import PSEUDO, AsmError, AsmInstr, parse_instruction
from pipeline_mlir.isa.natural_loops import main_loop as natural_main_loop, natural_loops
from pipeline_mlir.schedule.fences import OPEN_GUARD_MASK

__all__ = [
    "AsmError", "AsmInstr", "AsmBlock", "AsmFunction", "AsmModule", "FunctionCountError",
    "parse_asm", "parse_yaml", "SNIPPET_FUNCTION", "metadata_document", "spill_counts",
    "document_spills", "kernel_spills",
]


class FunctionCountError(AsmError):
    """The only function of the assembly was asked for, and it has none or several
    (``names``, in order): a caller that knows where those functions come from locates the
    error there (``--emit=report`` of a module of two kernels, at the second)."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        super().__init__(f"expected one function, the assembly has {len(names)} "
                         f"({', '.join(names) or 'none'})")

#: name of the function that holds instructions found before any function label
SNIPPET_FUNCTION = "<snippet>"


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
    #: the workgroup's threads when its metadata fixes them (``.reqd_workgroup_size``) and
    #: ``v0`` holds the thread's id alone (``.amdhsa_system_vgpr_workitem_id`` 0); else 0
    threads: int = 0
    #: the workgroup's LDS bytes (``.amdhsa_group_segment_fixed_size``; 0: not stated)
    lds_bytes: int = 0
    #: the phases run once each, in order (straight code: a pipelined loop LLVM unrolled,
    #: :mod:`pipeline_mlir.isa.unrolled`), not the loop's phase from itself nor around it
    straight = False

    def instrs(self) -> list[AsmInstr]:
        return [i for b in self.blocks for i in b.instrs]

    def block(self, label: str) -> AsmBlock:
        for b in self.blocks:
            if b.label == label:
                return b
        raise AsmError(f"function {self.name!r} has no block {label!r}")

    def guard_fences(self) -> frozenset[int]:
        """The ``id`` of each ``sched_barrier`` of a wait-state guard: two fences of mask 0
        (or both of :data:`~pipeline_mlir.schedule.fences.OPEN_GUARD_MASK`, an opened
        guard) with only ``s_nop`` between them, which the lowering puts after an XDL MFMA
        whose readers LLVM may leave short (:mod:`pipeline_mlir.lowering.xdl_window`) and no
        schedule issues (LLVM puts its own ``s_nop`` right before the instruction that
        needs it, never between two fences with nothing else between).  Between an opened
        guard's fences LLVM may also put VALU instructions, which cross them, and the
        waits it inserts before them."""
        out: set[int] = set()
        for b in self.blocks:
            ins = b.instrs
            for k, i in enumerate(ins):
                if i.kind != "sched_barrier" or i.value not in (0, OPEN_GUARD_MASK):
                    continue
                between = ("nop",) if not i.value else ("nop", "valu", "wait")
                j, nops = k + 1, 0
                while j < len(ins) and ins[j].kind in between:
                    nops += ins[j].kind == "nop"
                    j += 1
                if nops and j < len(ins) and ins[j].kind == "sched_barrier" and \
                        ins[j].value == i.value:
                    out |= {id(i), id(ins[j])}
        return frozenset(out)

    def _succs(self) -> list[list[int]]:
        """The control-flow graph on block positions (0 = entry): per block its successors."""
        index = {b.label: i for i, b in enumerate(self.blocks)}
        return [[index[s] for s in b.succs] for b in self.blocks]

    def loops(self) -> list[list[AsmBlock]]:
        """Natural loops, one per loop header (back edges to one header are merged).

        A back edge is a CFG edge ``t -> h`` whose target ``h`` dominates ``t``;
        its loop is ``h`` plus every block that reaches ``t`` without passing
        through ``h`` (:mod:`pipeline_mlir.isa.natural_loops`).  Each loop lists its
        blocks in layout order; loops are sorted innermost first (fewer blocks
        first, then by position).
        """
        return [[self.blocks[i] for i in sorted(lp.blocks)]
                for lp in natural_loops(self._succs())]

    def main_loop(self) -> list[AsmBlock]:
        """The main K-loop: among the innermost loops holding MFMAs, the one with most
        (:func:`pipeline_mlir.isa.natural_loops.main_loop`, the reading the tests'
        steady-loop counter shares).

        (A loop enclosing another MFMA loop, e.g. a persistent-tile loop, is not
        a candidate.)  A function without a loop that holds an MFMA raises
        :class:`AsmError`: it has no main loop, so phases relative to one are
        undefined.
        """
        mfmas = [sum(1 for i in b.instrs if i.kind == "mfma") for b in self.blocks]
        lp = natural_main_loop(natural_loops(self._succs()), mfmas)
        if lp is None:
            raise AsmError(f"function {self.name!r} has no loop holding MFMA instructions",
                           self.line or None)
        return [self.blocks[i] for i in sorted(lp.blocks)]

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
                raise FunctionCountError([f.name for f in self.functions])
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
# the .amdgpu_metadata YAML document

class _NoDuplicateKeys:
    """A safe loader's constructor rejecting a key that appears twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        keys = []                   # a list: a key may be unhashable (PyYAML then names it)
        for key_node, _value in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in keys:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}",
                                                        key_node.start_mark)
            keys.append(key)
        return super().construct_mapping(node, deep=deep)


class _MetadataLoader(_NoDuplicateKeys, yaml.SafeLoader):
    """PyYAML's safe loader, rejecting a key that appears twice in one mapping."""


#: the same loader on libyaml's parser (where PyYAML was built with it): the same
#: constructor, so the same objects, about 5 times faster (LLVM's metadata of a 4-wave
#: kernel: 6 against 31 ms); what it refuses is parsed again by :class:`_MetadataLoader`,
#: whose messages (and line numbers) are the ones said
_FastMetadataLoader = type("_FastMetadataLoader", (_NoDuplicateKeys, yaml.CSafeLoader), {}) \
    if getattr(yaml, "__with_libyaml__", False) else None


def parse_yaml(text: str, first_line: int = 1):
    """Parse a YAML document (LLVM's AMDGPU metadata) with PyYAML's safe loader (on
    libyaml's parser where there is one; a document it refuses is parsed again by the
    pure-Python one, whose message is given).

    ``first_line`` is the line number of the text's first line, for errors; a
    key repeated within one mapping is an error.
    """
    if _FastMetadataLoader is not None:
        try:
            return yaml.load(text, Loader=_FastMetadataLoader)
        except yaml.YAMLError:
            pass
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


def _metadata_doc(text: str, ln: int) -> dict:
    """The ``.amdgpu_metadata`` document ``text``, whose directive is on line ``ln``."""
    doc = parse_yaml(text, ln + 1)
    if not isinstance(doc, dict):
        raise AsmError(".amdgpu_metadata is not a YAML mapping", ln)
    return doc


#: the line that ends the ``.amdgpu_metadata`` document (as :class:`_Reader` tells it)
_META_END = re.compile(r"^[^\S\n]*\.end_amdgpu_metadata[^\S\n]*$", re.M)


def metadata_document(text: str) -> dict:
    """The ``.amdgpu_metadata`` document of assembly ``text`` (the last, as
    :func:`parse_asm` keeps it; ``{}`` without one), read from its block alone: what
    ``parse_asm(text).metadata["amdgpu_metadata"]`` holds, without reading the code (1.3 ms
    against parse_asm's 29 a kernel, on average over the lit tests' 43 IREE kernels; most
    of it the YAML)."""
    doc, pos = {}, 0
    while (at := text.find(".amdgpu_metadata", pos)) >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        pos = at + 1
        if text[line_start:at].strip():     # (the directive opens its line, as _Reader's)
            continue
        ln = text.count("\n", 0, line_start) + 1
        eol = text.find("\n", at)
        end = _META_END.search(text, eol) if eol >= 0 else None
        if end is None:
            raise AsmError(".amdgpu_metadata without .end_amdgpu_metadata", ln)
        doc = _metadata_doc(text[eol + 1:end.start()], ln)
        pos = end.end()
    return doc


def spill_counts(kernel: dict) -> tuple[int, int]:
    """(VGPRs, SGPRs) a kernel spills: the ``.vgpr_spill_count`` and ``.sgpr_spill_count``
    of its ``amdhsa.kernels`` entry (an assembly's or a code object's), 0 where absent."""
    out = []
    for key in (".vgpr_spill_count", ".sgpr_spill_count"):
        n = kernel.get(key, 0)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise AsmError(f"the .amdgpu_metadata of {kernel.get('.name', 'a kernel')} has "
                           f"{key} {n!r}, not a count")
        out.append(n)
    return out[0], out[1]


def document_spills(doc) -> list[tuple[int, int]]:
    """:func:`spill_counts` of every ``amdhsa.kernels`` entry of a metadata document (an
    assembly's, :func:`metadata_document`, or a code object's note), in order; [] without
    one."""
    kernels = (doc.get("amdhsa.kernels") or []) if isinstance(doc, dict) else []
    return [spill_counts(k) for k in kernels if isinstance(k, dict)]


def kernel_spills(text: str) -> list[tuple[int, int]]:
    """:func:`document_spills` of assembly ``text``'s metadata (:func:`metadata_document`):
    the one reading of the spill counts the LLVM step's second build, the tuner and the
    report share."""
    return document_spills(metadata_document(text))


# ---------------------------------------------------------------------------
# the module reader

_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):$")
_BB_COMMENT = re.compile(r"^;\s*(%bb\.\d+):(.*)$")

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
    r = _Reader(text.split("\n"))
    r.read()
    if r.kd_name is not None:
        raise AsmError(f".amdhsa_kernel {r.kd_name} without .end_amdhsa_kernel")
    if not r.functions:
        raise AsmError(f"no function or instruction found: is this {NAME} assembly?")
    for f in r.functions:
        _link(f)
        f.threads = _threads(r.meta, f.name)
        size = r.meta.get("amdhsa_kernel", {}).get(f.name, {}).get(
            ".amdhsa_group_segment_fixed_size")
        f.lds_bytes = size if isinstance(size, int) and size > 0 else 0
    return AsmModule(r.functions, r.meta)


def _threads(meta: dict, name: str) -> int:
    """:attr:`AsmFunction.threads` of function ``name`` from the module's metadata."""
    kd = meta.get("amdhsa_kernel", {}).get(name, {})
    if kd.get(".amdhsa_system_vgpr_workitem_id") != 0:
        return 0
    for k in meta.get("amdgpu_metadata", {}).get("amdhsa.kernels", []) or []:
        if isinstance(k, dict) and k.get(".name") == name:
            size = k.get(".reqd_workgroup_size")
            if isinstance(size, list) and len(size) == 3 and size[1:] == [1, 1] and \
                    isinstance(size[0], int) and size[0] > 0:
                return size[0]
    return 0


class _Reader:
    """The state of :func:`parse_asm` going through the lines: the functions so far, the
    current function and block, the metadata, and which directive block it is inside."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.fn_symbols = set()
        for ln in lines:
            m = re.match(r"^\s*\.type\s+([^,\s]+)\s*,\s*@function", ln)
            if m:
                self.fn_symbols.add(m.group(1))
        self.functions: list[AsmFunction] = []
        self.meta: dict = {"amdgpu_metadata": {}, "amdhsa_kernel": {}, "symbols": {},
                           "kernel_info": {}}
        self.fn: AsmFunction | None = None
        self.block: AsmBlock | None = None
        self.in_fn = False
        self.kd_name: str | None = None
        self.info_fn: str | None = None   # inside a '; Kernel info:' comment block of this fn
        self.last_fn_name: str | None = None
        self.i = 0

    def read(self) -> None:
        lines = self.lines
        while self.i < len(lines):
            ln = self.i + 1
            s = lines[self.i].strip()
            self.i += 1
            if not s:
                continue
            if s.startswith(".amdgpu_metadata"):
                self.metadata(ln)
            elif self.kd_name is not None:
                self.descriptor(s)
            elif s.startswith(";"):
                self.comment(s, ln)
            else:
                self.info_fn = None
                code, _, comment = s.partition(";")
                code, comment = code.strip(), comment.strip()
                lm = _LABEL.match(code)
                if lm:
                    self.label(lm.group(1), comment, ln)
                elif code.startswith("."):
                    self.directive(code)
                else:
                    self.instruction(s, ln)

    def metadata(self, ln: int) -> None:
        """The ``.amdgpu_metadata`` document up to ``.end_amdgpu_metadata``."""
        lines = self.lines
        start = self.i
        while self.i < len(lines) and lines[self.i].strip() != ".end_amdgpu_metadata":
            self.i += 1
        if self.i >= len(lines):
            raise AsmError(".amdgpu_metadata without .end_amdgpu_metadata", ln)
        self.meta["amdgpu_metadata"] = _metadata_doc("\n".join(lines[start:self.i]), ln)
        self.i += 1

    def descriptor(self, s: str) -> None:
        """A line inside an ``.amdhsa_kernel`` block."""
        if s.startswith(".end_amdhsa_kernel"):
            self.kd_name = None
        elif s.startswith(".amdhsa_"):
            key, _, val = s.partition(" ")
            self.meta["amdhsa_kernel"][self.kd_name][key] = _int_or_text(val)

    def comment(self, s: str, ln: int) -> None:
        """A comment line: kernel info, a ``; %bb.<n>:`` block start, a fence, the end of
        a function."""
        if s.startswith("; Kernel info:"):
            self.info_fn = self.last_fn_name or ""
            self.meta["kernel_info"].setdefault(self.info_fn, {})
            return
        if self.info_fn is not None:
            m = re.match(r"^;\s*(.*?)\s*:\s+(.*)$", s)
            if m:
                self.meta["kernel_info"][self.info_fn][m.group(1)] = _int_or_text(m.group(2))
                return
        bm = _BB_COMMENT.match(s)
        if bm and self.in_fn:
            self.block = AsmBlock(bm.group(1),
                                  comment=bm.group(2).strip().lstrip(";").strip(), line=ln)
            self.fn.blocks.append(self.block)
        elif PSEUDO.match(s) and self.in_fn:
            self.block = _ensure_block(self.fn, self.block, ln)
            self.block.instrs.append(parse_instruction(s, ln))
        elif s.startswith("; -- End function"):
            self.in_fn, self.block = False, None

    def label(self, name: str, comment: str, ln: int) -> None:
        """A label: a function, the end of one, or a block."""
        if self.in_fn and _is_alias(name, self.fn):
            return  # '.L<fn>$local:' right at the function's start: the same function
        if name in self.fn_symbols or (not self.fn_symbols and not name.startswith(".L")):
            self.fn = AsmFunction(name, line=ln)
            self.functions.append(self.fn)
            self.last_fn_name = name
            self.in_fn, self.block = True, None
        elif name.startswith(".Lfunc_end"):
            self.in_fn, self.block = False, None
        elif self.in_fn:
            self.block = AsmBlock(name, comment=comment, line=ln)
            self.fn.blocks.append(self.block)

    def directive(self, code: str) -> None:
        """``.amdhsa_kernel`` (its block follows), ``.set`` symbols, ``.size``."""
        if code.startswith(".amdhsa_kernel"):
            self.kd_name = code.split(None, 1)[1].strip() if " " in code else ""
            self.meta["amdhsa_kernel"][self.kd_name] = {}
            return
        m = re.match(r"^\.set\s+([^,\s]+)\s*,\s*(.+)$", code)
        if m:
            _record_symbol(self.meta["symbols"], self.functions, m.group(1), m.group(2))
        elif re.match(r"^\.size\s", code):
            self.in_fn, self.block = False, None

    def instruction(self, s: str, ln: int) -> None:
        if not self.in_fn:
            if self.functions and self.functions[-1].name != SNIPPET_FUNCTION:
                raise AsmError(f"instruction outside a function: {s!r}", ln)
            if not self.functions:
                self.fn = AsmFunction(SNIPPET_FUNCTION, line=ln)
                self.functions.append(self.fn)
                self.last_fn_name = self.fn.name
            self.in_fn = True
        self.block = _ensure_block(self.fn, self.block, ln)
        instr = parse_instruction(s, ln)
        self.block.instrs.append(instr)
        if instr.kind == "branch":
            # a branch ends its basic block even where the assembly has no label or
            # '; %bb' comment after it (assembly printed without verbose comments)
            self.block = None


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
        far = _long_branch_target(b)
        if far is not None and far in labels and far not in succs:
            succs.append(far)
        ends = last is not None and (last.mnemonic in _TERMINATORS)
        if not ends and k + 1 < len(fn.blocks):
            nxt = fn.blocks[k + 1].label
            if nxt not in succs:
                succs.append(nxt)
        b.succs = succs


#: LLVM's long branch (a target beyond ``s_branch``'s 16-bit offset): ``s_getpc_b64 s[a:b]``,
#: then ``s_add_u32 sa, sa, (<target>-<label after the getpc>)&4294967295`` and its carry
#: into ``sb``, then ``s_setpc_b64 s[a:b]``; the block holding the add and the setpc
_LONG_BRANCH_ADD = re.compile(r"^\((\.?[\w.$]+)-(\.?[\w.$]+)\)&4294967295$")


def _long_branch_target(b: AsmBlock) -> str | None:
    """The label block ``b``'s ``s_setpc_b64`` jumps to when it ends LLVM's long branch
    (``_LONG_BRANCH_ADD``), else None (another ``s_setpc_b64``: a return or an indirect
    jump, no known successor)."""
    if not b.instrs or b.instrs[-1].mnemonic != "s_setpc_b64":
        return None
    pair = b.instrs[-1].operands[0] if b.instrs[-1].operands else None
    for ins in reversed(b.instrs[:-1]):
        if ins.mnemonic == "s_add_u32" and len(ins.operands) == 3 and pair is not None \
                and pair.startswith(f"s[{ins.operands[0].lstrip('s')}:"):
            m = _LONG_BRANCH_ADD.match(ins.operands[2].replace(" ", ""))
            return m.group(1) if m and m.group(2) == b.label else None
    return None
