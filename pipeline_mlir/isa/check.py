"""The ISA check: does the final gfx950 assembly still hold the compiled schedule?

The expected skeleton of each assembly phase (what the lowering makes of the kernel plan
it used) and the actual one (the assembly's) are :mod:`pipeline_mlir.isa.skeleton`'s;
this module compares them.

Comparison: the separators (waits, barriers, priorities, fences) of both
skeletons are aligned (:mod:`pipeline_mlir.isa.align`: by class with :mod:`difflib`, the
fences in order where the phase has the schedule's); adjacent waits count as one
(LLVM merges them).  Data instructions are then compared gap by gap (a gap is
the stretch between two aligned separators): an instruction found in another
gap than planned has moved across the separators between the two.  A wait an earlier
wait of the block already holds (:func:`held_counts`) is no weakening where LLVM removed,
narrowed or raised it; a wait pair whose actual wait is LLVM's own is realigned.  Every
difference is a :class:`Finding` naming its kind, the assembly phase, the
schedule entries (``PRO[4]``, ``KRN[3]``, ``EPI[0]``, or ``lowering:<what>``
for an instruction the lowering adds) and the assembly lines.

Finding kinds: ``wait-merged`` (several schedule waits became one
``s_waitcnt``), ``wait-tightened`` (LLVM lowered a count or waited for a
counter the schedule did not: it only ever tightens), ``wait-weakened`` (a
count is larger or a counter is no longer waited for: never LLVM, a lowering
bug), ``wait-added`` / ``wait-missing``, ``barrier-extra`` /
``barrier-missing``, ``setprio-extra`` / ``setprio-missing`` /
``setprio-changed``, ``fence-extra`` / ``fence-missing``,
``sched-group-barrier-*``, ``<class>-moved`` / ``<class>-missing`` /
``<class>-extra`` for the data classes ``mfma``, ``ds-read``, ``ds-write``,
``load-lds``, ``load``, and ``ds-merged`` (a different ds instruction than
planned in a gap: ``ds_read2*``, another width); for a schedule with fragment waits
``frag-wait-weak`` / ``frag-wait-strong`` / ``frag-wait-missing``
(:mod:`pipeline_mlir.isa.frag_waits`); ``wait-unpinned`` (a counted wait of the schedule whose cut no fence pins:
:mod:`pipeline_mlir.isa.wait_order`); ``waterfall`` (a memory instruction in a
``v_readfirstlane`` / ``s_and_saveexec`` / ``s_cbranch_execnz`` loop:
:mod:`pipeline_mlir.isa.waterfall`); ``wait-short`` (an instruction reads or overwrites a
register a load may still be writing on some path, whoever placed the waits:
:mod:`pipeline_mlir.isa.reg_waits`); ``lds-wait-short`` (a wave's LDS access still in
flight where its own access of the other counter touches the same bytes, the waits
counted in the instructions emitted: :mod:`pipeline_mlir.isa.lds_waits`).

No MLIR here.
"""

from __future__ import annotations

import difflib
from collections import Counter

from pipeline_mlir.isa.align import align_separators
from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.counted import COUNTERS
from pipeline_mlir.isa.skeleton import (DATA_CLASSES, PHASES, SEPARATORS, Expansion,
                                        IsaCheckError, Outside, Token, actual_skeleton,
                                        expected_skeleton, merge_waits)
from pipeline_mlir.isa.findings import Finding, IsaCheck, explain_outside, group_findings
from pipeline_mlir.isa.frag_addresses import read_findings
from pipeline_mlir.isa.acc_inits import acc_init_findings
from pipeline_mlir.isa.read_places import (loaded_addresses, loaded_operands, mfma_chains,
                                          read_places)
from pipeline_mlir.isa.frag_waits import check_fragment_waits
from pipeline_mlir.isa.fence_flight import fence_dmas
from pipeline_mlir.isa.held import held_counts
from pipeline_mlir.isa.lds_ranges import lds_map
from pipeline_mlir.isa.which_loop import not_the_pipelined_loop
from pipeline_mlir.isa.mfma_places import misplaced_mfmas
from pipeline_mlir.isa.fragment_reuse import (OPERAND_RULES, accumulators_as_operands,
                                              loaded_operands_found, operand_findings,
                                              reused_fragments)
