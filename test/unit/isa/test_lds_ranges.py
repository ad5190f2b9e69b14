"""The ISA check's LDS rule (``pipeline_mlir/isa/lds_ranges.py``, findings ``lds-race``): two
waves touching one LDS byte, one writing, with no ``s_barrier`` between the accesses.
Hand-written assembly of two waves (128 threads) for each part of the rule: the lane
addresses evaluated from the thread id, the intervals between barriers (a loop's back edge
among them), what is left out (unknown addresses, barriers not every wave passes) and the
metadata the workgroup's size is read from.  The rule on IREE's kernels and on mutants of
their assembly: ``test/unit/driver/test_isa_gate.py``."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.lds_ranges import lds_map, lds_races, left_out
from pipeline_mlir.isa.wave_groups import barriers_uniform

#: each thread writes its own 16 bytes (thread id x 16)
WRITE = "\tv_lshlrev_b32_e32 v1, 4, v0\n\tds_write_b128 v1, v[4:7]\n"
#: the full wait and barrier that order the write against the other wave's read
FENCE = "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n"


def _races(body: str, threads: int = 128) -> list[tuple]:
    """(first line, second line, wave, other wave, byte) of each race in ``body``."""
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = threads
    return [(r.first.line, r.second.line, r.wave, r.other, r.byte) for r in lds_races(fn)]


#: the read's address: v2 from v1 (the writing thread's 16 bytes)
@pytest.mark.parametrize("address, fence, races", [
    ("\tv_mov_b32_e32 v2, v1\n", "", False),                 # its own bytes: one wave, in order
    ("\tv_xor_b32_e32 v2, 0x400, v1\n", "", True),           # thread id ^ 64: the other wave's
    ("\tv_xor_b32_e32 v2, 0x400, v1\n", FENCE, False),       # ... after the barrier
    ("\tv_add_u32_e32 v2, 0x800, v1\n", "", False),          # 2048 further: bytes no one wrote
    ("\tv_bitop3_b32 v2, v1, 0x400, v1 bitop3:0x3c\n", "", True),   # v1 ^ 0x400 again
    ("\tv_lshl_or_b32 v2, v0, 4, 0x400\n", "", True),        # (id << 4) | 1024: wave 1's
    ("\tv_bfe_u32 v3, v0, 0, 6\n\tv_lshlrev_b32_e32 v2, 4, v3\n", "", True),  # lane << 4
    ("\tbuffer_load_dword v2, v9, s[0:3], 0 offen\n\ts_waitcnt vmcnt(0)\n", "", False),  # unknown
])
def test_a_read_of_the_other_waves_bytes_needs_a_barrier(address, fence, races):
    """A ``ds_read`` after the ``ds_write`` of each thread's 16 bytes: a race exactly when
    the address makes some lane of one wave read bytes the other wave wrote and no barrier
    separates them; an address the rule cannot evaluate (loaded) is left out."""
    body = WRITE + fence + address + "\tds_read_b128 v[8:11], v2 offset:0\n"
    found = _races(body)
    assert bool(found) == races, found
    if races:
        (first, second, wave, other, byte), = found
        assert (first, second) == (3, body.count("\n") + 1) and {wave, other} == {0, 1}
        assert byte < 2048


def test_two_waves_writing_one_byte_race_and_the_offset_counts():
    """One ``ds_write`` whose lanes of both waves write the same bytes (the lane id, not the
    thread id) races itself; its offset field moves the bytes: a read at offset 16 of the
    next thread's bytes lands in the other wave only at the wave's edge.  Under an ``exec``
    that leaves only wave 0's lanes on, the write is wave 0's alone: no race."""
    same = "\tv_and_b32_e32 v1, 63, v0\n\tv_lshlrev_b32_e32 v1, 4, v1\n" \
           "\tds_write_b128 v1, v[4:7]\n"
    assert _races(same) == [(4, 4, 0, 1, 0)]
    masked = "\ts_movk_i32 s7, 0x40\n\tv_cmp_gt_u32_e32 vcc, s7, v0\n" \
        "\ts_and_saveexec_b64 s[8:9], vcc\n" + same     # exec: wave 0's lanes alone
    assert _races(masked) == []
    edge = WRITE + "\tds_read_b128 v[8:11], v1 offset:16\n"

    assert _races(edge) == [(3, 4, 1, 0, 1024)]      # thread 64 wrote what lane 63 reads


def test_the_interval_runs_through_a_loops_back_edge():
    """A loop that reads the other wave's bytes at its top and writes its own at its bottom,
    its one barrier between: the write of one iteration and the read of the next are in one
    interval through the back edge (a race); with a second barrier after the write, none."""
    loop = ("\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_xor_b32_e32 v2, 0x400, v1\n.LBB0_1:\n"
            "\tds_read_b128 v[8:11], v2\n{fence}\tds_write_b128 v1, v[4:7]\n{back}"
            "\ts_cbranch_scc1 .LBB0_1\n")
    assert _races(loop.format(fence=FENCE, back="")) == [(5, 8, 0, 1, 1024)]
    assert _races(loop.format(fence=FENCE, back=FENCE)) == []


@pytest.mark.parametrize("branch, runs", [
    # on the thread id: the waves may branch apart
    ("\tv_cmp_gt_u32_e32 vcc, 64, v0\n\ts_cbranch_vccnz .LBB0_2\n", False),
    # ... on the wave's id (its first lane's thread id): the same
    ("\tv_readfirstlane_b32 s4, v0\n\ts_cmp_lt_u32 s4, 64\n\ts_cbranch_scc1 .LBB0_2\n", False),
    # ... on the wave's hardware id, or on what a returning atomic gave it: the same
    ("\ts_getreg_b32 s4, hwreg(HW_REG_HW_ID, 8, 4)\n\ts_cmp_lt_u32 s4, 1\n"
     "\ts_cbranch_scc1 .LBB0_2\n", False),
    ("\tglobal_atomic_add v3, v9, v10, s[0:1] sc0\n\ts_waitcnt vmcnt(0)\n"
     "\tv_readfirstlane_b32 s4, v3\n\ts_cmp_lt_u32 s4, 64\n\ts_cbranch_scc1 .LBB0_2\n", False),
    # on a kernel argument: every wave alike (the 4-wave kernels' zero-trip fence)
    ("\ts_load_dword s4, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_cmp_lt_u32 s4, 64\n"
     "\ts_cbranch_scc1 .LBB0_2\n", True),
])
def test_barriers_not_every_wave_passes_leave_the_rule_out(branch, runs):
    """A barrier in a branch that reads the thread id or the wave's id (the ping-pong
    kernels' barrier of one group of waves; its hardware id; a value a returning atomic
    gave it, which each wave gets its own of) makes the intervals differ between waves:
    the rule does not run.  A branch on what every wave holds alike (a kernel argument) is
    taken by every wave alike: the rule runs, and finds the read of the other wave's
    bytes after the branch.  Nor does it run without the workgroup's size (one wave: no
    other wave to race)."""
    body = WRITE + branch + "\ts_barrier\n.LBB0_2:\n" \
        "\tv_xor_b32_e32 v2, 0x400, v1\n\tds_read_b128 v[8:11], v2\n"
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    assert barriers_uniform(fn) is runs
    assert bool(_races(body)) is runs
    assert _races(body.replace("\ts_barrier\n", "")) != []
    assert _races(WRITE + "\tv_xor_b32_e32 v2, 0x400, v1\n\tds_read_b128 v[8:11], v2\n",
                  threads=0) == []


#: an outer loop (its exit on a kernel argument) around a self-loop that writes each
#: thread's 16 bytes and reads the other wave's; after it a branch on the thread id (around
#: no barrier): the waves may branch apart, so which barriers they pass is read off the
#: control flow
_NESTED = ("\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_xor_b32_e32 v2, 0x400, v1\n"
           ".LBB0_1:\n\ts_cmp_eq_u32 s5, 0\n\ts_cbranch_scc1 .LBB0_4\n{before}"
           ".LBB0_2:\n\tds_write_b128 v1, v[4:7]\n{inside}\tds_read_b128 v[8:11], v2\n{inside}"
           "{count}\ts_cmp_eq_u32 s6, 0\n\ts_cbranch_scc0 .LBB0_2\n\ts_branch .LBB0_1\n"
           ".LBB0_4:\n\tv_cmp_gt_u32_e32 vcc, 64, v0\n\ts_cbranch_vccnz .LBB0_5\n"
           "\tds_read_b128 v[12:15], v1\n.LBB0_5:\n")


@pytest.mark.parametrize("before, inside, count, uniform, race", [
    (FENCE, "", "", True, True),        # the barrier only before the self-loop: a race in it
    ("", FENCE, "", True, False),       # a barrier after the write and after the read
    # the self-loop's trip count the wave's id: its waves pass its barriers apart
    ("", FENCE, "\tv_readfirstlane_b32 s6, v0\n", False, False),
])
def test_which_barriers_a_loop_passes_is_read_off_the_branches_that_decide_it(
        before, inside, count, uniform, race):
    """Where the waves may branch apart, a barrier counts as every wave's when no such
    branch decides whether its block runs or how many times (control dependence): a barrier
    before a self-loop inside an outer loop, both loops' trip counts the same in every
    wave, is passed by every wave, and the self-loop, with no barrier of its own, races
    (the second walk of the loop body this replaced took the self-loop's header's
    predecessors into it, judged the barrier in it and the rule left out: the race passed).
    A self-loop whose trip count is the wave's id decides its own barriers: the waves pass
    them apart and the rule does not run (the same loop not nested was judged fenced)."""
    fn = parse_asm(f"kernel:\n{_NESTED.format(before=before, inside=inside, count=count)}"
                   f"\ts_endpgm\n").function()
    fn.threads = 128
    assert barriers_uniform(fn) is uniform
    found = [r.message() for r in lds_races(fn)]
    assert bool(found) is race, found
    if race:
        assert "ds_write_b128 (line 10)" in found[0] and "ds_read_b128" in found[0], found
    top = parse_asm("kernel:\n\tv_readfirstlane_b32 s6, v0\n.LBB0_2:\n\ts_barrier\n"
                    "\ts_sub_u32 s6, s6, 1\n\ts_cbranch_scc0 .LBB0_2\n\ts_endpgm\n").function()
    top.threads = 128
    assert barriers_uniform(top) is False     # a do-while of the wave's trip count


def test_the_workgroups_threads_come_from_the_metadata():
    """``AsmFunction.threads``: the ``.reqd_workgroup_size`` of a kernel whose ``v0`` holds
    the x id alone; 0 with y and z ids packed in (``workitem_id`` 2) or no fixed size."""
    def asm(workitem: int, size: str) -> str:
        return (f"\t.text\n\t.type\tk,@function\nk:\n\ts_endpgm\n.Lfunc_end0:\n"
                f"\t.amdhsa_kernel k\n\t\t.amdhsa_system_vgpr_workitem_id {workitem}\n"
                f"\t.end_amdhsa_kernel\n\t.amdgpu_metadata\n---\namdhsa.kernels:\n"
                f"  - .name: k\n{size}...\n\t.end_amdgpu_metadata\n")

    fixed = "    .reqd_workgroup_size:\n      - 256\n      - 1\n      - 1\n"
    assert parse_asm(asm(0, fixed)).function("k").threads == 256
    assert parse_asm(asm(2, fixed)).function("k").threads == 0
    assert parse_asm(asm(0, "    .max_flat_workgroup_size: 256\n")).function("k").threads == 0


#: the ping-pong kernels' barrier of one group of waves: waves whose thread ids pass the
#: compare run the block the ``s_cbranch_execz`` skips for the others
GROUP = ("\ts_movk_i32 s7, 0x{bound:x}\n\tv_cmp_{cmp}_u32_e32 vcc, s7, v0\n"
         "\ts_and_saveexec_b64 s[8:9], vcc\n\ts_cbranch_execz .LBB0_{n}\n"
         "\ts_barrier\n.LBB0_{n}:\n\ts_or_b64 exec, exec, s[8:9]\n")


@pytest.mark.parametrize("second, mismatch", [
    (GROUP.format(bound=63, cmp="lt", n=3), None),          # 63 < id: wave 1
    (GROUP.format(bound=64, cmp="gt", n=3), [2, 0]),        # 64 > id: wave 0 again
    ("\ts_barrier\n", [1, 0]),                              # moved out of its branch
    (GROUP.format(bound=63, cmp="lt", n=3).replace("s_movk_i32 s7, 0x3f",
                                                   "s_load_dword s7, s[0:1], 0x0"), None),
])
def test_the_waves_pass_as_many_barriers(second, mismatch):
    """Two barriers each only some waves run: wave 0 (ids below 64) the first, wave 1 (ids
    above 63) the second: each passes one.  The second for wave 0 again, or moved out of
    its branch, and the waves pass different numbers (the emulator's
    ``barrier-mismatch``); a bound the rule cannot evaluate (loaded) decides nothing."""
    from pipeline_mlir.isa.wave_groups import barrier_mismatch

    first = GROUP.format(bound=64, cmp="gt", n=2)
    fn = parse_asm(f"kernel:\n{first}\ts_nop 0\n{second}\ts_endpgm\n").function()
    fn.threads = 128
    found = barrier_mismatch(fn)
    assert (found and list(found.counts)) == mismatch, found
    if found:
        assert "the waves pass different numbers of the s_barrier" in found.message()


def test_what_the_rule_cannot_read_is_left_out():
    """An offset that is no number, a ``bitop3`` table that is none: the access, the
    value, are left out (no race, no traceback), and named (``left_out``: the ISA check's
    note ``lds-unknown``), as is a function the rules do not run on at all, and
    ``lds-unwritten`` where it does not run (an LDS write of bytes not known)."""
    assert _races(WRITE + "\tds_read_b128 v[8:11], v1 offset:junk\n") == []
    odd = "\tv_bitop3_b32 v2, v1, 0x400, v1 bitop3:zz\n\tds_read_b128 v[8:11], v2\n"
    assert _races(WRITE + odd) == []
    assert _races(WRITE + odd.replace("zz", "0x3c")) != []

    def named(body):
        fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
        fn.threads = 128
        return left_out(fn, lds_map(fn))
    assert named(WRITE + odd.replace("zz", "0x3c")) is None
    lines, message = named(WRITE + odd)
    assert lines == (5,) and message.startswith("1 of the 2 LDS accesses (lines 5)")
    assert "lds-unwritten" not in message
    # a write of bytes not known: lds-unwritten does not run at all (a read of bytes no
    # write fills passes it), which the note says
    blind = WRITE + odd.replace("ds_read_b128 v[8:11], v2", "ds_write_b128 v2, v[4:7]") + \
        "\tds_read_b128 v[8:11], v1 offset:4096\n"
    fn = parse_asm(f"kernel:\n{blind}\ts_endpgm\n").function()
    fn.threads = 128
    assert lds_map(fn).unwritten == {}
    lines, message = named(blind)
    assert lines == (5,) and message.endswith(
        "but for lds-unwritten, which does not run at all with an LDS write among them "
        "(lines 5)")
    apart = WRITE + "\tv_cmp_gt_u32_e32 vcc, 64, v0\n\ts_cbranch_vccnz .LBB0_2\n" \
        "\ts_barrier\n.LBB0_2:\n"
    lines, message = named(apart)
    assert lines == (3,) and "did not run on this function" in message


#: each thread's read address v2: the other wave's bytes (thread id x 16, ^ 1024)
_OTHER = "\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_xor_b32_e32 v2, 0x400, v1\n"
#: exec: the threads below 32 alone (wave 0's first half), the old exec saved in s[4:5]
_HALF = "\tv_cmp_gt_u32_e32 vcc, 32, v0\n\ts_and_saveexec_b64 s[4:5], vcc\n"
_RESTORE = "\ts_or_b64 exec, exec, s[4:5]\n"


@pytest.mark.parametrize("body", [
    # the read's address made its own bytes under exec: the lanes off keep the other wave's
    _OTHER + _HALF + "\tv_mov_b32_e32 v2, v1\n" + _RESTORE,
    # s_movk_i32 sign-extends: 0x8000 is -32768, v2 = v1 + 0x8400 - 0x8000 (not + 0x10400)
    "\tv_lshlrev_b32_e32 v1, 4, v0\n\ts_movk_i32 s0, 0x8000\n\tv_add_u32_e32 v2, 0x8400, v1\n"
    "\tv_add_u32_e32 v2, s0, v2\n",
    # readfirstlane reads the first lane exec leaves on: lane 32, thread 32's 512 in wave 0
    # (not lane 0's 0), then + 512: bytes 1024.. of wave 1
    "\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_cmp_le_u32_e32 vcc, 32, v0\n"
    "\ts_and_saveexec_b64 s[4:5], vcc\n"
    "\tv_readfirstlane_b32 s2, v1\n" + _RESTORE + "\tv_and_b32_e32 v2, 0x1ff, v1\n"
    "\tv_add3_u32 v2, v2, s2, 0x200\n",
])
def test_what_exec_leaves_off_and_immediates_are_read_as_the_hardware_does(body):
    """Lane values the rule must not make up: a VALU result under an ``exec`` that leaves
    lanes off is written to the lanes it leaves on only (the others keep theirs; unknown
    where ``exec`` is not known), ``s_movk_i32``'s immediate is sign-extended, and
    ``v_readfirstlane_b32`` reads the first active lane.  Each body's read touches, in some
    lane, bytes the other wave writes with no barrier between: the race is found, where before
    each was read as the thread's own bytes, or out of the way, and passed."""
    found = _races(WRITE + body + "\tds_read_b128 v[8:11], v2\n")
    assert found, body


