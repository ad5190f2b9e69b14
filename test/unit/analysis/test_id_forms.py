"""Linear forms over the workgroup's values (``pipeline_mlir/analysis/id_forms.py``): sums
folded and reassociated differently, over the same ids and the same non-linear ops, have
equal forms; a different coefficient, a different id, a select on the workgroup or a
product of two ids does not; the per-thread part and a bound value are compared per
thread; views of one buffer placed otherwise (a swizzle, a fat buffer's bounds) are not the
same; masks and pass-throughs made by the same ops over integers of equal forms are the
same, made by other ops or attributes not."""

from __future__ import annotations

import re

from pipeline_mlir.analysis.id_forms import Forms, made_alike, same_memref, same_value, \
    same_vector
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

TEXT = """
func.func @f(%n: index, %buf: memref<?x64xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %wx = gpu.block_id x upper_bound 100000
  %wy32 = rocdl.workgroup.id.y : i32
  %wy = arith.index_cast %wy32 : i32 to index
  %q = arith.divui %wx, %c64 : index
  %x16 = arith.muli %wx, %c16 : index
  %y16 = arith.muli %c16, %wy : index
  %s0 = arith.addi %row, %x16 : index
  %ref = arith.addi %s0, %y16 : index
  %s1 = arith.addi %y16, %x16 : index
  %same = arith.addi %s1, %row : index
  %q2 = arith.divui %wx, %c64 : index
  %qa = arith.addi %q, %row : index
  %qb = arith.addi %row, %q2 : index
  %d8 = arith.muli %wy, %c4 : index
  %e0 = arith.addi %d8, %d8 : index
  %e1 = arith.addi %e0, %d8 : index
  %e = arith.addi %e1, %d8 : index
  %y16b = arith.addi %row, %e : index
  %ry = arith.addi %y16, %row : index
  %coef = arith.muli %wx, %c4 : index
  %other = arith.addi %row, %coef : index
  %is2 = arith.cmpi eq, %wx, %c2 : index
  %sel = arith.select %is2, %t, %row : index
  %xy = arith.muli %wx, %wy : index
  %yx = arith.muli %wy, %wx : index
  %tile = arith.addi %n, %c4 : index
  %k = arith.muli %tile, %c16 : index
  %v1 = memref.subview %buf[%q, 0] [4, 64] [1, 1] : memref<?x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
  %v2 = memref.subview %buf[%q2, 0] [4, 64] [1, 1] : memref<?x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
  %v3 = memref.subview %buf[%wx, 0] [4, 64] [1, 1] : memref<?x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
  %lds = memref.alloc() : memref<4x64xf32, #gpu.address_space<workgroup>>
  %sw = "iree_codegen.swizzle_hint"(%lds) <{swizzle = #iree_codegen.xor_shuffle<64, 4>}> : (memref<4x64xf32, #gpu.address_space<workgroup>>) -> memref<4x64xf32, #gpu.address_space<workgroup>>
  %sw2 = "iree_codegen.swizzle_hint"(%lds) <{swizzle = #iree_codegen.xor_shuffle<64, 4>}> : (memref<4x64xf32, #gpu.address_space<workgroup>>) -> memref<4x64xf32, #gpu.address_space<workgroup>>
  %gl = memref.alloc() : memref<16x64xf32>
  %all = arith.constant 4096 : i64
  %few = arith.constant 64 : i64
  %nv = arith.index_cast %n : index to i64
  %fa = amdgpu.fat_raw_buffer_cast %gl validBytes(%all) : memref<16x64xf32> to memref<16x64xf32, #amdgpu.address_space<fat_raw_buffer>>
  %fb = amdgpu.fat_raw_buffer_cast %gl validBytes(%few) : memref<16x64xf32> to memref<16x64xf32, #amdgpu.address_space<fat_raw_buffer>>
  %fn1 = amdgpu.fat_raw_buffer_cast %gl validBytes(%nv) : memref<16x64xf32> to memref<16x64xf32, #amdgpu.address_space<fat_raw_buffer>>
  %fn2 = amdgpu.fat_raw_buffer_cast %gl validBytes(%nv) : memref<16x64xf32> to memref<16x64xf32, #amdgpu.address_space<fat_raw_buffer>>
  return
}
"""


