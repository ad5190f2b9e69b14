"""Waterfall loops in the final assembly: a memory instruction whose scalar operand LLVM
could only get from a VGPR.

When an instruction needs an operand in an SGPR (a buffer instruction's ``soffset`` or
descriptor, ``M0``) but LLVM computed the value in a VGPR, its legaliser wraps the
instruction in a loop over the distinct values of the lanes: ``v_readfirstlane`` of the
value, ``v_cmp_eq`` against it, ``s_and_saveexec`` to the lanes that hold it, the
instruction, ``s_xor`` of ``exec`` and ``s_cbranch_execnz`` back.  For a wave-uniform
value the loop runs once, but costs five instructions and a branch per memory
instruction, and hides the pipelined copy behind a loop the schedule never planned.  A
loop of the CFG (:meth:`pipeline_mlir.isa.asm.AsmFunction.loops`) is a waterfall when it
holds a ``v_readfirstlane``, an ``s_and_saveexec`` and a memory instruction and its back
edge is an ``s_cbranch_execnz`` to its header; each becomes a ``waterfall`` finding of the ISA check, placed in the
phase of the main K-loop it sits in (``loop`` when it is inside or around the main loop).

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import AsmFunction, AsmInstr

__all__ = ["Waterfall", "waterfall_loops"]

#: instruction kinds that access memory (what a waterfall is legalising)
MEMORY_KINDS = frozenset({"vmem_load_lds", "vmem_load", "vmem_store", "ds_read", "ds_write",
                          "smem"})


@dataclass(frozen=True)
class Waterfall:
    phase: str                  # prologue / loop / epilogue of the main K-loop ("-": none)
    memory: tuple[AsmInstr, ...]  # the memory instructions the loop wraps

    @property
    def lines(self) -> tuple[int, ...]:
        return tuple(i.line for i in self.memory)

    def message(self) -> str:
        names = ", ".join(sorted({i.mnemonic for i in self.memory}))
        return (f"waterfall loop (v_readfirstlane / s_and_saveexec / s_cbranch_execnz) around "
                f"{len(self.memory)} x {names}: a scalar operand was computed in a VGPR")


def _phase(fn: AsmFunction, blocks: set[int]) -> str:
    """The main-loop phase of a loop made of ``blocks`` (ids of :class:`AsmBlock`)."""
    try:
        main = {id(b) for b in fn.main_loop()}
    except PipelineError:
        return "-"
    if main & blocks:
        return "loop"
    head = min(k for k, b in enumerate(fn.blocks) if id(b) in main)
    first = min(k for k, b in enumerate(fn.blocks) if id(b) in blocks)
    return "prologue" if first < head else "epilogue"


def waterfall_loops(fn: AsmFunction) -> list[Waterfall]:
    """The waterfall loops of ``fn`` (module docstring), in layout order."""
    found = []
    for lp in fn.loops():
        instrs = [i for b in lp for i in b.instrs]
        names = [i.mnemonic for i in instrs]
        closes = any(b.instrs and b.instrs[-1].mnemonic == "s_cbranch_execnz"
                     and b.instrs[-1].operands[:1] == (lp[0].label,) for b in lp)
        memory = tuple(i for i in instrs if i.kind in MEMORY_KINDS)
        if (closes and memory and any(n.startswith("v_readfirstlane") for n in names)
                and any(n.startswith("s_and_saveexec") for n in names)):
            found.append(Waterfall(_phase(fn, {id(b) for b in lp}), memory))
    found.sort(key=lambda w: w.lines)
    return found
