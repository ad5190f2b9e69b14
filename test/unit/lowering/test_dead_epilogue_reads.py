"""The epilogue's fragment reads nothing uses are not emitted (``pipeline_mlir/lowering/
dead_reads.py``; ``docs/iree-audits.md`` finding 39): the 4-wave epilogue's last reads of A
and B (subtile 0 of the other stage, for an MMA the epilogue does not run).

IREE's i8 ``A^T x B^T`` at 128x64x1280 with a forced 128x64 tile in one wave (a K step of 4
MFMAs), its prefetch form, and the complete 4-wave BF16 kernel: the lowered IR has no LDS
read whose result nothing uses (there were 40 and 8), the plan marks those entries, and
every fence and wait around them stays where it was.  That the kernels run exact and pass
the ISA gate is ``test/unit/isa/test_isa_one_wave_epilogue.py``'s (the same kernel).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir
from pipeline_mlir.kernel.plan import ENTRIES
from pipeline_mlir.kernel.unread_frags import droppable
from pipeline_mlir.schedule.fences import Dropped
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import OpDesc, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

#: LDS reads, and the ops that only pass a value on (a read feeding only them is unused)
_READS = ("vector.load", "memref.load", "amdgpu.transpose_load")
_PASSING = ("vector.", "arith.")


def unused_lds_reads(text: str) -> int:
    """How many LDS reads of the module ``text`` feed nothing, but through vector and arith
    ops whose results feed nothing either."""
    with new_context():
        module = ir.Module.parse(text)
        ops = walk_ops(module.operation, lambda o: True)
        dead, n = set(), 0
        for op in reversed(ops):        # every user after the op it uses
            lds = op.name in _READS and "workgroup" in str(op.operands[0].type)
            if not (lds or op.name.startswith(_PASSING)) or op.name == "vector.store" \
                    or len(op.results) == 0:
                continue
            if all(as_operation(u.owner) in dead for r in op.results for u in r.uses):
                dead.add(op)
                n += lds
        return n


@pytest.fixture(scope="module")
def built():
    """``{name: (lowered MLIR, plan)}`` of the two kernels: the i8 one's from the run's
    gated build of it (``kernel_builds.gated_kept``, which
    ``test_isa_one_wave_epilogue.py`` builds and emulates; its ``mlir`` stage is what
    ``--emit=mlir`` writes, the same plan)."""
    from kernel_builds import gated_kept

    cfg = G.compilation_info("i8", (128, 64), (8, 4), 4, 64, k_major=(True, False))
    src = G.matmul_source("i8", 128, 64, 1280, transpose_b=True, transpose_a=True, config=cfg)
    text = G.forms(src, ("--iree-llvmgpu-prefetch-num-stages=2",))["prefetch"]
    i8 = gated_kept("4wave", text)
    bf16 = compile(CompileOptions(emit="mlir", schedule="4wave{dtype=bf16 BM=128 BN=128 BK=64}"))
    return {"i8-one-wave": (i8.stages["mlir"], i8.plans[0]),
            "bf16": (bf16.checked_output(), bf16.plans[0])}


@pytest.mark.parametrize("name", ["i8-one-wave", "bf16"])
def test_no_read_nothing_uses(built, name):
    lowered, plan = built[name]
    assert unused_lds_reads(lowered) == 0
    marked = sorted(plan.unissued)
    assert [(plan.epilogue[i].op.tag, plan.epilogue[i].op.stage, plan.epilogue[i].op.subtile)
            for i in marked] == [(MMA_LOAD_A, 0, 0), (MMA_LOAD_B, 0, 0)]
    runs = [x.entry for x in plan.run(0, 1) if x.phase == "epilogue"]
    assert runs == [i for i in range(len(plan.epilogue)) if i not in plan.unissued]


def test_the_fences_stay(built):
    """The plan's fenced epilogue is the one it had with the reads, each read marked."""
    _, plan = built["i8-one-wave"]
    part = next(p for p in plan.parts if p.kind == ENTRIES and p.name == "epilogue")
    had = replace(plan, unissued=frozenset()).fenced(part)
    assert plan.fenced(part) == [Dropped(x) if x in plan.unissued else x for x in had]
    assert had != plan.fenced(part)


def test_the_check_sees_an_unused_read():
    """The helper counts a read that feeds only a dead extract, not one that is stored."""
    text = """
    func.func @f(%m: memref<64xf32, #gpu.address_space<workgroup>>, %o: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %a = vector.load %m[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %e = vector.extract %a[0] : f32 from vector<4xf32>
      %b = vector.load %m[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %b, %o[%c0] : memref<4xf32>, vector<4xf32>
      return
    }"""
    assert unused_lds_reads(text) == 1


def _entries(*ops: OpDesc) -> list[ScheduleEntry]:
    return [ScheduleEntry(op, i, Phase.EPILOGUE, False) for i, op in enumerate(ops)]


def test_a_counted_wait_after_keeps_the_read():
    """A read before a counted lgkmcnt wait stays (the wait counts it); one after it, or
    before only waits of count 0, goes."""
    read = OpDesc.logical(MMA_LOAD_A, 0)
    mma = OpDesc.logical(MMA)
    assert droppable(_entries(read, OpDesc.wait_lgkm(0), mma), [0]) == {0}
    assert droppable(_entries(read, OpDesc.wait_lgkm(4), mma), [0]) == frozenset()
    assert droppable(_entries(OpDesc.wait_lgkm(4), read, mma), [1]) == {1}
    frag = OpDesc.wait_frag(2)
    assert droppable(_entries(read, frag, mma), [0]) == frozenset()


#: the 4-wave pipeline up to (not including) sched-lower-to-rocdl
BEFORE_LOWERING = ("builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-verify,"
                   "sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,"
                   "sched-derive-waits,sched-verify,sched-explicit-blocks,sched-expand-phases,"
                   "sched-verify,sched-fix-hazards)")
_WAIT0 = '"sched.wait_lgkm"() {count = 0 : i64}'


def test_a_counted_wait_keeps_a_read_of_a_real_plan():
    """The complete 4-wave BF16 kernel, its epilogue's last lgkmcnt wait (between the reads
    of A and of B for the next partition's MMA) made ``lgkmcnt(4)``: it counts the A read's
    4 instructions as issued, so the lowering keeps that read (in the IR, its results
    feeding nothing) and leaves out the B read after the wait only."""
    text = natural_kernel_mlir(gemm_kernel(parse_pipeline("4wave{dtype=bf16 BM=128 BN=128 "
                                                          "BK=64}")))
    scheduled = compile(CompileOptions(pass_pipeline=BEFORE_LOWERING, text=text,
                                       emit="mlir")).checked_output()
    epilogue = scheduled.index('"sched.epilogue"')
    at = scheduled.rindex(_WAIT0, epilogue, scheduled.index("})", epilogue))
    counted = scheduled[:at] + _WAIT0.replace("= 0", "= 4") + scheduled[at + len(_WAIT0):]
    for source, gone in ((scheduled, [MMA_LOAD_A, MMA_LOAD_B]), (counted, [MMA_LOAD_B])):
        result = compile(CompileOptions(pass_pipeline="builtin.module(sched-lower-to-rocdl)",
                                        text=source, emit="mlir"))
        lowered, plan = result.checked_output(), result.plans[0]
        assert [plan.epilogue[i].op.tag for i in sorted(plan.unissued)] == gone
        assert unused_lds_reads(lowered) == 4 * (len(gone) == 1)
