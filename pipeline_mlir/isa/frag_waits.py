"""The fragment waits of a kernel's assembly, re-derived and checked.

A schedule entry ``WAIT_FRAG`` (:mod:`pipeline_mlir.schedule.frag_waits`) issues no
instruction: LLVM's waitcnt pass puts an ``s_waitcnt lgkmcnt(n)`` before each MFMA whose
operand registers an LDS read still in flight defines.  This module derives, from the
assembly alone, the count each of those MFMAs needs: the LDS instructions issued after
the latest in-flight read that defines one of its operands (reads complete in issue order
on lgkmcnt while only LDS instructions are in flight).  A wait directly before an MFMA
must be exactly that count: a larger one is a race (``frag-wait-weak``), a smaller one
waits for reads the MFMA does not need (``frag-wait-strong``), and an MFMA that needs a
wait and has none is ``frag-wait-missing``.

The kernel is walked the ways it runs: prologue, the loop entered from the prologue and
from its own end, the epilogue after the loop and after a loop of zero trips; a wait must
be right on each.  Straight code (a loop LLVM unrolled: the loop's phase is its copies one
after another) runs one way, each phase once: its last copy's reads in flight are never
in flight at its first copy's MFMAs.  A scalar load in flight (it completes out of order) makes the count
0 for as long as it is outstanding.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.isa.asm import AsmInstr
from pipeline_mlir.isa.counted import order_on


@dataclass(frozen=True)
class FragmentWait:
    """One finding: ``kind`` frag-wait-weak | frag-wait-strong | frag-wait-missing."""

    kind: str
    phase: str
    line: int
    mfma_line: int
    got: int | None
    need: int

    def message(self) -> str:
        if self.kind == "frag-wait-missing":
            return (f"the MFMA at line {self.mfma_line} reads a register an LDS read in flight "
                    f"defines and has no s_waitcnt before it (needs lgkmcnt({self.need}))")
        how = ("a race: the MFMA reads a register still in flight" if self.got > self.need
               else "it waits for reads the MFMA does not read")
        return (f"s_waitcnt lgkmcnt({self.got}) before the MFMA at line {self.mfma_line}: its "
                f"operands need lgkmcnt({self.need}) ({how})")


def _is_frag_wait(i: AsmInstr | None) -> bool:
    return i is not None and i.kind == "wait" and i.lgkm is not None and i.vm is None


class _Walk:
    """The in-flight lgkmcnt instructions along one way through the phases; ``needs``
    collects, per ``(phase, wait line or None, MFMA line)``, ``(need, in flight, got)``
    each time the way passes that MFMA."""

    def __init__(self, needs: dict) -> None:
        self.pending: list[tuple[frozenset, bool]] = []   # (defs, is a scalar load)
        self.needs = needs

    def run(self, phase: str, instrs: list[AsmInstr]) -> None:
        for k, i in enumerate(instrs):
            nxt = instrs[k + 1] if k + 1 < len(instrs) else None
            if i.kind == "wait":
                if _is_frag_wait(i) and nxt is not None and nxt.kind == "mfma":
                    self._record(phase, i, nxt)
                if i.lgkm is not None and i.lgkm < len(self.pending):
                    self.pending = self.pending[len(self.pending) - i.lgkm:]
            elif (order := order_on(i, "lgkmcnt")) is not None:
                self.pending.append((frozenset(i.defs), order == "any"))
            elif i.kind == "mfma" and not (k and _is_frag_wait(instrs[k - 1])):
                self._record(phase, None, i)

    def _record(self, phase: str, wait: AsmInstr | None, m: AsmInstr) -> None:
        """What MFMA ``m`` needs, from the reads in flight before ``wait`` (if any)."""
        pending, uses = self.pending, set(m.uses)
        hits = [k for k, (defs, _) in enumerate(pending) if defs & uses]
        if not hits:
            need = len(pending)
        elif any(scalar for _, scalar in pending[:max(hits) + 1]):
            need = 0
        else:
            need = len(pending) - 1 - max(hits)
        self.needs.setdefault((phase, wait.line if wait else None, m.line), []).append(
            (need, len(pending), wait.lgkm if wait else None, bool(hits)))


def check_fragment_waits(phases: dict[str, list[AsmInstr]],
                         straight: bool = False) -> tuple[set[int], list[FragmentWait]]:
    """The lines of the fragment waits of a kernel's assembly (an lgkmcnt-only
    ``s_waitcnt`` directly before an MFMA) and what is wrong with them.  ``phases``:
    ``{'prologue', 'loop', 'epilogue'}`` instructions
    (:meth:`pipeline_mlir.isa.asm.AsmFunction.main_loop_phases`); ``straight``: each run
    once, in order (:attr:`~pipeline_mlir.isa.asm.AsmFunction.straight`)."""
    pro, loop, epi = phases["prologue"], phases["loop"], phases["epilogue"]
    needs: dict = {}
    ways = ((("prologue", pro), ("loop", loop), ("epilogue", epi)),) if straight else \
        ((("prologue", pro), ("loop", loop), ("loop", loop), ("epilogue", epi)),
         (("prologue", pro), ("epilogue", epi)))
    for way in ways:
        w = _Walk(needs)
        for phase, instrs in way:
            w.run(phase, instrs)
    lines, out = set(), []
    for (phase, line, mline), seen in sorted(needs.items(), key=lambda kv: kv[0][2]):
        # a way on which no read in flight defines an operand bounds nothing (any count
        # that waits for none of them is right there): the ways that do decide, if any;
        # where none does, a count of at least every way's reads in flight waits for
        # nothing and is right, a smaller one only waits for reads the MFMA does not read
        hit = any(h for *_, h in seen)
        need = min(n for n, _, _, h in seen if h) if hit else max(n for n, _, _, _ in seen)
        if line is None:
            if any(n < flight for n, flight, _, _ in seen):
                out.append(FragmentWait("frag-wait-missing", phase, mline, mline, None, need))
            continue
        lines.add(line)
        got = seen[0][2]
        if got != need and (hit or got < need):
            kind = "frag-wait-weak" if got > need else "frag-wait-strong"
            out.append(FragmentWait(kind, phase, line, mline, got, need))
    return lines, out
