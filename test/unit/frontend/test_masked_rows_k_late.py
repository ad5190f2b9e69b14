"""pipeline_mlir/frontend/masked_rows_k_late.py: IREE's padded dynamic-M kernel with K not a
multiple of 32, in its late form: each run of A a ``vector.maskedload`` masked by the row
and by the K left, made a read of a range-checked buffer masked by the K left only (then
peeled as any masked last K tile).

IREE's own dispatch (``test/data/iree/dynamic.py`` ``padded_source``, M known at launch,
K = 200; exact in ``test/unit/tools/test_dynamic_shapes.py``) at ``iree-codegen-math-
transform``.  Each property the rewrite relies on, broken in IREE's text, is refused at the
masked load, saying which.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from masked_rows_helpers import (  # noqa: E402
    G, adopt as _run, assert_refused_at, in_window, padded_late, text_mutation as _text)

LOAD = "%201 = vector.maskedload %assume_align_5[%102, %200]"


@pytest.fixture(scope="module")
def late() -> str:
    """IREE's padded dynamic-M dispatch with K = 200 in the late form (the iree-compile run
    test_dynamic_shapes makes)."""
    text = padded_late(200)
    assert LOAD in text, "IREE's late form changed"
    return text


def test_the_masked_loads_are_pipelined_with_the_last_tile_peeled(late, tmp_path, capsys):
    rc, out, err = _run(tmp_path, capsys, late)
    assert rc == 0, err
    loop, tail = out.split("sched.remainder", 1)[0].split("scf.for %arg1 = ")[-2:]
    assert loop.startswith("%c0_i32 to ") and tail.startswith("%c6_i32 to %c7_i32 "), \
        (loop[:40], tail[:40])
    assert "vector.maskedload" not in out and "arith.select %211" not in out
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", loop)
    a = sum("memref<?x200xbf16, #amdgpu" in c for c in copies)
    assert a > 0 and a == sum("memref<4096x200xbf16, #amdgpu" in c for c in copies), copies
    # the last K tile: A's runs at [ok ? row : M, col] masked by the K left, B's by 8 or 0
    assert len(re.findall(r"vector\.transfer_read %\w+\[%\w+, %\w+\], %\w+, %\w+ [^\n]*"
                          r"memref<\?x200xbf16, #amdgpu\.address_space<fat_raw_buffer>>",
                          tail)) == 2
    assert len(re.findall(r"arith\.select %\w+, %c8\w*, %c0\w* : index", tail)) == 2


@pytest.mark.parametrize("mutate,message", [
    (_text("%cst_2 = arith.constant dense<0.000000e+00> : vector<8xbf16>",
           "%cst_2 = arith.constant dense<-0.000000e+00> : vector<8xbf16>"),
     "passes a value other than zero through masked rows"),
    (_text(LOAD, LOAD.replace("[%102, %200]", "[%200, %200]")),   # a K row (kept_rows.py)
     "masks a K row of memref<?x200xbf16, #gpu.address_space<global>>; a row not read is "
     "read past the end of the buffer, which must then be a dense row-major buffer of a "
     "static row count"),
    (_text(LOAD, LOAD.replace("[%102, %200]", "[%102, %102]")),
     "its column or the K left it reads changes with the workgroup"),
    (_text("%109 = arith.cmpi sgt, %95, %c0 : index", "%109 = arith.cmpi sge, %95, %c0 : index"),
     "reads a row outside the buffer's"),
    (_text("%195 = arith.minsi %194, %c8_i32 : i32", "%195 = arith.minsi %194, %c16_i32 : i32"),
     "a run masked by the K left reads at most 8 elements, all in the row"),
    (_text("%191 = arith.subi %c200_i32, %190 : i32",
           "%mut = arith.addi %c200_i32, %c8_i32 : i32\n%191 = arith.subi %mut, %190 : i32"),
     "reads 8 elements at column 200 of rows of 200"),
    # a store to A's rows between the load and its LDS store, past which the rewrite
    # would move the read of the range-checked buffer
    (_text("vector.store %201, %alloc[%120]", "vector.store %cst_2, %assume_align_5[%102, "
           "%200] : memref<?x200xbf16, #gpu.address_space<global>>, vector<8xbf16>\n"
           "vector.store %201, %alloc[%120]"),
     "which may write the memory it reads"),
    # the same store inside an scf.if (whose branches are looked into: IREE's guarded
    # loads between a read and its LDS store write nothing, kernel_ir.writes_outside_lds)
    (_text("vector.store %201, %alloc[%120]", "%mut_c = arith.cmpi ult, %102, %200 : index\n"
           "scf.if %mut_c {\n"
           "vector.store %cst_2, %assume_align_5[%102, %200] : memref<?x200xbf16, "
           "#gpu.address_space<global>>, vector<8xbf16>\n}\n"
           "vector.store %201, %alloc[%120]"),
     "past 'scf.if' op"),
], ids=["padding", "row moves with K", "column moves with the workgroup", "row past the end",
        "run too wide", "past the row", "global store before the LDS store",
        "global store in an scf.if before the LDS store"])
def test_what_the_rewrite_relies_on_is_checked(late, tmp_path, capsys, mutate, message):
    assert_refused_at(tmp_path, capsys, mutate(late), "%201 = vector.maskedload", message)


def test_a_row_past_the_size_at_unsampled_sizes_is_refused(late, tmp_path, capsys):
    """A's row read one further where the size is ``T g + d``, ``20 <= d <= 40``, sizes no
    sample reaches: the sampled check takes it, the proof for every size
    (frontend/row_proof_late.py) refuses it naming the sizes."""
    d = re.search(r"(%\d+) = arith\.addi %\d+, %8 : index\n", late).group(1)
    window = ("".join(f"{line}\n" for line in in_window(d)) +
              "%w_off = arith.select %w_in, %c1, %c0 : index\n"
              "%w_row = arith.addi %102, %w_off : index\n")
    text = late.replace(LOAD, window + LOAD.replace("[%102, %200]", "[%w_row, %200]"))
    assert_refused_at(tmp_path, capsys, text, "vector.maskedload",
                      "reads a row outside the buffer's L rows where its guard holds")


STATIC_LOAD = "%461 = scf.if %460"


def _guard14(text: str) -> str:
    """The id's bound made 14 and the row guard ``%179`` made true at workgroup 14 only
    (the workgroup past the bound)."""
    guard = "%179 = arith.cmpi sgt, %105, %c0_i32 : i32"
    broken = ("%c14_rv = arith.constant 14 : index\n"
              "          %is14_rv = arith.cmpi eq, %workgroup_id_x, %c14_rv : index\n"
              "          %g179_rv = arith.cmpi sgt, %105, %c0_i32 : i32\n"
              "          %179 = arith.ori %g179_rv, %is14_rv : i1")
    wid = "hal.interface.workgroup.id[0] upper_bound 15"
    return _text(guard, broken)(_text(wid, wid.replace("15", "14"))(text))


def test_static_rows_guards_evaluated_over_the_grid(tmp_path, capsys):
    """IREE's 300x260x1020 kernel in the late form (15 workgroups, ids below
    ``upper_bound 15``): taken, no masked load left in the loop; its row guard made true
    for rows past the edge, its workgroup id unbounded or its grid too large to evaluate
    workgroup by workgroup: refused at the first row-guarded load (its scf.if), saying
    which; its bound short of the grid by part of a row of tiles, with a guard broken only
    past it (C elements no workgroup of it writes): refused at the id;
    A's fat buffer cast with ``boundsCheck(false)``: refused at the cast."""
    text = G.late_form(G.matmul_source(dtype="bf16", m=300, n=260, k=1020))
    rc, out, err = _run(tmp_path, capsys, text)
    assert rc == 0, err
    # the pipelined loop's copies direct-to-LDS copies, no masked load left in it (the
    # remainder loop, the peeled last K tile, keeps the runs of rows below the edge as
    # IREE wrote them, and its first loads are issued ahead, before the pipelined loop)
    lines = out[:out.index('sched.schedule = "4wave"}')].splitlines()
    indent = len(lines[-1]) - len(lines[-1].lstrip())
    start = max(i for i, ln in enumerate(lines) if " = scf.for " in ln
                and len(ln) - len(ln.lstrip()) == indent)
    pipelined = "\n".join(lines[start:])
    assert "vector.maskedload" not in pipelined and "amdgpu.gather_to_lds" in pipelined
    wid = "hal.interface.workgroup.id[0] upper_bound 15"
    for old, new, message in [
            ("%179 = arith.cmpi sgt, %105", "%179 = arith.cmpi sge, %105",
             "reads a row outside the buffer's 300 rows at workgroup (12,)"),
            (wid, "hal.interface.workgroup.id[0]",
             "the workgroup is not only 'hal.interface.workgroup.id' ops with an upper_bound"),
            (wid, wid.replace("15", "3000000"), "in a grid of more than 2097152 workgroups"),
            # a bound short by part of a row of tiles (5 M tiles x 3 N tiles, 14 of 15)
            # and a guard broken only at the workgroup past it: the grid must cover C
            (_guard14, wid.replace("15", "14"), "the 14 workgroups of the kernel's grid 14 "
             "(its workgroup ids' upper_bound, its workgroup loops) write no element "
             "[256, 256] of the 300x260 output")]:
        mutate, at = (old, new) if callable(old) else (_text(old, new), STATIC_LOAD)
        assert_refused_at(tmp_path, capsys, mutate(text), at, message)
    # A's fat buffer not range-checked: a row past the edge would read memory, not zero
    cast = "amdgpu.fat_raw_buffer_cast %assume_align resetOffset"
    unchecked = _text(cast, cast.replace(" resetOffset", " boundsCheck(false) resetOffset"))
    assert_refused_at(tmp_path, capsys, unchecked(text), "%2 = amdgpu.fat_raw_buffer_cast", "masked rows are read past the end of "
                      "this fat buffer, which must be range-checked by its own shape")


