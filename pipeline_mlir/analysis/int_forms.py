"""Exact integer forms and ranges of the integers of one ``llvm.func`` (LLVM dialect).

:class:`IndexForms` gives every integer SSA value a *form* (:class:`Form`): an exact sum
``c1*a1 + c2*a2 + ... + k`` over *atoms* (:class:`Atom`, integers with a known range whose
value is fixed where they are used): an SSA value it does not see through (a kernel
argument, a loop counter, a load), the wave's index and the lane's (``workitem.id.x =
64 * wave + lane`` when the block's x size is a multiple of 64), and ``floordiv``, ``mod``,
``xor`` or the product of exact forms.  Sums and differences of forms cancel exactly, so
``(x + r) - x`` is ``r``.

Guarantee: a value's form is its *signed value*, exactly, wherever it is computed.  An
``add``/``sub``/``mul``/``shl`` of fewer than 64 bits has the sum's form only when it is
proven not to wrap (its range fits the width, or the op's ``overflowFlags`` say ``nsw``);
otherwise the value is an atom of its own with the range its type allows.  64-bit
arithmetic is assumed not to wrap (an index beyond 2^63 is no address).

The rules, each applied only where its condition is proven from the ranges:
``udiv``/``urem``/``lshr`` of a non-negative value, ``sdiv``/``srem`` of a value of one
sign, ``ashr`` and ``and`` with ``2^k - 1`` or ``-2^k`` of any value are floor division and
modulo by positive constants; ``floordiv(d*q + r, d) = q + floordiv(r, d)``,
``floordiv(g*s + t, g*e) = floordiv(s, e)`` and ``mod(g*s + t, g*e) = g*mod(s, e) + t``
when ``0 <= t < g``, and both fold to constants when ``r`` stays within one multiple of
``d``; ``or``/``xor`` of values with disjoint bits (``x`` a multiple of ``2^k``,
``0 <= y < 2^k``, or ``or disjoint``) is a sum; ``icmp`` is decided from the range of the
difference of its operands, and ``select`` / ``and``/``or`` of ``i1`` / ``smax`` etc. fold
when it is; casts keep the form when the value fits.

Ranges (:meth:`IndexForms.range`, of a form at a point of the function): constants;
``workitem.id`` within the block size (or the op's ``range``); ``workgroup.id`` in
dimension ``d`` below ``ceil((2^32 - 1) / block_d)`` (a dispatch's grid size is a 32-bit
count of work-items; below 2^31 assumed where the block size is 1 or not stated), and within
the op's ``range`` (``sched-gpu-kernel`` gives the ids of an ``scf.forall`` over
workgroups its static bounds); loop
counters and branch facts from :class:`~pipeline_mlir.analysis.int_branches.BranchFacts`.
A range is a sound bound of every value the form takes there.
"""

from __future__ import annotations

import math
from collections import Counter

from pipeline_mlir.analysis.int_branches import BranchFacts
from pipeline_mlir.analysis.int_ranges import (ceil_div, decide, fits, hull, meet, nonneg,
                                               signed, signed_range)
from pipeline_mlir.analysis.int_ranges import floordiv as floordiv_range, mul as mul_range
from pipeline_mlir.analysis.int_ranges import pick as pick_range
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.llvm_values import const_int, defining_op, int_width, overflow_flags
from pipeline_mlir.analysis.uniformity import Uniformity
from pipeline_mlir.dialect.attrs import constant_range
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir


class Atom:
    """An integer whose value is fixed wherever it is used: an SSA value, the wave's or
    the lane's index, or floordiv / mod / xor / the product of exact forms.  Interned by
    ``key``, so equal atoms are one object."""

    __slots__ = ("kind", "key", "args", "uniform")

    def __init__(self, kind: str, key, args: tuple, uniform: bool) -> None:
        self.kind, self.key, self.args, self.uniform = kind, key, args, uniform


