"""Trip counts measured on the emulator (pipeline_mlir/emu/trips.py) for the inner loops
whose count the assembly does not state, and the timing model's use of them
(pipeline_mlir/sim/inner_loops.py): a hand-made main loop holding a loop of per-lane
counters that ends when the exec mask empties, each lane's bound its wave's index plus
its lane's parity plus one, so wave w takes w + 2 trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from asm_loops import main_loop
from emu_helpers import snippet_kernel

from pipeline_mlir.driver.measured_trips import dispatch_launch, timed_whole
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.machine import GlobalMemory
from pipeline_mlir.emu.trips import measured_trips, record_runs
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.sim.inner_loops import InnerLoopError
from pipeline_mlir.sim.timing import asm_main_loop, simulate_asm_loop

#: the main loop (3 iterations, an MFMA each) holds .LBB0_2, a loop of per-lane counters
#: (v14 up to each lane's bound v12) whose wave runs until its last lane is done; .LBB0_3
#: runs only where v0 < 0 (no lane: skipped)
PER_LANE = main_loop(
    "\tv_lshrrev_b32_e32 v12, 6, v0\n"
    "\tv_and_b32_e32 v13, 1, v0\n"
    "\tv_add_u32_e32 v12, v12, v13\n"
    "\tv_add_u32_e32 v12, 1, v12\n"
    "\tv_mov_b32_e32 v14, 0\n"
    "\ts_mov_b64 s[6:7], exec\n"
    ".LBB0_2:\n"
    "\tv_add_u32_e32 v14, 1, v14\n"
    "\tv_mul_lo_u32 v15, v14, v14\n"
    "\tv_cmp_ge_u32_e32 vcc, v14, v12\n"
    "\ts_or_b64 s[8:9], vcc, s[8:9]\n"
    "\ts_andn2_b64 exec, exec, vcc\n"
    "\ts_cbranch_execnz .LBB0_2\n"
    "; %bb.5:\n"
    "\ts_mov_b64 exec, s[6:7]\n"
    "\tv_cmp_gt_i32_e32 vcc, 0, v0\n"
    "\ts_and_saveexec_b64 s[10:11], vcc\n"
    "\ts_cbranch_execz .LBB0_4\n"
    ".LBB0_3:\n"
    "\tv_mul_lo_u32 v16, v0, v0\n"
    "\tv_mul_lo_u32 v16, v16, v0\n"
    ".LBB0_4:\n"
    "\ts_or_b64 exec, exec, s[10:11]\n",
    trips=3, compare="s_cmp_lt_u32", exit_block=6,
    mfma="v_mfma_f32_16x16x32_bf16 v[20:23], v[4:7], v[8:11], v[20:23]")  # v0: the lane


@pytest.fixture(scope="module")
def recorded():
    """The kernel and the stretches its two waves ran (wave 0: 2 trips, wave 1: 3)."""
    kernel = snippet_kernel(PER_LANE)
    return kernel, record_runs(kernel, GlobalMemory(), 0, 2, 0)


@pytest.fixture(scope="module")
def measured(recorded):
    """The counts measured on two waves (wave 0: 2 trips, wave 1: 3)."""
    kernel, runs = recorded
    return measured_trips(parse_asm(PER_LANE).function(), runs, kernel.instrs)


def test_a_whole_run_is_timed_as_each_wave_executed_it(recorded):
    """driver/measured_trips.timed_whole: every instruction each wave executed, in its
    order (the inner loop's trips, the skipped block left out), timed together: wave 1's
    extra trips make the workgroup longer than wave 0 alone."""
    kernel, runs = recorded
    fn = parse_asm(PER_LANE).function()
    both = timed_whole(fn, runs, kernel.instrs)
    assert both.mfmas == (3, 3)
    muls = [k["valu"] for k in both.kinds]
    assert muls[1] - muls[0] == 3 * 3   # a trip more in each of 3 iterations: 3 VALU each
    executed = [sum(last - first + 1 for first, last in r) for r in runs]
    nops = sum(i.text.startswith("s_nop") for i in kernel.instrs)
    assert all(e - n <= x <= e for e, n, x in zip(executed, [nops] * 2, both.executed))
    alone = timed_whole(fn, runs[:1], kernel.instrs)
    assert all(both.cycles[t] > alone.cycles[t] > 0 for t in ("llvm", "measured"))


def _trips(body) -> int:
    return sum(1 for i in body if i.mnemonic == "v_mul_lo_u32" and i.operands[0] == "v15")


def test_each_wave_takes_the_trips_of_its_last_lane(measured):
    assert [w[".LBB0_2"] for w in measured.waves] == [(2,), (3,)]
    assert [w[".LBB0_3"] for w in measured.waves] == [(0,), (0,)]   # every lane skips it
    assert measured.loops == (".LBB0_2",) and measured.support == ((3, 3), (3, 3))
    assert "wave 1: trips .LBB0_2 3, 1 block runs skipped" in measured.describe()


def test_the_timed_iteration_is_what_the_wave_executed(measured):
    for w, counts in enumerate(measured.waves):
        said: list = []
        body = asm_main_loop(PER_LANE, said=said, measured=counts)
        assert _trips(body) == w + 2
        assert not any(i.line in (25, 26) for i in body)            # .LBB0_3 skipped
        assert len(body) == measured.executed[w]                   # the emulator's count
        assert said == [f"the inner loop at lines 12-17 (.LBB0_2) runs {w + 2} times per "
                        f"iteration of the main loop (measured on the emulator)"]


def test_n_trips_cost_n_bodies():
    """One wave, the loop's count given: each trip more adds the same cycles."""
    def cycles(n: int) -> float:
        counts = {".LBB0_2": (n,), ".LBB0_3": (0,)}
        return simulate_asm_loop(PER_LANE, 1, 6, "measured", measured=(counts,)).achieved_ii

    one, two, five = cycles(1), cycles(2), cycles(5)
    assert two > one and five - one == pytest.approx(4 * (two - one))


def test_each_wave_is_timed_with_its_own_counts(measured):
    both = simulate_asm_loop(PER_LANE, 2, 6, "measured", measured=measured.waves)
    starts = both.iteration_starts                      # wave -> iteration starts
    per = {w: (s[-1] - s[1]) / (len(s) - 2) for w, s in starts.items()}
    assert per[1] > per[0]                              # 3 trips take longer than 2


def test_a_loop_without_a_measured_count_is_still_refused_by_name(measured):
    counts = dict(measured.waves[0])
    del counts[".LBB0_2"]
    with pytest.raises(InnerLoopError, match=r"the inner loop at lines 12-17 \(\.LBB0_2\): "
                                             r"its trip count is not stated"):
        asm_main_loop(PER_LANE, measured=counts)
    with pytest.raises(InnerLoopError, match=r"the inner loop at lines 12-17"):
        simulate_asm_loop(PER_LANE, 2, 3, "measured")


def test_counts_that_do_not_fit_the_loop_nest_are_refused(measured):
    counts = dict(measured.waves[0]) | {".LBB0_2": (2, 2)}
    with pytest.raises(InnerLoopError, match=r"the trip counts measured for \.LBB0_2 are "
                                             r"more than the loop nest runs"):
        asm_main_loop(PER_LANE, measured=counts)


def test_an_assembly_that_is_not_the_code_objects_is_refused():
    """The counts are read against the assembly's loops: an assembly whose instructions
    differ from the ones the emulator ran (here two swapped) cannot be matched."""
    kernel = snippet_kernel(PER_LANE)
    runs = record_runs(kernel, GlobalMemory(), 0, 2, 0)
    other = PER_LANE.replace("\tv_add_u32_e32 v14, 1, v14\n\tv_mul_lo_u32 v15, v14, v14\n",
                             "\tv_mul_lo_u32 v15, v14, v14\n\tv_add_u32_e32 v14, 1, v14\n")
    assert other != PER_LANE
    with pytest.raises(EmuError, match=r"the code object's instruction at 0x[0-9a-f]{4} "
                                       r"\('v_add_u32_e32 v14, 1, v14'\) is not the "
                                       r"assembly's at line 12 'v_mul_lo_u32': their loops "
                                       r"cannot be matched"):
        measured_trips(parse_asm(other).function(), runs, kernel.instrs)


#: PER_LANE with the scheduling pseudo-instructions LLVM prints as comments (no encoding:
#: the code object has none of them) at the start of the main loop, of the inner loop, of
#: the skipped block and inside the inner loop
PSEUDOS = PER_LANE.replace(
    ".LBB0_1:\n", ".LBB0_1:\n; sched_barrier mask(0x00000000)\n").replace(
    ".LBB0_2:\n", ".LBB0_2:\n; sched_barrier mask(0x00000000)\n").replace(
    ".LBB0_3:\n", ".LBB0_3:\n; sched_group_barrier mask(0x00000008) size(1) SyncID(0)\n").replace(
    "\ts_or_b64 s[8:9], vcc, s[8:9]\n",
    "\ts_or_b64 s[8:9], vcc, s[8:9]\n; sched_barrier mask(0x00000000)\n")


def test_scheduling_pseudo_instructions_are_matched_away(measured):
    """Our own kernels' assembly holds ``; sched_barrier`` lines, instructions of the
    assembly that the code object does not hold: the counts are those of the same loop
    without them, and the timed iteration (which keeps them) is what the wave ran."""
    kernel = snippet_kernel(PSEUDOS)
    runs = record_runs(kernel, GlobalMemory(), 0, 2, 0)
    got = measured_trips(parse_asm(PSEUDOS).function(), runs, kernel.instrs)
    assert got.waves == measured.waves and got.loops == measured.loops
    for w, counts in enumerate(got.waves):
        body = asm_main_loop(PSEUDOS, measured=counts)
        pseudo = sum(i.mnemonic.startswith("sched_") for i in body)
        assert pseudo == 1 + 2 * (w + 2)               # the header's, two per inner trip
        assert len(body) == got.executed[w] == measured.executed[w] + pseudo


DISPATCH = Path(__file__).parents[3] / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"


@pytest.mark.parametrize("text, sizes, message", [
    ("func.func @f() {\n  return\n}\n", (64, 64, 64),
     r"^d\.mlir: the input has no kernel to launch"),
    (DISPATCH.read_text(), (512, 4096, 4096),
     r"^d\.mlir: M = 512, N = 4096, K = 4096 disagree with the sizes compiled into kernel "
     r"matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32: M=4096 N=4096 K=4096"),
    (DISPATCH.read_text().replace("%37 = arith.subi %35, %36", "%37 = arith.subi %45#1, %36"),
     (4096, 4096, 4096), r"^d\.mlir:82:30: '%45' is used before its definition at line 90")],
    ids=["not-a-matmul", "other-sizes", "value-cycle"])
def test_a_launch_the_dispatch_cannot_make_is_a_pipeline_error(text, sizes, message):
    """``dispatch_launch`` let the front end's refusal through as the driver's internal
    diagnostics (which ``bench_iree --ratios``, catching PipelineError, did not catch), and
    launched a static dispatch at any sizes it was given, running its own."""
    with pytest.raises(PipelineError, match=message):
        dispatch_launch(text, sizes, "d.mlir")


def test_a_dispatch_in_an_older_iree_syntax_is_read_as_the_compiler_reads_it():
    """``--sim-trips``'s dispatch is parsed here, not by the compiler: without the legacy
    upgrade a dispatch in wave-lang 3.9's syntax (``blgp = none`` after each MFMA) did not
    parse.  It is read as today's text is (the same refusal at other sizes)."""
    import re

    old = re.sub(r"(amdgpu\.mfma\b[^:\n]*?)(\s*:)", r"\1 blgp = none\2", DISPATCH.read_text())
    assert old.count("blgp = none") == 16
    with pytest.raises(PipelineError, match=r"^d\.mlir: M = 512, N = 4096, K = 4096 disagree"):
        dispatch_launch(old, (512, 4096, 4096), "d.mlir")
