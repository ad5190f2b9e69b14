"""The vector ops that move elements within a lane, run on what each element carries.

Two analyses follow single elements through the pure vector ops between a value and its
uses: which element of which transposing read each element of an MFMA operand is
(:mod:`~pipeline_mlir.frontend.transpose`: an element id each), and which accumulator
elements each element a kernel writes to global memory is computed from
(:mod:`~pipeline_mlir.frontend.unused_rows`: a bool per accumulator element each).
:func:`moved` is the one evaluation of those ops for both: each operand is a numpy array of
the operand's vector shape (none for a scalar) followed by ``tail`` dimensions of what each
element carries, and the result is the op's result shape followed by the same.  Each
caller chooses which of :data:`MOVES` it follows and refuses, in its own words, what it
does not.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir

#: the ops :func:`moved` evaluates
MOVES = ("vector.shape_cast", "vector.bitcast", "vector.transpose", "vector.broadcast",
         "vector.from_elements", "vector.extract", "vector.insert",
         "vector.extract_strided_slice", "vector.insert_strided_slice", "vector.shuffle")


def int_list(o, name: str) -> list[int]:
    """An integer-array attribute of ``o`` (a dense or a plain array attribute)."""
    a = o.attributes[name]
    try:
        return list(ir.DenseI64ArrayAttr(a))
    except (ValueError, TypeError):
        return [ir.IntegerAttr(x).value for x in ir.ArrayAttr(a)]


def vector_shape(t) -> list[int]:
    """The shape of the vector type ``t`` (a scalar's: none)."""
    return list(ir.VectorType(t).shape) if isinstance(t, ir.VectorType) else []


def moved(o, ins: list, tail: int, position: tuple | None = None) -> np.ndarray | None:
    """The result of ``o`` (one of :data:`MOVES`) run on ``ins``, the arrays of its operands
    that carry data (an extract's vector; an insert's value, then its destination; the
    others' in order), each the operand's shape followed by ``tail`` dimensions;
    ``position``: an extract's or insert's (its dynamic positions resolved by the caller).
    A ``vector.bitcast`` is taken element for element (the caller checks that it keeps the
    element count).  None for an op of another kind, or one it does not evaluate (a
    strided slice of a stride other than 1, a shuffle of other than two operands)."""
    name = o.name
    shape = vector_shape(o.results[0].type) if len(o.results) == 1 else []
    rest = list(ins[0].shape[ins[0].ndim - tail:]) if tail and ins else []
    if name in ("vector.shape_cast", "vector.bitcast"):
        return ins[0].reshape(shape + rest)
    if name == "vector.transpose":
        perm = int_list(o, "permutation")
        return np.transpose(ins[0], perm + list(range(len(perm), len(perm) + tail))).copy()
    if name == "vector.broadcast":
        return np.broadcast_to(ins[0], shape + rest).copy()
    if name == "vector.from_elements":
        return np.stack(ins).reshape(shape + rest)
    if name == "vector.extract" and position is not None:
        return ins[0][position].copy()
    if name == "vector.insert" and position is not None:
        out = ins[1].copy()
        out[position] = ins[0]
        return out
    if name in ("vector.extract_strided_slice", "vector.insert_strided_slice") and \
            all(s == 1 for s in int_list(o, "strides")):
        offs = int_list(o, "offsets")
        if name == "vector.extract_strided_slice":
            sizes = int_list(o, "sizes")
            return ins[0][tuple(slice(f, f + n) for f, n in zip(offs, sizes))].copy()
        out = ins[1].copy()
        src = ins[0]
        lead = len(offs) - (src.ndim - tail)
        out[tuple(offs[:lead]) + tuple(slice(f, f + n) for f, n in
                                       zip(offs[lead:], src.shape[:src.ndim - tail]))] = src
        return out
    if name == "vector.shuffle" and len(o.operands) == 2:
        return _shuffled(o, ins, tail)
    return None


def _shuffled(o, ins: list, tail: int) -> np.ndarray:
    """``vector.shuffle``: result row ``i`` is row ``mask[i]`` of the two operands joined
    along their leading dimension (a 0-D operand one row); a poison index (negative) a row
    of -1 (integers: for element ids, no read's) or False (bools: computed from nothing)."""
    rows = np.concatenate([x if vector_shape(v.type) else x[None]
                           for x, v in zip(ins, o.operands)])
    poison = np.zeros(rows.shape[1:], dtype=rows.dtype) if rows.dtype == bool else \
        np.full(rows.shape[1:], -1, dtype=rows.dtype)
    return np.stack([rows[i] if i >= 0 else poison for i in int_list(o, "mask")])
