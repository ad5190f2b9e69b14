"""Two index computations proven equal in every workgroup and launch, without enumerating them.

The per-lane evaluator (:mod:`pipeline_mlir.analysis.loop_eval`) computes a value for every
thread of one workgroup; proving that two computations agree in every workgroup that way
means running it once per workgroup (and refusing values known only at launch).  A
:class:`Forms` instead writes each integer value ``v`` as a linear form

    v = lanes + c_1 * a_1 + ... + c_n * a_n

where ``lanes`` is a per-thread array (what a thread-only evaluator computes: thread ids and
constants, plus the values bound in it, such as a loop's K tile), the ``c_k`` are integers
and the ``a_k`` are atoms: values the thread ids and constants do not determine
(workgroup ids and counts, a workgroup loop's induction variable, push constants, function
arguments) and the ops over them that are not linear (a division, a remainder, a select, a
product of two such values).  An atom is named by its op, its result, its attributes, its
result types and the forms of its operands (so the same op over equal operands, computed
twice, is one atom), or, for a block argument or an op outside the ops followed here, by the
value itself.  ``arith.addi``/``subi``/``muli`` and ``index.add``/``sub``/``mul`` at
64 bits (``index``, ``i64``; a product only with a constant), ``affine.apply`` (its map's
sums and products by a constant expanded; a ``floordiv``, ``ceildiv`` or product of two
non-constant parts the atom of the ``arith`` op that computes it, a ``mod`` an atom of
its own) and the casts that keep their
operand's value (``arith.index_cast``/``extsi`` to as many bits or more, from a source of
two bits or more; ``iree_codegen.index_hint``, ``util.assume.int``) are followed through, which
makes the forms canonical over the ways a compiler folds and reassociates a sum (a
prologue that adds a row's thread, wave and workgroup parts in another order than its loop
body); what depends on the thread alone is compared thread by thread,
however it is computed (IREE's prologue computes a copy's K column with the tile folded
into its constants and a remainder, where the body adds the tile's offset to a per-thread
base).  Arithmetic narrower than 64 bits (which wraps), the casts that change a value
(``extui``, ``index_castui``, ``extsi`` of an ``i1``, which gives -1, any truncation) and
every other op are atoms, keyed with their operand types as well (a comparison of ``i32``
values is not one of ``index`` values).

Two values whose forms are equal (the same per-thread array, the same atoms with the same
coefficients) are equal for every thread of every workgroup of every launch: each atom
takes one value per thread wherever it is named, and the rest is integer arithmetic
modulo 2^64 (what ``index`` and ``i64`` compute; the per-thread arrays are the
evaluator's, which computes each op at its width), where a linear form is exact.
Unequal forms prove nothing: the values may still agree (a product of sums not expanded,
a division that would cancel), and the caller decides another way or refuses.

:func:`same_memref` extends this to memrefs: the same value, the same view for every thread
(thread-only), or the same view op over equal operands.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import attr_strings
from pipeline_mlir.analysis.lane_ops import (PASS_THROUGH, THREAD_OPS, NegativeUnsigned,
                                             Unevaluable)
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.output_tiles import WORKGROUP_COUNT_OPS, WORKGROUP_ID_OPS
from pipeline_mlir.analysis.views import VIEW_OPS, same_placing
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: ops whose result is a function of their operands and attributes alone (no memory, no
#: region): computed twice over equal operands, they give the same value
_PURE = THREAD_OPS + WORKGROUP_ID_OPS + WORKGROUP_COUNT_OPS + (
    "hal.interface.constant.load", "util.assume.int")
#: the casts followed through when they keep the value (:func:`_keeps`)
_EXTENDING = ("arith.index_cast", "arith.extsi")
#: the ops that pass each operand on unchanged
_HINTS = ("iree_codegen.index_hint", "util.assume.int")
_ADD = ("arith.addi", "index.add")
_SUB = ("arith.subi", "index.sub")
_MUL = ("arith.muli", "index.mul")
#: the attributes of an ``arith.muli`` of no overflow flags, as an atom's key has them
_MULI_ATTRS = (("overflowFlags", "#arith.overflow<none>"),)


class Form:
    """``lanes + sum(coefficient * atom)`` (module docstring); ``atoms`` maps an atom's key
    to its non-zero coefficient."""

    __slots__ = ("lanes", "atoms")

    def __init__(self, lanes: np.ndarray, atoms: dict | None = None) -> None:
        self.lanes = lanes
        self.atoms = {k: c for k, c in (atoms or {}).items() if c}

    def plus(self, other: Form, sign: int = 1) -> Form:
        atoms = dict(self.atoms)
        for k, c in other.atoms.items():
            atoms[k] = atoms.get(k, 0) + sign * c
        return Form(self.lanes + sign * other.lanes, atoms)

    def times(self, c: int) -> Form:
        return Form(self.lanes * c, {k: c * v for k, v in self.atoms.items()})

    def constant(self) -> int | None:
        """The value when it is one integer for every thread and has no atoms."""
        if self.atoms or not np.all(self.lanes == self.lanes[0]):
            return None
        return int(self.lanes[0])

    def key(self) -> tuple:
        return (self.lanes.tobytes(), frozenset(self.atoms.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Form) and np.array_equal(self.lanes, other.lanes) and \
            self.atoms == other.atoms

    __hash__ = None     # type: ignore[assignment]


def _attrs(op) -> tuple:
    """``op``'s attributes as (name, printed value) pairs, in name order."""
    return tuple(sorted(attr_strings(op).items()))


