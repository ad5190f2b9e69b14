"""The LDS and the arguments of a block-scaled (MXFP4 / MXFP8) complete kernel.

The element tiles lie in LDS as an FP8 kernel's of the same bytes: one buffer per
(channel, stage, subtile) of half a tile's rows, ``BK * bits / 8`` bytes each, the 16-byte
chunks XOR-swizzled (:mod:`pipeline_mlir.kernel.lds`).  The scale tiles follow them: one
:class:`ScaleBuffer` per (channel, stage, subtile), in which wave ``w`` owns
``scale_loads * 256`` bytes at ``w * scale_loads * 256``: the ``W/2`` rows of its warp
tile's quadrant, ``BK/32`` bytes each, row-major (a wave writes only its own part and
reads only what it wrote; :mod:`pipeline_mlir.schedules.mx`).

Arguments: A, B (the element bytes), C, then the scales of A (``M x K/32`` bytes) and of
B (``N x K/32``), row-major E8M0, then M, N, K (K in elements).  No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.kernel.lds import (LDS_STAGES, SUBTILES, LdsLayout, default_swizzle,
                                      half_tile_buffers)
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.schedules.mx import SCALE_DMA_BYTES

#: bytes one wave's scale DMA instruction writes
SCALE_DMA_WAVE_BYTES = WAVE_SIZE * SCALE_DMA_BYTES


@dataclass(frozen=True)
class ScaleBuffer:
    """The scales a global load of (channel, stage, subtile) writes: ``waves`` parts of
    ``wave_bytes`` each, ``offset`` bytes from the start of the LDS."""

    channel: int
    stage: int
    subtile: int
    offset: int
    waves: int
    wave_bytes: int

    @property
    def name(self) -> str:
        return f"lds_s{'ab'[self.channel]}{self.stage}{self.subtile}"

    size = property(lambda self: self.waves * self.wave_bytes, doc="Bytes.")


@dataclass(frozen=True)
class MxLdsLayout(LdsLayout):
    """An :class:`LdsLayout` of the element tiles, then the scale buffers."""

    scales: tuple[ScaleBuffer, ...] = ()

    @property
    def size(self) -> int:
        return super().size + sum(b.size for b in self.scales)


def mx_lds_layout(geometry, traits, swizzle=None) -> MxLdsLayout:
    """The LDS of the MX kernel of ``geometry`` on warps ``traits``."""
    g = geometry
    tile = (g.BM, g.BN)
    buffers = half_tile_buffers(tile, g.row_bytes, 1)
    offset = sum(b.size for b in buffers)
    scales = []
    for ch, loads in ((0, g.scale_loads_a), (1, g.scale_loads_b)):
        for stage in range(LDS_STAGES):
            for sub in range(SUBTILES):
                b = ScaleBuffer(ch, stage, sub, offset, traits.warps,
                                loads * SCALE_DMA_WAVE_BYTES)
                scales.append(b)
                offset += b.size
    return MxLdsLayout(tuple(buffers), tile, (g.BM // traits.warps_m, g.BN // traits.warps_n),
                       swizzle or default_swizzle(g.row_bytes), tuple(scales))


def mx_arguments(dtype: str, c_dtype: str, argument) -> tuple:
    """The kernel's arguments (``argument``: the :class:`KernelArgument` class)."""
    return (argument("A", "buffer", dtype), argument("B", "buffer", dtype),
            argument("C", "buffer", c_dtype), argument("A_scale", "buffer", "e8m0"),
            argument("B_scale", "buffer", "e8m0"), argument("M", "index"),
            argument("N", "index"), argument("K", "index"))


def mx_scale_counts(geometry, traits, channels: bool = False) -> dict:
    """The scale instructions of one global load and one fragment load of A and B (an MX
    kernel: one scale read per MFMA operand of the quadrant); with the scale ``channels``
    (2 and 3) per channel: none in A's and B's loads, all of the scale channels'."""
    g = geometry
    k_steps = g.BK // g.MMA_K
    quads = (g.BM // traits.warps_m // g.MMA_M // 2, g.BN // traits.warps_n // g.MMA_N // 2)
    loads, reads = (g.scale_loads_a, g.scale_loads_b), tuple(q * k_steps for q in quads)
    if channels:
        loads, reads = (0, 0) + loads, (0, 0) + reads
    return dict(scale_loads=loads, scale_reads=reads, dma_pieces=g.dma_pieces)
