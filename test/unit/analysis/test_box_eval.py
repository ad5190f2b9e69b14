"""Proofs over a box of workgroups from a few of its points (``pipeline_mlir/analysis/
box_eval.py``): every value a box's evaluation certifies is, at every point of the box, the
affine function its lowest point and steps give (checked here point by point, on random
boxes, for each rule); the rules refuse what is not affine (a product of two moving values,
a quotient or a comparison that changes inside the box, a cast that wraps inside it, a
``ne`` whose two sides cross between the corners); and :func:`settle` finds a failing
point no corner of the top box is."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.analysis.box_eval import (Box, BoxEvaluator, Undecided, check_affine,
                                             decided_between)
from pipeline_mlir.analysis.box_settle import GaveUp, settle
from pipeline_mlir.analysis.loop_eval import SideBySide
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

#: the body of each function: ``%x``, ``%y`` workgroup ids (0..63), ``%t`` a thread id
#: (0..3); ``%r`` the value tested; whether some random box leaves it undecided
EXPRESSIONS = {
    "affine": ("%a = arith.muli %x, %c128 : index\n%b = arith.muli %y, %c3 : index\n"
               "%s = arith.addi %a, %b : index\n%r = arith.subi %s, %t : index", False),
    "floordiv": ("%a = arith.muli %x, %c128 : index\n%s = arith.addi %a, %t : index\n"
                 "%r = arith.floordivsi %s, %c1000 : index", True),
    "remsi": ("%a = arith.muli %x, %c7 : index\n%s = arith.addi %a, %t : index\n"
              "%r = arith.remsi %s, %c128 : index", True),
    "mask": ("%a = arith.muli %x, %c128 : index\n%s = arith.addi %a, %t : index\n"
             "%ok = arith.cmpi slt, %s, %c1000 : index\n"
             "%r = arith.select %ok, %s, %c5000 : index", True),
    "ne": ("%ok = arith.cmpi ne, %x, %c7 : index\n%r = arith.select %ok, %y, %c0 : index",
           True),
    "min": ("%a = arith.muli %x, %c128 : index\n%s = arith.addi %a, %t : index\n"
            "%b = arith.subi %c3000, %y : index\n%r = arith.minsi %s, %b : index", True),
    "wrap": ("%a = arith.muli %x, %c7 : index\n%n = arith.index_cast %a : index to i8\n"
             "%r = arith.index_cast %n : i8 to index", True),
    "product": ("%r = arith.muli %x, %y : index", True),
    "apply": ("%r = affine.apply affine_map<(d0, d1) -> ((d0 * 64 + d1 * 3) mod 100)>(%x, %t)",
              True),
    "affine_min": ("%r = affine.min affine_map<(d0, d1) -> (d0 * 16, 500 - d1 * 2)>(%x, %y)",
                   True),
    "delinearize": ("%s = arith.muli %x, %c7 : index\n"
                    "%q:2 = affine.delinearize_index %s into (8, 16) : index, index\n"
                    "%r = arith.addi %q#0, %q#1 : index", True),
    "low_mask": ("%a = arith.muli %x, %c7 : index\n%r = arith.andi %a, %c15 : index", True),
    "high_mask": ("%a = arith.muli %x, %c7 : index\n%r = arith.andi %a, %cm16 : index", True),
    "or": ("%r = arith.ori %x, %c1 : index", True),
    # a workgroup id of rows of 16 (x the row, y the column) divided back: the quotient
    # moves with x and is affine where y stays inside one row
    "rows": ("%a = arith.muli %x, %c16 : index\n%i = arith.addi %a, %y : index\n"
             "%q = arith.divui %i, %c16 : index\n%m = arith.remui %i, %c16 : index\n"
             "%b = arith.muli %q, %c1000 : index\n%r = arith.addi %b, %m : index", True),
    "rows_delinearize": ("%a = arith.muli %x, %c16 : index\n%i = arith.addi %a, %y : index\n"
                         "%q:2 = affine.delinearize_index %i into (64, 16) : index, index\n"
                         "%b = arith.muli %q#0, %c1000 : index\n"
                         "%r = arith.addi %b, %q#1 : index", True),
    "rows_apply": ("%r = affine.apply affine_map<(d0, d1) -> ((d0 * 16 + d1) floordiv 16 + "
                   "(d0 * 16 + d1) mod 16)>(%x, %y)", True),
    "shifts": ("%a = arith.shli %x, %c3 : index\n%r = arith.shrui %a, %c5 : index", True),
}


def _function(body: str) -> str:
    consts = "\n".join(f"%c{n} = arith.constant {n} : index"
                       for n in (0, 1, 3, 5, 7, 15, 16, 128, 1000, 3000, 5000))
    return f"""
