"""Bounds of a software-pipelined loop and what a CU-model run achieved.

* :func:`res_mii`: resource-constrained minimum cycles per iteration, the
  maximum over every unit instance of the cycles one iteration of all waves
  keeps it busy (``XDL[simdN]``: MFMA passes of the SIMD's waves; ``LDS[cu]``,
  ``VMEM[cu]``, ...: per CU; ``ISSUE[simdN]``: instructions the SIMD issues, one
  per cycle).
* :func:`rec_mii`: recurrence-constrained minimum, the maximum over dependence
  cycles of one wave's iteration body, taken cyclically, of ``latency / distance``
  (maximum cycle ratio, Howard's policy iteration).  Edges: register RAW
  (producer latency; MFMA srcA plus ``src_a_late``; distance 1 when the value
  comes from the previous iteration: accumulator chains, address increments),
  counter waits (the vm/lgkm instruction an ``s_waitcnt`` waits for -> the wait,
  its latency, distance = how many iterations back it was issued: the
  global->LDS->register ring) and program order (0 latency, the in-order issue
  that makes a wait hold back every later instruction).  Barriers between waves
  are not edges.
* :func:`analyze_loop`: both bounds plus, from a :class:`~pipeline_mlir.sim.cu_model.CURun`
  over several iterations, the achieved cycles per steady-state iteration,
  MFMA-busy % per SIMD and exposed stall cycles per wait instruction and per block.

Iterations are told apart by ``Instr.origin``: ``(phase, iteration, entry, part)``
with phase ``kernel`` for the steady-state loop.  A *block* is a range of one
iteration's instructions between ``s_barrier`` instructions (block k follows the
k-th barrier of the iteration and includes the next one): the unit the schedules
synchronise on; with ``boundary="sched_barrier"`` the ranges between
``sched_barrier`` fences instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.costs import UNIT_SCOPE, CostTable, counter_incs, get_table, src_a
from pipeline_mlir.sim.cu_model import CURun
from pipeline_mlir.sim.instr import PSEUDO_KINDS, Instr


class BoundsError(PipelineError):
    """Bad input to the bounds (names the argument)."""


@dataclass
class ResMII:
    cycles: int
    binding: str                    # the unit instance with the most cycles
    per_unit: dict[str, int]


@dataclass
class RecMII:
    cycles: float
    cycle: list[int]                # instruction indices (in the body) of a critical recurrence


@dataclass
class WaitStall:
    """Exposed stall cycles of one wait instruction of the body, summed over waves
    and steady-state iterations; ``per_iteration`` = mean per wave and iteration."""

    entry: tuple                    # (phase, entry) of the origin
    name: str
    cycles: int
    occurrences: int
    per_iteration: float


@dataclass
class BlockStall:
    block: int
    cycles: int                     # summed over waves and counted iterations
    per_iteration: float            # per wave and iteration
    reasons: dict[str, int]


@dataclass
class LoopAnalysis:
    """Everything :func:`analyze_loop` computes; ``run`` is the CU-model run."""

    run: CURun
    res: ResMII
    rec: RecMII
    min_ii: float
    iteration_starts: dict[int, list[int]]    # wave -> issue cycle of each iteration's 1st instr
    achieved_ii: float | None                 # mean steady-state cycles per iteration
    mfma_busy: dict[int, float]               # simd -> fraction of the steady window XDL is busy
    window: tuple[int, int]                   # the steady-state window [start, end)
    waits: list[WaitStall] = field(default_factory=list)
    blocks: list[BlockStall] = field(default_factory=list)

    @property
    def efficiency(self) -> float | None:
        """MinII / achieved cycles per iteration."""
        return self.min_ii / self.achieved_ii if self.achieved_ii else None


def res_mii(iter_streams: list[tuple[int, list[Instr]]], table: CostTable | str) -> ResMII:
    """ResMII of one iteration of every wave (``(simd, instructions of one iteration)``)."""
    if isinstance(table, str):
        table = get_table(table)
    use: dict[str, int] = {}
    for simd, instrs in iter_streams:
        for ins in instrs:
            if ins.kind in PSEUDO_KINDS:
                continue
            c = table.cost(ins)
            for u, cyc in c.units + c.deferred + c.queued:
                key = f"{u}[simd{simd}]" if UNIT_SCOPE.get(u, "simd") == "simd" else f"{u}[cu]"
                use[key] = use.get(key, 0) + cyc
            key = f"ISSUE[simd{simd}]"
            use[key] = use.get(key, 0) + c.gap
    if not use:
        raise BoundsError("the loop's iteration (iter_streams) holds no instruction: there is "
                          "nothing to bound")
    binding = max(use, key=lambda k: (use[k], k))
    return ResMII(use[binding], binding, use)


def _edges(body: list[Instr], table: CostTable) -> list[tuple[int, int, int, int]]:
    n = len(body)
    edges: dict[tuple[int, int, int], int] = {}

    def add(u, v, w, d):
        key = (u, v, d)
        if edges.get(key, -1) < w:
            edges[key] = w
    costs = [table.cost(i) for i in body]
    last_def: dict[str, int] = {}
    for j, ins in enumerate(body):
        for r in ins.defs:
            last_def[r] = j
    cur: dict[str, int] = {}
    vm_pos = [j for j, i in enumerate(body) if counter_incs(i, False)[0]]
    lgkm_pos = [j for j, i in enumerate(body) if counter_incs(i, False)[1]]
    for j, ins in enumerate(body):
        add(j, (j + 1) % n, 0, 1 if j == n - 1 else 0)
        late = set(src_a(ins)) if costs[j].src_a_late else set()
        for r in ins.uses:
            if r in cur:
                p, d = cur[r], 0
            elif r in last_def:
                p, d = last_def[r], 1
            else:
                continue
            add(p, j, costs[p].latency + (costs[j].src_a_late if r in late else 0), d)
        if ins.kind == "wait":
            for pos, cnt in ((vm_pos, ins.vm), (lgkm_pos, ins.lgkm)):
                if cnt is None or not pos:
                    continue
                before = [p for p in pos if p < j]
                idx = len(before) - 1 - cnt
                if idx >= 0:
                    add(before[idx], j, costs[before[idx]].latency, 0)
                else:
                    back = (-idx + len(pos) - 1) // len(pos)
                    p = pos[idx + back * len(pos)]
                    add(p, j, costs[p].latency, back)
        for r in ins.defs:
            cur[r] = j
    return [(u, v, w, d) for (u, v, d), w in edges.items()]


def max_cycle_ratio(n: int, edges: list[tuple[int, int, int, int]]) -> tuple[float, list[int]]:
    """Maximum over cycles of sum(w) / sum(d) (every cycle must have sum(d) > 0),
    with one critical cycle; Howard's policy iteration."""
    out: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for u, v, w, d in edges:
        out[u].append((v, w, d))
    if any(not o for o in out):
        raise BoundsError(f"the dependence graph of the loop body: instruction "
                          f"{next(i for i, o in enumerate(out) if not o)} of {n} has no edge out "
                          f"(every instruction must lie on a cycle)")
    pol = [max(o, key=lambda e: e[1]) for o in out]
    eps = 1e-9
    for _ in range(10 * n + 10):
        lam = [0.0] * n
        x = [0.0] * n
        state = [0] * n              # 0 new, 1 on the current path, 2 done
        best_cycle: list[int] = []
        best = float("-inf")
        for s in range(n):
            if state[s]:
                continue
            path = []
            u = s
            while state[u] == 0:
                state[u] = 1
                path.append(u)
                u = pol[u][0]
            if state[u] == 1:        # a new cycle starting at u
                k = path.index(u)
                cyc = path[k:]
                sw = sum(pol[c][1] for c in cyc)
                sd = sum(pol[c][2] for c in cyc)
                if sd <= 0:
                    raise BoundsError(f"the dependence graph of the loop body has a cycle within one "
                                      f"iteration (instructions {cyc}): an instruction "
                                      f"would wait for itself")
                r = sw / sd
                if r > best:
                    best, best_cycle = r, cyc
                lam[u], x[u] = r, 0.0
                for c in reversed(cyc[1:]):
                    v, w, d = pol[c]
                    lam[c], x[c] = r, w - r * d + x[v]
                for c in cyc:
                    state[c] = 2
                path = path[:k]
            for c in reversed(path):
                v, w, d = pol[c]
                lam[c], x[c] = lam[v], w - lam[v] * d + x[v]
                state[c] = 2
        changed = False
        for u in range(n):
            for e in out[u]:
                if lam[e[0]] > lam[u] + eps:
                    pol[u], lam[u], changed = e, lam[e[0]], True
        if not changed:
            for u in range(n):
                for e in out[u]:
                    v, w, d = e
                    if abs(lam[v] - lam[u]) <= eps and w - lam[u] * d + x[v] > x[u] + eps:
                        pol[u], x[u], changed = e, w - lam[u] * d + x[v], True
        if not changed:
            return max(lam), best_cycle
    raise BoundsError(f"the recurrence bound of the {n}-instruction loop body did not "
                      f"converge (policy iteration)")


