"""The steady-loop helper (test/unit/steady_loop.py): it counts the main loop's back edges
a run takes, fails a run that never goes round it, and picks the loop with the MFMAs."""

import pytest

from emu_helpers import run_snippet, snippet_kernel
from steady_loop import (assert_steady, assert_steady_unrolled, counting_loops, lowered_mfmas,
                         main_back_edge, unrolled_iterations)

MFMA = "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]"

#: a copy loop (no MFMA) of 3 trips, then the MFMA loop of ``{trips}`` trips (skipped by
#: its guard when 0; one body run with no back edge taken when 1)
KERNEL = f"""
    s_mov_b32 s1, 3
copy:
    s_sub_u32 s1, s1, 1
    s_cmp_lg_u32 s1, 0
    s_cbranch_scc1 copy
    s_mov_b32 s0, {{trips}}
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 done
main:
    {MFMA}
    s_sub_u32 s0, s0, 1
    s_cmp_lg_u32 s0, 0
    s_cbranch_scc1 main
done:
    s_nop 7
    s_nop 7
    s_endpgm
"""


def test_main_back_edge_is_the_loop_with_mfmas():
    kernel = snippet_kernel(KERNEL.format(trips=1))
    back, head = main_back_edge(kernel)
    assert kernel.instrs[head].name.startswith("v_mfma")
    assert kernel.instrs[back].name == "s_cbranch_scc1"
    with pytest.raises(AssertionError, match="no loop holds an MFMA"):
        main_back_edge(snippet_kernel(KERNEL.format(trips=1).replace(MFMA, "s_nop 0")))


@pytest.mark.parametrize("trips", [2, 5])
def test_counts_the_iterations_each_wave_made(trips):
    with counting_loops() as record:
        run_snippet(KERNEL.format(trips=trips), waves=2)
    assert record.iterations() == [{0: trips, 1: trips}]
    assert assert_steady(record) == trips


@pytest.mark.parametrize("trips", [0, 1])
def test_a_run_that_does_not_go_round_fails(trips):
    """Skipped by the loop's guard, or one body run with no back edge taken: fails."""
    with counting_loops() as record:
        run_snippet(KERNEL.format(trips=trips))
    with pytest.raises(AssertionError, match=f"ran the pipelined main loop {trips} time"):
        assert_steady(record)


def test_a_kernel_without_the_loop_fails():
    """A kernel whose loop LLVM removed (no loop holds an MFMA): 0 iterations."""
    with counting_loops() as record:
        run_snippet(KERNEL.format(trips=3).replace(MFMA, "s_nop 0"))
    assert record.iterations() == [None]
    with pytest.raises(AssertionError, match="ran the pipelined main loop 0 time"):
        assert_steady(record)


def test_no_run_recorded_fails():
    run_snippet(KERNEL.format(trips=4))             # outside: not recorded
    with counting_loops() as record:
        pass
    with pytest.raises(AssertionError, match="no emulator run"):
        assert_steady(record)


#: a lowered kernel: 1 MFMA before the steady loop (its prologue), 2 in the loop's body (of
#: constant bounds: 5 trips), 1 in a remainder loop of 3 trips; ``{ub}`` the remainder's
#: upper bound
LOWERED = """
func.func @k(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %p = amdgpu.mfma 16x16x32 %a * %b + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %p) -> (vector<4xf32>) {
    %x = amdgpu.mfma 16x16x32 %a * %b + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    %y = amdgpu.mfma 16x16x32 %a * %b + %x : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %y : vector<4xf32>
  }
  %r = scf.for %i = %c0 to {ub} step %c1 iter_args(%acc = %s) -> (vector<4xf32>) {
    %x = amdgpu.mfma 16x16x32 %a * %b + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %x : vector<4xf32>
  } {sched.remainder}
  return
}
"""


def test_the_lowering_says_the_mfmas_in_and_outside_the_steady_loop():
    assert lowered_mfmas(LOWERED.replace("{ub}", "%c3")) == (2, 1 + 3)
    # a remainder of bounds known only at run time: its MFMAs' runs are not known
    with pytest.raises(AssertionError, match="bounds known only at run time"):
        lowered_mfmas(LOWERED.replace("{ub}", "%n"))


#: a kernel whose steady loop LLVM unrolled: ``{mfmas}`` MFMAs in a row, no branch
UNROLLED = "{mfmas}\n    s_nop 7\n    s_endpgm\n"


@pytest.mark.parametrize("mfmas,steady", [(4 + 2 * 2, 2), (4 + 2 * 6, 6)])
def test_an_unrolled_loop_counts_by_the_mfmas_run(mfmas, steady):
    """No loop for the counter (0 iterations), but the MFMAs each wave ran, less the 4 the
    lowering runs outside its steady loop, are ``steady`` iterations of 2."""
    lowered = LOWERED.replace("{ub}", "%c3")
    with counting_loops() as record:
        run_snippet(UNROLLED.format(mfmas=f"    {MFMA}\n" * mfmas), waves=2)
    assert record.iterations() == [None] and record.mfmas == [{0: mfmas, 1: mfmas}]
    assert unrolled_iterations(record, lowered_mfmas(lowered)) == [{0: steady, 1: steady}]
    assert assert_steady_unrolled(record, lowered_mfmas(lowered)) == steady


