"""4-wave schedule ``Pipeline4Wave[geometry]`` with cross-stage register rotation.

Each K-partition runs four mini-iterations (one global load, one fragment load,
one MMA).  Mini-iterations 3 and 4 pre-load the next partition's leading
fragments from the other LDS stage, so the body is consumed in declaration
order (IDENTITY) and emitted as explicit minimal-barrier blocks.
"""

from __future__ import annotations

import contextlib

from pipeline_mlir.records import record, replace
from pipeline_mlir.schedule.compiler import PipelineSchedule, compile_schedule, declared_body
from pipeline_mlir.schedule.config import (
    PipelineConfig,
    ScheduleConfig,
    SchedulingStrategy,
    TargetProfile,
    WarpStaggerRule,
)
from pipeline_mlir.schedule.edges import (
    derive_cross_stage_rotation_edges,
    derive_edges_from_ops,
    filter_spurious_cross_stage_flow,
)
from pipeline_mlir.schedule.program import PipelineProgram, emit_minimal_barrier_block
from pipeline_mlir.schedule.targets import (
    LOAD_A,
    LOAD_B,
    MMA,
    MMA_LOAD_A,
    MMA_LOAD_B,
    SCALE_CHANNEL_OFFSET,
    SCALED_MATMUL_TAG_NAMES,
    FRAG_TAGS,
    LOAD_TAGS,
    mi355x_target,
)
from pipeline_mlir.schedule.types import DepEdge, KOffsetKind, OpDesc, OpRole
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedules.geometry import (
    C_DTYPE_HELP,
    C_DTYPES,
    COUNT_FIELDS,
    DTYPES,
    FOUR_WAVE_KERNEL,
    K_SUBTILES,
    DIAGONAL,
    WHOLE,
    MX_DTYPES,
    MFMA_AUTO,
    HALF_K_SHAPES,
    MFMA_SHAPES,
    KernelGeometry,
    dma_counts,
    four_wave_geometry,
    square_grid,
)
from pipeline_mlir.schedules.dma_rule import dword_refusal
from pipeline_mlir.schedules.mx import DWORD_PIECES
from pipeline_mlir.schedules.grid import GROUP_M_HELP, MAX_GROUP_M, XCD_REMAP_HELP
from pipeline_mlir.schedules.knobs import CONTRACT, COUNTS, DMA, FENCES, PLACEMENT, Knob
from pipeline_mlir.schedules.named import NamedSchedule, option
from pipeline_mlir.schedule.long_loads import MAX_FRAGMENT_READS
from pipeline_mlir.target.gfx950 import MAX_WAVES, VMCNT_MAX

#: the 4-wave kernel's global->LDS DMA widths: ``x4`` one ``buffer_load_dwordx4 ... lds``
#: per 16 bytes a lane moves, ``dword`` four ``buffer_load_dword ... lds`` (one per 4 bytes)
#: (``auto``: dword where the timing rule of :mod:`pipeline_mlir.schedules.dma_rule` says
#: they are faster: BF16/F16 256x256x64, I8 256x256x128, MXFP4 256x256; x4 elsewhere)
DMA_AUTO = "auto"
DMA_WIDTHS = (DMA_AUTO, "x4", "dword")
DMA_HELP = ("global->LDS DMA width: x4 (buffer_load_dwordx4 ... lds), dword (four "
            "buffer_load_dword ... lds per x4, a vmcnt wait over 63 lowered to the whole "
            "loads that fit) or auto (dword where the L2-share timing rule says they are "
            "faster, e.g. BF16 256x256x64 and MXFP4 256x256, unless the vm counts given are "
            "x4's; x4 otherwise)")

FourWaveOps = SCALED_MATMUL_TAG_NAMES
#: the option that asks the front end to merge K steps too short for a global load's latency
#: (``frontend/kmerge.py``); the front end's request, not written in the adopted spec
MERGE_K_OPTION = "merge_k"
#: its values: ``auto`` (the default) merges where the rule of ``frontend/kmerge.py`` says it
#: pays and is safe, else leaves the loop as it is; ``true`` merges or refuses the loop saying
#: why; ``false`` never merges
MERGE_AUTO, MERGE_ON, MERGE_OFF = MERGE_K_CHOICES = ("auto", "true", "false")
#: the fewest waves per SIMD a merge ``auto`` makes may leave (``frontend/kmerge_auto.py``
#: decides by it, ``driver/merge_confirm.py`` confirms it on the kernel LLVM built)
MIN_WAVES_PER_SIMD = 2
#: how the note of a loop ``auto`` merged for time starts (``frontend/kmerge.py``'s
#: ``merge_note``; one a given ``BK`` asked for says ``the pipeline sets BK=``)
MERGED_BY_AUTO = f"{MERGE_K_OPTION}={MERGE_AUTO}: "
_ASKED_BK = "(the pipeline sets BK="


