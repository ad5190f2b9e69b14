"""Wall time of ``pipeline-opt`` end to end, and the share of each pass (``--mlir-timing``).

Cases:
  abstract-mlir   the abstract 4-wave pipeline (default body) to --emit=mlir
  concrete-asm    the 4-wave concrete example kernel (examples/concrete_kernel.py) to --emit=asm
  concrete-hsaco  the same to a linked code object
  gemm-4wave      the complete 4-wave BF16 GEMM kernel (no input) to a code object
  gemm-pingpong   the complete ping-pong BF16 GEMM kernel (no input) to a code object
  bare-python     ``python -c pass``: the floor every run pays (for ratios)

Prints medians over N runs and, for three cases, the pass table MLIR prints with
``--mlir-timing`` (from one run).  Only ratios within one run compare across machines.
Goal: the concrete kernel to asm in under 2 s.

    .venv/bin/python benchmarks/bench_pipeline_opt.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tool() -> list[str]:
    exe = Path(sys.executable).with_name("pipeline-opt")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt"]


def timed(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def pass_table(cmd: list[str]) -> str:
    r = subprocess.run(cmd + ["--mlir-timing"], check=True, capture_output=True, text=True)
    lines = [ln for ln in r.stderr.splitlines() if "(" in ln and "%" in ln]
    return "\n".join("    " + ln.strip() for ln in lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "examples"))
    from concrete_kernel import kernel_text

    with tempfile.TemporaryDirectory() as d:
        k = Path(d) / "k.mlir"
        k.write_text(kernel_text("4wave"))
        # the example issues one instruction per logical load: say so (sched-import checks it)
        concrete = "--pipeline=4wave{vm_per_load_a=1 vm_per_load_b=1 lgkm_per_load_a=1 " \
                   "lgkm_per_load_b=1}"
        out = os.path.join(d, "out")
        empty = Path(d) / "empty.mlir"
        empty.write_text("")
        abstract = Path(d) / "abstract.mlir"  # the abstract pipeline of the default body
        subprocess.run(tool() + [str(empty), "--pass-pipeline=builtin.module(sched-import{"
                                 "schedule=4wave})", "-o", str(abstract)], check=True)
        cases = {
            "bare-python": [sys.executable, "-c", "pass"],
            "abstract-mlir": tool() + [str(abstract), "--pipeline=4wave", "--emit=mlir", "-o",
                                       out],
            "concrete-asm": tool() + [concrete, str(k), "--emit=asm", "-o", out],
            "concrete-hsaco": tool() + [concrete, str(k), "--emit=hsaco", "-o", out],
            "gemm-4wave": tool() + ["--pipeline=4wave", "--emit=hsaco", "-o", out],
            "gemm-pingpong": tool() + ["--pipeline=pingpong", "--emit=hsaco", "-o", out],
        }
        medians = {name: timed(cmd, args.runs) for name, cmd in cases.items()}
        base = medians["bare-python"]
        print(f"pipeline-opt wall time, median of {args.runs} runs")
        for name, t in medians.items():
            print(f"  {name:<15} {t * 1000:8.0f} ms   x{t / base:5.1f} bare python")
        for name in ("abstract-mlir", "concrete-asm", "gemm-pingpong"):
            cmd = [c for c in cases[name] if c not in ("-o", out)]
            print(f"\npasses of {name} (--mlir-timing, one run; LLVM codegen is not a pass)")
            print(pass_table(cmd + ["-o", out]))


if __name__ == "__main__":
    main()
