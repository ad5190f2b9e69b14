"""Whether the input starts every accumulator of its K-loop from a masked read, else a zero.

IREE's ``C += A x B^T`` with C cut at an edge reads C's initial value element by element
under a guard, the element past the edge the constant zero: its late form an ``scf.if``
per element (the then-branch one ``memref.load`` of global memory, yielded; the else-branch
the zero) stored into a private buffer, its prefetch point an ``iree_linalg_ext.map_load``
of C into that buffer padded with the zero; the accumulators the loop carries start from
reads of the buffer.  LLVM may hold such a guard uniform in the wave and branch around the
load's block on ``scc`` or ``vcc``: the register then starts from the load on one path and
from the zero on the other, which the ISA gate's ``acc-init`` refuses as two starts of one
chain unless told that the input itself starts it so (:attr:`~pipeline_mlir.kernel.plan.
KernelPlan.masked_starts`, :mod:`pipeline_mlir.isa.acc_inits`).

:func:`masked_starts` says so when every accumulator the loop carries (each iter_arg the
loop yields an MFMA's result for) starts from values that come, through the ops that only
move elements (``vector.from_elements``, ``extract``, ``insert``, ``shape_cast``,
``broadcast``, their strided forms, and ``scf.for`` results and iter_args: each init and
yield followed), from a zero constant or from reads of private buffers (a transfer unmasked
and in bounds), and every write of each such buffer before the loop (through its views;
those after it stage the loop's results) is a masked read of global memory whose else value
is a zero (the ``scf.if`` above, a ``map_load`` padded with a zero, a masked
``vector.transfer_read`` padded with a zero: the prefetch point's read of a lane's C rows
where they cross C's edge) or a zero; at least one
such masked read exists, and no loop runs the K-loop again (a write after it could reach
the next run's reads).  Whether each element read was written is not held.  Anything else (a plain read of C, another constant, a value
computed, a buffer written another way or passed on): False, and the rule keeps refusing.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import (enclosing_ops, memory_space, segments, transfer,
                                             zero_bits)
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.epilogue_ops import MAP_LOAD
from pipeline_mlir.frontend.tagged import instruction_kinds

__all__ = ["masked_starts"]

#: ops whose result is made only of their vector and scalar operands' elements
_MOVES = frozenset({"vector.from_elements", "vector.extract", "vector.insert",
                    "vector.shape_cast", "vector.broadcast", "vector.extract_strided_slice",
                    "vector.insert_strided_slice"})
_READS = frozenset({"memref.load", "vector.load", "vector.transfer_read"})
_VIEWS = frozenset({"memref.subview", "memref.expand_shape", "memref.collapse_shape",
                    "memref.cast", "memref.reinterpret_cast"})
_LOADS = frozenset({"memref.load", "vector.load"})
#: the memory spaces a masked read of the input reads (a binding)
_GLOBAL = frozenset({"global", "fat_raw_buffer"})


def masked_starts(loop) -> bool:
    """Whether the input starts every accumulator ``loop`` (an ``scf.for``) carries from
    masked reads whose else value is a zero, or zeros, with one masked read at least
    (module docstring)."""
    body = loop.regions[0].blocks[0]
    yields = list(_op(list(body.operations)[-1]).operands)
    inits = list(loop.operands)[3:]
    accs = [v for v, y in zip(inits, yields)
            if not isinstance(y.owner, ir.Block) and instruction_kinds(_op(y.owner)) == ["mfma"]]
    buffers: list = []
    seen: set = set()
    if not accs or _in_a_loop(loop) or not all(_starts(v, buffers, seen) for v in accs):
        return False
    later = _later(loop)
    masked = [_writes(b, later) for b in buffers]
    return bool(buffers) and None not in masked and any(masked)


def _in_a_loop(op) -> bool:
    """Whether ``op`` lies in a loop that runs its iterations one after another (a write
    after the K-loop could then reach the next iteration's reads)."""
    return any(o.name in ("scf.for", "scf.while") for o in enclosing_ops(op))


def _later(loop) -> list:
    """The ops after ``loop`` in its block: their writes come after the reads the loop's
    initial values are (the epilogue's results staged back into the buffer)."""
    ops = list(loop.parent.regions[0].blocks[0].operations) \
        if len(loop.parent.regions) == 1 else []
    ops = [_op(o) for o in ops]
    return ops[ops.index(loop) + 1:] if loop in ops else []


def _is_later(op, later: list) -> bool:
    """Whether ``op`` is one of ``later`` or lies inside one."""
    return op in later or any(p in later for p in enclosing_ops(op))


def _starts(v, buffers: list, seen: set) -> bool:
    """Whether value ``v`` is made of zero constants and reads of private buffers (added
    to ``buffers``), through element moves and loops; ``seen``: the values walked."""
    if v in seen:
        return True
    seen.add(v)
    owner = v.owner
    if isinstance(owner, ir.Block):       # an iter_arg of an scf.for: its init and yield
        loop = owner.owner
        n = ir.BlockArgument(v).arg_number
        if loop is None or _op(loop).name != "scf.for" or n == 0:
            return False
        return all(_starts(c, buffers, seen) for c in _carried(_op(loop), n - 1))
    op = _op(owner)
    if op.name == "arith.constant":
        return zero_bits(v)
    if op.name == "scf.for":
        return all(_starts(c, buffers, seen)
                   for c in _carried(op, ir.OpResult(v).result_number))
    if op.name in _MOVES:
        return all(_starts(o, buffers, seen) for o in op.operands
                   if not isinstance(o.type, ir.IndexType))
    if op.name in _READS:
        root = _root(op.operands[0])
        if root is None or (op.name == "vector.transfer_read" and not _whole(op)):
            return False
        if root not in buffers:
            buffers.append(root)
        return True
    return False


def _carried(loop, i: int) -> tuple:
    """The ``i``-th value ``scf.for`` ``loop`` carries: its initial value and what the
    body yields for it (an iter_arg and a result stand for both)."""
    yielded = _op(list(loop.regions[0].blocks[0].operations)[-1])
    return loop.operands[3 + i], yielded.operands[i]


def _whole(op) -> bool:
    """Whether transfer ``op`` reads no padding: unmasked, every dimension in bounds."""
    t = transfer(op)
    return not t.masked and all(t.in_bounds)


def _root(m):
    """The private ``memref.alloca`` memref ``m`` views, else None."""
    while not isinstance(m.owner, ir.Block) and _op(m.owner).name in _VIEWS:
        m = _op(m.owner).operands[0]
    if isinstance(m.owner, ir.Block) or _op(m.owner).name != "memref.alloca" or \
            not isinstance(m.type, ir.MemRefType) or memory_space(m.type) != "private":
        return None
    return m


def _writes(buffer, later: list):
    """Over every use of ``buffer`` and its views but those after the K-loop (``later``):
    None when one writes it otherwise than with a masked read whose else value is a
    zero, or a zero, or passes it on; else whether one writes a masked read."""
    masked = False
    for use in list(buffer.uses):
        op = _op(use.owner)
        if _is_later(op, later):
            continue
        if op.name in _VIEWS:
            inner = _writes(op.results[0], later)
            if inner is None:
                return None
            masked |= inner
        elif op.name in _READS and use.operand_number == 0:
            continue
        elif op.name in ("memref.store", "vector.store", "vector.transfer_write") and \
                use.operand_number == 1:
            got = _masked_value(op.operands[0])
            if got is None:
                return None
            masked |= got
        elif op.name == MAP_LOAD and use.operand_number == 1:
            if not _padded_map_load(op):
                return None
            masked = True
        else:
            return None
    return masked


def _masked_value(v):
    """True: ``v`` is an ``scf.if`` whose then-branch yields one load of global memory
    and whose else-branch yields a zero, or a masked transfer of global memory padded with
    a zero (:func:`_masked_transfer`); False: a zero; None: anything else."""
    if zero_bits(v):
        return False
    if not isinstance(v.owner, ir.Block) and _op(v.owner).name == "vector.transfer_read":
        return _masked_transfer(_op(v.owner))
    if isinstance(v.owner, ir.Block) or _op(v.owner).name != "scf.if":
        return None
    op = _op(v.owner)
    n = ir.OpResult(v).result_number
    blocks = [list(r.blocks) for r in op.regions]
    if len(blocks) != 2 or any(len(b) != 1 for b in blocks):
        return None
    then = [_op(o) for o in blocks[0][0].operations]
    other = [_op(o) for o in blocks[1][0].operations]
    got = then[-1].operands[n]
    if isinstance(got.owner, ir.Block) or _op(got.owner).name not in _LOADS or \
            _op(got.owner) not in then or \
            memory_space(_op(got.owner).operands[0].type) not in _GLOBAL:
        return None
    return True if zero_bits(other[-1].operands[n]) else None


def _masked_transfer(op):
    """True: ``vector.transfer_read`` ``op`` reads global memory under a mask or past a
    dimension not in bounds, its padding a zero (IREE's prefetch point's read of C's rows
    in a lane's run, ``vector.create_mask`` of the rows inside C); None else (a read of C
    that pads nothing is no masked read; another padding is another start)."""
    t = transfer(op)
    if memory_space(op.operands[0].type) not in _GLOBAL or not t.minor_identity or \
            (not t.masked and all(t.in_bounds)) or not zero_bits(segments(op)[2][0]):
        return None
    return True


def _padded_map_load(op) -> bool:
    """Whether ``map_load`` ``op`` reads global memory, padded with a zero."""
    block = op.regions[0].blocks[0]
    pad = list(_op(list(block.operations)[-1]).operands)[-1]
    return isinstance(op.operands[0].type, ir.MemRefType) and \
        memory_space(op.operands[0].type) in _GLOBAL and zero_bits(pad)
