"""The model of the timeline picture (:mod:`pipeline_mlir.sim.timeline`): what it shows, in
cycles, without matplotlib.

:func:`layout_timeline` turns a CU-model run into a :class:`Timeline`: the cycle window and
the iteration drawn (:func:`choose_window`), one :class:`WaveRow` per set of waves running
the same instructions (:func:`wave_sets`; instruction bars, stall segments by cause, wait
and barrier markers, iteration starts, a stuck barrier, the waves it stands for), one
:class:`UnitRow` per unit instance drawn (with its busy share), the title (naming what is
not drawn) and the legend's kinds.  ``full=True``: a row for every wave and unit instance.
The picture's colours, fonts and geometry (inches, lane heights) are here too: the
timeline's size follows from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.bounds import LoopAnalysis
from pipeline_mlir.sim.costs import TABLE_UNITS
from pipeline_mlir.sim.cu_model import CURun
from pipeline_mlir.sim.instr import PSEUDO_KINDS

#: instruction bar colours, by kind (one per kind of :data:`pipeline_mlir.sim.instr.KINDS`
#: that issues)
KIND_COLOURS = {
    "mfma": "#3b6fb6", "valu": "#edc948", "ds_read": "#2e9e5b", "ds_write": "#8cd17d",
    "vmem_load_lds": "#f28e2b", "vmem_load": "#b6992d", "vmem_store": "#b07aa1",
    "smem": "#9c755f", "wait": "#d62728", "barrier": "#222222", "setprio": "#e377c2",
    "salu": "#a0a0a0", "branch": "#17becf", "nop": "#d0d0d0", "other": "#707070",
}
#: the lanes of a wave row, top to bottom, and the lane of each kind
LANES = ("ctl", "mfma", "lds", "vmem")
_KIND_LANE = {"mfma": "mfma", "valu": "mfma", "ds_read": "lds", "ds_write": "lds",
              "vmem_load_lds": "vmem", "vmem_load": "vmem", "vmem_store": "vmem"}

#: stall cause groups and their colours (a cause string of the CU model -> group by
#: :func:`stall_group`)
STALL_COLOURS = {
    "waitcnt vm": "#fdb462", "waitcnt lgkm": "#b3de69", "barrier": "#6b6b6b",
    "register dependency": "#bc80bd", "mfma pipe busy": "#80b1d3",
    "other unit busy": "#d9c27a", "arbitration lost": "#fb8072",
}
DEADLOCK_COLOUR = "#e31a1c"
ITER_COLOUR = "#555555"
FADED = 0.3

#: PNG resolution, and the figure geometry in inches: the plot's width grows with the
#: window's cycles between the two bounds, so that the picture is at most 1800 pixels wide
#: (shown unscaled on a 1920x1080 screen); rows have fixed heights
DPI = 100
_PLOT_W = (11.0, 15.4)
_IN_PER_CYCLE = 0.008
LEFT_IN, RIGHT_IN, AXIS_IN = 2.0, 0.6, 0.45
#: title and subtitle: font sizes (points) and line heights (inches); every other text is
#: LABEL_PT (row names ROW_PT, bold): readable at 100% on a 1920x1080 screen
TITLE_PT, SUB_PT, TITLE_LINE_IN, SUB_LINE_IN = 13, 10.5, 0.24, 0.21
LABEL_PT, ROW_PT = 9, 10
LANE_IN, UNIT_IN, LEGEND_ROW_IN, LEGEND_ROWS = 0.19, 0.2, 0.45, 2
#: a wave row in lane units: the marker-label band, the four lanes, the stall lane
BAND, STALL_LANE, ROW_GAP, SIMD_GAP = 1.1, 0.8, 0.35, 0.5
RUN_MIN = 4                # back-to-back bars of one kind labelled with their count
#: units drawn per SIMD (the others per SIMD are summed up in a note); CU units all drawn
SIMD_UNITS_DRAWN = ("XDL",)


class TimelineError(PipelineError):
    """Bad input to the timeline renderer (names the argument or the path)."""


def stall_group(cause: str) -> str:
    """The legend group of a CU-model stall cause (``lds busy`` -> ``other unit busy``,
    ``arbitration lost to wave 3`` -> ``arbitration lost``)."""
    if cause.startswith("arbitration lost"):
        return "arbitration lost"
    if cause in STALL_COLOURS:
        return cause
    if cause.endswith(" busy"):
        return "other unit busy"
    return "register dependency" if "depend" in cause else "other unit busy"


def wait_label(vm: int | None, lgkm: int | None) -> str:
    """``vmcnt(8)``, ``lgkmcnt(0)``, both, or ``waitcnt`` for a wait on neither."""
    parts = [f"vmcnt({vm})"] * (vm is not None) + [f"lgkmcnt({lgkm})"] * (lgkm is not None)
    return " ".join(parts) or "waitcnt"


def origin_text(origin: tuple) -> str:
    """Where an instruction came from: its schedule entry or its assembly line."""
    if len(origin) == 2 and origin[0] == "asm":
        return f"assembly line {origin[1]}"
    if len(origin) >= 3:
        phase, it, entry = origin[:3]
        where = f"{phase} entry {entry}" if entry >= 0 else phase
        if phase == "kernel":
            where += f" (iteration {it})"
        if len(origin) > 3:
            where += f", instruction {origin[3]} of the entry"
        return where
    return "origin unknown"


# ----------------------------------------------------------------------------------------
# the model of the picture


@dataclass(frozen=True)
class Bar:
    """One instruction drawn: ``run.waves[wave].instrs[index]``."""

    wave: int
    index: int
    kind: str
    name: str
    issue: int
    end: int                   # the model's end (result ready, access complete)
    stop: int                  # where the bar ends (a barrier: its release)
    stall: int
    reason: str
    origin: tuple
    faded: bool                # another iteration than the one drawn

    @property
    def lane(self) -> str:
        return _KIND_LANE.get(self.kind, "ctl")

    @property
    def gid(self) -> str:
        return f"op-w{self.wave}-i{self.index}"

    @property
    def tip(self) -> str:
        stall = f", stalled {self.stall} ({self.reason})" if self.stall else ""
        return (f"wave {self.wave} #{self.index} {self.name}: {origin_text(self.origin)}; "
                f"issue {self.issue}, end {self.end}{stall}")


@dataclass(frozen=True)
class StallSpan:
    start: int
    stop: int
    group: str
    faded: bool


@dataclass(frozen=True)
class Marker:
    """An ``s_waitcnt`` or ``s_barrier`` of a wave row."""

    cycle: int
    kind: str                  # wait | barrier
    label: str
    stall: int
    index: int
    faded: bool


@dataclass
class WaveRow:
    wave: int
    simd: int
    bars: list[Bar] = field(default_factory=list)
    stalls: list[StallSpan] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    iteration_starts: list[tuple[int, int]] = field(default_factory=list)  # (cycle, iteration)
    stuck: tuple[int, int] | None = None       # (cycle of its last issue, barrier number)
    #: the waves this row stands for (same instructions, not drawn) and their issue cycles
    #: minus this wave's, lowest and highest over the window
    alike: tuple[int, ...] = ()
    skew: tuple[int, int] = (0, 0)

    @property
    def label(self) -> str:
        return f"SIMD {self.simd} / wave {self.wave}"

    @property
    def alike_label(self) -> str:
        """``+ waves 1-3 alike`` ("" for a row that stands for itself only)."""
        if not self.alike:
            return ""
        return f"+ wave{'s' * (len(self.alike) > 1)} {waves_text(self.alike)} alike"


@dataclass(frozen=True)
class UnitSpan:
    start: int
    stop: int
    wave: int
    kind: str


@dataclass
class UnitRow:
    unit: str
    instance: str
    spans: list[UnitSpan] = field(default_factory=list)
    busy: float = 0.0                  # fraction of the window the unit is busy

    @property
    def label(self) -> str:
        return f"{self.unit} {self.instance}" if self.instance != "cu" else f"{self.unit} (CU)"


@dataclass
class Timeline:
    """What the picture shows; ``window`` = cycles ``[t0, t1)``, ``iteration`` = the kernel
    iteration drawn (None: no kernel iteration picked)."""

    window: tuple[int, int]
    iteration: int | None
    title: str
    subtitle: str
    xlabel: str
    rows: list[WaveRow]
    units: list[UnitRow]
    deadlock: int | None
    kinds: list[str]                   # kinds drawn (bars and unit spans), legend order
    stall_groups: list[str]            # stall groups drawn, legend order
    units_note: str = ""               # the unit instances not drawn, with their busy share

    def size_inches(self) -> tuple[float, float]:
        """The figure's (width, height) in inches (PNG pixels: times :data:`DPI`)."""
        span = self.window[1] - self.window[0]
        plot_w = min(max(span * _IN_PER_CYCLE, _PLOT_W[0]), _PLOT_W[1])
        w = round((LEFT_IN + plot_w + RIGHT_IN) * DPI) / DPI
        h = (self.title_height(w) + self.wave_height() * LANE_IN + 2 * AXIS_IN
             + 0.3 + self.unit_height() * UNIT_IN + LEGEND_ROWS * LEGEND_ROW_IN + 0.15)
        return w, round(h * DPI) / DPI

    def title_lines(self, width_in: float) -> tuple[list[str], list[str]]:
        """The title and the subtitle broken at their separators to fit ``width_in``."""
        return (_wrap(self.title, "  -  ", TITLE_PT * 0.68, width_in),
                _wrap(self.subtitle, ";  ", SUB_PT * 0.6, width_in))

    def title_height(self, width_in: float) -> float:
        head, sub = self.title_lines(width_in)
        return 0.16 + len(head) * TITLE_LINE_IN + len(sub) * SUB_LINE_IN

    def wave_height(self) -> float:
        simds = len({r.simd for r in self.rows})
        return (len(self.rows) * (BAND + len(LANES) + STALL_LANE + ROW_GAP)
                + max(simds - 1, 0) * SIMD_GAP + 0.2)

    def unit_height(self) -> float:
        return max(len(self.units), 1) + 0.4


