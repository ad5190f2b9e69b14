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
  the wait has no memory effect (rolled back, it would run ``S - 1`` more times), but a
  copy inside an ``scf.if`` among the copies (IREE's copy by part of the workgroup): the
  guard has no results and no else ops, its region the one copy and ops free of memory
  effects (:func:`~pipeline_mlir.frontend.reroll_ops.guarded_copy`), and its condition is
  computed from no argument of the body's block (neither the induction variable nor a
  carried value), so the same in every iteration; its prologue twin is guarded too, its
  condition proven the body's as the indices are, and the one-slot proof reads the copy's
  LDS elements in the threads its guard runs it in.  The guard stays in the rolled loop,
  for the spread (:mod:`~pipeline_mlir.frontend.partial_copy`);
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

The ``S``-slot buffers become one-slot buffers (``memref<1 x ...>``).  The prologue's proofs
are :mod:`~pipeline_mlir.frontend.reroll_prologue`'s, the slot buffers' (and the one-slot
rewrite) :mod:`~pipeline_mlir.frontend.reroll_slots`'s, mixins of the class here; the ops
the form is made of, by name, :mod:`~pipeline_mlir.frontend.reroll_ops`'.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int, int_attr
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import ops_from
from pipeline_mlir.dialect.ir_io import ops_of, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, depends, erase_dead, in_lds as _is_view, \
    is_pure, users_of, writes_outside_lds
from pipeline_mlir.frontend.reroll_ops import COPY, MARK, WAIT, WHAT, guarded_copy, \
    guards_a_copy, outer_operands
from pipeline_mlir.frontend.reroll_prologue import Prologue
from pipeline_mlir.frontend.reroll_proof import RolledLoop, loop_bounds, rolled_upper, \
    same_op_but_operands
from pipeline_mlir.frontend.reroll_slots import SlotBuffers, one_slot


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


class _Reroll(Prologue, SlotBuffers, RolledLoop):
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
        self.guards: dict = {}      # a guarded copy, the body's or the prologue's -> its guard
        self.copies = [o if o.name == COPY else self._guarded(o) for o in ops
                       if o.name == COPY or guards_a_copy(o)]
        marks = [i for i, o in enumerate(ops) if o.name == MARK]
        waits = [i for i, o in enumerate(ops) if o.name == WAIT]
        if not self.copies:
            self.fail(self.loop, "(prefetch-pipelined) holds no amdgpu.gather_to_lds")
        for c in self.copies:
            if "async" not in c.attributes:
                self.fail(c, "is synchronous in a loop IREE pipelined (its synchronous "
                             "copies are not rolled back; IREE pipelines DMA copies "
                             "asynchronously)")
        place = [ops.index(self.guards.get(c, c)) for c in self.copies]
        last = max(place)
        if len(marks) != 1 or len(waits) != 1 or marks[0] < last or waits[0] != marks[0] + 1:
            self.fail(self.loop, "(prefetch-pipelined) does not close its copies with one "
                                 "rocdl.asyncmark followed by one rocdl.wait.asyncmark")
        wait = ops[waits[0]]
        if int_attr(wait, "count") != s - 1:
            self.fail(wait, f"waits for all but {int_attr(wait, 'count')} groups of copies: "
                            f"IREE's {s}-stage loop waits for all but its {s - 1} newest")
        first = min(place)
        if ops[waits[0] + 1].name != "gpu.barrier" or \
                not any(o.name == "gpu.barrier" for o in ops[:first]):
            self.fail(wait, "is not IREE's: a gpu.barrier before the copies and one right "
                            "after the wait")
        self.mark, self.wait = ops[marks[0]], wait
        self.compute = ops[waits[0] + 2:-1]
        self._compute_reads(waits[0])
        guards = set(self.guards.values())
        for o in ops[:marks[0]]:
            if o.name not in (COPY, "gpu.barrier") and o not in guards and not is_pure(o):
                self.fail(o, "(before the wait of the prefetch-pipelined loop) has side "
                             "effects: rolled back, the loop would run it S-1 more times")

    def _guarded(self, guard):
        """The copy the body's ``scf.if`` ``guard`` runs
        (:func:`~pipeline_mlir.frontend.reroll_ops.guarded_copy`), whose condition holds alike
        in every iteration (computed from no argument of the body's block, neither the
        induction variable nor a carried value: the ops before the wait are free of memory
        effects, so it is the same in every iteration); else refused."""
        copy = guarded_copy(guard)
        if copy is None:
            self.fail(guard, "(before the wait of the prefetch-pipelined loop) guards a copy "
                             "and more: the roll-back takes a guard with no results and no "
                             "else ops whose region is one amdgpu.gather_to_lds and ops "
                             "free of memory effects")
        if depends(guard.operands[0], set(self.args)):
            self.fail(guard, "guards a copy of the prefetch-pipelined loop with a condition "
                             "computed from the loop's induction variable or the values it "
                             "carries: the roll-back takes a guard that holds alike in every "
                             "iteration (IREE's is of the thread id)")
        self.guards[copy] = guard
        return copy

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

    # ---- the rewrite ---------------------------------------------------------------------
    def _rewrite(self) -> None:
        loop = self.loop
        block = loop.block
        dead = [x for o in self.prologue for x in outer_operands(o)] + \
            list(loop.operands)[3:]
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
