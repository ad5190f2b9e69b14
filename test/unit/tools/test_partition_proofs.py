"""The whole-grid proofs of the front end's own copies run once the partition's structure
holds (``frontend/partition.py``'s :func:`partition_loop`): a loop refused for its
structure (a split, a channel's plan) is refused without them, and the way that then takes
it proves its own partition."""

from __future__ import annotations

import re

from iree_configs import G
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree


@needs_iree
def test_a_partition_refused_for_its_structure_proves_no_kept_mask(tmp_path, monkeypatch,
                                                                   capsys):
    """IREE's fp8 E5M2 ``A^T x B`` 130x100x1273 with copies through registers
    (``--iree-llvmgpu-use-direct-load=false``), late form: its partition as it is plans
    channel A, whose copies keep a mask (proven over every lane of every workgroup and K
    step: ``kept_layout.prove_kept``), then is refused at channel B's split; the loop is
    taken another way (2 K steps merged, both operands split along K), which proves A and
    B.  A's proof for the
    refused partition ran too (A, A, B; 11 of the 22 s of the 1817x998x1273 kernel of the
    nineteenth sweep's finding 38); now only the loop built is proven."""
    proven = _counted(tmp_path, monkeypatch)
    rc = main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=schedule-json"])
    out, err = capsys.readouterr()
    assert rc == 0 and '"schedule": "4wave"' in out, err[-2000:]
    assert proven == ["A", "B"], proven


def _counted(tmp_path, monkeypatch) -> list:
    """The kernel of the test above written to ``late.mlir``; the labels of the channels
    whose kept masks ``prove_kept`` is asked to prove, in order, as the list returned."""
    from pipeline_mlir.frontend import layout

    late = G.forms(G.matmul_source("fp8e5m2", 130, 100, 1273, transpose_a=True,
                                   transpose_b=False),
                   ("--iree-llvmgpu-prefetch-num-stages=2",
                    "--iree-llvmgpu-use-direct-load=false"))["late"]
    (tmp_path / "late.mlir").write_text(late)
    proven, prove = [], layout.prove_kept

    def counted(an, copies, kept, base, width, lanes, ref_copy, full, label, aligned=None,
                skip=None):
        proven.append(label)
        return prove(an, copies, kept, base, width, lanes, ref_copy, full, label, aligned,
                     skip)
    monkeypatch.setattr(layout, "prove_kept", counted)
    return proven


@needs_iree
def test_a_proof_over_the_budget_is_proven_by_boxes(tmp_path, monkeypatch, capsys):
    """A kept mask's proof over the budget of lane reads (``grid_eval.EVAL_BUDGET``) is
    proven over boxes of workgroups and K steps (``analysis/box_eval.py``), from a few
    points of each: at a budget of one lane read the kernel pipelines with the schedule it
    has at the default budget, both channels proven.  With the boxes settling nothing
    (``grid_eval.BOXES`` 0), it is refused at channel A's copy, saying both."""
    from pipeline_mlir.frontend import grid_eval

    proven = _counted(tmp_path, monkeypatch)
    assert main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=schedule-json"]) == 0
    want = capsys.readouterr().out
    monkeypatch.setattr(grid_eval, "EVAL_BUDGET", 1)
    assert main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=schedule-json"]) \
        == 0, capsys.readouterr().err[-2000:]
    assert capsys.readouterr().out == want
    assert proven == ["A", "B", "A", "B"], proven
    monkeypatch.setattr(grid_eval, "BOXES", 0)
    rc = main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and re.search(
        r"channel A's copies keep a mask in their address, proven for the front end's own "
        r"copies in every workgroup at every K step: the proof over boxes of workgroups and "
        r"K steps settled no more in 0 boxes, and evaluating every lane instead, the \d+ "
        r"workgroups of \d+ threads at \d+ K steps, \d+ copies in each, are \d+ lane reads "
        r"to evaluate, more than 1", err), err[-2000:]
    assert "Traceback" not in err
