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

LIT_DIR = Path(__file__).resolve().parents[1] / "lit"
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
