"""The ISA check of a kernel whose pipelined loop LLVM unrolled fully (or MLIR folded: a
constant trip count of 0 or 1): the function's straight code compared with the plan's
prologue, as many copies of the loop's phase as the loop ran (:attr:`KernelPlan.trips`)
and its epilogue.

The comparison (:func:`~pipeline_mlir.isa.check.check_isa`) reads three assembly phases.
Here there is no loop to cut them at, so the cut is found from the comparison itself: the
expected skeleton of the whole run (prologue, ``trips`` copies of the loop phase, epilogue,
adjacent waits merged across the seams as LLVM merges them) has its separators aligned
with the whole function's (:func:`~pipeline_mlir.isa.check.align_separators`), and each
seam of the expected skeleton is put in the assembly after the last separator matched
before it and the data the expected phase still holds after that separator.  The three
phases so cut are then compared as a rolled kernel's are: every rule of the gate reads
the ``loop`` phase as the loop's copies together (their barriers counted against the
plan's times the trips, an MFMA missing from any copy an error).

LLVM may also keep a loop beside the unrolled run (IREE's remainder loop, which the
assembly then has for its main loop: :func:`~pipeline_mlir.isa.which_loop.not_the_pipelined_loop`).
Given that loop's first line (``kept``), the comparison reads the code in front of it as
the run, and the loop and what follows it as the code after the epilogue.

Where the comparison cannot be made, :func:`unrolled_check` says why (the trip count not
a constant the lowering knew, MFMAs not a whole number per MMA entry of the plan, no
separator of the schedule found): the caller prints it (``--emit=report``) and holds the
function to the rules that read the assembly alone.

No MLIR here.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.findings import IsaCheck
from pipeline_mlir.isa.skeleton import (DATA_CLASSES, PHASES, SEPARATORS, Expansion, Token,
                                        actual_skeleton, expected_skeleton, merge_waits, sep_key)
from pipeline_mlir.kernel.plan import ZERO_TRIP_FENCE, KernelPlan

__all__ = ["UnrolledCheck", "unrolled_check"]


@dataclass
class _Straight(AsmFunction):
    """A function of straight code with the phases the comparison cut it into."""

    phases: dict = field(default_factory=dict)
    straight = True

    def main_loop_phases(self) -> dict:
        return self.phases


@dataclass
class UnrolledCheck:
    """The comparison of an unrolled kernel (``isa``), or why it was not made (``why``)."""

    isa: IsaCheck | None = None
    why: str = ""
    trips: int = 0
    #: the assembly lines after the run's epilogue (IREE's remainder code, the C stores),
    #: first and last, which no phase holds; None: none
    after: tuple[int, int] | None = None
    #: the instructions of each phase as cut (prologue, loop, epilogue)
    phases: dict = field(default_factory=dict)
    #: why the assembly's main loop is another loop, kept beside the unrolled run ("": none)
    kept: str = ""

    def note(self) -> str:
        """What the report says of the comparison made."""
        rest = f"; lines {self.after[0]}-{self.after[1]} after its epilogue compared with " \
               f"nothing (the rules reading the assembly alone read them)" if self.after else ""
        if self.kept:
            return (f"the pipelined loop unrolled in front of the main loop ({self.kept}): "
                    f"the code in front of that loop compared as the prologue, "
                    f"{self.trips} cop{'y' if self.trips == 1 else 'ies'} of the loop phase "
                    f"(the 'loop' row) and the epilogue{rest}")
        return (f"the pipelined loop unrolled (main loop above): its straight code compared "
                f"as the prologue, {self.trips} cop{'y' if self.trips == 1 else 'ies'} of the "
                f"loop phase (the 'loop' row) and the epilogue{rest}")


def _run_kinds(plan: KernelPlan, trips: int) -> list[str]:
    """The token kinds of the whole run's expected skeleton with one MFMA per MMA entry:
    its ``mfma`` are the run's MMA entries, in order (every MMA entry of each phase, the
    loop's ``trips`` times, is one, and nothing else is: the lowering drops no MMA)."""
    shape = plan.shape
    x = Expansion(shape.vm_per_load, shape.lgkm_per_load, 1)
    return [t.kind for _, t in _run_tokens(plan, x, trips)]


