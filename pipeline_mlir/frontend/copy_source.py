"""The global indices of the copies the front end makes, per dimension of their buffer.

The front end's copies (:mod:`pipeline_mlir.frontend.layout`) read the buffer one of the
kernel's copies views, at that copy's thread-0 source plus an offset per dimension.  The
thread-0 source is a view (IREE's ``memref.subview`` of a row-major buffer, moved by the
K step) indexed by the copy's indices.  When every view between the copy and the buffer is
a same-rank, unit-stride ``memref.subview`` (or a cast), the source's index in dimension
``d`` is the sum of the views' offsets in ``d`` and the copy's index ``d``: no linear
offset, and so no division by the buffer's row length to split one back into rows and
columns (on a 1000-column buffer, a 64-bit division by 1000 per copy and K step, some 23
scalar instructions in the K-loop).  Any other chain gives None and the caller falls back
to the linear offset.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import dense_i64, segments

#: ``ShapedType::kDynamic`` in the static offsets of a ``memref.subview``
_DYNAMIC = -9223372036854775808
#: views that keep the indices as they are
_SAME_INDEX_VIEWS = ("memref.cast", "memref.assume_alignment")


def dim_indices(ix, cl, src, src_indices, base) -> list | None:
    """The index per dimension of ``base`` of element ``src[src_indices]``, emitted with
    ``ix`` (``c``, ``add``, ``mul``) from values ``cl`` (a
    :class:`~pipeline_mlir.frontend.layout.Cloner`) maps; None if a view between ``src``
    and ``base`` is not a cast or a same-rank unit-stride subview."""
    idx = [cl.get(i) for i in src_indices]
    v = src
    while v != base:
        if isinstance(v.owner, ir.Block):
            return None
        o = _op(v.owner)
        if o.name in _SAME_INDEX_VIEWS:
            v = o.operands[0]
            continue
        if o.name != "memref.subview":
            return None
        src_rank = ir.MemRefType(o.operands[0].type).rank
        offsets = dense_i64(o, "static_offsets")
        if src_rank != len(idx) or any(s != 1 for s in dense_i64(o, "static_strides")):
            return None
        dyn = iter(segments(o)[1])
        for d, off in enumerate(offsets):
            term = cl.get(next(dyn)) if off == _DYNAMIC else (ix.c(off) if off else None)
            idx[d] = ix.add(idx[d], term)
        v = o.operands[0]
    return idx
