"""Loads masked by rows and by the K left in IREE's late form (its padded dynamic-M/N
kernels with K not a multiple of the K step) made reads masked by the K left only.

In IREE's late form of the kernels :mod:`~pipeline_mlir.frontend.masked_rows_k` takes at
the prefetch point, each thread's run of ``W`` elements of the A (B) tile is

* ``vector.maskedload`` of the global binding at ``[row, col]`` with the mask
  ``arith.select ok, (vector.create_mask c), 0`` (``ok``: the row is below M; ``c``: the
  elements of the run left in K) and a zero pass-through, stored to the LDS tile;
* for a buffer of static rows (B of a dynamic-M kernel), ``arith.select (c == W),
  (vector.load of a range-checked buffer), 0``: the run kept only when whole.

:func:`unmask_row_tails_late` makes the second a ``vector.transfer_read`` of the same
elements masked by ``(c == W ? W : 0)`` (padding 0: the same value), and the first, once
proven, a ``vector.transfer_read`` of a range-checked view of the binding
(``amdgpu.fat_raw_buffer_cast``, its size the binding's) at ``[ok ? row : M, col]`` masked
by ``c``: row M lies past the buffer's end, so a row that is not read reads zero, the
pass-through.  The proof is by evaluation, on every thread, over the linearised workgroup
loop :mod:`~pipeline_mlir.frontend.masked_rows_late` finds (the same workgroups, sizes and
other launch values): a row ``ok`` reads lies in ``0 .. M - 1`` (also proven for every
workgroup and size, :mod:`~pipeline_mlir.frontend.row_proof_late`); and in every iteration of
the K-loop ``0 <= c <= W`` and the ``c`` elements read lie in the row (``0 <= col``,
``col + c <= K``).  ``ok`` and the row must not move with the K-loop, ``c`` and ``col``
not with the workgroup or a launch value, and the pass-through must be zero.  The reads
then are masked by the K left only, which :mod:`~pipeline_mlir.frontend.masks` peels.  A
load of this shape that fails a check is an error at it; other masked loads are left to
the scan, which refuses them.  A load whose row and row guard move with the K-loop (a
``K x N`` B's K rows) goes to :mod:`~pipeline_mlir.frontend.kept_rows` instead.

A load may also sit in IREE's buffer-end ``scf.if`` (a guarded load,
:func:`~pipeline_mlir.frontend.guarded_load.guarded`): the ``scf.if`` is made the same read.
For a binding of static rows (IREE's partial edge tiles; the late form has no workgroup
loop) the guard is evaluated at every workgroup of the grid its ids' ``upper_bound`` give
(:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`, the grid a dispatch is launched
on), up to :data:`GRID_LIMIT` workgroups; a workgroup given otherwise is refused, and so is
a grid whose workgroups leave a row of the buffer unloaded (a matmul loads every row: the
kernel runs on more workgroups than its ids' bound says).  A run stored to LDS after a
barrier is read at its store.

IREE's late form clamps such a row to the buffer's rows (``row = min(r, M)``, ``ok`` its
test ``M - row > 0``: the i8 ``A x B^T`` 33x257x1000's A over M = 33; or to the rows left
in the tile, ``64 g + min(L, lr)``, its B over N = 100 in two tiles), where its prefetch
point reads the tile's own row ``r`` (:mod:`~pipeline_mlir.frontend.masked_rows_k`).  For a
binding of static rows the read is then at ``r`` itself (:func:`_clamped`,
:func:`_unclamped`) when, at every workgroup of the grid and on every thread, ``r >= 0``
and ``ok`` holds exactly where ``r < M`` (so ``r`` is the row read, and a row not read
lies past the buffer's end, zeros) and the last such row's elements lie within a buffer
load's 32-bit offset: the same elements and zeros as ``[ok ? row : M, col]``, on the
tile's rows as the prefetch point's, so both forms give the front end one block of rows
(one that splits along K, :mod:`~pipeline_mlir.frontend.ksplit`).  Where that does not
hold the read stays at ``[ok ? row : M, col]``.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (WORKGROUP_ID_OPS, block_size, constant_bounds,
                                             constant_int, element_bytes, memory_space,
                                             through_casts, zero_bits)
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.lane_ops import id_dimension
from pipeline_mlir.analysis.loop_eval import Evaluator, workgroup_grid
from pipeline_mlir.analysis.output_tiles import check_grid_covers
from pipeline_mlir.frontend.kernel_ir import (OFFSET_LIMIT, check_read_movable, depends, describe,
                                              erase_unused, kernel_of, owner, zero_end)
from pipeline_mlir.frontend.marks import PROVEN_ROW
from pipeline_mlir.frontend.masked_rows import (erase_tree, fat_view, flat_block,
                                                refuse_nonzero_fill, row_count, static_rows)
from pipeline_mlir.frontend.masked_rows_k import (check_columns, check_fixed_columns,
                                                  k_bounds, rewrite_runs, select_as_masked,
                                                  whole_run_select)
from pipeline_mlir.frontend.guarded_load import guarded
from pipeline_mlir.frontend.kept_rows import keep_row_load, kept_route
from pipeline_mlir.frontend.masked_rows_late import (check_lds_fixed, launch_values,
                                                     sample_points, workgroup_loop)
from pipeline_mlir.frontend.row_proof_late import prove_guarded_rows
from pipeline_mlir.frontend.kept_layout import GRID_LIMIT

__all__ = ["unmask_row_tails_late", "past_end_everywhere"]


def unmask_row_tails_late(loop) -> int:
    """Make every load directly in ``loop``'s body masked by rows and the K left, and every
    whole-run select of a static buffer, a read masked by the K left only (module
    docstring); the number rewritten."""
    covered: set = set()       # the kernels whose grid was checked to cover the output

    def prove(load, loop, p: dict) -> None:
        _prove(load, loop, p, covered)

    return rewrite_runs(loop, _select_to_mask, "vector.maskedload", _match, prove,
                        _rewrite) + rewrite_runs(loop, lambda sel: 0, "scf.if", _match_guarded,
                                                 prove, _rewrite)


def _match_guarded(guard) -> dict | None:
    """The parts of a guarded load (:func:`~pipeline_mlir.frontend.guarded_load.guarded`: the
    buffer-end ``scf.if`` whose branches compute the same run) masked by rows and the K
    left, the ``scf.if`` as ``"guard"``; or None."""
    parts = guarded(guard)
    if parts is None:
        return None
    p = _match(parts.masked)
    if p is not None:
        p["guard"] = guard
    return p


def _index(v):
    """``v`` (an ``i32`` or ``index`` value) as an ``index`` (a cast when needed)."""
    return v if isinstance(v.type, ir.IndexType) else B.arith.index_cast(ir.IndexType.get(), v)


def _read(like, src, indices: list, mask):
    """A 1-D ``vector.transfer_read`` of ``like``'s vector type from 2-D ``src`` at
    ``indices`` masked by ``mask``, padded with zero."""
    vt = ir.VectorType(like.type)
    el = vt.element_type
    pad = B.arith.constant(el, 0 if isinstance(el, ir.IntegerType) else 0.0)
    return B.vector.transfer_read(vt, src, indices, ir.AffineMap.get_minor_identity(2, 1),
                                  pad, [True], mask=mask)


def _select_to_mask(sel) -> int:
    """``arith.select (c == W), (vector.load run), 0`` replaced by the run read masked by
    ``(c == W ? W : 0)`` (module docstring); 1 when done."""
    found = whole_run_select(sel, "vector.load")
    run = sel.operands[1]
    if found is None or not isinstance(run.type, ir.VectorType) or \
            len(found[0].operands) != 3 or \
            memory_space(found[0].operands[0].type) == "workgroup":
        return 0
    load, cmp = found
    w = ir.VectorType(run.type).shape
    if len(w) != 1 or constant_int(cmp.operands[1]) != w[0]:
        return 0
    return select_as_masked(sel, load, list(w), sel, lambda mask: _read(
        run, load.operands[0], list(load.operands)[1:], mask))


def _match(load) -> dict | None:
    """The parts of a load masked by rows and the K left (module docstring), or None."""
    base, *idx, mask, passthru = list(load.operands)
    sel = owner(mask, "arith.select")
    if sel is None or len(idx) != 2 or len(ir.VectorType(load.results[0].type).shape) != 1:
        return None
    ok, inner, none = sel.operands
    if not isinstance(ok.type, ir.IntegerType):
        return None
    cm = owner(inner, "vector.create_mask")
    off = owner(none, "arith.constant")
    if cm is None or off is None or len(cm.operands) != 1 or \
            str(off.attributes["value"]) != f"dense<false> : {mask.type}":
        return None
    return {"buf": base, "row": idx[0], "col": idx[1], "ok": ok, "cols": cm.operands[0],
            "pass": passthru, "mask": cm, "select": sel,
            "width": ir.VectorType(load.results[0].type).shape[0]}


def _check_form(load, loop, p: dict, wl, launch, others: list) -> None:
    """What the load's parts may depend on, and its pass-through (module docstring)."""
    if not zero_bits(p["pass"]):
        refuse_nonzero_fill(load, "passes a value other than zero through masked rows")
    iv = loop.regions[0].blocks[0].arguments[0]
    if depends(p["ok"], {iv}) or depends(p["row"], {iv}):
        raise IRError(load, f"{describe(load)}: its row or row guard changes with the K-loop; "
                            f"a row-masked copy masks the rows of its workgroup's tile")
    check_fixed_columns(load, p, {*([] if wl is None else [
        wl.regions[0].blocks[0].arguments[0], launch]), *others})


