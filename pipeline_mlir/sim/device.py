"""A device-level model of one GEMM dispatch on MI355X: what a grid order costs.

The CU model (:mod:`pipeline_mlir.sim.cu_model`) prices one workgroup's main loop; this
module prices the whole grid around it: 8 XCDs of 32 CUs, an L2 per XCD, the shared
memory-side cache (MALL) and HBM (the facts and their sources are in
:mod:`pipeline_mlir.target.gfx950`).  Its purpose is to measure a grid order
(:mod:`pipeline_mlir.schedules.grid`) for a problem size instead of assuming one.

The model, and its assumptions (stated, not measured on hardware):

* **Dispatch.** Workgroup ``i`` runs on XCD ``i % 8``; every CU holds ``per_cu``
  workgroups; all workgroups take the same time, so the grid runs in *rounds* of
  ``8 * 32 * per_cu`` consecutive ids, and the workgroups of a round progress along K in
  near lockstep.
* **L2.** A round's workgroups on one XCD read the A row panels and B column panels of
  their tiles.  When the panels' slices of two K steps fit in the XCD's L2 together, each
  panel is fetched into that L2 once per round (the *unique* panels), else once per
  workgroup that reads it.  Nothing stays in L2 from one round to the next (a round walks
  all of K, whose panels are larger than the L2 for any K this is about).
* **MALL and HBM.** L2 fills travel from the MALL at its bandwidth, each XCD with its
  eighth; a panel is read from HBM once per round unless the previous round already
  read it and that round's panels fit in the MALL.  C is written once.
* **Time.** Each round takes the longest of: the workgroups' compute time
  (``workgroup_cycles`` at the clock), the busiest XCD's requests at its L2's bandwidth,
  its fill traffic at its share of the MALL bandwidth, and the round's HBM traffic at the
  HBM bandwidth.  Nothing else (latency, contention between the levels) is modelled, so
  two orders of equal time are told apart by their traffic (:func:`best_order`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedules.grid import GridOrder
from pipeline_mlir.target.gfx950 import (CLOCK_HZ, CUS_PER_XCD, HBM_BYTES_PER_SECOND,
                                         L2_BYTES_PER_XCD, L2_CHANNEL_BYTES_PER_CLOCK,
                                         L2_CHANNELS_PER_XCD, MALL_BYTES,
                                         MALL_BYTES_PER_SECOND, XCDS)

#: what can bound a round (in this order of precedence when equal)
BOUNDS = ("compute", "l2", "l2-fill", "hbm")
#: one XCD's L2 bandwidth, bytes per second
L2_BYTES_PER_SECOND = L2_CHANNELS_PER_XCD * L2_CHANNEL_BYTES_PER_CLOCK * CLOCK_HZ


@dataclass(frozen=True)
class Problem:
    """A GEMM dispatch: ``M x N x K`` in tiles of ``BM x BN`` (K steps of ``BK``),
    ``elem_bytes`` per element of A and B, C in ``c_bytes`` per element."""

    M: int
    N: int
    K: int
    BM: int
    BN: int
    BK: int
    elem_bytes: float
    c_bytes: int = 4

    def __post_init__(self) -> None:
        for name in ("M", "N", "K", "BM", "BN", "BK"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ConfigError(f"device model: {name} must be a positive integer, got {v!r}")
        if self.M % self.BM or self.N % self.BN:
            raise ConfigError(f"device model: M x N = {self.M} x {self.N} is not a whole "
                              f"number of {self.BM} x {self.BN} tiles")

    @property
    def tiles(self) -> tuple[int, int]:
        return self.M // self.BM, self.N // self.BN

    @property
    def flops(self) -> int:
        return 2 * self.M * self.N * self.K


@dataclass(frozen=True)
class DeviceEstimate:
    """The model's answer for one grid order."""

    order: GridOrder
    seconds: float
    rounds: int
    #: rounds bound by each of :data:`BOUNDS`
    bound_by: dict
    #: bytes the workgroups ask of L2, bytes filled into the L2s, bytes read from HBM
    requested_bytes: int
    l2_fill_bytes: int
    hbm_bytes: int
    flops: int

    @property
    def tflops(self) -> float:
        return self.flops / self.seconds / 1e12

    @property
    def l2_hit_rate(self) -> float:
        return 1.0 - self.l2_fill_bytes / self.requested_bytes


