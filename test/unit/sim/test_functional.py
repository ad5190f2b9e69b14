"""The functional model (pipeline_mlir/sim/functional.py), the dump reader and the kernel fixes.

Hand-worked cases first (a small double-buffer schedule written in the debug format,
whose hazards are worked out by hand in the comments), then the reference schedules
(the ping-pong ones simulate clean; the 4-wave ones have hazards, reported as
findings), mutants of the ping-pong schedule, and properties over random valid
configurations (6 drawn per property in the default run, 12 in the long tier:
``PIPELINE_TEST_LONG=1``, ``long_tier.py``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import long_tier

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.plan import KernelShape, kernel_plan
from pipeline_mlir.schedule.printing import DumpError, format_schedule, parse_schedule
from pipeline_mlir.schedule.targets import MATMUL_TAG_NAMES
from pipeline_mlir.schedule.types import BARRIER, OpDesc, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.repair import RepairError, _first_hazard, _tighten, repair
from pipeline_mlir.sim.trace import MATMUL_ROLES, group_trace, kernel_shape

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "reference"
SHIPPED = ("pingpong{is_fp8=false}", "pingpong{is_fp8=true}",
           "4wave{dtype=bf16 BM=128 BN=128 BK=64}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
           "4wave{dtype=fp8 BM=64 BN=64 BK=128}")


def parse(text: str, name: str = "t"):
    return parse_schedule(text, MATMUL_TAG_NAMES, MATMUL_ROLES, name)


#: the reference's ping-pong configuration, which its dump pingpong_bf16_l2_2 runs (the
#: pipeline's defaults are its complete kernel's counts)
REFERENCE_PINGPONG = ("pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 "
                      "lgkm_per_load_b=2 waits=block}")


def golden(stem: str) -> str:
    path = GOLDEN / f"{stem}.txt"
    return path.read_text()


#: one group of 4 waves (the 4-wave kernel, with its zero-trip fence), 2 vm and 2 lgkm
#: instructions per load, one MFMA per MMA
SHAPE = KernelShape("4wave", 1, 4, (2, 2), (2, 2), 1, "v_mfma_f32_16x16x32_bf16",
                    zero_trip_fence=True)


def dump(pro: list[str], krn: list[str], epi: list[str], stagger: int = 99) -> str:
    out = [f"WARP_STAGGER_INDEX {stagger}"]
    for label, prefix, entries in (("PROLOGUE", "PRO", pro), ("KERNEL", "KRN", krn),
                                   ("EPILOGUE", "EPI", epi)):
        out += [f"{label} ({len(entries)} entries)", "-" * 80]
        for i, e in enumerate(entries):
            name, *rest = e.split()
            f = dict(x.split("=") for x in rest)
            out.append(f"{prefix} [{i}] {name:<15} s={f.get('s', 0)} sub={f.get('sub', 0)} "
                       f"k={f.get('k', '-'):<5} wait={f.get('wait', 0)} pf=False")
    return "\n".join(out) + "\n"


# A minimal double-buffer kernel, safe by hand: the prologue loads tiles 0 (stage 0) and
# 1 (stage 1): 8 vm instructions; VM(4) leaves stage 1's 4 in flight, so stage 0 is
# complete, and the barrier makes every wave's rows visible.  Each half reads its stage,
# waits LGKM(0) (the reads are complete), computes, meets at a barrier (so no wave still
# reads the stage) and refills the stage with the tile two ahead; VM(4) then completes
# the other stage (only the 4 instructions just issued stay in flight) before the next
# half's barrier.  The epilogue reads the last two tiles.
PRO = ["LOAD_A s=0 k=K0", "LOAD_B s=0 k=K0", "LOAD_A s=1 k=K1", "LOAD_B s=1 k=K1",
       "WAIT_VM wait=4", "BARRIER"]
HALF = ["MMA_LOAD_A s={s}", "MMA_LOAD_B s={s}", "WAIT_LGKM wait=0", "MMA", "BARRIER",
        "LOAD_A s={s} k=K{s}", "LOAD_B s={s} k=K{s}", "WAIT_VM wait=4", "BARRIER"]
KRN = [e.format(s=0) for e in HALF] + [e.format(s=1) for e in HALF]
EPI = ["MMA_LOAD_A s=0", "MMA_LOAD_B s=0", "WAIT_LGKM wait=0", "MMA", "WAIT_VM wait=0",
       "BARRIER", "MMA_LOAD_A s=1", "MMA_LOAD_B s=1", "WAIT_LGKM wait=0", "MMA"]


def run_hand(pro=PRO, krn=KRN, epi=EPI, shape=SHAPE, iterations=range(0, 4)):
    return simulate(parse(dump(pro, krn, epi)), shape, iterations)


def test_hand_worked_kernel_is_safe_and_covers_every_tile():
    res = run_hand()
    assert res.safe, res.first_hazard()
    for r in res.runs:
        assert r.accumulators == {(0, 0, 0): list(range(2 * (r.iterations + 1)))}
        assert r.max_outstanding == (8, 4)
    # no explicit wait is missing before an MMA
    assert res.distinct_implicit_waits() == []


def test_hand_worked_weak_prologue_wait_is_a_raw_hazard():
    # VM(6) completes only LOAD_A stage 0 (6 instructions were issued after it); LOAD_B
    # stage 0 may still be in flight when the first kernel half reads it.
    pro = list(PRO)
    pro[4] = "WAIT_VM wait=6"
    h = run_hand(pro=pro).first_hazard()
    assert (h.kind, h.counter, h.phase, h.entry, h.iteration) == ("raw", "vmcnt", "kernel", 1, 0)
    assert h.iterations == 1
    assert "MMA_LOAD_B s=0 sub=0 reads LDS B stage 0 subtile 0" in h.message
    assert "no vmcnt wait of the waves ever covers" not in h.message   # a later wait covers it
    assert "not followed by a barrier" in h.message


def test_hand_worked_missing_barrier_before_a_read_is_a_raw_hazard():
    # without the prologue's barrier each wave has waited for its own rows only
    pro = PRO[:5]
    h = run_hand(pro=pro).first_hazard()
    assert (h.kind, h.phase, h.entry) == ("raw", "kernel", 0)
    assert h.iterations == 1


def test_hand_worked_missing_barrier_before_a_refill_is_a_war_hazard():
    # the barrier between the half's reads and its refill of the same stage
    krn = KRN[:4] + KRN[5:]
    h = run_hand(krn=krn).first_hazard()
    assert (h.kind, h.counter, h.phase, h.entry) == ("war", "lgkmcnt", "kernel", 0)
    assert "LOAD_A s=0 sub=0 (K tile 2)" in h.message


def test_hand_worked_read_never_waited_is_a_war_hazard_and_an_implicit_wait():
    # no LGKM wait in the first half: the read may be in flight when the refill lands
    krn = [e for i, e in enumerate(KRN) if i != 2]
    res = run_hand(krn=krn)
    h = res.first_hazard()
    assert h.kind == "war" and "no lgkmcnt wait ever covers the read" not in h.message
    # the MMA right after reads fragments no explicit wait covers: LLVM adds one
    implicit = res.distinct_implicit_waits()
    assert [(w.phase, w.entry, w.fragment) for w in implicit] == [
        ("kernel", 2, "A subtile 0"), ("kernel", 2, "B subtile 0")]


def test_hand_worked_counter_limit():
    # lgkm: two fragment loads of 8 instructions would be 16 outstanding, one over what
    # lgkmcnt holds (15): the hardware stalls the second until the first instruction of the
    # first completes -- no hazard, at most 15 in flight
    shape = replace(SHAPE, lgkm_per_load=(8, 8))
    res = run_hand(shape=shape)
    assert res.safe, res.first_hazard()
    assert max(r.max_outstanding[1] for r in res.runs) == 15
    # a wait value over the limit cannot be encoded: a hazard
    pro = PRO[:4] + ["WAIT_VM wait=64"] + PRO[5:]
    h = run_hand(pro=pro).first_hazard()
    assert h.kind == "counter" and "vmcnt(64) is over the hardware limit 63" in h.message


def test_repair_adds_nothing_for_a_full_counter():
    """A fragment load that would overflow lgkmcnt stalls until there is room (the hardware
    does it): the repair adds no wait for it, and the schedule is safe as it is."""
    shape = replace(SHAPE, lgkm_per_load=(8, 8))
    fixed = repair(parse(dump(PRO, KRN, EPI)), shape, range(0, 4))
    assert not fixed.fixes
    assert simulate(fixed, shape, range(0, 4)).safe
    # a wait over the limit is the schedule's error (the lowering refuses it): not repaired
    pro = PRO[:4] + ["WAIT_VM wait=64"] + PRO[5:]
    with pytest.raises(RepairError, match=r"vmcnt\(64\) is over the hardware limit 63"):
        repair(parse(dump(pro, KRN, EPI)), SHAPE, range(0, 4))


def test_repair_fixes_the_hazard_simulate_finds_first():
    """The repair simulates the iteration counts in their order only up to the first whose
    run has a hazard: that hazard is simulate's first, in that run, for any order."""
    broken = [(PRO[:4] + ["WAIT_VM wait=6"] + PRO[5:], KRN), (PRO[:5], KRN),
              (PRO, KRN[:4] + KRN[5:]), (PRO, [e for i, e in enumerate(KRN) if i != 2])]
    for pro, krn in broken:
        sched = parse(dump(pro, krn, EPI))
        for counts in (range(0, 4), range(3, -1, -1), (2, 0)):
            run, h = _first_hazard(sched, SHAPE, counts)
            assert h is not None and h == simulate(sched, SHAPE, counts).first_hazard()
            assert run.n == h.iterations and run.result.hazards[0] is h
    assert _first_hazard(parse(dump(PRO, KRN, EPI)), SHAPE, range(0, 4)) == (None, None)


