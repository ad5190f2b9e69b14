"""Where the lowering puts ``sched.barrier(0)`` fences.

A fence (``llvm.amdgcn.sched.barrier(0)``) keeps LLVM's machine scheduler from moving
instructions across it: around each run of waits, between the schedule's blocks, and
where a block's fragment loads and global loads meet, so that the loads issue in the
schedule's order (LLVM's scheduler otherwise hoists the long-latency global loads above
the fragment reads the schedule put first, which delays the reads' data the barrier
after them waits for).

Plain Python (no MLIR): the lowering (``dialect/rocdl_build.py``) places fences
with :func:`fenced_sequence`, and the ISA check (:mod:`pipeline_mlir.isa.check`)
uses the same function to know which fences the final assembly must hold.
"""

from __future__ import annotations

from pipeline_mlir.schedule.types import SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, OpDesc, OpRole

#: the two kinds of loads whose order in a block ``fence_loads`` keeps
LOAD_ROLES = (OpRole.GLOBAL_LOAD, OpRole.FRAGMENT_LOAD)


def is_wait(desc: OpDesc) -> bool:
    return desc.tag in (WAIT_VM, WAIT_LGKM)


def fenced_sequence(descs: list[OpDesc], blocks: list[int | None] | None,
                    fence_waits: bool, fence_blocks: bool,
                    fence_loads: bool = False) -> list[OpDesc | None]:
    """The entries with ``None`` where a ``sched.barrier(0)`` fence must go.

    A run of adjacent waits gets one fence before and one after; each change of
    block index gets one fence between the blocks; with ``fence_loads`` a fragment
    load and a global load of the schedule's blocks with no fence between them (in
    either order) get one between them (entries without blocks, such as the
    single-buffer kernel's, whose order its schedule-group hints give, get none); no
    fence is added next to an existing SCHEDULE_BARRIER or another fence.
    """
    out: list[OpDesc | None] = []

    def fence() -> None:
        if out and (out[-1] is None or out[-1].tag == SCHEDULE_BARRIER):
            return
        out.append(None)

    def last_load() -> OpRole | None:
        """The role of the last load since the last fence (None: no load)."""
        for x in reversed(out):
            if x is None or x.tag == SCHEDULE_BARRIER:
                return None
            if x.role in LOAD_ROLES:
                return x.role
        return None

    n = len(descs)
    for i, d in enumerate(descs):
        if (fence_blocks and blocks and 0 < i < len(blocks) and blocks[i] != blocks[i - 1]
                and d.tag != SCHEDULE_BARRIER):
            fence()
        if (fence_loads and blocks and d.role in LOAD_ROLES
                and last_load() not in (None, d.role)):
            fence()
        if fence_waits and is_wait(d) and (i == 0 or not is_wait(descs[i - 1])):
            fence()
        out.append(d)
        if (fence_waits and is_wait(d) and (i + 1 == n or not is_wait(descs[i + 1]))
                and not (i + 1 < n and descs[i + 1].tag == SCHEDULE_BARRIER)):
            out.append(None)
    return out
