"""Runs cut inside by C's edge (frontend/cut_runs.py): IREE's f16 A^T x B 100x1000x1030.

A is K x M with M = 100 = 12 x 8 + 4: the edge tile's last run of 8 elements is masked to
its first 4 (`vector.create_mask` of the K rows left and 4; the late form's guarded load
masked by `arith.select` of the K row's test and `vector.create_mask 4`), elements that
lie inside the buffer (the next K row's start).  The front end copies that run in 4-byte
pieces, each kept by the mask or read past the end of the range-checked buffer; B's runs
(N = 1000) are whole or not at the edge, kept as a whole-run select (kept_masks.py).  Both
forms give one schedule (the K steps merged); the prefetch point is exact on the first and
the corner workgroup (4 rows of M cut inside a run, K cut at 1030).  Mutants: a size off
by one (a 4-byte piece cut: copied an element per lane, which the front end's own copies,
each element tested against the row, do not match), the mask on the wrong dimension, a
padding of -0.0, a K part partial before the last K tile: refused; a piece's condition off
by one: caught by the proof over the grid.  Kernels cut at an odd size (bf16 ``A x B``
64x129x1024, ``A^T x B`` 31x64x160, a cut of constants alone): copied an element per
lane, exact.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from steady_loop import assert_steady, counting_loops
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import generate as G  # noqa: E402

PREFETCH_MASK = "%60 = vector.create_mask %58, %26 : vector<1x8xi1>"
LATE_MASK = "%61 = vector.create_mask %50 : vector<8xi1>"
#: the start of the read it masks, on the next line (IREE's indentation)
READ = "\n" + " " * 14 + "%61 = vector.transfer_read %subview_16[%c0, %c0], %cst_0, %60 {"
ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"
OPTIONS = re.compile(r"sched\.options = \{[^}]*\}")


def _written_forms(tmp_path_factory, name: str, **source) -> dict:
    """Both forms of IREE's ``A^T x B`` matmul of ``source``, as files ({form: path})."""
    d = tmp_path_factory.mktemp(name)
    out = {}
    for form, text in G.forms(G.matmul_source(transpose_a=True, transpose_b=False,
                                              **source)).items():
        out[form] = d / f"{form}.mlir"
        out[form].write_text(text)
    return out


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of IREE's kernel, as files ({form: path})."""
    out = _written_forms(tmp_path_factory, "cut_runs", dtype="f16", m=100, n=1000, k=1030)
    assert PREFETCH_MASK in out["prefetch"].read_text(), "IREE's kernel changed shape"
    assert LATE_MASK in out["late"].read_text(), "IREE's kernel changed shape"
    return out


def test_cut_runs_both_forms_one_schedule_exact(forms, capsys):
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(forms["prefetch"]),
                   "--emulate-workgroups=2", "--emulate-mode=late",
                   "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0 in C (288 elements), 2 of 441 " \
        "workgroups" in out, out + err[-2000:]
    emulated = set(OPTIONS.findall(err))
    assert len(emulated) == 1 and '"f16"' in next(iter(emulated)), err[-2000:]
    assert "4 of the kernel's K steps merged" in err, err[-2000:]
    assert err.count("amdgpu.gather_to_lds") > 0 and "sched.kept_mask" in err
    assert main([str(forms["late"]), ADOPT]) == 0
    assert set(OPTIONS.findall(capsys.readouterr().out)) == emulated


