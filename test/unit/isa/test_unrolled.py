"""Where the comparison of straight code (a pipelined loop LLVM unrolled) cuts its phases
(``pipeline_mlir/isa/unrolled.py``, ``_cuts``), on token sequences made here: the kernels
it reads whole are ``test/unit/driver/test_isa_gate.py``'s."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.isa.skeleton import Token
from pipeline_mlir.isa.unrolled import _cuts, _run_kinds
from pipeline_mlir.schedule.types import OpRole

F, B = Token("sched_barrier"), Token("barrier")


def _wait(vm=None, lgkm=None):
    return Token("wait", vm=vm, lgkm=lgkm)


def _reads(n):
    return [Token("ds_read")] * n


def _run():
    """(phase, token) of a run: a prologue ending in a read group with no fence after it,
    one loop copy, an epilogue."""
    pro = [Token("vmem_load_lds")] * 2 + [F, _wait(lgkm=0), F, B] + _reads(4)
    loop = [F, _wait(lgkm=0), F, B, F] + _reads(4) + [Token("vmem_load_lds")] * 2 + \
        [Token("mfma")] * 2 + [F, _wait(vm=2), F, B, F] + [Token("mfma")] * 2 + [F]
    epi = [F, _wait(lgkm=0), F] + [Token("mfma")] * 2 + [F, B]
    return [("prologue", t) for t in pro] + [("loop", t) for t in loop] + \
        [("epilogue", t) for t in epi]


def test_a_phases_tail_is_taken_kind_by_kind_past_llvms_loads_and_waits():
    """The prologue's last reads, scheduled by LLVM after global loads of its own (a
    register-staged copy's, with its LDS writes and waits) and before the loop's first
    fence, stay in the prologue: the cut walked past the first data tokens after the
    prologue's last fence whatever their kind and stopped at the first wait, so the loads
    stood for the reads and the reads went to the loop (IREE's fp8 E5M2 ``A x B``
    492x71x2085 from the prefetch point: 8 fragment reads ``extra`` in the loop and missing
    from the prologue).  The waits LLVM added and merged in the loop copy (one fewer, one
    more) shift no seam: the cut's alignment reads fences and MFMAs."""
    run = _run()
    ours = [Token("vmem_load")] * 2 + [Token("ds_write")] * 2 + [F, _wait(lgkm=0), F, B]
    tail = [Token("vmem_load")] * 6 + [_wait(vm=5), _wait(vm=3)] + _reads(4)
    loop = [_wait(vm=0), F, _wait(lgkm=0), F, B, F, Token("mfma")] + _reads(4) + [Token("vmem_load")] * 2 + \
        [Token("ds_write"), Token("mfma"), F, F, B, F] + [Token("mfma")] * 2 + [F]
    epi = [F, _wait(vm=0), _wait(lgkm=0), F] + [Token("mfma")] * 2 + [F, B]
    act = ours + tail + loop + epi
    act = [Token(t.kind, vm=t.vm, lgkm=t.lgkm, lines=(k + 1,)) for k, t in enumerate(act)]
    cuts = _cuts(run, act)
    assert cuts == [len(ours + tail), len(ours + tail + loop), len(act)], cuts
    phases = act[:cuts[0]], act[cuts[0]:cuts[1]], act[cuts[1]:cuts[2]]
    assert [sum(t.kind == "ds_read" for t in p) for p in phases] == [4, 4, 0]
    assert [sum(t.kind == "mfma" for t in p) for p in phases] == [0, 4, 2]


def test_a_tail_the_code_lacks_is_cut_at_the_next_fence():
    """A prologue whose last reads are not in the code (LLVM dropped or moved them) is cut
    at the loop's first fence: the walk stops at an anchor, not past it."""
    run = _run()
    pro = [Token("vmem_load")] * 2 + [F, _wait(lgkm=0), F, B, Token("vmem_load")]
    rest = [F, _wait(lgkm=0), F, B, F] + _reads(4) + [Token("mfma")] * 2 + \
        [F, F, B, F] + [Token("mfma")] * 2 + [F] + [F, F] + [Token("mfma")] * 2 + [F, B]
    act = [Token(t.kind, vm=t.vm, lgkm=t.lgkm, lines=(k + 1,))
           for k, t in enumerate(pro + rest)]
    assert _cuts(run, act)[0] == len(pro)


@pytest.mark.parametrize("spec", ["4wave{dtype=bf16 BM=128 BN=128 BK=64}", "pingpong",
                                  "4wave{dtype=fp8 BM=64 BN=64 BK=128}"])
def test_the_runs_mfma_tokens_are_its_mma_entries(spec):
    """``_mfmas_per_mma`` counts the run's MMA entries on its expected skeleton, one
    ``mfma`` token per entry (before the last fence, and all of them): every MMA entry of
    the prologue and epilogue once and of the loop phase once per trip, nothing else; also
    with the epilogue's dead reads marked dropped (``KernelPlan.unissued``)."""
    plan = compile(CompileOptions(schedule=spec, emit="mlir")).plans[0]

    def mmas(phase):
        return sum(1 for e in plan.entries(phase) if e.op.role == OpRole.COMPUTE)
    assert mmas("kernel") > 0
    for trips in (0, 1, 3):
        assert _run_kinds(plan, trips).count("mfma") == \
            mmas("prologue") + trips * mmas("kernel") + mmas("epilogue")
    kept = replace(plan, unissued=frozenset())
    assert _run_kinds(kept, 2).count("mfma") == _run_kinds(plan, 2).count("mfma")
