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

``--base DIR``: instead, the emulator of this checkout against the one of another checkout
(``DIR``, its root), one run: each tree runs the same ``--emulate`` commands in one fresh
process (its package on ``PYTHONPATH``), the builds shared and made first (not timed), as a
test session runs them: IREE's committed 4096^3 dispatch (two workgroups), the complete
ping-pong kernel (256 x 256 x 512), IREE's committed batch dispatch (bf16,
2 x 267 x 969 x 192: a launch description's run, eight workgroups) and, with
``iree-compile``, an IREE configuration kernel (f16, 2048 x 2048 x 1024, three
workgroups), each in late mode and in random mode with
``--repeat`` seeds.  Per case and tree: the CPU seconds of the emulation commands, the
median over ``--runs`` processes (the trees interleaved), the ratio base / this (above 1:
this checkout is faster) and whether both printed the same summaries (timings masked).

    .venv/bin/python benchmarks/bench_emulate.py [--quick]
    .venv/bin/python benchmarks/bench_emulate.py --dispatch [--jobs N]
    .venv/bin/python benchmarks/bench_emulate.py --base DIR [--runs N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

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


ROOT = Path(__file__).resolve().parent.parent
IREE_4096 = "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"
#: a batch of two matmuls, run through its launch description (``--emulate``'s
#: ``run_dispatch``, as the suite's epilogue and batch dispatches)
IREE_BATCH = "test/lit/passes/Inputs/iree-bf16-batch-267x969x192.late.mlir"
#: what one tree's process runs: argv[1] the cases as ``name=arg|arg...`` lines, argv[2] the
#: modes; prints per case its CPU seconds and the summary lines
_CHILD = """
import contextlib, io, sys, time
from pipeline_mlir.driver import code_cache
from pipeline_mlir.tools.pipeline_opt import main
store = {}
def cached(kind, key, build):
    if (kind, key) not in store:
        store[kind, key] = build()
    return store[kind, key]
with code_cache.sharing(cached, own_kernels=True):
    for line in sys.argv[1].splitlines():
        name, _, args = line.partition("=")
        args = args.split("|")
        build = [a for a in args if not a.startswith("--emulate")]
        with contextlib.redirect_stdout(io.StringIO()):
            main(build + ["--emit=hsaco", "-o", sys.argv[3]])     # the build, not timed
        out = io.StringIO()
        t = time.process_time()
        with contextlib.redirect_stdout(out):
            for mode in sys.argv[2].split(","):
                main(args + ["--emulate-mode=" + mode, "--emulate-jobs=1"])
        print(name, time.process_time() - t, out.getvalue().replace(chr(10), " / "))
"""


def base_cases(work: Path) -> dict[str, list[str]]:
    """name -> the ``pipeline-opt`` arguments of one emulation (no mode)."""
    out = {"iree-4096": ["--pipeline=4wave", "--emulate", IREE_4096, "--emulate-workgroups=2"],
           "pingpong": ["--pipeline=pingpong", "--emulate=256,256,512"],
           "iree-batch": ["--pipeline=4wave", "--emulate", IREE_BATCH, "--emulate-workgroups=8"]}
    sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
    try:
        import generate as G

        G.tool("iree-compile")
        text = G.forms(G.matmul_source(dtype="f16", m=2048, n=2048, k=1024))["prefetch"]
    except Exception as e:          # no iree-compile, or it failed: say so, run the rest
        print(f"iree-f16-2048: skipped ({str(e).splitlines()[0][:100]})")
        return out
    path = work / "f16_2048.prefetch.mlir"
    path.write_text(text)
    out["iree-f16-2048"] = ["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=3"]
    return out


def _child(tree: Path, cases: dict, modes: str, work: Path) -> dict[str, tuple[float, str]]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(work / tree.name),
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    lines = "\n".join(f"{n}={'|'.join(a)}" for n, a in cases.items())
    proc = subprocess.run([sys.executable, "-c", _CHILD, lines, modes, str(work / "k.hsaco")],
                          cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"{tree}: {proc.stderr[-2000:]}")
    out = {}
    for line in proc.stdout.splitlines():
        name, cpu, summary = line.split(" ", 2)
        out[name] = float(cpu), re.sub(r"\d[\d,.]* (s|instructions/s)\b", r"<t> \1", summary)
    return out


def against(base: Path, runs: int, repeat: int) -> None:
    """This checkout's emulator against ``base``'s (module docstring)."""
    if not (base / "pipeline_mlir" / "__init__.py").is_file():
        raise SystemExit(f"--base {base}: no pipeline_mlir/ package there")
    trees = {"base": base.resolve(), "this": ROOT}
    modes = ",".join(["late"] + [f"random:{k}" for k in range(1, repeat + 1)])
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        cases = base_cases(work)
        times: dict = {(t, n): [] for t in trees for n in cases}
        same: dict = {n: set() for n in cases}
        for k in range(runs + 1):
            for t, tree in trees.items():
                for name, (cpu, summary) in _child(tree, cases, modes, work).items():
                    same[name].add(summary)
                    if k:                      # the first run fills the bytecode cache
                        times[t, name].append(cpu)
        print(f"{'case':<16} {'modes':<24} {'base CPU s':>10} {'this CPU s':>10} "
              f"{'base/this':>9}  same output")
        total = {t: 0.0 for t in trees}
        for name in cases:
            b, m = median(times["base", name]), median(times["this", name])
            total["base"] += b
            total["this"] += m
            print(f"{name:<16} {modes:<24} {b:>10.2f} {m:>10.2f} {b / m:>8.2f}x  "
                  f"{'yes' if len(same[name]) == 1 else 'NO'}")
        print(f"{'all':<16} {'':<24} {total['base']:>10.2f} {total['this']:>10.2f} "
              f"{total['base'] / total['this']:>8.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, default=None,
                    help="the other checkout to compare this emulator with (its root)")
    ap.add_argument("--runs", type=int, default=1, help="--base: processes per tree")
    ap.add_argument("--repeat", type=int, default=2, help="--base: random-mode seeds per case")
    ap.add_argument("--quick", action="store_true", help="main loops of 0 and 1 iterations")
    ap.add_argument("--dispatch", action="store_true",
                    help="one whole dispatch in one process and over --jobs processes")
    ap.add_argument("--jobs", type=int, default=None, help="processes for --dispatch")
    args = ap.parse_args()
    if args.base is not None:
        return against(args.base, args.runs, args.repeat)
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
