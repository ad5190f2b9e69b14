"""Run a complete GEMM kernel on the emulator and compare it with the numpy reference.

:func:`emulate_gemm` lays out A (``M x K``), B (``N x K``) and C (``M x N`` of the kernel's
``c_dtype``: f32, bf16 or f16, i32 for i8 A and B; poisoned)
in global memory, packs the 144-byte kernel arguments of
:mod:`pipeline_mlir.kernel.launch` (three memref descriptors, then M, N, K), launches
``(M/BM) * (N/BN)`` workgroups of the kernel's waves and compares C with
:func:`pipeline_mlir.kernel.reference.reference_gemm`.  The inputs are small integers
(-3..3), whose products and sums are exact in every element type and in f32, so the
result must be equal, not close (a bf16 or f16 C: equal to the exact sum rounded to nearest
even, as the kernel's epilogue rounds it).  i8 inputs span the whole signed range (A's
even).  C is checked on the run's tiles by its stores, not by the poison
(:mod:`pipeline_mlir.emu.coverage`).
"""

from __future__ import annotations

import functools
import struct
import time
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.coverage import Coverage, check_c, footprint, stored_elements
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.globalrace import ReadFirst
from pipeline_mlir.emu.racy_loads import again_tainting
from pipeline_mlir.emu.launchdims import workgroup_id
from pipeline_mlir.emu.machine import Divergence, GlobalMemory, Machine, collector_paused
from pipeline_mlir.emu.mfma import E4M3, E5M2
from pipeline_mlir.emu.split import split as split_batch, why_not
from pipeline_mlir.kernel.launch import check_launch
from pipeline_mlir.kernel.reference import quantize, reference_gemm
from pipeline_mlir.target.gfx950 import WAVE_SIZE, wave_count

#: the largest batch of workgroups run in lockstep
BATCH = 16


@dataclass
class GemmRun:
    kernel: str
    M: int
    N: int
    K: int
    mode: str
    workgroups: int            # workgroups run
    waves: int
    instructions: int
    seconds: float
    max_error: float
    C: np.ndarray
    reference: np.ndarray
    first_bad: tuple[int, int] | None
    findings: list = None
    grid: int = 0              # workgroups of the whole grid (0: as many as were run)
    written: int = 0           # elements of C the workgroups stored to
    expected: int = 0          # elements they are responsible for (their tiles)
    coverage: Coverage = None  # the verdict on C (:mod:`pipeline_mlir.emu.coverage`)
    ids: list = None           # the workgroups run (linear indices)

    @property
    def exact(self) -> bool:
        return self.coverage.sound

    @property
    def got(self) -> float | None:
        """C at ``first_bad``."""
        return None if self.first_bad is None else float(self.C[self.first_bad])

    @property
    def want(self) -> float | None:
        """The reference at ``first_bad``."""
        return None if self.first_bad is None else float(self.reference[self.first_bad])

    def summary(self) -> str:
        return run_summary(self, self.kernel)


def run_summary(run, name: str, note: str = "") -> str:
    """The one-line summary of a run (a :class:`GemmRun` or an IREE kernel's run)."""
    verdict = "exact" if run.exact else "WRONG"
    of = f" of {run.grid}" if run.grid and run.grid != run.workgroups else ""
    return (f"{name} M={run.M} N={run.N} K={run.K} mode={run.mode}: {verdict}, max error "
            f"{run.max_error:g}, {run.workgroups}{of} workgroups x "
            f"{wave_count(run.waves)}, "
            f"{run.instructions} instructions in {run.seconds:.2f} s "
            f"({run.instructions / max(run.seconds, 1e-9):,.0f} instructions/s)"
            f"{ids_run(run.ids, run.grid)}{note}")


def ids_run(ids: list | None, total: int) -> str:
    """What a summary line ends with: ``; workgroups run: ...`` naming ``ids`` (linear
    indices, or ids x, y[, z]) when they are not the whole grid of ``total``; else nothing."""
    if not ids or not total or len(ids) == total:
        return ""
    return "; workgroups run: " + ", ".join(
        str(w) if isinstance(w, int) else "(" + ", ".join(map(str, w)) + ")" for w in ids)


