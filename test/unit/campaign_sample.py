"""The fixed sample of a mutation campaign that the default run keeps (the rest is the long
tier: ``long_tier.py``, docs/testing.md "The long tier").

A campaign is a table of :class:`Case`: each names the kinds it holds, as ``(axis, value)``
pairs (its kernel family, its mutation operator, its verdict, ...).  The rule,
:func:`first_of_each`: walk the table in its order and keep a case when it holds a kind no
case kept before it holds.  So the sample holds every family, operator and verdict of the
table (a new operator's first case is kept by the rule itself), a table ordered cheapest
first keeps the cheap cases, and every other case is marked ``long`` by :func:`params`, its
reason naming the kept cases that hold its kinds.  :func:`uncovered` is the check of a
module's parametrisation as it stands (a mark added by hand included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import pytest

import long_tier


@dataclass(frozen=True)
class Case:
    """One item of a campaign: its pytest id, the kinds it holds (``(axis, value)`` pairs),
    its parametrisation's arguments and the test function it parametrises (``test``: a
    campaign whose operators are test functions of their own)."""
    id: str
    kinds: tuple[tuple[str, str], ...]
    values: tuple = ()
    test: str = ""


def first_of_each(cases: Sequence[Case]) -> list[Case]:
    """The cases the default run keeps: each one that holds a kind no case before it in
    ``cases`` that was kept holds."""
    held: set[tuple[str, str]] = set()
    kept = []
    for case in cases:
        if not set(case.kinds) <= held:
            kept.append(case)
            held.update(case.kinds)
    return kept


def params(cases: Sequence[Case], test: str = "") -> list:
    """The cases of ``cases`` of function ``test`` as ``pytest.param``s: those of the
    :func:`first_of_each` sample of the whole table plain, every other one marked ``long``
    with the reason that names the kept cases holding its kinds."""
    kept = first_of_each(cases)
    out = []
    for case in (c for c in cases if c.test == test):
        marks = ()
        if case not in kept:
            by = {kind: next(k.test + f"[{k.id}]" for k in kept if kind in k.kinds)
                  for kind in case.kinds}
            marks = pytest.mark.long(
                "the rest of the campaign beyond its sample (campaign_sample.py): " +
                ", ".join(f"{axis} {value} held by {by[(axis, value)]}"
                          for axis, value in case.kinds)),
        out.append(pytest.param(*case.values, id=case.id, marks=marks))
    return out


def default_ids(parametrisation: Iterable, test: str = "") -> set[tuple[str, str]]:
    """(``test``, id) of each ``pytest.param`` of ``parametrisation`` (function ``test``'s)
    that the default run keeps: no ``long`` mark."""
    return {(test, p.id) for p in parametrisation
            if not any(m.name == long_tier.MARKER for m in p.marks)}


def uncovered(cases: Sequence[Case], kept: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The kinds some case of ``cases`` holds and no case of ``kept`` ((test, id) pairs,
    :func:`default_ids`) does."""
    every = {kind for case in cases for kind in case.kinds}
    return every - {kind for case in cases if (case.test, case.id) in kept
                    for kind in case.kinds}
