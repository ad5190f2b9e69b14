"""A grid of many workgroups and K steps proven within the lane-read budget
(``frontend/grid_eval.py``'s ``EVAL_BUDGET``): IREE's default build of bf16 ``A^T x B^T``
617x1923x2958, 4719 workgroups of one wave at 93 K steps.

A's and B's copies mix the workgroup with the thread (IREE clamps each run's row and
column to C's edge), so that no lane reads before its buffer's start is proven by
evaluating every lane of every workgroup at every K step.  ``every_read.py`` refused that
at the analysis (4719 x 93 pairs, more than 131072), before the partition's kept-mask proof
(``kept_layout.prove_kept``), which evaluates those very copies (about 1.2 billion lane
reads, some 14 s) and now stands for that check.  Both forms give one schedule, exact on
the first and the last workgroup (late mode).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import generate as G  # noqa: E402

OPTIONS = re.compile(r"sched\.options = \{[^}]*\}")


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of IREE's kernel, as files ({form: path})."""
    d = tmp_path_factory.mktemp("grid_budget")
    source = G.matmul_source("bf16", 617, 1923, 2958, transpose_a=True, transpose_b=True)
    out = {}
    for form, text in G.forms(source, ("--iree-llvmgpu-prefetch-num-stages=2",)).items():
        out[form] = d / f"{form}.mlir"
        out[form].write_text(text)
    return out


def _emulated_options(path, capsys) -> set:
    """The ``sched.options`` the pipelined loop of the form ``path`` is built with, its
    first and last workgroup emulated exact (late mode)."""
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
                   "--emulate-mode=late", "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0 in C" in out and \
        "2 of 4719 workgroups" in out, out + err[-2000:]
    return set(OPTIONS.findall(err))


@pytest.mark.long(
    "test_every_workgroup.py's test_a_grid_over_the_evaluation_budget_is_refused and "
    "test_tails_masked.py's kept-layout variants check the budget one read short and at "
    "the budget on small grids")
def test_a_grid_of_many_k_steps_both_forms_one_schedule_exact(forms, capsys):
    emulated = _emulated_options(forms["prefetch"], capsys)
    assert len(emulated) == 1, emulated
    assert _emulated_options(forms["late"], capsys) == emulated
