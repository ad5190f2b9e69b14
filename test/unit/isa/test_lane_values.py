"""The lane values of the ISA check's LDS rule (``pipeline_mlir/isa/lane_values.py``): the
instructions it evaluates give, on every thread, the value the emulator's semantics give
(``pipeline_mlir/emu/valu_lanes.py``, an independent implementation), and an address
computed with them is known (a read of another wave's bytes through them is a race).

IREE's i8 ``A x B^T`` late form in 4x2 waves of 64x128 (finding 36 of
``docs/iree-audits.md``) computes its B reads' LDS addresses with 16-bit adds and
shifts, ``v_bfe_i32`` and ``v_alignbit_b32``; none was evaluated, so 6 of every 8 B reads
had no known address, and the fragment-read rule placed a buffer on a tied vote, 6 KiB
short: a false ``lds-misread`` (``test_isa_gate.py`` builds that kernel)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.emu.valu_lanes import VOP2, VOP3_3
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.lane_values import evaluate

#: the instructions added for those addresses: mnemonic as written -> the emulator's
#: function of the same sources
ADDED = {
    "v_add_u16_e32": VOP2["v_add_u16"], "v_sub_u16_e32": VOP2["v_sub_u16"],
    "v_subrev_u16_e32": VOP2["v_subrev_u16"], "v_lshlrev_b16_e32": VOP2["v_lshlrev_b16"],
    "v_mul_lo_u16_e32": VOP2["v_mul_lo_u16"],
    "v_lshrrev_b16_e32": VOP2["v_lshrrev_b16"], "v_ashrrev_i16_e32": VOP2["v_ashrrev_i16"],
    "v_ashrrev_i32_e32": VOP2["v_ashrrev_i32"], "v_bfe_i32": VOP3_3["v_bfe_i32"],
    "v_alignbit_b32": VOP3_3["v_alignbit_b32"],
}


def _one(text: str):
    (i,) = list(parse_asm(f"kernel:\n\t{text}\n").function().instrs())
    return i


def _on(threads: int) -> dict:
    """A state with every lane on (``exec`` known)."""
    return {("exec",): np.ones(threads, dtype=np.uint64)}


@pytest.mark.parametrize("mnemonic", sorted(ADDED))
def test_each_added_instruction_computes_what_the_emulator_does(mnemonic):
    """On random sources (bit patterns with the sign bits of 16 and 32 bits set in some,
    shift counts and field widths past their fields' bits in some) every thread's result
    is the emulator's."""
    fn = ADDED[mnemonic]
    sources = 3 if mnemonic in ("v_bfe_i32", "v_alignbit_b32") else 2
    rng = np.random.default_rng(36)
    threads = 512
    vals = [rng.integers(0, 1 << 32, threads, dtype=np.uint64) for _ in range(sources)]
    vals[0][:64] = np.arange(64, dtype=np.uint64)           # small shifts, offsets
    vals[-1][64:128] = np.arange(64, dtype=np.uint64)        # small widths and counts
    state = _on(threads) | {f"v{k + 1}": v for k, v in enumerate(vals)}
    i = _one(f"{mnemonic} v9, " + ", ".join(f"v{k + 1}" for k in range(sources)))
    evaluate(i, state, threads)
    want = fn(*(v.astype(np.uint32) for v in vals)).astype(np.uint64)
    assert state.get("v9") is not None, mnemonic
    assert np.array_equal(state["v9"], want), mnemonic


@pytest.mark.parametrize("text, value", [
    ("v_ashrrev_i16_e32 v9, 1, v1", 0xC001),               # -32765 >> 1, high half zeroed
    ("v_add_u16_e32 v9, v1, v1", 0x0006),                   # 0x8003 + 0x8003, wrapped
    ("v_bfe_i32 v9, v1, 0, 16", 0xFFFF8003),                # sign-extended
    ("v_bfe_i32 v9, v1, 4, 0", 0),                          # no field
    ("v_alignbit_b32 v9, v1, v1, 4", 0x3FFFE800),           # bits 4..35 of v1:v1
    ("v_ashrrev_i32_e32 v9, 4, v1", 0xFFFFE800),
])
def test_the_added_instructions_on_values_worked_by_hand(text, value):
    """v1 = 0xfffe8003 in every thread."""
    state = _on(64) | {"v1": np.full(64, 0xFFFE8003, dtype=np.uint64)}
    evaluate(_one(text), state, 64)
    assert [int(x) for x in set(state["v9"])] == [value], text


#: SDWA forms LLVM writes whole registers with (IREE's i8 batch kernel computes its
#: transposing B reads' LDS addresses with ``v_and_b32_sdwa`` and ``v_mul_u32_u24_sdwa``
#: of a word, finding 103 of ``docs/iree-audits.md``)
SDWA = ["v_and_b32_sdwa v9, v1, s2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 "
        "src1_sel:DWORD",
        "v_mul_u32_u24_sdwa v9, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 "
        "src1_sel:BYTE_3",
        "v_add_u16_sdwa v9, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 "
        "src1_sel:WORD_1",
        "v_or_b32_sdwa v9, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 "
        "src1_sel:BYTE_0",
        "v_mov_b32_sdwa v9, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3"]


@pytest.mark.parametrize("text", SDWA)
def test_an_sdwa_form_writing_the_whole_register_computes_what_the_emulator_does(text):
    """Each source's selected byte or word, the operation, the whole result: every lane of a
    wave the emulator's (its own SDWA semantics, :mod:`pipeline_mlir.emu.valu`)."""
    from emu_helpers import run_snippet

    rng = np.random.default_rng(103)
    vals = {r: rng.integers(0, 1 << 32, 64, dtype=np.uint64) for r in (1, 2)}
    scalar = 0xA5C3F00F

    def setup(m):
        w = m.waves[0]
        for r, v in vals.items():
            w.V[r] = v.astype(np.uint32)
        w.S[2] = scalar
    ran = run_snippet(f"{text}\ns_endpgm", setup=setup)
    want = ran.waves[0].V[9].ravel().astype(np.uint64)
    state = _on(64) | {f"v{r}": v for r, v in vals.items()} | \
        {"s2": np.full(64, scalar, dtype=np.uint64)}
    evaluate(_one(text), state, 64)
    assert state.get("v9") is not None and np.array_equal(state["v9"], want), text


@pytest.mark.parametrize("text", ["v_add_u16_e64 v9, v1, v2 clamp",
                                  "v_add_u16_sdwa v9, v1, v2 dst_sel:WORD_1",
                                  "v_or_b32_sdwa v9, v1, v2 dst_sel:BYTE_0 "
                                  "dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
                                  "v_or_b32_sdwa v9, sext(v1), v2 dst_sel:DWORD "
                                  "dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD",
                                  "v_add_u32_sdwa v9, v1, v2 clamp dst_sel:DWORD "
                                  "dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD",
                                  "v_cvt_f32_ubyte0_sdwa v9, v1 dst_sel:DWORD "
                                  "dst_unused:UNUSED_PAD src0_sel:BYTE_1",
                                  "v_bfe_i32 v9, v1, v2"])
def test_forms_not_read_leave_the_result_unknown(text):
    """A modifier (``clamp``; an SDWA destination field, a sign-extended source), an
    operation not evaluated (in its SDWA form too) or the wrong number of sources:
    unknown, never a guess."""
    state = _on(64) | {f"v{k}": np.arange(64, dtype=np.uint64) for k in (1, 2)}
    state["v9"] = np.zeros(64, dtype=np.uint64)
    evaluate(_one(text), state, 64)
    assert "v9" not in state, text


def _exec_after(body: str, threads: int = 64):
    """``exec`` at the end of the function ``body`` (its last block's state run through),
    or None where the rule does not know it."""
    from pipeline_mlir.isa.lane_values import value_flow

    fn = parse_asm(f"kernel:\n{body}\n").function()
    fn.threads = threads
    entry, _, _ = value_flow(fn)
    last = len(fn.blocks) - 1
    state = dict(entry[last])
    for i in fn.blocks[last].instrs:
        evaluate(i, state, threads)
    return state.get(("exec",)), state


#: LLVM's if-else on a condition no rule evaluates (a 64-bit compare ORed with a compare of
#: an unknown register: how a guarded load's ``scf.if`` lowers), ``exec`` joined back
IF_ELSE = """\tv_cmp_lt_u64_e32 vcc, 7, v[4:5]
\tv_cmp_ne_u32_e64 s[0:1], 0, v6
\ts_or_b64 s[0:1], vcc, s[0:1]
\tv_lshlrev_b32_e32 v8, 2, v0
\ts_and_saveexec_b64 s[2:3], s[0:1]
\ts_xor_b64 s[0:1], exec, s[2:3]
\ts_cbranch_execz .LBB0_2
; %bb.1:
\tv_mov_b32_e32 v7, 1
\tv_mov_b32_e32 v8, 5
.LBB0_2:
\ts_or_saveexec_b64 s[4:5], s[0:1]
\ts_xor_b64 exec, exec, s[4:5]
\ts_cbranch_execz .LBB0_4
; %bb.3:
\tv_mov_b32_e32 v7, 2
.LBB0_4:
\ts_or_b64 exec, exec, {restore}
\tv_lshlrev_b32_e32 v9, 2, v0
\ts_endpgm"""


def test_exec_joined_back_after_an_if_else_on_an_unknown_condition():
    """The lanes of each arm are unknown, but the two arms' ``exec`` make up the one saved
    before: after the join it is known (every lane), so an address computed there from the
    thread id is known; a register written in an arm (under lanes not known) is not."""
    active, state = _exec_after(IF_ELSE.format(restore="s[4:5]"))
    assert active is not None and active.all()
    assert np.array_equal(state["v9"], 4 * np.arange(64))
    assert "v7" not in state and "v8" not in state


def test_exec_joined_with_another_mask_stays_unknown():
    """Joined with a mask that is not the one saved (the else arm's lanes again, not the
    then arm's), ``exec`` is not known: no lane's activity is guessed."""
    active, state = _exec_after(IF_ELSE.format(restore="s[0:1]"))
    assert active is None and "v9" not in state


#: an unknown condition nested in an arm of a known one (lanes 0 to 31): the inner ``exec``
#: is unknown, but it lies within the one the inner ``s_and_saveexec_b64`` saved
NESTED = """\tv_cmp_gt_u32_e32 vcc, 32, v0
\ts_and_saveexec_b64 s[2:3], vcc
\tv_cmp_lt_u64_e32 vcc, 3, v[6:7]
\ts_and_saveexec_b64 s[4:5], vcc
\ts_cbranch_execz .LBB0_3
; %bb.2:
\tv_mov_b32_e32 v7, 1
.LBB0_3:
\ts_or_b64 exec, exec, {inner}
\tv_lshlrev_b32_e32 v9, 2, v0
\ts_endpgm"""


def test_exec_within_the_mask_it_saved_is_joined_back_to_it():
    """Joined with the mask it was saved from, the unknown inner ``exec`` is that mask
    (lanes 0 to 31), on both paths into the join."""
    active, state = _exec_after(NESTED.format(inner="s[4:5]"))
    assert active is not None and np.array_equal(active, np.arange(64) < 32)


def test_exec_within_one_mask_joined_with_another_stays_unknown():
    """Joined with another mask (``vcc``, the inner condition), it is not known."""
    active, _state = _exec_after(NESTED.format(inner="vcc"))
    assert active is None


def test_masks_of_two_unknown_conditions_keep_them_apart():
    """The and and the or of two conditions no rule evaluates are two masks of their own:
    their xor (the lanes where exactly one holds) is not known, let alone known empty (it
    was, when both took one name from the two conditions alone)."""
    _active, state = _exec_after("""\tv_cmp_lt_u64_e32 vcc, 7, v[4:5]
\tv_cmp_ne_u32_e64 s[2:3], 0, v6
\ts_and_b64 s[0:1], vcc, s[2:3]
\ts_or_b64 s[4:5], vcc, s[2:3]
\ts_xor_b64 s[6:7], s[0:1], s[4:5]
\ts_endpgm""")
    assert ("s6", "s7") not in state


def test_exec_widened_by_another_mask_is_no_longer_within_the_saved_one():
    """Inside an inner arm on a mask not known at all (``exec`` then known only to lie within
    the lanes 0 to 31 it saved), ``exec`` ORed with a mask of lanes the outer arm left off
    (an unknown condition over all 64 lanes) no longer lies within the saved one: joined
    with it, it is not known."""
    active, _state = _exec_after("""\tv_cmp_lt_u64_e64 s[10:11], 5, v[8:9]
\tv_cmp_gt_u32_e32 vcc, 32, v0
\ts_and_saveexec_b64 s[2:3], vcc
\ts_and_saveexec_b64 s[4:5], s[20:21]
\ts_or_b64 exec, exec, s[10:11]
\ts_or_b64 exec, exec, s[4:5]
\ts_endpgm""")
    assert active is None
