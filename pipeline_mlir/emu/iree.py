"""IREE's matmul kernels on the emulator: their launch contract, and a run of chosen
workgroups against the numpy reference.

The kernel's arguments are read from the code object's metadata (``.args``), which
tells the two contracts apart:

* IREE's ROCm HAL (a kernel ``iree-compile`` finished): one global pointer per binding,
  in binding order, 8 bytes each, then the ``i32`` push constants (a kernel with
  constants is refused: the matmuls here have none).  gfx950 kernels may preload the
  first arguments into SGPRs (the kernel descriptor says how many dwords; the machine
  preloads them).
* ``sched-gpu-kernel`` (a kernel pipeline-opt compiled from IREE's ``func.func``): each
  binding a memref descriptor, as LLVM lowers a memref argument: allocated pointer,
  aligned pointer, offset, then the sizes and the strides (``3 + 2 * rank`` fields of 8
  bytes; the first two are ``global_buffer``).

The bindings of a matmul: A (``M x K``), B (``N x K`` for ``A x B^T``, ``K x N`` for
``A x B``), C (``M x N`` f32), row-major and contiguous.  IREE compiles the problem sizes
into the kernel, so a run launches a subset of the grid (workgroup ids chosen by the
caller) and checks C where they wrote: every element written equals the reference, and
they wrote ``workgroups * tile`` elements (each workgroup its own tile).
"""

from __future__ import annotations

import functools
import struct
import time
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.gemm import encode, run_workgroups
from pipeline_mlir.emu.machine import POISON32, GlobalMemory, POISON_BYTE


@dataclass
class IreeRun:
    kernel: str
    contract: str          # 'hal' or 'memref'
    mode: str
    workgroups: list
    written: int           # elements of C the workgroups wrote
    expected: int          # workgroups * tile elements
    max_error: float
    first_bad: tuple[int, int] | None
    instructions: int
    seconds: float

    @property
    def exact(self) -> bool:
        return self.first_bad is None and self.written == self.expected

    def summary(self) -> str:
        verdict = "exact" if self.exact else "WRONG"
        return (f"{self.kernel} ({self.contract} arguments, mode {self.mode}): {verdict}, "
                f"{len(self.workgroups)} workgroups wrote {self.written} of C "
                f"(expected {self.expected}), max error {self.max_error:g}, "
                f"{self.instructions} instructions in {self.seconds:.2f} s")


def kernel_arguments(kernel, bases: list[int], shapes: list[tuple[int, ...]]) -> tuple[str,
                                                                                       bytes]:
    """(contract, the kernarg bytes) for bindings at ``bases`` with row-major ``shapes``,
    laid out as the kernel's metadata asks."""
    args = None if kernel.meta is None else kernel.meta.get(".args", [])
    if args is None:
        raise EmuError(f"kernel {kernel.name}: IREE's launch reads the kernel arguments from "
                       f"the code object's metadata: give the .hsaco, not the assembly")
    kinds = [a.get(".value_kind") for a in args]
    size = max((a[".offset"] + a[".size"] for a in args), default=0)
    out = bytearray(size)

    def put(arg, value: int) -> None:
        if arg[".size"] != 8:
            raise EmuError(f"kernel {kernel.name}: argument at offset {arg['.offset']} has "
                           f"{arg['.size']} bytes where IREE's launch passes 8")
        struct.pack_into("<Q", out, arg[".offset"], value & (1 << 64) - 1)

    if kinds == ["global_buffer"] * len(bases):
        for arg, base in zip(args, bases):
            put(arg, base)
        return "hal", bytes(out)
    fields = [3 + 2 * len(s) for s in shapes]
    if len(args) == sum(fields):
        k = 0
        for base, shape, n in zip(bases, shapes, fields):
            group = args[k:k + n]
            if [a.get(".value_kind") for a in group[:2]] != ["global_buffer"] * 2:
                break
            strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
            for arg, value in zip(group, [base, base, 0, *shape, *strides]):
                put(arg, value)
            k += n
        else:
            return "memref", bytes(out)
    raise EmuError(f"kernel {kernel.name}: its {len(args)} kernel arguments ({', '.join(kinds)}) "
                   f"are neither IREE's HAL bindings ({len(bases)} pointers) nor memref "
                   f"descriptors of the shapes {shapes}")


