"""The private memory an epilogue stages C through, vector by vector
(``pipeline_mlir/frontend/private_vectors.py``), as the unused-rows proof follows it."""

from __future__ import annotations

import numpy as np
import pytest

import pipeline_mlir.frontend.unused_rows as U
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.private_vectors import Unproven, accesses, positions, root_of

P = "memref<2x4xf32, #gpu.address_space<private>>"
S = "memref<1x4xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>>"

#: IREE's prefetch point's staging: the tile stored whole, read back a row per iteration
#: through a subview at the loop's variable, then written to C
TEXT = f"""
func.func @p(%c: memref<64xf32>, %t: vector<2x4xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 0.0 : f32
  %tt = arith.negf %t : vector<2x4xf32>
  %p = memref.alloca() : {P}
  vector.transfer_write %tt, %p[%c0, %c0] {{in_bounds = [true, true]}} : vector<2x4xf32>, {P}
  scf.for %j = %c0 to %c2 step %c1 {{
    %s = memref.subview %p[%j, 0] [1, 4] [1, 1] : {P} to {S}
    %v = vector.transfer_read %s[%c0, READ], %f {{in_bounds = [true, INB]}} : {S}, vector<1x2xf32>
    %w = vector.shape_cast %v : vector<1x2xf32> to vector<2xf32>
    vector.store %w, %c[%j] : memref<64xf32>, vector<2xf32>
  }}
  return
}}
"""


def _ops(read: str = "%c1", inb: str = "true"):
    ctx = new_context()
    m = ir.Module.parse(TEXT.replace("READ", read).replace("INB", inb), ctx)
    find = {n: walk_ops(m.operation, lambda o, n=n: o.name == n)
            for n in ("vector.transfer_write", "vector.transfer_read", "scf.for")}
    return ctx, m, find


def _at(j: int, loop):
    iv = loop.regions[0].blocks[0].arguments[0]

    def int_of(x):
        if x == iv:
            return j
        return ir.IntegerAttr(x.owner.attributes["value"]).value
    return int_of


def test_a_vector_access_touches_the_elements_of_its_view():
    """The whole-tile store touches the alloca's 8 elements in order; the read at row ``j``
    column 1 touches ``4 j + 1`` and ``4 j + 2``; both are found as the alloca's accesses, the
    proof follows the accumulators from the store to the global write through the read."""
    ctx, m, ops = _ops()
    w, r, loop = ops["vector.transfer_write"][0], ops["vector.transfer_read"][0], ops["scf.for"][0]
    assert positions(w, _at(0, loop)).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert positions(r, _at(1, loop)).tolist() == [[5, 6]]
    root = root_of(r.operands[0])
    assert sorted(o.name for o in accesses(root)) == ["vector.transfer_read",
                                                       "vector.transfer_write"]
    func = walk_ops(m.operation, lambda o: o.name == "func.func")[0]
    tt = walk_ops(m.operation, lambda o: o.name == "arith.negf")[0].results[0]
    assert [x.name for x, _v in U._forward([tt], func)[1]] == ["vector.store"]


@pytest.mark.parametrize("read,inb,why", [
    ("%c3", "true", "outside its private memory"),      # row 1, columns 3 and 4 of 4
    ("%c1", "false", "not in bounds"),
])
def test_an_access_the_proof_cannot_place_is_unproven(read, inb, why):
    ctx, m, ops = _ops(read, inb)
    with pytest.raises(Unproven, match=why):
        positions(ops["vector.transfer_read"][0], _at(1, ops["scf.for"][0]))


def test_a_masked_or_permuted_access_or_another_use_is_unproven():
    """A mask, a permutation and a use the proof does not list (a cast of the alloca) are
    each refused; the unmasked, unpermuted read of the first test is taken."""
    masked = TEXT.replace(
        "%w = vector.shape_cast", "%k = vector.constant_mask [1, 1] : vector<1x2xi1>\n"
        "    %u = vector.transfer_read %s[%c0, %c1], %f, %k {in_bounds = [true, true]} : "
        f"{S}, vector<1x2xf32>\n    %w = vector.shape_cast")
    permuted = TEXT.replace(
        "%w = vector.shape_cast", "%u = vector.transfer_read %p[%c0, %c0], %f {in_bounds = "
        "[true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : "
        f"{P}, vector<4x2xf32>\n    %w = vector.shape_cast")
    cast = TEXT.replace("  return", f"  %q = memref.cast %p : {P} to memref<?x4xf32, "
                        "#gpu.address_space<private>>\n  return")
    for text, why in ((masked, "masked"), (permuted, "permuted")):
        with new_context() as ctx:
            m = ir.Module.parse(text.replace("READ", "%c1").replace("INB", "true"), ctx)
            loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
            u = walk_ops(m.operation, lambda o: o.name == "vector.transfer_read")[1]
            with pytest.raises(Unproven, match=why):
                positions(u, _at(0, loop))
    with new_context() as ctx:
        m = ir.Module.parse(cast.replace("READ", "%c1").replace("INB", "true"), ctx)
        root = walk_ops(m.operation, lambda o: o.name == "memref.alloca")[0].results[0]
        with pytest.raises(Unproven, match="private memory used by 'memref.cast'"):
            accesses(root)
    ctx, m, ops = _ops()
    assert np.array_equal(positions(ops["vector.transfer_read"][0], _at(0, ops["scf.for"][0])),
                          [[1, 2]])
