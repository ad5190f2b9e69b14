"""forward_private_rows (pipeline_mlir/frontend/private_rows.py) on small functions: C's
tile staged through a private buffer (IREE's late form, row by row; its prefetch point,
one masked read), read back element by element, forwarded to reads of C; and the
mutants it must leave as they are, each one that forwarding would make wrong.

The forwarded kernels' values are checked on the emulator by
``test/unit/tools/test_iree_epilogues.py`` (IREE's f16 257x129x2048 ``C +=``, both forms)."""

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.private_rows import forward_private_rows

_C = "memref<10x6xf32, #amdgpu.address_space<fat_raw_buffer>>"
_P = "memref<4x8xf32, #gpu.address_space<private>>"


def _row(c: int, row: str = "%r{c}", mask: str = "%m{c}") -> str:
    """Row ``c`` of the late form: IREE's scf.if of a masked load and a selected load."""
    row, mask = row.format(c=c), mask.format(c=c)
    return f"""
    %if{c} = scf.if %false -> (vector<8xf32>) {{
      %x = vector.maskedload %g[{row}, %col], {mask}, %pad : {_C}, vector<8xi1>, vector<8xf32> into vector<8xf32>
      scf.yield %x : vector<8xf32>
    }} else {{
      %x = vector.load %g[{row}, %col] : {_C}, vector<8xf32>
      %y = arith.select {mask}, %x, %pad : vector<8xi1>, vector<8xf32>
      scf.yield %y : vector<8xf32>
    }}
    vector.store %if{c}, %p[%c{c}, %c0] : {_P}, vector<8xf32>"""


def _late(rows: str | None = None, **swap) -> str:
    """The late form on a 10x6 C, a 4x8 tile at (%wg * 4, 4), each thread reading the
    element (%tid / 8, %tid % 8); ``rows``: the rows' text (default: :func:`_row` each);
    ``swap``: text replaced (a mutant)."""
    rows = "".join(_row(c) for c in range(4)) if rows is None else rows
    text = f"""
  func.func @k(%raw: memref<10x6xf32>, %wg: i32) -> vector<1xf32> {{
    %g = amdgpu.fat_raw_buffer_cast %raw resetOffset : memref<10x6xf32> to {_C}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %c10_i32 = arith.constant 10 : i32
    %false = arith.constant false
    %pad = arith.constant dense<0.0> : vector<8xf32>
    %none = arith.constant dense<false> : vector<8xi1>
    %col = arith.constant 4 : index
    %cols = arith.constant 2 : index
    %p = memref.alloca() : {_P}
    %base = arith.muli %wg, %c4_i32 : i32
    %left0 = arith.subi %c10_i32, %base : i32
    %left = arith.minui %left0, %c4_i32 : i32
    %m0 = vector.create_mask %cols : vector<8xi1>
    %b1 = arith.cmpi sgt, %left, %c1_i32 : i32
    %m1 = arith.select %b1, %m0, %none : vector<8xi1>
    %b2 = arith.cmpi sgt, %left, %c2_i32 : i32
    %m2 = arith.select %b2, %m0, %none : vector<8xi1>
    %b3 = arith.cmpi sgt, %left, %c3_i32 : i32
    %m3 = arith.select %b3, %m0, %none : vector<8xi1>
    %r0 = arith.index_castui %base : i32 to index
    %s1 = arith.addi %base, %c1_i32 : i32
    %r1 = arith.index_castui %s1 : i32 to index
    %s2 = arith.addi %base, %c2_i32 : i32
    %r2 = arith.index_castui %s2 : i32 to index
    %s3 = arith.addi %base, %c3_i32 : i32
    %r3 = arith.index_castui %s3 : i32 to index{rows}
    %tid = gpu.thread_id x upper_bound 32
    %i = arith.divui %tid, %c8 : index
    %j = arith.remui %tid, %c8 : index
    %e = vector.load %p[%i, %j] : {_P}, vector<1xf32>
    return %e : vector<1xf32> }}"""
    for old, new in swap.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def _prefetch(**swap) -> str:
    """The prefetch point's form of the same tile: one masked read of a subview of C,
    read back through an expand_shape view; ``swap``: text replaced everywhere (a
    mutant)."""
    text = f"""
  func.func @k(%raw: memref<10x6xf32>, %o0: index, %rows: index) -> vector<2x1xf32>
      attributes {{known_block_size = array<i32: 4, 1, 1>}} {{
    %g = amdgpu.fat_raw_buffer_cast %raw resetOffset : memref<10x6xf32> to {_C}
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %poison = ub.poison : f32
    %p = memref.alloca() : {_P}
    %s = memref.subview %g[%o0, %c4] [%rows, %c2] [1, 1] : {_C} to memref<?x?xf32, strided<[6, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
    %m = vector.create_mask %rows, %c2 : vector<4x8xi1>
    %t = vector.transfer_read %s[%c0, %c0], %zero, %m {{in_bounds = [true, true]}} : memref<?x?xf32, strided<[6, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<4x8xf32>
    vector.transfer_write %t, %p[%c0, %c0] {{in_bounds = [true, true]}} : vector<4x8xf32>, {_P}
    %v = memref.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 2, 4, 2] : {_P} into memref<2x2x4x2xf32, #gpu.address_space<private>>
    gpu.barrier
    %tid = gpu.thread_id x upper_bound 4
    %e = vector.transfer_read %v[%c0, %c0, %tid, %c0], %poison {{in_bounds = [true, true, true, true]}} : memref<2x2x4x2xf32, #gpu.address_space<private>>, vector<2x1x1x1xf32>
    %f = vector.shape_cast %e : vector<2x1x1x1xf32> to vector<2x1xf32>
    return %f : vector<2x1xf32> }}"""
    for old, new in swap.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_a_tile_staged_inside_a_loop_is_left_to_the_loops_rewrites():
    """The same tile written and read back in a loop's body (a K-loop's copy staged
    through private memory: private_values.py, private_stage.py)."""
    body = _prefetch().replace("    %p = memref.alloca()", "    %c1 = arith.constant 1 : index\n"
                               "    %p = memref.alloca()")
    start = body.index("    %s = memref.subview")
    end = body.index("    return")
    loop = ("    %r = scf.for %it = %c0 to %c2 step %c1 iter_args(%a = %init) -> "
            "(vector<2x1xf32>) {\n" + body[start:end] + "      scf.yield %f : vector<2x1xf32>\n"
            "    }\n")
    body = (body[:start] + "    %init = arith.constant dense<0.0> : vector<2x1xf32>\n" + loop +
            "    return %r : vector<2x1xf32> }")
    assert not _forwarded(body)


