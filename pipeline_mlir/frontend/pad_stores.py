"""Stores of the padding into LDS made the kept copies they were folded from.

IREE pads a register copy whose rows lie past C's edge with ``arith.select %c, %load,
%zero``.  In the one tile along M or N (the i8 ``A x B^T`` 33x257x512: A's 64-row tile over
M = 33) a copy of rows 48 to 63 lies wholly past the edge in every thread and iteration:
at IREE's prefetch point its select is false in every thread (kept in the copy as a read
past the end of the buffer, :mod:`~pipeline_mlir.frontend.kept_masks`), while IREE's later
passes fold the select and drop the load, so the late form stores the constant zero
(``vector.store %cst, %lds[...]``), which the scan refuses as a write it cannot move.

:func:`pad_stores_as_copies` gives such a store its copy back, so both forms make one
kernel: a store directly in the K-loop's body of a constant with every bit clear
(:func:`~pipeline_mlir.analysis.ir_facts.zero_bits`) into an LDS memref that a register
copy of the same body also stores into (the *sibling*: ``vector.load`` of a global buffer,
or an ``arith.select`` of one, stored with ``vector.store`` of the same memref value and
vector type) becomes ``arith.select %false, vector.load G[i], %zero`` of the sibling's
buffer ``G``, ``i`` the sibling's index moved by the store's offset from the sibling's
(``i_d = g_d + (s_d - t_d)``: the element the copy would have read, were the LDS tile the
translation of the global one that the sibling's copy is).  The select is false in every
thread and iteration, so :mod:`~pipeline_mlir.frontend.kept_masks` keeps it as it keeps
the prefetch point's (its lanes read past the end of the range-checked buffer: zeros, the
padding), with the same checks and refusals; the index only says which elements the
kernel would have read, for the proofs that compare copies (a wrong one refuses, never
changes a value).  A store of a half-folded guarded load (below) with no such sibling
takes the index of the masked load the guard folded (the LDS tile flat where the global
buffer is 2-D, so that no copy of its rank says it: f16 ``C += A x B^T`` + a bias of M
48x148x878's late form, whose guard reads A's rows 48 to 63 at row 48, past the end).  A
store of the constant itself into a flat LDS tile whose siblings read a buffer of 2 or
more dimensions (f16 and bf16 ``A^T x B^T`` 5x24x1000's late form: B's rows 24 to 31 of
its 32-row tile over N = 24, whose copy IREE's later passes fold whole) takes the last
sibling's index with its first the buffer's first size, the first row past its end,
where IREE's prefetch point clamps that copy's rows (:func:`_flat_sibling`); any other
store without a sibling is left as it is, for the scan to refuse.

With K not a multiple of the K step (the i8 ``A x B^T`` 33x257x1000) IREE's late form
keeps each copy of the loop in its guarded load (:mod:`~pipeline_mlir.frontend.guarded_load`),
and that of rows 48 to 63 only half folded: its mask the constant false, its else region
yielding the zero pass-through (:func:`~pipeline_mlir.frontend.guarded_load.folded_guard`),
whose value is that zero on either branch; it is taken as the padding it stores, and the
``scf.if`` erased.  Its siblings there are guarded loads (their else region's ``vector.load``
gives the buffer and index) or the reads :mod:`~pipeline_mlir.frontend.masked_rows_k_late`
made of them (a ``vector.transfer_read`` of the range-checked buffer), taken the same way.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import memory_space, zero_bits
from pipeline_mlir.frontend.guarded_load import folded_guard, guarded
from pipeline_mlir.frontend.kernel_ir import in_lds
from pipeline_mlir.frontend.masked_rows import erase_tree
from pipeline_mlir.frontend.masked_rows_k_late import past_end_everywhere
from pipeline_mlir.frontend.scan import GLOBAL_SPACES

__all__ = ["pad_stores_as_copies"]


def _copied_load(v):
    """The read of a global buffer that ``v`` is (its buffer operand 0, its index the next
    ones): a ``vector.load``, one an ``arith.select`` selects as its true operand or a
    guarded load's else region reads, a ``vector.transfer_read``; else None."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    if o.name == "arith.select":
        return _copied_load(o.operands[1])
    if o.name == "scf.if":
        parts = guarded(o)
        o = None if parts is None else parts.load
    if o is None or o.name not in ("vector.load", "vector.transfer_read") or \
            memory_space(o.operands[0].type) not in GLOBAL_SPACES:
        return None
    return o


def _padding(v):
    """The constant with every bit clear that ``v`` is, or that the half-folded guarded
    load ``v`` yields on either branch (module docstring); else None."""
    if zero_bits(v):
        return v
    if isinstance(v.owner, ir.Block) or _op(v.owner).name != "scf.if":
        return None
    pad = folded_guard(_op(v.owner))
    return pad if pad is not None and zero_bits(pad) else None


def _siblings(store, before: list) -> list:
    """The register copies of ``before`` (the ops of the body before ``store``: their
    load, their store), last first, that store into ``store``'s memref value a vector of
    ``store``'s type."""
    out = []
    for o in reversed(before):
        if o.name != "vector.store" or o.operands[1] != store.operands[1] \
                or o.operands[0].type != store.operands[0].type:
            continue
        load = _copied_load(o.operands[0])
        if load is not None:
            out.append((load, o))
    return out


