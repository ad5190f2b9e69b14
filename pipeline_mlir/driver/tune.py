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
    ``progress``: called ``(evaluated, budget, note)`` as candidates are built and evaluated
    (None: quiet)."""

    schedule: str
    knobs: str | None = None
    budget: int | None = None
    objective: str | None = None
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
        knobs = T.parse_knobs(schedule, options.knobs)
        budget = DEFAULT_BUDGET if options.budget is None else options.budget
        T.check_budget(budget)
        objective = T.check_objective(T.DEFAULT_OBJECTIVE if options.objective is None
                                      else options.objective)
    except ConfigError as e:
        raise UsageError(str(e)) from None
    return schedule, knobs, budget, objective


def tune(options: TuneOptions) -> TuneResult:
    from pipeline_mlir.driver.api import compile
    from pipeline_mlir.driver.arguments import CompileOptions
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
        return T.evaluate(candidate, kernel_lds)

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

    result = T.tune(schedule, knobs, budget, objective, build=build, evaluate_fn=evaluate)
    return TuneResult(result.text(), result.best.spec if result.best is not None else None,
                      result)
