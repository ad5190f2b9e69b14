"""The evaluation half of :func:`~pipeline_mlir.frontend.every_workgroup.
prove_every_workgroup`: every workgroup of the kernel's static grid, at every K step
compared, side by side in numpy (one lane per thread and workgroup), each LDS element of a
channel given the global element the kernel's copies give it and the one the front end's
give it, and the two compared (that module's docstring says what must hold).  A workgroup
whose lanes start where an earlier one's block has them, moved by its base, is settled
without its tables (:func:`_unsettled`); the others are compared in order, so a refusal
names the same first element either way.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.analysis.box_eval import check_affine, decided, decided_between
from pipeline_mlir.frontend.grid_eval import CHUNK, before_start, over_boxes, wide_evaluator
from pipeline_mlir.frontend.kernel_ir import describe
from pipeline_mlir.frontend.unused_rows import UnusedElements
from pipeline_mlir.frontend.unused_spare import spare_unused


def compare_over_grid(an, ch, grid: tuple, why: str, ends: tuple,
                      unused: UnusedElements | None, mixing) -> None:
    """Refuse channel ``ch``'s copies at the first workgroup, K step and LDS element where
    the kernel's copies and the front end's disagree (:func:`_compare`); ``grid``: (the
    kernel, its launch ops, the workgroups to evaluate, the K steps ``(iv, when)``);
    ``why``, ``ends``, ``unused`` and ``mixing`` as :func:`_compare` reads them."""
    kernel, found, points, steps = grid
    col = _writers(ch)
    lanes, block = _lane_of(ch, col, an.scan.threads), None
    for start in range(0, len(points), CHUNK):
        chunk = points[start:start + CHUNK]
        wide = wide_evaluator(an.scan, kernel, chunk, None, found)
        for iv, when in steps:
            starts = _starts(an, ch, wide, iv, chunk, when)
            rest, block = _unsettled(ch, starts, lanes, ends[1], block)
            if rest.any():
                got, want = _tables(ch, starts, col, rest)
                _compare(an, ch, got, want, chunk[rest], when, why, ends, unused, mixing)


def _writers(ch) -> np.ndarray:
    """Per LDS element of channel ``ch``, the column that writes it last among the kernel's
    copies' elements side by side (each copy's lanes' runs, copy after copy, as
    :func:`_tables` lays them out), or the column after them all where no copy writes it."""
    col = np.full(len(ch.table), sum(lds.size for lds in ch.lds), dtype=np.int64)
    base = 0
    for lds in ch.lds:
        col[lds.ravel()] = base + np.arange(lds.size)
        base += lds.size
    return col


def _lane_of(ch, col: np.ndarray, t: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Per LDS element of channel ``ch``, the lane writing it last (:func:`_writers`'s
    ``col``) as a column of :func:`_starts`' lanes side by side (copy after copy of ``t``
    lanes), and its element in that lane's run; None if some LDS element has no writer."""
    size = sum(lds.size for lds in ch.lds)
    if (col == size).any():
        return None
    lane, run = np.empty(len(col), dtype=np.int64), np.empty(len(col), dtype=np.int64)
    at = 0
    for j, lds in enumerate(ch.lds):
        mine = (col >= at) & (col < at + lds.size)
        per = lds.size // t
        lane[mine] = j * t + (col[mine] - at) // per
        run[mine] = (col[mine] - at) % per
        at += lds.size
    return lane, run


def _starts(an, ch, ev, iv: int, chunk: np.ndarray, when: str) -> tuple:
    """(per copy of the channel, (workgroups, lanes): the global element each lane of the
    kernel's copy starts its run at; per workgroup, the reference copy's thread 0's; per
    copy, its lanes' run of elements), with
    the loop's variable ``iv`` (the ``when`` K step) in the workgroups of ``chunk``; a lane
    that reads an element before the buffer's start refused as :func:`~pipeline_mlir.
    frontend.every_read.check_every_read` refuses it (which leaves these copies to this
    evaluation)."""
    ev.bind(an.scan.loop.regions[0].blocks[0].arguments[0], iv)
    starts, base, runs = _lane_starts(an, ch, ev, len(chunk))
    for i, start in zip(ch.copies, starts):
        least = start.min(axis=1)
        if (least < 0).any():
            w = int(np.argmax(least < 0))
            before_start(an.scan.copies[i].op, tuple(int(v) for v in chunk[w]), when,
                         int(least[w]))
    return starts, base, runs


