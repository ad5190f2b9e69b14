"""The epilogue's fragment reads no MMA after them reads, from the schedule alone.

The lowering finds the epilogue reads whose results nothing uses on the IR
(``pipeline_mlir/lowering/dead_reads.py``) and does not emit them
(:attr:`~pipeline_mlir.kernel.plan.KernelPlan.unissued`).  A plan built from a schedule
alone (the simulator's kernel, the numpy reference) has no IR to read; the complete
kernels' MMAs read their fragments by one rule (:mod:`pipeline_mlir.kernel.gemm_mlir`,
:mod:`pipeline_mlir.kernel.reference`): MMA ``(stage, subtile)`` reads row subtile
``stage`` of the even channels (A and its MX scales) and column subtile ``subtile`` of the
odd ones (B and its scales), and a read of channel ``c`` and subtile ``j`` fills the
registers of ``(c, j)`` until the next read of ``(c, j)``.  :func:`unread_reads` names
the reads no later MMA of the epilogue reads by that rule (the 4-wave epilogue's last
reads of A and B, for the next partition's MMA ``(0, 0)``, which no iteration runs);
:func:`droppable` keeps those a counted ``lgkmcnt`` wait after them counts as issued; :func:`as_emitted` marks them in a
plan.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline_mlir.schedule.types import WAIT_FRAG, WAIT_LGKM, OpRole


def as_emitted(plan):
    """``plan`` (a :class:`~pipeline_mlir.kernel.plan.KernelPlan`) with the epilogue's
    fragment reads :func:`unread_reads` names marked ``unissued``, as the lowering marks
    them on the IR: a plan built from a schedule alone that models the kernel the lowering
    emits rather than the schedule as printed."""
    channels = {e.op.channel for _, entries in plan.phases() for e in entries
                if e.op.role == OpRole.FRAGMENT_LOAD}
    return replace(plan, unissued=plan.unissued | unread_reads(plan.epilogue, channels))


def mma_operands(op, channels) -> set[tuple[int, int]]:
    """``(channel, subtile)`` of each fragment the MMA ``op`` reads, of ``channels``."""
    return {(c, op.subtile if c % 2 else op.stage) for c in channels}


def unread_reads(entries, channels) -> frozenset[int]:
    """The indices of the fragment reads of ``entries`` (the epilogue's) that no MMA after
    them reads before the next read of their ``(channel, subtile)`` (``channels``: the
    kernel's fragment channels), but for those :func:`droppable` keeps."""
    wanted: set[tuple[int, int]] = set()
    unread: list[int] = []
    for i in range(len(entries) - 1, -1, -1):
        op = entries[i].op
        if op.role == OpRole.COMPUTE:
            wanted |= mma_operands(op, channels)
        elif op.role == OpRole.FRAGMENT_LOAD:
            key = (op.channel, op.subtile)
            if key not in wanted:
                unread.append(i)
            wanted.discard(key)
    return droppable(entries, sorted(unread))


def droppable(entries, unused: list[int]) -> frozenset[int]:
    """Of the fragment reads ``unused`` (indices of ``entries``), those after the last
    counted ``lgkmcnt`` wait of ``entries`` (a ``WAIT_LGKM`` or ``WAIT_FRAG`` of a count
    above 0): one before it is counted as issued by it."""
    last = max((i for i, e in enumerate(entries)
                if e.op.tag in (WAIT_LGKM, WAIT_FRAG) and e.op.wait_value > 0), default=-1)
    return frozenset(i for i in unused if i > last)
