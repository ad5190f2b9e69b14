"""``pipeline-opt --simulate``: run the functional and timing models and write the report.

Three inputs:

* a schedule dump in the reference's debug format, simulated as the reference kernel
  runs it (:func:`simulate_dump`);
* the project's own compiled schedule of a named schedule (:func:`simulate_schedule`):
  the schedule as printed is checked (its hazards are *findings*), then the kernel's
  phases, with the waits and barriers ``sched-fix-hazards`` inserts, must be safe;
* the gfx950 assembly of a kernel (:func:`simulate_assembly`): the timing model runs its
  main loop (the functional model needs the schedule's LDS slots and K offsets, which
  assembly does not name).

The timing part runs the kernel's waves on the CU model under each cost table and
reports MinII (ResMII, RecMII), achieved cycles per steady-state iteration, MFMA-busy %
and the exposed stall cycles per wait and per block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedule.printing import parse_schedule
from pipeline_mlir.schedule.targets import MATMUL_TAG_NAMES
from pipeline_mlir.sim.bounds import analyze_loop
from pipeline_mlir.sim.costs import (HBM_BYTES_PER_CLOCK_PER_CU, L2_BYTES_PER_CLOCK_PER_CU,
                                     TABLE_UNITS)
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.functional import SimulationResult, iterations_text, simulate
from pipeline_mlir.sim.lds_banks import KernelBanks, kernel_banks
from pipeline_mlir.sim.repair import repair
from pipeline_mlir.sim.timing import (asm_main_loop, from_asm, simulate_asm_loop,
                                     simulate_loop_body)
from pipeline_mlir.sim.trace import MATMUL_ROLES, KernelShape, kernel_shape, wave_streams
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX, VMCNT_MAX

NO_ADDRESSES = ("LDS lane addresses are not known here: the measured table prices every LDS "
                "access conflict-free (as a swizzled or padded layout is)")
#: main-loop trips the timing model runs (the steady state skips the first)
TIMING_ITERATIONS = 6


@dataclass
class Timing:
    table: str
    analysis: object            # bounds.LoopAnalysis
    streams: list               # (simd, instructions) per wave, as simulated

    @property
    def unit(self) -> str:
        return TABLE_UNITS.get(self.table, "units")


@dataclass
class SimulationReport:
    title: str
    source: str                                  # dump | schedule | assembly
    shape: KernelShape | None = None
    functional: SimulationResult | None = None   # what the kernel runs
    findings: SimulationResult | None = None     # own schedule as printed (before the fixes)
    fixes: list = field(default_factory=list)
    timing: list[Timing] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    banks: KernelBanks | None = None             # the kernel's LDS accesses and bank costs

    @property
    def safe(self) -> bool:
        if any(t.analysis.run.deadlock for t in self.timing):
            return False
        return self.functional is None or self.functional.safe

    # -- the short answer -----------------------------------------------------------------
    def hazard(self) -> str | None:
        """The first hazard, in one line (None when safe)."""
        if self.functional is not None and not self.functional.safe:
            h = self.functional.first_hazard()
            others = sum(len(r.hazards) for r in self.functional.runs) - 1
            more = f" ({others} more hazard reports; --report lists them)" if others > 0 else ""
            return (f"hazard with {iterations_text(h.iterations)} ({h.kind}"
                    f"{', ' + h.counter if h.counter else ''}): {h.message}{more}")
        for t in self.timing:
            if t.analysis.run.deadlock:
                return f"hazard ({t.table} timing run): {t.analysis.run.deadlock.message}"
        return None

    def verdict(self) -> str:
        hazard = self.hazard()
        if hazard is not None:
            return f"{self.title}: {hazard}"
        if self.functional is None:
            return f"{self.title}: timing only (assembly has no LDS slots or K offsets to check)"
        runs = self.functional.runs
        fixed = (f"; the schedule as printed has {len(self.findings.distinct_hazards())} "
                 f"hazard(s), fixed in the kernel by {len(self.fixes)} inserted wait/barrier "
                 f"change(s)" if self.findings is not None and not self.findings.safe else "")
        return (f"{self.title}: safe for main loops of {runs[0].iterations}..{runs[-1].iterations} "
                f"iterations: no hazard, every accumulator receives each K tile once{fixed}")

    # -- the full report ------------------------------------------------------------------
    def text(self) -> str:
        out = [f"pipeline-opt --simulate: {self.title}"]
        if self.shape is not None:
            out.append(f"kernel: {self.shape.describe()}")
        out += [f"note: {n}" for n in self.notes]
        if self.functional is not None:
            out += ["", _functional_text("Functional model", self.functional)]
        if self.findings is not None and not self.findings.safe:
            out += ["", "The schedule as printed (the reference's) has these hazards; the kernel "
                        "runs it with the fixes below:"]
            out += _hazard_lines(self.findings)
            out.append("Kernel fixes (sched-fix-hazards):")
            out += [f"  {f.describe()}" for f in self.fixes]
        if self.banks is not None:
            out += ["", self.banks.text()]
        if self.timing:
            out += ["", _timing_text(self.timing, self.source == "assembly")]
        out += ["", "verdict: " + self.verdict()]
        return "\n".join(out) + "\n"


def _ranges(ns: list[int]) -> str:
    ns = sorted(ns)
    return f"{ns[0]}" if len(ns) == 1 else (f"{ns[0]}..{ns[-1]}" if ns == list(
        range(ns[0], ns[-1] + 1)) else ", ".join(map(str, ns)))


def _hazard_lines(res: SimulationResult) -> list[str]:
    return [f"  [{h.kind}{'/' + h.counter if h.counter else ''}] (main loops of {_ranges(ns)} "
            f"iterations) {h.message}" for h, ns in res.distinct_hazards()]


def _functional_text(label: str, res: SimulationResult) -> str:
    runs = res.runs
    lines = [f"{label} (main loops of {runs[0].iterations}..{runs[-1].iterations} iterations)"]
    if res.safe:
        lines.append("  hazards: none; every accumulator receives K tiles 0..2N+1 once each")
    else:
        lines.append("  hazards:")
        lines += _hazard_lines(res)
    vm = max(r.max_outstanding[0] for r in runs)
    lg = max(r.max_outstanding[1] for r in runs)
    lines.append(f"  most instructions outstanding: vmcnt {vm} (limit {VMCNT_MAX}), lgkmcnt {lg} "
                 f"(limit {LGKMCNT_MAX})")
    bars = runs[-1].barriers
    lines.append(f"  s_barrier per warp group ({iterations_text(runs[-1].iterations)}): "
                 f"{', '.join(map(str, bars))}")
    implicit = res.distinct_implicit_waits()
    if implicit:
        lines.append(f"  implicit waits (not hazards: LLVM's waitcnt pass waits for the "
                     f"register; visible in the ISA): {len(implicit)}")
        lines += [f"    {w.describe()}" for w in implicit]
    return "\n".join(lines)


def _timing_text(timing: list[Timing], asm: bool) -> str:
    head = "Timing model (one CU; steady state of a %d-iteration main loop)" % TIMING_ITERATIONS
    cols = [f"{t.table} ({t.unit})" for t in timing]
    w = max(32, *(len(c) + 2 for c in cols))
    rows: list[tuple[str, list[str]]] = []

    def row(label, fn):
        rows.append((label, [fn(t.analysis) for t in timing]))

    row("ResMII (binding unit)", lambda a: f"{a.res.cycles} ({a.res.binding})")
    row("RecMII", lambda a: f"{a.rec.cycles:.1f}")
    row("MinII", lambda a: f"{a.min_ii:.1f}")
    row("achieved cycles/iteration", lambda a: "-" if a.achieved_ii is None
        else f"{a.achieved_ii:.1f}")
    row("MinII / achieved", lambda a: "-" if a.efficiency is None else f"{100 * a.efficiency:.0f}%")
    row("MFMA busy (mean over SIMDs)", lambda a: "-" if not a.mfma_busy else
        f"{100 * sum(a.mfma_busy.values()) / len(a.mfma_busy):.0f}%")
    row("exposed stall/wave/iteration", lambda a: f"{sum(b.per_iteration for b in a.blocks):.0f}")
    lines = [head, " " * 34 + "".join(c.ljust(w) for c in cols)]
    lines += [f"  {label:<32}" + "".join(v.ljust(w) for v in vals) for label, vals in rows]
    for t in timing:
        a = t.analysis
        lines.append(f"  [{t.table}] exposed stall per wave and iteration, by block (barrier to "
                     f"barrier): " + ", ".join(f"{b.block}: {b.per_iteration:.0f}"
                                               for b in a.blocks))
        top = sorted(a.waits, key=lambda s: -s.cycles)[:6]
        if top:
            lines.append(f"  [{t.table}] waits with the most exposed stall (per wave and "
                         f"iteration): " + ", ".join(
                             f"{_entry(s.entry, asm)} {s.per_iteration:.0f}" for s in top))
        gmem = a.res.per_unit.get("GMEM[cu]")
        if gmem:
            nbytes = gmem * L2_BYTES_PER_CLOCK_PER_CU
            lines.append(f"  [{t.table}] global loads: {nbytes} bytes per iteration per CU, "
                         f"{gmem} cycles of the CU's L2 share ({L2_BYTES_PER_CLOCK_PER_CU} B/clock, "
                         f"charged), {nbytes / HBM_BYTES_PER_CLOCK_PER_CU:.0f} of its HBM share "
                         f"({HBM_BYTES_PER_CLOCK_PER_CU:.1f} B/clock, if every byte came from "
                         f"memory)")
        if a.run.deadlock:
            lines.append(f"  [{t.table}] {a.run.deadlock.message}")
        if a.run.defaulted:
            lines.append(f"  [{t.table}] instructions costed by a default class: "
                         f"{', '.join(sorted(a.run.defaulted))}")
    return "\n".join(lines)


def _entry(entry: tuple, asm: bool) -> str:
    phase, idx = entry
    if asm:
        return f"line {idx}"
    return f"KRN[{idx}]" if phase == "kernel" else f"{phase}[{idx}]"


# ---------------------------------------------------------------------------------------------

def timing_runs(compiled, shape: KernelShape, tables, emitted: bool = False) -> list[Timing]:
    """The kernel's waves running the compiled schedule ``compiled`` for TIMING_ITERATIONS
    trips, per cost table; ``emitted``: the kernel the lowering emits from it, not the
    schedule as printed (:func:`~pipeline_mlir.sim.trace.plan_of`)."""

    streams = wave_streams(compiled, shape, TIMING_ITERATIONS, emitted)
    one = {}
    for simd, ins in streams:
        if id(ins) not in one:
            one[id(ins)] = [i for i in ins if i.origin[:2] == ("kernel", 0)]
    iters = [(simd, one[id(ins)]) for simd, ins in streams]
    out = []
    for table in tables:
        run = simulate_cu(streams, table)
        out.append(Timing(table, analyze_loop(run, iters, table), streams))
    return out


def kernel_shape_with_banks(kernel, lds) -> tuple[KernelShape, KernelBanks]:
    """The shape of the project's complete ``kernel`` with the bank cycles of its LDS
    accesses (``lds``: their lane addresses, a :class:`~pipeline_mlir.kernel.lds_data.
    KernelLds`), and those accesses."""
    banks = kernel_banks(kernel, lds)
    shape = kernel_shape(kernel.schedule)
    return replace(shape, bank_cycles=tuple(banks.cycles(g) for g in range(shape.groups))), banks


def simulate_dump(text: str, schedule, filename: str, tables=("llvm", "measured"),
                  iterations=range(0, 7)) -> SimulationReport:
    """A dumped schedule, as the reference kernel of ``schedule`` runs it: every entry as
    printed, the epilogue's reads no MMA reads included (the reference's printed schedule,
    not a kernel this project's lowering emits)."""

    shape = kernel_shape(schedule)
    sched = parse_schedule(text, MATMUL_TAG_NAMES, MATMUL_ROLES, filename, schedule.name)
    rep = SimulationReport(f"{filename} ({schedule.spec()})", "dump", shape)
    rep.notes.append(NO_ADDRESSES)
    rep.functional = simulate(sched, shape, iterations)
    if tables:
        rep.timing = timing_runs(sched, shape, tables)
    return rep


