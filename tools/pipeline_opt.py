"""``pipeline-opt``: the command-line driver (an ``mlir-opt``-style tool).

Input: an MLIR file (``-`` or no file with ``--pass-pipeline``: stdin) holding
``sched.pipeline`` ops (abstract form) or a ``gpu.module`` kernel whose K-loop
has sched-tagged ops (concrete form); with ``--pipeline=NAME{...}`` and no
input, the named schedule's default body.

Passes: ``--pipeline=NAME{key=value ...}`` (a named pipeline: sched-import,
the scheduling passes, sched-verify, and the lowering the ``--emit`` kind
needs) or ``--pass-pipeline='builtin.module(...)'`` (any mix of ``sched-*``
passes and upstream passes).

Output (``--emit``): ``mlir`` (default with input), ``llvm``, ``asm``, ``obj``,
``hsaco``, ``schedule`` (default without input; the reference debug format),
``schedule-json``.

Every failure prints ``LOCATION: error: message`` (or ``pipeline-opt: error:
message``) on stderr and exits with status 1; no Python traceback, and LLVM
aborts are contained in a subprocess.  ``PIPELINE_OPT_TRACEBACK=1`` shows the
traceback of an internal error.

Start-up cost matters: the MLIR bindings are imported only when needed; the
default-body ``--emit=schedule`` path does not import them at all.
That is why the imports of ``pipeline_mlir.dialect`` and ``pipeline_mlir.passes`` sit inside
the functions that use them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

from pipeline_mlir.tools import emulate, simulate

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.codegen import compile_llvm_ir, link_hsaco
from pipeline_mlir.isa.report import report_from_llvm_ir
from pipeline_mlir.kernel.gemm import gemm_kernel, kernel_mlir
from pipeline_mlir.kernel.launch import check_launch, format_launch
from pipeline_mlir.schedule.printing import format_schedule, schedule_to_json
from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES, describe_pipelines, parse_pipeline

PROG = "pipeline-opt"
EMIT_KINDS = ("mlir", "llvm", "asm", "obj", "hsaco", "report", "schedule", "schedule-json")
NEEDS_LLVM = ("llvm", "asm", "obj", "hsaco", "report")
SCHEDULE_EMITS = ("schedule", "schedule-json")
CHIPS = ("gfx950",)
SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)


class UsageError(Exception):
    """A command-line problem (reported like any other error, exit status 1)."""


class Failure(Exception):
    """Diagnostics already formatted as lines for stderr."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _epilog() -> str:

    lines = ["named pipelines (--pipeline=NAME or NAME{key=value key=value ...}; pairs "
             "separated by spaces or commas;\nbooleans true/false/1/0; integers decimal, "
             "0x.. or 0b..):", describe_pipelines(), "", "passes (--pass-pipeline; "
             "options as name{key=value ...}):"]
    try:
        from pipeline_mlir.passes.registry import PASSES
    except Exception as e:  # pragma: no cover - bindings missing
        lines.append(f"  (unavailable: {e})")
    else:
        for name, cls in PASSES.items():
            lines.append(f"  {name:<24}{cls.summary}")
            lines += cls.option_table().describe(" " * 6, 22)
        lines.append(f"  {'sched-to-llvm':<24}LLVM step (added by --emit=llvm|asm|obj|hsaco): "
                     f"scf->cf, iree-convert-to-rocdl, rocdl -> LLVM intrinsics, kernel attributes")
        lines.append("  any upstream or IREE pass, e.g. canonicalize, cse, "
                     "func.func(canonicalize)")
    lines += ["", "examples:",
              "  pipeline-opt --pipeline=pingpong --emit=schedule",
              "  pipeline-opt --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=mlir",
              "  pipeline-opt --pipeline=4wave kernel.mlir --emit=asm -o kernel.s",
              "  pipeline-opt in.mlir --pass-pipeline='builtin.module(sched-import{schedule="
              "pingpong},sched-verify,sched-annotate,canonicalize)'",
              "  pipeline-opt --split-input-file --verify-diagnostics --pass-pipeline="
              "'builtin.module(sched-verify)' bad.mlir"]
    return "\n".join(lines)


