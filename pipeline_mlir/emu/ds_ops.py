"""The emulator's DS instructions (LDS): reads and writes of one or two addresses per lane,
the lane permutes through the LDS crossbar and gfx950's transposing reads
(:mod:`pipeline_mlir.emu.lds_transpose`), compiled into steps as
:func:`pipeline_mlir.emu.memops.compile_memory` does the other memory instructions.  No MLIR
here.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.lds_transpose import transpose_read
from pipeline_mlir.emu.memop import LdsAccess, MemOp
from pipeline_mlir.emu.operands import (Reader, Step, lane_bytes, per_slots, refuse,
                                       vregs)
from pipeline_mlir.target.gfx950 import WAVE_SIZE

__all__ = ["ds_step", "TRANSPOSING_READS"]

U32 = np.uint32


def _ds_size(n: str) -> int:
    return {"b32": 4, "b64": 8, "b96": 12, "b128": 16, "u8": 1, "i8": 1, "u16": 2, "i16": 2,
            "b8": 1, "b16": 2}.get(n.rsplit("_", 1)[-1], 0)


def _ds_permute(ins: Instr) -> Step:
    """``ds_bpermute_b32`` (each lane reads ``data0`` of lane ``(addr + offset) / 4 mod 64``)
    and ``ds_permute_b32`` (each lane writes its ``data0`` to that lane), through the LDS
    hardware without touching LDS memory, on lgkmcnt.  Inactive lanes are not written;
    a lane that reads an inactive lane reads 0, and of two lanes writing one, the higher
    wins (CDNA3 ISA, DS_PERMUTE_B32 / DS_BPERMUTE_B32)."""
    f = ins.f
    acc = bool(f["acc"])
    rd = Reader(ins)
    addr_r = rd.vector(256 + f["addr"])
    rd.vr.update(vregs(256 + f["data0"], 1, acc))
    dst_v = vregs(256 + f["dst"], 1, acc)
    step = Step(ins, None, "ds", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))
    offset = f["offset0"] | (f["offset1"] << 8)
    back = ins.name == "ds_bpermute_b32"
    rows_of = per_slots(lambda G: np.arange(G)[:, None])

    def issue(w, m):
        G, mask = w.G, w.exec
        reg = w.A if acc else w.V
        lane = ((np.broadcast_to(addr_r(w), (G, WAVE_SIZE)).astype(np.int64) + offset)
                >> 2) & (WAVE_SIZE - 1)
        data = np.where(mask, reg[f["data0"]], 0).astype(U32)
        if back:
            out = data[rows_of(w), lane]
        else:
            out = np.zeros((G, WAVE_SIZE), dtype=U32)
            for g in range(G):
                live = np.flatnonzero(mask[g])
                out[g, lane[g, live]] = data[g, live]

        def done():
            np.copyto((w.A if acc else w.V)[f["dst"]], out, where=mask)
        return MemOp(step, "lgkm", done, dst_v=dst_v)
    step.mem = dict(issue=issue, queue="lgkm")
    return step


def ds_step(ins: Instr) -> Step:
    """A DS instruction's step: LDS reads and writes (pairs too), permutes, transposes."""
    f, n = ins.f, ins.name
    if n in ("ds_permute_b32", "ds_bpermute_b32") and not f["gds"]:
        return _ds_permute(ins)
    if n in TRANSPOSING_READS and not f["gds"]:
        return _ds_read_tr(ins, TRANSPOSING_READS[n])
    parts = n.split("_")
    size = _ds_size(n)
    pairs = ("read2", "write2", "read2st64", "write2st64")
    if f["gds"] or not size or parts[1] not in ("read", "write") + pairs or \
            parts[-1] in ("u8", "i8", "u16", "i16", "b8", "b16") and parts[1] in pairs:
        raise refuse(ins)
    if len(parts) != 3:
        raise refuse(ins)
    two = parts[1] in pairs
    write = parts[1].startswith("write")
    # the pair's offsets count elements, or (``2st64``) strides of 64 elements
    unit = size * (64 if parts[1].endswith("st64") else 1)
    acc = bool(f["acc"])
    rd = Reader(ins)
    addr_r = rd.vector(256 + f["addr"])
    dwords = max(1, size // 4)
    if two:
        offs = (f["offset0"] * unit, f["offset1"] * unit)
    else:
        offs = ((f["offset0"] | (f["offset1"] << 8)),)
    if write:
        srcs = [(f["data0"], 0)] + ([(f["data1"], 1)] if two else [])
        for reg, _k in srcs:
            rd.vr.update(vregs(256 + reg, dwords, acc))
        dst_v = ()
    else:
        dst_v = vregs(256 + f["dst"], dwords * len(offs), acc)
    step = Step(ins, None, "ds", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))

    def issue(w, m):
        mask = w.exec              # replaced, never mutated, when EXEC changes
        base = addr_r(w).astype(np.int64)
        if base.shape != (w.G, WAVE_SIZE):
            base = np.broadcast_to(base, (w.G, WAVE_SIZE))
        accesses = [LdsAccess(a, size, mask, w.exec_full, write) for a in _wrapped(base, offs)]
        for a in accesses:
            m.lds_check(w, step, a)
        if write:
            reg = w.A if acc else w.V
            chunks = []
            for (r, _k), a in zip(srcs, accesses):
                raw = lane_bytes(reg, r, dwords)[..., :size]             # (G, 64, size)
                chunks.append((a, raw))

            def done():
                for a, raw in chunks:
                    m.lds_write(w, a, raw)
            return MemOp(step, "lgkm", done, lds=accesses)

        def done():
            reg = w.A if acc else w.V
            for k, a in enumerate(accesses):
                raw = m.lds_read(w, a)                       # (G,64,size) uint8
                if size < 4:
                    if parts[-1].startswith("i"):
                        val = raw.view(np.int8 if size == 1 else np.int16)[..., 0] \
                            .astype(np.int32).view(U32)
                    else:
                        val = raw.view(np.uint8 if size == 1 else np.uint16)[..., 0] \
                            .astype(U32)
                    vals = val[..., None]
                else:
                    vals = raw.view(U32)
                first = f["dst"] + k * dwords
                tgt = reg[first:first + vals.shape[-1]]
                if a.full:
                    tgt[...] = vals.transpose(2, 0, 1)
                else:
                    np.copyto(tgt, vals.transpose(2, 0, 1), where=mask)
        return MemOp(step, "lgkm", done, dst_v=dst_v, lds=accesses)
    step.mem = dict(issue=issue, queue="lgkm")
    return step


