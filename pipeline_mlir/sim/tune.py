"""Tune a kernel pipeline: search the knobs its spec exposes and return the fastest kernel.

``pipeline-opt --pipeline=SPEC --tune`` (``tools/tune.py``) runs :func:`tune`.

Each candidate is the user's spec with some knobs changed (``request.with_(...)``). The
driver builds it (``build``: the complete kernel compiled to assembly through the named
pipeline, as ``--emit=asm``); the tuner simulates it exactly as ``pipeline-opt --simulate
--pipeline=SPEC --report`` does (:func:`~pipeline_mlir.sim.report.simulate_request`: the
functional model on main loops of 0..6 iterations with the waits and barriers
``sched-fix-hazards`` inserts, and the timing model of one CU in both cost tables, the LDS
accesses charged their bank conflicts: the ``measured`` / ``llvm`` columns) and times the
built assembly as ``--simulate kernel.s`` does (:func:`assembly_cycles`: the instruction
order LLVM really emitted, LDS accesses priced conflict-free: the ``asm-measured`` /
``asm-llvm`` columns). A candidate is *refused*, with its reason, when its spec is
rejected, its schedule does not compile, no complete kernel issues its counts (the
simulation would not be of a kernel), the kernel has a hazard, or it does not build.

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
steepest descent over single-knob changes in the catalogue's fixed order. The user's spec
is candidate 0 and the first base; a pass tries every value of every knob on top of the
base, and the best candidate so far becomes the next pass's base; the passes stop when
one finds nothing better (converged) or the budget is spent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.options import suggest

#: the cost tables (same names as ``--cost-table``)
TABLES = ("measured", "llvm")
#: what an objective may minimise: the schedule's simulation in either table, or the
#: timing of the built kernel's assembly (``asm-``, as ``--simulate kernel.s``), which sees
#: what LLVM did with fences, priorities and the lowering's interleave but not the LDS lane
#: addresses
OBJECTIVES = TABLES + tuple(f"asm-{t}" for t in TABLES)
#: the default objective: the kernel the user gets, its assembly in the measured table
DEFAULT_OBJECTIVE = "asm-measured"


@dataclass(frozen=True)
class Knob:
    """One searched option: its key and the values tried (spec text)."""

    name: str
    values: tuple[str, ...]
    what: str            # the kind of knob (global-load placement, fences, ...)
    kernel_fixed: bool = False   # the complete kernel fixes it: not in the default set

    def text(self) -> str:
        return f"{self.name}={'|'.join(self.values)}"


_PLACEMENT = "global-load placement"
_LGKM = "lgkm grouping"
_PRIO = "priorities"
_FENCES = "fences and barriers"
_ORDER = "scheduling mode and penalty"
_COUNTS = "per-load counts and block sizing (what the kernel issues)"

#: the knob catalogue of each kernel pipeline, in search order
CATALOGUE: dict[str, tuple[Knob, ...]] = {
    "pingpong": (
        Knob("scheduling", ("csp", "greedy", "identity"), _ORDER),
        Knob("lds_contention_penalty", ("0", "2", "4", "8"), _ORDER),
        Knob("global_before_frag", ("false", "true"), _PLACEMENT),
        # (wait_lgkm_first / wait_vm_last: the kernel derives its waits, auto_waits=true)
        Knob("lgkm_after_last", ("false", "true"), _LGKM),
        Knob("inter_block_lgkm_drain", ("false", "true"), _LGKM),
        Knob("auto_drain", ("false", "true"), _LGKM),
        Knob("omit_mma_set_prio", ("false", "true"), _PRIO),
        Knob("minimal_barriers", ("false", "true"), _FENCES),
        Knob("barrier_before_pre_ops", ("false", "true"), _FENCES),
        Knob("sched_barrier_mask", ("0x55", "0x0", "0xff"), _FENCES),
        Knob("wrap_waits_with_sched_barrier", ("false", "true"), _FENCES),
        Knob("max_globals", ("0", "1", "2"), _COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_a", ("2", "4", "8"), _COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_b", ("2", "4", "8"), _COUNTS, kernel_fixed=True),
    ),
    "4wave": (
        Knob("global_before_frag", ("false", "true"), _PLACEMENT),
        # (not the knobs the 4-wave blocks never read: derived waits, lgkm_after_last,
        # auto_drain, sched_barrier_mask; each is an error saying why; nor
        # barrier_before_pre_ops, which changes the schedule but never a 4-wave kernel)
        Knob("fences", ("true", "false"), _FENCES),
        Knob("wrap_waits_with_sched_barrier", ("true", "false"), _FENCES),
        Knob("max_globals", ("0", "1", "2"), _COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_a", ("1", "2", "4", "8"), _COUNTS, kernel_fixed=True),
        Knob("lgkm_per_load_b", ("1", "2", "4", "8"), _COUNTS, kernel_fixed=True),
    ),
}


def catalogue(request) -> tuple[Knob, ...]:
    """The knobs ``request``'s pipeline exposes to the tuner (ConfigError if none)."""
    knobs = CATALOGUE.get(request.name)
    if knobs is None:
        raise ConfigError(f"--tune: pipeline '{request.name}' has no complete kernel to tune "
                          f"(tunable: {', '.join(CATALOGUE)})")
    return knobs


