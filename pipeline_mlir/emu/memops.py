"""Memory instructions: addresses, range checks and data movement.

:func:`compile_memory` describes a memory instruction as a :class:`Step` whose ``mem['issue']``
function, called when a wave issues it, computes every lane's address from the registers
(read at issue, as the hardware does), checks the ranges, captures store data and returns a
:class:`MemOp`.  The machine queues the op on its counter (vmcnt or lgkmcnt) and calls
``MemOp.complete()`` when the op completes: at once (eager), at the wait that forces it
(late) or at a random moment in between.  A load samples memory when it completes.

Address rules (CDNA3/CDNA4 ISA):

* DS: ``(VGPR + offset) mod 2^32`` (``ds_ops.ADDRESS_MASK``; ``ds_read2/write2``:
  ``offset0/1`` in units of the element size,
  ``ds_read2st64/write2st64``: of 64 elements); ``ds_read_b64_tr_b16`` / ``_tr_b8``
  exchange the 16-bit / 8-bit elements between lanes as they read.
* MUBUF: ``base + soffset + ((offen ? VGPR : 0) + inst_offset) mod 2^32 (+ stride *
  index)``: the VGPR offset and the instruction offset wrap at 32 bits, soffset does not
  and soffset counts in the range check (as AMD's rocjitsu emulator models gfx950; LLVM's
  documentation excludes it: :mod:`~pipeline_mlir.emu.soffset_range`); raw buffers
  (stride 0, or a cache-swizzle stride: only the cache's bank placement) are
  range-checked against ``num_records`` (the descriptor's third dword) per dword; dword
  accesses ignore the two address LSBs.  As the hardware does, an out-of-range dword reads
  0 (an LDS DMA writes 0 to LDS; a narrow load's lane past the records reads 0 too) and an
  out-of-range store is dropped; strict mode (``GlobalMemory.strict``) reports it.  An
  access outside the global buffer behind the descriptor is always reported (the hardware
  would read or write other memory, or fault).
* LDS DMA (``buffer_load_* ... lds``): LDS address ``M0[17:0] + inst_offset + lane * size``.
* ``buffer_atomic_add_f32`` and ``global_atomic_add_f32`` (no returned value: no
  ``sc0``), ``buffer_atomic_cmpswap`` / ``global_atomic_cmpswap`` (data: the source dword,
  then the compare value) and their ``_x2`` (two dwords each), with ``sc0`` or without: at
  completion each active lane applies its update to the word at its address
  (:mod:`~pipeline_mlir.emu.atomics`), the lanes of the op in workgroup-slot then lane
  order (lanes on one word all apply, each seeing the word the lanes before it left).  A
  global address is a multiple of the word's 4 or 8 bytes, an ``_x2`` buffer one of 8.
  With ``sc0`` a compare-swap returns the word it found (into ``vdst``; a buffer form into
  the first half of its data registers) when it completes, as a load's data (pending
  until the wait).  A lane past the records is refused, as are ``idxen``, ``lds``, AGPR
  data, ``sc0`` on the add and the other atomics; atomics race no other atomic
  (:mod:`~pipeline_mlir.emu.globalrace`).
* ``buffer_wbl2`` / ``buffer_inv`` (write back / invalidate the caches; LLVM 22 brackets
  a compare-swap loop on a buffer with them): the emulator's memory has no caches, every
  access reads and writes the one copy, so they change nothing; each is an op on vmcnt
  that completes doing nothing.  The gfx942/gfx950 ISA counts both on VM_CNT (LLVM counts
  ``buffer_wbl2`` since its pull request #178316 and ``buffer_inv`` since #220694, both on
  the grounds of that ISA): counting them keeps a kernel's ``vmcnt(N)`` meaning what the
  hardware makes it mean.
* SMEM: ``SGPR pair + offset``; GLOBAL: ``SGPR pair + VGPR + offset`` or ``VGPR pair + offset``.
"""

from __future__ import annotations

import functools

import numpy as np