def estimate(problem: Problem, order: GridOrder, workgroup_cycles: float,
             per_cu: int = 1) -> DeviceEstimate:
    """The dispatch of ``problem`` in grid order ``order``, each workgroup taking
    ``workgroup_cycles`` with ``per_cu`` workgroups resident on a CU."""
    if not workgroup_cycles > 0:
        raise ConfigError(f"device model: workgroup_cycles must be positive, got "
                          f"{workgroup_cycles!r}")
    if isinstance(per_cu, bool) or not isinstance(per_cu, int) or per_cu < 1:
        raise ConfigError(f"device model: per_cu must be a positive integer, got {per_cu!r}")
    tiles_m, tiles_n = problem.tiles
    count = tiles_m * tiles_n
    slots = XCDS * CUS_PER_XCD * per_cu
    panel = {"A": problem.BM * problem.K * problem.elem_bytes,
             "B": problem.BN * problem.K * problem.elem_bytes}
    seconds, bound_by = 0.0, dict.fromkeys(BOUNDS, 0)
    requested = fill = hbm = 0
    previous: set = set()
    for first in range(0, count, slots):
        ids = range(first, min(first + slots, count))
        per_xcd = [[order.tile_of(i, tiles_m, tiles_n) for i in ids if i % XCDS == x]
                   for x in range(XCDS)]
        fills = [_xcd_fill(problem, panel, tiles) for tiles in per_xcd]
        requested += sum(len(t) for t in per_xcd) * (panel["A"] + panel["B"])
        fill += sum(fills)
        panels = {("A", tm) for t in per_xcd for tm, _ in t} | \
                 {("B", tn) for t in per_xcd for _, tn in t}
        reread = previous if sum(panel[p] for p, _ in previous) <= MALL_BYTES else set()
        round_hbm = sum(panel[p] for p, _ in panels - reread) + \
            len(ids) * problem.BM * problem.BN * problem.c_bytes
        hbm += round_hbm
        previous = panels
        asked = max(len(t) for t in per_xcd) * (panel["A"] + panel["B"])
        times = {"compute": workgroup_cycles / CLOCK_HZ,
                 "l2": asked / L2_BYTES_PER_SECOND,
                 "l2-fill": max(fills) / (MALL_BYTES_PER_SECOND / XCDS),
                 "hbm": round_hbm / HBM_BYTES_PER_SECOND}
        worst = max(BOUNDS, key=lambda b: times[b])
        bound_by[worst] += 1
        seconds += times[worst]
    return DeviceEstimate(order, seconds, -(-count // slots), bound_by, int(requested),
                          int(fill), int(hbm), problem.flops)


def _xcd_fill(problem: Problem, panel: dict, tiles: list) -> float:
    """Bytes one XCD's L2 is filled with in a round for ``tiles`` (its workgroups')."""
    rows = {tm for tm, _ in tiles}
    cols = {tn for _, tn in tiles}
    window = 2 * problem.BK * problem.elem_bytes * (len(rows) * problem.BM
                                                     + len(cols) * problem.BN)
    if window <= L2_BYTES_PER_XCD:
        return len(rows) * panel["A"] + len(cols) * panel["B"]
    return len(tiles) * (panel["A"] + panel["B"])


def orders_to_try(tiles_m: int) -> tuple[GridOrder, ...]:
    """The grid orders worth pricing for a grid of ``tiles_m`` tile rows: row-major, the
    XCD renumbering alone, and with bands of 2..16 tile rows (powers of two below the
    grid's height)."""
    out = [GridOrder(), GridOrder(xcd_remap=True)]
    g = 2
    while g <= min(16, tiles_m):
        out += [GridOrder(False, g), GridOrder(True, g)]
        g *= 2
    return tuple(out)


def best_order(problem: Problem, workgroup_cycles: float, per_cu: int = 1) -> DeviceEstimate:
    """The fastest of :func:`orders_to_try`; among equally fast ones the one that fills
    the L2s with the fewest bytes, then reads the fewest from HBM, then the first (so
    row-major wins a full tie)."""
    return order_table(problem, workgroup_cycles, per_cu)[1]


def order_table(problem: Problem, workgroup_cycles: float, per_cu: int = 1) -> tuple[str, DeviceEstimate]:
    """(the table of every order :func:`orders_to_try` prices, the chosen estimate: the
    fastest, then the least L2 fill, then HBM traffic, then the first)."""
    runs = [estimate(problem, o, workgroup_cycles, per_cu)
            for o in orders_to_try(problem.tiles[0])]
    best = min(runs, key=lambda r: (round(r.seconds, 12), r.l2_fill_bytes, r.hbm_bytes))
    lines = [table_header()]
    for r in runs:
        lines.append(table_row(r, runs[0]) + ("  chosen" if r is best else ""))
    return "\n".join(lines) + "\n", best


def table_header(first: str = "grid order", bound: bool = False) -> str:
    """The column heads of :func:`table_row` (``first``: the first column's)."""
    return (f"{first:<44} {'us':>8} {'TFLOP/s':>8} {'L2 hit':>7} {'HBM MiB':>8}"
            + (f" {'bound':>16}" if bound else "") + f" {'x row-major':>11}")


def table_row(e: DeviceEstimate, row: DeviceEstimate, label: str | None = None,
              bound: bool = False) -> str:
    """One estimate as a table line: its order (or ``label``), time, throughput, L2 hit
    rate, HBM traffic, with ``bound`` what bounds it, and its time over the row-major
    estimate ``row``'s."""
    label = e.order.describe() if label is None else label
    limits = ",".join(f"{k}:{v}" for k, v in e.bound_by.items() if v)
    return (f"{label:<44} {1e6 * e.seconds:>8.1f} {e.tflops:>8.0f} {e.l2_hit_rate:>7.3f} "
            f"{e.hbm_bytes / 2**20:>8.0f}" + (f" {limits:>16}" if bound else "")
            + f" {e.seconds / row.seconds:>11.3f}")
