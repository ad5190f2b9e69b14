"""Large global buffers handed from a finished launch to the next one of the same size.

A launch's inputs and C are copied or filled into fresh arrays (``GlobalMemory.add``,
``add_poisoned``); for IREE's 4096^3 problem that is 96 MB a run, and a fresh array's first
writes fault its pages in, which costs ten to twenty times the copy itself (0.14 s for
C's 64 MB on a busy 2-core machine, 8 ms into an array whose pages are in).  The runs of a
test session or a benchmark come in runs of one problem (two forms, several modes), so
:func:`buffer` keeps the arrays it hands out and gives one again once nothing but this
module refers to it: no launch, no view of it (a view holds its base), no copy of its
pointer that Python does not count (the emulator takes none).  The caller writes every
byte before use, so nothing of the earlier launch is seen.  At most :data:`KEPT_BYTES`
are kept; smaller arrays than :data:`SMALLEST` are always fresh.
"""

from __future__ import annotations

import sys

import numpy as np

#: arrays from this many bytes up are kept for reuse
SMALLEST = 1 << 20
#: at most this many bytes kept (in use or free)
KEPT_BYTES = 256 << 20

_kept: list[np.ndarray] = []


def _references(arrays: list, i: int) -> int:
    return sys.getrefcount(arrays[i])


#: what :func:`_references` counts of an array only a list refers to (measured, not assumed:
#: how many references the call itself adds is the interpreter's business)
_ALONE = _references([np.empty(0)], 0)


def _unused(i: int) -> bool:
    """Whether ``_kept[i]`` is referred to by the list alone."""
    return _references(_kept, i) == _ALONE


def buffer(size: int) -> np.ndarray:
    """A uint8 array of ``size`` bytes whose contents are undefined: the caller writes
    every byte before it is read."""
    if size < SMALLEST:
        return np.empty(size, dtype=np.uint8)
    for i in range(len(_kept)):
        if len(_kept[i]) == size and _unused(i):
            return _kept[i]
    arr = np.empty(size, dtype=np.uint8)
    # make room: drop unused arrays, the oldest first
    i = 0
    while i < len(_kept) and sum(len(a) for a in _kept) + size > KEPT_BYTES:
        if _unused(i):
            del _kept[i]
        else:
            i += 1
    if sum(len(a) for a in _kept) + size <= KEPT_BYTES:
        _kept.append(arr)
    return arr


def kept() -> int:
    """The bytes kept now (used or not)."""
    return sum(len(a) for a in _kept)
