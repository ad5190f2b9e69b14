"""The machine: waves, memory, asynchronous memory operations, waits, barriers and races.

One :class:`Machine` runs the waves of ``G`` workgroups in lockstep (every state array has
a leading workgroup axis; the workgroups of one batch must take the same branches, else
:class:`Divergence` is raised, naming which went each way, and the caller goes on with each
such group from there, :mod:`pipeline_mlir.emu.split`, or runs it again on its own).

Memory operations (SMEM and DS on lgkmcnt; buffer/global loads and stores and LDS DMA on
vmcnt) are *issued* by a wave and *complete* later:

* ``eager``: at issue;
* ``late``: at the latest moment allowed, the ``s_waitcnt`` that forces them (or the end of
  the wave): a load samples memory only then, so a write racing it shows in the data;
* ``random[:SEED]``: at a random moment in between, with random wave interleaving.

Independently of the mode, every op is *released* (known complete to its wave) by the
wait that covers it, or by the stall of a full counter (:mod:`pipeline_mlir.emu.counters`:
in-order completion per counter, as LLVM assumes; at most lgkmcnt 15 and vmcnt 63 in
flight).  The checks use releases, so they hold for every completion order:

* a register read (or overwritten) while a load into it is not released;
* an LDS access conflicting (one of them a write) with another access that is not ordered
  before it: by another wave, unless that access was released before a barrier the
  current wave has passed; by the same wave on the other counter, unless released;
* the same of global memory, across workgroups too (:mod:`pipeline_mlir.emu.globalrace`,
  on the store marks);
* barrier counts that differ between the waves of a workgroup;
* out-of-range global and LDS accesses, buffer accesses outside the buffer behind the
  descriptor or (``GlobalMemory.strict``) past its records (else: read 0, write dropped, as
  the hardware does); ``s_trap``; an MFMA with partial EXEC; too few wait states
  (:mod:`~pipeline_mlir.emu.hazards`; on every path of the code, before the run:
  :mod:`~pipeline_mlir.emu.hazard_paths`).

Registers, LDS and the output start poisoned (every byte 0xFF: NaN in f32, bf16, f16 and
FP8, and an address no buffer holds).

Size: one concern: the global memory (with its store marks, which C's verdict reads), the
LDS and the wave-stepping loop share the pending-operation and race state this module
keeps; split along that state next time it grows (it crossed 600 lines with the marks).
"""

from __future__ import annotations

import gc
import random
import re
from collections import deque
from contextlib import contextmanager

import numpy as np

from pipeline_mlir.emu.counters import make_room, wait
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.globalrace import (MAX_SLOTS, RaceState, fresh_pages, new_marks,
                                          on_load, on_store, release_state, stored_bytes)
from pipeline_mlir.emu.gpridx import indexed_step, mode_of
from pipeline_mlir.emu.hazard_paths import path_violations
from pipeline_mlir.emu.hazards import WaitStates, info_of, infos
from pipeline_mlir.emu.launchdims import LaunchDims
from pipeline_mlir.emu.memops import MemOp
from pipeline_mlir.emu import poison, spare
from pipeline_mlir.emu.operands import EXEC, pair_mask, reg_bits
from pipeline_mlir.emu.semantics import branch_taken
from pipeline_mlir.emu.taint import at_issue, before
from pipeline_mlir.target.gfx950 import WAVE_SIZE

U32 = np.uint32
#: the default poison (:mod:`pipeline_mlir.emu.poison`: what the runs use)
POISON_BYTE = poison.DEFAULT
MODES = ("eager", "late", "random")
_NEVER = 1 << 62
#: the LDS access patterns a machine keeps (:meth:`Machine._lds_index`) before it starts over
_LDS_PATTERNS = 1024


class _Aranges(dict):
    """``np.arange(n)`` (int64, read only) by ``n``, each made once."""

    def __missing__(self, n: int) -> np.ndarray:
        out = self[n] = np.arange(n, dtype=np.int64)
        out.flags.writeable = False
        return out


#: the offsets of the blocks, dwords or bytes one lane's LDS access spans
_ARANGE = _Aranges()
#: findings a run can record and go on from (``collect=True``)
COLLECTABLE = ("lds-race", "global-race", "pending-register", "wait-states",
               "soffset-range")
BUFFER_SPAN = 1 << 32          # each global buffer lives at k << 32


class Divergence(Exception):
    """The workgroups of one batch took different branches: ``groups``, the positions in
    the batch of the workgroups that went each way (None: not known, each its own).
    ``stepped``: the wave's wait-state tracker has counted the instruction already (a
    branch); ``resume``: (the wave's index, the steps left of its burst, this one included),
    set by the run loop, where each part of a split batch goes on
    (:mod:`pipeline_mlir.emu.split`)."""

    def __init__(self, message: str, groups: list[list[int]] | None = None,
                 stepped: bool = False) -> None:
        super().__init__(message)
        self.groups = groups
        self.stepped = stepped
        self.resume: tuple[int, int] | None = None


def parse_mode(text: str) -> tuple[str, int]:
    """``eager`` | ``late`` | ``random[:SEED]`` -> (mode, seed)."""
    mode, _, seed = text.partition(":")
    if mode not in MODES or (seed and mode != "random"):
        raise EmuError(f"emulation mode {text!r}: choose eager, late or random[:SEED]")
    if seed:
        try:  # ASCII digits: int() also reads 1_0 and other scripts' digits
            if re.fullmatch(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)", seed):
                return mode, int(seed, 0)
        except ValueError:
            pass
        raise EmuError(f"emulation mode {text!r}: the seed must be an integer")
    return mode, 0


