"""The host-side contract of the complete GEMM kernels (:mod:`pipeline_mlir.kernel.gemm`).

A kernel computes ``C = A x B^T`` for row-major A (``M x K``), B (``N x K``) and C
(``M x N``, f32, or bf16 / f16 with the kernel's ``c_dtype``).  :func:`check_launch` validates a problem size before a launch and
returns everything a host needs to launch it; sizes the kernel cannot compute
exactly are rejected here, with the reason, because the kernel itself has no
remainder handling:

* ``M % BM == 0`` and ``N % BN == 0`` (one workgroup per output tile, no edge tiles);
* ``K % (2*BK) == 0`` and ``K >= 2*BK``: the pipelined K-loop consumes two K tiles
  per step; the prologue loads tiles 0 and 1, the main loop runs ``K/(2*BK) - 1``
  times (zero times when ``K == 2*BK``), the epilogue computes the last two tiles;
  a kernel whose main loop runs at least once (``min_trips``, the ``4wave`` option
  ``loop_once``) needs ``K >= 4*BK`` (:attr:`~pipeline_mlir.kernel.gemm.GemmKernel.min_k`);
* every buffer spans fewer than 2**31 bytes: the loads and stores are buffer
  instructions with 32-bit byte offsets.

Kernel arguments (the MLIR memref calling convention, 8-byte aligned): for each of
A, B and C the five fields ``allocated pointer, aligned pointer, offset, size,
stride`` (pointers to global memory, i64 offset/size/stride in elements; pass the
same device pointer twice, offset 0, size = element count, stride 1), then ``M``,
``N``, ``K`` as i64 -- 144 bytes.  Grid: ``(M/BM) * (N/BN)`` workgroups in x, which tile each takes said by the kernel's
grid order (:mod:`pipeline_mlir.schedules.grid`);
workgroup: the kernel's threads in x; the LDS is static (no dynamic LDS).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.plan import gemm_arguments
from pipeline_mlir.schedules.grid import ROW_MAJOR, GridOrder
from pipeline_mlir.target.gfx950 import MX_BLOCK

#: Largest byte extent one buffer may have (32-bit buffer offsets).
MAX_BUFFER_BYTES = 2**31 - 1


class LaunchError(PipelineError):
    """A problem size the kernel cannot compute exactly."""


@dataclass(frozen=True)
class LaunchConfig:
    kernel: str
    M: int
    N: int
    K: int
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    lds_bytes: int
    main_loop_iterations: int
    kernargs: tuple[tuple[str, int, int], ...]   # (name, offset, size)
    c_dtype: str = "f32"                          # the element type of C
    order: GridOrder = ROW_MAJOR                  # which tile each workgroup computes
    operands: str = ""                            # the operand layout, when not plain

    @property
    def kernarg_bytes(self) -> int:
        name, off, size = self.kernargs[-1]
        return off + size


def kernarg_layout(arguments=None) -> tuple[tuple[str, int, int], ...]:
    """(name, offset, size) of each field of the kernel ``arguments`` (default: the GEMM
    kernels'; :class:`~pipeline_mlir.kernel.plan.KernelArgument`), 8-byte aligned."""
    out, off = [], 0
    for arg in gemm_arguments("f32") if arguments is None else arguments:
        for name, size in arg.fields():
            off = -(-off // size) * size
            out.append((name, off, size))
            off += size
    return tuple(out)


def check_launch(kernel, M: int, N: int, K: int) -> LaunchConfig:
    """The launch of ``kernel`` (a :class:`~pipeline_mlir.kernel.gemm.GemmKernel`) for
    ``M x N x K``; a :class:`LaunchError` naming the argument if it cannot run it."""
    g = kernel.geometry
    where = f"kernel {kernel.name}"
    for name, v in (("M", M), ("N", N), ("K", K)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise LaunchError(f"{where}: {name} must be a positive integer, got {v!r}")
    if M % g.BM:
        raise LaunchError(f"{where}: M = {M} is not a multiple of the tile BM = {g.BM} "
                          f"(the kernel has no edge tiles; pad M to {-(-M // g.BM) * g.BM})")
    if N % g.BN:
        raise LaunchError(f"{where}: N = {N} is not a multiple of the tile BN = {g.BN} "
                          f"(the kernel has no edge tiles; pad N to {-(-N // g.BN) * g.BN})")
    step = 2 * g.BK
    if K < kernel.min_k:
        raise LaunchError(f"{where}: K = {K} is too small: the pipelined loop needs K >= "
                          + (f"2*BK = {step} (its prologue loads two K tiles)"
                             if kernel.min_k == step else
                             f"4*BK = {kernel.min_k} (its main loop runs at least once; "
                             f"pad K with zeros to {kernel.min_k})"))
    if K % step:
        raise LaunchError(f"{where}: K = {K} is not a multiple of 2*BK = {step} (the loop "
                          f"consumes two K tiles per step; pad K with zeros to "
                          f"{-(-K // step) * step})")
    for name, rows in (("A", M), ("B", N)):
        size = rows * K * g.elem_bytes // g.pack
        if size > MAX_BUFFER_BYTES:
            raise LaunchError(f"{where}: {name} spans {size} bytes; buffer offsets "
                              f"are 32-bit (at most {MAX_BUFFER_BYTES} bytes per operand)")
    c_bytes = M * N * kernel.c_bytes
    if c_bytes > MAX_BUFFER_BYTES:
        raise LaunchError(f"{where}: C spans {c_bytes} bytes; buffer offsets are 32-bit "
                          f"(at most {MAX_BUFFER_BYTES} bytes)")
    tiles = (M // g.BM) * (N // g.BN)
    return LaunchConfig(kernel.name, M, N, K, (tiles, 1, 1), (kernel.threads, 1, 1),
                        kernel.lds_bytes, K // step - 1, kernarg_layout(kernel.shape.arguments),
                        kernel.c_dtype, kernel.grid_order, mx_operands(g, M, N, K))


def mx_operands(g, M: int, N: int, K: int) -> str:
    """How a block-scaled kernel's operands lie in memory ("" for the others)."""
    if not g.is_mx:
        return ""
    elems = ("E2M1, two per byte, element 2i in the low nibble of byte i" if g.pack == 2
             else "E4M3 (OCP E4M3FN), one per byte")
    return (f"A {M} x {K}, B {N} x {K} row-major, {elems}; A_scale {M} x {K // MX_BLOCK}, "
            f"B_scale {N} x {K // MX_BLOCK} row-major E8M0 bytes (2^(e-127)), one per "
            f"{MX_BLOCK} K values of a row")


def format_launch(c: LaunchConfig) -> str:
    lines = [f"kernel            {c.kernel}",
             f"problem           M={c.M} N={c.N} K={c.K}  (C = A x B^T, A MxK, B NxK, C MxN "
             f"{c.c_dtype})",
             f"grid              {c.grid[0]} x {c.grid[1]} x {c.grid[2]} workgroups"
             + ("" if c.order.is_rowmajor else f" ({c.order.describe()})"),
             f"workgroup         {c.block[0]} x {c.block[1]} x {c.block[2]} threads",
             f"LDS               {c.lds_bytes} bytes (static)",
             *([f"operands          {c.operands}"] if c.operands else []),
             f"main-loop trips   {c.main_loop_iterations}",
             f"kernargs          {c.kernarg_bytes} bytes:"]
    for name, off, size in c.kernargs:
        lines.append(f"  {off:4d}  {size}  {name}")
    return "\n".join(lines) + "\n"
