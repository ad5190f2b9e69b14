"""Tune a kernel pipeline: search the knobs its spec exposes and return the fastest kernel.

``pipeline-opt --pipeline=SPEC --tune`` (``tools/tune.py``) runs :func:`tune`.

Each candidate is the user's spec with some knobs changed (``schedule.with_(...)``). The
driver builds it (``build``: the complete kernel compiled to assembly through the named
pipeline, as ``--emit=asm``); the tuner simulates it exactly as ``pipeline-opt --simulate
--pipeline=SPEC --report`` does (:func:`~pipeline_mlir.sim.report.simulate_schedule`: the
functional model on main loops of 0..6 iterations with the waits and barriers
``sched-fix-hazards`` inserts, and the timing model of one CU in both cost tables, the LDS
accesses charged their bank conflicts: the ``measured`` / ``llvm`` columns) and times the
built assembly as ``--simulate kernel.s`` does (:func:`assembly_cycles`: the instruction
order LLVM really emitted, LDS accesses priced conflict-free: the ``asm-measured`` /
``asm-llvm`` columns). A candidate is *refused*, with its reason, when its spec is
rejected, its schedule does not compile, no complete kernel issues its counts (the
simulation would not be of a kernel), the kernel has a hazard, or it does not build; and,
before it is built and at no budget, when ``admit`` says why it may not be chosen (the
driver's: its kernel cannot run the ``--tune-size`` problem, e.g. ``loop_once`` at a K
under ``4*BK``).  A knob that narrows the launch contract (``Knob.contract``) is a knob
only for a problem size; one whose values a spec may refuse (``Knob.only_accepted``: the
4-wave ``dma``) offers only the values the given spec accepts.

Objective (what the user gets is the built kernel): by default (``asm-measured``) the
built kernel's assembly in the measured table, ties broken by the assembly's llvm table;
the schedule's simulation is reported beside it (and still decides hazards). The other
objectives: ``asm-llvm``; ``measured`` / ``llvm``, the schedule's simulation in that
table (ties: the other one), which sees the LDS bank conflicts the assembly's timing does
not -- but when the assembly is built, a candidate whose assembly is slower than the given
spec's in the same table (``asm-measured`` for ``measured``) is never chosen ("slower on
the assembly"). So the chosen kernel is never slower on its assembly than the given
spec's. A candidate replaces the best one only when strictly better, so among equals the
earlier (fewer changes from the user's spec) stays.

The same kernel is tried once: a spec whose compiled schedule (and geometry) is a tried
candidate's, or whose built assembly is a tried candidate's byte for byte once its
comments are removed (:func:`kernel_digest`; e.g. a fence the kernel's lowering emits
anyway, or a ``sched_barrier``, which LLVM prints as a comment), is listed as "same kernel
as #n" and costs no budget.

Search (deterministic, bounded by ``budget`` candidates evaluated -- built, simulated and
timed --, never by time; a candidate whose options the pipeline rejects together, or that
is the same kernel as one tried, is listed but does not count):
steepest descent over single-knob changes in the order the schedule class declares its
knobs (``tune_knobs``). The user's spec
is candidate 0 and the first base; a pass tries every value of every knob on top of the
base, and the best candidate so far becomes the next pass's base; the passes stop when
one finds nothing better (converged) or the budget is spent: with no budget left the
search stops at the next candidate that needs a build, before building it (one that would
build a tried kernel would cost no budget, but only its build could tell).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.options import suggest
from pipeline_mlir.records import replace
from pipeline_mlir.schedules.knobs import Knob
from pipeline_mlir.schedules.registry import SCHEDULES

#: the cost tables (same names as ``--cost-table``)
TABLES = ("measured", "llvm")
#: what an objective may minimise: the schedule's simulation in either table, or the
#: timing of the built kernel's assembly (``asm-``, as ``--simulate kernel.s``), which sees
#: what LLVM did with fences, priorities and the lowering's interleave but not the LDS lane
#: addresses
OBJECTIVES = TABLES + tuple(f"asm-{t}" for t in TABLES)
#: the default objective: the kernel the user gets, its assembly in the measured table
DEFAULT_OBJECTIVE = "asm-measured"


def catalogue(schedule) -> tuple[Knob, ...]:
    """The knobs ``schedule``'s class declares for the tuner (``tune_knobs``; ConfigError if
    none)."""
    if not schedule.tune_knobs:
        tunable = [name for name, cls in SCHEDULES.items() if cls.tune_knobs]
        raise ConfigError(f"--tune: pipeline '{schedule.name}' has no complete kernel to tune "
                          f"(tunable: {', '.join(tunable)})")
    return schedule.tune_knobs


def parse_knobs(schedule, text: str | None, sized: bool = False) -> list[Knob]:
    """``--tune-knobs`` text: ``all``, or comma-separated ``KEY`` (the catalogue's values)
    or ``KEY=V1:V2:...``; None: the catalogue without the kernel-fixed knobs.  ``sized``: a
    problem size is given (``--tune-size``); without one the knobs that narrow the launch
    contract are left out of the default set and of ``all``, and naming one is an error.
    A knob whose values a spec may refuse offers only those ``schedule`` accepts (a
    refused value given by name is an error with the pipeline's reason)."""
    knobs = catalogue(schedule)
    if text is None or text.strip() == "all":
        offered = [_accepted(schedule, k) for k in knobs if (sized or not k.contract)
                   and (text is not None or not k.kernel_fixed)]
        return [k for k in offered if k.values]
    by_name = {k.name: k for k in knobs}
    out: list[Knob] = []
    for item in text.split(","):
        item = item.strip()
        name, _, values = item.partition("=")
        name = name.strip()
        if not name:
            raise ConfigError(f"--tune-knobs: empty knob in '{text}' (knobs are separated by "
                              f"commas)")
        knob = by_name.get(name)
        if knob is None:
            raise ConfigError(f"--tune-knobs: unknown knob '{name}' for pipeline "
                              f"'{schedule.name}'{suggest(name, list(by_name))}; knobs: "
                              f"{', '.join(by_name)}")
        if any(k.name == name for k in out):
            raise ConfigError(f"--tune-knobs: knob '{name}' is given twice")
        if knob.contract and not sized:
            raise ConfigError(f"--tune-knobs: knob '{name}' narrows the kernel's launch "
                              f"contract: give --tune-size=M,N,K, a size every candidate "
                              f"must run")
        if values or item.endswith("="):
            texts = tuple(v.strip() for v in values.split(":"))
            opt = type(schedule).option(name)
            for v in texts:
                opt.parse(f"--tune-knobs: knob '{name}'", v)  # ConfigError naming the value
            if len(set(texts)) != len(texts):
                raise ConfigError(f"--tune-knobs: knob '{name}' lists a value twice")
            knob = replace(knob, values=texts)
            for v in texts if knob.only_accepted else ():
                why = _refused_value(schedule, name, v)
                if why is not None:
                    raise ConfigError(f"--tune-knobs: knob '{name}={v}' is refused for "
                                      f"'{schedule.spec()}': {why}")
        out.append(_accepted(schedule, knob))
    return out


def _accepted(schedule, knob: Knob) -> Knob:
    """``knob`` with only the values ``schedule`` accepts, if it is a knob whose values a
    spec may refuse (``Knob.only_accepted``)."""
    if not knob.only_accepted:
        return knob
    ok = tuple(v for v in knob.values if _refused_value(schedule, knob.name, v) is None)
    return replace(knob, values=ok)


def _refused_value(schedule, name: str, value: str) -> str | None:
    """Why ``schedule`` refuses ``name=value`` on its own, or None."""
    try:
        return _rejected(schedule.with_(**{name: value}))
    except (ConfigError, PipelineError) as e:
        return _one_line(str(e))


def check_budget(budget: int) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ConfigError(f"--tune-budget={budget}: must be a number of candidates >= 1")
    return budget


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise ConfigError(f"--tune-objective={objective}: choose {', '.join(OBJECTIVES)} (the "
                          f"cycles per iteration that are minimised)")
    return objective


def tie_break(objective: str) -> str:
    """The other table of the same simulation."""
    prefix = "asm-" if objective.startswith("asm-") else ""
    return next(prefix + t for t in TABLES if prefix + t != objective)


def assembly_cycles(asm_text: str, schedule) -> dict:
    """Cycles per main-loop iteration of a kernel's assembly in both tables, as
    ``--simulate kernel.s --pipeline=SPEC`` times it: ``{"asm-measured": .., "asm-llvm": ..}``."""
    from pipeline_mlir.sim.report import simulate_assembly
    from pipeline_mlir.sim.trace import kernel_shape

    shape = kernel_shape(schedule)
    rep = simulate_assembly(asm_text, "<kernel>", shape.waves, shape.groups == 2, TABLES)
    return {f"asm-{t.table}": t.analysis.achieved_ii for t in rep.timing}


def assembly_spills(asm_text: str, schedule=None) -> int:
    """The registers a kernel's assembly spills to scratch: the ``.vgpr_spill_count`` and
    ``.sgpr_spill_count`` of every kernel in its ``.amdgpu_metadata`` (the report's
    ``spills``: :func:`~pipeline_mlir.isa.asm.kernel_spills`)."""
    from pipeline_mlir.isa.asm import kernel_spills

    kernels = kernel_spills(asm_text)
    if not kernels:
        raise PipelineError("the assembly has no .amdgpu_metadata kernel to read its spill "
                            "counts from")
    return sum(v + s for v, s in kernels)


def guard(objective: str) -> str | None:
    """The assembly's table in which a schedule-level objective's choice may not be slower
    than the given spec (``asm-measured`` for ``measured``); None for an ``asm-`` objective,
    which ranks on the assembly itself."""
    return None if objective.startswith("asm-") else "asm-" + objective


def kernel_digest(text: str) -> str:
    """The identity of a built kernel: a digest of what its assembly text assembles, i.e.
    every line without its ``;`` comment (LLVM prints the ``sched_barrier`` pseudo
    instructions, which emit no code, and the blocks' names only as comments), byte for
    byte."""
    code = (line.partition(";")[0].rstrip() for line in text.splitlines())
    return hashlib.sha256("\n".join(c for c in code if c).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------

@dataclass
class Candidate:
    """One spec tried: its changes from the user's spec and what was measured."""

    index: int
    schedule: object                     # the NamedSchedule
    changes: tuple                       # ((key, text), ...) relative to the user's spec
    cycles: dict = field(default_factory=dict)    # column -> cycles per main-loop iteration
    busy: dict = field(default_factory=dict)      # table -> MFMA busy (0..1)
    spills: int | None = None            # registers the built kernel spills (None: not built)
    refused: str | None = None           # why the candidate cannot be used
    same_as: Candidate | None = None     # the candidate tried whose kernel this spec is

    @property
    def ok(self) -> bool:
        """Evaluated and usable (not refused, not another spelling of a tried kernel)."""
        return self.refused is None and self.same_as is None

    @property
    def spec(self) -> str:
        return self.schedule.spec()

    def change_text(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.changes) or "(the given spec)"


def evaluate(schedule, lds_of) -> tuple[dict, dict, str | None]:
    """Simulate ``schedule`` as ``--simulate --report`` does: (cycles, busy, refusal);
    ``lds_of(kernel)``: the kernel's LDS accesses (as :func:`~pipeline_mlir.sim.report.
    simulate_schedule` takes them)."""
    from pipeline_mlir.sim.report import simulate_schedule

    try:
        rep = simulate_schedule(schedule, TABLES, lds_of=lds_of)
    except (ConfigError, PipelineError) as e:
        return {}, {}, _one_line(str(e))
    if rep.notes and rep.notes[0].startswith("no complete kernel"):
        return {}, {}, _one_line(rep.notes[0].split(";")[0])
    cycles, busy = {}, {}
    for t in rep.timing:
        a = t.analysis
        cycles[t.table] = a.achieved_ii
        busy[t.table] = sum(a.mfma_busy.values()) / len(a.mfma_busy) if a.mfma_busy else 0.0
    hazard = rep.hazard()
    if hazard is not None:
        return cycles, busy, _one_line(hazard)
    missing = [t for t in TABLES if cycles.get(t) is None]
    if missing:
        return cycles, busy, f"no steady state in the {missing[0]} table"
    return cycles, busy, None


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass
class TuneResult:
    base: object                 # the user's schedule
    knobs: list
    budget: int
    objective: str
    built: bool = False          # every candidate's kernel was built and its assembly timed
    tried: list = field(default_factory=list)
    best: Candidate | None = None
    converged: bool = False
    evaluated: int = 0           # candidates evaluated (what the budget counts)

    @property
    def default(self) -> Candidate:
        return self.tried[0]

    def key(self, c: Candidate) -> tuple:
        """The rank of an evaluated candidate (lower is better): a kernel that spills after
        every one that does not, then the objective's cycles, then the other table's."""
        return (bool(c.spills), c.cycles[self.objective], c.cycles[tie_break(self.objective)])

    def needed(self) -> list[str]:
        """The columns every usable candidate has: the objective's two, and the assembly's
        when the kernels are built."""
        cols = [self.objective, tie_break(self.objective)]
        if self.built:
            cols += [f"asm-{t}" for t in TABLES]
        return list(dict.fromkeys(cols))

    def slower_on_assembly(self, c: Candidate) -> bool:
        """Whether ``c``'s assembly is slower than the given spec's in the :func:`guard`
        table (never for an ``asm-`` objective, unbuilt kernels or a refused given spec)."""
        table, d = guard(self.objective), self.default
        if table is None or not self.built or c is d or not d.ok or not c.ok:
            return False
        return c.cycles[table] > d.cycles[table]

    def gain(self, table: str) -> float | None:
        """Throughput gain of the chosen spec over the user's spec in ``table`` (0.05 = 5%
        more iterations per cycle); None when the user's spec was refused."""
        if self.best is None or not self.default.ok:
            return None
        return self.default.cycles[table] / self.best.cycles[table] - 1.0

    def columns(self) -> list[str]:
        """The cycle columns shown: both tables, and the assembly's when it was timed."""
        timed = {k for c in self.tried for k in c.cycles}
        return [o for o in OBJECTIVES if o in TABLES or o in timed or o == self.objective]

    def verdict(self, c: Candidate) -> str:
        if c.same_as is not None:
            return f"same kernel as #{c.same_as.index}"
        if not c.ok:
            return "refused: " + c.refused
        if c is self.best:
            return "chosen"
        if c.spills and self.best is not None and self.key(c)[1:] < self.key(self.best)[1:]:
            return f"not chosen: faster in {self.objective} but spills {c.spills} registers"
        if (self.slower_on_assembly(c) and self.best is not None
                and self.key(c) < self.key(self.best)):
            return (f"not chosen: faster in {self.objective} but slower than #0 on the "
                    f"assembly ({guard(self.objective)})")
        return "ok"

    def text(self) -> str:
        other = tie_break(self.objective)
        level = ("of the built kernel's assembly (as --simulate kernel.s --report)"
                 if self.objective.startswith("asm-") else
                 "of the schedule's kernel (as --simulate --pipeline=SPEC --report)")
        out = [f"pipeline-opt --tune: {self.base.spec()}",
               f"objective: {self.objective} cycles per main-loop iteration {level}, steady "
               f"state on one CU; ties: {other}; budget {self.budget} candidates"]
        if guard(self.objective) and self.built:
            out.append(f"never chosen: a kernel slower than the given spec's on its assembly "
                       f"({guard(self.objective)})")
        if self.built:
            out.append("ranked below every kernel that does not spill: a kernel that spills "
                       "registers to scratch (spills), whatever its cycles")
        out += ["knobs: " + (", ".join(k.text() for k in self.knobs) or "(none)"), ""]
        cols = self.columns()
        spills = ("spills",) if self.built else ()
        rows = [("#", "change from the given spec", *cols, *spills, "MFMA busy m/l",
                 "verdict")]
        for c in self.tried:
            cyc = [f"{c.cycles[t]:.1f}" if c.cycles.get(t) is not None else "-" for t in cols]
            cyc += [str(c.spills) if c.spills is not None and c.ok else "-"] if spills else []
            busy = ("/".join(f"{100 * c.busy[t]:.0f}%" for t in TABLES)
                    if len(c.busy) == 2 else "-")
            rows.append((str(c.index), c.change_text(), *cyc, busy, self.verdict(c)))
        n = len(rows[0])
        widths = [max(len(r[i]) for r in rows) for i in range(n)]
        for r in rows:
            cells = [r[0].rjust(widths[0]), r[1].ljust(widths[1])]
            cells += [r[i].rjust(widths[i]) for i in range(2, n - 2)]
            cells += [r[n - 2].ljust(widths[n - 2]), r[n - 1]]
            out.append("  ".join(cells).rstrip())
        out.append("")
        same = sum(c.same_as is not None for c in self.tried)
        refused = sum(c.refused is not None for c in self.tried)
        stop = ("converged: no single-knob change of the chosen spec is better" if self.converged
                else "stopped: the budget is spent")
        work = "built, simulated and timed" if self.built else "simulated"
        out.append(f"search: {len(self.tried)} candidates, {self.evaluated} {work} (budget "
                   f"{self.budget}), {same} the same kernel as another, {refused} refused; "
                   f"{stop}")
        if self.best is None:
            out.append("chosen: none (every candidate was refused)")
            return "\n".join(out) + "\n"
        out.append(f"chosen: #{self.best.index} {self.best.spec}")
        if self.default.ok:
            gains = [f"{t} {self.default.cycles[t]:.1f} -> {self.best.cycles[t]:.1f} "
                     f"cycles/iteration ({100 * self.gain(t):+.1f}% throughput)"
                     for t in [self.objective, other] + [c for c in cols if c not in (
                         self.objective, other)]]
            out.append("gain over the given spec: " + "; ".join(gains))
        else:
            out.append("gain over the given spec: none to compare (the given spec was refused)")
        return "\n".join(out) + "\n"


def tune(schedule, knobs: list[Knob], budget: int = 32, objective: str = DEFAULT_OBJECTIVE,
         build=None, *, evaluate_fn, time_fn=assembly_cycles,
         spills_fn=assembly_spills, admit=None) -> TuneResult:
    """Search ``knobs`` around ``schedule`` (see the module docstring).

    ``build(schedule)``: the candidate's complete kernel as assembly text (raise
    PipelineError/ConfigError to refuse it); None: no kernels are built (only the
    schedule-level objectives). ``time_fn(text, schedule)``: the assembly's cycles
    (``{"asm-measured": .., "asm-llvm": ..}``, :func:`assembly_cycles`);
    ``spills_fn(text, schedule)``: the registers it spills (:func:`assembly_spills`);
    ``evaluate_fn(schedule)``: the schedule's simulator (:func:`evaluate` with the LDS
    analysis bound, as ``pipeline-opt --tune`` passes it). Both are replaceable for
    tests.  ``admit(schedule)``: why a candidate may not be chosen before it is built (the
    problem size it must run, ``--tune-size``), or None; None: every spec is admitted."""
    check_budget(budget)
    check_objective(objective)
    if objective.startswith("asm-") and build is None:
        raise ConfigError(f"--tune-objective={objective}: needs the kernels' assembly (a "
                          f"build step; pipeline-opt --tune builds every candidate)")
    res = TuneResult(schedule, list(knobs), budget, objective, built=build is not None)
    search = _Search(res, build, evaluate_fn, time_fn, spills_fn, admit)
    try:
        search.tried(schedule, ())
        base: dict[str, str] = {}
        while True:
            start = res.best
            for knob in res.knobs:        # every single-knob change of the pass's base
                for value in knob.values:
                    changes = dict(base)
                    changes[knob.name] = value
                    changes = {k: v for k, v in changes.items() if _differs(schedule, k, v)}
                    search.tried(schedule.with_(**changes), tuple(changes.items()))
            if res.best is start:
                res.converged = True
                break
            base = dict(res.best.changes)  # the best of the pass is the next base
    except _Spent:
        pass
    return res


class _Search:
    """The candidates of one :func:`tune` search: each tried once, built, simulated, timed
    and judged against the best so far (``res.best``)."""

    def __init__(self, res: TuneResult, build, evaluate_fn, time_fn, spills_fn,
                 admit=None) -> None:
        self.res, self.build, self.evaluate_fn, self.time_fn = res, build, evaluate_fn, time_fn
        self.spills_fn, self.admit = spills_fn, admit or (lambda schedule: None)
        self.by_schedule: dict = {}  # identity() -> the candidate evaluated (or refused)
        self.by_kernel: dict = {}    # kernel_digest() of the assembly -> the candidate evaluated
        self.listed: set = set()     # the specs in the table

    def row(self, schedule, changes, **verdict) -> Candidate:
        c = Candidate(len(self.res.tried), schedule, changes, **verdict)
        self.res.tried.append(c)
        self.listed.add(schedule)
        return c

    def tried(self, schedule, changes) -> None:
        """List ``schedule`` (the given spec with ``changes``) and evaluate it unless it is a
        tried kernel or the pipeline rejects it; raises _Spent when the budget is."""
        if schedule in self.listed:
            return
        key = identity(schedule)
        if key in self.by_schedule:  # compiles to a tried schedule: no budget
            self.row(schedule, changes, same_as=self.by_schedule[key])
            return
        rejected = _rejected(schedule) or self.admit(schedule)
        if rejected is not None:     # reported, but nothing was evaluated: no budget
            self.by_schedule[key] = self.row(schedule, changes, refused=rejected)
            return
        # checked before the build: a build is the cost, paid only with budget left (whether
        # it is a tried kernel's, at no budget, would be known only after it)
        if self.res.evaluated >= self.res.budget:
            raise _Spent()
        built = self._build(schedule, key, changes)
        if built is None:
            return
        text, kernel, failed = built
        self.res.evaluated += 1
        self.by_schedule[key] = c = self.row(schedule, changes, refused=failed)
        if failed is not None:
            return
        if kernel is not None:
            self.by_kernel[kernel] = c
        self._measure(c, schedule, text)

    def _build(self, schedule, key, changes):
        """(assembly text, its digest, why the build failed), all None without a build step;
        None when the kernel is a tried one's (then listed as the same kernel): built first,
        so a tried kernel costs no budget."""
        if self.build is None:
            return None, None, None
        try:
            text = self.build(schedule)
        except (ConfigError, PipelineError) as e:
            return None, None, "kernel build: " + _one_line(str(e))
        kernel = kernel_digest(text)
        if kernel in self.by_kernel:  # assembles to a tried kernel's code
            self.by_schedule[key] = self.by_kernel[kernel]
            self.row(schedule, changes, same_as=self.by_kernel[kernel])
            return None
        return text, kernel, None

    def _measure(self, c: Candidate, schedule, text: str | None) -> None:
        """Simulate ``c`` (and time its assembly ``text``); make it the best if it is."""
        res = self.res
        c.cycles, c.busy, c.refused = self.evaluate_fn(schedule)
        if c.ok and text is not None:
            try:
                c.cycles.update(self.time_fn(text, schedule))
                c.spills = self.spills_fn(text, schedule)
            except (ConfigError, PipelineError) as e:
                c.refused = "assembly timing: " + _one_line(str(e))
        missing = [t for t in res.needed() if c.cycles.get(t) is None]
        if c.ok and missing:
            c.refused = f"no {missing[0]} cycles (no steady state)"
        if c.ok and not res.slower_on_assembly(c) and (
                res.best is None or res.key(c) < res.key(res.best)):
            res.best = c


class _Spent(Exception):
    """The budget is spent."""


def _rejected(schedule) -> str | None:
    """Why the pipeline rejects ``schedule``'s options together (e.g. an option another makes
    unread), or None."""
    try:
        schedule.build()
    except (ConfigError, PipelineError) as e:
        return _one_line(str(e))
    return None


def identity(schedule) -> tuple:
    """What makes two specs the same kernel before either is built: the compiled schedule
    (as ``--emit=schedule`` prints it: every entry, wait count, barrier, priority and fence)
    the kernel's geometry and the main-loop trips it always runs (``loop_once``); counts the
    spec leaves unset are the complete kernel's. A
    spec that does not compile is itself. (Different schedules can still build the same
    kernel: :func:`tune` compares the built assembly too, :func:`kernel_digest`.)"""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedule.printing import format_schedule

    try:
        if schedule.has_kernel:
            schedule = gemm_kernel(schedule).schedule
        geometry = schedule.kernel_geometry() if schedule.has_kernel else None
        return (schedule.name, format_schedule(schedule.compile()), geometry,
                schedule.min_trips())
    except (ConfigError, PipelineError):
        return (schedule.name, schedule)


def _own_settings(built) -> dict:
    """The settings a compiled schedule object keeps beside its configs (e.g. ping-pong's
    ``fragment_waits`` and ``frags_ahead``): its plain bool, int and str attributes."""
    return {k: v for k, v in vars(built).items() if isinstance(v, (bool, int, str))}


def _differs(schedule, key: str, text: str) -> bool:
    """Whether ``key=text`` changes the spec (a value equal to the one in effect does not)."""
    try:
        changed = schedule.with_(**{key: text})
        if changed == schedule:
            return False
        built, base = changed.build(), schedule.build()
        return (built.schedule_config(), built.config(), changed.kernel_geometry(),
                _own_settings(built), changed.min_trips()) != (
            base.schedule_config(), base.config(), schedule.kernel_geometry(),
            _own_settings(base), schedule.min_trips())
    except (ConfigError, PipelineError):
        return True


__all__ = ["Candidate", "DEFAULT_OBJECTIVE", "OBJECTIVES", "TABLES",
           "TuneResult", "assembly_cycles", "assembly_spills", "catalogue", "check_budget", "check_objective",
           "evaluate", "guard", "identity", "kernel_digest", "parse_knobs", "tie_break",
           "tune"]
