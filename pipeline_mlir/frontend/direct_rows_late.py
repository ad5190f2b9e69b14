"""Guarded rows stored straight to LDS in IREE's late form, made reads of a range-checked
buffer.

In the late form of IREE's padded ``A x B`` with M and N known at launch (``K x N`` B,
``test/data/iree/dynamic.py``'s ``padded_source(True, k, transpose_b=False)``), each
thread's row of A (``M x K``, rows known at launch) is copied as

* an ``scf.if`` on the row being below M whose then-branch yields a ``vector.load`` of
  ``W`` elements of the global buffer at ``[row, col]`` and whose else-branch yields a
  constant zero (every bit clear, not -0.0),
* its one use a ``vector.store`` of the vector into the LDS tile, in the K-loop's body,

with no private row in between (the staged form is
:mod:`~pipeline_mlir.frontend.masked_rows_late`'s).  :func:`unmask_direct_rows` replaces the
``scf.if`` by a read of ``W`` elements of a range-checked view of the buffer
(``amdgpu.fat_raw_buffer_cast``) at ``[guard ? row : L, col]``: where the guard holds the
read is IREE's; where it does not, row ``L`` lies past the buffer's end (``L x C`` elements,
``col >= 0``), where the range check reads zero, IREE's padding.  The LDS store is left as
it is.

What the rewrite relies on is checked at the ``scf.if``, refused there otherwise: the pad
is zero with every bit clear; the guard and the row do not change with the K-loop; where
the guard holds, ``0 <= row < L`` for every workgroup and size, proven with the late rows'
forms (:func:`~pipeline_mlir.frontend.row_proof_late.prove_guarded_rows`, ``T`` the tile
of the linearised workgroup loop's bound, :func:`~pipeline_mlir.frontend.masked_rows_late.
workgroup_loop`); the column moves with no workgroup or launch value (only the thread and
the K-loop's variable), and on every thread at every iteration of the loop (a constant trip
count) it is at least 0 and the run ends inside the row (``col + W <= C``), by evaluation,
exhaustive since nothing else moves it.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import constant_bounds, memory_space, zero_bits
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import depends, describe
from pipeline_mlir.frontend.marks import PROVEN_ROW
from pipeline_mlir.frontend.masked_rows import erase_tree, fat_view, refuse_nonzero_fill
from pipeline_mlir.frontend.masked_rows_late import guarded_setup
from pipeline_mlir.frontend.row_proof import Form
from pipeline_mlir.frontend.row_proof_late import prove_guarded_rows

__all__ = ["unmask_direct_rows"]


def unmask_direct_rows(loop) -> int:
    """Replace every guarded row stored straight to LDS in ``loop``'s body (module
    docstring); the number replaced."""
    done, fat = 0, {}
    for guard in [o for o in map(_op, loop.regions[0].blocks[0].operations)
                  if o.name == "scf.if"]:
        p = _match(guard, loop)
        if p is not None:
            _prove_and_rewrite(guard, loop, p, fat)
            done += 1
    return done


def _match(guard, loop) -> dict | None:
    """The parts of a guarded row stored straight to LDS whose guard is ``guard``, or
    None."""
    then, other = (_ops(r) for r in guard.regions)
    if len(guard.results) != 1 or [o.name for o in then] != ["vector.load", "scf.yield"] or \
            [o.name for o in other] != ["scf.yield"] or \
            then[1].operands[0] != then[0].results[0] or len(then[0].operands) != 3:
        return None
    uses = [_op(u.owner) for u in guard.results[0].uses]
    if len(uses) != 1 or uses[0].name != "vector.store" or uses[0].parent != loop or \
            uses[0].operands[0] != guard.results[0] or \
            memory_space(uses[0].operands[1].type) != "workgroup":
        return None
    load = then[0]
    return {"load": load, "pad": other[0].operands[0], "buf": load.operands[0],
            "row": load.operands[1], "col": load.operands[2]}


def _ops(region) -> list:
    return [_op(o) for o in region.blocks[0].operations] if len(region.blocks) else []


def _refuse(guard, why: str):
    raise IRError(guard, f"{describe(guard)} guards a row of a row-masked copy stored "
                         f"straight to LDS: {why}")


def _prove_and_rewrite(guard, loop, p: dict, fat: dict) -> None:
    """Check the guarded row ``p`` (module docstring) and replace it."""
    if not zero_bits(p["pad"]):
        refuse_nonzero_fill(guard, "pads masked rows with a value other than zero")
    iv = loop.regions[0].blocks[0].arguments[0]
    if depends(guard.operands[0], {iv}) or depends(p["row"], {iv}):
        _refuse(guard, "its guard or row changes with the K-loop; a row-masked copy masks "
                       "the rows of its workgroup's tile")
    size, launch, _others, _ev, wl, tile = guarded_setup(guard, loop, p["buf"], _refuse)
    _check_columns(guard, loop, p, size)
    bounds = constant_bounds(loop)
    prove_guarded_rows(guard, guard.operands[0], p["row"], wl, launch, tile,
                       int(np.prod(size)), {iv: Form(c=bounds[0])})
    with ir.InsertionPoint(guard), guard.location:
        row = B.arith.select(guard.operands[0], p["row"], launch)
        _op(row.owner).attributes[PROVEN_ROW] = ir.UnitAttr.get()
        v = B.vector.load(p["load"].results[0].type, fat_view(p["buf"], loop, fat),
                          [row, p["col"]])
    guard.results[0].replace_all_uses_with(v)
    erase_tree(guard)


def _check_columns(guard, loop, p: dict, size) -> None:
    """The column moves only with the thread and the K-loop's variable, and is in ``0 ..
    C - W`` on every thread at every iteration (module docstring): evaluated with the
    thread ids and the K-loop's variable alone, so a column computed from anything else
    (the workgroup, a launch value) is refused, not sampled."""
    bounds = constant_bounds(loop)
    if bounds is None or bounds[2] <= 0:
        _refuse(guard, "the K-loop's trip count is not a constant")
    cols = ir.MemRefType(p["buf"].type).shape[1]
    width = ir.VectorType(p["load"].results[0].type).shape[-1]
    iv = loop.regions[0].blocks[0].arguments[0]
    ev = Evaluator(size, thread_only=True)
    for k in range(*bounds):
        ev.bind(iv, k)
        try:
            col = ev.value(p["col"])
        except Unevaluable:
            _refuse(guard, "its column moves with the workgroup or a launch value (the "
                           "front end takes one of the thread and the K-loop alone)")
        if np.any(col < 0) or np.any(col + width > cols):
            bad = int(np.argmax((col < 0) | (col + width > cols)))
            _refuse(guard, f"thread {bad} reads columns {int(col[bad])} .. "
                           f"{int(col[bad]) + width - 1} in K iteration {k}, not inside the "
                           f"row of {cols}")
