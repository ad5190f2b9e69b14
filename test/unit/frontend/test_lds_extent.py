"""check_lds_extents (pipeline_mlir/frontend/lds_extent.py) on small kernels: an LDS
allocation the K-loop leaves alone (C staged through it, as IREE's ``C +=`` kernels do),
accessed after the loop inside it (let through) and outside it in some thread (refused at
the access, naming the thread and the elements), or where the front end cannot evaluate
it (refused, saying why)."""

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.lds_extent import check_lds_extents, loop_lds_outside

#: a K-loop over ``%la`` and a tile of C staged through ``%lc`` (4x16x8x16 f32) after it, a
#: loop of 8 iterations of 256 threads copying it 4 elements a thread: ``LOWER`` its lower
#: bound, ``OFFSET`` added to the view's third index, ``UPPER`` its upper bound
KERNEL = """
#map = affine_map<(d0)[s0] -> (d0 + s0)>
#map1 = affine_map<(d0) -> (d0 * 4)>
module {
  func.func @k(%g: memref<4x16x8x16xf32>, %n: index) attributes {
      known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c2048 = arith.constant 2048 : index
    %lo = arith.constant LOWER : index
    %hi = UPPER
    %off = arith.constant OFFSET : index
    %p = ub.poison : f32
    %la = memref.alloc() : memref<1024xf32, #gpu.address_space<workgroup>>
    %lc = memref.alloc() : memref<4x16x8x16xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x upper_bound 256
    scf.for %k = %c0 to %c8 step %c1 {
      %v = vector.load %la[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    }
    scf.for %i = %lo to %hi step %c256 {
      %x = affine.apply #map(%i)[%tid]
      %d:4 = affine.delinearize_index %x into (4, 16, 8, 4) : index, index, index, index
      %c = affine.apply #map1(%d#3)
      %r = arith.addi %d#2, %off : index
      %s = memref.subview %lc[%d#0, %d#1, %r, %c] [1, 1, 1, 4] [1, 1, 1, 1] :
        memref<4x16x8x16xf32, #gpu.address_space<workgroup>> to
        memref<1x1x1x4xf32, strided<[2048, 128, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
      %t = vector.transfer_read %s[%c0, %c0, %c0, %c0], %p {in_bounds = [true, true, true, true]}
        : memref<1x1x1x4xf32, strided<[2048, 128, 16, 1], offset: ?>, #gpu.address_space<workgroup>>,
          vector<1x1x1x4xf32>
      vector.transfer_write %t, %g[%d#0, %d#1, %d#2, %c] {in_bounds = [true, true, true, true]}
        : vector<1x1x1x4xf32>, memref<4x16x8x16xf32>
    }
    return
  }
}
"""


#: the same kernel as a ``gpu.func`` whose C staging buffer is a workgroup attribution
GPU_KERNEL = KERNEL.replace("module {\n  func.func @k(%g: memref<4x16x8x16xf32>, %n: index) "
                            "attributes {\n      known_block_size = array<i32: 256, 1, 1>} {",
                            "module attributes {gpu.container_module} {\n  gpu.module @m {\n"
                            "  gpu.func @k(%g: memref<4x16x8x16xf32>, %n: index) workgroup("
                            "%lc: memref<4x16x8x16xf32, #gpu.address_space<workgroup>>) "
                            "kernel attributes {known_block_size = array<i32: 256, 1, 1>} {"
                            ).replace("    %lc = memref.alloc() : memref<4x16x8x16xf32, "
                                      "#gpu.address_space<workgroup>>\n", "").replace(
    "    return\n  }\n}", "    gpu.return\n  }\n  }\n}")


def _check(lower: int = 0, offset: int = 0, upper: str = "arith.constant 2048 : index",
           kernel: str = KERNEL):
    text = kernel.replace("LOWER", str(lower)).replace("OFFSET", str(offset)).replace(
        "UPPER", upper)
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        check_lds_extents(loop)


