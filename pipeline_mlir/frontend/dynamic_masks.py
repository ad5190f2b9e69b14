"""Masks of a K-loop whose trip count is known only at run time, proven full where the
pipelined loop runs.

With a run-time K, :func:`~pipeline_mlir.frontend.tails.split_tail` keeps at least the
loop's last iteration (the masked K tile) out of the pipelined loop: it runs ``lb ..
split`` with ``split = lb + (max(ub - step - lb, 0) / (2 step)) * 2 step``, so every
iteration ``iv`` it runs has ``iv + step + 1 <= ub``.  The masks must then be full there
for *every* K, which no evaluation at sample values shows; :func:`prove_full` proves it
symbolically:

* the loop's upper bound must be computed from one launch value ``K`` (a function
  argument or a push constant, through casts) by additions and subtractions of
  constants, multiplications by positive constants, ``floordiv`` / ``ceildiv`` by positive
  constants (``arith`` or ``affine.apply``); :func:`k_bound` turns ``ub >= iv + step + 1``
  into a linear lower bound ``K >= a * iv + b`` (each step sound: ``floordiv(x, c) >= n``
  gives ``x >= c n``, a truncating or ceiling division ``>= n`` gives ``x >= c (n - 1)``;
  an unsigned division takes K as the size it is, not negative);
* each mask size is evaluated as :class:`Lin`, ``kc * K + ic * iv + c`` with a coefficient
  per thread (the thread-dependent parts by the per-lane evaluator), through ``arith``
  additions, subtractions, multiplications by a constant and ``min`` / ``max`` (unsigned
  ones only of operands proven non-negative on the region), casts, and
  ``affine.apply`` / ``min`` / ``max`` (whose divisions and remainders must not involve K
  or the loop variable); a ``min`` or ``max`` is resolved per thread by the sign of the
  difference, which must be the same everywhere on the region ``iv >= lb``, ``K >= a iv +
  b`` (:func:`_sign`);
* ``size - dim`` must be non-negative on that region for every thread.

Anything else (another launch value, an op outside that list, a ``min`` whose operands
cross on the region, a size that may be short) is an error at the masked read.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from pipeline_mlir.analysis.ir_facts import constant_int, defined_in, fold_affine, through_casts
from pipeline_mlir.analysis.loop_eval import Evaluator, grid_stride
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import depends, describe, is_pure, owner

#: ops that pass their first operand on besides casts (analysis.ir_facts.through_casts)
PASS_ON = ("iree_tensor_ext.dispatch.workload.ordinal",)
#: ops whose result is a launch value (besides the function's arguments)
LAUNCH_OPS = ("hal.interface.constant.load",)
#: ops without operands a mask size may start from besides K and the loop variable
#: (thread-, not workgroup-dependent)
LEAVES = ("arith.constant", "gpu.thread_id", "gpu.lane_id")
_MIN = ("arith.minsi", "arith.minui")
#: ops of the upper bound that :func:`k_bound` inverts (by a constant operand)
INVERTIBLE = ("affine.apply", "arith.addi", "arith.subi", "arith.muli", "arith.divui",
              "arith.divsi", "arith.floordivsi", "arith.ceildivsi", "arith.ceildivui")
_MAX = ("arith.maxsi", "arith.maxui")


class Unproven(Exception):
    """Why a mask (or the bound on K) is not proven: the caller reports it at its op."""


def strip(v):
    """``v`` through casts and IREE's workload ordinal."""
    return through_casts(v, PASS_ON)


def _is_launch(v) -> bool:
    """Whether ``v`` is known only at launch and the same in every thread: a function
    argument, a push constant, or pure ops of such values and constants (IREE assembles K
    from two 32-bit push constants, then ``util.assume.int``)."""
    if isinstance(v.owner, ir.Block):
        return v.owner.owner is not None and _op(v.owner.owner).name in ("func.func",
                                                                         "gpu.func")
    o = _op(v.owner)
    if o.name in LAUNCH_OPS:
        return True
    if not len(o.operands) or not (is_pure(o) or o.name == "util.assume.int"):
        return False
    kinds = [constant_int(x) is not None or _is_launch(x) for x in o.operands]
    return all(kinds) and any(constant_int(x) is None for x in o.operands)


