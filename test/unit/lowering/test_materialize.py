"""The lowering reads the workgroup size the warp stagger needs from any kernel form: a
``gpu.func``'s ``known_block_size``, a ``func.func``'s ``gpu.known_block_size`` (IREE's kernels)
or IREE's ``translation_info``; none of them is an error, never a guess."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.lowering.materialize import _block_size

LOOP = """
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c1 step %c1 {
      }"""

GPU_FUNC = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel %ATTRS {""" + LOOP + """
      gpu.return
    }
  }
}"""

FUNC = """module {
  func.func @k() %ATTRS {""" + LOOP + """
    return
  }
}"""

TRANSLATION = ("attributes {translation_info = #iree_codegen.translation_info<pipeline = "
               "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [512, 1, 1] "
               "subgroup_size = 64>}")


def loop_of(text: str):
    with new_context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        return _block_size(loop)


@pytest.mark.parametrize("template, attrs", [
    (GPU_FUNC, "attributes {known_block_size = array<i32: 512, 1, 1>}"),
    (FUNC, "attributes {gpu.known_block_size = array<i32: 512, 1, 1>}"),
    (FUNC, TRANSLATION),
], ids=["gpu.func", "func.func", "translation_info"])
def test_every_kernel_form_gives_its_block_size(template, attrs):
    assert loop_of(template.replace("%ATTRS", attrs)) == 512


@pytest.mark.parametrize("template", [GPU_FUNC, FUNC], ids=["gpu.func", "func.func"])
def test_a_kernel_without_a_size_has_none(template):
    assert loop_of(template.replace("%ATTRS", "")) is None
