"""``index_bounds.unsigned_bounds`` with ``bits``: a right shift, a mask and an id's
``upper_bound`` bound every value the IR computes (each checked against all its values),
and without ``bits`` those stay unknown, as the other callers had them."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops


def _result(body: str, name: str):
    m = ir.Module.parse("func.func @f(%x: i32) -> i32 {\n" + body + "\n  return %r : i32\n}")
    return m, walk_ops(m.operation, lambda o: o.name == name)[-1].results[0]


@pytest.mark.parametrize("n,shift", [(1, 0), (256, 8), (256, 7), (300, 3), (64, 6), (5, 1)])
def test_a_shifted_id_is_bounded_by_its_values(n, shift):
    with new_context():
        m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %c = arith.constant {shift} : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        values = [t >> shift for t in range(n)]
        assert unsigned_bounds(r, bits=True) == (min(values), max(values))
        assert unsigned_bounds(r) is None


@pytest.mark.parametrize("n,mask", [(256, 15), (16, 255), (100, 0), (7, 6)])
def test_a_mask_is_at_most_its_known_operand(n, mask):
    with new_context():
        for other in ("%x", "%c"):
            m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %c = arith.constant {mask} : i32
  %r = arith.andi %i, {other} : i32""", "arith.andi")
            lo, hi = unsigned_bounds(r, bits=True)
            if other == "%c":
                assert all(lo <= (t & mask) <= hi for t in range(n))
            assert lo == 0 and hi == (min(n - 1, mask) if other == "%c" else n - 1)


def test_a_product_by_a_zero_range_is_zero_and_an_unbounded_id_unknown():
    with new_context():
        m, r = _result("""  %t = gpu.thread_id x upper_bound 64
  %i = arith.index_castui %t : index to i32
  %c = arith.constant 6 : i32
  %s = arith.shrui %i, %c : i32
  %r = arith.muli %x, %s : i32""", "arith.muli")
        assert unsigned_bounds(r, bits=True) == (0, 0)
        m, r = _result("""  %w = gpu.block_id x
  %i = arith.index_castui %w : index to i32
  %c = arith.constant 31 : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        assert unsigned_bounds(r, bits=True) is None       # no bound: the id any index
        m, r = _result("""  %w = gpu.block_id x upper_bound 8
  %i = arith.index_castui %w : index to i32
  %c = arith.constant 3 : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        assert unsigned_bounds(r, bits=True) == (0, 0)
        assert unsigned_bounds(r, threads=True) is None
