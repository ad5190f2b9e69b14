"""Proofs over a box of workgroups and K steps from a few of its points.

A proof over the whole grid (:mod:`~pipeline_mlir.frontend.kept_layout`'s kept-mask proof)
evaluates every thread of every workgroup at every K step, so its cost grows with the grid.
Most of that grid behaves alike: C's edges are where the masks of a kernel's copies move.
This module evaluates a box of workgroup ids and K steps (a product of integer ranges, one
per coordinate) at a few of its points only, and says when what was evaluated there holds
at every point of the box.

The argument: each value the evaluation computes is, per thread, an affine function of the
box's coordinates, exact at every integer point of the box (the workgroup ids and the loop
variable are; a constant and a thread id are).  An op keeps that when, per thread:

* its integer operands are the same at every point evaluated: then each is constant over
  the box (an affine function equal at every corner of a box is constant on it), and so
  is the op's result, whatever the op;
* else its rule holds (:func:`certify`): a sum, or a product by a constant, whose result
  is the exact sum at every point (the exact value is affine, so its extremes are at the
  corners: no wrap at a corner, none in the box); a division, remainder or right shift by
  a constant whose quotient is the same at every corner (the dividend's extremes are at
  the corners and the quotient is monotone in it, so it is constant: the remainder is
  the dividend less a constant); a ``min``/``max`` whose operands compare the same way
  at every corner; a comparison whose result is the same at every corner (for ``eq`` /
  ``ne`` found unequal, the difference of one strict sign at every corner); a select
  whose condition is constant; a cast whose result is its operand at every corner (the
  values a cast keeps form an interval); a value passed on (a hint, ``readfirstlane``:
  one lane's affine value); an affine map checked term by term alike.

Anything else, or a rule that fails, is :class:`Undecided`: the caller splits the box
(:func:`~pipeline_mlir.analysis.box_settle.settle`) and proves the halves, down to single
points, where every value is constant and nothing is left to decide.  What a proof then
compares (equal elements, a run inside the buffer, zeros) must itself hold at the points
evaluated and be decided the same way at each: two affine values equal at every corner are
equal on the box; a test of an affine value against a bound, the same at every corner, is
the same on the box (:func:`decided_between`).  As a check of the argument itself, the
values compared are also checked affine at the corners from the box's lowest point and its
steps along each coordinate (:func:`check_affine`): a corner off the plane they span is
:class:`Undecided`.
"""

from __future__ import annotations

import itertools

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, VALUE_CASTS, dense_i64, fold_tree,
                                             int_attr, map_trees, segments)
from pipeline_mlir.analysis.lane_ops import bit_width
from pipeline_mlir.analysis.tiled_eval import Tiled, TileSource

#: the ops whose rule is the sign of their operands' difference (a cut where it changes)
_SIGNS = frozenset(("maxsi", "minsi", "maxui", "minui", "arith.cmpi", "llvm.icmp",
                    "llvm.intr.smax", "llvm.intr.smin", "llvm.intr.umax", "llvm.intr.umin"))
#: the ops whose rule is a quotient's (:func:`_cut`)
_QUOTIENTS = frozenset(("divsi", "floordivsi", "ceildivsi", "sdiv", "shrsi", "ashr", "divui",
                        "ceildivui", "udiv", "shrui", "lshr", "divu", "remsi", "srem",
                        "remui", "urem", "remu", "andi", "and"))
#: operand magnitudes past which a sum or product is not checked exactly in int64
_EXACT = 1 << 61


class Undecided(Exception):
    """What the points of a box evaluated do not prove of the whole box: ``why`` (said
    when no box settles), ``values``: the arrays (one entry per lane) that differ from
    point to point where they must not, to choose a coordinate to split along; ``cut``:
    (a dividend, one entry per lane; its positive divisor) where a quotient moves, or (a
    difference, 0) where a comparison's sign does, to split the box where the quotient or
    the sign first changes (:func:`~pipeline_mlir.analysis.box_settle.split_along`)."""

    def __init__(self, why: str, values: tuple = (), cut: tuple | None = None) -> None:
        super().__init__(why)
        self.why, self.values, self.cut = why, values, cut


