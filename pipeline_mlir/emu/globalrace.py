"""Races in global memory: two accesses to one byte, at least one a store, by waves that
nothing orders.

The store marks of :class:`~pipeline_mlir.emu.machine.GlobalMemory` (one ``uint32`` per
halfword of a buffer; 0: never stored) hold the *stamp* of the store that last wrote the
halfword: ``serial << SLOT_BITS | slot``, the op's serial (:class:`RaceState`: its run,
wave, op and instruction) and the workgroup slot of the batch that ran it.  A buffer gets
its marks at its first store (C and a launch's outputs from the start: their verdict reads
them).  Loads are recorded (*readers*: the same stamps, one per halfword) only in buffers
that have marks or were found to need it (below); loads of a buffer no store writes (A and
B of a GEMM) cost a set insertion per instruction.

At issue (the epochs and releases of :meth:`~pipeline_mlir.emu.machine.Machine.lds_check`),
a store is checked against the stores and the loads recorded on the halfwords it writes, a
load against the stores.  The earlier access is ordered before the later one when it is by

* the same wave (its memory operations complete in order on vmcnt);
* another wave of the same workgroup whose op was released (waited for) before a barrier
  the later wave has passed;
* the same workgroup in an earlier run (a batch re-run one workgroup at a time, a probe
  run of workgroup 0 before the grid, a run restarted): one workgroup runs once.

Any other pair is a race: across workgroups nothing orders two accesses, except two
atomic updates (``buffer_atomic_add_f32``, ``buffer_atomic_cmpswap``: each applies
whole, in some order; their marks carry :data:`ATOMIC`), which race any other access
alike.  Within one store, two lanes writing one byte with different values (the hardware
keeps one of them), or two workgroups of the batch writing one byte, are races too; an
atomic's lanes on one word all apply.

A buffer loaded before its first store (its loads were not recorded) stops the run at that
store (:class:`ReadFirst`); :func:`pipeline_mlir.emu.gemm.run_workgroups` restores the
buffers the run loaded with a record (saved at that first load, or at the first store after
one) and runs it again with that buffer's loads recorded from the start.  A buffer only
stored to is not restored: the run stores the same again.  A reader
stamp keeps one load per halfword: the last of its workgroup, with :data:`OTHERS` set once
a second workgroup read it.

Within :func:`lanes_watched` (an option of a caller's, not a race of the hardware's), a byte
stored by two lanes of one wave in two stores with no barrier passed between them, with
different values, is noted (:class:`LaneStores`): the hardware orders a wave's stores, but
a compiler's thread is a lane, and LLVM may reorder two stores of one lane to addresses that
differ in it (one lane's column + 1 and the same lane's column + 16).  The stamps name a
wave and an op, not a lane, so the option keeps a lane and a value per byte stored.
"""

from __future__ import annotations

import contextlib
import functools
import mmap
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.racy_loads import CROSS, deferred, taint_lanes

#: the stamp's low bits: the workgroup slot of the batch (at most 32 run in lockstep)
SLOT_BITS = 5
MAX_SLOTS = 1 << SLOT_BITS
#: a reader stamp's flag: another workgroup read the halfword too
OTHERS = 1 << 31
#: serials are below this (a stamp is 31 bits)
SERIAL_LIMIT = 1 << (31 - SLOT_BITS)
#: a store mark's flag: an atomic update wrote it (ordered with no other atomic update)
ATOMIC = 1 << 31
U32 = np.uint32


@dataclass(frozen=True)
class LaneStores:
    """Two lanes of wave ``wave`` store byte ``byte`` of buffer ``buffer`` (its name) in two
    stores, values ``values``, no barrier between them (:func:`lanes_watched`)."""
    buffer: str
    byte: int
    lanes: tuple[int, int]
    wave: int
    values: tuple[int, int]

    def __str__(self) -> str:
        return (f"lanes {self.lanes[0]} and {self.lanes[1]} of wave {self.wave} store byte "
                f"{self.byte} of buffer {self.buffer} in two stores, no barrier between "
                f"them, values {self.values[0]:#04x} and {self.values[1]:#04x}")


#: the lists :func:`lanes_watched` fills, innermost last
_WATCHED: list[list] = []