def _named(text: str):
    """The module and its values by their SSA names (``%name`` -> value)."""
    ctx = new_context()
    m = ir.Module.parse(text, ctx)
    ops = walk_ops(m.operation, lambda o: len(o.results) == 1)
    names = dict(zip(re.findall(r"^ *%(\w+) = ", text, re.M), (o.results[0] for o in ops)))
    f = walk_ops(m.operation, lambda o: o.name == "func.func")[0]
    names["n"] = f.regions[0].blocks[0].arguments[0]
    return ctx, m, names


def test_forms_equal_over_folding_and_unequal_where_a_workgroup_differs():
    ctx, m, v = _named(TEXT)
    with ctx:
        a, b = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        # reassociated and commuted sums, one op computed twice, 4 * 4 * y as four adds
        for x, y in (("ref", "same"), ("qa", "qb"), ("y16b", "ry"), ("x16", "x16")):
            assert same_value(a, v[x], b, v[y]), (x, y)
        assert not same_value(a, v["y16b"], b, v["s1"])     # 16y + t/4 vs 16y + 16x
        assert not same_value(a, v["y16b"], b, v["y16"])    # the thread part differs
        # another coefficient, another id, a select on the workgroup, a product of ids
        assert not same_value(a, v["other"], b, v["s0"])
        assert not same_value(a, v["x16"], b, v["y16"])
        assert not same_value(a, v["sel"], b, v["row"])
        assert same_value(a, v["xy"], b, v["xy"])
        assert not same_value(a, v["xy"], b, v["yx"])          # not expanded: unproven
        # a bound value is compared per thread: n + 4 at n = 0 is 4 (64 = 16 * 4)
        assert not same_value(a, v["k"], b, v["c64"])
        bound = Forms(Evaluator((64, 1, 1), thread_only=True))
        bound.ev.bind(v["n"], 0)
        assert same_value(a, v["c64"], bound, v["k"])
        # views: the same view op over one division computed twice; not over another row
        c, d = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        assert same_memref(c, v["v1"], d, v["v2"])
        assert not same_memref(c, v["v1"], d, v["v3"])
        # one thread-only view placed otherwise: a swizzle, a fat buffer's bounds
        assert same_memref(c, v["sw"], d, v["sw2"])
        assert not same_memref(c, v["sw"], d, v["lds"])
        assert not same_memref(c, v["fa"], d, v["fb"])
        assert same_memref(c, v["fn1"], d, v["fn2"])        # one launch value, two casts
        assert not same_memref(c, v["fa"], d, v["fn1"])


WIDTHS = """
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %cbig = arith.constant 268435456 : index
  %cbig32 = arith.constant 268435456 : i32
  %c5_32 = arith.constant 5 : i32
  %c5 = arith.constant 5 : index
  %wx = gpu.block_id x upper_bound 100000
  %wy32 = rocdl.workgroup.id.y : i32
  %wy = arith.index_cast %wy32 : i32 to index
  %wy64 = arith.extsi %wy32 : i32 to i64
  %wyb = arith.index_cast %wy64 : i64 to index
  %wide = arith.muli %wy, %cbig : index
  %p32 = arith.muli %wy32, %cbig32 : i32
  %narrow = arith.index_castui %p32 : i32 to index
  %x16 = arith.muli %wx, %c16 : index
  %x8 = arith.index_cast %x16 : index to i8
  %x8u = arith.index_castui %x8 : i8 to index
  %z = arith.cmpi eq, %wx, %c0 : index
  %zs = arith.extsi %z : i1 to i32
  %zu = arith.extui %z : i1 to i32
  %lt32 = arith.cmpi ult, %wy32, %c5_32 : i32
  %lt = arith.cmpi ult, %wy, %c5 : index
  %s32 = arith.addi %wy32, %c5_32 : i32
  %s32x = arith.index_cast %s32 : i32 to index
  %s = arith.addi %wy, %c5 : index
  return
}
"""


