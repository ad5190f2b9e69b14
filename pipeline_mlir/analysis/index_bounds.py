"""The range of an ``index`` (or integer) value of a kernel's IR, as an unsigned interval.

:func:`unsigned_bounds` gives ``(lo, hi)`` with ``0 <= lo <= value <= hi`` for every run,
or None when it cannot tell.  It knows integer constants, the unsigned casts and
extensions from a narrower integer (``arith.index_castui``, ``arith.extui``: anything that
fits the source's width), the signed ones of a value it proves non-negative, and
``arith.addi``, ``arith.muli``, ``arith.divui``, ``arith.remui``, ``arith.maxui`` and
``arith.minui`` of values it knows (exact, as long as no intermediate reaches 2**63:
none wraps), and a signed clamp of any value between two it knows to be non-negative,
``maxsi(minsi(x, hi), lo)`` or
``minsi(maxsi(x, lo), hi)`` (:func:`_clamp`: whatever ``x`` is, the result lies between
them; how the front end bounds the split of a run-time trip count,
:func:`pipeline_mlir.frontend.tails.clamp_split`).  Anything else (a function argument of
type ``index``, a load, a block argument) is unknown; with ``ivs`` an ``scf.for``'s
induction variable is known inside its loop when its bounds are constants (the front
end's check of private buffers, :mod:`pipeline_mlir.frontend.private_bounds`; the other
callers leave it off); with ``threads`` a ``gpu.thread_id`` that states an ``upper_bound``
is known (a private tile's element reads, :mod:`pipeline_mlir.frontend.private_rows`); with
``bits`` also ``arith.shrui`` and ``arith.shrsi`` (of a value below the sign bit) by a known
shift, ``arith.shli`` (a zero by any shift), ``arith.andi`` (at most the smaller operand's
bound), ``arith.ori`` and ``arith.xori`` (all three also by the high bits each operand's
values share), ``arith.subi`` that cannot wrap, ``arith.ceildivui``,
``arith.minui`` of an unknown (at most the other's bound), ``arith.remui`` of an unknown by
a positive range, ``arith.select`` (its values' hull), ``arith.cmpi`` (a bit, decided where
the ranges decide it), ``arith.trunci``, every id that states an ``upper_bound``
(``gpu.thread_id``, ``gpu.block_id``, ``hal.interface.workgroup.id``), and, of none, a
``gpu.thread_id`` or ``gpu.block_dim`` by the function's workgroup size (else, with
``gpu.block_id`` and ``gpu.grid_dim``, by a launch's 32 bits), a ``gpu.lane_id`` below the
wave's 64 and ``gpu.subgroup_size`` the wave's; the signed divisions, remainders, maxima and
minima of values that are not negative as their unsigned ops (a zero divided, or its
remainder, by anything: zero), IREE's ``util.assume.int``, a vector's elements (a
broadcast, a step, a dense constant, an element read); and what ``scf`` regions carry, as a
fixed point (:func:`_fixed_point`): an ``scf.for`` variable by its bounds' ranges, a
value an ``scf.for`` or ``scf.while`` carries by its first value joined with what an
iteration yields from it (kept where an iteration keeps it inside, else unknown), a
loop's results likewise, an ``scf.if`` result by both branches (the one a decided
condition takes): the facts MLIR's integer range analysis draws too
(:mod:`pipeline_mlir.passes.check_divisors`: a divisor it would find zero).  The lowering narrows the pipelined
main loop's control to 32 bits with it (:mod:`pipeline_mlir.lowering.loop_i32`).  No rewriting.
"""

from __future__ import annotations

import re

from pipeline_mlir.analysis import int_ranges as R
from pipeline_mlir.analysis.ir_facts import (constant_bounds, constant_int, constant_trips,
                                             declared_sizes, dense_ints, function_of, int_bits)
from pipeline_mlir.dialect.attrs import dimension
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation
from pipeline_mlir.target.gfx950 import WAVE_SIZE

_UNSIGNED_CASTS = ("arith.index_castui", "arith.extui")
_SIGNED_CASTS = ("arith.index_cast", "arith.extsi")
#: binary ops -> the range of their result (unsigned operands)
_ALWAYS = {"arith.addi": R.add, "arith.muli": R.mul,
           "arith.maxui": lambda a, b: R.pick(max, a, b),
           "arith.minui": lambda a, b: R.pick(min, a, b)}