class Lin:
    """``kc * K + ic * iv + c``, each an int64 array with one entry per thread."""

    def __init__(self, kc, ic, c, n: int) -> None:
        self.kc, self.ic, self.c = (np.broadcast_to(np.asarray(x, dtype=np.int64), (n,))
                                    for x in (kc, ic, c))
        self.n = n

    def constant(self) -> bool:
        return not self.kc.any() and not self.ic.any()

    def __add__(self, o):
        o = _lin(o, self.n)
        return Lin(self.kc + o.kc, self.ic + o.ic, self.c + o.c, self.n)

    __radd__ = __add__

    def __neg__(self):
        return Lin(-self.kc, -self.ic, -self.c, self.n)

    def __sub__(self, o):
        return self + (-_lin(o, self.n))

    def __mul__(self, o):
        o = _lin(o, self.n)
        if o.constant():
            return Lin(self.kc * o.c, self.ic * o.c, self.c * o.c, self.n)
        if self.constant():
            return o * self
        raise Unproven("a product of two values that both depend on K or the loop variable")

    __rmul__ = __mul__

    def divide(self, o, kind: str):
        """``floordiv``, ``ceildiv`` or ``mod`` by ``o``: both constant in K and iv."""
        o = _lin(o, self.n)
        if not (self.constant() and o.constant()) or (o.c <= 0).any():
            raise Unproven(f"a {kind} of a value that depends on K or the loop variable")
        a, b = self.c, o.c
        out = {"floordiv": np.floor_divide(a, b), "ceildiv": -np.floor_divide(-a, b),
               "mod": np.mod(a, b)}[kind]
        return Lin(0, 0, out, self.n)


def _lin(x, n: int) -> Lin:
    return x if isinstance(x, Lin) else Lin(0, 0, x, n)


class Region:
    """``iv >= lb`` and ``K >= a * iv + b`` (``a``, ``b`` fractions)."""

    def __init__(self, lb: int, a: Fraction, b: Fraction) -> None:
        self.lb, self.a, self.b = lb, Fraction(a), Fraction(b)

    def sign(self, d: Lin) -> np.ndarray:
        """Per thread: 1 where ``d >= 0`` on the whole region, -1 where ``d <= 0``, 0 where
        neither is proven.  With ``K = a iv + b + s`` and ``iv = lb + u`` (``s, u >= 0``),
        ``d = (kc a + ic) u + kc s + ((kc a + ic) lb + kc b + c)``."""
        an, ad = self.a.numerator, self.a.denominator
        bn, bd = self.b.numerator, self.b.denominator
        slope = d.kc * an + d.ic * ad                         # (kc a + ic) * ad
        base = slope * self.lb * bd + d.kc * bn * ad + d.c * ad * bd   # * ad * bd
        pos = (slope >= 0) & (d.kc >= 0) & (base >= 0)
        neg = (slope <= 0) & (d.kc <= 0) & (base <= 0)
        return np.where(pos, 1, np.where(neg, -1, 0))


def _pick(x: Lin, y: Lin, region: Region, want_min: bool) -> Lin:
    s = region.sign(x - y)
    if (s == 0).any():
        raise Unproven("a min or max whose operands cross where the pipelined loop runs")
    take_y = (s > 0) if want_min else (s < 0)
    return Lin(*(np.where(take_y, getattr(y, f), getattr(x, f)) for f in ("kc", "ic", "c")),
               x.n)


