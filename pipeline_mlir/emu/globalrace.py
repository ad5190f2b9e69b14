"""Races in global memory: two accesses to one byte, at least one a store, by waves that
nothing orders.

The store marks of :class:`~pipeline_mlir.emu.machine.GlobalMemory` (one ``uint32`` per
halfword of a buffer; 0: never stored) hold the *stamp* of the store that last wrote the
halfword: ``serial << SLOT_BITS | slot``, the store's serial (:class:`Writers`: its run,
wave, op and instruction) and the workgroup slot of the batch that ran it.  A buffer gets
its marks when it is first stored to (C and a launch's outputs from the start: what their
verdict reads); loads of a buffer without marks (A and B of a GEMM) cost nothing.

At issue (the epochs and releases of :meth:`~pipeline_mlir.emu.machine.Machine.lds_check`),
a store is checked against the stamps of the halfwords it writes and a load against those
it reads.  The earlier store is ordered before the access when it is by

* the same wave (its memory operations complete in order on vmcnt);
* another wave of the same workgroup whose op was released (waited for) before a barrier
  the accessing wave has passed;
* the same workgroup in an earlier run (a batch re-run one workgroup at a time, or a probe
  run of workgroup 0 before the grid): one workgroup runs once in a dispatch.

Any other pair is a race: across workgroups nothing orders two accesses (atomics are
exempt; the emulator runs none).  Within one store, two lanes writing one byte with
different values (the hardware keeps one of them), or two workgroups of the batch writing
one byte, are races too.

Not seen: a load that comes before, in the emulator's order, the store it races (no load is
recorded: the check reads the marks only).  See docs/emulator.md.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.errors import EmuError, Finding

#: the stamp's low bits: the workgroup slot of the batch (at most 32 run in lockstep)
SLOT_BITS = 5
MAX_SLOTS = 1 << SLOT_BITS
#: serials are below this (a stamp is 32 bits)
SERIAL_LIMIT = 1 << (32 - SLOT_BITS)
U32 = np.uint32


class Writers:
    """The stores that stamped the marks: ``records[serial] = (run, wave index, op id,
    instruction)``; ``runs[run]``: the names of the run's workgroup slots.  Serials and runs
    are numbered from ``next_serial`` / ``next_run`` up to ``limit`` (a worker process of
    ``--emulate-jobs`` numbers in a range of its own)."""

    def __init__(self) -> None:
        self.records: dict[int, tuple] = {}
        self.runs: dict[int, tuple] = {}
        self.next_serial = 1
        self.limit = SERIAL_LIMIT
        self.next_run = 0

    def new_run(self, names: list[str]) -> int:
        run = self.next_run
        self.next_run += 1
        self.runs[run] = tuple(names)
        return run

    def new_store(self, record: tuple) -> int:
        serial = self.next_serial
        if serial >= self.limit:
            raise EmuError(f"more than {self.limit} stores to track for the global race "
                           f"check in one run")
        self.next_serial += 1
        self.records[serial] = record
        return serial

    def share(self, part: int, parts: int) -> "Writers":
        """A copy numbering in part ``part`` of ``parts`` of the serials still free."""
        out = Writers()
        out.records, out.runs = dict(self.records), dict(self.runs)
        span = (self.limit - self.next_serial) // parts
        out.next_serial = self.next_serial + part * span
        out.limit = out.next_serial + span
        out.next_run = self.next_run + part * (1 << 40)
        return out

    def new_since(self, other: "Writers") -> tuple[dict, dict]:
        """(records, runs) this copy added to ``other``'s."""
        return ({k: v for k, v in self.records.items() if k not in other.records},
                {k: v for k, v in self.runs.items() if k not in other.runs})


def halfwords(idx: np.ndarray, unit: int) -> np.ndarray:
    """The halfword indices (..., k) of the bytes ``idx`` (..., n) addresses in ``unit``s of
    4 (words) or 1 (bytes) bytes."""
    if unit == 4:
        hw = (idx[..., None] << 1) + np.arange(2, dtype=np.int64)
        return hw.reshape(*idx.shape[:-1], 2 * idx.shape[-1])
    return idx >> 1


def _slots(shape: tuple) -> np.ndarray:
    return np.broadcast_to(np.arange(shape[0], dtype=U32).reshape((-1,) + (1,) *
                                                                  (len(shape) - 1)), shape)


def on_store(glob, m, w, step, b: int, idx: np.ndarray, unit: int, mask, vals) -> None:
    """Check and stamp a store of wave ``w`` to buffer ``b``: ``idx`` (G, L, n) its indices
    in ``unit``s of bytes (``vals`` (G, L, n) what each writes there), ``mask`` (G, L) the
    lanes that store (None: all)."""
    marks = glob.marks[b]
    if marks is None:
        marks = glob.marks[b] = np.zeros((len(glob.buffers[b]) + 1) >> 1, dtype=U32)
    _within(glob, m, w, step, b, idx, unit, mask, vals)
    hw = halfwords(idx, unit)
    slot = _slots(hw.shape)
    if mask is not None:
        hw, slot = hw[mask], slot[mask]
    prev = marks[hw]
    if prev.any():
        _conflicts(glob, m, w, step, b, hw, slot, prev, "write")
    key = (m.run_key, m.cur_id)
    if m.stamping[0] != key:
        m.stamping = (key, glob.writers.new_store((m.run_key, w.index, m.cur_id, step.ins)))
    marks[hw] = (U32(m.stamping[1]) << U32(SLOT_BITS)) | slot


