"""The command line of ``pipeline-opt``: the argument parser, its help, and the mlir-opt
spellings it accepts (:func:`normalize_argv`).

Building the parser and parsing imports nothing heavy: the lists of pipelines and passes are
written only when help is shown, and the passes are listed there by name
(:mod:`pipeline_mlir.passes.catalogue`); ``--list-passes`` imports them (and MLIR) to describe
each.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from pipeline_mlir.driver.base import DEFAULT_BUDGET, EMIT_KINDS, PROG, UsageError
from pipeline_mlir.options import decimal
from pipeline_mlir.target import DEFAULT_CHIP
from pipeline_mlir.tools.output import print_and_exit
from pipeline_mlir.tools.version import version_text

#: ``--emulate M,N,K`` (a separate argument) takes the sizes, well formed or not (digits,
#: signs and separators: ``1,2`` is sizes, and wrong); ``--emulate FILE`` does not (compiled,
#: and cached by re, when ``--emulate`` is given)
SIZES = r"^(?=.*\d)[-+\d\s]*[,x][-+\d\s,x]*$"


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
        print_and_exit(self.text())


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (what argparse wraps help to) without importing
    shutil, which imports the compression modules: ``COLUMNS`` if a positive integer, else
    the width of the terminal of ``sys.__stdout__``, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


def build_parser() -> argparse.ArgumentParser:
    """The parser of pipeline-opt's command line (usage errors raise UsageError)."""

    class Parser(argparse.ArgumentParser):
        showing = False  # formatting text to show (help, usage)

        def error(self, message):  # never print usage + exit 2: one line, exit 1
            raise UsageError(message)

        def format_help(self):  # the lists are built only when help is shown
            if self.epilog is None:
                from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES

                self.epilog = _epilog()
                launch = self._option_string_actions["--launch"]
                launch.help = launch.help.replace("KERNEL_SCHEDULES", ", ".join(KERNEL_SCHEDULES))
            return self._shown(super().format_help)

        def format_usage(self):
            return self._shown(super().format_usage)

        def _shown(self, format_text):
            self.showing = True
            try:
                return format_text()
            finally:
                self.showing = False

        def _get_formatter(self):
            # argparse makes a formatter for every add_argument, only to check its metavar:
            # the terminal's width is asked only for text shown (argparse's width: 2 less)
            width = terminal_columns() - 2 if self.showing else 80
            return self.formatter_class(prog=self.prog, width=width)

    p = Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Software-pipeline gfx950 (MI355X) matmul K-loops: schedule, verify and "
                    "lower sched IR to amdgpu/rocdl, LLVM IR, gfx950 assembly or code objects. "
                    "Long flags may be written with one dash (-split-input-file); a repeated "
                    "flag takes its last value.")
    _compile_arguments(p)
    p.add_argument("--version", action=_PrintAndExit, text=version_text,
                   help="print the versions of the tool and of its MLIR and LLVM")
    p.add_argument("--list-passes", action=_PrintAndExit,
                   text=lambda: "\n".join(_pipeline_list() + [""] + _pass_list()),
                   help="list the named pipelines and the passes with their options")
    p.add_argument("--help-list", action=_PrintAndExit, text=lambda: p.format_help(),
                   help="the same as --help")
    _mlir_arguments(p)
    _simulator_arguments(p)
    _emulator_arguments(p)
    _tune_arguments(p)
    return p


def _compile_arguments(p) -> None:
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
    p.add_argument("--mcpu", metavar="CHIP", default=DEFAULT_CHIP, action=_Store,
                   help=f"target processor (default {DEFAULT_CHIP}, the only one supported)")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk of the input on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check the diagnostics against the input's expected-error/-warning/"
                        "-remark/-note comments")
    p.add_argument("--codegen-timeout", metavar="SECONDS", action=_Store,
                   help="stop each child-process step of the build (the translation to LLVM "
                        "IR when isolated, LLVM's code generation, the link) after SECONDS "
                        "(default: $PIPELINE_OPT_CODEGEN_TIMEOUT, else 120)")
    p.add_argument("--no-isa-check", action="store_true",
                   help="write the code of pipelined kernels (--emit=asm, obj, hsaco, and the "
                        "build of --emulate) without holding it to the ISA check's errors")
    p.add_argument(
        "--launch", metavar="M,N,K", action=_Store,
        help="check a problem size against the complete kernel of --pipeline "
             "(KERNEL_SCHEDULES) and print its launch configuration: grid, workgroup, LDS, "
             "kernel-argument layout")


#: mlir-opt's switches after --mlir-print-ir-before/-after and the elision, in --help's order
_MLIR_SWITCHES = (
    ("--mlir-disable-threading", "run MLIR on one thread"),
    ("--mlir-timing", "print the time each pass took"),
    ("--mlir-print-ir-after-failure", "print the IR after a pass that failed"),
    ("--dump-pass-pipeline", "print the pass pipeline before running it"),
    ("--mlir-print-op-generic", "print operations in the generic form (output and IR dumps)"),
    ("--mlir-print-debuginfo", "print locations (output and IR dumps)"),
    ("--mlir-pretty-debuginfo", "print locations as comments (output and named IR dumps)"),
    ("--mlir-print-local-scope", "print each operation in its local scope, types and "
                                 "attributes inline (output and named IR dumps)"),
    ("--allow-unregistered-dialect", "accepted for RUN lines written for mlir-opt: operations "
                                     "of unregistered dialects always parse here (the sched "
                                     "ops are such)"),
)


