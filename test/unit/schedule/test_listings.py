"""Every reference listing of the MI355X schedules (ping-pong, 4-wave, the 4-wave geometry
table, single buffer), checked entry by entry: (tag, stage, subtile, k_offset, wait value,
is_prefetch).

The listings below are what the reference prints for these schedules, written in the
compact notation that ``conftest.py`` parses.  Where a listing is given as a delta of
another one ("identical to (a) except ..."), the delta is applied to the parsed listing
exactly as stated.  Values marked "derived" are not printed by the reference but follow
from its algorithm; the comment at each says which step.
"""

import re

import pytest
from conftest import (
    edge_tuples,
    entry,
    entry_tuples,
    fmt,
    op_tuples,
    parse_edges,
    parse_entries,
)

from pipeline_mlir.schedule.compiler import compile_schedule
from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy
from pipeline_mlir.schedule.edges import (
    derive_cross_stage_rotation_edges,
    derive_edges_from_ops,
    filter_spurious_cross_stage_flow,
)
from pipeline_mlir.errors import VerificationError
from pipeline_mlir.schedules.geometry import four_wave_geometry, ping_pong_geometry
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.program_builder import construct_mma_blocks, derive_main_wait_vm
from pipeline_mlir.schedule.evaluate import asap_lower_bound, evaluate_schedule, greedy_schedule
from pipeline_mlir.schedule.schedulers import optimal_schedule_with_halves
from pipeline_mlir.schedules.fourwave import (
    Pipeline4Wave,
    default_schedule_config,
    kernel_schedule_config,
    kernel_target,
)
from pipeline_mlir.schedules.fourwave import build_schedule as build_4wave
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule, build_schedule
from pipeline_mlir.schedules.single_buffer import SingleBufferSchedule
from pipeline_mlir.schedule.targets import (
    LOAD_A,
    LOAD_B,
    MMA,
    MMA_LOAD_A,
    MMA_LOAD_B,
    AMDScheduleHints,
    mi355x_target,
)
from pipeline_mlir.schedule.types import (
    BARRIER,
    SCHED_GROUP_BARRIER,
    WAIT_LGKM,
    WAIT_VM,
    DepKind,
    KOffsetKind,
    OpRole,
)

K = KOffsetKind
CSP = SchedulingStrategy.CSP
IDENTITY = SchedulingStrategy.IDENTITY


def _csp_auto() -> ScheduleConfig:
    return ScheduleConfig(scheduling=CSP, auto_waits=True)


def _deps(text: str) -> list[tuple]:
    """``3->7 3->7 ...`` kernel_deps (all FLOW d=0)."""
    return [(int(p), int(c), DepKind.FLOW, 0) for p, c in re.findall(r"(\d+)->(\d+)", text)]


def _replace(entries: list[tuple], mapping: dict[str, str]) -> list[tuple]:
    """Apply a listing delta such as "VM(4) everywhere VM(8) appears" to a parsed listing."""
    table = {parse_entries(a)[0]: parse_entries(b)[0] for a, b in mapping.items()}
    return [table.get(t, t) for t in entries]


def _assert_listing(actual: list[tuple], expected: list[tuple]) -> None:
    assert len(actual) == len(expected)
    assert fmt(actual) == fmt(expected)  # readable diff first
    assert actual == expected


# =================================================================================================
# ping-pong
# =================================================================================================

# (idx h=0, idx h=1, tag, channel, stage, subtile, k h=0, k h=1); "os" = 1-h, "s" = h
LOGICAL_HALF_TABLE = [
    (0, 12, LOAD_A, 0, "os", 1, K.K_PREV, K.K0),
    (1, 13, LOAD_A, 0, "s", 0, K.K0, K.K1),
    (2, 14, LOAD_B, 1, "s", 0, K.K0, K.K1),
    (3, 15, LOAD_B, 1, "s", 1, K.K0, K.K1),
    (4, 16, MMA_LOAD_A, 0, "s", 0, K.NONE, K.NONE),
    (5, 17, MMA_LOAD_A, 0, "s", 1, K.NONE, K.NONE),
    (6, 18, MMA_LOAD_B, 1, "s", 0, K.NONE, K.NONE),
    (7, 19, MMA_LOAD_B, 1, "s", 1, K.NONE, K.NONE),
    (8, 20, MMA, -1, 0, 0, K.NONE, K.NONE),
    (9, 21, MMA, -1, 0, 1, K.NONE, K.NONE),
    (10, 22, MMA, -1, 1, 0, K.NONE, K.NONE),
    (11, 23, MMA, -1, 1, 1, K.NONE, K.NONE),
]

PP_BODY_MG1 = """
 0 FB[00]  1 FA[00]  2 GA[11,KPREV]  3 MMA[00] |  4 FB[01]  5 GA[00,K0]  6 MMA[01] |  7 FA[01]  8 GB[00,K0]  9 MMA[10] | 10 GB[01,K0] 11 MMA[11]
12 FB[10] 13 FA[10] 14 GA[01,K0]    15 MMA[00] | 16 FB[11] 17 GA[10,K1] 18 MMA[01] | 19 FA[11] 20 GB[10,K1] 21 MMA[10] | 22 GB[11,K1] 23 MMA[11]
"""

# max_globals=0: half 0 as printed, half 1 "the same shape with GA[01,K0] in block 4 and
# GA[10,K1] GB[10,K1] in block 6"
PP_BODY_MG0 = """
FB[00] FA[00] GA[11,KPREV] MMA[00] | FB[01] MMA[01] | FA[01] GA[00,K0] GB[00,K0] MMA[10] | GB[01,K0] MMA[11]
FB[10] FA[10] GA[01,K0] MMA[00] | FB[11] MMA[01] | FA[11] GA[10,K1] GB[10,K1] MMA[10] | GB[11,K1] MMA[11]
"""

PP_EDGES = """
reg_flow : 0->3 0->9 1->3 1->6 4->6 4->11 7->9 7->11 12->15 12->21 13->15 13->18 16->18 16->23 19->21 19->23  (F0)
accum    : 3->15 6->18 9->21 11->23 (F0)   15->3 18->6 21->9 23->11 (F1)
lds_flow : 2->13 2->19 (F0)  5->1 5->7 8->0 8->4 10->0 10->4 14->1 14->7 17->13 17->19 20->12 20->16 22->12 22->16 (F1)
lds_anti : 0->8 0->10 1->5 1->14 4->8 4->10 7->5 7->14 12->20 12->22 13->17 16->20 16->22 19->17 (A0)
"""

