"""Prologue / kernel / epilogue derivation and the single-buffer phase recipes."""

from __future__ import annotations

from enum import IntEnum

from pipeline_mlir.records import record
from pipeline_mlir.schedule.config import PipelineConfig, ScheduleConfig
from pipeline_mlir.errors import BodyError
from pipeline_mlir.schedule.program import MMABlockSpec, PipelineProgram, scale_units
from pipeline_mlir.schedule.types import NONE_OP, KOffsetKind, OpDesc, OpRole, Phase, ScheduleEntry
from pipeline_mlir.target.gfx950 import VMCNT_MAX


def _entries(ops: list[OpDesc], phase: Phase) -> list[ScheduleEntry]:
    return [ScheduleEntry(op, i, phase, False) for i, op in enumerate(ops)]


# ---- double-buffer prologue ----------------------------------------------------------------

def derive_prologue_from_program(program: PipelineProgram, config: PipelineConfig,
                                 sched: ScheduleConfig, bootstrap: list[OpDesc]) -> list[ScheduleEntry]:
    """Fill both LDS stages, then (partial drain) bootstrap the first fragments.

    Unlike the reference, the prologue copies keep their channel (the reference
    resets it to -1; nothing in its outputs depends on that).  With the partial drain, a
    load that would keep more instructions in flight than ``vmcnt`` holds is preceded by
    a wait completing the oldest whole loads (:func:`_counter_guard`), and a bootstrap
    wait those already completed is left out.
    """
    ops: list[OpDesc] = []
    partial = sched.partial_prologue_drain
    flight: list[int] = []            # vm costs of the loads in flight, oldest first

    def loads(stage: int, k: KOffsetKind) -> None:
        # an element tile's load and its scale tile's (the MX scale channels) as one unit:
        # no counter guard between them
        for unit in scale_units([g for b in program.blocks
                                  for g, pf in ((b.global_load, b.global_load_prefetch),
                                                (b.global_load_1, b.global_load_1_prefetch))
                                  if g.is_present() and pf and g.stage == stage]):
            costs = [config.vm_per_channel(g.channel) for g in unit]
            if partial:
                ops.extend(_counter_guard(flight, sum(costs)))
            ops.extend(OpDesc(tag=g.tag, stage=g.stage, subtile=g.subtile, k_offset=k,
                              vm_cost=cost, resource=g.resource, latency=g.latency,
                              role=g.role, channel=g.channel) for g, cost in zip(unit, costs))

    loads(0, KOffsetKind.K0)
    if not partial:
        ops += [OpDesc.wait_vm(0), OpDesc.barrier()]
    loads(1, KOffsetKind.K1)
    if not partial:
        ops.append(OpDesc.wait_vm(0))
    elif bootstrap:
        loads_now = scale_units([o for o in ops if o.role == OpRole.GLOBAL_LOAD])
        costs = [sum(o.vm_cost for o in u) for u in loads_now]
        frags = scale_units(bootstrap)
        if len(frags) > len(costs):
            raise BodyError(f"prologue: more bootstrap frags ({len(frags)}) than "
                            f"prefetches ({len(costs)})")
        remaining = sum(costs)
        for i, unit in enumerate(frags):
            remaining -= costs[i]
            done = remaining >= sum(flight)           # a guard completed load i already
            ops += ([] if done else [OpDesc.wait_vm(remaining)]) + [OpDesc.barrier(), *unit]
            while sum(flight) > remaining:
                flight.pop(0)
    return _entries(ops, Phase.PROLOGUE)


def _counter_guard(flight: list[int], cost: int) -> list[OpDesc]:
    """Before a load of ``cost`` vm instructions with ``flight`` in flight (costs, oldest
    first; updated): a wait completing the oldest whole loads when the new one would put
    more in flight than ``vmcnt`` holds, else nothing (also for a load that alone does:
    the schedule's waits then exceed the counter, which the lowering refuses)."""
    out = []
    if cost <= VMCNT_MAX < sum(flight) + cost:
        while flight and sum(flight) + cost > VMCNT_MAX:
            flight.pop(0)
        out.append(OpDesc.wait_vm(sum(flight)))
    flight.append(cost)
    return out


# ---- double-buffer epilogue ----------------------------------------------------------------

