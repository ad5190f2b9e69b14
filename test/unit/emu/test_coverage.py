"""Which elements of C a run is checked on (emu/coverage.py): every element of the run's
workgroups' tiles must have been stored to and equal the reference, and nothing outside them
may be stored to, whatever the values (an element whose reference equals the poison too).

The mutants are real kernels with one instruction changed: a C store dropped (``s_nop`` in
its place), a C store moved by a tile's width (into a workgroup that does not run)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from emu_helpers import c_stores as _c_stores
from emu_helpers import moved_store as _moved
from emu_helpers import without_store as _without
from kernel_builds import build, pipeline_opt_hsaco
from pipeline_mlir.emu.coverage import check_c, footprint, problems
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel

I8_SPEC = "4wave{dtype=i8 BM=64 BN=64 BK=128}"


@functools.lru_cache(maxsize=None)
def _fp8():
    b = build("4wave-fp8-64")
    return load_kernel(b.hsaco), b.kernel


def _problem(gemm):
    g = gemm.geometry
    return 2 * g.BM, 2 * g.BN, 2 * g.BK


@pytest.mark.parametrize("count", [None, 2])
def test_a_dropped_store_is_not_written(count):
    """The whole grid or two of its four workgroups: the tile elements of the dropped store
    are named as not written."""
    k, gemm = _fp8()
    stores = _c_stores(k)
    assert stores
    assert emulate_gemm(k, gemm, *_problem(gemm), "late", count=count).exact
    run = emulate_gemm(_without(k, stores[3]), gemm, *_problem(gemm), "late", count=count)
    cov = run.coverage
    assert not run.exact and cov.unwritten and not cov.outside and run.first_bad is None
    assert problems(cov)[0] == (f"not written: {cov.unwritten} elements, first at "
                                f"[{cov.first_unwritten[0]}, {cov.first_unwritten[1]}]")
    from pipeline_mlir.driver.emulate import _report

    summary, error = _report(run, "k.hsaco")
    assert "WRONG" in summary and error == f"k.hsaco: error: {problems(cov)[0]}"


def test_a_store_outside_the_tiles_is_named():
    """Workgroups 0 and 3 of 2 x 2 run; a store moved right by a tile's width writes into
    workgroup 1's tile, which no run workgroup is responsible for."""
    k, gemm = _fp8()
    store = _c_stores(k)[0]
    run = emulate_gemm(_moved(k, store, 4 * gemm.geometry.BN), gemm, *_problem(gemm), "late",
                       count=2)
    cov = run.coverage
    assert not run.exact and cov.outside and cov.unwritten
    assert any(p.startswith(f"written outside the workgroups' tiles: {cov.outside} elements")
               for p in problems(cov))


def test_an_unwritten_element_equal_to_the_poison_is_found(monkeypatch):
    """An i8 kernel whose every C element is -1, the poison word: a dropped store leaves
    elements that hold the right value only by their starting bytes; they are not written."""
    import pipeline_mlir.emu.gemm as emu_gemm

    def all_minus_one(M, N, K, seed=0, dtype="bf16"):
        A, B = np.zeros((M, K), np.int64), np.zeros((N, K), np.int64)
        A[:, 0], B[:, 0] = 1, -1
        return A, B

    monkeypatch.setattr(emu_gemm, "random_inputs", all_minus_one)
    emu_gemm._problem.cache_clear()
    try:
        k = load_kernel(pipeline_opt_hsaco(I8_SPEC))
        from pipeline_mlir.kernel.gemm import gemm_kernel
        from pipeline_mlir.schedules.registry import parse_pipeline

        gemm = gemm_kernel(parse_pipeline(I8_SPEC))
        whole = emulate_gemm(k, gemm, *_problem(gemm), "late")
        assert whole.exact and (whole.reference == -1).all()
        run = emulate_gemm(_without(k, _c_stores(k)[0]), gemm, *_problem(gemm), "late")
        assert (run.C == -1).all(), "the dropped store's elements keep the poison, -1"
        assert not run.exact and run.coverage.unwritten and run.first_bad is None
    finally:
        emu_gemm._problem.cache_clear()


def test_the_verdict_on_a_small_c():
    """check_c on its own: a footprint cut at C's edges, a value off, an element unwritten,
    one written outside."""
    cover = footprint((4, 5), [(0, 3, 2, 4), (2, 0, 2, 2)])
    assert cover.sum() == 2 * 2 + 2 * 2 and cover[0, 4] and not cover[0, 2]
    ref = -np.ones((4, 5))
    stored = cover.copy()
    values = ref.copy()
    values[0, 3] = 7.0
    stored[3, 1] = False
    stored[1, 0] = True
    cov = check_c(values, stored, cover, lambda r, c: ref[np.ix_(r, c)])
    assert (cov.first_bad, cov.max_error, cov.compared) == ((0, 3), 8.0, 8)
    assert (cov.unwritten, cov.first_unwritten, cov.outside, cov.first_outside) == \
        (1, (3, 1), 1, (1, 0))
    assert problems(cov) == ["not written: 1 elements, first at [3, 1]",
                             "written outside the workgroups' tiles: 1 elements, first at "
                             "[1, 0]"]
    assert not cov.sound


def test_the_reference_is_asked_for_the_tiles_only():
    """Tiles in a checkerboard (rows 0-1 and 4-5 cover columns 0-1, rows 2-3 columns 2-3):
    the reference is asked for 12 elements, not the 6 x 4 block, and the first wrong
    element is the first in C's row-major order, whichever band holds it."""
    cover = footprint((6, 4), [(0, 0, 2, 2), (2, 2, 2, 2), (4, 0, 2, 2)])
    ref = np.arange(24.0).reshape(6, 4)
    values, asked = ref.copy(), []
    values[4, 0] += 3.0          # wrong, in the band of rows 0-1 and 4-5
    values[2, 3] -= 1.0          # wrong and first in row-major order
    values[1, 3] = 99.0          # outside the tiles, not stored: not looked at

    def reference(r, c):
        asked.append(len(r) * len(c))
        return ref[np.ix_(r, c)]

    cov = check_c(values, cover.copy(), cover, reference)
    assert sum(asked) == 12 and sorted(asked) == [4, 8]
    assert (cov.first_bad, cov.max_error, cov.compared, cov.stored) == ((2, 3), 3.0, 12, 12)
    assert cov.sound is False and (cov.unwritten, cov.outside) == (0, 0)
