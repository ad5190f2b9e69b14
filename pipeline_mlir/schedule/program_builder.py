"""Building the double-buffer program from an ordered body: MMA-centred blocks, global
redistribution, wait derivation and patching, verification, kernel deps."""

from __future__ import annotations

from pipeline_mlir.errors import BodyError, SchedulingError, VerificationError
from pipeline_mlir.records import record
from pipeline_mlir.schedule.config import PipelineConfig, ScheduleConfig, SchedulingStrategy
from pipeline_mlir.schedule.edges import derive_edges_from_ops
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.program import MMABlockSpec, PipelineProgram, scale_units
from pipeline_mlir.schedule.types import (
    NONE_OP,
    WAIT_LGKM,
    DepEdge,
    OpDesc,
    OpRole,
    ScheduleEntry,
    is_prefetch,
)

WAIT_DISABLED = 255


def derive_main_wait_vm(body: list[OpDesc], config: PipelineConfig) -> int:
    """vmcnt that leaves one partition's k-offset prefetches in flight."""
    total = sum(config.vm_per_channel(o.channel) for o in body
                if o.role == OpRole.GLOBAL_LOAD and is_prefetch(o))
    p = config.num_partitions
    return total - total // p if p > 0 else total


def _op_label(op: OpDesc) -> str:
    return f"tag {op.tag} (channel {op.channel}, stage {op.stage}, subtile {op.subtile})"


def _overfull_advice(globs: list[OpDesc], sched: ScheduleConfig) -> str:
    """What to do about a block that collects more than 2 fragment or global loads: only
    options every double-buffer schedule has (``max_globals``, ``scheduling``)."""
    if sched.scheduling == SchedulingStrategy.IDENTITY:
        return ("; the order is the body's own (scheduling=identity keeps it): the loop must "
                "issue at most 2 fragment loads and 2 global loads before each MMA; was it "
                "written for a different pipeline?")
    order = sched.scheduling.name.lower()
    if len(globs) > 2:
        return (f"; the {order} order put them there: lower max_globals (global loads per MMA "
                f"block) or try another scheduling")
    return f"; the {order} order put them there: try another scheduling"


def construct_mma_blocks(body: LoopBody, order: list[int], config: PipelineConfig,
                         sched: ScheduleConfig) -> PipelineProgram:
    """Cut the ordered body into one block per MMA and set each block's waits and flags."""
    bph = config.blocks_per_partition
    num_blocks = config.total_blocks
    main_wait_vm = derive_main_wait_vm([n.op for n in body.ops], config)
    ops = [body.ops[i].op for i in order]
    program = PipelineProgram()
    cursor = 0
    seen_cross = set()
    for b in range(num_blocks):
        pos, part = b % bph, b // bph
        frags, globs, mma, cursor = _next_block(ops, cursor, b, num_blocks, sched)
        cross = any(f.stage != part for f in frags)
        first_cross = cross and part not in seen_cross
        if cross:
            seen_cross.add(part)
        top_drain = pos == 0 and (cross or _frag_of_other_stage(ops, cursor, part, bph - 1))
        blk = MMABlockSpec(mma=mma)
        if frags:
            blk.pre_op_0 = frags[0]
        if len(frags) > 1:
            blk.pre_op_1 = frags[1]
        if globs:
            blk.global_load = globs[0]
        if len(globs) > 1:
            blk.global_load_1 = globs[1]
        if first_cross or top_drain:
            blk.entry_wait = OpDesc.wait_vm(main_wait_vm)
        _set_block_waits(blk, pos, bph, first_cross, sched)
        _set_block_flags(blk, b, pos, first_cross, sched)
        program.blocks.append(blk)
    if cursor < len(ops):
        raise BodyError(f"MMA blocks: expected all ops consumed; {len(ops) - cursor} "
                        f"op(s) follow the last MMA (first: {_op_label(ops[cursor])})")
    return program


