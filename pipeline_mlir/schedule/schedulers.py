"""Ordering a loop body: evaluation, lower bounds, greedy and exact schedulers (SPEC 3.6, 3.7).

The exact schedulers (:func:`optimal_schedule`, :func:`optimal_schedule_with_halves`)
return the same order as the reference's exhaustive depth-first search -- the
first order, in lexicographic candidate order, that is strictly better than the
greedy seed and every order before it -- but prune that search with admissible
bounds and state dominance, so they finish and *prove* optimality where the
reference would enumerate every permutation.  Pruning only ever removes subtrees
that cannot hold a strictly better leaf, which is what keeps the answer identical.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from pipeline_mlir.errors import SchedulingError
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.types import OpRole, ResourceKind

UNLIMITED_VGPR = 999999
_MMA = ResourceKind.MMA_UNIT
_VALU = ResourceKind.VALU
_PORT = (ResourceKind.LDS, ResourceKind.GLOBAL_MEM)


@dataclass
class _SimState:
    mma_free: int = 0
    valu_free: int = 0
    makespan: int = 0
    vgpr_peak: int = 0


def _simulate(body: LoopBody, order: list[int], penalty: int = 0) -> _SimState:
    """Issue ``order`` in sequence: start after d=0 producers and the op's unit (SPEC 3.6)."""
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
    """Simulate ``order``; return (makespan, vgpr_peak) (SPEC 3.6 ``_evaluate_schedule``)."""
    st = _simulate(body, order, penalty)
    return st.makespan, st.vgpr_peak


def evaluate_makespan(body: LoopBody, order: list[int], penalty: int = 0) -> int:
    return evaluate_schedule(body, order, penalty)[0]


def asap_lower_bound(body: LoopBody, penalty: int = 0) -> int:
    """Reference lower bound: critical path, serial MMA/VALU units, LDS port (SPEC 3.6)."""
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
    """Reference bound of a prefix: units' free time plus remaining work (SPEC 3.6)."""
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
    return _ready_picker(body, [(0, len(body.ops))], "simple_greedy_schedule")


def greedy_schedule(body: LoopBody) -> list[int]:
    """Half-isolated greedy order: lowest-index ready op of the current half.

    The reference walks a fixed 4 MMA-terminated blocks per half, which is the
    same order for its 2x2 grid; this version takes every op of the half, so it
    also orders larger grids instead of failing on them.
    """
    body.validate()
    n = len(body.ops)
    h = n // 2
    return _ready_picker(body, [(0, h), (h, n)], "greedy_schedule")


@dataclass
class ScheduleResult:
    """An order and what the scheduler knows about it."""

    order: list[int]
    makespan: int
    vgpr_peak: int
    lower_bound: int
    proven_optimal: bool
    nodes: int = 0
    seconds: float = 0.0
    stopped_by_budget: bool = False


@dataclass
class SearchBudget:
    max_nodes: int = 2_000_000
    max_seconds: float = 20.0


