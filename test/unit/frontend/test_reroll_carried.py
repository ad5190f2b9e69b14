"""IREE's 3-stage prefetch pipelining of copies through registers brought to its 2-stage form
(``pipeline_mlir/frontend/reroll_carried.py``) and rolled back: the late form of f16
``A^T x B`` 133x42x198 built with ``--iree-llvmgpu-prefetch-num-stages=3`` (K tile 1 loaded
before the loop and carried, the body storing the carried tile and loading two ahead, an
epilogue of two tiles) gives the schedule of its prefetch point and is exact on the emulator
(the configuration tests run it and f16 ``A^T x B^T`` 309x255x2024, whose B stores are
padded by a select); before, refused (``'vector.store' op has side effects the pipeliner
cannot move``).  Each property the rewrite relies on, broken in that late form, is refused
at the op with the reason, never a traceback."""

from __future__ import annotations

import re

import pytest

from build_cache import share_code_objects
from iree_configs import G
from kernel_builds import gated_build
from pipeline_mlir.tools.pipeline_opt import main

STAGES_3 = ("--iree-llvmgpu-prefetch-num-stages=3",)


@pytest.fixture(scope="module")
def forms():
    return G.forms(G.matmul_source("f16", 133, 42, 198, transpose_a=True,
                                   transpose_b=False), STAGES_3)


def _run(tmp_path, text: str, name: str, capsys, *args) -> tuple[int, str, str]:
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    rc = main(["--pipeline=4wave", str(path), *(args or ("--emit=schedule-json",))])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return rc, out, err


def _refused(tmp_path, text: str, name: str, capsys) -> str:
    rc, out, err = _run(tmp_path, text, name, capsys)
    assert rc == 1 and re.search(rf"{name}\.mlir:\d+:\d+: error: ", err), out + err
    return err


def test_the_3_stage_late_form_gives_the_prefetch_points_schedule(forms, tmp_path, capsys):
    late = forms["late"]
    loop = re.search(r"scf\.for %arg0 = %c0_i32 to %c(\d+)_i32 step %c1_i32 iter_args"
                     r"\(%arg1 = %cst_\d+, %arg2 = %\d+, %arg3 = %\d+\)", late)
    assert loop and "arith.addi %arg0, %c2_i32" in late, late     # IREE's 3-stage form
    rc, prefetch, err = _run(tmp_path, forms["prefetch"], "prefetch", capsys)
    assert rc == 0, err
    rc, rolled, err = _run(tmp_path, late, "late", capsys)
    assert rc == 0 and rolled == prefetch, err


def _rolled_back_exact(tmp_path, forms: dict, capsys, workgroups: int = 1) -> None:
    """The late form gives the prefetch point's schedule and is exact on the emulator
    (late mode, its first ``workgroups``): its schedule is that of its build under the gate
    (``kernel_builds.gated_build``, ``--emit=schedule-json``'s text kept on the way), whose
    code object ``--emulate`` runs."""
    rc, prefetch, err = _run(tmp_path, forms["prefetch"], "prefetch", capsys)
    assert rc == 0, err
    (tmp_path / "late.mlir").write_text(forms["late"])
    _built, _options, rolled = gated_build(tmp_path / "late.mlir")
    assert rolled == prefetch
    with share_code_objects():
        rc, out, err = _run(tmp_path, forms["late"], "late", capsys, "--emulate",
                            "--emulate-mode=late", f"--emulate-workgroups={workgroups}",
                            "--emulate-jobs=1")
    assert rc == 0 and ": exact, max error 0" in out, out + err


def _mutant(late: str, old: str, new: str, count: int = 1) -> str:
    assert late.count(old) >= count, old
    return late.replace(old, new, count)


