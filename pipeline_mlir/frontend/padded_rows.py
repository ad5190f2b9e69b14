"""Private memory filled with a binding's rows and constant rows past its last one.

IREE's late form of a ``C += A x B^T`` whose C has fewer rows than the workgroup tile
(fp8 24 x 327 x 1044: a tile of 32 rows) reads each thread's tile of C into private
memory one whole row at a time, row ``r`` of the allocation from row ``r`` of C, and
fills the rows past C's last with a constant (IREE's pad)::

    %x = vector.load %c[%c23, %col] : memref<24x327xf32, ...>, vector<64xf32>
    %y = arith.select %m, %x, %zero ...           (select_read.py: a read of C)
    vector.store %y, %tile[%c23, %c0] : memref<32x64xf32, private>, vector<64xf32>
    vector.store %zero, %tile[%c24, %c0] : memref<32x64xf32, private>, vector<64xf32>

:func:`padded_rows` takes such writes as the read of the binding: every write a
``vector.store`` of a whole row of the allocation at constant indices (column 0), each
of the binding's rows stored at its own row (the load's row index that same constant, in
a memref of the binding's own shape: no offset), each constant one at a row the binding
does not have (at or past its first dimension's size), no row written twice.  The
constant then only stands for rows wholly outside C; where one reached C, ``--emulate``
compares C element by element and finds it.  Anything else returns None (the caller
refuses the read, naming two of its writes).
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir


def padded_rows(writes: list, root, bindings: list):
    """The one binding-read tree of ``writes`` (pairs of a write op of private memory
    ``root`` and the tree it stores) when the rest are constant rows past that binding's
    rows (module docstring); else None."""
    reads = [(w, n) for w, n in writes if n.kind != "const"]
    if not reads or len(reads) == len(writes) or len({n for _, n in reads}) != 1 \
            or reads[0][1].kind != "read":
        return None
    binding = bindings[reads[0][1].value]
    extent = _static(binding.type)
    rows = [_row(w, root) for w, _ in writes]
    if extent is None or None in rows or len(set(rows)) != len(rows):
        return None
    for (w, n), row in zip(writes, rows):
        if n.kind == "const" and row < extent[0]:
            return None
        if n.kind == "read" and _load_row(n.op, binding) != row:
            return None
    return reads[0][1]


def _static(t) -> tuple | None:
    """``t``'s shape when it is a memref of static shape, else None."""
    if not isinstance(t, ir.MemRefType) or not t.has_static_shape:
        return None
    return tuple(t.shape)


def _row(w, root) -> int | None:
    """The row a ``vector.store`` of a whole row of 2-D ``root`` (itself, not a view)
    writes, at constant indices; None for any other write."""
    shape = _static(root.type)
    if w.name != "vector.store" or shape is None or len(shape) != 2 \
            or w.operands[1] != root or len(w.operands) != 4:
        return None
    t = w.operands[0].type
    if not isinstance(t, ir.VectorType) or tuple(t.shape) != (shape[1],):
        return None
    row, col = (constant_int(x) for x in w.operands[2:])
    return row if col == 0 and row is not None and 0 <= row < shape[0] else None


def _load_row(load, binding) -> int | None:
    """The constant row of 2-D ``binding`` a ``vector.load`` reads, through views of the
    binding's own shape (so at no offset); None otherwise."""
    if load is None or load.name != "vector.load" or len(load.operands) != 3:
        return None
    ref = load.operands[0]
    shape = _static(binding.type)
    if view_root(ref) != binding or shape is None or len(shape) != 2 \
            or _static(ref.type) != shape:
        return None
    return constant_int(load.operands[1])
