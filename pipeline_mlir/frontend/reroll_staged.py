"""A copy staged through a thread's private buffer between two guards, as the roll-back of
IREE's prefetch pipelining through registers (:mod:`~pipeline_mlir.frontend.reroll_regs`)
reads it.

IREE's f32 kernels whose tile is copied one element a thread into padding rows by part of
the workgroup (f32 ``A^T x B`` 123x48x153 built with 2 prefetch stages: B's 4 x 16 tile by
threads 0 to 15 of 128) keep the copy in two guards of one condition, split across the
loop it pipelines: the first (:func:`staged_load`: ``scf.if %tid < 16``, a load of global
memory stored to a private ``memref<1x1x4xf32>``) with the body's loads, before its first
barrier; the second (:func:`staged_store`: the read back, a select padding the K rows past
K, the store into LDS) with its stores, after the second barrier; the prologue the same
pair at tile 0 through another private buffer.  The roll-back takes such a pair as it takes
a load and its store (:func:`staged_pair`: one condition, one private buffer that only the
pair accesses, at the same indices and type), proves the prologue's pair the body's at
tile 0 in each workgroup enumerated (:class:`StagedPairs`: the guards' conditions, the
global and LDS elements, the padding's condition and value, per thread), and puts the body's
second guard right after its first; the pair is then the prefetch point's, which the
front end's spread takes (:mod:`~pipeline_mlir.frontend.guarded_pairs`).  Where IREE's
canonicalizer merged the guards of two such copies of one condition (A's and B's, f32
``A^T x B`` 17x28x27), :func:`split_staged_guards` first makes each half a guard again.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import made_alike
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.views import view_root, view_users
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.guarded_load import folded, guarded
from pipeline_mlir.frontend.kernel_ir import at, in_lds, in_space, is_pure, users_of
from pipeline_mlir.frontend.reroll_parts import LOAD, SELECT, STORE, inner_ops, \
    load_parts_of, padding_select, stored_value
from pipeline_mlir.frontend.reroll_proof import access, access_difference, \
    same_op_but_operands

GUARD = "scf.if"


def _guarded_effects(op, n: int = 2):
    """The ops with memory effects of ``op``'s region when ``op`` is an ``scf.if`` with no
    results and no else ops whose region holds ``n`` such ops (only the first with regions:
    a guarded load) and ops free of memory effects (and of regions); else None."""
    if op.name != GUARD or len(op.results) or any(
            len(list(b.operations)) > 1 for b in op.regions[1].blocks):
        return None
    ops = [_op(o) for o in op.regions[0].blocks[0].operations][:-1]
    effects = [o for o in ops if not is_pure(o)]
    if len(effects) != n or any(len(o.regions) for o in ops if o is not effects[0]):
        return None
    return effects


def _private(v) -> bool:
    """``v`` is a view of a ``memref.alloca`` in private memory."""
    root = _defining(view_root(v))
    return in_space(v, "private") and root is not None and root.name == "memref.alloca"


def selected_load(value):
    """``(load, select)`` when ``value`` is an ``arith.select`` by a vector of ``i1`` of a
    ``vector.load`` of global memory (the load's only use) and a padding: IREE's guarded
    load folded at K tile 0 into a plain load (the prologue of f32 ``A^T x B^T``
    380x857x26); else None."""
    sel = _defining(value)
    if sel is None or sel.name != SELECT or \
            not isinstance(sel.operands[0].type, ir.VectorType):
        return None
    load = _defining(sel.operands[1])
    if load is None or load.name != LOAD or in_lds(load.operands[0]) or \
            _private(load.operands[0]) or users_of(load.results[0]) != [sel]:
        return None
    return load, sel


def _first_half(load, store):
    """``(load, store)`` when ``load`` loads global memory (a ``vector.load`` of neither LDS
    nor private memory, or IREE's guarded load of it:
    :func:`~pipeline_mlir.frontend.reroll_parts.load_parts_of`) and ``store`` stores the
    value, its only use (or its :func:`selected_load`, the select's only use), to a private
    buffer; else None."""
    parts = load_parts_of(load)
    if parts is None or _private(parts[0]) or \
            store.name != STORE or not _private(store.operands[1]):
        return None
    if store.operands[0] == load.results[0]:
        return (load, store) if users_of(load.results[0]) == [store] else None
    picked = selected_load(store.operands[0])
    if picked is None or picked[0] != load or users_of(picked[1].results[0]) != [store]:
        return None
    return load, store


def _second_half(load, store):
    """``(load, select, store)`` when ``load`` reads a private buffer back and ``store``
    stores the value, its only use (kept or padded by a select:
    :func:`~pipeline_mlir.frontend.reroll_parts.padding_select`, else None), to LDS; else
    None."""
    if load.name != LOAD or not _private(load.operands[0]) or store.name != STORE or \
            not in_lds(store.operands[1]) or stored_value(store) != load.results[0] or \
            users_of(load.results[0]) != [padding_select(store) or store]:
        return None
    return load, padding_select(store), store


def staged_load(op):
    """``(load, store)`` of the first guard of a staged copy (:func:`_first_half`), ``op``
    an ``scf.if`` (:func:`_guarded_effects`); else None."""
    ops = _guarded_effects(op)
    return None if ops is None else _first_half(*ops)


def staged_store(op):
    """``(load, select, store)`` of the second guard of a staged copy
    (:func:`_second_half`), ``op`` an ``scf.if``; else None."""
    ops = _guarded_effects(op)
    return None if ops is None else _second_half(*ops)


def staged_whole(op):
    """``((load, store), (load, select, store))`` of a staged copy held by one guard
    ``op`` (both halves, one after the other, staged as :func:`staged_pair` says: IREE's
    prologue of f32 ``A^T x B^T`` 621x1724x1099); else None."""
    ops = _guarded_effects(op, 4)
    halves = None if ops is None else (_first_half(*ops[:2]), _second_half(*ops[2:]))
    if halves is None or None in halves or _buffer_difference(halves[0][1], halves[1][0]):
        return None
    return halves


def staged_halves(first, second) -> tuple:
    """The halves of :func:`staged_whole` of a staged copy in the guards ``first`` and
    ``second`` (one guard: ``first`` is ``second``)."""
    if first == second:
        return staged_whole(first)
    return staged_load(first), staged_store(second)


def _buffer_difference(put, get) -> str | None:
    """None when ``get`` reads back the private buffer ``put`` writes, at the same indices
    (the same values) and of the same type, and no other op accesses that buffer; else why
    not."""
    root = view_root(put.operands[1])
    if view_root(get.operands[0]) != root or put.operands[1] != get.operands[0] or \
            list(put.operands)[2:] != list(get.operands)[1:] or \
            put.operands[0].type != get.results[0].type:
        return "the second does not read back what the first stores, at its indices"
    if {o for o, _v in view_users(root)} != {put, get}:
        return "another op accesses their private buffer"
    return None


def staged_pair(first, second) -> str | None:
    """None when the guards ``first`` (:func:`staged_load`) and ``second``
    (:func:`staged_store`) stage one copy: one condition (the same value) and the private
    buffer (:func:`_buffer_difference`); else why not."""
    if first.operands[0] != second.operands[0]:
        return "their conditions are not one value"
    return _buffer_difference(staged_load(first)[1], staged_store(second)[0])


def _halves(op) -> list | None:
    """The staged halves of the guard ``op``, its ops with memory effects two at a time,
    each pair a :func:`_first_half` or a :func:`_second_half` (only a pair's first op with
    regions: a guarded load; a barrier or a wait, which each clone would run again, is an op
    with effects of no half), when it holds two or more pairs; else None."""
    if op.name != GUARD or len(op.results) or any(
            len(list(b.operations)) > 1 for b in op.regions[1].blocks):
        return None
    ops = [_op(o) for o in op.regions[0].blocks[0].operations][:-1]
    effects = [o for o in ops if not is_pure(o)]
    pairs = [effects[i:i + 2] for i in range(0, len(effects), 2)]
    if len(pairs) < 2 or len(effects) % 2 or any(
            len(o.regions) for o in ops if o not in [p[0] for p in pairs]) or any(
            _first_half(*p) is None and _second_half(*p) is None for p in pairs):
        return None
    return [[ops.index(o) for o in p] for p in pairs]


def split_staged_guards(ops: list) -> int:
    """Each guard of ``ops`` that holds several halves of staged copies (:func:`_halves`:
    IREE's canonicalizer merges the adjacent guards of one condition, so the late form of
    a kernel whose A and B are both copied by part of the workgroup, f32 ``A^T x B``
    17x28x27 with 2 prefetch stages, loads both copies in one guard and stores both in
    another) made one guard per half, in their order, each a clone of the guard left with
    that half's two ops and the side-effect free ops they use; one copy's two halves in one
    guard (:func:`staged_whole`) stay one.  Exact: the same condition (one value) runs the
    same ops in the same order, the side-effect free ones computed again.  Returns how
    many guards were split."""
    count = 0
    for op in ops:
        halves = _halves(op)
        if halves is None or staged_whole(op) is not None:
            continue
        for keep in halves:
            clone = op.clone(ir.InsertionPoint(op))
            inner = [_op(o) for o in clone.regions[0].blocks[0].operations][:-1]
            drop = {i for h in halves if h is not keep for i in h}
            for i in reversed(range(len(inner))):   # (users first)
                o = inner[i]
                if i in drop or is_pure(o) and len(o.results) and \
                        not any(list(r.uses) for r in o.results):
                    o.erase()
        op.erase()
        count += 1
    return count


def merged_halves(ops: list) -> bool:
    """Some guard of ``ops`` holds several halves of staged copies (:func:`_halves`, one
    copy's two halves aside): what :func:`split_staged_guards` splits."""
    return any(_halves(o) is not None and staged_whole(o) is None for o in ops)


def staged_lds_stores(ops: list) -> list:
    """The LDS stores of the staged copies' second halves among the guards ``ops`` (a
    guard of a second half, :func:`staged_store`, or of a whole copy, :func:`staged_whole`)."""
    halves = [staged_store(o) or (staged_whole(o) or [None])[-1] for o in ops]
    return [h[2] for h in halves if h is not None]


class StagedPairs:
    """The proof of a prologue's staged copy against the body's (module docstring); a mixin
    of the roll-back's class, whose ``grid``, ``ahead``, ``lb``, ``TILE``, ``LOOP`` and
    ``fail`` it uses."""

    def _same_staged(self, pro: tuple, body: tuple) -> None:
        """The prologue's pair of guards ``pro`` (or one guard: the pair of it twice) is the
        body's ``body`` at :attr:`TILE`: the same ops (name, attributes, types) load, stage,
        read back, pad and store; then in each workgroup enumerated, for every thread
        (whether or not the guard runs the copy there), the same condition, global
        elements, LDS elements, padding condition and value (:meth:`_loaded`: of a load
        folded at tile 0, the lanes it keeps and its padding)."""
        (pg1, pg2), (bg1, bg2) = pro, body
        ((pl, pput), (pget, psel, pst)) = staged_halves(pg1, pg2)
        ((bl, bput), (bget, bsel, bst)) = staged_halves(bg1, bg2)
        lead = f"(before the loop {self.LOOP}) is not proven the body's copy staged " \
               f"through private memory at {at(bg1)}"
        if (psel is None) != (bsel is None):
            self.fail(pg2, f"{lead}: one of the two pads the value it stores, the other not")
        for x, y in [(pput, bput), (pget, bget), (pst, bst), (psel, bsel)]:
            if x is not None and not same_op_but_operands(x, y):
                self.fail(x, f"{lead}: it differs from the body's '{y.name}' op at {at(y)} "
                             f"in its attributes or types")
        loads, leaves, masks = self._loaded(pl, pput, bl, bput, lead)
        pads = [("padding condition", psel.operands[0], bsel.operands[0]),
                ("padding value", psel.operands[2], bsel.operands[2])] if psel else []
        for what, x, y in pads:
            pairs = made_alike(x, y)
            if pairs is None:
                self.fail(pl, f"{lead}: its {what} is not made by the same ops")
            leaves += [(what, a, b) for a, b in pairs]
        ahead = self.ahead.results[0]
        every = any(x is None for m in masks for x in m)     # (one load keeps every lane)
        width = ir.VectorType(pput.operands[0].type).shape[-1]

        def parts(ev, g, store, side):
            return (ev.value(g.operands[0]), access(ev, *loads[side]),
                    access(ev, store.operands[1], list(store.operands)[2:]),
                    [ev.value(leaf[side]) for leaf in leaves] +
                    [np.full(width, True) if m[side - 1] is None else
                     self._lanes(ev, m[side - 1], width, pl) for m in masks])

        def differs(ev):
            a = parts(ev, pg1, pst, 1)
            ev.bind(ahead, self.lb)
            b = parts(ev, bg1, bst, 2)
            ev.unbind(ahead)
            names = [w for w, _x, _y in leaves] + ["kept lane"] * len(masks)
            part = ("guards' conditions" if not np.array_equal(
                *np.broadcast_arrays(a[0], b[0])) else None) or \
                access_difference(a[1], b[1], "global") or \
                access_difference(a[2], b[2], "LDS") or \
                next((f"{w}s" for w, u, v in zip(names, a[3], b[3])
                      if not np.array_equal(*np.broadcast_arrays(u, v))), None)
            if part == "kept lanes" and every:
                return f"{lead} at {self.TILE}: one of the two loads every lane, the other " \
                       f"keeps lanes by a mask that does not keep them all"
            return None if part is None else f"{lead} at {self.TILE}: its {part} differ"
        self.grid.prove(pg1, "a copy staged through private memory is compared in each "
                             "workgroup", lead, differs)

    def _loaded(self, pl, pput, bl, bput, lead: str) -> tuple:
        """What the prologue's load ``pl`` and the body's ``bl`` (each staged by its ``put``)
        are compared by: ``({1: prologue's (memref, indices), 2: body's}, leaves, masks)``,
        the leaves (:func:`made_alike`) of a guarded load's guard, mask and pass-through
        when both load alike (the same ops, a guarded load's inner ops too); else, where each
        keeps lanes by a mask (a load folded at tile 0, :func:`selected_load`, or a guarded
        one: its masked load where it is half folded), the plain loads the same op, the
        pass-through and padding made alike, and the masks' lanes compared (``masks``, one
        pair); a plain load against one that keeps lanes by a mask (IREE folded the mask at
        tile 0, all true there: f32 ``A^T x B^T`` 28x1104x625) as a mask that keeps every
        lane (None), no padding compared: the other's mask must keep every lane too."""
        pick, bpick = selected_load(pput.operands[0]), selected_load(bput.operands[0])
        (pmem, pidx, pparts), (bmem, bidx, bparts) = load_parts_of(pl), load_parts_of(bl)
        loads = {1: (pmem, pidx), 2: (bmem, bidx)}
        if pick is None and bpick is None and pl.name == bl.name:
            if len(inner_ops(pl)) != len(inner_ops(bl)):
                self.fail(pl, f"{lead}: it differs from the body's '{bl.name}' op at "
                              f"{at(bl)} in its ops")
            for x, y in [(pl, bl)] + list(zip(inner_ops(pl), inner_ops(bl))):
                if not same_op_but_operands(x, y):
                    self.fail(x, f"{lead}: it differs from the body's '{y.name}' op at "
                                 f"{at(y)} in its attributes or types")
            pairs = [(w, x, y) for (w, x), (_w, y) in zip(pparts, bparts)]
            return loads, [(w, a, b) for w, x, y in pairs for a, b in self._alike(
                x, y, w, pl, lead)], []
        sides = []
        for load, picked, parts in ((pl, pick, pparts), (bl, bpick, bparts)):
            if picked is not None:      # (the load folded: its select's mask and padding)
                sides.append((load, picked[1].operands[0], picked[1].operands[2]))
            elif parts:                 # (IREE's guarded load, or it half folded)
                kept, g = dict(parts), guarded(load) or folded(load)
                sides.append((g.masked if g.load is None else g.load, kept["mask"],
                              kept["pass-through"]))
            else:                       # (every lane: no padding, its lanes all kept)
                sides.append((load, None, None))
        (pload, pmask, ppad), (bload, bmask, bpad) = sides
        if not same_op_but_operands(pload, bload):
            self.fail(pl, f"{lead}: it differs from the body's load at {at(bl)} in its "
                          f"attributes or types")
        pads = [] if ppad is None or bpad is None else \
            self._alike(ppad, bpad, "padding", pl, lead)
        return loads, [("padding", a, b) for a, b in pads], [(pmask, bmask)]

    def _alike(self, x, y, what: str, op, lead: str) -> list:
        """:func:`made_alike` of ``x`` and ``y``; else ``op`` refused."""
        pairs = made_alike(x, y)
        if pairs is None:
            self.fail(op, f"{lead}: its {what} is not made by the same ops")
        return pairs

    def _lanes(self, ev, v, width: int, op):
        """The lanes of the ``i1`` vector ``v`` of ``width`` lanes, per thread, that
        ``ev`` computes: a ``vector.create_mask`` of one size, a ``vector.broadcast`` of an
        ``i1``, an ``arith.select`` of two such by an ``i1``, or a splat constant; else
        ``op`` refused (the masks of a load folded at tile 0 are compared so)."""
        o = _defining(v)
        lanes = np.arange(width)
        if o is not None and o.name == "vector.create_mask" and len(o.operands) == 1:
            return lanes < np.asarray(ev.value(o.operands[0]))[..., None]
        if o is not None and o.name == "vector.broadcast" and \
                isinstance(o.operands[0].type, ir.IntegerType):
            return np.asarray(ev.value(o.operands[0]) != 0)[..., None] & (lanes >= 0)
        if o is not None and o.name == SELECT and \
                isinstance(o.operands[0].type, ir.IntegerType):
            keep = np.asarray(ev.value(o.operands[0]) != 0)[..., None]
            return np.where(keep, self._lanes(ev, o.operands[1], width, op),
                            self._lanes(ev, o.operands[2], width, op))
        splat = str(o.attributes["value"]).split(" :")[0] if o is not None and \
            o.name == "arith.constant" else None
        if splat in ("dense<true>", "dense<false>"):
            return np.full(width, splat == "dense<true>")
        self.fail(op, f"(before the loop {self.LOOP}) keeps the lanes of its load by a mask "
                      f"the roll-back does not evaluate ('{o.name if o else v}'): the masks "
                      f"of a load folded at tile 0 are compared lane by lane")
