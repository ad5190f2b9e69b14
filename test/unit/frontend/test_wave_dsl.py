"""IREE's Wave DSL GEMM (``wave-lang``) through the front end with no hand edits.

``test/data/wave/generate.py`` writes Wave's f16 ``C = A x B^T`` GEMM with
``use_global_to_shared`` for gfx950 as Wave hands it to its compiler (a
``stream.executable``, ``stream.binding.subspan`` rank-0 memrefs, ``readfirstlane`` address
terms, a memref.view LDS pool, ``affine.apply`` index math, wave-lang 3.9's older IREE
syntax).  ``pipeline-opt --pipeline=4wave`` pipelines that text as it is (the simulator
pass ``sched-fix-hazards`` runs on the way), and the code object computes C exactly on the
emulator in the late and random completion modes, launched as Wave launches it (a launch
description: three rank-0 memref descriptors, a 2 x 2 grid of 2-D workgroups of 128 x 2;
all four workgroups run, so every output tile is checked).  With its waves stacked along M
(``--waves 4 1``) Wave launches 1-D workgroups of 256 x 1, and the front end makes the
copies itself; that kernel is checked the same way.

wave-lang is not a dependency: the tests run when it is importable, or when
``PIPELINE_MLIR_WAVE_PYTHON`` names a Python that has it, and skip otherwise.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wave_helpers import assert_pipelined_exact

GENERATOR = Path(__file__).parents[2] / "data" / "wave" / "generate.py"
#: K above 8192: Wave gives the buffers no cache-swizzle stride (which the emulator does
#: not model) when a row is longer than that
SIZE = (256, 256, 8320)
TILE = (128, 128, 64)


def _wave_python() -> str | None:
    if importlib.util.find_spec("wave_lang") is not None:
        return sys.executable
    return os.environ.get("PIPELINE_MLIR_WAVE_PYTHON") or None


pytestmark = pytest.mark.skipif(_wave_python() is None,
                                reason="wave-lang is not installed (nor named by "
                                       "PIPELINE_MLIR_WAVE_PYTHON)")


#: waves along M and N: a 128 x 2 workgroup, and Wave's 1-D launch (256 x 1)
WAVES = {(2, 2): (128, 2), (4, 1): (256, 1)}


@pytest.fixture(scope="module", params=list(WAVES), ids=lambda w: f"waves{w[0]}x{w[1]}")
def wave_kernel(request, tmp_path_factory) -> tuple[Path, tuple]:
    out = tmp_path_factory.mktemp("wave") / "gemm.mlir"
    cmd = [_wave_python(), str(GENERATOR), str(out), "--size", *map(str, SIZE),
           "--tile", *map(str, TILE), "--waves", *map(str, request.param)]
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": ""})
    return out, WAVES[request.param]


def _launch(m: int, n: int, k: int, block: tuple) -> str:
    args = "".join(f'[[arg]]\nname = "{name}"\nkind = "buffer"\ndtype = "{dt}"\n'
                   f'shape = [{r}, {c}]\npass = "memref-0d"\n'
                   for name, dt, r, c in (("A", "f16", m, k), ("B", "f16", n, k),
                                          ("C", "f32", m, n)))
    return (f"grid = [{m // TILE[0]}, {n // TILE[1]}]\nblock = [{block[0]}, {block[1]}]\n{args}"
            f'[[check]]\noutput = "C"\nexpect = "A @ B.T"\n')


def test_wave_gemm_is_wave_output(wave_kernel):
    path, block = wave_kernel
    text = path.read_text()
    assert f"workgroup_size = [{block[0]}, {block[1]}, 1]" in text
    for form in ("stream.binding.subspan", "llvm.amdgcn.readfirstlane", "affine.apply",
                 "memref.view", "amdgpu.gather_to_lds"):
        assert form in text, form


def test_wave_gemm_pipelined_and_exact(wave_kernel, tmp_path):
    path, block = wave_kernel
    assert_pipelined_exact(path, _launch(*SIZE, block), SIZE[0] * SIZE[1], tmp_path)
