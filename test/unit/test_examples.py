"""The shipped examples run as their documentation says: their command lines, --help, and
one-line errors (exit 1) for bad arguments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("name", ["concrete_kernel.py", "natural_kernel.py"])
def test_help(name):
    p = script(name, "--help")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith(f"usage: {name}")


@pytest.mark.parametrize("name, args, message", [
    ("concrete_kernel.py", ["single-buffer"], "only the schedules with a complete kernel"),
    ("concrete_kernel.py", ["pingpng"], "unknown pipeline 'pingpng' (did you mean 'pingpong'?)"),
    ("concrete_kernel.py", ["4wave", "extra"], "unrecognized arguments: extra"),
    ("natural_kernel.py", ["k=x"], "'k=x': k expects int"),
    ("natural_kernel.py", ["bogus=1"], "'bogus=1': expected key=value with a key of func"),
    ("natural_kernel.py", ["swizzle=yes"], "'swizzle=yes': swizzle expects bool"),
])
def test_bad_arguments_are_one_line(name, args, message):
    p = script(name, *args)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"{name}: error: ") and message in p.stderr, p.stderr