class Box:
    """A box of integer coordinates ``lo[d] .. hi[d]`` (inclusive) and the points a proof
    evaluates of it (:attr:`points`, one row each): its lowest point first, then its step
    along each coordinate it spans (:attr:`unit`: the row of each, None where the box is
    one wide), then its other corners."""

    def __init__(self, lo: tuple, hi: tuple) -> None:
        self.lo, self.hi = tuple(lo), tuple(hi)
        rows, self.unit = [self.lo], []
        for d, (a, b) in enumerate(zip(lo, hi)):
            if b > a:
                self.unit.append(len(rows))
                rows.append(tuple(v + (i == d) for i, v in enumerate(self.lo)))
            else:
                self.unit.append(None)
        seen = set(rows)
        for c in itertools.product(*[(a, b) if b > a else (a,) for a, b in zip(lo, hi)]):
            if c not in seen:
                seen.add(c)
                rows.append(c)
        self.points = np.asarray(rows, dtype=np.int64).reshape(len(rows), len(lo))

    def size(self) -> int:
        return int(np.prod([b - a + 1 for a, b in zip(self.lo, self.hi)]))

    def split(self, d: int, at: int | None = None) -> tuple[Box, Box]:
        """The two parts along coordinate ``d``, the lower first: below ``at`` and from it
        (``lo[d] < at <= hi[d]``), by default its halves."""
        mid = (self.lo[d] + self.hi[d]) // 2 if at is None else at - 1
        return (Box(self.lo, self.hi[:d] + (mid,) + self.hi[d + 1:]),
                Box(self.lo[:d] + (mid + 1,) + self.lo[d + 1:], self.hi))


class BoxEvaluator(Tiled):
    """An evaluator of the points of a box (one workgroup's threads per point, point-major;
    a :class:`~pipeline_mlir.analysis.tiled_eval.Tiled` of ``source``, a
    :class:`~pipeline_mlir.analysis.tiled_eval.TileSource` of the same threads shared by
    the boxes of a proof, else its own: what moves with no box coordinate, the same at
    every point, evaluated once) that checks, op by op, that each value it computes is
    affine over the box (:func:`certify`), else raises :class:`Undecided`."""

    def __init__(self, block_size: tuple, points: int, source: TileSource | None = None,
                 launch_values: bool = True) -> None:
        if source is None:
            source = TileSource(block_size, launch_values=launch_values)
        super().__init__(source, points)
        self.rows, self._varied = points, {}     # (:meth:`varies` of each array: once)
        self.still = np.broadcast_to(False, (self.per_workgroup,))   # (read only: shared)
        #: the :class:`Box` whose points these are, if known (for :func:`_affine_quotient`)
        self.box = None

    def by_point(self, a) -> np.ndarray:
        """``a`` (one entry per lane, or a number) as (points, threads)."""
        if type(a) is np.ndarray and a.size == self.threads:
            return a.reshape(self.rows, -1)
        return np.broadcast_to(np.asarray(a), (self.threads,)).reshape(self.rows, -1)

    def varies(self, a) -> np.ndarray:
        """Per thread, whether ``a`` differs between the points (held; in none: :attr:`still`)."""
        if (got := self._varied.get(id(a))) is None or got[0] is not a:
            r = self.by_point(a)
            m = (r[1:] != r[0]).any(axis=0)
            got = self._varied[id(a)] = (a, m if m.any() else self.still)
        return got[1]

    def _eval(self, op, v):
        out = super()._eval(op, v)
        certify(self, op, out)
        return out


def _ints(ev, op) -> list:
    """``op``'s integer operands, read once per ``structure`` (every box's of a proof)."""
    got = ev.structure.get((_ints, op))
    if got is None:
        got = ev.structure[(_ints, op)] = [x for x in op.operands if bit_width(x) is not None]
    return got


