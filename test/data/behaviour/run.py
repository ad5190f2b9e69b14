"""Run one pinned case in process through the installed ``pipeline-opt`` entry point."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[3])


def _main():
    (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "pipeline-opt"]
    return ep.load()


def run_case(args: list[str]) -> tuple[bytes, str, int]:
    """(output bytes, stderr text, exit status) of ``pipeline-opt ARGS -o TMP``."""
    main = _main()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = main([*args, "-o", path])
        data = b""
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
    # paths of this checkout and the temporary directory are not behaviour
    data = data.replace(ROOT.encode(), b"<root>")
    return data, err.getvalue().replace(tmp, "<tmp>").replace(ROOT, "<root>"), rc
