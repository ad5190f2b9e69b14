"""sched-lower-to-rocdl with ``frags_ahead=across``: the fragment reads the prologue issues
after its join barrier for the main loop's first iteration are carried through the main
loop (one ``iter_arg`` per ds_read), so that the last MMA run's reads reach the next
iteration and the epilogue; ``within`` and ``none`` carry nothing of theirs."""

from __future__ import annotations

import re

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.schedule.types import OpRole
from pipeline_mlir.schedules.registry import parse_pipeline


def loop_carried(spec: str) -> list[str]:
    """The types the main loop's ``scf.for`` carries (in order), without the ``index`` K
    position a loop on a 32-bit counter carries last (``lowering/loop_i32.py``)."""
    text = compile(CompileOptions(schedule=spec, emit="mlir")).checked_output()
    line = next(ln for ln in text.split("\n") if "scf.for" in ln and "iter_args" in ln)
    m = re.search(r"-> \((.*)\)( +: i32)? \{$", line)
    types = m.group(1).split(", ")
    if m.group(2):
        assert types[-1] == "index", line
        types = types[:-1]
    return types


def test_across_carries_each_read_issued_ahead_of_the_loop():
    spec = "pingpong{is_fp8=true frags_ahead=%s}"
    none, within, across = (loop_carried(spec % m) for m in ("none", "within", "across"))
    assert within == none
    extra = across[len(none):]
    assert across[:len(none)] == none
    compiled = parse_pipeline(spec % "across").compile()
    ahead = [e.op for e in compiled.prologue if e.op.role == OpRole.FRAGMENT_LOAD]
    assert ahead and {op.channel for op in ahead} == {1}
    # one value per ds_read the B fragment loads issue
    assert len(extra) == len(ahead) * compiled.lgkm_per_load[1]
    assert set(extra) == {"vector<16xf8E4M3FN>"}


def test_the_plan_runs_the_reads_ahead_after_the_join_barrier():
    """The prologue's trailing fragment reads run after the barrier every warp runs after
    the prologue (where the loop's first iteration issued them); without them the
    prologue ends at that barrier as before."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.plan import BARRIER, ENTRIES

    def tail(mode):
        k = gemm_kernel(parse_pipeline(f"pingpong{{is_fp8=true frags_ahead={mode}}}"))
        plan = k.plan(k.schedule.compile())
        join = next(i for i, p in enumerate(plan.parts) if p.kind == BARRIER and p.name == "join")
        return plan, plan.parts[join - 1], plan.parts[join + 1]

    plan, before, after = tail("across")
    assert after.kind == ENTRIES and after.name == "prologue"
    assert after.stop == len(plan.prologue) and before.stop == after.start
    assert all(e.op.role == OpRole.FRAGMENT_LOAD
               for e in plan.prologue[after.start:after.stop])
    plan, before, after = tail("within")
    assert before.stop == len(plan.prologue) and after.kind != ENTRIES