#: binary ops whose result's range is known for a positive divisor
_POSITIVE_DIVISOR = {"arith.divui": R.floordiv, "arith.remui": R.remainder}
#: with ``bits``: bitwise ops and the others MLIR's integer range analysis bounds -> the
#: range of their result (unsigned operands; None where it may wrap)
_BITS = {"arith.andi": lambda a, b: _bitwise(lambda x, y: x & y, a, b, min(a[1], b[1])),
         "arith.shrui": lambda a, b: (a[0] >> b[1], a[1] >> b[0]),
         "arith.shrsi": lambda a, b: (a[0] >> b[1], a[1] >> b[0]),
         "arith.shli": lambda a, b: (a[0] << b[0], a[1] << b[1]) if b[1] < 64 else None,
         "arith.ori": lambda a, b: _bitwise(lambda x, y: x | y, a, b),
         "arith.xori": lambda a, b: _bitwise(lambda x, y: x ^ y, a, b),
         "arith.subi": lambda a, b: (a[0] - b[1], a[1] - b[0]) if a[0] >= b[1] else None,
         "arith.ceildivui": lambda a, b: (R.ceil_div(a[0], b[1]), R.ceil_div(a[1], b[0]))
         if b[0] > 0 else None}
_SHIFTS_RIGHT = ("arith.shrui", "arith.shrsi")
#: with ``bits``: the signed ops that are their unsigned one on non-negative operands
_SIGNED_AS_UNSIGNED = {"arith.divsi": "arith.divui", "arith.floordivsi": "arith.divui",
                       "arith.remsi": "arith.remui", "arith.ceildivsi": "arith.ceildivui",
                       "arith.maxsi": "arith.maxui", "arith.minsi": "arith.minui"}
#: with ``bits``: the ops whose result is zero where their first operand is, whatever the
#: second (a division of zero by zero is undefined: any value, zero among them)
_ZERO_OVER_ANY = ("arith.shli", "arith.shrui", "arith.shrsi", "arith.divui", "arith.divsi",
                  "arith.floordivsi", "arith.ceildivui", "arith.ceildivsi", "arith.remui",
                  "arith.remsi")
#: with ``bits``: the ids whose ``upper_bound`` bounds them
_IDS = ("gpu.thread_id", "gpu.block_id", "hal.interface.workgroup.id")
#: the largest value of an unsigned 32-bit counter
U32_MAX = (1 << 32) - 1


def _scalar(t):
    """Type ``t``, or its element type for a vector (whose range here is its elements')."""
    return ir.VectorType(t).element_type if isinstance(t, ir.VectorType) else t


def _bits(t) -> int:
    return int_bits(_scalar(t))


def _limit(t) -> int:
    """The largest unsigned value of type ``t`` (of its elements) whose arithmetic here
    does not wrap (an index: the largest signed 64-bit value)."""
    t = _scalar(t)
    return (1 << t.width) - 1 if isinstance(t, ir.IntegerType) else R.signed_range(64)[1]


def _combine(name: str, a: tuple[int, int], b: tuple[int, int],
             bits: bool = False) -> tuple[int, int] | None:
    if bits and name in _BITS and (name not in _SHIFTS_RIGHT or b[1] < 64):
        return _BITS[name](a, b)
    if name in _ALWAYS:
        return _ALWAYS[name](a, b)
    if name in _POSITIVE_DIVISOR and b[0] > 0:
        return _POSITIVE_DIVISOR[name](a, b)
    return None