def _mlir_arguments(p) -> None:
    mlir = p.add_argument_group("MLIR", "the mlir-opt options of the same names (IR on stderr)")
    for when in ("after", "before"):
        mlir.add_argument(f"--mlir-print-ir-{when}-all", action="store_true",
                          help=f"print the IR {when} every pass")
    for when in ("after", "before"):
        mlir.add_argument(f"--mlir-print-ir-{when}", metavar="PASS[,PASS]", action=_Store,
                          help=f"print the IR {when} each run of the named passes")
    mlir.add_argument("--mlir-elide-elementsattrs-if-larger", metavar="N", type=_count,
                      action=_Store,
                      help="print elements attributes with more than N elements as '...' "
                           "(output and IR dumps)")
    for flag, text in _MLIR_SWITCHES:
        mlir.add_argument(flag, action="store_true", help=text)


def _simulator_arguments(p) -> None:
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
    sim.add_argument("--sim-iterations", metavar="N", type=_integer, default=6, action=_Store,
                     help="check main loops of 0..N iterations (default 6)")
    sim.add_argument("--sim-trips", metavar="M,N,K", action=_Store,
                     help="time the inner loops of the assembly FILE with their trip counts "
                          "measured on the emulator at this launch of the dispatch INPUT "
                          "it was built from")


def _emulator_arguments(p) -> None:
    emu = p.add_argument_group(
        "emulator", "run the gfx950 machine code of a kernel on random data against the numpy "
                    "reference (exit 1 on a wrong result or a finding)")
    emu.add_argument("--emulate", metavar="M,N,K", action=_Store,
                     help="emulate the complete kernel of --pipeline, or the kernel of FILE: an "
                          "IREE dispatch (.mlir, built with --pipeline first), a code object or "
                          "its assembly, on an M x N x K problem; --emulate alone for an IREE "
                          "dispatch, whose sizes are compiled in and read from it (given, they "
                          "must be its own; a code object does not state them: give them); a "
                          "dispatch with sizes known only at launch runs at those given")
    emu.add_argument("--emulate-mode", metavar="MODE", default="eager", action=_Store,
                     help="when memory operations complete: eager (default), late (at the "
                          "wait that forces them) or random[:SEED]")
    _count_option(emu, "--emulate-workgroups",
                  "run N workgroups spread over the grid (the first and the last among "
                  "them) instead of all of it; C is checked where they wrote")
    emu.add_argument("--emulate-launch", metavar="FILE", default=None, action=_Store,
                     help="launch the kernel as the launch description FILE (TOML) says: its "
                          "arguments, grid and block, how the buffers start and what the "
                          "outputs must equal; for any code object (docs/emulator.md)")
    emu.add_argument("--emulate-strict", action="store_true",
                     help="report buffer accesses past a buffer resource's records (by "
                          "default they read 0 and drop the write, as the hardware does)")
    _count_option(emu, "--emulate-jobs", "spread the workgroups over N processes (default: "
                                         "the CPUs this process may use); the result is the "
                                         "same for every N")


def _count_option(group, flag: str, help: str) -> None:
    """An option taking a count N (an integer; its range is checked with the others)."""
    group.add_argument(flag, metavar="N", type=_integer, default=None, action=_Store, help=help)


def _tune_arguments(p) -> None:
    g = p.add_argument_group(
        "tuning", "search the knobs of --pipeline's kernel: every candidate is built, "
                  "simulated (hazard-free kernels only) and its assembly timed; print what "
                  "was tried and return the fastest kernel")
    g.add_argument("--tune", action="store_true",
                   help="tune --pipeline (no input file): print the candidates' table, the "
                        "chosen spec and its gain; -o FILE writes the chosen pipeline's "
                        "--emit output")
    g.add_argument("--tune-budget", metavar="N", default=None, action=_Store,
                   help=f"candidates to evaluate (build, simulate, time; default "
                        f"{DEFAULT_BUDGET}); the search is deterministic and never bounded by "
                        f"time")
    g.add_argument("--tune-knobs", metavar="LIST", default=None, action=_Store,
                   help="knobs to search: all, or KEY or KEY=V1:V2:... separated by commas "
                        "(default: every knob but the counts the kernel fixes; a knob that "
                        "narrows the launch contract, loop_once, only with --tune-size)")
    g.add_argument("--tune-objective", metavar="WHAT", default=None, action=_Store,
                   help="the cycles per main-loop iteration minimised: asm-measured (default) "
                        "or asm-llvm (the built kernel's assembly, as --simulate kernel.s: "
                        "what the user gets), measured or llvm (the schedule's kernel, as "
                        "--simulate --pipeline, which also sees LDS bank conflicts; a kernel "
                        "slower than the given spec's on its assembly is never chosen); the "
                        "other table of the same level breaks ties. Specs that build the same "
                        "kernel (the assembly without comments, byte for byte) are shown as "
                        "'same kernel as #n' and cost no budget")
    g.add_argument("--tune-size", metavar="M,N,K", default=None, action=_Store,
                   help="also choose the kernel's grid order (xcd_remap, group_m) for this "
                        "problem size with the device model, and add it to the chosen spec")
    g.add_argument("--tune-spec", metavar="FILE", default=None, action=_Store,
                   help="also write the chosen spec to FILE ('-': standard output)")


def _integer(text: str) -> int:
    """An integer in decimal digits (its range is the option's check)."""
    n = decimal(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"expected an integer, got '{text}'")
    return n


def _count(text: str) -> int:
    n = decimal(text)
    if n is None or n < 0:
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
        if arg == "--emulate" and not (i + 1 < len(argv) and re.match(SIZES, argv[i + 1])):
            arg = "--emulate="           # alone: the sizes compiled into the kernel
        name = arg.split("=", 1)[0]
        action = longs.get(name) or parser._option_string_actions.get(name)
        if action is not None and "=" not in arg and action.nargs is None:
            value_next = True
        out.append(arg)
    return out
