"""Interior workgroups pipelined, edge workgroups running the loop as written
(``pipeline_mlir/frontend/edge_version.py``).

IREE's bf16 ``A^T x B^T`` with M known only at launch and its ``padding`` (K = 256, the
committed ``test/lit/passes/Inputs/iree-bf16-atbt-padded-m.{prefetch,late}.mlir``): A's runs
are masked by the M left along A's contiguous dimension.  The K-loop is versioned on the
workgroup's tile lying inside M; the two emulated workgroups (the first and the last) run
both versions where M is not a multiple of the tile.  The versioned loop of both forms and
the refusals (a mask not full inside M, a mask of a value the proof does not follow) are in
``test/lit/passes/sched-adopt-loop-kxm-edge.mlir``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.driver.dispatch_launch import run_dispatch
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.frontend import edge_version as EV
from pipeline_mlir.frontend.dispatch import matmul_dispatch
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_builds import pipeline_opt_hsaco  # noqa: E402

INPUTS = Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs"


def _run(form: str, sizes: tuple, mode: str) -> str:
    """The summary of the ``form`` build (one per test run) launched at ``sizes``, two
    workgroups (the first and the last), in ``mode`` (``late`` or ``random:SEED``)."""
    path = INPUTS / f"iree-bf16-atbt-padded-m.{form}.mlir"
    text = path.read_text()
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(text, ctx), sizes)
    how, _, seed = mode.partition(":")
    summary, problem = run_dispatch(d, load_kernel(pipeline_opt_hsaco("4wave", text)),
                                    str(path), (how, int(seed or 0)), 2, None, False)
    assert problem is None, problem
    return summary


@pytest.mark.parametrize("form,runs", [
    # M = 129: the first workgroup inside M, the last the edge (one column of A left);
    # M = 400: the last 16 rows in; M = 16: both at the edge
    ("prefetch", (((129, 4096, 256), "late"), ((400, 4096, 256), "random:3"))),
    ("late", (((129, 4096, 256), "random:5"), ((16, 4096, 256), "late")))])
def test_interior_and_edge_workgroups_are_exact(form, runs):
    """Both versions exact, from both forms (refused before the versioning, at A's masked
    read: a run may be cut inside)."""
    for sizes, mode in runs:
        summary = _run(form, sizes, mode)
        assert f"mode={mode.split(':')[0]}: exact, max error 0" in summary, summary


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
    rc = main(["--pipeline=4wave", str(INPUTS / "iree-bf16-atbt-padded-m.prefetch.mlir"),
               "--emulate=255,4096,256", "--emulate-workgroups=2", "--emulate-mode=late"])
    out = "".join(capsys.readouterr())
    assert rc != 0 and "mode=late: WRONG" in out and "C differs from its check" in out, \
        out[-2000:]
