"""emu/split.py: a lockstep batch whose workgroups branch apart goes on from the branch as a
batch per way, with the result of its workgroups run one at a time and of the batch run
again from the start per way (the emulator's way before the split)."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import snippet_kernel
from pipeline_mlir.emu import gemm
from pipeline_mlir.emu.machine import GlobalMemory

#: the snippets' entry: the kernel arguments loaded, v1 the thread's byte offset in its
#: workgroup's 512 bytes (4 x its id) and v4 its dword's global offset (s2: the workgroup)
ENTRY = """
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32_e32 v1, 2, v0
    s_lshl_b32 s3, s2, 9
    v_add_u32_e32 v4, s3, v1"""

#: 2 waves; each lane loads its dword of B (workgroup w's 128) and writes it to LDS, then
#: reads the other wave's dword (the loads in flight at the first branch, w < 2 or not);
#: after it, C's dword gets B + 1 or B + 2 + the other wave's B; the odd workgroups (a
#: second branch) then load the other wave's dwords of C (a global race with that wave's
#: store before the second branch, no barrier between them), store to C's dwords 512 to
#: 639 (workgroup 3's races workgroup 1's) and write their LDS dwords again, which the
#: other wave read after the barrier (an LDS race; in late mode that read may see it)
APART = ENTRY + """
    global_load_dword v3, v4, s[8:9]
    v_xor_b32_e32 v8, 0x100, v1
    s_waitcnt vmcnt(0)
    ds_write_b32 v1, v3
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v6, v8
    {store}
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    s_waitcnt lgkmcnt(0)
    v_add_u32_e32 v3, 1, v3
    s_branch join
low:
    s_waitcnt lgkmcnt(0)
    v_add_u32_e32 v3, 2, v3
    v_add_u32_e32 v3, v6, v3
join:
    global_store_dword v4, v3, s[10:11]
    s_waitcnt vmcnt(0)
    s_and_b32 s7, s2, 1
    s_cmp_eq_u32 s7, 0
    s_cbranch_scc1 done
    v_xor_b32_e32 v9, 0x100, v4
    global_load_dword v10, v9, s[10:11]
    global_store_dword v1, v3, s[10:11] offset:2048
    ds_write_b32 v1, v3
    ds_read_b32 v7, v8 offset:1024
    s_waitcnt vmcnt(0) lgkmcnt(0)
