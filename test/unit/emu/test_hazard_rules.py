"""The wait-state table, row by row: each rule on one instruction pair, caught with one wait
state too few and silent with exactly the required count; and each count equal to what
LLVM 22's hazard recognizer inserts for the same pair (when ``llc-22`` is installed)."""

from __future__ import annotations

import dataclasses

import pytest

from emu_helpers import run_snippet, snippet_kernel
from llvm_hazards import LLC, missing_wait_states, pair_mir
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.hazards import RULES, WaitStates, effects_of, info_of, infos
from pipeline_mlir.target.gfx950 import MFMA_PASSES
from pipeline_mlir.emu.instr import _MFMA_REGS
from pipeline_mlir.emu.program import compile_instr

MF16 = "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[12:15]"
MF16_MIR = ("$vgpr0_vgpr1_vgpr2_vgpr3 = V_MFMA_F32_16X16X32_BF16_vgprcd_e64 "
            "$vgpr4_vgpr5_vgpr6_vgpr7, $vgpr8_vgpr9_vgpr10_vgpr11, "
            "$vgpr12_vgpr13_vgpr14_vgpr15, 0, 0, 0, implicit $mode, implicit $exec")
MF8 = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[16:23], v[24:31], v[12:15]"
MF8_MIR = ("$vgpr0_vgpr1_vgpr2_vgpr3 = V_MFMA_F32_16X16X128_F8F6F4_f8_f8_vgprcd_e64 "
           "$vgpr16_vgpr17_vgpr18_vgpr19_vgpr20_vgpr21_vgpr22_vgpr23, "
           "$vgpr24_vgpr25_vgpr26_vgpr27_vgpr28_vgpr29_vgpr30_vgpr31, "
           "$vgpr12_vgpr13_vgpr14_vgpr15, 0, 0, implicit $mode, implicit $exec")

#: a 2-pass XDL MFMA (gfx950's 4x4x4 16-block ones): its readers need passes + 3, not + 4
MF4 = "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[8:9], v[12:15]"
MF4_MIR = ("$vgpr0_vgpr1_vgpr2_vgpr3 = V_MFMA_F32_4X4X4F16_vgprcd_e64 $vgpr4_vgpr5, "
           "$vgpr8_vgpr9, $vgpr12_vgpr13_vgpr14_vgpr15, 0, 0, 0, implicit $mode, implicit $exec")
#: a 2-pass MFMA not on the XDL unit reading v[2:5] as C (overlapping v[0:3], not identical)
F32_C2 = ("v_mfma_f32_4x4x1_16b_f32 v[40:43], v50, v51, v[2:5]",
          "$vgpr40_vgpr41_vgpr42_vgpr43 = V_MFMA_F32_4X4X1F32_vgprcd_e64 $vgpr50, $vgpr51, "
          "$vgpr2_vgpr3_vgpr4_vgpr5, 0, 0, 0, implicit $mode, implicit $exec")


def _mf16(d, a, c):
    def r(first):
        return "$" + "_".join(f"vgpr{i}" for i in range(first, first + 4))
    asm = f"v_mfma_f32_16x16x32_bf16 v[{d}:{d + 3}], v[{a}:{a + 3}], v[8:11], v[{c}:{c + 3}]"
    mir = (f"{r(d)} = V_MFMA_F32_16X16X32_BF16_vgprcd_e64 {r(a)}, "
           f"$vgpr8_vgpr9_vgpr10_vgpr11, {r(c)}, 0, 0, 0, implicit $mode, implicit $exec")
    return asm, mir


VCMPX_EXEC = ("v_cmp_eq_u32_e64 exec, v60, v61",
              "$exec = V_CMP_EQ_U32_e64 $vgpr60, $vgpr61, implicit $exec")
RFL_S20 = ("v_readfirstlane_b32 s20, v60",
           "$sgpr20 = V_READFIRSTLANE_B32 $vgpr60, implicit $exec")
