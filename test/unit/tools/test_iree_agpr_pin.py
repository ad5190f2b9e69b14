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
form built (the prefetch point; the late form in the long tier) has no copy and no spill
and is exact."""

from __future__ import annotations

import re

import pytest

from iree_configs import G, each_form_built
from kernel_builds import scheduled_only
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

pytestmark = pytest.mark.usefixtures("shared_code_objects")


@pytest.fixture(scope="module")
def forms():
    return G.forms(G.matmul_source("fp8", 128, 1280, 384, transpose_a=True, transpose_b=True,
                                   mma="MFMA_F32_32x32x64_F8E4M3FN", stages=4,
                                   tile=(128, 128, 128), waves=(1, 1)))


@needs_iree
@pytest.mark.parametrize("built_form", [
    "prefetch", pytest.param("late", marks=pytest.mark.long(
        "the late form takes the prefetch point's path (one schedule, compared in "
        "test_a_form_builds_with_no_accumulator_copy_and_is_exact[prefetch], which builds the "
        "prefetch point and runs it exact)"))])
def test_a_form_builds_with_no_accumulator_copy_and_is_exact(forms, tmp_path, capsys,
                                                             built_form):
    """The form ``built_form`` builds with every MFMA writing AGPRs, no accumulator copied
    out of them and no spill, and runs exact (late mode, 2 workgroups); the other form,
    taken to its schedule, gives the same one."""
    from build_cache import share_code_objects

    other, = (f for f in forms if f != built_form)
    (tmp_path / f"{other}.mlir").write_text(forms[other])
    _, schedule, _ = scheduled_only(tmp_path / f"{other}.mlir")
    with share_code_objects():      # (the emulation runs the build below)
        for _, path, built in each_form_built(tmp_path, {built_form: forms[built_form]},
                                              ("schedule-json", "asm")):
            asm = built.stages["asm"]
            mfmas = re.findall(r"^\s+v_mfma_f32_32x32x64_f8f6f4 (\S)", asm, re.M)
            assert mfmas and set(mfmas) == {"a"}, mfmas
            assert "v_accvgpr_read" not in asm
            assert re.search(r"\.vgpr_spill_count:\s+0\n", asm)
            assert built.stages["schedule-json"] == schedule
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                       "--emulate-workgroups=2", "--emulate-jobs=1"])
            out, err = capsys.readouterr()
            assert rc == 0 and ": exact, max error 0" in out, out + err
