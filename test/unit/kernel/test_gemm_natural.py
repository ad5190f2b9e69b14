"""The complete GEMM kernels go through the front end: one path for our kernels and others'.

``pipeline-opt --pipeline=SPEC`` without an input now compiles the generator's *natural*
K-loop (``natural_kernel_mlir``: one K tile per iteration, untagged, one LDS buffer per
operand and subtile), which ``sched-adopt-loop`` makes the schedule's loop.  The tagged
kernel (``kernel_mlir``, the schedule's body written directly) is kept as the tagged-form
example.  Both must give the same kernel: the same resources but for the scalar
registers (the natural loop's bound, written so that its trip count is visibly even,
takes two scalar instructions), the same instruction counts and the same ISA check.
"""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.kernel.gemm import gemm_kernel, kernel_mlir, natural_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.tools.pipeline_opt import main

SPECS = ["4wave", "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=64 BN=64 BK=128}",
         "pingpong{is_fp8=false}", "pingpong{is_fp8=true}"]


def report(capsys, *args) -> str:
    assert main([*args, "--emit=report"]) == 0, capsys.readouterr().err
    text = capsys.readouterr().out
    # assembly line numbers and register names differ; scalar registers are allowed to
    text = re.sub(r"\blines? [\d,\- ]+|asm line [\d,]+", "line N", text)
    text = re.sub(r"\b[sv]\[?\d+(:\d+)?\]?", "REG", text)
    return "\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("SGPRs"))


@pytest.mark.parametrize("spec", SPECS)
def test_natural_and_tagged_kernels_agree(spec, tmp_path, capsys):
    k = gemm_kernel(parse_pipeline(spec))
    tagged = tmp_path / "tagged.mlir"
    tagged.write_text(kernel_mlir(k))
    ours = report(capsys, f"--pipeline={spec}")
    theirs = report(capsys, f"--pipeline={k.request.spec()}", str(tagged))
    assert ours == theirs


def test_the_natural_loop_is_untagged_and_single_stage():
    text = natural_kernel_mlir(gemm_kernel(parse_pipeline("4wave")))
    assert "sched." not in text
    assert text.count("amdgpu.gather_to_lds") == 8       # one K tile: 2 subtiles x 2 x 2
    assert text.count("amdgpu.mfma") == 32               # 4x4 tiles x 2 K steps
    assert len(re.findall(r"%lds_\w+: memref", text)) == 4  # one buffer per operand, subtile
