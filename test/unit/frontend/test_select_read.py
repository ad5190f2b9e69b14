"""pipeline_mlir/frontend/select_read.py: the late form's masked read of an epilogue input.

IREE's late form of a ``C += A x B`` at unaligned M and N reads C's edge tile as a
``vector.load`` of each row and an ``arith.select`` of its in-bounds elements (the others
a constant pad).  A small hand-written kernel of that shape (C 3x6, 2x2 workgroups of 2
threads, each thread one row of 4 columns) pins what the epilogue reader takes: the mask
true exactly in bounds at every thread and workgroup.  Each mutation of the mask (a bound
one off, a row guard dropped or negated), the pad or the load is refused at the select,
naming where it differs.  An ``scf.if`` on a constant ``false`` whose else-branch reads a
bias (IREE's late form of a per-row scale) is a plain read of it, not a guarded one.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.ir_io import IRError
from test_dispatch import _tied, _trace_guarded as _trace

#: workgroup (x, y) reads rows 2y + t (thread t) and columns 4x..4x+3 of C (3x6), masked
#: by the columns left (``create_mask min(6 - 4x, 4)``) and the row (``2y + t < 3``)
SELECT = """
func.func @k(%C: memref<3x6xf32>, %D: memref<3x6xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %none = arith.constant dense<false> : vector<4xi1>
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 2
  %wx = gpu.block_id x upper_bound 2
  %wy = gpu.block_id y upper_bound 2
  %col = arith.muli %wx, %c4 : index
  %r2 = arith.muli %wy, %c2 : index
  %row = arith.addi %r2, %t : index
  %left = arith.subi %c6, %col : index
  %n = arith.minsi %left, %c4 : index
  %m = vector.create_mask %n : vector<4xi1>
  %ok = arith.cmpi slt, %row, %c3 : index
  %mr = arith.select %ok, %m, %none : vector<4xi1>
  %x = vector.load %C[%row, %col] : memref<3x6xf32>, vector<4xf32>
  %y = arith.select %mr, %x, %zero : vector<4xi1>, vector<4xf32>
  vector.store %y, %D[%row, %col] : memref<3x6xf32>, vector<4xf32>
  return
}
"""


def test_a_row_read_through_an_in_bounds_select_is_a_read():
    """The mask true exactly where the loaded element lies inside C, at every thread and
    workgroup: a read of binding 0 (the pad stands only for elements outside C)."""
    assert _trace(SELECT) == ("read", 0, "vector.load")
    # the same mask made of a broadcast row test, andi and a splat true
    anded = SELECT.replace("%mr = arith.select %ok, %m, %none : vector<4xi1>",
                           "%all = arith.constant dense<true> : vector<4xi1>\n"
                           "  %okv = vector.broadcast %ok : i1 to vector<4xi1>\n"
                           "  %mr0 = arith.andi %okv, %m : vector<4xi1>\n"
                           "  %mr = arith.andi %mr0, %all : vector<4xi1>")
    assert _trace(anded) == ("read", 0, "vector.load")
    # a scalar row test for a whole row: true where element 2 of workgroup (1, 0) is outside
    err, op = _trace(SELECT.replace("arith.select %mr, %x, %zero : vector<4xi1>, vector<4xf32>",
                                    "arith.select %ok, %x, %zero : vector<4xf32>"))
    assert op == "arith.select" and "its mask is true at element 2, whose index [0, 6]" in \
        str(err), err


def _masks_checked(text: str, old: str, new: str, message: str | None) -> None:
    """``check_transfer_masks`` on the function of ``text`` with ``old`` made ``new``: it
    passes (``message`` None) or refuses the masked read, saying ``message``."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.select_read import check_transfer_masks
    from test_dispatch import _context

    assert old in text
    with _context() as ctx:
        module = ir.Module.parse(text.replace(old, new, 1), ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        reads = walk_ops(f, lambda o: o.name == "vector.transfer_read")
        if message is None:
            check_transfer_masks(f, reads)
            return
        with pytest.raises(IRError) as e:
            check_transfer_masks(f, reads)
        assert e.value.op.name == "vector.transfer_read" and message in str(e.value), e.value


@pytest.mark.parametrize("old,new,message", [
    # the columns left one too many: element 2 of workgroup (1, 0) is column 6, outside
    ("%left = arith.subi %c6, %col", "%c7 = arith.constant 7 : index\n"
     "  %left = arith.subi %c7, %col", "its mask is true at element 2, whose index [0, 6] is "
     "outside memref<3x6xf32> (thread 0, workgroup [1, 0], loop iteration [])"),
    ("%n = arith.minsi %left, %c4", "%n = arith.minsi %left, %c3",
     "its mask is false at element 3, whose index [0, 3] is inside"),
    # the row guard dropped: row 3 (thread 1 of workgroup (0, 1)) read as if inside
    ("%y = arith.select %mr,", "%y = arith.select %m,", "its mask is true at element 0, "
     "whose index [3, 0] is outside memref<3x6xf32> (thread 1, workgroup [0, 1]"),
    ("%mr = arith.select %ok, %m, %none", "%mr = arith.select %ok, %none, %m",
     "its mask is false at element 0, whose index [0, 0] is inside"),
    ("%mr = arith.select %ok, %m, %none", "%mr = arith.xori %m, %none",
     "a mask the epilogue reader does not evaluate"),
    ("%y = arith.select %mr, %x, %zero", "%y = arith.select %mr, %zero, %x",
     "its true operand is not a load (a 'vector.load' of one row"),
    ("%y = arith.select %mr, %x, %zero", "%p = arith.addf %x, %x : vector<4xf32>\n"
     "  %y = arith.select %mr, %x, %p", "its false operand (the pad) is not a constant"),
    ("%x = vector.load %C[%row, %col] : memref<3x6xf32>, vector<4xf32>",
     "%a = memref.alloca() : memref<3x6xf32, #gpu.address_space<private>>\n"
     "  %x = vector.load %a[%row, %col] : memref<3x6xf32, #gpu.address_space<private>>, "
     "vector<4xf32>", "loads memory that is not a binding"),
    ("%ok = arith.cmpi slt, %row, %c3 : index", "%ok = arith.cmpf olt, %zero, %zero : "
     "vector<4xf32>", "its mask or index could not be evaluated"),
])
def test_a_select_that_is_not_the_in_bounds_read_is_refused(old, new, message):
    """Each mutation of the mask, the pad or the load: refused at the select (or the load),
    saying what differs and where (the thread and workgroup)."""
    assert old in SELECT
    text = SELECT.replace(old, new, 1)
    if "cmpf" in new:
        text = text.replace("arith.select %ok, %m", "arith.select %ok2, %m").replace(
            "%mr = ", "%ok2 = vector.extract %ok[0] : i1 from vector<4xi1>\n  %mr = ")
    err, op = _trace(text)
    assert isinstance(err, IRError) and op in ("arith.select", "vector.load", "arith.xori"), err
    assert message in str(err), str(err)


def test_a_select_is_checked_in_every_workgroup(monkeypatch):
    """The mask is evaluated at every workgroup of the grid, a chunk at a time: a bound off
    in the last workgroup only is found across chunks; a grid past the limit is refused."""
    from pipeline_mlir.frontend import guarded_read

    text = SELECT.replace("%n = arith.minsi %left, %c4", "%last = arith.cmpi eq, %row, %c2 "
                          ": index\n  %b = arith.select %last, %c1, %c4 : index\n"
                          "  %n = arith.minsi %left, %b")
    monkeypatch.setattr(guarded_read, "CHUNK", 1)
    err, op = _trace(text)
    assert op == "arith.select" and "workgroup [0, 1]" in str(err), err
    monkeypatch.setattr(guarded_read, "MAX_POINTS", 3)
    err, op = _trace(SELECT)
    assert op == "arith.select" and "there are 4 of them, not 1 to 3" in str(err), err


#: C 3x3 in one workgroup column of 4: the columns left the same in every workgroup, so
#: IREE's late form masks them with a ``vector.constant_mask`` (i8 ``C += A x B``
#: 491x125x320, one 128-column tile: ``vector.constant_mask [125]``)
CONSTANT = SELECT.replace("memref<3x6xf32>", "memref<3x3xf32>").replace(
    "%wx = gpu.block_id x upper_bound 2", "%wx = gpu.block_id x upper_bound 1").replace(
    "%m = vector.create_mask %n : vector<4xi1>", "%m = vector.constant_mask [3] : vector<4xi1>")


@pytest.mark.parametrize("size,message", [
    (3, None),
    (4, "its mask is true at element 3, whose index [0, 3] is outside memref<3x3xf32>"),
    (2, "its mask is false at element 2, whose index [0, 2] is inside"),
])
def test_a_constant_mask_is_read(size, message):
    """A ``vector.constant_mask`` is the prefix of its size in every thread: the in-bounds
    columns exactly, a read (the ninth audit's late form was refused at it before); one
    column more or fewer is refused at the select, as a ``create_mask`` would be."""
    got = _trace(CONSTANT.replace("constant_mask [3]", f"constant_mask [{size}]"))
    if message is None:
        assert got == ("read", 0, "vector.load"), got
        return
    err, op = got
    assert op == "arith.select" and message in str(err), err

@pytest.mark.parametrize("bits,message", [
    ("true, true, true, false", None),
    ("true, true, true, true", "its mask is true at element 3, whose index [0, 3] is outside"),
    ("true, false, true, false", "its mask is false at element 1, whose index [0, 1] is inside"),
])
def test_a_dense_constant_mask_is_read(bits, message):
    """IREE's late form of a tiny ``C += A x B^T`` (bf16 33x9) masks a row of C cut at its
    edge with a dense ``i1`` constant (the constant mask folded): read as its elements in
    every thread, the in-bounds columns exactly a read; one too many, or a hole, refused
    at the select."""
    got = _trace(CONSTANT.replace("%m = vector.constant_mask [3] : vector<4xi1>",
                                  f"%m = arith.constant dense<[{bits}]> : vector<4xi1>"))
    if message is None:
        assert got == ("read", 0, "vector.load"), got
        return
    err, op = got
    assert op == "arith.select" and message in str(err), err


#: IREE's late form of a per-row scale of an edge tile: the guarded load of the scale sits
#: in an ``scf.if`` on a constant ``false``; its else-branch reads the scale unguarded
SCALE = """
func.func @k(%s: memref<16xf32>, %C: memref<2x16xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %pad = arith.constant dense<0.0> : vector<4xf32>
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 2
  %w = gpu.block_id x upper_bound 4
  %w4 = arith.muli %w, %c4 : index
  %x = scf.if %false -> (vector<4xf32>) {
    scf.yield %pad : vector<4xf32>
  } else {
    %e = vector.load %s[%w4] : memref<16xf32>, vector<4xf32>
    scf.yield %e : vector<4xf32>
  }
  vector.store %x, %C[%t, %w4] : memref<2x16xf32>, vector<4xf32>
  return
}
"""


def test_an_else_branch_read_is_not_a_guarded_one():
    """The bias read in the else-branch of an ``scf.if`` on a constant ``false`` (the branch
    that runs) is a plain read of it: telling which of C's indices it follows does not
    take it for a guarded read (which refused it, its guard false in bounds)."""
    assert _tied(SCALE) == "column"


def test_an_else_branch_read_is_tied_to_c_over_the_grid():
    """That read is tied to C's tiles over the grid as a guarded one is: one element off in
    workgroup 2 only (the first and last workgroups, which ``--emulate`` runs, exact) is
    refused at the load, naming the workgroup."""
    _refused_off_in_2(SCALE, "%e = vector.load %s[%w4]", "    ")


def test_a_plain_read_is_tied_to_c_over_the_grid():
    """SCALE's read outside any ``scf.if`` (as the prefetch point reads a per-row scale) is
    tied the same way: read as is, it follows C's columns; one element off in workgroup 2
    only was taken, and is refused at the load, naming the workgroup."""
    guarded = ("%x = scf.if %false -> (vector<4xf32>) {\n    scf.yield %pad : vector<4xf32>\n"
               "  } else {\n    %e = vector.load %s[%w4] : memref<16xf32>, vector<4xf32>\n"
               "    scf.yield %e : vector<4xf32>\n  }\n")
    assert guarded in SCALE
    plain = SCALE.replace(guarded, "%x = vector.load %s[%w4] : memref<16xf32>, vector<4xf32>\n")
    assert "scf.if" not in plain and _tied(plain) == "column"
    _refused_off_in_2(plain, "%x = vector.load %s[%w4]", "  ")


def _refused_off_in_2(text: str, read: str, indent: str) -> None:
    """``text`` with ``read`` (a load at ``%w4``, indented by ``indent``) one element off in
    workgroup 2 only: refused at the load, naming the workgroup (``_tied``)."""
    assert text.count(read) == 1
    err = _tied(text.replace(read, f"%c2 = arith.constant 2 : index\n{indent}%is2 = "
                                   f"arith.cmpi eq, %w, %c2 : index\n{indent}%o = arith.select "
                                   f"%is2, %c1, %c0 : index\n{indent}%w5 = arith.addi %w4, %o "
                                   f": index\n{indent}" + read.replace("%w4", "%w5")))
    assert isinstance(err, IRError) and err.op.name == "vector.load", err
    assert "in workgroup [2] thread 0 (loop iteration []) it reads element 9, 9 from the " \
        "grid's first workgroup's, where the column of the tile of C it writes moved by 8" \
        in str(err), str(err)


#: the prefetch point's masked read of C's edge tile: workgroup (x, y) reads rows 2y, 2y + 1
#: and columns 4x..4x+3 of C (3x6) through a subview, masked by the rows and columns left
TRANSFER = """
func.func @k(%C: memref<3x6xf32>) attributes {gpu.known_block_size = array<i32: 2, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant 0.0 : f32
  %wx = gpu.block_id x upper_bound 2
  %wy = gpu.block_id y upper_bound 2
  %col = arith.muli %wx, %c4 : index
  %row = arith.muli %wy, %c2 : index
  %v = memref.subview %C[%row, %col] [2, 4] [1, 1] : memref<3x6xf32> to memref<2x4xf32, strided<[6, 1], offset: ?>>
  %rl = arith.subi %c3, %row : index
  %nr = arith.minsi %rl, %c2 : index
  %cl = arith.subi %c6, %col : index
  %nc = arith.minsi %cl, %c4 : index
  %m = vector.create_mask %nr, %nc : vector<2x4xi1>
  %x = vector.transfer_read %v[%c0, %c0], %pad, %m {in_bounds = [true, true]} : memref<2x4xf32, strided<[6, 1], offset: ?>>, vector<2x4xf32>
  return
}
"""


@pytest.mark.parametrize("old,new,message", [
    ("", "", None),
    ("%nc = arith.minsi %cl, %c4", "%nc = arith.minsi %cl, %c3", "its mask is false at "
     "element [0, 3], whose index [0, 3] is inside memref<3x6xf32> (thread 0, workgroup "
     "[0, 0]"),
    ("%rl = arith.subi %c3, %row", "%rl = arith.subi %c4, %row", "its mask is true at "
     "element [1, 0], whose index [3, 0] is outside memref<3x6xf32> (thread 0, workgroup "
     "[0, 1]"),
    ("{in_bounds = [true, true]}", "{in_bounds = [true, false]}", "permuted or not in bounds"),
    ("%m = vector.create_mask %nr, %nc : vector<2x4xi1>", "%m0 = vector.create_mask %nr, %nc "
     ": vector<2x4xi1>\n  %m = arith.ori %m0, %m0 : vector<2x4xi1>", "a mask the epilogue "
     "reader does not evaluate"),
])
def test_a_masked_transfer_read_is_checked_over_the_grid(old, new, message):
    """The prefetch point's masked ``vector.transfer_read`` of an epilogue input: its mask
    (of two dimensions, through a subview of C) true exactly where the element lies inside
    C at every thread and workgroup, else refused at the read (a mask shrunk in one
    workgroup only gave the pad there, reported exact)."""
    _masks_checked(TRANSFER, old, new, message)


#: IREE's prefetch point of C's edge tile read a column per thread: workgroup (x, y) reads
#: rows 2y, 2y + 1 and column 4x + t of C (3x6) (thread t of 4), its column clamped to the
#: tile's width (``min(t, w)``: in workgroup x = 1, 2 columns wide, threads 2 and 3 read at
#: column 6 = N), masked by the rows left and the columns left of the thread's (0 or 1)
CLAMPED = """
func.func @k(%C: memref<3x6xf32>) attributes {gpu.known_block_size = array<i32: 4, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant 0.0 : f32
  %t = gpu.thread_id x upper_bound 4
  %wx = gpu.block_id x upper_bound 2
  %wy = gpu.block_id y upper_bound 2
  %col = arith.muli %wx, %c4 : index
  %row = arith.muli %wy, %c2 : index
  %rl = arith.subi %c3, %row : index
  %nr = arith.minsi %rl, %c2 : index
  %cl = arith.subi %c6, %col : index
  %w = arith.minsi %cl, %c4 : index
  %tc = arith.minsi %t, %w : index
  %left = arith.subi %w, %tc : index
  %nc = arith.minsi %left, %c1 : index
  %v0 = memref.subview %C[%row, %col] [%nr, %w] [1, 1] : memref<3x6xf32> to memref<?x?xf32, strided<[6, 1], offset: ?>>
  %v = memref.subview %v0[%c0, %tc] [%nr, %nc] [1, 1] : memref<?x?xf32, strided<[6, 1], offset: ?>> to memref<?x?xf32, strided<[6, 1], offset: ?>>
  %m = vector.create_mask %nr, %nc : vector<2x1xi1>
  %x = vector.transfer_read %v[%c0, %c0], %pad, %m {in_bounds = [true, true]} : memref<?x?xf32, strided<[6, 1], offset: ?>>, vector<2x1xf32>
  return
}
"""


@pytest.mark.parametrize("old,new,message", [
    ("", "", None),
    # true at column 6 = N: outside C along N, though its flat element is [1, 0]'s
    ("%nc = arith.minsi %left, %c1", "%nc = arith.addi %c0, %c1", "its mask is true at "
     "element [0, 0], whose index [0, 6] is outside memref<3x6xf32> (thread 2, workgroup "
     "[1, 0]"),
    # false where the thread's column is inside C
    ("%nc = arith.minsi %left, %c1", "%nc = arith.subi %c1, %c1", "its mask is false at "
     "element [0, 0], whose index [0, 0] is inside memref<3x6xf32> (thread 0, workgroup "
     "[0, 0]"),
    # a view through an op that does not keep the indices (no subview offsets to add):
    # read off the flat offset, column 6 on the next row, as before
    ("%v = memref.subview %v0[%c0, %tc] [%nr, %nc] [1, 1] : memref<?x?xf32, strided<[6, 1], "
     "offset: ?>> to memref<?x?xf32, strided<[6, 1], offset: ?>>", "%v1 = memref.subview "
     "%v0[%c0, %tc] [%nr, %nc] [1, 1] : memref<?x?xf32, strided<[6, 1], offset: ?>> to "
     "memref<?x?xf32, strided<[6, 1], offset: ?>>\n  %v = iree_codegen.swizzle_hint %v1"
     "[#iree_codegen.xor_shuffle<6, 1>] : memref<?x?xf32, strided<[6, 1], offset: ?>>",
     "its mask is false at element [0, 0], whose index [1, 0] is inside"),
])
def test_a_mask_is_judged_by_the_index_in_each_dimension(old, new, message):
    """A thread whose read lies past C's last column (IREE clamps its column to the edge
    tile's width, N) is outside C along N, where its mask is rightly empty, though its flat
    element is the next row's first: the masked read's element is indexed per dimension
    through the subviews (``views.root_indices``; before, read off the flat offset, the
    read was refused as a mask false inside C).  A mask true there (the element outside)
    or false at an element inside is still refused."""
    _masks_checked(CLAMPED, old, new, message)


#: IREE's prefetch point of the ``C +=`` i8 16x25x323 (4 stages): each thread reads a
#: column of C's edge tile with an unmasked ``vector.transfer_read`` and selects it whole by
#: whether its column is inside C (``index_castui`` of the columns left, 0 or 1, to
#: ``i1``).  Here workgroup x reads column 4x + t of C (4x6) (thread t of 4), clamped to
#: the tile's width: in workgroup 1, threads 2 and 3 read at column 6 = N, selected away
COLUMN = """
func.func @k(%C: memref<4x6xf32>, %D: memref<4x6xf32>) attributes {gpu.known_block_size = array<i32: 4, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<4x1xf32>
  scf.for %k = %c0 to %c1 step %c1 {
  }
  %t = gpu.thread_id x upper_bound 4
  %wx = gpu.block_id x upper_bound 2
  %col = arith.muli %wx, %c4 : index
  %cl = arith.subi %c6, %col : index
  %w = arith.minsi %cl, %c4 : index
  %tc = arith.minsi %t, %w : index
  %left = arith.subi %w, %tc : index
  %nc = arith.minsi %left, %c1 : index
  %at = arith.addi %col, %tc : index
  %v = memref.subview %C[%c0, %at] [4, %nc] [1, 1] : memref<4x6xf32> to memref<4x?xf32, strided<[6, 1], offset: ?>>
  %in = arith.index_castui %nc : index to i1
  %x = vector.transfer_read %v[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x?xf32, strided<[6, 1], offset: ?>>, vector<4x1xf32>
  %y = arith.select %in, %x, %zero : vector<4x1xf32>
  %o = memref.subview %D[%c0, %at] [4, %nc] [1, 1] : memref<4x6xf32> to memref<4x?xf32, strided<[6, 1], offset: ?>>
  vector.transfer_write %y, %o[%c0, %c0] {in_bounds = [true, true]} : vector<4x1xf32>, memref<4x?xf32, strided<[6, 1], offset: ?>>
  return
}
"""


@pytest.mark.parametrize("old,new,message", [
    ("", "", None),
    # selected where the column is N (thread 2 of workgroup 1): outside C
    ("%in = arith.index_castui %nc : index to i1", "%in = arith.constant true",
     "its mask is true at element [0, 0], whose index [0, 6] is outside memref<4x6xf32> "
     "(thread 2, workgroup [1]"),
    ("%in = arith.index_castui %nc : index to i1", "%in = arith.constant false",
     "its mask is false at element [0, 0], whose index [0, 0] is inside"),
    ("%pad {in_bounds = [true, true]}", "%pad {in_bounds = [true, false]}",
     "in a masked read is masked, permuted or not in bounds"),
    ("%pad {in_bounds", "%pad, %m {in_bounds", "in a masked read is masked, permuted or "
     "not in bounds"),
    # the binding's bounds (not the view's, of a dynamic column) must be static
    ("%C: memref<4x6xf32>", "%C: memref<?x6xf32>", "a masked read of a memref of dynamic "
     "shape memref<?x6xf32>"),
])
def test_a_column_read_selected_whole_is_a_read(old, new, message):
    """A select of an unmasked, in-bounds ``vector.transfer_read`` of two dimensions by an
    ``i1``: a read of C when the ``i1`` is true exactly where the column is inside C, at
    every thread and workgroup (before, refused as a select of more than one dimension,
    so ``--emulate`` refused the prefetch point of that ``C +=``); a condition true
    outside or false inside C, the read masked or not in bounds, or C of a dynamic shape
    (its bounds not known), refused."""
    text = COLUMN.replace(old, new, 1)
    if "?x6" in new:
        text = text.replace("%C[%c0, %at] [4, %nc] [1, 1] : memref<4x6xf32>",
                            "%C[%c0, %at] [4, %nc] [1, 1] : memref<?x6xf32>")
    if "%m {" in new:
        text = text.replace("%in = ", "%m = vector.create_mask %c4, %nc : vector<4x1xi1>\n"
                                      "  %in = ")
    got = _trace(text)
    if message is None:
        assert got == ("read", 0, "vector.transfer_read"), got
        return
    err, op = got
    assert isinstance(err, IRError) and message in str(err), err
