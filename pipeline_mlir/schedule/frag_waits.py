"""Waits per fragment: an MMA that starts when its own operands have landed.

In the block form (the reference's) every MMA block opens with ``WAIT_LGKM(0)`` after its
last barrier, so the block's first MFMA waits for the block's last fragment read.  With
``waits=fragment`` that wait becomes ``WAIT_FRAG(n)``: each MFMA of the MMA waits for the
LDS reads of its own operands, and after the MMA's last MFMA at most ``n`` lgkmcnt
instructions are in flight, ``n`` being the instructions issued after the last read the MMA
consumes.

The count rests on one assumption: LDS reads complete in issue order on lgkmcnt while only
LDS instructions are outstanding (no scalar loads, which complete out of order).  It is the
assumption LLVM's waitcnt pass (SIInsertWaitcnts) makes when it waits for a register an LDS
read defines, and the lowering leaves the per-MFMA ``s_waitcnt lgkmcnt`` to that pass: a
``WAIT_FRAG`` emits no instruction of its own.  The simulator times and checks the per-MFMA
waits with the same rule (:mod:`pipeline_mlir.sim.trace`, :mod:`pipeline_mlir.sim.functional`)
and the ISA check re-derives every one of them from the assembly
(:mod:`pipeline_mlir.isa.frag_waits`).

An MMA may read only part of a fragment load (a loop the front end split along K,
``frontend/k_subtiles.py``: MMA ``(r, c)`` reads the K half ``c`` of A's load ``r``).  LLVM
then waits for the reads it uses only, and up to ``unread`` instructions of that load (per
channel: those no MFMA of the MMA reads) may still be in flight after it, besides
everything issued after the load: ``n`` counts them (the last read the MMA consumes is at
least that far into the load), so that the waits and hazards derived after the MMA see
what may really be in flight (a copy refilling the load's slot after the next barrier
would otherwise race the unread reads).

Only a wait that guards nothing but its MMA becomes a fragment wait: a ``WAIT_LGKM`` whose
next entries up to an MMA are fences and priorities (no barrier, no load, no other wait).
Waits before a barrier stay (a barrier orders this wave's reads before other waves' loads).
The MMA must find both of its fragment loads in every way the kernel reaches it (the loop's
first and later iterations, the epilogue after zero or more iterations), else the wait stays.

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.records import replace
from pipeline_mlir.schedule.targets import MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import (
    SCHED_GROUP_BARRIER,
    SCHEDULE_BARRIER,
    SET_PRIO,
    WAIT_LGKM,
    OpDesc,
    OpRole,
    ScheduleEntry,
)

#: the values of the ``waits`` option
WAITS = ("fragment", "block")
#: entries that may stand between a fragment wait and its MMA
_PASSABLE = (SET_PRIO, SCHEDULE_BARRIER, SCHED_GROUP_BARRIER)


def consumed_fragments(mma: OpDesc) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(channel, subtile)`` of the A and B fragments MMA ``(stage=r, subtile=c)`` reads."""
    return (0, mma.stage), (1, mma.subtile)


def in_flight_after(ops: list[OpDesc], mma: OpDesc, lgkm: tuple[int, int],
                    unread: tuple[int, int] = (0, 0)) -> int | None:
    """lgkmcnt instructions that may be in flight after ``mma`` (``ops``: what a wave issued
    before it, in order): those issued after the last read of a fragment ``mma`` consumes,
    of which up to ``unread`` (per channel) of the load's own last ones (module docstring);
    ``None`` when one of its fragments has no load in ``ops``.  ``lgkm``: instructions per
    fragment load of A and of B."""
    reads = [(i, _channel(op), op.subtile) for i, op in enumerate(ops)
             if op.role == OpRole.FRAGMENT_LOAD]
    if any(ch is None for _, ch, _ in reads):
        return None
    last = {(ch, sub): i for i, ch, sub in reads}
    wanted = consumed_fragments(mma)
    if any(w not in last for w in wanted):
        return None
    return min(unread[w[0]] + sum(lgkm[ch] for i, ch, _ in reads if i > last[w])
               for w in wanted)


def _channel(op: OpDesc) -> int | None:
    """A fragment load's channel (a prologue load may carry -1: then its tag's)."""
    if op.channel in (0, 1):
        return op.channel
    return {MMA_LOAD_A: 0, MMA_LOAD_B: 1}.get(op.tag)


def _mma_after(entries: list[ScheduleEntry], i: int) -> int | None:
    """The index of the MMA that the wait at ``i`` guards alone, else ``None``."""
    for j in range(i + 1, len(entries)):
        op = entries[j].op
        if op.role == OpRole.COMPUTE:
            return j
        if op.tag not in _PASSABLE:
            return None
    return None


def _convert(entries: list[ScheduleEntry], contexts: list[list[OpDesc]],
             lgkm: tuple[int, int], unread: tuple[int, int]) -> list[ScheduleEntry]:
    """``entries`` with each convertible ``WAIT_LGKM`` a ``WAIT_FRAG``; ``contexts``: what a
    wave may have issued before the phase (one list per way of reaching it)."""
    out = list(entries)
    for i, e in enumerate(entries):
        if e.op.tag != WAIT_LGKM:
            continue
        m = _mma_after(entries, i)
        if m is None:
            continue
        before = [x.op for x in entries[:m]]
        counts = [in_flight_after(ctx + before, entries[m].op, lgkm, unread)
                  for ctx in contexts]
        if None in counts:
            continue
        out[i] = replace(e, op=OpDesc.wait_frag(min(counts)))
    return out


def fragment_waits(prologue: list[ScheduleEntry], kernel: list[ScheduleEntry],
                   epilogue: list[ScheduleEntry], lgkm: tuple[int, int],
                   unread: tuple[int, int] = (0, 0)):
    """The three phases with the fragment waits (``(prologue, kernel, epilogue)``);
    unchanged when a fragment load's instruction count is not known (0).  ``unread``: per
    channel, the instructions of a fragment load an MMA may leave unread."""
    if 0 in lgkm:
        return prologue, kernel, epilogue
    pro = [e.op for e in prologue]
    krn = [e.op for e in kernel]
    return (_convert(prologue, [[]], lgkm, unread),
            _convert(kernel, [pro, pro + krn], lgkm, unread),
            _convert(epilogue, [pro, pro + krn], lgkm, unread))
