"""The ISA gate's MFMA rule (:mod:`~pipeline_mlir.isa.frag_addresses`): which of the IR's
MFMAs each fragment read fills, held against the accumulator chains of the assembly's
MFMAs (:func:`~pipeline_mlir.isa.read_places.mfma_chains`)."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from pipeline_mlir.isa.findings import Finding


def describe_read(e) -> str:
    """A planned fragment read named for a message."""
    return (f"channel {e.channel} stage {e.stage} subtile {e.subtile} part {e.part} "
            f"({e.buffer})")


class Fed(NamedTuple):
    """A ``ds_read`` piece that fills its part with the planned bytes, and one MFMA it
    reaches: the phase, the read's line, the operand and its bytes from ``at``, the
    MFMA's line, the planned read (and its schedule entries), and the IR's MFMAs that
    read fills there
    ((accumulator, position, chain length, sched.mma id) each; None: an accumulator not
    followed)."""

    phase: str
    line: int
    operand: str
    at: int
    width: int
    mfma: int
    read: object
    feeds: frozenset | None
    entries: tuple          # the schedule entries of the planned read


def feeds_of(hit: list, operand: str, at: int, width: int) -> frozenset | None:
    """The (accumulator, position, chain length, sched.mma id) of the IR's MFMAs whose
    ``operand`` bytes ``at .. at + width - 1`` the planned reads ``hit`` ((read, its first
    byte) each) fill (None: one whose accumulator the lowering did not follow)."""
    want = tuple(range(at, at + width))
    out = set()
    for e, k in hit:
        for f in e.feeds:
            if f.operand == operand and f.mapping[k:k + width] == want:
                if f.acc is None or f.length < 1:
                    return None
                out.add((f.acc, f.pos, f.length, f.mma))
    return frozenset(out)


def _mfma_name(acc: int, pos: int, mma: int) -> str:
    return (f"the MFMA of carried accumulator {acc} at place {pos} of its chain"
            f"{f' (sched.mma {mma})' if mma >= 0 else ''}")


def mfma_findings(evidence: list, chains, instrs: dict, unheld: list) -> list[Finding]:
    """``lds-misread``: a ``ds_read`` piece that fills its planned part of an MFMA operand
    whose MFMA is not one the plan's read fills.  Which of the IR's MFMAs an assembly
    MFMA is, is what the reads reaching its accumulator chain
    (:func:`~pipeline_mlir.isa.read_places.mfma_chains`) fill, held together: the chain is
    the chain of the accumulator, and each of its MFMAs at the place in that chain
    (its place in the assembly's chain plus one shift, modulo the chain's length), that
    most of the reads reaching the chain fill; a read filling none of those is refused at
    its line.  A chain not followed is held MFMA by MFMA (the MFMA most of the reads
    reaching it fill), and said in ``unheld`` with what else is not followed."""
    if chains is None:
        if evidence:
            unheld.append("which MFMA each ds_read fills is not held (no accumulator "
                          "chains given)")
        return []
    blind: dict = {}
    held = []
    for x in evidence:
        if not x.feeds:
            blind.setdefault(x.line, "its planned read fills an MFMA whose accumulator "
                                     "chain the lowering did not follow")
        elif x.mfma not in chains.chain:
            blind.setdefault(x.line, f"line {x.mfma} is no MFMA of a chain")
        else:
            held.append(x)
    unfollowed = sorted({x.mfma for x in held if x.mfma in chains.why})

    known: dict = {}

    def keys(x) -> tuple:
        """(the chain of ``x`` 's MFMA, the (accumulator, shift) s it may be of by ``x``'s
        feeds); an MFMA of a chain not followed: itself, by (accumulator, place)."""
        got = known.get((x.mfma, x.feeds))
        if got is None:
            if x.mfma in chains.why:
                got = x.mfma, frozenset(f[:2] for f in x.feeds)
            else:
                q = chains.place[x.mfma]
                got = chains.chain[x.mfma], frozenset((f[0], (f[1] - q) % f[2])
                                                      for f in x.feeds)
            known[x.mfma, x.feeds] = got
        return got

    # (each piece is in ``evidence`` once per MFMA it reaches)
    said = [(x, *keys(x)) for x in held]
    # each piece votes once per MFMA it reaches for each (accumulator, shift) it may be
    votes: dict = {}
    for x, c, ks in said:
        votes.setdefault(c, Counter()).update(ks)
    # one (accumulator, shift) per chain: the most voted (the least of those tied).  A
    # chain is one accumulator's, so its reads must agree on one: a tie between reads of
    # two (a chain whose halves are two accumulators' MFMAs, or whose loop MFMAs read
    # another accumulator's fragments than its prologue's and epilogue's) refuses the
    # reads of the other (votes that all reads share refuse none)
    top = {c: {min(v, key=lambda k: (-v[k], k))} for c, v in votes.items()}
    out, seen = [], set()
    for x, c, ks in said:
        if x.line in seen or not ks.isdisjoint(top[c]):
            continue
        seen.add(x.line)
        others = sorted({y.line for y, cy, _ in said if y.line != x.line and cy == c})
        out.append(_misread(x, top[c], held, others, chains, instrs))
    if blind:
        unheld.append(f"which MFMA {len(blind)} ds_read fill is not held (" + "; ".join(
            f"line {ln}: {why}" for ln, why in sorted(blind.items())[:4])
            + (" ..." if len(blind) > 4 else "") + ")")
    if unfollowed:
        unheld.append(f"the accumulator chains of {len(unfollowed)} MFMA are not followed "
                      f"(line {unfollowed[0]}: {chains.why[unfollowed[0]]}): each held "
                      f"as the MFMA the reads reaching it fill, not across its chain")
    return out


def _misread(x: Fed, top: set, held: list, others: list, chains, instrs: dict) -> Finding:
    """:func:`mfma_findings`' ``lds-misread`` of piece ``x``: its chain held as the
    (accumulator, shift) s ``top``, which ``x`` fills none of; ``others``: the lines of the
    other reads reaching that chain."""
    mma = {f[:2]: f[3] for y in held for f in y.feeds}
    length = {f[0]: f[2] for y in held for f in y.feeds}
    if x.mfma in chains.why:
        want = sorted(top)
    else:
        want = sorted((a, (s + chains.place[x.mfma]) % length[a]) for a, s in top)
    what = " or ".join(_mfma_name(a, p, mma.get((a, p), -1)) for a, p in want)
    plan = ", ".join(_mfma_name(a, p, m) for a, p, _, m in sorted(x.feeds))
    return Finding(
        "lds-misread", x.phase, x.entries, (x.line,),
        f"{instrs[x.line].text} (line {x.line}) fills bytes {x.at}..{x.at + x.width - 1} "
        f"of {x.operand} of {instrs[x.mfma].mnemonic} (line {x.mfma}), which the "
        f"{len(others)} other ds_read reaching its accumulator chain (lines "
        f"{', '.join(map(str, others[:6]))}{' ...' if len(others) > 6 else ''}) make "
        f"{what}; the plan's read there, {describe_read(x.read)}, fills that part of "
        f"{plan}")