def _forwarded(body: str) -> bool:
    """Whether the private buffer of ``body`` is gone after the rewrite (the module
    verified)."""
    with new_context() as ctx:
        m = ir.Module.parse("module {" + body + "}", ctx)
        (f,) = walk_ops(m.operation, lambda o: o.name == "func.func")
        forward_private_rows(f)
        assert m.operation.verify()
        return not walk_ops(m.operation, lambda o: o.name == "memref.alloca" and
                            ir.MemRefType(o.results[0].type).rank == 2)


#: IREE's late form where N is one tile: the rows read whole, row c > 0 selected by its
#: condition broadcast (f16 257x128x256)
WHOLE_ROWS = {"%m0 = vector.create_mask %cols : vector<8xi1>":
              "%m0 = arith.constant dense<true> : vector<8xi1>",
              **{f"%m{c} = arith.select %b{c}, %m0, %none : vector<8xi1>":
                 f"%m{c} = vector.broadcast %b{c} : i1 to vector<8xi1>" for c in (1, 2, 3)}}


#: IREE's late form where the columns left are the same in every workgroup: the columns'
#: mask a vector.constant_mask (i8 ``C += A x B`` 491x125x320: ``constant_mask [125]``)
FIXED_COLUMNS = {"%m0 = vector.create_mask %cols : vector<8xi1>":
                 "%m0 = vector.constant_mask [2] : vector<8xi1>"}


#: the same mask folded to its bits, as IREE folds it where the grid is one workgroup (bf16
#: ``C += A x B`` 64x56x352: ``dense<[true x 56, false x 8]>``)
FOLDED_COLUMNS = {"%m0 = vector.create_mask %cols : vector<8xi1>":
                  "%m0 = arith.constant dense<[true, true, false, false, false, false, false, "
                  "false]> : vector<8xi1>"}


@pytest.mark.parametrize("swap", [{}, WHOLE_ROWS, FIXED_COLUMNS, FOLDED_COLUMNS],
                         ids=["masked rows", "whole rows", "a constant mask",
                              "a constant mask folded"])
def test_the_late_forms_rows_are_forwarded(swap):
    assert _forwarded(_late(**swap))


