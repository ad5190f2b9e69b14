"""The front end of natural K-loops: a natural K-loop becomes the schedule's tagged loop.

A *natural* K-loop is what a compiler writes before software pipelining: an ``scf.for``
over K tiles whose body copies the tiles of A and B from global memory to LDS,
synchronises, reads MFMA fragments from LDS and multiplies, with the accumulators in
``iter_args``.  This module is the front end's public face; the work is done, in order, by

* :mod:`~pipeline_mlir.frontend.const_if`: ``scf.if`` on a constant ``true`` (IREE's
  VectorDistribute copies) inlined;
* :mod:`~pipeline_mlir.frontend.masked_rows`: copies masked by a size known at launch
  (IREE's padded dynamic-M/N kernels) made plain copies of a range-checked buffer, and
  :mod:`~pipeline_mlir.frontend.masked_rows_late` the same in IREE's late form;
* :mod:`~pipeline_mlir.frontend.tails`: the iterations the schedule's loop cannot run
  (an odd trip count's last) cut off into a remainder loop after it;
* :mod:`~pipeline_mlir.frontend.lds_hoist`: LDS allocated inside the loop, whose
  lifetime is one iteration, hoisted before it;
* :mod:`~pipeline_mlir.frontend.scan`: finding the loops and each op's role;
* :mod:`~pipeline_mlir.frontend.regcopy`: copies through registers made direct-to-LDS
  copies, on an LDS layout of the front end's;
* :mod:`~pipeline_mlir.frontend.address`: every access evaluated for every thread;
* :mod:`~pipeline_mlir.frontend.partition`: channels, subtiles, the LDS buffers and the
  schedule the loop stands for;
* :mod:`~pipeline_mlir.frontend.kmerge`: consecutive K steps merged into one when the K
  tile is too small for the schedule (one fragment of A and B per wave, crosswise);
* :mod:`~pipeline_mlir.frontend.half_k`: MFMAs halved along K when the K steps are too
  few to merge and each accumulator gets one MFMA per K step (or one accumulator 2);
* :mod:`~pipeline_mlir.frontend.ksplit`: a K tile whose two stages do not fit in LDS split
  along K into the fewest sub-steps that fit, and one whose K steps leave the pipelined
  loop a single pair (no steady trip) split into halves (:func:`_steady_substeps`), and
  (:mod:`~pipeline_mlir.frontend.fragment_budget`) one whose fragments exceed a lane's VGPRs;
* :mod:`~pipeline_mlir.frontend.adopt`: the rewrite into the concrete form of
  ``docs/dialect.md``.
"""

from __future__ import annotations

from contextlib import contextmanager

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.dialect.attrs import parsed_once
from pipeline_mlir.analysis.ir_facts import constant_trips
from pipeline_mlir.analysis.loop_eval import shared_plans
from pipeline_mlir.frontend.address import Analysis, analyse
from pipeline_mlir.frontend.accumulator_agprs import (check_accumulators_fit,
                                                      keep_accumulators_in_agprs)
from pipeline_mlir.frontend.every_read import finish_every_read
from pipeline_mlir.frontend.edges import shared_reads
from pipeline_mlir.frontend.adopt import adopt
from pipeline_mlir.frontend.const_if import inline_constant_true_ifs
from pipeline_mlir.frontend.half_join import join_pieces, split_again, unmark_pieces
from pipeline_mlir.frontend.half_k import halve_mfmas
from pipeline_mlir.frontend.marks import (DIAGONAL_ATTR, HALVED_ATTR, HELD_ATTR, MERGED_ATTR,
                                          MERGE_NOTE_ATTR, is_whole_remainder)
