"""The tuner's search (pipeline_mlir.sim.tune): choice, refusals, budget, determinism.

Most tests replace the simulator (``evaluate_fn``), the kernel build (``build``) and the
assembly's timing (``time_fn``) by tables of made-up kernels and cycles, so that the search
itself is what is checked; one runs the real simulator."""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.analysis.lds_access import kernel_lds
from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.schedules.knobs import Knob
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim import tune as T

PP = parse_pipeline("pingpong")
SMALL = "4wave{dtype=fp8 BM=64 BN=64 BK=128}"


def fake(cycles_of):
    """An evaluator: ``cycles_of(spec) -> (measured, llvm)`` or a refusal string."""
    def evaluate(schedule):
        got = cycles_of(schedule.spec())
        if isinstance(got, str):
            return {}, {}, got
        m, l = got
        return {"measured": m, "llvm": l}, {"measured": 0.5, "llvm": 0.9}, None
    return evaluate


def built(kernel_of, asm_cycles, spills_of=lambda text: 0):
    """(build, time_fn, spills_fn): ``kernel_of(spec)`` is the kernel's text (the same text:
    the same kernel); ``asm_cycles(text)`` its assembly's ``(asm-measured, asm-llvm)``;
    ``spills_of(text)`` the registers it spills (default none)."""
    def build(schedule):
        return kernel_of(schedule.spec())

    def time_fn(text, schedule):
        m, l = asm_cycles(text)
        return {"asm-measured": m, "asm-llvm": l}
    return {"build": build, "time_fn": time_fn,
            "spills_fn": lambda text, schedule: spills_of(text)}


def own_kernel(spec):
    return "kernel of " + spec


def knobs(text):
    return T.parse_knobs(PP, text)


def test_the_choice_is_the_fastest_candidate_tried_and_ties_go_to_the_other_table():
    table = {"pingpong": (100, 10), "pingpong{scheduling=identity}": (90, 12),
             "pingpong{scheduling=identity global_before_frag=true}": (90, 11),
             "pingpong{lds_contention_penalty=4}": (95, 1)}
    res = T.tune(PP, knobs("scheduling=csp:identity,global_before_frag,lds_contention_penalty"),
                 10, objective="measured", evaluate_fn=fake(lambda s: table.get(s, (200, 200))))
    ok = [c for c in res.tried if c.ok]
    assert len(ok) >= 4
    assert res.best is min(ok, key=lambda c: (c.cycles["measured"], c.cycles["llvm"]))
    assert res.best.spec == "pingpong{scheduling=identity global_before_frag=true}"
    assert res.converged
    assert res.gain("measured") == pytest.approx(100 / 90 - 1)
    text = res.text()
    assert f"chosen: #{res.best.index} pingpong{{scheduling=identity global_before_frag=true}}" \
        in text
    assert "measured 100.0 -> 90.0 cycles/iteration (+11.1% throughput)" in text


def test_objective_llvm_minimises_the_llvm_table():
    table = {"pingpong": (100, 10), "pingpong{scheduling=identity}": (90, 12)}
    res = T.tune(PP, knobs("scheduling=csp:identity"), 5, objective="llvm",
                 evaluate_fn=fake(lambda s: table[s]))
    assert res.best.spec == "pingpong"


def test_refused_candidates_are_reported_with_their_reason_and_never_chosen():
    def cycles(s):
        return "hazard: made up" if "global" in s else (50, 5) if "identity" in s else (100, 10)
    res = T.tune(PP, knobs("global_before_frag,scheduling"), 10, objective="measured",
                 evaluate_fn=fake(cycles))
    refused = [c for c in res.tried if c.refused]
    assert refused and all("global_before_frag=true" in c.spec for c in refused)
    assert res.best.spec == "pingpong{scheduling=identity}"
    row = next(line for line in res.text().splitlines() if "global_before_frag=true" in line)
    assert row.endswith("refused: hazard: made up")


