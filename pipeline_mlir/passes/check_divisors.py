"""``sched-check-divisors``: no integer division or remainder by zero known at compile time.

The first pass of the LLVM step (``registry.TO_LLVM_PASSES``), before IREE's passes run.
An ``arith`` division or remainder whose divisor is zero in every run is undefined
behaviour in the IR; IREE's integer range analysis (``iree-util-optimize-int-arithmetic``,
in the step's IREE tail) divides by such a divisor on the host and kills the process with
a floating point exception (findings 107, 111, 113, 114 and 120 of docs/iree-audits.md).
Refused at the op instead, by one rule (:func:`is_zero`: the divisor's range is ``[0, 0]``,
or it is a dense constant with a zero element) said three ways by where the zero shows: a
constant divisor (checked where it is), a divisor that MLIR's folding makes a constant
(``x - x``, ``x & 0``), and one whose range is zero alone.  Each function with a division
by a value that is no constant is folded (:data:`FOLDS`: affine maps made ``arith`` as
IREE's passes make them, then ``canonicalize`` and ``cse``) on a copy, its divisions
marked by index, and the rule applied to each marked division there (its range:
:func:`~pipeline_mlir.analysis.index_bounds.unsigned_bounds` with ``bits``: the ids'
bounds, shifts, masks, compares, selects, signed ops of values that are not negative,
IREE's assumptions, and what ``scf`` loops carry and ``scf.if`` yields as a fixed point,
as IREE's range analysis bounds them).
So is one whose divisor, a function of the thread ids (their range the workgroup's size)
and constants alone, is zero in every thread (evaluated per thread,
:class:`~pipeline_mlir.analysis.loop_eval.Evaluator` ``thread_only``: whatever arithmetic
gives the zero, where the ranges above do not find it).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.analysis.ir_facts import block_size, dense_ints
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.passes._common import ModulePass, OpError, held_on_folded_copy

#: the integer divisions and remainders of ``arith`` (operand 1 the divisor)
DIVISIONS = frozenset({"arith.divui", "arith.divsi", "arith.remui", "arith.remsi",
                       "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi"})
#: the functions whose copies are folded (their pass-manager anchors)
FUNCTIONS = ("func.func", "gpu.func")
#: the foldings of the copy, the first that succeeds (affine maps made ``arith`` first and
#: equal ops made one, as IREE's passes make them before its range analysis, so that the
#: ranges see through them: two ``gpu.lane_id`` compared fold)
FOLDS = ("lower-affine,canonicalize,cse,canonicalize", "canonicalize")
#: the attribute a division carries into the copy: its index among the function's
MARK = "sched.divisor_probe"
#: what a refusal says after the op's name, by where its divisor is seen to be zero: a
#: constant in the input, a constant once folded, a range, every thread's value
CONSTANT, FOLDED, RANGED, THREADS = (
    "divides by a constant zero", "divides by zero: its divisor folds to the constant 0",
    "divides by zero: its divisor is 0 in every run (its range, from the ids' "
    "upper_bound, the loops' bounds and the arithmetic on them, is [0, 0])",
    "divides by zero: its divisor, of the thread ids and constants alone, is 0 in every "
    "thread of the workgroup")


def _is_constant(value) -> bool:
    return getattr(getattr(value, "owner", None), "name", None) == "arith.constant"


def is_zero(value) -> bool:
    """The one rule: whether divisor ``value`` is zero in every run: its range is ``[0,
    0]`` (:func:`~pipeline_mlir.analysis.index_bounds.unsigned_bounds` with ``bits``: a
    constant 0, read by ``constant_int``, among them), or, a dense integer constant, one
    of its elements is 0."""
    values = dense_ints(value.owner.attributes["value"]) if _is_constant(value) else None
    if values is not None:
        return 0 in values
    return unsigned_bounds(value, bits=True) == (0, 0)


def folded_zero(f) -> list:
    """The divisions of function ``f`` whose divisor is no constant but is zero by
    :func:`is_zero` once folded (:data:`FOLDS` on a copy of ``f``: ``held_on_folded_copy``,
    each division marked with :data:`MARK`; where every folding fails, ``f`` as it is),
    each with why: :data:`FOLDED` for a constant there, :data:`RANGED` for a range."""
    own = walk_ops(f, lambda o: o.name in DIVISIONS and not _is_constant(o.operands[1]))
    why = {}

    def zero(d, i=None) -> bool:
        if not is_zero(d.operands[1]):
            return False
        i = ir.IntegerAttr(d.attributes[MARK]).value if i is None else i
        why[i] = FOLDED if _is_constant(d.operands[1]) else RANGED
        return True

    if all(held_on_folded_copy(f, own, fold, MARK, zero) is None for fold in FOLDS):
        for i, d in enumerate(own):
            zero(d, i)
    return [(o, why[i]) for i, o in enumerate(own) if i in why]


def thread_zero(f, skip) -> list:
    """The divisions of function ``f`` (none of the set ``skip``) whose divisor is no
    constant and, a function of the thread ids and constants alone, is zero in every
    thread of ``f``'s workgroup (evaluated per thread); none where ``f`` states no
    workgroup size."""
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


class CheckDivisors(ModulePass):
    """Before IREE's passes: no ``arith`` integer division or remainder by a zero known at
    compile time (IREE's range analysis divides by it on the host and crashes)."""

    name = "sched-check-divisors"
    summary = ("refuse an integer division or remainder by a constant zero, or by a value "
               "that folds to one or whose range is zero alone")

    def run(self, module) -> list[OpError]:
        bad = [(o, CONSTANT) for o in walk_ops(module, lambda o: o.name in DIVISIONS)
               if _is_constant(o.operands[1]) and is_zero(o.operands[1])]
        with module.context, ir.Location.unknown():
            for f in walk_ops(module, lambda o: o.name in FUNCTIONS):
                folded = folded_zero(f)
                bad += folded
                bad += [(d, THREADS) for d in thread_zero(f, {d for d, _ in folded})]
        return [OpError(o, f"'{o.name}' op {why}: undefined behaviour (IREE's integer "
                           f"range analysis in the LLVM step would divide by it)")
                for o, why in bad]