@pytest.mark.parametrize("after, apart", [
    ("\tds_write_b128 v1, v[4:7]\n", True),                 # the wave's own bytes again
    ("\tv_xor_b32_e32 v2, 0x400, v1\n\tds_write_b128 v2, v[4:7]\n", False),  # the other's
    ("\tbuffer_load_dword v9, s[0:3], 0 offen lds\n" + WRITE, False),      # a DMA: unread
    ("\tbuffer_load_dword v2, v9, s[0:3], 0 offen\n\ts_waitcnt vmcnt(0)\n"
     "\tds_write_b128 v2, v[4:7]\n", False),                 # a write of unknown bytes
    ("\tv_xor_b32_e32 v2, 0x400, v1\n\tds_read_b128 v[12:15], v2\n\tds_write_b128 v1, "
     "v[4:7]\n", True),                                     # the other's bytes read: no conflict
])
def test_a_read_in_flight_at_a_barrier_is_apart_only_from_bytes_known(after, apart):
    """:meth:`LdsMap.apart` (what lets the register rule pass an LDS read still in flight
    at a barrier): each thread reads its own 16 bytes, no wait, a barrier, then the
    accesses after it; apart only where every LDS write after the barrier has known bytes
    and none of another wave's is among the read's."""
    body = WRITE.split("\tds_write")[0] + "\tds_read_b128 v[8:11], v1\n\ts_barrier\n" + \
        after + "\ts_endpgm\n"
    fn = parse_asm(f"kernel:\n{body}").function()
    fn.threads = 128
    assert lds_map(fn).apart(4, 3) is apart