@pytest.mark.parametrize("form,old,new,message", [
    # off by one: 7 of 8 elements in a run inside the row, a 4-byte piece cut: copied an
    # element per lane, exactly as masked; the front end's own copies (this channel's do
    # not split into subtiles) test each element against the row, which the mask is not
    ("prefetch", PREFETCH_MASK, "%cut = arith.subi %26, %c1 : index\n"
     + PREFETCH_MASK.replace("%26 :", "%cut :"),
     "in workgroup (0, 0) at K step 0, LDS element 7 gets zero from the kernel's copies and "
     "global element 7 from the front end's"),
    # one more: a run past the row's end keeps 1 element of the next row
    ("late", LATE_MASK, "%one = arith.constant 1 : index\n%cut = arith.addi %50, %one : "
     "index\n" + LATE_MASK.replace("%50 :", "%cut :"),
     "LDS element 4 gets global element 100 from the kernel's copies and zero from the "
     "front end's"),
    # the edge's size on the K rows' dimension: not a cut run, the peel's refusal
    ("prefetch", PREFETCH_MASK, PREFETCH_MASK.replace("%58, %26", "%26, %c8"),
     "has a mask whose size depends on the workgroup"),
    # a padding of -0.0: what a read past the end returns is +0.0
    ("prefetch", "%cst_0 = arith.constant 0.000000e+00 : f16",
     "%cst_0 = arith.constant -0.000000e+00 : f16",
     "so needs a padding of the constant zero, every bit clear"),
    # the K part of the mask partial in an iteration the pipelined loop keeps
    ("prefetch", PREFETCH_MASK, PREFETCH_MASK.replace("%58, %26", "%c0, %26"),
     "masks the K rows left to 0 (of 1) in thread 0 in iteration 0, which the pipelined "
     "loop runs"),
    # the off-by-one read carrying the mark the front end puts on a cut run it proved
    # (its delta, the rows past the end): taken on trust, the checks above were skipped and
    # piece 3 of a run masked to 7 kept (81 elements of C wrong on the emulator in the
    # mutation verdict's two workgroups, exit 0); refused at the read (frontend/reserved.py)
    ("prefetch", PREFETCH_MASK + READ,
     "%cut = arith.subi %26, %c1 : index\n" + PREFETCH_MASK.replace("%26 :", "%cut :")
     + READ + "sched.kept_cut = 1030 : i64, ",
     "'vector.transfer_read' op carries 'sched.kept_cut', a mark the front end puts on "
     "what it makes itself"),
], ids=["off-by-one", "late-off-by-one", "wrong-dimension", "negative-zero", "k-part",
        "premarked"])
def test_cut_run_refusals(forms, capsys, tmp_path, form, old, new, message):
    text = forms[form].read_text()
    assert text.count(old) == 1, old
    src = tmp_path / "k.mlir"
    src.write_text(text.replace(old, new))
    rc = main([str(src), ADOPT])
    out, err = capsys.readouterr()
    assert rc == 1 and message in err and "Traceback" not in err, err
    line = src.read_text().splitlines()[int(err.split(":")[1]) - 1]
    # (the pieces' refusals: at the fragment read whose copies the front end's replace)
    ops = ("amdgpu.transpose_load",) if "from the front end's" in message else \
        ("vector.transfer_read", "scf.if")
    assert any(o in line for o in ops), (err, line)


def _moving_forms(tmp_path_factory, dtype: str) -> dict:
    """Both forms of IREE's ``A x B`` 64x129x1024 of ``dtype`` (3 workgroups along N), as
    files: the committed inputs (``generate.py``'s ``LIT_INPUTS``), not built by
    ``iree-compile`` in the run (about 0.7 s of CPU each)."""
    inputs = Path(__file__).parents[2] / "lit" / "passes" / "Inputs"
    return {form: inputs / f"iree-{dtype}-ab-64x129x1024.{form}.mlir"
            for form in ("prefetch", "late")}


@pytest.fixture(scope="module")
def moving(tmp_path_factory) -> dict:
    """Both forms of IREE's bf16 ``A x B`` 64x129x1024 (3 workgroups along N, 8 K steps of
    128), as files."""
    return _moving_forms(tmp_path_factory, "bf16")


#: per element type of IREE's ``A x B`` 64x129x1024: the elements of the pieces B's runs of
#: 16 bytes (the lanes' stride), cut at one element, are copied in, and B's loads per
#: subtile (one element per lane took 16 and 32)
MOVING = {"bf16": ({1, 6}, 8, 6), "fp8": ({1, 2, 12}, 16, 8)}


@pytest.mark.parametrize("dtype", [
    "bf16", pytest.param("fp8", marks=pytest.mark.long(
        "the table row's type twin: bf16 64x129x1024 takes the same path (the run the edge "
        "cuts copied in whole-run pieces whose ends are the cut, register-staged, joined "
        "into one 16-byte store; one schedule from both forms; exact), [bf16]"))])