PP_ASAP = "0 0 0 20 0 20 20 0 20 20 20 20 0 200 20 220 0 220 220 200 20 220 20 220"
PP_GREEDY_MG1 = "0 1 2 3 4 6 7 5 8 9 10 11 12 13 14 15 16 18 19 17 20 21 22 23"

# ---- golden (a): DeclarativeSchedule[False,0,0](ScheduleConfig(auto_waits=False)) -------------
PP_A_PROLOGUE = "GA[00,K0] GB[00,K0] GB[01,K0] GA[01,K0] VM(0) BAR GA[10,K1] GB[10,K1] GB[11,K1] VM(0)"
PP_A_KERNEL = """
  0:FB[00] 1:FA[00] 2:GA[11,KPREV] 3:LGKM(8) 4:BAR 5:LGKM(0) 6:PRIO(1) 7:MMA[00] 8:PRIO(0) 9:BAR
  10:SB 11:FB[01] 12:GA[00,K0]* 13:BAR 14:LGKM(0) 15:PRIO(1) 16:MMA[01] 17:PRIO(0) 18:BAR 19:FA[01]
  20:GB[00,K0]* 21:BAR 22:LGKM(0) 23:PRIO(1) 24:MMA[10] 25:PRIO(0) 26:BAR 27:SB 28:GB[01,K0]* 29:VM(6)
  30:BAR 31:PRIO(1) 32:MMA[11] 33:PRIO(0) 34:BAR 35:FB[10] 36:FA[10] 37:GA[01,K0]* 38:LGKM(8) 39:BAR
  40:LGKM(0) 41:PRIO(1) 42:MMA[00] 43:PRIO(0) 44:BAR 45:SB 46:FB[11] 47:GA[10,K1]* 48:BAR 49:LGKM(0)
  50:PRIO(1) 51:MMA[01] 52:PRIO(0) 53:BAR 54:FA[11] 55:GB[10,K1]* 56:BAR 57:LGKM(0) 58:PRIO(1) 59:MMA[10]
  60:PRIO(0) 61:BAR 62:SB 63:GB[11,K1]* 64:VM(6) 65:BAR 66:PRIO(1) 67:MMA[11] 68:PRIO(0) 69:BAR
"""
PP_A_EPILOGUE = """
  0:LGKM(0) 1:FB[00] 2:FA[00] 3:GA[11,KPREV] 4:BAR 5:LGKM(0) 6:PRIO(1) 7:MMA[00] 8:PRIO(0) 9:BAR
  10:LGKM(0) 11:FB[01] 12:VM(0) 13:BAR 14:LGKM(0) 15:PRIO(1) 16:MMA[01] 17:PRIO(0) 18:BAR 19:LGKM(0)
  20:FA[01] 21:VM(0) 22:BAR 23:LGKM(0) 24:PRIO(1) 25:MMA[10] 26:MMA[11] 27:PRIO(0) 28:BAR 29:LGKM(0)
  30:FB[10] 31:FA[10] 32:VM(0) 33:BAR 34:LGKM(0) 35:PRIO(1) 36:MMA[00] 37:PRIO(0) 38:BAR 39:LGKM(0)
  40:FB[11] 41:VM(0) 42:BAR 43:LGKM(0) 44:PRIO(1) 45:MMA[01] 46:PRIO(0) 47:BAR 48:LGKM(0) 49:FA[11]
  50:BAR 51:LGKM(0) 52:PRIO(1) 53:MMA[10] 54:MMA[11] 55:PRIO(0) 56:BAR 57:BAR
"""
PP_A_DEPS = "3->7 3->7 7->16 16->24 38->42 38->42 42->51 51->59"

# ---- golden (b): production BF16, described as a delta of (a) ----------------------------------
PP_B_PROLOGUE = "GB[00,K0] GA[00,K0] GB[01,K0] GA[01,K0] VM(0) BAR GB[10,K1] GA[10,K1] GB[11,K1] VM(0)"
PP_B_KERNEL_SWAPS = {12: "GB[00,K0]*", 20: "GA[00,K0]*", 47: "GB[10,K1]*", 55: "GA[10,K1]*"}

# ---- golden (c): production FP8 (bunched globals) ----------------------------------------------
PP_C_PROLOGUE = PP_A_PROLOGUE
PP_C_KERNEL = """
  0:FB[00] 1:FA[00] 2:GA[11,KPREV] 3:LGKM(8) 4:BAR 5:LGKM(0) 6:PRIO(1) 7:MMA[00] 8:PRIO(0) 9:BAR
  10:SB 11:FB[01] 12:BAR 13:LGKM(0) 14:PRIO(1) 15:MMA[01] 16:PRIO(0) 17:BAR 18:FA[01] 19:GA[00,K0]*
  20:GB[00,K0]* 21:BAR 22:LGKM(0) 23:PRIO(1) 24:MMA[10] 25:PRIO(0) 26:BAR 27:SB 28:GB[01,K0]* 29:VM(6)
  30:BAR 31:PRIO(1) 32:MMA[11] 33:PRIO(0) 34:BAR 35:FB[10] 36:FA[10] 37:GA[01,K0]* 38:LGKM(8) 39:BAR
  40:LGKM(0) 41:PRIO(1) 42:MMA[00] 43:PRIO(0) 44:BAR 45:SB 46:FB[11] 47:BAR 48:LGKM(0) 49:PRIO(1)
  50:MMA[01] 51:PRIO(0) 52:BAR 53:FA[11] 54:GA[10,K1]* 55:GB[10,K1]* 56:BAR 57:LGKM(0) 58:PRIO(1) 59:MMA[10]
  60:PRIO(0) 61:BAR 62:SB 63:GB[11,K1]* 64:VM(6) 65:BAR 66:PRIO(1) 67:MMA[11] 68:PRIO(0) 69:BAR
"""
PP_C_EPILOGUE = """
  0:LGKM(0) 1:FB[00] 2:FA[00] 3:GA[11,KPREV] 4:BAR 5:LGKM(0) 6:PRIO(1) 7:MMA[00] 8:PRIO(0) 9:BAR
  10:LGKM(0) 11:FB[01] 12:BAR 13:LGKM(0) 14:PRIO(1) 15:MMA[01] 16:PRIO(0) 17:BAR 18:LGKM(0) 19:FA[01]
  20:VM(0) 21:BAR 22:LGKM(0) 23:PRIO(1) 24:MMA[10] 25:MMA[11] 26:PRIO(0) 27:BAR 28:LGKM(0) 29:FB[10]
  30:FA[10] 31:VM(0) 32:BAR 33:LGKM(0) 34:PRIO(1) 35:MMA[00] 36:PRIO(0) 37:BAR 38:LGKM(0) 39:FB[11]
  40:VM(0) 41:BAR 42:LGKM(0) 43:PRIO(1) 44:MMA[01] 45:PRIO(0) 46:BAR 47:LGKM(0) 48:FA[11] 49:BAR
  50:LGKM(0) 51:PRIO(1) 52:MMA[10] 53:MMA[11] 54:PRIO(0) 55:BAR 56:BAR
"""
PP_C_DEPS = "3->7 3->7 7->15 15->24 38->42 38->42 42->50 50->59"


