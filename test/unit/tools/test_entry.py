"""The console script's entry handles Ctrl-C and SIGTERM during start-up: one line, the
shell's exit status, no traceback (the signal is raised while the tool's module is imported,
by an import hook, so the test does not depend on timing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

HOOK = """
import importlib.abc, os, signal, sys

class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "pipeline_mlir.tools.pipeline_opt":
            {action}
        return None

sys.meta_path.insert(0, Hook())
from pipeline_mlir.tools.entry import main
sys.exit(main())
"""


def run(action: str, **environ) -> subprocess.CompletedProcess:
    """The tool run with ``--version``, ``action`` done as its module is imported;
    ``environ``: variables set (None: removed)."""
    env = dict(os.environ)
    for name, value in environ.items():
        env.pop(name) if value is None else env.update({name: value})
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-c", HOOK.format(action=action), "--version"],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("action, rc, line", [
    ("raise KeyboardInterrupt", 130, "pipeline-opt: interrupted"),
    ("os.kill(os.getpid(), signal.SIGTERM)", 143, "pipeline-opt: terminated"),
], ids=["ctrl-c", "sigterm"])
def test_a_signal_during_start_up_is_one_line(action, rc, line):
    p = run(action)
    assert p.returncode == rc, p.stderr
    assert p.stderr.strip() == line and "Traceback" not in p.stderr


#: the hook's action that prints OpenBLAS's thread count as the tool's module is imported
#: and whether numpy is loaded yet
BLAS = 'print("BLAS", os.environ.get("OPENBLAS_NUM_THREADS"), "numpy" in sys.modules)'


def test_without_a_signal_the_tool_runs():
    """It runs; numpy's BLAS on one thread (``--emulate``'s reference C, as the tests run
    it), set before numpy is loaded."""
    p = run(BLAS, OPENBLAS_NUM_THREADS=None)
    assert p.returncode == 0 and p.stdout.startswith("BLAS 1 False\npipeline-opt"), \
        (p.stdout, p.stderr)


def test_a_blas_thread_count_given_is_kept():
    p = run(BLAS, OPENBLAS_NUM_THREADS="3")
    assert p.returncode == 0 and p.stdout.startswith("BLAS 3 False"), (p.stdout, p.stderr)


def test_the_console_script_is_the_entry():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'pipeline-opt = "pipeline_mlir.tools.entry:main"' in text


def test_the_entry_takes_an_argument_list(capsys):
    from pipeline_mlir.tools.entry import main

    assert main(["--pipeline=4wave", "--emit=schedule"]) == 0
    assert capsys.readouterr().out.startswith("WARP_STAGGER_INDEX")
