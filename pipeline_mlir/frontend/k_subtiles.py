"""A channel's two subtiles split along K, for a tile one fragment wide per wave.

The schedules keep two subtiles per operand, and the front end's own copy distribution
(:mod:`pipeline_mlir.frontend.layout`) splits an operand's fragment reads into them by
accumulator: the reads of one accumulator's MFMAs on that side go to one subtile.  A wave
that holds one fragment of an operand (IREE's i8 256x128 tile with 32x32x32 MFMAs in 2x4
waves of 128x32: one 32-column fragment of B per wave) has no such split: every
accumulator reads that fragment.

There the operand is split along K instead (:func:`k_split`): each accumulator's chain of
MFMAs in the iteration (its K steps, in loop order) is cut in two halves, the reads of the
first half's MFMAs make subtile 0, those of the second half subtile 1.  Each MFMA then
still multiplies one subtile of A with one subtile of B (the MMA groups), and an
accumulator's chain runs through two MMAs of the schedule, in the body's order (the
rewrite threads it, ``adopt._emit_mmas``); integer accumulation is exact in any order,
a float one adds the same products in K halves.  The split needs:

* an even chain, each read feeding the MFMAs of one half only, and equal ``ds_read``
  counts in both halves;
* an element bit of the buffer's *unswizzled* index that tells the two halves' data apart
  (a K bit: IREE's XOR swizzle mixes the K chunk bits with row bits, so no bit of the
  swizzled index does): each subtile is stored densely with that bit deleted, re-swizzled
  as the bank model prices cheapest (``layout._choose_swizzle`` on the reads returned
  here, their elements unswizzled), each lane's elements consecutive in it.

The other operand keeps its split by accumulator, which
:func:`check_groups` checks: all four (A subtile, B subtile) MMAs must have MFMAs.  An MMA
then reads half of the other operand's fragment load, so the schedule the loop adopts waits
for whole fragment loads (``waits=block``, :func:`along_k`) and, unless the pipeline names
one, issues its fragment reads a run early (``frags_ahead=balanced-across``; both set by
``partition.infer_schedule``).  A pipeline that asks for per-fragment waits
(``waits=fragment``) gets them with the instructions of a load an MMA leaves unread
counted as in flight after it (``unread_a`` / ``unread_b``, :func:`unread_counts`), so the
derived waits and the hazard fixes see those reads.

**Both operands one fragment wide** (IREE's 64x128 tile in 2x4 waves of 32x32: one
accumulator per wave).  Halving both chains alike would pair A's half ``h`` with B's half
``h`` only, two of the four MMAs empty.  So B, split after A, is split *crosswise*
(``k_split(..., crosswise=True)``): each chain cut in four equal runs, runs 0 and 2 make B's
subtile 0, runs 1 and 3 subtile 1, while A keeps its halves (runs 0, 1 and runs 2, 3).
MMA ``(r, c)`` then holds run ``2r + c``: every MMA has MFMAs and every K step of the tile
is computed once (a chain of 4 MFMAs: one MFMA per MMA).  B's subtiles are told apart by
a lower bit of the unswizzled index than A's (i8 at K step 128: bit 5, alternate 32-byte K
steps, against A's bit 6).  The chain needs a multiple of 4 MFMAs; fewer (FP8's 32x32x64
at K step 128: 2) are refused.  The accumulation order is the schedule's MMA order: exact
for integers; a float chain adds the same products, in that order.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.frontend.marks import HELD_ATTR
from pipeline_mlir.kernel.subtile_form import SubtileForm
from pipeline_mlir.schedules.geometry import DIAGONAL

#: the adopted loop's attribute naming the operands split along K ("B along K"), which the
#: lowering keeps in the kernel plan (``KernelPlan.form``) for the report
FORM_ATTR = "sched.subtiles"


def k_split(an, ch: int, reads: list, size: int, swizzle, refusal: LM.LoopRefusal,
            crosswise: bool = False):
    """(subtile of each read of channel ``ch``, the unswizzled element bit that tells them
    apart, ``an`` with its reads' elements unswizzled by ``swizzle``): the split of the
    module docstring; ``refusal`` (why the split by accumulator failed) with the reason
    added if there is none.  ``crosswise`` (the other operand split along K into halves
    already): each chain cut in quarters, the first and third make subtile 0."""
    label = "AB"[ch]
    chains: dict = {}
    for k in sorted(range(len(an.mfmas)), key=lambda k: an.mfmas[k].op):
        chains.setdefault(an.mfmas[k].acc, []).append(k)
    parts = 4 if crosswise else 2
    half_of: dict = {}
    for ks in chains.values():
        if len(ks) % parts:
            raise _refuse(refusal, f"channel {label}'s accumulators get {len(ks)} MFMAs per "
                                   f"iteration, which do not {_CUT[crosswise]}", an, reads)
        for n, k in enumerate(ks):
            side = an.mfmas[k].a_reads if ch == 0 else an.mfmas[k].b_reads
            for r in side:
                half_of.setdefault(r, set()).add(n * parts // len(ks) % 2)
    unused = [r for r in reads if r not in half_of]
    if unused:
        raise _refuse(refusal, f"channel {label}: a fragment read feeds no MFMA, so no K "
                               f"part holds it", an, unused)
    mixed = [r for r in reads if len(half_of[r]) != 1]
    if mixed:
        raise _refuse(refusal, f"channel {label}: a fragment read feeds MFMAs of both "
                               f"{_PARTS[crosswise]} of an accumulator", an, mixed)
    subs = {r: half_of[r].pop() for r in reads}
    counts = [sum(an.reads[r].instructions for r in reads if subs[r] == s) for s in (0, 1)]
    if counts[0] != counts[1]:
        raise _refuse(refusal, f"channel {label}: the {_PARTS[crosswise]} of its fragment "
                               f"reads issue {counts[0]} and {counts[1]} ds_reads", an, reads)
    logical = _unswizzled(an, swizzle)
    bit = next((b for b, _ in telling_bits(logical, reads, subs, size)), None)
    if bit is None:
        raise _refuse(refusal, f"channel {label}: no element bit of its unswizzled LDS "
                               f"tile tells the {_PARTS[crosswise]} of its fragment reads apart",
                      an, reads)
    for r in reads:     # each lane's elements stay consecutive in the dense subtile
        if not np.all(np.diff(LM.delete_bit(logical.reads[r].lds, bit), axis=1) == 1):
            raise _refuse(refusal, f"channel {label}: a fragment read's lanes do not read "
                                   f"consecutive elements of its unswizzled LDS tile", an, [r])
    if (logical.reads[reads[0]].lds.ravel()[0] >> bit) & 1 != subs[reads[0]]:
        subs = {r: 1 - s for r, s in subs.items()}    # subtile 0's data: the bit clear
    return subs, bit, logical


#: how a chain is cut, and what its two subtiles are called, halved or crosswise
_CUT = {False: "halve along K", True: "cut into 4 equal runs along K, as both operands split "
                                      "along K need (crosswise)"}
_PARTS = {False: "K halves", True: "crosswise K parts"}


def _unswizzled(an, swizzle):
    """``an`` with every read's LDS elements given unswizzled (``xor_shuffle`` is its own
    inverse)."""
    if swizzle is None:
        return an
    return replace(an, reads=[replace(r, lds=xor_shuffle(r.lds, *swizzle)) for r in an.reads])


def telling_bits(an, reads: list, subs: dict, size: int):
    """The element bits below ``size``, lowest first, that tell the two subtiles' data
    apart: constant on each subtile's reads (``subs``: read -> subtile) and different
    between them; each with the value subtile 0's data has, as ``(bit, value)``."""
    elements = {s: np.concatenate([an.reads[r].lds.ravel() for r in reads if subs[r] == s])
                for s in (0, 1)}
    b = 0
    while (1 << b) < size:
        bits = [(elements[s] >> b) & 1 for s in (0, 1)]
        if all(x.size and x.min() == x.max() for x in bits) and bits[0][0] != bits[1][0]:
            yield b, int(bits[0][0])
        b += 1


