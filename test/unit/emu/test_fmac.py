"""``v_fmac_f32`` (``pipeline_mlir/emu/valu.py``): the destination accumulates the product
of the sources with one rounding, as LLVM's expansion of a 64-bit division by a value
known at launch uses it (``v_fmac_f32_e32 v0, 0x4f800000, v1``: IREE's linearised
workgroup loop of a padded dynamic-M-and-N kernel)."""

from __future__ import annotations

import numpy as np

from emu_helpers import run_snippet

A = np.linspace(-3.5, 7.25, 64, dtype=np.float32)
B = np.float32(1.0) + np.arange(64, dtype=np.float32) / np.float32(3.0)
C = np.float32(2.0) ** np.arange(-8, 56, dtype=np.float32) / np.float32(1e6)


def _setup(m):
    for r, v in ((4, A), (5, B), (6, C)):
        m.waves[0].V[r] = v.view(np.uint32)[None]


def _fused(a, b, c) -> np.ndarray:
    return (a.astype(np.float64) * b + c).astype(np.float32)


def test_fmac_accumulates_the_product_into_the_destination():
    got = run_snippet("v_fmac_f32_e32 v6, v4, v5\ns_endpgm",
                      setup=_setup).waves[0].V[6, 0].view(np.float32)
    assert np.array_equal(got, _fused(A, B, C))


def test_fmac_takes_a_literal_source():
    got = run_snippet("v_fmac_f32_e32 v6, 0x4f800000, v5\ns_endpgm",
                      setup=_setup).waves[0].V[6, 0].view(np.float32)
    assert np.array_equal(got, _fused(np.float32(2.0 ** 32), B, C))
    assert not np.array_equal(got, C), "the accumulator unchanged: the case cannot fail"
