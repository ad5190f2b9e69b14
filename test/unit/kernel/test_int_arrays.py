"""``int_arrays.distinct`` is ``np.unique`` of an integer array: values, order, dtype, shape."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.kernel.int_arrays import distinct


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint32, np.int8, np.bool_])
def test_distinct_is_numpy_unique(dtype):
    rng = np.random.default_rng(3)
    low, high = (0, 2) if dtype is np.bool_ else (0 if dtype is np.uint32 else -40, 90)
    for n in (0, 1, 2, 3, 17, 300):
        for shape in ((n,), (1, n), (n, 1)):
            values = rng.integers(low, high, size=shape).astype(dtype)
            want, got = np.unique(values), distinct(values)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(got, want)


def test_distinct_of_a_list_and_a_scalar():
    assert distinct([5, 1, 5, 3, 1]).tolist() == [1, 3, 5]
    assert distinct(7).tolist() == [7]