def test_a_staged_tile_inside_its_allocation_is_taken():
    assert GPU_KERNEL.count("workgroup(%lc") == 1 and "memref.alloc() : memref<4x16" not in \
        GPU_KERNEL
    _check()
    _check(kernel=GPU_KERNEL)


def test_a_workgroup_attribution_read_past_its_end_is_refused():
    """A ``gpu.func``'s workgroup attribution is an allocation too (a natural kernel's)."""
    with pytest.raises(IRError) as e:
        _check(1, kernel=GPU_KERNEL)
    assert "at elements 8192..8195 in thread 255 (loop iteration [1793]), outside its 8192 " \
        "elements" in str(e.value), str(e.value)


@pytest.mark.parametrize("lower, offset, upper, words", [
    # the campaign's two (IREE's bf16 C += A x B^T 256^3, prefetch point): the copy loop's
    # lower bound made 1 (the last thread's last iteration one row of tiles on), and the
    # view moved 16 elements along a dimension of 8 (the tile's last rows past the end)
    (1, 0, None, r"at elements 8192\.\.8195 in thread 255 \(loop iteration \[1793\]\), "
                 r"outside its 8192 elements"),
    (0, 16, None, r"at elements 8192\.\.8195 in thread 192 \(loop iteration \[1792\]\), "
                  r"outside its 8192 elements"),
    # a loop bound known only at launch: not evaluated, so not shown inside
    (0, 0, "arith.addi %n, %c0 : index", r"whose bounds are not constants"),
])
def test_an_access_outside_its_allocation_is_refused(lower, offset, upper, words):
    with pytest.raises(IRError) as e:
        _check(lower, offset, upper or "arith.constant 2048 : index")
    assert e.value.op.name == "vector.transfer_read", e.value.op
    assert __import__("re").search(words, str(e.value)), str(e.value)


#: the copy's LDS read as the kernel states it, replaced by the variants below
READ = "%t = vector.transfer_read %s[%c0, %c0, %c0, %c0], %p {in_bounds = [true, true, true, true]}"
#: its view's last index (a column of four) and the view itself
COLUMN = "%lc[%d#0, %d#1, %r, %c] [1, 1, 1, 4]"


@pytest.mark.parametrize("edits, words", [
    # its last dimension not in bounds, the view moved 3 columns on: every element of the
    # view is read, the last thread's last three past the allocation (found by the review
    # of the red-team campaign: IREE's bf16 C += A x B^T 256^3, prefetch point, 18 bytes
    # of C wrong with exit 0 when only the first element was checked)
    ([(COLUMN, "%lc[%d#0, %d#1, %r, %c3] [1, 1, 1, 4]"),
      ("%c = affine.apply #map1(%d#3)", "%c = affine.apply #map1(%d#3)\n"
       "      %c3 = arith.addi %c, %k3 : index"),
      ("[true, true, true, true]}\n        : memref<1x1x1x4",
       "[true, true, true, false]}\n        : memref<1x1x1x4")],
     r"at elements 8191\.\.8194 in thread 255 \(loop iteration \[1792\]\)"),
    # the read transposed by its permutation map: its four elements run down the rows
    ([("%p {in_bounds = [true, true, true, true]}",
       "%p {in_bounds = [true, true, true, true], permutation_map = "
       "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>}")],
     r"at elements 8144\.\.8192 in thread 244 \(loop iteration \[1792\]\)"),
    # the view's row from a function argument (known at launch only) or the workgroup
    ([("%r = arith.addi %d#2, %off : index", "%r = arith.addi %d#2, %n : index")],
     r"cannot evaluate its elements"),
    ([("%r = arith.addi %d#2, %off : index", "%wg = gpu.block_id x\n"
       "      %r = arith.addi %d#2, %wg : index")], r"computed from the workgroup id \(its view\)"),
    # moved by (workgroup mod 5) - 1 rows: none at workgroups 1 and 6, which the check
    # sampled (taken before), one row before the tile at workgroup 0 and 3 past it at 4
    ([("%r = arith.addi %d#2, %off : index", "%wg = gpu.block_id x\n"
       "      %c5 = arith.constant 5 : index\n      %q = arith.remui %wg, %c5 : index\n"
       "      %q1 = arith.subi %q, %c1 : index\n      %r = arith.addi %d#2, %q1 : index")],
     r"computed from the workgroup id \(its view\)"),
    # an op the check does not evaluate
    ([("    vector.transfer_write %t, %g[%d#0", "    %at = memref.atomic_rmw addf %p, "
       "%s[%c0, %c0, %c0, %c0] : (f32, memref<1x1x1x4xf32, strided<[2048, 128, 16, 1], "
       "offset: ?>, #gpu.address_space<workgroup>>) -> f32\n"
       "    vector.transfer_write %t, %g[%d#0")], r"in a way the front end does not evaluate"),
])
def test_what_the_read_reaches_is_evaluated(edits, words):
    """A transfer's out-of-bounds dimensions reach the view's end, its permutation map
    says which dimensions its vector runs along, a mask made by ``vector.create_mask``
    keeps what its sizes say (below); indices known only at launch or per workgroup, and
    ops the check does not evaluate, are refused."""
    kernel = KERNEL.replace("%off = arith.constant OFFSET : index",
                            "%off = arith.constant OFFSET : index\n    %k3 = arith.constant 3 : index")
    for old, new in edits:
        assert old in kernel, old
        kernel = kernel.replace(old, new)
    with pytest.raises(IRError) as e:
        _check(kernel=kernel)
    assert __import__("re").search(words, str(e.value)), str(e.value)


