"""A grid of many workgroups and K steps proven within the lane-read budget
(``frontend/grid_eval.py``'s ``EVAL_BUDGET``): IREE's default build of bf16 ``A^T x B^T``
617x1923x2958, 4719 workgroups of one wave at 93 K steps.

A's and B's copies mix the workgroup with the thread (IREE clamps each run's row and
column to C's edge), so that no lane reads before its buffer's start is proven by
evaluating every lane of every workgroup at every K step.  ``every_read.py`` refused that
at the analysis (4719 x 93 pairs, more than 131072), before the partition's kept-mask proof
(``kept_layout.prove_kept``), which evaluates those very copies (about 1.2 billion lane
reads, some 14 s) and now stands for that check.  That proof is now made over boxes of
workgroups and K steps first (``analysis/box_eval.py``: a few points of each box, every
value certified affine over it), which settles it without the lane-by-lane evaluation.
Both forms give one schedule, exact on the first and the last workgroup (late mode).
"""

from __future__ import annotations

import pytest

from form_files import G, emulated_options, form_files


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of IREE's kernel, as files ({form: path})."""
    return form_files(tmp_path_factory.mktemp("grid_budget"),
                      G.matmul_source("bf16", 617, 1923, 2958, transpose_a=True,
                                      transpose_b=True),
                      ("--iree-llvmgpu-prefetch-num-stages=2",))


@pytest.mark.long(
    "test_every_workgroup.py's test_a_grid_over_the_evaluation_budget_is_refused and "
    "test_tails_masked.py's kept-layout variants check the budget one read short and at "
    "the budget on small grids")
def test_a_grid_of_many_k_steps_both_forms_one_schedule_exact(forms, capsys):
    emulated = emulated_options(forms["prefetch"], capsys, "2 of 4719 workgroups")
    assert len(emulated) == 1, emulated
    assert emulated_options(forms["late"], capsys, "2 of 4719 workgroups") == emulated
