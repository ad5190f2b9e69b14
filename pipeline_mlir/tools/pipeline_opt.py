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

Start-up cost matters: the MLIR bindings are imported only when needed; the
default-body ``--emit=schedule`` path does not import them at all.
That is why the imports of ``pipeline_mlir.dialect`` and ``pipeline_mlir.passes`` sit inside
the functions that use them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import stat
import sys
import threading

from pipeline_mlir.tools import emulate, simulate, tune
from pipeline_mlir.tools.diagnostics import (
    Diag,
    Sources,
    check,
    expectations,
    from_location,
    from_mlir,
    render,
)

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.options import suggest

# Everything else (the schedules, the kernel builder, LLVM code generation, the ISA report,
# MLIR) is imported inside the functions that need it: --help, a usage error and the default
# body's --emit=schedule load none of it (test_startup.py).

PROG = "pipeline-opt"
EMIT_KINDS = ("mlir", "llvm", "asm", "obj", "hsaco", "report", "schedule", "schedule-json")
NEEDS_LLVM = ("llvm", "asm", "obj", "hsaco", "report")
BINARY_EMITS = ("obj", "hsaco")
SCHEDULE_EMITS = ("schedule", "schedule-json")
CHIPS = ("gfx950",)
SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)
#: exit status after Ctrl-C / SIGTERM (128 + the signal number, as shells report them)
INTERRUPTED_RC, TERMINATED_RC = 130, 143


class UsageError(Exception):
    """A command-line problem (reported like any other error, exit status 1)."""


class Failure(Exception):
    """Diagnostics to print (at least one error)."""

    def __init__(self, diags: list[Diag]) -> None:
        super().__init__("; ".join(d.message for d in diags))
        self.diags = diags

    @classmethod
    def at(cls, message: str, file: str | None = None) -> "Failure":
        """One error at ``file`` (no line), or at the tool when ``file`` is None."""
        return cls([Diag("error", message, where=file)])


class Terminated(BaseException):
    """Raised by the SIGTERM handler: unwinds like Ctrl-C, so temporary files go away."""


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _pass_list() -> list[str]:
    lines = ["passes (--pass-pipeline; options as name{key=value ...}):"]
    try:
        from pipeline_mlir.passes.registry import LLVM_STEP, PASSES
    except Exception as e:  # pragma: no cover - bindings missing
        return lines + [f"  (unavailable: {e})"]
    width = max(len(n) for n in PASSES) + 2
    for name, cls in PASSES.items():
        lines.append(f"  {name:<{width}}{cls.summary}")
        lines += cls.option_table().describe(" " * 6, 22)
    lines.append(f"  {LLVM_STEP:<{width}}LLVM step (added by --emit=llvm|asm|obj|hsaco): "
                 f"scf->cf, iree-convert-to-rocdl, rocdl -> LLVM intrinsics, kernel attributes")
    lines.append("  any upstream or IREE pass, e.g. canonicalize, cse, func.func(canonicalize)")
    return lines


def _pipeline_list() -> list[str]:
    from pipeline_mlir.schedules.registry import describe_pipelines

    return ["named pipelines (--pipeline=NAME or NAME{key=value key=value ...}; pairs "
            "separated by spaces or commas;\nbooleans true/false/1/0; integers decimal, "
            "0x.. or 0b..):", describe_pipelines()]


def _pass_names() -> list[str]:
    """The passes by name (--help: without importing them, which would load MLIR)."""
    import textwrap

    from pipeline_mlir.passes.catalogue import LLVM_STEP, PASS_NAMES

    names = ", ".join(PASS_NAMES) + f"; {LLVM_STEP} (the LLVM step)"
    return (["passes (--pass-pipeline; options as name{key=value ...}; --list-passes "
             "describes each and its options):"]
            + textwrap.wrap(names, 96, initial_indent="  ", subsequent_indent="  ",
                            break_on_hyphens=False)
            + ["  any upstream or IREE pass, e.g. canonicalize, cse, func.func(canonicalize)"])


def _epilog() -> str:
    lines = _pipeline_list() + [""] + _pass_names()
    lines += ["", "examples:",
              "  pipeline-opt --pipeline=pingpong --emit=schedule",
              "  pipeline-opt --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=mlir",
              "  pipeline-opt --pipeline=4wave kernel.mlir --emit=asm -o kernel.s",
              "  pipeline-opt in.mlir --pass-pipeline='builtin.module(sched-import{schedule="
              "pingpong},sched-verify,sched-annotate,canonicalize)'",
              "  pipeline-opt --split-input-file --verify-diagnostics --pass-pipeline="
              "'builtin.module(sched-verify)' bad.mlir"]
    return "\n".join(lines)


