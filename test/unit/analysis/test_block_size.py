"""The workgroup size a kernel states (``ir_facts.block_size``), which every per-thread
evaluation of the front end and of ``--emulate``'s dispatch reader is built on: a size of
more threads than a gfx950 workgroup holds (a text mutation of IREE's VectorDistribute f16
kernel: ``workgroup_size = [256, 1, 999999999]``, whose 256e9 threads the analyses tried
to hold in one array, an internal error: finding 118 of docs/iree-audits.md) or of no
thread is refused at the kernel.  The function whose size an op reads
(``ir_facts.function_of``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.ir_facts import block_size, function_of
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops

_INFO = ("#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> "
         "workgroup_size = [{}] subgroup_size = 64>")


def _size(attrs: str):
    with new_context() as ctx:
        m = ir.Module.parse(f"func.func @k() attributes {{{attrs}}} {{ return }}", ctx)
        (f,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        return block_size(f)


@pytest.mark.parametrize("attrs, want", [
    (f"translation_info = {_INFO.format('256, 1, 1')}", (256, 1, 1)),
    (f"translation_info = {_INFO.format('1024')}", (1024, 1, 1)),
    ("known_block_size = array<i32: 64, 4, 4>", (64, 4, 4)),
    ("", None),
])
def test_a_stated_size_is_read(attrs, want):
    assert _size(attrs) == want


@pytest.mark.parametrize("attrs, said", [
    (f"translation_info = {_INFO.format('256, 1, 999999999')}",
     "(translation_info workgroup_size) is [256, 1, 999999999], 255999999744 threads"),
    (f"translation_info = {_INFO.format('1025')}",
     "(translation_info workgroup_size) is [1025, 1, 1], 1025 threads"),
    ("known_block_size = array<i32: 64, 0, 1>", "(known_block_size) is [64, 0, 1], 0 threads"),
    ("known_block_size = array<i32: -64, -1, 1>", "(known_block_size) is [-64, -1, 1], 64 threads"),
    # the attribute that gave the size named: the translation_info, which IREE's passes
    # copy to gpu.known_block_size (the VectorDistribute front end's), else the one there is
    (f"gpu.known_block_size = array<i32: 256, 1, 999999999>, translation_info = "
     f"{_INFO.format('256, 1, 999999999')}", "(translation_info workgroup_size) is "
                                             "[256, 1, 999999999]"),
    ("gpu.known_block_size = array<i32: 256, 1, 999999999>",
     "(gpu.known_block_size) is [256, 1, 999999999]"),
])
def test_a_size_no_workgroup_has_is_refused_at_the_kernel(attrs, said):
    with pytest.raises(IRError, match="a gfx950 workgroup has 1 to 1024") as e:
        _size(attrs)
    assert said in str(e.value) and "'func.func' op" in str(e.value)


def test_the_function_around_an_op():
    """The ``gpu.func`` or ``func.func`` an op is nested in, at any depth; None for an op
    outside any function (a module's) and for the function itself."""
    with new_context() as ctx:
        m = ir.Module.parse("""
gpu.module @g {
  gpu.func @k() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      %t = gpu.thread_id x
    }
    gpu.return
  }
}
func.func @f() {
  %t = gpu.thread_id y
  return
}""", ctx)
        ids = walk_ops(m.operation, lambda o: o.name == "gpu.thread_id")
        assert [(function_of(t).name, str(function_of(t).attributes["sym_name"]))
                for t in ids] == [("gpu.func", '"k"'), ("func.func", '"f"')]
        (g,) = walk_ops(m.operation, lambda o: o.name == "gpu.module")
        (k,) = walk_ops(m.operation, lambda o: o.name == "gpu.func")
        assert function_of(g) is None and function_of(k) is None