def certify(ev: BoxEvaluator, op, out: list) -> None:
    """Check that the results ``out`` of ``op`` are affine over the box (module
    docstring), else raise :class:`Undecided`."""
    if not out or ev.rows == 1:
        return
    args = [ev.value(x) for x in _ints(ev, op)]
    if not (masks := [m for m in map(ev.varies, args) if m is not ev.still]):
        return          # (no operand moves: every result as constant, module docstring)
    moving = masks[0] if len(masks) == 1 else np.logical_or.reduce(masks)
    name = op.name
    kind = name.split(".", 1)[1]
    if name in _PASSED:
        return
    rule = _RULES.get(name) or _RULES.get(kind if name.startswith(("arith.", "llvm.",
                                                                    "index.")) else name)
    if rule is None or not rule(ev, op, args, out, moving):
        cut = _cut(ev, kind, args, moving) if len(args) == 2 else None
        if cut is None and len(args) == 2 and (kind in _SIGNS or name in _SIGNS) and \
                _small(*args):
            cut = (np.asarray(args[0]) - np.asarray(args[1]), 0)
        if name == "affine.delinearize_index":
            basis = dense_i64(op, "static_basis")
            if basis and basis[-1] > 1 and _nonneg(ev, moving, args[0]):
                cut = (args[0], basis[-1])
        raise Undecided(f"'{name}' op at {_where(op)}", tuple(args), cut)


def _cut(ev, kind: str, args: list, moving) -> tuple | None:
    """(dividend, divisor) of a division, remainder, right shift or low mask by one
    positive constant, the dividend not negative (so its quotient rounds down), for
    :func:`~pipeline_mlir.analysis.box_settle.split_along`; else None."""
    a, b = args
    if kind not in _QUOTIENTS or ev.varies(b).any():
        return None
    c = ev.by_point(b)[0][moving]
    if c.size == 0 or (c != c[0]).any() or not _nonneg(ev, moving, a):
        return None
    c = int(c[0])
    d = (1 << c if 0 <= c < 62 else 0) if kind in ("shrui", "shrsi", "lshr", "ashr") else \
        (c + 1 if c > 0 and c & (c + 1) == 0 else 0) if kind in ("andi", "and") else c
    return (a, d) if d > 1 else None


def _where(op) -> str:
    try:
        return str(op.location)
    except Exception:           # (a location with no text)
        return "an op"


def _cols(ev, a, moving) -> np.ndarray:
    """``a`` as (points, threads), the threads of ``moving`` only."""
    return ev.by_point(a)[:, moving]


def _same_rows(ev, a, moving) -> bool:
    r = _cols(ev, a, moving)
    return bool((r == r[:1]).all())


def _small(*xs) -> bool:
    return all(np.abs(np.asarray(x)).max(initial=0) < _EXACT for x in xs)


def _exact(fn):
    """A sum or difference: the result the exact value at every point."""
    def rule(ev, op, args, out, moving):
        a, b = args
        return _small(a, b) and _same_values(ev, out[0], fn(a, b), moving)
    return rule


def _same_values(ev, x, y, moving) -> bool:
    return bool((_cols(ev, x, moving) == _cols(ev, y, moving)).all())


def _product(ev, op, args, out, moving):
    a, b = args
    if (ev.varies(a) & ev.varies(b)).any() or not _small(a, b):
        return False
    return _same_values(ev, out[0], a * b, moving)


def _shift_left(ev, op, args, out, moving):
    a, b = args
    if ev.varies(b).any() or (np.asarray(b) < 0).any() or (np.asarray(b) > 62).any() or \
            not _small(a):
        return False
    return _same_values(ev, out[0], a * (np.int64(1) << np.asarray(b, np.int64)), moving)


def _nonneg(ev, moving, *xs) -> bool:
    return all(bool((_cols(ev, x, moving) >= 0).all()) for x in xs)


def _quotient(unsigned: bool = False, shift: bool = False):
    """A division (or right shift) by a constant: its result the same at every point, or
    affine over the box with the remainder in range (:func:`_affine_quotient`)."""
    def rule(ev, op, args, out, moving):
        a, b = args
        if ev.varies(b).any() or (unsigned and not _nonneg(ev, moving, a)):
            return False
        if _same_rows(ev, out[0], moving):
            return True
        if not shift and "ceil" in op.name:
            return False
        d = ev.by_point(b)[0]
        if shift:
            d = np.where((d >= 0) & (d < 62), np.int64(1) << np.clip(d, 0, 61), 0)
        return _affine_quotient(ev, a, d, out[0], moving)
    return rule


