"""The ISA gate on ping-pong with an odd K step left over (finding 37 of
docs/iree-audits.md).

IREE's f16 ``A x B^T`` 256x128x160 with a forced 256x128 tile of 8 waves (4x4 MFMA tiles
each, K step 32: 5 K steps), IREE's own prefetch of 2 stages: under ``pingpong`` the
prologue and the drain take 4 K steps (the loop runs once: LLVM unrolls it) and the fifth
is the remainder on the schedule's buffers, after the drain.  The drain ends in MMAs after
its last fence, so the MFMAs before that fence (56) are no whole number per MMA entry of
the run (16); all 80 of the function, the remainder's with them, read as 5 for 4, and
every MMA entry of the loop copy and the drain was found one MFMA short
(``mfma-missing``): the gate refused both forms, which run exact.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

FLAGS = ("--iree-llvmgpu-prefetch-num-stages=2",)


def _source() -> str:
    cfg = G.compilation_info("f16", (256, 128), (4, 4), 1, 512)
    return G.matmul_source("f16", 256, 128, 160, transpose_b=True, config=cfg)


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    d = tmp_path_factory.mktemp("iree_pp5")
    out = {}
    for form, text in G.forms(_source(), FLAGS).items():
        out[form] = d / f"pp5.{form}.mlir"
        out[form].write_text(text)
    return out


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_both_forms_pass_the_gate_and_run_exact(forms, form, capsys):
    """Each form built under the gate (no shared code objects: those skip it) and run."""
    rc = main(["--pipeline=pingpong", "--emulate", str(forms[form]),
              "--emulate-workgroups=1", "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert re.search(r"K=160 mode=late: exact, max error 0, 1 workgroups x 8 waves", out), out


def test_an_mfma_really_missing_in_this_shape_is_refused(forms):
    """The late form's assembly with one MFMA of the unrolled loop copy deleted and one of
    the drain's doubled before its last fence (the count the MFMAs per MMA entry are read
    from kept: 4): the comparison finds the loop copy's MFMA missing, and the gate refuses
    it.  One MFMA deleted alone leaves the count no whole number per MMA entry; the count
    whose run aligns best with the code (4) is taken, and the gate refuses that too
    (before, it held such code to the rules reading the assembly alone, which passed
    it)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.driver.isa_gate import check_built
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.codegen import compile_llvm_ir
    from pipeline_mlir.isa.unrolled import unrolled_check

    result = compile(CompileOptions(schedule="pingpong", text=forms["late"].read_text(),
                                    emit="llvm"))
    ll, (plan,) = result.checked_output(), result.plans
    asm = compile_llvm_ir(ll, kind="asm")
    ran = unrolled_check(parse_asm(asm).function(), plan)
    assert ran.isa.mfmas_per_mma == 4, ran.isa.mfmas_per_mma
    assert not [f for f in ran.isa.findings if f.kind.startswith("mfma")], ran.isa.findings
    check_built(asm, [plan], ll, None, "k.mlir")       # the build as LLVM made it passes
    gone = next(i for i in ran.phases["loop"] if i.kind == "mfma")
    drain = ran.phases["epilogue"]
    fence = max(k for k, i in enumerate(drain) if i.kind == "sched_barrier")
    twin = next(i for i in reversed(drain[:fence]) if i.kind == "mfma")
    lines = asm.split("\n")
    alone = "\n".join(x for n, x in enumerate(lines, start=1) if n != gone.line)
    lines.insert(twin.line, lines[twin.line - 1])
    del lines[gone.line - 1]
    for bad in ("\n".join(lines), alone):
        assert unrolled_check(parse_asm(bad).function(), plan).isa.mfmas_per_mma == 4
        with pytest.raises(Failure) as e:
            check_built(bad, [plan], ll, None, "k.mlir")
        messages = [d.message for d in e.value.diags]
        assert any("ISA check: mfma-missing in the loop" in m for m in messages), messages
