"""IREE's matmul with an odd trip count, pipelined with a remainder loop and run.

K = 1120 is 35 of IREE's K steps of 32 (its default 128x128 tile, 4 waves, DMA copies at
2048x2048): ``iree-compile`` writes it (``test/data/iree/generate.py``, at the prefetch
point and in the late form, once per session), ``pipeline-opt --pipeline=4wave --emulate``
pipelines 34 K tiles, runs the 35th in the remainder loop (on copies of IREE's XOR-swizzled
LDS at the prefetch point, the swizzle made explicit; its copies issued before the
pipelined loop, ``frontend/remainder_dma.py``) and compares C with the reference for two
workgroups, memory completing as late as the counters allow and at random.  The prefetch
point is built once, to assembly (its MLIR after the lowering kept on the way), and that
assembly is what the emulator runs and what the mutant below edits.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import cached, share_code_objects
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

SOURCE = dict(dtype="bf16", m=2048, n=2048, k=1120)
LAUNCH = "--emulate=2048,2048,1120"


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    d = tmp_path_factory.mktemp("iree_tails")
    out = {}
    for form, fn in (("prefetch", G.prefetch_point), ("late", G.late_form)):
        out[form] = d / f"k1120.{form}.mlir"
        out[form].write_text(fn(G.matmul_source(**SOURCE), ()))
    return out


@pytest.fixture(scope="module")
def prefetch_build(kernels, tmp_path_factory):
    """The prefetch point pipelined once per run: (its assembly, written to a file, and its
    MLIR after the lowering)."""
    from pipeline_mlir.driver import CompileOptions, compile

    text = kernels["prefetch"].read_text()

    def build():
        r = compile(CompileOptions(schedule="4wave", text=text, emit="asm", stages=("mlir",)))
        return r.checked_output(), r.stages["mlir"]
    asm, mlir = cached("tails-iree-asm", ("4wave", text), build)
    path = tmp_path_factory.mktemp("iree_tails_asm") / "k1120.s"
    path.write_text(asm)
    return path, mlir


def _emulate(args: list, mode: str, capsys) -> tuple[int, str]:
    rc = main(args + ["--emulate-workgroups=2", f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    return rc, out + err


@pytest.mark.parametrize("form,mode", [
    ("prefetch", "late"), ("prefetch", "random"), ("late", "late"),
    pytest.param("late", "random", marks=pytest.mark.long(
        "the late form in late mode: late-late; at random: prefetch-random"))])
def test_odd_trip_count_is_exact(kernels, prefetch_build, form, mode, capsys):
    assert "scf.for" in kernels[form].read_text() and "to %c35" in kernels[form].read_text()
    if form == "prefetch":
        rc, out = _emulate([LAUNCH, str(prefetch_build[0])], mode, capsys)
    else:
        with share_code_objects():   # built once per run, for both modes
            rc, out = _emulate(["--pipeline=4wave", "--emulate", str(kernels[form])], mode,
                               capsys)
    assert rc == 0, out
    assert "K=1120" in out and ": exact, max error 0, 2 of 256 workgroups" in out, out


def test_remainder_loop_in_the_pipelined_kernel(prefetch_build):
    out = prefetch_build[1]
    end = out.index("sched.remainder")
    rem = out[out.rindex("scf.for", 0, end):end]
    assert "iree_codegen.swizzle" not in out
    assert rem.count("arith.xori") == 8 and rem.count("vector.load") == 8, rem
    # its 4 copies issued before the pipelined loop (frontend/remainder_dma.py)
    assert "sched.copies_ahead" in out[end - 300:end + 300] and "gather_to_lds" not in rem
    # (before the pipelined loop: the prologue's 8 and those 4; the first copy's index alone
    # says nothing, the prologue's copies come first either way)
    assert out[:out.index("scf.for ")].count("amdgpu.gather_to_lds") == 8 + 4


def test_the_remainders_barriers_are_not_what_orders_its_copies(prefetch_build, capsys):
    """The remainder's barriers deleted from the assembly (those after the kernel's last
    ``s_waitcnt vmcnt(0)``, before the remainder's first LDS read): still exact and
    race-free, its copies completed by the prologue's wait and ordered by its barrier.  (The
    same deletion in the kernel whose remainder copies in its iteration, before
    remainder_dma.py, is an lds-race of the emulator.)"""
    path, _ = prefetch_build
    lines = path.read_text().split("\n")
    last = max(k for k, ln in enumerate(lines) if re.match(r"\s*s_waitcnt vmcnt\(0\)", ln))
    read = next(k for k in range(last, len(lines)) if "ds_read" in lines[k])
    cut = [k for k in range(last, read) if lines[k].strip() == "s_barrier"]
    assert len(cut) == 2, lines[last:read + 1]
    mutant = path.with_name("mutant.s")
    mutant.write_text("\n".join(ln for k, ln in enumerate(lines) if k not in cut))
    rc, out = _emulate([LAUNCH, str(mutant)], "late", capsys)
    assert rc == 0 and ": exact, max error 0" in out, out