def _check_rows(load, ev, p: dict, wl, launch, tile: int, others: list) -> None:
    """A row the guard reads lies in ``0 .. M - 1``, at every sampled workgroup and size."""
    for n, v in sample_points(ev, wl, launch, tile, others):
        _check_guarded_rows(load, ev, p, n, v)


def _check_guarded_rows(load, ev, p: dict, rows: int, where) -> None:
    """On every thread, at the workgroup ``where`` ``ev`` is bound to, a row the guard
    reads lies in ``0 .. rows - 1``."""
    ok, row = ev.value(p["ok"]) != 0, ev.value(p["row"])
    if np.any(ok & ((row < 0) | (row >= rows))):
        raise IRError(load, f"{describe(load)} reads a row outside the buffer's {rows} rows "
                            f"at workgroup {where}; a row-masked copy reads rows below the "
                            f"size only")


def _prove(load, loop, p: dict, covered: set) -> None:
    """Check the load ``p`` (module docstring); ``covered``: the kernels
    whose grid is proven to cover the output
    (:func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers`), added to."""
    if kept_route(loop, p["ok"], p["row"], []):
        p["kept"] = True          # a K row's flag (kept_rows.py checks it)
        return
    size = flat_block(load, loop)
    ev = Evaluator(size, launch_values=False)
    ev.where = load
    launch = row_count(load, p["buf"])
    if static_rows(launch):
        _prove_static(load, loop, p, ev, launch, covered)
        return
    others = launch_values(loop, launch)
    wl, tile = workgroup_loop(load, loop, launch, others, ev)
    _check_form(load, loop, p, wl, launch, others)
    bounds = k_bounds(loop)
    _check_rows(load, ev, p, wl, launch, tile, others)
    check_columns(load, loop, ev, p, bounds)
    prove_guarded_rows(load, p["ok"], p["row"], wl, launch, tile, int(np.prod(size)))
    wg = wl.regions[0].blocks[0].arguments[0]
    for u in p.get("guard", load).results[0].uses:
        store = _op(u.owner)
        if store.name == "vector.store" and memory_space(store.operands[1].type) == "workgroup":
            check_lds_fixed(load, "reads a row-masked run", store, wg)


