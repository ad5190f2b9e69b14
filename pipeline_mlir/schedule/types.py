"""Core data types: enums, op tags, op records, costs and dependency edges."""

from __future__ import annotations

from enum import IntEnum

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import field, record, replace


class ResourceKind(IntEnum):
    GLOBAL_MEM = 0  # vmcnt-tracked buffer_load -> LDS
    LDS = 1  # lgkmcnt-tracked ds_read
    MMA_UNIT = 2  # MFMA
    SCALAR = 3  # barriers, setprio, sched barriers
    VALU = 4  # vector ALU, independent of the MMA unit on CDNA
    NONE = 255


class KOffsetKind(IntEnum):
    K0 = 0
    K1 = 1
    K_NEXT = 2
    K_PREV = 3  # means k - 1*BK
    NONE = 255

    def signed_bk_multiple(self) -> int:
        """Multiple of BK added to the loop's k base (K_PREV is -1)."""
        return -1 if self is KOffsetKind.K_PREV else int(self)


class Phase(IntEnum):
    PROLOGUE = 0
    KERNEL = 1
    EPILOGUE = 2


class OpRole(IntEnum):
    GLOBAL_LOAD = 0
    SHARED_STORE = 1
    FRAGMENT_LOAD = 2
    COMPUTE = 3
    SYNC = 4  # barrier and waits
    FENCE = 5  # set_prio, schedule barriers
    VALU_COMPUTE = 6
    NONE = 255


class DepKind(IntEnum):
    FLOW = 0  # read after write
    ANTI = 1  # write after read
    OUTPUT = 2  # write after write (no rule produces it)


# Framework op tags (kernel data ops use 0-127).
BARRIER = 128
WAIT_VM = 129
WAIT_LGKM = 130
SET_PRIO = 131
SCHEDULE_BARRIER = 132
SCHED_GROUP_BARRIER = 133
#: the waits of one MMA per fragment: each MFMA waits (lgkmcnt) for the LDS reads of its own
#: operands; ``wait_value`` is the count in flight after the MMA's last MFMA
#: (:mod:`pipeline_mlir.schedule.frag_waits`)
WAIT_FRAG = 134
NONE_TAG = 255
MAX_KERNEL_TAG = 127

FRAMEWORK_TAG_NAMES = {
    BARRIER: "BARRIER",
    WAIT_VM: "WAIT_VM",
    WAIT_LGKM: "WAIT_LGKM",
    SET_PRIO: "SET_PRIO",
    SCHEDULE_BARRIER: "SCHED_BARRIER",
    SCHED_GROUP_BARRIER: "SCHED_GROUP_BARRIER",
    WAIT_FRAG: "WAIT_FRAG",
    NONE_TAG: "NONE",
}


@record(frozen=True, slots=True)
class OpCost:
    """What a target charges for one kernel op tag."""

    resource: ResourceKind
    latency: int
    role: OpRole
    vgpr_def: int = 0
    vgpr_kill: int = 0

    @staticmethod
    def none() -> "OpCost":
        return OpCost(ResourceKind.NONE, 0, OpRole.NONE, 0, 0)


class TargetCostModel:
    """Fixed table of 128 :class:`OpCost` entries, one per kernel op tag."""

    SIZE = 128

    def __init__(self) -> None:
        self._costs = [OpCost.none()] * self.SIZE

    @staticmethod
    def _check(tag: int, what: str) -> None:
        if not 0 <= tag < TargetCostModel.SIZE:
            raise ConfigError(f"TargetCostModel: only kernel op tags (0-127) {what} (got tag {tag})")

    def set_cost(self, tag: int, cost: OpCost) -> None:
        self._check(tag, "can be registered")
        self._costs[tag] = cost

    def get_cost(self, tag: int) -> OpCost:
        self._check(tag, "have costs")
        return self._costs[tag]

    def registered(self) -> dict[int, OpCost]:
        return {t: c for t, c in enumerate(self._costs) if c != OpCost.none()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TargetCostModel) and self._costs == other._costs


