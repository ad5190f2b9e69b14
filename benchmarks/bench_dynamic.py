"""IREE's dispatches with sizes known only at launch, pipelined by the 4-wave schedule,
against the same dispatch of static sizes and against IREE's own pipelining of that one.

IREE 3.13 builds no MFMA kernel of a dynamic M, N or K that it could pipeline itself
(docs/iree-dynamic-sizes.md, "Sizes known only at launch"), so its own build of the *static*
dispatch is the reference: ``iree-compile --iree-llvmgpu-prefetch-num-stages=2`` of the
bf16 ``A x B^T`` matmul.  The dynamic dispatches are IREE's at its prefetch point made
dynamic by ``test/data/iree/dynamic.py`` (M, M and N, K, M and K on the 4096^3
dispatch; M, M and N on the 1024^3 one, whose copies the front end makes itself), each
pipelined by ``pipeline-opt --pipeline=4wave --emit=asm``.  For each kernel: the main
loop's instructions per K tile and the simulated cycles per K tile (``pipeline-opt
--simulate FILE.s --report``, both cost tables; one CU, the simulator's model, not
hardware)::

    python benchmarks/bench_dynamic.py [--size=4096|1024]

``--padded``: IREE's own dispatches of M (M and N) known at launch with its MFMA
configuration forced with ``padding`` (``dynamic.padded_source``: rows copied through
registers, masked by M and N), against IREE's own 2-stage prefetch build of the same
dispatch, pipelined from the prefetch point and from the late form; the front end makes the
masked copies plain copies (``pipeline_mlir/frontend/masked_rows.py``,
``masked_rows_late.py``)::

    python benchmarks/bench_dynamic.py --padded
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402
from bench_iree import loop_counts, print_table, simulate  # noqa: E402

#: size -> (the simulator's spec, MFMAs per wave and K tile, the dynamic forms: name ->
#: dynamic.dynamic arguments)
SIZES = {4096: ("4wave{BM=128 BN=128 BK=32}", 16,
                {"M dynamic": dict(m=True), "M and N dynamic": dict(m=True, n=True),
                 "K dynamic": dict(m=False, k="?"), "M and K dynamic": dict(m=True, k="?")}),
         1024: ("4wave{dtype=bf16 BM=64 BN=128 BK=128}", 32,
               {"M dynamic": dict(m=True), "M and N dynamic": dict(m=True, n=True)})}


def kernels(d: Path, size: int) -> dict[str, Path]:
    """name -> the assembly of each kernel of the table."""
    source = G.matmul_source(dtype="bf16", m=size, n=size, k=size)
    out = {"IREE 2-stage prefetch (static)": d / "iree.s"}
    out["IREE 2-stage prefetch (static)"].write_text(G.iree_prefetch_asm(source))
    static = G.prefetch_point(source)
    forms = {"4-wave (static)": static} | {
        f"4-wave ({name})": D.dynamic(static, **args) for name, args in SIZES[size][2].items()}
    for i, (name, text) in enumerate(forms.items()):
        src, asm = d / f"k{i}.mlir", d / f"k{i}.s"
        src.write_text(text)
        subprocess.run([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt",
                        "--pipeline=4wave", str(src), "--emit=asm", "-o", str(asm)], check=True)
        out[name] = asm
    return out


def padded_kernels(d: Path) -> dict[str, Path]:
    """name -> the assembly of each kernel of the ``--padded`` table."""
    out = {}
    for i, (name, n) in enumerate((("M dynamic", False), ("M and N dynamic", True))):
        source = D.padded_source(n)
        out[f"IREE 2-stage prefetch (padded, {name})"] = d / f"iree{i}.s"
        (d / f"iree{i}.s").write_text(G.iree_prefetch_asm(source))
        for form, text in G.forms(source).items():
            src, asm = d / f"p{i}{form}.mlir", d / f"p{i}{form}.s"
            src.write_text(text)
            subprocess.run([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt",
                            "--pipeline=4wave", str(src), "--emit=asm", "-o", str(asm)],
                           check=True)
            out[f"4-wave (padded, {name}, {form} form)"] = asm
    return out


def main(argv: list[str]) -> int:
    if argv == ["--padded"]:
        spec, mfmas = SIZES[4096][:2]
        with tempfile.TemporaryDirectory() as tmp:
            rows = [(name, loop_counts(path.read_text())["mfma"] / mfmas,
                     loop_counts(path.read_text()), simulate(path, spec))
                    for name, path in padded_kernels(Path(tmp)).items()]
        print_table(rows)
        return 0
    given = argv[0].removeprefix("--size=") if argv else "4096"
    size = int(given) if given.isdigit() else None
    if len(argv) > 1 or size not in SIZES or (argv and not argv[0].startswith("--size=")):
        sizes = "|".join(map(str, SIZES))
        print(f"usage: bench_dynamic.py [--size={sizes}|--padded]", file=sys.stderr)
        return 2
    spec, mfmas, _forms = SIZES[size]
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, path in kernels(Path(tmp), size).items():
            counts = loop_counts(path.read_text())
            tiles = counts["mfma"] / mfmas
            rows.append((name, tiles, counts, simulate(path, spec)))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
