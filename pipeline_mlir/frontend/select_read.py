"""An epilogue's masked read of a binding: ``arith.select`` of a load and a constant pad.

IREE's late form reads the edge tile of C of a ``C += A x B`` (and of any binding its
epilogue reads whole rows of) as a load of the row and a select of its in-bounds
elements, the others a constant pad::

    %m = vector.create_mask %cols_left : vector<64xi1>
    %mr = arith.select %row_in, %m, %all_false : vector<64xi1>
    %x = vector.load %c[%row, %col] : memref<520x300xf32, ...>, vector<64xf32>
    %y = arith.select %mr, %x, %zero : vector<64xi1>, vector<64xf32>

:func:`masked_read` takes such a select for a read of the binding the load reads when it
is exactly that: its true operand the load (``vector.load`` of a 1-D vector,
``memref.load``, or an unmasked ``vector.transfer_read`` in bounds and not permuted, of
any rank: the prefetch point's read of C's edge tile of a ``C += A x B`` selected whole
by whether its column is inside C, ``vector<4x1xi32>``) of a view of a binding of static
shape, its false operand a constant or
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
``vector.create_mask`` (one dimension), ``vector.constant_mask`` (its sizes the same in
every thread: a C whose edge cuts its one tile), ``arith.select`` on an ``i1`` or on a
mask, ``arith.andi`` / ``ori`` of masks, ``vector.broadcast`` of an ``i1`` and splat
constants; any other op is refused at it.  A mask of more than one dimension is read as a product of
one set per dimension (``create_mask`` of one bound each, ``andi``, a ``select`` on an
``i1``); two such are equal when both are empty or each dimension's sets are.

The prefetch point reads those inputs with a masked ``vector.transfer_read``, whose masked
elements are its pad: :func:`check_transfer_masks` holds its mask to the same rule, over
the grid, for every such read of C or an epilogue input (``dispatch.py``), the element's
index in each dimension of the binding read through the subview it reads (whose strides
must be the binding's): the subviews' offsets added dimension by dimension
(:func:`~pipeline_mlir.analysis.views.root_indices`), so an element past C's last column
(IREE clamps the column of a thread past the edge tile to N) is outside C along N, not the
next row's first element (read off the flat offset only through other views); a mask that
drops an element inside C in one workgroup only is refused at the read, not reported
exact on the workgroups the emulator runs.
"""

from __future__ import annotations

import itertools

import numpy as np

from pipeline_mlir.analysis.ir_facts import transfer
from pipeline_mlir.analysis.output_tiles import KernelFacts
from pipeline_mlir.analysis.views import root_indices, view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.frontend.guarded_read import constant_or_poison, grid_chunks, \
    lane_place, loops_around
from pipeline_mlir.frontend.kernel_ir import describe

#: the loads a masked read's true operand may be
LOADS = ("vector.load", "memref.load", "vector.transfer_read")

_WHY = ("the epilogue reader reads an 'arith.select' only as a masked read of a binding "
        "(where the mask is true the loaded element, else a constant pad; the mask true "
        "exactly where the element lies inside the memref)")


def masked_read(f, op, is_binding, facts: KernelFacts | None = None):
    """The load of the masked read ``op`` (an ``arith.select`` of kernel ``f``) after the
    checks of the module docstring; ``is_binding(memref)``: whether a memref is a view of
    a binding; ``facts``: ``f``'s grid and launch ops if found already.  Returns (the
    load, the pad value)."""
    load, pad = _shape(op, is_binding)
    root = view_root(load.operands[0])
    if any(d < 0 for d in ir.MemRefType(root.type).shape):
        raise IRError(load, f"{describe(load)}: a masked read of a memref of dynamic shape "
                            f"{root.type}; its bounds are read from a static shape")
    _check_grid(f, op, op.operands[0], load, _elements(op.results[0].type), _WHY, facts)
    return load, pad


def check_transfer_masks(f, reads: list, facts: KernelFacts | None = None) -> None:
    """Refuse (at it) a ``vector.transfer_read`` of ``reads`` (an epilogue input's: the
    prefetch point's masked read of a per-row scale, of C's edge tile) whose mask is not,
    at every thread of every workgroup and iteration of the loops around it, true exactly
    where the element lies inside the binding: a mask that drops an element inside in a
    workgroup ``--emulate`` does not run gives the pad there.  The read must be in bounds
    (``in_bounds`` true: its view's bounds would mask too) and not permuted; ``facts``:
    ``f``'s grid and launch ops if found already."""
    for op in reads:
        if op.name != "vector.transfer_read":
            continue
        access = transfer(op)
        if not access.masked:
            continue
        vt = ir.VectorType(op.results[0].type)
        if not access.in_view:
            raise IRError(op, f"{describe(op)}: a masked read of an epilogue input that is "
                              f"permuted or not in bounds; {_WHY_READ}")
        _check_grid(f, op, op.operands[-1], op, tuple(vt.shape), _WHY_READ, facts)


