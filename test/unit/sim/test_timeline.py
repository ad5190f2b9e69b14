"""The timeline picture (pipeline_mlir.sim.timeline): SVG/PNG output of a CU-model run."""

from __future__ import annotations

import re
import struct
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim import timeline, timeline_layout
from pipeline_mlir.sim.bounds import analyze_loop
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.timeline import render_timeline
from pipeline_mlir.sim.timeline_layout import (origin_text, stall_group, wait_label, wave_sets,
                                               waves_text)
from pipeline_mlir.sim.trace import kernel_shape, wave_streams

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def pingpong():
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=false}"))
    streams = wave_streams(k.schedule.compile(), kernel_shape(k.schedule), 4)
    run = simulate_cu(streams, "measured")
    iters = [(s, [i for i in ins if i.origin[:2] == ("kernel", 0)]) for s, ins in streams]
    return run, analyze_loop(run, iters, "measured")


def _loop(iterations: int, barrier: bool = True) -> list[Instr]:
    out = []
    for i in range(iterations):
        o = lambda e: ("kernel", i, e, 0)          # noqa: E731
        out += [Instr("vmem_load_lds", "buffer_load_dword", origin=o(0)),
                Instr("wait", "s_waitcnt", vm=0, origin=o(1)),
                Instr("ds_read", "ds_read_b128", defs=(f"f{i}",), origin=o(2)),
                Instr("wait", "s_waitcnt", lgkm=0, origin=o(3)),
                Instr("mfma", "v_mfma_f32_16x16x32_bf16", defs=("acc",),
                      uses=(f"f{i}", "acc"), origin=o(4))]
        if barrier:
            out.append(Instr("barrier", "s_barrier", origin=o(5)))
    return out


def _svg(tmp_path, run, analysis=None, **kw):
    p = tmp_path / "t.svg"
    t = render_timeline(run, analysis, p, **kw)
    return t, ET.parse(p).getroot()


def _group_texts(root, gid_prefix: str) -> list[str]:
    """The texts of the SVG groups whose id starts with ``gid_prefix``."""
    return [" ".join(x.text or "" for x in g.iter(SVG + "text"))
            for g in root.iter(SVG + "g") if (g.get("id") or "").startswith(gid_prefix)]


def _all_texts(root) -> set[str]:
    return {x.text for x in root.iter(SVG + "text") if x.text}


@pytest.fixture(scope="module")
def pingpong_dir(tmp_path_factory):
    """Where the module's pictures of the ping-pong run are: t.svg and t.png."""
    return tmp_path_factory.mktemp("svg")


@pytest.fixture(scope="module")
def pingpong_svg(pingpong, pingpong_dir):
    run, an = pingpong
    return _svg(pingpong_dir, run, an, title="pingpong bf16")


@pytest.fixture(scope="module")
def pingpong_png(pingpong, pingpong_dir):
    run, an = pingpong
    return render_timeline(run, an, str(pingpong_dir / "t.png"), title="pingpong bf16")


@pytest.fixture(scope="module")
def pingpong_full_svg(pingpong, tmp_path_factory):
    run, an = pingpong
    return _svg(tmp_path_factory.mktemp("svg"), run, an, title="pingpong bf16", full=True)


