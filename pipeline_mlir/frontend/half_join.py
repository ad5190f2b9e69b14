"""Pieces of one fragment read that the K split puts in one fragment load, read as one.

:mod:`~pipeline_mlir.frontend.half_k` cuts each MFMA along K and reads each piece of a
fragment on its own (the operand the K split leaves whole excepted), since the split of
:mod:`~pipeline_mlir.frontend.k_subtiles` may send the pieces of one fragment to different
subtiles.  Where it sends two consecutive pieces to the same one, they are issued in one
fragment load, at adjacent LDS bytes from one base, and LLVM merges two such 8-byte reads
into one ``ds_read_b128`` that the plan's reads and counted waits know nothing of (the ISA
gate refuses the build: IREE's fp8 ``A^T x B^T`` 652x284x512, its 16x16x128 MFMAs cut into
4, one accumulator per wave, A and B split along K crosswise: B's quarters 0 and 1 of each
fragment in one subtile, 2 and 3 in the other).

:func:`join_pieces` reads such a pair as one read of both (its first piece's indices, twice
the elements), each MFMA taking a slice of it, once the halved loop's analysis has said
where every read goes: a pair starting at an even piece (16-byte aligned where the fragment
is), at most :data:`~pipeline_mlir.target.gfx950.WIDEST_ACCESS_BYTES` wide, both pieces in
one channel and subtile, and as many pairs in each subtile of the channel (the split needs
equal ``ds_read`` counts).  The caller analyses the loop again; :func:`split_again` undoes
the joins where that analysis refuses (the pieces read on their own again, as before).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.half_k import piece_read, read_of
from pipeline_mlir.frontend.kernel_ir import erase_unused
from pipeline_mlir.frontend.marks import JOINED_ATTR, PIECE_ATTR
from pipeline_mlir.target.gfx950 import WIDEST_ACCESS_BYTES


def join_pieces(an) -> int:
    """Join the pairs of pieces of ``an``'s halved loop (its reads marked
    :data:`~pipeline_mlir.frontend.marks.PIECE_ATTR` by
    :func:`~pipeline_mlir.frontend.half_k.halve_mfmas`) that its partition puts in one
    fragment load (module docstring), in place; how many were joined, each joined read
    marked :data:`~pipeline_mlir.frontend.marks.JOINED_ATTR` for :func:`split_again` (the
    caller takes those marks off once the loop's analysis has taken the joins:
    :func:`unmark_pieces`).  The pieces' marks are taken off either way."""
    part = an.partition
    by_offset: dict = {}                # (fragment read, first element) -> piece
    for i, r in enumerate(an.reads):
        op = an.ops[r.op]
        if PIECE_ATTR not in op.attributes:
            continue
        origin, off, size = list(ir.DenseI64ArrayAttr(op.attributes[PIECE_ATTR]))
        value = _flat_value(op)
        if value is not None:
            by_offset[origin, off] = (op, size, value,
                                      (part.read_channel[i], part.read_subtile[i]))
    unmark_pieces(an.scan.loop)
    pairs: dict = {}                    # (channel, subtile) -> [(first, second, size)]
    for (origin, off), (op, size, value, where) in by_offset.items():
        nxt = by_offset.get((origin, off + size))
        elem = ir.VectorType(value.type).element_type
        if off % (2 * size) or nxt is None or nxt[1] != size or nxt[3] != where or \
                2 * size * _bytes(elem) > WIDEST_ACCESS_BYTES:
            continue
        pairs.setdefault(where, []).append(((op, value), (nxt[0], nxt[2]), size))
    joined = 0
    for channel in {c for c, _s in pairs}:
        counts = {len(pairs.get((channel, s), [])) for s in (0, 1)}
        if len(counts) != 1:            # (each subtile one read fewer per pair: equal)
            continue
        for s in (0, 1):
            for first, second, size in pairs.get((channel, s), []):
                _join(first, second, size)
                joined += 1
    return joined


def unmark_pieces(loop) -> None:
    """:data:`~pipeline_mlir.frontend.marks.PIECE_ATTR` and
    :data:`~pipeline_mlir.frontend.marks.JOINED_ATTR` taken off every op of ``loop``'s body
    (marks for this module only)."""
    for op in loop.regions[0].blocks[0].operations:
        for mark in (PIECE_ATTR, JOINED_ATTR):
            if mark in op.attributes:
                del op.attributes[mark]


def _flat_value(read):
    """The flat vector the MFMAs take of the piece read ``read``: its result, or
    the one ``vector.shape_cast`` of it; None otherwise (not joined)."""
    value = read.results[0]
    if ir.VectorType(value.type).rank == 1:
        return value
    users = [_op(u.owner) for u in value.uses]
    if len(users) == 1 and users[0].name == "vector.shape_cast" and \
            ir.VectorType(users[0].results[0].type).rank == 1:
        return users[0].results[0]
    return None


def split_again(loop) -> None:
    """Undo :func:`join_pieces` in ``loop``: each read it joined (found by its mark) read
    as its two pieces on their own again."""
    for read in [_op(o) for o in loop.regions[0].blocks[0].operations
                 if JOINED_ATTR in o.attributes]:
        size = ir.IntegerAttr(read.attributes[JOINED_ATTR]).value
        slices, cast = _slices_of(read)
        for j, sl in enumerate(slices):
            sl.results[0].replace_all_uses_with(piece_read(read, j * size, size))
        erase_unused(slices + ([cast] if cast is not None else []) + [read])


def _join(first, second, size: int) -> None:
    """The pieces ``first`` and ``second`` (``(read op, the value the MFMAs take)``, the
    second ``size`` elements after the first) read as one read of ``2 * size`` at the
    first's indices, marked :data:`~pipeline_mlir.frontend.marks.JOINED_ATTR`."""
    op, value = first
    wide = piece_read(op, 0, 2 * size)
    flat = ir.VectorType.get([size], ir.VectorType(value.type).element_type)
    with ir.InsertionPoint(op), op.location:
        for j, (_op_j, v) in enumerate((first, second)):
            v.replace_all_uses_with(
                B.vector.extract_strided_slice(flat, wide, [j * size], [size], [1]))
    read = read_of(wide)
    read.attributes[JOINED_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), size)
    erase_unused([_op(v.owner) for _p, v in (first, second)] + [first[0], second[0]])


def _slices_of(read) -> tuple:
    """(the ``vector.extract_strided_slice`` ops of ``read``'s joined value, in order; the
    ``vector.shape_cast`` that flattens it first, or None)."""
    value, cast = read.results[0], None
    users = [_op(u.owner) for u in value.uses]
    if len(users) == 1 and users[0].name == "vector.shape_cast":
        cast = users[0]
        users = [_op(u.owner) for u in cast.results[0].uses]
    slices = sorted((u for u in users if u.name == "vector.extract_strided_slice"),
                    key=lambda u: ir.IntegerAttr(ir.ArrayAttr(u.attributes["offsets"])[0])
                    .value)
    return slices, cast


def _bytes(element) -> int:
    return max(1, element.width // 8)
