"""Declaring and reordering loop bodies.

Where the reference silently drops ops (an op the MMA-block interleave has no
slot for, globals beyond the block budget), these functions raise
:class:`BodyError` naming the op instead.
"""

from __future__ import annotations

from pipeline_mlir.errors import BodyError
from pipeline_mlir.schedule.config import PipelineConfig
from pipeline_mlir.schedule.edges import derive_edges_from_ops
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.schedulers import optimal_schedule
from pipeline_mlir.schedule.types import DepEdge, KOffsetKind, OpDesc, OpRole


class PipelineBody:
    """Append-only builder of logical ops."""

    def __init__(self) -> None:
        self._ops: list[OpDesc] = []

    def load(self, tag, ch=-1, stage=0, sub=0, k=KOffsetKind.NONE) -> "PipelineBody":
        self._ops.append(OpDesc.logical(tag, ch, stage, sub, k))
        return self

    def store(self, tag, ch=-1, stage=0, sub=0) -> "PipelineBody":
        self._ops.append(OpDesc.logical(tag, ch, stage, sub))
        return self

    def frag(self, tag, ch=-1, stage=0, sub=0) -> "PipelineBody":
        self._ops.append(OpDesc.logical(tag, ch, stage, sub))
        return self

    def compute(self, tag, stage=0, sub=0) -> "PipelineBody":
        self._ops.append(OpDesc.logical(tag, -1, stage, sub))
        return self

    def barrier(self) -> "PipelineBody":
        self._ops.append(OpDesc.barrier())
        return self

    def op(self, op: OpDesc) -> "PipelineBody":
        self._ops.append(op)
        return self

    def fan(self, n: int, tag, ch=-1, stage=0, k=KOffsetKind.NONE) -> "PipelineBody":
        for s in range(n):
            self._ops.append(OpDesc.logical(tag, ch, stage, s, k))
        return self

    def grid(self, m: int, n: int, tag, ch=-1) -> "PipelineBody":
        for i in range(m):
            for j in range(n):
                self._ops.append(OpDesc.logical(tag, ch, i, j))
        return self

    def extend(self, other: "PipelineBody | list[OpDesc]") -> "PipelineBody":
        self._ops.extend(other.done() if isinstance(other, PipelineBody) else other)
        return self

    def done(self) -> list[OpDesc]:
        return list(self._ops)


def _describe(op: OpDesc, idx: int) -> str:
    return (f"op {idx} (tag {op.tag}, role {op.role.name}, channel {op.channel}, "
            f"stage {op.stage}, subtile {op.subtile})")


def _interleave(logical: list[OpDesc], config: PipelineConfig, use_max_globals: bool,
                base: int = 0) -> list[OpDesc]:
    globals_, frag_a, frag_b, mmas = [], [], [], []
    for i, op in enumerate(logical):
        if op.role == OpRole.GLOBAL_LOAD:
            globals_.append((i, op))
        elif op.role == OpRole.FRAGMENT_LOAD and op.channel == 0:
            frag_a.append((i, op))
        elif op.role == OpRole.FRAGMENT_LOAD and op.channel == 1:
            frag_b.append((i, op))
        elif op.role == OpRole.COMPUTE:
            mmas.append((i, op))
        else:
            raise BodyError(
                f"block placement: {_describe(op, base + i)} has no place in an MMA block "
                f"(only global loads, channel-0/1 fragment loads and MMAs are interleaved)")
    bs = config.block_sizing
    seen_m: set[int] = set()
    seen_n: set[int] = set()
    used: set[int] = set()
    g_idx = 0
    out: list[OpDesc] = []

    def take(frags, key):
        for i, f in frags:
            if f.subtile == key:
                out.append(f)
                used.add(i)
                return 1
        return 0

    for _, mma in mmas:
        m, nn = mma.stage, mma.subtile
        new_m, new_n = m not in seen_m, nn not in seen_n
        if config.frag_order.b_before_a:
            if new_n:
                take(frag_b, nn)
            if new_m:
                take(frag_a, m)
        else:
            if new_m:
                take(frag_a, m)
            if new_n:
                take(frag_b, nn)
        frag_count = int(new_n) + int(new_m)
        target = bs.heavy if new_m else bs.light
        available = max(target - frag_count - 1, 0)
        if use_max_globals and bs.max_globals > 0:
            available = min(max(available, 1), bs.max_globals)
        k = min(available, len(globals_) - g_idx)
        out.extend(op for _, op in globals_[g_idx:g_idx + k])
        g_idx += k
        out.append(mma)
        seen_m.add(m)
        seen_n.add(nn)
    if g_idx < len(globals_):
        i, op = globals_[g_idx]
        raise BodyError(
            f"block placement: {len(globals_) - g_idx} global load(s) do not fit the block "
            f"budget (heavy={bs.heavy}, light={bs.light}, max_globals={bs.max_globals}); first "
            f"unplaced: {_describe(op, base + i)}")
    for i, f in frag_a + frag_b:
        if i not in used:
            raise BodyError(
                f"block placement: {_describe(f, base + i)} matches no MMA row/column that "
                f"needs a new fragment (each row/column takes the first fragment with its subtile)")
    return out


