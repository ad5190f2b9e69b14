"""The main loop's last vmcnt wait moves to the loop's exit only where the loop's head
repeats it and nothing but MMAs, fences, priorities and lgkmcnt waits follows it."""

from __future__ import annotations

from pipeline_mlir.schedule.loop_waits import ExitWait, loop_exit_wait
from pipeline_mlir.schedule.types import BARRIER, OpDesc, OpRole, ResourceKind

VM, LGKM = OpDesc.wait_vm, OpDesc.wait_lgkm
BAR, FENCE, PRIO = OpDesc.barrier(), OpDesc.schedule_barrier(), OpDesc.set_prio(1)
MMA = OpDesc(tag=3, resource=ResourceKind.MMA_UNIT, role=OpRole.COMPUTE)
LOAD = OpDesc(tag=0, resource=ResourceKind.GLOBAL_MEM, role=OpRole.GLOBAL_LOAD)
READ = OpDesc(tag=1, resource=ResourceKind.LDS, role=OpRole.FRAGMENT_LOAD)

#: a 4-wave half: the head waits and barriers, loads, and the tail ``WAIT_VM MMA``
HEAD = [FENCE, VM(4), LGKM(2), BAR, READ, LOAD, MMA]
EPILOGUE = [LGKM(0), BAR, FENCE, READ, VM(0), MMA]


def test_the_tail_wait_moves_to_the_epilogue_start():
    kernel = HEAD + [VM(4), MMA]
    assert loop_exit_wait(kernel, EPILOGUE) == ExitWait(7, 8, VM(4), 0)


def test_it_passes_fences_priorities_and_lgkm_waits():
    kernel = HEAD + [VM(6), FENCE, PRIO, MMA, LGKM(0), PRIO, FENCE]
    assert loop_exit_wait(kernel, EPILOGUE) == ExitWait(7, 8, VM(6), 0)


def test_a_wait_wrapped_in_schedule_barriers_leaves_with_them():
    kernel = HEAD + [FENCE, VM(4), FENCE, MMA]
    assert loop_exit_wait(kernel, EPILOGUE) == ExitWait(7, 10, VM(4), 0)
    # a schedule barrier on one side only stays
    assert loop_exit_wait(HEAD + [FENCE, VM(4), MMA], EPILOGUE) == ExitWait(8, 9, VM(4), 0)


def test_an_epilogue_wait_as_strict_needs_nothing_and_a_weaker_one_is_tightened():
    kernel = HEAD + [VM(4), MMA]
    assert loop_exit_wait(kernel, [FENCE, LGKM(0), VM(2), READ]) == ExitWait(7, 8, VM(4), None)
    assert loop_exit_wait(kernel, [LGKM(0), VM(6), READ]) == ExitWait(7, 8, VM(4), 1, 1)
    # a vmcnt wait after the epilogue's first read does not count
    assert loop_exit_wait(kernel, [READ, VM(0)]) == ExitWait(7, 8, VM(4), 0)


def test_nothing_moves_past_memory_or_a_barrier():
    for after in (BAR, LOAD, READ):
        assert loop_exit_wait(HEAD + [VM(4), MMA, after], EPILOGUE) is None, after
    assert BAR.tag == BARRIER


def test_nothing_moves_without_a_head_wait_as_strict():
    assert loop_exit_wait(HEAD + [VM(3), MMA], EPILOGUE) is None       # head waits VM(4)
    no_vm = [FENCE, LGKM(2), BAR, READ, LOAD, MMA]
    assert loop_exit_wait(no_vm + [VM(4), MMA], EPILOGUE) is None
    late = [READ, VM(0), BAR, LOAD, MMA]                     # the head's wait after a read
    assert loop_exit_wait(late + [VM(4), MMA], EPILOGUE) is None


def test_lgkm_waits_and_bodies_without_a_tail_wait_stay():
    assert loop_exit_wait(HEAD + [LGKM(0), MMA], EPILOGUE) is None
    assert loop_exit_wait(HEAD, EPILOGUE) is None
    assert loop_exit_wait([VM(0)], EPILOGUE) is None          # the wait is its own head
    assert loop_exit_wait([], EPILOGUE) is None
