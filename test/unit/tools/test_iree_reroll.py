"""IREE's own prefetch pipelining rolled back (``pipeline_mlir/frontend/reroll.py``): the late
form of a kernel IREE pipelined itself (its default build, 2 stages, of bf16 ``A x B^T``
16384x16384x1024: 16384 workgroups, none enumerated; and ``prefetch_num_stages`` 3 forced
on 256^3, ``generate.forced_config``) gives the schedule of its prefetch point, and the
3-stage one is exact on the emulator; the late form broken
where the step proves it (a prologue copy's index, an epilogue MFMA, the body's wait count)
is refused at the op.  The same for IREE's pipelining of copies through registers
(``pipeline_mlir/frontend/reroll_regs.py``), aligned and with an unaligned K's guarded
loads."""

from __future__ import annotations

import math
import re

import pytest

from build_cache import cached
from iree_configs import G
from kernel_builds import shared_build
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

MMA = "MFMA_F32_16x16x32_BF16"

#: a kernel emulated here is built once (``build_cache.share_code_objects``), its schedule
#: kept on the way: the schedule compared is that build's (``_built_schedule``), not a
#: second run of the passes
pytestmark = pytest.mark.usefixtures("shared_code_objects")


def _schedule(path, capsys, pipeline: str = "4wave") -> str:
    """``pipeline-opt --pipeline=PIPELINE PATH --emit=schedule-json``'s schedule
    (:func:`_pipelined`)."""
    return _pipelined(path.read_text(), pipeline).checked_output()


def _pipelined(text: str, pipeline: str = "4wave"):
    """The ``CompileResult`` of ``--emit=schedule-json`` of ``text``, the adopted module
    kept on the way (``stages``), once per run: an item that reads the adopted loop of an
    input whose schedule it compared does not pipeline it again."""
    return cached("reroll-schedule", (pipeline, text), lambda: compile(CompileOptions(
        schedule=pipeline, text=text, emit="schedule-json", stages=("adopted",))))


def _built_schedule(path) -> str:
    """The schedule of ``path``'s ``--pipeline=4wave --emit=hsaco`` build, kept on the way:
    ``--emit=schedule-json``'s text, of the code object ``--emulate`` then runs."""
    return shared_build("4wave", input=str(path)).stages["schedule-json"]


def _forms_agree_exact(tmp_path, forms: dict, capsys, mode: str, *more: str,
                       pipeline: str = "4wave") -> None:
    """``forms`` (``prefetch`` and ``late``) written to ``tmp_path``, one schedule from
    both, and the late form's kernel exact on the emulator in ``mode`` (``more``: further
    ``--emulate`` flags).  The late form's schedule is its build's (``--emit=schedule-json``'s
    text, kept on the way), the build ``--emulate`` then runs: its passes run once."""
    for form, text in forms.items():
        (tmp_path / f"{form}.mlir").write_text(text)
    late = shared_build(pipeline, input=str(tmp_path / "late.mlir")).stages["schedule-json"]
    assert late == _schedule(tmp_path / "prefetch.mlir", capsys, pipeline)
    rc = main([f"--pipeline={pipeline}", "--emulate", str(tmp_path / "late.mlir"),
               f"--emulate-mode={mode}", "--emulate-jobs=1", *more])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def _one_workgroup_exact(tmp_path, forms: dict, capsys) -> None:
    """:func:`_forms_agree_exact` in late mode on a kernel of one workgroup, and its late
    form exact in random order too (5 orders)."""
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=1")
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late.mlir"),
               "--emulate-mode=random:5", "--emulate-jobs=1", "--emulate-workgroups=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def _refused(tmp_path, text: str, name: str, capsys) -> str:
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    rc = main(["--pipeline=4wave", str(path), "--emit=schedule"])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    return err


