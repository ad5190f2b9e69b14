"""A K tile the pipeline names: a given ``BK`` read as K steps of the loop to merge.

A natural loop's K tile is its MFMAs' K times their chain per accumulator (IREE's bf16
kernel: 32).  Under ``merge_k=auto`` (the 4-wave default) and ``merge_k=true``, a ``BK``
the pipeline gives that is :data:`ASKABLE` times the loop's (2 or 4: the factors
:mod:`~pipeline_mlir.frontend.kmerge` builds) asks for that many K steps merged into each K
tile, whatever ``auto``'s rules for time would decide (``kmerge_auto.py``): on IREE's bf16
kernel ``4wave{BK=64}`` is the kernel ``auto`` builds, ``4wave{BK=128}`` merges 4.  A ``BK``
equal to the loop's keeps its K steps as they are under ``auto``, and under ``merge_k=true``
(which asks for the merge) it is refused at the loop.  A ``BK`` no merge reaches (not the
loop's, twice or four times it) is refused at the loop, as is an asked merge the front end
cannot make (its two merged stages do not fit in LDS, the loop runs too few K steps for
them, its form is one the merge does not take, the merged loop is refused): each says why.
``merge_k=false`` never merges for a ``BK``: one other than the loop's is refused by the
partition (``the pipeline asks for BK=..., but the loop's payload has BK=...``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.kmerge_auto import merge_mode
from pipeline_mlir.schedules.fourwave import MERGE_OFF

__all__ = ["ASKABLE", "asked_note", "asked_refusal", "asked_steps", "loop_bk"]

#: the multiples of the loop's K tile a given ``BK`` may ask for (the merge's factors)
ASKABLE = (2, 4)


def loop_bk(an: Analysis) -> int:
    """The loop's K tile: its MFMAs' K times their chain per accumulator."""
    return ir.IntegerAttr(an.scan.mfmas[0].attributes["k"]).value * an.chain()


def asked_steps(an: Analysis, schedule) -> int | str | None:
    """The K steps ``schedule``'s given ``BK`` asks to merge: 1 (the loop's own K tile),
    2 or 4; why no merge reaches it; or None when no ``BK`` is given or the schedule does
    not merge (``merge_k=false``, a schedule without the option)."""
    if schedule is None or "BK" not in schedule.given or merge_mode(schedule) == MERGE_OFF \
            or not an.mfmas:
        return None
    bk, own = schedule.get("BK"), loop_bk(an)
    if bk % own == 0 and bk // own in (1,) + ASKABLE:
        return bk // own
    reach = " or ".join(f"BK={m * own}" for m in ASKABLE)
    return (f"merging its K steps reaches {reach} only "
            f"({' or '.join(map(str, ASKABLE))} of them)")


def asked_refusal(an: Analysis, schedule, why: str) -> IRError | None:
    """The error for a ``BK`` that asks for a merge the front end does not make, ``why``
    (the merge's reason), or for no merge reaching it; None when ``BK`` asks for none."""
    m = asked_steps(an, schedule)
    if m is None or m == 1:
        return None
    bk, own = schedule.get("BK"), loop_bk(an)
    if isinstance(m, str):
        return IRError(an.scan.loop, f"'scf.for' op: the pipeline asks for BK={bk}, but the "
                                     f"loop's payload has BK={own}, and {m}")
    return IRError(an.scan.loop, f"'scf.for' op: the pipeline asks for BK={bk}, {m} of the "
                                 f"loop's K steps of {own} merged into each K tile, but the "
                                 f"front end cannot merge them: {why}")


def asked_note(an: Analysis, schedule, m: int) -> str | None:
    """What the adopted loop says (its ``sched.merge_k``) of ``m`` K steps merged because
    the pipeline's ``BK`` asked for them, or None when it did not."""
    if asked_steps(an, schedule) != m or m == 1:
        return None
    return (f"merge_k={merge_mode(schedule)}: {m} K steps merged into each K tile (the "
            f"pipeline sets BK={schedule.get('BK')}, {m} of the loop's K steps of "
            f"{loop_bk(an)})")
