"""``index_bounds.unsigned_bounds`` with ``bits``: a right shift, a mask and an id's
``upper_bound`` bound every value the IR computes (each checked against all its values),
and without ``bits`` those stay unknown, as the other callers had them."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops


def _result(body: str, name: str):
    m = ir.Module.parse("func.func @f(%x: i32) -> i32 {\n" + body + "\n  return %r : i32\n}")
    return m, walk_ops(m.operation, lambda o: o.name == name)[-1].results[0]


@pytest.mark.parametrize("n,shift", [(1, 0), (256, 8), (256, 7), (300, 3), (64, 6), (5, 1)])
def test_a_shifted_id_is_bounded_by_its_values(n, shift):
    with new_context():
        m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %c = arith.constant {shift} : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        values = [t >> shift for t in range(n)]
        assert unsigned_bounds(r, bits=True) == (min(values), max(values))
        assert unsigned_bounds(r) is None


@pytest.mark.parametrize("n,mask", [(256, 15), (16, 255), (100, 0), (7, 6)])
def test_a_mask_is_at_most_its_known_operand(n, mask):
    with new_context():
        for other in ("%x", "%c"):
            m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %c = arith.constant {mask} : i32
  %r = arith.andi %i, {other} : i32""", "arith.andi")
            lo, hi = unsigned_bounds(r, bits=True)
            if other == "%c":
                assert all(lo <= (t & mask) <= hi for t in range(n))
            assert lo == 0 and hi == (min(n - 1, mask) if other == "%c" else n - 1)


def test_a_product_by_a_zero_range_is_zero_and_an_unbounded_id_any_32_bit_value():
    with new_context():
        m, r = _result("""  %t = gpu.thread_id x upper_bound 64
  %i = arith.index_castui %t : index to i32
  %c = arith.constant 6 : i32
  %s = arith.shrui %i, %c : i32
  %r = arith.muli %x, %s : i32""", "arith.muli")
        assert unsigned_bounds(r, bits=True) == (0, 0)
        m, r = _result("""  %w = gpu.block_id x
  %i = arith.index_castui %w : index to i32
  %c = arith.constant 31 : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        # no bound: the id any value a launch's 32 bits give, so shifted by 31 a bit
        assert unsigned_bounds(r, bits=True) == (0, 1)
        m, r = _result("""  %w = gpu.block_id x upper_bound 8
  %i = arith.index_castui %w : index to i32
  %c = arith.constant 3 : i32
  %r = arith.shrui %i, %c : i32""", "arith.shrui")
        assert unsigned_bounds(r, bits=True) == (0, 0)
        assert unsigned_bounds(r, threads=True) is None


M32 = (1 << 32) - 1
#: (op text on %a = thread id >> s and %b = thread id >> s2, the op's value in Python)
_MORE = {
    "arith.shli %a, %c2 : i32": lambda a, b, x: (a << 2) & M32,
    "arith.ori %a, %b : i32": lambda a, b, x: a | b,
    "arith.xori %a, %b : i32": lambda a, b, x: a ^ b,
    "arith.subi %a, %b : i32": lambda a, b, x: (a - b) & M32,
    "arith.shrsi %a, %c2 : i32": lambda a, b, x: a >> 2,
    "arith.ceildivui %a, %c3 : i32": lambda a, b, x: -(-a // 3),
    "arith.minui %x, %a : i32": lambda a, b, x: min(x, a),
    "arith.remui %x, %a1 : i32": lambda a, b, x: x % (a + 1),
    "arith.shli %a, %x : i32": lambda a, b, x: (a << (x % 32)) & M32,
}


@pytest.mark.parametrize("op", list(_MORE))
@pytest.mark.parametrize("n,s,s2", [(256, 8, 9), (256, 7, 9), (256, 4, 6), (256, 6, 4), (300, 5, 8)])
def test_more_arithmetic_bounds_every_value(op, n, s, s2):
    """Each op IREE's range analysis bounds too (finding 114): the bounds hold every value
    it takes (the unknown ``%x`` at a few values), a zero range exactly where all are zero,
    and without ``bits`` nothing is known."""
    with new_context():
        m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %cs = arith.constant {s} : i32
  %cs2 = arith.constant {s2} : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = arith.shrui %i, %cs : i32
  %b = arith.shrui %i, %cs2 : i32
  %a1 = arith.addi %a, %c1 : i32
  %r = {op}""", op.split()[0])
        got = unsigned_bounds(r, bits=True)
        values = {_MORE[op](t >> s, t >> s2, x) for t in range(n)
                  for x in (0, 1, 5, 31, 1000, M32)}
        if got is not None:
            assert got[0] <= min(values) and max(values) <= got[1], (got, sorted(values)[:5])
        if values == {0}:
            assert got == (0, 0)
        assert unsigned_bounds(r) is None


