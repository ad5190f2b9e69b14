"""Register-staged copies beside DMA copies in one K-loop: the slot form against loads
issued an iteration ahead with the loop's vmcnt waits re-derived.

IREE's fp8 A x B^T 4096^3 kernel (``iree-compile`` at its prefetch point: a
128x128 tile, K step 128, copies through registers that the front end makes direct-to-LDS
copies).  IREE's default tiles give no kernel the front end accepts with one operand's
rows 16-byte aligned and the other's not, so operand A's copies are register-staged here
by ``sched-stage-copies``'s public option ``force-sources=0`` (a staged copy moves what
the DMA moves: the kernel still computes A x B^T); B's stay DMA copies.
Four kernels, each compiled by pipeline-opt's LLVM step:

* ``IREE 2-stage prefetch``: IREE 3.13's own pipelining of the same dispatch;
* ``4-wave, all DMA``: the kernel as the front end takes it;
* ``4-wave, A staged in its slot``: A's copies staged where the schedule placed them (the
  only form a mixed loop had before; the option ``ahead=false``);
* ``4-wave, A staged ahead``: A's loads issued an iteration ahead, B's vmcnt waits
  re-derived (``pipeline_mlir/passes/_stage_mixed.py``).

For each, the main loop's instructions per K tile and the simulated cycles per K tile
(``pipeline-opt --simulate FILE.s --report``, both cost tables; one CU, the simulator's
model, not hardware)::

    python benchmarks/bench_stage_mixed.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_iree as BI  # noqa: E402

from pipeline_mlir.tools.pipeline_opt import main as pipeline_opt  # noqa: E402

G = BI.G
SPEC = "4wave{dtype=fp8 BM=128 BN=128 BK=128}"
MFMAS_PER_K_TILE = 16   # 4x4 MFMAs 16x16x128 per wave and K tile of 128
MATMUL = dict(dtype="fp8", m=4096, n=4096, k=4096)
#: the sched-stage-copies options of each variant of ours (None: the named pipeline alone)
VARIANTS = {"4-wave, all DMA": None,
            "4-wave, A staged in its slot": "force-sources=0 ahead=false",
            "4-wave, A staged ahead": "force-sources=0"}


def _compile(src: Path, options: str | None, asm: Path) -> bool:
    """``src`` through ``--pipeline=4wave`` to ``asm``, with ``sched-stage-copies{options}``
    before the LLVM step; whether it succeeded."""
    if options is None:
        return pipeline_opt(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(asm)]) == 0
    lowered = asm.with_suffix(".mlir")
    return (pipeline_opt(["--pipeline=4wave", str(src), "-o", str(lowered)]) == 0 and
            pipeline_opt([str(lowered), "--pass-pipeline=builtin.module(sched-stage-copies"
                          f"{{{options}}},sched-to-llvm)", "--emit=asm", "-o", str(asm)]) == 0)


def kernels(d: Path) -> dict[str, Path]:
    source = G.matmul_source(**MATMUL)
    own = d / "iree_prefetch.s"
    own.write_text(G.iree_prefetch_asm(source))
    out = {"IREE 2-stage prefetch": own}
    src = d / "prefetch.mlir"
    src.write_text(G.prefetch_point(source))
    for i, (name, options) in enumerate(VARIANTS.items()):
        asm = d / f"ours{i}.s"
        if not _compile(src, options, asm):
            raise RuntimeError(f"pipeline-opt failed on {name}")
        out[name] = asm
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, path in kernels(Path(tmp)).items():
            counts = BI.loop_counts(path.read_text())
            tiles = counts["mfma"] / MFMAS_PER_K_TILE
            rows.append((name, tiles, counts, BI.simulate(path, SPEC)))
    BI.print_table(rows, BI.KINDS + (("buffer_load (registers)", "vmem_load"),
                                     ("ds_write", "ds_write")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