def _pp_a():
    return build_schedule(False, 0, 0, ScheduleConfig(auto_waits=False))


def _pp_b(target=None, lgkm=(8, 4)):
    return build_schedule(False, lgkm[0], lgkm[1], _csp_auto(), target or mi355x_target(2, 2, 1))


def _pp_c():
    return build_schedule(True, 8, 4, _csp_auto(), mi355x_target(2, 2, 0))


def _pp_b_kernel() -> list[tuple]:
    kernel = parse_entries(PP_A_KERNEL)
    for i, tok in PP_B_KERNEL_SWAPS.items():
        kernel[i] = parse_entries(tok)[0]
    return kernel


def test_pp_logical_half_table():
    ops = DeclarativeSchedule().declare_ops()
    assert len(ops) == 24
    for i0, i1, tag, ch, st, sub, k0, k1 in LOGICAL_HALF_TABLE:
        for h, idx, k in ((0, i0, k0), (1, i1, k1)):
            stage = {"s": h, "os": 1 - h}.get(st, st)
            o = ops[idx]
            assert (o.tag, o.channel, o.stage, o.subtile, o.k_offset) == (tag, ch, stage, sub, k), idx


def test_pp_logical_prefetch_and_completion_loads():
    from pipeline_mlir.schedule.types import is_prefetch
    ops = DeclarativeSchedule().declare_ops()
    loads = [i for i, o in enumerate(ops) if o.tag in (LOAD_A, LOAD_B)]
    assert [i for i in loads if not is_prefetch(ops[i])] == [0]  # only the K_PREV load
    assert sum(1 for i in loads if is_prefetch(ops[i])) == 7
    # stage-based completion loads (stage != half): index 0 (stage 1) and 12 (stage 0)
    assert [i for i in loads if ops[i].stage != (0 if i < 12 else 1)] == [0, 12]


@pytest.mark.parametrize("is_fp8", [False, True])
def test_pp_reordered_body_max_globals_1(is_fp8):
    body = DeclarativeSchedule(is_fp8, 8, 4, _csp_auto(), mi355x_target(2, 2, 1)).build_body()
    _assert_listing(op_tuples(body), parse_entries(PP_BODY_MG1))


def test_pp_reordered_body_max_globals_0():
    body = DeclarativeSchedule(True, 8, 4, _csp_auto(), mi355x_target(2, 2, 0)).build_body()
    _assert_listing(op_tuples(body), parse_entries(PP_BODY_MG0))


def test_pp_edges_54_in_order():
    s = DeclarativeSchedule()
    body = s.build_body()
    edges = s.derive_edges(body)
    expected = parse_edges(PP_EDGES)
    assert len(expected) == 54
    assert edge_tuples(edges) == edge_tuples(expected)
    kinds = [(e.dep_kind, e.loop_distance > 0) for e in edges]
    assert kinds.count((DepKind.FLOW, False)) == 22
    assert kinds.count((DepKind.FLOW, True)) == 18
    assert kinds.count((DepKind.ANTI, False)) == 14
    assert s.config().total_edges() == 54


def _pp_ldg(target=None):
    s = DeclarativeSchedule(False, 8, 4, _csp_auto(), target)
    body = s.build_body()
    return LoopBody.of(body, s.derive_edges(body))


def test_pp_asap():
    ldg = _pp_ldg()
    assert ldg.asap() == [int(x) for x in PP_ASAP.split()]
    assert asap_lower_bound(ldg) == 420
    assert ldg.makespan_bound() == 420


@pytest.mark.parametrize("max_globals,expected", [(1, PP_GREEDY_MG1), (0, None)])
def test_pp_greedy_and_csp_orders(max_globals, expected):
    ldg = _pp_ldg(mi355x_target(2, 2, max_globals))
    want = [int(x) for x in expected.split()] if expected else list(range(24))
    assert greedy_schedule(ldg) == want
    assert evaluate_schedule(ldg, want) == (420, 96)
    res = optimal_schedule_with_halves(ldg, max_globals)
    assert res.order == want
    assert (res.makespan, res.vgpr_peak, res.lower_bound) == (420, 96, 420)
    assert res.proven_optimal


def test_pp_blocks_before_and_after_redistribution():
    s = DeclarativeSchedule(False, 8, 4, _csp_auto(), mi355x_target(2, 2, 1))
    body = s.build_body()
    ldg = LoopBody.of(body, s.derive_edges(body))
    order = [int(x) for x in PP_GREEDY_MG1.split()]
    raw = construct_mma_blocks(ldg, order, s.config(), s.schedule_config())
    assert [len(b.globals) for b in raw.blocks] == [1, 0, 2, 1] * 2
    final = build_schedule(False, 8, 4, _csp_auto(), mi355x_target(2, 2, 1)).program
    got = [op_tuples(b.globals) for b in final.blocks]
    want = [parse_entries(t) for t in ("GA[11,KPREV]", "GB[00,K0]", "GA[00,K0]", "GB[01,K0]",
                                       "GA[01,K0]", "GB[10,K1]", "GA[10,K1]", "GB[11,K1]")]
    assert got == want


def test_pp_golden_a_identity_manual_waits():
    c = _pp_a()
    assert c.sched.scheduling == IDENTITY
    _assert_listing(entry_tuples(c.prologue), parse_entries(PP_A_PROLOGUE))
    _assert_listing(entry_tuples(c.kernel), parse_entries(PP_A_KERNEL))
    _assert_listing(entry_tuples(c.epilogue), parse_entries(PP_A_EPILOGUE))
    assert (len(c.prologue), len(c.kernel), len(c.epilogue)) == (10, 70, 58)
    assert edge_tuples(c.kernel_deps) == _deps(PP_A_DEPS)
    assert c.warp_stagger_index == 4
    # prologue loads: vm_cost 4 (mi355x_target()); the port keeps the channel (reference: -1)
    loads = [e.op for e in c.prologue if e.op.role == OpRole.GLOBAL_LOAD]
    assert [o.vm_cost for o in loads] == [4] * 7
    assert all(o.channel == (0 if o.tag == LOAD_A else 1) for o in loads)


