"""IREE's LDS swizzle made explicit in a remainder loop's reads.

IREE lays its LDS tiles out XOR-swizzled (``iree_codegen.swizzle = #iree_codegen.
xor_shuffle<row, access>`` on the ``memref.alloc``) and applies the swizzle in its own
lowering, which pipeline-opt's LLVM step does not run.  The pipelined loop needs none of
it (the front end addresses its own buffers), but the remainder loop of
:mod:`~pipeline_mlir.frontend.tails` runs the natural body on copies of IREE's buffers.
:func:`resolve_swizzles` makes the swizzle explicit there, with the meaning the address
analysis gives it (:mod:`pipeline_mlir.frontend.address`): a direct-to-LDS copy writes
its destination unswizzled (IREE permutes its global addresses instead), and every LDS
read or write of one ``access``-element chunk (IREE's register copies store through
registers) accesses it at the swizzled element.  Each such access is rewritten as one
``vector.load`` / ``vector.store`` per chunk of the flat buffer at
``xor_shuffle(offset + sum(index * stride))`` (the offset from
``memref.extract_strided_metadata``), a read's chunks put back together as its vector.
An access of several whole chunks per row (IREE's fp8 reads of 32 elements over 16-element
chunks) is one access per chunk, each swizzled on its own, as IREE's late form and
:mod:`~pipeline_mlir.frontend.wide_reads` read it.
A buffer one of whose accesses covers part of a chunk per row (a skinny tile's register
copies of 4 elements into 8-element chunks) is not swizzled at all: IREE's hint resolution
applies a swizzle only when it can apply it to every access, and otherwise leaves the
buffer plain (IREE's late form of such a kernel stores and reads it unswizzled).  A buffer
direct-to-LDS copies fill is laid out swizzled whatever reads it, so it keeps the swizzle
when its part-chunk accesses are the front end's own (a read halved along K: 4 elements of
an 8-element chunk) and each stays inside one chunk in every thread
(:func:`_within_chunks`, evaluated from the thread ids): such a read is one load at the
swizzled element, the XOR moving whole chunks.
Anything else that touches a swizzled buffer is an error at the op.
"""

from __future__ import annotations

import itertools

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.analysis.ir_facts import block_size, parse_xor_shuffle, segments, transfer
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.views import INDEXING_VIEWS
from pipeline_mlir.frontend.adopt import Ix
from pipeline_mlir.frontend.kernel_ir import collapsed, describe, kernel_of

SWIZZLE_ATTR = "iree_codegen.swizzle"
#: the ops a swizzled buffer's values may pass through on their way to an access
VIEW_OPS = INDEXING_VIEWS + ("memref.cast",)
#: LDS accesses that keep their addresses: the copy writes the buffer unswizzled
UNSWIZZLED = ("amdgpu.gather_to_lds",)
READS = ("vector.load", "vector.transfer_read")
WRITES = ("vector.store", "vector.transfer_write")


def unswizzled_clone(alloc):
    """A clone of ``memref.alloc`` ``alloc`` (beside it) without its IREE swizzle, and
    the swizzle as (row, access) elements (None: the alloc has none)."""
    new = alloc.clone(ir.InsertionPoint(alloc))
    if SWIZZLE_ATTR not in new.attributes:
        return new.results[0], None
    sw = parse_xor_shuffle(new.attributes[SWIZZLE_ATTR])
    if sw is None:
        raise IRError(alloc, f"'memref.alloc' op: unknown swizzle {new.attributes[SWIZZLE_ATTR]}")
    set_attribute(new, SWIZZLE_ATTR, None)
    return new.results[0], sw