def _remainder(unsigned: bool = False):
    """A remainder by a constant: the quotient ``(a - r) / b`` the same at every point, or
    affine over the box with the remainder in range (:func:`_affine_quotient`)."""
    def rule(ev, op, args, out, moving):
        a, b = args
        if ev.varies(b).any() or (unsigned and not _nonneg(ev, moving, a)) or \
                not _small(a, out[0]):
            return False
        bb = np.where(np.asarray(b) == 0, 1, b)
        q = (np.asarray(a) - out[0]) // bb
        return _same_rows(ev, q, moving) or \
            _affine_quotient(ev, a, ev.by_point(b)[0], q, moving)
    return rule


def _affine_quotient(ev, a, d, q, moving) -> bool:
    """Whether ``q`` (the quotient of ``a`` by ``d``, one divisor per thread) is ``a``'s
    floor quotient at every point of the box although it moves: ``a`` not negative at any
    point, ``d`` positive, ``q`` affine at the box's points (each the lowest point's plus
    its steps) and the remainder ``a - d q`` in ``0 .. d - 1`` at each.  The remainder by
    that affine quotient is affine, so in range on the whole box where it is at the
    corners: there the quotient is that affine function (a workgroup id ``row x N + col``
    over a box of rows and columns divided by ``N``)."""
    box = getattr(ev, "box", None)
    d = np.asarray(d)[moving]
    if box is None or not (d > 0).all() or not _nonneg(ev, moving, a) or not _small(a, q):
        return False
    qa, aa = _cols(ev, q, moving), _cols(ev, a, moving)
    want = np.repeat(qa[:1], len(qa), axis=0)
    for k, u in enumerate(box.unit):
        if u is not None:
            want = want + (box.points[:, k:k + 1] - box.lo[k]) * (qa[u] - qa[0])
    r = aa - d[None, :] * qa
    return bool((want == qa).all() and (r >= 0).all() and (r < d[None, :]).all())


def _mask(ev, op, args, out, moving):
    """``and`` of a moving value with a constant low mask ``2^j - 1`` (a remainder) or its
    complement ``-2^j`` (the quotient times ``2^j``)."""
    a, b = args
    if ev.varies(a).any() and ev.varies(b).any():
        return False
    x, m = (a, b) if ev.varies(a).any() else (b, a)
    m = ev.by_point(m)[0][moving]
    if m.size == 0 or (m != m[0]).any():
        return False
    m = int(m[0])
    if m >= 0 and m & (m + 1) == 0:
        return _nonneg(ev, moving, x) and _same_rows(ev, np.asarray(x) >> m.bit_length(),
                                                     moving)
    if m < 0 and (-m) & (-m - 1) == 0:
        return _same_rows(ev, out[0], moving)
    return False


def _flip(ev, op, args, out, moving):
    """``or``/``xor`` with 0 (the value itself); ``xor`` with all ones (``-1 - a``, an
    ``i1``'s ``1 - a``)."""
    a, b = args
    if ev.varies(a).any() and ev.varies(b).any():
        return False
    x, c = (a, b) if ev.varies(a).any() else (b, a)
    c = ev.by_point(c)[0][moving]
    if (c == 0).all():
        return _same_values(ev, out[0], x, moving)
    if op.name.endswith("xori") or op.name.endswith("xor"):
        ones = 1 if bit_width(op.results[0]) == 1 else -1
        if (c == ones).all():
            return _same_values(ev, out[0], ones - np.asarray(x), moving)
    return False


def _minmax(unsigned: bool = False):
    def rule(ev, op, args, out, moving):
        a, b = args
        if unsigned and not _nonneg(ev, moving, a, b):
            return False
        d = _cols(ev, np.asarray(a) - np.asarray(b), moving)
        return bool(((d <= 0).all(axis=0) | (d >= 0).all(axis=0)).all())
    return rule


