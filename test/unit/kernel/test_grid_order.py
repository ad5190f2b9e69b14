"""A complete kernel built with a grid order computes, workgroup by workgroup, the tile the
order says (pipeline_mlir.schedules.grid), and C stays exact."""

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.emu.gemm import emulate_gemm, spread
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.launch import check_launch, format_launch
from pipeline_mlir.schedules.grid import GridOrder
from pipeline_mlir.schedules.registry import parse_pipeline
from steady_loop import assert_short, assert_steady, counting_loops

SPEC = "4wave{dtype=fp8 BM=64 BN=64 BK=128 xcd_remap=true group_m=2}"
M, N, K = 320, 256, 256          # 5 x 4 tiles: 20 workgroups, a short last band, 20 % 8 = 4
#: the whole grid's K: 6 K tiles, the main loop twice (at K, 2 tiles, the loop is skipped)
K_STEADY = 768


@pytest.fixture(scope="module")
def built():
    return load_kernel(pipeline_opt_hsaco(SPEC)), gemm_kernel(parse_pipeline(SPEC))


def test_each_workgroup_writes_the_tile_of_its_order(built):
    kernel, gemm = built
    order, g = gemm.grid_order, gemm.geometry
    tiles_m, tiles_n = M // g.BM, N // g.BN
    for count in (2, 3, 5, 7):
        with counting_loops() as loops:
            run = emulate_gemm(kernel, gemm, M, N, K, "eager", count=count)
        assert run.exact
        assert_short(loops, 0, "the order's point; the whole grid goes round the loop")
        written = ~np.isnan(run.C)
        tiles = {(r // g.BM, c // g.BN) for r, c in zip(*np.nonzero(written))}
        # every written tile is whole
        assert written.sum() == len(tiles) * g.BM * g.BN
        assert tiles == {order.tile_of(wg, tiles_m, tiles_n) for wg in spread(20, count)}
        assert tiles != {GridOrder().tile_of(wg, tiles_m, tiles_n) for wg in spread(20, count)}
    assert gemm.name.endswith("_xcd_g2")


def test_the_whole_grid_is_exact_in_late_mode(built):
    kernel, gemm = built
    with counting_loops() as loops:
        run = emulate_gemm(kernel, gemm, M, N, K_STEADY, "late")
    assert run.exact and run.workgroups == 20
    assert_steady(loops)


def test_the_launch_names_the_order():
    text = format_launch(check_launch(gemm_kernel(parse_pipeline(SPEC)), M, N, K))
    assert "20 x 1 x 1 workgroups (XCD-contiguous ids, bands of 2 tile rows)" in text
    plain = format_launch(check_launch(gemm_kernel(parse_pipeline(
        "4wave{dtype=fp8 BM=64 BN=64 BK=128}")), M, N, K))
    assert "20 x 1 x 1 workgroups\n" in plain