@contextlib.contextmanager
def lanes_watched():
    """Runs made in the block note each byte two lanes of one wave store with different
    values in two stores no barrier orders (module docstring); yields the list of
    :class:`LaneStores` they fill (a run of one process: ``--emulate-jobs`` workers' notes
    stay in the workers)."""
    found: list[LaneStores] = []
    _WATCHED.append(found)
    try:
        yield found
    finally:
        _WATCHED.pop()


class ReadFirst(Exception):
    """A store to buffer ``b``, loaded before in this run without its loads recorded."""

    def __init__(self, b: int) -> None:
        super().__init__(b)
        self.b = b


class RaceState:
    """The race check's state over a dispatch run: ``records[serial] = (run, wave index, op
    id, instruction)`` of the ops that stamped marks or readers; ``runs[run]``: the names of
    a run's workgroup slots; ``readers[b]``: the reader stamps of buffer ``b``;
    ``recorded``: the buffers whose loads are recorded from the start (``record_all``: every
    buffer's); ``unrecorded``: the buffers loaded with no record; ``saved``: buffer contents
    where it must be restored (:meth:`begin`).  Serials and runs count from ``next_serial``
    / ``next_run`` below ``limit`` (a worker process of ``--emulate-jobs`` counts in a range
    of its own)."""

    def __init__(self) -> None:
        self.records: dict[int, tuple] = {}
        self.runs: dict[int, tuple] = {}
        self.readers: dict[int, np.ndarray] = {}
        self.recorded: set[int] = set()
        self.unrecorded: set[int] = set()
        self.saved: dict[int, np.ndarray] = {}
        #: per buffer (its marks, which pages of them a store stamped: :func:`_pages`)
        self.pages: dict[int, tuple] = {}
        self.next_serial = 1
        self.limit = SERIAL_LIMIT
        self.next_run = 0
        #: record every load (a machine run by itself, which cannot be run again)
        self.record_all = True
        #: :func:`lanes_watched`'s list, and per (buffer, byte) its last store's
        #: ((run, slot, wave, epoch), lane, op, value)
        self.lane_stores = _WATCHED[-1] if _WATCHED else None
        self.lane_last: dict = {}
        #: loads racing another workgroup's store left to a taint run (racy_loads.py):
        #: ``defer`` (a run that will repeat), ``tainting`` (that run), ``racy[b]``: per
        #: halfword, the storing workgroups and their (wave, instruction); ``keys`` cached
        self.defer = self.tainting = False
        self.racy: dict[int, dict] = {}
        self.keys: dict[int, tuple] = {}
        self.codes: dict[str, int] = {}

    def begin(self) -> None:
        """A run of workgroups that can be run again starts: nothing saved or loaded
        unrecorded yet; loads recorded only where needed."""
        self.saved, self.unrecorded, self.record_all = {}, set(), False

    def new_run(self, names: list[str]) -> int:
        run = self.next_run
        self.next_run += 1
        self.runs[run] = tuple(names)
        return run

    def new_op(self, record: tuple) -> int:
        serial = self.next_serial
        if serial >= self.limit:
            raise EmuError(f"more than {self.limit} memory operations to track for the "
                           f"global race check in one run")
        self.next_serial += 1
        self.records[serial] = record
        return serial

    def share(self, part: int, parts: int) -> "RaceState":
        """A copy counting in part ``part`` of ``parts`` of the serials still free."""
        out = RaceState()
        out.records, out.runs = dict(self.records), dict(self.runs)
        out.readers, out.recorded = dict(self.readers), set(self.recorded)
        out.pages = dict(self.pages)
        out.record_all = self.record_all
        out.lane_stores, out.lane_last = self.lane_stores, self.lane_last
        # (defer stays False: a worker's races are reported, no taint run: racy_loads.py)
        span = (self.limit - self.next_serial) // parts
        out.next_serial = self.next_serial + part * span
        out.limit = out.next_serial + span
        out.next_run = self.next_run + part * (1 << 40)
        return out

    def new_since(self, other: "RaceState") -> tuple[dict, dict]:
        """(records, runs) this copy added to ``other``'s."""
        return ({k: v for k, v in self.records.items() if k not in other.records},
                {k: v for k, v in self.runs.items() if k not in other.runs})


