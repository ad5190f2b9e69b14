"""benchmarks/bench_iree.py --ratios: a kernel the simulator cannot time gets its row, with
the simulator's reason, instead of ending the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from script_loader import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"

#: a main loop holding a counted copy loop (s6: 3 trips) that holds a waterfall loop
#: (it runs once per distinct lane value, which no instruction states)
NEST = """\
kernel:
\ts_mov_b32 s4, 0
.LBB0_1:
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
\ts_mov_b32 s6, 0
.LBB0_2:
\ts_mov_b64 s[10:11], exec
.LBB0_3:
\tv_readfirstlane_b32 s12, v80
\tv_cmp_eq_u32_e32 vcc, s12, v80
\ts_and_saveexec_b64 vcc, vcc
\tbuffer_load_dwordx4 v[12:15], v2, s[8:11], s12 offen
\ts_xor_b64 exec, exec, vcc
\ts_cbranch_execnz .LBB0_3
; %bb.4:
\ts_mov_b64 exec, s[10:11]
\ts_add_u32 s6, s6, 1
\ts_cmp_lg_u32 s6, 3
\ts_cbranch_scc1 .LBB0_2
; %bb.5:
\ts_add_i32 s4, s4, 1
\ts_cmp_lt_i32 s4, 10
\ts_cbranch_scc1 .LBB0_1
; %bb.6:
\ts_endpgm
"""


def _bench():
    return load_script(BENCH / "bench_iree.py", "bench_iree_under_test")


def test_an_untimed_kernel_gets_its_row_with_the_reason(tmp_path):
    bi = _bench()
    # through pipeline-opt --simulate, as the benchmark runs it on IREE's kernel
    refused = tmp_path / "iree.s"
    refused.write_text(NEST)
    why = bi.simulate(refused)
    assert isinstance(why, str) and why.startswith("the inner loop at lines 9-14 (.LBB0_3): "
                                                   "its trip count is not stated"), why
    cycles = {"llvm": 300.0, "measured": 500.0}
    row = bi.ratio_row("case", "4wave", [("IREE", 1, {}, why), ("ours", 2, {}, cycles),
                                         ("ours, iree", 2, {}, cycles)])
    assert row == f"| case | 4wave | no figure: {why} | 150 / 250 | 150 / 250 | — | — |"
    # IREE timed, one of ours not: the ratio over the kernels timed (2 K tiles: half)
    row = bi.ratio_row("case", "4wave", [("IREE", 1, {}, cycles), ("ours", 2, {}, cycles),
                                         ("ours, iree", 2, {}, why)])
    assert row == (f"| case | 4wave | 300 / 500 | 150 / 250 | no figure: {why} | 0.50-0.50 | "
                   f"0.50-0.50 |")


def test_a_measured_figure_says_at_which_launch():
    """IREE's kernel timed with trip counts measured on the emulator: its cell says so;
    a kernel with no K-loop left (LLVM unrolled it) has its row, no figure."""
    bi = _bench()
    measured = {"llvm": 600.0, "measured": 1000.0, "note": "trip counts measured at K = 128"}
    ours = {"llvm": 300.0, "measured": 500.0}
    row = bi.ratio_row("case", "4wave", [("IREE", 1, {}, measured), ("ours", 2, {}, ours),
                                         ("ours, iree", 2, {}, ours)])
    assert row == ("| case | 4wave | 600 / 1000 (trip counts measured at K = 128) | 150 / 250 "
                   "| 150 / 250 | 0.25-0.25 | 0.25-0.25 |")
    unrolled = "no K-loop to time (line 7: function 'f' has no loop holding MFMA instructions)"
    row = bi.ratio_row("case", "4wave", [("IREE", 1, {}, measured), ("ours", None, {},
                                                                     unrolled)])
    assert row == (f"| case | 4wave | 600 / 1000 (trip counts measured at K = 128) | "
                   f"no figure: {unrolled} | — | — |")


def test_irees_assembly_out_of_its_code_objects_order_is_timed_as_run(tmp_path):
    """IREE's own build of f16 ``A^T x B^T`` 24x5x400: the assembly IREE dumps and the code
    object it links order a few instructions differently (two runs of its LLVM step), so
    the emulator's run of the code object cannot be matched to the assembly the simulator
    times ("not timed whole", no ratio).  The assembly itself is run then, and the cell
    says so; the figure is the one a run of the assembly alone gives."""
    from pipeline_mlir.driver.measured_trips import dispatch_launch, whole_kernel
    from pipeline_mlir.emu.errors import CodeMismatch

    bi = _bench()
    case = bi.CASES["f16-atbt-24x5x400"]
    source = bi.G.matmul_source(**case.matmul)
    asm, hsaco = bi.G.iree_prefetch_files(source)
    own = tmp_path / "iree_prefetch.s"
    own.write_text(asm)
    own.with_suffix(".hsaco").write_bytes(hsaco)
    dispatch = tmp_path / "prefetch.mlir"
    dispatch.write_text(bi.G.prefetch_point(source))
    problem, grid = dispatch_launch(dispatch.read_text(), case.launch, str(dispatch))
    try:
        whole_kernel(asm, hsaco, problem, grid)
    except CodeMismatch as e:
        assert "cannot be matched" in str(e), e
    else:
        pytest.skip("this IREE's assembly and code object agree: nothing to fall back from")
    tiles, counts, cycles = bi.whole_cycles(own, dispatch, case)
    assert tiles == 25 and counts["mfma"] > 0, (tiles, counts, cycles)
    assert cycles["note"].endswith("the assembly run, not the code object, whose order "
                                   "differs"), cycles
    alone = whole_kernel(asm, asm, problem, grid)
    assert {t: cycles[t] for t in alone.cycles} == alone.cycles