from pipeline_mlir.frontend.k_subtiles import one_fragment_wide
from pipeline_mlir.frontend.kernel_ir import check_built, kernel_of
from pipeline_mlir.frontend.ksplit import split_k
from pipeline_mlir.frontend.fragment_budget import split_for_registers
from pipeline_mlir.frontend.copy_widths import padded_elements, padding_allowed
from pipeline_mlir.frontend.dword_runs import shared_starts
from pipeline_mlir.frontend.kept_layout import shared_sources
from pipeline_mlir.frontend.kmerge_auto import given_refusal
from pipeline_mlir.frontend.kmerge_asked import asked_note
from pipeline_mlir.frontend.kmerge import leftover_aliases, merge_k_steps, ShortLoop, MERGED_WAY
from pipeline_mlir.frontend.kmerge_factor import (ask_merged_waves, asked_merge_refusal,
                                                  halves_to_parts, latency_short, merge_note,
                                                  merge_refusal, short_merges, wants_merge)
from pipeline_mlir.frontend.lds_accumulators import carry_lds_accumulators
from pipeline_mlir.frontend.lds_hoist import hoist_iteration_lds, hoist_remainder_lds
from pipeline_mlir.frontend.masked_rows import unmask_row_copies
from pipeline_mlir.frontend.masked_rows_late import unmask_guarded_rows
from pipeline_mlir.frontend.direct_rows_late import unmask_direct_rows
from pipeline_mlir.frontend.masked_rows_k import unmask_row_tails
from pipeline_mlir.frontend.masked_rows_k_late import unmask_row_tails_late
from pipeline_mlir.frontend.private_bounds import check_private_bounds
from pipeline_mlir.frontend.lds_extent import check_lds_extents, loop_lds_outside
from pipeline_mlir.frontend.private_stage import forward_private_tiles
from pipeline_mlir.frontend.thread_loops import spread_thread_loops, unroll_thread_loops
from pipeline_mlir.frontend.partial_copy import spread_guarded_copies
from pipeline_mlir.frontend.partition import check_waves, partition_loop, settle_proofs
from pipeline_mlir.frontend.regcopy import check_no_narrow, convert_register_copies
from pipeline_mlir.frontend.remainder_ahead import loads_ahead
from pipeline_mlir.frontend.remainder_dma import dma_copies_ahead
from pipeline_mlir.frontend.no_loop import no_loop_reason
from pipeline_mlir.frontend.scan import (check_launch, check_not_pipelined, find_natural_loops,
                                         scan_loop, split_reads)
from pipeline_mlir.frontend.kept_tail import kept_or_peeled
from pipeline_mlir.frontend.masks import peel_masked_tail
from pipeline_mlir.frontend.pad_stores import pad_stores_as_copies
from pipeline_mlir.frontend.cut_runs import mark_cut_runs
from pipeline_mlir.frontend.constant_masks import create_constant_masks
from pipeline_mlir.frontend.private_rows import forward_private_rows
from pipeline_mlir.frontend.private_values import forward_private_values
from pipeline_mlir.frontend.tails import PAIR, cut_back, split_tail, whole_remainder
from pipeline_mlir.frontend.transpose import regroup_transpose_reads
from pipeline_mlir.frontend.unused_rows import results_replacing
from pipeline_mlir.frontend.element_reads import regroup_element_reads
from pipeline_mlir.frontend.wide_reads import split_wide_reads

__all__ = ["find_natural_loops", "no_loop_reason", "analyse_loop", "adopt_loop"]


