"""Consecutive K steps of a loop merged into one, for a K tile too small for the schedule.

The inverse of :mod:`~pipeline_mlir.frontend.ksplit`.  A wave that holds one fragment of A
and one of B (IREE's 64x128 tile in 2x4 waves of 32x32 MFMAs) has one accumulator, and
the ping-pong schedule's four MMAs then split its chain crosswise
(:mod:`~pipeline_mlir.frontend.k_subtiles`): a chain of 4 MFMAs per K step (i8 32x32x32
at K step 128, bf16 32x32x16 at 64) gives one MFMA per MMA block, too little work between
the barriers to hide a global load (slower than IREE's own kernel in the simulator), and
a chain of 2 (fp8 32x32x64 at K step 128) does not cut into the four runs at all.

:func:`merge_k_steps` then rewrites the loop ``for k = lb to ub step s`` into a loop of
step ``m * s`` whose body is ``m`` consecutive copies of the old one, ``m`` (2 or 4) the
fewest whose chain cuts into four equal runs with 2 MFMAs per MMA block and whose two
stages fit in LDS (else the fewest that cuts into the runs and fits), with room for the
buffers of the K steps left over, or without when those and the kernel's other
remainders' find schedule buffers to alias (:func:`leftover_aliases`):

* every LDS buffer the loop uses is allocated ``m`` times as large (the same element
  type and swizzle attribute); copy ``j`` of the body uses its ``j``-th slab through
  clones of the buffer's views whose layout offset is moved by ``j`` buffer sizes, so
  that its copies write, and its reads read, exactly what the old loop's ``j``-th
  iteration did (the address analysis then sees one LDS tile of ``m`` times the K
  extent; the front end makes the copies of the merged tile itself,
  :func:`~pipeline_mlir.frontend.layout.redistribute`, its swizzle chosen by the bank
  model);
* the loop variable of copy ``j`` is the new loop's plus ``j * s``, and the accumulators
  flow from one copy to the next: the MFMAs run in the old chain's order (bit-identical
  sums before the schedule orders its MMAs);
* the merged loop runs the pairs of merged steps the trip count holds (the schedule's
  loop takes them in pairs): with a constant trip count the largest even number of merged
  steps; with one known only at run time the loop is cut as
  :func:`~pipeline_mlir.frontend.tails.guarded_pairs` cuts a natural loop (the split
  ``lb + ((ub - lb) / (2 m s)) * 2 m s`` clamped for a 32-bit counter, the loop inside an
  ``scf.if`` that skips it when it has no pair).  The K steps left over (fewer than
  ``2 m``) stay in the old loop, which runs after it as written: the front end's one
  remainder path (:func:`~pipeline_mlir.frontend.tails.make_remainder`: marked, its LDS
  planned by :mod:`~pipeline_mlir.frontend.remainder_plan`, on buffers of its own with
  IREE's swizzle made explicit; never rebuilt on the schedule's stage-0 buffers, which
  hold one merged K tile per iteration: ``remainder_plan`` refuses a remainder planned
  there after a merged loop).

The lockstep schedule (``4wave``) has no runs to cut: its K tile is four MMA blocks, a
wave's 2x2 subtiles, and a block reads the next block's fragment one block ahead.  A wave
whose tile is one MFMA per subtile and one MFMA deep (IREE's one wave of a 32x32 tile)
gives each block one MFMA, which covers no LDS read: every block waits for its read.  Such
a loop (``kmerge_factor.lockstep_starved``) is merged too, ``m`` the fewest steps that fit
and give its blocks 2 MFMAs, the crosswise split's target.

On request (the ``4wave`` option ``merge_k``) a lockstep loop is merged for time as well
(``kmerge_factor.latency_short``): its two stages overlap the global loads of one K tile
with the MFMAs of the other, so a stage whose MFMAs take less than a global load's latency (the
simulator's measured table, ``sim/costs.py``) leaves each K tile waiting for its data.
IREE's 128x128 tile in 4 waves (16 MFMAs of 16 cycles per K step, bf16 at K step 32 or i8
at 64) runs 2 x 256 cycles of MFMAs against 790 of latency: ``m`` is then the fewest steps
(2 or 4) whose two stages cover the latency and fit in LDS (else the most that fit), and
a loop too short for them, or whose merged stages do not fit, stays as it is.
A ``BK`` the pipeline gives that is 2 or 4 times the loop's K tile names the factor itself
(:mod:`~pipeline_mlir.frontend.kmerge_asked`): ``m`` is that, or the loop is refused.  The
merged loop is built by :mod:`~pipeline_mlir.frontend.kmerge_build`.

A wave of several accumulators that all read one fragment of an operand (IREE's 16x128
tile in one wave: 8 accumulators sharing one A fragment, one MFMA each per K step) has no
split of that operand by accumulator, and a chain of one MFMA does not halve along K: the
partition refuses it.  Merged, each chain holds ``m`` MFMAs and the operand splits along K
in halves while the other keeps its split by accumulator
(:mod:`~pipeline_mlir.frontend.k_subtiles`), so ``m`` must make the chain even, and the
MFMAs per MMA block count every accumulator's (``accs * chain * m / 4``).

The rewrite is taken on loops with a constant step and buffers that are static
``memref.alloc`` ops viewed through subview, expand_shape, collapse_shape and cast ops;
otherwise (or when too few K steps remain for the schedule's loop) the loop stays as it
is, and a loop that needed the merge to be taken at all is refused at the op with the
reason added (``kmerge_factor.merge_refusal``).  The old loop's own waits and barriers
stay in each copy (the front end drops them); every wait of the schedule is derived as
usual.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import ops_from
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import constant_int, constant_trips
from pipeline_mlir.frontend import aliased_remainder as AR
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.marks import MERGED_ATTR, MERGE_NOTE_ATTR
from pipeline_mlir.frontend.kernel_ir import erase_dead, erase_unused_buffer, kernel_of, \
    other_lds
from pipeline_mlir.frontend.partition import layout_buffers
from pipeline_mlir.frontend.tails import guarded_pairs, make_remainder
from pipeline_mlir.frontend.regcopy import binding_copy
from pipeline_mlir.frontend.kmerge_asked import asked_steps
from pipeline_mlir.frontend.kmerge_build import build_merged, roots_refusal
from pipeline_mlir.frontend.kmerge_factor import TOO_SHORT, chain_parts, latency_cover, \
    latency_short, lockstep_starved, merge_factor, tile_bytes
from pipeline_mlir.frontend.kmerge_auto import (DECLINED, STEADY_ITERATIONS, for_time,
                                                merge_mode, occupancy_refusal)
from pipeline_mlir.schedules.fourwave import MERGE_AUTO, MERGE_ON

__all__ = ["MERGED_ATTR", "Merge", "leftover_aliases", "merge_k_steps", "MERGE_NOTE_ATTR",
           "ShortLoop", "MERGED_WAY", "DIAGONAL_WAY"]

#: how a :class:`ShortLoop`'s note names the one form left for its loop, before why its
#: loop is too short for it: the diagonal form (``frontend/natural.py``'s
#: ``_diagonal_merged``) or its K steps merged, every other form refused (``_other_ways``)
DIAGONAL_WAY = ("its copies split into the schedule's subtiles only in the diagonal form "
                "with its K steps merged 2 by 2, and")
MERGED_WAY = ("no form takes it as it is (its copies split into the schedule's subtiles, "
              "its MFMAs halved along K, an operand held whole: each refused), and its K "
              "steps merged, the one form left, need more of them:")


class ShortLoop(IRError):
    """A loop's refusal whose one form left (``way``, :data:`DIAGONAL_WAY` or
    :data:`MERGED_WAY`) was refused for the loop's length alone: ``short``, why
    (``kmerge_factor.merge_factor``)."""

    def __init__(self, op, message: str, short: str, way: str = DIAGONAL_WAY) -> None:
        super().__init__(op, message)
        self.short = short
        self.way = way


def _set_starts(loop, values: list) -> list:
    """``loop``'s accumulators started from ``values``; the starts they had."""
    before = list(loop.operands)[3:3 + len(values)]
    for i, v in enumerate(values):
        loop.operands[3 + i] = v
    return before


