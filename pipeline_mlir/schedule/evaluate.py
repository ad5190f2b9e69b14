"""Measuring an order of a loop body, and the greedy orders.

:func:`evaluate_schedule` issues an order as the reference's list simulation does (each op
after its same-iteration producers and its unit, the LDS/global port with the contention
penalty) and gives its makespan and VGPR peak; :func:`asap_lower_bound` and
:func:`partial_lower_bound` are the reference's bounds; :func:`simple_greedy_schedule` and
:func:`greedy_schedule` the greedy orders (the seeds of the exact search,
:mod:`pipeline_mlir.schedule.schedulers`).
"""

from __future__ import annotations

from pipeline_mlir.errors import SchedulingError
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.types import ResourceKind

_MMA = ResourceKind.MMA_UNIT
_VALU = ResourceKind.VALU
#: the units that share the LDS/global port (the contention penalty)
PORT_KINDS = (ResourceKind.LDS, ResourceKind.GLOBAL_MEM)
_PORT = PORT_KINDS


class _SimState:
    """The units' free times, the makespan and the VGPR peak of a simulation so far."""

    __slots__ = ("mma_free", "valu_free", "makespan", "vgpr_peak")

    def __init__(self) -> None:
        self.mma_free = self.valu_free = self.makespan = self.vgpr_peak = 0


def _simulate(body: LoopBody, order: list[int], penalty: int = 0) -> _SimState:
    """Issue ``order`` in sequence: start after d=0 producers and the op's unit."""
    preds = body.predecessors()
    finish = [0] * len(body.ops)
    st = _SimState()
    port_free = live = 0
    for i in order:
        node = body.ops[i]
        start = max((finish[p] for p in preds[i]), default=0)
        r = node.resource
        if r == _MMA:
            start = max(start, st.mma_free)
        elif r == _VALU:
            start = max(start, st.valu_free)
        port = penalty > 0 and r in _PORT
        if port:
            start = max(start, port_free)
            port_free = start + penalty
        fin = finish[i] = start + node.latency
        if r == _MMA:
            st.mma_free = fin
        elif r == _VALU:
            st.valu_free = fin
        live += node.op.vgpr_def
        st.vgpr_peak = max(st.vgpr_peak, live)
        live -= node.op.vgpr_kill
        st.makespan = max(st.makespan, fin)
    return st


def evaluate_schedule(body: LoopBody, order: list[int], penalty: int = 0) -> tuple[int, int]:
    """Simulate ``order``; return (makespan, vgpr_peak) as ``_evaluate_schedule`` does."""
    st = _simulate(body, order, penalty)
    return st.makespan, st.vgpr_peak


def evaluate_makespan(body: LoopBody, order: list[int], penalty: int = 0) -> int:
    return evaluate_schedule(body, order, penalty)[0]


def asap_lower_bound(body: LoopBody, penalty: int = 0) -> int:
    """Reference lower bound: critical path, serial MMA/VALU units, LDS port."""
    if not body.ops:
        return 0
    asap = body.asap()
    lat = body.latencies
    lb = max(asap[i] + lat[i] for i in range(len(lat)))
    for kind in (_MMA, _VALU):
        idx = [i for i, n in enumerate(body.ops) if n.resource == kind]
        if idx:
            lb = max(lb, min(asap[i] for i in idx) + sum(lat[i] for i in idx))
    if penalty > 0:
        lb = max(lb, penalty * sum(1 for n in body.ops if n.resource in _PORT))
    return lb


def partial_lower_bound(body: LoopBody, order: list[int], pos: int) -> int:
    """Reference bound of a prefix: units' free time plus remaining work."""
    st = _simulate(body, order[:pos])
    placed = set(order[:pos])
    rest = {_MMA: 0, _VALU: 0}
    for i, n in enumerate(body.ops):
        if i not in placed and n.resource in rest:
            rest[n.resource] += n.latency
    return max(st.mma_free + rest[_MMA], st.valu_free + rest[_VALU], st.makespan)


def _ready_picker(body: LoopBody, ranges: list[tuple[int, int]], who: str) -> list[int]:
    preds = body.predecessors()
    placed = [False] * len(body.ops)
    order: list[int] = []
    for lo, hi in ranges:
        for _ in range(hi - lo):
            for i in range(lo, hi):
                if not placed[i] and all(placed[p] for p in preds[i]):
                    break
            else:
                stuck = [i for i in range(lo, hi) if not placed[i]]
                raise SchedulingError(
                    f"no ready op found in {who}: ops {stuck} wait on producers that cannot be "
                    f"placed before them (a same-iteration dependency cycle or a dependency "
                    f"on a later half)")
            placed[i] = True
            order.append(i)
    return order


def simple_greedy_schedule(body: LoopBody) -> list[int]:
    """Repeatedly take the lowest-index ready op."""
    body.validate()
    return _ready_picker(body, [(0, len(body.ops))], "the greedy scheduler")


def greedy_schedule(body: LoopBody) -> list[int]:
    """Half-isolated greedy order: lowest-index ready op of the current half.

    The reference walks a fixed 4 MMA-terminated blocks per half, which is the
    same order for its 2x2 grid; this version takes every op of the half, so it
    also orders larger grids instead of failing on them.
    """
    body.validate()
    n = len(body.ops)
    h = n // 2
    return _ready_picker(body, [(0, h), (h, n)], "the greedy scheduler (by half)")
