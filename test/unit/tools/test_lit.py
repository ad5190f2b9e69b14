"""Run the lit/FileCheck suite (``test/lit``) as part of ``pytest``: one item per lit file.

The files are the ones lit itself discovers (``lit --show-tests test/lit``, once per session).
Each item runs lit on its one file in a child process of its own session, so a file that
hangs is killed with everything it started after ``PIPELINE_LIT_TIMEOUT`` seconds (default
:data:`TIMEOUT`) and the other files still run. That lit is forked from this worker's zygote
of lit (``zygote.py``), which imported it once: about 0.03 s of CPU besides the file's RUN
lines where a lit started afresh took 0.13 s, and each RUN line's ``pipeline-opt`` is forked
from the worker's zygote of the tool (~0.3 s of CPU as its own process, ~0.1 s forked), so
per-file items cost little over one lit run of the whole suite, and no single item needs
minutes.

lit runs with the interpreter running pytest, so ``test/lit/lit.cfg.py`` finds the
``pipeline-opt`` script of the same environment, and LLVM's ``FileCheck`` where it is on
``PATH``, else that environment's ``filecheck`` (``FILECHECK=/path/to/FileCheck`` names
another). A failing item
shows the failing RUN line (as written and as lit ran it) and what its commands printed:
FileCheck's diagnostics.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import zygote
import pytest

LIT_DIR = Path(__file__).resolve().parents[2] / "lit"
BINDIR = Path(sys.executable).parent
#: seconds one lit file may take: the slowest needs ~15 s on an idle 2-core machine, this
#: leaves room for a machine loaded several times over
TIMEOUT = float(os.environ.get("PIPELINE_LIT_TIMEOUT", "180"))
_LIT_MAIN = "import sys; from lit.main import main; sys.exit(main())"
#: lit's entry point and what its zygote imports first (``zygote.py``)
LIT_ENTRY, LIT_PRELOAD = zygote.LIT_ENTRY, zygote.LIT_PRELOAD


def _skip_reason() -> str | None:
    try:
        importlib.import_module("lit.main")
    except ImportError:
        return "lit is not installed (pip install -e '.[test]')"
    try:
        importlib.import_module("pipeline_mlir.tools.pipeline_opt")
    except ImportError:
        return "pipeline_mlir is not installed (pip install -e .): lit runs the pipeline-opt tool"
    checker = os.environ.get("FILECHECK")
    if checker:
        if not (Path(checker).exists() or shutil.which(checker)):
            return f"FILECHECK={checker} does not exist"
    elif not ((BINDIR / "filecheck").exists() or
              any(shutil.which(name) for name in ("FileCheck", "FileCheck-22", "filecheck"))):
        return "no FileCheck: install filecheck (pip install -e '.[test]') or set FILECHECK"
    return None


def _run_lit(args: list[str], *, python: str = sys.executable, env: dict | None = None,
             timeout: float = TIMEOUT) -> tuple[int | None, str]:
    """(exit status, stdout and stderr) of ``lit ARGS`` run by ``python``; the status is None
    when lit did not finish within ``timeout`` seconds (it and its children are then killed).
    Run by this process's Python, lit is forked from a zygote that imported it once (as
    the RUN lines' ``pipeline-opt``): a process of its own all the same, without the ~0.1 s
    of CPU each lit process spent starting Python and importing lit."""
    launcher = zygote.launcher(LIT_ENTRY, "", LIT_PRELOAD) if python == sys.executable \
        else None
    command = [launcher, "lit"] if launcher else [python, "-c", _LIT_MAIN]
    proc = subprocess.Popen([*command, *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    return proc.returncode, out


def _discover() -> tuple[list[str], str | None]:
    """(the lit files under test/lit relative to it, as lit discovers them; an error message
    when discovery failed)."""
    rc, out = _run_lit(["--show-tests", str(LIT_DIR)])
    names = re.findall(r"^\s+pipeline-opt :: (\S+)$", out, re.MULTILINE)
    if rc != 0 or not names:
        return [], f"lit --show-tests {LIT_DIR} failed (exit status {rc}):\n{out}"
    return names, None


_SKIP = _skip_reason()
_FILES, _DISCOVERY_ERROR = ([], None) if _SKIP else _discover()


def _failure_report(name: str, out: str) -> str:
    """The failing RUN line of lit's ``-v`` report on one file: the line as the file writes
    it, the command lit ran and the commands' output (FileCheck's diagnostics)."""
    blocks = re.split(r"^# RUN: at line (\d+)\n", out, flags=re.MULTILINE)
    if len(blocks) < 3:
        return out
    line, block = int(blocks[-2]), blocks[-1]
    block = re.split(r"^--\n\n\*{20}", block, maxsplit=1, flags=re.MULTILINE)[0].rstrip()
    source = (LIT_DIR / name).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    passed = len(blocks) // 2 - 1
    return (f"{name}:{line}: this RUN line failed ({passed} RUN line(s) before it passed)\n"
            f"  {source}\nlit ran:\n{block}")


def _forked_env() -> dict | None:
    """The environment of lit on one file: its ``pipeline-opt`` runs forked from this
    worker's zygote, which imported the tool once (``zygote.py``), where it can be."""
    launcher = zygote.launcher()
    if launcher is None:
        return None
    checker = zygote.filecheck_launcher()
    return {**os.environ, "PIPELINE_LIT_LAUNCHER": launcher,
            **({zygote.FILECHECK_LAUNCHER_ENV: checker} if checker else {})}


