"""Configuration and body errors: one clear message naming the field or op, never a silent drop."""

import re

import pytest

from pipeline_mlir.schedule.body import double_buffer_reorder, mma_block_interleave, single_buffer_reorder
from pipeline_mlir.schedule.compiler import PipelineSchedule, compile_schedule
from pipeline_mlir.schedule.config import (BlockSizing, ScheduleConfig, SchedulingStrategy,
                                  WarpStaggerRule)
from pipeline_mlir.errors import BodyError, ConfigError
from pipeline_mlir.schedules.geometry import four_wave_geometry, ping_pong_geometry
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.program_builder import construct_mma_blocks
from pipeline_mlir.schedules.fourwave import FourWave, Pipeline4Wave
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule, PingPong, logical_half
from pipeline_mlir.schedules.registry import compile_spec
from pipeline_mlir.schedules.single_buffer import SingleBufferSchedule
from pipeline_mlir.schedule.targets import (mi355x_cost_model, mi355x_double_buffer, mi355x_single_buffer,
                                   mi355x_target)
from pipeline_mlir.schedule.types import OpCost, OpDesc, OpRole, ResourceKind, TargetCostModel, annotate_ops


def annotated_half(h=0):
    return annotate_ops(logical_half(h), mi355x_cost_model())


# ---- configuration ---------------------------------------------------------------------------

@pytest.mark.parametrize("field,value,msg", [
    ("depth", 3, r"PipelineConfig\.depth: must be 1 \(single buffer\) or 2 \(double buffer\), got 3"),
    ("m_mmas", 0, r"PipelineConfig\.m_mmas: must be >= 1, got 0"),
    ("num_partitions", 0, r"PipelineConfig\.num_partitions: must be >= 1, got 0"),
    ("vm_per_load_a", -1, r"PipelineConfig\.vm_per_load_a: must be >= 0, got -1"),
    ("ch1_match_field", 2, r"PipelineConfig\.ch1_match_field: must be 0 \(MMA row\) or 1"),
    ("block_sizing", BlockSizing(4, -2, 0), r"PipelineConfig\.block_sizing\.light: must be >= 0"),
    ("warp_stagger", WarpStaggerRule.fixed(-1), r"PipelineConfig\.warp_stagger\.fixed_amount"),
    ("lgkm_per_load_b", "4", r"PipelineConfig\.lgkm_per_load_b: expected an integer, got '4'"),
    ("cross_stage_rotation", 1, r"PipelineConfig\.cross_stage_rotation: expected true or false"),
])
def test_pipeline_config_rejects(field, value, msg):
    with pytest.raises(ConfigError, match=msg):
        mi355x_double_buffer().with_(**{field: value})


@pytest.mark.parametrize("field,value,msg", [
    ("scheduling", 7, r"ScheduleConfig\.scheduling: unknown strategy 7"),
    ("auto_waits", "yes", r"ScheduleConfig\.auto_waits: expected true or false, got 'yes'"),
    ("lds_contention_penalty", -4, r"ScheduleConfig\.lds_contention_penalty: must be >= 0, got -4"),
    ("max_vgpr", 0, r"ScheduleConfig\.max_vgpr: must be >= 1, got 0"),
    ("sched_barrier_mask", 1.5, r"ScheduleConfig\.sched_barrier_mask: expected an integer"),
    ("wait_vm_last", "6", r"ScheduleConfig\.wait_vm_last: expected an integer, got '6'"),
])
def test_schedule_config_rejects(field, value, msg):
    with pytest.raises(ConfigError, match=msg):
        ScheduleConfig(**{field: value})


def test_schedule_config_defaults_match_reference():
    assert ScheduleConfig().values() == [SchedulingStrategy.IDENTITY, 85, True, 0, False, 0, 8, 6, 0, 0,
                                         False, False, False, 999999, False, False, False, False, False]
    assert len(ScheduleConfig.field_names()) == 19


