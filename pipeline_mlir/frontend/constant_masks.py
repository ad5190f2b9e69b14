"""A load's constant mask read as the ``vector.create_mask`` of its sizes.

IREE's prefetch point masks a lane's run of a ``K x M`` A (``A^T x B``, ``A^T x B^T``)
by ``vector.create_mask %rows, %cols`` of ``1 x W`` elements: ``%rows`` whether the
thread's K row lies inside K, ``%cols`` the elements of the run left before C's M edge.
Where that count is a constant (M smaller than the run, one workgroup along M: fp8 E5M2
``A^T x B^T`` 7x20x1906, 7 of a run of 16), IREE's late form holds MLIR's 1-D lowering
of the mask: ``arith.select %row_inside, %m, %false`` with ``%m`` a
``vector.constant_mask [7]`` and ``%false`` the all-false constant, and ``%m`` alone
where the select was folded (the prologue of IREE's own pipelining, whose first K row
always lies inside, which the roll-back proves:
:mod:`~pipeline_mlir.frontend.reroll_tile0`); a batch's late form, its K row's select
lost, masks by the ``arith.constant`` of those bits (``dense<[true x 7, false x 9]>``).
The readers of the late form's masks (the runs C's edge cuts,
:mod:`~pipeline_mlir.frontend.cut_runs`; the row-masked loads,
:mod:`~pipeline_mlir.frontend.masked_rows_k_late`; the masked-tail peel,
:mod:`~pipeline_mlir.frontend.masks`) read a ``vector.create_mask`` of size values, the
first two also ``arith.select %c, (vector.create_mask %s), %false`` as the mask of size
``c ? s : 0``.

:func:`create_constant_masks` makes each such constant that masks a load directly in the
K-loop's body (a masked ``vector.transfer_read``, a ``vector.maskedload``, IREE's guarded
load, :mod:`~pipeline_mlir.frontend.guarded_load`), itself or as the true side of an
``arith.select`` of an ``i1`` against the all-false constant, the ``vector.create_mask``
of ``arith.constant`` sizes: ``vector.constant_mask [n, ..]`` of ``n, ..``, a 1-D ``i1``
constant true in lanes ``0 .. n - 1`` only, ``0 < n < W``, of ``n``.  Each is the same
bits in every lane (a constant mask's sizes lie within its vector's dimensions, where
``vector.create_mask`` keeps them as given), so every use in the loop (the ones replaced;
the constant stays for uses outside it) sees the same value.
Nothing else is rewritten: an all-true or all-false constant (the second is the select's
padding), a select whose condition is a vector, whose false side is not all false (a
select of two masks) or whose true side is no such mask is left as written, for the
masked-tail peel to refuse at the load (a mask that is not a ``vector.create_mask``;
:func:`select_note` says which part of the select breaks the form).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import splat_mask, encloses, segments
from pipeline_mlir.frontend.dynamic_masks import source_text
from pipeline_mlir.frontend.guarded_load import guard_parts
from pipeline_mlir.frontend.kernel_ir import at, owner


def create_constant_masks(loop) -> int:
    """Make every constant mask of a load of ``loop``'s body (a ``vector.constant_mask``,
    a prefix constant), alone or as the true side of a select against all-false, the
    ``vector.create_mask`` of its sizes inside ``loop`` (module docstring); the number of
    constants so read."""
    found = []
    for o in map(_op, loop.regions[0].blocks[0].operations):
        m = _mask(o)
        fixed = None if m is None else _constant_prefix(_selected(m))
        if fixed is not None and all(fixed != f for f in found):
            found.append(fixed)
    for fixed in found:
        _as_created(fixed, loop)
    return len(found)


def _mask(o):
    """The mask of load ``o`` (a masked ``vector.transfer_read``, a ``vector.maskedload``
    or a guarded load), or None."""
    if o.name == "vector.transfer_read":
        g = segments(o)
        return g[3][0] if len(g) > 3 and g[3] else None
    if o.name == "vector.maskedload":
        return o.operands[len(o.operands) - 2]
    if o.name == "scf.if":
        parts = guard_parts(o)
        return None if parts is None else parts[0]
    return None


def _selected(m):
    """``m``'s true side when ``m`` is ``arith.select %c, %x, %false`` (an ``i1``
    condition, the all-false constant of ``m``'s type), else ``m``."""
    sel = owner(m, "arith.select")
    if sel is None or isinstance(sel.operands[0].type, ir.VectorType):
        return m
    if splat_mask(sel.operands[2]) is not False:
        return m
    return sel.operands[1]


