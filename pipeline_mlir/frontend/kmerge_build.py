"""The merged loop of :mod:`~pipeline_mlir.frontend.kmerge` built: ``m`` copies of the
loop's body on ``m`` slabs of buffers ``m`` times as large.

:func:`roots_refusal` says why a loop's LDS buffers cannot be merged (not a static
``memref.alloc`` viewed through the views :data:`VIEWS` clones); :func:`build_merged`
inserts the merged loop before the kernel's, which it leaves as it is: each buffer
allocated ``m`` times as large, copy ``j`` of the body on slab ``j`` through clones of the
buffer's views whose layout offset moves by ``j`` buffer sizes, its loop variable the new
loop's plus ``j`` steps, the accumulators flowing from one copy to the next
(``kmerge.py``'s docstring says why each is so).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.analysis.ir_facts import attr_names, constant_int, enclosing_ops
from pipeline_mlir.frontend.marks import DIAGONAL_ATTR, HALVED_ATTR, MERGED_ATTR

__all__ = ["VIEWS", "build_merged", "roots_refusal"]

#: the views whose clones on a slab of the merged buffer move only their layout's offset
VIEWS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
         "memref.assume_alignment")


def roots_refusal(roots: list) -> str | None:
    """Why the buffers cannot be merged (module docstring), or None."""
    for root in roots:
        owner = root.owner
        t = ir.MemRefType(root.type)
        ok = not isinstance(owner, ir.Block) and _op(owner).name == "memref.alloc" and \
            t.has_static_shape and t.get_strides_and_offset()[1] == 0 and \
            not len(_op(owner).operands)
        other = [o.name for v in (_views(root) if ok else ()) for o in map(
                     lambda u: _op(u.owner), v.uses)
                 if o.name.startswith("memref.") and o.name not in VIEWS and
                 o.name != "memref.dealloc" and
                 any(isinstance(r.type, ir.MemRefType) for r in o.results)]
        if not ok or other:
            return (f"its LDS buffer {root.type} is not a static memref.alloc viewed "
                    f"through subview, expand_shape, collapse_shape and cast only" +
                    (f" ('{other[0]}' views it)" if other else ""))
    return None


def _views(root) -> list:
    """``root`` and every view of it (transitively, through ``VIEWS``)."""
    out, todo = [], [root]
    while todo:
        v = todo.pop()
        out.append(v)
        for u in v.uses:
            o = _op(u.owner)
            if o.name in VIEWS and o.operands[0] == v:
                todo.extend(o.results)
    return out


def _shifted(t, delta: int):
    """The memref type ``t`` with its layout's offset moved by ``delta`` elements (``t``
    itself when it does not move: an identity layout made strided is another type, which
    the verifier of an op that infers its result type refuses)."""
    t = ir.MemRefType(t)
    if delta == 0:
        return t
    strides, off = t.get_strides_and_offset()
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    new = dyn if off == dyn else off + delta
    return ir.MemRefType.get(t.shape, t.element_type, ir.StridedLayoutAttr.get(new, strides),
                             memory_space=t.memory_space)


def _remap(op, mapping: dict) -> None:
    """``op``'s operands, and those of the ops nested in it, replaced by ``mapping``."""
    for i, v in enumerate(op.operands):
        if v in mapping:
            op.operands[i] = mapping[v]
    for region in op.regions:
        for block in region.blocks:
            for o in block.operations:
                _remap(_op(o), mapping)


def _view_clone(op, source, delta: int):
    """A clone of view ``op`` on ``source``, its result's offset moved by ``delta``."""
    new = ir.Operation.create(op.name, results=[_shifted(op.results[0].type, delta)],
                              operands=[source] + list(op.operands)[1:],
                              attributes={a: op.attributes[a] for a in attr_names(op)})
    return new


