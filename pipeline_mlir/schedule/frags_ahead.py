"""Fragment reads one MMA run ahead (``frags_ahead``): a ping-pong schedule's early reads.

A double-buffer kernel phase is a cycle of segments, each ending at a ``BARRIER``.  A
segment that ends in ``WAIT_LGKM(n)`` with ``n > 0`` before its barrier completes its first
fragment reads there (those with at least ``n`` lgkmcnt instructions issued after them),
and the MMA after the barrier waits for them.  ``frags_ahead`` issues those reads one
segment earlier, right after the MMA of the segment before (across the loop's back edge
for the kernel's first segment: the prologue then issues the first iteration's reads at
its end, and the epilogue does not repeat the reads the last iteration issued).

What stays derived:

* **lgkm waits.** The closing wait keeps its count (the moved reads are still the oldest
  it completes); a ``WAIT_LGKM`` between the reads' new and old places is raised by the
  moved instructions, so that it completes the same reads as before.
* **The cross-group ``vmcnt`` guard.**  A read needs, in every wave, the wait that covers
  the LDS DMA it reads followed by barriers before it (the functional model's RAW rule,
  :mod:`pipeline_mlir.sim.functional`).  A read issued one barrier earlier keeps the
  barrier distance of the original only if that wait also comes one barrier earlier: a
  ``WAIT_VM`` completing the DMA is added before the barrier that ends the segment before
  the covering wait's (or an existing wait there lowered to it).  A moved read whose
  covering wait stays at least as many barriers before it as the closest covering wait of
  any read of the unmoved kernel (a distance the schedule already relies on) needs none.
* **Registers.** A moved read must not overwrite a fragment an MMA between its new and old
  places still reads (checked; a ConfigError otherwise).

``balanced`` chooses the moves itself (:func:`_balanced_plan`): from every load segment an
in-order prefix of its reads (the early reads or more, whole fragment loads), moved to the
end of the MMA segment before, so that the segments' LDS-port instruction counts (lgkm
reads and global->LDS loads), largest first, are as small as possible (compared as sorted
lists); among the plans that reach it, the one that moves the fewest instructions.
``balanced`` moves inside one iteration, as ``within``; ``balanced-across`` also over the
back edge, as ``across``.  A prefix keeps every closing wait right: the instructions issued
after each moved read up to that wait are the same as before.  Plans whose registers,
slots (:func:`_check_slots`) or guards are refused are not candidates; the plan that moves
nothing always is.

No MLIR here.
"""

from __future__ import annotations

import itertools

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.frag_waits import consumed_fragments
from pipeline_mlir.schedule.types import (
    BARRIER,
    WAIT_LGKM,
    WAIT_VM,
    OpDesc,
    OpRole,
    Phase,
    ScheduleEntry,
)

#: the values of the ``frags_ahead`` option: no read moves; only moves inside one
#: iteration; also the move across the loop's back edge; the moves that balance the
#: segments' LDS-port instructions, inside one iteration and also over the back edge
NONE, WITHIN, ACROSS = "none", "within", "across"
BALANCED, BALANCED_ACROSS = "balanced", "balanced-across"
FRAGS_AHEAD = (NONE, WITHIN, ACROSS, BALANCED, BALANCED_ACROSS)
#: at most this many move plans are tried by ``balanced`` (the product of the choices
#: per segment); a kernel with more is a ConfigError
MAX_PLANS = 4096


def _segments(kernel: list[ScheduleEntry]) -> list[tuple[int, int]]:
    """``[start, stop)`` of each segment: the entries up to and including a barrier (the
    entries after the last barrier, if any, are in none: no read moves from or to them)."""
    ends = [i for i, e in enumerate(kernel) if e.op.tag == BARRIER]
    if not ends:
        return []
    starts = [0] + [i + 1 for i in ends[:-1]]
    return list(zip(starts, [i + 1 for i in ends]))


def _is_read(op: OpDesc) -> bool:
    return op.role == OpRole.FRAGMENT_LOAD


def _early_reads(kernel, seg, lgkm) -> list[int]:
    """Indices of the reads of segment ``seg`` that its closing ``WAIT_LGKM(n>0)``
    completes (none when the segment has no such wait)."""
    start, stop = seg
    close = None
    for i in range(stop - 1, start - 1, -1):
        op = kernel[i].op
        if _is_read(op):
            return []
        if op.tag == WAIT_LGKM:
            close = i
            break
    if close is None or kernel[close].op.wait_value == 0:
        return []
    reads = [i for i in range(start, close) if _is_read(kernel[i].op)]
    n = kernel[close].op.wait_value
    return [i for i in reads
            if sum(lgkm[kernel[j].op.channel] for j in reads if j > i) >= n]


