"""The complete kernels' ids as MLIR text: thread, lane, warp, the launch check, each lane's C
offset, and the tile of each workgroup in the kernel's grid order (:mod:`pipeline_mlir.schedules.grid`,
from the same code the Python evaluation runs).  ``t`` is the kernel writer's text
(:mod:`pipeline_mlir.kernel.gemm_mlir`).  Nothing here imports MLIR."""

from __future__ import annotations

from pipeline_mlir.kernel.lds_data import OPAQUE_IDENTITY
from pipeline_mlir.target.gfx950 import WAVE_SIZE


class _MlirInts:
    """The grid orders' integer ops (:class:`~pipeline_mlir.schedules.grid.PyInts`) writing
    ``arith`` ops on ``i32``."""

    _OPS = {"add": "addi", "mul": "muli", "sub": "subi", "div": "divui", "rem": "remui",
            "min": "minui"}

    def __init__(self, w) -> None:
        self.w, self.count = w, 0

    def const(self, v: int) -> str:
        return self.w.const(v)

    def __getattr__(self, op: str):
        def emit(a: str, b: str) -> str:
            name = f"%grid{self.count}"
            self.count += 1
            self.w(f"{name} = arith.{self._OPS[op]} {a}, {b} : i32")
            return name
        return emit


def tile_of_workgroup(w, order, BM: int) -> None:
    """``%tm``, ``%tn``: the tile row and column of workgroup ``%bid`` in ``order``."""
    if order.is_rowmajor:
        w("%tm = arith.divui %bid, %tiles_n : i32")
        w("%tn = arith.remui %bid, %tiles_n : i32")
        return
    w(f"%tiles_m = arith.divui %Mi, {w.const(BM)} : i32")
    tm, tn = order.tile(_MlirInts(w), "%bid", "%tiles_m", "%tiles_n")
    # the order's last two ops define the tile: give them the names the kernel reads
    for value, name in ((tm, "%tm"), (tn, "%tn")):
        (at,) = [i for i, line in enumerate(w.lines) if line.lstrip().startswith(value + " =")]
        w.lines[at] = w.lines[at].replace(value, name, 1)


def thread_ids(t) -> None:
    """Thread, lane, warp and tile ids, and the launch check (a trap outside the host
    contract)."""
    k, w, g = t.k, t.w, t.k.geometry
    c16, c_wave = w.const(16), w.const(WAVE_SIZE)
    w("%tid_x = gpu.thread_id x")
    w("%bid_x = gpu.block_id x")
    for v in ("tid", "bid"):
        w(f"%{v} = arith.index_castui %{v}_x : index to i32")
    w("%Mi = arith.index_castui %M : index to i32")
    w("%Ni = arith.index_castui %N : index to i32")
    w("%Ki = arith.index_castui %K : index to i32")
    w(f"%lane = arith.remui %tid, {c_wave} : i32")
    # launched outside the host contract (gemm_launch.check_launch)? trap rather than
    # compute a silently wrong C
    w(f"%k_rem = arith.remui %Ki, {w.const(2 * g.BK)} : i32")
    w(f"%k_bad0 = arith.cmpi ne, %k_rem, {w.const(0)} : i32")
    w(f"%k_bad1 = arith.cmpi ult, %Ki, {w.const(k.min_k)} : i32")
    w(f"%m_rem = arith.remui %Mi, {w.const(g.BM)} : i32")
    w(f"%m_bad = arith.cmpi ne, %m_rem, {w.const(0)} : i32")
    w(f"%n_rem = arith.remui %Ni, {w.const(g.BN)} : i32")
    w(f"%n_bad = arith.cmpi ne, %n_rem, {w.const(0)} : i32")
    w("%bad0 = arith.ori %k_bad0, %k_bad1 : i1")
    w("%bad1 = arith.ori %m_bad, %n_bad : i1")
    w("%bad = arith.ori %bad0, %bad1 : i1")
    w("scf.if %bad {")
    w("llvm.intr.trap", 8)
    w("}")
    w(f"%warp_v = arith.divui %tid, {c_wave} : i32")
    # the warp index is wave-uniform: make it scalar so the uniform math stays in SGPRs
    w("%warp = rocdl.readfirstlane %warp_v : i32")
    w(f"%l16 = arith.remui %lane, {c16} : i32")
    w(f"%lgrp = arith.divui %lane, {c16} : i32")
    w(f"%wm = arith.divui %warp, {w.const(k.warps_n)} : i32")
    w(f"%wn = arith.remui %warp, {w.const(k.warps_n)} : i32")
    w(f"%tiles_n = arith.divui %Ni, {w.const(g.BN)} : i32")
    tile_of_workgroup(w, k.grid_order, g.BM)
    w(f"%row0_a = arith.muli %tm, {w.const(g.BM)} : i32")
    w(f"%row0_b = arith.muli %tn, {w.const(g.BN)} : i32")


def c_lane_base(t) -> None:
    """Write ``%cbase2``, each lane's C element offset (row ``4*(l/16)``, column ``l%16`` of
    its wave's first accumulator tile), before the main loop, so that one VGPR carries it
    through the loop instead of the lane and group ids it is made of (with a loop that
    needs every VGPR, as ping-pong FP8 with ``frags_ahead=across``, LLVM spills what
    crosses it). It goes through the opaque identity here and again after the loop
    (``gemm_mlir._end``): else LLVM sinks the math past the loop, or keeps the offset as a
    64-bit pair for the stores' address arithmetic."""
    w = t.w
    w("%crow0 = arith.addi %row0_a, %wrow_a : i32")
    w("%ccol0 = arith.addi %row0_b, %wrow_b : i32")
    w(f"%lrow4 = arith.muli %lgrp, {w.const(4)} : i32")
    w("%crow1 = arith.addi %crow0, %lrow4 : i32")
    w("%ccol1 = arith.addi %ccol0, %l16 : i32")
    w("%cbase0 = arith.muli %crow1, %Ni : i32")
    w("%cbase1 = arith.addi %cbase0, %ccol1 : i32")
    w(f"%cbase2 = {OPAQUE_IDENTITY} %cbase1 : (i32) -> i32")
