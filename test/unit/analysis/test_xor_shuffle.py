"""``ir_facts.xor_shuffle`` against its definition (IREE's ``xor_shuffle<row, access>``:
the chunk index XORed with the row index modulo ``row / access``), written here with
``//`` and ``%``: the shifts and masks it takes for powers of two give the same elements,
negative and unsigned ones too, and the same type."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.analysis.ir_facts import xor_shuffle


def _defined(elements, row, access):
    r = elements // row
    return r * row + (((elements % row) // access) ^ (r % (row // access))) * access + \
        elements % access


@pytest.mark.parametrize("row,access", [(64, 4), (128, 8), (32, 32), (8, 1), (1, 1),
                                        (48, 4), (64, 3), (np.int64(64), np.int64(8))])
def test_xor_shuffle_is_its_definition(row, access):
    rng = np.random.default_rng(5)
    for dtype in (np.int64, np.int32, np.uint32):
        low = 0 if dtype is np.uint32 else -3000
        elements = rng.integers(low, 40000, 3000).astype(dtype)
        got, want = xor_shuffle(elements, row, access), _defined(elements, row, access)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    for x in (-129, -1, 0, 7, 1000, np.int64(77)):
        got, want = xor_shuffle(x, row, access), _defined(x, row, access)
        assert got == want and type(got) is type(want)