@pytest.mark.parametrize("pred,k", [("ult", 1), ("ugt", 0), ("eq", 0), ("ne", 3), ("sgt", 1),
                                    ("sle", 0), ("uge", 255)])
def test_a_compare_the_ranges_decide_and_a_select_of_it(pred, k):
    """A compare of a shifted id and a constant is decided where every value decides it
    alike (its bit, extended), else either bit; a select of it picks its value's range."""
    import operator as op
    rel = {"ult": op.lt, "ugt": op.gt, "eq": op.eq, "ne": op.ne, "sgt": op.gt,
           "sle": op.le, "uge": op.ge}[pred]
    with new_context():
        for shift in (0, 6, 8):
            m, r = _result(f"""  %t = gpu.thread_id x upper_bound 256
  %i = arith.index_castui %t : index to i32
  %cs = arith.constant {shift} : i32
  %a = arith.shrui %i, %cs : i32
  %k = arith.constant {k} : i32
  %p = arith.cmpi {pred}, %a, %k : i32
  %e = arith.extui %p : i1 to i32
  %c7 = arith.constant 7 : i32
  %r = arith.select %p, %c7, %e : i32""", "arith.select")
            bits = {int(rel(t >> shift, k)) for t in range(256)}
            ext = walk_ops(m.operation, lambda o: o.name == "arith.extui")[0].results[0]
            assert unsigned_bounds(ext, bits=True) == (min(bits), max(bits))
            want = {7 if b else 0 for b in bits}
            assert unsigned_bounds(r, bits=True) == (min(want), max(want))


def test_a_truncation_and_the_ids_the_workgroup_bounds():
    """A zero truncated is zero, a wider range any value of the narrower type; a thread id
    or block size with no upper_bound is bounded by the function's workgroup size, none
    stated, or two that differ, by a launch's 32 bits; a lane id by the wave's 64 lanes."""
    with new_context():
        m = ir.Module.parse("""func.func @f(%x: i32) -> (i16, i16, index, index, index, index)
    attributes {gpu.known_block_size = array<i32: 128, 2, 1>} {
  %c8 = arith.constant 8 : i32
  %t = gpu.thread_id x upper_bound 256
  %i = arith.index_castui %t : index to i32
  %s = arith.shrui %i, %c8 : i32
  %z = arith.trunci %s : i32 to i16
  %w = arith.trunci %x : i32 to i16
  %u = gpu.thread_id y
  %b = gpu.block_dim x
  %l = gpu.lane_id
  %v = gpu.thread_id z
  return %z, %w, %u, %b, %l, %v : i16, i16, index, index, index, index
}
func.func @g() -> index {
  %u = gpu.thread_id x
  return %u : index
}
func.func @h() -> index attributes {gpu.known_block_size = array<i32: 128, 1, 1>,
                                    rocdl.reqd_work_group_size = array<i32: 256, 1, 1>} {
  %u = gpu.thread_id x
  return %u : index
}""")
        ret = walk_ops(m.operation, lambda o: o.name == "func.return")
        got = [unsigned_bounds(v, bits=True) for v in ret[0].operands]
        assert got == [(0, 0), (0, (1 << 16) - 1), (0, 1), (128, 128), (0, 63), (0, 0)]
        below_u32 = (0, (1 << 32) - 2)
        assert unsigned_bounds(ret[1].operands[0], bits=True) == below_u32
        assert unsigned_bounds(ret[2].operands[0], bits=True) == below_u32     # two sizes
        assert [unsigned_bounds(v) for v in ret[0].operands][2:] == [None] * 4