def resolve_swizzles(swizzled: dict) -> None:
    """Rewrite every read and write of a buffer in ``swizzled`` ({buffer value: (row, access)}, new
    buffers only the remainder loop uses) to apply the swizzle explicitly (module
    docstring); any other use but a view or a direct-to-LDS copy's destination is an
    error."""
    for root, (row, access) in swizzled.items():
        todo, accesses, copies = [root], [], []
        while todo:
            v = todo.pop()
            for u in list(v.uses):
                o = _op(u.owner)
                if o.name in VIEW_OPS and o.operands[0] == v:
                    todo.extend(o.results)
                elif o.name in UNSWIZZLED and o.operands[0] != v:
                    copies.append(o)
                    continue
                elif o.name in READS or (o.name in WRITES and o.operands[0] != v):
                    accesses.append(o)
                else:
                    raise IRError(o, f"{describe(o)} uses an XOR-swizzled LDS buffer of "
                                     f"IREE's in the remainder loop; the front end applies "
                                     f"the swizzle to vector loads, stores and transfers "
                                     f"only")
        if not _resolved_by_iree(accesses, access, copies):
            continue                  # IREE drops the hint: the clone stays unswizzled
        flat = collapsed(root) if accesses else None   # one 1-D view, after the buffer
        for o in accesses:
            _rewrite_access(o, flat, row, access)


def _resolved_by_iree(accesses: list, access: int, copies: list) -> bool:
    """Whether the buffer ``accesses`` read and write is swizzled: only when every one of
    them accesses whole ``access``-element chunks per row.  Where one accesses part of a
    chunk (IREE's register copies of 4 elements of a skinny tile's 8-element rows), IREE's
    hint resolution leaves the buffer unswizzled, every access at its own address (IREE's
    late form stores and reads it so).  Every access must be a plain one with contiguous
    rows either way (:func:`_parts`).  A buffer that direct-to-LDS ``copies`` fill stays
    swizzled (their source addresses carry the swizzle, which a plain buffer's reads would
    not undo) if each part-chunk access stays inside one chunk in every thread
    (:func:`_within_chunks`), and is refused otherwise."""
    part = []
    for o in accesses:
        vt, _, view, _ = _parts(o)
        strides, _ = ir.MemRefType(view.type).get_strides_and_offset()
        if strides[-1] != 1:
            raise IRError(o, f"{describe(o)} accesses an XOR-swizzled LDS buffer with rows "
                             f"that are not contiguous; the front end applies the swizzle "
                             f"to accesses of whole chunks")
        if vt.shape[-1] % access:
            part.append((o, vt.shape[-1]))
    if not part:
        return True
    if not copies:
        return False
    for o, n in part:
        why = _within_chunks(o, access)
        if why is not None:
            raise IRError(o, f"{describe(o)} accesses {n} elements per row of an XOR-swizzled "
                             f"LDS buffer whose chunks are {access} elements, which IREE then "
                             f"leaves unswizzled, but {describe(copies[0])} copies into it "
                             f"from swizzled source addresses, and the front end cannot "
                             f"swizzle the access itself: {why}")
    return True


def _within_chunks(op, access: int) -> str | None:
    """Why the part-chunk access ``op`` may cross an ``access``-element chunk in some thread
    (its rows' first elements, evaluated from the thread ids and constants alone for every
    thread of the kernel's workgroup), or None: each row inside one chunk."""
    vt, _, view, idx = _parts(op)
    n = vt.shape[-1]
    if n > access:
        return f"its rows of {n} elements span more than a chunk"
    size = block_size(kernel_of(op))
    if size is None:
        return "the kernel states no workgroup size to evaluate its threads over"
    ev = Evaluator(size, thread_only=True)
    try:
        where, values = ev.view(view), [ev.value(i) for i in idx]
    except IRError as e:        # (Unevaluable: not of the thread ids alone)
        return f"its address is not one of the thread ids alone ({e})"
    lead = len(idx) - len(vt.shape)
    for pos in itertools.product(*[range(d) for d in vt.shape[:-1]]):
        at = [v + pos[k - lead] if 0 <= k - lead < len(pos) else v
              for k, v in enumerate(values)]
        first = where.element(at) % access
        if np.any(first + n > access):
            return (f"a row starts at element {int(first[np.argmax(first + n > access)])} "
                    f"of a chunk")
    return None