def test_a_build_failure_refuses_the_candidate():
    def kernel_of(spec):
        if "identity" in spec:
            raise PipelineError("sched-fix-hazards: made up")
        return own_kernel(spec)
    calls = []

    def evaluate(schedule):
        calls.append(schedule.spec())
        return fake(lambda s: (50, 5) if "identity" in s else (100, 10))(schedule)
    res = T.tune(PP, knobs("scheduling"), 10, evaluate_fn=evaluate,
                 **built(kernel_of, lambda text: (40, 4)))
    assert res.best.spec == "pingpong"
    bad = next(c for c in res.tried if "identity" in c.spec)
    assert bad.refused == "kernel build: sched-fix-hazards: made up"
    # a kernel that does not build is not simulated, but its build counts
    assert calls == ["pingpong"] and res.evaluated == 2


def test_asm_objective_uses_what_the_assembly_timing_measured():
    asm = built(own_kernel, lambda text: (10, 1) if "identity" in text else (20, 1))
    res = T.tune(PP, knobs("scheduling"), 10, objective="asm-measured",
                 evaluate_fn=fake(lambda s: (50, 5) if "identity" in s else (40, 4)), **asm)
    assert res.best.spec == "pingpong{scheduling=identity}"
    assert res.columns() == ["measured", "llvm", "asm-measured", "asm-llvm"]
    assert "asm-measured 20.0 -> 10.0 cycles/iteration (+100.0% throughput)" in res.text()
    with pytest.raises(ConfigError, match="needs the kernels' assembly"):
        T.tune(PP, [], 1, objective="asm-llvm", evaluate_fn=fake(lambda s: (1, 1)))
    with pytest.raises(ConfigError, match="needs the kernels' assembly"):
        T.tune(PP, [], 1, evaluate_fn=fake(lambda s: (1, 1)))   # the default is asm-measured


def test_by_default_a_kernel_faster_in_the_schedule_but_slower_on_its_assembly_loses():
    # the 4-wave FP8 128x128 case: global_before_frag=true is faster in the schedule's
    # tables, but the kernel LLVM emits for it is slower
    sched = {"pingpong": (1559, 252), "pingpong{global_before_frag=true}": (1491, 244)}
    asm = {"kernel of pingpong": (1550, 205),
           "kernel of pingpong{global_before_frag=true}": (1663, 215)}
    res = T.tune(PP, knobs("global_before_frag"), 10, evaluate_fn=fake(sched.get),
                 **built(own_kernel, asm.get))
    assert res.objective == "asm-measured"
    assert res.best is res.default and res.converged
    text = res.text()
    assert "chosen: #0 pingpong\n" in text
    assert "gain over the given spec: asm-measured 1550.0 -> 1550.0" in text


def test_a_schedule_objective_never_chooses_a_kernel_slower_on_its_assembly():
    sched = {"pingpong": (100, 10), "pingpong{global_before_frag=true}": (90, 9),
             "pingpong{scheduling=identity}": (95, 9)}
    asm = {"kernel of pingpong": (100, 10),
           "kernel of pingpong{global_before_frag=true}": (101, 9),
           "kernel of pingpong{scheduling=identity}": (100, 10)}
    res = T.tune(PP, knobs("scheduling=csp:identity,global_before_frag"), 10,
                 objective="measured", evaluate_fn=fake(lambda s: sched.get(s, (200, 20))),
                 **built(own_kernel, lambda t: asm.get(t, (200, 20))))
    # 90 < 95 in the measured table, but its assembly is slower than the given spec's
    assert res.best.spec == "pingpong{scheduling=identity}"
    text = res.text()
    assert "never chosen: a kernel slower than the given spec's on its assembly " \
           "(asm-measured)" in text
    row = next(line for line in text.splitlines() if line.split()[1:2] ==
               ["global_before_frag=true"])
    assert row.endswith("not chosen: faster in measured but slower than #0 on the assembly "
                        "(asm-measured)")
    # without the assembly there is nothing to guard: the schedule decides
    plain = T.tune(PP, knobs("scheduling=csp:identity,global_before_frag"), 10,
                   objective="measured", evaluate_fn=fake(lambda s: sched.get(s, (200, 20))))
    assert plain.best.spec == "pingpong{global_before_frag=true}"
    assert "never chosen" not in plain.text()


