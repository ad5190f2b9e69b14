"""``zext_index.cloned_index``: the late form's ``index_castui(a + iv)`` (i32) is cloned as
``index_castui(a) + index_castui(iv)`` only when both addends are proven non-negative;
anything else is cloned as written."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.layout import Cloner
from pipeline_mlir.frontend.zext_index import cloned_index

#: a K index of the late form: ``{a}`` (from the thread id ``%t`` / the workgroup id ``%w``)
#: plus the loop's variable, summed in i32 with ``{flags}``, the loop from ``{lb}``
TEXT = """func.func @f(%arg: i32) {{
  %t = gpu.thread_id x
  %w = gpu.block_id x
  %ti = arith.index_castui %t : index to i32
  %wi = arith.index_castui %w : index to i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %cm = arith.constant -1024 : i32
  %half = arith.constant 2147483648 : i32
  %big = arith.muli %ti, %half : i32
  %lb = arith.constant {lb} : i32
  %ub = arith.constant 4096 : i32
  %st = arith.constant 32 : i32
  %a = {a}
  scf.for %iv = %lb to %ub step %st : i32 {{
    %s = arith.addi %a, %iv {flags} : i32
    %k = arith.index_castui %s : i32 to index
    "test.use"(%k) : (index) -> ()
  }}
  return
}}"""

THREAD = "arith.muli %ti, %c8 overflow<nsw> : i32"


def _clone(a: str = THREAD, flags: str = "overflow<nsw>", lb: int = 0) -> tuple:
    """(the op that gives the clone of ``%k``, the ops of its operands), emitted before
    the loop."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(TEXT.format(a=a, flags=flags, lb=lb), ctx)
        (loop,) = walk_ops(m.operation, lambda o: o.name == "scf.for")
        body = list(loop.regions[0].blocks[0].operations)
        iv = loop.regions[0].blocks[0].arguments[0]
        k = body[1].results[0]
        with ir.InsertionPoint(loop):
            cl = Cloner(set(body), {iv: iv})
            new = cloned_index(cl, k, iv, (256, 1, 1))
        op = new.owner
        return op.name, str(new.type), [o.owner.name for o in op.operands]


def test_the_late_forms_index_is_cloned_as_two_casts_and_an_index_add():
    assert _clone() == ("arith.addi", "index", ["arith.index_castui"] * 2)


@pytest.mark.parametrize("kw", [
    dict(a="arith.muli %wi, %c8 overflow<nsw> : i32"),      # a workgroup id: not proven
    dict(a="arith.addi %ti, %cm overflow<nsw> : i32"),      # negative for some threads
    dict(a="arith.addi %arg, %c16 : i32"),                  # a launch argument
    # in range, but through a product that wraps in i32: 2^31 * t / 2^31 is t mod 2
    dict(a="arith.divui %big, %half : i32"),
    dict(flags=""),                                         # the i32 sum may wrap
    dict(lb=-32),                                           # the variable starts below 0
])
def test_anything_unproven_is_cloned_as_written(kw):
    assert _clone(**kw) == ("arith.index_castui", "index", ["arith.addi"])
