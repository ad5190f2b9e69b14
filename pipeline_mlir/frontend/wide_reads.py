"""Fragment reads wider than one LDS access, split into reads of one access each.

At IREE's prefetch point an fp8 16x16x128 MFMA's operand (32 elements per lane, 32 bytes) is
one ``vector.transfer_read`` of 32 logically contiguous elements, but the LDS buffer's
``xor_shuffle`` permutes it in 16-byte chunks: the two halves are not adjacent in LDS, and
gfx950 reads at most 16 bytes per lane (``ds_read_b128``).  :func:`split_wide_reads` replaces
such a read (after :func:`pipeline_mlir.frontend.scan.split_reads`, one read per fragment) by
one read per 16 bytes, the fragment rebuilt from them with ``vector.insert_strided_slice``,
which is what IREE's late form does with ``vector.load``\\ s of 16 elements.  Only reads of
a buffer with an ``iree_codegen.swizzle`` are split, into pieces of its chunk (at most 16
bytes); a read of an unswizzled buffer, or one whose innermost extent is not a whole number
of chunks, is left as it is (the analysis then takes it or refuses it with its reason).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import parse_xor_shuffle
from pipeline_mlir.analysis.loop_eval import segments
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.frontend.kernel_ir import narrow_read
from pipeline_mlir.frontend.scan import LoopScan, read_access
from pipeline_mlir.frontend.tail_swizzle import SWIZZLE_ATTR, VIEW_OPS
from pipeline_mlir.target.gfx950 import WIDEST_ACCESS_BYTES


def split_wide_reads(scan: LoopScan) -> None:
    """Split every fragment ``vector.transfer_read`` of ``scan`` wider than
    ``WIDEST_ACCESS_BYTES`` per lane into reads of that width (module docstring)."""
    new_reads = []
    for acc in scan.reads:
        per = _access_elements(acc.op)
        if per is None:
            new_reads.append(acc)
            continue
        pieces = _split(acc.op, per)
        new_reads += [read_access(p) for p in pieces]
    scan.reads = new_reads
    blk = scan.loop.regions[0].blocks[0]
    scan.ops = [o.operation for o in blk.operations][:-1]


def _access_elements(op) -> int | None:
    """Elements per piece if ``op`` is a transfer read of an XOR-swizzled buffer that spans
    several of its chunks (each at most ``WIDEST_ACCESS_BYTES``), else None."""
    if op.name != "vector.transfer_read":
        return None
    swizzle = _swizzle_of(op.operands[0])
    if swizzle is None:
        return None
    vt = ir.VectorType(op.results[0].type)
    per = min(swizzle[1], WIDEST_ACCESS_BYTES // max(1, vt.element_type.width // 8))
    inner = vt.shape[-1]
    if inner <= per or inner % per or any(d != 1 for d in vt.shape[:-1]):
        return None
    return per


def _swizzle_of(v) -> tuple[int, int] | None:
    """``(row, access)`` of the IREE swizzle of the ``memref.alloc`` that ``v`` views, if any."""
    v = view_root(v, VIEW_OPS)
    if isinstance(v, ir.OpResult) and _op(v.owner).name == "memref.alloc" and \
            SWIZZLE_ATTR in _op(v.owner).attributes:
        return parse_xor_shuffle(_op(v.owner).attributes[SWIZZLE_ATTR])
    return None


def _split(op, per: int) -> list:
    """Replace ``op`` by reads of ``per`` elements and the vector rebuilt from them."""
    vt = ir.VectorType(op.results[0].type)
    rank = len(vt.shape)
    pieces = []
    with ir.InsertionPoint(op), op.location:
        full = B.vector.broadcast(vt, segments(op)[2][0])
        for i in range(vt.shape[-1] // per):
            piece = narrow_read(op, i * per, per)
            pieces.append(_op(piece.owner))
            full = B.vector.insert_strided_slice(piece, full,
                                                 [0] * (rank - 1) + [i * per], [1] * rank)
    op.results[0].replace_all_uses_with(full)
    op.erase()
    return pieces
