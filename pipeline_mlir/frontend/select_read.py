"""An epilogue's masked read of a binding: ``arith.select`` of a load and a constant pad.

IREE's late form reads the edge tile of C of a ``C += A x B`` (and of any binding its
epilogue reads whole rows of) as a load of the row and a select of its in-bounds
elements, the others a constant pad::

    %m = vector.create_mask %cols_left : vector<64xi1>
    %mr = arith.select %row_in, %m, %all_false : vector<64xi1>
    %x = vector.load %c[%row, %col] : memref<520x300xf32, ...>, vector<64xf32>
    %y = arith.select %mr, %x, %zero : vector<64xi1>, vector<64xf32>

:func:`masked_read` takes such a select for a read of the binding the load reads when it
is exactly that: its true operand the load (``vector.load`` of a 1-D vector, or
``memref.load``) of a binding of static shape, its false operand a constant or
``ub.poison`` (the pad), and its mask, evaluated exactly for every thread of every
workgroup of the grid and every iteration of the constant loops around it
(:data:`~pipeline_mlir.frontend.guarded_read.MAX_POINTS` at most), true at element ``e``
exactly where the load's element ``e`` (the last index plus ``e``) lies inside the shape
of the memref it loads.  A wrong bound, a mask of another value, a negated one or one
the reader cannot evaluate is refused at the select, naming a thread, workgroup,
iteration and element where it differs.

The pad then only stands for elements outside the binding's rows, which the store of C
masks off as it masks C's own edge; where a pad would reach C, ``--emulate`` compares C
element by element and finds it.  The mask is read through the ops IREE builds it with:
``vector.create_mask`` (one dimension), ``arith.select`` on an ``i1`` or on a mask,
``arith.andi`` / ``ori`` of masks, ``vector.broadcast`` of an ``i1`` and splat constants;
any other op is refused at it.
"""

from __future__ import annotations

import itertools

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.frontend.guarded_read import constant_or_poison, grid_chunks, \
    loops_around
from pipeline_mlir.frontend.kernel_ir import describe

#: the loads a masked read's true operand may be
LOADS = ("vector.load", "memref.load")

_WHY = ("the epilogue reader reads an 'arith.select' only as a masked read of a binding "
        "(where the mask is true the loaded element, else a constant pad; the mask true "
        "exactly where the element lies inside the memref)")


def masked_read(f, op, is_binding):
    """The load of the masked read ``op`` (an ``arith.select`` of kernel ``f``) after the
    checks of the module docstring; ``is_binding(memref)``: whether a memref is a view of
    a binding.  Returns (the load, the pad value)."""
    load, pad = _shape(op, is_binding)
    t = ir.MemRefType(load.operands[0].type)
    if any(d < 0 for d in t.shape):
        raise IRError(load, f"{describe(load)}: a masked read of a memref of dynamic shape "
                            f"{load.operands[0].type}; its bounds are read from a static "
                            f"shape")
    loops = loops_around(op, "a masked read of a binding", _WHY)
    width = _width(op.results[0].type)
    for ev, chunk in grid_chunks(f, op, loops, "its mask", _WHY):
        for point in itertools.product(*[r for _, r in loops]):
            for (iv, _), i in zip(loops, point):
                ev.bind(iv, i)
            _check_point(ev, op, load, t.shape, width, point, chunk)
    return load, pad


def _width(t) -> int:
    """The elements a select of type ``t`` (a scalar or a 1-D vector) picks."""
    return t.shape[0] if isinstance(t, ir.VectorType) else 1


def _shape(op, is_binding):
    """(the load, the pad) of an ``arith.select`` shaped as a masked read, else an error."""
    cond, on, off = op.operands
    if isinstance(op.results[0].type, ir.VectorType) and op.results[0].type.rank != 1:
        raise IRError(op, f"{describe(op)}: selects a vector of more than one dimension: "
                          f"{_WHY}")
    owner = on.owner
    load = None if isinstance(owner, ir.Block) else as_operation(owner)
    if load is None or load.name not in LOADS or (
            load.name == "vector.load" and ir.VectorType(load.results[0].type).rank != 1):
        raise IRError(op, f"{describe(op)}: its true operand is not a load of one row "
                          f"({', '.join(LOADS)}): {_WHY}")
    if not is_binding(load.operands[0]):
        raise IRError(load, f"{describe(load)} in a masked read loads memory that is not a "
                            f"binding: {_WHY}")
    if not constant_or_poison(off):
        raise IRError(op, f"{describe(op)}: its false operand (the pad) is not a constant or "
                          f"poison: {_WHY}")
    return load, off


def _check_point(ev, op, load, shape, width: int, point, ids) -> None:
    """At ``point`` (an iteration of the loops around), the mask true exactly where each
    element the load reads lies inside ``shape``."""
    try:
        idx = [ev.value(x) for x in list(load.operands)[1:1 + len(shape)]]
        mask = _mask(ev, op.operands[0], width)
    except IRError as e:
        raise IRError(op, f"{describe(op)}: its mask or index could not be evaluated ({e})") \
            from None
    inside = np.ones((ev.threads, width), dtype=bool)
    for k, (i, d) in enumerate(zip(idx, shape)):
        at = i[:, None] + (np.arange(width)[None, :] if k == len(shape) - 1 else 0)
        inside &= (at >= 0) & (at < d)
    bad = np.argwhere(mask != inside)
    if len(bad):
        lane, e = (int(x) for x in bad[0])
        wg = [int(x) for x in ids[lane // ev.per_workgroup]]
        where = [int(i[lane]) for i in idx]
        where[-1] += e
        raise IRError(op, f"{describe(op)}: its mask is {str(bool(mask[lane, e])).lower()} at "
                          f"element {e}, whose index {where} is "
                          f"{'inside' if inside[lane, e] else 'outside'} "
                          f"{load.operands[0].type} (thread {lane % ev.per_workgroup}, "
                          f"workgroup {wg}, loop iteration {list(point)}): {_WHY}")


def _mask(ev, v, width: int) -> np.ndarray:
    """``v`` (an ``i1`` or a 1-D mask of ``width`` elements) per thread and element."""
    if not isinstance(v.type, ir.VectorType):
        return np.broadcast_to((ev.value(v) != 0)[:, None], (ev.threads, width))
    owner = v.owner
    if isinstance(owner, ir.Block):
        raise IRError(as_operation(owner.owner), "a mask that is a block argument")
    op = as_operation(owner)
    name = op.name
    if name == "vector.create_mask" and len(op.operands) == 1:
        bound = ev.value(op.operands[0])
        return np.arange(width)[None, :] < bound[:, None]
    if name == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
            value = bool(ir.IntegerAttr(attr.get_splat_value()).value)
            return np.full((ev.threads, width), value)
    if name == "arith.select":
        c, a, b = (_mask(ev, x, width) for x in op.operands)
        return np.where(c, a, b)
    if name in ("arith.andi", "arith.ori"):
        a, b = (_mask(ev, x, width) for x in op.operands)
        return a & b if name == "arith.andi" else a | b
    if name == "vector.broadcast" and not isinstance(op.operands[0].type, ir.VectorType):
        return _mask(ev, op.operands[0], width)
    raise IRError(op, f"{describe(op)}: a mask the epilogue reader does not evaluate (it "
                      f"reads vector.create_mask, arith.select, andi, ori, vector.broadcast "
                      f"of an i1 and splat constants)")
