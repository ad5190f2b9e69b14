"""MMA-centred blocks, the pipeline program, and their emission."""

from __future__ import annotations

from pipeline_mlir.records import field, record, replace
from pipeline_mlir.schedule.types import NONE_OP, OpDesc, Phase, ScheduleEntry


@record
class MMABlockSpec:
    mma: OpDesc = NONE_OP
    pre_op_0: OpDesc = NONE_OP
    pre_op_1: OpDesc = NONE_OP
    global_load: OpDesc = NONE_OP
    global_load_1: OpDesc = NONE_OP
    entry_wait: OpDesc = NONE_OP
    entry_wait_lgkm: OpDesc = NONE_OP
    pre_sync: OpDesc = NONE_OP
    fused_mma: OpDesc = NONE_OP
    pre_mma_barrier: bool = True
    pre_mma_set_prio: bool = True
    post_mma_barrier: bool = True
    post_mma_set_prio: bool = True
    post_barrier_lgkm: bool = True
    post_barrier_sched: bool = False
    trailing_sched_barrier: bool = False
    global_load_prefetch: bool = False
    global_load_1_prefetch: bool = False
    drain_lgkm_before_loads: bool = False
    global_before_frag: bool = False
    barrier_before_pre_ops: bool = False
    wrap_waits_with_sched_barrier: bool = False

    def copy(self, **changes) -> "MMABlockSpec":
        return replace(self, **changes)

    # ---- accessors -------------------------------------------------------
    @property
    def frags(self) -> list[OpDesc]:
        return [o for o in (self.pre_op_0, self.pre_op_1) if o.is_present()]

    @property
    def globals(self) -> list[OpDesc]:
        return [o for o in (self.global_load, self.global_load_1) if o.is_present()]

    def has_frag(self) -> bool:
        return self.pre_op_0.is_present() or self.pre_op_1.is_present()

    def has_global(self) -> bool:
        return self.global_load.is_present() or self.global_load_1.is_present()

    def has_prefetch(self) -> bool:
        return self.global_load_prefetch or self.global_load_1_prefetch

    # ---- counts ----------------------------------------------------------
    def _entry_wait_wrap(self) -> int:
        return 2 if self.wrap_waits_with_sched_barrier and (
            self.entry_wait.is_present() or self.entry_wait_lgkm.is_present()) else 0

    def _pre_mma_sync_wrap(self) -> int:
        return 2 if self.wrap_waits_with_sched_barrier and (
            self.pre_sync.is_present() or self.pre_mma_barrier) else 0

    def _n_pre_barrier_ops(self) -> int:
        p = lambda o: int(o.is_present())  # noqa: E731
        return (2 * p(self.entry_wait) + p(self.entry_wait_lgkm) + p(self.pre_op_0)
                + p(self.pre_op_1) + int(self.drain_lgkm_before_loads) + p(self.global_load)
                + p(self.global_load_1) + p(self.pre_sync) + self._entry_wait_wrap()
                + self._pre_mma_sync_wrap())

    def mma_position(self) -> int:
        return (self._n_pre_barrier_ops()
                + int(self.pre_mma_barrier) * (1 + int(self.post_barrier_sched) + int(self.post_barrier_lgkm))
                + int(self.pre_mma_set_prio))

    def entry_count(self) -> int:
        return (self.mma_position() + 1 + int(self.fused_mma.is_present())
                + int(self.post_mma_set_prio)
                + int(self.post_mma_barrier) * (1 + int(self.trailing_sched_barrier)))

    # ---- template emission ----------------------------------------------
    def expand(self) -> list[tuple[OpDesc, bool]]:
        """The template order of this block as (op, is_prefetch) pairs."""
        out: list[tuple[OpDesc, bool]] = []

        def emit(op: OpDesc, pf: bool = False) -> None:
            if op.is_present():
                out.append((op, pf))

        wrap_entry = self._entry_wait_wrap() > 0
        wrap_sync = self._pre_mma_sync_wrap() > 0
        if wrap_entry:
            emit(OpDesc.schedule_barrier())
        emit(self.entry_wait)
        emit(self.entry_wait_lgkm)
        if self.entry_wait.is_present():
            emit(OpDesc.barrier())
        if wrap_entry:
            emit(OpDesc.schedule_barrier())

        def sync_section():
            if wrap_sync:
                emit(OpDesc.schedule_barrier())
            emit(self.pre_sync)
            if self.pre_mma_barrier:
                emit(OpDesc.barrier())
                if self.post_barrier_sched:
                    emit(OpDesc.schedule_barrier())
                if self.post_barrier_lgkm:
                    emit(OpDesc.wait_lgkm(0))
            if wrap_sync:
                emit(OpDesc.schedule_barrier())

        if self.barrier_before_pre_ops:
            sync_section()
        frags = [self.pre_op_0, self.pre_op_1]
        drain = [OpDesc.wait_lgkm(0)] if self.drain_lgkm_before_loads else []
        globs = [(self.global_load, self.global_load_prefetch),
                 (self.global_load_1, self.global_load_1_prefetch)]
        if self.global_before_frag:
            for g, pf in globs:
                emit(g, pf)
            for o in drain + frags:
                emit(o)
        else:
            for o in frags + drain:
                emit(o)
            for g, pf in globs:
                emit(g, pf)
        if not self.barrier_before_pre_ops:
            sync_section()
        if self.pre_mma_set_prio:
            emit(OpDesc.set_prio(1))
        emit(self.mma)
        emit(self.fused_mma)
        if self.post_mma_set_prio:
            emit(OpDesc.set_prio(0))
        if self.post_mma_barrier:
            emit(OpDesc.barrier())
            if self.trailing_sched_barrier:
                emit(OpDesc.schedule_barrier())
        return out

    def expand_to_list(self, out: list[ScheduleEntry], phase: Phase) -> None:
        for op, pf in self.expand():
            out.append(ScheduleEntry(op, len(out), phase, pf))


