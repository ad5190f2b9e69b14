"""The strided block an LDS buffer holds, and rows pointed past the end of its buffer.

The front end's own copies (:mod:`~pipeline_mlir.frontend.layout`) read, per LDS
element, the global element the kernel's copies put there in workgroup 0, which must be
a strided block: :func:`fit_digits` finds its digits, :func:`data_layout` the swizzle
under which the buffer holds it.

IREE's kernels for a size its tile does not divide (N = 63 under a 64-row tile, M = 17
under a 32-row one) point the rows of a tile that C's edge cuts past the end of the
operand's buffer (an ``arith.select`` of an index past it): a range-checked fat buffer
reads them as zero.  Where such a tile is the only one along M or N, workgroup 0 holds
those rows too, and its table is no strided block: the past-the-end indices are wherever
the select put them.  The front end's copies may read any element there that also lies
past the end: it reads zero as the kernel's did.  So, given ``zero``
(:func:`~pipeline_mlir.frontend.kernel_ir.zero_end`: the buffer reads zero past its end),
an element of the table past the end is free in the fit (:func:`fit_digits`' ``free``),
and :func:`filled_layout` takes a fit only if it points every free element past the end
too and every element within the offset a buffer load reaches; the table it returns has
the free elements filled in.  :func:`check_runs` then wants every lane's run of the
front end's copies wholly inside or wholly past the end (as
:func:`~pipeline_mlir.frontend.edges.check_in_global` wants the kernel's), and in the
other workgroups and at the loop's last K step the filled table, moved, is compared with
the kernel's copies (:func:`~pipeline_mlir.frontend.edges.check_copy_reads`: equal, or
both past the end).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.analysis.loop_eval import xor_shuffle


def fit_digits(d: np.ndarray, free: np.ndarray | None = None) -> tuple | None:
    """``((m, r, s), ...)`` with ``d[x] == sum(((x // m) % r) * s)`` for every ``x`` (a
    mixed-radix strided block, innermost digit first) but those ``free`` marks (any value
    fits there; :func:`filled_layout` says which), or None if ``d`` is not one."""
    n = len(d)
    free = np.zeros(n, dtype=bool) if free is None else free
    if n == 0 or free[0] or d[0] != 0:
        return None
    digits, m = [], 1
    while m < n:
        if free[m]:
            return None
        s = int(d[m])
        r = 1
        while m * (r + 1) <= n and (free[m * r] or int(d[m * r]) == r * s):
            r += 1
        while (n // m) % r:
            r -= 1
        if r < 2:
            return None
        digits.append((m, r, s))
        m *= r
    x = np.arange(n, dtype=np.int64)
    # every 61st element first (a prime stride meets every digit): most candidates fail there
    for xs in (x[::61], x):
        got = block_values(xs, tuple(digits))
        if not np.array_equal(got[~free[xs]], d[xs][~free[xs]]):
            return None
    return tuple(digits)


def block_values(x: np.ndarray, digits: tuple) -> np.ndarray:
    """The block's offset ``sum(((x // m) % r) * s)`` of each element ``x``."""
    return sum(((x // m) % r) * s for m, r, s in digits)


def data_layout(table: np.ndarray, swizzle) -> tuple:
    """(swizzle, digits) of :func:`filled_layout` with no element free."""
    return filled_layout(table, swizzle)[:2]


def filled_layout(table: np.ndarray, swizzle, zero: tuple[int, int] | None = None,
                  kept: bool = False, spare: np.ndarray | None = None) -> tuple:
    """(swizzle, digits, table): how the LDS buffer holds its global block: the element at
    physical index ``xor_shuffle(x, *swizzle)`` (``x`` itself if None) is the block's
    ``sum(((x // m) % r) * s)``.  The buffer's own swizzle if it has one; else none or
    the XOR swizzle (power-of-two rows and chunks) the copies' addresses apply, found
    from the data (IREE's late form writes the swizzle as arithmetic).  With ``zero``
    (:func:`~pipeline_mlir.frontend.kernel_ir.zero_end`) the elements past the buffer's end
    are free (module docstring), and ``table`` comes back with them filled in.  ``kept``:
    the channel's copies keep a mask (:mod:`~pipeline_mlir.frontend.kept_layout`), so a
    free element may be filled in inside the buffer too: the front end's copies test each
    lane's run against the buffer's bounds, and the proof there, every LDS element of every
    workgroup and K step the kernel's or zeros on both sides, judges what they read (a fit
    that puts every free element past the end is still taken first, as without ``kept``).
    ``spare`` (with ``zero``): elements no stored output depends on in workgroup 0
    (:func:`~pipeline_mlir.frontend.unused_spare.unused_first`: IREE's rows past M clamped
    to row M, a batch's next), free too, filled in anywhere a buffer load reaches (inside
    the buffer or past its end); the comparisons in every workgroup spare them only where
    that proof does.  Digits None: no such layout."""
    size = len(table)
    if swizzle is not None:
        candidates = [swizzle]
    else:
        pow2 = [1 << k for k in range(size.bit_length()) if (1 << k) <= size]
        candidates = [None] + [(row, acc) for acc in pow2 for row in pow2 if row > acc]
    x = np.arange(size, dtype=np.int64)
    free = None if zero is None or table.max() < zero[0] else table >= zero[0]
    if spare is not None and zero is not None:
        free = spare if free is None else free | spare
    found = _fit(table, swizzle, candidates, x, free, zero, False, spare)
    if found[1] is None and kept and free is not None:
        found = _fit(table, swizzle, candidates, x, free, zero, True)
    return found


def _fit(table, swizzle, candidates: list, x, free, zero, anywhere: bool,
         spare: np.ndarray | None = None) -> tuple:
    """:func:`filled_layout` over ``candidates``; ``anywhere``: a free element may be
    filled in inside the buffer (``spare``: those elements anywhere, the others past the
    end)."""
    for sw in candidates:
        logical = x if sw is None else xor_shuffle(x, *sw)
        # the buffer's own swizzle must be an involution; the power-of-two candidates are
        # (chunk ^ phase stays below row / access)
        if swizzle is not None and not np.array_equal(xor_shuffle(logical, *sw), x):
            continue
        held = table[logical]
        held_free = None if free is None else free[logical]
        digits = fit_digits(held - held[0], held_free)
        if digits is None:
            continue
        if free is None:
            return sw, digits, table
        got = held[0] + block_values(x, digits)
        past = held_free if spare is None else held_free & ~spare[logical]
        if (anywhere or np.all(got[past] >= zero[0])) and int(got.min()) >= 0 and \
                int(got.max()) < zero[1]:
            out = np.empty_like(table)
            out[logical] = got
            return sw, digits, out
    return None, None, table


def check_runs(rows: np.ndarray, end: int | None, label: str, op) -> None:
    """Each lane's run of the front end's copies (a row of ``rows``, global elements of
    workgroup 0) lies wholly inside the buffer's ``end`` elements or wholly past them; a
    :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal` at ``op`` if not."""
    if end is None:
        return
    past = rows >= end
    cut = np.flatnonzero(past.any(axis=1) & ~past.all(axis=1))
    if len(cut):
        raise LM.LoopRefusal(f"channel {label}: a lane of the front end's copies would read "
                             f"across the end of its buffer's {end} elements (elements "
                             f"{int(rows[cut[0]].min())}..{int(rows[cut[0]].max())}): part "
                             f"of the run would read zero", (op,))
