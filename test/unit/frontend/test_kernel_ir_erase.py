"""The front end's one eraser of what a rewrite leaves unused (``frontend/kernel_ir.py``)."""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import erase_dead, erase_unused_buffer

WG = "#gpu.address_space<workgroup>"
KERNEL = f"""
func.func @f(%i: index) -> index {{
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %dead = arith.addi %i, %c7 : index
  %used = arith.muli %i, %c1 : index
  %a = memref.alloc() : memref<64xf32, {WG}>
  %v = memref.subview %a[0] [32] [1] : memref<64xf32, {WG}> to memref<32xf32, strided<[1]>, {WG}>
  memref.dealloc %v : memref<32xf32, strided<[1]>, {WG}>
  %b = memref.alloc() : memref<128xf32, {WG}>
  %w = memref.subview %b[0] [16] [1] : memref<128xf32, {WG}> to memref<16xf32, strided<[1]>, {WG}>
  %u = memref.subview %b[32] [8] [1] : memref<128xf32, {WG}> to memref<8xf32, strided<[1], offset: 32>, {WG}>
  %x = memref.load %w[%i] : memref<16xf32, strided<[1]>, {WG}>
  memref.dealloc %b : memref<128xf32, {WG}>
  return %used : index
}}
"""


def test_dead_ops_and_buffers_go_and_nothing_in_use():
    """A buffer that only deallocations use, of it or of its views, goes with them; one a
    load reads stays, its unused view gone; the dead pure ops computing a value go, the
    constant another op uses stays; the module verifies after each."""
    with new_context():
        m = ir.Module.parse(KERNEL)
        ops = [_op(x) for x in m.body.operations[0].regions[0].blocks[0].operations]
        c1, c7, dead, used, a, v, _, b = ops[:8]
        erase_unused_buffer(a.results[0])
        erase_unused_buffer(b.results[0])
        erase_dead([dead.results[0]])
        assert m.operation.verify()
        text = str(m)
        assert "memref<64xf32" not in text and "memref<32xf32" not in text, text
        assert "arith.addi" not in text and "arith.constant 7" not in text, text
        assert "memref<128xf32" in text and "memref<16xf32" in text, text
        assert "memref<8xf32" not in text and "arith.constant 1 " in text, text
        assert text.count("memref.dealloc") == 1, text
