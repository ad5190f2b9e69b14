"""Where the lowering puts ``sched.barrier(0)`` fences, and which MMAs it interleaves.

A fence (``llvm.amdgcn.sched.barrier(0)``) keeps LLVM's machine scheduler from moving
instructions across it: around each run of waits, between the schedule's blocks, and
where a block's fragment loads and global loads meet, so that the loads issue in the
schedule's order (LLVM's scheduler otherwise hoists the long-latency global loads above
the fragment reads the schedule put first, which delays the reads' data the barrier
after them waits for).

With ``interleave``, an MMA entry that directly follows a run of load entries of its
block (fragment and global loads, the schedule barrier that orders them) shares one
scheduling region with them: a fence opens the region, and after the MMA
(:data:`INTERLEAVE`) the lowering places an IGroupLP pipeline
(``llvm.amdgcn.sched.group.barrier``, :func:`interleave_groups`) that puts the loads
between the MMA's MFMAs in their order: fragment reads still before the global loads, as
the run's schedule barrier kept them, but issued while the MFMAs run instead of in a
stretch of their own.  The schedule barrier (:class:`Interleaved`) is then not emitted.
An MMA of one MFMA is not interleaved (:func:`interleaves`: measured, its loads before
it are as fast) and keeps its barrier.  A wait that only an MMA separates from the same
wait (:func:`repeated_waits`, the 4-wave schedules' ``VM(n) MMA VM(n)`` at the end of a
half) is not emitted (:class:`Dropped`), so that MMA too joins its block's loads.
A block's fragment loads directly followed by its global loads (:func:`load_runs`, the
ping-pong blocks' loads) get a pipeline too (:func:`load_groups`, placed at
:data:`LOAD_GROUPS`, a fence before the run and none between its two kinds); without
``fence_loads``, so does every region of fragment and global loads without an MFMA: each
LDS DMA behind a fragment read, which fills the wait state the DMA needs after its M0 write
(else an ``s_nop``).

A counted wait (``s_waitcnt lgkmcnt(8)``) completes all but the last instructions of its
counter, so it relies on the order in which the loads before it issue, which LLVM IR does
not fix: at each of its order cuts (:mod:`pipeline_mlir.kernel.wait_order`) that no fence
covers goes an :data:`ORDER_FENCE`, a ``sched_barrier`` that memory instructions cannot
cross and ALU instructions can.

Plain Python (no MLIR): the lowering (``pipeline_mlir/lowering/rocdl_build.py``) places fences
with :func:`fenced_sequence`, and the ISA check (:mod:`pipeline_mlir.isa.check`)
uses the same function to know which fences the final assembly must hold.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline_mlir.schedule.scale_dmas import has_scale_dmas, plain_kinds, scale_slots
from pipeline_mlir.schedule.targets import DS_READ, HINT_GROUP_MASKS, MFMA, VMEM_READ
from pipeline_mlir.schedule.types import (SCHEDULE_BARRIER, WAIT_FRAG, WAIT_LGKM, WAIT_VM, OpDesc,
                                          OpRole)

#: the two kinds of loads whose order in a block ``fence_loads`` keeps
LOAD_ROLES = (OpRole.GLOBAL_LOAD, OpRole.FRAGMENT_LOAD)

#: the IGroupLP sync id of the interleave pipelines (the schedules' own hints use 0)
INTERLEAVE_SYNC_ID = 1
#: IGroupLP masks of the instruction kinds an interleave pipeline places (the schedule-group
#: hints' masks)
INTERLEAVE_MASKS = {"mfma": HINT_GROUP_MASKS[MFMA], "ds_read": HINT_GROUP_MASKS[DS_READ],
                    "vmem_read": HINT_GROUP_MASKS[VMEM_READ]}


#: how a spread interleave pipeline places the global loads (:func:`spread_slots`): over the
#: MFMAs after the fragment reads, or over every MFMA of the MMA, between the reads
#: (chosen per kernel: :func:`pipeline_mlir.kernel.load_spread.spread_mode`)
SPREAD_AFTER_READS, SPREAD_OVER_MMA = "after-reads", "over-mma"
SPREAD_MODES = (SPREAD_AFTER_READS, SPREAD_OVER_MMA)

#: the fewest MFMAs an MMA interleaves with its loads (:func:`interleaves`)
MIN_INTERLEAVE_MFMAS = 2


class Interleaved(NamedTuple):
    """The schedule barrier inside an interleaved run: the lowering emits it only when
    the MMA is not interleaved (:func:`interleaves`); else the interleave pipeline keeps
    the loads in their order.  ``entry``: its entry (an ``OpDesc``, or its index in a
    kernel plan's :meth:`~pipeline_mlir.kernel.plan.KernelPlan.fenced`)."""

    entry: object


def interleaves(mfmas: int) -> bool:
    """Whether an MMA of ``mfmas`` MFMAs is interleaved with the loads before it (on
    4-wave FP8 64x64, whose MMA is one MFMA, the loads issued before it are faster in
    llvm-mca and in both simulator tables)."""
    return mfmas >= MIN_INTERLEAVE_MFMAS


class _Interleave:
    def __repr__(self) -> str:
        return "INTERLEAVE"


#: after an interleaved MMA entry: where the lowering places the interleave pipeline
INTERLEAVE = _Interleave()


class _LoadGroups:
    def __repr__(self) -> str:
        return "LOAD_GROUPS"


#: after the last global load of a :func:`load_runs` run: where the lowering places the
#: :func:`load_groups` pipeline of the run's loads
LOAD_GROUPS = _LoadGroups()


class _OrderFence:
    def __repr__(self) -> str:
        return "ORDER_FENCE"


#: where a counted wait's order cut needs a fence (:mod:`pipeline_mlir.kernel.wait_order`):
#: a ``sched_barrier`` that no memory instruction crosses, with :data:`ORDER_FENCE_MASK`
ORDER_FENCE = _OrderFence()
#: the ``sched_barrier`` mask of an order fence: the instructions that may cross it (LLVM's
#: classes: non-memory 0x1, VALU 0x2, SALU 0x4, MFMA 0x8, transcendental 0x400), so that
#: only the memory instructions keep their order (an M0 write may still fill the wait
#: state before the next LDS DMA)
ORDER_FENCE_MASK = 0x1 | 0x2 | 0x4 | 0x8 | 0x400
#: the ``sched_barrier`` mask of an opened wait-state guard's two fences
#: (:mod:`pipeline_mlir.lowering.open_guards`): VALU 0x2 and transcendental 0x400 may cross
#: them; no MFMA, no memory instruction, no SALU (the guard's own ``s_nop`` is one)
OPEN_GUARD_MASK = 0x2 | 0x400


def is_wait(desc: OpDesc) -> bool:
    return desc.tag in (WAIT_VM, WAIT_LGKM)


def _is_load(desc: OpDesc) -> bool:
    return desc.role in LOAD_ROLES


def repeated_waits(descs: list[OpDesc]) -> set[int]:
    """Entries of waits that only an MMA (and schedule barriers) separates from a wait of
    the same counter at least as strict (the next waits after the MMA): the later wait
    does everything the earlier one does before anything that depends on it (an MMA
    touches only registers), so the lowering does not emit the earlier one
    (:class:`Dropped`)."""
    out = set()

    def past_barriers(j: int) -> int:
        while j < len(descs) and descs[j].tag == SCHEDULE_BARRIER:
            j += 1
        return j

    for k in range(len(descs) - 2):
        d = descs[k]
        m = past_barriers(k + 1)
        if not is_wait(d) or m >= len(descs) or descs[m].role != OpRole.COMPUTE:
            continue
        j = past_barriers(m + 1)
        while j < len(descs) and is_wait(descs[j]):
            if descs[j].tag == d.tag and descs[j].wait_value <= d.wait_value:
                out.add(k)
                break
            j += 1
    return out


class Dropped(NamedTuple):
    """An entry the lowering does not emit (:func:`repeated_waits`)."""

    entry: object


def interleaved_runs(descs: list[OpDesc], blocks: list[int | None] | None,
                     dropped: set[int] = frozenset()) -> dict[int, int]:
    """``{first entry of the run: the MMA entry}`` of every MMA (COMPUTE entry) that
    directly follows a run of its block's load entries and schedule barriers holding at
    least one load (``dropped`` entries, not emitted, are no part of it and do not end
    it)."""
    runs = {}
    for i, d in enumerate(descs):
        if d.role != OpRole.COMPUTE:
            continue
        j = i
        while j > 0 and (_is_load(descs[j - 1]) or descs[j - 1].tag == SCHEDULE_BARRIER
                         or j - 1 in dropped) and \
                (not blocks or blocks[j - 1] == blocks[i]):
            j -= 1
        if any(_is_load(descs[k]) for k in range(j, i)):
            runs[j] = i
    return runs


def load_runs(descs: list[OpDesc], blocks: list[int | None] | None,
              skip: set[int] = frozenset()) -> dict[int, int]:
    """``{first entry: last entry}`` of every run of fragment loads directly followed by
    global loads of the same block (no other entry between them; entries in ``skip``,
    those of interleaved runs, are no part of one): the runs whose loads one
    :func:`load_groups` pipeline orders, a fragment read before each LDS DMA."""
    runs, n, i = {}, len(descs), 0
    while i < n:
        j = i
        while j < n and j not in skip and descs[j].role == OpRole.FRAGMENT_LOAD and \
                (not blocks or blocks[j] == blocks[i]):
            j += 1
        k = j
        while j > i and k < n and k not in skip and descs[k].role == OpRole.GLOBAL_LOAD and \
                (not blocks or blocks[k] == blocks[i]):
            k += 1
        if k > j > i and blocks:
            runs[i] = k - 1
        i = max(k, i + 1)
    return runs


def fenced_sequence(descs: list[OpDesc], blocks: list[int | None] | None,
                    fence_waits: bool, fence_blocks: bool, fence_loads: bool = False,
                    interleave: bool = False, cuts: dict[int, int] | None = None) -> list:
    """The entries with ``None`` where a ``sched.barrier(0)`` fence must go.

    A run of adjacent waits gets one fence before and one after; each change of
    block index gets one fence between the blocks; with ``fence_loads`` a fragment
    load and a global load of the schedule's blocks with no fence between them (in
    either order) get one between them (entries without blocks, such as the
    single-buffer kernel's, whose order its schedule-group hints give, get none; nor do
    the loads of an interleaved run, whose pipeline keeps their order); no fence is
    added next to an existing SCHEDULE_BARRIER or another fence.  With ``interleave``,
    each run of :func:`interleaved_runs` gets a fence before it, its schedule barriers
    become :class:`Interleaved`, and :data:`INTERLEAVE` and a fence follow its MMA; with
    ``interleave`` and ``fence_loads``, each run of :func:`load_runs` gets a fence before
    it and :data:`LOAD_GROUPS` after it instead of the fence between its two kinds of loads.
    ``cuts`` (``{entry: earlier entry}``, :mod:`pipeline_mlir.kernel.wait_order`): an
    :data:`ORDER_FENCE` before ``entry`` unless a fence already stands between the two.
    """
    out: list = []
    # (a fragment wait issues nothing: LLVM waits for each MFMA's operand registers)
    dropped = (repeated_waits(descs) if interleave else set()) | {
        i for i, d in enumerate(descs) if d.tag == WAIT_FRAG}
    runs = interleaved_runs(descs, blocks, dropped) if interleave else {}
    inside = {k for j, i in runs.items() for k in range(j, i)}
    ends = set(runs.values())
    grouped = load_runs(descs, blocks, inside | ends) if interleave and fence_loads else {}
    in_group = {k for j, i in grouped.items() for k in range(j + 1, i + 1)}
    at: dict[int, int] = {}     # where each emitted entry stands in ``out``

    def fence() -> None:
        if out and (out[-1] is None or (isinstance(out[-1], OpDesc)
                                        and out[-1].tag == SCHEDULE_BARRIER)):
            return
        out.append(None)

    def last_load() -> OpRole | None:
        """The role of the last load since the last fence (None: no load)."""
        for x in reversed(out):
            if x is None or isinstance(x, Interleaved) or x is INTERLEAVE or \
                    (isinstance(x, OpDesc) and x.tag == SCHEDULE_BARRIER):
                return None
            if isinstance(x, OpDesc) and _is_load(x):
                return x.role
        return None

    n = len(descs)
    for i, d in enumerate(descs):
        if i in dropped:
            out.append(Dropped(d))
            continue
        if (fence_blocks and blocks and 0 < i < len(blocks) and blocks[i] != blocks[i - 1]
                and d.tag != SCHEDULE_BARRIER):
            fence()
        if (fence_loads and blocks and _is_load(d) and i not in (inside | in_group)
                and last_load() not in (None, d.role)) or i in grouped:
            fence()
        if fence_waits and is_wait(d) and (i == 0 or not is_wait(descs[i - 1])
                                           or i - 1 in dropped):
            fence()
        if i in runs:
            fence()
        if cuts and i in cuts and not _fenced_since(out, at.get(cuts[i], len(out))):
            out.append(ORDER_FENCE)
        if i in inside and d.tag == SCHEDULE_BARRIER:
            out.append(Interleaved(d))
            continue
        at[i] = len(out)
        out.append(d)
        if i in grouped.values():
            out.append(LOAD_GROUPS)
        if i in ends:
            out.append(INTERLEAVE)
            fence()
            continue
        if (fence_waits and is_wait(d) and (i + 1 == n or not is_wait(descs[i + 1])
                                            or i + 1 in dropped)
                and not (i + 1 < n and descs[i + 1].tag == SCHEDULE_BARRIER)):
            out.append(None)
    return out


def _fenced_since(out: list, k: int) -> bool:
    """Whether a fence of either kind (or an emitted schedule barrier) follows position
    ``k`` of ``out``."""
    return any(x is None or x is ORDER_FENCE or (isinstance(x, OpDesc)
                                                 and x.tag == SCHEDULE_BARRIER)
               for x in out[k + 1:])


def interleave_groups(mfmas: int, loads: list[str],
                      spread: bool | str = False) -> list[tuple[str, int]]:
    """The IGroupLP pipeline of an interleaved MMA: ``(kind, size)`` groups in order, each
    MFMA followed by its share of the loads (``loads``: the instruction kinds of the run,
    ``ds_read`` / ``vmem_read``, in program order; the first MFMAs take one more when they
    do not divide evenly).  A run with MX scale DMAs (``vmem_scale``) places them on
    their own (:func:`~pipeline_mlir.schedule.scale_dmas.scale_slots`).

    With ``spread`` (:func:`spread_slots`), the fragment reads still follow the first
    MFMAs one each, but the global loads after them are spread evenly over the MFMAs
    that follow the last fragment read instead of following the next MFMAs one each
    (``spread`` True or :data:`SPREAD_AFTER_READS`), or over all of them
    (:data:`SPREAD_OVER_MMA`)."""
    if mfmas < 1:
        return []
    if spread:
        slots = spread_slots(mfmas, plain_kinds(loads), spread == SPREAD_OVER_MMA)
    else:
        share = [len(loads) // mfmas + (1 if k < len(loads) % mfmas else 0)
                 for k in range(mfmas)]
        starts = [sum(share[:k]) for k in range(mfmas)]
        slots = (scale_slots(mfmas, loads, share) if has_scale_dmas(loads) else
                 [loads[starts[k]:starts[k] + share[k]] for k in range(mfmas)])
    out: list[tuple[str, int]] = []
    for slot in slots:
        out.append(("mfma", 1))
        for kind in slot:
            if out[-1][0] == kind:
                out[-1] = (kind, out[-1][1] + 1)
            else:
                out.append((kind, 1))
    return out


def spread_slots(mfmas: int, loads: list[str], over_mma: bool = False) -> list[list[str]]:
    """The loads that follow each of ``mfmas`` MFMAs (``mfmas`` >= 1) when the global loads
    are spread: the loads up to the last fragment read one per MFMA from the first (the
    last MFMA takes the rest), then the loads after it spread evenly over the remaining
    MFMAs (load ``j`` of ``n`` after MFMA ``first + j * rest // n``), so that, with one
    wave per SIMD and the waves in step, the CU's global loads do not all issue at once.
    Program order is kept.  ``over_mma``: the global loads spread over every MFMA instead
    (load ``j`` of ``n`` after MFMA ``1 + j * (mfmas - 1) // n``, among the fragment
    reads, which keep their order and their one-per-MFMA places): for an MMA whose MFMAs
    after the reads are too few to cover the CU's DMAs
    (:mod:`pipeline_mlir.kernel.load_spread`)."""
    reads = max((i + 1 for i, k in enumerate(loads) if k == "ds_read"), default=0)
    slots: list[list[str]] = [[] for _ in range(mfmas)]
    for i, kind in enumerate(loads[:reads]):
        if over_mma and kind != "ds_read":
            continue
        slots[min(i if not over_mma else _nth_read(loads, i), mfmas - 1)].append(kind)
    if over_mma:
        tail = [k for k in loads if k != "ds_read"]
        first = min(1, mfmas - 1)
    else:
        first = min(reads, mfmas - 1)
        tail = loads[reads:]
    for j, kind in enumerate(tail):
        slots[first + j * (mfmas - first) // len(tail)].append(kind)
    return slots


def _nth_read(loads: list[str], i: int) -> int:
    """How many fragment reads come before load ``i``."""
    return sum(1 for k in loads[:i] if k == "ds_read")


def load_groups(kinds: list[str]) -> list[tuple[str, int]]:
    """The IGroupLP pipeline of a region of loads without MFMAs (``kinds``: ``ds_read`` /
    ``vmem_read`` in program order): the fragment reads first but for one before each LDS
    DMA, so that an instruction separates every DMA from the M0 write before it; ``[]``
    when the region has no fragment read or no DMA, or its DMAs all come first."""
    kinds = plain_kinds(kinds)
    nds, nvm = kinds.count("ds_read"), kinds.count("vmem_read")
    if not nds or not nvm or kinds.index("vmem_read") < kinds.index("ds_read") or \
            len(kinds) != nds + nvm:
        return []
    pairs = min(nds, nvm)
    out = [("ds_read", nds - pairs)] if nds > pairs else []
    out += [g for _ in range(pairs) for g in (("ds_read", 1), ("vmem_read", 1))]
    if nvm > pairs:
        out.append(("vmem_read", nvm - pairs))
    return out
