"""The block-scaled complete kernels (``4wave{dtype=mxfp4|mxfp8}``) as MLIR text.

The kernel is written in the tagged (concrete) form by :func:`pipeline_mlir.kernel.
gemm_mlir.kernel_mlir`, in bytes: :func:`byte_kernel` counts its geometry's K in bytes of
A and B (E2M1 two elements per byte), so the element tiles move, land and are read as an
FP8 kernel's of the same bytes.  :class:`MxParts` adds what an MX kernel has beyond
that, in the same logical ops (so the schedule's waits cover it):

* each global load of (channel, stage, subtile) also copies the scale tile of that K tile
  (``amdgpu.gather_to_lds`` of ``vector<4xi8>``: ``buffer_load_dword ... lds``): lane ``l``
  of wave ``w`` copies dword ``(64 j + l) mod D`` of the ``D`` dwords of the ``W/2`` rows
  of its warp tile's quadrant (row-major, ``BK/32`` bytes a row) into wave ``w``'s part of
  the scale buffer (:mod:`pipeline_mlir.kernel.mx_layout`);
* each fragment load also reads, per MFMA operand, the lane's scale: the byte of row
  ``l % 16`` and block ``4 kk + l / 16`` (``vector.load`` of ``vector<1xi8>``:
  ``ds_read_u8``), zero-extended to a dword where it is read and carried so (a byte
  carried through the loop would be masked by LLVM after the loop's PHI: one VALU each);
* each MFMA is ``amdgpu.scaled_mfma 16x16x128`` of the bitcast fragments
  (``vector<32xf4E2M1FN>`` / ``vector<32xf8E4M3FN>``) with those scales
  (``vector<4xf8E8M0FNU>``, byte 0).

The kernel's K argument counts elements (``%K_elements``); the byte count ``%K`` the
common code indexes with is derived from it, and a K that is not whole bytes traps like
every other launch outside the host contract.  No MLIR import here.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline_mlir.kernel.gemm import GemmKernel, latest_fragment
from pipeline_mlir.kernel.gemm_mlir import (KernelText, TaggedParts, entry_tag,
                                            kernel_mlir, kernel_text, write_fragment_bases,
                                            write_global_offsets, write_mfmas,
                                            write_signature)
from pipeline_mlir.kernel.grid_mlir import thread_ids
from pipeline_mlir.kernel.mx_layout import SCALE_DMA_WAVE_BYTES
from pipeline_mlir.schedule.targets import SCALE_CHANNEL_OFFSET
from pipeline_mlir.schedule.types import KOffsetKind
from pipeline_mlir.target.gfx950 import MX_BLOCK, WAVE_SIZE

#: the MLIR element type of each MX element format
MX_ELEMENT_TYPES = {"mxfp4": "f4E2M1FN", "mxfp8": "f8E4M3FN"}
#: a lane's scale as read from LDS (``ds_read_u8``)
SCALE_VECTOR = "vector<1xi8>"
#: the scale as carried to its MFMA: the read zero-extended to a dword, byte 0 the scale
#: (the scaled MFMA's scale operand is a dword; carried as a byte, LLVM masks it with a
#: ``v_and_b32 0xff`` after the loop's PHI, one VALU per scale and iteration)
SCALE_DWORD = "vector<4xi8>"
#: the carried dword as the scaled MFMA's scale operand (byte 0 selected)
SCALE_E8M0 = "vector<4xf8E8M0FNU>"
_ROWS_PER_READ = 16
#: the first scale channel (``pipeline_mlir.schedule.targets.SCALE_CHANNEL_OFFSET``): the
#: body's ops of channel ``SCALES + c`` load operand ``c``'s scale tile
SCALES = SCALE_CHANNEL_OFFSET


def byte_kernel(k: GemmKernel) -> GemmKernel:
    """The MX kernel ``k`` with its geometry counted in bytes of A and B (``BK``,
    ``MMA_K``, 16 bytes a load), named as ``k``."""
    g = k.geometry
    bg = replace(g, BK=g.row_bytes, MMA_K=g.MMA_K * g.elem_bytes // g.pack, simd_width=16,
                 pack=1)
    return replace(k, geometry=bg, title=k.name)


def mx_kernel_mlir(k: GemmKernel) -> str:
    """The MX kernel ``k`` (logical geometry) in the tagged form."""
    return kernel_mlir(byte_kernel(k), MxParts(k.geometry))


class MxParts(TaggedParts):
    """The MX kernel's additions to the tagged kernel (module doc)."""

    def __init__(self, geometry) -> None:
        self.g = geometry                                # the logical geometry
        self.row_scales = geometry.BK // MX_BLOCK        # scale bytes of a row of a K tile
        self.loads = (geometry.scale_loads_a, geometry.scale_loads_b)

    def begin(self, k: GemmKernel, lds: dict) -> KernelText:
        t = kernel_text(k)
        scale_lds = dict(lds)
        for b in k.lds.scales:
            t.mem_l[f"s{b.channel}"] = f"memref<{b.size}xi8, #gpu.address_space<workgroup>>"
            scale_lds[(f"s{b.channel}", b.stage, b.subtile)] = f"%{b.name}"
        write_signature(t, scale_lds)
        t.out[-3] = t.out[-3].replace("%K: index)", "%K_elements: index)")
        self._k_bytes(t)
        thread_ids(t)
        write_global_offsets(t)
        write_fragment_bases(t)
        self._scale_offsets(t)
        t.w(f"%zacc = arith.constant dense<0.0> : {t.acc_t}")
        t.w(f"%zscale = arith.constant dense<0> : {SCALE_DWORD}")
        return t

    def _k_bytes(self, t: KernelText) -> None:
        """``%K`` (bytes of a row of A) from the K argument (elements); a K of whole bytes
        or it traps."""
        w, pack = t.w, self.g.pack
        w(f"%kpack = arith.constant {pack} : index")
        w("%K = arith.divui %K_elements, %kpack : index")
        if pack > 1:
            w("%kpart = arith.remui %K_elements, %kpack : index")
            w("%kzero = arith.constant 0 : index")
            w("%kpart_bad = arith.cmpi ne, %kpart, %kzero : index")
            w("scf.if %kpart_bad {")
            w("llvm.intr.trap", 8)
            w("}")

    def _scale_offsets(self, t: KernelText) -> None:
        """The scale sources, each lane's source offset (without the K tile) and LDS
        destination per (channel, subtile, instruction), and the scale-read bases."""
        k, w, g = t.k, t.w, self.g
        mem_g = "memref<?xi8, #gpu.address_space<global>>"
        per_row = self.row_scales // 4                    # dwords of a row's scales
        w(f"%Ksc = arith.divui %Ki, {w.const(MX_BLOCK // g.pack)} : i32")
        for ch in (0, 1):
            n, wt = "ab"[ch], (k.WM if ch == 0 else k.WN)
            wpos = "%wm" if ch == 0 else "%wn"
            w(f"%sbuf_{n} = amdgpu.fat_raw_buffer_cast %{'AB'[ch]}_scale resetOffset : "
              f"{mem_g} to {t.mem_f}")
            part = self.loads[ch] * SCALE_DMA_WAVE_BYTES
            w(f"%spart_{n} = arith.muli %warp, {w.const(part)} : i32")
            w(f"%sq_{n} = arith.muli {wpos}, {w.const(wt)} : i32")
            w(f"%sr_{n} = arith.addi %row0_{n}, %sq_{n} : i32")
            # the scale read of a lane: row l % 16 of the quadrant, block l / 16
            w(f"%sfr_{n} = arith.muli %l16, {w.const(self.row_scales)} : i32")
            w(f"%sfo_{n} = arith.addi %sfr_{n}, %lgrp : i32")
            w(f"%sfbase_{n} = arith.addi %spart_{n}, %sfo_{n} : i32")
            dwords = (wt // 2) * per_row
            for u in (0, 1):
                for j in range(self.loads[ch]):
                    p = f"{n}{u}{j}"
                    w(f"%sl_{p} = arith.addi %lane, {w.const(j * WAVE_SIZE)} : i32")
                    w(f"%sd_{p} = arith.remui %sl_{p}, {w.const(dwords)} : i32")
                    w(f"%srow_{p} = arith.divui %sd_{p}, {w.const(per_row)} : i32")
                    w(f"%sdw_{p} = arith.remui %sd_{p}, {w.const(per_row)} : i32")
                    w(f"%sgr0_{p} = arith.addi %sr_{n}, {w.const(u * (wt // 2))} : i32")
                    w(f"%sgr_{p} = arith.addi %sgr0_{p}, %srow_{p} : i32")
                    w(f"%sgm_{p} = arith.muli %sgr_{p}, %Ksc : i32")
                    w(f"%sgc_{p} = arith.muli %sdw_{p}, {w.const(4)} : i32")
                    w(f"%ssrc_{p} = arith.addi %sgm_{p}, %sgc_{p} : i32")
                    w(f"%sdst_{p} = arith.addi %spart_{n}, "
                      f"{w.const(j * SCALE_DMA_WAVE_BYTES)} : i32")

    def global_load(self, t: KernelText, i: int, o, lds: dict) -> None:
        """Body op ``i``: an element tile's copies (channel 0, 1), or the scale tile's
        (channel 2, 3: the scale channel of operand ``channel - 2``)."""
        if o.channel < SCALES:
            super().global_load(t, i, o, lds)
            return
        ch = o.channel - SCALES
        w, n = t.w, "ab"[ch]
        tag = entry_tag("global_load", o, i)
        buf = f"%lds_s{n}{o.stage}{o.subtile}"
        koff = o.k_offset.signed_bk_multiple() if o.k_offset != KOffsetKind.NONE else 0
        w(f"%kc{i} = arith.constant {koff * t.k.geometry.BK} : index", 8)
        w(f"%kt{i} = arith.addi %k, %kc{i} : index", 8)
        # the K tile's first scale column: %kt<i> (bytes of A) over the bytes of a block
        w(f"%kscd{i} = arith.constant {MX_BLOCK // self.g.pack} : index", 8)
        w(f"%ksc{i} = arith.divui %kt{i}, %kscd{i} : index", 8)
        for j in range(self.loads[ch]):
            p = f"{n}{o.subtile}{j}"
            w(f"%sgl{i}_{j} = arith.index_castui %ssrc_{p} : i32 to index", 8)
            w(f"%sgx{i}_{j} = arith.addi %sgl{i}_{j}, %ksc{i} : index", 8)
            w(f"%slx{i}_{j} = arith.index_castui %sdst_{p} : i32 to index", 8)
            w(f"amdgpu.gather_to_lds %sbuf_{n}[%sgx{i}_{j}], {buf}[%slx{i}_{j}] {tag} : "
              f"vector<4xi8>, {t.mem_f}, {t.mem_l[f's{ch}']}", 8)

    def fragment_load(self, t: KernelText, i: int, o, lds: dict) -> None:
        """Body op ``i``: an element tile's reads (channel 0, 1), or the scale reads of
        operand ``channel - 2`` (channel 2, 3)."""
        if o.channel < SCALES:
            super().fragment_load(t, i, o, lds)
            return
        w, n = t.w, "ab"[o.channel - SCALES]
        tag = entry_tag("frag_load", o, i)
        buf = f"%lds_s{n}{o.stage}{o.subtile}"
        for mi, kk in self._operands(t, o):
            off = mi * _ROWS_PER_READ * self.row_scales + kk * 4
            so = f"%so{i}_{mi}_{kk}"
            w(f"{so} = arith.addi %sfbase_{n}, {w.const(off)} : i32", 8)
            w(f"{so}x = arith.index_castui {so} : i32 to index", 8)
            s = f"%s{i}_{mi}_{kk}"
            w(f"{s}r = vector.load {buf}[{so}x] {tag} : "
              f"{t.mem_l[f's{o.channel - SCALES}']}, {SCALE_VECTOR}", 8)
            w(f"{s}w = arith.extui {s}r : {SCALE_VECTOR} to vector<1xi32>", 8)
            w(f"{s} = vector.bitcast {s}w : vector<1xi32> to {SCALE_DWORD}", 8)

    @staticmethod
    def _operands(t: KernelText, o) -> list[tuple[int, int]]:
        quad = t.k.quadrant_m if o.channel % SCALES == 0 else t.k.quadrant_n
        return [(mi, kk) for mi in range(quad) for kk in range(t.k.num_k_mmas)]

    def carried(self, t: KernelText, j: int, o) -> list[tuple[str, str, str]]:
        if o.channel < SCALES:
            return super().carried(t, j, o)
        return [(f"%s{j}_{mi}_{kk}", SCALE_DWORD, "%zscale") for mi, kk in self._operands(t, o)]

    def mma(self, t: KernelText, i: int, o, frags, carried_args: dict, acc_now: dict) -> None:
        ja, ca = latest_fragment(frags, i, 0, o.stage)
        jb, cb = latest_fragment(frags, i, 1, o.subtile)
        # the scales of each operand: the scale channel's latest read of that subtile
        scale_of = {ja: latest_fragment(frags, i, SCALES, o.stage),
                    jb: latest_fragment(frags, i, SCALES + 1, o.subtile)}
        w = t.w
        et = MX_ELEMENT_TYPES[self.g.dtype]
        vec = f"vector<{MX_BLOCK}x{et}>"

        def value(kind, j, c, m, kk):
            v = f"%{kind}{j}_{m}_{kk}"
            return carried_args[v] if c else v

        def operand(side, j, c, m, kk, key):
            e, s = f"%e{side}{key}", f"%x{side}{key}"
            w(f"{e} = vector.bitcast {value('f', j, c, m, kk)} : {t.vec_mma} to {vec}", 8)
            w(f"{s} = vector.bitcast {value('s', *scale_of[j], m, kk)} : {SCALE_DWORD} to "
              f"{SCALE_E8M0}", 8)
            return e, s

        def write(new, mi, ni, kk, acc, attr):
            key = f"{i}_{mi}_{ni}_{kk}"
            ae, sa = operand("a", ja, ca, mi, kk, key)
            be, sb = operand("b", jb, cb, ni, kk, key)
            w(f"{new} = amdgpu.scaled_mfma 16x16x128 ({sa}[0] * {ae}) * ({sb}[0] * {be}) + "
              f"{acc}{attr} : {SCALE_E8M0}, {vec}, {SCALE_E8M0}, {vec}, {t.acc_t}", 8)

        write_mfmas(t, acc_now, o.stage, o.subtile, str(i), None, None, entry_tag("mma", o, i),
                   write)