from pipeline_mlir.emu.atomics import add_f32, compare_swap, split_words
from pipeline_mlir.emu.ds_ops import ds_step
from pipeline_mlir.emu.globalrace import on_load, on_store
from pipeline_mlir.emu.instr import CACHE_CONTROLS, Instr, operand_widths
from pipeline_mlir.emu.memop import LdsAccess, MemOp
from pipeline_mlir.emu.operands import (M0, Reader, Step, lane_bytes, per_slots, refuse,
                                       sregs, vregs)
from pipeline_mlir.emu.soffset_range import soffset_verdict
from pipeline_mlir.target.gfx950 import (BUFFER_CACHE_SWIZZLE_BIT, BUFFER_STRIDE_MASK,
                                         BUFFER_SWIZZLE_ENABLE_BIT, WAVE_SIZE)

U32, U64 = np.uint32, np.uint64
LANES = np.arange(WAVE_SIZE, dtype=np.int64)


def compile_memory(ins: Instr) -> Step:
    enc = ins.enc
    if enc == "SMEM":
        return _smem(ins)
    if enc == "DS":
        return ds_step(ins)
    if enc == "MUBUF":
        if "_atomic_" in ins.name:
            return _buffer_atomic(ins)
        return _cache_control(ins) if ins.name in CACHE_CONTROLS else _mubuf(ins)
    if enc in ("GLOBAL", "FLAT"):
        return _global(ins)
    raise refuse(ins)


# ---------------------------------------------------------------------------

def _smem(ins: Instr) -> Step:
    f, n = ins.f, ins.name
    if not n.startswith("s_load_dword"):
        raise refuse(ins)
    count = operand_widths(ins)["dst"]
    rd = Reader(ins)
    base = rd.scalar(f["sbase"], 2)
    off = per_slots(lambda G: np.full(G, f["offset"], dtype=U64)) if f["imm"] else \
        rd.scalar(f["offset"])
    d = f["dst"]
    dst = sregs(d, count)
    step = Step(ins, None, "smem", sreads=frozenset(rd.sr), swrites=frozenset(dst))

    def issue(w, m):
        addr = (base(w).astype(U64) + np.asarray(off(w), dtype=U64)) & ~U64(3)
        data = m.glob.read(addr.astype(np.int64)[:, None], 4 * count, w, step)  # (G,1,4*count)

        def done():
            vals = data()[:, 0, :].view(U32).reshape(w.G, count)
            for k in range(count):
                w.S[d + k] = vals[:, k]
        return MemOp(step, "lgkm", done, dst_s=dst, smem=True)
    step.mem = dict(issue=issue, queue="lgkm")
    return step


#: the 16- and 8-bit buffer stores: (the bit of the data register their part starts at, bytes)
NARROW_STORES = {"buffer_store_short": (0, 2), "buffer_store_short_d16_hi": (16, 2),
                 "buffer_store_byte": (0, 1), "buffer_store_byte_d16_hi": (16, 1)}
#: the narrow buffer loads the emulator runs (zero-extended into the whole register): bytes
NARROW_LOADS = {"buffer_load_ushort": 2, "buffer_load_ubyte": 1}


def _buffer_form(ins: Instr) -> tuple[int | None, bool]:
    """(the bit a narrow store's part starts at, 0 for a narrow load, or None; a store?) of
    a buffer instruction the emulator runs: dword loads and stores (to LDS too), the 16-
    and 8-bit stores and the narrow loads."""
    parts = ins.name.split("_")
    half = 0 if ins.name in NARROW_LOADS else NARROW_STORES.get(ins.name, (None,))[0]
    if half is None and (parts[1] not in ("load", "store") or not parts[2].startswith("dword")
                         or len(parts) != 3):
        raise refuse(ins)
    if ins.f["idxen"]:
        raise refuse(ins, "indexed (idxen) buffer access")
    return half, parts[1] == "store"


