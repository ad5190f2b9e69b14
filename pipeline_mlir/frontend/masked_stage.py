"""LDS tiles staged in private memory through a mask of the K left: read from LDS, masked.

IREE's dynamic-K kernel runs its own loop after the pipelined one (the remainder: the
masked last K tile, and every tile when the guard finds no pair), and that loop copies
each whole LDS tile ``B`` into a private buffer ``P`` through a mask of the K left before
reading its MFMA fragments from ``P``: at the prefetch point one
``vector.transfer_read %B[0, 0], %pad, (vector.create_mask %rows, %k)`` written whole to
``P``; in the late form one ``vector.maskedload %B[r, 0], (vector.create_mask %k),
%zeros`` per row, each stored to row ``r`` of ``P``.  Either way, for every index ``i`` of
``P``, ``P[i] = i_last < k ? B[i] : pad`` (a *box* mask on the last dimension; the other
dimensions' sizes are constants at least the tile's).  That private copy is what puts the
whole kernel in scratch memory (16 KiB per lane for IREE's 128x32 bf16 tiles) and at
256 VGPRs.

:mod:`~pipeline_mlir.frontend.private_stage` reads each fragment from ``B`` instead (at
the same indices, through the same views), and this module keeps the mask: each forwarded
read becomes ``arith.select (vector.create_mask (k - c)), read, pad`` where ``c`` is the
read's index along ``P``'s last dimension (the indices of the view dimensions that make it
up, times their strides), broadcast along the read's other dimensions.  ``B`` is the
whole static buffer (the masked view's root), so reading its columns at or past ``k``
reads LDS that the select then drops.

What it takes (:func:`staging_mask`, :func:`read_plan`; anything else leaves the tile
staged as written, which IREE's lowering compiles, in scratch):

* the mask is a ``vector.create_mask`` whose sizes other than the last are constants at
  least the tile's (or, row by row, one ``vector.create_mask`` of the last dimension
  shared by every row's ``vector.maskedload``, each a whole row at column 0 with the same
  splat-constant pass-through);
* each read of ``P`` is a ``vector.load`` or an unmasked ``vector.transfer_read`` of a
  minor-identity map, of ``P`` or of a chain of ``memref.expand_shape``s of static sizes
  along ``P``'s last dimension, and the read moves one element along each view dimension
  of that dimension but the last (so its elements along the vector's last dimension are
  consecutive columns of ``P``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.analysis.ir_facts import constant_int, segments, transfer
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.kernel_ir import owner

__all__ = ["Mask", "staging_mask", "read_plan", "mask_read"]


@dataclass(frozen=True)
class Mask:
    """``P[i] = i_last < bound ? B[i] : pad``: ``bound`` an index value, ``pad`` the
    scalar padding value or (a splat pass-through) its element attribute."""
    bound: object
    pad: object


def staging_mask(reads: list, shape: list):
    """The :class:`Mask` through which ``reads`` (the reads of ``B`` each staging write of
    ``P`` stores, ``P`` of ``shape``) stage the tile; None when they read it unmasked;
    False when they mask it in a form this module does not take."""
    if all(r.name == "vector.load" for r in reads):
        return None
    if len(reads) == 1 and reads[0].name == "vector.transfer_read":
        g = segments(reads[0])
        return _transfer_mask(g, shape) if len(g) > 3 and g[3] else None
    if all(r.name == "vector.maskedload" for r in reads):
        return _row_mask(reads, shape)
    return False


def _transfer_mask(g: list, shape: list):
    """The mask of a ``vector.transfer_read`` of operand groups ``g``."""
    cm = owner(g[3][0], "vector.create_mask")
    if cm is None or len(cm.operands) != len(shape):
        return False
    sizes = list(cm.operands)
    if any((constant_int(s) or 0) < d for s, d in zip(sizes[:-1], shape[:-1])):
        return False
    return Mask(sizes[-1], g[2][0])


def _row_mask(reads: list, shape: list):
    """Row by row: every ``vector.maskedload`` a whole row at column 0, one shared
    1-D ``vector.create_mask`` and one splat-constant pass-through."""
    masks = {r.operands[len(r.operands) - 2] for r in reads}
    passes = {r.operands[len(r.operands) - 1] for r in reads}
    if len(masks) != 1 or len(passes) != 1:
        return False
    cm, pt = owner(next(iter(masks)), "vector.create_mask"), owner(next(iter(passes)),
                                                                   "arith.constant")
    if cm is None or len(cm.operands) != 1 or pt is None:
        return False
    value = pt.attributes["value"]
    if not isinstance(value, ir.DenseElementsAttr) or not value.is_splat:
        return False
    for r in reads:
        vt = ir.VectorType(r.results[0].type)
        if vt.rank != 1 or vt.shape[0] != shape[-1] or \
                constant_int(list(r.operands)[len(shape)]) != 0:
            return False
    return Mask(cm.operands[0], value.get_splat_value())


def read_plan(read, p) -> list | None:
    """``[(index, stride)]``: the indices of ``read`` (a read of ``P`` = ``p``, directly
    or through ``memref.expand_shape``s) whose weighted sum is its first element's index
    along ``P``'s last dimension; None when ``read`` is not of a form :func:`mask_read`
    takes (module docstring)."""
    src = read.operands[0]
    chain = []
    while src != p:
        e = owner(src, "memref.expand_shape")
        if e is None:
            return None
        chain.append(e)
        src = e.operands[0]
    strides = {len(ir.MemRefType(p.type).shape) - 1: 1}
    for e in reversed(chain):
        strides = _through_expand(e, strides)
        if strides is None:
            return None
    return _indexed(read, strides)


def _through_expand(e, strides: dict) -> dict | None:
    """``strides`` (source dimension -> stride) of ``memref.expand_shape`` ``e`` over its
    result's dimensions; None when a size it needs is dynamic."""
    shape = list(ir.MemRefType(e.results[0].type).shape)
    groups = [[ir.IntegerAttr(d).value for d in ir.ArrayAttr(g)]
              for g in ir.ArrayAttr(e.attributes["reassociation"])]
    out = {}
    for d, s in strides.items():
        inner = s
        for j in reversed(groups[d]):
            out[j] = inner
            if shape[j] < 0:
                return None
            inner *= shape[j]
    return out


