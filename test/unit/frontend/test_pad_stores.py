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