def _parts(op):
    """(vector type, stored value or None, memref, indices) of an LDS access, which must be
    unmasked and minor-identity."""
    write = op.name in WRITES
    if op.name in ("vector.load", "vector.store"):
        k = 1 if write else 0
        val = op.operands[0] if write else None
        vt = ir.VectorType((val if write else op.results[0]).type)
        return vt, val, op.operands[k], list(op.operands[k + 1:])
    g = segments(op)
    val, mem, idx = (g[0][0], g[1][0], list(g[2])) if write else (None, g[0][0], list(g[1]))
    vt = ir.VectorType((val if write else op.results[0]).type)
    facts = transfer(op)
    if facts.masked or not facts.minor_identity:
        raise IRError(op, f"{describe(op)} accesses an XOR-swizzled LDS buffer with a mask or "
                          f"a permutation; the front end applies the swizzle to plain accesses")
    return vt, val, mem, idx


def _rewrite_access(op, flat_root, row: int, access: int) -> None:
    """``op`` as one swizzled ``vector.load`` / ``vector.store`` per ``access``-element chunk
    of ``flat_root`` (the buffer as one dimension)."""
    vt, val, view, idx = _parts(op)
    strides, _ = ir.MemRefType(view.type).get_strides_and_offset()
    row_t = ir.VectorType.get([vt.shape[-1]], vt.element_type)
    flat_t = ir.VectorType.get([min(access, vt.shape[-1])], vt.element_type)
    with ir.InsertionPoint(op), op.location:
        ix = Ix(ir.InsertionPoint(op))
        offset = B.memref.extract_strided_metadata(view)[1]
        pieces = {}
        for pos in itertools.product(*[range(d) for d in vt.shape[:-1]]):
            x = offset
            for k, (i, s) in enumerate(zip(idx, strides)):
                d = k - (len(idx) - len(vt.shape))
                term = i if d < 0 or d >= len(pos) or not pos[d] else \
                    B.arith.addi(i, ix.c(pos[d]))
                x = B.arith.addi(x, ix.mul(term, s))
            chunks = [ix.swizzle(B.arith.addi(x, ix.c(j)) if j else x, row, access)
                      for j in range(0, vt.shape[-1], access)]
            if val is None:
                pieces[pos] = _joined(row_t, [B.vector.load(flat_t, flat_root, [at])
                                              for at in chunks])
            else:
                whole = _piece(val, pos, row_t)
                for j, at in enumerate(chunks):
                    part = whole if len(chunks) == 1 else B.vector.extract_strided_slice(
                        flat_t, whole, [j * access], [access], [1])
                    B.vector.store(part, flat_root, [at])
        if val is None:
            got = pieces[()] if () in pieces else _assemble(vt, pieces)
            if str(got.type) != str(vt):
                got = B.vector.shape_cast(vt, got)
            op.results[0].replace_all_uses_with(got)
    op.erase()


def _joined(row_t, chunks: list):
    """The row ``row_t`` made of the ``chunks`` (one: itself)."""
    if len(chunks) == 1:
        return chunks[0]
    out = _poison(row_t)
    width = ir.VectorType(chunks[0].type).shape[0]
    for j, c in enumerate(chunks):
        out = B.vector.insert_strided_slice(c, out, [j * width], [1])
    return out


def _piece(val, pos: tuple, flat_t):
    """The chunk of vector ``val`` at ``pos`` in its leading dimensions."""
    if not pos:
        return val
    return ir.Operation.create("vector.extract", results=[flat_t], operands=[val], attributes={
        "static_position": ir.DenseI64ArrayAttr.get(list(pos))}).results[0]


def _assemble(vt, pieces: dict):
    """The vector ``vt`` whose rows (by position in its leading dimensions) are
    ``pieces``."""
    out = _poison(vt)
    for pos, p in pieces.items():
        out = ir.Operation.create("vector.insert", results=[vt], operands=[p, out], attributes={
            "static_position": ir.DenseI64ArrayAttr.get(list(pos))}).results[0]
    return out


def _poison(t):
    """A ``ub.poison`` of vector type ``t``: a vector its parts are inserted into."""
    return ir.Operation.create("ub.poison", results=[t], attributes={
        "value": ir.Attribute.parse("#ub.poison")}).results[0]
