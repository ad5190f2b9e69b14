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


def _pipelined_and_exact(src: Path, mnemonic: str, capsys) -> tuple[str, str]:
    """(the schedule, the adopted spec) of IREE's kernel ``src`` under ``--pipeline=4wave``,
    whose code object issues ``mnemonic`` only and is exact on two workgroups (late mode)."""
    with share_code_objects():
        built = compile(CompileOptions(schedule="4wave", input=str(src), emit="hsaco",
                                       stages=("adopted", "schedule-json")))
        built.checked_output()
        found = re.findall(r"sched\.options = \{([^}]*)\}", built.stages["adopted"])
        assert len(found) == 1, found
        options = dict(re.findall(r'(\w+) = "?([\w-]+)"?(?: : i64)?', found[0]))
        assert (options["dtype"], options["mfma"]) == ("fp8", "16x16x32"), options
        names = {i.name for i in load_kernel(built.output).instrs
                 if i.name.startswith("v_mfma")}
        assert names == {mnemonic}, names
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0" in out, out + err
    spec = "4wave{" + " ".join(f"{k}={v}" for k, v in options.items()) + "}"
    return built.stages["schedule-json"], spec


def test_both_forms_give_one_hazard_free_schedule_exact(tmp_path, capsys):
    """E4M3FN ``A^T x B``: one schedule from both forms, hazard-free, each kernel exact."""
    schedules, specs = {}, set()
    for form, text in G.forms(G.matmul_source(**FP8)).items():
        src = tmp_path / f"{form}.mlir"
        src.write_text(text)
        schedules[form], spec = _pipelined_and_exact(src, "v_mfma_f32_16x16x32_fp8_fp8", capsys)
        specs.add(spec)
    assert schedules["prefetch"] == schedules["late"] and len(specs) == 1
    rc = main(["--simulate", f"--pipeline={specs.pop()}"])
    out, err = capsys.readouterr()
    assert rc == 0 and "safe for main loops of 0..6 iterations: no hazard" in out, out + err


def test_mixed_formats_late_form_exact(tmp_path, capsys):
    """E4M3FN A, E5M2 B (IREE's ``MFMA_F32_16x16x32_F8E4M3FN_F8E5M2``): the kernel issues
    the ``fp8_bf8`` MFMA and is exact, each operand encoded in its own format."""
    src = tmp_path / "late.mlir"
    src.write_text(G.late_form(G.matmul_source(**MIXED)))
    _pipelined_and_exact(src, "v_mfma_f32_16x16x32_fp8_bf8", capsys)
