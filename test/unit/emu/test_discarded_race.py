"""A load racing another workgroup's store whose value is discarded (emu/racy_loads.py,
emu/taint.py): benign when no loaded value that could differ reaches anything observable,
a ``global-race`` at the first use that it reaches otherwise, naming the load, the store
and the use.

Each workgroup (one wave) stores its own 64 dwords of C, then loads the 64 of workgroup
``id ^ 1`` into v3, which nothing orders with that workgroup's store (run one workgroup at
a time: workgroup 0's load comes before workgroup 1's store, workgroup 1's after
workgroup 0's, so both orders are met), then does ``use`` with v3."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pipeline_mlir.emu import gemm as emu_gemm
from pipeline_mlir.emu.errors import Finding
from test_global_race import _kernarg_kernel, _launch

#: after test_global_race's prologue (v1 the lane's byte offset, v4 its dword of the
#: workgroup's 64): store them, load workgroup ``id ^ 1``'s into v3, then ``use`` it
BODY = """
    global_store_dword v4, v1, s[10:11]
    s_xor_b32 s4, s2, 1
    s_lshl_b32 s4, s4, 8
    v_add_u32_e32 v5, s4, v1
    global_load_dword v3, v5, s[10:11]
    v_mov_b32_e32 v7, 5
    s_waitcnt vmcnt(0)
    {use}
