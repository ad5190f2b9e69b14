"""IREE Wave's GEMM with its 1-D launch: copies the front end distributes itself, from a
fat buffer of dynamic size.

``test/data/wave/gemm_f16_256x256x1024_1d.mlir`` (committed: no wave-lang needed) is Wave's
f16 ``C = A x B^T`` with its four waves stacked along M (a workgroup of 256 x 1, a 2 x 2
grid).  Each wave copies whole rows of the 128 x 64 tile, so no copy serves only one of
the schedule's subtiles and the front end makes the copies itself; they read Wave's
``memref<?xf16, fat_raw_buffer>`` directly.  The kernel pipelines and computes C exactly on
the emulator in the late and random modes.

The buffer's extent comes from Wave's views of its rank-0 binding: a ``reinterpret_cast``
with fewer elements than the copies read, or a fat buffer whose ``validBytes`` ends before
them, is refused at the copy; so are a fat buffer at a dynamic offset and copies whose
rows in another workgroup are not workgroup 0's block moved.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main
from wave_helpers import assert_pipelined_exact

DATA = Path(__file__).parents[2] / "data" / "wave"
KERNEL = DATA / "gemm_f16_256x256x1024_1d.mlir"
LAUNCH = DATA / "gemm_f16_256x256x1024_1d.toml"
#: Wave's long 1-D view of A's rank-0 binding (the first of A's and B's)
VIEW = "memref<1073741822xf16, strided<[1]>>"
VALID = "validBytes(%c2147483645_i64)"


def _edit(text: str, old: str, new: str, count: int = 1) -> str:
    """``text`` with the first ``count`` occurrences of ``old`` replaced (they must exist)."""
    assert text.count(old) >= count, old
    return text.replace(old, new, count)


def _refusal(capsys, tmp_path, text: str) -> str:
    path = tmp_path / "k.mlir"
    path.write_text(text)
    rc = main(["--pipeline=4wave", str(path), "-o", str(tmp_path / "out.mlir")])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    assert f"{path}:" in err, err           # located
    return err


def test_the_kernel_is_wave_1d_output():
    text = KERNEL.read_text()
    assert "workgroup_size = [256, 1, 1]" in text
    assert "gpu.thread_id  y" not in text
    assert text.count("to memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>") == 2


def test_pipelined_and_exact(tmp_path):
    assert_pipelined_exact(KERNEL, LAUNCH.read_text(), 256 * 256, tmp_path)


def test_the_front_end_makes_the_copies(tmp_path):
    out = tmp_path / "k.mlir"
    assert main(["--pipeline=4wave", str(KERNEL), "--emit=mlir", "-o", str(out)]) == 0
    text = out.read_text()
    # the copies read the fat buffer by a single index, issued by the pipelined loop
    assert "amdgpu.gather_to_lds" in text and "scf.for" in text


@pytest.mark.parametrize("size_operand", [False, True])
def test_a_view_shorter_than_the_reads_is_refused(capsys, tmp_path, size_operand):
    """A's view of 2048 elements, as a static size or a constant size operand."""
    text = KERNEL.read_text()
    if size_operand:
        text = _edit(text, "%c2147483645_i64 = arith.constant 2147483645 : i64",
                     "%c2147483645_i64 = arith.constant 2147483645 : i64\n"
                     "        %rows = arith.constant 2048 : index")
        text = _edit(text, "sizes: [1073741822]", "sizes: [%rows]")
        text = _edit(text, VIEW, "memref<?xf16, strided<[1]>>", 2)
    else:
        text = _edit(text, "sizes: [1073741822]", "sizes: [2048]")
        text = _edit(text, VIEW, "memref<2048xf16, strided<[1]>>", 2)
    err = _refusal(capsys, tmp_path, text)
    assert "reads global memory outside its buffer" in err and "of 2048)" in err, err


def test_a_view_of_unknown_size_bounds_nothing_but_the_start(tmp_path):
    """A's view sized by a kernel argument's worth of unknown (a size operand that is no
    constant; validBytes dropped): no end is claimed, and the kernel still pipelines."""
    text = KERNEL.read_text()
    text = _edit(text, "sizes: [1073741822]", "sizes: [%47]")
    text = _edit(text, VIEW, "memref<?xf16, strided<[1]>>", 2)
    text = _edit(text, VALID + " ", "")
    path = tmp_path / "k.mlir"
    path.write_text(text)
    assert main(["--pipeline=4wave", str(path), "-o", str(tmp_path / "out.mlir")]) == 0


def test_valid_bytes_shorter_than_the_reads_are_refused(capsys, tmp_path):
    text = _edit(KERNEL.read_text(), "%c2147483645_i64 = arith.constant 2147483645 : i64",
                 "%c2147483645_i64 = arith.constant 2147483645 : i64\n"
                 "        %short = arith.constant 4096 : i64")
    text = _edit(text, VALID, "validBytes(%short)")
    err = _refusal(capsys, tmp_path, text)
    assert "reads global memory outside its buffer" in err and "of 2048)" in err, err


def test_a_fat_buffer_at_a_dynamic_offset_is_refused(capsys, tmp_path):
    """A's fat buffer keeps its source's dynamic offset (no ``resetOffset``): the front end
    indexes only buffers at offset 0."""
    text = KERNEL.read_text()
    fat = "memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>"
    at = "memref<?xf16, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>"
    text = _edit(text, "resetOffset : memref<?xf16, strided<[1], offset: ?>> to " + fat,
                 ": memref<?xf16, strided<[1], offset: ?>> to " + at)
    loop = text.index("scf.for")
    # A's four copies read the buffer at an offset, B's four the one at 0
    body = _edit(text[loop:], f"{fat}, memref<128x64xf16", f"{at}, memref<128x64xf16", 4)
    err = _refusal(capsys, tmp_path, text[:loop] + body)
    assert "is not contiguous, row-major and at offset 0 with strides known" in err, err


def test_copies_not_moving_as_one_block_are_refused(capsys, tmp_path):
    """Workgroup 1's A rows rotated by 8 inside its tile: the front end's copies, one block
    per workgroup, would read other rows."""
    text = _edit(KERNEL.read_text(),
                 "#map4 = affine_map<()[s0, s1] -> (s1 * 128 + (s0 floordiv 8) mod 128)>",
                 "#map4 = affine_map<()[s0, s1] -> (s1 * 128 + (s0 floordiv 8 + s1 * 8) "
                 "mod 128)>")
    err = _refusal(capsys, tmp_path, text)
    assert "do not move as one block from one workgroup to another" in err, err
    assert "elements before the buffer's start only where both are" in err, err