def _indexed(read, strides: dict) -> list | None:
    if read.name == "vector.load":
        indices = list(read.operands)[1:]
    elif read.name == "vector.transfer_read":
        facts = transfer(read)
        if facts.masked or not facts.minor_identity:
            return None
        indices = segments(read)[1]
    else:
        return None
    vshape = list(ir.VectorType(read.results[0].type).shape)
    rank, lead = len(indices), len(indices) - len(vshape)
    if lead < 0 or strides.get(rank - 1) != 1:
        return None
    if any(d >= lead and d != rank - 1 and vshape[d - lead] != 1 for d in strides):
        return None
    return [(indices[d], s) for d, s in sorted(strides.items())]


def mask_read(read, plan: list, mask: Mask) -> None:
    """``read`` (now a read of ``B``) selected by ``mask`` (module docstring): its elements
    at or past the bound along ``P``'s last dimension replaced by the padding."""
    vt = ir.VectorType(read.results[0].type)
    index = ir.IndexType.get()
    with ir.InsertionPoint(read), read.location:
        new = read.clone()
        left = mask.bound
        for v, s in plan:   # bound - sum(index * stride): the elements left in the row
            if constant_int(v) != 0:
                term = v if s == 1 else B.arith.muli(v, B.arith.constant(index, s))
                left = B.arith.subi(left, term)
        flat = ir.VectorType.get([vt.shape[-1]], ir.IntegerType.get_signless(1))
        m = B.vector.create_mask(flat, [left])
        if vt.rank > 1:
            m = B.vector.broadcast(ir.VectorType.get(list(vt.shape),
                                                     ir.IntegerType.get_signless(1)), m)
        if isinstance(mask.pad, ir.Attribute):
            pad = B.arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, mask.pad))
        else:
            pad = B.vector.broadcast(vt, mask.pad)
        sel = B.arith.select(m, new.results[0], pad)
    read.results[0].replace_all_uses_with(sel)
    read.erase()
