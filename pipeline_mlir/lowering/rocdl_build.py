"""Creating the ``rocdl`` control ops of the lowering: waits, barriers, priorities, fences."""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, get

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.schedule.fences import (INTERLEAVE, INTERLEAVE_MASKS, INTERLEAVE_SYNC_ID,
                                           LOAD_GROUPS, ORDER_FENCE, ORDER_FENCE_MASK, Dropped,
                                           Interleaved, fenced_sequence, interleave_groups,
                                           interleaves, load_groups)
from pipeline_mlir.schedule.targets import HINT_GROUP_MASKS
from pipeline_mlir.schedule.types import (
    BARRIER,
    SCHED_GROUP_BARRIER,
    SCHEDULE_BARRIER,
    SET_PRIO,
    WAIT_LGKM,
    WAIT_VM,
    OpDesc,
)

#: #rocdl.sched_group_mask keywords and their bits (checked against the i32 LLVM IR receives);
#: "none" and "all" are the two whole-mask words
SCHED_GROUP_MASK_BITS = {
    "none": 0x0, "non_mem_non_sideeffect": 0x1, "valu": 0x2, "salu": 0x4, "mfma_wmma": 0x8,
    "all_vmem": 0x10, "vmem_read": 0x20, "vmem_write": 0x40, "all_ds": 0x80, "ds_read": 0x100,
    "ds_write": 0x200, "transcendental": 0x400, "ldsdma": 0x800, "all": 0xFFF,
}
MASK_ALL = SCHED_GROUP_MASK_BITS["all"]


def mask_attr(mask: int):
    """``#rocdl.sched_group_mask<...>`` for an integer mask (0 is ``none``)."""
    if not 0 <= mask <= MASK_ALL:
        raise ValueError(f"sched group mask 0x{mask:x} has bits outside 0xFFF")
    if mask == 0:
        text = "none"
    elif mask == MASK_ALL:
        text = "all"
    else:
        text = "|".join(n for n, b in SCHED_GROUP_MASK_BITS.items()
                        if n not in ("none", "all") and mask & b)
    return ir.Attribute.parse(f"#rocdl.sched_group_mask<{text}>")


def sched_barrier_none():
    return B.rocdl.sched_barrier(mask_attr(0))


def waitcnt_of(desc: OpDesc) -> int:
    if desc.tag == WAIT_VM:
        return waitcnt_imm(vmcnt=desc.wait_value)
    return waitcnt_imm(lgkmcnt=desc.wait_value)


def create_control(desc: OpDesc) -> None:
    """Create the rocdl op for a framework control entry at the current insertion point.

    Raises ConfigError for a wait count over the gfx950 limits (never clamped).
    """
    if desc.tag in (WAIT_VM, WAIT_LGKM):
        B.rocdl.s_waitcnt(waitcnt_of(desc))
    elif desc.tag == BARRIER:
        B.rocdl.s_barrier()
    elif desc.tag == SET_PRIO:
        B.rocdl.s_setprio(desc.wait_value)
    elif desc.tag == SCHEDULE_BARRIER:
        sched_barrier_none()
    elif desc.tag == SCHED_GROUP_BARRIER:
        B.rocdl.sched_group_barrier(mask_attr(HINT_GROUP_MASKS[desc.subtile]), desc.wait_value, 0)
    else:  # pragma: no cover - callers pass control entries only
        raise ValueError(f"tag {desc.tag} is not a control entry")


CONTROL_TAGS = (WAIT_VM, WAIT_LGKM, BARRIER, SET_PRIO, SCHEDULE_BARRIER, SCHED_GROUP_BARRIER)


#: what :func:`emit_entries` returns: where each entry starts, and how many ops were emitted
_Emitted = tuple[list[int], int]


