"""The condition of IREE's guarded load: the masked branch wherever the plain one differs.

A guarded load (:mod:`~pipeline_mlir.frontend.guarded_load`) computes its run twice: a
``vector.maskedload`` in the then region, a plain ``vector.load`` and an ``arith.select``
by the same mask in the else region.  The two are the same run except where the plain load
crosses the end of its range-checked buffer inside a 4-byte word: the buffer's range check
works on whole words, so the word that holds the buffer's last elements and the first
ones past it reads zero, elements inside the buffer included.  IREE's condition
(upstream ``amdgpu-maskedload-to-load``) takes the masked branch exactly there::

    %l = affine.apply affine_map<()[s0, s1] -> (s0 * 1023 + s1)>()[%i, %j]
    %d = arith.subi %end, %l : index            // %end: the buffer's elements
    %near = arith.cmpi ult, %d, %n : index       // %n: the run's elements
    %r = arith.remui %d, %w : index              // %w: elements per 4-byte word
    %odd = arith.cmpi ne, %r, %c0 : index
    %cond = arith.andi %near, %odd : i1

The front end takes the two regions for one run (it keeps the plain load, or the masked
one), so :func:`condition_mismatch` wants the condition to hold wherever the plain load
would cut a word at the buffer's end: IREE's form above, read structurally (the distance
the buffer's static element count less the row-major index of the load's own indices,
a constant one among them may be folded into the map's constant term;
``%near`` ``ult`` a constant of at least the run's elements, ``%odd`` a remainder by a
multiple of the elements per word; each of the two alone, an ``arith.andi`` of such
conditions only or an ``arith.ori`` of one with anything being as wide), the constant
``true``, or any condition when an element fills a word or more (no word is cut) or
the buffer has no range check (not a fat buffer, or one cast with ``boundsCheck(false)``:
nothing is zeroed; whether it may be read past its end is
the other checks' concern).  Not read yet: the condition of a buffer whose shape is known
only at launch (IREE's dynamic-K kernel: its end a product of launch values), taken as
before, unchecked.  Anything else (a
compare made ``uge``, a distance off by a row) would let the plain load run where it
zeroes a word the masked load reads, and is refused at the ``scf.if``.

:func:`is_row_major_index` says whether a value is that row-major index of a load's own
indices (the indices themselves, not casts of them): where it is in every K tile left
straight, the K-loop rebuilt from them makes it of the loop's own indices
(:mod:`~pipeline_mlir.frontend.straight_copies`), so that its guard has the form above.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import constant_int, element_bytes, fold_affine, \
    memory_space, row_major_strides, through_casts
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.const_if import constant_bool
from pipeline_mlir.frontend.kernel_ir import bounds_checked, describe, owner, range_checked


def condition_mismatch(op, load) -> str | None:
    """Why the condition of guarded load ``op`` (an ``scf.if``; ``load`` its else region's
    ``vector.load``) may take the plain branch where it zeroes a word the masked load
    reads (module docstring); None when it may not."""
    buf = load.operands[0]
    t = ir.MemRefType(buf.type)
    if element_bytes(t) >= 4 or not t.has_static_shape or \
            memory_space(buf.type) != "fat_raw_buffer" or (
                owner(buf, "amdgpu.fat_raw_buffer_cast") is not None and not bounds_checked(buf)):
        return None
    cond = op.operands[0]
    if _covers(cond, load):
        return None
    return (f"its condition ({_what(cond)}) is not IREE's test of the buffer's end (the "
            f"masked branch where the run crosses the end of its "
            f"{int(np.prod(t.shape))} elements inside a "
            f"4-byte word: 'arith.cmpi ult' of the elements left and the run's "
            f"{ir.VectorType(load.results[0].type).shape[-1]}, and 'arith.cmpi ne' of their "
            f"remainder by {max(1, 4 // element_bytes(t))} and 0): where it takes the plain "
            f"'vector.load', a word the range check zeroes would hold elements the masked "
            f"load reads")


def _what(v) -> str:
    return "a block argument" if isinstance(v.owner, ir.Block) else f"the {describe(_op(v.owner))}"


def _covers(v, load) -> bool:
    """``v`` is true wherever ``load`` crosses its buffer's end inside a word: the constant
    ``true``, IREE's ``%near`` or ``%odd`` (module docstring), an ``arith.andi`` of such
    conditions only, or an ``arith.ori`` of at least one."""
    if constant_bool(v) is True or _is_near(v, load) or _is_odd(v, load):
        return True
    both, either = owner(v, "arith.andi"), owner(v, "arith.ori")
    if both is not None:
        return all(_covers(x, load) for x in both.operands)
    return either is not None and any(_covers(x, load) for x in either.operands)


def _is_near(v, load) -> bool:
    """``v`` is ``cmpi ult, D, n`` with ``D`` the elements left after ``load``'s index
    (:func:`_is_left`) and ``n`` a constant of at least the run's elements."""
    o = owner(v, "arith.cmpi")
    if o is None or _predicate(o) != "ult":
        return False
    n = constant_int(o.operands[1])
    run = ir.VectorType(load.results[0].type).shape[-1]
    return n is not None and n >= run and _is_left(o.operands[0], load)