def _refuse(refusal: LM.LoopRefusal, why: str, an, reads: list) -> LM.LoopRefusal:
    return LM.LoopRefusal(f"{refusal}; nor along K: {why}", (an.reads[reads[0]].op,))


def along_k(partition) -> str:
    """The operands (``"A"``, ``"B"``, ``"A, B"``) the front end split along K in
    ``partition``; empty if none.  Such a loop's MMA reads half of a fragment load of the
    operand split by accumulator, so the schedule waits for whole fragment loads
    (``waits=block``) unless the pipeline asks for per-fragment waits, which then count
    the reads an MMA leaves unread (:func:`unread_counts`)."""
    plans = getattr(partition, "plans", {})
    return ", ".join("AB"[ch] for ch in sorted(plans) if plans[ch].logical)


def diagonal(partition) -> bool:
    """Whether ``partition`` splits A and B into the same K halves (its MFMAs in the MMAs
    (0, 0) and (1, 1) only: :func:`check_groups`)."""
    groups = set(getattr(partition, "mfma_group", ()))
    return along_k(partition) == "A, B" and groups == {(0, 0), (1, 1)}


def whole(partition) -> str:
    """The operand (``"A"``, ``"B"``) ``partition`` holds whole in each stage (its plan's
    one subtile: ``layout.ChannelPlan.whole``); empty if none."""
    plans = getattr(partition, "plans", {})
    return "".join("AB"[ch] for ch in sorted(plans) if plans[ch].whole)