def _workgroup_ids(load, loop) -> tuple[list, tuple[int, ...]]:
    """The kernel's ``hal.interface.workgroup.id`` values with their dimensions, and the
    grid (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`: their upper bounds),
    when they are its only workgroup values (no other workgroup id op, no loop around the
    K-loop): what a static grid's rows are evaluated over.

    The grid is the least of the bounds the kernel states (each id's ``upper_bound``, a
    workgroup loop's trip count, ``known_grid_size``): each is a promise of the kernel
    (LLVM reads an id's bound as its range), and IREE's late form says the launch's grid
    nowhere else (its export's count is ``workgroup_count_from_slice``).  A bound below
    the grid the kernel is launched on would leave the workgroups past it unproven (IREE's
    200x1000x1030 kernel with ``upper_bound`` 32 made 7 and B's rows-left constant made
    1008, a guard broken only at workgroup 7, was pipelined to a C that differs from the
    unpipelined build's there on the emulator);
    :func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers` refuses it: the grid's
    workgroups must write every element of the output."""
    kernel = kernel_of(loop)
    ids = walk_ops(kernel, lambda o: o.name in WORKGROUP_ID_OPS)
    around, up = [], _op(loop).parent
    while up is not None and up != kernel:
        around.append(up.name)
        up = up.parent
    bounded = [o for o in ids if o.name == "hal.interface.workgroup.id" and
               "upper_bound" in o.attributes]
    grid = workgroup_grid(kernel)
    if len(bounded) != len(ids) or grid is None or any(
            n in ("scf.for", "scf.forall", "scf.parallel") for n in around):
        raise IRError(load, f"{describe(load)} masks rows of a buffer of static rows by the "
                            f"workgroup, but the workgroup is not only "
                            f"'hal.interface.workgroup.id' ops with an upper_bound (the grid "
                            f"its rows are evaluated over)")
    if int(np.prod(grid)) > GRID_LIMIT:
        raise IRError(load, f"{describe(load)} masks rows of a buffer of static rows in a "
                            f"grid of more than {GRID_LIMIT} workgroups, too many to evaluate "
                            f"one by one")
    return [(o.results[0], id_dimension(o)) for o in ids], grid