def simulate_schedule(schedule, tables=("llvm", "measured"), iterations=range(0, 7), *,
                      lds_of) -> SimulationReport:
    """The project's compiled schedule of ``schedule``: findings as printed, the kernel fixed.

    The findings run the schedule as printed, every entry; the fixed kernel's functional
    and timing runs are the kernel the lowering emits, without the epilogue's fragment
    reads no MMA reads (:func:`~pipeline_mlir.kernel.unread_frags.as_emitted`).

    ``lds_of(kernel)``: the complete kernel's LDS accesses
    (:func:`pipeline_mlir.analysis.lds_access.kernel_lds`, which reads the kernel's MLIR:
    the caller hands it down)."""

    note = kernel = None
    try:   # the complete kernel's counts for the keys the schedule leaves unset
        kernel = gemm_kernel(schedule)
        schedule = kernel.schedule
    except ConfigError as e:
        note = (f"no complete kernel issues these counts ({e}); the schedule is simulated "
                f"with the given counts on the kernel's warps; {NO_ADDRESSES}")
    banks = None
    if kernel is not None:
        shape, banks = kernel_shape_with_banks(kernel, lds_of(kernel))
    else:
        shape = kernel_shape(schedule)
    compiled = schedule.compile()
    rep = SimulationReport(schedule.spec(), "schedule", shape)
    rep.banks = banks
    if note:
        rep.notes.append(note)
    rep.findings = simulate(compiled, shape, iterations)
    fixed = repair(compiled, shape, iterations)
    rep.fixes = fixed.fixes
    rep.functional = simulate(fixed, shape, iterations, emitted=True)
    if tables:
        rep.timing = timing_runs(fixed, shape, tables, emitted=True)
    return rep