def one_fragment_wide(an) -> str:
    """The operand (``"a"``, ``"b"``) of ``an``'s loop that is one fragment per wave (every
    accumulator's chain of MFMAs reads the same reads of it, in order: no split by
    accumulator exists) where the chains are odd (:func:`k_split` halves an even one), else
    ``""``: the operand to hold whole, the front end's cheap test before it analyses the
    loop again for it.  (With more than one accumulator at most one operand is so: two
    chains reading the same reads of both would compute one product twice.)"""
    chains: dict = {}
    for k in sorted(range(len(an.mfmas)), key=lambda k: an.mfmas[k].op):
        chains.setdefault(an.mfmas[k].acc, []).append(an.mfmas[k])
    if len(chains) < 2 or not all(len(chain) % 2 for chain in chains.values()):
        return ""
    return next((side[0] for side in ("a_reads", "b_reads")
                 if len(same := {tuple(getattr(m, side) for m in chain)
                                 for chain in chains.values()}) == 1 and all(same.pop())), "")


def held_of(loop) -> str:
    """The operand (``"A"``, ``"B"``) :data:`HELD_ATTR` on ``loop`` names, ``""`` without
    the mark; an error at the loop for a mark that names neither (the front end writes it,
    and refuses it on its input: ``frontend/reserved.py``)."""
    if HELD_ATTR not in loop.attributes:
        return ""
    mark = loop.attributes[HELD_ATTR]
    value = ir.StringAttr(mark).value if isinstance(mark, ir.StringAttr) else None
    if value not in ("a", "b"):
        raise LM.LoopRefusal(f"the loop's '{HELD_ATTR}' is {mark}, not the string \"a\" or "
                             f"\"b\" (the operand held whole in each stage)", (loop,))
    return value.upper()


def k_subtiles_value(partition) -> str:
    """The ``k_subtiles`` value of ``partition``'s split (``none`` if not along K)."""
    if diagonal(partition):
        return DIAGONAL
    return along_k(partition).replace(", ", "").lower() or "none"


