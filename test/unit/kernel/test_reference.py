"""The numpy reference of the GEMM kernels and the schedule's data flow against it."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.reference import (EmulationError, check_data_flow, emulate_kernel,
                                          quantize, reference_gemm)
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.schedule.types import KOffsetKind, OpRole

SPECS = ["4wave{dtype=bf16 BM=128 BN=128 BK=64}", "4wave{dtype=f16}",
         "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
         "pingpong{is_fp8=false}", "pingpong{is_fp8=true}"]
_CACHE = {}


def setup(spec):
    if spec not in _CACHE:
        k = gemm_kernel(parse_pipeline(spec))
        _CACHE[spec] = (k, k.schedule.compile())
    return _CACHE[spec]


def inputs(rng, rows, K, dtype):
    # small integers are exact in every element type, so the comparison is exact
    return rng.integers(-4, 5, (rows, K)).astype(np.float64)


@pytest.mark.parametrize("spec", SPECS)
def test_schedule_data_flow_matches_the_reference(spec):
    """For 0..6 main-loop iterations: the emulated kernel equals A x B^T, and every
    accumulator consumed each K tile exactly once (prologue, kernel, epilogue)."""
    k, compiled = setup(spec)
    g = k.geometry
    rng = np.random.default_rng(7)
    for n in range(7):
        K = (n + 1) * 2 * g.BK
        A, B = inputs(rng, g.BM, K, g.dtype), inputs(rng, g.BN, K, g.dtype)
        C, uses = emulate_kernel(k, compiled, A, B)
        assert np.array_equal(C, reference_gemm(A, B, g.dtype)), (spec, n)
        assert check_data_flow(uses, K // g.BK) == []
        # the prologue computes nothing; each main-loop iteration computes tiles 2i, 2i+1
        assert not [u for u in uses if u.phase == "prologue"]
        for i in range(n):
            assert sorted({u.k_tile for u in uses if u.phase == "kernel" and u.iteration == i}
                          ) == [2 * i, 2 * i + 1]
        assert sorted({u.k_tile for u in uses if u.phase == "epilogue"}) == [2 * n, 2 * n + 1]


def test_several_workgroup_tiles():
    k, compiled = setup("4wave{dtype=fp8 BM=64 BN=64 BK=128}")
    rng = np.random.default_rng(3)
    A, B = inputs(rng, 128, 512, "fp8"), inputs(rng, 192, 512, "fp8")
    C, _ = emulate_kernel(k, compiled, A, B)
    assert np.array_equal(C, reference_gemm(A, B, "fp8"))


def _mutated(compiled, phase, pick, change):
    c = copy.copy(compiled)
    entries = list(getattr(c, phase))
    i = next(i for i, e in enumerate(entries) if pick(e.op))
    e = entries[i]
    entries[i] = type(e)(change(e.op), e.time_slot, e.phase, e.is_prefetch)
    setattr(c, phase, entries)
    return c


def test_a_wrong_k_offset_is_caught():
    k, compiled = setup("4wave{dtype=bf16 BM=128 BN=128 BK=64}")
    bad = _mutated(compiled, "kernel", lambda o: o.role == OpRole.GLOBAL_LOAD
                   and o.k_offset == KOffsetKind.K1, lambda o: o.with_(k_offset=KOffsetKind.K0))
    rng = np.random.default_rng(1)
    A, B = inputs(rng, 128, 384, "bf16"), inputs(rng, 128, 384, "bf16")
    with pytest.raises(EmulationError, match=r"multiplies A of K tile \d+ with B of K tile"):
        emulate_kernel(k, bad, A, B)


def test_a_load_into_the_wrong_subtile_is_caught():
    k, compiled = setup("pingpong{is_fp8=false}")
    bad = _mutated(compiled, "prologue", lambda o: o.role == OpRole.GLOBAL_LOAD and
                   o.subtile == 1 and o.channel == 0, lambda o: o.with_(subtile=0))
    rng = np.random.default_rng(1)
    A, B = inputs(rng, 256, 128, "bf16"), inputs(rng, 256, 128, "bf16")
    with pytest.raises(EmulationError, match="empty LDS slot"):
        emulate_kernel(k, bad, A, B)


def test_a_dropped_mma_breaks_the_data_flow():
    k, compiled = setup("4wave{dtype=fp8 BM=64 BN=64 BK=128}")
    c = copy.copy(compiled)
    drop = next(i for i, e in enumerate(c.epilogue) if e.op.role == OpRole.COMPUTE)
    c.epilogue = c.epilogue[:drop] + c.epilogue[drop + 1:]
    rng = np.random.default_rng(2)
    A, B = inputs(rng, 64, 256, "fp8"), inputs(rng, 64, 256, "fp8")
    C, uses = emulate_kernel(k, c, A, B)
    assert not np.array_equal(C, reference_gemm(A, B, "fp8"))
    assert any("received K tiles" in p for p in check_data_flow(uses, 2))


def test_quantize():
    # bf16: 8 significant bits, ties to even
    assert quantize(1 + 2**-8, "bf16") == 1.0
    assert quantize(1 + 3 * 2**-8, "bf16") == 1 + 2**-6
    assert quantize(1.0078125, "bf16") == 1.0078125
    assert quantize(0.1, "f16") == np.float16(0.1)
    # fp8 E4M3: 3 mantissa bits, max 448, subnormal step 2^-9
    assert quantize([1.0625, 1.1875, 448.0, 2**-9, 3 * 2**-10], "fp8").tolist() == \
        [1.0, 1.25, 448.0, 2**-9, 2**-8]
    assert quantize(-17.0, "fp8") == -16.0
    with pytest.raises(ValueError, match="outside the FP8 E4M3 range"):
        quantize(500.0, "fp8")
    # f32 (IREE's f32 matmuls): rounded to f32
    assert quantize(1 + 2**-30, "f32") == 1.0 and quantize(0.1, "f32") == np.float32(0.1)
    with pytest.raises(ValueError, match=r"unknown dtype 'f64' \(bf16, f16, fp8, i8, f32\)"):
        quantize(1.0, "f64")
