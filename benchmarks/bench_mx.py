"""The block-scaled (MXFP4, MXFP8) kernels against their MFMA bound, in the simulator.

For each MX kernel configuration: the MFMA bound of one main-loop iteration (the matrix
pipe's cycles of one SIMD: its wave's MFMAs at their operand format's rate, 16 cycles for
FP4 x FP4, 32 with an FP8 operand, ``pipeline_mlir.sim.costs``), the achieved cycles per
steady-state iteration in the ``measured`` table (with the kernel's LDS bank conflicts), the
ratio bound / achieved (MFMA busy; 1.00 is the bound), the unit that binds ResMII, and the
FP8 kernel of the same bytes beside it.  Models, not hardware.

    .venv/bin/python benchmarks/bench_mx.py
"""

from __future__ import annotations

KERNELS = ("4wave{dtype=mxfp4 BM=128 BN=128 BK=256}", "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}",
           "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}")


def main() -> None:
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.functional import simulate
    from pipeline_mlir.sim.repair import repair
    from pipeline_mlir.sim.report import kernel_shape_with_banks, timing_runs

    print(f"{'kernel':<42} {'MFMA bound':>10} {'achieved':>9} {'bound/ach':>9} "
          f"{'binding unit':<14} {'safe':>5}")
    for spec in KERNELS:
        kernel = gemm_kernel(parse_pipeline(spec))
        compiled = kernel.schedule.compile()
        shape, _banks = kernel_shape_with_banks(kernel, kernel_lds(kernel))
        fixed = repair(compiled, shape)
        (t,) = timing_runs(fixed, shape, ("measured",))
        a = t.analysis
        busy = sum(a.mfma_busy.values()) / len(a.mfma_busy)
        bound = max(c for u, c in a.res.per_unit.items() if u.startswith("XDL"))
        print(f"{spec:<42} {bound:>10.0f} {a.achieved_ii:>9.1f} {busy:>9.2f} "
              f"{a.res.binding:<14} {str(simulate(fixed, shape).safe):>5}")


if __name__ == "__main__":
    main()