def unread_counts(an) -> tuple[int, int]:
    """Per channel (A, B): the most ``ds_read`` instructions of a fragment load one MMA
    leaves unread (``an.partition`` split along K; all 0 otherwise).  A read the MMA uses
    counts as one instruction read (LLVM waits for the registers an MFMA uses, at least one
    instruction of the read), so the count is an upper bound; the per-fragment waits count
    that many of the load's reads as possibly in flight after the MMA
    (``schedule/frag_waits.py``)."""
    p = an.partition
    if not along_k(p):
        return 0, 0
    used: dict = {}
    for m, group in zip(an.mfmas, p.mfma_group):
        for ch, rs in ((0, m.a_reads), (1, m.b_reads)):
            used.setdefault((group, ch), set()).update(rs)
    out = [0, 0]
    for (group, ch), rs in used.items():
        out[ch] = max(out[ch], p.lgkm_per_load[ch] - len(rs))
    return out[0], out[1]


def form_text(partition, merged: int = 1, pieces: int = 1) -> str:
    """The schedule form the adopted loop records (``FORM_ATTR``) and ``--emit=report``
    prints (:class:`~pipeline_mlir.kernel.subtile_form.SubtileForm`), with ``merged`` K
    steps of the kernel in each K tile (:mod:`~pipeline_mlir.frontend.kmerge`) and its
    MFMAs cut into ``pieces`` along K (:mod:`~pipeline_mlir.frontend.half_k`; 1: not cut)."""
    held = whole(partition)
    return SubtileForm(held or along_k(partition), merged, pieces > 1, max(pieces, 2),
                       diagonal(partition), bool(held)).text()


def check_groups(groups: list, an, diagonal: bool = False, held: str = "") -> None:
    """Every (A subtile, B subtile) MMA of the schedule has MFMAs (both operands split
    along K would pair each half with itself only); ``diagonal`` (a loop marked
    :data:`DIAGONAL_ATTR`), the MMAs (0, 0) and (1, 1) and no other; ``held`` (``"A"`` or
    ``"B"``, held whole: :data:`HELD_ATTR`), the MMAs of its one subtile 0 and each
    subtile of the other operand: (0, 0) and (1, 0) for B, (0, 0) and (0, 1) for A."""
    if held:
        want = {(0, 0), (1, 0)} if held == "B" else {(0, 0), (0, 1)}
        extra = sorted(set(groups) - want)
        if extra:     # (held whole, the operand has no subtile 1: never so)
            raise LM.LoopRefusal(f"an MFMA multiplies A subtile {extra[0][0]} with B subtile "
                                 f"{extra[0][1]} once the front end holds {held} whole in "
                                 f"each stage (whole={held.lower()})", (an.mfmas[0].op,))
        missing = sorted(want - set(groups))
    elif diagonal:     # the diagonal form: (0, 1), (1, 0) empty
        extra = sorted(set(groups) - {(0, 0), (1, 1)})
        if extra:       # (its schedule runs no such MMA: the MFMA would be dropped)
            a, b = extra[0]
            raise LM.LoopRefusal(f"an MFMA multiplies A subtile {a} with B subtile {b} once "
                                 f"the front end splits both operands into the same K "
                                 f"halves, whose schedule form (k_subtiles=ab_diagonal) runs "
                                 f"the MMAs (0, 0) and (1, 1) only", (an.mfmas[0].op,))
        missing = sorted({(0, 0), (1, 1)} - set(groups))
    else:
        missing = sorted({(a, b) for a in (0, 1) for b in (0, 1)} - set(groups))
    if missing:
        a, b = missing[0]
        how = (f"holds {held} whole in each stage; the form needs both its MMAs" if held
               else "splits the fragment reads (both operands along K); the schedule needs "
                    "all four MMAs")
        raise LM.LoopRefusal(f"no MFMA multiplies A subtile {a} with B subtile {b} once the "
                             f"front end {how}", (an.mfmas[0].op,))