def _as_remainder(loop, merged, split, outs: list) -> None:
    """``loop`` (the kernel's) made the remainder of ``merged``: starting at ``split`` from
    the accumulators ``outs``, run as written on LDS of its own (not shareable: the
    stage-0 rebuild runs one K tile of the schedule, m K steps, per iteration, this loop
    one K step)."""
    loop.operands[0] = split
    _set_starts(loop, outs)
    make_remainder(loop, merged, shareable=False)


class Merge:
    """A merged loop built before the kernel's (which is left as it was until
    :meth:`commit`): ``loop`` the merged ``scf.for``, ``m`` the K steps it merges,
    ``split`` where the K steps it leaves start (a value), ``outs`` the accumulators after
    it (its results, or its guard's), ``every`` whether it runs every K step;
    ``unreserved``: why the merge factor has no room for the left-over K steps' own
    buffers beside the two stages (``kmerge_factor.merge_factor``), or None: then they must
    alias the schedule's (:func:`leftover_aliases`); ``timed``: merged for a global load's
    latency (``kmerge_factor.latency_short``), not only for the schedule's blocks."""

    def __init__(self, old, loop, m: int, roots: list, bigs: list, split, outs: list,
                 every: bool, unreserved: str | None = None) -> None:
        self.old, self.loop, self.m, self.roots, self.bigs = old, loop, m, roots, bigs
        self.split, self.outs, self.every = split, outs, every
        self.unreserved = unreserved
        #: whether the K steps were merged for a global load's latency (``latency_short``),
        #: not only for the schedule's blocks
        self.timed = False

    def commit(self) -> None:
        """The kernel's loop made the merged one's remainder: erased when the merged loop
        runs every K step, else starting after it, run as written on LDS of its own (the
        front end's one remainder path, :func:`~pipeline_mlir.frontend.tails.make_remainder`)."""
        loop = self.old
        if self.every:
            for old, new in zip(loop.results, self.outs):
                old.replace_all_uses_with(new)
            bounds = list(loop.operands)[:3]
            loop.erase()
            erase_dead(bounds)
            for root in self.roots:
                erase_unused_buffer(root)
            return
        _as_remainder(loop, self.loop, self.split, self.outs)

    def leftover_refusal(self) -> str | None:
        """Why the kernel's loop, left the K steps after the merged one, cannot be made the
        remainder path (:func:`_as_remainder` refused), found on a copy of the kernel, or
        None.  :meth:`commit` refused there leaves the loop half rewired for the ways tried
        next (IREE's f16 ``A x B`` 384x384x112, prefetch point: ``test_kmerge.py``)."""
        if self.every or _op(self.loop.parent).name == "scf.if":
            return None
        kernel = kernel_of(self.old)
        loops = walk_ops(kernel, lambda o: o.name == "scf.for")
        at = (loops.index(_op(self.old)), loops.index(_op(self.loop)))
        copy = _op(kernel).clone(ir.InsertionPoint(_op(kernel)))
        try:
            old, new = (walk_ops(copy, lambda o: o.name == "scf.for")[k] for k in at)
            _as_remainder(old, new, new.operands[1], list(new.results))
        except IRError as e:
            return str(e)
        finally:
            copy.erase()
        return None

    def set_starts(self, values: list) -> list:
        """The kernel's loop's accumulators started from ``values`` (the merged loop's
        :attr:`outs`, as :meth:`commit` wires a merge that leaves K steps to it); the
        starts they had."""
        return _set_starts(self.old, values)

    def abandon(self) -> None:
        """The merged loop (with its guard), its split and its buffers erased: the kernel
        as it was."""
        guard = _op(self.loop.parent)
        # the merged loop's bounds and step, the split and (tails.guarded_pairs) the guard's
        # condition: what the merge computed, erased where nothing else uses it
        made = list(self.loop.operands)[:3] + [self.split]
        if guard.name == "scf.if":
            made.append(guard.operands[0])
            guard.erase()
        else:
            self.loop.erase()
        erase_dead(made)
        for big in self.bigs:
            erase_unused_buffer(big)