def test_svg_has_a_labelled_row_per_wave_shown_a_legend_and_the_title(pingpong, pingpong_svg):
    _run, an = pingpong
    t, root = pingpong_svg
    assert root.tag == SVG + "svg"
    w_in, h_in = t.size_inches()
    assert root.get("width") == f"{w_in * 72:g}pt"
    # one row per warp group (its waves run the same instructions), the others named on it
    assert [(r.label, r.alike_label) for r in t.rows] == [("SIMD 0 / wave 0", "+ waves 1-3 alike"),
                                                          ("SIMD 0 / wave 4", "+ waves 5-7 alike")]
    assert sorted(_group_texts(root, "row-w")) == ["SIMD 0 / wave 0", "SIMD 0 / wave 4"]
    assert sorted(_group_texts(root, "rowalike-w")) == ["+ waves 1-3 alike", "+ waves 5-7 alike"]
    texts = _all_texts(root)
    assert {"mfma", "ds_read", "vmem_load_lds", "wait", "barrier", "s_waitcnt", "s_barrier",
            "mfma pipe busy", "iteration start", "other iterations (faded)"} <= texts
    assert {"ctl", "mfma", "lds", "vmem", "stall"} <= texts              # lane labels
    title = " ".join(_group_texts(root, "title") + _group_texts(root, "subtitle"))
    assert " ".join(f"{t.title} {t.subtitle}".split()) == " ".join(title.split())
    assert "pingpong bf16" in title and "'measured' table (gfx950 clock cycles)" in title
    assert f"achieved {an.achieved_ii:.1f} cycles/iteration" in title
    assert f"MinII {an.min_ii:g}" in title and "MFMA busy" in title
    assert f"ResMII {an.res.cycles} on {an.res.binding}" in title
    for s, v in an.mfma_busy.items():
        assert f"simd{s} {100 * v:.1f}%" in title
    assert any("gfx950 clock cycles" in x and x.startswith("cycle") for x in texts)
    assert {"XDL simd0", "XDL simd3", "LDS (CU)", "VMEM (CU)"} <= texts
    assert [u.label for u in t.units][:4] == ["XDL simd0", "XDL simd1", "XDL simd2", "XDL simd3"]
    # the waves and units not drawn are named, with how far and how busy they are
    lo, hi = t.rows[0].skew
    assert f"not drawn: waves 1-3 as wave 0 (issue {lo:+d}..{hi:+d} cycles from it)" in title
    assert -200 < lo < 0 < hi < 200
    assert [u.label for u in t.units] == ["XDL simd0", "XDL simd1", "XDL simd2", "XDL simd3",
                                          "GMEM (CU)", "LDS (CU)", "VMEM (CU)"]
    assert re.fullmatch(r"units not drawn \(busy per SIMD at most\): BRANCH [\d.]+%, "
                        r"LDS_ISSUE [\d.]+%, SALU [\d.]+%", t.units_note)
    assert t.units_note in " ".join(title.split())
    assert _group_texts(root, "unitbusy-") == [f"{100 * u.busy:.0f}%" for u in t.units]
    assert all(0.9 < u.busy <= 1 for u in t.units[:4])


def test_full_svg_has_a_labelled_row_per_wave_and_every_unit(pingpong, pingpong_full_svg):
    run, _an = pingpong
    t, root = pingpong_full_svg
    assert [r.label for r in t.rows] == [f"SIMD {w.simd} / wave {w.wave}"
                                         for w in sorted(run.waves, key=lambda w: (w.simd, w.wave))]
    assert sorted(_group_texts(root, "row-w")) == sorted(
        f"SIMD {w.simd} / wave {w.wave}" for w in run.waves)
    assert not _group_texts(root, "rowalike-w") and "not drawn" not in t.subtitle
    assert {"LDS_ISSUE simd0", "SALU simd3", "BRANCH simd1"} <= _all_texts(root)
    assert t.units_note == ""


def test_waves_running_the_same_instructions_share_a_row(pingpong):
    run, _an = pingpong
    assert [(a.wave, [o.wave for o in others]) for a, others in wave_sets(run)] == \
        [(0, [1, 2, 3]), (4, [5, 6, 7])]
    # a deadlock: the waves of a set are all stuck at one barrier or none is
    good = _loop(4)
    dead = simulate_cu([(0, good), (1, good), (2, good[:-1])], "measured")
    assert dead.deadlock is not None
    sets = [(a.wave, [o.wave for o in others]) for a, others in wave_sets(dead)]
    stuck = set(dead.deadlock.waiting)
    assert sorted(w for a, o in sets for w in [a, *o]) == [0, 1, 2]
    assert all({a, *o} <= stuck or not ({a, *o} & stuck) for a, o in sets)
    assert waves_text([1, 2, 3]) == "1-3" and waves_text([1, 3]) == "1, 3"
    assert waves_text([5, 1, 2, 7, 8, 9]) == "1, 2, 5, 7-9" and waves_text([4]) == "4"