@pytest.mark.parametrize("name", _FILES or ["<lit suite>"])
def test_lit_file(name):
    if _SKIP:
        pytest.skip(_SKIP)
    if _DISCOVERY_ERROR:
        pytest.fail(_DISCOVERY_ERROR, pytrace=False)
    rc, out = _run_lit(["-v", "--skip-test-time-recording", str(LIT_DIR / name)],
                       env=_forked_env())
    if rc is None:
        pytest.fail(f"{name}: lit gave no result within {TIMEOUT:g} s (set PIPELINE_LIT_TIMEOUT "
                    f"to allow more); its output so far:\n{out}", pytrace=False)
    if rc != 0:
        pytest.fail(f"lit failed on {name} (exit status {rc}):\n{_failure_report(name, out)}",
                    pytrace=False)
    if re.search(r"^\s*Unsupported\s*:\s*1\b", out, re.MULTILINE):
        pytest.skip(f"{name} is unsupported here (lit's REQUIRES/UNSUPPORTED)")
    assert re.search(r"^\s*Passed\s*:\s*1\b", out, re.MULTILINE), out


def test_lit_discovers_every_test_file():
    """Every ``.mlir`` file under test/lit outside ``Inputs`` is a lit test (none is silently
    left out of the per-file items)."""
    if _SKIP:
        pytest.skip(_SKIP)
    on_disk = sorted(p.relative_to(LIT_DIR).as_posix() for p in LIT_DIR.rglob("*.mlir")
                     if "Inputs" not in p.relative_to(LIT_DIR).parts)
    assert sorted(_FILES) == on_disk, _DISCOVERY_ERROR


#: FileCheck features the Python ``filecheck`` (what ``.[test]`` installs, the checker
#: wherever LLVM's is absent) does not take: it stops at the first with an error of its own,
#: so a file that uses one passes only on a machine with LLVM's FileCheck
#: (``test/lit/lit.cfg.py``: tests must pass with both checkers)
ONE_CHECKER_ONLY = {
    "--implicit-check-not": re.compile(r"--implicit-check-not\b"),
    "a numeric substitution [[#...]]": re.compile(r"\[\[#"),
    "a line expression [[@LINE...]]": re.compile(r"\[\[@LINE"),
}


def one_checker_only(text: str) -> list[str]:
    """What of :data:`ONE_CHECKER_ONLY` lit file ``text`` uses, as ``line N: feature``."""
    return [f"line {n}: {what}" for n, line in enumerate(text.splitlines(), start=1)
            for what, pattern in ONE_CHECKER_ONLY.items() if pattern.search(line)]