@pytest.mark.parametrize("tag", [128, -1, 300])
def test_cost_model_tag_range(tag):
    m = TargetCostModel()
    with pytest.raises(ConfigError, match=r"only kernel op tags \(0-127\) can be registered"):
        m.set_cost(tag, OpCost(ResourceKind.LDS, 1, OpRole.FRAGMENT_LOAD))
    with pytest.raises(ConfigError, match=r"only kernel op tags \(0-127\) have costs"):
        m.get_cost(tag)


@pytest.mark.parametrize("args,msg", [
    (("bf8", 128, 128, 64), r"dtype must be one of bf16, f16, fp8, i8, f32, mxfp4, mxfp8, got 'bf8'"),
    (("bf16", 0, 128, 64), r"BM must be a positive integer, got 0"),
    (("bf16", 128, 128, 48), r"BK by MMA_K must divide exactly \(48 / 32\)"),
    (("bf16", 32, 128, 64), r"num_m_mmas = 1 must be even and >= 2"),
    (("bf16", 96, 128, 64), r"num_m_mmas = 3 must be even and >= 2"),
    (("fp8", 128, 128, 64), r"BK by MMA_K must divide exactly \(64 / 128\)"),
    (("bf16", 128, 128, 4096), r"threads by loads per row must divide exactly"),
    (("fp8", 128, 128, 128, "32x32x8"),
     r"mfma=32x32x8 is not an MFMA of dtype=fp8, which takes mfma=auto or 32x32x16 or "
     r"32x32x64 or 16x16x32$"),
    # gfx942's 32x32x16 FP8 is taken: BK of 8 is refused by its K, not its shape
    (("fp8", 128, 128, 8, "32x32x16"), r"BK by MMA_K must divide exactly \(8 / 16\)"),
    (("bf16", 128, 128, 64, "32x32x32"),
     r"mfma=32x32x32 is not an MFMA of dtype=bf16, which takes mfma=auto or 32x32x16 or "
     r"32x32x8$"),
    (("i8", 128, 128, 128, "32x32x64"),
     r"mfma=32x32x64 is not an MFMA of dtype=i8, which takes mfma=auto or 32x32x16 or "
     r"32x32x32 or 16x16x32$"),
    (("i8", 128, 128, 16, "32x32x32"), r"BK by MMA_K must divide exactly \(16 / 32\)"),
    (("fp8", 64, 128, 128, "32x32x64"), r"num_m_mmas = 1 must be even and >= 2"),
    (("mxfp4", 128, 128, 256, "32x32x8"),
     r"mfma=32x32x8: the block-scaled dtype=mxfp4 has only its own MFMA"),
    (("bf16", 128, 128, 8, "32x32x16"), r"BK by MMA_K must divide exactly \(8 / 16\)"),
    (("bf16", 64, 128, 32, "32x32x16"), r"num_m_mmas = 1 must be even and >= 2"),
    # the block size given is named, not only the warp tile derived from it
    (("bf16", 100, 128, 64), r"BM=100 over the 2 warp rows gives each a warp tile of 50 rows "
                             r"\(WM\), which the MFMA \(MMA_M=16\) must divide exactly"),
    (("bf16", 128, 72, 64, "32x32x16"), r"BN=72 over the 2 warp columns gives each a warp "
                                        r"tile of 36 columns \(WN\), which the MFMA "
                                        r"\(MMA_N=32\) must divide exactly \(36 / 32\)"),
])
def test_four_wave_geometry_rejects(args, msg):
    with pytest.raises(ConfigError, match=msg):
        four_wave_geometry(*args)