def _bars(root):
    """(wave, index, tooltip, first x) of every instruction bar of the SVG."""
    out = []
    for g in root.iter(SVG + "g"):
        m = re.fullmatch(r"op-w(\d+)-i(\d+)", g.get("id") or "")
        if m:
            path = g.find(SVG + "path")
            x = float(re.match(r"M\s*([-\d.]+)", path.get("d")).group(1))
            out.append((int(m.group(1)), int(m.group(2)), g.find(SVG + "title").text, x))
    return out


@pytest.mark.parametrize("full", [False, True])
def test_svg_bars_are_the_runs_instructions(pingpong, pingpong_svg, pingpong_full_svg, full):
    run, an = pingpong
    t, root = pingpong_full_svg if full else pingpong_svg
    shown = {r.wave for r in t.rows}
    t0, t1 = t.window
    assert t.iteration == 2                       # iterations 0..3: the middle one
    assert t0 == min(s[2] for s in an.iteration_starts.values())
    assert t1 == max(s[3] for s in an.iteration_starts.values())
    w_in, _h = t.size_inches()
    lay = timeline_layout
    left, plot = lay.LEFT_IN * 72, (w_in - lay.LEFT_IN - lay.RIGHT_IN) * 72
    bars = _bars(root)
    assert len(bars) == sum(len(r.bars) for r in t.rows) and len(set(b[:2] for b in bars)) \
        == len(bars)
    drawn = Counter()
    for wave, index, tip, x in bars:
        wt = run.waves[wave]
        ins = wt.instrs[index]
        # the tooltip names the instruction and its schedule entry
        assert tip.startswith(f"wave {wave} #{index} {ins.name}: {origin_text(ins.origin)}; "
                              f"issue {wt.issue[index]}, end {wt.end[index]}")
        assert x == pytest.approx(left + (wt.issue[index] - t0) / (t1 - t0) * plot, abs=0.01)
        if ins.origin[:2] == ("kernel", 2):
            drawn[ins.kind] += 1
    issued = Counter(ins.kind for wt in run.waves for ins, t in zip(wt.instrs, wt.issue)
                     if ins.origin[:2] == ("kernel", 2) and t0 <= t < t1 and wt.wave in shown)
    assert drawn["mfma"] == issued["mfma"] == len(shown) * 128
    assert len(shown) == (8 if full else 2)
    assert drawn == {k: v for k, v in issued.items() if k != "sched_barrier"}
    assert origin_text(("kernel", 2, 17, 1)) == \
        "kernel entry 17 (iteration 2), instruction 1 of the entry"


def test_markers_are_the_runs_waits_and_barriers(pingpong, pingpong_svg):
    run, an = pingpong
    t, root = pingpong_svg
    t0, t1 = t.window
    for row in t.rows:
        wt = run.waves[row.wave]
        expected = [(wt.issue[j], i.kind) for j, i in enumerate(wt.instrs)
                    if i.kind in ("wait", "barrier") and t0 <= wt.issue[j] < t1]
        assert [(m.cycle, m.kind) for m in row.markers] == expected
        assert all(m.label == wait_label(wt.instrs[m.index].vm, wt.instrs[m.index].lgkm)
                   for m in row.markers if m.kind == "wait")
    # every wait label drawn names the counts of a wait of the run
    waits = {wait_label(i.vm, i.lgkm) for wt in run.waves for i in wt.instrs if i.kind == "wait"}
    labels = _group_texts(root, "marklabel-wait")
    assert labels and set(labels) <= waits
    assert len(_group_texts(root, "marklabel-barrier")) > 8
    # runs of back-to-back MFMAs are labelled with their length
    assert "16 mfma" in _group_texts(root, "runlabel")
    ids = [g.get("id") for g in root.iter(SVG + "g") if g.get("id")]
    assert len(ids) == len(set(ids))                     # every id of the SVG is unique