def _compare(ev, op, args, out, moving):
    a, b = args
    pred = int_attr(op, "predicate")
    if not _same_rows(ev, out[0], moving) or not _small(a, b):
        return False
    if op.name == "arith.cmpi" and pred >= 6 and not _nonneg(ev, moving, a, b):
        return False
    if op.name == "llvm.icmp" and pred >= 6:
        return False
    if pred in (0, 1):          # eq / ne: equal everywhere, or of one strict sign
        d = _cols(ev, np.asarray(a) - np.asarray(b), moving)
        return bool(((d == 0).all(axis=0) | (d > 0).all(axis=0) | (d < 0).all(axis=0)).all())
    return True


def _select(ev, op, args, out, moving):
    return not ev.varies(args[0]).any()


def _cast(ev, op, args, out, moving):
    return _same_values(ev, out[0], args[0], moving)


def _affine(ev, op, args, out, moving):
    """Each result of the map checked term by term (:func:`_affine_terms`); ``min`` /
    ``max``: one result the least (greatest) at every point."""
    n_dims, trees = map_trees(op.attributes["map"])
    results = [_affine_terms(ev, t, args[:n_dims], args[n_dims:], moving) for t in trees]
    if any(r is None for r in results):
        return False
    if op.name == "affine.apply" or len(results) == 1:
        return True
    cols = [_cols(ev, r, moving) for r in results]
    lt = np.less_equal if op.name == "affine.min" else np.greater_equal
    some = np.zeros(cols[0].shape[1], bool)
    for r in cols:
        some |= np.logical_and.reduce([lt(r, s).all(axis=0) for s in cols])
    return bool(some.all())


def _affine_terms(ev, tree, dims, syms, moving):
    """The value of an affine map's result ``tree`` at the points, or None where a term is
    not affine over the box: a product of two moving values, a ``mod`` / ``floordiv`` /
    ``ceildiv`` whose quotient moves or whose divisor does."""
    bad, cut = [], []

    def binary(kind, a, b, _e):
        if kind == "add":
            return a + b
        if kind == "mul":
            if (ev.varies(a) & ev.varies(b)).any():
                bad.append(kind)
            return a * b
        if ev.varies(b).any():
            bad.append(kind)
            return a
        q = np.floor_divide(a, b) if kind != "ceildiv" else -np.floor_divide(-a, b)
        if not _same_rows(ev, q, moving) and not (
                kind != "ceildiv" and isinstance(b, int) and b > 0 and
                _affine_quotient(ev, a, np.full(ev.per_workgroup, b), q, moving)):
            bad.append(kind)
            if isinstance(b, int) and b > 1:
                cut.append((a, b))
        return a - q * b if kind == "mod" else q
    got = fold_tree(tree, list(dims), list(syms), lambda c: c, binary)
    if bad and cut:
        raise Undecided(f"'{bad[0]}' of an affine map", (cut[0][0],), cut[0])
    return None if bad else got


def _delinearize(ev, op, args, out, moving):
    """Each division of the chain (the innermost first) by a basis element the same at
    every point, with a quotient the same at every point or affine over the box
    (:func:`_affine_quotient`): then each result is affine (a remainder is the dividend
    less the quotient times the basis)."""
    if any(ev.varies(b).any() for b in args[1:]):
        return False
    dyn = iter(args[1:])
    basis = [ev.by_point(next(dyn))[0] if b == DYNAMIC else np.full(ev.per_workgroup, b)
             for b in dense_i64(op, "static_basis")]
    if len(basis) == len(out) - 1:
        basis = [None] + basis
    rest = np.asarray(args[0])
    for b in reversed(basis[1:]):
        q = np.floor_divide(ev.by_point(rest), np.where(b == 0, 1, b)[None, :]).reshape(-1)
        if not (_same_rows(ev, q, moving) or _affine_quotient(ev, rest, b, q, moving)):
            return False
        rest = q
    return True


def _linearize(ev, op, args, out, moving):
    """Sums of products by the basis: a dynamic basis constant."""
    return not any(ev.varies(ev.value(b)).any() for b in segments(op)[1])


