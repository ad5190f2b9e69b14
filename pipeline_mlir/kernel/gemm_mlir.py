"""The complete GEMM kernels (:mod:`pipeline_mlir.kernel.gemm`) as MLIR text.

``natural_kernel_mlir(kernel)`` writes a kernel with its natural K-loop (one K tile per
iteration, untagged: what the driver compiles); ``kernel_mlir(kernel)`` the same kernel in
the tagged (concrete) form, its K-loop holding the schedule's logical body.  Both share
the kernel's start (signature, launch check, ids, global offsets, fragment bases), its
fragment loads, MFMAs and write-back.  Nothing here imports MLIR.

A kernel that adds to the tagged form (the MX kernels, :mod:`pipeline_mlir.kernel.
mx_gemm_mlir`) subclasses :class:`TaggedParts` and builds on the public pieces: the
:class:`KernelText` of a kernel (:func:`kernel_text`), its start (:func:`write_signature`,
:func:`write_global_offsets`, :func:`write_fragment_bases`), the MFMAs of one MMA
(:func:`write_mfmas`) and the tag of a logical op (:func:`entry_tag`); nothing else here
is for use outside this module.

Layout, per K tile of ``BK`` columns (``e`` = element bytes, ``simd = 16/e``):

* LDS (:class:`pipeline_mlir.kernel.lds.LdsLayout`): one buffer per (channel, stage,
  subtile), ``rows/2 x BK`` without padding, the 16-byte chunks of each row XOR-swizzled
  (:class:`pipeline_mlir.kernel.lds.LdsSwizzle`: chunk ``c`` of load row ``rho`` is
  stored at chunk ``c ^ x(rho)``, which makes every fragment read conflict-free in the
  LDS bank model);
  separate buffers let LLVM see that a DMA into one does not alias fragment reads
  of another, so it adds no ``vmcnt`` waits of its own between them.  A global
  load of subtile ``u`` fills quadrant ``u`` of every warp: load row ``rho`` is
  tile row ``(rho / (W/2))*W + u*W/2 + rho % (W/2)``
  (:func:`pipeline_mlir.kernel.lds.load_rows`; ``W`` = warp tile), so a fragment load
  of subtile ``q`` reads only what the global load of subtile ``q`` wrote.  It takes
  ``vm_per_load`` direct-to-LDS instructions (``amdgpu.gather_to_lds`` from a fat raw
  buffer: ``buffer_load_dwordx4 ... lds``; one buffer per operand, each lane's offset loop-invariant, the K column added
  to it, :func:`_global_index`, and moved into the instruction's scalar offset by the
  LLVM step); instruction ``j`` moves ``threads/(BK/simd)`` load rows, thread ``t``
  the 16 bytes at load row ``rho = j*threads/(BK/simd) + t / (BK/simd)``, column
  ``((t % (BK/simd)) ^ x(rho))*simd``.  The DMA writes a wave's 64 lanes as one
  contiguous chunk at a wave-uniform LDS address, so the buffer holds the load rows
  row-major, in load order, each row's chunks permuted by the swizzle.
* Warps: a ``warps_m x warps_n`` grid, warp tile ``WM x WN``; warp ``w`` is at
  row ``w / warps_n``, column ``w % warps_n`` (ping-pong: the warp row is the
  warp group).  A fragment load of subtile ``q`` reads the warp's MMA rows (A)
  or columns (B) ``[q*quadrant, (q+1)*quadrant)``: per MMA row and K step
  ``k_loads_per_mma`` ``ds_read_b128`` (lane ``l``: row ``l % 16``, K chunk
  ``l / 16`` of the read's K columns, swizzled: one precomputed base per K column,
  the MMA row block in the instruction's offset; with 1-byte elements, a channel whose
  buffers lie above the 16-bit ds_read offset has bases that carry its LDS region,
  pinned in registers through the loop, :func:`_read_base`).  An MMA (row r, col c)
  runs ``quadrant_m*quadrant_n*num_k_mmas`` MFMAs; A and B use the same K permutation,
  so each MFMA is a plain dot product over its K step whatever the hardware's internal
  K order is.
* Accumulators: lane ``l`` of MFMA tile (i, j) holds ``C[4*(l/16)+e][l%16]``,
  ``e = 0..3`` (the 16x16 MFMA output layout); stored with scalar stores, after
  ``arith.truncf`` (round to nearest even) when C is bf16 or f16 (``c_dtype``); an i8
  kernel's accumulators are i32 (``v_mfma_i32_16x16x64_i8``) and C is stored as i32.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.dword_dma import dword_offsets, loop_lds_index
from pipeline_mlir.kernel.gemm import GemmKernel, latest_fragment
from pipeline_mlir.kernel.grid_mlir import c_lane_base
from pipeline_mlir.kernel.grid_mlir import thread_ids as _thread_ids
from pipeline_mlir.kernel.lds_data import OPAQUE_IDENTITY
from pipeline_mlir.kernel.loop_once import loop_end
from pipeline_mlir.schedule.types import KOffsetKind
from pipeline_mlir.target.gfx950 import (AGPR_ALLOC_ATTR, COPIES_IN_RANGE_ATTR, K_OUTER_MFMAS_ATTR,
                                         WAVE_SIZE)

#: MLIR element type per dtype (gfx950 FP8 is the OCP E4M3 format).
ELEMENT_TYPES = {"bf16": "bf16", "f16": "f16", "fp8": "f8E4M3FN", "i8": "i8", "f32": "f32",
                 "i32": "i32",
                 # block-scaled operands and their scales: bytes (bitcast where multiplied)
                 "mxfp4": "i8", "mxfp8": "i8", "e8m0": "i8"}
_K_NAMES = {KOffsetKind.K0: "k0", KOffsetKind.K1: "k1", KOffsetKind.K_NEXT: "k_next",
            KOffsetKind.K_PREV: "k_prev", KOffsetKind.NONE: "none"}
#: body op tag -> kind (6-9: the MX scale tiles' channels, LOAD_SA/SB and MMA_LOAD_SA/SB)
_ROLE = {0: "global", 1: "global", 3: "frag", 4: "frag", 5: "mma", 6: "global", 7: "global",
         8: "frag", 9: "frag"}


class _Writer:
    """Function-body lines; i32 constants are collected at the top of the body (the index
    math is done in i32: buffer offsets are 32-bit, and 64-bit math costs VGPR pairs)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.const_lines: list[str] = []
        self.consts: dict[int, str] = {}

    def __call__(self, line: str, indent: int = 6) -> None:
        self.lines.append(" " * indent + line)

    def const(self, v: int) -> str:
        if v not in self.consts:
            name = f"%c{v}" if v >= 0 else f"%cm{-v}"
            self.const_lines.append(f"      {name} = arith.constant {v} : i32")
            self.consts[v] = name
        return self.consts[v]


