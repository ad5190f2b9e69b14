"""The ``c_dtype`` kernel option: C stored as bf16 or f16, the f32 accumulator rounded to
nearest even in the epilogue; the launch contract, the reference and the emulator follow."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from kernel_builds import pipeline_opt_hsaco
from cli_helpers import run_cli as run
from cli_helpers import with_stdin
from pipeline_mlir.emu.coverage import check_c
from pipeline_mlir.emu.gemm import c_values, emulate_gemm, random_inputs
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.machine import GlobalMemory
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import natural_kernel_mlir
from pipeline_mlir.kernel.launch import LaunchError, check_launch, format_launch
from pipeline_mlir.kernel.reference import quantize, reference_gemm
from pipeline_mlir.schedules.registry import parse_pipeline
from steady_loop import assert_steady, counting_loops


def kernel(spec: str):
    return gemm_kernel(parse_pipeline(spec))


def test_the_option_names_the_kernel_and_its_c_argument():
    k = kernel("4wave{c_dtype=bf16}")
    assert k.name == "gemm_4wave_bf16_128x128x64_cbf16" and k.c_bytes == 2
    assert [a.element for a in k.shape.arguments if a.name == "C"] == ["bf16"]
    assert kernel("pingpong{c_dtype=f16}").name == "gemm_pingpong_bf16_256x256x64_cf16"
    default = kernel("4wave")
    assert default.name == "gemm_4wave_bf16_128x128x64" and default.c_dtype == "f32"
    assert [a.element for a in default.shape.arguments if a.name == "C"] == ["f32"]


def test_an_unknown_c_dtype_is_an_error():
    with pytest.raises(ConfigError, match=r"option 'c_dtype' expects one of f32\|bf16\|f16\|i32, "
                                          r"got 'f64'"):
        parse_pipeline("4wave{c_dtype=f64}")


@pytest.mark.parametrize("c_dtype", ["bf16", "f16"])
def test_the_epilogue_rounds_and_stores_the_narrow_type(c_dtype):
    text = natural_kernel_mlir(kernel(f"4wave{{c_dtype={c_dtype}}}"))
    # one per accumulator: 16 MFMA tiles per warp in the 128x128 4-wave kernel
    assert text.count("arith.truncf") == 16
    assert f"%C: memref<?x{c_dtype}, #gpu.address_space<global>>" in text
    assert f"memref.store %cv0_0, %buf_c[%cx0_0] : memref<?x{c_dtype}," in text
    assert "arith.truncf" not in natural_kernel_mlir(kernel("4wave"))


def test_the_launch_contract_counts_c_in_its_element_type():
    M, N, K = 32768, 16384, 128       # C: 2**29 elements
    with pytest.raises(LaunchError, match=r"C spans 2147483648 bytes"):
        check_launch(kernel("4wave"), M, N, K)
    c = check_launch(kernel("4wave{c_dtype=bf16}"), M, N, K)
    assert c.c_dtype == "bf16" and "C MxN bf16)" in format_launch(c)
    assert c.kernarg_bytes == 144


def test_the_rounding_of_the_reference():
    exact = np.array([257.0, 259.0, -4609.0, 2049.0, 2051.0])
    assert list(quantize(exact, "bf16")) == [256.0, 260.0, -4608.0, 2048.0, 2048.0]
    assert list(quantize(exact, "f16")) == [257.0, 259.0, -4608.0, 2048.0, 2052.0]


def test_the_conversions_on_the_emulator():
    """v_cvt_pk_bf16_f32 / v_cvt_pk_f16_f32: the first source in the low half, ties to even,
    a NaN stays a (quiet) NaN."""
    m = run_snippet("""
        v_mov_b32_e32 v1, 0x43808000
        v_mov_b32_e32 v2, 0x43818000
        v_cvt_pk_bf16_f32 v3, v1, v2
        v_mov_b32_e32 v4, 0x7f800001
        v_cvt_pk_bf16_f32 v5, v4, v1
        v_mov_b32_e32 v6, 0x45001000
        v_mov_b32_e32 v7, 0x45003000
        v_cvt_pk_f16_f32 v8, v6, v7
        s_endpgm""")
    V = m.waves[0].V[:, 0, 0]
    # 257 -> 256 (tie, even), 259 -> 260 (tie, even); 2049 -> 2048, 2051 -> 2052 in f16
    assert hex(V[3]) == hex(0x43824380)
    assert V[5] & 0xFFFF == 0x7FC0
    assert hex(V[8]) == hex(0x68026800)


def test_a_16_bit_buffer_store_on_the_emulator():
    glob = GlobalMemory()
    base = glob.add("X", bytes([0xFF]) * 256)

    def setup(m):
        w = m.waves[0]
        w.S[8], w.S[9], w.S[10], w.S[11] = base & 0xFFFFFFFF, base >> 32, 256, 0x27000
    run_snippet("""
        v_lshlrev_b32_e32 v1, 1, v0
        v_add_u32_e32 v3, 64, v0
        v_lshl_or_b32 v2, v3, 16, v0
        buffer_store_short v2, v1, s[8:11], 0 offen
        buffer_store_short_d16_hi v2, v1, s[8:11], 0 offen offset:128
        s_waitcnt vmcnt(0)
        s_endpgm""", glob=glob, setup=setup)
    assert list(glob.buffer("X").view(np.uint16)) == list(range(128))


def test_a_kernel_with_bf16_c_is_exact_in_late_and_random_modes():
    spec = "4wave{c_dtype=bf16}"
    gemm = kernel(spec)
    k = load_kernel(pipeline_opt_hsaco(spec))
    M, N, K = 128, 128, 512
    A, B = random_inputs(M, N, K, 0)
    exact = reference_gemm(A, B, "bf16")
    assert (quantize(exact, "bf16") != exact).sum() > 10      # the data needs rounding
    for mode, seed in (("late", 0), ("random", 3)):
        with counting_loops() as loops:
            run = emulate_gemm(k, gemm, M, N, K, mode, seed)
        assert run.exact and run.max_error == 0.0, run.summary()
        assert_steady(loops)
        assert np.array_equal(run.C, quantize(exact, "bf16"))
    # the comparison is the rounded one: against the unrounded sum the kernel's C differs
    raw = (np.array(run.C, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    everything = np.ones((M, N), dtype=bool)
    cov = check_c(c_values(raw, "bf16"), everything, everything,
                  lambda r, c: exact[np.ix_(r, c)])
    assert cov.stored == M * N and cov.first_bad is not None


def test_a_kernel_with_f16_c_is_exact():
    spec = "4wave{dtype=fp8 BM=64 BN=64 BK=128 c_dtype=f16}"
    gemm = kernel(spec)
    with counting_loops() as loops:     # 6 K tiles: the main loop twice
        run = emulate_gemm(load_kernel(pipeline_opt_hsaco(spec)), gemm, 128, 128, 768, "late")
    assert run.exact, run.summary()
    assert_steady(loops)


@pytest.mark.parametrize("argv,fragment", [
    (["--pipeline=4wave{c_dtype=bf16}", "--emit=schedule"], "--emit=schedule prints the schedule"),
    (["--pipeline=4wave{c_dtype=f16}", "--simulate"], "--simulate models the schedule"),
    # the input kernel on standard input, named so
    (["--pipeline=4wave{c_dtype=bf16}", "--emit=mlir", "-"],
     "but the input kernel (<stdin>) stores C as it is written"),
])
def test_the_option_where_no_kernel_is_built_is_an_error(capsys, argv, fragment, monkeypatch):
    with_stdin(monkeypatch, b"module {}\n")
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "option 'c_dtype' sets the element type of C" in err and fragment in err, err
