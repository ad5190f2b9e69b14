"""Loads that race another workgroup's store, kept for the taint run (:mod:`~pipeline_mlir.emu.taint`).

A load of one workgroup and a store of another to one byte race whatever order they run
in; but a kernel may load bytes it then discards (IREE's edge workgroup reads whole rows
of C past its last column, into the next row, which another workgroup writes, and
selects a pad for those elements): the race is benign when no loaded value that could
differ reaches anything observable.  A run of :func:`~pipeline_mlir.emu.gemm.run_workgroups`
(one process) first *defers* such pairs (:attr:`RaceState.defer`): each byte's halfword is
noted with the workgroup whose store it races (:func:`deferred`), and the run goes on.
If it noted any, the run is repeated from the memory it started with, *tainting*: a load
lane that reads a noted halfword some other workgroup than its own stores to marks the
dwords it writes tainted (:func:`taint_lanes`), the machine follows the taint
(:mod:`~pipeline_mlir.emu.taint`) and a tainted value that reaches an observable use is
the race, reported there naming the load, the store and the use.  Races the repeated run
meets on halfwords not noted (none when it runs as the first did) are reported as usual.
No MLIR here.
"""

from __future__ import annotations

import numpy as np

#: the reasons :func:`~pipeline_mlir.emu.globalrace._unordered` gives for two workgroups
CROSS = "another workgroup"


def deferred(race, b: int, hws: np.ndarray, storer: str, text: str) -> bool:
    """Whether a load and a store of two workgroups on halfwords ``hws`` of buffer ``b``
    are left to the taint run (``storer``: the storing workgroup, ``text``: the race as
    the check words it): noted in the first run, True in the taint run when noted then."""
    if not race.defer:
        return False
    noted = race.racy.setdefault(b, {})
    hws = hws.reshape(-1)
    if race.tainting:
        keys, codes = _table(race, b)
        if not len(keys):
            return False
        pos = np.minimum(np.searchsorted(keys, hws), len(keys) - 1)
        c = codes[pos]
        if (keys[pos] != hws).any() or ((c != _code(race, storer)) & (c != MANY)).any():
            return False
        return all(storer in noted[h] for h in hws[c == MANY].tolist())
    for h in hws.tolist():
        noted.setdefault(h, {}).setdefault(storer, text)
    race.keys.pop(b, None)
    return True


#: a noted halfword that two or more workgroups store to (:func:`_table`)
MANY = -1


def _code(race, name: str) -> int:
    """A number for workgroup ``name`` (one per name, for :func:`_table`)."""
    return race.codes.setdefault(name, len(race.codes))


def _table(race, b: int) -> tuple[np.ndarray, np.ndarray]:
    """(the noted halfwords of buffer ``b``, sorted; each one's storing workgroup's
    :func:`_code`, or :data:`MANY`), made once per buffer and run."""
    got = race.keys.get(b)
    if got is None:
        noted = race.racy.get(b, {})
        keys = np.array(sorted(noted), dtype=np.int64)
        codes = np.array([_code(race, next(iter(noted[h]))) if len(noted[h]) == 1 else MANY
                          for h in keys.tolist()], dtype=np.int64)
        got = race.keys[b] = (keys, codes)
    return got


def taint_lanes(glob, m, w, step, b: int, hw: np.ndarray, unit: int, mask) -> None:
    """In the taint run, note (``m.load_taint``) per lane and dword of this load (of ``hw``:
    (G, L, k) the marks of its bytes, in ``unit``s of 4 or 1 bytes; ``mask``: the active
    lanes, None for all) whether it reads a noted halfword another workgroup stores to;
    the first such lane's description goes to ``m.load_origin``."""
    G, L, k = hw.shape
    dwords = max(1, k // 4) if unit == 1 else _dwords(hw, glob.shifts[b])
    race = glob.race
    keys, codes = _table(race, b) if b in race.racy else (None, None)
    if keys is None or not len(keys):
        m.load_taint.append(np.zeros((G, L, dwords), dtype=bool))
        return
    pos = np.minimum(np.searchsorted(keys, hw), len(keys) - 1)
    c = codes[pos]
    own = np.array([_code(race, n) for n in m.slot_names], dtype=np.int64)[:, None, None]
    hit = (keys[pos] == hw) & ((c == MANY) | (c != own))
    if mask is not None:
        hit &= np.broadcast_to(np.asarray(mask)[..., None], hit.shape)
    m.load_taint.append(hit.reshape(G, L, dwords, k // dwords).any(axis=-1))
    if m.load_origin is None and hit.any():
        g, lane, e = (int(x) for x in np.argwhere(hit)[0])
        storers = race.racy[b][int(hw[g, lane, e])]
        text = next(t for s, t in storers.items() if s != m.slot_names[g])
        m.load_origin = (f"{text}: lane {lane} of workgroup {m.slot_names[g]} loads it at "
                         f"0x{step.ins.addr:04x} '{step.ins.text}' (wave {w.index})")


def _dwords(hw: np.ndarray, shift: int) -> int:
    """Dwords of an access of whole dwords whose marks are ``hw`` (2 per dword, or 4 when
    marked per byte: ``shift`` 0)."""
    return hw.shape[-1] // (4 >> shift)


def again_tainting(race) -> bool:
    """After a run that deferred races (:func:`deferred`): run it again, tainting."""
    if not race.defer or race.tainting or not any(race.racy.values()):
        return False
    race.tainting = True
    return True