#: M0 the wave's 1024 bytes (its first lane's thread id x 16): wave 0 0.., wave 1 1024..
_WAVE_M0 = "\tv_readfirstlane_b32 s4, v0\n\ts_lshl_b32 s4, s4, 4\n\ts_mov_b32 m0, s4\n"
#: each lane's 16 bytes from M0 (a DMA to LDS, counted on vmcnt)
_DMA = "\tbuffer_load_dwordx4 v9, s[0:3], 0 offen lds\n"
#: each thread's read of the other wave's 16 bytes
_READ_OTHER = "\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_xor_b32_e32 v2, 0x400, v1\n" \
    "\tds_read_b128 v[8:11], v2\n"


@pytest.mark.parametrize("m0, between, race", [
    (_WAVE_M0, "", "no s_barrier"),                                 # no barrier
    (_WAVE_M0, "\ts_waitcnt vmcnt(0)\n\ts_barrier\n", None),       # landed, then a barrier
    (_WAVE_M0, "\ts_barrier\n", "still in flight"),                 # in flight at the barrier
    (_WAVE_M0, "\ts_waitcnt vmcnt(1)\n\ts_barrier\n", "still in flight"),  # 1 left in flight
    # ... the one a vector load issued after the DMA: the DMA, older, completed
    (_WAVE_M0, "\tbuffer_load_dword v3, v9, s[0:3], 0 offen\n\ts_waitcnt vmcnt(1)\n"
     "\ts_barrier\n", None),
    # the wave's id from bit 6 of its first thread id (s_bfe_u32: offset 6, width 1)
    ("\tv_readfirstlane_b32 s5, v0\n\ts_bfe_u32 s4, s5, 0x10006\n\ts_lshl_b32 s4, s4, 10\n"
     "\ts_mov_b32 m0, s4\n", "\ts_barrier\n", "still in flight"),
    # M0 moved by 1024: wave 0's DMA writes wave 1's bytes, wave 1's beyond them
    (_WAVE_M0 + "\ts_add_i32 m0, m0, 0x400\n", "\ts_waitcnt vmcnt(0)\n\ts_barrier\n", None),
])
def test_an_lds_dmas_bytes_come_from_m0_and_land_when_waited_for(m0, between, race):
    """An LDS DMA writes each lane's bytes at ``M0 + lane x size`` (``M0`` evaluated as the
    other scalar registers are) when it completes: a read of the other wave's bytes races
    it unless a barrier comes between them after an ``s_waitcnt vmcnt`` that completes it
    (``vmcnt(1)`` does when one more vmcnt instruction follows the DMA, not else); a DMA
    still in flight at the barrier belongs to the interval after it too.  Before, the rule
    read no DMA (the 4-wave kernels' loads are all DMAs)."""
    body = m0 + _DMA + between + _READ_OTHER
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    found = lds_races(fn)
    assert [r.message() for r in found if race and race in r.message()] or not race, \
        [r.message() for r in found]
    assert bool(found) == bool(race)
    if "0x400" in m0:       # wave 0 now writes wave 1's bytes, which wave 1 reads
        own = "\tv_lshlrev_b32_e32 v1, 4, v0\n\tds_read_b128 v[8:11], v1\n"
        for base, races in ((m0, True), (_WAVE_M0, False)):
            fn = parse_asm(f"kernel:\n{base}{_DMA}{own}\ts_endpgm\n").function()
            fn.threads = 128
            assert bool(lds_races(fn)) is races, base


