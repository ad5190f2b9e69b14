"""benchmarks/bench_reference.py and its data: every shipped kernel has the reference's
figures, and the script measures ours (it asserts nothing about speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import KERNEL_SPECS, build
from script_loader import load_script
from pipeline_mlir.isa import asm as asm_module
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.report import REFERENCE_LOOPS
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim import timing

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench():
    return load_script(BENCH / "bench_reference.py", "bench_reference")


@pytest.fixture(autouse=True)
def _assembly_shared():
    """The script compiles ``--emit=asm`` of the shipped kernel it measures: once per run
    (``build_cache.share_code_objects``), with the documents' figure of the script and this
    module's other runs of it."""
    with share_code_objects(emits=("asm",), own_kernels=True):
        yield


def test_the_figures_name_every_shipped_kernel_and_their_source():
    doc = json.loads((BENCH / "reference_figures.json").read_text())
    assert "Mojo" in doc["source"] and "llvm-mca-22" in doc["source"]
    # the 4-wave 256x256 kernels have no reference kernel of their shape
    ours = {parse_pipeline(s) for k, s in KERNEL_SPECS.items() if not k.endswith("-256")}
    theirs = {parse_pipeline(k["spec"]) for k in doc["kernels"].values()}
    assert theirs == ours
    for k in doc["kernels"].values():
        assert k["sim_llvm"] > 0 and k["sim_measured"] > 0 and k["llvm_mca"] > 0
        assert k["mfma"] > 0 and 0 < k["mfma_busy"] <= 1 and k["valu"] > 0 and k["vgprs"] > 0


def test_the_report_shows_the_figures_the_benchmark_compares_with():
    """``--report``'s reference loop figures (isa/report.py) are the benchmark's, so the two
    cannot drift apart."""
    doc = json.loads((BENCH / "reference_figures.json").read_text())
    shown = {}
    for k in doc["kernels"].values():
        shown[gemm_kernel(parse_pipeline(k["spec"])).name] = {"VALU": k["valu"],
                                                             "VGPRs": k["vgprs"]}
    assert shown == REFERENCE_LOOPS


def test_the_script_measures_our_kernel_and_prints_ratios(capsys):
    rc = _bench().main(["--no-mca", "--kernel", "4wave-fp8-64"])
    out = capsys.readouterr().out
    assert rc == 0
    row = next(line for line in out.splitlines() if line.startswith("4wave-fp8-64"))
    assert row.split()[1:4] == ["-", "/", "135.1"]       # llvm-mca not run: no ratio
    assert " / 141.5 = " in row and " / 1223.1 = " in row and " / 90 = " in row
    assert " / 21% = " in row                             # the reference's MFMA busy, measured


def test_an_assembly_file_is_measured_as_our_kernel_is(tmp_path, capsys, monkeypatch):
    """``--measure-asm`` (how the reference's figures are taken) gives our kernel's assembly
    the figures the benchmark measures for our kernel, parsing the assembly once."""
    bench = _bench()
    spec = json.loads((BENCH / "reference_figures.json").read_text())["kernels"][
        "4wave-fp8-64"]["spec"]
    # the kernel's ``--emit=asm`` output: the run's build of it (the same compilation)
    assert spec == KERNEL_SPECS["4wave-fp8-64"], spec
    asm = build("4wave-fp8-64").asm
    path = tmp_path / "k.s"
    path.write_text(asm)
    parses = []

    def counted(text, *args, **kwargs):
        parses.append(len(text))
        return parse_asm(text, *args, **kwargs)
    for module in (asm_module, timing):
        monkeypatch.setattr(module, "parse_asm", counted)
    assert bench.main(["--no-mca", "--kernel", "4wave-fp8-64", "--measure-asm", str(path)]) == 0
    assert parses == [len(asm)]
    monkeypatch.undo()
    got = json.loads(capsys.readouterr().out)
    ours = bench.measure(spec, mca=False)
    assert list(got) == ["mfma", "llvm_mca", "sim_llvm", "sim_measured", "mfma_busy", "valu",
                         "vgprs"]
    assert got == {k: ours[k] for k in got} and got["llvm_mca"] is None


def test_measure_asm_errors(tmp_path, capsys):
    bench = _bench()
    missing = tmp_path / "nope.s"
    assert bench.main(["--no-mca", "--kernel", "4wave-fp8-64", "--measure-asm", str(missing)]) == 1
    assert f"cannot read {missing}" in capsys.readouterr().err
    text = tmp_path / "text.s"
    text.write_text("f:\n  s_nop 0\n  s_endpgm\n")         # no loop holding MFMA
    assert bench.main(["--no-mca", "--kernel", "4wave-fp8-64", "--measure-asm", str(text)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"bench_reference: {text}: ") and "no loop holding MFMA" in err
    assert bench.main(["--no-mca", "--measure-asm", str(text)]) == 1
    assert "--measure-asm needs exactly one --kernel" in capsys.readouterr().err


def test_an_unknown_kernel_is_an_error(capsys):
    assert _bench().main(["--no-mca", "--kernel", "nope"]) == 1
    assert "unknown kernel 'nope'" in capsys.readouterr().err
