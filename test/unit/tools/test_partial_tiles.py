"""A partial run of an IREE dispatch is checked on the tiles of its workgroups, read from the
dispatch (``pipeline_mlir/driver/dispatch_tiles.py``, ``analysis/output_tiles.py``), not on
the elements its machine code happened to store.

Real kernels, pipelined with ``--pipeline=4wave``, with one C store dropped (an ``s_nop``
in its place) or moved by a tile's width: IREE's default 2048x2048x1024 kernel with a
fused bias (a launch description, late form, linearised grid) and IREE's 300x500x200
kernel whose 128 x 256 tiles are cut at C's edges (the plain launch, 2-D grid at the
prefetch point; its corner workgroup's tile is 44 x 244).  Before, a dropped store of a
run workgroup went unseen there (the elements it should have written were not compared).

Without ``iree-compile`` these tests skip.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from emu_helpers import c_stores as _c_stores
from emu_helpers import moved_store as _moved
from emu_helpers import without_store as _without
from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.driver.dispatch_launch import dispatch_spec
from pipeline_mlir.driver.dispatch_tiles import PartialTiles, partial_tiles
from pipeline_mlir.emu.described import emulate_described
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.frontend.dispatch import matmul_dispatch

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402
from test_iree_emulate import needs_iree  # noqa: E402

pytestmark = needs_iree


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """name -> (the dispatch, its module's text path, the pipelined kernel)."""
    d = tmp_path_factory.mktemp("partial_tiles")
    sources = {"bias": (E.epilogue_source(kind="bias"), "late"),
               "edge": (G.matmul_source(dtype="bf16", m=300, n=500, k=200), "prefetch")}
    out = {}
    for name, (src, form) in sources.items():
        path = d / f"{name}.{form}.mlir"
        path.write_text((G.prefetch_point if form == "prefetch" else G.late_form)(src))
        out[name] = (path, load_kernel(pipeline_opt_hsaco("4wave", path.read_text())))
    return out


def _tiles(path: Path, count: int):
    with new_context() as ctx:
        module = ir.Module.parse(path.read_text(), ctx)
        d = matmul_dispatch(module)
        return d, partial_tiles(module, d, count)


def test_a_described_partial_run_sees_a_dropped_and_a_moved_store(built):
    """The bias kernel's workgroup 0 alone: its 128 x 128 tile from the dispatch; a dropped
    C store is 'not written' (the stored-elements check called it exact), a store moved
    one tile right is 'written outside the workgroups' tiles'."""
    path, kernel = built["bias"]
    d, tiles = _tiles(path, 1)
    assert tiles.mask is not None and tiles.mask.sum() == 128 * 128 and tiles.mask[:128, :128].all()
    spec = dispatch_spec(d, kernel, str(path))

    def run(k, footprint):
        return emulate_described(k, spec, "late", count=1, footprint=footprint)

    assert run(kernel, {"C": tiles.mask}).exact
    r = run(_without(kernel, _c_stores(kernel)[5]), {"C": tiles.mask})
    # every element it stored is right: the old check (only what was stored) passed it
    assert r.outputs[0].first_bad is None and r.outputs[0].unwritten
    assert not r.exact and r.problem().startswith("C: not written: ")
    r = run(_moved(kernel, _c_stores(kernel)[0], 128 * 4), {"C": tiles.mask})
    assert not r.exact and r.outputs[0].outside and r.outputs[0].unwritten


def test_an_edge_tile_is_checked_exactly(built):
    """IREE's 300 x 500 C in 128 x 256 tiles: the corner workgroup's tile, read from the
    dispatch, is rows 256-299 and columns 256-499, and the kernel writes exactly it; with a
    store dropped some of it is not written, with one moved a tile right it writes past
    column 499 (into the next row, outside the run's tiles)."""
    path, kernel = built["edge"]
    d, tiles = _tiles(path, 2)                  # workgroups (0, 0) and (1, 2): the corner
    assert d.grid == (2, 3)
    want = np.zeros((300, 500), bool)
    want[:128, :256] = want[256:, 256:] = True
    assert (tiles.mask == want).all()
    problem = Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b)

    def run(k, workgroups, mask):
        return emulate_matmul(k, problem, d.grid, mode="late", workgroups=workgroups,
                              tiles=mask)

    good = run(kernel, [(0, 0), (1, 2)], tiles.mask)
    assert good.exact and good.expected == 128 * 256 + 44 * 244, good.summary()
    corner = want.copy()
    corner[:128] = False
    r = run(_without(kernel, _c_stores(kernel)[0]), [(1, 2)], corner)
    assert not r.exact and r.coverage.unwritten and not r.coverage.outside
    assert r.first_bad is None             # what it stored is right: only the tile says
    r = run(_moved(kernel, _c_stores(kernel)[0], 256 * 4), [(1, 2)], corner)
    assert not r.exact and r.coverage.outside


def test_tiles_that_cannot_be_read_are_said(monkeypatch, built):
    """A dispatch whose writes cannot be evaluated keeps the stored-elements check, and the
    summary says so."""
    import pipeline_mlir.analysis.output_tiles as T
    from pipeline_mlir.dialect.ir_io import IRError

    def refuse(f, *a):
        raise IRError(f, "'func.func' op: a write it cannot follow")

    monkeypatch.setattr(T, "written_mask", refuse)
    _d, tiles = _tiles(built["bias"][0], 2)
    assert tiles == PartialTiles(None, tiles.why) and "a write it cannot follow" in tiles.why
    assert tiles.note().startswith(" (checked on the elements stored: the tiles are not read "
                                   "from the dispatch: ")
    assert _tiles(built["bias"][0], None)[1] is None     # the whole grid: all of C
