"""Run the lit/FileCheck suite (``test/lit``) as part of ``pytest``.

lit runs with the interpreter running pytest, so ``test/lit/lit.cfg.py`` finds
the ``pipeline-opt`` and ``filecheck`` scripts of the same environment (set
``FILECHECK=/path/to/FileCheck`` to check with LLVM's FileCheck instead). On
failure the test shows lit's report: the failing RUN lines and FileCheck's
diagnostics.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).resolve().parents[2] / "lit"
BINDIR = Path(sys.executable).parent


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
    elif not ((BINDIR / "filecheck").exists() or shutil.which("filecheck")):
        return "no FileCheck: install filecheck (pip install -e '.[test]') or set FILECHECK"
    return None


def test_lit_suite():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    cmd = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())",
           "-sv", str(LIT_DIR)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"lit failed (exit status {proc.returncode}):\n{proc.stdout}", pytrace=False)
    assert "Total Discovered Tests" in proc.stdout, proc.stdout


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
    if _skip_reason():
        pytest.skip(_skip_reason())
    python = _foreign_python()
    if python is None:
        pytest.skip("no Python besides this environment's")
    env = {k: v for k, v in os.environ.items() if k not in ("FILECHECK", "PIPELINE_OPT")}
    env["PYTHONPATH"] = _lit_only_path(tmp_path)
    env["PIPELINE_LIT_EXEC_ROOT"] = str(tmp_path / "out")
    cmd = [python, "-c", "import sys; from lit.main import main; sys.exit(main())", "-v",
           str(LIT_DIR / "errors" / "unknown-pipeline.mlir")]
    # pipeline-opt only on PATH: the suite runs
    env["PATH"] = os.pathsep.join([str(BINDIR), "/usr/bin", "/bin"])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed: 1" in proc.stdout
    # nowhere: one clear message
    env["PATH"] = os.pathsep.join(["/usr/bin", "/bin"])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "pipeline-opt not found: put the pipeline-mlir environment's bin directory on " \
           "PATH" in proc.stdout + proc.stderr