class GridError(EmuError):
    """More workgroups asked for than the grid has."""


def spread(total: int, count: int | None, diagonal=None) -> list[int]:
    """``count`` of the indices ``0 .. total-1`` spread evenly over them, the first and the
    last included (all of them without ``count``).  ``diagonal(i)``: whether index ``i``'s
    tile is on the diagonal of the grid (x == y: on a square grid the evenly spread indices
    can all be, and a kernel that mixes up x and y computes those right); when every index
    picked is and ``count`` >= 3, one off it replaces a pick between the first and the last
    (:func:`off_diagonal`)."""
    if count is None:
        return list(range(total))
    if not 1 <= count <= total:
        raise GridError(f"{count} workgroups asked for, the grid has {total}")
    if count == 1:
        return [0]
    picks = [i * (total - 1) // (count - 1) for i in range(count)]
    if diagonal is None or not all(map(diagonal, picks)):
        return picks
    return off_diagonal(picks, total, diagonal)


def off_diagonal(picks: list[int], total: int, diagonal) -> list[int]:
    """``picks`` (increasing, all on the diagonal) with one replaced by the index off it
    nearest to a pick between the first and the last (the pick before the last first, on a
    tie the index below), so that the first (workgroup 0, C's origin) and the last (C's far
    corner, the tile a grid cut at C's far edges cuts in both) stay.  ``picks`` unchanged
    when there is no pick between them (two workgroups: both corners, the tiles C's edges
    cut, matter more; a third runs one off the diagonal) or no index off the diagonal."""
    for d in range(1, total):
        for k in range(len(picks) - 2, 0, -1):
            for i in (picks[k] - d, picks[k] + d):
                if picks[k - 1] < i < picks[k + 1] and not diagonal(i):
                    return picks[:k] + [i] + picks[k + 1:]
    return picks


def spread_ids(grid: tuple[int, ...], count: int | None) -> list:
    """The ids (:func:`~pipeline_mlir.emu.launchdims.workgroup_id`) of ``count`` workgroups
    of ``grid`` spread over it: :func:`spread` of their linear indices, an id with x != y
    among three or more when the grid has one (all without ``count``)."""
    def diagonal(i: int) -> bool:
        at = workgroup_id(i, grid)
        return at[0] == at[1]

    return [workgroup_id(i, grid) for i in
            spread(int(np.prod(grid)), count, diagonal if len(grid) > 1 else None)]


def check_in_grid(name: str, workgroups: list | None, grid: tuple[int, ...] | None) -> None:
    """An :class:`~pipeline_mlir.emu.errors.EmuError` (of kernel ``name``) naming the first
    of ``workgroups`` (ids: an int, linear, or a tuple x, y, z) not in ``grid`` (None: not
    known): a run of it would judge a workgroup the launch does not have (one that stores
    nothing compares equal to any other that stores nothing)."""
    if workgroups is None or grid is None:
        return
    total = int(np.prod(grid))
    for w in workgroups:
        at = (w,) if isinstance(w, int) else tuple(w)
        dims = tuple(grid) + (1,) * max(0, len(at) - len(grid))
        if not (0 <= w < total if isinstance(w, int) else
                all(0 <= i < n for i, n in zip(at, dims))):
            raise EmuError(f"kernel {name}: workgroup {w} is not in the grid "
                           f"{' x '.join(map(str, grid))} ({total} workgroups) it is run on")


#: the element types C can have: (bytes, unsigned word type of the raw elements)
C_WORDS = {"f32": (4, np.uint32), "bf16": (2, np.uint16), "f16": (2, np.uint16),
           "i32": (4, np.uint32)}


def c_values(raw: np.ndarray, c_dtype: str = "f32") -> np.ndarray:
    """The values (f64; int64 for i32) of the raw words of C elements of ``c_dtype``."""
    if c_dtype == "i32":
        return raw.view(np.int32).astype(np.int64)
    if c_dtype == "f32":
        return raw.view(np.float32).astype(np.float64)
    if c_dtype == "bf16":           # a bf16 is the top half of an f32
        return (raw.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if c_dtype == "f16":
        return raw.view(np.float16).astype(np.float64)
    raise EmuError(f"unknown element type of C {c_dtype!r}")


#: the FP8 element types by name: (format, value of each byte)
FP8_TABLES = {"fp8": ("E4M3", E4M3), "fp8e5m2": ("E5M2", E5M2)}


def encode(values: np.ndarray, dtype: str) -> bytes:
    """Small integers as the kernel's element type (f32, bf16, f16, FP8 E4M3 ``fp8``, FP8
    E5M2 ``fp8e5m2`` or ``i8``), row-major bytes."""
    if dtype == "i8":
        v = np.asarray(values)
        if v.dtype.kind in "iu" and (not v.size or -128 <= v.min() <= v.max() <= 127):
            return v.astype(np.int8).tobytes()      # integers in range: their low bytes
        v = v.astype(np.float64)
        bad = (v != np.round(v)) | (v < -128) | (v > 127)
        if bad.any():
            raise EmuError(f"value {v[bad].flat[0]} is not an i8")
        return v.astype(np.int8).tobytes()
    if dtype == "bf16":      # the small integers are exact in float32: its top half
        v = np.asarray(values, dtype=np.float32)
        return (v.view(np.uint32) >> 16).astype(np.uint16).tobytes()
    if dtype == "f16":
        return np.asarray(values).astype(np.float16).tobytes()
    if dtype == "f32":
        return np.asarray(values).astype(np.float32).tobytes()
    v = np.asarray(values, dtype=np.float64)
    if dtype in FP8_TABLES:
        name, table = FP8_TABLES[dtype]
        codes = np.array([b for b in range(256) if np.isfinite(table[b]) and b != 0x80])
        values = table[codes]
        order = np.argsort(values)
        flat = v.reshape(-1)
        pos = np.clip(np.searchsorted(values[order], flat), 0, len(order) - 1)
        bad = values[order][pos] != flat
        if bad.any():
            raise EmuError(f"value {flat[bad][0]} is not representable in FP8 {name}")
        return codes[order][pos].astype(np.uint8).tobytes()
    raise EmuError(f"unknown element type {dtype!r}")


def random_inputs(M: int, N: int, K: int, seed: int = 0, dtype: str = "bf16"):
    """(A ``M x K``, B ``N x K``) of random small integers, -3..3; for ``i8`` the whole
    signed range, A's even (every product, so every i32 of C, is even: never the poison
    word -1)."""
    rng = np.random.default_rng(seed)
    if dtype == "i8":
        return (2 * rng.integers(-64, 64, size=(M, K), dtype=np.int64),
                rng.integers(-128, 128, size=(N, K), dtype=np.int64))
    return (rng.integers(-3, 4, size=(M, K)).astype(np.float64),
            rng.integers(-3, 4, size=(N, K)).astype(np.float64))


@functools.lru_cache(maxsize=8)
def _problem(M: int, N: int, K: int, data_seed: int, dtype: str):
    """(A and B as the kernel's element type, the reference C) of the random inputs of one
    problem; kept for the next runs of the same problem (the other memory modes)."""
    A, B = random_inputs(M, N, K, data_seed, dtype)
    ref = reference_gemm(A, B, dtype)
    ref.flags.writeable = False
    return encode(A, dtype), encode(B, dtype), ref


@functools.lru_cache(maxsize=8)
def _mx_problem(M: int, N: int, K: int, data_seed: int, dtype: str):
    """(the operand buffers by argument name, the reference C) of random MX inputs: element
    codes (E2M1 packed two per byte) and row-major ``rows x K/32`` E8M0 scales whose
    products and sums are exact in f32 (:func:`pipeline_mlir.kernel.mx.random_mx_operands`)."""
    from pipeline_mlir.kernel import mx
    from pipeline_mlir.schedules.mx import MX_ELEMENT_FORMAT

    fmt = MX_ELEMENT_FORMAT[dtype]
    rng = np.random.default_rng(data_seed)
    a, sa = mx.random_mx_operands(rng, M, K, fmt)
    b, sb = mx.random_mx_operands(rng, N, K, fmt)
    ref = mx.mx_reference_gemm(a, sa, b, sb, fmt, fmt)
    ref.flags.writeable = False
    pack = mx.pack_e2m1 if fmt == "e2m1" else np.asarray
    return {"A": pack(a).tobytes(), "B": pack(b).tobytes(), "A_scale": sa.tobytes(),
            "B_scale": sb.tobytes()}, ref


def problem_buffers(gemm, M: int, N: int, K: int, data_seed: int):
    """(the input buffers by argument name, the reference C) of one problem of ``gemm``."""
    g = gemm.geometry
    if g.is_mx:
        return _mx_problem(M, N, K, data_seed, g.dtype)
    A, B, ref = _problem(M, N, K, data_seed, g.dtype)
    return {"A": A, "B": B}, ref


def kernarg_bytes(bases: dict[str, int], counts: dict[str, int], M: int, N: int, K: int,
                  names: tuple = tuple("ABC")) -> bytes:
    """The kernel arguments: a memref descriptor of each buffer ``names`` in order (pointer
    twice, offset 0, ``counts`` elements, stride 1), then M, N, K."""
    out = b""
    for name in names:
        out += struct.pack("<QQqqq", bases[name], bases[name], 0, counts[name], 1)
    return out + struct.pack("<qqq", M, N, K)


def run_workgroups(kernel, glob: GlobalMemory, workgroups: list, waves: int, mode: str,
                   seed: int, kernarg_at: int, collect: bool = False,
                   progress=None, dims=None, jobs: int = 1) -> tuple[int, list]:
    """Run ``workgroups`` (ids: x, or (x, y[, z]) tuples) in lockstep batches of up to
    :data:`BATCH` (a batch whose workgroups branch differently goes on from there as a
    batch per way they went, :mod:`~pipeline_mlir.emu.split`; each split again where it
    diverges);
    (instructions executed summed over the workgroups, findings collected).
    ``progress(done, total)`` is called after each batch; ``dims``: the
    :class:`~pipeline_mlir.emu.machine.LaunchDims` (None: 1-D workgroups of ``waves``).
    With ``jobs`` > 1 the batches are spread over that many processes
    (:mod:`pipeline_mlir.emu.pool`), with the same result.  A store to a buffer the run
    loaded before without recording its loads (:mod:`pipeline_mlir.emu.globalrace`) runs
    it again from the memory it started with, that buffer's loads recorded; one whose loads
    raced another workgroup's stores runs again from there tainting, to tell whether the
    values loaded reach anything observable (:mod:`pipeline_mlir.emu.racy_loads`; in one
    process: over several, such a race is reported as found)."""
    race = glob.race
    race.defer, race.tainting, race.racy, race.keys, race.codes = True, False, {}, {}, {}
    try:
        while True:
            race.begin()
            try:
                got = _run_workgroups(kernel, glob, workgroups, waves, mode, seed, kernarg_at,
                                      collect, progress, dims, jobs)
            except ReadFirst as e:  # a store to a buffer loaded unrecorded: again, recorded
                glob.restore()
                race.recorded.add(e.b)
                continue
            if not again_tainting(race):
                return got
            glob.restore()          # loads raced other workgroups' stores: again, tainting
    finally:
        race.defer = race.tainting = False


def _run_workgroups(kernel, glob: GlobalMemory, workgroups: list, waves: int, mode: str,
                    seed: int, kernarg_at: int, collect: bool, progress, dims,
                    jobs: int) -> tuple[int, list]:
    items = [(p, s, workgroups[s:s + BATCH])
             for p, s in enumerate(range(0, len(workgroups), BATCH))]
    run = functools.partial(run_batches, waves=waves, mode=mode, seed=seed,
                            kernarg_at=kernarg_at, collect=collect, dims=dims)
    if jobs > 1 and len(items) > 1:
        from pipeline_mlir.emu.pool import run_spread, workers

        if workers(len(items), jobs) > 1:
            return run_spread(kernel, glob, items, run, workers(len(items), jobs), progress)
    count, findings, done = 0, [], 0

    def on_batch(_position, size, instructions, found) -> None:
        nonlocal count, done
        count += instructions
        findings.extend(found)
        done += size
        if progress is not None:
            progress(done, len(workgroups))

    run(kernel, glob, items, on_batch)
    return count, findings


def run_batches(kernel, glob: GlobalMemory, items: list, on_batch, *, waves: int, mode: str,
                seed: int, kernarg_at: int, collect: bool, dims=None) -> None:
    """Run the batches ``items`` (``(position, index of its first workgroup, ids)``) in
    order, seeded by that index; ``on_batch(position, workgroups, instructions, findings)``
    after each."""
    runs = _Batch(kernel, glob, waves, mode, seed, kernarg_at, collect, dims)
    for position, start, batch in items:
        # the collector paused from the machine's making to its detaching, so the run's
        # memory operations are freed by their counts, not walked by a collection first
        with collector_paused():
            count, findings = runs.from_start(start, batch)
        on_batch(position, len(batch), count, findings)


class _Again(Exception):
    """A diverged batch that cannot be split (:func:`~pipeline_mlir.emu.split.why_not`):
    ``machine`` (it or a part of it) went the ``ways``."""

    def __init__(self, machine, ways) -> None:
        super().__init__()
        self.machine, self.ways = machine, ways


class _Batch:
    """Runs a batch of workgroups in lockstep: where they branch apart, each way goes on
    from there (:mod:`pipeline_mlir.emu.split`); where that is not sound, each way runs
    again from the start, from the memory the batch started with (its stores undone).
    ``splits`` / ``again``: how often each was done."""

    def __init__(self, kernel, glob, waves, mode, seed, kernarg_at, collect, dims) -> None:
        self.kernel, self.glob, self.waves, self.mode = kernel, glob, waves, mode
        self.seed, self.kernarg_at, self.collect, self.dims = seed, kernarg_at, collect, dims
        self.splits = self.again = 0

    def from_start(self, first: int, group: list, split: bool = True) -> tuple[int, list]:
        """(instructions executed summed over the workgroups, findings) of ``group``, run
        from the start (seeded ``seed + first``); ``split``: a divergence is split where
        sound (else every one runs its ways again from the start)."""
        glob = self.glob
        undo = glob.undo = [] if len(group) > 1 else None
        m = Machine(self.kernel, glob, group, self.waves, self.mode, self.seed + first,
                    self.kernarg_at, collect=self.collect, dims=self.dims)
        try:
            return self.go_on(m, first, split)
        except _Again as e:       # again, from the memory the batch started with
            glob.undo = undo
            glob.undo_batch()
            again = e
        finally:
            glob.undo = None
        self.again += 1
        if again.machine is not m:  # a part of a split: all of it again, as it diverged
            return self.from_start(first, group, split=False)
        count, findings = 0, []
        for way in again.ways:
            c, f = self.from_start(first + way[0], [group[i] for i in way], split)
            count, findings = count + c, findings + f
        return count, findings

    def go_on(self, m, first: int, split: bool) -> tuple[int, list]:
        """Run ``m`` on from where it is, and each part it splits into."""
        self.glob.machine = m
        try:
            m.run()
        except Divergence as e:
            if m.G == 1:
                raise
            ways = e.groups or [[i] for i in range(m.G)]
            if not split or why_not(m):
                raise _Again(m, ways) from None
            self.splits += 1
            count, findings = 0, []
            parts = split_batch(m, ways, [self.seed + first + way[0] for way in ways], e)
            for way, part in zip(ways, parts):
                c, f = self.go_on(part, first + way[0], split)
                count, findings = count + c, findings + f
            return count, findings
        finally:
            m.detach()
        return m.count * m.G, m.findings     # instructions executed, summed over workgroups


def emulate_gemm(kernel, gemm, M: int, N: int, K: int, mode: str = "eager", seed: int = 0,
                 data_seed: int = 0, collect: bool = False, count: int | None = None,
                 progress=None, strict: bool = False, jobs: int = 1) -> GemmRun:
    """Run ``kernel`` (a :class:`~pipeline_mlir.emu.codeobj.Kernel`) as the complete GEMM kernel
    ``gemm`` (:class:`~pipeline_mlir.kernel.gemm.GemmKernel`) on ``M x N x K``: the whole
    grid, or ``count`` workgroups spread over it (:func:`spread`, from three a tile off the diagonal
    among them when the grid has one); C is checked on their
    tiles (:mod:`pipeline_mlir.emu.coverage`); ``progress(done, total)`` is called as
    workgroups finish; ``strict``: buffer accesses past a descriptor's records are findings.
    ``jobs``: processes to spread the workgroups over (same result).

    Raises :class:`~pipeline_mlir.emu.errors.Finding` on the first thing the kernel does
    wrong (with ``collect``, races and pending registers are listed in ``findings`` instead
    and the run goes on); a wrong result is reported in the returned run (``exact``
    False)."""
    launch = check_launch(gemm, M, N, K)
    g = gemm.geometry
    if kernel.launch.kernarg_bytes and kernel.launch.kernarg_bytes < launch.kernarg_bytes:
        raise EmuError(f"kernel {kernel.name} takes {kernel.launch.kernarg_bytes} bytes of "
                       f"kernel arguments; the GEMM launch passes {launch.kernarg_bytes}")
    if kernel.launch.lds_bytes != gemm.lds_bytes:
        raise EmuError(f"kernel {kernel.name} declares {kernel.launch.lds_bytes} bytes of LDS; "
                       f"the {gemm.name} kernel of the pipeline uses {gemm.lds_bytes} (is the "
                       f"file built for this --pipeline?)")
    tiles, tm, tn = launch.grid[0], M // g.BM, N // g.BN
    workgroups = spread(tiles, count, lambda w: len(set(launch.order.tile_of(w, tm, tn))) == 1)
    inputs, ref = problem_buffers(gemm, M, N, K, data_seed)
    c_dtype = gemm.c_dtype
    c_bytes, c_word = C_WORDS[c_dtype]
    if c_dtype in ("bf16", "f16"):  # the exact f32 sum rounded as the epilogue rounds it
        ref = quantize(ref, c_dtype)
    glob = GlobalMemory()
    glob.strict = strict
    kernarg_at = glob.add("kernargs", bytes(max(launch.kernarg_bytes, 256)))
    bases = {name: glob.add(name, data) for name, data in inputs.items()}
    bases["C"] = glob.add_poisoned("C", M * N * c_bytes)
    glob.track("C")
    # every buffer but C holds 1-byte elements when the kernel is block-scaled
    counts = {name: len(data) // (1 if g.is_mx else g.elem_bytes) for name, data in inputs.items()}
    counts["C"] = M * N
    names = tuple(a.name for a in gemm.shape.arguments if a.kind == "buffer")
    glob.buffers[0][:launch.kernarg_bytes] = np.frombuffer(
        kernarg_bytes(bases, counts, M, N, K, names), dtype=np.uint8)
    waves = gemm.threads // WAVE_SIZE
    start = time.perf_counter()
    n, findings = run_workgroups(kernel, glob, workgroups, waves, mode, seed, kernarg_at,
                                 collect, progress, jobs=jobs)
    seconds = time.perf_counter() - start
    C = c_values(glob.buffer("C").view(c_word).reshape(M, N), c_dtype)
    cover = footprint((M, N), [(r * g.BM, c * g.BN, g.BM, g.BN) for r, c in
                               (launch.order.tile_of(w, tm, tn) for w in workgroups)])
    cov = check_c(C, stored_elements(glob.marks_of("C"), (M, N), glob.stamped_pages("C")), cover,
                  lambda r, c: ref[np.ix_(r, c)])
    return GemmRun(kernel.name, M, N, K, mode, len(workgroups), waves, n, seconds,
                   cov.max_error, C, ref, cov.first_bad, findings, tiles, cov.stored,
                   cov.compared, cov, list(workgroups))
