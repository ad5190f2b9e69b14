"""Reads of one element padded by their own bounds check, kept as reads past the end.

IREE pads a tile its copies' view does not fill with the transfer's own bounds check: its
bf16 and f16 ``A x B`` kernels of a skinny N (2048x16x1000: N = 16 under a 32-column tile,
32x32x8 MFMAs, K step 8) copy B one element per lane through registers with a
``vector.transfer_read`` of ``vector<1xf16>`` from a ``memref<4x16xf16>`` view that is
not in bounds (no ``in_bounds`` attribute: the transferred dimension is checked), so the
lanes of columns 16 to 31 get the padding; IREE points their row past the end of the
buffer too (``arith.select`` of the row), which the transfer's semantics do not need.

A direct-to-LDS copy cannot pad, but a lane that reads past the end of a range-checked fat
buffer gets zeros, which is what the padding gives when it is the constant zero.  So
:func:`keep_padded_reads` makes the bounds check a kept mask
(:func:`~pipeline_mlir.frontend.kept_masks.keep_in_index`): a read of one element
(every vector dimension of size 1) whose transferred dimensions are not all in bounds
gets the ``i1`` condition ``i_d < size_d`` (unsigned) of each such dimension ``d`` of its
view (a static size), ANDed, kept in its index (its lanes where it is false read ``delta``
rows past the end of the buffer, zeros), and is marked in bounds.  That is the transfer's
own semantics, element for element: a lane whose element is inside the view reads it, one
outside reads the padding.  The kept mask's requirements (a padding of every bit clear, a
range-checked fat raw buffer of static row-major shape read through casts and same-rank
unit-stride subviews, the offset past the end within 32 bits, a condition of
side-effect-free ops) are checked there, each an error at the read.  The copy is then a
kept copy like the others (what :mod:`~pipeline_mlir.frontend.kept_layout` proves over the
grid takes it).

A read of more than one element whose bounds check is not all true is left as it is: the
check masks it element by element, so a run that straddles the view's end would be read in
part, which no condition for the whole run keeps; :mod:`~pipeline_mlir.frontend.regcopy`
refuses it at the read.  So is a view whose checked dimension is sized at launch.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.analysis.ir_facts import memory_space, segments, transfer
from pipeline_mlir.frontend.kept_masks import keep_in_index
from pipeline_mlir.frontend.kernel_ir import fat_root
from pipeline_mlir.frontend.marks import KEPT


def keep_padded_reads(loop) -> int:
    """Keep the bounds check of every one-element ``vector.transfer_read`` directly in
    ``loop``'s body that is not in bounds, of a fat raw buffer (module docstring); the
    number kept."""
    done = 0
    for o in [_op(o) for o in loop.regions[0].blocks[0].operations]:
        checked = _checked_dims(o)
        if not checked:
            continue
        cond = _in_view(o, checked)
        keep_in_index(loop, o, o, cond, segments(o)[2][0])
        set_attribute(o, "in_bounds", ir.ArrayAttr.get(
            [ir.BoolAttr.get(True)] * ir.VectorType(o.results[0].type).rank))
        done += 1
    return done


def _checked_dims(o) -> list[int]:
    """The dimensions of the view ``o`` (a one-element ``vector.transfer_read`` of a fat
    raw buffer, unmasked, minor-identity) checks, each of a static size; [] for any other
    op (left to the checks downstream)."""
    if o.name != "vector.transfer_read" or KEPT in o.attributes:
        return []
    facts = transfer(o)
    vt = ir.VectorType(o.results[0].type)
    if facts.masked or any(d != 1 for d in vt.shape) or all(facts.in_bounds) or \
            not facts.minor_identity:
        return []
    view = o.operands[0]
    mt = ir.MemRefType(view.type)
    if memory_space(fat_root(view).type) != "fat_raw_buffer":
        return []
    dims = [mt.rank - vt.rank + k for k, b in enumerate(facts.in_bounds) if not b]
    if any(ir.ShapedType.is_dynamic_size(mt.shape[d]) for d in dims):
        return []
    return dims


def _in_view(o, dims: list[int]):
    """``i_d < size_d`` (unsigned) for each of ``dims``, ANDed, built before ``o``."""
    t = ir.IndexType.get()
    shape = ir.MemRefType(o.operands[0].type).shape
    cond = None
    with ir.InsertionPoint(o), o.location:
        for d in dims:
            size = ir.Operation.create("arith.constant", results=[t], attributes={
                "value": ir.IntegerAttr.get(t, shape[d])}).results[0]
            c = ir.Operation.create("arith.cmpi", results=[ir.IntegerType.get_signless(1)],
                                    operands=[o.operands[1 + d], size], attributes={
                                        "predicate": ir.IntegerAttr.get(
                                            ir.IntegerType.get_signless(64), 6)}).results[0]
            cond = c if cond is None else ir.Operation.create(
                "arith.andi", results=[c.type], operands=[cond, c]).results[0]
    return cond