def test_a_mask_keeps_a_read_inside():
    """The view moved 3 columns on, its read masked to its first element (vector.
    create_mask): taken; masked to two, the last thread reads one element past the end."""
    def kernel(kept):
        return KERNEL.replace(COLUMN, "%lc[%d#0, %d#1, %r, %c3] [1, 1, 1, 4]").replace(
            "%c = affine.apply #map1(%d#3)", f"%c = affine.apply #map1(%d#3)\n"
            f"      %c3 = arith.addi %c, %k3 : index\n      %kept = arith.constant {kept} : index\n"
            f"      %m = vector.create_mask %c1, %c1, %c1, %kept : vector<1x1x1x4xi1>").replace(
            "%p {in_bounds", "%p, %m {in_bounds").replace(
            "%off = arith.constant OFFSET : index",
            "%off = arith.constant OFFSET : index\n    %k3 = arith.constant 3 : index")
    _check(kernel=kernel(1))
    with pytest.raises(IRError) as e:
        _check(kernel=kernel(2))
    assert "at elements 8191..8192 in thread 255" in str(e.value), str(e.value)


def test_a_transfer_stops_at_its_view_end():
    """A read from the view's third column with its last dimension not in bounds reads
    the view's last two elements only (the two past its end are padding): taken, though
    four from there would leave the allocation in the last thread."""
    kernel = KERNEL.replace(READ, READ.replace("%s[%c0, %c0, %c0, %c0]", "%s[%c0, %c0, %c0, %k2]")
                            .replace("true]}", "false]}")).replace(
        "%off = arith.constant OFFSET : index",
        "%off = arith.constant OFFSET : index\n    %k2 = arith.constant 2 : index")
    assert "%k2] , %p" not in kernel and "%k2], %p {in_bounds = [true, true, true, false]}" in kernel
    _check(kernel=kernel)
    with pytest.raises(IRError) as e:
        _check(kernel=kernel.replace("true, false]}", "true, true]}"))
    assert "at elements 8190..8193 in thread 255" in str(e.value), str(e.value)


#: a read of the K-loop's own LDS ``%la`` (the tile its last iteration left there), put
#: after the loop, before it, or in a second loop standing for the remainder the front end
#: cuts from it
LA_READ = ("%e = vector.load %la[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>, "
           "vector<4xf32>\n")


