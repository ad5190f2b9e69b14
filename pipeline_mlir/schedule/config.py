"""Pipeline and schedule configuration and the strategy presets of ``strategies``."""

from __future__ import annotations

from enum import IntEnum

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import field, fields, record, replace
from pipeline_mlir.schedule.types import OpDesc, OpRole, TargetCostModel


class SchedulingStrategy(IntEnum):
    IDENTITY = 0  # declaration order
    GREEDY = 1  # greedy_schedule
    CSP = 2  # optimal_schedule_with_halves


@record(frozen=True)
class LoopCarriedSpec:
    role: OpRole = OpRole.NONE
    selector: int = 0

    @staticmethod
    def fragment_zero() -> "LoopCarriedSpec":
        return LoopCarriedSpec(OpRole.FRAGMENT_LOAD, 0)

    @staticmethod
    def none() -> "LoopCarriedSpec":
        return LoopCarriedSpec(OpRole.NONE, 0)


@record(frozen=True)
class BlockSizing:
    heavy: int
    light: int
    max_globals: int

    @staticmethod
    def uniform(n: int) -> "BlockSizing":
        return BlockSizing(n, n, 0)


@record(frozen=True)
class FragOrder:
    b_before_a: bool

    @staticmethod
    def b_first() -> "FragOrder":
        return FragOrder(True)


@record(frozen=True)
class WarpStaggerRule:
    enabled: bool = False
    compute_from_body: bool = False
    fixed_amount: int = 0

    @staticmethod
    def none() -> "WarpStaggerRule":
        return WarpStaggerRule(False, False, 0)

    @staticmethod
    def auto() -> "WarpStaggerRule":
        return WarpStaggerRule(True, True, 0)

    @staticmethod
    def fixed(n: int) -> "WarpStaggerRule":
        return WarpStaggerRule(True, False, n)


