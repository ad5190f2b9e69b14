"""LDS sized in the K-loop's iteration, allocated once at a constant bound of its size.

IREE's dynamic-K kernel allocates each operand's LDS tile in the K-loop's body with the K
left in the iteration as its column count (``memref.alloc(%k) : memref<128x?xbf16>``, ``%k
= affine.min(K - 32 iv, 32)``).  :func:`bounded_sizes` proves a constant bound of each size
computed in the iteration; :func:`rebase_on_bounds` allocates one buffer of the bounds
before the loop (``memref<128x32xbf16>``) and replaces the allocation in the loop by a
``memref.reinterpret_cast`` of it to the iteration's sizes with the bounds' row-major
strides (``memref<128x?xbf16, strided<[32, 1]>>``).  Every element the iteration's view
holds lies in the buffer (each size at most its bound), every access of the tile goes
through the view (the callers check that nothing of it escapes), so only the layout of
the elements changes, which no other op sees.  The views of the tile take its strided
type: a ``memref.subview`` (not rank-reducing) gets the result type of its new source, a
``memref.cast`` to the type of the bounds stays as it is (the strides are the same); any
other view of it is refused at the op, as is a size with no constant bound.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import DYNAMIC, dense_i64, row_major_strides
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import constant_bound, depends, describe, owner

__all__ = ["bounded_sizes", "rebase_on_bounds", "pin_full_sizes"]

#: views of a tile that :func:`rebase_on_bounds` retypes
RETYPED = ("memref.subview",)
#: users of a tile that see its type only as an operand's
PASSIVE = ("memref.load", "memref.store", "vector.load", "vector.store",
           "vector.transfer_read", "vector.transfer_write", "vector.maskedload",
           "vector.maskedstore", "amdgpu.gather_to_lds", "amdgpu.transpose_load",
           "memref.copy", "memref.dealloc")


def bounded_sizes(alloc) -> tuple[list[int] | None, object]:
    """(the constant bound of each of ``alloc``'s dynamic sizes, None) or (None, the size
    with none).  Checks that the tile's views can be retyped (module docstring)."""
    t = ir.MemRefType(alloc.results[0].type)
    segments = list(ir.DenseI32ArrayAttr(alloc.attributes["operandSegmentSizes"]))
    identity = t.layout == ir.AffineMapAttr.get(ir.AffineMap.get_identity(t.rank))
    if segments[1:] not in ([0], []) or not identity:
        raise IRError(alloc, f"{describe(alloc)} allocates LDS inside the K-loop with a "
                             f"layout or symbol operands; the front end rebases a tile of "
                             f"the identity layout only")
    bounds = []
    for v in alloc.operands:
        b = constant_bound(v)
        if b is None or b < 0:
            return None, v
        bounds.append(b)
    it = iter(bounds)
    static = ir.MemRefType.get([next(it) if d == DYNAMIC else d for d in t.shape],
                               t.element_type, memory_space=t.memory_space)
    _check_views(alloc.results[0], static)
    return bounds, None


def _check_views(v, static) -> None:
    """Every view of ``v`` retypable: a subview of its rank, or a ``memref.cast`` to the
    bounds' type ``static`` (the buffer's own: the same strides, asserting the sizes are
    the bounds)."""
    for u in v.uses:
        user = _op(u.owner)
        if user.name == "memref.cast" and static is not None and user.results[0].type == static:
            continue
        if user.name in RETYPED and u.operand_number == 0:
            if ir.MemRefType(user.results[0].type).rank != ir.MemRefType(v.type).rank:
                raise IRError(user, f"{describe(user)} is a rank-reducing view of an LDS tile "
                                    f"sized in the K-loop's iteration; the front end "
                                    f"rebases a tile viewed by subviews of its rank only")
            _check_views(user.results[0], None)
        elif user.name not in PASSIVE:
            raise IRError(user, f"{describe(user)} views an LDS tile sized in the K-loop's "
                                f"iteration; the front end rebases a tile viewed by "
                                f"subviews and accessed directly only")


