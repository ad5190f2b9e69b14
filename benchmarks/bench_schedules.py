#!/usr/bin/env python3
"""Benchmark the schedule compiler (a script, not a test; see benchmarks/README.md).

Measures, in one run on one machine:

1. in-process compile time of each shipped schedule (median / min of N compiles);
2. wall time of ``pipeline-opt --emit=schedule`` in a fresh process (median of N),
   next to the wall time of a bare ``python -c pass`` measured the same way, and
   their ratio;
3. the CSP scheduler with ``lds_contention_penalty`` 0 and 4 on the 2x2 ping-pong
   body and on a 4x4-MMA-grid ping-pong body: makespan, lower bound, whether
   optimality was proven, search nodes, seconds, and whether the search budget
   stopped it.

Usage::

    python benchmarks/bench_schedules.py            # from the repository root
    python benchmarks/bench_schedules.py --runs 21 --compiles 50
    python benchmarks/bench_schedules.py --quick    # fewer repetitions

Only ratios measured in the same run are meaningful across machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# The shipped schedules, as pipeline specs (pipeline_mlir.schedules.registry).
SHIPPED = [
    ("pingpong reference (bf16, lgkm 2/2, vm 4/4, max_globals 1)",
     "pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}"),
    ("pingpong fp8 (lgkm 8/4, vm 2/2, max_globals 0)",
     ("pingpong{is_fp8=true max_globals=0 vm_per_load_a=2 vm_per_load_b=2 "
      "lgkm_per_load_a=8 lgkm_per_load_b=4}")),
    ("4wave bf16 128x128x64", "4wave{dtype=bf16 BM=128 BN=128 BK=64}"),
    ("4wave fp8 128x128x128", "4wave{dtype=fp8 BM=128 BN=128 BK=128}"),
    ("single-buffer T=2", "single-buffer{T=2}"),
]
CLI_SPEC = "4wave{dtype=bf16 BM=128 BN=128 BK=64}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    line = "  ".join("-" * w for w in widths)
    return "\n".join([fmt.format(*headers), line] + [fmt.format(*r) for r in rows])


# ---- 1. in-process compile -----------------------------------------------------------

def bench_compile(n: int) -> str:
    t0 = time.perf_counter()
    from pipeline_mlir.schedule.compiler import compile_schedule  # noqa: F401  (import cost)
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.schedules import fourwave, pingpong, single_buffer  # noqa: F401
    import_ms = (time.perf_counter() - t0) * 1e3
    rows = []
    for label, spec in SHIPPED:
        schedule = parse_pipeline(spec)
        t = time.perf_counter()
        c = schedule.compile()
        first = (time.perf_counter() - t) * 1e3
        times = []
        for _ in range(n):
            t = time.perf_counter()
            schedule.compile()
            times.append((time.perf_counter() - t) * 1e3)
        res = c.schedule_result
        rows.append([label, c.sched.scheduling.name if c.sched else "-",
                     f"{len(c.prologue)}/{len(c.kernel)}/{len(c.epilogue)}",
                     f"{first:.2f}", f"{statistics.median(times):.2f}", f"{min(times):.2f}",
                     "-" if res is None else f"{res.makespan}/{res.lower_bound}"])
    return (f"core import (first, in this process): {import_ms:.1f} ms\n"
            + table(["schedule", "order", "pro/krn/epi", "first ms", f"median ms (n={n})",
                     "min ms", "makespan/lb"], rows))


# ---- 2. CLI wall time -------------------------------------------------------------------

def cli_command() -> tuple[list[str], str, dict]:
    """How a user runs the tool here: the installed console script if there is one."""
    env = dict(os.environ)
    script = Path(sys.executable).with_name("pipeline-opt")
    if script.exists():
        return [str(script)], f"{script} (console script)", env
    try:
        import importlib

        importlib.import_module("pipeline_mlir.tools.pipeline_opt")
        return ([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt"],
                "python -m pipeline_mlir.tools.pipeline_opt", env)
    except ImportError:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
        return ([sys.executable, str(REPO / "pipeline_mlir" / "tools" / "pipeline_opt.py")],
                "python pipeline_mlir/tools/pipeline_opt.py (not installed; PYTHONPATH=repo)", env)


def wall(cmd: list[str], env: dict, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           cwd=REPO, check=False)
        out.append(time.perf_counter() - t)
        if p.returncode != 0:
            raise SystemExit(f"benchmark: {' '.join(cmd)} failed: {p.stderr.decode().strip()}")
    return out


def bench_cli(n: int) -> str:
    cmd, how, env = cli_command()
    args = [f"--pipeline={CLI_SPEC}", "--emit=schedule"]
    bare = [sys.executable, "-c", "pass"]
    rows = []
    pyc_dir = tempfile.mkdtemp(prefix="bench-pyc-")
    try:
        # (a) bytecode cached, as for an installed tool: a private pycache prefix, filled by
        # one discarded warm-up run of each command.
        warm = dict(env, PYTHONPYCACHEPREFIX=pyc_dir)
        warm.pop("PYTHONDONTWRITEBYTECODE", None)
        # (b) the environment as it is (e.g. PYTHONDONTWRITEBYTECODE=1 recompiles the project
        # sources in every process).
        modes = [("bytecode cached", warm)]
        if env.get("PYTHONDONTWRITEBYTECODE"):
            modes.append(("as configured (PYTHONDONTWRITEBYTECODE=1)", env))
        for mode, e in modes:
            wall(bare, e, 1)
            wall(cmd + args, e, 1)
            b = wall(bare, e, n)
            c = wall(cmd + args, e, n)
            mb, mc = statistics.median(b), statistics.median(c)
            rows.append([mode, f"{mb * 1e3:.0f}", f"{mc * 1e3:.0f}", f"{mc / mb:.2f}",
                         f"{(mc - mb) * 1e3:.0f}", f"{min(c) * 1e3:.0f}-{max(c) * 1e3:.0f}"])
    finally:
        shutil.rmtree(pyc_dir, ignore_errors=True)
    return (f"command: {how} --pipeline='{CLI_SPEC}' --emit=schedule  (median of {n} runs)\n"
            + table(["mode", "python -c pass ms", "pipeline-opt ms", "ratio",
                     "extra ms", "pipeline-opt range ms"], rows))


# ---- 3. CSP with and without the LDS port penalty ----------------------------------------

def pingpong_case(m: int, n: int):
    from pipeline_mlir.schedules.pingpong import DeclarativeSchedule
    from pipeline_mlir.schedule.targets import mi355x_target

    target = mi355x_target()
    if (m, n) != (2, 2):
        # Larger MMA grid per half; the default block sizing (heavy 4, light 2,
        # max_globals 1) gives every one of the m*n blocks a global slot, so all
        # m+n globals of a half are placed by the interleave.
        target = target.with_pipeline(m_mmas=m, n_mmas=n)
    return lambda cfg: DeclarativeSchedule(False, 2, 2, cfg, target)


def bench_csp(grids) -> str:
    from pipeline_mlir.schedule.compiler import compile_schedule
    from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.schedule.schedulers import SearchBudget

    budget = SearchBudget()
    rows = []
    for m, n in grids:
        make = pingpong_case(m, n)
        for penalty in (0, 4):
            cfg = ScheduleConfig(scheduling=SchedulingStrategy.CSP, auto_waits=True,
                                 lds_contention_penalty=penalty)
            s = make(cfg)
            t = time.perf_counter()
            try:
                c = compile_schedule(s)
            except PipelineError as e:
                rows.append([f"pingpong {m}x{n}", str(penalty), "-", "-", "-", "-", "-",
                             f"{time.perf_counter() - t:.2f}", f"error: {type(e).__name__}: {e}"])
                continue
            r = c.schedule_result
            rows.append([f"pingpong {m}x{n}", str(penalty), str(len(c.body)), str(r.makespan),
                         str(r.lower_bound), f"{100 * r.gap / r.lower_bound:.1f}%",
                         "yes" if r.proven_optimal else "no", str(r.nodes),
                         f"{time.perf_counter() - t:.2f}", f"ok ({len(c.kernel)} kernel entries)"])
    return (f"budget: {budget.max_nodes} search nodes per order (deterministic)\n"
            + table(["body", "penalty", "ops", "makespan", "lower bound", "gap", "proven",
                     "nodes", "seconds", "full compile"], rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=11, help="CLI runs per command (median)")
    ap.add_argument("--compiles", type=int, default=20, help="in-process compiles per schedule")
    ap.add_argument("--quick", action="store_true", help="--runs 5 --compiles 5")
    ap.add_argument("--all-grids", action="store_true",
                    help="CSP on every MMA grid 2..8 x 2..8 (a few minutes)")
    a = ap.parse_args(argv)
    if a.quick:
        a.runs, a.compiles = 5, 5
    print(f"pipeline-mlir schedule benchmark  {time.strftime('%Y-%m-%d %H:%M')}  "
          f"python {platform.python_version()}  {platform.machine()}  "
          f"{os.cpu_count()} CPUs\n")
    print("1. in-process compile (parse spec + compile_schedule)")
    print(bench_compile(a.compiles), "\n")
    print("2. CLI wall time vs bare interpreter start")
    print(bench_cli(a.runs), "\n")
    print("3. CSP (optimal_schedule_with_halves) with LDS port penalty 0 and 4, MMA grids per half")
    grids = [(2, 2), (2, 4), (4, 2), (3, 3), (4, 4), (8, 8)]
    if a.all_grids:
        grids = [(m, n) for m in range(2, 9) for n in range(2, 9)]
    print(bench_csp(grids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