@pytest.mark.parametrize("tile,split,counts,msg", [
    # IREE's skinny tiles: one MFMA row (column) per wave, that operand's subtiles K halves:
    # one fragment over 2 of the 4 K steps (a 16-byte read each)
    ((32, 64, 128), "a", (1, 2, 2, 4, 0), None),
    ((64, 32, 128), "b", (2, 1, 4, 2, 0), None),
    # both one fragment (32x32 MFMAs on a 64x64 tile), B crosswise: K quarters per MMA
    ((64, 64, 128, "32x32x16"), "ab", (2, 2, 4, 4, 0), None),
    ((128, 128, 64), "a", None, r"k_subtiles=a splits A along K, which needs one MFMA \(16 "
                                r"rows\) per warp row, but BM=128 gives each of the 2 warp "
                                r"rows 64 rows, 4 MFMAs: BM=32 takes it$"),
    # the diagonal form asked of a tile whose waves hold more than one MFMA: said in the
    # option's and the tile's terms (the block size that takes it), A first, then B
    ((128, 128, 64), "ab_diagonal", None, r"k_subtiles=ab_diagonal splits A along K, which "
                                          r"needs one MFMA \(16 rows\) per warp row, but "
                                          r"BM=128 gives each of the 2 warp rows 64 rows, 4 "
                                          r"MFMAs: BM=32 takes it$"),
    ((64, 256, 32, "32x32x16"), "ab_diagonal", None,
     r"k_subtiles=ab_diagonal splits B along K, which needs one MFMA \(32 columns\) per warp "
     r"column, but BN=256 gives each of the 2 warp columns 128 columns, 4 MFMAs: BN=64 takes "
     r"it$"),
    ((32, 64, 32), "a", None, r"k_subtiles=a cuts each MFMA chain of the K tile into 2 runs, "
                              r"but BK holds 1 MFMA K steps"),
    ((64, 64, 32, "32x32x16"), "ab", None, r"into 4 runs, but BK holds 2"),
    # both one fragment, the same K halves (the diagonal form): a chain of 2 suffices
    ((64, 64, 32, "32x32x16"), "ab_diagonal", (1, 1, 1, 1, 0), None),
    ((64, 64, 16, "32x32x16"), "ab_diagonal", None, r"k_subtiles=ab_diagonal cuts each MFMA "
                                                    r"chain of the K tile into 2 runs, but BK "
                                                    r"holds 1"),
    ((32, 64, 128), "b", None, r"num_m_mmas = 1 must be even and >= 2"),
    ((32, 64, 128), "c", None, r"k_subtiles=c is not one of none, a, b, ab, ab_diagonal"),
])
def test_four_wave_geometry_of_k_subtiles(tile, split, counts, msg):
    """``k_subtiles``: the operands of a kernel given as input whose wave tile is one MFMA
    of them, their subtiles K halves (the front end's split, ``frontend/k_subtiles.py``)."""
    bm, bn, bk, *mfma = tile
    args = ("bf16", bm, bn, bk, *(mfma or ["auto"]))
    if msg is not None:
        with pytest.raises(ConfigError, match=msg):
            four_wave_geometry(*args, k_subtiles=split)
        return
    g = four_wave_geometry(*args, k_subtiles=split)
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b,
            g.max_globals) == counts


def test_i8s_gfx942_mfmas_in_the_4wave_geometry_alone():
    """gfx942's i8 16x16x32 and 32x32x16: the 4-wave geometry takes them with a split
    along K (a loop the front end halved) and without (a kernel's own: IREE's tiny i8
    problems, refused before); the ping-pong geometry refuses them as any other shape of
    no MFMA of its dtype (``test_ping_pong_mfma_of_another_dtype_is_refused``)."""
    g = four_wave_geometry("i8", 16, 16, 64, "16x16x32", grid=(1, 1), k_subtiles="ab_diagonal")
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == (16, 16, 32)
    g = four_wave_geometry("i8", 128, 128, 128, "16x16x32")
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == (16, 16, 32)
    g = four_wave_geometry("i8", 128, 128, 64, "32x32x16")
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == (32, 32, 16)
    with pytest.raises(ConfigError, match=r"mfma=32x32x16 is not an MFMA of dtype=i8"):
        ping_pong_geometry("i8", 256, 256, 128, "32x32x16")


def test_the_complete_kernel_splits_no_operand_along_k():
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    with pytest.raises(ConfigError, match=r"the complete kernel splits each wave's operands "
                                          r"into subtiles by MFMA rows and columns "
                                          r"\(k_subtiles=none\); a schedule of k_subtiles=a "
                                          r"pipelines a kernel given as input"):
        gemm_kernel(parse_pipeline("4wave{BM=32 BN=64 BK=128 k_subtiles=a}"))
    with pytest.raises(ConfigError, match=r"k_subtiles=a: the block-scaled dtype=mxfp4 has "
                                          r"only its own MFMA and subtiles"):
        four_wave_geometry("mxfp4", 128, 128, 256, k_subtiles="a")


