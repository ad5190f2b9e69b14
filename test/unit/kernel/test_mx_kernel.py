"""The block-scaled complete kernels, ``4wave{dtype=mxfp4|mxfp8}``: their counts with the
scale tiles, the located errors, the launch contract with the scale buffers, and the
compiled kernel exact on the emulator against the OCP MX reference."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.emu.gemm import emulate_gemm, problem_buffers
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel import mx
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.launch import LaunchError, check_launch, format_launch
from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_short, assert_steady, counting_loops

FP4 = "4wave{dtype=mxfp4 BM=128 BN=128 BK=256}"
FP8 = "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}"
FP4_256 = "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}"


def kernel(spec: str):
    return gemm_kernel(parse_pipeline(spec))


@pytest.mark.parametrize("spec,vm,lgkm,scale_loads,mfmas", [
    # A half tile of 64 rows x 128 bytes: 2 DMAs, + 1 for the 32 x 8 scale bytes of a wave's
    # quadrant; a fragment load: 2 rows x 2 K steps, each 1 ds_read_b128 + 1 scale read
    (FP4, 3, 8, 1, 8),
    # 128 bytes a row: 2 DMAs + 1; 2 rows x 1 K step x (2 ds_read_b128 + 1 scale read)
    (FP8, 3, 6, 1, 4),
    # 64 bytes a row: 1 DMA + 1 (32 rows x 4 scale bytes: half a wave, repeated)
    ("4wave{dtype=mxfp4 BM=128 BN=128 BK=128}", 2, 4, 1, 4),
])
def test_the_counts_include_the_scale_tiles(spec, vm, lgkm, scale_loads, mfmas):
    k = kernel(spec)
    g = k.geometry
    assert (g.vm_per_load_a, g.vm_per_load_b) == (vm, vm)
    assert (g.lgkm_per_load_a, g.lgkm_per_load_b) == (lgkm, lgkm)
    assert (g.scale_loads_a, g.scale_loads_b) == (scale_loads, scale_loads)
    assert k.shape.mfmas_per_mma == mfmas
    assert k.shape.mfma == "v_mfma_scale_f32_16x16x128_f8f6f4"
    assert k.shape.mfma_formats == ((4, 4) if "mxfp4" in spec else (0, 0))


def test_the_lds_holds_the_scale_buffers_after_the_element_tiles():
    lds = kernel(FP4).lds
    assert sum(b.size for b in lds.buffers) == 8 * 64 * 128       # 8 half tiles of bytes
    assert [b.name for b in lds.scales][:2] == ["lds_sa00", "lds_sa01"]
    assert {b.size for b in lds.scales} == {4 * 256}              # 4 waves x 64 dwords
    assert lds.size == 8 * 64 * 128 + 8 * 1024
    assert lds.scales[0].offset == 8 * 64 * 128


def test_the_kernel_text_loads_reads_and_multiplies_the_scales():
    text = mx_kernel_mlir(kernel(FP4))
    assert "%K_elements: index)" in text and "%A_scale: memref<?xi8" in text
    # per body (two K tiles): 8 global loads, 8 fragment loads, 8 MMAs of 8 MFMAs each
    assert text.count("vector<4xi8>, memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>") == 8
    assert text.count("vector<1xi8>\n") >= 8 * 4
    assert text.count("amdgpu.scaled_mfma 16x16x128") == 64
    assert "vector<32xf4E2M1FN>" in text and "f8E4M3FN" not in text
    assert "vector<32xf8E4M3FN>" in mx_kernel_mlir(kernel(FP8))


@pytest.mark.parametrize("spec,match", [
    ("4wave{dtype=mxfp4}", r"BK = 64 of an mxfp4 kernel must be a multiple of 128"),
    ("4wave{dtype=mxfp8 BK=192}", r"BK = 192 of an mxfp8 kernel must be a multiple of 128"),
    (FP4[:-1] + " vm_per_load_a=2}", r"option 'vm_per_load_a=2' does not match the mxfp4 "
                                     r"128x128x256 kernel, which issues 3"),
    (FP4[:-1] + " lgkm_per_load_b=4}", r"option 'lgkm_per_load_b=4' does not match"),
])
def test_a_tile_or_count_the_kernel_cannot_run_is_an_error(spec, match):
    with pytest.raises(ConfigError, match=match):
        kernel(spec)


def test_an_unknown_mx_dtype_is_an_error():
    with pytest.raises(ConfigError, match=r"option 'dtype' expects one of "
                                          r"bf16\|f16\|fp8\|i8\|f32\|mxfp4\|mxfp8, got 'mxfp6'"):
        parse_pipeline("4wave{dtype=mxfp6}")


def test_the_cli_names_the_spec_and_exits_1(capsys, tmp_path):
    code = main(["--pipeline=4wave{dtype=mxfp4 BK=64}", "--emit=hsaco", "-o",
                 str(tmp_path / "k.hsaco")])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "pipeline '4wave" in err and "BK = 64 of an mxfp4 kernel" in err
    assert not (tmp_path / "k.hsaco").exists()


def test_the_launch_contract_has_the_scale_buffers():
    c = check_launch(kernel(FP4), 4096, 4096, 4096)
    assert c.kernarg_bytes == 224
    names = [n for n, _, _ in c.kernargs]
    assert names[15:25:5] == ["A_scale.allocated", "B_scale.allocated"]
    assert names[-3:] == ["M", "N", "K"]
    text = format_launch(c)
    assert "A_scale 4096 x 128, B_scale 4096 x 128 row-major E8M0" in text
    assert "E2M1, two per byte, element 2i in the low nibble" in text
    with pytest.raises(LaunchError, match=r"K = 4000 is not a multiple of 2\*BK = 512"):
        check_launch(kernel(FP4), 4096, 4096, 4000)
    # A of 2^31 bytes: 65536 x 65536 E2M1 elements
    with pytest.raises(LaunchError, match=r"A spans 2147483648 bytes"):
        check_launch(kernel(FP4), 65536, 128, 65536)


def test_the_emulator_inputs_are_the_mx_reference_operands():
    bufs, ref = problem_buffers(kernel(FP4), 128, 128, 512, 0)
    assert [len(bufs[n]) for n in ("A", "B", "A_scale", "B_scale")] == [128 * 256] * 2 + [
        128 * 16] * 2
    a = mx.unpack_e2m1(np.frombuffer(bufs["A"], np.uint8).reshape(128, 256))
    sa = np.frombuffer(bufs["A_scale"], np.uint8).reshape(128, 16)
    b = mx.unpack_e2m1(np.frombuffer(bufs["B"], np.uint8).reshape(128, 256))
    sb = np.frombuffer(bufs["B_scale"], np.uint8).reshape(128, 16)
    assert np.array_equal(ref, mx.mx_reference_gemm(a, sa, b, sb))
    assert len(set(sa.ravel())) > 1                  # the scales vary


@pytest.mark.parametrize("spec,M,N,K,mode,seed", [
    (FP4, 256, 128, 1024, "late", 0),         # two tiles, one main-loop iteration
    (FP4, 128, 128, 1536, "random", 5),       # two main-loop iterations
    (FP8, 128, 256, 512, "random", 1),
    # the 4-wave 256x256 tile, accumulators in AGPRs, loads spread over each MMA
    (FP4_256, 512, 256, 512, "late", 2),
    (FP4_256, 256, 512, 1024, "random", 3),
])
def test_the_compiled_kernel_is_exact(spec, M, N, K, mode, seed):
    gemm = kernel(spec)
    with counting_loops() as loops:
        run = emulate_gemm(load_kernel(pipeline_opt_hsaco(spec)), gemm, M, N, K, mode, seed)
    assert run.exact and run.max_error == 0.0, run.summary()
    assert not run.findings
    if K // gemm.geometry.BK >= 6:      # the prologue and the drain hold 2 K tiles, an
        assert_steady(loops)            # iteration 2: 6 go round the loop twice
    else:     # one iteration: the kernel's other item (FP8: test_mx_scale_waits) goes round
        assert_short(loops, 1, "another item of the kernel runs the loop twice")
    # the scales matter: with A's scales given to the wrong K blocks C would differ
    bufs, _ = problem_buffers(gemm, M, N, K, 0)
    fmt = "e2m1" if "mxfp4" in spec else "e4m3"
    codes = (mx.unpack_e2m1(np.frombuffer(bufs["A"], np.uint8).reshape(M, -1))
             if fmt == "e2m1" else np.frombuffer(bufs["A"], np.uint8).reshape(M, K))
    bcodes = (mx.unpack_e2m1(np.frombuffer(bufs["B"], np.uint8).reshape(N, -1))
              if fmt == "e2m1" else np.frombuffer(bufs["B"], np.uint8).reshape(N, K))
    sa = np.frombuffer(bufs["A_scale"], np.uint8).reshape(M, K // 32)
    sb = np.frombuffer(bufs["B_scale"], np.uint8).reshape(N, K // 32)
    wrong = mx.mx_reference_gemm(codes, np.roll(sa, 1, axis=1), bcodes, sb, fmt, fmt)
    assert not np.array_equal(run.C, wrong)
