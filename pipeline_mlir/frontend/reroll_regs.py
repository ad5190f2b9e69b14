"""IREE's prefetch pipelining of copies through registers rolled back to the one-stage loop.

IREE's default build of a kernel whose copies go through registers (fp8 matmuls, small
problems such as bf16 512^3) pipelines the K-loop itself before pipeline-opt sees its late
form: a prologue before the loop loads K tile 0 from global memory and stores it to the
(one) LDS buffer of each operand; the body loads tile ``iv + step`` into registers, passes
a barrier, reads and multiplies the tile in LDS, passes a second barrier (and IREE's
``amdgpu.sched_barrier``) and stores the loaded tile to LDS; the loop runs one iteration
fewer, and after it a barrier and a copy of the body's reads and MFMAs multiply the last
tile (the epilogue).  With an unaligned K (bf16 512x512x1020, fp8 512x512x1000) IREE loads
each tile, in the prologue and the body, through its guarded load
(:mod:`~pipeline_mlir.frontend.guarded_load`: an ``scf.if`` on whether the run reaches the
buffer's end, a ``vector.maskedload`` by the columns left in the tile in one region, a
``vector.load`` and an ``arith.select`` by the same mask in the other); the body's mask is
computed from ``iv + step``, so the last tile's is cut, and the prologue's, at tile 0,
folded by IREE (a constant).  The K rows of a ``K x N`` or ``K x M`` operand it loads
unmasked and pads past K by an ``arith.select`` sunk to each row's LDS store
(:func:`padding_select`; for a ``K x M`` one, with its condition, above the second barrier:
:func:`detached_ops`), which its prologue, at tile 0, folds away.

:func:`reroll_register_prefetch` recognises that form (:func:`is_register_prefetched`: LDS
stores of values loaded in the body after its MFMAs with a barrier between, and stores of
the same LDS before the loop) and rebuilds the loop IREE made it from, the one its
prefetch point holds: the second barrier, the body's loads of tile ``iv``, each with its
store beside it (:meth:`RegReroll._interleave`), the first barrier, the reads and MFMAs,
over the full trip count (a masked last tile included, computed by the body's own ops:
the front end peels it, :mod:`~pipeline_mlir.frontend.masks`); the prologue, the
``amdgpu.sched_barrier`` and the epilogue go.  (IREE's VectorDistribute late form
guards each group of those LDS stores with an ``scf.if`` on a constant ``true``: a loop
with such a guarded store after its MFMAs has those ifs, in its body and before it,
inlined first, :func:`~pipeline_mlir.frontend.const_if.inline_ifs`.)  Each of these is
proven first, and anything else is a located error:

* the loop carries accumulators only (an ``iter_arg`` that is not read by the body's
  reads and MFMAs alone, a loaded tile carried on, is refused: reroll_carried.py's job);
  its bounds are constants, its step positive; the rolled loop runs its trips (none when
  its upper bound is below its lower one) plus one, its upper bound one its induction
  variable's type holds (:func:`~pipeline_mlir.frontend.reroll_proof.rolled_upper`);
* the induction variable is used once, as ``iv + step`` (the tile the body loads): every
  value of the body, a guard or a mask too, is a function of that tile and of values
  defined before the loop, which the rolled loop computes with the same ops for tile
  ``iv``;
* the body: loads (``vector.load`` of memory other than LDS, or IREE's guarded load of it,
  whole or half folded where its mask is false in every lane, :func:`load_parts_of`) and
  ops without memory effects, a ``gpu.barrier``, the compute (no op writing memory, none
  with regions), a ``gpu.barrier``, at most one
  ``amdgpu.sched_barrier``, then ``vector.store``\\ s to LDS (and their index arithmetic,
  none of it using a value of the compute; ops between the barriers free of memory
  effects that compute only for them count as theirs) each of one load's value, kept or
  padded by a select or not, the load's only use (nothing else changes it in between),
  every load stored once; or of a constant (a copy IREE folded to its padding,
  :func:`~pipeline_mlir.frontend.reroll_proof.stored_constant`); a copy by part of the
  workgroup staged through private memory between two guards, the first among the loads
  and the second among the stores, is such a load and its store
  (:mod:`~pipeline_mlir.frontend.reroll_staged`, which proves its prologue twin; the
  halves of several such copies that IREE merged into one guard split first, one guard
  each: :func:`~pipeline_mlir.frontend.reroll_staged.split_staged_guards`);
* the prologue: the stores before the loop into the LDS the body stores to, as many as
  the body's, store ``j`` of a value loaded before the loop (its only use), or of the
  constant the body's store ``j`` stores (:meth:`RegReroll._same_constant`); store and load
  the body's store ``j`` and its load, at tile 0 (``iv + step`` bound to the lower
  bound): the same op, attributes and types (a guarded load's inner ops too), and for
  every thread of every workgroup and launch the same buffers, views and indices, each
  index the same linear form over the workgroup's values
  (:mod:`pipeline_mlir.analysis.id_forms`), for any grid, and for a guarded load the same
  guard (a form too), mask and pass-through (made by the same ops over integers of equal
  forms: :func:`~pipeline_mlir.analysis.id_forms.same_vector`), and for a store both pad
  the same select (its attributes), condition and padding value (parts as a guarded
  load's: :meth:`RegReroll._compared`); where the forms do not decide, the same buffer,
  placed alike (swizzle, the buffer casts' bounds), the same elements, guards, masks,
  pass-throughs, padding conditions and values (all but the first made by the same ops,
  :func:`~pipeline_mlir.analysis.id_forms.made_alike`, over values equal there) in each
  workgroup of the kernel's grid, enumerated
  (:class:`~pipeline_mlir.frontend.reroll_proof.Workgroups`); a store the body alone
  pads: not padded where the body's select keeps every row at tile 0
  (:meth:`RegReroll._body_pads`), one the prologue alone pads refused; every op from the first
  prologue op to the loop is one of them or has no memory effect, so moving the loads and
  stores into the loop moves them past nothing that reads or writes memory (nor a
  region);
* the epilogue: a ``gpu.barrier`` right after the loop, then the body's compute op for op
  (:func:`~pipeline_mlir.frontend.reroll.mirror_difference`: the accumulators read from the
  loop's results), making every accumulator the loop yields, whose values nothing but the
  epilogue and the kernel's use of its last accumulators reads.

All of it is proven before the IR changes (the inlined ifs aside: exact either way).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import Forms, made_alike
from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import ops_of, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.const_if import inline_constant_true_ifs, inline_ifs, \
    is_constant_true_if
from pipeline_mlir.frontend.guarded_load import FOLDED, FORM, fold_mismatch, guard_mismatch
from pipeline_mlir.frontend.kernel_ir import at, depends, effects, erase_dead, in_lds, \
    is_pure, users_of
from pipeline_mlir.frontend.reroll import mirror_difference
from pipeline_mlir.frontend.reroll_parts import BARRIER, SCHED_BARRIER, STORE, Around, \
    detached_ops, inner_ops, lds_roots, padding_select
from pipeline_mlir.frontend.reroll_ops import outer_operands
from pipeline_mlir.frontend.reroll_reguard import reguard, reselect_all
from pipeline_mlir.frontend.reroll_staged import StagedPairs, merged_halves, \
    split_staged_guards, staged_halves, staged_lds_stores, staged_load, staged_pair, \
    staged_store, staged_whole
from pipeline_mlir.frontend.reroll_tile0 import WHAT, TileZero
from pipeline_mlir.frontend.reroll_proof import RolledLoop, Workgroups, access, \
    access_difference, forms_difference, loop_bounds, rolled_upper, \
    same_op_but_operands, stored_constant

def is_register_prefetched(loop) -> bool:
    """``loop`` is an ``scf.for`` multiplying with MFMAs that stores to LDS, after its last
    MFMA and a barrier, values computed from its own loads of global memory, and stores of
    values loaded from global memory before it go to the same LDS: IREE's prefetch
    pipelining of copies through registers.  (A loop whose late stores have no barrier
    before them is left to the front end's own checks, which refuse it as loop-carried
    through LDS or already pipelined; so is one whose late stores are of other values, such
    as accumulators kept in LDS: :mod:`pipeline_mlir.frontend.lds_accumulators`.)"""
    return loop.name == "scf.for" and _prefetched(Around(loop))


def _prefetched(around: Around) -> bool:
    loaded = around.global_loads(around.ops)
    staged = [o for o in around.ops if staged_load(o) is not None]
    late = [o for o in around.late if o.name == STORE and in_lds(o.operands[1]) and
            depends(o.operands[0], loaded) or staged_store(o) is not None and any(
                staged_pair(f, o) is None for f in staged)]     # (or a staged copy's)
    if not late or not any(o.name == BARRIER for o in around.late[:around.late.index(late[0])]):
        return False
    late = [s for o in late for s in ([o] if o.name == STORE else staged_lds_stores([o]))]
    loaded = around.global_loads(around.before)
    early = [o for o in around.before if o.name == STORE and depends(o.operands[0], loaded)]
    early += staged_lds_stores(around.before)
    return bool(lds_roots(late) & lds_roots(early))


def reroll_register_prefetch(root) -> None:
    """Every loop of ``root`` IREE pipelined through registers (:func:`is_register_prefetched`)
    rolled back to its one-stage loop, as the module docstring says; a located error where
    the form is not exactly IREE's (IREE's 3-stage form brought to the 2-stage one first:
    :func:`~pipeline_mlir.frontend.reroll_carried.uncarry_all`)."""
    for loop in walk_ops(root, lambda o: o.name == "scf.for"):
        around = Around(loop)
        if _guarded_late_stores(around):
            inline_constant_true_ifs(loop)
            inline_ifs(around.before)
            around = Around(loop)
        if reselect_all(around.before):     # (a select by a mask true in every lane folded)
            around = Around(loop)
        if merged_halves(around.late):     # (both operands' staged copies in one guard)
            split_staged_guards(around.ops)
            split_staged_guards(around.before)
            around = Around(loop)
        if _prefetched(around):
            with loop.context, loop.location:
                RegReroll(loop, around).run()


def _guarded_late_stores(around: Around) -> bool:
    """The loop multiplies with MFMAs and, after them, stores to LDS inside an ``scf.if`` on
    a constant ``true``: IREE's VectorDistribute late form guards its copies' LDS stores so
    (in the body and before the loop); such ifs are inlined first (exact:
    :mod:`pipeline_mlir.frontend.const_if`), then the loop is judged as any other."""
    return any(is_constant_true_if(o) and any(x.name == STORE and in_lds(x.operands[1])
                                              for x in ops_of(o.regions[0]))
               for o in around.late)


class RegReroll(StagedPairs, TileZero, RolledLoop):
    """One loop IREE pipelined through registers: its parts read and proven, then the
    rewrite."""

    FORM = "IREE's prefetch pipelining of copies through registers"
    #: how the refusals name the loop
    LOOP = WHAT
    #: the K tiles ahead of the one it multiplies that the body loads
    AHEAD = 1

    def __init__(self, loop, around: Around) -> None:
        super().__init__(loop, around.ops, "IREE's loop pipelined through registers")
        self.around = around
        self.staged: list = []      # (the prologue's pair, the body's): staged copies

    def run(self) -> None:
        self._bounds()
        self._induction()
        self._body_parts()
        self._accumulators()
        self._prologue()
        self._epilogue()
        self.grid.check_covers()
        self.grid.release()
        self._rewrite()

    def _bounds(self) -> None:
        self.lb, self.step, self.trips = loop_bounds(
            self.loop, self.fail, f"{WHAT}: it stores to LDS after its MFMAs")
        self.ub = rolled_upper(self.loop, self.lb, self.trips + 1, self.step, self.fail, WHAT)

    def _induction(self) -> None:
        """``iv + AHEAD * step``, the tile the body loads, the one use of the induction
        variable."""
        iv = self.args[0]
        users = users_of(iv)
        ahead = users[0] if len(users) == 1 else None
        lead = self.AHEAD * self.step
        if ahead is None or ahead.name != "arith.addi" or constant_int(
                ahead.operands[1] if ahead.operands[0] == iv else ahead.operands[0]) != lead:
            self.fail(self.loop, f"({self.LOOP}) uses its induction variable other than "
                                 f"once, as iv + {lead} (the K tile the body loads)")
        self.ahead = ahead

    def _body_parts(self) -> None:
        """loads, barrier, compute, barrier, [sched_barrier], stores (module docstring)."""
        ops = self.ops[:-1]
        bars = [i for i, o in enumerate(ops) if o.name == BARRIER]
        if len(bars) != 2:
            self.fail(self.loop, f"(pipelined through registers) holds {len(bars)} "
                                 f"gpu.barrier ops: IREE's holds two, after the loads and "
                                 f"before the stores")
        first, second = bars
        self.barriers = (ops[first], ops[second])
        self.loads_part, self.compute = ops[:first], ops[first + 1:second]
        tail = ops[second + 1:]
        self.sched = [o for o in tail[:1] if o.name == SCHED_BARRIER]
        detached = detached_ops(self.compute, tail)
        self.compute = [o for o in self.compute if o not in detached]
        self.tail = [o for o in ops[first + 1:second] if o in detached] + \
            tail[len(self.sched):]
        self.stores = [o for o in self.tail if not is_pure(o)]
        made = {r for o in self.compute for r in o.results}
        for o in self.tail:
            if any(x in made for x in outer_operands(o)):
                self.fail(o, "(after the second barrier of a loop pipelined through "
                             "registers, or computing only for the stores there) uses a "
                             "value of the loop's reads and MFMAs: IREE's stores there "
                             "store the tile loaded ahead")
        staged = [o for o in self.loads_part if staged_load(o) is not None]
        for o in self.loads_part:
            if not is_pure(o) and self.around.load_parts(o) is None and o not in staged:
                why = "" if o.name != "scf.if" else (
                    f" (an 'scf.if' is taken there as {FORM} of global memory, or as "
                    f"{FOLDED}; this one is not: "
                    f"{fold_mismatch(o) or guard_mismatch(o) or 'it loads LDS'})")
                self.fail(o, f"(before the first barrier of a loop pipelined through "
                             f"registers) is neither a load of global memory nor free of "
                             f"memory effects{why}")
        for o in self.compute:
            e = effects(o)
            if len(o.regions) or e is None or any(k != "read" for k, _v in e):
                self.fail(o, "(between the barriers of a loop pipelined through registers) "
                             "may write memory or holds regions: IREE's loop only reads LDS "
                             "and multiplies there")
        loads = [o for o in self.loads_part if self.around.load_parts(o) is not None]
        loads += staged
        self.pairs = []
        for s in self.stores:
            if s.name == STORE and in_lds(s.operands[1]) and stored_constant(s) is not None:
                self.pairs.append((None, s))    # (a copy IREE folded to its padding)
                continue
            if staged_store(s) is not None:     # (a copy staged through private memory)
                self.pairs.append((self._staged_first(s, staged, self.loop), s))
                continue
            load = self.around.stored_load(s, self.body)
            if load is None or load not in loads:
                self.fail(s, "(after the second barrier of a loop pipelined through "
                             "registers) is not an LDS store of a value the body loads "
                             "before its first barrier, nor of a constant")
            if users_of(load.results[0]) != [padding_select(s) or s]:
                self.fail(load, "(a tile the loop pipelined through registers loads ahead) "
                                "has uses other than its one LDS store (or the select "
                                "padding it)")
            self.pairs.append((load, s))
        stored = [load for load, _s in self.pairs if load is not None]
        if len(stored) != len(loads) or not stored:
            self.fail(self.loop, f"(pipelined through registers) loads {len(loads)} values "
                                 f"and stores {len(stored)} of them to LDS: IREE's "
                                 f"stores each of its loads once")

    def _staged_first(self, second, firsts: list, where):
        """The guard of ``firsts`` (:func:`~pipeline_mlir.frontend.reroll_staged.staged_load`)
        whose copy the guard ``second`` (:func:`~pipeline_mlir.frontend.reroll_staged.
        staged_store`) stores (:func:`~pipeline_mlir.frontend.reroll_staged.staged_pair`);
        else ``second`` refused (``where``: the loop, or its block's op, for the message)."""
        whys = [(f, staged_pair(f, second)) for f in firsts]
        first = next((f for f, why in whys if why is None), None)
        if first is None:
            why = f" ({whys[0][1]})" if whys else ""
            place = "in the loop" if where == self.loop else "before the loop"
            self.fail(second, f"stores to LDS a value read back from private memory that no "
                              f"guard of its condition stages there {place} {self.LOOP}{why}")
        return first

    def _staged_buffers(self) -> set:
        """The ``memref.alloca``\\ s of the prologue's staged copies' private buffers."""
        return {_defining(view_root(staged_halves(*pair)[0][1].operands[1]))
                for pair, _body in self.staged}

    def _accumulators(self) -> None:
        """Only accumulators are carried: each iter_arg is read by the compute alone and
        yielded from it."""
        compute = set(self.compute)
        for k, a in enumerate(self.args[1:]):
            y = _defining(self.yields[k])
            if any(_op(u.owner) not in compute for u in a.uses) or y not in compute:
                self.fail(self.loop, f"(pipelined through registers) carries iter_arg #{k}, "
                                     f"which is not an accumulator its reads and MFMAs "
                                     f"read and make")

    # ---- the prologue: the body's loads and stores at tile 0 -----------------------------
    def _prologue(self) -> None:
        before = self.around.before
        roots = lds_roots([s for _l, s in self.pairs] +
                          [staged_store(s)[2] for _l, s in self.pairs if staged_store(s)])
        staged = {o: (staged_store(o) or (staged_whole(o) or [None])[-1]) for o in before}
        stores = [o for o in before if o.name == STORE and in_lds(o.operands[1]) and
                  view_root(o.operands[1]) in roots or staged[o] is not None and
                  view_root(staged[o][2].operands[1]) in roots]
        if len(stores) != len(self.pairs):
            self.fail(self.loop, f"(pipelined through registers) stores {len(self.pairs)} "
                                 f"loaded values to LDS and is preceded by {len(stores)} "
                                 f"stores to that LDS: IREE's prologue stores tile 0 with as "
                                 f"many")
        self.prologue = []      # the prologue's loads and stores, each the body's op
        for pro, (load, store) in zip(stores, self.pairs):
            if load is None:        # (the body's store of a constant: the same one)
                self._same_constant(pro, store)
                self.prologue.append((pro, store))
                continue
            if staged_store(store) is not None:     # (a staged copy: two guards, or one)
                firsts = [o for o in before[:before.index(pro)] if staged_load(o) is not None]
                if staged[pro] is None:
                    self.fail(pro, f"(an LDS store before the loop {self.LOOP}) is not "
                                   f"staged through private memory as the body's at "
                                   f"{at(store)}")
                whole = staged_store(pro) is None
                pair = (pro, pro) if whole else (self._staged_first(pro, firsts, pro), pro)
                self.staged.append((pair, (load, store)))
                self.prologue += list(zip(pair, (load, store)))[:1 if whole else 2]
                continue
            if reguard(pro, load):      # (IREE folded it before the loop: a false guard)
                before = self.around.before = Around(self.loop).before
            pload = self.around.stored_load(pro, self.loop.block)
            if pload is None or users_of(pload.results[0]) != [padding_select(pro) or pro]:
                self.fail(pro, "(an LDS store before a loop pipelined through registers) does "
                               "not store a value loaded before the loop, its only use")
            self.prologue += [(pload, load), (pro, store)]
        self._same_ops()
        mine = {a for a, _b in self.prologue} | set(self._prologue_pads()) | \
            self._staged_buffers()      # (the prologue's private buffers)
        first = min(before.index(o) for o in mine)
        for o in before[first:]:
            if o not in mine and not is_pure(o):
                self.fail(o, "(between the prologue of a loop pipelined through registers "
                             "and the loop) has memory effects: the prologue's loads and "
                             "stores move into the loop, past it")
        self._proven_pairs()

    def _same_ops(self) -> None:
        """Each op before the loop of :attr:`prologue` is its body's twin but for operands
        (name, attributes, types; a guarded load's inner ops too)."""
        for a, b in self.prologue:
            inner_a, inner_b = ([], []) if staged_load(b) or staged_store(b) else \
                (inner_ops(a), inner_ops(b))    # (a staged copy's: _same_staged)
            apart = next((f" (its '{x.name}' op at {at(x)})" for x, y in zip(inner_a, inner_b)
                          if not same_op_but_operands(x, y)), "")
            if not same_op_but_operands(a, b) or len(inner_a) != len(inner_b) or apart:
                self.fail(a, f"(before the loop {self.LOOP}) differs from the body's "
                             f"'{b.name}' op at {at(b)} in its attributes or types{apart}")

    def _proven_pairs(self) -> tuple:
        """Each pair of :attr:`prologue` accessing alike at :attr:`TILE` (``ahead`` bound to
        ``lb``), by the forms, else in every workgroup (:meth:`_same_access`); the forms
        (before the loop, the body's) for further proofs."""
        self.grid = Workgroups(self.loop, self.block, self.fail, self.LOOP)
        pro_forms = Forms(Evaluator(self.block, thread_only=True))
        body_forms = Forms(Evaluator(self.block, thread_only=True))
        body_forms.ev.bind(self.ahead.results[0], self.lb)
        for pro, body in self.staged:
            self._same_staged(pro, body)
        for a, b in self.prologue:
            if staged_load(b) or staged_store(b):
                continue
            pa, pb = self._compared(a, b, body_forms)
            why = forms_difference(pro_forms, body_forms, [
                ("buffer", [pa[0]], [pb[0]]), ("index", pa[1], pb[1])] +
                [(what, [x], [y]) for (what, x), (_w, y) in zip(pa[2], pb[2])])
            if why is not None:
                self._same_access(a, b, why, pa, pb)
        return pro_forms, body_forms

    def _same_constant(self, pro, store) -> None:
        """The prologue's LDS store ``pro`` stores the constant the body's ``store`` does
        (:func:`~pipeline_mlir.frontend.reroll_proof.stored_constant`: the same value and
        type); where it stores it is compared as any store's."""
        mine, theirs = stored_constant(pro), stored_constant(store)
        if mine is None or not same_op_but_operands(mine, theirs):
            self.fail(pro, f"(an LDS store before a loop pipelined through registers) does "
                           f"not store the constant the body's store at {at(store)} stores "
                           f"(a copy IREE folded to its padding stores it at every K tile)")

    def _prologue_pads(self) -> list:
        """The selects padding the prologue's stores (:func:`padding_select`), in their order."""
        return [p for p in (padding_select(a) for a, _b in self.prologue) if p is not None]

    def _compared(self, pro, body, body_forms) -> tuple:
        """The parts (:meth:`Around.access_parts`) of the prologue's op ``pro`` and the
        body's ``body`` compared: for two stores both padded by a select (:func:`padding_select`)
        of the same attributes, with its condition and padding value as parts too; a store
        the body alone pads proven by :meth:`_body_pads`; one the prologue alone pads
        refused."""
        pa, pb = self.around.access_parts(pro), self.around.access_parts(body)
        pad, bpad = padding_select(pro), padding_select(body)
        if pad is None and bpad is not None:
            self._body_pads(pro, body, bpad, body_forms)
        if pad is None or bpad is None:
            if pad is not None:
                self.fail(pad, f"(before the loop {WHAT}) pads the value the LDS store at "
                               f"{at(pro)} writes, where the body's store at {at(body)} does "
                               f"not")
            return pa, pb
        if not same_op_but_operands(pad, bpad):
            self.fail(pad, f"(before the loop {WHAT}) differs from the body's "
                           f"'arith.select' at {at(bpad)}, padding the value its LDS store "
                           f"writes, in its attributes or types")
        return tuple((m, idx, parts + [("padding condition", p.operands[0]),
                                       ("padding value", p.operands[2])])
                     for (m, idx, parts), p in ((pa, pad), (pb, bpad)))

    def _body_pads(self, pro, store, bpad, body_forms) -> None:
        """The prologue's store ``pro``, unpadded, stores what the body's ``store``, padded
        by the select ``bpad`` (:func:`padding_select`), does at tile 0: the select's condition
        is true at tile 0 for every thread (a form of no atoms, or every workgroup of the
        grid evaluated): IREE folds the select of K tile 0, all of whose rows lie inside
        K."""
        lead = f"(before the loop {WHAT}) is not proven to store what the body's store at " \
               f"{at(store)} does at K tile 0"
        keep = body_forms.form(bpad.operands[0])
        if not keep.atoms and np.all(keep.lanes != 0):
            return
        self._true_at_tile_0(pro, bpad, "padding", lead, f"it stores its load unpadded, "
                             f"where the body's 'arith.select' at {at(bpad)} pads rows of K "
                             f"tile 0")

    def _same_access(self, pro, body, why: str, pa: tuple, pb: tuple) -> None:
        """``pro`` (before the loop) accesses what ``body`` (the body's op of the same kind)
        does at tile 0, in every workgroup enumerated (the forms did not decide: ``why``):
        the same buffer, placed alike, the same elements and other parts (``pa`` and ``pb``,
        :meth:`_compared`: for a guarded load its guard, mask and pass-through, for a padded
        store its select's condition and padding value) made by the same ops
        (:func:`made_alike`) over values equal in the workgroup."""
        ahead = self.ahead.results[0]
        lead = f"(before the loop {WHAT}) is not proven the body's '{body.name}' op at " \
               f"{at(body)}"
        (mem, idx, parts), (bmem, bidx, bparts) = pa, pb
        leaves, masks = [], []
        for (what, x), (_w, y) in zip(parts, bparts):
            pairs = made_alike(x, y)
            if pairs is None:
                pairs = self._kept_at_tile_0(pro, x, y, what, lead)
            if pairs is None and what == "mask" and len(ir.VectorType(x.type).shape) == 1:
                masks.append((x, y))    # (folded otherwise: compared lane by lane)
                continue
            if pairs is None:
                self.fail(pro, f"{lead}: its {what} is not made by the same ops or "
                               f"attributes")
            leaves += [(what, a, b) for a, b in pairs]
        names = [w for w, _x, _y in leaves] + ["kept lane"] * len(masks)

        def differs(ev):
            a = access(ev, mem, idx)
            mine = [self._value(ev, x, w, pro, why) for w, x, _y in leaves] + \
                [self._lanes(ev, x, ir.VectorType(x.type).shape[0], pro) for x, _y in masks]
            ev.bind(ahead, self.lb)
            b = access(ev, bmem, bidx)
            theirs = [self._value(ev, y, w, body, why) for w, _x, y in leaves] + \
                [self._lanes(ev, y, ir.VectorType(y.type).shape[0], pro) for _x, y in masks]
            ev.unbind(ahead)
            part = access_difference(a, b, "LDS" if pro.name == STORE else "global")
            if part is None:
                part = next((f"{w}s" for w, u, v in zip(names, mine, theirs)
                             if not np.array_equal(*np.broadcast_arrays(u, v))), None)
            return None if part is None else \
                f"(before the loop {WHAT}) is not the body's " \
                f"'{body.name}' op at {at(body)} at {self.TILE}: its {part} differ"
        self.grid.prove(pro, why, lead, differs)

    # ---- the epilogue: a barrier and the body's compute for the last tile ----------------
    def _epilogue(self) -> None:
        after = self.around.after
        n = len(self.compute)
        if not after or after[0].name != BARRIER or len(after) < n + 1:
            self.fail(after[0] if after else self.loop,
                      "(after the loop pipelined through registers) is not IREE's epilogue: "
                      "a gpu.barrier, then the body's reads and MFMAs for the last tile")
        m = {a: r for a, r in zip(self.args[1:], self.loop.results)}
        for b, e in zip(self.compute, after[1:n + 1]):
            why = mirror_difference(b, e, m, self.body)
            if why is not None:
                self.fail(e, f"(after the loop pipelined through registers) is not the "
                             f"body's '{b.name}' op at {at(b)} for the last K tile ({why}): "
                             f"IREE's epilogue repeats the body's reads and MFMAs op for op")
            for x, y in zip(b.results, e.results):
                m[x] = y
        self.epilogue = after[:n + 1]
        self.finals = [m[y] for y in self.yields]
        inside, final = set(self.epilogue), set(self.finals)
        values = [r for o in self.epilogue for r in o.results] + list(self.loop.results)
        for v in values:
            for u in v.uses:
                if _op(u.owner) not in inside and v not in final:
                    self.fail(_op(u.owner), "uses a value of the loop pipelined through "
                                            "registers or of its epilogue that the one-stage "
                                            "loop does not keep (an intermediate value)")

    # ---- the rewrite ---------------------------------------------------------------------
    def _interleave(self) -> None:
        """Each op of the tail (the LDS stores, their index arithmetic and padding, where
        IREE left them: after the second barrier, or sunk above it) moved up to right after
        the last op of the body its operands come from, and after the tail's store before
        it (so the stores keep their order): each tile's store beside its load, as in
        IREE's one-stage loop.  The order is planned in one list (the body's other ops in
        their order, the second barrier now first), then each tail op moved once, after
        its planned predecessor.  Exact: the tail reads no value of the compute, stores
        only LDS, and the ops it moves past only load global memory or compute without
        memory effects."""
        tail = set(self.tail)
        ops = [_op(y) for y in self.body.operations]
        inside = set(ops)
        order = [o for o in ops if o not in tail]      # the body's order, planned first
        last = self.barriers[1]
        firsts = {s: f for f, s in self.pairs if f is not None and staged_load(f)}
        for o in self.tail:     # (a guard's region reads values of the body too)
            deps = [d for d in (_defining(x) for x in outer_operands(o)) if d in inside] + \
                [last] + ([firsts[o]] if o in firsts else [])
            order.insert(max(order.index(d) for d in deps) + 1, o)
            if o.name == STORE or o in firsts:
                last = o
        for i, o in enumerate(order):
            if o in tail:
                o.move_after(order[i - 1])

    def _rewrite(self) -> None:
        loop, block = self.loop, self.loop.block
        prologue = [a for a, _b in self.prologue if a.name == STORE] + \
            self._prologue_pads() + \
            [a for a, _b in self.prologue if a.name != STORE]     # users first
        mine = set(prologue)
        buffers = self._staged_buffers()    # (erased below, not among the dead values)
        dead = [x for o in prologue for x in outer_operands(o)
                if _defining(x) not in mine | buffers]
        for o in prologue:
            o.erase()
        for o in buffers:       # (the prologue's private buffers, now unused)
            o.erase()
        first = self.ops[0]
        second = self.barriers[1]
        if second != first:
            second.move_before(first)
        for o in self.sched:
            o.erase()
        self._interleave()
        self.ahead.results[0].replace_all_uses_with(self.args[0])
        self.ahead.erase()
        t = self.args[0].type
        with ir.InsertionPoint(loop):
            ub = B.arith.ConstantOp(t, ir.IntegerAttr.get(t, self.ub)).result
        loop.operands[1] = ub
        for f, r in zip(self.finals, loop.results):
            f.replace_all_uses_with(r)
        for o in reversed(self.epilogue):
            o.erase()
        erase_dead(dead, block)

