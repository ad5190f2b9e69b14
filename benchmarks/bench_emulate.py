"""The emulator on the five shipped kernels: instructions per second, and the whole matrix.

For each kernel: build the code object (as ``--emit=hsaco`` does), then run it on 2 x 2
workgroups in every memory mode (eager, late, random) for main loops of 0..4 iterations
(``--quick``: 0 and 1), checking that C is exact and nothing was found.  Prints per kernel
and mode the instructions executed (summed over workgroups and waves), the CPU time and
instructions per CPU second, and the ratio of the whole matrix to one compile (ratios within
one run compare across machines; CPU time, not wall time, because the machine may be shared).

``--dispatch``: instead, one whole dispatch (the 4-wave BF16 kernel on 2048 x 2048 x 512,
256 workgroups) run in one process and spread over ``--jobs`` processes (default: the CPUs
this process may use, at least 2), as ``--emulate-jobs`` does: the wall-time ratio (the
speed-up) and whether C, the instruction count and the findings are the same.

    .venv/bin/python benchmarks/bench_emulate.py [--quick]
    .venv/bin/python benchmarks/bench_emulate.py --dispatch [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile

KERNELS = ("4wave{dtype=fp8 BM=64 BN=64 BK=128}", "4wave{dtype=bf16 BM=128 BN=128 BK=64}",
           "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "pingpong{is_fp8=false}",
           "pingpong{is_fp8=true}")
MODES = (("eager", 0), ("late", 0), ("random", 1))


def cpu() -> float:
    """CPU seconds of this process and its finished children (LLVM runs in a child)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build(spec: str) -> bytes:
    from pipeline_mlir.tools.pipeline_opt import main

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.hsaco")
        if main([f"--pipeline={spec}", "--emit=hsaco", "-o", out]) != 0:
            raise SystemExit(f"building {spec} failed")
        with open(out, "rb") as f:
            return f.read()


#: the dispatch ``--dispatch`` runs: (spec, M, N, K)
DISPATCH = ("4wave{dtype=bf16 BM=128 BN=128 BK=64}", 2048, 2048, 512)


def dispatch(jobs: int) -> None:
    """One dispatch in one process and over ``jobs``: wall seconds, ratio, same result."""
    import time

    import numpy as np

    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    spec, M, N, K = DISPATCH
    kernel, gemm = load_kernel(build(spec)), gemm_kernel(parse_pipeline(spec))
    runs, wall = {}, {}
    for n in (1, jobs):
        t = time.perf_counter()
        runs[n] = emulate_gemm(kernel, gemm, M, N, K, "random", 1, collect=True, jobs=n)
        wall[n] = time.perf_counter() - t
        print(f"{n} process{'es' if n > 1 else '  '}: {wall[n]:7.2f} s wall  "
              f"{runs[n].summary()}")
    one, many = runs[1], runs[jobs]
    same = np.array_equal(one.C, many.C) and one.instructions == many.instructions and \
        [str(f) for f in one.findings] == [str(f) for f in many.findings]
    print(f"\nspeed-up with {jobs} processes: {wall[1] / wall[jobs]:.2f}x wall time "
          f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}); same C, "
          f"instructions and findings: {'yes' if same else 'NO'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="main loops of 0 and 1 iterations")
    ap.add_argument("--dispatch", action="store_true",
                    help="one whole dispatch in one process and over --jobs processes")
    ap.add_argument("--jobs", type=int, default=None, help="processes for --dispatch")
    args = ap.parse_args()
    if args.dispatch:
        from pipeline_mlir.emu.pool import default_jobs

        return dispatch(max(2, args.jobs or default_jobs()))
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    iterations = range(2) if args.quick else range(5)
    print(f"{'kernel':<40} {'mode':<7} {'runs':>4} {'instructions':>13} {'CPU s':>7} "
          f"{'instr/s':>9} {'exact':>6}")
    total_instr = total_cpu = total_build = 0.0
    for spec in KERNELS:
        t = cpu()
        data = build(spec)
        total_build += cpu() - t
        kernel = load_kernel(data)
        gemm = gemm_kernel(parse_pipeline(spec))
        g = gemm.geometry
        for mode, seed in MODES:
            instr, seconds, exact = 0, 0.0, True
            for it in iterations:
                t = cpu()
                run = emulate_gemm(kernel, gemm, 2 * g.BM, 2 * g.BN, 2 * g.BK * (it + 1), mode,
                                   seed + it, data_seed=it)
                seconds += cpu() - t
                instr += run.instructions
                exact &= run.exact
            total_instr += instr
            total_cpu += seconds
            print(f"{gemm.name:<40} {mode:<7} {len(iterations):>4} {instr:>13,} {seconds:>7.2f} "
                  f"{instr / seconds:>9,.0f} {'yes' if exact else 'NO':>6}")
    print(f"{'all':<40} {'':<7} {'':>4} {int(total_instr):>13,} {total_cpu:>7.2f} "
          f"{total_instr / total_cpu:>9,.0f}")
    print(f"\nbuilding the five code objects: {total_build:.2f} CPU s; the emulation matrix costs "
          f"{total_cpu / (total_build / len(KERNELS)):.1f} kernel builds")


if __name__ == "__main__":
    main()
