"""IREE's matmul kernels run on the emulator: C = A x B^T exactly.

IREE's bf16 ``A x B^T`` 4096^3 kernel (the committed inputs, taken where IREE would
pipeline it and in its late form) is pipelined with ``pipeline-opt --pipeline=4wave`` and
compiled to a code object; the emulator runs it with the launch contract of its kernel
arguments (``sched-gpu-kernel``'s memref descriptors) and, handed back to ``iree-compile``,
as IREE's own HAL launches it (one pointer per binding, preloaded into SGPRs).  IREE's own
kernels (no prefetch, and IREE's 2-stage prefetch pipelining) run the same way.

IREE compiles the sizes into its kernels: each run launches four workgroups of the grid
(the corners and neighbours: different tiles in M and in N) and checks their four
128 x 128 tiles, in the eager and the late completion mode (memory completing at the
wait that forces it, so a missing wait or barrier shows as a finding or wrong data).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import emulate_iree_matmul, kernel_arguments
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
DATA = ROOT / "test" / "data" / "iree"
sys.path.insert(0, str(DATA))
import generate as G  # noqa: E402

SIZE = 4096
TILE = (128, 128)
#: workgroup ids: the prefetch form keeps IREE's 2-D grid (x, y) of 32 x 32 tiles, the late
#: form and IREE's finished kernels linearise it (x: 0..1023)
GRID_2D = [(0, 0), (1, 0), (0, 1), (31, 31)]
GRID_1D = [0, 1, 33, 1023]



def _has_iree_compile() -> bool:
    try:
        return Path(G.tool("iree-compile")).exists()
    except Exception:              # the wheel's tool lookup fails: not installed
        return False


needs_iree = pytest.mark.skipif(not _has_iree_compile(),
                                reason="iree-compile (iree-base-compiler) is not installed")


@pytest.fixture(scope="session")
def kernels(tmp_path_factory):
    """name -> code object bytes, built once per session."""
    d = tmp_path_factory.mktemp("iree_emu")
    out = {}
    for form in ("prefetch", "late"):
        src = DATA / f"matmul_bf16_abt_4096.{form}.mlir"
        hsaco = d / f"{form}.hsaco"
        assert main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(hsaco)]) == 0
        out[f"4wave-{form}"] = hsaco.read_bytes()
    return out


@pytest.fixture(scope="session")
def iree_kernels(tmp_path_factory):
    """IREE's own kernels and the pipelined one as iree-compile finishes it."""
    d = tmp_path_factory.mktemp("iree_own")
    source = G.matmul_source(**G.CONFIGS["matmul_bf16_abt_4096"])
    pipelined = d / "pipelined.mlir"
    assert main(["--pipeline=4wave", str(DATA / "matmul_bf16_abt_4096.prefetch.mlir"),
                 "-o", str(pipelined)]) == 0
    return {"iree-no-prefetch": G.iree_hsaco(source, stages=1),
            "iree-prefetch-2": G.iree_hsaco(source, stages=2),
            "4wave-in-iree": G.iree_hsaco(source, executable=str(pipelined))}


def _check(data: bytes, workgroups, mode: str, contract: str) -> None:
    kernel = load_kernel(data)
    run = emulate_iree_matmul(kernel, SIZE, SIZE, SIZE, "bf16", True, workgroups, TILE, mode)
    assert run.contract == contract
    assert run.exact, run.summary() + f", first wrong element {run.first_bad}"


@pytest.mark.parametrize("mode", ["eager", "late"])
@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_pipelined_iree_kernel_is_exact(kernels, form, mode):
    _check(kernels[f"4wave-{form}"], GRID_2D if form == "prefetch" else GRID_1D, mode,
           "memref")


@needs_iree
@pytest.mark.parametrize("mode", ["eager", "late"])
@pytest.mark.parametrize("name", ["4wave-in-iree", "iree-no-prefetch", "iree-prefetch-2"])
def test_iree_built_kernels_are_exact(iree_kernels, name, mode):
    _check(iree_kernels[name], GRID_1D, mode, "hal")


def test_the_check_sees_a_wrong_result(kernels):
    # B laid out K x N under a kernel compiled for N x K: the tiles come out wrong
    kernel = load_kernel(kernels["4wave-late"])
    run = emulate_iree_matmul(kernel, SIZE, SIZE, SIZE, "bf16", False, [0], TILE)
    assert not run.exact and run.first_bad is not None
    # ... and workgroups that write nothing are not exact either
    assert emulate_iree_matmul(kernel, SIZE, SIZE, SIZE, "bf16", True, [], TILE).written == 0


def test_launch_contract_errors(kernels):
    kernel = load_kernel(kernels["4wave-late"])
    with pytest.raises(EmuError, match="neither IREE's HAL bindings"):
        kernel_arguments(kernel, [1 << 32, 2 << 32], [(4, 4), (4, 4)])
    asm_kernel = load_kernel(kernels["4wave-late"])
    asm_kernel.meta = None                       # as read from assembly
    with pytest.raises(EmuError, match="give the .hsaco"):
        kernel_arguments(asm_kernel, [1 << 32] * 3, [(4, 4)] * 3)