SETREG_MODE = "s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s0"
#: rule -> (first (asm, MIR), second (asm, MIR), required wait states)
CASES = [
    ("valu-sgpr-vmem", RFL_S20,
     ("buffer_load_dword v1, v60, s[0:3], s20 offen",
      "$vgpr1 = BUFFER_LOAD_DWORD_OFFEN $vgpr60, $sgpr0_sgpr1_sgpr2_sgpr3, $sgpr20, 0, 0, 0, "
      "implicit $exec"), 5),
    ("valu-sgpr-vmem", VCMPX_EXEC,
     ("buffer_load_dword v1, v62, s[0:3], 0 offen",
      "$vgpr1 = BUFFER_LOAD_DWORD_OFFEN $vgpr62, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, "
      "implicit $exec"), 5),
    ("valu-sgpr-valu", ("v_cmp_gt_u32_e32 vcc, v60, v61",
                        "$vcc = V_CMP_GT_U32_e64 $vgpr60, $vgpr61, implicit $exec"),
     ("v_cndmask_b32_e32 v62, v60, v61, vcc",
      "$vgpr62 = V_CNDMASK_B32_e32 $vgpr60, $vgpr61, implicit $vcc, implicit $exec"), 2),
    ("valu-sgpr-valu", RFL_S20,
     ("v_add_u32_e64 v62, s20, v61",
      "$vgpr62 = V_ADD_U32_e64 $sgpr20, $vgpr61, 0, implicit $exec"), 2),
    ("valu-sgpr-lane-select", RFL_S20,
     ("v_readlane_b32 s21, v61, s20",
      "$sgpr21 = V_READLANE_B32 $vgpr61, $sgpr20, implicit $exec"), 4),
    ("valu-exec-lane", VCMPX_EXEC,
     ("v_readfirstlane_b32 s21, v61", "$sgpr21 = V_READFIRSTLANE_B32 $vgpr61, implicit $exec"),
     4),
    ("valu-vgpr-readlane", ("v_mov_b32_e32 v61, v60",
                            "$vgpr61 = V_MOV_B32_e32 $vgpr60, implicit $exec"),
     ("v_readfirstlane_b32 s21, v61", "$sgpr21 = V_READFIRSTLANE_B32 $vgpr61, implicit $exec"),
     1),
    ("salu-m0", ("s_mov_b32 m0, s20", "$m0 = S_MOV_B32 $sgpr20"),
     ("buffer_load_dwordx4 v137, s[16:19], 0 offen lds",
      "BUFFER_LOAD_DWORDX4_LDS_OFFEN $vgpr137, $sgpr16_sgpr17_sgpr18_sgpr19, 0, 0, 0, 0, "
      "implicit $exec, implicit $m0"), 1),
    ("trans", ("v_rcp_f32_e32 v61, v60",
               "$vgpr61 = V_RCP_F32_e32 $vgpr60, implicit $mode, implicit $exec"),
     ("v_mov_b32_e32 v62, v61", "$vgpr62 = V_MOV_B32_e32 $vgpr61, implicit $exec"), 1),
    ("dst-sel", ("v_mov_b32_sdwa v61, v60 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                 "src0_sel:DWORD",
                 "$vgpr61 = V_MOV_B32_sdwa 0, $vgpr60, 0, 5, 2, 6, implicit $exec, "
                 "implicit $vgpr61(tied-def 0)"),
     ("v_mov_b32_e32 v62, v61", "$vgpr62 = V_MOV_B32_e32 $vgpr61, implicit $exec"), 1),
    ("store-data", ("buffer_store_dwordx4 v[0:3], v60, s[0:3], 0 offen",
                    "BUFFER_STORE_DWORDX4_OFFEN $vgpr0_vgpr1_vgpr2_vgpr3, $vgpr60, "
                    "$sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, implicit $exec"),
     ("v_mov_b32_e32 v1, v60", "$vgpr1 = V_MOV_B32_e32 $vgpr60, implicit $exec"), 2),
    ("valu-exec-mfma", VCMPX_EXEC, (MF16, MF16_MIR), 4),
    ("valu-vgpr-mfma", ("v_mov_b32_e32 v5, v60", "$vgpr5 = V_MOV_B32_e32 $vgpr60, implicit $exec"),
     (MF16, MF16_MIR), 2),
    ("valu-vgpr-mfma", ("v_mov_b32_e32 v13, v60",
                        "$vgpr13 = V_MOV_B32_e32 $vgpr60, implicit $exec"), (MF16, MF16_MIR), 2),
    ("mfma-d-srcc", _mf16(0, 4, 12), _mf16(32, 4, 2), 6),
    ("mfma-d-srcc", (MF8, MF8_MIR), _mf16(32, 4, 2), 10),
    ("mfma-d-srcab", _mf16(0, 4, 12), _mf16(32, 0, 12), 8),
    ("mfma-d-srcab", (MF8, MF8_MIR), _mf16(32, 0, 12), 12),
    ("mfma-d-valu", (MF16, MF16_MIR),
     ("v_mov_b32_e32 v60, v1", "$vgpr60 = V_MOV_B32_e32 $vgpr1, implicit $exec"), 8),
    ("mfma-d-valu", (MF8, MF8_MIR),
     ("v_mov_b32_e32 v1, v60", "$vgpr1 = V_MOV_B32_e32 $vgpr60, implicit $exec"), 12),
    ("mfma-d-mem", (MF16, MF16_MIR),
     ("ds_read_b128 v[60:63], v1", "$vgpr60_vgpr61_vgpr62_vgpr63 = DS_READ_B128_gfx9 $vgpr1, "
      "0, 0, implicit $exec"), 8),
    ("mfma-d-mem", (MF8, MF8_MIR),
     ("ds_read_b128 v[0:3], v60", "$vgpr0_vgpr1_vgpr2_vgpr3 = DS_READ_B128_gfx9 $vgpr60, "
      "0, 0, implicit $exec"), 12),
    # the 2-pass XDL MFMA: one wait state less before a VALU, a DS read, another MFMA's A/B
    # (5) and, for a reader not on the XDL unit, an overlapping C (3; an XDL reader: 4)
    ("mfma-d-valu", (MF4, MF4_MIR),
     ("v_mov_b32_e32 v60, v1", "$vgpr60 = V_MOV_B32_e32 $vgpr1, implicit $exec"), 5),
    ("mfma-d-mem", (MF4, MF4_MIR),
     ("ds_read_b128 v[0:3], v60", "$vgpr0_vgpr1_vgpr2_vgpr3 = DS_READ_B128_gfx9 $vgpr60, "
      "0, 0, implicit $exec"), 5),
    ("mfma-d-srcab", (MF4, MF4_MIR), _mf16(32, 0, 12), 5),
    ("mfma-d-srcc", (MF4, MF4_MIR), _mf16(32, 4, 2), 4),
    ("mfma-d-srcc", (MF4, MF4_MIR), F32_C2, 3),
    ("mfma-d-srcc", (MF16, MF16_MIR), F32_C2, 6),
    ("mfma-srcc-war", (MF4, MF4_MIR),
     ("v_mov_b32_e32 v13, v60", "$vgpr13 = V_MOV_B32_e32 $vgpr60, implicit $exec"), 1),
    ("mfma-srcc-war", (MF16, MF16_MIR),
     ("ds_read_b128 v[12:15], v60", "$vgpr12_vgpr13_vgpr14_vgpr15 = DS_READ_B128_gfx9 "
      "$vgpr60, 0, 0, implicit $exec"), 3),
    ("mfma-srcc-war", (MF8, MF8_MIR),
     ("v_mov_b32_e32 v13, v60", "$vgpr13 = V_MOV_B32_e32 $vgpr60, implicit $exec"), 7),
    # the two rows whose second instruction the machine does not run: the rules read their
    # registers from the assembly (emu/hazards.effects_of)
    ("valu-vcc-div-fmas", ("v_cmp_gt_u32_e32 vcc, v60, v61",
                           "$vcc = V_CMP_GT_U32_e64 $vgpr60, $vgpr61, implicit $exec"),
     ("v_div_fmas_f32 v0, v1, v2, v3",
      "$vgpr0 = V_DIV_FMAS_F32_e64 0, $vgpr1, 0, $vgpr2, 0, $vgpr3, 0, 0, implicit $mode, "
      "implicit $vcc, implicit $exec"), 4),
    ("setreg", (SETREG_MODE, "S_SETREG_B32 $sgpr0, 2305, implicit-def $mode, implicit $mode"),
     ("s_getreg_b32 s1, hwreg(HW_REG_MODE, 4, 2)", "$sgpr1 = S_GETREG_B32 2305, implicit $mode"),
     2),
    # (rows added later, after those other tests index: test_hazard_paths.py's CASES[2])
    # a cache write-back reads EXEC (LLVM gives BUFFER_WBL2 an implicit $exec)
    ("valu-sgpr-vmem", VCMPX_EXEC, ("buffer_wbl2 sc0 sc1", "BUFFER_WBL2 3, implicit $exec"), 5),
    # an atomic's 128 bits of data (a compare-swap's source and compare value) as a store's
    ("store-data", ("buffer_atomic_cmpswap_x2 v[0:3], v60, s[0:3], 0 offen",
                    "BUFFER_ATOMIC_CMPSWAP_X2_OFFEN $vgpr0_vgpr1_vgpr2_vgpr3, $vgpr60, "
                    "$sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, implicit $exec"),
     ("v_mov_b32_e32 v1, v60", "$vgpr1 = V_MOV_B32_e32 $vgpr60, implicit $exec"), 2),
]
#: pairs no rule covers (0 wait states needed): the negatives of the table
SAFE = [
    ((MF16, MF16_MIR), _mf16(32, 4, 0)),            # C identical to the D before it
    ((MF16, MF16_MIR), ("v_mov_b32_e32 v5, v60",    # MFMA read A, then a VALU writes it
                        "$vgpr5 = V_MOV_B32_e32 $vgpr60, implicit $exec")),
    (("s_mov_b32 m0, s20", "$m0 = S_MOV_B32 $sgpr20"),
     ("ds_read_b128 v[60:63], v1", "$vgpr60_vgpr61_vgpr62_vgpr63 = DS_READ_B128_gfx9 $vgpr1, "
      "0, 0, implicit $exec")),
    (("v_mov_b32_e32 v61, v60", "$vgpr61 = V_MOV_B32_e32 $vgpr60, implicit $exec"),
     ("v_add_u32_e32 v62, v61, v61", "$vgpr62 = V_ADD_U32_e32 $vgpr61, $vgpr61, "
      "implicit $exec")),
    (("s_mov_b64 exec, -1", "$exec = S_MOV_B64 -1"), (MF16, MF16_MIR)),
    # a 32-bit compare-swap's 64 bits of data are no store-data hazard
    (("buffer_atomic_cmpswap v[0:1], v60, s[0:3], 0 offen",
      "BUFFER_ATOMIC_CMPSWAP_OFFEN $vgpr0_vgpr1, $vgpr60, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, "
      "implicit $exec"),
     ("v_mov_b32_e32 v1, v60", "$vgpr1 = V_MOV_B32_e32 $vgpr60, implicit $exec")),
]