#: whether the front end's merge for time asks LLVM for the waves (:func:`asking_waves`)
_ASKING = [False]


@contextlib.contextmanager
def asking_waves(on: bool):
    """Within it, the kernel of a loop ``auto`` merged for time asks LLVM for
    :data:`MIN_WAVES_PER_SIMD` waves per SIMD (``on``: ``frontend/kmerge.py``'s
    ``ask_merged_waves``) or does not: the driver's build again of a merged kernel that ran
    too few without the ask (``driver/merge_confirm.py``); every other build, a nested one
    included, does not.  Here, not in the front end: the driver sets it for every run of a
    named schedule, which need not load the front end."""
    before, _ASKING[0] = _ASKING[0], on
    try:
        yield
    finally:
        _ASKING[0] = before


def asks_waves() -> bool:
    """Whether :func:`asking_waves` is on."""
    return _ASKING[0]


def merged_for_time(note: str | None) -> bool:
    """Whether the merge note ``note`` (``frontend/kmerge.py``'s ``merge_note``) says
    ``auto`` merged the loop's K steps for time (not for a ``BK`` the pipeline asked for)."""
    return note is not None and note.startswith(MERGED_BY_AUTO) and _ASKED_BK not in note \
        and " merged into each K tile" in note


def merge_asked(schedule) -> bool:
    """Whether ``schedule`` (a named schedule or None) asks for K steps merged outright
    (``merge_k=true``): what a use with no natural K-loop to merge refuses (``auto`` is
    silently nothing there, ``false`` nothing at all)."""
    return schedule is not None and MERGE_K_OPTION in type(schedule).options() and \
        schedule.get(MERGE_K_OPTION) == MERGE_ON


@record(frozen=True)
class MiniIterSpec:
    load_tag: int
    load_channel: int
    load_subtile: int
    frag_tag: int
    frag_channel: int
    frag_subtile: int
    frag_cross: bool
    mma_row: int
    mma_col: int


FOUR_WAVE_MINI_ITERS = (
    MiniIterSpec(LOAD_A, 0, 0, MMA_LOAD_B, 1, 1, False, 0, 0),
    MiniIterSpec(LOAD_B, 1, 0, MMA_LOAD_A, 0, 1, False, 0, 1),
    MiniIterSpec(LOAD_B, 1, 1, MMA_LOAD_A, 0, 0, True, 1, 0),
    MiniIterSpec(LOAD_A, 0, 1, MMA_LOAD_B, 1, 0, True, 1, 1),
)


def logical_k_partition(p: int, scales: bool = False) -> list[OpDesc]:
    """The ops of K partition ``p``; with ``scales`` (the MX kernels' scale channel) each
    global and fragment load of an element tile followed by the same load of its scale
    tile (channel + :data:`SCALE_CHANNEL_OFFSET`, tags ``LOAD_SA/SB``, ``MMA_LOAD_SA/SB``)."""
    curr, cross = p, 1 - p
    k = KOffsetKind.K0 if p == 0 else KOffsetKind.K1
    ops = []

    def load(tags, ch, *where):
        ops.append(OpDesc.logical(tags[ch], ch, *where))
        if scales:
            ops.append(OpDesc.logical(tags[ch + SCALE_CHANNEL_OFFSET],
                                      ch + SCALE_CHANNEL_OFFSET, *where))

    for m in FOUR_WAVE_MINI_ITERS:
        load(LOAD_TAGS, m.load_channel, curr, m.load_subtile, k)
        load(FRAG_TAGS, m.frag_channel, cross if m.frag_cross else curr, m.frag_subtile)
        ops.append(OpDesc.logical(MMA, -1, m.mma_row, m.mma_col))
    return ops


