"""Register-staged copies beside DMA copies in one K-loop: the slot form against loads
issued an iteration ahead with the loop's vmcnt waits re-derived.

IREE's fp8 A x B^T 4096^3 kernel (``iree-compile`` at its prefetch point: a
128x128 tile, K step 128, copies through registers that the front end makes direct-to-LDS
copies).  IREE's default tiles give no kernel the front end accepts with one operand's
rows 16-byte aligned and the other's not, so operand A's copies are made register-staged
here by the front end's alignment check answering "not aligned" for A's source (a staged
copy moves what the DMA moves: the kernel still computes A x B^T); B's stay DMA copies.
Four kernels, each compiled by pipeline-opt's LLVM step:

* ``IREE 2-stage prefetch``: IREE 3.13's own pipelining of the same dispatch;
* ``4-wave, all DMA``: the kernel as the front end takes it;
* ``4-wave, A staged in its slot``: A's copies staged where the schedule placed them (the
  only form a mixed loop had before);
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
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_iree as BI  # noqa: E402

from pipeline_mlir.frontend import regcopy as R  # noqa: E402
from pipeline_mlir.passes import stage_copies as SC  # noqa: E402
from pipeline_mlir.tools.pipeline_opt import main as pipeline_opt  # noqa: E402

G = BI.G
SPEC = "4wave{dtype=fp8 BM=128 BN=128 BK=128}"
MFMAS_PER_K_TILE = 16   # 4x4 MFMAs 16x16x128 per wave and K tile of 128
MATMUL = dict(dtype="fp8", m=4096, n=4096, k=4096)


def stage_a():
    """The front end's alignment check, answering 'not aligned' for the first source."""
    real, first = R._check_source, []

    def check(ev, a):
        root = ev.view(a.src).root
        if not first:
            first.append(root)
        return real(ev, a) and root != first[0]
    return mock.patch.object(R, "_check_source", check)


def _slot_form():
    """sched-stage-copies keeping every staged copy in its slot."""
    return mock.patch.object(SC, "plan", lambda *a: "the benchmark's slot form")


def kernels(d: Path) -> dict[str, Path]:
    source = G.matmul_source(**MATMUL)
    own = d / "iree_prefetch.s"
    own.write_text(G.iree_prefetch_asm(source))
    out = {"IREE 2-stage prefetch": own}
    src = d / "prefetch.mlir"
    src.write_text(G.prefetch_point(source))
    variants = {"4-wave, all DMA": (), "4-wave, A staged in its slot": (stage_a, _slot_form),
                "4-wave, A staged ahead": (stage_a,)}
    for i, (name, patches) in enumerate(variants.items()):
        asm = d / f"ours{i}.s"
        with ExitStack() as stack:
            for p in patches:
                stack.enter_context(p())
            if pipeline_opt(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(asm)]):
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
