"""A masked K tail kept inside the pipelined pair when peeling it would leave no pair.

A natural loop of exactly two K steps whose last is a masked K tail has one K step left
once :func:`~pipeline_mlir.frontend.masks.peel_masked_tail` peels the tail, and the
schedule's loop runs K steps in pairs: the loop ran as written.  Its masks, of the K row's
test alone (the loop variable, the threads and constants: the same in every workgroup),
are kept in the copies instead, as :mod:`~pipeline_mlir.frontend.kept_masks` keeps a mask
that moves with the workgroup: a lane whose run is masked reads past the end of its
range-checked buffer (zeros), so both K steps run the copies as the kernel wrote them and
the pair pipelines with the tail in it (no peel).

:func:`keep_tail_in_pair` takes every mask of the loop's copies or none:

* a select of a global load (``arith.select %c, %load, %pad``) whose condition is an
  ``i1`` (or its ``vector.broadcast``): one condition for the lane's run;
* a masked ``vector.transfer_read`` or a guarded load of IREE's late form (an ``scf.if``
  on the buffer's end whose branches load the run masked, :mod:`~pipeline_mlir.frontend.
  guarded_load`: made the plain ``vector.load`` of its else region, its index kept) whose
  mask keeps the run whole or not at all (IREE's
  ``vector.create_mask 1, .., (c ? W : 0)``), or a ``vector.create_mask`` of sizes that
  depend on the loop variable, the threads and constants alone, and a select whose
  condition is such a mask: the mask is evaluated for every thread of the workgroup in
  both K steps, and must keep each lane's run whole or leave all of it (the sizes the same
  in every workgroup, so the evaluation covers the grid); its condition is then ``s_i >=
  d_i`` for every dimension ``d_i`` the size ``s_i`` does not fill by construction.

Each one must meet what a kept mask needs
(:func:`~pipeline_mlir.frontend.kept_masks.past_end_rows`: a zero padding, a row-major fat
buffer of static shape read through casts and subviews, a condition computed in the loop
by side-effect-free ops).  A mask that does not (a run the tail cuts inside, whose masked
elements lie inside the buffer, where no read past its end zeroes them; a run cut at C's
edge, copied in pieces; a masked load of LDS) leaves the loop as it was: the tail peeled, the
loop run as written, the reason said in the report's note.  The front end's own copies,
where it makes them, are proven against the kernel's kept conditions in both K steps and
every workgroup (:mod:`~pipeline_mlir.frontend.kept_layout`), as for a moving mask.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.analysis.ir_facts import constant_int, constant_trips, segments
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.frontend.adopt_walk import kernel_named, place_of
from pipeline_mlir.frontend.dynamic_masks import foreign_source
from pipeline_mlir.frontend.guarded_load import guarded
from pipeline_mlir.frontend.kernel_ir import describe, fat_root, kernel_of
from pipeline_mlir.frontend.marks import KEPT_TAIL_ATTR, TAIL_REFUSED_ATTR
from pipeline_mlir.frontend.kept_masks import (drop_mask, keep_in_index, past_end_rows,
                                               whole_run_condition)
from pipeline_mlir.frontend.tails import PAIR


class _Plan:
    """One mask to keep: ``at`` (the select or the masked read), its ``load``, the ``i1``
    condition ``cond`` of the lane's run and the ``pad``; ``built``: the ops made for
    ``cond`` (erased when the loop is left as it was)."""

    def __init__(self, at, load, cond, pad, built: list) -> None:
        self.at, self.load, self.cond, self.pad, self.built = at, load, cond, pad, built


def keep_tail_in_pair(loop, reads: list, selects: list, cuts: list, iv, ev) -> str | None:
    """Keep the masks of ``reads`` (masked reads and guarded loads), ``selects`` and
    ``cuts`` (runs cut at C's edge) of ``loop``, two K steps of constant bounds, in their
    copies (module docstring): None when every one is kept, else why not (nothing
    changed)."""
    plans: list = []
    why = None
    for r in cuts:
        why = why or (f"{describe(r)} reads a run cut at C's edge, copied in pieces, whose "
                      f"K rows are masked too")
    for r in reads:
        if why is None and r.name == "vector.maskedload":
            why = (f"{describe(r)} is a masked load of LDS elements (IREE's dynamic-K "
                   f"kernel), not a copy of a global run")
    for at in ([] if why else list(selects) + list(reads)):
        plan = _plan(loop, at, iv, ev)
        if isinstance(plan, str):
            why = plan
            break
        plans.append(plan)
    if why is None:
        why = _checked(loop, plans)
    if why is not None:
        for p in plans:
            for o in reversed(p.built):
                o.erase()
        return why
    for p in plans:
        if p.at.name == "scf.if":
            p.load = _unguarded(p.at, p.load)
        keep_in_index(loop, p.at, p.load, p.cond, p.pad)
        if p.at.name == "arith.select":
            p.at.results[0].replace_all_uses_with(p.at.operands[1])
            p.at.erase()
        elif p.at.name == "scf.if":
            p.at.results[0].replace_all_uses_with(p.load.results[0])
            p.at.erase()
        else:
            drop_mask(p.at, kept=True)
    kernel_of(loop).attributes[KEPT_TAIL_ATTR] = ir.UnitAttr.get()
    return None


def refused_before(loop) -> str | None:
    """Why the pair of ``loop`` with its tail kept was refused before
    (:func:`kept_or_peeled`), the mark dropped; None when it was not tried."""
    if TAIL_REFUSED_ATTR not in loop.attributes:
        return None
    why = ir.StringAttr(loop.attributes[TAIL_REFUSED_ATTR]).value
    del loop.attributes[TAIL_REFUSED_ATTR]
    return why


def kept_or_peeled(loop, adopt):
    """``adopt(loop)`` (the front end's adoption of natural K-loop ``loop``); when it
    kept a masked K tail in the pair (:func:`keep_tail_in_pair`) and then refused the
    pair, the loop as it was before is adopted again with the tail peeled, as before the
    tail could be kept (the loop run as written), the refusal said in the report's note.

    ``adopt`` may put another kernel in the place of ``loop``'s (a loop run as written
    from the kernel as it was before the analysis' trials: ``natural._short_as_written``
    erases the one it had), so the kernel is looked up again by its name in its block
    after it, never read through the op it was before."""
    if constant_trips(loop) != PAIR:
        return adopt(loop)
    kernel = kernel_of(loop)
    place = place_of(kernel)
    at = _loops(kernel).index(loop)
    before = kernel.clone()     # (detached, as natural.py's before its analysis)
    try:
        out = adopt(loop)
    except PipelineError as e:
        kernel = kernel_named(*place)
        if KEPT_TAIL_ATTR not in kernel.attributes:
            before.erase()
            raise
        ir.InsertionPoint(kernel).insert(before)
        kernel.erase()
        again = _loops(before)[at]
        again.attributes[TAIL_REFUSED_ATTR] = ir.StringAttr.get(
            f"the pair with the tail kept in it is refused ({e})")
        return adopt(again)
    before.erase()
    kernel = kernel_named(*place)
    if KEPT_TAIL_ATTR in kernel.attributes:
        del kernel.attributes[KEPT_TAIL_ATTR]
    return out


def _loops(kernel) -> list:
    """The ``scf.for`` ops of ``kernel``, in walk order."""
    return walk_ops(kernel, lambda o: o.name == "scf.for")


def _unguarded(guard, load):
    """A ``vector.load`` like ``load`` (the else region's of guarded load ``guard``),
    built before ``guard``: the copy whose index the kept condition moves."""
    attrs = {a.name: a.attr for a in load.attributes}
    with ir.InsertionPoint(guard), guard.location:
        return ir.Operation.create("vector.load", results=[load.results[0].type],
                                   operands=list(load.operands), attributes=attrs)


def _checked(loop, plans: list) -> str | None:
    """Why a plan of ``plans`` does not meet what a kept mask needs, else None."""
    for p in plans:
        try:
            past_end_rows(loop, p.at, p.cond, p.pad, p.load)
        except IRError as e:
            return str(e)
        root = fat_root(p.load.operands[0])
        if ir.MemRefType(root.type).rank > 2:
            return (f"{describe(p.at)} reads a batch's buffer {root.type}: a row past M or "
                    f"N of one batch is the next batch's first row, inside the buffer, which "
                    f"the front end's own copies, where it makes them, read as zeros "
                    f"(frontend/kept_layout.py tests a run against the buffer's coordinates)")
    return None


def _plan(loop, at, iv, ev):
    """The :class:`_Plan` of select or masked read ``at``, or why its mask is not kept."""
    if at.name == "arith.select":
        cond, load, pad = at.operands[0], _op(at.operands[1].owner), at.operands[2]
    elif at.name == "scf.if":
        parts = guarded(at)
        cond, load, pad = parts.mask, parts.load, parts.passthrough
    else:
        g = segments(at)
        cond, load, pad = g[3][0], at, g[2][0]
    scalar = _scalar(cond)
    if scalar is not None:
        return _Plan(at, load, scalar, pad, [])
    if foreign_source(cond, {iv}) is not None:
        return (f"{describe(at)} has a mask of more than the loop variable, the threads and "
                f"constants, which the front end does not evaluate")
    owner = None if isinstance(cond.owner, ir.Block) else _op(cond.owner)
    if owner is None or owner.name != "vector.create_mask":
        return f"{describe(at)} has a mask that is not a vector.create_mask"
    whole = _whole_or_none(loop, at, cond, iv, ev)
    if whole is not None:
        return whole
    return _create_condition(at, owner)


def _scalar(cond):
    """``cond`` as the ``i1`` of the lane's whole run: itself, the operand of its
    ``vector.broadcast``, or ``c`` of a whole-run mask ``create_mask 1, .., (c ? W :
    0)``; else None."""
    if not isinstance(cond.type, ir.VectorType):
        return cond
    o = None if isinstance(cond.owner, ir.Block) else _op(cond.owner)
    if o is None:
        return None
    if o.name == "vector.broadcast" and not isinstance(o.operands[0].type, ir.VectorType):
        return o.operands[0]
    return whole_run_condition(cond)


def _whole_or_none(loop, at, mask, iv, ev) -> str | None:
    """Why create_mask ``mask`` (of ``at``) does not keep each lane's run whole or leave
    all of it in every thread in both K steps of ``loop``, by evaluation of its sizes
    (whole: every size at least its dimension; none: some size at most 0); None when it
    does."""
    shape = ir.VectorType(mask.type).shape
    sizes = list(_op(mask.owner).operands)
    lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
    for k in range(lb, ub, step):
        ev.bind(iv, k)
        try:
            vals = [np.asarray(ev.value(v)).astype(np.int64) for v in sizes]
        except (IRError, Unevaluable) as e:
            return f"{describe(at)} has a mask the front end cannot evaluate ({e})"
        n = max(np.size(v) for v in vals)
        whole = np.ones(n, dtype=bool)
        none = np.zeros(n, dtype=bool)
        for v, d in zip(vals, shape):
            whole &= np.broadcast_to(v >= d, (n,))
            none |= np.broadcast_to(v <= 0, (n,))
        cut = ~whole & ~none
        if np.any(cut):
            th = int(np.flatnonzero(cut)[0])
            kept = int(np.broadcast_to(vals[-1], (n,))[th])
            return (f"{describe(at)} masks thread {th}'s run of {shape[-1]} elements to "
                    f"{kept} in iteration {k}: the tail cuts the run inside, and its masked "
                    f"elements lie inside the buffer, where no read past its end zeroes them")
    return None


def _create_condition(at, mask):
    """The ``i1`` condition of create_mask ``mask`` keeping the run whole (every size at
    least its dimension; proven whole or none), built before ``at``."""
    shape = ir.VectorType(mask.results[0].type).shape
    built: list = []
    cond = None
    with ir.InsertionPoint(at), at.location:
        for v, n in zip(mask.operands, shape):
            if constant_int(v) is not None and constant_int(v) >= n:
                continue
            c = ir.Operation.create("arith.constant", results=[v.type],
                                    attributes={"value": ir.IntegerAttr.get(v.type, n)})
            ge = ir.Operation.create("arith.cmpi", results=[ir.IntegerType.get_signless(1)],
                                     operands=[v, c.results[0]], attributes={
                                         "predicate": ir.IntegerAttr.get(
                                             ir.IntegerType.get_signless(64), 5)})
            built += [c, ge]
            cond = ge.results[0] if cond is None else _and(cond, ge, built)
    if cond is None:
        for o in reversed(built):
            o.erase()
        return f"{describe(at)} has a mask that keeps every element (nothing to keep)"
    if at.name == "arith.select":
        load = _op(at.operands[1].owner)
        pad = at.operands[2]
    elif at.name == "scf.if":
        load, pad = guarded(at).load, guarded(at).passthrough
    else:
        g = segments(at)
        load, pad = at, g[2][0]
    return _Plan(at, load, cond, pad, built)


def _and(a, ge, built: list):
    """``a & ge`` (an ``arith.andi`` built at the insertion point, recorded in ``built``)."""
    o = ir.Operation.create("arith.andi", results=[a.type], operands=[a, ge.results[0]])
    built.append(o)
    return o.results[0]