def analyse_loop(loop, schedule=None) -> Analysis:
    """The analysis of the natural K-loop ``loop``, partitioned (``schedule``, a
    ``NamedSchedule``: the one to merge K steps for, whose waves :func:`adopt_loop` checked).
    A loop that is already pipelined is refused first (:func:`adopt_loop`, the one caller
    outside tests, has refused private buffers indexed out of bounds before its rewrites).
    A loop ``merge_k`` may merge for time is proven over the whole grid only once it is the
    loop built, or refused (:func:`_timed_merge`)."""
    check_not_pipelined(loop)
    inline_constant_true_ifs(loop)
    unmask_row_copies(loop)
    unmask_row_tails(loop)
    unmask_guarded_rows(loop)
    unmask_direct_rows(loop)
    unmask_row_tails_late(loop)
    hoist_iteration_lds(loop)
    spread_guarded_copies(loop)
    unroll_thread_loops(loop)
    forward_private_tiles(loop)
    scan = scan_loop(loop)
    split_reads(scan)
    split_wide_reads(scan)
    regroup_transpose_reads(scan)
    regroup_element_reads(scan)
    convert_register_copies(scan)
    an = analyse(scan)
    # a loop merged already is not merged again: its form is the one taken; a loop whose
    # MFMAs were halved is merged only where its partition needs it (a chain of 2 halved
    # MFMAs per K step, 2 steps merged: the 4 a crosswise split cuts), never for time
    # a loop with an operand held whole (asked, or once every other way is refused: _held)
    # is taken as it is, its K steps neither merged nor its MFMAs halved
    _ask_held(loop, schedule)
    done = MERGED_ATTR in loop.attributes or HELD_ATTR in loop.attributes
    # a loop merge_k may merge for time (latency_short) is merged first: its whole-grid
    # proofs are for the loop built as it is, settled only when it is (or refused)
    timed = schedule is not None and not done and HALVED_ATTR not in loop.attributes and \
        latency_short(an, schedule)
    own = where = None      # (the loop's own refusal, and where: taken as it is raised)
    try:
        partition_loop(an, defer=timed)
    except IRError as e:
        own, where = e, _location(e)
    if own is None and timed:
        merged, own = _timed_merge(an, schedule)
        if own is None:
            return merged if merged is not None else _unmerged(an)
        where = _location(own)
    if own is not None:
        if schedule is None or done or not wants_merge(an, True):
            # (the loop as it is, no other way tried: a merged one's, say; padded its last)
            if schedule is not None and (padded := _padded(an)) is not None:
                return padded
            raise own
        try:
            return _other_ways(an, schedule, own)
        except IRError as last:
            raise _at_first(last, own, where) from None
    if schedule is not None and not done and HALVED_ATTR not in loop.attributes and \
            wants_merge(an, False, schedule):
        merged = _merged(an, schedule, None)
        return merged if merged is not None else _unmerged(an)
    return split_k(an)


def _padded(an: Analysis) -> Analysis | None:
    """The analysis of ``an``'s loop, refused as it is with no other way left to try (a
    loop whose K steps were merged already, or one no merge takes), partitioned with the
    front end's copies of subtiles too small for one element a thread padded
    (``copy_widths.padded_width``: f32), or None where that is refused too (the loop's own
    refusal is raised)."""
    if not any(padded_elements(v.elem_bytes) for v in an.buffer_views.values()):
        return None         # (no buffer padding could fill: its partition was refused)
    with padding_allowed():
        try:
            partition_loop(an)
        except IRError:
            return None
    return split_k(an)


def _other_ways(an: Analysis, schedule, own: IRError) -> Analysis:
    """The analysis of ``an``'s loop, which its partition refused (``own``), taken another
    way: its K steps merged, else its MFMAs halved (or the diagonal form), else an operand
    held whole; each way's refusal chains the earlier ones' ("...; nor can the front end
    ...")."""
    try:
        with short_merges() as short:
            return _merged(an, schedule, own)
    except IRError as refused:
        try:
            halved = _halved(an, schedule, refused)
        except IRError as no_halves:
            try:
                halved = _held(an, schedule, no_halves)
            except ShortLoop:
                raise
            except IRError as last:
                if short:   # (only the merge would take it, with more K steps: as written)
                    raise ShortLoop(last.op, str(last), short[0], MERGED_WAY) from None
                raise
        # the merged loop the refusal is located in, built beside the kernel's: erased
        # once the halves (or an operand held whole) take the loop (left, it stays a
        # natural loop no pass adopts)
        trial = getattr(refused, "merge", None)
        if trial is not None:
            trial.abandon()
        return halved


def _location(e: IRError):
    """The location of ``e``'s op, read now (a later rewrite may erase the op); None for an
    error raised with no op."""
    return None if e.op is None else e.op.location


