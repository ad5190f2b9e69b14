"""A pipelined loop whose constant bounds leave its main loop no trip: straight code.

The schedule's loop takes two K tiles per iteration, and the prologue and the epilogue one
pair between them; a natural loop of exactly two K tiles (IREE's bf16 batch 2 x 267x969x192
at K step 64: the pair, the third tile in the remainder loop) leaves the main loop from
``lb + step`` to ``ub`` no trip.  The kernel then runs the prologue and the epilogue back
to back, and the 4-wave kernel's zero-trip fence (``s_waitcnt vmcnt(0) lgkmcnt(0)`` and a
barrier) and the epilogue's drains would wait for every copy of both K tiles before the
first MMA.  Known at compile time, the path is the only one: the kernel shape says so
(``max_trips`` 0, no fence), ``sched-fix-hazards`` derives the epilogue's vmcnt waits for
it (:func:`~pipeline_mlir.sim.repair.repair`) and the lowering emits no fence.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline_mlir.analysis.ir_facts import main_trips
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.ir_io import as_operation, get
from pipeline_mlir.frontend.marks import STAGED
from pipeline_mlir.kernel.plan import KernelShape

__all__ = ["concrete_loop", "as_run"]


def concrete_loop(p):
    """The ``scf.for`` right after the ``sched.pipeline`` of ``p`` (a concrete pipeline's
    loop), or None (an abstract pipeline has none)."""
    if not get(p.op, "concrete", S.UNIT, False):
        return None
    ops = [as_operation(o) for o in p.op.block.operations]
    i = ops.index(p.op)
    return ops[i + 1] if i + 1 < len(ops) and ops[i + 1].name == "scf.for" else None


def as_run(shape: KernelShape, p) -> KernelShape:
    """``shape`` as the loop of the pipeline ``p`` runs it: when the kernel has a zero-trip
    fence (4-wave), the loop's constant bounds leave its main loop no trip and its copies are
    all direct-to-LDS, at most 0 trips and no zero-trip fence; else ``shape``.  (Ping-pong's
    kernel has no fence and keeps its waits.  A loop with a register-staged copy keeps the
    fence: ``sched-stage-copies`` stores each staged copy in the prologue, before the first
    wait or barrier after it, so only its DMA copies, if any, could be in flight under the
    first K tile's MMAs, and the straight path's waits, which move a barrier into the
    epilogue, were measured slower there: docs/kernels.md.)"""
    loop = concrete_loop(p)
    if not shape.zero_trip_fence or loop is None or main_trips(loop) != 0 or \
            not _dma_only(loop):
        return shape
    return replace(shape, zero_trip_fence=False, max_trips=0)


def _dma_only(loop) -> bool:
    """Whether the body of ``loop`` copies to LDS, every copy a direct-to-LDS one that stays
    one (an ``amdgpu.gather_to_lds`` not marked register-staged)."""
    copies = [as_operation(o) for o in loop.regions[0].blocks[0].operations
              if as_operation(o).name == "amdgpu.gather_to_lds"]
    return bool(copies) and all(STAGED not in c.attributes for c in copies)
