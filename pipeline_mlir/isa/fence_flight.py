"""The zero-trip fence's barrier and the DMAs that may still be in flight at it.

A pipelined loop that may run zero times has a path that skips it: the prologue's DMAs
are then still in flight when the epilogue reads their stages, and the lowering puts its
zero-trip fence (a full ``s_waitcnt`` and an ``s_barrier``, ``ZERO_TRIP_FENCE`` in the
kernel plan) on that path, in a block of its own that a conditional branch jumps over:
the loop's path.  LLVM deletes the fence's wait where an earlier wait already completes
every DMA, or the whole block where it proves the trip count positive; the gate excused
a missing or weakened fence wait wherever it was, so a fence wait deleted or weakened
on a path that still runs passed (:mod:`~pipeline_mlir.isa.built_check`).

:func:`fence_dmas` finds the fence's barrier in the assembly (a block holding an
``s_barrier`` and nothing but waits and the compiler's fences besides, entered from a
block ending in a branch on ``scc`` or ``vcc`` whose target is the fence block's
successor; not on ``exec``, the ping-pong kernel's barriers one group of waves runs) and
the DMAs to LDS that may still be in flight there, on some path from the function's
entry (:func:`~pipeline_mlir.isa.reg_waits.in_flight_at_barriers`): none where the
fence's wait, or an earlier one LLVM merged it into, completes them.

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.reg_waits import in_flight_at_barriers

__all__ = ["fence_barriers", "fence_dmas"]

#: the branches on a condition of the whole wave (a trip count), not of its lanes' ``exec``
#: (the ping-pong kernel's barriers that one group of waves runs)
_UNIFORM = ("s_cbranch_scc", "s_cbranch_vcc")
#: what a fence block holds besides its barrier
_QUIET = frozenset({"wait", "sched_barrier", "sched_group_barrier", "nop"})


def fence_barriers(fn: AsmFunction) -> list[int]:
    """The lines of the ``s_barrier`` s of ``fn`` in zero-trip fence blocks (module
    docstring)."""
    out = []
    for b in fn.blocks:
        bars = [i for i in b.instrs if i.kind == "barrier"]
        if len(bars) != 1 or len(b.succs) != 1 or \
                any(i.kind not in _QUIET for i in b.instrs if i is not bars[0]):
            continue
        # a block branching on the whole wave to the fence block or past it
        if any(len(p.succs) == 2 and b.label in p.succs and b.succs[0] in p.succs and
               p.instrs and p.instrs[-1].mnemonic.startswith(_UNIFORM) for p in fn.blocks):
            out.append(bars[0].line)
    return out


def fence_dmas(fn: AsmFunction, flying: dict | None = None) -> dict[int, frozenset]:
    """Per zero-trip fence barrier of ``fn`` (its line), the lines of the DMAs to LDS that
    may still be in flight there on some path; empty where ``fn`` has no fence block.
    ``flying``: those DMAs per barrier line, where the LDS rule counted them
    (``LdsMap.flying``)."""
    bars = fence_barriers(fn)
    if not bars:
        return {}
    if flying is None:
        flying = in_flight_at_barriers(fn, lambda i: i.kind == "vmem_load_lds")
    return {line: flying.get(line, frozenset()) for line in bars}
