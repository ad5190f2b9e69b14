"""The schedule compiler's path (body, edges, order, blocks and waits, phases) cut into
the steps the MLIR passes run one at a time.

``ScheduleCompiler.compile`` calls these in order; each ``sched-*`` pass calls
exactly one of them on the state it read back from IR.  Keeping one
implementation for both routes is what makes "the passes, run one by one,
reproduce the golden schedules" a test of the IR round trip rather than of a
second copy of the algorithm.

Steps (double-buffer path, ``depth >= 2``):

==================  ==========================================  ==================
step                what it computes                            pass
==================  ==========================================  ==================
annotate            cost-model fields of every body op          sched-annotate
reorder             the schedule's body reorder                 sched-reorder
edges               FLOW/ANTI edges with loop distance          sched-derive-edges
order               IDENTITY / GREEDY / CSP op order            sched-schedule
blocks              MMA blocks, redistribution, derived waits   sched-derive-waits
explicit            explicit per-block op lists (4-wave)        sched-explicit-blocks
phases              prologue, kernel, epilogue, deps, stagger   sched-expand-phases
==================  ==========================================  ==================

The single-buffer path (``depth < 2``) has no order, blocks or waits: those
steps are identities and ``phases`` uses the default recipes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import BodyError
from pipeline_mlir.schedule.phases import (default_epilogue, default_kernel, default_prologue,
                     derive_epilogue_from_program, derive_prologue_from_program, warp_stagger_index)
from pipeline_mlir.schedule.program import PipelineProgram
from pipeline_mlir.schedule.program_builder import (DerivedWaits, build_program_with_waits,
                              default_kernel_deps_double_buffer, loop_body, order_body,
                              verify_program)
from pipeline_mlir.schedule.types import DepEdge, OpDesc, Phase, ScheduleEntry, annotate_ops


def is_double_buffer(s) -> bool:
    return s.config().depth >= 2


def lgkm_per_load(s) -> tuple[int, int]:
    """lgkmcnt entries one fragment load of A / of B produces, as the derived waits count
    them: the pipeline config's count, else the schedule config's (0: not counted)."""
    config, sched = s.config(), s.schedule_config()
    return (config.lgkm_per_channel(0) or sched.lgkm_per_load_a,
            config.lgkm_per_channel(1) or sched.lgkm_per_load_b)


def annotate(s, ops: list[OpDesc]) -> list[OpDesc]:
    """Fill resource/latency/role/costs from the schedule's cost model (tags < 128 only)."""
    return annotate_ops(list(ops), s.cost_model())


def reorder(s, ops: list[OpDesc]) -> list[OpDesc]:
    return list(s.reorder_body(list(ops)))


def edges(s, body: list[OpDesc]) -> list[DepEdge]:
    return list(s.derive_edges(list(body)))


def order(s, body: list[OpDesc], edge_list: list[DepEdge]):
    """(order, ScheduleResult or None); the identity on the single-buffer path."""
    if not is_double_buffer(s):
        return list(range(len(body))), None
    return order_body(loop_body(body, s.config(), edge_list), s.config(), s.schedule_config())


def blocks(s, body: list[OpDesc], edge_list: list[DepEdge],
           op_order: list[int]) -> tuple[PipelineProgram, DerivedWaits | None]:
    """MMA-centred blocks, global redistribution and (auto_waits) derived, patched waits."""
    if not is_double_buffer(s):
        raise BodyError(f"schedule '{s.name}' is single-buffer (depth "
                        f"{s.config().depth}): it has no MMA blocks")
    if sorted(op_order) != list(range(len(body))):
        raise BodyError(f"the op order {list(op_order)} is not a permutation of the "
                        f"{len(body)} body ops")
    return build_program_with_waits(loop_body(body, s.config(), edge_list), list(op_order),
                                    s.config(), s.schedule_config())


def verify(s, program: PipelineProgram, waits: DerivedWaits | None) -> None:
    """The structural checks of a program; raises VerificationError."""
    verify_program(program, s.config(), s.schedule_config(), waits)


def explicit(s, body: list[OpDesc], program: PipelineProgram) -> list[list[OpDesc]]:
    """The schedule's explicit block lists (empty: template expansion)."""
    lists = s.build_explicit_blocks(list(body), program)
    if lists and len(lists) != len(program.blocks):
        raise BodyError(f"build_explicit_blocks must return one entry per program block "
                        f"({len(program.blocks)} blocks, got {len(lists)})")
    return [list(b) for b in lists]


@dataclass
class Phases:
    prologue: list[ScheduleEntry] = field(default_factory=list)
    kernel: list[ScheduleEntry] = field(default_factory=list)
    epilogue: list[ScheduleEntry] = field(default_factory=list)
    kernel_deps: list[DepEdge] = field(default_factory=list)
    warp_stagger_index: int = 0
    #: kernel entry index -> program block index (double-buffer path only)
    kernel_blocks: list[int] = field(default_factory=list)


def phases(s, body: list[OpDesc], edge_list: list[DepEdge],
           program: PipelineProgram | None) -> Phases:
    config = s.config()
    out = Phases()
    if not is_double_buffer(s):
        out.prologue = default_prologue(body, config)
        out.kernel = s.transform_kernel(default_kernel(body), body)
        out.epilogue = default_epilogue(body, config)
        out.kernel_deps = list(edge_list)
    else:
        if program is None:
            raise BodyError(f"schedule '{s.name}' needs its MMA blocks before phase expansion")
        out.prologue = derive_prologue_from_program(program, config, s.schedule_config(),
                                                    s.bootstrap_frags())
        out.kernel = program.expand_to_list(Phase.KERNEL)
        out.epilogue = derive_epilogue_from_program(program, config)
        out.kernel_deps = default_kernel_deps_double_buffer(out.kernel, config)
        out.kernel_blocks = [i for i in range(len(program.blocks))
                             for _ in range(program.block_entry_count(i))]
        out.kernel_blocks += [len(program.blocks)] * (len(out.kernel) - len(out.kernel_blocks))
    out.warp_stagger_index = warp_stagger_index(body, config, len(out.prologue))
    return out
