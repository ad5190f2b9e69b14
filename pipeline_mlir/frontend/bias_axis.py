"""Which side of C an epilogue input of as many elements as C has rows and columns follows.

IREE's bias of a square C (M == N) is a vector of M elements read per row or per column:
the length does not tell.  :func:`follows_axis` moves the workgroup (each workgroup id or
mapped ``scf.forall`` index from 0 to 1, the others at 0) and compares how far the element
the input's read reads moves with how far the row and the column of the output element
the writer writes move (thread 0's, the loops around each at their first iteration): the
input follows the side that moves with it at every move.  Where no workgroup move moves C
(a grid of one workgroup, IREE's kernel of a tile that covers C), the threads tell
instead: over the workgroup's threads, the input's element moves with the written
element's column or its row (:func:`_thread_follows`).  Neither or both: refused at the
read, saying so.  Whichever side is chosen, the epilogue reader then ties every read to
C's tiles that way (``epilogue.tie_reads``) and ``--emulate`` compares C element by
element with the side chosen.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.output_tiles import view_sizes
from pipeline_mlir.analysis.vector_index import Vectors
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.epilogue_ops import COPIES, MAP_LOAD, READS, WRITES, gathered
from pipeline_mlir.frontend.gather_order import enclosing_first
from pipeline_mlir.frontend.kernel_ir import describe


def follows_axis(f, read, writer, mn, name: str) -> list[str]:
    """["column"] or ["row"]: which index of C the element ``read`` reads follows (``mn``:
    C's rows and columns; ``writer``: a write of C; ``name``: the input's, for messages)."""
    from pipeline_mlir.analysis.ir_facts import WORKGROUP_ID_OPS, block_size, mapped_forall
    from pipeline_mlir.analysis.loop_eval import Evaluator

    M, N = mn
    sources = [a for o in walk_ops(f, mapped_forall) for a in o.regions[0].blocks[0].arguments]
    sources += [o.results[0] for o in walk_ops(f, lambda o: o.name in WORKGROUP_ID_OPS)]
    ev = Evaluator(block_size(f) or (256, 1, 1))
    moves = []
    try:
        for s in sources:
            at = []
            for val in (0, 1):
                for x in sources:
                    ev.bind(x, 1 * val if x == s else 0)
                at.append((_element0(ev, read, READS.get(read.name, 0)),
                           _element0(ev, writer, WRITES[writer.name][1])))
            (r0, w0), (r1, w1) = at
            (i0, j0), (i1, j1) = divmod(w0 % (M * N), N), divmod(w1 % (M * N), N)
            moves.append((r1 - r0, i1 - i0, j1 - j0))
        found = [o for o, k in (("column", 2), ("row", 1)) if all(m[0] == m[k] for m in moves)]
        if all(m[1] == m[2] == 0 for m in moves):       # no workgroup moves C
            for x in sources:
                ev.bind(x, 0)
            found = _thread_follows(ev, read, writer, mn)
    except (IRError, ValueError) as e:
        raise IRError(read, f"{describe(read)}: {name} has as many elements as C has rows "
                            f"and columns, and how it follows them could not be evaluated "
                            f"({e})") from None
    if len(found) != 1:
        raise IRError(read, f"{describe(read)}: {name} has as many elements as C has rows "
                            f"and columns, and the element it reads follows "
                            f"{'both' if found else 'neither'} as the workgroup and its "
                            f"threads move")
    return found


def _thread_follows(ev, read, writer, mn) -> list[str]:
    """The sides of C (["column"], ["row"], both or none) that the element ``read`` reads
    follows over the workgroup's threads: its move from the first thread's equal, in every
    thread whose accesses are inside their memrefs (the others, past C's edge, clamp or
    are guarded off; a copy's first element, inside where its view is not empty; a
    scatter's first lane its mask keeps, where it keeps one; a gather's first element),
    to the move of the column (the row) of the output element ``writer`` writes there.
    None where the threads do not move that element."""
    M, N = mn
    r, r_in, _ = _elements(ev, read, READS.get(read.name, 0))
    w, w_in, _ = _elements(ev, writer, WRITES[writer.name][1])
    inside = np.flatnonzero(r_in & w_in)
    if len(inside) < 2:
        return []
    r, w = r[inside], w[inside] % (M * N)
    rows, cols = w // N, w % N
    moved = r - r[0]
    if not (rows - rows[0]).any() and not (cols - cols[0]).any():
        return []
    return [o for o, d in (("column", cols - cols[0]), ("row", rows - rows[0]))
            if np.array_equal(moved, d)]


def _elements(ev, op, memref_at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per thread, the element of its root buffer that ``op``'s access starts at, the loops
    around it at their first iteration (a plain read or write's; a copy's target's first
    element; a ``vector.scatter``'s first lane its mask keeps, at its base plus that lane's
    offset; a ``map_load``'s source element its region gathers into the first destination
    element); whether it is inside the memref (its indices within the static shape, or the
    sizes the ``memref.subview`` making it gives each thread: IREE's per-thread views of an
    edge tile, empty past C's edge; a size known no other way bounds nothing; a scatter
    keeping a lane); and whether it accesses anything (a scatter keeping a lane)."""
    enclosing_first(ev, op)
    if op.name == MAP_LOAD:
        ref, yielded = gathered(op)
        for a in op.regions[0].blocks[0].arguments:
            ev.bind(a, 0)
    else:
        ref = op.operands[memref_at]
        yielded = list(op.operands)[memref_at + 1:]
    shape = ir.MemRefType(ref.type).shape
    idx = [np.zeros(ev.threads, dtype=np.int64)] * len(shape) if op.name in COPIES else \
        [np.broadcast_to(ev.value(x), (ev.threads,)) for x in yielded[:len(shape)]]
    try:
        sizes = view_sizes(ev, op, ref)
    except IRError:
        sizes = [np.full(ev.threads, n if n >= 0 else np.iinfo(np.int64).max) for n in shape]
    inside = np.ones(ev.threads, dtype=bool)
    for i, n in zip(idx, sizes):
        inside &= (i >= 0) & (i < n)
    view = ev.view(ref)
    element = np.asarray(view.element(idx))
    if op.name == "vector.scatter":      # from its first lane its mask keeps
        vec = Vectors(ev)
        offsets = vec.value(op.operands[memref_at + 1 + len(shape)])
        kept = vec.value(op.operands[memref_at + 2 + len(shape)]) != 0
        first = kept.argmax(axis=1)
        element = element + offsets[np.arange(ev.threads), first] * view.strides[-1]
        kept = kept.any(axis=1)
        return element, inside & kept, kept
    return element, inside, np.ones(ev.threads, dtype=bool)


def _element0(ev, op, memref_at: int) -> int:
    """The element of its root buffer that thread 0's access of ``op`` starts at
    (:func:`_elements`: a scatter's first lane its mask keeps, as the output's tiles read
    it, ``output_tiles._written``; a ``map_load``'s first destination element's source, as
    ``epilogue._tie_gather`` evaluates it)."""
    element, _inside, kept = _elements(ev, op, memref_at)
    if not kept[0]:
        raise IRError(op, f"{describe(op)}: thread 0 of the workgroup writes no element of the "
                          f"output with it (its mask keeps no lane)")
    return int(element[0])
