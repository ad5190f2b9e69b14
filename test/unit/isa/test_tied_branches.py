"""Paths no run takes (``pipeline_mlir/isa/tied_branches.py``): two branches that test one
scalar register against constants tie their edges, and the ISA check's dataflows (the
in-flight dataflow of ``reg_waits``, the LDS rule's intervals) do not walk a path that takes
them the contradicting ways; anything not proved tied stays walked.  Hand-written assembly
of the zero-trip fence and loop guard LLVM emits, then the two ``4wave{auto_waits=false}``
kernels the gate refused for such a path."""

from __future__ import annotations

import re

import pytest

from build_cache import share_code_objects
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_without_schedule
from pipeline_mlir.isa.reg_waits import in_flight_at_barriers

#: a DMA, a branch over the zero-trip fence on the trip count s20, a branch over the loop on
#: s[20:21]; the fence's and the loop's waits complete the DMA, the path skipping both
#: reaches the epilogue's barrier with it in flight
GUARDS = """kernel:
\tbuffer_load_dword v1, s[4:7], 0 offen lds
\tFENCE_CMP
\ts_cbranch_scc1 .LBB0_3
; %bb.2:
\ts_waitcnt vmcnt(0)
\ts_barrier
.LBB0_3:
\tBETWEEN
\tLOOP_CMP
\ts_and_b64 vcc, exec, s[34:35]
\tLOOP_BRANCH .LBB0_6
; %bb.4:
\ts_waitcnt vmcnt(0)
\ts_barrier
\ts_branch .LBB0_7
.LBB0_6:
\tv_mov_b32_e32 v2, 0
.LBB0_7:
\ts_barrier
\tds_read_b32 v3, v4
\ts_endpgm
"""
TIED = {"FENCE_CMP": "s_cmp_gt_u32 s20, 1", "BETWEEN": "v_mov_b32_e32 v5, 0",
        "LOOP_CMP": "v_cmp_lt_u64_e64 s[34:35], s[20:21], 2", "LOOP_BRANCH": "s_cbranch_vccnz"}


def _flying(**change) -> frozenset:
    """The DMAs in flight at the epilogue's barrier of :data:`GUARDS` with ``change``."""
    text = GUARDS
    for key, value in {**TIED, **change}.items():
        text = text.replace(key, value)
    fn = parse_asm(text).function()
    last = max(i.line for i in fn.instrs() if i.kind == "barrier")
    return in_flight_at_barriers(fn, lambda i: i.kind == "vmem_load_lds").get(last, frozenset())


def test_a_path_two_tied_branches_rule_out_is_not_walked():
    """``s20 > 1`` then ``s[20:21] < 2``: no value takes both, so the DMA the fence or the
    loop completes is in flight at no barrier of a path a run takes.  Also with the pair's
    high half written between: ``s[20:21]`` is at least ``s20`` whatever ``s21`` holds."""
    assert _flying() == frozenset()
    assert _flying(BETWEEN="s_mov_b32 s21, s22") == frozenset()


@pytest.mark.parametrize("change", [
    {"BETWEEN": "s_lshr_b32 s20, s22, 7"},                     # s20 written between
    {"BETWEEN": "s_mov_b64 s[20:21], s[22:23]"},                # the pair written
    {"LOOP_CMP": "v_cmp_lt_u64_e64 s[34:35], s[22:23], 2"},     # another register
    {"FENCE_CMP": "s_cmp_gt_u32 s22, 1"},
    {"FENCE_CMP": "s_cmp_gt_u32 s20, 0"},                       # s20 = 1 takes both
    {"FENCE_CMP": "s_cmp_gt_i32 s20, 1"},                       # signed: not read
    {"FENCE_CMP": "s_cmp_gt_u32 s20, s23"},                     # no constant
    {"LOOP_CMP": "v_cmp_lt_u64_e64 s[34:35], v[20:21], 2"},     # lanes' values
    {"LOOP_BRANCH": "s_cbranch_vccz"},                          # vcc = 0: exec may be
    {"LOOP_CMP": "v_cmp_lt_u64_e64 s[34:35], s[20:21], 2\n\ts_mov_b32 s35, -1"},  # mask
    {"LOOP_CMP": "v_cmp_lt_u64_e64 s[36:37], s[20:21], 2"},     # not the mask's
    {"FENCE_CMP": "s_cmp_gt_u32 s20, 1\n\ts_add_u32 s24, s24, 1"},  # scc set again
    {"FENCE_CMP": "s_cmp_gt_u32 s20, 1\n\ts_lshl1_add_u32 s24, s24, s25"},  # or may be
    {"LOOP_BRANCH": "v_cmpx_le_u32_e32 vcc, 0, v7\n\ts_cbranch_vccnz"}])  # vcc set again
