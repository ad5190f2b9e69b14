"""IREE's matmul with M known only at launch, pipelined and run at several run-time sizes.

``test/data/iree/dynamic.py`` makes IREE's committed 4096^3 dispatch one of ``?x256`` A
and ``?x4096`` C (K cut to 256, 8 iterations, to keep the runs short), M from two push
constants as IREE passes an index, the workgroup loop over ``ceildiv(M, 128)``.
``pipeline-opt --pipeline=4wave`` pipelines it (its schedule simulated hazard-free on the
way) and builds one code object; the emulator launches it at each M with the push
constants and the grid that M gives (``pipeline_mlir/frontend/launch_sizes.py``) and the
bindings' memref descriptors of the actual sizes: exact in late and random mode, for the
first and the last workgroup (at an M that is not a multiple of 128 the last one's rows
past M read zero from past the buffer and its stores there are dropped, as IREE's
unpadded kernel relies on).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.frontend.dispatch import matmul_dispatch
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
sys.path.insert(0, str(ROOT / "test" / "unit"))
import dynamic as D  # noqa: E402
from build_cache import cached  # noqa: E402

TEXT = D.dynamic_m((ROOT / "test" / "data" / "iree" /
                    "matmul_bf16_abt_4096.prefetch.mlir").read_text(), 256)


@pytest.fixture(scope="module")
def code(tmp_path_factory):
    def build() -> bytes:
        d = tmp_path_factory.mktemp("dynamic_m")
        (d / "k.mlir").write_text(TEXT)
        assert main(["--pipeline=4wave", "--emit=hsaco", str(d / "k.mlir"),
                     "-o", str(d / "k.hsaco")]) == 0
        return (d / "k.hsaco").read_bytes()
    return cached("dynamic-m-4wave", (TEXT,), build)


@pytest.mark.parametrize("m,mode", [(400, "late"), (384, "random:5"), (16, "late"),
                                    (272, "random:9")])
def test_dynamic_m_is_exact_at_run_time_sizes(code, m, mode):
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(TEXT, ctx), (m, 4096, 256))
    mode, _, seed = mode.partition(":")
    run = emulate_matmul(load_kernel(code), Matmul(m, 4096, 256, "bf16", True, d.constants),
                         d.grid, 2, mode, int(seed or 0))
    assert run.exact and run.contract == "memref", run.summary()
    assert run.grid == 32 * -(-m // 128)


def test_the_cli_launches_at_the_sizes_given(tmp_path, capsys):
    src = tmp_path / "k.mlir"
    src.write_text(TEXT)
    rc = main(["--pipeline=4wave", "--emulate=400,4096,256", "--emulate-workgroups=2",
               "--emulate-mode=late", str(src)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "M=400 N=4096 K=256 mode=late: exact, max error 0, 2 of 128 workgroups" in out, out


@pytest.mark.parametrize("sizes,message", [
    (None, "binding A (memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>) is sized at "
           "launch: the launch's M, N and K must be given"),
    ("400,4096,4096", "--emulate=400,4096,4096 disagrees with the sizes compiled into kernel "
                      "matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32: M=400 N=4096 "
                      "K=256"),
])
def test_sizes_missing_or_wrong_are_one_error(tmp_path, capsys, sizes, message):
    src = tmp_path / "k.mlir"
    src.write_text(TEXT)
    flag = "--emulate" if sizes is None else f"--emulate={sizes}"
    rc = main(["--pipeline=4wave", flag, str(src)])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert err.startswith(f"{src}:") and message in err, err
