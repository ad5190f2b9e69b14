"""Per-thread copy loops in the K-loop's body unrolled into the copies they make.

IREE's dynamic-K kernel copies each operand's tile with a loop that every thread runs over
the chunks it owns (``scf.for %j = %tid to %n step %S``, ``%S`` the workgroup's threads),
each iteration a ``memref.copy`` of one chunk (a ``1 x min(8, k - 8 c)`` subview of the
global operand to the same of the LDS tile) under ``scf.if`` (the chunk not empty).  In the
loop to pipeline (its last K tile peeled, the K left pinned to the K step:
:func:`~pipeline_mlir.frontend.lds_bounds.pin_full_sizes`) these are the tile's copies;
:func:`unroll_thread_loops` makes them so, each step proven for every thread of the
workgroup by the per-lane evaluator with no launch value sampled (so a value that depends
on K, the K-loop's variable or the workgroup is refused, not sampled):

* a loop directly in the K-loop's body whose lower bound is the thread id (a 1-D
  workgroup), whose step is the workgroup's thread count and whose upper bound evaluates
  to one value ``n``, with no results: every thread runs ``T = ceil((n - t) / S)``
  iterations, which must be the same ``T`` for every thread ``t``; the loop becomes ``T``
  copies of its body, the ``k``-th with the loop variable ``t + k S``;
* an ``scf.if`` with no results and no else ops among those ops whose condition is true
  for every thread: its then-block in its place;
* a ``memref.copy`` among them whose source and target are subviews whose sizes evaluate
  to the same constants for every thread: a ``vector.transfer_read`` of the source (in
  bounds: the sizes are the vector's) and a ``vector.transfer_write`` of it to the target,
  a copy through registers that :mod:`~pipeline_mlir.frontend.regcopy` takes as any other;
* an element copy loop among them (IREE's late form: ``scf.for %j = 0 to n`` of a
  ``memref.load`` and a ``memref.store`` into another memory space, indexed ``X + j`` in
  the last dimension and free of ``j`` in the others) whose ``n`` evaluates to one positive
  constant in every thread: one ``vector.load`` of ``n`` elements and its ``vector.store``.

A loop or op that fails a check is left as it is for the scan to refuse at the op, except
a per-thread loop whose threads run different numbers of iterations or whose bound cannot
be evaluated, refused here at the loop, saying why.  A per-thread loop that copies into
LDS in threads ``0`` to ``n - 1`` only is spread over every thread instead
(:mod:`~pipeline_mlir.frontend.partial_copy`): by :func:`spread_thread_loops` before the
tail is cut off (the remainder loop's copy too), else where it is unrolled.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, WORKGROUP_COUNT_OPS, WORKGROUP_ID_OPS,
                                             block_size, constant_int, dense_i64, memory_space)
from pipeline_mlir.analysis.loop_eval import Evaluator, Unevaluable, grid_stride
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.dynamic_masks import strip
from pipeline_mlir.frontend.kernel_ir import depends, describe, is_pure, kernel_of, owner
from pipeline_mlir.frontend.partial_copy import lds_copy, partial, spread_copy

__all__ = ["is_thread_loop", "spread_thread_loops", "unroll_thread_loops"]

#: ops whose result is a workgroup's id or a launch's size: a value depending on one is
#: not evaluated (the evaluator would sample the id; it refuses the size with a message
#: that does not say why)
WORKGROUP_OPS = WORKGROUP_ID_OPS + WORKGROUP_COUNT_OPS


def unroll_thread_loops(loop) -> int:
    """Unroll the per-thread copy loops of ``loop``'s body (module docstring); returns
    how many."""
    count = 0
    for o, ev, threads in _thread_loops(loop):
        trips, n = _trips(o, ev, threads)
        if lds_copy(o) is not None and partial(trips):     # (as at the prefetch point)
            spread_copy(o, trips, o.regions[0].blocks[0].arguments[0], loop)
            count += 1
            continue
        ops = _unroll(o, _uniform_trips(o, trips, n), threads)
        for x in ops:
            _resolve(x, ev)
        count += 1
    return count


def spread_thread_loops(loop) -> int:
    """Spread each per-thread loop directly in ``loop``'s body that copies into LDS in part
    of the workgroup (:func:`~pipeline_mlir.frontend.partial_copy.spread_copy`), as
    :func:`unroll_thread_loops` does, but before the tail is cut off, so that the remainder
    loop runs the spread copy too, as it does from the prefetch point's ``scf.if`` (IREE's
    per-thread loop kept there left waves 2 and 3 with no LDS write of B on the path the
    ISA check follows); returns how many.  A loop whose trip counts do not evaluate is left
    to :func:`unroll_thread_loops`, which says why."""
    count = 0
    for o, ev, threads in _thread_loops(loop):
        if lds_copy(o) is None:
            continue
        try:
            trips, _ = _trips(o, ev, threads)
        except IRError:
            continue
        if partial(trips):
            spread_copy(o, trips, o.regions[0].blocks[0].arguments[0], loop)
            count += 1
    return count


def _thread_loops(loop):
    """(loop, the evaluator, the workgroup's threads) for each per-thread loop directly in
    ``loop``'s body, in a workgroup of one dimension; none in any other."""
    bs = block_size(kernel_of(loop))
    if bs is None or bs[1] != 1 or bs[2] != 1:
        return
    ev = Evaluator(bs, launch_values=False)
    ev.where = loop
    for o in [_op(x) for x in loop.regions[0].blocks[0].operations]:
        if o.name == "scf.for" and is_thread_loop(o):
            yield o, ev, bs[0]


def is_thread_loop(o) -> bool:
    """Whether ``o`` (an ``scf.for``) is a per-thread loop: its lower bound a
    ``gpu.thread_id x`` (through casts), no results."""
    lb = strip(o.operands[0])
    if isinstance(lb.owner, ir.Block) or len(o.results):
        return False
    t = _op(lb.owner)
    return t.name == "gpu.thread_id" and str(t.attributes["dimension"]).endswith("x>")


def workgroup_dependent(v, seen: set) -> bool:
    """``v`` is computed from a workgroup's id or a launch's size (:data:`WORKGROUP_OPS`)
    or from the variable of a loop over workgroups: an ``scf.forall`` or IREE's linearised
    workgroup loop (:func:`~pipeline_mlir.analysis.loop_eval.grid_stride`), which the
    evaluator takes for a workgroup id and samples."""
    if v in seen:
        return False
    seen.add(v)
    if isinstance(v.owner, ir.Block):
        parent = v.owner.owner
        parent = None if parent is None else _op(parent)
        return parent is not None and (parent.name == "scf.forall" or (
            parent.name == "scf.for" and grid_stride(parent)))
    o = _op(v.owner)
    return o.name in WORKGROUP_OPS or any(workgroup_dependent(x, seen) for x in o.operands)


def _uniform(o, v, ev, what: str) -> int:
    """``v`` (an operand of per-thread loop ``o``) as one value for every thread."""
    try:
        if workgroup_dependent(v, set()):
            raise IRError(o, "depends on the workgroup")
        x = ev.uniform(v)
    except IRError as e:
        why = e.args[0] if not isinstance(e, Unevaluable) else str(e)
        raise IRError(o, f"{describe(o)} is a per-thread loop in the K-loop whose {what} "
                         f"the front end cannot evaluate as one value for every thread "
                         f"({why.splitlines()[0][:160]}); it unrolls a loop of the same trip "
                         f"count in every thread") from None
    if x is None:
        raise IRError(o, f"{describe(o)} is a per-thread loop in the K-loop whose {what} "
                         f"differs between threads; it unrolls a loop of the same trip count "
                         f"in every thread")
    return x


def _trips(o, ev, threads: int) -> tuple[np.ndarray, int]:
    """The trip count of per-thread loop ``o`` in each thread, and its upper bound."""
    step = _uniform(o, o.operands[2], ev, "step")
    n = _uniform(o, o.operands[1], ev, "upper bound")
    if step != threads:
        raise IRError(o, f"{describe(o)} is a per-thread loop in the K-loop of step {step}, "
                         f"not the workgroup's {threads} threads; the front end unrolls a "
                         f"loop that deals its iterations to the threads once each")
    t = np.arange(threads)
    return np.maximum(0, -((t - n) // step)), n


def _uniform_trips(o, trips: np.ndarray, n: int) -> int:
    """The trip count ``trips`` of per-thread loop ``o`` (upper bound ``n``, step the
    workgroup's threads), the same in every thread."""
    step = len(trips)
    if not np.all(trips == trips[0]):
        k = int(np.flatnonzero(trips != trips[0])[0])
        raise IRError(o, f"{describe(o)} is a per-thread loop in the K-loop whose threads "
                         f"run different numbers of iterations (thread 0: {int(trips[0])}, "
                         f"thread {k}: {int(trips[k])}, of {n} in steps of {step}); the "
                         f"front end unrolls a loop of the same trip count in every thread")
    return int(trips[0])


def _unroll(o, trips: int, step: int) -> list:
    """Per-thread loop ``o`` (of step ``step``) replaced by ``trips`` copies of its body;
    the new ops."""
    out = []
    for k in range(trips):
        c = o.clone(ir.InsertionPoint(o))
        iv = c.regions[0].blocks[0].arguments[0]
        with ir.InsertionPoint(c), c.location:
            off = ir.Operation.create("arith.constant", results=[iv.type], attributes={
                "value": ir.IntegerAttr.get(iv.type, k * step)})
            j = ir.Operation.create("arith.addi", results=[iv.type],
                                    operands=[c.operands[0], off.results[0]])
        out += [off, j]
        iv.replace_all_uses_with(j.results[0])
        for x in list(c.regions[0].blocks[0].operations):
            x = _op(x)
            if x.name != "scf.yield":
                x.move_before(c)
                out.append(x)
        c.erase()
    o.erase()
    return out


def _resolve(x, ev) -> None:
    """Inline ``x`` if it is an ``scf.if`` true for every thread (its ops resolved in
    turn); replace it by a vector copy if it is a ``memref.copy`` of constant sizes."""
    if x.name == "scf.if" and not len(x.results) and _always(x.operands[0], ev) and \
            (len(x.regions) < 2 or not len(x.regions[1].blocks) or
             all(_op(y).name == "scf.yield" for y in x.regions[1].blocks[0].operations)):
        inner = [_op(y) for y in x.regions[0].blocks[0].operations]
        inner = [y for y in inner if y.name != "scf.yield"]   # (erased with ``x``)
        for y in inner:
            y.move_before(x)
        x.erase()
        for y in inner:
            _resolve(y, ev)
    elif x.name == "memref.copy":
        _vector_copy(x, ev)
    elif x.name == "scf.for":
        _vector_elements(x, ev)


def _always(cond, ev) -> bool:
    try:
        if workgroup_dependent(cond, set()):
            return False
        return bool(np.all(ev.value(cond) != 0))
    except IRError:
        return False


def _sizes(v, ev) -> list[int] | None:
    """The sizes of subview ``v``, the same constants in every thread, or None."""
    sv = owner(v, "memref.subview")
    if sv is None:
        return None
    static = dense_i64(sv, "static_sizes")
    n_off = sum(1 for o in dense_i64(sv, "static_offsets") if o == DYNAMIC)
    dyn = iter(list(sv.operands)[1 + n_off:])
    out = []
    for s in static:
        if s != DYNAMIC:
            out.append(s)
            continue
        x = next(dyn)
        try:
            u = None if workgroup_dependent(x, set()) else ev.uniform(x)
        except IRError:
            return None
        if u is None:
            return None
        out.append(u)
    return out


def _vector_copy(copy, ev) -> None:
    src, dst = copy.operands[0], copy.operands[1]
    a, b = _sizes(src, ev), _sizes(dst, ev)
    if a is None or a != b or min(a) <= 0:
        return
    st = ir.MemRefType(src.type)
    vt = ir.VectorType.get(a, st.element_type)
    n = len(a)
    with ir.InsertionPoint(copy), copy.location:
        zero = ir.Operation.create("arith.constant", results=[ir.IndexType.get()],
                                   attributes={"value": ir.IntegerAttr.get(
                                       ir.IndexType.get(), 0)}).results[0]
        pad = ir.Operation.create("ub.poison", results=[st.element_type]).results[0]
        in_bounds = ir.ArrayAttr.get([ir.BoolAttr.get(True)] * n)
        perm = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(n, n))
        read = ir.Operation.create(
            "vector.transfer_read", results=[vt], operands=[src, *[zero] * n, pad],
            attributes={"in_bounds": in_bounds, "permutation_map": perm,
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, n, 1, 0])})
        ir.Operation.create(
            "vector.transfer_write", results=[], operands=[read.results[0], dst, *[zero] * n],
            attributes={"in_bounds": in_bounds, "permutation_map": perm,
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 1, n, 0])})
    copy.erase()


