"""The per-thread evaluator's memo (``pipeline_mlir/analysis/loop_eval.py``): a
:meth:`~Evaluator.bind` forgets exactly what was computed, directly or not, from the value
it rebinds (values, and memref views), and keeps the rest.

It used to forget everything on each bind: the padded late-form row checks, which rebind a
loop's induction variable hundreds of times, re-evaluated every address from the thread id
up each time (about a third of a ``pipeline-opt`` run's CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.analysis.exact_ints import exact_on_machine
from pipeline_mlir.analysis.loop_eval import Evaluator, Repeated, SideBySide
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op

TEXT = """
func.func @f(%buf: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %a = arith.muli %tid, %c4 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %b = arith.addi %a, %k : index
    %c = arith.muli %b, %c4 : index
    %v = memref.subview %buf[%k] [4] [1] : memref<1024xf32> to memref<4xf32, strided<[1], offset: ?>>
    %x = memref.load %v[%c0] : memref<4xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %c4 step %c1 {
      %d = arith.addi %a, %j : index
      memref.store %x, %buf[%c] : memref<1024xf32>
    }
  }
  return
}
"""


def _values(m) -> dict:
    """name -> value: the results the test reads, by their op's order."""
    ops = walk_ops(m.operation, lambda o: o.name in ("arith.muli", "arith.addi",
                                                     "memref.subview", "scf.for"))
    mul_a, loop, add_b, mul_c, view, inner, add_d = ops
    return {"a": mul_a.results[0], "b": add_b.results[0], "c": mul_c.results[0],
            "d": add_d.results[0], "view": view.results[0],
            "k": loop.regions[0].blocks[0].arguments[0],
            "j": inner.regions[0].blocks[0].arguments[0]}


def _evaluator():
    ctx = new_context()
    m = ir.Module.parse(TEXT, ctx)
    return ctx, m, _values(m), Evaluator((64, 1, 1))


def test_a_bind_keeps_what_does_not_read_the_value():
    ctx, m, v, ev = _evaluator()
    tid = np.arange(64)
    ev.bind(v["k"], 0)
    ev.bind(v["j"], 0)
    for name in ("c", "d", "view"):
        ev.view(v[name]) if name == "view" else ev.value(v[name])
    ev.bind(v["k"], 3)
    assert v["a"] in ev.memo and v["d"] in ev.memo
    assert v["b"] not in ev.memo and v["c"] not in ev.memo
    np.testing.assert_array_equal(ev.value(v["c"]), (tid * 4 + 3) * 4)
    assert ev.view(v["view"]).offset.tolist() == [3] * 64
    ev.bind(v["j"], 2)
    assert v["b"] in ev.memo and v["d"] not in ev.memo
    np.testing.assert_array_equal(ev.value(v["d"]), tid * 4 + 2)


def test_rebinding_a_computed_value_forgets_its_users():
    """A value bound after it was computed from its op (a launch value, a workgroup id)
    takes the bound value in everything computed from it, and an unbind gives its own
    value back."""
    ctx, m, v, ev = _evaluator()
    tid = np.arange(64)
    ev.bind(v["k"], 1)
    np.testing.assert_array_equal(ev.value(v["c"]), (tid * 4 + 1) * 4)
    ev.bind(v["a"], 100)
    np.testing.assert_array_equal(ev.value(v["c"]), [404] * 64)
    ev.unbind(v["a"])
    np.testing.assert_array_equal(ev.value(v["c"]), (tid * 4 + 1) * 4)
    ev.unbind(v["k"])
    assert v["b"] not in ev.memo and v["c"] not in ev.memo and v["a"] in ev.memo


def test_repeated_lanes_take_from_their_source_only_what_does_not_read_the_value():
    """A :class:`Repeated` evaluator (2 workgroups' lanes repeated for 3 values of ``k``)
    takes from its source, tiled, what the source computed without reading ``k`` (the
    source's value of ``a`` is made distinct to show it is the one taken), evaluates again
    per copy what reads it (the source's ``c`` at its own ``k`` would be wrong in the
    other copies), and binds nothing but ``k``."""
    ctx, m, v, _ = _evaluator()
    src = SideBySide((64, 1, 1), 2, launch_values=False)
    src.bind(v["k"], 5)
    src.value(v["c"])
    src.memo[v["a"]] = src.memo[v["a"]] + 1000
    rep = Repeated(src, 3, v["k"])
    ks = np.repeat([1, 2, 7], 128)
    rep.bind(v["k"], ks)
    a = np.tile(np.arange(64) * 4 + 1000, 6)
    np.testing.assert_array_equal(rep.value(v["c"]), (a + ks) * 4)
    np.testing.assert_array_equal(rep.value(v["a"]), a)
    with pytest.raises(ValueError, match="binds only its varying value"):
        rep.bind(v["j"], 0)


