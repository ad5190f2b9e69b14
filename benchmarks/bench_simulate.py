"""The simulator on the shipped kernels: what it reports and what it costs.

For each shipped ping-pong and 4-wave kernel configuration:

* the functional model over main loops of 0..6 iterations (hazards of the schedule as
  printed, fixes the kernel needs, the kernel's verdict);
* the timing model under both cost tables: MinII (ResMII / RecMII), achieved cycles per
  steady-state iteration, MFMA-busy % (the measured table with the kernel's LDS bank
  conflicts, from its lane addresses);
* time: compile, functional model (7 runs), repair, timing per table, and the ratio of
  the whole simulation to the compile (ratios within one run compare across machines).

    .venv/bin/python benchmarks/bench_simulate.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

KERNELS = ("pingpong{is_fp8=false}", "pingpong{is_fp8=true}",
           "4wave{dtype=bf16 BM=128 BN=128 BK=64}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
           "4wave{dtype=fp8 BM=64 BN=64 BK=128}")


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.functional import simulate
    from pipeline_mlir.sim.repair import repair
    from pipeline_mlir.sim.report import kernel_shape_with_banks, timing_runs

    print(f"{'kernel':<40} {'table':<9} {'ResMII':>7} {'RecMII':>8} {'MinII':>8} "
          f"{'achieved':>9} {'MinII/ach':>9} {'MFMA busy':>9}")
    timings = []
    for spec in KERNELS:
        kernel = gemm_kernel(parse_pipeline(spec))
        schedule = kernel.schedule
        compiled, t_compile, _ = best(schedule.compile, args.repeat)
        shape, banks = kernel_shape_with_banks(kernel, kernel_lds(kernel))
        found, t_func, _ = best(lambda: simulate(compiled, shape), args.repeat)
        fixed, t_fix, _ = best(lambda: repair(compiled, shape), args.repeat)
        res, t_time, _ = best(lambda: timing_runs(fixed, shape, ("llvm", "measured"), emitted=True), args.repeat)
        for t in res:
            a = t.analysis
            busy = sum(a.mfma_busy.values()) / len(a.mfma_busy)
            print(f"{spec:<40} {t.table:<9} {a.res.cycles:>7} {a.rec.cycles:>8.1f} "
                  f"{a.min_ii:>8.1f} {a.achieved_ii:>9.1f} {100 * a.efficiency:>8.0f}% "
                  f"{100 * busy:>8.0f}%")
        print(f"{'':<40} schedule as printed: {len(found.distinct_hazards())} hazard(s); kernel "
              f"fixes: {len(fixed.fixes)}; kernel safe: {simulate(fixed, shape).safe}; LDS "
              f"accesses with bank conflicts: {len(banks.conflicted)} of {len(banks.accesses)}")
        timings.append((spec, t_compile, t_func, t_fix, t_time))
    print()
    print(f"{'kernel':<40} {'compile ms':>10} {'func ms':>8} {'repair ms':>9} "
          f"{'timing ms':>9} {'sim/compile':>11}")
    for spec, tc, tf, tr, tt in timings:
        print(f"{spec:<40} {1e3 * tc:>10.1f} {1e3 * tf:>8.1f} {1e3 * tr:>9.1f} {1e3 * tt:>9.1f} "
              f"{(tf + tr + tt) / tc:>11.1f}")


if __name__ == "__main__":
    main()