def _next_block(ops: list[OpDesc], cursor: int, b: int, num_blocks: int,
                sched: ScheduleConfig):
    """(fragment loads, global loads, MMA, next cursor) of block ``b``: the ops from
    ``cursor`` up to and including the next MMA."""
    frags: list[OpDesc] = []
    globs: list[OpDesc] = []
    mma = None
    while cursor < len(ops):
        op = ops[cursor]
        cursor += 1
        if op.role == OpRole.FRAGMENT_LOAD:
            frags.append(op)
        elif op.role == OpRole.GLOBAL_LOAD:
            globs.append(op)
        elif op.role == OpRole.COMPUTE:
            mma = op
            break
        else:
            raise BodyError(
                f"MMA blocks: block {b} would drop {_op_label(op)} with role "
                f"{op.role.name}; double-buffer blocks hold only fragment loads, global "
                f"loads and one MMA")
    if mma is None:
        raise BodyError(f"MMA blocks: expected {num_blocks} blocks "
                        f"(one per MMA), the body has only {b}")
    if len(frags) > 2 or len(globs) > 2:
        extra = (frags[2:] + globs[2:])[0]
        raise BodyError(
            f"MMA blocks: block {b} collects {len(frags)} fragment loads and "
            f"{len(globs)} global loads; a block holds at most 2 of each (first extra: "
            f"{_op_label(extra)}){_overfull_advice(globs, sched)}")
    return frags, globs, mma, cursor


def _frag_of_other_stage(ops: list[OpDesc], k: int, part: int, mmas_left: int) -> bool:
    """Whether a fragment load of another stage than ``part`` follows ``ops[k]`` within
    the next ``mmas_left`` MMAs (the partition's first block then drains vmcnt)."""
    while k < len(ops) and mmas_left > 0:
        o = ops[k]
        if o.role == OpRole.FRAGMENT_LOAD and o.stage != part:
            return True
        if o.role == OpRole.COMPUTE:
            mmas_left -= 1
        k += 1
    return False


def _set_block_waits(blk: MMABlockSpec, pos: int, bph: int, first_cross: bool,
                     sched: ScheduleConfig) -> None:
    """The lgkm (and last block's vm) waits of the block at ``pos`` of its partition."""
    has_entry = blk.entry_wait.is_present()
    if pos == 0 and sched.wait_lgkm_first < WAIT_DISABLED:
        if has_entry and sched.minimal_barriers:
            blk.entry_wait_lgkm = OpDesc.wait_lgkm(0)
        else:
            blk.pre_sync = OpDesc.wait_lgkm(sched.wait_lgkm_first)
    elif first_cross:
        if has_entry and sched.minimal_barriers:
            blk.entry_wait_lgkm = OpDesc.wait_lgkm(0)
        else:
            blk.pre_sync = OpDesc.wait_lgkm(0)
    elif pos == bph - 1:
        blk.pre_sync = OpDesc.wait_vm(sched.wait_vm_last)
        blk.post_barrier_lgkm = sched.lgkm_after_last
    elif sched.inter_block_lgkm_drain:
        blk.entry_wait_lgkm = OpDesc.wait_lgkm(0)


def _set_block_flags(blk: MMABlockSpec, b: int, pos: int, first_cross: bool,
                     sched: ScheduleConfig) -> None:
    """Block ``b``'s drains, barriers, priorities and fences from the schedule config."""
    blk.drain_lgkm_before_loads = (bool(sched.drain_lgkm_mask >> b & 1) and blk.has_frag()
                                   and blk.has_global())
    if sched.minimal_barriers:
        blk.pre_mma_barrier = False
        blk.pre_mma_set_prio = False if sched.omit_mma_set_prio else (pos == 0 or first_cross)
        blk.post_mma_barrier = blk.post_mma_set_prio = blk.post_barrier_lgkm = False
    blk.trailing_sched_barrier = bool(sched.sched_barrier_mask >> b & 1)
    blk.global_load_prefetch = is_prefetch(blk.global_load)
    blk.global_load_1_prefetch = is_prefetch(blk.global_load_1)
    blk.global_before_frag = sched.global_before_frag
    blk.barrier_before_pre_ops = sched.barrier_before_pre_ops
    blk.wrap_waits_with_sched_barrier = sched.wrap_waits_with_sched_barrier


def _global_units(blk: MMABlockSpec) -> list[list[OpDesc]]:
    """The block's global loads as units (an element tile's with its scale tile's)."""
    return scale_units(blk.globals)


def _set_globals(blk: MMABlockSpec, ops: list[OpDesc]) -> None:
    if len(ops) > 2:
        raise BodyError(f"global load distribution: a block would hold {len(ops)} global "
                        f"loads (first extra: {_op_label(ops[2])}); it has 2 slots")
    ops = ops + [NONE_OP] * (2 - len(ops))
    blk.global_load, blk.global_load_prefetch = ops[0], is_prefetch(ops[0])
    blk.global_load_1, blk.global_load_1_prefetch = ops[1], is_prefetch(ops[1])