@dataclass
class KernelText:
    """What both kernel writers share: the writer, types and names of the kernel."""

    k: GemmKernel
    w: _Writer
    out: list
    et: str
    frag_w: int
    vec_in: str
    vec_frag: str
    vec_mma: str
    mem_f: str
    mem_l: dict
    acc_t: str
    num_m: int
    num_n: int
    vm: dict


def _begin(k: GemmKernel, lds: dict) -> KernelText:
    """The kernel up to its K-loop: signature (``lds``: LDS buffer key -> name), the launch
    check, thread/warp/tile ids, the global-load offsets and LDS destinations per (channel,
    subtile, instruction), the fragment bases, the zero accumulator."""
    t = kernel_text(k)
    write_signature(t, lds)
    _thread_ids(t)
    write_global_offsets(t)
    write_fragment_bases(t)
    t.w(f"%zacc = arith.constant {_zero(t.acc_t)} : {t.acc_t}")
    return t


def kernel_text(k: GemmKernel) -> KernelText:
    """The types and names both kernel writers use, with an empty writer."""
    g = k.geometry
    et = ELEMENT_TYPES[g.dtype]
    simd = g.simd_width
    frag_w = k.lds_frag_width
    mma_frag_w = k.mma_frag_width
    mem_f = f"memref<?x{et}, #amdgpu.address_space<fat_raw_buffer>>"
    mem_l = {b.channel: f"memref<{b.elements}x{et}, #gpu.address_space<workgroup>>"
             for b in k.lds.buffers}
    vec_in = f"vector<{simd // g.dma_pieces}x{et}>"
    vec_frag = f"vector<{frag_w}x{et}>"
    vec_mma = f"vector<{mma_frag_w}x{et}>"
    acc_t = f"vector<4x{ELEMENT_TYPES[k.acc_dtype]}>"
    num_m, num_n = 2 * k.quadrant_m, 2 * k.quadrant_n
    # the element tiles' copy instructions (an MX kernel's scale copies are counted too)
    vm = {0: g.element_dmas(0), 1: g.element_dmas(1)}
    out = ["module attributes {gpu.container_module} {", "  gpu.module @kernels {"]
    return KernelText(k, _Writer(), out, et, frag_w, vec_in, vec_frag, vec_mma, mem_f, mem_l,
                      acc_t, num_m, num_n, vm)


