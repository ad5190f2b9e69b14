"""``launch_stride.fat_buffer``: a binding IREE left in ``#hal.descriptor_type<storage_buffer>``
(its copies were through registers) is read by the front end's copies through a fat raw
buffer cast; the binding is recognised by its memref's memory-space attribute, so a
memref in any other space (another descriptor type, a global address space, a string
attribute that spells the storage buffer) is returned as it is."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.launch_stride import divisor, fat_buffer

TEXT = """func.func @f(%b: memref<4x8xbf16, {space}>) {{
  return
}}"""


def _cast(space: str):
    """(the buffer, what ``fat_buffer`` gives for it, the module text after)."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(TEXT.format(space=space), ctx)
        (func,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        block = func.regions[0].blocks[0]
        base = block.arguments[0]
        casts: dict = {}
        point = ir.InsertionPoint.at_block_begin(block)
        got = fat_buffer(base, point, casts)
        again = fat_buffer(base, point, casts)
        assert again == got                   # cast once per buffer
        return base, got, str(m)


def test_a_storage_buffer_binding_is_cast_to_a_fat_raw_buffer():
    base, got, text = _cast("#hal.descriptor_type<storage_buffer>")
    assert got != base and text.count("amdgpu.fat_raw_buffer_cast") == 1, text
    assert "memref<4x8xbf16, #amdgpu.address_space<fat_raw_buffer>>" in text, text


@pytest.mark.parametrize("space", ["#hal.descriptor_type<uniform_buffer>",
                                   "#gpu.address_space<global>",
                                   '"#hal.descriptor_type<storage_buffer>"', "1"])
def test_another_memory_space_is_not_taken(space):
    base, got, text = _cast(space)
    assert got == base and "fat_raw_buffer_cast" not in text, text


DIVISOR = """func.func @f() {
  %c = arith.constant 96 : i32
  %s = arith.extsi %c : i32 to i64
  %u = arith.index_castui %s : i64 to index
  %w = iree_tensor_ext.dispatch.workload.ordinal %u, 0 : index
  %m = arith.muli %w, %w : index
  return
}"""


def test_a_stride_divisor_follows_every_cast_of_a_launch_value():
    """The divisor of a stride follows the casts of ``ir_facts.LAUNCH_PASS_THROUGH`` (the
    table ``launch_sizes`` also follows), sign extension included."""
    with new_context() as ctx:
        m = ir.Module.parse(DIVISOR, ctx)
        (mul,) = walk_ops(m.operation, lambda o: o.name == "arith.muli")
        assert divisor(mul.results[0]) == 96 * 96
