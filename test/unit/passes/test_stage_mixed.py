"""Register-staged copies issued an iteration ahead in a K-loop that also has DMA copies.

IREE's fp8 kernel (``iree-compile``, late form, 2048x2048x1024: copies through registers
that the front end makes direct-to-LDS copies) with operand A's copies register-staged
(the front end's alignment check made to say so for A's source: a staged copy moves what
the DMA moves, so the kernel still computes A x B^T) and B's left DMA copies.
``sched-stage-copies`` issues A's loads an iteration ahead and re-derives the loop's
``vmcnt`` waits for B's copies (``pipeline_mlir/passes/_stage_mixed.py``): exact on the
emulator as late as the counters allow and at random, with its race and pending-register
checks; every re-derived wait one weaker is caught as a race, and the loop's assembly
without LLVM's vmcnt before a staged LDS write (counting the DMA copies issued since the
load) as a pending register.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.passes import _stage_mixed as M
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from staged_asm import emulate_without_staged_write_waits  # noqa: E402


@pytest.fixture(scope="module")
def kernel(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mixed") / "fp8.mlir"
    path.write_text(G.late_form(G.matmul_source("fp8", m=2048, n=2048, k=1024)))
    return path


@pytest.fixture
def mixed():
    """The front end stages the copies of the first source it checks (operand A)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_stage_mixed import stage_a
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    with stage_a():
        yield


def _loop(text: str) -> str:
    start = text.index("scf.for")
    return text[start:text.index("scf.yield", start)]


def test_mixed_loop_loads_ahead(kernel, mixed, capsys, tmp_path):
    """A's 8 copies of an iteration carried across the back edge, B's stay DMA copies; of
    the loop's 4 vmcnt(8) waits (the slot form's), 2 become vmcnt(10): the 2 staged loads
    issued after the B copies they wait for may stay in flight."""
    out = tmp_path / "out.mlir"
    assert main(["--pipeline=4wave", str(kernel), "-o", str(out)]) == 0, capsys.readouterr()
    loop = _loop(out.read_text())
    assert len(re.findall(r"vector\.store %arg\d+, %alloc", loop)) == 8, loop
    assert loop.count("amdgpu.gather_to_lds %3[") == 8, loop
    vmcnts = [w for w in re.findall(r"s\.waitcnt (\d+)", loop) if int(w) & 0xC00F != 0xC00F]
    assert sorted(vmcnts) == ["3960", "3960", "3962", "3962"], vmcnts


@pytest.mark.parametrize("mode", ["late", "random:3"])
def test_mixed_loop_is_exact(kernel, mixed, capsys, mode):
    rc = main(["--pipeline=4wave", "--emulate", str(kernel), "--emulate-workgroups=2",
               f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0, 2 of 256 workgroups" in out, out + err


def test_a_rederived_wait_one_weaker_is_caught(kernel, mixed, capsys, monkeypatch):
    """Every re-derived vmcnt one higher: a B copy's LDS is read before its DMA is done."""
    real = M._count

    def weaker(*args):
        n = real(*args)
        return n if n >= M.VMCNT_MAX else n + 1
    monkeypatch.setattr(M, "_count", weaker)
    rc = main(["--pipeline=4wave", "--emulate", str(kernel), "--emulate-workgroups=1",
               "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "lds-race" in err and "lds'" in err, out + err


def test_a_staged_write_before_its_load_is_caught(kernel, mixed, capsys, tmp_path):
    """LLVM's vmcnt before each staged LDS write in the loop (on the load an iteration
    earlier, the DMA copies issued since counted too) dropped: a pending register."""
    rc = emulate_without_staged_write_waits(kernel, "2048,2048,1024", tmp_path)
    out, err = capsys.readouterr()
    assert rc == 1 and "pending-register" in err and "ds_write_b128" in err, out + err
