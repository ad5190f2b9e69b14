"""IREE's guarded load (``pipeline_mlir/frontend/guarded_load.py``): the form taken, and for
an ``scf.if`` that breaks it, the op of its then or else region that does and how (what
the scan's refusal of it says; the refusal itself, in IREE's late form:
``test/unit/tools/test_tails_masked.py``)."""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.guarded_load import guard_mismatch, guard_parts

GUARD = """
func.func @f(%buf: memref<64x64xbf16>, %i: index, %j: index, %c: i1, %mask: vector<8xi1>,
             %other: vector<8xi1>) -> vector<8xbf16> {
  %pass = arith.constant dense<0.0> : vector<8xbf16>
  %r = scf.if %c -> (vector<8xbf16>) {
    %m = vector.maskedload %buf[%i, %j], %mask, %pass
        : memref<64x64xbf16>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %m : vector<8xbf16>
  } else {
    %l = vector.load %buf[%i, %j] : memref<64x64xbf16>, vector<8xbf16>
    %s = arith.select %mask, %l, %pass : vector<8xi1>, vector<8xbf16>
    scf.yield %s : vector<8xbf16>
  }
  return %r : vector<8xbf16>
}
"""

#: one change to GUARD -> what the mismatch says (the op, then how)
BROKEN = [
    (("%l = vector.load %buf[%i, %j]", "%l = vector.load %buf[%j, %j]"),
     "the 'vector.load' op at line 10:10 reads other elements than the 'vector.maskedload' "
     "op at line 6:10: index 0 differs"),
    (("%s = arith.select %mask,", "%s = arith.select %other,"),
     "operand 0 of the 'arith.select' op at line 11:10 is not the masked load's mask"),
    (("%s = arith.select %mask, %l, %pass", "%s = arith.select %mask, %l, %l"),
     "operand 2 of the 'arith.select' op at line 11:10 is not the masked load's pass-through"),
    (("scf.yield %s", "scf.yield %l"),
     "its else region yields another value than the 'arith.select' op at line 11:10"),
    (("scf.yield %m", "scf.yield %pass"),
     "its then region yields another value than the 'vector.maskedload' op at line 6:10"),
    (("%l = vector.load %buf[%i, %j] : memref<64x64xbf16>, vector<8xbf16>\n",
      "%l = vector.load %buf[%i, %j] : memref<64x64xbf16>, vector<8xbf16>\n"
      "    %x = arith.addf %l, %l : vector<8xbf16>\n"),
     "its else region holds 'vector.load', 'arith.addf', 'arith.select', 'scf.yield' where "
     "the form has 'vector.load', 'arith.select', 'scf.yield' (first apart: "
     "'arith.addf' op at line 11:10)"),
]


def _if(text: str):
    m = ir.Module.parse(text)
    (op,) = walk_ops(m.operation, lambda o: o.name == "scf.if")
    return m, op


def test_the_form_and_what_breaks_it():
    with new_context(), ir.Location.unknown():
        _, op = _if(GUARD)
        assert guard_mismatch(op) is None
        mask, load = guard_parts(op)
        assert load.name == "vector.load" and mask == op.regions[0].blocks[0].operations[0] \
            .operands[3]
        for (old, new), why in BROKEN:
            assert GUARD.count(old) == 1, old
            _, op = _if(GUARD.replace(old, new))
            assert guard_parts(op) is None
            assert guard_mismatch(op) == why, \
                (guard_mismatch(op), why)