def test_labels_of_a_row_never_overlap(pingpong):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    run, an = pingpong
    fig = timeline.draw_timeline(timeline_layout.layout_timeline(run, an))
    renderer = FigureCanvasAgg(fig).get_renderer()
    rows: dict[float, list] = {}
    for text in fig.axes[0].texts:
        if (text.get_gid() or "").startswith(("marklabel", "iterlabel", "stucklabel")):
            box = text.get_window_extent(renderer)
            rows.setdefault(round(box.y0, 1), []).append((box.x0, box.x1))
    assert len(rows) == 2 and sum(map(len, rows.values())) > 8 * len(rows)
    for spans in rows.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def test_a_narrow_picture_wraps_its_title_inside_the_figure(pingpong):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    run, an = pingpong
    t = timeline_layout.layout_timeline(run, an, title="pingpong{is_fp8=false}",
                                        window=(12000, 12400))
    w_in, _h = t.size_inches()
    head, sub = t.title_lines(w_in)
    assert w_in < 14 and len(head) + len(sub) > 2           # the subtitle needed two lines
    assert " ".join(" ".join(head + sub).split()) == " ".join(f"{t.title} {t.subtitle}".split())
    fig = timeline.draw_timeline(t)
    renderer = FigureCanvasAgg(fig).get_renderer()
    width = fig.bbox.width
    lines = [x for x in fig.texts if (x.get_gid() or "").startswith(("title", "subtitle"))]
    assert len(lines) == len(head) + len(sub)
    for x in lines:
        box = x.get_window_extent(renderer)
        assert 0 <= box.x0 and box.x1 <= width, x.get_text()


def test_every_text_is_readable_unscaled_on_a_1920x1080_screen(pingpong):
    from matplotlib.text import Text

    run, an = pingpong
    t = timeline_layout.layout_timeline(run, an, title="pingpong")
    w_in, h_in = t.size_inches()
    assert w_in * timeline_layout.DPI <= 1800 and h_in * timeline_layout.DPI <= 1000
    fig = timeline.draw_timeline(t)
    texts = [x for x in fig.findobj(Text) if x.get_visible() and x.get_text().strip()]
    assert len(texts) > 100
    assert min(x.get_fontsize() for x in texts) >= 9


def test_the_same_run_gives_the_same_files(pingpong, pingpong_dir, pingpong_svg, pingpong_png,
                                           tmp_path):
    """Drawn again, the run gives the bytes of the module's first pictures of it."""
    run, an = pingpong
    for ext in ("svg", "png"):
        b = tmp_path / f"b.{ext}"
        render_timeline(run, an, b, title="pingpong bf16")
        assert (pingpong_dir / f"t.{ext}").read_bytes() == b.read_bytes(), ext


def _png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


def test_png_output(tmp_path, pingpong, pingpong_dir, pingpong_png):
    from matplotlib.image import imread

    run, an = pingpong
    t, p = pingpong_png, pingpong_dir / "t.png"
    data = p.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 3_000_000
    w_in, h_in = t.size_inches()
    assert _png_size(data) == (round(w_in * timeline_layout.DPI), round(h_in * timeline_layout.DPI))
    assert 1200 < _png_size(data)[0] <= 1800 and 400 < _png_size(data)[1] <= 1000
    other = simulate_cu([(0, _loop(3))], "llvm")
    with pytest.raises(PipelineError, match="^the analysis given is of another run than the "
                                            "one to draw"):
        render_timeline(other, an, tmp_path / "other.png")
    pixels = (imread(p)[:, :, :3] * 255).round().astype(int)
    for kind in ("mfma", "ds_read", "vmem_load_lds", "barrier"):
        colour = timeline_layout.KIND_COLOURS[kind]
        rgb = [int(colour[k:k + 2], 16) for k in (1, 3, 5)]
        assert (pixels == rgb).all(axis=2).any(), kind


@pytest.mark.parametrize("name", ["t.pdf", "t", "t.svg.txt"])
def test_bad_extension_is_a_clear_error(tmp_path, name):
    run = simulate_cu([(0, _loop(2))], "llvm")
    p = str(tmp_path / name)
    with pytest.raises(PipelineError, match=r"accepted: \.svg, \.png") as e:
        render_timeline(run, None, p)
    assert p in str(e.value)


