"""``scf.if`` on a constant ``true`` inside a K-loop, inlined before the analysis.

IREE's VectorDistribute pipeline (``--iree-codegen-llvmgpu-use-vector-distribution
--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false``) writes, in its late form, each
operand's LDS stores inside ``scf.if %true { ... }``: the guard of a copy that every
thread takes, folded to a constant but not removed.  Running the then-block in place of
the ``scf.if`` is exact: the condition is the constant, so the block always runs, once,
where the ``scf.if`` stands.  Only an ``scf.if`` whose condition is an ``arith.constant``
of ``true`` and which has no results and no else block with ops
(:func:`is_constant_true_if`) is inlined, directly in the loop's body
(:func:`inline_constant_true_ifs`) or among given ops of one block (:func:`inline_ifs`:
the register roll-back's, before its loop,
:mod:`pipeline_mlir.frontend.reroll_regs`); any other ``scf.if`` is left to the scan,
which refuses it with its reason.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation

__all__ = ["constant_bool", "inline_branch", "inline_constant_true_ifs", "inline_ifs",
           "is_constant_true_if"]


def constant_bool(v) -> bool | None:
    """The value of ``v`` when it is an ``i1`` ``arith.constant`` (the bindings give one as
    a ``BoolAttr`` or as an ``IntegerAttr`` of width 1), else None."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    op = as_operation(owner)
    if op.name != "arith.constant" or "value" not in op.attributes:
        return None
    attr = op.attributes["value"]
    if isinstance(attr, ir.BoolAttr):
        return bool(attr.value)
    if isinstance(attr, ir.IntegerAttr) and isinstance(attr.type, ir.IntegerType) and \
            attr.type.width == 1:
        return attr.value != 0
    return None


def _constant_true(v) -> bool:
    return constant_bool(v) is True


def inline_branch(if_op, branch: int) -> None:
    """``if_op`` (an ``scf.if``) replaced by the ops of one of its regions (``branch`` 0:
    ``then``, 1: ``else``), its results by what that region yields."""
    ops = [as_operation(o) for o in if_op.regions[branch].blocks[0].operations]
    for o in ops[:-1]:
        o.move_before(if_op)
    for r, v in zip(if_op.results, ops[-1].operands):
        r.replace_all_uses_with(v)
    if_op.erase()


def is_constant_true_if(op) -> bool:
    """``op`` is an ``scf.if`` the module docstring inlines."""
    if op.name != "scf.if" or len(op.results) or not _constant_true(op.operands[0]):
        return False
    if len(op.regions) > 1 and len(op.regions[1].blocks):
        else_ops = list(op.regions[1].blocks[0].operations)
        if any(o.operation.name != "scf.yield" for o in else_ops):
            return False
    return True


def inline_constant_true_ifs(loop) -> int:
    """Inline every ``scf.if`` on a constant ``true`` directly in ``loop``'s body (module
    docstring); returns how many were inlined."""
    body = loop.regions[0].blocks[0]
    return inline_ifs([as_operation(o) for o in body.operations])


def inline_ifs(ops: list) -> int:
    """Inline each ``scf.if`` on a constant ``true`` among ``ops`` (ops of one block) where
    it stands; returns how many were inlined."""
    ifs = [o for o in ops if is_constant_true_if(o)]
    for if_op in ifs:
        inline_branch(if_op, 0)
    return len(ifs)
