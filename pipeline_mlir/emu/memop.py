"""The emulator's records of memory instructions in flight: :class:`MemOp`, one issued memory
instruction of one wave (its queue, what completing it does), and :class:`LdsAccess`, the
LDS bytes one op touches (what the machine's race check reads).  No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.emu.operands import Step

__all__ = ["MemOp", "LdsAccess"]


class MemOp:
    """One issued memory instruction of one wave."""

    __slots__ = ("id", "wave", "step", "queue", "smem", "complete_fn", "done", "released",
                 "dst_v", "dst_s", "lds", "issue_pos", "issue_epoch", "release_pos",
                 "release_epoch")

    def __init__(self, step: Step, queue: str, complete_fn, *, dst_v=(), dst_s=(), lds=None,
                 smem=False) -> None:
        self.step, self.queue, self.complete_fn = step, queue, complete_fn
        self.dst_v, self.dst_s, self.lds, self.smem = dst_v, dst_s, lds, smem
        self.done = False
        self.released = False
        self.id = -1
        self.wave = None
        self.issue_pos = self.issue_epoch = 0
        self.release_pos = self.release_epoch = None

    def complete(self) -> None:
        if not self.done:
            self.done = True
            if self.complete_fn is not None:
                self.complete_fn()
                self.complete_fn = None


class LdsAccess:
    """The bytes of LDS one op touches: ``addr`` (G, 64) start per lane (int64), ``size``
    bytes per lane, ``mask`` (G, 64) active lanes (``full``: all of them), ``write`` flag."""

    __slots__ = ("addr", "size", "mask", "full", "write", "flat", "unit")

    def __init__(self, addr, size, mask, full, write) -> None:
        self.addr, self.size, self.mask, self.full, self.write = addr, size, mask, full, write
        self.flat = self.unit = None        # set by the machine's race check
