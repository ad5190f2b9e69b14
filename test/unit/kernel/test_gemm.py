"""The complete GEMM kernels: what is generated, what is refused, the launch contract,
and that the generated index math implements the documented layout."""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir
from pipeline_mlir.kernel.lds import load_rows
from pipeline_mlir.kernel.launch import LaunchError, check_launch, format_launch, kernarg_layout
from pipeline_mlir.schedules.registry import parse_pipeline

#: The shipped complete kernels (spec, dtype, tile, threads, MFMAs per logical MMA).
SHIPPED = [
    ("4wave{dtype=bf16 BM=128 BN=128 BK=64}", "bf16", (128, 128, 64), 256, 8),
    ("4wave{dtype=fp8 BM=128 BN=128 BK=128}", "fp8", (128, 128, 128), 256, 4),
    ("4wave{dtype=fp8 BM=64 BN=64 BK=128}", "fp8", (64, 64, 128), 256, 1),
    ("pingpong{is_fp8=false}", "bf16", (256, 256, 64), 512, 16),
    ("pingpong{is_fp8=true}", "fp8", (256, 256, 128), 512, 8),
]


def kernel(spec):
    return gemm_kernel(parse_pipeline(spec))


@pytest.mark.parametrize("spec,dtype,tile,threads,mfmas", SHIPPED)
def test_shipped_kernels(spec, dtype, tile, threads, mfmas):
    k = kernel(spec)
    g = k.geometry
    assert (k.dtype, (g.BM, g.BN, g.BK), k.threads, k.mfmas_per_mma) == (dtype, tile, threads,
                                                                          mfmas)
    text = kernel_mlir(k)
    body = declared = k.schedule.build().declare_ops()
    # one payload op per counted instruction, grouped by the tag's id
    n_vm = sum({0: g.vm_per_load_a, 1: g.vm_per_load_b}[o.channel]
               for o in body if o.tag in (0, 1))
    n_lgkm = sum({0: g.lgkm_per_load_a, 1: g.lgkm_per_load_b}[o.channel]
                 for o in body if o.tag in (3, 4))
    assert text.count("amdgpu.gather_to_lds") == n_vm
    assert len(re.findall(r"vector\.load .*sched\.frag_load", text)) == n_lgkm
    assert text.count("amdgpu.mfma") == mfmas * sum(o.tag == 5 for o in declared)
    assert f"known_block_size = array<i32: {threads}, 1, 1>" in text
    assert ("rocdl.waves_per_eu = 1" in text) == (k.schedule_name == "4wave")
    assert k.lds_bytes == 2 * (g.BM + g.BN) * g.BK * g.elem_bytes


def test_pingpong_takes_its_counts_from_the_kernel_geometry():
    k = kernel("pingpong")
    # the spec's defaults are the kernel's counts: nothing to pin, nothing the user never set
    assert k.schedule.spec() == "pingpong"
    assert k.schedule.counts() == {"vm_per_load_a": 2, "vm_per_load_b": 2, "lgkm_per_load_a": 8,
                                  "lgkm_per_load_b": 4, "max_globals": 1}
    assert (k.schedule.vm_per_load, k.schedule.lgkm_per_load) == ((2, 2), (8, 4))
    assert kernel("pingpong{is_fp8=true}").schedule.counts()["max_globals"] == 0
    # a given count that agrees is kept
    assert kernel("pingpong{lgkm_per_load_a=8}").schedule.get("lgkm_per_load_a") == 8


@pytest.mark.parametrize("spec,needle", [
    ("pingpong{vm_per_load_a=4}", "option 'vm_per_load_a=4' does not match the bf16 "
                                  "256x256x64 kernel, which issues 2"),
    ("4wave{lgkm_per_load_b=2}", "option 'lgkm_per_load_b=2' does not match"),
    ("4wave{max_globals=0}", "option 'max_globals=0' does not match"),
    ("4wave{BM=96}", "num_m_mmas = 3 must be even"),
    ("4wave{BK=48}", "BK by MMA_K"),
    ("4wave{BM=64 BN=64 BK=32}", "a A half tile of 32 rows is not a whole number of load "
                                 "instructions (64 rows each"),
    ("4wave{BK=96}", "threads by loads per row must divide exactly"),
    ("single-buffer", "no complete GEMM kernel"),
])
def test_bad_kernel_configurations(spec, needle):
    with pytest.raises(ConfigError) as e:
        kernel(spec)
    assert needle in str(e.value), str(e.value)


def test_bad_dtype_is_an_option_error():
    with pytest.raises(ConfigError, match="dtype"):
        kernel("4wave{dtype=f32}")


# ---- launch contract ----------------------------------------------------------------------------

def test_launch_configuration():
    c = check_launch(kernel("4wave"), 256, 384, 512)
    assert c.grid == (2 * 3, 1, 1) and c.block == (256, 1, 1)
    assert c.main_loop_iterations == 512 // 128 - 1
    assert c.kernarg_bytes == 144 and c.kernargs[-1] == ("K", 136, 8)
    assert check_launch(kernel("4wave"), 128, 128, 128).main_loop_iterations == 0
    text = format_launch(c)
    assert "grid              6 x 1 x 1 workgroups" in text and "  136  8  K" in text