@pytest.mark.parametrize("m0, same", [
    ("\ts_load_dword s4, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 m0, s4\n", True),
    # a kernel argument plus the wave's id: not known, not the same in every wave
    ("\ts_load_dword s4, s[0:1], 0x0\n\tv_readfirstlane_b32 s5, v0\n"
     "\ts_waitcnt lgkmcnt(0)\n\ts_add_u32 s4, s4, s5\n\ts_mov_b32 m0, s4\n", False),
    # the wave's id added by s_addk_i32 / s_cmov_b32, which read their destination (the
    # 4-wave 64x192 kernel's prologue M0s: refused as the same in every wave before)
    ("\tv_readfirstlane_b32 s4, v0\n\ts_load_dword s5, s[0:1], 0x0\n"
     "\ts_waitcnt lgkmcnt(0)\n\ts_mul_hi_u32 s4, s4, s5\n\ts_addk_i32 s4, 0x1000\n"
     "\ts_mov_b32 m0, s4\n", False),
    ("\ts_load_dword s5, s[0:1], 0x0\n\tv_readfirstlane_b32 s4, v0\n"
     "\ts_waitcnt lgkmcnt(0)\n\ts_cmp_eq_u32 s5, 0\n\ts_cmov_b32 s4, s5\n"
     "\ts_mov_b32 m0, s4\n", False),
    # a lane mask of the thread ids, one bit set by s_bitset1_b32, which reads its
    # destination (IREE's f16 C += A x B^T + bias 16x191x152 late form's remainder DMA:
    # refused as the same in every wave before, finding 74); the same bit set on a kernel
    # argument: the same in every wave
    ("\tv_cmp_gt_i32_e64 s[2:3], 5, v0\n\ts_bitset1_b32 s2, 14\n\ts_mov_b32 m0, s2\n",
     False),
    ("\ts_load_dword s2, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_bitset1_b32 s2, 14\n"
     "\ts_mov_b32 m0, s2\n", True),
    # ... under an exec of wave 0's lanes alone: one wave writes
    ("\ts_load_dword s4, s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 m0, s4\n"
     "\tv_cmp_gt_u32_e32 vcc, 64, v0\n\ts_and_saveexec_b64 s[8:9], vcc\n", False),
])
def test_an_lds_write_of_the_same_bytes_in_every_wave_races(m0, same):
    """An LDS write whose address the rule cannot compute (``M0`` a kernel argument) but
    that is the same in every wave (computed from no thread or wave id) writes the same
    bytes from every wave: a race whatever the barriers (the 4-wave kernel with one
    ``s_mov_b32 m0`` made to read a kernel argument's register: the emulator's
    ``lds-race``, which the gate passed).  An address the wave's id enters, or an ``exec``
    that leaves one wave on, is no such write; the first is left out."""
    body = m0 + _DMA + "\ts_waitcnt vmcnt(0)\n\ts_barrier\n"
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    found = [r.message() for r in lds_races(fn)]
    assert bool(found) is same, found
    if same:
        assert "writes the same LDS bytes in every wave" in found[0] and "M0" in found[0]


