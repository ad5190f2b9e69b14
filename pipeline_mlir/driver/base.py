"""What the driver and the command line share, importing nothing: the program's name, the
choices the options take (emit kinds, chips, cost tables, picture formats, the tuner's
default budget), :class:`UsageError` and the stderr printer.

The command line builds its parser and reports usage errors with this module alone, so that
``--help`` and a usage error cost about what starting Python costs.
"""

from __future__ import annotations

import contextlib
import sys

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.target import names

PROG = "pipeline-opt"

EMIT_KINDS = ("mlir", "llvm", "asm", "obj", "hsaco", "report", "schedule", "schedule-json")
NEEDS_LLVM = ("llvm", "asm", "obj", "hsaco", "report")
BINARY_EMITS = ("obj", "hsaco")
SCHEDULE_EMITS = ("schedule", "schedule-json")
CHIPS = names()
#: how far a named pipeline runs for each emit kind (passes/registry.py named_pipeline)
PIPELINE_END = {**{k: "phases" for k in SCHEDULE_EMITS}, "mlir": "lowered",
                **{k: "llvm" for k in NEEDS_LLVM}}

#: the pictures --simulate draws
PICTURE_EXTENSIONS = (".svg", ".png")
#: --cost-table's choices: the timing tables each one runs
TABLE_CHOICES = {"llvm": ("llvm",), "measured": ("measured",), "both": ("llvm", "measured")}
#: candidates --tune evaluates unless told
DEFAULT_BUDGET = 24


class UsageError(PipelineError):
    """The options do not make sense together (a command-line problem to ``pipeline-opt``,
    which prints it as one line and exits with status 1)."""


def print_stderr(text: str) -> None:
    """One line (or block) on standard error, flushed; nothing when stderr is closed."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        print(text, file=sys.stderr, flush=True)
