"""Whether the loop evaluator's integers are the machine's.

The per-lane evaluator (:mod:`pipeline_mlir.analysis.loop_eval`) computes with exact,
signed integers: an ``i32`` sum that wraps on the machine does not wrap there, an unsigned
operation (``divui``, ``extui``, ``index_castui``, an unsigned comparison) reads a negative
operand as the negative number, not as the large unsigned one the machine reads.  A proof
that relies on the evaluated values of an index or a condition (a read index shared, a
select proven the identity) must first check that every op on the way computes there what
it computes on the machine: :func:`exact_on_machine`.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.llvm_values import int_width
from pipeline_mlir.dialect.bindings import ir

#: ops whose value depends on reading their integer operands as unsigned
UNSIGNED = ("arith.shrui", "arith.divui", "arith.remui", "arith.ceildivui", "arith.maxui",
            "arith.minui", "arith.extui", "arith.index_castui", "arith.uitofp", "index.divu",
            "index.remu", "index.ceildivu", "index.shru", "index.maxu", "index.minu",
            "index.castu", "index.cmp")
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


def exact_on_machine(evaluator, ops: list) -> bool:
    """Whether ``evaluator``'s values are the machine's for every op of ``ops`` (each
    already evaluable by it): no result wraps its type, and no unsigned operation sees a
    negative operand."""
    for op in ops:
        if op.name == "arith.constant":
            continue
        for r in op.results:
            if not fits(evaluator.value(r), width(r)):
                return False
        if _unsigned(op) and any(width(a) is not None and int(evaluator.value(a).min()) < 0
                                 for a in op.operands):
            return False
    return True
