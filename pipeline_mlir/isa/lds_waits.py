"""The ISA check's rule on a wave's own LDS order: each ``s_waitcnt`` completes the LDS
accesses a later access of the other counter overwrites or reads, counted in the
instructions LLVM emitted.

A wave's LDS reads and writes from registers (``ds_read*``, ``ds_write*``) complete in
order on lgkmcnt, and its LDS DMAs (``buffer_load_* ... lds``, ``global_load_lds_*``) in
order on vmcnt; nothing orders the one counter's against the other's.  A DMA writes its
LDS bytes when it completes, so a DMA issued while an LDS read of the same bytes may still
be in flight can overwrite them before the read reads them (the write-after-read of finding
91 of ``docs/iree-audits.md``: LLVM merged the reads of each fragment load in pairs into one
``ds_read2st64_b32``, the schedule's ``lgkmcnt(2)``, counted in its own units of one
instruction per read, then left both loads in flight, and the next K tile's DMA into the
same LDS raced the older one); an LDS read or write issued while a DMA of the same bytes
may still be in flight reads what it has not written yet, or is overwritten by it.

The schedule's waits are counted in its own units (:mod:`pipeline_mlir.schedule.merged_reads`
lowers them where LLVM may merge reads); this rule recounts every wait of the assembly in the
instructions really emitted.  A forward dataflow over the function's control flow (the one of
:mod:`pipeline_mlir.isa.reg_waits`, :func:`~pipeline_mlir.isa.reg_waits.flight_states`: each
loop walked to its fixpoint, so the prologue, the loop from the prologue and from its own back
edge and the epilogue are each a path in) keeps the LDS accesses that may be in flight at each
point, each with the fewest instructions of its counter issued after it on any path.  At each
LDS access, an access of the other counter still in flight whose bytes it touches in the same
wave, one of the two writing (each wave's bytes: :func:`~pipeline_mlir.isa.lds_ranges.
lds_accesses`, every lane of every wave evaluated), is a finding (kind ``lds-wait-short``,
:class:`LdsWaitShort`) naming the last ``s_waitcnt`` of that counter before the access (the
wait that left it in flight; none between them is said) and the count that would have
completed it.  The register half of the same question (an MFMA or VALU reading a
``ds_read``'s registers before a wait completes it) is ``wait-short``'s
(:mod:`pipeline_mlir.isa.reg_waits`); other waves' accesses of the bytes, ordered by
barriers, are ``lds-race``'s (:mod:`pipeline_mlir.isa.lds_ranges`).  An access whose bytes
are not known here (an address a loop rotates, a register loaded) is not held by this
rule.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.counted import COUNTERS, order_on
from pipeline_mlir.isa.reg_waits import after_issue, after_wait, flight_states

__all__ = ["LdsWaitShort", "lds_wait_shorts", "LDS_KINDS"]

#: the LDS accesses the rule follows
LDS_KINDS = frozenset({"ds_read", "ds_write", "vmem_load_lds"})


@dataclass(frozen=True)
class LdsWaitShort:
    """``access`` touches LDS byte ``byte`` of wave ``wave`` that ``pending`` (counted on
    ``counter``, one of the two writing) may still be reading or writing: each ``s_waitcnt``
    of ``waits`` (the last of the counter before ``access`` on some path, with the count
    that would have completed ``pending`` there; empty: none after ``pending``) leaves it
    in flight; before ``access``, ``<counter>(<need>)`` would complete it."""

    access: AsmInstr
    pending: AsmInstr
    counter: str
    need: int
    wave: int
    byte: int
    waits: tuple[tuple[AsmInstr, int], ...] = ()
    #: the other accesses that touch ``pending``'s bytes while it may be in flight
    others: int = 0

    def lines(self) -> tuple[int, ...]:
        """The waits' lines first, then the access and the pending one."""
        return tuple(w.line for w, _ in self.waits) + (self.access.line, self.pending.line)

    def message(self) -> str:
        how = "reads" if self.pending.kind == "ds_read" else "writes"
        c = self.counter
        if self.waits:
            lead = " and ".join(f"{w.text} (line {w.line})" for w, _ in self.waits) + \
                f" leave{'s' * (len(self.waits) == 1)} {self.pending.mnemonic} (line " \
                f"{self.pending.line}) in flight"
            fix = " and ".join(f"{c}({n}) at line {w.line}" for w, n in self.waits)
        else:
            lead = (f"no s_waitcnt {c} between {self.pending.mnemonic} (line "
                    f"{self.pending.line}) and it leaves that in flight")
            fix = f"s_waitcnt {c}({self.need}) before it"
        more = f" ({self.others} more access{'es' * (self.others > 1)} after it too)" \
            if self.others else ""
        return (f"{lead} at {self.access.mnemonic} (line {self.access.line}) on some path, "
                f"and both touch LDS byte {self.byte} of wave {self.wave}, the earlier {how} it, on {c}, "
                f"which orders neither with the other counter's: it needs {fix}{more}")


def _tracked(i: AsmInstr) -> bool:
    return i.kind in LDS_KINDS


