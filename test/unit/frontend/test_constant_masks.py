"""A load's constant mask read as the ``vector.create_mask`` of its sizes
(``pipeline_mlir/frontend/constant_masks.py``): which masks of a K-loop's loads are
rewritten (a ``vector.constant_mask`` or a prefix constant, alone or selected by an
``i1`` against all-false) and which are left as written, with what the peel's refusal
says of each select left (the refusals in IREE's late form:
``test/lit/passes/sched-adopt-loop-constant-mask.mlir``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.ir_facts import segments
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.constant_masks import create_constant_masks, select_note

LOOP = """
func.func @f(%buf: memref<64x7xf16>, %c: i1, %v: vector<8xi1>, %n: index) {
  %pad = arith.constant 0.0 : f16
  %none = arith.constant dense<false> : vector<8xi1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = MASK
  scf.for %i = %c0 to %c4 step %c1 {
    %s = arith.select %c, %m, %none : vector<8xi1>
    %r = vector.transfer_read %buf[%i, %c0], %pad, READ {in_bounds = [true]}
        : memref<64x7xf16>, vector<8xf16>
    "test.use"(%r) : (vector<8xf16>) -> ()
  }
  return
}
"""
CONSTANT = "vector.constant_mask [7] : vector<8xi1>"
PREFIX = "arith.constant dense<[true, true, true, false, false, false, false, false]> : " \
         "vector<8xi1>"


def _module(mask: str, read: str):
    text = LOOP.replace("MASK", mask).replace("READ", read)
    return ir.Module.parse(text)


def _one(m, name: str):
    (op,) = walk_ops(m.operation, lambda o: o.name == name)
    return op


def _read_mask(m):
    return segments(_one(m, "vector.transfer_read"))[3][0]


@pytest.mark.parametrize("mask,read,sizes", [
    (CONSTANT, "%s", [7]),           # selected by the K row against all-false
    (CONSTANT, "%m", [7]),           # alone (the select folded)
    (PREFIX, "%s", [3]),
    (PREFIX, "%m", [3]),
], ids=["selected", "alone", "prefix-selected", "prefix-alone"])
def test_constant_masks_made_create_masks(mask, read, sizes):
    with new_context(), ir.Location.unknown():
        ir.Context.current.allow_unregistered_dialects = True
        m = _module(mask, read)
        assert create_constant_masks(_one(m, "scf.for")) == 1
        made = _one(m, "vector.create_mask")
        assert [ir.IntegerAttr(o.owner.attributes["value"]).value for o in made.operands] \
            == sizes
        assert not walk_ops(m.operation, lambda o: o.name == "vector.constant_mask")
        seen = _read_mask(m)
        assert (seen if read == "%m" else _one(m, "arith.select").operands[1]) == \
            made.results[0]
        assert m.operation.verify()


#: masks left as written: (MASK, the select, the read's mask) -> what the refusal's note
#: says of it ("" for a mask that is not a select)
LEFT = [
    ("arith.constant dense<true> : vector<8xi1>", None, "%m", ""),   # all true: no size
    ("arith.constant dense<[false, true, true, false, false, false, false, false]> : "
     "vector<8xi1>", None, "%s", "its true side is none of those masks (made by "
                                "'arith.constant')"),
    (CONSTANT, "%s = arith.select %c, %m, %m : vector<8xi1>", "%s",
     "its false side is not the all-false constant"),
    ("vector.create_mask %n : vector<8xi1>", "%s = arith.select %c, %m, %v : vector<8xi1>",
     "%s", "its false side is not the all-false constant"),       # two masks of sizes
    (CONSTANT, "%s = arith.select %v, %m, %none : vector<8xi1>, vector<8xi1>", "%s",
     "its condition is a vector, not one i1 for the lane's run"),
    ("arith.andi %v, %v : vector<8xi1>", None, "%s",
     "its true side is none of those masks (made by 'arith.andi')"),
    # the form itself, where the peel reads it: taken by the readers before it, not there
    ("vector.create_mask %n : vector<8xi1>", None, "%s",
     "it is of that form, which the front end takes on a run C's edge cuts"),
]


@pytest.mark.parametrize("mask,select,read,why", LEFT,
                         ids=["all-true", "not-prefix", "false-side", "two-masks",
                              "vector-condition", "other-op", "the-form"])
def test_other_masks_left_as_written(mask, select, read, why):
    with new_context(), ir.Location.unknown():
        ir.Context.current.allow_unregistered_dialects = True
        text = LOOP.replace("MASK", mask).replace("READ", read)
        if select is not None:
            text = text.replace("%s = arith.select %c, %m, %none : vector<8xi1>", select)
        m = ir.Module.parse(text)
        before = str(m)
        made = create_constant_masks(_one(m, "scf.for"))
        assert (made, str(m)) == (0, before)
        note = select_note(_read_mask(m))
        assert (why in note and note.startswith("; it is the 'arith.select' at ")) if why \
            else note == "", note


def test_a_mask_two_loads_share_is_made_once():
    """Two loads of the loop masked by one constant mask (one selected, one alone): the op
    is made a create_mask once, both loads then masked by it."""
    with new_context(), ir.Location.unknown():
        ir.Context.current.allow_unregistered_dialects = True
        read = "%r = vector.transfer_read %buf[%i, %c0], %pad, READ"
        text = LOOP.replace("MASK", CONSTANT).replace(
            read, read.replace("READ", "%m") + " {in_bounds = [true]}\n"
            "        : memref<64x7xf16>, vector<8xf16>\n    " + read.replace("%r =", "%q =")
        ).replace("READ", "%s")
        m = ir.Module.parse(text)
        assert create_constant_masks(_one(m, "scf.for")) == 1
        made = _one(m, "vector.create_mask")
        masks = [segments(r)[3][0] for r in walk_ops(
            m.operation, lambda o: o.name == "vector.transfer_read")]
        assert masks[0] == made.results[0] and \
            _one(m, "arith.select").operands[1] == made.results[0] and \
            masks[1] == _one(m, "arith.select").results[0]
        assert m.operation.verify()


def test_a_use_outside_the_loop_keeps_the_constant():
    """The constant mask used after the loop too (as an epilogue's store of C's edge would):
    the loop's uses read the create_mask, the use outside the constant as written."""
    with new_context(), ir.Location.unknown():
        ir.Context.current.allow_unregistered_dialects = True
        text = LOOP.replace("MASK", CONSTANT).replace("READ", "%s").replace(
            "  return\n", '  "test.after"(%m) : (vector<8xi1>) -> ()\n  return\n')
        m = ir.Module.parse(text)
        assert create_constant_masks(_one(m, "scf.for")) == 1
        fixed, made = _one(m, "vector.constant_mask"), _one(m, "vector.create_mask")
        assert _one(m, "test.after").operands[0] == fixed.results[0]
        assert _one(m, "arith.select").operands[1] == made.results[0]
        assert m.operation.verify()