def _zero(vector_type: str) -> str:
    """The zero splat of ``vector_type`` (an integer one has no ``0.0``)."""
    return "dense<0>" if "xi" in vector_type else "dense<0.0>"


def write_signature(t: KernelText, lds: dict) -> None:
    """The ``gpu.func`` line: arguments, LDS buffers (``lds``: key -> name), attributes."""
    k, out = t.k, t.out
    # check_launch accepts only whole tiles: every copy reads within its buffer
    attrs = [f"known_block_size = array<i32: {k.threads}, 1, 1>", COPIES_IN_RANGE_ATTR]
    if k.traits.waves_per_eu is not None:
        attrs.append(f"rocdl.waves_per_eu = {k.traits.waves_per_eu} : i32")
    if k.agpr_accumulators:
        # the MFMAs read and write their accumulators in AGPRs (GemmKernel.agpr_accumulators)
        attrs.append(f"{AGPR_ALLOC_ATTR} = {k.agpr_accumulators} : i32")
    if k.k_outer_mfmas:
        # LLVM's register allocation of K-step-interleaved AGPR chains (codegen.llvm_options)
        attrs.append(K_OUTER_MFMAS_ATTR)
    out.append(f"    gpu.func @{k.name}(" + ", ".join(
        f"%{a.name}: " + (f"memref<?x{ELEMENT_TYPES[a.element]}, #gpu.address_space<global>>"
                          if a.kind == "buffer" else "index") for a in k.shape.arguments) + ")")
    out.append("        workgroup(" + ", ".join(
        f"{name}: {t.mem_l[key[0]]}" for key, name in lds.items()) + ")")
    out.append(f"        kernel attributes {{{', '.join(attrs)}}} {{")


def write_global_offsets(t: KernelText) -> None:
    """The global sources (one fat raw buffer per operand) and, per (channel, subtile,
    copy instruction), the lane's source offset without the K tile and its LDS destination."""
    k, w, g, vm = t.k, t.w, t.k.geometry, t.vm
    simd = g.simd_width
    lpr = g.BK // simd
    rpi = k.rows_per_load_instruction
    mem_g = f"memref<?x{t.et}, #gpu.address_space<global>>"
    if g.dma_pieces == 1:
        w(f"%lrow = arith.divui %tid, {w.const(lpr)} : i32")
        w(f"%lcol0 = arith.remui %tid, {w.const(lpr)} : i32")
    # the global sources: one buffer per operand for the whole kernel (its descriptor is
    # loop-invariant); a copy's index is its lane's offset (loop-invariant) plus the K
    # column (wave-uniform), which the LLVM step (sched-buffer-soffset) puts in the buffer
    # instruction's scalar offset, so K advances with one scalar add per operand
    for ch, src in ((0, "%A"), (1, "%B")):
        w(f"%gbuf_{'ab'[ch]} = amdgpu.fat_raw_buffer_cast {src} resetOffset : {mem_g} to "
          f"{t.mem_f}")
    # global source offsets (without the K tile) and LDS destinations per (channel, subtile, j):
    # load row rho of subtile u is tile row (rho / qrows)*W + u*qrows + rho % qrows (load_rows)
    w(f"%wchunk = arith.muli %warp, {w.const(WAVE_SIZE * simd)} : i32")
    if g.dma_pieces > 1:
        dword_offsets(t)
        return
    # swizzle: the lane landing at chunk c of load row rho fetches global chunk c ^ x(rho)
    # (LdsSwizzle), so the DMA's LDS write stays contiguous; rho depends on j only
    sw = k.lds.swizzle
    for j in range(max(vm.values())):
        w(f"%srho{j} = arith.addi %lrow, {w.const(j * rpi)} : i32")
        w(f"%sd{j} = arith.divui %srho{j}, {w.const(sw.row_div)} : i32")
        w(f"%sx{j} = arith.remui %sd{j}, {w.const(sw.span)} : i32")
        w(f"%sc{j} = arith.xori %lcol0, %sx{j} : i32")
        w(f"%scol{j} = arith.muli %sc{j}, {w.const(simd)} : i32")
    for ch in (0, 1):
        n = "ab"[ch]
        wt = k.WM if ch == 0 else k.WN
        qrows = wt // 2
        for u in (0, 1):
            for j in range(vm[ch]):
                p = f"{n}{u}{j}"
                w(f"%rho_{p} = arith.addi %lrow, {w.const(j * rpi)} : i32")
                w(f"%blk_{p} = arith.divui %rho_{p}, {w.const(qrows)} : i32")
                w(f"%rem_{p} = arith.remui %rho_{p}, {w.const(qrows)} : i32")
                w(f"%bo_{p} = arith.muli %blk_{p}, {w.const(wt)} : i32")
                w(f"%br_{p} = arith.addi %bo_{p}, %rem_{p} : i32")
                w(f"%tr_{p} = arith.addi %br_{p}, {w.const(u * qrows)} : i32")
                w(f"%grow_{p} = arith.addi %tr_{p}, %row0_{n} : i32")
                w(f"%gm_{p} = arith.muli %grow_{p}, %Ki : i32")
                w(f"%gsrc_{p} = arith.addi %gm_{p}, %scol{j} : i32")
                # the buffer holds load rows in order: instruction j's chunk, then the wave's
                w(f"%ldst_{p} = arith.addi %wchunk, {w.const(j * rpi * g.BK)} : i32")


