"""A masked last K tile: peeled into the remainder loop, the masks dropped before it.

When K is not a multiple of the K step, IREE masks its global loads by how much of the
tile is left (at its prefetch point, a ``vector.transfer_read`` whose mask is a
``vector.create_mask`` of sizes computed from the loop variable and the thread).  Only the
last K tile is partial, so :func:`peel_masked_tail` cuts the loop
(:func:`~pipeline_mlir.frontend.tails.split_tail`) so that the remainder loop runs the last
iteration (the last two when the rest would be odd) with the masks as written, and proves
that every mask is full in every iteration the pipelined loop keeps: each mask size is
evaluated for every thread of the workgroup at every value of the loop variable (the
per-lane evaluator), and must depend on nothing else (no workgroup id, no launch value),
so the evaluation covers every workgroup.  The masked reads of the loop to pipeline are
then plain reads; what follows takes them as any other copy.  A mask that is partial in
an iteration the pipelined loop would keep, or that the evaluation cannot cover, is an
error at the read.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import block_size, segments
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.frontend.kernel_ir import describe, is_pure, kernel_of
from pipeline_mlir.frontend.tails import split_tail

#: ops without operands a mask size may start from (thread-, not workgroup-dependent)
LEAVES = ("arith.constant", "gpu.thread_id", "gpu.lane_id")


def masked_reads(loop) -> list:
    """The ``vector.transfer_read`` ops directly in ``loop``'s body that have a mask."""
    out = []
    for o in loop.regions[0].blocks[0].operations:
        o = _op(o)
        if o.name == "vector.transfer_read":
            g = segments(o)
            if len(g) > 3 and g[3]:
                out.append(o)
    return out


def peel_masked_tail(loop) -> None:
    """Peel ``loop``'s masked last K tile into a remainder loop and drop the masks of the
    loop that stays (module docstring); nothing when no read of ``loop`` is masked."""
    reads = masked_reads(loop)
    if not reads or split_tail(loop, peel_last=True) is None:
        return
    iv = loop.regions[0].blocks[0].arguments[0]
    ev = Evaluator(block_size(kernel_of(loop)))
    ev.where = loop
    lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
    sizes = {r: _mask_sizes(r, iv) for r in reads}
    for k in range(lb, ub, step):
        ev.bind(iv, k)
        for r, (dims, vals) in sizes.items():
            for d, v in zip(dims, vals):
                short = ev.value(v) < d
                if np.any(short):
                    t = int(np.flatnonzero(short)[0])
                    raise IRError(r, f"{describe(r)} is masked to {int(ev.value(v)[t])} of {d} "
                                     f"elements in thread {t} in iteration {k}, which the "
                                     f"pipelined loop runs; the front end peels a mask of "
                                     f"the last K tile only")
    for r in reads:
        _unmask(r)


def _mask_sizes(read, iv) -> tuple[list, list]:
    """(the vector's dimensions, the mask's size values) of masked read ``read``, whose
    mask is a ``vector.create_mask`` of values that depend only on ``iv``, threads and
    constants."""
    g = segments(read)
    mask = g[3][0]
    m = mask.owner
    if isinstance(m, ir.Block) or _op(m).name != "vector.create_mask":
        raise IRError(read, f"{describe(read)} is masked by a value that is not a "
                            f"vector.create_mask; the front end peels masks of the sizes "
                            f"left in the last K tile")
    vals = list(_op(m).operands)
    for v in vals:
        _check_sources(read, v, iv, set())
    return list(ir.VectorType(read.results[0].type).shape), vals


def _check_sources(read, v, iv, seen: set) -> None:
    """``v`` is computed by side-effect-free ops from ``iv``, thread ids and constants."""
    if v == iv or v in seen:
        return
    seen.add(v)
    owner = v.owner
    o = None if isinstance(owner, ir.Block) else _op(owner)
    if o is None or not is_pure(o) or (not len(o.operands) and o.name not in LEAVES):
        what = "a block argument" if o is None else f"'{o.name}'"
        raise IRError(read, f"{describe(read)} has a mask whose size depends on {what}, "
                            f"not only on the loop variable, the thread and constants; the "
                            f"front end proves masks full for every workgroup by evaluating "
                            f"them")
    for x in o.operands:
        _check_sources(read, x, iv, seen)


def _unmask(read) -> None:
    """``read`` without its mask (full in every iteration of its loop)."""
    g = segments(read)
    mask = g[3][0]
    attrs = {a: read.attributes[a] for a in ("in_bounds", "permutation_map")
             if a in read.attributes}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(g[1]), 1, 0])
    with ir.InsertionPoint(read), read.location:
        new = ir.Operation.create("vector.transfer_read", results=[read.results[0].type],
                                  operands=[g[0][0]] + list(g[1]) + [g[2][0]],
                                  attributes=attrs)
    read.results[0].replace_all_uses_with(new.results[0])
    read.erase()
    m = _op(mask.owner)
    if not list(mask.uses):
        m.erase()
