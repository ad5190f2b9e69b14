"""The loop dependency graph: ASAP/ALAP against networkx, validation errors."""

import networkx as nx
import pytest

from pipeline_mlir.errors import BodyError
from pipeline_mlir.schedule.graph import LoopBody, OpNode
from pipeline_mlir.schedules.fourwave import Pipeline4Wave
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule
from pipeline_mlir.schedule.types import DepEdge, OpDesc, OpRole, ResourceKind


def nx_asap(body: LoopBody) -> list[int]:
    g = body.to_networkx(d0_only=True)
    t = {i: 0 for i in g.nodes}
    for v in nx.topological_sort(g):
        for u in g.predecessors(v):
            t[v] = max(t[v], t[u] + g.nodes[u]["latency"])
    return [t[i] for i in range(len(body))]


@pytest.mark.parametrize("schedule", [DeclarativeSchedule(False, 8, 8), Pipeline4Wave()])
def test_asap_alap_agree_with_networkx(schedule):
    ops = schedule.build_body()
    body = LoopBody.of(ops, schedule.derive_edges(ops))
    assert body.asap() == nx_asap(body)
    mk = body.makespan_bound()
    alap = body.alap(mk)
    assert all(a <= b for a, b in zip(body.asap(), alap))
    g = body.to_networkx()
    assert g.number_of_edges() == len(body.edges)
    assert {d["distance"] for *_, d in g.edges(data=True)} <= {0, 1}


def test_pingpong_asap_matches_spec():
    s = DeclarativeSchedule(False, 8, 8)
    ops = s.build_body()
    assert LoopBody.of(ops, s.derive_edges(ops)).asap() == [
        0, 0, 0, 20, 0, 20, 20, 0, 20, 20, 20, 20, 0, 200, 20, 220, 0, 220, 220, 200, 20, 220, 20, 220]


def test_opnode_latency_override():
    op = OpDesc.op(0, ResourceKind.LDS, 20, OpRole.FRAGMENT_LOAD)
    assert OpNode.of(op).latency == 20 and OpNode.of(op, 99).latency == 99


@pytest.mark.parametrize("edge,msg", [
    (DepEdge.flow(0, 5), r"LoopBody: edge index out of bounds \(0->5F0 with 2 ops\)"),
    (DepEdge.flow(1, 1), r"LoopBody: self-loop with d=0 \(op 1\)"),
    (DepEdge.flow(0, 1, -1), r"LoopBody: negative loop distance on edge 0->1F-1"),
])
def test_validate_rejects(edge, msg):
    ops = [OpDesc.op(0, ResourceKind.LDS, 1, OpRole.FRAGMENT_LOAD)] * 2
    with pytest.raises(BodyError, match=msg):
        LoopBody.of(ops, [edge]).validate()


def test_loop_carried_self_edge_is_fine():
    ops = [OpDesc.op(0, ResourceKind.MMA_UNIT, 16, OpRole.COMPUTE)]
    body = LoopBody.of(ops, [DepEdge.flow(0, 0, 1)])
    body.validate()
    assert body.asap() == [0]
