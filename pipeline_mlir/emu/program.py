"""An instruction -> its :class:`~pipeline_mlir.emu.operands.Step`: the encoding chooses
the module that knows it (ALU and control: :mod:`~pipeline_mlir.emu.semantics`, memory:
:mod:`~pipeline_mlir.emu.memops`, scratch: :mod:`~pipeline_mlir.emu.scratch`, matrix:
:mod:`~pipeline_mlir.emu.mfma`, the VGPR index mode: :mod:`~pipeline_mlir.emu.gpridx`, MX
matrix: :mod:`~pipeline_mlir.emu.mfma_mx`)."""

from __future__ import annotations

from pipeline_mlir.emu.gpridx import compile_gpr_idx
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.long_branch import compile_pc
from pipeline_mlir.emu.memops import compile_memory
from pipeline_mlir.emu.mfma import compile_mfma
from pipeline_mlir.emu.mfma_mx import compile_mx_mfma, runs_here
from pipeline_mlir.emu.operands import Step
from pipeline_mlir.emu.packed import compile_packed
from pipeline_mlir.emu.scratch import compile_scratch
from pipeline_mlir.emu.semantics import compile_alu, compile_sopp


def compile_instr(ins: Instr, index_of: dict[int, int],
                  far: dict[int, int] | None = None) -> Step:
    """The :class:`Step` of ``ins``, for any number of workgroups in lockstep (what has the
    batch's shape is made when it runs, once per workgroup count); ``index_of`` maps byte
    offsets of instructions to their indices (for branches); ``far``: the long branches'
    targets (:func:`~pipeline_mlir.emu.long_branch.long_branch_targets`)."""
    enc, n = ins.enc, ins.name
    if n in ("s_getpc_b64", "s_setpc_b64"):
        return compile_pc(ins, index_of, far or {})
    if n.startswith("s_set_gpr_idx_"):
        return compile_gpr_idx(ins)
    if enc == "SOPP":
        return compile_sopp(ins, index_of)
    if enc in ("SOP1", "SOP2", "SOPC", "SOPK", "VOP1", "VOP2", "VOPC", "VOP3"):
        return compile_alu(ins)
    if enc == "VOP3P":
        if runs_here(ins):
            return compile_mx_mfma(ins)
        if n.startswith(("v_mfma", "v_smfmac")):
            return compile_mfma(ins)
        if n.startswith("v_accvgpr"):
            return compile_alu(ins)
        return compile_packed(ins)
    if enc == "SCRATCH":
        return compile_scratch(ins)
    return compile_memory(ins)
