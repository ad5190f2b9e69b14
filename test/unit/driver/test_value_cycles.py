"""``driver/value_cycles.py``: a cycle of values refused before MLIR's verifier follows it
until the process dies; nothing else refused (the names of two functions, a string or a
comment naming a value, a use before its definition that closes no cycle)."""

from __future__ import annotations

import pytest

from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.driver.value_cycles import check_value_cycles

CYCLE = """func.func @f(%a: index) -> index {
  %0 = arith.addi %2, %a : index
  %1 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%0]
  %2:2 = affine.delinearize_index %1 into (4, 4) : index, index
  return %2#0 : index
}
"""


def test_a_cycle_is_refused_at_the_use_that_closes_it():
    with pytest.raises(Failure) as e:
        check_value_cycles(CYCLE, "k.mlir", line_offset=3)
    (d,) = e.value.diags
    assert (d.line, d.col) == (5, 19), (d.line, d.col)
    assert d.message.startswith("'%2' is used before its definition at line 7, and its value "
                                "depends on this line's ('%0')"), d.message


@pytest.mark.parametrize("text", [
    # each function's names are its own: %0 of g uses %1 of g, defined before it
    CYCLE.replace("%0 = arith.addi %2, %a", "%0 = arith.addi %a, %a") +
    "func.func @g(%a: index) -> index {\n  %1 = arith.addi %a, %a : index\n"
    "  %0 = arith.addi %1, %a : index\n  return %0 : index\n}\n",
    # a string and a comment that name a later value
    CYCLE.replace("%0 = arith.addi %2, %a : index",
                  '%0 = arith.addi %a, %a {note = "%2"} : index // from %2'),
    # a use before its definition that closes no cycle (MLIR's dominance error says it)
    CYCLE.replace("%0 = arith.addi %2, %a", "%0 = arith.addi %3, %a") .replace(
        "  return", "  %3 = arith.addi %a, %a : index\n  return")])
def test_no_cycle_is_left_to_mlir(text):
    check_value_cycles(text, "k.mlir")
