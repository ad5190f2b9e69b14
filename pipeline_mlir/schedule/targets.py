"""MI355X (gfx950) cost models, pipeline configs and target profiles, and the
AMD schedule-group hints appended to the single-buffer kernel.

What these model are scheduling costs; the chip's own facts (counter limits, MFMA shapes,
LDS) are in :mod:`pipeline_mlir.target.gfx950`."""

from __future__ import annotations

from pipeline_mlir.records import record
from pipeline_mlir.schedule.config import (BlockSizing, FragOrder, LoopCarriedSpec, PipelineConfig, TargetProfile,
                     WarpStaggerRule)
from pipeline_mlir.schedule.types import (OpCost, OpDesc, OpRole, Phase, ResourceKind, ScheduleEntry,
                    TargetCostModel)

# Tags shared by the ping-pong and 4-wave schedules.
LOAD_A, LOAD_B, COMPUTE, MMA_LOAD_A, MMA_LOAD_B, MMA = 0, 1, 2, 3, 4, 5
# The MX kernels' scale tiles (their own channels: 2 the scales of A, 3 of B): a scale
# DMA per operand and a scale read per operand.
LOAD_SA, LOAD_SB, MMA_LOAD_SA, MMA_LOAD_SB = 6, 7, 8, 9
#: the channel of each operand's scale tile (element channel + this)
SCALE_CHANNEL_OFFSET = 2
MATMUL_TAG_NAMES = {LOAD_A: "LOAD_A", LOAD_B: "LOAD_B", COMPUTE: "COMPUTE",
                    MMA_LOAD_A: "MMA_LOAD_A", MMA_LOAD_B: "MMA_LOAD_B", MMA: "MMA"}
#: the 4-wave schedule's tags: the matmul tags and the MX scale channels'
SCALED_MATMUL_TAG_NAMES = {**MATMUL_TAG_NAMES, LOAD_SA: "LOAD_SA", LOAD_SB: "LOAD_SB",
                           MMA_LOAD_SA: "MMA_LOAD_SA", MMA_LOAD_SB: "MMA_LOAD_SB"}
#: the global load and fragment load tags of each channel (0 A, 1 B, 2 A's scales, 3 B's)
LOAD_TAGS = (LOAD_A, LOAD_B, LOAD_SA, LOAD_SB)
FRAG_TAGS = (MMA_LOAD_A, MMA_LOAD_B, MMA_LOAD_SA, MMA_LOAD_SB)


def is_scale_channel(channel: int) -> bool:
    return channel >= SCALE_CHANNEL_OFFSET
# Tags of the single-buffer default matmul.
LOAD_DRAM, STORE_SMEM, LOAD_FRAG, SB_COMPUTE = 0, 1, 2, 3
SINGLE_BUFFER_TAG_NAMES = {LOAD_DRAM: "LOAD_DRAM", STORE_SMEM: "STORE_SMEM",
                           LOAD_FRAG: "LOAD_FRAG", SB_COMPUTE: "COMPUTE"}


def mi355x_cost_model() -> TargetCostModel:
    m = TargetCostModel()
    g = OpCost(ResourceKind.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD)
    f = OpCost(ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD, vgpr_def=8)
    c = OpCost(ResourceKind.MMA_UNIT, 16, OpRole.COMPUTE, vgpr_def=4)
    for tag, cost in ((LOAD_A, g), (LOAD_B, g), (COMPUTE, c), (MMA_LOAD_A, f), (MMA_LOAD_B, f), (MMA, c)):
        m.set_cost(tag, cost)
    # a scale DMA moves a dword a lane; a scale read defines one VGPR per MFMA operand
    sg = OpCost(ResourceKind.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD)
    sf = OpCost(ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD, vgpr_def=2)
    for tag, cost in ((LOAD_SA, sg), (LOAD_SB, sg), (MMA_LOAD_SA, sf), (MMA_LOAD_SB, sf)):
        m.set_cost(tag, cost)
    return m


def mi355x_single_buffer_cost_model() -> TargetCostModel:
    m = TargetCostModel()
    m.set_cost(LOAD_DRAM, OpCost(ResourceKind.GLOBAL_MEM, 200, OpRole.GLOBAL_LOAD))
    m.set_cost(STORE_SMEM, OpCost(ResourceKind.LDS, 20, OpRole.SHARED_STORE))
    m.set_cost(LOAD_FRAG, OpCost(ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD, vgpr_def=4))
    m.set_cost(SB_COMPUTE, OpCost(ResourceKind.MMA_UNIT, 64, OpRole.COMPUTE, vgpr_def=16))
    return m


