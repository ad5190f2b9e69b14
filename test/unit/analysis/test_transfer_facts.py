"""The one reading of what a vector transfer states of its access (``ir_facts.transfer``):
its mask, its ``in_bounds`` and whether its permutation map is the minor identity, which
every front-end check of a plain transfer asks."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.ir_facts import Transfer, transfer
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

_HEAD = ("func.func @f(%m: memref<4x8xf32>, %i: index, %v: vector<8xf32>, "
         "%w: vector<4x1xf32>, %k: vector<8xi1>) {\n  %p = arith.constant 0.0 : f32\n")


@pytest.fixture(scope="module")
def ctx():
    """One MLIR context for the module's cases."""
    return new_context()


@pytest.mark.parametrize("op, want", [
    ("%r = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} "
     ": memref<4x8xf32>, vector<8xf32>", Transfer(False, (True,), True)),
    ("vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} "
     ": vector<8xf32>, memref<4x8xf32>", Transfer(False, (True,), True)),
    # in_bounds left out is MLIR's default: not in bounds
    ("%r = vector.transfer_read %m[%i, %i], %p : memref<4x8xf32>, vector<8xf32>",
     Transfer(False, (False,), True)),
    ("%r = vector.transfer_read %m[%i, %i], %p, %k {in_bounds = [true]} "
     ": memref<4x8xf32>, vector<8xf32>", Transfer(True, (True,), True)),
    ("vector.transfer_write %v, %m[%i, %i], %k {in_bounds = [true]} "
     ": vector<8xf32>, memref<4x8xf32>", Transfer(True, (True,), True)),
    # a transposed read: the identity on both dimensions, not the minor identity
    ("%r = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, false], "
     "permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x8xf32>, vector<4x1xf32>",
     Transfer(False, (True, False), False)),
    ("%r = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], "
     "permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<4x8xf32>, vector<8xf32>",
     Transfer(False, (True,), False)),
])
def test_transfer_facts(ctx, op, want):
    m = ir.Module.parse(_HEAD + "  " + op + "\n  return\n}", ctx)
    got = transfer(walk_ops(m.operation, lambda o: o.name.startswith("vector.transfer"))[0])
    assert got == want
    assert got.in_view == (all(want.in_bounds) and want.minor_identity)
    assert got.plain == (got.in_view and not want.masked)