def write_fragment_bases(t: KernelText) -> None:
    """The fragment-read bases per (channel, K column of the read), swizzled (and, with
    1-byte elements, carrying the channel's LDS region, pinned)."""
    k, w, g = t.k, t.w, t.k.geometry
    simd, frag_w, sw = g.simd_width, t.frag_w, k.lds.swizzle
    # fragment read bases per (channel, K offset of the read): the swizzle's XOR term is
    # the same for every 16-row block, so an MMA row adds a constant (the ds_read offset)
    if frag_w * g.elem_bytes > 16 or simd % frag_w:
        raise ConfigError(f"{k.name}: a fragment read of {frag_w} elements does not fit one "
                          f"16-byte LDS chunk")
    w(f"%fgrp = arith.muli %lgrp, {w.const(k.frag_group_stride)} : i32")
    for ch in (0, 1):
        n = "ab"[ch]
        wtile = k.WM if ch == 0 else k.WN
        wpos = "%wm" if ch == 0 else "%wn"
        w(f"%wrow_{n} = arith.muli {wpos}, {w.const(wtile)} : i32")
        # quadrant q of warp position p is load rows p*W/2 .. of subtile q's buffer
        w(f"%wlrow_{n} = arith.muli {wpos}, {w.const(wtile // 2)} : i32")
        w(f"%frow_{n} = arith.addi %wlrow_{n}, %l16 : i32")
        w(f"%frowk_{n} = arith.muli %frow_{n}, {w.const(g.BK)} : i32")
        w(f"%fsd_{n} = arith.divui %frow_{n}, {w.const(sw.row_div)} : i32")
        w(f"%fsx_{n} = arith.remui %fsd_{n}, {w.const(sw.span)} : i32")
        for ci, col in enumerate(_read_columns(k)):
            b = f"{n}{ci}"
            w(f"%fcol_{b} = arith.addi %fgrp, {w.const(col)} : i32")
            w(f"%fch_{b} = arith.divui %fcol_{b}, {w.const(simd)} : i32")
            w(f"%fin_{b} = arith.remui %fcol_{b}, {w.const(simd)} : i32")
            w(f"%fpx_{b} = arith.xori %fch_{b}, %fsx_{n} : i32")
            w(f"%fpc_{b} = arith.muli %fpx_{b}, {w.const(simd)} : i32")
            w(f"%fpo_{b} = arith.addi %fpc_{b}, %fin_{b} : i32")
            w(f"%fbase_{b} = arith.addi %frowk_{n}, %fpo_{b} : i32")
            base = _read_base(k, ch)
            if base:
                # the base register carries the channel's LDS region (in bytes) so that
                # every read's constant fits the ds_read offset; pinned (an opaque
                # identity the lowering carries through the loop) so that LLVM keeps it
                # as one register instead of re-adding the region in the loop
                w(f"%fbr_{b} = arith.addi %fbase_{b}, {w.const(base)} : i32")
                w(f'%freg_{b} = {OPAQUE_IDENTITY} %fbr_{b} : (i32) -> i32')


def _global_index(t: KernelText, ch: int, u: int, j: int, k_index: str, name: str,
                  indent: int = 8) -> str:
    """Write the index into channel ``ch``'s buffer of copy instruction ``j`` of subtile
    ``u`` for the K column ``k_index`` (an index value, wave-uniform): the lane's
    loop-invariant offset plus the K column.  Returns the index's name."""
    p = f"{'ab'[ch]}{u}{j}"
    w = t.w
    w(f"%gl{name} = arith.index_castui %gsrc_{p} : i32 to index", indent)
    w(f"%gx{name} = arith.addi %gl{name}, {k_index} : index", indent)
    return f"%gx{name}"


