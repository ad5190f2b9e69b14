"""The coordinates of a proof over boxes (``frontend/grid_eval.py``'s ``GridBoxes``): a
one-dimensional grid that the kernel divides into rows of ``N`` workgroups is proven in
(row, column) coordinates, its workgroup id ``row x N + column``; any other grid in its
workgroup ids."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.grid_eval import GridBoxes, grid_boxes

KERNEL = """
func.func @f(%buf: memref<100000xf32>) {{
  %c = arith.constant {n} : i32
  %f = arith.constant 0.0 : f32
  %w = gpu.block_id x upper_bound 600
  %w32 = arith.index_castui %w : index to i32
  %q = arith.{op} %w32, %c : i32
  %i = arith.index_castui %q : i32 to index
  memref.store %f, %buf[%i] : memref<100000xf32>
  return
}}"""


@pytest.mark.parametrize("op,n,grid,row", [
    ("divui", 24, (600,), 24), ("remui", 25, (600,), 25), ("divui", 7, (600,), None),
    ("divui", 600, (600,), None), ("muli", 24, (600,), None), ("divui", 24, (600, 2), None)])
def test_rows_of_a_one_dimensional_grid(op, n, grid, row):
    """The rows are taken from a division or remainder of the workgroup id (through its
    casts) by a constant that tiles the grid: not 7 (no divisor of 600), not 600 (one
    row), not a product, not a two-dimensional grid."""
    with new_context() as ctx:
        m = ir.Module.parse(KERNEL.format(op=op, n=n), ctx)
        got = grid_boxes(m.operation, grid)
    assert got.row == row


def test_rows_and_columns_map_back_to_ids():
    rows = GridBoxes((600,), 24)
    top = rows.top(5)
    assert (top.lo, top.hi) == ((0, 0, 0), (24, 23, 4))
    pts = np.array([[0, 0, 0], [3, 5, 2], [24, 23, 4]], np.int64)
    assert rows.ids(pts).ravel().tolist() == [0, 77, 599]
    assert rows.point((3, 5, 2)) == ((77,), 2)
    plain = GridBoxes((10, 4))
    assert (plain.top(3).lo, plain.top(3).hi) == ((0, 0, 0), (9, 3, 2))
    assert plain.point((7, 2, 1)) == ((7, 2), 1)
