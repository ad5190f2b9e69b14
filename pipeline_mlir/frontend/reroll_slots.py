"""The ``S``-slot LDS buffers of a prefetch-pipelined loop: slot 0 is all the rolled loop
touches (:mod:`pipeline_mlir.frontend.reroll`'s roll-back, whose module docstring says what is
proven), then each made a one-slot buffer (:func:`one_slot`).  A mixin of the roll-back's
class, whose ``loop``, ``queues``, ``copies``, ``prologue``, ``slot``, ``ahead``, ``block``
and ``fail`` it uses.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import row_major_strides
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.loop_eval import Evaluator, segments
from pipeline_mlir.analysis.views import VIEW_OPS, view_root, view_users
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir


class SlotBuffers:
    """The proofs of the stage-slot buffers of a roll-back (module docstring)."""

    def _slot_buffers(self) -> None:
        """Each queue's buffer (once, however many queues view it) a ``memref.alloc`` of
        ``memref<S x ...>`` used only by the prologue's copies, the view chains of the
        queues' initial views and the loop body's copies and new views (anything else
        would read a slot the rolled loop no longer has)."""
        s, self.allocs = self.stages, []
        inits = {list(self.loop.operands)[3 + k] for q, _t in self.queues for k in q}
        tails = {t for _q, t in self.queues}
        for root in dict.fromkeys(view_root(t, VIEW_OPS) for _q, t in self.queues):
            alloc = _defining(root)
            t = ir.MemRefType(root.type)
            if alloc is None or alloc.name != "memref.alloc" or len(alloc.operands) or \
                    not t.has_static_shape or t.shape[0] != s or \
                    t.get_strides_and_offset() != (row_major_strides(t.shape), 0):
                self.fail(alloc or self.loop, f"(the LDS buffer a view queue of the "
                                              f"prefetch-pipelined loop views) is not a "
                                              f"memref.alloc of memref<{s}x...> (one slot "
                                              f"per stage in dim 0, row-major)")
            self.allocs.append(alloc)
            self._slot_users(root, inits, tails)

    def _slot_users(self, v, inits: set, tails: set) -> None:
        copies = set(self.copies) | set(self.prologue_copies)
        for o, x in view_users(v):
            if (o in copies and segments(o)[2][0] == x) or \
                    (o.name == "memref.dealloc" and o.block == self.loop.block):
                continue
            elif not ((o == self.loop and x in inits) or (o == self.ops[-1] and x in tails)):
                self.fail(o, "uses an LDS buffer of the prefetch-pipelined loop's stage slots "
                             "other than by its copies and its queues' views: the rolled "
                             "loop keeps one slot")

    def _one_place(self) -> None:
        """With the slot bound to 0, each copy's LDS elements and each queue's new view are
        the same at every K tile of the rolled loop, and inside slot 0 of their buffer;
        with the slot the body computes, they are those moved by the slot times a slot's
        elements: the slot is the only thing that moves them, and the view read later is
        of the slot the copies fill (thread-only evaluators: the same in every
        workgroup).  A place that evaluates with the slot bound to 0 and no K tile reads
        the tile through its slot alone: it is the same at every tile, and its slots repeat
        every ``S`` tiles, so the first ``S`` tiles are all it is compared at; any other
        place is compared at every tile."""
        zero, real = (Evaluator(self.block, thread_only=True) for _ in range(2))
        zero.bind(self.slot.results[0], 0)
        places = [(c, segments(c)[2][0], lambda ev, c=c: self._lds_place(ev, c))
                  for c in self.copies]
        places += [(_defining(t), t, lambda ev, t=t: self._extent(ev.view(t)))
                   for _q, t in self.queues]
        tiles = self.trips + self.stages - 1
        counts = []     # per place, the tiles it is compared at
        for _where, _mem, place in places:
            try:
                place(zero)     # no K tile bound yet: the same at every tile
                counts.append(min(self.stages, tiles))
            except Unevaluable:
                counts.append(tiles)
        firsts = [None] * len(places)
        for tile in range(max(counts)):
            for ev in (zero, real):
                ev.bind(self.ahead.results[0], self.at_tile(tile))
            for j, ((op, mem, place), n) in enumerate(zip(places, counts)):
                if tile < n:
                    firsts[j] = self._placed(op, mem, place, tile, firsts[j], zero, real)

    def _placed(self, op, mem, place, tile: int, first, zero, real):
        """The check of :meth:`_one_place` for one place (``op``'s, in LDS buffer ``mem``)
        at K tile ``tile`` (``first``: its elements with the slot bound to 0 at the first
        tile, None at it); its elements with the slot bound to 0 (the evaluators keep what
        does not read the tile, so a place the same at every tile is not recomputed)."""
        size = int(np.prod(ir.MemRefType(view_root(mem, VIEW_OPS).type).shape[1:]))
        try:
            here = place(zero)
            moved = place(real)
            slot = real.uniform(self.slot.results[0])
        except Unevaluable as e:
            self.fail(op, f"has LDS elements that depend on more than the thread "
                          f"ids, the K tile and the slot ({e})")
        first = here if first is None else first
        if not np.array_equal(first, here) or here.size and (
                here.min() < 0 or here.max() >= size) or slot is None or \
                not np.array_equal(moved, here + slot * size):
            self.fail(op, f"has LDS elements that move with the K tile other than "
                          f"by its slot, or leave the slot (K tile {tile})")
        return first

    def _lds_place(self, ev, copy) -> np.ndarray:
        """The LDS elements ``copy`` writes; with its dim-0 index, when it indexes the
        stage-slot buffer itself, which must be the slot: a flat element inside the slot
        can still be another slot's row with a negative index after it.  A guarded copy's
        in the threads its guard runs it in (the guard's condition is the same at every
        tile: :meth:`_Reroll._guarded`), in every thread where the condition is not of the
        thread ids alone."""
        _s, _si, dst, didx = segments(copy)
        if _defining(dst[0]) is not None and _defining(dst[0]).name == "memref.alloc" and \
                np.any(ev.value(didx[0]) != ev.value(self.slot.results[0])):
            self.fail(copy, "indexes dim 0 of its stage-slot LDS buffer with other than the "
                            "slot")
        elements = ev.view(dst[0]).element([ev.value(x) for x in didx])
        guard = self.guards.get(copy)
        if guard is None:
            return elements
        try:
            runs = ev.value(guard.operands[0]) != 0
        except Unevaluable:         # (compared in every thread: more than the copy writes)
            return elements
        runs = np.broadcast_to(runs, (int(np.prod(self.block)),))
        return np.broadcast_to(elements, runs.shape)[runs]

    @staticmethod
    def _extent(view) -> np.ndarray:
        """The first and last root element of ``view`` per thread."""
        span = sum((d - 1) * st for d, st in zip(view.shape, view.strides))
        return np.stack([view.offset, view.offset + span])


def one_slot(alloc) -> None:
    """The ``S``-slot LDS buffer ``alloc`` (a ``memref.alloc`` of ``memref<S x ...>``,
    whose users read slot 0 only: :meth:`_Reroll._slot_buffers`) made a one-slot buffer."""
    root = alloc.results[0]
    t = ir.MemRefType(root.type)
    one = ir.MemRefType.get([1, *t.shape[1:]], t.element_type, t.layout, t.memory_space)
    with ir.InsertionPoint(alloc), alloc.location:
        new = B.memref.AllocOp(one, [], [])
    for a in alloc.attributes:
        if a != "operandSegmentSizes":
            new.operation.attributes[a] = alloc.attributes[a]
    root.replace_all_uses_with(new.result)
    alloc.erase()