def workgroups_text(names: list[str]) -> str:
    """How a run of the workgroups ``names`` (one or a lockstep batch) is named."""
    return "workgroup " + names[0] if len(names) == 1 else f"workgroups {','.join(names)}"


def _all_lds_16_bytes(steps) -> bool:
    for st in steps:
        n = st.ins.name
        if st.kind == "ds" and not n.endswith("_b128"):
            return False
        if st.kind == "vmem" and (st.ins.f.get("lds") or "_lds_" in n) and \
                not n.endswith("dwordx4"):
            return False
    return True


class GlobalMemory:
    """Global memory: named byte buffers, buffer ``k`` at address ``(k + 1) << 32``."""

    def __init__(self) -> None:
        self.buffers: list[np.ndarray] = []
        self.names: list[str] = []
        self.machine = None
        #: (base, num_records) of every buffer descriptor the kernel used, over all runs
        self.descriptors: set[tuple[int, int]] = set()
        #: report buffer accesses past a descriptor's records (the hardware reads 0 and
        #: drops the write)
        self.strict = False
        #: per buffer, None or its store marks: a uint32 per halfword, 0 until a store
        #: writes it, then the stamp of the last store that did (:meth:`track`,
        #: :mod:`pipeline_mlir.emu.globalrace`); which elements a run wrote, whatever their
        #: values, and by whom (the global race check)
        self.marks: list[np.ndarray | None] = []
        #: per buffer, the size of what a mark covers: 1 (a halfword) or 0 (a byte: an
        #: output of 1-byte elements, :meth:`add` ``per_byte``), as a shift of the byte
        #: index
        self.shifts: list[int] = []
        self.race = RaceState()
        #: None, or while a lockstep batch runs, what each of its stores overwrites:
        #: (buffer words or bytes, indices, their old values), in the order the stores
        #: issued (:meth:`undo_batch`)
        self.undo: list | None = None

    def undo_batch(self) -> None:
        """The buffers as they were before the batch whose stores :attr:`undo` logged (a
        batch whose workgroups branched apart, run again per way: what it stored before
        the branch must not be read by the runs again). Replayed last store first, so
        each byte gets what it held before the batch's first store to it (logged at that
        store's issue, before any of the batch wrote it). The store marks and reader
        stamps stay: assumed (docs/emulator.md) that the runs again, from the same memory,
        make the same accesses up to the branch and stamp them over (until they do, a race message
        may cite a workgroup of the stopped run whose own run has not come yet)."""
        for buf, at, old in reversed(self.undo or ()):
            buf[at] = old

    def add(self, name: str, data, per_byte: bool = False) -> int:
        """A buffer holding a copy of ``data`` (bytes, or an array's bytes); ``per_byte``:
        its store marks (:meth:`track`) are per byte, not per halfword (:attr:`shifts`)."""
        src = np.frombuffer(bytes(data), dtype=np.uint8) if not isinstance(data, np.ndarray) \
            else np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        buf = spare.buffer(len(src))
        buf[:] = src
        return self._append(name, buf, per_byte)

    def _append(self, name: str, arr: np.ndarray, per_byte: bool) -> int:
        self.buffers.append(arr)
        self.names.append(name)
        self.marks.append(None)
        self.shifts.append(0 if per_byte else 1)
        return len(self.buffers) << 32

    def add_poisoned(self, name: str, size: int, per_byte: bool = False) -> int:
        """A buffer of ``size`` poison bytes (:func:`pipeline_mlir.emu.poison.byte`; as
        :meth:`add` of them, without building the bytes first)."""
        buf = spare.buffer(size)
        buf.fill(poison.byte())
        return self._append(name, buf, per_byte)

    def fill_poison(self, name: str) -> None:
        """Buffer ``name`` all poison bytes again."""
        self.buffer(name)[:] = poison.byte()

    def track(self, name: str) -> None:
        """Mark, from now on (fresh marks), every halfword a store writes to buffer
        ``name`` (:meth:`stored`), or every byte for a buffer added ``per_byte`` (an output
        of 1-byte elements: two workgroups store the two bytes of one halfword where a
        tile's edge column is odd); any other buffer gets its marks at its first store."""
        b = self.names.index(name)
        self.marks[b] = new_marks(len(self.buffers[b]), self.shifts[b])
        fresh_pages(self.race, b, self.marks[b])

    def stored(self, name: str) -> np.ndarray:
        """The bytes of buffer ``name`` some store wrote (bool; by halfwords unless the
        buffer is marked per byte: a byte store marks its neighbour too)."""
        b = self.names.index(name)
        if self.marks[b] is None:
            return np.zeros(len(self.buffers[b]), dtype=bool)
        return stored_bytes(self.marks[b], len(self.buffers[b]), self.stamped_pages(name),
                            self.shifts[b])

    def marks_of(self, name: str) -> np.ndarray:
        """The store marks of the tracked buffer ``name``: a uint32 per halfword (per byte
        for a buffer added ``per_byte``), nonzero where some store wrote it (read only)."""
        b = self.names.index(name)
        shift = self.shifts[b]
        return self.marks[b][:(len(self.buffers[b]) + shift) >> shift]

    def shift_of(self, name: str) -> int:
        """What a mark of buffer ``name`` covers: 1 a halfword, 0 a byte (:attr:`shifts`)."""
        return self.shifts[self.names.index(name)]

    def stamped_pages(self, name: str):
        """Per page of 4096 bytes of the marks of buffer ``name``, whether a store may have
        stamped it (None: any)."""
        b = self.names.index(name)
        got = self.race.pages.get(b)
        return got[1] if got is not None and got[0] is self.marks[b] else None

    def restore(self) -> None:
        """The buffers as they were before the stores of this run (the marks stay: a run
        again stamps its workgroups' stores over them)."""
        for b, saved in self.race.saved.items():
            self.buffers[b][:] = saved
        self.race.saved = {}

    def buffer(self, name: str) -> np.ndarray:
        return self.buffers[self.names.index(name)]

    def _locate(self, addr, size, w, step, mask):
        """(buffer index, offsets, lanes: None for all) of an access; findings when out of
        range.  ``mask`` None: every lane."""
        addr = np.asarray(addr, dtype=np.int64)
        if mask is None:
            lo, hi = int(addr.min()), int(addr.max())
            b = (lo >> 32) - 1
            if hi >> 32 == lo >> 32 and 0 <= b < len(self.buffers) and \
                    (hi & (BUFFER_SPAN - 1)) <= len(self.buffers[b]) - size:
                return b, addr - (lo >> 32 << 32), None
        full = mask is None or np.count_nonzero(mask) == mask.size
        if not full:
            if mask.shape != addr.shape:
                mask = np.broadcast_to(mask, addr.shape)
            if not np.count_nonzero(mask):
                return None, addr, mask
        bid = addr >> 32
        off = addr & (BUFFER_SPAN - 1)
        sel = bid if full else bid[mask]
        lo, hi = sel.min(), sel.max()
        b = int(lo) - 1
        if lo != hi or not 0 <= b < len(self.buffers):
            # (when ``hi`` is no buffer's, no lane is in one: an address whose high dword
            # is all ones too, ``hi`` -1)
            ok = bid == hi if 0 <= int(hi) - 1 < len(self.buffers) else np.zeros_like(bid, bool)
            bad = np.argwhere(~ok if full else (mask & ~ok))
            lane = bad[0][-1]
            self.machine.finding("out-of-range", w, step,
                                 f"address 0x{int(addr[tuple(bad[0])]) % (1 << 64):x} (lane "
                                 f"{lane}) is in no buffer")
        limit = len(self.buffers[b]) - size
        if (off.max() if full else off[mask].max()) > limit:
            over = (off > limit) if full else (mask & (off > limit))
            pos = tuple(np.argwhere(over)[0])
            self.machine.finding("out-of-range", w, step,
                                 f"address 0x{int(addr[pos]):x} + {size} bytes is past the "
                                 f"end of buffer {self.names[b]} ({len(self.buffers[b])} "
                                 f"bytes; lane {pos[-1]})")
        if full:
            return b, off, None
        return b, np.where(mask, off, 0), mask

    def region(self, base, size):
        """(the dwords of buffer ``b``, the dword index (G, 1) of ``base`` in it, ``b``) when
        ``[base, base + size)`` of every workgroup slot lies in buffer ``b`` and ``base`` is
        dword-aligned; else None (the accesses are then checked one by one)."""
        lo, hi = int(base.min()), int((base + size).max())
        b = (lo >> 32) - 1
        if not 0 <= b < len(self.buffers) or (base & 3).any():
            return None
        buf = self.buffers[b]
        start = (b + 1) << 32
        if hi - start > len(buf) or len(buf) % 4:
            return None
        return buf.view(U32), ((base - start) >> 2)[:, None], b

    def check(self, addr, size, w, step, mask=None, raw=None):
        """Check the range and the races (:mod:`~pipeline_mlir.emu.globalrace`) of a store
        of ``raw`` (G, L, size) now; the returned function writes ``raw`` when called."""
        b, off, m = self._locate(addr, size, w, step, mask)
        if b is None:
            return lambda raw: None
        buf = self.buffers[b]
        unit = 1
        if size % 4 == 0 and len(buf) % 4 == 0 and not np.bitwise_or.reduce(off, axis=None) & 3:
            unit = 4
        idx = (off >> (unit >> 1))[..., None] + np.arange(size // unit, dtype=np.int64)
        if unit == 4:
            buf = buf.view(U32)
        on_store(self, self.machine, w, step, b, idx, unit, m,
                 np.ascontiguousarray(raw).view(buf.dtype))
        if m is not None:
            idx = idx[m]

        def store(raw):
            vals = raw.view(buf.dtype) if buf.dtype == U32 else raw
            buf[idx] = vals if m is None else vals[m]
        return store

    def atomic_words(self, addr, w, step, mask, vals, size: int = 4):
        """(the buffer's words, the indices, the values) of an atomic update of the
        ``size``-byte word (4: uint32, 8: uint64) at ``addr`` with the operands ``vals``
        (G, L) or (G, L, k) uint32 now, the lanes in workgroup-slot then lane order (the
        values (n,) or (n, k)), its range and races checked
        (:func:`~pipeline_mlir.emu.globalrace.on_store`, ``atomic``, the dwords it may
        write); (None, None, None) when no lane is active."""
        b, off, m = self._locate(addr, size, w, step, mask)
        if b is None:
            return None, None, None
        buf = self.buffers[b]
        words = buf[:len(buf) & -size].view(U32 if size == 4 else np.uint64)
        n = size // 4
        idx = (off >> 2)[..., None] + np.arange(n, dtype=np.int64)
        vals = np.ascontiguousarray(vals, dtype=U32)
        first = vals[..., :n] if vals.ndim == 3 else vals[..., None]
        on_store(self, self.machine, w, step, b, idx, 4, m, first, atomic=True)
        at = off >> (2 if size == 4 else 3)
        at, ops = (at, vals) if m is None else (at[m], vals[m])
        return words, at.reshape(-1), ops.reshape((-1,) + vals.shape[2:]).copy()

    def read(self, addr, size, w, step, mask=None):
        """Check the range now; the returned function gathers the bytes when called."""
        b, off, m = self._locate(addr, size, w, step, mask)
        shape = np.shape(addr) + (size,)
        if b is None:
            return lambda: np.zeros(shape, dtype=np.uint8)
        buf = self.buffers[b]
        if size % 4 == 0 and len(buf) % 4 == 0 and not np.bitwise_or.reduce(off, axis=None) & 3:
            words = buf.view(U32)
            idx = (off >> 2)[..., None] + np.arange(size // 4, dtype=np.int64)
            on_load(self, self.machine, w, step, b, idx, 4, m)
            return lambda: words.take(idx).view(np.uint8)
        idx = off[..., None] + np.arange(size, dtype=np.int64)
        on_load(self, self.machine, w, step, b, idx, 1, m)
        return lambda: buf.take(idx)



@contextmanager
def collector_paused():
    """No cyclic garbage collection in the block, the collector as it was after it.  A run
    allocates objects that live as long as it does (its memory operations, their
    completions) and makes little cyclic garbage; collecting during it would walk every
    object the process holds, again and again, to free next to nothing."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Wave:
    def __init__(self, machine, index: int, G: int) -> None:
        self.machine = machine
        self.index = index
        self.G = G
        self.S = np.full((128, G), poison.word(), dtype=U32)
        self.V = np.full((256, G, WAVE_SIZE), poison.word(), dtype=U32)
        self.A = np.full((256, G, WAVE_SIZE), poison.word(), dtype=U32)
        self.scc = np.zeros(G, dtype=bool)
        self.exec = np.ones((G, WAVE_SIZE), dtype=bool)
        self.exec_full = True     # every lane of every workgroup active
        self.pc = 0
        self.epoch = 0            # barriers passed
        self.barriers = 0
        self.pos = 0              # instructions executed
        self.done = False
        self.at_barrier = False
        self.vmq: deque = deque()
        self.lgkmq: deque = deque()
        self.pend_v: dict[int, MemOp] = {}
        self.pend_s: dict[int, MemOp] = {}
        #: the registers of pend_v and pend_s as bit masks (bit r: register r)
        self.pend_vbits = self.pend_sbits = 0
        self.gpr_idx = False      # MODE.gpr_idx_en (emu/gpridx.py)
        self.taint = None         # the taint run's state (emu/taint.py), from a racing load
        self.ptaint = None        # ... of its private memory's bytes, and their origin
        self.porigin = None

    @property
    def name(self) -> str:
        return f"wave {self.index} of {self.machine.workgroups_text}"

    def exec_changed(self) -> None:
        self.exec = pair_mask(self.S, EXEC)
        self.exec_full = np.count_nonzero(self.exec) == self.exec.size


class Machine:
    def __init__(self, kernel, glob: GlobalMemory, workgroups: list, waves: int,
                 mode: str = "eager", seed: int = 0, kernarg_addr: int = 0,
                 max_instructions: int = 10_000_000, collect: bool = False,
                 dims: LaunchDims | None = None) -> None:
        if mode not in MODES:
            raise EmuError(f"emulation mode {mode!r}: choose one of {', '.join(MODES)}")
        self.kernel = kernel
        self.dims = dims
        self.collect = collect
        self.findings: list[Finding] = []
        self._seen: set = set()
        self.glob = glob
        glob.machine = self
        self.mode = mode
        self.rng = random.Random(seed)
        self.G = G = len(workgroups)
        self.workgroups = workgroups
        # workgroup ids: x, or (x, y) / (x, y, z) tuples
        self.wg_ids = np.array([(tuple(g) + (0, 0))[:3] if isinstance(g, (tuple, list))
                                else (g, 0, 0) for g in workgroups], dtype=U32).reshape(-1, 3)
        names = [str(g) if not isinstance(g, (tuple, list)) else
                 "(" + ",".join(map(str, g)) + ")" for g in workgroups]
        self.workgroups_text = workgroups_text(names)
        if G > MAX_SLOTS:
            raise EmuError(f"{G} workgroups in lockstep: at most {MAX_SLOTS}")
        # the global race check (globalrace.py): this run, its slots, the op stamping now
        self.slot_names = names
        self.run_key = glob.race.new_run(names)
        #: the runs whose accesses are this run's own (a split batch's part: its batch's)
        self.run_keys = frozenset((self.run_key,))
        #: where :meth:`run` goes on from (a part of a split batch), or None: the start
        self.resume: tuple[int, int] | None = None
        self.stamping: tuple = (None, 0)
        #: the taint run (racy_loads.py): the issuing load's racing lanes, its description
        self.tainting = glob.race.tainting
        self.load_taint: list = []
        self.load_origin = None
        # (the steps and memos asked of the kernel that serves them: one comparison of
        # the instructions with the private ones, not one per question)
        serving = kernel.serving()
        self.steps = serving.steps()
        lds = kernel.launch.lds_bytes
        self.lds_bytes = lds
        # race shadow: the last writer and each wave's last reader of every block of LDS;
        # blocks of 16 bytes when every LDS access of the kernel moves 16 bytes per lane
        self.gran_shift = sh = 4 if serving.memo("all LDS 16 bytes",
                                                 lambda _k: _all_lds_16_bytes(self.steps)) else 2
        self.blocks = nb = max(1, (lds + (1 << sh) - 1) >> sh)
        padded = nb << sh             # whole blocks: block k of slot g is row g * nb + k
        self.set_lds(np.full((G, padded), poison.byte(), dtype=np.uint8))
        #: (size, shape, addresses, mask) -> (indices, unit, flat) of an LDS access in range
        #: (:meth:`_lds_index`)
        self._lds_patterns: dict = {}
        # op id + 1 of each block's accesses (0: none)
        self.last_write = np.zeros(G * nb, dtype=np.int64)
        self.last_read = np.zeros((waves, G * nb), dtype=np.int64)
        self.ops: list[MemOp] = []
        self.descriptors: dict = {}    # buffer descriptor (SGPR bytes) -> what it addresses
        # per op id + 1 (entry 0: no op): its owner, 2 * wave index + counter (0 vm, 1
        # lgkm), and the epoch of its release (_NEVER: not yet)
        self.op_owner = np.full(1024, -2, dtype=np.int64)
        self.op_rel = np.full(1024, _NEVER, dtype=np.int64)
        self.op_rel[0] = -1
        self.count = 0
        self.max_instructions = max_instructions
        self.waves = [Wave(self, i, G) for i in range(waves)]
        # the wait-state rules (hazards.py): every path of the code is checked before the
        # run (hazard_paths.py), with the tracker's rules and counts, so a violation on a
        # path a wave runs is reported here first; the per-wave tracker (a clock and
        # producer tables per wave) runs only when collecting, to record every reader too
        # early (the path check reports the first one per producer)
        # (the same for every workgroup count: computed once per kernel's instructions)
        self.hazard_info = serving.memo("hazard infos", lambda _k: infos(self.steps))
        self.wait_states = [WaitStates() for _ in range(waves)] if collect else None
        for bad in path_violations(serving, self.hazard_info):  # the paths not run too
            self.finding("wait-states", None, None, bad.violation.message() + " on some path",
                         bad.reader)
        #: the findings every run of the kernel records first (the paths' wait states)
        self.initial_findings = len(self.findings)
        self._init_state(kernarg_addr)

    # -- launch state -------------------------------------------------------------------
    def _init_state(self, kernarg_addr: int) -> None:
        ls = self.kernel.launch
        dims = self.dims or LaunchDims((WAVE_SIZE * len(self.waves), 1, 1))
        inputs = {"kernarg_ptr": kernarg_addr, "dispatch_ptr": dims.dispatch_addr, "dispatch_id": 0,
                  "queue_ptr": dims.queue_addr, "private_segment_size": ls.private_bytes}
        for name in ls.inputs():
            if inputs[name] is None:
                raise EmuError(f"kernel {self.kernel.name}: the kernel descriptor asks for "
                               f"the {name.replace('_', ' ')} in user SGPRs; launch it with a "
                               f"launch description (--emulate-launch), which provides it")
        ids = dims.workitem_ids(len(self.waves), ls.workitem_id_dims)
        for w in self.waves:
            s = 0
            for name in ls.inputs():
                value = inputs[name]
                w.S[s] = value & 0xFFFFFFFF
                if name != "private_segment_size":
                    w.S[s + 1] = value >> 32
                s += 1 if name == "private_segment_size" else 2
            if ls.preload_dwords:
                # preloaded kernel arguments: the first dwords of the kernarg segment (the
                # kernel's entry also loads them itself, for firmware without preloading)
                buf = self.glob.buffers[(kernarg_addr >> 32) - 1]
                off = kernarg_addr & (BUFFER_SPAN - 1)
                words = buf[off:off + 4 * ls.preload_dwords].view(U32)
                w.S[s:s + ls.preload_dwords] = words[:, None]
                s += ls.preload_dwords
            for dim, on in enumerate(ls.workgroup_id):
                if on:
                    w.S[s] = self.wg_ids[:, dim]
                    s += 1
            if ls.workgroup_info:
                w.S[s] = WAVE_SIZE * len(self.waves)
                s += 1
            live = ids.live[w.index]
            w.S[EXEC] = int(live & 0xFFFFFFFF)
            w.S[EXEC + 1] = int(live >> 32)
            w.exec_changed()
            for r, v in enumerate(ids.vgprs[w.index]):
                w.V[r] = v[None, :]

    # -- findings -----------------------------------------------------------------------
    def finding(self, kind: str, w, step, message: str, instr=None):
        """Raise the finding; with ``collect``, races, pending registers and wait states are
        recorded (one per instruction and kind) and the run goes on.  ``instr``: the
        instruction when there is no step (a finding on a path no wave ran)."""
        instr = instr if step is None else step.ins
        f = Finding(kind, message, wave=None if w is None else w.name, instr=instr)
        if self.collect and kind in COLLECTABLE:
            key = (kind, None if instr is None else instr.addr)
            if key not in self._seen:
                self._seen.add(key)
                self.findings.append(f)
            return
        raise f

    # -- LDS ----------------------------------------------------------------------------
    def _lds_index(self, w, step, a):
        """Flat shadow indices (workgroup slot * blocks + block) of the active lanes; sets
        ``a.flat``, the indices that the access reads or writes (inactive lanes: an active
        lane's) into ``self.lds_blocks`` (G, 64) when it moves one aligned block per lane
        (``a.unit`` 0), else into the dwords (4) or bytes (1) of ``self.lds``, (G, 64, n).
        The indices are kept by the access's size, addresses and mask (a loop's accesses
        repeat a few address patterns) and shared: read only."""
        addr, mask = a.addr, a.mask
        key = (a.size, addr.shape, addr.tobytes(), None if a.full else mask.tobytes())
        hit = self._lds_patterns.get(key)
        if hit is not None:
            idx, a.unit, a.flat = hit
            return idx
        if not a.full:
            addr = np.where(mask, addr, addr[mask][0] if np.count_nonzero(mask) else 0)
        lo, hi = addr.min(), addr.max() + a.size
        inside = lo >= 0 and hi <= self.lds_bytes
        if not inside:
            bad = mask & ((addr < 0) | (addr + a.size > self.lds_bytes))
            g, lane = np.argwhere(bad)[0]
            self.finding("out-of-range", w, step,
                         f"LDS address {int(addr[g, lane])} + {a.size} bytes is outside the "
                         f"{self.lds_bytes} bytes of LDS (lane {lane})")
        sh = self.gran_shift
        first = (addr >> sh) + self.g_base
        span = ((a.size - 1) >> sh) + 1
        low = (addr & ((1 << sh) - 1)).max()
        if low + a.size > (span << sh):
            span += 1
        if span == 1:
            blocks = None
            idx = first.reshape(-1) if a.full else first[mask]
        else:
            blocks = first[..., None] + _ARANGE[span]
            if low:            # a lane spanning fewer blocks repeats its last one
                blocks = np.minimum(blocks, ((addr + (a.size - 1)) >> sh)[..., None] +
                                    self.g_base[..., None])
            idx = blocks.reshape(-1) if a.full else blocks[mask].reshape(-1)
        if low == 0 and a.size == 1 << sh:
            a.unit = 0
            a.flat = first
        elif a.size % 4 == 0 and (low == 0 or not np.bitwise_or.reduce(addr, axis=None) & 3):
            a.unit = 4
            # dword blocks, the access aligned: its blocks are its dwords
            a.flat = blocks if sh == 2 and low == 0 and blocks is not None else \
                ((addr >> 2) + self.g_base_words)[..., None] + _ARANGE[a.size // 4]
        else:
            a.unit = 1
            a.flat = (addr + self.g_base_bytes)[..., None] + _ARANGE[a.size]
        if inside:        # (an access out of range is looked at again: its finding)
            if len(self._lds_patterns) >= _LDS_PATTERNS:
                self._lds_patterns.clear()
            idx.flags.writeable = a.flat.flags.writeable = False
            self._lds_patterns[key] = (idx, a.unit, a.flat)
        return idx

    def lds_check(self, w, step, a) -> None:
        """Race check of one LDS access at issue; records it in the shadow state."""
        ii = self._lds_index(w, step, a)
        prev = self.last_write.take(ii)           # op id + 1 of the accesses before it
        cur = self.cur_id + 1
        if a.write:
            again = prev == cur
            if np.count_nonzero(again):    # a ds_write2's first address, of another lane
                self._overlap(w, step, int(ii[int(np.argmax(again))]))
                prev = np.where(again, 0, prev)
            prev = np.concatenate([prev, self.last_read.take(ii, axis=1).reshape(-1)])
        rel = self.op_rel.take(prev)
        # ordered: released before a barrier this wave has passed; by this wave: released,
        # or on the same counter (in order)
        if prev.size and np.maximum.reduce(rel, axis=None) >= w.epoch:
            owner = self.op_owner.take(prev)
            mine = 2 * w.index + (0 if step.kind == "vmem" else 1)
            ok = (rel < w.epoch) | (owner == mine) | ((owner >> 1 == w.index) & (rel < _NEVER))
            if np.count_nonzero(ok) != ok.size:
                hit = int(np.argmin(ok))
                prev_op = self.ops[int(prev[hit]) - 1]
                addr = (int(ii[hit % len(ii)]) % self.blocks) << self.gran_shift
                what = "write" if a.write else "read"
                pw = "write" if prev_op.step.kind == "vmem" or not prev_op.dst_v else "read"
                pstate = release_state(prev_op)
                self.finding("lds-race", w, step,
                             f"LDS {what} of address {addr} races the {pw} by "
                             f"{prev_op.wave.name.split(' of ')[0]} at "
                             f"0x{prev_op.step.ins.addr:04x} '{prev_op.step.ins.text}' "
                             f"({pstate})")
        if a.write:
            self.last_write[ii] = cur
        else:
            self.last_read[w.index][ii] = cur

    def _overlap(self, w, step, block: int) -> None:
        """The finding on a write of the block ``block`` (a shadow index) that the op being
        issued wrote already at its other address (``ds_write2``, lanes apart): the ISA
        orders no lanes, which value stays is not defined."""
        addr = (block % self.blocks) << self.gran_shift
        self.finding("lds-race", w, step, f"LDS write of address {addr} by its second address "
                                          f"overlaps its first (another lane's; which value "
                                          f"stays is not defined)")

    def lds_read(self, w, a):
        """(G, 64, size) uint8: the bytes each lane reads (inactive lanes: anything); ``a``
        passed :meth:`lds_check`."""
        if a.unit == 1:
            return self.lds_bytes_flat.take(a.flat)
        if a.unit == 4:
            return self.lds_words.take(a.flat).view(np.uint8)
        return self.lds_blocks.take(a.flat, axis=0).view(np.uint8)

    def lds_write(self, w, a, raw) -> None:
        """Write ``raw`` (G, 64, size) uint8 to the active lanes of ``a`` (checked)."""
        if a.unit == 1:
            vals, target = raw, self.lds_bytes_flat
        else:
            vals = np.ascontiguousarray(raw).view(np.uint32)
            target = self.lds_words if a.unit == 4 else self.lds_blocks
        if a.full:
            target[a.flat] = vals
        else:
            target[a.flat[a.mask]] = vals[a.mask]

    # -- execution ----------------------------------------------------------------------
    def _pending_check(self, w, st) -> None:
        if w.pend_v and not w.pend_v.keys().isdisjoint(st.vtouched):
            hit = w.pend_v.keys() & st.vreads
            if not hit and st.kind != "vmem" and st.kind != "ds":
                hit = w.pend_v.keys() & st.vwrites
            elif not hit and st.vwrites:
                q = "vm" if st.kind == "vmem" else "lgkm"
                hit = {r for r in w.pend_v.keys() & st.vwrites if w.pend_v[r].queue != q}
            if hit:
                r = min(hit)
                op = w.pend_v[r]
                name = f"a{r - 256}" if r >= 256 else f"v{r}"
                self.finding("pending-register", w, st,
                             f"{name} is used while the load at 0x{op.step.ins.addr:04x} "
                             f"'{op.step.ins.text}' that writes it is not waited for")
        if w.pend_s and not w.pend_s.keys().isdisjoint(st.stouched):
            hit = w.pend_s.keys() & st.stouched
            if hit:
                r = min(hit)
                op = w.pend_s[r]
                self.finding("pending-register", w, st,
                             f"s{r} is used while the load at 0x{op.step.ins.addr:04x} "
                             f"'{op.step.ins.text}' that writes it is not waited for")

    def _release(self, w, op: MemOp) -> None:
        op.complete()
        op.released = True
        op.release_pos = w.pos
        op.release_epoch = w.epoch
        self.op_rel[op.id + 1] = w.epoch
        for r in op.dst_v:
            if w.pend_v.get(r) is op:
                del w.pend_v[r]
                w.pend_vbits &= ~(1 << r)
        for r in op.dst_s:
            if w.pend_s.get(r) is op:
                del w.pend_s[r]
                w.pend_sbits &= ~(1 << r)

    def wait(self, w, vm: int, lgkm: int) -> None:
        wait(w, self._release, vm, lgkm)

    def _issue(self, w, st) -> None:
        self.cur_id = len(self.ops)
        op = st.mem["issue"](w, self)
        if self.tainting:
            at_issue(self, w, op)
        op.id = self.cur_id
        op.wave = w
        op.issue_pos, op.issue_epoch = w.pos, w.epoch
        self.ops.append(op)
        if op.id + 1 >= len(self.op_rel):
            grow = len(self.op_rel)
            self.op_owner = np.concatenate([self.op_owner, np.full(grow, -2, dtype=np.int64)])
            self.op_rel = np.concatenate([self.op_rel, np.full(grow, _NEVER, dtype=np.int64)])
        self.op_owner[op.id + 1] = 2 * w.index + (0 if op.queue == "vm" else 1)
        make_room(w, op.queue, self._release)
        (w.vmq if op.queue == "vm" else w.lgkmq).append(op)
        if op.dst_v:
            for r in op.dst_v:
                w.pend_v[r] = op
            w.pend_vbits |= reg_bits(op.dst_v)
        if op.dst_s:
            for r in op.dst_s:
                w.pend_s[r] = op
            w.pend_sbits |= reg_bits(op.dst_s)
        if self.mode == "eager":
            op.complete()

    def _finish(self, w) -> None:
        for q in (w.vmq, w.lgkmq):
            while q:
                self._release(w, q.popleft())
        w.done = True

    def step(self, w) -> None:
        pc = w.pc
        st = self.steps[pc]
        if w.gpr_idx or self.wait_states is not None:
            info = self.hazard_info[pc]
            if w.gpr_idx:
                st, info = self._indexed(w, st, info)
            if self.wait_states is not None:
                bad = self.wait_states[w.index].step(info)
                if bad is not None:
                    self.finding("wait-states", w, st, bad.message())
        if w.pend_vbits & st.vbits or w.pend_sbits & st.sbits:
            self._pending_check(w, st)
        nxt = pc + 1
        if self.tainting:
            before(self, w, st)
        if st.run is not None:
            st.run(w)
            w.pc = nxt
            w.pos += 1
            self.count += 1
            if self.mode == "random":
                self._random_completions(w)
            if w.pc >= len(self.steps) and not w.done:
                self._fell_off(w, st)
            return
        kind = st.kind
        if kind in ("smem", "ds", "vmem"):
            self._issue(w, st)
        elif kind == "wait":
            self.wait(w, st.mem["vm"], st.mem["lgkm"])
        elif kind == "barrier":
            w.at_barrier = True
            w.barriers += 1
        elif kind == "branch":
            taken = branch_taken(st, w)
            if np.count_nonzero(taken) == taken.size:
                nxt = st.target
            elif np.count_nonzero(taken):
                raise Divergence(f"{w.name}: 0x{st.ins.addr:04x} '{st.ins.text}' is taken in "
                                 f"some workgroups and not in others",
                                 sorted(np.flatnonzero(t).tolist() for t in (taken, ~taken)),
                                 self.wait_states is not None)
        elif kind == "end":
            self._finish(w)
        elif kind == "trap":
            self.finding("trap", w, st, f"the kernel executed '{st.ins.text}' (it traps when "
                                        f"launched outside its contract)")
        w.pc = nxt
        w.pos += 1
        self.count += 1
        if self.mode == "random":
            self._random_completions(w)
        if not w.done and w.pc >= len(self.steps):
            self._fell_off(w, st)

    def _random_completions(self, w) -> None:
        """Random mode, after each instruction: maybe complete the oldest op not done of
        each counter of ``w``."""
        rng = self.rng
        for q in (w.vmq, w.lgkmq):
            if q and rng.random() < 0.35:
                for o in q:
                    if not o.done:
                        if not o.smem or rng.random() < 0.5:
                            o.complete()
                        break

    def _fell_off(self, w, st) -> None:
        self.finding("fell-off", w, st, "the wave ran past the last instruction without "
                                        "s_endpgm")

    @staticmethod
    def _indexed(w, st, info):
        """The step and its wait-state info as the VGPR index mode runs it."""
        mode = mode_of(w)
        if mode is None:
            raise Divergence(f"{w.name}: 0x{st.ins.addr:04x} '{st.ins.text}' runs in the "
                             f"VGPR index mode with M0 different among the workgroups")
        moved = indexed_step(st, mode[0], mode[1])
        if moved is st:
            return st, info
        got = moved.__dict__.get("hazard_info")
        if got is None:
            got = moved.hazard_info = info_of(moved)
        return moved, got

    def detach(self) -> None:
        """Let go of the global memory once the run is over (its findings, counts and
        waves stay): a machine and its waves refer to each other, so without this the
        buffers it reaches (its descriptors' views, its ops' pending reads) would live until
        the next cyclic garbage collection, not end with their launch, and the next launch
        would fault fresh pages in instead of reusing them (:mod:`~pipeline_mlir.emu.spare`)."""
        if self.glob.machine is self:
            self.glob.machine = None
        self.glob = None
        self.descriptors = {}
        self.ops = []
        for w in self.waves:
            w.vmq.clear()
            w.lgkmq.clear()
            w.pend_v.clear()
            w.pend_s.clear()
            w.pend_vbits = w.pend_sbits = 0

    def set_lds(self, lds: np.ndarray) -> None:
        """Make ``lds`` (workgroup slot x padded bytes) this machine's LDS, with its flat,
        word and block views and each slot's base in blocks, bytes and words."""
        G, nb, sh = len(lds), self.blocks, self.gran_shift
        self.lds = lds
        self.lds_bytes_flat = lds.reshape(-1)               # views of self.lds
        self.lds_words = self.lds_bytes_flat.view(np.uint32)
        self.lds_blocks = self.lds_words.reshape(-1, 1 << (sh - 2))
        self.g_base = (np.arange(G, dtype=np.int64) * nb)[:, None]
        self.g_base_bytes = (np.arange(G, dtype=np.int64) * lds.shape[1])[:, None]
        self.g_base_words = self.g_base_bytes >> 2

    def run(self) -> None:
        # poisoned registers are NaN: arithmetic on them is expected, not a warning
        with np.errstate(invalid="ignore", over="ignore"), collector_paused():
            self._run()

    def _run(self) -> None:
        waves = self.waves
        random_mode = self.mode == "random"
        late = self.mode == "late"
        resume, self.resume = self.resume, None
        while True:
            if resume is not None:          # a part of a split batch: where it diverged
                w, burst = waves[resume[0]], resume[1]
                resume = None
            else:
                runnable = [w for w in waves if not w.done and not w.at_barrier]
                if not runnable:
                    waiting = [w for w in waves if not w.done]
                    if not waiting:
                        break
                    for w in waiting:
                        w.at_barrier = False
                        w.epoch += 1
                    continue
                if random_mode:
                    w = self.rng.choice(runnable)
                    burst = self.rng.randint(1, 24)
                else:
                    w = runnable[-1] if late else runnable[0]
                    burst = 1 << 62
            for left in range(burst, 0, -1):
                try:
                    self.step(w)
                except Divergence as e:
                    e.resume = (w.index, left)
                    raise
                if w.done or w.at_barrier:
                    break
                if self.count > self.max_instructions:
                    self.finding("runaway", w, self.steps[w.pc],
                                 f"more than {self.max_instructions} instructions executed")
        counts = {w.barriers for w in waves}
        if len(counts) > 1:
            detail = ", ".join(f"wave {w.index}: {w.barriers}" for w in waves)
            self.finding("barrier-mismatch", None, None,
                         f"{self.workgroups_text}: the waves executed different numbers of "
                         f"s_barrier ({detail}): the k-th barriers of the waves do not meet")
