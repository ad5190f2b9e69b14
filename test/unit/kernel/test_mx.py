"""The numpy MX reference (OCP Microscaling Formats v1.0): element and scale values written
from the spec's tables, the block-scaled product against a loop over the definition, and
the exact random inputs."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.kernel import mx

#: the spec's FP4 (E2M1) values of codes 0..7 (sign bit 3), and E4M3 spot values
E2M1_SPEC = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def test_element_and_scale_values():
    assert list(mx.E2M1_VALUES[:8]) == E2M1_SPEC
    assert list(mx.E2M1_VALUES[8:]) == [-v for v in E2M1_SPEC]
    e4 = mx.E4M3_VALUES
    assert (e4[0x38], e4[0x40], e4[0x44], e4[0xB8], e4[0x7E], e4[0x01]) == \
        (1.0, 2.0, 3.0, -1.0, 448.0, 2.0 ** -9)
    assert np.isnan(e4[0x7F]) and np.isnan(e4[0xFF])
    s = mx.scale_values([127, 128, 0, 254, 255])
    assert list(s[:4]) == [1.0, 2.0, 2.0 ** -127, 2.0 ** 127] and np.isnan(s[4])


def test_reference_is_the_block_scaled_definition():
    rng = np.random.default_rng(3)
    M, N, K = 5, 7, 96
    ac, as_ = mx.random_mx_operands(rng, M, K, "e2m1")
    bc, bs = mx.random_mx_operands(rng, N, K, "e4m3")
    want = np.zeros((M, N))
    for i in range(M):
        for j in range(N):
            for k in range(K):
                want[i, j] += (mx.E2M1_VALUES[ac[i, k]] * 2.0 ** (int(as_[i, k // 32]) - 127) *
                               mx.E4M3_VALUES[bc[j, k]] * 2.0 ** (int(bs[j, k // 32]) - 127))
    got = mx.mx_reference_gemm(ac, as_, bc, bs, "e2m1", "e4m3")
    assert np.array_equal(got, want)
    assert np.array_equal(got.astype(np.float32).astype(np.float64), got)   # exact in f32


def test_pack_round_trip_and_encode():
    codes = np.arange(32, dtype=np.uint8).reshape(2, 16) % 16
    packed = mx.pack_e2m1(codes)
    assert packed[0, 0] == 0x10 and packed[0, 1] == 0x32
    assert np.array_equal(mx.unpack_e2m1(packed), codes)
    assert list(mx.encode([1.0, -6.0, 0.0, 0.5], "e2m1")) == [0x2, 0xF, 0x0, 0x1]


@pytest.mark.parametrize("call,match", [
    (lambda: mx.encode([2.5], "e2m1"), "not exactly representable"),
    (lambda: mx.element_values([3], "e3m2"), "unknown MX element format"),
    (lambda: mx.element_values([16], "e2m1"), "codes lie in 0..15"),
    (lambda: mx.scale_values([256]), "E8M0 scale codes"),
    (lambda: mx.dequantize(np.zeros((2, 64), np.uint8), np.zeros((2, 3), np.uint8), "e2m1"),
     "takes 2 x 2 scales"),
    (lambda: mx.random_mx_operands(np.random.default_rng(0), 2, 48, "e2m1"),
     "not a multiple of the MX block"),
    (lambda: mx.pack_e2m1(np.zeros((1, 3), np.uint8)), "pack in pairs"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()