def rec_mii(body: list[Instr], table: CostTable | str) -> RecMII:
    """RecMII of one wave's iteration ``body`` (see the module docstring)."""
    if isinstance(table, str):
        table = get_table(table)
    if not body:
        raise BoundsError("the loop body (one wave's iteration) is empty: there is nothing to "
                          "bound")
    r, cyc = max_cycle_ratio(len(body), _edges(body, table))
    return RecMII(r, cyc)


def _kernel_iteration(ins: Instr) -> int | None:
    o = ins.origin
    return o[1] if len(o) == 4 and o[0] == "kernel" else None


def analyze_loop(run: CURun, iter_streams: list[tuple[int, list[Instr]]],
                 table: CostTable | str, boundary: str = "barrier") -> LoopAnalysis:
    """Bounds of the loop whose one iteration per wave is ``iter_streams`` and what
    ``run`` (several iterations, origins ``("kernel", i, entry, part)``) achieved.

    The steady state skips the first iteration: with iterations 0..N-1 (N >= 3)
    the achieved cycles per iteration of a wave is ``(start[N-1] - start[1]) / (N-2)``
    (N == 2: ``start[1] - start[0]``), averaged over waves; MFMA-busy and stalls
    are counted over the same iterations (1..N-2, or all if N < 3).
    """
    if boundary not in ("barrier", "sched_barrier"):
        raise BoundsError(f"boundary={boundary!r}: iterations are delimited by 'barrier' or "
                          f"'sched_barrier'")
    if isinstance(table, str):
        table = get_table(table)
    res = res_mii(iter_streams, table)
    recs = {}
    for _simd, body in iter_streams:
        if id(body) not in recs:
            recs[id(body)] = rec_mii(body, table)
    rec = max(recs.values(), key=lambda r: r.cycles)
    starts = _iteration_starts(run)
    iis = []
    for s in starts.values():
        if len(s) >= 3:
            iis.append((s[-1] - s[1]) / (len(s) - 2))
        elif len(s) == 2:
            iis.append(s[1] - s[0])
    achieved = sum(iis) / len(iis) if iis else None
    n_it = max((len(s) for s in starts.values()), default=0)
    counted = set(range(1, n_it - 1)) if n_it >= 3 else set(range(n_it))
    if n_it >= 3:
        w0 = min(s[1] for s in starts.values() if len(s) >= 3)
        w1 = max(s[-1] for s in starts.values() if len(s) >= 3)
    else:
        w0, w1 = 0, run.total
    wait_list, block_list = _stalls(run, counted, boundary)
    return LoopAnalysis(run, res, rec, max(res.cycles, rec.cycles), starts, achieved,
                        _mfma_busy(run, w0, w1), (w0, w1), wait_list, block_list)


