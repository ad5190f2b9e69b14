"""The device-level model: traffic counted by hand for small cases, bounds, bad input."""

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedules.grid import GridOrder
from pipeline_mlir.sim.device import (Problem, best_order, estimate, order_table, orders_to_try,
                                      table_header, table_row)
from pipeline_mlir.target.gfx950 import CLOCK_HZ

BIG = Problem(8192, 8192, 8192, 256, 256, 64, 2)
SLOW = 4250 * 8192 / 128           # a ping-pong workgroup: compute-bound everywhere


def test_rowmajor_8192_cube_hit_rate_by_hand():
    # round 0 on XCD 0: ids 0, 8, ..., 248 -> tile rows 0..7, tile columns 0, 8, 16, 24:
    # 12 panels fetched for 32 workgroups x 2 panels asked
    e = estimate(BIG, GridOrder(), SLOW)
    assert e.rounds == 4
    assert e.l2_hit_rate == pytest.approx(1 - 12 / 64)
    assert e.bound_by["compute"] == 4
    assert e.seconds == pytest.approx(4 * SLOW / CLOCK_HZ)


def test_xcd_remap_alone_strips_one_row_per_xcd():
    # XCD x owns ids 128x..128x+127; its first 32 are one tile row: 1 + 32 panels
    e = estimate(BIG, GridOrder(xcd_remap=True), SLOW)
    assert e.l2_hit_rate == pytest.approx(1 - 33 / 64)


def test_best_order_prefers_less_traffic_at_equal_time():
    skinny = Problem(8192, 2048, 8192, 256, 256, 64, 2)
    row = estimate(skinny, GridOrder(), SLOW)
    best = best_order(skinny, SLOW)
    assert best.seconds == pytest.approx(row.seconds)
    assert best.l2_fill_bytes < row.l2_fill_bytes
    assert not best.order.is_rowmajor
    # a full tie keeps row-major
    assert best_order(BIG, SLOW).order.is_rowmajor


def test_fast_workgroups_become_memory_bound_and_order_matters():
    fast = 50.0
    row = estimate(Problem(8192, 2048, 8192, 256, 256, 64, 2), GridOrder(), fast)
    assert row.bound_by["compute"] == 0
    best = best_order(Problem(8192, 2048, 8192, 256, 256, 64, 2), fast)
    assert best.seconds < row.seconds


def test_the_order_table_lines_up_and_marks_the_chosen_order():
    skinny = Problem(8192, 2048, 8192, 256, 256, 64, 2)
    text, best = order_table(skinny, SLOW)
    head, *rows = text.splitlines()
    assert head == table_header() and head.split()[:2] == ["grid", "order"]
    assert len(rows) == len(orders_to_try(skinny.tiles[0]))
    assert [r for r in rows if r.endswith("  chosen")] == \
        [table_row(best, estimate(skinny, GridOrder(), SLOW)) + "  chosen"]
    # every column ends where its head does, with and without the bound column
    for bound in (False, True):
        head = table_header("order", bound)
        line = table_row(best, estimate(skinny, GridOrder(), SLOW), "best: x", bound)
        assert len(line) == len(head) and line.startswith("best: x ")
        assert line.split()[-1] == f"{best.seconds / estimate(skinny, GridOrder(), SLOW).seconds:.3f}"
    assert "compute:" in table_row(best, best, bound=True)
    assert "compute:" not in table_row(best, best)


def test_orders_to_try_stop_at_the_grid_height():
    assert len(orders_to_try(1)) == 2
    assert GridOrder(True, 16) in orders_to_try(32)
    assert GridOrder(False, 4) not in orders_to_try(3)


@pytest.mark.parametrize("args, field", [((0, 256, 256, 256, 256, 64, 2), "M"),
                                         ((8192, 8000, 256, 256, 256, 64, 2), "M x N"),
                                         ((256, 256, 256, 256, 256, 64.0, 2), "BK")])
def test_bad_problems_name_the_field(args, field):
    with pytest.raises(ConfigError, match=field):
        Problem(*args)


def test_bad_cost_inputs_name_the_field():
    with pytest.raises(ConfigError, match="workgroup_cycles"):
        estimate(BIG, GridOrder(), 0)
    with pytest.raises(ConfigError, match="per_cu"):
        estimate(BIG, GridOrder(), SLOW, per_cu=0)