@pytest.mark.parametrize("mfma,bk,counts", [
    # a subtile: one 32-row fragment per wave; its K steps x 16-byte (8-byte) reads
    ("32x32x16", 32, (1, 1, 2, 2, 0)),
    ("32x32x8", 8, (1, 1, 1, 1, 0)),
    ("32x32x8", 64, (2, 2, 8, 8, 1)),
    # 8-bit: i8 32x32x32 (16 bytes per fragment and K step), FP8 32x32x64 (32 bytes: two
    # 16-byte reads per K step); a half tile of 64 rows x BK bytes in copies of 4 KiB
    ("32x32x32", 64, (1, 1, 2, 2, 0)),
    ("32x32x32", 128, (2, 2, 4, 4, 0)),
    ("32x32x64", 128, (2, 2, 4, 4, 0)),
    ("32x32x64", 256, (4, 4, 8, 8, 0)),
])
def test_four_wave_geometry_of_a_32x32_mfma(mfma, bk, counts):
    """The counts the 32x32 MFMAs give a 128x128 tile (``mfma``, read from IREE's kernels
    by the front end)."""
    dtype = {"32x32x32": "i8", "32x32x64": "fp8"}.get(mfma, "bf16")
    g = four_wave_geometry(dtype, 128, 128, bk, mfma)
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == tuple(int(x) for x in mfma.split("x"))
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b,
            g.max_globals) == counts


def test_the_complete_kernel_issues_only_the_dtypes_mfma():
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    with pytest.raises(ConfigError, match=r"the complete kernel issues v_mfma_f32_16x16x32_f16 "
                                          r"\(mfma=auto\); a schedule of a 32x32x16 MFMA"):
        gemm_kernel(parse_pipeline("4wave{dtype=f16 BK=32 mfma=32x32x16}"))


def test_ping_pong_geometry_values():
    g = ping_pong_geometry("bf16", 256, 256, 64)
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b, g.max_globals) == (2, 2, 8, 4, 1)
    g = ping_pong_geometry("fp8", 256, 256, 128)
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b, g.max_globals) == (2, 2, 8, 4, 0)
    g = ping_pong_geometry("fp8", 128, 256, 128)
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b, g.max_globals) == (1, 2, 4, 4, 0)


@pytest.mark.parametrize("mfma,counts", [
    # a quadrant: two 32-row fragments of A (one of B) x 4 K steps (8: 8 steps of 8 bytes)
    ("32x32x16", (2, 2, 8, 4, 1)),
    ("32x32x8", (2, 2, 16, 8, 1)),
    # 8-bit, K tile 128: i8 4 K steps of 16 bytes, FP8 2 of 32 (two reads each)
    ("32x32x32", (2, 2, 8, 4, 1)),
    ("32x32x64", (2, 2, 8, 4, 0)),
])
def test_ping_pong_geometry_of_a_32x32_mfma(mfma, counts):
    """The 8-wave 256x256 tile (K tile 64 of 2-byte elements, 128 of 1-byte ones) with
    IREE's 32x32 MFMAs (``pingpong{mfma=...}``, read from the kernel by the front end)."""
    dtype = {"32x32x32": "i8", "32x32x64": "fp8"}.get(mfma, "bf16")
    g = ping_pong_geometry(dtype, 256, 256, 128 // (1 if dtype != "bf16" else 2), mfma)
    assert (g.MMA_M, g.MMA_N, g.MMA_K) == tuple(int(x) for x in mfma.split("x"))
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b,
            g.max_globals) == counts


@pytest.mark.parametrize("spec,msg", [
    ("pingpong{dtype=i8 mfma=32x32x16}",
     r"pipeline 'pingpong': geometry: mfma=32x32x16 is not an MFMA of dtype=i8, which takes "
     r"mfma=auto or 32x32x32$"),
    ("pingpong{dtype=fp8 mfma=32x32x32}", r"which takes mfma=auto or 32x32x16 or 32x32x64 "
     r"or 16x16x32$"),
    ("pingpong{dtype=fp8 mfma=32x32x8}", r"is not an MFMA of dtype=fp8"),
])
def test_ping_pong_mfma_of_another_dtype_is_refused(spec, msg):
    from pipeline_mlir.schedules.registry import parse_pipeline

    with pytest.raises(ConfigError, match=msg):
        parse_pipeline(spec).kernel_geometry()


