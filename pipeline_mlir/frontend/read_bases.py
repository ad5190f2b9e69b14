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

Their global addresses cost registers too when ``iree-compile`` builds the kernel handed
back.  IREE lowers a copy from a subview of a buffer fat pointer to one 32-bit offset, the
``voffset`` of every lane: the subview's offset (workgroup, wave, K column) plus the lane's
index.  LLVM hoists each copy's loop-invariant part (the wave's rows and the lane's index,
which it takes for lane-varying) into a VGPR of its own and adds the K column each
iteration: 8 such registers in IREE's 8-wave 256x256 kernel, which spill (pipeline-opt's own
LLVM step moves the uniform part to ``soffset`` itself, ``sched-buffer-soffset``).
:meth:`ReadBases.flat_source` rewrites such a copy onto a one-dimensional view of the
buffer at the index ``X + readfirstlane(readfirstlane(fixed + D) + moving)``: ``X`` the
lane's index of a first copy (shared by every copy of the buffers: one VGPR), ``D`` this
copy's index minus ``X`` (evaluated for every thread: a constant, or one value per wave
emitted through ``readfirstlane`` before the loop), ``fixed`` and ``moving`` the subview's
offset terms defined before the loop and in it (the K column).  The inner
``readfirstlane``, before the loop, makes the wave's rows a scalar once; the outer one, in
the loop, keeps LLVM from hoisting a sum per copy.  Both are exact because their operands
are proven one value per wave (:meth:`ReadBases.uniform`: the workgroup-uniform rule of
:mod:`pipeline_mlir.analysis.wg_uniform`, constants, workgroup ids, kernel arguments and the
loop's variable combined by the integer ops its allow-list knows, with thread-only values each wave's lanes agree on
for leaves).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.exact_ints import exact_on_machine
from pipeline_mlir.analysis.ir_facts import defined_in, encloses, memory_space
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.wg_uniform import varying_source
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import collapsed
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
        #: copies' lane indices emitted so far: (root, index values, per-thread elements)
        self.copy_bases: list[tuple] = []
        self._flat: dict = {}

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
        inside = {o for o in ops if encloses(loop, o)}
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

    def uniform(self, value) -> bool:
        """Whether ``value`` is one value for each wave: the same in every wave
        (:func:`~pipeline_mlir.analysis.wg_uniform.varying_source`: constants, workgroup ids,
        kernel arguments, the variables of the workgroup ``scf.forall`` and of loops of such
        bounds, combined by the ops its allow-list knows compute their results from their
        operands alone), with thread-only values each wave's 64 lanes agree on (evaluated)
        for leaves."""
        return varying_source(value, self._lanes_agree) is None

    def _lanes_agree(self, value) -> bool:
        """Whether ``value`` is thread-only and the same in every lane of each wave."""
        elements = self._elements(value)
        if elements is None:
            return False
        lanes = elements.reshape(-1, WAVE_SIZE)
        return bool((lanes == lanes[:, :1]).all())

    def flat_source(self, src, indices: list, loop):
        """(a one-dimensional view of the buffer, [its index]) for a DMA copy of
        ``src[indices]`` emitted in or before ``loop`` (module docstring), or None: the
        copy as it is.  Taken when ``src`` is a ``memref.subview`` of unit strides of a
        buffer fat pointer of static shape and identity layout whose offsets are one value
        per wave, the indices are thread-only values computed before ``loop``, and this
        copy's index is an earlier one's plus one value per wave."""
        if not self.on:
            return None
        sub = _op(src.owner) if not isinstance(src.owner, ir.Block) else None
        if sub is None or sub.name != "memref.subview":
            return None
        root = sub.operands[0]
        t = ir.MemRefType(root.type)
        if memory_space(t) != "fat_raw_buffer" or not t.has_static_shape or \
                int(np.prod(t.shape)) >= 1 << 31 or \
                list(sub.attributes["static_strides"]) != [1] * t.rank:
            return None
        strides, offset = t.get_strides_and_offset()
        dense = [int(np.prod(t.shape[d + 1:])) for d in range(t.rank)]
        if offset != 0 or list(strides) != dense:        # not the identity layout
            return None
        offsets = list(sub.attributes["static_offsets"])
        dyn = iter(sub.operands[1:1 + sum(1 for o in offsets if o < -(1 << 62))])
        parts = [(next(dyn) if o < -(1 << 62) else o, s) for o, s in zip(offsets, strides)]
        if any(not isinstance(p, int) and not self.uniform(p) for p, _ in parts):
            return None
        loop_op = _op(loop)
        if any(isinstance(i.owner, ir.Block) or encloses(loop_op, i.owner) or
               _op(i.owner) == loop_op for i in indices):
            return None
        elements = [self._elements(i) for i in indices]
        if any(e is None for e in elements):
            return None
        x = sum(e * s for e, s in zip(elements, strides))
        base = next(((b, bx) for r, b, bx in self.copy_bases if r == root and _per_wave(x - bx)),
                    None)
        if base is None:
            self.copy_bases.append((root, list(indices), x))
            base = (list(indices), x)
        return self._flat_view(root, t), [self._flat_index(parts, indices, strides, base, x,
                                                           loop)]

    def _flat_index(self, parts, indices, strides, base, x, loop):
        """``X + readfirstlane(readfirstlane(fixed + D) + moving)`` (module docstring)."""
        index = ir.IndexType.get()

        def c(k):
            return B.arith.constant(index, ir.IntegerAttr.get(index, int(k)))

        def linear(terms):
            out = c(0)
            for v, s in terms:
                out = B.arith.addi(out, c(v * s) if isinstance(v, int) else
                                   B.arith.muli(v, c(s)))
            return out

        delta = x - base[1]
        d = None if (delta == delta[0]).all() else self.wave_uniform(
            B.arith.subi(linear(zip(indices, strides)), linear(zip(base[0], strides))), loop)
        i32 = ir.IntegerType.get_signless(32)

        def first(v):
            v = B.arith.index_cast(i32, v)
            return ir.Operation.create("rocdl.readfirstlane", results=[i32],
                                       operands=[v]).results[0]

        loop_op = _op(loop)
        inside = [not isinstance(p, int) and defined_in(p, loop_op) for p, _ in parts]
        with ir.InsertionPoint(loop_op):      # the loop-invariant part, read once per wave
            pre = B.arith.index_cast(index, first(B.arith.addi(linear(
                [t for t, i in zip(parts, inside) if not i]), c(delta[0]) if d is None else d)))
        u = first(B.arith.addi(pre, linear([t for t, i in zip(parts, inside) if i])))
        return B.arith.addi(linear(zip(base[0], strides)), B.arith.index_cast(index, u))

    def _flat_view(self, root, t):
        """``root`` collapsed to one dimension (once, right after it is defined)."""
        if root not in self._flat:
            self._flat[root] = collapsed(root)
        return self._flat[root]


def _per_wave(delta: np.ndarray) -> bool:
    """Whether ``delta`` (per thread) is one value per wave that a copy's flat index can
    add: a constant of i32, or one that :meth:`ReadBases.wave_uniform` reads back exactly
    (a non-negative i32)."""
    lanes = delta.reshape(-1, WAVE_SIZE)
    if not (lanes == lanes[:, :1]).all():
        return False
    if (delta == delta[0]).all():
        return -(1 << 31) <= int(delta[0]) < 1 << 31
    return 0 <= delta.min() and delta.max() < 1 << 31