def test_every_candidate_refused_chooses_none():
    res = T.tune(PP, knobs("scheduling"), 10, objective="measured",
                 evaluate_fn=fake(lambda s: "no"))
    assert res.best is None and res.evaluated == 2
    assert [c.same_as.index for c in res.tried if c.same_as] == [0]   # scheduling=greedy
    assert "chosen: none (every candidate was refused)" in res.text()


def test_the_budget_bounds_the_candidates_simulated():
    calls = []

    def evaluate(schedule):
        calls.append(schedule.spec())
        return {"measured": 100 - len(calls), "llvm": 1}, {"measured": 1, "llvm": 1}, None
    res = T.tune(PP, knobs("scheduling,lds_contention_penalty,global_before_frag"), 3,
                 objective="measured", evaluate_fn=evaluate)
    assert len(calls) == res.evaluated == 3 and not res.converged
    assert calls == [c.spec for c in res.tried if c.same_as is None]
    assert "stopped: the budget is spent" in res.text()


def test_specs_of_the_same_kernel_are_simulated_once():
    calls = []

    def evaluate(schedule):
        calls.append(schedule.spec())
        return {"measured": 100, "llvm": 1}, {"measured": 1, "llvm": 1}, None
    # with the kernel's counts the greedy order is the csp's: the same schedule and kernel
    res = T.tune(PP, knobs("scheduling=csp:greedy"), 10, objective="measured",
                 evaluate_fn=evaluate)
    assert calls == ["pingpong"] and res.evaluated == 1
    assert [(c.changes, c.same_as and c.same_as.index) for c in res.tried] == [
        ((), None), ((("scheduling", "greedy"),), 0)]
    row = next(line for line in res.text().splitlines() if "scheduling=greedy " in line)
    assert re.search(r"  -  +same kernel as #0$", row)


def test_specs_that_build_the_same_kernel_cost_no_budget():
    calls = []

    def evaluate(schedule):
        calls.append(schedule.spec())
        return {"measured": 100 - len(calls), "llvm": 1}, {"measured": 1, "llvm": 1}, None

    def kernel_of(spec):   # the mask's fences are the ones the lowering emits anyway
        spec = re.sub(r"\s*sched_barrier_mask=\w+", "", spec)
        return own_kernel(spec.replace("{ ", "{").replace("{}", ""))
    asm = built(kernel_of, lambda text: (50, 5))
    # a budget of 3: two evaluated, and the builds of the four same kernels paid from the
    # budget left (with 2 the search stops before building the fifth candidate)
    res = T.tune(PP, knobs("sched_barrier_mask,scheduling=identity"), 3, objective="measured",
                 evaluate_fn=evaluate, **asm)
    assert calls == ["pingpong", "pingpong{scheduling=identity}"] and res.evaluated == 2
    assert res.best.spec == "pingpong{scheduling=identity}" and res.converged
    same = [(c.change_text(), c.same_as.index) for c in res.tried if c.same_as is not None]
    assert same == [("sched_barrier_mask=0x0", 0), ("sched_barrier_mask=0xff", 0),
                    ("scheduling=identity sched_barrier_mask=0x0", 3),
                    ("scheduling=identity sched_barrier_mask=0xff", 3)]
    assert all(not c.ok and not c.cycles for c in res.tried if c.same_as is not None)
    text = res.text()
    assert text.count("same kernel as #0") == 2 and text.count("same kernel as #3") == 2
    assert "6 candidates, 2 built, simulated and timed (budget 3), 4 the same kernel as " \
           "another, 0 refused; converged" in text
    # the same search that counts them spends its budget before reaching identity
    res = T.tune(PP, knobs("sched_barrier_mask,scheduling=identity"), 2, objective="measured",
                 evaluate_fn=fake(lambda s: (100, 1)), **built(own_kernel, lambda t: (50, 5)))
    assert res.evaluated == 2 and not res.converged
    assert [c.change_text() for c in res.tried] == ["(the given spec)", "sched_barrier_mask=0x0"]