@needs_iree
def test_iree_prefetch_pipelined_late_forms_rolled_back(tmp_path, capsys):
    # IREE's default build (2 stages, 16384 workgroups); 3 stages forced on a grid of 4: the
    # same tile, waves and MFMA, so the same schedule as the default build's prefetch point
    kernels = {2: G.forms(G.matmul_source("bf16", 16384, 16384, 1024),
                          ("--iree-llvmgpu-prefetch-num-stages=2",)),
               3: G.forms(G.matmul_source("bf16", 256, 256, 256, mma=MMA, stages=3))}
    for stages, forms in kernels.items():
        assert forms["late"].count("rocdl.asyncmark") == stages      # IREE pipelined it
        (tmp_path / f"s{stages}.late.mlir").write_text(forms["late"])
    assert "hal.interface.workgroup.id[0] upper_bound 16384" in kernels[2]["late"]
    (tmp_path / "prefetch.mlir").write_text(kernels[2]["prefetch"])
    prefetch = _schedule(tmp_path / "prefetch.mlir", capsys)
    assert _schedule(tmp_path / "s2.late.mlir", capsys) == prefetch
    # K = 256 is too short for merge_k=auto to merge its K steps (K = 1024 is merged):
    # the 3-stage kernel's schedule (merge_k=auto, of the build emulated below) is the
    # prefetch point's unmerged one
    unmerged = "4wave{merge_k=false}"
    assert _built_schedule(tmp_path / "s3.late.mlir") == \
        _schedule(tmp_path / "prefetch.mlir", capsys, unmerged)
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "s3.late.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err

    s2 = kernels[2]["late"]
    # the prologue's copy of B's first rows reads A's rows (the same in workgroup 0 only):
    # not the body's form, and the comparison of the 16384 workgroups finds workgroup 1
    a_row = re.search(r"gather_to_lds async %\d+\[(%\d+),", s2).group(1)
    b_copy = re.search(r"gather_to_lds async %3\[(%\d+),", s2)
    mutant = s2.replace(f"%3[{b_copy.group(1)},", f"%3[{a_row},", 1)
    err = _refused(tmp_path, mutant, "row", capsys)
    assert re.search(r"'amdgpu\.gather_to_lds' op \(a copy before the loop\) is not the body's "
                     r"copy at line \d+:\d+ at K tile 0: its global elements differ "
                     r"\(workgroup 1\)", err), err
    # an epilogue MFMA's operands swapped
    mfma = re.findall(r"(%\d+) = amdgpu\.mfma 16x16x32 (%\d+) \* (%\d+) \+ %\d+#", s2)[0]
    mutant = s2.replace(f"{mfma[0]} = amdgpu.mfma 16x16x32 {mfma[1]} * {mfma[2]}",
                        f"{mfma[0]} = amdgpu.mfma 16x16x32 {mfma[2]} * {mfma[1]}", 1)
    assert "is not the body's 'amdgpu.mfma' op at" in _refused(tmp_path, mutant, "mfma", capsys)
    # the body waits for every group of copies
    mutant = s2.replace("rocdl.wait.asyncmark 1", "rocdl.wait.asyncmark 0", 1)
    assert "'rocdl.wait.asyncmark' op waits for all but 0 groups of copies: IREE's 2-stage loop " \
        "waits for all but its 1 newest" in _refused(tmp_path, mutant, "wait", capsys)


#: IREE's default prefetch stages (2), overriding the 1 generate.forms compiles with: the
#: build a user gets from iree-compile without flags
DEFAULT_BUILD = ("--iree-llvmgpu-prefetch-num-stages=2",)


