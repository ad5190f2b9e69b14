"""The Python passes' CPU time on IREE's committed kernels and the shipped 4-wave examples.

Each case is ``pipeline-opt --pipeline=4wave --emit=mlir INPUT`` run in this process (the
MLIR context, the imports and IREE's kernels built once, not timed), ``time.process_time``
best of ``--runs`` (and its front end's, ``sched-adopt-loop``); per Python pass the CPU
seconds of the best run are summed over the cases; ``--emit=schedule-json`` prints the
schedule instead of the kernel.  Every output is written to ``--out`` (a directory):
``--check DIR`` compares the outputs with those of an earlier run (a change meant to
make the passes faster must leave them byte-identical).  ``--extra DIR`` adds the
``*.mlir`` files of ``DIR`` to the cases (kernels generated outside the tree, e.g. with
``test/data/iree/generate.py``, named as given).

    .venv/bin/python benchmarks/bench_passes.py --out /tmp/before
    .venv/bin/python benchmarks/bench_passes.py --out /tmp/after --check /tmp/before
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "test/lit/passes/Inputs"
#: the kernels: IREE's committed 4096^3 bf16 kernel and the lit inputs built from IREE
#: (both forms of each), then the 4-wave examples
CASES = sorted((ROOT / "test/data/iree").glob("*.mlir")) + sorted(INPUTS.glob("iree-*.mlir")) + [
    ROOT / "examples/gemm_loop_4wave.mlir", INPUTS / "natural-4wave.mlir",
    INPUTS / "slot-1wave.mlir"]


def _timed_passes() -> dict:
    """A dict each Python pass's CPU time is added to, under its name (the pass classes'
    ``__call__`` wrapped once, for this process)."""
    from pipeline_mlir.passes import _common

    spent: dict = defaultdict(float)
    for cls in (_common.SchedPass, _common.ModulePass):
        def timed(self, op, pass_, _call=cls.__call__):
            start = time.process_time()
            try:
                _call(self, op, pass_)
            finally:
                spent[self.name] += time.process_time() - start
        cls.__call__ = timed
    return spent


def _run(main, path: Path, out: Path, emit: str) -> tuple[int, str]:
    err = io.StringIO()
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    with contextlib.redirect_stderr(err), contextlib.chdir(ROOT):   # (messages name the
        status = main(["--pipeline=4wave", f"--emit={emit}",       # input as in the tree)
                       name, "-o", str(out.resolve())])
    return status, err.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, required=True, help="directory for the outputs")
    parser.add_argument("--check", type=Path, help="directory of an earlier run's outputs")
    parser.add_argument("--only", help="cases whose file name contains this")
    parser.add_argument("--extra", type=Path, help="a directory of further *.mlir cases")
    parser.add_argument("--emit", default="mlir", choices=("mlir", "schedule-json"),
                        help="what pipeline-opt prints (the front end's share is the same)")
    args = parser.parse_args(argv)
    from pipeline_mlir.tools.pipeline_opt import main as opt

    args.out.mkdir(parents=True, exist_ok=True)
    spent = _timed_passes()
    total, per_pass, differ = 0.0, defaultdict(float), []
    extra = sorted(args.extra.resolve().glob("*.mlir")) if args.extra else []
    for path in CASES + extra:
        if args.only and args.only not in path.name:
            continue
        out = args.out / f"{path.stem}.out.{'mlir' if args.emit == 'mlir' else 'json'}"
        best, best_spent = None, None
        for _ in range(args.runs):
            spent.clear()
            gc.collect()
            start = time.process_time()
            status, err = _run(opt, path, out, args.emit)
            took = time.process_time() - start
            if best is None or took < best:
                best, best_spent = took, dict(spent)
        (args.out / f"{path.stem}.status").write_text(f"{status}\n{err}")
        total += best
        for name, seconds in best_spent.items():
            per_pass[name] += seconds
        same = ""
        if args.check:
            same = " same" if all(
                (args.check / f.name).read_bytes() == f.read_bytes()
                for f in (out, args.out / f"{path.stem}.status")
                if f.exists()) and out.exists() == (args.check / out.name).exists() else " DIFFERS"
            if same == " DIFFERS":
                differ.append(path.name)
        front = best_spent.get("sched-adopt-loop", 0.0)
        print(f"{best:7.3f} s  front end {front:6.3f} s  status {status}  {path.name}{same}",
              flush=True)
    print(f"{total:7.3f} s  total")
    for name, seconds in sorted(per_pass.items(), key=lambda kv: -kv[1]):
        print(f"{seconds:7.3f} s  {name}")
    if differ:
        print("outputs differ:", ", ".join(differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
