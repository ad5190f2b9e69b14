"""What the driver and the command line share, importing nothing: the program's name, the
choices the options take (emit kinds, chips, cost tables, picture formats, the tuner's
default budget), :class:`UsageError`, the name of standard input in messages and the
stderr printer.

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
#: the emit kinds LLVM's code generation makes (``--codegen-timeout`` bounds it)
CODE_EMITS = ("asm", "obj", "hsaco", "report")
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


#: schedule options that only the complete GEMM kernel built without an input reads
KERNEL_ONLY_OPTIONS = ("c_dtype",)
#: standard input (``-``) in messages
STDIN_NAME = "<stdin>"


def kernel_only_option_error(schedule, where: str) -> str | None:
    """The message for an option of :data:`KERNEL_ONLY_OPTIONS` given in ``schedule`` (a
    named schedule or None) where no complete kernel is built (``where`` says what runs
    instead); None if none is given."""
    given = [k for k in KERNEL_ONLY_OPTIONS if schedule is not None and k in schedule.given]
    if not given:
        return None
    return (f"--pipeline: option '{given[0]}' sets the element type of C of the complete "
            f"GEMM kernel built without an input, but {where}; drop the option")


def merge_request_error(schedule, where: str) -> str | None:
    """The message for ``merge_k=true`` (``4wave``: the front end merges a kernel's short K
    steps, ``frontend/kmerge.py``) given where no input kernel is pipelined (``where`` says
    what runs instead); None if it is not asked for."""
    if schedule is None:
        return None
    from pipeline_mlir.schedules.fourwave import merge_asked   # (only with a schedule parsed)

    if not merge_asked(schedule):
        return None
    return (f"--pipeline: merge_k=true merges the K steps of a kernel given as input, but "
            f"{where}; drop the option or give the kernel")


def input_name(path: str) -> str:
    """A file the command line reads (``path``) as messages name it: standard input
    (``-``) is ``<stdin>``."""
    return STDIN_NAME if path == "-" else path


def print_stderr(text: str) -> None:
    """One line (or block) on standard error, flushed; nothing when stderr is closed."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        print(text, file=sys.stderr, flush=True)
