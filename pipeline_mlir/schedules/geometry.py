"""Kernel-geometry-derived scheduling constants (``KernelGeometry``) of the ping-pong and
4-wave kernels.

The formulas are the reference kernels' own: how many vmcnt entries one global
load of a channel produces, how many lgkmcnt entries one fragment load
produces, and how many globals an MMA block may hold.  Unlike the reference,
every division must be exact and every count positive, or a
:class:`ConfigError` names the offending quantity.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import record
from pipeline_mlir.schedules.mx import MX_ELEMENT_BITS, check_mx_bk, mx_counts
from pipeline_mlir.target.gfx950 import (MFMA_BY_DTYPE, WAVE_SIZE, WIDEST_ACCESS_BYTES,
                                         dtype_mfmas)

#: bytes per element of each element type (each has an MFMA: ``MFMA_BY_DTYPE``)
DTYPES = {"bf16": 2, "f16": 2, "fp8": 1, "i8": 1, "f32": 4}
#: the element types whose schedules pipeline only a kernel given as input (IREE's f32
#: matmuls, one f32 of A and of B a lane per ``v_mfma_f32_16x16x4_f32``): the complete
#: kernels are the reference's, which multiplies none of them
INPUT_ONLY_DTYPES = frozenset({"f32"})
#: the block-scaled (OCP MX) element types of the complete kernels: bits per element (E2M1,
#: E4M3), each block of 32 K values with an E8M0 scale (:mod:`pipeline_mlir.schedules.mx`)
MX_DTYPES = MX_ELEMENT_BITS
#: bytes per element of each element type the complete kernels can store C as (the f32
#: accumulator rounded to nearest even in the epilogue for the 16-bit ones; i32 is the
#: accumulator of the i8 kernels, stored as it is)
C_DTYPES = {"f32": 4, "bf16": 2, "f16": 2, "i32": 4}
#: the accumulator's element type by A/B element type (the MFMA's D): f32 unless listed
INTEGER_ACCUMULATORS = {"i8": "i32"}
#: the ``c_dtype`` option's help (4wave and pingpong)
C_DTYPE_HELP = ("element type of C the complete kernel stores (bf16/f16: the f32 accumulator "
                "rounded to nearest even in the epilogue; i32: the i8 kernels' accumulator, "
                "their only C and the default for dtype=i8)")


def accumulator_dtype(dtype: str) -> str:
    """The element type the MFMAs of ``dtype`` accumulate in (``f32``, ``i32`` for i8)."""
    return INTEGER_ACCUMULATORS.get(dtype, "f32")


def check_c_dtype(dtype: str, c_dtype: str) -> None:
    """A ConfigError unless a kernel of ``dtype`` can store C as ``c_dtype``: an integer
    accumulator is stored only as itself, a float one never as an integer."""
    acc = accumulator_dtype(dtype)
    allowed = ("f32", "bf16", "f16") if acc == "f32" else (acc,)
    if c_dtype not in allowed:
        said = allowed[0] if len(allowed) == 1 else f"{', '.join(allowed[:-1])} or {allowed[-1]}"
        raise ConfigError(f"c_dtype={c_dtype} does not fit dtype={dtype}: its MFMAs accumulate "
                          f"in {acc}, which the kernel stores as {said}")


#: the per-load counts of a geometry (what the kernel issues)
COUNT_FIELDS = ("vm_per_load_a", "vm_per_load_b", "lgkm_per_load_a", "lgkm_per_load_b",
                "max_globals")


@record(frozen=True)
class KernelGeometry:
    BM: int
    BN: int
    BK: int
    MMA_M: int
    MMA_N: int
    MMA_K: int
    elem_bytes: int
    simd_width: int
    is_fp8: bool
    vm_per_load_a: int
    vm_per_load_b: int
    lgkm_per_load_a: int
    lgkm_per_load_b: int
    dtype: str = "bf16"
    max_globals: int = 0
    fences: bool = False
    #: elements per byte of A and B in memory (2: E2M1, two per byte)
    pack: int = 1
    #: of ``vm_per_load_a`` / ``_b``: the DMA instructions of the operand's scale tile (MX)
    scale_loads_a: int = 0
    scale_loads_b: int = 0
    #: direct-to-LDS DMA instructions per 16 bytes a lane copies of an element tile: 1
    #: (``buffer_load_dwordx4 ... lds``) or 4 (``buffer_load_dword ... lds``: the 4-wave
    #: 4-wave kernel's ``dma``, :func:`pipeline_mlir.schedules.dma_rule.dword_refusal`);
    #: counted in ``vm_per_load_a`` / ``_b`` (:mod:`pipeline_mlir.kernel.dword_dma`)
    dma_pieces: int = 1

    def element_dmas(self, channel: int) -> int:
        """Element DMA instructions of one global load of ``channel`` (0: A, 1: B): its
        DMAs without the MX scale tile's."""
        return (self.vm_per_load_a - self.scale_loads_a if channel == 0 else
                self.vm_per_load_b - self.scale_loads_b)

    def element_copies(self, channel: int) -> int:
        """16-byte copies a lane makes of one global load of ``channel``: its element DMA
        instructions over :attr:`dma_pieces`."""
        return self.element_dmas(channel) // self.dma_pieces

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of a K tile of A or B in memory (and in LDS)."""
        return self.BK * self.elem_bytes // self.pack

    @property
    def is_mx(self) -> bool:
        return self.dtype in MX_DTYPES


def derive_safe_max_globals(num_k_mmas: int) -> int:
    """1 global per block once there are at least 2 K-MMAs to hide it behind, else bunched (0)."""
    return 1 if num_k_mmas >= 2 else 0


def _div(what: str, a: int, b: int) -> int:
    if b <= 0 or a % b != 0:
        raise ConfigError(f"geometry: {what} must divide exactly ({a} / {b})")
    return a // b


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _check_dtype(dtype: str) -> None:
    if dtype not in DTYPES and dtype not in MX_DTYPES:
        raise ConfigError(f"geometry: dtype must be one of "
                          f"{', '.join(list(DTYPES) + list(MX_DTYPES))}, got {dtype!r}")


def _check_tile(BM: int, BN: int, BK: int) -> None:
    for name, v in (("BM", BM), ("BN", BN), ("BK", BK)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ConfigError(f"geometry: {name} must be a positive integer, got {v!r}")


def _lgkm(quadrant: int, num_k_mmas: int, dtype: str, mma_m: int, mma_k: int, elem: int) -> int:
    mma_frag_w = _div(f"MMA_M*MMA_K by {WAVE_SIZE}", mma_m * mma_k, WAVE_SIZE)
    lds_frag_w = 16 if (dtype == "fp8" and mma_m == 16 and mma_k == 128) else mma_frag_w
    k_loads_per_mma = _div("MMA fragment width by LDS fragment width", mma_frag_w, lds_frag_w)
    ds_reads_per_frag = _ceil(lds_frag_w * elem, WIDEST_ACCESS_BYTES)
    return quadrant * num_k_mmas * k_loads_per_mma * ds_reads_per_frag


#: the ``mfma`` option's value for the element type's own MFMA (``MFMA_BY_DTYPE``)
MFMA_AUTO = "auto"
#: the MFMA shapes a 4-wave or ping-pong schedule may name (``mfma``) besides its dtype's
#: own: the 32x32 ones of the 16-bit types (gfx950's 32x32x16 and gfx942's 32x32x8), of
#: i8 (32x32x32) and of FP8 (the ``f8f6f4`` 32x32x64, and gfx942's 16x16x32 and 32x32x16,
#: whose formats the mnemonic names: ``target/gfx950.py``'s ``dtype_mfmas``); i8's gfx942
#: 16x16x32 and 32x32x16 (4wave only: a loop whose MFMAs the front end halved,
#: ``frontend/half_k.py``, or the kernel's own)
MFMA_SHAPES = (MFMA_AUTO, "32x32x16", "32x32x8", "32x32x32", "32x32x64", "16x16x32")
#: the MFMA shape the 4-wave schedule may name besides those: gfx942's 16x16x16 of the 16-bit
#: types, for a loop whose MFMAs the front end halved along K (``frontend/half_k.py``) or
#: whose own MFMAs they are (IREE picks them for tiny problems: f16 ``A^T x B^T`` 24x5x112)
HALF_K_SHAPES = ("16x16x16",)


def mfma_shape(dtype: str, mfma: str = MFMA_AUTO,
               halves: bool = False) -> tuple[int, int, int]:
    """The MFMA (M, N, K) of a kernel of ``dtype``: its own for ``auto``, else the named
    shape ``MxNxK``, which must be an MFMA of the same operands (a ConfigError if not);
    ``halves``: also i8's gfx942 forms (``target/gfx950.py``'s ``HALF_K_ONLY``), which the
    4-wave schedule issues and the ping-pong one does not."""
    own = MFMA_BY_DTYPE[dtype]
    if mfma == MFMA_AUTO:
        return own.shape
    shapes = {s: i.shape for s, i in dtype_mfmas(dtype, halves).items()}
    if mfma not in shapes:
        takes = [MFMA_AUTO] + [s for s in MFMA_SHAPES if s in shapes and shapes[s] != own.shape]
        raise ConfigError(f"geometry: mfma={mfma} is not an MFMA of dtype={dtype}, which "
                          f"takes mfma={' or '.join(takes)}")
    return shapes[mfma]


#: the ``k_subtiles`` values: the operands whose two subtiles are K halves (``a``, ``b``;
#: ``ab`` both, B's crosswise; ``ab_diagonal`` both the same K halves, so only the MMAs
#: (0, 0) and (1, 1) hold MFMAs, each half the chain), ``none`` for the usual split by MFMA
#: rows and columns
DIAGONAL = "ab_diagonal"
K_SUBTILES = ("none", "a", "b", "ab", DIAGONAL)


def k_runs(k_subtiles: str) -> int:
    """The runs ``k_subtiles`` cuts each MFMA chain of the K tile into (MFMAs of one MMA
    run one of them): 4 crosswise, 2 for K halves, 1 unsplit."""
    return 4 if k_subtiles == "ab" else 2 if k_subtiles != "none" else 1


def _mma_grid(dtype: str, BM: int, BN: int, BK: int, warps_m: int,
              warps_n: int, mfma: str = MFMA_AUTO,
              k_subtiles: str = "none", whole: str = "none",
              halves: bool = False) -> tuple[int, int, int]:
    """MFMA tiles of a warp tile in M and N (each even and at least 2, or 1 for an operand
    whose subtiles are K halves: ``k_subtiles``, or that a stage holds whole: ``whole``)
    and K steps of BK."""
    mma_m, mma_n, mma_k = mfma_shape(dtype, mfma, halves)
    WM = _div(f"BM by the {warps_m} warp rows", BM, warps_m)
    WN = _div(f"BN by the {warps_n} warp columns", BN, warps_n)
    num_m = _div(_warp_tile("BM", BM, warps_m, "rows", "WM", f"MMA_M={mma_m}"), WM, mma_m)
    num_n = _div(_warp_tile("BN", BN, warps_n, "columns", "WN", f"MMA_N={mma_n}"), WN, mma_n)
    num_k = _div("BK by MMA_K", BK, mma_k)
    for name, v, op in (("num_m_mmas", num_m, "a"), ("num_n_mmas", num_n, "b")):
        if op == whole:
            if v != 1:
                raise ConfigError(_not_one_mfma(f"whole={whole}", op, v, (BM, warps_m, mma_m)
                                                if op == "a" else (BN, warps_n, mma_n),
                                                "holds {op} whole in each stage"))
        elif op in k_subtiles:
            if v != 1:
                raise ConfigError(_not_one_mfma(k_subtiles, op, v, (BM, warps_m, mma_m) if
                                                op == "a" else (BN, warps_n, mma_n)))
        elif v < 2 or v % 2:
            raise ConfigError(f"geometry: {name} = {v} must be even and >= 2 (tile too small "
                              f"for the MMA grid)")
    runs = k_runs(k_subtiles)
    if num_k % runs:
        raise ConfigError(f"geometry: k_subtiles={k_subtiles} cuts each MFMA chain of the K "
                          f"tile into {runs} runs, but BK holds {num_k} MFMA K steps")
    return num_m, num_n, num_k


def _warp_tile(block: str, size: int, warps: int, rows: str, wt: str, mma: str) -> str:
    """What :func:`_div` names for a warp tile the MFMA must divide: the block size the user
    gave (``block``, ``size``), not the warp tile derived from it."""
    return (f"{block}={size} over the {warps} warp {rows} gives each a warp tile of "
            f"{size // warps} {rows} ({wt}), which the MFMA ({mma})")


def _not_one_mfma(k_subtiles: str, op: str, mmas: int, tile: tuple,
                  does: str = "splits {op} along K") -> str:
    """Why ``k_subtiles`` (the option's ``name=value``; a bare value is ``k_subtiles``'s)
    cannot split operand ``op`` (``a`` or ``b``) along K, or ``does`` what else it does:
    its wave tile is ``mmas`` MFMAs, not one; ``tile``: the block size, the warps along it
    and the MFMA's extent there, the user's terms."""
    size, warps, extent = tile
    block, rows = ("BM", "rows") if op == "a" else ("BN", "columns")
    said = k_subtiles if "=" in k_subtiles else f"k_subtiles={k_subtiles}"
    return (f"geometry: {said} {does.format(op=op.upper())}, which needs "
            f"one MFMA ({extent} {rows}) per warp {rows[:-1]}, but {block}={size} gives each "
            f"of the {warps} warp {rows} {size // warps} {rows}, {mmas} MFMAs: "
            f"{block}={warps * extent} takes it")


def _geometry(dtype: str, BM: int, BN: int, BK: int, warps_m: int, warps_n: int,
              threads: int, floor_vm: bool, mfma: str = MFMA_AUTO,
              k_subtiles: str = "none", whole: str = "none",
              halves: bool = False) -> KernelGeometry:
    _check_dtype(dtype)
    _check_tile(BM, BN, BK)
    if k_subtiles not in K_SUBTILES:
        raise ConfigError(f"geometry: k_subtiles={k_subtiles} is not one of "
                          f"{', '.join(K_SUBTILES)}")
    _check_whole(whole, k_subtiles)
    if dtype in MX_DTYPES:
        if mfma != MFMA_AUTO or k_subtiles != "none" or whole != "none":
            what = (f"mfma={mfma}" if mfma != MFMA_AUTO else f"k_subtiles={k_subtiles}"
                    if k_subtiles != "none" else f"whole={whole}")
            raise ConfigError(f"geometry: {what}: the block-scaled dtype={dtype} has "
                              f"only its own MFMA and subtiles")
        return _mx_geometry(dtype, BM, BN, BK, warps_m, warps_n, threads, floor_vm)
    elem = DTYPES[dtype]
    # (``halves``: gfx942's i8 16x16x32 and 32x32x16 too, the 4-wave schedule's: a loop's
    # MFMAs the front end halved, or the kernel's own, which IREE picks for tiny i8 problems)
    mma_m, mma_n, mma_k = mfma_shape(dtype, mfma, halves)
    simd = WIDEST_ACCESS_BYTES // elem
    num_m, num_n, num_k = _mma_grid(dtype, BM, BN, BK, warps_m, warps_n, mfma, k_subtiles,
                                    whole, halves)
    # a subtile of an operand split along K: its one MFMA row (column), half the K steps
    # (an operand held whole: its one MFMA row or column, all of them)
    qm, qn = max(num_m // 2, 1), max(num_n // 2, 1)
    k_a = num_k // 2 if "a" in k_subtiles else num_k
    k_b = num_k // 2 if "b" in k_subtiles else num_k
    k_mma = num_k // k_runs(k_subtiles)
    loads_per_row = _div("BK by simd_width", BK, simd)
    rows_per_iter = _div("threads by loads per row", threads, loads_per_row)
    # one load of each of the two subtiles: half the tile (a whole operand's, all of it)
    half_bm = BM if whole == "a" else BM // 2
    half_bn = BN if whole == "b" else BN // 2
    if floor_vm:
        vm_a, vm_b = half_bm // rows_per_iter, half_bn // rows_per_iter
    else:
        vm_a, vm_b = _ceil(half_bm, rows_per_iter), _ceil(half_bn, rows_per_iter)
    lg_a = _lgkm(qm, k_a, dtype, mma_m, mma_k, elem)
    lg_b = _lgkm(qn, k_b, dtype, mma_m, mma_k, elem)
    for name, v in (("vm_per_load_a", vm_a), ("vm_per_load_b", vm_b),
                    ("lgkm_per_load_a", lg_a), ("lgkm_per_load_b", lg_b)):
        if v < 1:
            raise ConfigError(f"geometry: {name} = {v} must be >= 1 for {dtype} {BM}x{BN}x{BK}")
    max_globals = 0 if k_mma * qm * qn < 8 else derive_safe_max_globals(num_k)
    return KernelGeometry(BM, BN, BK, mma_m, mma_n, mma_k, elem, simd, dtype == "fp8",
                          vm_a, vm_b, lg_a, lg_b, dtype, max_globals,
                          fences=BM >= 128 and dtype != "fp8")


#: the ``whole`` values: the operand a stage holds whole (one load and one fragment of it per
#: stage, the other's two subtiles against it: ``a``, ``b``), ``none`` for the usual split
WHOLE = ("none", "a", "b")


def _check_whole(whole: str, k_subtiles: str) -> None:
    """A ConfigError unless ``whole`` is a :data:`WHOLE` value that ``k_subtiles`` leaves
    room for (an operand held whole, the other split by MFMA rows or columns)."""
    if whole not in WHOLE:
        raise ConfigError(f"geometry: whole={whole} is not one of {', '.join(WHOLE)}")
    if whole != "none" and k_subtiles != "none":
        raise ConfigError(f"geometry: whole={whole} holds {whole.upper()} whole in each "
                          f"stage against the other operand's subtiles by MFMA rows or "
                          f"columns, but k_subtiles={k_subtiles} splits along K: give one "
                          f"of them")


def _mx_geometry(dtype: str, BM: int, BN: int, BK: int, warps_m: int, warps_n: int,
                 threads: int, floor_vm: bool) -> KernelGeometry:
    """The geometry of a block-scaled kernel: the element tiles as an FP8 kernel's of the
    same bytes, plus each operand's scale tile (:func:`pipeline_mlir.schedules.mx.mx_counts`)."""
    mma_m, mma_n, mma_k = MFMA_BY_DTYPE[dtype].shape
    check_mx_bk(dtype, BK)
    num_m, num_n, num_k = _mma_grid(dtype, BM, BN, BK, warps_m, warps_n)
    c = mx_counts(dtype, BK, (BM // warps_m, BN // warps_n))
    rows_per_iter = _div("threads by loads per row", threads, c.loads_per_row)
    vm = []
    for half in (BM // 2, BN // 2):
        vm.append(half // rows_per_iter if floor_vm else _ceil(half, rows_per_iter))
    if min(vm) < 1:
        raise ConfigError(f"geometry: a half tile of {min(BM, BN) // 2} rows is less than one "
                          f"load instruction ({rows_per_iter} rows) for {dtype} "
                          f"{BM}x{BN}x{BK}")
    # per fragment load: a quadrant's MFMA operands, each its element reads and one scale read
    lg = [q * num_k * (c.reads_per_operand + 1) for q in (num_m // 2, num_n // 2)]
    max_globals = 0 if num_k * (num_m // 2) * (num_n // 2) < 8 else derive_safe_max_globals(num_k)
    return KernelGeometry(BM, BN, BK, mma_m, mma_n, mma_k, 1, c.simd, False,
                          vm[0] + c.scale_loads[0], vm[1] + c.scale_loads[1], lg[0], lg[1],
                          dtype, max_globals, fences=False, pack=c.pack,
                          scale_loads_a=c.scale_loads[0], scale_loads_b=c.scale_loads[1])


def dma_counts(g: KernelGeometry, pieces: int) -> dict:
    """The fields of ``g`` (one DMA per 16-byte lane copy) that change when each copy is
    issued as ``pieces`` dword DMAs (``schedules.mx.DWORD_PIECES``): ``vm_per_load_a`` / ``_b``
    (the copies times ``pieces``, then the MX scale DMAs) and ``dma_pieces``."""
    return {"vm_per_load_a": g.element_copies(0) * pieces + g.scale_loads_a,
            "vm_per_load_b": g.element_copies(1) * pieces + g.scale_loads_b,
            "dma_pieces": pieces}


@record(frozen=True)
class KernelTraits:
    """How the complete GEMM kernel of a schedule kind is laid out and runs its phases.

    ``warps_m x warps_n`` warps of 64 lanes; warp ``w`` sits at row ``w / warps_n``,
    column ``w % warps_n``.  ``warp_groups > 1``: the warp rows form that many groups
    which run the prologue staggered by one barrier (warp group 1 runs an extra one at
    the schedule's stagger index, warp group 0 one after the epilogue, so both pass
    the same number).  ``zero_trip_fence``: when the main loop runs zero times, the
    kernel waits for every load (``vmcnt(0)``, ``lgkmcnt(0)``) and meets at a barrier
    before the epilogue.  ``waves_per_eu``: the occupancy the kernel asks LLVM for
    (``None``: LLVM's choice).
    """

    warps_m: int
    warps_n: int
    warp_groups: int = 1
    zero_trip_fence: bool = False
    waves_per_eu: int | None = None

    def __post_init__(self) -> None:
        for name in ("warps_m", "warps_n", "warp_groups"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"kernel traits: {name} must be a positive integer, got {v!r}")
        if self.warps_m % self.warp_groups:
            raise ConfigError(f"kernel traits: the {self.warp_groups} warp groups must split "
                              f"the {self.warps_m} warp rows evenly")
        if self.waves_per_eu is not None and (isinstance(self.waves_per_eu, bool) or not
                                              isinstance(self.waves_per_eu, int)
                                              or self.waves_per_eu < 1):
            raise ConfigError(f"kernel traits: waves_per_eu must be a positive integer or "
                              f"None, got {self.waves_per_eu!r}")

    @property
    def warps(self) -> int:
        return self.warps_m * self.warps_n

    @property
    def threads(self) -> int:
        return WAVE_SIZE * self.warps

    @property
    def waves_per_group(self) -> int:
        return self.warps // self.warp_groups


#: the 4-wave kernel: 4 warps in a 2x2 grid, one group, the zero-trip fence, one wave per EU
FOUR_WAVE_KERNEL = KernelTraits(2, 2, warp_groups=1, zero_trip_fence=True, waves_per_eu=1)
#: the ping-pong kernel: 8 warps in a 2x4 grid, the two warp rows staggered
PING_PONG_KERNEL = KernelTraits(2, 4, warp_groups=2)


def four_wave_geometry(dtype: str = "bf16", BM: int = 128, BN: int = 128, BK: int = 64,
                       mfma: str = MFMA_AUTO, grid: tuple[int, int] | None = None,
                       k_subtiles: str = "none", whole: str = "none") -> KernelGeometry:
    """4 warps in a 2x2 grid, 256 threads per load row pass; ``mfma``: the MFMA shape if
    not the dtype's own (:func:`mfma_shape`); ``grid``: the waves (M, N) of a kernel given
    as input that runs the 4-wave schedule in lockstep instead, all of its threads copying
    (each wave's tile must still split into the schedule's 2x2 subtiles); ``k_subtiles``:
    the operands of such a kernel whose wave tile is one MFMA of them, their subtiles K
    halves (:data:`K_SUBTILES`); ``whole``: the operand such a kernel's stage holds whole,
    one MFMA of it per wave (:data:`WHOLE`)."""
    m, n = grid if grid is not None else (FOUR_WAVE_KERNEL.warps_m, FOUR_WAVE_KERNEL.warps_n)
    return _geometry(dtype, BM, BN, BK, m, n, m * n * WAVE_SIZE, floor_vm=False, mfma=mfma,
                     k_subtiles=k_subtiles, whole=whole, halves=True)


def square_grid(waves: int) -> tuple[int, int]:
    """The most nearly square grid (M, N) of ``waves`` waves, no more rows than columns
    (IREE's default: 1x1, 1x2, 2x2, 2x4, 4x4)."""
    m = max(d for d in range(1, int(waves ** 0.5) + 1) if waves % d == 0)
    return m, waves // m


def ping_pong_geometry(dtype: str = "bf16", BM: int = 256, BN: int = 256, BK: int = 64,
                       mfma: str = MFMA_AUTO) -> KernelGeometry:
    """8 warps in a 2x4 grid, 512 threads per load row pass; ``mfma``: the MFMA shape if
    not the dtype's own (:func:`mfma_shape`).

    The warp-column tile is BN/4 but the B half-tile a load covers is BN/2, as in
    the reference kernel.
    """
    k = PING_PONG_KERNEL
    return _geometry(dtype, BM, BN, BK, k.warps_m, k.warps_n, k.threads, floor_vm=True,
                     mfma=mfma)