def waves_text(waves) -> str:
    """Wave numbers as runs: ``1-3``, ``1, 3``, ``1-3, 5``."""
    runs: list[list[int]] = []
    for w in sorted(waves):
        if runs and w == runs[-1][1] + 1:
            runs[-1][1] = w
        else:
            runs.append([w, w])
    return ", ".join(f"{a}" if a == b else f"{a}, {b}" if b == a + 1 else f"{a}-{b}"
                     for a, b in runs)


def _wrap(text: str, sep: str, char_pt: float, width_in: float) -> list[str]:
    """``text`` in lines of whole ``sep``-separated parts, each line at most ``width_in``
    wide at ``char_pt`` points a character (a long part stays whole on its own line)."""
    fits = int((width_in - 0.2) * 72 / char_pt)
    lines: list[str] = []
    for part in text.split(sep):
        if lines and len(lines[-1]) + len(sep) + len(part) <= fits:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return [ln + sep.rstrip() if k + 1 < len(lines) else ln for k, ln in enumerate(lines)]


# ----------------------------------------------------------------------------------------
# choosing the window


def _iteration(ins) -> int | None:
    o = ins.origin
    return o[1] if len(o) == 4 and o[0] == "kernel" else None


def iteration_spans(run: CURun) -> dict[int, dict[int, tuple[int, int]]]:
    """wave -> kernel iteration -> (first issue, last issue + 1) of the instructions
    the wave issued for it (pseudo instructions left out)."""
    out: dict[int, dict[int, tuple[int, int]]] = {}
    for wt in run.waves:
        spans: dict[int, tuple[int, int]] = {}
        for ins, t in zip(wt.instrs, wt.issue):
            it = _iteration(ins)
            if it is None or ins.kind in PSEUDO_KINDS:
                continue
            lo, hi = spans.get(it, (t, t + 1))
            spans[it] = (min(lo, t), max(hi, t + 1))
        out[wt.wave] = spans
    return out


