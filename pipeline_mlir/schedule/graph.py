"""The loop dependency graph: op nodes, edges, ASAP/ALAP, validation.

Only same-iteration edges (loop distance 0) constrain scheduling; loop-carried
edges are kept for information.  The time-critical relaxations (ASAP/ALAP, the
topological check) are plain Python so that compiling a schedule never pays
for importing networkx; :meth:`LoopBody.to_networkx` gives the full graph
(both edge kinds, loop distances as attributes) for analysis, and
:meth:`LoopBody.validate` uses it to name the ops of a dependency cycle.
"""

from __future__ import annotations

import heapq

from pipeline_mlir.errors import BodyError
from pipeline_mlir.records import field, record
from pipeline_mlir.schedule.types import DepEdge, OpDesc, ResourceKind


@record(slots=True)
class OpNode:
    op: OpDesc
    resource: ResourceKind = ResourceKind.NONE
    latency: int = 0

    @staticmethod
    def of(op: OpDesc, latency: int = -1) -> "OpNode":
        """Node of ``op``; a non-negative ``latency`` overrides the op's own."""
        return OpNode(op, op.resource, op.latency if latency < 0 else latency)


@record
class LoopBody:
    ops: list[OpNode] = field(default_factory=list)
    edges: list[DepEdge] = field(default_factory=list)

    @staticmethod
    def of(ops: list[OpDesc], edges: list[DepEdge]) -> "LoopBody":
        return LoopBody([OpNode.of(o) for o in ops], list(edges))

    def __len__(self) -> int:
        return len(self.ops)

    @property
    def latencies(self) -> list[int]:
        return [n.latency for n in self.ops]

    def d0_edges(self) -> list[tuple[int, int]]:
        return [(e.producer_idx, e.consumer_idx) for e in self.edges if e.loop_distance == 0]

    def predecessors(self) -> list[list[int]]:
        """Producers of every op over d=0 edges (FLOW and ANTI alike), in edge order."""
        preds: list[list[int]] = [[] for _ in self.ops]
        for p, c in self.d0_edges():
            preds[c].append(p)
        return preds

    def successors(self) -> list[list[int]]:
        succs: list[list[int]] = [[] for _ in self.ops]
        for p, c in self.d0_edges():
            succs[p].append(c)
        return succs

    # ---- validation ------------------------------------------------------
    def _check_indices(self) -> None:
        n = len(self.ops)
        for e in self.edges:
            if not (0 <= e.producer_idx < n and 0 <= e.consumer_idx < n):
                raise BodyError(f"LoopBody: edge index out of bounds ({e} with {n} ops)")
            if e.producer_idx == e.consumer_idx and e.loop_distance == 0:
                raise BodyError(f"LoopBody: self-loop with d=0 (op {e.producer_idx})")
            if e.loop_distance < 0:
                raise BodyError(f"LoopBody: negative loop distance on edge {e}")

    def topological_order(self) -> list[int]:
        """A topological order of the d=0 graph (smallest index first); raises on a cycle."""

        self._check_indices()
        indeg = [0] * len(self.ops)
        succs = self.successors()
        for s in succs:
            for c in s:
                indeg[c] += 1
        ready = [i for i, d in enumerate(indeg) if d == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            i = heapq.heappop(ready)
            order.append(i)
            for c in succs[i]:
                indeg[c] -= 1
                if indeg[c] == 0:
                    heapq.heappush(ready, c)
        if len(order) != len(self.ops):
            raise BodyError(f"LoopBody: dependency cycle with d=0: {self.find_cycle()}")
        return order

    def find_cycle(self) -> str:
        """The first d=0 cycle as ``a -> b -> ... -> a`` (empty string if acyclic)."""
        import networkx as nx  # lazy: 0.2 s to import, needed only for cycle checks

        g = self.to_networkx(d0_only=True)
        try:
            cyc = nx.find_cycle(g)
        except nx.NetworkXNoCycle:
            return ""
        return " -> ".join(str(e[0]) for e in cyc) + f" -> {cyc[0][0]}"

    def validate(self) -> None:
        """Raise :class:`BodyError` on out-of-range indices, d=0 self-loops or d=0 cycles."""
        self.topological_order()

    def to_networkx(self, d0_only: bool = False):
        """networkx MultiDiGraph: nodes carry ``op``/``latency``, edges ``kind``/``distance``."""
        import networkx as nx  # lazy: 0.2 s to import, needed only for cycle checks

        g = nx.MultiDiGraph()
        for i, n in enumerate(self.ops):
            g.add_node(i, op=n.op, latency=n.latency, resource=n.resource)
        for e in self.edges:
            if d0_only and e.loop_distance != 0:
                continue
            g.add_edge(e.producer_idx, e.consumer_idx, kind=e.dep_kind, distance=e.loop_distance)
        return g

    # ---- timing ----------------------------------------------------------
    def asap(self) -> list[int]:
        """Earliest start of every op over d=0 edges (edge kind ignored)."""
        lat = self.latencies
        preds = self.predecessors()
        t = [0] * len(self.ops)
        for i in self.topological_order():
            for p in preds[i]:
                if t[p] + lat[p] > t[i]:
                    t[i] = t[p] + lat[p]
        return t

    def makespan_bound(self) -> int:
        """Critical-path length ``max(ASAP + latency)``."""
        a = self.asap()
        return max((a[i] + n.latency for i, n in enumerate(self.ops)), default=0)

    def alap(self, makespan: int) -> list[int]:
        """Latest start of every op that still meets ``makespan``."""
        lat = self.latencies
        succs = self.successors()
        t = [makespan - lat[i] for i in range(len(self.ops))]
        for i in reversed(self.topological_order()):
            for c in succs[i]:
                if t[c] - lat[i] < t[i]:
                    t[i] = t[c] - lat[i]
        return t

    def tails(self) -> list[int]:
        """Longest d=0 path from the start of each op to the end of the body (its latency included)."""
        lat = self.latencies
        succs = self.successors()
        tail = list(lat)
        for i in reversed(self.topological_order()):
            for c in succs[i]:
                if lat[i] + tail[c] > tail[i]:
                    tail[i] = lat[i] + tail[c]
        return tail
