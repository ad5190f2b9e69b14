"""i8 kernels: ``4wave{dtype=i8}`` multiplies i8 A and B with ``v_mfma_i32_16x16x64_i8``
into i32 accumulators and stores C as i32; the reference is exact integer arithmetic; the
emulator runs the code object and the simulator prices the MFMA at the FP8 rate."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.gemm import c_values, emulate_gemm, encode, random_inputs
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir
from pipeline_mlir.kernel.reference import quantize, reference_gemm
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import MFMA_BY_DTYPE
from steady_loop import assert_short, assert_steady, counting_loops


def kernel(spec: str):
    return gemm_kernel(parse_pipeline(spec))


def test_the_i8_kernel_accumulates_and_stores_i32():
    k = kernel("4wave{dtype=i8}")
    assert k.name == "gemm_4wave_i8_128x128x64" and (k.c_dtype, k.acc_dtype) == ("i32", "i32")
    assert k.geometry.elem_bytes == 1 and k.geometry.MMA_K == 64 and k.lds_frag_width == 16
    assert [a.element for a in k.shape.arguments if a.kind == "buffer"] == ["i8", "i8", "i32"]
    assert kernel("4wave{dtype=i8 c_dtype=i32}").name == k.name
    text = natural_kernel_mlir(k)
    assert "arith.truncf" not in text and "dense<0.0>" not in text
    assert "amdgpu.mfma 16x16x64" in text and ": vector<16xi8>, vector<16xi8>, vector<4xi32>" in text
    assert "%C: memref<?xi32, #gpu.address_space<global>>" in text


@pytest.mark.parametrize("spec,why", [
    ("4wave{dtype=i8 c_dtype=f32}", "c_dtype=f32 does not fit dtype=i8: its MFMAs accumulate "
                                    "in i32, which the kernel stores as i32"),
    ("4wave{dtype=i8 c_dtype=bf16}", "c_dtype=bf16 does not fit dtype=i8"),
    ("4wave{dtype=bf16 c_dtype=i32}", "c_dtype=i32 does not fit dtype=bf16: its MFMAs "
                                      "accumulate in f32, which the kernel stores as f32, bf16 "
                                      "or f16"),
])
def test_a_c_dtype_the_accumulator_cannot_be_stored_as_is_an_error(spec, why):
    with pytest.raises(ConfigError, match=f"pipeline '{spec.replace('{', '.').replace('}', '.')}"
                                          f"': {why}"):
        kernel(spec)


def test_the_reference_is_exact_integer_arithmetic_wrapped_to_i32():
    A = np.array([[127, -128], [1, 2]])
    B = np.array([[127, -128], [-1, 3]])
    assert reference_gemm(A, B, "i8").tolist() == [[127 * 127 + 128 * 128, -127 - 384], [127 - 256, -1 + 6]]
    big = np.full((1, 2 ** 17 + 2 ** 15), -128)      # 163840 * 16384 = 2^31 + 2^29
    assert reference_gemm(big, big, "i8")[0, 0] == 2 ** 29 - 2 ** 31
    for bad in (0.5, 128, -129):
        with pytest.raises(ValueError, match="not an integer in -128..127"):
            quantize(np.array([bad]), "i8")
    with pytest.raises(EmuError, match="not an i8"):
        encode(np.array([200]), "i8")
    assert c_values(np.array([0xFFFFFFFE], dtype=np.uint32), "i32").tolist() == [-2]


def test_i8_inputs_cover_the_signed_range_and_never_make_the_poison_word():
    A, B = random_inputs(64, 64, 256, 3, "i8")
    assert A.min() == -128 and B.min() == -128 and B.max() == 127 and not (A % 2).any()
    assert not (reference_gemm(A, B, "i8") == -1).any()


def test_the_simulator_prices_the_i8_mfma_at_the_fp8_rate():
    from pipeline_mlir.sim.costs import MEASURED_MFMA

    mfma = MFMA_BY_DTYPE["i8"]
    assert mfma.mnemonic == "v_mfma_i32_16x16x64_i8"
    fp8 = MFMA_BY_DTYPE["fp8"]
    # the same ops per clock as FP8: half the K, half the cycles
    assert mfma.xdl_cycles * fp8.k == fp8.xdl_cycles * mfma.k
    assert MEASURED_MFMA[mfma.mnemonic][0] == mfma.xdl_cycles


@pytest.mark.parametrize("mode", ["late", "random:5"])
def test_the_i8_kernel_is_exact_on_the_emulator(mode):
    spec = "4wave{dtype=i8 BM=64 BN=64 BK=128}"
    k = load_kernel(pipeline_opt_hsaco(spec))
    # late: 6 K tiles, the main loop twice; random: 4, once (the order, not the loop)
    with counting_loops() as loops:
        run = emulate_gemm(k, kernel(spec), 128, 128, 768 if mode == "late" else 512,
                           mode=mode.split(":")[0],
                           seed=int(mode.split(":")[1]) if ":" in mode else 0, count=3)
    assert run.exact and run.max_error == 0, run.first_bad
    if mode == "late":
        assert_steady(loops)
    else:
        assert_short(loops, 1, "the late item goes round the loop of the same kernel")
    assert (run.C != 0).sum() > 0.9 * run.written
