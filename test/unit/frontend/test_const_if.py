"""``scf.if`` on a constant ``true`` in a K-loop (IREE's VectorDistribute copies) is inlined
before the analysis; any other ``scf.if`` stays for the scan to refuse
(``pipeline_mlir/frontend/const_if.py``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.const_if import inline_constant_true_ifs

LOOP = """func.func @f(%m: memref<8xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %false = arith.constant false
  %one = arith.constant 1 : i1
  %x = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    IF
  }
  return
}"""


def _run(if_text: str) -> tuple[int, list[str]]:
    """(scf.ifs inlined, the names of the ops left in the loop's body)."""
    with new_context() as ctx:
        module = ir.Module.parse(LOOP.replace("IF", if_text), ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        n = inline_constant_true_ifs(loop)
        module.operation.verify()
        return n, [o.operation.name for o in loop.regions[0].blocks[0].operations]


@pytest.mark.parametrize("cond", ["%true", "%one"])
def test_a_constant_true_if_is_inlined(cond):
    n, ops = _run(f"scf.if {cond} {{\n memref.store %x, %m[%i] : memref<8xf32>\n }}")
    assert n == 1 and ops == ["memref.store", "scf.yield"]


@pytest.mark.parametrize("if_text", [
    "scf.if %false {\n memref.store %x, %m[%i] : memref<8xf32>\n }",
    "scf.if %c {\n memref.store %x, %m[%i] : memref<8xf32>\n }",
    "scf.if %true {\n memref.store %x, %m[%i] : memref<8xf32>\n } else {\n"
    " memref.store %x, %m[%c0] : memref<8xf32>\n }",
    "%r = scf.if %true -> f32 {\n scf.yield %x : f32\n } else {\n scf.yield %x : f32\n }",
], ids=["false", "run-time", "else-with-ops", "with-results"])
def test_any_other_if_stays(if_text):
    n, ops = _run(if_text)
    assert n == 0 and ops == ["scf.if", "scf.yield"]