@pytest.mark.parametrize("op", ["andi", "ori", "xori"])
@pytest.mark.parametrize("k", [0, 1, 5, 64, 255, 256, 300])
def test_a_bitwise_op_bounds_every_value(op, k):
    """A mask, an or and a xor of a shifted id (an offset one too) and a constant: the
    bounds hold every value, and are the value itself where the id's range is one value
    (``1 & 256`` is 0: finding 114's fuzz)."""
    f = {"andi": lambda x, y: x & y, "ori": lambda x, y: x | y, "xori": lambda x, y: x ^ y}[op]
    with new_context():
        for n, shift, off in [(256, 8, 256), (256, 3, 0), (256, 6, 4), (300, 2, 17), (64, 6, 1)]:
            m, r = _result(f"""  %t = gpu.thread_id x upper_bound {n}
  %i = arith.index_castui %t : index to i32
  %cs = arith.constant {shift} : i32
  %co = arith.constant {off} : i32
  %ck = arith.constant {k} : i32
  %s = arith.shrui %i, %cs : i32
  %a = arith.addi %s, %co : i32
  %r = arith.{op} %a, %ck : i32""", f"arith.{op}")
            values = {f((t >> shift) + off, k) for t in range(n)}
            lo, hi = unsigned_bounds(r, bits=True)
            assert lo <= min(values) and max(values) <= hi
            if len(values) == 1:
                assert lo == hi


def test_a_mask_keeps_the_smaller_bound_beside_the_shared_bits():
    """``[0, 5] & 7`` is at most 5 (the bound of the smaller operand), not 7 (the free
    bits of ``[0, 5]`` all set)."""
    with new_context():
        m, r = _result("""  %t = gpu.thread_id x upper_bound 6
  %i = arith.index_castui %t : index to i32
  %c = arith.constant 7 : i32
  %r = arith.andi %i, %c : i32""", "arith.andi")
        assert unsigned_bounds(r, bits=True) == (0, 5)


def _func(text: str):
    """The returned values of the one ``func.return`` of module ``text``."""
    m = ir.Module.parse(text)
    return m, list(walk_ops(m.operation, lambda o: o.name == "func.return")[0].operands)


@pytest.mark.parametrize("lb,n,step,shift", [(0, 4, 1, 2), (0, 5, 1, 2), (1, 300, 7, 8),
                                             (3, 3, 1, 0), (0, 64, 2, 5)])
def test_a_loop_variable_and_what_the_loop_carries_bound_every_value(lb, n, step, shift):
    """Finding 120: an ``scf.for``'s variable (constant bounds, or an upper bound of the
    workgroup id's range), a value it carries (the variable shifted, kept as a maximum)
    and the loop's result bound every value they take (a loop that never runs: nothing
    known), zero exactly where every value is."""
    with new_context():
        m, (iv, wiv, res) = _func(f"""func.func @f(%x: i32) -> (index, index, i32) {{
  %lb = arith.constant {lb} : index
  %ub = arith.constant {n} : index
  %st = arith.constant {step} : index
  %sh = arith.constant {shift} : index
  %c0 = arith.constant 0 : i32
  %w = hal.interface.workgroup.id[0] upper_bound {n} : index
  %r:3 = scf.for %i = %lb to %ub step %st iter_args(%a = %lb, %b = %lb, %k = %c0) -> (index, index, i32) {{
    %s = arith.shrui %i, %sh : index
    %wub = arith.addi %w, %st : index
    %j = scf.for %q = %lb to %wub step %st iter_args(%y = %lb) -> index {{
      scf.yield %q : index
    }}
    %si = arith.index_castui %s : index to i32
    %m = arith.maxui %k, %si : i32
    scf.yield %s, %j, %m : index, index, i32
  }}
  return %r#0, %r#1, %r#2 : index, index, i32
}}""")
        values = [i >> shift for i in range(lb, n, step)]
        body = walk_ops(m.operation, lambda o: o.name == "scf.yield")[-1].operands
        for v, want in ((body[0], values), (res, [0] + values)):
            got = unsigned_bounds(v, bits=True)
            if not values:
                assert got is None
                continue
            assert got[0] <= min(want) and max(want) <= got[1]
            assert (got == (0, 0)) == (set(want) == {0})
        inner = walk_ops(m.operation, lambda o: o.name == "scf.yield")[0].operands[0]
        # the inner variable, below w + step for each workgroup id w below n
        wvalues = {q for w in range(n) for q in range(lb, w + step, step)}
        got = unsigned_bounds(inner, bits=True)
        if wvalues:
            assert got[0] <= min(wvalues) and max(wvalues) <= got[1]
        else:
            assert got is None
        assert unsigned_bounds(body[0]) is None and unsigned_bounds(res) is None