def _parser():

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # never print usage + exit 2: one line, exit 1
            raise UsageError(message)

        def format_help(self):  # the pass list is built only when help is shown
            if self.epilog is None:
                self.epilog = _epilog()
            return super().format_help()

    class Once(argparse.Action):  # a repeated option would silently replace the first
        def __call__(self, parser, namespace, values, option_string=None):
            if option_string in getattr(namespace, "_given", ()):
                parser.error(f"argument {option_string}: given more than once")
            namespace._given = (*getattr(namespace, "_given", ()), option_string)
            setattr(namespace, self.dest, values)

    p = Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Software-pipeline gfx950 (MI355X) matmul K-loops: schedule, verify and "
                    "lower sched IR to amdgpu/rocdl, LLVM IR, gfx950 assembly or code objects.")
    p.add_argument("input", nargs="?", metavar="INPUT",
                   help="MLIR input file ('-' for stdin; default: the named pipeline's "
                        "default body, or stdin with --pass-pipeline)")
    p.add_argument("--pipeline", metavar="SPEC", action=Once,
                   help="named pipeline with options, e.g. '4wave{dtype=bf16 BM=128}'")
    p.add_argument("--pass-pipeline", metavar="TEXT", action=Once,
                   help="explicit pass pipeline, e.g. 'builtin.module(sched-verify,cse)'")
    p.add_argument("--emit", metavar="KIND", default=None, action=Once,
                   help=f"output kind: {', '.join(EMIT_KINDS)} (default: mlir with an input, "
                        f"schedule without)")
    p.add_argument("-o", dest="output", metavar="FILE", default="-", action=Once,
                   help="write the output to FILE (default: stdout)")
    p.add_argument("--mcpu", metavar="CHIP", default="gfx950", action=Once,
                   help="target processor (default gfx950, the only one supported)")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk of the input on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check the errors against the input's 'expected-error' comments")
    p.add_argument("--mlir-print-ir-after-all", action="store_true",
                   help="print the IR after every pass (to stderr)")
    p.add_argument("--mlir-timing", action="store_true",
                   help="print the time each pass took (to stderr)")
    p.add_argument("--launch", metavar="M,N,K", action=Once,
                   help="check a problem size against the complete kernel of --pipeline "
                        "(4wave, pingpong) and print its launch configuration: grid, "
                        "workgroup, LDS, kernel-argument layout")
    sim = p.add_argument_group(
        "simulator", "check a schedule for hazards and time it on a model of one CU "
                     "(exit 1 on a hazard)")
    sim.add_argument("--simulate", metavar="FILE", nargs="?", const="", default=None,
                     action=Once,
                     help="simulate a schedule dump (debug format) or a kernel's gfx950 "
                          "assembly as the kernel of --pipeline runs it; without FILE the "
                          "project's own schedule of --pipeline and its kernel")
    sim.add_argument("--report", metavar="PICTURE", nargs="?", const="-", default=None,
                     action=Once,
                     help="print the whole simulation report; with PICTURE (.svg or .png) "
                          "also draw one steady-state iteration")
    sim.add_argument("--cost-table", metavar="TABLE", default="both", action=Once,
                     help="timing cost table: llvm (LLVM's gfx950 SchedModel, equals "
                          "llvm-mca-22), measured (gfx950 latencies) or both (default)")
    sim.add_argument("--sim-iterations", metavar="N", type=int, default=6, action=Once,
                     help="check main loops of 0..N iterations (default 6)")
    emu = p.add_argument_group(
        "emulator", "run the gfx950 machine code of a kernel on random data against the numpy "
                    "reference (exit 1 on a wrong result or a finding)")
    emu.add_argument("--emulate", metavar="M,N,K", action=Once,
                     help="emulate the complete kernel of --pipeline (or the code object / "
                          "assembly FILE given as input) on an M x N x K problem")
    emu.add_argument("--emulate-mode", metavar="MODE", default="eager", action=Once,
                     help="when memory operations complete: eager (default), late (at the "
                          "wait that forces them) or random[:SEED]")
    return p


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
    kernel = gemm_kernel(parse_pipeline(args.pipeline))
    return format_launch(check_launch(kernel, m, n, k))


def _error(message: str) -> int:
    one_line = " ".join(str(message).split())
    print(f"{PROG}: error: {one_line}", file=sys.stderr)
    return 1


# ---------------------------------------------------------------------------
# Fast path: default body to schedule text, no MLIR
# ---------------------------------------------------------------------------