def _read_base(k: GemmKernel, ch: int) -> int:
    """The elements the fragment-read bases of channel ``ch`` carry
    (:meth:`~pipeline_mlir.kernel.lds.LdsLayout.read_base`): only with 1-byte elements.
    With wider elements the index is in elements and LLVM scales it inside the loop, so a
    base carried through the loop would cost a shift and an add per base and iteration;
    without one LLVM gives every read address of the far buffers a register of its own
    (ping-pong BF16: no address VALU in the loop, 232 VGPRs).  Nor with the accumulators in
    AGPRs (the 4-wave 256x256 tiles): the architected VGPRs then hold only fragments and
    addresses, so a register per far read fits (FP8: 250 VGPRs, 1 VALU per iteration),
    and the front end splits each of those kernels' buffers in two by an element bit
    (``partition.layout_buffers``), an index map a pinned base would have to pass through
    inside the loop (FP8: 41 VALU per iteration)."""
    g = k.geometry
    if g.elem_bytes != 1 or k.agpr_accumulators:
        return 0
    quad = k.quadrant_m if ch == 0 else k.quadrant_n
    reach = (quad - 1) * 16 * g.BK * g.elem_bytes
    return k.lds.read_base(ch, reach) // g.elem_bytes


def _read_columns(k: GemmKernel) -> list[int]:
    """The K column (elements) of lane group 0's chunk for each read of an MMA row:
    (k step, k load) in order."""
    g = k.geometry
    return [kk * g.MMA_K + kl * k.frag_part_stride
            for kk in range(k.num_k_mmas) for kl in range(k.k_loads_per_mma)]


