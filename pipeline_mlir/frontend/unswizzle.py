"""An XOR swizzle written as address arithmetic, undone on an LDS buffer of register copies.

In IREE's late form the LDS buffer of copies through registers has no swizzle attribute:
its ``xor_shuffle`` is already in the index arithmetic of every store and read, so a
wave's lanes store their chunks out of order, which no direct-to-LDS copy does.
:func:`undo_explicit_swizzle` finds the swizzle from the stores' addresses (evaluated for
every thread): the ``xor_shuffle(row, access)`` (``access`` the elements a lane moves,
``row`` a power of two) under which every copy's lanes, wave by wave, store contiguously in
lane order.  It then applies that swizzle, an involution, to the index of every access of
the buffer, stores and reads alike.  The buffer's contents are permuted, never what a read
reads, provided every access of the buffer is one of the loop's copies and reads, indexes
the one-dimensional buffer directly and stays inside one chunk (checked; otherwise the
buffer is left as it is, and the copy's conversion refuses it with its reason).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.frontend.index_ops import IrOps
from pipeline_mlir.frontend.layout import xor_shuffle_ir
from pipeline_mlir.target.gfx950 import WAVE_SIZE

#: the ops that access the buffer -> the position of the memref among their operands
ACCESS_OPS = {"vector.load": 0, "vector.store": 1}


def undo_explicit_swizzle(ev, scan, root, accs: list, elements) -> bool:
    """Undo the XOR swizzle of LDS buffer ``root`` written as address arithmetic (module
    docstring); ``accs`` the register copies into it, ``elements(view, indices, n, op)``
    the (threads, n) root elements an access touches.  Whether it did."""
    rank1 = ir.MemRefType(root.type).rank == 1
    n = accs[0].elements
    starts = [elements(a.view, a.indices, n, a.store)[:, 0] for a in accs]
    if not rank1 or any(a.elements != n for a in accs) or \
            all(_in_order(s, n) for s in starts):
        return False
    known = {a.store: a for a in accs}
    known.update({r.op: r for r in scan.reads if r.view == root})
    if any(_op(u.owner) not in known and _op(u.owner).name != "memref.dealloc"
           for u in root.uses):
        return False
    if any(op.name not in ACCESS_OPS or a.view != root or len(a.indices) != 1
           for op, a in known.items()):
        return False
    size = ir.MemRefType(root.type).shape[0]
    row = next((r for r in (n << k for k in range(1, 12)) if r <= size and
                all(_in_order(xor_shuffle(s, r, n), n) for s in starts)), None)
    if row is None:
        return False
    for op, a in known.items():
        el = elements(a.view, a.indices, a.elements, op)
        if np.any(el[:, 0] // n != el[:, -1] // n):
            return False
    _apply(scan.loop, known, row, n)
    return True


def _in_order(start: np.ndarray, n: int) -> bool:
    """Every wave's lanes start ``n`` elements apart, in lane order."""
    s = start.reshape(-1, WAVE_SIZE)
    return bool(np.all(s - s[:, :1] == np.arange(WAVE_SIZE)[None, :] * n))


def _apply(loop, known: dict, row: int, n: int) -> None:
    """Every access in ``known`` indexed through ``xor_shuffle(row, n)``."""
    t = ir.IndexType.get()
    consts: dict = {}

    def const(k: int):
        if k not in consts:
            with ir.InsertionPoint(loop):    # at the location of the access it is for
                consts[k] = B.arith.constant(t, ir.IntegerAttr.get(t, k))
        return consts[k]
    o = IrOps(const)
    for op, a in known.items():
        at = ACCESS_OPS[op.name] + 1
        with ir.InsertionPoint(op), op.location:
            new = xor_shuffle_ir(o, op.operands[at], row, n)
        op.operands[at] = new
        a.indices = [new]
