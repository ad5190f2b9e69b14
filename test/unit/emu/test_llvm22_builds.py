"""The shipped kernels built by another LLVM: Debian's LLVM 22 (``opt-22 -O3``, then
``llc-22 -O3``) on the LLVM IR ``pipeline-opt --emit=llvm`` writes, instead of llvmlite.

Its register allocation and scheduling differ from the shipped build's: before the order
fences, its ping-pong BF16 kernel issued a B fragment read among the A reads and raced
(pipeline_mlir/kernel/wait_order.py).  Each kernel is emulated on two workgroups with two
main-loop iterations in late mode (loads complete at the wait that forces them): exact and
race-free; the ISA check's order rule finds every counted wait pinned, and its register
rule (``wait-short``) no register read before its load completes.  The same IR without
its order fences is caught by the order rule, whatever order LLVM 22 picks.  ``llc-22`` gets the
LLVM options the IR asks for (``codegen.llvm_options``), as the project's own build does:
without them LLVM 22 splits the 4-wave 256x256 kernels' accumulator PHIs and spills, and
the spill reloads, which count on vmcnt and lgkmcnt's neighbours, move two waits' cuts to
where no fence stands.  Skipped when ``opt-22`` / ``llc-22`` are not installed.
"""

from __future__ import annotations

import functools
import subprocess

import pytest

from kernel_builds import KERNEL_SPECS, build
from llvm_hazards import LLC, OPT, TARGET
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.codegen import apply_skew_shims, llvm_options
from pipeline_mlir.kernel.plan import ENTRIES, LOOP
from pipeline_mlir.schedule.fences import ORDER_FENCE, ORDER_FENCE_MASK

pytestmark = pytest.mark.skipif(LLC is None or OPT is None,
                                reason="opt-22 / llc-22 (LLVM 22) are not installed")

#: the order fences in LLVM IR
ORDER_FENCE_CALL = f"call void @llvm.amdgcn.sched.barrier(i32 {ORDER_FENCE_MASK})"


@functools.lru_cache(maxsize=None)
def llvm_ir(key: str) -> str:
    """What ``pipeline-opt --pipeline=SPEC --emit=llvm`` writes for the shipped kernel
    ``key``, the skew shims applied: the run's build of it (``kernel_builds.build``, the same
    compilation, made once per run for the other tests of the shipped kernels)."""
    return apply_skew_shims(build(key).ll)


def llc22(ll_text: str, options: tuple[str, ...] | None = None) -> str:
    """The assembly LLVM 22 makes of ``ll_text`` (O3 IR pipeline, O3 code generation) with
    the LLVM ``options`` (None: those the IR asks for, as the project's build)."""
    opt = subprocess.run([OPT, "-O3", *TARGET, "-o", "-", "-"], input=ll_text.encode(),
                         capture_output=True, timeout=600)
    assert opt.returncode == 0, opt.stderr.decode()[-400:]
    options = llvm_options(ll_text) if options is None else options
    asm = subprocess.run([LLC, "-O3", *TARGET, "-relocation-model=pic", *options, "-o", "-"],
                         input=opt.stdout, capture_output=True, timeout=600)
    assert asm.returncode == 0, asm.stderr.decode()[-400:]
    return asm.stdout.decode()


def unpinned(key: str, asm: str, kinds: tuple[str, ...] = ("wait-unpinned",)) -> list:
    """The ISA check's findings of ``kinds`` on ``asm`` built for the shipped kernel ``key``."""
    res = check_kernel_asm(parse_asm(asm).function(), build(key).plan)
    return [f for f in res.findings if f.kind in kinds]


@pytest.mark.parametrize("key", sorted(KERNEL_SPECS))
def test_llvm22_builds_are_exact_and_race_free(key):
    ll = llvm_ir(key)
    plan = build(key).plan   # order fences where a cut has none (the dword BF16 256x256
    #                          kernel's cuts all lie at fences or block boundaries already)
    fenced = any(ORDER_FENCE in plan.fenced(p) for p in plan.parts if p.kind in (ENTRIES, LOOP))
    assert (ORDER_FENCE_CALL in ll) == fenced
    asm = llc22(ll)
    assert "scratch_" not in asm, "LLVM 22 spills"
    # every counted wait pinned, and LLVM 22's own waits cover every register read
    # (isa/reg_waits.py)
    assert unpinned(key, asm, ("wait-unpinned", "wait-short")) == []
    gemm = build(key).kernel
    g = gemm.geometry
    run = emulate_gemm(load_kernel(asm), gemm, g.BM, 2 * g.BN, 6 * g.BK, "late")
    assert run.workgroups == 2
    assert run.exact and run.max_error == 0.0, run.summary()


@pytest.mark.parametrize("key", ["pingpong-bf16", "4wave-bf16"])
def test_without_order_fences_llvm22s_order_is_unpinned(key):
    ll = llvm_ir(key)
    old = "\n".join(ln for ln in ll.split("\n") if ln.strip() != ORDER_FENCE_CALL)
    assert old != ll
    assert unpinned(key, llc22(old))


def test_without_the_kernels_llvm_options_llvm22_spills():
    """The 4-wave BF16 256x256 kernel built without the option its IR asks for (its vector
    PHIs split): LLVM 22 spills (the defect the build had before it passed the kernel's
    options).  Its reloads move the cuts of counted waits to where no fence stands, but
    each such cut leaves only the reloads in flight, every DMA before it complete: the order
    rule accepts that (``isa/wait_order.py``), a cut leaving a DMA in flight unfenced it
    reports.  LLVM waits for each reload before its registers are read (no ``wait-short``:
    ``scratch_load`` counts on vmcnt in order with the other vector-memory instructions)."""
    ll = llvm_ir("4wave-bf16-256")
    assert llvm_options(ll)
    asm = llc22(ll, options=())
    assert "scratch_load" in asm
    assert unpinned("4wave-bf16-256", asm, ("wait-unpinned", "wait-short")) == []