def diagonal_k_partition(p: int) -> list[OpDesc]:
    """The ops of K partition ``p`` of the ``k_subtiles=ab_diagonal`` form: A and B split
    into the same K halves, so only MMAs (0, 0) and (1, 1) hold MFMAs, and the partition
    runs two mini-iterations of two global loads, two fragment loads and one MMA each.
    The first loads the fragments of subtile 1 (this stage) that MMA (1, 1) reads; the
    second those of subtile 0 of the other stage, which MMA (0, 0) of the next partition
    reads (the cross-stage rotation, as in :data:`FOUR_WAVE_MINI_ITERS`)."""
    curr, cross = p, 1 - p
    k = KOffsetKind.K0 if p == 0 else KOffsetKind.K1
    ops = []
    for sub, frag_stage, frag_sub in ((0, curr, 1), (1, cross, 0)):
        for ch in (0, 1):
            ops.append(OpDesc.logical(LOAD_TAGS[ch], ch, curr, sub, k))
        for ch in (0, 1):
            ops.append(OpDesc.logical(FRAG_TAGS[ch], ch, frag_stage, frag_sub))
        ops.append(OpDesc.logical(MMA, -1, sub, sub))
    return ops


def whole_k_partition(p: int, whole: int) -> list[OpDesc]:
    """The ops of K partition ``p`` with channel ``whole`` (0: A, 1: B) held whole in each
    stage (``whole=a`` / ``whole=b``): one load and one fragment of it per stage, its one
    subtile against the other operand's two, so the MMAs are (0, 0) and (1, 0) (B whole)
    or (0, 0) and (0, 1) (A whole), one mini-iteration each.  Every MMA of the partition
    reads the whole operand's fragment, so the next partition's cannot be read ahead
    from the other stage (it would overwrite the register the second MMA reads): it is
    read from this stage in the first mini-iteration, beside the split operand's
    subtile 1, and its global load waits for that read (the second mini-iteration, with
    the split operand's subtile-1 load).  The split operand rotates as in
    :data:`FOUR_WAVE_MINI_ITERS`: subtile 0 of the other stage read ahead in the second."""
    curr, cross = p, 1 - p
    k = KOffsetKind.K0 if p == 0 else KOffsetKind.K1
    split = 1 - whole

    def mma(sub):
        return OpDesc.logical(MMA, -1, *((sub, 0) if whole == 1 else (0, sub)))

    return [OpDesc.logical(LOAD_TAGS[split], split, curr, 0, k),
            OpDesc.logical(FRAG_TAGS[split], split, curr, 1),
            OpDesc.logical(FRAG_TAGS[whole], whole, curr, 0),
            mma(0),
            OpDesc.logical(LOAD_TAGS[split], split, curr, 1, k),
            OpDesc.logical(LOAD_TAGS[whole], whole, curr, 0, k),
            OpDesc.logical(FRAG_TAGS[split], split, cross, 0),
            mma(1)]