class SymbolicSizes:
    """Evaluates values of a K-loop as :class:`Lin` (module docstring)."""

    def __init__(self, ev: Evaluator, iv, k, region: Region) -> None:
        self.ev, self.iv, self.k, self.region = ev, iv, k, region
        self.n = ev.threads
        self.memo: dict = {}

    def depends(self, v) -> bool:
        """Whether ``v`` depends on the loop variable or a launch value."""
        return depends(v, lambda x: x == self.iv or _is_launch(x))

    def value(self, v) -> Lin:
        if v not in self.memo:
            self.memo[v] = self._value(v)
        return self.memo[v]

    def _value(self, v) -> Lin:
        if v == self.iv:
            return Lin(0, 1, 0, self.n)
        s = strip(v)
        if s == self.k:
            return Lin(1, 0, 0, self.n)
        if _is_launch(s):
            raise Unproven("a launch value other than the one the trip count comes from")
        if not self.depends(v):
            _check_leaves(v)
            return Lin(0, 0, self.ev.value(v), self.n)
        o = _op(s.owner)
        args = list(o.operands)
        if o.name in ("arith.addi", "arith.subi", "arith.muli"):
            x, y = self.value(args[0]), self.value(args[1])
            return x + y if o.name == "arith.addi" else x - y if o.name == "arith.subi" \
                else x * y
        if o.name in _MIN + _MAX:
            x, y = self.value(args[0]), self.value(args[1])
            if o.name.endswith("ui") and ((self.region.sign(x) < 1).any()
                                          or (self.region.sign(y) < 1).any()):
                raise Unproven(f"'{o.name}' of a value that may be negative")
            return _pick(x, y, self.region, o.name in _MIN)
        if o.name in ("affine.apply", "affine.min", "affine.max"):
            res = self._map(o)
            out = res[0]
            for r in res[1:]:
                out = _pick(out, r, self.region, o.name == "affine.min")
            return out
        raise Unproven(f"'{o.name}' on the way from K or the loop variable")

    def _map(self, o) -> list:
        am = ir.AffineMapAttr(o.attributes["map"]).value
        vals = [self.value(x) for x in o.operands]
        dims, syms = vals[:am.n_dims], vals[am.n_dims:]
        return [_expr(e, dims, syms, self.n) for e in am.results]


def foreign_source(v, allowed=frozenset(), seen: set | None = None, loop=None):
    """The first value (pre-order) that ``v`` is computed from through side-effect-free
    ops and that is neither in ``allowed`` nor a constant or thread id (:data:`LEAVES`): a
    block argument, or a result of an op with side effects or with no operands; None when
    ``v`` is computed from those alone.  The one walk of the front end's mask proofs, which
    evaluate a value per thread and so hold in every workgroup only for such values.

    With ``loop`` (an ``scf.for``), the walk asks what the pipelined loop cannot compute
    again for another iteration: it stops at every value computed outside ``loop`` (defined
    before it), and an op of no operands inside it is computed again (a workgroup id); what
    it finds is a block argument inside ``loop`` (a loop-carried value, another region's
    argument) or an op there with side effects (or regions)."""
    seen = set() if seen is None else seen
    if not isinstance(v, ir.Value) or v in allowed or v in seen:
        return None
    seen.add(v)
    if loop is not None and not defined_in(v, loop):
        return None
    if isinstance(v.owner, ir.Block):
        return v
    o = _op(v.owner)
    if not is_pure(o) or (loop is None and not len(o.operands) and o.name not in LEAVES):
        return v
    for x in o.operands:
        bad = foreign_source(x, allowed, seen, loop)
        if bad is not None:
            return bad
    return None


def source_text(v) -> str:
    """A value :func:`foreign_source` found, named for a refusal: the op computing it, or
    the block argument (the workgroup loop's variable and a loop-carried value said so)."""
    if not isinstance(v.owner, ir.Block):
        return f"'{_op(v.owner).name}'"
    parent = v.owner.owner
    parent = None if parent is None else _op(parent)
    name = "" if parent is None else parent.name
    if name == "scf.forall" or (name == "scf.for" and grid_stride(parent)):
        return f"the workgroup (block argument #{v.arg_number} of the '{name}' over workgroups)"
    if name == "scf.for" and v.arg_number > 0:
        return f"the loop-carried value (block argument #{v.arg_number} of the 'scf.for')"
    return f"block argument #{v.arg_number} of '{name}'" if name else "a block argument"


