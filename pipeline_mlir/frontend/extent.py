"""The global buffer a copy reads: the memref the front end's own copies index, and how far
the buffer goes.

IREE binds a buffer with its shape (``hal.interface.binding.subspan`` to a static
``memref<4096x4096xbf16>``), so the buffer's type says how many elements it has.  IREE's
Wave DSL binds a bare pointer (``stream.binding.subspan`` to a rank-0 ``memref<f16>``) and
states the size on the views it builds over it: ``memref.reinterpret_cast %0 to offset: [0],
sizes: [1073741822], strides: [1]``, a ``memref.cast`` to ``memref<?xf16>`` and an
``amdgpu.fat_raw_buffer_cast ... validBytes(%c)`` whose descriptor the copies read through.

* :func:`source_base` is the memref the front end's copies index
  (:mod:`pipeline_mlir.frontend.layout`): the copy's source followed through views to a
  contiguous, row-major buffer at offset 0, of static shape (IREE) or of a dynamic first
  dimension: Wave's 1-D fat buffer, whose elements are indexed directly, or IREE's
  ``memref<?x4096xbf16>`` of rows known at launch (its strides are static).  A dynamic
  dimension further in (``memref<?x?xbf16>``, a row stride known only at launch) is not
  such a base: :mod:`~pipeline_mlir.frontend.launch_stride` takes it when proven safe.
* :func:`declared_extent` is how many elements (from the root's element 0) the buffer has:
  a root of static shape says so itself (IREE; nothing else is consulted, so IREE's kernels
  are checked as before); under a root that states no size (rank 0, or a dynamic shape) the
  views do, and the smallest end any of them declares is taken: a view of static shape
  ends at its offset plus its last element, a dynamic size given by a constant operand
  counts as static, and a fat buffer's constant ``validBytes`` ends at the last whole
  element inside it.  None when nothing states a size (no bound is claimed).

The front end's in-buffer check (:func:`pipeline_mlir.frontend.edges.check_in_global`)
bounds the copies' reads by :func:`declared_extent`.  Where the front end distributes the
copies itself, its check that the copies of every workgroup move as one block
(:func:`pipeline_mlir.frontend.edges.check_copy_reads`) may accept an element past the end
only because a buffer read past its records returns zero; it takes the static buffer's
end for that (:func:`static_end`, in the root's elements, as the reads are) and, for a
buffer of dynamic shape, no end at all (no element is excused).
"""

from __future__ import annotations

import math

import numpy as np

from pipeline_mlir.analysis.ir_facts import DYNAMIC, dense_i64, dense_row_major, element_bytes, segments
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: view ops a global source is followed through to the buffer the new copies index
SOURCE_VIEWS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape",
                "memref.cast", "memref.reinterpret_cast", "memref.assume_alignment")


def source_base(src):
    """The buffer a copy's global source view is a view of (followed through
    :data:`SOURCE_VIEWS`), if it is contiguous, row-major and at offset 0, of a static
    shape but for its first dimension, which may be dynamic (else None)."""
    v = view_root(src, SOURCE_VIEWS)
    return v if dense_row_major(v.type) else None


def static_end(ev, base) -> int | None:
    """One past the last element of ``base`` (a :func:`source_base`) in elements of the
    root ``ev``'s views index (as the copies' reads are: a fat buffer cast of a view at an
    offset into a bigger binding ends that offset past its own shape), if its shape is
    static and its start one root element in every thread; else None."""
    t = ir.MemRefType(base.type)
    if not t.has_static_shape:
        return None
    start = ev.view(base).offset
    return int(start[0]) + math.prod(t.shape) if np.all(start == start[0]) else None


def declared_extent(ev, src) -> int | None:
    """How many elements, from its root's element 0, the global buffer under view ``src``
    has (module docstring); ``ev`` is the Evaluator whose views these are."""
    view = ev.view(src)
    rt = ir.MemRefType(view.root.type)
    if rt.has_static_shape and rt.rank:
        return math.prod(rt.shape)     # (a list of ints: numpy's costs more)
    ends = []
    for op in view.chain:
        out = op.results[0]
        start = _uniform_offset(ev.view(out).offset)
        if start is None:
            continue
        end = _view_end(op, ir.MemRefType(out.type), ev.view(out).strides)
        if end is not None:
            ends.append(start + end)
        if op.name == "amdgpu.fat_raw_buffer_cast":
            valid = _valid_bytes(op)
            if valid is not None:
                ends.append(start + valid // element_bytes(ir.MemRefType(out.type)))
    return min(ends) if ends else None


def _uniform_offset(offset: np.ndarray) -> int | None:
    return int(offset[0]) if np.all(offset == offset[0]) else None


def _view_end(op, t, strides: list) -> int | None:
    """One past the last element of the view ``op`` makes (of type ``t``), from its first,
    if its sizes are known at compile time."""
    shape = list(t.shape)
    if op.name == "memref.reinterpret_cast" and any(d == DYNAMIC for d in shape):
        dyn = iter(segments(op)[2])
        shape = [_constant(next(dyn)) if d == DYNAMIC else d
                 for d in dense_i64(op, "static_sizes")]
    if t.rank == 0 or any(d is None or d == DYNAMIC for d in shape) or min(strides) < 0:
        return None
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides))


def _valid_bytes(op) -> int | None:
    """A fat buffer cast's ``validBytes``, if it is a constant."""
    if "operandSegmentSizes" not in op.attributes:
        return None
    group = segments(op)[1]
    return _constant(group[0]) if group else None


def _constant(v) -> int | None:
    """The value of an integer or index ``arith.constant`` (else None)."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    if o.name != "arith.constant" or not isinstance(o.attributes["value"], ir.IntegerAttr):
        return None
    return ir.IntegerAttr(o.attributes["value"]).value
