"""The timeline picture of a CU-model run: one steady-state iteration, drawn with matplotlib.

:func:`render_timeline` writes ``path`` as SVG or PNG (the extension picks) from one
matplotlib figure.  matplotlib is an optional dependency (the ``plot`` extra); without
it :func:`render_timeline` raises a :class:`TimelineError` saying how to install it.
The picture is computed in two steps: :func:`layout_timeline` turns the run into a
:class:`Timeline` (rows, bars, markers, unit rows, title; cycles only, no matplotlib),
and :func:`draw_timeline` draws that into a figure.

What the picture shows (x: cycles of the run's cost table):

* one row per wave, grouped by SIMD and labelled ``SIMD s / wave w``.  A row has
  four lanes of instruction bars, each bar from the instruction's issue cycle to
  its end (result ready / access complete / barrier released), coloured by kind:
  ``ctl`` (s_waitcnt, s_barrier, s_setprio, scalar and other instructions),
  ``mfma`` (MFMAs and VALU), ``lds`` (ds_*), ``vmem`` (buffer and global memory),
  and below them a ``stall`` lane: the cycles the wave waited before issuing,
  one segment per cause, coloured by cause.  A run of four or more back-to-back
  bars of one kind is labelled with its length where it fits (``16 mfma``).
  Every ``s_waitcnt`` and ``s_barrier`` gets a vertical marker through the row
  and, where it fits, a label above it (``vmcnt(8)``, ``lgkmcnt(0)``,
  ``barrier``); labels that would overlap are left out, the longest stalls
  keeping theirs.  Dashed lines mark where the wave's iterations start.
  Instructions of other iterations that overlap the window are drawn faded.
* each bar is traceable to its instruction and schedule entry: in the SVG it is
  the group ``op-w<wave>-i<index>`` (``run.waves[wave].instrs[index]``) with a
  tooltip naming the instruction, its schedule entry (phase, entry, iteration) or
  assembly line, and its issue, end and stall cycles.
* one row per unit instance the run kept busy (``XDL simd0``..: the MFMA pipe of
  each SIMD; ``LDS``, ``VMEM``: one per CU; then the other per-SIMD units), from
  ``CURun.busy``: busy intervals coloured by the kind of the instruction holding
  the unit, labelled with its wave (``w4``) where it fits.
* a title (schedule name given by the caller, cost table and its unit, the
  iteration and window; achieved cycles per iteration, MinII, MFMA-busy %), the
  cycle axis above and below, and a legend of the kinds, stall causes and markers.
* a deadlocked run: everything that issued, a red line at the deadlock cycle and
  each stuck wave's barrier drawn red to the end of the window.

The window: by default the middle kernel iteration every wave started (origins
``("kernel", i, ...)``), from its earliest start over the waves to the latest
start of the next one, so each wave's whole iteration is inside; for a
deadlocked run the last iteration any wave started up to the run's end; with no
kernel iterations (a straight-line trace) the whole run.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from xml.sax.saxutils import escape

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.bounds import LoopAnalysis
from pipeline_mlir.sim.costs import TABLE_UNITS
from pipeline_mlir.sim.cu_model import CURun
from pipeline_mlir.sim.instr import PSEUDO_KINDS

EXTENSIONS = (".svg", ".png")

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
#: window's cycles between the two bounds; rows have fixed heights
DPI = 100
_PLOT_W = (11.0, 22.0)
_IN_PER_CYCLE = 0.0045
_LEFT_IN, _RIGHT_IN, _AXIS_IN = 1.75, 0.25, 0.45
#: title and subtitle: font sizes (points) and line heights (inches)
_TITLE_PT, _SUB_PT, _TITLE_LINE_IN, _SUB_LINE_IN = 13, 10.5, 0.24, 0.21
_LANE_IN, _UNIT_IN, _LEGEND_ROW_IN = 0.13, 0.16, 0.45
#: a wave row in lane units: the marker-label band, the four lanes, the stall lane
_BAND, _STALL, _ROW_GAP, _SIMD_GAP = 1.1, 0.8, 0.35, 0.5
_RUN_MIN = 4                # back-to-back bars of one kind labelled with their count


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

    @property
    def label(self) -> str:
        return f"SIMD {self.simd} / wave {self.wave}"


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

    def size_inches(self) -> tuple[float, float]:
        """The figure's (width, height) in inches (PNG pixels: times :data:`DPI`)."""
        span = self.window[1] - self.window[0]
        plot_w = min(max(span * _IN_PER_CYCLE, _PLOT_W[0]), _PLOT_W[1])
        w = round((_LEFT_IN + plot_w + _RIGHT_IN) * DPI) / DPI
        h = (self._title_height(w) + self._wave_height() * _LANE_IN + 2 * _AXIS_IN
             + 0.3 + self._unit_height() * _UNIT_IN + 3 * _LEGEND_ROW_IN + 0.15)
        return w, round(h * DPI) / DPI

    def title_lines(self, width_in: float) -> tuple[list[str], list[str]]:
        """The title and the subtitle broken at their separators to fit ``width_in``."""
        return (_wrap(self.title, "  -  ", _TITLE_PT * 0.68, width_in),
                _wrap(self.subtitle, ";  ", _SUB_PT * 0.6, width_in))

    def _title_height(self, width_in: float) -> float:
        head, sub = self.title_lines(width_in)
        return 0.16 + len(head) * _TITLE_LINE_IN + len(sub) * _SUB_LINE_IN

    def _wave_height(self) -> float:
        simds = len({r.simd for r in self.rows})
        return (len(self.rows) * (_BAND + len(LANES) + _STALL + _ROW_GAP)
                + max(simds - 1, 0) * _SIMD_GAP + 0.2)

    def _unit_height(self) -> float:
        return max(len(self.units), 1) + 0.4


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


