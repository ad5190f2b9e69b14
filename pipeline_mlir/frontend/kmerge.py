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
a loop (:func:`lockstep_starved`) is merged too, ``m`` the fewest steps that fit and give
its blocks 2 MFMAs, the crosswise split's target.

On request (the ``4wave`` option ``merge_k``) a lockstep loop is merged for time as well
(:func:`latency_short`): its two stages overlap the global loads of one K tile with the
MFMAs of the other, so a stage whose MFMAs take less than a global load's latency (the
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
reason added (:func:`merge_refusal`).  The old loop's own waits and barriers stay in each
copy (the front end drops them); every wait of the schedule is derived as usual.
"""

from __future__ import annotations

import contextlib

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import ops_from
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import constant_int, constant_trips
from pipeline_mlir.frontend import aliased_remainder as AR
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.k_subtiles import along_k
from pipeline_mlir.frontend.marks import DIAGONAL_ATTR, MERGED_ATTR, MERGE_NOTE_ATTR
from pipeline_mlir.frontend.kernel_ir import erase_dead, erase_unused_buffer, kernel_of, \
    other_lds
from pipeline_mlir.frontend.partition import layout_buffers
from pipeline_mlir.frontend.tails import guarded_pairs, make_remainder
from pipeline_mlir.frontend.regcopy import binding_copy
from pipeline_mlir.frontend.elements import SCHEDULE_DTYPES
from pipeline_mlir.frontend.kmerge_asked import asked_refusal, asked_steps
from pipeline_mlir.frontend.half_k import cut_pieces
from pipeline_mlir.frontend.kmerge_build import build_merged, roots_refusal
from pipeline_mlir.frontend.kmerge_auto import (DECLINED, STEADY_ITERATIONS, for_time,
                                                merge_mode, occupancy_refusal)
from pipeline_mlir.schedules.fourwave import (FOUR_WAVE_MINI_ITERS, MERGE_AUTO, MERGE_K_OPTION,
                                              MERGE_OFF, MERGE_ON, MIN_WAVES_PER_SIMD,
                                              asks_waves, merged_for_time)
from pipeline_mlir.sim.costs import MEASURED_GLOBAL_LATENCY
from pipeline_mlir.target import gfx950
from pipeline_mlir.target.gfx950 import WAVES_PER_EU_ATTR

__all__ = ["MERGED_ATTR", "Merge", "asked_merge_refusal", "halves_to_parts", "latency_cover",
           "latency_short", "leftover_aliases", "lockstep_starved", "merge_factor", "merge_k_steps",
           "merge_note", "merge_refusal", "wants_merge", "MERGE_NOTE_ATTR", "ask_merged_waves"]

#: MFMAs per MMA block wanted (the crosswise split's and the lockstep schedule's alike)
_WANTED_BLOCK = 2
#: MFMAs per K tile the merge wants of a wave, all its accumulators' chains together: 2 per
#: MMA block of 4 (for one accumulator, its chain: the crosswise split's 4 runs)
_WANTED_CHAIN = 4 * _WANTED_BLOCK
#: the MMA blocks of a lockstep schedule's K tile: the 4-wave schedule's 2x2 subtiles
LOCKSTEP_BLOCKS = len(FOUR_WAVE_MINI_ITERS)


def lockstep_starved(an: Analysis, schedule) -> bool:
    """Whether ``schedule`` is a lockstep one (``4wave``) whose :data:`LOCKSTEP_BLOCKS` MMA
    blocks would hold one MFMA each: the loop's K step has exactly one MFMA per block (a
    wave's tile of one MFMA per subtile, one MFMA deep).  Such a block reads the next
    block's fragment one MFMA before that block needs it: one MFMA cannot cover an LDS
    read, and each block waits for its read.  Any other count is not starved: 2 or more
    MFMAs a block, or a count that does not divide into the blocks (5 to 7, say), whose
    merged K steps would not divide either; the partition and the geometry take or
    refuse such a tile as they do unmerged."""
    return schedule is not None and schedule.lockstep() and \
        len(an.mfmas) == LOCKSTEP_BLOCKS


#: the stages of a lockstep schedule's loop: one's global loads fly while the other's MFMAs run
_STAGES = 2


def _step_mfma_cycles(an: Analysis) -> int | None:
    """Cycles a wave's MFMAs of one K step hold its matrix unit (gfx950's rate for their
    shape and operands), or None for an MFMA the target's table does not list."""
    op = an.scan.mfmas[0]
    t = op.operands[0].type
    if not isinstance(t, ir.VectorType):
        return None
    dtype = SCHEDULE_DTYPES.get(str(ir.VectorType(t).element_type))
    shape = tuple(ir.IntegerAttr(op.attributes[a]).value for a in ("m", "n", "k"))
    kind = (gfx950.dtype_mfmas(dtype, halves=True).get("x".join(map(str, shape)))
            if dtype in gfx950.MFMA_BY_DTYPE else None)
    return len(an.mfmas) * kind.xdl_cycles if kind else None


