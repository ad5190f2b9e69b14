"""The block-scaled (MXFP4, MXFP8) kernels against their MFMA bound, in the simulator.

For each MX kernel configuration (and the FP8 kernel of the same tile beside them), per
main-loop iteration of one SIMD:

* the MFMA bound: its wave's MFMAs at their operand format's rate (16 cycles for FP4 x FP4,
  32 with an FP8 operand; ``pipeline_mlir.sim.costs``), measured table;
* the schedule's achieved cycles in the ``measured`` table (the compiled schedule on the CU
  model, with the kernel's LDS bank conflicts; its loads issue as a stretch before each
  MMA) and the unit that binds ResMII;
* the compiled kernel's main loop (LLVM's assembly, the loads interleaved with the MFMAs) on
  the CU model in both tables, its MFMA busy (bound / achieved, 1.00 is the bound), and
  llvm-mca-22 on the loop (one wave, when installed; ``bench_reference.py``'s figures);
* VALU per iteration and VGPR spills.

``--gaps SPEC`` prints instead where the compiled kernel ``SPEC``'s main loop leaves its
SIMDs' MFMA pipes idle in the measured table: the idle cycles per SIMD and iteration by
cause (``pipeline_mlir.sim.pipe_gaps``: the longest stall of the wave before the MFMA that
ends each gap, with the model's reason).

Models, not hardware::

    .venv/bin/python benchmarks/bench_mx.py [--no-mca] [--gaps SPEC]
"""

from __future__ import annotations

import argparse
import shutil
import sys

KERNELS = ("4wave{dtype=mxfp4 BM=256 BN=256 BK=128}", "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}",
           "4wave{dtype=fp8 BM=256 BN=256 BK=128}",
           "4wave{dtype=mxfp4 BM=128 BN=128 BK=256}", "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}",
           "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}")


def schedule_figures(spec: str) -> dict:
    """The compiled schedule's bound, achieved cycles and binding unit (measured table)."""
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.functional import simulate
    from pipeline_mlir.sim.repair import repair
    from pipeline_mlir.sim.report import kernel_shape_with_banks, timing_runs

    kernel = gemm_kernel(parse_pipeline(spec))
    shape, _banks = kernel_shape_with_banks(kernel, kernel_lds(kernel))
    fixed = repair(kernel.schedule.compile(), shape)
    (t,) = timing_runs(fixed, shape, ("measured",), emitted=True)
    a = t.analysis
    return {"bound": max(c for u, c in a.res.per_unit.items() if u.startswith("XDL")),
            "schedule": a.achieved_ii, "binding": a.res.binding,
            "safe": simulate(fixed, shape).safe}


def kernel_figures(spec: str, mca: bool) -> dict:
    """The compiled kernel's main-loop figures (``bench_reference.measure_asm``) and spills."""
    from bench_reference import measure_asm
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.report import resources_from_asm

    asm = compile(CompileOptions(schedule=spec, emit="asm")).checked_output()
    module = parse_asm(asm)
    got = measure_asm(asm, spec, mca)
    got["spills"] = resources_from_asm(module, module.function().name).vgpr_spills
    return got


def gap_figures(spec: str) -> tuple[float, dict[str, float]]:
    """The compiled kernel's main loop on the CU model (measured table): its cycles per
    iteration and its MFMA pipes' idle cycles per SIMD and iteration by cause."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.pipe_gaps import gaps_per_iteration, pipe_gaps
    from pipeline_mlir.sim.report import TIMING_ITERATIONS
    from pipeline_mlir.sim.timing import simulate_asm_loop
    from pipeline_mlir.sim.trace import kernel_shape

    asm = compile(CompileOptions(schedule=spec, emit="asm")).checked_output()
    shape = kernel_shape(parse_pipeline(spec))
    a = simulate_asm_loop(asm, shape.waves, TIMING_ITERATIONS, "measured",
                          stagger=shape.groups == 2)
    iterations = (a.window[1] - a.window[0]) / a.achieved_ii
    return a.achieved_ii, gaps_per_iteration(pipe_gaps(a.run, a.window), iterations,
                                             len(a.mfma_busy))


def print_gaps(spec: str) -> None:
    cycles, causes = gap_figures(spec)
    print(f"`{spec}`: {cycles:.0f} cycles per iteration; MFMA pipe idle per SIMD and "
          f"iteration, {sum(causes.values()):.0f} cycles:")
    print("| cause (longest stall before the MFMA that ends the gap) | cycles |")
    print("|---|---|")
    for cause, n in causes.items():
        print(f"| {cause} | {n:.1f} |")


def main() -> None:
    from bench_reference import MCA

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-mca", action="store_true", help="skip llvm-mca-22 even if installed")
    ap.add_argument("--gaps", metavar="SPEC", help="only the MFMA pipe's idle cycles of "
                    "the main loop of the kernel SPEC, by cause")
    args = ap.parse_args()
    if args.gaps:
        from pipeline_mlir.errors import PipelineError
        try:
            print_gaps(args.gaps)
        except PipelineError as e:
            print(f"bench_mx: --gaps: {e}", file=sys.stderr)
            raise SystemExit(1) from None
        return
    mca = not args.no_mca and shutil.which(MCA) is not None
    print("| kernel | MFMA bound | schedule (binding) | kernel: measured (busy) | llvm table "
          "| llvm-mca-22 | VALU | spills |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in KERNELS:
        s, k = schedule_figures(spec), kernel_figures(spec, mca)
        mca_text = "-" if k["llvm_mca"] is None else f"{k['llvm_mca']:.1f}"
        print(f"| `{spec}` | {s['bound']:.0f} | {s['schedule']:.0f} ({s['binding']}) | "
              f"{k['sim_measured']:.0f} ({s['bound'] / k['sim_measured']:.1%}) | "
              f"{k['sim_llvm']:.0f} | {mca_text} | {k['valu']} | {k['spills']} |")


if __name__ == "__main__":
    main()
