"""``4wave``'s ``loop_once``: a kernel whose main loop runs at least once (``K >= 4*BK``).

The MXFP8 256x256 kernel has it by default: without a zero-trip path LLVM gives its
epilogue no accumulators of its own, and the kernel compiles with 0 spills
(``docs/kernels.md``, the MX section).  The launch contract, the in-kernel trap, the
plan (no zero-trip fence), the simulator (no zero-trip run), the compiled kernel and the
emulator at the smallest K the contract allows."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.launch import LaunchError, check_launch
from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir
from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.trace import kernel_shape
from pipeline_mlir.tools.pipeline_opt import main

FP8_256 = "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}"


def kernel(spec: str):
    return gemm_kernel(parse_pipeline(spec))


@pytest.mark.parametrize("spec,trips", [
    (FP8_256, 1),
    (FP8_256[:-1] + " loop_once=false}", 0),
    ("4wave{dtype=mxfp4 BM=256 BN=256 BK=128}", 0),
    ("4wave{dtype=mxfp8 BM=128 BN=128 BK=128}", 0),
    ("4wave{dtype=bf16 BM=128 BN=128 BK=64 loop_once=true}", 1),
    ("pingpong", 0),
])
def test_the_default_and_the_option(spec, trips):
    k = kernel(spec)
    assert k.shape.min_trips == trips
    assert k.min_k == 2 * k.geometry.BK * (1 + trips)
    fenced = any(p.kind == ZERO_TRIP_FENCE for p in k.plan(k.schedule.compile()).parts)
    assert fenced == (spec.startswith("4wave") and not trips)


def test_the_launch_contract_refuses_one_pair_of_k_tiles():
    k = kernel(FP8_256)
    with pytest.raises(LaunchError, match=r"kernel gemm_4wave_mxfp8_256x256x128: K = 256 is "
                                          r"too small: .* K >= 4\*BK = 512 .*pad K with zeros "
                                          r"to 512"):
        check_launch(k, 256, 256, 256)
    assert check_launch(k, 256, 256, 512).main_loop_iterations == 1
    # without the option the same kernel takes K = 2*BK (zero trips)
    assert check_launch(kernel(FP8_256[:-1] + " loop_once=false}"), 256, 256,
                        256).main_loop_iterations == 0


def test_the_cli_refuses_the_launch_in_one_line(capsys):
    code = main([f"--pipeline={FP8_256}", "--launch=256,256,256"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "K = 256 is too small" in err and "4*BK = 512" in err


def test_the_kernel_traps_below_and_bounds_the_loop_at_two_pairs():
    text = mx_kernel_mlir(kernel(FP8_256))
    assert re.search(r"%k_bad1 = arith\.cmpi ult, %Ki, %c512 : i32", text)
    assert "%kleast = arith.constant 2 : index" in text
    assert "%kend = arith.muli %npairs, %kstep overflow<nsw, nuw> : index" in text
    # the C stores' lane terms, recomputed after the loop
    assert "rocdl.mbcnt.hi" in text and "%ccol1 = arith.addi %ccol0, %sl16" in text
    plain = mx_kernel_mlir(kernel(FP8_256[:-1] + " loop_once=false}"))
    assert "%kleast" not in plain and "mbcnt" not in plain and "%c512 : i32" not in plain


def test_the_simulator_runs_no_zero_trip_loop():
    schedule = parse_pipeline(FP8_256)
    shape = kernel_shape(schedule)
    res = simulate(schedule.compile(), shape, range(0, 3))
    assert [r.iterations for r in res.runs] == [1, 2]


def test_the_compiled_kernel_has_no_zero_trip_path_and_no_spill():
    once, zero = build("4wave-mxfp8-256"), build("4wave-mxfp8-256-zero-trip")
    assert ".vgpr_spill_count: 0" in once.asm and "scratch_" not in once.asm
    # the launch trap's branch and the loop's back edge; the zero-trip kernel adds the
    # loop's guard and its fence
    assert once.asm.count("s_cbranch") == 2 < zero.asm.count("s_cbranch")
    assert ".vgpr_spill_count: 0" not in zero.asm     # what the option fixes


@pytest.mark.parametrize("M,N,K,mode,seed", [
    (256, 256, 512, "late", 0),          # the smallest K: one main-loop iteration
    (256, 256, 512, "random", 1),
    (256, 256, 768, "random", 2),
])
def test_the_kernel_is_exact_from_the_smallest_allowed_k(M, N, K, mode, seed):
    b = build("4wave-mxfp8-256")
    run = emulate_gemm(load_kernel(b.hsaco), b.kernel, M, N, K, mode, seed)
    assert run.exact and run.max_error == 0.0, run.summary()
    assert not run.findings


def test_the_emulator_refuses_the_zero_trip_launch():
    b = build("4wave-mxfp8-256")
    with pytest.raises(LaunchError, match="K = 256 is too small"):
        emulate_gemm(load_kernel(b.hsaco), b.kernel, 256, 256, 256, "late", 0)
