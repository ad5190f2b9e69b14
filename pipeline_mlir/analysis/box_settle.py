"""Settling a proof over a box (:mod:`~pipeline_mlir.analysis.box_eval`): a box its points
leave :class:`~pipeline_mlir.analysis.box_eval.Undecided` split where what moves changes
(:func:`split_along`), its parts proven in turn down to single points (:func:`settle`).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.box_eval import Box, Undecided


def split_along(box: Box, err: Undecided) -> tuple[int, int | None]:
    """The coordinate to split ``box`` along after ``err`` and where (None: in halves):
    where ``err`` names a quotient that moves, where it first changes along the widest
    coordinate it moves with (:func:`_first_change`); else in halves along the widest
    coordinate a value ``err`` names moves with (a step of the box changes it), or the
    widest."""
    if err.cut is not None:
        found = _first_change(box, *err.cut)
        if found is not None:
            return found
    wide = [d for d, (a, b) in enumerate(zip(box.lo, box.hi)) if b > a]
    moved = []
    for v in err.values:
        r = np.asarray(v)
        if r.size % len(box.points):
            continue
        r = r.reshape(len(box.points), -1)
        moved += [d for d in wide if box.unit[d] is not None and
                  (r[box.unit[d]] != r[0]).any()]
    pick = moved or wide
    return max(pick, key=lambda d: box.hi[d] - box.lo[d]), None


def _first_change(box: Box, a, d: int) -> tuple[int, int] | None:
    """(coordinate, position): along the widest coordinate ``a`` (one entry per lane) moves
    with, the first position from the box's lowest point where ``a // d`` changes in some
    lane (``d`` 0: the sign of ``a``; the other coordinates at the lowest point's), if
    inside the box; else None."""
    a = np.asarray(a)
    if a.size % len(box.points):
        return None
    rows = a.reshape(len(box.points), -1)
    a0, best = rows[0], None
    for k, u in enumerate(box.unit):
        if u is None:
            continue
        s = rows[u] - a0
        up, down = s > 0, s < 0
        if not (up | down).any():
            continue
        steps = _steps(a0[up], s[up], d) if up.any() else _steps(-a0[down], -s[down], d)
        if up.any() and down.any():
            steps = np.concatenate([steps, _steps(-a0[down], -s[down], d)])
        at = box.lo[k] + int(steps.min())
        if box.lo[k] < at <= box.hi[k] and \
                (best is None or box.hi[k] - box.lo[k] > box.hi[best[0]] - box.lo[best[0]]):
            best = (k, at)
    return best


def _steps(a0: np.ndarray, s: np.ndarray, d: int) -> np.ndarray:
    """Per lane, the steps of ``s`` (> 0) from ``a0`` until ``a0 + t s`` leaves the block
    of ``d`` it starts in (``d`` 0: until it reaches 0, or leaves it; never, above it).  For a
    value that falls the caller negates it: its blocks are then counted from above, which
    moves the cut by one at most (any cut inside the box is sound)."""
    if d == 0:
        return np.where(a0 > 0, np.iinfo(np.int64).max // 2, np.maximum(1, -(a0 // s)))
    return np.maximum(1, -((a0 - d * (np.floor_divide(a0, d) + 1)) // s))


class GaveUp(Exception):
    """:func:`settle` evaluated its limit of boxes without settling them all."""


def settle(top: Box, check, limit: int, start: list | None = None,
           leaves: list | None = None) -> tuple | None:
    """Prove ``check(box)`` for ``top`` box by box, a box ``check`` leaves
    :class:`Undecided` split (:func:`split_along`), its halves proven lower first, down to
    single points.  ``check`` returns None where the box holds, else the point (a row of
    its points) where it fails.  Returns None or the first failing point met;
    :class:`GaveUp` after ``limit`` boxes.  ``start``: boxes that partition ``top``, lowest
    first, proven in its place (any partition proves what ``top`` does; the ``leaves`` of
    an earlier proof skip the boxes it split; none, ``top``); ``leaves`` gets each box that
    held."""
    stack, count, last = (start[::-1] if start else [top]), 0, ""
    while stack:
        box = stack.pop()
        count += 1
        if count > limit:
            raise GaveUp(last)
        try:
            bad = check(box)
        except Undecided as e:
            if box.size() == 1:
                raise AssertionError(f"a single point left undecided: {e.why}") from None
            last = e.why
            lower, upper = box.split(*split_along(box, e))
            stack += [upper, lower]
            continue
        if bad is not None:
            return tuple(int(v) for v in bad)
        if leaves is not None:
            leaves.append(box)
    return None

