"""The timeline picture of a CU-model run: one steady-state iteration, drawn.

:func:`render_timeline` writes ``path`` as SVG (text written here, no
dependency) or PNG (drawn with Pillow); the extension picks the format.  Both
backends draw one :class:`Drawing`, a flat list of rectangles, lines and texts
that :func:`layout_timeline` computes once, so the two pictures are the same.

What the picture shows (x: cycles of the run's cost table; y: rows):

* one row per wave, grouped by SIMD and labelled ``SIMD s / wave w``.  A row has
  four lanes of instruction bars, each bar from the instruction's issue cycle to
  its end (result ready / access complete / barrier released), coloured by
  kind: ``ctl`` (s_waitcnt, s_barrier, s_setprio, scalar and other
  instructions), ``mfma`` (MFMAs and VALU), ``lds`` (ds_*), ``vmem`` (buffer and
  global memory), and below them a thin ``stall`` lane: the cycles the wave
  waited before issuing, one segment per cause, coloured by cause.  Every
  ``s_waitcnt`` and ``s_barrier`` also gets a vertical marker through the row
  and, where it fits, a label above it (``vmcnt(8)``, ``lgkmcnt(0)``,
  ``barrier``); labels that would overlap are dropped, the longest stalls
  keeping theirs.  Dashed lines mark where the wave's iterations start.
  Instructions of other iterations that overlap the window are drawn faded.
* one thin row per unit instance the run kept busy (``XDL simd0``..: the MFMA
  pipe of each SIMD; ``LDS``, ``VMEM``: one per CU; then the other per-SIMD
  units), from ``CURun.busy``: busy intervals coloured by the kind of the
  instruction holding the unit, labelled with its wave (``w4``) where it fits.
* a title (schedule name given by the caller, cost table and its unit, the
  iteration and window, achieved cycles per iteration, MinII, MFMA-busy %), an
  x axis with ticks, and a legend of the kinds, stall causes and markers shown.
* a deadlocked run: everything that issued, a red line at the deadlock cycle
  and each stuck wave's barrier drawn red to the end of the window.

The window: by default the middle kernel iteration every wave started (origins
``("kernel", i, ...)``), from its earliest start over the waves to the latest
start of the next one, so each wave's whole iteration is inside; for a
deadlocked run the last iteration any wave started up to the run's end; with no
kernel iterations (a straight-line trace) the whole run.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.bounds import LoopAnalysis
from pipeline_mlir.sim.cu_model import CURun
from pipeline_mlir.sim.instr import PSEUDO_KINDS

EXTENSIONS = (".svg", ".png")

#: the unit each cost table counts cycles in (the x axis label)
TABLE_UNITS = {"llvm": "LLVM SchedModel units", "measured": "gfx950 clock cycles"}

#: instruction bar colours, by kind (one per kind of :data:`pipeline_mlir.sim.instr.KINDS`
#: that issues)
KIND_COLOURS = {
    "mfma": "#3b6fb6", "valu": "#edc948", "ds_read": "#2e9e5b", "ds_write": "#8cd17d",
    "vmem_load_lds": "#f28e2b", "vmem_load": "#b6992d", "vmem_store": "#b07aa1",
    "smem": "#9c755f", "wait": "#d62728", "barrier": "#222222", "setprio": "#e377c2",
    "salu": "#a0a0a0", "branch": "#17becf", "nop": "#d0d0d0", "other": "#707070",
}
#: the lane of each kind inside a wave row
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

# geometry (pixels)
_LEFT, _RIGHT, _TOP = 150, 24, 52
_LABEL_BAND, _LANE_H, _STALL_H, _ROW_GAP = 11, 8, 6, 6
_UNIT_H, _UNIT_GAP = 10, 3
_FONT = 10
_MIN_PLOT, _MAX_PLOT, _PX_PER_CYCLE = 1200, 2400, 2.0
_FADED = 0.3


class TimelineError(PipelineError):
    """Bad input to the timeline renderer (names the argument or the path)."""


# ----------------------------------------------------------------------------------------
# the drawing description shared by both backends


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    opacity: float = 1.0
    stroke: str | None = None
    cls: str = ""
    data: tuple[tuple[str, object], ...] = ()
    tip: str = ""


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float = 1.0
    dashed: bool = False
    cls: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float                  # baseline
    text: str
    size: int = _FONT
    colour: str = "#000000"
    anchor: str = "start"     # start | middle | end
    bold: bool = False
    cls: str = ""


@dataclass
class Drawing:
    """What both backends draw, plus what was chosen: ``window`` = cycles
    ``[t0, t1)``, ``iteration`` (None: no kernel iteration picked)."""

    width: int
    height: int
    window: tuple[int, int]
    iteration: int | None
    items: list = field(default_factory=list)


def text_width(text: str, size: int = _FONT) -> float:
    """Layout estimate of a text's width in pixels (a generous sans-serif average, so
    that texts kept apart by it do not overlap in either backend)."""
    return 0.6 * size * len(text)


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
            raise TimelineError(f"render_timeline: window must be (start, end) cycles with "
                                f"start < end, got {window!r}")
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
    return f"render_timeline: iteration {iteration} is not in the run (kernel iterations: {have})"


# ----------------------------------------------------------------------------------------
# layout


def _nice_step(span: float, pixels: float, min_gap: float = 90.0) -> int:
    raw = max(span * min_gap / max(pixels, 1.0), 1.0)
    mag = 10 ** int(math.floor(math.log10(raw)))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return int(m * mag)
    return int(10 * mag)


def _unit_order(key: tuple[str, str]) -> tuple:
    unit, inst = key
    rank = 0 if unit == "XDL" else 1 if inst == "cu" else 2
    return (rank, unit, inst)


class _Labels:
    """Label intervals placed on one line; a label that would overlap one is dropped."""

    def __init__(self) -> None:
        self.placed: list[tuple[float, float]] = []

    def place(self, x0: float, x1: float) -> bool:
        if any(x0 < b + 3 and a < x1 + 3 for a, b in self.placed):
            return False
        self.placed.append((x0, x1))
        return True


def layout_timeline(run: CURun, analysis=None, *, title: str = "",
                    iteration: int | None = None,
                    window: tuple[int, int] | None = None) -> Drawing:
    """The :class:`Drawing` of ``run`` (see the module docstring); ``analysis`` (a
    :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` of the run, or None) only feeds
    the title.  ``iteration``/``window`` override the default window."""
    if not isinstance(run, CURun):
        raise TimelineError(f"render_timeline: run must be a CURun, got {type(run).__name__}")
    if analysis is not None and not isinstance(analysis, LoopAnalysis):
        raise TimelineError(f"render_timeline: analysis must be a LoopAnalysis or None, got "
                            f"{type(analysis).__name__}")
    if analysis is not None and analysis.run is not run:
        raise TimelineError("render_timeline: analysis is of another run (analysis.run is not run)")
    (t0, t1), it = choose_window(run, iteration, window)
    span = t1 - t0
    plot_w = min(max(span * _PX_PER_CYCLE, _MIN_PLOT), _MAX_PLOT)
    scale = plot_w / span
    width = int(_LEFT + plot_w + _RIGHT)

    def X(t: float) -> float:
        return _LEFT + (min(max(t, t0), t1) - t0) * scale

    items: list = []
    kinds_seen: set[str] = set()
    stalls_seen: set[str] = set()
    # title
    header = _header(run, analysis, title, it, t0, t1)
    items.append(Text(8, 18, header[0], 14, bold=True, cls="title"))
    items.append(Text(8, 36, header[1], 11, cls="subtitle"))
    y = _TOP
    waves = sorted(run.waves, key=lambda w: (w.simd, w.wave))
    spans = iteration_spans(run)
    stuck = run.deadlock.waiting if run.deadlock is not None else {}
    row_h = _LABEL_BAND + len(LANES) * _LANE_H + _STALL_H
    prev_simd = None
    for wt in waves:
        if prev_simd is not None and wt.simd != prev_simd:
            y += _ROW_GAP
        prev_simd = wt.simd
        items.append(Rect(_LEFT, y, plot_w, row_h, "#f6f6f6", cls="rowbg"))
        items.append(Text(6, y + _LABEL_BAND + 2 * _LANE_H, f"SIMD {wt.simd} / wave {wt.wave}",
                          11, cls="rowlabel"))
        for k, lane in enumerate(LANES + ("stall",)):
            items.append(Text(_LEFT - 4, y + _LABEL_BAND + (k + 1) * _LANE_H - 1, lane, 7,
                              "#777777", "end", cls="lanelabel"))
        lane_y = {lane: y + _LABEL_BAND + k * _LANE_H for k, lane in enumerate(LANES)}
        stall_y = y + _LABEL_BAND + len(LANES) * _LANE_H
        marks = []
        segs: list[list] = []
        nxt: list[int | None] = [None] * len(wt.issue)
        for j in range(len(wt.issue) - 2, -1, -1):
            later = wt.instrs[j + 1]
            nxt[j] = nxt[j + 1] if later.kind in PSEUDO_KINDS else wt.issue[j + 1]
        for j, (ins, ti, te) in enumerate(zip(wt.instrs, wt.issue, wt.end)):
            if ins.kind in PSEUDO_KINDS:
                continue
            lo = ti - wt.stall[j]
            if te < t0 or lo >= t1:
                continue
            mine = it is None or _iteration(ins) == it
            op = 1.0 if mine else _FADED
            # stall segments, in the order the causes were lifted
            c = lo
            for cause, cyc in wt.causes[j]:
                g = stall_group(cause)
                if segs and segs[-1][2] == g and segs[-1][3] == op and c - segs[-1][1] <= 1:
                    segs[-1][1] = c + cyc
                else:
                    segs.append([c, c + cyc, g, op])
                c += cyc
            if ti >= t1 or te < t0:
                continue
            kinds_seen.add(ins.kind)
            lane = _KIND_LANE.get(ins.kind, "ctl")
            shown = te
            if ins.kind == "barrier" and nxt[j] is not None:
                shown = min(te, nxt[j])     # held from arrival to release, not its latency
            x0 = X(ti)
            w = max(X(max(shown, ti + 1)) - x0, 1.0)
            tip = (f"wave {wt.wave} #{j} {ins.name} issue {ti} end {te}"
                   + (f" stall {wt.stall[j]} ({wt.reason[j]})" if wt.stall[j] else ""))
            items.append(Rect(x0, lane_y[lane], w, _LANE_H - 1, KIND_COLOURS[ins.kind], op,
                              cls=f"op {ins.kind}",
                              data=(("wave", wt.wave), ("index", j),
                                    ("iter", _iteration(ins)), ("issue", ti), ("end", te)),
                              tip=tip))
            if ins.kind in ("wait", "barrier"):
                label = (wait_label(ins.vm, ins.lgkm) if ins.kind == "wait" else "barrier")
                marks.append((wt.stall[j], x0, ins.kind, label, op))
        for lo, hi, g, op in segs:
            if hi <= t0 or lo >= t1:
                continue
            stalls_seen.add(g)
            items.append(Rect(X(lo), stall_y, max(X(hi) - X(lo), 0.5), _STALL_H - 1,
                              STALL_COLOURS[g], op, cls=f"stall {g.replace(' ', '-')}"))
        labels = _Labels()
        for i2, (s0, _s1) in spans.get(wt.wave, {}).items():
            if t0 <= s0 < t1 and (it is None or i2 in (it, it + 1)):
                items.append(Line(X(s0), y, X(s0), y + row_h, ITER_COLOUR, 1, True,
                                  cls="iterstart"))
                lab = f"iter {i2}"
                tw = text_width(lab, 8)
                left = X(s0) + 3 + tw > _LEFT + plot_w
                lx = X(s0) - 5 - tw if left else X(s0) + 5
                if labels.place(lx, lx + tw):
                    items.append(Text(lx, y + _LABEL_BAND - 2, lab, 8, ITER_COLOUR))
        for _st, x0, kind, label, op in sorted(marks, key=lambda m: (-m[0], m[1])):
            items.append(Line(x0, y + 2, x0, y + row_h, KIND_COLOURS[kind],
                              1.0 if kind == "wait" else 1.5, cls=f"mark {kind}"))
            tw = text_width(label, 8)
            if op == 1.0 and x0 + 2 + tw <= _LEFT + plot_w and labels.place(x0 + 2, x0 + 2 + tw):
                items.append(Text(x0 + 2, y + _LABEL_BAND - 2, label, 8, KIND_COLOURS[kind],
                                  cls=f"marklabel {kind}"))
        if wt.wave in stuck and wt.issue:
            xs = X(wt.issue[-1])
            items.append(Rect(xs, lane_y["ctl"], max(_LEFT + plot_w - xs, 1.0), _LANE_H - 1,
                              DEADLOCK_COLOUR, 0.6, cls="stuck"))
            items.append(Text(min(xs + 2, _LEFT + plot_w - 150), y + _LABEL_BAND - 2,
                              f"stuck at barrier #{stuck[wt.wave]}", 8, DEADLOCK_COLOUR,
                              bold=True, cls="stucklabel"))
        y += row_h + 2
    # shared units
    y += _ROW_GAP
    items.append(Text(6, y + 9, "units (busy)", 11, bold=True))
    y += 13
    by_unit: dict[tuple[str, str], list] = {}
    for b in run.busy:
        if b.end > t0 and b.start < t1:
            by_unit.setdefault((b.unit, b.instance), []).append(b)
    for key in sorted(by_unit, key=_unit_order):
        unit, inst = key
        items.append(Rect(_LEFT, y, plot_w, _UNIT_H, "#f6f6f6", cls="rowbg"))
        name = f"{unit} {inst}" if inst != "cu" else f"{unit} (CU)"
        items.append(Text(_LEFT - 4, y + _UNIT_H - 1, name, 9, anchor="end", cls="unitlabel"))
        merged: list[list] = []
        for b in sorted(by_unit[key], key=lambda b: b.start):
            kind = run.waves[b.wave].instrs[b.index].kind
            if merged and merged[-1][2] == b.wave and merged[-1][3] == kind \
                    and b.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b.end)
            else:
                merged.append([b.start, b.end, b.wave, kind])
        for s, e, wave, kind in merged:
            kinds_seen.add(kind)
            x0 = X(s)
            w = max(X(e) - x0, 1.0)
            items.append(Rect(x0, y, w, _UNIT_H, KIND_COLOURS[kind],
                              stroke="#ffffff" if w >= 6 else None,
                              cls=f"busy {kind}", data=(("unit", f"{unit}/{inst}"),
                                                        ("wave", wave))))
            lab = f"w{wave}"
            if w >= text_width(lab, 8) + 4:
                items.append(Text(x0 + w / 2, y + _UNIT_H - 2, lab, 8,
                                  _ink_on(KIND_COLOURS[kind]), "middle"))
        y += _UNIT_H + _UNIT_GAP
    plot_bottom = y
    # deadlock line
    if run.deadlock is not None:
        xd = X(run.deadlock.cycle)
        items.append(Line(xd, _TOP - 4, xd, plot_bottom, DEADLOCK_COLOUR, 2, cls="deadlock"))
        items.append(Text(min(xd + 3, _LEFT + plot_w - 200), _TOP - 6,
                          f"DEADLOCK at cycle {run.deadlock.cycle}", 10, DEADLOCK_COLOUR,
                          bold=True, cls="deadlock"))
    # x axis with ticks (ticks also as faint grid lines, drawn under nothing: appended last
    # but thin and light)
    step = _nice_step(span, plot_w)
    items.append(Line(_LEFT, plot_bottom + 2, _LEFT + plot_w, plot_bottom + 2, "#000000", 1))
    first = -(-t0 // step) * step
    for tk in range(first, t1 + 1, step):
        xt = X(tk)
        items.append(Line(xt, _TOP, xt, plot_bottom, "#cccccc", 0.5, cls="grid"))
        items.append(Line(xt, plot_bottom + 2, xt, plot_bottom + 7, "#000000", 1))
        items.append(Text(xt, plot_bottom + 18, str(tk), 9, anchor="middle", cls="tick"))
    unit_name = TABLE_UNITS.get(run.table, "cost-table units")
    items.append(Text(_LEFT + plot_w / 2, plot_bottom + 34,
                      f"cycle ({unit_name}, '{run.table}' cost table)", 11, anchor="middle",
                      cls="axislabel"))
    y = plot_bottom + 50
    y = _legend(items, y, width, kinds_seen, stalls_seen, run.deadlock is not None, it)
    items.sort(key=_layer)
    return Drawing(width, int(y + 8), (t0, t1), it, items)


def _layer(item) -> int:
    """Drawing order: row backgrounds, grid, bars and markers, texts on top."""
    if isinstance(item, Text):
        return 3
    return {"rowbg": 0, "grid": 1}.get(item.cls, 2)


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


def _legend(items: list, y: float, width: int, kinds: set[str], stalls: set[str],
            deadlock: bool, it) -> float:
    entries: list[tuple[str, str, str]] = []     # (shape, colour, text)
    entries += [("bar", KIND_COLOURS[k], k) for k in KIND_COLOURS if k in kinds]
    if it is not None:
        entries.append(("faded", KIND_COLOURS["mfma"], "other iterations (faded)"))
    groups = [("instructions (bar: issue -> end; s_barrier: arrival -> release)", entries),
              ("stall lane (cycles waited before issue)",
               [("bar", STALL_COLOURS[g], g) for g in STALL_COLOURS if g in stalls]),
              ("markers", [("line", KIND_COLOURS["wait"], "s_waitcnt"),
                           ("line", KIND_COLOURS["barrier"], "s_barrier"),
                           ("dash", ITER_COLOUR, "iteration start")]
               + ([("line", DEADLOCK_COLOUR, "deadlock / stuck wave")] if deadlock else []))]
    for heading, group in groups:
        if not group:
            continue
        items.append(Text(8, y + 9, heading, 10, bold=True, cls="legendhead"))
        x = 8 + text_width(heading, 10) + 12
        for shape, colour, label in group:
            need = 22 + text_width(label, 10) + 14
            if x + need > width - 8:
                x, y = 8 + 20, y + 16
            if shape == "bar":
                items.append(Rect(x, y + 1, 16, 9, colour, cls="legend"))
            elif shape == "faded":
                items.append(Rect(x, y + 1, 16, 9, colour, _FADED, cls="legend"))
            else:
                items.append(Line(x + 8, y - 1, x + 8, y + 12, colour, 2, shape == "dash",
                                  cls="legend"))
            items.append(Text(x + 20, y + 9, label, 10, cls="legend"))
            x += need
        y += 18
    return y


# ----------------------------------------------------------------------------------------
# backends


def drawing_svg(d: Drawing) -> str:
    """The SVG text of a drawing."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{d.width}" height="{d.height}" '
           f'viewBox="0 0 {d.width} {d.height}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect x="0" y="0" width="{d.width}" height="{d.height}" fill="#ffffff"/>']
    for it in d.items:
        if isinstance(it, Rect):
            attrs = (f'x="{it.x:.1f}" y="{it.y:.1f}" width="{it.w:.1f}" height="{it.h:.1f}" '
                     f'fill="{it.fill}"')
            if it.opacity < 1:
                attrs += f' fill-opacity="{it.opacity:g}"'
            if it.stroke:
                attrs += f' stroke="{it.stroke}" stroke-width="0.5"'
            if it.cls:
                attrs += f' class="{it.cls}"'
            attrs += "".join(f' data-{k}="{"" if v is None else v}"' for k, v in it.data)
            if it.tip:
                out.append(f"<rect {attrs}><title>{escape(it.tip)}</title></rect>")
            else:
                out.append(f"<rect {attrs}/>")
        elif isinstance(it, Line):
            attrs = (f'x1="{it.x1:.1f}" y1="{it.y1:.1f}" x2="{it.x2:.1f}" y2="{it.y2:.1f}" '
                     f'stroke="{it.colour}" stroke-width="{it.width:g}"')
            if it.dashed:
                attrs += ' stroke-dasharray="3,2"'
            if it.cls:
                attrs += f' class="{it.cls}"'
            out.append(f"<line {attrs}/>")
        else:
            anchor = "" if it.anchor == "start" else f' text-anchor="{it.anchor}"'
            weight = ' font-weight="bold"' if it.bold else ""
            cls = f" class={quoteattr(it.cls)}" if it.cls else ""
            out.append(f'<text x="{it.x:.1f}" y="{it.y:.1f}" font-size="{it.size}" '
                       f'fill="{it.colour}"{anchor}{weight}{cls}>{escape(it.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = _rgb(colour)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def drawing_png(d: Drawing, path: str) -> None:
    """Draw ``d`` with Pillow and save it as PNG at ``path``."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:                       # pragma: no cover - pinned dependency
        raise TimelineError(f"render_timeline {path!r}: PNG output needs Pillow "
                            f"(pip install pillow): {e}") from None
    img = Image.new("RGB", (d.width, d.height), "#ffffff")
    draw = ImageDraw.Draw(img, "RGBA")
    fonts: dict[int, object] = {}

    def font(size: int):
        if size not in fonts:
            fonts[size] = ImageFont.load_default(size)
        return fonts[size]

    for it in d.items:
        if isinstance(it, Rect):
            fill = _rgb(it.fill) + (round(255 * it.opacity),)
            x1, y1 = it.x + it.w, it.y + it.h
            draw.rectangle((it.x, it.y, max(x1 - 1, it.x), max(y1 - 1, it.y)), fill=fill,
                           outline=(_rgb(it.stroke) + (255,)) if it.stroke else None)
        elif isinstance(it, Line):
            w = max(1, round(it.width))
            if not it.dashed:
                draw.line((it.x1, it.y1, it.x2, it.y2), fill=_rgb(it.colour), width=w)
                continue
            length = math.hypot(it.x2 - it.x1, it.y2 - it.y1)
            n = max(int(length // 5), 1)
            for k in range(n):
                a, b = k / n, min((k + 0.6) / n, 1.0)
                draw.line((it.x1 + (it.x2 - it.x1) * a, it.y1 + (it.y2 - it.y1) * a,
                           it.x1 + (it.x2 - it.x1) * b, it.y1 + (it.y2 - it.y1) * b),
                          fill=_rgb(it.colour), width=w)
        else:
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[it.anchor]
            draw.text((it.x, it.y), it.text, fill=_rgb(it.colour), font=font(it.size),
                      anchor=anchor, stroke_width=0)
            if it.bold:
                draw.text((it.x + 0.6, it.y), it.text, fill=_rgb(it.colour),
                          font=font(it.size), anchor=anchor)
    img.save(path, "PNG", optimize=True)


def render_timeline(run: CURun, analysis, path: str | os.PathLike, *, title: str = "",
                    iteration: int | None = None,
                    window: tuple[int, int] | None = None) -> Drawing:
    """Write the timeline picture of ``run`` to ``path`` (``.svg`` or ``.png``).

    ``analysis``: the run's :class:`~pipeline_mlir.sim.bounds.LoopAnalysis` (its
    achieved cycles per iteration, MinII and MFMA-busy % go into the title) or
    None.  ``title``: the schedule's name, first in the title.  ``iteration``: the
    kernel iteration to draw (default: the middle one every wave started);
    ``window``: ``(start, end)`` cycles to draw instead of the iteration's.
    Returns the :class:`Drawing` written.  Raises :class:`TimelineError` (a
    :class:`~pipeline_mlir.errors.PipelineError`) for another extension, an
    iteration the run does not have, or a path that cannot be written.
    """
    p = os.fspath(path)
    ext = os.path.splitext(p)[1].lower()
    if ext not in EXTENSIONS:
        raise TimelineError(f"timeline report {p!r}: unsupported extension {ext or '(none)'!r} "
                            f"(accepted: {', '.join(EXTENSIONS)})")
    d = layout_timeline(run, analysis, title=title, iteration=iteration, window=window)
    try:
        if ext == ".svg":
            with open(p, "w", encoding="utf-8") as f:
                f.write(drawing_svg(d))
        else:
            drawing_png(d, p)
    except OSError as e:
        raise TimelineError(f"timeline report {p!r}: cannot write it: {e.strerror or e}") from None
    return d
