"""The copies of K tiles IREE's pipelining through registers left straight, read as one
copy made from each tile's values, and cloned into the rebuilt loop.

:mod:`~pipeline_mlir.frontend.reroll_straight_regs` rebuilds a K-loop from ``T`` K tiles
left straight.  :class:`TileCopies` reads each copy (one LDS store per tile and the ops
making its operands) jointly over the tiles: a tuple of values, one per tile, is ``same``
(one value), ``op`` (each tile's made by the same op, a guarded load's regions too: the
loop clones one of them with its operands' tuples) or a ``leaf`` (integers, indices or
masks made before the loop, without memory: the loop makes ``x_0 + t * step`` where each
tile's is that, its forms say, and chooses the rest by the trip ``t``).  Two of IREE's
foldings are read back: a select of an ``i1`` whose condition IREE folded true in some
tiles (a mask of C's edge, a K row's padding) is that select with ``true`` there, and a
guarded load folded to its pass-through (a copy of rows wholly past K) stores that
pass-through through ``select(t is not that tile, <the load>, <the pass-through>)``, the
load of that tile made from what the other tiles' values give (:data:`ANY`).  A guarded
load's distance to its buffer's end is an ``affine.apply`` of the load's indices whose map
IREE folds per tile (a row that is a constant in the last tile goes into its constant
term: i8 batch 2 x 547x183x142, B ``K x N``, 4 stages, where the loop's choice by ``t``
was refused by the guard check while the prefetch point pipelined): where each tile's is
the row-major index of that tile's own indices (``guard_condition.is_row_major_index``,
the indices themselves, not casts of them), the loop makes it the row-major index of its
own load's indices, the guard check's form.  So iteration ``t`` of the loop copies what K
tile ``t`` copies.
"""

from __future__ import annotations

from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.ir_facts import row_major_strides
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.guard_condition import is_row_major_index
from pipeline_mlir.frontend.guarded_load import folded
from pipeline_mlir.frontend.kernel_ir import at, bounds_checked, is_pure
from pipeline_mlir.frontend.reroll_parts import load_parts_of
from pipeline_mlir.frontend.reroll_proof import same_op_but_operands
from pipeline_mlir.frontend.straight_tiles import form_step

#: a folded guarded load's or a folded select's condition, as the loop makes it (true)
TRUE = object()
#: a tile's value the loop may make as it likes (the load of a tile whose copy stores its
#: pass-through whatever it loads)
ANY = object()