_WHY_READ = ("the epilogue reader reads a masked read of a binding only where its mask is "
             "true exactly where the element lies inside the binding (proven over the grid)")


def _check_grid(f, op, mask, load, vshape: tuple, why: str,
                facts: KernelFacts | None) -> None:
    """Refuse (at ``op``, saying ``why``) ``mask`` (of ``vshape``) not true exactly where
    the element of ``load``'s vector lies inside its binding, at some thread, workgroup or
    iteration of the loops around ``op``."""
    loops = loops_around(op, "a masked read of a binding", why)
    for ev, chunk in grid_chunks(f, op, loops, "its mask", why, facts):
        for point in itertools.product(*[r for _, r in loops]):
            for (iv, _), i in zip(loops, point):
                ev.bind(iv, i)
            _check_point(ev, op, mask, load, vshape, point, chunk, why)


def _elements(t) -> tuple:
    """The shape of the elements a select of type ``t`` (a scalar or a vector) picks."""
    return tuple(t.shape) if isinstance(t, ir.VectorType) else (1,)


def _shape(op, is_binding):
    """(the load, the pad) of an ``arith.select`` shaped as a masked read, else an error."""
    cond, on, off = op.operands
    owner = on.owner
    load = None if isinstance(owner, ir.Block) else as_operation(owner)
    if load is None or load.name not in LOADS or (
            load.name == "vector.load" and ir.VectorType(load.results[0].type).rank != 1):
        raise IRError(op, f"{describe(op)}: its true operand is not a load (a "
                          f"'vector.load' of one row, 'memref.load' or "
                          f"'vector.transfer_read'): {_WHY}")
    if load.name == "vector.transfer_read" and (
            ir.VectorType(load.results[0].type).rank >
            ir.MemRefType(load.operands[0].type).rank or not transfer(load).plain):
        raise IRError(load, f"{describe(load)} in a masked read is masked, permuted or "
                                f"not in bounds: {_WHY}")
    if not is_binding(load.operands[0]):
        raise IRError(load, f"{describe(load)} in a masked read loads memory that is not a "
                            f"binding: {_WHY}")
    if not constant_or_poison(off):
        raise IRError(op, f"{describe(op)}: its false operand (the pad) is not a constant or "
                          f"poison: {_WHY}")
    return load, off


def _check_point(ev, op, mask_value, load, vshape: tuple, point, ids, why: str) -> None:
    """At ``point`` (an iteration of the loops around), ``mask_value`` true exactly where
    each element ``load`` reads lies inside its binding, per thread.  Masks and bounds are
    products of one set per dimension of the vector (:func:`_mask`): two such are equal
    when both are empty or each dimension's sets are."""
    ref = load.operands[0]
    rank = ir.MemRefType(ref.type).rank
    try:
        idx = [ev.value(x) for x in list(load.operands)[1:1 + rank]]
        mask = _mask(ev, mask_value, vshape)
        at, shape = _coords(ev, ref, idx)
    except IRError as e:
        raise IRError(op, f"{describe(op)}: its mask or index could not be evaluated ({e})") \
            from None
    first = rank - len(vshape)
    rest = np.ones(ev.threads, dtype=bool)
    for d in range(first):
        rest &= (at[d] >= 0) & (at[d] < shape[d])
    inside = [(at[first + j][:, None] + np.arange(n)[None, :] >= 0) &
              (at[first + j][:, None] + np.arange(n)[None, :] < shape[first + j])
              for j, n in enumerate(vshape)]
    inside[0] = inside[0] & rest[:, None]
    none_in = np.any([~x.any(axis=1) for x in inside], axis=0)
    none_m = np.any([~x.any(axis=1) for x in mask], axis=0)
    bad = (none_in != none_m) | (~none_in & ~none_m &
                                 np.any([(a != b).any(axis=1) for a, b in zip(mask, inside)],
                                        axis=0))
    if bad.any():
        lane = int(np.flatnonzero(bad)[0])
        m, i = (_dense(x, lane) for x in (mask, inside))
        e = int(np.flatnonzero(m != i)[0])
        pos = [int(x) for x in np.unravel_index(e, vshape)]
        where = [int(a[lane]) for a in at]
        for j, p in enumerate(pos):
            where[first + j] += p
        raise IRError(op, f"{describe(op)}: its mask is {str(bool(m[e])).lower()} at element "
                          f"{e if len(vshape) == 1 else pos}, whose index {where} is "
                          f"{'inside' if i[e] else 'outside'} {ev.view(ref).root.type} "
                          f"({lane_place(ev, ids, lane, point)}): {why}")


def _dense(sets: list, lane: int) -> np.ndarray:
    """The flat elements of the product of one lane's per-dimension ``sets``."""
    out = np.ones(1, dtype=bool)
    for x in sets:
        out = (out[:, None] & x[lane][None, :]).reshape(-1)
    return out