def _check_leaves(v) -> None:
    """``v`` is computed by side-effect-free ops from constants and thread ids only (so
    the per-lane evaluation covers every workgroup)."""
    bad = foreign_source(v)
    if bad is None:
        return
    if isinstance(bad.owner, ir.Block):
        raise Unproven("a block argument other than the loop variable")
    raise Unproven(f"{source_text(bad)}, not only K, the loop variable, the thread and "
                   f"constants")


def _expr(e, dims, syms, n: int) -> Lin:
    return fold_affine(e, dims, syms, lambda c: Lin(0, 0, c, n), _lin_binary)


def _lin_binary(kind: str, a: Lin, b: Lin, _e) -> Lin:
    return a + b if kind == "add" else a * b if kind == "mul" else a.divide(b, kind)


def k_bound(ub, need: tuple[Fraction, Fraction]):
    """(K, a, b): ``ub >= need[0] * iv + need[1]`` implies ``K >= a * iv + b``, K the launch
    value ``ub`` is computed from (module docstring)."""
    a, b = need
    v = strip(ub)
    if isinstance(v.owner, ir.Block):
        if _is_launch(v):
            return v, a, b
        raise Unproven("an upper bound that is a block argument")
    o = _op(v.owner)
    args = list(o.operands)
    split = ceildiv_select(o)
    if split is not None:
        return k_bound(split[0], _invert("ceildivsi", split[1], a, b))
    if o.name not in INVERTIBLE:
        if _is_launch(v):
            return v, a, b
        raise Unproven(f"'{o.name}' computing the upper bound")
    if o.name == "affine.apply":
        am = ir.AffineMapAttr(o.attributes["map"]).value
        if len(am.results) != 1:
            raise Unproven("an affine.apply of several results")
        return _bound_expr(am.results[0], args, am.n_dims, (a, b))
    if o.name in INVERTIBLE[1:]:
        c = constant_int(args[1])
        other = args[0]
        if c is None and o.name in ("arith.addi", "arith.muli"):
            c, other = constant_int(args[0]), args[1]
        if c is None:
            raise Unproven(f"'{o.name}' of two values that are not constants")
        return k_bound(other, _invert(o.name.split(".")[1], c, a, b))
    raise Unproven(f"'{o.name}' computing the upper bound")


def ceildiv_select(o):
    """(x, c) when ``o`` is the signed ``ceildiv(x, c)`` (``c`` a positive constant) as
    IREE's late form expands it: ``select(x <= 0, 0 - (0 - x) / c, (x - 1) / c + 1)``
    with one truncating ``divsi`` of ``select(x <= 0, 0 - x, x - 1)``; else None."""
    if o.name != "arith.select":
        return None
    p, neg, pos = o.operands
    cmp = owner(p, "arith.cmpi")
    add, sub = owner(pos, "arith.addi"), owner(neg, "arith.subi")
    if cmp is None or add is None or sub is None or \
            ir.IntegerAttr(cmp.attributes["predicate"]).value != 3 or \
            constant_int(cmp.operands[1]) != 0 or constant_int(add.operands[1]) != 1 or \
            constant_int(sub.operands[0]) != 0 or add.operands[0] != sub.operands[1]:
        return None
    x, div = cmp.operands[0], owner(add.operands[0], "arith.divsi")
    c = None if div is None else constant_int(div.operands[1])
    inner = None if div is None else owner(div.operands[0], "arith.select")
    if c is None or c <= 0 or inner is None or inner.operands[0] != p:
        return None
    lo, hi = owner(inner.operands[1], "arith.subi"), owner(inner.operands[2], "arith.subi")
    if lo is None or hi is None or constant_int(lo.operands[0]) != 0 or lo.operands[1] != x \
            or hi.operands[0] != x or constant_int(hi.operands[1]) != 1:
        return None
    return x, c


