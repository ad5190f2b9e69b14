"""IREE's guarded load (``pipeline_mlir/frontend/guarded_load.py``): the form taken, and for
an ``scf.if`` that breaks it, the op of its then or else region that does and how (what
the scan's refusal of it says; the refusal itself, in IREE's late form:
``test/unit/tools/test_tails_masked.py``)."""

from __future__ import annotations

import re

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.guard_condition import is_row_major_index
from pipeline_mlir.frontend.guarded_load import fold_mismatch, folded, guard_mismatch, \
    guard_parts, guarded

GUARD = """
func.func @f(%raw: memref<64x63xbf16>, %i: index, %j: index, %c: i1, %mask: vector<8xi1>,
             %other: vector<8xi1>) -> vector<8xbf16> {
  %buf = amdgpu.fat_raw_buffer_cast %raw resetOffset : memref<64x63xbf16> to FAT
  %pass = arith.constant dense<0.0> : vector<8xbf16>
  %end = arith.constant 4032 : index
  %n = arith.constant 8 : index
  %w = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %at = affine.apply affine_map<()[s0, s1] -> (s0 * 63 + s1)>()[%i, %j]
  %left = arith.subi %end, %at : index
  %near = arith.cmpi ult, %left, %n : index
  %rem = arith.remui %left, %w : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  %cond = arith.andi %near, %odd : i1
  %r = scf.if %cond -> (vector<8xbf16>) {
    %m = vector.maskedload %buf[%i, %j], %mask, %pass
        : FAT, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %m : vector<8xbf16>
  } else {
    %l = vector.load %buf[%i, %j] : FAT, vector<8xbf16>
    %s = arith.select %mask, %l, %pass : vector<8xi1>, vector<8xbf16>
    scf.yield %s : vector<8xbf16>
  }
  return %r : vector<8xbf16>
}
""".replace("FAT", "memref<64x63xbf16, #amdgpu.address_space<fat_raw_buffer>>")
#: one change to GUARD -> what the mismatch says (the op, then how)
BROKEN = [
    (("%l = vector.load %buf[%i, %j]", "%l = vector.load %buf[%j, %j]"),
     "the 'vector.load' op at line 21:10 reads other elements than the 'vector.maskedload' "
     "op at line 17:10: index 0 differs"),
    (("%s = arith.select %mask,", "%s = arith.select %other,"),
     "operand 0 of the 'arith.select' op at line 22:10 is not the masked load's mask"),
    (("%s = arith.select %mask, %l, %pass", "%s = arith.select %mask, %l, %l"),
     "operand 2 of the 'arith.select' op at line 22:10 is not the masked load's pass-through"),
    (("scf.yield %s", "scf.yield %l"),
     "its else region yields another value than the 'arith.select' op at line 22:10"),
    (("scf.yield %m", "scf.yield %pass"),
     "its then region yields another value than the 'vector.maskedload' op at line 17:10"),
    (("%s = arith.select %mask, %l, %pass : vector<8xi1>, vector<8xbf16>\n",
      "%x = arith.addf %l, %l : vector<8xbf16>\n"
      "    %s = arith.select %mask, %l, %pass : vector<8xi1>, vector<8xbf16>\n"),
     "its else region holds 'vector.load', 'arith.addf', 'arith.select', 'scf.yield' where "
     "the form has 'vector.load', 'arith.select', 'scf.yield' (first apart: "
     "'arith.addf' op at line 22:10)"),
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


#: one change to GUARD's condition -> whether the guarded load is still taken: its masked
#: branch must run wherever the plain load would cross the buffer's end inside a 4-byte
#: word (guard_condition.py; a mutant campaign's kernel with the compare made 'uge' was
#: pipelined with exit 0 and C wrong on the emulator before)
CONDITIONS = [
    (("%near = arith.cmpi ult", "%near = arith.cmpi uge"), False),
    (("%near = arith.cmpi ult", "%near = arith.cmpi ule"), False),
    (("%end = arith.constant 4032", "%end = arith.constant 4031"), False),
    (("(s0 * 63 + s1)", "(s0 * 64 + s1)"), False),
    (("(s0 * 63 + s1)", "(s0 * 63 + s1 + 1)"), False),
    (("()[%i, %j]", "()[%j, %i]"), False),
    (("%n = arith.constant 8", "%n = arith.constant 7"), False),
    (("%w = arith.constant 2", "%w = arith.constant 1"), False),
    (("%w = arith.constant 2", "%w = arith.constant 3"), False),
    (("%odd = arith.cmpi ne", "%odd = arith.cmpi eq"), False),
    (("scf.if %cond", "scf.if %c"), False),
    (("%cond = arith.andi %near, %odd", "%cond = arith.andi %near, %c"), False),
    (("%buf = amdgpu.fat_raw_buffer_cast %raw resetOffset",
      "%vb = arith.constant 8000 : i64\n  "
      "%buf = amdgpu.fat_raw_buffer_cast %raw validBytes(%vb) resetOffset"), False),
    # as wide as IREE's, or wider: taken
    (("scf.if %cond", "scf.if %near"), True),
    (("scf.if %cond", "scf.if %odd"), True),
    (("%cond = arith.andi %near, %odd", "%cond = arith.ori %c, %near"), True),
    (("%cond = arith.andi %near, %odd", "%cond = arith.andi %odd, %near"), True),
    (("%n = arith.constant 8", "%n = arith.constant 16"), True),
    # no range check: no word zeroed (whether it may read past its end is checked apart)
    (("resetOffset :", "boundsCheck(false) resetOffset :"), True),
    (("%w = arith.constant 2", "%w = arith.constant 4"), True),
    (("(s0 * 63 + s1)", "(s1 + s0 * 63)"), True),
    (("%cond = arith.andi %near, %odd : i1", "%cond = arith.constant true"), True),
]


def _constant_row(text: str, const: int) -> str:
    """GUARD with both loads at row 5 (a constant) and the distance's map the column plus
    ``const`` (5 rows of 63: 315)."""
    for old, new in (("%buf[%i, %j]", "%buf[%c5, %j]"),
                     ("%c0 = arith.constant 0 : index",
                      "%c0 = arith.constant 0 : index\n  %c5 = arith.constant 5 : index"),
                     ("affine_map<()[s0, s1] -> (s0 * 63 + s1)>()[%i, %j]",
                      f"affine_map<()[s0] -> (s0 + {const})>()[%j]")):
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_the_condition_takes_the_masked_branch_where_a_word_is_cut():
    with new_context(), ir.Location.unknown():
        for (old, new), taken in CONDITIONS:
            assert GUARD.count(old) == 1, old
            _, op = _if(GUARD.replace(old, new))
            why = guard_mismatch(op)
            assert (why is None) == taken, (new, why)
            if not taken:
                assert why.startswith("its condition (") and "not IREE's test of the " \
                    "buffer's end" in why and "4032 elements" in why, why
        # a constant row folded into the map's constant term (IREE's clamped row M of a
        # batch: [b, 33, k] at b * 33000 + k + 33000): taken where the constant is the
        # row's elements, refused one element off or the row not the constant's
        for const, taken in ((315, True), (314, False), (378, False)):
            folded = _constant_row(GUARD, const)
            _, op = _if(folded)
            assert (guard_mismatch(op) is None) == taken, (const, guard_mismatch(op))
        # f32 elements: no word holds two, so the plain load and the masked one agree past
        # the end whatever the condition
        _, op = _if(GUARD.replace("bf16", "f32").replace("scf.if %cond", "scf.if %c"))
        assert guard_mismatch(op) is None


#: GUARD's run read at a constant row, 1, which the index IREE linearises leaves out of
#: the map's operands and adds to its constant term (IREE's batch of one: its batch index
#: 0 folded away, so the late form of bf16 A^T x B^T 1 x 129x129x129 was refused here while
#: its prefetch point was pipelined): map -> taken
CONSTANT_ROW = [("(63 + s0)", True), ("(s0 + 63)", True), ("(64 + s0)", False),
                ("(s0)", False), ("(62 + s0)", False)]


def test_a_constant_index_folded_into_the_map_is_taken():
    with new_context(), ir.Location.unknown():
        row = GUARD.replace("%buf[%i, %j]", "%buf[%c1, %j]").replace(
            "%c0 = arith.constant 0 : index", "%c0 = arith.constant 0 : index\n"
            "  %c1 = arith.constant 1 : index")
        assert row.count("%buf[%c1, %j]") == 2
        for expr, taken in CONSTANT_ROW:
            text = row.replace("affine_map<()[s0, s1] -> (s0 * 63 + s1)>()[%i, %j]",
                               f"affine_map<()[s0] -> {expr}>()[%j]")
            _, op = _if(text)
            assert (guard_mismatch(op) is None) == taken, (expr, guard_mismatch(op))



#: GUARD half folded (its mask the constant false, its else region yielding the
#: pass-through alone)
HALF = re.sub(r"    %l = vector\.load [^\n]*\n[^\n]*\n    scf\.yield %s", "    scf.yield %pass",
              GUARD).replace(
    "maskedload %buf[%i, %j], %mask,", "maskedload %buf[%i, %j], %no,").replace(
    "  %pass = arith.constant", "  %no = arith.constant dense<false> : vector<8xi1>\n"
    "  %one = arith.constant dense<1.0> : vector<8xbf16>\n  %pass = arith.constant")


def test_the_half_folded_form_and_what_breaks_it():
    """IREE's late form loads rows wholly past C's edge with its guarded load half folded
    (HALF): ``folded`` gives its masked load, mask and pass-through and no plain load; a
    mask that is not the constant false, or a region yielding another value, is said by
    ``fold_mismatch``; a whole guarded load is neither."""
    with new_context(), ir.Location.unknown():
        _m, op = _if(HALF)
        parts = folded(op)
        assert parts is not None and parts.load is None and fold_mismatch(op) is None
        assert parts.masked.name == "vector.maskedload" and guarded(op) is None
        assert (parts.mask, parts.passthrough) == tuple(list(parts.masked.operands)[3:])
        _g, whole = _if(GUARD)
        assert folded(whole) is None and fold_mismatch(whole) is None
        for (old, new), why in (
                (("%buf[%i, %j], %no,", "%buf[%i, %j], %mask,"),
                 "its else region loads nothing, but the mask of the 'vector.maskedload' "
                 "op at line 19:10 is not the constant false in every lane (an "
                 "'arith.constant' splat of false)"),
                (("scf.yield %pass", "scf.yield %one"),
                 "its else region, which loads nothing, yields another value than the "
                 "pass-through of the 'vector.maskedload' op at line 19:10"),
                (("scf.yield %m", "scf.yield %pass"),
                 "its then region yields another value than the 'vector.maskedload' op "
                 "at line 19:10")):
            assert old in HALF
            _b, op = _if(HALF.replace(old, new, 1))
            assert folded(op) is None and fold_mismatch(op) == why, fold_mismatch(op)


#: one change to GUARD's distance -> whether ``%at`` is still the row-major index of the
#: masked load's own indices (``guard_condition.is_row_major_index``: the rebuilt K-loop of
#: straight K tiles takes it for that index of its own load, finding 99 of
#: docs/iree-audits.md)
ROW_MAJOR = [
    ((None, None), True),
    (("(s0 * 63 + s1)", "(s1 + s0 * 63)"), True),
    (("(s0 * 63 + s1)", "(s0 * 64 + s1)"), False),
    (("(s0 * 63 + s1)", "(s0 * 63 + s1 + 1)"), False),
    (("()[%i, %j]", "()[%j, %i]"), False),
    # a cast of an index, not the index itself: the guard check reads through it, the
    # loop's rebuilt index does not take it
    (("()[%i, %j]", "()[%ic, %j]"), False),
]


def test_the_distance_is_the_row_major_index_of_the_loads_own_indices():
    with new_context(), ir.Location.unknown():
        cast = GUARD.replace("%c: i1,", "%c: i1, %i32: i32,").replace(
            "  %at =", "  %ic = arith.index_cast %i32 : i32 to index\n"
            "  %ic2 = arith.index_castui %i32 : i32 to index\n  %at =")
        for (old, new), want in ROW_MAJOR:
            text = cast if old is None else cast.replace(old, new)
            if old == "()[%i, %j]" and "%ic" in new:
                # the loads index by the unsigned cast, the distance by the signed one
                text = text.replace("%buf[%i, %j]", "%buf[%ic2, %j]")
            m, op = _if(text)
            if "%ic2, %j" in text:
                assert guard_mismatch(op) is None    # taken through the casts
            (at,) = walk_ops(m.operation, lambda o: o.name == "affine.apply")
            masked = op.regions[0].blocks[0].operations[0]
            assert is_row_major_index(at.results[0], masked) == want, (old, new)
        # a constant index folded into the map's constant term (IREE's last K tile's row)
        for const, want in ((315, True), (314, False)):
            m, op = _if(_constant_row(GUARD, const))
            (at,) = walk_ops(m.operation, lambda o: o.name == "affine.apply")
            masked = op.regions[0].blocks[0].operations[0]
            assert is_row_major_index(at.results[0], masked) == want, const
