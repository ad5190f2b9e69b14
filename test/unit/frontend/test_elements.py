"""The front end's one table of A and B element types (``frontend/elements.py``): the
dispatch reader's reference names and the partition's schedule dtypes both come from it,
and an MFMA of another element type is refused at the op, naming the type."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend import dispatch, elements, partition
from pipeline_mlir.schedules.geometry import DTYPES as SCHEDULE_BYTES
from pipeline_mlir.schedules.registry import parse_pipeline


def test_the_tables_are_derived_from_one():
    assert dispatch.ELEMENTS is elements.ELEMENTS
    assert partition.DTYPES is elements.SCHEDULE_DTYPES
    assert set(elements.SCHEDULE_DTYPES) == set(elements.ELEMENTS)
    assert set(elements.SCHEDULE_DTYPES.values()) <= set(SCHEDULE_BYTES)
    # both 8-bit float formats run on the one fp8 schedule; the reference tells them apart
    assert elements.SCHEDULE_DTYPES["f8E5M2"] == elements.SCHEDULE_DTYPES["f8E4M3FN"] == "fp8"
    assert elements.ELEMENTS["f8E5M2"] != elements.ELEMENTS["f8E4M3FN"]


#: one MFMA of gfx942's FNUZ fp8, an element type no schedule runs
TEXT = """func.func @f(%a: vector<8xf8E4M3FNUZ>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<4xf32>
  return %d : vector<4xf32>
}
"""


def test_an_mfma_of_another_element_type_is_refused_at_the_op():
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(TEXT, ctx)
        mfmas = walk_ops(m.operation, lambda o: o.name == "amdgpu.mfma")
        scan = SimpleNamespace(mfmas=mfmas, loop=None, kernel=None, block=(256, 1, 1))
        with pytest.raises(IRError, match=r"'amdgpu.mfma' op multiplies f8E4M3FNUZ; the "
                                          r"schedules know bf16, f16, f8E4M3FN, f8E5M2, i8, f32$"):
            partition.infer_schedule(SimpleNamespace(scan=scan), parse_pipeline("4wave"))