from pipeline_mlir.isa.asm_rules import ASSEMBLY_RULES, assembly_findings
from pipeline_mlir.isa.reg_waits import reg_waits
from pipeline_mlir.isa.wait_order import unpinned_waits
from pipeline_mlir.kernel.plan import KERNARG_WAIT, ZERO_TRIP_FENCE, KernelPlan
from pipeline_mlir.schedule.types import OpRole

__all__ = ["IsaCheckError", "Token", "Finding", "Outside", "IsaCheck", "expected_skeleton",
           "actual_skeleton", "check_isa", "check_kernel_asm", "PHASES", "check_without_schedule",
           "rules_without_schedule"]

_SEP_NAMES = {"barrier": "barrier", "setprio": "setprio", "sched_barrier": "fence",
              "sched_group_barrier": "sched-group-barrier"}


# ---------------------------------------------------------------------------
# comparison

def _gaps(tokens: list[Token], matched: list[int]) -> list[tuple[int, int]]:
    """(position, gap) of each data token; gap = matched separators before it."""
    mset = set(matched)
    out, g = [], 0
    for k, t in enumerate(tokens):
        if k in mset:
            g += 1
        elif t.kind in DATA_CLASSES:
            out.append((k, g))
    return out


class _Phase:
    """The comparison of one assembly phase."""

    def __init__(self, ph: str, exp: list[Token], act: list[Token], res: IsaCheck,
                 held=None, own_waits: bool = False) -> None:
        self.ph, self.exp, self.act, self.res = ph, exp, act, res
        #: (actual token, counter, after) -> the bound earlier waits hold (:func:`held_counts`)
        self.held = held or (lambda _t, _c, after=False: None)
        foreign: frozenset = self.unfenced_waits(either=own_waits)
        while True:     # each round leaves the waits found foreign out (at most one per wait)
            self.pairs, self.un_e, self.un_a = align_separators(exp, act, foreign)
            more = self.foreign_waits()
            if not more:
                break
            foreign |= more
        self.eg = _gaps(exp, [e for e, _ in self.pairs])
        self.ag = _gaps(act, [a for _, a in self.pairs])
        self.missing_data: set[int] = set()      # exp positions of data not found
        self.extra_data: set[int] = set()        # act positions of data not planned

    def reads(self) -> tuple[list, list]:
        """((gap, entry, whether the assembly lacks it) of each ``ds_read`` the schedule
        plans, (gap, line) of each one of the assembly the comparison pairs with one (not
        a ``ds-read-extra``: IREE's remainder code, its C tile read back)): what
        :func:`~pipeline_mlir.isa.frag_addresses.read_findings` holds against each
        other."""
        return ([(g, self.exp[k].origin[0], k in self.missing_data)
                 for g, k in self._planned("ds_read")], self._paired("ds_read"))

    def mfmas(self) -> tuple[list, list]:
        """((gap, entry) of each MFMA the schedule plans, (gap, line) of each one of the
        assembly the comparison pairs with one): what
        :func:`~pipeline_mlir.isa.mfma_places.misplaced_mfmas` holds against each other."""
        return ([(g, self.exp[k].origin[0]) for g, k in self._planned("mfma")],
                self._paired("mfma"))

    def _planned(self, kind: str) -> list:
        """(gap, position) of each token of ``kind`` the schedule plans, from an entry."""
        return [(g, k) for k, g in self.eg if self.exp[k].kind == kind and self.exp[k].origin]

    def _paired(self, kind: str) -> list:
        """(gap, line) of each instruction of ``kind`` in the assembly that the comparison
        pairs with a planned one (not extra data)."""
        return [(g, self.act[k].lines[0]) for k, g in self.ag
                if self.act[k].kind == kind and self.act[k].lines and k not in self.extra_data]

    def add(self, kind: str, entries, lines, message: str) -> None:
        self.res.findings.append(Finding(kind, self.ph, tuple(entries), tuple(lines), message))

    def run(self) -> None:
        for kind in DATA_CLASSES:
            self.data(kind)
        self.separators()

    def foreign_waits(self) -> frozenset:
        """The actual waits of the alignment's wait pairs that are not the schedule's: one
        that waits for none of the schedule wait's counters, or drops one no earlier wait
        holds there (LLVM drops a counter only where it holds), or lacks a fence the
        schedule's wait has beside it (:meth:`fenced_alike`).  Such a wait is LLVM's own (a
        masked remainder's, a staging copy's) that the alignment took for a schedule wait
        LLVM removed (one whose counts held): the alignment is redone without it, the
        schedule's wait then missing or held where it stood (:meth:`held_where_missing`)."""
        out = set()
        for e, a in self.pairs:
            te, ta = self.exp[e], self.act[a]
            if te.kind != "wait":
                continue
            counts = [(name, ve) for name, ve in _counts(te) if ve is not None]
            dropped = [(name, ve) for name, ve in counts if getattr(ta, name[:-3]) is None]
            if dropped and (len(dropped) == len(counts) or any(
                    (h := self.held(ta, name)) is None or h > ve for name, ve in dropped)):
                out.add(a)
            elif not self.fenced_alike(e, a):
                out.add(a)
        return frozenset(out)

    def unfenced_waits(self, either: bool = True) -> frozenset:
        """The actual waits without a fence right before and right after them (no data
        between; with ``either`` False, with a fence on neither side), when every wait of
        the schedule's phase has both: LLVM's own, put before the instruction that needs it
        (the lowering fences each run of its waits, and LLVM moves nothing across a fence).
        Left out of the alignment from the start: one inside a gap otherwise shifts the
        alignment of the gaps after it (IREE's fp8 64x31x160 unrolled, its loop phase's
        ``lgkmcnt(0)`` before each MFMA; the unrolled comparison's ``own_waits``).  The
        rolled comparison leaves out those with a fence on neither side: the waits of
        LLVM's scratch reloads of spilled VGPRs, one after each reload, between the
        epilogue's reads (IREE's i8 128x512x896 with 32x32x32 MFMAs, late form: six of
        them made the alignment pair each later schedule wait with the next block's, the
        real ones then found foreign, its MFMAs ``moved`` and its waits ``missing``); a
        schedule wait an instruction moved beside on one side stays aligned.  Leaving a
        wait out never hides a difference: the fences still bound every gap, and a
        schedule wait whose twin was left out is missing unless earlier waits hold it."""
        def fences(toks, k):
            return [0 <= k + d < len(toks) and toks[k + d].kind == "sched_barrier"
                    for d in (-1, 1)]
        waits = [k for k, t in enumerate(self.exp) if t.kind == "wait"]
        if not waits or not all(all(fences(self.exp, k)) for k in waits):
            return frozenset()
        kept = all if either else any
        return frozenset(k for k, t in enumerate(self.act)
                         if t.kind == "wait" and not kept(fences(self.act, k)))

    def fenced_alike(self, e: int, a: int) -> bool:
        """Whether actual wait ``a`` has a fence for its separator on each side where
        schedule wait ``e`` has one (LLVM prints every fence and adds none: a wait of its
        own between other waits has none)."""
        def fence(toks, k, d):
            k += d
            while 0 <= k < len(toks) and toks[k].kind not in SEPARATORS:
                k += d
            return 0 <= k < len(toks) and toks[k].kind == "sched_barrier"
        return all(fence(self.act, a, d) or not fence(self.exp, e, d) for d in (-1, 1))

    def held_where_missing(self, k: int) -> bool:
        """Whether the schedule's wait ``k``, which the assembly lacks, holds anyway where it
        stood: directly after a separator the alignment matched (nothing but vanished data
        between them), earlier waits of the assembly with no instruction of the counter
        issued since already hold each of its counts (LLVM removed a redundant wait)."""
        j = k - 1
        while j >= 0 and self.exp[j].kind not in SEPARATORS and j in self.missing_data:
            j -= 1
        if j < 0 and self.exp[k].origin == (f"lowering:{KERNARG_WAIT}",):
            return self.kernarg_wait_held(k)
        prev = dict(self.pairs).get(j)
        if j < 0 or self.exp[j].kind not in SEPARATORS or prev is None:
            return False
        return all(ve is None or ((h := self.held(self.act[prev], name, True)) is not None
                                  and h <= ve) for name, ve in _counts(self.exp[k]))

    def kernarg_wait_held(self, k: int) -> bool:
        """Whether the lowering's wait for the kernel arguments (``k``, the phase's first
        separator), which the assembly lacks, holds anyway: at the first separator after it
        the alignment matched, an earlier wait of the assembly in the same block, with no
        instruction of the counter issued since, holds each of its counts.  The wait keeps
        the scalar loads of the kernel arguments out of the schedule's ``lgkmcnt`` counts;
        LLVM may put its own wait for those loads, which is that wait, between code of the
        kernel's that runs before the loop (IREE's read of C0 with its ``vmcnt`` waits:
        fused ``accumulate_bias`` bf16 77x76x640), where the alignment, reading its fences,
        takes it for LLVM's own.  A counter instruction issued after that wait (an
        ``s_load``, a ``ds_read``) is counted into the bound and the wait is missing."""
        nxt = min((a for e, a in self.pairs if e > k), default=None)
        if nxt is None:
            return False
        return all(ve is None or ((h := self.held(self.act[nxt], name)) is not None
                                  and h <= ve) for name, ve in _counts(self.exp[k]))

    # -- data, gap by gap ---------------------------------------------------------------
    def crossed(self, g1: int, g2: int) -> str:
        lo, hi = sorted((g1, g2))
        seps = [self.act[self.pairs[k][1]] for k in range(lo, hi)]
        return ", ".join(f"{t.describe()} (line {t.lines[0]})" for t in seps)

    def data(self, kind: str) -> None:
        cls = DATA_CLASSES[kind]
        exp, act = self.exp, self.act
        ex = [(k, g) for k, g in self.eg if exp[k].kind == kind]
        ac = [(k, g) for k, g in self.ag if act[k].kind == kind]
        deficit, surplus = [], []
        for g in sorted({g for _, g in ex} | {g for _, g in ac}):
            # in order within the gap: a replaced instruction is named where it stood
            e_g = [k for k, gg in ex if gg == g]
            a_g = [j for j, gg in ac if gg == g]
            sm = difflib.SequenceMatcher(
                None, [exp[k].name or "*" for k in e_g],
                [act[j].name if any(exp[k].name for k in e_g) else "*" for j in a_g],
                autojunk=False)
            for tag, i1, i2, j1, j2 in sm.get_opcodes():
                if tag != "equal":
                    deficit += [(k, g) for k in e_g[i1:i2]]
                    surplus += [(j, g) for j in a_g[j1:j2]]
        if kind in ("ds_read", "ds_write"):
            deficit, surplus = self.ds_merged(deficit, surplus)
        unpaired = []
        for k, g1 in deficit:
            te = exp[k]
            # the nearest surplus of the same instruction, else any of the class
            cands = [x for x in surplus if te.name is None or act[x[0]].name == te.name] or \
                surplus
            if not cands:
                unpaired.append(k)
                continue
            j, g2 = min(cands, key=lambda x: (abs(x[1] - g1), x[0]))
            surplus.remove((j, g2))
            ta = act[j]
            if te.name is not None and te.name != ta.name:
                self.add(f"{cls}-changed", te.origin, ta.lines,
                         f"{te.describe()} became {ta.describe()}")
            if g1 != g2:
                self.add(f"{cls}-moved", te.origin, ta.lines,
                         f"{ta.describe()} moved {'later' if g2 > g1 else 'earlier'}, across "
                         f"{self.crossed(g1, g2)}")
        for k in unpaired:
            self.missing_data.add(k)
            self.add(f"{cls}-missing", exp[k].origin, (),
                     f"{exp[k].describe()} of the schedule is not in the assembly")
        for j, _g in surplus:
            self.extra_data.add(j)
            self.add(f"{cls}-extra", (), act[j].lines, f"{act[j].describe()} is not in the schedule")

    def ds_merged(self, deficit, surplus):
        """In one gap, planned ds instructions replaced by other ds instructions."""
        keep_d, keep_s = [], list(surplus)
        for g in sorted({g for _, g in deficit}):
            ks = [k for k, gg in deficit if gg == g]
            other = [x for x in keep_s if x[1] == g]
            if not other:
                keep_d += [(k, g) for k in ks]
                continue
            for x in other:
                keep_s.remove(x)
            origins = tuple(dict.fromkeys(o for k in ks for o in self.exp[k].origin))
            got = Counter(self.act[j].name for j, _ in other)
            self.add("ds-merged", origins, [ln for j, _ in other for ln in self.act[j].lines],
                     f"{len(ks)} x {self.exp[ks[0]].name} became "
                     + ", ".join(f"{n} x {m}" for m, n in sorted(got.items())))
        return keep_d, keep_s

    # -- separators ---------------------------------------------------------------------
    def merged_across_fences(self, k: int) -> int | None:
        """The matched expected wait an unmatched expected wait ``k`` was merged into:
        the previous wait when only fences and vanished data lie between them."""
        matched = dict(self.pairs)
        j = k - 1
        while j >= 0:
            t = self.exp[j]
            if t.kind == "wait":
                return j if j in matched else None
            if t.kind != "sched_barrier" and j not in self.missing_data:
                return None
            j -= 1
        return None

    def gap_entries(self, a: int) -> tuple[str, ...]:
        """Schedule entries of the expected data in the gap of actual position ``a``."""
        g = sum(1 for _, aa in self.pairs if aa < a)
        ents = [o for k, gg in self.eg if gg == g for o in self.exp[k].origin]
        if ents:
            return tuple(dict.fromkeys(ents))
        before = [e for e, aa in self.pairs if aa < a]
        return self.exp[before[-1]].origin if before else ()

    def separators(self) -> None:
        exp, act, pairs = self.exp, self.act, self.pairs
        extra_for: dict[int, list[Token]] = {}
        for k in self.un_e:
            t = exp[k]
            j = self.merged_across_fences(k) if t.kind == "wait" else None
            if j is not None:
                extra_for.setdefault(j, []).append(t)
                continue
            if t.kind == "wait" and self.held_where_missing(k):
                continue
            name = "wait" if t.kind == "wait" else _SEP_NAMES[t.kind]
            self.add(f"{name}-missing", t.origin, (),
                     f"{t.describe()} of the schedule is not in the assembly")
        for e, a in pairs:
            te, ta = exp[e], act[a]
            if te.kind == "wait":
                self.res.schedule_waits.setdefault(self.ph, {})[a] = te.origin
                for t in extra_for.get(e, []):
                    te = merge_waits(te, t)
                # a counter only LLVM's wait waits for is LLVM's own (computed from the final
                # order): not walked; a count LLVM lowered is walked at the schedule's too
                own = frozenset(n for n, ve in _counts(te) if ve is None) - \
                    {c for c, _ in te.derived}
                self.res.schedule_guards.setdefault(self.ph, {})[a] = te.guards | own
                self.res.schedule_derived.setdefault(self.ph, {})[a] = te.derived
                self.res.schedule_counts.setdefault(self.ph, {})[a] = tuple(
                    (n, ve) for n, ve in _counts(te) if ve is not None)
                self.wait(te, ta, across=e in extra_for)
            elif te.kind in ("setprio", "sched_group_barrier") and te.value != ta.value:
                self.add(f"{_SEP_NAMES[te.kind]}-changed", te.origin, ta.lines,
                         f"{te.describe()} became {ta.describe()}")
        first_a = pairs[0][1] if pairs else None
        last_a = pairs[-1][1] if pairs else None
        for a in self.un_a:
            t = act[a]
            if first_a is None or a < first_a or a > last_a:
                for ln in t.lines:
                    self.res.outside.append(Outside(self.ph, ln, t.describe(),
                                                    "separator before/after the scheduled "
                                                    "region"))
            elif t.kind == "wait":
                self.add("wait-added", self.gap_entries(a), t.lines,
                         f"{t.describe()}: LLVM added")
            else:
                self.add(f"{_SEP_NAMES[t.kind]}-extra", self.gap_entries(a), t.lines,
                         f"{t.describe()} is not in the schedule")

    def wait(self, te: Token, ta: Token, across: bool) -> None:
        if te.parts > ta.parts:
            how = " (across fences: the data between them is gone)" if across else ""
            self.add("wait-merged", te.origin, ta.lines,
                     f"{te.parts} schedule waits are {ta.parts} s_waitcnt: {ta.describe()}{how}")
        tighter, weaker = [], []
        for (name, ve), va in zip(_counts(te), (ta.vm, ta.lgkm)):
            if ve == va:
                continue
            if va is not None and (ve is None or va < ve):
                tighter.append(f"{name} {'-' if ve is None else ve} -> {va}")
            elif (held := self.held(ta, name)) is None or held > ve:
                weaker.append(f"{name} {ve} -> {'-' if va is None else va}")
        if tighter:
            extra = " (LLVM's own s_waitcnt next to it)" if ta.parts > te.parts else ""
            self.add("wait-tightened", te.origin, ta.lines,
                     f"{te.describe()} is {ta.describe()}: " + ", ".join(tighter) + extra)
        if weaker:
            self.add("wait-weakened", te.origin, ta.lines,
                     f"{te.describe()} is {ta.describe()}: " + ", ".join(weaker)
                     + " (a race: LLVM never does this)")
        for name, derived in te.derived:
            va = getattr(ta, name[:-3])
            # an actual wait that waits for nothing on the counter is its maximum count
            va = COUNTERS[name].limit if va is None else va
            if va > derived and ((held := self.held(ta, name)) is None or held > derived):
                self.add("wait-over-derived", te.origin, ta.lines,
                         f"{ta.describe()} is weaker than the {name}({derived}) the schedule "
                         f"derived for {te.describe()}")


