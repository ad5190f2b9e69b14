"""IREE's matmul with an odd trip count, pipelined with a remainder loop and run.

K = 1120 is 35 of IREE's K steps of 32 (its default 128x128 tile, 4 waves, DMA copies at
2048x2048): ``iree-compile`` writes it (``test/data/iree/generate.py``, at the prefetch
point and in the late form, once per session), ``pipeline-opt --pipeline=4wave --emulate``
pipelines 34 K tiles, runs the 35th in the remainder loop (on copies of IREE's XOR-swizzled
LDS at the prefetch point, the swizzle made explicit) and compares C with the reference
for two workgroups, memory completing as late as the counters allow and at random.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import hsaco_and_lowered
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

SOURCE = dict(dtype="bf16", m=2048, n=2048, k=1120)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    d = tmp_path_factory.mktemp("iree_tails")
    out = {}
    for form, fn in (("prefetch", G.prefetch_point), ("late", G.late_form)):
        out[form] = d / f"k1120.{form}.mlir"
        out[form].write_text(fn(G.matmul_source(**SOURCE), ()))
    return out


@pytest.mark.parametrize("form,mode", [("prefetch", "late"), ("prefetch", "random"),
                                       ("late", "late"), ("late", "random")])
def test_odd_trip_count_is_exact(kernels, form, mode, capsys):
    assert "scf.for" in kernels[form].read_text() and "to %c35" in kernels[form].read_text()
    with share_code_objects():   # each form built once per run, for both modes
        rc = main(["--pipeline=4wave", "--emulate", str(kernels[form]),
                   "--emulate-workgroups=2", f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "K=1120" in out and ": exact, max error 0, 2 of 256 workgroups" in out, out


def test_remainder_loop_in_the_pipelined_kernel(kernels):
    """The prefetch point's lowered MLIR (``--emit=mlir``'s, kept by the build of the code
    object the exactness items run: one run of the passes): the remainder reads IREE's
    swizzled LDS at addresses XORed explicitly."""
    out = hsaco_and_lowered("4wave", kernels["prefetch"].read_text())[1]
    end = out.index("sched.remainder")
    rem = out[out.rindex("scf.for", 0, end):end]
    assert "iree_codegen.swizzle" not in out
    assert rem.count("arith.xori") == 8 and rem.count("vector.load") == 8, rem