def mma_block_interleave_list(logical: list[OpDesc], config: PipelineConfig, base: int = 0) -> list[OpDesc]:
    """One half in causal order (globals, frags, MMAs) -> MMA-centred blocks."""
    return _interleave(logical, config, True, base)


def mma_block_interleave(logical: list[OpDesc], config: PipelineConfig) -> list[OpDesc]:
    """The fixed-size (``Pipe``) variant: no max_globals floor/cap."""
    return _interleave(logical, config, False)


def double_buffer_reorder(logical: list[OpDesc], config: PipelineConfig) -> list[OpDesc]:
    h = len(logical) // 2
    return (mma_block_interleave_list(logical[:h], config, 0)
            + mma_block_interleave_list(logical[h:], config, h))


def single_buffer_reorder(logical: list[OpDesc], config: PipelineConfig) -> list[OpDesc]:
    """Loop-carried single-buffer order: non-LC frags, LC computes, barrier, stores, globals,
    non-LC computes, barrier, LC ops of the loop-carried role."""
    lc = config.loop_carried
    sel = lc.selector
    groups = [
        [o for o in logical if o.role == OpRole.FRAGMENT_LOAD and o.subtile != sel],
        [o for o in logical if o.role == OpRole.COMPUTE and o.subtile == sel],
        [OpDesc.barrier()],
        [o for o in logical if o.role == OpRole.SHARED_STORE],
        [o for o in logical if o.role == OpRole.GLOBAL_LOAD],
        [o for o in logical if o.role == OpRole.COMPUTE and o.subtile != sel],
        [OpDesc.barrier()],
        [o for o in logical if o.role == lc.role and o.subtile == sel],
    ]
    placed = {id(o) for g in groups for o in g}
    for i, o in enumerate(logical):
        if id(o) not in placed and o.role != OpRole.SYNC:
            raise BodyError(
                f"single_buffer_reorder: {_describe(o, i)} has no place in the single-buffer order")
    return [o for g in groups for o in g]


def optimize_within_barriers(body: list[OpDesc], config: PipelineConfig) -> list[OpDesc]:
    """Reorder each barrier-delimited segment optimally; barriers stay where they are."""

    edges = derive_edges_from_ops(body, config)
    out: list[OpDesc] = []
    seg: list[int] = []

    def flush():
        if len(seg) <= 1:
            out.extend(body[i] for i in seg)
        else:
            pos = {g: k for k, g in enumerate(seg)}
            sub = [DepEdge(pos[e.producer_idx], pos[e.consumer_idx], e.dep_kind, 0)
                   for e in edges if e.loop_distance == 0
                   and e.producer_idx in pos and e.consumer_idx in pos]
            res = optimal_schedule(LoopBody.of([body[i] for i in seg], sub))
            out.extend(body[seg[k]] for k in res.order)
        seg.clear()

    for i, op in enumerate(body):
        if op.role == OpRole.SYNC:
            flush()
            out.append(op)
        else:
            seg.append(i)
    flush()
    return out
