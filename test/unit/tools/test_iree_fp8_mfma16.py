"""IREE's fp8 kernels of gfx942's 16x16x32 FP8 MFMA (``MFMA_F32_16x16x32_F8E4M3FN`` /
``_F8E5M2``, which iree-compile 3.13 picks for fp8 K-loops of K step 32, e.g. at K = 288):
pipelined by the 4-wave schedule from both forms, exact on the emulator.

The adopted spec names the MFMA (``mfma=16x16x32``); the code object issues the MFMA of
the kernel's formats and computes C exactly on two workgroups, memory completing as late as
the counters allow; the E4M3FN kernel's two forms give one schedule, which the simulator
finds hazard-free.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from build_cache import share_code_objects
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

#: the audit's fp8 A^T x B at K = 288 (9 K steps of a 64x128 tile): both forms
FP8 = dict(dtype="fp8", m=256, n=512, k=288, transpose_a=True, transpose_b=False)
#: E4M3FN A x E5M2 B^T at K = 288 (IREE's VectorDistribute kernel, 64x64 tiles), its late
#: form: the mixed MFMA end to end, each operand in its own format
MIXED = dict(dtype="fp8", b_dtype="fp8e5m2", m=256, n=512, k=288)


def _adopted(src: Path, emit: str):
    """The build of IREE's kernel ``src`` under ``--pipeline=4wave`` (``emit``: ``hsaco`` or
    ``schedule-json``) with the loop as sched-adopt-loop left it and the schedule, and the
    adopted spec, which names the 16x16x32 FP8 MFMA."""
    stages = ("adopted",) + (("schedule-json",) if emit != "schedule-json" else ())
    built = compile(CompileOptions(schedule="4wave", input=str(src), emit=emit, stages=stages))
    built.checked_output()
    found = re.findall(r"sched\.options = \{([^}]*)\}", built.stages["adopted"])
    assert len(found) == 1, found
    options = dict(re.findall(r'(\w+) = "?([\w-]+)"?(?: : i64)?', found[0]))
    assert (options["dtype"], options["mfma"]) == ("fp8", "16x16x32"), options
    return built, "4wave{" + " ".join(f"{k}={v}" for k, v in options.items()) + "}"


def _exact(src: Path, mnemonic: str, capsys) -> str:
    """The schedule of IREE's kernel ``src``, whose code object issues ``mnemonic`` only and
    is exact on two workgroups (late mode); the adopted spec too."""
    with share_code_objects():
        built, spec = _adopted(src, "hsaco")
        names = {i.name for i in load_kernel(built.output).instrs
                 if i.name.startswith("v_mfma")}
        assert names == {mnemonic}, names
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0" in out, out + err
    return built.stages["schedule-json"], spec


def test_both_forms_give_one_hazard_free_schedule_exact(tmp_path, capsys):
    """E4M3FN ``A^T x B``: one schedule from both forms, hazard-free; the prefetch point's
    kernel exact (the late form's schedule is the same; its build, exact too by hand, is
    left to the run of the mixed kernel's late form below)."""
    srcs = {}
    for form, text in G.forms(G.matmul_source(**FP8)).items():
        srcs[form] = tmp_path / f"{form}.mlir"
        srcs[form].write_text(text)
    schedule, spec = _exact(srcs["prefetch"], "v_mfma_f32_16x16x32_fp8_fp8", capsys)
    late, late_spec = _adopted(srcs["late"], "schedule-json")
    assert late.checked_output() == schedule and late_spec == spec
    rc = main(["--simulate", f"--pipeline={spec}"])
    out, err = capsys.readouterr()
    assert rc == 0 and "safe for main loops of 0..6 iterations: no hazard" in out, out + err


def test_mixed_formats_late_form_exact(tmp_path, capsys):
    """E4M3FN A, E5M2 B (IREE's ``MFMA_F32_16x16x32_F8E4M3FN_F8E5M2``): the kernel issues
    the ``fp8_bf8`` MFMA and is exact, each operand encoded in its own format."""
    src = tmp_path / "late.mlir"
    src.write_text(G.late_form(G.matmul_source(**MIXED)))
    _exact(src, "v_mfma_f32_16x16x32_fp8_bf8", capsys)