def _version() -> str:
    from importlib import metadata

    def ver(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    return (f"{PROG} (pipeline-mlir {ver('pipeline-mlir')})\n"
            f"  target: {', '.join(CHIPS)}\n"
            f"  MLIR: iree-base-compiler {ver('iree-base-compiler')}\n"
            f"  LLVM code generation: llvmlite {ver('llvmlite')}\n")


class _Store(argparse.Action):
    """Store the value and remember the flag was given; a repeated flag takes its last value
    (as in mlir-opt)."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace._given = (*getattr(namespace, "_given", ()), option_string)
        setattr(namespace, self.dest, values)


class _PrintAndExit(argparse.Action):
    def __init__(self, option_strings, dest, text=None, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)
        self.text = text

    def __call__(self, parser, namespace, values, option_string=None):
        text = self.text()
        with contextlib.suppress(OSError):
            _write("-", text if text.endswith("\n") else text + "\n")
        parser.exit()


def _parser():

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # never print usage + exit 2: one line, exit 1
            raise UsageError(message)

        def format_help(self):  # the lists are built only when help is shown
            if self.epilog is None:
                from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES

                self.epilog = _epilog()
                launch.help = launch.help.replace("KERNEL_SCHEDULES", ", ".join(KERNEL_SCHEDULES))
            return super().format_help()

    p = Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Software-pipeline gfx950 (MI355X) matmul K-loops: schedule, verify and "
                    "lower sched IR to amdgpu/rocdl, LLVM IR, gfx950 assembly or code objects. "
                    "Long flags may be written with one dash (-split-input-file); a repeated "
                    "flag takes its last value.")
    p.add_argument("input", nargs="?", metavar="INPUT",
                   help="MLIR input file ('-' for stdin; default: the named pipeline's "
                        "default body, or stdin with --pass-pipeline)")
    p.add_argument("--pipeline", metavar="SPEC", action=_Store,
                   help="named pipeline with options, e.g. '4wave{dtype=bf16 BM=128}'")
    p.add_argument("--pass-pipeline", metavar="TEXT", action=_Store,
                   help="explicit pass pipeline, e.g. 'builtin.module(sched-verify,cse)'")
    p.add_argument("--emit", metavar="KIND", default=None, action=_Store,
                   help=f"output kind: {', '.join(EMIT_KINDS)} (default: mlir with an input, "
                        f"schedule without)")
    p.add_argument("-o", dest="output", metavar="FILE", default="-", action=_Store,
                   help="write the output to FILE (default: stdout); written whole or not at "
                        "all")
    p.add_argument("--mcpu", metavar="CHIP", default="gfx950", action=_Store,
                   help="target processor (default gfx950, the only one supported)")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk of the input on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check the diagnostics against the input's expected-error/-warning/"
                        "-remark/-note comments")
    launch = p.add_argument(
        "--launch", metavar="M,N,K", action=_Store,
        help="check a problem size against the complete kernel of --pipeline "
             "(KERNEL_SCHEDULES) and print its launch configuration: grid, workgroup, LDS, "
             "kernel-argument layout")
    p.add_argument("--version", action=_PrintAndExit, text=_version,
                   help="print the versions of the tool and of its MLIR and LLVM")
    p.add_argument("--list-passes", action=_PrintAndExit,
                   text=lambda: "\n".join(_pipeline_list() + [""] + _pass_list()),
                   help="list the named pipelines and the passes with their options")
    p.add_argument("--help-list", action=_PrintAndExit, text=lambda: p.format_help(),
                   help="the same as --help")
    mlir = p.add_argument_group("MLIR", "the mlir-opt options of the same names (IR on stderr)")
    mlir.add_argument("--mlir-print-ir-after-all", action="store_true",
                      help="print the IR after every pass")
    mlir.add_argument("--mlir-print-ir-before-all", action="store_true",
                      help="print the IR before every pass")
    mlir.add_argument("--mlir-print-ir-after", metavar="PASS[,PASS]", action=_Store,
                      help="print the IR after each run of the named passes")
    mlir.add_argument("--mlir-print-ir-before", metavar="PASS[,PASS]", action=_Store,
                      help="print the IR before each run of the named passes")
    mlir.add_argument("--mlir-elide-elementsattrs-if-larger", metavar="N", type=_count,
                      action=_Store,
                      help="print elements attributes with more than N elements as '...' "
                           "(output and IR dumps)")
    mlir.add_argument("--mlir-disable-threading", action="store_true",
                      help="run MLIR on one thread")
    mlir.add_argument("--mlir-timing", action="store_true",
                      help="print the time each pass took")
    sim = p.add_argument_group(
        "simulator", "check a schedule for hazards and time it on a model of one CU "
                     "(exit 1 on a hazard)")
    sim.add_argument("--simulate", metavar="FILE", nargs="?", const="", default=None,
                     action=_Store,
                     help="simulate a schedule dump (debug format) or a kernel's gfx950 "
                          "assembly as the kernel of --pipeline runs it; without FILE the "
                          "project's own schedule of --pipeline and its kernel")
    sim.add_argument("--report", metavar="PICTURE", nargs="?", const="-", default=None,
                     action=_Store,
                     help="print the whole simulation report; --report=PICTURE (.svg or .png, "
                          "always with '=') also draws one steady-state iteration")
    sim.add_argument("--cost-table", metavar="TABLE", default="both", action=_Store,
                     help="timing cost table: llvm (LLVM's gfx950 SchedModel, equals "
                          "llvm-mca-22), measured (gfx950 latencies) or both (default)")
    sim.add_argument("--sim-iterations", metavar="N", type=int, default=6, action=_Store,
                     help="check main loops of 0..N iterations (default 6)")
    emu = p.add_argument_group(
        "emulator", "run the gfx950 machine code of a kernel on random data against the numpy "
                    "reference (exit 1 on a wrong result or a finding)")
    emu.add_argument("--emulate", metavar="M,N,K", action=_Store,
                     help="emulate the complete kernel of --pipeline, or the kernel of FILE: an "
                          "IREE dispatch (.mlir, built with --pipeline first), a code object or "
                          "its assembly, on an M x N x K problem; --emulate alone for an IREE "
                          "dispatch, whose sizes are compiled in and read from it (given, they "
                          "must be its own; a code object does not state them: give them)")
    emu.add_argument("--emulate-mode", metavar="MODE", default="eager", action=_Store,
                     help="when memory operations complete: eager (default), late (at the "
                          "wait that forces them) or random[:SEED]")
    emu.add_argument("--emulate-workgroups", metavar="N", type=_integer, default=None,
                     action=_Store,
                     help="run N workgroups spread over the grid (the first and the last "
                          "among them) instead of all of it; C is checked where they wrote")
    tune.add_arguments(p)
    return p


def _integer(text: str) -> int:
    """An integer (its range is the option's check)."""
    try:
        return int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got '{text}'") from None


def _count(text: str) -> int:
    try:
        n = int(text, 10)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a count >= 0, got '{text}'")
    return n


def normalize_argv(parser, argv: list[str]) -> list[str]:
    """mlir-opt spellings to ours: a long flag with one dash (``-split-input-file``,
    ``-pass-pipeline=...``) is the one with two; ``--report`` alone never takes the next
    argument (a picture is ``--report=PICTURE``); ``--emulate`` takes the next argument only
    when it is sizes (``M,N,K``): ``--emulate FILE`` runs FILE with the sizes compiled in."""
    longs = {s: a for s, a in parser._option_string_actions.items() if s.startswith("--")}
    out, value_next = [], False
    for i, arg in enumerate(argv):
        if value_next:
            out.append(arg)
            value_next = False
            continue
        if arg == "--":
            return out + argv[i:]
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name = "-" + arg.split("=", 1)[0]
            if name in longs:
                arg = "-" + arg
        if arg == "--report":
            arg = "--report=-"
        if arg == "--emulate" and not (i + 1 < len(argv) and emulate.SIZES.match(argv[i + 1])):
            arg = "--emulate="           # alone: the sizes compiled into the kernel
        name = arg.split("=", 1)[0]
        action = longs.get(name) or parser._option_string_actions.get(name)
        if action is not None and "=" not in arg and action.nargs is None:
            value_next = True
        out.append(arg)
    return out


def _launch(args) -> str:
    """``--launch=M,N,K``: the host contract of the pipeline's complete kernel."""

    if args.pipeline is None or args.input is not None or args.pass_pipeline is not None:
        raise UsageError("--launch=M,N,K checks a problem size for the kernel of --pipeline "
                         "(no input file, no --pass-pipeline)")
    parts = args.launch.replace("x", ",").split(",")
    try:
        m, n, k = (int(x) for x in parts)
    except ValueError:
        raise UsageError(f"--launch={args.launch}: expected three integers M,N,K") from None
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.launch import check_launch, format_launch
    from pipeline_mlir.schedules.registry import parse_pipeline

    kernel = gemm_kernel(parse_pipeline(args.pipeline))
    return format_launch(check_launch(kernel, m, n, k))


def _tune(args) -> int:
    """``--tune``: the table on stdout; the chosen spec's --emit output to -o, its spec to
    --tune-spec."""
    table, chosen = tune.run(args, compile_pipeline)
    _write("-", table)
    if chosen is None:
        return _error("--tune: every candidate was refused (the table gives the reasons)")
    outputs = []
    if args.output != "-":
        if args.emit is None:
            args.emit = "schedule"
        outputs.append((args.output, compile_pipeline(chosen, args.emit)[0]))
    if args.tune_spec is not None:
        outputs.append((args.tune_spec, chosen + "\n"))
    for path, data in outputs:
        try:
            _write(path, data)
        except OSError as e:
            return _error(f"cannot write {'standard output' if path == '-' else repr(path)}: "
                          f"{e.strerror or e}")
    return 0


def _error(message: str) -> int:
    one_line = " ".join(str(message).split())
    _stderr(f"{PROG}: error: {one_line}")
    return 1


def _stderr(text: str) -> None:
    with contextlib.suppress(AttributeError, OSError, ValueError):  # stderr closed
        print(text, file=sys.stderr, flush=True)


def _suggest(name: str, candidates) -> str:
    return suggest(name, list(candidates))


# ---------------------------------------------------------------------------
# Fast path: default body to schedule text, no MLIR
# ---------------------------------------------------------------------------

def _format(compiled, emit: str) -> str:
    from pipeline_mlir.schedule.printing import format_schedule, schedule_to_json

    if emit == "schedule-json":
        import json

        return json.dumps(schedule_to_json(compiled), indent=2) + "\n"

    return format_schedule(compiled)


# ---------------------------------------------------------------------------
# MLIR path
# ---------------------------------------------------------------------------

def _pass_name(element: str) -> str:
    """The pass (or anchor op) an element of a pass pipeline names: 'cse', 'func.func'."""
    return re.split(r"[{(\s]", element.strip(), maxsplit=1)[0]


class _PrintingPM:
    """A PassManager front that adds every element on its own and prints the IR before /
    after the passes named by --mlir-print-ir-before / -after (MLIR's binding has no such
    filter)."""

    def __init__(self, pm, before: set[str], after: set[str], large: int | None,
                 keep: list) -> None:
        self.pm, self.before, self.after, self.large, self.keep = pm, before, after, large, keep
        self.names: list[str] = []       # top-level passes added, in order
        self.nested: list[str] = []      # passes inside nested pipelines (func.func(...))

    def add(self, entry, name=None, argument=None, description=None):
        if isinstance(entry, str):
            from pipeline_mlir.passes.registry import split_top

            for element in split_top(entry):
                self._around(_pass_name(element), lambda e=element: self.pm.add(e))
                inner = re.search(r"\((.*)\)\s*$", element, re.S)
                if inner:
                    self.nested += [_pass_name(x) for x in split_top(inner.group(1))]
            return
        self.keep.append(entry)
        self._around(name, lambda: self.pm.add(entry, name=name, argument=argument or name))

    def _around(self, name: str, add) -> None:
        self.names.append(name)
        if name in self.before:
            self._printer("Before", name)
        add()
        if name in self.after:
            self._printer("After", name)

    def _printer(self, when: str, name: str) -> None:
        large = self.large

        def dump(op, pass_):
            text = op.get_asm(large_elements_limit=large)
            _stderr(f"// -----// IR Dump {when} {name} //----- //\n{text}")

        self.keep.append(dump)
        self.pm.add(dump, name=f"print-ir-{when.lower()}-{name}",
                    argument=f"print-ir-{when.lower()}-{name}")

    def check_requests(self) -> None:
        """A requested pass that is not in the pipeline is an error, never a silent no-op."""
        for flag, wanted in (("--mlir-print-ir-before", self.before),
                             ("--mlir-print-ir-after", self.after)):
            for name in sorted(wanted - set(self.names)):
                if name in self.nested:
                    raise UsageError(f"{flag}={name}: '{name}' runs inside a nested pipeline; "
                                     f"name the nested pipeline's anchor (e.g. func.func) or "
                                     f"use {flag}-all")
                known = list(dict.fromkeys(self.names))
                raise UsageError(f"{flag}={name}: the pipeline has no pass '{name}'"
                                 f"{_suggest(name, known)} (its passes: {', '.join(known)})")


def _names(text: str | None) -> set[str]:
    return {n.strip() for n in (text or "").split(",") if n.strip()}


#: how far a named pipeline runs for each emit kind (passes/registry.py named_pipeline)
PIPELINE_END = {**{k: "phases" for k in SCHEDULE_EMITS}, "mlir": "lowered",
                **{k: "llvm" for k in NEEDS_LLVM}}


class Job:
    """One run of the tool over one input (or one split chunk)."""

    def __init__(self, args, filename: str, schedule=None) -> None:
        self.args = args
        self.filename = filename
        self.schedule = schedule  # the named schedule of --pipeline (NamedSchedule) or None
        self.keep = []  # pass objects must outlive the PassManager

    def build_pm(self, ctx):
        from pipeline_mlir.dialect.bindings import passmanager
        from pipeline_mlir.passes import registry

        args = self.args
        real = passmanager.PassManager("builtin.module", ctx)
        pm = _PrintingPM(real, _names(args.mlir_print_ir_before),
                         _names(args.mlir_print_ir_after),
                         args.mlir_elide_elementsattrs_if_larger, self.keep)
        emit = args.emit
        if self.schedule is not None:
            items = registry.named_pipeline(self.schedule, PIPELINE_END[emit], args.mcpu)
        else:
            items = registry.plan(args.pass_pipeline or "")
            if emit in NEEDS_LLVM:
                items += registry.llvm_step(args.mcpu)
        for text, obj in items:
            if obj is not None:
                pm.add(obj, name=text)
                continue
            try:
                pm.add(text)
            except ValueError as e:
                raise Failure.at(_bad_element(text, e, registry)) from None
        pm.check_requests()
        if args.mlir_print_ir_after_all or args.mlir_print_ir_before_all:
            real.enable_ir_printing(print_before_all=args.mlir_print_ir_before_all,
                                    print_after_all=args.mlir_print_ir_after_all,
                                    large_elements_limit=args.mlir_elide_elementsattrs_if_larger)
        if args.mlir_timing:
            real.enable_timing()
        return real

    def plans(self) -> list:
        """The kernel plans ``sched-lower-to-rocdl`` lowered (after :meth:`run`)."""
        return [plan for obj in self.keep for plan in getattr(obj, "plans", ())]

    def run(self, text: str | None, line_offset: int = 0) -> tuple[object, list[Diag]]:
        """(output text or bytes, diagnostics); an error diagnostic means failure."""
        from pipeline_mlir.dialect.bindings import ir, new_context

        diags: list[Diag] = []
        with new_context() as ctx:
            if self.args.mlir_disable_threading:
                ctx.enable_multithreading(False)

            def collect(d):  # warnings and remarks; errors come with the MLIRError
                diags.append(from_mlir(d, self.filename))
                return True

            handler = ctx.attach_diagnostic_handler(collect)
            try:
                try:
                    module = ir.Module.parse("\n" * line_offset + text, ctx) \
                        if text is not None else ir.Module.create(ir.Location.unknown(ctx))
                except ir.MLIRError as e:
                    return None, diags + [from_mlir(d, self.filename)
                                          for d in e.error_diagnostics]
                if self.schedule is not None and text is not None \
                        and not list(module.body.operations):
                    spec = self.args.pipeline
                    return None, diags + [Diag(
                        "error", f"the input has no operations: nothing to pipeline (without "
                                 f"an input file, --pipeline='{spec}' compiles the schedule's "
                                 f"default body)", where=self.filename)]
                pm = self.build_pm(ctx)
                try:
                    pm.run(module.operation)
                except ir.MLIRError as e:
                    return None, diags + [from_mlir(d, self.filename)
                                          for d in e.error_diagnostics]
                return self.emit(module), diags
            finally:
                handler.detach()

    def emit(self, module):
        emit = self.args.emit
        if emit in SCHEDULE_EMITS:
            from pipeline_mlir.dialect.ir_io import (
                IRError,
                compiled_from_ir,
                pipeline_ops,
                read_pipeline,
            )
            pops = pipeline_ops(module.operation)
            if not pops:
                raise Failure.at(f"--emit={emit}: the output has no 'sched.pipeline' op",
                                 self.filename)
            try:
                return "".join(_format(compiled_from_ir(read_pipeline(p)), emit) for p in pops)
            except IRError as e:
                raise Failure([from_location("error", f"--emit={emit}: {e}", e.op.location,
                                             self.filename)]) from None
        if emit == "mlir":
            return module.operation.get_asm(
                large_elements_limit=self.args.mlir_elide_elementsattrs_if_larger)
        from pipeline_mlir.passes.translate import translate_to_llvm_ir

        ll = translate_to_llvm_ir(module)
        if emit == "llvm":
            return ll
        from pipeline_mlir.isa.codegen import compile_llvm_ir, link_hsaco

        if emit == "asm":
            return compile_llvm_ir(ll, mcpu=self.args.mcpu, kind="asm")
        if emit == "report":  # resources, occupancy, counts, ISA check (isa/report.py)
            from pipeline_mlir.isa.report import report_from_llvm_ir

            plans = self.plans()
            return report_from_llvm_ir(ll, self.args.mcpu, plans[0] if len(plans) == 1 else None)
        obj = compile_llvm_ir(ll, mcpu=self.args.mcpu, kind="obj")
        return obj if emit == "obj" else link_hsaco(obj)


def _bad_element(text: str, err: ValueError, registry) -> str:
    """The message for a --pass-pipeline element MLIR rejected."""
    name = _pass_name(text)
    ours = list(registry.PASSES) + [registry.LLVM_STEP]
    hint = _suggest(name, ours)
    if "does not refer to a registered pass" in str(err):
        return (f"--pass-pipeline: unknown pass '{name}'{hint}: neither a sched pass "
                f"({', '.join(ours)}) nor a pass MLIR knows")
    detail = " ".join(str(err).split("error:")[-1].split())
    detail = re.sub(r"\s+\S*\s*\^$", "", detail)  # MLIR's echo of the element and its caret
    return f"--pass-pipeline: bad element '{text}': {detail}{hint}"


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def _check_args(args) -> None:
    if args.emit is None:
        args.emit = "schedule" if args.input is None and args.pass_pipeline is None else "mlir"
    if args.emit not in EMIT_KINDS:
        raise UsageError(f"unknown --emit kind '{args.emit}'{_suggest(args.emit, EMIT_KINDS)} "
                         f"(choose from {', '.join(EMIT_KINDS)})")
    if args.pipeline is None and args.pass_pipeline is None and args.input is None:
        raise UsageError("nothing to do: give --pipeline=NAME (a named pipeline), "
                         "--pass-pipeline=TEXT or an input file (see --help)")
    if args.pipeline is not None and args.pass_pipeline is not None:
        raise UsageError("--pipeline and --pass-pipeline cannot be combined (a named pipeline "
                         "is a pass pipeline; list its passes with --help)")
    if args.mcpu not in CHIPS:
        raise UsageError(f"--mcpu={args.mcpu}: unsupported processor (supported: "
                         f"{', '.join(CHIPS)}; the cost models and MFMA shapes are gfx950's)")
    if args.emit in BINARY_EMITS and args.output == "-" and _stdout_is_terminal():
        raise UsageError(f"--emit={args.emit} writes binary data: give -o FILE")
    if args.verify_diagnostics and args.emit not in ("mlir",) + SCHEDULE_EMITS:
        raise UsageError("--verify-diagnostics works with --emit=mlir or schedule")


def _check_stdin(args) -> None:
    if args.input is None and args.pipeline is not None and args.pass_pipeline is None \
            and _stdin_has_data():
        raise UsageError(f"standard input has data, but --pipeline='{args.pipeline}' without "
                         f"an input file does not read it (it builds the pipeline's default "
                         f"body or kernel): give '-' as the input to read standard input")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _stdin_has_data() -> bool:
    """Whether standard input is a pipe or file with something in it (never blocks: a pipe
    nobody has written to yet counts as empty)."""
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # closed, or replaced (pytest)
        return False
    if stat.S_ISREG(mode):
        return os.fstat(fd).st_size > 0
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return False  # a terminal, /dev/null
    import select

    try:
        ready, _, _ = select.select([fd], [], [], 0)
        return bool(ready) and os.read(fd, 1) != b""
    except OSError:
        return False


def _kernel_source(args, schedule):
    """With no input, a named kernel pipeline and a code emit kind: the complete GEMM kernel
    (its MLIR text, its name and the kernel's schedule), else None."""
    from pipeline_mlir.kernel import gemm
    from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES

    if args.input is not None or schedule is None:
        return None
    if args.emit not in ("mlir",) + NEEDS_LLVM:
        return None
    if not schedule.has_kernel:
        if args.emit == "mlir":
            return None  # the abstract pipeline, lowered
        raise Failure.at(f"--emit={args.emit} without an input builds a complete GEMM kernel, "
                         f"which exists for {' and '.join(KERNEL_SCHEDULES)}, not "
                         f"'{schedule.name}' (give a kernel as input)")
    kernel = gemm.gemm_kernel(schedule)
    # the kernel's schedule must compile before its (possibly huge) kernel is written: a tile
    # whose waits exceed the counters fails here in milliseconds, not after minutes of MLIR
    kernel.request.compile()
    # the kernel's natural K-loop: sched-adopt-loop makes it the schedule's loop, as it does
    # for any other kernel's
    return gemm.natural_kernel_mlir(kernel), f"<gemm kernel {kernel.name}>", kernel.request


def _read_input(args, schedule) -> tuple[str | None, str, object]:
    """(text or None for 'no input', file name for messages, the schedule the passes get)."""
    kernel = _kernel_source(args, schedule)
    if kernel is not None:
        return kernel
    if args.input is None and schedule is not None:
        return None, "<default body>", schedule
    path = args.input or "-"
    if path == "-":
        try:
            return sys.stdin.read(), "<stdin>", schedule
        except (AttributeError, OSError, ValueError):
            raise Failure.at("cannot read standard input: it is closed") from None
        except UnicodeDecodeError:
            raise Failure.at("standard input is not UTF-8 text") from None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path, schedule
    except OSError as e:
        raise Failure.at(f"cannot read '{path}': {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise Failure.at(f"'{path}' is not UTF-8 text") from None


def _chunks(text: str | None, split: bool) -> list[tuple[str | None, int]]:
    if text is None or not split:
        return [(text, 0)]
    out, start, line = [], 0, 0
    for m in SPLIT_MARKER.finditer(text):
        out.append((text[start:m.start()], line))
        line += text[start:m.end()].count("\n")
        start = m.end()
    out.append((text[start:], line))
    return out


def _kernel_diags(diags: list[Diag], source: str, spec: str) -> list[Diag]:
    """Diagnostics located in the generated kernel text belong to the user's spec: the
    kernel is no file anyone can open. Identical ones (one payload op, several entries)
    are reported once."""
    out, seen = [], set()
    for d in diags:
        if d.file == source:
            d = Diag(d.severity, f"pipeline '{spec}': {d.message}",
                     notes=_kernel_diags(d.notes, source, spec))
        key = (d.severity, d.location(), d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _run(args, sources: Sources) -> tuple[object, list[Diag]]:
    """(output or None, diagnostics); the output is None when nothing may be written."""
    from pipeline_mlir.schedules.registry import parse_pipeline

    schedule = parse_pipeline(args.pipeline) if args.pipeline is not None else None
    if args.input is None and schedule is not None and args.emit in SCHEDULE_EMITS \
            and not _mlir_only_flags(args):
        return _format(schedule.compile(), args.emit), []
    user_spec = args.pipeline
    text, filename, schedule = _read_input(args, schedule)
    generated = filename.startswith("<gemm kernel ")
    if not generated:
        sources.add(filename, text)
    chunks = _chunks(text, args.split_input_file)
    if args.emit in BINARY_EMITS and len(chunks) > 1:
        raise Failure.at(f"--emit={args.emit} writes one binary file: --split-input-file found "
                         f"{len(chunks)} chunks (compile them one at a time)")
    outputs, all_diags, failed = [], [], False
    for chunk, offset in chunks:
        job = Job(args, filename, schedule)
        try:
            out, diags = job.run(chunk, offset)
        except Failure as f:
            out, diags = None, f.diags
        if generated:
            diags = _kernel_diags(diags, filename, user_spec)
        if args.verify_diagnostics:
            expected, bad = expectations(chunk or "", filename, offset)
            diags = bad + check(expected, diags, filename)
            out = out if out is not None or diags else ""
        chunk_failed = out is None or any(d.severity == "error" for d in diags)
        failed |= chunk_failed
        all_diags += diags
        outputs.append(None if chunk_failed else out)
    good = [o for o in outputs if o is not None]
    if any(isinstance(o, bytes) for o in good):
        return (None if failed else good[0]), all_diags
    if args.split_input_file:  # as mlir-opt: every chunk's output, a failed one empty
        text_out = "// -----\n".join(_line_end(o) for o in outputs)
    else:
        text_out = "".join(_line_end(o) for o in good)
    if failed and args.output != "-":
        return None, all_diags  # -o stays untouched when anything failed
    return (text_out if good or not failed else None), all_diags


def compile_pipeline(spec: str, emit: str = "llvm") -> tuple[object, list]:
    """``pipeline-opt --pipeline=SPEC --emit=EMIT`` (no input) in process: the output and
    the kernel plans ``sched-lower-to-rocdl`` lowered.  A failure raises
    :class:`~pipeline_mlir.errors.PipelineError` with the diagnostics."""
    from pipeline_mlir.schedules.registry import parse_pipeline

    try:
        args = _parser().parse_args([f"--pipeline={spec}", f"--emit={emit}"])
        _check_args(args)
        user_spec = args.pipeline
        text, filename, schedule = _read_input(args, parse_pipeline(spec))
        job = Job(args, filename, schedule)
        out, diags = job.run(text)
    except (UsageError, Failure) as e:
        raise PipelineError(str(e)) from None
    if filename.startswith("<gemm kernel "):
        diags = _kernel_diags(diags, filename, user_spec)
    errors = [d for d in diags if d.severity == "error"]
    if errors or out is None:
        raise PipelineError("\n".join(line for d in errors for line in render(d, None, PROG)))
    return out, job.plans()


def _line_end(text: str | None) -> str:
    return "" if not text else text if text.endswith("\n") else text + "\n"


def _mlir_only_flags(args) -> bool:
    return bool(args.mlir_print_ir_after_all or args.mlir_print_ir_before_all
                or args.mlir_print_ir_after or args.mlir_print_ir_before or args.mlir_timing)


def _write(path: str, data) -> None:
    """Write the output: to stdout for ``-``; else whole or not at all (a temporary file in
    the target's directory, renamed over it only once everything is written)."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if path == "-":
        out = sys.stdout
        if out is None:
            raise OSError("standard output is closed")
        try:
            out.flush()
            buffer = getattr(out, "buffer", None)
            if buffer is not None:
                buffer.write(raw)
            else:
                out.write(raw.decode("utf-8"))
            out.flush()
        except BrokenPipeError:
            # the reader went away (`pipeline-opt ... | head`): not an error of ours

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except ValueError:  # closed file object
            raise OSError("standard output is closed") from None
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, /dev/stdout, a FIFO
        with open(path, "wb") as f:
            f.write(raw)
        return
    import tempfile

    target = os.path.realpath(path)  # through a symlink: replace the file it names
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                               dir=os.path.dirname(target) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _print_diags(diags: list[Diag], sources: Sources) -> None:
    for d in diags:
        for line in render(d, sources, PROG):
            _stderr(line)


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(normalize_argv(parser, list(sys.argv[1:] if argv is None
                                                             else argv)))
        simulate.check_args(args)
        emulate.check_args(args)
        tune.check_args(args)
        if args.simulate is None and args.emulate is None:
            _check_args(args)
            _check_stdin(args)
    except (UsageError, simulate.SimulateUsage, emulate.EmulateUsage, tune.TuneUsage) as e:
        return _error(e)
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else 0
    sources = Sources()
    try:
        if args.simulate is not None:
            out, problem = simulate.run(args)
            if problem is not None:  # the report goes to stdout, then the hazard; -o untouched
                if args.output == "-":
                    _write("-", out)
                _stderr(" ".join(problem.split()))
                return 1
            diags = []
        elif args.emulate is not None:
            out, problem = emulate.run(args, sources)
            if problem is not None:  # the run's report to stdout, then the finding
                _write("-", out)
                _stderr(" ".join(problem.split()))
                return 1
            diags = []
        elif args.tune:
            return _tune(args)
        elif args.launch is not None:
            out, diags = _launch(args), []
        else:
            out, diags = _run(args, sources)
    except (UsageError, simulate.SimulateUsage, emulate.EmulateUsage) as e:
        return _error(e)
    except Failure as f:
        out, diags = None, f.diags
    except PipelineError as e:
        return _error(e)
    except Exception as e:  # a bug of ours: still one line, unless asked for the traceback

        if os.environ.get("PIPELINE_OPT_TRACEBACK"):
            raise
        return _error(f"internal error: {type(e).__name__}: {e} (please report it; set "
                      f"PIPELINE_OPT_TRACEBACK=1 for the traceback)")
    failed = out is None or any(d.severity == "error" for d in diags)
    if out is not None:
        try:
            _write(args.output, out)
        except OSError as e:
            what = "standard output" if args.output == "-" else f"'{args.output}'"
            _print_diags(diags, sources)
            return _error(f"cannot write {what}: {e.strerror or e}")
    _print_diags(diags, sources)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """Run the driver; returns the exit status (0 success, 1 any error, 130 after Ctrl-C,
    143 after SIGTERM)."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        _stderr(f"{PROG}: interrupted")
        return INTERRUPTED_RC
    except Terminated:
        _stderr(f"{PROG}: terminated")
        return TERMINATED_RC
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


if __name__ == "__main__":
    sys.exit(main())
