"""``kernel_ir.mfma_variant``: what an ``amdgpu.mfma`` does besides one block's
``D = C + A x B`` (the partition refuses such an MFMA at the op; ``half_k`` does not halve
it); ``partition._mfma_kind``: the loop's MFMA kind read from A, or the MFMA refused
at the op (a B of another element type than A's dtype, a shape no schedule issues); and a
given ``mfma`` option checked against the loop's MFMAs (``partition.infer_schedule``)."""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.kernel_ir import mfma_variant

FUNC = """func.func @f(%a: vector<8xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>)
    -> vector<4xf32> {
  %r = amdgpu.mfma 16x16x32 %a * %b + %c MODS : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>,
      vector<4xf32>
  return %r : vector<4xf32>
}"""


#: the modifiers an MFMA is written with -> what mfma_variant says of it
CASES = {"": None, "blgp(none)": None,
         "cbsz(1)": "broadcasts its operands (cbsz = 1)",
         "abid(1) cbsz(1)": "broadcasts its operands (cbsz = 1)",
         "blgp(bcast_first_32)": "permutes its B operand (blgp)"}


def test_the_variant_is_named():
    with new_context() as ctx:           # (one context: a dialect load per item is slow)
        for mods, want in CASES.items():
            module = ir.Module.parse(FUNC.replace("MODS", mods), ctx)
            op = module.body.operations[0].regions[0].blocks[0].operations[0]
            assert op.name == "amdgpu.mfma" and mfma_variant(op) == want, mods



#: a loop of one ``{shape}`` MFMA of {n}-element A (E4M3FN unless given) and B operands
LOOP = """func.func @f(%a: vector<{n}x{a}>, %b: vector<{n}x{b}>, %i: index) -> vector<{c}xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : vector<{c}xf32>
  %r = scf.for %k = %c0 to %i step %c1 iter_args(%acc = %z) -> (vector<{c}xf32>) {{
    %d = amdgpu.mfma {shape} %a * %b + %acc : vector<{n}x{a}>, vector<{n}x{b}>, vector<{c}xf32>
    scf.yield %d : vector<{c}xf32>
  }}
  return %r : vector<{c}xf32>
}}"""


#: (shape, operand elements, C elements, A, B) -> the kind, or what the refusal says
KINDS = {("16x16x32", 8, 4, "f8E4M3FN", "f8E5M2"): ("fp8", (16, 16, 32)),
         ("16x16x32", 8, 4, "f8E5M2", "f8E5M2"): ("fp8", (16, 16, 32)),
         # the kind is A's: a B the schedules do not take is refused at the MFMA, once (not
         # left to the lowering of each of the pipelined loop's copies: gfx950 has no MFMA
         # of gfx942's FNUZ FP8)
         ("16x16x32", 8, 4, "f8E4M3FN", "f8E4M3FNUZ"): "multiplies f8E4M3FN by f8E4M3FNUZ",
         ("16x16x32", 8, 4, "f8E4M3FN", "f8E5M2FNUZ"): "multiplies f8E4M3FN by f8E5M2FNUZ",
         # gfx942's 32x32x16 FP8 (IREE's MFMA_F32_32x32x16_F8E4M3FN), refused until the
         # schedules issued it (test_iree_fp8_mfma32.py)
         ("32x32x16", 8, 16, "f8E4M3FN", "f8E4M3FN"): ("fp8", (32, 32, 16)),
         ("32x32x16", 8, 16, "f8E5M2", "f8E4M3FN"): ("fp8", (32, 32, 16)),
         # gfx942's 32x32x16 i8, which IREE picks for tiny i8 problems (i8 A x B^T
         # 59x28x496): taken (before, only for a loop the front end halved); its C i32
         ("32x32x16", 8, 16, "i8", "i8"): ("i8", (32, 32, 16)),
         # a shape of no MFMA of i8's operands: refused at the MFMA
         ("32x32x8", 4, 16, "i8", "i8"):
             "is a 32x32x8 i8 MFMA, which the schedules do not issue for i8 (they issue "
             "16x16x64 and 32x32x32 and 16x16x32 and 32x32x16)",
         # i8 products added into f32, which the verifier lets through (C not made i32:
         # the key's A of "i8f32")
         ("32x32x16", 8, 16, "i8f32", "i8"):
             "accumulates i8 products into f32; an MFMA of i8 accumulates into i32"}


