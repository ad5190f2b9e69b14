"""``bindings.build_context``: a context a finished build handed back serves the next one,
at most ``CONTEXT_USES`` builds; one left by an error, or whose settings its build changed,
is not handed back; the same input prints the same in a reused context as in a new one."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect import bindings
from pipeline_mlir.dialect.bindings import build_context, ir, new_context

TEXT = '''
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 7 : i32
  %s = arith.addi %a, %c : i32
  "sched.mark"() {note = "x"} : () -> ()
  return %s : i32
}
'''


@pytest.fixture(autouse=True)
def _no_spares(monkeypatch):
    monkeypatch.setattr(bindings, "_SPARE", [])


def _printed(ctx) -> str:
    return ir.Module.parse(TEXT, ctx).operation.get_asm(enable_debug_info=True)


def test_a_context_serves_the_next_build_then_is_let_go():
    seen = []
    for _ in range(bindings.CONTEXT_USES + 1):
        with build_context() as ctx:
            assert ir.Context.current is ctx
            seen.append(ctx)
    assert all(c is seen[0] for c in seen[:bindings.CONTEXT_USES])
    assert seen[bindings.CONTEXT_USES] is not seen[0]


def test_a_context_left_by_an_error_is_not_handed_back():
    with pytest.raises(ir.MLIRError):
        with build_context() as ctx:
            ir.Module.parse("func.func @f( {", ctx)
    assert bindings._SPARE == []
    with build_context() as other:
        assert other is not ctx


def test_a_reused_context_prints_what_a_new_one_does():
    with new_context() as ctx:
        want = _printed(ctx)
    for _ in range(3):
        with build_context() as ctx:
            assert _printed(ctx) == want


@pytest.mark.parametrize("change", [
    lambda ctx: ctx.enable_multithreading(False),
    lambda ctx: setattr(ctx, "emit_error_diagnostics", True),
    lambda ctx: setattr(ctx, "allow_unregistered_dialects", False)])
def test_a_context_its_build_changed_is_not_handed_back(change):
    """A build that changes its context (``--emulate --mlir-disable-threading`` turns
    threading off in the context the dispatch was parsed in) does not hand it on: the
    next build in the process would run with the change."""
    with build_context() as ctx:
        change(ctx)
    assert bindings._SPARE == []
    with build_context() as other:
        assert other is not ctx
