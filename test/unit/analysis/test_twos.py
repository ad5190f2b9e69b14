"""The low zero bits of an index and of the byte offset it makes (``analysis/twos.py``): the
one rule ``sched-unmask-loads`` (a load's first dword) and the joined LDS stores of
``sched-stage-copies`` (a store's alignment) reason with."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.twos import byte_offset_zeros
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

BODY = """
func.func @f(%m: memref<64xbf16>, %w: memref<64xf32>, %b: memref<64xi8>) {
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %i = arith.muli %t, %c4 : index
  %j = arith.addi %i, %t : index
  return
}"""


@pytest.fixture(scope="module")
def parsed():
    """The values of :data:`BODY` by name, and its memref arguments (one context and one
    parse for the module's cases)."""
    with new_context():
        m = ir.Module.parse(BODY)
        (fn,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        values = dict(zip(("c4", "t", "i", "j"),
                          [o.results[0] for o in walk_ops(fn, lambda o: len(o.results) == 1)]))
        yield values, list(fn.regions[0].blocks[0].arguments)


@pytest.mark.parametrize("index,memref,zeros", [
    ("i", 0, 3), ("i", 1, 4), ("i", 2, 2),      # 4 * t elements of 2, 4 and 1 bytes
    ("j", 0, 1), ("j", 2, 0),                   # 5 * t elements: their bytes' own
    ("c4", 1, 4),                               # 4 f32: 16 bytes
])
def test_byte_offset_zeros_adds_the_element_bytes(parsed, index, memref, zeros):
    values, args = parsed
    assert byte_offset_zeros(values[index], args[memref].type) == zeros