def _integer(v) -> bool:
    t = v.type
    return isinstance(t, ir.IndexType) or isinstance(t, ir.IntegerType)


def _site(v):
    """The op of value ``v``: its defining op, or the op of the block it is an argument of."""
    return _op(v.owner.owner) if isinstance(v.owner, ir.Block) else _op(v.owner)


def _bits(v) -> int:
    """The width of integer or index value ``v`` (``index`` is 64 bits)."""
    return 64 if isinstance(v.type, ir.IndexType) else ir.IntegerType(v.type).width


def _keeps(op) -> bool:
    """The cast ``op`` passes its operand's value on unchanged for every value: a sign
    extension (or none) from two bits or more."""
    src, dst = op.operands[0], op.results[0]
    return op.name in _EXTENDING and _integer(src) and _integer(dst) and \
        2 <= _bits(src) <= _bits(dst)


class Forms:
    """The forms of one side's values, over a thread-only evaluator ``ev`` (whose bindings,
    e.g. a loop's K tile, are part of every form)."""

    def __init__(self, ev: Evaluator) -> None:
        if not ev.thread_only:
            raise ValueError("forms are made over a thread-only evaluator")
        self.ev = ev
        self.memo: dict = {}
        #: 1 while a :meth:`form` is computed (the calls inside are not the entry)
        self.depth = 0

    def form(self, v) -> Form:
        """The linear form of the integer or index value ``v`` (module docstring); a chain
        of ops too deep to follow is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at
        ``v``'s op."""
        if v in self.memo:
            return self.memo[v]
        if self.depth:
            return self._form(v)
        self.depth = 1
        try:
            return self._form(v)
        except RecursionError:
            op = _site(v)
            raise IRError(op, f"'{op.name}' op: its value is computed by a chain of ops too "
                              f"deep to compare") from None
        finally:
            self.depth = 0

    def _form(self, v) -> Form:
        """:meth:`form`, memoised: an op over an operand that has atoms is decomposed
        without asking the evaluator (which would follow the chain to the atom again,
        failing: a chain of N ops is O(N), not O(N^2))."""
        if v in self.memo:
            return self.memo[v]
        f = None
        if not isinstance(v.owner, ir.Block) and v not in self.ev.bound:
            op = _op(v.owner)
            if op.name.startswith(_PURE) and not len(op.regions) and \
                    any(self.form(x).atoms for x in op.operands if _integer(x)):
                f = self._decompose(v)
        if f is None:
            try:
                f = Form(self.ev.value(v))
            except (Unevaluable, NegativeUnsigned):   # (the latter: an op of its own, kept)
                f = self._decompose(v)
        self.memo[v] = f
        return f

    def _atom(self, key) -> Form:
        return Form(np.zeros(self.ev.threads, dtype=np.int64), {key: 1})

    def _decompose(self, v) -> Form:
        if isinstance(v.owner, ir.Block):
            return self._atom(("value", v))
        op = _op(v.owner)
        name = op.name
        if not name.startswith(_PURE) or len(op.regions):
            return self._atom(("value", v))
        wide = _integer(v) and _bits(v) == 64     # linear modulo 2^64
        if name in _ADD + _SUB and wide:
            a, b = (self.form(x) for x in op.operands)
            return a.plus(b, -1 if name in _SUB else 1)
        if name in _MUL and wide:
            a, b = (self.form(x) for x in op.operands)
            if b.constant() is not None:
                return a.times(b.constant())
            if a.constant() is not None:
                return b.times(a.constant())
        if name in PASS_THROUGH and _keeps(op) or name in _HINTS:   # the value passed on
            return self.form(op.operands[list(op.results).index(v)])
        if name == "affine.apply":
            am = ir.AffineMapAttr(op.attributes["map"]).value
            forms = [self.form(x) for x in op.operands]
            return self._affine(am.results[0], forms[:am.n_dims], forms[am.n_dims:])
        return self._atom(self._op_key(op, v))

    def _affine(self, e, dims: list, syms: list) -> Form:
        """The form of affine expression ``e`` over the forms of its dimensions and symbols
        (``index``: linear modulo 2^64): sums and products by a constant expanded; a
        product of two non-constant parts, a ``floordiv``, ``ceildiv`` or ``mod`` of a part
        with atoms, an atom keyed as the ``arith`` op that computes it is
        (``arith.muli``, ``arith.floordivsi``, ``arith.ceildivsi``: equal over equal
        operands, whichever of the two computes it; ``mod``, which no ``arith`` op computes
        for a negative operand, an atom of its own); of parts without atoms, the value."""
        if isinstance(e, ir.AffineConstantExpr):
            return Form(np.full(self.ev.threads, e.value, dtype=np.int64))
        if isinstance(e, ir.AffineDimExpr):
            return dims[e.position]
        if isinstance(e, ir.AffineSymbolExpr):
            return syms[e.position]
        a, b = self._affine(e.lhs, dims, syms), self._affine(e.rhs, dims, syms)
        if isinstance(e, ir.AffineAddExpr):
            return a.plus(b)
        if isinstance(e, ir.AffineMulExpr) and b.constant() is not None:
            return a.times(b.constant())
        if isinstance(e, ir.AffineMulExpr) and a.constant() is not None:
            return b.times(a.constant())
        if not a.atoms and not b.atoms:         # per thread: as the evaluator computes it
            x, y = a.lanes, b.lanes
            return Form(x * y if isinstance(e, ir.AffineMulExpr) else
                        np.mod(x, y) if isinstance(e, ir.AffineModExpr) else
                        np.floor_divide(x, y) if isinstance(e, ir.AffineFloorDivExpr) else
                        -np.floor_divide(-x, y))
        name = "arith.muli" if isinstance(e, ir.AffineMulExpr) else \
            "arith.floordivsi" if isinstance(e, ir.AffineFloorDivExpr) else \
            "arith.ceildivsi" if isinstance(e, ir.AffineCeilDivExpr) else "affine.mod"
        attrs = _MULI_ATTRS if name == "arith.muli" else ()
        return self._atom(("op", name, 0, attrs, ("index",), ("index", "index"),
                           (a.key(), b.key())))

    def _op_key(self, op, v) -> tuple:
        """The key of the atom ``v``, a result of ``op``: what makes the op's value."""
        attrs = _attrs(op)
        operands = tuple(self.form(x).key() if _integer(x) else ("value", x)
                         for x in op.operands)
        return ("op", op.name, list(op.results).index(v), attrs,
                tuple(str(r.type) for r in op.results),
                tuple(str(x.type) for x in op.operands), operands)