def _format(compiled, emit: str) -> str:
    if emit == "schedule-json":


        return json.dumps(schedule_to_json(compiled), indent=2) + "\n"

    return format_schedule(compiled)


# ---------------------------------------------------------------------------
# MLIR path
# ---------------------------------------------------------------------------

def _where(loc, filename: str) -> tuple[str, int | None]:
    from pipeline_mlir.dialect.ir_io import location_text

    return location_text(loc, filename)


def _diagnostics(err, filename: str) -> list[tuple[str, int | None, str]]:
    """(location text, line, message) of each error diagnostic of an MLIRError."""
    out = []
    diags = list(getattr(err, "error_diagnostics", []) or [])
    for d in diags:
        where, line = _where(d.location, filename)
        out.append((where, line, str(d.message)))
        for n in d.notes:
            nw, nl = _where(n.location, filename)
            out.append((nw, nl, "note: " + str(n.message)))
    if not out:
        out.append((filename, None, str(getattr(err, "message", err))))
    return out


def _format_diags(diags) -> list[str]:
    lines = []
    for where, _line, msg in diags:
        kind = "" if msg.startswith("note: ") else "error: "
        lines.append(f"{where}: {kind}{' '.join(msg.split())}")
    return lines


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

        pm = passmanager.PassManager("builtin.module", ctx)
        emit = self.args.emit
        if self.schedule is not None:
            items = registry.named_pipeline(self.schedule, PIPELINE_END[emit], self.args.mcpu)
        else:
            items = registry.plan(self.args.pass_pipeline or "")
            if emit in NEEDS_LLVM:
                items += registry.llvm_step(self.args.mcpu)
        for text, obj in items:
            if obj is not None:
                self._add(pm, text, obj)
                continue
            try:
                pm.add(text)
            except ValueError as e:
                detail = " ".join(str(e).split("error:")[-1].split())
                raise Failure([f"{PROG}: error: --pass-pipeline: bad element '{text}': "
                               f"{detail} (sched passes: "
                               f"{', '.join(registry.PASSES)}, {registry.LLVM_STEP})"]
                              ) from None
        if self.args.mlir_print_ir_after_all:
            pm.enable_ir_printing()
        if self.args.mlir_timing:
            pm.enable_timing()
        return pm

    def _add(self, pm, name, obj) -> None:
        self.keep.append(obj)
        pm.add(obj, name=name, argument=name)

    def plans(self) -> list:
        """The kernel plans ``sched-lower-to-rocdl`` lowered (after :meth:`run`)."""
        return [plan for obj in self.keep for plan in getattr(obj, "plans", ())]

    def run(self, text: str, line_offset: int = 0):
        """(output text or bytes, diagnostics); diagnostics non-empty means failure."""
        from pipeline_mlir.dialect.bindings import ir, new_context

        with new_context() as ctx:
            try:
                module = ir.Module.parse("\n" * line_offset + text, ctx) if text is not None \
                    else ir.Module.create(ir.Location.unknown(ctx))
            except ir.MLIRError as e:
                return None, _diagnostics(e, self.filename)
            pm = self.build_pm(ctx)
            try:
                pm.run(module.operation)
            except ir.MLIRError as e:
                return None, _diagnostics(e, self.filename)
            return self.emit(module), []

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
                raise Failure([f"{self.filename}: error: --emit={emit}: the output has no "
                               f"'sched.pipeline' op"])
            try:
                return "".join(_format(compiled_from_ir(read_pipeline(p)), emit) for p in pops)
            except IRError as e:
                where, _ = _where(e.op.location, self.filename)
                raise Failure([f"{where}: error: --emit={emit}: {e}"]) from None
        if emit == "mlir":
            return str(module)
        from pipeline_mlir.passes.to_llvm import translate_to_llvm_ir

        ll = translate_to_llvm_ir(module)
        if emit == "llvm":
            return ll

        if emit == "asm":
            return compile_llvm_ir(ll, mcpu=self.args.mcpu, kind="asm")
        if emit == "report":  # resources, occupancy, counts, ISA check (isa/report.py)
            plans = self.plans()
            return report_from_llvm_ir(ll, self.args.mcpu, plans[0] if len(plans) == 1 else None)
        obj = compile_llvm_ir(ll, mcpu=self.args.mcpu, kind="obj")
        return obj if emit == "obj" else link_hsaco(obj)


