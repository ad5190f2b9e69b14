"""The ``PipelineSchedule`` protocol and the schedule compiler (SPEC 1.3, 2.11, 2.12)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from .config import PipelineConfig, ScheduleConfig
from .edges import derive_edges_from_ops
from .errors import BodyError
from .phases import (default_epilogue, default_kernel, default_prologue,
                     derive_epilogue_from_program, derive_prologue_from_program, warp_stagger_index)
from .program import PipelineProgram
from .program_builder import (DerivedWaits, build_kernel_program,
                              default_kernel_deps_double_buffer)
from .types import DepEdge, OpDesc, Phase, ScheduleEntry


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

    @abstractmethod
    def config(self) -> PipelineConfig:
        """Pipeline structure (depth, MMA grid, ...)."""

    @abstractmethod
    def build_body(self) -> list[OpDesc]:
        """The loop body, annotated and in execution order."""

    def derive_edges(self, body: list[OpDesc]) -> list[DepEdge]:
        return derive_edges_from_ops(body, self.config())

    def schedule_config(self) -> ScheduleConfig:
        return ScheduleConfig()

    def transform_kernel(self, kernel: list[ScheduleEntry], body: list[OpDesc]) -> list[ScheduleEntry]:
        return list(kernel)

    def build_explicit_blocks(self, body: list[OpDesc], program: PipelineProgram) -> list[list[OpDesc]]:
        return []

    def bootstrap_frags(self) -> list[OpDesc]:
        return []


@dataclass
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
    lgkm_per_load_a: int = 0
    lgkm_per_load_b: int = 0
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
        config = s.config()
        body = s.build_body()
        edges = s.derive_edges(body)
        sched = s.schedule_config()
        self.config, self.body, self.edges, self.sched = config, body, list(edges), sched
        self.name, self.tag_names = s.name, dict(s.tag_names)
        if config.depth < 2:
            self.prologue = default_prologue(body, config)
            self.kernel = s.transform_kernel(default_kernel(body), body)
            self.epilogue = default_epilogue(body, config)
            self.kernel_deps = list(edges)
            self.order = list(range(len(body)))
        else:
            kp = build_kernel_program(body, config, sched, edges)
            program = kp.program
            self.program, self.order, self.schedule_result, self.waits = (
                program, kp.order, kp.schedule, kp.waits)
            explicit = s.build_explicit_blocks(body, program)
            if explicit:
                if len(explicit) != len(program.blocks):
                    raise BodyError(
                        f"build_explicit_blocks must return one entry per program block "
                        f"({len(program.blocks)} blocks, got {len(explicit)})")
                program.explicit_blocks = [list(b) for b in explicit]
            self.prologue = derive_prologue_from_program(program, config, sched, s.bootstrap_frags())
            self.kernel = program.expand_to_list(Phase.KERNEL)
            self.epilogue = derive_epilogue_from_program(program, config)
            self.kernel_deps = default_kernel_deps_double_buffer(self.kernel, config)
        self.warp_stagger_index = warp_stagger_index(body, config, len(self.prologue))
        return self


def compile_schedule(s: PipelineSchedule) -> ScheduleCompiler:
    return ScheduleCompiler().compile(s)
