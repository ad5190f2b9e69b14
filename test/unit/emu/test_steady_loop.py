"""The steady-loop helper (test/unit/steady_loop.py): it counts the main loop's back edges
a run takes, fails a run that never goes round it, and picks the loop with the MFMAs."""

import pytest

from emu_helpers import run_snippet, snippet_kernel
from steady_loop import assert_steady, counting_loops, main_back_edge

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
