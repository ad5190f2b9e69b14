"""Where a SIMD's MFMA pipe idles in a CU-model run, and what its wave waited for.

A kernel at the MFMA bound keeps every SIMD's matrix pipe busy; the cycles it falls
short are the pipe's idle gaps.  :func:`pipe_gaps` lists, per SIMD, each gap between
two consecutive MFMA occupancies of the pipe (``XDL`` busy intervals of
:class:`~pipeline_mlir.sim.cu_model.CURun`) inside a cycle window, and names its cause:
among the instructions the wave of the MFMA that ends the gap issued since its previous
MFMA (that MFMA included), the one that stalled longest, with the main reason the
model gives for that stall (``buffer_load_dwordx4: gmem busy``, ``s_barrier``'s
successor ``s_mov_b32: barrier``, ``s_cbranch_vccnz: register dependency``...).  The
whole gap goes to that one cause: a model's attribution, to find what to change, not a
measurement.  :func:`gaps_per_iteration` sums the gaps by cause per SIMD and iteration.

Plain Python over a finished run: no MLIR, no costs of its own.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.cu_model import CURun


class PipeGapError(PipelineError):
    """A window or iteration count that cannot be measured."""


@dataclass(frozen=True)
class PipeGap:
    """``cycles`` idle cycles of SIMD ``simd``'s MFMA pipe from cycle ``start``, ended by
    instruction ``index`` of wave ``wave`` (an MFMA); ``cause``: ``"<instruction>:
    <reason>"`` of the longest stall since that wave's previous MFMA (``"none"`` when
    nothing stalled: the wave issued its MFMA as early as in-order issue allowed)."""

    simd: int
    start: int
    cycles: int
    wave: int
    index: int
    cause: str


def _cause(run: CURun, wave: int, index: int) -> str:
    """The longest stall of wave ``wave`` from after its MFMA before ``index`` up to
    ``index``, as ``"<name>: <reason>"``."""
    wt = next(w for w in run.waves if w.wave == wave)
    best, best_at = 0, None
    k = index
    while k >= 0:
        if wt.stall[k] > best:
            best, best_at = wt.stall[k], k
        k -= 1
        if k >= 0 and wt.instrs[k].kind == "mfma":
            break
    if best_at is None:
        return "none"
    return f"{wt.instrs[best_at].name}: {wt.reason[best_at]}"


def pipe_gaps(run: CURun, window: tuple[int, int]) -> list[PipeGap]:
    """The idle gaps of every SIMD's MFMA pipe that start in ``window`` (``[start,
    end)`` cycles) and end with an MFMA inside it, in order of SIMD and cycle."""
    lo, hi = window
    if not 0 <= lo < hi:
        raise PipeGapError(f"pipe gaps: the window [{lo}, {hi}) is empty or negative")
    per_simd: dict[str, list] = defaultdict(list)
    for b in run.busy:
        if b.unit == "XDL":
            per_simd[b.instance].append(b)
    out: list[PipeGap] = []
    for instance in sorted(per_simd, key=lambda s: int(s.removeprefix("simd"))):
        busy = sorted(per_simd[instance], key=lambda b: b.start)
        for prev, nxt in zip(busy, busy[1:]):
            if nxt.start > prev.end and lo <= prev.end and nxt.start < hi:
                out.append(PipeGap(int(instance.removeprefix("simd")), prev.end,
                                   nxt.start - prev.end, nxt.wave, nxt.index,
                                   _cause(run, nxt.wave, nxt.index)))
    return out


def gaps_per_iteration(gaps: list[PipeGap], iterations: float, simds: int) -> dict[str, float]:
    """Idle cycles per SIMD and iteration by cause (``iterations`` in the window, over
    ``simds`` SIMDs with waves), largest first."""
    if iterations <= 0 or simds < 1:
        raise PipeGapError(f"pipe gaps: need iterations > 0 and simds >= 1, got "
                           f"{iterations} and {simds}")
    tot: dict[str, int] = defaultdict(int)
    for g in gaps:
        tot[g.cause] += g.cycles
    return {c: n / (iterations * simds) for c, n in sorted(tot.items(), key=lambda x: -x[1])}