def _element_copy(loop):
    """(load, store) when ``loop`` (from 0 in steps of 1, no results) copies one element
    per iteration: its body pure index ops, one ``memref.load`` and one ``memref.store``
    of the loaded value into another memory space (so no store changes a later load),
    each indexed by values free of the loop variable but the last, ``X + j`` (``j`` the
    loop variable, cast to ``index``); else None."""
    if len(loop.results) or constant_int(loop.operands[0]) != 0 or \
            constant_int(loop.operands[2]) != 1:
        return None
    body = loop.regions[0].blocks[0]
    iv = body.arguments[0]
    ops = [_op(o) for o in body.operations][:-1]
    loads = [o for o in ops if o.name == "memref.load"]
    stores = [o for o in ops if o.name == "memref.store"]
    if len(loads) != 1 or len(stores) != 1:
        return None
    load, store = loads[0], stores[0]
    if store.operands[0] != load.results[0] or len(list(load.results[0].uses)) != 1 or \
            memory_space(load.operands[0].type) == memory_space(store.operands[1].type) or \
            any(not is_pure(o) for o in ops if o not in (load, store)):
        return None
    for indices in (list(load.operands)[1:], list(store.operands)[2:]):
        if not indices or any(depends(x, {iv}) for x in indices[:-1]) or \
                not _plus_iv(indices[-1], iv):
            return None
    return load, store