@pytest.mark.parametrize("guards, race", [(True, True), (False, False)])
def test_groups_of_waves_a_barrier_apart_are_paired_in_lockstep(guards, race):
    """Wave 1 alone runs a barrier first (the ping-pong kernels' second group before the
    main loop), then both waves write their own bytes, wait, pass a barrier and read the
    other wave's bytes, and wave 0 alone runs a barrier last: wave 1's barriers are one
    ahead of wave 0's, so wave 0's first barrier (the shared one) meets wave 1's first
    (its own): wave 0 reads wave 1's bytes while wave 1 may still be writing them.  The
    rule pairs the two groups' intervals in lockstep and finds it; read per barrier line,
    the write and the read are a barrier apart.  Without the two barriers only one wave
    runs, they are, and nothing races."""
    first = GROUP.format(bound=63, cmp="lt", n=2) if guards else ""
    last = GROUP.format(bound=64, cmp="gt", n=3) if guards else ""
    body = first + WRITE + FENCE + _READ_OTHER + last
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    assert barriers_uniform(fn) is not guards
    found = [r.message() for r in lds_races(fn)]
    assert bool(found) is race, found
    if race:
        assert "ds_write_b128" in found[0] and "ds_read_b128" in found[0], found


@pytest.mark.parametrize("body, size, outside", [
    (_WAVE_M0 + _DMA, 2048, None),                      # waves 0, 1: bytes 0..2047
    (_WAVE_M0 + _DMA, 2032, (5, 1, 2047)),              # wave 1's last lane past 2032 bytes
    (_WAVE_M0 + _DMA, 0, None),                         # the size not stated: not checked
    (WRITE, 2048, None),
    (WRITE.replace("v[4:7]", "v[4:7] offset:16"), 2048, (3, 1, 2063)),   # the offset counts
    # a base below zero (thread id x 16 - 256, modulo 2^32): the offset brings it back,
    # the address wrapping as the hardware adds it (LLVM folds such offsets) ...
    (WRITE.replace("\tds_", "\tv_add_u32_e32 v1, -256, v1\n\tds_")
     .replace("v[4:7]", "v[4:7] offset:256"), 2048, None),
    # ... and where it does not, the lanes below zero touch bytes at the top of 2^32
    (WRITE.replace("\tds_", "\tv_add_u32_e32 v1, -256, v1\n\tds_")
     .replace("v[4:7]", "v[4:7] offset:128"), 2048, (4, 0, 2**32 - 1)),
    # exec not known: the lanes it may leave off are not held against the size
    ("\ts_load_dwordx2 s[4:5], s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n"
     "\ts_mov_b64 exec, s[4:5]\n" + WRITE.replace("v[4:7]", "v[4:7] offset:16"), 2048, None),
])
def test_an_lds_access_past_the_kernels_lds_is_found(body, size, outside):
    """An LDS access (an LDS DMA from ``M0``, a ``ds_write``) of known address touching a
    byte at or past the kernel's LDS bytes (``.amdhsa_group_segment_fixed_size``) is
    found: the emulator's ``out-of-range`` (the 4-wave kernel with an ``M0`` moved past
    its 32 KiB passed the gate); not where ``exec`` is not known, nor where the size is
    not stated."""
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads, fn.lds_bytes = 128, size
    found = lds_map(fn).outside
    assert [(line, o.wave, o.byte) for line, o in found.items()] == \
        ([outside] if outside else []), found
    if outside:
        assert f"past the kernel's {size} bytes of LDS" in found[outside[0]].message()


