"""Row-masked copies of IREE's padded dynamic-M/N kernels in its late form made plain
copies of a range-checked buffer (the prefetch form: :mod:`~pipeline_mlir.frontend.masked_rows`).

In the late form of the same dispatch IREE writes each thread's masked row as

* an ``scf.if`` on the row being below M (N) whose then-branch yields a ``vector.load`` of
  ``W`` elements of the global buffer at ``[row, col]`` and whose else-branch yields a
  constant zero (every bit clear, not -0.0), stored to a private ``memref.alloca`` of ``1 x W``;
* after the barrier, an ``scf.for`` of constant bounds (``0`` to ``W`` step ``w``) that
  loads ``w`` elements of the private row at ``[0, j]`` and stores them to the 1-D LDS
  tile at an address it computes (the tile's XOR swizzle written out);
* the workgroups run by a linearised loop (``scf.for %v = id to ub step count``, a
  grid-stride loop) whose upper bound is ``NT ceildiv(L, T)``, ``L`` the launch value
  sizing the buffer's rows.

:func:`unmask_guarded_rows` replaces that by ``R = W / w`` copies per thread in lane order
(copy ``j`` of thread ``t`` is IREE's run ``q mod R`` of thread ``q div R``, ``q = j S +
t`` for ``S`` threads, as a direct-to-LDS copy needs): IREE's guard, row, column and LDS
address computed for that thread and run (their index ops cloned with the thread id and
the store loop's variable substituted), and a read of ``w`` elements of a range-checked
view of the buffer (``amdgpu.fat_raw_buffer_cast``) at ``[guard ? row : L, col + j w]``:
row ``L`` lies past the buffer's end, where the range check reads zero, IREE's padding.
So each copy writes what IREE's run writes, whatever the guard says.

Checked per thread by the per-lane evaluator (no launch value sampled) at every K
iteration, and, at the K-loop's first, at every size ``L = T g + t`` for ``g`` in 0, 1
and 40961 and ``t`` in 1, 2, 3, ``T/2``, ``T - 1 .. T + 2``, ``2T + 3``, ``4T + 3`` and
``1001T + 3``, the first, middle and last workgroup of the grid, the kernel's other
launch sizes 1 and 300 (``T`` from the loop's bound, which must be ``NT ceildiv(L, T)``):
the new copies write the same LDS runs as IREE's (every address once) with the same
guards, columns and rows, and a row IREE reads lies below ``L`` (IREE's read past the end
would not be zero).  The guard and the row must not depend on the K-loop's variable, the
store loop must only address and store.  That a row the guard reads lies below ``L`` is
also proven for every workgroup and size (:mod:`~pipeline_mlir.frontend.row_proof_late`,
the sampling its cross-check); the substitution's other properties (the LDS runs, the
columns, the lane order) do not move with the size and are checked by evaluation.  A copy of this shape that fails a check is an
error at its ``scf.if``; other ``scf.if`` ops are left for the scan to refuse.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.analysis.ir_facts import (WORKGROUP_ID_OPS, block_size, constant_bounds,
                                             constant_int, defined_in, memory_space,
                                             zero_bits)
from pipeline_mlir.analysis.lane_ops import LAUNCH_VALUE_OPS
from pipeline_mlir.analysis.loop_eval import Evaluator, grid_stride
from pipeline_mlir.frontend.kernel_ir import depends, describe, is_pure, kernel_of, owner
from pipeline_mlir.frontend.marks import PROVEN_ROW
from pipeline_mlir.frontend.row_proof import Form
from pipeline_mlir.frontend.row_proof_late import prove_guarded_rows
from pipeline_mlir.frontend.masked_rows import (FAR, WORKGROUPS, erase_tree, fat_view,
                                                index_value, launch_dim, refuse_nonzero_fill)
from pipeline_mlir.kernel.int_arrays import distinct

__all__ = ["unmask_guarded_rows"]

#: the largest row tile looked for in the workgroup loop's bound
MAX_TILE = 1 << 16
#: the values the kernel's other launch sizes take while a copy is checked
OTHERS = (1, 300)


def unmask_guarded_rows(loop) -> int:
    """Replace every guarded row copy directly in ``loop``'s body (module docstring); the
    number replaced."""
    done, fat = 0, {}
    guards = [o for o in map(_op, loop.regions[0].blocks[0].operations)
              if o.name == "scf.if"]
    for guard in guards:
        p = _match(guard, loop)
        if p is None:
            continue
        _prove_and_rewrite(guard, loop, p, fat)
        done += 1
    return done


def _ops(region) -> list:
    return [_op(o) for o in region.blocks[0].operations] if len(region.blocks) else []


def _match(guard, loop) -> dict | None:
    """The parts of a guarded row copy whose guard is ``guard``, or None."""
    then, other = _ops(guard.regions[0]), _ops(guard.regions[1])
    if len(guard.results) != 1 or [o.name for o in then] != ["vector.load", "scf.yield"] or \
            [o.name for o in other] != ["scf.yield"] or \
            then[1].operands[0] != then[0].results[0]:
        return None
    load, uses = then[0], [_op(u.owner) for u in guard.results[0].uses]
    if len(uses) != 1 or uses[0].name != "vector.store" or len(load.operands) != 3:
        return None
    priv = uses[0].operands[1]
    alloca = owner(priv, "memref.alloca")
    if alloca is None or memory_space(priv.type) != "private":
        return None
    inner = [_op(u.owner) for u in priv.uses if _op(u.owner) != uses[0]]
    if len(inner) != 1 or inner[0].name != "vector.load":
        return None
    store = inner[0].parent
    if store is None or store.name != "scf.for" or store.parent != loop:
        return None
    lds = [o for o in _ops(store.regions[0]) if o.name == "vector.store"]
    if len(lds) != 1 or memory_space(lds[0].operands[1].type) != "workgroup" or \
            lds[0].operands[0] != inner[0].results[0]:
        return None
    return {"load": load, "pad": other[0].operands[0], "put": uses[0], "alloca": alloca,
            "get": inner[0], "store": store, "lds": lds[0], "buf": load.operands[0],
            "row": load.operands[1], "col": load.operands[2]}


def _refuse(guard, why: str):
    raise IRError(guard, f"{describe(guard)} guards a row-masked copy: {why}")


def _check_form(guard, loop, p: dict) -> tuple[int, int]:
    """The staging is the plain one of the module docstring: (``W``, ``w``)."""
    at = ir.MemRefType(p["alloca"].results[0].type)
    width = ir.VectorType(p["load"].results[0].type).shape
    bounds = constant_bounds(p["store"])
    iv = p["store"].regions[0].blocks[0].arguments[0]
    j = list(p["get"].operands)[2] if len(p["get"].operands) == 3 else None
    cast = j is not None and not isinstance(j.owner, ir.Block) and _op(j.owner).name in (
        "arith.index_cast", "arith.index_castui") and _op(j.owner).operands[0] == iv
    w = ir.VectorType(p["get"].results[0].type).shape
    if not zero_bits(p["pad"]):
        refuse_nonzero_fill(guard, "pads masked rows with a value other than zero")
    if not (list(at.shape) == [1, width[0]] and len(width) == 1 and
            [constant_int(x) for x in list(p["put"].operands)[2:]] == [0, 0] and
            constant_int(list(p["get"].operands)[1]) == 0 and (cast or j == iv) and
            bounds is not None and len(w) == 1 and bounds == (0, width[0], w[0])):
        _refuse(guard, "the front end takes one row of W elements read or zero, staged whole "
                       "and stored w elements at a time at the columns it holds")
    if any(not is_pure(o) for o in _ops(p["store"].regions[0])
           if o not in (p["get"], p["lds"]) and o.name != "scf.yield"):
        _refuse(guard, "its store loop does more than address and store the row")
    fixed = {loop.regions[0].blocks[0].arguments[0]}
    if depends(guard.operands[0], fixed) or depends(p["row"], fixed):
        _refuse(guard, "its guard or row changes with the K-loop; a row-masked copy masks "
                       "the rows of its workgroup's tile")
    return width[0], w[0]


def workgroup_loop(guard, loop, launch, others: list, ev) -> tuple:
    """(the linearised workgroup loop, T) (module docstring)."""
    wl = loop.parent
    while wl is not None and wl.name != "scf.for":
        wl = wl.parent
    if wl is None or not grid_stride(wl) or not depends(wl.operands[1], {launch}):
        _refuse(guard, "no linearised workgroup loop runs over the size it masks by")
    for o in others:
        ev.bind(o, 1)

    def ub(size: int) -> int:
        ev.bind(launch, size)
        return int(ev.value(wl.operands[1])[0])
    nt, lo, hi = ub(1), 1, MAX_TILE
    while lo < hi:                      # the largest size of one tile row: T
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ub(mid) == nt else (lo, mid - 1)
    for size in launch_sizes(lo, WORKGROUPS[-1]):
        if nt < 1 or lo >= MAX_TILE or ub(size) != nt * -(-size // lo):
            _refuse(guard, f"the workgroup loop's bound is not a multiple of ceildiv(the "
                           f"size, a tile) (at a size of {size})")
    return wl, lo


def check_lds_fixed(op, what: str, lds, wg) -> None:
    """Refuse ``op`` (``what`` it is, first words of the message) unless the LDS store
    ``lds``'s indices move with neither the workgroup (``wg``, the workgroup loop's
    variable, or an id) nor a value known only at launch: the front end's own copies of the
    buffer put each lane's elements where the sampled launch's workgroup 0 does, in every
    workgroup and at every size (a store placed by the size, the tile's rows reversed where
    the tile is partial, or runs swapped in one workgroup, was WRONG with exit 0)."""
    def moving(v) -> bool:
        if isinstance(v.owner, ir.Block):
            return v == wg
        return _op(v.owner).name in LAUNCH_VALUE_OPS + WORKGROUP_ID_OPS

    for x in list(lds.operands)[2:]:
        if depends(x, moving):
            raise IRError(op, f"{describe(op)} {what}: the LDS index of its row's store "
                              f"({describe(lds)}) moves with the workgroup or a value known "
                              f"only at launch; the front end's copies put each lane's "
                              f"elements where the sampled launch's workgroup 0 does")


def launch_sizes(tile: int, g: int) -> list[int]:
    """The launch values checked at tile row ``g`` (module docstring)."""
    edge = (1, 2, 3, tile // 2, tile - 1, tile, tile + 1, tile + 2)
    return sorted({tile * g + t for t in [*edge, *(tile * f + 3 for f in FAR)] if t > 0})


class _Slice:
    """Clones of the pure ops computing a value with some values substituted (``subst``),
    inserted at ``ip``; ``gpu.thread_id x`` stands for ``subst["tid"]``.  An op inside
    ``erased`` (the store loop, erased once the copies replace it) is cloned even where it
    depends on nothing substituted (a use of it would be left dangling), and one there
    that is not pure is refused."""

    def __init__(self, subst: dict, ip, erased) -> None:
        self.map, self.ip, self.erased = dict(subst), ip, erased

    def __call__(self, v):
        if v in self.map:
            return self.map[v]
        if isinstance(v.owner, ir.Block):
            return v
        o = _op(v.owner)
        if o.name == "gpu.thread_id" and str(o.attributes["dimension"]).endswith("x>"):
            return self.map["tid"]
        inside = defined_in(v, self.erased)
        if not is_pure(o):
            if inside:
                raise IRError(o, f"{describe(o)} computes an index of the guarded row's "
                                 f"LDS store inside its store loop and is not pure: the "
                                 f"copies that replace the loop cannot compute it again")
            return v
        ops = [self(x) for x in o.operands]
        if not inside and all(a == b for a, b in zip(ops, o.operands)):
            self.map[v] = v
            return v
        new = o.clone(self.ip)
        for i, x in enumerate(ops):
            new.operands[i] = x
        for old, nv in zip(o.results, new.results):
            self.map[old] = nv
        return self.map[v]


def _new_copies(p: dict, launch, geo: dict, src) -> list:
    """Copies in lane order (module docstring) before the store loop: their (guard, row,
    column, LDS address) values."""
    store = p["store"]
    siv = store.regions[0].blocks[0].arguments[0]
    runs, threads, w = geo["runs"], geo["threads"], geo["w"]
    out = []
    with ir.InsertionPoint(store), store.location:
        tid = B.gpu.thread_id(B.gpu.Dimension.x, upper_bound=threads)
        for j in range(runs):
            q = B.arith.addi(tid, index_value(j * threads))
            jw = B.arith.muli(B.arith.remui(q, index_value(runs)), index_value(w))
            jv = jw if siv.type == jw.type else B.arith.index_castui(siv.type, jw)
            cut = _Slice({"tid": B.arith.divui(q, index_value(runs)), siv: jv},
                         ir.InsertionPoint(store), store)
            s = cut(p["guard"].operands[0])
            row = B.arith.select(s, cut(p["row"]), launch)
            _op(row.owner).attributes[PROVEN_ROW] = ir.UnitAttr.get()
            col = B.arith.addi(cut(p["col"]), jw)
            addr = [cut(x) for x in list(p["lds"].operands)[2:]]
            v = B.vector.load(p["get"].results[0].type, src, [row, col])
            B.vector.store(v, p["lds"].operands[1], addr)
            out.append((s, row, col, addr[0]))
    return out


def _writes(ev, p: dict, w: int, runs: int) -> tuple:
    """(guard, row, column, LDS address) of IREE's copy per thread and run, flattened."""
    siv = p["store"].regions[0].blocks[0].arguments[0]
    s, row = ev.value(p["guard"].operands[0]), ev.value(p["row"])
    parts = []
    for j in range(runs):
        ev.bind(siv, j * w)
        parts.append((s, row, ev.value(p["col"]) + j * w, ev.value(p["lds"].operands[2])))
    ev.unbind(siv)
    return tuple(np.concatenate(x) for x in zip(*parts))


