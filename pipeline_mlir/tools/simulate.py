"""``pipeline-opt --simulate [FILE] --pipeline=SPEC [--report[=PICTURE]]``: the simulator's
command line (:mod:`pipeline_mlir.driver.simulate` runs it).

Prints a one-line verdict (``--report``: the whole report) and exits 0 when safe; 1 with the
first hazard (phase, entry, iteration, load, counter) on stderr otherwise.
``--report=FILE.svg`` / ``.png`` also draws one steady-state iteration.
"""

from __future__ import annotations

from pipeline_mlir.driver.base import PICTURE_EXTENSIONS, TABLE_CHOICES, UsageError
from pipeline_mlir.tools.argv import given, parse_sizes


def check_args(args) -> None:
    flags = given(args)
    if args.simulate is None:
        for opt in ("--report", "--cost-table", "--sim-iterations", "--sim-trips"):
            if opt in flags or (opt == "--report" and args.report is not None):
                raise UsageError(f"{opt} goes with --simulate")
        return
    if args.pipeline is None:
        raise UsageError("--simulate needs --pipeline=NAME{...}: the schedule kind and its "
                         "per-load counts (e.g. --pipeline='pingpong' for a ping-pong dump)")
    clash = [o for o in ("--emit", "--pass-pipeline", "--launch", "--codegen-timeout")
             if o in flags] + (["--no-isa-check"] if args.no_isa_check else [])
    _check_trips(args)
    if args.input is not None and args.sim_trips is None:
        picture = args.input.lower().endswith(PICTURE_EXTENSIONS)
        clash.append(f"the input '{args.input}' ("
                     + (f"a picture is --report={args.input}, with '='" if picture else
                        "give the file to --simulate") + ")")
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise UsageError(f"--simulate cannot be combined with {', '.join(clash)}")
    if args.report not in (None, "-") and not args.report.lower().endswith(PICTURE_EXTENSIONS):
        raise UsageError(f"--report={args.report}: the picture must be a .svg or .png file "
                         f"(--report alone prints the text report)")
    if args.cost_table not in TABLE_CHOICES:
        raise UsageError(f"--cost-table={args.cost_table}: choose llvm (LLVM's gfx950 "
                         f"SchedModel), measured (gfx950 latencies) or both")
    if not 0 <= args.sim_iterations <= 64:
        raise UsageError(f"--sim-iterations={args.sim_iterations}: must be 0..64")


def _check_trips(args) -> None:
    """``--sim-trips=M,N,K``: an assembly FILE, the dispatch it was built from as INPUT."""
    if args.sim_trips is None:
        return
    parse_sizes("--sim-trips", args.sim_trips)
    if not args.simulate:
        raise UsageError(f"--sim-trips={args.sim_trips} measures the trip counts of an "
                         f"assembly's inner loops: give the assembly as --simulate=FILE")
    if args.input is None:
        raise UsageError(f"--sim-trips={args.sim_trips} runs the assembly at a launch of the "
                         f"dispatch it was built from: give that dispatch as INPUT")
    if args.input == "-" and args.simulate == "-":
        raise UsageError("--simulate=- and INPUT - cannot both be standard input")


def _trips(args):
    """(the dispatch, its launch sizes) of ``--sim-trips``, or None."""
    if args.sim_trips is None:
        return None
    return args.input, parse_sizes("--sim-trips", args.sim_trips)


def run(args) -> tuple[str, str | None, bytes | None]:
    """(what to print on stdout, the first hazard as an error line or None, the bytes of
    the ``--report=PICTURE`` file or None)."""
    from pipeline_mlir.driver.simulate import SimulateOptions, simulate

    result = simulate(SimulateOptions(
        args.pipeline, args.simulate or None, TABLE_CHOICES[args.cost_table],
        args.sim_iterations, args.report if args.report not in (None, "-") else None,
        _trips(args)))
    if args.report is not None:
        return result.report.text(), result.problem, result.picture
    return ("" if result.problem else result.report.verdict() + "\n"), result.problem, None
