"""The IR plumbing of ``pipeline_mlir/dialect``: ``block_scan.ops_from`` (a block's ops from one
of them on, its position found by bisection, the ops near it read by position and the rest
in order) and ``ir_changes.set_new_operands`` (a clone's operands set, no cache told, where
``op.operands[i] = v`` tells every live one)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect import block_scan, ir_io
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_changes import forget_on_change, set_new_operands

#: more ops than ``ops_from`` reads by position, so that it reads on in order too
N = 2 * block_scan._BY_POSITION + 5


def _block(ctx):
    body = "\n".join(f"  %v{i} = arith.addi %a, %b : i32" for i in range(N))
    module = ir.Module.parse(f"func.func @f(%a: i32, %b: i32) {{\n{body}\n  return\n}}", ctx)
    (f,) = ir_io.walk_ops(module.operation, lambda o: o.name == "func.func")
    return module, [ir_io.as_operation(o) for o in f.regions[0].blocks[0].operations]


@pytest.mark.parametrize("start", [0, 1, block_scan._BY_POSITION - 1, block_scan._BY_POSITION + 3, N])
def test_ops_from_gives_the_block_from_the_op_on(start):
    with new_context() as ctx:
        _module, ops = _block(ctx)
        got = list(block_scan.ops_from(ops[start]))
        assert got == ops[start:]
        # (read as far as it is taken)
        assert next(block_scan.ops_from(ops[start])) == ops[start]


class _Told:
    def __init__(self) -> None:
        self.uses = []

    def forget_uses(self, v) -> None:
        self.uses.append(v)

    def forget_ops(self, ops) -> None:
        pass


def test_a_clones_operands_are_set_with_no_cache_told():
    with new_context() as ctx, ir.Location.unknown(ctx):
        _module, ops = _block(ctx)
        told = _Told()
        forget_on_change(told)
        a, b = ops[0].operands
        with ir.InsertionPoint(ops[-1]):
            new = ops[1].clone()
        set_new_operands(new, [b, a])
        assert list(new.operands) == [b, a] and told.uses == []
        new.operands[0] = a               # (any other rewiring tells every live cache)
        assert list(new.operands) == [a, a] and told.uses == [b]