@pytest.mark.parametrize("mnk,needle", [
    ((100, 128, 128), "M = 100 is not a multiple of the tile BM = 128"),
    ((128, 130, 128), "N = 130 is not a multiple of the tile BN = 128"),
    ((128, 128, 64), "K = 64 is too small: the pipelined loop needs K >= 2*BK = 128"),
    ((128, 128, 192), "K = 192 is not a multiple of 2*BK = 128"),
    ((0, 128, 128), "M must be a positive integer"),
    ((128, 128, 2**30), "A spans"),
])
def test_launch_rejects(mnk, needle):
    with pytest.raises(LaunchError) as e:
        check_launch(kernel("4wave"), *mnk)
    assert needle in str(e.value)


def test_kernarg_layout_matches_the_code_object_metadata():
    """The documented argument layout is what LLVM put in the kernel's metadata."""
    from pipeline_mlir.tools.pipeline_opt import main

    import io
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}", "--emit=asm"]) == 0
    asm = out.getvalue()
    meta = asm[asm.index("amdhsa.kernels"):]
    offsets = [int(x) for x in re.findall(r"\.offset:\s+(\d+)", meta)]
    sizes = [int(x) for x in re.findall(r"\.size:\s+(\d+)", meta)]
    assert list(zip(offsets, sizes)) == [(o, s) for _, o, s in kernarg_layout()]
    assert re.search(r"\.kernarg_segment_size:\s+144", meta)
    assert "s_trap 2" in asm  # launched outside the contract, the kernel traps


# ---- the generated index math implements the documented layout ----------------------------

_BIN = re.compile(r"^\s*(%[\w.]+) = arith\.(addi|muli|divui|remui|xori) (%[\w.]+), (%[\w.]+) : i32$")
_CST = re.compile(r"^\s*(%[\w.]+) = arith\.constant (-?\d+) : i32$")


def _index_env(text: str, tid: int, warp_override=None, bid: int = 0, M=256, N=256, K=512):
    """Evaluate the kernel's pre-loop i32 index math for one thread."""
    env = {"%tid": tid, "%bid": bid, "%Mi": M, "%Ni": N, "%Ki": K}
    ops = {"addi": lambda a, b: a + b, "muli": lambda a, b: a * b,
           "divui": lambda a, b: a // b, "remui": lambda a, b: a % b, "xori": lambda a, b: a ^ b}
    for line in text.splitlines():
        if "scf.for" in line:
            break
        m = _CST.match(line)
        if m:
            env[m[1]] = int(m[2])
            continue
        if "rocdl.readfirstlane %warp_v" in line:
            env["%warp"] = env["%warp_v"] if warp_override is None else warp_override
            continue
        m = _BIN.match(line)
        if m and m[3] in env and m[4] in env:
            env[m[1]] = ops[m[2]](env[m[3]], env[m[4]])
    return env


@pytest.mark.parametrize("spec", [s for s, *_ in SHIPPED])
def test_index_math_implements_the_layout(spec):
    """Global loads: thread t of instruction j moves A[row0 + load_rows(...)[rho]][col..]
    (rho = its load row, col = the swizzled chunk of its DMA position) into its subtile's
    LDS buffer at rho*BK + its position, with the DMA's lane order; fragment reads: lane l
    of warp position p reads load row p*W/2 + l%16 of the buffer of its subtile (tile row
    p*W + q*W/2 + l%16) at the swizzled chunk of its K column."""
    k = kernel(spec)
    g = k.geometry
    text = kernel_mlir(k)
    K = 4 * g.BK
    simd, lpr = g.simd_width, g.BK // g.simd_width
    rpi = k.rows_per_load_instruction
    sw = k.lds.swizzle
    assert sw.span > 1          # the shipped kernels are swizzled
    n_reads = k.num_k_mmas * k.k_loads_per_mma      # reads per MMA row, one K column each
    assert text.count("#gpu.address_space<workgroup>>") >= 8  # 8 buffer arguments
    for ch, n, rows, wt in ((0, "a", g.BM, k.WM), (1, "b", g.BN, k.WN)):
        vm = (g.vm_per_load_a, g.vm_per_load_b)[ch]
        for u in (0, 1):
            tile_row = load_rows(rows, wt, u)
            assert sorted(tile_row) == sorted(p * wt + u * wt // 2 + r for p in
                                              range(rows // wt) for r in range(wt // 2))
            for tid in range(0, k.threads, 37):
                env = _index_env(text, tid, K=K)
                lane, warp = tid % 64, tid // 64
                for j in range(vm):
                    rho, pos = j * rpi + tid // lpr, (tid % lpr) * simd
                    col = sw.chunk(rho, tid % lpr) * simd     # the chunk landing at pos
                    assert env[f"%gsrc_{n}{u}{j}"] == tile_row[rho] * K + col
                    # the DMA writes lane l's 16 bytes at dst + l*16: row-major load rows
                    dst = env[f"%ldst_{n}{u}{j}"]
                    assert dst + lane * simd == rho * g.BK + pos, (tid, j)
                    assert dst == _index_env(text, warp * 64, K=K)[f"%ldst_{n}{u}{j}"]
        for tid in range(0, k.threads, 29):
            env = _index_env(text, tid, K=K)
            lane, warp = tid % 64, tid // 64
            wpos = warp // k.warps_n if ch == 0 else warp % k.warps_n
            rho = wpos * wt // 2 + lane % 16
            fw = k.lds_frag_width
            for ci, kcol in enumerate(range(0, g.BK, g.BK // n_reads)):
                col = kcol + (lane // 16) * fw
                want = rho * g.BK + sw.chunk(rho, col // simd) * simd + col % simd
                assert env[f"%fbase_{n}{ci}"] == want, (tid, ci)
            for q in (0, 1):  # that load row of subtile q is the warp's quadrant-q row
                assert load_rows(rows, wt, q)[rho] == wpos * wt + q * wt // 2 + lane % 16
