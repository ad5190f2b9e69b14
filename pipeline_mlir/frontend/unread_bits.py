"""The padding rows of an LDS buffer left out of the front end's own copies.

A copy spread one element a thread (:mod:`~pipeline_mlir.frontend.partial_elements`) has
its threads past the tile write padding rows: the buffer grows in its outermost dimension
(``memref<4x18xf32>`` to ``memref<8x18xf32>``, dense ``8 x 16`` once
:mod:`~pipeline_mlir.frontend.regcopy` compacts it, 4 of them per merged K tile) and is
marked :data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR`.  No fragment read reads
those rows.  Where they are the elements with some element bits set (a buffer grown by a
power of two: rows 4 to 7 of 8 are bit 6 of the dense ``8 x 16``), the front end's own
copies of the channel (:func:`~pipeline_mlir.frontend.layout.redistribute`) leave them
out: :func:`unread_bits` names those bits, deleted from the buffer as a K sub-step's
bits are (``ChannelPlan.unread``), so each subtile buffer holds just the elements the
reads read and the copies copy only those (f32 ``A^T x B`` 94x1826x2660: B's subtile 128
elements, one copy a thread, not 256 and two).

A bit is taken only where deleting it keeps every other element's place: the buffer's
size a multiple of twice its weight, and the buffer's XOR swizzle, if any, reading and
moving only bits below it (so the swizzle of the compacted index is the swizzle of the
index).  :func:`check_covered` then holds the plan to what matters, whatever chose its
bits: every element a fragment read reads is one the plan's copies write into that read's
subtile (an internal error otherwise, at the channel's first copy).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.analysis.ir_facts import xor_shuffle
from pipeline_mlir.frontend.marks import PADDING_ROWS_ATTR
from pipeline_mlir.kernel import loop_model as LM

__all__ = ["check_covered", "check_unswizzled", "deleted", "has_padding_rows", "left_out",
           "unread_bits", "unswizzled_reads"]


def has_padding_rows(an, buffer: int) -> bool:
    """Whether LDS buffer ``buffer`` of ``an`` has padding rows no read reads (its
    allocation marked :data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR`)."""
    root = an.buffer_views[buffer].root
    return not isinstance(root.owner, ir.Block) and PADDING_ROWS_ATTR in root.owner.attributes


def unread_bits(an, buffer: int, kbits: tuple = ()) -> tuple:
    """The element bits (ascending) that no fragment read of LDS buffer ``buffer`` sets, if
    it has padding rows (:data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR`), among
    those whose deletion keeps every other element's place (module docstring); none of
    ``kbits`` (a K sub-step's, deleted already: ``frontend/ksplit.py``)."""
    if not has_padding_rows(an, buffer):
        return ()
    root = an.buffer_views[buffer].root
    reads = [r.lds.ravel() for r in an.reads if r.buffer == buffer]
    if not reads:
        return ()
    size = int(np.prod(ir.MemRefType(root.type).shape))
    read = np.bitwise_or.reduce(np.concatenate(reads))
    return tuple(b for b in range(size.bit_length())
                 if not size % (2 << b) and not (read >> b) & 1 and b not in kbits)


def check_unswizzled(bits: tuple, swizzle, label: str, op: int) -> None:
    """The buffer's XOR swizzle ``(row, access)`` (as the kernel's copies fill it), if any,
    reads and moves only element bits below every one of ``bits`` (the chunk's bits below
    ``row`` and the row's bits XORed into them; all of them where ``row`` or ``access`` is
    no power of two); else a :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal`, which
    :func:`left_out` takes as the plan's with none left out."""
    if not bits or swizzle is None:
        return
    row, access = swizzle
    if row & (row - 1) or access & (access - 1) or row * (row // access) > 1 << min(bits):
        raise LM.LoopRefusal(f"channel {label}: the swizzle {swizzle} of its LDS buffer moves "
                             f"its padding rows' element bits {bits}", (op,))


def deleted(an, *bits: dict):
    """``an`` with the element bits of ``bits`` ({buffer: bits} each, of the buffer as
    ``an`` has it) deleted from its reads' elements (the highest first); ``an`` itself if
    there are none."""
    if not any(v for d in bits for v in d.values()):
        return an
    reads = []
    for r in an.reads:
        lds = r.lds
        for b in sorted({x for d in bits for x in d.get(r.buffer, ())}, reverse=True):
            lds = LM.delete_bit(lds, b)
        reads.append(replace(r, lds=lds))
    return replace(an, reads=reads)


def unswizzled_reads(an, swizzles: dict):
    """``an`` with the reads of each buffer ``swizzles`` gives an ``xor_shuffle`` (row,
    access) their LDS elements unswizzled (the shuffle is an involution): the logical
    elements; ``an`` itself if it gives none."""
    if not any(sw is not None for sw in swizzles.values()):
        return an
    return replace(an, reads=[r if swizzles.get(r.buffer) is None else
                              replace(r, lds=xor_shuffle(r.lds, *swizzles[r.buffer]))
                              for r in an.reads])


def left_out(plan_with, an, ch: int, copy_channel: list, unread: dict,
             proofs: list | None) -> tuple:
    """``plan_with(gone)`` (``layout._plan_channel`` of channel ``ch``, leaving out the
    element bits of ``gone``, {buffer: bits}) with the :func:`unread_bits` of the channel's
    buffer (``unread``) left out; where that plan is refused (its kept mask's proof among
    its refusals: ``layout.py`` runs that proof as such a plan is made, not with the
    whole-grid proofs it leaves in ``proofs``), those proofs dropped, the plan with its
    padding rows copied (as before they were left out)."""
    bufs = {an.copies[i].buffer for i, c in enumerate(copy_channel) if c == ch}
    gone = {b: unread[b] for b in bufs if unread.get(b)}
    if gone:
        mark = None if proofs is None else len(proofs)
        try:
            return plan_with(gone)
        except LM.LoopRefusal:
            if proofs is not None:
                del proofs[mark:]
    return plan_with({})


def check_covered(plan, reads: list, written, op: int) -> None:
    """Every element of ``reads`` ((kernel elements, subtile) of the channel's fragment
    reads) is among those ``plan``'s copies write into that subtile (``written``: the
    plan's ``(elements, threads, subtile, copy)``, ``layout._plan_elements``); else a
    :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal` at op ``op`` (an op id)."""
    got: dict = {}
    for p, _tid, sub, _j in written:
        got.setdefault(sub, []).append(p.ravel())
    have: dict = {}         # subtile -> its written elements, sorted once for every read
    for lds, sub in reads:
        if sub not in have:
            have[sub] = np.unique(np.concatenate(got.get(sub, [np.zeros(0, np.int64)])))
        missing = _not_in(np.asarray(lds).ravel(), have[sub])
        if missing.size:
            raise LM.LoopRefusal(
                f"channel {'AB'[plan.channel]}: the front end's copies of subtile {sub} "
                f"would not write {missing.size} elements its fragment reads read (element "
                f"{int(missing[0])} of the kernel's buffer; an internal error)",
                (op,))


def _not_in(values: np.ndarray, have: np.ndarray) -> np.ndarray:
    """``np.setdiff1d(values, have)`` (the sorted distinct values not in ``have``) for a
    sorted, distinct ``have``: each value looked up by bisection, only ``values`` sorted
    and only where some are missing (a channel's reads check every element they read,
    each subtile's ``have`` made once for all its reads)."""
    if not have.size:
        return np.unique(values)
    at = np.searchsorted(have, values)
    found = have[np.minimum(at, have.size - 1)] == values
    return np.zeros(0, values.dtype) if found.all() else np.unique(values[~found])
