"""Kernels run as a launch description says (emu/described.py): 2-D workgroups with a
short last wave, a bias broadcast over rows, the project's GEMM kernel described by hand,
checks against the kernel's metadata, and a kernel of another producer (Triton, when it is
installed)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from emu_helpers import buffer_arg, launch_toml, snippet_kernel
from kernel_builds import build
from script_loader import load_script
from pipeline_mlir.emu.described import emulate_described, initial_values
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.launchfile import LaunchFileError, read_launch

#: out[y][x] = X[y][x] + bias[x] for a 32-wide i32 X: x = 16 * wg.x + tid.x,
#: y = 5 * wg.y + tid.y (work-item ids packed in v0, workgroup ids in s2, s3)
BIAS_ADD = """
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    s_load_dwordx2 s[8:9], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_and_b32_e32 v1, 0x3ff, v0
    v_bfe_u32 v2, v0, 10, 10
    s_lshl_b32 s10, s2, 4
    s_mul_i32 s11, s3, 5
    v_add_u32_e32 v1, s10, v1
    v_add_u32_e32 v2, s11, v2
    v_lshl_add_u32 v3, v2, 5, v1
    v_lshlrev_b32_e32 v3, 2, v3
    v_lshlrev_b32_e32 v4, 2, v1
    global_load_dword v5, v3, s[4:5]
    global_load_dword v6, v4, s[6:7]
    s_waitcnt vmcnt(0)
    v_add_u32_e32 v5, v5, v6
    global_store_dword v3, v5, s[8:9]
    s_endpgm"""

BIAS_LAUNCH = launch_toml(
    dict(grid=[2, 2], block=[16, 5]),
    [buffer_arg("X", "i32", [10, 32], init={"random": [-100, 100]}),
     buffer_arg("bias", "i32", [32]), buffer_arg("out", "i32", [10, 32])],
    [dict(output="out", expect="EXPECT")])


def _bias_kernel():
    k = snippet_kernel(BIAS_ADD)
    k.launch = replace(k.launch, workgroup_id=(True, True, False), workitem_id_dims=1)
    return k


@pytest.mark.parametrize("mode", ["eager", "late", "random:3"])
def test_a_2d_launch_with_a_short_last_wave(mode):
    """16 x 5 work-items: two waves, the second with 16 lanes; 2 x 2 workgroups."""
    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias"))
    name, _, seed = mode.partition(":")
    run = emulate_described(_bias_kernel(), spec, name, int(seed or 0))
    assert run.exact and run.problem() is None, run.problem()
    assert (run.workgroups, run.waves, run.outputs[0].compared) == (4, 2, 320)


def test_a_wrong_check_names_the_first_wrong_element():
    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X - bias"))
    run = emulate_described(_bias_kernel(), spec)
    assert not run.exact
    assert run.problem().startswith("out differs from its check: out[0][")


def test_workgroups_named_are_the_ones_run_and_must_be_in_the_grid():
    """``workgroups`` runs those ids (the campaign's verdict: ``mutants.described_ids``),
    each checked against the grid: one the launch does not have is refused by name."""
    from pipeline_mlir.emu.errors import EmuError

    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias"))
    run = emulate_described(_bias_kernel(), spec, workgroups=[(1, 0), (1, 1)])
    assert run.exact and (run.workgroups, run.grid) == (2, 4)
    stored = run.stored["out"].reshape(-1)
    assert stored.any() and not stored.all()
    with pytest.raises(EmuError, match=r"workgroup \(2, 0\) is not in the grid 2 x 2"):
        emulate_described(_bias_kernel(), spec, workgroups=[(0, 0), (2, 0)])


def test_some_workgroups_are_checked_where_they_wrote():
    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias"))
    run = emulate_described(_bias_kernel(), spec, count=1)
    v = initial_values(spec)
    tile = (v["X"] + v["bias"])[:5, :16]
    # workgroup (0, 0) stored its whole 16 x 5 tile, the elements it wrote as -1 (the
    # poison's bytes) too: which elements were written comes from the stores, not the values
    assert (tile == -1).any()
    assert run.exact and (run.workgroups, run.grid) == (1, 4)
    assert run.outputs[0].compared == tile.size


def test_an_element_no_store_wrote_is_not_written_even_if_it_equals_the_poison():
    """The whole grid run, every output element -1 (i32 X of -1, zero bias): a kernel that
    drops lane 0's store leaves the poison's -1 there, the right value by its starting bytes
    only; those elements are named as not written (lane 0 of each of 2 waves in 4
    workgroups)."""
    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias")
                       .replace("init = {random = [-100, 100]}", "init = {value = -1}")
                       .replace('shape = [32]', 'shape = [32]\ninit = "zeros"'))
    assert (initial_values(spec)["X"] == -1).all() and not initial_values(spec)["bias"].any()
    assert emulate_described(_bias_kernel(), spec).exact
    k = snippet_kernel(BIAS_ADD.replace("global_store_dword",
                                        "s_and_b64 exec, exec, -2\n    global_store_dword"))
    k.launch = replace(k.launch, workgroup_id=(True, True, False), workitem_id_dims=1)
    run = emulate_described(k, spec)
    assert (run.outputs[0].values == -1).all() and not run.exact
    assert run.problem() == "out: not written: 8 elements, first at [0, 0]"


def _wide_bias_kernel(before_store: str = "", after_store: str = ""):
    """The bias kernel on rows of 512 (``y * 512 + x``): the whole 80 x 512 output is 160
    KiB, its store marks 81 pages, of which a workgroup's 5 rows stamp 2."""
    text = BIAS_ADD.replace("v_lshl_add_u32 v3, v2, 5, v1", "v_lshl_add_u32 v3, v2, 9, v1")
    text = text.replace("    global_store_dword v3, v5, s[8:9]",
                        f"{before_store}\n    global_store_dword v3, v5, s[8:9]\n{after_store}")
    k = snippet_kernel(text)
    k.launch = replace(k.launch, workgroup_id=(True, True, False), workitem_id_dims=1)
    return k


def test_a_partial_run_of_a_large_output_is_checked_on_the_pages_it_stamped():
    """One workgroup of 32 x 16 on an 80 x 512 output (``_compare`` reads the store marks of
    the stamped pages only): exact as it is; its tile given, a lane's dropped store is not
    written, a wrong value is named, a stray store past the tile is outside."""
    spec = read_launch("wide.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias")
                       .replace("grid = [2, 2]", "grid = [32, 16]")
                       .replace("[10, 32]", "[80, 512]").replace("[32]", "[512]"))
    tile = np.zeros((80, 512), dtype=bool)
    tile[:5, :16] = True

    def run(k):
        return emulate_described(k, spec, count=1, footprint={"out": tile})
    assert run(_wide_bias_kernel()).exact
    r = run(_wide_bias_kernel("    s_and_b64 exec, exec, -2"))
    assert r.problem() == "out: not written: 2 elements, first at [0, 0]"
    wrong = "\n".join(["    s_mov_b64 s[12:13], exec", "    s_mov_b32 exec_lo, 0x80",
                       "    s_mov_b32 exec_hi, 0", "    v_add_u32_e32 v5, 1, v5",
                       "    s_mov_b64 exec, s[12:13]"])
    r = run(_wide_bias_kernel(wrong))
    assert r.outputs[0].first_bad == (0, 7) and r.outputs[0].max_error == 1 and not r.exact
    stray = "\n".join(["    s_waitcnt vmcnt(0)", "    s_mov_b32 exec_lo, 1",
                       "    s_mov_b32 exec_hi, 0", "    v_add_u32_e32 v3, 0x1e000, v3",
                       "    global_store_dword v3, v5, s[8:9]"])
    r = run(_wide_bias_kernel(after_store=stray))
    o = r.outputs[0]           # rows 60 and 64 (lane 0 of each wave), a row's value: wrong too
    assert (o.outside, o.first_outside, o.first_bad) == (2, (60, 0), (60, 0)) and not r.exact