def _mma_in(kernel, seg) -> int:
    mmas = [i for i in range(*seg) if kernel[i].op.role == OpRole.COMPUTE]
    if len(mmas) != 1:
        raise ConfigError(f"frags_ahead: the segment before KRN[{seg[1]}] has {len(mmas)} "
                          f"MMAs; the early reads need exactly one to follow")
    return mmas[0]


def _check_registers(kernel, reads: list[int], lo: int, hi: int) -> None:
    """No MMA in the unrolled stretch ``[lo, hi)`` reads a fragment the moved reads fill."""
    filled = {(kernel[i].op.channel, kernel[i].op.subtile) for i in reads}
    n = len(kernel)
    for p in range(lo, hi):
        op = kernel[p % n].op
        if op.role == OpRole.COMPUTE and filled & set(consumed_fragments(op)):
            raise ConfigError(f"frags_ahead: KRN[{p % n}] MMA (row {op.stage}, column "
                              f"{op.subtile}) reads a fragment register that a read moved "
                              f"ahead of it would overwrite")


def _check_slots(kernel, reads: list[int], lo: int, hi: int) -> None:
    """No global load in the unrolled stretch ``[lo, hi)`` fills a slot the moved reads
    read (they would read the slot's previous K tile)."""
    slots = {(kernel[i].op.channel, kernel[i].op.stage, kernel[i].op.subtile) for i in reads}
    n = len(kernel)
    for p in range(lo, hi):
        op = kernel[p % n].op
        if op.role == OpRole.GLOBAL_LOAD and (op.channel, op.stage, op.subtile) in slots:
            raise ConfigError(f"frags_ahead: KRN[{p % n}] fills a slot that a read moved "
                              f"ahead of it reads")


class _Cycle:
    """The kernel unrolled: position ``p`` of iteration ``p // n`` is ``kernel[p % n]``."""

    def __init__(self, kernel, vm_per_channel) -> None:
        self.kernel, self.n, self.vm = kernel, len(kernel), vm_per_channel

    def op(self, p: int) -> OpDesc:
        return self.kernel[p % self.n].op

    def vm_between(self, lo: int, hi: int) -> int:
        """vmcnt instructions issued at positions ``(lo, hi)``."""
        return sum(self.vm(self.op(p).channel) for p in range(lo + 1, hi)
                   if self.op(p).role == OpRole.GLOBAL_LOAD)

    def dma_of(self, read_pos: int) -> int:
        """The position of the last global load into the LDS slot the read at
        ``read_pos`` reads (same channel, stage and subtile), before it."""
        r = self.op(read_pos)
        for p in range(read_pos - 1, read_pos - 1 - 2 * self.n, -1):
            op = self.op(p)
            if op.role == OpRole.GLOBAL_LOAD and \
                    (op.channel, op.stage, op.subtile) == (r.channel, r.stage, r.subtile):
                return p
        raise ConfigError(f"frags_ahead: no global load fills the slot KRN[{read_pos % self.n}] "
                          f"reads")

    def covering_wait(self, dma: int) -> int:
        """The position of the first ``WAIT_VM`` after ``dma`` that completes it."""
        for p in range(dma + 1, dma + 1 + 2 * self.n):
            op = self.op(p)
            if op.tag == WAIT_VM and op.wait_value <= self.vm_between(dma, p):
                return p
        raise ConfigError(f"frags_ahead: no vmcnt wait covers the global load "
                          f"KRN[{dma % self.n}]")

    def barrier_before(self, p: int) -> int:
        """The position of the last barrier before position ``p``."""
        for q in range(p - 1, p - 1 - self.n, -1):
            if self.op(q).tag == BARRIER:
                return q
        raise ConfigError("frags_ahead: the kernel has no barrier")


def _distance(cyc: _Cycle, read_pos: int, at: int) -> int:
    """Barriers between the vmcnt wait covering the load the read at ``read_pos`` reads and
    position ``at`` (where the read is issued)."""
    wait = cyc.covering_wait(cyc.dma_of(read_pos))
    return sum(cyc.op(p).tag == BARRIER for p in range(wait + 1, at))