class _Place:
    """Where an op was, for an :class:`IRError` raised when a later rewrite may have erased
    or replaced it: its location (an attribute of the context, which outlives the op)."""

    def __init__(self, location) -> None:
        self.location = location


def _at_first(last: IRError, own: IRError, where) -> IRError:
    """The refusal ``last`` of a loop no way takes, its text chaining every way's reason to
    the loop's own refusal ``own``, located at ``where``: the op of ``own``, the first
    failure, where the user must look (its location, taken when ``own`` was raised), not
    the op where the last way failed.  An error whose text does not start with ``own``'s
    is ``last`` as it is."""
    if where is None or last is own or not str(last).startswith(str(own)):
        return last
    err = ShortLoop(_Place(where), str(last), last.short, last.way) \
        if isinstance(last, ShortLoop) \
        else IRError(_Place(where), str(last))
    if hasattr(last, "merge"):      # (the trial merge a caller abandons: kept with it)
        err.merge = last.merge
    return err


def _unmerged(an: Analysis) -> Analysis:
    """The analysis of ``an``'s loop whose K steps a merge left as they are
    (:func:`~pipeline_mlir.frontend.ksplit.split_k`), with why (``an.merge_note``)."""
    out = split_k(an)
    out.merge_note = an.merge_note
    return out


def _timed_merge(an: Analysis, schedule) -> tuple[Analysis | None, IRError | None]:
    """(:func:`_merged` of ``an``'s loop, None) for a loop partitioned with its whole-grid
    proofs left (:func:`~pipeline_mlir.frontend.partition.partition_loop`'s ``defer``):
    the merged analysis, whose loop is the one built, or None for the loop as it is.  The
    proofs are settled unless the merged loop is built, and before the merge's own refusal
    is raised: (None, their refusal), which comes first, as the partition's."""
    try:
        merged = _merged(an, schedule, None)
    except IRError:
        if (refused := settle_proofs(an)) is not None:
            return None, refused
        raise
    if merged is None and (refused := settle_proofs(an)) is not None:
        an.merge_note = None
        return None, refused
    return merged, None


def _halved(an: Analysis, schedule, refused: IRError) -> Analysis:
    """The analysis of ``an``'s loop with its MFMAs halved along K
    (:mod:`~pipeline_mlir.frontend.half_k`), for a loop whose K steps do not merge and
    whose accumulators get one MFMA each per K step, or a chain that halved cuts into the
    runs its wave needs (:func:`~pipeline_mlir.frontend.kmerge_factor.halves_to_parts`);
    ``refused`` (the loop's refusal, the merge's added) raised with why the halves do not
    take it either."""
    if HALVED_ATTR in an.scan.loop.attributes or not halves_to_parts(an) or \
            "k_subtiles" not in type(schedule).options():
        raise refused
    # (the operand the K split leaves whole is read whole: its pieces go to one fragment load)
    why = halve_mfmas(an.scan, whole={"a": "b", "b": "a"}.get(one_fragment_wide(an), ""),
                      mark_pieces=True)
    if why is not None:
        no_halves = IRError(refused.op, f"{refused}; nor can the front end halve its MFMAs "
                                        f"along K: {why}")
        return _diagonal_merged(an, schedule, no_halves)
    try:
        return _pieces_joined(analyse_loop(an.scan.loop, schedule), schedule)
    except IRError as e:
        halved_refused = e
        unmark_pieces(an.scan.loop)
    try:
        out = _diagonal(an.scan.loop, schedule)
    except IRError as e:
        raise IRError(e.op, f"{refused}; nor can the front end halve its MFMAs along K: "
                            f"with them halved it is refused too: {halved_refused}; nor in "
                            f"the diagonal form: {e}") from None
    trial = getattr(halved_refused, "merge", None)     # (the halved loop's merge, refused)
    if trial is not None:
        trial.abandon()
    return out


