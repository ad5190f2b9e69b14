"""MFMAs halved along K (``pipeline_mlir/frontend/half_k.py``), on hand-written loops.

IREE's kernels it takes (f16 32x512x96, bf16 ``A^T x B`` 64x64x96) are in
``test/lit/passes/sched-adopt-loop-skinny-k.mlir``, one of them emulated there.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.half_k import cut_pieces, halve_mfmas
from pipeline_mlir.frontend.marks import HALVED_ATTR
from pipeline_mlir.frontend.partition import _mfma_kind

LDS = "memref<1024xf16, #gpu.address_space<workgroup>>"

#: one K step of a wave: fragment %fa read once and multiplied with %fb; {make_b} builds
#: %fb (an 8-element read by default)
LOOP = """
func.func @f(%i: index, %j: index) -> vector<4xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %a = memref.alloc() : {lds}
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {{
    %fa = vector.load %a[%i] : {lds}, vector<8xf16>
{make_b}
    %d = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<8xf16>, vector<8xf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }}
  return %r : vector<4xf32>
}}
"""
READ_B = f"    %fb = vector.load %a[%j] : {LDS}, vector<8xf16>"
#: B joined from two 4-element reads (IREE's transposing reads of a K x N tile)
JOINED_B = (f"    %b0 = vector.load %a[%j] : {LDS}, vector<4xf16>\n"
            f"    %b1 = vector.load %a[%i] : {LDS}, vector<4xf16>\n"
            "    %fb = vector.shuffle %b0, %b1 [{mask}] : vector<4xf16>, vector<4xf16>")


def _halved(make_b: str, edit=lambda t: t, whole: str = ""):
    """(why or None, the function's text after :func:`halve_mfmas`)."""
    text = edit(LOOP.format(lds=LDS, make_b=make_b))
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        body = [o.operation for o in loop.regions[0].blocks[0].operations]
        scan = SimpleNamespace(
            loop=loop, mfmas=[o for o in body if o.name == "amdgpu.mfma"],
            reads=[SimpleNamespace(op=o) for o in body if o.name == "vector.load"])
        why = halve_mfmas(scan, whole)
        assert m.operation.verify()
        return why, str(m)


def test_a_read_fragment_is_read_in_halves():
    """Each 8-element read becomes two of 4 (the second 4 elements on), each MFMA two
    16x16x16 chained through the accumulator, low halves first; the loop is marked."""
    why, out = _halved(READ_B)
    assert why is None, why
    assert "vector<8xf16>" not in out and "16x16x32" not in out, out
    halves = re.findall(r"vector\.load %\w+\[(%\w+)\] : .*, vector<4xf16>", out)
    assert len(halves) == 4, out                      # A's and B's, two each
    assert len(re.findall(r"arith\.addi %\w+, %c4\w* : index", out)) == 2, out
    mfmas = re.findall(r"(%\w+) = amdgpu\.mfma 16x16x16 (%\w+) \* (%\w+) \+ (%\w+)", out)
    assert len(mfmas) == 2 and mfmas[1][3] == mfmas[0][0], mfmas
    assert mfmas[0][3] == "%arg3" or mfmas[0][3].startswith("%arg"), mfmas
    assert HALVED_ATTR in out


@pytest.mark.parametrize("whole", ["a", "b"])
def test_the_operand_read_whole_gives_its_halves_as_slices(whole):
    """The operand the K split leaves whole (its two halves go to one fragment load, where
    LLVM would merge two adjacent 8-byte reads into one its counts do not know) keeps its
    8-element read, each half MFMA taking a 4-element slice of it, low half first; the
    other operand is read in halves."""
    why, out = _halved(READ_B, whole=whole)
    assert why is None, why
    kept = "%arg0" if whole == "a" else "%arg1"          # (%i, %j printed)
    assert re.findall(r"vector\.load %\w+\[(%\w+)\] : .*, vector<8xf16>", out) == [kept], out
    # the other's two reads
    assert len(re.findall(r"vector\.load .*, vector<4xf16>\n", out)) == 2, out
    slices = re.findall(r"vector\.extract_strided_slice %\w+ offsets = \[(\d)\], "
                        r"sizes = \[4\], strides = \[1\]", out)
    assert slices == ["0", "4"], out
    mfmas = re.findall(r"(%\w+) = amdgpu\.mfma 16x16x16 (%\w+) \* (%\w+) \+ (%\w+)", out)
    assert len(mfmas) == 2 and mfmas[1][3] == mfmas[0][0], mfmas


def test_pieces_of_a_joined_fragment_are_its_halves():
    """A fragment joined from two 4-element reads (``vector.shuffle`` concatenating them)
    gives each half MFMA one of them as it is: no new read of B."""
    why, out = _halved(JOINED_B.format(mask="0, 1, 2, 3, 4, 5, 6, 7"))
    assert why is None, why
    assert len(re.findall(r"vector\.load .*vector<4xf16>", out)) == 4, out   # A's 2, B's 2
    assert "vector.shuffle" not in out
    # the halves swapped in the mask: the high MFMA takes the first read
    why, out = _halved(JOINED_B.format(mask="4, 5, 6, 7, 0, 1, 2, 3"))
    assert why is None, why


@pytest.mark.parametrize("make_b,edit,reason", [
    (READ_B, lambda t: t.replace("16x16x32 %fa * %fb", "16x16x32 %fa * %fn").replace(
        "    %d =", "    %fn = arith.negf %fb : vector<8xf16>\n    %d ="),
     "an operand of 'amdgpu.mfma' op at line 12:10 is not made of fragment reads or pieces "
     "the front end can take half of"),
    (JOINED_B.format(mask="0, 1, 2, 4, 3, 5, 6, 7"), lambda t: t,
     "is not made of fragment reads or pieces"),
    (READ_B, lambda t: t.replace("vector<8xf16>", "vector<32xf8E4M3FN>").replace(
        "16x16x32", "32x32x64").replace("vector<4xf32>", "vector<16xf32>").replace(
        "1024xf16", "1024xf8E4M3FN"),
     "is a 32x32x64 MFMA of f8E4M3FN, which the front end does not cut along K"),
    # an fp8 MFMA after the f16 one on its accumulator: quarters and halves in one loop
    (READ_B, lambda t: t.replace("    scf.yield %d :", (
        "    %g = vector.load %q[%i] : memref<1024xf8E4M3FN, #gpu.address_space<workgroup>>, "
        "vector<32xf8E4M3FN>\n"
        "    %d2 = amdgpu.mfma 16x16x128 %g * %g + %d : vector<32xf8E4M3FN>, "
        "vector<32xf8E4M3FN>, vector<4xf32>\n"
        "    scf.yield %d2 :")).replace(
        "  %r = scf.for", "  %q = memref.alloc() : memref<1024xf8E4M3FN, "
        "#gpu.address_space<workgroup>>\n  %r = scf.for"),
     "'amdgpu.mfma' op at line 14:11 would be cut into 4 along K and 'amdgpu.mfma' op at line "
     "12:10 into 2; the front end cuts a loop's MFMAs into one number of pieces"),
    # a shuffle of 2-D vectors picks whole rows: its mask is no element's
    (f"    %b0 = vector.load %a[%j] : {LDS}, vector<8xf16>\n"
     "    %r0 = vector.shape_cast %b0 : vector<8xf16> to vector<2x4xf16>\n"
     "    %r1 = vector.shuffle %r0, %r0 [0, 1] : vector<2x4xf16>, vector<2x4xf16>\n"
     "    %fb = vector.shape_cast %r1 : vector<2x4xf16> to vector<8xf16>", lambda t: t,
     "is not made of fragment reads or pieces"),
    # a poison entry (-1) is no element of either source
    (JOINED_B.format(mask="-1, 0, 1, 2, 4, 5, 6, 7"), lambda t: t,
     "is not made of fragment reads or pieces"),
], ids=["computed", "mixed-shuffle", "fp8-32x32x64", "halves-and-quarters", "rank-2-shuffle",
        "poison"])
def test_what_does_not_halve_is_refused_unchanged(make_b, edit, reason):
    """An operand computed from its read, a shuffle that mixes the halves, an MFMA with no
    half form, MFMAs cut into different numbers of pieces: why, and the loop as it was."""
    why, out = _halved(make_b, edit)
    assert why is not None and reason in why, why
    assert "16x16x16" not in out and HALVED_ATTR not in out


def test_a_kernels_own_gfx942_mfmas_are_taken():
    """A kernel's own 16-bit 16x16x16 MFMAs, and i8's gfx942 16x16x32, are taken as the
    loop's MFMA, halved or not: IREE picks gfx950's ``v_mfma_f32_16x16x16_f16`` itself for
    tiny problems (f16 ``A^T x B^T`` 24x5x112: one 16x16x16 per K step of 16) and
    ``v_mfma_i32_32x32x16_i8`` for tiny i8 ones (i8 ``A x B^T`` 59x28x496); before, a loop
    not marked halved was refused at the MFMA (``... which the schedules issue only for a
    loop whose MFMAs the front end halved along K``, ``... do not issue for i8``)."""
    _, halved = _halved(READ_B)
    unmarked = re.sub(rf"\{{{HALVED_ATTR} = 2 : i64\}}", "", halved)
    i8 = unmarked.replace("vector<4xf16>", "vector<8xi8>").replace(
        "vector<4xf32>", "vector<4xi32>").replace("dense<0.000000e+00>", "dense<0>").replace(
        "16x16x16", "16x16x32").replace("1024xf16", "1024xi8")
    with new_context() as ctx, ir.Location.unknown(ctx):
        for text, want in ((unmarked, ("f16", (16, 16, 16))), (i8, ("i8", (16, 16, 32)))):
            m = ir.Module.parse(text, ctx)
            loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
            assert HALVED_ATTR not in loop.attributes
            mfmas = walk_ops(loop, lambda o: o.name == "amdgpu.mfma")
            assert _mfma_kind(SimpleNamespace(loop=loop, mfmas=mfmas)) == want


def _fp8(text: str) -> str:
    """``text`` (:data:`LOOP`) on fp8 fragments of 32 elements and a 16x16x128 MFMA."""
    return text.replace("vector<8xf16>", "vector<32xf8E4M3FN>").replace(
        "16x16x32", "16x16x128").replace("1024xf16", "1024xf8E4M3FN")


def test_an_fp8_mfma_is_cut_into_four_of_gfx942s_16x16x32():
    """The 8-bit floats' 16x16x128 has no MFMA of half its K: each becomes 4 of 16x16x32
    chained through the accumulator, each on 8 consecutive elements of the lane's 32 (its
    reads cut in 4, the n-th at the innermost index + 8 n); the loop's mark says 4."""
    why, out = _halved(READ_B, _fp8)
    assert why is None, why
    assert "vector<32xf8E4M3FN>" not in out and "16x16x128" not in out, out
    assert len(re.findall(r"vector\.load %\w+\[%\w+\] : .*, vector<8xf8E4M3FN>", out)) == 8
    assert sorted(re.findall(r"arith\.addi %\w+, %c(\d+)\w* : index", out)) == \
        ["16", "16", "24", "24", "8", "8"], out
    mfmas = re.findall(r"(%\w+) = amdgpu\.mfma 16x16x32 (%\w+) \* (%\w+) \+ (%\w+)", out)
    assert len(mfmas) == 4 and all(mfmas[i][3] == mfmas[i - 1][0] for i in (1, 2, 3)), mfmas
    assert f"{HALVED_ATTR} = 4 : i64" in out


@pytest.mark.parametrize("deep, half, acc", [("16x16x64", "16x16x32", "vector<4xi32>"),
                                             ("32x32x32", "32x32x16", "vector<16xi32>")])
def test_an_i8_mfma_is_halved_into_gfx942s(deep, half, acc):
    """gfx950's i8 16x16x64 (32x32x32) has gfx942's 16x16x32 (32x32x16) for half its K,
    whose lane holds 8 consecutive K elements where the deep form's holds 16, alike on A
    and B: two of them, each on 8 elements of the lane's 16 (the reads halved, the second
    at the innermost index + 8), low half first; the loop's mark says 2."""
    i8 = lambda t: t.replace("vector<8xf16>", "vector<16xi8>").replace(  # noqa: E731
        "16x16x32", deep).replace("vector<4xf32>", acc).replace(
        "dense<0.0>", "dense<0>").replace("1024xf16", "1024xi8")
    why, out = _halved(READ_B, i8)
    assert why is None, why
    assert "vector<16xi8>" not in out and deep not in out, out
    assert len(re.findall(r"vector\.load %\w+\[%\w+\] : .*, vector<8xi8>", out)) == 4, out
    assert re.findall(r"arith\.addi %\w+, %c(\d+)\w* : index", out) == ["8", "8"], out
    mfmas = re.findall(rf"(%\w+) = amdgpu\.mfma {half} (%\w+) \* (%\w+) \+ (%\w+)", out)
    assert len(mfmas) == 2 and mfmas[1][3] == mfmas[0][0], mfmas
    assert f"{HALVED_ATTR} = 2 : i64" in out


def test_an_fp8_mfma_of_two_formats_is_refused():
    """An E4M3FN A by an E5M2 B (IREE's mixed 16x16x128): not cut, the loop unchanged."""
    mixed = lambda t: _fp8(t).replace(  # noqa: E731
        "%fb = vector.load %a[%j] : memref<1024xf8E4M3FN, #gpu.address_space<workgroup>>, "
        "vector<32xf8E4M3FN>",
        "%b5 = memref.alloc() : memref<1024xf8E5M2, #gpu.address_space<workgroup>>\n"
        "    %fb = vector.load %b5[%j] : memref<1024xf8E5M2, #gpu.address_space<workgroup>>, "
        "vector<32xf8E5M2>").replace(
        "%fa * %fb + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>",
        "%fa * %fb + %acc : vector<32xf8E4M3FN>, vector<32xf8E5M2>")
    why, out = _halved(READ_B, mixed)
    assert why is not None and "multiplies f8E4M3FN by f8E5M2; the front end cuts MFMAs " \
        "whose operands are of one element type only" in why, why
    assert "16x16x32" not in out and HALVED_ATTR not in out


def test_an_fp8_fragment_mixing_its_quarters_is_refused():
    """A joined fp8 fragment whose mask swaps elements 7 and 8 (the first quarter would take
    one of the second's): no piece of 8 consecutive elements, refused unchanged; joined in
    order, it is cut."""
    joined = ("    %b0 = vector.load %a[%j] : memref<1024xf8E4M3FN, #gpu.address_space<workgroup>>,"
              " vector<16xf8E4M3FN>\n"
              "    %b1 = vector.load %a[%i] : memref<1024xf8E4M3FN, #gpu.address_space<workgroup>>,"
              " vector<16xf8E4M3FN>\n"
              "    %fb = vector.shuffle %b0, %b1 [{mask}] : vector<16xf8E4M3FN>, "
              "vector<16xf8E4M3FN>")
    whole = list(range(32))
    why, out = _halved(joined.format(mask=", ".join(map(str, whole))), _fp8)
    assert why is None, why
    mixed = whole[:7] + [8, 7] + whole[9:]
    why, out = _halved(joined.format(mask=", ".join(map(str, mixed))), _fp8)
    assert why is not None and "is not made of fragment reads or pieces the front end can " \
        "take a 4th of" in why, why
    assert "16x16x32" not in out and HALVED_ATTR not in out


def _f32(text: str) -> str:
    """The loop with IREE's f32 MFMA: one f32 of A and of B a lane (scalar operands)."""
    return text.replace(LDS, "memref<1024xf32, #gpu.address_space<workgroup>>").replace(
        "vector<8xf16>", "vector<1xf32>").replace(
        "    %d = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<1xf32>, vector<1xf32>, "
        "vector<4xf32>",
        "    %sa = vector.extract %fa[0] : f32 from vector<1xf32>\n"
        "    %sb = vector.extract %fb[0] : f32 from vector<1xf32>\n"
        "    %d = amdgpu.mfma 16x16x4 %sa * %sb + %acc : f32, f32, vector<4xf32>")


def test_an_f32_mfma_of_scalar_operands_is_refused_not_crashed():
    """IREE's f32 16x16x4 MFMA takes scalars: asked for its pieces along K (a short f32 loop,
    finding of stop 81: an internal error at the operands' vector type), it has none, and
    halving refuses it naming the shape and the type."""
    why, out = _halved(READ_B.replace(LDS, "memref<1024xf32, #gpu.address_space<workgroup>>")
                       .replace("vector<8xf16>", "vector<1xf32>"), _f32)
    assert why is not None and "is a 16x16x4 MFMA of f32, which the front end does not cut " \
        "along K" in why, why
    assert HALVED_ATTR not in out
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(_f32(LOOP.format(lds=LDS, make_b=READ_B)), ctx)
        mfmas = walk_ops(m.operation, lambda o: o.name == "amdgpu.mfma")
        assert cut_pieces(mfmas) == 2