def _unit_rows(run: CURun, t0: int, t1: int) -> list[UnitRow]:
    by_unit: dict[tuple[str, str], list] = {}
    for b in run.busy:
        if b.end > t0 and b.start < t1:
            by_unit.setdefault((b.unit, b.instance), []).append(b)
    rows = []
    for key in sorted(by_unit, key=_unit_order):
        merged: list[list] = []             # one span per stretch of one wave and kind
        for b in sorted(by_unit[key], key=lambda b: b.start):
            kind = run.waves[b.wave].instrs[b.index].kind
            if merged and merged[-1][2] == b.wave and merged[-1][3] == kind \
                    and b.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b.end)
            else:
                merged.append([b.start, b.end, b.wave, kind])
        rows.append(UnitRow(*key, [UnitSpan(*m) for m in merged]))
    return rows


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


def layout_timeline(run: CURun, analysis=None, *, title: str = "",
                    iteration: int | None = None,
                    window: tuple[int, int] | None = None) -> Timeline:
    """The :class:`Timeline` of ``run`` (see the module docstring); ``analysis`` (a
    :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` of the run, or None) only feeds
    the title.  ``iteration``/``window`` override the default window."""
    if not isinstance(run, CURun):
        raise TimelineError(f"the run to draw is a {type(run).__name__}, not a simulator run "
                            f"(CURun)")
    if analysis is not None and not isinstance(analysis, LoopAnalysis):
        raise TimelineError(f"the analysis to draw with is a {type(analysis).__name__}, not a "
                            f"LoopAnalysis (or None)")
    if analysis is not None and analysis.run is not run:
        raise TimelineError("the analysis given is of another run than the one to draw "
                            "(analysis.run is not run)")
    (t0, t1), it = choose_window(run, iteration, window)
    spans = iteration_spans(run)
    rows = [_wave_row(run, wt, t0, t1, it, spans.get(wt.wave, {}))
            for wt in sorted(run.waves, key=lambda w: (w.simd, w.wave))]
    units = _unit_rows(run, t0, t1)
    seen = {b.kind for r in rows for b in r.bars} | {s.kind for u in units for s in u.spans}
    groups = {s.group for r in rows for s in r.stalls}
    head, sub = _header(run, analysis, title, it, t0, t1)
    xlabel = f"cycle ({TABLE_UNITS.get(run.table, 'cost-table units')}, '{run.table}' cost table)"
    return Timeline((t0, t1), it, head, sub, xlabel, rows, units,
                    run.deadlock.cycle if run.deadlock is not None else None,
                    [k for k in KIND_COLOURS if k in seen],
                    [g for g in STALL_COLOURS if g in groups])


# ----------------------------------------------------------------------------------------
# drawing: a Timeline -> a matplotlib figure