def _pieces_joined(an: Analysis, schedule) -> Analysis:
    """``an`` (a halved loop's analysis), or that of its loop with the pairs of pieces it
    puts in one fragment load read as one (:mod:`~pipeline_mlir.frontend.half_join`),
    analysed again; the joins undone where that analysis refuses."""
    loop = an.scan.loop
    if not join_pieces(an):
        return an
    try:
        out = analyse_loop(loop, schedule)
    except IRError:
        split_again(loop)
        out = analyse_loop(loop, schedule)
    unmark_pieces(loop)
    return out


def _diagonal_merged(an: Analysis, schedule, refused: IRError) -> Analysis:
    """The analysis of ``an``'s loop, one accumulator per wave whose MFMA the front end does
    not cut along K, in the diagonal form with its K steps merged 2 by 2 (the chain of 2 so
    merged runs one MFMA in each of the MMAs (0, 0) and (1, 1): :func:`_diagonal`): IREE's
    fp8 ``A^T x B`` 31x112x224, one 16x16x32 MFMA per wave and K step, 7 K steps, too few
    for the 4 merged the crosswise split needs.  ``refused`` (every earlier way's refusal)
    raised as it is for a wave of more accumulators, or a loop already so marked; else
    with why this form does not take it either."""
    loop = an.scan.loop
    if an.accumulators() != 1 or DIAGONAL_ATTR in loop.attributes or \
            MERGED_ATTR in loop.attributes:
        raise refused
    try:
        with short_merges() as short:
            return _diagonal(loop, schedule)
    except IRError as e:
        trial = getattr(e, "merge", None)       # (the merged loop refused: built, erased)
        # (its chain of ways, the loop's own refusal first, said once: what differs)
        said = set(str(refused).split("; nor "))
        new = [p for p in str(e).split("; nor ") if p not in said]
        text = (f"{refused}; nor in the diagonal form with its K steps merged 2 by 2 ("
                f"there: {'; '.join('nor ' + p for p in new) or 'refused alike'})")
        if trial is not None:
            trial.abandon()
        if short or isinstance(e, ShortLoop):   # (it wants only more K steps: as written;
            # a merge refused for length inside the diagonal form's own other ways says so)
            raise ShortLoop(refused.op, text, short[0] if short else e.short) from None
        raise IRError(refused.op, text) from None


def _diagonal(loop, schedule) -> Analysis:
    """The analysis of the halved ``loop`` with both operands split into the same K halves
    (``k_subtiles=ab_diagonal``, :data:`~pipeline_mlir.frontend.marks.DIAGONAL_ATTR`):
    for a chain of 2 halved MFMAs per K step and too few K steps to merge (IREE's f16 and
    bf16 ``A^T x B^T`` 300x200x96), the crosswise split's 4 runs are not there; the MMAs
    (0, 0) and (1, 1) each run one half.  The mark is taken off again where that is
    refused too."""
    if "k_subtiles" not in type(schedule).options():
        raise IRError(loop, f"the {schedule.name} schedule has no k_subtiles form")
    loop.attributes[DIAGONAL_ATTR] = ir.UnitAttr.get()
    try:
        return analyse_loop(loop, schedule)
    except IRError:
        del loop.attributes[DIAGONAL_ATTR]
        raise


def _held(an: Analysis, schedule, refused: IRError) -> Analysis:
    """The analysis of ``an``'s loop with the operand whose fragment reads split neither
    by accumulator nor along K held whole in each stage (``whole=a`` / ``whole=b``,
    :data:`~pipeline_mlir.frontend.marks.HELD_ATTR` naming it as the pipeline's
    option would): IREE's fp8 ``A x B^T``
    64x31x96, one 16x16x32 MFMA of B per wave and K step, 2 K steps (too few to merge, the
    MFMA not cut).  ``refused`` (every other way's refusal) raised as it is where no
    operand is one fragment wide, else with why this form does not take it either; the
    mark is taken off again then."""
    loop = an.scan.loop
    side = one_fragment_wide(an)
    if HELD_ATTR in loop.attributes or "whole" not in type(schedule).options() or not side:
        raise refused
    loop.attributes[HELD_ATTR] = ir.StringAttr.get(side)
    try:
        return analyse_loop(loop, schedule)
    except IRError as e:
        del loop.attributes[HELD_ATTR]
        raise IRError(e.op, f"{refused}; nor with {side.upper()} held whole in each stage "
                            f"(whole={side}): {e}") from None


