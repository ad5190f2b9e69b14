"""Host-side numerical reference of the complete GEMM kernels (numpy).

:func:`reference_gemm` is what a kernel computes: ``C = A x B^T`` of the inputs
rounded to the kernel's element type, accumulated in f32 (here in f64, which is
the exact value f32 accumulation approximates); for i8 inputs exact integer arithmetic,
the i32 accumulator's sum modulo 2^32 (two's complement), as int64.

:func:`emulate_kernel` runs the kernel's compiled schedule on numpy tiles the way
the kernel does, reading the kernel plan (:mod:`pipeline_mlir.kernel.plan`: prologue at
K base 0, the main loop, the epilogue at K base K) and its LDS layout
(:meth:`~pipeline_mlir.kernel.lds.LdsLayout.tile_rows`, what the MLIR index math
implements): each global load fills its LDS slot with the rows of its K tile, each
fragment load copies the rows of its warp quadrant out of the slot of its subtile
(an error if the slot does not hold them; the epilogue's reads no MMA reads, which the
lowering does not emit, are not run: :mod:`pipeline_mlir.kernel.unread_frags`), each MMA
multiplies the fragment registers it reads.  It records which K tile every MMA consumed (:class:`Use`), so
a test can check the schedule's data flow against the reference, phase by phase.
No AMD GPU is involved: this checks the schedule and the layout, not the hardware.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.launch import check_launch
from pipeline_mlir.kernel.unread_frags import as_emitted
from pipeline_mlir.schedule.types import OpRole

_BF16_ROUND = np.uint32(0x7FFF)


class EmulationError(PipelineError):
    """The schedule's data flow is wrong (a fragment of the wrong or a missing tile)."""


def quantize(x, dtype: str) -> np.ndarray:
    """``x`` rounded to ``dtype`` (round to nearest even), returned as f64.

    fp8 is OCP E4M3 (gfx950's FP8; max 448, no infinities): a finite value beyond
    the range is an error, not a silent saturation; so is an i8 value that is not an
    integer in -128..127 (i8 rounds nothing)."""
    a = np.asarray(x, dtype=np.float64)
    if dtype == "i8":
        if not np.all((a == np.round(a)) & (a >= -128) & (a <= 127)):
            raise ValueError("an i8 value is not an integer in -128..127")
        return a
    if dtype == "f16":
        return a.astype(np.float16).astype(np.float64)
    if dtype == "f32":
        return a.astype(np.float32).astype(np.float64)
    if dtype == "bf16":
        bits = a.astype(np.float32).view(np.uint32)
        bits = (bits + _BF16_ROUND + ((bits >> 16) & 1)) & np.uint32(0xFFFF0000)
        return bits.view(np.float32).astype(np.float64)
    if dtype == "fp8":
        mag = np.abs(a)
        if np.any(mag > 448.0):
            raise ValueError(f"value {float(mag.max())} is outside the FP8 E4M3 range (448)")
        with np.errstate(divide="ignore"):
            e = np.floor(np.log2(np.where(mag > 0, mag, 1.0)))
        step = np.exp2(np.maximum(e, -6.0) - 3.0)       # 3 mantissa bits; subnormal step 2^-9
        q = np.round(mag / step) * step                  # np.round: half to even
        if np.any(q > 448.0):
            raise ValueError("a value rounds beyond the FP8 E4M3 range (448)")
        return np.sign(a) * q
    raise ValueError(f"unknown dtype {dtype!r} (bf16, f16, fp8, i8, f32)")


def wrap_i32(x) -> np.ndarray:
    """Integers modulo 2^32 as two's complement i32 values (int64)."""
    return (np.asarray(x, dtype=np.int64) + 2**31) % 2**32 - 2**31


def reference_gemm(A, B, dtype: str) -> np.ndarray:
    """``C = A x B^T`` of the inputs rounded to ``dtype`` (i8: exact, wrapped to i32)."""
    if dtype == "i8":
        a, b = quantize(A, dtype).astype(np.int64), quantize(B, dtype).astype(np.int64)
        return wrap_i32(a @ b.T)
    return quantize(A, dtype) @ quantize(B, dtype).T


@dataclass(frozen=True)
class Use:
    """One MMA of the schedule and the K tile (in BK units) it consumed."""

    phase: str           # prologue / kernel / epilogue
    iteration: int       # main-loop iteration (kernel), else 0
    entry: int           # index in the phase
    row: int             # MMA row (A subtile) and column (B subtile)
    col: int
    k_tile: int