def test_no_candidate_is_built_once_the_budget_is_spent():
    """The budget is checked before a candidate's build, the cost it bounds: a search of
    budget N builds N kernels (each new), not N + 1, the last thrown away unevaluated; with
    the budget spent, candidates the pipeline rejects before a build are still listed."""
    builds = []

    def kernel_of(spec):
        builds.append(spec)
        return own_kernel(spec)

    def search(text, budget):
        builds.clear()
        return T.tune(PP, knobs(text), budget, objective="measured",
                      evaluate_fn=fake(lambda s: (100, 1)),
                      **built(kernel_of, lambda t: (50, 5)))
    for budget in (1, 2, 3):
        res = search("frags_ahead", budget)
        assert res.evaluated == budget and not res.converged
        assert builds == [c.spec for c in res.tried], (budget, builds)
    res = search("frags_ahead=within,omit_mma_set_prio", 2)
    assert len(builds) == res.evaluated == 2 and res.converged
    assert [c.change_text() for c in res.tried if c.refused] == [
        "omit_mma_set_prio=false", "omit_mma_set_prio=true"]
    # a schedule-level search (no builds) stops at the same candidate
    res = T.tune(PP, knobs("frags_ahead"), 2, objective="measured",
                 evaluate_fn=fake(lambda s: (100, 1)))
    assert [c.change_text() for c in res.tried] == ["(the given spec)", "frags_ahead=within"]