def choose_window(run: CURun, iteration: int | None = None,
                  window: tuple[int, int] | None = None) -> tuple[tuple[int, int], int | None]:
    """The cycle window ``[t0, t1)`` and the iteration to draw (module docstring)."""
    spans = iteration_spans(run)
    started = [set(s) for s in spans.values() if s]
    everywhere = sorted(set.intersection(*started)) if started else []
    anywhere = sorted(set.union(*started)) if started else []
    if window is not None:
        ok = (isinstance(window, tuple) and len(window) == 2
              and all(isinstance(v, int) for v in window) and window[0] < window[1])
        if not ok:
            raise TimelineError(f"window={window!r}: the window to draw is (start, end) cycles "
                                f"with start < end")
        if iteration is not None and iteration not in anywhere:
            raise TimelineError(_no_iteration(iteration, anywhere))
        return window, iteration
    if iteration is not None:
        if iteration not in anywhere:
            raise TimelineError(_no_iteration(iteration, anywhere))
    elif run.deadlock is not None and anywhere:
        iteration = anywhere[-1]
    elif everywhere:
        iteration = everywhere[len(everywhere) // 2]
    if iteration is None:
        return (0, max(run.total, 1)), None
    t0 = min(s[iteration][0] for s in spans.values() if iteration in s)
    if run.deadlock is not None:
        return (t0, max(run.total, t0 + 1)), iteration
    t1 = max((s[iteration + 1][0] if iteration + 1 in s else s[iteration][1])
             for s in spans.values() if iteration in s)
    return (t0, max(t1, t0 + 1)), iteration


def _no_iteration(iteration: int, anywhere: list[int]) -> str:
    have = f"{anywhere[0]}..{anywhere[-1]}" if anywhere else "none: no kernel origins"
    return f"iteration={iteration}: the run has no such iteration (kernel iterations: {have})"


# ----------------------------------------------------------------------------------------
# layout: the run -> a Timeline


def _unit_order(key: tuple[str, str]) -> tuple:
    unit, inst = key
    rank = 0 if unit == "XDL" else 1 if inst == "cu" else 2
    return (rank, unit, inst)


def _wave_row(run: CURun, wt, t0: int, t1: int, it: int | None,
              spans: dict[int, tuple[int, int]]) -> WaveRow:
    row = WaveRow(wt.wave, wt.simd)
    # the issue cycle of the next real instruction (a barrier is held until then)
    nxt: list[int | None] = [None] * len(wt.issue)
    for j in range(len(wt.issue) - 2, -1, -1):
        nxt[j] = nxt[j + 1] if wt.instrs[j + 1].kind in PSEUDO_KINDS else wt.issue[j + 1]
    segs: list[list] = []
    for j, (ins, ti, te) in enumerate(zip(wt.instrs, wt.issue, wt.end)):
        if ins.kind in PSEUDO_KINDS:
            continue
        lo = ti - wt.stall[j]
        if te < t0 or lo >= t1:
            continue
        faded = it is not None and _iteration(ins) != it
        c = lo                              # stall segments, in the order the causes lifted
        for cause, cyc in wt.causes[j]:
            g = stall_group(cause)
            if segs and segs[-1][2] == g and segs[-1][3] == faded and c - segs[-1][1] <= 1:
                segs[-1][1] = c + cyc
            else:
                segs.append([c, c + cyc, g, faded])
            c += cyc
        if ti >= t1:
            continue
        stop = te
        if ins.kind == "barrier" and nxt[j] is not None:
            stop = min(te, nxt[j])          # held from arrival to release, not its latency
        row.bars.append(Bar(wt.wave, j, ins.kind, ins.name, ti, te, max(stop, ti + 1),
                            wt.stall[j], wt.reason[j], ins.origin, faded))
        if ins.kind in ("wait", "barrier"):
            label = wait_label(ins.vm, ins.lgkm) if ins.kind == "wait" else "barrier"
            row.markers.append(Marker(ti, ins.kind, label, wt.stall[j], j, faded))
    row.stalls = [StallSpan(lo, hi, g, f) for lo, hi, g, f in segs if hi > t0 and lo < t1]
    row.iteration_starts = sorted((s0, i) for i, (s0, _s1) in spans.items()
                                  if t0 <= s0 < t1 and (it is None or i in (it, it + 1)))
    stuck = run.deadlock.waiting if run.deadlock is not None else {}
    if wt.wave in stuck and wt.issue:
        row.stuck = (wt.issue[-1], stuck[wt.wave])
    return row


def _busy_share(intervals: list, t0: int, t1: int) -> float:
    """The fraction of ``[t0, t1)`` that the union of the busy intervals covers."""
    covered, reach = 0, t0
    for b in sorted(intervals, key=lambda b: b.start):
        lo, hi = max(b.start, reach), min(b.end, t1)
        if hi > lo:
            covered += hi - lo
            reach = hi
    return covered / (t1 - t0)


def _unit_rows(run: CURun, t0: int, t1: int, full: bool) -> tuple[list[UnitRow], str]:
    """The unit rows drawn (every instance the run kept busy in the window, or with ``full``
    False only :data:`SIMD_UNITS_DRAWN` of the per-SIMD units) and the note naming the
    others with their highest busy share."""
    by_unit: dict[tuple[str, str], list] = {}
    for b in run.busy:
        if b.end > t0 and b.start < t1:
            by_unit.setdefault((b.unit, b.instance), []).append(b)
    rows, hidden = [], {}
    for key in sorted(by_unit, key=_unit_order):
        busy = _busy_share(by_unit[key], t0, t1)
        if not full and key[1] != "cu" and key[0] not in SIMD_UNITS_DRAWN:
            hidden[key[0]] = max(hidden.get(key[0], 0.0), busy)
            continue
        merged: list[list] = []             # one span per stretch of one wave and kind
        for b in sorted(by_unit[key], key=lambda b: b.start):
            kind = run.waves[b.wave].instrs[b.index].kind
            if merged and merged[-1][2] == b.wave and merged[-1][3] == kind \
                    and b.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b.end)
            else:
                merged.append([b.start, b.end, b.wave, kind])
        rows.append(UnitRow(*key, [UnitSpan(*m) for m in merged], busy))
    note = ", ".join(f"{u} {100 * v:.1f}%" for u, v in hidden.items())
    return rows, f"units not drawn (busy per SIMD at most): {note}" if note else ""


