"""A copy staged through private memory between two guards of one condition, made one guard.

At its prefetch point IREE may copy a tile that part of the workgroup copies in two
``scf.if`` ops of one condition (``%tid < 128``, computed twice): the first loads each
lane's elements from global memory into private buffers (``memref.alloca``), the second
reads them back and stores them into LDS (f16 ``A x B`` 100x24x520: B's 8x32 tile, two
2-byte elements a lane, by threads 0 to 127 of 256; its late form is one per-thread loop
of the loads and stores).  :func:`fuse_staged_guards` makes the two one guard of the
copies, so that :mod:`~pipeline_mlir.frontend.partial_copy` spreads it as the late form's:

* two ``scf.if`` ops directly in the K-loop's body, no results and no else ops, with only
  side-effect free ops between them, whose conditions are one value or computed alike
  (the same side-effect free op of the same attributes on operands that are so in turn);
  the second reads a private buffer the first writes.  The ops between go before the
  first (they read no memory, and the first has no results), the second's ops after the
  first's: the same ops in the same order under the same condition;
* in the merged region, a read of a private buffer at the indices (the same values), of
  the vector type, permutation and ``in_bounds`` (all true: no padding, no mask) of the
  last write of that buffer before it, with no other op between that has regions or
  touches the buffer, is that write's value (the buffer is the thread's own);
* a private buffer none of whose uses are left but writes in the region is erased with
  them.

IREE's late form of the same kernel built with 2, 3 or 4 prefetch stages (its default build
among them: IREE leaves that loop unpipelined) holds the copy as one guard already, the
values still staged through the private buffers in it (the loads, the stores to the
buffers, the reads back, the stores into LDS): a guard that reads a private buffer it
writes has its values forwarded the same way, so that both forms reach the spread as one
guard of the copies.

Anything else is left as it is: the scan then refuses the guard (a copy by part of the
workgroup whose region is not one copy).
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import memory_space, segments, transfer
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import is_pure, same_attributes

__all__ = ["fuse_staged_guards"]

_READS = ("vector.transfer_read", "vector.load")
_WRITES = ("vector.transfer_write", "vector.store")


def fuse_staged_guards(loop) -> int:
    """Fuse the pairs of guards of ``loop``'s body that stage a copy through private memory
    (module docstring) and forward the values staged, in those and in every guard that
    stages a copy by itself (:func:`_staged`); returns how many pairs."""
    block = loop.regions[0].blocks[0]
    count = 0
    while True:
        ops = [_op(o) for o in block.operations]
        pair = next((p for p in (_pair(ops, i) for i in range(len(ops))) if p), None)
        if pair is None:
            for o in ops:
                if _plain_if(o) and _staged(o):
                    _forward(o)
            return count
        first, between, second = pair
        for o in between:
            o.move_before(first)
        end = first.regions[0].blocks[0].operations[
            len(first.regions[0].blocks[0].operations) - 1]
        for o in list(second.regions[0].blocks[0].operations)[:-1]:
            _op(o).move_before(_op(end))
        second.erase()
        _forward(first)
        count += 1


def _plain_if(o) -> bool:
    return o.name == "scf.if" and not len(o.results) and (
        len(o.regions) < 2 or not len(o.regions[1].blocks) or
        len(list(o.regions[1].blocks[0].operations)) <= 1)


def _pair(ops: list, i: int):
    """(the guard at ``i``, the side-effect free ops after it, the guard after those) when
    the two stage a copy through private memory under one condition, else None."""
    first = ops[i]
    if not _plain_if(first):
        return None
    j = i + 1
    while j < len(ops) and is_pure(ops[j]):
        j += 1
    if j == len(ops) or not _plain_if(ops[j]) or not _alike(first.operands[0],
                                                            ops[j].operands[0]):
        return None
    written = {_target(o) for o in _region(first) if o.name in _WRITES}
    read = {o.operands[0] for o in _region(ops[j]) if o.name in _READS}
    if not any(v is not None and _private(v) for v in written & read):
        return None
    return first, ops[i + 1:j], ops[j]


def _staged(guard) -> bool:
    """``guard``'s region reads a private buffer it also writes (IREE's late form of a copy
    staged through private memory in one guard)."""
    ops = _region(guard)
    written = {_target(o) for o in ops if o.name in _WRITES}
    return any(o.name in _READS and _private(o.operands[0]) and o.operands[0] in written
               for o in ops)


def _alike(a, b, depth: int = 8) -> bool:
    """``a`` and ``b`` are one value, or results of alike side-effect free ops."""
    if a == b:
        return True
    if depth == 0 or isinstance(a.owner, ir.Block) or isinstance(b.owner, ir.Block):
        return False
    x, y = _op(a.owner), _op(b.owner)
    if x.name != y.name or not is_pure(x) or len(x.operands) != len(y.operands) or \
            list(x.results).index(a) != list(y.results).index(b) or \
            not same_attributes(x, y):
        return False
    return all(_alike(p, q, depth - 1) for p, q in zip(x.operands, y.operands))


def _region(o) -> list:
    return [_op(x) for x in o.regions[0].blocks[0].operations]


def _private(v) -> bool:
    return isinstance(v.type, ir.MemRefType) and memory_space(v.type) == "private"


def _target(o):
    return o.operands[1] if o.name in _WRITES else None


def _indices(o) -> list:
    if o.name == "vector.load":
        return list(o.operands)[1:]
    if o.name == "vector.store":
        return list(o.operands)[2:]
    return segments(o)[1 if o.name == "vector.transfer_read" else 2]


def _vector(o):
    return (o.results[0] if o.name in _READS else o.operands[0]).type


def _plain(o) -> bool:
    """Moves exactly its vector's elements at its indices (no padding, no mask)."""
    return o.name in ("vector.load", "vector.store") or transfer(o).plain


def _same_access(w, r) -> bool:
    """Read ``r`` gives back what write ``w`` wrote: the same indices, vector type and
    permutation, both moving exactly their vector's elements."""
    def perm(o):
        return str(o.attributes["permutation_map"]) if "permutation_map" in o.attributes \
            else None
    return (_indices(w) == _indices(r) and _vector(w) == _vector(r) and _plain(w) and
            _plain(r) and perm(w) == perm(r))


def _forward(guard) -> None:
    """Forward the private values of ``guard``'s region (module docstring)."""
    last: dict = {}
    for o in _region(guard):
        if len(o.regions):
            last.clear()
            continue
        if o.name in _READS and _private(o.operands[0]):
            w = last.get(o.operands[0])
            if w is not None and _same_access(w, o):
                o.results[0].replace_all_uses_with(w.operands[0])
                o.erase()
                continue
        for v in o.operands:
            last.pop(v, None)       # (any other use of a buffer: nothing forwarded past it)
        if o.name in _WRITES and _private(o.operands[1]):
            last[o.operands[1]] = o
    buffers: list = []      # each once: a buffer's writes are erased together
    for o in _region(guard):
        buf = _target(o)
        if buf is not None and _private(buf) and not isinstance(buf.owner, ir.Block) and \
                buf not in buffers:
            buffers.append(buf)
    for buf in buffers:
        users = [_op(u.owner) for u in buf.uses]
        alloc = _op(buf.owner)
        if alloc.name != "memref.alloca" or any(u.name not in _WRITES or u.operands[1] != buf
                                                for u in users):
            continue
        for u in users:
            u.erase()
        alloc.erase()
