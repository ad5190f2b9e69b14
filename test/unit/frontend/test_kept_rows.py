"""pipeline_mlir/frontend/kept_rows.py: runs masked by their row and a count that are not
rows of C's edge tied to a tile: a batch's (3-D) and a ``K x N`` B's K rows.

IREE's bf16 batch 2 x 300x520x262 at the prefetch point masks each run by ``create_mask
1, row, K left``; the same kernel ``test_iree_epilogues.py`` emulates, exact (the run's
build cache holds it once).  IREE's fp8 E5M2 ``A x B`` 300x1000x1030 masks B's runs by
``create_mask K row, N left``: the K row is read as such, and the run the N edge (1000 =
62 x 16 + 8) cuts inside is copied in 4-byte pieces (``frontend/cut_runs.py``), a cut
that splits a piece refused at the read; the same kernel with N = 1008 (its sizes
rewritten in the text: every run whole) is adopted from its late form, B's runs kept, and
its pass-through made -0.0 refused.  Each property the rewrite relies on, broken in IREE's
text, is refused.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from masked_rows_helpers import adopt as _run, assert_refused_at, text_mutation as _text  # noqa: E402

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402

#: A's masked read of the batch kernel (its first)
A_READ = "%94 = vector.transfer_read %subview_16"
#: A's first fragment read from LDS
A_LDS_READ = "%106 = vector.transfer_read %expand_shape_15"


def _batch() -> str:
    return G.prefetch_point(E.epilogue_source("batch", m=300, n=520, k=262))


def _fp8_ab(n: int, form: str = "prefetch") -> str:
    """IREE's fp8 E5M2 ``A x B`` 300x1000x1030 at the prefetch point (or ``form``), its N
    made ``n`` (every size and stride of 1000 in the text; C's 300000 elements and B's
    1030000 too)."""
    text = G.forms(G.matmul_source(dtype="fp8e5m2", m=300, n=1000, k=1030,
                                   transpose_b=False))[form]
    if n == 1000:
        return text
    text = re.sub(r"(?<=\D)1000(?=\D)", str(n), text).replace("300000xf32", f"{300 * n}xf32")
    return re.sub(r"(?<=\D)1030000(?=\D)", str(1030 * n), text)


@pytest.mark.parametrize("mutate,at,message", [
    (_text("%cst_0 = arith.constant 0.000000e+00 : bf16",
           "%cst_0 = arith.constant -0.000000e+00 : bf16"), A_READ,
     "pads masked rows with a value other than zero"),
    # the row and the K left swapped: the count is the row flag, which moves with the
    # workgroup and cuts the run (along K) inside a 4-byte piece: copied an element per
    # lane (cut_runs.py), but the front end's own copies of A cannot hold the rows
    # pointed past the end beside the others, refused at A's first fragment read
    (_text("vector.create_mask %c1, %24, %91", "vector.create_mask %c1, %91, %24"), A_LDS_READ,
     "channel A: the global elements its LDS buffer holds are not a strided block of one "
     "buffer"),
    (_text("%3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset",
           "%3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset boundsCheck(false)"),
     "%3 = amdgpu.fat_raw_buffer_cast",
     "masked rows are read past the end of this fat buffer, which must be range-checked"),
], ids=["padding", "row and count swapped", "not range-checked"])
def test_what_the_batch_rewrite_relies_on_is_checked(tmp_path, capsys, mutate, at, message):
    assert_refused_at(tmp_path, capsys, mutate(_batch()), at, message)


def test_k_rows_are_read_and_a_cut_run_copied_in_pieces(tmp_path, capsys):
    """N = 1000: B's K rows read as such, the run the N edge cuts (8 of 16) copied in
    4-byte pieces, each kept by the mask (exact on the emulator, by hand:
    docs/iree-audits.md); N = 1001 (a cut of 9, inside a piece): the kernel's run copied
    in pieces of one byte, the front end's own runs of 16 bytes in pieces whose ends are
    the cut (4, 4, 1, 1, 2 and 4 bytes), each register-staged."""
    rc, out, err = _run(tmp_path, capsys, _fp8_ab(1000))
    assert rc == 0, err
    loop = out.split(" = scf.for %arg2 = ")[1]
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*vector<4xf8E5M2>, memref<1030x1000xf8E5M2",
                        loop)
    assert copies and all("sched.kept_mask" in c for c in copies), copies
    rc, out, err = _run(tmp_path, capsys, _fp8_ab(1001))
    assert rc == 0 and re.search(r"amdgpu\.gather_to_lds [^\n]*sched\.kept_cut_piece = 1 : i64"
                                 r"[^\n]*sched\.register_staged[^\n]*vector<1xf8E5M2>", out), err


def test_k_rows_of_the_late_form(tmp_path, capsys):
    """The late form's B (a guarded load masked by ``select(K row, create_mask(N left),
    0)``): at N = 1008 its runs kept as at the prefetch point; its pass-through made -0.0,
    refused at the guard."""
    late = _fp8_ab(1008, "late")
    rc, out, err = _run(tmp_path, capsys, late)
    assert rc == 0, err
    loop = out.split("scf.for %arg0 = ")[1]
    copies = re.findall(r"amdgpu\.gather_to_lds %\w+\[[^\n]*memref<1030x1008xf8E5M2", loop)
    assert copies and all("sched.kept_mask" in c for c in copies), copies
    assert re.search(r"arith\.select %\w+, %\w+, %c1030\w* : index", loop)
    then = "%553 = vector.maskedload %4[%345, %270], %343, %cst_0 "
    negative = _text("%352 = scf.if %351", "%negz = arith.constant dense<-0.000000e+00> : "
                     "vector<16xf8E5M2>\n%352 = scf.if %351")(_text(then, then.replace(
                         "%cst_0", "%negz"))(_text("%554 = arith.select %343, %553, %cst_0",
                                                  "%554 = arith.select %343, %553, %negz")(
                             late)))
    assert_refused_at(tmp_path, capsys, negative, "%352 = scf.if %351",
                      "needs a padding of the constant zero")


def _batch_ab() -> str:
    """IREE's bf16 batch 2 x 200x300x136 ``A x B`` at the prefetch point (the fourth audit's
    family, docs/iree-audits.md): K step 8, A's runs of 4 elements (8 bytes) copied as two
    4-byte pieces (``frontend/split_copy.py``), each row past M = 200 kept in the index;
    the workgroup the front end samples (1) holds such rows."""
    return G.prefetch_point(E.epilogue_source("batch", m=200, n=300, k=136, b_kxn=True))


def test_a_batch_run_in_pieces_keeps_its_rows_past_m(tmp_path, capsys, monkeypatch):
    """The pieces of a kept run: a lane whose row is past M reads the fixed element past
    the end the kernel's lane reads (not it plus the piece's offset); the tag check
    measures the copies' K moves without such lanes (zeros that no K step moves).  Exact
    on the emulator (the first and the corner workgroup).  A piece that adds its offset
    outside the kept select is refused at the read, and so is the kernel at the copy when
    the past-the-end lanes are measured too."""
    import numpy as np

    from pipeline_mlir.frontend import split_copy as S
    from pipeline_mlir.frontend import tag_check as T
    from pipeline_mlir.tools.pipeline_opt import main

    text = _batch_ab()
    path = tmp_path / "k.mlir"
    path.write_text(text)
    rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
               "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out and "C = A @ B" in out, out + err
    read = "= vector.transfer_read %subview_17"
    with monkeypatch.context() as m:
        m.setattr(S, "_plus_odd", lambda copy, idx, odd: S.B.arith.addi(idx[-1], odd))
        assert_refused_at(tmp_path, capsys, text, read, "its address is not the kernel's")
    with monkeypatch.context() as m:
        m.setattr(T, "_past_end", lambda ops, root, e, ev: np.zeros(e.shape, bool))
        rc = main(["--pipeline=4wave", str(path), "--emit=schedule"])
        err = capsys.readouterr()[1]
        line = 1 + text[:text.index(read)].count("\n")
        assert rc == 1 and f"k.mlir:{line}:" in err and "do not move by one K step" in err, err


@pytest.mark.parametrize("buffer,taken", [
    ("memref<200x?xbf16>", True),            # rows of a length known at launch, dense
    ("memref<200x64xbf16>", True),
    # a row stride known at launch that need not be the row length: row 200 may lie inside
    ("memref<200x?xbf16, strided<[?, 1]>>", False),
    ("memref<?x64xbf16>", False),            # no static row count to point past
    ("memref<200x64xbf16, strided<[128, 1]>>", False),
], ids=["launch-length", "static", "launch-stride", "launch-rows", "padded-rows"])
def test_a_k_row_past_the_end_needs_a_dense_buffer_of_static_rows(buffer, taken):
    """``_past_end`` points a K row not read at row ``rows`` of the buffer: past its end
    only where the buffer is dense and row-major with a static row count (its row length
    may be known only at launch: IREE's padded ``A^T x B`` with M at launch, ``K x M`` A of
    ``memref<200x?xbf16>``); any other buffer is refused at the read."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.frontend.kept_rows import _past_end

    text = f"""
func.func @f(%b: {buffer}, %ok: i1) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {{
    %z = arith.constant 0.0 : bf16
    %v = vector.transfer_read %b[%i, %c0], %z {{in_bounds = [true]}} : {buffer}, vector<8xbf16>
  }}
  return
}}"""
    with new_context():
        m = ir.Module.parse(text)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        read = walk_ops(m.operation, lambda o: o.name == "vector.transfer_read")[0]
        buf, ok = m.body.operations[0].regions[0].blocks[0].arguments
        if not taken:
            with pytest.raises(IRError, match="masks a K row of .*which must then be a dense "
                                              "row-major buffer of a static row count"):
                with ir.InsertionPoint(read), read.location:
                    _past_end(loop, read, ok, buf, read.operands[1], read.operands[2], {})
            return
        with ir.InsertionPoint(read), read.location:
            src, row, _ = _past_end(loop, read, ok, buf, read.operands[1], read.operands[2], {})
        assert "fat_raw_buffer" in str(src.type) and "arith.select" in str(row.owner)