def _mubuf(ins: Instr) -> Step:
    f = ins.f
    half, store = _buffer_form(ins)
    if (lds := bool(f["lds"])) and (store or ins.name.split("_")[2] not in ("dword", "dwordx4")):
        raise refuse(ins)
    dwords = operand_widths(ins)["data"]
    size = 4 * dwords if half is None else NARROW_LOADS.get(ins.name) or \
        NARROW_STORES[ins.name][1]
    acc = bool(f["acc"])
    rd = Reader(ins)
    rd.sr.update(sregs(f["srsrc"], 4))          # the buffer descriptor
    soff = rd.scalar(f["soffset"])
    voff = rd.vector(256 + f["vaddr"]) if f["offen"] else None
    if lds:
        rd.sr.add(M0)
    data_regs = vregs(256 + f["data"], dwords, acc)
    if store:
        rd.vr.update(data_regs)
    dst_v = () if (store or lds) else data_regs
    step = Step(ins, None, "vmem", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))
    inst_off = f["offset"]
    descriptor = _buffer_descriptor(step, f["srsrc"])
    in_region = _in_region(step, f["data"], dwords, inst_off, lds, store, acc, dst_v)
    out_of_range = _out_of_range(step, f["data"], dwords, inst_off, lds, store, acc, dst_v)

    def issue(w, m):
        base, num, region = descriptor(w, m)
        mask = w.exec              # replaced, never mutated, when EXEC changes
        lanes = None if w.exec_full else mask
        # loads take any byte address (ROCm's unaligned mode, which LLVM's amdhsa code
        # assumes); stores the dword or halfword (or byte) the address falls in
        off = _byte_offsets(w, soff, voff, inst_off, ~0 if not store else ~3 if half is None
                            else ~(size - 1))
        # the whole-word fast path; a load from an address that is not a multiple of 4
        # gathers its bytes (below)
        if region is not None and lanes is None and half is None and \
                np.maximum.reduce(off, axis=None) + size <= np.minimum.reduce(num) and \
                not np.bitwise_or.reduce(off, axis=None) & 3:
            return in_region(w, m, region, off)
        over = (off + size > num[:, None]) & mask
        addr = base[:, None] + off
        past = None                        # a narrow load's lanes past the records: 0
        if np.count_nonzero(over):
            soffset_verdict(w, m, step, soff(w), off, mask, num, size)
            if not m.glob.strict and half is None:
                return out_of_range(w, m, addr, off, num)
            if m.glob.strict:
                _past_records(w, m, step, off, over, num, size)
            else:       # a narrow store past the records is dropped, a narrow load reads 0
                lanes = mask & ~over
                past = None if store else over
        if lds:
            la = _lds_dma_target(w, m, step, inst_off, size)
            data = m.glob.read(addr, size, w, step, lanes)

            def done():
                m.lds_write(w, la, data())
            return MemOp(step, "vm", done, lds=[la])
        if store:
            raw = _store_bytes(w.A if acc else w.V, f["data"], dwords, half, size)
            put = m.glob.check(addr, size, w, step, lanes, raw)
            return MemOp(step, "vm", lambda: put(raw))
        data = m.glob.read(addr, size, w, step, lanes)

        def done():
            reg = w.A if acc else w.V
            raw = data()
            vals = raw.view(U32) if half is None else \
                raw.view(np.uint16 if size == 2 else np.uint8).astype(U32)
            if past is not None:
                vals = np.where(past[..., None], U32(0), vals)
            first = f["data"]
            for j in range(dwords):
                np.copyto(reg[first + j], vals[..., j], where=mask)
        return MemOp(step, "vm", done, dst_v=dst_v)

    step.mem = dict(issue=issue, queue="vm")
    return step


#: the atomics the emulator runs (:mod:`~pipeline_mlir.emu.atomics`), by their name without
#: ``buffer_`` / ``global_``
ATOMICS = ("atomic_add_f32", "atomic_cmpswap", "atomic_cmpswap_x2")


def _atomic_form(ins: Instr) -> tuple[int, int, tuple]:
    """(its data dwords, the bytes of the word it updates, the registers its old word
    returns to: none without ``sc0``) of an atomic the emulator runs; refuses the others
    (by name, or why)."""
    f, n = ins.f, ins.name
    if n.split("_", 1)[1] not in ATOMICS or ins.enc not in ("MUBUF", "GLOBAL"):
        raise refuse(ins)
    if f["sc0"] and n.endswith("_add_f32"):
        raise refuse(ins, "the returned old value (sc0)")
    if f.get("idxen") or f["lds"] or f["acc"]:
        raise refuse(ins, "idxen, lds or an AGPR operand")
    widths = operand_widths(ins)
    ret = f["data"] if ins.enc == "MUBUF" else f["dst"]   # MUBUF: the data's first half
    return widths["data"], 4 * widths["dst"], \
        (vregs(256 + ret, widths["dst"]) if f["sc0"] else ())


