"""The front end's address programs on two carriers: numpy arrays (to check a program on
every lane) and ``arith`` ops (to emit the same program into the kernel).

:mod:`pipeline_mlir.frontend.layout` writes its copies' source offsets once against these
operations, and :mod:`pipeline_mlir.frontend.unswizzle` its inverse swizzle.
:func:`arith_op` makes one ``arith`` op of two operands at the insertion point, for the
spread copies (:mod:`~pipeline_mlir.frontend.partial_copy`,
:mod:`~pipeline_mlir.frontend.partial_elements`).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir

#: ``arith.cmpi`` predicates (:func:`arith_op`'s ``predicate``)
SLT, SGT = 2, 4


def arith_op(name: str, a, b, predicate: int | None = None):
    """The result of a new ``arith.<name>`` of ``a`` and ``b`` at the insertion point: of
    ``a``'s type, or for a comparison (``predicate``: ``arith.cmpi``'s) an ``i1``."""
    if predicate is None:
        return ir.Operation.create(f"arith.{name}", results=[a.type],
                                   operands=[a, b]).results[0]
    i1, i64 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(64)
    return ir.Operation.create(f"arith.{name}", results=[i1], operands=[a, b], attributes={
        "predicate": ir.IntegerAttr.get(i64, predicate)}).results[0]


class NumpyOps:
    """The address program's operations on numpy arrays (and ints)."""

    @staticmethod
    def add(a, b):
        return a + b

    @staticmethod
    def mul(a, k: int):
        return a * k

    @staticmethod
    def div(a, k: int):
        return a // k

    @staticmethod
    def rem(a, k: int):
        return a % k

    @staticmethod
    def xor(a, b):
        return a ^ b


class IrOps:
    """The same operations emitted as ``arith`` index ops; Python ints fold, ``const``
    makes index constants (once, before the loop)."""

    def __init__(self, const) -> None:
        self.const = const

    def _v(self, a):
        return self.const(a) if isinstance(a, int) else a

    def add(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(a, int) and a == 0:
            return b
        if isinstance(b, int) and b == 0:
            return a
        return B.arith.addi(self._v(a), self._v(b))

    def mul(self, a, k: int):
        if isinstance(a, int):
            return a * k
        return a if k == 1 else (0 if k == 0 else B.arith.muli(a, self.const(k)))

    def div(self, a, k: int):
        if isinstance(a, int):
            return a // k
        return a if k == 1 else B.arith.divui(a, self.const(k))

    def rem(self, a, k: int):
        if isinstance(a, int):
            return a % k
        return 0 if k == 1 else B.arith.remui(a, self.const(k))

    def xor(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        return B.arith.xori(self._v(a), self._v(b))