def mi355x_double_buffer(vm_per_load_a: int = 4, vm_per_load_b: int = 4,
                         max_globals: int = 1) -> PipelineConfig:
    return PipelineConfig(
        depth=2, prefetch=1, drain_passes=2, prologue_fill=1, loop_carried=LoopCarriedSpec.none(),
        block_sizing=BlockSizing(4, 2, max_globals), frag_order=FragOrder.b_first(),
        m_mmas=2, n_mmas=2, num_partitions=2, mma_serial=True, mma_latency=16,
        vm_per_load_a=vm_per_load_a, vm_per_load_b=vm_per_load_b,
        ch0_match_field=0, ch1_match_field=1, warp_stagger=WarpStaggerRule.auto())


def mi355x_single_buffer() -> PipelineConfig:
    return PipelineConfig(
        depth=1, prefetch=1, drain_passes=2, prologue_fill=0,
        loop_carried=LoopCarriedSpec.fragment_zero(), block_sizing=BlockSizing(4, 2, 0),
        frag_order=FragOrder.b_first(), m_mmas=2, n_mmas=2, num_partitions=1, mma_serial=True,
        mma_latency=16, vm_per_load_a=4, vm_per_load_b=4, ch0_match_field=0, ch1_match_field=1,
        warp_stagger=WarpStaggerRule.none())


def mi355x_target(vm_per_load_a: int = 4, vm_per_load_b: int = 4, max_globals: int = 1) -> TargetProfile:
    return TargetProfile(mi355x_cost_model(), mi355x_double_buffer(vm_per_load_a, vm_per_load_b, max_globals))


def mi355x_single_buffer_target() -> TargetProfile:
    return TargetProfile(mi355x_single_buffer_cost_model(), mi355x_single_buffer())


# ---- schedule-group hints ----------------------------------------------------
DS_READ, DS_WRITE, VMEM_READ, MFMA = 0, 1, 2, 3
# LLVM AMDGPU sched_group_barrier masks of the hint groups.
HINT_GROUP_MASKS = {DS_READ: 0x100, DS_WRITE: 0x200, VMEM_READ: 0x20, MFMA: 0x8}
HINT_GROUP_NAMES = {DS_READ: "DS_READ", DS_WRITE: "DS_WRITE", VMEM_READ: "VMEM_READ", MFMA: "MFMA"}


@record(frozen=True)
class AMDScheduleHints:
    """Kernel shape the single-buffer hints are derived from."""

    m_mmas: int = 4
    n_mmas: int = 4
    k_mmas: int = 2
    mma_m: int = 16
    mma_n: int = 16
    a_loads: int = 2
    b_loads: int = 2


def append_amd_hints(kernel: list[ScheduleEntry], body: list[OpDesc], config: PipelineConfig,
                     hints: AMDScheduleHints) -> list[ScheduleEntry]:
    """Append SCHED_GROUP_BARRIER entries that interleave LDS reads/writes, VMEM reads and MFMAs."""
    lc = config.loop_carried.selector
    frags = [o for o in body if o.role == OpRole.FRAGMENT_LOAD]
    n_lc = sum(1 for o in frags if o.subtile == lc)
    n_nlc = len(frags) - n_lc
    reads_per_frag = hints.m_mmas + hints.n_mmas
    total_mmas = hints.m_mmas * hints.n_mmas * hints.k_mmas
    total_stores = hints.a_loads + hints.b_loads
    total_reads = reads_per_frag * (n_lc + n_nlc)
    cap = 1 if hints.mma_m == hints.mma_n == 32 else 2
    mmas_per_read = min(cap, total_mmas // total_reads) if total_reads else cap
    remaining = total_mmas - total_reads * mmas_per_read
    per_store, extra = divmod(remaining, total_stores) if total_stores else (0, 0)
    groups: list[tuple[int, int]] = []
    groups += [(DS_READ, 1), (MFMA, mmas_per_read)] * (reads_per_frag * n_nlc)
    for s in range(total_stores):
        k = per_store + (1 if s < extra else 0)
        groups += [(DS_WRITE, 1), (MFMA, k // 2), (VMEM_READ, 1), (MFMA, k - k // 2)]
    groups += [(DS_READ, 1), (MFMA, mmas_per_read)] * (reads_per_frag * n_lc)
    out = list(kernel)
    for g, count in groups:
        out.append(ScheduleEntry(OpDesc.sched_group_barrier(g, count), len(out), Phase.KERNEL))
    return out
