"""``pipeline-opt --pipeline=SPEC --tune``: table, chosen spec, -o, errors (in process)."""

from __future__ import annotations

import re

import pytest

from build_cache import share_code_objects
from cli_helpers import run_cli as run

SMALL = "--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}"


@pytest.fixture(autouse=True)
def _shared_builds():
    """Each candidate's kernel (a named schedule's own kernel, built as ``--emit=asm``; the
    chosen one written with ``-o``) is compiled once per run: the given spec is candidate 0
    of every search here, and the knobs' candidates recur between tests."""
    with share_code_objects(emits=("asm", "hsaco"), own_kernels=True):
        yield


def rows(out):
    """The table's rows: (index, change, measured, llvm, asm-measured, asm-llvm, busy,
    verdict); the spills column between asm-llvm and busy is checked and left out: none of
    these kernels spills (an evaluated one says 0, the others -)."""
    found = []
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0].isdigit():
            assert len(cells) == 9, line
            assert cells[6] == ("0" if cells[8] in ("ok", "chosen") else "-"), line
            found.append(cells[:6] + cells[7:])
    return found


def test_table_choice_outputs_and_determinism(capsys, tmp_path):
    asm, spec = tmp_path / "k.s", tmp_path / "spec.txt"
    argv = [SMALL, "--tune", "--tune-budget=3", "--tune-knobs=fences,lgkm_per_load_a=1:8",
            "--emit=asm", "-o", str(asm), f"--tune-spec={spec}"]
    rc, out, err = run(capsys, *argv)
    assert rc == 0 and err == ""
    table = rows(out)
    assert [r[0] for r in table] == ["0", "1", "2"]
    assert table[0][1] == "(the given spec)"
    # the refused candidate says why, and has no numbers
    refused = [r for r in table if r[7].startswith("refused:")]
    assert refused and all("does not match" in r[7] and r[2:6] == ["-"] * 4 for r in refused)
    ok = [r for r in table if r[7] in ("ok", "chosen")]
    assert ok and all(float(x) > 0 for r in ok for x in r[2:6])
    # the default objective: the built kernel's assembly (asm-measured, ties asm-llvm)
    assert "objective: asm-measured cycles per main-loop iteration of the built kernel's " \
           "assembly" in out
    best = min(ok, key=lambda r: (float(r[4]), float(r[5])))
    chosen = [r for r in table if r[7] == "chosen"]
    assert len(chosen) == 1 and (float(chosen[0][4]), float(chosen[0][5])) == \
        (float(best[4]), float(best[5]))
    assert float(chosen[0][4]) <= float(table[0][4])
    assert re.search(r"^gain over the given spec: asm-measured [\d.]+ -> [\d.]+ "
                     r"cycles/iteration \([+-][\d.]+% throughput\); asm-llvm ", out, re.M)
    chosen_spec = re.search(r"^chosen: #\d+ (.+)$", out, re.M).group(1)
    assert spec.read_text() == chosen_spec + "\n"
    assert asm.read_text().lstrip().startswith(".amdgcn_target")
    # same command, same table (every candidate built again, none taken from the run's store)
    from pipeline_mlir.driver.code_cache import sharing

    with sharing(None):
        rc2, out2, _ = run(capsys, *argv)
    assert rc2 == 0 and out2 == out


def test_other_objectives_minimise_their_table(capsys):
    rc, out, _ = run(capsys, SMALL, "--tune", "--tune-budget=2", "--tune-knobs=fences",
                     "--tune-objective=asm-llvm")
    assert rc == 0
    table = rows(out)
    best = min(table, key=lambda r: (float(r[5]), float(r[4])))
    assert [r for r in table if r[7] == "chosen"][0][5] == best[5]
    assert "objective: asm-llvm cycles per main-loop iteration of the built kernel's assembly" \
        in out
    rc, out, _ = run(capsys, SMALL, "--tune", "--tune-budget=2", "--tune-knobs=fences",
                     "--tune-objective=measured")
    assert rc == 0 and "objective: measured cycles per main-loop iteration of the schedule's" \
        in out
    assert "never chosen: a kernel slower than the given spec's on its assembly " \
           "(asm-measured)" in out
    table = rows(out)
    chosen = [r for r in table if r[7] == "chosen"][0]
    assert float(chosen[4]) <= float(table[0][4])
    eligible = [r for r in table if r[7] in ("ok", "chosen") and float(r[4]) <= float(table[0][4])]
    assert float(chosen[2]) == min(float(r[2]) for r in eligible)


