"""IREE's own prefetch pipelining of a K-loop rolled back to the natural one-stage loop.

IREE's ``iree-llvmgpu-prefetch-shared-memory`` (``prefetch_num_stages = S``, 2 in its
default build) pipelines the K-loop before pipeline-opt sees its late form: the LDS of each
operand becomes ``S`` stage slots (``memref<S x ...>``); a prologue before the loop copies
the first ``S - 1`` K tiles (``amdgpu.gather_to_lds async``, each tile's copies closed by a
``rocdl.asyncmark``); the body copies K tile ``iv + S - 1`` into slot ``(iv + S - 1) mod S``,
waits for all but the ``S - 1`` newest groups (``rocdl.wait.asyncmark S-1``) and multiplies
the oldest tile, whose LDS views the loop carries in ``iter_args`` (a queue of ``S - 1``
views per operand); the loop runs ``S - 1`` iterations fewer, and an epilogue after it
(``rocdl.wait.asyncmark 0``, a barrier) multiplies the last ``S - 1`` tiles.

:func:`reroll_prefetched` recognises that form and rebuilds the loop it was made from, the
loop the front end takes (IREE's build with ``prefetch_num_stages = 1``): one LDS slot per
operand, the copies of K tile ``iv`` (synchronous) then the barrier then the reads and
MFMAs, over the full trip count; the prologue and the epilogue go.  Nothing is guessed;
each of these is proven first, and anything else is a located error:

* the loop carries only accumulators and the view queues (each rotated by one per
  iteration, its newest view made in the body from the operand's ``S``-slot buffer; only
  the oldest read);
* the bounds are constants, the step positive; the rolled loop runs the loop's trips
  (none when its upper bound is below its lower one) plus ``S - 1``, to an upper bound
  its induction variable's type holds (:mod:`pipeline_mlir.frontend.reroll_proof`);
* the induction variable is used once, as ``iv + (S-1) * step`` (the tile copied), and the
  slot is that ``mod S`` (one ``arith.remui``; divided by the step first, one
  ``arith.divui``, when the loop counts K in parts of a tile);
* the body: a barrier, the copies (all ``async``), one ``rocdl.asyncmark``, then
  ``rocdl.wait.asyncmark S-1`` and a barrier before the first read; every other op before
  the wait has no memory effect (rolled back, it would run ``S - 1`` more times);
* the prologue: ``S - 1`` groups of copies, group ``i`` the body's copies at tile ``i``:
  the same op and attributes, and for every thread of every workgroup and launch the same
  buffers, views and indices, each index the same linear form over the workgroup's values
  (:mod:`pipeline_mlir.analysis.id_forms`, the body's ``iv + S - 1`` bound to ``i``), for
  any grid; where the forms do not decide, the same buffers placed alike (swizzle, fat
  buffer bounds) and the same global and LDS elements in each workgroup of the kernel's
  grid, enumerated (:class:`~pipeline_mlir.frontend.reroll_proof.Workgroups`: 64 side by
  side, at most :data:`~pipeline_mlir.frontend.reroll_proof.MAX_WORKGROUPS`; one by one
  under a loop over workgroups, at most
  :data:`~pipeline_mlir.frontend.reroll_proof.MAX_ITERATIONS` iterations; values known
  only at launch refused, never sampled); the queues' initial
  views are the body's views at tiles ``0 .. S-2``, so the slots the prologue fills are
  the ones the body reads first;
* the epilogue: ``rocdl.wait.asyncmark 0``, a barrier, then ``S - 1`` copies of the body's
  reads and MFMAs, op for op (names, attributes, types, operands mapped: stage ``j`` reads
  the queue's ``j``-th view after the loop and accumulates onto stage ``j - 1``'s
  results), whose values nothing but the next stage and the kernel's use of the last
  stage reads; each accumulator the loop yields is made there;
* one slot is enough: each queue's buffer (counted once) is a ``memref.alloc`` of
  ``memref<S x ...>`` that only the prologue's and body's copies, the queues' view chains
  and deallocation use; with the slot bound to 0 (a thread-only evaluator, so for every
  workgroup) each copy's LDS elements and each queue's new view are the same at every K
  tile of the rolled loop and inside slot 0, and with the slot the body computes they
  are those moved by the slot times a slot's elements (the view read later is of the slot
  the copies fill); a copy indexing the buffer itself has the slot as its dim-0 index.
  All of it is proven before the IR changes.

Size: one concern, one proof: the loop, prologue, epilogue and slot buffers are read and
proven by one class that shares what it read, then rewritten; split, the parts would pass
that state between modules.

The ``S``-slot buffers become one-slot buffers (``memref<1 x ...>``).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.ir_facts import constant_int, int_attr, \
    row_major_strides
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.loop_eval import Evaluator, segments
from pipeline_mlir.analysis.views import VIEW_OPS, view_root, view_users
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import ops_from
from pipeline_mlir.dialect.ir_io import ops_of, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, check_read_movable, erase_dead, \
    in_lds as _is_view, is_pure, users_of, writes_outside_lds
from pipeline_mlir.frontend.reroll_proof import RolledLoop, Workgroups, access, \
    access_difference, forms_difference, loop_bounds, rolled_upper, \
    same_op_but_operands

#: how the refusals name the loop
WHAT = "prefetch-pipelined"

COPY = "amdgpu.gather_to_lds"
MARK = "rocdl.asyncmark"
WAIT = "rocdl.wait.asyncmark"

def is_prefetched(loop) -> bool:
    """``loop`` is an ``scf.for`` multiplying with MFMAs that carries LDS views in its
    ``iter_args`` and waits for groups of its copies (``rocdl.wait.asyncmark``): IREE's
    prefetch pipelining (the natural loop carries accumulators only; a loop that carries
    LDS otherwise is left to the front end's own checks)."""
    if loop.name != "scf.for":
        return False
    body = loop.regions[0].blocks[0]
    ops = [o.name for o in ops_of(loop.regions[0])]
    return "amdgpu.mfma" in ops and WAIT in ops and \
        any(_is_view(a) for a in list(body.arguments)[1:])


def no_loop_note(root) -> str:
    """Why a kernel's MFMAs are in no loop, for the front end's refusal: IREE's prefetch
    pipelining peeled every K tile when ``root`` closes groups of copies with
    ``rocdl.asyncmark`` (as many stages as K tiles, or more), else IREE's removal of a loop of
    one iteration."""
    marks = walk_ops(root, lambda o: o.name == MARK)
    if not marks and _stored_after_mfma(root):
        return ("(IREE's own prefetch pipelining of copies through registers peeled every K "
                "tile out of the loop: LDS stores of a later K tile follow the MFMAs; compile "
                "with prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1, for "
                "the loop)")
    if not marks:
        return ("(IREE removes a loop of one iteration: the whole reduction is a single K "
                "step)")
    return (f"(IREE's own prefetch pipelining peeled every K tile out of the loop: "
            f"{len(marks)} groups of copies closed by rocdl.asyncmark; compile with "
            f"prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1, for the loop)")


def _stored_after_mfma(root) -> bool:
    """Whether, in some block of ``root``, a ``vector.store`` to LDS follows an
    ``amdgpu.mfma``: the copy of a later K tile after the products of an earlier one (the
    K tiles of a loop IREE's 3-stage pipelining through registers peeled whole).  A kernel
    whose one K step IREE left without a loop stores before it multiplies."""
    firsts: dict = {}       # (per block, its first MFMA: the walk meets it first)
    for mfma in walk_ops(root, lambda o: o.name == "amdgpu.mfma"):
        firsts.setdefault(_op(mfma).block, mfma)
    return any(o.name == "vector.store" and _is_view(o.operands[1])
               for mfma in firsts.values() for o in ops_from(mfma))


def reroll_prefetched(root) -> None:
    """Every loop of ``root`` IREE pipelined itself (:func:`is_prefetched`) rolled back to
    its one-stage loop, as the module docstring says; a located error where the form is
    not exactly IREE's."""
    for loop in walk_ops(root, is_prefetched):
        with loop.context, loop.location:
            _Reroll(loop).run()


def mirror_difference(b, e, m: dict, body) -> str | None:
    """None when ``e`` (an op after a loop) is the op ``b`` of the loop's block ``body``,
    op for op: the same name, attributes and result types, and operands mapped by ``m`` (a
    value of ``body`` -> the one ``e`` must use; one from outside the loop is itself);
    else what keeps it from being ``b``'s repeat, for a refusal: another kind of op, other
    attributes or result types, or the first operand that differs."""
    if e.name != b.name:
        return "another kind of op where its repeat belongs"
    if not same_op_but_operands(b, e):
        return "its attributes or result types differ"
    for i, (x, y) in enumerate(zip(b.operands, e.operands)):
        mine = (not isinstance(x.owner, ir.Block) and _op(x.owner).block == body) \
            or (isinstance(x.owner, ir.Block) and x.owner == body)
        if m.get(x, x if not mine else None) != y:
            return f"its operand #{i} is not the repeat's"
    return None


#: the ops an epilogue may hold between the repeats of the body's (:func:`_invariant`)
_INDEX_OPS = ("affine.apply", "affine.delinearize_index", "affine.linearize_index")


def _invariant(op, later: set, extras: set) -> bool:
    """Whether ``op``, after a prefetch-pipelined loop, is scalar index arithmetic of values
    from before the loop (or of other such ops, ``extras``): no op of ``later`` (the loop's
    and its epilogue's) feeds it, so it computes the same wherever it runs (IREE's late
    form puts the index arithmetic of its stores of C there, between the repeats)."""
    if not (op.name.startswith("arith.") or op.name in _INDEX_OPS) or len(op.regions) or \
            not all(isinstance(r.type, (ir.IndexType, ir.IntegerType)) for r in op.results):
        return False
    for v in op.operands:
        owner = v.owner
        if not isinstance(owner, ir.Block) and _op(owner) in later and \
                _op(owner) not in extras:
            return False
    return True


class _Reroll(RolledLoop):
    """One prefetch-pipelined loop: its parts read and proven, then the rewrite."""

    FORM = "IREE's prefetch pipelining (prefetch_num_stages)"

    def __init__(self, loop) -> None:
        super().__init__(loop, ops_of(loop.regions[0]), "IREE's prefetch-pipelined loop")

    # ---- reading ----------------------------------------------------------------------
    def run(self) -> None:
        self._bounds()
        self._queues()
        self.ub = rolled_upper(self.loop, self.lb, self.trips + self.stages - 1, self.step,
                               self.fail, WHAT)
        self._induction()
        self._body_marks()
        self._prologue()
        self._epilogue()
        self._slot_buffers()
        self._one_place()
        self.grid.check_covers()
        self.grid.release()
        self._rewrite()

    def _bounds(self) -> None:
        """Constant bounds; ``trips`` the iterations the loop runs (none when its upper
        bound is below its lower one: the prologue's and epilogue's ``S - 1`` tiles are
        then the whole reduction)."""
        self.lb, self.step, self.trips = loop_bounds(self.loop, self.fail,
                                                     f"{WHAT}: it carries LDS views")

    def at_tile(self, i: int) -> int:
        """The value of ``iv + (S-1) * step`` (the K tile the body copies) at tile ``i``
        (the step is positive: the scf.for verifier says so of a constant step)."""
        return self.lb + i * self.step

    def _queues(self) -> None:
        """The view queues: for each, its iter_arg positions oldest first and the view the
        body makes for it; the accumulators' positions."""
        iters = self.args[1:]
        self.accs = [k for k, a in enumerate(iters) if not _is_view(a)]
        views = [k for k, a in enumerate(iters) if _is_view(a)]
        nxt, tails = {}, {}
        for k in views:
            y = self.yields[k]
            if y in iters and iters.index(y) in views:
                nxt[k] = iters.index(y)
            elif _defining(y) is not None and _defining(y).block == self.body:
                tails[k] = y
            else:
                self.fail(self.loop, f"carries LDS view #{k} which it yields as neither the "
                                     f"next view of its queue nor a view made in the body")
        heads = [k for k in views if k not in nxt.values()]
        self.queues, seen = [], set()
        for h in heads:
            q = [h]
            while q[-1] in nxt and nxt[q[-1]] not in q:
                q.append(nxt[q[-1]])
            if q[-1] not in tails:
                self.fail(self.loop, f"carries LDS views #{q} that do not form a queue ending "
                                     f"in a view made in the body")
            seen.update(q)
            self.queues.append((q, tails[q[-1]]))
        if seen != set(views) or len({len(q) for q, _ in self.queues}) != 1:
            self.fail(self.loop, "carries LDS views that are not queues of one length")
        self.stages = len(self.queues[0][0]) + 1
        for q, _ in self.queues:
            for k in q[1:]:
                users = {_op(u.owner) for u in iters[k].uses}
                if users != {self.ops[-1]}:
                    self.fail(self.loop, f"reads the LDS view #{k}, which is not the oldest "
                                         f"of its queue")

    def _induction(self) -> None:
        """``iv + (S-1) * step`` (the tile the body copies) and its slot, ``that mod S``
        (``that / step mod S`` when the step is not 1)."""
        iv, s, st = self.args[0], self.stages, self.step
        users = users_of(iv)
        ahead = users[0] if len(users) == 1 else None
        if ahead is None or ahead.name != "arith.addi" or \
                constant_int(ahead.operands[1] if ahead.operands[0] == iv
                             else ahead.operands[0]) != (s - 1) * st:
            self.fail(self.loop, f"(prefetch-pipelined, {s} stages) uses its induction variable "
                                 f"other than once, as iv + {(s - 1) * st} (the K tile the body "
                                 f"copies)")
        self.ahead = ahead
        tile, self.divide = ahead.results[0], None
        if st != 1:
            divs = [o for o in users_of(tile) if o.name == "arith.divui" and
                    o.operands[0] == tile and constant_int(o.operands[1]) == st]
            if len(divs) != 1:
                self.fail(ahead, f"(the K tile the body copies, steps of {st}) is not divided "
                                 f"by {st} once (arith.divui) for its slot")
            self.divide = divs[0]
            tile = divs[0].results[0]
        slots = [o for o in users_of(tile) if o.name == "arith.remui"]
        if len(slots) != 1 or slots[0].operands[0] != tile or \
                constant_int(slots[0].operands[1]) != s:
            self.fail(ahead, f"(the K tile the body copies, {s} stages) has no one slot "
                             f"computed from it mod {s} (arith.remui)")
        self.slot = slots[0]

    def _body_marks(self) -> None:
        """The body's copies, its one asyncmark and the wait after it, and the barriers
        around them."""
        ops, s = self.ops, self.stages
        self.copies = [o for o in ops if o.name == COPY]
        marks = [i for i, o in enumerate(ops) if o.name == MARK]
        waits = [i for i, o in enumerate(ops) if o.name == WAIT]
        if not self.copies:
            self.fail(self.loop, "(prefetch-pipelined) holds no amdgpu.gather_to_lds")
        for c in self.copies:
            if "async" not in c.attributes:
                self.fail(c, "is synchronous in a loop IREE pipelined (its synchronous "
                             "copies are not rolled back; IREE pipelines DMA copies "
                             "asynchronously)")
        last = max(ops.index(c) for c in self.copies)
        if len(marks) != 1 or len(waits) != 1 or marks[0] < last or waits[0] != marks[0] + 1:
            self.fail(self.loop, "(prefetch-pipelined) does not close its copies with one "
                                 "rocdl.asyncmark followed by one rocdl.wait.asyncmark")
        wait = ops[waits[0]]
        if int_attr(wait, "count") != s - 1:
            self.fail(wait, f"waits for all but {int_attr(wait, 'count')} groups of copies: "
                            f"IREE's {s}-stage loop waits for all but its {s - 1} newest")
        first = min(ops.index(c) for c in self.copies)
        if ops[waits[0] + 1].name != "gpu.barrier" or \
                not any(o.name == "gpu.barrier" for o in ops[:first]):
            self.fail(wait, "is not IREE's: a gpu.barrier before the copies and one right "
                            "after the wait")
        self.mark, self.wait = ops[marks[0]], wait
        self.compute = ops[waits[0] + 2:-1]
        self._compute_reads(waits[0])
        for o in ops[:marks[0]]:
            if o.name not in (COPY, "gpu.barrier") and not is_pure(o):
                self.fail(o, "(before the wait of the prefetch-pipelined loop) has side "
                             "effects: rolled back, the loop would run it S-1 more times")

    def _compute_reads(self, wait: int) -> None:
        """Only the body's ops after the wait's barrier read the oldest views, and those
        ops hold no regions; each queue's new view is made before the wait (it stands for
        the oldest one once the loop is rolled)."""
        compute = set(self.compute)
        for o in self.compute:
            if len(o.regions):
                self.fail(o, "(after the barrier of the prefetch-pipelined loop's wait) holds "
                             "regions: IREE's loop reads and multiplies there, op for op as "
                             "its epilogue repeats them")
            if writes_outside_lds(o):
                self.fail(o, "(after the barrier of the prefetch-pipelined loop's wait) may "
                             "write memory outside LDS: rolled back, the next tile's copies "
                             "would run after it, not before")
        for q, tail in self.queues:
            for u in self.args[1 + q[0]].uses:
                if _op(u.owner) not in compute:
                    self.fail(_op(u.owner), "reads the oldest LDS view of the "
                                            "prefetch-pipelined loop before the barrier "
                                            "after its wait")
            if self.ops.index(_defining(tail)) > wait:
                self.fail(_defining(tail), "makes the prefetch-pipelined loop's new LDS view "
                                           "after its wait: IREE makes it before the copies")

    # ---- the prologue: the body's copies at the first S-1 tiles --------------------------
    def _prologue(self) -> None:
        parent = [_op(o) for o in self.loop.block.operations]
        before = parent[:parent.index(self.loop)]
        roots = {view_root(t) for _q, t in self.queues}
        groups, group, self.prologue = [], [], []
        for o in before:
            if o.name == COPY and view_root(segments(o)[2][0]) in roots:
                group.append(o)
            elif o.name == COPY and "async" in o.attributes:
                self.fail(o, "copies asynchronously into LDS that is not one of the "
                             "prefetch-pipelined loop's stage buffers: rolling the loop back "
                             "removes the waits on its group")
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
        for o in self.prologue:
            if o.name == COPY:
                check_read_movable(o, self.loop, "rolled back into the prefetch-pipelined "
                                                 "loop")
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
        forms, else in each workgroup enumerated."""
        names = set(pro.attributes) - {"operandSegmentSizes"}
        if names != set(body.attributes) - {"operandSegmentSizes"} or \
                any(pro.attributes[a] != body.attributes[a] for a in names):
            self.fail(pro, f"(a copy before the loop) differs from the body's copy at "
                           f"{at(body)} in its attributes")
        mine = self.tile_forms.get(tile)
        if mine is None:    # one per tile, shared by its copies
            mine = self.tile_forms[tile] = Forms(Evaluator(self.block, thread_only=True))
            mine.ev.bind(self.ahead.results[0], self.at_tile(tile))
        parts = ("global buffer", "global index", "LDS buffer", "LDS index")
        why = forms_difference(self.forms, mine, zip(parts, segments(pro), segments(body)))
        if why is None:
            return
        ahead = self.ahead.results[0]

        def differs(ev):
            a = _accesses(ev, pro)
            ev.bind(ahead, self.at_tile(tile))
            b = _accesses(ev, body)
            ev.unbind(ahead)
            part = access_difference(a[0], b[0], "global") or \
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

    # ---- the epilogue: the body's compute at the last S-1 tiles --------------------------
    def _epilogue(self) -> None:
        parent = [_op(o) for o in self.loop.block.operations]
        after = parent[parent.index(self.loop) + 1:]
        if len(after) < 2 or after[0].name != WAIT or int_attr(after[0], "count") != 0 or \
                after[1].name != "gpu.barrier":
            self.fail(after[0] if after else self.loop,
                      "(after the prefetch-pipelined loop) is not IREE's epilogue: "
                      "rocdl.wait.asyncmark 0 and a gpu.barrier, then the last tiles' "
                      "reads and MFMAs")
        iters = self.args[1:]
        results = list(self.loop.results)
        n = len(self.compute)
        pos = 2
        acc = {iters[k]: results[k] for k in self.accs}
        mirrored = []
        later, extras = set(after) | {self.loop}, set()
        for stage in range(self.stages - 1):
            m = dict(acc)
            for q, _tail in self.queues:
                m[iters[q[0]]] = results[q[stage]]
            if len(after) - pos < n:
                self.fail(self.loop, f"is followed by {len(after) - pos} ops where IREE's "
                                     f"epilogue repeats the body's {n} reads and MFMAs")
            todo = []
            for b in self.compute:
                # (the late form's index arithmetic of the kernel's later stores, made of
                # values from before the loop, falls between the repeats: left in place)
                while pos < len(after) and mirror_difference(b, after[pos], m, self.body) \
                        is not None and _invariant(after[pos], later, extras):
                    extras.add(after[pos])
                    pos += 1
                if pos == len(after):
                    self.fail(self.loop, f"is followed by {len(todo)} ops where IREE's "
                                         f"epilogue repeats the body's {n} reads and MFMAs")
                self._mirror(b, after[pos], m, stage)
                todo.append(after[pos])
                pos += 1
            mirrored += todo
            for k in self.accs:
                if self.yields[k] not in m:
                    y = self.yields[k]
                    self.fail(_defining(y) or self.ops[-1],
                              f"makes the value the prefetch-pipelined loop yields for its "
                              f"iter_arg #{k} outside the reads and MFMAs after its wait, "
                              f"which IREE's epilogue repeats")
            acc = {iters[k]: m[self.yields[k]] for k in self.accs}
        self.epilogue = after[:2] + mirrored
        self.finals = {k: acc[iters[k]] for k in self.accs}
        inside = set(mirrored)
        final = set(self.finals.values())
        for v in [r for o in mirrored for r in o.results] + results:
            for u in v.uses:
                if _op(u.owner) not in inside and v not in final:
                    self.fail(_op(u.owner), "uses a value of IREE's pipelined loop or "
                                            "epilogue that the one-stage loop does not "
                                            "keep (an intermediate accumulator or an LDS "
                                            "view)")

    def _mirror(self, b, e, m: dict, stage: int) -> None:
        """``e`` (an epilogue op) is the body's ``b`` at the epilogue's ``stage``; ``m``
        maps body values to epilogue ones and gets ``b``'s results."""
        why = mirror_difference(b, e, m, self.body)
        if why is not None:
            self.fail(e, f"(after the prefetch-pipelined loop) is not the body's "
                         f"'{b.name}' op at {at(b)} for the loop's last tiles (epilogue "
                         f"stage {stage}; {why}): IREE's epilogue repeats the body's reads "
                         f"and MFMAs op for op")
        for x, y in zip(b.results, e.results):
            m[x] = y

    # ---- the S-slot buffers: slot 0 is all the rolled loop touches -----------------------
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
        copies = set(self.copies) | {o for o in self.prologue if o.name == COPY}
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
        if not np.array_equal(first, here) or here.min() < 0 or here.max() >= size or \
                slot is None or not np.array_equal(moved, here + slot * size):
            self.fail(op, f"has LDS elements that move with the K tile other than "
                          f"by its slot, or leave the slot (K tile {tile})")
        return first

    def _lds_place(self, ev, copy) -> np.ndarray:
        """The LDS elements ``copy`` writes; with its dim-0 index, when it indexes the
        stage-slot buffer itself, which must be the slot: a flat element inside the slot
        can still be another slot's row with a negative index after it."""
        _s, _si, dst, didx = segments(copy)
        if _defining(dst[0]) is not None and _defining(dst[0]).name == "memref.alloc" and \
                np.any(ev.value(didx[0]) != ev.value(self.slot.results[0])):
            self.fail(copy, "indexes dim 0 of its stage-slot LDS buffer with other than the "
                            "slot")
        return ev.view(dst[0]).element([ev.value(x) for x in didx])

    @staticmethod
    def _extent(view) -> np.ndarray:
        """The first and last root element of ``view`` per thread."""
        span = sum((d - 1) * st for d, st in zip(view.shape, view.strides))
        return np.stack([view.offset, view.offset + span])

    # ---- the rewrite ---------------------------------------------------------------------
    def _rewrite(self) -> None:
        loop = self.loop
        block = loop.block
        dead = [x for o in self.prologue for x in o.operands] + list(loop.operands)[3:]
        for o in reversed(self.prologue):
            o.erase()
        zero = self._constant(self.slot.results[0].type, 0, loop)
        self.slot.results[0].replace_all_uses_with(zero)
        self.slot.erase()
        if self.divide is not None and not list(self.divide.results[0].uses):
            self.divide.erase()
        for c in self.copies:
            del c.attributes["async"]
        self.wait.erase()
        self.mark.erase()
        iters = self.args[1:]
        for q, tail in self.queues:
            iters[q[0]].replace_all_uses_with(tail)
        iv_type = self.args[0].type
        ub = self._constant(iv_type, self.ub, loop)
        inits = [list(loop.operands)[3 + k] for k in self.accs]
        with ir.InsertionPoint(loop):
            new = B.scf.ForOp(loop.operands[0], ub, loop.operands[2], inits)
        nb = new.body
        self.ahead.results[0].replace_all_uses_with(nb.arguments[0])
        self.ahead.erase()
        for j, k in enumerate(self.accs):
            iters[k].replace_all_uses_with(nb.arguments[1 + j])
        ops = ops_of(self.loop.regions[0])
        for o in ops[:-1]:
            nb.append(o)
        with ir.InsertionPoint(nb):
            B.scf.YieldOp([self.yields[k] for k in self.accs])
        for j, k in enumerate(self.accs):
            self.finals[k].replace_all_uses_with(new.results[j])
        for o in reversed(self.epilogue):
            o.erase()
        loop.erase()
        erase_dead(dead, block)
        for alloc in self.allocs:
            one_slot(alloc)

    def _constant(self, type_, value: int, where):
        with ir.InsertionPoint(where):
            return B.arith.ConstantOp(type_, ir.IntegerAttr.get(type_, value)).result


def _accesses(ev, copy) -> tuple:
    """The global and the LDS access of ``copy`` (an ``amdgpu.gather_to_lds``)."""
    src, sidx, dst, didx = segments(copy)
    return access(ev, src[0], sidx), access(ev, dst[0], didx)


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