# ---------------------------------------------------------------------------
# --verify-diagnostics
# ---------------------------------------------------------------------------

_EXPECTED = re.compile(r"//\s*expected-(error|note)\s*(?:@([+-]\d+|above|below))?\s*"
                       r"\{\{(.*?)\}\}")


def expected_diagnostics(text: str, line_offset: int) -> list[tuple[int, str, str]]:
    """(line, kind, message) of each ``expected-error`` / ``expected-note`` comment."""
    out = []
    for i, line in enumerate(text.splitlines(), start=1 + line_offset):
        for m in _EXPECTED.finditer(line):
            rel = m.group(2)
            target = i + (int(rel) if rel and rel[0] in "+-" else
                          -1 if rel == "above" else 1 if rel == "below" else 0)
            out.append((target, m.group(1), m.group(3).strip()))
    return out


def check_expected(expected, diags, filename: str) -> list[str]:
    problems = []
    remaining = list(diags)
    for line, kind, msg in expected:
        for i, (_w, dl, dm) in enumerate(remaining):
            is_note = dm.startswith("note: ")
            if dl == line and (kind == "note") == is_note and msg in dm:
                remaining.pop(i)
                break
        else:
            problems.append(f"{filename}:{line}: error: expected {kind} \"{msg}\" was not "
                            f"produced")
    for where, _dl, dm in remaining:
        if not dm.startswith("note: "):
            problems.append(f"{where}: error: unexpected error: {' '.join(dm.split())}")
    return problems


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def _check_args(args) -> None:
    if args.emit is None:
        args.emit = "schedule" if args.input is None and args.pass_pipeline is None else "mlir"
    if args.emit not in EMIT_KINDS:
        raise UsageError(f"unknown --emit kind '{args.emit}' (choose from "
                         f"{', '.join(EMIT_KINDS)})")
    if args.pipeline is None and args.pass_pipeline is None and args.input is None:
        raise UsageError("nothing to do: give --pipeline=NAME (a named pipeline), "
                         "--pass-pipeline=TEXT or an input file (see --help)")
    if args.pipeline is not None and args.pass_pipeline is not None:
        raise UsageError("--pipeline and --pass-pipeline cannot be combined (a named pipeline "
                         "is a pass pipeline; list its passes with --help)")
    if args.mcpu not in CHIPS:
        raise UsageError(f"--mcpu={args.mcpu}: unsupported processor (supported: "
                         f"{', '.join(CHIPS)}; the cost models and MFMA shapes are gfx950's)")
    if args.emit in ("obj", "hsaco") and args.output == "-" and sys.stdout.isatty():
        raise UsageError(f"--emit={args.emit} writes binary data: give -o FILE")
    if args.verify_diagnostics and args.emit not in ("mlir",) + SCHEDULE_EMITS:
        raise UsageError("--verify-diagnostics works with --emit=mlir or schedule")


def _kernel_source(args, schedule):
    """With no input, a named kernel pipeline and a code emit kind: the complete GEMM kernel
    (its MLIR text, its name and the kernel's schedule), else None."""
    if args.input is not None or schedule is None:
        return None
    if args.emit not in ("mlir",) + NEEDS_LLVM:
        return None
    if not schedule.has_kernel:
        if args.emit == "mlir":
            return None  # the abstract pipeline, lowered
        raise Failure([f"{PROG}: error: --emit={args.emit} without an input builds a complete "
                       f"GEMM kernel, which exists for {' and '.join(KERNEL_SCHEDULES)}, not "
                       f"'{schedule.name}' (give a kernel as input)"])
    kernel = gemm_kernel(schedule)
    return kernel_mlir(kernel), f"<gemm kernel {kernel.name}>", kernel.request


def _read_input(args, schedule) -> tuple[str | None, str, object]:
    """(text or None for 'no input', file name for messages, the schedule the passes get)."""
    kernel = _kernel_source(args, schedule)
    if kernel is not None:
        return kernel
    if args.input is None and schedule is not None:
        return None, "<default body>", schedule
    path = args.input or "-"
    if path == "-":
        return sys.stdin.read(), "<stdin>", schedule
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path, schedule
    except OSError as e:
        raise Failure([f"{PROG}: error: cannot read '{path}': {e.strerror or e}"]) from None
    except UnicodeDecodeError:
        raise Failure([f"{PROG}: error: '{path}' is not UTF-8 text"]) from None


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


