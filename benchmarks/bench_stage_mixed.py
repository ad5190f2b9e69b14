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
model, not hardware; the simulator times the main loop's steady state only), and, for the
prologue, which the steady state does not see: the most VMEM operations each of its
barriers may leave in flight (in-order ``vmcnt``: each VMEM instruction adds one, each
``s_waitcnt vmcnt(n)`` lowers the count to ``n``; what the prologue's waits, LLVM's
included, let overlap the barriers)::

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


#: the instruction kinds ``vmcnt`` counts (:mod:`pipeline_mlir.isa.asm_instr`)
VMEM_KINDS = ("vmem_load_lds", "vmem_load", "vmem_store")


def prologue_in_flight(asm: str) -> list[int]:
    """The most VMEM operations in flight at each barrier before the main loop (module
    docstring)."""
    fn = next(f for f in BI.parse_asm(asm).functions if any(i.kind == "mfma" for i in f.instrs()))
    n, out = 0, []
    for i in fn.main_loop_phases()["prologue"]:
        if i.kind in VMEM_KINDS:
            n += 1
        elif i.mnemonic == "s_waitcnt" and i.vm is not None:
            n = min(n, i.vm)
        elif i.mnemonic == "s_barrier":
            out.append(n)
    return out


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
        rows, flight = [], {}
        for name, path in kernels(Path(tmp)).items():
            counts = BI.loop_counts(path.read_text())
            tiles = counts["mfma"] / MFMAS_PER_K_TILE
            rows.append((name, tiles, counts, BI.simulate(path, SPEC)))
            flight[name] = prologue_in_flight(path.read_text())
    BI.print_table(rows, BI.KINDS + (("buffer_load (registers)", "vmem_load"),
                                     ("ds_write", "ds_write")))
    print("\n| kernel | prologue: VMEM operations in flight at each barrier |\n|---|---|")
    for name, counts in flight.items():
        print(f"| {name} | {' / '.join(map(str, counts)) or 'no barrier'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