@record(frozen=True, slots=True)
class OpDesc:
    """One logical or annotated operation of a loop body or schedule.

    For MMA ops ``stage`` is the M-tile row and ``subtile`` the N-tile column;
    for SCHED_GROUP_BARRIER ``subtile`` is the group mask and ``wait_value`` the count.
    ``overflow_guard`` marks a wait that only keeps its counter from overflowing before the
    next load (``sched-fix-hazards`` inserts them): it relies on no issue order
    (:mod:`pipeline_mlir.kernel.wait_order`).  ``derived_count`` records, for a wait lowered
    below the count its schedule derived (a stronger wait, chosen for speed:
    :mod:`pipeline_mlir.schedule.vm_cap`), that derived count: the order checks pin the cut
    of the derived count and refuse a ``wait_value`` above it.  Neither takes part in
    equality.
    """

    tag: int
    stage: int = 0
    subtile: int = 0
    k_offset: KOffsetKind = KOffsetKind.NONE
    vm_cost: int = 0
    lgkm_cost: int = 0
    wait_value: int = 0
    resource: ResourceKind = ResourceKind.NONE
    latency: int = 0
    role: OpRole = OpRole.NONE
    channel: int = -1
    vgpr_def: int = 0
    vgpr_kill: int = 0
    overflow_guard: bool = field(default=False, compare=False, repr=False)
    derived_count: int | None = field(default=None, compare=False, repr=False)

    def is_present(self) -> bool:
        return self.tag != NONE_TAG

    def order_count(self) -> int:
        """The count whose cut a wait relies on: its derived count when it was lowered below
        it (``derived_count``), else its own."""
        return self.wait_value if self.derived_count is None else self.derived_count

    def with_(self, **changes) -> "OpDesc":
        return replace(self, **changes)

    # ---- factories -------------------------------------------------------
    @staticmethod
    def op(tag, resource, latency, role, channel=-1, stage=0, subtile=0,
           k_offset=KOffsetKind.NONE, vm_cost=0, lgkm_cost=0, wait_value=0,
           vgpr_def=0, vgpr_kill=0) -> "OpDesc":
        return OpDesc(tag=tag, stage=stage, subtile=subtile, k_offset=KOffsetKind(k_offset),
                      vm_cost=vm_cost, lgkm_cost=lgkm_cost, wait_value=wait_value,
                      resource=ResourceKind(resource), latency=latency, role=OpRole(role),
                      channel=channel, vgpr_def=vgpr_def, vgpr_kill=vgpr_kill)

    @staticmethod
    def logical(tag, channel=-1, stage=0, subtile=0, k_offset=KOffsetKind.NONE) -> "OpDesc":
        return OpDesc(tag=tag, channel=channel, stage=stage, subtile=subtile,
                      k_offset=KOffsetKind(k_offset))

    @staticmethod
    def control(tag: str, role: OpRole, wait_value: int = 0, subtile: int = 0) -> "OpDesc":
        """A control op (a wait, barrier, priority or scheduling fence): scalar, its count
        in ``wait_value`` (a sched_group_barrier's mask in ``subtile``)."""
        return OpDesc(tag=tag, subtile=subtile, wait_value=wait_value,
                      resource=ResourceKind.SCALAR, role=role)

    @staticmethod
    def barrier() -> "OpDesc":
        return OpDesc.control(BARRIER, OpRole.SYNC)

    @staticmethod
    def wait_vm(n: int) -> "OpDesc":
        return OpDesc.control(WAIT_VM, OpRole.SYNC, n)

    @staticmethod
    def wait_lgkm(n: int) -> "OpDesc":
        return OpDesc.control(WAIT_LGKM, OpRole.SYNC, n)

    @staticmethod
    def wait_frag(n: int) -> "OpDesc":
        return OpDesc.control(WAIT_FRAG, OpRole.SYNC, n)

    @staticmethod
    def set_prio(p: int) -> "OpDesc":
        return OpDesc.control(SET_PRIO, OpRole.FENCE, p)

    @staticmethod
    def schedule_barrier() -> "OpDesc":
        return OpDesc.control(SCHEDULE_BARRIER, OpRole.FENCE)

    @staticmethod
    def sched_group_barrier(mask: int, count: int) -> "OpDesc":
        return OpDesc.control(SCHED_GROUP_BARRIER, OpRole.FENCE, count, mask)

    @staticmethod
    def none() -> "OpDesc":
        return OpDesc(tag=NONE_TAG)


