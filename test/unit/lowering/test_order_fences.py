"""The lowering of a concrete pipeline pins the issue order its counted waits rely on
(pipeline_mlir/kernel/wait_order.py): an order fence at each cut, and a wait whose cut falls
inside one entry refused with one located message."""

from __future__ import annotations

import functools
import re

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline

#: the ping-pong pipeline up to (not including) sched-lower-to-rocdl
BEFORE_LOWERING = ("builtin.module(sched-adopt-loop{schedule=pingpong},"
                   "sched-import{schedule=pingpong},sched-verify,sched-annotate,sched-reorder,"
                   "sched-derive-edges,sched-schedule,sched-derive-waits,sched-verify,"
                   "sched-explicit-blocks,sched-expand-phases,sched-verify,sched-fix-hazards)")
LOWER = "builtin.module(sched-lower-to-rocdl)"
#: the kernel phase's first WAIT_LGKM(8) (block 0): after 4 B and 8 A fragment reads
FIRST_WAIT = re.compile(r'("sched\.wait_lgkm"\(\) \{block = 0 : i64, count = )8( : i64\})')


@functools.lru_cache(maxsize=None)
def scheduled() -> str:
    text = natural_kernel_mlir(gemm_kernel(parse_pipeline("pingpong")))
    return compile(CompileOptions(pass_pipeline=BEFORE_LOWERING, text=text,
                                  emit="mlir")).checked_output()


def lower(text: str):
    return compile(CompileOptions(pass_pipeline=LOWER, text=text, emit="mlir"))


def test_the_first_wait_is_the_one_of_the_kernel_phase():
    assert len(FIRST_WAIT.findall(scheduled())) == 1


def test_the_lowered_loop_has_an_order_fence_before_the_a_reads():
    out = lower(scheduled()).checked_output()
    fence = "rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental\n"
    assert out.count(fence) == 2


def test_a_wait_inside_an_entry_is_refused():
    text = FIRST_WAIT.sub(r"\g<1>6\g<2>", scheduled(), count=1)
    res = lower(text)
    assert res.failed
    (d,) = [d for d in res.diagnostics if d.severity == "error"]
    assert "sched-lower-to-rocdl: 'sched.pipeline' op: the kernel's KRN[3] s_waitcnt " \
           "lgkmcnt(6) completes only part of the 8 instructions of KRN[1]" in d.message
    assert d.line is not None     # located at the sched.pipeline op