def _tile_at_zero(kinds: str, pad: str = "%pad") -> str:
    """The late form of a tile at C's row 0 (the row index folded to the constant ``c``),
    row by row of ``kinds``: ``r`` read (the same column mask), ``p`` the pad stored
    (``pad``: a row past C's last)."""
    return _late("".join(
        _row(c, row="%c{c}", mask="%m0") if k == "r" else
        f"\n    vector.store {pad}, %p[%c{c}, %c0] : {_P}, vector<8xf32>"
        for c, k in enumerate(kinds)))


def test_rows_at_constant_indices_and_pad_rows_past_cs_last_are_forwarded():
    """IREE's late form of a tile at C's row 0 with rows past C's last (bf16 ``C += A x
    B`` 41x163x1630, 4 prefetch stages: 41 rows of a 64-row tile read at constant indices,
    23 stored as the pad): forwarded, each element read at its row, none past the limit;
    a pad row among the read ones, a pad other than the rows', or a row read at another
    constant is left as it is."""
    assert _forwarded(_tile_at_zero("rrpp")) and _forwarded(_tile_at_zero("rrrp"))
    assert not _forwarded(_tile_at_zero("rprp"))
    assert not _forwarded(_tile_at_zero("rrpp", "%ones").replace(
        "%pad = arith.constant", "%ones = arith.constant dense<1.0> : vector<8xf32>\n"
        "    %pad = arith.constant"))
    assert not _forwarded(_tile_at_zero("rrpp").replace("%g[%c1, %col]", "%g[%c2, %col]"))


#: the prefetch point of a grid of one workgroup: the tile read from C itself at [0, 0],
#: masked by a vector.constant_mask (IREE folds the subview and the mask: bf16 ``C += A x
#: B^T`` 128x100x400, ``constant_mask [128, 100]``)
FOLDED_TILE = {
    "    %s = memref.subview %g[%o0, %c4] [%rows, %c2] [1, 1] : " + _C +
    " to memref<?x?xf32, strided<[6, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>\n": "",
    "%m = vector.create_mask %rows, %c2 : vector<4x8xi1>":
    "%m = vector.constant_mask [4, 6] : vector<4x8xi1>",
    "vector.transfer_read %s[%c0, %c0], %zero, %m {in_bounds = [true, true]} : "
    "memref<?x?xf32, strided<[6, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>":
    "vector.transfer_read %g[%c0, %c0], %zero, %m {in_bounds = [true, true]} : " + _C}


@pytest.mark.parametrize("swap", [{}, {"%g[%o0, %c4]": "%g[%o0, 4]"}, FOLDED_TILE],
                         ids=["offsets in values", "a column offset in the subview",
                              "C itself, a constant mask"])
def test_the_prefetch_points_tile_is_forwarded(swap):
    """(IREE states C's column offset 0 in the subview where N is one tile: 257x128.)"""
    assert _forwarded(_prefetch(**swap))


def test_c_written_after_the_next_barrier_is_no_hazard():
    """C's tile read after the barrier instead of before it: C may be written once every
    thread has passed its reads (the next barrier, here at the top of a loop's body, as in
    IREE's K-loop), not before (the mutants below)."""
    assert _forwarded(_prefetch(**{"    return %f": f"""    %c1 = arith.constant 1 : index
    scf.for %it = %c0 to %c2 step %c1 {{
      gpu.barrier
      memref.store %zero, %g[%c0, %c0] : {_C}
    }}
    return %f"""}))


@pytest.mark.parametrize("memory, forwarded", [("private", True), ("global", False)])
def test_a_private_write_before_the_next_barrier_is_no_hazard(memory, forwarded):
    """A write of the thread's private memory between the read back and the next barrier
    (IREE's i8 ``C += A x B`` 491x125x320: its K-loop stages B's copy through a private
    buffer before its barrier) is seen by no other thread: forwarded; a write of C there
    is not (another thread may have passed the barrier)."""
    target = ("%q[%c0] : memref<1xf32, #gpu.address_space<private>>" if memory == "private"
              else f"%g[%c0, %c0] : {_C}")
    assert _forwarded(_prefetch(**{"    return %f": f"""    %c1 = arith.constant 1 : index
    %q = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
    scf.for %it = %c0 to %c2 step %c1 {{
      memref.store %zero, {target}
      gpu.barrier
    }}
    return %f"""})) is forwarded