def _lane_starts(an, ch, ev, count: int) -> tuple:
    """:func:`_starts` of the ``count`` workgroups ``ev`` evaluates, as bound."""
    scan, t = an.scan, an.scan.threads
    starts, base, runs = [], np.zeros(count, dtype=np.int64), []
    for i in ch.copies:
        a = scan.copies[i]
        start = ev.view(a.src).element([ev.value(x) for x in a.src_indices]).reshape(count, t)
        starts.append(start.astype(np.int64, copy=False))
        runs.append(a.elements)
        if i == ch.ref:
            base = starts[-1][:, 0]
    return starts, base, runs


def compare_by_boxes(an, ch, grid: tuple, ends: tuple, limit: int):
    """:func:`compare_over_grid`'s proof over boxes of workgroups and K steps
    (:mod:`~pipeline_mlir.analysis.box_eval`): each lane's start and the reference copy's
    thread 0's certified affine over each box, so each LDS element's global element from
    either side is too, and equal on the box where it is at every point evaluated; the
    tests :func:`_compare` makes (before the buffer's start, past its end within a buffer
    load's reach, past that reach) decided the same at each of them.  ``grid`` as
    :func:`compare_over_grid`'s (its K steps evenly spaced).  None where no LDS element
    differs in any workgroup and K step; else the point (workgroup ids, then the index of
    the K step) where one does (before any element is spared as feeding no stored C), or
    why the boxes gave up (more than ``limit`` boxes)."""
    kernel, found, points, steps = grid
    col = _writers(ch)

    def test(ev, box):
        got = _lane_starts(an, ch, ev, len(box.points))
        for start in got[0]:
            check_affine(box, start, "a copy's lanes' starts")
        got, want = _tables(ch, got, col, np.arange(len(box.points)))
        return _box_differences(box, ch, got, want, ends)
    return over_boxes(an.scan, kernel, found, tuple(int(n) + 1 for n in points.max(axis=0)),
                      [k for k, _ in steps], limit, test)


def _box_differences(box, ch, got: np.ndarray, want: np.ndarray, ends: tuple) -> int | None:
    """The first point of ``box`` (a row of :func:`_tables`' ``got`` and ``want``) where an
    LDS element differs as :func:`_compare` judges it, sparing nothing; None if none, each
    test it makes decided the same at every point (else
    :class:`~pipeline_mlir.analysis.box_eval.Undecided`)."""
    zero, far = ends
    reach = zero[1] if zero is not None and zero[0] == ch.elements else None
    check_affine(box, got, "the kernel's elements")
    check_affine(box, want, "the front end's elements")
    bad = (got != want) | (got < 0)
    decided(box, got < 0, "an element before the buffer's start")
    if reach is not None:
        zeros = [(x >= ch.elements) & (x < reach) for x in (got, want)]
        for x, z in zip((got, want), zeros):
            decided_between(box, x, ch.elements, reach - 1, z, "an element read as zero")
        bad &= ~(zeros[0] & zeros[1]) | (got < 0)
    if far is not None:
        decided(box, got >= far, "an element past a buffer load's reach")
        bad |= got >= far
    rows = np.flatnonzero(bad.any(axis=1))
    return int(rows[0]) if len(rows) else None


def _unsettled(ch, got: tuple, lanes, far: int | None, block) -> tuple:
    """(per workgroup of :func:`_starts`' ``got``, whether :func:`_compare` is still to
    look at its tables; ``block``, found or kept).  ``block``: the lanes' starts less the
    reference copy's thread 0's (one row) that, laid out as :func:`_tables` lays them
    (``lanes``: :func:`_lane_of`), give the channel's table less its base, taken from the
    first workgroup whose lanes do (None: none found yet).  A workgroup whose lanes start
    where ``block`` has them, moved by its base, gets from the kernel's copies the front
    end's elements, none before the buffer (:func:`_starts` refused that), so nothing
    :func:`_compare` refuses but an element at or past ``far`` (checked here by the
    block's last element); every other workgroup is left to :func:`_compare`, in order, so
    that it refuses the same first element.  Where some LDS element has no writer
    (``lanes`` None) every workgroup is."""
    starts, base, _runs = got
    if lanes is None:
        return np.ones(len(base), dtype=bool), block
    lane, run = lanes
    rel = np.concatenate(starts, axis=1) - base[:, None]
    if block is None:
        row = rel[0][lane] + run
        if not np.array_equal(row, ch.table - ch.base0):
            return np.ones(len(base), dtype=bool), None
        block = rel[0].copy(), int(row.max())
    same = (rel == block[0][None, :]).all(axis=1)
    if far is not None:
        same &= base + block[1] < far
    return ~same, block