def _prove_static(load, loop, p: dict, ev, rows: int, covered: set) -> None:
    """The checks of the module docstring for a buffer of static ``rows``: at every
    workgroup of the grid (:func:`_workgroup_ids`), on every thread, a row the
    guard reads lies in ``0 .. rows - 1``; the columns as for a size known at launch;
    and, once per kernel, the grid covers the output
    (:func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers`)."""
    ids, grid = _workgroup_ids(load, loop)
    _check_form(load, loop, p, None, None, [v for v, _ in ids])
    check_columns(load, loop, ev, p, k_bounds(loop))
    rs = _clamped(p, loop)
    for point in np.ndindex(*grid):
        for v, d in ids:
            ev.bind(v, point[d])
        _check_guarded_rows(load, ev, p, rows, point)
        rs = [r for r in rs if _unclamped(ev, p, r, rows)]
    p["unclamped"] = rs[0] if rs else None
    kernel = kernel_of(loop)
    if kernel not in covered:
        covered.add(kernel)
        check_grid_covers(kernel, grid, flat_block(load, loop))


def _clamped(p: dict, loop) -> list:
    """The rows ``r`` the row of ``p`` may clamp, each as ``(x, off)``, ``r = x + off``
    (``off`` None: ``r = x``): the row (through casts) is ``min(a, b)`` or ``min(a, b) +
    off`` (an ``arith.minui`` or ``minsi``; IREE's ``min(r, M)`` of a tile over all of M,
    ``64 g + min(L, lr)`` of the rows ``L`` left in tile ``g``), ``x`` either operand of
    the ``min``; none of the K-loop, and of the row's type or one an ``arith.index_cast``
    makes it.  Which one is the row, if any, the evaluation says (:func:`_unclamped`)."""
    v = through_casts(p["row"])
    off = None
    if not isinstance(v.owner, ir.Block) and _op(v.owner).name == "arith.addi":
        for m, o in (tuple(_op(v.owner).operands), tuple(_op(v.owner).operands)[::-1]):
            if not isinstance(m.owner, ir.Block) and _op(m.owner).name in _MINS:
                v, off = m, o
                break
    if isinstance(v.owner, ir.Block) or _op(v.owner).name not in _MINS:
        return []
    iv = loop.regions[0].blocks[0].arguments[0]
    t = p["row"].type
    out = []
    for x in _op(v.owner).operands:
        vals = [x] if off is None else [x, off]
        if constant_int(x) is None and not depends(x, {iv}) and not (
                off is not None and depends(off, {iv})) and (
                x.type == t or isinstance(t, ir.IndexType) or isinstance(x.type, ir.IndexType)) \
                and all(w.type == x.type for w in vals):
            out.append((x, off))
    return out


#: the ops a clamp of a row is (:func:`_clamped`)
_MINS = ("arith.minui", "arith.minsi")


def _unclamped(ev, p: dict, r: tuple, rows: int) -> bool:
    """At the workgroup ``ev`` is bound to, on every thread: the row ``r`` (``(x, off)``,
    :func:`_clamped`) not negative, ``ok`` exactly where it is below ``rows`` (there it is
    the row read; elsewhere past the buffer's end, zeros), and the elements of that row
    within a buffer load's 32-bit offset (module docstring)."""
    x, off = r
    try:
        ok, row = ev.value(p["ok"]) != 0, ev.value(p["row"])
        at = ev.value(x) + (0 if off is None else ev.value(off))
    except (IRError, Unevaluable):
        return False
    at = np.broadcast_to(at, np.broadcast(at, ok).shape)
    t = ir.MemRefType(p["buf"].type)
    strides, offset = t.get_strides_and_offset()
    if t.rank != 2 or any(t.is_dynamic_stride_or_offset(v) for v in (*strides, offset)):
        return False
    stride, col = strides
    # the last element of the last row read, by the buffer's own strides (a padded row
    # stride reaches further than the rows' length)
    last = offset + int(at.max()) * stride + (t.shape[1] - 1) * col
    return bool(np.all(at >= 0) and np.all(ok == (at < rows)) and
                np.all(np.broadcast_to(row, at.shape)[ok] == at[ok])) and \
        (last + 1) * element_bytes(t) <= OFFSET_LIMIT