def test_the_block_must_fit_the_kernels_metadata():
    spec = read_launch("bias.toml", BIAS_LAUNCH.replace("EXPECT", "X + bias"))
    k = _bias_kernel()
    k.meta = {".args": [], ".reqd_workgroup_size": [64, 1, 1]}
    with pytest.raises(LaunchFileError, match=r"bias\.toml:2: block: the kernel snippet "
                                              r"requires workgroups of \[64, 1, 1\]"):
        emulate_described(k, spec)
    k.meta = {".args": [], ".max_flat_workgroup_size": 64}
    with pytest.raises(LaunchFileError, match=r"block: \[16, 5, 1\] is 80 work-items; the "
                                              r"kernel snippet takes at most 64"):
        emulate_described(k, spec)
    big = read_launch("bias.toml", "dynamic_lds = 163840\n" +
                      BIAS_LAUNCH.replace("EXPECT", "X + bias"))
    with pytest.raises(LaunchFileError, match=r"bias\.toml:1: dynamic_lds: the kernel's 4096 "
                                              r"bytes of LDS and 163840 more exceed"):
        emulate_described(_bias_kernel(), big)


def test_the_projects_gemm_kernel_described_by_hand():
    with open("examples/launch/gemm_4wave_bf16.toml") as f:
        text = f.read()
    kernel = load_kernel(build("4wave-bf16").hsaco)
    run = emulate_described(kernel, read_launch("gemm.toml", text), "late")
    assert run.exact and run.outputs[0].compared == 256 * 256
    # the kernel writes C, it does not accumulate into it: C0 + A x B^T is not what it does
    acc = text.replace('shape = [256, 256]\npass = "memref-flat"',
                       'shape = [256, 256]\npass = "memref-flat"\ninit = "random"').replace(
        '"A @ B.T"', '"C + A @ B.T"')
    assert not emulate_described(kernel, read_launch("gemm.toml", acc)).exact
    # M, N, K as i32: the metadata's 8-byte fields say otherwise
    narrow = text.replace('dtype = "i64"', 'dtype = "i32"', 1)
    with pytest.raises(LaunchFileError, match=r"gemm\.toml:\d+: arg 'M': the kernel's argument "
                                              r"at offset 120 has 8 bytes \(by_value\), the "
                                              r"description passes 4"):
        emulate_described(kernel, read_launch("gemm.toml", narrow))
    flat = text.replace('pass = "memref-flat"', 'pass = "memref"', 1)
    with pytest.raises(LaunchFileError, match=r"arg: the kernel gemm_4wave_bf16_128x128x64 "
                                              r"takes 18 kernel argument fields"):
        emulate_described(kernel, read_launch("gemm.toml", flat))