def rebase_on_bounds(loop, alloc, bounds: list[int]) -> None:
    """``alloc`` (in ``loop``'s body) replaced by a view of one buffer of ``bounds``
    allocated before ``loop`` (module docstring)."""
    t = ir.MemRefType(alloc.results[0].type)
    it = iter(bounds)
    shape = [next(it) if d == DYNAMIC else d for d in t.shape]
    attrs = {n: alloc.attributes[n] for n in alloc.attributes if n != "operandSegmentSizes"}
    static = ir.MemRefType.get(shape, t.element_type, memory_space=t.memory_space)
    with ir.InsertionPoint(loop), loop.location:
        buffer = ir.Operation.create(
            "memref.alloc", results=[static], operands=[], attributes={
                **attrs, "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])})
    strides = row_major_strides(shape)
    view_t = ir.MemRefType.get(list(t.shape), t.element_type,
                               ir.StridedLayoutAttr.get(0, strides), t.memory_space)
    sizes = list(alloc.operands)
    with ir.InsertionPoint(alloc), alloc.location:
        view = ir.Operation.create(
            "memref.reinterpret_cast", results=[view_t],
            operands=[buffer.results[0], *sizes], attributes={
                "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 0, len(sizes), 0]),
                "static_offsets": ir.DenseI64ArrayAttr.get([0]),
                "static_sizes": ir.DenseI64ArrayAttr.get(list(t.shape)),
                "static_strides": ir.DenseI64ArrayAttr.get(strides)})
    alloc.results[0].replace_all_uses_with(view.results[0])
    alloc.erase()
    _retype(view.results[0])


def _retype(v) -> None:
    """Each subview of ``v`` (and of those) with the result layout of its source's."""
    src = ir.MemRefType(v.type)
    src_strides, src_offset = src.get_strides_and_offset()
    for u in list(v.uses):
        user = _op(u.owner)
        if user.name not in RETYPED or u.operand_number != 0:
            continue
        offsets = dense_i64(user, "static_offsets")
        steps = dense_i64(user, "static_strides")
        strides = [DYNAMIC if DYNAMIC in (s, k) else s * k for s, k in zip(src_strides, steps)]
        offset = DYNAMIC if DYNAMIC in (*offsets, *src_strides, src_offset) else \
            src_offset + sum(o * s for o, s in zip(offsets, src_strides))
        r = ir.MemRefType(user.results[0].type)
        user.results[0].set_type(ir.MemRefType.get(
            list(r.shape), r.element_type, ir.StridedLayoutAttr.get(offset, strides),
            r.memory_space))
        _retype(user.results[0])


def pin_full_sizes(loop, sizes: dict) -> int:
    """In ``loop`` (the loop to pipeline, its masked last K tile peeled), each mask size
    value that also sizes an LDS allocation of the loop's body replaced by its constant:
    ``sizes`` ({read: (dims, size values)}) holds values proven ``>= dim`` in every
    iteration the loop runs (:func:`~pipeline_mlir.frontend.masks.peel_masked_tail`), and
    one whose constant bound (:func:`_bound`) is that dim equals it there.  IREE's
    dynamic-K kernel sizes its LDS tiles, its masks and its copy loops by the K left,
    ``affine.min(K - 32 iv, 32)``: 32 in every iteration but the last.  Returns how many
    values were replaced."""
    done = set()
    for dims, vals in sizes.values():
        for d, v in zip(dims, vals):
            if v in done or isinstance(v.owner, ir.Block) or not _in_body(v.owner, loop) or \
                    constant_bound(v) != d or not (any(_op(u.owner).name == "memref.alloc" and
                                               _in_body(u.owner, loop) for u in v.uses)
                                           or _bounds_thread_loop(v, loop)):
                continue
            done.add(v)
            with ir.InsertionPoint(_op(v.owner)), _op(v.owner).location:
                c = ir.Operation.create("arith.constant", results=[v.type], attributes={
                    "value": ir.IntegerAttr.get(v.type, d)})
            v.replace_all_uses_with(c.results[0])
    return len(done)


def _bounds_thread_loop(v, loop) -> bool:
    """Whether ``v`` is among the values the upper bound of a per-thread copy loop of
    ``loop``'s body (an ``scf.for`` from the thread id: IREE's late form sizes its copy
    loops by the K left, with no LDS allocation in the loop) is computed from."""
    for o in map(_op, loop.regions[0].blocks[0].operations):
        if o.name != "scf.for":
            continue
        if owner(o.operands[0], "gpu.thread_id") is not None and depends(o.operands[1], {v}):
            return True
    return False


def _in_body(op, loop) -> bool:
    """Whether ``op`` lies directly in ``loop``'s body."""
    return _op(_op(op).parent) == loop
