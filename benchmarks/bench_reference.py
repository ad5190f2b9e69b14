"""Our shipped kernels against the reference's, per main-loop iteration, as ratios.

For each shipped kernel this builds our kernel now (``pipeline-opt --pipeline=SPEC
--emit=asm``, in process), takes the main loop of its assembly and measures:

* cycles per main-loop iteration in the project's simulator on the assembly (what
  ``pipeline-opt --simulate kernel.s --pipeline=SPEC --report`` prints), llvm and measured
  cost tables;
* llvm-mca-22, single wave, on the loop body (``-iterations=100``, total cycles / 100),
  when ``llvm-mca-22`` is installed;
* VALU instructions per iteration (``v_*`` other than MFMA, as ``--report`` counts them,
  :func:`pipeline_mlir.isa.report.loop_counts`), VGPRs (``.vgpr_count``),
  MFMA busy (measured table, mean over the SIMDs).

The reference's figures come from ``reference_figures.json`` (its ``source`` says where
they come from): its assembly measured with the functions below (``loop_text``,
``run_mca``, the simulator's loop timing), so every column compares like with like. Every
ratio is ours / the reference's: below 1.00 means fewer cycles, VALU or VGPRs than the
reference (better); for MFMA busy, above 1.00 is better.

    .venv/bin/python benchmarks/bench_reference.py [--no-mca] [--kernel NAME ...]

``--measure-asm FILE --kernel NAME`` measures the assembly in FILE instead (the reference's,
say, with NAME's launch shape) and prints its figures as ``reference_figures.json`` holds
them: how that file's figures are re-taken when the tools change.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIGURES = HERE / "reference_figures.json"
MCA = "llvm-mca-22"
MCA_ITERATIONS = 100
COLUMNS = (("llvm_mca", "llvm-mca", "{:.1f}"), ("sim_llvm", "sim llvm", "{:.1f}"),
           ("sim_measured", "sim measured", "{:.1f}"), ("valu", "VALU", "{:d}"),
           ("vgprs", "VGPRs", "{:d}"), ("mfma_busy", "MFMA busy", "{:.0%}"))


def loop_text(asm: str) -> str:
    """The main loop of ``asm`` as llvm-mca takes it (a label, then the instructions)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.sim.timing import function_main_loop

    fn = parse_asm(asm).function()
    return mca_text(fn, function_main_loop(fn))


def mca_text(fn, loop: list) -> str:
    """The main loop ``loop`` of the parsed function ``fn`` as llvm-mca takes it."""
    return f"{fn.main_loop()[0].label}:\n" + "".join("\t" + i.text + "\n" for i in loop)


def run_mca(loop: str) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
        f.write(loop)
        f.flush()
        out = subprocess.run([MCA, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950",
                              f"-iterations={MCA_ITERATIONS}", "-json", f.name],
                             capture_output=True, text=True, check=True)
    region = json.loads(out.stdout)["CodeRegions"][0]
    return region["SummaryView"]["TotalCycles"] / MCA_ITERATIONS


def measure(spec: str, mca: bool) -> dict:
    """Our kernel's figures, measured now."""
    from pipeline_mlir.driver import CompileOptions, compile

    return measure_asm(compile(CompileOptions(schedule=spec, emit="asm")).checked_output(), spec,
                       mca)


def measure_asm(asm: str, spec: str, mca: bool) -> dict:
    """The figures of a kernel's gfx950 assembly ``asm`` (ours or the reference's) whose
    launch shape (waves, warp groups) is that of the pipeline ``spec``."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.report import loop_counts, resources_from_asm
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.timing import from_asm, function_main_loop, simulate_loop_body
    from pipeline_mlir.sim.report import TIMING_ITERATIONS
    from pipeline_mlir.sim.trace import kernel_shape

    module = parse_asm(asm)
    fn = module.function()
    loop = function_main_loop(fn)
    body = from_asm(loop)
    shape = kernel_shape(parse_pipeline(spec))
    got = {"valu": loop_counts(fn)["VALU"],
           "mfma": sum(i.kind == "mfma" for i in loop),
           "vgprs": resources_from_asm(module, fn.name).vgprs}
    for table in ("llvm", "measured"):
        a = simulate_loop_body(body, shape.waves, TIMING_ITERATIONS, table,
                               stagger=shape.groups == 2)
        got[f"sim_{table}"] = a.achieved_ii
        if table == "measured":
            got["mfma_busy"] = sum(a.mfma_busy.values()) / len(a.mfma_busy)
    got["llvm_mca"] = run_mca(mca_text(fn, loop)) if mca else None
    return got


def fmt(fmt_text: str, v) -> str:
    return "-" if v is None else fmt_text.format(v)


def measure_file(path: str, names: list[str], kernels: dict, mca: bool) -> int:
    """``--measure-asm``: the figures of the assembly in ``path``, as JSON on stdout."""
    from pipeline_mlir.errors import PipelineError

    if len(names) != 1:
        print(f"bench_reference: --measure-asm needs exactly one --kernel (its launch shape), "
              f"got {len(names)}", file=sys.stderr)
        return 1
    try:
        asm = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        print(f"bench_reference: cannot read {path}: {e}", file=sys.stderr)
        return 1
    try:
        got = measure_asm(asm, kernels[names[0]]["spec"], mca)
    except PipelineError as e:
        print(f"bench_reference: {path}: {e}", file=sys.stderr)
        return 1
    keys = [k for k in kernels[names[0]] if k != "spec"]
    print(json.dumps({k: got[k] for k in keys}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-mca", action="store_true", help="skip llvm-mca-22 even if installed")
    ap.add_argument("--kernel", action="append", default=None,
                    help="only this kernel (repeatable; names as in reference_figures.json)")
    ap.add_argument("--measure-asm", metavar="FILE",
                    help="print the figures of the gfx950 assembly in FILE (with one --kernel "
                         "for its launch shape) as reference_figures.json holds them")
    args = ap.parse_args(argv)
    doc = json.loads(FIGURES.read_text())
    kernels = doc["kernels"]
    names = args.kernel or list(kernels)
    unknown = [n for n in names if n not in kernels]
    if unknown:
        print(f"bench_reference: unknown kernel {unknown[0]!r} (known: {', '.join(kernels)})",
              file=sys.stderr)
        return 1
    mca = not args.no_mca and shutil.which(MCA) is not None
    if args.measure_asm is not None:
        return measure_file(args.measure_asm, names, kernels, mca)
    print("reference figures: " + doc["source"])
    print(f"llvm-mca: {MCA + ' (single wave, loop body)' if mca else 'not run (' + (MCA + ' not installed' if not args.no_mca else '--no-mca') + ')'}")
    print("ratio = ours / reference per main-loop iteration (< 1.00: fewer; MFMA busy: > 1.00 "
          "is busier)")
    print()
    head = ["kernel"] + [label for _, label, _ in COLUMNS]
    rows = [head]
    for name in names:
        ref = kernels[name]
        ours = measure(ref["spec"], mca)
        cells = [name]
        for key, _, f in COLUMNS:
            a, b = ours.get(key), ref.get(key)
            ratio = f"{a / b:.3f}" if a is not None and b else "-"
            cells.append(f"{fmt(f, a)} / {fmt(f, b)} = {ratio}")
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for k, r in enumerate(rows):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
