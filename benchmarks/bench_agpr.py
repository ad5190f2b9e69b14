"""The 4-wave 256x256 kernels' main loop under each way of asking LLVM for AGPR accumulators.

Each kernel's LLVM IR is built once (``--emit=llvm``); LLVM 22 (llvmlite) then compiles it
four ways: as LLVM chooses (the IR without ``"amdgpu-agpr-alloc"`` and with the
keep-alive's operands in VGPRs, what the kernels were before it), with the attribute alone
(LLVM splits the loop-carried accumulators into 32-bit PHIs), with the vector PHIs kept
whole alone, and with both (what the FP8 kernel ships); the BF16 kernel, whose MMAs
interleave their accumulators' K steps, ships with the greedy allocator's local live ranges
reversed too (a fifth row).  Per main-loop iteration of one wave: VALU (``v_accvgpr_*``
among them), the MFMAs writing AGPRs, the kernel's VGPR spills, architected VGPRs and
AGPRs, and the simulator's achieved cycles and MFMA busy under both cost tables (the
assembly's main loop on the CU model), and llvm-mca-22's cycles per iteration of one wave
on the main loop (``bench_reference.run_mca``; ``-`` when ``llvm-mca-22`` is not
installed).  Models, not hardware.  Prints a Markdown table::

    .venv/bin/python benchmarks/bench_agpr.py
"""

from __future__ import annotations

import re
import shutil

from bench_reference import MCA, loop_text, run_mca

KERNELS = ("4wave{dtype=bf16 BM=256 BN=256 BK=64}", "4wave{dtype=fp8 BM=256 BN=256 BK=128}")
ATTRIBUTE = '"amdgpu-agpr-alloc"="256" '
#: the empty asm that keeps every accumulator alive after the loop
#: (``pipeline_mlir/lowering/keep_alive.py``): in an AGPR kernel its operands are ``a``
#: constraints, which alone make LLVM select the AGPR form of every MFMA
KEEP_ALIVE_AGPRS = re.compile(r'(asm sideeffect "", ")(a(?:,a)*)(")')


def without_agprs(ll: str) -> str:
    """``ll`` asking LLVM for no AGPRs: without the attribute, the keep-alive's operands
    in VGPRs (``v``)."""
    plain, n = KEEP_ALIVE_AGPRS.subn(lambda m: m[1] + m[2].replace("a", "v") + m[3],
                                     ll.replace(ATTRIBUTE, ""))
    assert n == 1, "the kernel has no keep-alive of its AGPR accumulators"
    return plain


def variants(ll: str):
    """(name, IR, LLVM options) of each way the kernel is compiled; a kernel whose MMAs
    interleave their accumulators' K steps ships with one more option (the last row)."""
    from pipeline_mlir.isa.codegen import KEEP_VECTOR_PHIS, llvm_options

    assert ATTRIBUTE in ll, "the kernel does not ask for AGPR accumulators"
    plain = without_agprs(ll)
    shipped = llvm_options(ll)
    both = "amdgpu-agpr-alloc + PHIs whole"
    rows = [("LLVM's choice (no attribute)", plain, ()),
            ("amdgpu-agpr-alloc, PHIs split", ll, ()),
            ("PHIs whole, no attribute", plain, (KEEP_VECTOR_PHIS,))]
    if shipped == (KEEP_VECTOR_PHIS,):
        return rows + [(f"{both} (shipped)", ll, shipped)]
    return rows + [(both, ll, (KEEP_VECTOR_PHIS,)),
                   (f"{both} + local ranges reversed (shipped)", ll, shipped)]


def figures(asm: str, mca: bool) -> dict:
    """The main-loop and resource figures of one compiled kernel (``mca``: run llvm-mca)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.report import loop_counts, resources_from_asm
    from pipeline_mlir.sim.report import simulate_assembly

    module = parse_asm(asm)
    fn = module.function()
    loop = [i for b in fn.main_loop() for i in b.instrs]
    mfmas = [i for i in loop if i.kind == "mfma"]
    res = resources_from_asm(module, fn.name)
    out = {"VALU": loop_counts(fn)["VALU"],
           "v_accvgpr_*": sum(1 for i in loop if i.mnemonic.startswith("v_accvgpr_")),
           "MFMA to AGPRs": f"{sum(all(r[0] == 'a' for r in i.defs) for i in mfmas)}/"
                            f"{len(mfmas)}",
           "spills": res.vgpr_spills, "VGPRs": res.architected, "AGPRs": res.agprs}
    for t in simulate_assembly(asm, fn.name, 4, False).timing:
        a = t.analysis
        busy = 100 * sum(a.mfma_busy.values()) / len(a.mfma_busy)
        out[f"{t.table} cycles (busy)"] = f"{a.achieved_ii:.0f} ({busy:.0f}%)"
    out["llvm-mca-22 cycles"] = f"{run_mca(loop_text(asm)):.1f}" if mca else "-"
    return out


def main() -> None:
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.isa.codegen import compile_llvm_ir

    mca = shutil.which(MCA) is not None
    rows = []
    for spec in KERNELS:
        ll = compile(CompileOptions(schedule=spec, emit="llvm")).checked_output()
        for name, ir, options in variants(ll):
            rows.append({"kernel": f"`{spec}`", "compiled": name,
                         **figures(compile_llvm_ir(ir, options=options), mca)})
    head = list(rows[0])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in head) + " |")


if __name__ == "__main__":
    main()