def test_pp_golden_b_production_bf16():
    c = _pp_b()
    _assert_listing(entry_tuples(c.prologue), parse_entries(PP_B_PROLOGUE))
    _assert_listing(entry_tuples(c.kernel), _pp_b_kernel())
    _assert_listing(entry_tuples(c.epilogue), parse_entries(PP_A_EPILOGUE))
    assert edge_tuples(c.kernel_deps) == _deps(PP_A_DEPS)
    assert c.warp_stagger_index == 4
    assert [e.op.vm_cost for e in c.prologue if e.op.role == OpRole.GLOBAL_LOAD] == [2] * 7
    assert c.lgkm_per_load == (8, 4)
    assert (c.waits.lgkm, c.waits.vm) == (8, 6)


def test_pp_golden_b_with_default_target_only_vm_changes():
    """"With mi355x_target(4,4,1) and lgkm 8/8 (tests) the only change is VM(12)"."""
    c = _pp_b(mi355x_target(4, 4, 1), (8, 8))
    _assert_listing(entry_tuples(c.kernel), _replace(_pp_b_kernel(), {"VM(6)": "VM(12)"}))
    _assert_listing(entry_tuples(c.prologue), parse_entries(PP_B_PROLOGUE))
    _assert_listing(entry_tuples(c.epilogue), parse_entries(PP_A_EPILOGUE))


def test_pp_golden_c_production_fp8():
    c = _pp_c()
    _assert_listing(entry_tuples(c.prologue), parse_entries(PP_C_PROLOGUE))
    _assert_listing(entry_tuples(c.kernel), parse_entries(PP_C_KERNEL))
    _assert_listing(entry_tuples(c.epilogue), parse_entries(PP_C_EPILOGUE))
    assert (len(c.prologue), len(c.kernel), len(c.epilogue)) == (10, 70, 57)
    assert edge_tuples(c.kernel_deps) == _deps(PP_C_DEPS)
    assert c.warp_stagger_index == 4


@pytest.mark.parametrize("vm,lgkm_a,lgkm_b", [(4, 8, 8), (2, 8, 4), (4, 5, 3), (1, 2, 7)])
def test_pp_auto_waits(vm, lgkm_a, lgkm_b):
    """Auto waits: lgkm of block 0's global (LOAD_A in both halves) = lgkm_per_load_a;
    vm = 4*vm - vm (one completion load per half)."""
    c = build_schedule(False, lgkm_a, lgkm_b, _csp_auto(), mi355x_target(vm, vm, 1))
    assert (c.waits.lgkm, c.waits.vm) == (lgkm_a, 3 * vm)
    waits = [(e.op.tag, e.op.wait_value) for e in c.kernel if e.op.tag in (WAIT_LGKM, WAIT_VM)
             and not (e.op.tag == WAIT_LGKM and e.op.wait_value == 0)]
    assert waits == [(WAIT_LGKM, lgkm_a), (WAIT_VM, 3 * vm)] * 2


def test_pp_manual_waits():
    c = _pp_a()
    assert c.waits is None
    b = c.program.blocks
    assert [(b[i].pre_sync.tag, b[i].pre_sync.wait_value) for i in (0, 3, 4, 7)] == [
        (WAIT_LGKM, 8), (WAIT_VM, 6), (WAIT_LGKM, 8), (WAIT_VM, 6)]
    assert not any(x.entry_wait.is_present() for x in b)
    assert [x.trailing_sched_barrier for x in b] == [True, False] * 4


@pytest.mark.parametrize("dtype,BM,BN,BK,vm,lgkm,mg", [
    ("bf16", 256, 256, 64, (2, 2), (8, 4), 1),
    ("fp8", 256, 256, 128, (2, 2), (8, 4), 0),
    ("fp8", 128, 256, 128, (1, 2), (4, 4), 0),
])
def test_pp_kernel_geometry_table(dtype, BM, BN, BK, vm, lgkm, mg):
    g = ping_pong_geometry(dtype, BM, BN, BK)
    assert (g.vm_per_load_a, g.vm_per_load_b) == vm
    assert (g.lgkm_per_load_a, g.lgkm_per_load_b) == lgkm
    assert g.max_globals == mg


# =================================================================================================
# 4-wave
# =================================================================================================

FW_BODY = """
 0 GA[00,K0]  1 FB[01]  2 MMA[00] |  3 GB[00,K0]  4 FA[01]  5 MMA[01] |  6 GB[01,K0]  7 FA[10]  8 MMA[10] |  9 GA[01,K0] 10 FB[10] 11 MMA[11]
12 GA[10,K1] 13 FB[11] 14 MMA[00] | 15 GB[10,K1] 16 FA[11] 17 MMA[01] | 18 GB[11,K1] 19 FA[00] 20 MMA[10] | 21 GA[11,K1] 22 FB[00] 23 MMA[11]
"""

FW_EDGES = """
reg_flow : 1->5 1->11 4->8 4->11 13->17 13->23 16->20 16->23 (F0)
accum    : 2->14 5->17 8->20 11->23 (F0)  14->2 17->5 20->8 23->11 (F1)
lds_flow : 0->4 0->19 3->1 3->22 6->1 6->22 9->4 9->19 12->7 12->16 15->10 15->13 18->10 18->13 21->7 21->16 (all F1)
lds_anti : 1->3 1->6 4->0 4->9 7->12 7->21 10->15 10->18 13->15 13->18 16->12 16->21 19->0 19->9 22->3 22->6 (A0)
cross    : 2->7A0 5->7A0 7->14F0 7->17F0 2->10A0 8->10A0 10->14F0 10->20F0 19->2F1 19->5F1 14->19A0 17->19A0
           22->2F1 22->8F1 14->22A0 20->22A0
"""

# FP8 BM=BN=128, BK=128
FW_FP8_PROLOGUE = """GA[00,K0] GB[00,K0] GB[01,K0] GA[01,K0] GA[10,K1] GB[10,K1] GB[11,K1] GA[11,K1]
               VM(14) BAR FA[00] VM(12) BAR FB[00]"""
