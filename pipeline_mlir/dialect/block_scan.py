"""A block's ops read from one of them on (:func:`ops_from`), not from the block's first.

The bindings give a block's ops only as a list to iterate from its first op or to index
(each index a walk of the list in C); the passes that scan on from an op (a staged copy's
store point, the waits after a joined store) in blocks of thousands of ops read every op
before it once per op they scanned from.
"""

from __future__ import annotations

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