def test_a_run_stored_to_lds_moving_with_the_workgroup_is_refused(late, tmp_path, capsys):
    """A's first run stored to LDS with its 8-element half xor 8 in workgroup 37 alone (two
    runs swapped there): pipelined with exit 0 and WRONG against its unpipelined build
    (test/data/iree/mutants.py's builds at 200x4096x200, late mode, workgroups 0 and 37:
    8144 elements of C differ), the front end's copies placing each lane's elements as in
    the sampled workgroup; the store's LDS index moving with the workgroup loop's variable
    is now refused at the read."""
    index = "%120 = arith.index_castui %119 : i32 to index\n"
    text = _text(index, index + "%c37l = arith.constant 37 : index\n"
                               "%c8l = arith.constant 8 : index\n"
                               "%c0l = arith.constant 0 : index\n"
                               "%w37 = arith.cmpi eq, %arg0, %c37l : index\n"
                               "%s8 = arith.select %w37, %c8l, %c0l : index\n"
                               "%x120 = arith.xori %120, %s8 : index\n")(late)
    text = _text("vector.store %201, %alloc[%120]", "vector.store %201, %alloc[%x120]")(text)
    assert_refused_at(tmp_path, capsys, text, LOAD,
                      "reads a row-masked run: the LDS index of its row's store")