TRITON_KERNEL = '''
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N: tl.constexpr, K: tl.constexpr, BM: tl.constexpr,
       BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + rn[:, None] * K + (k + rk)[None, :])
        acc += tl.dot(a, tl.trans(b))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
'''

TRITON_LAUNCH = launch_toml(
    dict(grid=[2, 2], block=[256], dynamic_lds="LDS"),
    [buffer_arg("A", "bf16", [64, 128]), buffer_arg("B", "bf16", [64, 128]),
     buffer_arg("C", "f32", [64, 64]), dict(name="M", kind="scalar", dtype="i32", value=64),
     dict(kind="null"), dict(kind="null")],      # Triton's global and profile scratch
    [dict(output="C", expect="A @ B.T")])


def test_a_triton_gemm_through_its_launch_description(tmp_path):
    """Triton compiles for gfx950 without a GPU; its kernel (2-D grid of programs, its
    shared memory given at launch, pointers and an i32) runs exactly in every mode."""
    triton = pytest.importorskip("triton")
    from triton.backends.compiler import GPUTarget

    source = tmp_path / "tri_mm.py"
    source.write_text(TRITON_KERNEL)
    mod = load_script(source, "tri_mm")
    src = triton.compiler.ASTSource(
        fn=mod.mm, signature={"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32",
                              "M": "i32", "N": "constexpr", "K": "constexpr",
                              "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
        constexprs={"N": 64, "K": 128, "BM": 32, "BN": 32, "BK": 32},
        attrs={(i,): [["tt.divisibility", 16]] for i in range(3)})
    compiled = triton.compile(src, target=GPUTarget("hip", "gfx950", 64),
                              options={"num_warps": 4, "matrix_instr_nonkdim": 16})
    kernel = load_kernel(compiled.asm["hsaco"])
    launch = read_launch("mm.toml", TRITON_LAUNCH.replace('"LDS"', str(compiled.metadata.shared)))
    for mode, seed in (("eager", 0), ("late", 0), ("random", 5)):
        run = emulate_described(kernel, launch, mode, seed)
        assert run.exact, (mode, run.problem())
    assert np.prod(launch.grid) == 4


#: IREE Wave's argument form: rank-0 memrefs (a 3-field descriptor each) the kernel views
#: with memref.reinterpret_cast; out[t] = 2 * in[t]
RANK0_COPY = """
func.func @twice(%a: memref<f32>, %c: memref<f32>) attributes {
    gpu.known_block_size = array<i32: 64, 1, 1>} {
  %t = gpu.thread_id x
  %ra = memref.reinterpret_cast %a to offset: [0], sizes: [64], strides: [1]
      : memref<f32> to memref<64xf32>
  %rc = memref.reinterpret_cast %c to offset: [0], sizes: [64], strides: [1]
      : memref<f32> to memref<64xf32>
  %v = memref.load %ra[%t] : memref<64xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %rc[%t] : memref<64xf32>
  return
}
"""


def test_rank0_memref_arguments(tmp_path):
    from pipeline_mlir.tools.pipeline_opt import main

    src, obj = tmp_path / "k.mlir", tmp_path / "k.hsaco"
    src.write_text(RANK0_COPY)
    assert main([str(src), "--emit=hsaco", "-o", str(obj)]) == 0
    kernel = load_kernel(obj.read_bytes())
    text = ('grid = [1]\nblock = [64]\n'
            '[[arg]]\nname = "A"\nkind = "buffer"\ndtype = "f32"\nshape = [64]\n'
            'pass = "memref-0d"\n'
            '[[arg]]\nname = "C"\nkind = "buffer"\ndtype = "f32"\nshape = [64]\n'
            'pass = "memref-0d"\n'
            '[[check]]\noutput = "C"\nexpect = "A + A"\n')
    run = emulate_described(kernel, read_launch("k.toml", text), "late")
    assert run.exact and run.outputs[0].compared == 64
    # a 1-D descriptor (5 fields) is not what the kernel takes
    with pytest.raises(LaunchFileError, match=r"takes 6 kernel argument fields"):
        emulate_described(kernel, read_launch("k.toml", text.replace("memref-0d",
                                                                     "memref-flat", 1)))


def test_wave_launch_example_reads():
    """examples/launch/wave_gemm_f16.toml (IREE Wave's GEMM, test/unit/frontend/
    test_wave_dsl.py runs it when wave-lang is there) is a valid description."""
    with open("examples/launch/wave_gemm_f16.toml") as f:
        spec = read_launch("wave_gemm_f16.toml", f.read())
    assert (spec.grid, spec.block) == ((1, 1, 1), (128, 2, 1))
    assert [(a.name, a.passing, tuple(a.shape)) for a in spec.args] == [
        ("A", "memref-0d", (128, 16384)), ("B", "memref-0d", (128, 16384)),
        ("C", "memref-0d", (128, 128))]