def _guards(cyc: _Cycle, moves: list[tuple[list[int], int]]) -> dict[int, int]:
    """Kernel index of a barrier -> the vmcnt the guard before it waits for.  A moved read
    whose covering wait is still as many barriers before it as the closest one of any read
    of the kernel as it was (the distance the schedule already relies on) needs none."""
    n = cyc.n
    filled = {(op.channel, op.stage, op.subtile) for op in map(cyc.op, range(n))
              if op.role == OpRole.GLOBAL_LOAD}
    # (a read of a slot no load in the loop fills is the functional model's empty-slot)
    reads = [i for i in range(n) if _is_read(cyc.op(i)) and
             (cyc.op(i).channel, cyc.op(i).stage, cyc.op(i).subtile) in filled]
    least = min((_distance(cyc, r + n, r + n) for r in reads), default=0)
    out: dict[int, int] = {}
    for moved, dest in moves:
        lo = dest if dest < moved[0] else dest - n
        for r in moved:
            if _distance(cyc, r + n, lo + n + 1) >= least:
                continue
            dma = cyc.dma_of(r + n) - n
            at = cyc.barrier_before(cyc.covering_wait(dma))
            if at <= dma:
                raise ConfigError(f"frags_ahead: the read KRN[{r % n}] issued one barrier "
                                  f"earlier needs its global load KRN[{dma % n}] completed "
                                  f"before a barrier that comes before the load")
            count = cyc.vm_between(dma, at)
            out[at % n] = min(count, out.get(at % n, count))
    return out


def _move_plan(kernel, lgkm, across: bool) -> list[tuple[list[int], int]]:
    """(reads moved, kernel index they go after) per segment with early reads (with
    ``across`` False, not those that would cross the loop's back edge)."""
    segs = _segments(kernel)
    out = []
    for k, seg in enumerate(segs):
        reads = _early_reads(kernel, seg, lgkm)
        if not reads:
            continue
        if k == 0 and not across:
            continue
        dest = _mma_in(kernel, segs[k - 1])
        lo = dest if dest < reads[0] else dest - len(kernel)
        _check_registers(kernel, reads, lo, reads[0])
        out.append((reads, dest))
    return out


def _apply(kernel, blocks, moves, guards, lgkm):
    """The kernel and its block list with the reads moved, the waits raised, the guards."""
    moved = {i for reads, _ in moves for i in reads}
    raise_by = [0] * len(kernel)
    for reads, dest in moves:
        cost = sum(lgkm[kernel[i].op.channel] for i in reads)
        span = range(dest + 1, reads[0]) if dest < reads[0] else \
            list(range(dest + 1, len(kernel))) + list(range(0, reads[0]))
        for j in span:
            raise_by[j] += cost
    after = {dest: reads for reads, dest in moves}
    out, out_blocks = [], []
    for i, e in enumerate(kernel):
        if i in moved:
            continue
        op = e.op
        if op.tag == BARRIER and i in guards:
            prev = out[-1].op if out else None
            if prev is not None and prev.tag == WAIT_VM:
                out[-1] = replace(out[-1], op=OpDesc.wait_vm(min(prev.wait_value, guards[i])))
            else:
                out.append(replace(e, op=OpDesc.wait_vm(guards[i])))
                out_blocks.append(blocks[i])
        if op.tag == WAIT_LGKM and raise_by[i]:
            e = replace(e, op=OpDesc.wait_lgkm(op.wait_value + raise_by[i]))
        out.append(e)
        out_blocks.append(blocks[i])
        for j in after.get(i, []):
            out.append(kernel[j])
            out_blocks.append(blocks[j])
    return out, out_blocks


def _strip_first(entries: list[ScheduleEntry], ops: list[OpDesc]) -> list[ScheduleEntry]:
    """``entries`` without the first occurrence of each read of ``ops`` before its first
    MMA (the epilogue's reads the last iteration already issued)."""
    out, want = [], [(o.tag, o.channel, o.stage, o.subtile) for o in ops]
    seen_mma = False
    for e in entries:
        key = (e.op.tag, e.op.channel, e.op.stage, e.op.subtile)
        seen_mma = seen_mma or e.op.role == OpRole.COMPUTE
        if not seen_mma and _is_read(e.op) and key in want:
            want.remove(key)
            continue
        out.append(e)
    if want:
        raise ConfigError("frags_ahead: the epilogue does not read what the loop issued ahead")
    return out


