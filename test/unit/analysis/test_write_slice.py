"""The key of what a kernel's writes of C read (``pipeline_mlir/analysis/write_slice.py``),
by which ``check_grid_covers`` reuses a proof while the front end rewrites the K-loop: the
same when only what is stored changes (the K-loop's body, the stored value), another when
anything that places a write changes (an index, a guard around it, a loop bound around it,
the workgroup's bound, the stored vector's width, a write's attribute)."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.output_tiles import (_COVERED, check_grid_covers,
                                                 output_writes)
from pipeline_mlir.analysis.write_slice import writes_key
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops

KERNEL = """
func.func @k(%A: memref<64xf32>, %C: memref<6x10xf32>) {
  %bx = gpu.block_id x upper_bound 3
  %by = gpu.block_id y upper_bound 2
  %t = gpu.thread_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %a = memref.load %A[%k] : memref<64xf32>
    %s = arith.addf %acc, %a : f32
    scf.yield %s : f32
  }
  %row0 = arith.muli %by, %c4 : index
  %col0 = arith.muli %bx, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.addi %row0, %i : index
    %c = arith.addi %col0, %t : index
    %in = arith.cmpi ult, %c, %c10 : index
    %rin = arith.cmpi ult, %r, %c6 : index
    %both = arith.andi %in, %rin : i1
    scf.if %both {
      memref.store %sum, %C[%r, %c] : memref<6x10xf32>
    }
  }
  %v = arith.constant dense<1.0> : vector<2xf32>
  %r2 = arith.addi %row0, %c2 : index
  vector.store %v, %C[%r2, %col0] {mark = 1 : i64} : memref<6x10xf32>, vector<2xf32>
  return
}
"""


def _key(text: str) -> str:
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        return writes_key(f, output_writes(f, (6, 10)))


@pytest.mark.parametrize("old,new", [
    ("%s = arith.addf %acc, %a : f32", "%s = arith.mulf %acc, %a : f32"),    # the K-loop's body
    ("%c0 to %c4 step %c1 iter_args", "%c1 to %c4 step %c1 iter_args"),      # its bounds
    ("dense<1.0> : vector<2xf32>", "dense<2.0> : vector<2xf32>"),            # a value stored
], ids=["k-loop-body", "k-loop-bounds", "stored-value"])
def test_what_is_stored_leaves_the_key(old, new):
    assert old in KERNEL
    assert _key(KERNEL.replace(old, new)) == _key(KERNEL)


@pytest.mark.parametrize("old,new", [
    ("%c = arith.addi %col0, %t : index", "%c = arith.addi %col0, %c1 : index"),  # an index
    ("%in = arith.cmpi ult, %c, %c10", "%in = arith.cmpi ule, %c, %c10"),    # a guard
    ("scf.for %i = %c0 to %c4", "scf.for %i = %c1 to %c4"),                 # a loop around
    ("gpu.block_id y upper_bound 2", "gpu.block_id y upper_bound 3"),        # the grid's bound
    ("{mark = 1 : i64}", "{mark = 2 : i64}"),                               # an attribute
    ("%r2 = arith.addi %row0, %c2", "%r2 = arith.addi %row0, %c1"),          # the other write
], ids=["index", "guard", "loop-around", "workgroup-bound", "attribute", "other-write"])
def test_what_places_a_write_changes_the_key(old, new):
    assert old in KERNEL
    assert _key(KERNEL.replace(old, new)) != _key(KERNEL)


def test_a_wider_stored_vector_changes_the_key():
    wide = KERNEL.replace("dense<1.0> : vector<2xf32>", "dense<1.0> : vector<4xf32>").replace(
        "memref<6x10xf32>, vector<2xf32>", "memref<6x10xf32>, vector<4xf32>")
    assert _key(wide) != _key(KERNEL)


def test_a_proof_is_reused_across_a_k_loop_rewrite_not_across_a_guard_change():
    """The grid proven to cover C for one kernel is taken for a kernel whose K-loop differs
    (the front end's rewrites), and proven again, and refused, where a guard differs."""
    _COVERED.clear()

    def covers(text):
        with new_context() as ctx:
            module = ir.Module.parse(text, ctx)
            (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
            check_grid_covers(f, (3, 2), (4, 1, 1))

    covers(KERNEL)
    assert len(_COVERED) == 1
    covers(KERNEL.replace("%s = arith.addf %acc, %a : f32", "%s = arith.mulf %acc, %a : f32"))
    assert len(_COVERED) == 1                   # (the same writes: proven once)
    # only the first 2 of the 4 threads write: columns 2 and 3 of each tile left unwritten
    with pytest.raises(IRError, match=r"write no element \[0, 2\] of the 6x10 output"):
        covers(KERNEL.replace("%in = arith.cmpi ult, %c, %c10",
                              "%in = arith.cmpi ult, %t, %c2"))
