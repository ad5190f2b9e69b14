"""The rule of a campaign's default-run sample (``campaign_sample.py``)."""

from __future__ import annotations

import campaign_sample as S


def _case(id_: str, family: str, operator: str, verdict: str, test: str = "") -> S.Case:
    return S.Case(id_, (("family", family), ("operator", operator), ("verdict", verdict)),
                  (id_,), test)


TABLE = [_case("a0", "a", "drop", "refused"), _case("a1", "a", "move", "refused"),
         _case("a2", "a", "drop", "exact"), _case("b0", "b", "drop", "refused"),
         _case("b1", "b", "move", "exact")]


def test_the_first_case_of_each_kind_is_kept():
    assert [c.id for c in S.first_of_each(TABLE)] == ["a0", "a1", "a2", "b0"]
    # an operator added to the table is in the sample without naming it there
    grown = TABLE + [_case("b2", "b", "swap", "exact")]
    assert [c.id for c in S.first_of_each(grown)][-1] == "b2"


def test_the_rest_is_marked_long_with_what_holds_its_kinds():
    params = S.params(TABLE)
    assert S.default_ids(params) == {("", "a0"), ("", "a1"), ("", "a2"), ("", "b0")}
    (held,) = [p for p in params if p.marks]
    assert held.id == "b1" and held.values == ("b1",)
    reason = held.marks[0].args[0]
    assert "family b held by [b0]" in reason and "operator move held by [a1]" in reason \
        and "verdict exact held by [a2]" in reason
    assert S.uncovered(TABLE, S.default_ids(params)) == set()


def test_a_sample_missing_a_kind_is_told():
    """The check a campaign's module runs on its own parametrisation fails when a kind is
    held by long cases only (a case marked long by hand, the table reordered)."""
    kept = S.default_ids(S.params(TABLE)) - {("", "a1")}
    assert S.uncovered(TABLE, kept) == {("operator", "move")}
    split = [_case("x", "a", "drop", "refused", "t_one"), _case("y", "a", "move", "exact",
                                                                 "t_two")]
    assert S.default_ids(S.params(split, "t_two"), "t_two") == {("t_two", "y")}
    assert S.uncovered(split, {("t_one", "x")}) == {("operator", "move"), ("verdict", "exact")}
