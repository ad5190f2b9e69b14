"""pipeline_mlir/frontend/dispatch.py: the launch of a matmul dispatch, read from its MLIR.

IREE's committed kernels give their sizes, element type and grid; which dimension of B is K
comes from the K-loop's copies (B is square here, so the shapes cannot tell); small
hand-written dispatches pin the shapes-only layout, the grid rules and every refusal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.dispatch import matmul_dispatch
from pipeline_mlir.dialect.ir_io import IRError

ROOT = Path(__file__).parents[3]
DATA = ROOT / "test" / "data" / "iree"

HEAD = """#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>,
  #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
module {
  func.func @k() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
"""
A = "    %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) " \
    "offset(%c0) : memref<{}>\n"
B = A.replace("%0", "%1").replace("binding(0)", "binding(1)")
C = A.replace("%0", "%2").replace("binding(0)", "binding(2)")
TAIL = "    return\n  }\n}\n"


def dispatch(text: str):
    with new_context() as ctx:
        return matmul_dispatch(ir.Module.parse(text, ctx))


def refusal(text: str) -> str:
    with new_context() as ctx:
        with pytest.raises(IRError) as e:
            matmul_dispatch(ir.Module.parse(text, ctx))
        return f"{e.value.op.location}: {e.value}"


def kernel(a="128x64xbf16", b="256x64xbf16", c="128x256xf32", body=""):
    return HEAD + A.format(a) + B.format(b) + C.format(c) + body + TAIL


@pytest.mark.parametrize("form,grid", [("prefetch", (32, 32)), ("late", (1024,))])
def test_iree_kernels(form, grid):
    d = dispatch((DATA / f"matmul_bf16_abt_4096.{form}.mlir").read_text())
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b, d.grid) == (4096, 4096, 4096, "bf16", True,
                                                                grid)
    assert d.kernel == "matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32"
    assert d.describe() == "A 4096x4096xbf16, B 4096x4096xbf16, C 4096x4096xf32"


def test_a_x_b_is_told_by_the_k_loop():
    """A x B with a square B: only the loop's copies say that K is B's row index."""
    sys.path.insert(0, str(DATA))
    import generate as G

    try:
        text = G.prefetch_point(G.matmul_source(dtype="f16", m=512, n=512, k=512,
                                                transpose_b=False))
    except Exception as e:          # iree-compile missing
        pytest.skip(f"iree-compile: {e}")
    d = dispatch(text)
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b) == (512, 512, 512, "f16", False)


@pytest.mark.parametrize("b,transpose_b", [("256x64xbf16", True), ("64x256xbf16", False)])
def test_without_a_loop_the_shapes_tell(b, transpose_b):
    d = dispatch(kernel(b=b))
    assert (d.M, d.N, d.K, d.transpose_b, d.grid) == (128, 256, 64, transpose_b, (1,))


def test_an_i8_dispatch_has_an_i32_c():
    d = dispatch(kernel(a="128x64xi8", b="256x64xi8", c="128x256xi32"))
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b) == (128, 256, 64, "i8", True)


def test_a_square_b_without_a_loop_is_not_guessed():
    d = dispatch(kernel(b="64x64xbf16", c="128x64xf32"))
    assert d.transpose_b is None
    assert "has no K-loop copying A and B" in str(d.layout_problem)


@pytest.mark.parametrize("body,grid", [
    ("    %x = hal.interface.workgroup.id[0] upper_bound 4 : index\n", (4,)),
    ("    %x = hal.interface.workgroup.id[0] upper_bound 4 : index\n"
     "    %y = hal.interface.workgroup.id[1] upper_bound 2 : index\n", (4, 2)),
    ("    %y = hal.interface.workgroup.id[1] upper_bound 2 : index\n", (1, 2)),
    ("    %x = hal.interface.workgroup.id[0] upper_bound 4 : index\n"
     "    %y = hal.interface.workgroup.id[1] : index\n", None),
    ("    scf.forall (%i, %j) in (2, 8) {\n    } {mapping = [#iree_codegen.workgroup_mapping<y>,"
     " #iree_codegen.workgroup_mapping<x>]}\n", (8, 2)),
])
def test_grid(body, grid):
    assert dispatch(kernel(body=body)).grid == grid


@pytest.mark.parametrize("text,message", [
    (kernel().replace(C.format("128x256xf32"), ""), "has 2 bindings; a matmul dispatch has three"),
    (kernel(a="128x64xf32", b="256x64xf32"), "A and B are f32 and f32"),
    (kernel(b="256x64xf16"), "A and B are bf16 and f16"),
    (kernel(c="128x256xf16"), "C is f16: the emulator's reference accumulates in f32"),
    (kernel(c="128x256xi32"), "C is i32: the emulator's reference accumulates in f32"),
    (kernel(a="128x64xi8", b="256x64xi8"), "C is f32: the emulator's reference accumulates in "
                                           "i32 (i8 A and B)"),
    (kernel(a="128x64xi8", b="256x64xbf16"), "A and B are i8 and bf16"),
    (kernel(a="128x64x2xbf16"), "binding A (memref<128x64x2xbf16>) is not a static 2-D memref"),
    (kernel(b="256x64xbf16, strided<[128, 1]>"), "binding B (memref<256x64xbf16, strided<[128, "
                                                  "1]>>) is not row-major and contiguous"),
    (kernel(c="128x128xf32"), "are not A (M x K), B (N x K) and C (M x N) of one matmul"),
    ("module {\n}\n", "the input has no kernel to launch"),
    (kernel().replace("#hal.pipeline.layout<", "#hal.pipeline.layout<constants = 1, ").replace(
        TAIL, "    %p = hal.interface.constant.load layout(#layout) ordinal(0) : i32\n" + TAIL),
     "reads a push constant, and a matmul launch passes none"),
])
def test_refusals_name_the_op_and_why(text, message):
    got = refusal(text)
    assert message in got and 'loc("-":' in got, got


PREFETCH = (DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text()
A_TILE = "%subview_12 = memref.subview %2[%16, %80]"      # the tile of A the K-loop copies
B_TILE = "%subview_11 = memref.subview %4[%17, %80]"


def test_the_k_dimension_comes_from_the_copies():
    assert A_TILE in PREFETCH and B_TILE in PREFETCH
    # B's tile taken at (K, N): the loop walks B's rows, so B is K x N
    d = dispatch(PREFETCH.replace(B_TILE, "%subview_11 = memref.subview %4[%80, %17]"))
    assert d.transpose_b is False


@pytest.mark.parametrize("old,new,message", [
    (A_TILE, "%subview_12 = memref.subview %2[%80, %16]",
     "the K-loop walks A (4096x4096) along its rows: A is K x M"),
    (A_TILE, "%subview_12 = memref.subview %2[%16, %c0]",
     "the element it copies from A moves by [0] from one K step to the next"),
    (B_TILE, "%subview_11 = memref.subview %2[%17, %80]", "the K-loop copies nothing of B"),
    ("amdgpu.gather_to_lds %subview_12[%45#0, %45#1]",
     "%subview_99 = memref.subview %2[%80, %16] [32, 32] [1, 1] : memref<4096x4096xbf16, "
     "#amdgpu.address_space<fat_raw_buffer>> to memref<32x32xbf16, strided<[4096, 1], offset: "
     "?>, #amdgpu.address_space<fat_raw_buffer>>\n amdgpu.gather_to_lds %subview_99[%45#0, "
     "%45#1]", "walks A along another dimension than"),
])
def test_copies_that_do_not_walk_k_are_refused(old, new, message):
    """A refusal, or (B square: the shapes cannot tell either) the reason B's layout is not
    known, which ``--emulate`` reports once the build has had its say."""
    assert old in PREFETCH
    text = PREFETCH.replace(old, new)
    try:
        d = dispatch(text)
    except IRError:
        got = refusal(text)
    else:
        assert d.transpose_b is None
        got = str(d.layout_problem)
    assert message in got, got
