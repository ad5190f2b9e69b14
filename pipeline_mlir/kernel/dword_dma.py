"""A 16-byte lane copy issued as ``P`` dword DMAs: each ``buffer_load_dwordx4 ... lds`` of
a global load as four ``buffer_load_dword ... lds`` (``KernelGeometry.dma_pieces``), the
one implementation of both kernels that issue them: the 4-wave GEMM's ``dma=dword`` and the
MX kernels' element tiles (``dma=auto`` chooses by one timing rule for both,
:mod:`pipeline_mlir.schedules.dma_rule`: BF16/F16 256x256x64, I8 256x256x128, MXFP4
256x256), the latter written in bytes (``mx_gemm_mlir.byte_kernel``) through the same GEMM
writer.

Piece ``q`` of x4 instruction ``j`` writes a quarter of the 1024 bytes each wave's x4
wrote: its lane ``l`` the 4 bytes x4 lane ``16 q + l / 4`` wrote, at byte ``4 (l % 4)`` of
that lane's 16-byte chunk.  The writer (:func:`dword_offsets`, called by
:func:`pipeline_mlir.kernel.gemm_mlir.write_global_offsets`) splits each piece's source
into a wave-uniform row offset and a lane part that depends only on the lane, the piece
and the XOR swizzle's phase of the piece's first row, so pieces in the same phase share
one value (BF16 256x256: 4 lane parts for all 64 copies of an iteration's K tile).  The
front end's address analysis checks the result against the x4 copies
(``test/unit/kernel/test_dword_dma.py``), the emulator both kernels
(``test_dword_kernel.py``, ``test_mx_dword_dma.py``).  The kernel text names
(``%gsrc_*``, ``%ldst_*``, ``%row0_*``, ``%warp``, ``%lane``, ``%Ki``, ``%wchunk``) are the
GEMM writer's.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.kernel.lds_data import OPAQUE_SCALAR_IDENTITY


def dword_offsets(t) -> None:
    """``%gsrc_*`` and ``%ldst_*`` of a kernel whose copies are ``P = dma_pieces`` dword
    DMAs per x4 (:func:`pipeline_mlir.kernel.gemm_mlir.write_global_offsets` for ``P == 1``).  Piece ``q`` of x4
    instruction ``j`` (copy ``i = P j + q``) writes the LDS bytes x4 lanes
    ``(64/P) q + lane/P`` of the wave wrote, element ``(lane % P) simd/P`` of their chunk:
    lane row ``(lane/P) / (BK/simd)`` of the piece's rows, which start at wave-uniform row
    ``j rpi + q rows_per_piece + warp rows_per_wave``.  The source is split into that
    uniform row's offset (into ``soffset``, :mod:`pipeline_mlir.passes.buffer_soffset`)
    and a lane part that depends only on the lane, ``q`` and the swizzle's phase of the
    uniform row, so copies in the same phase share one VGPR."""
    k, w, g, vm = t.k, t.w, t.k.geometry, t.vm
    simd, pieces, sw = g.simd_width, g.dma_pieces, k.lds.swizzle
    lpr, rpi = g.BK // simd, k.rows_per_load_instruction
    lanes = WAVE_SIZE // pieces
    if lanes % lpr or (WAVE_SIZE // lpr) % (lanes // lpr):
        raise ConfigError(f"{k.name}: a dword DMA of {lanes} lanes per x4 lane group does not "
                          f"write whole rows of {lpr} chunks")
    rpp, period = lanes // lpr, sw.row_div * sw.span
    w(f"%dl = arith.divui %lane, {w.const(pieces)} : i32")
    w(f"%dlr = arith.divui %dl, {w.const(lpr)} : i32")
    w(f"%dlc = arith.remui %dl, {w.const(lpr)} : i32")
    w(f"%dle = arith.remui %lane, {w.const(pieces)} : i32")
    w(f"%dlf = arith.muli %dle, {w.const(piece_elements(g))} : i32")
    w("%dlk = arith.muli %dlr, %Ki : i32")
    w(f"%dwr = arith.muli %warp, {w.const(WAVE_SIZE // lpr)} : i32")
    # the wave's LDS chunk (wave-uniform: %warp is read from the first lane) in one SGPR,
    # pinned: each copy's M0 is computed in the loop from it (loop_lds_index)
    w(f"%dwp = {OPAQUE_SCALAR_IDENTITY} %wchunk : (i32) -> i32")
    lane_parts: dict = {}
    for ch in (0, 1):
        n = "ab"[ch]
        wt = k.WM if ch == 0 else k.WN
        qrows = wt // 2
        if qrows % rpp:
            raise ConfigError(f"{k.name}: {qrows} rows per quadrant are not whole dword DMAs")
        for u in (0, 1):
            for i in range(vm[ch]):
                p, c = f"{n}{u}{i}", i // pieces * rpi + i % pieces * rpp
                key = (c % period, i % pieces)
                if key not in lane_parts:
                    lane_parts[key] = dword_lane_part(t, f"{key[0]}_{key[1]}", key[0])
                w(f"%ur_{p} = arith.addi %dwr, {w.const(c)} : i32")
                w(f"%blk_{p} = arith.divui %ur_{p}, {w.const(qrows)} : i32")
                w(f"%rem_{p} = arith.remui %ur_{p}, {w.const(qrows)} : i32")
                w(f"%bo_{p} = arith.muli %blk_{p}, {w.const(wt)} : i32")
                w(f"%br_{p} = arith.addi %bo_{p}, %rem_{p} : i32")
                w(f"%tr_{p} = arith.addi %br_{p}, {w.const(u * qrows)} : i32")
                w(f"%grow_{p} = arith.addi %tr_{p}, %row0_{n} : i32")
                w(f"%gm_{p} = arith.muli %grow_{p}, %Ki : i32")
                w(f"%gsrc_{p} = arith.addi %gm_{p}, {lane_parts[key]} : i32")
                w(f"%ldst_{p} = arith.addi %dwp, {w.const(lds_step(t, i))} : i32")


def loop_lds_index(t, ch: int, u: int, j: int, name: str, split: bool) -> str:
    """Write, inside the loop, the LDS index of copy ``j`` of (channel ``ch``, subtile
    ``u``): with dword DMAs the pinned wave chunk ``%dwp`` plus the copy's constant, so
    that LLVM computes each M0 from one SGPR in the loop (an ``s_add``) instead of keeping
    every copy's M0 in an SGPR of its own; with x4 DMAs the precomputed ``%ldst_*``.
    ``split``: the natural kernel, whose buffers the front end splits (the chunk is masked
    first, :func:`chunk_bits`); the tagged kernel's buffers are its own, unsplit, and the
    mask would only cost an ``s_and`` (MXFP4 256x256: 2060 cycles per iteration against
    2056 in the measured table).  Returns the index's name."""
    p = f"{'ab'[ch]}{u}{j}"
    if t.k.geometry.dma_pieces == 1:
        t.w(f"%lx{name} = arith.index_castui %ldst_{p} : i32 to index", 8)
        return f"%lx{name}"
    chunk = "%dwp"
    if split:
        chunk = f"%lm{name}"
        t.w(f"{chunk} = arith.andi %dwp, {t.w.const(chunk_bits(t))} : i32", 8)
    t.w(f"%lq{name} = arith.addi {chunk}, {t.w.const(lds_step(t, j))} : i32", 8)
    t.w(f"%lx{name} = arith.index_castui %lq{name} : i32 to index", 8)
    return f"%lx{name}"