def wave_sets(run: CURun) -> list[tuple[object, list]]:
    """The waves of ``run`` in sets that run the same instructions (a warp group's waves)
    and are stuck at the same barrier or none: ``(drawn, others)`` per set, the drawn wave
    its lowest-numbered one, in wave order."""
    stuck = run.deadlock.waiting if run.deadlock is not None else {}
    sets: list[tuple[object, list]] = []
    for wt in sorted(run.waves, key=lambda w: w.wave):
        for first, others in sets:
            if stuck.get(first.wave) == stuck.get(wt.wave) \
                    and (first.instrs is wt.instrs or first.instrs == wt.instrs):
                others.append(wt)
                break
        else:
            sets.append((wt, []))
    return sets


def _skew(wt, others: list, t0: int, t1: int) -> tuple[int, int]:
    """The lowest and highest issue cycle of ``others`` minus ``wt``'s, instruction by
    instruction, over ``wt``'s issues in ``[t0, t1)``."""
    lo = hi = 0
    for o in others:
        d = [b - a for a, b in zip(wt.issue, o.issue) if t0 <= a < t1]
        lo, hi = min([lo, *d]), max([hi, *d])
    return lo, hi


def _alike_note(rows: list[WaveRow]) -> str:
    """The subtitle's part naming the waves not drawn (``""`` when every wave is drawn)."""
    parts = [f"waves {waves_text(r.alike)} as wave {r.wave} (issue {r.skew[0]:+d}..{r.skew[1]:+d} "
             f"cycles from it)" for r in rows if r.alike]
    return "not drawn: " + ", ".join(parts) if parts else ""