def select_note(m) -> str:
    """Why mask ``m``, an ``arith.select`` of masks, is not one the front end reads as a
    ``vector.create_mask`` (module docstring), as a note to a refusal at its load; empty
    for a mask of another op."""
    sel = owner(m, "arith.select")
    if sel is None:
        return ""
    c, x, none = sel.operands
    made = owner(x, "vector.create_mask") or _constant_prefix(x)
    if isinstance(c.type, ir.VectorType):
        why = "its condition is a vector, not one i1 for the lane's run"
    elif _selected(m) is m:
        why = "its false side is not the all-false constant"
    elif made is None:
        why = f"its true side is none of those masks (made by {source_text(x)})"
    else:
        why = ("it is of that form, which the front end takes on a run C's edge cuts "
               "(frontend/cut_runs.py) or a row-masked run of a 2-D buffer "
               "(frontend/masked_rows_k_late.py), not this one")
    return (f"; it is the 'arith.select' at {at(sel)}, which the front end reads as a mask "
            f"only as 'arith.select %c, %m, %false' of an i1 %c, the all-false %false and "
            f"a vector.create_mask %m (or a vector.constant_mask, or a constant whose lanes "
            f"are true up to one and false after it: the create_mask of its sizes), the "
            f"mask of size c ? size : 0: {why}")


def _constant_prefix(m):
    """The op defining mask ``m`` when it is a ``vector.constant_mask`` or a 1-D
    ``arith.constant`` of ``i1`` whose lanes are true up to some lane and false after it
    (the same bits as ``vector.constant_mask [n]``), else None."""
    fixed = owner(m, "vector.constant_mask")
    if fixed is not None:
        return fixed
    c = owner(m, "arith.constant")
    if c is None or _prefix(c) is None:
        return None
    return c


def prefix_lanes(m) -> int | None:
    """The lanes ``n`` of mask ``m`` when it is a 1-D ``arith.constant`` of ``i1`` true in
    lanes ``0 .. n - 1`` only, ``0 < n <`` its lanes (the bits of ``vector.constant_mask
    [n]``, as IREE folds one), else None."""
    c = owner(m, "arith.constant")
    return None if c is None else _prefix(c)


def _prefix(c):
    """The lanes ``n`` of 1-D ``i1`` constant op ``c`` that are true, when they are lanes
    ``0 .. n - 1`` and ``0 < n <`` its lanes (a splat, all true or all false, is left as
    written: the all-false one is what a select of a mask pads with); else None."""
    t = c.results[0].type
    if not isinstance(t, ir.VectorType) or t.rank != 1 or \
            t.element_type != ir.IntegerType.get_signless(1):
        return None
    if not isinstance(c.attributes["value"], ir.DenseElementsAttr):
        return None
    attr = ir.DenseIntElementsAttr(c.attributes["value"])
    bits = [bool(attr[i]) for i in range(len(attr))]
    n = sum(bits)
    return n if 0 < n < len(bits) and bits == [True] * n + [False] * (len(bits) - n) \
        else None


def _sizes(fixed) -> list:
    if fixed.name == "vector.constant_mask":
        return list(ir.DenseI64ArrayAttr(fixed.attributes["mask_dim_sizes"]))
    return [_prefix(fixed)]


def _as_created(fixed, loop) -> None:
    """Constant mask op ``fixed``, where ``loop``'s ops use it, replaced by the
    ``vector.create_mask`` of its sizes (``arith.constant`` index values) made at its
    place; the op erased when nothing else uses it (the kernel's other readers of a
    constant, its epilogue's, see it as it was)."""
    t = ir.IndexType.get()
    sizes = _sizes(fixed)
    with ir.InsertionPoint(fixed), fixed.location:
        vals = [ir.Operation.create("arith.constant", results=[t], attributes={
            "value": ir.IntegerAttr.get(t, n)}).results[0] for n in sizes]
        made = ir.Operation.create("vector.create_mask", results=[fixed.results[0].type],
                                   operands=vals)
    for use in list(fixed.results[0].uses):
        if encloses(loop, use.owner):
            _op(use.owner).operands[use.operand_number] = made.results[0]
    if not list(fixed.results[0].uses):
        fixed.erase()