#: mutants of the late form forwarding would make wrong: left as they are
LATE_KEPT = {
    "row 1 masked to another constant width": {
        **FIXED_COLUMNS, "%m1 = arith.select %b1, %m0, %none : vector<8xi1>":
        "%k3 = vector.constant_mask [3] : vector<8xi1>\n"
        "    %m1 = arith.select %b1, %k3, %none : vector<8xi1>"},
    "row 1 masked to another folded width": {
        **FOLDED_COLUMNS, "%m1 = arith.select %b1, %m0, %none : vector<8xi1>":
        "%k3 = arith.constant dense<[true, true, true, false, false, false, false, false]> "
        ": vector<8xi1>\n    %m1 = arith.select %b1, %k3, %none : vector<8xi1>"},
    "columns folded to lanes that are not a prefix": {
        "%m0 = vector.create_mask %cols : vector<8xi1>":
        "%m0 = arith.constant dense<[false, true, true, false, false, false, false, false]> "
        ": vector<8xi1>"},
    "row 3 read at base + 5": {"%s3 = arith.addi %base, %c3_i32": "%s3 = arith.addi %base, %c1_i32"},
    "row 2's condition on another bound": {"%b2 = arith.cmpi sgt, %left, %c2_i32":
                                           "%b2 = arith.cmpi sgt, %left0, %c2_i32"},
    "row 2's condition at row 1": {"%b2 = arith.cmpi sgt, %left, %c2_i32":
                                   "%b2 = arith.cmpi sgt, %left, %c1_i32"},
    "row 1 stored twice, row 3 never": {"%p[%c3, %c0]": "%p[%c1, %c0]"},
    "a non-zero pad": {"dense<0.0> : vector<8xf32>": "dense<1.0> : vector<8xf32>"},
    "the element read past the buffer's rows": {"upper_bound 32": "upper_bound 40"},
    "C written between the rows and the read": {
        "    %tid = gpu.thread_id": "    vector.store %pad, %g[%c0, %c0] : " + _C +
                                    ", vector<8xf32>\n    %tid = gpu.thread_id"},
    "C read without its range check": {"resetOffset :": "resetOffset boundsCheck(false) :"},
    "row 2 read whole under row 1's condition": {
        **WHOLE_ROWS, "%m2 = arith.select %b2, %m0, %none : vector<8xi1>":
        "%m2 = vector.broadcast %b1 : i1 to vector<8xi1>"},
    "row 0 selected from a load of C made before C is written": {
        _row(0): f"""
    %x0 = vector.load %g[%r0, %col] : {_C}, vector<8xf32>
    vector.store %pad, %g[%r0, %col] : {_C}, vector<8xf32>
    %if0 = arith.select %m0, %x0, %pad : vector<8xi1>, vector<8xf32>
    vector.store %if0, %p[%c0, %c0] : {_P}, vector<8xf32>"""},
    "C written past the barrier the element read now follows": {
        "    %tid = gpu.thread_id": "    gpu.barrier\n    %tid = gpu.thread_id",
        "    return %e": f"    vector.store %pad, %g[%c0, %c0] : {_C}, vector<8xf32>\n    return %e"},
}


@pytest.mark.parametrize("name", LATE_KEPT)
def test_a_late_form_mutant_is_left_as_it_is(name):
    assert not _forwarded(_late(**LATE_KEPT[name]))


