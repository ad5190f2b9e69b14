"""IREE's LDS swizzle made explicit in a remainder loop's reads.

IREE lays its LDS tiles out XOR-swizzled (``iree_codegen.swizzle = #iree_codegen.
xor_shuffle<row, access>`` on the ``memref.alloc``) and applies the swizzle in its own
lowering, which pipeline-opt's LLVM step does not run.  The pipelined loop needs none of
it (the front end addresses its own buffers), but the remainder loop of
:mod:`~pipeline_mlir.frontend.tails` runs the natural body on copies of IREE's buffers.
:func:`resolve_swizzles` makes the swizzle explicit there, with the meaning the address
analysis gives it (:mod:`pipeline_mlir.frontend.address`): a direct-to-LDS copy writes
its destination unswizzled (IREE permutes its global addresses instead), and every LDS
read of one ``access``-element chunk reads it at the swizzled element.  Each such read is
rewritten as one ``vector.load`` per chunk from the flat buffer at
``xor_shuffle(offset + sum(index * stride))`` (the offset from
``memref.extract_strided_metadata``), the chunks put back together as the read's vector.
Anything else that touches a swizzled buffer is an error at the op.
"""

from __future__ import annotations

import itertools

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import parse_xor_shuffle, segments
from pipeline_mlir.frontend.adopt import _Ix
from pipeline_mlir.frontend.kernel_ir import describe

SWIZZLE_ATTR = "iree_codegen.swizzle"
#: the ops a swizzled buffer's values may pass through on their way to an access
VIEW_OPS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast")
#: LDS accesses that keep their addresses: the copy writes the buffer unswizzled
UNSWIZZLED = ("amdgpu.gather_to_lds",)
READS = ("vector.load", "vector.transfer_read")


def unswizzled_clone(alloc):
    """A clone of ``memref.alloc`` ``alloc`` (beside it) without its IREE swizzle, and
    the swizzle as (row, access) elements (None: the alloc has none)."""
    new = alloc.clone(ir.InsertionPoint(alloc))
    if SWIZZLE_ATTR not in new.attributes:
        return new.results[0], None
    sw = parse_xor_shuffle(new.attributes[SWIZZLE_ATTR])
    if sw is None:
        raise IRError(alloc, f"'memref.alloc' op: unknown swizzle {new.attributes[SWIZZLE_ATTR]}")
    del new.attributes[SWIZZLE_ATTR]
    return new.results[0], sw


def resolve_swizzles(swizzled: dict) -> None:
    """Rewrite every read of a buffer in ``swizzled`` ({buffer value: (row, access)}, new
    buffers only the remainder loop uses) to apply the swizzle explicitly (module
    docstring); any other use but a view or a direct-to-LDS copy's destination is an
    error."""
    for root, (row, access) in swizzled.items():
        todo, reads = [root], []
        while todo:
            v = todo.pop()
            for u in list(v.uses):
                o = _op(u.owner)
                if o.name in VIEW_OPS and o.operands[0] == v:
                    todo.extend(o.results)
                elif o.name in UNSWIZZLED and o.operands[0] != v:
                    continue
                elif o.name in READS:
                    reads.append(o)
                else:
                    raise IRError(o, f"{describe(o)} uses an XOR-swizzled LDS buffer of "
                                     f"IREE's in the remainder loop; the front end applies "
                                     f"the swizzle to vector.load and vector.transfer_read "
                                     f"only")
        for o in reads:
            _rewrite_read(o, root, row, access)


def _read_parts(op):
    """(memref, indices) of a read, which must be an unmasked, in-bounds, minor-identity
    read."""
    if op.name == "vector.load":
        return op.operands[0], list(op.operands[1:])
    g = segments(op)
    mt = ir.MemRefType(g[0][0].type)
    vt = ir.VectorType(op.results[0].type)
    pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
    masked = len(g) > 3 and g[3]
    if masked or str(pm) != str(ir.AffineMap.get_minor_identity(mt.rank, vt.rank)):
        raise IRError(op, f"{describe(op)} reads an XOR-swizzled LDS buffer with a mask or a "
                          f"permutation; the front end applies the swizzle to plain reads")
    return g[0][0], list(g[1])


def _rewrite_read(op, root, row: int, access: int) -> None:
    """``op`` as one swizzled ``vector.load`` per ``access``-element chunk of ``root``."""
    view, idx = _read_parts(op)
    vt = ir.VectorType(op.results[0].type)
    mt = ir.MemRefType(view.type)
    strides, _ = mt.get_strides_and_offset()
    if vt.shape[-1] != access or strides[-1] != 1:
        raise IRError(op, f"{describe(op)} reads {vt.shape[-1]} elements per row of an "
                          f"XOR-swizzled LDS buffer whose chunks are {access} elements; the "
                          f"front end applies the swizzle to reads of whole chunks")
    flat_t = ir.VectorType.get([access], vt.element_type)
    with ir.InsertionPoint(op), op.location:
        ix = _Ix(ir.InsertionPoint(op))
        offset = B.memref.extract_strided_metadata(view)[1]
        flat_root = _flat(root)
        pieces = {}
        for pos in itertools.product(*[range(d) for d in vt.shape[:-1]]):
            x = offset
            for k, (i, s) in enumerate(zip(idx, strides)):
                d = k - (len(idx) - len(vt.shape))
                term = i if d < 0 or d >= len(pos) or not pos[d] else \
                    B.arith.addi(i, ix.c(pos[d]))
                x = B.arith.addi(x, ix.mul(term, s))
            pieces[pos] = B.vector.load(flat_t, flat_root, [ix.swizzle(x, row, access)])
        val = pieces[()] if () in pieces else _assemble(vt, pieces)
        if str(val.type) != str(vt):
            val = B.vector.shape_cast(vt, val)
    op.results[0].replace_all_uses_with(val)
    op.erase()


def _flat(root):
    """``root`` as a 1-D memref (itself when it is one), made after its definition."""
    mt = ir.MemRefType(root.type)
    if mt.rank == 1:
        return root
    n = 1
    for d in mt.shape:
        n *= d
    ft = ir.MemRefType.get([n], mt.element_type, memory_space=mt.memory_space)
    return B.memref.collapse_shape(ft, root, ir.ArrayAttr.get(
        [ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)
                           for i in range(mt.rank)])]))


def _assemble(vt, pieces: dict):
    """The vector ``vt`` whose rows (by position in its leading dimensions) are
    ``pieces``."""
    out = ir.Operation.create("ub.poison", results=[vt], attributes={
        "value": ir.Attribute.parse("#ub.poison")}).results[0]
    for pos, p in pieces.items():
        out = ir.Operation.create("vector.insert", results=[vt], operands=[p, out], attributes={
            "static_position": ir.DenseI64ArrayAttr.get(list(pos))}).results[0]
    return out
