"""Closed integer ranges ``(lo, hi)`` of exact Python integers, and what they decide.

A range is a pair ``(lo, hi)`` with ``lo <= hi``; ``None`` stands for "no value yet" (a
point the fixed point of :mod:`pipeline_mlir.analysis.int_branches` has not reached) and is
absorbed by :func:`hull` and kept by :func:`meet`.  Ranges are never cut to a bit width:
:func:`fits` says whether one lies within a signed width, :func:`signed` wraps one value.
:func:`decide` says whether ``x <rel> 0`` holds for all, none or some of a range.
:func:`add`, :func:`mul`, :func:`pick` (max / min), :func:`floordiv` and :func:`remainder`
give the range of an operation's result from its operands' ranges.
"""

from __future__ import annotations

#: a bound standing for "unbounded" in a branch's facts (beyond every integer type the
#: analyses meet; ranges themselves are exact Python integers, never cut)
UNBOUNDED = 1 << 80


def signed(value: int, width: int) -> int:
    """``value`` modulo 2^width as a signed integer of ``width`` bits (an i1's true: -1)."""
    return (value + (1 << (width - 1))) % (1 << width) - (1 << (width - 1))


def signed_range(width: int) -> tuple[int, int]:
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def fits(rng, width: int) -> bool:
    """Whether every value of ``rng`` is a signed integer of ``width`` bits (vacuously
    for None: a value that does not occur yet, during the fixed point)."""
    if rng is None:
        return True
    lo, hi = signed_range(width)
    return lo <= rng[0] and rng[1] <= hi


def hull(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return min(a[0], b[0]), max(a[1], b[1])


def meet(a, b):
    """``a`` narrowed by ``b``; an empty meet keeps ``a`` (the point is unreachable)."""
    if a is None or b is None:
        return a
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else a


def within(a, b) -> bool:
    return a is None or (b is not None and b[0] <= a[0] and a[1] <= b[1])


def nonneg(rng) -> bool:
    return rng is None or rng[0] >= 0


def ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


# ---- the range of an operation's result from its operands' ranges (exact integers) ------

def add(a, b):
    return a[0] + b[0], a[1] + b[1]


def mul(a, b):
    p = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(p), max(p)


def pick(f, a, b):
    """The range of ``f(x, y)`` for ``f`` ``max`` or ``min`` (both monotone)."""
    return f(a[0], b[0]), f(a[1], b[1])


def floordiv(a, b):
    """The range of ``floor(x / y)``; ``b`` must be positive (``b[0] > 0``)."""
    return min(a[0] // b[0], a[0] // b[1]), max(a[1] // b[0], a[1] // b[1])


def remainder(a, b):
    """The range of ``x mod y`` for ``x`` non-negative and ``y`` positive (``b[0] > 0``)."""
    return a if a[1] < b[0] else (0, min(a[1], b[1] - 1))


#: icmp predicates (LLVM's numbering) -> (relation of a - b to 0, unsigned)
PREDICATES = {0: ("eq", False), 1: ("ne", False), 2: ("lt", False), 3: ("le", False),
              4: ("gt", False), 5: ("ge", False), 6: ("lt", True), 7: ("le", True),
              8: ("gt", True), 9: ("ge", True)}
NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "le": "gt", "gt": "le", "ge": "lt"}


def decide(rel: str, rng) -> bool | None:
    """Whether ``x <rel> 0`` for every x in ``rng`` (True), for none (False), or either."""
    if rng is None:
        return None
    lo, hi = rng
    yes = {"lt": hi < 0, "le": hi <= 0, "gt": lo > 0, "ge": lo >= 0,
           "eq": lo == hi == 0, "ne": lo > 0 or hi < 0}[rel]
    no = {"lt": lo >= 0, "le": lo > 0, "gt": hi <= 0, "ge": hi < 0,
          "eq": lo > 0 or hi < 0, "ne": lo == hi == 0}[rel]
    return True if yes else False if no else None
