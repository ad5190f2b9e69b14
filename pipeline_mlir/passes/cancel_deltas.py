"""``sched-cancel-deltas``: ``(a + c) + (b - a)`` written ``b + c``.

IREE's late form writes a swizzled LDS offset as the unswizzled one plus the swizzle's
delta: ``(a + c) + (b - a)``, ``a`` the row's first element, ``c`` a constant column
offset, ``b`` the swizzled element (IREE's bf16 2048x2048x1028 prefetch build, the row's
four 16-byte pieces at ``c`` = 0, 512, 1024, 1536).  The value is ``b + c``, which is never
negative, but an interval of ``b - a`` is negative in part, so IREE's integer range
analysis gives the sum a range that is too, and ``iree-util-optimize-int-arithmetic``,
which the LLVM step's tail runs (``registry.NARROW_INDEX``), cannot narrow what divides
it: the front end's ``floordiv``/``mod`` of the offset after a signed ``index_cast`` stay
64-bit ``udiv``/``urem`` (84 in that kernel's LLVM IR, none at its prefetch point), and
the merged kernel LLVM builds of the late form needed 264 VGPRs where the prefetch
point's needed 256.

Each ``arith.addi`` of an ``arith.addi`` of ``a`` and ``c`` (either order) and an
``arith.subi`` of ``b`` and ``a`` (the same SSA value ``a``), either order, becomes
``arith.addi b, c`` without overflow flags: ``(a + c) + (b - a) = b + c`` modulo
``2^width`` for every value, so the rewrite is exact whatever the types' wrapping (index,
any integer width, vectors of them).  The two operands are left for ``cse`` and the
canonicalizer to drop when nothing else uses them.  It is part of the LLVM step, before
IREE's own lowering passes, and it never fails.
"""

from __future__ import annotations

from pipeline_mlir.analysis.llvm_values import defining_op
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.passes._common import ModulePass, OpError


def _def(value, name: str):
    """The op defining ``value`` when it is a ``name`` op, else None."""
    op = defining_op(value)
    return op if op is not None and op.name == name else None


def cancelled(add) -> tuple | None:
    """``(b, c)`` when the ``arith.addi`` ``add`` is ``(a + c) + (b - a)`` in any operand
    order, else None."""
    x, y = list(add.operands)
    for outer, delta in ((x, y), (y, x)):
        first, sub = _def(outer, "arith.addi"), _def(delta, "arith.subi")
        if first is None or sub is None:
            continue
        b, a = list(sub.operands)
        p, q = list(first.operands)
        if p == a:
            return b, q
        if q == a:
            return b, p
    return None


class CancelDeltas(ModulePass):
    """Every ``(a + c) + (b - a)`` made ``b + c``."""

    name = "sched-cancel-deltas"
    summary = ("(a + c) + (b - a) written b + c (IREE's swizzled LDS offsets), so that their "
               "range is known non-negative and IREE's narrowing takes their divisions")

    def run(self, module) -> list[OpError]:
        with module.context:
            for add in walk_ops(module, lambda o: o.name == "arith.addi"):
                found = cancelled(add)
                if found is None:
                    continue
                with ir.InsertionPoint(add), add.location:
                    new = ir.Operation.create("arith.addi", results=[add.results[0].type],
                                              operands=list(found))
                add.results[0].replace_all_uses_with(_op(new).results[0])
                add.erase()
        return []