def _run(args) -> tuple[object, list[str]]:
    """(output, error lines)."""
    schedule = parse_pipeline(args.pipeline) if args.pipeline is not None else None
    if args.input is None and schedule is not None and args.emit in SCHEDULE_EMITS \
            and not (args.mlir_print_ir_after_all or args.mlir_timing):
        return _format(schedule.compile(), args.emit), []
    text, filename, schedule = _read_input(args, schedule)
    outputs, errors = [], []
    for chunk, offset in _chunks(text, args.split_input_file):
        job = Job(args, filename, schedule)
        out, diags = job.run(chunk, offset)
        if args.verify_diagnostics:
            expected = expected_diagnostics(chunk or "", offset)
            errors += check_expected(expected, diags, filename)
            if out is not None:
                outputs.append(out)
            continue
        if diags:
            errors += _format_diags(diags)
            continue
        outputs.append(out)
    if errors:
        return None, errors
    if any(isinstance(o, bytes) for o in outputs):
        return b"".join(outputs), []
    sep = "\n// -----\n" if args.split_input_file and len(outputs) > 1 else ""
    return sep.join(o if o.endswith("\n") else o + "\n" for o in outputs), []


def compile_pipeline(spec: str, emit: str = "llvm") -> tuple[object, list]:
    """``pipeline-opt --pipeline=SPEC --emit=EMIT`` (no input) in process: the output and
    the kernel plans ``sched-lower-to-rocdl`` lowered.  A failure raises
    :class:`~pipeline_mlir.errors.PipelineError` with the diagnostics."""
    try:
        args = _parser().parse_args([f"--pipeline={spec}", f"--emit={emit}"])
        _check_args(args)
        text, filename, schedule = _read_input(args, parse_pipeline(spec))
        job = Job(args, filename, schedule)
        out, diags = job.run(text)
    except (UsageError, Failure) as e:
        raise PipelineError(str(e)) from None
    if diags:
        raise PipelineError("\n".join(_format_diags(diags)))
    return out, job.plans()


def _write(path: str, data) -> None:
    if path == "-":
        try:
            if isinstance(data, bytes):
                sys.stdout.buffer.write(data)
            else:
                sys.stdout.write(data)
            sys.stdout.flush()
        except BrokenPipeError:
            # the reader went away (`pipeline-opt ... | head`): not an error of ours

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
        f.write(data)


def main(argv: list[str] | None = None) -> int:
    """Run the driver; returns the exit status (0 success, 1 any error)."""
    try:
        args = _parser().parse_args(argv)
        simulate.check_args(args)
        emulate.check_args(args)
        if args.simulate is None and args.emulate is None:
            _check_args(args)
    except (UsageError, simulate.SimulateUsage, emulate.EmulateUsage) as e:
        return _error(e)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    try:
        if args.simulate is not None:
            out, problem = simulate.run(args)
            errors = []
            if problem is not None:  # the report goes out, then the hazard, exit 1
                _write(args.output, out)
                print(" ".join(problem.split()), file=sys.stderr)
                return 1
        elif args.emulate is not None:
            out, problem = emulate.run(args)
            errors = []
            if problem is not None:
                _write("-", out)
                print(" ".join(problem.split()), file=sys.stderr)
                return 1
        elif args.launch is not None:
            out, errors = _launch(args), []
        else:
            out, errors = _run(args)
    except (UsageError, simulate.SimulateUsage, emulate.EmulateUsage) as e:
        return _error(e)
    except Failure as f:
        out, errors = None, f.lines
    except PipelineError as e:
        return _error(e)
    except Exception as e:  # a bug of ours: still one line, unless asked for the traceback

        if os.environ.get("PIPELINE_OPT_TRACEBACK"):
            raise
        return _error(f"internal error: {type(e).__name__}: {e} (please report it; set "
                      f"PIPELINE_OPT_TRACEBACK=1 for the traceback)")
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    try:
        _write(args.output, out)
    except OSError as e:
        return _error(f"cannot write '{args.output}': {e.strerror or e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
