"""pipeline_mlir/frontend/reserved.py: the front end's own marks refused on its input.

Each mark of :data:`MARKS`, put on the loop, the LDS buffer or an op inside the loop of a
small module, is an error at that op naming the mark; unmarked ops and other ``sched.*``
attributes are not.  Parse only (no pipeline): the pass itself is run on marked kernels by
``test/lit/passes/sched-adopt-loop-soundness.mlir`` and ``test_cut_runs.py`` (a read
marked ``sched.kept_cut``).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.reserved import MARKS, refusal
from pipeline_mlir.frontend.scan import find_natural_loops

TEXT = """
func.func @f(%n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = memref.alloc() {alloc} : memref<64xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %n step %c1 {{
    %z = arith.addi %i, %c1 {other} : index
  }} {loop}
  return
}}"""


def _refusals(ctx, alloc: str = "", loop: str = "", other: str = "") -> list:
    """(op name, message) of each op of the module ``refusal`` refuses, and ("walk",
    message) of what ``find_natural_loops`` with it raises."""
    m = ir.Module.parse(TEXT.format(alloc=alloc, loop=loop, other=other), ctx)
    out = [(o.name, str(e)) for o in walk_ops(m.operation, lambda o: True)
           for e in [refusal(o)] if e is not None]
    try:
        find_natural_loops(m.operation, refusal)
    except IRError as e:   # (the walk raises the first, at its op)
        out.append(("walk", str(e)))
    return out


@pytest.fixture(scope="module")
def ctx():
    with new_context() as c:     # (one context: its first parse loads the dialects)
        yield c


def test_each_mark_is_refused_on_any_op(ctx):
    # (the marks later steps read: on loops and LDS buffers, on reads and copies)
    assert {"sched.remainder", "sched.kept_cut", "sched.kept_mask", "sched.k_halved",
            "sched.k_merged"} <= set(MARKS)
    for mark in MARKS:
        for where, op in (("loop", "scf.for"), ("alloc", "memref.alloc"),
                          ("other", "arith.addi")):
            found = _refusals(ctx, **{where: f"{{{mark}}}"})
            assert [n for n, _ in found] == [op, "walk"], (mark, found)
            assert f"'{op}' op carries '{mark}'" in found[0][1], found
            assert found[0][1] == found[1][1] and "remove the attribute" in found[0][1]


def test_unmarked_ops_and_other_attributes_are_left_alone(ctx):
    assert _refusals(ctx) == []
    assert _refusals(ctx, loop="{sched.note = 1 : i32}", alloc="{sched.x}",
                     other="{sched.register_staged}") == []