def test_lit_files_use_what_both_checkers_take():
    """No lit file uses a FileCheck feature the Python checker lacks (on a machine with LLVM's
    FileCheck such a file passes, and fails wherever it is absent: CI)."""
    found = {p.relative_to(LIT_DIR).as_posix(): one_checker_only(p.read_text())
             for p in sorted(LIT_DIR.rglob("*.mlir"))}
    assert not {k: v for k, v in found.items() if v}, found


def test_the_checker_features_check_sees_each_feature():
    """Each feature of :data:`ONE_CHECKER_ONLY` is found where it is used, and plain checks
    are not."""
    text = ("// RUN: x | FileCheck %s --implicit-check-not=error:\n"
            "// CHECK: a [[#N+1]]\n// CHECK: f.mlir:[[@LINE+2]]:3: error\n"
            "// CHECK: f.mlir:27:3: error: [[X:.*]] {{.*}}\n")
    assert one_checker_only(text) == ["line 1: --implicit-check-not",
                                      "line 2: a numeric substitution [[#...]]",
                                      "line 3: a line expression [[@LINE...]]"]


def test_a_failing_lit_file_names_its_run_line():
    """The failure report shows the failing RUN line as written and FileCheck's diagnostic."""
    if _SKIP:
        pytest.skip(_SKIP)
    name = "errors/unknown-pipeline.mlir"
    out = ("# RUN: at line 1\nnot pipeline-opt --pipeline=8wave 2>&1 | filecheck x\n"
           "# executed command: filecheck x\n"
           "# RUN: at line 2\nnot pipeline-opt --pipeline='' 2>&1 | filecheck x\n"
           "# | x:6: error: Couldn't match \"empty pipeline spec\"\n"
           "# error: command failed with exit status: 1\n\n--\n\n********************\n"
           "Failed Tests (1):\n")
    report = _failure_report(name, out)
    assert report.startswith(f"{name}:2: this RUN line failed (1 RUN line(s) before it passed)")
    assert "// RUN: not pipeline-opt --pipeline='' 2>&1 | FileCheck %s --check-prefix=EMPTY" \
        in report
    assert "Couldn't match" in report and "Failed Tests" not in report and "8wave" not in report


def _foreign_python() -> str | None:
    """A Python outside this environment: the venv's base interpreter, run by its own path
    (so lit's ``sys.executable`` is not next to pipeline-opt)."""
    if sys.prefix == sys.base_prefix:
        return None
    for name in ("python3", "python"):
        exe = Path(sys.base_prefix) / "bin" / name
        if exe.exists() and not (exe.parent / "pipeline-opt").exists():
            return str(exe)
    return None


def _lit_only_path(tmp_path: Path) -> str:
    """A directory holding only the lit package, for a Python that has no pipeline-mlir."""
    import lit

    d = tmp_path / "litonly"
    d.mkdir()
    (d / "lit").symlink_to(Path(lit.__file__).parent)
    return str(d)


def test_lit_config_is_not_tied_to_the_python_running_lit(tmp_path):
    """LLVM's lit run by another Python finds pipeline-opt and filecheck on PATH."""
    if _SKIP:
        pytest.skip(_SKIP)
    python = _foreign_python()
    if python is None:
        pytest.skip("no Python besides this environment's")
    env = {k: v for k, v in os.environ.items() if k not in ("FILECHECK", "PIPELINE_OPT")}
    env["PYTHONPATH"] = _lit_only_path(tmp_path)
    env["PIPELINE_LIT_EXEC_ROOT"] = str(tmp_path / "out")
    args = ["-v", str(LIT_DIR / "errors" / "unknown-pipeline.mlir")]
    # pipeline-opt only on PATH: the suite runs
    env["PATH"] = os.pathsep.join([str(BINDIR), "/usr/bin", "/bin"])
    rc, out = _run_lit(args, python=python, env=env)
    assert rc == 0, out
    assert "Passed: 1" in out
    # nowhere: one clear message
    env["PATH"] = os.pathsep.join(["/usr/bin", "/bin"])
    rc, out = _run_lit(args, python=python, env=env)
    assert rc != 0
    assert "pipeline-opt not found: put the pipeline-mlir environment's bin directory on " \
           "PATH" in out
