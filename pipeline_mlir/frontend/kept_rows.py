"""Runs masked by their row and a count whose row mask is kept in the copy's address.

:mod:`~pipeline_mlir.frontend.masked_rows_k` and
:mod:`~pipeline_mlir.frontend.masked_rows_k_late` take a run of ``W`` elements masked at
once by its row (``s`` rows of one: read when ``s > 0``; in the late form an ``i1``
``ok``) and by a count ``c`` along the row, and read the row mask as C's M or N edge: the
row is the workgroup's tile row, and a masked one lies past the end of a 2-D buffer.  Two
runs of that shape are not so, and come here instead (:func:`kept_route` says which):

* a batch's run (a 3-D view ``[b, row, col]``, mask ``1, s, c``): a row past M of batch
  ``b`` is the next batch's first row, inside the buffer.  The row mask is kept in the
  copy's index (:func:`~pipeline_mlir.frontend.kept_masks.keep_in_index`, the checks and
  the rewrite of :mod:`~pipeline_mlir.frontend.kept_masks`): the read is made one of the fat
  buffer itself at the kernel's indices, replaced where ``s <= 0`` by an element past the
  buffer's end (``delta`` batches on), which a range-checked buffer reads as zeros;
* a ``K x N`` B's run (a 2-D view, the row and its mask moving with the K-loop): the row
  mask is the K left, ``c`` the columns left before C's N edge.  A K row not read is
  moved past the end: the read is made one of the range-checked buffer at ``[s > 0 ? row :
  rows, s > 0 ? col : 0]`` (a dense row-major buffer of a static row count ``rows``, its
  row length maybe known only at launch: a ``K x M`` A of ``memref<200x?xbf16>``), the
  element just past its end: zeros.

Either is the kernel's read, run by run, with no proof: the same elements where the row is
read, zeros where it is not (the kernel's padding, which must be zero, every bit clear).
What is left is the read masked by the count alone (``1, .., 1, c``), built at the run's
LDS write (the read moved past the barrier, which orders LDS accesses only).  A count that
depends only on the loop variable, the threads and constants (a batch's K left) is
:mod:`~pipeline_mlir.frontend.masks`' to peel with the last K tile.  One that moves with
the workgroup (B's N left) is made ``c >= W ? W : 0``, the whole-run mask
:mod:`~pipeline_mlir.frontend.kept_masks` keeps, when :func:`whole_runs` proves every run
read whole or not at all (evaluated at every workgroup of the grid, proven to cover C,
every thread and iteration); a run C's edge cuts inside (``0 < c < W``: its masked
elements lie inside the buffer, in the row or the next) keeps ``c``, which what follows
refuses at the read.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.analysis.ir_facts import (block_size, constant_bounds, dense_row_major,
                                              zero_bits)
from pipeline_mlir.analysis.loop_eval import workgroup_grid
from pipeline_mlir.analysis.output_tiles import check_grid_covers
from pipeline_mlir.frontend.cut_runs import grid_evaluators
from pipeline_mlir.frontend.dynamic_masks import foreign_source
from pipeline_mlir.frontend.kept_masks import keep_in_index
from pipeline_mlir.frontend.kernel_ir import (check_read_movable, depends, describe,
                                              erase_unused, kernel_of)
from pipeline_mlir.frontend.masked_rows import fat_view, index_value, refuse_nonzero_fill
from pipeline_mlir.frontend.kept_layout import GRID_LIMIT

__all__ = ["kept_route", "keep_row_run", "keep_row_load", "whole_runs", "GRID_LIMIT"]


def kept_route(loop, flag, row, lead: list) -> bool:
    """Whether a run masked by its row (``flag``, its row index ``row``, the indices
    ``lead`` before the row's) takes the kept route: indices before the row's (a batch)
    and a flag that moves with the workgroup, or a row or flag that moves with the K-loop
    (a K row); a batch's flag of the threads and constants alone too (C's edge in the one
    tile a batch has along M or N: the same in every workgroup, its rows past M the next
    batch's, inside the buffer)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    if lead:        # a row mask of the loop variable and threads alone is masks.py's to peel
        return _moves(loop, flag) or not depends(flag, {iv})
    return any(isinstance(v, ir.Value) and depends(v, {iv}) for v in (flag, row))


def _moves(loop, count) -> bool:
    """Whether ``count`` depends on more than the loop variable, threads and constants."""
    iv = loop.regions[0].blocks[0].arguments[0]
    return foreign_source(count, {iv}) is not None


def whole_runs(loop, count, width: int) -> bool:
    """Whether every thread's ``count`` is at most 0 or at least ``width`` at every
    workgroup of the kernel's grid (proven to cover C) and every iteration of ``loop``:
    its run read whole or not at all (module docstring).  False also when the grid or the
    loop's bounds are not known."""
    kernel = kernel_of(loop)
    grid = workgroup_grid(kernel)
    bounds = constant_bounds(loop)
    size = block_size(kernel)
    if grid is None or int(np.prod(grid)) > GRID_LIMIT or bounds is None or bounds[2] <= 0 \
            or size is None:
        return False
    check_grid_covers(kernel, grid, tuple(size))
    iv = loop.regions[0].blocks[0].arguments[0]
    steps = range(*bounds) if depends(count, {iv}) else range(bounds[0], bounds[0] + 1)
    for ev, _ in grid_evaluators(loop, grid):
        for k in steps:
            ev.bind(iv, k)
            c = ev.value(count)
            if np.any((c > 0) & (c < width)):
                return False
    return True


def _left(loop, count, width: int):
    """The mask size left on a kept run's read, built at the insertion point: ``count``,
    or ``count >= width ? width : 0`` where it moves with the workgroup and every run is
    whole (:func:`whole_runs`; what :mod:`~pipeline_mlir.frontend.kept_masks` keeps).  A
    run cut inside keeps ``count``, which what follows takes or refuses at the read."""
    idx = ir.IndexType.get()
    c = count if isinstance(count.type, ir.IndexType) else B.arith.index_cast(idx, count)
    if not _moves(loop, count) or not whole_runs(loop, count, width):
        return c
    full = B.arith.cmpi(B.arith.CmpIPredicate.sge, c, B.arith.constant(idx, width))
    return B.arith.select(full, B.arith.constant(idx, width), B.arith.constant(idx, 0))


def _past_end(loop, at, ok, buf, row, col, fat: dict):
    """(the range-checked view of the 2-D ``buf``, ``ok ? row : rows``, ``ok ? col : 0``),
    built at the insertion point: a run whose row is not read reads the element just past
    the buffer's end (``rows`` its static row count; a dense row-major buffer, whose fat
    view's range is its own shape, so row ``rows`` lies past it whatever its row length)."""
    t = ir.MemRefType(buf.type)
    if t.rank != 2 or ir.ShapedType.is_dynamic_size(t.shape[0]) \
            or not dense_row_major(t, launch_sizes=True):
        raise IRError(at, f"{describe(at)} masks a K row of {t}; a row not read is read past "
                          f"the end of the buffer, which must then be a dense row-major "
                          f"buffer of a static row count (its row length may be known only "
                          f"at launch)")
    src = fat_view(buf, loop, fat)
    idx = ir.IndexType.get()
    row = B.arith.select(ok, index_value(row), B.arith.constant(idx, t.shape[0]))
    return src, row, B.arith.select(ok, index_value(col), B.arith.constant(idx, 0))


def keep_row_run(read, loop, p: dict, fat: dict) -> None:
    """The prefetch point's run ``p`` (:mod:`~pipeline_mlir.frontend.masked_rows_k`'s parts:
    ``size`` the row flag, ``cols`` the count, ``lead`` the indices before the row's) made
    a read whose row flag is kept (module docstring), read at its LDS write; ``fat``: the
    range-checked views made so far."""
    if not zero_bits(p["pad"]):
        refuse_nonzero_fill(read, "pads masked rows with a value other than zero")
    check_read_movable(read, p["write"], "read at its LDS write")
    vt = ir.VectorType(read.results[0].type)
    with ir.InsertionPoint(p["write"]), read.location:
        idx = ir.IndexType.get()
        ok = B.arith.cmpi(B.arith.CmpIPredicate.sgt, p["size"], B.arith.constant(idx, 0))
        mask = B.vector.create_mask(
            ir.VectorType(p["mask"].results[0].type),
            [B.arith.constant(idx, 1) for _ in vt.shape[1:]] +
            [_left(loop, p["cols"], p["width"])])
        if p["lead"]:       # a batch: kept in the index
            src, at = p["view"].results[0], [B.arith.constant(idx, 0)] * vt.rank
        else:               # a K row: moved past the end
            src, row, col = _past_end(loop, read, ok, p["buf"], p["row"], p["col"], fat)
            at = [row, col]
        attrs = {a: read.attributes[a] for a in ("in_bounds", "permutation_map")}
        attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, vt.rank, 1, 1])
        new = ir.Operation.create("vector.transfer_read", results=[vt],
                                  operands=[src, *at, p["pad"], mask], attributes=attrs)
    if p["lead"]:
        keep_in_index(loop, read, new, ok, p["pad"])
    read.results[0].replace_all_uses_with(new.results[0])
    read.erase()
    erase_unused([p["mask"], p["view"]])


def keep_row_load(load, loop, p: dict, here, fat: dict):
    """The late form's load ``p`` (:mod:`~pipeline_mlir.frontend.masked_rows_k_late`'s
    parts: ``ok`` the K row's flag, ``cols`` the count, ``buf`` at ``[row, col]``) made a
    read at ``here`` whose row, where not read, is moved past the end (module docstring);
    the new read."""
    if not zero_bits(p["pass"]):
        refuse_nonzero_fill(load, "passes a value other than zero through masked rows")
    vt = ir.VectorType(load.results[0].type)
    with ir.InsertionPoint(here), load.location:
        mask = B.vector.create_mask(p["mask"].results[0].type,
                                    [_left(loop, p["cols"], p["width"])])
        src, row, col = _past_end(loop, p.get("guard", load), p["ok"], p["buf"], p["row"],
                                  p["col"], fat)
        el = vt.element_type
        pad = B.arith.constant(el, 0 if isinstance(el, ir.IntegerType) else 0.0)
        return B.vector.transfer_read(vt, src, [row, col],
                                      ir.AffineMap.get_minor_identity(2, 1), pad, [True],
                                      mask=mask)
