"""The ISA check's rule that every fragment read reads the LDS bytes the plan reads.

The lowering evaluates, before it clones the loop body, every thread's LDS address of each
fragment read of the tagged loop (:attr:`~pipeline_mlir.kernel.plan.KernelPlan.reads`: the
tagged ``vector.load`` s of a workgroup buffer, each address counted from its buffer's
first byte, since where LLVM places each buffer is LLVM's).  The comparison with the
schedule puts every ``ds_read`` of the assembly in a gap between two aligned separators,
beside the schedule entries whose reads the gap plans (:mod:`pipeline_mlir.isa.check`);
the LDS rule evaluates every thread's address of each ``ds_read`` from the thread id
(:mod:`pipeline_mlir.isa.lds_ranges`).  This rule holds the one against the other, per
assembly phase (prologue, loop, epilogue; the plan's prologue, kernel and epilogue
entries):

* **Placement.**  A buffer's first byte is the one most ``ds_read`` s of the gaps that plan
  a read of it read it at: a ``ds_read`` as wide as a planned read of its gap (or a
  piece of it: LLVM splits a 32-byte read in two; or as wide as a run of planned reads of
  its gap lying end to end in one buffer in every thread: LLVM merges adjacent reads, the
  two 8-byte halves of A of IREE's i8 16x16x32 MFMAs in one ``ds_read_b128``) whose every
  thread reads at that read's address plus one same number votes that number (each place
  the piece may have in the read).  A buffer one read places moves with it: a move of that
  read is told only where the buffer then lies over another one (both reads then inside
  no planned read) or reads bytes no copy writes (the LDS rules' ``lds-unwritten``).
  A buffer whose most voted byte beats its other ones is placed first, then the most
  voted, each buffer once, none over a buffer placed before it (a gap that reads two
  buffers alike votes for both; every read of a buffer shifted onto its neighbour leaves
  it unplaced, its reads then inside no planned read).  A buffer so placed lies in the
  kernel's LDS, its group segment, or the rule holds nothing of the function (a note: the
  plan's addresses and the assembly's meet on no placement the copies could have made; a
  read outside the LDS is the LDS rule's ``lds-outside``).  A buffer whose most voted
  bytes tie, every ``ds_read`` voting for it fitting two or more of them, is not placed
  on a guess: its reads' addresses are known in too few reads to tell its parts apart
  (each fits several parts of its gap: IREE's i8 8-wave late form, finding 36, before
  its addresses' 16-bit adds were evaluated, placed 6 KiB short and refused), and the
  ``ds_read`` s of its gaps are said in the note.  A tie no byte of which every read fits
  is placed as above: some read is a misread wherever the buffer is.
* **Reads.**  Every ``ds_read`` of the phase (each piece of a ``ds_read2``) reads, in every
  thread ``exec`` leaves on, bytes inside one fragment read the plan issues in its gap
  (or one run of them lying end to end, as above), its buffer placed as above (``lds-misread`` at the instruction: an offset field or an
  address computation changed, or two gaps' reads given each other's bytes).
* **Coverage.**  Every byte of every fragment read the plan issues in the phase is read
  by some ``ds_read`` of the phase, in every thread (``lds-unread`` at the ``ds_read`` s of
  the gaps that plan it: a read moved onto another fragment the phase reads too, the
  MFMAs then given that one twice).
* **Parts.**  Which planned read of its gap a ``ds_read`` is follows from the part of an
  MFMA operand it fills: the lowering records, per planned read, the bytes of A or B its
  result is, followed through the IR's shuffles, bitcasts and carried values (its
  ``fills``, :mod:`pipeline_mlir.analysis.operand_fills`: the IR's shuffles may take a
  fragment's parts in any order); the assembly's, its destination registers followed through copies to
  the MFMAs reading them (:mod:`pipeline_mlir.isa.read_places`).  Each piece of a
  ``ds_read`` reads, in every thread ``exec`` leaves on, exactly the bytes of a planned
  read of its gap that fills that part (``lds-misread`` at the instruction: the two parts
  of one fragment given each other's address or destination registers; a read filling
  a part no read of its gap fills).  A read whose registers are not followed (another
  instruction than a copy or an MFMA's A or B reads them, or none does) or whose gap
  plans a read the lowering did not follow to an MFMA is said in the note.
* **MFMAs.**  Which MFMA a part is of: the lowering records, per planned read, which MFMA
  of the loop body each place it fills is of (the carried accumulator its chain starts
  from, its place in that chain: ``LdsAccess.feeds``); the assembly's MFMAs are linked
  into accumulator chains (an MFMA's result read as another's accumulator, through
  copies, across the loop's back edge: :func:`~pipeline_mlir.isa.read_places.
  mfma_chains`).  Each chain is of the accumulator, and each of its MFMAs at the place
  (the chain's place plus one shift, modulo the chain's length), most of the reads
  reaching the chain fill; a piece filling its planned part of an MFMA its planned read
  does not fill is an ``lds-misread`` at the instruction, naming both (two reads of the
  same part of two MFMAs, of one gap or of two, given each other's destination
  registers).  A chain not followed (an MFMA's result reaching another's accumulator in
  part, two paths giving an MFMA two places) holds each of its MFMAs alone, and a
  planned read whose MFMA's chain the lowering did not follow holds none: the note
  says so.

A phase whose reads the comparison finds elsewhere than the plan puts them
(``ds-read-moved``, ``-changed``, ``-extra``, ``ds-merged``) or with MFMAs the plan lacks
(``mfma-extra``: IREE's remainder code after the epilogue) is not held: which read there
is which is not known (a read moved in IREE's kernels of a K remainder shifts which
planned read the reads of the gaps around it are, and the moved ones read LDS no planned
read of the phase reads: neither their gaps nor the phase's planned reads pair them).

Where it cannot hold a read (the plan has no addresses: the note of the lowering says
why; a ``ds_read`` whose address or ``exec`` the LDS rule does not know; a buffer no read
places) it says so in the note ``lds-read-unheld`` rather than pass it.

No MLIR here.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.isa.frag_mfmas import Fed, describe_read, feeds_of, mfma_findings
from pipeline_mlir.isa.frag_placement import misplaced, placed, runs

__all__ = ["read_findings", "ERROR_KINDS", "NOTE_KIND"]

#: the findings of this rule that refuse a build (:mod:`pipeline_mlir.isa.built_check`)
ERROR_KINDS = frozenset({"lds-misread", "lds-unread"})
#: the note naming what the rule does not hold
NOTE_KIND = "lds-read-unheld"
_LABEL = re.compile(r"^(PRO|KRN|EPI)\[(\d+)\]$")
_PLAN_PHASE = {"PRO": "prologue", "KRN": "kernel", "EPI": "epilogue"}


def _key(op) -> tuple[int, int, int]:
    return (op.channel, op.stage, op.subtile)


class _Phase:
    """The planned and the actual reads of one assembly phase."""

    def __init__(self, name: str, planned: list, actual: list) -> None:
        self.name = name
        #: per gap, the plan's reads there (LdsAccess) and the entries naming them
        self.by_gap: dict[int, list] = {}
        self.entries: dict = {}             # LdsAccess -> its entry labels, in order
        #: the plan's reads the assembly holds (LLVM deletes the reads no MFMA uses: the
        #: comparison's ``ds-read-missing``), each with the reads that may stand for it
        #: (a group of one here): every byte of one of them some read reads
        self.demanded: set = set()
        for gap, label, reads, kept in planned:
            self.demanded.update(kept)
            for e in reads:
                self.by_gap.setdefault(gap, [])
                if e not in self.by_gap[gap]:
                    self.by_gap[gap].append(e)
                self.entries.setdefault(e, [])
                if label not in self.entries[e]:
                    self.entries[e].append(label)
        #: (gap, line, the LDS rule's access or None)
        self.actual = actual

    def drop_gaps(self, gaps: set) -> None:
        """Hold none of the reads of ``gaps``, actual or planned."""
        self.actual = [x for x in self.actual if x[0] not in gaps]
        for g in gaps:
            self.by_gap.pop(g, None)
        kept = {e for es in self.by_gap.values() for e in es}
        self.entries = {e: v for e, v in self.entries.items() if e in kept}
        self.demanded = {grp for grp in self.demanded if all(x in kept for x in grp)}

    def spans(self, gap: int) -> list:
        """The planned reads of ``gap`` and, where two or more of one buffer lie end to end
        in every thread, each longest such run as one read
        (:class:`~pipeline_mlir.isa.frag_placement.Span`): LLVM merges reads of adjacent
        bytes into one wider ``ds_read`` (IREE's i8 16x16x32 MFMAs read their two 8-byte
        halves of A with one ``ds_read_b128``)."""
        return runs(self.by_gap.get(gap, ()))

    def pieces(self):
        """(gap, line, access, per-thread start, width, per-thread on) of each piece of the
        known reads."""
        for gap, line, a in self.actual:
            if a is None or a.lanes is None or a.active is None:
                continue
            for o in a.offsets:
                yield gap, line, a, a.starts(o), a.width, a.active


def read_findings(plan, phases: dict, astray: set, accesses: dict, instrs: dict,
                  lds_bytes: int, threads: int, places: dict | None = None,
                  loaded: dict | None = None, chains=None) -> list[Finding]:
    """The findings of the rule (module docstring) on one function: ``phases``, per
    assembly phase, ((gap, entry label, whether the assembly lacks it) of each planned
    ``ds_read`` token, (gap, line) of each actual one); ``astray``: the phases whose data
    instructions the comparison finds elsewhere than planned (not held); ``accesses``: the
    LDS rule's accesses by line; ``instrs``: the instructions by line; ``places``: per
    ``ds_read`` line, the MFMA operand bytes its result fills
    (:func:`~pipeline_mlir.isa.read_places.read_places`; None: the parts not held);
    ``loaded``: the ``ds_read`` s whose address register a load wrote
    (:func:`~pipeline_mlir.isa.read_places.loaded_addresses`); ``chains``: the MFMAs'
    accumulator chains (:func:`~pipeline_mlir.isa.read_places.mfma_chains`; None: which
    MFMA each read fills is not held)."""
    loaded = loaded or {}
    why = "the lowering has none ({})".format(plan.reads_note or "no fragment read") \
        if not plan.reads else None if threads == len(plan.reads[0].addresses) else \
        (f"the plan's are for {len(plan.reads[0].addresses)} threads, the function's "
         f"workgroup has {threads}")
    if why is not None:
        return [Finding(NOTE_KIND, "-", (), (), "the fragment reads' LDS addresses are "
                        "not held against the plan's: " + why)]
    unheld: list[str] = []
    built, transposing, skipped, bare = _phases_held(plan, phases, astray, accesses, instrs,
                                                     unheld)
    size = {e.buffer: 0 for e in plan.reads}
    for e in plan.reads:
        size[e.buffer] = max(size[e.buffer], int(e.addresses.max()) + e.width)
    if bare:
        unheld.append(f"entries {', '.join(bare[:8])}{' ...' if len(bare) > 8 else ''} "
                      f"have no fragment read the lowering evaluated (a load it does not "
                      f"read as one), the {len(skipped)} ds_read of their gaps not held")
    if transposing:
        unheld.append(f"{len(transposing)} transposing ds_read (lines "
                      f"{', '.join(map(str, transposing[:8]))}) not held: a lane's bytes are "
                      f"no plain read's")
    bases, voters = placed(built, plan.reads, size, unheld)
    outside = misplaced(bases, voters, size, lds_bytes, instrs)
    if outside:
        # the vote put a buffer outside the LDS, where no copy can (a read there is the LDS
        # rule's ``lds-outside``): the plan's addresses and this assembly's meet on no one
        # placement (IREE's 256^3 bf16 kernel in 3 stages rolled back: 2 reads vote -1024)
        return [Finding(NOTE_KIND, "-", (), (), "fragment reads not held against the "
                        "plan's LDS addresses: " + "; ".join(
                            ["the vote places a buffer outside the LDS: "
                             + f.message for f in outside] + unheld))]
    found: list[Finding] = []
    evidence: list = []
    for ph in built:
        unknown = [ln for _, ln, a in ph.actual
                   if a is None or a.lanes is None or a.active is None]
        if unknown:
            unheld.append(f"{len(unknown)} ds_read of the {ph.name} (lines "
                          f"{', '.join(map(str, unknown[:8]))}) of an address or exec the "
                          f"LDS rule does not know: not held, and the {ph.name}'s reads "
                          f"not checked for coverage")
        missed = _misreads(ph, bases, instrs) + _loaded_addresses(ph.name, unknown, instrs,
                                                                  loaded)
        found += missed
        if places is None:
            unheld.append(f"which part of its MFMA operand each ds_read of the {ph.name} "
                          f"fills is not held (no register places given)")
        else:
            found += _parts(ph, bases, instrs, places, {ln for f in missed
                                                         for ln in f.lines}, unheld,
                            evidence)
        if not unknown:
            found += _unread(ph, bases, instrs)
    if places is not None:
        refused = {ln for f in found for ln in f.lines}
        found += mfma_findings([x for x in evidence if x.line not in refused], chains,
                               instrs, unheld)
    unplaced = sorted({e.buffer for ph in built for e in ph.entries} - set(bases))
    if unplaced:
        unheld.append(f"no ds_read places buffer(s) {', '.join(unplaced)}: their reads "
                      f"not checked for coverage")
    if unheld:
        found.append(Finding(NOTE_KIND, "-", (), (), "fragment reads not held against the "
                             "plan's LDS addresses: " + "; ".join(unheld)))
    return found


def _phases_held(plan, phases: dict, astray: set, accesses: dict, instrs: dict,
                 unheld: list) -> tuple[list, list, list, list]:
    """(the phases the rule holds, the transposing reads' lines, the lines of the reads of
    blind gaps, the entries with no read of the plan's) of :func:`read_findings`'s
    ``phases``; what it cannot hold said in ``unheld``."""
    by_key: dict[tuple, list] = {}
    for e in plan.reads:
        by_key.setdefault((e.channel, e.stage, e.subtile), []).append(e)
    bare: list[str] = []                # the entries with no read of the plan's
    built: list[_Phase] = []
    transposing: list[int] = []
    skipped: list[int] = []
    for name, (planned, actual) in phases.items():
        if name in astray and actual:
            unheld.append(f"the {name}'s {len(actual)} ds_read not held: the comparison "
                          f"finds its instructions elsewhere than the plan puts them "
                          f"(moved, changed, merged or extra)")
            continue
        # a transposing read (``ds_read_b64_tr_b16``) reads for its lanes what others
        # address: no plain read of the plan's (the front end's transposing loads)
        transposing += [ln for _, ln in actual if "_tr_" in instrs[ln].mnemonic]
        actual = [(g, ln) for g, ln in actual if "_tr_" not in instrs[ln].mnemonic]
        rows = []
        tokens = Counter(label for _, label, _ in planned)
        index: Counter = Counter()
        for gap, label, gone in planned:
            m = _LABEL.match(label)
            op = plan.entries(_PLAN_PHASE[m.group(1)])[int(m.group(2))].op if m else None
            reads = sorted(by_key.get(_key(op), []) if op is not None else [],
                           key=lambda e: e.part)
            if not reads and label not in bare:
                bare.append(label)
            # its j-th ds_read is its j-th read where as many (else all or none kept)
            j = index[label]
            index[label] += 1
            kept = [] if gone else [reads[j]] if len(reads) == tokens[label] else \
                reads if not any(g for _, lb, g in planned if lb == label) else []
            kept = [(e,) for e in kept]
            rows.append((gap, label, reads, kept))
        # a gap planning a read the lowering did not evaluate: its reads not told apart
        blind = {gap for gap, _, reads, _ in rows if not reads}
        skipped += [ln for g, ln in actual if g in blind]
        kept = sum(1 for (gap, _, gone), _ in zip(planned, rows) if not gone and
                   gap not in blind)
        held = [(g, ln) for g, ln in actual if g not in blind]
        if len(held) != kept:
            # more or fewer reads than the comparison finds of the plan's: code the plan
            # does not hold (IREE's remainder, its C tile read back through LDS)
            unheld.append(f"the {name}'s {len(held)} ds_read are not the {kept} the "
                          f"comparison finds of the plan's (code the plan does not "
                          f"describe): not held")
            continue
        # (a blind gap's planned reads neither: its reads are not told apart, so none of
        # them is demanded; IREE's 8-wave A x B kernels of K step 128 read a plain A
        # fragment in the gap of a transposing B one)
        built.append(_Phase(name, [r for r in rows if r[0] not in blind],
                            [(g, ln, accesses.get(ln)) for g, ln in actual
                             if g not in blind]))
    return built, transposing, skipped, bare


def _inside(starts, width, on, e, base) -> np.ndarray:
    """Per thread ``on`` leaves on, whether ``width`` bytes at ``starts`` lie inside planned
    read ``e`` (its buffer at ``base``); True where off."""
    lo = e.addresses + base
    return ~on | ((starts >= lo) & (starts + width <= lo + e.width))


def _misreads(ph: _Phase, bases: dict, instrs: dict) -> list[Finding]:
    """``lds-misread``: a ``ds_read`` piece inside no planned read of its gap (the reads
    of two gaps given each other's bytes read every byte of the phase, each too early or
    too late: the epilogue's, where no copy races them, ran WRONG)."""
    planned = [e for e in ph.entries if e.buffer in bases]
    out, seen = [], set()
    for gap, line, a, starts, width, on in ph.pieces():
        if line in seen or any(_inside(starts, width, on, e, bases[e.buffer]).all()
                               for e in ph.spans(gap) if e.buffer in bases):
            continue
        seen.add(line)
        near = [e for e in ph.by_gap.get(gap, ()) if e.buffer in bases] or planned
        head = f"{instrs[line].text} (line {line}) reads LDS bytes "
        if not near:        # no read of its buffers reads where the plan's read
            t = int(np.flatnonzero(on)[0]) if on.any() else 0
            e = (ph.by_gap.get(gap) or list(ph.entries))[0]
            out.append(Finding(
                "lds-misread", ph.name, tuple(ph.entries[e]), (line,),
                f"{head}{int(starts[t])}..{int(starts[t]) + width - 1} in thread {t} (wave "
                f"{t // 64}, lane {t % 64}), and no ds_read reads the buffers of its gap's "
                f"planned reads at one placement: the plan's read of "
                f"{', '.join(ph.entries[e])}, {describe_read(e)}, reads its buffer's bytes "
                f"{int(e.addresses[t])}..{int(e.addresses[t]) + e.width - 1} there"))
            continue
        # the planned read of its gap it misses in the fewest threads: what it should read
        e = min(near, key=lambda x: int((~_inside(starts, width, on, x,
                                                  bases[x.buffer])).sum()))
        t = int(np.flatnonzero(~_inside(starts, width, on, e, bases[e.buffer]))[0])
        want = int(e.addresses[t]) + bases[e.buffer]
        out.append(Finding(
            "lds-misread", ph.name, tuple(ph.entries[e]), (line,),
            f"{head}{int(starts[t])}..{int(starts[t]) + width - 1} in thread {t} (wave "
            f"{t // 64}, lane {t % 64}), inside no fragment read the plan issues there "
            f"in the {ph.name}: the plan's read of {', '.join(ph.entries[e])}, "
            f"{describe_read(e)} placed at byte {bases[e.buffer]}, reads bytes "
            f"{want}..{want + e.width - 1}"))
    return out


def _loaded_addresses(phase: str, lines: list, instrs: dict, loaded: dict) -> list[Finding]:
    """``lds-misread``: a ``ds_read`` of an address the LDS rule does not know whose address
    register a ``ds_read`` or ``global_load`` wrote (``loaded``: ds_read line -> its line,
    :func:`~pipeline_mlir.isa.read_places.loaded_addresses`): an address no fragment read
    plans (a read's destination registers moved onto another read's address register:
    LDS read out of range on the emulator)."""
    return [Finding("lds-misread", phase, (), (ln,),
                    f"{instrs[ln].text} (line {ln}) reads LDS at {instrs[ln].operands[1]}, "
                    f"which {instrs[loaded[ln]].text} (line {loaded[ln]}) loads from memory: "
                    f"an address no fragment read plans")
            for ln in lines if ln in loaded]


def _starts(e, operand: str, at: int, width: int) -> list[int]:
    """The bytes of planned read ``e`` that fill bytes ``at .. at + width - 1`` of
    ``operand`` in order, from one of its fills each (one read may fill several MFMAs'
    operands: a slice of it each)."""
    out = []
    for name, m in e.fills:
        if name == operand and at in m:
            k = m.index(at)
            if m[k:k + width] == tuple(range(at, at + width)) and k not in out:
                out.append(k)
    return out


def _covered(places, lo: int, hi: int) -> bool:
    """Whether the places' byte ranges of the read cover bytes ``lo .. hi - 1``."""
    reach = lo
    for b, e in sorted((b, e) for *_, b, e in places if b < hi and lo < e):
        if b > reach:
            return False
        reach = max(reach, e)
    return reach >= hi


def _parts(ph: _Phase, bases: dict, instrs: dict, places: dict, refused: set,
           unheld: list, evidence: list) -> list[Finding]:
    """``lds-misread``: a ``ds_read`` piece that fills a part of an MFMA operand (its
    destination registers followed to the MFMAs: ``places``) with bytes other than those
    of the planned read of its gap that fills that part (the plan's ``fills``); the two
    parts of one fragment given each other's address or destination registers.  A read
    whose registers are not followed, or whose gap plans a read the lowering did not
    follow into an MFMA, is said in ``unheld``.  Each piece that fills its part with the
    planned bytes is added to ``evidence`` (an :class:`~pipeline_mlir.isa.frag_mfmas.Fed` per MFMA it reaches)."""
    out, blind = [], []
    for gap, line, a in ph.actual:
        if line in refused or a is None or a.lanes is None or a.active is None:
            continue
        planned = [e for e in ph.by_gap.get(gap, ()) if e.buffer in bases]
        p = places.get(line)
        if not planned or p is None or not p.places or not all(e.fills for e in planned):
            blind.append((line, p.why if p is not None and p.why else
                          "its gap plans a read the lowering did not follow to an MFMA"
                          if p is not None and p.places else "no places known"))
            continue
        bad = None
        fed = []
        for j, o in enumerate(a.offsets):
            lo, hi = j * a.width, (j + 1) * a.width
            if not _covered(p.places, lo, hi):
                # a piece whose bytes MFMA operands hold only in part
                blind.append((line, f"its piece {j} fills no whole part of an MFMA operand"))
                continue
            # each part once (the piece's bytes one operand place holds: the whole piece,
            # or a slice of it where one read feeds several MFMAs), with the MFMAs reading
            # it (the first named)
            parts: dict = {}
            for x, y, m, b, e in sorted(p.places):
                if max(lo, b) < min(hi, e):
                    parts.setdefault((x, y, max(lo, b), min(hi, e)), []).append(m)
            for (operand, at, first, end), mfmas in parts.items():
                at, width, starts = at + first, end - first, a.starts(o) + (first - lo)
                fits = [(e, k) for e in planned for k in _starts(e, operand, at, width)]
                hit = [(e, k) for e, k in fits
                       if ((starts == e.addresses + bases[e.buffer] + k) | ~a.active).all()]
                if not hit:
                    bad = (starts, operand, at, width, mfmas[0], fits)
                    break
                feeds = feeds_of(hit, operand, at, width)
                fed += [Fed(ph.name, line, operand, at, width, m, hit[0][0], feeds,
                             tuple(ph.entries[hit[0][0]])) for m in mfmas]
            if bad:
                break
        if bad is None:
            evidence += fed
            continue
        starts, operand, at, width, mfma, fits = bad
        part = (f"bytes {at}..{at + width - 1} of {operand} of {instrs[mfma].mnemonic} "
                f"(line {mfma})")
        if not fits:
            e = planned[0]
            out.append(Finding(
                "lds-misread", ph.name, tuple(ph.entries[e]), (line,),
                f"{instrs[line].text} (line {line}) fills {part}, which no fragment read "
                f"the plan issues in its gap fills (the plan's reads there: "
                f"{'; '.join(describe_read(x) for x in planned)})"))
            continue
        e, k = fits[0]
        want = e.addresses + bases[e.buffer] + k
        t = int(np.flatnonzero((starts != want) & a.active)[0])
        out.append(Finding(
            "lds-misread", ph.name, tuple(ph.entries[e]), (line,),
            f"{instrs[line].text} (line {line}) fills {part} with LDS bytes "
            f"{int(starts[t])}..{int(starts[t]) + width - 1} in thread {t} (wave "
            f"{t // 64}, lane {t % 64}): the plan's read of {', '.join(ph.entries[e])}, "
            f"{describe_read(e)} placed at byte {bases[e.buffer]}, fills that part with bytes "
            f"{int(want[t])}..{int(want[t]) + width - 1}"))
    if blind:
        unheld.append(f"which part of its MFMA operand {len(blind)} ds_read of the "
                      f"{ph.name} fill is not held (" + "; ".join(
                          f"line {ln}: {why}" for ln, why in blind[:4])
                      + (" ..." if len(blind) > 4 else "") + ")")
    return out


def _unread(ph: _Phase, bases: dict, instrs: dict) -> list[Finding]:
    """``lds-unread``: bytes of a planned read of the phase no ``ds_read`` of it reads."""
    pieces = list(ph.pieces())
    if not pieces:
        return []
    starts = np.stack([p[3] for p in pieces])                  # piece x thread
    ends = starts + np.array([p[4] for p in pieces])[:, None]
    on = np.stack([p[5] for p in pieces])
    out = []
    def covered(e):
        lo = e.addresses + bases[e.buffer]
        # one piece holding the whole read, else byte by byte (a read split in pieces)
        hit = (on & (starts <= lo) & (ends >= lo + e.width)).any(axis=0)
        if not hit.all():
            hit |= np.all([(on & (starts <= lo + c) & (lo + c < ends)).any(axis=0)
                           for c in range(e.width)], axis=0)
        return hit

    for group in sorted(ph.demanded, key=lambda g: [(x.stage, x.part) for x in g]):
        placed = [x for x in group if x.buffer in bases]
        if not placed:
            continue
        hits = [covered(x) for x in placed]
        if any(h.all() for h in hits):
            continue
        e, hit = next((x, h) for x, h in zip(placed, hits) if x in ph.entries)
        labels = ph.entries[e]
        lo = e.addresses + bases[e.buffer]
        t = int(np.flatnonzero(~hit)[0])
        gaps = {g for g, es in ph.by_gap.items() if e in es}
        lines = tuple(ln for g, ln, _a in ph.actual if g in gaps)
        where = ("; the ds_read of its gap: " + ", ".join(
            f"{instrs[ln].text} (line {ln})" for ln in lines[:4])) if lines else ""
        out.append(Finding(
            "lds-unread", ph.name, tuple(labels), lines,
            f"the plan's fragment read of {', '.join(labels)}, {describe_read(e)} placed at "
            f"byte {bases[e.buffer]}, bytes {int(lo[t])}..{int(lo[t]) + e.width - 1} of "
            f"thread {t} (wave {t // 64}, lane {t % 64}), is read by no ds_read of the "
            f"{ph.name}: the MFMAs get another fragment{where}"))
    return out
