"""The ISA check's order rule: every counted wait of the schedule has its cut at a fence.

``s_waitcnt lgkmcnt(N)`` (``N > 0``) completes every LDS instruction but the last ``N``
issued, so which ones it completes is decided by the issue order of the instructions
before it (:mod:`pipeline_mlir.kernel.wait_order`).  The comparison with the kernel plan
(:mod:`pipeline_mlir.isa.check`) counts the instructions of each gap between separators,
not their order inside a gap: an assembly in which LLVM issued one of the reads a wait
must complete after the ones it may leave in flight, inside one gap, passes it (LLVM 22's
``llc`` build of the ping-pong BF16 kernel before the order fences did).  This rule reads
the assembly alone: for each wait of the schedule (the actual waits the comparison
matched with the schedule's) with a count, it walks back over the instructions of the
counter (``ds_*`` for lgkmcnt, since LDS instructions complete in order and a scalar load
in flight only makes the wait stricter; vector-memory loads and stores, scratch ones
included, for vmcnt) to the cut, the point between the last instruction the wait completes and the first it leaves in flight,
and requires a ``sched_barrier`` that no memory instruction may cross (mask 0, or a mask
without LLVM's memory classes) or a block boundary (prologue, loop, epilogue, the loop's
back edge) between the two.  An earlier wait of the counter that already completes what
this one would ends the walk (the zero-trip fence's, which the loop's paths skip, does not
end a walk into the loop).  A wait that only keeps its counter from overflowing before the
next load relies on no order: ``sched-fix-hazards`` marks those (``OpDesc.overflow_guard``),
and a counter whose every schedule wait merged into the actual one is so marked is not
walked; nor does such a guard end another wait's walk (its own cut is pinned by no walk):
it lowers what the walked wait leaves in flight to its count plus the instructions issued
after it, and the walk then needs a fence between that many last instructions and the
wait's own count (before the fourth audit LLVM issued two of B's reads after a guard
inside A's load, as long loads then had, in the 8-wave bf16 ``A^T x B`` ping-pong kernel,
and this rule, which ended the walk at the guard, found nothing).  A wait at or above the counter's maximum (a capped ``lgkmcnt(15)``, which
waits for nothing) is walked with the count its schedule derived: no more than the
maximum are ever in flight.  A wait the schedule lowered below the count it derived, for speed
(``OpDesc.derived_count``, recorded in ``Token.derived``), is walked with the derived count:
its cut must be pinned, and the lower count then completes a superset of what the wait
needs (the comparison reports an actual count above the derived one,
``wait-over-derived``).  Waits LLVM adds (its own, for the registers an instruction reads) are computed
from the final order and are not checked, nor is a counter LLVM added to a schedule wait;
a count LLVM lowered below the schedule's is pinned when either cut is.  Such a wait, not
walked, does not end another wait's walk either: it is taken as a guard is (it lowers what
is in flight, and the walk goes on to a fence).  LLVM places it after ordering the
instructions, so it pins none of their order: with reads A, B of the schedule and its
``lgkmcnt(1)`` relied on to complete A, LLVM's order ``B, lgkmcnt(0)`` (its own wait, for
B's registers), ``A``, ``lgkmcnt(1)`` leaves A in flight; when such a wait ended the
walk, the rule found nothing there (``test_isa_wait_order.py``).  A guard or such a wait
that leaves nothing in flight at the walked wait (``lgkmcnt(0)`` after the last read, for
an MFMA's operands) does end it: every read is complete, in whatever order.  A vmcnt cut that
leaves no LDS DMA in flight is safe: every DMA issued before the wait is complete, and
LLVM waits for a register load's VGPRs itself (only DMAs are the schedule's to order); a
DMA left in flight must be one the schedule meant to leave, so that cut must be pinned, unless
no DMA stands between the fences (or block boundaries) on either side of it: a cut between
two scratch spill stores, with only stores and register loads around it up to the nearest
fences, completes the same DMAs in whatever order LLVM issued those (IREE's fp8 256x256
8-wave kernel in the late form, ``pingpong``: three spill stores after the prologue's last
fence, the loop's ``vmcnt(8)`` cutting between two of them, was reported before).

Findings (kind ``wait-unpinned``) name the wait and the two instructions of its cut.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE
from pipeline_mlir.isa.counted import COUNTERS

__all__ = ["MEMORY_CLASSES", "Unpinned", "orders_memory", "unpinned_waits"]

#: LLVM's sched_barrier mask bits of memory instructions (VMEM, VMEM read/write, DS, DS
#: read/write, LDS DMA): a fence whose mask has none of them keeps memory instructions in
#: their order
MEMORY_CLASSES = 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x800

#: the schedule entries the ISA check gives the zero-trip fence's waits
_ZERO_TRIP = f"lowering:{ZERO_TRIP_FENCE}"

#: the paths into each phase: the phases executed before it (in order), then the phase
_PATHS = (("prologue",), ("prologue", "loop"), ("loop", "loop"), ("loop", "epilogue"),
          ("prologue", "epilogue"))


class Unpinned(NamedTuple):
    """A wait whose cut no fence pins: the wait's phase and token index, its counter and
    count, and the tokens (last completed, first left in flight)."""

    phase: str
    index: int
    counter: str
    count: int
    done: object        # Token
    first: object       # Token

    def message(self) -> str:
        done, first = (f"{t.describe()} (line {t.lines[0]})" for t in (self.done, self.first))
        return (f"s_waitcnt {self.counter}({self.count}) completes {done} but not {first}, "
                "and no fence keeps LLVM from issuing them the other way round")


def orders_memory(token) -> bool:
    """Whether a skeleton token is a fence memory instructions cannot cross."""
    return token.kind == "sched_barrier" and not token.value & MEMORY_CLASSES


def _walk(stream: list, k: int, counter: str, n: int, guards=frozenset()) -> tuple | None:
    """The cut of the wait at ``stream[k]`` when no fence or block boundary pins it:
    ``(done, first)`` tokens; else None.  ``stream``: ``(segment, token)`` pairs; ``guards``:
    the indices of ``stream`` whose wait of ``counter`` only guards against an overflow.

    The hardware completes every instruction but the last ``least`` issued: ``least`` is the
    wait's count, at most the counter's limit (no more are ever in flight), and at most an
    earlier guard's count plus the instructions issued after it.  The wait is relied on to
    complete every one but its last ``n``; a fence between the last ``n`` and the last
    ``least`` keeps those the same instructions whatever order LLVM issued them in (an earlier
    wait that is walked itself and completes what this one would ends the walk; a guard is
    not walked, so its cut must be pinned here, unless it leaves nothing in flight at this
    wait: ``lgkmcnt(0)`` after the last read, LLVM's own for an MFMA's operands, completes
    every read whatever their order)."""
    c = COUNTERS[counter]
    kinds, field = c.in_order, c.field
    least, fences = min(n, c.limit), set()
    later, first, dma_left = 0, None, False
    newer: list[str] = []       # the kinds of the instructions counted, the last first
    for j in range(k - 1, -1, -1):
        seg, t = stream[j]
        if t.kind == "wait" and getattr(t, field) is not None:
            if j in guards:
                least = min(least, getattr(t, field) + later)
                if least == 0:          # nothing left in flight: no order relied on
                    return None
            elif getattr(t, field) <= n - later:
                return None
        if j < k - 1 and (orders_memory(t) or seg != stream[j + 1][0]):
            fences.add(later)
        if t.kind not in kinds:
            continue
        if first is not None:
            if any(least <= m <= n for m in fences) or (counter == "vmcnt" and not dma_left):
                return None
            if counter == "vmcnt" and not _dma_may_cross(stream, j, newer[max(
                    (m for m in fences if m < least), default=0):]):
                return None
            return (t, first[1])
        dma_left |= t.kind == "vmem_load_lds"
        newer.append(t.kind)
        later += 1
        if later == n:
            first = (seg, t)
    return None


def _dma_may_cross(stream: list, j: int, newer: list[str]) -> bool:
    """Whether an LDS DMA is among the instructions no fence separates from a vmcnt cut
    whose older side starts at ``stream[j]``: ``newer``, the kinds of those on its newer
    side, and those from ``stream[j]`` back to the first fence or block boundary.  Without
    one, whatever order LLVM gave them (scratch spill stores, register loads), the same
    DMAs are complete at the wait."""
    if "vmem_load_lds" in newer:
        return True
    for i in range(j, -1, -1):
        seg, t = stream[i]
        if i < j and (orders_memory(t) or seg != stream[i + 1][0]):
            return False
        if t.kind == "vmem_load_lds":
            return True
    return False


def _as_walked(token, derived: tuple):
    """An actual wait with each count the schedule lowered raised to the count it derived
    (``derived``: ``(counter, count)`` pairs): what the wait is relied on to complete, for
    its own walk and for the walks that pass it.  A count above the derived one stays."""
    changes = {}
    for counter, n in derived:
        field = COUNTERS[counter].field
        now = getattr(token, field)      # (None: the wait waits for nothing on it)
        changes[field] = n if now is None else max(n, now)
    return replace(token, **changes) if changes else token


def unpinned_waits(actual: dict[str, list], waits: dict[str, dict],
                   guards: dict[str, dict] | None = None,
                   derived: dict[str, dict] | None = None,
                   planned: dict[str, dict] | None = None) -> list[Unpinned]:
    """The waits of ``waits`` (per phase, ``{index of an actual skeleton token: its schedule
    entries}``: the schedule's waits) whose cut is not pinned, in the skeletons ``actual``
    of the three phases; ``guards`` (same keys: the counters of each that only guard
    against an overflow) are not walked; ``derived`` (same keys: ``(counter, count)``
    pairs) gives the count a lowered wait is walked with, when the actual count is at most
    it (:func:`_as_walked`); ``planned`` (same keys: ``(counter, count)`` pairs, the
    schedule's own counts) gives a second cut for a count LLVM lowered below the schedule's:
    the wait is pinned when either cut is (pinned at the schedule's count, the loads it
    completes are the schedule's, and a lower count completes them too; pinned at the
    lower one, those it leaves in flight are among the schedule's last).  The zero-trip
    fence's waits run only when the loop does not: the paths into the loop pass them by."""
    out: dict[tuple, Unpinned] = {}
    skipped = {k for k, origin in waits.get("prologue", {}).items() if _ZERO_TRIP in origin}
    actual = {ph: [_as_walked(t, (derived or {}).get(ph, {}).get(k, ()))
                   for k, t in enumerate(toks)] for ph, toks in actual.items()}
    for path in _PATHS:
        kept = [(s, ph, k, t) for s, ph in enumerate(path)
                for k, t in enumerate(actual.get(ph, []))
                if not (path[-1] == "loop" and ph == "prologue" and k in skipped)]
        stream = [(s, t) for s, _, _, t in kept]
        # not walked, so not trusted to end a walk: the schedule's overflow guards and
        # LLVM's own waits (not the schedule's), whose cut nothing pins
        guarding = {counter: frozenset(j for j, (_, ph, k, t) in enumerate(kept)
                                       if counter in (guards or {}).get(ph, {}).get(k, ())
                                       or (t.kind == "wait" and k not in waits.get(ph, {})))
                    for counter in COUNTERS}
        base = len(stream) - len(actual.get(path[-1], []))
        for i in sorted(waits.get(path[-1], ())):
            t = actual[path[-1]][i]
            for counter, c in COUNTERS.items():
                n = getattr(t, c.field)
                p = dict((planned or {}).get(path[-1], {}).get(i, ())).get(counter)
                d = dict((derived or {}).get(path[-1], {}).get(i, ())).get(counter)
                if n is None or n <= 0 or (n >= c.limit and p is None and d is None):
                    continue
                if counter in (guards or {}).get(path[-1], {}).get(i, ()):
                    continue
                cut = _walk(stream, base + i, counter, n, guarding[counter])
                if cut is not None and p is not None and n < p and \
                        _walk(stream, base + i, counter, p, guarding[counter]) is None:
                    cut = None
                if cut is not None:
                    out.setdefault((path[-1], i, counter),
                                   Unpinned(path[-1], i, counter, n, cut[0], cut[1]))
    return list(out.values())
