"""Complete gfx950 GEMM kernels for the double-buffer schedules: what each kernel is.

``gemm_kernel(schedule)`` describes the kernel a named schedule with a complete kernel
(``has_kernel``: ``4wave``, ``pingpong``) stands for: its geometry, warps, LDS layout
and kernel shape (:class:`GemmKernel`).  :mod:`pipeline_mlir.kernel.gemm_mlir` writes it
as MLIR text: with its natural K-loop (``docs/dialect.md``, "the natural
form"), which the driver compiles, the front end (``sched-adopt-loop``) making it the
schedule's loop as for any other kernel; or in the tagged (concrete) form.  Nothing here
imports MLIR.

What the kernel computes (the reference's contract): ``C = A x B^T`` with A
row-major ``M x K``, B row-major ``N x K``, C row-major ``M x N`` (f32, or bf16 / f16 with
the ``c_dtype`` option: the f32 accumulator rounded to nearest even; i32 for i8 A and B,
the exact integer accumulator).  One
workgroup computes one ``BM x BN`` tile of C: workgroup ``w`` takes tile row
``w / (N/BN)`` and tile column ``w % (N/BN)`` (row-major, the default grid order; the
``xcd_remap`` and ``group_m`` options choose another, :mod:`pipeline_mlir.schedules.grid`).  The host-side contract (grid,
arguments, what is rejected) is :mod:`pipeline_mlir.kernel.launch`.

How the kernel does it (its LDS layout, loads, warps, fragments, accumulators) is
described in :mod:`pipeline_mlir.kernel.gemm_mlir`, which writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.lds import LdsLayout, LdsSwizzle, lds_layout
from pipeline_mlir.kernel.plan import KernelPlan, KernelShape, kernel_plan, kernel_shape
from pipeline_mlir.schedules.fourwave import merge_asked
from pipeline_mlir.schedules.grid import GridOrder, grid_order
from pipeline_mlir.schedules.geometry import (C_DTYPES, COUNT_FIELDS, INPUT_ONLY_DTYPES,
                                              KernelGeometry, KernelTraits, accumulator_dtype,
                                              check_c_dtype)
from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES
from pipeline_mlir.target.gfx950 import (ARCH_VGPRS, MFMA_BY_DTYPE, WAVE_SIZE, WIDEST_ACCESS_BYTES,
                                         wave_count)


@dataclass(frozen=True)
class GemmKernel:
    """One complete kernel: the schedule it runs, its geometry and its warps.

    :attr:`shape` is the kernel's part of the kernel plan (warp groups, instructions
    per logical op, LDS layout, arguments); :meth:`plan` adds a compiled schedule."""

    schedule: object           # the NamedSchedule it runs (counts = the geometry's)
    geometry: KernelGeometry
    traits: KernelTraits
    #: the LDS swizzle, when not the layout's default (candidates scored by the bank model)
    swizzle: LdsSwizzle | None = None
    #: the kernel's name when ``geometry`` is not the one it is named by (an MX kernel's
    #: geometry counted in bytes, :func:`pipeline_mlir.kernel.mx_gemm_mlir.byte_kernel`)
    title: str | None = None

    @property
    def schedule_name(self) -> str:
        return self.schedule.name

    @property
    def dtype(self) -> str:
        return self.geometry.dtype

    @property
    def grid_order(self) -> GridOrder:
        """Which tile each workgroup computes (:mod:`pipeline_mlir.schedules.grid`)."""
        return grid_order(self.schedule)

    @property
    def c_dtype(self) -> str:
        """The element type C is stored as (``f32``, ``bf16``, ``f16``; ``i32`` for i8)."""
        return getattr(self.schedule, "c_dtype", "f32")

    @property
    def acc_dtype(self) -> str:
        """The element type of the accumulators (``f32``; ``i32`` for i8)."""
        return accumulator_dtype(self.dtype)

    @property
    def c_bytes(self) -> int:
        """Bytes per element of C."""
        return C_DTYPES[self.c_dtype]

    @property
    def name(self) -> str:
        if self.title is not None:
            return self.title
        g, o = self.geometry, self.grid_order
        c = "" if self.c_dtype == self.acc_dtype else f"_c{self.c_dtype}"
        order = ("_xcd" if o.xcd_remap else "") + (f"_g{o.group_m}" if o.group_m > 1 else "")
        return f"gemm_{self.schedule_name}_{g.dtype}_{g.BM}x{g.BN}x{g.BK}{c}{order}"

    # the warps are the schedule's kernel traits
    threads = property(lambda self: self.traits.threads)
    warps_m = property(lambda self: self.traits.warps_m)
    warps_n = property(lambda self: self.traits.warps_n)

    @cached_property
    def shape(self) -> KernelShape:
        shape = kernel_shape(self.schedule, self.geometry)
        if self.swizzle is not None:
            shape = replace(shape, lds=lds_layout(self.geometry, self.traits, self.swizzle))
        return shape

    @property
    def min_k(self) -> int:
        """The smallest K the kernel computes: two K tiles for the prologue, two more per
        main-loop trip it always runs (``KernelShape.min_trips``)."""
        return 2 * self.geometry.BK * (1 + self.shape.min_trips)

    def with_swizzle(self, swizzle: LdsSwizzle) -> "GemmKernel":
        """The same kernel with another LDS swizzle."""
        return replace(self, swizzle=swizzle)

    @property
    def lds(self) -> LdsLayout:
        return self.shape.lds

    def plan(self, compiled, blocks: dict | None = None) -> KernelPlan:
        """The plan of this kernel running ``compiled`` (its phases)."""
        return kernel_plan(compiled, self.shape, blocks)

    @property
    def WM(self) -> int:
        return self.geometry.BM // self.warps_m

    @property
    def WN(self) -> int:
        return self.geometry.BN // self.warps_n

    @property
    def num_k_mmas(self) -> int:
        return self.geometry.BK // self.geometry.MMA_K

    @property
    def quadrant_m(self) -> int:
        return self.WM // self.geometry.MMA_M // 2

    @property
    def quadrant_n(self) -> int:
        return self.WN // self.geometry.MMA_N // 2

    @property
    def mma_frag_width(self) -> int:
        """Elements of one MFMA operand each lane holds (``MMA_M x MMA_K`` over the lanes)."""
        g = self.geometry
        return g.MMA_M * g.MMA_K // WAVE_SIZE

    @property
    def k_loads_per_mma(self) -> int:
        return self.mma_frag_width // self.lds_frag_width

    @property
    def lds_frag_width(self) -> int:
        g = self.geometry
        if g.dtype == "fp8" and g.MMA_M == 16 and g.MMA_K == 128:
            return 16
        if g.is_mx:            # bytes (a byte-counted geometry): one ds_read_b128 each
            return min(self.mma_frag_width, WIDEST_ACCESS_BYTES)
        return self.mma_frag_width

    @property
    def frag_group_stride(self) -> int:
        """K elements between the reads of lane groups ``l / 16`` and ``l / 16 + 1``: FP8's
        16x16x128 operand interleaves 16-element chunks; the others (MX: a 32-value block
        per lane) give each lane group its operand's K values contiguously."""
        if self.geometry.dtype == "fp8":
            return self.lds_frag_width
        return self.mma_frag_width

    @property
    def frag_part_stride(self) -> int:
        """K elements between the reads of one lane's operand (``k_loads_per_mma > 1``)."""
        if self.geometry.is_mx:
            return self.lds_frag_width
        return self.geometry.MMA_K // self.k_loads_per_mma

    @property
    def mfmas_per_mma(self) -> int:
        return self.shape.mfmas_per_mma

    @property
    def rows_per_load_instruction(self) -> int:
        return self.threads // (self.geometry.BK // self.geometry.simd_width)

    @property
    def lds_bytes(self) -> int:
        return self.lds.size

    @property
    def accumulator_regs(self) -> int:
        """32-bit registers per lane holding the warp tile's f32 accumulators."""
        return self.WM * self.WN // WAVE_SIZE

    @property
    def fragment_regs(self) -> int:
        """32-bit registers per lane holding one K tile's A and B fragments."""
        g = self.geometry
        frag_bytes = self.mma_frag_width * g.elem_bytes
        mmas = (self.WM // g.MMA_M + self.WN // g.MMA_N) * self.num_k_mmas
        return mmas * frag_bytes // 4

    @property
    def agpr_accumulators(self) -> int:
        """AGPRs the kernel reserves for its accumulators (0: none, LLVM's choice).

        A kernel running one wave per SIMD owns all 512 registers of a lane, half of them
        architected VGPRs, half AGPRs.  When its accumulators and one K tile's fragments do
        not fit the architected half (the 4-wave 256x256 tiles: 256 + 128 registers), the
        accumulators go to AGPRs, where the MFMAs read and write them directly, and the
        fragments and addresses keep the architected VGPRs.  Left to itself, LLVM 22
        selects VGPR-form MFMAs, fills the architected VGPRs with accumulators and parks
        fragments, addresses and the remaining accumulators in AGPRs, copying them back
        on every use (``docs/kernels.md``, "Accumulators in AGPRs").
        """
        if self.traits.waves_per_eu != 1:
            return 0
        if self.accumulator_regs + self.fragment_regs <= ARCH_VGPRS:
            return 0
        return self.accumulator_regs


    @property
    def k_outer_mfmas(self) -> bool:
        """Whether each MMA issues its MFMAs K step by K step (every accumulator's first K
        step, then every one's second) instead of accumulator by accumulator.

        An accumulator's K steps are dependent MFMAs: issued back to back, the second waits
        for the first's result (18 cycles for a 16x16x32 MFMA that issues in 16, the
        simulator's measured table).  Two waves per SIMD hide that with each other's MFMAs;
        a kernel running one wave per SIMD with its accumulators in AGPRs (the 4-wave
        256x256 tiles) has nothing else to issue, so its MMAs put independent MFMAs between
        the two.  Its IR then asks LLVM's greedy register allocator to reverse its order of
        local live ranges, shorter ones first (``-greedy-reverse-local-assignment``,
        ``codegen.llvm_options``): with every AGPR an accumulator, LLVM 22's default order
        leaves some K step's result no free AGPR and copies accumulators around (212
        ``v_accvgpr_*`` per iteration).
        """
        return self.agpr_accumulators > 0 and self.num_k_mmas > 1


def gemm_kernel(schedule) -> GemmKernel:
    """The complete kernel of a named schedule with ``has_kernel`` (``4wave``, ``pingpong``).

    The schedule's per-load counts must be what the kernel issues: counts the user
    left unset are taken from the geometry; a given count that differs is an error
    (the derived waits would not match the hardware counters).
    """
    if not schedule.has_kernel:
        raise ConfigError(f"pipeline '{schedule.name}': no complete GEMM kernel (kernels exist "
                          f"for {' and '.join(KERNEL_SCHEDULES)}; {schedule.name} has no K "
                          f"offsets)")
    traits = schedule.kernel_traits
    waves = schedule.kernel_waves()
    if waves != traits.warps:
        raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel runs "
                          f"{wave_count(traits.threads / WAVE_SIZE)}; a schedule of "
                          f"{wave_count(waves)} "
                          f"pipelines a kernel given as input")
    grid = schedule.wave_grid()
    if grid != (traits.warps_m, traits.warps_n):
        raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel runs its waves "
                          f"in a {traits.warps_m}x{traits.warps_n} grid; a schedule of "
                          f"{grid[0]}x{grid[1]} waves pipelines a kernel given as input")
    for name in ("k_subtiles", "whole"):
        split = getattr(schedule, name, "none")
        if split != "none":
            raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel splits "
                              f"each wave's operands into subtiles by MFMA rows and columns "
                              f"({name}=none); a schedule of {name}={split} pipelines a "
                              f"kernel given as input")
    if merge_asked(schedule):
        raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel's K tile is "
                          f"BK; merge_k=true merges the K steps of a kernel given as input "
                          f"(set BK instead)")
    g = schedule.kernel_geometry()
    if g.dtype in INPUT_ONLY_DTYPES:
        raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel multiplies "
                          f"{', '.join(d for d in MFMA_BY_DTYPE if d not in INPUT_ONLY_DTYPES)}"
                          f"; a schedule of dtype={g.dtype} pipelines a kernel given as "
                          f"input")
    own = MFMA_BY_DTYPE[g.dtype]
    if (g.MMA_M, g.MMA_N, g.MMA_K) != own.shape:
        raise ConfigError(f"pipeline '{schedule.spec()}': the complete kernel issues "
                          f"{own.mnemonic} (mfma=auto); a schedule of a {g.MMA_M}x{g.MMA_N}x"
                          f"{g.MMA_K} MFMA pipelines a kernel given as input")
    given = dict(schedule.own_items())
    for key in COUNT_FIELDS:
        want = getattr(g, key)
        if key in given and given[key] != want:
            raise ConfigError(
                f"pipeline '{schedule.spec()}': option '{key}={given[key]}' does not match the "
                f"{g.dtype} {g.BM}x{g.BN}x{g.BK} kernel, which issues "
                f"{want} (drop the option to use the kernel's count)")
    # a load instruction moves whole rows; the half tile must be a whole number of them
    threads = traits.threads
    per_instr = threads // (g.BK // g.simd_width)
    for ch, rows, vm in (("A", g.BM, g.element_copies(0)), ("B", g.BN, g.element_copies(1))):
        if (rows // 2) != vm * per_instr:
            raise ConfigError(
                f"pipeline '{schedule.spec()}': a {ch} half tile of {rows // 2} rows is not a "
                f"whole number of load instructions ({per_instr} rows each with {threads} "
                f"threads and BK={g.BK}); choose BM/BN/BK so that it is")
    # counts the spec leaves at a fixed default become the kernel's (derived ones already are)
    pinned = {k: getattr(g, k) for k in COUNT_FIELDS
              if k not in given and schedule.get(k) is not None}
    if hasattr(schedule, "c_dtype"):
        # an integer kernel's C is its accumulator unless given (then it must be that)
        if "c_dtype" not in given and accumulator_dtype(g.dtype) != "f32":
            pinned["c_dtype"] = accumulator_dtype(g.dtype)
        try:
            check_c_dtype(g.dtype, pinned.get("c_dtype", schedule.c_dtype))
        except ConfigError as e:
            raise ConfigError(f"pipeline '{schedule.spec()}': {e}") from None
    if pinned:
        schedule = schedule.with_(**pinned)
    return GemmKernel(schedule, g, traits)


def latest_fragment(frags, i, ch, sub):
    """(body index of the fragment load an MMA at ``i`` reads, loop-carried?)."""
    before = [j for j, o in frags if j < i and o.channel == ch and o.subtile == sub]
    if before:
        return before[-1], False
    after = [j for j, o in frags if o.channel == ch and o.subtile == sub]
    if not after:
        raise ConfigError(f"no fragment load for channel {ch} subtile {sub}")
    return after[-1], True
