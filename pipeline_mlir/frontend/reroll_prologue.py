"""The prologue of a prefetch-pipelined loop proven the body's copies at its first ``S - 1``
K tiles (:mod:`pipeline_mlir.frontend.reroll`'s roll-back, whose module docstring says what is
proven): ``S - 1`` groups of copies, each closed by a ``rocdl.asyncmark``, each copy the
body's at its tile by the forms or in each workgroup enumerated, and the queues' initial
views the body's views of the first tiles.  A mixin of the roll-back's class, whose
``loop``, ``queues``, ``copies``, ``ahead``, ``block`` and ``fail`` it uses.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator, segments
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import at, check_read_movable
from pipeline_mlir.frontend.reroll_ops import COPY, GUARD, MARK, WAIT, WHAT, guarded_copy
from pipeline_mlir.frontend.reroll_proof import Workgroups, access, access_difference, \
    forms_difference


class Prologue:
    """The proofs of the prologue of a roll-back (module docstring)."""

    def _prologue(self) -> None:
        parent = [_op(o) for o in self.loop.block.operations]
        before = parent[:parent.index(self.loop)]
        roots = {view_root(t) for _q, t in self.queues}
        groups, group, self.prologue = [], [], []
        for o in before:
            copy = o if o.name == COPY else guarded_copy(o)
            if copy is not None and view_root(segments(copy)[2][0]) in roots:
                group.append(copy)
                if copy is not o:
                    self.guards[copy] = o
            elif copy is not None and "async" in copy.attributes:
                self.fail(o, "copies asynchronously into LDS that is not one of the "
                             "prefetch-pipelined loop's stage buffers: rolling the loop back "
                             "removes the waits on its group")
            elif o.name == GUARD and walk_ops(o, lambda x: x.name == COPY and
                                              "async" in x.attributes):
                self.fail(o, "(before the prefetch-pipelined loop) guards an asynchronous "
                             "copy and more: the roll-back takes a guard with no results "
                             "and no else ops whose region is one amdgpu.gather_to_lds and "
                             "ops free of memory effects")
            elif o.name == MARK:
                groups.append(group)
                group = []
            elif o.name == WAIT:
                self.fail(o, "waits for copies before the prefetch-pipelined loop")
            else:
                continue
            self.prologue.append(o)
        s = self.stages
        if group or len(groups) != s - 1 or \
                any(len(g) != len(self.copies) for g in groups):
            self.fail(self.loop, f"(prefetch-pipelined, {s} stages: LDS views queued "
                                 f"{s - 1} deep) is not preceded by {s - 1} groups of "
                                 f"{len(self.copies)} copies, each closed by a "
                                 f"rocdl.asyncmark (found {len(groups)} closed groups"
                                 f"{', and copies after the last' if group else ''})")
        self.prologue_copies = [c for g in groups for c in g]
        for c in self.prologue_copies:
            check_read_movable(self.guards.get(c, c), self.loop, "rolled back into the "
                                                                 "prefetch-pipelined loop")
        self.grid = Workgroups(self.loop, self.block, self.fail, WHAT)
        self.forms = Forms(Evaluator(self.block, thread_only=True))
        self.tile_forms: dict = {}      # K tile -> the body's forms there
        for i, g in enumerate(groups):
            for pro, body in zip(g, self.copies):
                self._same_copy(pro, body, i)
        for q, tail in self.queues:
            for i, k in enumerate(q):
                init = list(self.loop.operands)[3 + k]
                self._same_view(init, tail, i, self.loop)

    def _same_copy(self, pro, body, tile: int) -> None:
        """``pro`` (a prologue copy) is ``body`` (the body's) at K tile ``tile``: by the
        forms, else in each workgroup enumerated; a guarded copy's guard too, its
        condition the body's (compared in every thread, as the copies' operands are, whether
        or not the guard runs the copy there)."""
        names = set(pro.attributes) - {"operandSegmentSizes"}
        if names != set(body.attributes) - {"operandSegmentSizes"} or \
                any(pro.attributes[a] != body.attributes[a] for a in names):
            self.fail(pro, f"(a copy before the loop) differs from the body's copy at "
                           f"{at(body)} in its attributes")
        if (pro in self.guards) != (body in self.guards):
            self.fail(self.guards.get(pro, pro), f"(a copy before the loop, or its guard) "
                                                 f"differs from the body's copy at {at(body)} "
                                                 f"in its guard: one runs under an 'scf.if', "
                                                 f"the other not")
        conds = [self.guards[c].operands[0] for c in (pro, body) if c in self.guards]
        mine = self.tile_forms.get(tile)
        if mine is None:    # one per tile, shared by its copies
            mine = self.tile_forms[tile] = Forms(Evaluator(self.block, thread_only=True))
            mine.ev.bind(self.ahead.results[0], self.at_tile(tile))
        parts = ("global buffer", "global index", "LDS buffer", "LDS index")
        parts = list(zip(parts, segments(pro), segments(body))) + \
            [("guard", conds[:1], conds[1:])] * bool(conds)
        why = forms_difference(self.forms, mine, parts)
        if why is None:
            return
        ahead = self.ahead.results[0]

        def differs(ev):
            a = _accesses(ev, pro)
            guard = [ev.value(x) for x in conds[:1]]
            ev.bind(ahead, self.at_tile(tile))
            b = _accesses(ev, body)
            guard += [ev.value(x) for x in conds[1:]]
            ev.unbind(ahead)
            part = ("guards' conditions" if conds and not np.array_equal(
                *np.broadcast_arrays(*guard)) else None) \
                or access_difference(a[0], b[0], "global") or \
                access_difference(a[1], b[1], "LDS")
            return None if part is None else \
                f"(a copy before the loop) is not the body's copy at {at(body)} at K tile " \
                f"{tile}: its {part} differ"
        self.grid.prove(pro, why, "(a copy before the loop) is not proven the body's copy",
                        differs)

    def _same_view(self, init, tail, tile: int, where) -> None:
        """The view ``init`` is the body's view ``tail`` at K tile ``tile``."""
        ev = Evaluator(self.block, thread_only=True)
        try:
            a = ev.view(init)
            ev.bind(self.ahead.results[0], self.at_tile(tile))
            b = ev.view(tail)
        except Unevaluable as e:
            self.fail(where, f"starts an LDS view queue with views that depend on more than "
                             f"the thread ids and the K tile ({e})")
        if a.root != b.root or not np.array_equal(a.offset, b.offset) or \
                a.strides != b.strides or a.shape != b.shape:
            self.fail(where, f"starts an LDS view queue with a view that is not the body's "
                             f"view of K tile {tile}'s slot (the prologue's copies fill the "
                             f"slots the body reads first)")


def _accesses(ev, copy) -> tuple:
    """The global and the LDS access of ``copy`` (an ``amdgpu.gather_to_lds``)."""
    src, sidx, dst, didx = segments(copy)
    return access(ev, src[0], sidx), access(ev, dst[0], didx)
