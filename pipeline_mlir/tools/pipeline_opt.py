"""``pipeline-opt``: the command-line driver (an ``mlir-opt``-style tool).

Input: an MLIR file (``-``, or no file with ``--pass-pipeline``: stdin) holding
``sched.pipeline`` ops (abstract form) or a ``gpu.module`` kernel whose K-loop
has sched-tagged ops (concrete form); with ``--pipeline=NAME{...}`` and no
input, the named schedule's default body (or, for the code emit kinds, its
complete GEMM kernel).

Passes: ``--pipeline=NAME{key=value ...}`` (a named pipeline: sched-import,
the scheduling passes, sched-verify, and the lowering the ``--emit`` kind
needs) or ``--pass-pipeline='builtin.module(...)'`` (any mix of ``sched-*``
passes and upstream passes).

Output (``--emit``): ``mlir`` (default with input), ``llvm``, ``asm``, ``obj``,
``hsaco``, ``report``, ``schedule`` (default without input; the reference debug
format), ``schedule-json``.  ``-o FILE`` is written whole or not at all (a
temporary file beside it, renamed on success).

Every failure prints ``LOCATION: error: message`` (with the source line and a
caret, as MLIR does; or ``pipeline-opt: error: message``) on stderr and exits
with status 1; no Python traceback, and LLVM aborts are contained in a
subprocess.  Ctrl-C exits with 130 and SIGTERM with 143, after removing every
temporary file.  ``PIPELINE_OPT_TRACEBACK=1`` shows the traceback of an
internal error.

mlir-opt habits work: single-dash long flags (``-split-input-file``), a repeated
flag takes its last value, ``--version``, ``--list-passes``,
``--mlir-print-ir-before/after=PASS``, ``--mlir-print-ir-before-all``,
``--mlir-elide-elementsattrs-if-larger=N``, ``--mlir-disable-threading``.

This module parses the command line (:mod:`pipeline_mlir.tools.cli`), hands what it asks to
the driver (:mod:`pipeline_mlir.driver`: compile, simulate, emulate, tune, launch) and prints
what comes back.  Start-up cost matters: nothing heavy is imported to start (the default
body's ``--emit=schedule`` runs on the pure-Python core; ``test/unit/tools/test_startup.py``
pins what each start-up command loads, ``benchmarks/bench_startup.py`` times them): the
parser is built after ``--version`` alone has been answered, and not at all for a command
line that only names a pipeline, its emit kind and chip (:mod:`pipeline_mlir.tools.argv`).
"""

from __future__ import annotations

import os
import sys

from pipeline_mlir.driver.base import BINARY_EMITS, NEEDS_LLVM, PROG, UsageError, print_stderr
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.tools.output import print_and_exit, write, write_all
from pipeline_mlir.tools.progress import Progress
from pipeline_mlir.tools.signals import run_handled
from pipeline_mlir.tools.version import VERSION_ONLY, version_text


def compile_options(args):
    """The driver's :class:`~pipeline_mlir.driver.arguments.CompileOptions` of the command
    line (the driver is imported once the command line is known to be good)."""
    from pipeline_mlir.driver.arguments import AsmFormat, CompileOptions, PrintIR
    from pipeline_mlir.tools.argv import codegen_timeout

    print_ir = PrintIR(args.mlir_print_ir_before_all, args.mlir_print_ir_after_all,
                       _names(args.mlir_print_ir_before), _names(args.mlir_print_ir_after),
                       args.mlir_print_ir_after_failure)
    asm_format = AsmFormat(args.mlir_elide_elementsattrs_if_larger, args.mlir_print_op_generic,
                           args.mlir_print_debuginfo, args.mlir_pretty_debuginfo,
                           args.mlir_print_local_scope)
    return CompileOptions(schedule=args.pipeline, pass_pipeline=args.pass_pipeline,
                          input=args.input, emit=args.emit, chip=args.mcpu,
                          split_input_file=args.split_input_file,
                          verify_diagnostics=args.verify_diagnostics, print_ir=print_ir,
                          asm_format=asm_format, disable_threading=args.mlir_disable_threading,
                          timing=args.mlir_timing, dump_pipeline=args.dump_pass_pipeline,
                          codegen_timeout=codegen_timeout(args.codegen_timeout, os.environ),
                          isa_check=not args.no_isa_check)