def merge_k_steps(an: Analysis, schedule, needed: bool = False) -> tuple[Merge | None,
                                                                          str | None]:
    """(the :class:`Merge` of ``an``'s loop, None), or (None, why not) with the IR
    unchanged (module docstring).  ``needed``: the loop is refused unmerged, so the merge
    is not one for time under ``merge_k=auto`` (:func:`for_time`): the K steps the
    partition needs, as without the option."""
    loop = an.scan.loop
    step = constant_int(loop.operands[2])
    if step is None or step <= 0:
        return None, "the loop's step is not a constant"
    why = roots_refusal(list(an.buffers))
    if why:
        return None, why
    trips = constant_trips(loop)
    merge, why = _merge_or_why(an, schedule, needed, loop, step, trips)
    if why is not None and why.startswith(TOO_SHORT) and (rest := _cut_off(loop)):
        why += (f" ({trips} of the loop's {trips + rest}: {rest} cut off into a remainder "
                f"loop after it)")
    return merge, why


def _cut_off(loop) -> int:
    """The iterations of the remainder loops right after ``loop``, each starting where the
    one before ends (the odd last K step or a masked tail cut off, ``frontend/tails.py``),
    counted where their bounds are constants: what the loop ran before the cut."""
    rest, end = 0, loop.operands[1]
    for o in ops_from(loop):
        if o.name == "scf.for" and o.operands[0] == end:
            trips = constant_trips(o)
            if trips is None:
                return 0
            rest += trips
            end = o.operands[1]
    return rest


