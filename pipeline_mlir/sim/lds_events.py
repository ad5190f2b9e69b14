"""LDS ordering of a kernel as issued: copies, register-staged LDS stores, reads, waits and
barriers, one event per instruction, checked like the functional model checks a schedule.

:mod:`pipeline_mlir.sim.functional` checks a schedule's logical ops, in which every global
load is a direct-to-LDS copy.  After ``sched-stage-copies`` some copies are two
instructions: a global load into registers (counted by ``vmcnt``) and an LDS store of
those registers (counted by ``lgkmcnt``), which the schedule never saw.  This model takes
the stream a wave issues (the caller extracts it from the IR:
:mod:`pipeline_mlir.analysis.lds_order`) and applies the same rules to it:

* **Counters.** ``vmcnt`` counts the copies and the global loads and stores, ``lgkmcnt`` the
  LDS reads and stores, one instruction each; each completes in issue order, so
  ``s_waitcnt vmcnt(n)`` completes all but the ``n`` issued last.  An instruction that uses
  loaded registers (a staged store the registers of its load, an MFMA those of its
  fragment reads) waits for their loads first: LLVM inserts that wait (the register
  dependency), so the model completes the loads there.
* **Barriers.** Every wave issues the same stream; ``s_barrier`` is a rendezvous, so an
  event of one wave happens before an event of another when a barrier lies between the
  first's completion and the second's issue.
* **LDS.** A copy writes its buffer at any time between its issue and its completion; a
  staged store writes at its issue and is complete at its ``lgkmcnt`` wait.  A read of a
  buffer needs the last write to it before the read complete, then a barrier (RAW: other
  waves wrote parts of it); a write needs every read of the buffer since the write before
  it complete, then a barrier (WAR: a read in flight in another wave must not be
  overwritten).
* **One wave.** A workgroup of one wave has no other wave to order against: its barriers
  order nothing (LLVM lowers them to no instruction), so a read needs only the last write
  to its buffer complete before it, and a write only the reads since the write before it
  complete (:func:`check`'s ``waves``); and an LDS read and a staged LDS store, both
  counted on ``lgkmcnt``, complete in the order the wave issues them (the in-order
  completion LLVM and the emulator assume), so between the two nothing is needed at all
  (fp8 ``A^T x B^T`` 34x66x2142, one wave: a staged store issued after fragment reads of
  its buffer still in flight was refused, while a DMA copy there, on ``vmcnt``, may
  overtake them and still needs them complete).

:func:`check` returns every hazard, each naming the events' places.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

#: event kinds: a direct-to-LDS copy, a global load into registers (or a global store), an
#: LDS store of registers, an LDS read, a wait, a barrier, an op using loaded registers
COPY, LOAD, STORE, READ, WAIT, BARRIER, USE = ("copy", "load", "store", "read", "wait",
                                               "barrier", "use")


@dataclass(frozen=True)
class Event:
    """One instruction of the stream: ``where`` names it in messages; ``buffer`` the LDS
    buffer a copy, store or read accesses; ``needs`` the indices (in the stream) of the
    loads and reads whose registers it uses; ``vm`` / ``lgkm`` a wait's counts (None: not
    waited)."""

    kind: str
    where: str
    buffer: object = None
    needs: tuple = ()
    vm: int | None = None
    lgkm: int | None = None


@dataclass(frozen=True)
class Hazard:
    kind: str        # raw | war
    message: str
    at: int          # the event (index) it is reported at


class _Run:
    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.epoch: list[int] = []
        self.done: dict[int, int] = {}        # event -> the event (index) completing it
        self.vm: deque = deque()
        self.lgkm: deque = deque()

    def _complete(self, q: deque, keep: int, at: int) -> None:
        while len(q) > keep:
            self.done[q.popleft()] = at

    def _through(self, q: deque, e: int, at: int) -> None:
        """Complete every entry of ``q`` up to and including ``e`` (in order)."""
        while q and q[0] <= e:
            self.done[q.popleft()] = at

    def run(self) -> None:
        epoch = 0
        for i, e in enumerate(self.events):
            self.epoch.append(epoch)
            for n in e.needs:
                self._through(self.vm if self.events[n].kind == LOAD else self.lgkm, n, i)
            if e.kind in (COPY, LOAD):
                self.vm.append(i)
            elif e.kind in (STORE, READ):
                self.lgkm.append(i)
            elif e.kind == WAIT:
                if e.vm is not None:
                    self._complete(self.vm, e.vm, i)
                if e.lgkm is not None:
                    self._complete(self.lgkm, e.lgkm, i)
            elif e.kind == BARRIER:
                epoch += 1

    def before(self, a: int, b: int, barrier: bool = True) -> bool:
        """Event ``a`` complete, then (``barrier``) a barrier, before event ``b`` is
        issued."""
        c = self.done.get(a)
        return c is not None and c < b and (not barrier or self.epoch[c] < self.epoch[b])


def _what(e: Event) -> str:
    return {COPY: "the copy", STORE: "the staged LDS store", READ: "the read"}[e.kind]


def check(events: list[Event], waves: int | None = None) -> list[Hazard]:
    """The RAW and WAR hazards of the stream ``events`` (module docstring), issued by every
    wave of a workgroup of ``waves`` waves (None: not known, so more than one)."""
    r = _Run(events)
    r.run()
    many = waves != 1
    wave, then = ("another wave", ", then a barrier,") if many else ("the wave", "")
    out: list[Hazard] = []
    last_write: dict = {}
    reads: dict = {}
    for i, e in enumerate(events):
        if e.kind == READ:
            w = last_write.get(e.buffer)
            if w is not None and not r.before(w, i, many) and \
                    (many or events[w].kind != STORE):
                out.append(Hazard("raw", f"{e.where}: the read of LDS {e.buffer} may see "
                                  f"{_what(events[w])} at {events[w].where} incomplete in "
                                  f"{wave} (no wait completing it{then} before the read)", i))
            reads.setdefault(e.buffer, []).append(i)
        elif e.kind in (COPY, STORE):
            for rd in reads.pop(e.buffer, []):
                if not r.before(rd, i, many) and (many or e.kind != STORE):
                    out.append(Hazard("war", f"{e.where}: {_what(e)} may overwrite LDS "
                                      f"{e.buffer} while the read at {events[rd].where} is in "
                                      f"flight in {wave} (no wait completing the read{then} "
                                      f"before the write)", i))
                    break
            last_write[e.buffer] = i
    return out