@pytest.mark.parametrize("read, write, stale", [
    ("", _DMA, None),                                   # it reads the bytes the loop's DMA writes
    ("\tv_add_u32_e32 v1, 0x800, v1\n", _DMA, 2048),    # ... bytes only the prologue wrote
    ("\tv_add_u32_e32 v1, 0x800, v1\n", "\tds_write_b32 v9, v3\n", None),  # a write not known
    ("\tv_add_u32_e32 v1, 0x800, v1\n", "", None),      # a loop that writes no LDS
])
def test_a_main_loop_read_of_bytes_the_loop_never_writes_is_found(read, write, stale):
    """A pipelined loop refills each stage it reads: a read of the main loop (the loop of
    the MFMAs) of LDS bytes that no LDS write of the loop writes reads what the prologue
    left there on every iteration (the 4-wave FP8 64x64 kernel with a loop DMA given
    another stage's ``M0``: WRONG on the emulator, no race, passed by the gate).  Not
    checked where a write of the loop has bytes not known, or the loop writes no LDS."""
    body = (_WAVE_M0 + "\tv_lshlrev_b32_e32 v1, 4, v0\n" + read + _DMA +
            "\ts_waitcnt vmcnt(0)\n\ts_barrier\n.LBB0_1:\n" + write +
            "\ts_waitcnt vmcnt(0)\n\ts_barrier\n\tds_read_b128 v[8:11], v1\n"
            "\ts_waitcnt lgkmcnt(0)\n\tv_mfma_f32_32x32x16_bf16 a[0:15], v[8:11], v[8:11], a[0:15]\n"
            "\ts_barrier\n\ts_cmp_eq_u32 s5, 0\n\ts_cbranch_scc1 .LBB0_1\n")
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    found = lds_map(fn).stale
    assert [o.byte for o in found.values()] == ([stale] if stale is not None else []), found
    if stale is not None:
        assert "which no LDS write of the loop" in next(iter(found.values())).message()


