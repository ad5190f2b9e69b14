"""A gather IREE writes into a dispatch's epilogue (``iree_linalg_ext.map_load``), checked to
be a plain read of a strided view of its source before the epilogue reader
(:mod:`~pipeline_mlir.frontend.epilogue`) takes it for one read of the binding: its region
evaluated for every destination element, thread and the loops around it at their first
iteration."""

from __future__ import annotations

import itertools
import math

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.frontend.guarded_read import off_stride
from pipeline_mlir.frontend.kernel_ir import describe


#: the most destination elements of a gather whose region :func:`check_in_order` evaluates
MAX_GATHERED = 4096


def check_in_order(f, op) -> None:
    """Refuse (at ``op``, an ``iree_linalg_ext.map_load``) a gather that is not a plain read
    of a strided view of its source: its region, evaluated for every element of its
    destination (each thread, the loops around it at their first iteration), must yield the
    source element the first one's yields plus, per destination dimension, its index times
    one positive stride the same for every thread (as a ``vector.transfer_read`` of a
    ``memref.subview`` or reshape reads: IREE's gathers of a bias read a thread's columns
    so); a reversed or scrambled gather is not the one read of the binding the tree says."""
    from pipeline_mlir.analysis.ir_facts import block_size
    from pipeline_mlir.analysis.loop_eval import Evaluator

    shape = ir.MemRefType(op.operands[1].type).shape
    count = math.prod(shape)
    block = op.regions[0].blocks[0]
    if any(d < 0 for d in shape) or count > MAX_GATHERED or len(block.arguments) != len(shape):
        raise IRError(op, f"{describe(op)}: a gather into {op.operands[1].type} (not a static "
                          f"shape of at most {MAX_GATHERED} elements, one region argument "
                          f"per dimension), whose region the epilogue reader cannot evaluate")
    ev = Evaluator(block_size(f) or (256, 1, 1))
    enclosing_first(ev, op)
    src = op.operands[0]
    yielded = list(as_operation(block.operations[-1]).operands)[
        :ir.MemRefType(src.type).rank]
    ats, points = [], list(itertools.product(*map(range, shape)))     # row-major
    try:
        for point in points:
            for a, i in zip(block.arguments, point):
                ev.bind(a, i)
            ats.append(ev.view(src).element([ev.value(x) for x in yielded]))
    except IRError as e:
        raise IRError(op, f"{describe(op)}: the source element its region gathers could not "
                          f"be evaluated ({e})") from None
    strides, unit = [], 1
    for d in reversed(shape):
        strides.insert(0, int(ats[unit][0] - ats[0][0]) if d > 1 else 1)
        unit *= d
    why = ("the epilogue reader reads a gather of a binding only as a read of a strided view "
           "(each destination index moving the source element by one positive stride)")
    for k, st in enumerate(strides):
        if st <= 0:
            raise IRError(op, f"{describe(op)}: its region moves the source element by {st} "
                              f"as destination index {k} moves by one (thread 0): {why}")
    off = off_stride(zip(points, ats), ats[0], strides, list)
    if off is not None:
        point, t, got, want = off
        raise IRError(op, f"{describe(op)}: its region gathers destination element "
                          f"{list(point)} from source element {got} (thread {t}), not "
                          f"{want}: {why}")


def enclosing_first(ev, op) -> None:
    """Bind the induction variables of the ``scf.for`` loops around ``op`` to their first
    iteration."""
    o = op.parent
    while o is not None:
        o = as_operation(o)
        if o.name == "scf.for":
            ev.bind(o.regions[0].blocks[0].arguments[0], ev.value(o.operands[0]))
        o = o.parent