def halfwords(idx: np.ndarray, unit: int, shift: int = 1) -> np.ndarray:
    """The mark indices (..., k) of the bytes ``idx`` (..., n) addresses in ``unit``s of
    4 (words) or 1 (bytes) bytes: halfwords (``shift`` 1) or bytes (``shift`` 0, a buffer
    marked per byte: :meth:`~pipeline_mlir.emu.machine.GlobalMemory.track`)."""
    if unit == 4:
        per = 4 >> shift
        hw = (idx[..., None] << (2 - shift)) + np.arange(per, dtype=np.int64)
        return hw.reshape(*idx.shape[:-1], per * idx.shape[-1])
    return idx >> shift


def _slots(shape: tuple) -> np.ndarray:
    return np.broadcast_to(np.arange(shape[0], dtype=U32).reshape((-1,) + (1,) *
                                                                  (len(shape) - 1)), shape)


def _stamp(glob, m, w, step) -> int:
    """The serial of the op being issued (one per op, shared by its calls)."""
    key = (m.run_key, m.cur_id)
    if m.stamping[0] != key:
        m.stamping = (key, glob.race.new_op((m.run_key, w.index, m.cur_id, step.ins)))
    return m.stamping[1]


def _lanes(idx, unit, mask, shift: int = 1):
    """(mark indices, their slots) of the active lanes of an access."""
    hw = halfwords(idx, unit, shift)
    slot = _slots(hw.shape)
    return (hw, slot) if mask is None else (hw[mask], slot[mask])


def new_marks(size: int, shift: int = 1) -> np.ndarray:
    """Zero marks (or reader stamps) of a buffer of ``size`` bytes: a uint32 per halfword
    (per byte when ``shift`` is 0), whole dwords (:func:`_keys` views halfword marks as a
    uint64 per dword).  A large one is an
    anonymous mapping of its own: its pages are zeroed as a store first writes them, 4 KiB
    at a time (numpy asks for 2 MiB pages for large arrays, whose first writes, scattered
    over C's rows, cost tenths of a second each on a busy machine)."""
    return zeros_mapped(((size + 3) >> 2) << (2 - shift), U32)


def zeros_mapped(count: int, dtype) -> np.ndarray:
    """``count`` zeros of ``dtype``; from 4 MiB up an anonymous mapping of 4 KiB pages,
    each zeroed when first written (:func:`new_marks`)."""
    nbytes = count * np.dtype(dtype).itemsize
    if nbytes < 4 << 20:
        return np.zeros(count, dtype=dtype)
    return np.frombuffer(mmap.mmap(-1, nbytes), dtype=dtype)


def _keys(marks, idx, unit: int, shift: int = 1):
    """(a view of ``marks``, the indices into it of an access's bytes ``idx`` (G, L, n) in
    ``unit``s) when each lane's elements are distinct whole marks: a uint64 per dword
    (``unit`` 4), a uint32 per halfword (bytes in aligned pairs) or per byte (marks per
    byte, ``shift`` 0, of bytes); else None."""
    if shift == 0:
        return (marks, idx) if unit == 1 else None
    if unit == 4:
        return marks.view(np.uint64), idx
    if idx.shape[-1] % 2 or (idx[..., 0] & 1).any():
        return None
    return marks, idx[..., ::2] >> 1


