"""What the code kinds of ``pipeline-opt --emit`` mean, in a canonical text that ignores layout.

The byte-for-byte snapshot froze SSA names, label numbers and ELF layout that the lit and
ISA tests pin by meaning already. For the code kinds the snapshot compares instead:

* ``mlir``: the module parsed and printed in MLIR's generic form, which numbers every value
  and block afresh (``%0``, ``^bb0``) and writes attribute aliases out;
* ``llvm``: the module parsed by llvmlite with the names of arguments, blocks and
  instructions cleared, so LLVM numbers them (``%0``, ``%1`` ...) when it prints;
* ``asm``: each function's instructions as :func:`pipeline_mlir.isa.asm.parse_asm` reads
  them (mnemonic, operands, modifiers; comments dropped, the compiler's fence comments kept
  as pseudo instructions), the labels that instructions refer to renumbered ``L0``, ``L1``
  ... in order of appearance, and the metadata values LLVM writes beside the code
  (``.amdgpu_metadata``, ``.amdhsa_kernel`` directives, ``.set`` symbols);
* ``obj`` / ``hsaco``: the ELF type and flags, the ``NT_AMDGPU_METADATA`` note's values, each
  symbol (name, type, binding, size; the value only of an absolute symbol), each kernel
  descriptor's fields (not its entry offset, which is layout), each function's instructions
  decoded by :mod:`pipeline_mlir.emu.decode`, and (in an object file) the relocations.

:func:`summary` keeps of that text its SHA-256 and a count of each op, opcode or mnemonic:
small, and on a difference the counts say roughly what changed.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections import Counter

CODE_KINDS = ("mlir", "llvm", "asm", "obj", "hsaco")


def canonical(kind: str, data: bytes) -> tuple[str, Counter]:
    """(the canonical text of an output of emit kind ``kind``, what it counts); no output
    (a failing command's) is the empty text."""
    return _NORMALISERS[kind](data) if data else ("", Counter())


def summary(kind: str, data: bytes) -> dict:
    """``{"sha256": ..., "counts": {...}}`` of :func:`canonical`."""
    text, counts = canonical(kind, data)
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(),
            "counts": dict(sorted(counts.items()))}


def _json(obj) -> str:
    return json.dumps(obj, sort_keys=True, indent=1, default=str)


# ---------------------------------------------------------------------------
# MLIR

_MLIR_OP = re.compile(r'^\s*(?:%[^=]+= )?"([\w.$]+)"\(', re.MULTILINE)


def _mlir(data: bytes) -> tuple[str, Counter]:
    from pipeline_mlir.dialect.bindings import ir, new_context

    with new_context():
        module = ir.Module.parse(data.decode())
        text = module.operation.get_asm(print_generic_op_form=True)
    return text, Counter(_MLIR_OP.findall(text))


# ---------------------------------------------------------------------------
# LLVM IR

def _llvm(data: bytes) -> tuple[str, Counter]:
    import llvmlite.binding as llvm

    module = llvm.parse_assembly(data.decode())
    counts: Counter = Counter()
    for fn in module.functions:
        for arg in fn.arguments:
            arg.name = ""
        for block in fn.blocks:
            block.name = ""
            for ins in block.instructions:
                ins.name = ""
                counts[ins.opcode] += 1
                if ins.opcode == "call":
                    counts["call @" + list(ins.operands)[-1].name] += 1
    text = str(module)
    # the module's identifier is where llvmlite read it from, not part of the module
    return text.split("\n", 1)[1] if text.startswith("; ModuleID") else text, counts


# ---------------------------------------------------------------------------
# assembly

