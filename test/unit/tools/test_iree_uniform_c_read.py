"""IREE's ``C +=`` kernels whose read of C LLVM branches around on a condition uniform in
the wave (``docs/iree-audits.md``, finding 112).

f16 ``C += A x B^T`` + bias + relu 184x246x648 (3 prefetch stages, a sweep's draw; 2x1
workgroups of 128x256) reads C element by element under a guard, the else value the zero
(the late form's ``scf.if``, the prefetch point's ``map_load``); each wave's rows lie all
inside C or all past it, so LLVM branches around the load on ``scc`` or ``vcc``. The ISA
gate's ``acc-init`` refused both forms (a register started from a load on one path and a
zero on the other); it takes that zero now on the front end's word that the input starts
every accumulator from such reads (``lowering/acc_starts.py``; the rule on snippets:
``test/unit/isa/test_acc_inits.py``).  The word on both forms here; both forms built and
exact in late mode on the whole grid, and those of 160x230x648 (the same tile, refused
the same way before), in the long tier: each costs about 9 s of CPU.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402
from test_iree_emulate import needs_iree  # noqa: E402

FLAGS = ("--iree-llvmgpu-prefetch-num-stages=3",)


def _forms(m: int, n: int, k: int) -> dict:
    return G.forms(E.epilogue_source("accumulate_bias_relu", "f16", m, n, k), FLAGS)


@needs_iree
def test_both_forms_say_the_input_starts_from_masked_reads():
    """The front end gives the plan of each form the word (``masked_starts``; the
    inputs it is not given for: ``test/unit/lowering/test_acc_starts.py``), on the loop
    ``merge_k=auto`` makes and keeps here (2 K steps merged into each K tile).  Asked for with
    ``merge_k=true``: the same merged loop, without the driver's build of each form to
    machine code that confirms an ``auto`` merge (``driver/merge_confirm.py``), which
    was 2.1 of the item's 3.5 s of CPU and has no part in the word."""
    for form, text in _forms(184, 246, 648).items():
        res = compile(CompileOptions(schedule="4wave{merge_k=true}", text=text, emit="mlir"))
        assert [p.masked_starts for p in res.plans] == [True], (form, res.diagnostics)
        assert [p.merge_note.startswith("merge_k=true: 2 K steps merged into each K tile")
                for p in res.plans] == [True], (form, [p.merge_note for p in res.plans])


@needs_iree
@pytest.mark.long("test_both_forms_say_the_input_starts_from_masked_reads gives the word "
                  "the gate takes; test_acc_inits.py holds the rule on snippets")
@pytest.mark.parametrize("size", [(184, 246, 648), (160, 230, 648)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("form", ["late", "prefetch"])
def test_both_forms_pass_the_gate_and_run_exact(tmp_path, capsys, size, form):
    """Each form built (the gate passing it) and exact in late mode on both workgroups."""
    m, n, k = size
    path = tmp_path / f"{form}.mlir"
    path.write_text(_forms(m, n, k)[form])
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late",
               "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and re.search(rf": exact, max error 0 in C \({m * n} elements\), 2 "
                                 rf"workgroups", out), out + err


@needs_iree
@pytest.mark.long("test_acc_starts.py holds the word on the masked transfer's snippet")
def test_a_masked_transfer_of_c_passes_the_gate_and_runs_exact(tmp_path, capsys):
    """IREE's prefetch point of f8E4M3FN ``C += A x B`` + relu 17x16x480 (B ``K x N``, 4
    stages, a grid of one workgroup; finding 123) reads a lane's 4 rows of C in one
    ``vector.transfer_read`` masked to the rows inside C, padded with the zero; LLVM
    branches around the rows' loads on a condition uniform in the wave.  Refused by the
    gate's ``acc-init`` before the word took that read; built and exact now."""
    src = E.epilogue_source("accumulate_relu", "f8E4M3FN", 17, 16, 480, b_kxn=True)
    path = tmp_path / "prefetch.mlir"
    path.write_text(G.prefetch_point(src, ("--iree-llvmgpu-prefetch-num-stages=4",)))
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late",
               "--emulate-workgroups=1", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0 in C (272 elements), 1 workgroups" in out, \
        out + err
