"""IREE Wave kernels pipelined and run on the emulator as Wave launches them (shared by
``frontend/test_wave_dsl.py`` and ``frontend/test_wave_1d.py``)."""

from __future__ import annotations

from pathlib import Path

from pipeline_mlir.emu.described import emulate_described
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.launchfile import read_launch
from pipeline_mlir.tools.pipeline_opt import main


def assert_pipelined_exact(kernel: Path, launch: str, elements: int, tmp_path: Path,
                           modes=("late", "random")) -> None:
    """``kernel`` through ``--pipeline=4wave`` to a code object computes all ``elements``
    of C exactly in each completion mode, launched as the description ``launch`` (TOML
    text) says."""
    obj = tmp_path / "wave.hsaco"
    assert main(["--pipeline=4wave", str(kernel), "--emit=hsaco", "-o", str(obj)]) == 0
    code = load_kernel(obj.read_bytes())
    spec = read_launch("wave.toml", launch)
    for mode in modes:
        run = emulate_described(code, spec, mode)
        assert run.exact, mode
        assert run.outputs[0].compared == elements, mode