def on_store(glob, m, w, step, b: int, idx: np.ndarray, unit: int, mask, vals,
             atomic: bool = False) -> None:
    """Check and stamp a store of wave ``w`` to buffer ``b``: ``idx`` (G, L, n) its indices
    in ``unit``s of bytes (``vals`` (G, L, n) what each writes there), ``mask`` (G, L) the
    lanes that store (None: all); ``atomic``: an atomic update of whole dwords."""
    race = glob.race
    if race.lane_stores is not None and not atomic:
        _lane_stores(glob, m, w, b, idx, unit, mask, vals)
    if glob.undo is not None:        # the bytes it overwrites, for a batch run again
        buf = glob.buffers[b].view(U32) if unit == 4 else glob.buffers[b]
        at = idx if mask is None else idx[mask]
        glob.undo.append((buf, at, buf[at]))
    marks = glob.marks[b]
    if marks is None:
        if b in race.unrecorded and b not in race.recorded:
            raise ReadFirst(b)
        marks = glob.marks[b] = new_marks(len(glob.buffers[b]), glob.shifts[b])
        fresh_pages(race, b, marks)
    if b not in race.saved and (b in race.readers or b in race.recorded):
        race.saved[b] = glob.buffers[b].copy()
    stamp = (U32(_stamp(glob, m, w, step)) << U32(SLOT_BITS)) | U32(ATOMIC if atomic else 0)
    shift = glob.shifts[b]
    keyed = _keys(marks, idx, unit, shift)
    pages = _pages(race, b, marks)
    if keyed is None:           # bytes that are no whole marks: one by one
        _within(glob, m, w, step, b, idx, unit, mask, vals)
        hw, slot = _lanes(idx, unit, mask, shift)
        _earlier(glob, m, w, step, b, hw, slot, marks[hw])
        marks[hw] = stamp | slot
        pages[hw >> PAGE_BITS] = True
        return
    view, key = keyed
    wide = view.dtype == np.uint64            # a dword: the stamp in both halfwords
    stamps = _slot_stamps(key.shape[0], wide) + \
        (np.uint64(int(stamp) * (1 + (1 << 32))) if wide else stamp)
    if mask is not None:
        key, stamps = key[mask], stamps[np.nonzero(mask)[0], 0]
    page = key >> (PAGE_BITS - 1 if wide else PAGE_BITS)
    seen = np.ones(key.shape, dtype=bool) if b in race.readers else pages[page]
    if np.count_nonzero(seen):  # only pages stamped before: no page is read in vain
        near = key[seen]
        prev = view[near]
        if np.count_nonzero(prev) or b in race.readers:
            slot = np.broadcast_to(stamps & view.dtype.type(MAX_SLOTS - 1),
                                   key.shape)[seen].astype(U32)
            if wide:
                near, slot = halfwords(near[:, None], 4), np.repeat(slot[:, None], 2, axis=1)
            _earlier(glob, m, w, step, b, near, slot, prev.view(U32).reshape(near.shape),
                     atomic)
    # two lanes (or workgroups) of this store on one element: each writes a token, reads
    token = _tokens(key.shape, view.dtype)
    view[key] = token
    if np.count_nonzero(view[key] != token) and not atomic:
        _within(glob, m, w, step, b, idx, unit, mask, vals)
    view[key] = stamps
    pages[page] = True


@functools.lru_cache(maxsize=None)
def _slot_stamps(G: int, wide: bool) -> np.ndarray:
    """(G, 1, 1) each workgroup slot's part of a store's marks: the slot, in both halfwords
    of a dword's mark when ``wide`` (uint64), else in its uint32 mark (read only)."""
    slots = np.arange(G, dtype=np.uint64 if wide else U32)
    out = (slots + (slots << np.uint64(32)) if wide else slots)[:, None, None]
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=64)
def _tokens(shape: tuple, dtype) -> np.ndarray:
    """0, 1, ... in ``shape`` (read only): the tokens a store's elements write to find
    two of them on one element (:func:`on_store`)."""
    out = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    out.flags.writeable = False
    return out


#: marks per page of the page map (4096 bytes of uint32 marks): ``hw >> PAGE_BITS``
PAGE_BITS = 10


def _lane_stores(glob, m, w, b: int, idx, unit: int, mask, vals) -> None:
    """Note (:func:`lanes_watched`) the bytes of this store that another lane of its wave
    stored with another value in an earlier store of the same epoch (one byte per pair)."""
    race = glob.race
    on = np.ones(idx.shape[:2], dtype=bool) if mask is None else np.asarray(mask)
    for g, lane in zip(*np.nonzero(on)):
        who = (m.run_key, int(g), w.index, w.epoch)
        for e, v in zip(np.asarray(idx[g, lane]).reshape(-1).tolist(),
                        np.asarray(vals[g, lane]).reshape(-1).tolist()):
            for k in range(unit):
                byte, value = e * unit + k, (int(v) >> (8 * k)) & 0xFF
                prev = race.lane_last.get((b, byte))
                race.lane_last[(b, byte)] = (who, int(lane), m.cur_id, value)
                if prev is not None and prev[0] == who and prev[1] != lane and \
                        prev[2] != m.cur_id and prev[3] != value:
                    race.lane_stores.append(LaneStores(glob.names[b], byte,
                                                       (prev[1], int(lane)), w.index,
                                                       (prev[3], value)))


