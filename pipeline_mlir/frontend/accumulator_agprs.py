"""A kernel whose accumulators fill a lane's architected VGPRs keeps them in AGPRs.

A gfx950 lane has 256 architected VGPRs and 256 AGPRs (one file of 512).  Where the
MFMA accumulators of the pipelined loop take 256 registers of a lane or more (a wave's
128x128 tile of f32 or i32, say: IREE's forced configurations of 32x32 MFMAs in a 128x256
tile of 2x1 waves, or one wave of 256x64), nothing else fits beside them in the
architected file.  Left to choose, LLVM 22 selects the MFMAs' VGPR form and its greedy
allocator then spends minutes splitting the live ranges across the two files: the
pipelined kernel of IREE's f16 16x16x32 MFMAs in a 128x256 tile of 2x1 waves took more
than 120 s of code generation (IREE's own build of the same dispatch, 2 s).  Asked to keep
the accumulators in AGPRs (``sched.agpr_alloc``, LLVM's ``amdgpu-agpr-alloc``: its AGPR-form
MFMAs, as the shipped kernels of a 128x128 warp tile are built), it builds such a kernel in
a few seconds.  :func:`keep_accumulators_in_agprs` asks it, unless the kernel says how many
AGPRs it keeps itself.  Accumulators that take the whole file of 512 (one wave's 128x256
tile of 32x32x16 MFMAs) leave no register for the fragments the pipelined loop holds:
:func:`check_accumulators_fit` refuses them at the MFMA, where LLVM would spend more than
the code generation's time limit spilling them.
"""

from __future__ import annotations

import math

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.target.gfx950 import AGPR_ALLOC_ATTR, ARCH_VGPRS, VGPRS

__all__ = ["accumulator_registers", "check_accumulators_fit", "keep_accumulators_in_agprs"]


def accumulator_registers(an) -> int:
    """The registers of a lane the loop's accumulators take (a lane's part of each MFMA
    result, 32 bits a register), ``an`` the loop's analysis."""
    result = ir.VectorType(an.scan.mfmas[0].results[0].type)
    return -(-math.prod(result.shape) * result.element_type.width // 32) * an.accumulators()


def check_accumulators_fit(an) -> int:
    """The registers of a lane ``an``'s accumulators take (:func:`accumulator_registers`),
    or a refusal at the first MFMA where they take the whole register file (module
    docstring)."""
    regs = accumulator_registers(an)
    if regs >= VGPRS:
        mfma = an.scan.mfmas[0]
        raise IRError(mfma, f"'{mfma.name}' op: the loop's {an.accumulators()} accumulators "
                            f"take {regs} registers of a lane, the whole file of {VGPRS} "
                            f"(VGPRs and AGPRs), leaving none for the fragments the pipelined "
                            f"loop holds: a wave's tile this large is not pipelined (give "
                            f"the kernel more waves or a smaller tile)")
    return regs


def keep_accumulators_in_agprs(kernel, regs: int) -> int | None:
    """Where the accumulators of the kernel's pipelined loop take ``regs`` registers of a
    lane (:func:`accumulator_registers`, read off its analysis before the rewrite erases
    the ops analysed), a lane's architected VGPRs or more (module docstring), ``kernel``
    keeps them in AGPRs (:data:`AGPR_ALLOC_ATTR`, as many as they take, at most the AGPR
    file); the AGPRs asked for, or None (none asked: fewer accumulators, or the kernel says
    its own count)."""
    if regs < ARCH_VGPRS or AGPR_ALLOC_ATTR in kernel.attributes:
        return None
    count = min(regs, VGPRS - ARCH_VGPRS)
    set_attribute(kernel, AGPR_ALLOC_ATTR,
                  ir.IntegerAttr.get(ir.IntegerType.get_signless(32), count))
    return count
