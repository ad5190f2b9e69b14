"""The code paths the test suite spends its time in: this checkout against another, one run.

Each case is one fresh ``pipeline-opt`` (or ``python -c``) process, run in one tree (its
root the working directory and ``PYTHONPATH``), then in the other, the runs of the
two trees interleaved so that a change of load affects both alike.  Per case and tree: the
CPU seconds (user + system of the process and its children, ``getrusage``, so other load on
a shared machine counts less than in wall time), the median over ``--runs`` runs after a
discarded warm-up run that fills a private bytecode cache, the ratio base / this (above 1:
this checkout is faster) and whether the two printed the same (timings masked).  The cases:

* ``registry-import``: ``import pipeline_mlir.passes.registry`` (every pass-pipeline run
  starts with it);
* ``adopt-natural``: the front end on the natural 4-wave kernel of the lit tests
  (``sched-adopt-loop``), what most front-end lit RUN lines cost;
* ``report-pingpong``: ``--emit=report`` of the ping-pong kernel (the LDS bank model on
  every access, the simulator);
* ``iree-emulate-4096``: IREE's 4096^3 dispatch pipelined and two of its workgroups
  emulated in late mode, C (64 MB) checked;
* ``pingpong-8wave``: the front end re-distributing the copies of IREE's 8-wave 256x128
  bf16 kernel (K step 128) for ``--pipeline=pingpong`` (the kernel is generated with
  ``iree-compile`` first, not timed; skipped without it).

    git worktree add /tmp/base HEAD~3      # the tree to compare with
    .venv/bin/python benchmarks/bench_hotpaths.py --base /tmp/base [--runs 3] [--only CASE]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
OPT = "from pipeline_mlir.tools.pipeline_opt import main; raise SystemExit(main())"
IREE_4096 = "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"
NATURAL = "test/lit/passes/Inputs/natural-4wave.mlir"
EIGHT_WAVE = "matmul_bf16_abt_256x128_k128_8wave"


def _opt(*args: str) -> list[str]:
    return [sys.executable, "-c", OPT, *args]


def cases(work: Path) -> dict[str, list[str] | None]:
    """name -> argv (None: not runnable here, and why is printed)."""
    out = {
        "registry-import": [sys.executable, "-c", "import pipeline_mlir.passes.registry"],
        "adopt-natural": _opt(NATURAL, "--pass-pipeline=builtin.module("
                              "sched-adopt-loop{schedule=4wave})"),
        "report-pingpong": _opt("--pipeline=pingpong", "--emit=report"),
        "iree-emulate-4096": _opt("--pipeline=4wave", "--emulate", IREE_4096,
                                  "--emulate-workgroups=2", "--emulate-mode=late",
                                  "--emulate-jobs=1"),
        "pingpong-8wave": None,
    }
    src = _eight_wave(work)
    if src is not None:
        out["pingpong-8wave"] = _opt("--pipeline=pingpong", str(src), "--emit=schedule-json")
    return out


def _eight_wave(work: Path) -> Path | None:
    """IREE's 8-wave kernel at its prefetch point, generated with ``iree-compile``."""
    sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
    try:
        import generate as G

        G.tool("iree-compile")
        text = G.forms(G.matmul_source(**G.EIGHT_WAVE[EIGHT_WAVE]))["prefetch"]
    except Exception as e:          # no iree-compile, or it failed: say so, run the rest
        print(f"pingpong-8wave: skipped ({str(e).splitlines()[0][:100]})")
        return None
    path = work / f"{EIGHT_WAVE}.prefetch.mlir"
    path.write_text(text)
    return path


def _masked(text: str) -> str:
    """Output with its timings masked (what may differ between two runs of one tree)."""
    return re.sub(r"\d[\d,.]* (s|instructions/s)\b", r"<t> \1", text)


def run(argv: list[str], tree: Path, cache: Path) -> tuple[float, int, str]:
    """(CPU seconds, exit status, masked output) of ``argv`` run with ``tree``'s package."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # run in the tree itself: ``python -c`` puts its working directory first on sys.path
    proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.returncode, _masked(proc.stdout + proc.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, type=Path,
                    help="the other checkout (its root, holding pipeline_mlir/)")
    ap.add_argument("--runs", type=int, default=1, help="timed runs per case and tree")
    ap.add_argument("--only", action="append", default=[], help="run only this case")
    args = ap.parse_args()
    if not (args.base / "pipeline_mlir" / "__init__.py").is_file():
        raise SystemExit(f"--base {args.base}: no pipeline_mlir/ package there")
    trees = {"base": args.base.resolve(), "this": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        todo = {n: a for n, a in cases(work).items() if not args.only or n in args.only}
        print(f"{'case':<20} {'base CPU s':>10} {'this CPU s':>10} {'base/this':>9}  same output")
        total = {"base": 0.0, "this": 0.0}
        for name, argv in todo.items():
            if argv is None:
                continue
            times: dict[str, list[float]] = {t: [] for t in trees}
            outs: dict[str, set] = {t: set() for t in trees}
            for k in range(args.runs + 1):
                for t, tree in trees.items():
                    cpu, rc, out = run(argv, tree, work / f"pycache-{t}")
                    outs[t].add((rc, out))
                    if k:                      # the first run fills the bytecode cache
                        times[t].append(cpu)
            b, m = median(times["base"]), median(times["this"])
            total["base"] += b
            total["this"] += m
            same = "yes" if outs["base"] == outs["this"] and len(outs["this"]) == 1 else "NO"
            print(f"{name:<20} {b:>10.2f} {m:>10.2f} {b / m:>8.2f}x  {same}")
        if total["this"]:
            print(f"{'all':<20} {total['base']:>10.2f} {total['this']:>10.2f} "
                  f"{total['base'] / total['this']:>8.2f}x")


if __name__ == "__main__":
    main()