class Form:
    """``sum(coeff * atom) + const``: the signed value of an SSA integer, exactly."""

    __slots__ = ("terms", "const", "_key")

    def __init__(self, terms: dict | None = None, const: int = 0) -> None:
        self.terms = {a: c for a, c in (terms or {}).items() if c}
        self.const = const
        self._key = None

    @property
    def key(self):
        if self._key is None:
            self._key = (frozenset((a.key, c) for a, c in self.terms.items()), self.const)
        return self._key

    def __eq__(self, other) -> bool:
        return isinstance(other, Form) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def plus(self, other: "Form", sign: int = 1) -> "Form":
        terms = dict(self.terms)
        for a, c in other.terms.items():
            terms[a] = terms.get(a, 0) + sign * c
        return Form(terms, self.const + sign * other.const)

    def times(self, k: int) -> "Form":
        return Form({a: c * k for a, c in self.terms.items()}, self.const * k)

    def split(self, d: int) -> tuple["Form", "Form"]:
        """``(q, r)`` with ``self = d*q + r``, r's coefficients and constant in ``[0, d)``."""
        q = {a: c // d for a, c in self.terms.items()}
        r = {a: c % d for a, c in self.terms.items()}
        return Form(q, self.const // d), Form(r, self.const % d)

    def constant(self) -> int | None:
        return None if self.terms else self.const

    def kinds(self) -> set:
        """``'u'`` for each uniform atom, ``'v'`` for each other."""
        return {"u" if a.uniform else "v" for a in self.terms}

    def uniform(self) -> bool:
        return all(a.uniform for a in self.terms)


def const_form(k: int) -> Form:
    return Form(None, k)


#: ops that are floor division / modulo by a positive constant (a power of two for the
#: shifts) of a non-negative value (``ashr``: of any value)
_FLOORDIV = frozenset({"llvm.udiv", "llvm.sdiv", "llvm.lshr", "llvm.ashr"})
_MOD = frozenset({"llvm.urem", "llvm.srem"})
_MINMAX = {"llvm.intr.smax": (max, False), "llvm.intr.smin": (min, False),
           "llvm.intr.umax": (max, True), "llvm.intr.umin": (min, True)}


def _op_range(op, rng):
    """``rng`` met with the op's ``range`` attribute (``[lo, hi)``), if it has one."""
    r = constant_range(op.attributes["range"]) if "range" in op.attributes else None
    if r is not None:
        given = (r[0], r[1] - 1)
        return meet(rng or given, given)
    return rng


class IndexForms(BranchFacts):
    """Exact forms and ranges of a function's integers (see the module docstring): build it
    on a :class:`~pipeline_mlir.analysis.uniformity.Uniformity` (analysed), call
    :meth:`solve` (the loop counters' ranges), then ask :meth:`form`, :meth:`range` and
    :meth:`truth`."""

    _DEPTH = 400     # deeper definition chains end in an atom (Python's recursion limit)

    def __init__(self, fn: Uniformity) -> None:
        self.fn = fn
        self._atoms: dict = {}
        #: (block, argument number) -> range of the block argument; None: no value yet
        self.arg_range: dict = {}
        #: block argument -> (m, r): its values are r modulo m (BranchFacts.stride)
        self._strides: dict = {}
        #: block argument's key -> [(another's key, d)]: it is each other plus its ``d``
        #: wherever it is used (BranchFacts.in_step)
        self._in_step: dict = {}
        self._reset()

    def _reset(self) -> None:
        self._forms: dict = {}
        self._opaque: dict = {}
        self._facts: dict = {}
        self._truth: dict = {}
        self._depth = 0

    # ---- atoms ------------------------------------------------------------------------

    def _atom(self, kind: str, key, args: tuple, uniform: bool) -> Atom:
        a = self._atoms.get(key)
        if a is None:
            a = self._atoms[key] = Atom(kind, key, args, uniform)
        return a

    def _value_atom(self, value) -> Form:
        return Form({self._atom("value", ("value", value), (value,),
                                 self.fn.uniform(value)): 1})

    def _opaque_form(self, value, rng) -> Form:
        """``value`` as an atom of its own, its values within ``rng`` (and its type)."""
        self._opaque[value] = meet(signed_range(int_width(value)), rng)
        return self._value_atom(value)

    def _derived(self, kind: str, forms: tuple, param: int = 0) -> Form:
        if kind in ("xor", "mul"):
            key = (kind, frozenset(Counter(f.key for f in forms).items()))
        else:
            key = (kind, forms[0].key, param)
        uniform = all(f.uniform() for f in forms)
        return Form({self._atom(kind, key, forms + (param,), uniform): 1})

    def atom_range(self, atom: Atom, ctx: dict, in_step: bool = True):
        rng = self._atom_base(atom, ctx)
        fact = ctx.get(atom)
        rng = meet(rng, fact) if fact is not None and rng is not None else rng
        if atom.kind != "value":
            return rng
        value = atom.args[0]
        if in_step and rng is not None and self._in_step and isinstance(value.owner, ir.Block):
            # the counters in step with it: their bounds here, moved (BranchFacts.in_step),
            # each taken without its own partners' (no range asks for itself)
            for key, d in self._in_step.get(self.fn.arg_key(ir.BlockArgument(value)), ()):
                (other,) = self.form(self.fn.argument(key)).terms
                r = self.atom_range(other, ctx, False)
                rng = rng if r is None else meet(rng, (r[0] + d, r[1] + d))
        # a loop counter's bounds rounded to its step (BranchFacts.stride)
        return self.round_to_stride(value, rng)

    def _atom_base(self, atom: Atom, ctx: dict):
        kind, args = atom.kind, atom.args
        if kind == "value":
            return self._value_range(args[0])
        if kind == "wave":
            return 0, self.fn.block_x // WAVE_SIZE - 1
        if kind == "lane":
            return 0, WAVE_SIZE - 1
        if kind == "floordiv":
            r = self.range(args[0], ctx)
            return None if r is None else floordiv_range(r, (args[1], args[1]))
        if kind == "mod":
            return 0, args[1] - 1
        ranges = [self.range(f, ctx) for f in args[:2]]
        if any(r is None for r in ranges):
            return None
        if kind == "xor":     # of non-negative values (proven where it was made)
            top = max(max(r[1] for r in ranges), 0)
            return 0, (1 << top.bit_length()) - 1
        return mul_range(*ranges)

    def _value_range(self, value):
        if isinstance(value.owner, ir.Block):   # the entry block's: no branch passes them
            return self.arg_range.get(self.fn.arg_key(ir.BlockArgument(value)),
                                      signed_range(int_width(value)))
        f = self.form(value)
        if value in self._opaque and len(f.terms) == 1 and next(iter(f.terms)).args == (value,):
            return self._opaque[value]
        return self.range(f, self.ctx(self.fn.block_of(value)))

    def range(self, form: Form, ctx: dict):
        """The least and greatest value of ``form`` (None: no value yet)."""
        lo = hi = form.const
        for atom, c in form.terms.items():
            r = self.atom_range(atom, ctx)
            if r is None:
                return None
            lo += c * (r[0] if c > 0 else r[1])
            hi += c * (r[1] if c > 0 else r[0])
        return lo, hi

    # ---- floor division and modulo by positive constants ---------------------------

    @staticmethod
    def _factors(r: Form, d: int) -> list[int]:
        """Candidate g (1 < g < d, g | d) for ``r = g*s + t`` with a small ``t``."""
        gs = {math.gcd(d, c) for c in r.terms.values()}
        if r.const:
            gs.add(math.gcd(d, r.const))
        return sorted((g for g in gs if 1 < g < d), reverse=True)

    def _peel(self, r: Form, d: int, ctx: dict):
        """``(g, s, t)`` with ``r = g*s + t``, ``0 <= t < g`` and ``g | d`` (the greatest
        such g of :meth:`_factors`), None if there is none."""
        for g in self._factors(r, d):
            s, t = r.split(g)
            trng = self.range(t, ctx)
            if trng is not None and 0 <= trng[0] and trng[1] < g:
                return g, s, t
        return None

    def floordiv(self, f: Form, d: int, ctx: dict) -> Form:
        if d == 1:
            return f
        q, r = f.split(d)
        rng = self.range(r, ctx)
        if rng is None:
            return q
        if rng[0] // d == rng[1] // d:
            return q.plus(const_form(rng[0] // d))
        if (peeled := self._peel(r, d, ctx)) is not None:
            g, s, _ = peeled
            return q.plus(self.floordiv(s, d // g, ctx))
        return q.plus(self._derived("floordiv", (r,), d))

    def mod(self, f: Form, d: int, ctx: dict) -> Form:
        if d == 1:
            return const_form(0)
        _, r = f.split(d)
        rng = self.range(r, ctx)
        if rng is None:
            return r
        if rng[0] // d == rng[1] // d:
            return r.plus(const_form(-d * (rng[0] // d)))
        if (peeled := self._peel(r, d, ctx)) is not None:
            g, s, t = peeled
            return self.mod(s, d // g, ctx).times(g).plus(t)
        return self._derived("mod", (r,), d)

    def _disjoint(self, a: Form, b: Form, ctx: dict) -> bool:
        """Whether ``a`` and ``b`` have no set bit in common: one a multiple of 2^k, the
        other in [0, 2^k)."""
        for x, y in ((a, b), (b, a)):
            rng = self.range(y, ctx)
            if rng is None or rng[0] < 0:
                continue
            k = 1 << max(rng[1], 0).bit_length()
            if x.const % k == 0 and all(c % k == 0 for c in x.terms.values()):
                return True
        return False

    # ---- the form of a value ----------------------------------------------------------

    def form(self, value) -> Form | None:
        """The exact form of an integer SSA value (None for other types)."""
        hit = self._forms.get(value)
        if hit is not None:
            return hit
        w = int_width(value)
        if w is None:
            return None
        if self._depth > self._DEPTH:
            f = self._forms[value] = self._opaque_form(value, None)
            return f
        self._depth += 1
        try:
            f = self._form_of(value, w)
        finally:
            self._depth -= 1
        self._forms[value] = f
        return f

    def _exact(self, value, op, f: Form, w: int, ctx: dict) -> Form:
        """``f`` if it is ``value``'s signed value: 64-bit arithmetic is assumed not to
        wrap, narrower must fit its width or carry ``nsw``."""
        if w >= 64 or fits(self.range(f, ctx), w) or \
                overflow_flags(op) & int(B.llvm.IntegerOverflowFlags.nsw):
            return f
        return self._opaque_form(value, None)

    def _form_of(self, value, w: int) -> Form:
        op = defining_op(value)
        if op is None:
            return self._value_atom(value)
        name = op.name
        ops = list(op.operands)
        ctx = self.op_ctx(op)
        if name == "llvm.mlir.constant":
            k = const_int(value)
            if k is None:
                return self._opaque_form(value, None)
            return const_form(signed(k, w))
        if w == 1:
            t = self.truth(value)
            return const_form(-1 if t else 0) if t is not None else self._opaque_form(value, None)
        if name in ("llvm.zext", "llvm.sext", "llvm.trunc"):
            return self._cast(value, name, ops[0], w, ctx)
        if name == "llvm.select":
            t = self.truth(ops[0])
            if t is not None:
                return self.form(ops[1] if t else ops[2])
            a, b = self.form(ops[1]), self.form(ops[2])
            if a == b:
                return a
            return self._opaque_form(value, hull(self.range(a, ctx), self.range(b, ctx)))
        if name.startswith("rocdl.work"):
            return self._thread_id(value, name, op)
        if name in ("rocdl.mbcnt.lo", "rocdl.mbcnt.hi"):
            acc = self.range(self.form(ops[1]), ctx)     # plus at most 32 lanes' bits
            rng = None if acc is None else (acc[0], acc[1] + 32)
            return self._opaque_form(value, rng if fits(rng, w) else None)
        if name == "rocdl.readfirstlane":
            a = self.form(ops[0])
            return a if a.uniform() else self._opaque_form(value, self.range(a, ctx))
        if len(ops) != 2 or any(int_width(o) != w for o in ops):
            return self._opaque_form(value, None)
        a, b = self.form(ops[0]), self.form(ops[1])
        if name in ("llvm.add", "llvm.sub"):
            return self._exact(value, op, a.plus(b, 1 if name == "llvm.add" else -1), w, ctx)
        if name == "llvm.mul":
            if b.constant() is not None:
                f = a.times(b.const)
            elif a.constant() is not None:
                f = b.times(a.const)
            else:
                f = self._derived("mul", (a, b))
            return self._exact(value, op, f, w, ctx)
        c = b.constant()
        if name == "llvm.shl":
            if c is None or not 0 <= c < w:
                return self._opaque_form(value, None)
            return self._exact(value, op, a.times(1 << c), w, ctx)
        if name in _MINMAX:
            return self._minmax(value, name, a, b, ctx)
        rng = self.range(a, ctx)
        if name in ("llvm.and", "llvm.or", "llvm.xor"):
            return self._bits(value, name, op, a, b, ctx)
        if c is None or c <= 0 or (name in ("llvm.lshr", "llvm.ashr") and c >= w):
            return self._opaque_form(value, self._unsigned_result(name, c, w))
        rule = self.floordiv if name in _FLOORDIV else self.mod if name in _MOD else None
        if rule is not None:
            d = 1 << c if name in ("llvm.lshr", "llvm.ashr") else c
            if name == "llvm.ashr" or nonneg(rng):
                return rule(a, d, ctx)
            if name in ("llvm.sdiv", "llvm.srem") and rng[1] <= 0:    # towards zero
                return rule(a.times(-1), d, ctx).times(-1)
        return self._opaque_form(value, self._unsigned_result(name, c, w))

    @staticmethod
    def _unsigned_result(name: str, c, w: int):
        """What an unsigned division / remainder / shift by ``c`` leaves of any value."""
        if c is None or c <= 0:
            return None
        if name == "llvm.udiv" and c >= 2:
            return 0, ((1 << w) - 1) // c
        if name == "llvm.urem":
            return 0, c - 1
        if name == "llvm.lshr" and 1 <= c < w:
            return 0, (1 << (w - c)) - 1
        if name == "llvm.srem":
            return -(c - 1), c - 1
        return None

    def _cast(self, value, name: str, src, w: int, ctx: dict) -> Form:
        ws = int_width(src)
        if ws is None:
            return self._opaque_form(value, None)
        a = self.form(src)
        if ws == 1:
            k = a.constant()
            if k is not None:     # the i1's signed value: true is -1
                return const_form(-k if name == "llvm.zext" else k)
            return self._opaque_form(value, (0, 1) if name == "llvm.zext" else (-1, 0))
        rng = self.range(a, ctx)
        if name == "llvm.sext" or (name == "llvm.zext" and nonneg(rng)) or \
                (name == "llvm.trunc" and fits(rng, w)):
            return a
        return self._opaque_form(value, (0, (1 << ws) - 1) if name == "llvm.zext" else None)

    def _thread_id(self, value, name: str, op) -> Form:
        dim = "xyz".index(name[-1]) if name[-1] in "xyz" else None
        size = self.fn.block_size[dim] if self.fn.block_size and dim is not None else None
        if name.startswith("rocdl.workitem.id."):
            if dim == 0 and size and size % WAVE_SIZE == 0:
                wave = self._atom("wave", ("wave",), (), True)
                lane = self._atom("lane", ("lane",), (), False)
                return Form({wave: WAVE_SIZE, lane: 1})
            return self._opaque_form(value, _op_range(op, (0, size - 1) if size else None))
        if name.startswith("rocdl.workgroup.id.") and dim is not None:
            # a dimension's grid size is a 32-bit count of work-items: at most
            # ceil((2^32 - 1) / size) workgroups; below 2^31 assumed for a size of 1
            count = min(1 << 31, ceil_div((1 << 32) - 1, size)) if size else 1 << 31
            return self._opaque_form(value, _op_range(op, (0, count - 1)))
        return self._opaque_form(value, None)

    def _minmax(self, value, name: str, a: Form, b: Form, ctx: dict) -> Form:
        pick, unsigned = _MINMAX[name]
        ra, rb = self.range(a, ctx), self.range(b, ctx)
        if unsigned and not (nonneg(ra) and nonneg(rb)):
            return self._opaque_form(value, None)
        first = decide("ge", self.range(a.plus(b, -1), ctx))
        if first is not None:
            return a if first == (pick is max) else b
        if ra is None or rb is None:
            return self._opaque_form(value, None)
        return self._opaque_form(value, pick_range(pick, ra, rb))

    def _bits(self, value, name: str, op, a: Form, b: Form, ctx: dict) -> Form:
        ra, rb = self.range(a, ctx), self.range(b, ctx)
        both = nonneg(ra) and nonneg(rb) and ra is not None and rb is not None
        if name == "llvm.and":
            for x, k in ((a, b.constant()), (b, a.constant())):
                if k is None:
                    continue
                if k >= 0 and k & (k + 1) == 0:            # 2^n - 1: modulo 2^n
                    return self.mod(x, k + 1, ctx)
                if k < 0 and (-k) & (-k - 1) == 0:          # -2^n: clears the low n bits
                    return x.plus(self.mod(x, -k, ctx), -1)
            # with one operand non-negative the result is within [0, that operand]
            tops = [r[1] for r in (ra, rb) if r is not None and r[0] >= 0]
            return self._opaque_form(value, (0, min(tops)) if tops else None)
        if self._disjoint(a, b, ctx) or (name == "llvm.or" and "isDisjoint" in op.attributes):
            return self._exact(value, op, a.plus(b), int_width(value), ctx)
        if name == "llvm.xor" and b.constant() == 0:
            return a
        if name == "llvm.xor" and a.constant() == 0:
            return b
        if not both:
            return self._opaque_form(value, None)
        if name == "llvm.xor":
            return self._derived("xor", (a, b))
        top = max(ra[1], rb[1])
        return self._opaque_form(value, (max(ra[0], rb[0]), (1 << top.bit_length()) - 1))

    def sum_form(self, terms, const: int = 0) -> Form | None:
        """The form of ``sum(coeff * value) + const`` over ``terms`` ``[(value, coeff)]``,
        None if a value has no form."""
        forms = [self.form(v) for v, _ in terms]
        if any(g is None for g in forms):
            return None
        total = const_form(const)
        for g, (_, c) in zip(forms, terms):
            total = total.plus(g.times(c))
        return total