def _header(run: CURun, analysis, title: str, it, t0: int, t1: int) -> tuple[str, str]:
    name = title or "CU-model timeline"
    where = (f"iteration {it}, cycles {t0}..{t1}" if it is not None
             else f"cycles {t0}..{t1}")
    head = f"{name}  -  '{run.table}' table ({TABLE_UNITS.get(run.table, 'cost-table units')}), " \
           f"{where}"
    if run.deadlock is not None:
        head += f"  -  DEADLOCK at cycle {run.deadlock.cycle}"
    if analysis is None:
        return head, f"{len(run.waves)} waves; no loop analysis given"
    ach = (f"{analysis.achieved_ii:.1f}" if analysis.achieved_ii is not None else "n/a")
    busy = analysis.mfma_busy
    mean = sum(busy.values()) / len(busy) if busy else 0.0
    per = ", ".join(f"simd{s} {100 * v:.1f}%" for s, v in sorted(busy.items()))
    sub = (f"{len(run.waves)} waves;  achieved {ach} cycles/iteration;  MinII "
           f"{analysis.min_ii:g} (ResMII {analysis.res.cycles} on {analysis.res.binding}, "
           f"RecMII {analysis.rec.cycles:.1f});  MFMA busy {100 * mean:.1f}% ({per})")
    return head, sub