def _mfmas_per_mma(instrs: list, plan: KernelPlan, trips: int) -> int | None:
    """The MFMAs an MMA entry became: the plan's, else the MFMAs of ``instrs`` (the code
    compared) before its last ``sched_barrier`` (the pipelined code's end: IREE's remainder
    code follows it) over the run's MMA entries before its last fence, or else all of them
    over all the run's MMA entries, where one divides evenly.  All of them first counted
    the remainder's too where they divided evenly as well: IREE's fp8 ``A x B^T``
    1024x1024x1536 (vector distribute, late form) had 6 per entry for 4, and its MFMAs
    found missing from the loop refused it.  The entries before the last fence, not all
    of them: a run may end in MMAs after its last fence (the ping-pong epilogue's last
    block, IREE's f16 ``A x B^T`` 256x128x160 in 8 waves with its fifth K step a remainder:
    56 MFMAs before that fence read as none per entry, all 80 as 5 for 4).  Both counts
    of MMA entries are the run's ``mfma`` tokens (:func:`_run_kinds`)."""
    if plan.shape.mfmas_per_mma is not None:
        return plan.shape.mfmas_per_mma
    fences = [k for k, i in enumerate(instrs) if i.kind == "sched_barrier"]
    run = _run_kinds(plan, trips)
    last = max((k for k, kind in enumerate(run) if kind == "sched_barrier"), default=None)
    spans = [(instrs[:fences[-1]], run[:last].count("mfma"))] if fences and last else []
    for span, mmas in spans + [(instrs, run.count("mfma"))]:
        n = sum(1 for i in span if i.kind == "mfma")
        if mmas and n and n % mmas == 0:
            return n // mmas
    return None


