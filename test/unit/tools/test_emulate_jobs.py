"""``pipeline-opt --emulate-jobs=N``: the workgroups spread over N processes give the same
summary and the same findings as one; bad values are one usage error; the progress bar."""

from __future__ import annotations

import io
import re

import pytest

from cli_helpers import run_cli_shared
from kernel_builds import build

SPEC = "4wave{dtype=fp8 BM=64 BN=64 BK=128}"
#: 64 workgroups: four batches of 16, two per worker process
SIZES = "--emulate=512,512,512"


run = run_cli_shared  # each kernel built once per run


def untimed(summary: str) -> str:
    return re.sub(r" in [\d.]+ s \([\d,]+ instructions/s\)", "", summary)


def test_one_or_two_processes_print_the_same_summary(capsys):
    outs = []
    for jobs in ("1", "2"):
        rc, out, err = run(capsys, f"--pipeline={SPEC}", SIZES, "--emulate-mode=random:3",
                           f"--emulate-jobs={jobs}")
        assert rc == 0 and err == "", err
        outs.append(untimed(out))
    assert outs[0] == outs[1] and ": exact, max error 0, 64 workgroups x 4 waves, " in outs[0]


def test_a_finding_is_reported_the_same_with_two_processes(capsys, tmp_path):
    lines = build("4wave-fp8-64").asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln)
    at = next(i for i in range(start, len(lines)) if lines[i].strip() == "s_barrier")
    (tmp_path / "racy.s").write_text("\n".join(lines[:at] + lines[at + 1:]))
    errs = []
    for jobs in ("1", "2"):
        rc, out, err = run(capsys, str(tmp_path / "racy.s"), f"--pipeline={SPEC}",
                           "--emulate=512,512,768", "--emulate-mode=late",
                           f"--emulate-jobs={jobs}")
        assert rc == 1 and out == ""
        errs.append(err)
    assert errs[0] == errs[1] and "lds-race" in errs[0]


@pytest.mark.parametrize("argv, message", [
    ([f"--pipeline={SPEC}", SIZES, "--emulate-jobs=0"], "--emulate-jobs=0: use at least one "
                                                        "process"),
    ([f"--pipeline={SPEC}", SIZES, "--emulate-jobs=-2"], "--emulate-jobs=-2: use at least one "
                                                         "process"),
    ([f"--pipeline={SPEC}", SIZES, "--emulate-jobs=1000000"], "--emulate-jobs=1000000: at "
                                                              "most "),
    ([f"--pipeline={SPEC}", SIZES, "--emulate-jobs=two"], "expected an integer, got 'two'"),
    ([f"--pipeline={SPEC}", "--emit=asm", "--emulate-jobs=2"], "--emulate-jobs goes with "
                                                               "--emulate"),
])
def test_bad_jobs_are_one_usage_error(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc != 0 and out == "" and message in err and "Traceback" not in err


def test_the_most_jobs_is_four_per_cpu(capsys, monkeypatch):
    """The limit (``JOBS_PER_CPU`` per CPU the process may run on), at its boundary; the
    same check for a caller of the driver."""
    from pipeline_mlir.driver import emulate as E
    from pipeline_mlir.driver.base import UsageError
    from pipeline_mlir.emu import pool

    monkeypatch.setattr(pool, "default_jobs", lambda: 3)
    E.check_jobs(12)
    with pytest.raises(UsageError, match=r"--emulate-jobs=13: at most 12 processes \(4 per "
                                         r"CPU this process may run on, 3 here"):
        E.check_jobs(13)
    with pytest.raises(UsageError, match="at most 12"):
        E.EmulateOptions(None, jobs=13).processes()


def test_the_emulate_progress_line_has_a_bar():
    from pipeline_mlir.tools.progress import BAR, Progress

    shown = io.StringIO()
    with Progress("pipeline-opt --emulate: workgroups run", shown, enabled=True,
                  bar=True) as p:
        p(0, 4)
        p(1, 4)
        p(4, 4)
    half = "#" * (BAR // 4) + "." * (BAR - BAR // 4)
    assert shown.getvalue() == (
        f"\rpipeline-opt --emulate: workgroups run: [{'.' * BAR}] 0/4\x1b[K"
        f"\rpipeline-opt --emulate: workgroups run: [{half}] 1/4\x1b[K"
        f"\rpipeline-opt --emulate: workgroups run: [{'#' * BAR}] 4/4\x1b[K\r\x1b[K")