def _nonneg(owner: str, name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{owner}.{name}: expected an integer, got {value!r}")
    if value < 0:
        raise ConfigError(f"{owner}.{name}: must be >= 0, got {value}")


def _bool(owner: str, name: str, value) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{owner}.{name}: expected true or false, got {value!r}")


@record(frozen=True)
class PipelineConfig:
    """Pipeline structure of a target (depth, MMA grid, block sizing, per-load counter costs)."""

    depth: int
    prefetch: int
    drain_passes: int
    prologue_fill: int
    loop_carried: LoopCarriedSpec
    block_sizing: BlockSizing
    frag_order: FragOrder
    m_mmas: int
    n_mmas: int
    num_partitions: int
    mma_serial: bool
    mma_latency: int
    vm_per_load_a: int
    vm_per_load_b: int
    ch0_match_field: int
    ch1_match_field: int
    warp_stagger: WarpStaggerRule
    lgkm_per_load_a: int = 0
    lgkm_per_load_b: int = 0
    cross_stage_rotation: bool = False
    #: the 4-wave top-of-half lgkm wait counts the fragment loads of the block before it
    #: (set for K-half subtiles, ``k_subtiles``, which the reference has not; else the
    #: reference's count: block 0's globals at their channel's fragment cost)
    top_wait_frags: bool = False
    #: the MMAs of a partition are the diagonal of the m x n grid only (the 4-wave
    #: ``k_subtiles=ab_diagonal`` form: A and B split into the same K halves, so MMA (i, j)
    #: for i != j would multiply nothing); one block per MMA, so m blocks per partition
    diagonal: bool = False
    #: the channel held whole in each stage (0: A, 1: B; -1: none, both split into two
    #: subtiles): the 4-wave ``whole=a`` / ``whole=b`` form of a wave tile one MFMA wide
    #: (tall) whose K tile is one MFMA deep, so neither N (M) nor K splits it; one load and
    #: one fragment of it per stage, the other operand's two subtiles against it, so the
    #: MMAs are one row (column) of the m x n grid, one block each
    whole: int = -1
    # the MX scale tiles as channels of their own (2: A's scales, 3: B's; 0: no such
    # channel): vmcnt per scale DMA op and lgkmcnt per scale read op
    vm_per_load_sa: int = 0
    vm_per_load_sb: int = 0
    lgkm_per_load_sa: int = 0
    lgkm_per_load_sb: int = 0

    def __post_init__(self) -> None:
        o = "PipelineConfig"
        for name in ("depth", "prefetch", "drain_passes", "prologue_fill", "m_mmas", "n_mmas",
                     "num_partitions", "mma_latency", "vm_per_load_a", "vm_per_load_b",
                     "lgkm_per_load_a", "lgkm_per_load_b", "vm_per_load_sa", "vm_per_load_sb",
                     "lgkm_per_load_sa", "lgkm_per_load_sb"):
            _nonneg(o, name, getattr(self, name))
        for ch in "ab":
            vm, lgkm = getattr(self, f"vm_per_load_s{ch}"), getattr(self, f"lgkm_per_load_s{ch}")
            if bool(vm) != bool(lgkm):
                raise ConfigError(f"{o}: a scale channel needs both its counts: "
                                  f"vm_per_load_s{ch}={vm}, lgkm_per_load_s{ch}={lgkm}")
        if self.depth not in (1, 2):
            raise ConfigError(f"{o}.depth: must be 1 (single buffer) or 2 (double buffer), got {self.depth}")
        for name in ("m_mmas", "n_mmas", "num_partitions"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{o}.{name}: must be >= 1, got {getattr(self, name)}")
        for name in ("ch0_match_field", "ch1_match_field"):
            if getattr(self, name) not in (0, 1):
                raise ConfigError(f"{o}.{name}: must be 0 (MMA row) or 1 (MMA column), got {getattr(self, name)}")
        for name in ("heavy", "light", "max_globals"):
            _nonneg(f"{o}.block_sizing", name, getattr(self.block_sizing, name))
        _nonneg(f"{o}.warp_stagger", "fixed_amount", self.warp_stagger.fixed_amount)
        for name in ("mma_serial", "cross_stage_rotation", "diagonal"):
            _bool(o, name, getattr(self, name))
        if self.whole not in (-1, 0, 1) or isinstance(self.whole, bool):
            raise ConfigError(f"{o}.whole: must be -1 (no channel), 0 (A) or 1 (B) held "
                              f"whole, got {self.whole!r}")
        if self.whole >= 0 and (self.diagonal or self.scale_channels):
            raise ConfigError(f"{o}.whole: a channel held whole takes neither the diagonal "
                              f"form nor scale channels")

    def with_(self, **changes) -> "PipelineConfig":
        return replace(self, **changes)

    # ---- derived counts --------------------------------------------------
    @property
    def scale_channels(self) -> bool:
        """Whether the body carries the MX scale tiles as channels 2 and 3."""
        return bool(self.vm_per_load_sa or self.vm_per_load_sb)

    @property
    def mmas_per_partition(self) -> int:
        if self.whole >= 0:     # one row (B whole) or column (A whole) of the grid
            return self.m_mmas if self.whole == 1 else self.n_mmas
        return min(self.m_mmas, self.n_mmas) if self.diagonal else self.m_mmas * self.n_mmas

    @property
    def globals_per_partition(self) -> int:
        return self.m_mmas + self.n_mmas - (self.whole >= 0)

    @property
    def frags_per_partition(self) -> int:
        return self.m_mmas + self.n_mmas - (self.whole >= 0)

    @property
    def ops_per_partition(self) -> int:
        loads = self.globals_per_partition + self.frags_per_partition
        return loads * (2 if self.scale_channels else 1) + self.mmas_per_partition

    @property
    def total_ops(self) -> int:
        return self.num_partitions * self.ops_per_partition

    @property
    def blocks_per_partition(self) -> int:
        return self.mmas_per_partition

    @property
    def total_blocks(self) -> int:
        return self.num_partitions * self.blocks_per_partition

    def compute_match_key(self, compute_op: OpDesc, channel: int) -> int:
        f = self.ch0_match_field if channel % 2 == 0 else self.ch1_match_field
        return compute_op.stage if f == 0 else compute_op.subtile

    def vm_per_channel(self, ch: int) -> int:
        """vmcnt of one global load of channel ``ch``: 0 A, 2 and 3 the scale channels of
        A and B (when the config has them), any other B."""
        if self.scale_channels and ch in (2, 3):
            return self.vm_per_load_sa if ch == 2 else self.vm_per_load_sb
        return self.vm_per_load_a if ch == 0 else self.vm_per_load_b

    def lgkm_per_load(self, fallback_a: int = 0, fallback_b: int = 0) -> tuple[int, ...]:
        """lgkmcnt entries of one fragment load of A / of B as the waits count them: this
        config's count, else the fallback (the schedule config's; 0: not counted); with
        scale channels, then those of a scale read op of A and of B (indexed by channel)."""
        out = (self.lgkm_per_load_a or fallback_a, self.lgkm_per_load_b or fallback_b)
        return out + (self.lgkm_per_load_sa, self.lgkm_per_load_sb) if self.scale_channels else out

    def total_edges(self) -> int:
        h, m, n = self.num_partitions, self.m_mmas, self.n_mmas
        g = m + n
        return h * 2 * m * n + 2 * m * n + 2 * h * g + 2 * (2 * g - 1)


@record(frozen=True)
class ScheduleConfig:
    """Schedule-level knobs: 19 fields, reference order and defaults."""

    scheduling: SchedulingStrategy = SchedulingStrategy.IDENTITY
    sched_barrier_mask: int = 0b01010101
    auto_waits: bool = True
    drain_lgkm_mask: int = 0
    auto_drain: bool = False
    lds_contention_penalty: int = 0
    wait_lgkm_first: int = 8
    wait_vm_last: int = 6
    lgkm_per_load_a: int = 0
    lgkm_per_load_b: int = 0
    lgkm_after_last: bool = False
    minimal_barriers: bool = False
    omit_mma_set_prio: bool = False
    max_vgpr: int = 999999
    global_before_frag: bool = False
    barrier_before_pre_ops: bool = False
    inter_block_lgkm_drain: bool = False
    partial_prologue_drain: bool = False
    wrap_waits_with_sched_barrier: bool = False

    def __post_init__(self) -> None:
        o = "ScheduleConfig"
        try:
            object.__setattr__(self, "scheduling", SchedulingStrategy(self.scheduling))
        except ValueError:
            raise ConfigError(f"{o}.scheduling: unknown strategy {self.scheduling!r}") from None
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type in ("bool", bool):
                _bool(o, f.name, v)
            elif f.name in ("wait_lgkm_first", "wait_vm_last"):
                # negative values are legal here; verify_schedule rejects them with the
                # reference's messages when they are used
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ConfigError(f"{o}.{f.name}: expected an integer, got {v!r}")
            elif f.name != "scheduling":
                _nonneg(o, f.name, v)
        if self.max_vgpr < 1:
            raise ConfigError(f"{o}.max_vgpr: must be >= 1, got {self.max_vgpr}")

    def with_(self, **changes) -> "ScheduleConfig":
        return replace(self, **changes)

    def unread_fields(self) -> dict[str, str]:
        """The fields the double-buffer program builder does not read with this
        configuration, each with the reason (whatever their value, the schedule is the
        same): a user's value for one of them would be silently ignored."""
        out = {}
        if self.scheduling != SchedulingStrategy.CSP:
            why = (f"only the csp scheduler reads it (this configuration uses "
                   f"scheduling={self.scheduling.name.lower()})")
            out["max_vgpr"] = out["lds_contention_penalty"] = why
        if self.auto_waits:
            why = ("auto_waits=true derives the waits from the blocks (give auto_waits=false "
                   "to set them by hand)")
            out["wait_lgkm_first"] = out["wait_vm_last"] = why
            if self.auto_drain:
                out["drain_lgkm_mask"] = "auto_drain=true derives the drain mask"
        else:
            out["auto_drain"] = ("the drain mask is derived with the waits (auto_waits=true); "
                                 "with auto_waits=false give drain_lgkm_mask")
        if self.minimal_barriers:
            why = "minimal_barriers=true leaves out the barrier after the MMA it would follow"
            out["sched_barrier_mask"] = out["lgkm_after_last"] = why
        else:
            out["omit_mma_set_prio"] = ("only the minimal-barrier blocks (minimal_barriers=true) "
                                        "read it; the other blocks always raise the priority "
                                        "around their MMA")
        return out

    @staticmethod
    def field_names() -> list[str]:
        return [f.name for f in fields(ScheduleConfig)]

    def values(self) -> list:
        return [getattr(self, n) for n in self.field_names()]

    @staticmethod
    def from_strategies(*, scheduling=SchedulingStrategy.IDENTITY, max_vgpr=999999,
                        lds_contention_penalty=0,
                        # barrier group
                        minimal_barriers=False, omit_mma_set_prio=False,
                        sched_barrier_mask=0b01010101, wrap_waits_with_sched_barrier=False,
                        barrier_before_pre_ops=False,
                        # wait group
                        auto_waits=True, drain_lgkm_mask=0, auto_drain=False, wait_lgkm_first=8,
                        wait_vm_last=6, lgkm_after_last=False, inter_block_lgkm_drain=False,
                        partial_prologue_drain=False,
                        # load group
                        global_before_frag=False, lgkm_per_load_a=0,
                        lgkm_per_load_b=0) -> "ScheduleConfig":
        return ScheduleConfig(
            scheduling=scheduling, sched_barrier_mask=sched_barrier_mask, auto_waits=auto_waits,
            drain_lgkm_mask=drain_lgkm_mask, auto_drain=auto_drain,
            lds_contention_penalty=lds_contention_penalty, wait_lgkm_first=wait_lgkm_first,
            wait_vm_last=wait_vm_last, lgkm_per_load_a=lgkm_per_load_a,
            lgkm_per_load_b=lgkm_per_load_b, lgkm_after_last=lgkm_after_last,
            minimal_barriers=minimal_barriers, omit_mma_set_prio=omit_mma_set_prio,
            max_vgpr=max_vgpr, global_before_frag=global_before_frag,
            barrier_before_pre_ops=barrier_before_pre_ops,
            inter_block_lgkm_drain=inter_block_lgkm_drain,
            partial_prologue_drain=partial_prologue_drain,
            wrap_waits_with_sched_barrier=wrap_waits_with_sched_barrier)


@record(frozen=True)
class TargetProfile:
    cost_model: TargetCostModel = field(compare=False)
    pipeline: PipelineConfig

    def with_pipeline(self, **changes) -> "TargetProfile":
        return TargetProfile(self.cost_model, replace(self.pipeline, **changes))
