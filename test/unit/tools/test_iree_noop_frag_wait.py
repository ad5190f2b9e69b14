"""IREE's i8 ``A x B^T`` 896x1280x1152 in forced 128x128 tiles of one wave
(``MFMA_I32_32x32x32_I8``, a K step of 128, 1 stage; the thirty-ninth sweep's seed 108,
draw 0 of its one-wave draws): the prefetch point's loop has LLVM's ``s_waitcnt
lgkmcnt(9)`` and ``lgkmcnt(11)`` before MFMAs none of whose operands an LDS read in flight
defines on any way round (7 and 10 reads in flight).  Such a wait waits for nothing; the
ISA check's fragment-wait rule called it a race (``frag-wait-weak``) and refused the
build, which runs exact with the check off (finding 106 of docs/iree-audits.md;
``test_isa_frag_waits.py`` has the rule on a hand-written loop)."""

from __future__ import annotations

import pytest

from iree_configs import G
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

pytestmark = pytest.mark.long(
    "an IREE build and two of ours, 25 s; the rule is held in the default tier by "
    "test_isa_frag_waits.py::test_a_wait_for_more_than_is_in_flight_is_no_race")


@needs_iree
def test_the_prefetch_point_passes_the_gate_and_is_exact(tmp_path, capsys):
    """The prefetch point builds past the ISA gate (``pipeline-opt --emit=asm``, LLVM's
    ``lgkmcnt(9)`` in it) and runs exact (late mode, 3 workgroups of its 70)."""
    forms = G.forms(G.matmul_source("i8", 896, 1280, 1152, transpose_b=True,
                                    mma="MFMA_I32_32x32x32_I8", stages=1,
                                    tile=(128, 128, 128), waves=(1, 1)))
    path, asm = tmp_path / "prefetch.mlir", tmp_path / "prefetch.s"
    path.write_text(forms["prefetch"])
    rc = main(["--pipeline=4wave", str(path), "--emit=asm", "-o", str(asm)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "s_waitcnt lgkmcnt(9)" in asm.read_text()
    rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
               "--emulate-workgroups=3", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
