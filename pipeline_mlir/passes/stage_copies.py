"""``sched-stage-copies``: a copy DMA cannot move, staged through registers in its slot.

The front end marks an ``amdgpu.gather_to_lds`` whose global source is not aligned to the
size it moves (IREE's copies of rows of 8190 bytes when K = 4095) with the unit attribute
``sched.register_staged`` (:data:`pipeline_mlir.frontend.regcopy.STAGED`).  Up to here it is
a copy like any other: the schedule places it, the tag check and the hazard check see it.
This pass, the last of a named pipeline (so the emitted MLIR, also when it is handed back
to ``iree-compile``, holds no marked copy) and again the first of the LLVM step (for pass
pipelines that stop at ``sched-lower-to-rocdl``), replaces each marked copy by what a
direct-to-LDS copy does, through registers, at the same place:

* a ``vector.load`` of the lane's ``n`` elements from the global source (a buffer load,
  which on gfx950 takes any byte-aligned address);
* a ``vector.store`` of them to LDS at the copy's wave-uniform destination plus the lane's
  position (``lane * n`` elements: the lanes of a wave in order, as the DMA writes them);
  LLVM waits for the load (``vmcnt``) before the store, the register dependency;
* ``s_waitcnt lgkmcnt(0)`` after the store, so the LDS write is complete when the op is:
  every wait and barrier the schedule placed after the copy (for the DMA, on ``vmcnt``)
  then finds the data in LDS, as it would have found the DMA's.

So the copy is register-staged within the schedule's global-load slot: its latency is
exposed there (the slot waits for its own load), which costs time, never correctness.  A
marked op that is not a one-index copy into a one-dimensional LDS buffer is an error at
the op.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.analysis.ir_facts import segments
from pipeline_mlir.frontend.regcopy import STAGED
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.passes._common import ModulePass, OpError, as_operation


def _walk(op, out: list) -> list:
    for region in op.regions:
        for block in region.blocks:
            for o in block.operations:
                o = as_operation(o)
                if o.name == "amdgpu.gather_to_lds" and STAGED in o.attributes:
                    out.append(o)
                _walk(o, out)
    return out


class StageCopies(ModulePass):
    """Register-stage every ``amdgpu.gather_to_lds`` marked ``sched.register_staged``."""

    name = "sched-stage-copies"
    summary = "stage marked global->LDS copies through registers (load, store, lgkmcnt wait)"

    def run(self, module) -> list[OpError]:
        errors = []
        for op in _walk(as_operation(module), []):
            (src,), src_idx, (dst,), dst_idx = segments(op)
            if len(dst_idx) != 1:
                errors.append(OpError(op, f"'{op.name}' op marked {STAGED} writes LDS "
                                          f"{dst.type}; a staged copy writes a 1-D buffer"))
                continue
            _stage(op, src, src_idx, dst, dst_idx[0])
        return errors


def _stage(op, src, src_idx: list, dst, base) -> None:
    """``op`` (copying from ``src[src_idx]`` to ``dst[base]``) replaced by load, store and
    wait (module docstring)."""
    vt = ir.TypeAttr(op.attributes["transferType"]).value
    if not isinstance(vt, ir.VectorType):
        vt = ir.VectorType.get([1], vt)
    n = vt.shape[0]
    t = ir.IndexType.get()
    A = B.arith
    with ir.InsertionPoint(op), op.location:
        val = B.vector.load(vt, src, src_idx)
        lane = B.gpu.lane_id()
        at = A.addi(base, A.muli(lane, A.constant(t, ir.IntegerAttr.get(t, n))))
        B.vector.store(val, dst, [at])
        B.rocdl.s_waitcnt(waitcnt_imm(lgkmcnt=0))
    op.erase()
