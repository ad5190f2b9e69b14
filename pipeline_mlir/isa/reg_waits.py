"""The ISA check's register-level wait rule: no instruction touches a register a load may
still be writing.

The comparison with the schedule (:mod:`pipeline_mlir.isa.check`) checks the schedule's
waits; the waits LLVM adds on its own (before an MFMA reads a fragment, before a store or
an address computation reads a loaded register, before the epilogue's reads of the
accumulators) it leans on: its "held" rule (:mod:`pipeline_mlir.isa.held`) trusts an
earlier wait of LLVM's to hold a bound.  This rule checks every wait of the assembly
against the registers alone, whoever put it there.

A forward dataflow over the function's control-flow graph (the blocks and edges
:mod:`pipeline_mlir.isa.asm` reads; each loop walked until its state no longer changes;
a path that two branches on one scalar register rule out, as the trip count's branches
around the zero-trip fence and around the loop, not walked:
:mod:`pipeline_mlir.isa.tied_branches`) keeps, at each point, the memory instructions that write registers and may still be in
flight on some path into it, each with the fewest instructions of its counter's in-order
class issued after it on any such path (:mod:`pipeline_mlir.isa.counted`, the one table of
what counts where):

* an instruction that counts in order (a vector-memory load: vmcnt; an LDS read: lgkmcnt)
  is completed by an ``s_waitcnt`` of its counter with a count of at most the in-order
  instructions issued after it (vector-memory stores and LDS DMAs count on vmcnt too, LDS
  writes on lgkmcnt); a scalar load (lgkmcnt, any order) only by ``lgkmcnt(0)``;
* issuing an instruction on a full counter (as many in flight as
  :data:`pipeline_mlir.target.gfx950.IN_FLIGHT` allows, the encoded maximum) stalls the
  wave until the oldest completes;
* a wait reads every counter it names (``s_waitcnt vmcnt(n) lgkmcnt(m)``, the
  ``s_waitcnt_vmcnt`` / ``_lgkmcnt`` forms); a count at the encoded maximum and gfx10's
  ``s_waitcnt_vscnt`` (no such counter on gfx950) wait for nothing.

Any instruction that reads, or writes, a register such an instruction writes is a
conflict; each load with conflicts is one finding (:class:`ShortWait`, kind
``wait-short``): the first such instruction in line order, the load, the register, the
count its counter needs there, and how many more instructions conflict with the load.  A load that writes a register an
earlier load of the same in-order counter is still writing is no conflict (they complete
in order).  Stores read their data registers when they issue on gfx950 (the emulator
captures them there): overwriting one later needs wait states, not a wait
(:mod:`pipeline_mlir.emu.hazards`), so a store leaves no register in flight.  An LDS
DMA writes no register: what it writes to LDS, by address, is the LDS rule's
(:mod:`pipeline_mlir.isa.lds_ranges`, which counts the DMAs in flight at each barrier with
:func:`in_flight_at_barriers`: a multi-buffered schedule keeps the next stages' DMAs in
flight across barriers on purpose), and the schedule's waits the comparison's.

An LDS write from registers (a register-staged copy's ``ds_write``) is tracked too: one
that may still be in flight at an ``s_barrier`` from which an LDS read is reachable before
the next barrier is a finding at the barrier (register ``"LDS"``): the other waves may read
it before it lands.  The rule is blind to addresses, so a write whose LDS no wave reads
before it lands is reported too; LLVM's fence before each barrier of IREE's waits for
``lgkmcnt(0)``, so no kernel it emits has one.  Likewise an LDS read that may still be in
flight at an ``s_barrier`` from which an LDS write from registers is reachable before the
next barrier is a finding at the barrier: the other waves may overwrite what it reads
before it is read (the emulator's ``lds-race`` of IREE's register-staged 2048x2048x1023
kernel with a loop barrier moved above the ``lgkmcnt(0)`` before it, or above the
``ds_write`` before it).  Blind to addresses too: a barrier of that loop moved below the
next LDS read, which the emulator runs exact, is reported as well, unless the LDS rule
(:mod:`pipeline_mlir.isa.lds_ranges`, which reads every thread's LDS addresses) knows the
access touches no byte the other waves' accesses after the barrier conflict with
(:meth:`~pipeline_mlir.isa.lds_ranges.LdsMap.apart`).  What a barrier orders by address (a
write and another wave's access of its bytes in one interval between barriers) is that
rule's too, an LDS DMA after the barrier among them.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.counted import COUNTERS, counted_on, order_on
from pipeline_mlir.isa.tied_branches import TiedPaths

__all__ = ["ShortWait", "RegWaits", "reg_waits", "short_waits", "in_flight_at_barriers",
           "flight_states", "after_wait", "after_issue"]


@dataclass(frozen=True)
class ShortWait:
    """``instr`` reads (``reads``) or overwrites a register (``register``) that ``load``,
    counted on ``counter``, may still be writing: ``s_waitcnt <counter>(<need>)`` (or
    less) before it would complete the load on every path.  For an ``s_barrier``
    ``instr``, ``load`` is an LDS write still in flight there and ``register`` is
    ``"LDS"``."""

    instr: AsmInstr
    load: AsmInstr
    register: str
    counter: str
    need: int
    reads: bool
    #: the other instructions that touch the load's registers while it may be in flight
    others: int = 0

    def message(self) -> str:
        how = "reads" if self.reads else "overwrites"
        more = f" ({self.others} more instruction{'s' * (self.others > 1)} after it too)" \
            if self.others else ""
        if self.instr.kind == "barrier" and self.load.kind == "ds_read":
            return (f"{self.instr.mnemonic} (line {self.instr.line}) while {self.load.mnemonic} "
                    f"(line {self.load.line}) may still be reading LDS on some path: the other "
                    f"waves may overwrite it before it is read; it needs s_waitcnt "
                    f"{self.counter}({self.need}) before the barrier{more}")
        if self.instr.kind == "barrier":
            return (f"{self.instr.mnemonic} (line {self.instr.line}) while {self.load.mnemonic} "
                    f"(line {self.load.line}) may still be writing LDS on some path: the other "
                    f"waves may read it before it lands; it needs s_waitcnt "
                    f"{self.counter}({self.need}) before the barrier{more}")
        return (f"{self.instr.mnemonic} (line {self.instr.line}) {how} {self.register}, "
                f"which {self.load.mnemonic} (line {self.load.line}) may still be writing on "
                f"some path: it needs s_waitcnt {self.counter}({self.need}) before it{more}")


#: the state at a point: (line of an instruction in flight, counter, "in" or "any": how it
#: counts there) -> the fewest in-order instructions of the counter issued after it on any
#: path to the point
_State = dict


def after_wait(state: _State, i: AsmInstr) -> None:
    """What ``s_waitcnt`` ``i`` completes, removed."""
    for counter, c in COUNTERS.items():
        n = getattr(i, c.field)
        if n is None:
            continue
        for key, later in list(state.items()):
            if key[1] == counter and (n == 0 or (key[2] == "in" and later >= n)):
                del state[key]


def _tracked(i: AsmInstr) -> bool:
    """Whether ``i`` enters the state: it writes registers, or it writes LDS from
    registers (the barrier rule)."""
    return bool(i.defs) or i.kind == "ds_write"


def after_issue(state: _State, i: AsmInstr, tracked=_tracked) -> None:
    """``i`` issued: on each counter it counts on, a full counter's oldest completed first,
    then one more in-order instruction after the others; a load that writes registers (or
    an LDS write; ``tracked``: which instructions enter) enters the state."""
    for counter, c, o in counted_on(i):
        for key, later in list(state.items()):
            if key[1] != counter or key[2] != "in":
                continue
            if later >= c.limit - 1:      # the stall of a full counter completes it
                del state[key]
            elif o == "in":
                state[key] = later + 1
        if tracked(i):
            state[(i.line, counter, o)] = 0


def _conflicts(state: _State, i: AsmInstr, by_line: dict, read_after: frozenset,
               write_after: frozenset = frozenset()):
    """The :class:`ShortWait` of ``i`` against each instruction of ``state`` it conflicts
    with: a register it writes, or, at an ``s_barrier`` an LDS read may follow before the
    next barrier (``read_after``), LDS an LDS write still writes, and at one an LDS write
    from registers may follow (``write_after``), LDS an LDS read still reads."""
    uses, defs = set(i.uses), set(i.defs)
    for (line, counter, order), later in state.items():
        load = by_line[line]
        need = later if order == "in" else 0
        if load.kind == "ds_write" and i.line in read_after:
            yield ShortWait(i, load, "LDS", counter, need, False)
            continue
        if load.kind == "ds_read" and i.line in write_after:
            yield ShortWait(i, load, "LDS", counter, need, True)
        read = uses.intersection(load.defs)
        written = defs.intersection(load.defs)
        if not read and (not written or (order == "in" and order_on(i, counter) == "in")):
            continue
        reg = next(r for r in load.defs if r in (read or written))   # the first it writes
        yield ShortWait(i, load, reg, counter, need, bool(read))


def _run_block(state: _State, instrs: list[AsmInstr], by_line: dict,
               found: dict | None, pending: dict | None,
               read_after: frozenset = frozenset(),
               write_after: frozenset = frozenset(), tracked=_tracked) -> _State:
    """``state`` after the block's instructions; with ``found``, each conflict kept there
    by (load line, counter, instruction line), the smallest count needed; with ``pending``,
    the lines in flight before each wait added to its set (``tracked``: :func:`after_issue`)."""
    state = dict(state)
    for i in instrs:
        if i.kind == "wait":
            if pending is not None:
                pending.setdefault(i.line, set()).update(k[0] for k in state)
            after_wait(state, i)
            continue
        if found is not None and state:
            for s in _conflicts(state, i, by_line, read_after, write_after):
                key = (s.load.line, s.counter, i.line)
                if key not in found or s.need < found[key].need:
                    found[key] = s
        after_issue(state, i, tracked)
    return state


def _join(a: _State, b: _State) -> _State:
    out = dict(a)
    for key, later in b.items():
        out[key] = min(later, out.get(key, later))
    return out


def flight_states(fn: AsmFunction, tracked=_tracked) -> dict[tuple, _State]:
    """The state at the top of each block reachable from the entry, per (block, what the
    branches on the way proved: :class:`~pipeline_mlir.isa.tied_branches.TiedPaths`; an
    edge no run takes on that path is not walked) (the fixpoint; the instructions
    ``tracked`` enter it, :func:`after_issue`)."""
    paths = TiedPaths(fn)
    entry: dict[tuple, _State] = {(0, ()): {}}
    work = [(0, ())]
    while work:
        node = work.pop()
        out = _run_block(entry[node], fn.blocks[node[0]].instrs, {}, None, None,
                         tracked=tracked)
        for t in paths.edges(*node):
            joined = _join(entry[t], out) if t in entry else out
            if t not in entry or joined != entry[t]:
                entry[t] = joined
                if t not in work:
                    work.append(t)
    return entry


def in_flight_at_barriers(fn: AsmFunction, tracked) -> dict[int, frozenset]:
    """Per ``s_barrier`` line of ``fn``, the lines of the instructions ``tracked`` picks
    (each counted on its counters as above) that may still be in flight there on some
    path from the function's entry."""
    out: dict[int, set] = {}
    for (k, _), state in flight_states(fn, tracked).items():
        state = dict(state)
        for i in fn.blocks[k].instrs:
            if i.kind == "barrier":
                out.setdefault(i.line, set()).update(key[0] for key in state)
            if i.kind == "wait":
                after_wait(state, i)
            else:
                after_issue(state, i, tracked)
    return {line: frozenset(lines) for line, lines in out.items()}