def past_end_everywhere(at, loop, buf, indices: list, width: int) -> bool:
    """Whether a run of ``width`` elements of ``buf`` (a range-checked buffer,
    :func:`~pipeline_mlir.frontend.kernel_ir.zero_end`) at ``indices`` lies wholly past the
    buffer's end and within a buffer load's 32-bit offset on every thread, at every
    workgroup of the kernel's grid (:func:`_workgroup_ids`, proven to cover the output) and
    in every iteration of ``loop`` (constant bounds): a read of it is the zeros, as IREE's
    prefetch point reads rows wholly past C's edge (:mod:`~pipeline_mlir.frontend.masked_rows_k`);
    ``at``: an op the indices are computed before.  False where that cannot be evaluated."""
    kernel, bounds = kernel_of(loop), constant_bounds(loop)
    size = block_size(kernel)
    if bounds is None or size is None:
        return False
    try:
        ids, grid = _workgroup_ids(at, loop)
        check_grid_covers(kernel, grid, size)
    except IRError:
        return False
    ev = Evaluator(size, launch_values=False)
    ev.where = at
    iv = loop.regions[0].blocks[0].arguments[0]
    try:
        for point in np.ndindex(*grid):
            for v, d in ids:
                ev.bind(v, point[d])
            for k in range(*bounds):
                ev.bind(iv, k)
                ends = zero_end(buf, ev)
                start = ev.view(buf).element([ev.value(i) for i in indices])
                if ends is None or np.any(start < ends[0]) or np.any(start + width > ends[1]):
                    return False
    except (IRError, Unevaluable):
        return False
    return True


def _rewrite(load, loop, p: dict, fat: dict) -> None:
    """``load`` (or the guarded load ``p["guard"]``) made a read of the range-checked buffer
    at ``[ok ? row : M, col]`` masked by ``c`` (module docstring)."""
    src = None if p.get("kept") else fat_view(p["buf"], loop, fat)
    rows = None if p.get("kept") else row_count(load, p["buf"])
    at = p.get("guard", load)
    users = [_op(u.owner) for u in at.results[0].uses]
    # a run stored to LDS after a barrier (staged through registers) is read at its store:
    # the read of the global buffer moves past the barrier, which orders LDS accesses only
    here = users[0] if len(users) == 1 and users[0].name == "vector.store" and \
        users[0].parent == at.parent else at
    if here != at:
        check_read_movable(at, here, "read at its LDS store")
    if p.get("kept"):
        new = keep_row_load(load, loop, p, here, fat)
    else:
        new = _tile_row_read(load, p, here, src, rows)
    at.results[0].replace_all_uses_with(new)
    if at is load:
        load.erase()
    else:
        erase_tree(at)
    erase_unused([p["select"], p["mask"]])


def _row_of(x, off, t):
    """``x + off`` (``off`` None: ``x``) as a value of type ``t`` (:func:`_clamped`)."""
    r = x if off is None else B.arith.addi(x, off)
    return r if r.type == t else B.arith.index_cast(t, r)


def _tile_row_read(load, p: dict, here, src, rows):
    """The read of :func:`_rewrite` for a row of C's edge, at ``here``."""
    with ir.InsertionPoint(here), load.location:
        end = B.arith.constant(p["row"].type, rows) if static_rows(rows) else rows
        row = B.arith.select(p["ok"], p["row"], end) if p.get("unclamped") is None else \
            _row_of(*p["unclamped"], p["row"].type)
        if not static_rows(rows):       # (the row proven for every size, module docstring)
            _op(row.owner).attributes[PROVEN_ROW] = ir.UnitAttr.get()
        mask = B.vector.create_mask(p["mask"].results[0].type, [_index(p["cols"])])
        return _read(load.results[0], src, [row, p["col"]], mask)