@pytest.mark.parametrize("offset, unwritten", [(0, None), (0x800, 2048)])
def test_straight_codes_loop_copy_reads_the_prologues_stage(offset, unwritten):
    """Straight code (a pipelined loop LLVM unrolled, cut into phases by the comparison:
    ``isa/unrolled.py``) runs its loop phase once, so that copy's reads of a stage only the
    prologue writes are no ``lds-stale``: IREE's fp8 E5M2 ``A x B`` + ``truncf`` to bf16,
    492x71x2085, whose 1-trip loop copy reads the stage its prologue filled, exact on the
    emulator, was refused so.  A read of bytes nothing writes first is still found, by
    ``lds-unwritten``."""
    from pipeline_mlir.isa.unrolled import _Straight

    body = (_WAVE_M0 + "\tv_lshlrev_b32_e32 v1, 4, v0\n" + _DMA + "\ts_waitcnt vmcnt(0)\n"
            "\ts_barrier\n\ts_add_i32 m0, s4, 0x1000\n" + _DMA +     # the next stage's refill
            f"\tv_add_u32_e32 v1, {offset:#x}, v1\n"
            "\tds_read_b128 v[8:11], v1\n\ts_waitcnt lgkmcnt(0)\n"
            "\tv_mfma_f32_32x32x16_bf16 a[0:15], v[8:11], v[8:11], a[0:15]\n\ts_barrier\n")
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    instrs = fn.instrs()
    cut = next(k for k, i in enumerate(instrs) if i.kind == "barrier") + 1
    whole = _Straight(fn.name, fn.blocks, fn.line, 128, fn.lds_bytes,
                      phases={"prologue": instrs[:cut], "loop": instrs[cut:], "epilogue": []})
    found = lds_map(whole)
    assert not found.stale, found.stale
    assert [o.byte for o in found.unwritten.values()] == \
        ([unwritten] if unwritten is not None else []), found.unwritten
    # the same code as a loop's body reads, every iteration, bytes the loop never writes
    fn.threads = 128
    fn.main_loop_phases = lambda: whole.phases
    assert [o.byte for o in lds_map(fn).stale.values()] == [offset], lds_map(fn).stale