def test_each_property_broken_is_refused_at_the_op(forms, tmp_path, capsys):
    late = forms["late"]
    # the body loads the tile one ahead, not two: what it carries is not what it loads
    err = _refused(tmp_path, _mutant(late, "arith.addi %arg0, %c2_i32", "arith.addi %arg0, "
                                     "%c1_i32"), "ahead", capsys)
    assert "uses its induction variable other than once, as iv + 2" in err, err
    # the loop carries in K tile 0's load instead of K tile 1's
    loop = re.search(r"iter_args\(%arg1 = (%cst_\d+), %arg2 = (%\d+), %arg3 = (%\d+)\)", late)
    stores = re.findall(r"vector\.store (%\d+), %alloc(?:_\d+)?\[", late)
    err = _refused(tmp_path, _mutant(late, f"%arg2 = {loop.group(2)},",
                                     f"%arg2 = {stores[0]},"), "tile0", capsys)
    assert "carries iter_arg #1 in from a value that is not a load of global memory before " \
           "the loop, its only use" in err, err
    # the two carried tiles swapped: each stored into the other operand's LDS
    err = _refused(tmp_path, _mutant(late, f"%arg2 = {loop.group(2)}, %arg3 = {loop.group(3)}",
                                     f"%arg2 = {loop.group(3)}, %arg3 = {loop.group(2)}"),
                   "swapped", capsys)
    assert "differs from the body's 'scf.if' op" in err, err
    # A's carried tile loaded from K tile 0's rows (the same ops and types): its elements
    # differ from the body's load at K tile 1
    tile1 = re.search(rf"{loop.group(2)} = scf\.if .*?\n          }}\n", late, re.S).group(0)
    row1 = re.search(r"vector\.maskedload (%\d+)\[(%\d+), ", tile1)
    row0 = re.search(rf"vector\.maskedload {row1.group(1)}\[(%\d+), ", late)
    assert row0.group(1) != row1.group(2)
    # (from its guard's address on: the guard is computed from the same row)
    end = late.index(tile1) + len(tile1)
    start = late.rindex("\n", 0, late.rindex(f"[{row1.group(2)}, ", 0, late.index(tile1)))
    region = late[start:end]
    moved = region.replace(f"[{row1.group(2)}, ", f"[{row0.group(1)}, ")
    err = _refused(tmp_path, _mutant(late, region, moved), "rows", capsys)
    assert re.search(r"is not the body's 'scf\.if' op at line \d+:\d+ at K tile 1: its "
                     r"global elements differ", err), err
    # the epilogue stores the carried tile of A into B's LDS
    epi = re.search(r"vector\.store %\d+#1, (%alloc(?:_\d+)?)\[", late)
    err = _refused(tmp_path, _mutant(late, epi.group(0), epi.group(0).replace(
        epi.group(1), "%alloc_2" if epi.group(1) == "%alloc" else "%alloc")), "epistore",
        capsys)
    assert "storing the last tile" in err, err
    # the epilogue's first barrier gone
    after = late.index("scf.yield", late.index("arith.addi %arg0, %c2_i32"))
    barrier = late.index("gpu.barrier", after)
    line_end = late.index("\n", barrier)
    err = _refused(tmp_path, late[:barrier] + "// " + late[barrier:line_end] +
                   late[line_end:], "nobarrier", capsys)
    assert "is not IREE's epilogue" in err, err
    # the carried tile also stored before the second barrier, racing the reads of the LDS:
    # not IREE's form (the loop is then the front end's to judge, which refuses the store)
    err = _refused(tmp_path, late.replace(
        "gpu.barrier memfence [#gpu.address_space<workgroup>]\n            amdgpu.sched_barrier",
        "vector.store %arg2, %alloc_2[%c0, %c0] : memref<32x20xf16, "
        "#gpu.address_space<workgroup>>, vector<8xf16>\n            gpu.barrier memfence "
        "[#gpu.address_space<workgroup>]\n            amdgpu.sched_barrier", 1), "twice",
        capsys)
    assert "'vector.store' op has side effects the pipeliner cannot move" in err, err


def test_a_prologue_that_pads_the_tile_it_stores(tmp_path, capsys):
    """fp8 ``A x B^T`` 338x28x288 in 3 stages: the prologue stores K tile 0 padded by a
    select, as the body pads the carried tile (a form the first recogniser missed: it asked
    for a prologue store of a load itself, and the late form was refused at the body's
    store); its late form gives the prefetch point's schedule and is exact."""
    forms = G.forms(G.matmul_source("fp8", 338, 28, 288), STAGES_3)
    assert re.search(r"(%\d+) = arith\.select %\d+, %\d+, %cst_\d+ : vector<8xf8E4M3FN>\n"
                     r"(?:.*\n)*?\s*vector\.store \1, %alloc", forms["late"])
    _rolled_back_exact(tmp_path, forms, capsys, workgroups=2)