def test_the_kind_is_read_or_refused_at_the_mfma():
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.frontend.partition import _mfma_kind

    with new_context() as ctx, ir.Location.unknown(ctx):
        for (shape, n, c, a, b), want in KINDS.items():
            text = LOOP.format(shape=shape, n=n, c=c, a=a, b=b)
            if a == "i8":               # (an i8 MFMA's C is i32)
                text = text.replace("f32", "i32").replace("dense<0.0>", "dense<0>")
            text = text.replace("i8f32", "i8")
            module = ir.Module.parse(text, ctx)     # (kept: the ops live in it)
            loop = walk_ops(module.operation, lambda o: o.name == "scf.for")[0]
            mfma = walk_ops(loop, lambda o: o.name == "amdgpu.mfma")[0]
            try:
                got = _mfma_kind(SimpleNamespace(loop=loop, mfmas=[mfma]))
            except IRError as e:
                assert e.op == mfma and isinstance(want, str) and want in str(e), str(e)
            else:
                assert got == want, (shape, a, b)
        # a later MFMA of scalar f32 operands (16x16x4), another kind than the loop's
        # first, and one of scalar f64 operands, which no schedule takes: each refused at
        # it, not a crash
        for mfma, said in (
                ("%e = amdgpu.mfma 16x16x4 %s * %s + %d : f32, f32, vector<4xf32>",
                 "is a 16x16x4 f32 MFMA, but the loop's first MFMA is 16x16x32 f8E4M3FN; "
                 "one MFMA kind per loop"),
                ("%s = arith.extf %t : f32 to f64\n    %f = amdgpu.mfma 16x16x4 %s * %s + "
                 "%z64 : f64, f64, vector<4xf64>\n    %e = arith.addf %d, %d : vector<4xf32>",
                 "multiplies scalar f64 operands; the schedules take scalar operands of f32 "
                 "and vector operands of bf16, f16, f8E4M3FN, f8E5M2, i8")):
            text = LOOP.format(shape="16x16x32", n=8, c=4, a="f8E4M3FN", b="f8E4M3FN")
            text = text.replace("    scf.yield %d", f"    {mfma}\n    scf.yield %e").replace(
                "%i: index", "%i: index, %t: f32, %z64: vector<4xf64>")
            if "f64" not in mfma:
                text = text.replace("%t: f32", "%s: f32")
            module = ir.Module.parse(text, ctx)
            loop = walk_ops(module.operation, lambda o: o.name == "scf.for")[0]
            mfmas = walk_ops(loop, lambda o: o.name == "amdgpu.mfma")
            with pytest.raises(IRError, match=re.escape(said)) as e:
                _mfma_kind(SimpleNamespace(loop=loop, mfmas=mfmas))
            assert e.value.op == mfmas[1]


@pytest.mark.parametrize("mfma, said", [
    # the dtype's own shape named: the loop's MFMAs, taken
    ("16x16x32", None),
    # a 32x32 MFMA, gfx942's 16x16x16 (only for a loop the front end halved): the loop's
    # MFMAs are not those; before, the schedule was built with the named MFMA's geometry
    # and the adopted spec named an MFMA the kernel does not issue
    ("32x32x16", "the pipeline asks for mfma=32x32x16, but the loop's payload has mfma=auto"),
    ("16x16x16", "the pipeline asks for mfma=16x16x16, but the loop's payload has mfma=auto")])
def test_a_given_mfma_other_than_the_loops_is_refused_at_the_loop(tmp_path, capsys, mfma, said):
    """The natural bf16 kernel (``examples/natural_kernel.py``: 16x16x32 MFMAs, the dtype's
    own) with the MFMA named: as for every other option the payload fixes, a given ``mfma``
    that is not the loop's is an error at the loop (the front end reads an MFMA of another
    shape from the kernel and names it: ``test_iree_fp8_mfma16.py``)."""
    import re
    import sys
    from pathlib import Path

    from pipeline_mlir.tools.pipeline_opt import main

    sys.path.insert(0, str(Path(__file__).parent))
    from test_kmerge import EXAMPLE

    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    rc = main([str(path), f"--pass-pipeline=builtin.module(sched-adopt-loop{{schedule=4wave "
                          f"mfma={mfma}}})", "-o", str(tmp_path / "out.mlir")])
    _, err = capsys.readouterr()
    if said is None:
        assert rc == 0, err
        return
    assert rc == 1 and err.count("error:") == 1 and "Traceback" not in err, err
    assert re.search(r":\d+:\d+: error: sched-adopt-loop: 'scf.for' op: ", err), err
    assert said in err, err


@pytest.mark.parametrize("shape, n, c", [("16x16x32", 8, 4), ("32x32x16", 8, 16)])
def test_i8s_gfx942_mfmas_are_taken_halved_or_not(shape, n, c):
    """gfx942's i8 16x16x32 and 32x32x16 (``target/gfx950.py``'s ``HALF_K_ONLY``) are the
    kind of a loop whose MFMAs the front end halved (``half_k.HALVED_ATTR``) and of a
    kernel's own: IREE picks the 32x32x16 for tiny i8 problems (i8 ``A x B^T`` 59x28x496,
    refused at the MFMA before); the 4-wave schedule issues them, the ping-pong one refuses
    them at its geometry (``test_errors.py``)."""
    from types import SimpleNamespace

    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.marks import HALVED_ATTR
    from pipeline_mlir.frontend.partition import _mfma_kind

    text = LOOP.format(shape=shape, n=n, c=c, a="i8", b="i8").replace(
        "f32", "i32").replace("dense<0.0>", "dense<0>")
    m, nn, k = map(int, shape.split("x"))
    with new_context() as ctx, ir.Location.unknown(ctx):
        module = ir.Module.parse(text, ctx)
        loop = walk_ops(module.operation, lambda o: o.name == "scf.for")[0]
        mfma = walk_ops(loop, lambda o: o.name == "amdgpu.mfma")[0]
        scan = SimpleNamespace(loop=loop, mfmas=[mfma])
        assert _mfma_kind(scan) == ("i8", (m, nn, k))
        loop.attributes[HALVED_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 2)
        assert _mfma_kind(scan) == ("i8", (m, nn, k))
