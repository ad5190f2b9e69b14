"""A loop IREE pipelined through registers as the roll-backs read it
(:mod:`~pipeline_mlir.frontend.reroll_regs`, :mod:`~pipeline_mlir.frontend.reroll_carried`):
the parts of its loads of global memory (plain or IREE's guarded load), the select padding
a stored K row, the ops computing only for the stores, and the loop's body, late ops and
neighbours (:class:`Around`).
"""

from __future__ import annotations

from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import block_ops
from pipeline_mlir.dialect.ir_io import ops_of
from pipeline_mlir.frontend.guarded_load import folded, guarded
from pipeline_mlir.frontend.kernel_ir import in_lds, is_pure, users_of

LOAD, STORE, BARRIER, SELECT = "vector.load", "vector.store", "gpu.barrier", "arith.select"
SCHED_BARRIER = "amdgpu.sched_barrier"


def load_parts_of(op):
    """``(memref, indices, [(what, value)])`` of a load the roll-back moves: a
    ``vector.load`` of memory other than LDS (no more parts), or IREE's guarded load of it
    (:func:`~pipeline_mlir.frontend.guarded_load.guarded`: an ``scf.if`` on whether the
    run reaches the buffer's end, a ``vector.maskedload`` in one region and a
    ``vector.load`` and ``arith.select`` by the same mask in the other, how IREE loads a K
    tile that may be cut by an unaligned K), whose condition, mask and pass-through are
    parts too, or that load half folded (:func:`~pipeline_mlir.frontend.guarded_load.folded`:
    its mask the constant false in every lane, its else region yielding the pass-through
    alone, a copy of rows wholly past N such as B's rows 20 to 31 of bf16 ``A^T x B^T``
    7x20x1906), read as its masked load with the same parts; else None."""
    if op.name == LOAD and not in_lds(op.operands[0]):
        return op.operands[0], list(op.operands)[1:], []
    parts = guarded(op) if op.name == "scf.if" else None
    if parts is None:
        parts = folded(op)
    if parts is None:
        return None
    read = parts.masked if parts.load is None else parts.load
    n = ir.MemRefType(read.operands[0].type).rank
    if in_lds(read.operands[0]):
        return None
    return read.operands[0], list(read.operands)[1:1 + n], [
        ("guard", op.operands[0]), ("mask", parts.mask), ("pass-through", parts.passthrough)]


def inner_ops(op) -> list:
    """The ops of ``op``'s regions, in order (none for an op without regions)."""
    return [o for r in op.regions for o in ops_of(r)]


def padding_select(store):
    """The ``arith.select`` on a scalar ``i1`` whose value ``store`` writes, its only use:
    how IREE keeps or pads a K row of a ``K x N`` operand past an unaligned K, the select
    sunk to the row's LDS store (its load the select's true value); else None."""
    sel = _defining(store.operands[0]) if store.name == STORE else None
    if sel is None or sel.name != SELECT or users_of(sel.results[0]) != [store] or \
            not isinstance(sel.operands[0].type, ir.IntegerType):
        return None
    return sel


def stored_value(store):
    """The value the ``vector.store`` ``store`` writes, through the select padding it
    (:func:`padding_select`) if any."""
    pad = padding_select(store)
    return pad.operands[1] if pad is not None else store.operands[0]


def detached_ops(compute: list, tail: list) -> set:
    """The ops of ``compute`` (between a loop's barriers) free of memory effects whose
    results only the ``tail`` (after its second barrier) and other such ops use: IREE
    sinks a K row's padding select (:func:`padding_select`) and its condition there, above the
    second barrier; they belong with the stores they feed."""
    out: set = set()
    users_ok = set(tail)
    for o in reversed(compute):
        users = [u for r in o.results for u in users_of(r)]
        if users and is_pure(o) and all(u in users_ok or u in out for u in users):
            out.add(o)
    return out


def lds_roots(ops) -> set:
    """The LDS buffers the ``vector.store``\\ s of ``ops`` write (their view roots)."""
    return {view_root(s.operands[1]) for s in ops if s.name == STORE and in_lds(s.operands[1])}


class Around:
    """A loop as the roll-back reads it, once: its body's ops, those from its last MFMA on
    (none without one), the ops of its block before and after it; the parts of its loads
    (:func:`load_parts_of`), each op's found once."""

    def __init__(self, loop) -> None:
        self.ops = ops_of(loop.regions[0])
        mfmas = [i for i, o in enumerate(self.ops) if o.name == "amdgpu.mfma"]
        self.late = self.ops[mfmas[-1]:] if mfmas else []
        parent = block_ops(loop.block)
        at_loop = parent.index(loop)
        self.before, self.after = parent[:at_loop], parent[at_loop + 1:]
        self.parts: dict = {}

    def load_parts(self, op):
        """:func:`load_parts_of` of ``op``, found once."""
        if op not in self.parts:
            self.parts[op] = load_parts_of(op)
        return self.parts[op]

    def access_parts(self, op) -> tuple:
        """``(memref, indices, [(what, value)])`` of a load (:meth:`load_parts`) or an LDS
        ``vector.store`` (its stored value aside: the load it stores is compared itself)."""
        if op.name == STORE:
            return op.operands[1], list(op.operands)[2:], []
        return self.load_parts(op)

    def stored_load(self, store, block):
        """The load (:meth:`load_parts`) in ``block`` whose value the LDS ``vector.store``
        ``store`` writes, directly or kept by its padding select (:func:`padding_select`); else
        None."""
        if store.name != STORE or not in_lds(store.operands[1]):
            return None
        load = _defining(stored_value(store))
        if load is None or load.block != block or self.load_parts(load) is None:
            return None
        return load

    def global_loads(self, ops) -> set:
        """The values the loads of memory other than LDS among ``ops`` load
        (:meth:`load_parts`: guarded ones too)."""
        return {o.results[0] for o in ops if self.load_parts(o) is not None}