def _check_inputs(run, analysis, full) -> None:
    if not isinstance(run, CURun):
        raise TimelineError(f"the run to draw is a {type(run).__name__}, not a simulator run "
                            f"(CURun)")
    if analysis is not None and not isinstance(analysis, LoopAnalysis):
        raise TimelineError(f"the analysis to draw with is a {type(analysis).__name__}, not a "
                            f"LoopAnalysis (or None)")
    if analysis is not None and analysis.run is not run:
        raise TimelineError("the analysis given is of another run than the one to draw "
                            "(analysis.run is not run)")
    if not isinstance(full, bool):
        raise TimelineError(f"full={full!r}: whether to draw every wave and unit instance is "
                            f"True or False")


def layout_timeline(run: CURun, analysis=None, *, title: str = "",
                    iteration: int | None = None,
                    window: tuple[int, int] | None = None, full: bool = False) -> Timeline:
    """The :class:`Timeline` of ``run`` (see the module docstring); ``analysis`` (a
    :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` of the run, or None) only feeds
    the title.  ``iteration``/``window`` override the default window.  By default one row
    per set of waves running the same instructions (:func:`wave_sets`) and, of the
    per-SIMD units, only the MFMA pipes; ``full``: every wave and every unit instance."""
    _check_inputs(run, analysis, full)
    (t0, t1), it = choose_window(run, iteration, window)
    spans = iteration_spans(run)
    sets = [(wt, []) for wt in run.waves] if full else wave_sets(run)
    rows = []
    for wt, others in sorted(sets, key=lambda s: (s[0].simd, s[0].wave)):
        row = _wave_row(run, wt, t0, t1, it, spans.get(wt.wave, {}))
        row.alike, row.skew = tuple(o.wave for o in others), _skew(wt, others, t0, t1)
        rows.append(row)
    units, units_note = _unit_rows(run, t0, t1, full)
    seen = {b.kind for r in rows for b in r.bars} | {s.kind for u in units for s in u.spans}
    groups = {s.group for r in rows for s in r.stalls}
    head, sub = _header(run, analysis, title, it, t0, t1)
    sub = ";  ".join(part for part in (sub, _alike_note(rows), units_note) if part)
    xlabel = f"cycle ({TABLE_UNITS.get(run.table, 'cost-table units')}, '{run.table}' cost table)"
    return Timeline((t0, t1), it, head, sub, xlabel, rows, units,
                    run.deadlock.cycle if run.deadlock is not None else None,
                    [k for k in KIND_COLOURS if k in seen],
                    [g for g in STALL_COLOURS if g in groups], units_note)
