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
                                 (Form(g=8, d=5, c=2), 8)])
def test_a_division_is_exact_on_every_size_of_its_piece(f, k):
    for p, q in _settle(f, Piece(1, 40), lambda p, f: p.divide(f, k)):
        for g, x in itertools.product(range(3), range(p.lo, p.hi + 1)):
            assert _value(q, g, x) == _value(f, g, x) // k


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