NONE_OP = OpDesc.none()


def is_prefetch(op: OpDesc) -> bool:
    """Prologue/epilogue meaning of "prefetch": a present op with a K0/K1/K_NEXT offset."""
    return op.is_present() and op.k_offset not in (KOffsetKind.K_PREV, KOffsetKind.NONE)


def annotate_ops(ops: list[OpDesc], model: TargetCostModel) -> list[OpDesc]:
    """Copy ``ops`` with resource/latency/role/vgpr fields of kernel tags taken from ``model``."""
    out = []
    for op in ops:
        if op.tag <= MAX_KERNEL_TAG:
            c = model.get_cost(op.tag)
            op = replace(op, resource=c.resource, latency=c.latency, role=c.role,
                         vgpr_def=c.vgpr_def, vgpr_kill=c.vgpr_kill)
        out.append(op)
    return out


@record(frozen=True, slots=True)
class DepEdge:
    """producer -> consumer dependency between body indices; d>=1 is loop-carried."""

    producer_idx: int
    consumer_idx: int
    dep_kind: DepKind = DepKind.FLOW
    loop_distance: int = 0

    @staticmethod
    def flow(p: int, c: int, d: int = 0) -> "DepEdge":
        return DepEdge(p, c, DepKind.FLOW, d)

    @staticmethod
    def anti(p: int, c: int, d: int = 0) -> "DepEdge":
        return DepEdge(p, c, DepKind.ANTI, d)

    def __str__(self) -> str:
        k = "F" if self.dep_kind == DepKind.FLOW else ("A" if self.dep_kind == DepKind.ANTI else "O")
        return f"{self.producer_idx}->{self.consumer_idx}{k}{self.loop_distance}"


@record(frozen=True, slots=True)
class EdgeRule:
    """A declarative edge rule; evaluated by :func:`apply_edge_rules`."""

    name: str = ""
    producer_role: OpRole = OpRole.NONE
    consumer_role: OpRole = OpRole.NONE
    dep_kind: DepKind = DepKind.FLOW
    loop_distance: int = 0  # -1: derive from producer k_offset (K_PREV -> 0, else 1)
    match_channel: bool = False
    match_stage: bool = False
    match_subtile: bool = False
    use_config_match: bool = False
    same_half: bool = False
    cross_half: bool = False
    producer_half: int = -1
    k_offset_filter: int = 0  # 1: consumer must be K_PREV, 2: consumer must not be K_PREV
    lc_producer: int = -1
    lc_consumer: int = -1
    producer_ordinal: int = -1
    consumer_ordinal: int = -1
    first_match_only: bool = False


@record(slots=True)
class ScheduleEntry:
    """One entry of a compiled phase list."""

    op: OpDesc
    time_slot: int
    phase: Phase
    is_prefetch: bool = False


def default_op_name(tag: int, names: dict[int, str] | None = None) -> str:
    """Name of an op tag: framework names, then the schedule's own tag names, else "OP"."""
    if tag in FRAMEWORK_TAG_NAMES:
        return FRAMEWORK_TAG_NAMES[tag]
    if names and tag in names:
        return names[tag]
    return "OP" if tag <= MAX_KERNEL_TAG else "?"