def _pages(race, b: int, marks) -> np.ndarray:
    """Per page of ``marks``, whether any of its marks may be nonzero: a page no store
    stamped is not read (its first read would cost the system a page of zeros, and the
    store's write another).  Marks the map was not made with are taken as all stamped."""
    got = race.pages.get(b)
    if got is None or got[0] is not marks:
        got = race.pages[b] = (marks, np.ones((len(marks) >> PAGE_BITS) + 1, dtype=bool))
    return got[1]


def stored_bytes(marks: np.ndarray, size: int, pages=None, shift: int = 1) -> np.ndarray:
    """Per byte of a buffer of ``size`` bytes, whether a store wrote it: both bytes of each
    halfword whose mark (``marks``: a uint32 per halfword) is nonzero, or each byte whose
    mark is (``shift`` 0: a mark per byte).  ``pages``: per page of halfword marks
    (:data:`PAGE_BITS`), whether one may be nonzero (:func:`_pages`); when at most a
    quarter may, the others are not read (their memory, never written, is not faulted in)
    and their bytes are False."""
    if shift == 0:
        return marks[:size] != 0
    marks = marks[:(size + 1) >> 1]
    if pages is None or np.count_nonzero(pages) * 4 > len(pages):
        at = slice(None)
        out = np.empty(len(marks), dtype=np.uint16)
    else:
        per = 1 << PAGE_BITS
        at = (np.flatnonzero(pages)[:, None] * per + np.arange(per)).reshape(-1)
        at = at[at < len(marks)]
        out = zeros_mapped(len(marks), np.uint16)     # written on the stamped pages only
    # a halfword's flag as its two bytes, 1 or 0 (np.repeat(marks != 0, 2), 4x faster)
    out[at] = (marks[at] != 0).astype(np.uint16) * np.uint16(0x0101)
    return out.view(np.bool_)[:size]


def fresh_pages(race, b: int, marks) -> None:
    """``marks`` (of buffer ``b``) are new, all zero."""
    race.pages[b] = (marks, np.zeros((len(marks) >> PAGE_BITS) + 1, dtype=bool))


def _earlier(glob, m, w, step, b, hw, slot, prev, atomic: bool = False) -> None:
    """Check a store's halfwords ``hw`` (slots ``slot``) against the stores (``prev``: their
    marks; an ``atomic`` update's not against atomic ones) and the loads recorded before
    it."""
    if atomic:
        prev = np.where(prev & U32(ATOMIC), U32(0), prev)
    if prev.any():
        _conflicts(glob, m, w, step, b, hw, slot, prev, "write", "write")
    readers = glob.race.readers.get(b)
    if readers is not None:
        prev = readers[hw]
        if prev.any():
            _conflicts(glob, m, w, step, b, hw, slot, prev, "write", "read")


def on_load(glob, m, w, step, b: int, idx: np.ndarray, unit: int, mask) -> None:
    """Check a load of wave ``w`` from buffer ``b`` against the stores before it and record
    it (as :func:`on_store`); only noted when nothing stored to the buffer yet."""
    marks = glob.marks[b]
    race = glob.race
    if race.tainting:       # the taint run: which lanes read what another store races
        taint_lanes(glob, m, w, step, b, halfwords(idx, unit, glob.shifts[b]), unit, mask)
    if marks is None and b not in race.recorded and not race.record_all:
        race.unrecorded.add(b)
        return
    hw, slot = _lanes(idx, unit, mask, glob.shifts[b])
    if marks is not None:
        seen = _pages(race, b, marks)[hw >> PAGE_BITS]
        if seen.any():
            prev = marks[hw[seen]]
            if prev.any():
                _conflicts(glob, m, w, step, b, hw[seen], slot[seen], prev, "read", "write")
    _record_read(glob, m, w, step, b, hw, slot)


