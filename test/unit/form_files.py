"""Both forms of one IREE build written to files, and a form's pipelined loop emulated:
what the tests of one IREE kernel at a time share (``test_cut_run_widths.py``,
``test_grid_budget.py``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from build_cache import share_code_objects
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[1] / "data" / "iree"))
import generate as G  # noqa: E402

#: the options a pipelined loop is built with, in the IR printed after sched-adopt-loop
OPTIONS = re.compile(r"sched\.options = \{[^}]*\}")


def form_files(directory: Path, source: str, flags: tuple) -> dict:
    """{form: path} of the prefetch point and the late form of ``source`` built with
    ``flags`` (``generate.forms``), written in ``directory``."""
    out = {}
    for form, text in G.forms(source, flags).items():
        out[form] = directory / f"{form}.mlir"
        out[form].write_text(text)
    return out


def emulated_options(path, capsys, *said: str) -> set:
    """The ``sched.options`` the pipelined loop of the form ``path`` is built with, its
    first and last workgroup emulated exact (late mode); ``said``: what the emulator's
    summary must also say."""
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
                   "--emulate-mode=late", "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0 in C" in out and \
        all(s in out for s in said), out + err[-2000:]
    return set(OPTIONS.findall(err))