def _iteration_starts(run: CURun) -> dict[int, list[int]]:
    """wave -> the issue cycle of the first instruction of each kernel iteration."""
    starts: dict[int, list[int]] = {}
    for wt in run.waves:
        first: dict[int, int] = {}
        for ins, c in zip(wt.instrs, wt.issue):
            it = _kernel_iteration(ins)
            if it is not None and it not in first and ins.kind not in PSEUDO_KINDS:
                first[it] = c
        starts[wt.wave] = [first[i] for i in sorted(first)]
    return starts


def _mfma_busy(run: CURun, w0: int, w1: int) -> dict[int, float]:
    """SIMD -> the fraction of cycles ``[w0, w1)`` its MFMA pipe was busy (SIMDs with
    waves only)."""
    busy: dict[int, float] = {}
    for simd in range(run.simds):
        tot = 0
        for b in run.busy:
            if b.unit == "XDL" and b.instance == f"simd{simd}":
                tot += max(0, min(b.end, w1) - max(b.start, w0))
        if any(wt.simd == simd for wt in run.waves):
            busy[simd] = tot / (w1 - w0) if w1 > w0 else 0.0
    return busy


def _stalls(run: CURun, counted: set, boundary: str) -> tuple[list, list]:
    """The stalls of the ``counted`` iterations per wait (entry) and per block (the stretch
    between two ``boundary`` instructions), averaged over the waves' iterations."""
    waits: dict[tuple, list] = {}
    blocks: dict[int, list] = {}
    block_kind = "barrier" if boundary == "barrier" else "sched_barrier"
    nwave_iters = 0
    for wt in run.waves:
        blk, cur_it = 0, None
        seen = set()
        for ins, st, why in zip(wt.instrs, wt.stall, wt.causes):
            it = _kernel_iteration(ins)
            if it != cur_it:
                blk, cur_it = 0, it
            if it is not None and it in counted:
                seen.add(it)
                if ins.kind == "wait":
                    key = (ins.origin[0], ins.origin[2])
                    e = waits.setdefault(key, [ins.name, 0, 0])
                    e[1] += st
                    e[2] += 1
                b = blocks.setdefault(blk, [0, {}])
                b[0] += st
                for name, cyc in why:
                    b[1][name] = b[1].get(name, 0) + cyc
            if ins.kind == block_kind:
                blk += 1
        nwave_iters += len(seen)
    per = max(nwave_iters, 1)
    wait_list = [WaitStall(k, v[0], v[1], v[2], v[1] / per) for k, v in sorted(waits.items())]
    block_list = [BlockStall(k, v[0], v[0] / per, v[1]) for k, v in sorted(blocks.items())]
    return wait_list, block_list
