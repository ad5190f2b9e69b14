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
``gpu.thread_id`` or ``gpu.block_dim`` by the function's workgroup size and a
``gpu.lane_id`` below the wave's 64: the facts MLIR's integer range analysis draws too
(:mod:`pipeline_mlir.passes.check_divisors`: a divisor it would find zero).  The lowering narrows the pipelined
main loop's control to 32 bits with it (:mod:`pipeline_mlir.lowering.loop_i32`).  No rewriting.
"""

from __future__ import annotations

from pipeline_mlir.analysis import int_ranges as R
from pipeline_mlir.analysis.ir_facts import (constant_bounds, constant_int, constant_trips,
                                             declared_sizes, int_bits)
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
#: with ``bits``: the ids whose ``upper_bound`` bounds them
_IDS = ("gpu.thread_id", "gpu.block_id", "hal.interface.workgroup.id")
#: the largest value of an unsigned 32-bit counter
U32_MAX = (1 << 32) - 1


def _limit(t) -> int:
    """The largest unsigned value of type ``t`` whose arithmetic here does not wrap (an
    index: the largest signed 64-bit value)."""
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
        return _iv_bounds(v) if ivs else None
    if depth == 0:
        return None
    o = as_operation(v.owner)
    operands = list(o.operands)
    if (threads or bits) and o.name in (_IDS if bits else _IDS[:1]) and \
            "upper_bound" in o.attributes:
        return 0, ir.IntegerAttr(o.attributes["upper_bound"]).value - 1
    if bits and o.name in _BITS_ALONE:
        out = _BITS_ALONE[o.name](o, depth - 1, ivs, threads)
        return out if out is not None and out[1] <= _limit(v.type) else None
    if o.name in _UNSIGNED_CASTS + _SIGNED_CASTS:
        src = unsigned_bounds(operands[0], depth - 1, ivs, threads, bits)
        if src is None and o.name in _UNSIGNED_CASTS:
            src = (0, (1 << int_bits(operands[0].type)) - 1)
        elif src is not None and o.name in _SIGNED_CASTS and \
                src[1] >> (int_bits(operands[0].type) - 1):
            src = None        # a signed source that may be negative: unknown
        return src if src is not None and src[1] <= _limit(v.type) else None
    if len(operands) != 2:
        return None
    if o.name in _CLAMP:
        return _clamp(o, depth, ivs)
    a, b = (unsigned_bounds(x, depth - 1, ivs, threads, bits) for x in operands)
    if bits and (a is None) != (b is None):
        return _one_known(o.name, a, b)
    if a is None or b is None or o.name == "arith.shrsi" and \
            a[1] > R.signed_range(int_bits(v.type))[1]:      # (a negative value's sign kept)
        return None
    out = _combine(o.name, a, b, bits)
    return out if out is not None and out[1] <= _limit(v.type) else None


def _one_known(name: str, a, b) -> tuple[int, int] | None:
    """With ``bits``, the range of ``name``'s result where one of its operands' ranges
    ``a``, ``b`` is unknown (None): a mask, or a minimum, is at most the other's bound; a
    product by zero, or a zero shifted left, is zero; a remainder by a positive range is
    below its bound."""
    r = a or b
    if name in ("arith.andi", "arith.minui"):
        return 0, r[1]
    if name == "arith.muli" and r == (0, 0) or name == "arith.shli" and a == (0, 0):
        return 0, 0
    if name == "arith.remui" and b is not None and b[0] > 0:
        return 0, b[1] - 1
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
            max(a[1], b[1]) > R.signed_range(int_bits(o.operands[0].type))[1]:
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
    same), a ``gpu.lane_id`` below the wave's size."""
    if o.name == "gpu.lane_id":
        return 0, WAVE_SIZE - 1
    f = o.parent
    while f is not None and f.name not in ("func.func", "gpu.func"):
        f = f.parent
    sizes = {size for _, size in declared_sizes(f)} if f is not None else set()
    if len(sizes) != 1:
        return None         # none stated, or two that differ: either may launch it
    size, = sizes
    d = dimension(o.attributes["dimension"])
    if d is None:
        return None
    n = size[d]
    return (0, n - 1) if o.name == "gpu.thread_id" else (n, n)


#: with ``bits``: ops of other than two integer operands -> their result's range
_BITS_ALONE = {"arith.cmpi": _compare, "arith.select": _select, "arith.trunci": _truncated,
               "gpu.thread_id": _id_by_launch, "gpu.block_dim": _id_by_launch,
               "gpu.lane_id": _id_by_launch}


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
    return r if r is not None and r[1] <= R.signed_range(int_bits(v.type))[1] else None


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


__all__ = ["U32_MAX", "unsigned_bounds"]
