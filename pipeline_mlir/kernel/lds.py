"""The LDS of a complete kernel: its buffers, where each lies, and the swizzle of their rows.

:func:`lds_layout` gives the buffers of a kernel (one per channel, stage and subtile, each
half a tile of ``BK`` columns) and the XOR swizzle of their 16-byte chunks
(:class:`LdsSwizzle`, :func:`default_swizzle`); :func:`load_rows` which tile rows a
global load moves.  The kernel plan (:mod:`pipeline_mlir.kernel.plan`) holds the layout
in its kernel shape; the GEMM writer (:mod:`pipeline_mlir.kernel.gemm_mlir`) computes
the same addresses in its index math.  No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import ConfigError

#: LDS stages (double buffer) and subtiles per channel (the halves of a warp tile) of
#: the complete kernels
LDS_STAGES = 2
SUBTILES = 2


@dataclass(frozen=True)
class LdsBuffer:
    """One LDS buffer: the rows a global load of (channel, stage, subtile) writes.

    It holds ``rows`` load rows of ``row_elems`` elements, row-major in load order; load
    row ``rho`` is tile row :meth:`LdsLayout.tile_rows` ``[rho]``.  ``offset``: bytes
    from the start of the workgroup's LDS when the buffers are packed in the order of
    :attr:`LdsLayout.buffers` (the order the kernel declares them; where LLVM finally
    places each is its choice)."""

    channel: int
    stage: int
    subtile: int
    offset: int
    rows: int
    row_elems: int
    elem_bytes: int

    @property
    def name(self) -> str:
        """``lds_<a|b><stage><subtile>``, the kernel's name of the buffer."""
        return f"lds_{'ab'[self.channel]}{self.stage}{self.subtile}"

    @property
    def elements(self) -> int:
        return self.rows * self.row_elems

    size = property(lambda self: self.elements * self.elem_bytes, doc="Bytes.")


#: the largest constant offset a ``ds_read`` holds (a 16-bit unsigned field, bytes)
DS_OFFSET_MAX = 0xFFFF

#: bytes of the unit the swizzle moves (one lane of a global->LDS load, ``buffer_load_dwordx4``)
CHUNK_BYTES = 16
#: the rows of one fragment read (a 16x16 MFMA operand: lane ``l`` reads row ``l % 16``)
FRAGMENT_ROWS = 16