def test_a_guard_merged_into_another_wait_is_a_guard_only_if_both_are():
    """A lone wait right after one of its counter tightens that one (repair's _tighten): the
    result is an overflow guard only if both were."""
    def tightened(old: OpDesc, new: OpDesc) -> OpDesc:
        entries = [ScheduleEntry(old, 0, Phase.KERNEL), ScheduleEntry(OpDesc.barrier(), 1,
                                                                      Phase.KERNEL)]
        index, (op,), replaces = _tighten(entries, 1, (new,))
        assert (index, replaces) == (0, 1)
        return op

    guard = OpDesc.wait_lgkm(7).with_(overflow_guard=True)
    op = tightened(OpDesc.wait_lgkm(9), guard)
    assert (op.wait_value, op.overflow_guard) == (7, False)
    op = tightened(guard, OpDesc.wait_lgkm(3))
    assert (op.wait_value, op.overflow_guard) == (3, False)
    op = tightened(guard, OpDesc.wait_lgkm(5).with_(overflow_guard=True))
    assert (op.wait_value, op.overflow_guard) == (5, True)


def test_wait_completes_instructions_in_order():
    """WAIT_LGKM(n) leaves at most n instructions outstanding even when that splits the
    oldest load: A (2) + B (12) = 14 outstanding, LGKM(13) completes one of A's two, then A
    again makes 15; after LGKM(12), 14; after LGKM(14) A would make 16, one more than the
    counter holds: the issue stalls until one completes (15, no hazard)."""
    shape = replace(SHAPE, lgkm_per_load=(2, 12))

    def most_in_flight(wait):
        half = ["MMA_LOAD_A s={s}", "MMA_LOAD_B s={s}", f"WAIT_LGKM wait={wait}",
                "MMA_LOAD_A s={s}", "WAIT_LGKM wait=0", "MMA", "BARRIER", "LOAD_A s={s} k=K{s}",
                "LOAD_B s={s} k=K{s}", "WAIT_VM wait=4", "BARRIER"]
        krn = [e.format(s=0) for e in half] + [e.format(s=1) for e in half]
        res = run_hand(krn=krn, shape=shape)
        assert not [h for r in res.runs for h in r.hazards if h.kind == "counter"]
        return max(r.max_outstanding[1] for r in res.runs)

    assert (most_in_flight(12), most_in_flight(13), most_in_flight(14)) == (14, 15, 15)


