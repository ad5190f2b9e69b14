"""pipeline_mlir/frontend/reserved.py: the front end's own marks refused on its input.

Each mark of :data:`MARKS`, put on the loop, the LDS buffer or an op inside the loop of a
small module, is an error at that op naming the mark; unmarked ops and other ``sched.*``
attributes are not.  Where: in a kernel holding a natural K-loop (an ``scf.for`` with an
MFMA), or anywhere in a module with none and nothing of the tagged form; not in a kernel
without one beside it, nor in the front end's own output given back (a tagged op).  Parse
only (no pipeline): the pass itself is run on marked kernels by
``test/lit/passes/sched-adopt-loop-soundness.mlir`` (its own output given back there too)
and ``test_cut_runs.py`` (a read marked ``sched.kept_cut``).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.reserved import MARKS, InputMarks, refusal
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
#: a kernel with a natural K-loop (an MFMA in its body), {k} on its loop's MFMA
NATURAL = """
func.func @g(%n: index, %a: vector<8xbf16>, %z: vector<4xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {{
    %d = amdgpu.mfma 16x16x32 %a * %a + %acc {k} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }}
  return
}}"""


def _walk(ctx, text: str) -> list:
    """("walk", message) of what ``sched-adopt-loop``'s look at ``text`` raises, or []."""
    m = ir.Module.parse(text, ctx)
    marks = InputMarks()
    try:
        marks.check(find_natural_loops(m.operation, marks))
    except IRError as e:   # (the first, at its op)
        return [("walk", str(e))]
    return []


def _refusals(ctx, alloc: str = "", loop: str = "", other: str = "") -> list:
    """(op name, message) of each op of the module ``refusal`` refuses, then what the walk
    raises (:func:`_walk`)."""
    text = TEXT.format(alloc=alloc, loop=loop, other=other)
    m = ir.Module.parse(text, ctx)
    return [(o.name, str(e)) for o in walk_ops(m.operation, lambda o: True)
            for e in [refusal(o)] if e is not None] + _walk(ctx, text)


@pytest.fixture(scope="module")
def ctx():
    with new_context() as c:     # (one context: its first parse loads the dialects)
        yield c


def test_each_mark_is_refused_on_any_op(ctx):
    # (the marks later steps read: on loops and LDS buffers, on reads and copies, on a
    # guarded copy's row proven for every size, every_workgroup.launch_mixing_op)
    assert {"sched.remainder", "sched.kept_cut", "sched.kept_mask", "sched.k_halved",
            "sched.k_merged", "sched.proven_row", "sched.lane_stride"} <= set(MARKS)
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


def test_marks_refused_only_where_the_front_end_rewrites(ctx):
    plain = TEXT.format(alloc="{sched.remainder_lds}", loop="", other="")
    # beside a kernel with a natural K-loop: that kernel's marks only
    assert _walk(ctx, plain + NATURAL.format(k="")) == []
    found = _walk(ctx, plain + NATURAL.format(k="{sched.kept_mask}"))
    assert len(found) == 1 and "'amdgpu.mfma' op carries 'sched.kept_mask'" in found[0][1]
    # no natural K-loop, but an op of the tagged form: the front end's output given back
    tagged = TEXT.format(alloc="{sched.remainder_lds}", loop="",
                         other="{sched.frag_load = {channel = 0 : i64}}")
    assert _walk(ctx, tagged) == []
    # (nor a whole remainder: a loop too short to pipeline, run as written)
    assert _walk(ctx, TEXT.format(alloc="", other="",
                                  loop="{sched.remainder, sched.unpipelined}")) == []
