"""The block-scaled (OCP MX) kernels' load counts: what the element and the scale tiles of
an MXFP4 or MXFP8 GEMM issue.

An MX operand (A ``M x K``, B ``N x K``) is its element codes, E2M1 packed two per byte
(element ``2i`` in the low nibble of byte ``i``) or E4M3 one per byte, plus an E8M0 scale
per 32 consecutive K values of each row: a row-major ``rows x K/32`` byte array
(:mod:`pipeline_mlir.kernel.mx`).  The scaled MFMA (16x16x128) gives lane ``l`` row
``l % 16`` and the 32 K values of block ``l / 16``: 16 bytes (E2M1) or 32 bytes (E4M3), one
``ds_read_b128`` per 16 bytes, and that block's scale, one ``ds_read_u8``.

The scale tile of a K tile is a load of its own, counted in its operand's global load (one
``buffer_load_dword ... lds`` per 64 dwords a wave moves) and in its fragment load (one
scale read per MFMA operand): every wave loads the scales of the rows its own fragment
reads of that subtile multiply, ``W/2`` rows (its warp tile's quadrant) of ``BK/32`` bytes.
The schedule's waits cover them as they cover the element tiles.

Whether an element tile's 16-byte DMAs (``buffer_load_dwordx4 ... lds``) go as four dword
ones is the 4-wave kernels' one rule for every dtype (``dma=auto``,
:mod:`pipeline_mlir.schedules.dma_rule`), from the figures here (:func:`last_dma_wait`, the
L2 share, the VMEM issue cycles).  Plain Python: no MLIR.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import record
from pipeline_mlir.target.gfx950 import (CUS_PER_XCD, F8F6F4_NARROW_SPEEDUP,
                                         L2_CHANNEL_BYTES_PER_CLOCK, L2_CHANNELS_PER_XCD,
                                         LDS_DMA_BYTES, MFMA_BY_DTYPE, MX_BLOCK,
                                         WAVE_SIZE, WIDEST_ACCESS_BYTES)

#: the MX element types: bits per element (``mxfp4``: E2M1, ``mxfp8``: E4M3)
MX_ELEMENT_BITS = {"mxfp4": 4, "mxfp8": 8}
#: the element format name of each MX type (:data:`pipeline_mlir.kernel.mx.MX_FORMATS`)
MX_ELEMENT_FORMAT = {"mxfp4": "e2m1", "mxfp8": "e4m3"}
#: bytes one lane moves in a scale DMA (``buffer_load_dword ... lds``)
SCALE_DMA_BYTES = 4
#: the dword DMAs (``buffer_load_dword ... lds``) a 16-byte lane copy is issued as, when
#: it is (``KernelGeometry.dma_pieces``, :mod:`pipeline_mlir.kernel.dword_dma`)
DWORD_PIECES = LDS_DMA_BYTES[1] // LDS_DMA_BYTES[0]
#: K values of one MFMA operand a lane holds (one MX block)
LANE_K = MX_BLOCK
#: global loads the 4-wave kernels' prologue issues before its first wait: both LDS stages
#: of both subtiles of A and B; that wait keeps all but the first in flight
PROLOGUE_LOADS = 8
#: cycles the CU's vector memory path takes to issue one wave64 instruction (the
#: simulator's measured table's assumption: 64 lanes at 16 a clock)
VMEM_ISSUE_CYCLES = 4
#: the CU's share of L2 bandwidth, bytes per clock (the simulator's measured table's,
#: ``pipeline_mlir.sim.costs``: an XCD's L2 channels over its CUs)
L2_SHARE_BYTES_PER_CLOCK = L2_CHANNELS_PER_XCD * L2_CHANNEL_BYTES_PER_CLOCK / CUS_PER_XCD


@record(frozen=True)
class MxCounts:
    pack: int                      # elements per byte
    simd: int                      # elements per 16-byte load
    loads_per_row: int             # 16-byte loads per row of a K tile
    reads_per_operand: int         # ds_read_b128 per MFMA operand of one lane
    scale_loads: tuple             # scale DMA instructions per global load of A, B


def scale_dwords(rows: int, BK: int) -> int:
    """Dwords of the scales of ``rows`` rows of a K tile of ``BK`` values."""
    return rows * (BK // MX_BLOCK) // SCALE_DMA_BYTES


def scale_loads(rows: int, BK: int) -> int:
    """Scale DMA instructions a wave issues for ``rows`` rows (64 dwords each; a partial
    one repeats the first dwords in its other lanes)."""
    return -(-scale_dwords(rows, BK) // WAVE_SIZE)


def mx_mfma_cycles(dtype: str) -> int:
    """Matrix-pipe cycles of the scaled MFMA of ``dtype`` (both operands of that format:
    half the FP8 count without an 8-bit operand)."""
    cycles = MFMA_BY_DTYPE[dtype].xdl_cycles
    return cycles if MX_ELEMENT_BITS[dtype] == 8 else cycles // F8F6F4_NARROW_SPEEDUP


def last_dma_wait(waves: int, lane_bytes: int) -> float:
    """Cycles the last of ``waves`` waves in step waits to issue its DMA of ``lane_bytes``
    bytes a lane: the others' bytes at the CU's L2 share."""
    return (waves - 1) * WAVE_SIZE * lane_bytes / L2_SHARE_BYTES_PER_CLOCK


def check_mx_bk(dtype: str, BK: int) -> None:
    """BK of an MX kernel: a whole number of the scaled MFMA's K (4 blocks of 32)."""
    if BK % (4 * MX_BLOCK):
        raise ConfigError(f"geometry: BK = {BK} of an {dtype} kernel must be a multiple of "
                          f"{4 * MX_BLOCK} (the scaled MFMA's K)")


def mx_counts(dtype: str, BK: int, warp_tiles: tuple[int, int]) -> MxCounts:
    """The per-instruction counts of an MX kernel of ``dtype`` whose warp tiles (rows of A
    and of B a warp multiplies) are ``warp_tiles``; ``BK`` a multiple of the MFMA's K."""
    if dtype not in MX_ELEMENT_BITS:
        raise ConfigError(f"geometry: {dtype!r} is not an MX element type "
                          f"({', '.join(MX_ELEMENT_BITS)})")
    bits = MX_ELEMENT_BITS[dtype]
    simd = WIDEST_ACCESS_BYTES * 8 // bits
    check_mx_bk(dtype, BK)
    for ch, w in zip("AB", warp_tiles):
        if (w // 2) % 16:
            raise ConfigError(f"geometry: the {ch} warp tile of {w} rows has no whole "
                              f"16-row quadrant for the scale loads")
    return MxCounts(8 // bits, simd, BK // simd, LANE_K * bits // 8 // WIDEST_ACCESS_BYTES,
                    tuple(scale_loads(w // 2, BK) for w in warp_tiles))
