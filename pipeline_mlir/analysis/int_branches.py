"""What the branches of one ``llvm.func`` tell about its integers.

:class:`BranchFacts` is the part of :class:`~pipeline_mlir.analysis.int_forms.IndexForms`
that reads the control flow:

* :meth:`~BranchFacts.truth`: the value of an ``i1`` wherever it is computed, when the
  ranges decide it (an ``icmp`` from the range of its operands' difference; ``and``,
  ``or``, ``xor`` of decided ``i1``s);
* :meth:`~BranchFacts.ctx`: the ranges that the branch leading to a block gives its atoms
  (``i < 128`` bounds ``i`` in the loop body): the branch from the block's only
  predecessor, and that block's facts, up the chain;
* :meth:`~BranchFacts.solve`: the ranges of the integer block arguments (loop counters),
  a fixed point over the values the branches pass, widened to the type's bounds after a
  few rounds, then narrowed; the result is checked to be inductive (every branch passes
  values within the ranges it assumes), else every block argument gets its type's whole
  range.  So a block argument's range is a sound bound of every value it takes;
* :meth:`~BranchFacts.stride`: the step of an integer block argument (a loop counter): a
  modulus ``m > 1`` and a residue ``r`` with every value it takes ``= r (mod m)``, proven
  from the values its branches pass (a base whose terms are multiples of ``m`` and whose
  constant is ``r`` modulo ``m``, or the argument itself plus multiples of ``m``), so by
  induction over the branches taken.  A counter's bounds are rounded to its class
  (:meth:`~BranchFacts.round_to_stride`): a loop from 4 by 4 guarded by ``i < 128`` has
  ``i <= 124`` in its body, the last value it really takes, not 127.
* :meth:`~BranchFacts.in_step`: a block argument that every branch into its block passes
  as another argument of it plus one constant ``d`` (the entries: two constants ``d``
  apart; the back edges: each argument plus the same step) is that argument plus ``d``
  wherever it is used, by induction over the branches taken; its range there meets the
  other's, moved by ``d``, so an ``i64`` index counted beside the loop's tested ``i32``
  counter, with no test of its own, is bounded by that test.

It relies on the methods :meth:`form`, :meth:`range` and :meth:`_reset` and the attributes
``fn``, ``arg_range``, ``_strides``, ``_in_step``, ``_facts`` and ``_truth`` of the class it
is mixed into.
"""

from __future__ import annotations

import math

from pipeline_mlir.analysis.int_ranges import (NEGATED, PREDICATES, UNBOUNDED, ceil_div, decide,
                                               hull, meet, nonneg, signed_range, within)
from pipeline_mlir.analysis.llvm_values import const_int, defining_op, int_width
from pipeline_mlir.dialect.bindings import ir


