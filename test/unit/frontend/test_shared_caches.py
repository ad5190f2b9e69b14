"""The caches ``natural.adopt_loop`` shares over one build, and what makes each forget
(and ``block_scan.block_ops``, its listing of a block's ops).

Within ``adopt_loop`` the evaluators share how each value is computed
(``loop_eval.shared_plans``), the copies' sampled reads are kept per copy and point
(``edges.shared_reads``) and attribute texts are parsed once per context
(``attrs.parsed_once``).  A shared table is told of every change of the IR itself, so that
a change made while no evaluator lives still reaches it: kept, the plan of an op given
another operand computed the old value (the negative case below).
"""

from __future__ import annotations

import gc

import numpy as np

from pipeline_mlir.analysis.loop_eval import Evaluator, shared_plans
from pipeline_mlir.dialect import attrs
from pipeline_mlir.dialect.attrs import memory_space_name, parsed_once
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend import edges

TEXT = """
func.func @f(%lds: memref<64xf32, #gpu.address_space<workgroup>>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %a = arith.muli %tid, %c4 : index
  %b = arith.addi %a, %c3 : index
  return
}
"""


def _module():
    ctx = new_context()
    m = ir.Module.parse(TEXT, ctx)
    ops = {o.name: o for o in walk_ops(m.operation, lambda o: len(o.results) == 1)}
    return ctx, m, ops


def test_evaluators_of_a_scope_share_plans_the_ir_changes_forget():
    ctx, m, ops = _module()
    add = ops["arith.addi"]
    tid = np.arange(64)
    with shared_plans():
        ev = Evaluator((64, 1, 1))
        assert ev.value(add.results[0]).tolist() == (tid * 4 + 3).tolist()
        assert Evaluator((64, 1, 1))._plans is ev._plans and add.results[0] in ev._plans
        del ev
        gc.collect()            # (no evaluator alive to be told: the table is told itself)
        add.operands[0] = ops["gpu.thread_id"].results[0]          # b = tid + 3
        assert Evaluator((64, 1, 1)).value(add.results[0]).tolist() == (tid + 3).tolist()
    assert Evaluator((64, 1, 1))._plans == {}       # (outside a scope: its own)


def test_shared_reads_are_forgotten_at_every_change_of_the_ir():
    ctx, m, ops = _module()
    with edges.shared_reads():
        table = edges._SHARED_READS[-1]
        table["kept"] = 1
        _op(ops["arith.addi"]).operands[1] = ops["arith.muli"].results[0]
        assert not table, "a rewired operand leaves the reads kept"
        table["kept"] = 1
        ops["arith.addi"].erase()
        assert not table, "an erased op leaves the reads kept"
    assert not edges._SHARED_READS


def test_attributes_parsed_once_in_a_scope_name_the_same_spaces():
    ctx, m, _ops = _module()
    arg = m.body.operations[0].regions[0].blocks[0].arguments[0]
    outside = memory_space_name(arg.type)
    with parsed_once():
        assert memory_space_name(arg.type) == outside == "workgroup"
        assert memory_space_name(arg.type) == "workgroup"        # (kept by its attribute)
        assert ir.MemRefType(arg.type).memory_space in attrs._PARSED[-1]
        with ctx, ir.Location.unknown():
            plain = ir.MemRefType.get([4], ir.F32Type.get())
        assert memory_space_name(plain) == "global"
    assert not attrs._PARSED


def test_block_ops_lists_a_block_as_its_operation_list_does():
    """``block_scan.block_ops`` (the front end's listing of a loop's and its parent's ops)
    walks the one block of its op without entering the ops it lists, and reads the
    operation list of a block that is not its op's only one (an ``scf.if``'s)."""
    from pipeline_mlir.dialect.block_scan import block_ops

    m = ir.Module.parse("func.func @g(%c: i1, %a: i32) {\n"
                        "  %x = scf.if %c -> i32 {\n"
                        "    %y = arith.addi %a, %a : i32\n    scf.yield %y : i32\n"
                        "  } else {\n    scf.yield %a : i32\n  }\n  return\n}", new_context())
    (g,) = walk_ops(m.operation, lambda o: o.name == "func.func")
    (branch,) = walk_ops(m.operation, lambda o: o.name == "scf.if")
    body = g.regions[0].blocks[0]
    assert block_ops(body) == [_op(o) for o in body.operations]
    assert [o.name for o in block_ops(body)] == ["scf.if", "func.return"]
    assert [o.name for o in block_ops(branch.regions[0].blocks[0])] == ["arith.addi", "scf.yield"]