def _counts(t: Token) -> tuple:
    """``(counter, count)`` of an expected wait as the assembly reads it (None: not waited
    for, :func:`_encoded`)."""
    return tuple((name, _encoded(getattr(t, COUNTERS[name].field), COUNTERS[name].limit))
                 for name in ("vmcnt", "lgkmcnt"))


def _encoded(count: int | None, limit: int) -> int | None:
    """An expected wait's count as the assembly reads it: at the counter's maximum it waits
    for nothing (``None``), as the actual wait's count is read.  A wait
    ``stages.cap_long_load_waits`` capped at lgkmcnt(15) is such a wait (the hardware
    keeps at most 15 reads in flight); LLVM may print it with every counter at its
    maximum (``s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)``)."""
    return None if count is not None and count >= limit else count


def _without_folded_zero_trip(fn: AsmFunction,
                              expected: dict[str, list[Token]]) -> dict[str, list[Token]]:
    """The expected skeleton without the zero-trip fence when the prologue branches nowhere:
    the main loop is entered unconditionally (LLVM proved the trip count at least one, a
    constant one, and folded the fence's ``scf.if`` away with the path that would run it),
    so no wait of the assembly is the fence's.  With a branch it stays expected."""
    zt = f"lowering:{ZERO_TRIP_FENCE}"
    if any(i.mnemonic.startswith("s_cbranch") for i in fn.main_loop_phases()["prologue"]):
        return expected
    return {ph: [t for t in toks if not t.origin or any(o != zt for o in t.origin)]
            for ph, toks in expected.items()}