def test_a_moving_odd_cut_in_whole_run_pieces_both_forms_exact(request, tmp_path_factory,
                                                               capsys, dtype):
    """IREE's ``A x B`` 64x129x1024 (B K x N, N = 129 = 16 x 8 + 1 bf16, 8 x 16 + 1 fp8): the
    run of 16 bytes at column 128 cut to 1 element in the last workgroup (a size that
    moves with the workgroup).  B's copies do not split into subtiles, so the front end
    makes its own: each lane's whole run in pieces whose ends are the cut (1, 1 and 6
    bf16; 1, 1, 2 and 12 fp8), register-staged, the lanes a run apart, each piece kept
    where it lies inside the row or read past the range-checked end.  One schedule from
    both forms, the late form exact on the first and the last (the cut) workgroup; bf16's
    waves go round the steady loop (at K = 256 LLVM unrolls it: only the prologue and the
    drain would run; fp8's 4 K steps of 256 are unrolled).  Was copied an element per lane
    (fp8 64x129x512 refused at vmcnt(68)); before, refused at the masked read."""
    paths = request.getfixturevalue("moving") if dtype == "bf16" else \
        _moving_forms(tmp_path_factory, dtype)
    widths, stride, loads = MOVING[dtype]
    with counting_loops() as loops, share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(paths["late"]), "--emulate-mode=late",
                   "--emulate-workgroups=2", "--emulate-jobs=1",
                   "--mlir-print-ir-after=sched-adopt-loop,sched-stage-copies"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0" in out, out + err[-2000:]
    if dtype == "bf16":
        assert_steady(loops)
    err, staged = err.split("IR Dump After sched-stage-copies", 1)
    _odd_pieces(err, widths, stride)
    # each lane's staged pieces of a run joined into one 16-byte LDS store (were 1, 1 and 6
    # bf16, 1, 1, 2 and 12 fp8 in one store each: passes/_join_stores.py)
    assert set(re.findall(r"vector\.store .*#gpu\.address_space<workgroup>>, "
                          r"vector<(\d+)x", staged)) == {str(stride)}, staged[-3000:]
    emulated = set(OPTIONS.findall(err))
    assert len(emulated) == 1 and f"vm_per_load_b = {loads} " in next(iter(emulated))
    assert main([str(paths["prefetch"]), ADOPT]) == 0
    assert set(OPTIONS.findall(capsys.readouterr().out)) == emulated


def test_pieces_that_a_cut_cuts_are_refused(moving, capsys, monkeypatch):
    """Pieces of 2 bf16 (a piece of 4 bytes holding the cut, kept only where wholly inside
    the row) would drop column 128: the proof over the grid refuses them at B's copy,
    naming the element."""
    from pipeline_mlir.frontend import layout
    monkeypatch.setattr(layout, "odd_pieces", lambda w, cuts, eb: ((0, 2), (2, 2), (4, 2),
                                                                   (6, 2)))
    rc = main([str(moving["prefetch"]), ADOPT])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert "in workgroup (2,) at K step 0, LDS element 0 gets global element 128 from the " \
        "kernel's copies and zero from the front end's" in err, err


@pytest.mark.parametrize("kernel,message", [
    # 4-byte pieces: in the sampled workgroup every run is whole, so only the proof over
    # the grid sees a workgroup of C's edge keep the piece at 4 of a run masked to 4
    ("forms", "copied in 4 pieces, thread 2 of workgroup (0, 6) in copy 0 keeps piece 2 of "
     "lane 0's run, where the kernel's mask keeps 4 of 8 elements"),
    # pieces of one element (a size that cuts a 4-byte piece): the last workgroup's lane 0
    # keeps 1 element, and its piece 1 is kept too
    ("moving", "copied in 8 pieces, thread 1 of workgroup (2,) in copy 0 keeps piece 1 of "
     "lane 0's run, where the kernel's mask keeps 1 of 8 elements"),
], ids=["four-bytes", "one-element"])
def test_a_wrong_piece_condition_is_caught(request, capsys, monkeypatch, kernel, message):
    """Each piece kept where its lane's size is at least its offset (not above it): refused
    at the read by the proof over the grid, naming the piece, its lane and the size."""
    from pipeline_mlir.frontend import split_copy as SC
    real = SC.B.arith.cmpi

    def cmpi(pred, a, b):
        sge = SC.B.arith.CmpIPredicate.sge
        return real(sge if pred == SC.B.arith.CmpIPredicate.sgt else pred, a, b)
    monkeypatch.setattr(SC.B.arith, "cmpi", cmpi)
    rc = main([str(request.getfixturevalue(kernel)["prefetch"]), ADOPT])
    err = capsys.readouterr().err
    assert rc == 1 and message in err and "Traceback" not in err, err


