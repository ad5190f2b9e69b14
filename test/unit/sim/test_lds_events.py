"""The issued-stream LDS model (``pipeline_mlir/sim/lds_events.py``) on small streams: a
register-staged copy (global load, LDS store of its registers, lgkmcnt wait, barrier, read)
is safe; without the barrier, with the wait after the barrier, or with a read of another
wave still in flight when the store overwrites it, a hazard at the event that suffers it.
A DMA copy needs a vmcnt wait instead; a read's registers used by an MFMA complete it (the
wait LLVM inserts for the register), which a WAR check counts."""

from __future__ import annotations

from pipeline_mlir.sim.lds_events import (BARRIER, COPY, LOAD, READ, STORE, USE, WAIT, Event,
                                          check)


def _stream(*kinds) -> list[Event]:
    """Events from short names: ``load``, ``store`` (of the last load), ``copy``, ``read``,
    ``use`` (of the last read), ``vm0`` / ``lgkm0`` waits, ``bar``."""
    out: list[Event] = []
    last = {}
    for i, k in enumerate(kinds):
        if k == "load":
            out.append(Event(LOAD, f"e{i}"))
        elif k == "store":
            out.append(Event(STORE, f"e{i}", buffer="x", needs=(last[LOAD],)))
        elif k == "copy":
            out.append(Event(COPY, f"e{i}", buffer="x"))
        elif k == "read":
            out.append(Event(READ, f"e{i}", buffer="x"))
        elif k == "use":
            out.append(Event(USE, f"e{i}", needs=(last[READ],)))
        elif k in ("vm0", "lgkm0"):
            out.append(Event(WAIT, f"e{i}", **{k[:-1]: 0}))
        else:
            out.append(Event(BARRIER, f"e{i}"))
        last[out[-1].kind] = i
    return out


def _found(*kinds) -> list[tuple[str, int]]:
    return [(h.kind, h.at) for h in check(_stream(*kinds))]


def test_a_staged_copy_in_order_is_safe():
    assert _found("load", "store", "lgkm0", "bar", "read", "use", "bar", "load", "store") == []


def test_a_staged_store_without_a_barrier_before_the_read():
    assert _found("load", "store", "lgkm0", "read") == [("raw", 3)]


def test_a_staged_store_whose_wait_follows_the_barrier():
    assert _found("load", "store", "bar", "lgkm0", "read") == [("raw", 4)]


def test_a_staged_store_over_a_read_in_flight():
    # the read's registers used (completed) but no barrier before the next store
    assert _found("read", "use", "load", "store") == [("war", 3)]
    assert _found("read", "load", "store") == [("war", 2)]


def test_a_dma_copy_needs_its_vmcnt_wait():
    assert _found("copy", "lgkm0", "bar", "read") == [("raw", 3)]
    assert _found("copy", "vm0", "bar", "read") == []


def test_a_store_waits_for_its_load_through_the_register():
    """The store's registers are its load's: the load completes at the store, so a vmcnt
    wait is not what the store's readers need (its lgkmcnt wait is)."""
    assert _found("load", "store", "vm0", "bar", "read") == [("raw", 4)]


def test_one_wave_orders_its_own_accesses_without_a_barrier():
    # a workgroup of one wave: completion alone orders a write before a read and a read
    # before a write (no other wave; its barriers are no instruction)
    assert [(h.kind, h.at) for h in check(_stream("load", "store", "lgkm0", "read"),
                                          waves=1)] == []
    assert [(h.kind, h.at) for h in check(_stream("copy", "vm0", "read"), waves=1)] == []
    assert [(h.kind, h.at) for h in check(_stream("copy", "read"), waves=1)] == [("raw", 1)]
    # ... and an LDS read and a staged LDS store, both on lgkmcnt, complete in the order
    # the wave issues them: nothing between them is needed; a DMA copy (vmcnt) may
    # overtake a read still in flight
    assert [(h.kind, h.at) for h in check(_stream("read", "load", "store"), waves=1)] == []
    assert [(h.kind, h.at) for h in check(_stream("load", "store", "read"), waves=1)] == []
    assert [(h.kind, h.at) for h in check(_stream("read", "copy"), waves=1)] == [("war", 1)]
    assert _found("read", "load", "store") == [("war", 2)]   # more waves: a wait, a barrier
    assert _found("copy", "vm0", "read") == [("raw", 2)]      # more waves: the barrier too