def test_the_complete_ping_pong_kernel_issues_only_the_dtypes_mfma():
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    with pytest.raises(ConfigError, match=r"the complete kernel issues v_mfma_f32_16x16x32_bf16 "
                                          r"\(mfma=auto\); a schedule of a 32x32x16 MFMA"):
        gemm_kernel(parse_pipeline("pingpong{mfma=32x32x16}"))


def test_ping_pong_geometry_too_small_for_a_vm_count():
    with pytest.raises(ConfigError, match=r"vm_per_load_a = 0 must be >= 1"):
        ping_pong_geometry("bf16", 64, 256, 64)


def test_single_buffer_T():
    with pytest.raises(ConfigError, match=r"T \(k-tiles per iteration\) must be an integer >= 1, got 0"):
        SingleBufferSchedule(0)


# ---- bodies the reference would silently truncate ----------------------------------------------

def test_interleave_rejects_globals_beyond_budget():
    cfg = mi355x_double_buffer(max_globals=0).with_(block_sizing=BlockSizing(2, 2, 0))
    with pytest.raises(BodyError, match=r"3 global load\(s\) do not fit the block budget \(heavy=2, "
                                        r"light=2, max_globals=0\); first unplaced: op 1 \(tag 0"):
        double_buffer_reorder(annotated_half(0) + annotated_half(1), cfg)


def test_interleave_pipe_variant_ignores_max_globals_and_still_reports_drops():
    cfg = mi355x_double_buffer(max_globals=1).with_(block_sizing=BlockSizing(3, 1, 1))
    with pytest.raises(BodyError, match="do not fit the block budget"):
        mma_block_interleave(annotated_half(0), cfg)


def test_interleave_rejects_ops_without_a_slot():
    half = annotated_half(0)
    half.insert(3, OpDesc.barrier())
    with pytest.raises(BodyError, match=r"op 3 \(tag 128, role SYNC.*has no place in an MMA block"):
        double_buffer_reorder(half + annotated_half(1), mi355x_double_buffer())


def test_interleave_rejects_unmatched_fragment():
    half = annotated_half(0)
    half.insert(8, half[4].with_(subtile=5))  # an A fragment no MMA row uses
    with pytest.raises(BodyError, match=r"op 8 \(tag 3, role FRAGMENT_LOAD, channel 0, stage 0, "
                                        r"subtile 5\) matches no MMA row/column"):
        mma_block_interleave(half, mi355x_double_buffer())


def test_single_buffer_reorder_rejects_foreign_roles():
    body = [OpDesc.op(9, ResourceKind.VALU, 4, OpRole.VALU_COMPUTE)]
    with pytest.raises(BodyError, match=r"op 0 \(tag 9, role VALU_COMPUTE.*no place in the single-buffer order"):
        single_buffer_reorder(body, mi355x_single_buffer())


def _blocks(body, sched=ScheduleConfig()):
    return construct_mma_blocks(LoopBody.of(body, []), list(range(len(body))),
                                mi355x_double_buffer(), sched)


def test_blocks_reject_third_fragment():
    s = DeclarativeSchedule(False, 8, 8)
    body = s.build_body()
    body.insert(2, body[0])
    with pytest.raises(BodyError, match=r"block 0 collects 3 fragment loads and 1 global loads; a block "
                                        r"holds at most 2 of each"):
        _blocks(body)


def _named_options(message: str) -> set[str]:
    """The option keys an error message names (``KEY=``, ``lower KEY``, ``another KEY``)."""
    return (set(re.findall(r"\b([a-z_]+)=", message))
            | set(re.findall(r"(?:lower|another) ([a-z_]+)", message)))