def _merge_or_why(an: Analysis, schedule, needed: bool, loop, step: int,
                  trips: int | None) -> tuple[Merge | None, str | None]:
    """:func:`merge_k_steps`' work: (the merge, None) or (None, why not)."""
    # (a lockstep loop: no runs to cut either)
    short = for_time(schedule, needed) and latency_short(an, schedule)
    starved = lockstep_starved(an, schedule)
    other = other_lds(loop, an.buffers)
    asked = asked_steps(an, schedule)       # (the K steps a given BK names: kmerge_asked.py)
    if isinstance(asked, str) or (asked == 1 and short and merge_mode(schedule) == MERGE_ON):
        return None, asked if isinstance(asked, str) else \
            f"the pipeline sets BK={schedule.get('BK')}, the loop's K tile as it is"

    def factor(timed: bool, auto: bool) -> tuple[int | str, str | None]:
        """(the factor, or why none; unreserved): merged for time (``timed``) or for the
        schedule's blocks alone; ``auto``: under merge_k=auto's rules (kmerge_auto.py)."""
        if auto and asked == 1:   # (the pipeline names the loop's K tile)
            return f"{DECLINED} the pipeline sets BK={schedule.get('BK')}", None
        if auto and trips is None:
            return f"{DECLINED} its trip count is known only at launch", None
        sizes = (an.chain(), tile_bytes(an), trips,
                 1 + schedule.min_trips() + (STEADY_ITERATIONS if auto else 0), other)
        shape = dict(starved=timed or starved, parts=chain_parts(an), accs=an.accumulators(),
                     cover=(latency_cover(an) or 1) if timed else 1,
                     only=asked if asked and asked > 1 else None,
                     shortest=needed and not timed)
        return _factor(an, sizes, shape, auto)
    # merged for time by default only where it pays and is safe (frontend/kmerge_auto.py)
    auto = short and merge_mode(schedule) == MERGE_AUTO
    if asked and asked > 1:     # the merge the pipeline's BK names, as without the option
        short, auto, starved = False, False, True    # (lockstep: no runs to cut)
    m, unreserved = factor(short, auto)
    timed = short
    if isinstance(m, str) and auto and starved:   # (the blocks still want their MFMAs)
        m, unreserved = factor(False, False)
        timed = False
    if isinstance(m, str):
        return None, m
    why = binding_copy(an.scan)      # (kept by the K steps left over: regcopy.py)
    if why:
        return None, why
    roots = list(an.buffers)
    runs = None if trips is None else trips // (2 * m) * 2 * m   # K steps the merged loop runs
    merged, bigs = build_merged(loop, roots, m, step, runs)
    every = runs is not None and runs == trips
    if runs is None:          # the pairs of merged steps the trip count holds, guarded
        split = guarded_pairs(merged)
        outs = list(_op(merged.parent).results)
    else:                     # the merged loop's upper bound (the kernel's loop erased)
        split = merged.operands[1]
        outs = list(merged.results)
    merge = Merge(loop, merged, m, roots, bigs, split, outs, every, unreserved)
    merge.timed = timed
    return merge, None


def _factor(an: Analysis, sizes: tuple, shape: dict, auto: bool) -> tuple[int | str, str | None]:
    """(``kmerge_factor.merge_factor`` of ``sizes`` and ``shape``, or why there is none; why
    the left-over K steps' own buffers have no room, or None): with room for them, else on the
    schedule's buffers (:func:`leftover_aliases`).  ``auto``: ``merge_k=auto``'s merge for
    time, which also keeps the occupancy (:func:`~pipeline_mlir.frontend.kmerge_auto.
    occupancy_refusal`), with fewer merged K steps if they do."""
    m, unreserved = merge_factor(*sizes, **shape), None
    alt = merge_factor(*sizes, aliased=True, **shape) if isinstance(m, str) else None
    if isinstance(alt, int):
        m, unreserved = alt, m          # if the left-over K steps' buffers can alias
    if isinstance(m, str):
        return (f"{DECLINED} {m}" if auto else m), None
    if not auto:
        return m, unreserved
    tile, trips, other = sizes[1], sizes[2], sizes[4]
    why = None
    for f in (m, 2) if m > 2 else (m,):
        left = tile if unreserved is None and trips % (2 * f) else 0
        why = occupancy_refusal(an, f, 2 * f * tile + left + other)
        if why is None:
            return f, unreserved
    return why, None


def leftover_aliases(merged: Analysis, merge: Merge) -> bool:
    """Whether the left-over K steps' own buffers (one like each of the kernel's, made by
    :meth:`Merge.commit`) and the kernel's other remainders' own (``OWN_ATTR``) find
    schedule buffers of the ``merged`` loop's to alias, as ``remainder_plan`` will put
    them when they do not fit beside its two stages (no buffer grown: the LDS is full)."""
    frees = [(lay.elem_type, lay.elements_of(sub))
             for lay in layout_buffers(merged, check=False).values()
             for sub in lay.subtiles for _stage in (0, 1)]
    needs = [ir.MemRefType(v.type) for v in merge.roots] + \
        [ir.MemRefType(a.results[0].type) for a in AR.allocations(merge.old, AR.OWN_ATTR)]
    return AR.all_held([(t.element_type, int(np.prod(t.shape))) for t in needs], frees)
