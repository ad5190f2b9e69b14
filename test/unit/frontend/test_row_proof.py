"""pipeline_mlir/frontend/row_proof.py: the affine forms, signs and divisions the proof of
the row masks for every size rests on, against the integers they stand for."""

from __future__ import annotations

import itertools

import pytest

from pipeline_mlir.frontend.row_proof import Form, Piece, Split, Unproven


def _value(f: Form, g: int, d: int) -> int:
    return f.g * g + f.d * d + f.c


def _settle(f: Form, piece: Piece, op):
    """``op(piece, f)`` on each piece the splits leave: [(piece, result)]."""
    out, todo = [], [piece]
    while todo:
        p = todo.pop()
        try:
            out.append((p, op(p, f)))
        except Split as s:
            todo += [Piece(p.lo, s.at - 1), Piece(s.at, p.hi)]
    return out


@pytest.mark.parametrize("d,c", [(1, -5), (-1, 5), (2, -7), (-3, 9), (0, 4), (0, 0),
                                 (3, 0)])
def test_a_sign_holds_on_every_size_of_its_piece(d, c):
    pieces = _settle(Form(d=d, c=c), Piece(1, None), Piece.sign)
    for (p, sign), x in itertools.product(pieces, range(1, 40)):
        if p.lo <= x and (p.hi is None or x <= p.hi):
            v = d * x + c
            assert sign == (v > 0) - (v < 0), (p.lo, p.hi, x)
    # the pieces cover every size once
    assert sorted((p.lo for p, _ in pieces)) == sorted(
        [1] + [p.hi + 1 for p, _ in pieces if p.hi is not None])


def test_the_workgroup_decides_no_sign_it_cannot():
    assert Piece(1, None).sign(Form(g=128, d=1)) == 1
    assert Piece(1, 5).sign(Form(g=-1, d=-1)) == -1
    with pytest.raises(Unproven, match="depends on the workgroup"):
        Piece(1, None).sign(Form(g=1, c=-3))


@pytest.mark.parametrize("f,k", [(Form(g=128, d=256, c=-7), 128), (Form(d=3, c=1), 4),
                                 (Form(g=8, d=5, c=2), 8), (Form(g=4, d=-3, c=50), 4),
                                 (Form(g=-128, d=-1, c=-1), 128), (Form(d=-7, c=-3), 5),
                                 (Form(g=128, d=1, c=-1), 128)])
