"""Simulate a schedule on the model of one CU (``--simulate``): the project's own schedule of a
pipeline, a schedule dump in the reference's debug format, or a kernel's gfx950 assembly.

* no dump: the compiled schedule of ``schedule``; the hazards of the schedule as printed are
  listed as findings and the kernel, with the fixes ``sched-fix-hazards`` inserts, must be
  safe.
* a dump: simulated as the kernel of ``schedule`` runs it (the options give the per-load
  vm/lgkm counts and the schedule kind); assembly is timed only.

The result holds the report (its ``text()`` and ``verdict()``) and the first hazard, if any.
The simulator is imported by :func:`simulate` (the command line imports this module to start).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline_mlir.driver.base import (TABLE_CHOICES, UsageError, input_name,
                                       kernel_only_option_error, merge_request_error)
from pipeline_mlir.errors import PipelineError


@dataclass(frozen=True)
class SimulateOptions:
    """``schedule``: the pipeline (spec or schedule object); ``dump``: a file to simulate
    (``-`` standard input; None: the schedule's own); ``tables``: the timing cost tables;
    ``iterations``: main loops of 0..N iterations are checked; ``picture``: a .svg or .png
    file to draw one steady-state iteration for (its bytes come back in the result, the
    caller writes them); ``trips``: (a dispatch file, (M, N, K)):
    the assembly ``dump``'s inner loops timed with their trip counts measured on the
    emulator at that launch of the dispatch (``--sim-trips``)."""

    schedule: object
    dump: str | None = None
    tables: tuple[str, ...] = TABLE_CHOICES["both"]
    iterations: int = 6
    picture: str | None = None
    trips: tuple | None = None


@dataclass
class SimulateResult:
    report: object       # pipeline_mlir.sim.report's report
    where: str           # what was simulated, as messages name it
    problem: str | None  # the first hazard as an error line, or None (safe)
    #: the picture ``SimulateOptions.picture`` asked for (its file's bytes), or None
    picture: bytes | None = None


def _read(path: str) -> str:
    """The text of the file ``path`` (``-``: standard input)."""
    from pipeline_mlir.driver.inputs import read_bytes
    from pipeline_mlir.isa.utf8 import NotUtf8, utf8_text

    try:
        return utf8_text(read_bytes(path), newlines=True)
    except NotUtf8 as e:
        raise PipelineError(f"{e.at(input_name(path))}: {e}: --simulate "
                            f"reads a schedule dump or assembly (text)") from None


def _measure(asm: str, where: str, trips: tuple):
    """The :class:`~pipeline_mlir.emu.trips.MeasuredTrips` of the assembly ``asm`` run (one
    workgroup, up to :data:`~pipeline_mlir.driver.measured_trips.MEASURE_LIMIT`
    instructions) at the launch ``trips`` = (dispatch file, (M, N, K)) describes."""
    from pipeline_mlir.driver.measured_trips import (MEASURE_LIMIT, dispatch_launch,
                                                     measure_trips)

    dispatch, sizes = trips
    problem, grid = dispatch_launch(_read(dispatch), sizes, input_name(dispatch))
    try:
        return measure_trips(asm, asm, problem, grid, limit=MEASURE_LIMIT)
    except PipelineError as e:
        raise PipelineError(f"{where}: {e}") from None


def looks_like_assembly(text: str) -> bool:
    return bool(re.search(r"^\s*(\.amdgcn_target|\.amdhsa_kernel|v_mfma\w*|s_endpgm)\b", text,
                          re.M))


def simulate(options: SimulateOptions) -> SimulateResult:
    """Simulate (module docstring); a :class:`~pipeline_mlir.driver.base.UsageError` for a
    picture of a report without timing.  The result carries no diagnostics: bad input
    raises its :class:`PipelineError` (a spec that does not parse or compile its
    :class:`~pipeline_mlir.errors.ConfigError` naming the option, a file that cannot be read
    its own), which the command line prints as one error."""
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim import report as R
    from pipeline_mlir.sim.timeline import timeline_picture
    from pipeline_mlir.sim.trace import kernel_shape

    schedule = options.schedule
    if isinstance(schedule, str):
        schedule = parse_pipeline(schedule)
    message = kernel_only_option_error(schedule, "--simulate models the schedule, not the "
                                                 "kernel's stores") or \
        merge_request_error(schedule, "--simulate models the schedule of the K tile BK")
    if message is not None:
        raise UsageError(message)
    iterations = range(0, options.iterations + 1)
    where = "pipeline-opt"
    if options.dump is None:
        from pipeline_mlir.analysis.lds_access import kernel_lds   # MLIR: on use
        from pipeline_mlir.driver.code_cache import shared_result

        def work():
            return R.simulate_schedule(schedule, options.tables, iterations, lds_of=kernel_lds)
        # a spec's own schedule depends on its text alone: simulated once per store that
        # shares own kernels (the test suite's; none by default: simulated here)
        rep = work() if not isinstance(options.schedule, str) else shared_result(
            "simulation", (options.schedule, options.tables, options.iterations), work)
    else:
        where = input_name(options.dump)
        text = _read(options.dump)
        if looks_like_assembly(text):
            shape = kernel_shape(schedule)
            trips = None if options.trips is None else _measure(text, where, options.trips)
            rep = R.simulate_assembly(text, where, shape.waves, shape.groups == 2,
                                      options.tables, None if trips is None else trips.waves)
            if trips is not None:
                m, n, k = options.trips[1]
                rep.notes.append(f"trip counts measured on the emulator at M = {m}, N = {n}, "
                                 f"K = {k}: {trips.describe()}")
        elif options.trips is not None:
            raise UsageError(f"--sim-trips measures the inner loops of an assembly; {where} "
                             f"is a schedule dump")
        else:
            rep = R.simulate_dump(text, schedule, where, options.tables, iterations)
    picture = None
    if options.picture is not None:
        if not rep.timing:
            raise UsageError("--report=PICTURE needs the timing model")
        t = next((t for t in rep.timing if t.table == "measured"), rep.timing[0])
        picture = timeline_picture(t.analysis.run, t.analysis, options.picture,
                                   title=rep.title)[0]
    hazard = rep.hazard()
    return SimulateResult(rep, where, None if hazard is None else f"{where}: error: {hazard}",
                          picture)