def test_a_batch_row_mask_of_the_threads_alone_is_kept():
    """Which batch runs (indices before the row's) :func:`kept_route` keeps: a row mask
    that moves with the workgroup (a batch of several tiles along M), and now one of the
    threads and constants alone (IREE's batch of M = 33 in one 64-row tile: the same rows
    past M in every workgroup, each the next batch's, inside the buffer; masks.py, which
    peels K tails, refused it at the read: ``... is masked to 0 of 1 elements in thread
    16 in iteration 0``); not one that moves with the K-loop (a K tail: masks.py's).  A
    2-D run (no batch index) keeps the route it had: C's edge, masked_rows_k.py's."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.kept_rows import kept_route

    text = """
func.func @f(%wg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = gpu.thread_id x
  scf.for %k = %c0 to %c8 step %c1 {
    %fixed = affine.min affine_map<(d0) -> (-(d0 floordiv 16) + 33, 1)>(%t)
    %moving = affine.min affine_map<(d0, d1) -> (-(d0 floordiv 16) - d1 * 64 + 100, 1)>(%t, %wg)
    %krow = affine.min affine_map<(d0, d1) -> (-(d0 floordiv 16) - d1 + 262, 1)>(%t, %k)
  }
  return
}
"""
    with new_context(), ir.Location.unknown():
        m = ir.Module.parse(text)
        (loop,) = walk_ops(m.operation, lambda o: o.name == "scf.for")
        flags = [o.results[0] for o in walk_ops(m.operation, lambda o: o.name == "affine.min")]
        lead = [loop.operands[0]]
        # (%fixed, %moving, %krow)
        assert [kept_route(loop, v, v, lead) for v in flags] == [True, True, False]
        assert [kept_route(loop, v, v, []) for v in flags] == [False, False, True]
