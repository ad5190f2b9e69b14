"""The command line without the argument parser: what the start-up commands and the commands'
checks read, at no cost.

Importing :mod:`argparse` and building ``pipeline-opt``'s parser (:mod:`pipeline_mlir.tools.cli`)
costs about a fifth of starting Python.  A command line that only names a pipeline, its emit
kind and the chip (``--pipeline=4wave --emit=schedule``, what a shell loop over specs runs) is
read here instead (:func:`parse_simple`), into the namespace the parser would make; every
other command line goes to the parser.  ``test/unit/tools/test_startup.py`` checks that both
read the same.
"""

from __future__ import annotations

from types import SimpleNamespace

from pipeline_mlir.driver.base import UsageError
from pipeline_mlir.options import decimal
from pipeline_mlir.target import DEFAULT_CHIP

#: every option's value when it is not given: the parser's defaults, by destination
DEFAULTS = {
    "input": None, "pipeline": None, "pass_pipeline": None, "emit": None, "output": "-",
    "mcpu": DEFAULT_CHIP, "split_input_file": False, "verify_diagnostics": False,
    "launch": None, "mlir_print_ir_after_all": False, "mlir_print_ir_before_all": False,
    "mlir_print_ir_after": None, "mlir_print_ir_before": None,
    "mlir_elide_elementsattrs_if_larger": None, "mlir_disable_threading": False,
    "mlir_timing": False, "mlir_print_ir_after_failure": False, "dump_pass_pipeline": False,
    "mlir_print_op_generic": False, "mlir_print_debuginfo": False,
    "mlir_pretty_debuginfo": False, "mlir_print_local_scope": False,
    "allow_unregistered_dialect": False, "simulate": None, "report": None,
    "cost_table": "both", "sim_iterations": 6, "emulate": None, "emulate_mode": "eager",
    "emulate_workgroups": None, "emulate_launch": None, "emulate_strict": False,
    "emulate_jobs": None, "tune": False, "tune_budget": None, "tune_knobs": None,
    "tune_objective": None, "tune_spec": None, "tune_size": None, "codegen_timeout": None,
    "sim_trips": None, "no_isa_check": False,
}
#: the flags :func:`parse_simple` reads (always as ``FLAG=VALUE``), by destination
SIMPLE_FLAGS = {"--pipeline": "pipeline", "--emit": "emit", "--mcpu": "mcpu"}


def parse_simple(argv: list[str]):
    """The parsed command line when every argument is ``--pipeline=``, ``--emit=`` or
    ``--mcpu=`` with its value (one dash or two; a repeated flag takes its last value), as
    the parser makes it (the other options at :data:`DEFAULTS`, ``_given`` the flags in
    order); None for any other command line."""
    values: dict[str, str] = {}
    flags = []
    for arg in argv:
        flag, eq, value = arg.partition("=")
        if flag[:2] != "--":
            flag = "-" + flag  # mlir-opt's one-dash spelling of a long flag
        if not eq or flag not in SIMPLE_FLAGS:
            return None
        values[SIMPLE_FLAGS[flag]] = value
        flags.append(flag)
    if not flags:
        return None
    return SimpleNamespace(**{**DEFAULTS, **values}, _given=tuple(flags))


def given(args) -> set[str]:
    """The flags given on the command line (the parser's ``_Store`` remembers them)."""
    return set(getattr(args, "_given", ()))


#: the environment variable giving ``--codegen-timeout`` when the flag is not given
CODEGEN_TIMEOUT_ENV = "PIPELINE_OPT_CODEGEN_TIMEOUT"


def codegen_timeout(flag_value: str | None, environ) -> float | None:
    """The seconds of ``--codegen-timeout`` (``flag_value``), else of
    :data:`CODEGEN_TIMEOUT_ENV` in ``environ``, else None; a UsageError naming the flag or
    the variable for anything but a finite number above 0."""
    name, text = "--codegen-timeout", flag_value
    if text is None:
        name, text = CODEGEN_TIMEOUT_ENV, environ.get(CODEGEN_TIMEOUT_ENV)
    if text is None:
        return None
    try:  # ASCII decimal: not 1_0, other scripts' digits or spaces, which float takes
        seconds = float(text) if text.isascii() and "_" not in text and \
            text == text.strip() else None
    except ValueError:
        seconds = None
    if seconds is None or not 0 < seconds < float("inf"):
        raise UsageError(f"{name}={text}: expected a number of seconds above 0 (each step of "
                         f"LLVM's translation and code generation of one kernel may take "
                         f"that long)")
    return seconds


def parse_sizes(flag: str, text: str, positive: bool = True,
                zero_k: bool = False) -> tuple[int, int, int]:
    """``M,N,K`` (or ``MxNxK``) of ``--flag=text``; a UsageError naming the flag.
    ``positive``: every size at least 1, but K at least 0 with ``zero_k`` (a launch with
    no K tile: C is 0, or C0 when the kernel accumulates; the kernel says whether it
    takes one)."""
    parts = [decimal(x) for x in text.replace("x", ",").split(",")]
    if len(parts) != 3 or None in parts:
        raise UsageError(f"{flag}={text}: expected three integers M,N,K")
    m, n, k = parts
    for name, v in (("M", m), ("N", n), ("K", k)):
        if positive and name == "K" and zero_k and v < 0:
            raise UsageError(f"{flag}={text}: K = {v}; K is 0 or more")
        if positive and v < 1 and not (name == "K" and zero_k):
            raise UsageError(f"{flag}={text}: {name} = {v}; the sizes are positive")
    return m, n, k
