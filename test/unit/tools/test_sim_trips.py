"""``pipeline-opt DISPATCH --simulate FILE.s --pipeline=SPEC --sim-trips=M,N,K``: the
assembly's main loop timed with the trip counts of its inner loops measured on the emulator
at that launch of the dispatch it was built from (``driver/measured_trips.py``, what
``benchmarks/bench_iree.py --ratios`` uses), and every way to get it wrong: one error each,
naming the flag, the file or the sizes.

The committed 4096^3 dispatch's own 4wave build has no inner loop: measured, it times as its
layout does, and the report says what was measured."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import one_error, run_cli, with_stdin
from build_cache import share_code_objects

from pipeline_mlir.driver import measured_trips
from pipeline_mlir.tools.pipeline_opt import main

DISPATCH = Path(__file__).parents[3] / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"
SIZES = "--sim-trips=4096,4096,4096"



@pytest.fixture(scope="module")
def asm(tmp_path_factory):
    """The dispatch's 4wave assembly (the run's code cache: the docs build the same)."""
    path = tmp_path_factory.mktemp("sim_trips") / "k.s"
    with share_code_objects(emits=("hsaco", "asm"), own_kernels=True):
        assert main(["--pipeline=4wave", str(DISPATCH), "--emit=asm", "-o", str(path)]) == 0
    return path


def _cycles(report: str) -> str:
    return re.search(r"achieved cycles/iteration\s+(\S+)\s+(\S+)", report).groups()


def test_measured_counts_time_the_loop_as_the_emulator_ran_it(capsys, asm, monkeypatch):
    """(The first 4000 instructions of the workgroup: enough iterations, a test's time.)"""
    monkeypatch.setattr(measured_trips, "MEASURE_LIMIT", 4000)
    code, out, err = run_cli(capsys, str(DISPATCH), f"--simulate={asm}", "--pipeline=4wave",
                          SIZES, "--report")
    assert code == 0, err
    assert re.search(r"note: trip counts measured on the emulator at M = 4096, N = 4096, "
                     r"K = 4096: every wave: trips \(no inner loop\), 0 block runs skipped, "
                     r"288 instructions \(\d+ of \d+ iterations\)", out), out
    code, plain, err = run_cli(capsys, f"--simulate={asm}", "--pipeline=4wave", "--report")
    assert code == 0 and _cycles(out) == _cycles(plain), err


@pytest.mark.parametrize("argv, fragment", [
    ([SIZES], "--sim-trips goes with --simulate"),
    (["--simulate", SIZES], "--sim-trips=4096,4096,4096 measures the trip counts of an "
                            "assembly's inner loops: give the assembly as --simulate=FILE"),
    (["--simulate=k.s", SIZES], "runs the assembly at a launch of the dispatch it was built "
                                "from: give that dispatch as INPUT"),
    (["--simulate=k.s", "--sim-trips=4096,4096"], "--sim-trips=4096,4096: expected three "
                                                  "integers M,N,K"),
    (["--simulate=k.s", "--sim-trips=0,4096,4096", "d.mlir"], "M = 0; the sizes are positive"),
    (["-", "--simulate=-", SIZES], "--simulate=- and INPUT - cannot both be standard input")])
def test_usage_errors_name_the_flag(capsys, argv, fragment):
    one_error(*run_cli(capsys, "--pipeline=4wave", *argv)[::2], fragment)


def test_a_schedule_dump_has_no_inner_loops_to_measure(capsys, tmp_path, monkeypatch):
    """... named as the file it is read from, standard input ``<stdin>``."""
    dump = tmp_path / "dump.txt"
    assert main(["--pipeline=pingpong", "-o", str(dump)]) == 0
    with_stdin(monkeypatch, dump.read_bytes())
    for given, name in ((str(dump), str(dump)), ("-", "<stdin>")):
        one_error(*run_cli(capsys, str(DISPATCH), f"--simulate={given}", "--pipeline=pingpong",
                           SIZES)[::2], f"--sim-trips measures the inner loops of an assembly; "
                                        f"{name} is a schedule dump")


def test_sizes_that_disagree_with_the_dispatch_are_refused(capsys, asm, monkeypatch):
    """A static dispatch's sizes are its own: a launch at others was run at those before,
    silently.  The error names the dispatch's file, standard input ``<stdin>``."""
    with_stdin(monkeypatch, DISPATCH.read_bytes())
    for given, name in ((str(DISPATCH), str(DISPATCH)), ("-", "<stdin>")):
        one_error(*run_cli(capsys, given, f"--simulate={asm}", "--pipeline=4wave",
                           "--sim-trips=512,4096,4096")[::2],
                  f"{name}: M = 512, N = 4096, K = 4096 disagree with the sizes compiled "
                  f"into kernel matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32: "
                  f"M=4096 N=4096 K=4096")
