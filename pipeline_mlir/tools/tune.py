"""``pipeline-opt --pipeline=SPEC --tune``: search the pipeline's knobs, return the fastest kernel.

Every candidate spec is compiled to assembly through the named pipeline (as ``--emit=asm``:
the kernel the user would get; a candidate that does not build is refused), simulated as
``--simulate --pipeline=SPEC --report`` (hazards, both cost tables: columns ``measured``,
``llvm``) and its assembly timed as ``--simulate kernel.s`` (columns ``asm-measured``,
``asm-llvm``). Prints the table of the candidates tried (the spec's changes, the four
columns, MFMA busy, verdict: chosen, ok, the reason a candidate was refused, or "same kernel
as #n" for a spec that builds a tried kernel: the same assembly without its comments, byte
for byte; it costs no budget), the chosen spec and its gain over the given spec. ``-o FILE``
writes the chosen pipeline's output of the ``--emit`` kind (default ``schedule``, e.g.
``--emit=hsaco`` for the kernel); ``--tune-spec=FILE`` writes the chosen spec, one line.

Options: ``--tune-budget=N`` candidates evaluated (default 24; never wall time),
``--tune-knobs=all|KEY[=V1:V2...],...`` (default: the catalogue without the counts the
kernel fixes), ``--tune-objective=asm-measured|asm-llvm|measured|llvm``: what is minimised,
the other table of the same level breaking ties. The default, ``asm-measured``, ranks the
built kernels' assembly; ``measured`` / ``llvm`` rank the schedule's simulation but never
choose a kernel slower than the given spec's on its assembly. The search is
:func:`pipeline_mlir.sim.tune.tune` (its docstring has the rules).
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError, PipelineError

DEFAULT_BUDGET = 24
OPTIONS = ("--tune-budget", "--tune-knobs", "--tune-objective", "--tune-spec")


class TuneUsage(Exception):
    """A command-line problem of --tune (reported as a usage error)."""


def add_arguments(parser) -> None:
    from pipeline_mlir.tools.pipeline_opt import _Store

    g = parser.add_argument_group(
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
                        "(default: every knob but the counts the kernel fixes)")
    g.add_argument("--tune-objective", metavar="WHAT", default=None, action=_Store,
                   help="the cycles per main-loop iteration minimised: asm-measured (default) "
                        "or asm-llvm (the built kernel's assembly, as --simulate kernel.s: "
                        "what the user gets), measured or llvm (the schedule's kernel, as "
                        "--simulate --pipeline, which also sees LDS bank conflicts; a kernel "
                        "slower than the given spec's on its assembly is never chosen); the "
                        "other table of the same level breaks ties. Specs that build the same "
                        "kernel (the assembly without comments, byte for byte) are shown as "
                        "'same kernel as #n' and cost no budget")
    g.add_argument("--tune-spec", metavar="FILE", default=None, action=_Store,
                   help="also write the chosen spec to FILE ('-': standard output)")


def check_args(args) -> None:
    given = set(getattr(args, "_given", ()))
    if not args.tune:
        stray = [o for o in OPTIONS if o in given]
        if stray:
            raise TuneUsage(f"{stray[0]} goes with --tune")
        return
    if args.pipeline is None:
        raise TuneUsage("--tune needs --pipeline=NAME{...}: the kernel pipeline to tune, e.g. "
                        "--pipeline=pingpong")
    clash = [o for o in ("--pass-pipeline", "--launch", "--simulate", "--emulate") if o in given]
    if args.input is not None:
        clash.append(f"the input '{args.input}' (--tune builds the pipeline's own kernel)")
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise TuneUsage(f"--tune cannot be combined with {', '.join(clash)}")
    if "--emit" in given and args.output == "-":
        raise TuneUsage("--tune prints its table on standard output: give -o FILE for the "
                        f"chosen pipeline's --emit={args.emit} output")
    settings(args)


def settings(args):
    """(request, knobs, budget, objective) from the command line; TuneUsage when bad."""
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim import tune as T

    try:
        request = parse_pipeline(args.pipeline)
        knobs = T.parse_knobs(request, args.tune_knobs)
        budget = DEFAULT_BUDGET if args.tune_budget is None else _budget(args.tune_budget)
        T.check_budget(budget)
        objective = T.check_objective(T.DEFAULT_OBJECTIVE if args.tune_objective is None
                                      else args.tune_objective)
    except ConfigError as e:
        raise TuneUsage(str(e)) from None
    return request, knobs, budget, objective


def _budget(text: str):
    try:
        return int(text, 10)
    except ValueError:
        raise ConfigError(f"--tune-budget={text}: must be a number of candidates >= 1") from None


def run(args, compile_pipeline):
    """(table, the chosen spec or None); ``compile_pipeline(spec, emit)`` is the driver's."""
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.sim import tune as T
    from pipeline_mlir.tools.pipeline_opt import PROG

    request, knobs, budget, objective = settings(args)

    def build(candidate) -> str:
        try:
            return compile_pipeline(candidate.spec(), "asm")[0]
        except PipelineError as e:   # the diagnostics without the program's name
            lines = str(e).splitlines()
            raise PipelineError("\n".join(line.removeprefix(f"{PROG}: error: ")
                                          for line in lines)) from None

    result = T.tune(request, knobs, budget, objective, build=build,
                    evaluate_fn=lambda candidate: T.evaluate(candidate, kernel_lds))
    return result.text(), (result.best.spec if result.best is not None else None)