def test_repair_separates_the_warp_groups_with_barriers_both_run():
    """pingpong{lds_contention_penalty=4} reads a slot in warp group 1 that group 0, one
    block ahead, refills: the repair needs two barriers between the read's wait and the
    load, inserts what is missing into the phases both groups run, and the barrier
    counts stay equal."""
    schedule = gemm_kernel(parse_pipeline("pingpong{lds_contention_penalty=4}")).schedule
    compiled = schedule.compile()
    shape = kernel_shape(schedule)
    before = simulate(compiled, shape)
    assert any(h.kind == "war" and h.group != h.peer >= 0
               for r in before.runs for h in r.hazards)
    fixed = repair(compiled, shape)
    after = simulate(fixed, shape)
    assert after.safe
    for r in after.runs:
        assert len(set(r.barriers)) == 1


def test_hand_worked_wrong_tiles():
    # the epilogue forgets stage 1: the last tile is never accumulated
    res = run_hand(epi=EPI[:4])
    h = res.first_hazard()
    assert h.kind == "data-flow"
    assert h.message.startswith("accumulator (0,0): received K tiles [0]; with 0 main-loop "
                                "iterations it must receive tiles 0..1 once each")
    # an MMA of A and B fragments of different K tiles
    epi = ["MMA_LOAD_A s=0", "MMA_LOAD_B s=1", "WAIT_LGKM wait=0", "MMA"] + EPI[4:]
    h = run_hand(epi=epi).first_hazard()
    assert h.kind == "tiles" and "multiplies A of K tile 0 with B of K tile 1" in h.message


