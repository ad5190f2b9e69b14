"""verify_schedule: every check fires with the reference's message (always on, not debug-only)."""

import pytest

from pipeline_mlir.schedule.compiler import compile_schedule
from pipeline_mlir.schedule.config import BlockSizing, ScheduleConfig, SchedulingStrategy
from pipeline_mlir.errors import VerificationError
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.program_builder import (build_double_buffer_program, derive_waits_from_blocks,
                                           patch_waits, verify_schedule)
from pipeline_mlir.schedules.fourwave import Pipeline4Wave
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule
from pipeline_mlir.schedule.targets import mi355x_target
from pipeline_mlir.schedule.types import OpDesc, OpRole

CSP = ScheduleConfig(scheduling=SchedulingStrategy.CSP, auto_waits=True)


def pingpong_program(lgkm=8, target=None, sched=CSP):
    s = DeclarativeSchedule(False, lgkm, lgkm, sched, target or mi355x_target())
    body = s.build_body()
    lb = LoopBody.of(body, s.derive_edges(body))
    cfg, sc = s.config(), s.schedule_config()
    from pipeline_mlir.schedule.program_builder import order_body
    order, _ = order_body(lb, cfg, sc)
    program = build_double_buffer_program(lb, order, cfg, sc)
    waits = derive_waits_from_blocks(program, cfg, sc.lgkm_per_load_a, sc.lgkm_per_load_b)
    patch_waits(program, cfg, sc, waits)
    return program, cfg, waits


def verify(program, cfg, waits, lgkm=8):
    verify_schedule(program, cfg, lgkm, lgkm, waits.lgkm, waits.vm)


def test_valid_program_passes():
    """The compiled program passes: complete (a COMPUTE MMA in each of its 8 blocks) and its
    first wait exactly at its bound (block 0's one global load costs lgkm 8)."""
    program, cfg, waits = pingpong_program()
    assert [b.mma.role for b in program.blocks] == [OpRole.COMPUTE] * 8
    assert (waits.lgkm, waits.vm) == (8, 12)
    verify(program, cfg, waits)


def test_block_count():
    program, cfg, waits = pingpong_program()
    program.blocks.pop()
    with pytest.raises(VerificationError, match=r"^schedule check: expected 8 blocks, got 7$"):
        verify(program, cfg, waits)


def test_block_without_mma():
    program, cfg, waits = pingpong_program()
    program.blocks[5].mma = OpDesc.none()
    with pytest.raises(VerificationError, match=r"^schedule check: block 5 has no MMA op$"):
        verify(program, cfg, waits)


def test_mma_with_wrong_role():
    program, cfg, waits = pingpong_program()
    program.blocks[2].mma = program.blocks[2].mma.with_(role=OpRole.FRAGMENT_LOAD)
    with pytest.raises(VerificationError, match=r"^schedule check: block 2 MMA op has wrong role$"):
        verify(program, cfg, waits)


def test_negative_wait_lgkm_first():
    program, cfg, waits = pingpong_program()
    with pytest.raises(VerificationError, match=r"^schedule check: wait_lgkm_first is negative$"):
        verify_schedule(program, cfg, 8, 8, -1, waits.vm)


def test_wait_lgkm_first_above_block0_global_lgkm():
    program, cfg, waits = pingpong_program()
    with pytest.raises(VerificationError,
                       match=r"^schedule check: wait_lgkm_first \(9\) > block 0 global lgkm \(8\) in half 0$"):
        verify_schedule(program, cfg, 8, 8, 9, waits.vm)


def test_wait_lgkm_bound_skipped_without_lgkm_costs():
    program, cfg, waits = pingpong_program()
    # reference: bound only with lgkm costs; 9 is over the bound the costs 8/8 give
    with pytest.raises(VerificationError, match=r"wait_lgkm_first \(9\) > block 0 global lgkm"):
        verify_schedule(program, cfg, 8, 8, 9, waits.vm)
    verify_schedule(program, cfg, 0, 0, 9, waits.vm)


def test_negative_wait_vm_last():
    program, cfg, waits = pingpong_program()
    with pytest.raises(VerificationError, match=r"^schedule check: wait_vm_last is negative$"):
        verify_schedule(program, cfg, 8, 8, waits.lgkm, -2)


def test_negative_manual_wait_in_a_block():
    # auto_waits off: the manual wait_vm_last lands in the last block of each half
    sched = ScheduleConfig(scheduling=SchedulingStrategy.CSP, auto_waits=False, wait_vm_last=-3)
    with pytest.raises(VerificationError,
                       match=r"^schedule check: block 3 pre_sync has a negative wait count \(-3\)$"):
        compile_schedule(DeclarativeSchedule(False, 8, 8, sched))


def test_distribution_invariant():
    program, cfg, waits = pingpong_program()
    b1, b2 = program.blocks[1], program.blocks[2]
    b2.global_load_1 = b1.global_load
    b1.global_load = OpDesc.none()
    with pytest.raises(VerificationError, match=r"^schedule check: block 1 has 0 globals, expected 1$"):
        verify(program, cfg, waits)


class StrictFourWave(Pipeline4Wave):
    """The 4-wave schedule without cross-stage rotation: its frags break stage consistency."""

    def config(self):
        return super().config().with_(cross_stage_rotation=False)


def test_stage_consistency_4wave_without_rotation():
    with pytest.raises(VerificationError, match=r"^schedule check: block 2 pre_op_0 stage=1 expected=0$"):
        compile_schedule(StrictFourWave())


def test_prefetch_coverage():
    program, cfg, waits = pingpong_program()
    for b in program.blocks:
        b.global_load_prefetch = b.global_load_1_prefetch = False
    with pytest.raises(VerificationError, match=r"^schedule check: no global load is marked as prefetch$"):
        verify(program, cfg, waits)


def test_completion_coverage():
    program, cfg, waits = pingpong_program()
    for b in program.blocks[:4]:
        if b.global_load.is_present():
            b.global_load = b.global_load.with_(stage=0)
    with pytest.raises(VerificationError,
                       match=r"^schedule check: half 0 has no completion load \(stage != half\) "
                             r"\u2014 wait_vm would drain nothing, race condition$"):
        verify(program, cfg, waits)


def test_warp_stagger_lds_race():
    # bunched globals (max_globals 0) with a light budget that puts a stage-0 prefetch in
    # block 1 while block 2 reads stage 0 (IDENTITY keeps the interleaved order)
    target = mi355x_target(4, 4, 0)
    target = target.with_pipeline(block_sizing=BlockSizing(4, 3, 0))
    sched = CSP.with_(scheduling=SchedulingStrategy.IDENTITY)
    with pytest.raises(VerificationError, match=r"^schedule check: cross-block LDS race \u2014 block 1 "
                                                r"prefetch writes stage 0 which block 2 reads via "
                                                r"fragment load\. Use max_globals=0 or increase "
                                                r"num_k_mmas to add latency\.$"):
        compile_schedule(DeclarativeSchedule(False, 8, 8, sched, target))


def test_verification_runs_in_compile_path():
    """A bad program never comes out of compile_schedule (no debug mode needed)."""
    sched = CSP.with_(lgkm_per_load_a=2)
    with pytest.raises(VerificationError):
        # block 0's global is channel 0 with lgkm 8 from the config fallback; the verify
        # bound uses the schedule's 2 -> derived 8 > 2
        s = DeclarativeSchedule(False, 2, 2, sched,
                                mi355x_target().with_pipeline(lgkm_per_load_a=8))
        compile_schedule(s)
