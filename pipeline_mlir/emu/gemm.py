"""Run a complete GEMM kernel on the emulator and compare it with the numpy reference.

:func:`emulate_gemm` lays out A (``M x K``), B (``N x K``) and C (``M x N`` f32, poisoned)
in global memory, packs the 144-byte kernel arguments of
:mod:`pipeline_mlir.kernel.launch` (three memref descriptors, then M, N, K), launches
``(M/BM) * (N/BN)`` workgroups of the kernel's waves and compares C with
:func:`pipeline_mlir.kernel.reference.reference_gemm`.  The inputs are small integers
(-3..3), whose products and sums are exact in every element type and in f32, so the
result must be equal, not close.
"""

from __future__ import annotations

import functools
import struct
import time
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.machine import Divergence, GlobalMemory, Machine, POISON_BYTE
from pipeline_mlir.emu.mfma import E4M3
from pipeline_mlir.kernel.launch import check_launch
from pipeline_mlir.kernel.reference import reference_gemm

#: the largest batch of workgroups run in lockstep
BATCH = 16


@dataclass
class GemmRun:
    kernel: str
    M: int
    N: int
    K: int
    mode: str
    workgroups: int
    waves: int
    instructions: int
    seconds: float
    max_error: float
    C: np.ndarray
    reference: np.ndarray
    first_bad: tuple[int, int] | None
    findings: list = None

    @property
    def exact(self) -> bool:
        return self.first_bad is None

    def summary(self) -> str:
        verdict = "exact" if self.exact else "WRONG"
        return (f"{self.kernel} M={self.M} N={self.N} K={self.K} mode={self.mode}: {verdict}, "
                f"max error {self.max_error:g}, {self.workgroups} workgroups x {self.waves} "
                f"waves, {self.instructions} instructions in {self.seconds:.2f} s "
                f"({self.instructions / max(self.seconds, 1e-9):,.0f} instructions/s)")


def encode(values: np.ndarray, dtype: str) -> bytes:
    """Small integers as the kernel's element type (bf16, f16 or FP8 E4M3), row-major bytes."""
    v = np.asarray(values, dtype=np.float64)
    if dtype == "bf16":
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).tobytes()
    if dtype == "f16":
        return v.astype(np.float16).tobytes()
    if dtype == "fp8":
        codes = np.array([b for b in range(256) if not np.isnan(E4M3[b]) and b != 0x80])
        values = E4M3[codes]
        order = np.argsort(values)
        flat = v.reshape(-1)
        pos = np.clip(np.searchsorted(values[order], flat), 0, len(order) - 1)
        bad = values[order][pos] != flat
        if bad.any():
            raise EmuError(f"value {flat[bad][0]} is not representable in FP8 E4M3")
        return codes[order][pos].astype(np.uint8).tobytes()
    raise EmuError(f"unknown element type {dtype!r}")


def random_inputs(M: int, N: int, K: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return (rng.integers(-3, 4, size=(M, K)).astype(np.float64),
            rng.integers(-3, 4, size=(N, K)).astype(np.float64))


@functools.lru_cache(maxsize=8)
def _problem(M: int, N: int, K: int, data_seed: int, dtype: str):
    """(A and B as the kernel's element type, the reference C) of the random inputs of one
    problem; kept for the next runs of the same problem (the other memory modes)."""
    A, B = random_inputs(M, N, K, data_seed)
    ref = reference_gemm(A, B, dtype)
    ref.flags.writeable = False
    return encode(A, dtype), encode(B, dtype), ref


def kernarg_bytes(bases: dict[str, int], counts: dict[str, int], M: int, N: int, K: int) -> bytes:
    out = b""
    for name in "ABC":
        out += struct.pack("<QQqqq", bases[name], bases[name], 0, counts[name], 1)
    return out + struct.pack("<qqq", M, N, K)


def run_workgroups(kernel, glob: GlobalMemory, workgroups: list, waves: int, mode: str,
                   seed: int, kernarg_at: int, collect: bool = False) -> tuple[int, list]:
    """Run ``workgroups`` (ids: x, or (x, y[, z]) tuples) in lockstep batches of up to
    :data:`BATCH` (a batch whose workgroups branch differently is run one by one);
    (instructions executed summed over the workgroups, findings collected)."""
    count = 0
    findings: list = []
    pending = [workgroups[s:s + BATCH] for s in range(0, len(workgroups), BATCH)]
    while pending:
        batch = pending.pop(0)
        try:
            m = Machine(kernel, glob, batch, waves, mode,
                        seed + workgroups.index(batch[0]), kernarg_at, collect=collect)
            m.run()
        except Divergence:
            if len(batch) == 1:
                raise
            pending = [[b] for b in batch] + pending
            continue
        count += m.count * m.G        # instructions executed, summed over workgroups
        findings += m.findings
    return count, findings


def emulate_gemm(kernel, gemm, M: int, N: int, K: int, mode: str = "eager", seed: int = 0,
                 data_seed: int = 0, collect: bool = False) -> GemmRun:
    """Run ``kernel`` (a :class:`~pipeline_mlir.emu.codeobj.Kernel`) as the complete GEMM kernel
    ``gemm`` (:class:`~pipeline_mlir.kernel.gemm.GemmKernel`) on ``M x N x K``.

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
    A_bytes, B_bytes, ref = _problem(M, N, K, data_seed, g.dtype)
    glob = GlobalMemory()
    kernarg_at = glob.add("kernargs", bytes(max(launch.kernarg_bytes, 256)))
    bases = {"A": glob.add("A", A_bytes), "B": glob.add("B", B_bytes),
             "C": glob.add("C", bytes([POISON_BYTE]) * (M * N * 4))}
    glob.buffers[0][:launch.kernarg_bytes] = np.frombuffer(
        kernarg_bytes(bases, {"A": M * K, "B": N * K, "C": M * N}, M, N, K), dtype=np.uint8)
    waves = gemm.threads // 64
    tiles = launch.grid[0]
    start = time.perf_counter()
    count, findings = run_workgroups(kernel, glob, list(range(tiles)), waves, mode, seed,
                                     kernarg_at, collect)
    seconds = time.perf_counter() - start
    C = glob.buffer("C").view(np.float32).reshape(M, N).astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(C - ref)
    bad = ~(diff == 0)
    max_err = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff))) if diff.size else 0.0
    first = tuple(int(x) for x in np.argwhere(bad)[0]) if bad.any() else None
    return GemmRun(kernel.name, M, N, K, mode, tiles, waves, count, seconds, max_err, C, ref,
                   first, findings)