class _Search:
    """Branch-and-bound over positions, candidates in increasing op index.

    State per depth: the placed set, unit free times, finish times, live VGPRs and
    the running peak, and the globals placed since the last MMA.  A node is cut when
    (a) its lower bound on the makespan exceeds the incumbent, or equals it while its
    VGPR-peak bound cannot beat the incumbent's peak, or (b) an earlier node with the
    same placed set (and same globals-since-MMA count) was at least as good in every
    state component that influences the future (dominance).
    """

    def __init__(self, body: LoopBody, halves: bool, penalty: int, max_globals: int,
                 max_vgpr: int, budget: SearchBudget, blocks: bool = False,
                 cost_only: bool = False):
        self.body = body
        self.n = n = len(body.ops)
        self.preds = body.predecessors()
        self.succs = body.successors()
        self.lat = body.latencies
        self.res = [o.resource for o in body.ops]
        self.vdef = [o.op.vgpr_def for o in body.ops]
        self.vkill = [o.op.vgpr_kill for o in body.ops]
        self.is_global = [o.op.role == OpRole.GLOBAL_LOAD for o in body.ops]
        self.is_compute = [o.op.role == OpRole.COMPUTE for o in body.ops]
        self.is_frag = [o.op.role == OpRole.FRAGMENT_LOAD for o in body.ops]
        # block shape (double-buffer CSP): <= 2 frags and <= 2 (or max_globals) globals before
        # each MMA, and every half ends with an MMA, so that block construction drops nothing
        self.blocks = blocks
        # optimal_schedule prunes every prefix whose bound reaches the incumbent's makespan,
        # so it only ever accepts a strictly shorter order (VGPR peak is not a tie-break)
        self.cost_only = cost_only
        self.frag_cap = 2 if blocks else n + 1
        self.hard_global_cap = 2 if blocks else n + 1
        self.global_cap = min(max_globals, self.hard_global_cap) if max_globals > 0 else self.hard_global_cap
        self.penalty = penalty
        self.max_globals = max_globals
        self.max_vgpr = max_vgpr
        self.budget = budget
        self.tail = body.tails()
        self.topo = body.topological_order()
        h = n // 2
        self.ranges = [(0, h), (h, n)] if halves else [(0, n)]
        self.pred_mask = [0] * n
        for i in range(n):
            for p in self.preds[i]:
                self.pred_mask[i] |= 1 << p
        self.is_port = [penalty > 0 and r in _PORT for r in self.res]
        self.nodes = 0
        self.memo: dict[tuple[int, int], list[tuple]] = {}
        self.best_order: list[int] | None = None
        self.best = (float("inf"), float("inf"))
        self.target: tuple[int, int] | None = None  # stop as soon as this is reached
        self.out_of_budget = False
        self.deadline = 0.0

    # -- bounds ------------------------------------------------------------
    def _bound(self, mask, finish, mma_free, valu_free, port_free, mk):
        lat, tail, res = self.lat, self.tail, self.res
        est = {}
        lb = mk
        mma_min = valu_min = port_min = None
        mma_sum = valu_sum = 0
        mma_tail = valu_tail = port_tail = None
        port_k = 0
        for i in self.topo:
            if mask >> i & 1:
                continue
            e = 0
            for p in self.preds[i]:
                f = finish[p] if mask >> p & 1 else est[p] + lat[p]
                if f > e:
                    e = f
            r = res[i]
            if r == _MMA:
                e = max(e, mma_free)
                mma_min = e if mma_min is None else min(mma_min, e)
                mma_sum += lat[i]
                t = tail[i] - lat[i]
                mma_tail = t if mma_tail is None else min(mma_tail, t)
            elif r == _VALU:
                e = max(e, valu_free)
                valu_min = e if valu_min is None else min(valu_min, e)
                valu_sum += lat[i]
                t = tail[i] - lat[i]
                valu_tail = t if valu_tail is None else min(valu_tail, t)
            if self.is_port[i]:
                e = max(e, port_free)
                port_min = e if port_min is None else min(port_min, e)
                port_k += 1
                port_tail = tail[i] if port_tail is None else min(port_tail, tail[i])
            est[i] = e
            if e + tail[i] > lb:
                lb = e + tail[i]
        if mma_min is not None:
            lb = max(lb, mma_min + mma_sum + mma_tail)
        if valu_min is not None:
            lb = max(lb, valu_min + valu_sum + valu_tail)
        if port_min is not None:
            lb = max(lb, port_min + self.penalty * (port_k - 1) + port_tail)
        return lb

    # -- search ------------------------------------------------------------
    def run(self, seed: list[int] | None) -> None:
        self.deadline = time.perf_counter() + self.budget.max_seconds
        if seed is not None:
            self.best_order = list(seed)
            self.best = evaluate_schedule(self.body, seed, self.penalty)
        final_live = sum(self.vdef) - sum(self.vkill)
        self.final_live = final_live
        self._dfs(0, 0, [0] * self.n, 0, 0, 0, 0, 0, 0, 0, 0, [])

    def _dominated(self, key, vec) -> bool:
        lst = self.memo.get(key)
        if lst is None:
            self.memo[key] = [vec]
            return False
        for old in lst:
            if all(a <= b for a, b in zip(old, vec)):
                return True
        lst[:] = [old for old in lst if not all(b <= a for a, b in zip(old, vec))]
        lst.append(vec)
        return False

    def _dfs(self, pos, mask, finish, mma_free, valu_free, port_free, mk, live, peak, gcount,
             fcount, order):
        if self.out_of_budget:
            return True
        n = self.n
        if pos == n:
            cand = (mk, peak)
            better = cand[0] < self.best[0] if self.cost_only else cand < self.best
            if peak <= self.max_vgpr and better:
                self.best = cand
                self.best_order = list(order)
                if self.target is not None and cand <= self.target:
                    return True
            return False
        self.nodes += 1
        if self.nodes > self.budget.max_nodes or (
                self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            self.out_of_budget = True
            return True
        lb = self._bound(mask, finish, mma_free, valu_free, port_free, mk)
        peak_lb = max(peak, live + self._rest_vgpr(mask))
        if lb > self.best[0] or (lb == self.best[0] and (self.cost_only or peak_lb >= self.best[1])):
            return False
        # dominance: same placed set, pointwise no better in everything that shapes the future
        if self._dominated((mask, gcount, fcount),
                           self._state(mask, finish, mma_free, valu_free, port_free, mk, peak)):
            return False
        lo, hi = next(r for r in self.ranges if r[0] <= pos < r[1])
        half_end = pos + 1 == hi
        if self.blocks:
            rest = [i for i in range(lo, hi) if not mask >> i & 1]
            rest_mma = sum(1 for i in rest if self.is_compute[i])
        for i in range(lo, hi):
            if mask >> i & 1 or (self.pred_mask[i] & ~mask):
                continue
            if self.is_global[i] and gcount >= self.global_cap:
                continue
            if self.is_frag[i] and fcount >= self.frag_cap:
                continue
            if self.blocks and self.is_compute[i] and rest_mma == 1 and len(rest) > 1:
                continue  # the half's last MMA must close the half
            new_live = live + self.vdef[i]
            if new_live > self.max_vgpr:
                continue
            r = self.res[i]
            start = 0
            for p in self.preds[i]:
                if finish[p] > start:
                    start = finish[p]
            if r == _MMA and mma_free > start:
                start = mma_free
            elif r == _VALU and valu_free > start:
                start = valu_free
            port = self.is_port[i]
            if port and port_free > start:
                start = port_free
            fin = start + self.lat[i]
            finish[i] = fin
            order.append(i)
            reset = self.is_compute[i] or half_end
            g = 0 if reset else gcount + self.is_global[i]
            f = 0 if reset else fcount + self.is_frag[i]
            stop = self._dfs(pos + 1, mask | (1 << i), finish,
                             fin if r == _MMA else mma_free,
                             fin if r == _VALU else valu_free,
                             start + self.penalty if port else port_free,
                             max(mk, fin), new_live - self.vkill[i], max(peak, new_live), g, f,
                             order)
            order.pop()
            finish[i] = 0
            if stop:
                return True
        return False

    def _state(self, mask, finish, mma_free, valu_free, port_free, mk, peak) -> tuple:
        """What the future depends on: unit free times, and for every unplaced op the
        earliest start its placed producers and its unit allow."""
        rel = []
        for c in range(self.n):
            if mask >> c & 1:
                continue
            r = 0
            for p in self.preds[c]:
                if mask >> p & 1 and finish[p] > r:
                    r = finish[p]
            res = self.res[c]
            if res == _MMA and mma_free > r:
                r = mma_free
            elif res == _VALU and valu_free > r:
                r = valu_free
            if self.is_port[c] and port_free > r:
                r = port_free
            rel.append(r)
        return (mk, peak, mma_free, valu_free, port_free, *rel)

    def _rest_vgpr(self, mask) -> int:
        return sum(self.vdef[i] - self.vkill[i] for i in range(self.n) if not mask >> i & 1)


def _respects(s: "_Search", order: list[int], seed: bool = False) -> bool:
    """Whether ``order`` satisfies the search's block-shape and VGPR constraints.

    The greedy seed is held, as in the reference, only to what block construction
    cannot repair: redistribution evens out globals beyond ``max_globals`` afterwards,
    but a third fragment or global in one block would be lost.
    """
    gcap = s.hard_global_cap if seed else s.global_cap
    g = f = live = 0
    for pos, i in enumerate(order):
        lo, hi = next(r for r in s.ranges if r[0] <= pos < r[1])
        if (s.is_global[i] and g >= gcap) or (s.is_frag[i] and f >= s.frag_cap):
            return False
        live += s.vdef[i]
        if live > s.max_vgpr:
            return False
        live -= s.vkill[i]
        if s.is_compute[i] or pos + 1 == hi:
            if s.blocks and pos + 1 == hi and not s.is_compute[i] and any(
                    s.is_compute[j] for j in range(lo, hi)):
                return False
            g = f = 0
        else:
            g += s.is_global[i]
            f += s.is_frag[i]
    return True


def _exact(body: LoopBody, seed: list[int], halves: bool, penalty: int, max_globals: int,
           max_vgpr: int, budget: SearchBudget | None, who: str, blocks: bool = False,
           cost_only: bool = False) -> ScheduleResult:
    t0 = time.perf_counter()
    budget = budget or SearchBudget()
    lb = asap_lower_bound(body, penalty)
    cost, pressure = evaluate_schedule(body, seed, penalty)
    s = _Search(body, halves, penalty, max_globals, max_vgpr, budget, blocks, cost_only)
    # A seed over the VGPR budget, or one whose blocks would lose ops, is no incumbent:
    # any order that keeps the constraints beats it.
    seed_ok = _respects(s, seed, seed=True)
    if cost == lb and seed_ok:
        return ScheduleResult(seed, cost, pressure, lb, True, 0, time.perf_counter() - t0)
    s.target = (lb, 0)
    s.run(seed if seed_ok else None)
    if s.best_order is None:
        what = (f"max_vgpr={max_vgpr}" + (", at most 2 fragment loads and "
                f"{s.global_cap} global loads per MMA block" if blocks else ""))
        if s.out_of_budget:
            raise SchedulingError(
                f"{who}: search budget exhausted ({s.nodes} nodes) before any order within "
                f"{what} was found")
        floor = sum(s.vdef) - sum(s.vkill)
        why = (f"every order ends with {floor} VGPRs live" if floor > max_vgpr
               else f"the greedy order peaks at {pressure} VGPRs")
        raise SchedulingError(f"{who}: no order satisfies {what} ({why})")
    mk, peak = s.best
    root_lb = s._bound(0, [0] * len(body.ops), 0, 0, 0, 0) if body.ops else 0
    return ScheduleResult(s.best_order, mk, peak, max(lb, root_lb if s.out_of_budget else mk),
                          not s.out_of_budget, s.nodes, time.perf_counter() - t0, s.out_of_budget)


def optimal_schedule(body: LoopBody, max_vgpr: int = UNLIMITED_VGPR,
                     budget: SearchBudget | None = None) -> ScheduleResult:
    """Exact order of a (small) body: minimum makespan, then minimum VGPR peak."""
    seed = simple_greedy_schedule(body)
    return _exact(body, seed, False, 0, 0, max_vgpr, budget, "optimal_schedule", cost_only=True)


def optimal_schedule_with_halves(body: LoopBody, max_globals_per_block: int = 0,
                                 lds_contention_penalty: int = 0, max_vgpr: int = UNLIMITED_VGPR,
                                 budget: SearchBudget | None = None) -> ScheduleResult:
    """The CSP strategy: half-isolated exact order with the block global limit and LDS port."""
    seed = greedy_schedule(body)
    return _exact(body, seed, True, lds_contention_penalty, max_globals_per_block, max_vgpr,
                  budget, "optimal_schedule_with_halves", blocks=True)
