"""pipeline_mlir/frontend/dispatch.py: the launch of a matmul dispatch, read from its MLIR.

IREE's committed kernels give their sizes, element type and grid; which dimension of B is K
comes from the K-loop's copies (B is square here, so the shapes cannot tell); small
hand-written dispatches pin the shapes-only layout, the grid rules and every refusal.  The
committed kernel with its epilogue mutated pins what the epilogue reader
(``pipeline_mlir/frontend/epilogue.py``) takes and refuses.
"""

from __future__ import annotations

import functools
import re
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


@functools.lru_cache(maxsize=1)
def _context():
    """One context for every kernel this file (and test_select_read.py) parses: making a
    context loads every dialect, some 20 ms of CPU each time."""
    return new_context()


def dispatch(text: str):
    with _context() as ctx:
        return matmul_dispatch(ir.Module.parse(text, ctx))


def refusal(text: str) -> str:
    with _context() as ctx:
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
        # a square B (K = N): IREE's bf16 A x B at 4096^3
        text = G.prefetch_point(G.matmul_source(dtype="bf16", transpose_b=False))
    except Exception as e:          # iree-compile missing
        pytest.skip(f"iree-compile: {e}")
    d = dispatch(text)
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b) == (4096, 4096, 4096, "bf16", False)


@pytest.mark.parametrize("b,transpose_b", [("256x64xbf16", True), ("64x256xbf16", False)])
def test_without_a_loop_the_shapes_tell(b, transpose_b):
    d = dispatch(kernel(b=b))
    assert (d.M, d.N, d.K, d.transpose_b, d.grid) == (128, 256, 64, transpose_b, (1,))


def test_an_i8_dispatch_has_an_i32_c():
    d = dispatch(kernel(a="128x64xi8", b="256x64xi8", c="128x256xi32"))
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b) == (128, 256, 64, "i8", True)


def test_mixed_8_bit_floats_are_launched_as_the_dispatch_says():
    """fp8 E5M2 A x E4M3FN B (gfx950's f8f6f4 MFMAs give each operand's format): read, and
    not the plain launch, whose reference encodes A and B in one type."""
    d = dispatch(kernel(a="128x64xf8E5M2", b="256x64xf8E4M3FN"))
    assert (d.M, d.N, d.K, d.dtype, d.transpose_b, d.plain) == (128, 256, 64, "fp8e5m2", True,
                                                                 False)
    assert dispatch(kernel(a="128x64xf8E5M2", b="256x64xf8E5M2")).plain


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
    # IREE's VectorDistribute kernels step over the tile offsets: 300 / 64 rows, 256 / 128
    ("    scf.forall (%i, %j) = (0, 0) to (300, 256) step (64, 128) {\n    } {mapping = "
     "[#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}\n", (2, 5)),
    ("    scf.forall (%i, %j) = (64, 0) to (256, 256) step (64, 128) {\n    } {mapping = "
     "[#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}\n", (2, 3)),
])
def test_grid(body, grid):
    assert dispatch(kernel(body=body)).grid == grid


