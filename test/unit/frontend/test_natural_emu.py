"""Natural K-loops pipelined by the front end compute exactly: run on the emulator.

The example natural kernel (``examples/natural_kernel.py``: 4 waves, a 128x128 tile,
copies through a fat raw buffer, as IREE's kernels do) is pipelined with
``pipeline-opt --pipeline=4wave``, compiled to a code object and run on the emulator
(``pipeline_mlir.emu``) for the workgroup of C's first tile, memory completing as late as
the counters allow.  Small integer inputs make every product and sum exact, so the tile
must equal ``A x B^T``.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.emu.gemm import encode
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.machine import POISON_BYTE, GlobalMemory, Machine

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
from natural_kernel import kernel_text  # noqa: E402

K = 1024  # 32 K tiles: prologue, 15 main-loop iterations, epilogue
TILE = 128  # the example kernel's tile: rows of A and B, and of C, the first workgroup's


def first_tile(hsaco: bytes, dtype: str, mode: str, k: int = K,
               k_arg: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(C[:128, :128] as the kernel computed it, the exact reference); A and B have ``k``
    columns, of which the kernel multiplies ``k_arg`` (its index argument ``%K``, when it
    has one) or all."""
    kernel = load_kernel(hsaco)
    rng = np.random.default_rng(0)
    K = k
    # the first workgroup touches the first TILE rows of A, B and C: only they are memory
    # (the descriptors still say 4096: an access past them is an error of the emulator's)
    A = rng.integers(-3, 4, size=(TILE, K)).astype(np.float64)
    B = rng.integers(-3, 4, size=(TILE, K)).astype(np.float64)
    mem = GlobalMemory()
    kernargs = mem.add("kernargs", bytes(256))
    bases = {"A": mem.add("A", encode(A, dtype)), "B": mem.add("B", encode(B, dtype)),
             "C": mem.add("C", bytes([POISON_BYTE]) * (TILE * 4096 * 4))}
    shapes = {"A": (4096, K), "B": (4096, K), "C": (4096, 4096)}
    args = b"".join(struct.pack("<QQqqqqq", bases[n], bases[n], 0, *shapes[n], shapes[n][1], 1)
                    for n in "ABC")   # memref descriptors: pointers, offset, sizes, strides
    if k_arg is not None:
        args += struct.pack("<q", k_arg)
    mem.buffers[0][:len(args)] = np.frombuffer(args, dtype=np.uint8)
    Machine(kernel, mem, [0], 4, mode, 0, kernargs).run()
    C = mem.buffer("C").view(np.float32).reshape(TILE, 4096)[:, :TILE].astype(np.float64)
    used = K if k_arg is None else k_arg
    return C, A[:, :used] @ B[:, :used].T


@pytest.mark.parametrize("variant", [
    {}, {"swizzle": True}, {"func": "func", "lds": "alloc", "iv": "i32", "step": 2},
    {"dtype": "f16"}, {"layout": "kcols"},
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_pipelined_natural_kernel_is_exact(variant):
    # built once per session (test_instruction_coverage decodes the same code objects)
    hsaco = pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=K, **variant))
    C, ref = first_tile(hsaco, variant.get("dtype", "bf16"), "late")
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"
