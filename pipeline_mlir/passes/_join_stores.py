"""The LDS stores of a lane's register-staged pieces of one run joined into one store.

The front end copies a run that C's edge cuts at an odd size in pieces whose ends are the
cuts (:func:`pipeline_mlir.frontend.copy_widths.odd_pieces`: a run of 8 bf16 cut at one
element in pieces of 1, 1 and 6), each a register-staged copy whose lanes write LDS a run
apart (``sched.lane_stride``).  Staged in one slot, their stores follow one another, each
with its ``s_waitcnt lgkmcnt(0)``: ``ds_write_b16``, ``ds_write_b16``, ``ds_write_b96``,
the two narrow ones 2-way bank-conflicted (lanes 16 bytes apart: 32 lanes of a write phase
cover 512 bytes, two rows of banks; 4 cycles each where their 2 phases would take 2).
:func:`join_runs` makes such a sequence one ``vector.store`` of the pieces' values
concatenated (``vector.shuffle``), at the last one's place, followed by its wait: one
``ds_write_b128`` (8 write phases of 8 lanes, conflict-free).

It joins, in one block, ``vector.store`` ops into one 1-D workgroup buffer that a copy of
pieces writes (the caller names the buffers), when each one's index is the previous one's
plus that one's element count in every thread (linear forms over a thread-only evaluator,
:mod:`pipeline_mlir.analysis.id_forms`: the same lane address, a constant apart), the
joined store is 4, 8 or 16 bytes starting at a multiple of its size
(:func:`pipeline_mlir.analysis.twos.byte_offset_zeros` of the first index: a whole aligned run,
which LLVM writes with one instruction), and nothing between the first and the last ends
the window (:func:`_ends_window`): no barrier, no op with regions, no call or inline
assembly, no op on that buffer or on a workgroup memref that may alias it, and no wait
but the ``lgkmcnt(0)`` waits of stores staged in one slot (nothing else between two of
the stores: :func:`_one_slot_or_no_wait`).  Each staged store lands, as a DMA's write may, anywhere before the
first wait or barrier after its copy (its store point, where its ``lgkmcnt(0)`` wait
stands); the window has none, so the first store's point is the last one's, and the joined
store at the last one's place, followed by the last one's wait, is written before it too.
No op of this wave in between reads or writes those bytes.  The ``lgkmcnt(0)`` waits
between stores that followed one another with nothing else between (one staging slot) are
dropped, and a repeat of the wait right after the joined store; anything else is left.
"""

from __future__ import annotations

from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.barriers import BARRIERS, WAIT_OPS
from pipeline_mlir.analysis.ir_facts import block_size, element_bytes, memory_space
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.twos import byte_offset_zeros, zeros_of
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import ops_from
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_blocks, walk_ops
from pipeline_mlir.isa.waitcnt import waitcnt_imm

#: bytes a joined store may have: one ``ds_write_b32`` / ``b64`` / ``b128``
JOINED_BYTES = (4, 8, 16)
#: ops whose memory accesses are not their operands' (any of them may touch the LDS)
OPAQUE = ("func.call", "llvm.call", "llvm.inline_asm")


def _lgkm_only_zero(op) -> bool:
    """Whether ``op`` is an ``s_waitcnt`` for ``lgkmcnt(0)`` alone (what a staged store is
    followed by)."""
    return op.name == "rocdl.s.waitcnt" and \
        ir.IntegerAttr(op.attributes["bitfield"]).value == waitcnt_imm(lgkmcnt=0)


def _store_parts(op, buffers):
    """(buffer, index, elements) of a ``vector.store`` of a 1-D vector into one of
    ``buffers`` at one index, else None."""
    if op.name != "vector.store" or len(op.operands) != 3 or op.operands[1] not in buffers:
        return None
    t = ir.VectorType(op.operands[0].type)
    return (op.operands[1], op.operands[2], t.shape[0]) if t.rank == 1 else None


def join_runs(module, buffers) -> int:
    """Join the stores of each function of ``module`` into ``buffers`` (module docstring);
    the number of stores made."""
    buffers = set(buffers)
    if not buffers:
        return 0
    made = 0
    for fn in walk_ops(module, lambda o: o.name in ("func.func", "gpu.func")):
        size = block_size(fn)
        if size is None:
            continue
        forms = Forms(Evaluator(size, thread_only=True))
        for block in walk_blocks(fn):
            made += _join_block(block, buffers, forms)
    return made


