"""gfx950 assembly text -> kernels of the same :class:`~pipeline_mlir.emu.instr.Instr`
records the decoder produces (the emulator's fallback input, and what mutation tests edit).

Each instruction line is read back into its encoding, opcode and operand fields
(:mod:`pipeline_mlir.emu.asmline`); the addresses are the ones the instructions would have
in the code object (sizes follow from the encoding and a literal), so branch labels become
the same offsets the decoder sees.  The kernel descriptor comes from the
``.amdhsa_kernel`` block, the kernel's metadata (its arguments, workgroup size) from the
``.amdgpu_metadata`` document, as in the code object.  Only the syntax LLVM prints is
accepted; anything else is an error naming the line.  Assembly whose ``.amdgcn_target``
names another processor is refused (without the directive, the text is taken as gfx950's).
"""

from __future__ import annotations

import re

from pipeline_mlir.emu.asmline import LineError, parse_instruction
from pipeline_mlir.emu.codeobj import Kernel, check_processor, launch_from_descriptor
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.isa.asm import AsmError, metadata_document

_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):")
#: ``.amdgcn_target "amdgcn-amd-amdhsa--gfx950[:feature+...]"``: the processor
_TARGET = re.compile(r'^\s*\.amdgcn_target\s+"[^"]*-([\w]+)(?::[^"]*)?"')


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
    rsrc2 = (user << 1) | g("enable_private_segment") | \
        (g("system_sgpr_workgroup_id_x", 1) << 7) | \
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
    for i, ln in enumerate(lines):
        m = _TARGET.match(ln)
        if m:
            check_processor(m.group(1), f"line {i + 1}: .amdgcn_target")
    metadata = _metadata(text)
    out = {}
    for name in names:
        meta = next((k for k in metadata if isinstance(k, dict) and k.get(".name") == name),
                    None)
        out[name] = Kernel(name, _function(lines, name), launch_from_asm(name, _descriptor(
            lines, name)), "asm", meta=meta)
    return out


def _metadata(text: str) -> list:
    """The ``amdhsa.kernels`` entries of the ``.amdgpu_metadata`` document ([] without one;
    read as the ISA package reads it, :func:`~pipeline_mlir.isa.asm.metadata_document`)."""
    try:
        doc = metadata_document(text)
    except AsmError as e:
        raise EmuError(f"the .amdgpu_metadata document: {e}") from None
    if not doc:
        return []
    kernels = doc.get("amdhsa.kernels") if isinstance(doc, dict) else None
    if not isinstance(kernels, list):
        raise EmuError("the .amdgpu_metadata document has no amdhsa.kernels list")
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
        except LineError as e:
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