#: a DS address is ``VGPR + offset`` modulo 2^32: LLVM folds a constant into the
#: instruction's offset whatever the sign of the base on Sea Islands and later
#: (``AMDGPUDAGToDAGISel::isDSOffsetLegal``: only Southern Islands needs a base known
#: non-negative), so a base below zero plus its offset is the address the code means
#: (IREE's fp8 ``A x B`` 11x10x877: ``ds_read_b64_tr_b8 v160, v107 offset:24448`` with
#: v107 = -256 in lane 0 reads byte 24192)
ADDRESS_MASK = (1 << 32) - 1


def _wrapped(base: np.ndarray, offsets) -> list:
    """The addresses ``base + offset`` (each of ``offsets``) modulo 2^32."""
    return [(base + o) & ADDRESS_MASK for o in offsets]


#: the transposing LDS reads the emulator runs: their element size in bytes
TRANSPOSING_READS = {"ds_read_b64_tr_b16": 2, "ds_read_b64_tr_b8": 1}


def _ds_read_tr(ins: Instr, size: int) -> Step:
    """``ds_read_b64_tr_b16`` / ``_b8``: 8 bytes at ``VGPR + offset`` per lane, exchanged
    between the lanes of each group of 16 (:mod:`pipeline_mlir.emu.lds_transpose`); EXEC
    must be all ones and the address aligned to the element ``size`` (findings
    otherwise)."""
    f = ins.f
    acc = bool(f["acc"])
    rd = Reader(ins)
    addr_r = rd.vector(256 + f["addr"])
    dst_v = vregs(256 + f["dst"], 2, acc)
    step = Step(ins, None, "ds", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))
    offset = f["offset0"] | (f["offset1"] << 8)

    def issue(w, m):
        if np.count_nonzero(w.exec) != w.exec.size:
            m.finding("transpose-exec", w, step, f"{ins.name} runs with EXEC not all "
                      "ones (the CDNA4 ISA requires every lane active; the result is "
                      "undefined)")
        addr = addr_r(w).astype(np.int64)
        if addr.shape != (w.G, WAVE_SIZE):
            addr = np.broadcast_to(addr, (w.G, WAVE_SIZE))
        addr = (addr + offset) & ADDRESS_MASK
        if np.count_nonzero(addr % size):
            g, lane = np.argwhere(addr % size)[0]
            m.finding("misaligned", w, step, f"LDS address {int(addr[g, lane])} (lane "
                      f"{lane}) is not a multiple of {size}, the element size")
        a = LdsAccess(addr, 8, w.exec, True, False)
        m.lds_check(w, step, a)

        def done():
            raw = np.ascontiguousarray(m.lds_read(w, a)).view(f"u{size}")    # (G, 64, 8/size)
            words = np.ascontiguousarray(transpose_read(raw)).view(U32)      # (G, 64, 2)
            (w.A if acc else w.V)[f["dst"]:f["dst"] + 2] = words.transpose(2, 0, 1)
        return MemOp(step, "lgkm", done, dst_v=dst_v, lds=[a])
    step.mem = dict(issue=issue, queue="lgkm")
    return step
