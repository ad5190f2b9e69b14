"""The ISA check's "held" rule: the bound an earlier wait already holds on a counter.

LLVM removes, narrows or raises a wait of the schedule when an earlier wait of the block
already holds at least as much: the comparison (:mod:`pipeline_mlir.isa.check`) asks
:func:`held_counts` before it calls such a change a weakening.  The rule leans on the
earlier wait: that LLVM's own waits are right is checked on their own, register by
register (:mod:`pipeline_mlir.isa.reg_waits`).

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.counted import COUNTERS, counts_on

__all__ = ["held_counts"]


def held_counts(fn: AsmFunction):
    """The bound an earlier wait already holds on a counter at an actual wait: ``held(token,
    counter)`` is ``c + n`` for the nearest earlier ``s_waitcnt`` of the counter with count
    ``c`` in the same basic block, ``n`` the instructions of the counter issued between
    them (each can add one in flight: :func:`pipeline_mlir.isa.counted.counts_on`);
    ``None`` when no such wait precedes it in the block (a block boundary ends the walk:
    another path may enter there).  A schedule wait LLVM removed or raised (or whose counter
    it dropped) because such an earlier wait at least as strict already holds is then no
    weakening: the counter cannot exceed the bound."""
    where = {i.line: (b, k) for b in fn.blocks for k, i in enumerate(b.instrs)}

    def held(t, counter: str, after: bool = False) -> int | None:
        """At skeleton token ``t`` (``after``: just after it, ``t`` included)."""
        line = (t.lines[-1] if after else t.lines[0]) if t.lines else None
        if line not in where:
            return None
        blk, k = where[line]
        k += after
        field, n = COUNTERS[counter].field, 0
        for i in reversed(blk.instrs[:k]):
            if i.kind == "wait" and getattr(i, field) is not None:
                return getattr(i, field) + n
            n += counts_on(i, counter)
        return None
    return held
