"""The front end's own copies proven in every workgroup (``pipeline_mlir/frontend/every_workgroup.py``).

IREE's bf16 ``A x B^T`` 300x500x200 kernel (the front end distributes A's copies itself;
a 3x2 grid at the prefetch point, 6 workgroups in the late form) with A's two copies'
global rows swapped, their LDS rows kept, in workgroups the sampled check
(``edges.sample_ids``: every id 0, 1, 2 and the last of each bound) never visits: the
prefetch point's where the ``scf.forall``'s two variables differ, the late form's workgroup
3.  Before this check both were pipelined with exit 0 and came out WRONG against their own
unpipelined builds on the emulator (``test/data/iree/mutants.py``'s verdict, late mode, at
workgroups (0, 0), (0, 1) and 0, 3: 16315 and 15544 elements of C differ); now each is
refused at the copy, naming the mutant's ``select``, the workgroup and the LDS element.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cli_helpers import refusal
from pipeline_mlir.frontend import grid_eval as GE

DATA = Path(__file__).resolve().parents[2] / "data" / "iree"
sys.path.insert(0, str(DATA))
import generate as G  # noqa: E402


def _odd(form: str) -> str:
    """IREE's 300x500x200 kernel (``form``), the build of ``iree_configs``' configuration
    of those sizes (one ``iree-compile`` run per test run)."""
    return G.forms(G.matmul_source(dtype="bf16", m=300, n=500, k=200), ())[form]


def _edit(text: str, edits: list) -> str:
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _late_swapped(text: str) -> str:
    """A's copies' global rows swapped in workgroup 3 (``%104``, ``%108``)."""
    anchor = "          %108 = arith.index_castui %107 : i32 to index\n"
    swap = ("          %c3x = arith.constant 3 : index\n"
            "          %m3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
            "          %r1 = arith.select %m3, %108, %104 : index\n"
            "          %r2 = arith.select %m3, %104, %108 : index\n")
    return _edit(text, [(anchor, anchor + swap),
                        ("gather_to_lds %2[%104, %308]", "gather_to_lds %2[%r1, %308]"),
                        ("gather_to_lds %2[%108, %310]", "gather_to_lds %2[%r2, %310]")])


def _prefetch_swapped(text: str) -> str:
    """A's copies' global rows swapped where the ``scf.forall``'s variables differ."""
    anchor = "            %43 = arith.select %42, %c300, %41#0 : index\n"
    swap = ("            %mz = arith.cmpi ne, %arg0, %arg1 : index\n"
            "            %r1 = arith.select %mz, %43, %39 : index\n"
            "            %r2 = arith.select %mz, %39, %43 : index\n")
    return _edit(text, [(anchor, anchor + swap),
                        ("gather_to_lds %subview_11[%39, %37#1]",
                         "gather_to_lds %subview_11[%r1, %37#1]"),
                        ("gather_to_lds %subview_11[%43, %41#1]",
                         "gather_to_lds %subview_11[%r2, %41#1]")])


def _line(text: str, what: str) -> int:
    return next(i for i, x in enumerate(text.splitlines(), 1) if what in x)


def _refusal(tmp_path, capsys, text: str) -> str:
    return refusal(capsys, tmp_path, text)


@pytest.mark.parametrize("form,mutate,workgroup", [
    ("late", _late_swapped, "(3,)"), ("prefetch", _prefetch_swapped, "(0, 1)")])
def test_a_copy_moving_otherwise_in_an_unsampled_workgroup_is_refused(tmp_path, capsys, form,
                                                                      mutate, workgroup):
    text = mutate(_odd(form))
    err = _refusal(tmp_path, capsys, text)
    line = _line(text, "%r2 = arith.select")    # the second copy's: LDS row 16
    assert ("channel A's copies do not move as one block from one workgroup to another (its "
            "global index mixes the workgroup with the thread or the K-loop otherwise than as "
            f"an offset ('arith.select' op at line {line}:") in err, err
    assert (f"in workgroup {workgroup} at the loop's first K step, LDS element 128 gets global "
            f"element 25600 from the kernel's copies and 32000 from the front end's") in err, err