def _asm(data: bytes) -> tuple[str, Counter]:
    from pipeline_mlir.isa.asm import parse_asm

    module = parse_asm(data.decode())
    lines, counts = [], Counter()
    for fn in module.functions:
        labels = {b.label for b in fn.blocks}
        used: dict[str, str] = {}
        for ins in fn.instrs():
            for op in ins.operands:
                if op in labels:
                    used.setdefault(op, f"L{len(used)}")
        lines.append(f"function {fn.name}")
        for block in fn.blocks:
            if block.label in used:
                lines.append(f"{used[block.label]}:")
            for ins in block.instrs:
                ops = ", ".join(used.get(op, op) for op in ins.operands)
                lines.append(" ".join(filter(None, (ins.mnemonic, ops, *ins.modifiers))))
                counts[ins.mnemonic] += 1
    meta = {k: module.metadata[k] for k in ("amdgpu_metadata", "amdhsa_kernel", "symbols")}
    return "\n".join(lines) + "\n" + _json(meta), counts


# ---------------------------------------------------------------------------
# code objects and object files

def _elf(data: bytes) -> tuple[str, Counter]:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.relocation import RelocationSection

    elf = ELFFile(io.BytesIO(data))
    sections = list(elf.iter_sections())
    out: dict = {"e_type": elf["e_type"], "e_flags": elf["e_flags"], "notes": [],
                 "symbols": [], "descriptors": {}, "code": {}, "relocations": []}
    counts: Counter = Counter()
    for sec in sections:
        if sec["sh_type"] == "SHT_NOTE":
            out["notes"] += [_note(n) for n in sec.iter_notes()]
        elif sec["sh_type"] == "SHT_SYMTAB":
            for sym in sec.iter_symbols():
                out["symbols"].append(_symbol(sym, sections))
                _symbol_contents(out, counts, sym, sections)
        elif isinstance(sec, RelocationSection):
            symtab = elf.get_section(sec["sh_link"])
            target = sections[sec["sh_info"]].name
            out["relocations"] += [(target, r["r_offset"], r["r_info_type"],
                                    symtab.get_symbol(r["r_info_sym"]).name,
                                    r.entry.get("r_addend")) for r in sec.iter_relocations()]
    out["symbols"].sort()
    return _json(out), counts


def _note(note) -> dict:
    from pipeline_mlir.isa.codeobject import NT_AMDGPU_METADATA, decode_msgpack

    desc = note["n_descdata"]
    if note["n_name"] == "AMDGPU" and note["n_type"] in (NT_AMDGPU_METADATA,
                                                         "NT_AMDGPU_METADATA"):
        desc = decode_msgpack(desc)
    return {"name": note["n_name"], "type": note["n_type"], "desc": desc}


def _symbol(sym, sections) -> tuple:
    shndx = sym["st_shndx"]
    where = shndx if isinstance(shndx, str) else sections[shndx].name
    value = sym["st_value"] if shndx == "SHN_ABS" else None
    return (sym.name, sym["st_info"]["type"], sym["st_info"]["bind"], where, value,
            sym["st_size"])


def _symbol_bytes(sym, sections) -> bytes:
    sec = sections[sym["st_shndx"]]
    start = sym["st_value"] - sec["sh_addr"]
    return sec.data()[start:start + sym["st_size"]]


def _symbol_contents(out: dict, counts: Counter, sym, sections) -> None:
    """A kernel descriptor's fields (``<kernel>.kd``) or a function's instructions."""
    from pipeline_mlir.emu.decode import decode, format_instr
    from pipeline_mlir.isa.codeobject import DESCRIPTOR_BYTES, decode_descriptor

    kind = sym["st_info"]["type"]
    if isinstance(sym["st_shndx"], str) or kind not in ("STT_FUNC", "STT_OBJECT"):
        return
    if kind == "STT_OBJECT" and sym.name.endswith(".kd") and sym["st_size"] == DESCRIPTOR_BYTES:
        fields = decode_descriptor(_symbol_bytes(sym, sections))
        del fields["entry_offset"]
        out["descriptors"][sym.name] = fields
    elif kind == "STT_FUNC":
        instrs = decode(_symbol_bytes(sym, sections))
        out["code"][sym.name] = [format_instr(i) for i in instrs]
        counts.update(i.name for i in instrs)


_NORMALISERS = {"mlir": _mlir, "llvm": _llvm, "asm": _asm, "obj": _elf, "hsaco": _elf}