#: the i8 A x B^T 33x257x1000 (test_iree_families.py's i8-abt-edges-k1000): A's rows 32 to
#: 47 read at ``min(r, 33)`` guarded by ``33 - min(r, 33) > 0``, B's at ``64 g + min(L,
#: lr)`` guarded by ``L - min(L, lr) > 0``, ``L = min(257 - 64 g, 64)`` the rows left in tile
#: ``g``
CLAMPED = dict(dtype="i8", m=33, n=257, k=1000)
OK = "%131 = arith.cmpi sgt, %34, %c0_i32 : i32"
ROW = "%31 = arith.minui %28, %c33_i32 : i32"
B_OK = "%132 = arith.cmpi sgt, %113, %c0_i32 : i32"
A_LEFT = "%33 = arith.subi %c33_i32, %31 : i32"
A_ONE = "%34 = arith.minui %33, %c1_i32 : i32"


def _rows(text: str) -> tuple[list[str], list[str]]:
    """The ops defining the row index of each read of A, and of B, the rewrite made."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
    from pipeline_mlir.frontend.masked_rows_k_late import unmask_row_tails_late

    with new_context():
        m = ir.Module.parse(text)
        (loop,) = walk_ops(m.operation, lambda o: o.name == "scf.for")
        unmask_row_tails_late(loop)
        reads = walk_ops(loop, lambda o: o.name == "vector.transfer_read")
        return tuple([as_operation(o.operands[1].owner).name for o in reads
                      if str(o.operands[0].type).startswith(f"memref<{rows}x1000xi8")]
                     for rows in (33, 257))


CAST, SELECT = "arith.index_cast", "arith.select"


def _chain(*mutations):
    """The mutations applied one after the other."""
    def mutate(text: str) -> str:
        for m in mutations:
            text = m(text)
        return text
    return mutate


@pytest.mark.parametrize("mutate,rows", [
    (None, ([CAST], [CAST] * 4)),
    (_text(OK, OK.replace("%c0_i32", "%c1_i32")), ([SELECT], [CAST] * 4)),   # row 32 not read
    (_text(ROW, ROW.replace("%c33_i32", "%c32_i32")), ([SELECT], [CAST] * 4)),  # at 32
    # B's first copy's guard made false on the last row left: row 256 (tile 4's one row)
    (_text(B_OK, B_OK.replace("%113, %c0_i32", "%112, %c1_i32")), ([CAST], [SELECT] + [CAST] * 3)),
    # A's guard on the row itself (33 - r > 0, signed), its row clamped at 16: row 16 read
    # for rows 16 to 32, where the guard holds: the row read is not the tile's
    (_chain(_text(ROW, ROW.replace("%c33_i32", "%c16_i32")),
            _text(A_LEFT, A_LEFT.replace("%31", "%28")),
            _text(A_ONE, A_ONE.replace("minui", "minsi"))), ([SELECT], [CAST] * 4)),
    # the row clamped at 33 is 5000000 rows further on, the guard false everywhere: the
    # tile's row lies past the reach of a buffer load's 32-bit offset (it would wrap into
    # the buffer)
    (_text(ROW, "%c5000000_i32 = arith.constant 5000000 : i32\n"
                "          %far = arith.addi %28, %c5000000_i32 : i32\n"
                "          " + ROW.replace("%28", "%far")), ([SELECT], [CAST] * 4)),
], ids=["taken", "guard-not-the-rows", "clamped-elsewhere", "rows-left-short", "clamped-below",
        "past-the-offset"])
def test_a_clamped_row_is_read_at_the_tile_row(mutate, rows):
    """IREE's late form clamps A's row to M (``min(r, 33)``) and B's to the rows left in its
    tile; each read at the tile's row itself, as the prefetch point reads it (rows past M
    or N past the end: zeros), where at every workgroup the row is not negative and the
    guard holds exactly on the rows below M (N); A's guard made false on row 32 too, A's
    row clamped to another bound, or B's first guard false on row 256: that
    copy read at ``ok ? row : M`` as before (a read of the tile's row would give row 32's
    or 256's data where the kernel gives zero)."""
    text = G.late_form(G.matmul_source(**CLAMPED))
    assert _rows(mutate(text) if mutate else text) == rows


@pytest.mark.parametrize("layout,taken", [
    ("", True),
    # rows padded to 4096 elements: the last row read ends past a buffer load's 32-bit
    # offset, though the rows' length alone (1000) would keep it inside
    (", strided<[4096, 1]>", False),
    (", strided<[1000, 1], offset: ?>", False),        # an offset known only at launch
])
def test_an_unclamped_rows_offset_is_bounded_by_the_buffers_strides(layout, taken):
    """``_unclamped`` bounds the last element read by the buffer's own strides, not by
    the rows' length: a padded row stride reaches further."""
    import numpy as np

    from pipeline_mlir.dialect.bindings import build_context, ir
    from pipeline_mlir.frontend.kernel_ir import OFFSET_LIMIT
    from pipeline_mlir.frontend.masked_rows_k_late import _unclamped

    rows = OFFSET_LIMIT // 4096 - 1          # the last row's start inside the limit either way
    at = np.array([0, rows - 1, rows + 5])   # the last a row past the end: ok false there

    class Values:
        def value(self, v):
            return {"ok": at < rows, "row": at, "x": at}[v]

    with build_context():
        buf = type("Buf", (), {"type": ir.Type.parse(f"memref<{rows}x1000xi8{layout}>")})
        assert _unclamped(Values(), {"ok": "ok", "row": "row", "buf": buf}, ("x", None),
                          rows) is taken
