"""One rule for "is this value the same in every wave of the workgroup?"
(``pipeline_mlir/analysis/wg_uniform.py``), serving the LDS order walk's ``scf.if``
conditions (``analysis/lds_order.py``) and the run-time trip count check of the front end
(``frontend/tails.check_uniform_bounds``).

The trip count check used to refuse only thread ids; the shared rule also refuses a bound
from one lane's value, a load, an op with regions, a loop-carried value and the induction
variable of a loop whose own bounds vary: one negative case each.  The rule is an
allow-list: an op it does not know (``gpu.global_id``, a call's result, ``rocdl.ballot``)
is refused by name, though its operands, if any, are uniform; the ops IREE wraps its sizes
in (``util.assume.int``, ``iree_tensor_ext.dispatch.workload.ordinal``) and the ``index``
dialect are known."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.wg_uniform import is_uniform, varying_source
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.tails import check_uniform_bounds

HEAD = """
func.func private @opaque() -> index
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
    "hints": ("%h:2 = util.assume.int %n<umin = 0, umax = 4096>, %wg<umin = 0, umax = 64> "
              ": index, index\n%o = iree_tensor_ext.dispatch.workload.ordinal %h#0, 0 : index\n"
              "%ub = index.add %o, %h#1", "", None, None),
    "global-id": ("%g = gpu.global_id x\n%ub = arith.addi %n, %g : index", "", "unknown",
                  "gpu.global_id"),
    "call": ("%ub = func.call @opaque() : () -> index", "", "unknown", "func.call"),
    "ballot": ("%p = arith.cmpi sgt, %n, %c1 : index\n%b = rocdl.ballot %p : i64\n"
               "%ub = arith.index_cast %b : i64 to index", "", "unknown", "rocdl.ballot"),
}

#: what the refusal says of each kind of source (its words, written out)
SAYS = {"thread": "the thread", "read": "a value loaded from memory",
        "lane": "one lane's value", "region": "the result of an op with regions",
        "carried": "a loop-carried value", "unknown": "an op the rule does not know"}


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
    """The rule's answer, and the trip count check's: a uniform run-time bound is taken; one
    that may differ between the waves is refused at the loop, naming its source (each case
    past the thread id one the check let through before the rule was shared, and each op the
    rule does not know one it let through before the rule was an allow-list: a trip count
    every wave may not share, whose barriers would deadlock)."""
    _, loop = _inner_loop(name)
    why = varying_source(loop.operands[1])
    kind, op = CASES[name][2:]
    assert (why is None) == (kind is None) == is_uniform(loop.operands[1])
    if kind is None:
        check_uniform_bounds(loop)
        return
    assert (why.kind, why.op.name) == (kind, op)
    with pytest.raises(IRError) as e:
        check_uniform_bounds(loop)
    msg = str(e.value)
    says = f"depends on {SAYS[kind]} ('{op}' op at"
    assert "'scf.for' op has a trip count known only at run time that " + says in msg, msg
    assert "every wave of the workgroup shares" in msg
    if name == "carried":
        assert "its argument #1)" in msg, msg