def _ask_held(loop, schedule) -> None:
    """Mark ``loop`` with the operand ``schedule`` asks to hold whole (``whole=a`` /
    ``whole=b``: :data:`~pipeline_mlir.frontend.marks.HELD_ATTR` naming it), so the
    front end's copies hold that one whole and split the other; a tile whose operand
    splits is then refused (at its split, or by the geometry: a wave tile more than one
    MFMA of it), never taken with the option ignored."""
    asked = schedule.get("whole") if schedule is not None and \
        "whole" in type(schedule).options() else "none"
    if asked != "none":
        loop.attributes[HELD_ATTR] = ir.StringAttr.get(asked)


def _merged(an: Analysis, schedule, refused: IRError | None) -> Analysis | None:
    """The analysis of ``an``'s loop with K steps merged (:mod:`~pipeline_mlir.frontend.kmerge`),
    or None with the kernel as it was (the loop partitioned as it is: ``refused`` None);
    ``refused`` (the loop's own refusal) raised with why the merge does not take it; and an
    error when ``merge_k`` asked for a merge the front end cannot make
    (:func:`~pipeline_mlir.frontend.kmerge_factor.asked_merge_refusal`)."""
    needed = refused is not None     # (a merge the partition needs: not one for time)
    merge, why = merge_k_steps(an, schedule, needed)
    if merge is None:
        return _not_merged(an, schedule, refused, why)
    # verified before the analysis walks it and the commit erases the loop it was built from
    check_built(merge.loop, "the K-step merge (pipeline_mlir/frontend/kmerge.py)")
    try:
        with _as_committed(merge):
            merged = analyse_loop(merge.loop, schedule)
    except IRError as e:
        if refused is not None:
            err = merge_refusal(refused, f"with {merge.m} merged it is refused too: {e}",
                                e.op)
            err.merge = merge       # (located in the merged loop: kept until it is reported)
            raise err from None
        merge.abandon()
        return _not_merged(an, schedule, None, f"with {merge.m} merged it is refused: {e}")
    given = given_refusal(merged, schedule, merge.m, merge.timed)
    if given is not None:   # (auto: the options name the loop as it is, kmerge_auto.py)
        merge.abandon()
        an.merge_note = given
        return None
    if merge.unreserved is not None and not leftover_aliases(merged, merge):
        merge.abandon()     # the left-over K steps' own buffers do not fit: as without room
        return _not_merged(an, schedule, refused, merge.unreserved)
    left = merge.leftover_refusal()     # (commit would fail half done: as the merge's)
    if left is not None:
        merge.abandon()
        return _not_merged(an, schedule, refused,
                           f"with {merge.m} merged, the K steps left over are refused: {left}")
    merged.merge_note = merge_note(an, schedule, merge.m, None, merge.timed) or \
        asked_note(an, schedule, merge.m)      # (the loop still there)
    merge.commit()
    return merged


def _not_merged(an: Analysis, schedule, refused: IRError | None, why: str) -> None:
    """The merge of ``an``'s loop refused (``why``), the kernel as it was: ``refused`` (the
    loop's own refusal) raised with why; a merge ``merge_k`` or a ``BK`` asked for refused
    (:func:`~pipeline_mlir.frontend.kmerge_factor.asked_merge_refusal`: not dropped unsaid); else
    ``why`` noted for the report and None (the loop pipelined as it is)."""
    if refused is not None:
        raise merge_refusal(refused, why) from None
    if (asked := asked_merge_refusal(an, schedule, why)) is not None:
        raise asked from None
    an.merge_note = merge_note(an, schedule, None, why)
    return None


