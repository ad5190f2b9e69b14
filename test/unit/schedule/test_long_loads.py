"""A fragment load with more LDS reads than lgkmcnt holds (IREE's plain ``A x B`` at K step
128: 16 transposing reads per B subtile; f32 ``A x B``: 32 one-element reads) is issued as
one entry, with no wait inside it: the hardware stalls the read that would overflow the
counter, and every model keeps to that (``pipeline_mlir/schedule/long_loads.py``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.skeleton import Expansion, _op_tokens
from pipeline_mlir.schedule.types import OpDesc, OpRole
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.wave_model import simulate
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX
from pipeline_mlir.tools.pipeline_opt import main

SPEC = "4wave{dtype=bf16 BM=128 BN=128 BK=128 lgkm_per_load_b=16}"


def test_the_simulator_finds_the_long_load_safe(capsys):
    assert main(["--simulate", f"--pipeline={SPEC}"]) == 0
    assert "no hazard" in capsys.readouterr().out


def test_the_functional_model_keeps_the_loads_last_reads_in_flight():
    """A load of 32 reads completes everything before it and its own first 17 (the stall);
    its last 15 stay in flight, the load recorded as completed in part, not whole."""
    from collections import deque
    from types import SimpleNamespace

    from pipeline_mlir.sim.functional import KernelRun

    q, out, done, partial = deque([[0, 4]]), {"lgkm": 4}, {}, {}
    KernelRun._issue(SimpleNamespace(pos=1), q, out, "lgkm", 32, done, partial)
    assert done == {0: 1} and list(q) == [[1, LGKMCNT_MAX]] and out["lgkm"] == LGKMCNT_MAX
    assert partial == {1: [(1, LGKMCNT_MAX)]}


def test_the_option_takes_at_most_four_times_the_counter(capsys):
    assert main(["--pipeline=4wave{lgkm_per_load_b=61}", "--emit=schedule"]) == 1
    err = capsys.readouterr().err
    assert "option 'lgkm_per_load_b' is out of range: expects an integer in 1..60, got 61" in err


@pytest.mark.parametrize("reads", [15, 16, 32])
def test_the_isa_skeleton_expects_the_reads_alone(reads):
    op = OpDesc(tag=4, stage=0, subtile=1, channel=1, role=OpRole.FRAGMENT_LOAD)
    toks = _op_tokens(op, "KRN[5]", Expansion((4, 4), (8, reads), 8))
    assert [t.kind for t in toks] == ["ds_read"] * reads


def _reads(n: int) -> list[Instr]:
    return [Instr("ds_read", "ds_read_b32", defs=(f"r{k}",)) for k in range(n)]


@pytest.mark.parametrize("model", ["wave", "cu"])
def test_the_hardware_table_stalls_the_read_past_the_counter(model):
    """The 16th of 16 reads issues when the first completes in the measured (hardware)
    table; llvm-mca's model, the llvm table's, has no such limit."""
    def issue(table):
        if model == "wave":
            return simulate(_reads(16), table)
        return simulate_cu([(0, _reads(16))], table).waves[0]

    hw, mca = issue("measured"), issue("llvm")
    assert hw.issue[:15] == list(range(0, 60, 4))          # one per 4 clocks
    assert hw.issue[15] == hw.end[0] > hw.issue[14] + 4    # then the stall
    assert mca.issue == list(range(16))


def test_fifteen_reads_issue_without_a_stall():
    run = simulate(_reads(LGKMCNT_MAX) + [Instr("salu", "s_nop")], "measured")
    assert run.issue[LGKMCNT_MAX] == run.issue[LGKMCNT_MAX - 1] + 1 < run.end[0]