def _slab_views(root, big, j: int, size: int, mapping: dict, deltas: dict) -> None:
    """Clones, on slab ``j`` of ``big``, of ``root``'s views outside any loop body (each
    right after its original), into ``mapping`` (their offsets' move into ``deltas``)."""
    flat = ir.MemRefType.get([size], ir.MemRefType(root.type).element_type,
                             memory_space=ir.MemRefType(root.type).memory_space)
    with ir.InsertionPoint.after(_op(big.owner)):
        sub = ir.Operation.create(
            "memref.subview", results=[_shifted(flat, j * size)], operands=[big],
            attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 0, 0, 0]),
                        "static_offsets": ir.DenseI64ArrayAttr.get([j * size]),
                        "static_sizes": ir.DenseI64ArrayAttr.get([size]),
                        "static_strides": ir.DenseI64ArrayAttr.get([1])})
        shape = ir.MemRefType(root.type).shape
        if len(shape) > 1:          # the slab in the root's shape (IREE's 1 x N slot buffer)
            sub = ir.Operation.create(
                "memref.expand_shape",
                results=[_shifted(root.type, j * size) if j else root.type],
                operands=[sub.results[0]],
                attributes={"reassociation": ir.ArrayAttr.get([ir.ArrayAttr.get(
                                [ir.IntegerAttr.get(ir.IntegerType.get_signless(64), d)
                                 for d in range(len(shape))])]),
                            "static_output_shape": ir.DenseI64ArrayAttr.get(shape)})
    mapping[root] = sub.results[0]
    deltas[root] = j * size
    todo = [root]
    while todo:
        v = todo.pop()
        for u in list(v.uses):
            o = _op(u.owner)
            if o.name not in VIEWS or o.operands[0] != v or _in_loop_body(o):
                continue
            with ir.InsertionPoint.after(o):
                new = _view_clone(o, mapping[v], j * size)
            mapping[o.results[0]] = new.results[0]
            deltas[o.results[0]] = j * size
            todo.append(o.results[0])


def _in_loop_body(op) -> bool:
    """Whether ``op`` lies in an ``scf.for`` of its function."""
    return any(p.name == "scf.for" for p in enclosing_ops(op))


def build_merged(loop, roots: list, m: int, step: int, runs: int | None):
    """The merged loop (module docstring), inserted before ``loop``: ``runs`` K steps from
    ``loop``'s lower bound (None: to its upper bound, for :func:`guarded_pairs` to cut)."""
    sizes = [int(np.prod(ir.MemRefType(r.type).shape)) for r in roots]
    slabs = [dict() for _ in range(m)]
    deltas = [dict() for _ in range(m)]
    bigs = []
    with loop.context, loop.location:
        for root, size in zip(roots, sizes):
            old = _op(root.owner)
            t = ir.MemRefType(root.type)
            with ir.InsertionPoint(old):
                big = ir.Operation.create(
                    "memref.alloc", results=[ir.MemRefType.get(
                        [m * size], t.element_type, memory_space=t.memory_space)],
                    attributes={a: old.attributes[a] for a in attr_names(old)})
            bigs.append(big.results[0])
            for j in range(m):
                _slab_views(root, big.results[0], j, size, slabs[j], deltas[j])
        with ir.InsertionPoint(loop):
            it = loop.operands[0].type
            c = lambda x: B.arith.constant(it, ir.IntegerAttr.get(it, x))  # noqa: E731
            lb = loop.operands[0]
            ub = loop.operands[1] if runs is None else c(constant_int(lb) + runs * step)
            new = B.scf.ForOp(lb, ub, c(m * step), list(loop.operands)[3:])
        body = loop.regions[0].blocks[0]
        iv, args = body.arguments[0], list(body.arguments)[1:]
        ops = [_op(o) for o in body.operations]
        cur = list(new.inner_iter_args)
        with ir.InsertionPoint(new.body):
            for j in range(m):
                mapping, delta = dict(slabs[j]), dict(deltas[j])
                mapping[iv] = new.induction_variable if j == 0 else B.arith.addi(
                    new.induction_variable, c(j * step))
                mapping.update(zip(args, cur))
                for o in ops[:-1]:
                    src = o.operands[0] if len(o.operands) else None
                    if o.name in VIEWS and src in delta:
                        cl = _view_clone(o, mapping[src], delta[src])
                        for i, v in enumerate(list(cl.operands)[1:], 1):   # dynamic offsets
                            cl.operands[i] = mapping.get(v, v)
                        delta[o.results[0]] = delta[src]
                    else:
                        cl = o.clone()
                        _remap(cl, mapping)
                    for a, b in zip(o.results, cl.results):
                        mapping[a] = b
                cur = [mapping.get(v, v) for v in ops[-1].operands]
            B.scf.YieldOp(cur)
        set_attribute(new.operation, MERGED_ATTR, ir.IntegerAttr.get(
            ir.IntegerType.get_signless(64), m))
        for mark in (HALVED_ATTR, DIAGONAL_ATTR):   # (halved: frontend/half_k.py; diagonal)
            if mark in loop.attributes:
                set_attribute(new.operation, mark, loop.attributes[mark])
    return new.operation, bigs
