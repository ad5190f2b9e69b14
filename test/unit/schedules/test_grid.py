"""The grid orders: each a bijection of workgroups onto tiles, with the layout it promises."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedules.grid import MAX_GROUP_M, GridOrder
from pipeline_mlir.target.gfx950 import XCDS

ORDERS = st.builds(GridOrder, st.booleans(), st.integers(1, 16))


@settings(max_examples=150, deadline=None)
@given(ORDERS, st.integers(1, 40), st.integers(1, 40))
def test_every_order_is_a_bijection(order, tiles_m, tiles_n):
    tiles = [order.tile_of(i, tiles_m, tiles_n) for i in range(tiles_m * tiles_n)]
    assert sorted(tiles) == [(m, n) for m in range(tiles_m) for n in range(tiles_n)]


def test_rowmajor_is_the_reference_mapping():
    assert GridOrder().is_rowmajor
    assert [GridOrder().tile_of(i, 3, 5) for i in (0, 4, 5, 14)] == [(0, 0), (0, 4), (1, 0),
                                                                     (2, 4)]


@pytest.mark.parametrize("count", [64, 67, 5, 8 * 13 + 7])
def test_xcd_remap_gives_each_xcd_one_contiguous_run(count):
    order = GridOrder(xcd_remap=True)
    runs = []
    for x in range(XCDS):
        ids = [order.tile_of(i, count, 1)[0] for i in range(x, count, XCDS)]
        assert ids == list(range(ids[0], ids[0] + len(ids))) if ids else True
        runs.append(ids)
    # the first count % XCDS XCDs hold one more, and the runs tile [0, count) in XCD order
    flat = [i for r in runs for i in r]
    assert flat == list(range(count))
    assert [len(r) for r in runs] == [count // XCDS + (x < count % XCDS) for x in range(XCDS)]


def test_bands_walk_columns_of_group_rows():
    order = GridOrder(group_m=4)
    assert [order.tile_of(i, 10, 3) for i in range(6)] == [(0, 0), (1, 0), (2, 0), (3, 0),
                                                           (0, 1), (1, 1)]
    # the last band has 10 - 8 = 2 rows
    assert [order.tile_of(i, 10, 3) for i in range(24, 28)] == [(8, 0), (9, 0), (8, 1), (9, 1)]


@pytest.mark.parametrize("kwargs, field", [({"group_m": 0}, "group_m"),
                                           ({"group_m": MAX_GROUP_M + 1}, "group_m"),
                                           ({"group_m": True}, "group_m"),
                                           ({"group_m": 2.0}, "group_m"),
                                           ({"xcd_remap": 1}, "xcd_remap")])
def test_bad_orders_are_refused_by_field(kwargs, field):
    with pytest.raises(ConfigError, match=field):
        GridOrder(**kwargs)


def test_describe():
    assert GridOrder().describe() == "row-major"
    assert GridOrder(True, 4).describe() == "XCD-contiguous ids, bands of 4 tile rows"
