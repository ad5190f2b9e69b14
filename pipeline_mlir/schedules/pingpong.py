"""Ping-pong schedule ``DeclarativeSchedule[is_fp8, lgkm_per_load_a, lgkm_per_load_b]``.

The algorithm declares which ops exist (tag, channel, stage, subtile, k offset);
the target profile says what they cost and how the pipeline is shaped.  Two
halves, one per LDS stage: half 0 computes from stage 0 while stage 0 is refilled
with the next K tile; half 1 does the same for stage 1.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.options import value_text
from pipeline_mlir.records import record
from pipeline_mlir.schedule.compiler import PipelineSchedule, compile_schedule, declared_body
from pipeline_mlir.schedule.frag_waits import WAITS
from pipeline_mlir.schedule.frags_ahead import BALANCED_ACROSS, FRAGS_AHEAD, NONE
from pipeline_mlir.schedule.long_loads import MAX_FRAGMENT_READS
from pipeline_mlir.schedule.config import (
    PipelineConfig,
    ScheduleConfig,
    SchedulingStrategy,
    TargetProfile,
)
from pipeline_mlir.schedule.targets import (
    LOAD_A,
    LOAD_B,
    MATMUL_TAG_NAMES,
    MMA,
    MMA_LOAD_A,
    MMA_LOAD_B,
    mi355x_target,
)
from pipeline_mlir.schedule.types import KOffsetKind, OpDesc, TargetCostModel
from pipeline_mlir.schedules.geometry import (
    C_DTYPE_HELP,
    C_DTYPES,
    COUNT_FIELDS,
    DTYPES,
    PING_PONG_KERNEL,
    MFMA_AUTO,
    MFMA_SHAPES,
    KernelGeometry,
    ping_pong_geometry,
)
from pipeline_mlir.schedules.grid import GROUP_M_HELP, MAX_GROUP_M, XCD_REMAP_HELP
from pipeline_mlir.schedules.knobs import (
    COUNTS,
    FENCES,
    LGKM,
    ORDER,
    PLACEMENT,
    PRIORITIES,
    READS,
    Knob,
)
from pipeline_mlir.schedules.named import NamedSchedule, option
from pipeline_mlir.target.gfx950 import VMCNT_MAX

PingPongOps = MATMUL_TAG_NAMES
#: the element types of the ping-pong kernel (each a geometry: ``ping_pong_geometry``)
PING_PONG_DTYPES = ("bf16", "f16", "fp8", "i8")


def logical_half(h: int, m_mmas: int = 2, n_mmas: int = 2) -> list[OpDesc]:
    """The logical ops of half ``h``: globals (completion load first), frags, MMA grid.

    With the reference's 2x2 grid this is its ``_logical_half[h]`` table; larger
    grids load A subtiles 0..m-1 and B subtiles 0..n-1 the same way, the last A
    subtile being the completion load of the other stage.
    """
    if h not in (0, 1):
        raise ConfigError(f"ping-pong: half must be 0 or 1, got {h}")
    s, os_ = h, 1 - h
    k_off = KOffsetKind.K0 if h == 0 else KOffsetKind.K1
    k_special = KOffsetKind.K_PREV if h == 0 else KOffsetKind.K0
    ops = [OpDesc.logical(LOAD_A, 0, os_, m_mmas - 1, k_special)]
    ops += [OpDesc.logical(LOAD_A, 0, s, i, k_off) for i in range(m_mmas - 1)]
    ops += [OpDesc.logical(LOAD_B, 1, s, j, k_off) for j in range(n_mmas)]
    ops += [OpDesc.logical(MMA_LOAD_A, 0, s, i) for i in range(m_mmas)]
    ops += [OpDesc.logical(MMA_LOAD_B, 1, s, j) for j in range(n_mmas)]
    ops += [OpDesc.logical(MMA, -1, i, j) for i in range(m_mmas) for j in range(n_mmas)]
    return ops


def default_config() -> ScheduleConfig:
    return ScheduleConfig(scheduling=SchedulingStrategy.CSP, auto_waits=True)


class DeclarativeSchedule(PipelineSchedule):
    """Constraint-based ping-pong: declared ops + target costs -> CSP order -> derived waits."""

    name = "pingpong"
    tag_names = PingPongOps

    def __init__(self, is_fp8: bool = False, lgkm_per_load_a: int = 0, lgkm_per_load_b: int = 0,
                 config: ScheduleConfig | None = None, target: TargetProfile | None = None, *,
                 hw_config: PipelineConfig | None = None,
                 cost_model: TargetCostModel | None = None, waits: str = "block",
                 frags_ahead: str = NONE, frag_unread: tuple[int, int] = (0, 0)) -> None:
        target = target or mi355x_target()
        if waits not in WAITS:
            raise ConfigError(f"ping-pong: waits must be one of {', '.join(WAITS)}, got "
                              f"{waits!r}")
        self.is_fp8 = is_fp8
        self.fragment_waits = waits == "fragment"
        # instructions of an A / B fragment load an MMA may leave unread (schedule/frag_waits.py)
        self.frag_unread = frag_unread
        if frags_ahead not in FRAGS_AHEAD:
            raise ConfigError(f"ping-pong: frags_ahead must be one of {', '.join(FRAGS_AHEAD)}, "
                              f"got {frags_ahead!r}")
        self.frags_ahead = frags_ahead
        # the lgkm counts are schedule-config fields (what the derived waits read)
        self._sched = (config if config is not None else default_config()).with_(
            lgkm_per_load_a=lgkm_per_load_a, lgkm_per_load_b=lgkm_per_load_b)
        self._config = hw_config if hw_config is not None else target.pipeline
        self._cost_model = cost_model if cost_model is not None else target.cost_model

    def config(self) -> PipelineConfig:
        return self._config

    def declare_ops(self) -> list[OpDesc]:
        m, n = self._config.m_mmas, self._config.n_mmas
        return logical_half(0, m, n) + logical_half(1, m, n)

    def build_body(self) -> list[OpDesc]:
        return declared_body(self)

    def cost_model(self) -> TargetCostModel:
        return self._cost_model

    def reorder_body(self, ops: list[OpDesc]) -> list[OpDesc]:
        from pipeline_mlir.schedule.body import double_buffer_reorder  # the scheduler: lazily

        return double_buffer_reorder(ops, self._config)

    def schedule_config(self) -> ScheduleConfig:
        return self._sched


def build_schedule(is_fp8: bool = False, lgkm_per_load_a: int = 0, lgkm_per_load_b: int = 0,
                   config: ScheduleConfig | None = None, target: TargetProfile | None = None):
    return compile_schedule(DeclarativeSchedule(is_fp8, lgkm_per_load_a, lgkm_per_load_b, config,
                                                target))


@record(frozen=True, eq=False, kw_only=True)
class PingPong(NamedSchedule):
    """``pingpong{...}``: the ping-pong schedule and the kernel that runs it (8 warps in a
    2 x 4 grid, two warp groups of 4 staggered by one barrier, 256 x 256 tiles)."""

    name = DeclarativeSchedule.name
    summary = ("ping-pong double-buffer schedule (DeclarativeSchedule), 2x2 MMA grid per half, "
               "CSP order, derived waits")
    config_note = "base: ScheduleConfig(scheduling=csp, auto_waits=true)"
    tag_names = DeclarativeSchedule.tag_names
    kernel_traits = PING_PONG_KERNEL

    is_fp8: bool = option("bool", False, "FP8 kernel (256x256x128 tile; its counts below)")
    dtype: str | None = option("enum", None, "element type: bf16 or f16 (256x256x64 tile), "
                               "fp8 or i8 (256x256x128); default: fp8 with is_fp8, else bf16",
                               choices=PING_PONG_DTYPES)
    lgkm_per_load_a: int | None = option("int", None, "lgkmcnt entries per A fragment load "
                                         "(default: the kernel's; 0 = fall back)", min=0,
                                         max=MAX_FRAGMENT_READS)
    lgkm_per_load_b: int | None = option("int", None, "lgkmcnt entries per B fragment load "
                                         "(default: the kernel's; 0 = fall back)", min=0,
                                         max=MAX_FRAGMENT_READS)
    vm_per_load_a: int | None = option("int", None, "vmcnt entries per A global load "
                                       "(default: the kernel's)", min=1, max=VMCNT_MAX)
    vm_per_load_b: int | None = option("int", None, "vmcnt entries per B global load "
                                       "(default: the kernel's)", min=1, max=VMCNT_MAX)
    max_globals: int | None = option("int", None, "global loads per MMA block (0 = bunched, no "
                                     "cap; default: the kernel's)", min=0)
    waits: str = option("enum", "fragment", "MMA lgkm waits: fragment = each MFMA waits for "
                        "its own operands' LDS reads, block = the whole block's (the "
                        "reference's)", choices=WAITS)
    unread_a: int = option("int", 0, "lgkmcnt entries of an A fragment load an MMA may leave "
                           "unread (a loop split along K: the MMA reads one K half of it); "
                           "waits=fragment counts them as in flight after the MMA", min=0,
                           max=MAX_FRAGMENT_READS)
    unread_b: int = option("int", 0, "the same for a B fragment load", min=0,
                           max=MAX_FRAGMENT_READS)
    frags_ahead: str | None = option(
        "enum", None, "fragment reads that a load block's closing lgkm wait completes, issued "
        "one MMA run earlier with a derived vmcnt guard: none, within (inside one iteration), "
        "across (also over the loop's back edge), balanced (more reads, chosen to even out "
        "the LDS-port instructions of the load blocks, inside one iteration) or "
        "balanced-across (also over the back edge); default: balanced-across for fp8, else "
        "none",
        choices=FRAGS_AHEAD)
    c_dtype: str = option("enum", "f32", C_DTYPE_HELP, choices=tuple(C_DTYPES))
    mfma: str = option("enum", MFMA_AUTO, "MFMA shape MxNxK: auto (the dtype's own) or its 32x32 "
                       "one (bf16/f16 32x32x16 or 32x32x8, i8 32x32x32, fp8 32x32x64, or fp8's "
                       "gfx942 16x16x32 and 32x32x16; the front "
                       "end reads it from the kernel; the complete kernel issues only auto)", choices=MFMA_SHAPES)
    xcd_remap: bool = option("bool", False, XCD_REMAP_HELP)
    group_m: int = option("int", 1, GROUP_M_HELP, min=1, max=MAX_GROUP_M)

    tune_knobs = (
        Knob("scheduling", ("csp", "greedy", "identity"), ORDER),
        Knob("lds_contention_penalty", ("0", "2", "4", "8"), ORDER),
        Knob("global_before_frag", ("false", "true"), PLACEMENT),
        # (wait_lgkm_first / wait_vm_last: the kernel derives its waits, auto_waits=true)
        Knob("waits", WAITS, LGKM),
        # (across spills on its own in some kernels: the tuner ranks spilling kernels last)
        Knob("frags_ahead", FRAGS_AHEAD, READS),
        Knob("lgkm_after_last", ("false", "true"), LGKM),
        Knob("inter_block_lgkm_drain", ("false", "true"), LGKM),
        Knob("auto_drain", ("false", "true"), LGKM),
        Knob("omit_mma_set_prio", ("false", "true"), PRIORITIES),
        Knob("minimal_barriers", ("false", "true"), FENCES),
        Knob("barrier_before_pre_ops", ("false", "true"), FENCES),
        Knob("sched_barrier_mask", ("0x55", "0x0", "0xff"), FENCES),
        Knob("wrap_waits_with_sched_barrier", ("false", "true"), FENCES),
        Knob("max_globals", ("0", "1", "2"), COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_a", ("2", "4", "8"), COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_b", ("2", "4", "8"), COUNTS, kernel_fixed=True),
    )

    def counts(self) -> dict:
        """The per-load counts the schedule uses: the given ones, else the kernel's (so that
        every emit kind of a spec shows the schedule its kernel runs)."""
        g = self.kernel_geometry()
        return {k: getattr(g, k) if getattr(self, k) is None else getattr(self, k)
                for k in COUNT_FIELDS}

    def _build(self) -> DeclarativeSchedule:
        c = self.counts()
        target = mi355x_target(c["vm_per_load_a"], c["vm_per_load_b"], c["max_globals"])
        return DeclarativeSchedule(self.is_fp8, c["lgkm_per_load_a"], c["lgkm_per_load_b"],
                                   self.apply_config(default_config()), target, waits=self.waits,
                                   frags_ahead=self.ahead_mode,
                                   frag_unread=(self.unread_a, self.unread_b))

    def kernel_unread_config_fields(self) -> dict[str, str]:
        """``lgkm_after_last`` with ``waits=fragment``: it moves the MMA blocks' lgkm waits,
        which become per-fragment waits whose counts LLVM places before each MFMA."""
        if self.waits != "fragment":
            return {}
        return {"lgkm_after_last": (
            "with waits=fragment the MMA blocks' lgkm waits it places become per-fragment "
            "waits, and LLVM places those before each MFMA whatever the block's wait was "
            "(waits=block makes it count)")}

    @property
    def ahead_mode(self) -> str:
        """``frags_ahead``, else the kernel's default: ``balanced-across`` for fp8 (its
        closing lgkm waits hold back B's reads and its load blocks issue uneven numbers of LDS
        instructions; docs/schedules.md), ``none`` for the other types."""
        if self.frags_ahead is not None:
            return self.frags_ahead
        return BALANCED_ACROSS if self.element_type == "fp8" else NONE

    @property
    def element_type(self) -> str:
        """The kernel's element type: ``dtype``, else fp8 with ``is_fp8``, else bf16; a given
        ``is_fp8`` that says otherwise than ``dtype`` is a ConfigError."""
        if self.dtype is None:
            return "fp8" if self.is_fp8 else "bf16"
        if (self.dtype == "fp8") != self.is_fp8 and "is_fp8" in self.given:
            raise ConfigError(f"{self.owner()}: is_fp8={value_text(self.is_fp8)} contradicts "
                              f"dtype={self.dtype} (is_fp8 says dtype=fp8)")
        return self.dtype

    def kernel_geometry(self) -> KernelGeometry:
        """The ping-pong kernel's fixed tile: 256x256, BK 64 (2-byte elements) or 128 (1-byte:
        fp8, i8), so that each K tile is two MFMA K steps of bf16/f16/i8 or one of fp8
        (``mfma``: four of a 32x32x16, eight of a 32x32x8)."""
        dtype = self.element_type
        try:
            return ping_pong_geometry(dtype, 256, 256, 128 // DTYPES[dtype], self.mfma)
        except ConfigError as e:  # an MFMA shape that is not the dtype's
            raise ConfigError(f"{self.owner()}: {e}") from None
