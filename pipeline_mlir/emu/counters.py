"""A wave's counters of memory operations in flight: ``s_waitcnt``, and a full counter.

Each wave keeps its operations in issue order per counter (``w.vmq``: buffer/global loads
and stores, LDS DMA; ``w.lgkmq``: DS and scalar loads).  :func:`wait` releases what an
``s_waitcnt vmcnt(vm) lgkmcnt(lgkm)`` guarantees complete, assuming in-order completion per
counter (what LLVM assumes: vmcnt in order; lgkmcnt in order for LDS, scalar loads in any
order, so only ``lgkmcnt(0)`` guarantees them).  A counter holds at most
:data:`~pipeline_mlir.target.gfx950.IN_FLIGHT` operations (lgkmcnt 15, vmcnt 63): an
operation issued on a full counter first stalls the wave until the oldest completes
(:func:`make_room`), so the all-ones wait field ("do not wait") holds back nothing either.
"""

from __future__ import annotations

from pipeline_mlir.target.gfx950 import IN_FLIGHT


def wait(w, release, vm: int = IN_FLIGHT["vm"], lgkm: int = IN_FLIGHT["lgkm"]) -> None:
    """The wait ``vmcnt(vm) lgkmcnt(lgkm)`` of wave ``w``: ``release(w, op)`` for each op it
    guarantees complete (a scalar load is only completed, unless ``lgkm`` is 0)."""
    while len(w.vmq) > vm:
        release(w, w.vmq.popleft())
    q = w.lgkmq
    if len(q) > lgkm:
        if lgkm == 0 or not any(o.smem for o in q):
            while len(q) > lgkm:
                release(w, q.popleft())
        else:      # scalar loads return out of order: only DS ops are guaranteed
            ds = [o for o in q if not o.smem]
            for o in ds[:max(0, len(ds) - lgkm)]:
                release(w, o)
                q.remove(o)
            for o in list(q):
                if sum(not x.done for x in q) <= lgkm:
                    break
                o.complete()


def make_room(w, queue: str, release) -> None:
    """Before wave ``w`` issues an op on counter ``queue`` ("vm" or "lgkm"): when the
    counter is full, the wave stalls until its oldest op completes (a wait for one fewer)."""
    if len(w.vmq if queue == "vm" else w.lgkmq) >= IN_FLIGHT[queue]:
        wait(w, release, **{queue: IN_FLIGHT[queue] - 1})
