"""``dma=auto``: the one timing rule that says whether a 4-wave kernel's element tiles go as
16-byte or as dword direct-to-LDS DMAs, for every dtype (BF16, FP8, the MX kernels).

A lane's 16-byte copy is one ``buffer_load_dwordx4 ... lds`` or four ``buffer_load_dword
... lds`` (``KernelGeometry.dma_pieces``, :mod:`pipeline_mlir.kernel.dword_dma`).  The four
waves of a 4-wave kernel leave every barrier in step, so each of its DMAs is issued by every
wave at once, and the last one waits for the others' bytes at the CU's share of L2; only the
MFMA in its pipe covers that wait.  Dword DMAs shorten the wait fourfold and cost four times
the instructions.  :func:`dword_refusal` takes dwords when all of these hold, in the
simulator's measured table's numbers (models, not hardware):

1. *the L2 wait*: the last wave's wait for a 16-byte DMA exceeds its MFMA's cycles, and its
   wait for a dword one does not;
2. *the MFMA gaps*: a wave's dword DMAs of one global load each follow an MFMA of their own
   among those the lowering's spread gives them (:func:`spread_over_mma`: the MFMAs after
   the fragment reads, or every MFMA of the MMA when that stretch is shorter than the
   load's L2 cycles);
3. *the issue*: the CU's vector memory path issues every wave's DMAs of one global load in
   less than one MMA's MFMA cycles (at equality it is busy the whole MMA);
4. *the counter*: ``vmcnt`` holds the loop's global loads in flight
   (:data:`LOOP_LOADS`) but at most one, in whole loads (``schedule/vm_cap.py`` lowers a
   wait over the counter to the whole loads that fit).

BF16 256x256x64 (16-cycle MFMA, 48 cycles' wait against 12; 16 DMAs after 24 of 32 MFMAs;
256 of 512 issue cycles; 3 loads of 16 fit) and MXFP4 256x256 (16 cycles; 9 DMAs over 16
MFMAs; 144 of 256; 7 loads of 9) take dwords.  FP8 256x256 has 8 MFMAs after its reads for
16 DMAs (with dwords its main loop measured 4297 cycles against 4108, waiting on
``vmcnt``); MXFP8 256x256 17 DMAs for 16 MFMAs; BF16 128x128 a VMEM path busy its whole MMA
(1804 against 1480); the MX 128x128 tiles more issue cycles than MFMA cycles.  Plain Python:
no MLIR.
"""

from __future__ import annotations

from pipeline_mlir.schedules.geometry import FOUR_WAVE_KERNEL, KernelGeometry
from pipeline_mlir.schedules.mx import (DWORD_PIECES, L2_SHARE_BYTES_PER_CLOCK,
                                        PROLOGUE_LOADS, VMEM_ISSUE_CYCLES, last_dma_wait, mx_mfma_cycles)
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, MFMA_BY_DTYPE, VMCNT_MAX, WAVE_SIZE

#: global loads the 4-wave loop's waits keep in flight: one LDS stage of both subtiles of A
#: and B (the prologue issues both stages' loads)
LOOP_LOADS = PROLOGUE_LOADS // 2


def spread_over_mma(l2_cycles: float, mfmas: int, reads: int, mfma_cycles: int) -> bool:
    """Whether the lowering spreads a block's global loads over every MFMA of its MMA (not
    only the MFMAs after its ``reads`` fragment reads, one read per MFMA): when the L2
    cycles of one global load by every wave exceed the MFMA cycles after the reads."""
    return l2_cycles > (mfmas - reads) * mfma_cycles


def mfma_cycles(g: KernelGeometry) -> int:
    """Matrix-pipe cycles of one MFMA of ``g``'s dtype at its operand format."""
    return mx_mfma_cycles(g.dtype) if g.is_mx else MFMA_BY_DTYPE[g.dtype].xdl_cycles


def dword_refusal(g: KernelGeometry, traits=FOUR_WAVE_KERNEL) -> str | None:
    """None when the 4-wave kernel of ``g`` (16-byte copies, ``dma_pieces == 1``) runs faster
    with dword DMAs by the rule of this module, else which condition fails."""
    narrow, wide = LDS_DMA_BYTES
    waves, mfma = traits.warps, mfma_cycles(g)
    if not last_dma_wait(waves, narrow) <= mfma < last_dma_wait(waves, wide):
        return (f"the last of {waves} waves waits {last_dma_wait(waves, wide):g} cycles for a "
                f"16-byte DMA and {last_dma_wait(waves, narrow):g} for a dword one against a "
                f"{mfma}-cycle MFMA")
    dmas = max(g.element_copies(ch) * DWORD_PIECES + s
               for ch, s in ((0, g.scale_loads_a), (1, g.scale_loads_b)))
    mfmas = (g.BM // traits.warps_m // g.MMA_M // 2) * (g.BN // traits.warps_n // g.MMA_N // 2) \
        * (g.BK // g.MMA_K)
    reads = max(g.lgkm_per_load_a, g.lgkm_per_load_b)
    l2 = waves * WAVE_SIZE * dmas * narrow / L2_SHARE_BYTES_PER_CLOCK
    gaps = mfmas if spread_over_mma(l2, mfmas, reads, mfma) else mfmas - reads
    if dmas > gaps:
        return f"{dmas} dword DMAs of a global load for {gaps} MFMA gaps"
    if waves * dmas * VMEM_ISSUE_CYCLES >= mfmas * mfma:
        return (f"{waves} x {dmas} DMAs take {waves * dmas * VMEM_ISSUE_CYCLES} issue cycles "
                f"of an MMA's {mfmas * mfma}")
    if VMCNT_MAX // dmas < LOOP_LOADS - 1:
        return f"vmcnt ({VMCNT_MAX}) holds {VMCNT_MAX // dmas} loads of {dmas} DMAs"
    return None


__all__ = ["LOOP_LOADS", "dword_refusal", "mfma_cycles", "spread_over_mma"]