@dataclass(frozen=True)
class LdsSwizzle:
    """An XOR swizzle of the 16-byte chunks of a buffer's rows: the chunk ``c`` of load
    row ``rho`` is stored at chunk ``c ^ ((rho // row_div) % span)`` of that row
    (``span == 1``: no swizzle).  Both sides apply it: a global->LDS load keeps its
    contiguous LDS write and fetches, for the lane that lands at chunk ``p``, the global
    chunk ``p ^ x``; a fragment read of chunk ``c`` reads chunk ``c ^ x``.

    ``row_div * span`` divides the 16 rows of a fragment read, so the XOR term of a read
    is the same for every 16-row block: one base per K offset serves every MMA row."""

    row_div: int = 1
    span: int = 1

    def __post_init__(self) -> None:
        for name in ("row_div", "span"):
            v = getattr(self, name)
            if v < 1 or v & (v - 1):
                raise ConfigError(f"LDS swizzle: {name}={v} is not a power of two")
        if FRAGMENT_ROWS % (self.row_div * self.span):
            raise ConfigError(f"LDS swizzle: row_div*span = {self.row_div * self.span} does not "
                              f"divide the {FRAGMENT_ROWS} rows of a fragment read")

    def term(self, row: int) -> int:
        """The XOR term of load row ``row``."""
        return (row // self.row_div) % self.span

    def chunk(self, row: int, chunk: int) -> int:
        """Where chunk ``chunk`` of load row ``row`` is stored (its chunk index)."""
        return chunk ^ self.term(row)

    def describe(self) -> str:
        if self.span == 1:
            return "linear (no swizzle)"
        return (f"XOR swizzle: 16-byte chunk c of load row r stored at c ^ "
                f"((r / {self.row_div}) % {self.span})")


def default_swizzle(row_bytes: int) -> LdsSwizzle:
    """The swizzle of a buffer with rows of ``row_bytes``: XOR a row's 16-byte chunk with
    the row index (``span`` = the chunks of a row, up to 16), rows taken in pairs when a
    row has fewer than 8 chunks.  Chosen by scoring every power-of-two candidate with the
    LDS bank model (``pipeline_mlir.sim.lds_banks``): for rows of 64, 128 and 256 bytes it
    makes every ``ds_read_b128`` fragment read conflict-free (the lane groups of the read
    reach distinct banks), and the global->LDS writes stay contiguous.  The tests of the
    bank model pin that no candidate is cheaper for any shipped kernel."""
    chunks = max(1, row_bytes // CHUNK_BYTES)
    span = min(chunks, FRAGMENT_ROWS)
    return LdsSwizzle(max(1, 8 // span), span)


@dataclass(frozen=True)
class LdsLayout:
    """The LDS of a complete kernel: one buffer per (channel, stage, subtile).

    Separate buffers let LLVM see that a DMA into one does not alias fragment reads of
    another.  A global load of subtile ``u`` fills quadrant ``u`` of every warp: the
    buffer of subtile ``u`` holds the rows :meth:`tile_rows` names, so a fragment load
    of subtile ``q`` reads only what the global load of subtile ``q`` wrote."""

    buffers: tuple[LdsBuffer, ...]
    tile_rows_of: tuple[int, int]     # rows of the A and B tile (BM, BN)
    warp_tiles: tuple[int, int]       # rows of a warp's A and B tile (WM, WN)
    swizzle: LdsSwizzle = LdsSwizzle()  # where each 16-byte chunk of a row is stored

    @property
    def size(self) -> int:
        return sum(b.size for b in self.buffers)

    def buffer(self, channel: int, stage: int, subtile: int) -> LdsBuffer:
        for b in self.buffers:
            if (b.channel, b.stage, b.subtile) == (channel, stage, subtile):
                return b
        raise ConfigError(f"LDS layout: no buffer for channel {channel} stage {stage} "
                          f"subtile {subtile}")

    def read_base(self, channel: int, reach: int) -> int:
        """The byte offset the fragment-read base registers of ``channel`` carry.

        A read's address is its base register plus a constant: the buffer's offset plus
        at most ``reach`` bytes within it (the MMA row block).  When every such constant of
        the channel fits the ``ds_read`` offset field (:data:`DS_OFFSET_MAX`) the bases
        carry nothing (0); otherwise they carry the offset of the channel's first buffer
        and the constants are taken relative to it, so that one base per K column serves
        every buffer of the channel as long as the channel's buffers span less than
        64 KiB (ping-pong FP8: A at 0-64 KiB, B at 64-128 KiB)."""
        bufs = [b for b in self.buffers if b.channel == channel]
        if max(b.offset for b in bufs) + reach <= DS_OFFSET_MAX:
            return 0
        return min(b.offset for b in bufs)

    def tile_rows(self, channel: int, subtile: int) -> list[int]:
        """Tile rows the buffers of ``subtile`` hold, in load-row order."""
        if channel not in (0, 1) or subtile not in range(SUBTILES):
            raise ConfigError(f"LDS layout: no buffer for channel {channel} subtile {subtile}")
        return load_rows(self.tile_rows_of[channel], self.warp_tiles[channel], subtile)


def load_rows(rows: int, warp_tile: int, subtile: int) -> list[int]:
    """Tile rows a global load of ``subtile`` moves, in load-row order: quadrant
    ``subtile`` of every warp row (A) / column (B).  Load row ``rho`` is tile row
    ``(rho / (W/2))*W + subtile*W/2 + rho % (W/2)`` (``W`` = ``warp_tile``); the
    generator's index math computes exactly this."""
    q = warp_tile // 2
    return [(rho // q) * warp_tile + subtile * q + rho % q for rho in range(rows // 2)]


def half_tile_buffers(tile: tuple[int, int], row_elems: int, elem_bytes: int) -> list[LdsBuffer]:
    """One buffer of half of ``tile`` (rows of A, of B) per (channel, stage, subtile),
    channel-major, then stage, then subtile, packed from offset 0."""
    buffers, offset = [], 0
    for ch in (0, 1):
        for stage in range(LDS_STAGES):
            for sub in range(SUBTILES):
                b = LdsBuffer(ch, stage, sub, offset, tile[ch] // SUBTILES, row_elems,
                              elem_bytes)
                buffers.append(b)
                offset += b.size
    return buffers


def lds_layout(geometry, traits, swizzle: LdsSwizzle | None = None) -> LdsLayout:
    """The LDS buffers of the complete kernel of ``geometry`` on warps ``traits``:
    channel-major, then stage, then subtile; each half a tile of ``BK`` columns, its rows
    swizzled by ``swizzle`` (default: :func:`default_swizzle`)."""
    g = geometry
    tile = (g.BM, g.BN)
    buffers = half_tile_buffers(tile, g.BK, g.elem_bytes)
    if swizzle is None:
        swizzle = default_swizzle(g.BK * g.elem_bytes)
    chunks = g.BK * g.elem_bytes // CHUNK_BYTES
    if swizzle.span > max(1, chunks):
        raise ConfigError(f"LDS swizzle: span {swizzle.span} exceeds the {chunks} chunks of "
                          f"a {g.BK * g.elem_bytes}-byte row")
    return LdsLayout(tuple(buffers), tile, (g.BM // traits.warps_m, g.BN // traits.warps_n),
                     swizzle)
