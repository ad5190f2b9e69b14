"""The five shipped kernels, executed from their code objects: C = A x B^T exactly, with no
finding, in every memory mode, for main loops of 0..4 iterations on 2 x 2 workgroups."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from kernel_builds import KERNEL_SPECS, build
from pipeline_mlir.emu.codeobj import load_kernel
from pipeline_mlir.emu.gemm import emulate_gemm, encode, kernarg_bytes

MODES = ("eager", "late", "random:1")


@functools.lru_cache(maxsize=None)
def kernel(key: str, source: str = "hsaco"):
    b = build(key)
    return load_kernel(b.hsaco if source == "hsaco" else b.asm), b.kernel


def problem(gemm, iterations: int):
    g = gemm.geometry
    return 2 * g.BM, 2 * g.BN, 2 * g.BK * (iterations + 1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("key", sorted(KERNEL_SPECS))
def test_shipped_kernel_exact(key, mode):
    k, gemm = kernel(key)
    for it in range(5):
        M, N, K = problem(gemm, it)
        seed = int(mode.partition(":")[2] or 0) + it
        run = emulate_gemm(k, gemm, M, N, K, mode.partition(":")[0], seed, data_seed=it)
        assert run.exact, (it, run.summary(), run.first_bad)
        assert run.workgroups == 4 and run.max_error == 0.0
        assert np.array_equal(run.C, run.reference)


def test_assembly_input_runs_like_the_code_object():
    k_obj, gemm = kernel("4wave-fp8-64")
    k_asm, _ = kernel("4wave-fp8-64", "asm")
    M, N, K = problem(gemm, 1)
    a = emulate_gemm(k_obj, gemm, M, N, K, "late")
    b = emulate_gemm(k_asm, gemm, M, N, K, "late")
    assert a.exact and b.exact and a.instructions == b.instructions


def test_one_workgroup_at_a_time_gives_the_same_result(monkeypatch):
    from pipeline_mlir.emu import gemm as G

    k, gemm = kernel("4wave-bf16")
    M, N, K = problem(gemm, 1)
    batched = emulate_gemm(k, gemm, M, N, K)
    monkeypatch.setattr(G, "BATCH", 1)
    single = emulate_gemm(k, gemm, M, N, K)
    assert batched.exact and single.exact
    assert batched.instructions == single.instructions


def test_a_wrong_result_is_reported_not_raised():
    """The reference check can fail: run the BF16 kernel as if it were the f16 one."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    k, _ = kernel("4wave-bf16")
    f16 = gemm_kernel(parse_pipeline("4wave{dtype=f16 BM=128 BN=128 BK=64}"))
    run = emulate_gemm(k, f16, *problem(f16, 0))
    assert not run.exact and run.first_bad is not None and run.max_error > 0


def test_inputs_and_kernel_arguments():
    assert encode(np.array([1.0, -2.0, 3.0]), "bf16") == bytes([0x80, 0x3F, 0x00, 0xC0, 0x40, 0x40])
    assert encode(np.array([1.0, 2.0, 3.0, -1.0]), "fp8") == bytes([0x38, 0x40, 0x44, 0xB8])
    args = kernarg_bytes({"A": 1 << 32, "B": 2 << 32, "C": 3 << 32}, {"A": 6, "B": 7, "C": 8},
                         2, 3, 4)
    assert len(args) == 144
    assert args[8:16] == (1 << 32).to_bytes(8, "little") and args[24:32] == (6).to_bytes(8,
                                                                                        "little")
    assert args[128:136] == (3).to_bytes(8, "little")
