"""Large global buffers handed from a finished launch to the next one of the same size.

A launch's inputs and C are copied or filled into fresh arrays (``GlobalMemory.add``,
``add_poisoned``); for IREE's 4096^3 problem that is 96 MB a run, and a fresh array's first
writes fault its pages in, which costs ten to twenty times the copy itself (0.14 s for
C's 64 MB on a busy 2-core machine, 8 ms into an array whose pages are in).  The runs of a
test session or a benchmark come in runs of one problem (two forms, several modes), so
:func:`buffer` keeps the memory it hands out, blocks of bytes, and hands a block out again
once the launch it went to is done with it.

Each call hands out a new array on the block (``np.frombuffer`` of a memoryview of it).
numpy makes that array the base of every view of it, a view of a view too (the array's own
base is no array), so the array lives as long as the launch or any view of it does, and a
finalizer (:func:`weakref.finalize`) puts the block back on the free list when it goes: a
block is handed out again only once nothing refers to the array made on it, whatever path
dropped it (an error that drops a launch drops its arrays with it; a traceback that holds
them keeps the block out until it goes too).  No reference count is read, so nothing here
depends on what an interpreter counts, and what a launch does to its array (made read-only,
reshaped in place) is not seen by the next one, which gets an array of its own.  Not a
holder: a copy of the block's address that Python does not count (the emulator takes none).
The caller writes every byte before use, so nothing of the earlier launch is seen.  At most
:data:`KEPT_BYTES` are kept (handed out or free); smaller arrays than :data:`SMALLEST` are
always fresh.

"""

from __future__ import annotations

import threading
import weakref

import numpy as np

#: arrays from this many bytes up are kept for reuse
SMALLEST = 1 << 20
#: at most this many bytes kept (in use or free)
KEPT_BYTES = 256 << 20


class _Pool:
    """The kept blocks: ``free`` the ones no array refers to, oldest first; ``kept`` the
    bytes of all of them, handed out or free.  A block goes back to the pool it came
    from."""

    def __init__(self) -> None:
        self.free: list[np.ndarray] = []
        self.kept = 0
        self.lock = threading.Lock()

    def give_back(self, block: np.ndarray) -> None:
        # the finalizer of an array made on ``block``: it may run in any thread, in the
        # middle of :meth:`take` too (a collection), so it takes no lock; a list's append
        # is one step
        self.free.append(block)

    def take(self, size: int) -> np.ndarray | None:
        """A free block of ``size`` bytes, else a new one kept (dropping free blocks of
        other sizes, the oldest first, when that makes room), else None (no room)."""
        with self.lock:
            for i, block in enumerate(self.free):
                if len(block) == size:
                    return self.free.pop(i)
            spare = sum(len(b) for b in self.free)
            if self.kept - spare + size > KEPT_BYTES:
                return None        # the blocks in use leave no room: keep the free ones
            while self.kept + size > KEPT_BYTES:
                self.kept -= len(self.free.pop(0))
            self.kept += size
            return np.empty(size, dtype=np.uint8)


_pool = _Pool()


def buffer(size: int) -> np.ndarray:
    """A uint8 array of ``size`` bytes whose contents are undefined: the caller writes
    every byte before it is read."""
    pool = _pool
    block = pool.take(size) if size >= SMALLEST else None
    if block is None:
        return np.empty(size, dtype=np.uint8)
    arr = np.frombuffer(memoryview(block), dtype=np.uint8)
    weakref.finalize(arr, pool.give_back, block).atexit = False
    return arr


def kept() -> int:
    """The bytes kept now (used or not)."""
    return _pool.kept

