"""The prologue's guarded load that IREE folded at a constant ``false`` guard, guarded again
for the roll-back of IREE's prefetch pipelining through registers
(:mod:`~pipeline_mlir.frontend.reroll_regs`).

IREE guards a masked load near a buffer's end with an ``scf.if``
(:mod:`~pipeline_mlir.frontend.guarded_load`).  Where that guard is the constant ``false``,
IREE's folding before the loop keeps only the else region of the prologue's twin, a
``vector.load`` and the ``arith.select`` by its mask and pass-through, while the body's
``scf.if`` on the constant stays (IREE's f32 ``A^T x B^T`` 131x1460x65 with 2 stages: B's
K tile 0; the late form was refused, the prefetch point pipelined).  :func:`reguard` puts
the prologue's load and select back under an ``scf.if`` on a constant ``false``: its then
region a ``vector.maskedload`` of the same buffer, indices, mask and pass-through (the
attributes of the body's), its else region the load and select moved there.  Exact: the
condition is the constant ``false``, so the else region runs, the ops that ran before;
the roll-back then compares the two guarded loads as any pair, and erases the prologue's.

Where the prologue's mask is true in every lane, IREE keeps the prologue's ``scf.if`` on
the constant ``false`` but folds its else region's select to the load alone (the
``vector.maskedload`` by a ``dense<true>`` mask in the then region; IREE's f32 ``A^T x
B^T`` 226x1741x202 with 2 stages, B's K tile 0, finding 124).  :func:`reselect` puts the
select by that mask back before the else region's yield: exact (a select by a mask true in
every lane is its load; before the roll-back judges the loop, :func:`reselect_all`), and
the prologue's load is IREE's guarded load again, compared with the body's as any pair (its
mask, lane by lane, with the body's at tile 0).
"""

from __future__ import annotations

from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import splat_mask
from pipeline_mlir.frontend.const_if import constant_bool
from pipeline_mlir.frontend.guarded_load import guarded
from pipeline_mlir.frontend.kernel_ir import in_lds, users_of


def _false_guard(body_load) -> bool:
    """Whether the body's load ``body_load`` is IREE's guarded load on the constant false."""
    return body_load is not None and body_load.name == "scf.if" and \
        guarded(body_load) is not None and constant_bool(body_load.operands[0]) is False


def folded_twin(pro, body_load):
    """``(load, select)`` of the prologue's LDS ``vector.store`` ``pro`` when it stores
    ``select(mask, load, pass-through)`` (a vector mask; each the only use of the one
    before, in ``pro``'s block) of a ``vector.load`` of memory other than LDS, and the
    body's load ``body_load`` is IREE's guarded load on the constant ``false``; else None."""
    if not _false_guard(body_load):
        return None
    sel = _defining(pro.operands[0])
    if sel is None or sel.name != "arith.select" or sel.block != pro.block or \
            not isinstance(sel.operands[0].type, ir.VectorType) or \
            users_of(sel.results[0]) != [pro]:
        return None
    load = _defining(sel.operands[1])
    if load is None or load.name != "vector.load" or load.block != pro.block or \
            in_lds(load.operands[0]) or users_of(load.results[0]) != [sel]:
        return None
    return load, sel


def reguard(pro, body_load) -> bool:
    """The prologue's folded guarded load that ``pro`` stores (:func:`folded_twin`) put
    back under an ``scf.if`` on a constant ``false`` before ``pro``, the form of the body's
    ``body_load`` (module docstring); False (nothing changed) where it is not one."""
    twin = folded_twin(pro, body_load)
    if twin is None:
        return False
    load, sel = twin
    masked_twin = guarded(body_load).masked
    t = sel.results[0].type
    i1 = ir.IntegerType.get_signless(1)
    with ir.InsertionPoint(pro), sel.location:
        false = B.arith.ConstantOp(i1, ir.IntegerAttr.get(i1, 0)).result
        guard = B.scf.IfOp(false, [t], has_else=True)
    with ir.InsertionPoint(guard.then_block), sel.location:
        masked = ir.Operation.create(
            "vector.maskedload", results=[t],
            operands=list(load.operands) + [sel.operands[0], sel.operands[2]],
            attributes={k: masked_twin.attributes[k] for k in masked_twin.attributes})
        B.scf.YieldOp([masked.results[0]])
    with ir.InsertionPoint(guard.else_block), sel.location:
        end = _op(B.scf.YieldOp([sel.results[0]]))
    load.move_before(end)
    sel.move_before(end)
    pro.operands[0] = guard.results[0]
    return True


def reselect_all(ops) -> bool:
    """:func:`reselect` on each of ``ops`` (the ops before a loop); whether one changed."""
    return any([reselect(o) for o in ops])


def reselect(guard) -> bool:
    """The select by a mask true in every lane put back in the else region of ``guard``, an
    ``scf.if`` on a constant false where IREE folded it to the load alone (module
    docstring); False (nothing changed) where it is not one: the then region a
    ``vector.maskedload`` by a ``dense<true>`` mask and its yield, the else region a
    ``vector.load`` of the same buffer and indices and its yield."""
    if guard.name != "scf.if" or constant_bool(guard.operands[0]) is not False or \
            len(guard.results) != 1 or len(guard.regions) != 2 or \
            any(len(r.blocks) != 1 for r in guard.regions):
        return False
    then, other = ([_op(o) for o in r.blocks[0].operations] for r in guard.regions)
    if [o.name for o in then] != ["vector.maskedload", "scf.yield"] or \
            [o.name for o in other] != ["vector.load", "scf.yield"]:
        return False
    masked, load, end = then[0], other[0], other[1]
    if then[1].operands[0] != masked.results[0] or end.operands[0] != load.results[0] or \
            list(load.operands) != list(masked.operands)[:-2] or \
            splat_mask(masked.operands[-2]) is not True:
        return False
    with ir.InsertionPoint(end), load.location:
        sel = B.arith.SelectOp(masked.operands[-2], load.results[0], masked.operands[-1])
    end.operands[0] = sel.result
    return True
