"""The ISA check's wait-state rule for an MFMA's result: no VALU, vector-memory or LDS
instruction touches a register an MFMA writes before the wait states it needs have issued,
on any path.

gfx950 does not interlock an MFMA's result against the other pipes: an MFMA of ``P``
passes (:func:`pipeline_mlir.target.gfx950.mfma_passes`, an ``f8f6f4`` one's operand
formats read from its ``cbsz`` / ``blgp``) writing a register needs ``P + 4`` wait states
(XDL, 5 for 2 passes; ``P + 2`` otherwise:
:func:`~pipeline_mlir.target.gfx950.d_wait_states`) before a VALU, vector-memory or LDS
instruction reads or writes it.  An XDL MFMA reading a register as C needs ``P - 1``
(:func:`~pipeline_mlir.target.gfx950.srcc_war_wait_states`) before such an instruction
overwrites it.  The compiler fills the gaps with independent instructions (an ``s_waitcnt`` among them) or
``s_nop``; the emulator's wait-state check (:mod:`pipeline_mlir.emu.hazards`, on every path:
:mod:`pipeline_mlir.emu.hazard_paths`) holds the whole table, this rule the one row the
code built around the schedule's waits leans on: a wait deleted from such a gap (the
ping-pong kernel's epilogue, where an ``s_waitcnt`` sits between the last MFMAs and the
address arithmetic of the C stores) leaves the reader too close.  From every MFMA it walks
the control-flow graph (:mod:`pipeline_mlir.isa.asm`'s blocks and edges) as far as the
wait states it needs: every instruction issued is one, ``s_nop N`` is ``N + 1``, the
compiler's fences none; a later MFMA writing a register ends the first one's hold on it.
Another MFMA reading the result (A, B or C) is the emulator's alone.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.asm_instr import registers
from pipeline_mlir.target.gfx950 import (d_wait_states, f8f6f4_narrow, mfma_passes,
                                          srcc_war_wait_states)

__all__ = ["MfmaGap", "mfma_gaps"]

#: the instructions the row holds: VALU, vector memory, LDS
_READERS = frozenset({"valu", "vmem_load", "vmem_store", "vmem_load_lds", "ds_read",
                      "ds_write"})
#: the compiler's fences: no instruction issued
_NONE = frozenset({"sched_barrier", "sched_group_barrier"})


@dataclass(frozen=True)
class MfmaGap:
    """``reader`` touches ``register``, which ``mfma`` writes (with ``war``: overwrites
    ``register``, which ``mfma`` reads as C), after ``issued`` wait states on some path, of
    the ``need``."""

    mfma: AsmInstr
    reader: AsmInstr
    register: str
    issued: int
    need: int
    war: bool = False

    def message(self) -> str:
        if self.war:
            return (f"{self.reader.mnemonic} (line {self.reader.line}) overwrites "
                    f"{self.register} {self.issued} wait states after {self.mfma.mnemonic} "
                    f"(line {self.mfma.line}) reads it as C on some path; it needs {self.need} "
                    f"(s_nop or independent instructions between)")
        return (f"{self.reader.mnemonic} (line {self.reader.line}) touches {self.register} "
                f"{self.issued} wait states after {self.mfma.mnemonic} (line {self.mfma.line}) "
                f"writes it on some path; the MFMA's result needs {self.need} (s_nop or "
                f"independent instructions between)")


def _need(i: AsmInstr) -> tuple[int, bool] | None:
    """(passes, XDL) of MFMA ``i``; None for an MFMA gfx950 does not list."""
    mods = dict(m.split(":", 1) for m in i.modifiers if ":" in m)
    try:
        narrow = f8f6f4_narrow(int(mods.get("cbsz", "0"), 0), int(mods.get("blgp", "0"), 0))
    except ValueError:
        return None
    return mfma_passes(i.mnemonic, narrow)


def _cost(i: AsmInstr) -> int:
    if i.kind in _NONE:
        return 0
    return i.value + 1 if i.kind == "nop" else 1


def mfma_gaps(fn: AsmFunction) -> list[MfmaGap]:
    """Each MFMA of ``fn`` whose result a VALU, VMEM or DS instruction touches too early on
    some path (the module docstring): the first such reader found, one per MFMA, in line
    order."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    found = []
    for k, b in enumerate(fn.blocks):
        for n, m in enumerate(b.instrs):
            if m.kind != "mfma" or not m.defs:
                continue
            entry = _need(m)
            if entry is None:
                continue
            passes, xdl = entry
            gap = _walk(fn, index, k, n + 1, frozenset(m.defs),
                        d_wait_states(passes, xdl), m, False)
            c = registers(m.operands[3]) if xdl and len(m.operands) > 3 else ()
            if gap is None and c:
                gap = _walk(fn, index, k, n + 1, frozenset(c), srcc_war_wait_states(passes), m,
                            True)
            if gap is not None:
                found.append(gap)
    return sorted(found, key=lambda g: g.mfma.line)


def _walk(fn: AsmFunction, index: dict, k: int, n: int, regs: frozenset, need: int,
          mfma: AsmInstr, war: bool) -> MfmaGap | None:
    """The first instruction that touches (``war``: writes) a register of ``regs`` with
    fewer than ``need`` wait states after ``mfma`` on a path from instruction ``n`` of block
    ``k``."""
    work = [(k, n, 0, regs)]
    seen = set()
    while work:
        k, n, issued, held = work.pop()
        if (k, n, issued, held) in seen:
            continue
        seen.add((k, n, issued, held))
        code = fn.blocks[k].instrs
        while n < len(code) and issued < need and held:
            i = code[n]
            if i.kind in _READERS:
                hit = held.intersection(i.defs if war else i.uses + i.defs)
                if hit:
                    return MfmaGap(mfma, i, min(hit, key=lambda r: (len(r), r)), issued,
                                   need, war)
            if i.kind == "mfma" and not war:
                held = held.difference(i.defs)
            issued += _cost(i)
            n += 1
        if n == len(code) and issued < need and held:
            work += [(index[s], 0, issued, held) for s in fn.blocks[k].succs]
    return None