def _tables(ch, got: tuple, col: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(workgroups, LDS elements): the global element each LDS element of the channel gets
    from the kernel's copies (their lanes' starts and the reference copy's thread 0's in
    ``got``: :func:`_starts`, of the workgroups ``rows`` selects), and from the front end's
    (workgroup 0's table moved by what the reference copy's thread 0 reads); ``col``: the
    channel's :func:`_writers` (the elements laid side by side, then gathered: -1 where no
    copy writes)."""
    starts, base, runs = got
    starts, base = [s[rows] for s in starts], base[rows]
    count = len(base)
    size = sum(lds.size for lds in ch.lds)
    side = np.empty((count, size + 1), dtype=np.int64)
    side[:, size] = -1
    at = 0
    for start, run, lds in zip(starts, runs, ch.lds):
        el = start[:, :, None] + np.arange(run)[None, None, :]
        side[:, at:at + lds.size] = el.reshape(count, -1)
        at += lds.size
    got = np.take(side, col, axis=1)
    return got, ch.table[None, :] + (base - ch.base0)[:, None]


def _compare(an, ch, got: np.ndarray, want: np.ndarray, chunk: np.ndarray, when: str,
             why: str, ends: tuple, unused: UnusedElements | None, mixing) -> None:
    """Refuse the first LDS element where ``got`` and ``want`` differ, unless both read
    zeros: past the end of a range-checked buffer, within a buffer load's 32-bit offset
    (:func:`~pipeline_mlir.frontend.kernel_ir.zero_end`; further on the offset wraps into the
    buffer): ``ends[0]``, given only where every K step is compared (else a lane's run past
    the end at the first K step may lie inside at another); and where the kernel's element
    lies past that offset's reach, ``ends[1]`` (:func:`~pipeline_mlir.frontend.
    every_workgroup._reach`), even if both agree: there
    the pipelined copies, their offset split, wrap otherwise.  A difference inside the
    buffer that ``unused`` proves feeds no stored element of C is spared
    (:func:`~pipeline_mlir.frontend.unused_spare.spare_unused`); ``mixing(i)``: the op that
    mixes the workgroup with the thread in copy ``i``'s index (the refusal names it), or None."""
    zero, far = ends
    reach = zero[1] if zero is not None and zero[0] == ch.elements else None
    if reach is None:       # (no zeros read: the tables' elements compared as they are)
        zeros = None
        bad = (got != want) | (got < 0)
    else:
        zeros = [(x >= ch.elements) & (x < reach) for x in (got, want)]
        bad = ((got != want) & ~(zeros[0] & zeros[1])) | (got < 0)
    if unused is not None and bad.any():    # (else nothing to spare: not worked out)
        end = np.inf if ch.elements is None else ch.elements
        inside = [(x >= 0) & (x < end) if z is None else (x >= 0) & (z | (x < end))
                  for x, z in zip((got, want), zeros or (None, None))]
        bad = spare_unused(unused, bad, inside[0] & inside[1], chunk)   # feeding no stored C
    if far is not None:
        bad |= got >= far
    if not bad.any():
        return
    w, x = (int(v) for v in np.argwhere(bad)[0])
    wid = tuple(int(v) for v in chunk[w])
    i = next(i for i, lds in zip(ch.copies, ch.lds) if x in lds)    # the copy writing x
    mixed = mixing(i)
    if mixed is not None:
        why = (f"its global index mixes the workgroup with the thread or the K-loop "
               f"otherwise than as an offset ({describe(mixed)})")
    what = (f"LDS element {x} gets global element {int(got[w, x])} from the kernel's copies, "
            f"before the buffer's start" if got[w, x] < 0 else
            f"LDS element {x} gets global element {int(got[w, x])} from the kernel's copies, "
            f"past the {far} a buffer load's 32-bit offset reaches"
            if far is not None and got[w, x] >= far else
            f"LDS element {x} gets global element {int(got[w, x])} from the kernel's copies "
            f"and {int(want[w, x])} from the front end's")
    raise LM.LoopRefusal(
        f"channel {ch.label}'s copies do not move as one block from one workgroup to "
        f"another ({why}): in workgroup {wid} at the loop's {when} K step, {what}",
        (an.copies[i].op,))