def check_isa(fn: AsmFunction, expected: dict[str, list[Token]],
              fragment_waits: bool = False, plan: KernelPlan | None = None,
              own_waits: bool = False) -> IsaCheck:
    """Compare the assembly of ``fn`` with an expected skeleton (:func:`expected_skeleton`).
    With ``fragment_waits`` (the schedule has ``WAIT_FRAG`` entries, which issue nothing),
    the ``s_waitcnt lgkmcnt`` directly before MFMAs are no part of the comparison: each is
    checked against the count its MFMA's operands need (:mod:`pipeline_mlir.isa.frag_waits`).
    Without, the MFMAs are walked the same way and only a race is a finding (an MFMA reading
    a register an LDS read in flight defines: LLVM's own waits for the fragments the
    schedule's waits leave to it, which LLVM 22 counted short after global LDS DMAs).
    ``own_waits``: leave each actual wait without a fence right beside it out of the
    alignment from the start (:meth:`_Phase.unfenced_waits`; the unrolled comparison's);
    without, each with a fence on neither side (LLVM's waits for its scratch reloads).
    With the kernel ``plan``, each ``ds_read`` is held against the LDS bytes its fragment
    read plans (:mod:`pipeline_mlir.isa.frag_addresses`)."""
    actual, outside = actual_skeleton(fn)
    expected = _without_folded_zero_trip(fn, expected)
    phases = fn.main_loop_phases()
    lines, found = check_fragment_waits(phases, fn.straight)
    if fragment_waits:
        actual = {ph: [t for t in toks if not (t.kind == "wait" and set(t.lines) <= lines)]
                  for ph, toks in actual.items()}
    else:   # LLVM's waits for the MFMAs' operands: only a race is a finding
        found = [f for f in found if f.kind != "frag-wait-strong"]
    res = IsaCheck(outside=list(outside), expected=expected, actual=actual)
    res.findings += [Finding(f.kind, f.phase, (), (f.line,), f.message()) for f in found]
    held = held_counts(fn)
    compared = {ph: _Phase(ph, expected[ph], actual[ph], res, held, own_waits)
                for ph in PHASES}
    for c in compared.values():
        c.run()
    for u in unpinned_waits(actual, res.schedule_waits, res.schedule_guards,
                            res.schedule_derived, res.schedule_counts):
        res.findings.append(Finding("wait-unpinned", u.phase, res.schedule_waits[u.phase][u.index],
                                    actual[u.phase][u.index].lines, u.message()))
    phase_of = {i.line: ph for ph, instrs in phases.items() for i in instrs}
    lds = lds_map(fn)
    res.fence_dmas = fence_dmas(fn, lds.flying if lds is not None else None)
    rw = reg_waits(fn, lds.apart if lds is not None else None)
    res.findings = group_findings(res.findings + assembly_findings(fn, rw, lds, phase_of))
    res.reads = {ph: c.reads() for ph, c in compared.items()}
    res.mfmas = {ph: c.mfmas() for ph, c in compared.items()}
    chains = mfma_chains(fn)
    inits, init_notes = acc_init_findings(fn, chains, plan is not None and plan.masked_starts)
    res.findings += inits + accumulators_as_operands(fn, chains, phase_of)
    if init_notes:
        res.findings.append(Finding("acc-init-unheld", "-", (), (), "accumulator starts not held: "
                                    + "; ".join(init_notes)))
    if plan is not None:
        # a phase whose reads the comparison finds elsewhere than planned (moved,
        # changed, merged, extra), or with MFMAs the plan lacks (IREE's remainder code
        # after the epilogue): not held
        astray = {f.phase for f in res.findings if f.kind in _ASTRAY}
        places = read_places(fn)
        res.findings += read_findings(plan, res.reads, astray,
                                      lds.accesses if lds is not None else {},
                                      {i.line: i for i in fn.instrs()}, fn.lds_bytes,
                                      fn.threads, places, loaded_addresses(fn), chains)
        res.findings += misplaced_mfmas(plan, res, chains)
        res.findings += reused_fragments(fn, places, chains, phase_of)
        res.findings += loaded_operands_found(fn, loaded_operands(fn), phase_of)
    res.outside = [explain_outside(o, rw.pending) for o in res.outside]
    res.outside.sort(key=lambda o: o.line)
    return res


