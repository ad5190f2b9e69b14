"""The ISA check's findings: :class:`Finding`, :class:`IsaCheck` (what the check found,
and its printed form), and how findings are grouped and outside instructions explained.

The comparison that makes them is :mod:`pipeline_mlir.isa.check`'s.  No MLIR here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pipeline_mlir.isa.skeleton import PHASES, Outside, Token

__all__ = ["Finding", "IsaCheck", "group_findings", "explain_outside"]


@dataclass(frozen=True)
class Finding:
    kind: str
    phase: str
    entries: tuple[str, ...]
    lines: tuple[int, ...]
    message: str
    count: int = 1           # instructions concerned (data findings are grouped per entry)

    def key(self) -> tuple:
        return (self.kind, self.phase, self.entries, self.count)

    def __str__(self) -> str:
        ents = ",".join(self.entries) or "-"
        lns = ",".join(str(x) for x in self.lines) or "-"
        return f"{self.phase:<8} {self.kind:<16} entries {ents:<24} asm line {lns:<10} {self.message}"


@dataclass
class IsaCheck:
    """What :func:`check_isa` found."""

    findings: list[Finding] = field(default_factory=list)
    outside: list[Outside] = field(default_factory=list)
    expected: dict[str, list[Token]] = field(default_factory=dict)
    actual: dict[str, list[Token]] = field(default_factory=dict)
    #: per phase, the actual waits matched with the schedule's: token index -> entries
    schedule_waits: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)
    #: per phase, the counters of those waits that only guard against an overflow
    #: (``Token.guards``): token index -> counters
    schedule_guards: dict[str, dict[int, frozenset]] = field(default_factory=dict)
    #: per phase, the counts those waits were derived with where the schedule lowered them
    #: (``Token.derived``): token index -> ((counter, count), ...)
    schedule_derived: dict[str, dict[int, tuple]] = field(default_factory=dict)
    #: per phase, the schedule's own counts of those waits: token index -> ((counter,
    #: count), ...) (a count LLVM lowered: the cut the schedule relies on)
    schedule_counts: dict[str, dict[int, tuple]] = field(default_factory=dict)
    #: the MFMAs each MMA entry became (:func:`check_kernel_asm`; 0: not known)
    mfmas_per_mma: int = 0
    #: per phase, the planned and the actual ``ds_read`` s in the comparison's gaps (what
    #: :func:`~pipeline_mlir.isa.frag_addresses.read_findings` holds against each other)
    reads: dict = field(default_factory=dict)
    #: per phase, the planned and the actual MFMAs in the comparison's gaps (what
    #: :func:`~pipeline_mlir.isa.mfma_places.misplaced_mfmas` holds against each other)
    mfmas: dict = field(default_factory=dict)
    #: the phases were cut where the comparison put the seams, the code holding no loop
    #: (:mod:`~pipeline_mlir.isa.unrolled`): a barrier may fall on either side of a seam
    seams_cut: bool = False
    #: per zero-trip fence barrier of the assembly (its line), the DMAs to LDS that may
    #: still be in flight there (:func:`~pipeline_mlir.isa.fence_flight.fence_dmas`)
    fence_dmas: dict = field(default_factory=dict)

    def keys(self) -> Counter:
        return Counter(f.key() for f in self.findings)

    def format(self) -> str:
        lines = ["ISA check (final assembly vs the compiled schedule; entries PRO/KRN/EPI[i])"]
        lines.append(f"  {'phase':<10}" + "".join(f"{k:>16}" for k in _SUMMARY_KINDS))
        for ph in PHASES:
            exp = Counter(t.kind for t in self.expected.get(ph, []) for _ in range(t.parts))
            act = Counter(t.kind for t in self.actual.get(ph, []) for _ in range(t.parts))
            cells = "".join(f"{act[k]:>7} (exp {exp[k]:>3})" for k in _SUMMARY_KINDS)
            lines.append(f"  {ph:<10}{cells}")
        lines.append(f"  findings: {len(self.findings)}")
        lines += [f"    {f}" for f in self.findings]
        lines.append(f"  outside the schedule: {len(self.outside)}")
        k = 0
        while k < len(self.outside):   # runs of one phase and reason on one line
            o, n = self.outside[k], 1
            while k + n < len(self.outside) and (self.outside[k + n].phase, self.outside[k + n]
                                                 .reason) == (o.phase, o.reason):
                n += 1
            if n == 1:
                lines.append(f"    {o}")
            else:
                last = self.outside[k + n - 1].line
                lines.append(f"    {o.phase:<8} lines {o.line}-{last}: {n} x {o.reason} "
                             f"({o.text}, ...)")
            k += n
        return "\n".join(lines) + "\n"


_SUMMARY_KINDS = ("mfma", "ds_read", "vmem_load_lds", "wait", "barrier", "setprio",
                  "sched_barrier")


def explain_outside(o: Outside, pending: dict) -> Outside:
    """Name what an outside ``s_waitcnt`` with ``lgkmcnt(0)`` waits for: the last
    kernel-argument ``s_load`` or LDS write that may be in flight there (``pending``: per
    wait line, the instructions in flight on some path into it,
    :func:`pipeline_mlir.isa.reg_waits.reg_waits`); unchanged when neither is."""
    if not o.text.startswith("s_waitcnt") or "lgkmcnt(0)" not in o.text:
        return o
    flight = pending.get(o.line, ())
    for kind, what in (("smem", "the kernel-argument s_load"), ("ds_write", "the LDS write")):
        lines = [i.line for i in flight if i.kind == kind]
        if lines:
            return Outside(o.phase, o.line, o.text, f"LLVM's wait for {what} at line {lines[-1]}")
    return o


def group_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per (kind, phase, entries, message) of data instructions: the
    instructions of one logical op that did the same thing (lines collected)."""
    out: list[Finding] = []
    index: dict[tuple, int] = {}
    counts: dict[int, int] = {}
    for f in findings:
        if f.kind.split("-")[0] in ("wait", "barrier", "setprio", "fence", "sched"):
            out.append(f)
            continue
        key = (f.kind, f.phase, f.entries, f.message)
        if key in index:
            k = index[key]
            counts[k] += 1
            out[k] = Finding(f.kind, f.phase, f.entries, out[k].lines + f.lines, f.message)
        else:
            index[key] = len(out)
            counts[len(out)] = 1
            out.append(f)
    return [Finding(f.kind, f.phase, f.entries, f.lines,
                    f"{counts[k]} x {f.message}" if counts.get(k, 1) > 1 else f.message,
                    counts.get(k, 1)) for k, f in enumerate(out)]