FW_FP8_KERNEL = """
  0:VM(8) 1:LGKM(4) 2:BAR 3:FB[01] 4:SB 5:GA[00,K0] 6:MMA[00] 7:LGKM(0) 8:FA[01] 9:SB
  10:GB[00,K0] 11:MMA[01] 12:VM(8) 13:LGKM(0) 14:BAR 15:FA[10] 16:SB 17:GB[01,K0] 18:MMA[10] 19:FB[10]
  20:SB 21:GA[01,K0] 22:VM(8) 23:MMA[11] 24:VM(8) 25:LGKM(4) 26:BAR 27:FB[11] 28:SB 29:GA[10,K1]
  30:MMA[00] 31:LGKM(0) 32:FA[11] 33:SB 34:GB[10,K1] 35:MMA[01] 36:VM(8) 37:LGKM(0) 38:BAR 39:FA[00]
  40:SB 41:GB[11,K1] 42:MMA[10] 43:FB[00] 44:SB 45:GA[11,K1] 46:VM(8) 47:MMA[11]
"""
FW_EPILOGUE = """
  0:LGKM(0) 1:FB[01] 2:VM(0) 3:MMA[00] 4:LGKM(0) 5:FA[01] 6:VM(0) 7:MMA[01] 8:LGKM(0) 9:FA[10]
  10:VM(0) 11:MMA[10] 12:LGKM(0) 13:FB[10] 14:VM(0) 15:MMA[11] 16:LGKM(0) 17:FB[11] 18:VM(0) 19:MMA[00]
  20:LGKM(0) 21:FA[11] 22:VM(0) 23:MMA[01] 24:LGKM(0) 25:FA[00] 26:VM(0) 27:MMA[10] 28:LGKM(0) 29:FB[00]
  30:MMA[11] 31:BAR
"""
FW_FP8_DEPS = "0->6 1->6 6->11 11->18 24->30 25->30 30->35 35->42"

# BF16 BM=BN=128, BK=64 ("prologue (14): same loads, VM(14) BAR FA[00] VM(12) BAR FB[00]")
FW_BF16_PROLOGUE = FW_FP8_PROLOGUE
FW_BF16_KERNEL = """
  0:SB 1:VM(8) 2:LGKM(4) 3:BAR 4:SB 5:FB[01] 6:SB 7:GA[00,K0] 8:MMA[00] 9:SB
  10:LGKM(0) 11:SB 12:FA[01] 13:SB 14:GB[00,K0] 15:MMA[01] 16:SB 17:VM(8) 18:LGKM(0) 19:BAR
  20:SB 21:FA[10] 22:SB 23:GB[01,K0] 24:MMA[10] 25:FB[10] 26:SB 27:GA[01,K0] 28:SB 29:VM(8)
  30:SB 31:MMA[11] 32:SB 33:VM(8) 34:LGKM(4) 35:BAR 36:SB 37:FB[11] 38:SB 39:GA[10,K1]
  40:MMA[00] 41:SB 42:LGKM(0) 43:SB 44:FA[11] 45:SB 46:GB[10,K1] 47:MMA[01] 48:SB 49:VM(8)
  50:LGKM(0) 51:BAR 52:SB 53:FA[00] 54:SB 55:GB[11,K1] 56:MMA[10] 57:FB[00] 58:SB 59:GA[11,K1]
  60:SB 61:VM(8) 62:SB 63:MMA[11]
"""
FW_BF16_DEPS = "1->8 2->8 8->15 15->24 33->40 34->40 40->47 47->56"

# (dtype, BM, BN, BK) -> (prologue, kernel, epilogue, deps), with the stated deltas
FW_LISTINGS = {
    ("fp8", 128, 128, 128): (FW_FP8_PROLOGUE, FW_FP8_KERNEL, {}, {}, FW_FP8_DEPS),
    # "identical shape with prologue waits VM(7), VM(6), kernel VM(4) everywhere VM(8) appears
    # and LGKM(2) where LGKM(4) appears; epilogue identical"
    ("fp8", 64, 64, 128): (FW_FP8_PROLOGUE, FW_FP8_KERNEL, {"VM(14)": "VM(7)", "VM(12)": "VM(6)"},
                           {"VM(8)": "VM(4)", "LGKM(4)": "LGKM(2)"}, FW_FP8_DEPS),
    ("bf16", 128, 128, 64): (FW_BF16_PROLOGUE, FW_BF16_KERNEL, {}, {}, FW_BF16_DEPS),
    # "same as BK=64 with VM(16)/LGKM(8) in the kernel and prologue VM(28), VM(24)"
    ("bf16", 128, 128, 128): (FW_BF16_PROLOGUE, FW_BF16_KERNEL, {"VM(14)": "VM(28)", "VM(12)": "VM(24)"},
                              {"VM(8)": "VM(16)", "LGKM(4)": "LGKM(8)"}, FW_BF16_DEPS),
}

# 4-wave geometry table: vm a/b, lgkm a/b, max_globals, fences, main_wait_vm, prologue waits,
# last-block vm
FW_GEOMETRY_TABLE = {
    ("fp8", 128, 128, 128): ((2, 2), (4, 4), 0, False, 8, (14, 12), 8),
    ("fp8", 64, 64, 128): ((1, 1), (2, 2), 0, False, 4, (7, 6), 4),
    ("bf16", 128, 128, 64): ((2, 2), (4, 4), 1, True, 8, (14, 12), 8),
    ("f16", 128, 128, 64): ((2, 2), (4, 4), 1, True, 8, (14, 12), 8),
    ("bf16", 128, 128, 128): ((4, 4), (8, 8), 1, True, 16, (28, 24), 16),
    ("f16", 128, 128, 128): ((4, 4), (8, 8), 1, True, 16, (28, 24), 16),
}


def _fw(dtype, BM, BN, BK):
    g = four_wave_geometry(dtype, BM, BN, BK)
    return build_4wave(g, kernel_schedule_config(g), kernel_target(g))


def test_fw_body():
    c = _fw("bf16", 128, 128, 64)
    _assert_listing(op_tuples(c.body), parse_entries(FW_BODY))
    # cross-stage frags: 7, 10 (stage 1) and 19, 22 (stage 0)
    cross = [i for i, o in enumerate(c.body)
             if o.role == OpRole.FRAGMENT_LOAD and o.stage != (0 if i < 12 else 1)]
    assert cross == [7, 10, 19, 22]
    assert c.order == list(range(24))


def test_fw_edges_64_in_order():
    s = Pipeline4Wave()
    body = s.build_body()
    expected = parse_edges(FW_EDGES)
    assert len(expected) == 64
    assert edge_tuples(s.derive_edges(body)) == edge_tuples(expected)
    raw = derive_edges_from_ops(body, s.config())
    assert len(raw) == 48
    assert edge_tuples(filter_spurious_cross_stage_flow(raw, body)) == edge_tuples(raw)
    assert edge_tuples(raw) == edge_tuples(expected[:48])
    cross = derive_cross_stage_rotation_edges(body)
    assert edge_tuples(cross) == edge_tuples(expected[48:])
    assert sum(1 for e in cross if e.dep_kind == DepKind.FLOW) == 8