def emulate_iree_matmul(kernel, M: int, N: int, K: int, dtype: str, transpose_b: bool,
                        workgroups: list, tile: tuple[int, int], mode: str = "eager",
                        seed: int = 0, data_seed: int = 0) -> IreeRun:
    """Run ``workgroups`` of IREE's matmul kernel ``kernel`` (bindings A, B, C) on random
    small integers and compare the tiles they wrote with ``A x B^T`` (or ``A x B``).
    Raises :class:`~pipeline_mlir.emu.errors.Finding` on the first thing the kernel does
    wrong."""
    A, Bt, A_bytes, B_bytes = _problem(M, N, K, dtype, transpose_b, data_seed)
    glob = GlobalMemory()
    kernarg_at = glob.add("kernargs", bytes(4096))
    bases = [glob.add("A", A_bytes), glob.add("B", B_bytes),
             glob.add("C", bytes([POISON_BYTE]) * (M * N * 4))]
    B_shape = (N, K) if transpose_b else (K, N)
    contract, kernargs = kernel_arguments(kernel, bases, [(M, K), B_shape, (M, N)])
    if kernel.launch.kernarg_bytes and len(kernargs) > kernel.launch.kernarg_bytes:
        raise EmuError(f"kernel {kernel.name}: its descriptor declares "
                       f"{kernel.launch.kernarg_bytes} bytes of arguments, the metadata "
                       f"{len(kernargs)}")
    glob.buffers[0][:len(kernargs)] = np.frombuffer(kernargs, dtype=np.uint8)
    waves = _waves(kernel)
    start = time.perf_counter()
    count, _ = run_workgroups(kernel, glob, list(workgroups), waves, mode, seed, kernarg_at)
    seconds = time.perf_counter() - start
    raw = glob.buffer("C").view(np.uint32).reshape(M, N)
    written = raw != POISON32
    rows, cols = np.flatnonzero(written.any(axis=1)), np.flatnonzero(written.any(axis=0))
    # integer products and sums below 2^24: exact in float32
    ref = A[rows] @ Bt[cols].T
    got = raw[np.ix_(rows, cols)].view(np.float32)
    mask = written[np.ix_(rows, cols)]
    with np.errstate(invalid="ignore"):
        diff = np.where(mask, np.abs(got.astype(np.float64) - ref), 0.0)
    bad = mask & ~(diff == 0)
    first = None
    if bad.any():
        r, c = np.argwhere(bad)[0]
        first = (int(rows[r]), int(cols[c]))
    max_err = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff))) if diff.size else 0.0
    return IreeRun(kernel.name, contract, mode, list(workgroups), int(written.sum()),
                   len(workgroups) * tile[0] * tile[1], max_err, first, count, seconds)


@functools.lru_cache(maxsize=2)
def _problem(M: int, N: int, K: int, dtype: str, transpose_b: bool, data_seed: int):
    """(A, B as N x K, both float32, and A and B as the kernel's bytes) of random integers
    in -3..3; kept for the next runs of the same problem."""
    rng = np.random.default_rng(data_seed)
    A = rng.integers(-3, 4, size=(M, K), dtype=np.int8).astype(np.float32)
    Bt = rng.integers(-3, 4, size=(N, K), dtype=np.int8).astype(np.float32)
    B = Bt if transpose_b else np.ascontiguousarray(Bt.T)
    return A, Bt, encode(A, dtype), encode(B, dtype)


def _waves(kernel) -> int:
    """Waves per workgroup from the code object's metadata (``.reqd_workgroup_size`` or
    ``.max_flat_workgroup_size``)."""
    meta = kernel.meta or {}
    size = meta.get(".reqd_workgroup_size")
    threads = int(np.prod(size)) if size else meta.get(".max_flat_workgroup_size")
    if not threads or threads % 64:
        raise EmuError(f"kernel {kernel.name}: its metadata gives no workgroup size of whole "
                       f"waves ({threads!r})")
    return threads // 64