def strip_drain_fuse_blocks(program: PipelineProgram, config: PipelineConfig) -> list[MMABlockSpec]:
    """Epilogue blocks: prefetches removed, lgkm drained at entry, vm drained from the first
    prefetching block on, MMAs of frag-less blocks fused into the previous block."""
    bph = config.blocks_per_partition
    out: list[MMABlockSpec] = []
    for h in range(config.num_partitions):
        blocks = program.blocks[h * bph:(h + 1) * bph]
        drain_start = next((i for i, b in enumerate(blocks) if b.has_prefetch()), bph)
        i = 0
        while i < len(blocks):
            b = blocks[i]
            nb = MMABlockSpec(
                mma=b.mma, pre_op_0=b.pre_op_0, pre_op_1=b.pre_op_1,
                global_load=NONE_OP if b.global_load_prefetch else b.global_load,
                global_load_1=NONE_OP if b.global_load_1_prefetch else b.global_load_1,
                entry_wait_lgkm=OpDesc.wait_lgkm(0),
                pre_mma_barrier=b.pre_mma_barrier, pre_mma_set_prio=b.pre_mma_set_prio,
                post_mma_barrier=b.post_mma_barrier, post_mma_set_prio=b.post_mma_set_prio,
                post_barrier_lgkm=b.post_barrier_lgkm)
            if i >= drain_start:
                nb.pre_sync = OpDesc.wait_vm(0)
            if i + 1 < len(blocks):
                nxt = blocks[i + 1]
                keeps_global = ((nxt.global_load.is_present() and not nxt.global_load_prefetch)
                                or (nxt.global_load_1.is_present() and not nxt.global_load_1_prefetch))
                if not nxt.pre_op_0.is_present() and not keeps_global:
                    nb.fused_mma = nxt.mma
                    out.append(nb)
                    i += 2
                    continue
            out.append(nb)
            i += 1
    if out:
        out[-1].pre_sync = NONE_OP
    return out


def derive_epilogue_from_program(program: PipelineProgram, config: PipelineConfig) -> list[ScheduleEntry]:
    out: list[ScheduleEntry] = []
    for b in strip_drain_fuse_blocks(program, config):
        b.expand_to_list(out, Phase.EPILOGUE)
    out.append(ScheduleEntry(OpDesc.barrier(), len(out), Phase.EPILOGUE, False))
    return out


# ---- single-buffer recipes -------------------------------------------------------------------

class PhaseAction(IntEnum):
    EMIT = 0
    BARRIER = 1
    FENCE = 2


@record(frozen=True)
class PhaseStep:
    action: PhaseAction
    role: OpRole = OpRole.NONE
    match_subtile: int = -1
    exclude_lc: bool = False
    match_lc_only: bool = False
    match_all: bool = False


def single_buffer_prologue_recipe() -> list[PhaseStep]:
    E = PhaseAction.EMIT
    return [PhaseStep(E, OpRole.GLOBAL_LOAD), PhaseStep(E, OpRole.SHARED_STORE),
            PhaseStep(PhaseAction.BARRIER), PhaseStep(E, OpRole.GLOBAL_LOAD),
            PhaseStep(E, OpRole.FRAGMENT_LOAD, match_lc_only=True), PhaseStep(PhaseAction.FENCE)]


def single_buffer_epilogue_recipe() -> list[PhaseStep]:
    E = PhaseAction.EMIT
    return [PhaseStep(PhaseAction.FENCE),
            PhaseStep(E, OpRole.FRAGMENT_LOAD, exclude_lc=True, match_all=True),
            PhaseStep(PhaseAction.BARRIER), PhaseStep(E, OpRole.SHARED_STORE),
            PhaseStep(E, OpRole.COMPUTE, match_all=True), PhaseStep(PhaseAction.FENCE),
            PhaseStep(PhaseAction.BARRIER), PhaseStep(E, OpRole.FRAGMENT_LOAD, match_all=True),
            PhaseStep(E, OpRole.COMPUTE, match_all=True), PhaseStep(PhaseAction.FENCE)]


def apply_phase_recipe(body: list[OpDesc], config: PipelineConfig, steps: list[PhaseStep],
                       phase: Phase) -> list[ScheduleEntry]:
    sel = config.loop_carried.selector
    ops: list[OpDesc] = []
    for st in steps:
        if st.action == PhaseAction.BARRIER:
            ops.append(OpDesc.barrier())
        elif st.action == PhaseAction.FENCE:
            ops.append(OpDesc.schedule_barrier())
        else:
            for o in body:
                if o.role != st.role:
                    continue
                if st.match_subtile >= 0 and o.subtile != st.match_subtile:
                    continue
                lc = o.subtile == sel
                if (st.exclude_lc and lc) or (st.match_lc_only and not lc):
                    continue
                ops.append(o)
                if not st.match_all:
                    break
    return _entries(ops, phase)


def default_prologue(body: list[OpDesc], config: PipelineConfig) -> list[ScheduleEntry]:
    return apply_phase_recipe(body, config, single_buffer_prologue_recipe(), Phase.PROLOGUE)


def default_kernel(body: list[OpDesc]) -> list[ScheduleEntry]:
    return _entries(list(body), Phase.KERNEL)


def default_epilogue(body: list[OpDesc], config: PipelineConfig) -> list[ScheduleEntry]:
    return apply_phase_recipe(body, config, single_buffer_epilogue_recipe(), Phase.EPILOGUE)


# ---- warp stagger ----------------------------------------------------------------------------

def warp_stagger_index(body: list[OpDesc], config: PipelineConfig, prologue_len: int) -> int:
    """Prologue position where warp group 1 executes its extra barrier (past the end: none)."""
    rule = config.warp_stagger
    if not rule.enabled:
        return prologue_len + 1
    if rule.compute_from_body:
        return sum(1 for o in body if o.role == OpRole.GLOBAL_LOAD and o.stage == 0
                   and o.k_offset not in (KOffsetKind.K_PREV, KOffsetKind.NONE))
    return rule.fixed_amount

