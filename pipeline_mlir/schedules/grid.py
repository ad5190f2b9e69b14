"""Which tile of C each workgroup of a GEMM grid computes: the grid order.

The hardware hands the flat workgroup ids of a dispatch to the XCDs round-robin (id ``i``
to XCD ``i % 8`` on MI355X; the dispatch rule the XCD remappings of CK-tile and IREE Wave
are built on), and each XCD has its own L2.  Which tiles run together on one XCD decides
how many rows of A and columns of B its L2 must hold, so the order is a kernel choice:

* ``rowmajor`` (the default, the reference's): workgroup ``i`` takes tile row
  ``i / tiles_n`` and tile column ``i % tiles_n``;
* ``xcd_remap``: the ids are first renumbered so that each XCD owns one contiguous run of
  logical ids (XCD ``x`` holds ``count_x`` of them, the first ``n % xcds`` XCDs one more);
  the logical id of ``i`` is ``x*(n/xcds) + min(x, n%xcds) + i/xcds`` with ``x = i % xcds``,
  a bijection of ``[0, n)``;
* ``group_m = G``: logical ids walk the tiles in bands of ``G`` tile rows, column by
  column inside a band (the last band may be shorter), so ids that run together cover a
  ``G x (run/G)`` block of tiles instead of a strip of one row; ``G = 1`` is row-major.

The order is written once, against a small integer-arithmetic interface (:class:`PyInts` is its Python-integer one),
and evaluated with Python integers (the device model, :mod:`pipeline_mlir.sim.device`, and
the tests' bijection checks) or written as MLIR ``arith`` ops on ``i32`` by the kernel
writer (:mod:`pipeline_mlir.kernel.gemm_mlir`): both run the same code.  Nothing here
imports MLIR.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import record
from pipeline_mlir.target.gfx950 import XCDS

#: the largest band of tile rows ``group_m`` may name (a band taller than the grid is the
#: column-major order; beyond this it is surely a typo)
MAX_GROUP_M = 64


class PyInts:
    """The integer-ops interface the orders are written against, over Python integers
    (non-negative operands): ``const(v)`` and the unsigned binary ops ``add``, ``mul``,
    ``sub``, ``div``, ``rem``, ``min``; another implementation may work on any kind of
    value (the kernel writer's works on SSA names)."""

    @staticmethod
    def const(v: int) -> int:
        return v

    add = staticmethod(lambda a, b: a + b)
    mul = staticmethod(lambda a, b: a * b)
    sub = staticmethod(lambda a, b: a - b)
    div = staticmethod(lambda a, b: a // b)
    rem = staticmethod(lambda a, b: a % b)
    min = staticmethod(min)


@record(frozen=True)
class GridOrder:
    """A grid order: the XCD renumbering on or off, and the band height in tile rows."""

    xcd_remap: bool = False
    group_m: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.xcd_remap, bool):
            raise ConfigError(f"grid order: xcd_remap must be true or false, got "
                              f"{self.xcd_remap!r}")
        if (isinstance(self.group_m, bool) or not isinstance(self.group_m, int)
                or not 1 <= self.group_m <= MAX_GROUP_M):
            raise ConfigError(f"grid order: group_m must be an integer in 1..{MAX_GROUP_M}, "
                              f"got {self.group_m!r}")

    @property
    def is_rowmajor(self) -> bool:
        return not self.xcd_remap and self.group_m == 1

    def describe(self) -> str:
        if self.is_rowmajor:
            return "row-major"
        parts = ["XCD-contiguous ids"] if self.xcd_remap else []
        if self.group_m > 1:
            parts.append(f"bands of {self.group_m} tile rows")
        return ", ".join(parts)

    def tile(self, ops, wg, tiles_m, tiles_n):
        """(tile row, tile column) of workgroup ``wg`` in a ``tiles_m x tiles_n`` grid,
        computed with ``ops`` (every operand a value of ``ops``' kind)."""
        logical = _xcd_logical(ops, wg, ops.mul(tiles_m, tiles_n)) if self.xcd_remap else wg
        if self.group_m == 1:
            return ops.div(logical, tiles_n), ops.rem(logical, tiles_n)
        g = ops.const(self.group_m)
        per_band = ops.mul(g, tiles_n)
        first = ops.mul(ops.div(logical, per_band), g)
        height = ops.min(ops.sub(tiles_m, first), g)
        inside = ops.rem(logical, per_band)
        return ops.add(first, ops.rem(inside, height)), ops.div(inside, height)

    def tile_of(self, wg: int, tiles_m: int, tiles_n: int) -> tuple[int, int]:
        """:meth:`tile` on Python integers."""
        return self.tile(PyInts, wg, tiles_m, tiles_n)


def _xcd_logical(ops, wg, count):
    xcds = ops.const(XCDS)
    xcd = ops.rem(wg, xcds)
    start = ops.add(ops.mul(xcd, ops.div(count, xcds)), ops.min(xcd, ops.rem(count, xcds)))
    return ops.add(start, ops.div(wg, xcds))


ROW_MAJOR = GridOrder()

#: the help of the two options (``4wave``, ``pingpong``) that choose a complete kernel's order
XCD_REMAP_HELP = ("number the workgroups so each XCD runs one contiguous run of tiles "
                  "(the grid order; default row-major)")
GROUP_M_HELP = "walk the tiles in bands of this many tile rows (the grid order; 1 = row-major)"


def grid_order(schedule) -> GridOrder:
    """The grid order a named schedule's options ask for (row-major where it has none)."""
    return GridOrder(getattr(schedule, "xcd_remap", False), getattr(schedule, "group_m", 1))
