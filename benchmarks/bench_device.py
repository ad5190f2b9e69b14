"""The device model on the shipped kernels: 8192^3 (or a size given) in each grid order.

For each shipped complete kernel: its main-loop cycles per iteration in the simulator's
measured table (one CU, two K tiles per iteration) make a workgroup's time
(``K / (2*BK)`` iterations; prologue and epilogue left out), and the device model
(:mod:`pipeline_mlir.sim.device`: 8 XCDs x 32 CUs, L2 per XCD, MALL, HBM; one workgroup
per CU, the shipped kernels' occupancy) prices the grid row-major, with the XCD
renumbering alone, and in the best order it tries.  Model outputs, not hardware.

    .venv/bin/python benchmarks/bench_device.py [--size 8192,8192,8192]
"""

from __future__ import annotations

import argparse

KERNELS = ("pingpong{is_fp8=false}", "pingpong{is_fp8=true}",
           "4wave{dtype=bf16 BM=128 BN=128 BK=64}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
           "4wave{dtype=fp8 BM=64 BN=64 BK=128}")


def cycles_per_iteration(kernel) -> float:
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.sim.repair import repair
    from pipeline_mlir.sim.report import kernel_shape_with_banks, timing_runs
    shape, _ = kernel_shape_with_banks(kernel, kernel_lds(kernel))
    fixed = repair(kernel.schedule.compile(), shape)
    (timing,) = timing_runs(fixed, shape, ("measured",), emitted=True)
    return timing.analysis.achieved_ii


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="8192,8192,8192", help="M,N,K")
    args = ap.parse_args()
    M, N, K = (int(v) for v in args.size.split(","))
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.grid import GridOrder
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.device import Problem, best_order, estimate, table_header, table_row

    print(f"M={M} N={N} K={K}; per-iteration cycles: simulator, measured table")
    print(f"{'kernel':<40} " + table_header("order", bound=True))
    for spec in KERNELS:
        kernel = gemm_kernel(parse_pipeline(spec))
        g = kernel.geometry
        problem = Problem(M, N, K, g.BM, g.BN, g.BK, g.elem_bytes)
        wg = cycles_per_iteration(kernel) * K / (2 * g.BK)
        row = estimate(problem, GridOrder(), wg)
        for what, e in (("", row), ("", estimate(problem, GridOrder(xcd_remap=True), wg)),
                        ("best: ", best_order(problem, wg))):
            print(f"{spec:<40} " + table_row(e, row, what + e.order.describe(), bound=True))


if __name__ == "__main__":
    main()