WIDTHS = """
func.func @f() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %big = arith.constant 100000000 : i32
  %c2 = arith.constant 2 : i32
  %true = arith.constant true
  %t = gpu.thread_id x
  %t32 = arith.index_cast %t : index to i32
  %p = arith.muli %t32, %big : i32
  %pu = arith.index_castui %p : i32 to index
  %ps = arith.index_cast %p : i32 to index
  %q = arith.divui %p, %c2 : i32
  %qx = arith.extui %q : i32 to i64
  %z = arith.cmpi eq, %t, %c0 : index
  %zs = arith.extsi %z : i1 to i32
  %zu = arith.extui %z : i1 to i32
  %x16 = arith.muli %t, %c16 : index
  %n8 = arith.index_cast %x16 : index to i8
  %n8u = arith.index_castui %n8 : i8 to index
  %tr = arith.trunci %p : i32 to i8
  %ts = arith.extsi %true : i1 to i32
  %tu = arith.extui %true : i1 to i32
  %false = arith.constant false
  %slt = arith.cmpi slt, %true, %false : i1
  %sge = arith.cmpi sge, %true, %false : i1
  %ult = arith.cmpi ult, %true, %false : i1
  %maxs1 = arith.maxsi %true, %false : i1
  %mins1 = arith.minsi %true, %false : i1
  %fl1 = arith.floordivsi %false, %true : i1
  %m1 = arith.constant -1 : i32
  %c5w = arith.constant 5 : i32
  %ult32 = arith.cmpi ult, %m1, %c5w : i32
  %shrs32 = arith.shrsi %m1, %c5w : i32
  %shru32 = arith.shrui %m1, %c5w : i32
  %c5 = arith.constant 5 : index
  %neg = arith.subi %t, %c5 : index
  %maxui = arith.maxui %neg, %c5 : index
  %minui = arith.minui %neg, %c5 : index
  %shrui = arith.shrui %neg, %c0 : index
  %ceildivui = arith.ceildivui %neg, %c5 : index
  %divui = arith.divui %neg, %c5 : index
  %remui = arith.remui %neg, %c5 : index
  %imin = arith.constant -2147483648 : i32
  %divs = arith.divsi %imin, %m1 : i32
  %c32w = arith.constant 32 : i32
  %shl32 = arith.shli %c5w, %c32w : i32
  %c64 = arith.constant 64 : index
  %shr64 = arith.shrsi %c5, %c64 : index
  %c31w = arith.constant 31 : i32
  %shl31 = arith.shli %m1, %c31w : i32
  return
}
"""


def _signed(x: int, w: int) -> int:
    x %= 1 << w
    return x - (1 << w) if x >= 1 << (w - 1) else x