def test_hand_worked_read_of_an_empty_slot():
    pro = ["LOAD_A s=0 k=K0", "WAIT_VM wait=0", "BARRIER"]
    h = run_hand(pro=pro).first_hazard()
    assert h.kind == "empty-slot" and "reads LDS B stage 0 subtile 0, which no global load" \
        in h.message


def test_trace_follows_the_kernel_structure():
    pp = parse(golden("pingpong_bf16_l2_2"))
    shape = kernel_shape(parse_pipeline(REFERENCE_PINGPONG))
    g0, g1 = (group_trace(kernel_plan(pp, shape), g, 1) for g in (0, 1))
    # group 1 runs its extra barrier at the stagger index (4), everyone joins after the
    # prologue, and group 0 re-aligns after the epilogue
    assert [s.phase for s in g1[:6]] == ["prologue"] * 4 + ["stagger", "prologue"]
    assert [s.phase for s in g0 if s.entry < 0] == ["join", "realign"]
    assert [s.phase for s in g1 if s.entry < 0] == ["stagger", "join"]
    assert sum(s.op.tag == BARRIER for s in g0) == sum(s.op.tag == BARRIER for s in g1)
    # K tiles: prologue 0/1, the iteration at k base 2 loads 2/3 and K_PREV reloads 1
    tiles = [(s.phase, s.op.k_offset.name, s.k_tile) for s in g0 if s.k_tile is not None]
    assert ("kernel", "K_PREV", 1) in tiles and ("kernel", "K1", 3) in tiles
    assert ("epilogue", "K_PREV", 3) in tiles
    # 4-wave, zero trips: the reference kernel's fence
    w4 = parse(golden("4wave_bf16_128x128x64"))
    shape4 = kernel_shape(parse_pipeline("4wave"))
    fence = [s for s in group_trace(kernel_plan(w4, shape4), 0, 0) if s.phase == "fence"]
    assert [s.op.tag for s in fence][-1] == BARRIER and len(fence) == 3
    assert not [s for s in group_trace(kernel_plan(w4, shape4), 0, 1) if s.phase == "fence"]


# ---- the reference schedules ---------------------------------------------------------------

@pytest.mark.parametrize("stem", ["pingpong_bf16_l2_2", "4wave_bf16_128x128x64",
                                  "4wave_fp8_128x128x128"])
def test_dump_round_trip(stem):
    text = golden(stem)
    assert format_schedule(parse(text, stem)) == text


def test_reference_pingpong_schedules_simulate_clean():
    res = simulate(parse(golden("pingpong_bf16_l2_2")), kernel_shape(parse_pipeline(REFERENCE_PINGPONG)))
    assert res.safe, res.first_hazard()
    assert all(r.barriers[0] == r.barriers[1] for r in res.runs)
    for spec in SHIPPED[:2]:     # the production ping-pong configurations
        k = gemm_kernel(parse_pipeline(spec))
        res = simulate(k.schedule.compile(), kernel_shape(k.schedule))
        assert res.safe, (spec, res.first_hazard())


@pytest.mark.parametrize("stem,spec", [("4wave_bf16_128x128x64", "4wave"),
                                       ("4wave_fp8_128x128x128",
                                        "4wave{dtype=fp8 BM=128 BN=128 BK=128}")])