def unsigned_bounds(v, depth: int = 24, ivs: bool = False, threads: bool = False,
                    bits: bool = False) -> tuple[int, int] | None:
    """``(lo, hi)`` bounding integer value ``v`` in every run, or None (module docstring);
    ``ivs``: with the range of an ``scf.for`` induction variable inside its loop
    (:func:`_iv_bounds`); ``threads``: with ``[0, n)`` for a ``gpu.thread_id`` that states
    its ``upper_bound n``; ``bits``: with right shifts, masks and every id's bound."""
    c = constant_int(v)
    if c is not None:
        return (c, c) if 0 <= c <= _limit(v.type) else None
    if isinstance(v.owner, ir.Block):
        if bits:
            return _carried(v, depth, threads) if depth > 0 else None
        return _iv_bounds(v) if ivs else None
    if depth == 0:
        return None
    o = as_operation(v.owner)
    operands = list(o.operands)
    if bits and o.name in _BY_RESULT:
        out = _BY_RESULT[o.name](o, ir.OpResult(v).result_number, depth - 1, threads)
        return out if out is not None and out[1] <= _limit(v.type) else None
    if (threads or bits) and o.name in (_IDS if bits else _IDS[:1]) and \
            "upper_bound" in o.attributes:
        return 0, ir.IntegerAttr(o.attributes["upper_bound"]).value - 1
    if bits and o.name in _BITS_ALONE:
        out = _BITS_ALONE[o.name](o, depth - 1, ivs, threads)
        return out if out is not None and out[1] <= _limit(v.type) else None
    if o.name in _UNSIGNED_CASTS + _SIGNED_CASTS:
        src = unsigned_bounds(operands[0], depth - 1, ivs, threads, bits)
        if src is None and o.name in _UNSIGNED_CASTS:
            src = (0, (1 << _bits(operands[0].type)) - 1)
        elif src is not None and o.name in _SIGNED_CASTS and \
                src[1] >> (_bits(operands[0].type) - 1):
            src = None        # a signed source that may be negative: unknown
        return src if src is not None and src[1] <= _limit(v.type) else None
    if len(operands) != 2:
        return None
    if o.name in _CLAMP:
        out = _clamp(o, depth, ivs)
        if out is not None or not bits:
            return out
    a, b = (unsigned_bounds(x, depth - 1, ivs, threads, bits) for x in operands)
    if bits and (a is None) != (b is None):
        return _one_known(o, a, b)
    top = R.signed_range(_bits(v.type))[1]
    if a is None or b is None or o.name == "arith.shrsi" and a[1] > top:
        return None                 # (shrsi: a negative value's sign kept)
    name = o.name
    if bits and a == (0, 0) and name in _ZERO_OVER_ANY:
        return 0, 0                 # (a zero divided, shifted or its remainder)
    if bits and name in _SIGNED_AS_UNSIGNED and max(a[1], b[1]) <= top:
        name = _SIGNED_AS_UNSIGNED[name]        # (both operands non-negative)
    if bits and name == "arith.remui" and b[0] == 0 < b[1]:
        return 0, min(a[1], b[1] - 1)           # (by zero: undefined, any value)
    out = _combine(name, a, b, bits)
    return out if out is not None and out[1] <= _limit(v.type) else None


def _one_known(o, a, b) -> tuple[int, int] | None:
    """With ``bits``, the range of op ``o``'s result where one of its operands' ranges
    ``a``, ``b`` is unknown (None): a mask, or a minimum, is at most the other's bound; a
    product by zero, a zero shifted left, a zero divided or its remainder (by anything) is
    zero; a remainder is below its divisor's bound; the signed maximum of a
    non-negative range and a negative constant is that range."""
    r, name = a or b, o.name
    if name in ("arith.andi", "arith.minui"):
        return 0, r[1]
    if name == "arith.muli" and r == (0, 0) or a == (0, 0) and name in _ZERO_OVER_ANY:
        return 0, 0
    if name == "arith.remui" and b is not None and b[1] > 0:
        return 0, b[1] - 1
    if name == "arith.maxsi" and r[1] <= R.signed_range(_bits(o.result.type))[1] and \
            any((constant_int(x) or 0) < 0 for x in o.operands):
        return r
    return None


def _bitwise(f, a, b, top: int | None = None) -> tuple[int, int]:
    """The range of ``f(x, y)`` (``&``, ``|`` or ``^``) for ``x`` in ``a``, ``y`` in ``b``
    (at most ``top`` where given: a mask is at most either operand), as MLIR bounds them (``1 & 256`` is 0, ``[0, 31] & 64`` is 0, ``5 | 2`` is 7): each
    range's values share the bits above the highest bit in which its ends differ, those
    below are free.  A mask or an or grows with each bit of its operands, so it lies
    between its operands' ends with the free bits all clear and all set; a xor's bits
    above the longer free run are the shared ones', those below it any."""
    widened = [(lo >> n << n, hi | (1 << n) - 1) for lo, hi in (a, b)
               for n in [(lo ^ hi).bit_length()]]
    if f(1, 1):         # a mask or an or
        hi = f(widened[0][1], widened[1][1])
        return f(widened[0][0], widened[1][0]), hi if top is None else min(hi, top)
    free = max((a[0] ^ a[1]).bit_length(), (b[0] ^ b[1]).bit_length())
    fixed = f(a[0], b[0]) >> free << free
    return fixed, fixed | (1 << free) - 1