def test_a_grid_with_no_bound_is_not_evaluated(tmp_path, capsys):
    """IREE's late form with its workgroup id's ``upper_bound`` dropped: its row masks mix
    the workgroup with the thread (``arith.minui`` of the wave's first row and the tile's
    rows), and there is no grid to evaluate them over."""
    text = _edit(_odd("late"), [("hal.interface.workgroup.id[0] upper_bound 6 : index",
                                 "hal.interface.workgroup.id[0] : index")])
    err = _refusal(tmp_path, capsys, text)
    assert ("channel A's copies: its global index mixes the workgroup with the thread or the "
            "K-loop otherwise than as an offset ('arith.minui' op at line "
            f"{_line(text, '= arith.minui %17, %86')}:") in err, err
    assert ("are proven by evaluating every workgroup, and the grid has no static bound"
            in err), err


def test_only_a_copy_index_that_mixes_is_evaluated():
    """``mixing_op``: IREE's 4096 kernel's copies move with the workgroup as an offset (no
    evaluation needed); the 300x500x200 kernel's first copy of A mixes them in a clamp of
    the wave's first row to the tile's rows (late form: ``arith.minui``)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
    from pipeline_mlir.frontend.every_workgroup import mixing_op
    from pipeline_mlir.frontend.kernel_ir import describe

    texts = [(DATA / "matmul_bf16_abt_4096.late.mlir").read_text(), _odd("late")]
    for text, want in zip(texts, (None, _line(texts[1], "= arith.minui %17, %86"))):
        with new_context() as ctx:
            module = ir.Module.parse(text, ctx)
            ops = [as_operation(o) for o in walk_ops(
                module.operation, lambda o: o.name == "amdgpu.gather_to_lds")]
            copies = [SimpleNamespace(src=o.operands[0], src_indices=list(o.operands[1:3]))
                      for o in ops]
            scan = SimpleNamespace(loop=as_operation(ops[0].parent), copies=copies)
            got = mixing_op(scan, list(range(len(copies))))
            assert (got if want is None else describe(got)) == \
                (None if want is None else f"'arith.minui' op at line {want}:17"), got


VIEWED = """func.func @f(%buf: memref<4096xbf16>) {{
  %wg = gpu.block_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = memref.reinterpret_cast %buf to offset: [{offset}], sizes: [64], strides: [1]
      : memref<4096xbf16> to memref<64xbf16, strided<[1], offset: ?>>
  scf.for %i = %c0 to %c4 step %c1 {{
    %t = gpu.thread_id x upper_bound 64
    %x = arith.addi %t, %i : index
  }}
  return
}}"""


@pytest.mark.parametrize("offset,mixes", [("%wg", True), ("%c4", False)])
def test_a_view_not_followed_that_moves_with_the_workgroup_mixes(offset, mixes):
    """A copy's source viewed through an op whose indices are not followed (a
    ``memref.reinterpret_cast``) at an offset of the workgroup id: the view counts as
    mixing (the whole grid is evaluated), at a constant offset it does not."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
    from pipeline_mlir.frontend.every_workgroup import mixing_op

    with new_context() as ctx:
        module = ir.Module.parse(VIEWED.format(offset=offset), ctx)
        (view,) = walk_ops(module.operation, lambda o: o.name == "memref.reinterpret_cast")
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        (add,) = walk_ops(module.operation, lambda o: o.name == "arith.addi")
        copy = SimpleNamespace(src=as_operation(view).results[0], src_indices=[add.results[0]])
        got = mixing_op(SimpleNamespace(loop=as_operation(loop), copies=[copy]), [0])
        assert (got is not None and got.name == "memref.reinterpret_cast") if mixes \
            else got is None, got


def _grid_stride(text: str, by: str | None = None) -> str:
    """The late form's body inside a loop over workgroups (IREE's linearised one: from the
    workgroup id to 6 in steps of the workgroup count), the id read through its variable;
    ``by``: A's copies swapped where ``by`` (the id itself, or the variable) is 3."""
    lines = text.split("\n")
    i = next(k for k, x in enumerate(lines) if "%workgroup_id_x = hal.interface.workgroup" in x)
    r = next(k for k in range(i, len(lines)) if lines[k].strip() == "return")
    body = ["  " + x.replace("%workgroup_id_x", "%wv") for x in lines[i + 1:r]]
    text = "\n".join(lines[:i + 1] + [
        "          %wgc = hal.interface.workgroup.count[0] upper_bound 6 : index",
        "          %c6l = arith.constant 6 : index",
        "          scf.for %wv = %workgroup_id_x to %c6l step %wgc {"] + body +
        ["          }"] + lines[r:])
    if by is None:
        return text
    anchor = "            %108 = arith.index_castui %107 : i32 to index\n"
    swap = ("            %c3x = arith.constant 3 : index\n"
            f"            %m3 = arith.cmpi eq, {by}, %c3x : index\n"
            "            %r1 = arith.select %m3, %108, %104 : index\n"
            "            %r2 = arith.select %m3, %104, %108 : index\n")
    return _edit(text, [(anchor, anchor + swap),
                        ("gather_to_lds %2[%104, %308]", "gather_to_lds %2[%r1, %308]"),
                        ("gather_to_lds %2[%108, %310]", "gather_to_lds %2[%r2, %310]")])


