"""The timing model on main loops that hold inner loops (pipeline_mlir/sim/inner_loops.py): an
inner loop of stated trip count is repeated, one of unknown count gives no figure."""

from __future__ import annotations

import pytest
from asm_loops import WATERFALL, main_loop

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.inner_loops import InnerLoopError
from pipeline_mlir.sim.report import simulate_assembly
from pipeline_mlir.sim.timing import asm_main_loop, simulate_asm_loop

#: a main loop (the MFMA) holding a copy loop of ``{trips}`` trips: s6 counts 0, 1, ...
COUNTED = main_loop(
    "\ts_mov_b32 s6, {init}\n"
    ".LBB0_2:\n"
    "\tbuffer_load_dwordx4 v[12:15], v2, s[8:11], 0 offen\n"
    "\ts_waitcnt vmcnt(0)\n"
    "\t{step} s6, s6, 1\n"
    "\t{compare} s6, {bound}\n"
    "\ts_cbranch_scc1 .LBB0_2\n"
    "; %bb.3:\n", exit_block=4)


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



#: a per-lane loop laid out rotated (its latch first, entered at .LBB0_6), as IREE's copy
#: loops are: each lane steps v0 to its bound s96; the loop ends when every lane's has
ROTATED = main_loop(
    "\ts_mov_b64 s[10:11], 0\n"
    "\ts_branch .LBB0_6\n"
    ".LBB0_5:\n"
    "\tv_add_u32_e32 v20, 64, v20\n"
    "\tv_cmp_le_u32_e32 vcc, s96, v20\n"
    "\ts_or_b64 s[10:11], vcc, s[10:11]\n"
    "\ts_andn2_b64 exec, exec, s[10:11]\n"
    "\ts_cbranch_execz .LBB0_7\n"
    ".LBB0_6:\n"
    "\tbuffer_load_dwordx4 v[12:15], v20, s[8:11], 0 offen\n"
    "\ts_waitcnt vmcnt(0)\n"
    "\ts_branch .LBB0_5\n"
    ".LBB0_7:\n"
    "\ts_or_b64 exec, exec, s[10:11]\n", exit_block=8)


@pytest.mark.parametrize("text, said", [
    (WATERFALL, "s_cbranch_execnz back to its header .LBB0_5; its exits none"),
    (ROTATED, r"lines 8-16 \(\.LBB0_5\): its trip count is not stated \(no branch back to "
              r"its header \.LBB0_6; its exits s_cbranch_execz;"),
    (_counted().replace("\ts_mov_b32 s6, 0\n", ""), "not set to a constant"),
    (_counted().replace("s_add_u32 s6, s6, 1", "s_add_u32 s6, s6, s7"), "not changed by one"),
    (_counted().replace("s_cmp_lg_u32 s6, 4", "s_cmp_lg_u32 s6, s7"), "not a compare"),
    (_counted(bound=-1, compare="s_cmp_lg_u32"), "more than 4096 trips"),
], ids=["waterfall", "rotated-per-lane", "counter-unset", "register-step", "register-bound",
        "endless"])
def test_an_inner_loop_of_unknown_trips_gives_no_figure(text, said):
    with pytest.raises(InnerLoopError, match=said):
        asm_main_loop(text)
    with pytest.raises(PipelineError, match=r"k\.s: the inner loop at lines \d+-\d+"):
        simulate_assembly(text, "k.s", 4, False, ("measured",))


def _nest(trips: list, level: int = 0, init: int = 0) -> str:
    """Inner loops nested ``len(trips)`` deep, level ``i`` counting s(10+i) from ``init``
    up to ``trips[i]`` and loading into its own registers v[12+4i : 15+4i] on each trip."""
    if level == len(trips):
        return ""
    r, label = f"s{10 + level}", f".LBB0_{20 + level}"
    return (f"\ts_mov_b32 {r}, {init}\n{label}:\n"
            f"\tbuffer_load_dwordx4 v[{12 + 4 * level}:{15 + 4 * level}], v2, s[8:11], 0 offen\n"
            f"\ts_waitcnt vmcnt(0)\n" + _nest(trips, level + 1, init) +
            f"\ts_add_u32 {r}, {r}, 1\n\ts_cmp_lg_u32 {r}, {trips[level]}\n"
            f"\ts_cbranch_scc1 {label}\n; %bb.{30 + level}:\n")


