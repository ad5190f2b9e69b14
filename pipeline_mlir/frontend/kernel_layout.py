"""How the kernel's own copies fill a channel's LDS buffer, read off for the front end's.

:func:`~pipeline_mlir.frontend.layout.redistribute` plans a channel's copies from the
global element each element of its buffer holds at workgroup 0's first K step (the
kernel's copies evaluated there): :func:`kernel_layout` gives that table and the strided
block it is (:func:`~pipeline_mlir.frontend.block_fit.filled_layout`: the buffer's swizzle
and the digits of its global offset), or refuses the channel where it is none.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.frontend.block_fit import filled_layout
from pipeline_mlir.frontend.edges import (Channel, copy_evaluator, past_end_note, read_copies,
                                          table_of, zero_end)
from pipeline_mlir.frontend.unused_spare import spare_note, unused_first
from pipeline_mlir.kernel import loop_model as LM

__all__ = ["kernel_layout"]


def kernel_layout(an, copies: list, b: int, full: int, label: str, kept: bool) -> tuple:
    """How the kernel's copies fill the channel's buffer ``b`` (``full`` elements) at
    workgroup 0's first K step: (its :class:`~pipeline_mlir.frontend.edges.Channel`, the
    evaluator of the copies, (the global element each LDS element holds as read, its base,
    as filled), the end past which a buffer reads zero or None, (the buffer's swizzle, the
    digits of its block): :func:`~pipeline_mlir.frontend.block_fit.filled_layout`)."""
    # the block workgroup 0 reads at the first K step (inside A and B: edges.check_in_global)
    first = next(p for p in an.read_points if p[0] == 0)
    chan = Channel(copies, [an.copies[i].lds for i in copies], np.zeros(full, np.int64),
                   copies[0], 0, 0, label, an.copies[copies[0]].op)
    ev = copy_evaluator(an.scan)     # for every read of the copies below: the IR stays
    reads0 = read_copies(an.scan, copies, 0, first[1], ev)
    raw, base0 = table_of(chan, reads0)
    zero = zero_end(an.scan.copies[copies[0]].src, ev)     # rows past it free: block_fit.py
    view = an.buffer_views[b]
    swizzle, digits, table = filled_layout(raw, view.swizzle, zero, kept)
    spare = unused_first(an, b) if digits is None and zero is not None else None
    if spare is not None and spare.any():   # rows no stored output needs: free too
        swizzle, digits, table = filled_layout(raw, view.swizzle, zero, kept, spare)
    if digits is None:
        raise LM.LoopRefusal(f"channel {label}: the global elements its LDS buffer holds are "
                             f"not a strided block of one buffer, swizzled or not"
                             f"{past_end_note(table, reads0[0][1])}{spare_note(spare)}",
                             (an.copies[copies[0]].op,))
    return chan, ev, (raw, base0, table), zero, (swizzle, digits)
