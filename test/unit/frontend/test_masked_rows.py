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

from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
sys.path.insert(0, str(ROOT / "test" / "unit"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402
from build_cache import cached  # noqa: E402


ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"


@pytest.fixture(scope="module")
def padded() -> str:
    """IREE's padded dynamic-M dispatch at the prefetch point (the build cache's, shared
    with test_dynamic_shapes)."""
    source = D.padded_source(False, 256)
    return cached("iree-prefetch-padded", (source,), lambda: G.prefetch_point(source))


def _run(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``sched-adopt-loop`` (the 4-wave schedule) on
    ``text``."""
    (tmp_path / "k.mlir").write_text(text)
    return (main([ADOPT, str(tmp_path / "k.mlir")]), *capsys.readouterr())


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


def _map(name: str, old: str, new: str):
    def mutate(text: str) -> str:
        line = f"#{name} = affine_map<{old}>"
        assert line in text, line
        return text.replace(line, f"#{name} = affine_map<{new}>")
    return mutate


def _pad(text: str) -> str:
    old = "%cst_0 = arith.constant 0.000000e+00 : bf16"
    assert text.count(old) == 1
    return text.replace(old, "%cst_0 = arith.constant 1.000000e+00 : bf16")


def _text(old: str, new: str):
    def mutate(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return mutate


@pytest.mark.parametrize("mutate,message", [
    (_pad, "pads masked rows with a value other than zero"),
    (_map("map7", "(d0, d1) -> (1, d0 - d1)", "(d0, d1) -> (2, d0 - d1)"),
     "a row-masked copy reads one row or none"),
    (_map("map8", "(d0)[s0, s1] -> (d0 * 128 + s0 + s1)", "(d0)[s0, s1] -> (d0 * 128 + s0 + s1 + 1)"),
     "reads a row other than the one its LDS row holds"),
    (_map("map2", "(d0)[s0] -> (d0 * -128 + s0, 128)", "(d0)[s0] -> (d0 * -128 + s0 - 1, 128)"),
     "masks a row below the size at a size of 1"),
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
], ids=["padding", "two rows", "other row", "masked below the end", "LDS not covered",
        "columns", "stored elsewhere", "staged row read elsewhere", "row moves with K"])
def test_what_the_replacement_relies_on_is_checked(padded, tmp_path, capsys, mutate, message):
    text = mutate(padded)
    rc, _out, err = _run(tmp_path, capsys, text)
    line = 1 + text[:text.index("vector.transfer_read %subview_14")].count("\n")
    assert rc == 1 and message in err and f"k.mlir:{line}:" in err, err
    assert "Traceback" not in err
