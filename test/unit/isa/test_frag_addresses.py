"""The ISA check's rule that every ``ds_read`` reads the LDS bytes its fragment read plans
(``pipeline_mlir/isa/frag_addresses.py``; the plan's addresses from
``pipeline_mlir/analysis/lds_access.py``'s ``loop_reads``, evaluated by the lowering).

The mutant campaign on the 4-wave FP8 64x64 kernel's assembly (one text, mutants applied
to it): each ``ds_read``'s ``offset:`` field moved by +-16, 64, 128 and 512 bytes, and a
constant of each instruction computing a ``ds_read`` address register changed.  Before the
rule the gate passed every one that no LDS race or access past the LDS gave away; each
is refused now at its instruction line, but for those whose every thread's address is the
unmutated one (a mask or shift count whose bits no thread's value has), which the
emulator runs exact.  Reads of the same part of two MFMAs given each other's destination registers (of
one gap or of two) are refused by which MFMA each fills (its accumulator chain).  The rule on every kernel the tests build: each of their code builds
(``--emit=hsaco`` through the gate) passes it; the note names what it does not hold.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from kernel_builds import build
from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.driver.isa_gate import check_built
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.built_check import errors, pipelined_check
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.frag_addresses import ERROR_KINDS, NOTE_KIND, read_findings
from pipeline_mlir.isa.lds_ranges import lds_map
from pipeline_mlir.isa.read_places import mfma_chains, read_places
from pipeline_mlir.tools.pipeline_opt import main

#: the offset field's moves
DELTAS = (16, -16, 64, -64, 128, -128, 512, -512)


@pytest.fixture(scope="module")
def fp8():
    """The 4-wave FP8 64x64 kernel: (built, function, the comparison's ``ds_read`` s per
    phase, the LDS rule's accesses)."""
    built = build("4wave-fp8-64")
    fn = parse_asm(built.asm).function()
    return built, fn, check_kernel_asm(fn, built.plan).reads, lds_map(fn).accesses


_PLACES: dict = {}


def _rule(fn, plan, gaps, accesses) -> list:
    # (the register places and chains of one function once: the offset mutants share the
    # kernel's)
    if id(fn) not in _PLACES:
        _PLACES[id(fn)] = (fn, read_places(fn), mfma_chains(fn))
    return read_findings(plan, gaps, set(), accesses, {i.line: i for i in fn.instrs()},
                         fn.lds_bytes, fn.threads, _PLACES[id(fn)][1], None,
                         _PLACES[id(fn)][2])


def test_the_plan_holds_every_read_of_the_fp8_kernel(fp8):
    """Every ``ds_read`` of the built kernel is held (no note) and reads its plan's bytes:
    16 fragment reads evaluated by the lowering, 32 ``ds_read`` in the code."""
    built, fn, gaps, accesses = fp8
    assert len(built.plan.reads) == 16 and built.plan.reads_note == ""
    assert sum(len(a) for _, a in gaps.values()) == 32
    assert _rule(fn, built.plan, gaps, accesses) == []
    assert not [f for f in pipelined_check(fn, built.plan, "", built.ll).findings
                if f.kind in ERROR_KINDS | {NOTE_KIND}]


def _offset_mutants(fn, accesses):
    """(line, its text moved, the access as the moved offset reads) per ``ds_read`` and
    move (an offset that stays a 16-bit field)."""
    for i in fn.instrs():
        if i.kind != "ds_read":
            continue
        m = re.search(r"offset:(\d+)", i.text)
        old = int(m.group(1)) if m else 0
        for d in DELTAS:
            if not 0 <= old + d < 1 << 16:
                continue
            text = re.sub(r"offset:\d+", f"offset:{old + d}", i.text) if m else \
                f"{i.text} offset:{old + d}"
            yield i.line, text, replace(accesses[i.line], offsets=(old + d,))


def test_every_ds_read_offset_moved_is_refused_at_its_line(fp8):
    """Each ``ds_read``'s offset field moved by +-16, 64, 128, 512 (the ones a 16-bit field
    holds): the rule refuses every one with an error at the instruction (its register
    values unchanged: the LDS rule's access with the offset moved).  Four of them go
    through the whole gate on the mutated text: refused there, the message at the line."""
    built, fn, gaps, accesses = fp8
    mutants = list(_offset_mutants(fn, accesses))
    assert len(mutants) == 240
    for line, text, moved in mutants:
        found = errors(_rule(fn, built.plan, gaps, {**accesses, line: moved}))
        assert found and {f.kind for f in found} <= ERROR_KINDS, (line, text)
        assert any(line in f.lines for f in found), (line, text, found)
    lines = built.asm.split("\n")
    for line, text, _ in mutants[::60]:
        mutated = lines[:line - 1] + ["\t" + text] + lines[line:]
        with pytest.raises(Failure) as e:
            check_built("\n".join(mutated), [built.plan], built.ll, None, "k.mlir")
        assert any(f"(assembly line {line})" in d.message and "lds-misread" in d.message
                   for d in e.value.diags), [d.message for d in e.value.diags]


def _address_slice(fn) -> list:
    """The instructions computing the ``ds_read`` address registers of the prologue: from
    each read's address register back through the nearest earlier write of every register
    an instruction reads (the prologue is straight code), vector and scalar ALU alike."""
    code = sorted(fn.instrs(), key=lambda i: i.line)
    loop = {i.line for i in fn.main_loop_phases()["loop"]}
    first = min(loop)

    def writer(reg, before):
        return next((j for j in reversed(code) if j.line < before and reg in j.defs), None)

    work = [writer(r, i.line) for i in code if i.kind == "ds_read" and i.line < first
            for r in i.uses if r.startswith("v")]
    seen = {}
    while work:
        i = work.pop()
        if i is None or i.line in seen or i.kind not in ("valu", "salu"):
            continue
        seen[i.line] = i
        work += [writer(r, i.line) for r in i.uses]
    return [seen[k] for k in sorted(seen)]


_NUMBER = re.compile(r"^(0x[0-9a-fA-F]+|\d+)$")


def _address_mutants(fn):
    """(line, text) per integer constant of an address instruction: a shift count (of
    ``lshl`` / ``lshr`` / ``bfe``) one more, any other constant 16 more."""
    for i in _address_slice(fn):
        for k, o in enumerate(i.operands[1:], start=1):
            if not _NUMBER.match(o):
                continue
            shift = ("lshl" in i.mnemonic or "lshr" in i.mnemonic or "bfe" in i.mnemonic) \
                and int(o, 0) < 32
            ops = list(i.operands)
            ops[k] = str(int(o, 0) + (1 if shift else 16))
            yield i.line, " ".join([i.mnemonic, ", ".join(ops), *i.modifiers])


def test_every_read_address_computation_changed_is_refused_or_reads_alike(fp8, tmp_path,
                                                                           capsys):
    """A constant of each instruction computing a prologue ``ds_read``'s address register
    changed (a shift count one more, any other constant 16 more; 14 mutants): 12 refused at
    the ``ds_read`` s they move (the whole mutated text read again: its register values,
    the LDS rule's accesses); 2 leave every thread's read address as it was and pass.
    ``v_bitop3_b32 ..., 19`` (a bit of the mask no thread's value has) runs exact on the
    emulator.  ``v_bfe_u32 ... 4, 3`` (3 bits of the wave's row for 2) feeds C's store
    address too: the emulator finds C WRONG (not written), and no rule of the gate holds a
    global store's address (a gap this rule does not close)."""
    built, fn, gaps, accesses = fp8
    lines = built.asm.split("\n")
    refused, alike = 0, {}
    for line, text in _address_mutants(fn):
        mutated = "\n".join(lines[:line - 1] + ["\t" + text] + lines[line:])
        other = parse_asm(mutated).function()
        moved = lds_map(other).accesses
        found = errors(_rule(other, built.plan, gaps, moved))
        if found:
            refused += 1
            assert {f.kind for f in found} <= ERROR_KINDS and all(f.lines for f in found)
            continue
        assert moved.keys() == accesses.keys() and all(
            (moved[x].lanes == accesses[x].lanes).all() for x in accesses), text
        alike[text.split()[0]] = mutated
    assert refused == 12 and sorted(alike) == ["v_bfe_u32", "v_bitop3_b32"]
    src = tmp_path / "m.s"
    src.write_text(alike["v_bitop3_b32"])
    assert main(["--emulate=64,64,512", str(src), "--pipeline=4wave{dtype=fp8 BM=64 BN=64 "
                 "BK=128}", "--emulate-workgroups=1", "--emulate-jobs=1"]) == 0
    assert ": exact," in capsys.readouterr().out


def test_a_read_the_plan_has_no_address_for_is_a_note():
    """A plan without the lowering's addresses (one not lowered from IR) holds no read:
    the note says why, and nothing refuses."""
    built = build("4wave-fp8-64")
    fn = parse_asm(built.asm).function()
    bare = replace(built.plan, reads=(), reads_note="not lowered from IR")
    found = [f for f in pipelined_check(fn, bare, "", built.ll).findings
             if f.kind in ERROR_KINDS | {NOTE_KIND}]
    assert [f.kind for f in found] == [NOTE_KIND] and "not lowered from IR" in \
        found[0].message


def _swapped(asm: str, fn, phases: dict) -> dict:
    """Mutants of reads that keep every byte a phase reads: (a) the two ``ds_read`` s of
    each gap (one fragment's two parts) given each other's address register, (b) each
    other's destination registers, and (c) each epilogue read and the first read of its
    address register in another gap given each other's ``offset:`` (the epilogue issues
    no copy such reads would race).  name -> (the lines changed, the mutated text)."""
    lines = asm.split("\n")
    instrs = {i.line: i for i in fn.instrs()}
    out = {}

    def mutant(name, edits):
        text = list(lines)
        for line, new in edits.items():
            text[line - 1] = "\t" + new
        out[name] = (tuple(edits), "\n".join(text))

    for ph, (_, actual) in phases.items():
        by_gap = {}
        for gap, line in actual:
            by_gap.setdefault(gap, []).append(instrs[line])
        for gap, (x, y, *_) in ((g, r) for g, r in by_gap.items() if len(r) > 1):
            (dx, ax, *_), (dy, ay, *_) = x.operands, y.operands
            mods = lambda i: " ".join(i.modifiers)
            mutant(f"{ph} {x.line} addresses", {
                x.line: f"{x.mnemonic} {dx}, {ay} {mods(x)}",
                y.line: f"{y.mnemonic} {dy}, {ax} {mods(y)}"})
            mutant(f"{ph} {x.line} destinations", {
                x.line: f"{x.mnemonic} {dy}, {ax} {mods(x)}",
                y.line: f"{y.mnemonic} {dx}, {ay} {mods(y)}"})
    epi = [(g, instrs[ln]) for g, ln in phases["epilogue"][1]]
    for g, x in epi:
        z = next((z for k, z in epi if k != g and z.operands[1] == x.operands[1]), None)
        if z is None or z.modifiers == x.modifiers:
            continue
        mutant(f"epilogue {x.line} <-> {z.line} offsets", {
            x.line: f"{x.mnemonic} {', '.join(x.operands)} {' '.join(z.modifiers)}",
            z.line: f"{z.mnemonic} {', '.join(z.operands)} {' '.join(x.modifiers)}"})
    return out


def test_reads_given_each_others_bytes_are_refused_across_gaps(fp8):
    """Reads that keep the set of bytes a phase reads: each epilogue read given the
    ``offset:`` of a read of its address register in another gap (12 mutants, WRONG or
    racy on the emulator) passed the rule while it held a read to any planned read of its
    phase; the two parts of one gap's fragment given each other's address or destination
    registers (32 mutants, WRONG on the emulator) passed while it did not hold which part
    of the MFMA operand each read fills.  Each of the 44 is refused now with an
    ``lds-misread`` at a changed line; so are an A and a B read of two gaps given each
    other's destination registers."""
    built, fn, gaps, _ = fp8
    mutants = _swapped(built.asm, fn, gaps)
    kinds = Counter(name.split()[-1] for name in mutants)
    assert kinds == {"addresses": 16, "destinations": 16, "offsets": 12}, kinds
    for name, (changed, text) in mutants.items():
        other = parse_asm(text).function()
        found = errors(_rule(other, built.plan, gaps, lds_map(other).accesses))
        refused = any(f.kind == "lds-misread" and set(f.lines) & set(changed) for f in found)
        assert refused, (name, found)
    # an A read and a B read of two gaps given each other's destination registers: each
    # fills a part of an operand no read of its gap fills
    instrs = {i.line: i for i in fn.instrs()}
    a, b = (instrs[next(ln for _, ln in gaps["prologue"][1] if instrs[ln].operands[0] == r)]
            for r in ("v[34:37]", "v[26:29]"))
    lines = built.asm.split("\n")
    for x, y in ((a, b), (b, a)):
        lines[x.line - 1] = f"\t{x.mnemonic} {y.operands[0]}, {x.operands[1]} " \
            f"{' '.join(x.modifiers)}"
    other = parse_asm("\n".join(lines)).function()
    found = errors(_rule(other, built.plan, gaps, lds_map(other).accesses))
    assert {f.lines for f in found} == {(a.line,), (b.line,)} and all(
        "which no fragment read the plan issues in its gap fills" in f.message
        for f in found), found


def test_a_gap_with_a_read_the_plan_has_no_address_for_demands_none(fp8):
    """A gap that plans a read the lowering has no address for (IREE's 8-wave A x B
    kernels of K step 128 read a plain A fragment in the gap of a transposing B one,
    whose reads are no tagged load) holds none of its reads: its plain reads not demanded
    either (those kernels were refused with ``lds-unread``), the note names its entries."""
    built, fn, gaps, accesses = fp8
    planned, actual = gaps["loop"]
    a, b = sorted({g for g, _, _ in planned})[:2]
    entry = next(lb for g, lb, _ in planned if g == b)
    # the loop's second gap read in its first one, its reads unevaluated
    merged = {**gaps, "loop": ([(a if g == b else g, lb, gone) for g, lb, gone in planned],
                               [(a if g == b else g, ln) for g, ln in actual])}
    op = built.plan.entries("kernel")[int(entry[4:-1])].op
    bare = replace(built.plan, reads=tuple(
        e for e in built.plan.reads if (e.channel, e.stage, e.subtile) !=
        (op.channel, op.stage, op.subtile)))
    found = _rule(fn, bare, merged, accesses)
    assert not errors(found), found
    assert [f.kind for f in found] == [NOTE_KIND] and entry in found[0].message



_ANALYSED: dict = {}


def _analysed(built) -> tuple:
    """(the function, the comparison's reads, the reads' register places) of ``built``,
    once per kernel (the BF16 kernel's tests share them)."""
    if built.asm not in _ANALYSED:
        fn = parse_asm(built.asm).function()
        _ANALYSED[built.asm] = fn, check_kernel_asm(fn, built.plan).reads, read_places(fn)
    return _ANALYSED[built.asm]


def _same_part_pairs(built, phase: str, across: bool) -> tuple:
    """(the kernel's function, the comparison's reads, the first two ``ds_read`` s of
    ``phase`` that fill the same part of an operand of two different sets of MFMAs, of two
    gaps if ``across`` else of one)."""
    fn, gaps, places = _analysed(built)
    instrs = {i.line: i for i in fn.instrs()}
    gap_of = {line: gap for gap, line in gaps[phase][1]}

    def parts(i):
        return {(o, at) for o, at, *_ in places[i.line].places}

    def mfmas(i):
        return {m for *_, m, _, _ in places[i.line].places}

    reads = [instrs[line] for _, line in gaps[phase][1]]
    x, y = next((x, y) for x in reads for y in reads
                if x.line < y.line and (gap_of[x.line] != gap_of[y.line]) == across
                and x.mnemonic == y.mnemonic and parts(x) & parts(y)
                and not mfmas(x) & mfmas(y))
    return fn, gaps, x, y


def _destinations_swapped(asm: str, x, y) -> str:
    lines = asm.split("\n")
    for i, j in ((x, y), (y, x)):
        lines[i.line - 1] = f"\t{i.mnemonic} {j.operands[0]}, {i.operands[1]} " \
            f"{' '.join(i.modifiers)}"
    return "\n".join(lines)


def test_two_reads_of_one_gap_filling_the_same_part_of_two_mfmas_are_refused():
    """In the 4-wave BF16 128x128 kernel one gap of the prologue reads two A fragments (two
    rows of MFMAs), each filling bytes 0..15 of A of its own MFMAs; the two ``ds_read`` s
    given each other's destination registers read the planned bytes into the planned part,
    and the emulator finds C WRONG (rows of MFMAs given each other's A; measured when the
    gate passed it).  Which MFMA a part is of is held now: the loop's reads reaching the
    same MFMAs make them the MFMAs of the other row's accumulators, so the gate refuses
    the build with an ``lds-misread`` at each read, naming the MFMA it reaches."""
    built = build("4wave-bf16")
    fn, _, x, y = _same_part_pairs(built, "prologue", across=False)
    with pytest.raises(Failure) as e:
        check_built(_destinations_swapped(built.asm, x, y), [built.plan], built.ll, None,
                    "k.mlir")
    text = str(e.value)
    assert "lds-misread in the prologue (schedule entries PRO[" in text and \
        f"(line {x.line}) fills" in text, text
    assert "other ds_read reaching its accumulator chain" in text and \
        "make the MFMA of carried accumulator" in text and \
        "(and 1 more lds-misread findings)" in text, text


def test_two_reads_of_two_gaps_filling_the_same_part_of_two_mfmas_are_refused():
    """Two reads of two gaps of the 4-wave BF16 128x128 kernel's epilogue filling the same
    part of the operands of different MFMAs, given each other's destination registers:
    each reads its planned bytes into a part the plan's reads of its gap fill, so the rule
    without the accumulator chains passes them (no error, the note says which MFMA is not
    held); with the chains each is refused at its line."""
    built = build("4wave-bf16")
    fn, gaps, x, y = _same_part_pairs(built, "epilogue", across=True)
    other = parse_asm(_destinations_swapped(built.asm, x, y)).function()
    instrs = {i.line: i for i in other.instrs()}
    accesses = lds_map(other).accesses
    blind = read_findings(built.plan, gaps, set(), accesses, instrs, other.lds_bytes,
                          other.threads, read_places(other))
    assert not errors(blind) and any("which MFMA each ds_read fills is not held"
                                     in f.message for f in blind), blind
    found = errors(_rule(other, built.plan, gaps, accesses))
    assert {f.lines for f in found} == {(x.line,), (y.line,)} and all(
        f.kind == "lds-misread" and "make the MFMA of carried accumulator" in f.message
        for f in found), found


def test_a_chain_the_walk_does_not_follow_is_a_note_not_a_refusal(fp8):
    """An MFMA's accumulator register rewritten by another instruction than a copy before
    the next MFMA of its chain reads it (``v_add_f32 v13, 0, v13``: the same value) leaves
    that chain not followed: its MFMAs are held one by one, nothing is refused, and the
    note names the chain."""
    built, fn, _, _ = fp8
    first = min(i.line for i in fn.instrs() if i.kind == "mfma")
    reg = int(re.match(r"v\[(\d+):", {i.line: i for i in fn.instrs()}[first].operands[0])
              .group(1))
    lines = built.asm.split("\n")
    lines.insert(first, f"\tv_add_f32_e32 v{reg + 1}, 0, v{reg + 1}")
    other = parse_asm("\n".join(lines)).function()
    found = _rule(other, built.plan, check_kernel_asm(other, built.plan).reads,
                  lds_map(other).accesses)
    assert not errors(found), found
    note = [f.message for f in found if f.kind == NOTE_KIND]
    assert len(note) == 1 and "the accumulator chains of" in note[0] and \
        "in part" in note[0], note


def test_a_read_whose_address_register_another_read_loads_is_refused():
    """An epilogue ``ds_read`` of the 4-wave BF16 128x128 kernel given destination
    registers ending at a later read's address register: that read's address is LDS data,
    which the LDS rule does not know (a note), so the gate passed the build and the
    emulator read LDS out of range (measured once; IREE's BF16 512^3 32x32x16 kernel
    likewise).  Refused now with an ``lds-misread`` at the later read."""
    built = build("4wave-bf16")
    fn = parse_asm(built.asm).function()
    code = sorted(fn.instrs(), key=lambda i: i.line)
    epilogue = {ln for _, ln in check_kernel_asm(fn, built.plan).reads["epilogue"][1]}
    epi = [i for i in code if i.kind == "ds_read" and i.line in epilogue]
    # a read and a later one whose address register nothing writes between them (the
    # first does not either), a wait between them (the moved registers waited for)
    at = {i.line: k for k, i in enumerate(code)}
    x, y = next((x, y) for x in reversed(epi) for y in epi if y.line > x.line + 1
                and y.operands[1] not in x.defs
                and any(j.kind == "wait" for j in code[at[x.line] + 1:at[y.line]])
                and not any(y.operands[1] in j.defs for j in code[at[x.line] + 1:at[y.line]]))
    lo = int(y.operands[1][1:])
    lines = built.asm.split("\n")
    lines[x.line - 1] = f"\t{x.mnemonic} v[{lo - 3}:{lo}], {x.operands[1]} " \
        f"{' '.join(x.modifiers)}"
    text = "\n".join(lines)
    with pytest.raises(Failure) as e:
        check_built(text, [built.plan], built.ll, None, "k.mlir")
    assert any(f"(assembly line {y.line})" in d.message and "lds-misread" in d.message
               and "loads from memory" in d.message for d in e.value.diags), \
        [d.message for d in e.value.diags]


def _edited(asm: str, edits: dict) -> str:
    """``asm`` with each instruction of ``edits`` (instruction -> its new operands)."""
    lines = asm.split("\n")
    for i, ops in edits.items():
        lines[i.line - 1] = f"\t{i.mnemonic} {', '.join(ops)} {' '.join(i.modifiers)}"
    return "\n".join(lines)


def test_a_chain_whose_reads_are_of_two_accumulators_is_refused(fp8):
    """Mutants whose chains' reads split evenly between two accumulators (the votes tied):
    (a) the 4-wave BF16 128x128 kernel's loop reading two rows of MFMAs' A fragments into
    each other's registers in every gap (each chain's loop MFMAs read the other row's A, its
    prologue's and epilogue's its own: as many reads of each); (b) the 4-wave FP8 64x64
    kernel's two first loop MFMAs given each other's accumulator (``src2``; their
    ``vdst`` kept), which joins two accumulators' MFMAs into one chain.  Each passed the
    gate while a tie let every read stand, and the emulator found C WRONG; refused now."""
    built = build("4wave-bf16")
    fn, gaps, places = _analysed(built)
    chains = mfma_chains(fn)
    instrs = {i.line: i for i in fn.instrs()}
    gap_of = {ln: g for g, ln in gaps["loop"][1]}

    def of(i):
        return (frozenset((o, at) for o, at, *_ in places[i.line].places),
                frozenset(chains.chain[m] for *_, m, _, _ in places[i.line].places))

    reads = [instrs[ln] for _, ln in gaps["loop"][1]]
    rows: dict = {}
    for x in reads:
        for y in reads:
            if x.line < y.line and gap_of[x.line] == gap_of[y.line] and \
                    of(x)[0] & of(y)[0] and not of(x)[1] & of(y)[1]:
                rows.setdefault(frozenset((of(x)[1], of(y)[1])), []).append((x, y))
    # two rows' reads: in each gap, each part of the fragment (each read once)
    pairs, used = [], set()
    for x, y in next(p for p in rows.values() if len(p) >= 4):
        if not {x.line, y.line} & used:
            used |= {x.line, y.line}
            pairs.append((x, y))
    assert len(pairs) == 4, pairs
    text = _edited(built.asm, {i: (j.operands[0], *i.operands[1:])
                               for x, y in pairs for i, j in ((x, y), (y, x))})
    other = parse_asm(text).function()
    found = errors(_rule(other, built.plan, gaps, lds_map(fn).accesses))
    # (which half of a tied chain is refused is the tie's: the loop's reads or the others)
    assert found and all(f.kind == "lds-misread" and "accumulator chain" in f.message
                         for f in found), found
    built, fn, gaps, accesses = fp8
    chains = mfma_chains(fn)
    first = sorted(i.line for i in fn.instrs() if i.kind == "mfma" and chains.place[i.line] == 0)
    x, y = ({i.line: i for i in fn.instrs()}[ln] for ln in first[1:3])
    text = _edited(built.asm, {x: (*x.operands[:3], y.operands[3], *x.operands[4:]),
                               y: (*y.operands[:3], x.operands[3], *y.operands[4:])})
    found = errors(_rule(parse_asm(text).function(), built.plan, gaps, accesses))
    assert found and all(f.kind == "lds-misread" and "accumulator chain" in f.message
                         for f in found), found


def _few_b_reads_known(fn, plan, accesses: dict, keep: int = 2) -> tuple[dict, list]:
    """(``accesses`` with the B reads' addresses known as the lane values knew them before
    they evaluated 16-bit adds (finding 36's kernel): the first ``keep`` reads of each of
    the loop's subtile-0 gaps of B, none of the other gaps planning a B read; the known
    ones of the second stage)."""
    phase = {"PRO": "prologue", "KRN": "kernel", "EPI": "epilogue"}
    out, second = dict(accesses), []
    for name, (planned, actual) in check_kernel_asm(fn, plan).reads.items():
        ops: dict = {}
        for g, label, _ in planned:
            if label[:3] in phase:
                ops.setdefault(g, set()).add(
                    plan.entries(phase[label[:3]])[int(label[4:-1])].op)
        for gap, here in ops.items():
            if all(op.channel != 1 for op in here):
                continue
            lines = [ln for g, ln in actual if g == gap]
            (op, *more) = here
            kept = lines[:keep] if name == "loop" and not more and op.subtile == 0 else []
            second += kept if kept and op.stage == 1 else []
            out.update((ln, None) for ln in lines if ln not in kept)
    return out, second


def test_a_buffer_its_known_reads_fit_at_several_bytes_is_not_placed(tmp_path):
    """Finding 36's kernel (``kernel_builds.i8_ping_pong_late``) with its B reads' addresses
    known as they were before the lane values evaluated 16-bit adds: 2 reads of each of the
    two stages' subtile-0 buffer of B.  Each fits 4 parts of its gap's reads, so the second
    stage's buffer has 4 bytes on 2 votes each, every read fitting each; the rule placed
    it at the least of them, 6 KiB short, took each read for another column's and refused
    the build (``lds-misread``), which runs exact.  It is not placed now, and the note
    says so.  A tie no byte of which every read fits (one of the two reads 16 bytes off)
    is a misread wherever the buffer is, and is still placed and refused."""
    from kernel_builds import i8_ping_pong_late

    _, built = i8_ping_pong_late(tmp_path)
    fn = parse_asm(built.asm).function()
    gaps = check_kernel_asm(fn, built.plan).reads
    few, (first, _) = _few_b_reads_known(fn, built.plan, lds_map(fn).accesses)
    found = _rule(fn, built.plan, gaps, few)
    assert not [f for f in found if f.kind in ERROR_KINDS], [f.message for f in found]
    (note,) = [f.message for f in found if f.kind == NOTE_KIND]
    assert "every ds_read placing buffer workgroup buffer 6 fits it at bytes 92160, " \
           "94208, 96256, 98304 alike" in note, note
    few[first] = replace(few[first], lanes=few[first].lanes + 16)
    found = _rule(fn, built.plan, gaps, few)
    assert [f.lines for f in found if f.kind == "lds-misread"], [f.message for f in found]


#: IREE's i8 ``A x B^T`` 89x14x257 (default flags): its gfx942 16x16x32 i8 MFMAs read
#: their two 8-byte halves of A with one ``ds_read_b128`` (finding 52 of
#: ``docs/iree-audits.md``)
I8_HALVES = dict(dtype="i8", m=89, n=14, k=257)


def _merged_reads(fn, plan, gaps: dict) -> list:
    """The ``ds_read`` s of ``gaps`` wider than every planned read of their gap: LLVM's
    merges of two planned reads lying end to end."""
    phase = {"PRO": "prologue", "KRN": "kernel", "EPI": "epilogue"}
    by_key: dict = {}
    for e in plan.reads:
        by_key.setdefault((e.channel, e.stage, e.subtile), []).append(e.width)
    instrs = {i.line: i for i in fn.instrs()}
    out = []
    for planned, actual in gaps.values():
        widths: dict = {}
        for g, label, _ in planned:
            op = plan.entries(phase[label[:3]])[int(label[4:-1])].op
            widths.setdefault(g, []).extend(by_key[(op.channel, op.stage, op.subtile)])
        out += [instrs[ln] for g, ln in actual
                if int(re.search(r"\d+$", instrs[ln].mnemonic).group()) // 8
                > max(widths[g])]
    return out


def test_a_read_llvm_merged_from_two_planned_reads_is_held_and_its_moves_refused():
    """IREE's i8 89x14x257: each fragment read of A is two planned 8-byte reads lying end
    to end (the halves of a 16x16x32 MFMA's operand), which LLVM merges into one
    ``ds_read_b128``.  Such a read voted for no placement (as wide as no planned read of
    its gap), A's buffers were left unplaced and the rule refused the build, which the
    emulator runs exact on all 3 workgroups (``lds-misread`` naming B's read of the next
    gap).  A run of planned reads of one buffer lying end to end in every thread is now
    read as one: every read is held (no note, nothing refused), and each merged read's
    offset moved by half of it (+-8), by the whole (+-16) or a buffer away (+-2048) is
    refused by the gate, most at its line (the rest where the buffer it overlaps is read,
    or by a byte no copy writes: each buffer has one read to place it by).  (All 840
    moves by multiples of 8 up to +-256 and by +-1, 2, 4 KiB of the schedule's reads were
    refused once, 703 at the line.)"""
    from kernel_builds import built_iree
    from pipeline_mlir.isa.unrolled import unrolled_check

    built = built_iree(I8_HALVES, "prefetch")
    fn = parse_asm(built.asm).function()
    gaps = unrolled_check(fn, built.plan).isa.reads     # LLVM unrolled its 3 trips
    accesses = lds_map(fn).accesses
    merged = _merged_reads(fn, built.plan, gaps)
    # (LLVM merges 2 of the 4 pairs since the LLVM step narrows the index arithmetic to 32
    # bits: InstCombine then computes the swizzled address of the other pairs' second half
    # in a form of its own, not the first half's plus 8; before, all 4)
    assert len(merged) >= 2 and {i.mnemonic for i in merged} == {"ds_read_b128"}
    found = _rule(fn, built.plan, gaps, accesses)
    assert found == [], [f.message for f in found]
    check_built(built.asm, [built.plan], built.ll, None, "k.mlir")
    lines, at_line = built.asm.split("\n"), 0
    for i in merged:
        old = int(re.search(r"offset:(\d+)", i.text).group(1))
        for d in (8, -8, 16, -16, 2048, -2048):
            text = re.sub(r"offset:\d+", f"offset:{old + d}", i.text)
            mutated = lines[:i.line - 1] + ["\t" + text] + lines[i.line:]
            with pytest.raises(Failure) as e:
                check_built("\n".join(mutated), [built.plan], built.ll, None, "k.mlir")
            at_line += any(f"(assembly line {i.line})" in d.message for d in e.value.diags)
    # the rest at the merged read of the buffer the move overlaps, or by the LDS rules (a
    # byte no copy writes): one read per buffer and stage places it, so a move of that
    # read moves the buffer, and which of two overlapping buffers moved is not told apart
    assert at_line >= len(merged) * 6 // 2, at_line