def _outside(where: str, kernel: str = KERNEL):
    """The refusal :func:`loop_lds_outside` makes of ``kernel`` with :data:`LA_READ` put
    ``where`` (``after``, ``before``, ``remainder``), the remainder loop passed as its own."""
    text = kernel.replace("LOWER", "0").replace("OFFSET", "0").replace(
        "UPPER", "arith.constant 2048 : index")
    loop = "    scf.for %k = %c0 to %c8 step %c1 {"
    if where == "before":
        text = text.replace(loop, "    " + LA_READ + loop)
    else:
        text = text.replace("    scf.for %i = ", ("    " + LA_READ if where == "after" else
                            "    scf.for %r = %c0 to %c1 step %c1 {\n      " + LA_READ +
                            "    }\n") + "    scf.for %i = ")
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        loops = walk_ops(m.operation, lambda o: o.name == "scf.for")
        return loop_lds_outside(loops[0], loops[1] if where == "remainder" else None)


@pytest.mark.parametrize("where", ["after", "before"])
def test_the_loops_own_lds_accessed_outside_it_is_refused(where):
    """The pipelined loop keeps its K tiles in buffers of its own: an epilogue reading
    what the loop left in its LDS (IREE's bf16 4096 kernel, late form, so mutated: 512
    elements of C wrong with exit 0 before), or a write before the loop, is refused at
    the access; the remainder loop the front end cuts from the K-loop is its own."""
    e = _outside(where)
    assert e is not None and e.op.name == "vector.load", e
    assert __import__("re").search(
        r"accesses memref<1024xf32, #gpu.address_space<workgroup>>, LDS the K-loop "
        rf"\('scf.for' op at line \d+:5\) copies its tiles into, {where} the loop", str(e)), e
    assert _outside("remainder") is None


def test_a_workgroup_global_of_the_loop_read_after_it_is_refused():
    """The K-loop's LDS a workgroup global (each ``memref.get_global`` of its symbol one
    buffer): read after the loop through a second ``get_global``, refused there too."""
    t = "memref<1024xf32, #gpu.address_space<workgroup>>"
    text = KERNEL.replace("LOWER", "0").replace("OFFSET", "0").replace(
        "UPPER", "arith.constant 2048 : index").replace(
        "module {\n", f'module {{\n  memref.global "private" @la : {t}\n').replace(
        f"%la = memref.alloc() : {t}", f"%la = memref.get_global @la : {t}").replace(
        "    scf.for %i = ", f"    %g2 = memref.get_global @la : {t}\n    "
        f"{LA_READ.replace('%la[', '%g2[')}    scf.for %i = ")
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        e = loop_lds_outside(loop)
    assert e is not None and e.op.name == "vector.load" and "after the loop" in str(e), e


def test_a_workgroup_global_read_past_its_end_is_refused():
    """A workgroup global (``memref.get_global``) the K-loop leaves alone is an allocation
    too: C's tile staged through it, read one row of tiles past its end, refused."""
    t = "memref<4x16x8x16xf32, #gpu.address_space<workgroup>>"
    kernel = KERNEL.replace("module {\n", f'module {{\n  memref.global "private" @lc : {t}\n')
    kernel = kernel.replace(f"%lc = memref.alloc() : {t}", f"%lc = memref.get_global @lc : {t}")
    assert "memref.get_global @lc" in kernel
    _check(kernel=kernel)
    with pytest.raises(IRError) as e:
        _check(1, kernel=kernel)
    assert "at elements 8192..8195 in thread 255 (loop iteration [1793]), outside its 8192 " \
        "elements" in str(e.value), str(e.value)


