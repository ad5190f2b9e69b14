"""sched-unit-masks (passes/unit_masks.py) against the stack it guards: IREE's codegen tail,
which the LLVM step runs (and iree-compile, given a pipelined kernel back), drops the size
of a mask's unit dimension and the bounds test of a transfer's unit dimension; after the
pass the tests survive it."""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir, new_context, passmanager
from pipeline_mlir.passes import registry
from pipeline_mlir.passes.unit_masks import unit_masks

#: a batch buffer's run masked by (1, the K row left, the elements left), and a row read
#: that may be past the buffer's 4 rows (in_bounds false on its unit dimension)
SOURCE = """
func.func @row(%m: memref<2x4x16xf16>, %k: index, %s: index, %i: index) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f16
  %mask = vector.create_mask %c1, %k, %s : vector<1x1x8xi1>
  %r = vector.transfer_read %m[%c0, %i, %c0], %p, %mask {in_bounds = [true, true, true]}
      : memref<2x4x16xf16>, vector<1x1x8xf16>
  %o = vector.shape_cast %r : vector<1x1x8xf16> to vector<8xf16>
  return %o : vector<8xf16>
}
func.func @loose(%m: memref<4x16xf16>, %i: index, %j: index) -> vector<8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.transfer_read %m[%i, %j], %p {in_bounds = [false, true]}
      : memref<4x16xf16>, vector<1x8xf16>
  %o = vector.shape_cast %r : vector<1x8xf16> to vector<8xf16>
  return %o : vector<8xf16>
}
"""


def _tail(explicit: bool) -> dict:
    """Each function's body after IREE's tail (sched-unit-masks first if ``explicit``)."""
    with new_context():
        module = ir.Module.parse(SOURCE)
        if explicit:
            assert unit_masks(module.operation) == 2
        passmanager.PassManager.parse(
            f"builtin.module(func.func({registry.IREE_TAIL}))").run(module.operation)
        text = str(module)
    return {f.split("(")[0]: f for f in text.split("func.func @")[1:]}


def test_the_tail_drops_unit_tests_and_keeps_them_explicit():
    """Without the pass the K row's size (%arg1) and the row's bounds test are gone (the
    upstream folds this pass exists for: if this fails, the stack changed, and the pass
    may no longer be needed); with it both are tested before the masked load."""
    plain = _tail(False)
    assert "%arg1" not in plain["row"].split("{", 1)[1], plain["row"]
    assert "vector.load %arg0[%arg1, %arg2]" in plain["loose"], plain["loose"]
    kept = _tail(True)
    assert "arith.cmpi sgt, %arg1" in kept["row"] and "vector.maskedload" in kept["row"], \
        kept["row"]
    assert "arith.cmpi slt, %arg1" in kept["loose"] and "vector.maskedload" in \
        kept["loose"], kept["loose"]

