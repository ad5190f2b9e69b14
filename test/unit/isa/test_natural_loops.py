"""The natural-loop reading shared by the assembly reader and the steady-loop counter
(pipeline_mlir/isa/natural_loops.py): a back edge is a branch to a block that dominates it,
and the main loop is the innermost MFMA loop with the most MFMAs."""

import pytest

from pipeline_mlir.isa.asm import AsmError, parse_asm
from pipeline_mlir.isa.natural_loops import dominators, main_loop, natural_loops
from pipeline_mlir.sim.timing import function_main_loop

MFMA = "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]"


def _loops(succs):
    return [(lp.header, sorted(lp.blocks), list(lp.latches)) for lp in natural_loops(succs)]


def test_nested_loops_innermost_first():
    # 0 -> 1 (outer header) -> 2 (inner, self loop) -> 3 -> 1 | 4
    succs = [[1], [2], [2, 3], [1, 4], []]
    assert _loops(succs) == [(2, [2], [2]), (1, [1, 2, 3], [3])]
    dom, preds = dominators(succs)
    assert dom[3] == {0, 1, 2, 3} and preds[1] == [0, 3]


def test_a_branch_back_to_a_join_point_is_no_loop():
    # the loop 1..4 with block 2 laid out of line: 3 branches back to 2, which 1 reaches
    # by another way (1 -> 3), so 2 does not dominate 3: the only loop is the one of 1
    succs = [[1], [3], [4], [2, 4], [1, 5], []]
    assert _loops(succs) == [(1, [1, 2, 3, 4], [4])]


def test_irreducible_and_unreached_cycles_are_no_loops():
    # 0 enters the cycle 1 <-> 2 at both ends: neither dominates the other
    assert _loops([[1, 2], [2], [1]]) == []
    # a cycle the entry does not reach has no dominators
    assert _loops([[], [2], [1]]) == []
    assert dominators([]) == ([], []) and natural_loops([]) == []


def test_main_loop_is_the_innermost_with_most_mfmas():
    succs = [[1], [2], [2, 3], [1, 4], [4, 5], []]
    loops = natural_loops(succs)
    # the outer loop 1..3 holds the inner MFMA loop 2: not a candidate
    assert main_loop(loops, [0, 5, 1, 0, 0, 0]).header == 2
    # the loop 4 holds more MFMAs than the loop 2
    assert main_loop(loops, [0, 0, 1, 0, 3, 0]).header == 4
    assert main_loop(loops, [1, 0, 0, 0, 0, 1]) is None


#: an MFMA loop whose block .LBB0_2 is laid out of line after a join point: .LBB0_3 branches
#: back to it (never a loop: .LBB0_2 does not dominate .LBB0_3); the span .LBB0_2 ..
#: .LBB0_3 holds more MFMAs than the loop's own blocks
COLD = f"""k:
\ts_mov_b32 s0, 3
.LBB0_1:
\t{MFMA}
\ts_branch .LBB0_3
.LBB0_2:
\t{MFMA}
\t{MFMA}
\ts_branch .LBB0_4
.LBB0_3:
\ts_cbranch_execz .LBB0_2
.LBB0_4:
\ts_sub_u32 s0, s0, 1
\ts_cmp_lg_u32 s0, 0
\ts_cbranch_scc1 .LBB0_1
; %bb.5:
\ts_endpgm
"""


def test_the_assembly_readers_main_loop_is_natural():
    fn = parse_asm(COLD).function()
    assert [[b.label for b in lp] for lp in fn.loops()] == [
        [".LBB0_1", ".LBB0_2", ".LBB0_3", ".LBB0_4"]]
    assert [b.label for b in fn.main_loop()] == [".LBB0_1", ".LBB0_2", ".LBB0_3", ".LBB0_4"]
    # the timed iteration runs from the header to the back edge, the out-of-line block in it
    body = function_main_loop(fn)
    assert (body[0].mnemonic, body[-1].text) == (MFMA.split()[0], "s_cbranch_scc1 .LBB0_1")


def test_irreducible_or_loop_free_mfma_code_has_no_main_loop():
    irreducible = (f"k:\n\ts_cbranch_scc1 .LBB0_2\n.LBB0_1:\n\t{MFMA}\n"
                   f".LBB0_2:\n\t{MFMA}\n\ts_cbranch_vccnz .LBB0_1\n; %bb.3:\n\ts_endpgm\n")
    loop_free = f"k:\n\t{MFMA}\n\ts_endpgm\n"
    for text in (irreducible, loop_free):
        fn = parse_asm(text).function()
        assert fn.loops() == []
        with pytest.raises(AsmError, match="no loop holding MFMA"):
            fn.main_loop()


def test_the_blocks_a_branch_decides():
    from pipeline_mlir.isa.natural_loops import decided

    # 0 -> 1 | 2 -> 3 (a diamond): the branch of 0 decides 1 and 2, not the join 3
    assert decided([[1, 2], [3], [3], []], [0]) == {1, 2}
    # 0 -> 1 (self loop) -> 2: the loop's branch decides how often 1 runs, not 2
    assert decided([[1], [1, 2], []], [1]) == {1}
    # a branch a decided block ends decides what it branches around too:
    # 0 -> 1 | 4; 1 -> 2 | 3; 2 -> 3; 3 -> 4
    assert decided([[1, 4], [2, 3], [3], [4], []], [0]) == {1, 2, 3}
    # a block that reaches no end: no post-dominators
    assert decided([[1, 2], [1], []], [0]) is None