@pytest.mark.parametrize("text,message", [
    (kernel().replace(C.format("128x256xf32"), ""),
     "has 2 bindings; a matmul dispatch has at least three"),
    (kernel(a="128x64xf64", b="256x64xf64"), "A and B are f64 and f64"),
    (kernel(b="256x64xf16"), "A and B are bf16 and f16"),
    (kernel(c="128x256xi32"), "C is i32: the emulator's reference writes C as f32, bf16, f16"),
    (kernel(c="128x256xf8E4M3FNUZ"), "C is f8E4M3FNUZ: the emulator's reference writes C as "
                                     "f32, bf16, f16, f8E4M3FN, f8E5M2"),
    (kernel(a="128x64x2x2xbf16"), "binding A (memref<128x64x2x2xbf16>) is not a memref of 1 "
                                  "to 3 dimensions"),
    (kernel(a="2x128x64xbf16"), "binding A (2x128x64xbf16) is not a 2-D matrix or a 3-D batch"),
    (kernel(a="2x128x64xbf16", b="3x256x64xbf16", c="2x128x256xf32"),
     "the batch dimensions of A, B and C ((2,), (3,), (2,)) differ"),
    (kernel(a="128x64xi8", b="256x64xi8"), "C is f32: the emulator's reference accumulates i8 "
                                           "A and B in i32"),
    (kernel(a="128x64xi8", b="256x64xbf16"), "A and B are i8 and bf16"),
    (kernel(a="128x64xf8E5M2", b="256x64xbf16"), "A and B are f8E5M2 and bf16"),
    (kernel(b="256x64xbf16, strided<[128, 1]>"), "binding B (memref<256x64xbf16, strided<[128, "
                                                  "1]>>) is not row-major and contiguous"),
    (kernel(c="128x128xf32"), "are not A (M x K), B (N x K) and C (M x N) of one matmul"),
    ("module {\n}\n", "the input has no kernel to launch"),
    (kernel().replace("#hal.pipeline.layout<", "#hal.pipeline.layout<constants = 1, ").replace(
        TAIL, "    %p = hal.interface.constant.load layout(#layout) ordinal(0) : i32\n" + TAIL),
     "the kernel reads push constants: the launch's M, N and K must be given"),
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


def test_a_walked_along_its_rows_is_k_x_m():
    """A's tile taken at (K, M): the loop walks A's rows, so A is K x M (``A^T x B^T``),
    and C must equal ``A.T @ B.T`` (the dispatch runs as a launch description)."""
    d = dispatch(PREFETCH.replace(A_TILE, "%subview_12 = memref.subview %2[%80, %16]"))
    assert d.transpose_a and d.transpose_b and d.expect == "A.T @ B.T" and not d.plain
    assert not dispatch(PREFETCH).transpose_a


@pytest.mark.parametrize("old,new,message", [
    (A_TILE, "%subview_12 = memref.subview %2[%16, %c0]",
     "the element it copies from A moves by [0] from one K step to the next"),
    (B_TILE, "%subview_11 = memref.subview %2[%17, %80]", "the K-loop copies nothing of B"),
    # (a lane moving back: no clamp of a masked K tile, which only shortens a lane's move)
    (A_TILE, "%c4064 = arith.constant 4064 : index\n %back = arith.subi %c4064, %80 : index"
             "\n %subview_12 = memref.subview %2[%16, %back]",
     "the element it copies from A moves by [-32] from one K step to the next"),
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


@pytest.mark.parametrize("transpose_b", [False, True])
def test_a_loop_of_two_k_steps_clamped_in_the_second_tells_its_layout(transpose_b):
    """IREE's i8 ``A^T x B`` (``A^T x B^T``) 287x512x481, its default build's late form: 2
    K steps, the second the masked last tile, whose rows of A and B past K are clamped
    (``min``), so those lanes' copies move less than the K step from the first step to the
    second.  The layout is the farthest lane's move: ``A.T @ B`` (``A.T @ B.T``).  Before,
    the spread was refused, and the refusal was left for a shape check that then named the
    bindings wrongly (``the bindings 481x287, 481x512, 287x512 are not A (M x K) ...``)."""
    sys.path.insert(0, str(DATA))
    import generate as G

    text = G.forms(G.matmul_source("i8", 287, 512, 481, transpose_a=True,
                                   transpose_b=transpose_b),
                   ("--iree-llvmgpu-prefetch-num-stages=2",))["late"]
    assert re.search(r"arith\.minui %\w+, %c481_i32 : i32", text)     # (the clamp at K)
    d = dispatch(text)
    assert d.transpose_a and d.transpose_b is transpose_b and d.layout_problem is None
    assert d.expect == ("A.T @ B.T" if transpose_b else "A.T @ B"), d.expect


STORE = "vector.transfer_write %79, %subview_6"
TRANSPOSE = "%79 = vector.transpose %78, [0, 2, 1, 3] : vector<4x4x4x1xf32> to vector<4x4x4x1xf32>"
ACC = "%78"                       # the K-loop's results, gathered into one vector


def _epilogue(op_text: str) -> str:
    """The committed kernel with ``%e = op_text`` computed from the accumulators and
    stored in their place."""
    assert TRANSPOSE in PREFETCH
    return PREFETCH.replace(TRANSPOSE, f"%e = {op_text}\n            " +
                            TRANSPOSE.replace(ACC, "%e", 1).replace("%79 = vector.transpose "
                                                                    "%e", "%79 = vector."
                                                                    "transpose %e"))


ZERO = "%z = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>\n            "
#: index constants and a poison vector for the loops below
LOOP = ("%g0 = arith.constant 0 : index\n%g1 = arith.constant 1 : index\n"
        "%g4 = arith.constant 4 : index\n%p0 = ub.poison : vector<4x4x4x1xf32>\n")
#: the accumulators written to private memory %pa (%pb a second buffer, %pz its padding)
PRIVATE = LOOP + (
    "%pz = arith.constant 0.0 : f32\n"
    "%pa = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>\n"
    "%pb = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>\n"
    "vector.transfer_write %78, %pa[%g0, %g0, %g0, %g0] {in_bounds = [true, true, true, true]}"
    " : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>\n")
#: a loop moving the accumulators' slices into a carried vector (``{init}``: its initial
#: value, ``{value}``: what each iteration inserts; %x the accumulators' slice, %v carried)
GATHER = LOOP + (
    "%e = scf.for %i = %g0 to %g4 step %g1 iter_args(%v = {init}) -> (vector<4x4x4x1xf32>) {{\n"
    "  %x = vector.extract %78[%i] : vector<4x4x1xf32> from vector<4x4x4x1xf32>\n"
    "  %y = vector.extract %v[%i] : vector<4x4x1xf32> from vector<4x4x4x1xf32>\n"
    "  %w = vector.insert {value}, %v [%i] : vector<4x4x1xf32> into vector<4x4x4x1xf32>\n"
    "  scf.yield %w : vector<4x4x4x1xf32>\n}}")


@pytest.mark.parametrize("op_text,expect", [
    (ZERO + "%e = arith.maximumf %78, %z : vector<4x4x4x1xf32>", "relu(A @ B.T)"),
    (ZERO + "%e = arith.maxnumf %z, %78 : vector<4x4x4x1xf32>", "relu(A @ B.T)"),
    ("%e = arith.addf %78, %78 : vector<4x4x4x1xf32>", "A @ B.T + A @ B.T"),
    # a product of two epilogue values (each f32): C squared
    ("%e = arith.mulf %78, %78 : vector<4x4x4x1xf32>", "(A @ B.T) * (A @ B.T)"),
    # a scale (rounded to f32 as the kernel's multiply rounds it)
    ("%h = arith.constant dense<1.000000e-01> : vector<4x4x4x1xf32>\n"
     "%e = arith.mulf %h, %78 : vector<4x4x4x1xf32>", "A @ B.T * 0.10000000149011612"),
    ("%h = arith.constant dense<-2.500000e-01> : vector<4x4x4x1xf32>\n"
     "%e = arith.mulf %78, %h : vector<4x4x4x1xf32>", "-(A @ B.T * 0.25)"),
    # IREE's 8-wave epilogues: the tile through private memory, a slice at a time in a loop
    (PRIVATE + "scf.for %i = %g0 to %g4 step %g1 {\n"
     "  %s = vector.transfer_read %pa[%i, %g0, %g0, %g0], %pz {in_bounds = [true, true, true, "
     "true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>\n"
     "  vector.transfer_write %s, %pb[%i, %g0, %g0, %g0] {in_bounds = [true, true, true, true]}"
     " : vector<1x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>\n}\n"
     "%e = vector.transfer_read %pb[%g0, %g0, %g0, %g0], %pz {in_bounds = [true, true, true, "
     "true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<4x4x4x1xf32>",
     "A @ B.T"),
    # ... and in the late form gathered back into a vector one element per iteration
    (GATHER.format(init="%p0", value="%x"), "A @ B.T"),
])
def test_an_epilogue_is_read(op_text, expect):
    op_text = op_text.split("%e = ", 1)
    d = dispatch(_epilogue(op_text[1]).replace("%e = " + op_text[1], op_text[0] + "%e = " +
                                               op_text[1]))
    assert d.expect == expect and d.plain == (expect == "A @ B.T")


@pytest.mark.parametrize("op_text,message", [
    ("math.exp %78 : vector<4x4x4x1xf32>",
     "'math.exp' op at line 195:18: the epilogue (what the dispatch stores to its output "
     "after the K-loop) computes with 'math.exp', which the emulator's reference does not "
     "model"),
    ("arith.minimumf %78, %78 : vector<4x4x4x1xf32>", "the epilogue computes a min"),
    ("arith.truncf %78 : vector<4x4x4x1xf32> to vector<4x4x4x1xbf16>\n %e2 = arith.extf %e : "
     "vector<4x4x4x1xbf16> to vector<4x4x4x1xf32>", "truncates to bf16 and the output C is f32"),
])
def test_an_epilogue_it_cannot_model_is_refused_at_the_op(op_text, message):
    text = _epilogue(op_text)
    if "%e2" in op_text:
        text = text.replace("%79 = vector.transpose %e,", "%79 = vector.transpose %e2,")
    got = refusal(text)
    assert message in got, got


def test_a_loop_that_computes_across_iterations_is_refused():
    """A loop after the K-loop whose carried vector is not only moved (each iteration adds
    what it carries to itself): refused at the loop, not read as a move."""
    text = _epilogue("").replace("%e = \n", "")
    loop = re.sub(r"%w = vector\.insert .*\n", "%w = arith.addf %v, %v : vector<4x4x4x1xf32>\n",
                  GATHER.format(init="%78", value="%x"))
    got = refusal(text.replace(TRANSPOSE.replace(ACC, "%e", 1), loop + "\n            " +
                               TRANSPOSE.replace(ACC, "%e", 1), 1))
    assert "'scf.for' op at line" in got and "carries values of different kinds (acc, " \
           "add)" in got, got


def test_a_second_output_is_refused():
    assert STORE in PREFETCH and "%subview_12 = memref.subview %2[" in PREFETCH
    text = PREFETCH.replace(STORE, "%bz = arith.constant 0.0 : bf16\n            memref.store "
                            "%bz, %2[%c0, %c0] : memref<4096x4096xbf16, #amdgpu.address_space"
                            "<fat_raw_buffer>>\n            " + STORE, 1)
    got = refusal(text)
    assert "'vector.transfer_write' op at line 198:13 writes binding #2 while the kernel " \
           "writes binding #0 too: a matmul dispatch writes one output" in got, got


def test_an_epilogue_stored_by_a_scatter_is_read():
    """IREE stores a partial edge tile of C with a ``vector.scatter`` (its value the last
    operand): its epilogue is read through it, not taken for the plain product."""
    z = "%z = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>\n            "
    relu = z + "%e = arith.maximumf %78, %z : vector<4x4x4x1xf32>\n            "
    text = PREFETCH.replace(TRANSPOSE, relu + TRANSPOSE.replace(ACC, "%e", 1), 1)
    ref = STORE.split(", ")[1]
    scatter = (
        "%sv = vector.shape_cast %79 : vector<4x4x4x1xf32> to vector<64xf32>\n"
        "            %si = arith.constant dense<0> : vector<64xindex>\n"
        "            %sm = arith.constant dense<true> : vector<64xi1>\n"
        f"            vector.scatter {ref}[%c0, %c0, %c0, %c0] [%si], %sm, %sv : "
        "memref<4x4x4x1xf32, strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space"
        "<fat_raw_buffer>>, vector<64xindex>, vector<64xi1>, vector<64xf32>")
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(STORE))
    assert dispatch(text.replace(line.strip(), scatter, 1)).expect == "relu(A @ B.T)"


def test_an_output_no_known_op_writes_is_refused():
    """With a K-loop and no write the epilogue reader reads into the output, what C must
    hold is not guessed to be the plain product (it was: a scatter-stored relu was then
    reported wrong): refused at the function."""
    line = next(ln for ln in PREFETCH.splitlines() if ln.strip().startswith(STORE))
    got = refusal(PREFETCH.replace(line, "", 1))
    assert "nothing the epilogue reader reads (vector and memref stores, scatters, memref " \
           "copies) writes " \
           "the output binding" in got, got


def test_an_epilogue_copied_from_private_memory_is_read():
    """IREE writes the partial C tiles of small kernels (f16 ``A^T x B`` 1000x600x1030) by
    ``memref.copy`` from the private accumulators: a copy stores what its source holds,
    the last write into that private memory before it (here a relu)."""
    z = "%z = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>\n            "
    relu = z + "%e = arith.maximumf %78, %z : vector<4x4x4x1xf32>\n            "
    text = PREFETCH.replace(TRANSPOSE, relu + TRANSPOSE.replace(ACC, "%e", 1), 1)
    ref = STORE.split(", ")[1]
    private = "memref<4x4x4x1xf32, #gpu.address_space<private>>"
    copy = (f"%pc = memref.alloca() : {private}\n"
            f"            vector.transfer_write %79, %pc[%c0, %c0, %c0, %c0] {{in_bounds = "
            f"[true, true, true, true]}} : vector<4x4x4x1xf32>, {private}\n"
            f"            memref.copy %pc, {ref} : {private} to memref<4x4x4x1xf32, "
            "strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>")
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(STORE))
    assert dispatch(text.replace(line.strip(), copy, 1)).expect == "relu(A @ B.T)"


def test_a_copy_of_c_from_a_binding_is_refused_at_the_copy():
    """A ``memref.copy`` into the output reads what its source holds: from a binding, it is
    refused at the copy (the reader follows bindings through loads)."""
    ref = STORE.split(", ")[1]
    line = next(ln for ln in PREFETCH.splitlines() if ln.strip().startswith(STORE))
    copy = (f"memref.copy {ref}, {ref} : memref<4x4x4x1xf32, strided<[65536, 4096, 16, 1], "
            "offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<4x4x4x1xf32, "
            "strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>")
    got = refusal(PREFETCH.replace(line.strip(), copy, 1))
    assert "'memref.copy' op at line 196:13 copies from binding #2 into the output" in got, got


#: a square C written by copies of 4 x 4 tiles, a bias of C's side read at the tile's column
SQUARE_COPY = """
func.func @k(%bias: memref<8xf32>, %C: memref<8x8xf32>) {
  %bx = gpu.block_id x upper_bound 2
  %by = gpu.block_id y upper_bound 2
  %c4 = arith.constant 4 : index
  %r = arith.muli %by, %c4 : index
  %c = arith.muli %bx, %c4 : index
  %b = memref.load %bias[%c] : memref<8xf32>
  %p = memref.alloca() : memref<4x4xf32, #gpu.address_space<private>>
  %dst = memref.subview %C[%r, %c] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  memref.copy %p, %dst : memref<4x4xf32, #gpu.address_space<private>> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  return
}
"""


def test_a_bias_of_a_square_c_written_by_copies_follows_its_columns():
    """C square and the bias as long as its side: which index of C it follows is told by
    how the element read and the first element each copy writes move with the workgroup."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import Node, follows

    bias = SimpleNamespace(shape=(8,), name="bias")
    for index, want in (("%c", "column"), ("%r", "row")):
        with _context() as ctx:
            module = ir.Module.parse(SQUARE_COPY.replace("%bias[%c]", f"%bias[{index}]"), ctx)
            (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
            (read,) = walk_ops(f, lambda o: o.name == "memref.load")
            (copy,) = walk_ops(f, lambda o: o.name == "memref.copy")
            assert follows(f, Node("read", value=0, op=read), 0, bias, copy, (8, 8)) == want


#: a square C written by a scatter of 4-element rows at base 0, 0, each lane's flat offset
#: moving with the workgroup (IREE's late form of bf16 251x251x640 + bias + relu), a bias of
#: C's side read at the tile's column; a lane the mask drops has offset 0, which does not move
SQUARE_SCATTER = """
func.func @k(%bias: memref<8xf32>, %C: memref<8x8xf32>) {
  %bx = gpu.block_id x upper_bound 2
  %by = gpu.block_id y upper_bound 2
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.muli %by, %c4 : index
  %c = arith.muli %bx, %c4 : index
  %b = memref.load %bias[%c] : memref<8xf32>
  %rr = arith.muli %r, %c8 : index
  %o = arith.addi %rr, %c : index
  %ov = vector.broadcast %o : index to vector<4xindex>
  %st = vector.step : vector<4xindex>
  %kept = arith.addi %ov, %st : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %z = arith.constant dense<0> : vector<4xindex>
  %off = arith.select %m, %kept, %z : vector<4xi1>, vector<4xindex>
  %v = vector.broadcast %b : f32 to vector<4xf32>
  vector.scatter %C[%c0, %c0] [%off], %m, %v : memref<8x8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  return
}
"""


@pytest.mark.parametrize("index,mask,want", [
    ("%c", "true", "column"), ("%r", "true", "row"),
    # lane 0 masked off (its offset 0 stays put): the first lane the mask keeps (lane 1) is
    # the one moved
    ("%c", "[false, true, true, true]", "column"),
    ("%c", "false", "thread 0 of the workgroup writes no element of the output with it")])
def test_a_bias_of_a_square_c_written_by_a_scatter_follows_its_lanes(index, mask, want):
    """C square, written by a ``vector.scatter`` whose base does not move with the
    workgroup (its lanes' offsets do): which index of C the bias follows is told by the
    first element thread 0 writes, the base plus the offset of the first lane its mask
    keeps. Before, the base alone was moved (it stays at 0): refused as following
    neither. A mask that keeps no lane is refused at the scatter."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.frontend.epilogue import Node, follows

    bias = SimpleNamespace(shape=(8,), name="bias")
    text = SQUARE_SCATTER.replace("%bias[%c]", f"%bias[{index}]").replace(
        "dense<true>", f"dense<{mask}>")
    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        (read,) = walk_ops(f, lambda o: o.name == "memref.load")
        (scatter,) = walk_ops(f, lambda o: o.name == "vector.scatter")
        if mask == "false":
            with pytest.raises(IRError, match=want) as e:
                follows(f, Node("read", value=0, op=read), 0, bias, scatter, (8, 8))
            assert "'vector.scatter' op" in str(e.value), e.value
            return
        assert follows(f, Node("read", value=0, op=read), 0, bias, scatter, (8, 8)) == want


#: IREE's gather of a bias into private memory (its epilogue of an edge tile: f16
#: 1000x520x1024 + bias), then stored to the output; a K-loop before it
MAP_LOAD = """
func.func @k(%bias: memref<8xf32>, %C: memref<8x8xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = ub.poison : f32
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 2
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  iree_linalg_ext.map_load %bias into %p {
  ^bb0(%i: index):
    %r = affine.linearize_index disjoint [%t, %i] by (2, 4) : index
    %c7 = arith.constant 7 : index
    %s = arith.addi %r, %c0 : index
    iree_linalg_ext.yield %s, %pad : index, f32
  } : memref<8xf32> into memref<4xf32, #gpu.address_space<private>>
  %v = vector.transfer_read %p[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
  vector.transfer_write %v, %C[%t, %c0] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
  return
}
"""


#: MAP_LOAD with a grid of two workgroups along N: each gathers the bias's 4 elements of
#: its columns and writes them to those columns of C
MAP_LOAD_GRID = MAP_LOAD.replace(
    "  %t = gpu.thread_id x upper_bound 2\n",
    "  %t = gpu.thread_id x upper_bound 2\n  %bx = gpu.block_id x upper_bound 2\n"
    "  %c4 = arith.constant 4 : index\n  %col = arith.muli %bx, %c4 : index\n").replace(
    "[%t, %i] by (2, 4)", "[%bx, %i] by (2, 4)").replace("%C[%t, %c0]", "%C[%t, %col]")


@pytest.mark.parametrize("text,want", [
    (MAP_LOAD, "follows neither as the workgroup and its threads move"),
    (MAP_LOAD_GRID, "column")],
    ids=["one-workgroup", "grid"])
def test_a_bias_gathered_by_map_load_is_read(text, want):
    """What ``iree_linalg_ext.map_load`` puts into private memory is a read of the binding
    it gathers from (was: the private memory taken for one no write fills); which index of
    a square C it follows is told by the source element its region gathers into the first
    destination element as the workgroup moves (was: refused at the gather, "computed by
    the gather's region", which took IREE's bf16 251x251x640 + bias + relu at its
    prefetch point from --emulate); a kernel with no workgroup to move tells neither (nor
    do its threads: a gather's first element is thread 0's alone, ``bias_axis.py``), and
    is refused at the gather, located."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import Node, follows, trace_output

    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        (loop,) = walk_ops(f, lambda o: o.name == "scf.for")
        (gather,) = walk_ops(f, lambda o: o.name == "iree_linalg_ext.map_load")
        bias, C = f.regions[0].blocks[0].arguments
        tree, (writer,) = trace_output(f, loop, [bias, C], 1)
        assert tree == Node("read", value=0) and tree.op == gather
        bias_info = SimpleNamespace(shape=(8,), name="bias")
        if want == "column":
            assert follows(f, tree, 0, bias_info, writer, (8, 8)) == want
            return
        with pytest.raises(IRError) as e:
            follows(f, tree, 0, bias_info, writer, (8, 8))
        assert e.value.op == gather and want in str(e.value)


@pytest.mark.parametrize("index", ["arith.subi %c7, %r", "arith.muli %r, %r"])
def test_a_gather_not_in_order_is_refused(index):
    """A ``map_load`` whose region gathers the binding's elements other than in order (here
    reversed, or squared) is not a read of a strided view of the binding, so not
    the one read of the binding the tree says: refused at the gather, naming the element."""
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import trace_output

    text = MAP_LOAD.replace("arith.addi %r, %c0", index)
    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        (loop,) = walk_ops(f, lambda o: o.name == "scf.for")
        (gather,) = walk_ops(f, lambda o: o.name == "iree_linalg_ext.map_load")
        with pytest.raises(IRError) as e:
            trace_output(f, loop, list(f.regions[0].blocks[0].arguments), 1)
        assert e.value.op == gather and "as a read of a strided view" in str(e.value) and (\
            "destination index 0 moves" in str(e.value) or "gathers destination element [1] from source element 25 (thread 1)" in str(e.value))


#: IREE's late form of that gather: one ``scf.if`` per element, in bounds the element, else
#: the pad (2 threads of 4 elements of a 6-element bias; the outer loop reads them again)
GUARDED = """
func.func @k(%bias: memref<6xf32>, %C: memref<8x8xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %pad = ub.poison : f32
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 2
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  scf.for %h = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      %r = affine.linearize_index disjoint [%t, %i] by (2, 4) : index
      %s = arith.addi %r, %c0 : index
      %in = arith.cmpi slt, %s, %c6 : index
      %x = scf.if %in -> (f32) {
        %e = memref.load %bias[%s] : memref<6xf32>
        scf.yield %e : f32
      } else {
        scf.yield %pad : f32
      }
      memref.store %x, %p[%i] : memref<4xf32, #gpu.address_space<private>>
    }
  }
  %v = vector.transfer_read %p[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
  vector.transfer_write %v, %C[%t, %c0] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
  return
}
"""


def _trace_guarded(text: str):
    """(the tree of the output of a kernel of two bindings, binding 1: its kind, value and
    op's name; GUARDED's, test_select_read.py's), or (the IRError, its op's name)."""
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import trace_output

    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        loop = walk_ops(f, lambda o: o.name == "scf.for")[0]        # the K-loop, first
        try:
            tree, _ = trace_output(f, loop, list(f.regions[0].blocks[0].arguments), 1)
            return tree.kind, tree.value, tree.op.name
        except IRError as e:
            return e, e.op.name


def test_a_bias_gathered_by_guarded_loads_is_read():
    """The late form's ``scf.if`` per element (in bounds the bias element, else the pad),
    its guard true exactly in bounds at every thread and iteration, the element a strided
    view of the loops: a read of the binding (frontend/guarded_read.py)."""
    assert _trace_guarded(GUARDED) == ("read", 0, "memref.load")


def test_a_read_under_a_constant_false_is_its_pad():
    """An ``scf.if`` on a constant ``false`` (a mutated guard of C's or a bias's read) never
    runs its then-branch: its value is the else-branch's (the pad: poison, or a constant),
    whatever the then-branch holds; on a constant ``true`` it is still a guarded read,
    checked as one."""
    text = GUARDED.replace("%x = scf.if %in", "%x = scf.if %b").replace(
        "%pad = ub.poison : f32", "%pad = ub.poison : f32\n  %b = arith.constant false")
    assert _trace_guarded(text) == ("poison", None, "ub.poison")
    computed = text.replace("scf.yield %e : f32", "%s2 = arith.addf %e, %e : f32\n"
                            "        scf.yield %s2 : f32")
    assert _trace_guarded(computed) == ("poison", None, "ub.poison")
    zero = text.replace("scf.yield %pad : f32\n", "%z = arith.constant 0.0 : f32\n"
                        "        scf.yield %z : f32\n")
    assert _trace_guarded(zero) == ("const", 0.0, "arith.constant")
    err, op = _trace_guarded(computed.replace("arith.constant false", "arith.constant true"))
    assert op == "scf.if" and "its then-branch does not yield one load" in str(err), err


@pytest.mark.parametrize("old,new,message", [
    # a bound one past the bias: the guard lets thread 1 read element 6
    ("slt, %s, %c6", "slt, %s, %c7", "its guard is true where the load's index [6] is "
     "outside memref<6xf32> (thread 1, workgroup [0], loop iteration [0, 2])"),
    ("slt, %s, %c6", "sge, %s, %c6", "its guard is false where the load's index [0] is inside"),
    # the gather reversed (7 - r; guarded in bounds) and squared: not a strided view
    ("arith.addi %r, %c0", "arith.subi %c7, %r", "moves by -1..-1 as loop 1 (outermost 0) "
     "steps, not by one non-negative stride"),
    ("arith.addi %r, %c0", "arith.muli %r, %r", "moves by 1..9 as loop 1"),
    # one stride at the first step (i*i: 0, 1), off it after (4 at i = 2)
    ("arith.addi %r, %c0", "arith.muli %i, %i", "at loop iteration [0, 2] it reads element 4 "
     "(thread 0), not 2: the element is not a strided view of the loops' iterations"),
    ("scf.yield %pad : f32\n", "%q = arith.addf %pad, %pad : f32\n        scf.yield %q : f32\n",
     "its else-branch computes"),
    ("%e = memref.load %bias[%s] : memref<6xf32>", "%e = memref.load %p[%c0] : "
     "memref<4xf32, #gpu.address_space<private>>", "loads memory that is not a binding"),
    ("scf.yield %e : f32", "scf.yield %pad : f32", "its then-branch does not yield one load"),
    ("%x = scf.if %in -> (f32) {", "%x, %x2 = scf.if %in -> (f32, f32) {",
     "not one result and two branches"),
    ("scf.yield %pad : f32\n", "scf.yield %f : f32\n", "yields a value that is not a constant"),
    ("scf.for %h = %c0 to %c2", "scf.for %h = %c0 to %t", "without constant bounds and step"),
    ("memref<6xf32>", "memref<?xf32>", "a guarded read of a memref of dynamic shape"),
    ("arith.cmpi slt, %s, %c6 : index", "arith.cmpf olt, %pad, %pad : f32",
     "its guard or index could not be evaluated"),
])
def test_a_guarded_read_that_is_not_the_gather_is_refused(old, new, message):
    """Each mutation of the guard, the index or the branches: refused at the ``scf.if``
    (or the load), saying what differs and where."""
    assert old in GUARDED
    text = GUARDED.replace(old, new, 1 if old != "memref<6xf32>" else -1)
    if "%x2" in new:
        text = text.replace("scf.yield %e : f32", "scf.yield %e, %e : f32, f32").replace(
            "scf.yield %pad : f32", "scf.yield %pad, %pad : f32, f32")
    err, op = _trace_guarded(text.replace("%p = memref.alloca()", "%f = arith.addf %pad, "
                                          "%pad : f32\n  %p = memref.alloca()"))
    assert isinstance(err, IRError) and op in ("scf.if", "memref.load", "scf.for"), err
    assert message in str(err), str(err)


def test_a_guarded_read_is_checked_in_every_workgroup(monkeypatch):
    """The guard and the strides are evaluated at every workgroup of the grid, a chunk of
    workgroups at a time: a gather whose stride changes with the workgroup is refused
    across chunks too; a grid past the limit is refused, saying so."""
    from pipeline_mlir.frontend import guarded_read

    text = GUARDED.replace("%t = gpu.thread_id x upper_bound 2", "%t = gpu.thread_id x "
                           "upper_bound 2\n  %w = gpu.block_id x upper_bound 2\n  %w1 = "
                           "arith.addi %w, %c1 : index").replace("arith.addi %r, %c0",
                                                                  "arith.muli %r, %w1")
    monkeypatch.setattr(guarded_read, "CHUNK", 1)
    err, op = _trace_guarded(text)
    assert op == "scf.if" and "moves by 2..2 as loop 1 (outermost 0) steps" in str(err), err
    monkeypatch.setattr(guarded_read, "MAX_POINTS", 4)
    err, op = _trace_guarded(GUARDED)
    assert op == "scf.if" and "there are 8 of them, not 1 to 4" in str(err), err


#: what TIED and TIED_MAP_LOAD share before their gather: a grid of 4 workgroups of 2
#: threads, workgroup w's tile of C its columns 4w..4w+3 (``%w4``), ``%off`` the gather's
#: offset from them, ``%p`` a thread's 4 gathered elements
_TIED_START = """
func.func @k(%bias: memref<16xf32>, %C: memref<2x16xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = ub.poison : f32
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 2
  %w = gpu.block_id x upper_bound 4
  %w4 = arith.muli %w, %c4 : index
  %off = arith.constant 0 : index
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
"""
#: ... and after it: thread t writes its 4 elements to row t of its workgroup's tile of C
_TIED_END = """  %v = vector.transfer_read %p[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
  vector.transfer_write %v, %C[%t, %w4] {in_bounds = [true]} : vector<4xf32>, memref<2x16xf32>
  return
}
"""
#: the gather one column off in workgroup 2 only (``%off``: 1 there)
_OFF_IN_2 = ("%off = arith.constant 0 : index",
             "%is2 = arith.cmpi eq, %w, %c2 : index\n  %off = arith.select %is2, %c1, %c0 : index")
#: the gather that stays put as C's tile moves
_STAYS = ("%r = arith.addi %w4, %i", "%r = arith.addi %c0, %i")

#: GUARDED's gather over a grid of 4 workgroups: workgroup w writes columns 4w..4w+3 of C's
#: 2 rows (thread t row t) with the bias elements of those columns
TIED = _TIED_START + """  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.addi %w4, %i : index
    %s = arith.addi %r, %off : index
    %in = arith.cmpi slt, %s, %c16 : index
    %x = scf.if %in -> (f32) {
      %e = memref.load %bias[%s] : memref<16xf32>
      scf.yield %e : f32
    } else {
      scf.yield %pad : f32
    }
    memref.store %x, %p[%i] : memref<4xf32, #gpu.address_space<private>>
  }
""" + _TIED_END


def _tied(text: str):
    """Which of C's indices TIED's bias (or that of another kernel of a 16-element input and
    a 2x16 C: test_select_read.py's) follows, or the IRError."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import follows, trace_output

    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        loop = walk_ops(f, lambda o: o.name == "scf.for")[0]
        tree, writers = trace_output(f, loop, list(f.regions[0].blocks[0].arguments), 1)
        try:
            return follows(f, tree, 0, SimpleNamespace(shape=(16,), name="bias"), writers[0],
                           (2, 16))
        except IRError as e:
            return e


def test_a_guarded_gather_is_tied_to_c_over_the_grid():
    """Each workgroup's gather is the first one's moved with its tile of C, proven over the
    grid: a gather one column off in workgroup 2 only (in bounds, strided as everywhere, so
    the guard and stride checks pass and the first and last workgroups are exact) is
    refused at the ``scf.if``, naming it; so is a gather that stays put as C's tile moves."""
    assert _tied(TIED) == "column"
    err = _tied(TIED.replace(*_OFF_IN_2))
    assert isinstance(err, IRError) and err.op.name == "scf.if", err
    assert "in workgroup [2] thread 0 (loop iteration [0]) it reads element 9, 9 from the " \
        "grid's first workgroup's, where the column of the tile of C it writes moved by 8" \
        in str(err), str(err)
    err = _tied(TIED.replace(*_STAYS))
    assert isinstance(err, IRError) and "in workgroup [1] thread 0" in str(err), err


#: TIED's gather as the prefetch point has it: one ``map_load`` of each thread's 4 columns
TIED_MAP_LOAD = _TIED_START + """  iree_linalg_ext.map_load %bias into %p {
  ^bb0(%i: index):
    %r = arith.addi %w4, %i : index
    %s = arith.addi %r, %off : index
    iree_linalg_ext.yield %s, %pad : index, f32
  } : memref<16xf32> into memref<4xf32, #gpu.address_space<private>>
""" + _TIED_END


def test_a_gathered_bias_is_tied_to_c_over_the_grid():
    """The prefetch point's ``map_load`` is proven a strided view at the grid's first
    workgroup (``gather_order.check_in_order``) and tied to C's tiles over the grid as the late form's
    guarded read is: one column off in workgroup 2 only (in order there, so the first and
    last workgroups, which ``--emulate`` runs, are exact) is refused at the ``map_load``;
    so is a gather that stays put as C's tile moves."""
    assert _tied(TIED_MAP_LOAD) == "column"
    err = _tied(TIED_MAP_LOAD.replace(*_OFF_IN_2))
    assert isinstance(err, IRError) and err.op.name == "iree_linalg_ext.map_load", err
    assert "in workgroup [2] thread 0 (loop iteration and destination element [0]) it reads " \
        "element 9, 9 from " \
        "the grid's first workgroup's, where the column of the tile of C it writes moved " \
        "by 8" in str(err), str(err)
    err = _tied(TIED_MAP_LOAD.replace(*_STAYS))
    assert isinstance(err, IRError) and "in workgroup [1] thread 0" in str(err), err


def test_a_gather_is_tied_at_every_iteration_of_its_loops():
    """IREE's gather sits in a loop (2 iterations); ``gather_order.check_in_order`` evaluates it at the
    first, so the tie to C runs every iteration: one column off in workgroup 2's second
    iteration only is refused at the ``map_load``, naming the iteration."""
    looped = TIED_MAP_LOAD.replace(
        "  iree_linalg_ext.map_load", "  scf.for %j = %c0 to %c2 step %c1 {\n"
        "  iree_linalg_ext.map_load").replace(
        "  } : memref<16xf32> into memref<4xf32, #gpu.address_space<private>>\n",
        "  } : memref<16xf32> into memref<4xf32, #gpu.address_space<private>>\n  }\n")
    assert _tied(looped) == "column"
    err = _tied(looped.replace(
        "%s = arith.addi %r, %off : index",
        "%is2 = arith.cmpi eq, %w, %c2 : index\n    %it1 = arith.cmpi eq, %j, %c1 : index\n"
        "    %b = arith.andi %is2, %it1 : i1\n    %o2 = arith.select %b, %c1, %c0 : index\n"
        "    %s = arith.addi %r, %o2 : index"))
    assert isinstance(err, IRError) and err.op.name == "iree_linalg_ext.map_load", err
    assert "in workgroup [2] thread 0 (loop iteration and destination element [1, 0]) it " \
        "reads element 9, 9 from the grid's first workgroup's" in str(err), str(err)


#: the committed kernel's epilogue reading C (``C + A @ B.T``): its first slice and the rest
#: by two reads of C's tile, the slice inserted into the rest (the tree keeps the slice's
#: read: its nodes compare without their op); ``%cw`` offsets the second read's column
C_TILE = "memref<4x4x4x1xf32, strided<[65536, 4096, 16, 1], offset: ?>, " \
    "#amdgpu.address_space<fat_raw_buffer>>"
C_READS = (
    "%cz = arith.constant 0.0 : f32\n"
    "%cs0 = vector.transfer_read %subview_6[%c0, %c0, %c0, %c0], %cz {{in_bounds = [true, true, "
    "true, true]}} : {tile}, vector<1x4x4x1xf32>\n"
    "%cs = vector.transpose %cs0, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>\n"
    "%cd0 = vector.transfer_read %subview_6[%c0, %c0, %cw, %c0], %cz {{in_bounds = [true, true, "
    "true, true]}} : {tile}, vector<4x4x4x1xf32>\n"
    "%cd = vector.transpose %cd0, [0, 2, 1, 3] : vector<4x4x4x1xf32> to vector<4x4x4x1xf32>\n"
    "%cr = vector.insert_strided_slice %cs, %cd offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] "
    ": vector<1x4x4x1xf32> into vector<4x4x4x1xf32>\n").format(tile=C_TILE)


def test_every_read_of_c_is_tied_to_its_tile_element_by_element():
    """A read of C one column off in workgroup [0, 5] only (the workgroups ``--emulate``
    runs exact) was reported exact; it is refused at the read, naming the workgroup.  It is
    not the read the tree keeps (the slice's), so every read of C is tied, not the tree's."""
    shifted = ("%c5w = arith.constant 5 : index\n%c1w = arith.constant 1 : index\n"
               "%isw = arith.cmpi eq, %arg0, %c5w : index\n"
               "%cw = arith.select %isw, %c1w, %c0 : index\n")
    text = _epilogue("arith.addf %cr, %78 : vector<4x4x4x1xf32>").replace(
        "%e = arith.addf", shifted + C_READS + "%e = arith.addf")
    got = refusal(text)
    assert "'vector.transfer_read' op at line 202:8: in workgroup [0, 5] thread 0 (loop " \
        "iteration []) it reads element 2621456, 2621456 from the grid's first workgroup's, " \
        "where the element of the tile of C it writes moved by 2621440" in got, got


#: the accumulators written to private memory a slice at a time, the first slice zeroed in
#: workgroup [0, 5] only, and read back whole
ROWS = LOOP + (
    "%pz = arith.constant 0.0 : f32\n%c5w = arith.constant 5 : index\n"
    "%z1 = arith.constant dense<0.0> : vector<1x4x4x1xf32>\n"
    "%pa = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>\n"
    "%s0 = vector.extract_strided_slice %78 offsets = [0, 0, 0, 0], sizes = [1, 4, 4, 1], "
    "strides = [1, 1, 1, 1] : vector<4x4x4x1xf32> to vector<1x4x4x1xf32>\n"
    "%isw = arith.cmpi eq, %arg0, %c5w : index\n"
    "%s0b = arith.select %isw, %z1, %s0 : vector<1x4x4x1xf32>\n"
    "vector.transfer_write %s0b, %pa[%g0, %g0, %g0, %g0] {in_bounds = [true, true, true, true]}"
    " : vector<1x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>\n"
    "%s1 = vector.extract_strided_slice %78 offsets = [1, 0, 0, 0], sizes = [3, 4, 4, 1], "
    "strides = [1, 1, 1, 1] : vector<4x4x4x1xf32> to vector<3x4x4x1xf32>\n"
    "vector.transfer_write %s1, %pa[%g1, %g0, %g0, %g0] {in_bounds = [true, true, true, true]}"
    " : vector<3x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>\n")


def test_every_write_of_private_memory_before_its_read_is_read():
    """What a read of private memory gets is what every write before it stores, not the
    last one's: the accumulators' first slice zeroed in workgroup [0, 5] only (the
    workgroups ``--emulate`` runs exact), the others written after it, was read as
    ``A @ B.T``; it is refused at the select (no masked read of a binding).  Unmutated,
    the two slices' writes store one value: ``A @ B.T``."""
    text = _epilogue("vector.transfer_read %pa[%g0, %g0, %g0, %g0], %pz {in_bounds = [true, "
                     "true, true, true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, "
                     "vector<4x4x4x1xf32>")
    text = text.replace("%e = vector.transfer_read", ROWS + "%e = vector.transfer_read")
    plain = text.replace("%s0b = arith.select %isw, %z1, %s0 : vector<1x4x4x1xf32>\n", "")
    assert dispatch(plain.replace("%s0b", "%s0")).expect == "A @ B.T"
    got = refusal(text)
    assert "'arith.select' op at line 205:8: its true operand is not a load" in got, got


#: C written from the K-loop's accumulator, read back and written again (IREE's one-wave
#: 16x16x160 kernel, late form); SECOND: what the second write stores
SELF_COPY = """
func.func @k(%A: memref<16xf32>, %C: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (f32) {
    %x = memref.load %A[%k] : memref<16xf32>
    %s = arith.addf %a, %x : f32
    scf.yield %s : f32
  }
  %t = gpu.thread_id x upper_bound 16
  memref.store %acc, %C[%t] : memref<16xf32>
  %back = memref.load %C[%t] : memref<16xf32>
  SECOND
  memref.store %v, %C[%t] : memref<16xf32>
  return
}
"""


@pytest.mark.parametrize("second,refused", [
    ("memref.store %back, %C[%t] : memref<16xf32>", False),
    ("%v = arith.maximumf %back, %zero : f32\n  memref.store %v, %C[%t] : memref<16xf32>", True),
], ids=["copy", "computed"])
def test_a_write_of_c_read_back_is_left_out_of_the_tree(second, refused):
    """A write of C that stores a read of C itself is left out of the tree beside the
    accumulator's write (the emulator checks C against that tree wherever the copy puts
    it: IREE's bf16 16x16x160 exact from both forms, and with the read-back moved a row on,
    WRONG, exit 1); one that stores anything computed from that read is another value,
    refused at the write as before."""
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.epilogue import trace_output

    text = SELF_COPY.replace("SECOND\n  memref.store %v, %C[%t] : memref<16xf32>", second)
    with _context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        (loop,) = walk_ops(f, lambda o: o.name == "scf.for")
        A, C = f.regions[0].blocks[0].arguments
        if refused:
            with pytest.raises(IRError, match="stores another value to the output"):
                trace_output(f, loop, [A, C], 1)
            return
        tree, writers = trace_output(f, loop, [A, C], 1)
        assert len(writers) == 2 and tree.kind != "read", tree


#: a fourth binding D of C's shape whose tile, at C's tile's offsets, starts the K-loop's
#: accumulators (``C = D + A x B^T``: IREE's ``C += A x B`` with a bias or a relu fused,
#: whose result goes to another binding than the C it reads); ``{shift}`` offsets D's row
#: in the workgroups ``%dw`` selects
D_BINDING = (
    "%d5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) "
    "offset(%c0) flags(\"ReadOnly|Indirect\") : memref<4096x4096xf32, "
    "#hal.descriptor_type<storage_buffer>>\n"
    "          %d6 = amdgpu.fat_raw_buffer_cast %d5 resetOffset : memref<4096x4096xf32, "
    "#hal.descriptor_type<storage_buffer>> to memref<4096x4096xf32, "
    "#amdgpu.address_space<fat_raw_buffer>>\n"
    "          %dexp = memref.expand_shape %d6 [[0, 1], [2, 3]] output_shape [256, 16, 256, 16]"
    " : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>> into "
    "memref<256x16x256x16xf32, #amdgpu.address_space<fat_raw_buffer>>\n")
D_INIT = (
    "%dsub = memref.subview %dexp[%8, 0, %7, 0] [8, 16, 8, 16] [1, 1, 1, 1] : "
    "memref<256x16x256x16xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<8x16x8x16xf32,"
    " strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>\n"
    "            %dz = arith.constant 0.0 : f32\n{shift}"
    "            %d0 = vector.transfer_read %dsub[%19, %dr, %18, %12], %dz {{in_bounds = [true, "
    "true, true, true]}} : memref<8x16x8x16xf32, strided<[65536, 4096, 16, 1], offset: ?>, "
    "#amdgpu.address_space<fat_raw_buffer>>, vector<1x1x4x1xf32>\n"
    "            %dinit = vector.shape_cast %d0 : vector<1x1x4x1xf32> to vector<4xf32>\n"
    "            %46:16 = scf.for")


def _accumulated_from_d(shift: str = "") -> str:
    """The committed kernel with its K-loop's accumulators started from D (``D_INIT``)."""
    text = PREFETCH.replace("#hal.pipeline.binding<storage_buffer, Indirect>]",
                            "#hal.pipeline.binding<storage_buffer, Indirect>, "
                            "#hal.pipeline.binding<storage_buffer, \"ReadOnly|Indirect\">]")
    text = text.replace("%expand_shape = memref.expand_shape %6",
                        D_BINDING + "          %expand_shape = memref.expand_shape %6", 1)
    shift = shift or "            %dr = arith.addi %13, %c0 : index\n"
    text = text.replace("%46:16 = scf.for", D_INIT.format(shift=shift), 1)
    head, loop, rest = text.partition("%46:16 = scf.for")
    rest, brace, tail = rest.partition("{\n")
    return head + loop + rest.replace("= %cst_0", "= %dinit") + brace + tail


def test_an_accumulator_started_from_another_binding_is_read():
    """IREE's ``C += A x B`` with a bias and a relu fused reads the C it accumulates into
    from one binding and writes the result to another: the K-loop starts from a read of
    that binding, which was refused (``... starts from a value that is neither zero nor C``);
    it is an input added to the product, tied to C's tile element by element as any input
    of C's shape (the ninth audit: such kernels exact on the emulator from both forms)."""
    assert dispatch(_accumulated_from_d()).expect == "X3 + A @ B.T"


def test_an_accumulator_read_off_its_element_is_refused():
    """D's read one row off in workgroup [0, 5] only (not among the workgroups a sampled
    run takes): refused at the read, as a read of C would be."""
    shifted = ("            %d5w = arith.constant 5 : index\n"
               "            %isd = arith.cmpi eq, %arg0, %d5w : index\n"
               "            %dr = arith.select %isd, %c1, %13 : index\n")
    got = refusal(_accumulated_from_d(shifted))
    assert "'vector.transfer_read' op at line" in got and "in workgroup [0, 5]" in got, got