def latency_cover(an: Analysis) -> int | None:
    """The fewest K steps whose MFMAs, in each of the :data:`_STAGES` stages, cover a global
    load's latency (:data:`~pipeline_mlir.sim.costs.MEASURED_GLOBAL_LATENCY`): 1 when one K
    step does; None when the MFMAs' rate is unknown."""
    cycles = _step_mfma_cycles(an)
    if not cycles:
        return None
    return -(-MEASURED_GLOBAL_LATENCY // (_STAGES * cycles))


def latency_short(an: Analysis, schedule) -> bool:
    """Whether ``schedule`` is a lockstep one that may merge for time
    (:data:`MERGE_K_OPTION` ``auto`` or ``true``) and the loop's K step is too short to
    hide a global load: :func:`latency_cover` above 1 (module docstring)."""
    if merge_mode(schedule) == MERGE_OFF:
        return False
    cover = latency_cover(an)
    return cover is not None and cover > 1


def merge_note(an: Analysis, schedule, m: int | None, why: str | None,
               timed: bool = True) -> str | None:
    """What ``schedule``'s ``merge_k`` decided for ``an``'s loop: ``m`` K steps merged, or
    (``m`` None) left as they are because ``why``; None for a loop that is not
    :func:`latency_short` (nothing to decide) or whose merge is not one for time
    (``timed`` False: :attr:`Merge.timed`)."""
    if not timed or not latency_short(an, schedule):
        return None
    mode = merge_mode(schedule)
    if m is not None:
        return (f"merge_k={mode}: {m} K steps merged into each K tile (two stages of one K "
                f"step hold {_STAGES * _step_mfma_cycles(an)} cycles of MFMAs, less than a "
                f"global load's {MEASURED_GLOBAL_LATENCY})")
    if why.startswith(DECLINED):
        return why
    # (a loop whose form the merge does not take, the complete kernel's workgroup
    # attributions among them: auto has nothing to decide, true refused it already)
    return None if why.startswith(_CANNOT) else \
        f"merge_k={mode} leaves its K steps as they are: {why}"


def ask_merged_waves(kernel, note: str | None) -> None:
    """Within :func:`~pipeline_mlir.schedules.fourwave.asking_waves`, where ``auto``
    merged a loop of ``kernel`` for time (``note``, its :func:`merge_note`:
    :func:`~pipeline_mlir.schedules.fourwave.merged_for_time`): the kernel asks LLVM for the
    :data:`~pipeline_mlir.schedules.fourwave.MIN_WAVES_PER_SIMD` waves per SIMD the merge
    was allowed on (:data:`~pipeline_mlir.target.gfx950.WAVES_PER_EU_ATTR`), unless it asks
    for a number itself.  The merge's rule counts
    a floor of the registers a wave holds; LLVM's allocation of the whole kernel adds what
    the code around the loop needs, and may take a few registers past the two waves' share
    (the same loop built from IREE's two forms: 256 and 260 VGPRs).  Asked, LLVM fits such a
    kernel in that share where it can without spilling (254).  Not asked outright: LLVM
    allocates differently under the ask even where the kernel fits anyway (IREE's bf16
    kernel merged: 166 VGPRs, not 150)."""
    if asks_waves() and merged_for_time(note) and WAVES_PER_EU_ATTR not in kernel.attributes:
        i32 = ir.IntegerType.get_signless(32)
        set_attribute(kernel, WAVES_PER_EU_ATTR, ir.IntegerAttr.get(i32, MIN_WAVES_PER_SIMD))


def wants_merge(an: Analysis, failed: bool, schedule=None) -> bool:
    """Whether the loop's K tile is too small for the schedule: partitioned crosswise with
    fewer than 2 MFMAs per MMA block, or (``failed``: the partition was refused) a chain
    that does not cut into the runs along K its wave needs (:func:`_parts`: four for one
    accumulator, halves for several); or a lockstep ``schedule``'s MMA blocks of one MFMA
    each (:func:`lockstep_starved`), or its K step too short for a global load's latency
    when the schedule asks (:func:`latency_short`); or a given ``BK`` that is not the loop's
    (:func:`~pipeline_mlir.frontend.kmerge_asked.asked_steps`)."""
    chain = an.chain()
    if failed:
        return chain % _parts(an) != 0
    return (along_k(an.partition) == "A, B" and chain < _WANTED_CHAIN) or \
        lockstep_starved(an, schedule) or latency_short(an, schedule) or \
        asked_steps(an, schedule) not in (None, 1)


def halves_to_parts(an: Analysis) -> bool:
    """Whether a loop whose chain does not cut into the runs along K its wave needs
    (:func:`_parts`) may have its MFMAs halved along K (``frontend/half_k.py``): a chain of
    one MFMA (halved, merged 2 by 2 where the runs want it), or one that cut into its
    pieces (2; 4 for the 8-bit floats' MFMAs) cuts into the runs unmerged (one
    accumulator's chain of 2: the 4 runs of the crosswise split, so a loop of 2 or 3 K
    steps, too short for any merge, is pipelined as its pair)."""
    chain = an.chain()
    return chain == 1 or chain * cut_pieces(an.scan.mfmas) % _parts(an) == 0


def _parts(an: Analysis) -> int:
    """The runs along K each accumulator's chain must cut into: 4 for a wave of one
    accumulator (both operands split along K, B crosswise), 2 for several (the operand
    every accumulator reads split along K in halves, the other by accumulator) and for a
    loop in the diagonal form (:data:`~pipeline_mlir.frontend.marks.DIAGONAL_ATTR`: both
    operands the same K halves)."""
    if DIAGONAL_ATTR in an.scan.loop.attributes:
        return 2
    return 4 if an.accumulators() == 1 else 2


def _tile_bytes(an: Analysis) -> int:
    return sum(int(np.prod(ir.MemRefType(v.type).shape)) * an.buffer_views[b].elem_bytes
               for b, v in enumerate(an.buffers))


def merge_factor(chain: int, tile: int, trips: int | None, least: int,
                 other: int = 0, aliased: bool = False, starved: bool = False,
                 parts: int = 4, accs: int = 1, cover: int = 1,
                 only: int | None = None, shortest: bool = False) -> int | str:
    """``m``, the K steps to merge (module docstring), or why there is none: ``chain``
    MFMAs per accumulator and K step, ``tile`` bytes of LDS per K step, ``trips`` K
    steps the loop runs (None: known only at run time, some may be left over), ``least``
    pairs of merged steps the schedule's loop needs, ``other`` bytes of the kernel's other
    LDS buffers (a remainder loop's own).  The K steps left over run on buffers of their
    own, one K step (``tile``) beside the two stages, unless ``aliased``: on the
    schedule's (:func:`leftover_aliases`, ``frontend/aliased_remainder.py``).  ``starved``:
    a lockstep schedule's MMA blocks of one MFMA each (:func:`lockstep_starved`), which
    has no runs to cut: the fewest steps that fit (its blocks hold one MFMA per K step, so
    every factor, 2 or more, gives them :data:`_WANTED_BLOCK`), or one merged for time
    (:func:`latency_short`), whose factor ``cover`` sets.  ``parts``: the runs along
    K a merged chain must cut into (:func:`_parts`), ``accs`` the wave's accumulators, whose
    chains together fill the MMA blocks.  ``cover``: the fewest steps whose stages cover a
    global load's latency (:func:`latency_cover`, for a lockstep loop merged for time):
    the fewest that fit and reach it, else the most that fit; fewer if the loop is too
    short for that many.  ``only``: that factor or none (a ``BK`` given, kmerge_asked.py).
    ``shortest``: a merge the partition needs (not one for time), taken among the factors
    the loop is long enough for where there are any (a chain shorter than
    :data:`_WANTED_CHAIN` rather than none: a halved loop of 5 K steps merged 2 by 2)."""
    fits = [m for m in (only,) if only] or [2, 4]
    fits = [m for m in fits if (starved or chain * m % parts == 0) and
            2 * m * tile + (tile if not aliased and (trips is None or trips % (2 * m))
                            else 0) + other <= gfx950.LDS_BYTES]
    if not fits:
        besides = f" beside the kernel's other {other}" if other else ""
        k = only or 2
        return (f"{_NO_ROOM} {k} merged K steps ({2 * k * tile} bytes) do not fit in the "
                f"{gfx950.LDS_BYTES} bytes of LDS{besides}")
    # starved blocks hold one MFMA per K step, so any m that fits (2 or more) gives them
    # _WANTED_BLOCK: the fewest steps; otherwise the fewest that give a chain its runs
    # (with shortest, among those the loop is long enough for when there are any)
    held = [f for f in fits if not shortest or trips is None or trips // (2 * f) >= least] \
        or fits
    m = held[0] if starved else next((m for m in held if accs * chain * m >= _WANTED_CHAIN),
                                     held[0])
    if cover > 1:       # merged for time: the fewest that cover the latency, else the most,
        want = max(m, next((f for f in fits if f >= cover), fits[-1]))
        # ... or fewer when the loop is too short for that many
        held = [f for f in fits if f <= want and (trips is None or trips // (2 * f) >= least)]
        m = held[-1] if held else want
    if trips is not None and trips // (2 * m) < least:
        return (f"{_TOO_SHORT} {trips} K steps, fewer than the {2 * m * least} that "
                f"{2 * least} iterations of {m} merged K steps (the schedule's loop and its "
                f"two stages) need")
    return m


#: how :func:`merge_factor`'s reasons start: the merged stages do not fit, the loop is short
_NO_ROOM, _TOO_SHORT = "two stages of", "the loop runs"
#: how the reasons start that the loop's form cannot be merged: its step, its buffers
_CANNOT = ("the loop's step", "its LDS buffer")


def asked_merge_refusal(an: Analysis, schedule, why: str) -> IRError | None:
    """The error for a loop whose merge ``merge_k`` asked for (:func:`latency_short`) but
    the front end cannot make, ``why``: its buffers, its step, its merged loop refused.  A
    loop whose merged stages would not fit, or too short for them (:func:`merge_factor`),
    stays as it is: None; and None for a merge the schedule did not ask for (``auto``: the
    loop is pipelined as it is).  A merge a given ``BK`` asks for is refused whatever stops
    it (:func:`~pipeline_mlir.frontend.kmerge_asked.asked_refusal`)."""
    if (asked := asked_refusal(an, schedule, why)) is not None:
        return asked
    if merge_mode(schedule) != MERGE_ON or not latency_short(an, schedule) or \
            why.startswith((_NO_ROOM, _TOO_SHORT)):
        return None
    return IRError(an.scan.loop, f"'scf.for' op: {MERGE_K_OPTION}=true asks for its K steps "
                                 f"merged, but the front end cannot merge them: {why}")


#: while :func:`short_merges` records: the reasons of the merges refused for the loop's
#: length alone (:func:`merge_factor`'s "the loop runs N K steps, fewer than ...")
_SHORT: list[list[str]] = []


@contextlib.contextmanager
def short_merges():
    """Record, in the list it yields, why each merge refused within it was refused for the
    loop's length alone (a longer loop of the same body would be merged)."""
    got: list[str] = []
    _SHORT.append(got)
    try:
        yield got
    finally:
        _SHORT.pop()


def merge_refusal(err: IRError, reason: str, where=None) -> IRError:
    """The partition's refusal ``err`` with why the merge does not take the loop added
    (at ``where``, an op of the merged loop, when the merge was made: the old loop's may
    be gone); a refusal for the loop's length noted where :func:`short_merges` records."""
    if reason.startswith(_TOO_SHORT) and _SHORT:
        _SHORT[-1].append(reason)
    return IRError(where or err.op,
                   f"{err}; nor can the front end merge its K steps: {reason}")


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
    (:func:`merge_factor`)."""

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
    buffers beside the two stages (:func:`merge_factor`), or None: then they must alias
    the schedule's (:func:`leftover_aliases`); ``timed``: merged for a global load's
    latency (:func:`latency_short`), not only for the schedule's blocks."""

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
    if why is not None and why.startswith(_TOO_SHORT) and (rest := _cut_off(loop)):
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
        sizes = (an.chain(), _tile_bytes(an), trips,
                 1 + schedule.min_trips() + (STEADY_ITERATIONS if auto else 0), other)
        shape = dict(starved=timed or starved, parts=_parts(an), accs=an.accumulators(),
                     cover=(latency_cover(an) or 1) if timed else 1, only=asked if asked and asked > 1 else None,
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
    """(:func:`merge_factor` of ``sizes`` and ``shape``, or why there is none; why the
    left-over K steps' own buffers have no room, or None): with room for them, else on the
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
