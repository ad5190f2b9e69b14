"""``mfma-misplaced``: an MFMA in a gap of the comparison where the plan puts no MMA of its
accumulator.

The comparison (:mod:`pipeline_mlir.isa.check`) counts each gap's MFMAs (the stretch
between two aligned separators) against the plan's; two MFMAs that trade places across a
separator leave every count as it was.  Which MMA of the plan an MFMA is, its accumulator
says: the assembly's MFMAs are linked into accumulator chains
(:func:`~pipeline_mlir.isa.read_places.mfma_chains`), and each MMA entry of the plan names
its accumulator tile (its ``stage`` and ``subtile``: the row and column of the wave's C
tile).  Each chain is given the tile most of its MFMAs' gaps plan (one vote per tile a
gap plans, per MFMA; a tie gives it none); an MFMA of a chain so given whose gap plans
MMAs of other tiles only is refused, at its line, the others counted.  A tie is left
alone: where the front end splits a tile along K its ``subtile`` counts K parts, and a
chain's MFMAs as built sit in gaps of two keys equally (IREE's fp8 ``A x B``
64x64x1000, late, and bf16 ``A^T x B`` 300x200x160, both exact on the emulator, were
refused when a tie gave the least tile).  Two chains of two MFMAs swapped across a
separator, each then in the other's gap, tie: the swap that moves a chain's start below
the other's, which then reads its result as A, is ``operand-accumulator``
(:mod:`~pipeline_mlir.isa.fragment_reuse`); the one of two MFMAs whose operands are
both ready computes what the plan's order does (fp8 ``A x B^T`` 64x31x96's epilogue, exact
on the emulator) and passes.

Such a swap moves one MFMA above the fragment reads that fill its operands: it multiplies
whatever its registers held, which no register rule sees once an earlier read wrote them
(the unrolled Wave GEMM's loop copy: its first MFMA after its last barrier but one traded
with the one after the read of that one's B fragment, whose registers an earlier read of
the copy wrote; C WRONG on the emulator).

Not held: a phase whose MFMAs the comparison finds astray (``mfma-moved``, ``-missing``,
``-extra``, ``-changed``: its gaps then pair no planned MFMA with the assembly's), a chain
the walk does not follow (``Chains.why``) or whose votes tie (above).

No MLIR here.
"""

from __future__ import annotations

import re
from collections import Counter

from pipeline_mlir.isa.findings import Finding, IsaCheck
from pipeline_mlir.kernel.plan import KernelPlan

__all__ = ["misplaced_mfmas"]

_LABEL = re.compile(r"^(PRO|KRN|EPI)\[(\d+)\]$")
_PLAN_PHASE = {"PRO": "prologue", "KRN": "kernel", "EPI": "epilogue"}
#: the comparison's findings that leave a phase's MFMAs to no planned MFMA of their gap
_ASTRAY = frozenset({"mfma-moved", "mfma-missing", "mfma-extra", "mfma-changed"})


def misplaced_mfmas(plan: KernelPlan, res: IsaCheck, chains) -> list[Finding]:
    """The ``mfma-misplaced`` finding of the comparison ``res`` (its ``mfmas``: per phase,
    the planned and the assembly's MFMAs by gap) with ``plan``, the assembly's MFMAs
    linked by ``chains`` (module docstring); none when every MFMA is where its tile's are."""
    astray = {f.phase for f in res.findings if f.kind in _ASTRAY}
    planned: dict = {}          # (phase, gap) -> the tiles its planned MMAs accumulate
    where: dict = {}            # MFMA line -> (phase, gap)
    for ph, (exp, act) in res.mfmas.items():
        if ph in astray:
            continue
        for g, label in exp:
            m = _LABEL.match(label)
            if m:
                op = plan.entries(_PLAN_PHASE[m.group(1)])[int(m.group(2))].op
                planned.setdefault((ph, g), set()).add((op.stage, op.subtile))
        where.update((line, (ph, g)) for g, line in act)
    votes: dict = {}
    for line, at in where.items():
        if line in chains.chain and line not in chains.why:
            votes.setdefault(chains.chain[line], Counter()).update(planned.get(at, ()))
    tile = {}
    for c, v in votes.items():
        top = v.most_common(2)
        if top and (len(top) == 1 or top[0][1] > top[1][1]):
            tile[c] = top[0][0]
    bad = sorted(line for line, at in where.items() if chains.chain.get(line) in tile
                 and planned.get(at) and tile[chains.chain[line]] not in planned[at])
    if not bad:
        return []
    line = bad[0]
    row, col = tile[chains.chain[line]]
    ph, _ = where[line]
    return [Finding("mfma-misplaced", ph, (), (line,),
                    f"the MFMA at line {line} accumulates the tile (row {row}, column {col}) "
                    f"its chain's other MFMAs do, in a gap where the plan puts MMAs of other "
                    f"tiles only: it traded places with another MFMA across a separator",
                    len(bad))]
