"""Which of the writes before it a read of a thread's private buffer reads, element by element.

IREE's tiny ``C += A x B^T`` (bf16 33x9x417: one workgroup over a 64x16 tile) stages C
through one private buffer of the whole tile in each thread: first C's rows (and zero rows
past C's last), then each thread's results over its own four elements of it, and the
epilogue copies those four out (the late form a ``memref.load`` per element in loops from
the thread id, the prefetch point a ``memref.copy`` of a per-thread view).  The epilogue
reader (:mod:`pipeline_mlir.frontend.epilogue`) takes a read of private memory as what the
writes before it store, and those store different values; but what each element read
holds is the last write of that element, and here every element read is one of the
results.

:func:`last_writers` evaluates that, for every thread of the workgroup: the writes (plain
stores of the buffer or of a view of it, in the read's block or around it, outside any
loop or branch) in program order, each marking the elements it writes in that thread's
copy of the buffer; then the read at every point of the loops and guards around it
(:func:`~pipeline_mlir.analysis.output_tiles.walk_points`), each element it reads in each
thread that runs it looked up.  It gives the writes read, or None where it cannot tell (an
index computed from the workgroup or launch, an element read that none of them wrote, a
masked or transposing transfer, a write inside a loop or a branch): the reader then
refuses the read as before.  Private memory is the thread's own, so no other thread's
write can land in between.
"""

from __future__ import annotations

import itertools

import numpy as np

from pipeline_mlir.analysis.ir_facts import block_size, mapped_forall, transfer
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.output_tiles import thread_iterations, view_sizes, walk_points
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation
from pipeline_mlir.frontend.epilogue_ops import READS, WRITES

#: the plain accesses followed (the epilogue reader's tables, :mod:`epilogue_ops`, say
#: where each keeps its memref and value)
_PLAIN = frozenset({"vector.store", "vector.transfer_write", "memref.store", *READS})
#: the most elements of a buffer the evaluation follows in every thread
MAX_ELEMENTS = 1 << 14


def last_writers(f, read, root, writes: list) -> set[int] | None:
    """The indices in ``writes`` (ops writing private buffer ``root`` before ``read``, in
    program order) of those whose elements ``read`` reads, in any thread (module
    docstring); None where that cannot be shown."""
    shape = ir.MemRefType(root.type).shape
    size = int(np.prod(shape)) if shape else 1
    if size > MAX_ELEMENTS or any(d < 0 for d in shape) or not all(
            _straight(w, f) for w in writes):
        return None
    ev = Evaluator(block_size(f) or (256, 1, 1), thread_only=True)
    last = np.full((ev.threads, size), -1, dtype=np.int64)
    rows = np.arange(ev.threads)
    try:
        for k, w in enumerate(writes):
            for el in _elements(ev, w, None):
                if ((el < 0) | (el >= size)).any():
                    return None
                last[rows, el] = k
        found: set[int] = set()
        unwritten = [False]

        def leaf(active, _key) -> None:
            for el in _elements(ev, read, active):
                got = last[rows[active], np.clip(el[active], 0, size - 1)]
                if ((el[active] < 0) | (el[active] >= size) | (got < 0)).any():
                    unwritten[0] = True
                found.update(int(g) for g in np.unique(got))
        walk_points(ev, f, read, leaf, lambda loop, active: thread_iterations(ev, loop, active),
                    "a read of private memory")
    except (IRError, ValueError, IndexError, KeyError):
        return None
    return None if unwritten[0] else found


def _straight(w, f) -> bool:
    """Is write ``w`` one of :data:`_PLAIN`, or a copy, run once by every thread (no loop,
    branch or other op around it but a workgroup ``scf.forall``)?"""
    if w.name not in _PLAIN and w.name != "memref.copy":
        return False
    op = w
    while op.parent is not None:
        op = as_operation(op.parent)
        if op == f:
            return True
        if not mapped_forall(op):
            return False
    return False


def _elements(ev, op, active) -> list[np.ndarray]:
    """Per element ``op`` accesses, per thread, the element of its root buffer (``active``:
    the threads the sizes of a copy are taken for; None: every thread, and a copy's source
    then: the write's target)."""
    if op.name == "memref.copy":
        ref = op.operands[1] if active is None else op.operands[0]
        view = ev.view(ref)
        sizes = view_sizes(ev, op, ref)
        if active is None and any((s != s[0]).any() for s in sizes):
            raise ValueError("a copy of a size that differs by thread writes")
        top = [int(s.max()) if len(s) else 0 for s in sizes]
        out = []
        for d in itertools.product(*map(range, top)):
            inside = np.ones(ev.threads, dtype=bool)
            for i, s in zip(d, sizes):
                inside &= i < s
            el = view.element([np.full(ev.threads, i, dtype=np.int64) for i in d])
            # a thread whose view is smaller reads nothing there: its first element instead
            out.append(np.where(inside, el, view.element([np.zeros(ev.threads, np.int64)] *
                                                         len(d))))
        return out
    if op.name not in _PLAIN:
        raise ValueError(f"{op.name} is not a plain access")
    # (operand index of its memref, of its value or None: a read's is its result)
    at, value = (READS[op.name], None) if op.name in READS else WRITES[op.name][::-1]
    ref = op.operands[at]
    rank = ir.MemRefType(ref.type).rank
    idx = [np.broadcast_to(np.asarray(ev.value(x), dtype=np.int64), (ev.threads,))
           for x in list(op.operands)[at + 1:at + 1 + rank]]
    vtype = (op.operands[value] if value is not None else op.results[0]).type
    vshape = list(ir.VectorType(vtype).shape) if isinstance(vtype, ir.VectorType) else []
    if op.name.startswith("vector.transfer"):
        _plain_transfer(op)
    if len(vshape) > rank:
        raise ValueError("a vector of more dimensions than its memref")
    view = ev.view(ref)
    out = []
    for d in itertools.product(*map(range, vshape)):
        moved = list(idx)
        for k, i in enumerate(d):
            moved[rank - len(vshape) + k] = moved[rank - len(vshape) + k] + i
        out.append(view.element(moved))
    return out


def _plain_transfer(op) -> None:
    """Raise ValueError unless transfer ``op`` has no mask, every dimension in bounds and
    the minor identity map (its vector along the memref's last dimensions)."""
    facts = transfer(op)
    if facts.masked or not all(facts.in_bounds) or not facts.minor_identity:
        raise ValueError("a masked or transposing transfer")
