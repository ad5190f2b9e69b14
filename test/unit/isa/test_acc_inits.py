"""The ISA gate's accumulator-start rule (``pipeline_mlir/isa/acc_inits.py``, ``acc-init``):
each MFMA of an accumulator chain reads as ``src2``, on every path, its own chain's result
or the value the chain starts from (a zero, or a load for a ``C +=`` kernel).

The reviewer's mutants of the 4-wave FP8 256x256 kernel (two zero-initialising copies of
two blocks given each other's destinations: C WRONG or NaN on the emulator) passed the gate
before; each is refused now at an MFMA, and the kernel as built passes."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build
from pipeline_mlir.isa.acc_inits import acc_init_findings
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.built_check import errors, pipelined_check
from pipeline_mlir.isa.read_places import mfma_chains

#: a loop of one MFMA behind a zero-trip branch: its accumulator zeroed on both paths, the
#: epilogue's MFMA fed by the loop's or by the zero-trip path's zeros; its operands loaded
#: first
LOOP = """
\tglobal_load_dwordx4 v[0:3], v[12:13], off
\tglobal_load_dwordx4 v[4:7], v[12:13], off offset:16
\ts_cmp_eq_u32 s0, 0
\ts_cbranch_scc1 .LBB0_2
; %bb.1:
\tv_accvgpr_write_b32 a0, 0
\tv_accvgpr_mov_b32 a1, a0
\tv_accvgpr_mov_b32 a2, a0
\tv_accvgpr_mov_b32 a3, a0
.LBB0_3:
\tv_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], a[0:3]
\ts_cmp_eq_u32 s1, 0
\ts_cbranch_scc1 .LBB0_3
\ts_branch .LBB0_4
.LBB0_2:
\tv_mov_b32_e32 v8, 0
\tv_accvgpr_write_b32 a0, v8
\tv_accvgpr_write_b32 a1, v8
\tv_accvgpr_write_b32 a2, v8
\tv_accvgpr_write_b32 a3, v8
.LBB0_4:
\tv_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], a[0:3]
\tglobal_store_dwordx4 v[10:11], a[0:3], off
\ts_endpgm
"""


def _rule(text: str, masked_starts: bool = False):
    fn = parse_asm(text).function()
    return acc_init_findings(fn, mfma_chains(fn), masked_starts)


@pytest.mark.parametrize("old, new, why", [
    (None, None, None),
    # one register not zeroed on the loop's path
    ("\tv_accvgpr_mov_b32 a2, a0\n", "", "a2 is written by no instruction"),
    # the zero-trip path starts from 1.0
    ("\tv_mov_b32_e32 v8, 0\n", "\tv_mov_b32_e32 v8, 1.0\n", "a constant not zero"),
    # ... from a load, the loop's path from a zero: one accumulator, two starts
    ("\tv_mov_b32_e32 v8, 0\n", "\tglobal_load_dword v8, v[12:13], off\n",
     "by a zero on another"),
])
def test_each_path_into_a_chain_starts_it_from_one_zero(old, new, why):
    """The snippet's chain starts from a zero on both paths (no finding); a mutant of it is
    refused at an MFMA, saying which register and why."""
    text = LOOP if old is None else LOOP.replace(old, new)
    assert text != LOOP or old is None
    found, notes = _rule(text)
    if why is None:
        assert found == [] and notes == []
    else:
        assert [f.kind for f in found] == ["acc-init"] and why in found[0].message, found


@pytest.mark.parametrize("old, new", [
    (None, None),
    # the load of B's operand deleted: both MFMAs read v[4:7] unwritten
    ("\tglobal_load_dwordx4 v[4:7], v[12:13], off offset:16\n", ""),
    # the loop's MFMA moved above the operand loads (straight code before the loop)
    ("\tglobal_load_dwordx4 v[0:3]", "\tv_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], "
                                     "a[0:3]\n\tglobal_load_dwordx4 v[0:3]"),
])
def test_an_mfma_reading_an_operand_nothing_wrote_is_refused(old, new):
    """``operand-unwritten``: an MFMA whose A or B register no instruction writes on some
    path into it multiplies garbage (an MFMA swapped above the fragment read that fills it,
    in an unrolled loop's straight code: ``test_isa_gate.py``); one finding at the first,
    counting the others, an error of the gate.  The workitem ids ``v0`` to ``v2``, which
    the hardware writes, are no such read."""
    text = LOOP if old is None else LOOP.replace(old, new, 1)
    found = [f for f in _rule(text)[0] if f.kind == "operand-unwritten"]
    if old is None:
        assert found == []
        ids = text.replace("\tglobal_load_dwordx4 v[0:3], v[12:13], off\n",
                           "\tglobal_load_dword v3, v[12:13], off\n")
        assert [f for f in _rule(ids)[0] if f.kind == "operand-unwritten"] == [], \
            "v0 to v2 are written at entry"
        return
    assert text != LOOP
    (f,) = found
    assert errors([f]) == [f] and "reads as an operand v" in f.message and \
        "which no instruction writes on a path into it" in f.message, f


def test_a_chain_started_from_loads_is_held_written_only():
    """A ``C +=`` kernel's chain starts from C's tile (loads on both paths): no finding,
    and the note says which element of C is not held; a register of it left unwritten on
    one path is still refused."""
    loads = LOOP.replace("\tv_accvgpr_write_b32 a0, 0\n", "\tglobal_load_dwordx4 a[0:3], "
                         "v[12:13], off\n").replace("\tv_mov_b32_e32 v8, 0\n", "\tglobal_load"
                                                    "_dword v8, v[12:13], off\n")
    for r in "123":
        loads = loads.replace(f"\tv_accvgpr_mov_b32 a{r}, a0\n", "")
    found, notes = _rule(loads)
    assert found == [] and len(notes) == 1 and "which element of C" in notes[0], notes
    found, _ = _rule(loads.replace("\tv_accvgpr_write_b32 a3, v8\n", ""))
    assert [f.kind for f in found] == ["acc-init"] and "a3 is written by no" in \
        found[0].message, found


#: a ``C +=`` kernel's read of C cut at C's edge (IREE's f16 ``C += A x B`` + bias + relu
#: 200x300x480): each register zeroed, then loaded in the lanes inside C, the block of the
#: load skipped when none of them is on; its MFMA after the join
MASKED = """
\tv_mov_b32_e32 v3, 0
\tv_mov_b32_e32 v2, v3
\tv_mov_b32_e32 v4, v3
\tv_mov_b32_e32 v5, 0
\tv_cmp_gt_i32_e32 vcc, 300, v16
\ts_and_saveexec_b64 s[6:7], vcc
\ts_cbranch_execz .LBB0_2
; %bb.1:
\tbuffer_load_dwordx4 v[2:5], v6, s[12:15], 0 offen
.LBB0_2:
\ts_or_b64 exec, exec, s[6:7]
\tglobal_load_dwordx4 v[8:11], v[12:13], off
\tglobal_load_dwordx4 v[20:23], v[12:13], off offset:16
\tv_mfma_f32_16x16x32_bf16 v[2:5], v[8:11], v[20:23], v[2:5]
\tglobal_store_dwordx4 v[12:13], v[2:5], off
\ts_endpgm
"""


def test_a_read_of_c_masked_at_its_edge_starts_the_chain_once():
    """A zero reaching an MFMA only past a block skipped by ``s_cbranch_execz`` that loads
    the register is the padding of a masked read (the lanes the read leaves off keep it),
    not a second start: no finding (before, ``acc-init``: refused at a kernel exact on the
    emulator, the twelfth sweep).  The same load skipped by a uniform branch
    (``s_cbranch_scc1``: every lane of the wave starts from the zero) is still refused
    where the front end does not say that the input starts its accumulators from masked
    reads (:func:`test_a_uniform_branch_around_a_read_of_c_is_the_inputs_own_start`)."""
    found, notes = _rule(MASKED)
    assert found == [] and "which element of C" in notes[0], (found, notes)
    uniform = MASKED.replace("\ts_cbranch_execz .LBB0_2", "\ts_cmp_eq_u32 s0, 0\n"
                             "\ts_cbranch_scc1 .LBB0_2")
    found, _ = _rule(uniform)
    assert [f.kind for f in found] == ["acc-init"] and "by a zero on another" in \
        found[0].message, found


def test_elements_past_cs_edge_start_from_zero_beside_read_ones():
    """IREE's f16 ``C += A x B^T`` + bias 47x103x72 (3 stages, 32x32x8 MFMAs), late form:
    the elements of a lane's C tile past C's last row are a constant zero, which LLVM
    folds (``v_mov_b32 v44, 0`` copied into them, no load at all), the others read under
    a mask: one accumulator, its elements started from different values, each from one
    (before, ``acc-init`` refused the chain: sweep 29, seed 4).  One element started from
    a zero on one path and a load on another is still refused."""
    mixed = MASKED.replace("\tv_mov_b32_e32 v5, 0\n", "").replace(
        "\tbuffer_load_dwordx4 v[2:5], v6, s[12:15], 0 offen\n",
        "\tbuffer_load_dwordx3 v[2:4], v6, s[12:15], 0 offen\n").replace(
        ".LBB0_2:\n\ts_or_b64 exec, exec, s[6:7]\n",
        ".LBB0_2:\n\ts_or_b64 exec, exec, s[6:7]\n\tv_mov_b32_e32 v5, 0\n")
    assert mixed.count("v_mov_b32_e32 v5, 0") == 1
    found, notes = _rule(mixed)
    assert found == [] and "which element of C" in notes[0], (found, notes)
    both = mixed.replace("\tv_mov_b32_e32 v5, 0\n",
                         "\tv_mov_b32_e32 v5, 0\n\ts_cmp_eq_u32 s0, 0\n"
                         "\ts_cbranch_scc1 .LBB0_4\n"
                         "\tbuffer_load_dword v5, v6, s[12:15], 0 offen\n.LBB0_4:\n")
    found, _ = _rule(both)
    assert [f.kind for f in found] == ["acc-init"] and "by a zero on another" in \
        found[0].message, found


#: the same read with LLVM's other layout (IREE's bf16 ``C += A x B^T`` + bias of M
#: 256x192x512 at its prefetch point): the load's block placed out of line, reached by
#: ``s_cbranch_execnz``, the zero going on by falling through with no lane on
_LOAD = "\tbuffer_load_dwordx4 v[2:5], v6, s[12:15], 0 offen\n"
MASKED_OUT_OF_LINE = MASKED.replace(f"\ts_cbranch_execz .LBB0_2\n; %bb.1:\n{_LOAD}",
                                    "\ts_cbranch_execnz .LBB0_3\n") + \
    f".LBB0_3:\n{_LOAD}\ts_branch .LBB0_2\n"
assert MASKED_OUT_OF_LINE.count(_LOAD) == 1 and "execz" not in MASKED_OUT_OF_LINE


@pytest.mark.parametrize("branch, refused", [
    ("\ts_cbranch_execnz .LBB0_3", False),
    # the fall-through of a uniform branch: every lane of the wave starts from the zero
    ("\ts_cmp_eq_u32 s0, 0\n\ts_cbranch_scc1 .LBB0_3", True),
    # a branch on exec to the join itself: the zero goes on with lanes on
    ("\ts_cbranch_execnz .LBB0_2\n\ts_branch .LBB0_3", True),
])
def test_a_masked_read_placed_out_of_line_starts_the_chain_once(branch, refused):
    """The fall-through of ``s_cbranch_execnz`` to the load's block placed out of line is
    taken with no lane on, as ``s_cbranch_execz``'s branch: the zero it carries on is the
    masked read's padding (no finding; before, ``acc-init``: refused at a kernel exact on
    the emulator, the thirteenth sweep).  A uniform branch's fall-through, or an exec
    branch whose taken edge carries the zero, is still refused."""
    found, notes = _rule(MASKED_OUT_OF_LINE.replace("\ts_cbranch_execnz .LBB0_3", branch))
    if refused:
        assert [f.kind for f in found] == ["acc-init"] and "by a zero on another" in \
            found[0].message, found
    else:
        assert found == [] and "which element of C" in notes[0], (found, notes)


#: LLVM's branch around the read of C on a condition it holds uniform in the wave (IREE's
#: f16 ``C += A x B^T`` + bias + relu 184x246x648, 3 stages, finding 112): in line, over
#: the load's block on ``scc``; out of line, to the load's block on ``vcc``, the zero going
#: on by falling through
UNIFORM = MASKED.replace("\tv_cmp_gt_i32_e32 vcc, 300, v16\n\ts_and_saveexec_b64 s[6:7], vcc\n"
                         "\ts_cbranch_execz .LBB0_2",
                         "\tv_cmp_lt_i32_e32 vcc, 299, v16\n\ts_and_b64 s[6:7], vcc, exec\n"
                         "\ts_cbranch_scc1 .LBB0_2").replace(
    "\ts_or_b64 exec, exec, s[6:7]\n", "")
UNIFORM_OUT_OF_LINE = MASKED_OUT_OF_LINE.replace(
    "\ts_and_saveexec_b64 s[6:7], vcc\n\ts_cbranch_execnz .LBB0_3",
    "\ts_and_b64 vcc, exec, vcc\n\ts_cbranch_vccnz .LBB0_3").replace(
    "\ts_or_b64 exec, exec, s[6:7]\n", "")
assert "exec, exec" not in UNIFORM + UNIFORM_OUT_OF_LINE and \
    "scc1" in UNIFORM and "vccnz" in UNIFORM_OUT_OF_LINE


@pytest.mark.parametrize("text, word, refused", [
    (UNIFORM, True, False),
    (UNIFORM_OUT_OF_LINE, True, False),
    # the front end's word not given (no masked read in the input): a lowering's start
    (UNIFORM, False, True),
    (UNIFORM_OUT_OF_LINE, False, True),
    # the skipped block reads LDS, not C
    (UNIFORM.replace("\tbuffer_load_dwordx4 v[2:5], v6, s[12:15], 0 offen",
                     "\tds_read_b128 v[2:5], v6"), True, True),
    # the zero-trip path starts from a load, the loop's from a zero (both branches on scc)
    (LOOP.replace("\tv_mov_b32_e32 v8, 0\n", "\tglobal_load_dword v8, v[12:13], off\n"),
     True, True),
], ids=["in-line", "out-of-line", "in-line-no-word", "out-of-line-no-word", "lds", "zero-trip"])
def test_a_uniform_branch_around_a_read_of_c_is_the_inputs_own_start(text, word, refused):
    """Where the front end says that the input starts every accumulator from masked reads
    whose else value is a zero (``masked_starts``, ``lowering/acc_starts.py``), a zero
    reaching the MFMA only past a block that loads the register from global memory,
    skipped by a branch on ``scc`` or ``vcc`` (in line or out of line), is the input's own
    start: no finding, a note (before, ``acc-init`` at both forms of a kernel exact on the
    emulator).  Without the word it is refused (a rule taking every uniform skip fails
    here); with it, a skipped block reading LDS, or a zero on a path past no such
    block, is still refused."""
    found, notes = _rule(text, word)
    if refused:
        assert [f.kind for f in found] == ["acc-init"] and "by a zero on another" in \
            found[0].message, found
    else:
        assert found == [] and any("past a branch on a condition uniform in the wave" in n
                                   for n in notes), (found, notes)


def _zero_copies(fn) -> dict:
    """Per block of ``fn`` (its number), the lines of its copies of a zero into an AGPR
    (``v_accvgpr_write_b32 aN, 0`` or an ``aN, aM`` copy of one)."""
    out: dict = {}
    for k, b in enumerate(fn.blocks):
        zero: set = set()
        for i in b.instrs:
            m = re.fullmatch(r"v_accvgpr_(write|mov)_b32", i.mnemonic)
            if m and len(i.operands) == 2 and (i.operands[1] == "0" or i.operands[1] in zero):
                zero.add(i.operands[0])
                out.setdefault(k, []).append(i.line)
    return out


def test_the_reviewers_swapped_zero_copies_are_refused():
    """The 4-wave FP8 256x256 kernel zeroes its accumulators in two blocks (the loop's path
    and the zero-trip path): each pair of zero copies of the two given each other's
    destination (the reviewer's mutants; 4 pairs spread over both blocks) is refused with
    ``acc-init`` by the gate; the kernel as built has no finding and no note."""
    built = build("4wave-fp8-256")
    fn = parse_asm(built.asm).function()
    assert _rule(built.asm) == ([], [])
    copies = sorted(_zero_copies(fn).values(), key=len)[-2:]
    assert all(len(c) >= 64 for c in copies), copies
    lines = built.asm.split("\n")
    pairs = [(copies[0][j], copies[1][-1 - j]) for j in range(0, 64, 16)]
    for n, (x, y) in enumerate(pairs):
        text = list(lines)
        (mx, dx, sx), (my, dy, sy) = (re.fullmatch(r"\s*(\S+) (a\d+), (\S+)", lines[z - 1])
                                      .groups() for z in (x, y))
        if dx == dy:
            continue
        text[x - 1], text[y - 1] = f"\t{mx} {dy}, {sx}", f"\t{my} {dx}, {sy}"
        other = parse_asm("\n".join(text)).function()
        if n == 0:      # through the gate: refused there
            found = errors(pipelined_check(other, built.plan, "", built.ll).findings)
        else:
            found = acc_init_findings(other, mfma_chains(other))[0]
        assert any(f.kind == "acc-init" for f in found), (x, y, found)


#: LLVM's code of an accumulator kept in AGPRs and spilled (IREE's f16 ``A x B^T``
#: 256x512x512 in a 128x256 tile of 2x1 waves, the accumulators in AGPRs: seventeenth
#: sweep, campaign 72 [2]): each MFMA reads its accumulator from one AGPR range and writes
#: another; the result of chain X's first MFMA is spilled, three registers to a scratch
#: slot and the fourth to a VGPR (LLVM's ``Reload Reuse``), chain Z's whole to another
#: slot; both reloaded into other AGPRs, where each chain goes on
SPILLED = """
\tglobal_load_dwordx4 v[0:3], v[12:13], off
\tglobal_load_dwordx4 v[4:7], v[12:13], off offset:16
\tv_accvgpr_write_b32 a4, 0
\tv_accvgpr_mov_b32 a5, a4
\tv_accvgpr_mov_b32 a6, a4
\tv_accvgpr_mov_b32 a7, a4
\tv_accvgpr_mov_b32 a8, a4
\tv_accvgpr_mov_b32 a9, a4
\tv_accvgpr_mov_b32 a10, a4
\tv_accvgpr_mov_b32 a11, a4
\tv_mfma_f32_16x16x32_f16 a[0:3], v[0:3], v[4:7], a[4:7]
\tv_mfma_f32_16x16x32_f16 a[16:19], v[0:3], v[4:7], a[8:11]
\ts_nop 5
\tv_accvgpr_read_b32 v20, a3             ;  Reload Reuse
\tscratch_store_dwordx3 off, a[0:2], off ; 12-byte Folded Spill
\tscratch_store_dwordx4 off, a[16:19], off offset:16 ; 16-byte Folded Spill
\tv_accvgpr_write_b32 a0, 0
\tv_accvgpr_write_b32 a16, 0
\tv_accvgpr_write_b32 a15, v20           ;  Reload Reuse
\tscratch_load_dwordx3 a[12:14], off, off ; 12-byte Folded Reload
\tscratch_load_dwordx4 a[20:23], off, off offset:16 ; 16-byte Folded Reload
\ts_waitcnt vmcnt(0)
\tv_mfma_f32_16x16x32_f16 a[24:27], v[0:3], v[4:7], a[12:15]
\tv_mfma_f32_16x16x32_f16 a[28:31], v[0:3], v[4:7], a[20:23]
\ts_nop 7
\tglobal_store_dwordx4 v[10:11], a[24:27], off
\tglobal_store_dwordx4 v[10:11], a[28:31], off offset:16
\ts_endpgm
"""


@pytest.mark.parametrize("edits", [
    None,
    # the whole result spilled to one slot (the build without the mutation)
    ((("\tv_accvgpr_read_b32 v20, a3             ;  Reload Reuse\n"
       "\tscratch_store_dwordx3 off, a[0:2], off ; 12-byte Folded Spill\n"),
      "\tscratch_store_dwordx4 off, a[0:3], off ; 16-byte Folded Spill\n"),
     ("\tv_accvgpr_write_b32 a15, v20           ;  Reload Reuse\n"
      "\tscratch_load_dwordx3 a[12:14], off, off ; 12-byte Folded Reload\n",
      "\tscratch_load_dwordx4 a[12:15], off, off ; 16-byte Folded Reload\n")),
    # spilled in a block of its own, reloaded past a join (both paths through the store)
    (("\ts_nop 5\n", "\ts_nop 5\n\ts_cmp_eq_u32 s0, 0\n\ts_cbranch_scc1 .LBB0_2\n; %bb.1:\n"
                     "\ts_nop 0\n.LBB0_2:\n"),),
    # the reloads across a join, one path through a store to another slot
    (("\tv_accvgpr_write_b32 a0, 0\n", "\ts_cmp_eq_u32 s0, 0\n\ts_cbranch_scc1 .LBB0_2\n"
                                      "; %bb.1:\n\tscratch_store_dword off, v31, off "
                                      "offset:64\n.LBB0_2:\n"),),
])
def test_an_accumulator_spilled_and_reloaded_into_other_agprs_goes_on(edits):
    """A chain that reads, whole and in order, the result of an MFMA whose chain the chains
    do not follow (its result spilled to scratch, and to a VGPR) goes on from it: no
    finding (before: refused with ``acc-init`` at a build exact on the emulator, ``a15
    holds the result of ... an MFMA of another accumulator chain``), its start noted as
    not followed, as the spilled chain's."""
    text = SPILLED
    for old, new in edits or ():
        assert old in text
        text = text.replace(old, new)
    found, notes = _rule(text)
    assert found == [], found
    assert notes == ["the start of 2 accumulator chain(s) not followed (their chains are "
                     "not)", "2 accumulator chain(s) go on from the whole result of an MFMA "
                     "of such a chain (spilled, reloaded into other registers): their start "
                     "that chain's, not followed"], notes


@pytest.mark.parametrize("old, new, why", [
    # the VGPR copy of the fourth register taken from chain Z's result
    ("\tv_accvgpr_read_b32 v20, a3 ", "\tv_accvgpr_read_b32 v20, a19 ",
     "a12 holds the result of v_mfma_f32_16x16x32_f16 (line 12)"),
    # the two chains' reloads swapped: X's go-on reads three registers of Z's slot
    ("\tscratch_load_dwordx3 a[12:14], off, off ;", "\tscratch_load_dwordx3 a[12:14], off, "
                                                    "off offset:16 ;",
     "holds the result of v_mfma_f32_16x16x32_f16 (line 13)"),
    # X's registers reloaded out of order (its first register into the fourth)
    ("\tv_accvgpr_read_b32 v20, a3 ", "\tv_accvgpr_read_b32 v20, a0 ",
     "a12 holds the result of v_mfma_f32_16x16x32_f16 (line 12)"),
    # X's slot overwritten by Z's result before the reload
    ("\tv_accvgpr_write_b32 a0, 0\n", "\tscratch_store_dwordx4 off, a[16:19], off\n",
     "holds the result of v_mfma_f32_16x16x32_f16 (line 13)"),
    # a store to scratch at an address in a register between: the slot not followed
    ("\tv_accvgpr_write_b32 a0, 0\n", "\tscratch_store_dword v30, v31, off\n",
     "a15 holds the result of v_mfma_f32_16x16x32_f16 (line 12)"),
])
def test_a_reload_of_another_chains_spilled_result_is_refused(old, new, why):
    """A chain reading after a spill what is not one MFMA's whole result in order (part of
    another chain's, a slot another chain stored, the registers swapped, a slot a store
    at an unknown address may have written) is still refused: each register of the
    accumulator goes on from the one register of the same place."""
    text = SPILLED.replace(old, new)
    assert text != SPILLED
    found, _ = _rule(text)
    assert [f.kind for f in found] == ["acc-init"] and why in found[0].message and \
        "another accumulator chain" in found[0].message, found