def test_forms_follow_only_casts_that_keep_the_value_and_64_bit_arithmetic():
    ctx, m, v = _named(WIDTHS)
    with ctx:
        a, b = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        # sign extensions to as many bits or more keep the value: followed through
        assert same_value(a, v["wy"], b, v["wyb"])
        # a product at i32 wraps (y * 2^28 is 0 at y = 16), index's does not
        assert not same_value(a, v["wide"], b, v["narrow"])
        # a truncation to i8 read back unsigned is not the value (16 * 16 -> 0)
        assert not same_value(a, v["x8u"], b, v["x16"])
        # extsi of an i1 is -1 / 0, extui 1 / 0; neither is the comparison
        assert not same_value(a, v["zs"], b, v["zu"])
        assert not same_value(a, v["zu"], b, v["z"])
        # one comparison on i32, one on index: atoms keyed with the operand types
        assert not same_value(a, v["lt32"], b, v["lt"])
        # a sum at i32 is an atom, not the index sum of its operands
        assert not same_value(a, v["s32x"], b, v["s"])
        assert same_value(a, v["s32x"], b, v["s32x"])


def _chain(n: int) -> str:
    """Two chains of ``n`` additions of the workgroup id, and one of ``n`` thread-only."""
    lines = ["func.func @f(%n: index) {", "  %c0 = arith.constant 0 : index",
             "  %t = gpu.thread_id x upper_bound 64",
             "  %w = gpu.block_id x upper_bound 100000"]
    for side, base, step in (("a", "%c0", "%w"), ("b", "%w", "%w"), ("t", "%c0", "%t")):
        prev = base
        for i in range(n):
            lines.append(f"  %{side}{i} = arith.addi {prev}, {step} : index")
            prev = f"%{side}{i}"
    return "\n".join(lines + ["  return", "}"])


def test_a_chain_is_followed_once_and_one_too_deep_is_refused_at_its_op():
    import pytest

    from pipeline_mlir.dialect.ir_io import IRError
    ctx, m, v = _named(_chain(200))
    with ctx:
        a, b = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        assert same_value(a, v["a199"], b, v["b198"])       # 200 w, both
        assert not same_value(a, v["a199"], b, v["b199"])
        assert list(a.form(v["a199"]).atoms.values()) == [200]
        assert Forms(Evaluator((64, 1, 1), thread_only=True)).form(v["t199"]).lanes.tolist() \
            == [200 * i for i in range(64)]
    ctx, m, v = _named(_chain(700))
    with ctx, pytest.raises(IRError, match=r"'arith.addi' op: its value is computed by a "
                                           r"chain of ops too deep to compare") as e:
        Forms(Evaluator((64, 1, 1), thread_only=True)).form(v["a699"])
    assert e.value.op.results[0] == v["a699"]
    with ctx, pytest.raises(IRError, match="too deep to evaluate"):
        Evaluator((64, 1, 1), thread_only=True).value(v["t699"])


MASKS = """
func.func @f(%n: index) {
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x upper_bound 64
  %col = arith.remui %t, %c8 : index
  %wx = gpu.block_id x upper_bound 100000
  %tile = arith.muli %n, %c32 : index
  %left = arith.subi %c32, %tile : index
  %lanes = arith.minui %left, %c8 : index
  %folded = vector.create_mask %c8 : vector<8xi1>
  %body = vector.create_mask %lanes : vector<8xi1>
  %byid = vector.create_mask %wx : vector<8xi1>
  %byid2 = vector.create_mask %wx : vector<8xi1>
  %bycol = vector.create_mask %col : vector<8xi1>
  %const = vector.constant_mask [8] : vector<8xi1>
  %p0 = arith.constant dense<0.0> : vector<8xbf16>
  %p0b = arith.constant dense<0.0> : vector<8xbf16>
  %p1 = arith.constant dense<1.0> : vector<8xbf16>
  return
}
"""


