"""Where ``sched-stage-copies`` puts a staged copy's store (``pipeline_mlir/passes/stage_copies.py``).

``_StorePoints``, the bisection over each block's waits, barriers and ops with regions read
once, finds what ``_store_point``'s scan of the block finds from every op of random blocks,
also after the waits each staged store places in the block (``waited``).
"""

from __future__ import annotations

import random

import pytest

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
from pipeline_mlir.passes import stage_copies as SC

_KINDS = ("%v{i} = arith.addi %a, %a : i32", "rocdl.s.waitcnt 0", "gpu.barrier",
          "scf.if %c {{\n  }}", "amdgpu.lds_barrier", "rocdl.s.barrier")


def _block(ctx, seed: int, n: int):
    rng = random.Random(seed)
    body = "\n".join("  " + (_KINDS[0] if rng.random() < 0.7 else rng.choice(_KINDS[1:]))
                     .format(i=i) for i in range(n))
    module = ir.Module.parse(f"func.func @f(%a: i32, %c: i1) {{\n{body}\n  return\n}}", ctx)
    (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
    return module, f.regions[0].blocks[0]


@pytest.mark.parametrize("seed", range(4))
def test_the_points_found_by_bisection_are_the_scans(seed):
    with new_context() as ctx, ir.Location.unknown(ctx):
        _module, block = _block(ctx, seed, 60 + 40 * seed)
        found = SC._StorePoints()
        rng = random.Random(seed)
        for _ in range(12):          # (a staged store's wait before a point, noted)
            ops = [as_operation(o) for o in block.operations]
            for op in ops:
                assert found.of(op) == SC._store_point(op), ops.index(op)
            point = found.of(rng.choice(ops[:-1]))
            with ir.InsertionPoint(point):
                found.waited(as_operation(B.rocdl.s_waitcnt(0)))