def _matplotlib():
    """matplotlib's pieces the drawing uses.  Imported here, not at the top: matplotlib
    is an optional dependency (the ``plot`` extra) and slow to import."""
    try:
        from matplotlib import colors, rc_context, transforms
        from matplotlib.collections import LineCollection, PolyCollection
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.ticker import AutoMinorLocator, MaxNLocator
    except ImportError as e:
        raise TimelineError(f"the timeline picture needs matplotlib, which is not installed "
                            f"({e}): pip install 'pipeline-mlir[plot]'") from None
    return SimpleNamespace(Figure=Figure, PolyCollection=PolyCollection,
                           LineCollection=LineCollection, Line2D=Line2D, Patch=Patch,
                           to_rgba=colors.to_rgba, transforms=transforms,
                           rc_context=rc_context, MaxNLocator=MaxNLocator,
                           AutoMinorLocator=AutoMinorLocator)


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _runs(bars: list[Bar]) -> list[list[Bar]]:
    """Maximal runs of back-to-back bars of one kind (each issuing at most a cycle after
    the previous one ends), in issue order."""
    out: list[list[Bar]] = []
    for b in sorted(bars, key=lambda b: b.issue):
        last = out[-1][-1] if out else None
        if last is not None and last.kind == b.kind and last.faded == b.faded \
                and b.issue <= last.stop + 1:
            out[-1].append(b)
        else:
            out.append([b])
    return out


class _Labels:
    """Label intervals (in cycles) placed on one line; one that would overlap is refused."""

    def __init__(self, pad: float) -> None:
        self.pad = pad
        self.placed: list[tuple[float, float]] = []

    def place(self, x0: float, x1: float) -> bool:
        if any(x0 < b + self.pad and a < x1 + self.pad for a, b in self.placed):
            return False
        self.placed.append((x0, x1))
        return True


class _Boxes:
    """Rectangles gathered for one collection (one artist: fast to draw and to save)."""

    def __init__(self, mpl) -> None:
        self.mpl = mpl
        self.verts: list = []
        self.colours: list = []
        self.urls: list = []

    def add(self, x0: float, x1: float, y0: float, h: float, colour: str, alpha: float = 1.0,
            url: str | None = None) -> None:
        self.verts.append(((x0, y0), (x1, y0), (x1, y0 + h), (x0, y0 + h)))
        self.colours.append(self.mpl.to_rgba(colour, alpha))
        self.urls.append(url)

    def draw(self, ax, zorder: float, edge: str = "none", width: float = 0.0,
             gid: str | None = None) -> None:
        if self.verts:
            ax.add_collection(self.mpl.PolyCollection(
                self.verts, facecolors=self.colours, edgecolors=edge, linewidths=width,
                urls=self.urls if any(self.urls) else None, zorder=zorder, gid=gid),
                autolim=False)


