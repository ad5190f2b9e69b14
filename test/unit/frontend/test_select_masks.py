"""pipeline_mlir/frontend/select_masks.py, kept_masks.py and private_values.py on small
hand-written loops.

A register copy whose loaded value is kept or padded by an ``arith.select`` (IREE's rows
of a masked last K tile): the selects found, their ``i1`` conditions evaluated per thread
exactly at one bit (``index_castui`` of 2 to ``i1`` is false), proven true in every
iteration of the loop or refused at the select saying in which thread and iteration;
a select that keeps the load where its condition is false, or a condition of an unknown
form, is refused at the select.  A condition that also depends on the workgroup is kept in the copy
(frontend/kept_masks.py: the load's row moved past the end of its range-checked buffer
where it is false), and each requirement of that is refused at the select when broken.
A value passed through a private buffer within one iteration is
forwarded; a buffer read before it is written, or read elsewhere, is left as it is.
IREE's kernels (both forms, exact on the emulator) are in
``test/unit/tools/test_tails_masked.py``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.private_values import forward_private_values
from pipeline_mlir.frontend.kept_masks import keep_moving_masks, kept_parts
from pipeline_mlir.frontend.select_masks import (check_kept, drop_thread_identities,
                                                 selected_loads, unselect)

G = "memref<64x16xi8>"
LDS = "memref<64x16xi8, #gpu.address_space<workgroup>>"
PRIV = "memref<16xi8, #gpu.address_space<private>>"


FAT = "memref<64x16xi8, #amdgpu.address_space<fat_raw_buffer>>"
SUB = "memref<32x16xi8, strided<[32, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>"


def _loop(cond: str, select: str = "arith.select %c, %v, %pad : vector<16xi8>",
          trips: int = 4, fat: bool = False) -> str:
    """A loop of ``trips`` iterations copying row ``%i * 8 + t / 16`` of ``%g`` to LDS,
    its value chosen by ``select`` on ``%c`` (computed by ``cond`` from ``%i``, the
    thread ``%t`` and ``%wg``); ``fat``: ``%g`` a range-checked fat buffer of the
    argument."""
    g, cast = G, ""
    if fat:
        g, cast = FAT, f"  %g = amdgpu.fat_raw_buffer_cast %graw resetOffset : {G} to {FAT}\n"
    return f"""