def _atomic_op(ins: Instr, step: Step, w, m, addr, mask, size: int, dst_v: tuple) -> MemOp:
    """The op of atomic ``ins`` on its lanes' words at ``addr`` (G, 64; ``mask`` the active
    lanes): its operands read now, the update made when it completes."""
    first, dwords = ins.f["data"], operand_widths(ins)["data"]
    ops = w.V[first] if dwords == 1 else w.V[first:first + dwords].transpose(1, 2, 0)
    words, at, vals = m.glob.atomic_words(addr, w, step, None if w.exec_full else mask, ops,
                                          size)
    if ins.name.endswith("_add_f32"):
        return MemOp(step, "vm", lambda: add_f32(ins, words, at, vals))

    def done():
        old = compare_swap(words, at, vals)
        if dst_v and old is not None:            # sc0: the old word
            for j, part in enumerate(split_words(old, len(dst_v))):
                w.V[dst_v[j]][mask] = part
    return MemOp(step, "vm", done, dst_v=dst_v)


def _buffer_atomic(ins: Instr) -> Step:
    """``buffer_atomic_add_f32`` with no returned value, ``buffer_atomic_cmpswap`` and
    ``_x2`` with or without (module docstring)."""
    f = ins.f
    dwords, size, dst_v = _atomic_form(ins)
    rd = Reader(ins)
    rd.sr.update(sregs(f["srsrc"], 4))
    soff = rd.scalar(f["soffset"])
    voff = rd.vector(256 + f["vaddr"]) if f["offen"] else None
    rd.vr.update(vregs(256 + f["data"], dwords))
    step = Step(ins, None, "vmem", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))
    descriptor = _buffer_descriptor(step, f["srsrc"])

    def issue(w, m):
        base, num, _ = descriptor(w, m)
        mask = w.exec
        off = _byte_offsets(w, soff, voff, f["offset"], ~3)
        if ((off + size > num[:, None]) & mask).any():
            raise refuse(ins, "a lane past the buffer's records")
        addr = base[:, None] + off
        if size == 8 and ((addr & 7) != 0)[mask].any():
            raise refuse(ins, "an address that is not a multiple of 8")
        return _atomic_op(ins, step, w, m, addr, mask, size, dst_v)

    step.mem = dict(issue=issue, queue="vm")
    return step


def _cache_control(ins: Instr) -> Step:
    """``buffer_wbl2`` / ``buffer_inv``: no operands; memory here has no caches to write
    back or invalidate, so the op does nothing but count on vmcnt (module docstring)."""
    if ins.f["offen"] or ins.f["idxen"] or ins.f["lds"]:
        raise refuse(ins, "offen, idxen or lds: fields LLVM does not encode for it")
    step = Step(ins, None, "vmem")
    step.mem = dict(issue=lambda w, m: MemOp(step, "vm", None), queue="vm")
    return step


def _store_bytes(reg, first: int, dwords: int, half, size: int) -> np.ndarray:
    """(G, 64, size) bytes a buffer store of ``dwords`` registers from ``first`` writes per
    lane, a copy of the data as read at issue (``half``: a narrow store's bit of the
    register, its low 8 or 16 bits or those at bit 16)."""
    vals = reg[first] if dwords == 1 else reg[first:first + dwords].transpose(1, 2, 0)
    if half is not None:
        vals = ((vals >> U32(half)) & U32((1 << 8 * size) - 1)).astype(f"u{size}")
    return np.array(vals, order="C").view(np.uint8).reshape(reg.shape[1], WAVE_SIZE, size)