def test_a_loop_over_workgroups_is_evaluated_per_iteration(tmp_path, capsys):
    """In a loop over workgroups the evaluation binds its variable per workgroup: A's
    copies swapped where the variable is 3 are refused at that workgroup; swapped where the
    workgroup id itself is 3 (a workgroup of a smaller launch runs several iterations, each
    with its own variable and the one id), refused for reading the id inside the loop.
    (IREE's late form so wrapped, unmutated, is taken: run by hand.)"""
    err = _refusal(tmp_path, capsys, _grid_stride(_odd("late"), "%wv"))
    assert "in workgroup (3,) at the loop's first K step, LDS element 128 gets" in err, err
    text = _grid_stride(_odd("late"), "%workgroup_id_x")
    err = _refusal(tmp_path, capsys, text)
    assert ("and an index of 'amdgpu.gather_to_lds' op at line "
            f"{_line(text, 'gather_to_lds %2[%r1')}:15 reads the workgroup id inside the loop "
            "over workgroups, where a workgroup may run several of its iterations") in err, err


def _middle_k_swapped(text: str, workgroup: bool) -> str:
    """A's copies' global rows swapped at the loop's 8th K step alone (``%arg0 == 7``), in
    workgroup 3 alone or (``workgroup`` False) in every workgroup: no first or last K step
    shows it."""
    anchor = "            %308 = arith.index_castui %307 : i32 to index\n"
    cond = ("            %c7k = arith.constant 7 : i32\n"
            "            %k7 = arith.cmpi eq, %arg0, %c7k : i32\n")
    cond += ("            %c3x = arith.constant 3 : index\n"
             "            %w3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
             "            %m3 = arith.andi %k7, %w3 : i1\n") if workgroup else \
        "            %m3 = arith.andi %k7, %k7 : i1\n"
    swap = cond + ("            %r1 = arith.select %m3, %108, %104 : index\n"
                   "            %r2 = arith.select %m3, %104, %108 : index\n")
    return _edit(text, [(anchor, anchor + swap),
                        ("gather_to_lds %2[%104, %308]", "gather_to_lds %2[%r1, %308]"),
                        ("gather_to_lds %2[%108, %310]", "gather_to_lds %2[%r2, %310]")])


@pytest.mark.parametrize("workgroup,wid", [(True, "(3,)"), (False, "(0,)")])
def test_a_copy_moving_otherwise_at_a_middle_k_step_is_refused(tmp_path, capsys, workgroup,
                                                               wid):
    """IREE's 300x500x200 late form (25 K steps) with A's copies swapped at the 8th K step
    only, in workgroup 3 or in all: compared at the first and last K step only, both were
    pipelined with exit 0 and WRONG against their unpipelined builds on the emulator
    (mutants.verdict, late mode, workgroups 0 and 3: 30378 elements of C differ with the
    workgroup's condition, 62244 without); every K step of a constant trip count is now
    compared."""
    err = _refusal(tmp_path, capsys, _middle_k_swapped(_odd("late"), workgroup))
    assert (f"in workgroup {wid} at the loop's 8th K step, LDS element 128 gets global "
            f"element") in err, err


