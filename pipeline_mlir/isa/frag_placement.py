"""Where the ISA check's fragment-read rule (:mod:`pipeline_mlir.isa.frag_addresses`) places
each workgroup buffer: the votes of the ``ds_read`` s of the gaps that plan a read of it
(that module's docstring, "Placement"), runs of planned reads lying end to end read as one
(:class:`Span`: LLVM merges adjacent reads), ties not guessed, a placement outside the LDS
said.  No MLIR here.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from pipeline_mlir.isa.findings import Finding

__all__ = ["Span", "runs", "placed", "misplaced"]


class Span:
    """Planned reads of one buffer lying end to end in every thread, as one read: its
    first read's buffer and addresses, their widths summed."""

    def __init__(self, members: list) -> None:
        self.buffer = members[0].buffer
        self.addresses = members[0].addresses
        self.width = sum(e.width for e in members)


def runs(reads) -> list:
    """``reads`` and each longest run of two or more of them that lie end to end (one
    buffer, each read's first byte the end of the one before, in every thread)."""
    out = list(reads)
    by_buffer: dict = {}
    for e in reads:
        by_buffer.setdefault(e.buffer, []).append(e)
    for es in by_buffer.values():
        es = sorted(es, key=lambda e: (int(e.addresses[0]), e.width))
        run = [es[0]]
        for e in es[1:] + [None]:
            if e is not None and np.array_equal(e.addresses, run[-1].addresses
                                                + run[-1].width):
                run.append(e)
                continue
            if len(run) > 1:
                out.append(Span(run))
            run = [e]
    return out


def _placement(phases: list, reads, size: dict) -> tuple[dict, dict, dict]:
    """(per buffer, its first byte; per buffer, the lines voting for each byte; per buffer
    left unplaced on a tie, the bytes tied): the byte most reads vote for (module
    docstring) that leaves it over no buffer placed before it (``size``: per buffer, the
    bytes the plan reads of it from its first)."""
    votes: dict[str, Counter] = {}
    voters: dict[str, dict] = {}
    for ph in phases:
        for gap, line, a, starts, width, on in ph.pieces():
            mine = set()
            for e in ph.spans(gap):
                if e.width % width or not on.any():
                    continue
                d = (starts - e.addresses)[on]
                if (d == d[0]).all():       # a piece of it (LLVM splits a wide read)
                    mine.update((e.buffer, int(d[0]) - k)
                                for k in range(0, e.width - width + 1, width))
            for b, base in mine:
                votes.setdefault(b, Counter())[base] += 1
                voters.setdefault(b, {}).setdefault(base, []).append(line)
    # a buffer whose most voted byte beats its others goes first (a gap reading two
    # buffers alike votes each read for both: the true byte has the votes of the other
    # gaps too), then the most voted; never over a buffer placed before it
    order = {e.buffer: k for k, e in enumerate(reads)}
    bases: dict[str, int] = {}
    tied: dict[str, list] = {}

    def free(b: str, base: int) -> bool:
        return all(base + size[b] <= o or o + size[c] <= base for c, o in bases.items())

    while True:
        best = []
        for b, c in votes.items():
            cands = sorted((-n, base) for base, n in c.items() if free(b, base)) \
                if b not in bases and b not in tied else []
            if cands:
                clear = len(cands) == 1 or cands[0][0] < cands[1][0]
                best.append((not clear, cands[0][0], cands[0][1], order[b], b))
        if not best:
            break
        unclear, n, base, _, b = min(best)
        fits = _fitting(voters[b], [x for x, m in votes[b].items() if -m == n and free(b, x)])
        if unclear and len(fits) > 1:
            # every read of it fits more than one byte (its addresses known in too few
            # reads to tell the parts apart): a guess would take each read for another
            # part; not placed, its gaps' reads not held
            tied[b] = fits
            continue
        bases[b] = base
    return bases, voters, tied


def placed(phases: list, reads, size: dict, unheld: list) -> tuple[dict, dict]:
    """:func:`_placement`'s bases and voters; the reads of the gaps of ``phases`` that plan a
    read of a buffer it leaves unplaced on a tie no longer held, and said in ``unheld``."""
    bases, voters, tied = _placement(phases, reads, size)
    if not tied:
        return bases, voters
    for ph in phases:
        ph.drop_gaps({g for g, es in ph.by_gap.items() if any(e.buffer in tied for e in es)})
    unheld.append("; ".join(
        f"every ds_read placing buffer {b} fits it at bytes {', '.join(map(str, x[:4]))}"
        f"{' ...' if len(x) > 4 else ''} alike (too few of its reads' addresses known to "
        f"tell its parts apart): not placed, the ds_read of its gaps not held"
        for b, x in sorted(tied.items())))
    return bases, voters


def _fitting(voters: dict, tops: list) -> list:
    """Of the bytes ``tops`` (tied on the most votes), those every line voting for the buffer
    votes for (``voters``: per byte, its voting lines), in order."""
    every = {ln for lines in voters.values() for ln in lines}
    return sorted(x for x in tops if set(voters[x]) == every)


def misplaced(bases: dict, voters: dict, size: dict, lds_bytes: int, instrs: dict) -> list:
    """A buffer placed outside the kernel's LDS (said in :func:`read_findings`' note)."""
    out = []
    for b, base in sorted(bases.items(), key=lambda x: x[1]):
        end = base + size[b]
        why = None
        if base < 0 or (lds_bytes and end > lds_bytes):
            why = f"past the kernel's {lds_bytes} bytes of LDS" if base >= 0 else \
                "below LDS byte 0"
        if why:
            lines = tuple(voters[b][base][:1])
            out.append(Finding("lds-misplaced", "-", (), lines,
                               f"{instrs[lines[0]].text} (line {lines[0]}) and "
                               f"{len(voters[b][base]) - 1} more ds_read read buffer {b} as "
                               f"if it began at LDS byte {base}: its bytes the plan reads "
                               f"({base}..{end - 1}) lie {why}: the reads are not where "
                               f"the copies put the tile"))
    return out
