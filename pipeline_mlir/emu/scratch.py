"""Scratch (the private segment): ``scratch_load_*`` / ``scratch_store_*`` per lane.

gfx950 has *architected flat scratch* (AMDGPUUsage, processor table, gfx940 and later):
the hardware sets up each wave's scratch base itself, so a kernel descriptor must not ask for
the private segment buffer or flat scratch init user SGPRs (both "not supported and must be
0" there), and ``COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT`` turns scratch on.  How many
bytes each lane owns is the descriptor's ``private_segment_fixed_size`` (the code object's
``.private_segment_fixed_size``); LLVM spills VGPRs there with ``scratch_store_dword`` and
reloads them with ``scratch_load_dword``.

Address (LLVM's gfx940 operand reference, ``saddr``: "Offset = [vaddr] + [saddr] +
offset13s"): a lane's byte offset into *its own* private segment is the VGPR (when the
instruction's SVE bit says it has one; ``off`` otherwise) plus the SGPR (``off``: none) plus
the signed 13-bit instruction offset, modulo 2^32.  The per-lane interleaving the hardware
applies to that offset is invisible to a kernel (no other lane or wave can name the bytes),
so each wave keeps a ``(G, 64, private bytes)`` array, poisoned like every other memory.

Timing: a scratch access is a vector memory op counted on vmcnt (as ``global_*``); a load
samples the private memory when it completes, a store writes the data read at issue when
it completes; vmcnt completes in order, so a reload after its spill sees the spilled value
however late both complete.  An access a lane makes outside ``0 ..
private_segment_fixed_size`` is an ``out-of-range`` finding (on the hardware it reaches
another lane's or wave's scratch, or faults).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu import poison
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.memops import MemOp, dword_access
from pipeline_mlir.emu.operands import Step, lane_bytes, per_slots, vregs
from pipeline_mlir.emu.taint import scratch_issue
from pipeline_mlir.target.gfx950 import WAVE_SIZE

U32 = np.uint32


def private_memory(w, m) -> np.ndarray:
    """The wave's private segment: (G, 64, bytes per lane) uint8, made on first use."""
    mem = getattr(w, "private", None)
    if mem is None:
        size = m.kernel.launch.private_bytes
        mem = w.private = np.full((w.G, WAVE_SIZE, size), poison.byte(), dtype=np.uint8)
    return mem


def _check_range(w, m, step: Step, off, mask, size: int) -> None:
    """A finding for the first active lane whose access leaves its private segment."""
    limit = m.kernel.launch.private_bytes
    if off.max() <= limit - size and off.min() >= 0:
        return                     # every lane in range, active or not
    bad = mask & ((off < 0) | (off + size > limit))
    if bad.any():
        g, lane = np.argwhere(bad)[0]
        m.finding("out-of-range", w, step,
                  f"scratch offset {int(off[g, lane])} + {size} bytes is outside the private "
                  f"segment of {limit} bytes per lane (.private_segment_fixed_size; lane "
                  f"{lane}, workgroup slot {g})")


def compile_scratch(ins: Instr) -> Step:
    """The :class:`Step` of a ``scratch_load_dword*`` / ``scratch_store_dword*``."""
    f = ins.f
    store, dwords, size, acc, rd = dword_access(ins, ins.name.split("_"))
    voff = rd.vector(256 + f["vaddr"]) if f["sve"] else None
    soff = rd.scalar(f["saddr"]) if f["saddr"] != 0x7F else None
    reg0 = f["data"] if store else f["dst"]
    regs = vregs(256 + reg0, dwords, acc)
    if store:
        rd.vr.update(regs)
    dst_v = () if store else regs
    step = Step(ins, None, "vmem", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))
    inst_off = f["offset"]
    span = np.arange(size, dtype=np.int64)

    def read_only_start(G):
        start = np.full((G, WAVE_SIZE), inst_off, dtype=np.int64)
        start.flags.writeable = False
        return start
    start_of = per_slots(read_only_start)

    def issue(w, m):
        mask = w.exec              # replaced, never mutated, when EXEC changes
        off = start_of(w)          # read only: a new array is made below
        if voff is not None:
            off = off + voff(w).astype(np.int64)
        if soff is not None:
            off = off + soff(w).astype(np.int64)[:, None]
        off = off & 0xFFFFFFFF     # a 32-bit offset: a negative sum wraps far out of range
        _check_range(w, m, step, off, mask, size)
        if w.taint is not None:       # the taint run: private bytes followed
            scratch_issue(w, regs, off, mask, size, store, m.kernel.launch.private_bytes)
        if not mask.any():
            return MemOp(step, "vm", None, dst_v=dst_v)
        mem = private_memory(w, m)
        reg = w.A if acc else w.V
        at = int(off.flat[0])
        if 0 <= at <= mem.shape[2] - size and (off == at).all():
            return _uniform(step, mem, at, size, mask, reg, reg0, dwords, store, dst_v)
        # inactive lanes address their first bytes (read back unchanged, never used)
        idx = np.clip(np.where(mask, off, 0)[..., None] + span, 0, mem.shape[2] - 1)
        if store:
            raw = lane_bytes(reg, reg0, dwords).reshape(w.G, WAVE_SIZE, size)  # at issue

            def put():
                cur = np.take_along_axis(mem, idx, axis=2)
                np.put_along_axis(mem, idx, np.where(mask[..., None], raw, cur), axis=2)
            return MemOp(step, "vm", put)

        def done():
            vals = np.take_along_axis(mem, idx, axis=2).view(U32)    # (G, 64, dwords)
            for j in range(dwords):
                np.copyto(reg[reg0 + j], vals[..., j], where=mask)
        return MemOp(step, "vm", done, dst_v=dst_v)
    step.mem = dict(issue=issue, queue="vm")
    return step


def _uniform(step: Step, mem, at: int, size: int, mask, reg, reg0: int, dwords: int,
             store: bool, dst_v) -> MemOp:
    """The access of every lane at the same offset ``at`` of its segment, in range (spills,
    a loop's staged rows): bytes ``at .. at + size`` of each lane, a slice; the same memory
    and registers as the per-lane gather of :func:`compile_scratch` (an inactive lane's
    bytes untouched, its registers unwritten)."""
    G = mem.shape[0]
    window = mem[:, :, at:at + size]
    if store:
        raw = lane_bytes(reg, reg0, dwords).reshape(G, WAVE_SIZE, size)  # read at issue

        def put():
            np.copyto(window, raw, where=mask[..., None])
        return MemOp(step, "vm", put)

    def done():
        vals = np.ascontiguousarray(window).view(U32)    # (G, 64, dwords)
        for j in range(dwords):
            np.copyto(reg[reg0 + j], vals[..., j], where=mask)
    return MemOp(step, "vm", done, dst_v=dst_v)
