"""The timeline picture of a CU-model run: one steady-state iteration, drawn with matplotlib.

:func:`render_timeline` writes ``path`` as SVG or PNG (the extension picks) from one
matplotlib figure.  matplotlib is an optional dependency (the ``plot`` extra); without
it :func:`render_timeline` raises a :class:`TimelineError` saying how to install it.
The picture is computed in two steps: :func:`~pipeline_mlir.sim.timeline_layout.layout_timeline`
turns the run into a :class:`~pipeline_mlir.sim.timeline_layout.Timeline` (rows, bars,
markers, unit rows, title; cycles only, no matplotlib), and :func:`draw_timeline` draws that
into a figure.

What the picture shows (x: cycles of the run's cost table).  It is sized for a screen: at
most 1800 x 1000 pixels for the shipped kernels' default pictures, every text at least
9 points at 100 dpi, so it reads unscaled on a 1920x1080 screen.

* one row per set of waves that run the same instructions (a warp group: ping-pong 2
  rows, 4-wave 1), drawing its lowest-numbered wave, labelled ``SIMD s / wave w`` and
  ``+ waves 1-3 alike``; the subtitle names the waves not drawn and how far their issue
  cycles stray from the drawn wave's over the window (``issue -96..+96 cycles from it``).
  A stuck wave of a deadlock gets its own row.  ``full=True`` draws every wave.  A row has
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
* one row per unit instance the run kept busy in the window, from ``CURun.busy``: the
  MFMA pipe of each SIMD (``XDL simd0``..) and the units of the CU (``GMEM``, ``LDS``,
  ``VMEM``); busy intervals coloured by the kind of the instruction holding the unit,
  labelled with its wave (``w4``) where it fits, and at the right the share of the
  window the unit is busy.  The other per-SIMD units (``LDS_ISSUE``, ``SALU``,
  ``BRANCH``, ...) are not drawn: the subtitle gives each one's highest busy share
  (``full=True`` draws them).
* a title (schedule name given by the caller, cost table and its unit, the
  iteration and window; achieved cycles per iteration, MinII, MFMA-busy %, what is
  not drawn), the cycle axis above and below, and a legend of the kinds and markers
  and of the stall causes.
* a deadlocked run: everything that issued, a red line at the deadlock cycle and
  each stuck wave's barrier drawn red to the end of the window.

Drawing: the bars, stall segments, markers and busy intervals are a few collections (one
artist each); the time goes to the text labels, which are few (9 points: those that do
not fit are left out).

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
from types import SimpleNamespace
from xml.sax.saxutils import escape

from pipeline_mlir.sim.cu_model import CURun
from pipeline_mlir.sim.timeline_layout import (AXIS_IN, BAND, DEADLOCK_COLOUR, DPI, FADED,
                                               ITER_COLOUR, KIND_COLOURS, LABEL_PT, LANE_IN,
                                               LANES, LEFT_IN, LEGEND_ROW_IN, RIGHT_IN,
                                               ROW_GAP, ROW_PT, RUN_MIN, SIMD_GAP,
                                               STALL_COLOURS, STALL_LANE, SUB_LINE_IN, SUB_PT,
                                               TITLE_LINE_IN, TITLE_PT, UNIT_IN, Bar,
                                               Timeline, TimelineError, layout_timeline)

EXTENSIONS = (".svg", ".png")


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
        from matplotlib.ticker import MaxNLocator
    except ImportError as e:
        raise TimelineError(f"the timeline picture needs matplotlib, which is not installed "
                            f"({e}): pip install 'pipeline-mlir[plot]'") from None
    return SimpleNamespace(Figure=Figure, PolyCollection=PolyCollection,
                           LineCollection=LineCollection, Line2D=Line2D, Patch=Patch,
                           to_rgba=colors.to_rgba, transforms=transforms,
                           rc_context=rc_context, MaxNLocator=MaxNLocator)


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
    c = _Canvas(t, _matplotlib())
    ax, ux = c.frame()
    _WavePanel(c, ax).draw()
    _draw_units(c, ux)
    if t.deadlock is not None:
        _draw_deadlock(c, ax, ux)
    _legend(c.fig, t, c.mpl, 1 - (c.top_in + 2 * AXIS_IN + c.wave_h + 0.3 + c.unit_h) / c.h_in)
    return c.fig


class _Canvas:
    """The figure of a timeline and its scale: inches, cycles per point."""

    def __init__(self, t: Timeline, mpl) -> None:
        self.t, self.mpl = t, mpl
        self.w_in, self.h_in = t.size_inches()
        self.fig = mpl.Figure(figsize=(self.w_in, self.h_in), dpi=DPI)
        self.t0, self.t1 = t.window
        self.plot_w = self.w_in - LEFT_IN - RIGHT_IN
        self.cyc_per_pt = (self.t1 - self.t0) / (self.plot_w * 72)
        self.wave_h = t.wave_height() * LANE_IN
        self.unit_h = t.unit_height() * UNIT_IN
        self.top_in = t.title_height(self.w_in)

    def text_cycles(self, text: str, size: float) -> float:
        return 0.6 * size * len(text) * self.cyc_per_pt     # a generous sans-serif average

    def axes(self, top_in: float, height_in: float):          # placed in inches from the top
        w_in, h_in = self.w_in, self.h_in
        return self.fig.add_axes((LEFT_IN / w_in, 1 - (top_in + height_in) / h_in,
                                  self.plot_w / w_in, height_in / h_in))

    def frame(self):
        """The wave axes and the unit axes, the title, the cycle axes and their grids."""
        t, fig, mpl, w_in, h_in = self.t, self.fig, self.mpl, self.w_in, self.h_in
        ax = self.axes(self.top_in + AXIS_IN, self.wave_h)
        ux = self.axes(self.top_in + AXIS_IN + self.wave_h + 0.3, self.unit_h)
        head, sub = t.title_lines(w_in)
        y_in = 0.06
        for k, line in enumerate(head):
            y_in += TITLE_LINE_IN
            fig.text(0.08 / w_in, 1 - y_in / h_in, line, fontsize=TITLE_PT, fontweight="bold",
                     gid=f"title-{k}")
        for k, line in enumerate(sub):
            y_in += SUB_LINE_IN
            fig.text(0.08 / w_in, 1 - y_in / h_in, line, fontsize=SUB_PT, gid=f"subtitle-{k}")
        for a in (ax, ux):
            a.set_xlim(self.t0, self.t1)
            a.grid(axis="x", color="#c8c8c8", linewidth=0.6)
            a.set_axisbelow(True)
            for side in ("right", "left"):
                a.spines[side].set_visible(False)
            a.tick_params(axis="y", length=0)
            a.tick_params(axis="x", labelsize=LABEL_PT)
            a.xaxis.set_major_locator(mpl.MaxNLocator(nbins=int(self.plot_w), integer=True,
                                                      steps=[1, 2, 2.5, 5, 10]))
        ax.xaxis.tick_top()
        ux.set_xlabel(t.xlabel, fontsize=10.5)
        return ax, ux


class _WavePanel:
    """The wave rows: bars, run labels, stall segments, markers and their labels, iteration
    starts; the boxes and lines of all rows are gathered and drawn as a few collections."""

    def __init__(self, c: _Canvas, ax) -> None:
        self.c, self.ax = c, ax
        mpl = c.mpl
        self.row_label_at = mpl.transforms.blended_transform_factory(c.fig.transFigure,
                                                                     ax.transData)
        self.background, self.bars, self.stalls = _Boxes(mpl), _Boxes(mpl), _Boxes(mpl)
        self.marks: dict[tuple[str, bool], list] = {}          # (kind, faded) -> segments
        self.starts: list = []
        self.issues: list = []
        self.ticks: list = []
        self.ticklabels: list = []

    def draw(self) -> None:
        c, ax, mpl = self.c, self.ax, self.c.mpl
        y = 0.2
        prev_simd = None
        for row in c.t.rows:
            if prev_simd is not None and row.simd != prev_simd:
                y += SIMD_GAP
            prev_simd = row.simd
            y = self.row(row, y) + ROW_GAP
        self.background.draw(ax, 0)
        self.bars.draw(ax, 2, edge="#ffffff", width=0.5, gid="instructions")
        self.stalls.draw(ax, 2, gid="stalls")
        for (kind, faded), segs in self.marks.items():
            ax.add_collection(mpl.LineCollection(
                segs, colors=KIND_COLOURS[kind], alpha=FADED if faded else 1.0,
                linewidths=0.9 if kind == "wait" else 1.4, zorder=3,
                gid=f"markers-{kind}" + ("-faded" if faded else "")),
                autolim=False)
        ax.add_collection(mpl.LineCollection(self.issues, colors="#00000080", linewidths=0.6,
                                             zorder=2.5, gid="issue-ticks"), autolim=False)
        if self.starts:
            ax.add_collection(mpl.LineCollection(self.starts, colors=ITER_COLOUR, linewidths=1,
                                                 linestyles=(0, (3, 2)), zorder=3,
                                                 gid="iteration-starts"), autolim=False)
        ax.set_ylim(c.t.wave_height(), 0)
        ax.set_yticks(self.ticks, self.ticklabels, fontsize=LABEL_PT, color="#555555")

    def row(self, row, top: float) -> float:
        """One wave row from ``top`` (lane units); returns its bottom."""
        c = self.c
        lane_y = {lane: top + BAND + k for k, lane in enumerate(LANES)}
        stall_y = top + BAND + len(LANES)
        bottom = stall_y + STALL_LANE
        self.background.add(c.t0, c.t1, top + BAND, bottom - top - BAND,
                            "#ebeff5" if row.simd % 2 == 0 else "#f3f3f3")
        middle = (top + BAND + bottom) / 2
        self.ax.text(0.08 / c.w_in, middle - 0.7 * bool(row.alike), row.label,
                     transform=self.row_label_at, fontsize=ROW_PT, fontweight="bold",
                     va="center", gid=f"row-w{row.wave}")
        if row.alike:
            self.ax.text(0.08 / c.w_in, middle + 0.7, row.alike_label,
                         transform=self.row_label_at, fontsize=LABEL_PT, va="center",
                         gid=f"rowalike-w{row.wave}")
        self.ticks += [lane_y[lane] + 0.5 for lane in LANES] + [stall_y + STALL_LANE / 2]
        self.ticklabels += list(LANES) + ["stall"]
        self.row_bars(row, lane_y)
        for st in row.stalls:
            self.stalls.add(st.start, st.stop, stall_y + 0.1, STALL_LANE - 0.2,
                            STALL_COLOURS[st.group], FADED if st.faded else 1.0)
        self.row_marks(row, top, lane_y, bottom)
        return bottom

    def row_bars(self, row, lane_y: dict) -> None:
        """The instruction bars, the issue ticks of memory bars, the run labels."""
        c, ax = self.c, self.ax
        t0, t1, cyc_per_pt = c.t0, c.t1, c.cyc_per_pt
        # later issues first: where bars of a lane overlap (loads in flight), each one's
        # end stays visible, and a tick marks each issue
        for b in sorted(row.bars, key=lambda b: -b.issue):
            self.bars.add(b.issue, b.stop, lane_y[b.lane] + 0.08, 0.84, KIND_COLOURS[b.kind],
                          FADED if b.faded else 1.0, f"#{b.gid}")
            if b.lane in ("lds", "vmem") and b.issue >= t0:
                self.issues.append(((b.issue, lane_y[b.lane] + 0.08),
                                    (b.issue, lane_y[b.lane] + 0.92)))
        for lane in LANES:                  # runs of one kind: their length inside
            for run in _runs([b for b in row.bars if b.lane == lane]):
                x0, x1 = max(run[0].issue, t0), min(run[-1].stop, t1)
                label = f"{len(run)} {run[0].kind}"
                if c.text_cycles(label, LABEL_PT) + 4 * cyc_per_pt > x1 - x0:
                    label = str(len(run))
                if len(run) >= RUN_MIN and not run[0].faded \
                        and c.text_cycles(label, LABEL_PT) + 4 * cyc_per_pt <= x1 - x0:
                    colour = KIND_COLOURS[run[0].kind]
                    ax.text((x0 + x1) / 2, lane_y[lane] + 0.5, label, fontsize=LABEL_PT,
                            ha="center", va="center", color=_ink_on(colour), zorder=4,
                            gid=f"runlabel-w{row.wave}-i{run[0].index}",
                            bbox={"facecolor": colour, "edgecolor": "none", "pad": 0.3})

    def row_marks(self, row, top: float, lane_y: dict, bottom: float) -> None:
        """A stuck barrier, the iteration starts and the markers, with the labels that fit
        (the stuck label first: the others make way)."""
        c, ax = self.c, self.ax
        t0, t1, cyc_per_pt = c.t0, c.t1, c.cyc_per_pt
        labels = _Labels(3 * cyc_per_pt)
        band_y = top + BAND - 0.25
        if row.stuck is not None:
            xs, number = row.stuck
            self.bars.add(xs, max(t1, xs + 1), lane_y["ctl"] + 0.08, 0.84, DEADLOCK_COLOUR, 0.6)
            lab = f"stuck at barrier #{number}"
            tw = c.text_cycles(lab, LABEL_PT) * 1.1          # bold
            lx = max(min(xs, t1 - tw), t0)
            labels.place(lx, lx + tw)
            ax.text(lx, band_y, lab, fontsize=LABEL_PT, color=DEADLOCK_COLOUR, fontweight="bold",
                    gid=f"stucklabel-w{row.wave}")
        for cycle, i in row.iteration_starts:
            self.starts.append(((cycle, top + 0.1), (cycle, bottom)))
            lab = f"iter {i}"
            tw = c.text_cycles(lab, LABEL_PT)
            lx = cycle - 4 * cyc_per_pt - tw if cycle + tw > t1 else cycle + 4 * cyc_per_pt
            if labels.place(lx, lx + tw):
                ax.text(lx, band_y, lab, fontsize=LABEL_PT, color=ITER_COLOUR,
                        gid=f"iterlabel-w{row.wave}-{i}")
        for m in sorted(row.markers, key=lambda m: (-m.stall, m.cycle)):
            self.marks.setdefault((m.kind, m.faded), []).append(((m.cycle, top + 0.35),
                                                                  (m.cycle, bottom)))
            x0 = m.cycle + 2 * cyc_per_pt
            tw = c.text_cycles(m.label, LABEL_PT)
            if not m.faded and x0 + tw <= t1 and labels.place(x0, x0 + tw):
                ax.text(x0, band_y, m.label, fontsize=LABEL_PT, color=KIND_COLOURS[m.kind],
                        gid=f"marklabel-{m.kind}-w{row.wave}-i{m.index}")


def _draw_units(c: _Canvas, ux) -> None:
    """The unit rows: busy intervals coloured by kind, labelled with their wave (once in a
    row that only one wave holds); each row's busy share of the window at its right (the
    units not drawn are named in the title)."""
    t, t0, t1 = c.t, c.t0, c.t1
    background, busy = _Boxes(c.mpl), _Boxes(c.mpl)
    right = c.mpl.transforms.blended_transform_factory(ux.transAxes, ux.transData)
    for k, u in enumerate(t.units):
        y0 = 0.2 + k
        background.add(t0, t1, y0 + 0.1, 0.8, "#f3f3f3")
        once, placed = len({sp.wave for sp in u.spans}) == 1, False  # one wave: label once
        for sp in u.spans:
            colour = KIND_COLOURS[sp.kind]
            busy.add(sp.start, sp.stop, y0 + 0.1, 0.8, colour)
            lab, x0, x1 = f"w{sp.wave}", max(sp.start, t0), min(sp.stop, t1)
            if not (once and placed) and c.text_cycles(lab, LABEL_PT) + 3 * c.cyc_per_pt \
                    <= x1 - x0:
                ux.text((x0 + x1) / 2, y0 + 0.5, lab, fontsize=LABEL_PT, ha="center",
                        va="center", color=_ink_on(colour), zorder=4)
                placed = True
        ux.text(1.005, y0 + 0.5, f"{100 * u.busy:.0f}%", transform=right, fontsize=LABEL_PT,
                va="center", gid=f"unitbusy-{k}")
    background.draw(ux, 0)
    busy.draw(ux, 2, edge="#ffffff", width=0.3, gid="busy")
    ux.set_ylim(t.unit_height(), 0)
    ux.set_yticks([0.7 + k for k in range(len(t.units))], [u.label for u in t.units],
                  fontsize=LABEL_PT)
    ux.set_title("units (busy; at the right: share of the window)", loc="left", fontsize=9.5,
                 fontweight="bold", pad=3)


def _draw_deadlock(c: _Canvas, ax, ux) -> None:
    """The deadlock cycle: a red line through both panels and its label."""
    t, t0, t1 = c.t, c.t0, c.t1
    for a, gid in ((ax, "deadlock"), (ux, "deadlock-units")):
        a.axvline(t.deadlock, color=DEADLOCK_COLOUR, linewidth=2, zorder=5, gid=gid)
    right = t.deadlock > t0 + 0.7 * (t1 - t0)     # the label on the roomier side
    ux.text(t.deadlock, 1.0, f" DEADLOCK at cycle {t.deadlock} ", fontsize=9,
            color=DEADLOCK_COLOUR, fontweight="bold", va="bottom",
            ha="right" if right else "left", gid="deadlocklabel",
            transform=c.mpl.transforms.blended_transform_factory(ux.transData, ux.transAxes))


def _legend(fig, t: Timeline, mpl, top: float) -> None:
    """Two legend rows below the plot (``top``: figure fraction): kinds and markers,
    stall causes."""
    def box(colour, alpha=1.0):
        return mpl.Patch(facecolor=colour, alpha=alpha, edgecolor="none")

    def line(colour, dashed=False):
        return mpl.Line2D([], [], color=colour, linewidth=2,
                          linestyle=(0, (3, 2)) if dashed else "-")

    kinds = [(box(KIND_COLOURS[k]), k) for k in t.kinds]
    if t.iteration is not None:
        kinds.append((box(KIND_COLOURS["mfma"], FADED), "other iterations (faded)"))
    kinds += [(line(KIND_COLOURS["wait"]), "s_waitcnt"),
              (line(KIND_COLOURS["barrier"]), "s_barrier"),
              (line(ITER_COLOUR, True), "iteration start")]
    if t.deadlock is not None:
        kinds.append((line(DEADLOCK_COLOUR), "deadlock / stuck wave"))
    groups = [("instructions (bar: issue -> end; s_barrier: arrival -> release) and markers",
               kinds),
              ("stall lane (cycles waited before issue)",
               [(box(STALL_COLOURS[g]), g) for g in t.stall_groups])]
    y = top
    for heading, entries in groups:
        if entries:
            fig.legend([h for h, _ in entries], [lab for _, lab in entries], loc="upper left",
                       bbox_to_anchor=(0.08 / fig.get_figwidth(), y), ncol=len(entries),
                       title=heading, title_fontsize=LABEL_PT, fontsize=LABEL_PT,
                       frameon=False, alignment="left", handlelength=1.6, columnspacing=1.4,
                       borderaxespad=0, borderpad=0)
            y -= LEGEND_ROW_IN / fig.get_figheight()


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
                    iteration: int | None = None, window: tuple[int, int] | None = None,
                    full: bool = False) -> Timeline:
    """Write the timeline picture of ``run`` to ``path`` (``.svg`` or ``.png``).

    ``analysis``: the run's :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` (its
    achieved cycles per iteration, MinII and MFMA-busy % go into the title) or
    None.  ``title``: the schedule's name, first in the title.  ``iteration``: the
    kernel iteration to draw (default: the middle one every wave started);
    ``window``: ``(start, end)`` cycles to draw instead of the iteration's.
    ``full``: a row for every wave and every unit instance (by default one wave per set
    of waves running the same instructions, and of the per-SIMD units the MFMA pipes).
    Returns the :class:`Timeline` drawn.  Raises :class:`TimelineError` (a
    :class:`~pipeline_mlir.errors.PipelineError`) for another extension, an
    iteration the run does not have, a path that cannot be written, or a missing
    matplotlib.  (:func:`timeline_picture` makes the file's bytes without writing it.)
    """
    p = os.fspath(path)
    data, t = timeline_picture(run, analysis, p, title=title, iteration=iteration,
                               window=window, full=full)
    try:
        with open(p, "wb") as f:
            f.write(data)
    except OSError as e:
        raise TimelineError(f"timeline report {p!r}: cannot write it: "
                            f"{e.strerror or e}") from None
    return t


def timeline_picture(run: CURun, analysis, name: str, *, title: str = "",
                     iteration: int | None = None, window: tuple[int, int] | None = None,
                     full: bool = False) -> tuple[bytes, Timeline]:
    """(the bytes of the picture :func:`render_timeline` writes to ``name``, the
    :class:`Timeline` drawn); ``name``'s extension picks the format; nothing is written."""
    ext = os.path.splitext(name)[1].lower()
    if ext not in EXTENSIONS:
        raise TimelineError(f"timeline report {name!r}: unsupported extension "
                            f"{ext or '(none)'!r} (accepted: {', '.join(EXTENSIONS)})")
    mpl = _matplotlib()
    t = layout_timeline(run, analysis, title=title, iteration=iteration, window=window,
                        full=full)
    fig = draw_timeline(t)
    # text as text (searchable, selectable) and fixed ids: the same run gives the same file
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "pipeline-mlir"}):
        if ext == ".svg":
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None})
            tips = {b.gid: b.tip for r in t.rows for b in r.bars}
            return _svg_with_tooltips(buf.getvalue(), tips).encode("utf-8"), t
        raw = io.BytesIO()
        fig.savefig(raw, format="png", dpi=DPI)
        return raw.getvalue(), t
