"""Interior workgroups pipelined, edge workgroups running the loop as written
(``pipeline_mlir/frontend/edge_version.py``).

IREE's bf16 ``A^T x B^T`` with M known only at launch and its ``padding`` (K = 256, the
committed ``test/lit/passes/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir``): A's runs are
masked by the M left along A's contiguous dimension.  The K-loop is versioned on the
workgroup's tile lying inside M; at M = 129 the first workgroup is inside and the last (one
column of A left) is the edge, so the two emulated workgroups run both versions.  The
refusals (a mask not full inside M, a mask of a value the proof does not follow) are in
``test/lit/passes/sched-adopt-loop-kxm-edge.mlir``.
"""

from __future__ import annotations

from pathlib import Path

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.frontend import edge_version as EV
from pipeline_mlir.tools.pipeline_opt import main

PREFETCH = (Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs"
            / "iree-bf16-atbt-padded-m.prefetch.mlir")


def _emulate(capsys, m: int) -> tuple[int, str]:
    rc = main(["--pipeline=4wave", str(PREFETCH), f"--emulate={m},4096,256",
               "--emulate-workgroups=2", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    return rc, out + err


def test_interior_and_edge_workgroups_are_exact(capsys):
    """Both versions exact at M = 129: the first workgroup pipelined, the last (its tile 1
    row of C, A's runs cut to 1 element) running IREE's loop.  Refused before the
    versioning (at A's masked read: a run may be cut inside)."""
    rc, out = _emulate(capsys, 129)
    assert rc == 0 and "mode=late: exact, max error 0 in C (16512 elements), 2 of 64 " \
                       "workgroups" in out, out[-2000:]


def test_an_interior_condition_off_by_one_is_wrong(capsys, monkeypatch):
    """The check sees the edge workgroup's path: with the interior condition made one
    row too wide (``T (g + 1) <= M + 1``), the workgroup at M = 255 (127 rows of its tile
    inside M) runs the pipelined loop with A's masks dropped, reads the columns past M
    (the next row of A) and its tile of C comes out wrong."""
    right = EV.interior

    def wide(used):
        return right([(g, B.arith.addi(launch, B.arith.constant(launch.type, 1)), T)
                      for g, launch, T in used])

    monkeypatch.setattr(EV, "interior", wide)
    rc, out = _emulate(capsys, 255)
    assert rc != 0 and "mode=late: WRONG" in out and "C differs from its check" in out, \
        out[-2000:]
