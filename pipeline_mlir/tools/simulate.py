"""``pipeline-opt --simulate [FILE] --pipeline=SPEC [--report[=PICTURE]]``: the simulator's face.

* ``--simulate FILE``: ``FILE`` is a schedule dump in the reference's debug format,
  simulated as the kernel of ``--pipeline`` runs it (the options give the per-load
  vm/lgkm counts and the schedule kind), or the gfx950 assembly of a kernel (timing
  only).
* ``--simulate`` alone: the project's own compiled schedule of ``--pipeline``; the
  hazards of the schedule as printed are listed as findings and the kernel, with the
  fixes ``sched-fix-hazards`` inserts, must be safe.

Prints a one-line verdict (``--report``: the whole report) and exits 0 when safe; 1
with the first hazard (phase, entry, iteration, load, counter) on stderr otherwise.
``--report=FILE.svg`` / ``.png`` also draws one steady-state iteration.
"""

from __future__ import annotations

import re
import sys

from pipeline_mlir.errors import PipelineError

# The simulator is imported inside run(): pipeline-opt imports this module at start-up, and
# only --simulate needs it.

PICTURE_EXTENSIONS = (".svg", ".png")
TABLE_CHOICES = {"llvm": ("llvm",), "measured": ("measured",), "both": ("llvm", "measured")}


class SimulateUsage(Exception):
    """A command-line problem of --simulate (reported as a usage error)."""


def check_args(args) -> None:
    given = set(getattr(args, "_given", ()))
    if args.simulate is None:
        for opt in ("--report", "--cost-table", "--sim-iterations"):
            if opt in given or (opt == "--report" and args.report is not None):
                raise SimulateUsage(f"{opt} goes with --simulate")
        return
    if args.pipeline is None:
        raise SimulateUsage("--simulate needs --pipeline=NAME{...}: the schedule kind and its "
                            "per-load counts (e.g. --pipeline='pingpong' for a ping-pong dump)")
    clash = [o for o in ("--emit", "--pass-pipeline", "--launch") if o in given]
    if args.input is not None:
        picture = args.input.lower().endswith(PICTURE_EXTENSIONS)
        clash.append(f"the input '{args.input}' ("
                     + (f"a picture is --report={args.input}, with '='" if picture else
                        "give the file to --simulate") + ")")
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise SimulateUsage(f"--simulate cannot be combined with {', '.join(clash)}")
    if args.report not in (None, "-") and not args.report.lower().endswith(PICTURE_EXTENSIONS):
        raise SimulateUsage(f"--report={args.report}: the picture must be a .svg or .png file "
                            f"(--report alone prints the text report)")
    if args.cost_table not in TABLE_CHOICES:
        raise SimulateUsage(f"--cost-table={args.cost_table}: choose llvm (LLVM's gfx950 "
                            f"SchedModel), measured (gfx950 latencies) or both")
    if not 0 <= args.sim_iterations <= 64:
        raise SimulateUsage(f"--sim-iterations={args.sim_iterations}: must be 0..64")


def _read(path: str) -> str:


    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise PipelineError(f"cannot read '{path}': {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise PipelineError(f"'{path}' is not UTF-8 text") from None


def looks_like_assembly(text: str) -> bool:

    return bool(re.search(r"^\s*(\.amdgcn_target|\.amdhsa_kernel|v_mfma\w*|s_endpgm)\b", text,
                          re.M))


def run(args) -> tuple[str, str | None]:
    """(what to print on stdout, the first hazard as an error line or None)."""
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim import report as R
    from pipeline_mlir.sim.timeline import render_timeline
    from pipeline_mlir.sim.trace import kernel_shape

    request = parse_pipeline(args.pipeline)
    tables = TABLE_CHOICES[args.cost_table]
    iterations = range(0, args.sim_iterations + 1)
    where = "pipeline-opt"
    if args.simulate == "":
        rep = R.simulate_request(request, tables, iterations)
    else:
        where = "<stdin>" if args.simulate == "-" else args.simulate
        text = _read(args.simulate)
        if looks_like_assembly(text):

            shape = kernel_shape(request)
            rep = R.simulate_assembly(text, where, shape.waves, shape.groups == 2, tables)
        else:
            rep = R.simulate_dump(text, request, where, tables, iterations)
    if args.report not in (None, "-"):

        if not rep.timing:
            raise SimulateUsage("--report=PICTURE needs the timing model")
        t = next((t for t in rep.timing if t.table == "measured"), rep.timing[0])
        render_timeline(t.analysis.run, t.analysis, args.report, title=rep.title)
    hazard = rep.hazard()
    problem = None if hazard is None else f"{where}: error: {hazard}"
    if args.report is not None:
        return rep.text(), problem
    return ("" if problem else rep.verdict() + "\n"), problem
