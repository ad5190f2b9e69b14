"""Whether a K-loop's K steps are to be merged (:mod:`~pipeline_mlir.frontend.kmerge`), and
into how many: the loop's K tile too small for the schedule (:func:`wants_merge`: a
crosswise split with fewer than 2 MFMAs per MMA block, a chain that does not cut into the
runs its wave needs, a lockstep schedule's blocks of one MFMA each, a K step too short to
hide a global load's latency where ``merge_k`` asks, a ``BK`` that is not the loop's), the
factor (:func:`merge_factor`: the fewest steps that give a chain its runs and fit in LDS,
or that cover the latency), what the report says of the decision (:func:`merge_note`)
and the refusals that name it (:func:`merge_refusal`, :func:`asked_merge_refusal`).
"""

from __future__ import annotations

import contextlib

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.elements import SCHEDULE_DTYPES
from pipeline_mlir.frontend.half_k import cut_pieces
from pipeline_mlir.frontend.k_subtiles import along_k
from pipeline_mlir.frontend.kmerge_asked import asked_refusal, asked_steps
from pipeline_mlir.frontend.kmerge_auto import DECLINED, merge_mode
from pipeline_mlir.frontend.marks import DIAGONAL_ATTR
from pipeline_mlir.schedules.fourwave import (FOUR_WAVE_MINI_ITERS, MERGE_K_OPTION, MERGE_OFF,
                                              MERGE_ON, MIN_WAVES_PER_SIMD, asks_waves,
                                              merged_for_time)
from pipeline_mlir.sim.costs import MEASURED_GLOBAL_LATENCY
from pipeline_mlir.target import gfx950
from pipeline_mlir.target.gfx950 import WAVES_PER_EU_ATTR

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
    hide a global load: :func:`latency_cover` above 1 (kmerge.py's docstring)."""
    if merge_mode(schedule) == MERGE_OFF:
        return False
    cover = latency_cover(an)
    return cover is not None and cover > 1


def merge_note(an: Analysis, schedule, m: int | None, why: str | None,
               timed: bool = True) -> str | None:
    """What ``schedule``'s ``merge_k`` decided for ``an``'s loop: ``m`` K steps merged, or
    (``m`` None) left as they are because ``why``; None for a loop that is not
    :func:`latency_short` (nothing to decide) or whose merge is not one for time
    (``timed`` False: ``kmerge.Merge.timed``)."""
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
    that does not cut into the runs along K its wave needs (:func:`chain_parts`: four for one
    accumulator, halves for several); or a lockstep ``schedule``'s MMA blocks of one MFMA
    each (:func:`lockstep_starved`), or its K step too short for a global load's latency
    when the schedule asks (:func:`latency_short`); or a given ``BK`` that is not the loop's
    (:func:`~pipeline_mlir.frontend.kmerge_asked.asked_steps`)."""
    chain = an.chain()
    if failed:
        return chain % chain_parts(an) != 0
    return (along_k(an.partition) == "A, B" and chain < _WANTED_CHAIN) or \
        lockstep_starved(an, schedule) or latency_short(an, schedule) or \
        asked_steps(an, schedule) not in (None, 1)


def halves_to_parts(an: Analysis) -> bool:
    """Whether a loop whose chain does not cut into the runs along K its wave needs
    (:func:`chain_parts`) may have its MFMAs halved along K (``frontend/half_k.py``): a chain of
    one MFMA (halved, merged 2 by 2 where the runs want it), or one that cut into its
    pieces (2; 4 for the 8-bit floats' MFMAs) cuts into the runs unmerged (one
    accumulator's chain of 2: the 4 runs of the crosswise split, so a loop of 2 or 3 K
    steps, too short for any merge, is pipelined as its pair)."""
    chain = an.chain()
    return chain == 1 or chain * cut_pieces(an.scan.mfmas) % chain_parts(an) == 0


def chain_parts(an: Analysis) -> int:
    """The runs along K each accumulator's chain must cut into: 4 for a wave of one
    accumulator (both operands split along K, B crosswise), 2 for several (the operand
    every accumulator reads split along K in halves, the other by accumulator) and for a
    loop in the diagonal form (:data:`~pipeline_mlir.frontend.marks.DIAGONAL_ATTR`: both
    operands the same K halves)."""
    if DIAGONAL_ATTR in an.scan.loop.attributes:
        return 2
    return 4 if an.accumulators() == 1 else 2


def tile_bytes(an: Analysis) -> int:
    """Bytes of LDS one K step of the loop fills (its buffers, each once)."""
    return sum(int(np.prod(ir.MemRefType(v.type).shape)) * an.buffer_views[b].elem_bytes
               for b, v in enumerate(an.buffers))


def merge_factor(chain: int, tile: int, trips: int | None, least: int,
                 other: int = 0, aliased: bool = False, starved: bool = False,
                 parts: int = 4, accs: int = 1, cover: int = 1,
                 only: int | None = None, shortest: bool = False) -> int | str:
    """``m``, the K steps to merge (kmerge.py's docstring), or why there is none: ``chain``
    MFMAs per accumulator and K step, ``tile`` bytes of LDS per K step, ``trips`` K
    steps the loop runs (None: known only at run time, some may be left over), ``least``
    pairs of merged steps the schedule's loop needs, ``other`` bytes of the kernel's other
    LDS buffers (a remainder loop's own).  The K steps left over run on buffers of their
    own, one K step (``tile``) beside the two stages, unless ``aliased``: on the
    schedule's (``kmerge.leftover_aliases``, ``frontend/aliased_remainder.py``).  ``starved``:
    a lockstep schedule's MMA blocks of one MFMA each (:func:`lockstep_starved`), which
    has no runs to cut: the fewest steps that fit (its blocks hold one MFMA per K step, so
    every factor, 2 or more, gives them :data:`_WANTED_BLOCK`), or one merged for time
    (:func:`latency_short`), whose factor ``cover`` sets.  ``parts``: the runs along
    K a merged chain must cut into (:func:`chain_parts`), ``accs`` the wave's accumulators, whose
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
        return (f"{TOO_SHORT} {trips} K steps, fewer than the {2 * m * least} that "
                f"{2 * least} iterations of {m} merged K steps (the schedule's loop and its "
                f"two stages) need")
    return m


#: how :func:`merge_factor`'s reasons start: the merged stages do not fit, the loop is short
_NO_ROOM, TOO_SHORT = "two stages of", "the loop runs"
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
            why.startswith((_NO_ROOM, TOO_SHORT)):
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
    if reason.startswith(TOO_SHORT) and _SHORT:
        _SHORT[-1].append(reason)
    return IRError(where or err.op,
                   f"{err}; nor can the front end merge its K steps: {reason}")