def _nops(n: int) -> list[str]:
    """``n`` wait states of s_nop (one s_nop gives 1..16)."""
    return [f"s_nop {min(n - k, 16) - 1}" for k in range(0, n, 16)]


def violations(lines: list[str]) -> list:
    """The wait-state violations of a straight-line sequence of instructions (one the
    machine does not run, ``v_div_fmas`` or ``s_setreg``/``s_getreg``, by the registers
    its assembly names: :func:`~pipeline_mlir.emu.hazards.effects_of`)."""
    kernel = snippet_kernel("\n".join(lines + ["s_endpgm"]))
    steps = [effects_of(ins) or compile_instr(ins, {}) for ins in kernel.instrs]
    ws = WaitStates()
    return [v for v in (ws.step(info_of(st)) for st in steps) if v is not None]


def _ids(cases):
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


@pytest.mark.parametrize("rule,first,second,need", CASES, ids=_ids(CASES))
def test_one_wait_state_too_few_is_caught(rule, first, second, need):
    found = violations([first[0]] + _nops(need - 1) + [second[0]])
    assert [(v.rule.name, v.required, v.present) for v in found] == [(rule, need, need - 1)]


@pytest.mark.parametrize("rule,first,second,need", CASES, ids=_ids(CASES))
def test_the_required_wait_states_are_enough(rule, first, second, need):
    assert violations([first[0]] + _nops(need) + [second[0]]) == []
    # independent instructions count as wait states like s_nop
    assert violations([first[0]] + ["s_mov_b32 s90, 0"] * need + [second[0]]) == []