@pytest.mark.parametrize("prologue, branch, unwritten", [
    ("\ts_mov_b32 m0, s4\n", "", None),          # the prologue fills the stage the loop reads
    ("\ts_add_i32 m0, s4, 0x800\n", "", 0),      # ... another stage's M0: bytes 0.. unfilled
    # the prologue's DMA on one side of a branch (on a kernel argument): not on every path
    ("\ts_mov_b32 m0, s4\n", "\ts_cmp_eq_u32 s6, 0\n\ts_cbranch_scc1 .LBB0_9\n", 0),
])
def test_a_read_of_bytes_no_write_fills_first_is_found(prologue, branch, unwritten):
    """A read of an LDS byte that some path from the entry reaches with no LDS write of it
    before (the bytes written on every path, through the loop's back edge too) reads what
    LDS held before the kernel: the 4-wave FP8 64x64 kernel with a prologue DMA given
    another stage's ``M0`` (WRONG on the emulator; no race, and the loop refills the stage,
    so no ``lds-stale``) passed the gate.  The loop's own refill does not count for its
    first iteration."""
    body = ("\tv_readfirstlane_b32 s4, v0\n\ts_lshl_b32 s4, s4, 4\n"
            "\tv_lshlrev_b32_e32 v1, 4, v0\n" + branch + prologue + _DMA + ".LBB0_9:\n"
            "\ts_waitcnt vmcnt(0)\n\ts_barrier\n.LBB0_1:\n\tds_read_b128 v[8:11], v1\n"
            "\ts_waitcnt lgkmcnt(0)\n"
            "\tv_mfma_f32_32x32x16_bf16 a[0:15], v[8:11], v[8:11], a[0:15]\n"
            "\ts_barrier\n\ts_mov_b32 m0, s4\n" + _DMA + "\ts_waitcnt vmcnt(0)\n"
            "\ts_barrier\n\ts_cmp_eq_u32 s5, 0\n\ts_cbranch_scc1 .LBB0_1\n")
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    found = lds_map(fn)
    assert not found.races() and not found.stale
    assert [o.byte for o in found.unwritten.values()] == \
        ([unwritten] if unwritten is not None else []), found.unwritten
    if unwritten is not None:
        (line, o), = found.unwritten.items()
        assert o.instr.mnemonic == "ds_read_b128" and "before it on some path" in o.message()


@pytest.mark.parametrize("bound, mask, unwritten", [
    (96, 0x3F0, None),      # every wave has a lane on: no wave skips the write
    (96, 0x7F0, (1, 1536)),  # threads 96.. read bytes no thread below 96 writes
    (32, 0x3F0, (0, 0)),    # wave 1 skips it (no lane on): a path with no write
])
def test_a_branch_around_a_masked_write_no_wave_takes_is_no_path(bound, mask, unwritten):
    """The threads below ``bound`` write their 16 bytes under an ``s_cbranch_execz`` around
    the write (as LLVM branches around a masked region), every thread reads ``tid x 16 &
    mask`` after the barrier: where ``exec`` leaves a lane on in every wave, no wave takes
    the branch and its path, on which nothing is written, is not one ``lds-unwritten``
    follows (it refused the exact first case)."""
    body = ("\tv_lshlrev_b32_e32 v1, 4, v0\n"
            f"\tv_cmp_gt_u32_e32 vcc, {bound}, v0\n\ts_and_saveexec_b64 s[4:5], vcc\n"
            "\ts_cbranch_execz .LBB0_2\n\tds_write_b128 v1, v[4:7]\n.LBB0_2:\n"
            "\ts_or_b64 exec, exec, s[4:5]\n" + FENCE +
            f"\tv_and_b32_e32 v2, {mask:#x}, v1\n\tds_read_b128 v[8:11], v2\n")
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    found = lds_map(fn)
    assert not found.races()
    assert [(o.wave, o.byte) for o in found.unwritten.values()] == \
        ([unwritten] if unwritten else [])


@pytest.mark.parametrize("between, race", [
    ("", "no s_barrier"),                                            # no barrier
    ("\ts_barrier\n", "s_waitcnt lgkmcnt before the barrier"),      # in flight at it
    ("\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n", None),                # read, then a barrier
])
def test_a_read_in_flight_at_a_barrier_races_the_dma_after_it(between, race):
    """An LDS read from registers still in flight at a barrier belongs to the interval after
    it too: another wave's DMA there of the bytes it reads may land first (the ping-pong
    BF16 kernel's loop ``lgkmcnt(8)`` raised by one: ``test_isa_gate.py``).  Before, only
    DMAs in flight were carried over, and the rule passed it."""
    fn = parse_asm(f"kernel:\n{_READ_OTHER}{between}{_WAVE_M0}{_DMA}\ts_endpgm\n").function()
    fn.threads = 128
    found = [r.message() for r in lds_races(fn)]
    assert bool(found) == bool(race) and all(race in m for m in found), found
