"""Reads padded by their own bounds check, kept as reads past the end (frontend/padded_reads.py).

IREE's f16 ``A x B`` 2048x16x1000 (``iree_configs.CONFIGS['f16_ab_2048x16x1000']``, which
``test_iree_configurations.py`` pipelines and emulates from both forms) copies B one
element per lane from a ``memref<4x16xf16>`` view of its ``1000x16`` buffer, read not in
bounds, so that the lanes of the tile's columns 16 to 31 get the padding.  Each mutant of
its prefetch point here breaks one thing that keeping the check relies on and must be
refused at an op, never pipelined (``--emit=schedule``: the front end's work, no build).
"""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.dialect.bindings import build_context, ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.marks import NARROW
from pipeline_mlir.frontend.regcopy import check_no_narrow
from pipeline_mlir.tools.pipeline_opt import main

NAME = "f16_ab_2048x16x1000"
#: B's one-element reads in the prefetch point (the view, its type, the padding)
READ = re.compile(r"vector\.transfer_read (%subview_\d+)\[[^\]]*\], %cst : "
                  r"memref<4x16xf16, strided<\[16, 1\], offset: \?>, "
                  r"#amdgpu\.address_space<fat_raw_buffer>>, vector<1xf16>")


def _padding_one(text: str) -> str:
    """B's reads padded with 1.0: a read past the end gives 0.0, not the padding."""
    text = text.replace("%cst = arith.constant 0.000000e+00 : f16",
                        "%cst = arith.constant 0.000000e+00 : f16\n"
                        "%one = arith.constant 1.000000e+00 : f16", 1)
    return READ.sub(lambda m: m.group(0).replace(", %cst :", ", %one :"), text)


def _narrower_view(text: str) -> str:
    """B's view 12 columns wide (the bounds check pads columns 12 to 15 too), its buffer's
    rows still 16: the check is not the buffer's, and the front end's copies, each lane's
    run tested against the buffer, would read data where the kernel reads the padding."""
    view = "memref<4x16xf16, strided<[16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>"
    text = text.replace("[4, 16] [1, 1] : memref<1000x16xf16", "[4, 12] [1, 1] : "
                        "memref<1000x16xf16", 1)
    return text.replace(view, view.replace("4x16", "4x12"))


def _unchecked_buffer(text: str) -> str:
    """B's fat buffer not range-checked: a read past its end is not zero."""
    return text.replace("%5 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset :",
                        "%5 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset "
                        "boundsCheck(false) :", 1)


def _two_elements(text: str) -> str:
    """B's reads of two elements not in bounds: the check masks them element by element, a
    run straddling the view's end in part, which no condition for the whole run keeps."""
    text = READ.sub(lambda m: m.group(0).replace("vector<1xf16>", "vector<2xf16>"), text)
    return re.sub(r"(vector\.transfer_write %\d+, %subview_\d+\[[^\]]*\] \{in_bounds = "
                  r"\[true\]\} : )vector<1xf16>", r"\1vector<2xf16>", text)


MUTANTS = {
    "padding 1.0": (_padding_one, "so needs a padding of the constant zero, every bit clear "
                                  "(a read past the end returns +0.0), not 1.000000e+00"),
    "view narrower than its buffer": (_narrower_view, "copies 2 bytes per lane (vector<1xf16>); "
                                      "a direct-to-LDS copy moves 4 or 16 bytes per lane"),
    "buffer not range-checked": (_unchecked_buffer, "masked rows are read past the end of "
                                                    "this fat buffer, which must be "
                                                    "range-checked by its own shape"),
    "two elements": (_two_elements, "may access out of bounds (in_bounds is not all true); a "
                                    "direct-to-LDS copy cannot pad"),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutants_are_refused_at_the_read(generated, capsys, tmp_path, name):
    mutate, why = MUTANTS[name]
    text = generated(NAME, "prefetch").read_text()
    mutant = mutate(text)
    assert mutant != text
    src = tmp_path / "k.mlir"
    src.write_text(mutant)
    rc = main([str(src), "--pipeline=4wave", "--emit=schedule"])
    err = capsys.readouterr().err
    assert rc == 1 and why in err and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err
    if name == "view narrower than its buffer":     # (the proof over the grid says where)
        assert "channel B's copies keep a mask in their address; the front end's own " \
               "copies, each lane's run kept where it lies inside the buffer" in err, err


_LOOP = """
func.func @k(%src: memref<64xf16, #amdgpu.address_space<fat_raw_buffer>>,
             %dst: memref<64xf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    amdgpu.gather_to_lds %src[%i], %dst[%c0] {sched.narrow_copy = "why", ATTR}
      : vector<1xf16>, memref<64xf16, #amdgpu.address_space<fat_raw_buffer>>,
        memref<64xf16, #gpu.address_space<workgroup>>
  } LOOP
  return
}
"""


@pytest.mark.parametrize("remainder", [False, True])
def test_a_narrow_copy_stays_only_in_a_remainder_loop(remainder):
    """A copy too narrow for a direct-to-LDS copy (``NARROW``) that no copies of the front
    end's own replaced is refused at the copy with its reason, but in a remainder loop,
    which stages it through registers as the kernel copied it."""
    text = _LOOP.replace("ATTR", "sched.register_staged").replace(
        "LOOP", "{sched.remainder}" if remainder else "")
    with build_context() as ctx:
        module = ir.Module.parse(text, ctx)
        assert NARROW == "sched.narrow_copy"
        if remainder:
            check_no_narrow(module.operation)
            return
        with pytest.raises(IRError, match="why: only the front end's own copies of its "
                                          "channel, of a direct-to-LDS size, replace"):
            check_no_narrow(module.operation)


def _rows_of_17(text: str) -> str:
    """B's buffer 1000x17 (its views' rows 17 apart, their 16 columns as before): the
    front end's 4-byte copies of an odd K row start at an odd element."""
    text = text.replace("memref<1000x16xf16", "memref<1000x17xf16")
    view = "memref<4x16xf16, strided<[16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>"
    return text.replace(view, view.replace("[16, 1]", "[17, 1]"))


@pytest.mark.parametrize("rows", [16, 17])
def test_own_copies_of_narrow_copies_are_dma_where_aligned(generated, tmp_path, rows):
    """The front end's own 4-byte copies of B (for the kernel's 2-byte copies) are
    direct-to-LDS copies where every run they read inside the buffer starts at an even
    element in every workgroup and K step (proven with the kept mask: kept_layout.py), and
    stay marked register-staged where B's rows of 17 elements put them at odd ones (the
    front end's pass alone: the mark is what ``sched-stage-copies`` stages)."""
    text = generated(NAME, "prefetch").read_text()
    src, out = tmp_path / "k.mlir", tmp_path / "out.mlir"
    src.write_text(text if rows == 16 else _rows_of_17(text))
    assert main([str(src), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})",
                 "-o", str(out)]) == 0
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*: vector<2xf16>", out.read_text())
    staged = [c for c in copies if "sched.register_staged" in c]
    assert copies and (not staged) == (rows == 16), copies