def _wrapped_swapped(text: str) -> str:
    """A's copies' global rows swapped in workgroup 3 and moved 2^28 rows on (2^28 * 200
    bf16 elements: 2^34 bytes, which a buffer load's 32-bit offset wraps back onto the same
    rows): both the kernel's and the front end's elements lie past the buffer's end."""
    anchor = "          %108 = arith.index_castui %107 : i32 to index\n"
    swap = ("          %c3x = arith.constant 3 : index\n"
            "          %cD = arith.constant 268435456 : index\n"
            "          %m3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
            "          %d = arith.select %m3, %cD, %c0 : index\n"
            "          %s1 = arith.select %m3, %108, %104 : index\n"
            "          %s2 = arith.select %m3, %104, %108 : index\n"
            "          %r1 = arith.addi %s1, %d : index\n"
            "          %r2 = arith.addi %s2, %d : index\n")
    return _edit(text, [(anchor, anchor + swap),
                        ("gather_to_lds %2[%104, %308]", "gather_to_lds %2[%r1, %308]"),
                        ("gather_to_lds %2[%108, %310]", "gather_to_lds %2[%r2, %310]")])


def test_elements_past_the_offset_a_load_reaches_are_not_zeros(tmp_path, capsys):
    """Two elements past the buffer's end count as one (a read of zeros) only within a
    buffer load's 32-bit offset: IREE's 300x500x200 late form with A's copies swapped in
    workgroup 3 and moved 2^28 rows past the end (``_wrapped_swapped``) was pipelined with
    exit 0 and WRONG against its unpipelined build (mutants.verdict, late mode, workgroups
    0 and 3: 15544 elements of C differ; the offsets wrap onto the swapped rows).  An
    element past the reach is refused even where both agree (LDS element 0 here):
    ``_far_rows``."""
    err = _refusal(tmp_path, capsys, _wrapped_swapped(_odd("late")))
    assert ("in workgroup (3,) at the loop's first K step, LDS element 0 gets global "
            "element 53687120000 from the kernel's copies, past the 1073741824 a buffer "
            "load's 32-bit offset reaches") in err, err


def _wrapping(text: str) -> str:
    """IREE's bf16 ``A x B`` 1024x1024x512 late form with 2^31 - 160 added to the
    workgroup's part of A's rows (``%399``, an i32) in workgroup 20 alone: each row is still
    that part plus the thread's, but the 32-bit sum wraps for some of its lanes."""
    anchor = "          %400 = arith.addi %398, %399 : i32\n"
    ins = ("          %c20w = arith.constant 20 : i32\n"
           "          %cC = arith.constant 2147483488 : i32\n"
           "          %c0w = arith.constant 0 : i32\n"
           "          %m20 = arith.cmpi eq, %395, %c20w : i32\n"
           "          %dC = arith.select %m20, %cC, %c0w : i32\n"
           "          %w399 = arith.addi %399, %dC : i32\n")
    return _edit(text, [(anchor, ins + "          %400 = arith.addi %398, %w399 : i32\n"),
                        ("          %403 = arith.addi %402, %399 : i32\n",
                         "          %403 = arith.addi %402, %w399 : i32\n")])


@pytest.mark.parametrize("unsigned", [False, True])
def test_a_sum_that_wraps_in_one_workgroup_is_evaluated(tmp_path, capsys, unsigned):
    """``_wrapping``: every index is the workgroup's part plus the rest and workgroup 0's
    copies read the front end's elements, yet in workgroup 20 (no sampled one) the i32 sum
    wraps: pipelined with exit 0 before and WRONG against its unpipelined build
    (mutants.verdict, late mode, workgroups 0 and 20: 4075 elements of C differ).  Its
    rows, cast signed to ``index``, lie before A's start there: every workgroup's reads
    (``check_every_read``'s rule, checked by the evaluation that compares the front end's
    own copies with them, which stands for that check's) refuse it first.  Cast unsigned (``unsigned``) they lie past its
    end, which only workgroup 0 may not read; there such a sum's range is bounded over the
    grid and, where it may wrap, every workgroup is evaluated."""
    text = _wrapping(G.forms(G.matmul_source(dtype="bf16", m=1024, n=1024, k=512,
                                             transpose_b=False), ())["late"])
    if unsigned:
        text = _edit(text, [(f"%{v} = arith.index_cast %{v - 1} : i32 to index",
                             f"%{v} = arith.index_castui %{v - 1} : i32 to index")
                            for v in (401, 404)])
    err = _refusal(tmp_path, capsys, text)
    assert ("a sum of the workgroup's part and the rest in its global index may wrap at its "
            f"width in some workgroup ('arith.addi' op at line "
            f"{_line(text, '%400 = arith.addi %398, %w399')}:" in err) == unsigned, err
    assert ("before the buffer's start); the pipeliner needs the copies' reads in bounds in "
            "every workgroup" in err) != unsigned, err
    assert "in workgroup (20,) at the loop's first K step" in err, err


