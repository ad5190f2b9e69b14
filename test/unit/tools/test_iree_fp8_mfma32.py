"""IREE's fp8 kernels of gfx942's 32x32x16 FP8 MFMA (``MFMA_F32_32x32x16_F8E5M2``, which
iree-compile 3.13 picks for fp8 K-loops of K step 16, at the sizes seen those of K an odd
multiple of 16, as the sweep's E5M2 ``A x B^T`` 3221x5367x3632): pipelined by the 4-wave
schedule from both forms, exact on the emulator.

E5M2 ``A x B^T`` 256x256x240 (2 workgroups of a 128x256 tile, 2x2 waves of 2x4 MFMAs, 15 K
steps), built with IREE's 2 prefetch stages as the sweep's: both forms adopt one spec naming
the MFMA (``mfma=32x32x16``) and give one schedule; the prefetch point's code object (and
in the long tier the late form's: no edge, no mask, the same path from either form) passes
the ISA gate, issues ``v_mfma_f32_32x32x16_bf8_bf8`` only and computes C exactly on both
workgroups, memory completing as late as the counters allow (the emulator's operand layout,
the CDNA3 ISA's, against the one IREE's kernel lays the fragments out in).  Before, both
forms were refused at the MFMA (``... is a 32x32x16 f8E5M2 MFMA, which the schedules do not
issue for fp8 ...``).  An MFMA of a shape the schedules still do not issue (the kernel's
8-bit elements made i8: a 32x32x16 i8 MFMA, issued only for a loop the front end halved)
stays refused at the op.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import gated_build, scheduled_only
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import generate as G  # noqa: E402

#: the prefetch stages of the sweep that found the refusal
FLAGS = ("--iree-llvmgpu-prefetch-num-stages=2",)


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of IREE's E5M2 ``A x B^T`` 256x256x240, as files ({form: path})."""
    d = tmp_path_factory.mktemp("fp8_mfma32")
    out = {}
    source = G.matmul_source("fp8e5m2", 256, 256, 240, transpose_a=False, transpose_b=True)
    for form, text in G.forms(source, FLAGS).items():
        assert "amdgpu.mfma 32x32x16" in text, "IREE's kernel changed its MFMA"
        out[form] = d / f"{form}.mlir"
        out[form].write_text(text)
    return out


@pytest.mark.parametrize("built_form", [
    "prefetch", pytest.param("late", marks=pytest.mark.long(
        "no edge, no mask: the same copies, reads and 32x32x16 E5M2 MFMAs from either form "
        "(one spec, one schedule): test_both_forms_give_one_schedule_and_are_exact[prefetch] "
        "builds the prefetch point under the gate and runs it exact, and takes this form to "
        "its schedule"))])
def test_both_forms_give_one_schedule_and_are_exact(forms, built_form, capsys):
    """The form ``built_form`` is built under the ISA gate (outside the shared store, which
    skips it), then emulated from the store; the other form is taken to its schedule only
    (its build and run: the other item, of the long tier for the late form).  Both adopt
    one spec naming the MFMA and give one schedule."""
    got = {}
    for form, path in forms.items():
        if form != built_form:
            options, schedule, _ = scheduled_only(path)
            assert (options["dtype"], options["mfma"]) == ("fp8", "32x32x16"), options
            got[form] = None, options, schedule
            continue
        built, options, schedule = got[form] = gated_build(path)
        assert (options["dtype"], options["mfma"]) == ("fp8", "32x32x16"), options
        names = {i.name for i in load_kernel(built.output).instrs
                 if i.name.startswith("v_mfma")}
        assert names == {"v_mfma_f32_32x32x16_bf8_bf8"}, (form, names)
        with share_code_objects():
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
                       "--emulate-mode=late", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and "mode=late: exact, max error 0, 2 workgroups" in out, \
            form + out + err
    assert got["prefetch"][1:] == got["late"][1:]


def test_a_shape_still_not_issued_is_refused_at_the_mfma(forms, tmp_path, capsys):
    """The late form with its 8-bit elements made i8 (the target attribute left alone): a
    32x32x16 i8 MFMA adding into the f32 accumulators, which the verifier lets through,
    refused at the op with one located message (before IREE's own i8 32x32x16 MFMAs were
    taken, refused there as a shape the schedules did not issue)."""
    lines = forms["late"].read_text().split("\n")
    mutant = tmp_path / "i8.mlir"
    mutant.write_text("\n".join(line if line.startswith("#") else line.replace("f8E5M2", "i8")
                                for line in lines))
    assert main(["--pipeline=4wave", "--emit=schedule-json", str(mutant)]) == 1
    out, err = capsys.readouterr()
    assert re.match(rf"{re.escape(str(mutant))}:\d+:\d+: error: sched-adopt-loop: "
                    r"'amdgpu\.mfma' op accumulates i8 products into f32; an MFMA of i8 "
                    r"accumulates into i32\n", err), err
    assert "Traceback" not in err and not out