def emit_entries(entry_ops: list, descs: list[OpDesc], fence_waits: bool, fence_blocks: bool,
                 on_data, sequence: list | None = None, fence_loads: bool = True,
                 interleave_loads: bool = False, spread_loads: bool = False) -> _Emitted:
    """Lower a phase's entries at the current insertion point.

    Fences (``sequence``: the entries, or their indices, with ``None`` where a fence goes,
    as :func:`~pipeline_mlir.schedule.fences.fenced_sequence` marks them; only the marks
    are read, the entries are ``entry_ops`` / ``descs`` in order; by default
    ``fenced_sequence`` of the entries' ``block`` attributes) and the rocdl ops of
    control entries are created there; ``on_data(entry_op, desc)`` places each data
    entry and returns the kinds of the instructions it placed (``mfma``, ``ds_read``,
    ``vmem_read``; ``None``: not known).  At
    :data:`~pipeline_mlir.schedule.fences.INTERLEAVE` the interleave pipeline of the
    data placed since the last fence is created (:func:`interleave`; ``spread_loads``: its
    global loads spread over the MFMAs), and then the
    :class:`~pipeline_mlir.schedule.fences.Interleaved` schedule barriers before it go.
    With ``interleave_loads``, a region of loads without MFMAs gets the pipeline of
    :func:`~pipeline_mlir.schedule.fences.load_groups` where it ends.  Returns the
    position, among the emitted ops, where each entry starts (its leading fences included)
    and how many ops were emitted.  A control entry the hardware cannot encode is an IRError.
    """

    if (seq := sequence) is None:
        blocks = [get(e, "block", S.INT) for e in entry_ops]
        seq = fenced_sequence(descs, blocks if any(b is not None for b in blocks) else None,
                              fence_waits, fence_blocks, fence_loads)
    pairs = iter(zip(entry_ops, descs))
    positions, pos, start = [], 0, None
    region: list = []     # instruction kinds placed since the last fence (None: unknown)
    barriers: list = []   # the Interleaved schedule barriers created since the last fence
    for item in seq:
        if item is ORDER_FENCE:     # memory instructions keep their order; no new region
            B.rocdl.sched_barrier(mask_attr(ORDER_FENCE_MASK))
            start = pos if start is None else start
            pos += 1
            continue
        if item is None:
            if interleave_loads:
                pos += _load_pipeline(region)
            sched_barrier_none()
            start = pos if start is None else start
            pos += 1
            region, barriers = [], []
            continue
        if item is LOAD_GROUPS:    # the run's loads: a fragment read before each DMA
            pos += _load_pipeline(region)
            region = []
            continue
        if item is INTERLEAVE:
            n = interleave(region, spread_loads)
            if n:
                for op in barriers:
                    as_operation(op).erase()
                pos += n - len(barriers)
            region, barriers = [], []
            continue
        e_op, d = next(pairs)
        positions.append(pos if start is None else start)
        if isinstance(item, Dropped):
            continue
        start = None
        pos += 1
        with e_op.location:
            if isinstance(item, Interleaved):
                barriers.append(sched_barrier_none())
            elif d.tag in CONTROL_TAGS:
                if d.tag == SCHEDULE_BARRIER:   # a region ends here, as at a fence
                    if interleave_loads:
                        pos += _load_pipeline(region)
                    region = []
                try:
                    create_control(d)
                except (PipelineError, ValueError) as err:
                    raise IRError(e_op, f"'{e_op.name}' op: {err}") from None
            else:
                kinds = on_data(e_op, d)
                region += list(kinds) if kinds is not None else [None]
    if interleave_loads:
        pos += _load_pipeline(region)
    return positions, pos


def _pipeline(groups: list) -> int:
    for kind, size in groups:
        B.rocdl.sched_group_barrier(mask_attr(INTERLEAVE_MASKS[kind]), size, INTERLEAVE_SYNC_ID)
    return len(groups)


def _load_pipeline(kinds: list) -> int:
    """Create the pipeline of a region of loads without MFMAs
    (:func:`~pipeline_mlir.schedule.fences.load_groups`); nothing when a kind is not known.
    Returns the number of ops created."""
    return _pipeline(load_groups(kinds) if None not in kinds else [])


def interleave(kinds: list, spread: bool = False) -> int:
    """Create the IGroupLP pipeline (:func:`~pipeline_mlir.schedule.fences.interleave_groups`,
    sync id :data:`~pipeline_mlir.schedule.fences.INTERLEAVE_SYNC_ID`) that puts the loads
    among the MFMAs of ``kinds`` (the region's instruction kinds in program order); nothing
    when a kind is not known or the MFMAs are too few
    (:func:`~pipeline_mlir.schedule.fences.interleaves`); ``spread``: the global loads
    spread over the MFMAs after the fragment reads.  Returns the number of ops created."""
    if None in kinds or not interleaves(kinds.count("mfma")):
        return 0
    return _pipeline(interleave_groups(kinds.count("mfma"), [k for k in kinds if k != "mfma"],
                                       spread))