def redistribute_globals(program: PipelineProgram, config: PipelineConfig,
                         sched: ScheduleConfig) -> None:
    """Even out global loads to exactly ``max_globals`` per block where there are enough
    (a scale tile's load moves with its element tile's and does not count)."""
    g = config.block_sizing.max_globals
    if g <= 0:
        return
    pool: list[list[OpDesc]] = []
    for blk in program.blocks:
        units = _global_units(blk)
        if len(units) > g:
            pool += units[g:]
            _set_globals(blk, [o for u in units[:g] for o in u])
    for b, blk in enumerate(program.blocks):
        if not pool:
            break
        units = _global_units(blk)
        if len(units) < g:
            take = g - len(units)
            units += pool[:take]
            del pool[:take]
            _set_globals(blk, [o for u in units for o in u])
        blk.drain_lgkm_before_loads = (bool(sched.drain_lgkm_mask >> b & 1)
                                       and blk.has_frag() and blk.has_global())
    if pool:
        raise BodyError(f"global load distribution: {len(pool)} global load(s) found no block "
                        f"with room (max_globals={g})")


def build_double_buffer_program(body: LoopBody, order: list[int], config: PipelineConfig,
                                sched: ScheduleConfig) -> PipelineProgram:
    program = construct_mma_blocks(body, order, config, sched)
    redistribute_globals(program, config, sched)
    return program


@record(frozen=True)
class DerivedWaits:
    lgkm: int
    vm: int


def derive_waits_from_blocks(program: PipelineProgram, config: PipelineConfig,
                             lgkm_per_load_a: int = 0, lgkm_per_load_b: int = 0) -> DerivedWaits:
    """Top-of-half lgkm wait and last-block vm wait from the final block structure."""
    per_load = config.lgkm_per_load(lgkm_per_load_a, lgkm_per_load_b)
    bph = config.blocks_per_partition
    best_lgkm, best_vm = 0, WAIT_DISABLED
    for h in range(config.num_partitions):
        blocks = program.blocks[h * bph:(h + 1) * bph]
        if not blocks:
            continue
        gl = sum(per_load[g.channel] for g in blocks[0].globals)
        if config.top_wait_frags:
            # what may stay in flight at the top of a half is the fragment loads of the
            # block before it (the previous half's last), not block 0's globals charged at
            # their channel's fragment cost (the reference's count): with K-half subtiles
            # A's and B's loads may issue very different reads (8 accumulators sharing one
            # A fragment: 2 against 16), and the reference's count would cut B's load
            before = program.blocks[(h * bph - 1) % len(program.blocks)]
            gl = sum(per_load[f.channel] for f in before.frags)
        best_lgkm = max(best_lgkm, gl)
        total = sum(config.vm_per_channel(g.channel) for b in blocks for g in b.globals)
        completion = sum(config.vm_per_channel(g.channel) for b in blocks for g in b.globals
                         if g.stage != h)
        best_vm = min(best_vm, total - completion)
    return DerivedWaits(best_lgkm, best_vm)


def derive_drain_mask(program: PipelineProgram, config: PipelineConfig) -> int:
    mask = 0
    for i, b in enumerate(program.blocks):
        gl = b.global_load
        if b.has_frag() and gl.is_present() and any(f.channel != gl.channel for f in b.frags):
            mask |= 1 << i
    return mask


def patch_waits(program: PipelineProgram, config: PipelineConfig, sched: ScheduleConfig,
                waits: DerivedWaits) -> None:
    if sched.auto_drain:
        mask = derive_drain_mask(program, config)
        for i, b in enumerate(program.blocks):
            b.drain_lgkm_before_loads = bool(mask >> i & 1) and b.has_frag() and b.has_global()
    bph = config.blocks_per_partition
    for h in range(config.num_partitions):
        b0 = program.blocks[h * bph]
        bn = program.blocks[h * bph + bph - 1]
        if waits.lgkm < WAIT_DISABLED:
            val = 0 if sched.barrier_before_pre_ops else waits.lgkm
            if sched.minimal_barriers and b0.entry_wait.is_present():
                b0.entry_wait_lgkm = OpDesc.wait_lgkm(val)
                b0.pre_sync = NONE_OP
            else:
                b0.pre_sync = OpDesc.wait_lgkm(val)
        bn.pre_sync = OpDesc.wait_vm(waits.vm)


# ---- verification ---------------------------------------------------------------------

