"""The IR plumbing of ``pipeline_mlir/dialect``: ``block_scan.ops_from`` (a block's ops from one
of them on, its position found by bisection, the ops near it read by position and the rest
in order) and ``ir_changes.set_new_operands`` (a clone's operands set, no cache told, where
``op.operands[i] = v`` tells every live one)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect import block_scan, ir_io
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_changes import forget_on_change, set_new_operands, told_together

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
        set_new_operands(new, {1: b})     # (a dict: only the positions it names)
        assert list(new.operands) == [a, b] and told.uses == [b]


class _Shares:
    """A cache that notes what :func:`told_together` gives while it is told of an erasure."""

    def __init__(self) -> None:
        self.seen: list = []

    def forget_ops(self, ops) -> None:
        self.seen.append((ops, told_together()))


def test_the_caches_told_of_one_change_share_one_scratch():
    """Every live cache told of one erasure gets the same dict from ``told_together`` (what
    one puts there the next reads: the evaluators' reading of the erased ops), a new one for
    the next erasure, and None outside a telling."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        _module, ops = _block(ctx)
        caches = [_Shares(), _Shares()]
        for c in caches:
            forget_on_change(c)
        assert told_together() is None
        with ir.InsertionPoint(ops[-1]):
            first, second = ops[1].clone(), ops[1].clone()
        first.erase()
        (op1, s1), = caches[0].seen
        (op2, s2), = caches[1].seen
        assert op1 is op2 and s1 is not None and s1 is s2
        s1["mark"] = 1
        second.erase()
        assert caches[1].seen[1][1] is caches[0].seen[1][1] and "mark" not in caches[0].seen[1][1]
        assert told_together() is None
