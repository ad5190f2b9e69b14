"""``test/data/iree/generate.py`` reports progress on a terminal and nothing elsewhere."""

from __future__ import annotations

import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))
import generate as G  # noqa: E402


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_only(monkeypatch):
    cmd = [sys.executable, "-c", "print('out')"]
    tool = Path(sys.executable).name
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert G._run(cmd, what="a step").stdout == "out\n"
    before, after = terminal.getvalue().splitlines()
    assert before == f"generate: {tool}: a step ..."
    assert after.startswith(f"generate: {tool}: a step: ") and after.endswith(" s")
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert G._run(cmd, what="a step").stdout == "out\n"
    assert quiet.getvalue() == ""
