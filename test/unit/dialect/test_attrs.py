"""Decisions on attributes and types are taken on the attributes themselves
(``pipeline_mlir/dialect/attrs.py``), never on their printed text: a string attribute that
spells the text does not pass for it, and another spelling of the same attribute does."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect import attrs as A
from pipeline_mlir.dialect.bindings import build_context, ir
from pipeline_mlir.dialect.ir_io import IRError


@pytest.fixture
def ctx():
    with build_context() as c:     # (a finished test's: a new one loads every dialect)
        yield c


def attr(text):
    return ir.Attribute.parse(text)


def memref(space: str):
    return ir.Type.parse(f"memref<64xf32, {space}>")


@pytest.mark.parametrize("text, want", [
    ("#gpu.dim<y>", 1), ("#gpu<dim<z>>", 2), ("0 : index", 0), ("2 : i32", 2),
    ('"y"', None), ('"#gpu.dim<y>"', None), ("7 : index", None), ("#gpu.address_space<global>",
                                                                  None)])
def test_a_dimension_is_the_attribute(ctx, text, want):
    assert A.dimension(attr(text)) == want


@pytest.mark.parametrize("text, want", [
    ("#iree_codegen.workgroup_mapping<y>", 1), ("#iree_codegen.workgroup_mapping<z>", 2),
    ('"workgroup_mapping<x>"', None), ('"#iree_codegen.workgroup_mapping<x>"', None),
    ("#gpu.thread<x>", None), ("#gpu.block<x>", 0), ("#gpu.block<z>", 2),
    ("#gpu.block<linear_dim_0>", None), ('"#gpu.block<x>"', None)])
def test_a_workgroup_mapping_is_the_attribute(ctx, text, want):
    assert A.workgroup_mapping(attr(text)) == want


@pytest.mark.parametrize("space, workgroup", [
    ("#gpu.address_space<workgroup>", True), ("#gpu<address_space<workgroup>>", True),
    ('"workgroup"', False), ('"#gpu.address_space<workgroup>"', False),
    ("#gpu.address_space<private>", False), ('{note = "workgroup"}', False)])
def test_workgroup_memory_is_its_memory_space(ctx, space, workgroup):
    assert A.is_workgroup_memref(memref(space)) is workgroup


@pytest.mark.parametrize("space, name", [
    ("#gpu.address_space<workgroup>", "workgroup"), ("#gpu<address_space<workgroup>>",
                                                     "workgroup"),
    ("3", "workgroup"), ("3 : i64", "workgroup"), ("#gpu.address_space<private>", "private"),
    ("#amdgpu.address_space<fat_raw_buffer>", "fat_raw_buffer"),
    ("#hal.descriptor_type<storage_buffer>", "global"),
    ('"workgroup"', '"workgroup"'), ('"storage_buffer"', '"storage_buffer"'),
    ('"fat_raw_buffer"', '"fat_raw_buffer"')])
def test_the_memory_space_the_analyses_read_is_the_attribute(ctx, space, name):
    from pipeline_mlir.analysis.ir_facts import memory_space

    assert memory_space(memref(space)) == name
    assert memory_space(ir.Type.parse("memref<64xf32>")) == "global"


def test_a_hal_binding_space_is_the_attribute(ctx):
    assert A.is_hal_descriptor_space(attr("#hal.descriptor_type<storage_buffer>"))
    assert A.is_hal_descriptor_space(attr("#hal.descriptor_type<uniform_buffer>"))
    assert not A.is_hal_descriptor_space(attr('"hal.descriptor_type<storage_buffer>"'))
    assert not A.is_hal_descriptor_space(None)


def test_booleans_and_fp8_are_typed(ctx):
    assert A.bool_values(attr("[true, false]")) == [True, False]
    assert A.bool_values(attr('["true"]')) is None
    assert A.int_value(attr("5 : i8")) == 5 and A.int_value(attr('"5"')) is None
    for t in ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ"):
        assert A.is_float8(ir.Type.parse(t))
    for t in ("f16", "i8", "bf16"):
        assert not A.is_float8(ir.Type.parse(t))


LOADS = """
func.func @k(%i: index) {
  %lds = memref.alloc() : memref<64x64xf16, {space}>
  %v = vector.load %lds[%i, %i] : memref<64x64xf16, {space}>, vector<8xf16>
  return
}
"""


@pytest.mark.parametrize("space, counted", [
    ("#gpu.address_space<workgroup>", ("lgkmcnt", 1)), ("#gpu<address_space<workgroup>>",
                                                        ("lgkmcnt", 1)),
    ('"workgroup"', None)])
def test_a_fragment_read_is_an_lds_read_by_its_memory_space(ctx, space, counted):
    """The tagged form counts the ds_reads of a vector.load from workgroup memory (the
    memref's memory space), not of one whose type merely prints 'workgroup'."""
    from pipeline_mlir.frontend.tagged import instruction_kinds, payload_instructions

    m = ir.Module.parse(LOADS.replace("{space}", space))
    load = list(m.body.operations[0].regions[0].blocks[0].operations)[1]
    assert load.name == "vector.load"
    assert payload_instructions(load) == counted
    assert instruction_kinds(load) == (["ds_read"] if counted else [])


@pytest.mark.parametrize("space, rewrite", [
    ("#gpu.address_space<workgroup>", True), ("#gpu<address_space<workgroup>>", True),
    ('"workgroup"', False)])
def test_sched_gpu_kernel_sees_workgroup_allocations_by_their_space(ctx, space, rewrite):
    from pipeline_mlir.passes.gpu_kernel import _needs_rewrite

    m = ir.Module.parse(LOADS.replace("{space}", space))
    assert _needs_rewrite(m.body.operations[0]) is rewrite


def test_the_lane_evaluator_reads_the_dimension_attribute(ctx):
    from pipeline_mlir.analysis.lane_ops import id_dimension

    m = ir.Module.parse("func.func @k() { %a = gpu.thread_id y\n %b = gpu.block_dim "
                        "z\n return }")
    ops = list(m.body.operations[0].regions[0].blocks[0].operations)
    assert [id_dimension(o) for o in ops[:2]] == [1, 2]


def test_a_translation_info_is_read_only_from_the_attribute_class(ctx):
    """IREE's translation_info has no accessor: its text is read, once the attribute is known
    to be one (a string attribute that spells it is not)."""
    from pipeline_mlir.analysis.ir_facts import block_size

    info = ("#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> "
            "workgroup_size = [128, 2, 1] subgroup_size = 64>")
    for value, want in ((info, (128, 2, 1)), (f'"{info}"', None),
                        ('"workgroup_size = [128, 2, 1]"', None)):
        m = ir.Module.parse(f"func.func @k() attributes {{translation_info = {value}}} "
                            f"{{ return }}")
        assert block_size(m.body.operations[0]) == want, value


def test_a_constant_range_is_known_by_its_class(ctx):
    assert A.is_kind(attr("#llvm.constant_range<i32, 0, 64>"), "constant_range")
    assert not A.is_kind(attr('"#llvm.constant_range<i32, 0, 64>"'), "constant_range")
    assert not A.is_kind(attr('"constant_range<i32, 0, 64>"'), "constant_range")



B = "#hal.pipeline.binding<storage_buffer"


@pytest.mark.parametrize("text, want", [
    (f"#hal.pipeline.layout<bindings = [{B}, \"ReadOnly|Indirect\">, {B}, Indirect>], "
     f"flags = Indirect>", (0, 2)),
    (f"#hal.pipeline.layout<constants = 3, bindings = [{B}>]>", (3, 1)),
    ("#hal.pipeline.layout<constants = 64, bindings = []>", (64, 0)),
    ('"#hal.pipeline.layout<constants = 1, bindings = []>"', None)])
def test_a_pipeline_layout_is_read_from_its_fields(ctx, text, want):
    assert A.pipeline_layout(attr(text), None) == want


class _Op:
    name = "hal.interface.binding.subspan"


@pytest.mark.parametrize("text, field", [
    ("#hal.pipeline.layout<constants = -2, bindings = []>", "'constants' is -2"),
    ("#hal.pipeline.layout<constants = 4096, bindings = []>", "'constants' is 4096")])
def test_a_layout_of_a_bad_count_is_refused_naming_the_field(ctx, text, field):
    with pytest.raises(IRError, match=field) as e:
        A.pipeline_layout(attr(text), _Op())
    assert "'hal.interface.binding.subspan' op" in str(e.value)


@pytest.mark.parametrize("text, parts", [
    ('a = 1, b = [x<1, 2>, "q,\\"r"], c', ["a = 1", 'b = [x<1, 2>, "q,\\"r"]', "c"]),
    ("", []), ("x,", ["x", ""])])
def test_the_layout_fields_split_outside_brackets_and_strings(text, parts):
    assert A._split_top(text) == parts