"""
LOAD = "global_load_dword v3, v5, s[10:11]"
#: the loaded value dropped by a select of the other source in every lane, then stored
DROPPED = "s_mov_b64 vcc, 0\nv_cndmask_b32_e32 v3, v7, v3, vcc\nglobal_store_dword v4, v3, s[8:9]"


def _run(use: str, batch: int = 1, monkeypatch=None):
    monkeypatch.setattr(emu_gemm, "BATCH", batch)
    return _launch(_kernarg_kernel(BODY.format(use=use)), [0, 1])


@pytest.mark.parametrize("batch", [1, 2])
def test_a_racing_load_whose_value_is_dropped_is_no_race(monkeypatch, batch):
    glob = _run(DROPPED, batch, monkeypatch)
    assert (glob.buffer("B").view(np.uint32)[:128] == 5).all()      # the pad stored
    _run("s_nop 0", batch, monkeypatch)                             # never used at all


def _observable(use: str, at: str, what: str, monkeypatch, batch: int = 1) -> None:
    with pytest.raises(Finding, match=(
            rf"global-race: wave 0 of workgroups? 0(,1)?, 0x\w+ '{re.escape(at)}': global "
            rf"(read|write) of "
            rf"buffer C byte \d+ .* races the (write|read) .*another workgroup: nothing "
            rf"orders them\): lane \d+ of workgroup 0 loads it at 0x\w+ '{re.escape(LOAD)}' "
            rf"\(wave 0\), and the value loaded reaches {what} here: the race is "
            rf"observable$")):
        _run(use, batch, monkeypatch)


@pytest.mark.parametrize("batch", [1, 2])
def test_the_loaded_value_stored_is_a_race(monkeypatch, batch):
    store = "global_store_dword v4, v3, s[8:9]"
    _observable(store, store, "its address or stored data", monkeypatch, batch)


def test_the_loaded_value_selected_in_one_lane_is_a_race(monkeypatch):
    store = "global_store_dword v4, v3, s[8:9]"
    _observable(DROPPED.replace("vcc, 0", "vcc, 1 << 17"), store,
                "its address or stored data", monkeypatch)


def test_a_select_whose_mask_the_loaded_value_decides_is_a_race(monkeypatch):
    store = "global_store_dword v4, v3, s[8:9]"
    _observable(DROPPED.replace("s_mov_b64 vcc, 0", "v_cmp_eq_u32_e32 vcc, 0, v3\ns_nop 1"), store,
                "its address or stored data", monkeypatch)


def test_the_loaded_value_through_arithmetic_as_an_address_is_a_race(monkeypatch):
    load = "global_load_dword v9, v8, s[8:9]"
    _observable(f"v_and_b32_e32 v8, 4, v3\nv_add_u32_e32 v8, v1, v8\n{load}", load,
                "its address or stored data", monkeypatch)


def test_the_loaded_value_deciding_a_branch_is_a_race(monkeypatch):
    _observable("v_readfirstlane_b32 s6, v3\ns_cmp_eq_u32 s6, 0\ns_cbranch_scc1 skip\n"
                "s_nop 0\nskip:", "s_cbranch_scc1 1", "a branch", monkeypatch)


def test_the_loaded_value_into_lds_is_a_race(monkeypatch):
    write = "ds_write_b32 v1, v3"
    _observable(write, write, "its address or stored data", monkeypatch)


def test_the_loaded_value_through_an_mfma_stored_is_a_race(monkeypatch):
    store = "global_store_dword v4, v10, s[8:9]"
    _observable(f"v_mfma_f32_16x16x16_bf16 v[10:13], v[2:3], v[2:3], 0\ns_nop 7\ns_nop 7\n"
                f"s_nop 3\n{store}", store, "its address or stored data", monkeypatch)


def test_a_clean_select_of_the_mfma_inputs_is_no_race(monkeypatch):
    """The MFMA reads v3 only after a select put the pad in every lane."""
    _run("s_mov_b64 vcc, 0\nv_cndmask_b32_e32 v3, v7, v3, vcc\ns_nop 1\n"
         "v_mfma_f32_16x16x16_bf16 v[10:13], v[2:3], v[2:3], 0\ns_nop 7\ns_nop 7\ns_nop 3\n"
         "global_store_dword v4, v10, s[8:9]", monkeypatch=monkeypatch)


def test_the_loaded_value_deciding_which_lanes_run_is_a_race(monkeypatch):
    saveexec = "s_and_saveexec_b64 s[6:7], vcc"
    _observable(f"v_cmp_eq_u32_e32 vcc, 0, v3\ns_nop 1\n{saveexec}", saveexec,
                r"EXEC \(which lanes run\)", monkeypatch)


#: the other workgroup's first dword loaded into s6 by a scalar load (no lane of its own)
SCALAR = "s_load_dword s6, s[10:11], s4\ns_waitcnt lgkmcnt(0)\n"


def test_a_racing_scalar_load_whose_value_is_unused_is_no_race(monkeypatch):
    _run(SCALAR + "s_nop 0", monkeypatch=monkeypatch)


def test_a_racing_scalar_loads_value_deciding_a_branch_is_a_race(monkeypatch):
    """The SGPRs a scalar load writes carry its taint (before, only a vector load's
    registers did, and a scalar load's racing value went unfollowed: no finding)."""
    with pytest.raises(Finding, match=r"global-race: .*'s_cbranch_scc1 1'.*loads it at 0x\w+ "
                       r"'s_load_dword s6, s\[10:11\], s4'.*reaches a branch here"):
        _run(SCALAR + "s_cmp_eq_u32 s6, 0\ns_cbranch_scc1 skip\ns_nop 0\nskip:",
             monkeypatch=monkeypatch)


#: the loaded value spilled to the lane's private memory (scratch) and reloaded
SPILLED = ("scratch_store_dword off, v3, off offset:4\ns_waitcnt vmcnt(0)\n"
           "scratch_load_dword v3, off, off offset:4\ns_waitcnt vmcnt(0)\n")


def _run_private(use: str, monkeypatch):
    """:func:`_run` with 64 bytes of private memory per lane."""
    monkeypatch.setattr(emu_gemm, "BATCH", 1)
    kernel = _kernarg_kernel(BODY.format(use=use))
    kernel.launch.private_bytes = 64
    return _launch(kernel, [0, 1])


def test_a_racing_value_spilled_and_reloaded_then_dropped_is_no_race(monkeypatch):
    """Private memory is the lane's own: a spill of the racing value is no use of it, and
    the reload dropped by the select is benign (LLVM spills IREE's late ``C += A x B``'s
    row of C before the select that masks its racing lanes off: reported as a race
    before); a clean value spilled over it clears the bytes."""
    glob = _run_private(SPILLED + DROPPED, monkeypatch)
    assert (glob.buffer("B").view(np.uint32)[:128] == 5).all()
    over = ("scratch_store_dword off, v3, off offset:4\ns_waitcnt vmcnt(0)\n"
            "scratch_store_dword off, v7, off offset:4\ns_waitcnt vmcnt(0)\n"
            "scratch_load_dword v3, off, off offset:4\ns_waitcnt vmcnt(0)\n"
            "global_store_dword v4, v3, s[8:9]")
    glob = _run_private(over, monkeypatch)
    assert (glob.buffer("B").view(np.uint32)[:128] == 5).all()


def test_a_racing_value_reloaded_and_stored_is_a_race(monkeypatch):
    """The reload carries the spilled bytes' taint: stored to B, observable at the store."""
    store = "global_store_dword v4, v3, s[8:9]"
    with pytest.raises(Finding, match=re.escape(f"'{store}'") + ".*the value loaded reaches "
                       "its address or stored data here: the race is observable"):
        _run_private(SPILLED + store, monkeypatch)


def test_a_racing_value_as_a_scratch_address_is_a_race(monkeypatch):
    at = "scratch_store_dword v8, v7, off"
    with pytest.raises(Finding, match=re.escape(f"'{at}'") + ".*the value loaded reaches its "
                       "address here: the race is observable"):
        _run_private(f"v_and_b32_e32 v8, 60, v3\n{at}", monkeypatch)


def test_a_batch_split_in_the_taint_run_keeps_each_parts_loads_apart(monkeypatch):
    """Workgroups 0, 1 and 2 in one batch branch apart (workgroup 2 alone) after their
    stores, then each loads workgroup ``id ^ 1``'s dwords and drops them: the taint run
    splits the batch, and each part notes its own load.  The parts shared the batch's list
    of the op's notes, so the second part's first load took the first part's notes too (of
    2 workgroups, not 1: a ValueError from numpy; of as many: another part's lanes)."""
    monkeypatch.setattr(emu_gemm, "BATCH", 4)
    body = BODY.format(use=DROPPED).replace(
        "    s_xor_b32 s4, s2, 1", "    s_waitcnt vmcnt(0)\n    s_cmp_eq_u32 s2, 2\n"
        "    s_cbranch_scc1 .Lapart\n    s_nop 1\n.Lapart:\n    s_xor_b32 s4, s2, 1")
    glob = _launch(_kernarg_kernel(body), [0, 1, 2])
    assert (glob.buffer("B").view(np.uint32)[:192] == 5).all()