def _record_read(glob, m, w, step, b, hw, slot) -> None:
    """Stamp the readers of halfwords ``hw``: this load, with :data:`OTHERS` kept, and set
    where another workgroup's load was there or this load's workgroups share one."""
    race = glob.race
    if b not in race.saved and not race.record_all:      # a run that may run again
        race.saved[b] = glob.buffers[b].copy()
    readers = race.readers.get(b)
    if readers is None:
        readers = race.readers[b] = new_marks(len(glob.buffers[b]), glob.shifts[b])
    hw, slot = hw.reshape(-1), slot.reshape(-1)
    new = (U32(_stamp(glob, m, w, step)) << U32(SLOT_BITS)) | slot
    prev = readers[hw]
    if prev.any():
        flag = prev & U32(OTHERS)
        for stamp in np.unique(prev[prev != 0] & U32(OTHERS - 1)).tolist():
            who = workgroup_of(glob, stamp)
            at = (prev & U32(OTHERS - 1)) == stamp
            flag[at & (np.asarray(m.slot_names, dtype=object)[slot] != who)] = OTHERS
        new = new | flag
    if len(m.slot_names) > 1:
        order = np.argsort(hw, kind="stable")
        same = hw[order][1:] == hw[order][:-1]
        if same.any():                  # two workgroups of the batch read one halfword
            other = same & (slot[order][1:] != slot[order][:-1])
            new[order[1:][other]] |= U32(OTHERS)
    readers[hw] = new


def workgroup_of(glob, stamp: int) -> str:
    run = glob.race.records[stamp >> SLOT_BITS][0]
    return glob.race.runs[run][stamp & (MAX_SLOTS - 1)]


def _within(glob, m, w, step, b, idx, unit, mask, vals) -> None:
    """Two lanes of one store writing one byte: a race when their values differ or they
    are of two workgroups of the batch."""
    slot = _slots(idx.shape)
    keys, v, s = (idx, vals, slot) if mask is None else (idx[mask], vals[mask], slot[mask])
    keys = keys.reshape(-1)
    if keys.size < 2:
        return
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    dup = np.flatnonzero(sk[1:] == sk[:-1])
    if not dup.size:
        return
    v, s = v.reshape(-1), s.reshape(-1)
    a, c = order[dup], order[dup + 1]
    bad = (v[a] != v[c]) | (s[a] != s[c])
    if not bad.any():
        return
    i = int(np.argmax(bad))
    first, second = (_lane(int(a[i]), idx.shape, mask), _lane(int(c[i]), idx.shape, mask))
    byte = int(sk[dup[i]]) * unit
    if first[0] != second[0]:
        why = (f"workgroups {m.slot_names[first[0]]} and {m.slot_names[second[0]]} "
               f"(lanes {first[1]} and {second[1]}) store to it: nothing orders them")
    else:
        why = (f"lanes {first[1]} and {second[1]} of workgroup {m.slot_names[first[0]]} "
               f"store different values to it (the hardware keeps one)")
    m.finding("global-race", w, step, f"global write of {_where(glob, b, byte)} within "
                                      f"this one store: {why}")