def test_the_search_is_deterministic():
    ev = fake(lambda s: (len(s) % 7 + 100, len(s) % 5))
    asm = built(lambda s: "kernel %d" % (len(s) % 4), lambda t: (len(t), 1))
    runs = [T.tune(PP, knobs(None), 12, evaluate_fn=ev, **asm).text() for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("text,message", [
    ("bogus", "unknown knob 'bogus'"),
    ("scheduling,scheduling", "knob 'scheduling' is given twice"),
    ("scheduling=csp:fast", "scheduling"),
    ("lds_contention_penalty=1:1", "lists a value twice"),
    ("scheduling,", "empty knob"),
])
def test_bad_knobs_are_config_errors(text, message):
    with pytest.raises(ConfigError, match=message):
        knobs(text)


def test_bad_budget_and_objective_and_untunable_pipeline():
    for bad in (0, -1, True):
        with pytest.raises(ConfigError, match="--tune-budget"):
            T.tune(PP, [], bad, objective="measured", evaluate_fn=fake(lambda s: (1, 1)))
    with pytest.raises(ConfigError, match="--tune-objective=fast"):
        T.tune(PP, [], 1, objective="fast", evaluate_fn=fake(lambda s: (1, 1)))
    with pytest.raises(ConfigError, match="no complete kernel to tune"):
        T.parse_knobs(parse_pipeline("single-buffer"), None)


def test_default_knobs_leave_out_the_counts_the_kernel_fixes():
    names = [k.name for k in knobs(None)]
    assert "scheduling" in names and "max_globals" not in names
    assert "max_globals" in [k.name for k in knobs("all")]


def test_real_simulator_refuses_counts_no_kernel_issues():
    schedule = parse_pipeline(SMALL)
    res = T.tune(schedule, T.parse_knobs(schedule, "lgkm_per_load_a=1:8"), 3, objective="measured",
                 evaluate_fn=lambda s: T.evaluate(s, kernel_lds))
    assert res.default.ok and res.best is res.default
    other = [c for c in res.tried if c is not res.default]
    assert other and all(not c.ok and "does not match" in c.refused for c in other)
    assert res.default.cycles["measured"] > 0 and 0 < res.default.busy["llvm"] <= 1


def test_options_the_pipeline_rejects_together_are_reported_without_spending_budget():
    res = T.tune(PP, knobs("omit_mma_set_prio"), 1, objective="measured",
                 evaluate_fn=fake(lambda s: (100, 10)))
    assert res.evaluated == 1 and res.converged
    rejected = res.tried[1:]
    assert len(rejected) == 2 and all("has no effect" in c.refused for c in rejected)
    assert "3 candidates, 1 simulated (budget 1), 0 the same kernel as another, 2 refused; " \
           "converged" in res.text()


def test_the_kernel_identity_is_the_assembled_code_not_the_comments():
    plain = "k:\n\ts_nop 0\n\tv_mov_b32 v0, v1\n\ts_endpgm\n"
    fenced = ("k:  ; @k\n\ts_nop 0\n\t; sched_barrier mask(0x00000000)\n\n"
              "\tv_mov_b32 v0, v1 ; note\n; %bb.1:\n\ts_endpgm\n")
    assert T.kernel_digest(plain) == T.kernel_digest(fenced)
    assert T.kernel_digest(plain) != T.kernel_digest(plain.replace("v1", "v2"))
    assert T.kernel_digest(plain) != T.kernel_digest(plain.replace("s_nop 0\n", ""))


def test_a_kernel_that_spills_ranks_below_every_kernel_that_does_not():
    # the ping-pong FP8 case: frags_ahead=across is the fastest on its assembly but LLVM
    # spills 2 VGPRs for it; within is chosen
    # (made-up spills: the across kernel spilled 2 VGPRs before the C offset moved before
    # the loop)
    fp8 = parse_pipeline("pingpong{is_fp8=true frags_ahead=within}")
    asm = {"kernel of pingpong{is_fp8=true frags_ahead=within}": (4133, 734),
           "kernel of pingpong{is_fp8=true frags_ahead=none}": (4161, 740),
           "kernel of pingpong{is_fp8=true frags_ahead=across}": (4096, 720),
           "kernel of pingpong{is_fp8=true frags_ahead=balanced}": (4140, 740),
           "kernel of pingpong{is_fp8=true frags_ahead=balanced-across}": (4100, 725)}
    for objective in ("measured", "asm-llvm", "asm-measured"):
        res = T.tune(fp8, T.parse_knobs(fp8, "frags_ahead"), 10, objective,
                     evaluate_fn=fake(lambda s: (4096, 700)),
                     **built(own_kernel, asm.get, lambda t: 2 if "across" in t else 0))
        assert res.best is res.default and res.converged, objective
        across = next(c for c in res.tried if c.spec.endswith("frags_ahead=across}"))
        assert across.ok and across.spills == 2 and res.default.spills == 0
        assert res.key(across) > res.key(res.tried[1]), objective   # slower, but no spill
    text = res.text()
    assert "ranked below every kernel that does not spill" in text
    row = next(line for line in text.splitlines() if line.rstrip().split("  ")[0].strip()
               and "frags_ahead=across " in line)
    assert re.search(r" 2  +\d+%/\d+% +not chosen: faster in asm-measured but spills 2 registers$",
                     row), row
    # among kernels that all spill, the cycles decide
    res = T.tune(fp8, T.parse_knobs(fp8, "frags_ahead"), 10, evaluate_fn=fake(lambda s: (1, 1)),
                 **built(own_kernel, asm.get, lambda t: 4 if "across" in t else 1))
    assert res.best.spec == "pingpong{is_fp8=true frags_ahead=across}"
    assert res.best.spills == 4


def test_the_spill_count_is_read_from_the_kernels_metadata():
    meta = ("k:\n\ts_endpgm\n\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n"
            "    .vgpr_spill_count: {v}\n    .sgpr_spill_count: {s}\n"
            "amdhsa.version:\n  - 1\n  - 2\n...\n\n\t.end_amdgpu_metadata\n")
    assert T.assembly_spills(meta.format(v=2, s=0)) == 2
    assert T.assembly_spills(meta.format(v=2, s=3)) == 5
    assert T.assembly_spills(meta.format(v=0, s=0)) == 0
    with pytest.raises(PipelineError, match="no .amdgpu_metadata kernel"):
        T.assembly_spills("k:\n\ts_endpgm\n")


def test_ping_pong_searches_frags_ahead_and_the_waits():
    fp8 = parse_pipeline("pingpong{is_fp8=true}")
    res = T.tune(fp8, T.parse_knobs(fp8, None), 40, objective="measured",
                 evaluate_fn=fake(lambda s: (100, 10)))
    changes = [c.change_text() for c in res.tried]
    # balanced-across is the FP8 default: not a change; the other placements are
    assert {"frags_ahead=none", "frags_ahead=within", "frags_ahead=across",
            "frags_ahead=balanced"} <= set(changes)
    assert "frags_ahead=balanced-across" not in changes
    # waits=block is a kernel of its own (the fragment waits are the default)
    assert "waits=block" in changes and "waits=fragment" not in changes


FW = parse_pipeline(SMALL)


def texts(knob_list):
    return [k.text() for k in knob_list]


@pytest.mark.parametrize("faster", [True, False])
def test_the_dma_width_is_a_knob_built_ranked_and_chosen_when_faster(faster):
    assert "dma=x4|dword" in texts(T.parse_knobs(FW, None))
    dword = (900, 90) if faster else (1100, 90)
    kernels = []
    asm = built(lambda spec: kernels.append(spec) or own_kernel(spec),
                lambda text: dword if "dma=dword" in text else (1000, 100))
    res = T.tune(FW, T.parse_knobs(FW, "dma"), 5, evaluate_fn=fake(lambda s: (1000, 100)), **asm)
    # dma=x4 is the width dma=auto gives this tile: no candidate of its own
    assert kernels == [SMALL, SMALL[:-1] + " dma=dword}"]
    row = next(c for c in res.tried if "dma=dword" in c.spec)
    assert row.ok and row.cycles["asm-measured"] == dword[0]
    assert (res.best is row) is faster and (res.best is res.default) is not faster


def test_a_dma_width_the_spec_refuses_is_never_offered_nor_chosen():
    # vm counts given as x4's (a front-end input issuing 16-byte copies): dma=auto is x4
    # there, and dma=dword contradicts the counts
    given = parse_pipeline("4wave{dtype=fp8 BM=64 BN=64 BK=128 vm_per_load_a=1}")
    assert given.dma_width() == "x4"
    assert [k for k in T.parse_knobs(given, None) if k.name == "dma"][0].values == ("x4",)
    with pytest.raises(ConfigError, match="knob 'dma=dword' is refused for .*contradicts "
                                          "'dma=dword'"):
        T.parse_knobs(given, "dma=dword")
    # a knob given by hand that way is refused before the build, never chosen
    asm = built(own_kernel, lambda text: (1, 1) if "dword" in text else (1000, 100))
    res = T.tune(given, [Knob("dma", ("dword",), "made up")], 5,
                 evaluate_fn=fake(lambda s: (1000, 100)), **asm)
    assert res.best is res.default and res.evaluated == 1
    assert "contradicts 'dma=dword'" in res.tried[1].refused


def test_loop_once_is_searched_only_for_a_problem_size():
    for text in (None, "all"):
        assert "loop_once" not in [k.name for k in T.parse_knobs(FW, text)]
        assert "loop_once=false|true" in texts(T.parse_knobs(FW, text, sized=True))
    with pytest.raises(ConfigError, match="knob 'loop_once' narrows the kernel's launch "
                                          "contract: give --tune-size"):
        T.parse_knobs(FW, "loop_once")


@pytest.mark.parametrize("K, chosen", [(256, False), (512, True)])
def test_loop_once_is_chosen_only_at_a_size_its_contract_runs(K, chosen):
    """K = 256 is under loop_once's K >= 4*BK = 512: the faster loop_once kernel is refused
    before it is built (no budget), and the given spec stays."""
    from pipeline_mlir.driver.tune import _runs_at

    asm = built(own_kernel, lambda text: (500, 50) if "loop_once" in text else (1000, 100))
    res = T.tune(FW, T.parse_knobs(FW, "loop_once", sized=True), 5,
                 evaluate_fn=fake(lambda s: (1000, 100)), admit=_runs_at((256, 256, K)), **asm)
    row = next(c for c in res.tried if "loop_once=true" in c.spec)
    assert (res.best is row) is chosen
    if not chosen:
        assert res.best is res.default and res.evaluated == 1
        assert "K = 256 is too small: the pipelined loop needs K >= 4*BK = 512" in row.refused