def test_reference_4wave_schedules_have_hazards(stem, spec):
    """A finding: the reference 4-wave schedules are not hazard-free under the memory
    model.  With one or more main-loop iterations (a) the fragment read of B stage 0/1
    subtile 0 that the top-of-half LGKM(lgkm_per_load) leaves in flight across the barrier
    may be overwritten by the next B prefetch of that slot (WAR), and (b) the epilogue
    reads LDS that every wave waited for but no barrier made visible to the other waves
    (RAW).  With zero iterations the kernel's fence (vmcnt(0), lgkmcnt(0), barrier) hides
    both."""
    res = simulate(parse(golden(stem)), kernel_shape(parse_pipeline(spec)))
    assert res.runs[0].hazards == []                    # zero trips: fenced
    found = {(h.kind, h.phase, h.entry) for h, _ in res.distinct_hazards()}
    kinds = {k for k, _, _ in found}
    assert kinds == {"war", "raw"}
    assert ("war", "prologue", 13) in found
    raws = sorted(e for k, p, e in found if k == "raw")
    assert [p for k, p, e in found if k == "raw"] == ["epilogue"] * 6
    assert raws == [1, 5, 9, 13, 17, 21]
    for h, ns in res.distinct_hazards():
        assert ns[0] >= 1


def test_the_shipped_kernels_are_hazard_free():
    """Every kernel the project ships runs its schedule with sched-fix-hazards' changes."""
    for spec in SHIPPED:
        k = gemm_kernel(parse_pipeline(spec))
        compiled = k.schedule.compile()
        shape = kernel_shape(k.schedule)
        fixed = repair(compiled, shape)
        assert simulate(fixed, shape).safe, spec
        if spec.startswith("pingpong"):
            assert fixed.fixes == []
        else:
            assert [(f.phase, tuple(o.tag for o in f.ops)) for f in fixed.fixes] == [
                ("kernel", (130,)), ("kernel", (130,)), ("epilogue", (128, 132)),
                ("epilogue", (128, 132)), ("kernel", ()), ("epilogue", (129,))]
            assert all(o.wait_value == 0 for f in fixed.fixes[:2] for o in f.ops)
            # the loop's last vmcnt wait went to its exit, and the exit needs it
            moved = fixed.fixes[-1].ops[0]
            assert moved in [e.op for e in compiled.kernel[fixed.fixes[-2].index:][:fixed.fixes[-2].replaces]]
            assert fixed.epilogue[0].op == moved and moved.wait_value > 0
            del fixed.epilogue[0]
            assert not simulate(fixed, shape).safe, spec
        # the printed schedule is untouched
        assert format_schedule(compiled) == format_schedule(k.schedule.compile())


# ---- mutants of the ping-pong schedule -----------------------------------------------------

def _mutant(edit):
    s = parse(golden("pingpong_bf16_l2_2"))
    edit(s)
    return simulate(s, kernel_shape(parse_pipeline(REFERENCE_PINGPONG)))


def test_mutant_weakened_wait_is_caught():
    def weaken(s):   # KRN[29] VM(12) -> VM(13): LOAD_B stage 0 subtile 0 not covered
        s.kernel[29] = replace(s.kernel[29], op=s.kernel[29].op.with_(wait_value=13))
    h = _mutant(weaken).first_hazard()
    assert (h.kind, h.counter, h.iterations) == ("raw", "vmcnt", 1)


def test_mutant_load_before_the_fragment_it_overwrites_is_caught():
    def move(s):     # the B prefetch of stage 0 subtile 0 ahead of its own fragment read
        s.kernel.insert(0, s.kernel.pop(12))
    h = _mutant(move).first_hazard()
    # the read now comes after the load into its slot: it reads rows the DMA is writing
    assert (h.kind, h.counter, h.phase, h.entry) == ("raw", "vmcnt", "kernel", 1)
    assert "written by LOAD_B s=0 sub=0 (K tile 2) at kernel entry 0" in h.message


@pytest.mark.parametrize("index,kind", [(9, "war"), (30, "raw"), (65, "raw")])
def test_mutant_removed_barrier_is_caught(index, kind):
    def drop(s):
        assert s.kernel[index].op.tag == BARRIER
        del s.kernel[index]
    assert _mutant(drop).first_hazard().kind == kind


