"""check_private_bounds (pipeline_mlir/frontend/private_bounds.py) on small functions:
the accesses it refuses at the op and the ones it lets through."""

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.private_bounds import check_private_bounds


#: one context for every small function parsed here (a context of its own each cost more
#: than checking the function)
_CONTEXT: list = []


def _check(body: str) -> None:
    if not _CONTEXT:
        _CONTEXT.append(new_context())
    with _CONTEXT[0] as ctx:
        m = ir.Module.parse("module {" + body + "}", ctx)
        (f,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        check_private_bounds(f)


#: accesses in bounds in every run they make (or that never run): let through
PASSED = {
    "a vector access of a memref of vectors is one element": """
  func.func @k() -> vector<4xf32> {
    %c3 = arith.constant 3 : index
    %p = memref.alloca() : memref<4xvector<4xf32>>
    %l = vector.load %p[%c3] : memref<4xvector<4xf32>>, vector<4xf32>
    vector.store %l, %p[%c3] : memref<4xvector<4xf32>>, vector<4xf32>
    return %l : vector<4xf32> }""",
    "a loop variable in bounds in some iterations, a loop of no iterations": """
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %p = memref.alloca() : memref<4xf32>
    scf.for %i = %c3 to %c8 step %c1 { memref.store %v, %p[%i] : memref<4xf32> }
    scf.for %i = %c8 to %c3 step %c1 { memref.store %v, %p[%i] : memref<4xf32> }
    return }""",
    "a subview of an alloca in its bounds": """
  func.func @k(%v: f32) {
    %c3 = arith.constant 3 : index
    %p = memref.alloca() : memref<8xf32>
    %s = memref.subview %p[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    memref.store %v, %s[%c3] : memref<4xf32, strided<[1], offset: 4>>
    return }""",
    "a subview at a loop variable in its source's bounds in every iteration": """
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %p = memref.alloca() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %s = memref.subview %p[%i, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
      memref.store %v, %s[%c0, %c0] : memref<1x4xf32, strided<[4, 1], offset: ?>> }
    return }""",
    "the branch a constant condition does not take, a loop of no iterations": """
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c11 = arith.constant 11 : index
    %f = arith.constant false
    %t = arith.constant true
    %p = memref.alloca() : memref<4xf32>
    scf.if %f { memref.store %v, %p[%c11] : memref<4xf32> }
    scf.if %t { memref.store %v, %p[%c1] : memref<4xf32> }
    else { memref.store %v, %p[%c11] : memref<4xf32> }
    scf.for %i = %c1 to %c0 step %c1 { memref.store %v, %p[%c11] : memref<4xf32> }
    return }""",
    "a transfer past the end along a dimension not in bounds (masked), one in bounds": """
  func.func @k(%v: vector<4x1xf32>) -> vector<4x1xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    %p = memref.alloca() : memref<4x1xf32>
    vector.transfer_write %v, %p[%c0, %c0] {in_bounds = [true, true]} : vector<4x1xf32>, memref<4x1xf32>
    %r = vector.transfer_read %p[%c1, %c0], %z {in_bounds = [false, true]} : memref<4x1xf32>, vector<4x1xf32>
    return %r : vector<4x1xf32> }""",
}

#: accesses out of bounds whenever they run: name -> the message's words
REFUSED = {
    "a vector access spans its elements": ("""
  func.func @k() -> vector<4xf32> {
    %c1 = arith.constant 1 : index
    %p = memref.alloca() : memref<4xf32>
    %l = vector.load %p[%c1] : memref<4xf32>, vector<4xf32>
    return %l : vector<4xf32> }""", r"at 1 \(spanning 4 elements\), outside its 4 elements"),
    "a memref of vectors past its end": ("""
  func.func @k() -> vector<4xf32> {
    %c4 = arith.constant 4 : index
    %p = memref.alloca() : memref<4xvector<4xf32>>
    %l = vector.load %p[%c4] : memref<4xvector<4xf32>>, vector<4xf32>
    return %l : vector<4xf32> }""", r"at 4, outside its 4 elements whenever it runs: "
                                    r"target-specific behaviour"),
    "the branch a constant condition takes, a loop of one iteration": ("""
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c11 = arith.constant 11 : index
    %t = arith.constant true
    %p = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c1 step %c1 {
      scf.if %t { memref.store %v, %p[%c1] : memref<4xf32> }
      else { memref.store %v, %p[%c1] : memref<4xf32> }
      scf.if %t { memref.store %v, %p[%c11] : memref<4xf32> } }
    return }""", r"'memref.store' op .* at 11, outside its 4 elements whenever it runs: "
                 r"undefined behaviour"),
    "a subview of an alloca": ("""
  func.func @k(%v: f32) {
    %c4 = arith.constant 4 : index
    %p = memref.alloca() : memref<8xf32>
    %s = memref.subview %p[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    memref.store %v, %s[%c4] : memref<4xf32, strided<[1], offset: 4>>
    return }""", r"at 4, outside its 4 elements"),
    # (the thirty-sixth sweep: IREE's i8 C += A x B^T 179x295x320 at the prefetch point,
    # the rows of C's private tile taken at %i + 16 of a 4-row view, every access of the
    # view in the view: pipelined, and WRONG against its unpipelined build)
    "a subview past its private source, its accesses in the view": ("""
  func.func @k(%v: vector<1x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %p = memref.alloca() : memref<2x4x4xf32, #gpu.address_space<private>>
    %q = memref.subview %p[1, 0, 0] [1, 4, 4] [1, 1, 1] : memref<2x4x4xf32, #gpu.address_space<private>> to memref<4x4xf32, strided<[4, 1], offset: 16>, #gpu.address_space<private>>
    scf.for %i = %c0 to %c4 step %c1 {
      %j = arith.addi %i, %c16 : index
      %s = memref.subview %q[%j, 0] [1, 4] [1, 1] : memref<4x4xf32, strided<[4, 1], offset: 16>, #gpu.address_space<private>> to memref<1x4xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>>
      vector.transfer_write %v, %s[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>> }
    return }""", r"'memref.subview' op takes a view of dimension 0 of its private buffer "
                 r".* at 16\.\.19, outside its 4 elements whenever it runs: undefined "
                 r"behaviour"),
    "a loop variable past the end in every iteration": ("""
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %p = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c9 step %c2 {
      %j = arith.addi %i, %c8 : index
      memref.store %v, %p[%j] : memref<4xf32> }
    return }""", r"at 8\.\.16, outside its 4 elements"),
    "a run-time guard is not looked at": ("""
  func.func @k(%v: f32) {
    %c0 = arith.constant 0 : index
    %c11 = arith.constant 11 : index
    %g = gpu.thread_id x
    %b = arith.cmpi ult, %g, %c0 : index
    %p = memref.alloca() : memref<4xf32>
    scf.if %b { memref.store %v, %p[%c11] : memref<4xf32> }
    return }""", r"at 11, outside its 4 elements"),
    # (the tenth audit: IREE's bf16 C += A x B + bias + relu, prefetch point, its bias read
    # back from the 4x1 buffer at row 1: pipelined, and WRONG against its unpipelined build)
    "a transfer in bounds by its in_bounds, past the end": ("""
  func.func @k() -> vector<4x1xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    %p = memref.alloca() : memref<4x1xf32, #gpu.address_space<private>>
    %r = vector.transfer_read %p[%c1, %c0], %z {in_bounds = [true, true]} : memref<4x1xf32, #gpu.address_space<private>>, vector<4x1xf32>
    return %r : vector<4x1xf32> }""", r"'vector.transfer_read' op indexes dimension 0 .* at 1 "
                                      r"\(spanning 4 elements\), outside its 4 elements "
                                      r"whenever it runs: undefined behaviour"),
    "a transposing transfer write spans the dimension its map sends it to": ("""
  func.func @k(%v: vector<2x4xf32>) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %p = memref.alloca() : memref<4x8xf32>
    vector.transfer_write %v, %p[%c3, %c0] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<2x4xf32>, memref<4x8xf32>
    return }""", r"'vector.transfer_write' op indexes dimension 0 .* at 3 \(spanning 4 "
                 r"elements\)"),
}


def test_in_bounds_or_never_run_passes():
    for name, body in PASSED.items():
        try:
            _check(body)
        except IRError as e:
            pytest.fail(f"{name}: {e}")


def test_out_of_bounds_refused():
    for name, (body, words) in REFUSED.items():
        with pytest.raises(IRError, match=words):
            _check(body)
            pytest.fail(f"{name}: not refused")