def _lane(pos: int, shape: tuple, mask) -> tuple[int, int]:
    """(slot, lane) of element ``pos`` of an op's (masked) flattened indices."""
    per = shape[-1]
    if mask is None:
        return divmod(pos // per, shape[1])
    g, lane = np.argwhere(mask)[pos // per]
    return int(g), int(lane)


def _at_mark(glob, b: int, mark: int) -> str:
    """:func:`_where` of the first byte of buffer ``b``'s mark ``mark``."""
    return _where(glob, b, mark << glob.shifts[b])


def _where(glob, b: int, byte: int) -> str:
    return (f"buffer {glob.names[b]} byte {byte} (address "
            f"0x{((b + 1) << 32) + byte:x})")


def _conflicts(glob, m, w, step, b, hw, slot, prev, what: str, earlier: str) -> None:
    """Report the first earlier access in ``prev`` (stamps, one per halfword ``hw`` of slot
    ``slot``; ``earlier``: "write" or "read") that is not ordered before this access
    (module docstring)."""
    flat = prev.reshape(-1)
    nz = np.flatnonzero(flat)
    stamps, slots, where = flat[nz], slot.reshape(-1)[nz], hw.reshape(-1)[nz]
    pairs, first = np.unique(np.stack([stamps, slots]), axis=1, return_index=True)
    for (stamp, g), at in sorted(zip(pairs.T.tolist(), first.tolist()), key=lambda p: p[1]):
        run, wave, op, ins = glob.race.records[(stamp & (OTHERS - 1)) >> SLOT_BITS]
        writer = glob.race.runs[run][stamp & (MAX_SLOTS - 1)]
        why = _unordered(m, w, g, run, wave, op, writer)
        if why is None and stamp & OTHERS and earlier == "read":
            why = "another workgroup read it too: nothing orders them"
        if why is None:
            continue
        text = (f"global {what} of {_at_mark(glob, b, int(where[at]))} by workgroup "
                f"{m.slot_names[g]} races the {earlier} by wave {wave} of workgroup "
                f"{writer} at 0x{ins.addr:04x} '{ins.text}' ({why})")
        if why.startswith(CROSS) and what != earlier and deferred(
                glob.race, b, where[(stamps == stamp) & (slots == g)],
                m.slot_names[g] if what == "write" else writer, text):
            continue        # a load and another workgroup's store: the taint run decides
        m.finding("global-race", w, step, text)
        return


def _unordered(m, w, g: int, run: int, wave: int, op: int, writer: str):
    """Why the access (``run``, ``wave``, ``op``) of workgroup ``writer`` is not ordered
    before the access of wave ``w`` in slot ``g``, or None when it is."""
    if writer != m.slot_names[g]:
        return "another workgroup: nothing orders them"
    if run not in m.run_keys or wave == w.index:
        return None                      # an earlier run of this workgroup, or this wave
    if int(m.op_rel[op + 1]) < w.epoch:
        return None
    return release_state(m.ops[op])


def release_state(op) -> str:
    """For a race finding (LDS or global): whether the earlier ``op``'s wave has waited for
    it, and when."""
    return ("not yet waited for" if not op.released else
            f"waited for at epoch {op.release_epoch}, no barrier since")


def crossed(glob, touched: dict, change: tuple, read: bool = False) -> None:
    """Before the store marks ``change`` (``read``: the reader stamps) of one worker process
    of ``--emulate-jobs`` (:func:`pipeline_mlir.emu.pool.changes` of buffer ``b``'s marks or
    readers) are merged: a race when an earlier process's workgroups stored to one of its
    halfwords, or loaded one it stores to (``touched``: per buffer and ``"write"`` /
    ``"read"``, the stamps of the processes merged so far, :func:`touch`).  A buffer a
    process loaded without recording its loads and another stored to never gets here: the
    pool runs it again, its loads recorded (``pool._check_unrecorded``)."""
    b, lo, hi, bits, values = change
    mask = np.unpackbits(bits, count=hi - lo).astype(bool)
    for kind in ("write",) if read else ("write", "read"):
        seen = touched.get(b, {}).get(kind)
        both = None if seen is None else (seen[lo:hi] != 0) & mask
        if both is not None and kind == "write" and not read:   # two atomics: no race
            later_marks = np.zeros(hi - lo, dtype=U32)
            later_marks[mask] = values
            both &= ~((seen[lo:hi] & U32(ATOMIC)) & (later_marks & U32(ATOMIC))).astype(bool)
        if both is None or not both.any():
            continue
        at = int(np.argmax(both))
        later = int(values[int(np.count_nonzero(mask[:at]))]) & (OTHERS - 1)
        earlier = int(seen[lo + at]) & (OTHERS - 1)
        run, wave, _op, ins = glob.race.records[later >> SLOT_BITS]
        names = glob.race.runs[run]
        _e_run, e_wave, _e_op, e_ins = glob.race.records[earlier >> SLOT_BITS]
        text = "workgroup " + names[0] if len(names) == 1 else f"workgroups {','.join(names)}"
        raise Finding("global-race",
                      f"global {'read' if read else 'write'} of {_at_mark(glob, b, lo + at)} "
                      f"by workgroup {workgroup_of(glob, later)} races the {kind} by wave "
                      f"{e_wave} of workgroup {workgroup_of(glob, earlier)} at "
                      f"0x{e_ins.addr:04x} '{e_ins.text}' (another workgroup: nothing orders "
                      f"them; run by two processes)", wave=f"wave {wave} of {text}", instr=ins)


def touch(glob, touched: dict, change: tuple, read: bool = False) -> None:
    """Add the stamps of ``change`` (:func:`crossed`) to ``touched``, once every change of
    its process was checked."""
    b, lo, hi, bits, values = change
    mask = np.unpackbits(bits, count=hi - lo).astype(bool)
    kinds = touched.setdefault(b, {})
    kind = "read" if read else "write"
    if kind not in kinds:
        kinds[kind] = new_marks(len(glob.buffers[b]), glob.shifts[b])
    kinds[kind][lo:hi][mask] = values
