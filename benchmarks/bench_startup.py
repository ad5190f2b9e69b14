"""Start-up of ``pipeline-opt``: the CPU time of the commands that should cost about as much as
starting Python, as a ratio against a bare interpreter measured in the same run.

Cases (each a fresh process, output discarded):
  bare-python   ``python -c pass``: the floor every run pays (the ratios are against it)
  core          the scheduling core alone, in a ``python -c``: parse ``4wave``, compile it,
                format the schedule (what ``--emit=schedule`` cannot do without)
  schedule      ``pipeline-opt --pipeline=4wave --emit=schedule`` (the default body)
  help          ``pipeline-opt --help``
  version       ``pipeline-opt --version``
  usage-error   ``pipeline-opt --pipeline=4wave --frobnicate`` (exit status 1)
  kernel-schedule  ``pipeline-opt --pipeline=4wave --emit=schedule examples/gemm_loop_4wave.mlir``
                (a kernel file's tagged loop: the MLIR bindings, numpy for the tag check,
                the passes up to the expanded schedule)
  kernel-mlir   ``pipeline-opt --pipeline=4wave examples/gemm_loop_4wave.mlir`` (the same
                loop lowered, the kernel's MLIR printed)

CPU time is the child's user + system time (``getrusage``), so that other load on a shared
machine counts less than in wall time; each number is the median of ``--runs``.  The bytecode is
cached (a private ``PYTHONPYCACHEPREFIX`` that a discarded warm-up run of every case fills), as
for an installed tool that has run once.  The goal: ``schedule``, ``help``, ``version`` and
``usage-error`` within 2x ``bare-python``; the kernel cases import only what their passes run
(no front-end rewriting, ISA report, emulator or simulator).  What they import is pinned by
``test/unit/tools/test_startup.py``; this script only measures.

    .venv/bin/python benchmarks/bench_startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_pipeline_opt import tool

#: the kernel file of the kernel cases: a concrete-form K-loop (tagged ops) for ``4wave``
KERNEL = str(Path(__file__).resolve().parents[1] / "examples" / "gemm_loop_4wave.mlir")

CORE = ("from pipeline_mlir.schedules.registry import parse_pipeline\n"
        "from pipeline_mlir.schedule.printing import format_schedule\n"
        "format_schedule(parse_pipeline('4wave').compile())\n")


def cases() -> dict[str, list[str]]:
    return {
        "bare-python": [sys.executable, "-c", "pass"],
        "core": [sys.executable, "-c", CORE],
        "schedule": tool() + ["--pipeline=4wave", "--emit=schedule"],
        "help": tool() + ["--help"],
        "version": tool() + ["--version"],
        "usage-error": tool() + ["--pipeline=4wave", "--frobnicate"],
        "kernel-schedule": tool() + ["--pipeline=4wave", "--emit=schedule", KERNEL],
        "kernel-mlir": tool() + ["--pipeline=4wave", KERNEL],
    }


def cpu_seconds(cmd: list[str], env: dict) -> float:
    """User + system CPU time of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    args = ap.parse_args()
    pyc_dir = tempfile.mkdtemp(prefix="bench-pyc-")
    env = dict(os.environ, PYTHONPYCACHEPREFIX=pyc_dir)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        commands = cases()
        for cmd in commands.values():  # warm-up: fills the bytecode cache
            cpu_seconds(cmd, env)
        # the runs interleaved, so that a change of load affects every case alike
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                samples[name].append(cpu_seconds(cmd, env))
    finally:
        shutil.rmtree(pyc_dir, ignore_errors=True)
    medians = {name: statistics.median(s) for name, s in samples.items()}
    base = medians["bare-python"]
    print(f"pipeline-opt start-up: CPU time (user + system), median of {args.runs} runs, "
          f"bytecode cached")
    print(f"  {'case':<15} {'ms':>7}  {'x bare':>6}  {'range ms':>11}")
    for name, t in medians.items():
        lo, hi = min(samples[name]) * 1e3, max(samples[name]) * 1e3
        print(f"  {name:<15} {t * 1e3:7.1f}  {t / base:6.2f}  {lo:5.0f}-{hi:<5.0f}")


if __name__ == "__main__":
    main()