def test_a_carried_k_row_test(tmp_path, capsys):
    """f16 ``A^T x B`` 96x29x2858 in 3 stages (K step 64, two MFMAs deep): the loop also
    carries, for the tile it carries, whether its K rows lie inside K (an index, 1 before
    the loop), which pads A's store: the padding's condition is that carried integer, not
    a value from before the loop (refused as such before).  Its initial value is proven the
    body's for K tile 1, and the late form gives the prefetch point's schedule, exact; with
    it started at 0 (tile 1 padded away) the loop is refused at the op."""
    forms = G.forms(G.matmul_source("f16", 96, 29, 2858, transpose_a=True,
                                    transpose_b=False), STAGES_3)
    late = forms["late"]
    head = re.search(r"iter_args\(%arg1 = %cst_\d+, %arg2 = (%c1), %arg3 = %\d+", late)
    assert head and re.search(r"arith\.index_castui %arg2 : index to i1", late), late
    _rolled_back_exact(tmp_path, forms, capsys)
    mutant = late.replace(head.group(0), head.group(0).replace("%arg2 = %c1", "%arg2 = %c0"))
    err = _refused(tmp_path, mutant, "start0", capsys)
    assert "carries iter_arg #1 in as a value the body does not compute for K tile 1 " \
           "(workgroup 0)" in err, err
    # an op after the stores using a value made between the barriers (the padding
    # select's condition): the ops after the stores move above them, so it is refused
    cond = re.search(r"(%\d+) = arith\.index_castui %arg2 : index to i1", late).group(1)
    store = re.search(r"\n( *)vector\.store %arg4, [^\n]*\n", late)
    mutant = late.replace(store.group(0), store.group(0) +
                          f"{store.group(1)}%late_use = arith.andi {cond}, {cond} : i1\n", 1)
    err = _refused(tmp_path, mutant, "lateuse", capsys)
    assert "(after the stores of a loop pipelined through registers in 3 stages) uses a " \
           "value of the loop's reads and MFMAs or a carried value" in err, err


def test_a_padding_select_left_after_the_barrier(tmp_path, capsys):
    """fp8 ``A x B^T`` 343x38x1216 in 3 stages: one of B's stores is padded by a select IREE
    left after the second barrier, between the stores (taken for a load of the tile two
    ahead, which reads a carried value, and refused); it stays with its store, its
    epilogue twin held op for op.  The late form gives the prefetch point's schedule and is
    exact; the epilogue's select padding another tile is refused at it."""
    forms = G.forms(G.matmul_source("fp8", 343, 38, 1216), STAGES_3)
    late = forms["late"]
    tail = re.search(r"amdgpu\.sched_barrier allow = none\n *vector\.store %arg\d+, [^\n]*\n"
                     r" *(%\d+) = arith\.select (%\d+), %arg(\d+), (%cst_\d+)", late)
    assert tail, late
    _rolled_back_exact(tmp_path, forms, capsys)
    # the epilogue's twin of that select pads the carried tile of A (result #2) instead
    arg = int(tail.group(3))
    epi = re.search(rf"(%\d+) = arith\.select {tail.group(2)}, (%\d+)#{arg - 1}, "
                    rf"{tail.group(4)}", late)
    assert epi, late
    mutant = late.replace(epi.group(0), epi.group(0).replace(f"#{arg - 1},", f"#{arg - 2},"))
    err = _refused(tmp_path, mutant, "epipad", capsys)
    assert "is not the body's 'arith.select' op" in err and "storing the last tile" in err, err


def test_conditions_computed_among_the_stores_and_an_unread_carried_value(tmp_path, capsys):
    """f16 ``A x B`` 649x736x4767 built with 4 stages: the condition padding one of B's
    stores is computed among the stores, after the second barrier, from a carried K-row
    integer, and the loop also carries a constant it never reads (yielding its initial
    value): both taken, the late form gives the prefetch point's schedule and is exact.
    That constant yielded as another value is refused at the loop."""
    forms = G.forms(G.matmul_source("f16", 649, 736, 4767, transpose_b=False),
                    ("--iree-llvmgpu-prefetch-num-stages=4",))
    late = forms["late"]
    unread = re.search(r"%arg(\d+) = (%c1), %arg\d+ = %\d+, %arg\d+ = %c1,", late)
    assert unread and re.search(r"arith\.index_castui %arg\d+ : index to i1\n *%\d+ = "
                                r"arith\.andi", late), late
    _rolled_back_exact(tmp_path, forms, capsys)
    yields = re.search(r"scf\.yield (?:%\d+, ){8}%\d+, (%c1), ", late)
    assert yields, late
    assert "%c0 = arith.constant 0 : index" in late
    mutant = late.replace(yields.group(0), yields.group(0).replace(", %c1, ", ", %c0, "), 1)
    err = _refused(tmp_path, mutant, "unread", capsys)
    assert f"carries iter_arg #{int(unread.group(1)) - 1}, which is neither a tile it " \
           f"stores nor an accumulator" in err, err