def _fail(msg: str) -> None:
    raise VerificationError(f"schedule check: {msg}")


def verify_schedule(program: PipelineProgram, config: PipelineConfig, lgkm_per_load_a: int,
                    lgkm_per_load_b: int, wait_lgkm_first: int, wait_vm_last: int) -> None:
    """Structural safety checks, always on; messages are the reference's."""
    bph = config.blocks_per_partition
    parts = config.num_partitions
    blocks = program.blocks
    if len(blocks) != bph * parts:
        _fail(f"expected {bph * parts} blocks, got {len(blocks)}")
    # 1. completeness
    for i, b in enumerate(blocks):
        if not b.mma.is_present():
            _fail(f"block {i} has no MMA op")
        if b.mma.role != OpRole.COMPUTE:
            _fail(f"block {i} MMA op has wrong role")
    # 2. wait bounds
    if wait_lgkm_first < WAIT_DISABLED:
        if wait_lgkm_first < 0:
            _fail("wait_lgkm_first is negative")
        if lgkm_per_load_a > 0 or lgkm_per_load_b > 0:
            per_load = (lgkm_per_load_a, lgkm_per_load_b) + config.lgkm_per_load()[2:]
            for h in range(parts):
                g = sum(per_load[o.channel] for o in blocks[h * bph].globals)
                if wait_lgkm_first > g:
                    _fail(f"wait_lgkm_first ({wait_lgkm_first}) > block 0 global lgkm ({g}) in half {h}")
    if wait_vm_last < 0:
        _fail("wait_vm_last is negative")
    for i, b in enumerate(blocks):
        for slot in ("entry_wait", "entry_wait_lgkm", "pre_sync"):
            w = getattr(b, slot)
            if w.is_present() and w.wait_value < 0:
                _fail(f"block {i} {slot} has a negative wait count ({w.wait_value})")
    # 3. distribution
    g = config.block_sizing.max_globals
    total_globals = sum(len(_global_units(b)) for b in blocks)
    if g > 0 and total_globals >= len(blocks) * g:
        for i, b in enumerate(blocks):
            if len(_global_units(b)) != g:
                _fail(f"block {i} has {len(_global_units(b))} globals, expected {g}")
    _verify_scale_companions(blocks)
    # 4. stage consistency
    if config.depth == 2 and not config.cross_stage_rotation:
        for i, b in enumerate(blocks):
            h = i // bph
            for name in ("pre_op_0", "pre_op_1"):
                op = getattr(b, name)
                if op.is_present() and op.stage != h:
                    _fail(f"block {i} {name} stage={op.stage} expected={h}")
    # 5. prefetch coverage
    if not any(b.has_prefetch() for b in blocks):
        _fail("no global load is marked as prefetch")
    # 6. completion coverage
    if config.depth == 2 and not config.cross_stage_rotation:
        for h in range(parts):
            if not any(o.stage != h for b in blocks[h * bph:(h + 1) * bph] for o in b.globals):
                _fail(f"half {h} has no completion load (stage != half) \u2014 wait_vm would "
                      f"drain nothing, race condition")
    # 7. warp-stagger LDS safety
    if config.depth == 2 and config.warp_stagger.enabled and g == 0:
        for h in range(parts):
            for j in range(1, bph - 1):
                i = h * bph + j
                for o in blocks[i].globals:
                    if o.stage == h and any(f.stage == o.stage for f in blocks[i + 1].frags):
                        _fail(f"cross-block LDS race \u2014 block {i} prefetch writes stage "
                              f"{o.stage} which block {i + 1} reads via fragment load. Use "
                              f"max_globals=0 or increase num_k_mmas to add latency.")


def _verify_scale_companions(blocks: list[MMABlockSpec]) -> None:
    """8. The MX scale channels: each scale tile's load (channel 2, 3) right after its
    element tile's load of the same stage and subtile in the same block (the scale of an
    MFMA operand is read with the operand; the element op's wait then covers it)."""
    for i, b in enumerate(blocks):
        for ops in (b.frags, b.globals):
            for j, o in enumerate(ops):
                if o.channel < 2:
                    continue
                prev = ops[j - 1] if j else NONE_OP
                if not (prev.is_present() and prev.channel == o.channel - 2
                        and (prev.stage, prev.subtile) == (o.stage, o.subtile)):
                    _fail(f"block {i}: scale op {_op_label(o)} does not follow its element "
                          f"tile's load (channel {o.channel - 2}, stage {o.stage}, subtile "
                          f"{o.subtile}) in the block")