def emulate_kernel(kernel, compiled, A, B) -> tuple[np.ndarray, list[Use]]:
    """(C, the MMA uses of warp 0 of workgroup 0) of ``kernel`` running ``compiled``.

    ``A`` (M x K) and ``B`` (N x K) must satisfy the launch contract; they are rounded
    to the kernel's element type first."""

    g = kernel.geometry
    M, K = np.shape(A)
    N = np.shape(B)[0]
    launch = check_launch(kernel, int(M), int(N), int(K))
    iterations = launch.main_loop_iterations
    Aq, Bq = quantize(A, g.dtype), quantize(B, g.dtype)
    C = np.zeros((M, N))
    uses: list[Use] = []
    plan = as_emitted(kernel.plan(compiled))     # the reads the lowering emits
    for tm in range(M // g.BM):
        for tn in range(N // g.BN):
            src = {0: Aq[tm * g.BM:(tm + 1) * g.BM], 1: Bq[tn * g.BN:(tn + 1) * g.BN]}
            for wm in range(kernel.warps_m):
                for wn in range(kernel.warps_n):
                    record = uses if (tm, tn, wm, wn) == (0, 0, 0, 0) else None
                    acc = _emulate_warp(plan, src, (wm, wn), iterations, record)
                    for (r, c), block in acc.items():
                        h_m, h_n = kernel.WM // 2, kernel.WN // 2
                        r0 = tm * g.BM + wm * kernel.WM + r * h_m
                        c0 = tn * g.BN + wn * kernel.WN + c * h_n
                        C[r0:r0 + h_m, c0:c0 + h_n] = block
    return C, uses


def _emulate_warp(plan, src, pos, iterations, record):
    layout = plan.shape.lds
    BK = layout.buffers[0].row_elems
    lds: dict = {}    # (ch, stage, subtile) -> (k tile, {tile row: data row})
    regs: dict = {}   # (ch, subtile) -> (k tile, array quadrant rows x BK)
    acc: dict = {}
    for x in plan.run(0, iterations):
        phase, it, idx, op = x.phase, x.iteration, x.entry, x.op
        if idx < 0:
            continue     # a wait or barrier the kernel adds: no data
        if op.role == OpRole.GLOBAL_LOAD:
            ch = op.channel
            kt = x.k_base if x.k_tile is None else x.k_tile
            rows = layout.tile_rows(ch, op.subtile)
            data = src[ch][:, kt * BK:(kt + 1) * BK] if kt * BK < src[ch].shape[1] else None
            lds[(ch, op.stage, op.subtile)] = (
                kt, None if data is None else {r: data[r] for r in rows})
        elif op.role == OpRole.FRAGMENT_LOAD:
            ch = op.channel
            slot = lds.get((ch, op.stage, op.subtile))
            where = f"{phase} entry {idx} (iteration {it})"
            if slot is None:
                raise EmulationError(f"{where}: fragment load of channel {ch} stage "
                                     f"{op.stage} subtile {op.subtile} reads an empty "
                                     f"LDS slot")
            kt, rows = slot
            if rows is None:
                raise EmulationError(f"{where}: fragment load reads K tile {kt}, which "
                                     f"is beyond K")
            w = layout.warp_tiles[ch]
            wpos = pos[0] if ch == 0 else pos[1]
            want = range(wpos * w + op.subtile * (w // 2), wpos * w + (op.subtile + 1) * (w // 2))
            missing = [r for r in want if r not in rows]
            if missing:
                raise EmulationError(f"{where}: fragment load of channel {ch} subtile "
                                     f"{op.subtile} needs tile rows {missing[0]}.. which "
                                     f"the LDS slot of subtile {op.subtile} does not hold")
            regs[(ch, op.subtile)] = (kt, np.stack([rows[r] for r in want]))
        elif op.role == OpRole.COMPUTE:
            r, c = op.stage, op.subtile
            a, b = regs.get((0, r)), regs.get((1, c))
            where = f"{phase} entry {idx} (iteration {it})"
            if a is None or b is None:
                raise EmulationError(f"{where}: MMA ({r},{c}) reads a fragment register "
                                     f"that was never loaded")
            if a[0] != b[0]:
                raise EmulationError(f"{where}: MMA ({r},{c}) multiplies A of K tile "
                                     f"{a[0]} with B of K tile {b[0]}")
            acc[(r, c)] = acc.get((r, c), 0) + a[1] @ b[1].T
            if record is not None:
                record.append(Use(phase, it, idx, r, c, a[0]))
    return acc


def check_data_flow(uses: list[Use], k_tiles: int) -> list[str]:
    """Problems with the K tiles the MMAs consumed: every accumulator must receive each
    tile ``0 .. k_tiles-1`` exactly once."""
    problems = []
    by_acc: dict = {}
    for u in uses:
        by_acc.setdefault((u.row, u.col), []).append(u.k_tile)
    for key, tiles in sorted(by_acc.items()):
        if sorted(tiles) != list(range(k_tiles)):
            problems.append(f"accumulator {key} received K tiles {sorted(tiles)}, expected "
                            f"0..{k_tiles - 1} once each")
    return problems
