"""Which MFMA shapes the front end gives the ping-pong schedule (``partition._ping_pong_dtype``):
the element type's own, or its 32x32 one as ``mfma`` (bf16 / f16 32x32x16 and 32x32x8, i8
32x32x32, FP8 32x32x64); any other is refused at the MFMA, naming the shapes it takes.
(IREE's kernels with each accepted shape: ``test/unit/tools/test_iree_pingpong.py``.)"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.partition import DTYPES, _ping_pong_dtype, _takes
from pipeline_mlir.schedules.geometry import MFMA_SHAPES
from pipeline_mlir.schedules.pingpong import PING_PONG_DTYPES
from pipeline_mlir.schedules.registry import parse_pipeline

#: one MFMA of gfx942's 16x16x16 bf16 shape, which no ping-pong geometry issues
TEXT = """func.func @f(%a: vector<4xbf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = amdgpu.mfma 16x16x16 %a * %a + %c : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
  return %d : vector<4xf32>
}
"""


@pytest.fixture
def scan():
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(TEXT, ctx)
        mfmas = walk_ops(m.operation, lambda o: o.name == "amdgpu.mfma")
        yield SimpleNamespace(mfmas=mfmas)


@pytest.mark.parametrize("dtype,shape,want", [
    ("bf16", (16, 16, 32), {}),
    ("bf16", (32, 32, 16), {"mfma": "32x32x16"}),
    ("f16", (32, 32, 8), {"mfma": "32x32x8"}),
    ("i8", (16, 16, 64), {}),
    ("i8", (32, 32, 32), {"mfma": "32x32x32"}),
    ("fp8", (16, 16, 128), {}),
    ("fp8", (32, 32, 64), {"mfma": "32x32x64"}),
    ("fp8", (16, 16, 32), {"mfma": "16x16x32"}),
    ("fp8", (32, 32, 16), {"mfma": "32x32x16"}),
])
def test_the_loops_mfma_becomes_the_geometrys(scan, dtype, shape, want):
    got = _ping_pong_dtype(scan, parse_pipeline("pingpong"), dtype, shape)
    assert got == {"dtype": dtype, "is_fp8": dtype == "fp8", **want}


@pytest.mark.parametrize("dtype,shape,msg", [
    ("bf16", (16, 16, 16), "is a 16x16x16 MFMA; the 'pingpong' schedule's bf16 geometry "
                           "issues 16x16x32 MFMAs or (mfma=) 32x32x16, 32x32x8"),
    ("i8", (32, 32, 16), "is a 32x32x16 MFMA; the 'pingpong' schedule's i8 geometry issues "
                         "16x16x64 MFMAs or (mfma=) 32x32x32"),
    ("fp8", (32, 32, 32), "is a 32x32x32 MFMA; the 'pingpong' schedule's fp8 geometry issues "
                          "16x16x128 MFMAs or (mfma=) 32x32x16, 32x32x64, 16x16x32"),
])
def test_another_shape_is_refused_at_the_mfma(scan, dtype, shape, msg):
    with pytest.raises(IRError, match=re.escape(msg)) as e:
        _ping_pong_dtype(scan, parse_pipeline("pingpong"), dtype, shape)
    assert e.value.op == scan.mfmas[0]


@pytest.mark.parametrize("dtype", sorted(set(DTYPES.values()) & set(PING_PONG_DTYPES)))
def test_every_dtype_has_a_32x32_mfma_to_name(dtype):
    """The refusal above always names the dtype's 32x32 shapes (``_ping_pong_dtype`` has no
    branch for a dtype with none): every dtype the front end knows that the ping-pong
    schedule has a geometry of has at least one."""
    assert [s for s in MFMA_SHAPES[1:] if _takes(dtype, s)]


def test_a_dtype_with_no_ping_pong_geometry_is_refused_at_the_mfma(scan):
    """f32 (IREE's 16x16x4 f32 MFMAs), which only the 4-wave schedule takes."""
    assert "f32" in DTYPES.values() and "f32" not in PING_PONG_DTYPES
    with pytest.raises(IRError, match=re.escape(
            "op multiplies f32; the 'pingpong' schedule has geometries of bf16, f16, fp8, i8 "
            "(the 4-wave one takes f32: --pipeline=4wave)")) as e:
        _ping_pong_dtype(scan, parse_pipeline("pingpong"), "f32", (16, 16, 4))
    assert e.value.op == scan.mfmas[0]
