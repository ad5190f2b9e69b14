"""Where a spread interleave pipeline puts a block's global loads: after its fragment reads
or over its whole MMA.

A kernel whose four waves run one per SIMD (accumulators in AGPRs) spreads each block's
global loads over the MFMAs of its MMA (``sched-lower-to-rocdl{spread-loads}``): the
waves run in step after every barrier, so the CU's LDS DMAs of one block all ask for the
CU's share of L2 within the same stretch of MFMAs, and a wave whose DMA cannot issue stops
issuing MFMAs.  The fragment reads follow the first MFMAs one each; the global loads go
either over the MFMAs *after* the last fragment read
(:data:`~pipeline_mlir.schedule.fences.SPREAD_AFTER_READS`) or over *every* MFMA of the
MMA, between the reads (:data:`~pipeline_mlir.schedule.fences.SPREAD_OVER_MMA`).

:func:`spread_mode` takes the second when the first stretch is too short: when the L2
cycles of the CU's DMAs of one global load (every wave's, at the CU's share of L2
bandwidth) exceed the matrix-pipe cycles of the MFMAs left after one fragment load's
reads.  That is so for the MX kernels (MXFP4: 8 reads of 16 MFMAs leave 8 x 16 cycles
for 144 cycles of DMAs; MXFP8: 4 x 32 for 272) and not for BF16 and FP8 (FP8: 8 x 32 for
256).  The numbers are the simulator's measured table's (``pipeline_mlir.sim.costs``:
the MFMA's format rate, 16 bytes a lane of a ``buffer_load_dwordx4``, 4 of a scale
``buffer_load_dword``, the L2 share); models, not hardware.  No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.schedule.fences import SPREAD_AFTER_READS, SPREAD_OVER_MMA
from pipeline_mlir.schedules.dma_rule import spread_over_mma
from pipeline_mlir.schedules.mx import L2_SHARE_BYTES_PER_CLOCK
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, MFMA, WAVE_SIZE, f8f6f4_cycles


def mfma_cycles(shape) -> int:
    """Matrix-pipe cycles of one MFMA of the kernel of ``shape`` at its operand formats."""
    m = MFMA[shape.mfma]
    return f8f6f4_cycles(m, *shape.mfma_formats) if shape.mfma_formats else m.xdl_cycles


def load_l2_cycles(shape, channel: int) -> float:
    """L2-share cycles of one global load of ``channel`` by every wave of the CU: its
    element DMAs (``buffer_load_dwordx4``, or ``dma_pieces`` dword DMAs per 16 bytes) and
    its MX scale DMAs (``buffer_load_dword``)."""
    narrow, wide = LDS_DMA_BYTES
    scale = shape.per_operand(shape.scale_loads)[channel]
    dmas = shape.per_operand(shape.vm_per_load)[channel]
    lane_bytes = (dmas - scale) * wide // shape.dma_pieces + scale * narrow
    return shape.waves * WAVE_SIZE * lane_bytes / L2_SHARE_BYTES_PER_CLOCK


def spread_mode(shape):
    """:data:`SPREAD_OVER_MMA` when a global load's L2 cycles exceed the MFMA cycles after
    a fragment load's reads (one read per MFMA), else :data:`SPREAD_AFTER_READS`; the
    latter also when ``shape`` does not know its MFMAs."""
    if shape.mfma is None or shape.mfmas_per_mma is None:
        return SPREAD_AFTER_READS
    dmas = max(load_l2_cycles(shape, ch) for ch in (0, 1))
    over = spread_over_mma(dmas, shape.mfmas_per_mma, max(shape.per_operand(shape.lgkm_per_load)),
                           mfma_cycles(shape))
    return SPREAD_OVER_MMA if over else SPREAD_AFTER_READS
