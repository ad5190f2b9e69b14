"""When ``merge_k=auto`` (the 4-wave default) merges a latency-short K-loop, and why not.

:mod:`~pipeline_mlir.frontend.kmerge` merges a lockstep loop whose two stages hold less
MFMA time than a global load's latency (``latency_short``).  Asked outright
(``merge_k=true``) it merges or refuses the loop; by default (``auto``) it merges only
where the merge clearly pays and is safe, and otherwise pipelines the loop as it is,
saying why in :data:`DECLINED` reasons:

* the pipeline does not set ``BK``: a K tile the user names is the loop's (the partition
  refuses one the loop does not have, as without the merge); nor any other count of the
  loop's payload the merged loop does not have (``vm_per_load_a=1`` on IREE's bf16 kernel,
  whose merged loop issues 2 loads per copy: :func:`given_refusal`), which names the loop as
  it is;
* the loop's bounds and step are constants: a trip count known only at launch keeps its
  un-merged loop (a launch with few K steps would run the merged loop's remainder path
  for most of them);
* the merged loop keeps at least :data:`STEADY_ITERATIONS` plus the schedule's minimum
  trip count iterations of steady state (the schedule's loop runs ``K/(2*BK) - 1`` times,
  ``docs/kernels.md``): fewer, and the prologue and epilogue of a merged K tile twice as
  deep eat the gain (``kmerge_factor.merge_factor`` takes the fewer merged steps that keep them);
* the merged stages fit in LDS beside the kernel's other buffers (``merge_factor``);
* the occupancy stays at :data:`MIN_WAVES_PER_SIMD` waves per SIMD or more: the LDS of a
  workgroup (the merged stages, a left-over K step's own buffers, the kernel's others) and
  a floor of the VGPRs a wave holds (:func:`vgpr_floor`), through the report's occupancy
  model (:func:`~pipeline_mlir.isa.report.occupancy_gfx950`).  One wave per SIMD leaves no
  other wave to issue while this one waits at a barrier or for a load; the merge then
  trades the latency it hides for the latency it exposes.

The VGPR floor counts what every wave of the merged loop holds at once: its accumulators
and one merged K tile of A and B fragments.  LLVM adds addresses, loop control and copies,
so the floor never overstates; the rule declines only where even the floor costs the
occupancy.  A merge the floor allows is confirmed on the kernel LLVM builds, where the
driver builds one (:mod:`pipeline_mlir.driver.merge_confirm`): one that leaves fewer than
:data:`MIN_WAVES_PER_SIMD` waves per SIMD is built again unmerged.
"""

from __future__ import annotations


from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.accumulator_agprs import accumulator_registers
from pipeline_mlir.frontend.partition import infer_schedule
from pipeline_mlir.isa.occupancy import occupancy_gfx950
from pipeline_mlir.schedules.fourwave import (MERGE_AUTO, MERGE_K_OPTION, MERGE_OFF, MERGE_ON,
                                              MIN_WAVES_PER_SIMD)
from pipeline_mlir.target.gfx950 import VGPRS, WAVE_SIZE

__all__ = ["DECLINED", "MIN_WAVES_PER_SIMD", "STEADY_ITERATIONS", "for_time", "given_refusal",
           "merge_mode", "occupancy_refusal", "vgpr_floor"]

#: how the reasons ``auto`` declines a merge start
DECLINED = "merge_k=auto leaves its K steps as they are:"
#: steady-state iterations the merged loop keeps beyond the schedule's minimum trip count
STEADY_ITERATIONS = 3


def vgpr_floor(an: Analysis, m: int) -> int:
    """VGPRs a wave of the loop holds at least with ``m`` K steps merged (module docstring):
    its accumulators (a lane's part of each MFMA result) and, ``m`` times, the elements
    its fragment reads give a lane in one K step."""
    frags = sum(r.lds.shape[1] * an.buffer_views[r.buffer].elem_bytes for r in an.reads)
    return accumulator_registers(an) + m * -(-frags // 4)


def occupancy_refusal(an: Analysis, m: int, lds_bytes: int) -> str | None:
    """Why ``m`` merged K steps would leave fewer than :data:`MIN_WAVES_PER_SIMD` waves
    per SIMD, with ``lds_bytes`` of LDS per workgroup, or None."""
    threads = an.scan.threads
    vgprs = vgpr_floor(an, m)
    if vgprs > VGPRS:     # (no wave at all: the occupancy model refuses such a kernel)
        return (f"{DECLINED} {m} merged would need at least {vgprs} VGPRs a wave, more "
                f"than the {VGPRS} of a lane's file")
    waves, limits = occupancy_gfx950(vgprs, 0, lds_bytes, threads)
    if waves >= MIN_WAVES_PER_SIMD:
        return None
    by = " and ".join(k for k in ("lds", "vgpr") if limits[k] == waves)
    return (f"{DECLINED} {m} merged would leave {waves} wave per SIMD (fewer than "
            f"{MIN_WAVES_PER_SIMD}; limited by {by}: {lds_bytes} bytes of LDS per workgroup "
            f"of {threads // WAVE_SIZE} waves, at least {vgprs} VGPRs a wave)")


def given_refusal(merged: Analysis, schedule, m: int, timed: bool) -> str | None:
    """Why ``merge_k=auto`` leaves the loop as it is when the options the pipeline gives
    name counts of its payload that the ``m`` K steps merged for time (``timed``) in
    ``merged`` do not have (the partition's
    :func:`~pipeline_mlir.frontend.partition.infer_schedule` refuses them): a pipeline
    written for the loop as it is keeps it, as a given ``BK`` does; else None (and for
    ``merge_k=true``, or a merge the schedule's blocks need, whose counts are checked as
    before)."""
    if not timed or merge_mode(schedule) != MERGE_AUTO:
        return None
    try:
        infer_schedule(merged, schedule)
    except IRError as e:
        return f"{DECLINED} with {m} merged, {e}"
    return None


def merge_mode(schedule) -> str:
    """``schedule``'s :data:`MERGE_K_OPTION` (``auto``, ``true`` or ``false``) when it is a
    lockstep schedule that has the option, else ``false``: nothing merged for time."""
    if schedule is None or not schedule.lockstep() or \
            MERGE_K_OPTION not in type(schedule).options():
        return MERGE_OFF
    return schedule.get(MERGE_K_OPTION)


def for_time(schedule, needed: bool) -> bool:
    """Whether a merge of a loop (``needed``: one refused unmerged) may be one for time:
    always under ``merge_k=true``; under ``auto`` only for a loop taken as it is (a loop
    that needs the merge gets the K steps it needs, auto's rules are for time alone)."""
    return not needed or merge_mode(schedule) == MERGE_ON