@pytest.mark.parametrize("first,second", SAFE)
def test_pairs_no_rule_covers_need_nothing(first, second):
    assert violations([first[0], second[0]]) == []


def test_every_rule_has_a_case():
    assert {c[0] for c in CASES} == set(RULES)


def test_setreg_is_per_hardware_register():
    """``setreg`` holds for an ``s_setreg`` after one of the same register too, and not for
    another register (HW_REG_STATUS after HW_REG_MODE); the field of ``hwreg(...)`` is
    LLVM's (llvm-mc-22: ``hwreg(HW_REG_MODE, 4, 2)`` is 0x0901)."""
    assert [v.rule.name for v in violations([SETREG_MODE, "s_setreg_b32 hwreg(1, 0, 1), s2"])] \
        == ["setreg"]
    assert violations([SETREG_MODE, "s_getreg_b32 s1, hwreg(HW_REG_STATUS)"]) == []
    assert snippet_kernel(SETREG_MODE + "\ns_endpgm").instrs[0].f["imm"] == 0x0901


def test_every_mfma_the_emulator_runs_has_a_pass_count():
    assert set(_MFMA_REGS) <= set(MFMA_PASSES)


def test_an_mfma_without_a_pass_count_is_refused_by_name():
    kernel = snippet_kernel(MF16 + "\ns_endpgm")
    first, *rest = kernel.steps()      # kept for the next kernel of these instructions:
    # the unknown MFMA is a copy of the step, so the kept one stays as compiled
    steps = [dataclasses.replace(first, ins=dataclasses.replace(first.ins,
                                                                name="v_mfma_f32_unknown")),
             *rest]
    with pytest.raises(EmuError, match="no wait-state entry for v_mfma_f32_unknown"):
        infos(steps)