@pytest.mark.parametrize("mfmas,message", [
    (4 + 2, r"ran the \(unrolled\) steady loop 1 time"),  # one iteration: too few
    (4, r"ran the \(unrolled\) steady loop 0 time"),      # prologue, drain, remainder only
    (4 + 3, r"executed 7 MFMAs, not the 4 outside the steady loop plus whole iterations of 2"),
    (3, r"executed 3 MFMAs, not the 4 outside"),           # fewer than the lowering's own
])
def test_an_unrolled_run_that_does_not_go_round_fails(mfmas, message):
    with counting_loops() as record:
        run_snippet(UNROLLED.format(mfmas=f"    {MFMA}\n" * mfmas))
    with pytest.raises(AssertionError, match=message):
        assert_steady_unrolled(record, (2, 4))
    with counting_loops() as empty:
        pass
    with pytest.raises(AssertionError, match="no emulator run"):
        assert_steady_unrolled(empty, (2, 4))


def test_a_short_item_is_pinned_to_its_iterations():
    """An item kept short on purpose passes at its count and fails at any other (a size
    change that makes it go round the loop is seen), or with no run."""
    from steady_loop import assert_short

    with counting_loops() as record:
        run_snippet(KERNEL.format(trips=1))
    assert_short(record, 1, "the loop's guard")
    with pytest.raises(AssertionError, match=r"made \[1\] iteration\(s\) of the main loop, "
                                             r"not the 0 this short item keeps to \(why\)"):
        assert_short(record, 0, "why")
    with pytest.raises(AssertionError, match="go round the loop: assert_steady"):
        assert_short(record, 2, "why")
    with counting_loops() as empty:
        pass
    with pytest.raises(AssertionError, match="not the 1"):
        assert_short(empty, 1, "why")
    # an unrolled run of one iteration (4 outside, 2 each), pinned by its MFMAs
    with counting_loops() as unrolled:
        run_snippet(UNROLLED.format(mfmas=f"    {MFMA}\n" * 6))
    assert_short(unrolled, 1, "why", (2, 4))
    with pytest.raises(AssertionError, match=r"made \[0\] iteration"):
        assert_short(unrolled, 1, "why")            # without the lowering: no loop, 0


#: the MFMA loop of ``{trips}`` trips with an out-of-line block inside its span: jumped over,
#: and branched to backwards (never taken: exec is not zero) from after it, a span of
#: layout (``cold`` .. that branch) holding 2 MFMAs that is no loop
COLD = f"""
    s_mov_b32 s0, {{trips}}
main:
    {MFMA}
    s_branch skip
cold:
    {MFMA}
    {MFMA}
    s_branch after
skip:
    s_cbranch_execz cold
after:
    s_sub_u32 s0, s0, 1
    s_cmp_lg_u32 s0, 0
    s_cbranch_scc1 main
    s_endpgm
"""


def test_a_branch_back_to_an_out_of_line_block_is_no_loop():
    """The back edge is the branch to a block that dominates it: the loop is ``main`` ..
    its ``s_cbranch_scc1``, not the span ``cold`` .. ``s_cbranch_execz`` (a layout reading
    would take that inner span, whose header no iteration runs)."""
    kernel = snippet_kernel(COLD.format(trips=3))
    back, head = main_back_edge(kernel)
    assert (kernel.instrs[head].name, kernel.instrs[back].name) == (
        "v_mfma_f32_16x16x32_bf16", "s_cbranch_scc1")
    assert kernel.instrs[head - 1].name == "s_mov_b32"
    with counting_loops() as record:
        run_snippet(COLD.format(trips=3))
    assert record.iterations() == [{0: 3}] and record.mfmas == [{0: 3}]


def test_the_assembly_reader_finds_the_same_loop():
    """One reading (pipeline_mlir/isa/natural_loops.py): the assembly reader's main loop of
    the same text starts at the header the counter counts and ends at its back edge."""
    from pipeline_mlir.isa.asm import parse_asm

    text = COLD.format(trips=3)
    kernel = snippet_kernel(text)
    back, head = main_back_edge(kernel)
    for n, label in enumerate(("main", "cold", "skip", "after"), 1):
        text = text.replace(f"{label}:", f".LBB0_{n}:").replace(f" {label}\n", f" .LBB0_{n}\n")
    fn = parse_asm("k:\n" + text).function()
    instrs, loop = fn.instrs(), fn.main_loop()
    assert [i.mnemonic for i in instrs] == [i.name for i in kernel.instrs]
    assert instrs.index(loop[0].instrs[0]) == head
    assert instrs.index(loop[-1].instrs[-1]) == back


#: a one-block MFMA loop of 3 trips inside a loop of 2 (IREE's late form: the K-loop inside
#: the linearised workgroup loop)
NESTED = f"""
    s_mov_b32 s1, 2
outer:
    s_mov_b32 s0, 3
main:
    {MFMA}
    s_sub_u32 s0, s0, 1
    s_cmp_lg_u32 s0, 0
    s_cbranch_scc1 main
    s_sub_u32 s1, s1, 1
    s_cmp_lg_u32 s1, 0
    s_cbranch_scc1 outer
    s_endpgm
"""


def test_a_one_block_loop_inside_another_is_the_main_loop():
    """The loop of a branch to its own block is that block: its header's predecessors
    (the outer loop's) are not in it, so the inner loop is counted, 3 trips per outer trip."""
    kernel = snippet_kernel(NESTED)
    back, head = main_back_edge(kernel)
    assert kernel.instrs[head].name.startswith("v_mfma") and kernel.instrs[back].target == \
        kernel.instrs[head].addr
    with counting_loops() as record:
        run_snippet(NESTED)
    assert record.iterations() == [{0: 6}]