def _coords(ev, ref, idx: list) -> tuple[list, list]:
    """(per dimension of the binding memref ``ref`` is a view of, each thread's index of
    the element at ``idx`` of ``ref``; the binding's static shape): the view must keep the
    binding's dimensions (its strides the binding's).  Through views that keep the
    binding's indices and subviews of unit strides (:func:`~pipeline_mlir.analysis.views.
    root_indices`) the index is the subviews' offsets plus ``idx``, dimension by dimension:
    a thread whose column lies past the binding's last column is outside it there, not on
    the next row.  Otherwise it is read off the view's offset, row-major; one starting past
    the binding's end (a thread's empty edge row) is past it in every dimension."""
    view = ev.view(ref)
    shape = list(ir.MemRefType(view.root.type).shape)
    strides = [int(np.prod(shape[k + 1:])) for k in range(len(shape))]
    past = view.offset >= int(np.prod(shape))
    if any(d < 0 for d in shape) or list(view.strides) != strides or (view.offset < 0).any():
        raise IRError(None, f"a view of {view.root.type} that does not keep its dimensions "
                            f"(strides {list(view.strides)}) or starts before it")
    at = root_indices(ev, ref, idx)
    if at is not None:
        if (sum(a * s for a, s in zip(at, strides)) != view.element(idx)).any():
            raise IRError(None, f"a view of {view.root.type} whose indices per dimension "
                                f"do not give its element")
        return [np.broadcast_to(a, view.offset.shape) for a in at], shape
    if (past & np.any([np.asarray(i) < 0 for i in idx], axis=0)).any():
        raise IRError(None, f"a view of {view.root.type} that does not keep its dimensions "
                            f"(strides {list(view.strides)}) or starts before it")
    base = np.unravel_index(np.where(past, 0, view.offset), shape)
    return [np.where(past, d, b) + i for b, d, i in zip(base, shape, idx)], shape


def _mask(ev, v, vshape: tuple) -> list:
    """``v`` (an ``i1`` or a mask of ``vshape``) per thread, as one bool array (threads x
    elements) per dimension whose product it is; an ``i1`` is folded into the first."""
    ones = [np.ones((ev.threads, n), dtype=bool) for n in vshape]
    if not isinstance(v.type, ir.VectorType):
        return [np.broadcast_to((ev.value(v) != 0)[:, None], ones[0].shape)] + ones[1:]
    owner = v.owner
    if isinstance(owner, ir.Block):
        raise IRError(as_operation(owner.owner), "a mask that is a block argument")
    op = as_operation(owner)
    name = op.name
    if name == "vector.create_mask" and len(op.operands) == len(vshape):
        return [np.arange(n)[None, :] < ev.value(b)[:, None]
                for n, b in zip(vshape, op.operands)]
    if name == "vector.constant_mask":      # the late form's mask of C's edge tile
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["mask_dim_sizes"]))
        if len(sizes) == len(vshape):
            return [np.broadcast_to(np.arange(n)[None, :] < s, (ev.threads, n))
                    for n, s in zip(vshape, sizes)]
    if name == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
            value = bool(ir.IntegerAttr(attr.get_splat_value()).value)
            return [ones[0] & value] + ones[1:]
        if isinstance(attr, ir.DenseElementsAttr) and len(vshape) == 1:
            # (the late form's mask of a row cut by C's edge, IREE's constant_mask folded)
            bits = np.array([x != 0 for x in map(int, ir.DenseIntElementsAttr(attr))])
            return [np.broadcast_to(bits[None, :], ones[0].shape)]
    if name == "arith.select" and (len(vshape) == 1 or
                                   not isinstance(op.operands[0].type, ir.VectorType)):
        (c, *_), a, b = (_mask(ev, x, vshape) for x in op.operands)
        if isinstance(op.operands[0].type, ir.VectorType):     # one dimension: element-wise
            return [np.where(c, a[0], b[0])]
        return [np.where(c[:, :1], x, y) for x, y in zip(a, b)]
    if name == "arith.andi" or name == "arith.ori" and len(vshape) == 1:
        a, b = (_mask(ev, x, vshape) for x in op.operands)
        return [x & y for x, y in zip(a, b)] if name == "arith.andi" else [a[0] | b[0]]
    if name == "vector.broadcast" and not isinstance(op.operands[0].type, ir.VectorType):
        return _mask(ev, op.operands[0], vshape)
    raise IRError(op, f"{describe(op)}: a mask the epilogue reader does not evaluate (it "
                      f"reads vector.create_mask, vector.constant_mask, arith.select, andi, ori, "
                      f"vector.broadcast of an i1, splat constants and constants of one "
                      f"dimension; of more than one dimension, products "
                      f"of one set per dimension: no ori, no select by a mask)")
