"""Which barriers order LDS accesses between the waves of a workgroup.

Upstream MLIR's ``gpu.barrier`` synchronises the work items of a workgroup and, without a
``memfence``, makes every memory access before it visible after it.  With ``memfence
[spaces]`` only the accesses to those address spaces must be (``memfence []``: none; the
ROCDL lowering then emits the bare ``s_barrier`` with no fence, and on gfx950, whose
barrier does not wait for the wave's memory operations, an LDS access in flight is not
ordered by it).  So a ``gpu.barrier`` orders LDS when it has no ``memfence`` or its
``memfence`` lists ``#gpu.address_space<workgroup>``; ``amdgpu.lds_barrier`` always does
(it is the LDS barrier).  :func:`fences_lds` says which; the soundness checks of the front
end (:mod:`pipeline_mlir.frontend.soundness`) and the LDS stream
(:mod:`pipeline_mlir.analysis.lds_order`) count only those as ordering LDS.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir

#: the barrier ops of the GPU dialects whose fence may cover LDS
LDS_BARRIER_OPS = ("gpu.barrier", "amdgpu.lds_barrier")
WORKGROUP_SPACE = "#gpu.address_space<workgroup>"


def fences_lds(op) -> bool:
    """Whether barrier ``op`` (a ``gpu.barrier`` or ``amdgpu.lds_barrier``) orders the LDS
    accesses before it against those after it, in every wave (module docstring)."""
    if op.name == "amdgpu.lds_barrier":
        return True
    if op.name != "gpu.barrier":
        return False
    if "address_spaces" not in op.attributes:
        return True
    workgroup = ir.Attribute.parse(WORKGROUP_SPACE, op.context)
    return any(a == workgroup for a in ir.ArrayAttr(op.attributes["address_spaces"]))


def fence_text(op) -> str:
    """How ``op``'s fence reads in a message: ``memfence [...]`` as written."""
    spaces = op.attributes["address_spaces"] if "address_spaces" in op.attributes else None
    return "no memfence" if spaces is None else f"memfence {spaces}"
