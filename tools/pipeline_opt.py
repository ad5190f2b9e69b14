"""``pipeline-opt``: the command-line driver (an ``mlir-opt``-style tool).

Today it compiles one of the named schedules (``--pipeline=NAME{key=value ...}``)
on its default loop body and prints the result, either in the reference debug
format (``--emit=schedule``) or as JSON (``--emit=schedule-json``).  MLIR input
and the MLIR/LLVM/assembly/object outputs come later.

Every failure prints one line ``pipeline-opt: error: <message>`` on stderr and
exits with status 1; no Python traceback.

Start-up cost matters (the tool is run from scripts and lit tests): nothing heavy
is imported at module level, and the scheduling core only once the arguments are
known to be valid.
"""

from __future__ import annotations

import sys

PROG = "pipeline-opt"
EMIT_AVAILABLE = ("schedule", "schedule-json")
EMIT_LATER = ("mlir", "llvm", "asm", "obj", "hsaco")


class UsageError(Exception):
    """A command-line problem (reported like any other error, exit status 1)."""


def _epilog() -> str:
    from pipeline_mlir.options import describe_pipelines

    return ("pipelines (SPEC: NAME or NAME{key=value key=value ...}; pairs separated by spaces "
            "or commas;\nbooleans true/false/1/0; integers decimal, 0x.. or 0b..):\n"
            + describe_pipelines()
            + "\n\nexamples:\n"
            "  pipeline-opt --pipeline=pingpong --emit=schedule\n"
            "  pipeline-opt --pipeline='4wave{dtype=fp8 BM=128 BN=128 BK=128}' "
            "--emit=schedule-json -o s.json")


def _parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # never print usage + exit 2: one line, exit 1
            raise UsageError(message)

        def format_help(self):  # the pipeline list is built only when help is shown
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
        description="Software-pipeline gfx950 (MI355X) matmul K-loops: compile a named "
                    "schedule and print it.")
    p.add_argument("input", nargs="?", metavar="INPUT",
                   help="MLIR input file (not supported yet: the named schedule's default "
                        "body is compiled)")
    p.add_argument("--pipeline", metavar="SPEC", required=True, action=Once,
                   help="named pipeline with options, e.g. '4wave{dtype=bf16 BM=128}'")
    p.add_argument("--emit", metavar="KIND", default="schedule", action=Once,
                   help="output kind: schedule (default; reference debug format) or "
                        "schedule-json; mlir, llvm, asm, obj, hsaco are not available yet")
    p.add_argument("-o", dest="output", metavar="FILE", default="-", action=Once,
                   help="write the output to FILE (default: stdout)")
    return p


def _error(message: str) -> int:
    one_line = " ".join(str(message).split())
    print(f"{PROG}: error: {one_line}", file=sys.stderr)
    return 1


def _render(args) -> str:
    from pipeline_mlir.options import parse_pipeline

    request = parse_pipeline(args.pipeline)
    compiled = request.compile()
    if args.emit == "schedule-json":
        import json

        from pipeline_mlir.debug import schedule_to_json

        return json.dumps(schedule_to_json(compiled), indent=2) + "\n"
    from pipeline_mlir.debug import format_schedule

    return format_schedule(compiled)


def _write(path: str, text: str) -> None:
    if path == "-":
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            # the reader went away (`pipeline-opt ... | head`): not an error of ours
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv: list[str] | None = None) -> int:
    """Run the driver; returns the exit status (0 success, 1 any error)."""
    from pipeline_mlir.errors import PipelineError

    try:
        args = _parser().parse_args(argv)
    except UsageError as e:
        return _error(e)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    if args.emit in EMIT_LATER:
        return _error(f"--emit={args.emit} is not available yet (this version emits only "
                      f"{' and '.join(EMIT_AVAILABLE)})")
    if args.emit not in EMIT_AVAILABLE:
        return _error(f"unknown --emit kind '{args.emit}' (choose from "
                      f"{', '.join(EMIT_AVAILABLE + EMIT_LATER)})")
    if args.input is not None:
        return _error(f"MLIR input ('{args.input}') is not supported yet; run without an input "
                      f"file to compile the named schedule's default body")
    try:
        text = _render(args)
    except PipelineError as e:
        return _error(e)
    except Exception as e:  # a bug of ours: still one line, unless asked for the traceback
        import os

        if os.environ.get("PIPELINE_OPT_TRACEBACK"):
            raise
        return _error(f"internal error: {type(e).__name__}: {e} (please report it; set "
                      f"PIPELINE_OPT_TRACEBACK=1 for the traceback)")
    try:
        _write(args.output, text)
    except OSError as e:
        return _error(f"cannot write '{args.output}': {e.strerror or e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