def draw_timeline(t: Timeline):
    """The matplotlib ``Figure`` of ``t`` (not saved; :func:`render_timeline` saves it).

    Each instruction bar carries the url ``#op-w<wave>-i<index>``, which the SVG file
    turns into the bar's id and tooltip."""
    mpl = _matplotlib()
    w_in, h_in = t.size_inches()
    fig = mpl.Figure(figsize=(w_in, h_in), dpi=DPI)
    t0, t1 = t.window
    plot_w = w_in - _LEFT_IN - _RIGHT_IN
    cyc_per_pt = (t1 - t0) / (plot_w * 72)

    def text_cycles(text: str, size: float) -> float:
        return 0.6 * size * len(text) * cyc_per_pt       # a generous sans-serif average

    def axes(top_in: float, height_in: float):            # placed in inches from the top
        return fig.add_axes((_LEFT_IN / w_in, 1 - (top_in + height_in) / h_in, plot_w / w_in,
                             height_in / h_in))

    wave_h = t._wave_height() * _LANE_IN
    unit_h = t._unit_height() * _UNIT_IN
    top_in = t._title_height(w_in)
    ax = axes(top_in + _AXIS_IN, wave_h)
    ux = axes(top_in + _AXIS_IN + wave_h + 0.3, unit_h)
    head, sub = t.title_lines(w_in)
    y_in = 0.06
    for k, line in enumerate(head):
        y_in += _TITLE_LINE_IN
        fig.text(0.08 / w_in, 1 - y_in / h_in, line, fontsize=_TITLE_PT, fontweight="bold",
                 gid=f"title-{k}")
    for k, line in enumerate(sub):
        y_in += _SUB_LINE_IN
        fig.text(0.08 / w_in, 1 - y_in / h_in, line, fontsize=_SUB_PT, gid=f"subtitle-{k}")
    for a in (ax, ux):
        a.set_xlim(t0, t1)
        a.grid(axis="x", color="#c8c8c8", linewidth=0.6)
        a.set_axisbelow(True)
        for side in ("right", "left"):
            a.spines[side].set_visible(False)
        a.tick_params(axis="y", length=0)
        a.tick_params(axis="x", labelsize=9)
        a.xaxis.set_major_locator(mpl.MaxNLocator(nbins=int(plot_w), integer=True,
                                                  steps=[1, 2, 2.5, 5, 10]))
        a.xaxis.set_minor_locator(mpl.AutoMinorLocator())
    ax.xaxis.tick_top()
    ux.set_xlabel(t.xlabel, fontsize=10.5)
    row_label_at = mpl.transforms.blended_transform_factory(fig.transFigure, ax.transData)

    background, bars, stalls = _Boxes(mpl), _Boxes(mpl), _Boxes(mpl)
    marks: dict[tuple[str, bool], list] = {}          # (kind, faded) -> segments
    starts: list = []
    issues: list = []
    y, ticks, ticklabels = 0.2, [], []
    prev_simd = None
    for row in t.rows:
        if prev_simd is not None and row.simd != prev_simd:
            y += _SIMD_GAP
        prev_simd = row.simd
        top = y
        lane_y = {lane: top + _BAND + k for k, lane in enumerate(LANES)}
        stall_y = top + _BAND + len(LANES)
        bottom = stall_y + _STALL
        background.add(t0, t1, top + _BAND, bottom - top - _BAND,
                       "#ebeff5" if row.simd % 2 == 0 else "#f3f3f3")
        ax.text(0.08 / w_in, (top + _BAND + bottom) / 2, row.label, transform=row_label_at,
                fontsize=10, fontweight="bold", va="center", gid=f"row-w{row.wave}")
        ticks += [lane_y[lane] + 0.5 for lane in LANES] + [stall_y + _STALL / 2]
        ticklabels += list(LANES) + ["stall"]
        # later issues first: where bars of a lane overlap (loads in flight), each one's
        # end stays visible, and a tick marks each issue
        for b in sorted(row.bars, key=lambda b: -b.issue):
            bars.add(b.issue, b.stop, lane_y[b.lane] + 0.08, 0.84, KIND_COLOURS[b.kind],
                     FADED if b.faded else 1.0, f"#{b.gid}")
            if b.lane in ("lds", "vmem") and b.issue >= t0:
                issues.append(((b.issue, lane_y[b.lane] + 0.08), (b.issue, lane_y[b.lane] + 0.92)))
        for lane in LANES:                  # runs of one kind: their length inside
            for run in _runs([b for b in row.bars if b.lane == lane]):
                x0, x1 = max(run[0].issue, t0), min(run[-1].stop, t1)
                label = f"{len(run)} {run[0].kind}"
                if text_cycles(label, 6.5) + 4 * cyc_per_pt > x1 - x0:
                    label = str(len(run))
                if len(run) >= _RUN_MIN and not run[0].faded \
                        and text_cycles(label, 6.5) + 4 * cyc_per_pt <= x1 - x0:
                    colour = KIND_COLOURS[run[0].kind]
                    ax.text((x0 + x1) / 2, lane_y[lane] + 0.52, label, fontsize=6.5,
                            ha="center", va="center", color=_ink_on(colour), zorder=4,
                            gid=f"runlabel-w{row.wave}-i{run[0].index}",
                            bbox={"facecolor": colour, "edgecolor": "none", "pad": 0.6})
        for st in row.stalls:
            stalls.add(st.start, st.stop, stall_y + 0.1, _STALL - 0.2, STALL_COLOURS[st.group],
                       FADED if st.faded else 1.0)
        labels = _Labels(3 * cyc_per_pt)
        band_y = top + _BAND - 0.25
        if row.stuck is not None:           # its label first: the others make way
            xs, number = row.stuck
            bars.add(xs, max(t1, xs + 1), lane_y["ctl"] + 0.08, 0.84, DEADLOCK_COLOUR, 0.6)
            lab = f"stuck at barrier #{number}"
            tw = text_cycles(lab, 7.5) * 1.1          # bold
            lx = max(min(xs, t1 - tw), t0)
            labels.place(lx, lx + tw)
            ax.text(lx, band_y, lab, fontsize=7.5, color=DEADLOCK_COLOUR, fontweight="bold",
                    gid=f"stucklabel-w{row.wave}")
        for cycle, i in row.iteration_starts:
            starts.append(((cycle, top + 0.1), (cycle, bottom)))
            lab = f"iter {i}"
            tw = text_cycles(lab, 7)
            lx = cycle - 4 * cyc_per_pt - tw if cycle + tw > t1 else cycle + 4 * cyc_per_pt
            if labels.place(lx, lx + tw):
                ax.text(lx, band_y, lab, fontsize=7, color=ITER_COLOUR,
                        gid=f"iterlabel-w{row.wave}-{i}")
        for m in sorted(row.markers, key=lambda m: (-m.stall, m.cycle)):
            marks.setdefault((m.kind, m.faded), []).append(((m.cycle, top + 0.35),
                                                             (m.cycle, bottom)))
            x0 = m.cycle + 2 * cyc_per_pt
            tw = text_cycles(m.label, 7)
            if not m.faded and x0 + tw <= t1 and labels.place(x0, x0 + tw):
                ax.text(x0, band_y, m.label, fontsize=7, color=KIND_COLOURS[m.kind],
                        gid=f"marklabel-{m.kind}-w{row.wave}-i{m.index}")
        y = bottom + _ROW_GAP
    background.draw(ax, 0)
    bars.draw(ax, 2, edge="#ffffff", width=0.5, gid="instructions")
    stalls.draw(ax, 2, gid="stalls")
    for (kind, faded), segs in marks.items():
        ax.add_collection(mpl.LineCollection(
            segs, colors=KIND_COLOURS[kind], alpha=FADED if faded else 1.0,
            linewidths=0.9 if kind == "wait" else 1.4, zorder=3,
            gid=f"markers-{kind}" + ("-faded" if faded else "")),
            autolim=False)
    ax.add_collection(mpl.LineCollection(issues, colors="#00000080", linewidths=0.6, zorder=2.5,
                                         gid="issue-ticks"), autolim=False)
    if starts:
        ax.add_collection(mpl.LineCollection(starts, colors=ITER_COLOUR, linewidths=1,
                                             linestyles=(0, (3, 2)), zorder=3,
                                             gid="iteration-starts"), autolim=False)
    ax.set_ylim(t._wave_height(), 0)
    ax.set_yticks(ticks, ticklabels, fontsize=6.5, color="#666666")

    background, busy = _Boxes(mpl), _Boxes(mpl)
    for k, u in enumerate(t.units):
        y0 = 0.2 + k
        background.add(t0, t1, y0 + 0.1, 0.8, "#f3f3f3")
        for sp in u.spans:
            colour = KIND_COLOURS[sp.kind]
            busy.add(sp.start, sp.stop, y0 + 0.1, 0.8, colour)
            lab, x0, x1 = f"w{sp.wave}", max(sp.start, t0), min(sp.stop, t1)
            if text_cycles(lab, 6.5) + 3 * cyc_per_pt <= x1 - x0:
                ux.text((x0 + x1) / 2, y0 + 0.52, lab, fontsize=6.5, ha="center",
                        va="center", color=_ink_on(colour), zorder=4)
    background.draw(ux, 0)
    busy.draw(ux, 2, edge="#ffffff", width=0.3, gid="busy")
    ux.set_ylim(t._unit_height(), 0)
    ux.set_yticks([0.7 + k for k in range(len(t.units))], [u.label for u in t.units],
                  fontsize=8)
    ux.set_title("units (busy)", loc="left", fontsize=9.5, fontweight="bold", pad=3)

    if t.deadlock is not None:
        for a, gid in ((ax, "deadlock"), (ux, "deadlock-units")):
            a.axvline(t.deadlock, color=DEADLOCK_COLOUR, linewidth=2, zorder=5, gid=gid)
        right = t.deadlock > t0 + 0.7 * (t1 - t0)     # the label on the roomier side
        ux.text(t.deadlock, 1.0, f" DEADLOCK at cycle {t.deadlock} ", fontsize=9,
                color=DEADLOCK_COLOUR, fontweight="bold", va="bottom",
                ha="right" if right else "left", gid="deadlocklabel",
                transform=mpl.transforms.blended_transform_factory(ux.transData, ux.transAxes))
    _legend(fig, t, mpl, 1 - (top_in + 2 * _AXIS_IN + wave_h + 0.3 + unit_h) / h_in)
    return fig