class TileCopies:
    """Tile 0's copies and what the other tiles' are made of: each tuple of values (one
    per tile, made alike) is ``same`` (one value), ``op`` (each tile's made by the same op,
    tile 0's cloned into the loop with its operands' tuples) or a ``leaf`` (values made
    before the loop, chosen by the loop's iteration)."""

    def __init__(self, tiles) -> None:
        self.t = tiles
        self.n = tiles.tiles_n
        self.kind: dict = {}        # values tuple -> "same" | "op" | "leaf"
        self.order: list = []       # the "op" tuples of ops, operands first
        self.leaf: dict = {}        # values tuple -> (step or None, first tile selected)
        self.slots: dict = {}       # ops tuple -> (the tile cloned, [(k, p, values)])
        self.padded: dict = {}      # ("padded", loaded) -> (loaded, pad, folded tiles)
        self.guards: list = []      # per guarded load copied: its masked load per tile
        self.rowmajor: dict = {}    # values tuple -> (strides, the indices' tuples)

    def fail(self, op, what: str):
        self.t.fail(op, what)

    def copy(self, stores: tuple) -> None:
        """Read one copy: its store in each tile and what makes its operands.  Where a
        tile's copy loads from a folded guarded load (its mask false in every lane: the
        whole run past the buffer's rows, its pass-through whatever it reads), the loop
        stores ``select(%t is not such a tile, <the load>, <that pass-through>)`` (as IREE
        pads a K row past K), its load of that tile anything the other tiles' values give
        (:data:`ANY`): the load must be of a range-checked buffer (a read past its records
        reads zero, never faults)."""
        vals = tuple(s.operands[0] for s in stores)
        owners = [_defining(v) for v in vals]
        fold = {j for j, o in enumerate(owners)
                if o is not None and o.name == "scf.if" and folded(o) is not None}
        if not fold or len(fold) == self.n:
            self._ops(stores)
            return
        pads = {folded(owners[j]).passthrough for j in fold}
        if len(pads) != 1:
            self.fail(stores[max(fold)], "stores the pass-throughs of folded guarded loads "
                                         "that differ from one peeled K tile to another")
        for j in range(1, self.n):
            if not same_op_but_operands(stores[0], stores[j]):
                self.fail(stores[j], f"(K tile {j}) is not K tile 0's store at "
                                     f"{at(stores[0])} repeated")
        t = next(j for j in range(self.n) if j not in fold)
        parts = load_parts_of(owners[t]) if owners[t] is not None else None
        if parts is None or not bounds_checked(parts[0]):
            self.fail(stores[t], f"(K tile {t}) stores a load of a buffer without its range "
                                 f"check where K tile {min(fold)} stores a folded guarded "
                                 f"load's pass-through: the rebuilt loop would load that tile "
                                 f"at an address no tile reads, which may fault")
        loaded = tuple(ANY if j in fold else v for j, v in enumerate(vals))
        self._value(loaded, stores)
        key = ("padded", loaded)
        self.kind[key] = "padded"
        self.padded[key] = (loaded, pads.pop(), sorted(fold))
        self._slots(stores, 0, [(0, 0, key)] + [
            (0, p, tuple(s.operands[p] for s in stores))
            for p in range(1, len(stores[0].operands))], sites=stores)

    def _value(self, vals: tuple, sites: tuple) -> None:
        """Read one tuple of values (one per tile, each used by the op of ``sites``) as
        ``same``, ``op`` or ``leaf``."""
        if vals in self.kind:
            return
        if TRUE in vals:
            self.kind[vals] = "leaf"
            return
        real = [v for v in vals if v is not ANY]
        if all(v == real[0] for v in real):
            self.kind[vals] = "same"
            if self._from_memory(real[0]):
                site = next(x for x in sites if x is not ANY)
                self.fail(site, f"uses a value that every peeled K tile's copy uses, made "
                                f"from memory (at {at(_op(real[0].owner))}): each K tile "
                                f"copies its own")
            return
        owners = [ANY if v is ANY else None if isinstance(v.owner, ir.Block) else
                  _op(v.owner) for v in vals]
        first = next(o for o in owners if o is not ANY)
        ro = [o for o in owners if o is not ANY]
        if all(o is not None for o in ro) and \
                len({list(o.results).index(v) for o, v in zip(ro, real)}) == 1 and \
                all(same_op_but_operands(first, o) for o in ro) and \
                (is_pure(first) or load_parts_of(first) is not None):
            self._ops(tuple(owners))
            self.kind[vals] = "op"
            return
        if ANY not in vals and self._folded_selects(vals, owners):
            return
        if self._row_major(vals):
            return
        if any(self._from_memory(v) for v in real):
            k = next(j for j, o in enumerate(owners) if o is not ANY)
            j = next((j for j, o in enumerate(owners) if o is not ANY and
                      (o is None or not same_op_but_operands(first, o))),
                     next(j for j, v in enumerate(vals) if self._from_memory(v)))
            mem = next(v for v in (vals[j], vals[k]) if self._from_memory(v))
            self.fail(sites[j], f"(K tile {j}) makes its copy from another value than K tile "
                                f"{k} does, made from memory (at {at(_op(mem.owner))}): the "
                                f"copies of each K tile are made by the same ops, but for "
                                f"integers, indices and masks")
        t = real[0].type
        el = ir.VectorType(t).element_type if isinstance(t, ir.VectorType) else None
        if not (isinstance(t, (ir.IntegerType, ir.IndexType)) or
                (isinstance(el, ir.IntegerType) and ir.IntegerType(el).width == 1)):
            j = next(j for j, v in enumerate(vals) if v is not ANY and v != real[0])
            self.fail(sites[j], f"(K tile {j}) uses another {t} than K tile 0's copy: from "
                                f"one K tile's copies to another's only integers, indices "
                                f"and masks may differ")
        self.kind[vals] = "leaf"

    def _folded_selects(self, vals: tuple, owners: list) -> bool:
        """Values that are ``arith.select %c, %x, %p`` of an ``i1`` ``%c`` in some tiles
        and ``%x`` alone in the others (IREE folds a select whose condition is true there:
        a mask's of C's edge, a K row's padding past K): read as that select in every tile,
        ``%c`` true where it is not (so the loop makes one select, as IREE's own loop
        does)."""
        def sel(o):
            return o is not None and o.name == "arith.select" and \
                isinstance(o.operands[0].type, ir.IntegerType)
        t = next((j for j, o in enumerate(owners) if sel(o)), None)
        if t is None:
            return False
        pad = owners[t].operands[2]
        cond = tuple(o.operands[0] if sel(o) else TRUE for o in owners)
        kept = tuple(o.operands[1] if sel(o) else v for o, v in zip(owners, vals))
        pads = tuple(o.operands[2] if sel(o) else pad for o in owners)
        key = tuple(owners)
        self.kind[key] = self.kind[vals] = "op"
        self._slots(key, t, [(0, 0, cond), (0, 1, kept), (0, 2, pads)], sites=tuple(owners))
        return True

    def _row_major(self, vals: tuple) -> bool:
        """Values that are, in every tile, the row-major index of the indices of that
        tile's masked load of one guarded load copied (``guard_condition.
        is_row_major_index``: an ``affine.apply`` of them, IREE's distance to the buffer's
        end in its guard, whose map IREE folds per tile, a constant index into its constant
        term): read as that index of the loop's own indices (``rowmajor``), so the loop's
        guard is IREE's test of its own load, as each tile's was."""
        for loads in self.guards:
            if any(v is not ANY and (m is ANY or not is_row_major_index(v, m))
                   for v, m in zip(vals, loads)):
                continue
            m = next(m for m in loads if m is not ANY)
            t = ir.MemRefType(m.operands[0].type)
            idx = [tuple(ANY if x is ANY else x.operands[1 + i] for x in loads)
                   for i in range(t.rank)]
            for x in idx:
                self._value(x, loads)
            self.kind[vals] = "rowmajor"
            self.rowmajor[vals] = (row_major_strides(t.shape), idx)
            return True
        return False

    def _from_memory(self, v) -> bool:
        return v is not ANY and not isinstance(v.owner, ir.Block) and \
            _op(v.owner) in self.t.dep

    def _ops(self, ops: tuple) -> None:
        """Each tile's op made alike (a guarded load's regions too; :data:`ANY` for a tile
        whose value is not used): the values they use from outside themselves read as
        tuples (``slots[ops]``: the tile whose op the loop clones, and per operand of its
        ops ``(k, p, values)``)."""
        if ops in self.kind:
            return
        self.kind[ops] = "op"
        t = next(j for j, o in enumerate(ops) if o is not ANY)
        inner = [None if o is ANY else _nested(o) for o in ops]
        for j, x in enumerate(inner):
            if x is not None and len(x) != len(inner[t]):
                self.fail(ops[j], f"(K tile {j}) is not made as K tile {t}'s op at "
                                  f"{at(ops[t])} (its regions differ)")
        if ops[t].name == "scf.if" and inner[t][1].name == "vector.maskedload":
            self.guards.append(tuple(ANY if x is None else x[1] for x in inner))
        own = _own_values(inner[t])
        slots = []
        for k, o0 in enumerate(inner[t]):
            for j, x in enumerate(inner):
                if x is not None and not same_op_but_operands(o0, x[k]):
                    self.fail(x[k], f"(K tile {j}) is not K tile {t}'s op at {at(o0)} "
                                    f"repeated (its name, attributes or types differ)")
            sites = tuple(ANY if x is None else x[k] for x in inner)
            for p in range(len(o0.operands)):
                if o0.operands[p] in own:
                    continue    # (made inside the op: load_parts_of admits only IREE's
                    #              guarded load, whose regions it checks op by op)
                slots.append((k, p, tuple(ANY if x is None else x[k].operands[p]
                                          for x in inner), sites))
        self._slots(ops, t, slots)

    def _slots(self, ops: tuple, t: int, slots: list, sites: tuple | None = None) -> None:
        """Record how the loop clones ``ops``' tile ``t`` op: ``slots`` the ``(k, p,
        values[, sites])`` of its operands (``sites``: the ops using them, per tile)."""
        slots = [x if len(x) == 4 else (*x, sites) for x in slots]
        for _k, _p, vals, where in slots:
            if vals not in self.kind:
                self._value(vals, where)
        self.slots[ops] = (t, [x[:3] for x in slots])
        self.order.append(ops)

    def leaves(self, forms: Forms) -> None:
        """How the loop makes each leaf: ``x_0 + t * step`` for the first tiles whose values
        are (their forms), the rest selected (``first``)."""
        for vals, kind in self.kind.items():
            if kind != "leaf":
                continue
            step, first = None, 1
            if TRUE not in vals and vals[0] is not ANY and \
                    isinstance(vals[0].type, (ir.IntegerType, ir.IndexType)):
                for j in range(1, self.n):
                    if vals[j] is ANY:
                        continue
                    s = form_step(forms, vals[0], vals[j], j)
                    if s is None or step not in (None, s):
                        break
                    step, first = s, j + 1
            self.leaf[vals] = (step, first)

    # ---- the loop's copies ---------------------------------------------------------------
    def unit(self, loop_step) -> int:
        """The loop's step (``loop_step`` of the leaves' per-tile steps:
        :meth:`~pipeline_mlir.frontend.straight_tiles.StraightTiles.loop_step`), kept as the
        trips per K tile."""
        self.per_tile = loop_step([step for step, _first in self.leaf.values() if step])
        return self.per_tile

    def emit(self, iv, body, loop) -> None:
        """Tile 0's copies cloned at the end of ``body``, each value from the tile
        ``iv / per_tile`` is: leaves chosen by ``iv`` (constants made before ``loop``)."""
        self.iv, self.body, self.loop = iv, body, loop
        self.made: dict = {}
        self.casts: dict = {}
        self.tests: dict = {}
        self.consts: dict = {}
        for ops in self.order:
            self._clone(ops)

    def _get(self, vals: tuple):
        kind = self.kind[vals]
        if kind == "same":
            return next(v for v in vals if v is not ANY)
        if kind == "padded":
            loaded, pad, fold = self.padded[vals]
            load = self._get(loaded)
            keep = self._is_tile(fold[0], B.arith.CmpIPredicate.ne)
            with ir.InsertionPoint(self.body):
                for j in fold[1:]:
                    keep = B.arith.AndIOp(keep, self._is_tile(j, B.arith.CmpIPredicate.ne)
                                          ).result
                return B.arith.SelectOp(keep, load, pad).result
        if kind == "op":
            owners = tuple(ANY if v is ANY else _op(v.owner) for v in vals)
            t = next(j for j, o in enumerate(owners) if o is not ANY)
            return self.made[owners].results[list(owners[t].results).index(vals[t])]
        if vals not in self.made:
            self.made[vals] = self._leaf(vals) if kind == "leaf" else self._index(vals)
        return self.made[vals]

    def _index(self, vals: tuple):
        """The row-major index of the loop's indices of a guarded load (``rowmajor``)."""
        strides, idx = self.rowmajor[vals]
        operands = [self._get(x) for x in idx]
        syms = ", ".join(f"s{i}" for i in range(len(strides)))
        terms = " + ".join(f"s{i} * {k}" for i, k in enumerate(strides))
        m = ir.Attribute.parse(f"affine_map<()[{syms}] -> ({terms})>")
        with ir.InsertionPoint(self.body):
            return ir.Operation.create("affine.apply", results=[ir.IndexType.get()],
                                       operands=operands, attributes={"map": m}).result

    def _clone(self, ops: tuple) -> None:
        """The op of ``ops`` the loop clones (:meth:`_ops`), the values it uses from
        outside itself those of the tile the loop's iteration is (made first, before it)."""
        t, slots = self.slots[ops]
        uses = [(k, p, self._get(vals)) for k, p, vals in slots]
        new = ops[t].clone(ir.InsertionPoint(self.body))
        copy = _nested(new)
        for k, p, v in uses:
            copy[k].operands[p] = v
        self.made[ops] = new

    def _leaf(self, vals: tuple):
        step, first = self.leaf[vals]
        vals = tuple(self._true() if v is TRUE else v for v in vals)
        v = next(x for x in vals if x is not ANY)
        t = v.type
        with ir.InsertionPoint(self.body):
            if step:
                k = self._constant(t, step // self.per_tile)
                v = B.arith.AddIOp(v, B.arith.MulIOp(self._iv_as(t), k).result).result
            flag = isinstance(t, ir.IntegerType) and ir.IntegerType(t).width == 1
            for j in range(first, self.n):
                if vals[j] is ANY or vals[j] == v:
                    continue
                if not flag:
                    v = B.arith.SelectOp(self._is_tile(j), vals[j], v).result
                    continue
                # (an i1 made of comparisons and logic, as the front end evaluates
                # conditions: (t == j and x_j) or (t != j and v), v true: t != j or x_j)
                ne = self._is_tile(j, B.arith.CmpIPredicate.ne)
                if v == self._true():
                    v = B.arith.OrIOp(ne, vals[j]).result
                else:
                    v = B.arith.OrIOp(B.arith.AndIOp(self._is_tile(j), vals[j]).result,
                                      B.arith.AndIOp(ne, v).result).result
        return v

    def _true(self):
        return self._constant(ir.IntegerType.get_signless(1), 1)

    def _constant(self, t, v: int):
        """``arith.constant v : t``, made once before the loop."""
        key = (str(t), v)
        if key not in self.consts:
            with ir.InsertionPoint(self.loop):
                self.consts[key] = B.arith.constant(t, ir.IntegerAttr.get(t, v))
        return self.consts[key]

    def _iv_as(self, t):
        if isinstance(t, ir.IndexType):
            return self.iv
        key = str(t)
        if key not in self.casts:
            with ir.InsertionPoint(self.body):
                self.casts[key] = B.arith.IndexCastOp(t, self.iv).result
        return self.casts[key]

    def _is_tile(self, j: int, pred=None):
        """``%t == j`` (``pred`` another comparison; ``%t`` counting ``per_tile`` per K
        tile), made once."""
        pred = B.arith.CmpIPredicate.eq if pred is None else pred
        key = (j, str(pred))
        if key not in self.tests:
            k = self._constant(ir.IndexType.get(), j * self.per_tile)
            with ir.InsertionPoint(self.body):
                self.tests[key] = B.arith.CmpIOp(pred, self.iv, k).result
        return self.tests[key]


def _own_values(ops: list) -> set:
    """The values an op (``ops[0]``, followed by the ops nested in it) makes inside
    itself: its nested ops' results and its regions' block arguments."""
    own = {r for o in ops[1:] for r in o.results}
    own.update(a for o in ops for r in o.regions for b in r.blocks for a in b.arguments)
    return own


def _nested(op) -> list:
    """``op`` and the ops nested in its regions, in pre-order."""
    return walk_ops(op, lambda _o: True)