@contextmanager
def _as_committed(merge):
    """While ``merge``'s loop is analysed, its results stand where its commit puts them, so
    the proof of LDS elements no stored element of C depends on
    (:mod:`~pipeline_mlir.frontend.unused_rows`) follows them to the kernel's epilogue: in
    place of the kernel loop's results when it runs every K step (the kernel's loop
    erased then); else as the starts of the kernel loop's accumulators, which runs the K
    steps left (IREE's late form of i8 ``A x B^T`` 3 x 256x312x1180 clamps B's rows past
    N, and the merge was refused there for want of that proof).  Put back after."""
    if merge.every:
        with results_replacing(merge.loop, list(merge.old.results)):
            yield
        return
    starts = merge.set_starts(merge.outs)
    try:
        yield
    finally:
        merge.set_starts(starts)


def _steady_substeps(an: Analysis, trips: int | None, peeled) -> Analysis:
    """``an``, or the analysis of its loop split into K sub-steps of half a step
    (:func:`~pipeline_mlir.frontend.ksplit.split_k`) when its constant trip count ``trips``
    leaves the schedule's loop a single pair: 2 K steps (its prologue's and drain's; the
    steady loop would run no trip), or 3 before a masked K tile peeled (``peeled``,
    :func:`~pipeline_mlir.frontend.tails.split_tail`'s ``whole_steps``).  Split, they are
    4 or 6 sub-steps, 1 or 2 steady trips.  A loop the analysis merged is left to the
    merge, one split already for LDS as it is; when the split does not take the loop (it
    refuses, or its sub-step's copies would be narrower than the kernel's: ``ksplit.py``),
    3 K steps become 2, the third the remainder loop's, as without the split."""
    loop = an.scan.loop
    if trips not in (PAIR, PAIR + 1) or MERGED_ATTR in loop.attributes or \
            constant_trips(loop) != trips:      # (split already for LDS: an even number)
        return an
    try:
        out = split_k(an, at_least=2)
    except IRError:
        out = an
    if constant_trips(loop) == 2 * trips:
        return out
    if peeled is not None:      # (3 K steps: odd only before a peeled tile, adopt_loop)
        cut_back(loop, peeled)
    return an


def _loops(kernel) -> list:
    """The ``scf.for`` ops of ``kernel``, in walk order."""
    return walk_ops(kernel, lambda o: o.name == "scf.for")


def _short_as_written(kernel, kept, loop, short: ShortLoop) -> None:
    """A loop that only one form with its K steps merged would take, too short for it
    (``short``, its ``way``): the remainder path itself, run as written and said at the
    loop (:func:`~pipeline_mlir.frontend.tails.whole_remainder`), as a loop of one K step
    is.  The diagonal form: IREE's fp8 ``A^T x B`` 31x112x96 (3 K steps, one accumulator
    per wave, the MFMA not cut); the merge alone, every other form refused: an 8-wave
    ping-pong tile of one 32x32 MFMA per wave (f16 ``A x B`` 384x256x80, 5 K steps of 16,
    the partition, the halves and an operand held whole refused).  ``kept``: the kernel
    as it was before the analysis, whose trials rewrote ``kernel`` on the way to their
    refusal, in its place; ``loop`` the loop in it."""
    ir.InsertionPoint(kernel).insert(kept)
    kernel.erase()
    whole_remainder(loop, f"not pipelined: {short.way} {short.short[0].lower()}"
                          f"{short.short[1:]}; the loop runs as written (the remainder path, "
                          f"its LDS its own)")
    loads_ahead(kept)


def adopt_loop(loop, schedule):
    """Rewrite the natural K-loop ``loop`` into the tagged loop of the schedule it stands
    for (``schedule``'s kind, its tile and counts from the payload); returns the new
    ``scf.for``, which names that schedule in its ``SCHEDULE_ATTRS``
    (:mod:`pipeline_mlir.frontend.tagged`).  The iterations the schedule's loop cannot run
    (an odd trip count's last, a masked last K tile) go to a remainder loop after it
    (:mod:`pipeline_mlir.frontend.tails`, :mod:`pipeline_mlir.frontend.masks`).  A loop
    with no pair of iterations to pipeline (one iteration; two with the last masked) is
    the remainder path itself, run as written: None."""
    # (the evaluators' plans, the attributes built from text, the copies' sampled reads,
    # the copies' aligned starts: shared, parsed once, worked out once while the IR stays)
    with shared_plans(), parsed_once(), shared_reads(), shared_starts():
        return kept_or_peeled(loop, lambda at: _adopt(at, schedule))   # (kept_tail.py)


