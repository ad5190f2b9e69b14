"""IREE's guarded load: the one ``scf.if`` with results the front end takes in a K-loop.

At the prefetch point and in the late form IREE guards a masked load near a buffer's end
with an ``scf.if`` whose two regions compute the same run::

    %r = scf.if %cond -> (vector<8xbf16>) {
      %m = vector.maskedload %buf[%i, %j], %mask, %pass : ...
      scf.yield %m : vector<8xbf16>
    } else {
      %l = vector.load %buf[%i, %j] : ...
      %s = arith.select %mask, %l, %pass : vector<8xi1>, vector<8xbf16>
      scf.yield %s : vector<8xbf16>
    }

:func:`guard_parts` gives its mask and plain load (what :mod:`~pipeline_mlir.frontend.masks`
peels), :func:`guarded` its masked load and pass-through too (the masked read
:mod:`~pipeline_mlir.frontend.masked_rows_k_late` makes it, the parts
:mod:`~pipeline_mlir.frontend.reroll_regs` compares);
:func:`guard_mismatch` says why an ``scf.if`` is not one (its condition too: the masked
branch wherever the plain load would zero a word the masked one reads,
:mod:`~pipeline_mlir.frontend.guard_condition`), naming the op of its then or
else region that breaks the form: the scan refuses such an ``scf.if`` with it
(:func:`nested_refusal`).

Where the mask is the constant false in every lane (a copy of rows wholly past C's edge,
whose row guard IREE folded, the i8 ``A x B^T`` 33x257x1000's A rows 48 to 63), IREE
also folds the else region's select to its pass-through and drops its load::

    %r = scf.if %cond -> (vector<16xi8>) {
      %m = vector.maskedload %buf[%c33, %j], %false, %pass : ...
      scf.yield %m : vector<16xi8>
    } else {
      scf.yield %pass : vector<16xi8>
    }

:func:`folded_guard` gives that pass-through: the value of the ``scf.if`` on either
branch (a masked load with no lane enabled reads nothing and returns its pass-through),
whatever the condition (:mod:`~pipeline_mlir.frontend.pad_stores` makes it the copy it was
folded from); :func:`folded` its parts (:mod:`~pipeline_mlir.frontend.reroll_regs` moves
it as a load of global memory), :func:`fold_mismatch` why an ``scf.if`` of its ops is not
one.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
import numpy as np

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.analysis.ir_facts import splat_mask, block_size
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.frontend.guard_condition import condition_mismatch
from pipeline_mlir.frontend.kernel_ir import at, describe, kernel_of
from pipeline_mlir.frontend.partial_copy import partial_copy_refusal

#: the ops of a guarded load's then and else regions, in order
THEN = ("vector.maskedload", "scf.yield")
ELSE = ("vector.load", "arith.select", "scf.yield")
#: the form, said in a refusal
FORM = ("IREE's guarded load: one vector yielded, a 'vector.maskedload' in the then region, "
        "and in the else region a 'vector.load' of the same buffer and indices and an "
        "'arith.select' by the masked load's mask and pass-through")
#: the form folded where the mask is false in every lane, said in a refusal
FOLDED = ("IREE's guarded load folded: the 'vector.maskedload' by a mask that is the "
          "constant false in every lane, the else region yielding its pass-through alone")


class Guarded(NamedTuple):
    """The parts of a guarded load (module docstring)."""

    mask: object            # the masked load's mask, the select's condition
    load: object            # the else region's ``vector.load``
    masked: object          # the then region's ``vector.maskedload``
    passthrough: object     # its pass-through, the select's false value


def guard_parts(op):
    """(the mask, the else-branch's ``vector.load``) of guarded load ``op``, or None."""
    parts = guarded(op)
    return None if parts is None else (parts.mask, parts.load)


def guarded(op) -> Guarded | None:
    """All the parts of guarded load ``op`` (:class:`Guarded`), or None."""
    parts, _ = _check(op)
    return parts


def guard_mismatch(op) -> str | None:
    """Why ``scf.if`` ``op`` is not IREE's guarded load (module docstring), naming the op of
    its regions that breaks the form; None when it is one."""
    _, why = _check(op)
    return why


def folded_guard(op):
    """The pass-through of ``scf.if`` ``op`` when it is a guarded load whose mask is the
    constant false in every lane and whose else region yields that pass-through (module
    docstring): the value of ``op`` on every path; else None."""
    parts = folded(op)
    return None if parts is None else parts.passthrough


def folded(op) -> Guarded | None:
    """The parts of the half-folded guarded load ``op`` (:func:`folded_guard`), its ``load``
    None (its else region loads nothing); else None."""
    parts, _ = _folded(op)
    return parts


def fold_mismatch(op) -> str | None:
    """Why ``scf.if`` ``op``, of the ops of a half-folded guarded load (a
    ``vector.maskedload`` and its yield in the then region, a yield alone in the else
    region), is not one (:func:`folded_guard`); None when it is one or has other ops."""
    _, why = _folded(op)
    return why


def _folded(op) -> tuple[Guarded | None, str | None]:
    """(the parts, None) of a half-folded guarded load; (None, why it is not one) for an
    ``scf.if`` of its ops; (None, None) for any other op."""
    if op.name != "scf.if" or len(op.results) != 1 or len(op.regions) != 2 or \
            not len(op.regions[1].blocks):
        return None, None
    then = [_op(o) for o in op.regions[0].blocks[0].operations]
    other = [_op(o) for o in op.regions[1].blocks[0].operations]
    if tuple(o.name for o in then) != THEN or tuple(o.name for o in other) != ("scf.yield",):
        return None, None
    masked = then[0]
    mask, passthru = list(masked.operands)[-2:]
    if then[1].operands[0] != masked.results[0]:
        return None, f"its then region yields another value than the {describe(masked)}"
    if other[0].operands[0] != passthru or passthru.type != op.results[0].type:
        return None, (f"its else region, which loads nothing, yields another value than "
                      f"the pass-through of the {describe(masked)}")
    if splat_mask(mask) is not False:
        return None, (f"its else region loads nothing, but the mask of the "
                      f"{describe(masked)} is not the constant false in every lane (an "
                      f"'arith.constant' splat of false)")
    return Guarded(mask, None, masked, passthru), None


def nested_refusal(op) -> str:
    """The scan's refusal of ``op``, an op with regions inside the K-loop; for an
    ``scf.if``, what the front end takes there and why this one is not it (which
    condition; which op of its then or else region breaks the form, :func:`guard_mismatch`)."""
    head = (f"'{op.name}' op with regions inside the K-loop: the pipeliner moves the loop's "
            f"ops one by one and cannot move nested regions")
    if op.name != "scf.if":
        return head
    partial = None if len(op.results) else _partial_copy(op)
    if partial is not None:
        return partial
    cond = op.operands[0]
    on = ("a block argument" if isinstance(cond.owner, ir.Block)
          else f"the {describe(_op(cond.owner))}")
    if len(op.results):
        why = guard_mismatch(op) or ("it has that form, but was left in the loop: no masked "
                                     "last K tile was peeled from it")
    else:
        why = ("it yields nothing, and its condition is not true for every thread (the "
               "constant true, or evaluated in a per-thread copy loop)")
    return (f"{head}; an 'scf.if' is taken there only as {FORM}, or inlined when it yields "
            f"nothing on a condition true for every thread; this one, on the condition of "
            f"{on}, is not: {why}")


def _partial_copy(op) -> str | None:
    """The refusal of ``scf.if`` ``op`` (no results) when it runs a copy into LDS in some
    threads of the workgroup only (:mod:`~pipeline_mlir.frontend.partial_copy`), its
    condition evaluated per thread from thread ids and constants; else None."""
    bs = block_size(kernel_of(op))
    if bs is None:
        return None
    try:
        runs = Evaluator(bs, thread_only=True).value(op.operands[0]) != 0
    except IRError:                 # (Unevaluable: not of the threads alone)
        return None
    return partial_copy_refusal(op, runs.astype(np.int64))


def _names(names) -> str:
    return ", ".join(f"'{n}'" for n in names) or "nothing"


def _check(op) -> tuple[Guarded | None, str | None]:
    """(the parts, None) of a guarded load, or (None, why it is not one)."""
    if len(op.results) != 1:
        return None, f"it yields {len(op.results)} values, not one vector"
    if len(op.regions) != 2 or not len(op.regions[1].blocks):
        return None, "it has no else region"
    then = [_op(o) for o in op.regions[0].blocks[0].operations]
    other = [_op(o) for o in op.regions[1].blocks[0].operations]
    for where, ops, want in (("then", then, THEN), ("else", other, ELSE)):
        if tuple(o.name for o in ops) != want:
            bad = next((o for o, w in zip(ops, want) if o.name != w), ops[-1])
            return None, (f"its {where} region holds {_names(o.name for o in ops)} where "
                          f"the form has {_names(want)} (first apart: {describe(bad)})")
    base, *idx, mask, passthru = list(then[0].operands)
    parts, why = _same_run(op, then, other, base, idx, mask, passthru)
    if parts is not None:
        why = condition_mismatch(op, parts.load)
    return (parts, None) if why is None else (None, why)


def _same_run(op, then, other, base, idx, mask, passthru):
    """The parts, or why the regions of the ``scf.if`` ``op`` (of the form's ops) do not
    compute the same run."""
    masked, load, select = then[0], other[0], other[1]
    if then[1].operands[0] != masked.results[0]:
        return None, f"its then region yields another value than the {describe(masked)}"
    if other[2].operands[0] != select.results[0]:
        return None, f"its else region yields another value than the {describe(select)}"
    got = list(load.operands)
    if got[0] != base:
        return None, (f"the {describe(load)} reads another buffer than the "
                      f"{describe(masked)}")
    if got[1:] != idx:
        k = next((k for k, (a, b) in enumerate(zip(got[1:], idx)) if a != b), len(idx))
        return None, (f"the {describe(load)} reads other elements than the "
                      f"{describe(masked)}: index {k} differs")
    for k, (want, what) in enumerate(((mask, "the masked load's mask"),
                                      (load.results[0], f"the value of the 'vector.load' at "
                                                        f"{at(load)}"),
                                      (passthru, "the masked load's pass-through"))):
        if select.operands[k] != want:
            return None, (f"operand {k} of the {describe(select)} is not {what}")
    if load.results[0].type != op.results[0].type:
        return None, (f"the {describe(load)} reads {load.results[0].type}, the 'scf.if' "
                      f"yields {op.results[0].type}")
    return Guarded(mask, load, masked, passthru), None

