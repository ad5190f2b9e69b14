"""The coordinates of a proof over boxes (``frontend/grid_eval.py``'s ``GridBoxes``): a
one-dimensional grid that the kernel divides into rows of ``N`` workgroups is proven in
(row, column) coordinates, its workgroup id ``row x N + column``; any other grid in its
workgroup ids."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.analysis.box_eval import Box, Undecided
from pipeline_mlir.analysis.box_settle import GaveUp, settle
from pipeline_mlir.frontend.grid_eval import GridBoxes, grid_boxes, hinted_settle

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


def _cut_at(xs, seen, bad=None):
    """A check over a box of one coordinate, undecided on a box that holds one of ``xs``
    inside (a value that changes there), failing at ``bad``; each box it sees in ``seen``."""
    def check(box):
        seen.append((box.lo, box.hi))
        if bad is not None and box.lo[0] <= bad <= box.hi[0]:
            if box.size() > 1:
                raise Undecided("holds the bad point", (box.points[:, 0],))
            return box.points[0]
        if any(box.lo[0] < x <= box.hi[0] for x in xs):
            raise Undecided("a change inside", (box.points[:, 0],))
        return None
    return check


def test_a_proof_again_over_the_same_box_starts_from_the_boxes_it_held_on():
    """The second proof of one key (a kernel's next copy) checks only the boxes the first
    held on; a proof of another key, or over another box, starts from the top."""
    key, top = ("k", object()), Box((0,), (255,))
    first, again, other = [], [], []
    assert hinted_settle(top, _cut_at((37, 200), first), 1000, key) is None
    assert hinted_settle(top, _cut_at((37, 200), again), 1000, key) is None
    held = [b for b in first if not any(b[0][0] < x <= b[1][0] for x in (37, 200))]
    assert len(first) > len(again) == len(held) and again == held
    assert hinted_settle(top, _cut_at((37, 200), other), 1000, ("k", object())) is None
    assert other == first
    assert hinted_settle(Box((0,), (127,)), _cut_at((37,), other), 1000, key) is None
    assert other[len(first)] == ((0,), (127,))


@pytest.mark.parametrize("bad", [None, 100, 255])
def test_a_hint_that_does_not_hold_proves_from_the_top(bad):
    """Where a box of the hint is undecided for the new check (it changes elsewhere) or
    the check fails, the proof is made again from the top box: the same answer (the same
    failing point) as with no hint, not the first failure met among the hint's boxes."""
    key, top = ("k", object()), Box((0,), (255,))
    assert hinted_settle(top, _cut_at((37, 200), []), 1000, key) is None
    seen, fresh = [], []
    got = hinted_settle(top, _cut_at((90, 150), seen, bad), 1000, key)
    assert got == settle(top, _cut_at((90, 150), fresh, bad), 1000)
    assert got == (None if bad is None else (bad,))
    assert ((0,), (255,)) in seen and seen[-len(fresh):] == fresh


def test_a_hinted_proof_that_gives_up_from_the_top_gives_up():
    key, top = ("k", object()), Box((0,), (255,))
    assert hinted_settle(top, _cut_at((37, 200), []), 1000, key) is None
    with pytest.raises(GaveUp):
        hinted_settle(top, _cut_at(range(1, 256, 2), []), 20, key)


def test_a_failure_met_among_the_hints_boxes_is_said_as_from_the_top():
    """A check that fails on a whole box at its lowest point: from the top box it says
    point 0; among the hint's boxes it would meet the failure first at the lowest point
    of the box holding 100 (38): the point said is the top's."""
    key, top = ("k", object()), Box((0,), (255,))
    assert hinted_settle(top, _cut_at((37, 200), []), 1000, key) is None

    def check(box):
        return box.points[0] if box.lo[0] <= 100 <= box.hi[0] else None
    assert hinted_settle(top, check, 1000, key) == (0,) == settle(top, check, 1000)