def test_the_machine_reports_a_violation_as_a_finding():
    prog = "s_mov_b32 m0, 0\n{nop}\nbuffer_load_dwordx4 v1, s[0:3], 0 offen lds\ns_endpgm"
    with pytest.raises(Finding, match=r"wait-states: .*m0: 0 wait states after 0x0000 "
                                      r"'s_mov_b32 m0, 0', 1 required \(salu-m0"):
        run_snippet(prog.format(nop=""), setup=_descriptor)
    run_snippet(prog.format(nop="s_nop 0"), setup=_descriptor)


def _descriptor(m):
    base = m.glob.add("X", bytes(1024))
    w = m.waves[0]
    w.S[0], w.S[1], w.S[2], w.S[3] = base & 0xFFFFFFFF, base >> 32, 1024, 0x27000
    w.V[1] = 0


def test_other_waves_instructions_do_not_count():
    """Each wave has its own clock: instructions of another wave between the two of a pair
    are no wait states of the first wave (in the machine: waves interleaved at random)."""
    steps = infos(snippet_kernel("s_mov_b32 m0, 0\ns_mov_b32 s5, 0\n"
                                 "buffer_load_dwordx4 v1, s[0:3], 0 offen lds").steps())
    w0, w1 = WaitStates(), WaitStates()
    assert w0.step(steps[0]) is None and w1.step(steps[1]) is None
    assert w0.step(steps[2]).rule.name == "salu-m0"
    prog = "s_mov_b32 m0, 0\nbuffer_load_dwordx4 v1, s[0:3], 0 offen lds\ns_endpgm"
    for seed in range(4):
        with pytest.raises(Finding, match="salu-m0"):
            run_snippet(prog, waves=2, mode="random", seed=seed, setup=_two_descriptors)


def _two_descriptors(m):
    base = m.glob.add("X", bytes(1024))
    for w in m.waves:
        w.S[0], w.S[1], w.S[2], w.S[3] = base & 0xFFFFFFFF, base >> 32, 1024, 0x27000
        w.V[1] = 0


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("rule,first,second,need", CASES, ids=_ids(CASES))
def test_llvm_inserts_the_same_count(rule, first, second, need):
    """One ``llc-22`` run for both gaps: the pair back to back, then (after 32 wait states,
    more than any rule needs) the pair ``need`` wait states apart; LLVM must add ``need``
    in all (a count of ``need`` - 1 adds one less, ``need`` + 1 at least one more)."""
    both = [first[1], second[1], "S_NOP 15", "S_NOP 15", first[1], f"S_NOP {need - 1}",
            second[1]]
    assert missing_wait_states(pair_mir(both)) == need


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
def test_llvm_inserts_nothing_for_the_safe_pairs():
    """All the pairs in one ``llc-22`` run, 32 wait states apart: LLVM adds nothing in all,
    so nothing for each."""
    body = [ln for first, second in SAFE for ln in (first[1], second[1], "S_NOP 15", "S_NOP 15")]
    assert missing_wait_states(pair_mir(body)) == 0
