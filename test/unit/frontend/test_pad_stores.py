"""pipeline_mlir/frontend/pad_stores.py on small hand-written loops.

A store of the padding (the constant zero) into an LDS buffer that a register copy of the
same loop body also fills is made the copy it was folded from (IREE's late form of a copy
of rows wholly past C's edge: A's rows 48 to 63 of the i8 ``A x B^T`` 33x257x512), its
select false in every thread, which kept_masks.py then keeps as a read past the end of the
range-checked buffer; a store of another constant, or one into a buffer no copy fills, is
left for the scan to refuse.  IREE's kernels (both forms, one schedule, exact) are in
``test/unit/tools/test_iree_configurations.py`` and ``test_iree_families.py``.
"""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kept_masks import keep_moving_masks
from pipeline_mlir.frontend.pad_stores import pad_stores_as_copies

G = "memref<64x16xi8>"
FAT = "memref<64x16xi8, #amdgpu.address_space<fat_raw_buffer>>"
LDS = "memref<64x16xi8, #gpu.address_space<workgroup>>"


def _loop(pad: str = "dense<0>", into: str = "%l") -> str:
    """Rows ``%i * 8 + t / 16`` of ``%g`` copied to LDS, and ``pad`` stored 32 rows below
    each in ``into`` (``%l``, or ``%l2``, which no copy fills)."""
    return f"""
func.func @f(%graw: {G}, %l: {LDS}, %l2: {LDS}) attributes {{gpu.known_block_size = array<i32: 64, 1, 1>}} {{
  %g = amdgpu.fat_raw_buffer_cast %graw resetOffset : {G} to {FAT}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %n = arith.constant 4 : index
  %pad = arith.constant {pad} : vector<16xi8>
  %t = gpu.thread_id x
  %row = arith.divui %t, %c16 : index
  scf.for %i = %c0 to %n step %c1 {{
    %base = arith.muli %i, %c8 : index
    %r = arith.addi %base, %row : index
    %v = vector.load %g[%r, %c0] : {FAT}, vector<16xi8>
    vector.store %v, %l[%r, %c0] : {LDS}, vector<16xi8>
    %r2 = arith.addi %r, %c32 : index
    vector.store %pad, {into}[%r2, %c0] : {LDS}, vector<16xi8>
  }}
  return
}}
"""


def _made(text: str) -> tuple[int, int, str]:
    """(the stores made copies, the masks kept after, the module)."""
    with new_context():
        m = ir.Module.parse(text)
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        made = pad_stores_as_copies(loop)
        kept = keep_moving_masks(loop)
        assert m.operation.verify()
        return made, kept, str(m)


def test_a_store_of_the_padding_is_made_a_kept_copy():
    """The zero store becomes a load of the sibling's buffer at the sibling's index moved by
    the stores' offset (row ``r + (r2 - r)``), selected by ``false``: kept, its lane
    reading row 64 (past the end, zeros) in every thread."""
    made, kept, text = _made(_loop())
    assert (made, kept) == (1, 1), text
    loads = [ln for ln in text.splitlines() if "vector.load" in ln]
    assert len(loads) == 2, text
    assert "arith.constant false" in text and "arith.constant 64 : index" in text, text
    assert re.search(r"arith.select %false, %\w+, %c64", text), text
    assert not re.search(r"vector.store %cst\w*,", text), text


@pytest.mark.parametrize("pad,into", [
    ("dense<1>", "%l"),         # not the padding a read past the end gives
    ("dense<0>", "%l2"),        # no copy fills that buffer: nothing to take the index from
], ids=["nonzero", "no-sibling"])
def test_other_stores_are_left_for_the_scan(pad, into):
    made, kept, text = _made(_loop(pad, into))
    assert (made, kept) == (0, 0), text
    assert re.search(r"vector.store %cst\w*,", text), text


#: IREE's late form with K not a multiple of the K step (the i8 ``A x B^T`` 33x257x1000):
#: the copy of rows past C's edge a guarded load half folded, its mask the constant false,
#: its else region yielding the zero pass-through (guarded_load.folded_guard)
FOLDED = """
    %f = scf.if %cond -> (vector<16xi8>) {
      %m = vector.maskedload %g[%c64, %c0], %no, %pad : FAT, vector<16xi1>, vector<16xi8> into vector<16xi8>
      scf.yield %m : vector<16xi8>
    } else {
      scf.yield %pad : vector<16xi8>
    }
    vector.store %f, %l[%r2, %c0] : LDS, vector<16xi8>"""


def _folded_loop(below: int = 64, mask: str = "dense<false>", other: str = "%pad",
                 pad: str = "dense<0>") -> str:
    """:func:`_loop` with its padding a half-folded guarded load stored ``below`` rows
    below each copied row (``mask``: its masked load's; ``other``: what its else region
    yields; ``pad``: its pass-through), in a kernel of one workgroup (its id bounded) that
    writes its output whole: the grid the rows past the end are proven over."""
    text = _loop(pad).replace("%r2 = arith.addi %r, %c32", "%r2 = arith.addi %r, %cb")
    text = text.replace("    vector.store %pad, %l[%r2, %c0] : {LDS}, vector<16xi8>"
                        .replace("{LDS}", LDS), FOLDED.replace("FAT", FAT).replace("LDS", LDS)
                        .replace("scf.yield %pad", f"scf.yield {other}"))
    head = (f"  %cb = arith.constant {below} : index\n  %c64 = arith.constant 64 : index\n"
            f"  %no = arith.constant {mask} : vector<16xi1>\n"
            "  %cond = arith.cmpi ult, %t, %c1 : index\n"
            "  %wg = hal.interface.workgroup.id[0] upper_bound 1 : index\n"
            "  %zero = arith.constant 0 : i32\n"
            "  memref.store %zero, %out[%t] : memref<64xi32>\n")
    text = text.replace("  %t = gpu.thread_id x\n", "  %t = gpu.thread_id x\n" + head)
    return text.replace("%l2: " + LDS + ")", "%l2: " + LDS + ", %out: memref<64xi32>)")


