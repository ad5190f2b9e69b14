"""The timing model on main loops that hold inner loops (pipeline_mlir/sim/inner_loops.py): an
inner loop of stated trip count is repeated, one of unknown count gives no figure."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.inner_loops import InnerLoopError
from pipeline_mlir.sim.report import simulate_assembly
from pipeline_mlir.sim.timing import asm_main_loop, simulate_asm_loop

#: a main loop (the MFMA) holding a copy loop of ``{trips}`` trips: s6 counts 0, 1, ...
COUNTED = """\
kernel:
\ts_mov_b32 s4, 0
.LBB0_1:
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
\ts_mov_b32 s6, {init}
.LBB0_2:
\tbuffer_load_dwordx4 v[12:15], v2, s[8:11], 0 offen
\ts_waitcnt vmcnt(0)
\t{step} s6, s6, 1
\t{compare} s6, {bound}
\ts_cbranch_scc1 .LBB0_2
; %bb.3:
\ts_add_i32 s4, s4, 1
\ts_cmp_lt_i32 s4, 10
\ts_cbranch_scc1 .LBB0_1
; %bb.4:
\ts_endpgm
"""


def _counted(trips: int = 4, init: int = 0, step: str = "s_add_u32",
             compare: str = "s_cmp_lg_u32", bound: int | None = None) -> str:
    return COUNTED.format(init=init, step=step, compare=compare,
                          bound=trips if bound is None else bound)


def _loads(text: str) -> int:
    return sum(1 for i in asm_main_loop(text) if i.mnemonic.startswith("buffer_load"))


@pytest.mark.parametrize("kw, trips", [
    ({}, 4),
    ({"trips": 1}, 1),
    ({"init": 3, "bound": 10}, 7),
    ({"step": "s_sub_u32", "init": 8, "bound": 2}, 6),
    ({"compare": "s_cmp_lt_u32", "bound": 5}, 5),
])
def test_a_counted_inner_loop_runs_its_trips(kw, trips):
    assert _loads(_counted(**kw)) == trips


def test_the_figure_grows_with_the_inner_loops_trips():
    one = simulate_asm_loop(_counted(1), 4, 3, "measured")
    eight = simulate_asm_loop(_counted(8), 4, 3, "measured")
    # eight dependent load round trips per iteration cost more than one
    assert eight.achieved_ii > 4 * one.achieved_ii


WATERFALL = """\
kernel:
\ts_mov_b32 s0, 0
.LBB0_3:
\tv_mfma_i32_16x16x64_i8 v[64:67], v[160:163], v[168:171], v[60:63]
\ts_mov_b64 s[10:11], exec
.LBB0_5:
\tv_readfirstlane_b32 s12, v80
\tv_cmp_eq_u32_e32 vcc, s12, v80
\ts_and_saveexec_b64 vcc, vcc
\tbuffer_load_dwordx4 v146, s[4:7], s12 offen lds
\ts_xor_b64 exec, exec, vcc
\ts_cbranch_execnz .LBB0_5
\ts_mov_b64 exec, s[10:11]
\ts_add_i32 s0, s0, 1
\ts_cmp_lt_u32 s0, 64
\ts_cbranch_scc1 .LBB0_3
\ts_endpgm
"""


@pytest.mark.parametrize("text, said", [
    (WATERFALL, "s_cbranch_execnz back to its header"),
    (_counted().replace("\ts_mov_b32 s6, 0\n", ""), "not set to a constant"),
    (_counted().replace("s_add_u32 s6, s6, 1", "s_add_u32 s6, s6, s7"), "not changed by one"),
    (_counted().replace("s_cmp_lg_u32 s6, 4", "s_cmp_lg_u32 s6, s7"), "not a compare"),
    (_counted(bound=-1, compare="s_cmp_lg_u32"), "more than 4096 trips"),
], ids=["waterfall", "counter-unset", "register-step", "register-bound", "endless"])
def test_an_inner_loop_of_unknown_trips_gives_no_figure(text, said):
    with pytest.raises(InnerLoopError, match=said):
        asm_main_loop(text)
    with pytest.raises(PipelineError, match=r"k\.s: the inner loop at lines \d+-\d+"):
        simulate_assembly(text, "k.s", 4, False, ("measured",))


def test_nested_inner_loops_are_refused():
    inner = _counted().replace(".LBB0_2:\n", ".LBB0_2:\n\ts_mov_b32 s7, 0\n.LBB0_9:\n"
                               "\ts_add_u32 s7, s7, 1\n\ts_cmp_lg_u32 s7, 2\n"
                               "\ts_cbranch_scc1 .LBB0_9\n; %bb.8:\n")
    with pytest.raises(InnerLoopError, match="nested inner loops"):
        asm_main_loop(inner)


def test_a_main_loop_without_inner_loops_is_its_layout():
    from pipeline_mlir.isa.asm import parse_asm

    text = _counted().replace("\ts_cbranch_scc1 .LBB0_2\n", "")
    fn = parse_asm(text).function()
    assert asm_main_loop(text) == fn.main_loop_phases()["loop"]


def test_the_report_says_how_often_an_inner_loop_runs():
    rep = simulate_assembly(_counted(6), "k.s", 4, False, ("measured",))
    assert any(n.startswith("the inner loop at lines ") and
               n.endswith("runs 6 times per iteration of the main loop (its counter's trip "
                          "count)") for n in rep.notes), rep.notes
    plain = simulate_assembly(_counted().replace("\ts_cbranch_scc1 .LBB0_2\n", ""), "k.s", 4,
                              False, ("measured",))
    assert not any("inner loop" in n for n in plain.notes)