func.func @f(%{'graw' if fat else 'g'}: {G}, %l: {LDS}) attributes {{gpu.known_block_size = array<i32: 64, 1, 1>}} {{
{cast}  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %n = arith.constant {trips} : index
  %pad = arith.constant dense<0> : vector<16xi8>
  %t = gpu.thread_id x
  %wg = gpu.block_id x
  %row = arith.divui %t, %c16 : index
  scf.for %i = %c0 to %n step %c1 {{
    %base = arith.muli %i, %c8 : index
    %r = arith.addi %base, %row : index
{cond}
    %v = vector.load %g[%r, %c0] : {g}, vector<16xi8>
    %s = {select}
    vector.store %s, %l[%r, %c0] : {LDS}, vector<16xi8>
  }}
  return
}}
"""


#: the rows left below 60, at most 1: 1 in every row of the 4 iterations (rows < 32)
LEFT = """    %left = arith.subi %c60, %r : index
    %one = arith.minsi %left, %c1 : index
    %c = arith.index_castui %one : index to i1"""


def _check(text: str):
    """(the selects of the module's loop, after check_kept over its iterations, the
    module after dropping the proven ones and keeping the others in their copies)."""
    with new_context():
        m = ir.Module.parse(text)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        sels = selected_loads(loop)
        ev = Evaluator((64, 1, 1))
        ev.where = loop
        kept = keep_moving_masks(loop)
        sels = selected_loads(loop)
        check_kept(loop, sels, loop.regions[0].blocks[0].arguments[0], ev)
        for s in sels:
            unselect(s)
        return kept + len(sels), str(m)


def test_a_select_full_in_every_iteration_is_dropped():
    n, text = _check(_loop(LEFT))
    assert n == 1 and "arith.select" not in text and "index_castui" not in text, text


#: min(60 - row, 1) of the thread's row alone (rows 0 to 3 of 64 threads): 1 in every thread
THREAD_ONLY = """    %tleft = arith.subi %c60, %row : index
    %tone = arith.minsi %tleft, %c1 : index
    %c = arith.index_castui %tone : index to i1"""


@pytest.mark.parametrize("cond,dropped", [
    (THREAD_ONLY, True),
    # rows 0 and 1 kept, 2 and 3 padded: a mask, left to the proofs after the peel
    ("    %c = arith.cmpi ult, %row, %c2 : index", False),
    # 2 cast to i1 is 0 in every thread: it pads, never the identity
    (THREAD_ONLY.replace("%c1 : index\n", "%c2 : index\n"), False),
    # the loop variable's (a K row's), true in every iteration: the peel's to prove
    (LEFT, False),
    # the workgroup's (true in workgroup 0 alone): kept_masks.py's, never proven here
    ("    %c = arith.cmpi ult, %wg, %c1 : index", False),
], ids=["true-everywhere", "rows-padded", "bit-of-two", "k-row", "workgroup"])
def test_a_thread_only_identity_is_dropped_before_the_peel(cond, dropped):
    """IREE's prefetch point selects a copy whose rows all lie inside M by a condition of the
    thread alone, true in every thread (the i8 ``A x B^T`` 31x257x512's A): dropped by
    drop_thread_identities, so that no K tail is peeled for it; one false in some thread,
    or one of the loop variable, stays a select."""
    with new_context():
        m = ir.Module.parse(_loop(cond))
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        assert drop_thread_identities(loop) == int(dropped)
        assert len(selected_loads(loop)) == int(not dropped)
        if dropped:     # (its condition's ops erased with it)
            assert "arith.select" not in str(m) and "arith.minsi" not in str(m), str(m)


@pytest.mark.parametrize("cond", [
    # 2 cast to i1 is 0: a condition read as "non-zero" would keep the load
    LEFT.replace("%c1 : index\n", "%c2 : index\n"),
    # rows from 16 padded: iteration 2 (rows 16 to 19)
    "    %c = arith.cmpi ult, %r, %c16 : index",
], ids=["bit-of-two", "rows-padded"])
def test_a_select_padding_a_kept_iteration_is_refused(cond):
    with pytest.raises(IRError, match="pads the loaded value in thread .* in iteration "
                                      ".*, which the pipelined loop runs"):
        _check(_loop(cond))


def test_logic_and_vector_conditions_are_evaluated():
    both = LEFT + "\n    %c2b = arith.cmpi ult, %r, %c60 : index\n" \
        "    %cc = arith.andi %c, %c2b : i1"
    assert _check(_loop(both, "arith.select %cc, %v, %pad : vector<16xi8>"))[0] == 1
    mask = "    %c = vector.create_mask %c16 : vector<16xi1>"
    assert _check(_loop(mask, "arith.select %c, %v, %pad : vector<16xi1>, "
                              "vector<16xi8>"))[0] == 1
    short = "    %c = vector.create_mask %c8 : vector<16xi1>"
    with pytest.raises(IRError, match="pads the loaded value in thread 0 in iteration 0"):
        _check(_loop(short, "arith.select %c, %v, %pad : vector<16xi1>, vector<16xi8>"))
    splat = LEFT + "\n    %cv = vector.broadcast %c : i1 to vector<16xi1>"
    assert _check(_loop(splat, "arith.select %cv, %v, %pad : vector<16xi1>, "
                               "vector<16xi8>"))[0] == 1


@pytest.mark.parametrize("cond,select,message", [
    (LEFT, "arith.select %c, %pad, %v : vector<16xi8>",
     "selects the value loaded from global memory where its condition is false"),
    ("    %w = arith.subi %c60, %wg : index\n    %c = arith.index_castui %w : index to i1",
     None, "has a condition that depends on 'gpu.block_id'; the front end keeps such a mask "
     "in the copy"),
    ("    %c = arith.constant true", None, None),
    ("    %x = arith.addi %r, %c1 : index\n    %y = arith.index_castui %x : index to i1\n"
     "    %c = arith.select %y, %y, %y : i1", None,
     "has a condition computed by 'arith.select', which the front end does not evaluate"),
    # 2 cast to i1 (false), widened again and compared: read through the cast it is 2
    ("    %two = arith.minsi %r, %c2 : index\n"
     "    %b = arith.index_castui %two : index to i1\n"
     "    %w = arith.extui %b : i1 to i64\n    %z = arith.constant 0 : i64\n"
     "    %c = arith.cmpi eq, %w, %z : i64", None,
     "has a condition whose integer arithmetic goes through an i1 value"),
    # an i32 negative for every row, widened unsigned: the machine's value is 2^32 + d, so
    # the select always pads; exact signed integers would read it as always kept
    ("    %ri = arith.index_cast %r : index to i32\n    %k = arith.constant 100 : i32\n"
     "    %d = arith.subi %ri, %k : i32\n    %e = arith.extui %d : i32 to i64\n"
     "    %z = arith.constant 0 : i64\n    %c = arith.cmpi slt, %e, %z : i64", None,
     "cannot evaluate exactly for every thread"),
    # an unsigned comparison of a negative value
    ("    %d = arith.subi %r, %c60 : index\n    %z = arith.constant 0 : index\n"
     "    %c = arith.cmpi uge, %d, %z : index", None,
     "cannot evaluate exactly for every thread"),
], ids=["load-on-false", "workgroup", "constant-true", "unknown-op", "bit-inside",
        "unsigned-widening", "unsigned-compare"])
def test_select_refusals(cond, select, message):
    text = _loop(cond, select) if select else _loop(cond)
    if message is None:      # a constant true condition: proven, dropped
        assert _check(text)[0] == 1
        return
    with pytest.raises(IRError, match=message):
        _check(text)


def _private(body: str) -> str:
    return f"""
func.func @f(%g: {G}, %l: {LDS}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = memref.alloca() : {PRIV}
  scf.for %i = %c0 to %c4 step %c1 {{
{body}
  }}
  return
}}
"""


WRITE = f"    vector.store %v, %p[%c0] : {PRIV}, vector<16xi8>"
READ = f"    %w = vector.load %p[%c0] : {PRIV}, vector<16xi8>"
LOAD = f"    %v = vector.load %g[%i, %c0] : {G}, vector<16xi8>"
STORE = f"    vector.store %w, %l[%i, %c0] : {LDS}, vector<16xi8>"
#: the same write and read as transfer ops (in bounds, as IREE writes them)
T_WRITE = f"    vector.transfer_write %v, %p[%c0] {{in_bounds = [true]}} : vector<16xi8>, {PRIV}"
T_READ = (f"    %pad = arith.constant 0 : i8\n    %w = vector.transfer_read %p[%c0], %pad "
          f"{{in_bounds = [true]}} : {PRIV}, vector<16xi8>")


@pytest.mark.parametrize("body,forwarded", [
    ([LOAD, WRITE, "    gpu.barrier", READ, STORE], True),
    # read before the iteration writes it: the previous iteration's value
    ([READ, LOAD, WRITE, STORE], False),
    # a part of the buffer written
    ([LOAD, WRITE.replace("%p[%c0]", "%p[%c1]"), READ, STORE], False),
    ([LOAD, T_WRITE, "    gpu.barrier", T_READ, STORE], True),
    # a transfer op not marked in bounds (frontend/private_stage.py's whole_access)
    ([LOAD, T_WRITE.replace("true", "false"), "    gpu.barrier", T_READ, STORE], False),
], ids=["forwarded", "read-first", "part-written", "transfer", "transfer-not-in-bounds"])
def test_private_values(body, forwarded):
    with new_context():
        m = ir.Module.parse(_private("\n".join(body)))
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        forward_private_values(loop)
        text = str(m)
    assert ("memref.alloca" not in text) == forwarded, text
    if forwarded:
        assert "vector.store %0, %arg1" in text, text


#: the rows left below 60 and an edge of the workgroup: the rows below 44 - %wg
EDGE = LEFT + """
    %edge = arith.subi %c60, %wg : index
    %wr = arith.addi %r, %c16 : index
    %in = arith.cmpi ult, %wr, %edge : index
    %cc = arith.andi %c, %in : i1"""
KEEP = "arith.select %cc, %v, %pad : vector<16xi8>"


def test_a_workgroup_edge_is_kept_in_the_copy():
    """A condition that also depends on the workgroup: not proven, kept in the copy; the
    load's indices replaced where it is false: the row by 4 rows of 16 (the whole 64x16
    buffer, so past its end whatever the lane computed: the read past the end of the
    range-checked buffer gives the zero padding), the column by 0; the condition recomputed
    from the loop variable, the thread and the workgroup."""
    n, text = _check(_loop(EDGE, KEEP, fat=True))
    assert n == 1, text
    lines = [ln.strip() for ln in text.splitlines()]
    past = next(ln for ln in lines if ln.endswith("= arith.constant 64 : index"))
    load = next(ln for ln in lines if "vector.load" in ln and "fat_raw_buffer" in ln)
    row, col = re.search(r"\[(%\w+), (%\w+)\]", load).groups()
    sels = {ln.split(" =")[0]: ln for ln in lines if "arith.select" in ln}
    assert re.fullmatch(r"%\d+ = arith\.select (%\d+), %\d+, " + past.split(" =")[0] +
                        " : index", sels[row]), sels[row]
    cond = sels[row].split("select ")[1].split(",")[0]
    assert re.fullmatch(rf"%\d+ = arith\.select {cond}, %c0, %c0_?\d* : index", sels[col])
    assert len(sels) == 2 and "vector.store " + load.split(" =")[0] + "," in text, text
    # the condition computed between the load and its select (as in a mutant of IREE's f16
    # A x B 100x17x520 whose select's condition is negated in the loop): the ops computing
    # it moved before the load, whose index selects read it; before, invalid IR (a use not
    # dominated), an internal error when the K-step merge verified the kernel
    read = f"    %v = vector.load %g[%r, %c0] : {FAT}, vector<16xi8>"
    n, text = _check(_loop(EDGE, KEEP, fat=True).replace(EDGE + "\n" + read,
                                                         read + "\n" + EDGE))
    with new_context():
        assert n == 1 and ir.Module.parse(text).operation.verify(), text


#: C's edge in the one tile along N, its workgroup folded out: the threads' rows from 2 of
#: each 4 (rows ``t / 16`` of 2 and 3) padded in every iteration, the first included
ONE_TILE = LEFT + """
    %in = arith.cmpi ult, %row, %c2 : index
    %cc = arith.andi %c, %in : i1"""


def test_an_edge_of_the_one_tile_is_kept_in_the_copy():
    """A condition of the loop variable and the threads alone, false in some thread in the
    loop's first iteration: no K tail's mask (full but in the last K tile) but C's edge
    where one tile spans N (IREE's i8 and fp8 ``A x B^T`` 2048x63x1024, B's row 63): kept
    in the copy as an edge that moves with the workgroup is (before: refused, the proof
    of the K tail's mask failing in iteration 0). On a buffer that does not read zero
    past its end it is left to that proof, which refuses it."""
    n, text = _check(_loop(ONE_TILE, KEEP, fat=True))
    assert n == 1 and "arith.select %cc" not in text, text
    load = next(ln for ln in text.splitlines() if "vector.load" in ln and "fat_raw" in ln)
    assert re.search(r"vector\.load %\w+\[%\d+, %\d+\]", load), load    # its indices kept
    with pytest.raises(IRError, match="pads the loaded value in thread 32 in iteration 0, "
                                      "which the pipelined loop runs"):
        _check(_loop(ONE_TILE, KEEP))


def test_only_an_edge_in_the_first_iteration_is_kept_as_the_one_tiles():
    """What the one tile's edge is told by: its condition in the loop's first iteration,
    true in some thread and false in another.  True in every thread there (a K tail's
    mask, full but in its last K tile): left to the proof, which drops it; false in every
    thread, of the loop variable: left to the proof, which refuses it; false in every
    thread and iteration, of the threads alone (a copy of rows wholly past C's edge, A's
    rows 48 to 63 of the i8 ``A x B^T`` 33x257x512): kept, every lane reading past the end;
    an edge in the first iteration (rows 0 and 1 of rows 0 to 3), none in the others:
    kept."""
    n, text = _check(_loop(LEFT, KEEP.replace("%cc", "%c"), fat=True))
    assert n == 1 and "arith.select" not in text and "index_castui" not in text, text
    with pytest.raises(IRError, match="pads the loaded value in thread 0 in iteration 0"):
        _check(_loop("    %c = arith.cmpi ult, %r, %c0 : index",
                     KEEP.replace("%cc", "%c"), fat=True))
    n, text = _check(_loop("    %c = arith.cmpi ult, %row, %c0 : index",
                           KEEP.replace("%cc", "%c"), fat=True))
    assert n == 1 and "arith.select %c," not in text, text
    n, text = _check(_loop("    %c = arith.cmpi ult, %r, %c2 : index",
                           KEEP.replace("%cc", "%c"), fat=True))
    assert n == 1 and "arith.select %c," not in text, text


#: rows 0 to 3 (``t / 16``) tested against an edge at row 16, none of them inside: a term of
#: the threads alone false in every thread
PAST = ("\n    %out = arith.cmpi ult, %row, %c16 : index"
        "\n    %out0 = arith.cmpi uge, %row, %c16 : index")


def test_rows_past_the_edge_anded_with_the_k_row_are_kept():
    """A condition that ANDs the K row's test (of the loop variable) with a term of the
    threads alone false in every thread (rows wholly past C's edge: B's rows 24 to 31 of
    IREE's f16 ``A^T x B^T`` 5x24x1000, ``row < 24 and the run inside K``): false in every
    thread at every iteration, kept in the copy, every lane reading past the end (before:
    refused by the K tail's proof in iteration 0), the term on either side and under a
    further AND.  Its term of the threads replaced by one of the loop variable, false in
    iteration 0 alone (``i > 0``): no copy of rows past the edge, left to the proof,
    which refuses it; so is the term made true in every thread (``row < 16``) ANDed with
    a K test false in iteration 0."""
    for cc in ("%cc = arith.andi %out0, %c : i1", "%cc = arith.andi %c, %out0 : i1",
               "%both = arith.andi %c, %out0 : i1\n    %cc = arith.andi %c, %both : i1"):
        n, text = _check(_loop(LEFT + PAST + "\n    " + cc, KEEP, fat=True))
        assert n == 1 and "arith.select %cc" not in text, (cc, text)
    late = "\n    %late = arith.cmpi ugt, %i, %c0 : index\n    %cc = arith.andi %c, %late : i1"
    with pytest.raises(IRError, match="pads the loaded value in thread 0 in iteration 0"):
        _check(_loop(LEFT + late, KEEP, fat=True))
    first = "\n    %k = arith.cmpi ugt, %i, %c0 : index\n    %cc = arith.andi %out, %k : i1"
    with pytest.raises(IRError, match="pads the loaded value in thread 0 in iteration 0"):
        _check(_loop(LEFT + PAST + first, KEEP, fat=True))


def test_a_kept_copy_reads_past_the_end_whatever_its_lane_computed():
    """A lane whose condition is false reads element 64 x 16 (the end of the buffer), not its
    own row moved: here a row of -1 there (a convolution's padding above row 0), which
    moved by the buffer's rows would land inside it (row 63), of a view starting at the
    workgroup's row (the kept load reads the buffer itself); the others read their row."""
    cond = EDGE + "\n    %cm1 = arith.constant -1 : index\n" \
                  "    %rr = arith.select %cc, %r, %cm1 : index"
    text = _loop(cond, KEEP, fat=True).replace(
        "%v = vector.load %g[%r, %c0] : " + FAT,
        "%sv = memref.subview %g[%wg, 0] [32, 16] [1, 1] : " + FAT + " to " +
        SUB.replace("[32, 1]", "[16, 1]") + "\n    %v = vector.load %sv[%rr, %c0] : " +
        SUB.replace("[32, 1]", "[16, 1]"))
    with new_context():
        m = ir.Module.parse(text)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        assert keep_moving_masks(loop) == 1
        load = walk_ops(loop, lambda o: o.name == "vector.load")[0]
        ev = Evaluator((64, 1, 1))
        ev.where = loop
        wg = walk_ops(m.operation, lambda o: o.name == "gpu.block_id")[0].results[0]
        c = kept_parts(load.operands[1])[1]
        false = 0
        for w in (0, 43, 59):
            ev.bind(wg, w)
            for i in range(4):
                ev.bind(loop.regions[0].blocks[0].arguments[0], i)
                got = ev.view(load.operands[0]).element([ev.value(x) for x in load.operands[1:]])
                keep = ev.value(c).astype(bool)
                row = i * 8 + np.arange(64) // 16
                assert np.array_equal(got, np.where(keep, (w + row) * 16, 64 * 16)), (w, i)
                false += int(np.sum(~keep))
        assert false, "no lane's condition false: the test tests nothing"


@pytest.mark.parametrize("cond,select,fat,message", [
    (EDGE, KEEP.replace("%pad", "%ones"), True,
     "so needs a padding of the constant zero, every bit clear (a read past the end returns "
     "+0.0), not dense<1> : vector<16xi8>"),
    (EDGE, KEEP, False, "so needs its load to read a fat raw buffer"),
    # a condition read from memory in the loop (the LDS the loop writes)
    (EDGE + "\n    %x = memref.load %l[%r, %c0] : " + LDS + "\n"
     "    %xb = arith.trunci %x : i8 to i1\n    %cx = arith.andi %cc, %xb : i1",
     KEEP.replace("%cc", "%cx"), True,
     "recomputes the condition for every iteration, so needs it computed by side-effect-free "
     "ops from the loop variable, threads, constants and values defined before the loop; it "
     "depends on 'memref.load' op"),
    # a condition carried from the previous iteration
    (EDGE + "\n    %cy = arith.andi %cc, %carry : i1", KEEP.replace("%cc", "%cy"), True,
     "it depends on the loop-carried value (block argument #1 of the 'scf.for')"),
    # a vector condition that moves with the workgroup: a mask inside the run
    ("    %m = vector.create_mask %wg : vector<16xi1>",
     "arith.select %m, %v, %pad : vector<16xi1>, vector<16xi8>", True,
     "so needs one condition for the lane's whole run (an i1 or its vector.broadcast)"),
], ids=["nonzero-padding", "plain-memref", "memory", "loop-carried", "vector-mask"])
def test_kept_select_refusals(cond, select, fat, message):
    text = _loop(cond, select, fat=fat).replace(
        "%pad = arith.constant", "%ones = arith.constant dense<1> : vector<16xi8>\n  "
                                 "%pad = arith.constant")
    if "%carry" in cond:
        text = text.replace("scf.for %i = %c0 to %n step %c1 {",
                            "%t0 = arith.constant true\n  %z = scf.for %i = %c0 to %n step "
                            "%c1 iter_args(%carry = %t0) -> (i1) {").replace(
            "vector<16xi8>\n  }", "vector<16xi8>\n    scf.yield %cy : i1\n  }")
    with pytest.raises(IRError, match=re.escape(message)):
        _check(text)


def test_a_whole_run_mask_that_moves_is_kept_in_the_copy():
    """The form masked_rows_k makes of a whole-run select: a read masked by
    ``create_mask (c ? 16 : 0)`` with ``c`` depending on the workgroup, kept the same way
    (the mask dropped, the row moved past the end where ``c`` is false); a mask of a part
    of the run (``create_mask (c ? 8 : 0)``) is not a whole run: left for the peel (which
    refuses it at the read) and not kept."""
    cond = EDGE + """
    %z8 = arith.constant 0 : i8
    %sz = arith.select %cc, %c16, %c0 : index
    %mk = vector.create_mask %sz : vector<16xi1>"""
    read = f"vector.transfer_read %g[%r, %c0], %z8, %mk {{in_bounds = [true]}} : {FAT}, " \
           "vector<16xi8>"
    n, text = _check(_loop(cond, read, fat=True))
    assert n == 1 and "create_mask" not in text and "arith.constant 64 : index" in text, text
    assert re.search(r"vector\.transfer_read %0\[%\d+, %\d+\], %c0_i8 \{in_bounds", text), text
    part = cond.replace("%cc, %c16, %c0", "%cc, %c8, %c0")
    assert _check(_loop(part, read, fat=True))[0] == 0
    # two rows read: a mask of one leading row always pads the second, not a whole run
    rows = cond.replace("create_mask %sz : vector<16xi1>", "create_mask %LEAD, %sz : "
                        "vector<2x16xi1>")
    two = _loop(rows, read.replace("[true]", "[true, true]").replace(
        "vector<16xi8>", "vector<2x16xi8>"), fat=True).replace(
        "%l[%r, %c0] : " + LDS + ", vector<16xi8>", "%l[%r, %c0] : " + LDS + ", vector<2x16xi8>")
    assert [_check(two.replace("%LEAD", c))[0] for c in ("%c1", "%c2")] == [0, 1]


def test_a_whole_run_mask_of_the_one_tiles_edge_is_kept_in_the_copy():
    """A whole-run mask (``create_mask (c ? 16 : 0)``) whose ``c`` is of the loop variable
    and the threads alone, false in some thread in the first iteration: C's edge in the one
    tile (IREE's f16 ``A^T x B`` 17x100x520, B's columns 100 to 127 under its 128-column
    tile, each lane's run of 4 read whole or not at all), kept as the select of such an
    edge is (before: left to the peel, refused as a K tail's mask short in iteration 0).
    Not kept: the same on a plain memref (no zeros past its end), and a condition true in
    every thread of the first iteration (a K tail's mask: left to the peel)."""
    def read(cond: str) -> str:
        return cond + """
    %z8 = arith.constant 0 : i8
    %sz = arith.select %cc, %c16, %c0 : index
    %mk = vector.create_mask %sz : vector<16xi1>"""
    masked = f"vector.transfer_read %g[%r, %c0], %z8, %mk {{in_bounds = [true]}} : {FAT}, " \
             "vector<16xi8>"
    n, text = _check(_loop(read(ONE_TILE), masked, fat=True))
    assert n == 1 and "create_mask" not in text and "arith.constant 64 : index" in text, text
    plain = masked.replace(FAT, G)
    assert _check(_loop(read(ONE_TILE), plain))[0] == 0
    tail = read(ONE_TILE.replace("%in = arith.cmpi ult, %row, %c2", "%in = arith.cmpi ult, "
                                 "%row, %c16"))
    assert _check(_loop(tail, masked, fat=True))[0] == 0


@pytest.mark.parametrize("old,new,message", [
    # a buffer of 70000000 rows of 16 bytes: the offset past its end leaves 32 bits
    (("64x16xi8>", "64x16xi8, #amdgpu"), ("70000000x16xi8>", "70000000x16xi8, #amdgpu"),
     "the offset past the end of memref<70000000x16xi8, #amdgpu.address_space<fat_raw_buffer>> "
     "(70000000 rows of 16 elements) does not fit a buffer load's 32-bit offset"),
    # a fat buffer that is not range-checked: a read past its end reads memory
    (("resetOffset :",), ("resetOffset boundsCheck(false) :",),
     "must be range-checked by its own shape (a cast without validBytes or boundsCheck(false))"),
    # rows known only at launch: no static end to read past
    (("64x16xi8>", "64x16xi8, #amdgpu"), ("?x16xi8>", "?x16xi8, #amdgpu"),
     "so needs a row-major buffer of static shape read with a static positive row stride, "
     "not memref<?x16xi8, #amdgpu.address_space<fat_raw_buffer>>"),
    # a view of every other row: no index of the buffer per dimension to replace
    (("%v = vector.load %g[%r, %c0] : " + FAT,), (
        "%sv = memref.subview %g[%wg, 0] [32, 16] [2, 1] : " + FAT + " to " + SUB + "\n"
        "    %v = vector.load %sv[%r, %c0] : " + SUB,),
     "so needs its load to read memref<64x16xi8, #amdgpu.address_space<fat_raw_buffer>> "
     "through casts and same-rank unit-stride subviews"),
], ids=["offset-past-32-bits", "not-range-checked", "dynamic-rows", "view-offset"])
def test_kept_select_buffer_refusals(old, new, message):
    text = _loop(EDGE, KEEP, fat=True)
    for a, b in zip(old, new):
        assert a in text
        text = text.replace(a, b)
    with pytest.raises(IRError, match=re.escape(message)):
        _check(text)
