"""pipeline_mlir/frontend/masked_rows_k.py: IREE's padded dynamic-M kernel with K not a
multiple of 32, its runs masked by the row and by the K left, made runs of a range-checked
buffer masked by the K left only (then peeled as any masked last K tile).

IREE's own dispatch of the bf16 ``A x B^T`` matmul with M known at launch, its MFMA
configuration forced with ``padding`` and K = 200 (``test/data/iree/dynamic.py``
``padded_source``; exact at several M and N in ``test/unit/tools/test_dynamic_shapes.py``)
copies each thread's run of A straight into LDS masked by ``create_mask(row, K left)``, and
keeps B's run only when it is whole (``arith.select``).  Each property the rewrite relies
on, broken in IREE's text, is refused at the masked read, saying which.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))
from masked_rows_helpers import (  # noqa: E402
    adopt as _run, assert_refused_at, map_mutation as _map, padded_prefetch, row_mutations,
    text_mutation as _text)


#: IREE's padded dynamic-M dispatch with K = 200 at the prefetch point
K = 200


def test_the_row_and_k_masked_runs_are_pipelined_with_the_last_tile_peeled(tmp_path, capsys):
    padded = padded_prefetch(K)
    assert re.search(r"vector\.create_mask %\d+, %\d+ : vector<1x8xi1>", padded)
    assert "arith.select" in padded.split("scf.for %arg2")[1]
    rc, out, err = _run(tmp_path, capsys, padded)
    assert rc == 0, err
    # the pipelined loop (6 K tiles), then the remainder loop: the masked last K tile
    loop, tail = out.split("sched.remainder", 1)[0].split("scf.for %arg2 = ")[1:3]
    assert loop.startswith("%c0 to %c6 ") and tail.startswith("%c6 to %c7 "), (loop[:40],
                                                                              tail[:40])
    assert "amdgpu.fat_raw_buffer_cast %assume_align" in out
    # A's runs read the range-checked buffer in the pipelined loop, unmasked, as B's do
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", loop)
    a = sum("memref<?x200xbf16, #amdgpu" in c for c in copies)
    assert a > 0 and a == sum("memref<4096x200xbf16, #amdgpu" in c for c in copies), copies
    assert "vector.create_mask" not in loop and "arith.select" not in loop
    # the last K tile keeps the K left as masks of both operands' runs (B's whole-run
    # select made a mask of 8 or 0), A's read from the range-checked buffer
    assert len(re.findall(r"vector\.create_mask %c1\w*, %\w+ : vector<1x8xi1>", tail)) == 4
    assert len(re.findall(r"arith\.select %\w+, %c8\w*, %c0\w* : index", tail)) == 2
    assert len(re.findall(r"vector\.transfer_read %\w+\[%\w+, %\w+\], %\w+, %\w+ [^\n]*"
                          r"memref<\?x200xbf16, #amdgpu\.address_space<fat_raw_buffer>>",
                          tail)) == 2


@pytest.mark.parametrize("mutate,message", [
    (_text("%cst_1 = arith.constant 0.000000e+00 : bf16",
           "%cst_1 = arith.constant -0.000000e+00 : bf16"),
     "pads masked rows with a value other than zero"),
    *row_mutations("map9", "map10"),
    (_map("map15", "(d0, d1) -> (8, d0 - d1)", "(d0, d1) -> (16, d0 - d1)"),
     "a run masked by the K left reads at most 8 elements, all in the row"),
    (_map("map13", "(d0) -> (-d0 + 200, 32)", "(d0) -> (-d0 + 208, 32)"),
     "reads 8 elements at column 200 of rows of 200"),
    (_text("memref.subview %assume_align_8[%34, %111]", "memref.subview %assume_align_8[%111, "
           "%111]"),   # read as a K row (kept_rows.py), which a dynamic-M binding is not
     "masks a K row of memref<?x200xbf16, #hal.descriptor_type<storage_buffer>>; a row not "
     "read is read past the end of the buffer, which must then be a dense row-major "
     "buffer of a static row count"),
    (_text("memref.subview %assume_align_8[%34, %111]", "memref.subview %assume_align_8[%34, "
           "%34]"), "its column or the K left it reads changes with the workgroup"),
    # wrong only for more than 199872 rows left past the tile's first, which the sampled
    # check does not visit: the proof for every size (frontend/row_proof.py) refuses it
    (_map("map2", "(d0)[s0] -> (d0 * -128 + s0, 128)",
          "(d0)[s0] -> (d0 * -128 + s0, 128, d0 * 128 - s0 + 200000)"),
     "masks a row below the size; only rows past the buffer's end read zero from a "
     "range-checked buffer, on thread 0 at sizes T g + d for d in 200001 .. any"),
    # a loop too short to pipeline, run as written (no scan of its body): a store to the
    # rows A's run reads between the read and its LDS write, past which the rewrite would
    # move the read
    (lambda t: _text("scf.for %arg2 = %c0 to %c7 step %c1", "scf.for %arg2 = %c0 to %c1 step %c1")(
        _text("vector.transfer_write %113, %subview[%c0, %c0]", "vector.transfer_write %cst, "
              "%subview_16[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<?x?xbf16"
              ", strided<[200, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>\n"
              "              vector.transfer_write %113, %subview[%c0, %c0]")(t)),
     "which may write the memory it reads"),
], ids=["padding", "two rows", "other row", "masked below the end", "run too wide",
        "past the row", "row moves with K", "column moves with the workgroup",
        "masked below the end past the samples", "global store before the LDS write"])
def test_what_the_rewrite_relies_on_is_checked(tmp_path, capsys, mutate, message):
    assert_refused_at(tmp_path, capsys, mutate(padded_prefetch(K)), "vector.transfer_read %subview_16",
                      message)