@needs_iree
def test_iree_register_prefetch_rolled_back(tmp_path, capsys):
    """IREE's default builds of bf16 ``A x B^T`` 512^3 and 512x512x1020 pipeline their copies
    through registers themselves (``pipeline_mlir/frontend/reroll_regs.py`` rolls that back),
    the 1020 one loading each K tile through IREE's guarded load (an ``scf.if`` around a
    masked load: the last tile cut to 124 columns): both late forms give the schedule of
    their prefetch point (the 512^3 one's: one tile, one schedule, whatever K), and the
    1020 one is exact (the roll-back's rewrite is the same for both kinds of loads: emulated
    once, on the kernel whose rolled loop also peels a masked tile); a prologue load of the
    512^3 kernel given the thread's row without the workgroup's offset (the same rows in
    workgroup 0 only) is refused at it."""
    kernels = {k: G.forms(G.matmul_source("bf16", 512, 512, k), DEFAULT_BUILD)
               for k in (512, 1020)}
    for k, forms in kernels.items():
        late = forms["late"]
        loop = late.index(" scf.for ")
        assert "amdgpu.sched_barrier" in late and "gather_to_lds" not in late   # IREE pipelined
        assert re.search(r"vector\.store .*workgroup", late[:loop])               # the prologue
        assert ("vector.maskedload" in late[:loop]) == (k == 1020)   # guarded loads there
        (tmp_path / f"late{k}.mlir").write_text(late)
    (tmp_path / "prefetch.mlir").write_text(kernels[512]["prefetch"])
    prefetch = _schedule(tmp_path / "prefetch.mlir", capsys)
    assert _schedule(tmp_path / "late512.mlir", capsys) == prefetch
    assert _built_schedule(tmp_path / "late1020.mlir") == prefetch
    rc = main(["--pipeline=4wave", "--emulate", str(tmp_path / "late1020.mlir"),
               "--emulate-workgroups=2", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and "K=1020 mode=late: exact, max error 0" in out, out + err

    late = kernels[512]["late"]
    loop = late.index(" scf.for ")
    load = re.search(r"= vector\.load %\d+\[(%\d+), ", late[:loop])
    cast = re.search(rf"{load.group(1)} = arith\.index_castui (%\d+) ", late).group(1)
    thread = re.search(rf"{cast} = arith\.addi (%\d+), %\d+ ", late).group(1)
    row = re.search(rf"(%\d+) = arith\.index_castui {thread} ", late).group(1)
    mutant = late[:load.start(1)] + row + late[load.end(1):]
    err = _refused(tmp_path, mutant, "wg", capsys)
    assert "'vector.load' op (before the loop pipelined through registers) is not the body's " \
        "'vector.load' op at" in err and "its global elements differ (workgroup 4)" in err, err


@needs_iree
def test_index_arithmetic_between_the_epilogue_repeats_stays(tmp_path, capsys):
    """IREE's i8 ``A^T x B^T`` 128x256x512 with 16x16x64 MFMAs in a 128x256 tile of 2x2
    waves, K step 128, 2 stages forced: its late form puts the index arithmetic of its
    stores of C (``arith.addi`` of a value from before the loop, ``arith.index_castui``)
    between the epilogue's repeats of the body's reads.  Left in place, the loop rolls back:
    one schedule with the prefetch point, exact (the grid's one workgroup, late mode); the
    same arithmetic made of an epilogue read's index is refused at it (a fourteenth-sweep
    forced configuration, refused in the late form before)."""
    forms = G.forms(G.matmul_source("i8", 128, 256, 512, transpose_a=True, transpose_b=True,
                                    mma="MFMA_I32_16x16x64_I8", stages=2,
                                    tile=(128, 256, 128), waves=(2, 2)))
    late = forms["late"]
    after = late[late.index("rocdl.wait.asyncmark 0"):]
    extra = re.search(r"(%\d+) = arith\.addi (%\d+), %c16_i32 overflow<nsw> : i32\n", after)
    assert extra and re.search(r"vector\.load [^\n]*\n\s*" + re.escape(extra.group(0)), after)
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    # the same addition of an epilogue read's row index: no longer of values from before
    # the loop, so not left in place
    row = re.search(r"(%\d+):2 = affine\.delinearize_index", after).group(1)
    at = late.index(extra.group(0), len(late) - len(after))
    mutant = late[:at] + f"%moved = arith.index_castui {row}#0 : index to i32\n" + \
        late[at:].replace(f"arith.addi {extra.group(2)},", "arith.addi %moved,", 1)
    err = _refused(tmp_path, mutant, "moved", capsys)
    assert "'arith.index_castui' op (after the prefetch-pipelined loop) is not the body's" \
        in err, err


@needs_iree
def test_a_k_major_guarded_load_s_mask_folded_at_tile_0(tmp_path, capsys):
    """IREE's default build (2 stages) of bf16 ``A^T x B`` 256x65x1884: B's guarded loads
    (``K x N``, N = 65 cut by the tile, K unaligned) mask each row by ``select(the
    thread's K row is inside K, the edge mask, none)`` in the body, where the prologue's
    load of K tile 0, all of whose rows lie inside K, has the edge mask alone (IREE folded
    the select).  The roll-back proves the condition true at tile 0 in every workgroup
    (before: refused in the late form, `its mask is not made by the same ops`, while the
    prefetch point pipelined; a fifteenth-sweep draw of IREE's default build, as 3 more):
    one schedule with the prefetch point, exact in random order.  The condition made false
    at tile 0 is refused at the prologue's load."""
    forms = G.forms(G.matmul_source("bf16", 256, 65, 1884, transpose_a=True,
                                    transpose_b=False), DEFAULT_BUILD)
    late = forms["late"]
    cond = re.search(r"(%\d+) = arith\.cmpi sgt, (%\d+), %c0_i32 : i32\n\s*%\d+ = arith\."
                     r"select \1, (%\d+), %cst_\d+ : vector<4xi1>", late)
    assert cond, "no select of the edge mask by the K row in the body"
    _forms_agree_exact(tmp_path, forms, capsys, "random:5", "--emulate-workgroups=2")
    _false_at_tile_0_refused(tmp_path, late, cond, capsys)


def _false_at_tile_0_refused(tmp_path, late: str, cond, capsys) -> None:
    """The late form ``late`` with the K row's condition ``cond`` (its match: the compare
    and the select of the edge mask) made ``> 1``, false at K tile 0: refused at the
    prologue's load, saying so."""
    mutant = late.replace(cond.group(0), cond.group(0).replace(
        f"{cond.group(2)}, %c0_i32", f"{cond.group(2)}, %c1_i32"), 1)
    err = _refused(tmp_path, mutant, "false", capsys)
    assert re.search(r"its mask is the body's 'arith\.select' at line \d+:\d+ unselected, "
                     r"whose condition is false at K tile 0 \(workgroup 0\)", err), err


@needs_iree
def test_a_constant_edge_mask_selected_by_the_k_row(tmp_path, capsys):
    """IREE's default build (2 stages) of fp8 E5M2 ``A^T x B^T`` 7x20x1906, one workgroup:
    each lane's run of 16 of A (``K x M``) is masked to M's 7 columns and by its K row,
    ``vector.create_mask %rows, %c7`` at the prefetch point; the late form's 1-D lowering
    is ``select(the K row is inside K, vector.constant_mask [7], false)`` in the body,
    the constant mask alone in the prologue (K tile 0, all of whose rows lie inside).  The
    roll-back proves the select's condition true at tile 0; the front end reads the
    constant mask as the create_mask of 7 (``frontend/constant_masks.py``; before, refused
    at the guarded load: a mask that is not a vector.create_mask, while the prefetch point
    pipelined: the seventeenth sweep's finding 29): one schedule from both forms, exact
    in late mode and at random.  The condition made false at tile 0 is refused at the
    prologue's load."""
    forms = G.forms(G.matmul_source("fp8e5m2", 7, 20, 1906, transpose_a=True),
                    DEFAULT_BUILD)
    late = forms["late"]
    fixed = re.search(r"(%\d+) = vector\.constant_mask \[7\] : vector<16xi1>", late)
    cond = re.search(rf"(%\d+) = arith\.cmpi sgt, (%\d+), %c0_i32 : i32\n\s*%\d+ = arith\."
                     rf"select \1, {fixed.group(1)}, %cst_\d+ : vector<16xi1>", late)
    assert fixed and cond, "no select of the constant mask by the K row in the body"
    _one_workgroup_exact(tmp_path, forms, capsys)
    _false_at_tile_0_refused(tmp_path, late, cond, capsys)


@needs_iree
def test_a_half_folded_load_of_rows_past_n_rolled_back_as_a_load(tmp_path, capsys):
    """IREE's default build (2 stages) of fp8 E5M2 ``A^T x B^T`` 5x24x1000, one workgroup:
    B's rows 24 to 31 of the 32-row LDS tile lie past N, and the late form loads them, in
    the body and the prologue, with its guarded load half folded: the masked load at row
    ``%c24`` by the constant false mask, the else region yielding the pass-through alone.
    The roll-back takes it as the load it is (``guarded_load.folded``: its value the
    pass-through on every path, stored to the LDS rows past N as the original stores it;
    before, refused as neither a load of global memory nor free of memory effects, while
    the prefetch point pipelined): one schedule from both forms, exact in late mode and at
    random.  The mask made not all false, or the else region yielding another value, is
    refused at the ``scf.if``."""
    forms = G.forms(G.matmul_source("fp8e5m2", 5, 24, 1000, transpose_a=True),
                    DEFAULT_BUILD)
    late = forms["late"]
    folds = list(re.finditer(
        r"vector\.maskedload %\d+\[%c24, %\d+\], (%cst_\d+), (%cst(?:_\d+)?) \{[^\n]*\n"
        r"\s*scf\.yield %\d+ : [^\n]*\n\s*\} else \{\n\s*scf\.yield (\2) :", late))
    assert len(folds) == 2, "no half-folded load of B's row 24 in the prologue and the body"
    _one_workgroup_exact(tmp_path, forms, capsys)
    body = folds[-1]
    full = re.search(r"(%\d+) = vector\.create_mask %c16 : vector<16xi1>", late).group(1)
    other = re.findall(r"(%\d+) = scf\.if", late[:body.start()])[-2]
    for name, (span, value), why in (
            ("mask", (body.span(1), full), r"the mask of the 'vector\.maskedload' op at "
                                           r"line \d+:\d+ is not the constant false"),
            ("yield", (body.span(3), other), r"its else region, which loads nothing, "
                                             r"yields another value than the pass-through")):
        err = _refused(tmp_path, late[:span[0]] + value + late[span[1]:], name, capsys)
        assert re.search(r":\d+:\d+: error: .*'scf\.if' op \(before the first barrier of "
                         r"a loop pipelined through registers\)", err), err
        assert re.search(why, err), err


@needs_iree
def test_an_unsigned_remainder_of_a_clamped_row_is_compared_as_an_op(tmp_path, capsys):
    """IREE's default build (2 stages) of fp8 ``A x B^T`` 64x44x357: B's rows past N (44)
    are clamped to row 44, and the guard of each lane's run takes ``remui`` of the
    elements left, ``15708 - (row * 357 + col)``, negative there (the guard's ``ult 16``
    is false: well defined modulo 2^64).  The roll-back's comparison of the prologue's
    loads with the body's evaluated it as an exact integer and stopped at the op
    (``'arith.remui' op: negative operand in an unsigned operation``) while the prefetch
    point pipelined (a sixteenth-sweep draw); it is an op of its own now: one schedule
    from both forms, exact in random order."""
    forms = G.forms(G.matmul_source("fp8", 64, 44, 357), DEFAULT_BUILD)
    assert re.search(r"arith\.remui", forms["late"])
    _forms_agree_exact(tmp_path, forms, capsys, "random:5")


@needs_iree
def test_a_copy_past_n_folded_to_a_store_of_zero_rolled_back(tmp_path, capsys):
    """IREE's default build (2 stages) of f16 ``A^T x B^T`` 5x24x1000, one workgroup: B's
    rows 24 to 31 of its 32-row LDS tile lie past N.  At the prefetch point their copy is
    selected by ``row < 24 and the run inside K``, false in every thread at every
    iteration (kept in the copy, ``kept_masks._false_row``; before, refused at the
    select: it pads in thread 0 in iteration 0).  The late form folds that copy whole to
    ``vector.store %zero`` into the flat LDS tile, in the body and the prologue: the
    roll-back takes a store of one constant in both (``_same_constant``), and
    ``pad_stores.py`` makes it the copy again, at the first row past B's end (before,
    refused at the body's store: not of a value the body loads).  One schedule from both
    forms, exact in late mode and at random.  Refused at the op: the prologue storing
    another constant, or elsewhere, than the body; both storing ones (no padding); at the
    prefetch point, the select's row test made ``iv > 0``, true after the first K tile."""
    forms = G.forms(G.matmul_source("f16", 5, 24, 1000, transpose_a=True), DEFAULT_BUILD)
    late, prefetch = forms["late"], forms["prefetch"]
    zero = re.search(r"(%cst_\d+) = arith\.constant dense<0\.000000e\+00> : vector<8xf16>",
                     late).group(1)
    pads = list(re.finditer(rf"vector\.store {zero}, %alloc\[(%\d+)\] : memref<4096xf16",
                            late))
    assert len(pads) == 2, "no store of zero to B's LDS tile in the prologue and the body"
    _one_workgroup_exact(tmp_path, forms, capsys)
    ones = "%ones = arith.constant dense<1.000000e+00> : vector<8xf16>\n"
    pro, body = pads
    line = late.rindex("\n", 0, pro.start()) + 1       # (the prologue's store's line)
    indent = late[line:pro.start()]
    other = re.findall(r"vector\.store %\d+, %alloc\[(%\d+)\] : memref<4096xf16", late)[-1]
    for name, mutant, why in (
            ("other", late[:line] + indent + ones + late[line:pro.end()].replace(
                f"store {zero}", "store %ones") + late[pro.end():],
             r"'vector\.store' op \(an LDS store before a loop pipelined through registers\) "
             r"does not store the constant the body's store at line \d+:\d+ stores"),
            ("place", late[:body.start(1)] + other + late[body.end(1):],
             r"'vector\.store' op \(before the loop pipelined through registers\) is not "
             r"the body's 'vector\.store' op at line \d+:\d+ at K tile 0: its LDS elements "
             r"differ"),
            ("ones", late.replace(f"{zero} = arith.constant", ones + f"{zero} = arith."
                                  f"constant", 1).replace(f"vector.store {zero}, %alloc[",
                                                          "vector.store %ones, %alloc["),
             r"'vector\.store' op has side effects the pipeliner cannot move")):
        err = _refused(tmp_path, mutant, name, capsys)
        assert re.search(r":\d+:\d+: error: .*" + why, err), err
    # the prefetch point: the row test of rows 24 to 31 made `iv > 0`, false at the first
    # K tile only; no copy of rows wholly past N, so left to the K tail's proof
    sel = re.findall(r"(%\d+) = arith\.andi (%\d+), (%\d+) : i1\n(\s*)%\d+ = vector\."
                     r"transfer_read [^\n]*\n\s*%\d+ = arith\.select \1,", prefetch)[-1]
    iv = re.search(r"scf\.for (%arg\d+) = %c0", prefetch).group(1)
    later = prefetch.replace(
        f"{sel[0]} = arith.andi {sel[1]}, {sel[2]} : i1",
        f"%later = arith.cmpi sgt, {iv}, %c0 : index\n{sel[3]}"
        f"{sel[0]} = arith.andi %later, {sel[2]} : i1", 1)
    err = _refused(tmp_path, later, "later", capsys)
    assert re.search(r":\d+:\d+: error: .*'arith\.select' op at line \d+:\d+ pads the loaded "
                     r"value in thread 0 in iteration 0", err), err


@needs_iree
def test_an_unpeeled_k_tail_is_not_where_the_tags_are_checked(tmp_path, capsys):
    """IREE's default build (2 stages) of f16 ``A^T x B^T`` 24x5x1000, one workgroup: its
    K tiles of 256 (two K steps of 128 merged, ``merge_k``) are 4, the loop's two
    iterations, and the last one (K 768 to 1023) is an unpeeled K tail: B's runs past K
    (IREE's subview clamped to K, its read masked by a select) are the front end's copies
    pointed past B's end.  sched-import's tag check evaluated the copies one K step after
    the lower bound and one K tile on, where the ``k1`` loads load that tile and the ``k0``
    loads move onto it, their lanes past K reading zeros there: refused from both forms
    (``its global addresses do not move by one K step``).  The tags are now checked at K
    tiles that are not the loop's last where there are such (``tag_check._first_point``):
    one schedule from both forms, exact in late mode and at random.  Still refused: the
    select of B's runs made true in the tail (a read past K) or IREE's K left made 8 more
    (a run read past K selected), at the adoption; a ``k_offset`` of the adopted loop
    changed, at the tag check."""
    forms = G.forms(G.matmul_source("f16", 24, 5, 1000, transpose_a=True, transpose_b=True),
                    DEFAULT_BUILD)
    _one_workgroup_exact(tmp_path, forms, capsys)
    prefetch = forms["prefetch"]
    run = re.search(r"(%\d+) = arith\.cmpi eq, (%\d+), %c8 : index\n\s*%\d+ = arith\.andi "
                    r"%\d+, \1 : i1\n\s*%\d+ = vector\.transfer_read %subview_\d+\[[^\n]*"
                    r"memref<\?x\?xf16, strided<\[1000, 1\]", prefetch)
    left = "affine_map<(d0) -> (-d0 + 1000, 128)>"
    assert run and left in prefetch, "no select of B's runs by the K left, or no K left"
    for name, mutant in (
            ("select", prefetch.replace(run.group(0), run.group(0).replace(
                f"cmpi eq, {run.group(2)}, %c8", f"cmpi sge, {run.group(2)}, %c0"), 1)),
            ("left", prefetch.replace(left, left.replace("1000", "1008")))):
        err = _refused(tmp_path, mutant, name, capsys)
        assert re.search(r":\d+:\d+: error: sched-adopt-loop: .* at K step 28, LDS element "
                         r"\d+ gets global element 1000 from the kernel's copies and zero "
                         r"from the front end's", err), err
    adopted = _pipelined(prefetch).stages["adopted"]
    k1 = re.search(r'id = (\d+) : i64, k_offset = "k1"', adopted).group(0)
    err = _refused(tmp_path, adopted.replace(k1, k1.replace('"k1"', '"k0"')), "tag", capsys)
    assert re.search(r":\d+:\d+: error: sched-import: '[\w.]+' op is tagged k_offset k0 but "
                     r"moves the K tile k1 relative to the global load", err), err


def test_the_roll_backs_workgroup_evaluators_are_dropped_before_its_rewrite(monkeypatch):
    """The proof that compares the grid's workgroups (``reroll_proof.Workgroups.prove``)
    keeps its evaluators (one per workgroup then, one per chunk of workgroups side by side
    now); each is told of every change to the IR while it lives, and the ``Workgroups`` object, holding the roll-back's ``fail``, lives in a
    reference cycle.  They are dropped once the proofs are done, before the rewrite
    (``release``): IREE's fp8 E5M2 ``A^T x B`` 1817x998x1273 register-copy kernel (3,591
    workgroups, the nineteenth sweep's finding 38) took 82 s to its schedule with them
    kept, 34 s now.  Here the f16 ``A^T x B^T`` 5x24x1000 late form, whose roll-back
    compares its grid four times."""
    import gc

    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.frontend import reroll_proof
    from pipeline_mlir.frontend.reroll_regs import reroll_register_prefetch

    late = G.forms(G.matmul_source("f16", 5, 24, 1000, transpose_a=True, transpose_b=True),
                   DEFAULT_BUILD)["late"]
    grids, prove = [], reroll_proof.Workgroups.prove

    def counted(self, *args):
        grids.append(self)
        prove(self, *args)
    monkeypatch.setattr(reroll_proof.Workgroups, "prove", counted)
    enabled = gc.isenabled()
    gc.disable()                    # (what the cycle keeps, the collector would not free)
    try:
        with new_context():
            module = ir.Module.parse(late)
            reroll_register_prefetch(module.operation)
    finally:
        if enabled:
            gc.enable()
    assert grids and all(g.points is None and not g.wide for g in grids), len(grids)


@needs_iree
def test_the_roll_back_compares_the_grids_workgroups_side_by_side(monkeypatch):
    """Where the forms do not prove a prologue op the body's (the masks of an unaligned
    ``A^T x B``'s register copies, clamped per workgroup), the roll-back compares the grid's
    workgroups side by side in one evaluator (``Workgroups.prove``; 512 at a time, 64
    before), not one evaluator each: the fp8 E5M2 1817x998x1273 kernel of finding 38 (3,591
    workgroups) spent 26 of its 61 s (profiled) there, 1.1 s then.  So a grid of up to 262144
    workgroups is compared (65536 before), as the front end's other proofs over the grid do,
    where 4096 was the most: IREE's 1817x1998x300 (7,125 workgroups along x), which pipelined
    from its prefetch point, was refused from its late form ("too large to compare each");
    now rolled back, in 14 chunks and no one-workgroup evaluator, the chunks' evaluators
    kept from one proof to the next up to ``KEPT_LANES`` lanes (all of them kept, the i8
    ``A^T x B`` 5865x7364x5973 kernel's 3.4 GB)."""
    from pipeline_mlir.analysis import loop_eval
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.frontend import reroll_proof
    from pipeline_mlir.frontend.reroll_regs import reroll_register_prefetch

    late = G.forms(G.matmul_source("fp8e5m2", 1817, 1998, 300, transpose_a=True,
                                   transpose_b=False),
                   DEFAULT_BUILD + ("--iree-llvmgpu-use-direct-load=false",))["late"]
    made, init = [], loop_eval.Evaluator.__init__
    proofs, prove = [], reroll_proof.Workgroups.prove

    def counted(self, *args, **kwargs):
        made.append((type(self).__name__, kwargs.get("launch_values", True)))
        init(self, *args, **kwargs)

    def proving(self, *args):
        prove(self, *args)
        proofs.append((len(self.points[3]), sorted(self.wide), math.prod(self.block)))
    monkeypatch.setattr(loop_eval.Evaluator, "__init__", counted)
    monkeypatch.setattr(reroll_proof.Workgroups, "prove", proving)
    # (a cap below the grid's lanes: the first chunks' evaluators kept, the others made again)
    monkeypatch.setattr(reroll_proof, "KEPT_LANES", 1 << 17)
    with new_context():
        module = ir.Module.parse(late)
        reroll_register_prefetch(module.operation)
    chunk, most = reroll_proof.CHUNK, reroll_proof.KEPT_LANES
    assert proofs and all(
        p[:2] == (7125, [s for s in range(0, 7125, chunk)
                         if min(s + chunk, 7125) * p[2] <= most]) for p in proofs), proofs
    assert 0 < len(proofs[0][1]) < -(-7125 // chunk), proofs     # (some kept, not all)
    assert ("Evaluator", False) not in made, made.count(("Evaluator", False))


@needs_iree
@pytest.mark.long("test_the_roll_back_compares_the_grids_workgroups_side_by_side rolls the "
                  "same late form back in the default run")
def test_a_grid_of_7125_workgroups_pipelines_from_both_forms_alike(tmp_path, capsys):
    """IREE's fp8 E5M2 ``A^T x B`` 1817x1998x300 register-copy kernel, 7,125 workgroups: one
    schedule from both forms (the late form was refused before), and its late form exact
    on the emulator (late mode, its first and last workgroup)."""
    forms = G.forms(G.matmul_source("fp8e5m2", 1817, 1998, 300, transpose_a=True,
                                    transpose_b=False),
                    DEFAULT_BUILD + ("--iree-llvmgpu-use-direct-load=false",))
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=2")


@needs_iree
@pytest.mark.long("test/lit/passes/sched-normalize-producers.mlir's @folded_guard rolls the "
                  "same prologue back (and Inputs/reroll-regs-errors.mlir refuses its mutants) "
                  "in the default run")
def test_a_guarded_load_folded_at_a_false_guard_before_the_loop(tmp_path, capsys):
    """IREE's f32 ``A^T x B^T`` 131x1460x65 with 2 stages (the fortieth sweep's finding 110):
    B's body load is IREE's guarded load on the constant false, its mask ``select(row inside
    N, the K run's mask, none)``; before the loop IREE kept only its else region, the mask
    the broadcast of the row's condition.  One schedule from both forms, the late form exact
    (late mode, 3 of its 108 workgroups, the last among them); before, the late form was
    refused (``... does not store a value loaded before the loop, its only use``)."""
    forms = G.forms(G.matmul_source("f32", 131, 1460, 65, transpose_a=True),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    assert re.search(r"= arith\.select %\w+, %\w+, %\w+ : vector<4xi1>, vector<4xf32>\n *"
                     r"%\w+ = memref\.alloca", forms["late"]), \
        "IREE no longer folds the prologue's guarded load of B to its else region"
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=3")


@needs_iree
@pytest.mark.long("test/lit/passes/sched-normalize-producers.mlir's @folded_select rolls the "
                  "same prologue back (and Inputs/reroll-regs-errors.mlir refuses its mutant) "
                  "in the default run")
def test_a_guarded_load_whose_select_folded_before_the_loop(tmp_path, capsys):
    """IREE's f32 ``A^T x B^T`` 226x1741x202 with 2 stages (the forty-second sweep's finding
    124): before the loop IREE kept B's guarded load on the constant false with its mask
    true in every lane (``dense<true>``), and folded its else region's select by it to the
    load alone.  One schedule from both forms, the late form exact (late mode, 3 of its 210
    workgroups, the last among them); before, the late form was refused (``... does not
    store a value loaded before the loop, its only use``)."""
    forms = G.forms(G.matmul_source("f32", 226, 1741, 202, transpose_a=True),
                    ("--iree-llvmgpu-prefetch-num-stages=2",))
    assert re.search(r"vector\.maskedload [^\n]*, %cst\w*, %cst\w* \{[^\n]*\n *scf\.yield "
                     r"[^\n]*\n *\} else \{\n *%\w+ = vector\.load [^\n]*\n *scf\.yield",
                     forms["late"]), "IREE no longer folds the prologue's select of B's load"
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=3")