def frags_ahead(prologue, kernel, epilogue, blocks, lgkm: tuple[int, int], vm_per_channel,
                mode: str = ACROSS):
    """``(prologue, kernel, epilogue, kernel_blocks)`` with the early reads of ``mode``
    (:data:`FRAGS_AHEAD`; module docstring); ``lgkm``: lgkmcnt instructions per fragment
    load of A and of B, ``vm_per_channel(ch)``: vmcnt instructions per global load of
    channel ``ch``."""
    if mode not in FRAGS_AHEAD:
        raise ConfigError(f"frags_ahead must be one of {', '.join(FRAGS_AHEAD)}, got {mode!r}")
    if mode == NONE:
        return prologue, kernel, epilogue, blocks
    if 0 in lgkm:
        raise ConfigError("frags_ahead: the fragment loads' lgkmcnt counts are not known")
    cyc = _Cycle(kernel, vm_per_channel)
    if mode in (BALANCED, BALANCED_ACROSS):
        moves, guards = _balanced_plan(cyc, lgkm, mode == BALANCED_ACROSS)
    else:
        moves = _move_plan(kernel, lgkm, mode == ACROSS)
        guards = _guards(cyc, moves)
    if not moves:
        return prologue, kernel, epilogue, blocks
    new_kernel, new_blocks = _apply(kernel, list(blocks), moves, guards, lgkm)
    wrapped = [kernel[i].op for reads, dest in moves if dest > reads[0] for i in reads]
    if wrapped:
        slot = prologue[-1].time_slot + 1 if prologue else 0
        prologue = list(prologue) + [ScheduleEntry(op, slot + k, Phase.PROLOGUE)
                                     for k, op in enumerate(wrapped)]
        epilogue = _strip_first(list(epilogue), wrapped)
    return prologue, new_kernel, epilogue, new_blocks


def _port_cost(cyc: _Cycle, i: int, lgkm) -> int:
    """LDS-port instructions of kernel entry ``i``: a fragment load's lgkm reads, a global
    load's vm instructions (each a global->LDS load), else 0."""
    op = cyc.kernel[i].op
    if _is_read(op):
        return lgkm[op.channel]
    return cyc.vm(op.channel) if op.role == OpRole.GLOBAL_LOAD else 0


def _prefix_choices(kernel, segs, k: int) -> list[list[int]]:
    """The read prefixes segment ``k`` may move to the MMA of the segment before: ``[]``,
    then each longer in-order prefix of its reads (none when the segment's reads are not
    all before its first MMA, or the segment before has no single MMA)."""
    start, stop = segs[k]
    reads = [i for i in range(start, stop) if _is_read(kernel[i].op)]
    if not reads or any(kernel[i].op.role == OpRole.COMPUTE for i in range(start, reads[-1])):
        return [[]]
    prev = range(*segs[k - 1])
    if sum(kernel[i].op.role == OpRole.COMPUTE for i in prev) != 1:
        return [[]]
    return [reads[:j] for j in range(len(reads) + 1)]


def _plan_cost(cyc: _Cycle, segs, plan: list[list[int]], lgkm) -> tuple[list[int], int]:
    """(the segments' LDS-port counts under ``plan``, largest first; instructions moved)."""
    load = [sum(_port_cost(cyc, i, lgkm) for i in range(*seg)) for seg in segs]
    moved = 0
    for k, reads in enumerate(plan):
        cost = sum(_port_cost(cyc, i, lgkm) for i in reads)
        load[k] -= cost
        load[k - 1] += cost
        moved += cost
    return sorted(load, reverse=True), moved


def _balanced_plan(cyc: _Cycle, lgkm, across: bool):
    """The moves and guards of ``balanced`` (``across``: ``balanced-across``; module
    docstring): the cheapest plan by :func:`_plan_cost` whose registers, slots and guards
    are accepted."""
    kernel = cyc.kernel
    segs = _segments(kernel)
    choices = [_prefix_choices(kernel, segs, k) if k or across else [[]]
               for k in range(len(segs))]
    total = 1
    for c in choices:
        total *= len(c)
    if total > MAX_PLANS:
        raise ConfigError(f"frags_ahead=balanced: {total} move plans, more than the "
                          f"{MAX_PLANS} it tries")
    plans = sorted(itertools.product(*choices), key=lambda p: _plan_cost(cyc, segs, p, lgkm))
    for plan in plans:
        moves = [(reads, _mma_in(kernel, segs[k - 1])) for k, reads in enumerate(plan) if reads]
        try:
            for reads, dest in moves:
                lo = dest if dest < reads[0] else dest - len(kernel)
                _check_registers(kernel, reads, lo, reads[0])
                _check_slots(kernel, reads, lo, reads[0])
            guards = _guards(cyc, moves)
        except ConfigError:
            continue
        return moves, guards
    return [], {}