def test_branches_not_proved_tied_stay_walked(change):
    """A write of the register between the two compares, another register, a range some
    value satisfies on both edges, a compare not read here, the ``vcc`` = 0 edge, a mask
    ``vcc`` is not the compare's (a half written after it, another pair), or another
    instruction that sets or may set ``scc`` (any scalar one but waits, barriers and scalar
    loads) or ``vcc`` (a vector compare) before the branch: the path is walked and the DMA
    is in flight at the epilogue's barrier."""
    assert _flying(**change) == frozenset({2})


@pytest.mark.parametrize("fence, loop, tied", [
    ("s_cmp_gt_u32 s21, 0", "v_cmp_lt_u64_e64 s[34:35], s[20:21], 2", True),   # high half
    ("s_cmp_lt_u32 s20, 2", "v_cmp_gt_u64_e64 s[34:35], s[20:21], 1", False),  # s21 > 0
    ("s_cmp_lg_u32 s20, 0", "v_cmp_eq_u64_e64 s[34:35], s[20:21], 0", True),
    ("s_cmp_eq_u32 s20, 3", "v_cmp_ne_u32_e64 s[34:35], s20, 3", False),   # no one range
    ("s_cmp_le_u32 s20, 4", "v_cmp_gt_u32_e64 s[34:35], 4, s20", False),   # 4 > s20 holds
    ("s_cmp_ge_u32 s20, 4", "v_cmp_gt_u32_e64 s[34:35], 4, s20", True)])
def test_the_ranges_of_a_register_and_its_pair(fence, loop, tied):
    """Unsigned ranges: of a 32-bit register, of a pair from its halves; a constant first
    compares mirrored."""
    assert _flying(FENCE_CMP=fence, LOOP_CMP=loop) == (frozenset() if tied else {2})


def test_a_race_on_a_path_a_run_takes_is_still_reported():
    """The fence's wait deleted: the path through the fence and over the loop (a trip count
    of 0 or 1 takes it) reaches the epilogue's barrier with the DMA in flight."""
    text = GUARDS.replace("; %bb.2:\n\ts_waitcnt vmcnt(0)\n", "; %bb.2:\n")
    for key, value in TIED.items():
        text = text.replace(key, value)
    fn = parse_asm(text).function()
    last = max(i.line for i in fn.instrs() if i.kind == "barrier")
    assert 2 in in_flight_at_barriers(fn, lambda i: i.kind == "vmem_load_lds")[last]


@pytest.fixture(scope="module")
def hand_set():
    """The assembly of the two kernels with hand-set waits, built with the gate on (an
    ``asm`` build is always checked; a refusal fails here): about 1.5 s of CPU each, or
    none where the run's build cache holds them."""
    from pipeline_mlir.driver import CompileOptions, compile

    out = {}
    with share_code_objects(emits=("asm",)):
        for spec in ("4wave{auto_waits=false}", "4wave{auto_waits=false wait_vm_last=2}"):
            got = compile(CompileOptions(schedule=spec, emit="asm"))
            assert not got.failed, [d.message for d in got.diagnostics]
            out[spec] = got.output
    return out


def test_the_hand_set_wait_kernels_pass_the_gate(hand_set):
    """Both were refused with ``lds-race`` on the path that skips the zero-trip fence and
    then the loop (docs/iree-audits.md); the emulator runs them exact and race-free."""
    assert set(hand_set) == {"4wave{auto_waits=false}",
                             "4wave{auto_waits=false wait_vm_last=2}"}


def test_the_fence_wait_deleted_from_the_kernel_is_refused(hand_set):
    """The zero-trip fence's wait of ``4wave{auto_waits=false}`` deleted: a zero-trip run
    reads the prologue's stages while their DMAs may be in flight, and the LDS rule says
    so (the path through the fence is one a run takes)."""
    text = hand_set["4wave{auto_waits=false}"]
    fence = re.search(r"s_cbranch_scc1 (\.LBB\d+_\d+)\n; %bb\.\d+:\n(\ts_waitcnt [^\n]*\n)"
                      r"\ts_barrier\n\1:", text)
    assert fence is not None
    cut = text[:fence.start(2)] + text[fence.end(2):]
    kinds = {f.kind for f in check_without_schedule(parse_asm(cut).function(), pipelined=True)}
    assert "lds-race" in kinds
    assert "lds-race" not in {f.kind for f in check_without_schedule(
        parse_asm(text).function(), pipelined=True)}
