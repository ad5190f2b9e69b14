"""The range arithmetic of ``pipeline_mlir/analysis/int_ranges.py`` (used by
``index_bounds`` and ``int_forms``): every result range is the exact hull of the results
over all operand values (checked by enumeration of small ranges)."""

from __future__ import annotations

import itertools

import pytest

from pipeline_mlir.analysis import int_ranges as R

_SIGNED = [(-5, -2), (-3, 4), (0, 0), (0, 7), (2, 9), (-1, -1)]
_POSITIVE = [(1, 1), (1, 4), (3, 3), (2, 7)]
_NONNEG = [(0, 0), (0, 5), (3, 6), (4, 20), (9, 9)]


def _hull(values):
    values = list(values)
    return min(values), max(values)


def _each(a, b):
    return itertools.product(range(a[0], a[1] + 1), range(b[0], b[1] + 1))


@pytest.mark.parametrize("name, f, lefts, rights", [
    ("add", lambda x, y: x + y, _SIGNED, _SIGNED),
    ("mul", lambda x, y: x * y, _SIGNED, _SIGNED),
    ("floordiv", lambda x, y: x // y, _SIGNED, _POSITIVE),
])
def test_the_range_is_the_exact_hull(name, f, lefts, rights):
    for a, b in itertools.product(lefts, rights):
        assert getattr(R, name)(a, b) == _hull(f(x, y) for x, y in _each(a, b)), (a, b)


@pytest.mark.parametrize("f", [max, min])
def test_pick(f):
    for a, b in itertools.product(_SIGNED, _SIGNED):
        assert R.pick(f, a, b) == _hull(f(x, y) for x, y in _each(a, b))


def test_remainder_is_a_sound_bound():
    """Exact where the dividend stays below every divisor; else ``[0, min(a, b - 1)]``."""
    for a, b in itertools.product(_NONNEG, _POSITIVE):
        lo, hi = R.remainder(a, b)
        got = _hull(x % y for x, y in _each(a, b))
        assert lo <= got[0] and got[1] <= hi, (a, b)
        if a[1] < b[0]:
            assert (lo, hi) == got
    assert R.remainder((4, 20), (3, 3)) == (0, 2)