#: the comparison's findings that leave a phase's reads to no planned read
#: (:func:`~pipeline_mlir.isa.frag_addresses.read_findings` does not hold them)
_ASTRAY = frozenset({"ds-read-extra", "ds-read-moved", "ds-read-changed", "ds-merged",
                     "mfma-extra"})


def check_without_schedule(fn: AsmFunction, pipelined: bool = False) -> list[Finding]:
    """The rules of the ISA check that read the assembly alone, on the whole of ``fn``
    (:data:`~pipeline_mlir.isa.asm_rules.ASSEMBLY_RULES`: among them, no instruction
    touches a register a load may still be writing, ``wait-short``, on every path, whoever
    placed the waits, and no memory instruction sits in a waterfall loop, ``waterfall``).
    What a kernel without the pipelined loop (LLVM unrolled it, or kept another loop as the
    main one) still gets checked: the comparison with the schedule and the order rule
    (``wait-unpinned``) read the pipelined loop's phases, which are gone.  With
    ``pipelined`` (``fn`` holds a pipelined loop the comparison could not read), also the
    operand rules, which read no plan
    (:data:`~pipeline_mlir.isa.fragment_reuse.OPERAND_RULES`).
    :func:`rules_without_schedule` names them."""
    lds = lds_map(fn)
    found = assembly_findings(fn, reg_waits(fn, lds.apart if lds else None), lds)
    return group_findings(found + (operand_findings(fn) if pipelined else []))


