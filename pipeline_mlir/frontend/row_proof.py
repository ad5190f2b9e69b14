"""A proof, for every size, of the row masks of IREE's padded kernels.

:mod:`~pipeline_mlir.frontend.masked_rows` and :mod:`~pipeline_mlir.frontend.masked_rows_k`
check by evaluation at sampled workgroups and sizes what their rewrite relies on: per
thread, the row mask ``s`` is 0 or 1, a read row is the workgroup's ``T g + lr`` and a
masked row lies at or past the size ``L`` (``T g + lr >= L``).  This module proves the
same for every workgroup ``g >= 0`` and every size ``L`` the workgroup runs at (``L = T g
+ d`` for every ``d >= 1``: ``g < ceildiv(L, T)``), on every thread.

Each value is evaluated, per thread (the thread id a constant), as an affine form ``a g + b
d + c`` of integers on a piece of the sizes: an interval ``lo <= d <= hi`` (``hi`` may be
unbounded).  Sums, differences, products by a constant, ``affine`` maps of those, and
``min``, ``max``, ``cmpi`` and ``select`` are exact on a piece where the compared forms'
difference has one sign (``< 0``, ``= 0`` or ``> 0``) for every ``g >= 0`` and ``d`` of the
piece; where it has not and the difference does not depend on ``g``, the piece is split at
the ``d`` where the sign changes (at most two points), and both halves are proven.  A
division (``floordiv``, ``ceildiv``, ``mod``, ``delinearize``) by a constant is exact when
the constant divides the form's ``g`` and ``d`` coefficients, or divides its ``g`` one and
the quotient is one value on the piece; otherwise a piece of at most :data:`POINTS` sizes
is split where the quotient changes.  The thread id, the workgroup ``g``, the
size and the K-loop's variable (its first value: the row and mask are checked not to move
with it) are the leaves; any other value (another launch value, a load, an op outside this
list) is refused at the read, naming it: the proof does not settle the mask, and sampling
alone does not take it.  The pieces are finitely many (each split cuts at a point where a
difference of forms changes sign), so the proof ends.
"""

from __future__ import annotations

from pipeline_mlir.dialect.attrs import dimension
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation as _op
from pipeline_mlir.analysis.ir_facts import DYNAMIC, dense_i64, fold_tree, map_trees
from pipeline_mlir.frontend.kernel_ir import describe

#: a piece of at most this many sizes may be split into single sizes (module docstring)
POINTS = 1024
#: a bound on the pieces of one thread's proof (each split halves a piece or more)
MAX_PIECES = 4096


class Form:
    """``g * self.g + d * self.d + self.c`` (integers)."""

    __slots__ = ("g", "d", "c")

    def __init__(self, g: int = 0, d: int = 0, c: int = 0) -> None:
        self.g, self.d, self.c = g, d, c

    def __add__(self, o: "Form") -> "Form":
        return Form(self.g + o.g, self.d + o.d, self.c + o.c)

    def __sub__(self, o: "Form") -> "Form":
        return Form(self.g - o.g, self.d - o.d, self.c - o.c)

    def scale(self, k: int) -> "Form":
        return Form(self.g * k, self.d * k, self.c * k)

    def const(self) -> int | None:
        return self.c if self.g == 0 and self.d == 0 else None

    def __repr__(self) -> str:
        return f"{self.g}*g + {self.d}*d + {self.c}"