def _byte_offsets(w, soff, voff, inst_off: int, low: int):
    """(G, 64) byte offsets of a buffer access: (``voff`` (None without offen) + the
    instruction offset, modulo 2^32) + soffset, only the address bits ``low`` kept.  The
    VGPR offset and the instruction offset are added in 32 bits (LLVM's loop strength
    reduction starts a VGPR offset below 0 and adds it back as the instruction offset);
    soffset is added to that sum without wrapping, for the address and the range check
    alike (the module docstring)."""
    G = w.G
    if voff is None:
        sgpr = soff(w).astype(np.int64)[:, None]
        return np.broadcast_to((sgpr + inst_off) & low, (G, WAVE_SIZE))
    v = voff(w)                              # uint32: the 32-bit sum wraps by itself
    off = (v + U32(inst_off) if inst_off else v).astype(np.int64)
    off += soff(w)[:, None]                  # (uint32 SGPRs, widened)
    if low != ~0:
        off &= low
    return off if off.shape == (G, WAVE_SIZE) else np.broadcast_to(off, (G, WAVE_SIZE))


def _past_records(w, m, step: Step, off, over, num, size: int) -> None:
    """Report (strict mode) a buffer access whose lanes ``over`` lie past the records."""
    g, lane = np.argwhere(over)[0]
    m.finding("out-of-range", w, step, f"buffer offset {int(off[g, lane])} + {size} bytes is "
              f"past the descriptor's {int(num[g])} bytes (lane {lane}, workgroup slot {g})")


def _buffer_descriptor(step: Step, srsrc: int):
    """fn(w, m) -> (base, num_records, the global words it spans or None) of the buffer
    descriptor in SGPRs ``srsrc..srsrc+3`` (cached per descriptor value in the machine)."""
    def descriptor(w, m):
        raw = w.S[srsrc:srsrc + 4]
        key = raw.tobytes()
        hit = m.descriptors.get(key)
        if hit is None:
            d = raw.astype(np.int64)
            why = _unmodelled_stride(d[1] >> 16)
            if why:
                m.finding("out-of-range", w, step, f"buffer descriptor {why} and no index "
                          f"(swizzled/strided buffers are not emulated)")
            base = d[0] | ((d[1] & 0xFFFF) << 32)
            hit = m.descriptors[key] = (base, d[2], m.glob.region(base, d[2]))
            m.glob.descriptors.update(zip(base.tolist(), d[2].tolist()))
        return hit
    return descriptor


def _unmodelled_stride(field) -> str:
    """Why buffer descriptors whose stride fields are ``field`` (one per workgroup slot) are
    not emulated, or ''.  A stride under the cache-swizzle bit is the cache's, and an access
    without an index is then addressed and range-checked as a raw one
    (:data:`~pipeline_mlir.target.gfx950.BUFFER_CACHE_SWIZZLE_BIT`)."""
    if ((field >> BUFFER_SWIZZLE_ENABLE_BIT) & 1).any():
        return "with swizzled addressing enabled"
    cache = (field >> BUFFER_CACHE_SWIZZLE_BIT) & 1
    if ((field & BUFFER_STRIDE_MASK) * (1 - cache)).any():
        return "with a stride"
    return ""


def _in_region(step: Step, first: int, dwords: int, inst_off: int, lds: bool, store: bool,
               acc: bool, dst_v: tuple):
    """fn(w, m, region, off) -> the MemOp of a buffer access whose every lane is within the
    words of one global buffer (checked by the caller): ``first`` the data register,
    ``off`` the byte offsets (G, 64)."""
    size = 4 * dwords
    words_of = np.arange(dwords, dtype=np.int64)

    def in_region(w, m, region, off):
        words, start, b = region
        idx = (start + (off >> 2))[..., None] + words_of                 # (G, 64, dwords)
        if not store:
            on_load(m.glob, m, w, step, b, idx, 4, None)
        if lds:
            la = _lds_dma_target(w, m, step, inst_off, size)
            return MemOp(step, "vm", lambda: m.lds_write(w, la, words.take(idx).view(np.uint8)),
                         lds=[la])
        reg = w.A if acc else w.V
        if store:
            vals = reg[first:first + dwords].transpose(1, 2, 0).copy()   # as read at issue
            on_store(m.glob, m, w, step, b, idx, 4, None, vals)
            if dwords == 1:
                idx, vals = idx[..., 0], vals[..., 0]

            def put():
                words[idx] = vals
            return MemOp(step, "vm", put)
        if dwords == 1:
            idx = idx[..., 0]

        def done():
            vals = words.take(idx)
            if dwords == 1:
                reg[first] = vals
            else:
                reg[first:first + dwords] = vals.transpose(2, 0, 1)
        return MemOp(step, "vm", done, dst_v=dst_v)
    return in_region


