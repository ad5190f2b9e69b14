"""Workgroups at the edges of C: the front end's copies read what the kernel's copies read.

IREE's kernels for sizes that its tiles do not divide (1000 x 1000 in tiles of 128 x 256)
point the rows of the last tiles that lie past the edge of A or B out of the buffer (an
``arith.select`` of an index past the end): a buffer load out of range reads zeros.  The
copies the front end makes (:mod:`pipeline_mlir.frontend.layout`) read one strided block
per workgroup instead, the block the kernel's copies read at a sample workgroup moved by
what the reference copy's thread 0 reads there.  :func:`check_workgroups` evaluates the
kernel's copies at further workgroup ids, the last id of every static bound of the grid
(``scf.forall`` bounds, workgroup-id upper bounds) among them, and requires every element
the front end's copies would read to be the kernel's, or both out of the buffer (both read
zero).  Only the loop's first K step is evaluated there: the elements a copy reads move
with the K step by one constant (checked at the sample workgroup), so an element past the
last row stays past it.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.analysis.ir_facts import descendants
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.loop_eval import Evaluator, Unevaluable
from pipeline_mlir.analysis.lane_ops import SAMPLE_WORKGROUP

#: ops whose ``upper_bound`` bounds a workgroup id
_WORKGROUP_ID_OPS = ("hal.interface.workgroup.id", "gpu.block_id")


def sample_ids(scan) -> list[int]:
    """Workgroup-id values to evaluate the copies at (every id takes the value): the
    sample's next and the last value of every static bound of the grid."""
    bounds = set()
    for op in descendants(_op(scan.kernel)):
        if op.name == "scf.forall" and "staticUpperBound" in op.attributes:
            bounds |= {b for b in ir.DenseI64ArrayAttr(op.attributes["staticUpperBound"])
                       if b > 0}
        elif op.name in _WORKGROUP_ID_OPS and "upper_bound" in op.attributes:
            bounds.add(ir.IntegerAttr(op.attributes["upper_bound"]).value)
    return sorted({SAMPLE_WORKGROUP + 1} | {b - 1 for b in bounds})


def table_at(an, copies: list, ref: int, wid: int, size: int) -> tuple[np.ndarray, int]:
    """(the global element each of the ``size`` LDS elements gets from the kernel's
    ``copies`` at the loop's first K step, the first element thread 0 of copy ``ref``
    reads) with every workgroup id ``wid`` (-1 where no copy writes)."""
    scan = an.scan
    ev = Evaluator(scan.block, workgroup_id=wid)
    ev.where = scan.loop
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    ev.bind(iv, an.evaluator.value(iv))
    table = np.full(size, -1, dtype=np.int64)
    base = 0
    for i in copies:
        a = scan.copies[i]
        try:
            start = ev.view(a.src).element([ev.value(x) for x in a.src_indices])
        except Unevaluable as e:  # pragma: no cover - the first evaluation succeeded
            raise LM.LoopRefusal(str(e), (an.copies[copies[0]].op,)) from None
        width = an.copies[i].src0.shape[1]
        table[an.copies[i].lds.ravel()] = (start[:, None] + np.arange(width)).ravel()
        if i == ref:
            base = int(start[0])
    return table, base


def check_workgroups(an, copies: list, table: np.ndarray, ref: tuple[int, int],
                     elements: int | None, label: str) -> None:
    """A LoopRefusal unless, at every :func:`sample_ids` workgroup, the kernel's copies of
    ``copies`` put in each LDS element the global element the front end's would (``table``:
    workgroup 0's; ``ref``: the reference copy and the element its thread 0 reads there),
    or both lie out of the ``elements`` of the global buffer (None: a buffer of dynamic
    shape, where only elements before its start are out of it)."""
    ref, base0 = ref
    for wid in sorted({SAMPLE_WORKGROUP} | set(sample_ids(an.scan))):
        got, base = table_at(an, copies, ref, wid, len(table))
        want = table + (base - base0)
        outside = [(x < 0) | (x >= (elements if elements is not None else x.max() + 1))
                   for x in (got, want)]
        bad = np.flatnonzero((got != want) & ~(outside[0] & outside[1]))
        if len(bad):
            x = int(bad[0])
            where = (f"elements past the buffer's {elements}" if elements is not None else
                     "elements before the buffer's start")
            raise LM.LoopRefusal(
                f"channel {label}'s copies do not move as one block from one workgroup to "
                f"another: with every workgroup id {wid}, LDS element {x} gets global element "
                f"{int(got[x])}, where workgroup 0's block moved gives {int(want[x])} "
                f"({where} only where both are)",
                (an.copies[copies[0]].op,))