def _is_odd(v, load) -> bool:
    """``v`` is ``cmpi ne, (remui D, w), 0`` (either order) with ``D`` the elements left
    (:func:`_is_left`) and ``w`` a positive multiple of the elements per 4-byte word."""
    o = owner(v, "arith.cmpi")
    if o is None or _predicate(o) != "ne":
        return False
    a, b = o.operands
    if constant_int(a) == 0:
        a, b = b, a
    rem = owner(a, "arith.remui")
    if constant_int(b) != 0 or rem is None:
        return False
    w = constant_int(rem.operands[1])
    per = 4 // element_bytes(ir.MemRefType(load.operands[0].type))
    return w is not None and w > 0 and w % per == 0 and _is_left(rem.operands[0], load)


def _predicate(cmp) -> str:
    names = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
    return names[ir.IntegerAttr(cmp.attributes["predicate"]).value]


def _is_left(v, load) -> bool:
    """``v`` is ``subi END, L``: END the element count of ``load``'s buffer (a
    range-checked fat buffer of static row-major shape) and ``L`` the row-major index of
    ``load``'s own indices (an ``affine.apply`` of them)."""
    sub = owner(v, "arith.subi")
    if sub is None:
        return False
    buf = load.operands[0]
    t = ir.MemRefType(buf.type)
    if owner(buf, "amdgpu.fat_raw_buffer_cast") is None or not range_checked(buf) or \
            not t.has_static_shape or t.get_strides_and_offset() != (
                row_major_strides(t.shape), 0):
        return False
    if constant_int(sub.operands[0]) != int(np.prod(t.shape)):
        return False
    return _row_major_index(sub.operands[1], list(load.operands[1:]), t.shape)


def is_row_major_index(v, load) -> bool:
    """``v`` is the row-major index of the indices of ``load`` (a ``vector.load`` or
    ``vector.maskedload`` of a memref of static row-major shape): an ``affine.apply`` of
    them as :func:`_row_major_index` reads it, so equal to it in every thread and run."""
    t = ir.MemRefType(load.operands[0].type)
    if not t.has_static_shape or \
            t.get_strides_and_offset() != (row_major_strides(t.shape), 0):
        return False
    indices = list(load.operands[1:1 + t.rank])
    apply = owner(v, "affine.apply")
    # (the indices themselves, not through casts: an index cast signed and one unsigned
    # of a negative i32 differ)
    return apply is not None and all(x in indices or constant_int(x) is not None
                                     for x in apply.operands) and \
        _row_major_index(v, indices, t.shape)


def _row_major_index(v, indices: list, shape) -> bool:
    """``v`` is an ``affine.apply`` whose map is ``sum(x_i * stride_i)`` of exactly
    ``indices`` (the strides of ``shape``, row-major); an index that is a constant may be
    folded into the map's constant term (IREE's batch of one: its index 0 left out)."""
    apply = owner(v, "affine.apply")
    if apply is None:
        return False
    m = ir.AffineMapAttr(apply.attributes["map"]).value
    if len(m.results) != 1:
        return False
    n = m.n_dims
    forms = [{k: 1} for k in range(len(apply.operands))]
    form = fold_affine(m.results[0], forms[:n], forms[n:], lambda c: {None: c}, _linear)
    if form is None:
        return False
    operands = [through_casts(x) for x in apply.operands]
    want: dict = {}
    for i, stride in zip(indices, row_major_strides(shape)):
        pos = next((k for k, x in enumerate(operands) if x == through_casts(i)), None)
        if pos is None and constant_int(i) is None:
            return False
        key, c = (None, constant_int(i) * stride) if pos is None else (pos, stride)
        want[key] = want.get(key, 0) + c
    got = {k: c for k, c in form.items() if c}
    return got == {k: c for k, c in want.items() if c}


def _linear(kind: str, a, b, _e):
    """A linear form (variable -> coefficient, None the constant) of an add or of a
    product by a constant; None for anything else."""
    if a is None or b is None:
        return None
    if kind == "add":
        out = dict(a)
        for k, c in b.items():
            out[k] = out.get(k, 0) + c
        return out
    if kind == "mul":
        for x, y in ((a, b), (b, a)):
            if set(y) <= {None}:
                c = y.get(None, 0)
                return {k: v * c for k, v in x.items()}
    return None