class _Bytes:
    """Per access line, its LDS units (dwords where both accesses touch whole aligned dwords,
    else bytes) keyed by wave (``wave << 18 | unit``: gfx950's LDS is below 2^18 bytes),
    and per wave its first and last byte, made once; per pair of lines, the overlap."""

    def __init__(self, accesses: dict) -> None:
        self.accesses = accesses
        self.made: dict = {}

    def overlap(self, a: int, b: int) -> tuple[int, int] | None:
        """(wave, byte) of the first byte ``a`` and ``b`` both touch in one wave."""
        if (a, b) not in self.made:
            self.made[a, b] = self._overlap(a, b)
        return self.made[a, b]

    def _overlap(self, a: int, b: int) -> tuple[int, int] | None:
        (alo, ahi), (blo, bhi) = self._span(a), self._span(b)
        n = min(len(alo), len(blo))
        if not ((alo[:n] <= bhi[:n]) & (blo[:n] <= ahi[:n])).any():
            return None         # no wave's bytes overlap in range (most pairs)
        unit = 4 if self.accesses[a].dwords and self.accesses[b].dwords else 1
        both = np.intersect1d(self._units(a, unit), self._units(b, unit), assume_unique=True)
        if not len(both):
            return None
        return int(both[0]) >> 18, (int(both[0]) & ((1 << 18) - 1)) * unit

    def _span(self, line: int) -> tuple[np.ndarray, np.ndarray]:
        key = (line, "span")
        if key not in self.made:
            bs = self.accesses[line].bytes
            self.made[key] = (np.array([b.min() if len(b) else 1 << 30 for b in bs]),
                              np.array([b.max() if len(b) else -1 for b in bs]))
        return self.made[key]

    def _units(self, line: int, unit: int) -> np.ndarray:
        key = (line, unit)
        if key not in self.made:
            self.made[key] = np.unique(np.concatenate([
                (np.int64(w) << 18) | (b[::4] >> 2 if unit == 4 else b)
                for w, b in enumerate(self.accesses[line].bytes)]))
        return self.made[key]


def _conflicts(state: dict, i: AsmInstr, by_line: dict, known: _Bytes):
    """(pending line, counter, need, (wave, byte)) of each access in ``state`` whose bytes
    ``i``, an LDS access of known bytes, touches in the same wave on the other counter, one
    of the two writing."""
    for (line, counter, order), later in state.items():
        if line not in known.accesses or (order == "in" and order_on(i, counter) == "in"):
            continue        # not known here, or ordered: one counter's in-order peers
        if by_line[line].kind == "ds_read" and i.kind == "ds_read":
            continue
        hit = known.overlap(line, i.line)
        if hit is not None:
            yield line, counter, later if order == "in" else 0, hit


def _last_waits(fn: AsmFunction, k: int, n: int, counter: str, pending: int) -> dict:
    """The last ``s_waitcnt`` of ``counter`` before instruction ``n`` of block ``k`` on each
    path back to the access at line ``pending`` (the blocks' predecessors walked, each
    once), with the fewest in-order instructions of the counter found between it and the
    access."""
    field = COUNTERS[counter].field
    preds: dict[int, list[int]] = {}
    index = {b.label: j for j, b in enumerate(fn.blocks)}
    for j, b in enumerate(fn.blocks):
        for s in b.succs:
            preds.setdefault(index[s], []).append(j)
    out: dict = {}
    seen, work = set(), [(k, n, 0)]
    while work:
        b, end, between = work.pop()
        for i in reversed(fn.blocks[b].instrs[:end]):
            if i.line == pending:
                break
            if i.kind == "wait" and getattr(i, field) is not None:
                out[i] = min(between, out.get(i, between))
                break
            between += order_on(i, counter) == "in"
        else:
            for p in preds.get(b, ()):
                if p not in seen:
                    seen.add(p)
                    work.append((p, len(fn.blocks[p].instrs), between))
    return out


def lds_wait_shorts(fn: AsmFunction, accesses: dict) -> list[LdsWaitShort]:
    """Each LDS access of ``fn`` some later access of the other counter touches the bytes
    of while it may be in flight (module docstring), ``accesses`` the LDS accesses of known
    bytes (:func:`~pipeline_mlir.isa.lds_ranges.lds_accesses`): one per pending access and
    counter, naming the first such access in line order, in line order."""
    if not fn.blocks or not accesses:
        return []
    by_line = {i.line: i for b in fn.blocks for i in b.instrs}
    known = _Bytes(accesses)
    found: dict = {}
    for (k, _), state in flight_states(fn, _tracked).items():
        state = dict(state)
        for n, i in enumerate(fn.blocks[k].instrs):
            if i.kind == "wait":
                after_wait(state, i)
                continue
            if i.line in accesses and state:
                for line, counter, need, hit in _conflicts(state, i, by_line, known):
                    key = (line, counter, i.line)
                    if key not in found or need < found[key][0]:
                        found[key] = (need, hit, k, n)
            after_issue(state, i, _tracked)
    first: dict = {}
    for (line, counter, at), (need, (wave, byte), k, n) in sorted(found.items()):
        if (line, counter) in first:
            first[line, counter][1] += 1
            continue
        waits = _last_waits(fn, k, n, counter, line)
        first[line, counter] = [LdsWaitShort(
            by_line[at], by_line[line], counter, need, wave, byte,
            tuple((w, max(0, need - waits[w])) for w in sorted(waits, key=lambda w: w.line))),
            0]
    out = [replace(s, others=m) for s, m in first.values()]
    return sorted(out, key=lambda s: (s.lines()[0], s.pending.line))