def test_without_o_only_the_table_and_the_same_kernel_costs_no_budget(capsys):
    # fences=true is wrap_waits_with_sched_barrier=true here (its sched_barrier_mask=0xff
    # is for blocks with barriers after their MMA, which the 4-wave blocks have not): the
    # same kernel, which costs none of the budget of 3 (built with one left: with the budget
    # spent the search stops before a build)
    rc, out, err = run(capsys, SMALL, "--tune", "--tune-budget=3",
                       "--tune-knobs=wrap_waits_with_sched_barrier,fences")
    assert rc == 0 and err == ""
    table = rows(out)
    assert table[1][1] == "wrap_waits_with_sched_barrier=true" and table[1][4] != "-"
    assert (table[2][1], table[2][2:7], table[2][7]) == ("fences=true", ["-"] * 5,
                                                          "same kernel as #1")
    same = sum(r[7].startswith("same kernel as") for r in table)
    assert f"{len(table)} candidates, 2 built, simulated and timed (budget 3), {same} the " \
           f"same kernel as another, 0 refused; converged" in out


@pytest.mark.parametrize("argv,message", [
    (["--tune-budget=0"], "--tune-budget=0: must be a number of candidates >= 1"),
    (["--tune-budget=many"], "--tune-budget=many: must be a number of candidates >= 1"),
    (["--tune-knobs=bogus"], "unknown knob 'bogus'"),
    (["--tune-knobs=fences=maybe"], "fences"),
    (["--tune-objective=fast"], "--tune-objective=fast: choose measured, llvm, asm-measured, asm-llvm"),
    (["--emit=asm"], "give -o FILE"),
    (["--simulate"], "--tune cannot be combined with --simulate"),
    (["--emit=bogus", "-o", "never.s"], "unknown --emit kind 'bogus'"),
    (["--mcpu=gfx942"], "--mcpu=gfx942: unsupported processor"),
    (["--tune-size=8192,2000,8192"], "--tune-size=8192,2000,8192: kernel gemm_4wave_fp8_64x64x128: "
                                     "N = 2000 is not a multiple of the tile BN = 64"),
    (["--tune-size=8192,2048"], "--tune-size=8192,2048: expected three integers M,N,K"),
    (["--tune-knobs=loop_once"], "knob 'loop_once' narrows the kernel's launch contract: give "
                                 "--tune-size=M,N,K"),
    (["--tune-knobs=dma=dword", "--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128 "
      "vm_per_load_a=1}"], "knob 'dma=dword' is refused for"),
])
def test_bad_settings_are_one_line_errors(capsys, argv, message):
    rc, out, err = run(capsys, SMALL, "--tune", *argv)
    assert rc == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("pipeline-opt: error: ") and message in err


def test_tune_options_need_tune_and_a_kernel_pipeline(capsys):
    rc, _, err = run(capsys, SMALL, "--tune-budget=3")
    assert rc == 1 and err == "pipeline-opt: error: --tune-budget goes with --tune\n"
    rc, _, err = run(capsys, SMALL, "--tune-size=64,64,256")
    assert rc == 1 and err == "pipeline-opt: error: --tune-size goes with --tune\n"
    rc, _, err = run(capsys, "--pipeline=single-buffer", "--tune")
    assert rc == 1 and "no complete kernel to tune" in err and err.count("\n") == 1
    rc, _, err = run(capsys, "--tune")
    assert rc == 1 and "--tune needs --pipeline" in err


