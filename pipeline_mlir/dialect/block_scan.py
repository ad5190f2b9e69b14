"""A block's ops read from one of them on (:func:`ops_from`), not from the block's first.

The bindings give a block's ops only as a list to iterate from its first op or to index
(each index a walk of the list in C); the passes that scan on from an op (a staged copy's
store point, the waits after a joined store) in blocks of thousands of ops read every op
before it once per op they scanned from.  :func:`block_ops` lists a block's ops as
``ir.Operation`` objects by a walk that does not enter them, where the block is its op's
only one.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation

#: how many ops :func:`ops_from` reads by position before it reads on in order
_BY_POSITION = 48


def ops_from(op):
    """The ops of ``op``'s block from ``op`` (first) to the block's end, in order, each an
    ``ir.Operation`` (an iterator: read as far as it is taken, the block unchanged
    meanwhile).  ``op``'s position is found by bisection (``is_before_in_block``) and the
    ops near it read by position, each a walk of the block's list in C: not every op before
    it made a Python object, which the passes that scan on from an op in a block of
    thousands did once per op they scanned from.  Further on they are read in order."""
    op = as_operation(op)
    ops = op.block.operations
    n = len(ops)
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if as_operation(ops[mid]).is_before_in_block(op):
            lo = mid + 1
        else:
            hi = mid
    near = min(n, lo + _BY_POSITION)
    for k in range(lo, near):
        yield as_operation(ops[k])
    if near < n:
        it = iter(ops)
        for _ in range(near):
            next(it)
        for o in it:
            yield as_operation(o)


def block_ops(block) -> list:
    """The operations of ``block``, in order, as ``ir.Operation`` objects.  Of the one
    block of its op's one region (a loop's body, a function's): one walk of the op that
    does not enter the ops it lists (the block's operation list makes an OpView per op,
    about twice the cost); of any other block, that list."""
    owner = block.owner
    owner = None if owner is None else as_operation(owner)
    if owner is None or len(owner.regions) != 1 or len(owner.regions[0].blocks) != 1:
        return [as_operation(o) for o in block.operations]
    out = []
    keep, skip = out.append, ir.WalkResult.SKIP
    root = [True]

    def visit(o):
        if root:                    # (the op itself, visited first: entered)
            root.pop()
            return ir.WalkResult.ADVANCE
        keep(o)
        return skip

    owner.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out