func.func @f(%buf: memref<100000xf32>) {{
  {consts}
  %cm16 = arith.constant -16 : index
  %f = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %x = gpu.block_id x upper_bound 64
  %y = gpu.block_id y upper_bound 64
  {body}
  memref.store %f, %buf[%r] : memref<100000xf32>
  return
}}"""


def _parsed(body: str):
    ctx = new_context()
    m = ir.Module.parse(_function(body), ctx)
    ids = walk_ops(m.operation, lambda o: o.name == "gpu.block_id")
    store = walk_ops(m.operation, lambda o: o.name == "memref.store")[0]
    return ctx, m, [o.results[0] for o in ids], store.operands[2]


def _values(ev, ids, r, points: np.ndarray) -> np.ndarray:
    for d, v in enumerate(ids):
        ev.bind(v, np.repeat(points[:, d], ev.per_workgroup))
    return ev.value(r).reshape(len(points), -1)


def _every_point(box: Box) -> np.ndarray:
    return np.array([(a, b) for a in range(box.lo[0], box.hi[0] + 1)
                     for b in range(box.lo[1], box.hi[1] + 1)], dtype=np.int64)


def _affine_at(box: Box, rows: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The values the lowest point and the steps of ``box`` (``rows``) give at ``points``."""
    out = np.repeat(rows[:1], len(points), axis=0)
    for d, u in enumerate(box.unit):
        if u is not None:
            out = out + (points[:, d:d + 1] - box.lo[d]) * (rows[u] - rows[0])
    return out


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_what_a_box_certifies_holds_at_every_point(name):
    body, splits = EXPRESSIONS[name]
    ctx, m, ids, r = _parsed(body)
    rng = np.random.default_rng(sum(map(ord, name)))
    settled = undecided = 0
    with ctx:
        for _ in range(60):
            lo = rng.integers(0, 60, 2)
            hi = np.minimum(lo + rng.integers(0, 20, 2), 63)
            box = Box(tuple(int(v) for v in lo), tuple(int(v) for v in hi))
            ev = BoxEvaluator((4, 1, 1), len(box.points), launch_values=False)
            ev.box = box
            try:
                rows = _values(ev, ids, r, box.points)
            except Undecided:
                undecided += 1
                continue
            settled += 1
            every = _every_point(box)
            plain = SideBySide((4, 1, 1), len(every), launch_values=False)
            np.testing.assert_array_equal(_values(plain, ids, r, every),
                                          _affine_at(box, rows, every), err_msg=str(box.lo))
    assert settled, name
    assert bool(undecided) == splits, (name, undecided)


def test_a_single_point_is_never_undecided():
    for name, (body, _) in EXPRESSIONS.items():
        ctx, m, ids, r = _parsed(body)
        with ctx:
            box = Box((9, 40), (9, 40))
            ev = BoxEvaluator((4, 1, 1), 1, launch_values=False)
            _values(ev, ids, r, box.points)


def test_ne_that_crosses_between_the_corners_is_undecided():
    """``x != 7`` is true at both ends of x in 0..9 and false at 7: undecided there; decided
    on 8..30 (true everywhere) and at 7 alone."""
    ctx, m, ids, r = _parsed(EXPRESSIONS["ne"][0])
    with ctx:
        for lo, hi, ok in (((0, 0), (9, 5), False), ((8, 0), (30, 5), True),
                           ((7, 0), (7, 5), True)):
            box = Box(lo, hi)
            ev = BoxEvaluator((4, 1, 1), len(box.points), launch_values=False)
            if ok:
                _values(ev, ids, r, box.points)
            else:
                with pytest.raises(Undecided):
                    _values(ev, ids, r, box.points)


def test_box_points_and_checks():
    box = Box((2, 5, 0), (4, 5, 1))
    assert box.points[0].tolist() == [2, 5, 0] and box.unit[1] is None
    assert box.points[box.unit[0]].tolist() == [3, 5, 0]
    assert box.points[box.unit[2]].tolist() == [2, 5, 1]
    assert {tuple(p) for p in box.points} >= {(2, 5, 0), (4, 5, 0), (2, 5, 1), (4, 5, 1)}
    assert box.size() == 6
    lower, upper = box.split(0)
    assert (lower.lo, lower.hi, upper.lo, upper.hi) == ((2, 5, 0), (3, 5, 1), (4, 5, 0),
                                                        (4, 5, 1))
    x = box.points[:, :1] * 10 + box.points[:, 2:] * 3
    check_affine(box, x, "x")
    with pytest.raises(Undecided):       # (x * z: off the plane at the corner (4, 5, 1))
        check_affine(box, box.points[:, :1] * box.points[:, 2:], "x * z")
    # every point checked at once, of any integer type: the same verdicts
    wide = Box((0, 0, 0), (3, 2, 5))
    plane = wide.points @ np.array([[7, 1], [-3, 0], [11, 2]]) + 5     # (two columns)
    off = plane.copy()
    off[-1, 1] += 1                         # (one column of one corner off the plane)
    for dtype in (np.int64, np.int32):
        check_affine(wide, plane.astype(dtype), "plane")
        with pytest.raises(Undecided, match="off is not affine over the box"):
            check_affine(wide, off.astype(dtype), "off")
    # a test that fails at every corner but holds between them is undecided
    b = Box((0,), (10,))
    v = b.points * 10 - 50                  # -50 at 0, 50 at 10
    with pytest.raises(Undecided):
        decided_between(b, v, -5, 5, (v >= -5) & (v <= 5), "v")
    decided_between(b, v, 60, 70, (v >= 60) & (v <= 70), "v")


