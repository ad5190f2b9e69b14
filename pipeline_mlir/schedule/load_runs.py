"""A fragment load with more instructions than lgkmcnt holds, issued in runs that fit.

gfx950's ``lgkmcnt`` counts at most :data:`~pipeline_mlir.target.gfx950.LGKMCNT_MAX` (15)
LDS instructions in flight; an instruction that would exceed it stalls the wave until the
oldest completes (:data:`~pipeline_mlir.target.gfx950.IN_FLIGHT`).  IREE's plain ``A x B``
at K step 128 reads one B subtile with 16 transposing reads (2 per MFMA operand, 8
operands), one more than the counter holds.  Such a load is issued in the fewest runs of at
most half the counter (8), as even as possible (16: two runs of 8), each run after the
first preceded by a *guard*, ``s_waitcnt lgkmcnt(LGKMCNT_MAX - run)``, inside the entry:
after it at most ``LGKMCNT_MAX - run`` instructions are in flight, so the run brings the
counter to ``LGKMCNT_MAX`` at most.  The guard makes explicit what the hardware's stall
would do anyway (the simulator and the emulator model the stall, so a load without its runs
is no hazard either); it keeps the emitted kernels as they were.  A guard relies on no
issue order (any instructions may be the ones still in flight), and since it only ever
completes instructions earlier than the schedule's own waits would, every wait the schedule
derives (counts of instructions issued after a point) still holds.  A load that fits the
counter has one run and no guard: kernels whose loads fit are unchanged.

The simulator (:mod:`pipeline_mlir.sim.functional`, :mod:`pipeline_mlir.sim.trace`), the
lowering (:mod:`pipeline_mlir.lowering.materialize`) and the ISA check's expected skeleton
(:mod:`pipeline_mlir.isa.skeleton`) all take the runs from :func:`load_runs`.

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.target.gfx950 import LGKMCNT_MAX

__all__ = ["MAX_FRAGMENT_READS", "load_runs", "guard_before", "guard_count"]

#: the most instructions one fragment load may issue: four runs (the counter's width
#: bounds each run, not the load)
MAX_FRAGMENT_READS = 4 * LGKMCNT_MAX


def load_runs(count: int, limit: int = LGKMCNT_MAX) -> tuple[int, ...]:
    """The sizes of the runs a load of ``count`` instructions is issued in: ``(count,)``
    when it fits ``limit``, else the fewest runs of at most :func:`_largest_run`, as even as
    possible."""
    if count <= limit:
        return (count,)
    n = -(-count // _largest_run(limit))
    base, extra = divmod(count, n)
    return tuple(base + 1 if i < extra else base for i in range(n))


def _largest_run(limit: int) -> int:
    """The longest run of a split load: half the counter, rounded up (8), so that the guard
    before a run (``limit - run``, 7) leaves all but one instruction of the previous run in
    flight."""
    return (limit + 1) // 2


def guard_before(count: int, limit: int = LGKMCNT_MAX) -> dict[int, int]:
    """``{i: n}``: the load's instruction ``i`` starts a run after the first and is
    preceded by ``s_waitcnt lgkmcnt(n)``; empty when the load fits the counter."""
    runs = load_runs(count, limit)
    out, start = {}, runs[0]
    for r in runs[1:]:
        out[start] = guard_count(r, limit)
        start += r
    return out


def guard_count(run: int, limit: int = LGKMCNT_MAX) -> int:
    """The count of the guard before a run of ``run`` instructions (after the first run):
    at most ``limit - run`` in flight, so that the run brings the counter to ``limit``."""
    return limit - run
