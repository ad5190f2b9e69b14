"""Dependency-edge derivation: the declarative rule tables and their evaluator,
plus the cross-stage-rotation helpers of the 4-wave schedule."""

from __future__ import annotations

from pipeline_mlir.schedule.config import PipelineConfig
from pipeline_mlir.schedule.types import DepEdge, DepKind, EdgeRule, KOffsetKind, OpDesc, OpRole

_R = OpRole


def double_buffer_edge_rules() -> list[EdgeRule]:
    """The 5 rules (4 phases) of the double-buffer path, in evaluation order."""
    return [
        EdgeRule("reg_flow", _R.FRAGMENT_LOAD, _R.COMPUTE, DepKind.FLOW, 0,
                 use_config_match=True, same_half=True),
        EdgeRule("accum_forward", _R.COMPUTE, _R.COMPUTE, DepKind.FLOW, 0,
                 match_stage=True, match_subtile=True, cross_half=True, producer_half=0),
        EdgeRule("accum_backward", _R.COMPUTE, _R.COMPUTE, DepKind.FLOW, 1,
                 match_stage=True, match_subtile=True, cross_half=True, producer_half=1),
        EdgeRule("lds_flow", _R.GLOBAL_LOAD, _R.FRAGMENT_LOAD, DepKind.FLOW, -1,
                 match_channel=True, match_stage=True),
        EdgeRule("lds_anti", _R.FRAGMENT_LOAD, _R.GLOBAL_LOAD, DepKind.ANTI, 0,
                 match_channel=True, match_stage=True, k_offset_filter=2),
    ]


def single_buffer_edge_rules(config: PipelineConfig | None = None) -> list[EdgeRule]:
    """The 8 rules of the single-buffer path (LC = subtile equals the loop-carried selector)."""
    return [
        EdgeRule("frag_to_compute", _R.FRAGMENT_LOAD, _R.COMPUTE, DepKind.FLOW, 0,
                 match_subtile=True, lc_producer=0, lc_consumer=0, first_match_only=True),
        EdgeRule("barrier0_to_store", _R.SYNC, _R.SHARED_STORE, DepKind.FLOW, 0, producer_ordinal=0),
        EdgeRule("store_to_barrier1", _R.SHARED_STORE, _R.SYNC, DepKind.FLOW, 0, consumer_ordinal=1),
        EdgeRule("barrier1_to_lc_frag", _R.SYNC, _R.FRAGMENT_LOAD, DepKind.FLOW, 0,
                 producer_ordinal=1, lc_consumer=1),
        EdgeRule("frag_before_barrier0", _R.FRAGMENT_LOAD, _R.SYNC, DepKind.ANTI, 0,
                 lc_producer=0, consumer_ordinal=0),
        EdgeRule("lc_frag_to_lc_compute", _R.FRAGMENT_LOAD, _R.COMPUTE, DepKind.FLOW, 1,
                 lc_producer=1, lc_consumer=1),
        EdgeRule("global_to_store", _R.GLOBAL_LOAD, _R.SHARED_STORE, DepKind.FLOW, 1),
        EdgeRule("lc_frag_before_store", _R.FRAGMENT_LOAD, _R.SHARED_STORE, DepKind.ANTI, 1,
                 lc_producer=1),
    ]


def _slot(role: OpRole) -> int:
    return int(role) if 0 <= int(role) <= 6 else 7


def _lc_ok(flag: int, is_lc: bool) -> bool:
    return flag < 0 or (flag == 1) == is_lc


def apply_edge_rules(body: list[OpDesc], config: PipelineConfig, rules: list[EdgeRule]) -> list[DepEdge]:
    """Evaluate ``rules`` over ``body``; output order is rule, producer, consumer."""
    n = len(body)
    half = n // 2
    by_slot: list[list[int]] = [[] for _ in range(8)]
    ordinal = [0] * n
    for i, op in enumerate(body):
        s = _slot(op.role)
        ordinal[i] = len(by_slot[s])
        by_slot[s].append(i)
    sel = config.loop_carried.selector
    is_lc = [op.subtile == sel for op in body]
    half_of = [0 if i < half else 1 for i in range(n)]
    edges: list[DepEdge] = []
    for r in rules:
        for p in by_slot[_slot(r.producer_role)]:
            if r.producer_ordinal >= 0 and ordinal[p] != r.producer_ordinal:
                continue
            if not _lc_ok(r.lc_producer, is_lc[p]):
                continue
            if r.producer_half >= 0 and half_of[p] != r.producer_half:
                continue
            po = body[p]
            for c in by_slot[_slot(r.consumer_role)]:
                if c == p:
                    continue
                if r.consumer_ordinal >= 0 and ordinal[c] != r.consumer_ordinal:
                    continue
                if not _lc_ok(r.lc_consumer, is_lc[c]):
                    continue
                co = body[c]
                if r.match_channel and po.channel != co.channel:
                    continue
                if r.match_stage and po.stage != co.stage:
                    continue
                if r.match_subtile and po.subtile != co.subtile:
                    continue
                if r.same_half and half_of[p] != half_of[c]:
                    continue
                if r.cross_half and half_of[p] == half_of[c]:
                    continue
                if r.use_config_match:
                    if (po.stage == 0) != (c < half):
                        continue
                    if config.compute_match_key(co, po.channel) != po.subtile:
                        continue
                if r.k_offset_filter == 1 and co.k_offset != KOffsetKind.K_PREV:
                    continue
                if r.k_offset_filter == 2 and co.k_offset == KOffsetKind.K_PREV:
                    continue
                d = r.loop_distance
                if d < 0:
                    d = 0 if po.k_offset == KOffsetKind.K_PREV else 1
                edges.append(DepEdge(p, c, r.dep_kind, d))
                if r.first_match_only:
                    break
    return edges


def derive_edges_from_ops(body: list[OpDesc], config: PipelineConfig) -> list[DepEdge]:
    rules = single_buffer_edge_rules(config) if config.depth == 1 else double_buffer_edge_rules()
    return apply_edge_rules(body, config, rules)


def _partition(i: int, n: int) -> int:
    return 0 if i < n // 2 else 1


def _is_cross_frag(op: OpDesc, i: int, n: int) -> bool:
    return op.role == OpRole.FRAGMENT_LOAD and op.subtile == 0 and op.stage != _partition(i, n)


def derive_cross_stage_rotation_edges(body: list[OpDesc]) -> list[DepEdge]:
    """Edges of fragments pre-loaded from the other stage for the next K-partition (4-wave)."""
    n = len(body)
    out: list[DepEdge] = []
    for i, f in enumerate(body):
        if not _is_cross_frag(f, i, n):
            continue
        fp = _partition(i, n)
        for j, m in enumerate(body):
            if m.role != OpRole.COMPUTE:
                continue
            if not ((f.channel == 0 and m.stage == 0) or (f.channel == 1 and m.subtile == 0)):
                continue
            if _partition(j, n) != fp:
                out.append(DepEdge.flow(i, j, 0 if fp == 0 else 1))
            else:
                out.append(DepEdge.anti(j, i, 0))
    return out


def filter_spurious_cross_stage_flow(raw: list[DepEdge], body: list[OpDesc]) -> list[DepEdge]:
    """Drop FLOW edges from a cross-stage fragment to an MMA of its own partition."""
    n = len(body)
    keep = []
    for e in raw:
        p, c = e.producer_idx, e.consumer_idx
        if (e.dep_kind == DepKind.FLOW and _is_cross_frag(body[p], p, n)
                and body[c].role == OpRole.COMPUTE and _partition(p, n) == _partition(c, n)):
            continue
        keep.append(e)
    return keep