def test_a_half_folded_guard_past_the_end_is_made_a_plain_copy():
    """Its rows (``r + 64``: 64 to 91 of 64) past the end of the range-checked buffer in
    every iteration and workgroup: the copy made is a plain load, no select, the
    ``scf.if`` gone (as IREE's prefetch point reads such rows, masked_rows_k.py)."""
    made, kept, text = _made(_folded_loop())
    assert (made, kept) == (1, 0), text
    assert "scf.if" not in text and "arith.select" not in text, text
    assert text.count("vector.load %0[") == 2, text


@pytest.mark.parametrize("below", [36, 63, 2 ** 27],
                         ids=["inside", "last-row", "past-the-offset"])
def test_a_half_folded_guard_inside_the_buffer_is_kept(below):
    """Its rows reaching into the buffer (``r + 36``: rows 36 to 63; ``r + 63``: row 63 in
    the first iteration alone), or past the end but out of a buffer load's 32-bit offset's
    reach (``r + 2 ** 27``: its elements from ``2 ** 31`` on, where the offset wraps into the
    buffer): not proven past the end, so made the copy selected by ``false`` and kept as
    before (its lanes moved past the end, kept_masks.py)."""
    made, kept, text = _made(_folded_loop(below))
    assert (made, kept) == (1, 1), text
    assert "scf.if" not in text and re.search(r"arith.select %false, %\w+, %c64", text), text


@pytest.mark.parametrize("mask,other,pad", [("dense<true>", "%pad", "dense<0>"),
                                            ("dense<false>", "%m2", "dense<0>"),
                                            ("dense<false>", "%pad", "dense<1>")],
                         ids=["mask-true", "else-other", "pass-one"])
def test_a_guard_not_folded_is_left_for_the_scan(mask, other, pad):
    """A guarded load whose mask is not the constant false, or whose else region yields
    another value than its pass-through, or whose pass-through is not zero (ones, which a
    read past the end would make zeros), stores no padding: left as it is."""
    text = _folded_loop(64, mask, other, pad).replace(
        "  %cb = ", "  %m2 = arith.constant dense<1> : vector<16xi8>\n  %cb = ")
    made, kept, text = _made(text)
    assert (made, kept) == (0, 0), text
    assert "scf.if" in text, text


FLAT = "memref<1024xi8, #gpu.address_space<workgroup>>"


def _flat_loop(pad: str = "dense<0>", buffer: str = G) -> str:
    """:func:`_loop` with a flat LDS tile (``memref<1024xi8>``: element ``16 r`` for row
    ``r``, as IREE's late form flattens a swizzled tile) and its global buffer ``buffer``:
    no sibling of the tile's rank says the index (f16 ``A^T x B^T`` 5x24x1000's B)."""
    text = _loop(pad).replace("%l: " + LDS, "%l: " + FLAT)
    text = text.replace(f"vector.store %v, %l[%r, %c0] : {LDS}",
                        "%f = arith.muli %r, %c16 : index\n"
                        f"    vector.store %v, %l[%f] : {FLAT}")
    text = text.replace(f"vector.store %pad, %l[%r2, %c0] : {LDS}",
                        "%f2 = arith.muli %r2, %c16 : index\n"
                        f"    vector.store %pad, %l[%f2] : {FLAT}")
    return text.replace(FAT, FAT.replace(G[:-1], buffer[:-1])).replace(G, buffer)


def test_a_store_of_the_padding_in_a_flat_tile_reads_the_first_row_past_the_end():
    """The zero store into a flat LDS tile whose sibling copies a 2-D buffer: made a load
    of that buffer at its first row past the end (64, the buffer's first size; where
    IREE's prefetch point clamps such a copy's rows) and the sibling's column, selected
    by ``false`` and kept (before: left to the scan, which refused it).  A store of
    ones, or a buffer of a first size known only at launch (no row past the end to
    name), is left for the scan."""
    made, kept, text = _made(_flat_loop())
    assert (made, kept) == (1, 1), text
    assert re.search(r"vector\.load %0\[%\w+, %\w+\]", text), text
    assert "arith.constant 64 : index" in text and \
        re.search(r"arith.select %false, %\w+, %c64", text), text
    assert not re.search(r"vector.store %cst\w*,", text), text
    for pad, buffer in (("dense<1>", G), ("dense<0>", "memref<?x16xi8>")):
        made, kept, text = _made(_flat_loop(pad, buffer))
        assert made == 0 and re.search(r"vector.store %cst\w*,", text), (pad, buffer, text)