@pytest.mark.parametrize("flag", ["stagger_barrier", "realign_barrier"])
def test_mutant_missing_extra_barrier_of_one_warp_group_deadlocks(flag):
    shape = replace(kernel_shape(parse_pipeline(REFERENCE_PINGPONG)), **{flag: False})
    res = simulate(parse(golden("pingpong_bf16_l2_2")), shape)
    h = res.first_hazard()
    assert h.kind == "deadlock"
    assert "warp group 0: 16, warp group 1: 15" in h.message or \
        "warp group 0: 15, warp group 1: 16" in h.message


# ---- the dump reader -----------------------------------------------------------------------

GOOD = dump(PRO, KRN, EPI)


@pytest.mark.parametrize("edit,where,message", [
    (lambda t: t.replace("WARP_STAGGER_INDEX 99", "STAGGER 99"), ":1:",
     "expected 'WARP_STAGGER_INDEX <n>'"),
    (lambda t: t.replace("KERNEL (18 entries)", "KERNEL (19 entries)"), ":",
     "KERNEL announces 19 entries"),
    (lambda t: t.replace("PRO [1] LOAD_B", "PRO [2] LOAD_B"), ":5:",
     "entry index [2], expected [1]"),
    (lambda t: t.replace("PRO [1] LOAD_B         ", "PRO [1] LOAD_C         "), ":5:",
     "unknown op 'LOAD_C'"),
    (lambda t: t.replace("PRO [0] LOAD_A          s=0 sub=0 k=K0", "PRO [0] LOAD_A          "
                                                                   "s=0 sub=0 k=K7"), ":4:",
     "field 'k' is 'K7'"),
    (lambda t: t.replace("KRN [0]", "EPI [0]"), ":12:", "entry prefix 'EPI'"),
    (lambda t: t.replace("PRO [5] BARRIER         s=0", "PRO [5] BARRIER         s=1"), ":9:",
     "BARRIER carries s=1"),
    (lambda t: t.replace("-" * 80, "-" * 79, 1), ":3:", "80 dashes"),
    (lambda t: t.split("EPILOGUE")[0], "", "no EPILOGUE section"),
    (lambda t: t.replace("WAIT_VM         s=0 sub=0 k=-     wait=4 pf=False",
                         "WAIT_VM s=0 sub=0 wait=4", 1), ":8:", "expected an entry"),
])
def test_dump_errors_name_file_line_and_field(edit, where, message):
    with pytest.raises(DumpError) as info:
        parse_schedule(edit(GOOD), MATMUL_TAG_NAMES, MATMUL_ROLES, "x.txt")
    text = str(info.value)
    assert text.startswith("x.txt" + where) and message in text, text


def test_shape_rejects_schedules_without_lds_stages_and_bad_stagger():
    with pytest.raises(ConfigError, match="single-buffer"):
        kernel_shape(parse_pipeline("single-buffer"))
    pp = parse(golden("pingpong_bf16_l2_2"))
    pp.warp_stagger_index = 11
    with pytest.raises(ConfigError, match="past the prologue's 10 entries"):
        simulate(pp, kernel_shape(parse_pipeline(REFERENCE_PINGPONG)))


# ---- properties ----------------------------------------------------------------------------

#: each property's examples: the long tier's 12, the default run's 6 (new ones every run)
_PROPS = settings(max_examples=12 if long_tier.runs_long(os.environ) else 6, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])


@_PROPS
@given(vm_a=st.integers(1, 8), vm_b=st.integers(1, 8), lg_a=st.integers(1, 8),
       lg_b=st.integers(1, 8), max_globals=st.integers(0, 2))
def test_property_pingpong_configurations(vm_a, vm_b, lg_a, lg_b, max_globals):
    spec = (f"pingpong{{vm_per_load_a={vm_a} vm_per_load_b={vm_b} lgkm_per_load_a={lg_a} "
            f"lgkm_per_load_b={lg_b} max_globals={max_globals}}}")
    _check_configuration(spec)


@_PROPS
@given(dtype=st.sampled_from(["bf16", "f16", "fp8"]), bm=st.sampled_from([64, 128, 256]),
       bn=st.sampled_from([64, 128, 256]), bk=st.sampled_from([64, 128]))
def test_property_4wave_configurations(dtype, bm, bn, bk):
    _check_configuration(f"4wave{{dtype={dtype} BM={bm} BN={bn} BK={bk}}}")