def test_the_loops_lds_a_function_argument_read_after_it_is_refused():
    """The K-loop's LDS a function's argument in workgroup memory (no allocation the extent
    check evaluates): read after the loop, refused all the same.  Taken before (IREE's bf16
    4096 late form so mutated, its epilogue then reading an argument nothing wrote), where
    the partition's old check of the buffer's uses refused it."""
    t = "memref<1024xf32, #gpu.address_space<workgroup>>"
    kernel = KERNEL.replace("%n: index)", f"%n: index, %la: {t})").replace(
        f"    %la = memref.alloc() : {t}\n", "")
    assert "memref.alloc() : memref<1024" not in kernel and f"%la: {t}" in kernel
    e = _outside("after", kernel)
    assert e is not None and e.op.name == "vector.load" and "after the loop" in str(e), e


def test_lds_of_dynamic_shape_the_loop_leaves_alone_is_refused():
    """C's tile staged through an allocation of dynamic shape (cast to the static one):
    nothing the check evaluates, so refused at the first access, read inside or not.
    Taken before: IREE's bf16 ``C +=`` 256^3 (late form) so staged, its copy-out read one
    row of tiles past the end, was pipelined with exit 0 and 46700 elements of C wrong."""
    t, d = ("memref<4x16x8x16xf32, #gpu.address_space<workgroup>>",
            "memref<?x16x8x16xf32, #gpu.address_space<workgroup>>")
    kernel = KERNEL.replace(f"    %lc = memref.alloc() : {t}\n",
                            f"    %c4 = arith.constant 4 : index\n    %ld = memref.alloc(%c4) : "
                            f"{d}\n    %lc = memref.cast %ld : {d} to {t}\n")
    assert "memref.alloc(%c4)" in kernel
    with pytest.raises(IRError) as e:
        _check(kernel=kernel)
    assert e.value.op.name == "vector.transfer_read" and \
        f"accesses {d}, LDS the K-loop does not, which is not an allocation of static " \
        "shape" in str(e.value), str(e.value)


#: IREE's tiny ``C +=`` kernels (bf16 20x20, one workgroup) stage C through an LDS tile of
#: C's own shape: threads below 100 copy a row segment of 4 each (``GUARD``), a thread's
#: rows of its accumulators go in by ``memref.copy`` of per-thread sizes (``ROWS`` rows,
#: ``COLS`` columns left in C), and the late form's copy-out runs from the thread id in
#: steps of the workgroup (``START`` to ``END``)
TINY = """
#map = affine_map<(d0) -> (d0 * 4)>
#map5 = affine_map<(d0) -> (d0 * 5)>
module {
  func.func @k(%g: memref<20x20xf32>, %v: vector<1x4xf32>, %pv: memref<4x4xf32, #gpu.address_space<private>>)
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c100 = arith.constant 100 : index
    %c256 = arith.constant 256 : index
    %p = ub.poison : f32
    %la = memref.alloc() : memref<1024xf32, #gpu.address_space<workgroup>>
    %lc = memref.alloc() : memref<20x20xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x upper_bound 256
    scf.for %k = %c0 to %c8 step %c1 {
      %x = vector.load %la[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    }
    %in = arith.cmpi slt, %tid, GUARD : index
    scf.if %in {
      %d:2 = affine.delinearize_index %tid into (20, 5) : index, index
      %col = affine.apply #map(%d#1)
      vector.transfer_write %v, %lc[%d#0, %col] {in_bounds = [true, true]} :
        vector<1x4xf32>, memref<20x20xf32, #gpu.address_space<workgroup>>
    }
    %w:2 = affine.delinearize_index %tid into (64, 4) : index, index
    %r0 = affine.apply #map5(%w#1)
    %rows = ROWS
    %cols = COLS
    scf.for %i = %c0 to %rows step %c1 {
      %r = arith.addi %r0, %i : index
      %src = memref.subview %pv[%i, 0] [1, %cols] [1, 1] : memref<4x4xf32, #gpu.address_space<private>>
        to memref<1x?xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>>
      %dst = memref.subview %lc[%r, %w#0] [1, %cols] [1, 1] : memref<20x20xf32, #gpu.address_space<workgroup>>
        to memref<1x?xf32, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
      memref.copy %src, %dst : memref<1x?xf32, strided<[4, 1], offset: ?>, #gpu.address_space<private>>
        to memref<1x?xf32, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
    }
    %start = START
    %end = END
    scf.for %j = %start to %end step %c256 {
      %d:2 = affine.delinearize_index %j into (20, 5) : index, index
      %col = affine.apply #map(%d#1)
      %t = vector.load %lc[%d#0, %col] : memref<20x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %t, %g[%d#0, %col] : memref<20x20xf32>, vector<4xf32>
    }
    return
  }
}
"""
#: the kernel as IREE writes it: rows 0 to 19 in groups of 5, a column a thread (none past
#: C's last)
TINY_SIZES = {"GUARD": "%c100", "ROWS": "affine.min affine_map<(d0) -> (5, 20 - d0 * 5)>(%w#1)",
              "COLS": "affine.min affine_map<(d0) -> (1, 20 - d0)>(%w#0)",
              "START": "arith.addi %tid, %c0 : index", "END": "arith.addi %c100, %c0 : index"}