def test_integers_wrap_and_casts_extend_at_their_widths():
    ctx = new_context()
    m = ir.Module.parse(WIDTHS, ctx)
    names = [n for n in WIDTHS.split() if n.startswith("%") and n[1:].isidentifier()]
    ops = walk_ops(m.operation, lambda o: len(o.results) == 1 and o.name != "func.func")
    v = dict(zip(dict.fromkeys(names), (o.results[0] for o in ops)))
    ev = Evaluator((64, 1, 1))
    t = range(64)
    expect = {
        "%p": [_signed(i * 10**8, 32) for i in t],                  # an i32 product wraps
        "%pu": [(i * 10**8) % 2**32 for i in t],                    # read back unsigned
        "%ps": [_signed(i * 10**8, 32) for i in t],                 # or signed
        "%qx": [((i * 10**8) % 2**32) // 2 for i in t],             # divui: modulo 2^32
        "%zs": [-1] + [0] * 63, "%zu": [1] + [0] * 63,              # extsi of an i1: -1
        "%n8": [_signed(16 * i, 8) for i in t],                     # truncated
        "%n8u": [(16 * i) % 256 for i in t],
        "%tr": [_signed(i * 10**8, 8) for i in t],
        "%ts": [-1] * 64, "%tu": [1] * 64,
        # signed ops read an i1 true (held as 1) as -1, unsigned ones as 1
        "%slt": [1] * 64, "%sge": [0] * 64, "%ult": [0] * 64,
        "%maxs1": [0] * 64, "%mins1": [1] * 64, "%fl1": [0] * 64,
        "%ult32": [0] * 64, "%shrs32": [-1] * 64, "%shru32": [2**27 - 1] * 64,
    }
    with ctx:
        for name, want in expect.items():
            assert ev.value(v[name]).tolist() == want, name
        # 64-bit unsigned ops on a negative held value (a value of 2^64 - 5): refused
        for name in ("maxui", "minui", "shrui", "ceildivui", "divui", "remui"):
            with pytest.raises(IRError, match=f"'arith.{name}' op: negative operand in an "
                                              f"unsigned operation"):
                ev.value(v["%" + name])
        # exact_on_machine: a shift by the width or more is poison, INT_MIN / -1 undefined
        for name, exact in [("%divs", False), ("%shl32", False), ("%shr64", False),
                            ("%shl31", True), ("%shrs32", True)]:
            assert exact_on_machine(ev, [v[name].owner]) == exact, name


#: workgroup ids of each kind, bounded or not (the lines of those ``grid`` keeps)
IDS = """
func.func @f() {
  %x = rocdl.workgroup.id.x range <i32, 0, 7> : i32
  %y = gpu.block_id y upper_bound 3
  %z = rocdl.workgroup.id.z : i32
  %w = hal.interface.workgroup.id[0] : index
  return
}
"""
#: IREE's linearised workgroup loop around a value computed from its variable
GRID_LOOP = """
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %w = hal.interface.workgroup.id[0] : index
  %cnt = hal.interface.workgroup.count[0] : index
  scf.for %i = %w to %n step %cnt {
    %d = arith.addi %i, %c0 : index
  }
  return
}
"""


def test_every_workgroup_id_op_bounds_the_grid_or_leaves_it_unbounded():
    """``ir_facts.workgroup_id_bound`` reads each op of ``WORKGROUP_ID_OPS`` (the one list):
    a ``rocdl.workgroup.id`` bounds the grid by its ``range`` (``workgroup_grid`` and
    ``edges.sample_ids`` once ignored it: a kernel reading one without a bound had a grid
    of one workgroup), ``gpu.block_id`` by its ``upper_bound``; one without a bound leaves
    the grid unbounded.  ``thread_loops.workgroup_dependent`` takes the linearised
    workgroup loop's variable for the workgroup (the evaluator samples it as an id)."""
    from pipeline_mlir.analysis.ir_facts import WORKGROUP_ID_OPS, workgroup_id_bound
    from pipeline_mlir.analysis.loop_eval import workgroup_grid
    from pipeline_mlir.frontend.thread_loops import workgroup_dependent

    def grid(*keep):
        m = ir.Module.parse("\n".join(s for s in IDS.splitlines() if not s.strip().startswith(
            "%") or s.split()[0] in keep), ctx)
        return workgroup_grid(m.body.operations[0])

    with new_context() as ctx:
        m = ir.Module.parse(IDS, ctx)
        ids = walk_ops(m.body.operations[0], lambda o: o.name in WORKGROUP_ID_OPS)
        assert [workgroup_id_bound(o) for o in ids] == [7, 3, None, None]
        assert grid("%x", "%y") == (7, 3)
        assert grid("%x", "%y", "%z") is None and grid("%z") is None and grid("%w") is None
        m = ir.Module.parse(GRID_LOOP, ctx)
        d = walk_ops(m.body.operations[0], lambda o: o.name == "arith.addi")[0]
        assert workgroup_dependent(d.results[0], set())
        assert not workgroup_dependent(d.operands[1], set())


#: a value of the thread id alone and one of a workgroup id (directly, and through a
#: workgroup loop's variable), as a copy's global address mixes them
WORKGROUP_SAMPLES = """
func.func @f(%n: index) {
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %a = arith.muli %t, %c4 : index
  %w = hal.interface.workgroup.id[0] : index
  %b = arith.addi %a, %w : index
  %cnt = hal.interface.workgroup.count[0] : index
  scf.for %i = %w to %n step %cnt {
    %d = arith.addi %a, %i : index
  }
  return
}
"""


def test_a_new_workgroup_sample_forgets_only_what_reads_a_workgroup_id():
    """``set_workgroup`` (one evaluator for every sampled workgroup of the copies' checks,
    ``edges.check_copy_reads``): the values read from a workgroup id, directly or through
    the workgroup loop's variable, take the new sample; the thread-id arithmetic stays
    memoized."""
    with new_context() as ctx:
        m = ir.Module.parse(WORKGROUP_SAMPLES, ctx)
        a, b, d = (o.results[0] for o in walk_ops(
            m.operation, lambda o: o.name in ("arith.muli", "arith.addi")))
        tid = np.arange(64)
        ev = Evaluator((64, 1, 1), workgroup_id=0)
        for w in (0, 5, 5, 2):
            ev.set_workgroup(w)
            np.testing.assert_array_equal(ev.value(b), tid * 4 + w)
            np.testing.assert_array_equal(ev.value(d), tid * 4 + w)
            fresh = Evaluator((64, 1, 1), workgroup_id=w)
            np.testing.assert_array_equal(fresh.value(d), ev.value(d))
        memo_a = ev.memo[a]
        ev.set_workgroup(7)
        assert ev.memo[a] is memo_a and b not in ev.memo and d not in ev.memo
        np.testing.assert_array_equal(ev.value(b), tid * 4 + 7)


def test_a_deep_chain_of_views_is_followed_without_recursion():
    """1000 subviews of subviews (two frames each: deeper than Python's recursion limit):
    followed one level at a time (the sources first), the last one's offset and chain
    exact."""
    n, t = 1000, "memref<?xf32, strided<[1], offset: ?>>"
    lines = ["func.func @f() {", "  %c1 = arith.constant 1 : index",
             "  %c8 = arith.constant 8 : index", "  %a = memref.alloc() : memref<4096xf32>",
             f"  %v0 = memref.cast %a : memref<4096xf32> to {t}"]
    lines += [f"  %v{i + 1} = memref.subview %v{i}[%c1] [%c8] [1] : {t} to {t}"
              for i in range(n)]
    with new_context():
        m = ir.Module.parse("\n".join(lines + ["  return", "}"]))
        last = walk_ops(m.operation, lambda o: o.name == "memref.subview")[-1].results[0]
        view = Evaluator((64, 1, 1)).view(last)
        assert np.all(view.offset == n) and len(view.chain) == n + 1


def test_an_erased_op_does_not_lend_its_value_to_a_new_one_at_its_address():
    """A value is memoized under its handle, which compares by the op's address: an op
    made after another was erased may take its address (checked: it does here).  Every
    ``erase`` makes the live evaluators forget the op first (``forget_on_change``), the ops
    nested in it and its blocks' arguments with it; without it the erased view's
    per-thread offset came back (the prefetch point of f16 ``A^T x B^T`` 113x240x352:
    B's split copy read A's erased view in ``frontend/regcopy.py``), and an erased loop's
    bound induction variable lent its value to the next loop's."""
    ctx, m, v, ev = _evaluator()
    tid = np.arange(64)
    ev.bind(v["k"], 3)
    view = _op(v["view"].owner)
    reused = 0
    for _ in range(20):          # (an address freed is taken by the next op of its size)
        old = view.clone(ip=ir.InsertionPoint(view))
        old.operands[1] = v["a"]
        assert ev.view(old.results[0]).offset.tolist() == (tid * 4).tolist()
        at = hash(old.results[0])
        old.erase()
        new = view.clone(ip=ir.InsertionPoint(view))
        reused += hash(new.results[0]) == at
        assert ev.view(new.results[0]).offset.tolist() == [3] * 64
        new.erase()
    loop = _op(v["k"].owner.owner)
    for _ in range(20):          # (nested: the loop's induction variable and its ops)
        old = loop.clone(ip=ir.InsertionPoint(loop))
        iv = old.regions[0].blocks[0].arguments[0]
        ev.bind(iv, 5)
        b = old.regions[0].blocks[0].operations[0].results[0]
        assert ev.value(b).tolist() == (tid * 4 + 5).tolist()
        at = hash(b), hash(iv)
        old.erase()
        new = loop.clone(ip=ir.InsertionPoint(loop))
        nb = new.regions[0].blocks[0].operations[0].results[0]
        niv = new.regions[0].blocks[0].arguments[0]
        reused += (hash(nb), hash(niv)) == at
        with pytest.raises(IRError, match="block argument #0"):     # (unbound: not 5)
            ev.value(nb)
        new.erase()
    assert reused >= 20, reused


def test_evaluators_told_of_one_erasure_each_forget_its_nested_values():
    """Every live evaluator told of one erasure forgets the ops nested in it, their values
    and its bindings of their block arguments, from one reading of them that the telling
    shares (``ir_changes.told_together``: None outside a telling, a cache called directly
    reading its own); the evaluators made first and last alike (each told in turn)."""
    from pipeline_mlir.dialect.ir_changes import told_together
    ctx, m, v, first = _evaluator()
    evs = [first, Evaluator((64, 1, 1)), Evaluator((64, 1, 1))]
    tid = np.arange(64)
    loop = _op(v["k"].owner.owner)
    assert told_together() is None
    clones = []
    for n, ev in enumerate(evs):
        ev.bind(v["k"], 3)
        old = loop.clone(ip=ir.InsertionPoint(loop))
        iv = old.regions[0].blocks[0].arguments[0]
        b = old.regions[0].blocks[0].operations[0].results[0]
        for e in evs:               # (each evaluator holds each clone's values)
            e.bind(iv, 5 + n)
            assert e.value(b).tolist() == (tid * 4 + 5 + n).tolist()
        clones.append((old, iv, b))
    for old, iv, b in clones:
        old.erase()
        for e in evs:
            assert iv not in e.bound and b not in e.memo
    assert told_together() is None


def test_each_comparison_computes_its_own_predicate():
    """``lane_ops.compare`` computes only the predicate asked (once it computed all ten
    and picked one): each of ``arith.cmpi``'s predicates, signed and unsigned, on values of
    both signs, against Python's integers (a negative value read unsigned as 2^64 + it)."""
    from pipeline_mlir.analysis.lane_ops import compare
    a = np.array([-5, -1, 0, 3, 7, 7, -(1 << 63)], dtype=np.int64)
    b = np.array([3, -1, 0, -2, 7, 9, 5], dtype=np.int64)
    ops = [lambda x, y: x == y, lambda x, y: x != y, lambda x, y: x < y,
           lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y]
    for pred in range(10):
        op = ops[pred if pred < 6 else pred - 4]
        unsigned = pred >= 6
        want = [int(op(x % 2**64 if unsigned else x, y % 2**64 if unsigned else y))
                for x, y in zip(a.tolist(), b.tolist())]
        assert compare(pred, a, b).tolist() == want, pred
        # without a negative operand the unsigned predicates are the signed ones
        assert compare(pred, np.abs(a[:-1]), np.abs(b[:-1])).tolist() == \
            [int(op(abs(x), abs(y))) for x, y in zip(a[:-1].tolist(), b[:-1].tolist())], pred


FACTS = """
func.func @f() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %fixed = arith.cmpi ult, %tid, %c4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %s = arith.subi %tid, %k : index
    %moved = arith.cmpi ult, %s, %c4 : index
  }
  return
}
"""


def test_a_fact_is_memoized_until_what_it_read_is_rebound():
    """``exact_on_machine`` memoizes its verdict per op as a fact of the evaluator
    (:meth:`~Evaluator.fact`): a bind of the loop variable forgets the verdict on an op
    that reads it (an unsigned comparison of ``tid - k``: exact at ``k = 0``, not at
    ``k = 1``, where thread 0 holds -1) and keeps the one on an op that does not (the
    index of the ops a fact names, ``_named``, forgets it too); a
    :class:`Repeated` evaluator takes from its source only the facts that do not read its
    varying value (the source's facts planted to show which are taken)."""
    ctx = new_context()
    m = ir.Module.parse(FACTS, ctx)
    cmps = walk_ops(m.operation, lambda o: o.name == "arith.cmpi")
    fixed, moved = cmps
    k = walk_ops(m.operation, lambda o: o.name == "scf.for")[0].regions[0].blocks[0] \
        .arguments[0]
    with ctx:
        ev = Evaluator((64, 1, 1))
        ev.bind(k, 0)
        assert exact_on_machine(ev, [fixed, moved])
        assert ("exact", moved) in ev.facts and ("exact", fixed) in ev.facts
        ev.bind(k, 1)
        assert ("exact", moved) not in ev.facts and ("exact", fixed) in ev.facts
        # (and the index of the ops that name a fact with it: not kept for one forgotten)
        assert ("exact", moved) not in ev._named[moved] and ("exact", fixed) in ev._named[fixed]
        assert not exact_on_machine(ev, [moved]) and exact_on_machine(ev, [fixed])
        ev.bind(k, 0)
        assert exact_on_machine(ev, [moved])

        src = SideBySide((64, 1, 1), 2, launch_values=False)
        src.bind(k, 0)
        assert exact_on_machine(src, [fixed, moved])
        src.facts[("exact", fixed)] = "planted"
        src.facts[("exact", moved)] = "planted"
        rep = Repeated(src, 2, k)
        rep.bind(k, np.repeat([0, 1], src.threads))
        assert rep.fact(("exact", fixed), lambda: None) == "planted"
        assert exact_on_machine(rep, [moved]) is False


def test_forgetting_an_op_forgets_the_facts_named_by_it():
    """:meth:`Evaluator.forget_ops` drops the :meth:`~Evaluator.fact` verdicts keyed by an
    op it forgets (``exact_on_machine``'s ``("exact", op)``), as it drops the op's values:
    an op made after the erasure at the freed address must not inherit the verdict."""
    from pipeline_mlir.analysis.exact_ints import exact_on_machine
    ctx, m, v, ev = _evaluator()
    ev.bind(v["k"], 3)
    ev.bind(v["j"], 2)
    op_c, op_d = _op(v["c"].owner), _op(v["d"].owner)
    assert exact_on_machine(ev, [op_c, op_d])
    assert ("exact", op_c) in ev.facts and ("exact", op_d) in ev.facts
    ev.forget_ops([op_c])
    assert ("exact", op_c) not in ev.facts and ("exact", op_d) in ev.facts


def test_a_use_given_another_value_forgets_what_was_computed_from_the_old_one():
    """An op given another operand (``op.operands[i] = ...``, ``replace_uses_of_with``) or
    a value's uses given another (``replace_all_uses_with``) computes another value: every
    live evaluator forgets what was computed from the old one first (``forget_uses``);
    without it the memoized values came back.  It drops the operands it read off the IR
    (``Evaluator._plans``) too: kept, the old operand was evaluated again."""
    ctx, m, v, ev = _evaluator()
    tid = np.arange(64)
    ev.bind(v["k"], 3)
    ev.bind(v["j"], 2)
    assert ev.value(v["c"]).tolist() == ((tid * 4 + 3) * 4).tolist()
    add_b = _op(v["b"].owner)
    add_b.operands[0] = v["k"]                          # b = k + k
    assert ev.value(v["c"]).tolist() == [24] * 64
    add_b.replace_uses_of_with(v["k"], v["j"])          # b = j + j
    assert ev.value(v["c"]).tolist() == [16] * 64
    assert ev.value(v["d"]).tolist() == (tid * 4 + 2).tolist()
    v["a"].replace_all_uses_with(v["j"])                # d = j + j
    assert ev.value(v["d"]).tolist() == [4] * 64


def test_an_attribute_changed_in_place_forgets_what_was_computed_from_the_op():
    """An attribute changed in place changes what its op computes (a constant's value
    here; an LDS buffer's swizzle, which ``frontend/regcopy.py`` drops while an evaluator
    lives): written through ``ir_changes.set_attribute`` every live evaluator forgets the
    op's values and what was computed from them first (a binding stays); written straight
    into ``op.attributes`` the old values came back.  A pass manager's run (C++ rewrites
    that free ops unseen) makes them forget everything."""
    from pipeline_mlir.dialect.bindings import passmanager
    from pipeline_mlir.dialect.ir_changes import set_attribute

    ctx, m, v, ev = _evaluator()
    tid = np.arange(64)
    ev.bind(v["k"], 3)
    assert ev.value(v["c"]).tolist() == ((tid * 4 + 3) * 4).tolist()
    c4 = _op(_op(v["a"].owner).operands[1].owner)
    with ctx:
        set_attribute(c4, "value", ir.IntegerAttr.get(ir.IndexType.get(), 8))
    assert ev.value(v["c"]).tolist() == ((tid * 8 + 3) * 8).tolist()
    assert ev.bound[v["k"]].tolist() == [3] * 64
    passmanager.PassManager.parse("builtin.module(canonicalize)", ctx).run(m.operation)
    assert not (ev.memo or ev.bound or ev.views or ev.facts)


#: a select whose condition reads the thread id, and an integer computed from an i1
SELECT = """
func.func @f() {
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %true = arith.constant true
  %e = arith.index_castui %true : i1 to index
  %cond = arith.cmpi slt, %tid, %c4 : index
  %s = arith.select %cond, %c4, %tid : index
  return
}
"""


def test_what_is_read_off_the_ir_is_forgotten_when_the_ir_changes():
    """``Evaluator.structure`` holds what callers read off the IR alone (the ops that
    compute a select's integer condition, ``frontend/select_masks.py``), shared by a
    :class:`Repeated` with its source, and is dropped at every change of the IR the
    evaluator is told of: a condition rewired to an integer computed from an ``i1`` is
    refused, not taken on the ops read off it before."""
    from pipeline_mlir.frontend.select_masks import truth

    ctx = new_context()
    m = ir.Module.parse(SELECT, ctx)
    ops = {o.name: o for o in walk_ops(m.operation, lambda o: len(o.results) == 1)}
    ev = Evaluator((64, 1, 1))
    sel, cmp = ops["arith.select"], ops["arith.cmpi"]
    with ctx:
        assert truth(sel, ev, cmp.results[0]).tolist() == [True] * 4 + [False] * 60
        assert ev.structure
        assert Repeated(ev, 2, ops["gpu.thread_id"].results[0]).structure is ev.structure
        cmp.operands[0] = ops["arith.index_castui"].results[0]
        assert not ev.structure
        with pytest.raises(IRError, match="goes through an i1 value"):
            truth(sel, ev, cmp.results[0])


#: an affine map applied to the thread id (its expression tree read once per IR)
AFFINE = """
func.func @f() {
  %c3 = arith.constant 3 : index
  %tid = gpu.thread_id x
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0 floordiv 2)>(%tid)[%c3]
  %b = affine.apply affine_map<(d0) -> (d0)>(%tid)
  return
}
"""


def test_an_affine_map_changed_in_place_is_read_again():
    """The evaluator reads each affine map's expression trees off the bindings once
    (``Evaluator.maps``, by the map attribute, which never changes): a map written in
    place through ``ir_changes.set_attribute`` is another attribute, evaluated next (kept
    by its op, the old map came back).  A map that is the identity gives its own array,
    not its operand's (the memo's arrays are never one another's)."""
    from pipeline_mlir.dialect.ir_changes import set_attribute

    ctx = new_context()
    m = ir.Module.parse(AFFINE, ctx)
    a, b = (o for o in walk_ops(m.operation, lambda o: o.name == "affine.apply"))
    ev = Evaluator((64, 1, 1))
    tid = np.arange(64)
    assert ev.value(a.results[0]).tolist() == (tid * 4 + 1).tolist()
    assert list(ev.maps) == [a.attributes["map"]]
    with ctx:
        set_attribute(a, "map", ir.AffineMapAttr.get(ir.AffineMap.get(1, 1, [
            ir.AffineDimExpr.get(0) * 8 +
            ir.AffineSymbolExpr.get(0)])))
    assert ev.value(a.results[0]).tolist() == (tid * 8 + 3).tolist()
    thread = ev.value(_op(b.operands[0].owner).results[0])
    assert ev.value(b.results[0]).tolist() == tid.tolist()
    assert ev.value(b.results[0]) is not thread