def _batch_atb(b: int, m: int, n: int, k: int) -> str:
    """A bf16 ``linalg.batch_matmul`` ``A^T x B`` (A ``b x k x m``, B ``b x k x n``)."""
    A, Bs, C = f"{b}x{k}x{m}xbf16", f"{b}x{k}x{n}xbf16", f"{b}x{m}x{n}xf32"
    return (f"func.func @matmul(%a: tensor<{A}>, %b: tensor<{Bs}>) -> tensor<{C}> {{\n"
            f"  %zero = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<{C}>\n"
            f"  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{C}>) -> tensor<{C}>\n"
            f"  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>,"
            f" affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]\n"
            f"      ins(%a, %b : tensor<{A}>, tensor<{Bs}>) outs(%c : tensor<{C}>) -> "
            f"tensor<{C}>\n  return %r : tensor<{C}>\n}}\n")


def test_batch_both_cut_k_tail(tmp_path, capsys):
    """Batch 2 x 100x100x1030 ``A^T x B``: both operands' runs cut (M = N = 100) and a K
    tail.  At the prefetch point the remainder's reads keep their K part folded into the
    run's size (the MLIR stack drops a unit dimension's size of ``vector.create_mask``:
    the row past K, the next batch's, was read whole; ``sched-unit-masks`` now keeps it
    too): exact on workgroup 0.  IREE's late
    form has lost both reads' K masks (the row clamped to K): refused at the read."""
    forms = G.forms(_batch_atb(2, 100, 100, 1030))
    paths = {}
    for form, text in forms.items():
        paths[form] = tmp_path / f"{form}.mlir"
        paths[form].write_text(text)
    assert "vector.create_mask %c1, %57, %29 : vector<1x1x8xi1>" in forms["prefetch"], \
        "IREE's kernel changed shape"
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(paths["prefetch"]),
                   "--emulate-workgroups=1", "--emulate-mode=eager", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=eager: exact, max error 0 in C (256 elements)" in out, out + err
    rc = main([str(paths["late"]), ADOPT])
    err = capsys.readouterr().err
    assert rc == 1 and "reads row 1030 of a batch buffer of 1030 K rows in the loop's last " \
        "iteration with no K part in its mask" in err and "Traceback" not in err, err
    line = paths["late"].read_text().splitlines()[int(err.split(":")[1]) - 1]
    assert "scf.if" in line, (err, line)


def test_batch_k_tail_built_as_written(tmp_path):
    """The same prefetch point built as written (the LLVM step alone, the reference builds'
    way): the K row's size of each masked read's ``create_mask 1, k, s`` kept by
    ``sched-unit-masks`` (without it the stack dropped it, as it does in IREE's own build
    of this matmul: wrong on every workgroup, max error 234); exact on workgroup 0."""
    from pipeline_mlir.driver.dispatch_launch import run_dispatch
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    forms = G.forms(_batch_atb(2, 100, 100, 1030))
    prefetch = tmp_path / "prefetch.mlir"
    prefetch.write_text(forms["prefetch"])
    code = tmp_path / "plain.hsaco"
    with share_code_objects():
        assert main([str(prefetch), "--pass-pipeline=builtin.module()",
                     "--emit=hsaco", "-o", str(code)]) == 0
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(forms["prefetch"], ctx), None)
    summary, problem = run_dispatch(d, load_kernel(code.read_bytes()), "plain", ("eager", 0),
                                    1, None, False)
    assert problem is None and "exact" in summary, summary


