"""gfx950's VGPR index mode on the emulator (``pipeline_mlir/emu/gpridx.py``): the
assembly of ``s_set_gpr_idx_on`` / ``_off`` / ``_mode`` / ``_idx`` (their encodings and text
are in ``test/data/emu/decode_corpus.txt``), M0's index and mask bits, each operand slot,
the operands the mode leaves alone, the OFF, the pending-load check on the indexed
register, and the refusals.  Each register holds its own number plus 1000 in every lane,
so a value read names the register it came from."""

from __future__ import annotations

import numpy as np
import pytest

import pipeline_mlir.emu.machine as machine_mod
from emu_helpers import run_snippet
from pipeline_mlir.emu.asmline import LineError, parse_instruction
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.machine import Divergence

M0 = 124


def test_assembly_reads_numeric_masks_and_refuses_bad_ones():
    """(The instructions' encodings and LLVM's text: ``test/data/emu/decode_corpus.txt``.)"""
    numeric, _ = parse_instruction("s_set_gpr_idx_on s6, 9", 0)
    assert format_instr(numeric) == "s_set_gpr_idx_on s6, gpr_idx(SRC0,DST)"
    for bad in ("s_set_gpr_idx_on s6, gpr_idx(SRC0,SRC0)", "s_set_gpr_idx_on s6, 16",
                "s_set_gpr_idx_mode gpr_idx(SRC3)"):
        with pytest.raises(LineError, match="index mode"):
            parse_instruction(bad, 0)


def _numbered(m, sgprs=None):
    w = m.waves[0]
    w.V[:] = (np.arange(256, dtype=np.uint32) + 1000)[:, None, None]
    w.S[4], w.S[M0] = 7, 0xABCD1234
    for r, v in (sgprs or {}).items():
        w.S[r] = v


def _run(body: str, sgprs=None, workgroups=(0,)):
    return run_snippet(body + "\ns_endpgm", workgroups=workgroups,
                       setup=lambda m: _numbered(m, sgprs))


def _lane0(m, r):
    return int(m.waves[0].V[r, 0, 0])


def test_on_sets_the_index_and_mask_bits_of_m0_and_keeps_the_rest():
    m = _run("s_set_gpr_idx_on s6, gpr_idx(SRC0,DST)\ns_set_gpr_idx_off", {6: 0x1FF05})
    assert int(m.waves[0].S[M0, 0]) == (0xABCD1234 & ~0xF0FF) | 0x05 | (9 << 12)
    assert not m.waves[0].gpr_idx
    m = _run("s_set_gpr_idx_mode gpr_idx(SRC2)\ns_set_gpr_idx_idx s6", {6: 0x3C})
    assert int(m.waves[0].S[M0, 0]) == (0xABCD1234 & ~0xF0FF) | 0x3C | (4 << 12)
    assert not m.waves[0].gpr_idx, "mode and idx do not turn the mode on"


@pytest.mark.parametrize("mask, text, dst, want", [
    ("SRC0", "v_mov_b32_e32 v1, v2", 1, 1000 + 2 + 5),
    ("SRC1", "v_add_u32_e32 v1, v2, v3", 1, 1002 + 1000 + 3 + 5),
    ("SRC0", "v_add_u32_e32 v1, v2, v3", 1, 1000 + 2 + 5 + 1003),
    ("SRC2", "v_add3_u32 v1, v2, v3, v4", 1, 1002 + 1003 + 1000 + 4 + 5),
    ("SRC0,SRC1,SRC2", "v_add3_u32 v1, v2, v3, v4", 1, 3 * 1000 + 2 + 3 + 4 + 15),
    ("DST", "v_mov_b32_e32 v1, v2", 1 + 5, 1002),
    ("SRC0,DST", "v_mov_b32_e64 v1, v2", 1 + 5, 1007),
    ("SRC0", "v_add_u32_e32 v1, s4, v3", 1, 7 + 1003),      # an SGPR is not indexed
    ("SRC0", "v_add_u32_e32 v1, 64, v3", 1, 64 + 1003),     # nor a constant
])
def test_each_operand_slot(mask, text, dst, want):
    m = _run(f"s_set_gpr_idx_on s6, gpr_idx({mask})\n{text}\ns_set_gpr_idx_off", {6: 0x105})
    assert _lane0(m, dst) == want
    if dst != 1:
        assert _lane0(m, 1) == 1001, "the unindexed destination is left alone"


def test_off_and_mode_changes_apply_to_the_next_instruction():
    m = _run("s_set_gpr_idx_on s6, gpr_idx(SRC0)\nv_mov_b32_e32 v10, v2\n"
             "s_mov_b32 m0, 3\nv_mov_b32_e32 v11, v2\n"           # M0 written: index 3, mask 0
             "s_set_gpr_idx_mode gpr_idx(SRC0)\nv_mov_b32_e32 v12, v2\n"
             "s_set_gpr_idx_idx s7\nv_mov_b32_e32 v13, v2\n"
             "s_set_gpr_idx_off\nv_mov_b32_e32 v14, v2", {6: 4, 7: 20})
    assert [_lane0(m, r) for r in (10, 11, 12, 13, 14)] == [1006, 1002, 1005, 1022, 1002]


def test_a_mutant_that_ignores_the_index_is_caught(monkeypatch):
    body = "s_set_gpr_idx_on s6, gpr_idx(SRC0)\nv_mov_b32_e32 v1, v2\ns_set_gpr_idx_off"
    assert _lane0(_run(body, {6: 5}), 1) == 1007
    monkeypatch.setattr(machine_mod, "indexed_step", lambda st, mask, index: st)
    assert _lane0(_run(body, {6: 5}), 1) != 1007


@pytest.mark.parametrize("text, why", [
    ("v_mov_b32_e32 v254, v250", "past v255"),
    ("v_lshl_add_u64 v[0:1], v[2:3], 0, 1", "2-register operand"),
    ("ds_read_b32 v1, v2", "vector ALU operands only"),
    ("v_fmac_f32_e32 v1, v2, v3", "also its accumulator"),
])
def test_refused_at_the_instruction(text, why):
    mask = "SRC0,DST" if "fmac" in text else "SRC0"
    body = f"s_set_gpr_idx_on s6, gpr_idx({mask})\n{text}\ns_set_gpr_idx_off"
    with pytest.raises(EmuError, match=f"0x0004: instruction '.*' .*{why}"):
        _run(body, {6: 8})


def test_an_index_that_differs_among_workgroups_runs_them_apart():
    def setup(m):
        _numbered(m)
        m.waves[0].S[6] = np.array([1, 2], dtype=np.uint32)
    with pytest.raises(Divergence, match="index mode"):
        run_snippet("s_set_gpr_idx_on s6, gpr_idx(SRC0)\nv_mov_b32_e32 v1, v2\ns_endpgm",
                    workgroups=(0, 1), setup=setup)


def test_the_pending_load_check_sees_the_indexed_register():
    """A load into v7 not waited for: reading v2 indexed by 5 is reading v7."""
    body = ("ds_read_b32 v7, v0\ns_set_gpr_idx_on s6, gpr_idx(SRC0)\nv_mov_b32_e32 v1, v2\n"
            "s_set_gpr_idx_off\ns_waitcnt lgkmcnt(0)")
    with pytest.raises(Finding, match="v7 is used while the load"):
        _run(body, {6: 5})
    _run(body, {6: 4})          # v6: nothing pending