def _legend(fig, t: Timeline, mpl, top: float) -> None:
    """Three legend rows below the plot (``top``: figure fraction): kinds, stalls, markers."""
    def box(colour, alpha=1.0):
        return mpl.Patch(facecolor=colour, alpha=alpha, edgecolor="none")

    def line(colour, dashed=False):
        return mpl.Line2D([], [], color=colour, linewidth=2,
                          linestyle=(0, (3, 2)) if dashed else "-")

    kinds = [(box(KIND_COLOURS[k]), k) for k in t.kinds]
    if t.iteration is not None:
        kinds.append((box(KIND_COLOURS["mfma"], FADED), "other iterations (faded)"))
    marks = [(line(KIND_COLOURS["wait"]), "s_waitcnt"),
             (line(KIND_COLOURS["barrier"]), "s_barrier"),
             (line(ITER_COLOUR, True), "iteration start")]
    if t.deadlock is not None:
        marks.append((line(DEADLOCK_COLOUR), "deadlock / stuck wave"))
    groups = [("instructions (bar: issue -> end; s_barrier: arrival -> release)", kinds),
              ("stall lane (cycles waited before issue)",
               [(box(STALL_COLOURS[g]), g) for g in t.stall_groups]),
              ("markers", marks)]
    y = top
    for heading, entries in groups:
        if entries:
            fig.legend([h for h, _ in entries], [lab for _, lab in entries], loc="upper left",
                       bbox_to_anchor=(0.08 / fig.get_figwidth(), y), ncol=len(entries),
                       title=heading, title_fontsize=9, fontsize=9, frameon=False,
                       alignment="left", handlelength=1.6, columnspacing=1.4,
                       borderaxespad=0, borderpad=0)
            y -= _LEGEND_ROW_IN / fig.get_figheight()


