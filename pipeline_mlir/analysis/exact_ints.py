"""Whether the loop evaluator's integers are the machine's.

The per-lane evaluator (:mod:`pipeline_mlir.analysis.loop_eval`) computes each ``arith``
op at its type's width, as the machine does (an ``i32`` sum wraps, a truncation drops the
high bits, an unsigned operation below 64 bits reads its operands modulo 2^N).  A proof
that relies on the evaluated values of an index or a condition (a read index shared, a
select proven the identity) reasons about them as integers, so it must first check that
no op on the way wraps, truncates or reads a negative operand unsigned:
:func:`exact_on_machine` (what the values are then is what exact integers give).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.lane_ops import BINARY, UNSIGNED_BINARY
from pipeline_mlir.analysis.llvm_values import int_width
from pipeline_mlir.dialect.bindings import ir

#: ops whose value depends on reading their integer operands as unsigned
UNSIGNED = tuple(f"arith.{k}" for k in UNSIGNED_BINARY) + (
    "arith.extui", "arith.index_castui", "arith.uitofp", "index.divu", "index.remu",
    "index.ceildivu", "index.shru", "index.maxu", "index.minu", "index.castu", "index.cmp")
#: ``arith.cmpi`` predicates that compare unsigned (``ult``, ``ule``, ``ugt``, ``uge``)
UNSIGNED_PREDICATES = frozenset({6, 7, 8, 9})


def width(value) -> int | None:
    """The bits of an integer or index value (None: another type)."""
    return 64 if isinstance(value.type, ir.IndexType) else int_width(value)


def fits(values: np.ndarray, bits: int | None) -> bool:
    """Whether exact integers ``values`` are what a ``bits``-bit signed value holds (i1, a
    comparison's 0 or 1, always is)."""
    if bits is None or bits == 1:
        return True
    return -(1 << (bits - 1)) <= int(values.min()) and int(values.max()) < 1 << (bits - 1)


def _unsigned(op) -> bool:
    if op.name == "arith.cmpi":
        return ir.IntegerAttr(op.attributes["predicate"]).value in UNSIGNED_PREDICATES
    return op.name in UNSIGNED


#: the casts that may truncate (to fewer bits than their operand's)
_TRUNCATING = ("arith.index_cast", "arith.index_castui", "arith.trunci", "index.casts",
               "index.castu")


def _no_wrap(evaluator, op) -> bool:
    """``op``'s exact result fits its type and is defined: a sum, difference or product
    (of fewer than 64 bits) does not wrap, a cast to fewer bits drops nothing, a shift is
    by less than the width (else poison), a signed division is not of the least value by
    -1 (undefined)."""
    w = width(op.results[0]) if len(op.results) == 1 else None
    if w is None:
        return True
    kind = op.name[6:] if op.name.startswith("arith.") else ""
    if kind in ("shli", "shrui", "shrsi"):
        b = evaluator.value(op.operands[1])
        if np.any((b < 0) | (b >= w)):
            return False
    if kind in ("divsi", "remsi", "floordivsi", "ceildivsi"):
        a, b = (evaluator.value(x) for x in op.operands)
        least, minus_one = (1, 1) if w == 1 else (-(1 << (w - 1)), -1)   # i1 held 0 / 1
        if np.any((a == least) & (b == minus_one)):
            return False
    if w >= 64:
        return True
    if kind in ("addi", "subi", "muli", "shli"):
        a, b = (evaluator.value(x) for x in op.operands)
        return fits(BINARY[kind](a, b, op), w)
    if op.name in _TRUNCATING:
        return fits(evaluator.value(op.operands[0]), w)
    return True


def exact_on_machine(evaluator, ops: list) -> bool:
    """Whether ``evaluator``'s values are the machine's for every op of ``ops`` (each
    already evaluable by it): no result wraps its type or is poison or undefined
    (:func:`_no_wrap`), and no unsigned operation sees a negative operand."""
    memo = getattr(evaluator, "fact", None)     # (an Evaluator's: memoized per op)
    shared = getattr(evaluator, "fact_of", None)    # (a tiled one's: its source's too)
    for op in ops:
        if op.name == "arith.constant":
            continue
        exact = shared(("exact", op), lambda ev: _exact_op(ev, op)) if shared is not None \
            else memo(("exact", op), lambda: _exact_op(evaluator, op)) if memo is not None \
            else _exact_op(evaluator, op)
        if not exact:
            return False
    return True


def _exact_op(evaluator, op) -> bool:
    """:func:`exact_on_machine` of the one op ``op``."""
    if not _no_wrap(evaluator, op):
        return False
    return not (_unsigned(op) and any(width(a) is not None and
                                      int(evaluator.value(a).min()) < 0 for a in op.operands))
