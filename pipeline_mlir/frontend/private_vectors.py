"""The private memory an epilogue stages C's accumulators through, as the unused-rows proof
follows it (:mod:`~pipeline_mlir.frontend.unused_rows`).

A ``memref.alloca`` is accessed element by element (``memref.store`` / ``memref.load``) or
a vector at a time (``vector.transfer_write`` / ``vector.transfer_read``: IREE's prefetch
point stores the accumulators of a tile whole, then reads them back a slice per iteration
of a loop, through a ``memref.subview`` at the loop's variable), directly or through
subviews.  :func:`positions` gives the alloca's elements an access touches, one per element
of its value (the vector's shape, a scalar's none), its indices and the subviews' offsets
computed by the caller's ``int_of`` (constants and loop variables only).  A vector access
must be unmasked, in bounds and of a minor-identity permutation, and every position inside
the alloca; any other use of the alloca, or of a view of it, is :class:`Unproven`, and the
proof then proves nothing.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import DYNAMIC, segments, transfer
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: the accesses of private memory, and the operand that is the memref
ACCESSES = {"memref.load": 0, "memref.store": 1, "vector.transfer_read": 0,
            "vector.transfer_write": 1}
#: the accesses that write
STORES = ("memref.store", "vector.transfer_write")


class Unproven(Exception):
    """What the proof cannot follow (it then proves nothing)."""


def root_of(memref):
    """The ``memref.alloca`` under ``memref`` (through ``memref.subview``s)."""
    while not isinstance(memref.owner, ir.Block) and _op(memref.owner).name == "memref.subview":
        memref = _op(memref.owner).operands[0]
    if isinstance(memref.owner, ir.Block) or _op(memref.owner).name != "memref.alloca":
        raise Unproven("an access of memory the proof does not follow")
    return memref


def accesses(root) -> list:
    """Every access of the alloca ``root``, directly or through subviews (module
    docstring); any other use is :class:`Unproven`."""
    out, work = [], [root]
    while work:
        x = work.pop()
        for u in x.uses:
            o = _op(u.owner)
            if o.name == "memref.subview" and u.operand_number == 0:
                work.append(o.results[0])
            elif ACCESSES.get(o.name) == u.operand_number:
                out.append(o)
            elif o.name != "memref.dealloc":
                raise Unproven(f"private memory used by '{o.name}'")
    return out


def positions(op, int_of) -> np.ndarray:
    """The flat elements of its alloca access ``op`` touches, shaped as its value (a
    scalar's: no dimension); ``int_of``: a value's integer (constants, loop variables)."""
    at = ACCESSES[op.name]
    mem = op.operands[at]
    base, strides = _placed(mem, int_of)
    if op.name.startswith("memref."):
        idx = list(op.operands)[at + 1:]
        vshape: list = []
    else:
        idx = segments(op)[at + 1]
        facts = transfer(op)
        if facts.masked:
            raise Unproven(f"a masked '{op.name}' op of private memory")
        if not all(facts.in_bounds):
            raise Unproven(f"a '{op.name}' op of private memory not in bounds")
        if not facts.minor_identity:
            raise Unproven(f"a permuted '{op.name}' op of private memory")
        vec = op.operands[0] if op.name in STORES else op.results[0]
        vshape = list(ir.VectorType(vec.type).shape)
    flat = base + sum(int_of(x) * s for x, s in zip(idx, strides))
    pos = np.indices(vshape, dtype=np.int64) if vshape else np.zeros((0,), dtype=np.int64)
    first = len(strides) - len(vshape)
    out = np.full(vshape, flat, dtype=np.int64)
    for j in range(len(vshape)):
        out = out + pos[j] * strides[first + j]
    size = int(np.prod(ir.MemRefType(root_of(mem).type).shape))
    if out.size and (out.min() < 0 or out.max() >= size):
        raise Unproven(f"a '{op.name}' op outside its private memory")
    return out


def _placed(mem, int_of) -> tuple[int, list]:
    """(the element offset of view ``mem`` in its alloca, its strides)."""
    t = ir.MemRefType(mem.type)
    strides, _ = t.get_strides_and_offset()
    if any(s == DYNAMIC for s in strides):
        raise Unproven("a view of private memory of dynamic strides")
    if isinstance(mem.owner, ir.Block) or _op(mem.owner).name != "memref.subview":
        return 0, list(strides)
    o = _op(mem.owner)
    src_base, src_strides = _placed(o.operands[0], int_of)
    dyn = iter(segments(o)[1])
    offsets = [int_of(next(dyn)) if v == DYNAMIC else v
               for v in ir.DenseI64ArrayAttr(o.attributes["static_offsets"])]
    return src_base + sum(f * s for f, s in zip(offsets, src_strides)), list(strides)