def chunk_bits(t) -> int:
    """The bits a wave's LDS chunk (``warp * 64 * simd_width`` elements) can have set.  The
    pinned chunk is masked with them in the loop (an identity on its values): LLVM then
    knows the bits the front end's buffer split (``partition.layout_buffers``) tests, and
    folds each copy's index map into one constant added to the chunk (an ``s_add`` per
    M0) instead of a shift, two ands, an or and an add."""
    chunk = WAVE_SIZE * t.k.geometry.simd_width
    top = ((t.k.threads // WAVE_SIZE - 1) * chunk).bit_length()
    return (1 << top) - (chunk & -chunk)


def dword_lane_part(t, name: str, phase: int) -> str:
    """The lane part of a dword copy whose uniform row is ``phase`` modulo the swizzle's
    period: the lane row times ``K`` plus the swizzled column (the XOR term of the row
    ``warp rows_per_wave + phase + lane row``).  Returns its name."""
    w, g, sw = t.w, t.k.geometry, t.k.lds.swizzle
    w(f"%dr_{name} = arith.addi %dwr, {w.const(phase)} : i32")
    w(f"%drr_{name} = arith.addi %dr_{name}, %dlr : i32")
    w(f"%dd_{name} = arith.divui %drr_{name}, {w.const(sw.row_div)} : i32")
    w(f"%dx_{name} = arith.remui %dd_{name}, {w.const(sw.span)} : i32")
    w(f"%dc_{name} = arith.xori %dlc, %dx_{name} : i32")
    w(f"%dq_{name} = arith.muli %dc_{name}, {w.const(g.simd_width)} : i32")
    w(f"%ds_{name} = arith.addi %dq_{name}, %dlf : i32")
    w(f"%dv_{name} = arith.addi %ds_{name}, %dlk : i32")
    return f"%dv_{name}"


def piece_elements(g) -> int:
    """Elements of a 16-byte lane chunk one dword piece moves (its lanes ``l`` start at
    element ``(l % P)`` times this of the chunk their x4 lane fetched)."""
    return g.simd_width // g.dma_pieces


def lds_step(t, i: int) -> int:
    """Elements from the wave's chunk to where dword copy ``i`` writes: its x4
    instruction's rows, then the piece's share of the wave's 64 lanes."""
    g = t.k.geometry
    per_piece = WAVE_SIZE * g.simd_width // g.dma_pieces
    return i // g.dma_pieces * t.k.rows_per_load_instruction * g.BK + i % g.dma_pieces * per_piece


__all__ = ["dword_offsets", "dword_lane_part", "lds_step", "loop_lds_index", "chunk_bits"]
