"""pipeline_mlir/frontend/masked_rows.py: IREE's row-masked register copies (its padded
dynamic-M kernel) made plain copies of a range-checked buffer.

IREE's own dispatch of the bf16 ``A x B^T`` matmul with M known at launch and its MFMA
configuration forced with ``padding`` (``test/data/iree/dynamic.py`` ``padded_source``, K
of 256; exact at several M and N in ``test/unit/tools/test_dynamic_shapes.py``) copies A
through a private row masked by M.  The front end replaces the copy by direct-to-LDS copies
from a ``fat_raw_buffer_cast`` of A; each property the replacement relies on, broken in
IREE's text, is refused at the masked read, saying which.
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


@pytest.fixture(scope="module")
def padded() -> str:
    """IREE's padded dynamic-M dispatch at the prefetch point (K = 256)."""
    return padded_prefetch(256)


def test_the_masked_copy_becomes_direct_to_lds_copies_of_the_buffer(padded, tmp_path, capsys):
    assert "vector.create_mask" in padded and "memref.alloca() : memref<1x16xbf16" in padded
    rc, out, err = _run(tmp_path, capsys, padded)
    assert rc == 0, err
    fat = "memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>"
    assert "amdgpu.fat_raw_buffer_cast %assume_align" in out
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", out)
    # A's tile as B's: 128 x 32 elements, two 16-byte runs per thread and K tile
    a = sum(f"vector<8xbf16>, {fat}," in c for c in copies)
    assert a > 0 and a == sum("memref<4096x256xbf16, #amdgpu" in c for c in copies), copies
    assert "vector.create_mask %" not in out.split("scf.for")[1]


def _pad(text: str) -> str:
    return _text("%cst_0 = arith.constant 0.000000e+00 : bf16",
                 "%cst_0 = arith.constant -0.000000e+00 : bf16")(text)


def _static_rows(text: str) -> str:
    dynamic = "memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>"
    static = dynamic.replace("?", "4096")
    return _text(dynamic + "{%12}", static)(text).replace(dynamic, static)


@pytest.mark.parametrize("mutate,message", [
    (_pad, "pads masked rows with a value other than zero"),
    *row_mutations("map7", "map8"),
    (_map("map5", "()[s0] -> (s0 * 16)", "()[s0] -> (s0 * 8)"),
     "do not write every element of the 128x32 LDS tile exactly once"),
    (_map("map16", "(d0)[s0] -> (d0 * 32 + s0 * 16)", "(d0)[s0] -> (d0 * 32 + s0 * 8)"),
     "reads columns at different offsets from the LDS columns"),
    (_text("%subview_17 = memref.subview %subview[0, %arg19]",
           "%subview_17 = memref.subview %subview[0, %c0]"),
     "stores it to LDS at the columns it holds"),
    # found by a mutation campaign before the form was checked: pipelined, and C differed
    # from the unpipelined build's
    (_text("vector.transfer_read %subview_16[%c0, %c0]",
           "vector.transfer_read %subview_16[%arg0, %c0]"),
     "a row-masked copy stages one whole row"),
    (_text("memref.subview %assume_align_8[%30, %121]", "memref.subview %assume_align_8[%121, "
           "%121]"), "its row, mask or LDS row changes with the K-loop"),
    # the binding's rows made static (IREE's static-M kernels of a partial edge tile mask
    # their rows so, the grid's tiles evaluated one by one): here no workgroup dimension of
    # the static rows' 32 tiles moves the row (the grid still runs over the launch's M)
    (_static_rows, "masks rows of a buffer of 4096 rows, but no workgroup dimension of 32 "
                   "tiles of 128 rows moves its row"),
], ids=["padding", "two rows", "other row", "masked below the end", "LDS not covered",
        "columns", "stored elsewhere", "staged row read elsewhere", "row moves with K",
        "static rows"])
def test_what_the_replacement_relies_on_is_checked(padded, tmp_path, capsys, mutate, message):
    assert_refused_at(tmp_path, capsys, mutate(padded), "vector.transfer_read %subview_14",
                      message)


# masks wrong only where the sampled check does not look (it accepts both): the proof for
# every size refuses them, the first with the sizes it fails at, the second as unproven
@pytest.mark.parametrize("mutate,message", [
    # the rows left in the tile cut to 200000 - d: a row below the size is masked when more
    # than 199872 rows are left past the tile's first (the samples stop at 128131)
    (_map("map2", "(d0)[s0] -> (d0 * -128 + s0, 128)",
          "(d0)[s0] -> (d0 * -128 + s0, 128, d0 * 128 - s0 + 200000)"),
     "masks a row below the size; only rows past the buffer's end read zero from a "
     "range-checked buffer, on thread 0 at sizes T g + d for d in 200001 .. any"),
    # one row fewer when M mod 1024 is 1023, a residue no sample has
    (_map("map2", "(d0)[s0] -> (d0 * -128 + s0, 128)",
          "(d0)[s0] -> (d0 * -128 + s0 - (s0 mod 1024) floordiv 1023, 128)"),
     "its row mask is not proven for every size ((128*g + 1*d + 0) floordiv 1024 is not "
     "affine in the size"),
], ids=["wrong past the samples", "wrong at one residue"])
def test_masks_are_proven_for_every_size(padded, tmp_path, capsys, mutate, message):
    assert_refused_at(tmp_path, capsys, mutate(padded), "vector.transfer_read %subview_14",
                      message)