def _aligned_per_mma(m: int | None, run_of, act: list[Token], n: int,
                     mmas: int) -> int | None:
    """``m`` (:func:`_mfmas_per_mma`'s count of MFMAs per MMA entry, None where the MFMAs
    divide by none) when the whole run's expected fences and MFMAs (``run_of(m)``,
    :func:`_run_tokens`) all align with the function's (``act``, :func:`_anchors`), else
    the count, up to the function's ``n`` MFMAs over the run's ``mmas`` MMA entries
    (rounded up: a deleted MFMA leaves fewer; 1 at least), whose expected anchors align
    best: most matched, fewest left over on either side (``m`` on a tie); None for a run
    of no MMA entry.  An even division is no proof: IREE's
    remainder code after the run may end in fences, so that the MFMAs before the last one
    hold the remainder's (fp8 ``A^T x B`` 384x768x640 in one wave with 32x32x64 MFMAs, 5 K
    steps of 128, the pipelined loop one trip unrolled and the fifth K step's 32 MFMAs
    after its epilogue: 160 over 16 entries counted 10 for 8, and the seams so cut made
    the loop copy's MFMAs missing and the epilogue's moved later); and a count that
    divides by none (an MFMA LLVM dropped, or one a mutant deleted) still has the run's
    count align best, which the comparison then holds the code to (before, such code was
    held to the rules reading the assembly alone, which passed it)."""
    got = [_anchor_key(t) for t in act if _anchor(t)]
    anchors: dict[int, list[str]] = {}
    scores: dict[int, tuple[int, bool]] = {}

    def expected(per: int) -> list[str]:
        if per not in anchors:
            anchors[per] = [_anchor_key(t) for _, t in run_of(per) if _anchor(t)]
        return anchors[per]

    def score(per: int) -> tuple[int, bool]:
        if per not in scores:
            exp = expected(per)
            sm = difflib.SequenceMatcher(None, exp, got, autojunk=False)
            matched = sum(size for _, _, size in sm.get_matching_blocks())
            scores[per] = (2 * matched - len(exp) - len(got), matched == len(exp))
        return scores[per]
    if not mmas or (m is not None and score(m)[1]):
        return m
    best = _best_per(range(1, max(-(-n // mmas), 1) + 1), m, score,
                     lambda per: -abs(len(expected(per)) - len(got)))
    return best if m is None or score(best)[0] > score(m)[0] else m


def _best_per(pers: range, m: int | None, score, bound) -> int:
    """``max(pers, key=lambda per: (score(per)[0], per == m))``, the first of equal ones,
    with the matching (``score``, a sequence matcher's, quadratic in the anchors) skipped
    for a count whose ``bound`` on its score (at most every anchor of the shorter side
    matched: minus the lengths' difference) cannot beat the best found: the counts tried
    in order of that bound, the highest first."""
    bounds = {per: (bound(per), per == m) for per in pers}
    best = None
    for per in sorted(pers, key=lambda p: (bounds[p], -p), reverse=True):
        if best is not None:
            top = (score(best)[0], best == m)
            if bounds[per] < top or (bounds[per] == top and per > best):
                continue
        key = (score(per)[0], per == m)
        if best is None or key > (score(best)[0], best == m) or \
                (key == (score(best)[0], best == m) and per < best):
            best = per
    return best


def _anchor_key(t: Token) -> str:
    """How :func:`_anchors` compares an anchor: ``M`` for an MFMA, a fence by its key."""
    return "M" if t.kind == "mfma" else sep_key(t)


def _run_tokens(plan: KernelPlan, x: Expansion, trips: int) -> list[tuple[str, Token]]:
    """(phase, token) of the whole run's expected skeleton, adjacent waits merged (the
    merged wait in the phase of its first part).  The zero-trip fence is left out when the
    loop runs: its condition is a constant false, folded away."""
    exp = expected_skeleton(plan, x)
    zt = f"lowering:{ZERO_TRIP_FENCE}"
    out: list[tuple[str, Token]] = []
    for ph, toks in (("prologue", exp["prologue"]), ("loop", exp["loop"] * trips),
                     ("epilogue", exp["epilogue"])):
        for t in toks:
            if trips and t.origin and all(o == zt for o in t.origin):
                continue
            if t.kind == "wait" and out and out[-1][1].kind == "wait":
                out[-1] = (out[-1][0], merge_waits(out[-1][1], t))
            else:
                out.append((ph, t))
    return out


def _anchors(exp: list[Token], act: list[Token]) -> list[tuple[int, int]]:
    """Matched (exp index, act index) pairs of the tokens LLVM keeps as the lowering placed
    them: its fences (``s_barrier``, ``sched_barrier``, ``s_setprio``, group barriers) and
    the MFMAs between them, which it moves across none.  Waits are left out: LLVM adds its
    own (a register-staged copy's loads) and merges ours, and a run of loop copies whose
    waits differ from the plan's by one let the alignment slip a seam by a copy's tail
    (IREE's fp8 E5M2 ``A x B`` + ``truncf`` 492x71x2085 from the prefetch point: two of the
    loop's MFMAs counted in the epilogue)."""
    def keyed(tokens):
        return [(k, _anchor_key(t)) for k, t in enumerate(tokens) if _anchor(t)]

    ek, ak = keyed(exp), keyed(act)
    sm = difflib.SequenceMatcher(None, [k for _, k in ek], [k for _, k in ak],
                                 autojunk=False)
    return [(ek[i + d][0], ak[j + d][0]) for i, j, n in sm.get_matching_blocks()
            for d in range(n)]


#: the data kinds a phase's tail owes after its last anchor, matched kind by kind: a copy is
#: a DMA to LDS in the plan and may be a global load LLVM issued (a register-staged copy)
_OWED = {"mfma": "mfma", "ds_read": "ds_read", "vmem_load_lds": "copy", "vmem_load": "copy"}


def _anchor(t: Token) -> bool:
    """Whether ``t`` is a token :func:`_anchors` aligns (a fence, not a wait; an MFMA)."""
    return t.kind == "mfma" or (t.kind in SEPARATORS and t.kind != "wait")


def _cuts(run: list[tuple[str, Token]], act: list[Token]) -> list[int] | None:
    """The positions in ``act`` (the function's actual tokens) where the loop and the
    epilogue begin, None when no fence or MFMA matches (:func:`_anchors`).  Each seam goes
    after the last anchor matched before it and the data the expected phase still holds
    after that anchor, taken kind by kind up to the next anchor: LLVM's own instructions
    there (a register-staged copy's loads and LDS writes, its waits) are not the phase's
    reads (IREE's fp8 E5M2 ``A x B`` 492x71x2085 from the prefetch point, whose prologue
    ends in 8 fragment reads after 18 of LLVM's global loads: those loads were counted for
    the reads, which the cut put in the loop)."""
    exp = [t for _, t in run]
    pairs = _anchors(exp, act)
    if not pairs:
        return None
    cuts = []
    for ph in PHASES[1:] + ("",):
        b = next((k for k, (p, _) in enumerate(run) if PHASES.index(p) >= PHASES.index(ph)),
                 len(run)) if ph else len(run)
        before = [(e, a) for e, a in pairs if e < b]
        if not before:
            cuts.append(0)
            continue
        e1, a1 = before[-1]
        owed = Counter(_OWED.get(exp[k].kind) for k in range(e1 + 1, b)
                       if exp[k].kind in DATA_CLASSES)
        a = a1 + 1
        while sum(owed.values()) and a < len(act) and not _anchor(act[a]):
            kind = _OWED.get(act[a].kind)
            if owed[kind]:
                owed[kind] -= 1
            a += 1
        cuts.append(a)
    return [cuts[0], max(cuts[1], cuts[0]), max(cuts[2], cuts[1])]


def unrolled_check(fn: AsmFunction, plan: KernelPlan, kept: tuple[int, str] | None = None,
                   **isa_options) -> UnrolledCheck:
    """The comparison of ``fn`` (straight code: no loop holds its MFMAs) with ``plan``'s
    whole run (module docstring), or why it cannot be made; ``kept``: the first assembly
    line of a loop LLVM kept beside the run and why it is not the pipelined loop (the code
    in front of that line is compared)."""
    from pipeline_mlir.isa.check import check_isa

    trips = plan.trips
    if trips is None:
        return UnrolledCheck(why="the pipelined loop's trip count was no constant the "
                                 "lowering knew, so the copies of its loop phase are not "
                                 "counted")
    instrs = fn.instrs()
    front = [i for i in instrs if i.line < kept[0]] if kept else instrs
    what = "code in front of the main loop" if kept else "function"
    m = isa_options.get("mfmas_per_mma") or _mfmas_per_mma(front, plan, trips)
    shape = plan.shape

    def expansion(per: int) -> Expansion:
        return Expansion(shape.vm_per_load, shape.lgkm_per_load, per,
                         isa_options.get("mfma_name") or shape.mfma,
                         isa_options.get("load_name"), isa_options.get("ds_name"))
    whole = _Straight(fn.name, fn.blocks, fn.line, fn.threads, fn.lds_bytes,
                      phases={"prologue": front, "loop": [], "epilogue": []})
    act = actual_skeleton(whole)[0]["prologue"]
    n = sum(1 for i in front if i.kind == "mfma")
    mmas = _run_kinds(plan, trips).count("mfma")
    if not isa_options.get("mfmas_per_mma") and plan.shape.mfmas_per_mma is None:
        m = _aligned_per_mma(m, lambda per: _run_tokens(plan, expansion(per), trips), act, n,
                             mmas)
    if m is None:
        return UnrolledCheck(why=f"the run (the prologue, {trips} copies of the loop phase, "
                                 f"the epilogue) has {mmas} MMA entries, so the {what}'s {n} "
                                 f"MFMAs are not counted per entry", trips=trips)
    run = _run_tokens(plan, expansion(m), trips)
    cuts = _cuts(run, act)
    if cuts is None:
        return UnrolledCheck(why=f"no separator of the schedule's run is in the {what}",
                             trips=trips)
    # the cuts as instruction positions: after the last token before each
    pos = {i.line: k for k, i in enumerate(instrs)}

    def at(c: int) -> int:
        return pos[act[c - 1].lines[-1]] + 1 if c > 0 else 0

    i1, i2, i3 = at(cuts[0]), at(cuts[1]), at(cuts[2])
    whole.phases = {"prologue": instrs[:i1], "loop": instrs[i1:i2], "epilogue": instrs[i2:i3]}
    expected = {ph: [t for p, t in run if p == ph] for ph in PHASES}
    res = check_isa(whole, expected, plan.fragment_waits, plan, own_waits=True)
    res.mfmas_per_mma = m
    res.seams_cut = True
    rest = [i.line for i in instrs[i3:] if i.kind in SEPARATORS or i.kind in DATA_CLASSES
            or i.kind == "vmem_store"]
    return UnrolledCheck(isa=res, trips=trips, after=(rest[0], rest[-1]) if rest else None,
                         phases=whole.phases, kept=kept[1] if kept else "")