#: the ops whose results are their operands' values (or one lane's): affine as they are
_PASSED = frozenset(("iree_codegen.index_hint", "arith.bitcast", "llvm.bitcast",
                     "llvm.freeze", "util.assume.int",
                     "iree_tensor_ext.dispatch.workload.ordinal", "llvm.inline_asm",
                     "rocdl.readfirstlane"))
_RULES = {
    "addi": _exact(np.add), "subi": _exact(np.subtract), "add": _exact(np.add),
    "sub": _exact(np.subtract),
    "muli": _product, "mul": _product, "shli": _shift_left, "shl": _shift_left,
    "divsi": _quotient(), "floordivsi": _quotient(), "ceildivsi": _quotient(),
    "sdiv": _quotient(), "shrsi": _quotient(shift=True), "ashr": _quotient(shift=True),
    "divui": _quotient(True), "ceildivui": _quotient(True), "udiv": _quotient(True),
    "shrui": _quotient(True, True), "lshr": _quotient(True, True), "divu": _quotient(True),
    "remsi": _remainder(), "srem": _remainder(),
    "remui": _remainder(True), "urem": _remainder(True), "remu": _remainder(True),
    "andi": _mask, "and": _mask, "ori": _flip, "or": _flip, "xori": _flip, "xor": _flip,
    "maxsi": _minmax(), "minsi": _minmax(), "maxui": _minmax(True), "minui": _minmax(True),
    "arith.cmpi": _compare, "llvm.icmp": _compare,
    "arith.select": _select, "llvm.select": _select,
    "llvm.intr.smax": _minmax(), "llvm.intr.smin": _minmax(),
    "llvm.intr.umax": _minmax(True), "llvm.intr.umin": _minmax(True),
    **dict.fromkeys(VALUE_CASTS + ("arith.trunci", "index.casts", "index.castu",
                                   "llvm.zext", "llvm.sext", "llvm.trunc"), _cast),
    "affine.apply": _affine, "affine.min": _affine, "affine.max": _affine,
    "affine.delinearize_index": _delinearize, "affine.linearize_index": _linearize,
}


def check_affine(box: Box, rows: np.ndarray, what: str) -> None:
    """Check that ``rows`` (one row per point of ``box``, any columns) is affine over the
    box at its corners: each corner's row is the lowest point's plus its steps along each
    coordinate times the corner's distance, else :class:`Undecided` (module docstring: a
    check of the argument, which should never fail)."""
    rows = np.asarray(rows).reshape(len(box.points), -1)
    want = base = rows[0]               # (every point at once, the steps' sums in order)
    for d, u in enumerate(box.unit):
        if u is not None:
            s = rows[u] - base
            want = want + s[None, :] * (box.points[:, d] - box.lo[d]).astype(s.dtype)[:, None]
    if not np.array_equal(np.broadcast_to(want, rows.shape), rows):
        raise Undecided(f"{what} is not affine over the box", (rows,))


def decided_between(box: Box, x: np.ndarray, lo: int, hi: int, inside: np.ndarray,
                    what: str) -> None:
    """Check that the test ``lo <= x <= hi`` (``inside``, both one row per point of ``box``,
    ``x`` affine over it) is the same at every point of the box: the same at every point
    evaluated and, where it fails, ``x`` on one side of the range at every one (else it may
    hold between them); else :class:`Undecided`."""
    n = len(box.points)
    x = np.asarray(x).reshape(n, -1)
    inside = np.asarray(inside).reshape(n, -1)
    same = (inside == inside[:1]).all(axis=0)
    out = ~inside[0] & ~((x < lo).all(axis=0) | (x > hi).all(axis=0))
    if not same.all() or out.any():
        raise Undecided(f"whether {what} lies in {lo}..{hi} differs inside the box", (x,))


def decided(box: Box, flags: np.ndarray, what: str, values=()) -> None:
    """Check that ``flags`` (one row per point of ``box``; a half-space test of an affine
    value, or a value constant over it) is the same at every point evaluated, else
    :class:`Undecided`."""
    f = np.asarray(flags).reshape(len(box.points), -1)
    if not (f == f[:1]).all():
        raise Undecided(f"{what} differs inside the box", tuple(values) or (f,))
