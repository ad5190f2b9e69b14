"""The ``PipelineSchedule`` protocol and the schedule compiler.

Defining a schedule loads only the data model; the compiler's stages
(:mod:`pipeline_mlir.schedule.stages`: ordering, blocks, waits, phases) load when a schedule is
compiled, so that ``pipeline-opt --help`` can list the schedules' options without them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from pipeline_mlir.records import field, record
from pipeline_mlir.schedule.config import PipelineConfig, ScheduleConfig
from pipeline_mlir.schedule.edges import derive_edges_from_ops
from pipeline_mlir.schedule.types import (
    DepEdge,
    OpDesc,
    Phase,
    ScheduleEntry,
    TargetCostModel,
    annotate_ops,
)

TYPE_CHECKING = False  # the names below are for annotations only (see the module docstring)
if TYPE_CHECKING:
    from pipeline_mlir.schedule.program import PipelineProgram
    from pipeline_mlir.schedule.program_builder import DerivedWaits


class PipelineSchedule(ABC):
    """A schedule definition: 2 required methods, 5 optional ones with framework defaults.

    The framework owns phase derivation.  ``depth < 2`` uses the default single-buffer
    phases plus :meth:`transform_kernel`; ``depth >= 2`` builds a program of MMA blocks
    and derives every phase from it.
    """

    #: short name used by the driver and in dumps
    name: str = "schedule"
    #: printable names of the schedule's kernel op tags
    tag_names: dict[int, str] = {}
    #: each MMA waits per fragment (:mod:`pipeline_mlir.schedule.frag_waits`), not per block
    fragment_waits: bool = False
    #: global-load waits over vmcnt's limit lowered to whole loads (schedule/vm_cap.py)
    cap_vm_waits: bool = False

    @abstractmethod
    def config(self) -> PipelineConfig:
        """Pipeline structure (depth, MMA grid, ...)."""

    def declare_ops(self) -> list[OpDesc]:
        """The logical (unannotated) loop body, in declaration order."""
        raise NotImplementedError(f"schedule '{self.name}' does not declare its logical ops")

    def cost_model(self) -> TargetCostModel:
        """The per-target cost model ``annotate`` applies."""
        raise NotImplementedError(f"schedule '{self.name}' has no cost model")

    def reorder_body(self, ops: list[OpDesc]) -> list[OpDesc]:
        """The schedule's body reorder; identity by default."""
        return list(ops)

    @abstractmethod
    def build_body(self) -> list[OpDesc]:
        """The loop body, annotated and in execution order.

        Schedules that can be run pass by pass implement it as
        :func:`declared_body` (declare, annotate, reorder).
        """

    def derive_edges(self, body: list[OpDesc]) -> list[DepEdge]:
        return derive_edges_from_ops(body, self.config())

    def schedule_config(self) -> ScheduleConfig:
        return ScheduleConfig()

    def unread_config_fields(self) -> dict[str, str]:
        """The ScheduleConfig fields this schedule does not read (name -> why): by default
        those the program builder skips with :meth:`schedule_config`."""
        return self.schedule_config().unread_fields()

    def transform_kernel(self, kernel: list[ScheduleEntry], body: list[OpDesc]) -> list[ScheduleEntry]:
        return list(kernel)

    def build_explicit_blocks(self, body: list[OpDesc], program: PipelineProgram) -> list[list[OpDesc]]:
        return []

    def bootstrap_frags(self) -> list[OpDesc]:
        return []


def declared_body(s: PipelineSchedule) -> list[OpDesc]:
    """``reorder_body(annotate_ops(declare_ops(), cost_model()))``: the staged body."""
    return s.reorder_body(annotate_ops(s.declare_ops(), s.cost_model()))


@record
class ScheduleCompiler:
    """Everything one compilation produced."""

    config: PipelineConfig | None = None
    body: list[OpDesc] = field(default_factory=list)
    edges: list[DepEdge] = field(default_factory=list)
    prologue: list[ScheduleEntry] = field(default_factory=list)
    kernel: list[ScheduleEntry] = field(default_factory=list)
    epilogue: list[ScheduleEntry] = field(default_factory=list)
    kernel_deps: list[DepEdge] = field(default_factory=list)
    warp_stagger_index: int = 0
    #: lgkmcnt entries of one fragment load of A / of B (:func:`stages.lgkm_per_load`)
    lgkm_per_load: tuple[int, int] = (0, 0)
    # beyond the reference: what the compile path decided along the way
    sched: ScheduleConfig | None = None
    program: PipelineProgram | None = None
    order: list[int] = field(default_factory=list)
    schedule_result: object | None = None
    waits: DerivedWaits | None = None
    name: str = ""
    tag_names: dict[int, str] = field(default_factory=dict)

    def phases(self) -> list[tuple[Phase, list[ScheduleEntry]]]:
        return [(Phase.PROLOGUE, self.prologue), (Phase.KERNEL, self.kernel),
                (Phase.EPILOGUE, self.epilogue)]

    def compile(self, s: PipelineSchedule) -> "ScheduleCompiler":
        from pipeline_mlir.schedule import stages

        config = s.config()
        body = s.build_body()
        edges = stages.edges(s, body)
        self.config, self.body, self.edges, self.sched = config, body, edges, s.schedule_config()
        self.name, self.tag_names = s.name, dict(s.tag_names)
        self.lgkm_per_load = stages.lgkm_per_load(s)
        program = None
        if stages.is_double_buffer(s):
            self.order, self.schedule_result = stages.order(s, body, edges)
            program, self.waits = stages.blocks(s, body, edges, self.order)
            stages.verify(s, program, self.waits)
            explicit = stages.explicit(s, body, program)
            if explicit:
                program.explicit_blocks = explicit
            self.program = program
        else:
            self.order = list(range(len(body)))
        ph = stages.phases(s, body, edges, program)
        self.prologue, self.kernel, self.epilogue = ph.prologue, ph.kernel, ph.epilogue
        self.kernel_deps, self.warp_stagger_index = ph.kernel_deps, ph.warp_stagger_index
        return self


def compile_schedule(s: PipelineSchedule) -> ScheduleCompiler:
    return ScheduleCompiler().compile(s)
