"""benchmarks/bench_reference.py and its data: every shipped kernel has the reference's
figures, and the script measures ours (it asserts nothing about speed)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from kernel_builds import KERNEL_SPECS
from pipeline_mlir.isa.report import REFERENCE_LOOPS
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedules.registry import parse_pipeline

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_reference", BENCH / "bench_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_figures_name_every_shipped_kernel_and_their_source():
    doc = json.loads((BENCH / "reference_figures.json").read_text())
    assert "Mojo" in doc["source"] and "llvm-mca-22" in doc["source"]
    ours = {parse_pipeline(s) for s in KERNEL_SPECS.values()}
    theirs = {parse_pipeline(k["spec"]) for k in doc["kernels"].values()}
    assert theirs == ours
    for k in doc["kernels"].values():
        assert k["sim_llvm"] > 0 and k["sim_measured"] > 0 and k["llvm_mca"] > 0


def test_the_report_shows_the_figures_the_benchmark_compares_with():
    """``--report``'s reference loop figures (isa/report.py) are the benchmark's, so the two
    cannot drift apart."""
    doc = json.loads((BENCH / "reference_figures.json").read_text())
    shown = {}
    for k in doc["kernels"].values():
        if k["valu"] is not None:
            shown[gemm_kernel(parse_pipeline(k["spec"])).name] = {"VALU": k["valu"],
                                                                 "VGPRs": k["vgprs"]}
    assert shown == REFERENCE_LOOPS


def test_the_script_measures_our_kernel_and_prints_ratios(capsys):
    rc = _bench().main(["--no-mca", "--kernel", "4wave-fp8-64"])
    out = capsys.readouterr().out
    assert rc == 0
    row = next(line for line in out.splitlines() if line.startswith("4wave-fp8-64"))
    assert row.split()[1:4] == ["-", "/", "129.3"]       # llvm-mca not run: no ratio
    assert " / 141.5 = " in row and " / 97 = " in row


def test_an_unknown_kernel_is_an_error(capsys):
    assert _bench().main(["--no-mca", "--kernel", "nope"]) == 1
    assert "unknown kernel 'nope'" in capsys.readouterr().err
