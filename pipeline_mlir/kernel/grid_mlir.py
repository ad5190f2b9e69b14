"""The grid order (:mod:`pipeline_mlir.schedules.grid`) as MLIR text: the kernel writer's
tile of each workgroup, from the same code the Python evaluation runs.  Nothing here
imports MLIR."""

from __future__ import annotations


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