def _adopt(loop, schedule):
    """:func:`adopt_loop`'s work."""
    check_not_pipelined(loop)
    check_launch(kernel_of(loop))   # (a loop run as written too)
    check_private_bounds(kernel_of(loop))
    forward_private_rows(kernel_of(loop))   # (C's tile staged for its initial values)
    check_lds_extents(loop)
    inline_constant_true_ifs(loop)
    spread_guarded_copies(loop)     # (before the tail's cut: the remainder's copies too)
    spread_thread_loops(loop)       # (the late form's: the same)
    loop = carry_lds_accumulators(loop)
    forward_private_values(loop)    # (a run staged through a private row: its LDS store's)
    create_constant_masks(loop)     # (the late form's constant sizes, as its masks' readers read)
    mark_cut_runs(loop)             # (before the row masks claim a cut run's K rows)
    unmask_row_copies(loop)
    unmask_row_tails(loop)
    unmask_guarded_rows(loop)
    unmask_direct_rows(loop)
    unmask_row_tails_late(loop)
    pad_stores_as_copies(loop)      # (the late form's folded copies past C's edge)
    peeled = peel_masked_tail(loop, whole_steps=True)
    odd = peeled is not None and peeled.operands[0] == loop.operands[1] and \
        constant_trips(loop) == PAIR + 1      # (split_tail's whole_steps: 3 before the peel)
    rem = None if odd else split_tail(loop)
    if is_whole_remainder(loop):
        loads_ahead(kernel_of(loop))
        return None
    if (rem or peeled) is not None:   # IREE's loop, run for the rest: its LDS hoisted too
        hoist_remainder_lds(rem or peeled)
        forward_private_tiles(rem or peeled, masked=True)
    outside = loop_lds_outside(loop, rem, peeled)   # (the remainders': the front end's)
    check_waves(loop, schedule)   # (once per loop: its kernel's waves against the schedule)
    kernel = kernel_of(loop)
    trips = constant_trips(loop)    # (before the analysis, which may merge the loop away)
    # (a loop too short for its one way runs as written, from the kernel as it is now)
    kept = kernel.clone()       # (detached: no second kernel in the module meanwhile)
    kept_loop = _loops(kept)[_loops(kernel).index(loop)]
    with shared_sources():      # (the kept masks' proofs of every trial: kept_layout.py)
        used = False            # (whether kept took the kernel's place)
        try:
            an = analyse_loop(loop, schedule)
        except ShortLoop as e:
            if outside is not None:
                raise outside from None
            used = True
            return _short_as_written(kernel, kept, kept_loop, e)
        finally:
            if not used:
                kept.erase()
        if outside is not None:     # (after the loop's own refusals, which say more)
            raise outside
        an = split_for_registers(an)    # (first: so split, no one-pair trip count is left)
        an = _steady_substeps(an, trips, peeled if odd else None)
    finish_every_read(an)       # (the kernel's copies over the grid: once, settled)
    acc = check_accumulators_fit(an)    # (before adopt, which erases the analysed ops)
    new = adopt(an, schedule, rem)
    keep_accumulators_in_agprs(kernel_of(new), acc)
    if an.merge_note is not None:   # (the report says it: lowering/materialize.py)
        set_attribute(new, MERGE_NOTE_ATTR, ir.StringAttr.get(an.merge_note))
        ask_merged_waves(kernel_of(new), an.merge_note)
    dma_copies_ahead(kernel)   # (the remainders final: on their buffers, the drains placed)
    loads_ahead(kernel)
    check_no_narrow(kernel)
    return new
