"""A fragment load with more LDS reads than lgkmcnt holds (IREE's plain ``A x B`` at K step
128: 16 transposing reads per B subtile) is issued in runs, each after the first behind a
guard wait; the simulator, the lowering and the ISA check's expected skeleton agree on them
(``pipeline_mlir/schedule/load_runs.py``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.isa.skeleton import Expansion, _op_tokens
from pipeline_mlir.lowering.materialize import _guards
from pipeline_mlir.schedule.load_runs import MAX_FRAGMENT_READS, guard_before, load_runs
from pipeline_mlir.schedule.types import OpDesc, OpRole
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX
from pipeline_mlir.tools.pipeline_opt import main

SPEC = "4wave{dtype=bf16 BM=128 BN=128 BK=128 lgkm_per_load_b=16}"


@pytest.mark.parametrize("count", range(1, MAX_FRAGMENT_READS + 1))
def test_runs_fit_the_counter(count):
    runs, guards = load_runs(count), guard_before(count)
    assert sum(runs) == count and max(runs) <= LGKMCNT_MAX
    if count <= LGKMCNT_MAX:
        assert runs == (count,) and guards == {}
        return
    assert max(runs) - min(runs) <= 1 and max(runs) <= (LGKMCNT_MAX + 1) // 2
    starts = [sum(runs[:i]) for i in range(1, len(runs))]
    assert sorted(guards) == starts
    for start, run in zip(starts, runs[1:]):     # the guard leaves room for the run
        assert 0 <= guards[start] and guards[start] + run == LGKMCNT_MAX


def test_sixteen_reads_are_two_runs_of_eight():
    assert load_runs(16) == (8, 8) and guard_before(16) == {8: 7}


def test_the_simulator_counts_the_runs(capsys):
    assert main(["--simulate", f"--pipeline={SPEC}"]) == 0
    assert "no hazard" in capsys.readouterr().out


def test_without_the_runs_the_counter_stalls_and_nothing_races(monkeypatch, capsys):
    """One run of 16 is one more than lgkmcnt holds: the hardware stalls the 16th read until
    the first completes, which the simulator models, so the runs' guard only makes that
    stall explicit: without the runs the schedule is still hazard-free."""
    import pipeline_mlir.sim.functional as F

    monkeypatch.setattr(F, "load_runs", lambda count: (count,))
    assert main(["--simulate", f"--pipeline={SPEC}"]) == 0
    assert "no hazard" in capsys.readouterr().out


def test_the_option_takes_at_most_four_runs(capsys):
    assert main(["--pipeline=4wave{lgkm_per_load_b=61}", "--emit=schedule"]) == 1
    err = capsys.readouterr().err
    assert "option 'lgkm_per_load_b' is out of range: expects an integer in 1..60, got 61" in err


def test_the_isa_skeleton_expects_the_fenced_guard():
    op = OpDesc(tag=4, stage=0, subtile=1, channel=1, role=OpRole.FRAGMENT_LOAD)
    toks = _op_tokens(op, "KRN[5]", Expansion((4, 4), (8, 16), 8))
    kinds = [t.kind for t in toks]
    assert kinds == ["ds_read"] * 8 + ["sched_barrier", "wait", "sched_barrier"] + \
        ["ds_read"] * 8
    assert toks[9].lgkm == 7
    assert [t.kind for t in _op_tokens(op, "KRN[5]", Expansion((4, 4), (8, 15), 8))] == \
        ["ds_read"] * 15


def _loads(shapes: list[str]) -> list:
    """``vector.load`` payload ops reading workgroup memory, one per vector shape."""
    body = "\n".join(f"    %v{i} = vector.load %lds[%c0] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<{s}xbf16>"
                     for i, s in enumerate(shapes))
    ctx = new_context()
    module = ir.Module.parse("func.func @f(%lds: memref<4096xbf16, #gpu.address_space<workgroup>>) {\n"
                             "    %c0 = arith.constant 0 : index\n" + body + "\n    return\n}",
                             ctx)
    return ctx, module, walk_ops(module.operation, lambda o: o.name == "vector.load")


def test_the_lowering_places_the_guard_between_ops():
    ctx, _module, ops = _loads(["8"] * 16)          # one ds_read_b128 each
    with ctx:
        assert _guards(ops) == {8: 7}
        assert _guards(ops[:15]) == {}


def test_a_run_starting_inside_an_op_is_refused():
    """Reads 7 and 8 are one op (a 256-bit load): the second run cannot start between them."""
    ctx, _module, ops = _loads(["8"] * 7 + ["16"] + ["8"] * 7)
    with ctx, pytest.raises(IRError, match="more than lgkmcnt holds, and is issued in runs "
                                           "of 8/8; this op's 2 reads cross a run's start"):
        _guards(ops)
