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
from steady_loop import assert_short, assert_steady, counting_loops

FP8_256 = "4wave{dtype=mxfp8 BM=256 BN=256 BK=128 loop_once=true}"
PLAIN_256 = "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}"


def kernel(spec: str):
    return gemm_kernel(parse_pipeline(spec))


@pytest.mark.parametrize("spec,trips", [
    (FP8_256, 1),
    (PLAIN_256, 0),
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
    assert check_launch(kernel(PLAIN_256), 256, 256,
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
    plain = mx_kernel_mlir(kernel(PLAIN_256))
    assert "%kleast" not in plain and "mbcnt" not in plain and "%c512 : i32" not in plain


def test_the_simulator_runs_no_zero_trip_loop():
    schedule = parse_pipeline(FP8_256)
    shape = kernel_shape(schedule)
    res = simulate(schedule.compile(), shape, range(0, 3))
    assert [r.iterations for r in res.runs] == [1, 2]


def test_the_compiled_kernel_has_no_zero_trip_path_and_no_spill():
    once, zero = build("4wave-mxfp8-256-once"), build("4wave-mxfp8-256")
    assert ".vgpr_spill_count: 0" in once.asm and "scratch_" not in once.asm
    # the launch trap's branch and the loop's back edge; the zero-trip kernel adds the
    # loop's guard and its fence
    assert once.asm.count("s_cbranch") == 2 < zero.asm.count("s_cbranch")
    # without the option the kernel spills nothing either (the C offset crosses the loop
    # in one VGPR: grid_mlir.c_lane_base); what the option removes is the zero-trip path
    assert ".vgpr_spill_count: 0" in zero.asm


@pytest.mark.parametrize("key,M,N,K,mode,seed", [
    ("4wave-mxfp8-256-once", 256, 256, 512, "late", 0),   # the smallest K: one iteration
    pytest.param("4wave-mxfp8-256-once", 256, 256, 512, "random", 1, marks=pytest.mark.long(
        "an extra mode at the smallest K, whose late run is [4wave-mxfp8-256-once-256-256-512-"
        "late-0]; the kernel runs random at [4wave-mxfp8-256-once-256-256-768-random-2]")),
    ("4wave-mxfp8-256-once", 256, 256, 768, "random", 2),
    # without the option: its zero-trip path, and a loop whose K position is cast from
    # its 32-bit counter (lowering/loop_i32.py)
    ("4wave-mxfp8-256", 256, 256, 256, "late", 3),
    ("4wave-mxfp8-256", 256, 256, 768, "random", 4),
])
def test_the_kernel_is_exact_from_the_smallest_allowed_k(key, M, N, K, mode, seed):
    b = build(key)
    with counting_loops() as loops:
        run = emulate_gemm(load_kernel(b.hsaco), b.kernel, M, N, K, mode, seed)
    assert run.exact and run.max_error == 0.0, run.summary()
    assert not run.findings
    tiles = K // b.kernel.geometry.BK
    if tiles >= 6:          # the main loop twice (the prologue and the drain: 2 K tiles)
        assert_steady(loops)
    else:                   # the point: the smallest K (one iteration), the zero-trip path
        assert_short(loops, tiles // 2 - 1, "the smallest K each kernel takes")


def test_the_emulator_refuses_the_zero_trip_launch():
    b = build("4wave-mxfp8-256-once")
    with pytest.raises(LaunchError, match="K = 256 is too small"):
        emulate_gemm(load_kernel(b.hsaco), b.kernel, 256, 256, 256, "late", 0)


# -- the front end: a natural loop pipelined with loop_once -------------------------------

BF16_ONCE = "4wave{dtype=bf16 BM=128 BN=128 BK=64 loop_once=true}"


def _natural(spec: str) -> str:
    from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir

    return natural_kernel_mlir(kernel(spec))


def _pipelined(tmp_path, text: str, spec: str, capsys) -> tuple[int, str, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    code = main([str(src), f"--pipeline={spec}", "--emit=mlir"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_two_trip_loop_is_refused_at_the_loop(tmp_path, capsys):
    # the natural loop bounded by one pair of K tiles: 2 iterations, none for the main loop
    text = _natural("4wave").replace("scf.for %k = %k0 to %kend", "scf.for %k = %k0 to %kpair")
    code, out, err = _pipelined(tmp_path, text, BF16_ONCE, capsys)
    assert code == 1 and out == "", err
    assert re.search(r"k\.mlir:\d+:\d+: error: sched-adopt-loop: 'scf\.for' op runs 2 "
                     r"iteration\(s\); .* needs at least 4 \(or give loop_once=false\)", err)
    code, _, err = _pipelined(tmp_path, text, "4wave", capsys)
    assert code == 0, err                        # without the option it is a kernel


def test_a_loop_not_shown_to_run_twice_traps_below_two_pairs(tmp_path, capsys):
    # the plain kernel's bound (at least one pair) does not show two: a trap guards it
    code, out, _ = _pipelined(tmp_path, _natural("4wave"), BF16_ONCE, capsys)
    assert code == 0 and out.count("llvm.intr.trap") == 2
    assert re.search(r"%(\d+) = arith\.muli %\w+, %c2\w* : index\n\s+%\d+ = arith\.cmpi slt, "
                     r"%\w+, %\1 : index", out)
    # the loop_once kernel's own bound shows it: only the launch check traps
    code, out, _ = _pipelined(tmp_path, _natural(BF16_ONCE), BF16_ONCE, capsys)
    assert code == 0 and out.count("llvm.intr.trap") == 1


def test_a_natural_loop_once_kernel_is_exact_at_its_smallest_k():
    from kernel_builds import pipeline_opt_hsaco

    k = kernel(BF16_ONCE)
    assert k.min_k == 256
    with counting_loops() as loops:
        run = emulate_gemm(load_kernel(pipeline_opt_hsaco(BF16_ONCE)), k, 128, 128, 256,
                           "late", 0)
    assert run.exact and not run.findings, run.summary()
    assert_short(loops, 1, "the smallest K: the loop's one iteration")
