"""The whole-grid proofs of the front end's own copies run once the partition's structure
holds (``frontend/partition.py``'s :func:`partition_loop`): a loop refused for its
structure (a split, a channel's plan) is refused without them, and the way that then takes
it proves its own partition."""

from __future__ import annotations

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
    from pipeline_mlir.frontend import layout

    late = G.forms(G.matmul_source("fp8e5m2", 130, 100, 1273, transpose_a=True,
                                   transpose_b=False),
                   ("--iree-llvmgpu-prefetch-num-stages=2",
                    "--iree-llvmgpu-use-direct-load=false"))["late"]
    (tmp_path / "late.mlir").write_text(late)
    proven, prove = [], layout.prove_kept

    def counted(an, copies, kept, base, width, lanes, ref_copy, full, label, aligned=None):
        proven.append(label)
        return prove(an, copies, kept, base, width, lanes, ref_copy, full, label, aligned)
    monkeypatch.setattr(layout, "prove_kept", counted)
    rc = main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=schedule-json"])
    out, err = capsys.readouterr()
    assert rc == 0 and '"schedule": "4wave"' in out, err[-2000:]
    assert proven == ["A", "B"], proven
