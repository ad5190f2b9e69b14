"""The 4-wave 256x256 kernels keep their accumulators in AGPRs (GemmKernel.agpr_accumulators):
which kernels do, the attribute that asks LLVM for it, the codegen option that keeps the
loop-carried accumulators whole, and the main loop LLVM makes of it."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.codegen import (KEEP_VECTOR_PHIS, REVERSE_LOCAL, compile_llvm_ir,
                                       llvm_options)
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir, mfma_order, natural_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import AGPR_ALLOC_ATTR, K_OUTER_MFMAS_ATTR


@pytest.mark.parametrize("spec, acc, frags, agprs", [
    ("4wave{dtype=bf16 BM=256 BN=256 BK=64}", 256, 128, 256),
    ("4wave{dtype=fp8 BM=256 BN=256 BK=128}", 256, 128, 256),
    ("4wave{dtype=bf16 BM=128 BN=128 BK=64}", 64, 64, 0),
    ("4wave{dtype=fp8 BM=128 BN=128 BK=128}", 64, 64, 0),
    ("4wave{dtype=fp8 BM=64 BN=64 BK=128}", 16, 32, 0),
    ("4wave{dtype=bf16 BM=256 BN=128 BK=64}", 128, 96, 0),      # fits the architected VGPRs
    ("pingpong{is_fp8=false}", 128, 96, 0),
    ("pingpong{is_fp8=true}", 128, 96, 0),
])
def test_which_kernels_keep_accumulators_in_agprs(spec, acc, frags, agprs):
    k = gemm_kernel(parse_pipeline(spec))
    assert (k.accumulator_regs, k.fragment_regs, k.agpr_accumulators) == (acc, frags, agprs)
    attr = f"{AGPR_ALLOC_ATTR} = {agprs} : i32"
    for text in (natural_kernel_mlir(k), kernel_mlir(k)):
        assert (attr in text) == bool(agprs)
        assert (AGPR_ALLOC_ATTR in text) == bool(agprs)


def test_only_one_wave_per_simd_owns_the_agprs():
    """Ping-pong's 8 waves share the SIMDs (no waves_per_eu = 1): never AGPR accumulators,
    whatever the register count."""
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=false}"))
    assert k.traits.waves_per_eu is None and k.agpr_accumulators == 0


@pytest.mark.parametrize("attrs, options", [
    ('"amdgpu-agpr-alloc"="256"', (KEEP_VECTOR_PHIS,)),
    ('"amdgpu-agpr-alloc"="128,256"', (KEEP_VECTOR_PHIS,)),
    ('"amdgpu-agpr-alloc"="0"', ()),                 # no AGPRs: LLVM's defaults
    ('"amdgpu-agpr-alloc"="0,0"', ()),
    ('"amdgpu-waves-per-eu"="1"', ()),
    ('"amdgpu-agpr-alloc"="256" "sched-k-outer-mfmas"="true"', (KEEP_VECTOR_PHIS, REVERSE_LOCAL)),
    ('"sched-k-outer-mfmas"="true"', ()),            # no AGPR accumulators: nothing to order
])
def test_llvm_options_follow_the_agpr_attribute(attrs, options):
    ll = f"define void @f() #0 {{\n  ret void\n}}\nattributes #0 = {{ {attrs} }}\n"
    assert llvm_options(ll) == options


@pytest.mark.parametrize("option", [
    "amdgpu-codegenprepare-break-large-phis=false",      # not an option
    "-amdgpu-codegenprepare-break-large-phis=maybe",     # LLVM would warn and ignore it
    "-no-such-option=1",                                 # LLVM would ignore it silently
    "-amdgpu-codegenprepare-break-large-phis",
])
def test_an_option_llvmlite_would_ignore_is_refused(option):
    with pytest.raises(ValueError, match="is not one this code generation sets"):
        compile_llvm_ir("define void @f() {\n  ret void\n}\n", options=(option,))


def loop_figures(asm: str) -> dict:
    """Per main-loop iteration: VALU, v_accvgpr_* copies, MFMAs and how many write AGPRs;
    the kernel's VGPR spills."""
    fn = parse_asm(asm).function()
    loop = [i for b in fn.main_loop() for i in b.instrs]
    mfmas = [i for i in loop if i.kind == "mfma"]
    return {"VALU": sum(1 for i in loop if i.kind == "valu"),
            "copies": sum(1 for i in loop if i.mnemonic.startswith("v_accvgpr_")),
            "mfma": len(mfmas),
            "mfma to AGPRs": sum(1 for i in mfmas if all(r.startswith("a") for r in i.defs)),
            "spills": int(re.search(r"\.vgpr_spill_count:\s+(\d+)", asm).group(1))}


