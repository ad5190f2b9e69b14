"""What IREE's ``iree_codegen.dispatch_config`` states of a kernel's launch against what the
kernel states (``analysis/launch_conflicts.dispatch_conflict``): IREE launches the kernel with
the dispatch_config's ``workgroup_size`` (its ROCDL translation makes it the required
workgroup size), the front end builds it on the function's; a difference is refused at the
dispatch_config (finding 126 of docs/iree-audits.md).  The refusal through
``sched-adopt-loop`` on IREE's late form: ``test/lit/passes/sched-adopt-loop-dispatch-config.
mlir``."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.launch_conflicts import dispatch_conflict
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops


def _conflict(fn_attrs: str, config: str, of: str = "k"):
    """``dispatch_conflict`` of ``@k`` (attributes ``fn_attrs``) beside a dispatch_config of
    ``@of`` whose sizes are ``config``: None, or (the op's name, the message)."""
    text = (f"func.func @k() attributes {{{fn_attrs}}} {{\n  return\n}}\n"
            f"iree_codegen.dispatch_config @{of}{config} {{\n^bb0(%d: !hal.device):\n"
            f"  %c1 = arith.constant 1 : index\n"
            f"  iree_codegen.yield %c1, %c1, %c1 : index, index, index\n}}\n")
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        (k,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        got = dispatch_conflict(k, 64)
        return None if got is None else (got[0].name, got[1])


KNOWN = "gpu.known_block_size = array<i32: 256, 1, 1>"
INFO = ("translation_info = #iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64>")


@pytest.mark.parametrize("fn_attrs, config, of", [
    (KNOWN, " workgroup_size = [256, 1, 1] subgroup_size = 64", "k"),   # IREE's late form
    (KNOWN, " workgroup_size = [256] subgroup_size = 64", "k"),         # padded with 1s
    (INFO, " workgroup_size = [256, 1, 1] subgroup_size = 64", "k"),
    (KNOWN, "", "k"),                                                   # states none
    ("", " workgroup_size = [128, 1, 1] subgroup_size = 64", "k"),     # the function none
    (KNOWN, " workgroup_size = [128, 1, 1] subgroup_size = 64", "other"),   # another's
])
def test_a_dispatch_config_that_agrees_or_is_anothers_is_no_conflict(fn_attrs, config, of):
    assert _conflict(fn_attrs, config, of) is None


@pytest.mark.parametrize("fn_attrs, config, said", [
    (KNOWN, " workgroup_size = [128, 1, 1] subgroup_size = 64",
     "workgroup_size = [128, 1, 1], with which IREE launches @k, is not the workgroup size "
     "the function states (gpu.known_block_size = [256, 1, 1]), over which its code is "
     "distributed"),
    (INFO, " workgroup_size = [256, 2] subgroup_size = 64",
     "workgroup_size = [256, 2], with which IREE launches @k, is not the workgroup size the "
     "function states (translation_info workgroup_size = [256, 1, 1])"),
    (KNOWN, " workgroup_size = [256, 1, 1] subgroup_size = 32",
     "subgroup_size = 32 for @k, but the target runs waves of 64 lanes"),
])
def test_a_dispatch_config_that_differs_is_refused_at_it(fn_attrs, config, said):
    name, message = _conflict(fn_attrs, config)
    assert name == "iree_codegen.dispatch_config"
    assert message.startswith("'iree_codegen.dispatch_config' op: ") and said in message
