"""The IREE round trip: iree-compile -> pipeline-opt -> iree-compile, on a linalg.matmul.

The session fixture compiles the bf16 ``A x B^T`` 4096^3 matmul with ``iree-compile``
(gfx950) once and takes the kernel at IREE's prefetch point and in its late form
(``test/data/iree/generate.py``).  The tests check that the committed copies are what
IREE produces today, pipeline both forms with ``pipeline-opt --pipeline=4wave`` and no
options, hand each result back to ``iree-compile`` by executable substitution to build a
``.vmfb``, and parse pipeline-opt's output with ``iree-opt``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import shared_build
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
DATA = ROOT / "test" / "data" / "iree"
sys.path.insert(0, str(DATA))
import generate as G  # noqa: E402

CONFIG = G.CONFIGS["matmul_bf16_abt_4096"]


@pytest.fixture(autouse=True)
def _builds_shared():
    """The committed kernel's pipelined MLIR and assembly built once per run, here and in
    the other modules that build them (``build_cache.share_code_objects``)."""
    with share_code_objects(emits=("mlir", "asm")):
        yield


@pytest.fixture(scope="session")
def iree_inputs(tmp_path_factory):
    """{'source', 'prefetch', 'late'} texts, generated with iree-compile (once)."""
    source = G.matmul_source(**CONFIG)
    return {"source": source, "prefetch": G.prefetch_point(source),
            "late": G.late_form(source), "dir": tmp_path_factory.mktemp("iree")}


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_committed_inputs_are_current(iree_inputs, form):
    committed = (DATA / f"matmul_bf16_abt_4096.{form}.mlir").read_text()
    assert iree_inputs[form] == committed, (
        "IREE's output changed: regenerate with python test/data/iree/generate.py")


def _loop(asm: str) -> Counter:
    fn = next(f for f in parse_asm(asm).functions if any(i.kind == "mfma" for i in f.instrs()))
    return Counter(i.kind for i in fn.main_loop_phases()["loop"])


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_round_trip(iree_inputs, form, capsys):
    d = iree_inputs["dir"]
    src = d / f"{form}.mlir"
    src.write_text(iree_inputs[form])
    out = d / f"{form}.pipelined.mlir"
    assert main(["--pipeline=4wave", str(src), "-o", str(out)]) == 0, capsys.readouterr().err
    # iree-opt parses pipeline-opt's output as it is
    subprocess.run([G.tool("iree-opt"), str(out), "-o", str(d / f"{form}.reparsed.mlir")],
                   check=True, capture_output=True)
    # ... and iree-compile takes it back in place of its own executable
    dump = d / f"{form}.dump"
    note = G.substitute(iree_inputs["source"], str(out), d / f"{form}.vmfb", dump)
    assert "substituted with MLIR source" in note
    assert (d / f"{form}.vmfb").stat().st_size > 0
    # IREE compiled our loop: two K tiles per iteration with the schedule's barriers, each
    # two of IREE's K steps of 32 (merge_k=auto): 16 MFMAs, 8 reads, 4 copies a K step
    (asm,) = dump.glob("*.rocmasm")
    counts = _loop(asm.read_text())
    assert counts["mfma"] == 64 and counts["ds_read"] == 32 and counts["vmem_load_lds"] == 16
    assert counts["barrier"] == 4, counts
    # pipeline-opt's own LLVM path compiles the same loop
    ours = d / f"{form}.s"
    assert main(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(ours)]) == 0
    mine = _loop(ours.read_text())
    for kind in ("mfma", "ds_read", "vmem_load_lds", "barrier"):
        assert mine[kind] == counts[kind], (kind, mine, counts)


def _handed_back(tmp_path, capsys, dtype: str, size: tuple) -> tuple[str, Counter]:
    """IREE's ``dtype`` ``A x B^T`` of ``size`` (M, N, K) pipelined from its prefetch point
    (the MLIR ``-o`` writes, kept by the run's build of its code object) and handed back by
    executable substitution: (the assembly iree-compile made of it, its main loop's
    instruction kinds), once that kernel computed C exactly on the emulator (2
    workgroups, late mode)."""
    source = G.matmul_source(dtype, *size)
    src = tmp_path / f"{dtype}.mlir"
    src.write_text(G.prefetch_point(source))
    out = tmp_path / f"{dtype}.pipelined.mlir"
    out.write_text(shared_build("4wave", stages=("mlir",), input=str(src)).stages["mlir"])
    dump, vmfb = tmp_path / "dump", tmp_path / f"{dtype}.vmfb"
    note = G.substitute(source, str(out), vmfb, dump)
    assert "substituted with MLIR source" in note and vmfb.stat().st_size > 0
    (path,) = dump.glob("*.rocmasm")
    capsys.readouterr()
    rc = main([f"--emulate={','.join(map(str, size))}", str(path), "--emulate-workgroups=2",
               "--emulate-mode=late"])
    text, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in text and "IREE's HAL bindings" in text, text + err
    asm = path.read_text()
    return asm, _loop(asm)


def test_i8_round_trip_builds_a_vmfb_that_computes_c(tmp_path, capsys):
    """IREE's i8 matmul (register copies, i32 C), pipelined from the prefetch point, handed
    back by executable substitution: iree-compile builds the .vmfb, its loop is the
    schedule's, and the kernel it finished computes C exactly on the emulator.  At
    2048x2048x1024 (IREE's 4096^3 kernel but for its numbers, a quarter of the K steps to
    emulate): the pipelined MLIR is what ``-o`` writes, kept by the run's build of the
    kernel's code object (test_iree_configurations.py's ``i8_abt_2048x2048x1024``)."""
    asm, counts = _handed_back(tmp_path, capsys, "i8", (2048, 2048, 1024))
    # two K tiles of 128 per iteration, each two of IREE's K steps of 64 (merge_k=auto): 16
    # MFMAs and 8 fragment reads per wave and K step
    assert counts["mfma"] == 64 and counts["ds_read"] == 32 and counts["vmem_load_lds"] == 16
    assert "v_mfma_i32_16x16x64_i8" in asm


def test_f32_round_trip_builds_a_vmfb_that_computes_c(tmp_path, capsys):
    """IREE's f32 matmul (16x16x4 f32 MFMAs on scalar operands, copies through registers),
    pipelined from the prefetch point and handed back by executable substitution:
    iree-compile builds the .vmfb and the kernel it finished computes C exactly on the
    emulator (512^3: a 64x128 tile, K step 64, 8 K steps)."""
    asm, counts = _handed_back(tmp_path, capsys, "f32", (512, 512, 512))
    # two K tiles of 64 per iteration, each 8 accumulators x 16 MFMAs a wave; the copies
    # made direct-to-LDS copies
    assert counts["mfma"] == 256 and counts["vmem_load_lds"] > 0, counts
    assert set(re.findall(r"v_mfma\w+", asm)) == {"v_mfma_f32_16x16x4_f32"}