def _invert(kind: str, c: int, a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
    """The bound on ``x`` from ``f(x) >= a iv + b`` (sound relaxations)."""
    if kind in ("addi", "add"):
        return a, b - c
    if kind == "subi":
        return a, b + c
    if c <= 0:
        raise Unproven(f"a {kind} by {c}, not a positive constant")
    if kind in ("muli", "mul"):
        return a / c, b / c
    if kind in ("floordivsi", "floordiv"):
        return a * c, b * c        # floor(x / c) >= n iff x >= c n
    return a * c, (b - 1) * c      # trunc or ceil (x / c) >= n gives x > c (n - 1)


def _bound_expr(e, args, n_dims: int, need):
    a, b = need
    if isinstance(e, (ir.AffineDimExpr, ir.AffineSymbolExpr)):
        pos = e.position + (0 if isinstance(e, ir.AffineDimExpr) else n_dims)
        return k_bound(args[pos], (a, b))
    if isinstance(e, ir.AffineConstantExpr):
        raise Unproven("a constant upper bound")
    lhs, rhs = e.lhs, e.rhs
    if isinstance(e, (ir.AffineAddExpr, ir.AffineMulExpr)) and \
            isinstance(lhs, ir.AffineConstantExpr):
        lhs, rhs = rhs, lhs
    if not isinstance(rhs, ir.AffineConstantExpr):
        raise Unproven(f"the affine expression {e} of the upper bound")
    kind = "add" if isinstance(e, ir.AffineAddExpr) else "mul" if isinstance(
        e, ir.AffineMulExpr) else "floordiv" if isinstance(e, ir.AffineFloorDivExpr) else \
        "ceildiv" if isinstance(e, ir.AffineCeilDivExpr) else "mod"
    if kind == "mod":
        raise Unproven("a mod in the upper bound")
    return _bound_expr(lhs, args, n_dims, _invert(kind, rhs.value, a, b))


def prove_full(loop, reads: dict, ev: Evaluator) -> None:
    """Every mask of ``reads`` ({read: (dims, size values)}) full in every iteration
    ``iv`` of ``loop`` with ``iv + step + 1 <= ub`` (the pipelined loop's), for every K;
    an error at the read (or the loop, for its bound) otherwise."""
    iv = loop.regions[0].blocks[0].arguments[0]
    lb, step = constant_int(loop.operands[0]), constant_int(loop.operands[2])
    if lb is None or step is None:
        raise IRError(loop, "'scf.for' op has a masked last K tile and a trip count known "
                            "only at run time, with a lower bound or step that is not a "
                            "constant; the front end proves the masks of such a loop with "
                            "constant ones")
    try:
        k, a, b = k_bound(loop.operands[1], (Fraction(1), Fraction(step + 1)))
    except Unproven as e:
        raise IRError(loop, f"'scf.for' op has a masked last K tile and a trip count known "
                            f"only at run time, whose upper bound is not a bound on one "
                            f"launch value K the front end can invert ({e})") from None
    sym = SymbolicSizes(ev, iv, k, Region(lb, a, b))
    for r, (dims, vals) in reads.items():
        for d, v in zip(dims, vals):
            try:
                short = sym.region.sign(sym.value(v) - d) < 1
            except Unproven as e:
                raise IRError(r, f"{describe(r)} has a mask the front end cannot prove full "
                                 f"where the pipelined loop runs, for every K ({e})") from None
            if short.any():
                t = int(np.flatnonzero(short)[0])
                raise IRError(r, f"{describe(r)} may be masked to fewer than {d} elements "
                                 f"in thread {t} in an iteration before the last, which the "
                                 f"pipelined loop runs for some K; the front end peels a "
                                 f"mask of the last K tile only")