def _check(ev, p: dict, new: list, geo: dict, size: int | None, where: str) -> None:
    """The module docstring's checks at the values bound in ``ev``; ``size`` None: the
    columns and LDS addresses only."""
    guard = p["guard"]
    s, row, col, addr = _writes(ev, p, geo["w"], geo["runs"])
    ns, nrow, ncol, naddr = (np.concatenate([ev.value(c[i]) for c in new]) for i in range(4))
    a, b = np.argsort(addr, kind="stable"), np.argsort(naddr, kind="stable")
    if len(distinct(addr)) != len(addr) or not np.array_equal(addr[a], naddr[b]):
        _refuse(guard, f"its threads do not write distinct runs of the LDS tile {where}")
    s, row, col, ns, nrow, ncol = s[a], row[a], col[a], ns[b], nrow[b], ncol[b]
    if np.any((s != ns) | (ncol != col)):
        _refuse(guard, f"its guards or columns are not those of the tile's runs in lane "
                       f"order {where}")
    if size is None:
        return
    if np.any((s == 1) & ((row != nrow) | (row >= size))):
        _refuse(guard, f"a thread reads a row other than IREE's for its LDS run, or a row "
                       f"past the size, {where}")


def sample_points(ev, wl, launch, tile: int, others: list):
    """Bind, in turn, each launch value ``others`` takes (:data:`OTHERS`), each size
    :func:`launch_sizes` gives at the sampled tile rows and the first, middle and last
    workgroup of the linearised workgroup loop ``wl``; yield (size, workgroup) at each."""
    wg = wl.regions[0].blocks[0].arguments[0]
    for other in OTHERS:
        for o in others:
            ev.bind(o, other)
        for g in WORKGROUPS:
            for n in launch_sizes(tile, g):
                ev.bind(launch, n)
                last = int(ev.value(wl.operands[1])[0]) - 1
                for v in sorted({0, last // 2, last}):
                    ev.bind(wg, v)
                    yield n, v


def launch_values(loop, launch) -> list:
    """The kernel's other launch values sizing bindings (bound when the copy's are
    evaluated)."""
    subs = walk_ops(kernel_of(loop), lambda o: o.name == "hal.interface.binding.subspan")
    out = []
    for o in subs:
        for v in list(o.operands)[1:]:
            if v != launch and v not in out:
                out.append(v)
    return out


def guarded_setup(guard, loop, buf, refuse) -> tuple:
    """(the workgroup's size, the launch value ``L`` sizing ``buf``'s rows, the kernel's
    other launch values, an evaluator at ``guard``, the linearised workgroup loop, its tile
    ``T``) of the guarded row read from ``buf`` in ``loop``; ``refuse(guard, why)`` where
    the workgroup is not 1-D (and :func:`workgroup_loop`'s refusals)."""
    size = block_size(kernel_of(loop))
    if size is None or tuple(size[1:]) != (1, 1):
        refuse(guard, f"the front end takes it in a 1-D workgroup (the kernel's is {size})")
    launch = launch_dim(guard, buf)
    others = launch_values(loop, launch)
    ev = Evaluator(size, launch_values=False)
    ev.where = guard
    return (size, launch, others, ev, *workgroup_loop(guard, loop, launch, others, ev))


def _prove_and_rewrite(guard, loop, p: dict, fat: dict) -> None:
    """Check the guarded copy ``p`` (module docstring) and replace it."""
    width, w = _check_form(guard, loop, p)
    size, launch, others, ev, wl, tile = guarded_setup(guard, loop, p["buf"], _refuse)
    geo = {"w": w, "runs": width // w, "threads": int(np.prod(size))}
    p["guard"] = guard
    iv, wg = loop.regions[0].blocks[0].arguments[0], wl.regions[0].blocks[0].arguments[0]
    check_lds_fixed(guard, "guards a row-masked copy", p["lds"], wg)
    new = _new_copies(p, launch, geo, fat_view(p["buf"], loop, fat))
    lb, ub, step = constant_bounds(loop) or (constant_int(loop.operands[0]), None, None)
    if lb is None:
        _refuse(guard, "the K-loop's lower bound is not a constant")
    ev.bind(wg, 0)
    ev.bind(launch, tile)
    for k in (range(lb, ub, step) if step and step > 0 else ()):
        ev.bind(iv, k)
        _check(ev, p, new, geo, None, f"in K iteration {k}")
    ev.bind(iv, lb)
    for n, v in sample_points(ev, wl, launch, tile, others):
        _check(ev, p, new, geo, n, f"at a size of {n} and workgroup {v}")
    prove_guarded_rows(guard, guard.operands[0], p["row"], wl, launch, tile, geo["threads"],
                       {iv: Form(c=lb)})
    p["put"].erase()
    erase_tree(guard)
    erase_tree(p["store"])
    p["alloca"].erase()