def _out_of_range(step: Step, first: int, dwords: int, inst_off: int, lds: bool, store: bool,
                  acc: bool, dst_v: tuple):
    """fn(w, m, addr, off, num) -> the MemOp of a buffer access some of whose dwords lie past
    the descriptor's ``num`` records, as the hardware does it (CDNA3/CDNA4 ISA, buffer range
    checking: each dword of a multi-dword access is checked on its own): a dword out of range
    reads 0 (an LDS DMA writes 0 to its LDS bytes) and is not stored.  A dword is in range
    when all its 4 bytes are below ``num`` (num_records is a multiple of 4 in every kernel
    seen: then this is the hardware's check)."""
    size = 4 * dwords

    def out_of_range(w, m, addr, off, num):
        mask = w.exec
        inside = [mask & (off + 4 * (j + 1) <= num[:, None]) for j in range(dwords)]
        if store:
            reg = w.A if acc else w.V
            raws = [reg[first + j].copy().view(np.uint8).reshape(*addr.shape, 4)
                    for j in range(dwords)]
            puts = [(m.glob.check(addr + 4 * j, 4, w, step, inside[j], raws[j]), raws[j])
                    for j in range(dwords)]
            return MemOp(step, "vm", lambda: [put(raw) for put, raw in puts])
        reads = [m.glob.read(addr + 4 * j, 4, w, step, inside[j]) for j in range(dwords)]

        def words():       # (G, 64, dwords) uint32, 0 where out of range
            return np.stack([np.where(inside[j], reads[j]().view(U32)[..., 0], 0)
                             for j in range(dwords)], axis=-1).astype(U32)
        if lds:
            la = _lds_dma_target(w, m, step, inst_off, size)
            return MemOp(step, "vm", lambda: m.lds_write(w, la, words().view(np.uint8)),
                         lds=[la])

        def done():
            reg = w.A if acc else w.V
            vals = words()
            for j in range(dwords):
                np.copyto(reg[first + j], vals[..., j], where=mask)
        return MemOp(step, "vm", done, dst_v=dst_v)
    return out_of_range


@functools.lru_cache(maxsize=None)
def _dma_lane_offsets(inst_off: int, size: int) -> np.ndarray:
    """(1, 64) ``inst_off + lane * size``: an LDS DMA's addresses past M0 (read only)."""
    out = inst_off + LANES[None, :] * size
    out.flags.writeable = False
    return out


def _lds_dma_target(w, m, step, inst_off: int, size: int) -> LdsAccess:
    """The LDS access of an LDS DMA (buffer or global): ``M0[17:0] + inst_offset + lane *
    size`` (the instruction offset applies to the LDS address too), race-checked."""
    m0 = (w.S[M0].astype(np.int64) & 0x3FFFF)[:, None]
    la = LdsAccess(m0 + _dma_lane_offsets(inst_off, size), size, w.exec, w.exec_full, True)
    m.lds_check(w, step, la)
    return la


def dword_access(ins: Instr, parts: list[str]):
    """(store?, dwords, bytes, AGPR data?, a Reader) of a ``<x>_load|store_dword*`` whose
    mnemonic split at ``_`` is ``parts``; any other form is refused."""
    if parts[1] not in ("load", "store") or len(parts) != 3 or not parts[2].startswith("dword"):
        raise refuse(ins)
    dwords = operand_widths(ins)["data"]
    return parts[1] == "store", dwords, 4 * dwords, bool(ins.f["acc"]), Reader(ins)


