"""The seven shipped kernels, executed from their code objects: C = A x B^T exactly, with no
finding, in every memory mode, for main loops of 0..4 iterations on 2 x 2 workgroups.
To keep the suite fast each kernel runs part of that matrix in the default run, every
iteration count in some mode: in eager mode, where memory waits for nothing, one odd and
one even count (1, 2: the loop run once, and its back edge taken), in late mode 0 and 3 and
in random mode 4; the long tier runs the rest of the earlier matrix (late 1, random 0 and
2: :data:`REST`), ``PIPELINE_EMU_FULL=1`` all of it (``benchmarks/bench_emulate.py``
does too)."""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

from kernel_builds import KERNEL_SPECS, build, pipeline_opt_hsaco
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.gemm import emulate_gemm, encode, kernarg_bytes
from steady_loop import counting_loops

MODES = ("eager", "late", "random:1")
FULL = os.environ.get("PIPELINE_EMU_FULL") == "1"
ITERATIONS = {"eager": (1, 2), "late": (0, 3), "random:1": (4,)}
#: the counts the long tier runs beyond :data:`ITERATIONS`, by mode
REST = {"late": (1,), "random:1": (0, 2)}


def iterations(key: str, mode: str):
    return range(5) if FULL else ITERATIONS[mode]


def _modes() -> list:
    """The ``mode, rest`` parameters of :func:`test_shipped_kernel_exact`: each mode (its
    :data:`ITERATIONS`), and in the long tier its :data:`REST` (none with the full matrix,
    which every mode's item runs)."""
    out = [pytest.param(mode, False, id=mode) for mode in MODES]
    for mode in () if FULL else REST:
        out.append(pytest.param(mode, True, id=f"{mode}-rest", marks=pytest.mark.long(
            f"counts {REST[mode]} in {mode} mode: every count runs in some mode of the "
            f"default run (test_every_iteration_count_runs_in_some_mode), the mode on "
            f"counts {ITERATIONS[mode]} in test_shipped_kernel_exact[KERNEL-{mode}]")))
    return out


@functools.lru_cache(maxsize=None)
def kernel(key: str, source: str = "hsaco"):
    b = build(key)
    return load_kernel(b.hsaco if source == "hsaco" else b.asm), b.kernel


def problem(gemm, iterations: int):
    g = gemm.geometry
    return 2 * g.BM, 2 * g.BN, 2 * g.BK * (iterations + 1)


@pytest.mark.parametrize("mode, rest", _modes())
@pytest.mark.parametrize("key", sorted(KERNEL_SPECS))
def test_shipped_kernel_exact(key, mode, rest):
    k, gemm = kernel(key)
    for it in REST[mode] if rest else iterations(key, mode):
        M, N, K = problem(gemm, it)
        seed = int(mode.partition(":")[2] or 0) + it
        with counting_loops() as loops:
            run = emulate_gemm(k, gemm, M, N, K, mode.partition(":")[0], seed, data_seed=it)
        assert run.exact, (it, run.summary(), run.first_bad)
        assert run.workgroups == 4 and run.max_error == 0.0
        assert np.array_equal(run.C, run.reference)
        assert loops.fewest() == it, loops.iterations()     # the main loop ran ``it`` times


def test_every_iteration_count_runs_in_some_mode():
    for key in KERNEL_SPECS:
        assert set().union(*(iterations(key, m) for m in MODES)) == set(range(5))


def test_an_unknown_mode_is_an_error():
    from pipeline_mlir.emu.errors import EmuError

    k, gemm = kernel("4wave-fp8-64")
    with pytest.raises(EmuError, match="emulation mode 'random:3'"):
        emulate_gemm(k, gemm, *problem(gemm, 0), mode="random:3")


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


def test_bf16_bytes_are_the_reference_casts_values():
    """``expect.encode`` (a launch's buffers) rounds to bf16 on the f32 bits in 32-bit
    arithmetic (about ten times faster than through float64): the same bytes as
    :func:`cast`'s values, ties to even, overflow to infinity, subnormals, signed zeros,
    and NaNs (quiet, signalling, and bit patterns whose rounding carries past 32 bits) as
    its float64 round trip leaves them."""
    from pipeline_mlir.emu.expect import cast
    from pipeline_mlir.emu.expect import encode as launch_bytes

    rng = np.random.default_rng(3)
    bits = np.concatenate([rng.integers(0, 1 << 32, 4096, dtype=np.uint64).astype(np.uint32),
                           np.array([0x3F808000, 0x3F818000, 0x7F7FFFFF, 0xFF7FFFFF, 0x00008000,
                                     0x80018000, 0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
                                     0x7FC00000, 0x7F800001, 0x7FBF8000, 0xFFFF8000, 0xFFFFFFFF],
                                    dtype=np.uint32)])
    with np.errstate(invalid="ignore"):
        v = bits.view(np.float32).astype(np.float64)
        want = (cast(v, "bf16").astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    assert launch_bytes(v, "bf16") == want.tobytes()


def test_inputs_and_kernel_arguments():
    assert encode(np.array([1.0, -2.0, 3.0]), "bf16") == bytes([0x80, 0x3F, 0x00, 0xC0, 0x40, 0x40])
    assert encode(np.array([1.0, 2.0, 3.0, -1.0]), "fp8") == bytes([0x38, 0x40, 0x44, 0xB8])
    assert encode(np.array([1.0, 2.0, 3.0, -1.0]), "fp8e5m2") == bytes([0x3C, 0x40, 0x42, 0xBC])
    args = kernarg_bytes({"A": 1 << 32, "B": 2 << 32, "C": 3 << 32}, {"A": 6, "B": 7, "C": 8},
                         2, 3, 4)
    assert len(args) == 144
    assert args[8:16] == (1 << 32).to_bytes(8, "little") and args[24:32] == (6).to_bytes(8,
                                                                                        "little")
    assert args[128:136] == (3).to_bytes(8, "little")


#: kernels beyond the shipped five (the f16 MFMA, a smaller tile), built by the driver
OTHER_SPECS = ["4wave{dtype=f16 BM=128 BN=128 BK=64}", "4wave{dtype=bf16 BM=64 BN=64 BK=64}"]


@pytest.mark.parametrize("spec", OTHER_SPECS)
def test_other_configurations_exact(spec):
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    gemm = gemm_kernel(parse_pipeline(spec))
    run = emulate_gemm(load_kernel(pipeline_opt_hsaco(spec)), gemm, *problem(gemm, 1), "late")
    assert run.exact
