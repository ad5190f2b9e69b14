"""Ordering a loop body: the exact schedulers (evaluation, lower bounds and the greedy
seeds are :mod:`pipeline_mlir.schedule.evaluate`).

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
from collections.abc import Callable

from pipeline_mlir.errors import SchedulingError
from pipeline_mlir.records import record
from pipeline_mlir.schedule.evaluate import (PORT_KINDS, asap_lower_bound, evaluate_schedule,
                                             greedy_schedule, simple_greedy_schedule)
from pipeline_mlir.schedule.graph import LoopBody
from pipeline_mlir.schedule.types import OpRole, ResourceKind

UNLIMITED_VGPR = 999999
_MMA = ResourceKind.MMA_UNIT
_VALU = ResourceKind.VALU
_PORT = PORT_KINDS


@record
class ScheduleResult:
    """An order and what the scheduler knows about it.

    ``proven_optimal``: no order the search's constraints allow (and ``accept`` takes)
    has a smaller makespan.  ``lower_bound``: a bound no such order beats, so
    ``gap`` (makespan - lower bound) says how far from optimal an unproven result
    can be.  ``stopped_by_budget``: the search used its node budget up before it
    finished; ``nodes`` counts the nodes it expanded (``seconds`` is informational)."""

    order: list[int]
    makespan: int
    vgpr_peak: int
    lower_bound: int
    proven_optimal: bool
    nodes: int = 0
    seconds: float = 0.0
    stopped_by_budget: bool = False

    @property
    def gap(self) -> int:
        return self.makespan - self.lower_bound

    def describe(self) -> str:
        if self.proven_optimal:
            return f"makespan {self.makespan}, proven optimal ({self.nodes} search nodes)"
        pct = 100.0 * self.gap / self.lower_bound if self.lower_bound else 0.0
        why = (f"the search stopped at its budget of {self.nodes} nodes"
               if self.stopped_by_budget else "the search did not finish")
        return (f"makespan {self.makespan}, lower bound {self.lower_bound} (at most {self.gap} "
                f"= {pct:.1f}% above optimal), not proven optimal: {why}")


#: default search budget in nodes: deterministic (the same answer on any machine and load)
DEFAULT_MAX_NODES = 20_000


@record
class SearchBudget:
    """How much a search may do, in expanded nodes (never in seconds: the result must not
    depend on machine load)."""

    max_nodes: int = DEFAULT_MAX_NODES


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
                 cost_only: bool = False, accept: Callable[[list[int]], bool] | None = None):
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
        # what verification reads from a block's globals: their channel and LDS stage
        self.glabel = [(o.op.channel, o.op.stage) for o in body.ops]
        self.accept = accept
        # candidate order: increasing op index (the reference's search), or, with
        # ``heuristic``, earliest start first (finds good orders sooner when no proof is near)
        self.heuristic = False
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
        def kind_mask(flags):
            return [sum(1 << j for j in range(lo, hi) if flags[j]) for lo, hi in self.ranges]

        self.compute_mask = kind_mask(self.is_compute)
        self.global_mask = kind_mask(self.is_global)
        self.frag_mask = kind_mask(self.is_frag)
        self.half_mask = kind_mask([True] * n)
        self.range_of = [next(r for r in self.ranges if r[0] <= p < r[1]) for p in range(n)]
        self.half_of = [self.ranges.index(r) for r in self.range_of]
        self.nodes = 0
        self.memo: dict[tuple[int, int], list[tuple]] = {}
        self.best_order: list[int] | None = None
        self.best = (float("inf"), float("inf"))
        self.target: tuple[int, int] | None = None  # stop as soon as this is reached
        self.out_of_budget = False

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
        if seed is not None:
            self.best_order = list(seed)
            self.best = evaluate_schedule(self.body, seed, self.penalty)
        final_live = sum(self.vdef) - sum(self.vkill)
        self.final_live = final_live
        self._dfs(0, 0, [0] * self.n, 0, 0, 0, 0, 0, 0, (), 0, [], ((),) * len(self.ranges), ())

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

    def _dfs(self, pos, mask, finish, mma_free, valu_free, port_free, mk, live, peak, cur_g,
             fcount, order, first_g, last_g):
        """``cur_g``: (channel, stage) of the globals of the block being filled; ``first_g``:
        those of each half's first block (so far); ``last_g``: those of the last closed
        block of the half -- the block contents verification looks at."""
        if self.out_of_budget:
            return True
        if pos == self.n:
            return self._leaf(order, mk, peak)
        lo, hi = self.range_of[pos]
        half = self.half_of[pos]
        gcount = len(cur_g)
        rest_mma = rest_n = 0
        if self.blocks:
            room = self._room(mask, half, gcount, fcount)
            if room is None:
                return False
            rest_mma, rest_n = room
        self.nodes += 1
        if self.nodes > self.budget.max_nodes:
            self.out_of_budget = True
            return True
        if self._pruned(mask, finish, mma_free, valu_free, port_free, mk, live, peak,
                        (mask, cur_g, fcount, first_g, last_g)):
            return False
        half_end = pos + 1 == hi
        first_block = not mask & self.compute_mask[half]
        cands = self._candidates(lo, hi, mask, finish, mma_free, valu_free, port_free, live,
                                 gcount, fcount, rest_mma, rest_n)
        if self.heuristic:
            cands.sort()   # earliest start first, then the longest path to the end
        for start, _t, i in cands:
            r = self.res[i]
            port = self.is_port[i]
            new_live = live + self.vdef[i]
            fin = start + self.lat[i]
            finish[i] = fin
            order.append(i)
            reset = self.is_compute[i] or half_end
            blk = tuple(sorted(cur_g + (self.glabel[i],))) if self.is_global[i] else cur_g
            fg = first_g
            if first_block and self.is_global[i]:
                fg = first_g[:half] + (blk,) + first_g[half + 1:]
            g = () if reset else blk
            f = 0 if reset else fcount + self.is_frag[i]
            lg = (() if half_end else blk) if reset else last_g
            stop = self._dfs(pos + 1, mask | (1 << i), finish,
                             fin if r == _MMA else mma_free,
                             fin if r == _VALU else valu_free,
                             start + self.penalty if port else port_free,
                             max(mk, fin), new_live - self.vkill[i], max(peak, new_live), g, f,
                             order, fg, lg)
            order.pop()
            finish[i] = 0
            if stop:
                return True
        return False

    def _leaf(self, order, mk, peak) -> bool:
        """A complete order: the new incumbent if it is better (and accepted); True when it
        reaches the target (the search stops)."""
        cand = (mk, peak)
        better = cand[0] < self.best[0] if self.cost_only else cand < self.best
        if peak <= self.max_vgpr and better and (self.accept is None or self.accept(order)):
            self.best = cand
            self.best_order = list(order)
            if self.target is not None and cand <= self.target:
                return True
        return False

    def _room(self, mask, half, gcount, fcount) -> tuple[int, int] | None:
        """(MMAs, ops) of the half still to place, or None when the blocks still to close
        have no room for the half's remaining globals and fragment loads (an infeasible
        prefix holds no valid order)."""
        free_ = ~mask & self.half_mask[half]
        rest_mma = (free_ & self.compute_mask[half]).bit_count()
        rest_n = free_.bit_count()
        if rest_mma == 0 or (
                (free_ & self.global_mask[half]).bit_count()
                > self.global_cap - gcount + self.global_cap * (rest_mma - 1)) or (
                (free_ & self.frag_mask[half]).bit_count()
                > self.frag_cap - fcount + self.frag_cap * (rest_mma - 1)):
            return None
        return rest_mma, rest_n

    def _pruned(self, mask, finish, mma_free, valu_free, port_free, mk, live, peak,
                key) -> bool:
        """Whether the node cannot hold a better leaf: its bound reaches the incumbent, or
        an earlier node with the same ``key`` (placed set and block contents) was pointwise
        no worse in everything that shapes the future (dominance)."""
        lb = self._bound(mask, finish, mma_free, valu_free, port_free, mk)
        peak_lb = max(peak, live + self._rest_vgpr(mask))
        if lb > self.best[0] or (lb == self.best[0] and (self.cost_only or peak_lb >= self.best[1])):
            return True
        return self._dominated(key, self._state(mask, finish, mma_free, valu_free, port_free,
                                                mk, peak))

    def _candidates(self, lo, hi, mask, finish, mma_free, valu_free, port_free, live, gcount,
                    fcount, rest_mma, rest_n) -> list[tuple[int, int, int]]:
        """(earliest start, -path to the end, op) of each op of the half that may come next:
        ready, within the block and VGPR limits, not the half's last MMA too early."""
        cands = []
        for i in range(lo, hi):
            if mask >> i & 1 or (self.pred_mask[i] & ~mask):
                continue
            if self.is_global[i] and gcount >= self.global_cap:
                continue
            if self.is_frag[i] and fcount >= self.frag_cap:
                continue
            if self.blocks and self.is_compute[i] and rest_mma == 1 and rest_n > 1:
                continue  # the half's last MMA must close the half
            if live + self.vdef[i] > self.max_vgpr:
                continue
            start = 0
            for p in self.preds[i]:
                if finish[p] > start:
                    start = finish[p]
            cands.append((self._unit_ready(i, start, mma_free, valu_free, port_free),
                          -self.tail[i], i))
        return cands

    def _unit_ready(self, i, start, mma_free, valu_free, port_free) -> int:
        """``start`` delayed by op ``i``'s unit (MMA, VALU) and the LDS/global port."""
        r = self.res[i]
        if r == _MMA and mma_free > start:
            start = mma_free
        elif r == _VALU and valu_free > start:
            start = valu_free
        if self.is_port[i] and port_free > start:
            start = port_free
        return start

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
            rel.append(self._unit_ready(c, r, mma_free, valu_free, port_free))
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
           cost_only: bool = False, accept: Callable[[list[int]], bool] | None = None
           ) -> ScheduleResult:
    t0 = time.perf_counter()
    budget = budget or SearchBudget()
    lb = asap_lower_bound(body, penalty)
    cost, pressure = evaluate_schedule(body, seed, penalty)
    s = _Search(body, halves, penalty, max_globals, max_vgpr, budget, blocks, cost_only, accept)
    # A seed over the VGPR budget, one whose blocks would lose ops, or one ``accept``
    # refuses is no incumbent: any order that keeps the constraints beats it.
    seed_ok = _respects(s, seed, seed=True) and (accept is None or accept(seed))
    if cost == lb and seed_ok:
        return ScheduleResult(seed, cost, pressure, lb, True, 0, time.perf_counter() - t0)
    s.target = (lb, 0)
    # phase 1: the reference's search order (its answers, proven, for every shipped
    # configuration) on half the budget
    s.budget = SearchBudget(max(1, budget.max_nodes // 2))
    s.run(seed if seed_ok else None)
    nodes, out = s.nodes, s.out_of_budget
    best, best_order = s.best, s.best_order
    if out:
        # phase 2 (no proof yet): earliest start first, from the best order so far or a
        # block-by-block construction, on the rest of the budget
        h = _Search(body, halves, penalty, max_globals, max_vgpr,
                    SearchBudget(max(1, budget.max_nodes - nodes)), blocks, cost_only, accept)
        h.heuristic = True
        h.target = (lb, 0)
        start = best_order
        if start is None:
            built = _block_greedy(h) if blocks else None
            if built is not None and _respects(h, built) and (accept is None or accept(built)):
                start = built
        h.run(start)
        nodes += h.nodes
        out = h.out_of_budget
        if h.best_order is not None and (best_order is None or h.best < best):
            best, best_order = h.best, h.best_order
    if best_order is None:
        what = (f"max_vgpr={max_vgpr}" + (", at most 2 fragment loads and "
                f"{s.global_cap} global loads per MMA block" if blocks else "")
                + (" whose blocks pass verification" if accept is not None else ""))
        if out:
            raise SchedulingError(
                f"{who}: search budget exhausted ({nodes} nodes) before any order within "
                f"{what} was found")
        floor = sum(s.vdef) - sum(s.vkill)
        why = (f"every order ends with {floor} VGPRs live" if floor > max_vgpr
               else f"the greedy order peaks at {pressure} VGPRs")
        raise SchedulingError(f"{who}: no order satisfies {what} ({why})")
    mk, peak = best
    root_lb = s._bound(0, [0] * len(body.ops), 0, 0, 0, 0) if body.ops else 0
    return ScheduleResult(best_order, mk, peak, max(lb, root_lb) if out else mk,
                          not out, nodes, time.perf_counter() - t0, out)


def _block_greedy(s: "_Search") -> list[int] | None:
    """An order built block by block: per half, the lowest-index MMA with the producers it
    still needs (when they fit the block), then one ready global load while the half has
    any left; the half's last MMA closes it.  None when that gets stuck."""
    placed = 0
    order: list[int] = []
    for lo, hi in s.ranges:
        ops = range(lo, hi)
        while any(not placed >> i & 1 for i in ops):
            mmas = [i for i in ops if s.is_compute[i] and not placed >> i & 1]
            if not mmas:
                return None
            last = len(mmas) == 1
            block = None
            for m in mmas:
                need, todo = [], [m]
                while todo:          # the unplaced producers of m, transitively
                    x = todo.pop()
                    for p in s.preds[x]:
                        if not placed >> p & 1 and p not in need and lo <= p < hi:
                            need.append(p)
                            todo.append(p)
                if any(s.is_compute[p] for p in need):
                    continue
                if last:
                    need = [i for i in ops if not placed >> i & 1 and i != m]
                g = sum(s.is_global[p] for p in need)
                f = sum(s.is_frag[p] for p in need)
                if f <= s.frag_cap and g <= s.global_cap:
                    block = (sorted(need), m, g)
                    break
            if block is None:
                return None
            need, m, g = block
            mask = placed
            for p in need:
                mask |= 1 << p
            if g < s.global_cap and not last:
                extra = [i for i in ops if s.is_global[i] and not mask >> i & 1
                         and not s.pred_mask[i] & ~mask]
                if extra:
                    need.append(extra[0])
                    mask |= 1 << extra[0]
            seq = []
            while need:                   # producers first, lowest index among the ready
                for p in sorted(need):
                    if not s.pred_mask[p] & ~(placed | sum(1 << q for q in seq)):
                        break
                else:
                    return None
                seq.append(p)
                need.remove(p)
            for p in seq + [m]:
                order.append(p)
                placed |= 1 << p
    return order


def optimal_schedule(body: LoopBody, max_vgpr: int = UNLIMITED_VGPR,
                     budget: SearchBudget | None = None) -> ScheduleResult:
    """Exact order of a (small) body: minimum makespan, then minimum VGPR peak."""
    seed = simple_greedy_schedule(body)
    return _exact(body, seed, False, 0, 0, max_vgpr, budget, "the exact scheduler", cost_only=True)


def optimal_schedule_with_halves(body: LoopBody, max_globals_per_block: int = 0,
                                 lds_contention_penalty: int = 0, max_vgpr: int = UNLIMITED_VGPR,
                                 budget: SearchBudget | None = None,
                                 accept: Callable[[list[int]], bool] | None = None
                                 ) -> ScheduleResult:
    """The CSP strategy: half-isolated exact order with the block global limit and LDS port.

    ``accept(order)``: whether a complete order is usable (the compiler passes "its blocks
    pass verification"); only accepted orders become the answer."""
    seed = greedy_schedule(body)
    return _exact(body, seed, True, lds_contention_penalty, max_globals_per_block, max_vgpr,
                  budget, "the csp scheduler", blocks=True, accept=accept)