def test_tune_size_chooses_the_grid_order_with_the_device_model(capsys, tmp_path):
    spec = tmp_path / "spec.txt"
    # 19 tile columns: row-major gives each XCD a ragged set of tiles; the device model
    # finds the XCD renumbering with bands of 8 tile rows needs the least L2 fill
    rc, out, err = run(capsys, SMALL, "--tune", "--tune-budget=1", "--tune-size=8192,1216,8192",
                       f"--tune-spec={spec}")
    assert rc == 0, err
    assert "grid order for M=8192 N=1216 K=8192 (device model" in out
    chosen = [line for line in out.split("grid order for")[1].splitlines() if line.endswith("  chosen")]
    assert len(chosen) == 1 and chosen[0].startswith("XCD-contiguous ids, bands of 8 tile rows")
    assert spec.read_text().strip() == "4wave{dtype=fp8 BM=64 BN=64 BK=128 xcd_remap=true group_m=8}"
    # 32 tile columns: row-major already gives each XCD 8 x 4 tiles; the spec stays as given
    rc, out, err = run(capsys, SMALL, "--tune", "--tune-budget=1", "--tune-size=8192,2048,1024",
                       f"--tune-spec={spec}")
    assert rc == 0 and spec.read_text().strip() == "4wave{dtype=fp8 BM=64 BN=64 BK=128}"


def test_a_size_the_loop_once_kernel_cannot_run_refuses_it_before_its_build(capsys):
    # K = 256 < 4*BK: the loop_once candidate is refused by the launch check, unbuilt, and
    # costs none of the budget of 1
    rc, out, err = run(capsys, SMALL, "--tune", "--tune-budget=1", "--tune-knobs=loop_once",
                       "--tune-size=4096,4096,256")
    assert rc == 0, err
    table = rows(out)
    assert [r[1] for r in table] == ["(the given spec)", "loop_once=true"]
    assert table[1][7].startswith("refused: --tune-size=4096,4096,256: kernel "
                                  "gemm_4wave_fp8_64x64x128: K = 256 is too small")
    assert "search: 2 candidates, 1 built, simulated and timed (budget 1), 0 the same kernel " \
           "as another, 1 refused; converged" in out
    assert "chosen with its grid order: 4wave{dtype=fp8 BM=64 BN=64 BK=128}\n" in out


def test_every_candidate_refused_exits_1_after_the_table(capsys, tmp_path):
    out_file = tmp_path / "never.s"
    rc, out, err = run(capsys, "--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128 lgkm_per_load_a=8}",
                       "--tune", "--tune-budget=2", "--tune-knobs=fences", "--emit=asm", "-o",
                       str(out_file))
    assert rc == 1 and "chosen: none" in out
    assert err == "pipeline-opt: error: --tune: every candidate was refused (the table gives " \
                  "the reasons)\n"
    assert not out_file.exists()


def test_a_kernel_that_does_not_build_is_refused_with_its_diagnostic(monkeypatch):
    from pipeline_mlir.driver import api
    from pipeline_mlir.driver.tune import TuneOptions, tune
    from pipeline_mlir.errors import PipelineError

    class NotBuilt:
        def checked_output(self):
            raise PipelineError("pipeline-opt: error: pipeline 'x': sched-fix-hazards: made up")

    monkeypatch.setattr(api, "compile", lambda options: NotBuilt())
    result = tune(TuneOptions(SMALL.removeprefix("--pipeline="), "fences", 1))
    table, chosen = result.table, result.chosen
    assert chosen is None
    assert "  refused: kernel build: pipeline 'x': sched-fix-hazards: made up\n" in table


def test_progress_counts_what_the_budget_counts(monkeypatch):
    """What --tune shows on a terminal: candidates evaluated / budget while each is built."""
    from pipeline_mlir.driver import api
    from pipeline_mlir.driver.tune import TuneOptions, tune
    from pipeline_mlir.errors import PipelineError

    class NotBuilt:
        def checked_output(self):
            raise PipelineError("made up")

    monkeypatch.setattr(api, "compile", lambda options: NotBuilt())
    seen = []
    result = tune(TuneOptions(SMALL.removeprefix("--pipeline="), "fences", 2,
                              progress=lambda *a: seen.append(a)))
    assert result.chosen is None
    assert seen[:2] == [(0, 2, "building candidate 1"), (1, 2, "building candidate 2")]


def test_progress_is_quiet_unless_stderr_is_a_terminal():
    import io

    from pipeline_mlir.tools.progress import Progress

    quiet = io.StringIO()
    with Progress("work", quiet) as p:
        p(1, 2)
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    with Progress("work", shown, enabled=True) as p:
        p(1, 2, "building candidate 1")
        p(2, 2)
    assert shown.getvalue() == ("\rwork: 1/2 building candidate 1\x1b[K\rwork: 2/2\x1b[K"
                                "\r\x1b[K")
