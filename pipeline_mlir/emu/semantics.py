"""What ALU and control instructions do: :func:`compile_alu` hands a scalar ALU
instruction to :mod:`pipeline_mlir.emu.salu` and a vector one to
:mod:`pipeline_mlir.emu.valu`; the SOPP control instructions (waits, barriers, branches,
the end) are here (the memory instructions are in :mod:`pipeline_mlir.emu.memops`, the
matrix instructions in :mod:`pipeline_mlir.emu.mfma`; :mod:`pipeline_mlir.emu.program`
chooses among them).

An instruction the emulator does not implement raises
:class:`~pipeline_mlir.emu.errors.EmuError` naming it and its address when the kernel is
loaded, not when it runs.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.operands import EXEC, VCC, Step, refuse
from pipeline_mlir.emu.salu import compile_salu
from pipeline_mlir.emu.valu import compile_valu
from pipeline_mlir.isa.waitcnt import decode_waitcnt


def compile_alu(ins: Instr) -> Step:
    """A scalar (SOP1/2/C/K) or vector (VOP1/2/C/3, ``v_accvgpr_*``) ALU instruction."""
    if ins.enc in ("SOP1", "SOP2", "SOPC", "SOPK"):
        return compile_salu(ins)
    return compile_valu(ins)


def compile_sopp(ins: Instr, index_of: dict[int, int]) -> Step:
    """A SOPP instruction (waits, barriers, branches, the end) as a :class:`Step`."""
    n, imm = ins.name, ins.f["imm"]
    if n in ("s_nop", "s_setprio", "s_sleep") or (n == "s_icache_inv"):
        return Step(ins, None, "nop")
    if n == "s_endpgm":
        return Step(ins, None, "end")
    if n == "s_barrier":
        return Step(ins, None, "barrier")
    if n == "s_trap":
        return Step(ins, None, "trap")
    if n == "s_waitcnt":
        vm, _exp, lgkm = decode_waitcnt(imm)
        return Step(ins, None, "wait", mem=dict(vm=vm, lgkm=lgkm))
    if n in ("s_branch", "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz",
             "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz"):
        t = ins.target
        if t not in index_of:
            raise EmuError(f"0x{ins.addr:04x}: '{ins.text}' branches to 0x{t:04x}, which is "
                           f"not the start of an instruction of the kernel")
        reads = {"s_cbranch_vccz": (VCC, VCC + 1), "s_cbranch_vccnz": (VCC, VCC + 1),
                 "s_cbranch_execz": (EXEC, EXEC + 1),
                 "s_cbranch_execnz": (EXEC, EXEC + 1)}.get(n, ())
        return Step(ins, None, "branch", sreads=frozenset(reads), target=index_of[t])
    raise refuse(ins)


def branch_taken(step: Step, w) -> np.ndarray:
    """(G,) bool: does the branch go to its target?"""
    n = step.ins.name
    if n in ("s_branch", "s_setpc_b64"):      # (a long branch: emu/long_branch.py)
        return np.ones(w.G, dtype=bool)
    if n == "s_cbranch_scc0":
        return ~w.scc
    if n == "s_cbranch_scc1":
        return w.scc.copy()
    if n in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        z = (w.S[VCC] | w.S[VCC + 1]) == 0
        return z if n.endswith("vccz") else ~z
    z = (w.S[EXEC] | w.S[EXEC + 1]) == 0
    return z if n.endswith("execz") else ~z
