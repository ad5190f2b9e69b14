"""The timeline picture (pipeline_mlir.sim.timeline): SVG/PNG output of a CU-model run."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim import timeline
from pipeline_mlir.sim.bounds import analyze_loop
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.timeline import (render_timeline, stall_group, text_width,
                                        wait_label)
from pipeline_mlir.sim.trace import kernel_shape, wave_streams

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def pingpong():
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=false}"))
    streams = wave_streams(k.request.compile(), kernel_shape(k.request), 4)
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
    d = render_timeline(run, analysis, p, **kw)
    return d, ET.parse(p).getroot()


def _texts(root, cls):
    return [t.text for t in root.iter(SVG + "text") if cls in (t.get("class") or "").split()]


def test_svg_has_a_labelled_row_per_wave_a_legend_and_the_title(tmp_path, pingpong):
    run, an = pingpong
    d, root = _svg(tmp_path, run, an, title="pingpong bf16")
    assert root.tag == SVG + "svg" and int(root.get("width")) == d.width
    assert sorted(_texts(root, "rowlabel")) == sorted(
        f"SIMD {w.simd} / wave {w.wave}" for w in run.waves)
    legend = set(_texts(root, "legend"))
    assert {"mfma", "ds_read", "vmem_load_lds", "wait", "barrier", "s_waitcnt", "s_barrier",
            "mfma pipe busy"} <= legend
    title = " ".join(_texts(root, "title") + _texts(root, "subtitle"))
    assert "pingpong bf16" in title and "'measured' table (gfx950 clock cycles)" in title
    assert f"achieved {an.achieved_ii:.1f} cycles/iteration" in title
    assert f"MinII {an.min_ii:g}" in title and "MFMA busy" in title
    assert "gfx950 clock cycles" in _texts(root, "axislabel")[0]
    units = set(_texts(root, "unitlabel"))
    assert {"XDL simd0", "XDL simd3", "LDS (CU)", "VMEM (CU)"} <= units


def test_svg_bars_are_the_runs_instructions(tmp_path, pingpong):
    run, an = pingpong
    d, root = _svg(tmp_path, run, an)
    t0, t1 = d.window
    assert d.iteration == 2                       # iterations 0..3: the middle one
    assert t0 == min(s[2] for s in an.iteration_starts.values())
    assert t1 == max(s[3] for s in an.iteration_starts.values())
    scale = (d.width - timeline._LEFT - timeline._RIGHT) / (t1 - t0)
    drawn = Counter()
    for r in root.iter(SVG + "rect"):
        cls = (r.get("class") or "").split()
        if cls[:1] != ["op"]:
            continue
        wave, index = int(r.get("data-wave")), int(r.get("data-index"))
        wt = run.waves[wave]
        assert wt.instrs[index].kind == cls[1]
        assert int(r.get("data-issue")) == wt.issue[index]
        x = timeline._LEFT + (max(wt.issue[index], t0) - t0) * scale
        assert float(r.get("x")) == pytest.approx(x, abs=0.06)
        if r.get("data-iter") == "2":
            drawn[cls[1]] += 1
    issued = Counter(ins.kind for wt in run.waves for ins, t in zip(wt.instrs, wt.issue)
                     if ins.origin[:2] == ("kernel", 2) and t0 <= t < t1)
    assert drawn["mfma"] == issued["mfma"] == 8 * 128
    assert drawn == {k: v for k, v in issued.items() if k != "sched_barrier"}
    # every wait label names the counts of a wait of the run
    waits = {wait_label(i.vm, i.lgkm) for wt in run.waves for i in wt.instrs if i.kind == "wait"}
    labels = _texts(root, "wait")
    assert labels and set(labels) <= waits


def test_labels_of_a_row_never_overlap(pingpong):
    run, an = pingpong
    d = timeline.layout_timeline(run, an)
    rows: dict[float, list] = {}
    for it in d.items:
        if isinstance(it, timeline.Text) and it.size == 8 and it.anchor == "start":
            rows.setdefault(it.y, []).append((it.x, it.x + text_width(it.text, 8)))
    assert sum(map(len, rows.values())) > 8
    for spans in rows.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def test_png_output(tmp_path, pingpong):
    from PIL import Image
    run, an = pingpong
    p = tmp_path / "t.png"
    d = render_timeline(run, an, str(p), title="pp")
    data = p.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 3_000_000
    other = simulate_cu([(0, _loop(3))], "llvm")
    with pytest.raises(PipelineError, match="analysis is of another run"):
        render_timeline(other, an, p)
    with Image.open(p) as im:
        assert im.size == (d.width, d.height)
        assert 1200 < im.width <= 2600 and 400 < im.height < 1500
        colours = {c for _n, c in im.convert("RGB").getcolors(1 << 20)}
    assert timeline._rgb(timeline.KIND_COLOURS["mfma"]) in colours
    assert timeline._rgb(timeline.KIND_COLOURS["ds_read"]) in colours


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
    with pytest.raises(PipelineError, match=r"iteration 7 is not in the run \(kernel "
                                            r"iterations: 0\.\.2\)"):
        render_timeline(run, None, tmp_path / "t.svg", iteration=7)
    with pytest.raises(PipelineError, match="window must be"):
        render_timeline(run, None, tmp_path / "t.svg", window=(5, 5))
    with pytest.raises(PipelineError, match="must be a CURun"):
        render_timeline("run", None, tmp_path / "t.svg")
    with pytest.raises(PipelineError, match="analysis must be a LoopAnalysis or None, got str"):
        render_timeline(run, "an", tmp_path / "t.svg")


def test_deadlocked_run_is_drawn_and_marked(tmp_path):
    good = _loop(4)
    run = simulate_cu([(0, good), (1, good[:-1])], "measured")
    assert run.deadlock is not None
    d, root = _svg(tmp_path, run, title="dl")
    assert d.iteration == 3 and d.window[0] < run.deadlock.cycle < d.window[1]
    assert any("DEADLOCK" in t for t in _texts(root, "deadlock"))
    assert _texts(root, "stucklabel") == ["stuck at barrier #3"]
    assert any("deadlock" in (ln.get("class") or "") for ln in root.iter(SVG + "line"))
    p = tmp_path / "dl.png"
    render_timeline(run, None, p)
    assert p.read_bytes()[:4] == b"\x89PNG"


def test_single_wave_without_analysis_and_without_iterations(tmp_path):
    run = simulate_cu([(0, _loop(3))], "llvm")
    d, root = _svg(tmp_path, run)
    assert _texts(root, "rowlabel") == ["SIMD 0 / wave 0"]
    assert "no loop analysis" in _texts(root, "subtitle")[0]
    assert d.iteration == 1
    flat = [Instr(i.kind, i.name, i.defs, i.uses, i.vm, i.lgkm, origin=("asm", k))
            for k, i in enumerate(_loop(2, barrier=False))]
    run2 = simulate_cu([(0, flat)], "llvm")
    d2, root2 = _svg(tmp_path, run2)
    assert d2.iteration is None and d2.window == (0, run2.total)
    assert len([r for r in root2.iter(SVG + "rect")
                if (r.get("class") or "").startswith("op ")]) == len(flat)


def test_stall_groups_and_wait_labels():
    assert stall_group("arbitration lost to wave 3") == "arbitration lost"
    assert stall_group("lds_issue busy") == "other unit busy"
    assert stall_group("mfma pipe busy") == "mfma pipe busy"
    assert stall_group("waitcnt vm") == "waitcnt vm"
    assert wait_label(8, None) == "vmcnt(8)"
    assert wait_label(None, 0) == "lgkmcnt(0)"
    assert wait_label(2, 1) == "vmcnt(2) lgkmcnt(1)"