def _join_block(block, buffers, forms) -> int:
    """The runs of ``block`` joined: each store that follows the run's last one extends
    it; ``between`` holds the ops after the run's first store that do not end the window,
    the first ``inside`` of them lying before its last store."""
    made, run, between, inside, since = 0, [], [], 0, []
    for o in [_op(x) for x in block.operations]:
        parts = _store_parts(o, buffers)
        if parts is not None and run and _one_slot_or_no_wait(since) and \
                _follows(run[-1], o, parts, forms):
            run.append(o)
            inside, since = len(between), []
        elif parts is not None:
            made += _close(run, between[:inside])
            run, between, inside, since = [o], [], 0, []
        elif run and not _ends_window(o, run[0].operands[1]):
            between.append(o)
            since.append(o)
        else:
            made += _close(run, between[:inside])
            run, between, inside, since = [], [], 0, []
    return made + _close(run, between[:inside])


def _one_slot_or_no_wait(ops: list) -> bool:
    """Whether the ops between two stores are only ``lgkmcnt(0)`` waits (the stores' own,
    staged in one slot) or hold no wait at all: a wait among other ops may be the store
    point of the store before (the schedule's wait), which its write must precede."""
    waits = [o for o in ops if _lgkm_only_zero(o)]
    return not waits or len(waits) == len(ops)


def _ends_window(op, buf) -> bool:
    """Whether ``op`` may not lie between two stores into ``buf`` that are joined: a
    barrier, an op with regions, a call or inline assembly (:data:`OPAQUE`), a wait other than ``lgkmcnt(0)`` alone (the one after a
    staged store, or at its store point), or an op that uses ``buf`` or a workgroup memref
    that may alias it (anything but another ``memref.alloc``)."""
    if len(op.regions) or op.name in BARRIERS + OPAQUE or \
            (op.name in WAIT_OPS and not _lgkm_only_zero(op)):
        return True
    for v in op.operands:
        if isinstance(v.type, ir.MemRefType) and memory_space(v.type) == "workgroup" and \
                (v == buf or not _alloc(v) or not _alloc(buf)):
            return True
    return False


def _alloc(v) -> bool:
    return not isinstance(v.owner, ir.Block) and _op(v.owner).name == "memref.alloc"


def _follows(prev, op, parts, forms) -> bool:
    """Whether store ``op`` writes just after store ``prev``: the same buffer, an index
    ``prev``'s element count further in every thread."""
    buf, index, _n = parts
    pbuf, pindex, pn = _store_parts(prev, {buf}) or (None, None, 0)
    if pbuf is None or ir.VectorType(op.operands[0].type).element_type != \
            ir.VectorType(prev.operands[0].type).element_type:
        return False
    return forms.form(index).plus(forms.form(pindex), -1).constant() == pn


def _close(run: list, inside: list) -> int:
    """The stores of ``run`` joined at the last one's place when they make a whole
    aligned run (module docstring); the waits between them (``inside``: the ops between
    its first and its last store) dropped when nothing else stood there (one staging
    slot); 1 when joined."""
    if len(run) < 2:
        return 0
    first = run[0]
    t = ir.VectorType(first.operands[0].type)
    eb = element_bytes(t)
    n = sum(ir.VectorType(s.operands[0].type).shape[0] for s in run)
    if n * eb not in JOINED_BYTES or \
            byte_offset_zeros(first.operands[2], t) < zeros_of(n * eb):
        return 0
    last = run[-1]
    drop = inside if all(_lgkm_only_zero(o) for o in inside) else []
    with ir.InsertionPoint(last), last.location:
        value = run[0].operands[0]
        for s in run[1:]:
            a, b = ir.VectorType(value.type).shape[0], ir.VectorType(s.operands[0].type).shape[0]
            value = B.vector.shuffle(value, s.operands[0], list(range(a + b)))
        store = _op(B.vector.store(value, first.operands[1], [first.operands[2]]))
    for op in [*run, *drop]:
        op.erase()
    _drop_repeated_waits(store)
    return 1


def _drop_repeated_waits(store) -> None:
    """The ``lgkmcnt(0)`` waits right after the first one that follows ``store`` (the
    joined store) dropped: with nothing between them, the first waits for all."""
    # (read from the store to the last of those waits: not the whole block, which is long
    # and which each joined store read again before)
    seen, repeated = 0, []          # seen: 0 at the store, 1 at the wait after it, 2 after
    for o in ops_from(store):
        if not seen:
            seen = 1
            continue
        if not _lgkm_only_zero(o):
            break
        if seen == 2:
            repeated.append(o)
        seen = 2
    for o in repeated:
        o.erase()