def _check_configuration(spec):
    """No crash: every valid configuration simulates to a verdict; the kernel's fixed
    phases are hazard-free, or the repair says why it cannot be (never another error)."""
    try:
        schedule = parse_pipeline(spec)
        compiled = schedule.compile()
        shape = kernel_shape(schedule)
    except ConfigError:
        assume(False)
        return
    except Exception as e:  # the scheduling core's own errors are not this test's business
        from pipeline_mlir.errors import PipelineError
        if isinstance(e, PipelineError):
            assume(False)
            return
        raise
    res = simulate(compiled, shape, range(0, 4))
    for r in res.runs:
        assert len(set(r.barriers)) == 1
    try:
        fixed = repair(compiled, shape, range(0, 4))
    except RepairError as e:
        # only what no wait fixes: a load larger than its counter, or a derived wait over
        # a counter's limit (the lowering refuses it: the configuration does not build)
        assert ("instructions, more than" in str(e) and max(
            shape.lgkm_per_load + tuple(x - 48 for x in shape.vm_per_load)) > 15) or \
            "over the hardware limit" in str(e), str(e)
        return
    after = simulate(fixed, shape, range(0, 4))
    assert after.safe
    for r in after.runs:
        assert len(set(r.barriers)) == 1


_FLAGS = ("minimal_barriers", "omit_mma_set_prio", "global_before_frag", "barrier_before_pre_ops",
          "inter_block_lgkm_drain", "auto_drain", "lgkm_after_last",
          "wrap_waits_with_sched_barrier", "partial_prologue_drain")


@_PROPS
@given(fp8=st.booleans(), lg=st.tuples(st.integers(1, 8), st.integers(1, 8)),
       vm=st.tuples(st.integers(1, 4), st.integers(1, 4)), max_globals=st.integers(0, 2),
       scheduling=st.sampled_from(["csp", "greedy", "identity"]),
       penalty=st.sampled_from([0, 1, 4, 8]), flags=st.sets(st.sampled_from(_FLAGS)),
       masks=st.tuples(st.integers(0, 255), st.integers(0, 255)))
def test_property_pingpong_schedule_configs_build_hazard_free_kernels(
        fp8, lg, vm, max_globals, scheduling, penalty, flags, masks):
    """Any ping-pong configuration whose schedule compiles, ScheduleConfig knobs included,
    gets a hazard-free kernel from sched-fix-hazards (unless its own derived waits are over
    a counter's limit, which the lowering refuses)."""
    keys = [f"is_fp8={str(fp8).lower()}", f"lgkm_per_load_a={lg[0]}", f"lgkm_per_load_b={lg[1]}",
            f"vm_per_load_a={vm[0]}", f"vm_per_load_b={vm[1]}", f"max_globals={max_globals}",
            f"scheduling={scheduling}"]
    # only the knobs this configuration reads (the others are an error saying why)
    if scheduling == "csp":
        keys.append(f"lds_contention_penalty={penalty}")
    if "auto_drain" not in flags:
        keys.append(f"drain_lgkm_mask={masks[0]}")
    if "minimal_barriers" in flags:
        flags = flags - {"lgkm_after_last"}
    else:
        keys.append(f"sched_barrier_mask={masks[1]}")
        flags = flags - {"omit_mma_set_prio"}
    keys += [f"{f}=true" for f in sorted(flags)]
    _check_configuration("pingpong{" + " ".join(keys) + "}")


@pytest.mark.parametrize("spec", SHIPPED)
def test_the_kernel_pipeline_lowers_hazard_free_phases(spec):
    """What sched-fix-hazards leaves in the IR (the phases sched-lower-to-rocdl lowers into
    the shipped kernel) simulates clean, and differs from the schedule as printed exactly
    by the repair's fixes."""
    from pass_helpers import STEPS, import_text, run, schedule_of

    schedule = gemm_kernel(parse_pipeline(spec)).schedule
    text = run(import_text(schedule.spec()), *STEPS, "sched-fix-hazards")
    printed = schedule_of(text)
    kernel = parse(printed)
    shape = kernel_shape(schedule)
    assert simulate(kernel, shape).safe
    fixed = repair(schedule.compile(), shape)
    assert printed == format_schedule(fixed)