@pytest.mark.parametrize("key, mfmas", [("4wave-bf16-256", 256), ("4wave-fp8-256", 128)])
def test_accumulators_live_in_agprs_without_copies(key, mfmas):
    """Every MFMA of the main loop reads and writes its accumulator in AGPRs; no
    v_accvgpr_* copy, no spill, at most 2 VALU (the loop's own compare) per iteration."""
    b = build(key)
    assert '"amdgpu-agpr-alloc"="256"' in b.ll
    got = loop_figures(b.asm)
    assert got["VALU"] <= 2 and got["copies"] == 0 and got["spills"] == 0, got
    assert got["mfma"] == got["mfma to AGPRs"] == mfmas, got
    assert re.search(r"; Occupancy: 1\n", b.asm)


def test_split_accumulators_copy_and_spill():
    """The same IR with LLVM's vector-PHI splitting: every loop-carried accumulator crosses
    the back edge as four 32-bit copies, and with every AGPR taken they spill (what
    KEEP_VECTOR_PHIS prevents)."""
    got = loop_figures(compile_llvm_ir(build("4wave-bf16-256").ll, options=()))
    assert got["copies"] > 256 and got["spills"] > 0, got


def test_without_the_attribute_llvm_moves_accumulators_between_register_files():
    """Without amdgpu-agpr-alloc LLVM 22 selects VGPR-form MFMAs: the architected VGPRs fill
    with accumulators and it parks fragments and addresses in AGPRs, copying them back."""
    ll = build("4wave-bf16-256").ll.replace('"amdgpu-agpr-alloc"="256" ', "")
    # the accumulators kept alive after the loop (lowering/keep_alive.py) in VGPRs too, as
    # a kernel without the attribute keeps them: their AGPR constraints would place them
    ll, kept = re.subn(r'(asm sideeffect "", ")([a,]+)"',
                       lambda m: m.group(1) + m.group(2).replace("a", "v") + '"', ll)
    assert kept == 1 and "amdgpu-agpr-alloc" not in ll and llvm_options(ll) == ()
    got = loop_figures(compile_llvm_ir(ll))
    assert got["copies"] > 50 and got["VALU"] > 50 and got["mfma to AGPRs"] < got["mfma"], got


@pytest.mark.parametrize("spec, k_outer", [
    ("4wave{dtype=bf16 BM=256 BN=256 BK=64}", True),     # two K steps, one wave per SIMD
    ("4wave{dtype=fp8 BM=256 BN=256 BK=128}", False),    # one K step: nothing to interleave
    ("4wave{dtype=bf16 BM=128 BN=128 BK=64}", False),    # accumulators in VGPRs
    ("pingpong{is_fp8=false}", False),                   # two waves per SIMD hide the latency
])
def test_which_kernels_interleave_k_steps(spec, k_outer):
    k = gemm_kernel(parse_pipeline(spec))
    assert k.k_outer_mfmas == k_outer
    assert (K_OUTER_MFMAS_ATTR in kernel_mlir(k)) == k_outer
    order = mfma_order(k)
    assert sorted(order) == sorted((mi, ni, kk) for mi in range(k.quadrant_m)
                                   for ni in range(k.quadrant_n) for kk in range(k.num_k_mmas))
    step = k.quadrant_m * k.quadrant_n if k_outer else 1
    for i, (mi, ni, kk) in enumerate(order):
        if kk:
            assert order[i - step] == (mi, ni, kk - 1)


def dependent_distances(asm: str) -> set[int]:
    """MFMAs between each main-loop MFMA and the one whose result it accumulates onto."""
    fn = parse_asm(asm).function()
    mfmas = [i for b in fn.main_loop() for i in b.instrs if i.kind == "mfma"]
    out = set()
    for j, m in enumerate(mfmas):
        acc = set(m.defs)
        for d in range(1, j + 1):
            if set(mfmas[j - d].defs) == acc:
                out.add(d)
                break
    return out


def test_k_steps_of_an_accumulator_are_never_back_to_back():
    """The 4-wave BF16 256x256 main loop: each accumulator's second K step issues four MFMAs
    after its first (the MMA's other accumulators between), never right after it (as they
    did accumulator by accumulator: distance 1)."""
    assert min(dependent_distances(build("4wave-bf16-256").asm)) == 4


def test_interleaved_k_steps_need_the_reversed_local_order():
    """The same IR in LLVM's default allocation order: some K step's result finds no free
    AGPR and LLVM copies accumulators around (what REVERSE_LOCAL prevents)."""
    ll = build("4wave-bf16-256").ll
    assert llvm_options(ll) == (KEEP_VECTOR_PHIS, REVERSE_LOCAL)
    got = loop_figures(compile_llvm_ir(ll, options=(KEEP_VECTOR_PHIS,)))
    assert got["copies"] > 50, got