@pytest.mark.parametrize("key", list(FW_LISTINGS), ids=lambda k: f"{k[0]}_{k[1]}x{k[2]}x{k[3]}")
def test_fw_listing(key):
    pro, ker, pro_delta, ker_delta, deps = FW_LISTINGS[key]
    c = _fw(*key)
    _assert_listing(entry_tuples(c.prologue), _replace(parse_entries(pro), pro_delta))
    _assert_listing(entry_tuples(c.kernel), _replace(parse_entries(ker), ker_delta))
    _assert_listing(entry_tuples(c.epilogue), parse_entries(FW_EPILOGUE))
    assert edge_tuples(c.kernel_deps) == _deps(deps)
    assert c.warp_stagger_index == 15 == len(c.prologue) + 1
    fences = key[0] != "fp8"
    assert (len(c.prologue), len(c.kernel), len(c.epilogue)) == (14, 64 if fences else 48, 32)


@pytest.mark.parametrize("key", list(FW_GEOMETRY_TABLE), ids=lambda k: f"{k[0]}_{k[1]}x{k[2]}x{k[3]}")
def test_fw_program_blocks(key):
    """The 4.4 block table, with mv = main_wait_vm = 4*vm, wl = lgkm_per_load_a, wv = 4*vm."""
    c = _fw(*key)
    g = four_wave_geometry(*key)
    mv = wv = 4 * g.vm_per_load_a
    wl = g.lgkm_per_load_a
    rows = [  # frag, global, entry_wait, entry_wait_lgkm, pre_sync
        ("FB[01]", "GA[00,K0]", f"VM({mv})", f"LGKM({wl})", None),
        ("FA[01]", "GB[00,K0]", None, "LGKM(0)", None),
        ("FA[10]", "GB[01,K0]", f"VM({mv})", "LGKM(0)", None),
        ("FB[10]", "GA[01,K0]", None, None, f"VM({wv})"),
        ("FB[11]", "GA[10,K1]", f"VM({mv})", f"LGKM({wl})", None),
        ("FA[11]", "GB[10,K1]", None, "LGKM(0)", None),
        ("FA[00]", "GB[11,K1]", f"VM({mv})", "LGKM(0)", None),
        ("FB[00]", "GA[11,K1]", None, None, f"VM({wv})"),
    ]

    def slot(op):
        return op_tuples([op])[0] if op.is_present() else None

    def want(tok):
        return parse_entries(tok)[0] if tok else None

    for i, (frag, glob, ew, ewl, ps) in enumerate(rows):
        b = c.program.blocks[i]
        assert op_tuples(b.frags) == parse_entries(frag), i
        assert op_tuples(b.globals) == parse_entries(glob), i
        assert (slot(b.entry_wait), slot(b.entry_wait_lgkm), slot(b.pre_sync)) == (
            want(ew), want(ewl), want(ps)), i
        assert not (b.pre_mma_barrier or b.pre_mma_set_prio or b.post_mma_barrier
                    or b.post_mma_set_prio or b.post_barrier_lgkm), i
    assert sum(1 for e in c.kernel if e.op.tag == BARRIER) == 4


@pytest.mark.parametrize("key", list(FW_GEOMETRY_TABLE), ids=lambda k: f"{k[0]}_{k[1]}x{k[2]}x{k[3]}")
def test_fw_geometry_table(key):
    vm, lgkm, mg, fences, main_wait, pro_waits, last_vm = FW_GEOMETRY_TABLE[key]
    g = four_wave_geometry(*key)
    assert (g.vm_per_load_a, g.vm_per_load_b) == vm
    assert (g.lgkm_per_load_a, g.lgkm_per_load_b) == lgkm
    assert g.max_globals == mg
    assert g.fences is fences
    c = _fw(*key)
    assert derive_main_wait_vm(c.body, c.config) == main_wait
    assert [e.op.wait_value for e in c.prologue if e.op.tag == WAIT_VM] == list(pro_waits)
    assert c.waits.vm == last_vm
    assert c.program.blocks[3].pre_sync.wait_value == c.program.blocks[7].pre_sync.wait_value == last_vm
    mma = (16, 16, 128) if key[0] == "fp8" else (16, 16, 32)
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == mma


def _cfg_values(cfg: ScheduleConfig) -> str:
    return " ".join(str(int(v)) if not isinstance(v, bool) else str(v) for v in cfg.values())


def test_schedule_config_defaults_printed():
    # as the reference prints its default ScheduleConfig() and the 4-wave _default_schedule_config()
    assert _cfg_values(ScheduleConfig()) == \
        "0 85 True 0 False 0 8 6 0 0 False False False 999999 False False False False False"
    assert _cfg_values(default_schedule_config()) == \
        "0 85 True 0 False 0 8 6 0 0 False True True 999999 False False True True False"
    assert _cfg_values(ScheduleConfig(CSP, 85, True, 0, False, 0, 8, 6, 0, 0, False)) == \
        _cfg_values(_csp_auto())


def test_fw_constructor_forces_flags():
    g = four_wave_geometry("bf16", 128, 128, 64)
    s = Pipeline4Wave(g, ScheduleConfig(scheduling=CSP, auto_waits=True), kernel_target(g))
    sc = s.schedule_config()
    assert sc.scheduling == IDENTITY
    assert (sc.minimal_barriers, sc.omit_mma_set_prio, sc.inter_block_lgkm_drain,
            sc.partial_prologue_drain) == (True, True, True, True)
    assert (sc.lgkm_per_load_a, sc.lgkm_per_load_b) == (0, 0)
    p = s.config()
    assert not p.warp_stagger.enabled
    assert (p.lgkm_per_load_a, p.lgkm_per_load_b) == (4, 4)
    assert p.cross_stage_rotation is True
    eff = kernel_schedule_config(g)
    assert (eff.sched_barrier_mask, eff.wrap_waits_with_sched_barrier) == (0xFF, True)
    assert kernel_schedule_config(four_wave_geometry("fp8", 128, 128, 128)).sched_barrier_mask == 0


def test_fw_sched_barrier_mask_has_no_effect():
    g = four_wave_geometry("fp8", 128, 128, 128)
    a = build_4wave(g, kernel_schedule_config(g).with_(sched_barrier_mask=0), kernel_target(g))
    b = build_4wave(g, kernel_schedule_config(g).with_(sched_barrier_mask=0xFF), kernel_target(g))
    for pa, pb in zip(a.phases(), b.phases()):
        assert entry_tuples(pa[1]) == entry_tuples(pb[1])


