"""The issue order a kernel's counted waits rely on, and where the lowering must pin it.

``s_waitcnt lgkmcnt(N)`` with ``N > 0`` does not name the instructions it waits for: it
waits until at most ``N`` instructions of its counter are in flight, so it completes
everything but the last ``N`` issued (LDS reads and LDS DMAs complete in order).  The
schedule derives ``N`` for the order of its entries: before the ping-pong kernel's
``WAIT_LGKM(8)`` come one fragment load of B (4 ``ds_read``) and one of A (8), and the
wait completes the B reads so that the barrier after it can hand B's buffer to the other
warp group's DMA.  LLVM IR does not order two loads, and LLVM's machine scheduler reorders
independent ``ds_read`` s freely inside a scheduling region: when it issues one of the B
reads among the A reads, ``lgkmcnt(8)`` leaves that B read in flight across the barrier
and the DMA overwrites the slot it reads (LLVM 22's ``llc -O3`` does exactly this to the
second half of the ping-pong BF16 loop).  The only ordering LLVM honours between
independent instructions is a ``sched_barrier(0)`` (``llvm.amdgcn.sched.barrier``: no
instruction is scheduled across it, and ``SILoadStoreOptimizer`` merges nothing across
it either).

So every counted wait has a *cut* in the issue stream of its counter, between the last
instruction it must complete and the first it may leave in flight; the two entries on
either side of the cut must be separated by a fence (or by a basic-block boundary: the
prologue, loop and epilogue are blocks of their own).  :func:`order_cuts` finds the cuts
of a kernel plan; the lowering puts a fence at each cut that has none
(:func:`pipeline_mlir.schedule.fences.fenced_sequence`, ``cuts``), and the ISA check
verifies on the final assembly that every counted wait's cut lies at a fence
(:mod:`pipeline_mlir.isa.wait_order`).  A cut inside one entry cannot be fenced (the
lowering does not split an entry's instructions): the lowering refuses such a kernel, and
``sched-fix-hazards`` lowers a count that would make one to the count that completes the
entry whole before it gets there (:func:`inside_waits`).  A
wait of count 0 relies on no order, nor does a wait that only keeps its counter from
overflowing before the next load (``sched-fix-hazards`` inserts those and marks them:
``OpDesc.overflow_guard``); an earlier wait of the same counter at least as strict ends the
walk.  A fragment load of more reads than ``lgkmcnt`` holds is one entry like any other
(the hardware stalls its read past the counter's limit until the oldest completes).
A wait lowered below the count its schedule derived, for speed
(``OpDesc.derived_count``, :mod:`pipeline_mlir.schedule.vm_cap`), is walked with the derived
count: that cut is pinned, and the lower count then completes a superset of what it
needs; a count above the derived one is refused (a ConfigError: it would leave in flight
an instruction the schedule waits for).

No MLIR here.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.types import WAIT_LGKM, WAIT_VM, OpDesc, OpRole

__all__ = ["COUNTER_OF_WAIT", "OrderCut", "issued", "order_cuts", "part_cuts",
           "inside_waits"]

#: the counter each wait tag waits on
COUNTER_OF_WAIT = {WAIT_VM: "vmcnt", WAIT_LGKM: "lgkmcnt"}

#: the iteration counts whose executions hold every pair of neighbouring phases (prologue
#: -> epilogue, prologue -> loop, loop -> loop, loop -> epilogue)
_ITERATIONS = (0, 2)


def _iterations(plan) -> tuple[int, ...]:
    """Of :data:`_ITERATIONS`, those the kernel of ``plan`` may run (a loop of no trip:
    prologue -> epilogue only, the waits derived for that path alone)."""
    most = plan.shape.max_trips
    return tuple(n for n in _ITERATIONS if most is None or n <= most)


class OrderCut(NamedTuple):
    """A fence the kernel needs: between entry ``done`` (its instructions complete at the
    wait) and entry ``first`` (the first whose instructions the wait may leave in flight),
    both of part ``part`` (its index in the plan's parts); ``wait``: the wait that relies on
    it, as ``(phase, entry)``."""

    part: int
    done: int
    first: int
    wait: tuple[str, int]


def issued(op: OpDesc, vm_per_load: tuple[int, int],
           lgkm_per_load: tuple[int, int]) -> tuple[str, int] | None:
    """The counter an entry's instructions count on and how many it issues (``None``: it
    issues none that a wait counts)."""
    if op.role == OpRole.GLOBAL_LOAD:
        return "vmcnt", vm_per_load[op.channel]
    if op.role == OpRole.FRAGMENT_LOAD:
        return "lgkmcnt", lgkm_per_load[op.channel]
    return None


def _label(phase: str, entry: int) -> str:
    return f"{ {'prologue': 'PRO', 'kernel': 'KRN', 'epilogue': 'EPI'}.get(phase, phase)}" \
           f"[{entry}]" if entry >= 0 else phase


def _cut(stream: list, k: int, shape, parts, strict: bool,
         inside: dict | None = None) -> OrderCut | None:
    """The cut of the counted wait at ``stream[k]`` (None: it needs no fence, or, unless
    ``strict``, it lies inside an entry; then ``inside``, if given, gets at the wait's
    ``(phase, entry)`` the count that completes that entry whole, the least of those
    seen)."""
    wait = stream[k]
    counter, n = COUNTER_OF_WAIT[wait.op.tag], wait.op.order_count()
    if wait.op.overflow_guard:
        return None
    if wait.op.wait_value > n:
        raise ConfigError(
            f"the kernel's {_label(wait.phase, wait.entry)} s_waitcnt {counter}"
            f"({wait.op.wait_value}) is weaker than the count its schedule derived ({n}): a "
            f"wait lowered for speed must be at least as strong as the derived one")
    later = 0          # instructions of the counter issued between a point and the wait
    first = None       # the earliest executed entry the wait may leave in flight
    for j in range(k - 1, -1, -1):
        x = stream[j]
        if COUNTER_OF_WAIT.get(x.op.tag) == counter and x.op.order_count() <= n - later:
            return None     # an earlier wait already completed what this one would
        got = issued(x.op, shape.vm_per_load, shape.lgkm_per_load)
        if got is None or got[0] != counter or got[1] == 0:
            continue
        if first is not None:     # x is the last entry the wait completes
            if (x.part, x.iteration) != (first.part, first.iteration):
                return None       # a block boundary separates them
            return OrderCut(parts.index(x.part), x.entry, first.entry,
                            (wait.phase, wait.entry))
        if later + got[1] > n:
            if not strict:
                if inside is not None:      # (``later``: the count that completes it whole)
                    key = (wait.phase, wait.entry)
                    inside[key] = min(inside.get(key, later), later)
                return None
            raise ConfigError(
                f"the kernel's {_label(wait.phase, wait.entry)} s_waitcnt {counter}({n}) "
                f"completes only part of the {got[1]} instructions of "
                f"{_label(x.phase, x.entry)}: their order inside one entry is LLVM's, so "
                f"the wait would complete an unknown subset of them")
        later += got[1]
        if later == n:
            first = x
    return None


def inside_waits(plan) -> dict[tuple[str, int], int]:
    """The counted waits of ``plan`` (a :class:`~pipeline_mlir.kernel.plan.KernelPlan`)
    whose count would complete only part of an entry's instructions (a cut no fence can
    pin, which the lowering refuses): ``{(phase, entry): the count that completes that
    entry whole}``, the least over every warp group and iteration count.  Such a count is
    the 4-wave top-of-partition wait's where B's fragment load, issued last, issues more
    reads than A's (the reference's count is A's: a 32x32x16 ``A x B`` of one wave, A 2,
    B 4), unless a hazard made that wait 0; ``sched-fix-hazards`` lowers it to the count
    returned (:mod:`pipeline_mlir.sim.repair`), which completes a superset of what the
    schedule's does."""
    lower: dict = {}
    parts = list(plan.parts)
    for group in range(plan.shape.groups):
        for iterations in _iterations(plan):
            stream = list(plan.run(group, iterations))
            for k, x in enumerate(stream):
                if x.op.tag in COUNTER_OF_WAIT and x.op.wait_value > 0 and x.entry >= 0:
                    _cut(stream, k, plan.shape, parts, False, lower)
    return lower


def order_cuts(plan, strict: bool = False) -> list[OrderCut]:
    """Every cut the counted waits of ``plan`` (a
    :class:`~pipeline_mlir.kernel.plan.KernelPlan`) rely on, for every warp group, in the
    order of the plan's parts.  A cut inside an entry is left out, or with ``strict`` (the
    lowering of a kernel) a ConfigError naming the wait and the entry."""
    found = {}
    parts = list(plan.parts)
    for group in range(plan.shape.groups):
        for iterations in _iterations(plan):
            stream = list(plan.run(group, iterations))
            for k, x in enumerate(stream):
                if x.op.tag in COUNTER_OF_WAIT and x.op.wait_value > 0:
                    cut = _cut(stream, k, plan.shape, parts, strict)
                    if cut is not None:
                        found.setdefault(cut[:3], cut)
    return sorted(found.values())


def part_cuts(plan, part) -> dict[int, int]:
    """The cuts inside one part of ``plan``: ``{first: done}``, entry indices relative to
    the part's start (what :func:`~pipeline_mlir.schedule.fences.fenced_sequence` takes)."""
    index = list(plan.parts).index(part)
    return {c.first - part.start: c.done - part.start for c in order_cuts(plan)
            if c.part == index}
