"""Timing side of the simulator: cost tables, the single-wave model (== llvm-mca-22),
the CU model, bounds and the assembly glue."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.bounds import analyze_loop, max_cycle_ratio, rec_mii, res_mii
from pipeline_mlir.sim.costs import CostError, get_table
from pipeline_mlir.sim.cu_model import CUOptions, simulate_cu
from pipeline_mlir.sim.instr import PSEUDO_KINDS, Instr
from pipeline_mlir.sim.timing import (TimingInputError, asm_body, replicate, simulate_asm_loop,
                                      wave_streams)
from pipeline_mlir.sim.wave_model import simulate, steady_state_ii
from script_loader import load_script

DATA = Path(__file__).parents[1] / "data" / "mca"
EXPECTED = json.loads((DATA / "expected.json").read_text())
BODIES = sorted(EXPECTED["bodies"])


def _body(name):
    return asm_body((DATA / name).read_text())


def _issued(run, instrs):
    return [c for c, i in zip(run.issue, instrs) if i.kind not in PSEUDO_KINDS]


@pytest.mark.parametrize("name", BODIES)
def test_wave_model_equals_recorded_llvm_mca(name):
    body = _body(name)
    rec = EXPECTED["bodies"][name]
    for n in (1, 3):
        run = simulate(body, "llvm", n, mca_flat_lgkm=True)
        assert run.total == rec[str(n)]["total"], (name, n)
    run = simulate(body, "llvm", 1, mca_flat_lgkm=True)
    assert _issued(run, body) == rec["1"]["issued"]


@pytest.mark.skipif(shutil.which("llvm-mca-22") is None, reason="llvm-mca-22 not installed")
@pytest.mark.parametrize("name", BODIES)
def test_wave_model_equals_live_llvm_mca(name):
    record = load_script(DATA / "record.py", "mca_record")
    body = _body(name)
    for n in (1, 3):
        total, issued = record.run_mca(DATA / name, n)
        run = simulate(body, "llvm", n, mca_flat_lgkm=True)
        assert run.total == total, (name, n)
        if n == 1:
            assert _issued(run, body) == issued


@pytest.mark.parametrize("name", BODIES)
def test_cu_model_one_wave_degenerates_to_wave_model(name):
    body = _body(name)
    wave = simulate(body, "llvm", 3, mca_flat_lgkm=True)
    cu = simulate_cu([(0, body * 3)], "llvm", CUOptions(mca_flat_lgkm=True))
    assert cu.total == wave.total
    assert cu.waves[0].issue == wave.issue
    assert cu.waves[0].end == wave.end
    assert cu.deadlock is None


def test_flat_lgkm_quirk_is_optional():
    body = _body("flat_lgkm.s")
    hw = simulate(body, "llvm", 1)
    mca = simulate(body, "llvm", 1, mca_flat_lgkm=True)
    # hardware: lgkmcnt(0) waits only for the ds_read, not the global load
    assert hw.total < mca.total == EXPECTED["bodies"]["flat_lgkm.s"]["1"]["total"]
    assert hw.issue[2] == 6 and mca.issue[2] == 80


def test_measured_table_uses_clock_cycles():
    chain = [Instr("mfma", "v_mfma_f32_16x16x32_bf16", ("acc",), ("a", "b", "acc"))] * 4
    run = simulate(chain, "measured")
    assert run.issue == [0, 18, 36, 54]          # dependent latency 18
    indep = [Instr("mfma", "v_mfma_f32_16x16x32_bf16", (f"c{k}",), ("a", "b", f"c{k}"))
             for k in range(4)]
    assert simulate(indep, "measured").issue == [0, 16, 32, 48]   # XDL busy 16
    fp8 = [Instr("mfma", "v_mfma_f32_16x16x128_f8f6f4", (f"c{k}",), ("a", "b", f"c{k}"))
           for k in range(2)]
    assert simulate(fp8, "measured").issue == [0, 32]
    nop = [Instr("nop", "s_nop", value=3), Instr("valu", "v_add_u32_e32")]
    assert simulate(nop, "measured").issue == [0, 4]
    assert simulate(nop, "llvm").issue == [0, 1]


def _reads(n, tag="r"):
    return [Instr("ds_read", "ds_read_b128", defs=(f"{tag}{k}",)) for k in range(n)]


def test_measured_lds_issue_is_one_per_four_clocks_per_simd():
    """A SIMD issues one LDS instruction per 4 clocks (the scheduler serves each of the 4
    SIMDs every 4th clock, one instruction per category); TLX's 28 cycles per read were
    four chains of dependent reads, not an issue rate."""
    c = get_table("measured").cost(Instr("ds_read", "ds_read_b128"))
    assert dict(c.units)["LDS_ISSUE"] == 4 and c.latency == 69
    assert "one LDS instruction per 4 clocks" in c.source and "command FIFO" in c.source
    reads = _reads(8)
    assert simulate(reads, "measured").issue == list(range(0, 32, 4))
    one = simulate_cu([(0, reads)], "measured").waves[0]
    assert one.issue == list(range(0, 32, 4)) and one.end == [69 + t for t in one.issue]
    # two waves of one SIMD share its LDS issue: 8 reads in 32 clocks, alternating
    two = simulate_cu([(0, _reads(4, "a")), (0, _reads(4, "b"))], "measured")
    assert sorted(two.waves[0].issue + two.waves[1].issue) == list(range(0, 32, 4))


def test_measured_lds_pipe_serves_all_simds_in_issue_order():
    """The CU's LDS pipe sits behind a command FIFO: a read of another SIMD does not hold
    up the issue, it waits in the queue; reads are served in issue order, so no SIMD
    starves (4 cycles of the pipe per conflict-free ds_read_b128)."""
    run = simulate_cu([(s, _reads(12, f"s{s}_")) for s in range(4)], "measured")
    for w in run.waves:
        assert w.issue == list(range(0, 48, 4))          # never held up by the pipe
    lds = sorted((b for b in run.busy if b.unit == "LDS"), key=lambda b: b.start)
    assert [b.end - b.start for b in lds] == [4] * 48
    assert all(a.end <= b.start for a, b in zip(lds, lds[1:]))
    issued = [run.waves[b.wave].issue[b.index] for b in lds]
    assert issued == sorted(issued)                      # first come, first served
    # the pipe needs 48 x 4 cycles: the waves' last reads finish together, none starves
    last = [w.end[-1] for w in run.waves]
    assert max(last) == 47 * 4 + 69 and max(last) - min(last) < 16   # last slot: 188
    assert all(w.end[k] - w.issue[k] >= 69 for w in run.waves for k in range(12))


def test_cost_table_errors_and_defaults():
    with pytest.raises(CostError, match="unknown cost table 'fast'"):
        get_table("fast")
    t = get_table("llvm")
    with pytest.raises(CostError, match="v_mfma_f32_99x99_bf16.*not in the llvm cost table"):
        t.cost(Instr("mfma", "v_mfma_f32_99x99_bf16", origin=("asm", 12)))
    c = t.cost(Instr("valu", "v_some_new_op"))
    assert c.defaulted and c.latency == 1 and "v_some_new_op" in t.defaulted
    assert not t.cost(Instr("valu", "v_add_u32_e32")).defaulted
    run = simulate([Instr("salu", "s_brand_new")], "measured")
    assert run.defaulted == {"s_brand_new"}
    for name in ("llvm", "measured"):
        assert all(get_table(name).cost(Instr(k, n)).source for k, n in
                   [("ds_read", "ds_read_b128"), ("vmem_load_lds", "buffer_load_dwordx4"),
                    ("barrier", "s_barrier"), ("mfma", "v_mfma_f32_16x16x32_bf16")])


def _mfmas(n, acc="acc"):
    return [Instr("mfma", "v_mfma_f32_16x16x32_bf16", (f"{acc}{k}",), ("a", "b", f"{acc}{k}"))
            for k in range(n)]


def test_cu_mfma_pipe_shared_per_simd_and_parallel_across_simds():
    same = simulate_cu([(0, _mfmas(4)), (0, _mfmas(4))], "llvm")
    apart = simulate_cu([(0, _mfmas(4)), (1, _mfmas(4))], "llvm")
    assert sorted(same.waves[0].issue + same.waves[1].issue) == list(range(0, 32, 4))
    assert apart.waves[0].issue == apart.waves[1].issue == [0, 4, 8, 12]
    assert same.total > apart.total
    lost = [r for w in same.waves for r in w.reason if r]
    assert any(r == "mfma pipe busy" for r in lost)
    xdl = [b for b in same.busy if b.unit == "XDL"]
    assert len(xdl) == 8 and all(b.instance == "simd0" for b in xdl)


def test_cu_setprio_wins_arbitration():
    low = [Instr("valu", "v_add_u32_e32", (f"x{k}",)) for k in range(4)]
    high = [Instr("setprio", "s_setprio", value=1)] + [
        Instr("valu", "v_add_u32_e32", (f"y{k}",)) for k in range(4)]
    run = simulate_cu([(0, low), (0, high)], "llvm")
    # both ready at 0: wave 0 (lower index) issues first; from cycle 2 wave 1 has prio 1 and
    # takes the SIMD (and its VALU) every cycle until it is done
    assert run.waves[1].issue == [1, 2, 3, 4, 5]
    assert run.waves[0].issue == [0, 6, 7, 8]
    assert run.waves[1].reason[0] == "arbitration lost to wave 0"
    assert run.waves[0].reason[1] == "valu busy" and run.waves[0].stall[1] == 5
    same = simulate_cu([(0, low), (0, [Instr("setprio", "s_setprio", value=0)] + high[1:])],
                       "llvm")
    assert same.waves[0].issue != run.waves[0].issue


def test_cu_barrier_is_a_workgroup_rendezvous():
    slow = _mfmas(4) + [Instr("barrier", "s_barrier"), Instr("valu", "v_add_u32_e32", ("z",))]
    fast = [Instr("barrier", "s_barrier"), Instr("valu", "v_add_u32_e32", ("z",))]
    run = simulate_cu([(0, slow), (1, fast)], "measured")
    arrive = run.waves[0].issue[4]
    t = get_table("measured")
    assert run.waves[1].issue[1] == arrive + t.barrier_resume
    assert run.waves[1].reason[1] == "barrier"
    assert run.waves[1].stall[1] == arrive + t.barrier_resume - 1
    # the barrier's end is its release, also when the early wave's next instruction is a
    # compiler fence (issued, zero cycles, right after the barrier)
    fenced = [Instr("barrier", "s_barrier"), Instr("sched_barrier", "sched_barrier"),
              Instr("valu", "v_add_u32_e32", ("z",))]
    run = simulate_cu([(0, slow), (1, fenced)], "measured")
    rel = run.waves[0].issue[4] + t.barrier_resume
    assert run.waves[1].end[0] == rel and run.waves[1].end[1] == run.waves[1].issue[1] == 1


def test_cu_deadlock_is_reported_not_hung():
    two = [Instr("barrier", "s_barrier"), Instr("valu", "v_add_u32_e32"),
           Instr("barrier", "s_barrier")]
    one = [Instr("barrier", "s_barrier"), Instr("valu", "v_add_u32_e32")]
    run = simulate_cu([(0, two), (1, one)], "llvm")
    d = run.deadlock
    assert d is not None and d.waiting == {0: 1} and d.barriers == {0: 2, 1: 1}
    assert d.finished == (1,)
    assert "wave 0 at barrier #1" in d.message and "wave 1: 1" in d.message
    ok = simulate_cu([(0, two), (1, one)], "llvm", CUOptions(finished_waves_release_barriers=True))
    assert ok.deadlock is None and len(ok.waves[0].issue) == 3


def test_cu_bad_input_is_a_clear_error():
    with pytest.raises(PipelineError, match="wave 1: simd 4 is outside 0..3"):
        simulate_cu([(0, _mfmas(1)), (4, _mfmas(1))], "llvm")
    with pytest.raises(PipelineError, match=r"^the workgroup to simulate has no waves"):
        simulate_cu([], "llvm")
    with pytest.raises(TimingInputError, match="even number of waves"):
        wave_streams(_mfmas(1), 3, 2, stagger=True)
    with pytest.raises(TimingInputError, match="iterations must be >= 1"):
        replicate(_mfmas(1), 0)


def test_res_and_rec_mii():
    body = _mfmas(4) + [Instr("ds_read", "ds_read_b128", ("a",))]
    r = res_mii([(0, body), (0, body), (1, body)], "llvm")
    assert r.per_unit["XDL[simd0]"] == 32 and r.per_unit["XDL[simd1]"] == 16
    assert r.per_unit["LGKM[cu]"] == 3 and r.cycles == 32 and r.binding == "XDL[simd0]"
    # one accumulator chain: latency / distance 1
    acc = [Instr("mfma", "v_mfma_f32_16x16x32_bf16", ("c",), ("a", "b", "c"))]
    assert rec_mii(acc, "llvm").cycles == 4
    assert rec_mii(acc, "measured").cycles == 18
    # the load ring: a load waited for in the next iteration (vmcnt(0), 1 load per iteration)
    def ring(vm):
        return [Instr("wait", "s_waitcnt", vm=vm), Instr("valu", "v_add_u32_e32", ("p",), ("p",)),
                Instr("vmem_load", "buffer_load_dword", ("d",), ("p",))]
    rr = rec_mii(ring(0), "llvm")
    assert rr.cycles == 81 and sorted(rr.cycle) == [0, 1, 2]
    assert steady_state_ii(ring(0), "llvm") >= 81
    # vmcnt(1): the wait is for the load of two iterations back
    assert rec_mii(ring(1), "llvm").cycles == 40.5
    assert max_cycle_ratio(2, [(0, 1, 3, 0), (1, 0, 5, 2), (0, 0, 1, 1)])[0] == 4


def test_bounds_errors_say_what_is_wrong_with_the_loop():
    """In the terms of the loop given, not of the function that found it."""
    with pytest.raises(PipelineError, match=r"^the loop's iteration \(iter_streams\) holds no "
                                            r"instruction"):
        res_mii([(0, [])], "llvm")
    with pytest.raises(PipelineError, match=r"^the loop body \(one wave's iteration\) is empty"):
        rec_mii([], "llvm")
    with pytest.raises(PipelineError, match=r"^the dependence graph of the loop body: "
                                            r"instruction 1 of 2 has no edge out"):
        max_cycle_ratio(2, [(0, 1, 3, 1)])
    with pytest.raises(PipelineError, match=r"^the dependence graph of the loop body has a "
                                            r"cycle within one iteration \(instructions "
                                            r"\[0, 1\]\)"):
        max_cycle_ratio(2, [(0, 1, 3, 0), (1, 0, 5, 0)])
    run = simulate_cu([(0, _mfmas(2))], "llvm")
    with pytest.raises(PipelineError, match=r"^boundary='loop': iterations are delimited by "
                                            r"'barrier' or 'sched_barrier'"):
        analyze_loop(run, [(0, _mfmas(2))], "llvm", boundary="loop")


def test_analyze_kernel_loop_respects_bounds():
    body = _body("kernel_4wave_bf16.s")
    for table in ("llvm", "measured"):
        streams = wave_streams(body, 4, 4)
        run = simulate_cu(streams, table)
        a = analyze_loop(run, [(s, body) for s, _ in streams], table)
        assert run.deadlock is None
        assert a.achieved_ii >= a.min_ii - 1e-9
        assert all(0 < b <= 1 for b in a.mfma_busy.values())
        assert a.res.binding.startswith("XDL")
        assert len(a.iteration_starts[0]) == 4
        nbar = sum(1 for i in body if i.kind == "barrier")
        assert [b.block for b in a.blocks] == list(range(nbar + 1))
        waits = sum(1 for i in body if i.kind == "wait")
        assert len(a.waits) == waits and all(w.occurrences == 4 * 2 for w in a.waits)


def test_simulate_asm_loop_pingpong_staggered():
    text = (DATA / "kernel_pingpong_bf16.s").read_text()
    a = simulate_asm_loop("kernel:\n" + text, 8, 3, "llvm", stagger=True)
    assert a.run.deadlock is None
    assert [w.barriers for w in a.run.waves] == [a.run.waves[0].barriers] * 8
    assert a.achieved_ii >= a.min_ii
    unstaggered = simulate_asm_loop("kernel:\n" + text, 8, 3, "llvm")
    assert unstaggered.run.total != a.run.total
