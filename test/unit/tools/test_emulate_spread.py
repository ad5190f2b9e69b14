"""Which workgroups ``--emulate-workgroups=N`` runs (:func:`pipeline_mlir.emu.gemm.spread_ids`):
the first, the last and evenly spaced ones between, and, from three on, when those would all
lie on the diagonal of the grid (x == y, as they do on a square grid), one off it between the
first and the last, so that a kernel that mixes up its x and y workgroup ids is seen; two
are both corners (C's origin and far corner); the summary line names them.

The command-line test builds one mutated IREE dispatch (fp8 ``A^T x B`` 256x512x288, a 4 x 4
grid) and runs three of its workgroups, then two: about 3 s of CPU.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline_mlir.emu.gemm import spread, spread_ids
from pipeline_mlir.emu.launchdims import workgroup_id
from pipeline_mlir.tools.pipeline_opt import main

INPUTS = Path(__file__).parents[2] / "lit" / "passes" / "Inputs"


def _linear(ids: list, grid: tuple) -> list[int]:
    strides = np.cumprod((1,) + tuple(grid[:-1]))
    return [int(np.dot(w, strides)) for w in ids]


@pytest.mark.parametrize("grid", [(2, 2), (3, 3), (4, 4), (32, 32), (4, 4, 2), (2, 2, 3),
                                  (5, 5, 1)])
def test_a_square_grid_runs_a_workgroup_off_its_diagonal(grid):
    total = int(np.prod(grid))
    for count in range(2, min(total, 40) + 1):
        ids = spread_ids(grid, count)
        assert ids == spread_ids(grid, count)                    # deterministic
        at = _linear(ids, grid)
        assert len(ids) == count and at == sorted(set(at)), ids
        assert ids[0] == workgroup_id(0, grid), ids
        assert ids[-1] == workgroup_id(total - 1, grid), ids       # C's far corner
        assert (count == 2) != any(w[0] != w[1] for w in ids), (count, ids)
        # the evenly spread picks moved only where they all lay on the diagonal
        even = spread(total, count)
        if any(workgroup_id(i, grid)[0] != workgroup_id(i, grid)[1] for i in even):
            assert at == even, (count, ids)
        else:
            assert len(set(at) - set(even)) == (count > 2), (count, ids)


def test_a_grid_with_no_workgroup_off_its_diagonal_keeps_the_even_spread():
    assert spread_ids((1, 1, 6), 3) == [(0, 0, 0), (0, 0, 2), (0, 0, 5)]
    assert spread_ids((16,), 2) == [0, 15]                     # 1-D: no x and y to mix
    assert spread(16, 2, lambda i: True) == [0, 15]


def test_three_workgroups_of_a_square_grid_catch_swapped_ids(tmp_path, capsys):
    """A kernel whose A reads take the tile row from the x id and B's the tile column from
    the y id (IREE's forall indices swapped in those uses, its store left alone) computes
    every diagonal tile right: on its 4 x 4 grid the first and the last workgroup alone
    say exact (the two corners, the summary naming them), three say WRONG."""
    text = (INPUTS / "iree-fp8-atb-256x512x288.prefetch.mlir").read_text()
    swapped = text.replace("#map3(%arg0)", "#map3(%arg1)").replace("#map5(%arg1)",
                                                                     "#map5(%arg0)")
    assert swapped.count("#map3(%arg1)") == 1 and swapped.count("#map5(%arg0)") == 1
    src = tmp_path / "swapped.mlir"
    src.write_text(swapped)
    rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=3"])
    out, err = capsys.readouterr()
    assert rc == 1 and ": WRONG, " in out and "C differs from its check" in err, out + err
    assert "3 of 16 workgroups" in out and "; workgroups run: (0, 0), (3, 1), (3, 3);" in out, out
    rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, " in out and "; workgroups run: (0, 0), (3, 3);" in out, out
