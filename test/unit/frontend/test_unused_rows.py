"""LDS elements no stored element of C depends on (``pipeline_mlir/frontend/unused_rows.py``).

IREE's batch ``A x B^T`` 2 x 300x520x262 in its late form (64x128 tiles, a 50-workgroup
grid) clamps the rows of A past M to row M and the rows of B past N to row N: in batch 0
those are batch 1's first rows, while the front end's own copies read rows M, M+1, ...
(N, N+1, ...).  The two differ only in LDS rows that feed accumulator rows (columns) the
epilogue's scatter masks off, which the proof finds from the kernel itself: in the last
row of tiles, the A rows from ``M - 256`` on; in the last column of tiles, the B rows from
``N - 512`` on.  With the scatter's row bound widened by two rows, the LDS row the kernel
clamps and the front end does not (local row ``M - 256 + 1``) feeds a stored row of C:
refused at the copy, as before the proof.  (With the proof made to spare every element,
that mutant was pipelined with exit 0 and "exact" on the 2 workgroups the emulator runs,
while all 50 race on C.)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import pipeline_mlir.frontend.unused_rows as U
import pipeline_mlir.frontend.unused_spare as S
from cli_helpers import refusal, run_cli_shared, run_cli_text
from kernel_builds import gated_build
from unused_checks import (K, K_TILE, M, N, TILE_M, TILE_N, check_batch_late,
                           row_tile_moved, spied)

DATA = Path(__file__).resolve().parents[2] / "data" / "iree"
sys.path.insert(0, str(DATA))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402

def _late() -> str:
    return G.forms(E.epilogue_source(kind="batch", m=M, n=N, k=K))["late"]


def _widened(text: str, rows: int) -> str:
    """The scatter's bound on C's rows (the ``vector.broadcast`` of the rows left that the
    row mask compares with) made ``rows`` larger."""
    pat = re.compile(r"(%\d+) = vector\.broadcast (%\d+) : i32 to vector<1xi32>\n"
                     r"(\s+)(%\d+) = arith\.index_castui \1 : vector<1xi32> to vector<1xindex>")
    hit = [m for m in pat.finditer(text)
           if re.search(r"arith\.cmpi ult, %\d+, " + m.group(4) + " ", text)]
    assert len(hit) == 1, [m.group(0) for m in hit]
    m, sp = hit[0], hit[0].group(3)
    new = (f"%c_wide = arith.constant {rows} : i32\n{sp}%rows_wide = arith.addi {m.group(2)}, "
           f"%c_wide : i32\n{sp}{m.group(1)} = vector.broadcast %rows_wide : i32 to "
           f"vector<1xi32>\n{sp}{m.group(4)} = arith.index_castui {m.group(1)} : vector<1xi32> "
           f"to vector<1xindex>")
    return text[:m.start()] + new + text[m.end():]


def test_a_differing_row_that_feeds_a_stored_row_is_refused(tmp_path, capsys, monkeypatch):
    """(The rows the proof spares in the kernel as IREE writes it, every workgroup asked:
    ``test_iree_epilogues.py``'s run of it, through :func:`check_batch_late`.)"""
    seen = spied(monkeypatch)
    err = refusal(capsys, tmp_path, _widened(_late(), 2))
    # the proof was made and spares the rows past the two more stored, not the one that
    # differs and is stored
    check_batch_late(seen, 2)
    row = M - (-(-M // TILE_M) - 1) * TILE_M + 1       # the first row clamped and stored
    wid = (-(-M // TILE_M) - 1) * -(-N // TILE_N)
    assert re.search(r"channel A's copies do not move as one block from one workgroup to "
                     r"another \(its global index mixes .*'arith\.minui' op at line \d+:\d+\)"
                     rf"\): in workgroup \({wid},\) at the loop's first K step, LDS element "
                     rf"{row * K_TILE} gets global element {M * K} from the kernel's copies "
                     rf"and {(M + 1) * K} from the front end's", err), err


#: IREE's batch ``A x B^T`` 2 x 100x128x262: 2 tiles of 64 rows per batch and one of 128
#: columns, a grid of 4; workgroup 1, batch 0's last row of tiles, is a point of the sampled
#: comparison (``frontend/edges.py``: every workgroup id 1), where the late form's A rows
#: past M, clamped to row M (batch 1's first), differ from the front end's
SMALL = dict(m=100, n=128, k=262)


def _small(form: str) -> str:
    return G.forms(E.epilogue_source(kind="batch", **SMALL))[form]


def test_rows_unused_at_a_sampled_workgroup_are_spared(tmp_path, capsys, monkeypatch):
    """The sampled comparison spares the LDS rows no stored row of C uses (it refused the
    late form: ``... with every workgroup id 1 at the loop's first K step, LDS element 1184
    gets global element 26200, where workgroup 0's block moved gives 26462``): both forms
    give one schedule, the late form is exact on every workgroup (random mode), and the proof
    spared A's rows 100 to 127 of workgroup 1 alone."""
    seen = spied(monkeypatch)
    schedules = []
    for form in ("prefetch", "late"):
        code, out, err = run_cli_text(capsys, tmp_path, _small(form), "--pipeline=4wave",
                                      "--emit=schedule")
        assert code == 0, err
        schedules.append(out)
    assert schedules[0] == schedules[1]
    assert seen == {(TILE_M * K_TILE, (1,)): (2 * TILE_M - SMALL["m"]) * K_TILE}, seen
    code, out, err = run_cli_text(capsys, tmp_path, _small("late"), "--pipeline=4wave",
                                  "--emulate", "--emulate-workgroups=4",
                                  "--emulate-mode=random:3", "--emulate-jobs=1")
    assert code == 0, out + err
    assert re.search(r": exact, max error 0 in C \(25600 elements\), 4 workgroups", out), out


def test_a_row_stored_at_a_sampled_workgroup_is_refused(tmp_path, capsys, monkeypatch):
    """The small batch's scatter bound widened by two rows: row 101, which the kernel clamps
    and the front end's copies do not, is stored in workgroup 1, refused by the sampled
    comparison at its LDS row; the proof spared the rows past the two more stored."""
    merged: dict = {}
    seen = spied(monkeypatch, merged)
    err = refusal(capsys, tmp_path, _widened(_small("late"), 2))
    m, k = SMALL["m"], SMALL["k"]
    assert re.search(rf"with every workgroup id 1 at the loop's first K step, LDS element "
                     rf"{(m + 1 - TILE_M) * K_TILE} gets global element {m * k}, where "
                     rf"workgroup 0's block moved gives {(m + 1) * k} ", err), err
    assert seen == {(TILE_M * K_TILE, (1,)): (2 * TILE_M - m - 2) * K_TILE}, seen
    # 2 K steps merged (for time, then refused): proven with the kernel's epilogue too,
    # which spares the same rows of its K tile twice as long
    assert merged == {(2, 2 * TILE_M * K_TILE, (1,)): (2 * TILE_M - m - 2) * 2 * K_TILE}, \
        merged


#: IREE's 64-row tile in 2 x 2 waves of 32 rows, each two MFMA row tiles of 16: the
#: epilogue stages a wave's accumulators through private memory by row tile
WAVE_ROWS, ROW_TILE = 32, 16


def test_a_row_moved_into_a_stored_row_at_a_sampled_workgroup_is_refused(tmp_path, capsys,
                                                                        monkeypatch):
    """Rows moved by the values, not by the mask: in workgroup 1 the stored rows of the
    upper waves' row tile 0 (local rows 32 to 35) take the values of their row tile 1
    (local rows 48 to 51), which the kernel clamps to row M and the front end's copies do
    not.  The proof follows the values through private memory: it spares the rows past M
    but those four, and the sampled comparison refuses at the first of them.  (With the
    proof made to spare every element inside the buffer, the mutant was pipelined with
    exit 0 and WRONG against its unpipelined build in workgroup 1.)"""
    seen = spied(monkeypatch)
    err = refusal(capsys, tmp_path, row_tile_moved(_small("late")))
    m, k = SMALL["m"], SMALL["k"]
    moved = m - TILE_M - WAVE_ROWS          # stored rows of the upper waves' row tile 0
    first = WAVE_ROWS + ROW_TILE            # the first row their values now come from
    assert re.search(rf"with every workgroup id 1 at the loop's first K step, LDS element "
                     rf"{first * K_TILE} gets global element {m * k}, where workgroup 0's "
                     rf"block moved gives {(TILE_M + first) * k} ", err), err
    assert seen == {(TILE_M * K_TILE, (1,)): (2 * TILE_M - m - moved) * K_TILE}, seen


#: a K-loop carrying one accumulator, and what the code after it does with it (``EPILOGUE``)
LOOP = """
func.func @k(%c: memref<64xf32>, %lds: memref<64xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
    INSIDE
    %n = arith.addf %acc, %acc : vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
  EPILOGUE
  return
}
"""


def _reach(epilogue: str, inside: str = ""):
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    with new_context() as ctx:
        m = ir.Module.parse(LOOP.replace("EPILOGUE", epilogue).replace("INSIDE", inside), ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        kernel = walk_ops(m.operation, lambda o: o.name == "func.func")[0]
        return [w.name for w, _value in U._forward(list(loop.results), kernel, loop)[1]]


def test_a_loop_stands_for_the_one_it_replaces_only_while_analysed():
    """A loop built beside the kernel's (a K-step merge's, its results used by nothing
    yet) is proven with the results it is to replace, only inside
    ``results_replacing``: a loop whose own results are used already, or of other types,
    proves nothing so; and a proof made so proves nothing once the context is left (the
    kernel loop's results are erased by the merge's commit)."""
    import numpy as np
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    with new_context() as ctx:
        text = LOOP.replace("INSIDE", "").replace(
            "EPILOGUE", "vector.store %r, %c[%c0] : memref<64xf32>, vector<4xf32>\n"
            "  %r2 = scf.for %k2 = %c0 to %c4 step %c1 iter_args(%a2 = %z) -> (vector<4xf32>) {\n"
            "    scf.yield %a2 : vector<4xf32>\n  }")
        m = ir.Module.parse(text, ctx)
        kernel_loop, built = walk_ops(m.operation, lambda o: o.name == "scf.for")
        assert U._replaced(built) == (list(built.results), None)
        with U.results_replacing(built, list(kernel_loop.results)):
            values, entry = U._replaced(built)
            assert values == list(kernel_loop.results) and entry is not None
            proof = U.UnusedElements(None, 0, (1,))
            proof._ready, proof._entry = True, entry
            proof._used[(0,)] = np.zeros(4, dtype=bool)
            assert proof.unused((0,)).all()
        assert proof.unused((0,)) is None
        for loop, values in ((kernel_loop, list(built.results)), (built, [])):
            with U.results_replacing(loop, values), pytest.raises(U.Unproven):
                U._replaced(loop)


def test_the_accumulators_reach_global_writes_of_their_values_only():
    """Every use of the loop's accumulators is followed to the global writes of them; a use
    as an index, a mask, a branch's condition or a write to LDS proves nothing; a write of
    them inside the loop is found too (its value, a block argument's, then proves
    nothing)."""
    relu = ("%m = arith.maximumf %r, %z : vector<4xf32>\n"
            "vector.store %m, %c[%i] : memref<64xf32>, vector<4xf32>")
    assert _reach(relu) == ["vector.store"]
    assert _reach("vector.store %r, %c[%i] : memref<64xf32>, vector<4xf32>",
                  "vector.store %acc, %c[%k] : memref<64xf32>, vector<4xf32>") == \
        ["vector.store", "vector.store"]
    for bad, why in [
            ("%e = vector.extract %r[0] : f32 from vector<4xf32>\n"
             "%x = arith.fptoui %e : f32 to i32\n%j = arith.index_cast %x : i32 to index\n"
             "vector.store %z, %c[%j] : memref<64xf32>, vector<4xf32>", "indexes or masks"),
            ("vector.store %r, %lds[%i] : memref<64xf32, 3>, vector<4xf32>", "workgroup memory"),
            ("%e = vector.extract %r[0] : f32 from vector<4xf32>\n"
             "%p = arith.cmpf ogt, %e, %e : f32\nscf.if %p {\n"
             "vector.store %z, %c[%i] : memref<64xf32>, vector<4xf32>\n}", "'scf.if' op uses")]:
        with pytest.raises(U.Unproven, match=why):
            _reach(bad)


def _sampled(body: str, grid: tuple, wid: int, args: str = "%n: index"):
    """:func:`~pipeline_mlir.frontend.unused_spare.sampled_workgroup` of a kernel of
    ``body`` (arguments ``args``), parsed in the caller's context."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.dialect.ir_io import walk_ops

    m = ir.Module.parse(f"func.func @k({args}) {{\n{body}\n  return\n}}")
    kernel = walk_ops(m.operation, lambda o: o.name == "func.func")[0]
    return S.sampled_workgroup(kernel, grid, wid)


def test_a_sampled_point_is_a_workgroup_where_every_id_is_its_own():
    """The sampled point "every workgroup id ``w``" is workgroup ``(w, ...)`` of the grid
    only inside every bound, with workgroup foralls from 0 by 1 (the evaluator gives their
    variables ``w`` itself, not VectorDistribute's offsets ``64 w``) and no loop over
    workgroups (whose variable it gives ``w`` too): elsewhere nothing is spared there.
    Past a bound of such a grid, in a kernel of no launch values, it is no workgroup at
    all (``()``); with a launch value (``%n``) not known (None)."""
    from pipeline_mlir.dialect.bindings import new_context

    forall = ("  scf.forall (%i, %j) = (0, 0) to (4, 256) step (1, STEP) {{\n  }} "
              "{{mapping = [#gpu.block<y>, #gpu.block<x>]}}")
    stride = ("  %c0 = arith.constant 0 : index\n  %c4 = arith.constant 4 : index\n"
              "  %id = hal.interface.workgroup.id[0] upper_bound 2 : index\n"
              "  %cnt = hal.interface.workgroup.count[0] : index\n"
              "  scf.for %t = %id to %c4 step %cnt {\n  }")
    with new_context():         # (one context for every kernel: the test's own cost)
        assert _sampled(forall.replace("STEP", "1").format(), (256, 4), 1) == (1, 1)
        assert _sampled(forall.replace("STEP", "1").format(), (256, 4), 4) is None
        assert _sampled(forall.replace("STEP", "1").format(), (256, 4), 4, "") == ()
        assert _sampled(forall.replace("STEP", "1").format(), (256, 4), 3, "") == (3, 3)
        assert _sampled(forall.replace("STEP", "64").format(), (4, 4), 1) is None
        assert _sampled(stride, (4,), 1) is None
        assert _sampled(stride, (4,), 4, "") is None


def _results(text: str) -> tuple[str, int]:
    """The K-loop's results' name and the line of the loop."""
    lines = text.split("\n")
    at = [i for i, s in enumerate(lines) if re.match(r"\s*%\d+:8 = scf\.for .*iter_args\(", s)]
    assert len(at) == 1, at
    return re.match(r"\s*(%\d+):8", lines[at[0]]).group(1), at[0]


def _outer_loop(text: str) -> str:
    """The K-loop and the epilogue run twice by a loop around them that starts the next
    run's last accumulator (the stored rows ``TILE_M / 2 ..`` of a wave's tile) at the
    first one (rows no element of C is stored from in the last row of tiles)."""
    res, at = _results(text)
    lines = text.split("\n")
    end = next(i for i in range(at, len(lines)) if "memref.dealloc" in lines[i])
    init = re.search(r"%arg8 = (%cst_\d+)\)", lines[at])
    assert init and "%c2_i32 = arith.constant 2 : i32" in text, lines[at]
    lines[at] = lines[at].replace(init.group(0), "%arg8 = %ini)")
    lines.insert(end, f"          scf.yield {res}#0 : vector<4xf32>\n          }}")
    lines.insert(at, f"          %outer = scf.for %o = %c0_i32 to %c2_i32 step %c1_i32 "
                     f"iter_args(%ini = {init.group(1)}) -> (vector<4xf32>) : i32 {{")
    return "\n".join(lines)


def _carried_private(text: str) -> str:
    """An element of the first accumulator (rows no element of C is stored from in the
    last row of tiles) added to a stored element of C through a private buffer a loop
    fills: its first store stores what its second one stored one iteration before."""
    res, at = _results(text)
    lines = text.split("\n")
    staging = next(i for i in range(at + 1, len(lines))
                   if re.match(r"\s*scf\.for ", lines[i]) and res + "#" in lines[i + 2])
    p = "memref<2xf32, #gpu.address_space<private>>"
    lines.insert(staging, f"""          %pp = memref.alloca() : {p}
          scf.for %q = %c0_i32 to %c2_i32 step %c1_i32 : i32 {{
            %ld = memref.load %pp[%c0] : {p}
            memref.store %ld, %pp[%c1] : {p}
            %ex = vector.extract {res}#0[1] : f32 from vector<4xf32>
            memref.store %ex, %pp[%c0] : {p}
          }}
          %late = memref.load %pp[%c1] : {p}""")
    out = "\n".join(lines)
    value = re.search(r"\n(\s*)(%\d+ = vector\.from_elements )(%\d+)(, [^\n]*: vector<16xf32>)",
                      out)
    assert value, "the scatter's value"
    sp, first = value.group(1), value.group(3)
    return out[:value.start()] + f"\n{sp}%bumped = arith.addf {first}, %late : f32\n{sp}" + \
        value.group(2) + "%bumped" + value.group(4) + out[value.end():]


@pytest.mark.parametrize("mutate", [_outer_loop, _carried_private])
def test_accumulator_rows_carried_into_stored_ones_are_refused(tmp_path, capsys, monkeypatch,
                                                               mutate):
    """Rows of the accumulators no element of C is stored from directly, carried into a
    stored element (a loop around the K-loop carrying one accumulator into another's start;
    a private buffer a loop fills from a load of itself): the proof proves nothing and the
    copy is refused.  (Both were pipelined with exit 0, C then WRONG against the mutant's
    unpipelined build in workgroup 24: the proof took a result to hold its own elements only,
    and a private element to hold what the stores it had followed so far store.)"""
    seen = spied(monkeypatch)
    err = refusal(capsys, tmp_path, mutate(_late()))
    assert "LDS element" in err and "from the front end's" in err, err
    assert not {w for (size, w) in seen if size == TILE_M * K_TILE}, seen


def test_a_store_mask_moved_by_a_push_constant_is_refused(tmp_path, capsys, monkeypatch):
    """The scatter's row bound moved by ``p - 4096``, ``p`` a push constant: at the
    analysis's sample of it (4096) the stored rows are IREE's, at a launch of ``p = 4098``
    the first row the kernel clamps and the front end does not is stored.  The proof, which
    evaluates the writes at one sample of the launch values, is not made for a kernel of
    values known only at launch, and the copy is refused (it was pipelined with exit 0)."""
    seen = spied(monkeypatch)
    text = _widened(_late(), 7).replace("#hal.pipeline.layout<bindings",
                                        "#hal.pipeline.layout<constants = 1, bindings", 1)
    assert text.count("%c_wide = arith.constant 7 : i32") == 1
    text = text.replace(
        "%c_wide = arith.constant 7 : i32",
        "%pc = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32\n"
        "          %c4096_pc = arith.constant 4096 : i32\n"
        "          %c_wide = arith.subi %pc, %c4096_pc : i32")
    err = refusal(capsys, tmp_path, text)
    assert "LDS element" in err and "from the front end's" in err, err
    assert not {w for (size, w) in seen if size == TILE_M * K_TILE}, seen


#: IREE's batch ``A x B`` 3 x 129x128x160 (64-row tiles, 3 per batch: workgroup 2 is batch
#: 0's last, a sampled point): both forms point A's rows past M past the buffer's end (the
#: batch index ``select(row >= rows_left, 3, 0)``), where the front end's copies read the next
#: batch's first rows; the prefetch point stages C through private memory a vector at a time
AB = dict(m=129, n=128, k=160, batch=3, b_kxn=True)


def _one_schedule(tmp_path, forms: dict, capsys) -> str:
    """The schedule (JSON) both ``forms`` (``prefetch``, ``late``) give."""
    schedules = []
    for form in ("prefetch", "late"):
        code, out, err = run_cli_text(capsys, tmp_path, forms[form], "--pipeline=4wave",
                                      "--emit=schedule-json")
        assert code == 0, err
        schedules.append(out)
    assert schedules[0] == schedules[1]
    return schedules[0]


def test_rows_read_past_the_end_are_spared_in_both_forms(tmp_path, capsys, monkeypatch):
    """Both forms give one schedule, the proof sparing A's rows 129 to 191 of workgroup 2
    (63 rows of 32 K): at the prefetch point through its vector stores and loads of private
    memory (``frontend/private_vectors.py``; it proved nothing there, and the prefetch
    point was refused), in the late form where the kernel reads zeros past the end (the
    sampled comparison spared only elements both sides read inside the buffer; the late
    form was refused).  With the late form's scatter bound widened by two rows, row 129 is
    stored: refused at its LDS row.  (f16 3 x 257x128x320, the audit's, is this kernel at
    other sizes: exact from both forms, late mode, by hand.)"""
    seen = spied(monkeypatch)
    forms = G.forms(E.epilogue_source(kind="batch", dtype="f16", **AB))
    _one_schedule(tmp_path, forms, capsys)
    assert {n for (size, w), n in seen.items() if w in ((2,), (2, 0))} == {63 * K_TILE}, seen
    err = refusal(capsys, tmp_path, _widened(forms["late"], 2))
    assert re.search(r"with every workgroup id 2 at the loop's first K step, LDS element "
                     rf"{K_TILE} gets global element \d+, where workgroup 0's block moved "
                     rf"gives {129 * 160} ", err), err


def test_a_sampled_point_past_the_grid_is_left_to_every_workgroup():
    """The sampled comparison's point "every workgroup id 1" in a grid of (4, 1, 5) (IREE's
    batch of one tile along M at the prefetch point) is no workgroup: a difference there is
    left to the comparison over every workgroup that follows (bf16 batch 4 x 9x316x256 and
    f16 3 x 33x100x256 were refused there at A's channel while their late forms were
    pipelined; both forms one schedule now, exact).  At a workgroup the proof spares only
    what it finds unused; a kernel of values known only at launch (a ``memref.dim``) keeps
    every difference, its grid one sample of the launch's."""
    from types import SimpleNamespace

    import numpy as np

    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    text = """
func.func @k(%p: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%i, %j, %l) in (4, 1, 5) {
    scf.for %k = %c0 to %c4 step %c1 {
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return
}
"""
    bad, safe = np.array([True, True, False]), np.array([True, True, True])
    asked = []

    class Proof:
        grid = (4, 1, 5)

        def unused(self, wid):
            asked.append(wid)
            return np.array([True, False, False])

    with new_context(), ir.Location.unknown():
        for source, launch in ((text, False), (text.replace(
                "  return", "  %d = memref.dim %p, %c0 : memref<8xf32>\n  return"), True)):
            m = ir.Module.parse(source)
            (loop,) = walk_ops(m.operation, lambda o: o.name == "scf.for")
            an = SimpleNamespace(unused={0: Proof()}, scan=SimpleNamespace(loop=loop))
            past = S.spare_sampled(an, 0, bad, safe, 1)
            assert list(past) == ([True, True, False] if launch else [False] * 3), launch
            assert list(S.spare_sampled(an, 0, bad, safe, 0)) == [False, True, False]
    assert asked == [(0, 0, 0)] * 2


def test_a_merge_that_leaves_k_steps_is_proven_with_the_loop_that_runs_them(tmp_path, capsys,
                                                                            monkeypatch):
    """IREE's i8 batch ``A x B^T`` 3 x 256x312x1180 (a 64x128 tile, K steps of 128, 9 K
    steps and the masked last one): ``merge_k=auto`` merges 2 K steps, leaving the odd one
    to the kernel's loop, which runs it after the merged loop.  The late form clamps B's
    rows past N (312) where the front end's copies read on; the trial's proof of unused
    LDS elements followed the merged loop's results to no global write (only the commit
    wires them into the kernel's loop), proved nothing, and the merge was refused there
    while the prefetch point merged: one dispatch, two kernels (a fifteenth-sweep draw).
    Proven with the merged loop's results as the starts of the kernel loop's accumulators,
    both forms give one schedule, the merged one, its proof sparing B's rows 312 to 383 of
    the tile in the workgroups of the last column of tiles, exact over the whole grid."""
    merged: dict = {}
    spied(monkeypatch, merged)
    forms = G.forms(E.epilogue_source(kind="batch", dtype="i8", m=256, n=312, k=1180,
                                      batch=3))
    code, schedule, err = run_cli_text(capsys, tmp_path, forms["prefetch"],
                                       "--pipeline=4wave", "--emit=schedule-json")
    assert code == 0, err
    # the late form's --emit=hsaco build (in this process: the spy sees its proofs), its
    # schedule kept on the way and its code object kept for the --emulate below
    src = tmp_path / "k.mlir"
    src.write_text(forms["late"])
    _, _, late = gated_build(src)
    assert late == schedule
    # (the merged trial's proof, per LDS buffer of B's 128 rows x 128 K and workgroup: 3
    # tiles along N, the last one's rows 312 to 383 spared)
    assert (2, 128 * 128, (2,)) in merged, merged
    assert all(m == 2 and w[0] % 3 == 2 and n == 72 * 128
               for (m, size, w), n in merged.items()), merged
    # merged: twice the fragment reads a load (1 and 2 unmerged)
    assert json.loads(schedule)["lgkm_per_load"] == [2, 4], schedule
    code, out, err = run_cli_shared(capsys, str(src), "--pipeline=4wave", "--emulate",
                                    "--emulate-mode=late", "--emulate-jobs=1")
    assert code == 0 and ": exact, max error 0" in out and "36 workgroups" in out, out + err
    # the scatter's bound on C's columns made 2 larger: B's rows 312 and 313 of the last
    # tile feed stored columns, and the kernel is refused, merged or not, at B's copy
    pat = re.compile(r"(%\d+) = vector\.broadcast (%\d+) : i32 to vector<1xi32>\n"
                     r"((\s+%\d+ = arith\.cmpi ult, %\d+, )\1 : vector<1xi32>\n)")
    (hit,) = list(pat.finditer(forms["late"]))
    sp = re.match(r"\s*", hit.group(3)).group(0)
    wide = (f"%c_wide = arith.constant 2 : i32\n{sp}%cols_wide = arith.addi {hit.group(2)}, "
            f"%c_wide : i32\n{sp}{hit.group(1)} = vector.broadcast %cols_wide : i32 to "
            f"vector<1xi32>\n{hit.group(3)}")
    mutant = forms["late"][:hit.start()] + wide + forms["late"][hit.end():]
    err = refusal(capsys, tmp_path, mutant)
    assert re.search(r"with 2 merged it is refused too: .*channel B's copies do not move as "
                     r"one block .* LDS element \d+ gets global element", err), err