# ----------------------------------------------------------------------------------------
# saving


def _svg_with_tooltips(svg: str, tips: dict[str, str]) -> str:
    """Each instruction bar, written as a link to ``#op-w<wave>-i<index>`` (its url in the
    figure), becomes the group of that id with the bar's tooltip (an SVG ``<title>``).
    The bars are the figure's only links."""
    def repl(m: re.Match) -> str:
        gid = m.group(1)
        return f'<g id="{gid}"><title>{escape(tips[gid])}</title>'
    svg = re.sub(r'<a xlink:href="#(op-w\d+-i\d+)"[^>]*>', repl, svg)
    return svg.replace("</a>", "</g>")


def render_timeline(run: CURun, analysis, path: str | os.PathLike, *, title: str = "",
                    iteration: int | None = None,
                    window: tuple[int, int] | None = None) -> Timeline:
    """Write the timeline picture of ``run`` to ``path`` (``.svg`` or ``.png``).

    ``analysis``: the run's :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` (its
    achieved cycles per iteration, MinII and MFMA-busy % go into the title) or
    None.  ``title``: the schedule's name, first in the title.  ``iteration``: the
    kernel iteration to draw (default: the middle one every wave started);
    ``window``: ``(start, end)`` cycles to draw instead of the iteration's.
    Returns the :class:`Timeline` drawn.  Raises :class:`TimelineError` (a
    :class:`~pipeline_mlir.errors.PipelineError`) for another extension, an
    iteration the run does not have, a path that cannot be written, or a missing
    matplotlib.
    """
    p = os.fspath(path)
    ext = os.path.splitext(p)[1].lower()
    if ext not in EXTENSIONS:
        raise TimelineError(f"timeline report {p!r}: unsupported extension {ext or '(none)'!r} "
                            f"(accepted: {', '.join(EXTENSIONS)})")
    mpl = _matplotlib()
    t = layout_timeline(run, analysis, title=title, iteration=iteration, window=window)
    fig = draw_timeline(t)
    # text as text (searchable, selectable) and fixed ids: the same run gives the same file
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "pipeline-mlir"}):
        try:
            if ext == ".svg":
                buf = io.StringIO()
                fig.savefig(buf, format="svg", metadata={"Date": None})
                tips = {b.gid: b.tip for r in t.rows for b in r.bars}
                with open(p, "w", encoding="utf-8") as f:
                    f.write(_svg_with_tooltips(buf.getvalue(), tips))
            else:
                fig.savefig(p, format="png", dpi=DPI)
        except OSError as e:
            raise TimelineError(f"timeline report {p!r}: cannot write it: "
                                f"{e.strerror or e}") from None
    return t
