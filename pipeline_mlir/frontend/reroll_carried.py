"""IREE's 3-stage prefetch pipelining of copies through registers brought to its 2-stage form.

With ``prefetch_num_stages = 3`` IREE pipelines a K-loop whose copies go through registers
one K tile further than with 2 (:mod:`~pipeline_mlir.frontend.reroll_regs`): before the
loop it loads K tile 0 and stores it to the (one) LDS buffer of each operand, then loads K
tile 1 into registers, which the loop carries (an ``iter_arg`` per load); the body passes a
barrier, reads and multiplies the tile in LDS, passes a second barrier (and IREE's
``amdgpu.sched_barrier``), stores the carried tile to LDS and loads tile ``iv + 2 step``,
which it yields in its place; after the loop (two trips short) a barrier, the body's reads
and MFMAs, a barrier, the stores of the tile the loop's results carry, a barrier and the
reads and MFMAs again multiply the last two tiles (seen on f16 ``A^T x B`` 133x42x198 and
bf16 ``A x B^T`` 1024^3: every such late form was refused, the prefetch point pipelined).

:func:`uncarry` (each loop of a kernel: :func:`uncarry_all`) proves that form and rewrites
the loop into IREE's 2-stage one, which
:func:`~pipeline_mlir.frontend.reroll_regs.reroll_register_prefetch` then rolls back to
the one-stage loop as it does any 2-stage one (proving its prologue at K tile 0, its
epilogue and the rest).  What is proven first, anything else a located error:

* the loop's bounds are constants, its step positive, and it runs one trip more without
  wrapping its induction variable (:func:`~pipeline_mlir.frontend.reroll_proof.rolled_upper`);
  the induction variable is used once, as ``iv + 2 step`` (the tile the body loads);
* the body: ops free of memory effects, a ``gpu.barrier``, the compute (no op writing
  memory, none with regions), a ``gpu.barrier``, at most one ``amdgpu.sched_barrier``,
  then LDS ``vector.store`` s, each of a constant (a copy IREE folded to its padding, all
  of whose rows lie past C's edge in every workgroup: kept as it is, the 2-stage
  roll-back proving it against its prologue's), or of one carried ``iter_arg`` (its only
  use; every carried one stored once), or of its padding ``arith.select`` by a condition
  (defined before the loop, or computed from a carried integer, below) and a value defined before
  the loop (IREE sinks it above the second barrier, as with 2 stages, or leaves it among
  the stores, where it stays), at
  indices defined before the loop, and loads of global
  memory (a ``vector.load`` or IREE's guarded load) and ops free of memory effects, none
  reading a value of the compute or an ``iter_arg``: each carried ``iter_arg`` is yielded
  one such load's value (its only use), every load yielded (to an ``iter_arg`` no store
  reads where IREE folded the store to a constant: that load, and its load of K tile 1
  before the loop, dropped); an integer ``iter_arg`` used
  only by the ops computing for the stores and yielded a pure op's value after them is a
  carried integer (IREE's test that the carried tile's K rows lie inside K, feeding its
  padding select, whose condition may be computed from it); every other ``iter_arg`` an
  accumulator the compute alone reads and makes;
* each carried ``iter_arg``'s initial value is a load before the loop (its only use) that
  is the body's load of it at K tile 1 (``iv + 2 step`` bound to ``lb + step``): the same
  op, attributes and types, and for every thread of every workgroup the same buffer,
  elements, guard, mask and pass-through, proven as the 2-stage roll-back proves its
  tile 0 (by the forms over the workgroup's values, else every workgroup of the grid
  evaluated, a select IREE folded there evaluated true); each carried integer starts from
  the value the body computes for K tile 1 (by the forms, else in every workgroup); no op
  between that load and the loop writes memory other than LDS;
* after the loop: a ``gpu.barrier``, the body's ops between its barriers op for op (reading
  the loop's accumulators and carried tiles), a ``gpu.barrier``, the body's stores (and
  the padding selects among them) op for op, each storing the loop's
  result of the ``iter_arg`` the body's stores, then a ``gpu.barrier`` (where the 2-stage
  form's epilogue starts); the compute's values used only by what follows them.

The rewrite, exact by what was proven: by induction the ``iter_arg`` stored at trip
``iv`` is tile ``iv + step`` (tile 1 at the first trip; each trip yields tile
``iv + 2 step``, the next trip's ``iv + step``), which the body's own loads give when
they load tile ``iv + step``: so they do, moved to the top of the body (they read global
memory, which nothing in the loop writes), each store storing its load's value, the
carried ``iter_arg`` s dropped (a carried integer's uses given the body's value of it,
for tile ``iv + step`` now); the loop runs one trip more, which does what the
epilogue's first compute and stores did (the loads of that trip are the last tile's, whose
mask the body computes from the tile), so those go, and the epilogue's last compute reads
the loop's accumulators; the loads before the loop of tile 1 go.

No rewrite happens unless all of it is proven.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import ops_of, walk_ops
from pipeline_mlir.frontend.kernel_ir import at, depends, effects, erase_dead, in_lds, \
    is_pure, users_of
from pipeline_mlir.frontend.reroll import mirror_difference
from pipeline_mlir.frontend.reroll_proof import forms_difference, loop_bounds, rolled_upper, \
    stored_constant
from pipeline_mlir.frontend.reroll_parts import BARRIER, SCHED_BARRIER, STORE, Around, \
    detached_ops, inner_ops, padding_select, stored_value
from pipeline_mlir.frontend.reroll_regs import RegReroll

__all__ = ["carries_tiles", "uncarry", "uncarry_all"]

#: how the refusals name the loop
WHAT = "pipelined through registers in 3 stages"


def carries_tiles(around: Around) -> bool:
    """The loop (read as ``around``) stores to LDS, after its last MFMA and a barrier, values
    it carries (``iter_arg`` s) whose next values are its own loads of global memory, and
    stores of values loaded from global memory before it go to LDS: IREE's 3-stage
    prefetch pipelining of copies through registers (module docstring)."""
    if not around.late or not around.ops:
        return False
    body = around.ops[0].block
    args = list(body.arguments)[1:]
    yields = list(around.ops[-1].operands)
    loads = around.global_loads(around.ops)
    late = [o for o in around.late if o.name == STORE and in_lds(o.operands[1])]
    carried = [o for o, v in ((o, stored_value(o)) for o in late)
               if v in args and yields[args.index(v)] in loads]
    if not carried or not any(o.name == BARRIER for o in
                              around.late[:around.late.index(carried[0])]):
        return False
    before = around.global_loads(around.before)
    return any(o.name == STORE and in_lds(o.operands[1]) and depends(o.operands[0], before)
               for o in around.before)


def uncarry_all(root) -> None:
    """Every loop of ``root`` in IREE's 3-stage form (:func:`carries_tiles`) proven and
    rewritten into its 2-stage form (:func:`uncarry`), which
    :func:`~pipeline_mlir.frontend.reroll_regs.reroll_register_prefetch` then rolls back."""
    for loop in walk_ops(root, lambda o: o.name == "scf.for"):
        around = Around(loop)
        if carries_tiles(around):
            uncarry(loop, around)


def uncarry(loop, around: Around):
    """The loop ``loop`` (IREE's 3-stage form, :func:`carries_tiles`) proven and rewritten
    into IREE's 2-stage form (module docstring); the new loop."""
    with loop.context, loop.location:
        return _Uncarry(loop, around).run()


class _Uncarry(RegReroll):
    """One loop IREE pipelined through registers in 3 stages: its parts read and proven,
    then the rewrite into the 2-stage form (the proofs of its tile 1 are the 2-stage
    roll-back's of tile 0, :class:`~pipeline_mlir.frontend.reroll_regs.RegReroll`'s)."""

    FORM = "IREE's 3-stage prefetch pipelining of copies through registers"
    TILE = "K tile 1"
    LOOP = WHAT
    AHEAD = 2

    def run(self):
        self.lb0, self.step, self.trips = loop_bounds(
            self.loop, self.fail, f"{WHAT}: it stores carried tiles to LDS after its MFMAs")
        # one trip more than IREE's loop (its epilogue's first tile)
        self.ub = rolled_upper(self.loop, self.lb0, self.trips + 1, self.step, self.fail, WHAT)
        self.lb = self.lb0 + self.step       # the tile-1 value of iv + 2 step
        self.inits = list(self.loop.operands)[3:]
        self._induction()
        self._parts()
        self._tile_one()
        self._after()
        self.grid.check_covers()
        self.grid.release()
        return self._rewrite()

    def _parts(self) -> None:
        ops = self.ops[:-1]
        bars = [i for i, o in enumerate(ops) if o.name == BARRIER]
        if len(bars) != 2:
            self.fail(self.loop, f"({WHAT}) holds {len(bars)} gpu.barrier ops: IREE's holds "
                                 f"two, around its reads and MFMAs")
        first, second = bars
        self.barriers = (ops[first], ops[second])
        for o in ops[:first]:
            if not is_pure(o):
                self.fail(o, f"(before the first barrier of a loop {WHAT}) has memory "
                             f"effects: IREE's loop loads after its stores")
        self.mid = ops[first + 1:second]
        tail = ops[second + 1:]
        # a padding select of a carried tile sunk above the second barrier (IREE's K x M
        # operands): it belongs with its store
        self.detached = detached_ops(self.mid, tail)
        self.compute = [o for o in self.mid if o not in self.detached]
        for o in self.compute:
            e = effects(o)
            if len(o.regions) or e is None or any(k != "read" for k, _v in e):
                self.fail(o, f"(between the barriers of a loop {WHAT}) may write memory or "
                             f"holds regions: IREE's loop only reads LDS and multiplies there")
        self.sched = [o for o in tail[:1] if o.name == SCHED_BARRIER]
        tail = tail[len(self.sched):]
        self.stores = [o for o in tail if o.name == STORE]
        # (a store's padding select left after the barrier stays with it, as the stores do)
        pads = {p for p in map(padding_select, self.stores) if p is not None}
        # ... and the pure ops there computing only for those selects (their conditions)
        self.feeding = detached_ops(tail, list(pads))
        kept = pads | self.feeding
        self.ahead_ops = [o for o in tail if o.name != STORE and o not in kept]
        self.kept_tail = [o for o in tail if o.name == STORE or o in kept]
        # (the values made between the barriers: the loads after the stores move above them)
        made = {r for o in self.mid for r in o.results}
        self.scalars = self._scalars()
        self.carried = self._stores()
        self._loads(made)

    def _scalars(self) -> dict:
        """Per iter_arg carrying an integer the loop computes for the next tile (its index
        among the iter_args -> its yielded value): IREE carries whether the next tile's K
        rows lie inside K (an index, 0 or 1) into the padding select of its store.  Its
        yielded value is made by a pure op after the stores (from the tile two ahead),
        and its uses are the ops that compute only for the stores (sunk above the second
        barrier).  One the loop carries unchanged (yields its initial value) and never
        reads is one too."""
        tail = set(self.ahead_ops)
        out = {}
        for k, a in enumerate(self.args[1:]):
            if not list(a.uses) and self.yields[k] == self.inits[k]:
                out[k] = self.yields[k]     # (one IREE carries unchanged and never reads)
                continue
            y = _defining(self.yields[k])
            if not isinstance(a.type, (ir.IndexType, ir.IntegerType)) or y is None or \
                    y not in tail or not is_pure(y) or not list(a.uses) or \
                    any(_op(u.owner) not in self.detached and _op(u.owner) not in self.feeding
                        for u in a.uses):
                continue
            out[k] = self.yields[k]
        return out

    def _from_before(self, v, inside: set) -> bool:
        """``v`` is computed, through the pure ops computing for the stores, from values
        defined before the loop and the carried integers (:meth:`_scalars`) alone."""
        if isinstance(v.owner, ir.Block):
            return v.owner != self.body or (v in self.args[1:] and
                                            self.args.index(v) - 1 in self.scalars)
        d = _op(v.owner)
        if d not in inside:
            return True
        return (d in self.detached or d in self.feeding) and is_pure(d) and \
            all(self._from_before(x, inside) for x in d.operands)

    def _stores(self) -> dict:
        """Per carried iter_arg (its index among the iter_args), its LDS store and the op
        using it (the store, or the select padding it)."""
        inside = {_op(o) for o in self.body.operations}
        carried: dict = {}
        for s in self.stores:
            if any(_defining(x) in inside for x in list(s.operands)[1:]):
                self.fail(s, f"(an LDS store of a loop {WHAT}) stores at indices the body "
                             f"computes: IREE's are computed before the loop")
            if in_lds(s.operands[1]) and stored_constant(s) is not None:
                continue    # (a copy IREE folded to its padding: every tile's, kept)
            pad = padding_select(s)
            user = pad if pad is not None else s
            v = stored_value(s)
            k = self.args.index(v) - 1 if v in self.args[1:] else None
            if not in_lds(s.operands[1]) or k is None or k in carried or \
                    users_of(v) != [user]:
                self.fail(s, f"(after the second barrier of a loop {WHAT}) is not an LDS "
                             f"store of a tile the loop carries (or of its padding select), "
                             f"that tile's only use")
            if pad is not None and (not self._from_before(pad.operands[0], inside) or
                                    _defining(pad.operands[2]) in inside):
                self.fail(pad, f"(padding a tile a loop {WHAT} carries) selects by a "
                               f"condition or a padding value the body computes other than "
                               f"from an integer it carries for the tile: IREE's are "
                               f"computed before the loop, or carried")
            carried[k] = (s, user)
        return carried

    def _loads(self, made: set) -> None:
        """The loads after the stores: each carried iter_arg yielded one (its only use),
        every one of them carried; the other iter_args accumulators."""
        carried = self.carried
        banned = made | set(self.args[1:])
        self.loads = []
        for o in self.ahead_ops:
            if any(x in banned for i in [o] + inner_ops(o) for x in i.operands):
                self.fail(o, f"(after the stores of a loop {WHAT}) uses a value of the loop's "
                             f"reads and MFMAs or a carried value: IREE's loads there load the "
                             f"tile two ahead")
            if self.around.load_parts(o) is not None:
                self.loads.append(o)
            elif not is_pure(o):
                self.fail(o, f"(after the stores of a loop {WHAT}) is neither a load of "
                             f"global memory nor free of memory effects")
        self.pairs = []         # (carried iter_arg index, its body load)
        for k, (s, _user) in sorted(carried.items()):
            load = _defining(self.yields[k])
            if not self._yields_load(load):
                self.fail(s, f"(an LDS store of a loop {WHAT}) stores a carried value the "
                             f"loop does not yield as one of its loads (its only use)")
            self.pairs.append((k, load))
        # carried loads no store reads (IREE folded their store to the padding constant):
        # dropped with their loads, here and before the loop
        self.unread = {k: _defining(self.yields[k]) for k, a in enumerate(self.args[1:])
                       if k not in carried and k not in self.scalars and not list(a.uses)
                       and self._yields_load(_defining(self.yields[k]))}
        if len(self.pairs) + len(self.unread) != len(self.loads):
            self.fail(self.loop, f"({WHAT}) loads {len(self.loads)} values and carries "
                                 f"{len(self.pairs)} of them to its stores: IREE's carries "
                                 f"each of its loads to its next trip")
        compute = set(self.compute)
        self.accs = [k for k in range(len(self.args) - 1)
                     if k not in carried and k not in self.scalars and k not in self.unread]
        for k in self.accs:
            a, y = self.args[1 + k], _defining(self.yields[k])
            if any(_op(u.owner) not in compute for u in a.uses) or y not in compute:
                self.fail(self.loop, f"({WHAT}) carries iter_arg #{k}, which is neither a "
                                     f"tile it stores nor an accumulator its reads and MFMAs "
                                     f"read and make")

    def _yields_load(self, load) -> bool:
        """``load`` (the op defining an iter_arg's yielded value) is one of the body's loads
        after the stores, that value's only use the yield."""
        return load in self.loads and users_of(load.results[0]) == [self.ops[-1]]

    def _tile_one(self) -> None:
        """Each carried iter_arg's initial value is the body's load at K tile 1."""
        block = self.loop.block
        before = self.around.before
        self.prologue = []          # (the load before the loop, the body's load)
        for k, load in self.pairs + sorted(self.unread.items()):
            init = self.inits[k]
            pro = _defining(init)
            if pro is None or pro.block != block or users_of(init) != [self.loop] or \
                    self.around.load_parts(pro) is None:
                self.fail(self.loop, f"({WHAT}) carries iter_arg #{k} in from a value that is "
                                     f"not a load of global memory before the loop, its only "
                                     f"use (IREE's of K tile 1)")
            self.prologue.append((pro, load))
        self._same_ops()
        mine = {a for a, _b in self.prologue}
        first = min(before.index(o) for o in mine)
        for o in before[first:]:
            e = effects(o) if not len(o.regions) else None
            if o in mine or is_pure(o) or (o.name == STORE and in_lds(o.operands[1])) or \
                    self.around.load_parts(o) is not None:
                continue
            if e is None or any(kind == "write" for kind, _v in e):
                self.fail(o, f"(between the loads of K tile 1 before a loop {WHAT} and the "
                             f"loop) may write memory: those loads move into the loop, "
                             f"past it")
        pro_forms, body_forms = self._proven_pairs()
        for k, y in sorted(self.scalars.items()):
            self._same_scalar(k, self.inits[k], y, pro_forms, body_forms)

    def _same_scalar(self, k: int, init, y, pro_forms, body_forms) -> None:
        """The carried integer ``k`` starts from the value the body computes for K tile 1
        (``y`` with ``iv + 2 step`` bound to ``lb + step``), in every thread of every
        workgroup: by the forms, else each workgroup of the grid evaluated."""
        why = forms_difference(pro_forms, body_forms, [("carried value", [init], [y])])
        if why is None:
            return
        ahead = self.ahead.results[0]
        lead = (f"(pipelined through registers in 3 stages) is not proven to carry iter_arg "
                f"#{k} in as the body computes it for {self.TILE}")

        def differs(ev):
            mine = self._value(ev, init, "carried value", self.loop, why)
            ev.bind(ahead, self.lb)
            theirs = self._value(ev, y, "carried value", self.loop, why)
            ev.unbind(ahead)
            return None if np.array_equal(np.asarray(mine), np.asarray(theirs)) else \
                f"({WHAT}) carries iter_arg #{k} in as a value the body does not compute " \
                f"for {self.TILE}"
        self.grid.prove(self.loop, why, lead, differs)

    def _after(self) -> None:
        """A barrier, the compute, a barrier, the stores of the carried results, a
        barrier."""
        after = self.around.after
        n, s = len(self.mid), len(self.kept_tail)
        lead = (f"(after the loop {WHAT}) is not IREE's epilogue: a gpu.barrier, the body's "
                f"reads and MFMAs, a gpu.barrier, its stores of the carried tile, a "
                f"gpu.barrier")
        if len(after) < n + s + 3 or after[0].name != BARRIER or \
                after[n + 1].name != BARRIER or after[n + s + 2].name != BARRIER:
            self.fail(after[0] if after else self.loop, lead)
        m = {a: r for a, r in zip(self.args[1:], self.loop.results)}
        for body_ops, epi, what in ((self.mid, after[1:n + 1], "for the tile before the last"),
                                    (self.kept_tail, after[n + 2:n + 2 + s],
                                     "storing the last tile")):
            for b, e in zip(body_ops, epi):
                why = mirror_difference(b, e, m, self.body)
                if why is not None:
                    self.fail(e, f"(after the loop {WHAT}) is not the body's '{b.name}' op "
                                 f"at {at(b)} {what} ({why})")
                m.update(zip(b.results, e.results))
        self.first_half = after[:n + 2 + s]
        self.finals = [m[self.yields[k]] for k in self.accs]
        inside = set(after)
        final = set(self.finals)
        for v in [r for o in self.first_half for r in o.results] + list(self.loop.results):
            for u in v.uses:
                if _op(u.owner) not in inside or (v not in final and
                                                  _op(u.owner) not in self.first_half):
                    self.fail(_op(u.owner), f"uses a value of the loop {WHAT} or of its "
                                            f"epilogue that the 2-stage loop does not keep")

    def _rewrite(self):
        loop = self.loop
        first = self.barriers[0]       # (pure ops before it may feed the loads)
        with ir.InsertionPoint(first):
            t = self.args[0].type
            c = B.arith.ConstantOp(t, ir.IntegerAttr.get(t, self.step)).result
            ahead = B.arith.AddIOp(self.args[0], c).result
        moved = [x for x in self.ahead_ops if x != self.ahead]
        self.ahead.results[0].replace_all_uses_with(ahead)
        self.ahead.erase()
        for o in moved:
            o.move_before(first)
        for k, load in self.pairs:
            store, user = self.carried[k]
            user.operands[0 if user == store else 1] = load.results[0]
        unread = list(self.unread.values())
        for k, y in self.scalars.items():        # (its value for tile iv + step, now)
            self.args[1 + k].replace_all_uses_with(y)
        with ir.InsertionPoint(loop):
            ub = B.arith.ConstantOp(t, ir.IntegerAttr.get(t, self.ub)).result
            new = B.scf.ForOp(loop.operands[0], ub, loop.operands[2],
                              [self.inits[k] for k in self.accs])
        nb = new.body
        self.args[0].replace_all_uses_with(nb.arguments[0])
        for j, k in enumerate(self.accs):
            self.args[1 + k].replace_all_uses_with(nb.arguments[1 + j])
        for o in ops_of(loop.regions[0])[:-1]:
            nb.append(o)
        with ir.InsertionPoint(nb):
            B.scf.YieldOp([self.yields[k] for k in self.accs])
        for f, r in zip(self.finals, new.results):
            f.replace_all_uses_with(r)
        for o in reversed(self.first_half):
            o.erase()
        loop.erase()
        inner = [x for o in unread for x in o.operands if not isinstance(x.owner, ir.Block)]
        for o in unread:        # (their yields went with the old loop)
            o.erase()
        erase_dead(inner, new.body)
        mine = {o for a, _b in self.prologue for o in [a] + inner_ops(a)}
        dead = [x for o in mine for x in o.operands
                if not isinstance(x.owner, ir.Block) and _defining(x) not in mine]
        for a, _b in self.prologue:
            a.erase()
        erase_dead(dead, new.operation.block)
        return _op(new)