def test_settle_finds_a_point_no_corner_is():
    """A check that fails at point (37, 5) alone, undecided on every box holding it: the
    top box's corners and steps do not hold it, the split boxes find it."""
    bad = (37, 5)
    seen = []

    def check(box):
        seen.append(box)
        inside = all(a <= p <= b for a, p, b in zip(box.lo, bad, box.hi))
        if inside and box.size() > 1:
            raise Undecided("holds the bad point", (box.points[:, 0] * 0 + box.points[:, 0],))
        return bad if inside else None
    assert settle(Box((0, 0), (63, 63)), check, 1000) == bad
    assert len(seen) < 40
    assert settle(Box((0, 0), (63, 3)), check, 1000) is None
    with pytest.raises(GaveUp):
        settle(Box((0, 0), (63, 63)), check, 5)


@pytest.mark.parametrize("body", [
    "%a = arith.muli %x, %c3 : index\n%r = arith.remui %a, %c128 : index",
    "%r = affine.apply affine_map<(d0) -> ((d0 * 3) floordiv 128)>(%x)",
    "%a = arith.muli %x, %c3 : index\n"
    "%q:2 = affine.delinearize_index %a into (4, 128) : index, index\n"
    "%r = arith.addi %q#0, %q#1 : index"])
def test_a_moving_quotient_is_split_where_it_changes(body):
    """A box over which ``3x // 128`` moves is split where the quotient first changes, not
    in halves: over x in 0..4095 every box settles between two changes, one box per
    quotient and a few more (halving would split each change log2(4096) times)."""
    ctx, m, ids, r = _parsed(body)
    boxes = []

    def check(box):
        boxes.append(box)
        ev = BoxEvaluator((4, 1, 1), len(box.points), launch_values=False)
        pts = np.concatenate([box.points, np.zeros((len(box.points), 1), np.int64)], axis=1)
        _values(ev, ids, r, pts)
        return None
    with ctx:
        assert settle(Box((0,), (4095,)), check, 10000) is None
    quotients = 3 * 4095 // 128 + 1
    assert quotients <= sum(b.size() > 0 for b in boxes) <= 2 * quotients + 2, len(boxes)
    for b in boxes:
        assert b.lo[0] >= 0 and b.hi[0] <= 4095


@pytest.mark.parametrize("name", ["rows", "rows_delinearize", "rows_apply"])
def test_a_quotient_affine_over_rows_is_certified(name):
    """A workgroup id of rows of 16 (``16 x + y``) divided by 16: over x in 2..30 and y in
    0..15 the quotient is x, affine though it moves, and the remainder y (certified, and
    so at every point); with y in 0..16 the remainder leaves its range at y = 16: undecided."""
    ctx, m, ids, r = _parsed(EXPRESSIONS[name][0])
    with ctx:
        box = Box((2, 0), (30, 15))
        ev = BoxEvaluator((4, 1, 1), len(box.points), launch_values=False)
        ev.box = box
        rows = _values(ev, ids, r, box.points)
        every = _every_point(box)
        plain = SideBySide((4, 1, 1), len(every), launch_values=False)
        np.testing.assert_array_equal(_values(plain, ids, r, every), _affine_at(box, rows, every))
        box = Box((2, 0), (30, 16))
        ev = BoxEvaluator((4, 1, 1), len(box.points), launch_values=False)
        ev.box = box
        with pytest.raises(Undecided):
            _values(ev, ids, r, box.points)


def test_an_empty_start_is_the_top_box():
    """``settle`` started from no boxes proves the top box, not nothing: a check that fails
    at (3, 4) fails there."""
    def check(box):
        inside = all(a <= p <= b for a, p, b in zip(box.lo, (3, 4), box.hi))
        if inside and box.size() > 1:
            raise Undecided("holds the bad point", (box.points[:, 0],))
        return (3, 4) if inside else None
    assert settle(Box((0, 0), (7, 7)), check, 1000, []) == (3, 4)