def _plus_iv(x, iv) -> bool:
    """Whether ``x`` is ``X + j``, ``X`` free of ``iv``, ``j`` ``iv`` through casts."""
    add = owner(x, "arith.addi")
    if add is None:
        return False
    a, b = add.operands
    for y, other in ((a, b), (b, a)):
        if strip(y) == iv and not depends(other, {iv}):
            return True
    return False


def _vector_elements(loop, ev) -> None:
    """Element copy loop ``loop`` (:func:`_element_copy`) of one trip count ``n`` in every
    thread replaced by a ``vector.load`` of ``n`` elements and its ``vector.store``."""
    pair = _element_copy(loop)
    if pair is None:
        return
    try:
        n = None if workgroup_dependent(loop.operands[1], set()) else ev.uniform(
            loop.operands[1])
    except IRError:
        return
    if n is None or n <= 0:
        return
    iv = loop.regions[0].blocks[0].arguments[0]
    load, store = pair
    vt = ir.VectorType.get([n], load.results[0].type)
    with ir.InsertionPoint(loop), loop.location:
        zero = ir.Operation.create("arith.constant", results=[iv.type], attributes={
            "value": ir.IntegerAttr.get(iv.type, 0)}).results[0]
    iv.replace_all_uses_with(zero)
    for o in [_op(x) for x in loop.regions[0].blocks[0].operations][:-1]:
        o.move_before(loop)
    with ir.InsertionPoint(load), load.location:
        v = ir.Operation.create("vector.load", results=[vt], operands=list(load.operands))
    with ir.InsertionPoint(store), store.location:
        ir.Operation.create("vector.store", operands=[v.results[0],
                                                      *list(store.operands)[1:]])
    store.erase()
    load.erase()
    loop.erase()