def _names(text: str | None) -> frozenset[str]:
    return frozenset(n.strip() for n in (text or "").split(",") if n.strip())


def _check_args(args, options) -> None:
    """The driver's checks, and binary output to a terminal.  Standard input is never looked
    at unless it is the input (``-``, or no file with ``--pass-pipeline``): without an input
    file ``--pipeline`` builds the default body whatever stdin holds, as ``mlir-opt FILE``
    never reads stdin, so ``while read s; do pipeline-opt --pipeline="$s"; done < specs.txt``
    works."""
    from pipeline_mlir.driver.arguments import check_options
    from pipeline_mlir.tools.argv import given

    if args.no_isa_check and (args.launch is not None or args.tune):
        raise UsageError("--no-isa-check turns off the ISA check of a code build: it goes "
                         "with --emit=asm/obj/hsaco or --emulate (not --launch or --tune)")
    check_options(options)
    if "--codegen-timeout" in given(args) and (options.emit_kind not in NEEDS_LLVM or
                                              args.launch is not None or args.tune):
        raise UsageError(f"--codegen-timeout bounds LLVM's translation and code generation of "
                         f"the kernel: it goes with --emit={'/'.join(NEEDS_LLVM)} or --emulate "
                         f"(not --launch or --tune)")
    if options.emit_kind in BINARY_EMITS and args.output == "-" and _stdout_is_terminal():
        raise UsageError(f"--emit={options.emit_kind} writes binary data: give -o FILE")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _parse(argv: list[str] | None):
    """(the parsed command line, its compile options: None for --simulate and --emulate);
    every usage error raised (SystemExit: --help, --version)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv in VERSION_ONLY:  # the parser's --version, before the parser is built
        print_and_exit(version_text())
    from pipeline_mlir.tools import emulate, simulate, tune
    from pipeline_mlir.tools.argv import parse_simple

    args = parse_simple(argv)  # a pipeline, its emit kind and chip: no parser needed
    if args is None:
        from pipeline_mlir.tools.cli import build_parser, normalize_argv

        parser = build_parser()
        args = parser.parse_args(normalize_argv(parser, argv))
    simulate.check_args(args)
    emulate.check_args(args)
    tune.check_args(args)
    if args.simulate is not None or args.emulate is not None:
        return args, None
    options = compile_options(args)
    _check_args(args, options)
    return args, options


def _launch(args) -> str:
    """``--launch=M,N,K``: the host contract of the pipeline's complete kernel."""
    from pipeline_mlir.driver.launch import launch
    from pipeline_mlir.tools.argv import parse_sizes

    if args.pipeline is None or args.input is not None or args.pass_pipeline is not None:
        raise UsageError("--launch=M,N,K checks a problem size for the kernel of --pipeline "
                         "(no input file, no --pass-pipeline)")
    return launch(args.pipeline, *parse_sizes("--launch", args.launch, positive=False))


def _tune(args, options) -> int:
    """``--tune``: the table on stdout; the chosen spec's --emit output to -o, its spec to
    --tune-spec."""
    from dataclasses import replace

    from pipeline_mlir.driver.api import compile
    from pipeline_mlir.driver.arguments import CompileOptions
    from pipeline_mlir.driver.tune import tune as run_tuner
    from pipeline_mlir.tools import tune

    with Progress(f"{PROG} --tune: candidates evaluated") as progress:
        result = run_tuner(replace(tune.options(args), progress=progress))
    write("-", result.table)
    if result.chosen is None:
        return _error("--tune: every candidate was refused (the table gives the reasons)")
    outputs = []
    if args.output != "-":
        chosen = compile(CompileOptions(schedule=result.chosen, emit=options.emit_kind))
        outputs.append((args.output, chosen.checked_output()))
    if args.tune_spec is not None:
        outputs.append((args.tune_spec, result.chosen + "\n"))
    try:  # both files or neither
        write_all(outputs)
    except OSError as e:
        return _error(f"cannot write {'standard output' if e.filename == '-' else repr(e.filename)}"
                      f": {e.strerror or e}")
    return 0


