"""Counted ``lgkmcnt`` waits that hold when LLVM merges a fragment load's reads in pairs.

A schedule counts its ``lgkmcnt`` waits in the instructions each fragment load issues
(``lgkm_per_load``: one ``ds_read`` per LDS read op of up to 16 bytes).  LLVM's
``SILoadStoreOptimizer`` merges two ``ds_read_b32`` (or two ``ds_read_b64``) of one base
address whose offsets differ by a constant the instruction's two 8-bit offsets reach into
one ``ds_read2_b32`` / ``ds_read2st64_b32`` (``_b64``): the load then issues fewer
instructions than the schedule counted, and an ``s_waitcnt lgkmcnt(N)`` with ``N > 0``
leaves more of the older reads in flight than the schedule meant.  IREE's f32 kernels read
each fragment as two ``vector<1xf32>`` loads 64 dwords apart, which LLVM makes one
``ds_read2st64_b32``: a ``lgkmcnt(2)`` derived to complete the older of two fragment loads
(two reads each) completed neither, and the DMA copy the schedule put after it overwrote
the LDS words the older read still read (finding 91 of ``docs/iree-audits.md``).

:func:`lower_merged_waits` lowers each such wait to the count that completes the same reads
whatever LLVM merges: of the instructions the schedule counts after the wait's cut, a
fragment load whose reads may merge (``pairable``, per channel) keeps at least half (two
reads merged are one instruction; a read merged with one before the cut is none), so its
``j`` reads after the cut count ``floor(j / 2)``; other loads count as the schedule counted
them.  The count is the least over every way a wave reaches the wait (the prologue; the loop
from the prologue and from itself; the epilogue after the loop and after zero trips; a way
on which no more than the count is in flight needs nothing), never more than it was, and a lowered wait records the count it replaces
(``OpDesc.derived_count``): the order checks pin that count's cut
(:mod:`pipeline_mlir.kernel.wait_order`), and the lower count completes a superset.  With no
pairable channel nothing changes.  The reads in flight and the ways a wave reaches a wait are
:mod:`pipeline_mlir.schedule.dma_lgkm`'s (:class:`~pipeline_mlir.schedule.dma_lgkm.LgkmFlight`,
:func:`~pipeline_mlir.schedule.dma_lgkm.over_ways`), one model for both, a per-load count of
0 read here as no instruction.

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.records import replace
from pipeline_mlir.schedule.dma_lgkm import LgkmFlight, over_ways
from pipeline_mlir.schedule.types import WAIT_LGKM

__all__ = ["lower_merged_waits", "merged_count", "pairable_channels"]


def merged_count(after: list, pairable: tuple[bool, bool]) -> int:
    """The lgkmcnt instructions surely issued after a cut, whatever LLVM merges: ``after``
    are the schedule's items after it (``(load, channel)`` each)."""
    per_load: dict = {}
    for load, ch in after:
        per_load[(load, ch)] = per_load.get((load, ch), 0) + 1
    return sum(j // 2 if ch in (0, 1) and pairable[ch] else j
               for (_, ch), j in per_load.items())


def _lower(entries: list, contexts: list, lgkm: tuple[int, int],
           pairable: tuple[bool, bool]) -> list:
    out = list(entries)
    for w, e in enumerate(entries):
        op = e.op
        if op.tag != WAIT_LGKM or op.wait_value <= 0:
            continue
        need = op.wait_value
        for ctx in contexts:
            f = LgkmFlight(lgkm, strict=False)
            for x in ctx + [y.op for y in out[:w]]:
                f.issue(x)
            if len(f.items) > op.wait_value:   # (else it completes nothing on this way)
                after = [(it[1], it[0][0]) for it in f.items[len(f.items) - op.wait_value:]]
                need = min(need, merged_count(after, pairable))
        if need < op.wait_value:
            out[w] = replace(e, op=replace(op, wait_value=need,
                                           derived_count=op.order_count()))
    return out


def lower_merged_waits(prologue, kernel, epilogue, lgkm: tuple[int, int],
                       pairable: tuple[bool, bool]):
    """The three phases (sequences of :class:`ScheduleEntry`) with every counted
    ``WAIT_LGKM`` lowered to hold when LLVM merges the reads of a ``pairable`` channel's
    fragment loads in pairs (module docstring); ``lgkm``: instructions per fragment load of
    A and of B, as the schedule counts them (the flight of :func:`~pipeline_mlir.schedule.
    dma_lgkm.cover_dma_operands`, a count of 0 meaning no instruction)."""
    if not any(pairable):
        return tuple(prologue), tuple(kernel), tuple(epilogue)
    return over_ways(prologue, kernel, epilogue,
                     lambda entries, ways, _phase: _lower(entries, ways, lgkm, pairable))


#: the widths (bytes per lane) of the reads ``SILoadStoreOptimizer`` merges in pairs
#: (``ds_read_b32``, ``ds_read_b64``) and the reach of the merged instruction's two 8-bit
#: offsets: in units of the width (``ds_read2``) or of 64 widths (``ds_read2st64``)
PAIRED_WIDTHS = (4, 8)
OFFSET_UNITS = 255


def _may_pair(a, b) -> bool:
    """Whether LLVM may merge the reads ``a`` and ``b`` (each one instruction of every
    thread, ``addresses`` per thread) into one: the same width of a pair, and, in one
    buffer, one constant distance the offsets reach (in two buffers, where LLVM places
    each, always)."""
    if a.width != b.width or a.width not in PAIRED_WIDTHS:
        return False
    if a.buffer != b.buffer:
        return True
    d = b.addresses - a.addresses
    if len(d) == 0 or d.min() != d.max():
        return False
    step = abs(int(d[0]))
    w = a.width
    return step > 0 and step % w == 0 and (step // w <= OFFSET_UNITS or (
        step % (64 * w) == 0 and step // (64 * w) <= OFFSET_UNITS))


def pairable_channels(reads) -> tuple[bool, bool]:
    """Per channel (A, B), whether two reads of one fragment load among ``reads`` (the
    plan's fragment reads, :class:`~pipeline_mlir.kernel.lds_data.LdsAccess` each) may be
    merged into one instruction by LLVM."""
    groups: dict = {}
    for r in reads:
        if getattr(r, "kind", "read") == "read":
            groups.setdefault((r.channel, r.stage, r.subtile, r.op_id), []).append(r)
    out = [False, False]
    for (ch, *_), rs in groups.items():
        if ch in (0, 1) and not out[ch]:
            out[ch] = any(_may_pair(a, b) for i, a in enumerate(rs) for b in rs[i + 1:])
    return out[0], out[1]
