"""IREE's fp8 kernels of gfx942's 16x16x32 FP8 MFMA (``MFMA_F32_16x16x32_F8E4M3FN``, which
iree-compile 3.13 picks for fp8 K-loops of K step 32, e.g. at K = 288): pipelined by the
4-wave schedule from both forms, exact on the emulator.

IREE's fp8 ``A^T x B`` 256x512x288 (the committed inputs ``test/lit/passes/Inputs/
iree-fp8-atb-256x512x288.*``, ``generate.py``'s ``LIT_INPUTS``): both forms adopt one spec
naming the MFMA (``mfma=16x16x32``) and give one schedule; the prefetch point's code object
issues ``v_mfma_f32_16x16x32_fp8_fp8`` only, is hazard-free in the simulator (the build's
``sched-fix-hazards`` simulates it on the way, and fails on a hazard it cannot fix) and
computes C exactly on two workgroups, memory completing as late as the counters allow.
"""

from __future__ import annotations

import re
from pathlib import Path

from build_cache import share_code_objects
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main

INPUTS = Path(__file__).parents[2] / "lit" / "passes" / "Inputs"
STEM = "iree-fp8-atb-256x512x288"


def _adopted(src: Path, emit: str):
    """The build of IREE's kernel ``src`` under ``--pipeline=4wave`` (``emit``: ``hsaco`` or
    ``schedule-json``) with the loop as sched-adopt-loop left it (and, for a code object, the
    schedule), and the adopted spec, which names the 16x16x32 FP8 MFMA."""
    stages = ("adopted",) + (("schedule-json",) if emit != "schedule-json" else ())
    built = compile(CompileOptions(schedule="4wave", input=str(src), emit=emit, stages=stages))
    built.checked_output()
    found = re.findall(r"sched\.options = \{([^}]*)\}", built.stages["adopted"])
    assert len(found) == 1, found
    options = dict(re.findall(r'(\w+) = "?([\w-]+)"?(?: : i64)?', found[0]))
    assert (options["dtype"], options["mfma"]) == ("fp8", "16x16x32"), options
    return built, options


def test_both_forms_give_one_schedule_and_the_kernel_is_exact(capsys):
    prefetch, late = (INPUTS / f"{STEM}.{form}.mlir" for form in ("prefetch", "late"))
    with share_code_objects():
        built, options = _adopted(prefetch, "hsaco")
        names = {i.name for i in load_kernel(built.output).instrs
                 if i.name.startswith("v_mfma")}
        assert names == {"v_mfma_f32_16x16x32_fp8_fp8"}, names
        rc = main(["--pipeline=4wave", "--emulate", str(prefetch), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0" in out, out + err
    schedule, late_options = _adopted(late, "schedule-json")
    assert schedule.checked_output() == built.stages["schedule-json"]
    assert late_options == options