def _emulate(args) -> tuple:
    from dataclasses import replace

    from pipeline_mlir.driver.emulate import emulate as run
    from pipeline_mlir.tools import emulate

    with Progress(f"{PROG} --emulate: workgroups run", bar=True) as progress:
        result = run(replace(emulate.options(args, compile_options(args)), progress=progress))
    if result.problem is not None:  # the run's report to stdout, then the finding
        write("-", result.summary)
        print_stderr(" ".join(result.problem.split()))
        return None, [], result.sources
    return (result.summary if not result.diagnostics else None), result.diagnostics, \
        result.sources


def _simulate(args) -> tuple:
    """(the output or None, the other files to write with it: the picture)."""
    from pipeline_mlir.tools import simulate

    out, problem, picture = simulate.run(args)
    if problem is not None:  # the report goes to stdout, then the hazard; no file written
        if args.output == "-":
            write("-", out)
        print_stderr(" ".join(problem.split()))
        return None, ()
    return out, (() if picture is None else ((args.report, picture),))


def _run(args, options) -> tuple:
    """Run what the command line asks: (output or None, diagnostics, their sources or
    None, other files written with the output, all or none: ``--report=PICTURE``);
    ``options``: the compile options (None for --simulate and --emulate)."""
    from pipeline_mlir.driver.api import compile

    if args.simulate is not None:
        out, files = _simulate(args)
        return out, [], None, files
    if args.emulate is not None:
        return (*_emulate(args), ())
    if args.launch is not None:
        return _launch(args), [], None, ()
    result = compile(options)
    out = result.output
    if result.failed and args.output != "-":
        out = None  # -o stays untouched when anything failed
    return out, result.diagnostics, result.sources, ()


def _main(argv: list[str] | None) -> int:
    try:
        args, options = _parse(argv)
    except UsageError as e:
        return _error(e)
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else 0
    try:
        if args.tune:
            return _tune(args, options)
        out, diags, sources, files = _run(args, options)
    except PipelineError as e:  # UsageError included
        return _error(e)
    except Exception as e:  # a bug of ours: still one line, unless asked for the traceback
        if os.environ.get("PIPELINE_OPT_TRACEBACK"):
            raise
        return _error(f"internal error: {type(e).__name__}: {e} (please report it; set "
                      f"PIPELINE_OPT_TRACEBACK=1 for the traceback)")
    return _finish(args, out, diags, sources, files)


def _finish(args, out, diags: list, sources, files=()) -> int:
    """Write the output (unless None) and ``files`` ((path, data) pairs) with it, all or
    none (:func:`~pipeline_mlir.tools.output.write_all`), print the diagnostics; the exit
    status."""
    failed = out is None or any(d.severity == "error" for d in diags)
    if out is not None:
        try:
            write_all([*files, (args.output, out)])
        except OSError as e:
            name = e.filename or args.output
            what = "standard output" if name == "-" else f"'{name}'"
            _print_diags(diags, sources)
            return _error(f"cannot write {what}: {e.strerror or e}")
    _print_diags(diags, sources)
    return 1 if failed else 0


def _print_diags(diags: list, sources) -> None:
    from pipeline_mlir.driver.diagnostics import render

    for d in diags:
        for line in render(d, sources, PROG):
            print_stderr(line)


def _error(message) -> int:
    print_stderr(f"{PROG}: error: {' '.join(str(message).split())}")
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the driver; returns the exit status (0 success, 1 any error, 130 after Ctrl-C,
    143 after SIGTERM)."""
    return run_handled(_main, argv, lambda what: print_stderr(f"{PROG}: {what}"))


if __name__ == "__main__":
    sys.exit(main())