# ---- the whole double-buffer build ---------------------------------------------------------

@record
class KernelProgram:
    program: PipelineProgram
    order: list[int]
    schedule: object | None  # ScheduleResult of GREEDY/CSP runs
    waits: DerivedWaits | None


def order_body(body: LoopBody, config: PipelineConfig, sched: ScheduleConfig):
    """Order the body with the configured strategy; returns (order, ScheduleResult or None).
    The schedulers are imported by the strategies that run them."""
    if sched.scheduling == SchedulingStrategy.CSP:
        from pipeline_mlir.schedule.schedulers import optimal_schedule_with_halves

        args = (body, config.block_sizing.max_globals, sched.lds_contention_penalty,
                sched.max_vgpr)
        try:
            res = optimal_schedule_with_halves(*args, accept=lambda order: passes_verification(
                body, order, config, sched))
        except SchedulingError:
            # no order's blocks verify (a body that does not fit the configuration at all):
            # the plain search's answer, whose verification then names the problem
            res = optimal_schedule_with_halves(*args)
        return res.order, res
    body.validate()
    if sched.scheduling == SchedulingStrategy.GREEDY:
        from pipeline_mlir.schedule.evaluate import greedy_schedule

        return greedy_schedule(body), None
    return list(range(len(body.ops))), None


def passes_verification(body: LoopBody, order: list[int], config: PipelineConfig,
                        sched: ScheduleConfig) -> bool:
    """Whether the blocks built from ``order`` (with their derived waits) pass
    :func:`verify_schedule`: the orders the CSP may return."""
    try:
        program, waits = build_program_with_waits(body, order, config, sched)
        verify_program(program, config, sched, waits)
    except (BodyError, VerificationError):
        return False
    return True


def loop_body(body: list[OpDesc], config: PipelineConfig, edges: list[DepEdge]) -> LoopBody:
    """The body with its edges; an empty edge list means "derive them"."""

    return LoopBody.of(list(body), edges if edges else derive_edges_from_ops(body, config))


def build_program_with_waits(body: LoopBody, order: list[int], config: PipelineConfig,
                             sched: ScheduleConfig) -> tuple[PipelineProgram, DerivedWaits | None]:
    """Blocks and redistribution, then (``auto_waits``) the derived, patched waits."""
    program = build_double_buffer_program(body, order, config, sched)
    waits = None
    if sched.auto_waits:
        waits = derive_waits_from_blocks(program, config, sched.lgkm_per_load_a, sched.lgkm_per_load_b)
        patch_waits(program, config, sched, waits)
    return program, waits


def verify_program(program: PipelineProgram, config: PipelineConfig, sched: ScheduleConfig,
                   waits: DerivedWaits | None) -> None:
    verify_schedule(program, config, sched.lgkm_per_load_a, sched.lgkm_per_load_b,
                    waits.lgkm if waits else 0, waits.vm if waits else 0)


def build_kernel_program(body: list[OpDesc], config: PipelineConfig, sched: ScheduleConfig,
                         edges: list[DepEdge]) -> KernelProgram:
    lb = loop_body(body, config, edges)
    order, result = order_body(lb, config, sched)
    program, waits = build_program_with_waits(lb, order, config, sched)
    verify_program(program, config, sched, waits)
    return KernelProgram(program, order, result, waits)


def default_kernel_deps_double_buffer(kernel: list[ScheduleEntry], config: PipelineConfig) -> list[DepEdge]:
    parts = max(config.num_partitions, 1)
    size = len(kernel) // parts
    deps: list[DepEdge] = []
    for c in range(parts):
        lo = c * size
        mmas: list[int] = []
        starts: list[int] = []
        lgkm = -1
        for k in range(lo, lo + size):
            op = kernel[k].op
            if op.role == OpRole.SYNC and len(starts) == len(mmas):
                starts.append(k)
            if op.tag == WAIT_LGKM and lgkm < 0:
                lgkm = k
            if op.role == OpRole.COMPUTE:
                mmas.append(k)
        if mmas and starts:
            deps.append(DepEdge.flow(starts[0], mmas[0]))
        if mmas and lgkm >= 0:
            deps.append(DepEdge.flow(lgkm, mmas[0]))
        for a, b in zip(mmas[:2], mmas[1:3]):
            deps.append(DepEdge.flow(a, b))
    return deps