def _global_address(ins: Instr, rd: Reader):
    """fn(w) -> (G, 64) int64 addresses of a GLOBAL / FLAT access: the SGPR pair plus the
    VGPR offset, or the VGPR pair, plus the instruction offset."""
    f = ins.f
    saddr = f["saddr"] if ins.enc == "GLOBAL" else 0x7F
    if saddr != 0x7F:
        sbase = rd.scalar(saddr, 2)
        voff = rd.vector(256 + f["vaddr"])
    else:
        vaddr = rd.vector(256 + f["vaddr"], 2)

    def address(w):
        G = w.G
        if saddr != 0x7F:
            addr = sbase(w).astype(np.int64)[:, None] + \
                np.broadcast_to(voff(w), (G, WAVE_SIZE)).astype(np.int64)
        else:
            addr = np.broadcast_to(vaddr(w), (G, WAVE_SIZE)).astype(U64).view(np.int64)
        return addr + f["offset"]
    return address


def _global_atomic(ins: Instr) -> Step:
    """``global_atomic_add_f32`` with no returned value, ``global_atomic_cmpswap`` and
    ``_x2`` with or without (the old word into ``vdst``), as the buffer forms (module
    docstring); an address a multiple of the word's bytes."""
    f = ins.f
    dwords, size, dst_v = _atomic_form(ins)
    rd = Reader(ins)
    address = _global_address(ins, rd)
    rd.vr.update(vregs(256 + f["data"], dwords))
    step = Step(ins, None, "vmem", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))

    def issue(w, m):
        addr = address(w)
        if ((addr & (size - 1)) != 0)[w.exec].any():
            raise refuse(ins, f"an address that is not a multiple of {size}")
        return _atomic_op(ins, step, w, m, addr, w.exec, size, dst_v)

    step.mem = dict(issue=issue, queue="vm")
    return step


def _global(ins: Instr) -> Step:
    f, n = ins.f, ins.name
    if "_atomic_" in n:
        return _global_atomic(ins)
    parts = n.split("_")
    lds = parts[1:3] == ["load", "lds"] and len(parts) == 4 and parts[3] in ("dword",
                                                                             "dwordx4")
    if lds:
        if ins.enc != "GLOBAL":
            raise refuse(ins)
        parts = parts[:2] + parts[3:]
    narrow = NARROW_LOADS.get(n.replace("global_", "buffer_", 1)) if not lds else None
    store, dwords, size, acc, rd = (False, 1, narrow, bool(f["acc"]), Reader(ins)) \
        if narrow else dword_access(ins, parts)
    address = _global_address(ins, rd)
    reg0 = f["data"] if store else f["dst"]
    regs = vregs(256 + reg0, dwords, acc)
    if store:
        rd.vr.update(regs)
    if lds:
        rd.sr.add(M0)
    dst_v = () if (store or lds) else regs
    step = Step(ins, None, "vmem", vreads=frozenset(rd.vr), vwrites=frozenset(dst_v),
                sreads=frozenset(rd.sr))

    def issue(w, m):
        mask = w.exec.copy()
        addr = address(w)
        if lds:        # global -> LDS DMA: counted on vmcnt, LDS written when it completes
            la = _lds_dma_target(w, m, step, f["offset"], size)
            data = m.glob.read(addr, size, w, step, mask)
            return MemOp(step, "vm", lambda: m.lds_write(w, la, data()), lds=[la])
        if store:
            reg = w.A if acc else w.V
            raw = lane_bytes(reg, reg0, dwords).reshape(w.G, WAVE_SIZE, size)
            put = m.glob.check(addr, size, w, step, mask, raw)
            return MemOp(step, "vm", lambda: put(raw))
        data = m.glob.read(addr, size, w, step, mask)

        def done():
            reg = w.A if acc else w.V
            raw = data()     # a narrow load: zero-extended into the register
            vals = raw.view(U32) if not narrow else \
                raw.view(np.uint16 if size == 2 else np.uint8).astype(U32)
            for j in range(dwords):
                np.copyto(reg[reg0 + j], vals[..., j], where=mask)
        return MemOp(step, "vm", done, dst_v=dst_v)
    step.mem = dict(issue=issue, queue="vm")
    return step