def _nested(trips: list, init: int = 0) -> str:
    """A main loop (the MFMA) holding the inner loops of :func:`_nest`."""
    return main_loop(_nest(trips, 0, init), exit_block=4)


def _loads_per_level(text: str, levels: int) -> list[int]:
    loop = asm_main_loop(text)
    return [sum(1 for i in loop if i.mnemonic.startswith("buffer_load") and
                i.operands[0] == f"v[{12 + 4 * k}:{15 + 4 * k}]") for k in range(levels)]


@pytest.mark.parametrize("trips", [[4, 3], [2, 3, 5], [1, 1, 1], [3, 1, 2]])
def test_nested_inner_loops_run_the_product_of_their_trips(trips):
    # level i runs trips[0] * ... * trips[i] times per iteration of the main loop: each
    # level's counter is set again on every trip of the level around it
    want = [trips[0]]
    for t in trips[1:]:
        want.append(want[-1] * t)
    assert _loads_per_level(_nested(trips), len(trips)) == want


def test_a_nested_loops_trips_follow_its_own_start():
    assert _loads_per_level(_nested([4, 6], init=2), 2) == [2, 8]


def test_the_report_says_how_often_a_nested_loop_runs():
    rep = simulate_assembly(_nested([2, 3, 4]), "k.s", 4, False, ("measured",))
    said = [n for n in rep.notes if "inner loop at lines" in n]
    assert len(said) == 3, said
    assert said[-1].endswith("runs 2 times per iteration of the main loop (its counter's "
                             "trip count)")
    assert any(n.endswith("trip count)") and " runs 4 times per trip of the inner loop at "
               "lines " in n for n in said), said
    assert any(" runs 3 times per trip of the inner loop at lines " in n for n in said), said


def test_a_deeper_nest_costs_more():
    one = simulate_asm_loop(_nested([2, 1]), 4, 3, "measured")
    six = simulate_asm_loop(_nested([2, 6]), 4, 3, "measured")
    assert six.achieved_ii > 3 * one.achieved_ii


_WATERFALL_NEST = _nested([2, 3]).replace(
    "\ts_add_u32 s11, s11, 1\n\ts_cmp_lg_u32 s11, 3\n\ts_cbranch_scc1 .LBB0_21\n",
    "\ts_xor_b64 exec, exec, vcc\n\ts_cbranch_execnz .LBB0_21\n")


@pytest.mark.parametrize("text, said", [
    (_WATERFALL_NEST, "s_cbranch_execnz back to its header"),
    (_nested([2, 3]).replace("\ts_mov_b32 s11, 0\n", ""), "s11 is not set to a constant"),
    (_nested([2, 3]).replace("\ts_mov_b32 s11, 0\n", "").replace(
        "\ts_mov_b32 s10, 0\n", "\ts_mov_b32 s11, 0\n\ts_mov_b32 s10, 0\n"),
     "s11 is not set to a constant before it in the loop around it"),
    (_nested([2, 3]).replace("s_add_u32 s11, s11, 1", "s_add_u32 s11, s11, s7"),
     "s11 is not changed by one"),
    (_nested([2, 3]).replace("s_cmp_lg_u32 s11, 3", "s_cmp_lg_u32 s11, s7"), "not a compare"),
    (_nested([2, 3]).replace("s_cmp_lg_u32 s11, 3", "s_cmp_lg_u32 s11, -1"),
     "more than 4096 trips"),
    (_nested([2, 3]).replace("s11", "s10"), "s10 is not changed by one"),
    (_nested([2, 2, 4000, 200]), "more than 1048576 instructions"),
], ids=["waterfall", "counter-unset", "counter-set-outside", "register-step",
        "register-bound", "endless", "shared-counter", "too-long"])
def test_a_nested_loop_of_unknown_trips_gives_no_figure(text, said):
    with pytest.raises(InnerLoopError, match=said):
        asm_main_loop(text)
    with pytest.raises(PipelineError, match=r"k\.s: the inner loop at lines \d+-\d+"):
        simulate_assembly(text, "k.s", 4, False, ("measured",))


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