def scale_units(ops: list[OpDesc]) -> list[list[OpDesc]]:
    """``ops`` in units: an element tile's op with the MX scale tile's op that follows it
    (channel 2 or 3, the scale channels of A and B), else alone."""
    units: list[list[OpDesc]] = []
    for o in ops:
        if units and o.channel >= 2 and units[-1][0].channel == o.channel - 2:
            units[-1].append(o)
        else:
            units.append([o])
    return units


def emit_minimal_barrier_block(block: MMABlockSpec, wrap_waits: bool,
                               global_before_frag: bool = False) -> list[OpDesc]:
    """Explicit block of the minimal-barrier schedules (4-wave).

    A schedule_barrier always separates fragment reads from global loads in the
    same block: it keeps LLVM from hoisting ds_reads above the LDS-writing loads.
    """
    out: list[OpDesc] = []

    def emit(op: OpDesc) -> None:
        if op.is_present():
            out.append(op)

    has_a = block.entry_wait.is_present() or block.entry_wait_lgkm.is_present()
    if wrap_waits and has_a:
        emit(OpDesc.schedule_barrier())
    emit(block.entry_wait)
    emit(block.entry_wait_lgkm)
    if block.entry_wait.is_present():
        emit(OpDesc.barrier())
    if wrap_waits and has_a:
        emit(OpDesc.schedule_barrier())
    frags, globs = block.frags, block.globals
    first, second = (globs, frags) if global_before_frag else (frags, globs)
    for o in first:
        emit(o)
    if frags and globs:
        emit(OpDesc.schedule_barrier())
    for o in second:
        emit(o)
    has_b = block.pre_sync.is_present() or block.pre_mma_barrier
    if wrap_waits and has_b:
        emit(OpDesc.schedule_barrier())
    emit(block.pre_sync)
    if block.pre_mma_barrier:
        emit(OpDesc.barrier())
        if block.post_barrier_lgkm:
            emit(OpDesc.wait_lgkm(0))
    if wrap_waits and has_b:
        emit(OpDesc.schedule_barrier())
    emit(block.mma)
    return out


@record
class PipelineProgram:
    blocks: list[MMABlockSpec] = field(default_factory=list)
    explicit_blocks: list[list[OpDesc]] = field(default_factory=list)
    trailing_barrier: bool = False

    def _explicit(self, i: int) -> list[OpDesc]:
        return self.explicit_blocks[i] if i < len(self.explicit_blocks) else []

    def block_entry_count(self, i: int) -> int:
        ex = self._explicit(i)
        return len(ex) if ex else self.blocks[i].entry_count()

    def expand_to_list(self, phase: Phase) -> list[ScheduleEntry]:
        out: list[ScheduleEntry] = []
        for i, b in enumerate(self.blocks):
            ex = self._explicit(i)
            if ex:
                for op in ex:
                    out.append(ScheduleEntry(op, len(out), phase, False))
            else:
                b.expand_to_list(out, phase)
        if self.trailing_barrier:
            out.append(ScheduleEntry(OpDesc.barrier(), len(out), phase, False))
        return out