def _barriers_before(fn: AsmFunction, kind: str = "ds_read") -> frozenset:
    """The lines of the ``s_barrier`` s from which an instruction of ``kind`` (an LDS read;
    ``ds_write``: an LDS write from registers) is reachable on some path before the next
    ``s_barrier``: the other waves may read (write) LDS right after such a barrier, so an
    LDS write (read) in flight at it may land too late (be overwritten first)."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    head = []           # per block: its instructions before its first barrier hold one
    for b in fn.blocks:
        first = next((n for n, i in enumerate(b.instrs) if i.kind == "barrier"),
                     len(b.instrs))
        head.append((any(i.kind == kind for i in b.instrs[:first]),
                     first == len(b.instrs)))
    reads = [h[0] for h in head]        # the fixpoint: a read before a barrier from the top
    changed = True
    while changed:
        changed = False
        for k, b in enumerate(fn.blocks):
            if not reads[k] and head[k][1] and any(reads[index[s]] for s in b.succs):
                reads[k] = changed = True
    out = set()
    for k, b in enumerate(fn.blocks):
        bars = [n for n, i in enumerate(b.instrs) if i.kind == "barrier"]
        for j, n in enumerate(bars):
            end = bars[j + 1] if j + 1 < len(bars) else len(b.instrs)
            if any(i.kind == kind for i in b.instrs[n + 1:end]) or (
                    end == len(b.instrs) and any(reads[index[s]] for s in b.succs)):
                out.add(b.instrs[n].line)
    return frozenset(out)


@dataclass(frozen=True)
class RegWaits:
    """What the dataflow found: the short waits (:func:`short_waits`) and, per
    ``s_waitcnt`` line, the instructions that may be in flight on some path into it (those
    it may wait for)."""

    short: list[ShortWait]
    pending: dict[int, tuple[AsmInstr, ...]]


def reg_waits(fn: AsmFunction, apart=None) -> RegWaits:
    """The dataflow over ``fn`` (the module docstring); ``apart(barrier line, access
    line)``: whether an LDS access in flight at a barrier is known to touch no byte the
    other waves' accesses after it conflict with (:meth:`pipeline_mlir.isa.lds_ranges.
    LdsMap.apart`), then no finding."""
    if not fn.blocks:
        return RegWaits([], {})
    by_line = {i.line: i for b in fn.blocks for i in b.instrs}
    found: dict = {}
    pending: dict = {}
    read_after, write_after = _barriers_before(fn), _barriers_before(fn, "ds_write")
    for (k, _), state in flight_states(fn).items():
        _run_block(state, fn.blocks[k].instrs, by_line, found, pending, read_after,
                   write_after)
    first: dict = {}        # per (load, counter): the first instruction in line order
    for (load, counter, line), s in sorted(found.items()):
        if apart is not None and s.register == "LDS" and apart(line, load):
            continue
        if (load, counter) not in first:
            first[(load, counter)] = s
        else:
            first[(load, counter)] = replace(first[(load, counter)],
                                             others=first[(load, counter)].others + 1)
    short = sorted(first.values(), key=lambda s: (s.instr.line, s.load.line, s.counter))
    return RegWaits(short, {w: tuple(by_line[x] for x in sorted(lines))
                            for w, lines in pending.items()})


def short_waits(fn: AsmFunction) -> list[ShortWait]:
    """Each load of ``fn`` whose registers an instruction touches while the load may still
    be in flight on some path from the function's entry, and each LDS write still in flight
    at an ``s_barrier``: one per load and counter, naming the first such instruction in
    line order (and how many more there are), in line order."""
    return reg_waits(fn).short
