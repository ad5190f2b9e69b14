"""The ISA check's LDS rule: no two waves touch the same LDS bytes, one of them writing, with
no ``s_barrier`` between the two accesses.

The register rule (:mod:`pipeline_mlir.isa.reg_waits`) orders an LDS access against the
barriers around it, blind to addresses; what a barrier orders is the other waves' accesses
of the same bytes.  This rule reads the bytes: which LDS bytes each ``ds_read`` and
``ds_write`` touches, in every lane of every wave of the workgroup.

* **Lane values.**  A forward dataflow over the function's control-flow graph evaluates,
  for every thread of the workgroup, the registers an LDS address is computed from: ``v0``
  holds the thread's id (the kernel's ``.amdhsa_system_vgpr_workitem_id`` is 0 and its
  metadata fixes the workgroup's size, :attr:`AsmFunction.threads`); the moves, shifts,
  logic, additions, 24-bit products and 16-bit adds and shifts LLVM builds addresses with
  are evaluated on every thread (:mod:`pipeline_mlir.isa.lane_values`; a scalar register is one value per wave; a vector result
  written only to the lanes ``exec`` leaves on, the others keeping theirs, unknown where
  ``exec`` is not known; ``v_readfirstlane_b32`` of the first lane on); any other
  instruction, and a register whose value differs between the paths into a block (an
  address a loop rotates), makes what it writes unknown.
* **Bytes.**  An access's bytes, per wave: each lane's address plus the instruction's
  offset, as wide as the access (``ds_read2`` / ``ds_write2``: two such at their offsets);
  an LDS DMA (``buffer_load_* ... lds``, ``global_load_lds_*``) writes each lane's
  ``M0[17:0] + offset + lane x size`` (``M0`` evaluated as the scalar registers are).
  The lanes the wave's ``exec`` leaves off do not count where ``exec`` is known
  (evaluated as the registers are: the compares, ``s_and_saveexec_b64`` and the 64-bit
  mask moves); every lane counts where it is not.  An access of a form not read here (an
  atomic) or whose address is unknown is left out, but for an LDS write whose address is
  the same in every wave (:func:`~pipeline_mlir.isa.lane_values.varying_states`: computed
  from no thread or wave id, under an ``exec`` the same in every wave): every wave writes
  the same bytes, a race
  (``lds-race`` at it alone, whatever the barriers).
* **Intervals.**  The waves of a workgroup run the same path; between two barriers any of
  them may run any of the instructions reachable from the first without crossing another
  barrier (on a path a run may take: :mod:`pipeline_mlir.isa.tied_branches`), in any order
  against the others.  Per barrier (and the function's entry), the
  accesses so reachable form one interval; two accesses of one interval by two waves, one a
  write, touching one byte, race: a finding (kind ``lds-race``) at the first, naming the
  other, the two waves and the byte.  The two sides of a branch count as one interval's:
  waves that may branch apart race there; where every wave of the workgroup branches alike
  that is a false refusal (no kernel built here has one).  The rule runs only where the path is the same for
  every wave as far as barriers go: every conditional branch reads only values the same
  in every wave (:func:`~pipeline_mlir.isa.lane_values.varying_states`: the 4-wave
  kernels' branch around the zero-trip fence's barrier, on the trip count), or no branch the waves may take apart decides
  whether a block holding an ``s_barrier`` runs or how many times
  (:func:`~pipeline_mlir.isa.wave_groups.barriers_uniform`).
* **Groups of waves.**  The ping-pong kernels' groups of waves each run one barrier the
  other skips (an ``s_cbranch_execz`` on the group around it, :func:`~pipeline_mlir.isa.wave_groups.wave_groups`): where
  those are the only branches the waves may take apart and each wave's ``exec`` there is
  known, the waves are grouped by the barriers they run, each group's code is cut into
  its own intervals, and the pairs of intervals two groups may be in at once are walked
  in lockstep from the entry (:func:`lockstep`: a wave's n-th barrier meets every other
  wave's n-th); two accesses race in such a pair as in one interval.

An LDS DMA writes LDS when it completes: one that may still be in flight at a barrier (no
``s_waitcnt vmcnt`` completing it before the barrier on some path, counted as
:func:`~pipeline_mlir.isa.reg_waits.in_flight_at_barriers` counts) belongs to the
interval after the barrier too.  So does an LDS read or write from registers in flight at
a barrier (no ``s_waitcnt lgkmcnt`` completing it before the barrier on some path): it may
run after the other waves passed the barrier.  The register rule refuses some of those
already, blind to addresses (an LDS write in flight at a barrier an LDS read follows, an
LDS read at one an LDS write from registers follows); a read in flight at a barrier after
which another wave's DMA overwrites its bytes was seen by no rule (the ping-pong BF16
kernel's loop ``lgkmcnt(8)`` raised to ``lgkmcnt(9)``: wave 3's DMA against wave 4's read,
its group one barrier behind, an ``lds-race`` on the emulator).

Three more findings read the same bytes: an access of known bytes past the kernel's LDS
(``lds-outside``, :class:`LdsOutside`), a read of the main loop of bytes no LDS write
of the loop writes (``lds-stale``, :class:`LdsStale`: a stage the loop never refills) and
a read of bytes some path reaches it by with no LDS write of them first
(``lds-unwritten``, :class:`LdsUnwritten`: a stage the prologue never fills).  The
accesses none of the rules reads are named (:func:`left_out`, the note ``lds-unknown``).

No MLIR here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace

import numpy as np

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.asm_instr import registers
from pipeline_mlir.isa.lane_values import evaluate, lane_source, value_flow, vary_after
from pipeline_mlir.isa.lds_fills import (LdsStale, LdsUnwritten, stale_reads, untaken,
                                        unwritten_reads)
from pipeline_mlir.isa.reg_waits import in_flight_at_barriers
from pipeline_mlir.isa.tied_branches import TiedPaths
from pipeline_mlir.isa.wave_groups import lockstep, wave_groups

__all__ = ["LdsRace", "LdsOutside", "LdsStale", "LdsUnwritten", "LdsMap", "lds_map",
           "lds_races", "left_out", "lds_accesses"]

#: an address at or beyond this is no LDS byte of gfx950 (160 KiB): the access is left out
_LDS_LIMIT = 160 * 1024
#: a DS address is ``VGPR + offset`` modulo 2^32: LLVM folds a constant into the offset
#: field whatever the sign of the base (gfx7 and later), so a base below zero plus its
#: offset is the address the code means (IREE's E5M2 7x20x1906 once its index arithmetic
#: is narrowed to i32: ``ds_read_b64_tr_b8 v[82:83], v29 offset:60864``, ``v29`` a
#: difference); the emulator reads it so (``emu/ds_ops.py``)
_ADDRESS_MASK = 0xFFFFFFFF


def _wrapped(lanes: np.ndarray, offset: int) -> np.ndarray:
    """``lanes + offset`` modulo 2^32 (a DS instruction's address, ``_ADDRESS_MASK``)."""
    return (lanes + offset) & _ADDRESS_MASK


_DS = re.compile(r"^ds_(read|write)(2st64|2)?_([biu])(8|16|32|64|96|128)(_tr_b\d+)?(_d16(_hi)?)?$")


@dataclass(frozen=True)
class _Access:
    instr: AsmInstr
    write: bool
    #: per wave, the LDS bytes it touches (each lane's, in lane order)
    bytes: tuple[np.ndarray, ...]
    #: whether they are whole dwords, each lane's starting at a multiple of 4
    dwords: bool = False
    #: (a wave, its last byte) where a byte is at or past the kernel's LDS (``bytes`` then
    #: empty), or None
    beyond: tuple[int, int] | None = None
    #: whether ``exec`` is known (else every lane counts, those it may leave off too)
    lanes_known: bool = True
    #: per thread, the address its lane reads or writes at (before the offsets), whether
    #: ``exec`` leaves it on (None: not known), the offsets and the bytes at each
    #: (:mod:`pipeline_mlir.isa.frag_addresses` holds a ``ds_read``'s against the plan's)
    lanes: np.ndarray | None = field(default=None, compare=False, repr=False)
    active: np.ndarray | None = field(default=None, compare=False, repr=False)
    offsets: tuple[int, ...] = ()
    width: int = 0

    def starts(self, offset: int) -> np.ndarray:
        """Per thread, the address of the piece at ``offset``: ``lanes + offset`` modulo
        2^32, as the hardware adds them (``_ADDRESS_MASK``)."""
        return _wrapped(self.lanes, offset)

    @functools.cached_property
    def words(self) -> tuple[np.ndarray, ...]:
        """Per wave, the dwords it touches (by dword index; ``dwords`` accesses only)."""
        return tuple(b[::4] >> 2 for b in self.bytes)

    @functools.cached_property
    def top(self) -> int:
        """Its last byte (-1: none)."""
        return max((int(b.max()) for b in self.bytes if len(b)), default=-1)


def _access(i: AsmInstr, state: dict, threads: int, limit: int = 0) -> _Access | None:
    """The bytes ``i`` (an LDS read or write from registers) touches, per wave; None when
    its address or its form is not known here (``limit``: :func:`_lanes_bytes`)."""
    m = _DS.match(i.mnemonic)
    if not m:
        return None
    write = m.group(1) == "write"
    addr = lane_source(i.operands[0 if write else 1], state, threads)
    if addr is None:
        return None
    width = int(m.group(4)) // 8
    mods = dict(x.split(":", 1) for x in i.modifiers if ":" in x)
    try:
        if m.group(2):
            scale = width * (64 if m.group(2) == "2st64" else 1)
            offsets = [int(mods.get("offset0", "0"), 0) * scale,
                       int(mods.get("offset1", "0"), 0) * scale]
        else:
            offsets = [int(mods.get("offset", "0"), 0)]
    except ValueError:          # an offset not a number: the access is left out
        return None
    return _lanes_bytes(i, write, addr.astype(np.int64), offsets, width, state, threads, limit)


def _lanes_bytes(i: AsmInstr, write: bool, addr, offsets: list[int], width: int, state: dict,
                 threads: int, limit: int = 0) -> _Access | None:
    """The access of ``i`` whose lanes' addresses are ``addr`` (per thread), at each of
    ``offsets``, ``width`` bytes each: the lanes ``exec`` leaves off left out where it is
    known; None when a byte is no LDS byte.  ``limit``: the kernel's LDS bytes (its group
    segment, 0: not known): where ``exec`` is known, an access touching a byte at or past
    it is one of no bytes, that wave and byte its ``beyond``."""
    active = state.get(("exec",))
    per_wave = []
    for w in range(0, threads, 64):
        lanes = addr[w:w + 64]
        if active is not None:          # the lanes exec leaves on
            lanes = lanes[active[w:w + 64] != 0]
        starts = np.concatenate([_wrapped(lanes, o) for o in offsets])
        per_wave.append((starts[:, None] + np.arange(width)).ravel())
    every = np.concatenate(per_wave)
    if not len(every) or int(every.min()) < 0:
        return None
    if limit and active is not None and int(every.max()) >= limit:
        wave = next(w for w, b in enumerate(per_wave) if len(b) and int(b.max()) >= limit)
        return _Access(i, write, (), beyond=(wave, int(per_wave[wave].max())))
    if int(every.max()) >= _LDS_LIMIT:
        return None
    dwords = width % 4 == 0 and all(o % 4 == 0 for o in offsets) and not (addr % 4).any()
    return _Access(i, write, tuple(per_wave), bool(dwords), lanes_known=active is not None,
                   lanes=addr, active=None if active is None else active != 0,
                   offsets=tuple(offsets), width=width)


#: an LDS DMA: ``buffer_load_<size> ... lds`` or ``global_load_lds_<size>``
_DMA = re.compile(r"^(buffer_load|global_load_lds)_(ubyte|sbyte|ushort|sshort|dword|dwordx3|"
                  r"dwordx4)$")
_DMA_SIZE = {"ubyte": 1, "sbyte": 1, "ushort": 2, "sshort": 2, "dword": 4, "dwordx3": 12,
             "dwordx4": 16}


def _dma_access(i: AsmInstr, state: dict, threads: int, limit: int = 0) -> _Access | None:
    """The LDS bytes LDS DMA ``i`` writes, per wave (each lane's ``M0[17:0] + offset + lane
    x size``, as wide as its size: the emulator's ``_lds_dma_target``); None when ``M0``,
    the offset or the form is not known here."""
    m = _DMA.match(i.mnemonic)
    base = state.get("m0")
    if not m or base is None:
        return None
    mods = dict(x.split(":", 1) for x in i.modifiers if ":" in x)
    try:
        offset = int(mods.get("offset", "0"), 0)
    except ValueError:
        return None
    size = _DMA_SIZE[m.group(2)]
    lanes = np.arange(threads, dtype=np.int64) % 64
    return _lanes_bytes(i, True, (base & np.uint64(0x3FFFF)).astype(np.int64) + lanes * size,
                        [offset], size, state, threads, limit)


def _same_bytes(i: AsmInstr, state: dict, vary: set, threads: int) -> bool:
    """Whether ``i``, an LDS write of an address not known here, writes the same bytes in
    every wave: its form read here, its address (``M0`` for an LDS DMA) and ``exec`` the
    same in every wave (``vary``: :func:`~pipeline_mlir.isa.lane_values.varying_states`),
    and lanes on in every wave where ``exec`` is known."""
    if i.kind == "vmem_load_lds":
        if not _DMA.match(i.mnemonic):
            return False
        address = ("m0",)
    else:
        m = _DS.match(i.mnemonic)
        if not m or m.group(1) != "write":
            return False
        address = registers(i.operands[0])
    if not address or vary.intersection(address) or "exec" in vary:
        return False
    active = state.get(("exec",))
    return active is None or all(active[w:w + 64].any() for w in range(0, threads, 64))


#: what an LDS write's address is computed from, by kind
_ADDRESS = {"vmem_load_lds": "M0", "ds_write": "its address register"}


@dataclass(frozen=True)
class LdsRace:
    """``first`` (by wave ``wave``) and ``second`` (by another wave, ``other``) touch LDS
    byte ``byte``, one of them writing, with no ``s_barrier`` between them."""

    first: AsmInstr
    second: AsmInstr
    wave: int
    other: int
    byte: int
    #: the other pairs of the same first instruction
    others: int = 0
    #: an LDS DMA of the two that may still be in flight at the ``s_barrier`` at line
    #: ``barrier`` the other access follows (its write lands when it completes), or an LDS
    #: read or write from registers in flight there (it may run after the barrier)
    barrier: int = 0
    dma: AsmInstr | None = None

    def message(self) -> str:
        n = self.others
        more = f" ({n} more instruction{'s' * (n > 1)} race{'s' * (n == 1)} it too)" \
            if n else ""
        if self.byte < 0:
            return (f"{self.first.mnemonic} (line {self.first.line}) writes the same LDS bytes "
                    f"in every wave (its LDS address is the same in every wave, though not "
                    f"known here: {_ADDRESS[self.first.kind]} is not computed from the wave's "
                    f"id), with every wave's lanes on: the waves' writes race")
        between = "with no s_barrier between them on some path"
        if self.dma is not None:
            counter = "vmcnt" if self.dma.kind == "vmem_load_lds" else "lgkmcnt"
            between += (f", or with {self.dma.mnemonic} (line {self.dma.line}) still in "
                        f"flight at the s_barrier (line {self.barrier}) between them (no "
                        f"s_waitcnt {counter} before the barrier completes it)")
        return (f"{self.first.mnemonic} (line {self.first.line}) of wave {self.wave} and "
                f"{self.second.mnemonic} (line {self.second.line}) of wave {self.other} both "
                f"touch LDS byte {self.byte}, one writing, {between}: the other waves' "
                f"accesses of those bytes are not ordered{more}")


@dataclass(frozen=True)
class LdsOutside:
    """An LDS access of known address, under a known ``exec``, that touches a byte past the
    kernel's LDS (its group segment, ``.amdhsa_group_segment_fixed_size``): the hardware
    reads 0 there and drops the write (the emulator's ``out-of-range``)."""

    instr: AsmInstr
    wave: int
    byte: int
    size: int

    def message(self) -> str:
        what = "M0 + offset + lane x size" if self.instr.kind == "vmem_load_lds" else \
            "its address + offset"
        return (f"{self.instr.mnemonic} (line {self.instr.line}) of wave {self.wave} touches "
                f"LDS byte {self.byte} ({what}), past the kernel's {self.size} bytes of LDS "
                f"(.amdhsa_group_segment_fixed_size): no LDS byte of this workgroup")


@dataclass(frozen=True)
class LdsMap:
    """What the rule reads of a function: the LDS accesses of known bytes (by line), the
    kind of every LDS access (``ds_read`` / ``ds_write`` / ``vmem_load_lds``, by line), and
    per interval (the barrier line it starts at, 0: the entry) the lines of the LDS
    accesses in it."""

    accesses: dict
    kinds: dict
    within: dict
    #: per barrier line, the LDS DMAs that may still be in flight there (in its interval)
    flying: dict = field(default_factory=dict)
    #: the LDS writes of unknown address that write the same bytes in every wave (by line)
    same: dict = field(default_factory=dict)
    #: where groups of waves pass different barriers (:func:`wave_groups`): per group, its
    #: waves and its intervals (as ``within``, which is then empty), and the pairs of
    #: intervals two groups may be in at once, (group, interval, group, interval)
    groups: tuple = ()
    pairs: tuple = ()
    #: the LDS accesses of known address touching bytes past the kernel's LDS (by line)
    outside: dict = field(default_factory=dict)
    #: the main loop's LDS reads of bytes no LDS write of the loop writes (by line)
    stale: dict = field(default_factory=dict)
    #: the LDS reads of bytes no LDS write writes before them on some path (by line)
    unwritten: dict = field(default_factory=dict)
    #: per barrier line, the LDS reads and writes from registers that may still be in
    #: flight there (in its interval too)
    reading: dict = field(default_factory=dict)

    def _items(self):
        """Per set of accesses that may run at once: (per DMA line, the barrier it is in
        flight at there; the accesses, each of the waves that may run it there)."""
        only: dict = {}         # each access as run by a group, made once

        def part(within, origin, waves):
            fly = {x: origin for x in (*self.flying.get(origin, ()),
                                       *self.reading.get(origin, ()))}
            out = []
            for x in sorted(within[origin]):
                if x in self.accesses:
                    if (x, waves) not in only:
                        only[x, waves] = _only(self.accesses[x], waves)
                    out.append(only[x, waves])
            return fly, out
        if not self.groups:
            for origin in sorted(self.within):
                yield part(self.within, origin, None)
        paired = {(g, a) for g, a, _, _ in self.pairs} | {(h, b) for _, _, h, b in self.pairs}
        for g, (waves, within) in enumerate(self.groups):
            for origin in sorted(within):
                if (g, origin) not in paired:      # else its pairs hold it
                    yield part(within, origin, waves)
        for g, a, h, b in self.pairs:
            (fa, xa), (fb, xb) = part(self.groups[g][1], a, self.groups[g][0]), \
                part(self.groups[h][1], b, self.groups[h][0])
            yield {**fa, **fb}, xa + xb

    def races(self) -> list[LdsRace]:
        """The LDS races (module docstring): one per first instruction, in line order."""
        found: dict[int, list[LdsRace]] = {}
        seen = set()
        for line, i in self.same.items():
            found[line] = [LdsRace(i, i, 0, 1, -1)]
        for flying, known in self._items():
            for race in _interval_races(known) if known else ():
                key = (race.first.line, race.second.line)
                if key not in seen:
                    seen.add(key)
                    dma = next((x for x in (race.first, race.second) if x.line in flying), None)
                    if dma is not None:
                        race = replace(race, barrier=flying[dma.line], dma=dma)
                    found.setdefault(race.first.line, []).append(race)
        return [replace(r[0], others=len(r) - 1) for _, r in sorted(found.items())]

    def apart(self, barrier: int, line: int) -> bool:
        """Whether the LDS access at ``line``, still in flight at the barrier at line
        ``barrier``, touches no byte that another wave's access in the interval after the
        barrier writes (the access a read) or touches (a write), every address known (an
        access there whose bytes are not known, an LDS DMA of unknown ``M0`` among them,
        is never apart)."""
        mine = self.accesses.get(line)
        if mine is None or barrier not in self.within or self.groups:
            return False
        for x in self.within[barrier]:
            if not mine.write and self.kinds[x] == "ds_read":
                continue
            other = self.accesses.get(x)
            if other is None:
                return False
            theirs = [set(bs.tolist()) for bs in other.bytes]
            if any(v != w and not theirs[v].isdisjoint(bw.tolist())
                   for w, bw in enumerate(mine.bytes) for v in range(len(theirs))):
                return False
        return True


def lds_map(fn: AsmFunction) -> LdsMap | None:
    """:class:`LdsMap` of ``fn``; None when the rule does not run (no fixed workgroup size,
    no LDS write, barriers on paths not every wave takes)."""
    threads = fn.threads
    if threads <= 64 or not fn.blocks or not any(
            i.kind in ("ds_write", "vmem_load_lds") for b in fn.blocks for i in b.instrs):
        return None
    states, varying, apart = value_flow(fn)
    groups = wave_groups(fn, apart, states)
    if groups is None:
        return None
    accesses, kinds, same, outside, never = _scan(fn, states, varying)
    pending = in_flight_at_barriers(fn, lambda i: i.line in kinds)
    flying = {b: frozenset(x for x in xs if kinds[x] == "vmem_load_lds")
              for b, xs in pending.items()}
    reading = {b: xs - flying[b] for b, xs in pending.items()}
    stale = stale_reads(fn, accesses, kinds)
    unwritten = unwritten_reads(fn, accesses, kinds, never)
    if not groups:
        within, _ = _intervals(fn, kinds, pending)
        return LdsMap(accesses, kinds, within, flying, same, outside=outside, stale=stale,
                      unwritten=unwritten, reading=reading)
    parts = [(waves, _intervals(fn, kinds, pending, skip)[0]) for waves, skip in groups]
    pairs = []
    for g in range(len(parts)):
        for h in range(g + 1, len(parts)):
            both = lockstep(fn, groups[g][1], groups[h][1])
            if both is None:
                return None
            pairs += [(g, a, h, b) for a, b in both]
    return LdsMap(accesses, kinds, {}, flying, same,
                  tuple(parts), tuple(pairs), outside, stale, unwritten, reading)


def _scan(fn: AsmFunction, states: dict, varying: dict) -> tuple:
    """(the LDS accesses of known bytes, by line; the kind of every LDS access, by line; the
    LDS writes of unknown address that write the same bytes in every wave; the accesses
    past the kernel's LDS; per block, :func:`~pipeline_mlir.isa.lds_fills.untaken`) of
    ``fn``, from the register values at the top of each block (:func:`value_flow`)."""
    threads = fn.threads
    accesses: dict[int, _Access] = {}
    kinds: dict[int, str] = {}
    same: dict[int, AsmInstr] = {}
    outside: dict[int, LdsOutside] = {}
    never: dict[int, frozenset] = {}
    for k, state in states.items():
        state, vary = dict(state), set(varying.get(k, ()))
        for i in fn.blocks[k].instrs:
            if i.kind in ("ds_read", "ds_write", "vmem_load_lds"):
                kinds[i.line] = i.kind
                a = _access(i, state, threads, fn.lds_bytes) if i.kind != "vmem_load_lds" \
                    else _dma_access(i, state, threads, fn.lds_bytes)
                if a is not None and a.beyond is not None:
                    outside[i.line] = LdsOutside(i, *a.beyond, fn.lds_bytes)
                elif a is not None:
                    accesses[i.line] = a
                elif _same_bytes(i, state, vary, threads):
                    same[i.line] = i
            evaluate(i, state, threads)
            vary_after(i, vary, state)
        never[k] = untaken(fn.blocks[k], state.get(("exec",)))
    return accesses, kinds, same, outside, never


def lds_accesses(fn: AsmFunction) -> dict:
    """The LDS accesses of ``fn`` whose bytes are known here, by line (each wave's bytes,
    :class:`LdsMap`'s ``accesses``), whatever the number of waves (one too); empty when
    the workgroup's size is not fixed (``v0`` then not known)."""
    if fn.threads <= 0 or not fn.blocks:
        return {}
    states, varying, _ = value_flow(fn)
    return _scan(fn, states, varying)[0]


def _intervals(fn: AsmFunction, kinds: dict, flying: dict, skip: frozenset = frozenset()):
    """(per interval, by the barrier line it starts at, 0: the entry: the lines of the LDS
    accesses in it, the DMAs in flight at its barrier among them; per interval, the
    barriers that may end it) for waves that skip the blocks ``skip`` (no barrier, no
    access there); paths no run takes (:class:`~pipeline_mlir.isa.tied_branches.TiedPaths`)
    are not walked."""
    paths = TiedPaths(fn)
    origins: dict[tuple, frozenset] = {(0, ()): frozenset({0})}
    within: dict[int, set] = {0: set()}
    nexts: dict[int, set] = {}
    work = [(0, ())]
    while work:
        node = work.pop()
        k, now = node[0], origins[node]
        for i in fn.blocks[k].instrs if k not in skip else ():
            if i.kind == "barrier":
                for o in now:
                    nexts.setdefault(o, set()).add(i.line)
                now = frozenset({i.line})
                within.setdefault(i.line, set()).update(flying.get(i.line, ()))
            elif i.line in kinds:
                for o in now:
                    within[o].add(i.line)
        for t in paths.edges(*node):
            new = origins.get(t, frozenset()) | now
            if new != origins.get(t):
                origins[t] = new
                if t not in work:
                    work.append(t)
    return within, nexts


def left_out(fn: AsmFunction, found: LdsMap | None) -> tuple[tuple[int, ...], str] | None:
    """(the lines, a message naming them) of the LDS accesses of ``fn`` the LDS rules
    (``lds-race``, ``lds-outside``, ``lds-stale``, ``lds-unwritten``) do not read
    (``found``: :func:`lds_map`): an address or ``exec`` not known here, or the rules not
    run at all where the workgroup has more than one wave and an LDS write; None when
    there is none."""
    if found is None:
        lines = tuple(i.line for i in fn.instrs()
                      if i.kind in ("ds_read", "ds_write", "vmem_load_lds"))
        if fn.threads <= 64 or not any(i.kind in ("ds_write", "vmem_load_lds")
                                       for i in fn.instrs()):
            return None     # one wave, or no LDS write: nothing for another wave to race
        return lines, (f"the LDS rules (lds-race, lds-outside, lds-stale, lds-unwritten) did "
                       f"not run on this function: its waves may pass different barriers "
                       f"(a branch the waves may take apart decides a block holding an "
                       f"s_barrier) and not only around the groups' own barriers; none of "
                       f"its {len(lines)} LDS accesses (lines {_lines(lines)}) is checked "
                       f"against the other waves'")
    gone = {x for x in found.kinds if x not in found.accesses and x not in found.outside
            and x not in found.same} | \
        {x for x, a in found.accesses.items() if not a.lanes_known}
    if not gone:
        return None
    lines = tuple(sorted(gone))
    writes = [x for x in lines if found.kinds[x] != "ds_read"]
    return lines, (f"{len(lines)} of the {len(found.kinds)} LDS accesses (lines "
                   f"{_lines(lines)}) are left out of the LDS rules or read with every lane "
                   f"on: their address (M0 for an LDS DMA) or exec is not known here (a "
                   f"register loaded, rotated by a loop, or computed by an instruction not "
                   f"evaluated); the rules hold the others alone" +
                   (f", but for lds-unwritten, which does not run at all with an LDS write "
                    f"among them (lines {_lines(tuple(writes))})" if writes else ""))


def _lines(lines: tuple[int, ...]) -> str:
    return ", ".join(map(str, lines[:8])) + (f" and {len(lines) - 8} more" if len(lines) > 8
                                              else "")


def lds_races(fn: AsmFunction) -> list[LdsRace]:
    """The LDS races of ``fn`` (module docstring): one per first instruction, in line order;
    none when the rule does not run (:func:`lds_map`)."""
    found = lds_map(fn)
    return found.races() if found is not None else []


def _only(a: _Access, waves: frozenset | None) -> _Access:
    """``a`` as run by the waves ``waves`` alone (None: every wave)."""
    if waves is None:
        return a
    none = np.zeros(0, dtype=np.int64)
    return _Access(a.instr, a.write, tuple(b if w in waves else none
                                           for w, b in enumerate(a.bytes)), a.dwords)


def _interval_races(accesses: list[_Access]):
    """The racing pairs among the accesses of one interval: per LDS byte, the waves that
    write it and the waves that touch it; a byte some wave writes and another wave touches
    is a race of the pairs of accesses that touch it.  Where every access touches whole
    aligned dwords, read per dword (each fourth byte: a quarter of the work)."""
    unit = 4 if all(a.dwords for a in accesses) else 1
    units = [a.words if unit > 1 else a.bytes for a in accesses]    # per access, per wave
    size = 1 + max(a.top for a in accesses) // unit
    if not size:
        return
    writers = np.zeros(size, dtype=np.uint32)
    touched = np.zeros(size, dtype=np.uint32)
    for w in range(len(units[0])):      # per wave: one bit, set at its bytes at once
        touched[np.concatenate([u[w] for u in units])] |= np.uint32(1 << w)
        wrote = [u[w] for a, u in zip(accesses, units) if a.write]
        if wrote:
            writers[np.concatenate(wrote)] |= np.uint32(1 << w)
    bad = (writers != 0) & ((touched & (touched - np.uint32(1))) != 0)
    if not bad.any():
        return
    # per access, per wave, the racing bytes it touches (most accesses touch none)
    hot = [(a, [set(bs[bad[bs]].tolist()) for bs in u]) for a, u in zip(accesses, units)]
    hot = [(a, sets) for a, sets in hot if any(sets)]
    for x, (a, mine) in enumerate(hot):
        for b, theirs in hot[x:]:
            if not (a.write or b.write):
                continue
            hit = next(((w, v, min(mine[w] & theirs[v])) for w in range(len(mine))
                        for v in range(len(theirs)) if v != w and mine[w] & theirs[v]),
                       None)
            if hit:
                yield LdsRace(a.instr, b.instr, hit[0], hit[1], hit[2] * unit)
