"""One rule for "is this value the same in every wave of the workgroup?"
(``pipeline_mlir/analysis/wg_uniform.py``), serving the LDS order walk's ``scf.if``
conditions (``analysis/lds_order.py``) and the run-time trip count check of the front end
(``frontend/tails.check_uniform_bounds``).

The trip count check used to refuse only thread ids; the shared rule also refuses a bound
from one lane's value, a load, an op with regions, a loop-carried value and the induction
variable of a loop whose own bounds vary: one negative test each.  (The LDS order walk
already had all of these; the shared rule adds none to it.)"""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.wg_uniform import is_uniform, varying_source
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.tails import check_uniform_bounds

HEAD = """
func.func @f(%n: index, %buf: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tid = gpu.thread_id x
  %wg = gpu.block_id x
"""

#: name -> (the lines defining %ub and wrapping the loop, the loop's closing lines, the kind
#: of varying source or None, the op the message names)
CASES = {
    "argument": ("%ub = arith.addi %n, %c1 : index", "", None, None),
    "workgroup": ("%ub = arith.muli %n, %wg : index", "", None, None),
    "outer-iv": ("scf.for %o = %c0 to %n step %c1 {\n%ub = arith.addi %o, %c1 : index",
                 "}", None, None),
    "forall-iv": ("scf.forall (%w) in (4) {\n%ub = arith.addi %w, %n : index",
                  "}", None, None),
    "workgroup-forall-iv": ("scf.forall (%w) in (4) {\n%ub = arith.addi %w, %n : index",
                            "} {mapping = [#gpu.block<x>]}", None, None),
    "thread-forall-iv": ("scf.forall (%w) in (4) {\n%ub = arith.addi %w, %n : index",
                         "} {mapping = [#gpu.thread<x>]}", "thread", "scf.forall"),
    "thread": ("%ub = arith.addi %n, %tid : index", "", "thread", "gpu.thread_id"),
    "load": ("%ub = memref.load %buf[%c0] : memref<4xindex>", "", "read", "memref.load"),
    "lane": ("%n32 = arith.index_cast %n : index to i32\n"
             "%r = rocdl.readfirstlane %n32 : i32\n"
             "%ub = arith.index_cast %r : i32 to index", "", "lane", "rocdl.readfirstlane"),
    "region": ("%p = arith.cmpi sgt, %n, %c1 : index\n"
               "%ub = scf.if %p -> index {\nscf.yield %n : index\n} else {\n"
               "scf.yield %c1 : index\n}", "", "region", "scf.if"),
    "carried": ("%x = scf.for %o = %c0 to %c1 step %c1 iter_args(%ub = %n) -> index {",
                "scf.yield %ub : index\n}", "carried", "scf.for"),
    "varying-outer-iv": ("scf.for %o = %c0 to %tid step %c1 {\n"
                         "%ub = arith.addi %o, %c1 : index", "}", "thread", "gpu.thread_id"),
}


def _inner_loop(name: str):
    pre, post, _, _ = CASES[name]
    text = (HEAD + pre + "\nscf.for %i = %c0 to %ub step %c1 {\n} {inner}\n" + post
            + "\nreturn\n}\n")
    module = ir.Module.parse(text)
    (loop,) = walk_ops(module.operation, lambda o: "inner" in o.attributes)
    return module, loop


@pytest.fixture(scope="module")
def ctx():
    with new_context() as c, ir.Location.unknown():
        yield c


@pytest.mark.parametrize("name", list(CASES))
def test_the_rule(ctx, name):
    _, loop = _inner_loop(name)
    why = varying_source(loop.operands[1])
    kind, op = CASES[name][2:]
    assert (why is None) == (kind is None) == is_uniform(loop.operands[1])
    if kind is not None:
        assert (why.kind, why.op.name) == (kind, op)


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][2] is None])
def test_a_uniform_run_time_bound_is_taken(ctx, name):
    _, loop = _inner_loop(name)
    check_uniform_bounds(loop)


@pytest.mark.parametrize("name, says", [
    ("thread", "depends on the thread ('gpu.thread_id' op at"),
    ("load", "depends on a value loaded from memory ('memref.load' op at"),
    ("lane", "depends on one lane's value ('rocdl.readfirstlane' op at"),
    ("region", "depends on the result of an op with regions ('scf.if' op at"),
    ("carried", "depends on a loop-carried value ('scf.for' op at"),
    ("varying-outer-iv", "depends on the thread ('gpu.thread_id' op at"),
])
def test_a_bound_that_may_differ_between_waves_is_refused(ctx, name, says):
    """Each case past the thread id is one the trip count check let through before the
    rule was shared (a trip count every wave may not share: its barriers would deadlock)."""
    _, loop = _inner_loop(name)
    with pytest.raises(IRError) as e:
        check_uniform_bounds(loop)
    msg = str(e.value)
    assert "'scf.for' op has a trip count known only at run time that " + says in msg, msg
    assert "every wave of the workgroup shares" in msg
    if name == "carried":
        assert "its argument #1)" in msg, msg
