"""One address register for the fragment reads that lie a constant apart.

The front end emits each fragment read's LDS index from the natural loop's own index
arithmetic, mapped onto the schedule's buffers (swizzles, deleted bits, windows:
``adopt._Rewriter._lds_index``).  Those maps hide from LLVM that two reads of one lane lie a
fixed number of elements apart, so it keeps a loop-invariant address register for nearly
every read: 16 in IREE's 16-wave 256x256 kernel, 22 in its 8-wave one (4 and 5 shared).
A kernel of at most one wave per SIMD has the registers to spare; more waves share a SIMD's
register file (two waves per SIMD: 256 registers each, four: 128), and there these
registers push the accumulators and fragments into scratch.

:class:`ReadBases` evaluates each new read index for every thread of the workgroup (the
address analysis' evaluator, :mod:`pipeline_mlir.analysis.loop_eval`); an index that is,
for every thread, an earlier read's plus one non-negative constant is emitted as that sum,
which LLVM folds into the ``ds_read`` offset.  The proof is per thread and holds in every
workgroup and launch: an index is shared only if it is computed from thread ids and
constants alone (integer arithmetic, affine maps; no workgroup id, kernel argument, size
known at launch, memory or block argument: the evaluator's ``thread_only`` mode refuses
any) and the evaluator's exact integers are the
machine's for every op on the way (no result wraps its type, no unsigned operation sees a
negative operand: :func:`~pipeline_mlir.analysis.exact_ints.exact_on_machine`); any other
index keeps its own arithmetic.
Kernels of at most one wave per SIMD are not changed, nor the ping-pong kernels
(:func:`shares_read_bases`).  The sums are emitted with ``ix``, the rewriter's index
emitter.

The same kernels' DMA copies (``amdgpu.gather_to_lds``) take their LDS address from ``M0``,
one value for the wave.  An LDS index computed from the thread id is one value per wave
when the wave's index (``tid / 64``) is its only thread-dependent term, but LLVM's
divergence analysis takes anything computed from the thread id for lane-varying: it keeps
the address in a VGPR and fills ``M0`` with a ``v_readfirstlane`` at every copy, a VGPR
per copy that the loop's register budget pays (pipeline-opt's own LLVM step proves the
address uniform itself: ``sched-buffer-soffset``; ``iree-compile``, given the pipelined
kernel back, does not).  :meth:`ReadBases.wave_uniform` evaluates such an index for every
thread (the same proof of exactness) and, when every wave's 64 lanes agree and the value
fits a non-negative i32, emits it through ``rocdl.readfirstlane``: the same value, which
LLVM then keeps in an SGPR.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.exact_ints import exact_on_machine
from pipeline_mlir.analysis.ir_facts import enclosing_ops
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.target.gfx950 import SIMDS_PER_CU, WAVE_SIZE

def _ops_of(value) -> list | None:
    """The ops ``value`` is computed with; None if a block argument is on the way (which a
    thread-only evaluation of ``value`` refuses first)."""
    seen, todo = {}, [value]
    while todo:
        v = todo.pop()
        if isinstance(v.owner, ir.Block):
            return None
        op = _op(v.owner)
        if op not in seen:
            seen[op] = None
            todo.extend(op.operands)
    return list(seen)


def shares_read_bases(block: tuple[int, int, int], schedule) -> bool:
    """Whether the reads of a kernel of workgroup size ``block`` pipelined by ``schedule``
    share address bases: a lockstep schedule's (``4wave``) kernel of more than one wave
    per SIMD, whose waves share the register file.  (The ping-pong kernels, two waves per
    SIMD by definition, keep the reads they were measured with.)"""
    return schedule.lockstep() and int(np.prod(block)) > WAVE_SIZE * SIMDS_PER_CU


class ReadBases:
    """The read indices emitted so far (value, per-thread elements), to share from."""

    def __init__(self, block: tuple[int, int, int], schedule) -> None:
        self.on = shares_read_bases(block, schedule)
        #: only thread ids and constants: its values are those of every workgroup and launch
        self.evaluator = Evaluator(block, thread_only=True)
        self.bases: list[tuple] = []

    def _elements(self, idx) -> np.ndarray | None:
        """``idx`` for every thread, or None if it depends on more than the thread."""
        try:
            elements = self.evaluator.value(idx)
            ops = _ops_of(idx)
            return elements if ops is not None and exact_on_machine(self.evaluator, ops) else None
        except IRError:          # more than the thread, or an operation the evaluator refuses
            return None

    def wave_uniform(self, idx, loop):
        """``idx`` (a DMA copy's LDS index, emitted in ``loop``'s body) through
        ``rocdl.readfirstlane`` before ``loop`` when its value is the same in every lane of
        each wave and fits a non-negative i32 (the value read back is the value given).
        Its ops, computed from thread ids and constants alone, move before ``loop`` with it:
        a ``readfirstlane`` in the loop would keep the lane-varying index live across it."""
        if not self.on:
            return idx
        ops = _ops_of(idx)
        elements = self._elements(idx)
        if ops is None or elements is None:
            return idx
        lanes = elements.reshape(-1, WAVE_SIZE)     # threads in order: a wave per row
        if elements.min() < 0 or elements.max() >= 1 << 31 or \
                not (lanes == lanes[:, :1]).all():
            return idx
        loop = _op(loop)
        inside = {o for o in ops if loop in enclosing_ops(o)}
        if any(_op(o.parent) != loop for o in inside):
            return idx          # an op of it nested deeper in the loop: left where it is
        for op in [_op(o) for o in loop.regions[0].blocks[0].operations]:
            if op in inside:            # in the body's order
                op.move_before(loop)
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(loop):
            v = ir.Operation.create("arith.index_cast", results=[i32], operands=[idx])
            v = ir.Operation.create("rocdl.readfirstlane", results=[i32], operands=v.results)
            return ir.Operation.create("arith.index_cast", results=[idx.type],
                                       operands=v.results).results[0]

    def index(self, idx, ix):
        """``idx``, or an earlier read's index plus a constant (emitted with ``ix``) when it
        is that for every thread."""
        if not self.on:
            return idx
        elements = self._elements(idx)
        if elements is None:
            return idx
        for base, at in self.bases:
            delta = elements - at
            if delta[0] >= 0 and (delta == delta[0]).all():
                return ix.add(base, ix.c(int(delta[0]))) if delta[0] else base
        self.bases.append((idx, elements))
        return idx