@pytest.mark.parametrize("scheduling", list(SchedulingStrategy))
def test_overfull_block_advice_names_only_real_options(scheduling):
    """A block with too many loads says what to change in keys every double-buffer pipeline
    accepts (it used to say "lower block_sizing", which no pipeline has)."""
    body = DeclarativeSchedule(False, 8, 8).build_body()
    body.insert(2, body[0])
    with pytest.raises(BodyError) as e:
        _blocks(body, ScheduleConfig(scheduling=scheduling))
    msg = str(e.value)
    assert "block_sizing" not in msg and "holds at most 2 of each" in msg
    named = _named_options(msg)
    assert named, msg
    for cls in (PingPong, FourWave):
        assert named <= set(cls.valid_keys()), (cls.name, named, msg)
    if scheduling == SchedulingStrategy.IDENTITY:
        assert "the order is the body's own (scheduling=identity keeps it)" in msg
    else:
        assert f"the {scheduling.name.lower()} order put them there" in msg


def test_overfull_globals_advise_max_globals():
    with pytest.raises(BodyError, match=r"block 2 collects 1 fragment loads and 3 global loads; .*; "
                                        r"the greedy order put them there: lower max_globals "
                                        r"\(global loads per MMA block\) or try another "
                                        r"scheduling$"):
        compile_spec("pingpong{scheduling=greedy max_globals=3}")
    assert _named_options("lower block_sizing or max_globals") == {"block_sizing"}  # the old text
    assert "block_sizing" not in PingPong.valid_keys() + FourWave.valid_keys()


def test_blocks_reject_barrier_in_body():
    body = DeclarativeSchedule(False, 8, 8).build_body()
    body.insert(1, OpDesc.barrier())
    with pytest.raises(BodyError, match=r"block 0 would drop tag 128 .* with role SYNC"):
        _blocks(body)


def test_blocks_reject_ops_after_last_mma():
    body = DeclarativeSchedule(False, 8, 8).build_body()
    body.append(body[0])
    with pytest.raises(BodyError, match=r"expected all ops consumed; 1 op\(s\) follow the last MMA"):
        _blocks(body)


def test_blocks_reject_missing_mmas():
    body = DeclarativeSchedule(False, 8, 8).build_body()[:-2]
    with pytest.raises(BodyError, match=r"expected 8 blocks \(one per MMA\), the body has only 7"):
        _blocks(body)


class WrongExplicit(Pipeline4Wave):
    def build_explicit_blocks(self, body, program):
        return super().build_explicit_blocks(body, program)[:3]


def test_explicit_blocks_one_per_block():
    with pytest.raises(BodyError, match=r"build_explicit_blocks must return one entry per program block "
                                        r"\(8 blocks, got 3\)"):
        compile_schedule(WrongExplicit())


class TooManyBootstrap(Pipeline4Wave):
    def bootstrap_frags(self):
        return super().bootstrap_frags() * 5


def test_bootstrap_frags_beyond_prefetches():
    with pytest.raises(BodyError, match=r"more bootstrap frags \(10\) than prefetches \(8\)"):
        compile_schedule(TooManyBootstrap())


class NoBody(PipelineSchedule):
    def config(self):
        return mi355x_target().pipeline

    def build_body(self):
        return []


def test_empty_double_buffer_body():
    with pytest.raises(BodyError, match=r"expected 8 blocks \(one per MMA\), the body has only 0"):
        compile_schedule(NoBody())


def test_schedule_protocol_requires_two_methods():
    class Incomplete(PipelineSchedule):
        def config(self):
            return mi355x_target().pipeline

    with pytest.raises(TypeError):
        Incomplete()


DIAGONAL = ("4wave{dtype=bf16 BM=16 BN=16 BK=32 k_subtiles=ab_diagonal mfma=16x16x16 "
            "vm_per_load_a=2 vm_per_load_b=2 waves=1}")