def _far_rows(text: str, every: bool = False) -> str:
    """IREE's bf16 ``A x B`` 1024x1024x512 late form with 2^31 - 160 rows added to A's rows
    (``%401``, ``%404``: index, 64 bits; with ``every``, ``%407`` and ``%410`` too: all four
    copies, so the whole block moves) in workgroup 20 alone: every index is still the
    workgroup's part plus the rest, and no sum wraps at its width, but the elements lie
    past what a buffer load's 32-bit offset reaches (2^30 bf16 elements)."""
    rows = (401, 404, 407, 410) if every else (401, 404)
    anchor = "          %410 = arith.index_cast %409 : i32 to index\n"
    ins = ("          %c20w = arith.constant 20 : index\n"
           "          %cFar = arith.constant 2147483488 : index\n"
           "          %c0w = arith.constant 0 : index\n"
           "          %m20 = arith.cmpi eq, %workgroup_id_x, %c20w : index\n"
           "          %dF = arith.select %m20, %cFar, %c0w : index\n") + \
        "".join(f"          %w{r} = arith.addi %{r}, %dF : index\n" for r in rows)
    return _edit(text, [(anchor, anchor + ins)] +
                 [(f"gather_to_lds %1[%{r},", f"gather_to_lds %1[%w{r},") for r in rows])


@pytest.mark.parametrize("every", [False, True])
def test_elements_past_the_offset_a_load_reaches_in_one_workgroup_are_evaluated(tmp_path,
                                                                                capsys, every):
    """``_far_rows``: the structural proof holds (no sum narrower than 64 bits joins the
    parts), yet in workgroup 20 the elements lie past a buffer load's 32-bit offset, where
    the pipelined copies (their offset split between the scalar and the lane's) and the
    kernel's wrap otherwise: pipelined with exit 0 before and WRONG against its unpipelined
    build (test/data/iree/mutants.py's builds, late mode, workgroups 0 and 20: 4075
    elements of C differ).  The elements' span over the grid is now bounded (thread 0 of
    every workgroup) and, where it leaves the reach, every workgroup is evaluated.  With
    ``every`` the lanes of workgroup 20 start where workgroup 0's block moved has them, so
    its tables agree and only the reach refuses it (without that, pipelined)."""
    text = _far_rows(G.forms(G.matmul_source(dtype="bf16", m=1024, n=1024, k=512,
                                             transpose_b=False), ())["late"], every)
    err = _refusal(tmp_path, capsys, text)
    assert ("in workgroup (20,) an element it reads lies before the buffer or past what a "
            "buffer load's 32-bit offset reaches") in err, err
    assert ("in workgroup (20,) at the loop's first K step, LDS element 0 gets global "
            "element 1099511611392 from the kernel's copies, past the 1073741824 a buffer "
            "load's 32-bit offset reaches") in err, err


ROWS = """func.func @f(%buf: memref<4096xbf16>, %g: i1) {
  %wg = gpu.block_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = gpu.thread_id x upper_bound 64
    %m = arith.muli %wg, %t : index
    %s = arith.select %g, %m, %c4 {sched.proven_row} : index
    %u = arith.addi %s, %c1 : index
  }
  return
}"""


@pytest.mark.parametrize("index,rows,mixes", [("%s", True, False), ("%s", False, True),
                                              ("%u", True, True)])