def scale_channel_counts(geometry: KernelGeometry) -> dict:
    """The 4-wave config's counts with the MX scale tiles as channels of their own: the
    element ops' counts without the scales (``vm_per_load_a`` / ``_b``,
    ``lgkm_per_load_a`` / ``_b``) and the scale ops' (``..._sa`` / ``_sb``); ConfigError
    for a geometry without scale tiles."""
    g = geometry
    if not (g.scale_loads_a and g.scale_loads_b):
        raise ConfigError(f"scale channel: dtype={g.dtype} has no scale tiles")
    out = {}
    for ch, n in enumerate("ab"):
        # one scale read per MFMA operand of the warp tile's quadrant (2 x 2 warps)
        rows = (g.BM, g.BN)[ch] // 2 // (g.MMA_M, g.MMA_N)[ch] // 2
        scales = {"vm": getattr(g, f"scale_loads_{n}"), "lgkm": rows * (g.BK // g.MMA_K)}
        for counter, scale in scales.items():
            total = getattr(g, f"{counter}_per_load_{n}")
            if total <= scale:
                raise ConfigError(f"option '{counter}_per_load_{n}={total}': a load of "
                                  f"{'AB'[ch]} counts its element tile's instructions and its "
                                  f"scale tile's {scale} (the MX scale channel); give at "
                                  f"least {scale + 1}")
            out[f"{counter}_per_load_{n}"] = total - scale
            out[f"{counter}_per_load_s{n}"] = scale
    return out


def default_schedule_config() -> ScheduleConfig:
    return ScheduleConfig.from_strategies(
        scheduling=SchedulingStrategy.IDENTITY, minimal_barriers=True, omit_mma_set_prio=True,
        inter_block_lgkm_drain=True, partial_prologue_drain=True, auto_waits=True)


def kernel_schedule_config(geometry: KernelGeometry) -> ScheduleConfig:
    """What the 4-wave kernel passes: fences (schedule barriers) only for BM >= 128, non-FP8."""
    return ScheduleConfig(scheduling=SchedulingStrategy.IDENTITY, auto_waits=True,
                          sched_barrier_mask=0xFF if geometry.fences else 0,
                          wrap_waits_with_sched_barrier=geometry.fences)


def kernel_target(geometry: KernelGeometry) -> TargetProfile:
    return mi355x_target(geometry.vm_per_load_a, geometry.vm_per_load_b, geometry.max_globals)


class Pipeline4Wave(PipelineSchedule):
    name = "4wave"
    tag_names = FourWaveOps

    def __init__(self, geometry: KernelGeometry | None = None, config: ScheduleConfig | None = None,
                 target: TargetProfile | None = None, scale_channel: bool = False,
                 top_wait_frags: bool = False, diagonal: bool = False,
                 whole: int = -1) -> None:
        self.geometry = geometry or four_wave_geometry()
        self.diagonal = diagonal
        self.whole = whole
        config = config if config is not None else default_schedule_config()
        # the cross-stage rotation relies on these; re-applied whatever the caller passed
        self._sched = config.with_(scheduling=SchedulingStrategy.IDENTITY, minimal_barriers=True,
                                   omit_mma_set_prio=True, inter_block_lgkm_drain=True,
                                   partial_prologue_drain=True)
        target = target or mi355x_target()
        self._cost_model = target.cost_model
        self._config = target.pipeline.with_(
            warp_stagger=WarpStaggerRule.none(), lgkm_per_load_a=self.geometry.lgkm_per_load_a,
            lgkm_per_load_b=self.geometry.lgkm_per_load_b, cross_stage_rotation=True,
            top_wait_frags=top_wait_frags, diagonal=diagonal, whole=whole)
        if scale_channel:
            self._config = self._config.with_(**scale_channel_counts(self.geometry))

    def config(self) -> PipelineConfig:
        return self._config

    def declare_ops(self) -> list[OpDesc]:
        if self.diagonal:
            return diagonal_k_partition(0) + diagonal_k_partition(1)
        if self.whole >= 0:
            return whole_k_partition(0, self.whole) + whole_k_partition(1, self.whole)
        scales = self._config.scale_channels
        return logical_k_partition(0, scales) + logical_k_partition(1, scales)

    def build_body(self) -> list[OpDesc]:
        return declared_body(self)

    def cost_model(self):
        return self._cost_model

    # No reorder: the body is already in mini-iteration order (default reorder_body).

    def derive_edges(self, body: list[OpDesc]) -> list[DepEdge]:
        raw = derive_edges_from_ops(body, self._config)
        return filter_spurious_cross_stage_flow(raw, body) + derive_cross_stage_rotation_edges(body)

    def schedule_config(self) -> ScheduleConfig:
        return self._sched

    def unread_config_fields(self) -> dict[str, str]:
        out = super().unread_config_fields()
        why = ("the 4-wave blocks never wait before their loads (a schedule barrier keeps "
               "fragment reads and global loads apart)")
        out["drain_lgkm_mask"] = out["auto_drain"] = why
        if not self._sched.auto_waits:
            out["wait_lgkm_first"] = ("the first block of each 4-wave K partition opens with "
                                      "its entry wait, which waits for lgkmcnt(0)")
            out["barrier_before_pre_ops"] = ("the 4-wave blocks read it only for the entry "
                                             "waits they derive (auto_waits=true)")
        return out

    def bootstrap_frags(self) -> list[OpDesc]:
        channels = (0, 2, 1, 3) if self._config.scale_channels else (0, 1)
        # (a channel held whole is read in its own partition's first block: none ahead)
        channels = [ch for ch in channels if ch != self.whole]
        return [OpDesc(tag=FRAG_TAGS[ch], stage=0, subtile=0, channel=ch,
                       role=OpRole.FRAGMENT_LOAD) for ch in channels]

    def build_explicit_blocks(self, body: list[OpDesc], program: PipelineProgram) -> list[list[OpDesc]]:
        return [emit_minimal_barrier_block(b, wrap_waits=b.wrap_waits_with_sched_barrier,
                                           global_before_frag=b.global_before_frag)
                for b in program.blocks]


def build_schedule(geometry: KernelGeometry | None = None, config: ScheduleConfig | None = None,
                   target: TargetProfile | None = None):

    return compile_schedule(Pipeline4Wave(geometry, config, target))


#: the geometry's counts a 4wave spec may override
GEOMETRY_OVERRIDES = COUNT_FIELDS + ("fences",)


@record(frozen=True, eq=False, kw_only=True)
class FourWave(NamedSchedule):
    """``4wave{...}``: the 4-wave schedule and the kernel that runs it (4 warps in a 2 x 2
    grid, one warp group); its counts derive from the tile geometry."""

    name = Pipeline4Wave.name
    summary = ("4-wave schedule with cross-stage register rotation (Pipeline4Wave); counts "
               "derived from the tile geometry")
    config_note = ("base: the kernel's config (sched_barrier_mask=0xFF and "
                   "wrap_waits_with_sched_barrier=true with fences, else 0/false); the schedule "
                   "always uses scheduling=identity, minimal_barriers, omit_mma_set_prio, "
                   "inter_block_lgkm_drain and partial_prologue_drain = true (other values are "
                   "rejected); barrier_before_pre_ops changes the printed schedule only (the "
                   "kernel emit kinds reject it)")
    tag_names = Pipeline4Wave.tag_names
    kernel_traits = FOUR_WAVE_KERNEL

    dtype: str = option("enum", "bf16", "element type (mxfp4, mxfp8: block-scaled, E8M0 "
                        "scales per 32 K values; BK a multiple of 128; f32: a kernel given "
                        "as input only)",
                        choices=tuple(DTYPES) + tuple(MX_DTYPES))
    BM: int = option("int", 128, "block tile M", min=1)
    BN: int = option("int", 128, "block tile N", min=1)
    BK: int = option("int", 64, "block tile K", min=1)
    vm_per_load_a: int | None = option("int", None, "override the geometry's vmcnt per A "
                                       "global load", min=1, max=VMCNT_MAX)
    vm_per_load_b: int | None = option("int", None, "override the geometry's vmcnt per B "
                                       "global load", min=1, max=VMCNT_MAX)
    # more than lgkmcnt holds: the hardware stalls (pipeline_mlir/schedule/long_loads.py)
    lgkm_per_load_a: int | None = option("int", None, "override the geometry's lgkmcnt per A "
                                         "fragment load", min=1, max=MAX_FRAGMENT_READS)
    lgkm_per_load_b: int | None = option("int", None, "override the geometry's lgkmcnt per B "
                                         "fragment load", min=1, max=MAX_FRAGMENT_READS)
    max_globals: int | None = option("int", None, "override the geometry's global loads per "
                                     "MMA block", min=0)
    fences: bool | None = option("bool", None, "override schedule-barrier fences (default: "
                                 "BM >= 128 and not fp8)")
    c_dtype: str = option("enum", "f32", C_DTYPE_HELP, choices=tuple(C_DTYPES))
    xcd_remap: bool = option("bool", False, XCD_REMAP_HELP)
    group_m: int = option("int", 1, GROUP_M_HELP, min=1, max=MAX_GROUP_M)
    dma: str = option("enum", DMA_AUTO, DMA_HELP, choices=DMA_WIDTHS)
    mfma: str = option("enum", MFMA_AUTO, "MFMA shape MxNxK: auto (the dtype's own) or its 32x32 "
                       "one (bf16/f16 32x32x16 or 32x32x8, i8 32x32x32, fp8 32x32x64, or fp8's "
                       "gfx942 16x16x32 and 32x32x16; i8's gfx942 16x16x32 and 32x32x16; "
                       "the front end reads it from the kernel; the complete kernel issues "
                       "only auto), or "
                       "bf16/f16 16x16x16 (a loop's MFMAs the front end halved along K, or the "
                       "kernel's own)",
                       choices=MFMA_SHAPES + HALF_K_SHAPES)
    loop_once: bool = option("bool", False, "the main loop runs at least once: the launch "
                             "contract needs K >= 4*BK, and the kernel has no zero-trip path")
    waves: int = option("int", FOUR_WAVE_KERNEL.warps, "waves that run the schedule in "
                        "lockstep, each its own copies, reads and MFMAs (the front end reads "
                        "it from the kernel; the complete kernel runs 4)", min=1, max=MAX_WAVES)
    waves_m: int | None = option("int", None, "of the waves, those along M, the rest along N "
                                 "(default: the most nearly square grid, no more rows than "
                                 "columns: 2x2 for 4 waves; the front end reads it from the "
                                 "kernel); each wave's tile splits into the schedule's 2x2 "
                                 "subtiles", min=1, max=MAX_WAVES)
    k_subtiles: str = option("enum", "none", "operands whose two subtiles are the halves "
                             "of the K tile, for a wave tile one MFMA tall (a), wide (b) or "
                             "both (ab; B's K quarters crosswise; ab_diagonal: both the "
                             "same halves, MFMAs in the MMAs (0, 0) and (1, 1) only) (the "
                             "front end reads it from the kernel; the complete kernel "
                             "splits by MFMA rows and columns: none)", choices=K_SUBTILES)
    whole: str = option("enum", "none", "the operand each stage holds whole, for a wave "
                        "tile one MFMA wide (b) or tall (a) whose K tile is too short to "
                        "split (k_subtiles): one load and one fragment of it per stage, the "
                        "other's two subtiles against it, the MMAs (0, 0) and (1, 0) (b) or "
                        "(0, 0) and (0, 1) (a) (the front end picks it where no split "
                        "exists; the complete kernel splits both: none)", choices=WHOLE)
    merge_k: str = option("enum", MERGE_AUTO, "the front end merges consecutive K steps of "
                          "the kernel's loop into one K tile when two stages of one K step "
                          "hold less MFMA time than a global load's latency (the simulator's "
                          "measured table): auto where the merge pays and is safe (constant "
                          "trip count, enough steady-state iterations, fits in LDS, at least "
                          "2 waves per SIMD), true always (or the loop is refused saying "
                          "why), false never (frontend/kmerge.py; the complete kernel has no "
                          "loop to merge); under auto and true a BK of 2 or 4 of the loop's "
                          "K steps merges that many (frontend/kmerge_asked.py)",
                          choices=MERGE_K_CHOICES)

    tune_knobs = (
        Knob("global_before_frag", ("false", "true"), PLACEMENT),
        # (not the knobs the 4-wave blocks never read: derived waits, lgkm_after_last,
        # auto_drain, sched_barrier_mask; each is an error saying why; nor
        # barrier_before_pre_ops, which changes the schedule but never a 4-wave kernel)
        Knob("fences", ("true", "false"), FENCES),
        Knob("wrap_waits_with_sched_barrier", ("true", "false"), FENCES),
        Knob("dma", ("x4", "dword"), DMA, only_accepted=True),
        # (loop_once takes the zero-trip path out, so it narrows the launch contract to
        # K >= 4*BK: searched only for a --tune-size the narrowed kernel runs)
        Knob("loop_once", ("false", "true"), CONTRACT, contract=True),
        Knob("max_globals", ("0", "1", "2"), COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_a", ("1", "2", "4", "8"), COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_b", ("1", "2", "4", "8"), COUNTS, kernel_fixed=True),
    )

    def wave_grid(self) -> tuple[int, int]:
        """The waves (M, N) of the kernel: ``waves_m`` rows of the ``waves``, else the most
        nearly square grid (:func:`~pipeline_mlir.schedules.geometry.square_grid`)."""
        if self.waves_m is None:
            return square_grid(self.waves)
        if self.waves % self.waves_m:
            raise ConfigError(f"{self.owner()}: option 'waves_m={self.waves_m}' must divide "
                              f"the {self.waves} waves (waves={self.waves})")
        return self.waves_m, self.waves // self.waves_m

    def _tile_geometry(self) -> KernelGeometry:
        """The formulas' geometry of the tile, dtype, MFMA and wave grid (no overrides)."""
        grid = self.wave_grid()
        try:
            return four_wave_geometry(self.dtype, self.BM, self.BN, self.BK, self.mfma, grid,
                                      self.k_subtiles, self.whole)
        except ConfigError as e:
            raise ConfigError(f"{self.owner()}: {e}{self._grid_said(grid)}") from None

    def _grid_said(self, grid: tuple[int, int]) -> str:
        """Where a wave grid other than the schedule's own 2 x 2 came from, for a message."""
        if grid == square_grid(4):
            return ""
        why = (f"waves_m={self.waves_m}" if self.waves_m is not None
               else "the most nearly square grid; waves_m sets its rows")
        return f" (waves={self.waves}: a {grid[0]} x {grid[1]} wave grid, {why})"

    def dma_width(self) -> str:
        """The DMA width the kernel issues: the ``dma`` option, ``auto`` resolved by the
        timing rule (:func:`pipeline_mlir.schedules.dma_rule.dword_refusal`); x4 when an
        MFMA shape is given (the complete kernel issues only its dtype's own), with another
        number of waves than the complete kernel's (a kernel given as input), and when the
        given vm counts are the tile's x4 counts: what a front-end input issuing x4 copies
        of this tile counts, :meth:`_counts_x4`)."""
        if self.dma != DMA_AUTO:
            return self.dma
        if self.mfma != MFMA_AUTO or self._counts_x4() or self.waves != self.kernel_traits.warps:
            return "x4"
        return "x4" if dword_refusal(self._tile_geometry(), self.kernel_traits) else "dword"

    def _counts_x4(self) -> bool:
        """Whether vm counts are given and each given one is the tile's x4 count."""
        given = {k: getattr(self, k) for k in ("vm_per_load_a", "vm_per_load_b")
                 if getattr(self, k) is not None}
        if not given:
            return False
        g = self._tile_geometry()
        return all(getattr(g, k) == v for k, v in given.items())

    def geometry(self) -> KernelGeometry:
        """The tile geometry (the 4-wave kernel's formulas), then the given overrides."""
        g = self._tile_geometry()
        overrides = {k: getattr(self, k) for k in GEOMETRY_OVERRIDES
                     if getattr(self, k) is not None}
        if self.dma_width() == "dword":
            overrides = self._dword_counts(g, overrides)
        return replace(g, **overrides) if overrides else g

    def _dword_counts(self, g: KernelGeometry, overrides: dict) -> dict:
        """``overrides`` plus the vmcnt counts of dword DMAs (each x4 DMA as
        :data:`DWORD_PIECES`); ConfigError where they would contradict an option."""
        counts = dma_counts(g, DWORD_PIECES)
        for k, want in counts.items():
            if overrides.get(k, want) != want:
                how = "'dma=dword'" if self.dma != DMA_AUTO else \
                    "'dma=auto' (dword for this tile; give dma=x4 for x4 DMAs)"
                raise ConfigError(f"{self.owner()}: option '{k}={overrides[k]}' contradicts "
                                  f"{how}, which issues {want} DMAs per load")
        return {**overrides, **counts}

    def kernel_geometry(self) -> KernelGeometry:
        """The schedule's geometry with the counts the formulas give for its dtype and
        tile (an override of a count changes the schedule, not what the kernel issues)."""
        g = self.geometry()
        natural = self._tile_geometry()
        if self.dma_width() == "dword":
            natural = replace(natural, **self._dword_counts(natural, {}))
        return replace(g, **{k: getattr(natural, k) for k in COUNT_FIELDS})

    def min_trips(self) -> int:
        """1 with ``loop_once``, else 0."""
        return int(self.loop_once)

    def _build(self) -> Pipeline4Wave:
        g = self.geometry()
        # the MX kernels' scale tiles are channels of their own (scale_channel_counts)
        scales = bool(g.scale_loads_a or g.scale_loads_b)
        if scales:
            try:
                scale_channel_counts(g)
            except ConfigError as e:
                raise ConfigError(f"{self.owner()}: {e}") from None
        s = Pipeline4Wave(g, self.apply_config(kernel_schedule_config(g)), kernel_target(g),
                          scale_channel=scales, top_wait_frags=self.k_subtiles != "none",
                          diagonal=self.k_subtiles == DIAGONAL,
                          whole=WHOLE.index(self.whole) - 1)
        s.cap_vm_waits = self.dma_width() == "dword"
        return s

    def kernel_unread_config_fields(self) -> dict[str, str]:
        """``barrier_before_pre_ops``: in the 4-wave blocks it only sets the entry wait of
        each K partition's first block (lgkmcnt(0), else the derived count), and every
        4-wave kernel waits for lgkmcnt(0) there (``sched-fix-hazards`` puts it there)."""
        return {"barrier_before_pre_ops": (
            "in the 4-wave blocks it only sets the entry wait of each K partition's first "
            "block (lgkmcnt(0) if true, else the derived count), and every 4-wave kernel "
            "waits for lgkmcnt(0) there (sched-fix-hazards: with the derived count the next "
            "global load may overwrite an LDS slot a fragment read is still reading)")}