#: IREE's f16 ``A x B`` 100x17x520, both forms (committed lit inputs): B (520 x 17) copied
#: one element per lane through registers, each kept by ``arith.select`` of its column
NARROW_KEPT = {form: Path(__file__).parents[2] / "lit" / "passes" / "Inputs" /
               f"iree-f16-ab-100x17x520.{form}.mlir" for form in ("prefetch", "late")}


def test_a_kept_narrow_copy_cut_by_its_row_in_element_pieces_both_forms(capsys):
    """IREE's f16 ``A x B`` 100x17x520 (N = 17, one 32-wide tile): B's 2-byte copies, each
    kept by its column's select, are replaced by the front end's own copies of 2 elements
    per lane (4 K steps merged), whose run at columns 16 and 17 the row's end cuts at 1:
    the cut read off the kernel's mask (``_kept_cuts`` in layout.py), each run copied in
    pieces of one element, register-staged, the lanes a run apart, each kept where it lies
    inside the row, proven the kernel's over the grid.  One schedule from both forms (the
    front end's work alone: exact on the emulator from both forms, late and random mode,
    by hand).  Before, refused from both forms at B's read (below)."""
    adopted = []
    for path in NARROW_KEPT.values():
        assert main([str(path), ADOPT]) == 0
        adopted.append(capsys.readouterr().out)
    assert len({frozenset(OPTIONS.findall(text)) for text in adopted}) == 1
    for text in adopted:
        pieces = re.findall(r"amdgpu\.gather_to_lds [^\n]*channel = 1 : [^\n]*", text)
        assert pieces and all("sched.lane_stride = 2 : i64, sched.register_staged} : "
                              "vector<1xf16>" in p for p in pieces), pieces


def test_a_kept_narrow_copy_in_whole_runs_is_refused(capsys, monkeypatch):
    """The same kernel's runs copied whole (no cut read off the mask): the run at columns
    16 and 17, kept only where wholly inside the row, would drop column 16; the proof over
    the grid refuses it at B's read, naming the element (the kernel's refusal before the
    cut was read).  (The last way the front end tries, the diagonal form of 2 merged K
    steps, copies B otherwise, needing no cut: taken out here, so that the proof refuses.)"""
    from pipeline_mlir.frontend import layout, natural

    def no_diagonal(an, schedule, refused):
        raise refused

    monkeypatch.setattr(layout, "_kept_cuts", lambda plan, raw, end: set())
    monkeypatch.setattr(natural, "_diagonal_merged", no_diagonal)
    rc = main([str(NARROW_KEPT["prefetch"]), ADOPT])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert "LDS element 16 gets global element 16 from the kernel's copies and zero from " \
        "the front end's" in err, err


#: IREE's bf16 A^T x B 31x64x160: A is 160 x 31, M = 31 in the one 32-row tile, so the
#: run of 4 elements at columns 28 to 31 is cut at 3 in every workgroup (a size of the
#: thread ids alone; the late form's guarded load masked by ``vector.create_mask``)
FIXED_MASK = "%18 = vector.create_mask %c1, %15 : vector<1x4xi1>"
#: a copy of one of a cut run's pieces of one element, register-staged (cut_runs.py)
ODD_PIECE = re.compile(r"amdgpu\.gather_to_lds [^\n]*sched\.kept_cut_piece = \d : i64[^\n]*")


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> dict:
    """Both forms of IREE's bf16 ``A^T x B`` 31x64x160 (one workgroup), as files."""
    out = _written_forms(tmp_path_factory, "cut_fixed", dtype="bf16", m=31, n=64, k=160)
    assert FIXED_MASK in out["prefetch"].read_text(), "IREE's kernel changed shape"
    return out


