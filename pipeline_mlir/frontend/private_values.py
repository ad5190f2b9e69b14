"""Values passed through a private buffer within one iteration, forwarded.

At its prefetch point IREE sometimes stages one register copy of a K-loop through a
private buffer: the global load (or its ``arith.select``) is written whole to a
``memref.alloca`` of the private space before the loop's first barrier, and read back
whole after it for the LDS store (``vector.transfer_write %v, %p[0, 0]``, ``gpu.barrier``,
``%w = vector.transfer_read %p[0, 0]``, ``vector.transfer_write %w, %lds[...]``).  The
private buffer is per thread, so the read gives back the value written: LLVM forwards it
(IREE's late form has the load, the barrier and the store of the value), and
:func:`forward_private_values` does the same in the loop body, so that the copy is a
register copy the scan takes (its direct-to-LDS copy stays after the barrier:
:mod:`pipeline_mlir.frontend.regcopy`).

Forwarded only when, for a ``memref.alloca`` of the private space of a static shape ``S``
(dense, row-major: :func:`~pipeline_mlir.frontend.private_stage.private_tile`): every use
of it is a write (``vector.transfer_write`` / ``vector.store``) or a read
(``vector.transfer_read`` / ``vector.load``) of a whole ``S`` vector at indices that are
all the constant 0 (unmasked, in bounds, no permutation: the transfer ops' ``in_bounds``
set, :func:`~pipeline_mlir.frontend.private_stage.whole_access`),
directly in ``loop``'s body; every read has a write before it in the body, with no use of
the buffer and no op with regions between them.  Each read's value is then the last
write's; the reads, the writes and the buffer are erased.  Any other buffer is left as it
is (for :mod:`pipeline_mlir.frontend.private_stage`, or the scan's refusal at the op).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.private_stage import private_targets, private_tile, whole_access

WRITES = ("vector.transfer_write", "vector.store")
READS = ("vector.transfer_read", "vector.load")


def forward_private_values(loop) -> None:
    """Forward every private buffer of ``loop``'s body that only carries values from a
    write to the reads after it in the same iteration (module docstring)."""
    block = loop.regions[0].blocks[0]
    for p in private_targets([_op(o) for o in block.operations]):
        # the body read again for each: a buffer forwarded erases ops of it
        _forward(_op(p.owner), [_op(o) for o in block.operations])


def _whole(op, buf) -> object | None:
    """The vector ``op`` writes whole to ``buf`` (a write), or the value it reads whole
    (a read), at index 0 (:func:`~pipeline_mlir.frontend.private_stage.whole_access`);
    None if it is not such an access of ``buf``."""
    if op.name in WRITES:
        value, mem = op.operands[0], op.operands[1]
    elif op.name in READS:
        value, mem = op.results[0], op.operands[0]
    else:
        return None
    if mem != buf or not whole_access(op, ir.MemRefType(buf.type).shape):
        return None
    return value


def _forward(alloc, body: list) -> None:
    buf = alloc.results[0]
    mt = ir.MemRefType(buf.type)
    if not private_tile(buf):
        return
    # each user's whole value, once (None: not a whole access of the buffer)
    whole = {u: _whole(u, buf) for u in (_op(use.owner) for use in buf.uses)}
    if any(u not in body or v is None for u, v in whole.items()):
        return
    order = sorted(whole, key=body.index)
    first, last = body.index(order[0]), body.index(order[-1])
    if order[0].name not in WRITES or any(len(o.regions) for o in body[first:last + 1]):
        return
    if any(ir.VectorType(v.type).element_type != mt.element_type for v in whole.values()):
        return
    current, pairs = None, []
    for u in order:
        if u.name in WRITES:
            current = whole[u]
        else:
            if current.type != u.results[0].type:
                return
            pairs.append((u, current))
    writes = [u for u in order if u.name in WRITES]
    for read, value in pairs:
        read.results[0].replace_all_uses_with(value)
        read.erase()
    for w in writes:
        w.erase()
    alloc.erase()