def test_fw_without_cross_stage_rotation_fails_verification():
    """Negative test: the 4-wave body with cross_stage_rotation=False fails stage consistency."""

    class NoRotation(Pipeline4Wave):
        def config(self):
            return super().config().with_(cross_stage_rotation=False)

    with pytest.raises(VerificationError,
                       match=r"^schedule check: block 2 pre_op_0 stage=1 expected=0$"):
        compile_schedule(NoRotation())


# =================================================================================================
# single buffer
# =================================================================================================

# T=1, T=2 bodies as the reference prints them; T=4 derived from single_buffer_reorder (every
# barrier segment is already optimal, so optimize_within_barriers keeps it)
SB_BODY = {
    1: "COMPUTE0 BAR STORE LOAD_DRAM BAR LOAD_FRAG0",
    2: "LOAD_FRAG1 COMPUTE0 BAR STORE_SMEM LOAD_DRAM COMPUTE1 BAR LOAD_FRAG0",
    4: "LOAD_FRAG1 LOAD_FRAG2 LOAD_FRAG3 COMPUTE0 BAR STORE_SMEM LOAD_DRAM COMPUTE1 COMPUTE2 "
       "COMPUTE3 BAR LOAD_FRAG0",
}
# T=2 as the reference prints it; T=1 and T=4 derived from the 8 single-buffer edge rules
SB_EDGES = {
    1: "1->2 FLOW0, 2->4 FLOW0, 4->5 FLOW0, 5->0 FLOW1, 3->2 FLOW1, 5->2 ANTI1",
    2: "0->5 FLOW0, 2->3 FLOW0, 3->6 FLOW0, 6->7 FLOW0, 0->2 ANTI0, 7->1 FLOW1, 4->3 FLOW1, 7->3 ANTI1",
    4: "0->7 FLOW0, 1->8 FLOW0, 2->9 FLOW0, 4->5 FLOW0, 5->10 FLOW0, 10->11 FLOW0, 0->4 ANTI0, "
       "1->4 ANTI0, 2->4 ANTI0, 11->3 FLOW1, 6->5 FLOW1, 11->5 ANTI1",
}
SB_PROLOGUE = "LOAD_DRAM STORE_SMEM BAR LOAD_DRAM LOAD_FRAG0 SB"
SB_EPILOGUE = {
    1: "SB BAR STORE COMPUTE0 SB BAR LOAD_FRAG0 COMPUTE0 SB",
    2: "SB LOAD_FRAG1 BAR STORE_SMEM COMPUTE0 COMPUTE1 SB BAR LOAD_FRAG1 LOAD_FRAG0 COMPUTE0 COMPUTE1 SB",
    # derived from the 10-step epilogue recipe (4T+5 = 21 entries)
    4: "SB LOAD_FRAG1 LOAD_FRAG2 LOAD_FRAG3 BAR STORE_SMEM COMPUTE0 COMPUTE1 COMPUTE2 COMPUTE3 SB "
       "BAR LOAD_FRAG1 LOAD_FRAG2 LOAD_FRAG3 LOAD_FRAG0 COMPUTE0 COMPUTE1 COMPUTE2 COMPUTE3 SB",
}
# T=2 as the reference prints it; T=1 and T=4 derived from the hint recipe with hints
# (4,4,2,16,16,2,2)
SB_HINTS = {
    1: "4x[(DS_WRITE,1),(MFMA,2),(VMEM_READ,1),(MFMA,2)] 8x[(DS_READ,1),(MFMA,2)]",
    2: "8x[(DS_READ,1),(MFMA,2)] 4x[(DS_WRITE,1),(MFMA,0),(VMEM_READ,1),(MFMA,0)] 8x[(DS_READ,1),(MFMA,2)]",
    4: "24x[(DS_READ,1),(MFMA,1)] 4x[(DS_WRITE,1),(MFMA,0),(VMEM_READ,1),(MFMA,0)] 8x[(DS_READ,1),(MFMA,1)]",
}
SB_SIZES = {1: (6, 38, 9), 2: (6, 56, 13), 4: (6, 92, 21)}  # prologue, kernel, epilogue


def _sb_edges(text):
    out = []
    for p, c, kind, d in re.findall(r"(\d+)->(\d+) (FLOW|ANTI)(\d)", text):
        out.append((int(p), int(c), DepKind.FLOW if kind == "FLOW" else DepKind.ANTI, int(d)))
    return out


def _hints(text):
    out = []
    for n, group in re.findall(r"(\d+)x\[(.*?\))\]", text):
        out += parse_entries(group.replace("),(", ") (")) * int(n)
    return out


def _sb(T):
    return compile_schedule(SingleBufferSchedule(T, AMDScheduleHints(4, 4, 2, 16, 16, 2, 2)))


def test_sb_hint_notation_parses():
    assert _hints(SB_HINTS[2])[:2] == [entry(SCHED_GROUP_BARRIER, 0, 0, wait=1),
                                       entry(SCHED_GROUP_BARRIER, 0, 3, wait=2)]
    assert len(_hints(SB_HINTS[2])) == 48


@pytest.mark.parametrize("T", [1, 2, 4])
def test_sb_schedule(T):
    c = _sb(T)
    body = parse_entries(SB_BODY[T])
    assert op_tuples(c.body) == body
    assert len(c.body) == 2 * T + 4
    expected_edges = _sb_edges(SB_EDGES[T])
    assert len(expected_edges) == 2 * (T - 1) + 6
    assert edge_tuples(c.edges) == expected_edges
    assert edge_tuples(c.kernel_deps) == expected_edges
    assert entry_tuples(c.prologue) == parse_entries(SB_PROLOGUE)
    assert entry_tuples(c.kernel) == body + _hints(SB_HINTS[T])
    assert entry_tuples(c.epilogue) == parse_entries(SB_EPILOGUE[T])
    assert (len(c.prologue), len(c.kernel), len(c.epilogue)) == SB_SIZES[T]
    assert c.warp_stagger_index == 7
    assert [e.time_slot for e in c.kernel] == list(range(len(c.kernel)))


def test_sb_hint_masks():
    from pipeline_mlir.schedule.targets import HINT_GROUP_MASKS
    assert HINT_GROUP_MASKS == {0: 0x100, 1: 0x200, 2: 0x20, 3: 0x8}


# =================================================================================================
# MI355X cost models and configs, data-model values the listings rest on
# =================================================================================================