def same_value(fa: Forms, a, fb: Forms, b) -> bool:
    """Integer values ``a`` (of side ``fa``) and ``b`` (of side ``fb``) are equal for every
    thread of every workgroup and launch: equal forms.  False proves nothing."""
    return fa.form(a) == fb.form(b)


#: vector ops whose result is a function of their operands and attributes alone (a mask, a
#: splat), followed by :func:`made_alike`
_VECTOR_MAKERS = ("vector.create_mask", "vector.constant_mask", "vector.broadcast",
                  "vector.splat")


def made_alike(a, b, depth: int = 8) -> list | None:
    """The pairs of integer values (of equal types) whose equality makes ``a`` and ``b``
    equal: none when ``a`` is ``b``; ``[(a, b)]`` for two integer values; for other values
    (a vector mask, a pass-through), each the same result of the same op (name,
    attributes, operand and result types) free of memory effects and regions (``arith``,
    :data:`_VECTOR_MAKERS`), the pairs of their operands, at most ``depth`` ops deep.  None
    when they are not made so, which proves nothing."""
    if a == b:
        return []
    if a.type != b.type:
        return None
    if _integer(a):
        return [(a, b)]
    if depth == 0 or isinstance(a.owner, ir.Block) or isinstance(b.owner, ir.Block):
        return None
    oa, ob = _op(a.owner), _op(b.owner)
    if oa.name != ob.name or len(oa.regions) or \
            not (oa.name.startswith(_PURE) or oa.name in _VECTOR_MAKERS) or \
            list(oa.results).index(a) != list(ob.results).index(b) or \
            _attrs(oa) != _attrs(ob) or len(oa.operands) != len(ob.operands) or \
            [str(r.type) for r in oa.results] != [str(r.type) for r in ob.results]:
        return None
    pairs: list = []
    for x, y in zip(oa.operands, ob.operands):
        p = made_alike(x, y, depth - 1)
        if p is None:
            return None
        pairs += p
    return pairs


