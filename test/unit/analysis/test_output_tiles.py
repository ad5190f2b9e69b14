"""The tile of C each workgroup of a dispatch writes, read from the dispatch's IR
(``pipeline_mlir/analysis/output_tiles.py``): IREE's 2-D workgroup forall and its
linearised late form of the committed bf16 4096^3 dispatch, and a hand-made kernel with a
loop, ``scf.if`` / else, a store cut at C's edge and a vector store; what cannot be
evaluated is one error at the op."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_mlir.analysis.output_tiles import check_grid_covers, output_tiles, written_mask
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops

DATA = Path(__file__).parents[2] / "data" / "iree"

SMALL = """
func.func @k(%C: memref<6x10xf32>, %D: memref<6x10xf32>) {
  %bx = gpu.block_id x upper_bound 3
  %c0 = arith.constant 0 : index
  %by = gpu.block_id y upper_bound 2
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x upper_bound 4
  %c2 = arith.constant 2 : index
  %cst = arith.constant 1.0 : f32
  %c4 = arith.constant 4 : index
  %v = arith.constant dense<1.0> : vector<2xf32>
  %c10 = arith.constant 10 : index
  %row0 = arith.muli %by, %c4 : index
  %col0 = arith.muli %bx, %c4 : index
  %x = memref.load %D[%c0, %c0] : memref<6x10xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %r = arith.addi %row0, %i : index
    %r2 = arith.addi %r, %c2 : index
    %c = arith.addi %col0, %t : index
    %in = arith.cmpi ult, %c, %c10 : index
    scf.if %in {
      memref.store %x, %C[%r, %c] : memref<6x10xf32>
    } else {
      memref.store %cst, %C[%c0, %c0] : memref<6x10xf32>
    }
    %rin = arith.cmpi ult, %r2, %c4 : index
    scf.if %rin {
      vector.store %v, %C[%r2, %col0] : memref<6x10xf32>, vector<2xf32>
    }
  }
  return
}
"""


def _tiles(text: str, shape, grid, ids, block=(4, 1, 1)):
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        return output_tiles(f, shape, grid, ids, block)


def _func(text: str, run):
    """``run`` of the one function of ``text``."""
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        return run(f)


def test_loops_branches_and_edges_of_a_small_kernel():
    # (0, 0): rows 0-1 by its 4 threads, rows 2-3 by the vector store; (2, 0): threads 2
    # and 3 past column 9 take the else branch (element [0, 0]); (2, 1): the vector store's
    # rows past 3 are skipped; (1, 1): rows 4-5, columns 4-7
    assert _tiles(SMALL, (6, 10), (3, 2), [(0, 0), (2, 0), (2, 1), (1, 1)]) == [
        [((0, 0), (4, 4))], [((0, 0), (4, 10))], [((0, 0), (6, 10))], [((4, 4), (6, 8))]]


def test_iree_forall_and_linearised_tiles():
    """The 4096^3 dispatch's 128 x 128 tiles: the prefetch point's forall (mapping y, x:
    ids (x, y)), the late form's one linearised id (x fastest over 32 columns of tiles)."""
    pre = (DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text()
    late = (DATA / "matmul_bf16_abt_4096.late.mlir").read_text()
    want = [[((0, 0), (128, 128))], [((0, 128), (128, 256))], [((128, 128), (256, 256))],
            [((3968, 3968), (4096, 4096))]]
    assert _tiles(pre, (4096, 4096), (32, 32), [(0, 0), (1, 0), (1, 1), (31, 31)],
                  (256, 1, 1)) == want
    assert _tiles(late, (4096, 4096), (1024,), [0, 1, 33, 1023], (256, 1, 1)) == want


def test_workgroups_side_by_side_give_the_boxes_one_at_a_time_gives(monkeypatch):
    """The workgroups are evaluated side by side, a chunk at a time (here 5 of the 12 of a
    grid of 4 x 3, two of which write nothing inside C; 40 of the committed dispatch's): the
    boxes, across chunks, are those of the workgroups evaluated one by one."""
    from pipeline_mlir.analysis import output_tiles as ot

    def both(f, shape, grid, ids, block):
        side = output_tiles(f, shape, grid, ids, block)
        with monkeypatch.context() as m:
            m.setattr(ot, "_boxes_side_by_side", lambda *args: None)
            return side, output_tiles(f, shape, grid, ids, block)

    monkeypatch.setattr(ot, "_SIDE_BY_SIDE", 5)
    ids = [(x, y) for y in range(3) for x in range(4)]
    side, one = _func(SMALL, lambda f: both(f, (6, 10), (4, 3), ids, (4, 1, 1)))
    assert side == one and side.count([]) == 2 and side[0] == [((0, 0), (4, 4))]
    assert _func(SMALL, lambda f: ot._boxes_side_by_side(f, (6, 10), (4, 3), ids, (4, 1, 1),
                                                         ())) == side
    # the late form of the 4096^3 dispatch: 40 workgroups of 256 threads, its stores of
    # one element each (arrays of 10240 lanes, one element per lane)
    monkeypatch.setattr(ot, "_SIDE_BY_SIDE", 128)
    late = (DATA / "matmul_bf16_abt_4096.late.mlir").read_text()
    side, one = _func(late, lambda f: both(f, (4096, 4096), (1024,), list(range(40)),
                                           (256, 1, 1)))
    assert side == one and side[33] == [((128, 128), (256, 256))]


#: IREE's linearised workgroup loop over a grid smaller than the tiles: rows of 4 elements,
#: workgroup w takes rows w, w + 3, ... (one tile each)
STRIDED = """
func.func @k(%C: memref<8x4xf32>) {
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.0 : f32
  %t = gpu.thread_id x upper_bound 4
  %id = hal.interface.workgroup.id[0] : index
  %n = hal.interface.workgroup.count[0] : index
  scf.for %i = %id to %c8 step %n {
    memref.store %cst, %C[%i, %t] : memref<8x4xf32>
  }
  return
}
"""


def test_a_linearised_workgroup_loop_gives_a_tile_per_iteration():
    assert _tiles(STRIDED, (8, 4), (3,), [1, 2]) == [
        [((1, 0), (2, 4)), ((4, 0), (5, 4)), ((7, 0), (8, 4))],
        [((2, 0), (3, 4)), ((5, 0), (6, 4))]]
    assert _func(STRIDED, lambda f: written_mask(f, (8, 4), (3,), [1], (4, 1, 1))).sum(
        axis=1).tolist() == \
        [0, 4, 0, 0, 4, 0, 0, 4]


@pytest.mark.parametrize("old, new, said", [
    ("  scf.for %i = %c0 to %c2 step %c1 {",
     "  %w = scf.while (%i = %c0) : (index) -> index {\n"
     "    %go = arith.cmpi ult, %i, %c2 : index\n    scf.condition(%go) %i : index\n"
     "  } do {\n  ^bb0(%i: index):",
     "'scf.while' op: the output's write inside it"),
    ("%row0 = arith.muli %by, %c4 : index", "%row0 = arith.muli %by, %c4 : index\n"
     "  %lim = memref.load %D[%c0, %c1] : memref<6x10xf32>\n"
     "  %limi = arith.fptosi %lim : f32 to i32\n"
     "  %ub = arith.index_cast %limi : i32 to index",
     "'arith.fptosi' op"),
], ids=["while-loop", "loaded-bound"])
def test_what_cannot_be_evaluated_is_one_error_at_the_op(old, new, said):
    text = SMALL.replace(old, new)
    if "scf.while" in new:
        text = text.replace("    }\n  }\n  return", "    }\n    %n = arith.addi %i, %c1 : index\n"
                                                  "    scf.yield %n : index\n  }\n  return")
    else:
        text = text.replace("to %c2 step", "to %ub step")
    assert text != SMALL
    with pytest.raises(IRError, match=said):
        _tiles(text, (6, 10), (3, 2), [(0, 0)])


def test_two_written_buffers_of_the_output_shape_are_refused():
    text = SMALL.replace("memref.store %cst, %C[%c0, %c0]", "memref.store %cst, %D[%c0, %c0]")
    with pytest.raises(IRError, match="2 buffers of 6x10 elements are written"):
        _tiles(text, (6, 10), (3, 2), [(0, 0)])


def test_a_dispatch_sized_at_launch_is_cut_at_the_launchs_m():
    """The committed 4096^3 dispatch with M known only at launch (``test/data/iree/
    dynamic.py``) launched at M = 400: the push constants bound, the last row of tiles
    holds rows 384-399 (the stores past M fall past the binding and are dropped)."""
    import sys

    sys.path.insert(0, str(DATA))
    import dynamic as D

    from pipeline_mlir.analysis.ir_facts import block_size
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    text = D.dynamic_m((DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text(), 256)
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        d = matmul_dispatch(module, (400, 4096, 256))
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        tiles = output_tiles(f, (400, 4096), d.grid, [(0, 0), (31, 3)], block_size(f),
                             d.constants)
    assert d.grid == (32, 4) and tiles == [[((0, 0), (128, 128))],
                                           [((384, 3968), (400, 4096))]]


@pytest.mark.parametrize("old, new, said", [
    ("vector.store %v, %C[%r2, %col0] : memref<6x10xf32>, vector<2xf32>",
     "%mask = vector.constant_mask [1] : vector<2xi1>\n"
     "      vector.transfer_write %v, %C[%r2, %col0], %mask : vector<2xf32>, memref<6x10xf32>",
     "a masked write of the output"),
    ("vector.store %v, %C[%r2, %col0] : memref<6x10xf32>, vector<2xf32>",
     "%v2 = arith.constant dense<1.0> : vector<2x2xf32>\n"
     "      vector.transfer_write %v2, %C[%r2, %col0] {permutation_map = affine_map<(d0, d1) "
     "-> (d1, d0)>} : vector<2x2xf32>, memref<6x10xf32>",
     "a permuted write of the output"),
    ("scf.for %i = %c0 to %c2 step %c1", "scf.for %i = %c0 to %c2 step %t",
     "a loop whose step is not the same for every thread"),
    ("scf.for %i = %c0 to %c2 step %c1",
     "%c5000 = arith.constant 5000 : index\n  scf.for %i = %c0 to %c5000 step %c1",
     "run more than 4096 iterations"),
], ids=["masked", "permuted", "thread-bound", "too-many-iterations"])
def test_writes_the_tiles_are_not_read_through_are_refused(old, new, said):
    text = SMALL.replace(old, new)
    assert text != SMALL
    with pytest.raises(IRError, match=said):
        _tiles(text, (6, 10), (3, 2), [(0, 0)])


#: IREE's late form of a tiny ``C +=`` (C staged through LDS): thread t copies rows t, t + 4,
#: ... of C below ``ROWS``, a row of 4 per iteration
THREAD_LOOP = """
func.func @k(%C: memref<6x4xf32>) {
  %t = gpu.thread_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %rows = arith.constant ROWS : index
  %v = arith.constant dense<1.0> : vector<4xf32>
  scf.for %r = %t to %rows step %c4 {
    vector.store %v, %C[%r, %c0] : memref<6x4xf32>, vector<4xf32>
  }
  return
}
"""


def test_a_loop_from_the_thread_id_in_steps_of_the_workgroup_is_run_per_thread():
    """Each thread runs its own rows (from its id, in steps of the 4 threads), the last
    iteration only by the threads whose row is still below the bound: with 6 rows the
    tile spans rows 0 to 5, with 5 rows 0 to 4 (thread 0 writes row 4, threads 1 to 3 no
    second row); the written mask holds exactly those rows' elements."""
    assert _tiles(THREAD_LOOP.replace("ROWS", "6"), (6, 4), (1,), [0], (4, 1, 1)) == \
        [[((0, 0), (6, 4))]]
    assert _tiles(THREAD_LOOP.replace("ROWS", "5"), (6, 4), (1,), [0], (4, 1, 1)) == \
        [[((0, 0), (5, 4))]]


#: IREE's partial tiles of small kernels (f16 ``A^T x B`` 1000x600x1030): each thread copies
#: the rows it holds (a per-thread count, here 3 - t) from private memory, a row segment of
#: a per-thread width (the columns left in C, at most 2) per ``memref.copy``
COPIES = """
func.func @k(%C: memref<6x10xf32>) {
  %bx = gpu.block_id x upper_bound 3
  %by = gpu.block_id y upper_bound 2
  %t = gpu.thread_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %p = memref.alloca() : memref<4x4xf32, #gpu.address_space<private>>
  %row0 = arith.muli %by, %c4 : index
  %col0 = arith.muli %bx, %c4 : index
  %col = arith.addi %col0, %t : index
  %left = arith.subi %c10, %col : index
  %w = arith.minsi %left, %c2 : index
  %rows = arith.subi %c3, %t : index
  scf.for %i = %c0 to %rows step %c1 {
    %r = arith.addi %row0, %i : index
    %src = memref.subview %p[%i, 0] [1, %w] [1, 1] : memref<4x4xf32, #gpu.address_space<private>> to memref<1x?xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>>
    %dst = memref.subview %C[%r, %col] [1, %w] [1, 1] : memref<6x10xf32> to memref<1x?xf32, strided<[10, 1], offset: ?>>
    memref.copy %src, %dst : memref<1x?xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>> to memref<1x?xf32, strided<[10, 1], offset: ?>>
  }
  return
}
"""


def test_copies_of_per_thread_rows_and_widths():
    # (0, 0): thread t writes rows 0 .. 2 - t, columns t, t + 1 (thread 3 nothing: a
    # loop run to the largest bound for every thread would give columns up to 4); (2, 1):
    # rows 4, 5 (row 6 is past C), columns 8, 9 (thread 1: one column left, thread 2 none)
    assert _tiles(COPIES, (6, 10), (3, 2), [(0, 0), (2, 1)]) == [
        [((0, 0), (3, 4))], [((4, 8), (6, 10))]]


def test_a_box_is_not_what_is_written():
    """(0, 0) of COPIES: its box is rows 0-2, columns 0-3, of which its threads write 9
    elements (row 0: columns 0-3, row 1: 0-2, row 2: 0-1)."""
    mask = _func(COPIES, lambda f: written_mask(f, (6, 10), (3, 2), [(0, 0)], (4, 1, 1)))
    assert mask.sum(axis=1).tolist() == [4, 3, 2, 0, 0, 0] and mask[1, :3].all() and \
        not mask[1, 3] and not mask[2, 2]


#: COPIES with one column per thread and 4 rows per thread but thread 1's: the grid
#: covers C (ONE: 4, all rows) or not (2: rows 2, 3 of each tile's column 1 unwritten,
#: while the other threads' rows still span the tile's box)
COLUMNS = COPIES.replace("%w = arith.minsi %left, %c2 : index",
                         "%w = arith.minsi %left, %c1 : index").replace(
    "%rows = arith.subi %c3, %t : index",
    "%one = arith.cmpi eq, %t, %c1 : index\n  %rows = arith.select %one, %c{ONE}, %c4 : index")


def test_the_grid_covers_the_elements_written_not_their_boxes():
    _func(COLUMNS.replace("{ONE}", "4"), lambda f: check_grid_covers(f, (3, 2), (4, 1, 1)))
    # (the message says both causes: the tenth audit's mutant leaving C's element [0, 0]
    # unwritten was told its grid's bound was short)
    with pytest.raises(IRError, match=r"'gpu.block_id' op: the 6 workgroups of the kernel's "
                                      r"grid 3x2 .* write no element \[2, 1\] of the 6x10 "
                                      r"output: either the kernel leaves that element "
                                      r"unwritten, or it runs on more workgroups"):
        _func(COLUMNS.replace("{ONE}", "2"),
              lambda f: check_grid_covers(f, (3, 2), (4, 1, 1)))


def test_a_copy_of_a_size_no_subview_gives_is_refused():
    text = COPIES.replace(
        "%dst = memref.subview %C[%r, %col] [1, %w] [1, 1] : memref<6x10xf32> to "
        "memref<1x?xf32, strided<[10, 1], offset: ?>>",
        "%dst = memref.cast %C : memref<6x10xf32> to memref<?x?xf32, strided<[10, 1]>>")
    text = text.replace("to memref<1x?xf32, strided<[10, 1], offset: ?>>\n  }",
                        "to memref<?x?xf32, strided<[10, 1]>>\n  }")
    assert text != COPIES
    with pytest.raises(IRError, match="'memref.copy' op: a copy of a memref of a size "
                                      "known only at run time"):
        _tiles(text, (6, 10), (3, 2), [(0, 0)])


def test_a_push_constant_the_launch_does_not_give_is_refused():
    import sys

    sys.path.insert(0, str(DATA))
    import dynamic as D

    text = D.dynamic_m((DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text(), 256)
    with pytest.raises(IRError, match="push constant #0, which the launch does not give"):
        _tiles(text, (400, 4096), (32, 4), [(0, 0)], (256, 1, 1))


@pytest.mark.parametrize("lb", ["%c0", "%by"], ids=["side-by-side", "one-at-a-time"])
def test_the_grid_proof_names_the_first_element_no_workgroup_writes(lb):
    """The proof over the grid evaluates its workgroups side by side, or one at a time when
    a loop around a write starts differently in each (here at the row of workgroups):
    either way it names the first element that written_mask, one workgroup at a time,
    leaves unwritten."""
    import numpy as np

    text = SMALL.replace("scf.for %i = %c0 to %c2", f"scf.for %i = {lb} to %c2")
    points = [(x, y) for x in range(3) for y in range(2)]
    mask = _func(text, lambda f: written_mask(f, (6, 10), (3, 2), points, (4, 1, 1)))
    first = [int(i) for i in np.argwhere(~mask)[0]]
    with pytest.raises(IRError, match=rf"write no element \[{first[0]}, {first[1]}\] of the "
                                      rf"6x10 output"):
        _func(text, lambda f: check_grid_covers(f, (3, 2), (4, 1, 1)))


#: each thread scatters 4 elements of its row at an index vector made with a dense index
#: constant of -1 (the mutation campaign's keptm prefetch point with a compare operand made
#: one less: the bindings read an index element unsigned, 2^64 - 1, an internal error)
NEGATIVE_INDEX = """
func.func @k(%C: memref<4x8xf32>) {
  %bx = gpu.block_id x upper_bound 2
  %t = gpu.thread_id x upper_bound 4
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %flat = memref.collapse_shape %C [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %row = arith.muli %t, %c8 : index
  %col0 = arith.muli %bx, %c4 : index
  %base = arith.addi %row, %col0 : index
  %b = vector.broadcast %base : index to vector<4xindex>
  %step = arith.constant dense<[1, 2, 3, 4]> : vector<4xindex>
  %m1 = arith.constant dense<-1> : vector<4xindex>
  %s = arith.addi %step, %m1 : vector<4xindex>
  %idx = arith.addi %b, %s : vector<4xindex>
  %mask = arith.constant dense<true> : vector<4xi1>
  %v = arith.constant dense<1.0> : vector<4xf32>
  vector.scatter %flat[%c0] [%idx], %mask, %v : memref<32xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  return
}
"""


def test_a_negative_index_vector_constant_is_read_signed():
    # workgroup x writes columns 4x .. 4x + 3 of every row: [1, 2, 3, 4] + -1
    assert _tiles(NEGATIVE_INDEX, (4, 8), (2, 1), [(0, 0), (1, 0)]) == [
        [((0, 0), (4, 4))], [((0, 4), (4, 8))]]


def test_the_grid_proof_frees_each_chunks_evaluator(monkeypatch):
    """Each chunk's evaluator of ``check_grid_covers`` is freed when the chunk is done,
    with no help from the garbage collector: the loops' walk called itself through its
    closure, a cycle that kept every chunk's evaluator and its arrays (2 of the 3 GB an
    i8 2048x50257 kernel's proof peaked at) until a full collection."""
    import gc
    import weakref

    from pipeline_mlir.analysis import output_tiles as OT

    made = []

    class Watched(OT.SideBySide):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            made.append(weakref.ref(self))
    monkeypatch.setattr(OT, "SideBySide", Watched)
    monkeypatch.setattr(OT, "_SIDE_BY_SIDE", 2)          # (3 chunks of the 6 workgroups)
    OT._COVERED.clear()
    gc.disable()
    try:
        _func(COLUMNS.replace("{ONE}", "4"), lambda f: check_grid_covers(f, (3, 2),
                                                                          (4, 1, 1)))
        alive = [r for r in made if r() is not None]
    finally:
        gc.enable()
    assert len(made) == 3 and not alive, (len(made), len(alive))
