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


FAT = "#amdgpu.address_space<fat_raw_buffer>"
GLOBAL = "#gpu.address_space<global>"
#: a binding of rows K known at launch (``udiv = 32``: IREE's ``util.assume.int``), its
#: views, and a function argument of rows known at launch with nothing said of them
VIEWS = f"""#pl = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @f(%arg: memref<8x?x4xi8>, %strided: memref<8x?xi8, strided<[?, 1]>>,
             %s3: memref<8x?x4xi8, strided<[?, ?, 1]>>, %s4: memref<8x?x4xi8, strided<[?, 4, 1]>>) {{
  %c0 = arith.constant 0 : index
  %lo = hal.interface.constant.load layout(#pl) ordinal(0) : i32
  %i = arith.index_castui %lo : i32 to index
  %k = util.assume.int %i<umin = 0, umax = 4096, udiv = 32> : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) : memref<16x?xi8, {GLOBAL}>{{%k}}
  %a = memref.assume_alignment %b, 64 : memref<16x?xi8, {GLOBAL}>
  %f = amdgpu.fat_raw_buffer_cast %a resetOffset : memref<16x?xi8, {GLOBAL}> to memref<16x?xi8, {FAT}>
  %s = memref.subview %f[0, 0] [8, 64] [2, 1] : memref<16x?xi8, {FAT}> to memref<8x64xi8, strided<[?, 1]>, {FAT}>
  %e = memref.expand_shape %f [[0, 1], [2]] output_shape [4, 4, %k] : memref<16x?xi8, {FAT}> into memref<4x4x?xi8, {FAT}>
  return
}}"""


@pytest.fixture(scope="module")
def views():
    """:data:`VIEWS`' memref values by name."""
    with new_context() as ctx:
        m = ir.Module.parse(VIEWS, ctx)
        (fn,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        ops = walk_ops(fn, lambda o: len(o.results) == 1)
        names = ("c0", "lo", "i", "k", "b", "a", "f", "s", "e")
        assert len(ops) == len(names)
        args = fn.regions[0].blocks[0].arguments
        yield {"arg": args[0], "strided": args[1], "s3": args[2], "s4": args[3],
               **{n: o.results[0] for n, o in zip(names, ops)}}


@pytest.mark.parametrize("name,want", [
    ("b", [32, 1]), ("f", [32, 1]),     # rows of K, a multiple of 32 (its udiv), as cast
    ("s", [64, 1]),                     # every second row of them
    ("arg", [4, 4, 1]),                 # ? x 4 elements: 4 times a size nothing says of
    ("strided", [1, 1]),                # a stride the layout states apart from the sizes
    ("s3", [1, 1, 1]),                  # (before: 4 and 4, the sizes' product)
    ("s4", [1, 4, 1]),                  # one of them static
    ("e", None),                        # a reshape is not followed
])
def test_view_stride_divisors_follow_the_launch_strides(views, name, want):
    """A stride known only at launch counts by its proven divisor (the product of the
    sizes inside it, each size its ``util.assume.int``'s ``udiv``), through casts and
    subviews of static steps (``launch_stride.view_stride_divisors``, finding 93); a
    function argument whose layout states its strides apart from its sizes is taken at its
    type's strides, 1 where dynamic (``stride_divisors``, which the front end's own copies'
    ``launch_aligned`` uses too)."""
    from pipeline_mlir.frontend.launch_stride import view_stride_divisors
    assert view_stride_divisors(views[name]) == want