def test_only_a_proven_row_itself_is_left_to_the_rows_proofs(index, rows, mixes):
    """``mixing_op(rows=True)`` (``launch_mixing_op``, a grid not enumerated) leaves out a
    copy index that is a row the front end marked proven (``sched.proven_row``, which
    ``reserved.py`` refuses on input), but not a value computed from one: there the
    select of the product of the workgroup and the thread is found."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
    from pipeline_mlir.frontend.every_workgroup import mixing_op

    with new_context() as ctx:
        module = ir.Module.parse(ROWS, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        (fn,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        ops = {{"arith.select": "%s", "arith.addi": "%u"}[o.name]: as_operation(o).results[0]
               for o in walk_ops(module.operation,
                                 lambda o: o.name in ("arith.select", "arith.addi"))}
        buf = as_operation(fn).regions[0].blocks[0].arguments[0]
        copy = SimpleNamespace(src=buf, src_indices=[ops[index]])
        got = mixing_op(SimpleNamespace(loop=as_operation(loop), copies=[copy]), [0],
                        rows=rows)
        assert (got is not None and got.name == "arith.select") if mixes else got is None, got



def _before_start(how: str) -> str:
    """A's first copy's global row moved before A's start in workgroup 3 alone (``how``
    "offset": IREE's 4096^3 late form, whose indices join the workgroup's part and the
    rest as an offset, plus a ``select`` of the workgroup alone; "split": the same form, a
    ``select`` on the workgroup between the row and the row moved 1000 back, which mixes
    them; "mixed": the 300x500x200 one, whose row masks mix them, the same ``select``) or at the loop's 8th K step alone ("k", the 300x500x200 one), or ("prefetch")
    IREE's 4096^3 prefetch point with A's rows moved 1000 back where the workgroup
    ``scf.forall``'s second variable is 5: no sampled point (every id 0, 1, 2 and the last;
    the first and the last K step) shows it."""
    if how == "prefetch":
        copy = "              amdgpu.gather_to_lds %subview_12[%33#0, %33#1], %subview_7[%c0, %c0]"
        ins = ("              %c5p = arith.constant 5 : index\n"
               "              %m5 = arith.cmpi eq, %arg1, %c5p : index\n"
               "              %cKp = arith.constant 1000 : index\n"
               "              %zp = arith.constant 0 : index\n"
               "              %dp = arith.select %m5, %cKp, %zp : index\n"
               "              %rp = arith.subi %33#0, %dp : index\n")
        return _edit((DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text(),
                     [(copy, ins + copy.replace("[%33#0,", "[%rp,"))])
    if how in ("offset", "split"):
        copy = "            amdgpu.gather_to_lds %1[%63, %298]"
        ins = ("            %c3x = arith.constant 3 : index\n"
               "            %m3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
               "            %cN = arith.constant -64 : index\n"
               "            %d = arith.select %m3, %cN, %c0 : index\n"
               "            %r1 = arith.addi %63, %d : index\n") if how == "offset" else \
            ("            %c3x = arith.constant 3 : index\n"
             "            %m3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
             "            %cB = arith.constant 1000 : index\n"
             "            %s = arith.subi %63, %cB : index\n"
             "            %r1 = arith.select %m3, %s, %63 : index\n")
        return _edit((DATA / "matmul_bf16_abt_4096.late.mlir").read_text(),
                     [(copy, ins + copy.replace("%63", "%r1"))])
    copy = "            amdgpu.gather_to_lds %2[%104, %308]"
    ins = ("            %cB = arith.constant 1000 : index\n"
           "            %s = arith.subi %104, %cB : index\n")
    ins += ("            %c3x = arith.constant 3 : index\n"
            "            %m3 = arith.cmpi eq, %workgroup_id_x, %c3x : index\n"
            "            %r1 = arith.select %m3, %s, %104 : index\n") if how == "mixed" else \
        ("            %c7k = arith.constant 7 : i32\n"
         "            %k7 = arith.cmpi eq, %arg0, %c7k : i32\n"
         "            %r1 = arith.select %k7, %s, %104 : index\n")
    return _edit(_odd("late"), [(copy, ins + copy.replace("%104", "%r1"))])


@pytest.mark.parametrize("how,said", [
    ("offset", "in workgroup (3,) at the loop's first K step (element -"),
    ("split", "in workgroup (3,) at the loop's first K step (element -"),
    ("mixed", "in workgroup (3,) at the loop's first K step (element -"),
    ("k", "in the loop's 8th iteration (element -"),
    ("prefetch", "in workgroup (5, 0) at the loop's first K step (element -4096000,")])
def test_a_read_before_the_buffer_at_an_unsampled_point_is_refused(tmp_path, capsys, how,
                                                                   said):
    """``_before_start``: each was pipelined with exit 0 before (the sampled points all read
    inside A; "offset" came out exact on the emulator, late mode, workgroups 0 and 3: the
    range check gave zeros in both builds); every workgroup of the static grid (by
    structure for "offset" and "prefetch"; evaluated for "split", whose copies split into
    the schedule's subtiles as they are, so no proof of the partition evaluates them:
    ``finish_every_read``, and for "mixed", whose front end's own copies are compared with
    them in every workgroup: that evaluation) and, in workgroup 0, every K step are now
    checked, and the copy refused."""
    text = _before_start(how)
    err = _refusal(tmp_path, capsys, text)
    line = _line(text, "amdgpu.gather_to_lds %1[%r1," if how in ("offset", "split") else
                 "amdgpu.gather_to_lds %subview_12[%rp," if how == "prefetch" else
                 "amdgpu.gather_to_lds %2[%r1,")
    assert f":{line}:" in err and "'amdgpu.gather_to_lds' op reads global memory outside " \
        "its buffer" in err and said in err, err


@pytest.mark.parametrize("how", ["split", "mixed"])
def test_copies_over_the_budget_are_proven_by_boxes(tmp_path, capsys, monkeypatch, how):
    """Over the budget of lane reads (``EVAL_BUDGET`` 1), the copies left to
    ``finish_every_read`` ("split") and a channel whose own copies are compared with the
    kernel's in every workgroup ("mixed", ``grid_tables.compare_by_boxes``) are proven over
    boxes of workgroups and K steps (``analysis/box_eval.py``): the mutant's read before
    the buffer in workgroup 3 alone (no corner of the grid's box: the boxes holding it are
    split down to it) is found and refused there, as the evaluation lane by lane does; the
    kernel as IREE wrote it pipelines with the schedule it has at the default budget."""
    from pipeline_mlir.tools.pipeline_opt import main
    text, budget = _before_start(how), GE.EVAL_BUDGET
    monkeypatch.setattr(GE, "EVAL_BUDGET", 1)
    err = _refusal(tmp_path, capsys, text)
    assert "lane reads" not in err and "in workgroup (3,) at the loop's first K step" in err \
        and ("(element -" in err if how == "split" else "before the buffer's start" in err), err
    assert f":{_line(text, 'amdgpu.gather_to_lds %')}:" in err or how == "mixed", err
    plain = tmp_path / "plain.mlir"
    plain.write_text((DATA / "matmul_bf16_abt_4096.late.mlir").read_text() if how == "split"
                     else _odd("late"))
    assert main(["--pipeline=4wave", str(plain), "--emit=schedule-json"]) == 0, \
        capsys.readouterr().err[-2000:]
    got = capsys.readouterr().out
    monkeypatch.setattr(GE, "EVAL_BUDGET", budget)
    assert main(["--pipeline=4wave", str(plain), "--emit=schedule-json"]) == 0
    assert capsys.readouterr().out == got


@pytest.mark.parametrize("how,where", [
    ("split", "no proof of the partition has evaluated it over the grid: the proof over "
              "boxes of workgroups and K steps settled no more in 0 boxes, and evaluating "
              "every lane instead, the "),
    ("mixed", "are proven by evaluating every workgroup, and the grid is too large: its ")])
def test_a_grid_over_the_evaluation_budget_is_refused(tmp_path, capsys, monkeypatch, how,
                                                      where):
    """``grid_eval.over_budget``: the copies left to ``finish_every_read`` ("split"), where
    the proof over boxes of workgroups and K steps settles nothing (``grid_eval.BOXES``
    0), and a channel whose own copies are compared with the kernel's in every workgroup
    ("mixed") are evaluated up to ``EVAL_BUDGET`` lane reads; one read more is refused at
    the copy, saying how many; at the budget exactly the evaluation runs and finds the
    mutant's read before the buffer (the refusal of the test above)."""
    text = _before_start(how)
    monkeypatch.setattr(GE, "BOXES", 0)
    monkeypatch.setattr(GE, "EVAL_BUDGET", 1000)
    err = _refusal(tmp_path, capsys, text)
    said = re.search(r"(\d+) workgroups of (\d+) threads at (\d+) K steps, (\d+) "
                     r"cop(?:y|ies) in each, are (\d+) lane reads to evaluate, more than "
                     r"1000", err)
    assert said and where in err and "outside its buffer" not in err, err
    sizes = [int(v) for v in said.groups()]
    assert sizes[0] * sizes[1] * sizes[2] * sizes[3] == sizes[4], err
    assert f":{_line(text, 'amdgpu.gather_to_lds %')}:" in err or how == "mixed", err
    monkeypatch.setattr(GE, "EVAL_BUDGET", sizes[4])
    err = _refusal(tmp_path, capsys, text)
    assert "lane reads" not in err and "in workgroup (3,) at the loop's first K step " \
        "(element -" in err, err