class BranchFacts:
    """Conditions, branch facts and loop-counter ranges (see the module docstring)."""

    # ---- conditions ---------------------------------------------------------------------

    def truth(self, value) -> bool | None:
        """The value of an i1 wherever it is computed, if the ranges decide it."""
        if value in self._truth:
            return self._truth[value]
        self._truth[value] = None
        op = defining_op(value)
        result = None
        if op is not None:
            name = op.name
            ops = list(op.operands)
            if name == "llvm.mlir.constant":
                k = const_int(value)
                result = None if k is None else bool(k)
            elif name == "llvm.icmp":
                result = self._compare(op, self.op_ctx(op))
            elif name in ("llvm.and", "llvm.or", "llvm.xor") and int_width(value) == 1:
                x, y = self.truth(ops[0]), self.truth(ops[1])
                if name == "llvm.and":
                    result = False if False in (x, y) else (True if x and y else None)
                elif name == "llvm.or":
                    result = True if True in (x, y) else (False if x is False and y is False
                                                          else None)
                elif x is not None and y is not None:
                    result = x != y
        self._truth[value] = result
        return result

    def _relation(self, op, ctx: dict):
        """``(relation, a - b)`` of an ``icmp a, b`` on integers, None if not usable (an
        unsigned compare of values not known to be non-negative)."""
        a, b = (self.form(v) for v in op.operands)
        if a is None or b is None:
            return None
        pred = ir.IntegerAttr(op.attributes["predicate"]).value
        rel, unsigned = PREDICATES.get(pred, (None, False))
        if rel is None or (unsigned and not (nonneg(self.range(a, ctx)) and
                                             nonneg(self.range(b, ctx)))):
            return None
        return rel, a.plus(b, -1)

    def _compare(self, op, ctx: dict) -> bool | None:
        rd = self._relation(op, ctx)
        return None if rd is None else decide(rd[0], self.range(rd[1], ctx))

    def ctx(self, block: int) -> dict:
        """Ranges of atoms that the branches leading to ``block`` bound (the branch from
        its only predecessor, and that block's, up the chain)."""
        hit = self._facts.get(block)
        if hit is not None:
            return hit
        self._facts[block] = {}
        preds = self.fn.preds.get(block, [])
        facts: dict = {}
        if block != 0 and len(preds) == 1:
            pred, term, pos = preds[0]
            facts = self.edge_ctx(pred, term, pos)
        self._facts[block] = facts
        return facts

    def op_ctx(self, op) -> dict:
        """The facts where ``op`` is (its block's)."""
        return self.ctx(self.fn.block_key(op.block))

    def edge_ctx(self, pred: int, term, pos: int) -> dict:
        """The facts on the edge from block ``pred`` (ending in ``term``) to its
        successor number ``pos``."""
        facts = dict(self.ctx(pred))
        if term.name == "llvm.cond_br":
            self._cond_facts(term.operands[0], pos == 0, facts, 0)
        return facts

    def _cond_facts(self, cond, holds: bool, facts: dict, depth: int) -> None:
        op = defining_op(cond)
        if op is None or depth > 8:
            return
        if op.name in ("llvm.and", "llvm.or") and int_width(cond) == 1:
            if (op.name == "llvm.and") == holds:      # both conditions (or both negations)
                for v in op.operands:
                    self._cond_facts(v, holds, facts, depth + 1)
            return
        if op.name != "llvm.icmp":
            return
        rd = self._relation(op, facts)
        if rd is None:
            return
        rel, d = rd
        rel = rel if holds else NEGATED[rel]
        if len(d.terms) != 1 or rel == "ne":
            return
        (atom, k), = d.terms.items()
        m = d.const
        # k*x + m <rel> 0: bounds of x
        upper = {"lt": -1 - m, "le": -m, "eq": -m}.get(rel)        # k*x <= upper
        lower = {"gt": 1 - m, "ge": -m, "eq": -m}.get(rel)         # k*x >= lower
        lo, hi = -UNBOUNDED, UNBOUNDED
        if upper is not None:
            if k > 0:
                hi = upper // k
            else:
                lo = ceil_div(upper, k)
        if lower is not None:
            if k > 0:
                lo = max(lo, ceil_div(lower, k))
            else:
                hi = min(hi, lower // k)
        old = facts.get(atom)
        facts[atom] = (lo, hi) if old is None else meet(old, (lo, hi))

    # ---- loop counters ------------------------------------------------------------------

    def _transfer(self) -> dict:
        """Each integer block argument's range from the values its branches pass."""
        self._reset()
        out = {}
        for key, edges in self.fn.edges.items():
            w = int_width(self.fn.argument(key))
            if w is None:
                continue
            if edges is None:
                out[key] = signed_range(w)
                continue
            rng = None
            for v, pred, term, pos in edges:
                f = self.form(v)
                r = self.range(f, self.edge_ctx(pred, term, pos))
                rng = hull(rng, meet(r, signed_range(w)) if r is not None else None)
            out[key] = rng
        return out

    def solve(self) -> None:
        """The ranges of the block arguments: a fixed point of :meth:`_transfer`, widened
        after a few rounds, then narrowed; the result is checked to hold inductively
        (every branch passes values within the ranges it assumes), else every block
        argument gets its type's whole range."""
        widths = {k: int_width(self.fn.argument(k)) for k in self.fn.edges}
        full = {k: signed_range(w) for k, w in widths.items() if w is not None}
        self.arg_range = dict.fromkeys(full)
        for round_ in range(40):
            new = self._transfer()
            joined = {k: hull(self.arg_range[k], new.get(k)) for k in full}
            if joined == self.arg_range:
                break
            if round_ >= 3:                 # widen what still moves to the type's bounds
                for k, r in joined.items():
                    old = self.arg_range[k]
                    if old is not None and r is not None and r != old:
                        joined[k] = (full[k][0] if r[0] < old[0] else r[0],
                                     full[k][1] if r[1] > old[1] else r[1])
            self.arg_range = joined
        else:
            self.arg_range = dict(full)
        for _ in range(2):                   # narrowing, kept while it stays inductive
            narrowed = self._transfer()
            before, self.arg_range = self.arg_range, narrowed
            if not self._inductive():
                self.arg_range = before
                break
        self.arg_range = {k: full[k] if r is None else r for k, r in self.arg_range.items()}
        if not self._inductive():
            self.arg_range = dict(full)
        self._reset()
        self.in_step(full)
        self._strides = {}
        strides = {}
        for key in full:
            found = self._stride_of(key)
            if found is not None:
                strides[self.fn.argument(key)] = found
        self._strides = strides
        self._reset()

    # ---- counters in step --------------------------------------------------------------

    def in_step(self, full: dict) -> None:
        """Each ordered pair of integer arguments of one block at a constant distance on
        every branch into it (:meth:`_distance`): the first's range, wherever it is used,
        meets the second's there, moved by the distance (the module docstring)."""
        self._in_step = {}
        found: dict = {}
        for a in full:
            for b in full:
                if b[0] == a[0] and b != a and (d := self._distance(a, b)) is not None:
                    found.setdefault(a, []).append((b, d))
        self._in_step = found
        self._reset()

    def _distance(self, a, b) -> int | None:
        """``d`` with argument ``a`` = argument ``b`` + ``d`` on every branch into their
        block: each branch passes two values whose forms differ by the constant ``d``, or
        by ``a - b`` exactly (each argument plus one step), and some branch the first."""
        ea, eb = self.fn.edges.get(a), self.fn.edges.get(b)
        if not ea or not eb or len(ea) != len(eb):
            return None
        x, y = self.form(self.fn.argument(a)), self.form(self.fn.argument(b))
        same = x.plus(y, -1)
        d = None
        for (va, pred_a, _, pos_a), (vb, pred_b, _, pos_b) in zip(ea, eb):
            fa, fb = self.form(va), self.form(vb)
            if pred_a != pred_b or pos_a != pos_b or fa is None or fb is None:
                return None
            diff = fa.plus(fb, -1)
            if diff == same:
                continue
            k = diff.constant()
            if k is None or d not in (None, k):
                return None
            d = k
        return d

    # ---- steps of loop counters ---------------------------------------------------------

    def _stride_of(self, key) -> tuple[int, int] | None:
        """``(m, r)``, ``m > 1``: every value block argument ``key`` takes is ``r`` modulo
        ``m`` (each value a branch passes is a base ``b`` with its terms' coefficients
        multiples of ``m``, or the argument plus such terms; the bases' constants agree
        modulo ``m``), None if no such ``m``.  The forms are exact under the solved ranges,
        so the class holds by induction over the branches taken."""
        edges = self.fn.edges.get(key)
        if not edges:
            return None
        arg = self.fn.argument(key)
        m, bases = 0, []
        for v, *_ in edges:
            f = self.form(v)
            if f is None:
                return None
            own = [c for a, c in f.terms.items() if a.kind == "value" and a.args == (arg,)]
            if own not in ([], [1]):
                return None
            for a, c in f.terms.items():
                if not (a.kind == "value" and a.args == (arg,)):
                    m = math.gcd(m, c)
            if own:
                m = math.gcd(m, f.const)
            else:
                bases.append(f.const)
        if not bases:
            return None
        for b in bases[1:]:
            m = math.gcd(m, b - bases[0])
        return (m, bases[0] % m) if m > 1 else None

    def stride(self, value) -> tuple[int, int] | None:
        """The proven class ``(m, r)`` of a block argument's values, None if none."""
        return self._strides.get(value)

    def round_to_stride(self, value, rng):
        """``rng`` (bounds of ``value``) shrunk to the values of ``value``'s class: its
        least and greatest members within ``rng`` (unchanged when there is no class or no
        member)."""
        found = self.stride(value) if rng is not None else None
        if found is None:
            return rng
        m, r = found
        lo = rng[0] + (r - rng[0]) % m
        hi = rng[1] - (rng[1] - r) % m
        return (lo, hi) if lo <= hi else rng

    def _inductive(self) -> bool:
        new = self._transfer()
        return all(within(new.get(k), r) for k, r in self.arg_range.items())