def test_a_division_is_exact_on_every_size_of_its_piece(f, k):
    """Negative numerators and falling ones included; where the quotient is one value on
    the piece (IREE's ``(128 q + r - 1) div 128`` for ``r`` in ``1 .. 128``) it is taken
    whole, else cut where it changes, never into more pieces than it has values."""
    pieces = _settle(f, Piece(1, 40), lambda p, f: p.divide(f, k))
    for p, q in pieces:
        for g, x in itertools.product(range(3), range(p.lo, p.hi + 1)):
            assert _value(q, g, x) == _value(f, g, x) // k
    assert len(pieces) == len({(f.d * x + f.c) // k for x in range(1, 41)}) or \
        (f.g % k == 0 and f.d % k == 0 and len(pieces) == 1)


def test_a_division_of_the_workgroup_or_of_unbounded_sizes_is_unproven():
    with pytest.raises(Unproven, match="not affine in the size"):
        Piece(1, None).divide(Form(d=3), 4)
    with pytest.raises(Unproven, match="not affine in the size"):
        Piece(1, 5).divide(Form(g=3), 4)


def test_an_unsigned_comparison_takes_only_non_negative_operands():
    from pipeline_mlir.frontend.row_proof import _cmp
    # ult (6): d - 3 < 2, but d - 3 is negative at d = 1, 2
    with pytest.raises(Unproven, match="may be negative"):
        _cmp(Piece(1, 2), 6, Form(d=1, c=-3), Form(c=2))
    assert _cmp(Piece(4, 4), 6, Form(d=1, c=-3), Form(c=2)) == 1


@pytest.mark.parametrize("f,want", [(Form(g=128), True), (Form(g=128, d=1, c=-1), True),
                                    (Form(g=1, c=-1), None), (Form(g=-1, d=5), None),
                                    (Form(d=-1), None)])
def test_non_negative_where_the_workgroup_has_no_one_sign(f, want):
    """``128 g`` is 0 at g = 0 and positive past it: no sign, but never negative, which
    settles ``>= 0``, ``< 0``, min and max (the late form's ``v mod X`` and its
    corrections); what may be negative stays unproven."""
    from pipeline_mlir.frontend.row_proof import _cmp, _minmax

    piece = Piece(1, None)
    if want is None:            # negative somewhere: False, or unproven where g decides
        try:
            assert not piece.at_least_zero(f)
        except Unproven:
            pass
        return
    assert piece.at_least_zero(f)
    assert _cmp(piece, 2, f, Form()) == 0 and _cmp(piece, 5, f, Form()) == 1   # slt, sge
    assert _cmp(piece, 4, Form(), f) == 0 and _cmp(piece, 3, Form(), f) == 1   # sgt, sle
    assert _minmax(piece, [f, Form()], -1) is not f
    assert _minmax(piece, [Form(), f], 1) is f
    for g, x in itertools.product(range(4), range(1, 9)):
        assert _value(f, g, x) >= 0


def test_a_narrow_integer_that_moves_with_the_size_is_unproven():
    """An ``i32`` value whose form holds the workgroup or the size wraps from 2^31, which
    the forms do not model: unproven, where an ``index`` one is taken."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.row_proof import SymbolicRows

    text = ("func.func @f(%g: index, %n: index) {\n"
            "  %a = arith.addi %g, %n : index\n"
            "  %b = arith.index_cast %a : index to i32\n  return\n}\n")
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        f = next(iter(walk_ops(module.operation, lambda o: o.name == "func.func")))
        g, n = f.regions[0].blocks[0].arguments
        (wide,) = walk_ops(module.operation, lambda o: o.name == "arith.addi")
        (narrow,) = walk_ops(module.operation, lambda o: o.name == "arith.index_cast")
        rows = SymbolicRows({g: Form(g=1), n: Form(g=128, d=1)}, Piece(1, None), 0, {}, {})
        assert repr(rows.form(wide.results[0])) == "129*g + 1*d + 0"
        with pytest.raises(Unproven, match="an i32 value .* may wrap"):
            rows.form(narrow.results[0])


#: a row mask that thread 1 proves size by size up to 50 (``min(d, 50 tid) mod 2``: 50
#: single sizes), thread 0 on one piece; rows ``4 g + 1000``, one each (T = 4)
ONE_THREAD_SPLITS = """
func.func @f(%g: index, %d: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c50 = arith.constant 50 : index
  %tid = gpu.thread_id x
  %lim = arith.muli %tid, %c50 : index
  %x = arith.minsi %d, %lim : index
  %m = arith.remsi %x, %c2 : index
  %s = arith.subi %c1, %m : index
  %row = affine.apply affine_map<(d0) -> (d0 * 4 + 1000)>(%g)
  %lr = arith.constant 1000 : index
  return
}
"""


def _one_thread_splits(ctx, text: str = ONE_THREAD_SPLITS):
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.dialect.ir_io import walk_ops

    m = ir.Module.parse(text, ctx)
    (f,) = walk_ops(m.operation, lambda o: o.name == "func.func")
    g, d = f.regions[0].blocks[0].arguments
    by = {o.name: o for o in walk_ops(f, lambda o: True)}
    lr = walk_ops(f, lambda o: o.name == "arith.constant")[-1]
    values = {"size": by["arith.subi"].results[0], "row": by["affine.apply"].results[0],
              "lr": lr.results[0]}
    return m, by["affine.apply"], values, {g: Form(g=1), d: Form(d=1)}


def test_the_piece_bound_is_per_thread(monkeypatch):
    """:data:`MAX_PIECES` bounds one thread's proof: thread 1 needs about 50 pieces; with
    the bound at 30 it is refused, though thread 0 needs one (the bound was taken over all
    threads: 60 here, or 4096 x 256 pieces for one thread of a 256-thread workgroup)."""
    from pipeline_mlir.dialect.bindings import new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import row_proof

    with new_context() as ctx:
        m, read, values, leaves = _one_thread_splits(ctx)
        assert row_proof.prove_rows(read, values, leaves, 4, 2) > 50
        monkeypatch.setattr(row_proof, "MAX_PIECES", 30)
        with pytest.raises(IRError, match=r"its row mask is not proven for every size \(more "
                                          r"than 30 pieces on thread 1, the last at sizes "
                                          r"T g \+ d for d in "):
            row_proof.prove_rows(read, values, leaves, 4, 2)


def test_only_the_x_thread_id_is_the_thread():
    """The thread id's dimension is read as the attribute (``#gpu.dim<y>``), not its text:
    a mask of ``thread_id y`` is not proven."""
    from pipeline_mlir.dialect.bindings import new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import row_proof

    with new_context() as ctx:
        m, read, values, leaves = _one_thread_splits(ctx, ONE_THREAD_SPLITS.replace(
            "gpu.thread_id x", "gpu.thread_id y"))
        with pytest.raises(IRError, match=r"not proven for every size \('gpu.thread_id' "
                                          r"along #gpu.dim<y>, on thread 0 "):
            row_proof.prove_rows(read, values, leaves, 4, 2)


def test_values_are_numbered_once_per_proof():
    """The forms are kept by value number (``SymbolicRows``): two handles of one value get
    one number, two values two, and the threads and pieces sharing ``plans`` share the
    numbers; what an op says of itself is kept by its Python object, so an entry left by
    another object (one since freed whose ``id`` was reused) is read again, not taken."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.row_proof import SymbolicRows

    text = ("func.func @f(%g: index, %n: index) {\n"
            "  %a = arith.addi %g, %n : index\n"
            "  %b = arith.subi %n, %g : index\n  return\n}\n")
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        g, n = f.regions[0].blocks[0].arguments
        (add,) = walk_ops(module.operation, lambda o: o.name == "arith.addi")
        (sub,) = walk_ops(module.operation, lambda o: o.name == "arith.subi")
        leaves, plans = {g: Form(g=1), n: Form(g=128, d=1)}, {}
        rows = SymbolicRows(leaves, Piece(1, None), 0, {}, {}, plans)
        a, b = rows.numbers.of(add.results[0]), rows.numbers.of(sub.results[0])
        assert a != b and rows.numbers.of(add.results[0]) == a      # a second handle
        assert repr(rows.form(add.results[0])) == "129*g + 1*d + 0"
        assert repr(rows.form(sub.results[0])) == "127*g + 1*d + 0"
        other = SymbolicRows(leaves, Piece(3, 3), 1, {}, {}, plans)
        assert other.numbers is rows.numbers and other.numbers.of(sub.results[0]) == b
        assert repr(other.form(add.results[0])) == "129*g + 0*d + 3"
        held = plans[a][0]              # the addi's object the plan holds
        plans[("operands", id(held))] = (object(), (b, b))         # another object's entry
        fresh = SymbolicRows(leaves, Piece(1, None), 0, {}, {}, plans)
        assert repr(fresh.form(add.results[0])) == "129*g + 1*d + 0"


#: a row mask no thread id reaches, 0 below the size 20 and 1 from it (rows ``4 g + 1000``)
SHARED_CUTS = """
func.func @f(%g: index, %d: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %lt = arith.cmpi slt, %d, %c20 : index
  %s = arith.select %lt, %c0, %c1 : index
  %row = affine.apply affine_map<(d0) -> (d0 * 4 + 1000)>(%g)
  %lr = arith.constant 1000 : index
  return
}
"""


def test_a_cut_no_thread_id_reaches_is_found_once_per_piece(monkeypatch):
    """A value no thread id reaches is the same on every thread: its form on a piece is
    computed once for them all, and so is the cut it needs (``shared``, per piece: the
    comparison with 20 cuts the sizes at 20, then the piece from 20 at 21); thread 1
    takes both from thread 0 and computes no comparison.  Each piece keeps its own cut
    (one cut read on another piece would cut it again where it starts, without end)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend import row_proof

    calls = []
    cmpi = row_proof._OPS["arith.cmpi"]
    monkeypatch.setitem(row_proof._OPS, "arith.cmpi",
                        lambda sr, op: calls.append(sr.tid) or cmpi(sr, op))
    with new_context() as ctx:
        m = ir.Module.parse(SHARED_CUTS, ctx)
        (f,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        g, d = f.regions[0].blocks[0].arguments
        by = {o.name: o for o in walk_ops(f, lambda o: True)}
        values = {"size": by["arith.select"].results[0], "row": by["affine.apply"].results[0],
                  "lr": walk_ops(f, lambda o: o.name == "arith.constant")[-1].results[0]}
        assert row_proof.prove_rows(by["affine.apply"], values, {g: Form(g=1), d: Form(d=1)},
                                    4, 2) == 6      # (1 .. 19, 20, 21 .. any) per thread
    assert calls == [0] * 5         # 2 cuts, 3 pieces proven: thread 0's alone