def _odd_pieces(err: str, widths: set, stride: int | None = None) -> None:
    """The adopted kernel in ``err`` copies a run cut at an odd size in pieces of
    ``widths`` elements, each register-staged (no direct-to-LDS copy moves 1 or 2 bytes,
    nor writes its lanes apart), the lanes ``stride`` elements apart where the front end
    copies whole runs in pieces (else one after the other)."""
    pieces = ODD_PIECE.findall(err)
    assert pieces and all("sched.register_staged" in p for p in pieces), err[-2000:]
    assert {int(w) for p in pieces for w in re.findall(r": vector<(\d+)x", p)} == widths
    assert {int(x) for p in pieces for x in re.findall(r"sched\.lane_stride = (\d+)", p)} \
        == ({stride} if stride else set())


def test_a_fixed_odd_cut_in_element_pieces_both_forms_exact(fixed, capsys):
    """A run cut by C's edge at a size that does not move with the workgroup (C's edge in
    the one tile along M) and cuts a 4-byte piece (3 of 4 bf16): copied in pieces of one
    element, each kept by the mask or read past the range-checked end, register-staged;
    one schedule from both forms, exact in random order (the one workgroup is the first
    and the edge one).  Was refused at the read (``... not a multiple of 2: a piece would
    be cut``; at 30 x 64, cut at 2, it was taken in 4-byte pieces)."""
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(fixed["late"]),
                   "--emulate-mode=random:3", "--emulate-jobs=1",
                   "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random: exact, max error 0 in C (1984 elements)" in out, \
        out + err[-2000:]
    _odd_pieces(err, {1}, 2)
    emulated = set(OPTIONS.findall(err))
    assert main([str(fixed["prefetch"]), ADOPT]) == 0
    assert set(OPTIONS.findall(capsys.readouterr().out)) == emulated


def test_a_whole_fixed_size_is_no_cut(fixed, capsys, tmp_path):
    """The size made the whole run in every thread: no cut, the run copied whole (no piece
    kept)."""
    text = fixed["prefetch"].read_text()
    src = tmp_path / "k.mlir"
    src.write_text(text.replace(FIXED_MASK, "%four = arith.constant 4 : index\n"
                                + FIXED_MASK.replace("%15", "%four")))
    rc = main([str(src), ADOPT])
    out, err = capsys.readouterr()
    assert rc == 0 and "sched.kept_mask" not in out, err


def test_a_fixed_mask_of_a_whole_run_or_none_is_kept_or_says_why(tmp_path, capsys):
    """IREE's bf16 ``A^T x B`` 28x64x160 at the prefetch point: M = 28 in the one 32-row
    tile, so thread 7's run of 4 (columns 28 to 31) lies past the row's end, masked to
    none of its elements, the others whole: no run cut inside, a mask of the whole run or
    nothing the same in every workgroup.  ``kept_masks.py`` keeps it in the copy as C's
    edge in the one tile (before: refused at the read, a K tail's mask short in iteration
    0; IREE's f16 ``A^T x B`` 17x100x520, B's columns 100 to 127, likewise).  With A's
    buffer cast unchecked (``boundsCheck(false)``: a read past its end no longer zeros)
    it is refused at the read, saying which requirement of a kept mask fails."""
    src = tmp_path / "k.mlir"
    text = (Path(__file__).parents[2] / "lit" / "passes" / "Inputs" /
            "iree-bf16-atb-28x64x160.prefetch.mlir").read_text()   # (generate.py's LIT_INPUTS)
    src.write_text(text)
    rc = main([str(src), ADOPT])
    out, err = capsys.readouterr()
    assert rc == 0 and "sched.kept_mask" in out, err
    cast = "%2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset :"
    assert cast in text, "IREE's kernel changed shape"
    src.write_text(text.replace(cast, cast.replace("resetOffset", "resetOffset "
                                                   "boundsCheck(false)")))
    rc = main([str(src), ADOPT])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert "is masked to 0 of 4 elements in thread 7 in iteration 0, which the pipelined " \
        "loop runs" in err, err
    assert "here the lane's run is masked to none of its elements, which cuts no run " \
        "inside, and the front end keeps a mask of the whole run or nothing in its copy " \
        "(frontend/kept_masks.py) only where it is one i1 per run and meets what a kept " \
        "mask needs; this one does not: 'amdgpu.fat_raw_buffer_cast' op at line 41:16: " \
        "masked rows are read past the end of this fat buffer, which must be range-checked " \
        "by its own shape" in err, err