@pytest.mark.parametrize("update,stays", [("arith.shrui %k, %c1", True),
                                          ("arith.muli %k, %x", True),
                                          ("arith.andi %k, %x", True),
                                          ("arith.minui %k, %x", True),
                                          ("arith.addi %k, %c1", False),
                                          ("arith.ori %k, %c1", False),
                                          ("arith.select %p, %k, %c1", False)])
def test_a_carried_value_is_a_fixed_point_over_its_iterations(update, stays):
    """A value an ``scf.for`` or ``scf.while`` carries from a zero (an id's range) is zero
    while each iteration keeps it so, and unknown, or a range with its nonzero values,
    where an iteration makes more of it; each carried value's range holds every value it
    takes (run in Python over a few unknowns)."""
    with new_context():
        m, (f, w, wa) = _func(f"""func.func @f(%x: i32, %n: index, %p: i1) -> (i32, i32, i32) {{
  %c0 = arith.constant 0 : index
  %c1i = arith.constant 1 : index
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %z = arith.shrui %ti, %c8 : i32
  %r = scf.for %i = %c0 to %n step %c1i iter_args(%k = %z) -> i32 {{
    %k2 = {update} : i32
    scf.yield %k2 : i32
  }}
  %h:2 = scf.while (%k = %z, %q = %x) : (i32, i32) -> (i32, i32) {{
    %go = arith.cmpi ult, %q, %c8 : i32
    scf.condition(%go) %k, %q : i32, i32
  }} do {{
  ^bb0(%k: i32, %q: i32):
    %k2 = {update} : i32
    %q2 = arith.addi %q, %c1 : i32
    scf.yield %k2, %q2 : i32, i32
  }}
  return %r, %h#0, %h#0 : i32, i32, i32
}}""")
        for v in (f, w):
            got = unsigned_bounds(v, bits=True)
            assert (got == (0, 0)) == stays, got
            if got is not None:
                ops = {"shrui": lambda k, x: k >> 1, "muli": lambda k, x: k * x,
                       "andi": lambda k, x: k & x, "minui": lambda k, x: min(k, x),
                       "addi": lambda k, x: k + 1, "ori": lambda k, x: k | 1,
                       "select": lambda k, x: k if x % 2 else 1}
                step = ops[update.split()[0].split(".")[1]]
                for x in (0, 1, 7, 1000):
                    k, seen = 0, {0}
                    for _ in range(5):
                        k = step(k, x) & M32
                        seen.add(k)
                    assert got[0] <= min(seen) and max(seen) <= got[1], (got, seen)
        after = walk_ops(m.operation, lambda o: o.name == "arith.addi")[-1].operands[0]
        assert unsigned_bounds(after, bits=True) is None     # (the while's q: unknown)


def test_an_if_is_the_hull_of_its_branches_or_the_one_its_condition_takes():
    """An ``scf.if``'s result is the hull of what both branches yield; the branch its
    decided condition takes alone."""
    with new_context():
        m, (a, b, c) = _func("""func.func @f(%x: i32, %p: i1) -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c300 = arith.constant 300 : i32
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %z = arith.shrui %ti, %c8 : i32
  %a = scf.if %p -> i32 {
    scf.yield %z : i32
  } else {
    %m = arith.muli %z, %x : i32
    scf.yield %m : i32
  }
  %b = scf.if %p -> i32 {
    scf.yield %z : i32
  } else {
    scf.yield %c1 : i32
  }
  %q = arith.cmpi ugt, %ti, %c300 : i32
  %c = scf.if %q -> i32 {
    scf.yield %c1 : i32
  } else {
    scf.yield %z : i32
  }
  return %a, %b, %c : i32, i32, i32
}""")
        assert [unsigned_bounds(v, bits=True) for v in (a, b, c)] == [(0, 0), (0, 1), (0, 0)]
        assert [unsigned_bounds(v) for v in (a, b, c)] == [None] * 3


