"""IREE's fp8 ``A^T x B^T`` 128x1280x384 in forced 128x128 tiles of one wave
(``MFMA_F32_32x32x64_F8E4M3FN``, a K step of 128, 4 stages; the thirty-eighth sweep's seed
105, draw 4 of the forced family): the wave's accumulators take 256 registers of a lane,
which the kernel keeps in AGPRs (``sched.agpr_alloc``).

The guard after the K-loop's one-trip remainder began with an empty asm reading the
loop's results in VGPRs; LLVM copied every accumulator register out of its AGPR for it (256
``v_accvgpr_read``, dead after the asm), issued among the last MFMAs, one of them 19 wait
states after the 16-pass MFMA it read (20 needed, LLVM 22 looks back 19: the build refused
the late form at the kernel), and the 256 VGPRs the asm asked for at once did not fit
beside the kernel's other values (the late form spilled 2 VGPRs; the prefetch point's
register allocation did not end in 120 s).  Pinned in AGPRs (``lowering/keep_alive.py``,
finding 104 of docs/iree-audits.md), no copy is made: both forms give one schedule, the
late form is exact, and the prefetch point builds with no copy and no spill."""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact

pytestmark = pytest.mark.usefixtures("shared_code_objects")


@pytest.fixture(scope="module")
def forms():
    return G.forms(G.matmul_source("fp8", 128, 1280, 384, transpose_a=True, transpose_b=True,
                                   mma="MFMA_F32_32x32x64_F8E4M3FN", stages=4,
                                   tile=(128, 128, 128), waves=(1, 1)))


@needs_iree
def test_the_late_form_is_exact(forms, tmp_path, capsys):
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=2")


@needs_iree
def test_the_prefetch_point_builds_with_no_accumulator_copy(forms, tmp_path, capsys):
    path = tmp_path / "prefetch.mlir"
    path.write_text(forms["prefetch"])
    rc = main(["--pipeline=4wave", str(path), "--emit=asm", "-o", str(tmp_path / "k.s")])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    asm = (tmp_path / "k.s").read_text()
    assert len(re.findall(r"^\s+v_mfma_f32_32x32x64_f8f6f4 a\[", asm, re.M)) == 96
    assert "v_accvgpr_read" not in asm
    assert re.search(r"\.vgpr_spill_count:\s+0\n", asm)