def _sibling(store, before: list):
    """The last sibling (:func:`_siblings`) whose indices are of the store's rank and
    types, else None."""
    n = ir.MemRefType(store.operands[1].type).rank
    for load, o in _siblings(store, before):
        if ir.MemRefType(load.operands[0].type).rank == n and all(
                load.operands[1 + d].type == store.operands[2 + d].type for d in range(n)):
            return load, o
    return None


def _flat_sibling(store, before: list):
    """(the global buffer, its first size, the indices) of the last sibling
    (:func:`_siblings`) of another rank than ``store``'s LDS tile (a flat tile of a 2-D
    buffer, which no index moved by the stores' offset translates), of a buffer of static
    first size; None without one.  The copy ``store`` was folded from is read at that
    size, the first row past the buffer's end, and the sibling's other indices: where
    IREE's prefetch point clamps the rows of a copy wholly past C's edge (B's rows 24 to
    31 of f16 ``A^T x B^T`` 5x24x1000, in a flat LDS tile, read at row 24)."""
    if ir.MemRefType(store.operands[1].type).rank != 1:
        return None
    for load, _o in _siblings(store, before):
        t = ir.MemRefType(load.operands[0].type)
        if t.rank >= 2 and not ir.ShapedType.is_dynamic_size(t.shape[0]):
            return load.operands[0], t.shape[0], list(load.operands[1:1 + t.rank])
    return None


def _moved_index(store, sib) -> tuple:
    """(the sibling's buffer, its index moved by ``store``'s offset from the sibling's
    store) for the sibling ``sib`` (:func:`_sibling`); built before ``store``."""
    load, other = sib
    idx = []
    for d in range(ir.MemRefType(store.operands[1].type).rank):
        g, s, t = load.operands[1 + d], store.operands[2 + d], other.operands[2 + d]
        moved = ir.Operation.create("arith.subi", results=[s.type], operands=[s, t]).results[0]
        idx.append(ir.Operation.create("arith.addi", results=[g.type],
                                       operands=[g, moved]).results[0])
    return load.operands[0], idx


def _past_row(flat) -> tuple:
    """(the buffer, the index) of :func:`_flat_sibling`'s ``flat``, the first index its
    first size; built at the insertion point."""
    buffer, rows, idx = flat
    t = idx[0].type
    row = ir.Operation.create("arith.constant", results=[t], attributes={
        "value": ir.IntegerAttr.get(t, rows)}).results[0]
    return buffer, [row] + idx[1:]


def _folded_read(guard):
    """(the global buffer, the indices) of the masked load in the then region of the
    half-folded guarded load ``guard`` (:func:`~pipeline_mlir.frontend.guarded_load.
    folded_guard`): the read the guard folded, taken where no sibling says the index (an
    LDS buffer of another rank than the global one: f16 ``C += A x B^T`` + a bias of M
    48x148x878's flat LDS tile of A, whose rows 48 to 63 the guard reads at row 48, past
    the end); None when that load does not read a global buffer."""
    masked = _op(guard.regions[0].blocks[0].operations[0])
    buffer = masked.operands[0]
    if memory_space(buffer.type) not in GLOBAL_SPACES:
        return None
    n = ir.MemRefType(buffer.type).rank
    return buffer, list(masked.operands[1:1 + n])


def pad_stores_as_copies(loop) -> int:
    """Each store of the padding in ``loop``'s body that has a sibling copy made the kept
    copy it was folded from (module docstring); the number made.  The sibling comes before the store
    (its indices defined there)."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    made = 0
    for i, st in enumerate(body):
        pad = None if st.name != "vector.store" or not in_lds(st.operands[1]) \
            else _padding(st.operands[0])
        if pad is None:
            continue
        folded = _op(st.operands[0].owner) if st.operands[0] != pad else None
        sib = _sibling(st, body[:i])
        own = None if sib is not None or folded is None else _folded_read(folded)
        flat = None if sib is not None or own is not None else _flat_sibling(st, body[:i])
        if own is None and sib is None and flat is None:
            continue
        with ir.InsertionPoint(st), st.location:
            if own is not None:         # (no sibling: the masked load the guard folded)
                buffer, idx = own
            else:
                buffer, idx = _moved_index(st, sib) if sib is not None else _past_row(flat)
            i1 = ir.IntegerType.get_signless(1)     # (before the load: the kept index's)
            false = ir.Operation.create("arith.constant", results=[i1], attributes={
                "value": ir.IntegerAttr.get(i1, 0)}).results[0]
            new = ir.Operation.create("vector.load", results=[st.operands[0].type],
                                      operands=[buffer, *idx]).results[0]
            width = ir.VectorType(new.type).shape[0]
            plain = folded is not None and past_end_everywhere(st, loop, buffer, idx, width)
            sel = new if plain else ir.Operation.create(
                "arith.select", results=[new.type], operands=[false, new, pad]).results[0]
        st.operands[0] = sel
        if plain:
            _op(false.owner).erase()
        if folded is not None and not list(folded.results[0].uses):
            erase_tree(folded)
        made += 1
    return made