def _compare(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: an ``arith.cmpi``'s bit, decided where its operands' ranges decide
    it (a signed predicate only for ranges below the sign bit), else ``(0, 1)``."""
    a, b = (unsigned_bounds(x, depth, ivs, threads, True) for x in o.operands)
    rel, unsigned = R.PREDICATES[ir.IntegerAttr(o.attributes["predicate"]).value]
    if a is None or b is None or not unsigned and rel not in ("eq", "ne") and \
            max(a[1], b[1]) > R.signed_range(_bits(o.operands[0].type))[1]:
        return 0, 1
    yes = R.decide(rel, (a[0] - b[1], a[1] - b[0]))
    return (0, 1) if yes is None else (int(yes), int(yes))


def _select(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: an ``arith.select``'s range, the hull of its two values' (the one
    its condition picks where the condition's range decides it)."""
    c, a, b = (unsigned_bounds(x, depth, ivs, threads, True) for x in o.operands)
    if c in ((0, 0), (1, 1)):
        return b if c == (0, 0) else a
    return R.hull(a, b) if a is not None and b is not None else None


def _truncated(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: an ``arith.trunci``'s range: its source's where that fits the
    narrower type, else any value of it."""
    src = unsigned_bounds(o.operands[0], depth, ivs, threads, True)
    top = _limit(o.results[0].type)
    return src if src is not None and src[1] <= top else (0, top)


def _id_by_launch(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: a ``gpu.thread_id`` or ``gpu.block_dim`` of no ``upper_bound`` by
    the workgroup size its function states (every size it states, if more than one, the
    same); where it states none, and for a ``gpu.block_id`` of no ``upper_bound`` and a
    ``gpu.grid_dim``, by the 32 bits a launch's sizes have (as MLIR's analysis bounds
    them); a ``gpu.lane_id`` below the wave's size, a ``gpu.subgroup_size`` the wave's."""
    if o.name in ("gpu.lane_id", "gpu.subgroup_size"):
        return (0, WAVE_SIZE - 1) if o.name == "gpu.lane_id" else (WAVE_SIZE, WAVE_SIZE)
    f = function_of(o)
    sizes = {size for _, size in declared_sizes(f)} if f is not None else set()
    d = dimension(o.attributes["dimension"])
    if len(sizes) == 1 and d is not None and o.name in ("gpu.thread_id", "gpu.block_dim"):
        n = next(iter(sizes))[d]
        return (0, n - 1) if o.name == "gpu.thread_id" else (n, n)
    # (none stated, or two that differ: either may launch it)
    return (0, U32_MAX - 1) if o.name in ("gpu.thread_id", "gpu.block_id") else (1, U32_MAX)


def _vector_range(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: the range of every element of a ``vector.broadcast`` (its source's),
    a ``vector.step`` (its positions) and an element a ``vector.extract`` reads (its
    vector's); a vector's range here is the hull of its elements'."""
    if o.name == "vector.step":
        return 0, ir.VectorType(o.results[0].type).shape[0] - 1
    return unsigned_bounds(o.operands[0], depth, ivs, threads, True)


def _dense_range(o, depth: int, ivs: bool, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: a dense integer constant's elements' hull (none negative)."""
    values = dense_ints(o.attributes["value"])
    return (min(values), max(values)) if values and min(values) >= 0 else None


def _assumed(o, n: int, depth: int, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: IREE's ``util.assume.int`` result ``n``: the hull of its rows of
    assumptions on operand ``n`` (the value meets one of them), each ``umin`` to
    ``umax``, within the operand's own range; the operand's range where a row states no
    ``umax``."""
    own = unsigned_bounds(o.operands[n], depth, False, threads, True)
    rows = [str(a) for a in ir.ArrayAttr(o.attributes["assumptions"])[n]]
    said = [(re.search(r"\bumin = (\d+)", a), re.search(r"\bumax = (\d+)", a)) for a in rows]
    if not rows or any(hi is None for _, hi in said):
        return own
    out = None
    for lo, hi in said:
        out = R.hull(out, (int(lo.group(1)) if lo else 0, int(hi.group(1))))
    return R.meet(out, own) if own is not None else out


#: with ``bits``: ops of other than two integer operands -> their result's range
_BITS_ALONE = {"arith.cmpi": _compare, "arith.select": _select, "arith.trunci": _truncated,
               "gpu.thread_id": _id_by_launch, "gpu.block_dim": _id_by_launch,
               "gpu.lane_id": _id_by_launch, "gpu.block_id": _id_by_launch,
               "gpu.grid_dim": _id_by_launch, "gpu.subgroup_size": _id_by_launch,
               "vector.broadcast": _vector_range, "vector.step": _vector_range,
               "vector.extract": _vector_range, "arith.constant": _dense_range}


#: a signed clamp's outer op -> its inner op
_CLAMP = {"arith.maxsi": "arith.minsi", "arith.minsi": "arith.maxsi"}


def _iv_bounds(v) -> tuple[int, int] | None:
    """The values block argument ``v`` takes when it is the induction variable of an
    ``scf.for`` of constant bounds that runs (:func:`~pipeline_mlir.analysis.ir_facts.
    constant_trips` > 0), from a lower bound >= 0: its first and last iteration's; else
    None (a loop of no iterations runs nothing its variable indexes)."""
    owner = v.owner.owner
    if owner is None or as_operation(owner).name != "scf.for" or \
            ir.BlockArgument(v).arg_number != 0:
        return None
    loop = as_operation(owner)
    trips, bounds = constant_trips(loop), constant_bounds(loop)
    if not trips or bounds[0] < 0:
        return None
    hi = bounds[0] + (trips - 1) * bounds[2]
    return (bounds[0], hi) if hi <= _limit(v.type) else None


def _nonneg(v, depth: int, ivs: bool = False) -> tuple[int, int] | None:
    """:func:`unsigned_bounds` of ``v`` when they also bound it as a signed value (below
    its type's sign bit), else None."""
    r = unsigned_bounds(v, depth, ivs)
    return r if r is not None and r[1] <= R.signed_range(_bits(v.type))[1] else None


def _clamp(o, depth: int, ivs: bool = False) -> tuple[int, int] | None:
    """The range of ``o``, an ``arith.maxsi`` or ``arith.minsi``, when it clamps any value
    between operands proven non-negative: ``maxsi(minsi(x, h), l)`` lies in ``[l_lo,
    max(h_hi, l_hi)]`` and ``minsi(maxsi(x, l), h)`` in ``[min(l_lo, h_lo), h_hi]``,
    whatever ``x`` is; None otherwise (a signed ``max`` or ``min`` alone stays unknown: the
    front end needs only the clamp)."""
    outer = [_nonneg(x, depth - 1, ivs) for x in o.operands]
    for inner_v, known in ((o.operands[0], outer[1]), (o.operands[1], outer[0])):
        if known is None or isinstance(inner_v.owner, ir.Block):
            continue
        inner = as_operation(inner_v.owner)
        if inner.name != _CLAMP[o.name]:
            continue
        for y in inner.operands:
            r = _nonneg(y, depth - 1, ivs)
            if r is None:
                continue
            if o.name == "arith.maxsi":       # known = l, r = h
                return known[0], max(r[1], known[1])
            return min(r[0], known[0]), known[1]   # known = h, r = l
    return None


# ---- with ``bits``: values carried by ``scf`` regions (what an integer range dataflow
# bounds as a fixed point: a loop's variable by its bounds, a carried value by its first
# value and what each iteration yields, an ``scf.if``'s result by both branches) -------

#: the ranges assumed for the carried values whose loop's fixed point is being sought
_ASSUMED: dict = {}


def _carried(v, depth: int, threads: bool) -> tuple[int, int] | None:
    """With ``bits``: the range of block argument ``v``: an ``scf.for``'s induction
    variable (:func:`_for_iv`) or carried value, an ``scf.while``'s (before its test:
    carried; after it: what the test passes on), else unknown."""
    loop = as_operation(v.owner.owner) if v.owner.owner is not None else None
    n = ir.BlockArgument(v).arg_number
    if loop is None or loop.name not in ("scf.for", "scf.while"):
        return None
    if loop.name == "scf.for":
        if n == 0:
            return _for_iv(v, loop, depth, threads)
        init, yielded = loop.operands[2 + n], _yields(loop.regions[0])[n - 1]
    elif v.owner == loop.regions[0].blocks[0]:
        init, yielded = loop.operands[n], _yields(loop.regions[1])[n]
    else:
        return unsigned_bounds(_yields(loop.regions[0])[n + 1], depth - 1, False, threads, True)
    return _fixed_point(v, init, yielded, depth - 1, threads)


def _yields(region) -> list:
    """The operands of the terminator of ``region``'s block (an ``scf.condition``'s
    first: its test)."""
    return list(region.blocks[0].operations[len(region.blocks[0].operations) - 1].operands)


def _fixed_point(v, init, yielded, depth: int, threads: bool) -> tuple[int, int] | None:
    """The range of carried value ``v`` (first ``init``, then each iteration's
    ``yielded``): its first value's range, joined with what an iteration yields from it,
    once; a range an iteration yields inside (with ``v`` assumed in it) is inductive, so
    sound; otherwise unknown (as MLIR's analysis widens a loop-carried value that keeps
    changing to its type's whole range)."""
    if v in _ASSUMED:
        return _ASSUMED[v]
    a = unsigned_bounds(init, depth, False, threads, True)
    for _ in range(2):
        if a is None:
            return None
        _ASSUMED[v] = a
        try:
            y = unsigned_bounds(yielded, depth, False, threads, True)
        finally:
            del _ASSUMED[v]
        if y is not None and R.within(y, a):
            return a
        a = R.hull(a, y) if y is not None else None
    return None


def _for_iv(v, loop, depth: int, threads: bool) -> tuple[int, int] | None:
    """The range of ``scf.for`` ``loop``'s induction variable ``v``: its values where the
    bounds are constants (:func:`_iv_bounds`), else from its lower bound's least value to
    one below its upper bound's greatest (a loop that compares signed: never past the
    type's signed maximum); unknown where the lower bound is, or the loop may not run."""
    if constant_trips(loop) is not None:
        return _iv_bounds(v)
    lb = unsigned_bounds(loop.operands[0], depth - 1, False, threads, True)
    ub = unsigned_bounds(loop.operands[1], depth - 1, False, threads, True)
    top = _limit(v.type) if "unsignedCmp" in loop.attributes else \
        R.signed_range(_bits(v.type))[1]
    hi = min(ub[1] if ub is not None else top, top) - 1
    return (lb[0], hi) if lb is not None and lb[0] <= hi else None


def _if_result(o, n: int, depth: int, threads: bool) -> tuple[int, int] | None:
    """An ``scf.if``'s result ``n``: the hull of what its two branches yield (the one its
    condition takes where the condition's range decides it)."""
    c = unsigned_bounds(o.operands[0], depth, False, threads, True)
    regions = [o.regions[i] for i in ((0,) if c == (1, 1) else (1,) if c == (0, 0) else (0, 1))]
    out = None
    for region in regions:
        r = unsigned_bounds(_yields(region)[n], depth, False, threads, True)
        if r is None:
            return None
        out = R.hull(out, r)
    return out


def _loop_result(o, n: int, depth: int, threads: bool) -> tuple[int, int] | None:
    """An ``scf.for``'s result ``n``, its carried value's range; an ``scf.while``'s, what
    its test passes on."""
    if o.name == "scf.for":
        return unsigned_bounds(o.regions[0].blocks[0].arguments[n + 1], depth, False, threads,
                               True)
    return unsigned_bounds(_yields(o.regions[0])[n + 1], depth, False, threads, True)


#: with ``bits``: the ops whose results are ranged by their number (``scf``, IREE's
#: assumptions) -> (op, result number) -> range
_BY_RESULT = {"scf.if": _if_result, "scf.for": _loop_result, "scf.while": _loop_result,
              "util.assume.int": _assumed}


__all__ = ["U32_MAX", "unsigned_bounds"]