def test_the_diagonal_form_runs_two_mmas_a_partition_hazard_free(monkeypatch):
    """``k_subtiles=ab_diagonal`` (IREE's 300x200x96 halved, frontend/k_subtiles.py): each
    K partition two mini-iterations of two global loads, two fragment loads (this stage's
    subtile 1, then the other stage's subtile 0) and the MMAs (0, 0), (1, 1) alone; its
    derived waits hazard-free in the functional model, which refuses the body with the
    next partition's fragments read from this stage (MMA (0, 0) multiplies one K tile
    twice)."""
    from pipeline_mlir.schedule.targets import FRAG_TAGS, MMA
    from pipeline_mlir.schedules import fourwave
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.repair import RepairError
    from pipeline_mlir.sim.report import simulate_schedule

    body = fourwave.diagonal_k_partition(0)
    assert [(o.stage, o.subtile) for o in body if o.tag == MMA] == [(0, 0), (1, 1)]
    assert [(o.channel, o.stage, o.subtile) for o in body
            if o.tag in FRAG_TAGS[:2]] == [(0, 0, 1), (1, 0, 1), (0, 1, 0), (1, 1, 0)]
    schedule = parse_pipeline(DIAGONAL)
    assert len(schedule.compile().program.blocks) == 4       # one per MMA, 2 a partition
    assert simulate_schedule(schedule, tables=(), iterations=range(0, 4), lds_of=None).safe
    real = fourwave.diagonal_k_partition

    def wrong(p):   # the other stage's subtile-0 fragments read from this stage instead
        return [o if o.tag not in FRAG_TAGS[:2] or o.subtile else
                type(o).logical(o.tag, o.channel, p, 0) for o in real(p)]

    monkeypatch.setattr(fourwave, "diagonal_k_partition", wrong)
    with pytest.raises(RepairError, match=r"accumulator \(0,0\): received K tiles \[0, 0\]"):
        simulate_schedule(parse_pipeline(DIAGONAL), tables=(), iterations=range(1), lds_of=None)


@pytest.mark.parametrize("tile,whole,counts,msg", [
    # IREE's fp8 A x B^T 64x31x96: a 64x32 tile, 2x2 waves of 32x16, one 16x16x32 of B per
    # wave and K step: B held whole, a load of all 32 rows (one 4-byte copy per thread)
    ((64, 32, 32, "16x16x32"), "b", (1, 1, 1, 1, 0), None),
    ((32, 64, 32, "16x16x32"), "a", (1, 1, 1, 1, 0), None),
    # a K step of 256: 16 rows a pass of the 256 threads, so A's half (32 rows) takes 2
    # copies and B whole (32 rows) 2, where a half of B would take 1
    ((64, 32, 256, "16x16x32"), "b", (2, 2, 8, 8, 1), None),
    # more than one MFMA of the operand per wave: it splits by MFMA columns, refused
    ((64, 64, 32, "16x16x32"), "b", None, r"whole=b holds B whole in each stage, which needs "
                                          r"one MFMA \(16 columns\) per warp column, but "
                                          r"BN=64 gives each of the 2 warp columns 32 columns, "
                                          r"2 MFMAs: BN=32 takes it$"),
    # the other operand still splits by MFMA rows: two of them at least
    ((32, 32, 32, "16x16x32"), "b", None, r"num_m_mmas = 1 must be even and >= 2"),
    ((64, 32, 32, "16x16x32"), "c", None, r"whole=c is not one of none, a, b"),
])
def test_four_wave_geometry_of_an_operand_held_whole(tile, whole, counts, msg):
    """``whole``: the operand a stage holds whole, one MFMA of it per wave, its load all of
    its rows (the front end's choice where no split exists, ``frontend/layout.py``)."""
    *t, mfma = tile
    if msg is not None:
        with pytest.raises(ConfigError, match=msg):
            four_wave_geometry("fp8", *t, mfma, whole=whole)
        return
    g = four_wave_geometry("fp8", *t, mfma, whole=whole)
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b,
            g.max_globals) == counts