def test_unwritable_path_and_bad_arguments(tmp_path):
    run = simulate_cu([(0, _loop(3))], "llvm")
    with pytest.raises(PipelineError, match="cannot write"):
        render_timeline(run, None, tmp_path / "missing" / "t.svg")
    with pytest.raises(PipelineError, match=r"^iteration=7: the run has no such iteration "
                                            r"\(kernel iterations: 0\.\.2\)"):
        render_timeline(run, None, tmp_path / "t.svg", iteration=7)
    with pytest.raises(PipelineError, match=r"^window=\(5, 5\): the window to draw is \(start, "
                                            r"end\) cycles with start < end"):
        render_timeline(run, None, tmp_path / "t.svg", window=(5, 5))
    with pytest.raises(PipelineError, match=r"^full='yes': whether to draw every wave and unit "
                                            r"instance is True or False"):
        render_timeline(run, None, tmp_path / "t.svg", full="yes")
    with pytest.raises(PipelineError, match=r"^the run to draw is a str, not a simulator run"):
        render_timeline("run", None, tmp_path / "t.svg")
    with pytest.raises(PipelineError, match=r"^the analysis to draw with is a str, not a "
                                            r"LoopAnalysis \(or None\)"):
        render_timeline(run, "an", tmp_path / "t.svg")


def test_deadlocked_run_is_drawn_and_marked(tmp_path):
    good = _loop(4)
    run = simulate_cu([(0, good), (1, good[:-1])], "measured")
    assert run.deadlock is not None
    t, root = _svg(tmp_path, run, title="dl")
    assert t.iteration == 3 and t.window[0] < run.deadlock.cycle < t.window[1]
    assert t.deadlock == run.deadlock.cycle
    assert f"DEADLOCK at cycle {run.deadlock.cycle}" in t.title
    assert any("DEADLOCK" in x for x in _group_texts(root, "deadlocklabel"))
    assert _group_texts(root, "stucklabel") == ["stuck at barrier #3"]
    assert [r.stuck[1] for r in t.rows if r.stuck] == [3]
    assert {"deadlock", "deadlock-units"} <= {g.get("id") for g in root.iter(SVG + "g")}
    assert "deadlock / stuck wave" in _all_texts(root)
    p = tmp_path / "dl.png"
    render_timeline(run, None, p)
    assert p.read_bytes()[:4] == b"\x89PNG"


def test_single_wave_without_analysis_and_without_iterations(tmp_path):
    run = simulate_cu([(0, _loop(3))], "llvm")
    t, root = _svg(tmp_path, run)
    assert _group_texts(root, "row-w") == ["SIMD 0 / wave 0"]
    assert "no loop analysis" in _group_texts(root, "subtitle")[0]
    assert t.iteration == 1
    flat = [Instr(i.kind, i.name, i.defs, i.uses, i.vm, i.lgkm, origin=("asm", k))
            for k, i in enumerate(_loop(2, barrier=False))]
    run2 = simulate_cu([(0, flat)], "llvm")
    t2, root2 = _svg(tmp_path, run2)
    assert t2.iteration is None and t2.window == (0, run2.total)
    bars = _bars(root2)
    assert len(bars) == len(flat)
    assert all(f": assembly line {i}; " in tip for _w, i, tip, _x in bars)


def test_missing_matplotlib_is_one_clear_error(monkeypatch, capsys, tmp_path):
    from pipeline_mlir.tools.pipeline_opt import main

    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib fails
    run = simulate_cu([(0, _loop(2))], "llvm")
    with pytest.raises(PipelineError, match=r"needs matplotlib.*pip install "
                                            r"'pipeline-mlir\[plot\]'"):
        render_timeline(run, None, tmp_path / "t.svg")
    rc = main(["--simulate", "--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}",
               f"--report={tmp_path / 't.png'}"])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert "the timeline picture needs matplotlib" in err and "Traceback" not in err
    assert not (tmp_path / "t.png").exists()


def test_stall_groups_and_wait_labels():
    assert stall_group("arbitration lost to wave 3") == "arbitration lost"
    assert stall_group("lds_issue busy") == "other unit busy"
    assert stall_group("mfma pipe busy") == "mfma pipe busy"
    assert stall_group("waitcnt vm") == "waitcnt vm"
    assert wait_label(8, None) == "vmcnt(8)"
    assert wait_label(None, 0) == "lgkmcnt(0)"
    assert wait_label(2, 1) == "vmcnt(2) lgkmcnt(1)"