def parse_knobs(request, text: str | None) -> list[Knob]:
    """``--tune-knobs`` text: ``all``, or comma-separated ``KEY`` (the catalogue's values)
    or ``KEY=V1:V2:...``; None: the catalogue without the kernel-fixed knobs."""
    knobs = catalogue(request)
    if text is None:
        return [k for k in knobs if not k.kernel_fixed]
    if text.strip() == "all":
        return list(knobs)
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
                              f"'{request.name}'{suggest(name, list(by_name))}; knobs: "
                              f"{', '.join(by_name)}")
        if any(k.name == name for k in out):
            raise ConfigError(f"--tune-knobs: knob '{name}' is given twice")
        if values or item.endswith("="):
            texts = tuple(v.strip() for v in values.split(":"))
            opt = type(request).option(name)
            for v in texts:
                opt.parse(f"--tune-knobs: knob '{name}'", v)  # ConfigError naming the value
            if len(set(texts)) != len(texts):
                raise ConfigError(f"--tune-knobs: knob '{name}' lists a value twice")
            knob = Knob(name, texts, knob.what, knob.kernel_fixed)
        out.append(knob)
    return out


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


def assembly_cycles(asm_text: str, request) -> dict:
    """Cycles per main-loop iteration of a kernel's assembly in both tables, as
    ``--simulate kernel.s --pipeline=SPEC`` times it: ``{"asm-measured": .., "asm-llvm": ..}``."""
    from pipeline_mlir.sim.report import simulate_assembly
    from pipeline_mlir.sim.trace import kernel_shape

    shape = kernel_shape(request)
    rep = simulate_assembly(asm_text, "<kernel>", shape.waves, shape.groups == 2, TABLES)
    return {f"asm-{t.table}": t.analysis.achieved_ii for t in rep.timing}


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
    request: object                      # the NamedSchedule
    changes: tuple                       # ((key, text), ...) relative to the user's spec
    cycles: dict = field(default_factory=dict)    # column -> cycles per main-loop iteration
    busy: dict = field(default_factory=dict)      # table -> MFMA busy (0..1)
    refused: str | None = None           # why the candidate cannot be used
    same_as: Candidate | None = None     # the candidate tried whose kernel this spec is

    @property
    def ok(self) -> bool:
        """Evaluated and usable (not refused, not another spelling of a tried kernel)."""
        return self.refused is None and self.same_as is None

    @property
    def spec(self) -> str:
        return self.request.spec()

    def change_text(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.changes) or "(the given spec)"


def evaluate(request) -> tuple[dict, dict, str | None]:
    """Simulate ``request`` as ``--simulate --report`` does: (cycles, busy, refusal)."""
    from pipeline_mlir.sim.report import simulate_request

    try:
        rep = simulate_request(request, TABLES)
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
    base: object                 # the user's request
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
        return (c.cycles[self.objective], c.cycles[tie_break(self.objective)])

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
        out += ["knobs: " + (", ".join(k.text() for k in self.knobs) or "(none)"), ""]
        cols = self.columns()
        rows = [("#", "change from the given spec", *cols, "MFMA busy m/l", "verdict")]
        for c in self.tried:
            cyc = [f"{c.cycles[t]:.1f}" if c.cycles.get(t) is not None else "-" for t in cols]
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


