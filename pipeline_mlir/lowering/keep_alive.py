"""Keeping every accumulator the schedule computes alive after the pipelined loop.

The schedule counts its waits (``s_waitcnt lgkmcnt(N)`` before a barrier, the fragment
waits before the MMAs) over the fragment reads and MMAs it issues.  If the kernel's
epilogue leaves some accumulator element unused (a mutated or hand-written epilogue that
stores zeros in its place), LLVM deletes that accumulator's MMAs and the fragment reads
only they use: a wait counted for N reads then leaves one of the remaining reads in flight
where the schedule had it done, and a barrier after it no longer orders that read before
another wave's copy over the same LDS (an ``lds-race`` on the emulator).

:func:`keep_accumulators` closes that: right after the epilogue it emits one empty
``llvm.inline_asm`` with side effects taking every accumulator the loop yields as a
register operand (``v``, or ``a`` for a kernel keeping its accumulators in AGPRs).  LLVM
must then compute every accumulator in full, so every read and MMA the schedule counted is
issued.  The asm emits no instruction; at its place every accumulator is live anyway in a
kernel that stores them all (the epilogue's stores follow), so it costs such a kernel
nothing (``docs/iree-soundness.md``, "Accumulators nothing stores").

The guards of :mod:`~pipeline_mlir.lowering.xdl_window` begin with the same asm over the
results a loop's MFMAs compute, in the registers the kernel keeps its accumulators in
(:func:`in_agpr_kernel`).  An operand in the other file is a copy LLVM makes for the asm
alone: in a kernel keeping its accumulators in AGPRs, ``v`` made one ``v_accvgpr_read`` of
every accumulator register, dead after the asm, issued among the last MFMAs (one 19 wait
states after the 16-pass MFMA it reads, which LLVM 22 leaves one short), and asked for
every accumulator in a VGPR at once: 256 VGPRs for a wave's 128x128 tile, more than the
file holds beside the kernel's other values (finding 104).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import enclosing_ops
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.tagged import instruction_kinds
from pipeline_mlir.target.gfx950 import AGPR_ALLOC_ATTR

#: the asm string of the keep-alive (empty: it issues nothing)
KEEP_ASM = ""
#: LLVM's function attribute of the AGPRs a kernel keeps (``sched.agpr_alloc`` made LLVM's)
LLVM_AGPR_ALLOC = "amdgpu-agpr-alloc"


def accumulators(old_yields: list, finals: list) -> list:
    """The values after the epilogue of the loop results an MMA computes: ``finals[i]``
    for each yield operand ``old_yields[i]`` an ``amdgpu.mfma`` (or scaled one) defines."""
    out = []
    for y, final in zip(old_yields, finals):
        owner = y.owner
        if isinstance(owner, ir.Block):
            continue
        if instruction_kinds(_op(owner)) == ["mfma"]:
            out.append(final)
    return out


def keep_accumulators(values: list, agprs: bool) -> None:
    """At the insertion point: an empty side-effecting inline asm reading each of
    ``values`` in a register (AGPRs when ``agprs``); nothing when there is none."""
    if not values:
        return
    constraint = "a" if agprs else "v"
    B.llvm.InlineAsmOp(None, values, KEEP_ASM, ",".join([constraint] * len(values)),
                       has_side_effects=True)


def is_keep_alive(op) -> bool:
    """Is ``op`` an asm :func:`keep_accumulators` makes (empty, with side effects, no
    result)?"""
    return op.name == "llvm.inline_asm" and "has_side_effects" in op.attributes and \
        ir.StringAttr(op.attributes["asm_string"]).value == KEEP_ASM and \
        not list(op.results)


def in_agpr_kernel(op) -> bool:
    """Does the function around ``op`` keep its MFMA accumulators in AGPRs?  It carries
    ``sched.agpr_alloc`` (the front end's mark, with which LLVM selects the MFMAs' AGPR
    form), or, an ``llvm.func``, LLVM's ``amdgpu-agpr-alloc`` of more than 0 in its
    ``passthrough``."""
    kernel = kernel_of(op)
    if kernel is not None:
        return AGPR_ALLOC_ATTR in kernel.attributes
    f = next((p for p in enclosing_ops(op) if p.name == "llvm.func"), None)
    if f is None:
        return False
    if AGPR_ALLOC_ATTR in f.attributes:
        return True
    if "passthrough" not in f.attributes:
        return False
    for item in ir.ArrayAttr(f.attributes["passthrough"]):
        if isinstance(item, ir.ArrayAttr) and len(item) == 2 and \
                ir.StringAttr(item[0]).value == LLVM_AGPR_ALLOC:
            count = ir.StringAttr(item[1]).value.split(",")[0]
            return count.isdigit() and int(count) > 0
    return False