def on_load(glob, m, w, step, b: int, idx: np.ndarray, unit: int, mask) -> None:
    """Check a load of wave ``w`` from buffer ``b`` against the stores before it (as
    :func:`on_store`; nothing to do when the buffer was never stored to)."""
    marks = glob.marks[b]
    if marks is None:
        return
    hw = halfwords(idx, unit)
    slot = _slots(hw.shape)
    if mask is not None:
        hw, slot = hw[mask], slot[mask]
    prev = marks[hw]
    if prev.any():
        _conflicts(glob, m, w, step, b, hw, slot, prev, "read")


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


def _where(glob, b: int, byte: int) -> str:
    return f"buffer {glob.names[b]} (binding {b}) byte {byte} (address 0x{((b + 1) << 32) + byte:x})"


def _conflicts(glob, m, w, step, b, hw, slot, prev, what: str) -> None:
    """Report the first earlier store in ``prev`` (stamps, one per halfword ``hw`` of slot
    ``slot``) that is not ordered before this access (module docstring)."""
    nz = np.flatnonzero(prev.reshape(-1))
    stamps, slots, where = prev.reshape(-1)[nz], slot.reshape(-1)[nz], hw.reshape(-1)[nz]
    pairs, first = np.unique(np.stack([stamps, slots]), axis=1, return_index=True)
    for (stamp, g), at in sorted(zip(pairs.T.tolist(), first.tolist()), key=lambda p: p[1]):
        run, wave, op, ins = glob.writers.records[stamp >> SLOT_BITS]
        pslot = stamp & (MAX_SLOTS - 1)
        writer = glob.writers.runs[run][pslot]
        why = _unordered(m, w, g, run, pslot, wave, op, writer)
        if why is None:
            continue
        m.finding("global-race", w, step,
                  f"global {what} of {_where(glob, b, 2 * int(where[at]))} by workgroup "
                  f"{m.slot_names[g]} races the write by wave {wave} of workgroup {writer} "
                  f"at 0x{ins.addr:04x} '{ins.text}' ({why})")
        return


def _unordered(m, w, g: int, run: int, pslot: int, wave: int, op: int, writer: str):
    """Why the store (``run``, slot ``pslot``, ``wave``, ``op``) is not ordered before the
    access of wave ``w`` in slot ``g``, or None when it is."""
    if writer != m.slot_names[g]:
        return "another workgroup: nothing orders them"
    if run != m.run_key or wave == w.index:
        return None                      # an earlier run of this workgroup, or this wave
    rel = int(m.op_rel[op + 1])
    if rel < w.epoch:
        return None
    op_rec = m.ops[op]
    return ("not yet waited for" if not op_rec.released else
            f"waited for at epoch {op_rec.release_epoch}, no barrier since")


def crossed(glob, touched: dict, change: tuple) -> None:
    """Before the store marks ``change`` of one worker process of ``--emulate-jobs``
    (:func:`pipeline_mlir.emu.pool.changes` of buffer ``b``'s marks) are merged: a race when
    an earlier process's workgroups stored to one of its halfwords (``touched``: per buffer,
    the halfwords the processes merged so far stored to)."""
    b, lo, hi, bits, values = change
    mask = np.unpackbits(bits, count=hi - lo).astype(bool)
    seen = touched.setdefault(b, np.zeros(len(glob.marks[b]), dtype=bool))
    both = seen[lo:hi] & mask
    if both.any():
        at = int(np.argmax(both))
        later = int(values[int(np.count_nonzero(mask[:at]))])
        run, wave, _op, ins = glob.writers.records[later >> SLOT_BITS]
        names = glob.writers.runs[run]
        who = names[later & (MAX_SLOTS - 1)]
        e_run, e_wave, _e_op, e_ins = glob.writers.records[int(glob.marks[b][lo + at]) >>
                                                           SLOT_BITS]
        e_who = glob.writers.runs[e_run][int(glob.marks[b][lo + at]) & (MAX_SLOTS - 1)]
        text = "workgroup " + names[0] if len(names) == 1 else f"workgroups {','.join(names)}"
        raise Finding("global-race",
                      f"global write of {_where(glob, b, 2 * (lo + at))} by workgroup {who} "
                      f"races the write by wave {e_wave} of workgroup {e_who} at "
                      f"0x{e_ins.addr:04x} '{e_ins.text}' (another workgroup: nothing orders "
                      f"them; run by two processes)", wave=f"wave {wave} of {text}", instr=ins)
    seen[lo:hi] |= mask