def same_vector(fa: Forms, a, fb: Forms, b) -> bool:
    """Values ``a`` and ``b`` (a vector mask, a pass-through) are equal for every thread of
    every workgroup and launch: :func:`made_alike`, each pair of integers of equal forms.
    False proves nothing."""
    pairs = made_alike(a, b)
    return pairs is not None and all(same_value(fa, x, fb, y) for x, y in pairs)


def same_memref(fa: Forms, a, fb: Forms, b) -> bool:
    """Memrefs ``a`` and ``b`` are the same view of the same buffer for every thread of every
    workgroup and launch: the same value, the same thread-only view placed alike (its
    swizzle and buffer bounds: :func:`~pipeline_mlir.analysis.views.same_placing`), or the
    same view op (name, attributes, result type) over operands proven the same.  False
    proves nothing."""
    if a == b:
        return True
    try:
        va, vb = fa.ev.view(a), fb.ev.view(b)
        return va.root == vb.root and np.array_equal(va.offset, vb.offset) and \
            va.strides == vb.strides and va.shape == vb.shape and \
            same_placing(va, vb, lambda x, y: _integer(x) and _integer(y) and
                         fa.form(x) == fb.form(y))
    except Unevaluable:
        pass
    if isinstance(a.owner, ir.Block) or isinstance(b.owner, ir.Block):
        return False
    oa, ob = _op(a.owner), _op(b.owner)
    if oa.name != ob.name or oa.name not in VIEW_OPS or a.type != b.type or \
            len(oa.operands) != len(ob.operands) or \
            list(oa.results).index(a) != list(ob.results).index(b) or \
            _attrs(oa) != _attrs(ob):
        return False
    for x, y in zip(oa.operands, ob.operands):
        if isinstance(x.type, ir.MemRefType):
            if not same_memref(fa, x, fb, y):
                return False
        elif not (_integer(x) and _integer(y) and fa.form(x) == fb.form(y)):
            return False
    return True

