"""Two sets of copies into one LDS tile compared run by run, not element by element.

:func:`~pipeline_mlir.frontend.kept_layout.prove_kept` asks, for every workgroup and K
step, whether the kernel's copies and the front end's give every LDS element the same
global element (or both zeros).  Each copy's lane writes a run: LDS elements
``lds[lane, e]`` get ``start + e`` for ``e < width``, or all a code (zeros, a run neither
inside nor past the end) when ``start`` is one.  Which lane and which ``e`` writes each
LDS element does not depend on the workgroup or the K step (the later of two copies
writing one element wins, as when the tables are filled in order), so it is worked out
once (:class:`RunTables`): the LDS elements fall into classes of one writing run on each
side and one difference ``e_own - e_kernel``; in a class, the two sides give every element
the same value exactly when ``start_kernel == start_own + difference`` with both runs read,
or both runs zeros, and an element no copy of one side writes (``-1``) matches only one no
copy of the other side writes.  A workgroup and K step then costs one comparison per class
instead of one per LDS element; the element reported where they differ is the lowest of
the first row's differing classes, its two values the ones the element tables hold.
Elements no fragment read reads (``skip``: padding rows the front end's copies leave out,
:mod:`~pipeline_mlir.frontend.unread_bits`) are compared as written by neither side.
"""

from __future__ import annotations

import numpy as np

#: the value of an LDS element that no copy writes
UNWRITTEN = -1
#: rows x classes compared at once, at most (one row at least): temporaries small enough
#: for the allocator to reuse, not map afresh each time
_BLOCK = 1 << 14


def _writers(runs: list, full: int) -> tuple:
    """Per LDS element (of ``full``): the column of the run that writes it last (``-1``:
    none) and its place ``e`` in that run; ``runs``: per copy, its LDS elements (lanes,
    width), in the order the copies write; columns count the copies' lanes in order."""
    col = np.full(full, -1, np.int64)
    place = np.zeros(full, np.int64)
    base = 0
    for lds in runs:
        lanes, width = lds.shape
        col[lds.ravel()] = base + np.repeat(np.arange(lanes), width)
        place[lds.ravel()] = np.tile(np.arange(width), lanes)
        base += lanes
    return col, place


class RunTables:
    """The classes of LDS elements of the two sides' runs (module docstring):
    ``kernel`` and ``own`` hold, per side and copy, the copy's LDS elements (lanes,
    width), in the order the copies write; ``full``: the LDS elements compared, but those
    ``skip`` marks (a mask of them, if any: equal whatever either side writes)."""

    def __init__(self, kernel: list, own: list, full: int, skip=None) -> None:
        self.kcol, self.kplace = _writers(kernel, full)
        self.ocol, self.oplace = _writers(own, full)
        if skip is not None:
            self.kcol[skip] = self.ocol[skip] = -1
        none = (self.kcol < 0) | (self.ocol < 0)
        diff = np.where(none, 0, self.oplace - self.kplace)
        keys = np.stack([self.kcol, self.ocol, diff])
        _, first = np.unique(keys, axis=1, return_index=True)
        first = np.sort(first)               # each class's lowest element, in order
        #: per class: its lowest LDS element, its runs' columns and the difference
        self.element = first
        self.k = self.kcol[first]
        self.o = self.ocol[first]
        self.diff = diff[first]
        #: classes one side only writes (never equal), or neither (always equal)
        self.one_side = (self.k < 0) != (self.o < 0)
        self.sided = (self.k >= 0) & (self.o >= 0)
        self._k = np.where(self.sided, self.k, 0)
        self._o = np.where(self.sided, self.o, 0)

    def first_difference(self, kernel: np.ndarray, own: np.ndarray, zero: int):
        """The first row (of ``kernel`` and ``own``: (rows, columns) of run starts, a start
        below 0 a code, ``zero`` the kernel's and own side's zeros) and LDS element where
        the two sides differ, with the kernel's and the own side's values there, or None."""
        step = max(1, _BLOCK // len(self.element))
        for top in range(0, len(kernel), step):
            kr = kernel[top:top + step, self._k]
            orun = own[top:top + step, self._o]
            same = ((kr >= 0) & (orun >= 0) & (kr == orun + self.diff)) | \
                ((kr == zero) & (orun == zero))
            differ = np.where(self.sided, ~same, self.one_side)
            rows = np.flatnonzero(differ.any(axis=1))
            if len(rows):
                r = top + int(rows[0])
                x = int(self.element[np.flatnonzero(differ[rows[0]])[0]])
                return r, x, self._value(kernel[r], self.kcol[x], self.kplace[x]), \
                    self._value(own[r], self.ocol[x], self.oplace[x])
        return None

    @staticmethod
    def _value(starts: np.ndarray, col: int, place: int) -> int:
        if col < 0:
            return UNWRITTEN
        s = int(starts[col])
        return s + place if s >= 0 else s