def simulate_assembly(text: str, filename: str, waves: int, stagger: bool,
                      tables=("llvm", "measured"), measured=None) -> SimulationReport:
    """The main loop of a kernel's gfx950 assembly on the CU model; ``measured``: per
    wave, trip counts measured on the emulator (:mod:`pipeline_mlir.emu.trips`)."""
    if not re.search(r"^[A-Za-z_][\w.$]*:", text, re.M):
        # a loop body cut out of a kernel (as llvm-mca takes it): give it a function
        text = "loop_body:\n" + text
    rep = SimulationReport(f"{filename} (assembly, {waves} waves)", "assembly")
    rep.notes.append("the functional model needs the schedule (LDS slots, K offsets); for "
                     "assembly only the timing model runs")
    rep.notes.append(NO_ADDRESSES)
    try:   # the assembly read once; the inner loops the main loop repeats said once
        if measured is None:
            body = from_asm(asm_main_loop(text, said=rep.notes)) if tables else []
            for table in tables:
                an = simulate_loop_body(body, waves, TIMING_ITERATIONS, table, stagger=stagger)
                rep.timing.append(Timing(table, an, []))
        else:   # each wave's iteration with its own measured counts
            asm_main_loop(text, said=rep.notes, measured=measured[0])
            for table in tables:
                an = simulate_asm_loop(text, waves, TIMING_ITERATIONS, table, stagger=stagger,
                                       measured=measured)
                rep.timing.append(Timing(table, an, []))
    except PipelineError as e:   # asm.py names the line; say which file
        raise PipelineError(f"{filename}: {e}") from None
    return rep