def _tiny(**edits):
    text = TINY
    for k, v in {**TINY_SIZES, **edits}.items():
        text = text.replace(k, v)
    with new_context() as ctx:
        m = ir.Module.parse(text, ctx)
        check_lds_extents(walk_ops(m.operation, lambda o: o.name == "scf.for")[0])


def test_a_tiny_kernels_c_staged_by_guarded_threads_copies_and_strided_loops_is_taken():
    """Only the threads an ``scf.if`` lets through count (thread 100 would write past the
    tile: it runs nothing); a ``memref.copy`` touches every element of its LDS side, of the
    sizes its ``memref.subview`` gives per thread (none where a size is 0); a loop from the
    thread id in steps of the workgroup runs each thread's own iterations."""
    _tiny()


@pytest.mark.parametrize("edits, words", [
    ({"GUARD": "%c256"}, r"'vector.transfer_write' op at line \d+:\d+ accesses "
                         r"memref<20x20xf32, #gpu.address_space<workgroup>> at elements "
                         r"400\.\.403 in thread 100, outside its 400 elements"),
    ({"ROWS": "affine.min affine_map<(d0) -> (6, 21 - d0 * 5)>(%w#1)"},
     r"'memref.copy' op at line \d+:\d+ accesses memref<20x20xf32, "
     r"#gpu.address_space<workgroup>> at elements 400\.\.400 in thread 3 \(loop iteration "
     r"\[5\]\)"),
    ({"COLS": "affine.min affine_map<(d0) -> (2, 21 - d0)>(%w#0)"},
     r"'memref.copy' op .* at elements 399\.\.400 in thread 79 \(loop iteration \[4\]\)"),
    ({"END": "arith.constant 101 : index"}, r"'vector.load' op .* at elements 400\.\.403 in thread 100 \(loop "
                       r"iteration \[100\]\)"),
    ({"START": "arith.constant 0 : index"}, None),
    ({"END": "arith.addi %c100, %tid : index"}, r"'vector.load' op .* at elements "),
    # a column in every thread, past C's last too: thread 243's column 60 of row 17
    ({"COLS": "arith.addi %c1, %c0 : index"},
     r"'memref.copy' op .* at elements 400\.\.400 in thread 243 \(loop iteration \[2\]\)"),
    ({"START": "gpu.block_id x"}, r"whose bounds are not constants nor computed from the "
                                  r"thread ids alone"),
])
def test_a_tiny_kernels_c_staged_past_its_tile_is_refused(edits, words):
    """The same kernel with its guard letting every thread through, a thread's rows or
    columns one more than the tile has (or a column in every thread), the copy-out loop one
    element further or one iteration a thread past the tile, or a copy-out loop whose bounds
    come from the workgroup id: refused at the access, naming the thread and the elements
    (or the loop); the copy-out from 0 (every thread the first segment) stays inside (None:
    taken)."""
    if words is None:
        _tiny(**edits)
        return
    with pytest.raises(IRError, match=words):
        _tiny(**edits)