def test_masks_are_the_same_when_made_by_the_same_ops_over_equal_forms():
    ctx, m, v = _named(MASKS)
    with ctx:
        a, b = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        b.ev.bind(v["n"], 0)                  # the body's mask at tile 0: 8 lanes
        assert made_alike(v["folded"], v["body"]) == [(v["c8"], v["lanes"])]
        assert same_vector(a, v["folded"], b, v["body"])
        # two integers: their forms compared (what reroll_proof.forms_difference relies on)
        assert same_vector(a, v["c8"], b, v["lanes"])
        assert not same_vector(a, v["c8"], a, v["lanes"])
        assert not same_vector(a, v["folded"], a, v["body"])     # at n unbound: unproven
        assert same_vector(a, v["byid"], b, v["byid2"])          # one workgroup atom
        assert not same_vector(a, v["byid"], b, v["bycol"])
        # another op (a constant mask of the same lanes), another pass-through constant
        assert made_alike(v["folded"], v["const"]) is None
        assert not same_vector(a, v["folded"], b, v["const"])
        assert made_alike(v["p0"], v["p0b"]) == [] and same_vector(a, v["p0"], b, v["p0b"])
        assert made_alike(v["p0"], v["p1"]) is None
        assert made_alike(v["c8"], v["p0"]) is None               # other types


def test_an_affine_apply_is_expanded_as_its_arith_ops():
    """An ``affine.apply`` whose map is linear in the workgroup's values has the form of the
    same sum written with arith ops; its floordiv, ceildiv and product of two ids are the
    atoms of ``arith.floordivsi``, ``ceildivsi`` and ``muli`` over equal operands, never
    over other ones; its ``mod`` (no arith op computes it for a negative operand) is an atom
    of its own; a floordiv of the thread's own part is computed per thread."""
    text = """func.func @f(%n: index) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x upper_bound 64
  %w = gpu.block_id x upper_bound 100000
  %a = affine.apply affine_map<(d0)[s0, s1] -> (d0 floordiv 4 + s0 * 16 + s0 ceildiv 3 + s0 * s1)>(%t)[%w, %n]
  %tq = arith.divui %t, %c4 : index
  %cd = arith.ceildivsi %w, %c3 : index
  %w16 = arith.muli %c16, %w : index
  %wn = arith.muli %w, %n : index
  %b0 = arith.addi %wn, %cd : index
  %b1 = arith.addi %b0, %tq : index
  %b = arith.addi %w16, %b1 : index
  %fd3 = arith.floordivsi %w, %c3 : index
  %c0 = arith.addi %fd3, %w16 : index
  %c1 = arith.addi %c0, %tq : index
  %cc = arith.addi %c1, %wn : index
  %m = affine.apply affine_map<()[s0] -> (s0 mod 16)>()[%w]
  %r = arith.remsi %w, %c16 : index
  %m2 = affine.apply affine_map<(d0)[s0] -> (s0 mod 16 + d0 - d0)>(%t)[%w]
  return
}"""
    ctx, m, v = _named(text)
    with ctx:
        f = [Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2)]
        assert same_value(f[0], v["a"], f[1], v["b"])
        assert not same_value(f[0], v["a"], f[1], v["cc"])    # floordiv is not ceildiv
        assert not same_value(f[0], v["m"], f[1], v["r"])     # proves nothing: refused
        assert same_value(f[0], v["m"], f[1], v["m2"])


NEGATIVE = """
func.func @f(%n: index) {
  %c16 = arith.constant 16 : index
  %c44 = arith.constant 44 : index
  %c700 = arith.constant 700 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.addi %t, %c44 : index
  %at = arith.muli %row, %c16 : index
  %left = arith.subi %c700, %at : index
  %r1 = arith.remui %left, %c16 : index
  %r2 = arith.remui %left, %c16 : index
  %d1 = arith.divui %left, %c16 : index
  %other = arith.remui %at, %c16 : index
  return
}
"""


def test_an_unsigned_op_of_a_negative_operand_is_an_op_of_its_own():
    """An unsigned remainder or division of an operand negative in some thread (IREE's
    guard of a row clamped past N, 15708 - (357 * 44 + col): the late form of fp8
    ``A x B^T`` 64x44x357, whose roll-back's comparison of forms stopped at the op with
    the evaluator's error) has no exact integer value; it is an atom, equal to the same
    op over an operand of an equal form, not to another op or another operand."""
    ctx, m, v = _named(NEGATIVE)
    with ctx:
        a, b = (Forms(Evaluator((64, 1, 1), thread_only=True)) for _ in range(2))
        assert same_value(a, v["r1"], b, v["r2"])
        assert not same_value(a, v["r1"], b, v["d1"])
        assert not same_value(a, v["r1"], b, v["other"])
