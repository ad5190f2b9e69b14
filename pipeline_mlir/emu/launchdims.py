"""The shape of a launch the machine sets up: the workgroup's work-items in 1-3 dimensions
and their ids, the grid, and the dispatch packet and queue a kernel may ask for."""

from __future__ import annotations

import functools

import numpy as np

from pipeline_mlir.target.gfx950 import WAVE_SIZE

U32 = np.uint32


class WorkItemIds:
    """The work-item id VGPRs and the live lanes of each wave of a workgroup."""

    def __init__(self, vgprs: list, live: list) -> None:
        self.vgprs, self.live = vgprs, live


class LaunchDims:
    """The shape of a launch: ``block`` work-items per workgroup along x, y, z; ``grid``
    workgroups along x, y, z (None: not stated); the addresses of the dispatch packet and
    the queue the kernel may ask for (None: not provided)."""

    def __init__(self, block: tuple, grid: tuple | None = None,
                 dispatch_addr: int | None = None, queue_addr: int | None = None) -> None:
        self.block = tuple(block) + (1,) * (3 - len(block))
        self.grid = grid
        self.dispatch_addr, self.queue_addr = dispatch_addr, queue_addr

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    def workitem_ids(self, waves: int, enabled: int) -> WorkItemIds:
        """The work-item ids as the kernel descriptor's ENABLE_VGPR_WORKITEM_ID (``enabled``:
        0 x, 1 x and y, 2 x, y and z) asks for them.  gfx950 packs them into v0, 10 bits
        each (x in [9:0], y in [19:10], z in [29:20]; AMDGPUUsage, "Initial Kernel Execution
        State", packed work-item ids of gfx90a and later); the ids not enabled are 0.  A
        last wave of fewer than 64 work-items starts with the lanes past them inactive.
        The same object for the same block, waves and ``enabled`` (its arrays read only)."""
        return _workitem_ids(self.block, waves, enabled)


@functools.lru_cache(maxsize=64)
def _workitem_ids(block: tuple, waves: int, enabled: int) -> WorkItemIds:
    bx, by, bz = block
    threads = bx * by * bz
    t = np.arange(waves * WAVE_SIZE, dtype=np.int64).reshape(waves, WAVE_SIZE)
    x, y, z = t % bx, (t // bx) % by, t // (bx * by)
    packed = x | ((y << 10) if enabled >= 1 else 0) | ((z << 20) if enabled >= 2 else 0)
    vgprs = [[np.where(t[i] < threads, packed[i], 0).astype(U32)] for i in range(waves)]
    for regs in vgprs:
        for v in regs:
            v.flags.writeable = False
    live = [sum(1 << int(lane) for lane in np.flatnonzero(t[i] < threads))
            for i in range(waves)]
    return WorkItemIds(vgprs, live)


def workgroup_id(i: int, grid: tuple[int, ...]):
    """The workgroup id of linear index ``i`` (x fastest); an int for a 1-D grid."""
    if len(grid) == 1:
        return i
    out = []
    for g in grid:
        out.append(i % g)
        i //= g
    return tuple(out)