def test_mi355x_cost_models():
    from pipeline_mlir.schedule.targets import mi355x_cost_model, mi355x_single_buffer_cost_model
    from pipeline_mlir.schedule.types import ResourceKind as R
    pp = {t: (c.resource, c.latency, c.role, c.vgpr_def, c.vgpr_kill)
          for t, c in mi355x_cost_model().registered().items()}
    assert pp == {
        0: (R.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD, 0, 0),
        1: (R.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD, 0, 0),
        2: (R.MMA_UNIT, 16, OpRole.COMPUTE, 4, 0),
        3: (R.LDS, 20, OpRole.FRAGMENT_LOAD, 8, 0),
        4: (R.LDS, 20, OpRole.FRAGMENT_LOAD, 8, 0),
        5: (R.MMA_UNIT, 16, OpRole.COMPUTE, 4, 0),
        # the MX scale channels: LOAD_SA, LOAD_SB, MMA_LOAD_SA, MMA_LOAD_SB
        6: (R.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD, 0, 0),
        7: (R.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD, 0, 0),
        8: (R.LDS, 20, OpRole.FRAGMENT_LOAD, 2, 0),
        9: (R.LDS, 20, OpRole.FRAGMENT_LOAD, 2, 0),
    }
    sb = {t: (c.resource, c.latency, c.role, c.vgpr_def, c.vgpr_kill)
          for t, c in mi355x_single_buffer_cost_model().registered().items()}
    assert sb == {
        0: (R.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD, 0, 0),
        1: (R.LDS, 20, OpRole.SHARED_STORE, 0, 0),
        2: (R.LDS, 20, OpRole.FRAGMENT_LOAD, 4, 0),
        3: (R.MMA_UNIT, 64, OpRole.COMPUTE, 16, 0),
    }


def test_mi355x_pipeline_configs():
    from pipeline_mlir.schedule.config import BlockSizing, LoopCarriedSpec, WarpStaggerRule
    from pipeline_mlir.schedule.targets import mi355x_double_buffer, mi355x_single_buffer
    p = mi355x_double_buffer(3, 5, 1)
    assert (p.depth, p.prefetch, p.drain_passes, p.prologue_fill) == (2, 1, 2, 1)
    assert p.loop_carried == LoopCarriedSpec.none()
    assert p.block_sizing == BlockSizing(4, 2, 1)
    assert p.frag_order.b_before_a is True
    assert (p.m_mmas, p.n_mmas, p.num_partitions, p.mma_serial, p.mma_latency) == (2, 2, 2, True, 16)
    assert (p.vm_per_load_a, p.vm_per_load_b, p.ch0_match_field, p.ch1_match_field) == (3, 5, 0, 1)
    assert p.warp_stagger == WarpStaggerRule.auto()
    assert (p.lgkm_per_load_a, p.lgkm_per_load_b, p.cross_stage_rotation) == (0, 0, False)
    assert (p.mmas_per_partition, p.globals_per_partition, p.frags_per_partition,
            p.ops_per_partition, p.total_ops, p.blocks_per_partition, p.total_blocks,
            p.total_edges()) == (4, 4, 4, 12, 24, 4, 8, 54)
    assert (p.vm_per_channel(0), p.vm_per_channel(1), p.vm_per_channel(7)) == (3, 5, 5)
    assert mi355x_double_buffer() == mi355x_target().pipeline == mi355x_target(4, 4, 1).pipeline
    s = mi355x_single_buffer()
    assert (s.depth, s.prefetch, s.drain_passes, s.prologue_fill) == (1, 1, 2, 0)
    assert s.loop_carried == LoopCarriedSpec.fragment_zero()
    assert s.block_sizing == BlockSizing(4, 2, 0)
    assert (s.num_partitions, s.vm_per_load_a, s.vm_per_load_b) == (1, 4, 4)
    assert s.warp_stagger == WarpStaggerRule.none()


def test_data_model_values():
    from pipeline_mlir.schedule.types import (
        NONE_TAG,
        SCHEDULE_BARRIER,
        SET_PRIO,
        DepKind,
        OpRole,
        Phase,
        ResourceKind,
    )
    assert [int(k) for k in (K.K0, K.K1, K.K_NEXT, K.K_PREV, K.NONE)] == [0, 1, 2, 3, 255]
    assert [k.signed_bk_multiple() for k in (K.K0, K.K1, K.K_NEXT, K.K_PREV)] == [0, 1, 2, -1]
    assert (BARRIER, WAIT_VM, WAIT_LGKM, SET_PRIO, SCHEDULE_BARRIER, SCHED_GROUP_BARRIER,
            NONE_TAG) == (128, 129, 130, 131, 132, 133, 255)
    assert [int(r) for r in ResourceKind] == [0, 1, 2, 3, 4, 255]
    assert [int(r) for r in OpRole] == [0, 1, 2, 3, 4, 5, 6, 255]
    assert [int(p) for p in Phase] == [0, 1, 2]
    assert [int(d) for d in DepKind] == [0, 1, 2]
    assert [int(s) for s in SchedulingStrategy] == [0, 1, 2]
    assert (LOAD_A, LOAD_B, MMA_LOAD_A, MMA_LOAD_B, MMA) == (0, 1, 3, 4, 5)


@pytest.mark.parametrize("build", [_pp_a, _pp_c, lambda: _fw("bf16", 128, 128, 64), lambda: _sb(2)],
                         ids=["pp_a", "pp_c", "4wave", "single_buffer"])
def test_entries_time_slots_and_phases(build):
    c = build()
    for phase, entries in c.phases():
        assert [e.time_slot for e in entries] == list(range(len(entries)))
        assert all(e.phase == phase for e in entries)
    # prologue and epilogue entries are never prefetches
    assert not any(e.is_prefetch for e in c.prologue + c.epilogue)


def test_fw_bootstrap_frags_in_prologue():
    from pipeline_mlir.schedule.types import ResourceKind
    c = _fw("fp8", 128, 128, 128)
    boot = [c.prologue[10].op, c.prologue[13].op]
    assert [(o.tag, o.stage, o.subtile, o.channel, o.role, o.resource, o.latency) for o in boot] == [
        (MMA_LOAD_A, 0, 0, 0, OpRole.FRAGMENT_LOAD, ResourceKind.NONE, 0),
        (MMA_LOAD_B, 0, 0, 1, OpRole.FRAGMENT_LOAD, ResourceKind.NONE, 0)]
    # prologue loads: vm_cost of their channel, all 8 loads are prefetches
    assert [e.op.vm_cost for e in c.prologue[:8]] == [2] * 8
    assert not any(e.is_prefetch for e in c.kernel)  # explicit blocks never mark prefetches