def test_an_operand_held_whole_takes_no_k_split_and_no_complete_kernel():
    """``whole`` with ``k_subtiles`` (an operand split along K) is refused naming both, and
    so is the complete kernel of either (it splits both operands by MFMA rows and
    columns)."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    with pytest.raises(ConfigError, match=r"whole=b holds B whole .* but k_subtiles=a splits "
                                          r"along K: give one of them"):
        four_wave_geometry("fp8", 32, 32, 64, "16x16x32", k_subtiles="a", whole="b")
    with pytest.raises(ConfigError, match=r"\(whole=none\); a schedule of whole=b pipelines "
                                          r"a kernel given as input"):
        gemm_kernel(parse_pipeline(WHOLE_B))


WHOLE_B = "4wave{dtype=fp8 BM=64 BN=32 BK=32 mfma=16x16x32 whole=b}"


def test_the_whole_b_form_runs_two_mmas_a_partition_hazard_free(monkeypatch):
    """``whole=b`` (IREE's fp8 64x31x96, frontend/layout.py): each K partition one load
    and one fragment of B, read in its own first block with A's subtile 1 (both MMAs read
    it: none can be read ahead), A's subtile-0 fragment of the other stage read ahead in
    the second, the MMAs (0, 0) and (1, 0) alone; its derived waits hazard-free in the
    functional model, which catches the wait the new form adds weakened (block 1's
    lgkmcnt(0) before the B load into the slot block 0 reads: a WAR race) and the body
    that reads B ahead from the other stage like A (MMA (1, 0) then multiplies the next K
    tile's B)."""
    from dataclasses import replace

    from pipeline_mlir.schedule.targets import FRAG_TAGS, LOAD_TAGS, MMA
    from pipeline_mlir.schedule.types import WAIT_LGKM
    from pipeline_mlir.schedules import fourwave
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.functional import simulate
    from pipeline_mlir.sim.repair import RepairError, repair
    from pipeline_mlir.sim.report import simulate_schedule
    from pipeline_mlir.sim.trace import kernel_shape

    body = fourwave.whole_k_partition(0, 1)
    assert [(o.stage, o.subtile) for o in body if o.tag == MMA] == [(0, 0), (1, 0)]
    assert [(o.channel, o.stage, o.subtile) for o in body
            if o.tag in FRAG_TAGS[:2]] == [(0, 0, 1), (1, 0, 0), (0, 1, 0)]
    assert [(o.channel, o.subtile) for o in body if o.tag in LOAD_TAGS[:2]] == \
        [(0, 0), (0, 1), (1, 0)]
    schedule = parse_pipeline(WHOLE_B)
    compiled = schedule.compile()
    assert len(compiled.program.blocks) == 4       # one per MMA, 2 a partition
    assert [f.channel for f in schedule.build().bootstrap_frags()] == [0]   # A alone ahead
    assert simulate_schedule(schedule, tables=(), iterations=range(4), lds_of=None).safe
    # the kernel runs the schedule with sched-fix-hazards' changes (repair: the printed
    # 4-wave schedules have hazards it fixes, test_functional.py): there, weaken the new
    # form's wait, block 1's lgkmcnt(0) before the B load into the slot block 0 reads
    shape = kernel_shape(schedule)
    fixed = repair(compiled, shape, range(4))
    assert simulate(fixed, shape, range(4)).safe
    k = fixed.kernel
    at = max(i for i in range(next(i for i, e in enumerate(k) if e.op.tag == LOAD_TAGS[1]))
             if k[i].op.tag == WAIT_LGKM)
    assert k[at].op.wait_value == 0
    k[at] = replace(k[at], op=k[at].op.with_(wait_value=1))
    h = simulate(fixed, shape, range(4)).first_hazard()
    assert (h.kind, h.counter) == ("war", "lgkmcnt") and "MMA_LOAD_B s=0 sub=0 reads LDS B " \
        "stage 0 subtile 0" in h.message and "LOAD_B s=0 sub=0 (K tile 2)" in h.message, h
    real = fourwave.whole_k_partition

    def ahead(p, whole):   # B read from the other stage, as A's subtile 0 is ahead
        return [type(o).logical(o.tag, 1, 1 - p, 0) if o.tag == FRAG_TAGS[1] else o
                for o in real(p, whole)]

    monkeypatch.setattr(fourwave, "whole_k_partition", ahead)
    with pytest.raises(RepairError, match=r"MMA \(0,0\) multiplies A of K tile 0 with "
                                          r"B of K tile 1"):
        simulate_schedule(parse_pipeline(WHOLE_B), tables=(), iterations=range(4), lds_of=None)
