"""``sched-check-divisors``: no integer division or remainder by a constant zero.

The first pass of the LLVM step (``registry.TO_LLVM_PASSES``), before IREE's passes run.
An ``arith`` division or remainder whose divisor is a constant zero (a scalar, or a
vector whose elements include one) is undefined behaviour in the IR; IREE's integer range
analysis (``iree-util-optimize-int-arithmetic``, in the step's IREE tail) divides by it
on the host and kills the process with a floating point exception (an ``arith.divui``
by a constant 0 in a mutated IREE kernel built without the sched passes).  Refused at
the op instead.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.passes._common import ModulePass, OpError

#: the integer divisions and remainders of ``arith`` (operand 1 the divisor)
DIVISIONS = frozenset({"arith.divui", "arith.divsi", "arith.remui", "arith.remsi",
                       "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi"})


def _zero_constant(value) -> bool:
    """Whether ``value`` is an ``arith.constant`` integer zero, or a dense integer constant
    with a zero element."""
    owner = getattr(value, "owner", None)
    if getattr(owner, "name", None) != "arith.constant":
        return False
    attr = owner.attributes["value"]
    if isinstance(attr, ir.IntegerAttr):
        return attr.value == 0
    if isinstance(attr, ir.DenseIntElementsAttr):
        return any(int(attr[i]) == 0 for i in range(1 if attr.is_splat else len(attr)))
    return False


class CheckDivisors(ModulePass):
    """Before IREE's passes: no ``arith`` integer division or remainder by a constant
    zero (IREE's range analysis divides by it on the host and crashes)."""

    name = "sched-check-divisors"
    summary = "refuse an integer division or remainder by a constant zero"

    def run(self, module) -> list[OpError]:
        return [OpError(o, f"'{o.name}' op divides by a constant zero: undefined behaviour "
                           f"(IREE's integer range analysis in the LLVM step would divide by it)")
                for o in walk_ops(module, lambda o: o.name in DIVISIONS)
                if _zero_constant(o.operands[1])]