class Split(Exception):
    """The piece must be cut before size ``at`` (``lo .. at - 1`` and ``at .. hi``)."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


class Unproven(Exception):
    """The proof cannot settle a value: ``why``."""


class Wrong(Exception):
    """A property fails on a piece: ``why``."""


def _ceil(a: int, b: int) -> int:
    return -((-a) // b)


class Piece:
    """Sizes ``lo <= d <= hi`` (``hi`` None: unbounded), every ``g >= 0``."""

    def __init__(self, lo: int, hi: int | None) -> None:
        self.lo, self.hi = lo, hi

    def _cut(self, at: int) -> None:
        if self.lo < at and (self.hi is None or at <= self.hi):
            raise Split(at)

    def sign(self, f: Form) -> int:
        """The sign of ``f`` on the piece (-1, 0, 1); :class:`Split` where it changes,
        :class:`Unproven` where ``g`` decides it."""
        lo = f.c + f.d * (self.lo if f.d >= 0 or self.hi is None else self.hi)
        hi = None if f.g > 0 or (f.d > 0 and self.hi is None) else \
            f.c + f.d * (self.hi if f.d > 0 else self.lo)
        if f.g < 0 or (f.d < 0 and self.hi is None):
            lo = None
        if lo is not None and lo > 0:
            return 1
        if hi is not None and hi < 0:
            return -1
        if lo == 0 and hi == 0:
            return 0
        if f.g != 0:
            raise Unproven(f"the sign of {f} depends on the workgroup")
        # f.d != 0 here: cut where f turns zero and where it leaves zero
        b, c = (f.d, f.c) if f.d > 0 else (-f.d, -f.c)
        self._cut(_ceil(-c, b))
        self._cut(-c // b + 1)
        raise Unproven(f"no cut settles the sign of {f}")  # pragma: no cover

    def surely_nonneg(self, f: Form) -> bool:
        """Whether ``f >= 0`` for every ``g >= 0`` and size of the piece, read off its
        coefficients (``g``'s not negative, its least value over the sizes at ``g = 0``);
        False where that does not show it."""
        if f.g < 0 or (f.d < 0 and self.hi is None):
            return False
        return f.c + f.d * (self.lo if f.d >= 0 else self.hi) >= 0

    def at_least_zero(self, f: Form) -> bool:
        """Whether ``f >= 0`` on the piece: by :meth:`sign`, and where the workgroup
        decides that (``128 g``: zero or positive) by :meth:`surely_nonneg`."""
        try:
            return self.sign(f) >= 0
        except Unproven:
            if self.surely_nonneg(f):
                return True
            raise

    def divide(self, f: Form, k: int) -> Form:
        """``floor(f / k)`` for a constant ``k > 0``."""
        if f.g % k == 0 and f.d % k == 0:
            return Form(f.g // k, f.d // k, f.c // k)
        if f.g % k == 0 and self.hi is not None:
            # ``g f.g / k`` is whole; ``f.d d + f.c`` is monotone in ``d``, so its floor is
            # one value on the piece where its ends' floors agree
            q = (f.d * self.lo + f.c) // k
            if q == (f.d * self.hi + f.c) // k:
                return Form(f.g // k, 0, q)
            if self.hi - self.lo < POINTS:
                # cut where the floor first leaves ``q``: ``f.d d + f.c`` reaches ``(q + 1)
                # k`` (rising) or falls below ``q k`` (falling)
                edge = (q + 1) * k - f.c if f.d > 0 else q * k - 1 - f.c
                self._cut(max(self.lo + 1, _ceil(edge, f.d)))
        raise Unproven(f"({f}) floordiv {k} is not affine in the size")


def _cmp(piece: Piece, pred: int, a: Form, b: Form) -> int:
    """``arith.cmpi`` of predicate ``pred`` on the piece: 0 or 1 (an unsigned one only of
    operands proven non-negative, where it is the signed one)."""
    if pred >= 6:
        _nonneg(piece, "an unsigned comparison", a, b)
        pred -= 4
    try:
        s = piece.sign(a - b)
    except Unproven:
        # a < b and a >= b are settled where a - b >= 0 (b > a, b <= a where b - a >= 0):
        # g < 0 is false for every g >= 0, though g has no one sign over them
        for diff, settled in ((a - b, {2: 0, 5: 1}), (b - a, {4: 0, 3: 1})):
            if pred in settled and piece.surely_nonneg(diff):
                return settled[pred]
        raise
    return int({0: s == 0, 1: s != 0, 2: s < 0, 3: s <= 0, 4: s > 0, 5: s >= 0}[pred])


def _nonneg(piece: Piece, what: str, *forms: Form) -> None:
    if any(not piece.at_least_zero(f) for f in forms):
        raise Unproven(f"{what} of a value that may be negative")


def _minmax(piece: Piece, forms: list, sign: int) -> Form:
    """The least (``sign`` -1) or greatest (1) of ``forms`` on the piece; where two are
    equal for some ``g`` or size, either (:meth:`Piece.surely_nonneg` of the difference
    the right way settles it without a sign)."""
    out = forms[0]
    for f in forms[1:]:
        try:
            if piece.sign(f - out) == sign:
                out = f
        except Unproven:
            if piece.surely_nonneg((f - out).scale(sign)):
                out = f
            elif not piece.surely_nonneg((out - f).scale(sign)):
                raise
    return out


def _expr(piece: Piece, tree: tuple, dims: list, syms: list) -> Form:
    """The form of the affine expression of :func:`~pipeline_mlir.analysis.ir_facts.
    affine_tree` ``tree``."""
    return fold_tree(tree, dims, syms, lambda c: Form(c=c),
                     lambda kind, a, b, x: _form_binary(piece, kind, a, b, x))


def _form_binary(piece: Piece, kind: str, a: Form, b: Form, e) -> Form:
    """The form of the binary affine expression ``e`` of kind ``kind`` whose operands'
    forms are ``a`` and ``b``: a product needs a constant factor, a division a constant
    positive divisor."""
    if kind == "add":
        return a + b
    k = b.const()
    if kind == "mul":
        if k is None and a.const() is None:
            raise Unproven(f"the product {e} of two values that vary")
        return a.scale(k) if k is not None else b.scale(a.const())
    if k is None or k <= 0:
        raise Unproven(f"{e}: a division by a value that varies or is not positive")
    if kind == "floordiv":
        return piece.divide(a, k)
    if kind == "ceildiv":
        return Form() - piece.divide(Form() - a, k)
    return a - piece.divide(a, k).scale(k)


class SymbolicRows:
    """The forms of values on one thread and one piece (module docstring); ``shared``
    holds the forms on the piece of the values no thread id reaches (the same on every
    thread; and where one needs the piece cut, the cut, under ``(Split, its number)``),
    ``tid_free`` which values those are; ``plans`` (shared by the threads and
    pieces of one proof, which read the IR and never change it) what each value's op is:
    :meth:`_plan`.  Each value is numbered once per proof (:class:`_Numbering`, in
    ``plans``) and its forms and plan are kept under its number, a plain int: hashing an
    MLIR value goes through the bindings, which the proof's many lookups would pay each
    time."""

    def __init__(self, leaves: dict, piece: Piece, tid: int, shared: dict,
                 tid_free: dict, plans: dict | None = None) -> None:
        self.plans = {} if plans is None else plans
        self.numbers = self.plans.get(_Numbering)
        if self.numbers is None:
            self.numbers = self.plans[_Numbering] = _Numbering()
        # the leaves by number, numbered once per proof and ``leaves`` (one dict per proof)
        numbered = self.plans.get(("leaves", id(leaves)))
        if numbered is None or numbered[0] is not leaves:
            numbered = self.plans[("leaves", id(leaves))] = (
                leaves, {self.numbers.of(k): f for k, f in leaves.items()})
        # on a piece of one size, ``d`` is that size
        self.leaves = numbered[1] if piece.lo != piece.hi else \
            {n: Form(f.g, 0, f.c + f.d * piece.lo) for n, f in numbered[1].items()}
        self.piece, self.tid = piece, tid
        self.memo, self.shared, self.tid_free = {}, shared, tid_free

    def form(self, v) -> Form:
        """The form of the value ``v`` (an int: that constant)."""
        if isinstance(v, int):
            return Form(c=v)
        return self._form(self.numbers.of(v))

    def _form(self, n: int) -> Form:
        """The form of the value numbered ``n``."""
        f = self.leaves.get(n)          # a Form, never None; a leaf first, then a value
        if f is None:                   # the threads share, then this thread's own
            f = self.shared.get(n)
            if f is None:
                f = self.memo.get(n)
        if f is not None:
            return f
        op, res, results, narrow, free = self._plan(n)
        if free:        # (the same on every thread: a cut it needs is every thread's too)
            at = self.shared.get((Split, n))
            if at is not None:
                raise Split(at)
            try:
                outs = res(self, op)
            except Split as s:
                self.shared[(Split, n)] = s.at
                raise
        else:
            outs = res(self, op)
        for f, width in zip(outs, narrow):
            if width and (f.g or f.d):
                raise Unproven(_WRAPS.format(width=width, form=f))
        into = self.shared if free else self.memo
        for r, f in zip(results, outs):
            into[r] = f
        return into[n]

    def _plan(self, n: int) -> tuple:
        """(its op, the op's rule, the numbers of its results, the width of each result
        that is an integer narrower than 64 bits and wider than 1, else 0: :func:`_narrow`,
        whether no thread id reaches it: :func:`no_thread_id`) of the value numbered ``n``,
        an op's result; :class:`Unproven` for a block argument or an op no rule takes."""
        plan = self.plans.get(n)
        if plan is not None:
            return plan
        v = self.numbers.values[n]
        if isinstance(v.owner, ir.Block):
            raise Unproven(f"a block argument of '{_op(v.owner.owner).name}' is neither "
                           f"the workgroup, the size, the thread id nor the K-loop's "
                           f"variable")
        op = _op(v.owner)
        res = _OPS.get(op.name)
        if res is None:
            raise Unproven(f"'{op.name}' is outside the affine forms the proof takes")
        results = tuple(op.results)
        plan = (op, res, tuple(self.numbers.of(r) for r in results),
                tuple(_narrow(r) for r in results), no_thread_id(op, self.tid_free))
        for r in plan[2]:
            self.plans[r] = plan
        return plan

    def operands(self, op) -> list:
        return [self._form(n) for n in self.static(op, "operands", self._numbers)]

    def operand(self, op, i: int) -> Form:
        """The form of ``op``'s operand ``i`` (:meth:`operands` of that one alone)."""
        return self._form(self.static(op, "operands", self._numbers)[i])

    def _numbers(self, op) -> tuple:
        """The numbers of ``op``'s operands."""
        return tuple(self.numbers.of(x) for x in op.operands)

    def static(self, op, what: str, read):
        """``read(op)`` (what ``op`` says of itself: its operands, its map, its predicate),
        read once per proof (``plans``, by the op's Python object, which the plan of its
        results holds for the proof)."""
        key = (what, id(op))
        found = self.plans.get(key)
        if found is None or found[0] is not op:
            found = self.plans[key] = (op, read(op))
        return found[1]


class _Numbering:
    """Values numbered 0, 1, ... in the order first asked for (``values``: by number)."""

    __slots__ = ("numbers", "values")

    def __init__(self) -> None:
        self.numbers: dict = {}
        self.values: list = []

    def of(self, v) -> int:
        n = self.numbers.get(v)
        if n is None:
            n = self.numbers[v] = len(self.values)
            self.values.append(v)
        return n


#: why a value's form is not taken (:func:`_narrow`)
_WRAPS = "an i{width} value ({form}) moves with the workgroup or the size and may wrap"


def _narrow(v) -> int:
    """The width of ``v``'s type when it is an integer narrower than 64 bits and wider than
    1, else 0: such a value whose form moves with the workgroup or the size would wrap for
    large ones (``i32`` from ``2^31``), which the forms do not model: left unproven
    (:data:`_WRAPS`).  ``index`` and ``i64`` values stay far below ``2^63`` (the sizes are
    below ``2^53``, IREE's ``util.assume.int``) and ``i1`` ones are the comparisons' 0 and
    1."""
    t = v.type
    if isinstance(t, ir.IntegerType) and 1 < ir.IntegerType(t).width < 64:
        return ir.IntegerType(t).width
    return 0


def no_thread_id(op, cache: dict | None = None) -> bool:
    """No ``gpu.thread_id`` reaches ``op``'s results (``cache``: by op)."""
    cache = {} if cache is None else cache
    if op in cache:
        return cache[op]
    free = op.name != "gpu.thread_id" and all(
        isinstance(x.owner, ir.Block) or no_thread_id(_op(x.owner), cache) for x in op.operands)
    cache[op] = free
    return free


def _constant(sr, op):
    a = op.attributes["value"]
    if not isinstance(a, ir.IntegerAttr):
        raise Unproven(f"'{op.name}' of a non-integer value")
    return [Form(c=ir.IntegerAttr(a).value)]


def _map_of(op) -> tuple:
    """(dimensions, result expression trees) of an affine op's ``map``."""
    return map_trees(op.attributes["map"])


def _affine(kind):
    def h(sr, op):
        n_dims, trees = sr.static(op, "map", _map_of)
        vals = sr.operands(op)
        res = [_expr(sr.piece, t, vals[:n_dims], vals[n_dims:]) for t in trees]
        return res if kind == 0 else [_minmax(sr.piece, res, kind)]
    return h


def _basis(sr, op) -> list:
    dyn = iter(list(op.operands)[1:])
    out = []
    for b in dense_i64(op, "static_basis"):
        k = sr.form(next(dyn)).const() if b == DYNAMIC else b
        if k is None or k <= 0:
            raise Unproven(f"'{op.name}' of a basis that varies or is not positive")
        out.append(k)
    return out


def _delinearize(sr, op):
    rest, basis = sr.operand(op, 0), _basis(sr, op)
    n = len(op.results)
    out = []
    for k in reversed(basis[len(basis) - n + 1:]):
        q = sr.piece.divide(rest, k)
        out.append(rest - q.scale(k))
        rest = q
    return [rest, *reversed(out)]


def _binary(sr, op):
    a, b = sr.operands(op)
    kind = _BINARY_KINDS[op.name]
    if kind in ("addi", "subi"):
        return [a + b if kind == "addi" else a - b]
    if kind.endswith("ui"):
        _nonneg(sr.piece, f"'{op.name}'", a, b)
    if kind in ("minsi", "maxsi", "minui", "maxui"):
        return [_minmax(sr.piece, [a, b], -1 if kind.startswith("min") else 1)]
    k = b.const()
    if kind == "muli" and (k is not None or a.const() is not None):
        return [a.scale(k) if k is not None else b.scale(a.const())]
    if kind in ("floordivsi", "divui", "divsi") and k is not None and k > 0 and (
            kind != "divsi" or sr.piece.at_least_zero(a)):
        return [sr.piece.divide(a, k)]
    if kind in ("remui", "remsi") and k is not None and k > 0 and (
            kind == "remui" or sr.piece.at_least_zero(a)):
        return [a - sr.piece.divide(a, k).scale(k)]
    if kind in ("ceildivsi", "ceildivui") and k is not None and k > 0:
        return [Form() - sr.piece.divide(Form() - a, k)]
    raise Unproven(f"'{op.name}' of {a} and {b} is not affine in the size")


def _select(sr, op):
    """The form of the operand the condition picks (the other one not evaluated: IREE's
    ``v mod X`` corrected for a negative remainder it never has)."""
    c = sr.operand(op, 0)
    if c.const() is None:
        raise Unproven(f"'{op.name}' on a condition that varies: {c}")
    return [sr.operand(op, 1 if c.const() else 2)]


def _cmpi(sr, op):
    a, b = sr.operands(op)
    predicate = sr.static(op, "predicate",
                          lambda o: ir.IntegerAttr(o.attributes["predicate"]).value)
    return [Form(c=_cmp(sr.piece, predicate, a, b))]


def _castui(sr, op):
    f = sr.operand(op, 0)
    _nonneg(sr.piece, f"'{op.name}'", f)
    return [f]


def _thread(sr, op):
    why = sr.static(op, "dimension", _not_x)
    if why:
        raise Unproven(why)
    return [Form(c=sr.tid)]


def _not_x(op) -> str:
    """Why thread id ``op`` is not the id along x the proof takes; '' if it is."""
    if "dimension" in op.attributes and dimension(op.attributes["dimension"]) != 0:
        return f"'{op.name}' along {op.attributes['dimension']}"
    return ""


#: the ``arith`` ops :func:`_binary` takes, by name: the kind it reads
_BINARY_KINDS = {f"arith.{k}": k for k in (
    "addi", "subi", "muli", "minsi", "maxsi", "minui", "maxui", "floordivsi", "divui", "divsi",
    "remui", "remsi", "ceildivsi", "ceildivui")}
_OPS = {"arith.constant": _constant, "affine.apply": _affine(0),
        "affine.min": _affine(-1), "affine.max": _affine(1),
        "affine.delinearize_index": _delinearize, "arith.select": _select,
        "arith.cmpi": _cmpi, "gpu.thread_id": _thread,
        "arith.index_cast": lambda sr, op: sr.operands(op),
        "arith.index_castui": lambda sr, op: _castui(sr, op),
        **dict.fromkeys(_BINARY_KINDS, _binary)}


def _one_value(piece: Piece, s: Form, what: str) -> None:
    """``s`` (the mask or guard) is one value on the piece: else the piece is cut into
    single sizes where it is short enough, or the mask is unproven."""
    if s.const() is None:
        if piece.hi is not None and piece.hi - piece.lo < POINTS:
            piece._cut(piece.lo + 1)
        raise Unproven(f"the {what} {s} takes more than two values")


def _check_piece(sr, values: dict, T: int) -> None:
    """The row-mask properties (module docstring) on ``sr``'s thread and piece."""
    piece = sr.piece
    s, row, lr = (sr.form(values[k]) for k in ("size", "row", "lr"))
    if lr.g or lr.d:
        raise Unproven(f"the LDS row {lr} moves with the workgroup or the size")
    _one_value(piece, s, "row mask")
    if s.const() not in (0, 1):
        raise Wrong(f"masks {s.const()} rows; a row-masked copy reads one row or none")
    if s.const() == 1 and piece.sign(row - Form(g=T, c=lr.c)) != 0:
        raise Wrong("reads a row other than the one its LDS row holds in the "
                    "workgroup's tile")
    if s.const() == 0 and piece.sign(Form(d=-1, c=lr.c)) < 0:
        raise Wrong("masks a row below the size; only rows past the buffer's end read "
                    "zero from a range-checked buffer")


def check_guarded_piece(sr, values: dict, T: int) -> None:
    """The late form's property on ``sr``'s thread and piece: the guard (``size``) is 0 or
    1, and where it is 1 the row read lies in the buffer, ``0 <= row < L``."""
    piece = sr.piece
    s, row = sr.form(values["size"]), sr.form(values["row"])
    _one_value(piece, s, "row guard")
    if s.const() not in (0, 1):
        raise Wrong(f"guards with {s.const()}, not a truth value")
    if s.const() == 1 and not (piece.at_least_zero(row) and
                               piece.at_least_zero(Form(g=T, d=1, c=-1) - row)):
        raise Wrong("reads a row outside the buffer's L rows where its guard holds")


def prove_rows(read, values: dict, leaves: dict, T: int, threads: int,
               check=_check_piece) -> int:
    """Prove the row-mask properties (module docstring) of the copy read by ``read`` on
    every thread, for every workgroup ``g`` and size ``T g + d``, ``d >= 1``: ``values``
    holds the mask size, the row read and the LDS row (``size``, ``row``, ``lr``), ``leaves``
    the forms of the workgroup, the size and the K-loop's variable; ``check`` the
    properties (:func:`check_guarded_piece` for the late form's guarded rows).  The number
    of pieces proven; an :class:`IRError` at ``read`` where a property fails or is not
    settled."""
    done, shared, tid_free, plans = 0, {}, {}, {}
    for tid in range(threads):
        pieces, mine = [Piece(1, None)], 0
        while pieces:
            piece = pieces.pop()
            try:
                check(SymbolicRows(leaves, piece, tid, shared.setdefault(
                    (piece.lo, piece.hi), {}), tid_free, plans), values, T)
                done += 1
                mine += 1
            except Split as s:
                pieces += [Piece(piece.lo, s.at - 1), Piece(s.at, piece.hi)]
            except Wrong as w:
                raise IRError(read, f"{describe(read)} {w}, {_where(tid, piece, T)}") \
                    from None
            except Unproven as u:
                raise IRError(read, f"{describe(read)}: its row mask is not proven for "
                                    f"every size ({u}, {_where(tid, piece, T)}); only masks "
                                    f"affine in the "
                                    f"size, the workgroup and the thread id are taken") \
                    from None
            if len(pieces) + mine > MAX_PIECES:
                raise IRError(read, f"{describe(read)}: its row mask is not proven for "
                                    f"every size (more than {MAX_PIECES} pieces on thread "
                                    f"{tid}, the last "
                                    f"{_where(tid, piece, T).removeprefix(f'on thread {tid} ')})")
    return done


def _where(tid: int, piece: Piece, T: int) -> str:
    """Where :func:`prove_rows` is, as words: the thread and the piece."""
    return f"on thread {tid} at sizes T g + d for d in {piece.lo} .. " \
           f"{piece.hi if piece.hi is not None else 'any'} (T = {T}, any g)"
