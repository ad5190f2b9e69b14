"""``pipeline-opt --simulate``: inputs, report, picture, exit status (in process)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli_helpers import run_cli as run

DATA = Path(__file__).resolve().parents[1] / "data" / "mca"
LIT_INPUTS = Path(__file__).resolve().parents[2] / "lit" / "simulate" / "Inputs"


def test_own_schedule_uses_the_kernel_counts_and_is_safe(capsys):
    rc, out, err = run(capsys, "--simulate", "--pipeline=pingpong", "--cost-table=llvm")
    assert rc == 0 and err == ""
    # the pipeline's defaults are its kernel's counts: the spec is the user's, nothing added
    assert out.startswith("pingpong: safe for main loops of 0..6"), out


def test_dump_with_hazard_exits_1_with_the_first_hazard_on_stderr(capsys):
    dump = LIT_INPUTS / "4wave_bf16_128x128x64.txt"
    rc, out, err = run(capsys, "--simulate", str(dump), "--pipeline=4wave", "--cost-table=llvm",
                       "--sim-iterations=1")
    assert rc == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"{dump}: error: hazard with 1 main-loop iteration (war, lgkmcnt): "
                          f"prologue entry 13")


def test_zero_iterations_of_the_4wave_reference_are_safe(capsys):
    # the reference kernel's zero-trip fence covers that case
    rc, out, _ = run(capsys, "--simulate", str(LIT_INPUTS / "4wave_bf16_128x128x64.txt"),
                     "--pipeline=4wave", "--cost-table=llvm", "--sim-iterations=0")
    assert rc == 0 and "safe for main loops of 0..0 iterations" in out


def test_report_and_svg_picture(capsys, tmp_path):
    """The report to -o and the picture: both files written, or neither (the writer -o
    uses): a report that cannot be written leaves no picture, a picture that cannot be
    written leaves -o untouched."""
    svg, text = tmp_path / "t.svg", tmp_path / "r.txt"
    spec = "--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}"
    rc, _, err = run(capsys, "--simulate", spec, f"--report={svg}", "-o",
                     str(tmp_path / "none" / "r.txt"))
    assert rc == 1 and "cannot write" in err and "none/r.txt" in err and not svg.exists()
    rc, _, err = run(capsys, "--simulate", spec, f"--report={tmp_path / 'none' / 't.svg'}",
                     "-o", str(text))
    assert rc == 1 and "cannot write" in err and "none/t.svg" in err and not text.exists()
    rc, _, _ = run(capsys, "--simulate", spec, f"--report={svg}", "-o", str(text))
    assert rc == 0
    out = text.read_text()
    for section in ("Functional model (main loops of 0..6 iterations)",
                    "Kernel fixes (sched-fix-hazards):", "Timing model (one CU;",
                    "llvm (LLVM SchedModel units)", "measured (gfx950 clock cycles)",
                    "verdict: 4wave"):
        assert section in out
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert "measured" in svg.read_text()      # the picture uses the measured table


def test_assembly_loop_body_is_timed(capsys):
    rc, out, _ = run(capsys, "--simulate", str(DATA / "kernel_4wave_bf16.s"), "--pipeline=4wave",
                     "--cost-table=llvm", "--report")
    assert rc == 0
    assert "only the timing model runs" in out
    assert "ResMII (binding unit)" in out and "line " in out


def test_assembly_without_a_main_loop_is_a_located_error(capsys, tmp_path):
    asm = tmp_path / "k.s"
    asm.write_text("gemm:\n\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n")
    rc, out, err = run(capsys, "--simulate", str(asm), "--pipeline=4wave")
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert err.startswith(f"pipeline-opt: error: {asm}: line 1: function 'gemm' has no loop")


@pytest.mark.parametrize("argv,message", [
    (["--simulate", "--pipeline=4wave", "--sim-iterations=99"], "--sim-iterations=99: must be 0..64"),
    (["--simulate", "--pipeline=4wave", "--launch=1,2,3"], "cannot be combined with --launch"),
    (["--simulate", "x.txt", "y.mlir", "--pipeline=4wave"], "the input 'y.mlir'"),
    (["--pipeline=4wave", "--cost-table=llvm"], "--cost-table goes with --simulate"),
])
def test_usage_errors(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 1 and out == ""
    assert err.startswith("pipeline-opt: error: ") and message in err and err.count("\n") == 1


def test_assembly_with_a_local_alias_label_is_one_kernel(capsys, tmp_path):
    """Mojo's assembly labels its kernel twice ('name:' then '.Lname$local:')."""
    from kernel_builds import build

    b = build("4wave-fp8-64")
    name = b.kernel.name
    asm = b.asm.replace(f"{name}:", f"{name}:\n.L{name}$local:\n\t.type .L{name}$local,@function",
                        1)
    assert f".L{name}$local:" in asm
    src = tmp_path / "k.s"
    src.write_text(asm)
    rc, out, err = run(capsys, "--simulate", str(src), f"--pipeline={b.spec}",
                       "--cost-table=llvm")
    assert (rc, err) == (0, "") and "(assembly, 4 waves): timing only" in out, (rc, out, err)
