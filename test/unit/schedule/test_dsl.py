"""Pipe DSL and entry builder."""

from pipeline_mlir.schedule.body import PipelineBody, mma_block_interleave
from pipeline_mlir.schedule.dsl import EntryBuilder, Pipe, annotate_pipe, pipe
from pipeline_mlir.schedule.targets import MMA, MMA_LOAD_A, mi355x_cost_model, mi355x_double_buffer
from pipeline_mlir.schedule.types import OpDesc, OpRole, Phase, ResourceKind


def test_pipe_concatenation_and_schedule():
    a, b, c = OpDesc.barrier(), OpDesc.wait_vm(3), OpDesc.set_prio(1)
    p = pipe(a) >> b >> pipe(c, a)
    assert list(p) == [a, b, c, a] and len(p) == 4
    entries = p.as_schedule(Phase.KERNEL, offset=5)
    assert [e.time_slot for e in entries] == [5, 6, 7, 8]
    assert all(e.phase == Phase.KERNEL and not e.is_prefetch for e in entries)
    out = []
    p.emit_into(out, Phase.EPILOGUE)
    p.emit_into(out, Phase.EPILOGUE)
    assert [e.time_slot for e in out] == list(range(8))


def test_annotate_pipe_skips_vgpr_fields():
    p = annotate_pipe(Pipe([OpDesc.logical(MMA_LOAD_A, 0), OpDesc.barrier()]), mi355x_cost_model())
    assert p[0].resource == ResourceKind.LDS and p[0].latency == 20 and p[0].role == OpRole.FRAGMENT_LOAD
    assert p[0].vgpr_def == 0
    assert p[1] == OpDesc.barrier()


def test_entry_builder_skips_absent_ops():
    b = EntryBuilder(Phase.PROLOGUE)
    b.emit_if(OpDesc.none())
    b.emit_flag(OpDesc.barrier(), True)
    b.emit(OpDesc.wait_lgkm(0))
    assert [(e.time_slot, e.is_prefetch) for e in b.entries] == [(0, True), (1, False)]


def test_pipe_interleave_uniform_block_sizing():
    # as the reference's test_config_block_sizing: uniform(3) -> block 0 is B frag, A frag, MMA
    from pipeline_mlir.schedule.config import BlockSizing
    from pipeline_mlir.schedules.pingpong import logical_half
    from pipeline_mlir.schedule.types import annotate_ops
    cfg = mi355x_double_buffer().with_(block_sizing=BlockSizing.uniform(3))
    out = mma_block_interleave(annotate_ops(logical_half(0), mi355x_cost_model()), cfg)
    assert [o.tag for o in out[:3]] == [4, 3, MMA]


def test_pipeline_body_grid_and_fan():
    ops = PipelineBody().fan(3, 2, stage=1).grid(2, 3, MMA).done()
    assert [(o.stage, o.subtile) for o in ops[:3]] == [(1, 0), (1, 1), (1, 2)]
    assert [(o.stage, o.subtile) for o in ops[3:]] == [(i, j) for i in range(2) for j in range(3)]
