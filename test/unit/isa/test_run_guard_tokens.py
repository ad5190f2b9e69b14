"""The ISA check's expected skeleton of a fragment load of more reads than lgkmcnt holds
(issued in runs, ``schedule/load_runs.py``): the guard wait before each run after the first
only keeps the counter from overflowing, so it is an overflow guard (``Token.guards``) that
the order rule does not walk; the schedule's own lgkm wait stays a counted wait.  (Before,
IREE's ping-pong K-step-128 kernels got one ``wait-unpinned`` finding per guard.)"""

from __future__ import annotations

from types import SimpleNamespace

from pipeline_mlir.isa.check import Expansion, expected_skeleton
from pipeline_mlir.isa.skeleton import DS_READ, LOAD_LDS
from pipeline_mlir.kernel.plan import kernel_plan, kernel_shape
from pipeline_mlir.schedule.load_runs import guard_before
from pipeline_mlir.schedule.types import WAIT_LGKM, OpDesc, OpRole, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline


def _e(tag, role=OpRole.SYNC, wait=0, channel=-1):
    return ScheduleEntry(OpDesc(tag=tag, role=role, wait_value=wait, channel=channel), 0,
                         Phase.KERNEL)


def test_run_guards_are_overflow_guards():
    reads = 16
    frag = _e(4, OpRole.FRAGMENT_LOAD, channel=0)
    sched = SimpleNamespace(prologue=[], kernel=[frag, _e(WAIT_LGKM, wait=3)], epilogue=[],
                            warp_stagger_index=0)
    x = Expansion(vm=(1, 1), lgkm=(reads, reads), mfmas_per_mma=1, mfma_name="v_mfma_x",
                  load_name=LOAD_LDS, ds_name=DS_READ)
    loop = expected_skeleton(kernel_plan(sched, kernel_shape(parse_pipeline("4wave")),
                                         {"kernel": [0, 0]}), x)["loop"]
    waits = [t for t in loop if t.kind == "wait"]
    guards = [t for t in waits if any(o.startswith("lowering:run-guard") for o in t.origin)]
    assert len(guards) == len(guard_before(reads)) > 0
    assert all(t.guards == frozenset({"lgkmcnt"}) for t in guards)
    own = [t for t in waits if t not in guards]
    assert own and all(not t.guards for t in own)     # the schedule's wait is walked