@pytest.mark.parametrize("op,f", [("divsi", lambda a, b: a // b), ("remsi", lambda a, b: a % b),
                                  ("floordivsi", lambda a, b: a // b),
                                  ("ceildivsi", lambda a, b: -(-a // b)),
                                  ("maxsi", max), ("minsi", min)])
@pytest.mark.parametrize("n,k", [(256, 256), (256, 3), (16, 64), (300, 1)])
def test_a_signed_op_of_non_negative_values_bounds_every_value(op, f, n, k):
    """Finding 120: the signed divisions, remainders, maxima and minima of an id's range
    and a positive constant bound every value as their unsigned ops do, zero exactly
    where every value is; a zero's remainder by an unknown is zero, and so is its signed
    maximum with a negative constant, and its division or remainder by an id's range
    (a zero among its values)."""
    with new_context():
        m, (r, z1, z2, z3) = _func(f"""func.func @f(%x: i32) -> (i32, i32, i32, i32) {{
  %t = gpu.thread_id x upper_bound {n}
  %ti = arith.index_castui %t : index to i32
  %k = arith.constant {k} : i32
  %r = arith.{op} %ti, %k : i32
  %c12 = arith.constant 12 : i32
  %m5 = arith.constant -5 : i32
  %z = arith.shrui %ti, %c12 : i32
  %z1 = arith.remsi %z, %x : i32
  %z2 = arith.maxsi %z, %m5 : i32
  %z3 = arith.{op} %z, %ti : i32
  return %r, %z1, %z2, %z3 : i32, i32, i32, i32
}}""")
        values = {f(t, k) for t in range(n)}
        lo, hi = unsigned_bounds(r, bits=True)
        assert lo <= min(values) and max(values) <= hi
        assert (lo, hi) == (0, 0) if values == {0} else hi > 0
        assert unsigned_bounds(z1, bits=True) == unsigned_bounds(z2, bits=True) == (0, 0)
        if op not in ("maxsi", "minsi"):     # a zero divided by a range with a zero in it
            assert unsigned_bounds(z3, bits=True) == (0, 0)


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_a_remainder_is_below_its_divisors_bound_with_a_zero_among_its_values(shift):
    """A remainder by a range holding 0 (by 0: undefined) is below the range's bound, a
    known operand's or an unknown's: zero where the range is 0 and 1 only (finding 120)."""
    with new_context():
        m, (r, u) = _func(f"""func.func @f(%x: i32) -> (i32, i32) {{
  %t = gpu.thread_id x upper_bound 16
  %ti = arith.index_castui %t : index to i32
  %c = arith.constant {shift} : i32
  %o = arith.shrui %ti, %c : i32
  %r = arith.remui %ti, %o : i32
  %u = arith.remui %x, %o : i32
  return %r, %u : i32, i32
}}""")
        divisors = {t >> shift for t in range(16)}
        values = {t % (t >> shift) for t in range(16) if t >> shift}
        lo, hi = unsigned_bounds(r, bits=True)
        assert lo <= min(values | {0}) and max(values | {0}) <= hi
        assert unsigned_bounds(u, bits=True) == (0, max(divisors) - 1)
        assert (hi == 0) == (max(divisors) <= 1)
        assert unsigned_bounds(r) is None


def test_iree_assumptions_vectors_and_launch_values_are_bounded():
    """Finding 120: IREE's ``util.assume.int`` (its rows' hull), a vector's elements (a
    broadcast's, a step's, an element read from them), a block id of no bound (a launch's
    32 bits) and the wave's size."""
    with new_context():
        m, got = _func("""func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, vector<4xi32>, i32, index, index, index) {
  %u = util.assume.int %y<umin = 2, umax = 200> : i32
  %u2:2 = util.assume.int %x[<umin = 0, umax = 3>, <umin = 8, umax = 9>], %y<udiv = 4> : i32, i32
  %c8 = arith.constant 8 : i32
  %t = gpu.thread_id x upper_bound 64
  %ti = arith.index_castui %t : index to i32
  %b = vector.broadcast %ti : i32 to vector<4xi32>
  %e = vector.extract %b[2] : i32 from vector<4xi32>
  %st = vector.step : vector<8xindex>
  %se = vector.extract %st[3] : index from vector<8xindex>
  %g = gpu.block_id y
  %s = gpu.subgroup_size : index
  return %u, %u2#0, %u2#1, %b, %e, %se, %g, %s : i32, i32, i32, vector<4xi32>, i32, index, index, index
}""")
        assert [unsigned_bounds(v, bits=True) for v in got] == [
            (2, 200), (0, 9), None, (0, 63), (0, 63), (0, 7), (0, (1 << 32) - 2), (64, 64)]
        assert all(unsigned_bounds(v) is None for v in got)
