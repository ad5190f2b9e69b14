"""Tune a kernel pipeline (``--tune``): search its knobs, return the fastest kernel.

Every candidate spec is compiled to assembly through the named pipeline (:func:`pipeline_mlir.
driver.api.compile`, as ``--emit=asm``: the kernel the user would get; a candidate that does
not build is refused), simulated and its assembly timed; the search and its rules are
:func:`pipeline_mlir.sim.tune.tune`'s.  The simulator is imported by the functions here that
use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.driver.base import DEFAULT_BUDGET, PROG, UsageError


@dataclass(frozen=True)
class TuneOptions:
    """``schedule``: the spec to tune; ``knobs``: ``all`` or ``KEY[=V1:V2...],...`` (None: the
    catalogue without the counts the kernel fixes); ``budget``: candidates evaluated (None:
    :data:`DEFAULT_BUDGET`); ``objective``: what is minimised (None: the tuner's default);
    ``size``: ``(M, N, K)`` to choose the grid order for with the device model (None: the
    spec's order is kept); ``progress``: called ``(evaluated, budget, note)`` as candidates
    are built and evaluated (None: quiet)."""

    schedule: str
    knobs: str | None = None
    budget: int | None = None
    objective: str | None = None
    #: ``(M, N, K)``: also choose the grid order for this problem size (None: keep the spec's)
    size: tuple | None = None
    progress: object = field(default=None, compare=False)


@dataclass
class TuneResult:
    table: str           # the candidates tried, the chosen spec and its gain
    chosen: str | None   # the chosen spec; None: every candidate was refused
    search: object       # pipeline_mlir.sim.tune's result


def settings(options: TuneOptions):
    """(schedule, knobs, budget, objective); a :class:`~pipeline_mlir.driver.base.UsageError`
    for options the tuner refuses."""
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim import tune as T

    try:
        schedule = parse_pipeline(options.schedule)
        knobs = T.parse_knobs(schedule, options.knobs, sized=options.size is not None)
        budget = DEFAULT_BUDGET if options.budget is None else options.budget
        T.check_budget(budget)
        objective = T.check_objective(T.DEFAULT_OBJECTIVE if options.objective is None
                                      else options.objective)
        if options.size is not None:
            _size_problem(schedule, options.size)
    except ConfigError as e:
        raise UsageError(str(e)) from None
    return schedule, knobs, budget, objective


def _size_problem(schedule, size):
    """The device model's problem of ``schedule``'s kernel at ``size``; ConfigError naming
    ``--tune-size`` when the kernel cannot run it."""
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.launch import LaunchError, check_launch
    from pipeline_mlir.sim.device import Problem

    kernel = gemm_kernel(schedule)
    try:
        check_launch(kernel, *size)
    except LaunchError as e:
        raise ConfigError(f"--tune-size={','.join(map(str, size))}: {e}") from None
    g = kernel.geometry
    return kernel, Problem(*size, g.BM, g.BN, g.BK, g.elem_bytes, kernel.c_bytes)


def _runs_at(size):
    """The tuner's ``admit``: why a candidate's kernel cannot run ``size`` (its launch
    contract, e.g. ``loop_once``'s ``K >= 4*BK``), or None."""
    from pipeline_mlir.errors import ConfigError, PipelineError

    def admit(candidate) -> str | None:
        try:
            _size_problem(candidate, size)
        except (ConfigError, PipelineError) as e:
            return str(e).splitlines()[0]
        return None
    return admit


def choose_grid(best, size) -> tuple[str, str]:
    """(the grid-order section of the table, the chosen spec with its order) for the chosen
    candidate ``best`` at ``size``: each order priced by the device model with the
    candidate's assembly cycles per main-loop iteration (two K tiles) as a workgroup's
    time."""
    from pipeline_mlir.sim.device import order_table

    kernel, problem = _size_problem(best.schedule, size)
    cycles = best.cycles.get("asm-measured") or best.cycles["measured"]
    wg = cycles * problem.K / (2 * problem.BK)
    table, chosen = order_table(problem, wg)
    o = chosen.order
    given = {"xcd_remap", "group_m"} & set(best.schedule.given)
    spec = best.spec if o.is_rowmajor and not given else \
        best.schedule.with_(xcd_remap=o.xcd_remap, group_m=o.group_m).spec()
    M, N, K = size
    head = (f"grid order for M={M} N={N} K={K} (device model: 8 XCDs x 32 CUs, L2 per XCD, "
            f"MALL, HBM; a workgroup = {cycles:.1f} cycles x {K // (2 * problem.BK)} "
            f"iterations; models, not hardware):\n")
    return head + table + f"chosen with its grid order: {spec}\n", spec


def tune(options: TuneOptions) -> TuneResult:
    """The search (module docstring).  The result carries no diagnostics: options the tuner
    refuses, a spec that does not parse among them, raise a
    :class:`~pipeline_mlir.driver.base.UsageError` (:func:`settings`); a candidate that
    does not build is a refused row of the table."""
    from pipeline_mlir.driver.api import compile
    from pipeline_mlir.driver.arguments import CompileOptions
    from pipeline_mlir.driver.code_cache import shared_result
    from pipeline_mlir.analysis.lds_access import kernel_lds   # MLIR: on use
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.sim import tune as T

    schedule, knobs, budget, objective = settings(options)
    progress = options.progress or (lambda done, total, note="": None)
    # what the budget counts: candidates evaluated and builds that failed (a build of a
    # kernel tried already costs nothing)
    count = {"built": 0, "spent": 0}

    def evaluate(candidate):
        progress(count["spent"], budget, f"simulating candidate {count['built']}")
        count["spent"] += 1
        cycles, busy, refused = shared_result("evaluate", candidate.spec(),
                                              lambda: T.evaluate(candidate, kernel_lds))
        return dict(cycles), dict(busy), refused   # the tuner adds the assembly's cycles

    def time_assembly(text: str, candidate) -> dict:
        return dict(shared_result("assembly-cycles", (candidate.spec(), text),
                                  lambda: T.assembly_cycles(text, candidate)))

    def build(candidate) -> str:
        count["built"] += 1
        progress(count["spent"], budget, f"building candidate {count['built']}")
        try:
            return compile(CompileOptions(schedule=candidate.spec(), emit="asm")) \
                .checked_output()
        except PipelineError as e:   # the diagnostics without the program's name
            count["spent"] += 1
            lines = str(e).splitlines()
            raise PipelineError("\n".join(line.removeprefix(f"{PROG}: error: ")
                                          for line in lines)) from None

    result = T.tune(schedule, knobs, budget, objective, build=build, evaluate_fn=evaluate,
                    time_fn=time_assembly,
                    admit=None if options.size is None else _runs_at(options.size))
    text, chosen = result.text(), result.best.spec if result.best is not None else None
    if options.size is not None and result.best is not None:
        grid, chosen = choose_grid(result.best, options.size)
        text += "\n" + grid
    return TuneResult(text, chosen, result)
