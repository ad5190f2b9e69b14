"""Buffer descriptors with a cache-swizzle stride: IREE Wave's GEMM with rows of at most
8192 elements.

Wave 3.9.1 casts such buffers with ``amdgpu.fat_raw_buffer_cast ... cacheSwizzleStride``,
which sets the descriptor's stride field to the cache stride with bit 14 (the L1
cache-swizzle bit; ``pipeline_mlir/target/gfx950.py``).  The committed kernel
(``test/data/wave/gemm_f16_128x128x256.mlir``, K = 256: no wave-lang needed) pipelines and
runs exact on the emulator in every completion mode.  The same code object with the
descriptor's stride left without the cache-swizzle bit (a structured buffer), or with
swizzled addressing enabled, is refused in one line, no result claimed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main

DATA = Path(__file__).parents[2] / "data" / "wave"
KERNEL = DATA / "gemm_f16_128x128x256.mlir"
LAUNCH = DATA / "gemm_f16_128x128x256.toml"
#: the high half of the descriptors' second dword as Wave's kernel builds it: stride 256
#: under the cache-swizzle bit
CACHE_SWIZZLED = "0x41000000"


@pytest.fixture(scope="module")
def asm(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("wave") / "k.s"
    assert main(["--pipeline=4wave", str(KERNEL), "--emit=asm", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.count(f"s_or_b32 s5, s5, {CACHE_SWIZZLED}") == 1, "Wave's descriptors changed"
    return text


@pytest.mark.parametrize("mode", [pytest.param("late", marks=pytest.mark.long(
    "the same kernel and launch exact in late mode, the kernel read from standard input: "
    "test_the_kernel_on_standard_input_is_read_once")), "random:3"])
def test_a_cache_swizzled_kernel_is_exact(capsys, mode):
    rc = main(["--pipeline=4wave", str(KERNEL), "--emulate", f"--emulate-launch={LAUNCH}",
               f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0 and "exact, max error 0 in C (16384 elements)" in out, out + err


def test_the_kernel_on_standard_input_is_read_once(capsys, monkeypatch):
    """MLIR on standard input (``-``) with a launch description: the text read to tell MLIR
    from assembly is the text built (standard input cannot be read twice)."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KERNEL.read_bytes()),
                                                       encoding="utf-8"))
    rc = main(["--pipeline=4wave", "-", "--emulate", f"--emulate-launch={LAUNCH}",
               "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and "exact, max error 0 in C (16384 elements)" in out, out + err


@pytest.mark.parametrize("field, why", [("0x01000000", "with a stride"),
                                        ("0xc1000000", "with swizzled addressing enabled")])
def test_other_strides_are_refused(asm, capsys, tmp_path, field, why):
    path = tmp_path / "k.s"
    path.write_text(asm.replace(CACHE_SWIZZLED, field))
    rc = main(["--emulate", str(path), f"--emulate-launch={LAUNCH}", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err and "exact" not in out, out + err
    assert f"buffer descriptor {why} and no index" in err, err
