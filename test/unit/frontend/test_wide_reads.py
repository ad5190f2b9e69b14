"""Fragment reads wider than one swizzle chunk split (``pipeline_mlir/frontend/wide_reads.py``).

At IREE's prefetch point an fp8 16x16x128 operand is one 32-byte ``vector.transfer_read``.
Of an XOR-swizzled buffer (IREE's 8-wave fp8 kernel, ``xor_shuffle<128, 16>``) it is split
into two 16-byte reads; of an unswizzled one (IREE's default fp8 kernel, its register copies
made DMA into a dense tile) it is left whole.  Kernels generated with ``iree-compile``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.frontend import natural as N
from pipeline_mlir.dialect.bindings import ir, new_context

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

KERNELS = {"swizzled": G.EIGHT_WAVE["matmul_fp8_abt_256x256_8wave"],
           "dense": dict(dtype="fp8", m=2048, n=2048, k=1024)}


def _read_widths(kernel: str) -> set:
    """The element counts of the analysed loop's fragment reads."""
    text = G.prefetch_point(G.matmul_source(**KERNELS[kernel]))
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        (loop,) = N.find_natural_loops(m.operation)
        an = N.analyse_loop(loop)
        return {a.elements for a in an.scan.reads}


@pytest.mark.parametrize("kernel, widths", [("swizzled", {16}), ("dense", {32})])
def test_only_reads_of_a_swizzled_buffer_are_split(kernel, widths):
    assert _read_widths(kernel) == widths