def rules_without_schedule(pipelined: bool = False) -> tuple[str, ...]:
    """The names of the rules :func:`check_without_schedule` runs with ``pipelined``, from
    the tables it runs."""
    return tuple(name for name, _ in ASSEMBLY_RULES + (OPERAND_RULES if pipelined else ()))


def check_kernel_asm(fn: AsmFunction, plan: KernelPlan, mfmas_per_mma: int | None = None,
                     mfma_name: str | None = None, load_name: str | None = None,
                     ds_name: str | None = None) -> IsaCheck:
    """The ISA check of a kernel against the kernel plan it was lowered with (what
    ``sched-lower-to-rocdl`` records, :mod:`pipeline_mlir.kernel.plan`).

    ``mfmas_per_mma``: MFMAs per MMA entry; ``None`` takes the plan's, else infers it
    from the assembly (the main loop's MFMAs divided by the kernel's MMA entries, which
    must divide evenly).  ``mfma_name`` / ``load_name`` / ``ds_name``: the mnemonics an
    MMA, a global load and a fragment load become (the complete kernels:
    :data:`pipeline_mlir.target.gfx950.MFMA_BY_DTYPE`, :data:`LOAD_LDS`,
    :data:`DS_READ`), ``None`` for the plan's MFMA mnemonic and any instruction of the
    kind otherwise.
    """
    shape = plan.shape
    if mfmas_per_mma is None:
        mfmas_per_mma = shape.mfmas_per_mma
    why = not_the_pipelined_loop(fn, plan, mfmas_per_mma)
    if why:
        raise IsaCheckError(f"ISA check: {why}")
    if mfmas_per_mma is None:
        loop = [i for b in fn.main_loop() for i in b.instrs]
        n_mfma = sum(1 for i in loop if i.kind == "mfma")
        n_mma = sum(1 for e in plan.kernel if e.op.role == OpRole.COMPUTE)
        if n_mma == 0 or n_mfma % n_mma:
            raise IsaCheckError(f"ISA check: the main loop has {n_mfma} MFMAs, not a multiple of "
                                f"the kernel's {n_mma} MMA entries")
        mfmas_per_mma = n_mfma // n_mma
    x = Expansion(shape.vm_per_load, shape.lgkm_per_load, mfmas_per_mma,
                  mfma_name if mfma_name is not None else shape.mfma, load_name, ds_name)
    expected = expected_skeleton(plan, x)
    res = check_isa(fn, expected, plan.fragment_waits, plan)
    res.mfmas_per_mma = mfmas_per_mma
    return res