def _end(t: KernelText, acc_names: list[str]) -> str:
    """Write the accumulators (the loop's first results) back to C and close the kernel
    (:func:`c_lane_base` was written before the loop)."""
    w = t.w
    acc_t, num_m, num_n = t.acc_t, t.num_m, t.num_n
    # write back: lane l of tile (i, j) holds C[4*(l/16)+e][l%16]; the address is a
    # per-lane base plus a wave-uniform row offset, through a buffer (bounds-checked)
    ct = ELEMENT_TYPES[t.k.c_dtype]
    mem_c = f"memref<?x{ct}, #gpu.address_space<global>>"
    mem_cf = f"memref<?x{ct}, #amdgpu.address_space<fat_raw_buffer>>"
    w(f"%buf_c = amdgpu.fat_raw_buffer_cast %C resetOffset : {mem_c} to {mem_cf}")
    w(f"%cbase = {OPAQUE_IDENTITY} %cbase2 : (i32) -> i32")
    for e_row in range(num_m * 16 // 16 * 4):
        i, e = divmod(e_row, 4)
        w(f"%crow_{i}_{e} = arith.muli %Ni, {w.const(i * 16 + e)} : i32")
    out_t = f"vector<4x{ct}>"
    for n_acc, a in enumerate(acc_names):
        i, jn = divmod(n_acc, num_n)
        res = f"%res#{n_acc}"
        if ct != ELEMENT_TYPES[t.k.acc_dtype]:
            # the f32 accumulator rounded to C's type (arith.truncf: to nearest even)
            w(f"%ct{n_acc} = arith.truncf {res} : {acc_t} to {out_t}")
            res = f"%ct{n_acc}"
        for e in range(4):
            w(f"%cr{n_acc}_{e} = arith.addi %cbase, %crow_{i}_{e} : i32")
            w(f"%ci{n_acc}_{e} = arith.addi %cr{n_acc}_{e}, {w.const(jn * 16)} : i32")
            w(f"%cx{n_acc}_{e} = arith.index_castui %ci{n_acc}_{e} : i32 to index")
            w(f"%cv{n_acc}_{e} = vector.extract {res}[{e}] : {ct} from {out_t}")
            w(f"memref.store %cv{n_acc}_{e}, %buf_c[%cx{n_acc}_{e}] : {mem_cf}")
    w("gpu.return")
    return "\n".join(t.out + w.const_lines + w.lines + ["    }", "  }", "}"]) + "\n"


def _fragment_loads(t: KernelText, ch: int, key: str, buf: str, tag: str = "") -> list[str]:
    """The ``vector.load`` s of one fragment load of channel ``ch`` from LDS buffer ``buf``
    (one per ds_read; two halves shuffled into one MFMA operand for FP8 16x16x128); the
    values are named ``%f<key>_<mi>_<kk>``, returned in (mi, kk) order."""
    k, w, g = t.k, t.w, t.k.geometry
    n = "ab"[ch]
    quad = k.quadrant_m if ch == 0 else k.quadrant_n
    attr = f" {tag}" if tag else ""
    base = _read_base(k, ch)
    out = []
    for mi in range(quad):
        for kk in range(k.num_k_mmas):
            parts = []
            for kl in range(k.k_loads_per_mma):
                name = f"%f{key}_{mi}_{kk}" + (f"_p{kl}" if k.k_loads_per_mma > 1 else "")
                # the offset is computed next to its load (each phase gets its own
                # copy, which LLVM folds into the ds_read's offset field); the K column is
                # in the base (swizzled), the MMA row block is the constant
                off = (mi * 16) * g.BK
                fo = f"%fo{key}_{mi}_{kk}_{kl}"
                ci = kk * k.k_loads_per_mma + kl
                if base:
                    # relative to the region the base carries: a negative constant, the add
                    # nsw and sign-extended so that LLVM folds it into the ds_read offset
                    w(f"{fo} = arith.addi %freg_{n}{ci}, {w.const(off - base)} overflow<nsw> "
                      f": i32", 8)
                    w(f"{fo}x = arith.index_cast {fo} : i32 to index", 8)
                else:
                    w(f"{fo} = arith.addi %fbase_{n}{ci}, {w.const(off)} : i32", 8)
                    w(f"{fo}x = arith.index_castui {fo} : i32 to index", 8)
                w(f"{name} = vector.load {buf}[{fo}x]{attr} : {t.mem_l[ch]}, {t.vec_frag}", 8)
                parts.append(name)
            full = f"%f{key}_{mi}_{kk}"
            if len(parts) > 1:
                idx = ", ".join(str(x) for x in range(2 * t.frag_w))
                w(f"{full} = vector.shuffle {parts[0]}, {parts[1]} [{idx}] : "
                  f"{t.vec_frag}, {t.vec_frag}", 8)
            out.append(full)
    return out


def write_mfmas(t: KernelText, acc_now: dict, r: int, c: int, key: str, a, b, tag: str = "",
               write=None) -> None:
    """The MFMAs of the MMA of A subtile ``r`` x B subtile ``c``: ``a(mi, kk)`` /
    ``b(ni, kk)`` name the operands; results ``%m<key>_<mi>_<ni>_<kk>``; ``acc_now`` (each
    accumulator's latest value) is updated.  ``write(new, mi, ni, kk, acc, attr)``, when
    given, writes each MFMA instead of ``amdgpu.mfma``."""
    k, w, g = t.k, t.w, t.k.geometry
    attr = f" {tag}" if tag else ""
    for mi, ni, kk in mfma_order(k):
        acc = f"%acc_{r * k.quadrant_m + mi}_{c * k.quadrant_n + ni}"
        new = f"%m{key}_{mi}_{ni}_{kk}"
        if write is not None:
            write(new, mi, ni, kk, acc_now[acc], attr)
        else:
            w(f"{new} = amdgpu.mfma {g.MMA_M}x{g.MMA_N}x{g.MMA_K} "
              f"{a(mi, kk)} * {b(ni, kk)} + {acc_now[acc]}{attr} : "
              f"{t.vec_mma}, {t.vec_mma}, {t.acc_t}", 8)
        acc_now[acc] = new


def mfma_order(k) -> list[tuple[int, int, int]]:
    """``(mi, ni, kk)`` of an MMA's MFMAs in issue order: accumulator by accumulator (its K
    steps back to back), or K step by K step (:attr:`GemmKernel.k_outer_mfmas`)."""
    accs = [(mi, ni) for mi in range(k.quadrant_m) for ni in range(k.quadrant_n)]
    if k.k_outer_mfmas:
        return [(mi, ni, kk) for kk in range(k.num_k_mmas) for mi, ni in accs]
    return [(mi, ni, kk) for mi, ni in accs for kk in range(k.num_k_mmas)]


class TaggedParts:
    """What :func:`kernel_mlir` writes for each kind of body op; a kernel with more to load
    or multiply (the MX kernels' scales, :mod:`pipeline_mlir.kernel.mx_gemm_mlir`)
    subclasses it."""

    def begin(self, k: GemmKernel, lds: dict) -> KernelText:
        return _begin(k, lds)

    def global_load(self, t: KernelText, i: int, o, lds: dict) -> None:
        _tagged_global_load(t, i, o, lds)

    def fragment_load(self, t: KernelText, i: int, o, lds: dict) -> None:
        _fragment_loads(t, o.channel, str(i), lds[(o.channel, o.stage, o.subtile)],
                        entry_tag("frag_load", o, i))

    def carried(self, t: KernelText, j: int, o) -> list[tuple[str, str, str]]:
        """(value, type, initial value) of each value fragment load ``j`` (op ``o``) leaves
        for an MMA of the next iteration."""
        quad = t.k.quadrant_m if o.channel == 0 else t.k.quadrant_n
        return [(f"%f{j}_{mi}_{kk}", t.vec_mma, "%zfrag") for mi in range(quad)
                for kk in range(t.k.num_k_mmas)]

    def mma(self, t: KernelText, i: int, o, frags, carried_args: dict, acc_now: dict) -> None:
        _tagged_mma(t, i, o, frags, carried_args, acc_now)


def kernel_mlir(k: GemmKernel, parts: TaggedParts | None = None) -> str:
    """The kernel as a module with one ``gpu.module`` (concrete form, see module doc)."""
    parts = parts or TaggedParts()
    g = k.geometry
    s = k.schedule.build()
    body = s.declare_ops()
    kinds = [_ROLE.get(o.tag) for o in body]
    if None in kinds:  # pragma: no cover - 4wave/pingpong bodies hold only these
        raise ConfigError(f"pipeline '{k.schedule.spec()}': body op outside the GEMM roles")
    frags = [(i, o) for i, o in enumerate(body) if kinds[i] == "frag"]
    # one LDS buffer per (channel, stage, subtile): half a tile, in load-row order
    lds = {(b.channel, b.stage, b.subtile): f"%{b.name}" for b in k.lds.buffers}
    t = parts.begin(k, lds)
    w = t.w
    # loop-carried fragments (4-wave rotation) and the accumulators
    carried: list[int] = []
    # an MMA reads row subtile ``stage`` of the even channels (A and its scales) and column
    # subtile ``subtile`` of the odd ones (B and its scales); an operand's scales are
    # carried right after its fragments
    channels = sorted({o.channel for _, o in frags}, key=lambda c: (c % 2, c))
    for i, o in enumerate(body):
        if kinds[i] == "mma":
            for ch, sub in ((c, o.subtile if c % 2 else o.stage) for c in channels):
                j, c = latest_fragment(frags, i, ch, sub)
                if c and j not in carried:
                    carried.append(j)

    w(f"%zfrag = arith.constant {_zero(t.vec_mma)} : {t.vec_mma}")
    c_lane_base(t)

    # iter_args: accumulators, then the carried fragments' values
    carried_values = [x for j in carried for x in parts.carried(t, j, body[j])]
    acc_names = [f"%acc_{i}_{jn}" for i in range(t.num_m) for jn in range(t.num_n)]
    carried_args = {v: ("%carry" + v[2:] if v.startswith("%f") else "%carry_" + v[1:])
                    for v, _, _ in carried_values}
    iter_names = acc_names + [carried_args[v] for v, _, _ in carried_values]
    iter_types = [t.acc_t] * len(acc_names) + [ty for _, ty, _ in carried_values]
    inits = ["%zacc"] * len(acc_names) + [z for _, _, z in carried_values]
    n_res = len(iter_names)
    w(f"%kstep = arith.constant {2 * g.BK} : index")
    w("%k0 = arith.constant 0 : index")
    # the loop bound as the natural kernel writes it (natural_kernel_mlir)
    kend = loop_end(w, "%kstep", 1 + k.shape.min_trips)
    w(f"%res:{n_res} = scf.for %k = %k0 to {kend} step %kstep iter_args("
      + ", ".join(f"{a} = {v}" for a, v in zip(iter_names, inits)) + ") -> ("
      + ", ".join(iter_types) + ") {")
    acc_now = {name: name for name in acc_names}
    for i, o in enumerate(body):
        if kinds[i] == "global":
            parts.global_load(t, i, o, lds)
        elif kinds[i] == "frag":
            parts.fragment_load(t, i, o, lds)
        else:
            parts.mma(t, i, o, frags, carried_args, acc_now)
    yields = [acc_now[a] for a in acc_names] + [v for v, _, _ in carried_values]
    w(f"scf.yield {', '.join(yields)} : {', '.join(iter_types)}", 8)
    w("}")
    return _end(t, acc_names)


def entry_tag(what: str, o, i: int) -> str:
    """The ``sched.<what>`` attribute of body op ``i``: its channel (loads), stage,
    subtile, K offset (global loads) and id."""
    channel = f"channel = {o.channel} : i64, " if what != "mma" else ""
    k_offset = f'k_offset = "{_K_NAMES[o.k_offset]}", ' if what == "global_load" else ""
    return (f"{{sched.{what} = {{{channel}stage = {o.stage} : i64, "
            f"subtile = {o.subtile} : i64, {k_offset}id = {i} : i64}}}}")


def _tagged_global_load(t: KernelText, i: int, o, lds: dict) -> None:
    """The copies of global load ``i`` (op ``o``) of the tagged kernel: at its K offset from
    the loop's K column, into its (channel, stage, subtile) LDS buffer."""
    w, g = t.w, t.k.geometry
    n = "ab"[o.channel]
    koff = o.k_offset.signed_bk_multiple() if o.k_offset != KOffsetKind.NONE else 0
    tag = entry_tag("global_load", o, i)
    w(f"%kc{i} = arith.constant {koff * g.BK} : index", 8)
    w(f"%kt{i} = arith.addi %k, %kc{i} : index", 8)
    for j in range(t.vm[o.channel]):
        gx = _global_index(t, o.channel, o.subtile, j, f"%kt{i}", f"{i}_{j}")
        lx = loop_lds_index(t, o.channel, o.subtile, j, f"{i}_{j}", False)
        w(f"amdgpu.gather_to_lds %gbuf_{n}[{gx}], "
          f"{lds[(o.channel, o.stage, o.subtile)]}"
          f"[{lx}] {tag} : {t.vec_in}, {t.mem_f}, {t.mem_l[o.channel]}", 8)


def _tagged_mma(t: KernelText, i: int, o, frags, carried_args: dict, acc_now: dict) -> None:
    """The MFMAs of MMA ``i`` (op ``o``) of the tagged kernel, reading the latest fragment
    loads of its A and B subtiles (a loop-carried one through its iter_arg)."""
    ja, ca = latest_fragment(frags, i, 0, o.stage)
    jb, cb = latest_fragment(frags, i, 1, o.subtile)

    def operand(j, c, mi, kk):
        v = f"%f{j}_{mi}_{kk}"
        return carried_args[v] if c else v

    write_mfmas(t, acc_now, o.stage, o.subtile, str(i),
               lambda mi, kk: operand(ja, ca, mi, kk),
               lambda ni, kk: operand(jb, cb, ni, kk), entry_tag("mma", o, i))


def natural_kernel_mlir(k: GemmKernel) -> str:
    """The kernel with its natural K-loop (``docs/dialect.md``, "the natural form"): one
    K tile per iteration, untagged, one LDS buffer per (channel, subtile) (no stages: the
    front end, ``sched-adopt-loop``, multi-buffers them and builds the schedule's loop).
    Same layout, index math and write-back as :func:`kernel_mlir`."""
    g = k.geometry
    lds = {(b.channel, b.subtile): f"%lds_{'ab'[b.channel]}{b.subtile}" for b in k.lds.buffers
           if b.stage == 0}
    t = _begin(k, lds)
    w, vm, acc_t, num_m, num_n = t.w, t.vm, t.acc_t, t.num_m, t.num_n
    acc_names = [f"%acc_{i}_{jn}" for i in range(num_m) for jn in range(num_n)]
    c_lane_base(t)
    # the loop runs K/BK tiles, bounded so that their number is visibly even and at least
    # 2 (a multiple of two steps, at least one pair): what the schedule's loop needs and
    # what the launch check above guarantees K is
    w(f"%kstep = arith.constant {g.BK} : index")
    w(f"%kpair = arith.constant {2 * g.BK} : index")
    w("%k0 = arith.constant 0 : index")
    kend = loop_end(w, "%kpair", 1 + k.shape.min_trips)
    w(f"%res:{len(acc_names)} = scf.for %k = %k0 to {kend} step %kstep iter_args("
      + ", ".join(f"{a} = %zacc" for a in acc_names) + ") -> ("
      + ", ".join([acc_t] * len(acc_names)) + ") {")
    w("gpu.barrier", 8)
    for ch in (0, 1):
        n = "ab"[ch]
        for u in (0, 1):
            for j in range(vm[ch]):
                p = f"{n}{u}{j}"
                gx = _global_index(t, ch, u, j, "%k", f"_{p}")
                lx = loop_lds_index(t, ch, u, j, f"_{p}", True)
                w(f"amdgpu.gather_to_lds %gbuf_{n}[{gx}], {lds[(ch, u)]}[{lx}] : "
                  f"{t.vec_in}, {t.mem_f}, {t.mem_l[ch]}", 8)
    w("gpu.barrier", 8)
    for ch in (0, 1):
        for u in (0, 1):
            _fragment_loads(t, ch, f"{'ab'[ch]}{u}", lds[(ch, u)])
    # the MFMAs MMA by MMA (A subtile r x B subtile c), as the tagged kernel orders them
    acc_now = {name: name for name in acc_names}
    for r in (0, 1):
        for c in (0, 1):
            write_mfmas(t, acc_now, r, c, f"{r}{c}", lambda mi, kk, r=r: f"%fa{r}_{mi}_{kk}",
                       lambda ni, kk, c=c: f"%fb{c}_{ni}_{kk}")
    w(f"scf.yield {', '.join(acc_now[a] for a in acc_names)} : "
      f"{', '.join([acc_t] * len(acc_names))}", 8)
    w("}")
    return _end(t, acc_names)