#: mutants of the prefetch point's form forwarding would make wrong: left as they are
PREFETCH_KEPT = {
    "a mask other than create_mask": {"%m = vector.create_mask %rows, %c2 : vector<4x8xi1>":
                                      "%m = vector.constant_mask [4, 2] : vector<4x8xi1>"},
    "a pad other than zero": {"%zero = arith.constant 0.0": "%zero = arith.constant 2.0"},
    "C itself read at another row": {
        **FOLDED_TILE, "%c2 = arith.constant 2 : index":
        "%c2 = arith.constant 2 : index\n    %c1 = arith.constant 1 : index",
        "vector.transfer_read %g[%c0, %c0], %zero": "vector.transfer_read %g[%c1, %c0], %zero"},
    "C itself read without its range check": {
        **FOLDED_TILE, "resetOffset :": "resetOffset boundsCheck(false) :"},
    "a strided subview": {"[%rows, %c2] [1, 1]": "[%rows, %c2] [1, 2]",
                          "strided<[6, 1], offset: ?>": "strided<[6, 2], offset: ?>"},
    "C written before the read": {
        "    gpu.barrier": f"    memref.store %zero, %g[%c0, %c0] : {_C}\n    gpu.barrier"},
    "read back whole (a value passed on)": {
        "vector.transfer_read %v[%c0, %c0, %tid, %c0], %poison {in_bounds = [true, true, true, true]} : memref<2x2x4x2xf32, #gpu.address_space<private>>, vector<2x1x1x1xf32>":
        "vector.transfer_read %v[%c0, %c0, %c0, %c0], %poison {in_bounds = [true, true, true, true]} : memref<2x2x4x2xf32, #gpu.address_space<private>>, vector<2x2x4x2xf32>",
        "%f = vector.shape_cast %e : vector<2x1x1x1xf32> to vector<2x1xf32>":
        "%f = vector.extract %e[0, 0, 0] : vector<2xf32> from vector<2x2x4x2xf32>",
        "-> vector<2x1xf32>": "-> vector<2xf32>", "return %f : vector<2x1xf32>": "return %f : vector<2xf32>"},
    "C written past the barrier the read back now follows": {
        "    return %f": f"    memref.store %zero, %g[%c0, %c0] : {_C}\n    return %f"},
    # a read back its in_bounds claims inside the view, but not: the element the rewrite
    # reads for it is C's at the read's row and column, the buffer's another
    "read back past the view's rows (threads 4 to 7 of a dimension of 4)": {
        "array<i32: 4, 1, 1>": "array<i32: 8, 1, 1>", "upper_bound 4": "upper_bound 8"},
    "read back past the view's columns (a vector of 2 from column 1 of 2)": {
        "%v[%c0, %c0, %tid, %c0], %poison {in_bounds = [true, true, true, true]} : memref<2x2x4x2xf32, #gpu.address_space<private>>, vector<2x1x1x1xf32>":
        "%v[%c0, %c0, %tid, %c1], %poison {in_bounds = [true, true, true, true]} : memref<2x2x4x2xf32, #gpu.address_space<private>>, vector<2x1x1x2xf32>",
        "%f = vector.shape_cast %e : vector<2x1x1x1xf32> to vector<2x1xf32>":
        "%f = vector.shape_cast %e : vector<2x1x1x2xf32> to vector<2x2xf32>",
        "%c4 = arith.constant 4 : index": "%c4 = arith.constant 4 : index\n    %c1 = arith.constant 1 : index",
        "-> vector<2x1xf32>": "-> vector<2x2xf32>", "return %f : vector<2x1xf32>": "return %f : vector<2x2xf32>"},
    "a read back index from the workgroup id": {
        "%tid = gpu.thread_id x upper_bound 4": "%tid = gpu.block_id x upper_bound 4"},
    "a masked read back": {"%e = vector.transfer_read %v[%c0, %c0, %tid, %c0], %poison {in_bounds = [true, true, true, true]}":
                           "%e = vector.transfer_read %v[%c0, %c0, %tid, %c0], %poison {in_bounds = [true, true, false, true]}"},
}


@pytest.mark.parametrize("name", PREFETCH_KEPT)
def test_a_prefetch_point_mutant_is_left_as_it_is(name):
    assert not _forwarded(_prefetch(**PREFETCH_KEPT[name]))


def _wide(width: int) -> str:
    """The prefetch point's tile ``width`` columns wide (4 x width), each of the 4 threads
    reading back 4 x width / 4 elements (``vector<2x2x1xWxf32>``, W = width / 4)."""
    w = width // 4
    view = f"memref<2x2x4x{w}xf32, #gpu.address_space<private>>"
    return _prefetch(**{
        _P: f"memref<4x{width}xf32, #gpu.address_space<private>>",
        "vector<4x8xi1>": f"vector<4x{width}xi1>", "vector<4x8xf32>": f"vector<4x{width}xf32>",
        "output_shape [2, 2, 4, 2]": f"output_shape [2, 2, 4, {w}]",
        "memref<2x2x4x2xf32, #gpu.address_space<private>>": view,
        "vector<2x1x1x1xf32>": f"vector<2x2x1x{w}xf32>",
        "vector<2x1xf32>": f"vector<4x{w}xf32>"})


@pytest.mark.parametrize("width, forwarded", [(128, True), (4096, False)])
def test_a_read_back_is_forwarded_up_to_a_threads_registers(width, forwarded):
    """IREE's bf16 ``C += A x B^T`` 176x251x648 prefetch point reads back 128 elements a
    thread (its 128x256 tile over 256 threads; finding 116): forwarded, as the late form's
    rows are (before, only reads of up to 64 were, and LLVM kept the 128 KiB buffer, past
    gfx950's scratch limit). A read back of more elements than a thread's 512 registers
    hold (4096 a thread here) is not an accumulator set: left as it is."""
    assert _forwarded(_wide(width)) is forwarded
