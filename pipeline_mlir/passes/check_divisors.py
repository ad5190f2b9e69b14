"""``sched-check-divisors``: no integer division or remainder by zero known at compile time.

The first pass of the LLVM step (``registry.TO_LLVM_PASSES``), before IREE's passes run.
An ``arith`` division or remainder whose divisor is a constant zero (a scalar, or a
vector whose elements include one) is undefined behaviour in the IR; IREE's integer range
analysis (``iree-util-optimize-int-arithmetic``, in the step's IREE tail) divides by it
on the host and kills the process with a floating point exception (an ``arith.divui``
by a constant 0 in a mutated IREE kernel built without the sched passes).  Refused at
the op instead.  So is a divisor that MLIR's folding makes a constant zero (``x - x``,
``x & 0``: IREE's analysis crashed on those too): each function with a division by a
value that is no constant is folded (``canonicalize``) on a copy, its divisions marked
by index, and a marked division whose divisor the copy holds as a zero is refused, and so
is one whose divisor the copy's integer ranges make zero in every run (``x >> 8`` of a
thread id below 256: :func:`~pipeline_mlir.analysis.index_bounds.unsigned_bounds` with the
ids' bounds, shifts, masks, compares, selects and the other integer ops IREE's range
analysis bounds too; a zero only that analysis finds otherwise, through loop-carried
values or ops ``unsigned_bounds`` does not know, still reaches it).
So is one whose divisor, a function of the thread ids (their range the workgroup's size)
and constants alone, is zero in every thread (evaluated per thread,
:class:`~pipeline_mlir.analysis.loop_eval.Evaluator` ``thread_only``: whatever arithmetic
gives the zero, where the ranges above do not find it).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.passes._common import ModulePass, OpError, held_on_folded_copy

#: the integer divisions and remainders of ``arith`` (operand 1 the divisor)
DIVISIONS = frozenset({"arith.divui", "arith.divsi", "arith.remui", "arith.remsi",
                       "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi"})
#: the functions whose copies are folded (their pass-manager anchors)
FUNCTIONS = ("func.func", "gpu.func")
#: the folding of the copy
FOLD = "canonicalize"
#: the attribute a division carries into the copy: its index among the function's
MARK = "sched.divisor_probe"


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


def _is_constant(value) -> bool:
    return getattr(getattr(value, "owner", None), "name", None) == "arith.constant"


def folded_zero(f) -> list:
    """The divisions of function ``f`` whose divisor is no constant but folds to a zero
    (:data:`FOLD` on a copy of ``f``: ``held_on_folded_copy``, each division marked with
    :data:`MARK`), each with what it divides by: ``0`` for a folded constant, ``1`` for a
    value whose range in the folded copy is zero alone."""
    own = walk_ops(f, lambda o: o.name in DIVISIONS and not _is_constant(o.operands[1]))
    ranged = set()

    def zero(d) -> bool:
        if _zero_constant(d.operands[1]):
            return True
        if unsigned_bounds(d.operands[1], bits=True) == (0, 0):
            ranged.add(ir.IntegerAttr(d.attributes[MARK]).value)
            return True
        return False

    found = held_on_folded_copy(f, own, FOLD, MARK, zero) or []
    return [(o, 1 if own.index(o) in ranged else 0) for o in found]


def thread_zero(f, skip) -> list:
    """The divisions of function ``f`` (none of ``skip``) whose divisor is no constant and,
    a function of the thread ids and constants alone, is zero in every thread of ``f``'s
    workgroup (evaluated per thread); none where ``f`` states no workgroup size."""
    size = block_size(f)
    if size is None:
        return []
    ev = Evaluator(size, thread_only=True)
    out = []
    for d in walk_ops(f, lambda o: o.name in DIVISIONS and o not in skip and
                      not _is_constant(o.operands[1])):
        try:
            v = np.asarray(ev.value(d.operands[1]))
        except IRError:         # (not of the thread ids and constants alone)
            continue
        if v.size and not np.any(v):
            out.append(d)
    return out


#: what a refusal says after the op's name: its divisor a constant zero, one by folding,
#: one by its range, one zero in every thread
_WHY = ("divides by a constant zero", "divides by zero: its divisor folds to the constant 0",
        "divides by zero: its divisor is 0 in every run (its range, from the ids' "
        "upper_bound and the arithmetic on them, is [0, 0])",
        "divides by zero: its divisor, of the thread ids and constants alone, is 0 in every "
        "thread of the workgroup")


class CheckDivisors(ModulePass):
    """Before IREE's passes: no ``arith`` integer division or remainder by a zero known at
    compile time (IREE's range analysis divides by it on the host and crashes)."""

    name = "sched-check-divisors"
    summary = ("refuse an integer division or remainder by a constant zero, or by a value "
               "that folds to one or whose range is zero alone")

    def run(self, module) -> list[OpError]:
        bad = [(o, _WHY[0]) for o in walk_ops(module, lambda o: o.name in DIVISIONS)
               if _zero_constant(o.operands[1])]
        with module.context, ir.Location.unknown():
            for f in walk_ops(module, lambda o: o.name in FUNCTIONS):
                folded = folded_zero(f)
                bad += [(d, _WHY[1 + by_range]) for d, by_range in folded]
                bad += [(d, _WHY[3]) for d in thread_zero(f, [d for d, _ in folded])]
        return [OpError(o, f"'{o.name}' op {why}: undefined behaviour (IREE's integer "
                           f"range analysis in the LLVM step would divide by it)")
                for o, why in bad]
