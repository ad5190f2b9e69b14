"""Masks that move with the workgroup, kept in the copies as reads past the end of a buffer.

A register copy of a tile cut at C's edge keeps or pads each lane's run by a condition that
depends on the workgroup: IREE writes ``arith.select %c, %load, %zero`` with ``%c`` the
AND of the K row's test and the M or N edge's (an ``A^T x B`` or ``A x B`` operand whose
runs lie in one K row), or the same select of a whole run (``c == W``) that
:func:`~pipeline_mlir.frontend.masked_rows_k.select_as_masked` made a read masked by
``vector.create_mask 1, (c == W ? W : 0)``.  The per-lane evaluation of
:mod:`~pipeline_mlir.frontend.select_masks` and :mod:`~pipeline_mlir.frontend.masks`
proves a mask full only when it depends on nothing but the loop variable, the threads and
constants; such a condition holds in some workgroups and not in others, so it is not
proven but kept, by :func:`keep_moving_masks`, before the masked last K tile is peeled:

* the select (or the mask) is dropped, the load made a read of its fat buffer itself (its
  index per dimension of the buffer added up through casts and same-rank unit-stride
  subviews, else refused) and those indices replaced where the condition is false: the
  first by ``delta``, the others by 0 (``select(c, i0, delta)``, ``select(c, i_d, 0)``),
  ``delta`` rows of the buffer covering it whole.  A lane whose condition is false then
  reads element ``delta x stride`` whatever it computed (a row of -1, a view's offset, an
  index that would wrap): past the end in every iteration, every loop that runs the copy
  (the pipelined loop, the remainder the K tail's peel cuts) and every workgroup.  The
  buffer is a fat raw buffer range-checked by its own static shape
  (``amdgpu.fat_raw_buffer_cast`` without ``validBytes`` or ``boundsCheck(false)``), whose
  read past the end returns zero: the
  padding, which must be the constant zero with every bit clear (not ``-0.0``);
* the condition is then an operand of the copy's address: the pipelined loop, which
  clones a copy's index computation for the iteration it issues the copy for (the
  prologue's, the steady loop's iteration ahead, a register-staged load issued an
  iteration early), recomputes it for that iteration and workgroup as it recomputes the
  address, and the direct-to-LDS copy or the staged load reads the zeros as the kernel's
  select would have given them.  So nothing needs a proof but what the rewrite moves: the
  condition must be computed, inside the loop, by side-effect-free ops of the loop
  variable, thread ids, constants and values defined before the loop (loop-invariant); a
  loop-carried value or an op that reads memory (or has regions) in the loop is refused;
* a condition is one ``i1`` for the lane's whole run (or its ``vector.broadcast``): a mask
  of elements inside a run cannot move the run past the end;
* the offset past the end must fit a buffer load's 32-bit offset with room for the run
  the lane would read (``(2 x elements + delta x stride) x bytes < 2^31``, which bounds
  ``offset + delta x stride`` plus a run).

A select of the loop variable, the threads and constants alone whose condition is false in
some thread and true in another in the loop's first iteration is no K tail's either (those are full but in the
last K tile): C's edge in the one tile along M or N, whose workgroup IREE folds out (B's
row 63 of the i8 ``A x B^T`` 2048x63x1024), nor is one false in every thread that does not
depend on the loop variable (a copy of rows wholly past C's edge: A's rows 48 to 63 of the
i8 ``A x B^T`` 33x257x512, which IREE's late form folds into a store of zero that
:mod:`~pipeline_mlir.frontend.pad_stores` makes this copy again), nor one that ANDs such a
false term with the K row's test (B's rows 24 to 31 of f16 ``A^T x B^T`` 5x24x1000).
:func:`_one_tile_edges` keeps it as well, when it meets every requirement above; else it
is left to the proof of :mod:`~pipeline_mlir.frontend.select_masks`, which refuses it.

The kept load is marked :data:`KEPT` (and the direct-to-LDS or staged copy
:mod:`~pipeline_mlir.frontend.regcopy` makes of it): where the front end replaces a
channel's copies by its own (:mod:`~pipeline_mlir.frontend.layout`, which reads the
global block of workgroup 0 and moves it), those cannot clone the condition for lanes
that are not the kernel's; each of their lanes tests its own run against the buffer
instead, proven the kernel's mask over the whole grid
(:mod:`~pipeline_mlir.frontend.kept_layout`; :func:`kept_parts` reads a kept index back).

A condition whose K part is false in the last K tile is kept whole: that tile is then
exact through the kept condition and needs no peel.  Every refusal is an error at the
select (the masked read) that says which requirement fails.  The i8 and f16 kernels whose
selects depend on the K row alone are still proven and dropped (cheaper code).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, block_size, constant_int,
                                             dense_row_major, element_bytes, memory_space,
                                             segments, zero_bits)
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.dynamic_masks import foreign_source, source_text
from pipeline_mlir.frontend.kernel_ir import (OFFSET_LIMIT, depends, describe, fat_root, kernel_of,
                                              replace_masked_read)
from pipeline_mlir.frontend.marks import KEPT
from pipeline_mlir.frontend.masked_rows import fat_view
from pipeline_mlir.frontend.select_masks import selected_loads, truth

def keep_moving_masks(loop) -> int:
    """Keep every select and whole-run mask directly in ``loop``'s body whose condition
    depends on more than the loop variable, the threads and constants in its copy (module
    docstring); the number kept."""
    iv = loop.regions[0].blocks[0].arguments[0]
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    sels = [s for s in selected_loads(loop) if _moves(s.operands[0], iv)]
    reads = [(r, c) for r, c in ((r, _whole_run_condition(r)) for r in body
                                 if r.name == "vector.transfer_read")
             if c is not None and _moves(c, iv)]
    plans = [(s, _check(loop, s, s.operands[0], s.operands[2], _op(s.operands[1].owner)))
             for s in sels]
    plans += [(r, _check(loop, r, c, segments(r)[2][0], r)) for r, c in reads]
    plans += _one_tile_edges(loop, iv, sels, body)
    for at, (load, cond, delta) in plans:
        _move_past_end(load, cond, delta)
        load.attributes[KEPT] = ir.UnitAttr.get()
        if at.name == "arith.select":
            at.results[0].replace_all_uses_with(at.operands[1])
            at.erase()
        else:
            drop_mask(load, kept=True)
    return len(plans)


def keep_in_index(loop, at, load, cond, pad) -> None:
    """Keep the ``i1`` condition ``cond`` of ``load`` (a read of a run, unmasked or masked
    in its other dimensions only; ``pad``: the value the kernel gives a run it does not
    read) in its index as :func:`keep_moving_masks` keeps a select's (the same checks,
    errors at ``at``; the load marked :data:`KEPT`): the runs masked by their row of
    :mod:`~pipeline_mlir.frontend.kept_rows`."""
    load, cond, delta = _check(loop, at, cond, pad, load)
    _move_past_end(load, cond, delta)
    load.attributes[KEPT] = ir.UnitAttr.get()


def _moves(c, iv) -> bool:
    return foreign_source(c, {iv}) is not None


def _one_tile_edges(loop, iv, moving: list, body: list) -> list:
    """The plans of the selects (not of ``moving``) and of the whole-run masked reads
    (:func:`_whole_run_condition`) of ``body`` whose condition is C's edge in the one tile
    along M or N (:func:`_short_at_first`) and that meet what a kept mask needs; one that
    does not is left to the proof of :mod:`~pipeline_mlir.frontend.select_masks` (or of
    the masks, :mod:`~pipeline_mlir.frontend.masks`), which refuses it (the mask of a K
    tail the pipelined loop runs)."""
    edges = [(s, s.operands[0], s.operands[2], _op(s.operands[1].owner))
             for s in selected_loads(loop) if s not in moving]
    for r in body:
        c = _whole_run_condition(r) if r.name == "vector.transfer_read" else None
        if c is not None and not _moves(c, iv):
            edges.append((r, c, segments(r)[2][0], r))
    plans = []
    for at, cond, pad, load in edges:
        if not _short_at_first(loop, at, cond, iv):
            continue
        try:
            plans.append((at, _check(loop, at, cond, pad, load)))
        except IRError:
            continue
    return plans


def _short_at_first(loop, at, cond, iv) -> bool:
    """Condition ``cond`` (of the select or whole-run masked read ``at``), of the loop
    variable, threads and constants alone, is false in some thread and true in another in
    the loop's first iteration (a constant lower bound): not a K tail's (full but in the
    last K tile), but C's edge in the one tile along M or N, whose workgroup IREE folds
    out (row 63 of N = 63 under a 64-row tile; B's columns 100 to 127 of N = 100 under a
    128-column tile, each lane's run of 4 read whole or not at all); or false in every
    thread and not of the loop variable, or an AND with such a term (:func:`_false_row`)
    (so in every iteration: rows wholly past that edge); kept as a moving one.  False
    where it cannot be evaluated (the proof of
    :mod:`~pipeline_mlir.frontend.select_masks` then says why)."""
    lb = constant_int(loop.operands[0])
    if lb is None or block_size(kernel_of(loop)) is None:
        return False
    ev = Evaluator(block_size(kernel_of(loop)))
    ev.where = loop
    ev.bind(iv, lb)
    try:
        t = truth(at, ev, cond)
    except (IRError, Unevaluable):
        return False
    if bool(np.all(t)):
        return False
    # an edge: some rows in, some out; or every row out in every iteration (a copy of rows
    # wholly past C's edge, which the late form folds to a store of the padding), its
    # condition of the threads alone or ANDed with the K row's test
    return bool(np.any(t)) or not depends(cond, {iv}) or _false_row(at, cond, iv, ev)


def _false_row(at, cond, iv, ev) -> bool:
    """Condition ``cond`` (of ``at``; ``ev`` the loop's evaluator at its first iteration) is
    an ``arith.andi`` one of whose terms (an ``andi`` of them in turn) is not of the loop
    variable and false in every thread: false in every thread at every iteration, as a
    condition of the threads alone is (rows wholly past C's edge ANDed with the K row's
    test: B's rows 24 to 31 of f16 ``A^T x B^T`` 5x24x1000, each run selected by ``row <
    24 and the run inside K``).  False where a term cannot be evaluated."""
    if isinstance(cond.owner, ir.Block) or _op(cond.owner).name != "arith.andi":
        return False
    for term in _op(cond.owner).operands:
        if depends(term, {iv}):
            if _false_row(at, term, iv, ev):
                return True
            continue
        try:
            if not bool(np.any(truth(at, ev, term))):
                return True
        except (IRError, Unevaluable):
            continue
    return False


def whole_run_refusal(loop, read) -> str | None:
    """Why the whole-run mask of ``read`` (:func:`_whole_run_condition`), C's edge in the
    one tile, is not kept in its copy (what a kept mask needs that it lacks, as
    :func:`_check` says it); None if ``read`` has no such mask or it meets them."""
    c = _whole_run_condition(read) if read.name == "vector.transfer_read" else None
    if c is None:
        return None
    try:
        _check(loop, read, c, segments(read)[2][0], read)
    except IRError as e:
        text = str(e.args[0]).split("(zeros), and ", 1)[-1]
        return text[3:] if text.startswith("so ") else text
    return None


def _whole_run_condition(read):
    """``c`` of a ``vector.transfer_read`` masked by ``vector.create_mask 1, ..., (c ? W :
    0)`` with ``W`` its last dimension (a whole run read or not), else None."""
    g = segments(read)
    if len(g) < 4 or not g[3]:
        return None
    return whole_run_condition(g[3][0], ir.VectorType(read.results[0].type).shape)


def whole_run_condition(mask, shape=None):
    """``c`` of mask ``mask`` when it is ``vector.create_mask 1, ..., (c ? W : 0)``, ``W``
    the last dimension of ``shape`` (None: the mask's) and the others whole (the lane's
    run kept whole or not at all), else None."""
    if isinstance(mask.owner, ir.Block):
        return None
    cm = _op(mask.owner)
    shape = ir.VectorType(mask.type).shape if shape is None else shape
    if cm.name != "vector.create_mask" or len(cm.operands) != len(shape):
        return None
    if any(constant_int(v) != n for v, n in zip(list(cm.operands)[:-1], shape[:-1])):
        return None
    last = cm.operands[len(shape) - 1]
    if isinstance(last.owner, ir.Block) or _op(last.owner).name != "arith.select":
        return None
    c, full, none = _op(last.owner).operands
    return c if constant_int(full) == shape[-1] and constant_int(none) == 0 else None


def _check(loop, at, cond, pad, load) -> tuple:
    """(the load, its ``i1`` condition, ``delta``) of the mask ``at`` keeps (a select or the
    masked read itself), or an error at ``at`` saying which requirement fails."""
    iv = loop.regions[0].blocks[0].arguments[0]
    src = foreign_source(cond, {iv})
    what = source_text(src) if src is not None else "the threads alone (C's edge in one tile)"
    why = (f"{describe(at)} has a condition that depends on {what}; the front end keeps such "
           f"a mask in the copy, its masked lanes reading past the end of a range-checked "
           f"buffer (zeros), and")
    if not zero_bits(pad):
        said = source_text(pad) if isinstance(pad.owner, ir.Block) or \
            _op(pad.owner).name != "arith.constant" else str(_op(pad.owner).attributes["value"])
        raise IRError(at, f"{why} so needs a padding of the constant zero, every bit clear "
                          f"(a read past the end returns +0.0), not {said}")
    cond = _scalar_condition(at, cond, why)
    bad = foreign_source(cond, {iv}, loop=loop)
    if bad is not None:
        bad = source_text(bad) if isinstance(bad.owner, ir.Block) else \
            f"{describe(_op(bad.owner))}, which has side effects (or regions) in the loop"
        raise IRError(at, f"{why} recomputes the condition for every iteration, so needs it "
                          f"computed by side-effect-free ops from the loop variable, threads, "
                          f"constants and values defined before the loop; it depends on {bad}")
    root = fat_root(load.operands[0])
    if memory_space(root.type) != "fat_raw_buffer":
        raise IRError(at, f"{why} so needs its load to read a fat raw buffer "
                          f"(amdgpu.fat_raw_buffer_cast), not {root.type}")
    fat_view(root, loop, {})       # range-checked by its own shape, or an error at the cast
    mt = ir.MemRefType(root.type)
    strides, _ = ir.MemRefType(load.operands[0].type).get_strides_and_offset()
    if any(ir.ShapedType.is_dynamic_size(d) for d in mt.shape) or not dense_row_major(mt) \
            or not strides or strides[0] == DYNAMIC \
            or strides[0] <= 0:
        raise IRError(at, f"{why} so needs a row-major buffer of static shape read with a "
                          f"static positive row stride, not {root.type} read through "
                          f"{load.operands[0].type}")
    total = 1
    for d in mt.shape:
        total *= d
    n = ir.MemRefType(load.operands[0].type).rank
    if ir.MemRefType(root.type).get_strides_and_offset()[1] != 0 or dim_indices(
            _DRY, _DRY, load.operands[0], list(load.operands[1:1 + n]), root) is None:
        raise IRError(at, f"{why} so needs its load to read {root.type} through casts and "
                          f"same-rank unit-stride subviews (read from the buffer itself, its "
                          f"masked lanes read one element past the end), not through "
                          f"{load.operands[0].type}")
    strides = ir.MemRefType(root.type).get_strides_and_offset()[0]
    delta = -(-total // strides[0])
    try:
        eb = element_bytes(mt)
    except ValueError:
        eb = 0
    if not eb or (2 * total + delta * strides[0]) * eb >= OFFSET_LIMIT:
        raise IRError(at, f"{why} the offset past the end of {root.type} ({delta} rows of "
                          f"{strides[0]} elements) does not fit a buffer load's 32-bit "
                          f"offset")
    return load, cond, delta


def past_end_rows(loop, at, cond, pad, load) -> int:
    """The rows ``delta`` past the end of ``load``'s fat buffer a lane whose ``cond`` (an
    ``i1``, or a run's mask size: :mod:`~pipeline_mlir.frontend.cut_runs`) keeps out reads,
    ``load`` and ``pad`` meeting what a kept mask needs (module docstring); else an error
    at ``at`` saying which requirement fails."""
    return _check(loop, at, cond, pad, load)[2]


def buffer_indices(src, indices: list) -> tuple:
    """(the fat buffer ``src`` views, the index per dimension of it of ``src[indices]``),
    the sums built as ``arith`` ops at the current insertion point (through casts and
    same-rank unit-stride subviews: :func:`past_end_rows` checked it)."""
    t = ir.IndexType.get()
    root = fat_root(src)

    def const(v: int):
        return ir.Operation.create("arith.constant", results=[t],
                                   attributes={"value": ir.IntegerAttr.get(t, v)}).results[0]
    return root, dim_indices(_Arith(const), _Arith(const), src, indices, root)


def _scalar_condition(at, c, why: str):
    """The ``i1`` condition ``c`` (a vector condition a broadcast of one), else an error."""
    if isinstance(c.type, ir.VectorType):
        o = None if isinstance(c.owner, ir.Block) else _op(c.owner)
        if o is None or o.name != "vector.broadcast" or isinstance(o.operands[0].type,
                                                                   ir.VectorType):
            raise IRError(at, f"{why} so needs one condition for the lane's whole run (an i1 "
                              f"or its vector.broadcast), not a vector of them")
        c = o.operands[0]
    return c


def _move_past_end(load, c, delta: int) -> None:
    """``load`` made a read of its fat buffer itself, its indices there (through the
    subviews) replaced where ``c`` is false: the first by ``delta``, the others by 0
    (``select(c, i0, delta)``, ``select(c, i_d, 0)``), built before it; so a lane whose
    condition is false reads element ``delta x stride`` of the buffer whatever it computed."""
    t = ir.IndexType.get()
    root = fat_root(load.operands[0])
    n = ir.MemRefType(root.type).rank

    def const(v: int):
        return ir.Operation.create("arith.constant", results=[t],
                                   attributes={"value": ir.IntegerAttr.get(t, v)}).results[0]
    _computed_before(load, c)
    with ir.InsertionPoint(load), load.location:
        at = dim_indices(_Arith(const), _Arith(const), load.operands[0],
                         list(load.operands[1:1 + n]), root)
        new = [ir.Operation.create("arith.select", results=[t], operands=[
            c, at[d], const(delta if d == 0 else 0)]).results[0] for d in range(n)]
    load.operands[0] = root
    for d, v in enumerate(new):
        load.operands[1 + d] = v


def _computed_before(load, v) -> None:
    """The ops of ``load``'s block that compute ``v`` after ``load`` (a kept mask's
    condition computed between the load and its select) moved just before it, operands
    first, so the index selects :func:`_move_past_end` builds there see it.  They are
    side-effect free (:func:`_check`), so computing them earlier changes nothing."""
    if isinstance(v.owner, ir.Block):
        return
    o = _op(v.owner)
    if o.operation.block != load.operation.block or not load.operation.is_before_in_block(
            o.operation):
        return
    for w in o.operands:
        _computed_before(load, w)
    o.move_before(load)


class _Arith:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations as ``arith``
    ops at the insertion point (``const``: an index constant)."""

    def __init__(self, const) -> None:
        self.c = const

    @staticmethod
    def get(v):
        return v

    @staticmethod
    def add(a, b):
        if b is None:
            return a
        return ir.Operation.create("arith.addi", results=[a.type], operands=[a, b]).results[0]


class _Dry:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations on nothing
    (whether it gives the indices)."""

    @staticmethod
    def get(v):
        return 0

    @staticmethod
    def c(k):
        return 0

    @staticmethod
    def add(a, b):
        return 0


_DRY = _Dry()


def kept_parts(index) -> tuple | None:
    """``(index0, c, delta)`` of a first index ``select(c, index0, delta)`` that
    :func:`_move_past_end` built (or a clone of it: the copies
    :mod:`~pipeline_mlir.frontend.regcopy` and :mod:`~pipeline_mlir.frontend.split_copy`
    make of a kept load), else None."""
    if isinstance(index.owner, ir.Block) or _op(index.owner).name != "arith.select":
        return None
    c, first, delta = _op(index.owner).operands
    if constant_int(delta) is None or constant_int(delta) <= 0:
        return None
    return first, c, constant_int(delta)


def unkept(indices: list) -> list | None:
    """The indices of a kept copy as the kernel computed them (:func:`_move_past_end`
    undone: the first ``select(c, i0, delta)``, the others ``select(c, i_d, 0)``), else
    None."""
    parts = kept_parts(indices[0])
    if parts is None:
        return None
    out = [parts[0]]
    for i in indices[1:]:
        o = None if isinstance(i.owner, ir.Block) else _op(i.owner)
        if o is None or o.name != "arith.select" or o.operands[0] != parts[1] or \
                constant_int(o.operands[2]) != 0:
            return None
        out.append(o.operands[1])
    return out


def drop_mask(read, kept: bool) -> None:
    """Masked ``vector.transfer_read`` ``read`` without its mask: kept in its index
    (``kept``, the read marked so) or full in every iteration of its loop."""
    g = segments(read)
    mask = g[3][0]
    attrs = {a: read.attributes[a] for a in ("in_bounds", "permutation_map")
             if a in read.attributes}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(g[1]), 1, 0])
    if kept or KEPT in read.attributes:     # (a kept row's run peeled of its K mask)
        attrs[KEPT] = ir.UnitAttr.get()
    with ir.InsertionPoint(read), read.location:
        new = ir.Operation.create("vector.transfer_read", results=[read.results[0].type],
                                  operands=[g[0][0]] + list(g[1]) + [g[2][0]],
                                  attributes=attrs)
    replace_masked_read(read, new, mask)