done:
    s_endpgm"""

WORKGROUPS = [0, 1, 2, 3]


def _run(text: str, mode: str, monkeypatch, how: str):
    """(C's words, instructions, findings as text, splits made) of ``WORKGROUPS`` run by
    ``how``: ``split`` (in one batch), ``again`` (in one batch, run again per way where
    it diverges) or ``alone`` (one at a time)."""
    splits = []

    def counted(m, ways, seeds, e):
        splits.append(sum(not o.done for w in m.waves for o in (*w.vmq, *w.lgkmq)))
        return split(m, ways, seeds, e)
    split = gemm.split_batch
    monkeypatch.setattr(gemm, "split_batch", counted)
    if how == "again":
        monkeypatch.setattr(gemm, "why_not", lambda m: "asked")
    if how == "alone":
        monkeypatch.setattr(gemm, "BATCH", 1)
    glob = GlobalMemory()
    bases = [glob.add("B", np.arange(512, dtype=np.uint32) * 3), glob.add("C", bytes(4096))]
    glob.track("C")
    at = glob.add("kernargs", np.array(bases, dtype=np.uint64))
    kernel = snippet_kernel(text)
    kind, _, seed = mode.partition(":")
    n, findings = gemm.run_workgroups(kernel, glob, WORKGROUPS, 2, kind, int(seed or 0), at,
                                      collect=True)
    monkeypatch.undo()
    return (glob.buffer("C").view(np.uint32).copy(), n, [str(f) for f in findings], splits)


@pytest.mark.parametrize("mode", ["eager", "late", "random:3"])
def test_a_split_batch_runs_as_its_workgroups_one_at_a_time(mode, monkeypatch):
    """The same C, instruction count and findings (the races, found after the second
    branch in workgroups 1 and 3: one with a store of the same workgroup before that
    branch) as the workgroups run one at a time and as the batch run again from the start
    per way (random mode: the same C and count); split twice, a DS read still in flight at
    the first branch in late mode."""
    text = APART.format(store="")
    C, n, found, splits = _run(text, mode, monkeypatch, "split")
    assert splits[1:] == [0, 0] and splits[0] == {"eager": 0, "late": 1}.get(mode, splits[0])
    for how in ("alone", "again"):
        got = _run(text, mode, monkeypatch, how)
        if mode.startswith("random"):
            # a part without the batch's first workgroup draws its own interleaving from
            # the branch on (the races it finds first, and what workgroup 1's racing LDS
            # read sees, differ): the same for a seed
            assert (np.delete(got[0], np.s_[128:256]) == np.delete(C, np.s_[128:256])).all()
            assert got[1] == n and not got[3], how
            assert _run(text, mode, monkeypatch, "split")[2] == found
            # the races met first differ by seed (this seed's split meets two more in
            # workgroup 1, whose part draws its own order): both find both kinds
            assert {f.split(":")[0] for f in got[2]} == \
                {f.split(":")[0] for f in found} == {"global-race", "lds-race"}
        else:
            assert (got[0] == C).all() and got[1:] == (n, found, []), how
    B = np.arange(512, dtype=np.uint32) * 3
    other = B.reshape(4, 2, 64)[:, ::-1].reshape(-1)
    want = np.where(np.arange(512) < 256, B + 2 + other, B + 1)
    assert (C[:128] == want[:128]).all() and (C[256:512] == want[256:]).all()
    assert (C[512:640] == B[384:] + 1).all() and (C[640:] == 0).all()
    if mode.startswith("random"):
        return
    assert {f.split(":")[0] for f in found} == {"global-race", "lds-race"}
    assert all(("of workgroup 1, " in f) != ("of workgroup 3, " in f) for f in found)
    assert any(f.startswith("global-race: wave") and "by workgroup 1 races the" in f and
               "of workgroup 1 at" in f and "no barrier since" in f for f in found)
    assert any(f.startswith("lds-race: wave") and "of workgroup 1, 0x003c" in f for f in found)
    assert any("by workgroup 3 races the write by wave" in f and "of workgroup 1 at" in f
               for f in found)


def test_a_store_in_flight_at_the_branch_runs_the_batch_again():
    """A store not complete at the branch (late mode) writes every workgroup's bytes when
    it completes: the batch is run again from the start per way, not split."""
    text = APART.format(store="global_store_dword v4, v3, s[10:11]")
    with pytest.MonkeyPatch.context() as mp:
        C, n, found, splits = _run(text, "late", mp, "split")
        alone = _run(text, "late", mp, "alone")
    # not split at the first branch (the store in flight): each way from the start, split
    # at the second branch with nothing in flight
    assert splits == [0, 0]
    assert (alone[0] == C).all() and alone[1:3] == (n, found)


def _wrong(text: str, mode: str, monkeypatch) -> tuple[list, list]:
    """(findings split, findings of the workgroups one at a time) of ``WORKGROUPS``."""
    return (_run(text, mode, monkeypatch, "split")[2],
            _run(text, mode, monkeypatch, "alone")[2])


#: each wave writes its LDS dwords; after the branch (workgroups 0, 1 apart from 2, 3) wave
#: 0 reads wave 1's, nothing between (no barrier): in late mode wave 1 writes first, the
#: batch diverges there, and wave 0 reads after the split: found only from the write's
#: stamp carried into each part (LDS race shadow, last write)
LDS_AFTER = """
    v_lshlrev_b32_e32 v1, 2, v0
    v_or_b32_e32 v8, 0x100, v1
    ds_write_b32 v1, v0
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    s_nop 0
low:
    ds_read_b32 v6, v8
    s_waitcnt lgkmcnt(0)
    s_endpgm"""


def test_an_lds_write_before_the_branch_races_a_read_after_it(monkeypatch):
    split, alone = _wrong(LDS_AFTER, "late", monkeypatch)
    for found in (split, alone):
        assert found and all(f.startswith("lds-race: wave 0 of workgroup") and
                             "0x0020 'ds_read_b32 v6, v8': LDS read of address 256 races "
                             "the write by wave 1" in f for f in found), found


#: a VALU writes s4, the branch (one wait state), and a VALU reads s4 where the branch is
#: not taken: 2 are needed.  In eager mode wave 0 diverges there: its finding (wave 1's,
#: which runs after the split from the start, is kept once per instruction behind it) is
#: made by its part's tracker carried from the batch with the branch counted once (the
#: check on every path, which would find it first, switched off)
HAZARD_AFTER = """
    s_cmp_lt_u32 s2, 2
    v_readfirstlane_b32 s4, v0
    s_cbranch_scc1 low
    v_add_u32_e32 v2, s4, v0
low:
    s_endpgm"""


def test_a_wait_state_hazard_across_the_branch_is_found_in_the_part(monkeypatch):
    from pipeline_mlir.emu import machine

    monkeypatch.setattr(machine, "path_violations", lambda *a: [])
    split = _run(HAZARD_AFTER, "eager", monkeypatch, "split")
    monkeypatch.setattr(machine, "path_violations", lambda *a: [])
    alone = _run(HAZARD_AFTER, "eager", monkeypatch, "alone")
    assert split[3] and split[2] and alone[2]
    for found in (split[2], alone[2]):
        assert all(f.startswith("wait-states: wave 0 of") and "0x000c 'v_add_u32_e32 v2, s4, v0': s4: "
                   "1 wait states after 0x0004" in f and "2 required (valu-sgpr-valu" in f
                   for f in found), found


#: each wave's LDS DMA of its B dwords (M0: the wave's half) still in flight at the branch
#: in late mode; after it a DS write elsewhere in LDS, then the DMA waited for: C gets B +
#: the thread's id + 2 (workgroups 0, 1) or 1.  The DMA completes in each part on the
#: batch's LDS with the part's copied in (the DS write after the branch) and back
DMA_ACROSS = ENTRY + """
    v_readfirstlane_b32 s5, v1
    s_mov_b32 m0, s5
    s_nop 4
    global_load_lds_dword v4, s[8:9]
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    v_mov_b32_e32 v3, 1
    s_branch join
low:
    v_mov_b32_e32 v3, 2
join:
    ds_write_b32 v1, v0 offset:1024
    s_waitcnt lgkmcnt(0)
    s_waitcnt vmcnt(0)
    s_barrier
    ds_read_b32 v6, v1
    ds_read_b32 v7, v1 offset:1024
    s_waitcnt lgkmcnt(0)
    v_add3_u32 v3, v6, v7, v3
    global_store_dword v4, v3, s[10:11]
    s_waitcnt vmcnt(0)
    s_endpgm"""


def test_an_lds_dma_in_flight_at_the_branch_completes_in_each_part(monkeypatch):
    C, n, found, splits = _run(DMA_ACROSS, "late", monkeypatch, "split")
    assert splits == [1] and not found
    thread = np.tile(np.arange(128, dtype=np.uint32), 4)
    B = np.arange(512, dtype=np.uint32) * 3
    assert (C[:512] == B + thread + np.where(np.arange(512) < 256, 2, 1)).all()
    assert (_run(DMA_ACROSS, "late", monkeypatch, "alone")[0] == C).all()


#: an LDS race before the branch: each wave's write is not waited for before the barrier
#: after which the other wave reads it
RACE_BEFORE = """
    v_lshlrev_b32_e32 v1, 2, v0
    v_xor_b32_e32 v8, 0x100, v1
    ds_write_b32 v1, v0
    s_barrier
    ds_read_b32 v7, v8
    s_waitcnt lgkmcnt(0)
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    s_nop 0
low:
    s_endpgm"""


def test_the_findings_of_a_part_are_its_workgroups_own(monkeypatch):
    """The wait-state finding on some path, recorded by every run first: once per way as
    when each way runs again, the part's tracker not recording it again; a race before the
    branch (collected for the whole batch, not per workgroup): the batch run again per way,
    each finding naming its way's workgroups."""
    split = _run(HAZARD_AFTER, "eager", monkeypatch, "split")
    again = _run(HAZARD_AFTER, "eager", monkeypatch, "again")
    assert split[3] and split[2] == again[2] and len(split[2]) == 2
    split = _run(RACE_BEFORE, "eager", monkeypatch, "split")
    again = _run(RACE_BEFORE, "eager", monkeypatch, "again")
    assert not split[3] and split[2] == again[2]
    assert any(f.startswith("lds-race: wave 0 of workgroups 2,3,") for f in split[2])


#: lane i of each wave stores its id to C's dword i, then (after the branch) lane i + 1
#: stores its id there too: two lanes of one wave, two stores, no barrier between them
LANES_ACROSS = """
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    v_and_b32_e32 v5, 63, v0
    v_lshlrev_b32_e32 v1, 2, v5
    s_lshl_b32 s3, s2, 9
    v_add_u32_e32 v4, s3, v1
    v_lshrrev_b32_e32 v6, 6, v0
    v_lshlrev_b32_e32 v6, 8, v6
    v_add_u32_e32 v4, v6, v4
    global_store_dword v4, v0, s[10:11]
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    s_nop 0
low:
    global_store_dword v4, v0, s[10:11] offset:4
    s_waitcnt vmcnt(0)
    s_endpgm"""


def test_lane_stores_across_the_branch_are_noted(monkeypatch):
    """Watched lanes' stores are keyed by run and slot, which a part renumbers: the batch
    runs again per way (not split) and the pairs across the branch are noted."""
    from pipeline_mlir.emu.globalrace import lanes_watched

    noted = {}
    for how in ("split", "alone"):
        with lanes_watched() as found:
            _, _, _, splits = _run(LANES_ACROSS, "eager", monkeypatch, how)
        noted[how] = sorted(map(str, found))
        assert not splits
    # per workgroup and wave, lanes i + 1 and i for i < 63, the ids differing in byte 0
    assert noted["split"] == noted["alone"] and len(noted["split"]) == 4 * 2 * 63