def tune(request, knobs: list[Knob], budget: int = 32, objective: str = DEFAULT_OBJECTIVE,
         build=None, evaluate_fn=evaluate, time_fn=assembly_cycles) -> TuneResult:
    """Search ``knobs`` around ``request`` (see the module docstring).

    ``build(request)``: the candidate's complete kernel as assembly text (raise
    PipelineError/ConfigError to refuse it); None: no kernels are built (only the
    schedule-level objectives). ``time_fn(text, request)``: the assembly's cycles
    (``{"asm-measured": .., "asm-llvm": ..}``, :func:`assembly_cycles`);
    ``evaluate_fn``: the schedule's simulator (:func:`evaluate`). Both are replaceable for
    tests."""
    check_budget(budget)
    check_objective(objective)
    if objective.startswith("asm-") and build is None:
        raise ConfigError(f"--tune-objective={objective}: needs the kernels' assembly (a "
                          f"build step; pipeline-opt --tune builds every candidate)")
    res = TuneResult(request, list(knobs), budget, objective, built=build is not None)
    by_schedule: dict = {}       # identity() -> the candidate evaluated (or refused)
    by_kernel: dict = {}         # kernel_digest() of the assembly -> the candidate evaluated
    listed: set = set()          # the specs in the table

    def row(req, changes, **verdict) -> Candidate:
        c = Candidate(len(res.tried), req, changes, **verdict)
        res.tried.append(c)
        listed.add(req)
        return c

    def tried(req, changes) -> None:
        if req in listed:
            return
        key = identity(req)
        if key in by_schedule:       # compiles to a tried schedule: no budget
            row(req, changes, same_as=by_schedule[key])
            return
        rejected = _rejected(req)
        if rejected is not None:     # reported, but nothing was evaluated: no budget
            by_schedule[key] = row(req, changes, refused=rejected)
            return
        text = kernel = failed = None
        if build is not None:        # built first: a tried kernel costs no budget
            try:
                text = build(req)
            except (ConfigError, PipelineError) as e:
                failed = "kernel build: " + _one_line(str(e))
            else:
                kernel = kernel_digest(text)
                if kernel in by_kernel:  # assembles to a tried kernel's code
                    by_schedule[key] = by_kernel[kernel]
                    row(req, changes, same_as=by_kernel[kernel])
                    return
        if res.evaluated >= budget:
            raise _Spent()
        res.evaluated += 1
        by_schedule[key] = c = row(req, changes, refused=failed)
        if failed is not None:
            return
        if kernel is not None:
            by_kernel[kernel] = c
        c.cycles, c.busy, c.refused = evaluate_fn(req)
        if c.ok and text is not None:
            try:
                c.cycles.update(time_fn(text, req))
            except (ConfigError, PipelineError) as e:
                c.refused = "assembly timing: " + _one_line(str(e))
        missing = [t for t in res.needed() if c.cycles.get(t) is None]
        if c.ok and missing:
            c.refused = f"no {missing[0]} cycles (no steady state)"
        if c.ok and not res.slower_on_assembly(c) and (
                res.best is None or res.key(c) < res.key(res.best)):
            res.best = c

    try:
        tried(request, ())
        base: dict[str, str] = {}
        while True:
            start = res.best
            for knob in res.knobs:        # every single-knob change of the pass's base
                for value in knob.values:
                    changes = dict(base)
                    changes[knob.name] = value
                    changes = {k: v for k, v in changes.items() if _differs(request, k, v)}
                    tried(request.with_(**changes), tuple(changes.items()))
            if res.best is start:
                res.converged = True
                break
            base = dict(res.best.changes)  # the best of the pass is the next base
    except _Spent:
        pass
    return res


class _Spent(Exception):
    """The budget is spent."""


def _rejected(request) -> str | None:
    """Why the pipeline rejects ``request``'s options together (e.g. an option another makes
    unread), or None."""
    try:
        request.build()
    except (ConfigError, PipelineError) as e:
        return _one_line(str(e))
    return None


def identity(request) -> tuple:
    """What makes two specs the same kernel before either is built: the compiled schedule
    (as ``--emit=schedule`` prints it: every entry, wait count, barrier, priority and fence)
    and the kernel's geometry; counts the spec leaves unset are the complete kernel's. A
    spec that does not compile is itself. (Different schedules can still build the same
    kernel: :func:`tune` compares the built assembly too, :func:`kernel_digest`.)"""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedule.printing import format_schedule

    try:
        if request.has_kernel:
            request = gemm_kernel(request).schedule
        geometry = request.kernel_geometry() if request.has_kernel else None
        return (request.name, format_schedule(request.compile()), geometry)
    except (ConfigError, PipelineError):
        return (request.name, request)


def _differs(request, key: str, text: str) -> bool:
    """Whether ``key=text`` changes the spec (a value equal to the one in effect does not)."""
    try:
        changed = request.with_(**{key: text})
        if changed == request:
            return False
        built, base = changed.build(), request.build()
        return (built.schedule_config(), built.config(), changed.kernel_geometry()) != (
            base.schedule_config(), base.config(), request.kernel_geometry())
    except (ConfigError, PipelineError):
        return True


__all__ = ["CATALOGUE", "Candidate", "DEFAULT_OBJECTIVE", "Knob", "OBJECTIVES", "TABLES",
           "TuneResult", "assembly_cycles", "catalogue", "check_budget", "check_objective",
           "evaluate", "guard", "identity", "kernel_digest", "parse_knobs", "tie_break",
           "tune"]
