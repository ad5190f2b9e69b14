"""Single-buffer default matmul ``SingleBufferSchedule[T]``."""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import record
from pipeline_mlir.schedule.compiler import PipelineSchedule, compile_schedule, declared_body
from pipeline_mlir.schedule.config import PipelineConfig, TargetProfile
from pipeline_mlir.schedule.targets import (
    LOAD_DRAM,
    LOAD_FRAG,
    SB_COMPUTE,
    SINGLE_BUFFER_TAG_NAMES,
    STORE_SMEM,
    AMDScheduleHints,
    append_amd_hints,
    mi355x_single_buffer_target,
)
from pipeline_mlir.schedule.types import OpDesc, ScheduleEntry
from pipeline_mlir.schedules.named import NamedSchedule, option

DefaultMatmulOps = SINGLE_BUFFER_TAG_NAMES


def logical_body(T: int) -> list[OpDesc]:
    """LOAD_DRAM, STORE_SMEM, barrier, T fragment loads, T computes (one per k-tile)."""
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise ConfigError(f"single-buffer: T (k-tiles per iteration) must be an integer >= 1, got {T!r}")
    ops = [OpDesc.logical(LOAD_DRAM, 0), OpDesc.logical(STORE_SMEM, 0), OpDesc.barrier()]
    ops += [OpDesc.logical(LOAD_FRAG, 0, 0, s) for s in range(T)]
    ops += [OpDesc.logical(SB_COMPUTE, -1, 0, s) for s in range(T)]
    return ops


class SingleBufferSchedule(PipelineSchedule):
    name = "single-buffer"
    tag_names = DefaultMatmulOps

    def __init__(self, T: int = 2, hints: AMDScheduleHints | None = None,
                 target: TargetProfile | None = None) -> None:
        self.T = T
        logical_body(T)  # validates T
        self.hints = hints or AMDScheduleHints()
        target = target or mi355x_single_buffer_target()
        self._config, self._cost_model = target.pipeline, target.cost_model

    def config(self) -> PipelineConfig:
        return self._config

    def declare_ops(self) -> list[OpDesc]:
        return logical_body(self.T)

    def build_body(self) -> list[OpDesc]:
        return declared_body(self)

    def cost_model(self):
        return self._cost_model

    def reorder_body(self, ops: list[OpDesc]) -> list[OpDesc]:
        from pipeline_mlir.schedule.body import optimize_within_barriers, single_buffer_reorder

        return optimize_within_barriers(single_buffer_reorder(ops, self._config), self._config)

    def transform_kernel(self, kernel: list[ScheduleEntry], body: list[OpDesc]) -> list[ScheduleEntry]:
        return append_amd_hints(kernel, body, self._config, self.hints)


def build_default_matmul_schedule(T: int = 2, hints: AMDScheduleHints | None = None):

    return compile_schedule(SingleBufferSchedule(T, hints))


#: guard against runaway body sizes
SINGLE_BUFFER_T_MAX = 256


@record(frozen=True, eq=False, kw_only=True)
class SingleBuffer(NamedSchedule):
    """``single-buffer{T=...}``: the single-buffer default matmul (no complete kernel)."""

    name = SingleBufferSchedule.name
    summary = ("single-buffer default matmul (SingleBufferSchedule) with AMD schedule-group "
               "hints")
    accepts_schedule_config = False
    config_note = ("the single-buffer (depth 1) path never reads ScheduleConfig, so its keys are "
                   "rejected")
    tag_names = SingleBufferSchedule.tag_names

    T: int = option("int", 2, "k-tiles per iteration", min=1, max=SINGLE_BUFFER_T_MAX)

    def _build(self) -> SingleBufferSchedule:
        return SingleBufferSchedule(self.T)
