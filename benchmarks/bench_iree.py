"""IREE's own pipelining against the 4-wave schedule on IREE's bf16 A x B^T 4096^3 kernel
(and against the ping-pong schedule on IREE's 8-wave kernels: ``--dtype=bf16-256x256-8wave``,
``--dtype=bf16-256x128-8wave``, ``--dtype=f16-256x256-8wave``, ``--dtype=fp8-256x256-8wave``,
``--dtype=i8-256x256-8wave``; the 4-wave schedule with two of IREE's K steps merged,
``--dtype=bf16-merge-k``, ``--dtype=i8-merge-k``, and as they are, ``--dtype=bf16-no-merge-k``,
``--dtype=i8-no-merge-k`` (and ``-merge-k`` after
``bf16-mfma32``, ``bf16-64x128-2wave``, ``bf16-64x64-1wave``, ``f16-atb-k4100``); with 32x32 MFMAs ``--dtype=bf16-256x256-32x32-8wave``,
``--dtype=i8-256x256-32x32-8wave``, ``--dtype=fp8-256x256-32x32-8wave``,
``--dtype=i8-256x128-2x4-32x32-8wave`` (B split along K),
``--dtype=i8-64x128-2x4-32x32-8wave`` (A and B split along K, crosswise, two of IREE's K
steps merged into one K tile), ``--dtype=bf16-64x128-2x4-32x32-8wave`` and
``--dtype=fp8-64x128-2x4-32x32-8wave`` (the same tile in bf16 and fp8; each also with K
known only at launch, ``...-8wave-dynamic-k``: IREE's dispatch rewritten by
``test/data/iree/dynamic.py``, IREE's own build the static one's, ours not handed back),
``--dtype=i8-64x128-k256-2x4-32x32-8wave`` (IREE's K step forced to 256), and
at K step 128 ``--dtype=bf16-ab-128x128-k128-8wave``, ``--dtype=bf16-atbt-128x128-k128-8wave``,
``--dtype=bf16-256x256-k128-8wave``, ``--dtype=bf16-256x128-k128-8wave``; and against
the 4-wave schedule run by IREE's kernels of other wave counts: ``--dtype=bf16-64x64-1wave``,
``--dtype=bf16-64x128-2wave``, ``--dtype=bf16-256x256-16wave``,
``--dtype=bf16-256x256-8wave-4wave``, ``--dtype=bf16-256x128-8wave-4wave``,
``--dtype=bf16-32x32-1wave``; the skinny problems bf16 32x2048x1024 and f16 2048x32x1024,
``--dtype=bf16-32x2048-skinny``, ``--dtype=f16-2048x32-skinny``, whose one MFMA row or
column per wave is split along K; unaligned K with copies padded by selects,
``--dtype=i8-ab-k4000``, ``--dtype=f16-atb-k4100``; gfx942's 16x16x32 FP8 MFMA, which IREE
picks for fp8 at K = 4000, ``--dtype=fp8-k4000-16x16x32``; partial edge tiles of M and N with
an unaligned K, ``--dtype=bf16-300x4096x1020``; IREE's padded `A^T x B^T` with M at launch, its loop
versioned on the workgroup's tile, ``--dtype=bf16-padatbt-m``; an odd number of K steps
with DMA copies, bf16 2048x2048x1120, timed by the loop and whole, ``--dtype=bf16-odd-k``,
``--dtype=bf16-odd-k-whole``; fp8 ``A x B`` 129x64x1000, whose 3 whole K tiles would leave
the pipelined loop one pair (no steady trip), split into 6 K sub-steps of 128, timed whole,
``--dtype=fp8-ab-129x64x1000``; fp8 ``A^T x B`` 31x112x224, one 16x16x32 MFMA per wave and
K step, 2 K steps merged in the diagonal form, timed whole, ``--dtype=fp8-atb-31x112x224``;
f16 ``A^T x B^T`` 24x5x400, IREE's own 16x16x16 MFMAs, 4 K steps merged, timed whole,
``--dtype=f16-atbt-24x5x400``, and at K = 232, its masked K tail in the pipelined pair,
``--dtype=f16-atbt-24x5x232``; i8 ``A x B^T`` 59x28x496, IREE's own gfx942 32x32x16 i8
MFMAs, ``--dtype=i8-abt-59x28x496``; fp8 E5M2 ``A x B^T`` 95x90x271 from IREE's 3-stage
build, which peels every K tile (its loop rebuilt), timed whole against that build,
``--dtype=fp8e5m2-abt-95x90x271-s3``, and so f16 ``C += A x B`` 156x71x383, C's rows
staged in private memory before the peeled tiles, ``--dtype=f16-acc-ab-156x71x383-s3``;
f32 ``A x B^T`` 4096^3 and ``A x B`` 1024^3, IREE's 16x16x4 f32 MFMAs,
``--dtype=f32-abt-4096``, ``--dtype=f32-ab-1024``, and f32 ``A^T x B`` of a small M, B's
tile copied by 16 threads and spread an element a thread, ``--dtype=f32-atb-94x1826x2660``,
``--dtype=f32-atb-17x164x4066``).

Three gfx950 kernels of the same ``linalg.matmul`` (IREE picks 4 waves, a 128x128 tile,
K step 32, MFMA 16x16x32):

* ``iree-prefetch``: IREE 3.13's own 2-stage shared-memory prefetch pipelining
  (``iree-compile --iree-llvmgpu-prefetch-num-stages=2``);
* ``4wave (pipeline-opt)``: IREE's kernel at its prefetch point, pipelined by
  ``pipeline-opt --pipeline=4wave`` and compiled by pipeline-opt's LLVM step;
* ``4wave (iree-compile)``: the same pipelined kernel handed back to ``iree-compile``
  (executable substitution) and compiled by IREE's LLVM.

For each, the main loop's instructions per K tile (static counts of the loop body divided
by the K tiles it processes) and the simulated cycles per K tile
(``pipeline-opt --simulate FILE.s --report``, both cost tables; one CU, the simulator's
model, not hardware).  Prints the table of docs/iree-own-pipelining.md::

    python benchmarks/bench_iree.py

``--ratios`` prints one row per case instead (all cases, or those named with ``--dtype``):
IREE's cycles per K tile, ours (both builds) and the ratio ours / IREE's.  A case with a
``launch`` (IREE's dynamic-K build, whose copy loops run per-lane trip counts; its padded
K = 200 builds, whose masked copies are branches the lanes skip) has IREE's build timed
with the trip counts and block runs its waves take on the emulator at that launch
(:mod:`pipeline_mlir.driver.measured_trips`; with ``measure_ours`` our builds too), and its
cell says at which K.  A case with ``whole`` (a K-loop so short that LLVM unrolls the
pipelined part: fp8 and i8 at K = 1000) has every build timed whole instead, its first
workgroup's every instruction as the emulator ran it (:func:`whole_cycles`), per K tile it
ran, and its cells say so (where IREE's dumped assembly orders instructions otherwise than
the code object it links, the assembly is what the emulator runs, and the cell says that too) (``...-loop``: the same case timed by its loop).  A case with
``default_build`` gives pipeline-opt the late form of
IREE's default build (IREE's own prefetch pipelining, rolled back by the front end)::

    python benchmarks/bench_iree.py --ratios --dtype=bf16 --dtype=fp8
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections import Counter
from typing import Callable, NamedTuple
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402

from pipeline_mlir.isa.asm import AsmError, parse_asm  # noqa: E402

SPEC = "4wave{BM=128 BN=128 BK=32}"   # the simulator's wave count and counts for assembly
#: IREE's default prefetch stages (2), overriding the 1 generate.forms compiles with: the
#: build a user gets from iree-compile without flags (IREE's own build, iree_prefetch_files)
DEFAULT_BUILD = ("--iree-llvmgpu-prefetch-num-stages=2",)
MERGE_K = "4wave{merge_k=true}"       # the 4-wave schedule with IREE's short K steps merged
#: the 4-wave schedule with IREE's K steps as they are (the default, merge_k=auto, merges
#: the short K steps of the bf16 and i8 kernels: frontend/kmerge_auto.py)
NO_MERGE_K = "4wave{merge_k=false}"
class Case(NamedTuple):
    matmul: dict          # matmul_source arguments
    spec: str             # the simulator's spec (wave count and counts) for the assembly
    pipeline: str         # what pipeline-opt pipelines IREE's kernel with
    mfmas_per_k_tile: int  # MFMAs per wave and K tile (of the kernel's K step)
    flags: tuple = ()      # further iree-compile options (IREE's pipeline, tiles)
    epilogue: str | None = None  # an epilogues.KINDS kind: its epilogue_source instead
    source: Callable[[int], str] | None = None  # the source at IREE's prefetch stages instead
    #: (M, N, K) of a launch: IREE's own build is timed with the trip counts (and the
    #: blocks run) its waves take on the emulator at that launch (measured_cycles)
    launch: tuple[int, int, int] | None = None
    #: IREE's dispatch (prefetch point) rewritten before pipeline-opt takes it (sizes known
    #: only at launch: test/data/iree/dynamic.py); IREE's own build is of the static one,
    #: and ours is not handed back (the source has the static interface)
    dispatch: Callable[[str], str] | None = None
    #: pipeline-opt takes the late form of IREE's default build (IREE's own prefetch
    #: pipelining, which the front end rolls back: frontend/reroll.py, reroll_regs.py)
    #: instead of the prefetch point; IREE's own build is that default build
    default_build: bool = False
    #: with a ``launch``: our builds timed with the blocks their waves run at it too (not
    #: only IREE's), for loops whose guarded loads are branches the lanes skip
    measure_ours: bool = False
    #: with a ``launch`` and ``measure_ours``: every build timed whole (its first
    #: workgroup's every instruction as the emulator ran it: measured_trips.whole_kernel),
    #: per K tile it ran, not its loop: for K-loops so short that LLVM unrolls the
    #: pipelined part and the loop left, if any, is a remainder
    whole: bool = False
    #: with ``whole``: the kernel's K step, the K tiles run then counted as the launch's K
    #: over it (rounded up), not by MFMAs (a loop whose MFMAs the front end halved along K
    #: runs twice as many: frontend/half_k.py)
    k_step: int | None = None


def _eight_wave(kernel: str, spec: str, mfmas: int, k: int = 4096) -> Case:
    """The case of ``G.EIGHT_WAVE``'s (or ``G.EIGHT_WAVE_VARIANTS``')
    ``matmul_{kernel}_8wave`` at 4096x4096xK, pipelined with ``--pipeline=pingpong``
    (``spec``: the simulator's)."""
    configs = G.EIGHT_WAVE | G.EIGHT_WAVE_VARIANTS
    return Case(configs[f"matmul_{kernel}_8wave"] | dict(m=4096, n=4096, k=k), spec,
                "pingpong", mfmas)


def _epilogue(kind: str) -> Case:
    """IREE's default kernel (4 waves, 128x128 tile, K step 32) of bf16 ``A x B^T`` 4096^3
    with the epilogue ``kind`` fused (``epilogues.epilogue_source``): the same main loop."""
    return Case(dict(m=4096, n=4096, k=4096), SPEC, "4wave", 16, epilogue=kind)


def _waves(tile: tuple, waves: tuple, counts: str, mfmas: int) -> Case:
    """IREE's default bf16 configuration at 4096^3 forced to a ``tile`` of ``waves`` (M x N)
    waves (``generate.forced_config``), pipelined with ``--pipeline=4wave`` (``counts``: the
    simulator's spec of the schedule the front end reads from it)."""
    return Case(dict(dtype="bf16", mma="MFMA_F32_16x16x32_BF16", tile=tile, waves=waves),
                f"4wave{{{counts} waves={waves[0] * waves[1]}}}", "4wave", mfmas)


def _padded(n: bool, k: int, spec: str = SPEC, **kw) -> Case:
    """IREE's padded dispatch of M (and N, ``n``) known at launch with K = ``k``
    (``dynamic.padded_source``, ``kw`` its further arguments: ``transpose_a``), IREE's
    build timed as it runs at M (and N) = 4096."""
    return Case(dict(), spec, "4wave", 16, source=lambda stages: D.padded_source(n, k, **kw),
                launch=(4096, 4096, k))


#: the benchmark's cases; 4-wave ones: 4x4 MFMAs 16x16x32 per wave and K tile of 32 (i8:
#: 16x16x64, K tile 64); 8-wave ones (``--pipeline=pingpong``, IREE's tiles forced by a
#: compilation_info): K tile of 64, 2 MFMAs deep, 8x4 (256x256) or 4x4 (256x128) per wave
CASES = {"bf16": Case(G.CONFIGS["matmul_bf16_abt_4096"], SPEC, "4wave", 16),
         "i8": Case(dict(dtype="i8"), "4wave{dtype=i8 BM=128 BN=128 BK=64}", "4wave", 16),
         # the same two with two of IREE's K steps merged into one K tile asked outright
         # (merge_k=true, frontend/kmerge.py; merge_k=auto, the default, merges them too):
         # K tile 64 (i8: 128), cycles still per K step; and as they are (merge_k=false)
         "bf16-merge-k": Case(G.CONFIGS["matmul_bf16_abt_4096"], "4wave{BM=128 BN=128 BK=64}",
                              MERGE_K, 16),
         "i8-merge-k": Case(dict(dtype="i8"), "4wave{dtype=i8 BM=128 BN=128 BK=128}", MERGE_K,
                            16),
         "bf16-no-merge-k": Case(G.CONFIGS["matmul_bf16_abt_4096"], SPEC, NO_MERGE_K, 16),
         "i8-no-merge-k": Case(dict(dtype="i8"), "4wave{dtype=i8 BM=128 BN=128 BK=64}",
                               NO_MERGE_K, 16),
         # plain A x B (B read with transposing reads): bf16 4096^3
         "bf16-ab": Case(dict(dtype="bf16", transpose_b=False), SPEC, "4wave", 16),
         # fp8 A x B (B read with 8-bit transposing reads): K tile 128, 4x4 16x16x128 MFMAs
         "fp8-ab": Case(dict(dtype="fp8", transpose_b=False),
                        "4wave{dtype=fp8 BM=128 BN=128 BK=128 lgkm_per_load_b=8}", "4wave", 16),
         # unaligned K: register-staged copies, the masked last K tile peeled
         "bf16-k4095": Case(dict(dtype="bf16", k=4095), SPEC, "4wave", 16),
         # unaligned K on a small problem: IREE's 64x128 tile at K step 128 (2x4 fragments x
         # 4 K steps per wave), the peeled masked tiles on the schedule's own LDS
         "bf16-k1020": Case(dict(dtype="bf16", m=1024, n=1024, k=1020),
                            "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
                            "lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave", 32),
         # ... with a partial edge tile of M (44 rows): each run of the copies masked by
         # its row and the K left (frontend/masked_rows_k.py, static rows); IREE's masked
         # copies are branches, its build timed with the blocks its waves run at the launch
         "bf16-300x4096x1020": Case(dict(dtype="bf16", m=300, n=4096, k=1020),
                                    "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 "
                                    "vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}",
                                    "4wave", 32, launch=(300, 4096, 1020)),
         "bf16-256x256-8wave": _eight_wave("bf16_abt_256x256", "pingpong", 64),
         "bf16-256x128-8wave": _eight_wave("bf16_abt_256x128", "pingpong", 32),
         # K step 128 (4 MFMAs deep): split by the front end into two K sub-steps of 64
         # (frontend/ksplit.py), IREE's XOR swizzle kept
         "bf16-256x256-k128-8wave": _eight_wave("bf16_abt_256x256_k128", "pingpong", 128),
         "bf16-256x128-k128-8wave": _eight_wave("bf16_abt_256x128_k128", "pingpong", 64),
         # 8-wave 256x256 of the other element types: f16 as bf16; fp8 (E4M3FN) K tile 128,
         # one 16x16x128 MFMA deep; i8 K tile 128, two 16x16x64 MFMAs deep
         "f16-256x256-8wave": _eight_wave("f16_abt_256x256", "pingpong{dtype=f16}", 64),
         "fp8-256x256-8wave": _eight_wave("fp8_abt_256x256", "pingpong{dtype=fp8}", 32),
         "i8-256x256-8wave": _eight_wave("i8_abt_256x256", "pingpong{dtype=i8}", 64),
         # 8-wave 256x256 with IREE's forced 32x32x16 MFMA: 4x2 fragments x 4 K steps
         "bf16-256x256-32x32-8wave": _eight_wave("bf16_abt_256x256_32x32",
                                                 "pingpong{mfma=32x32x16}", 32),
         # the 8-bit 32x32 MFMAs, K tile 128: i8's 32x32x32 (4x2 fragments x 4 K steps),
         # FP8's 32x32x64 (4x2 x 2)
         "i8-256x256-32x32-8wave": _eight_wave("i8_abt_256x256_32x32",
                                               "pingpong{dtype=i8 mfma=32x32x32}", 32),
         "fp8-256x256-32x32-8wave": _eight_wave("fp8_abt_256x256_32x32",
                                                "pingpong{dtype=fp8 mfma=32x32x64}", 16),
         # i8's 32x32x32 at 256x128 in 2x4 waves of 128x32 (4x1 fragments x 4 K steps): B's
         # subtiles its K halves (frontend/k_subtiles.py), whole fragment loads waited for
         "i8-256x128-2x4-32x32-8wave": _eight_wave(
             "i8_abt_256x128_2x4_32x32", "pingpong{dtype=i8 mfma=32x32x32 vm_per_load_a=2 "
             "vm_per_load_b=1 lgkm_per_load_a=8 lgkm_per_load_b=2 waits=block "
             "frags_ahead=balanced-across}", 16),
         # i8's 32x32x32 at 64x128 in 2x4 waves of 32x32 (1x1 fragment x 4 K steps): two
         # of IREE's K steps merged into one K tile of 256 (frontend/kmerge.py), A's
         # subtiles its K halves, B's its alternate K steps (crosswise, frontend/k_subtiles.py)
         "i8-64x128-2x4-32x32-8wave": _eight_wave(
             "i8_abt_64x128_2x4_32x32", "pingpong{dtype=i8 mfma=32x32x32 vm_per_load_a=1 "
             "vm_per_load_b=2 lgkm_per_load_a=4 lgkm_per_load_b=4 waits=block "
             "frags_ahead=balanced-across}", 4),
         # the same tile in bf16 (32x32x16, K step 64) and fp8 (32x32x64, K step 128: a chain
         # of 2, which only merged K steps cut into the crosswise split's 4 runs)
         "bf16-64x128-2x4-32x32-8wave": Case(
             dict(dtype="bf16", m=4096, n=4096, k=4096, transpose_b=True,
                  mma="MFMA_F32_32x32x16_BF16", tile=(64, 128, 64), waves=(2, 4)),
             "pingpong{mfma=32x32x16 vm_per_load_a=1 vm_per_load_b=2 lgkm_per_load_a=4 "
             "lgkm_per_load_b=4 waits=block frags_ahead=balanced-across}", "pingpong", 4),
         "fp8-64x128-2x4-32x32-8wave": Case(
             dict(dtype="fp8", m=4096, n=4096, k=4096, transpose_b=True,
                  mma="MFMA_F32_32x32x64_F8E4M3FN", tile=(64, 128, 128), waves=(2, 4)),
             "pingpong{dtype=fp8 mfma=32x32x64 vm_per_load_a=1 vm_per_load_b=2 "
             "lgkm_per_load_a=4 lgkm_per_load_b=4 waits=block frags_ahead=balanced-across}",
             "pingpong", 2),
         # the same tile with IREE's K step forced to 256 (8 MFMAs per wave and K tile, 2 per
         # MMA block): faster than IREE's own K-step-128 build of the same matmul
         "i8-64x128-k256-2x4-32x32-8wave": Case(
             dict(dtype="i8", m=4096, n=4096, k=4096, transpose_b=True,
                  mma="MFMA_I32_32x32x32_I8", tile=(64, 128, 256), waves=(2, 4)),
             "pingpong{dtype=i8 mfma=32x32x32 vm_per_load_a=1 vm_per_load_b=2 "
             "lgkm_per_load_a=4 lgkm_per_load_b=4 waits=block frags_ahead=balanced-across}",
             "pingpong", 8),
         # 8-wave 128x128, K tile 128 (4 MFMAs deep): 2x4 (A x B) or 4x2 (A^T x B^T)
         # fragments per wave; 16 transposing reads per B (A) subtile, issued in runs
         "bf16-ab-128x128-k128-8wave": _eight_wave(
             "bf16_ab_128x128_k128", "pingpong{lgkm_per_load_a=4 lgkm_per_load_b=16}", 32),
         "bf16-atbt-128x128-k128-8wave": _eight_wave(
             "bf16_atbt_128x128_k128", "pingpong{lgkm_per_load_a=16 lgkm_per_load_b=4}", 32),
         # IREE's configuration with a forced 32x32x16 MFMA: 2x2 fragments x 2 K steps
         "bf16-mfma32": Case(dict(dtype="bf16", mma="MFMA_F32_32x32x16_BF16"),
                             "4wave{BM=128 BN=128 BK=32 mfma=32x32x16}", "4wave", 8),
         # the same with the 8-bit 32x32 MFMAs at K tile 128: i8 2x2 fragments x 4 K steps,
         # FP8 2x2 x 2
         "i8-mfma32": Case(dict(dtype="i8", mma="MFMA_I32_32x32x32_I8", tile=(128, 128, 128)),
                           "4wave{dtype=i8 BM=128 BN=128 BK=128 mfma=32x32x32}", "4wave", 16),
         "fp8-mfma32": Case(dict(dtype="fp8", mma="MFMA_F32_32x32x64_F8E4M3FN",
                                 tile=(128, 128, 128)),
                            "4wave{dtype=fp8 BM=128 BN=128 BK=128 mfma=32x32x64}", "4wave", 8),
         # unaligned: 128x256 tiles, 32x32x8 MFMAs, K tile 8: 2x4 fragments
         "bf16-1000": Case(dict(dtype="bf16", m=1000, n=1000, k=1000),
                           "4wave{BM=128 BN=256 BK=8 mfma=32x32x8}", "4wave", 8),
         # IREE's VectorDistribute pipeline: 64x128 tile, K step 128, copies through
         # registers, 2x4 fragments x 4 K steps per wave; taken at the prefetch point,
         # whole-tile products (frontend/vector_distribute.py)
         "bf16-vector-distribute": Case(
             dict(dtype="bf16"), "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
             "lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave", 32,
             ("--iree-codegen-llvmgpu-use-vector-distribution",
              "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # the same with B K x N: IREE reads B one element per ds_read, the front end with
         # 16 transposing reads per B subtile (frontend/element_reads.py)
         "bf16-ab-vector-distribute": Case(
             dict(dtype="bf16", transpose_b=False), "4wave{BM=64 BN=128 BK=128 "
             "vm_per_load_a=2 vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=16}", "4wave",
             32, ("--iree-codegen-llvmgpu-use-vector-distribution",
                  "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # fp8 (E4M3FN): 64x128 tile, K step 512 (2x4 fragments x 4 16x16x128 MFMAs per
         # wave), split by the front end into two K sub-steps of 256 (frontend/ksplit.py)
         "fp8-vector-distribute": Case(
             dict(dtype="fp8"), "4wave{dtype=fp8 BM=64 BN=128 BK=256 vm_per_load_a=2 "
             "vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave", 32,
             ("--iree-codegen-llvmgpu-use-vector-distribution",
              "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # the same with B K x N (also E5M2): B read one byte per ds_read by IREE, by the
         # front end with 16 8-bit transposing reads per B subtile (frontend/element_reads.py)
         "fp8-ab-vector-distribute": Case(
             dict(dtype="fp8", transpose_b=False), "4wave{dtype=fp8 BM=64 BN=128 BK=256 "
             "vm_per_load_a=2 vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=16}", "4wave",
             32, ("--iree-codegen-llvmgpu-use-vector-distribution",
                  "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # odd numbers of K steps: 9 of 512 (fp8, split into sub-steps of 256) and of 128
         # (bf16), the last one in the remainder loop on the schedule's stage-0 buffers
         "fp8-vector-distribute-odd": Case(
             dict(dtype="fp8", k=4608), "4wave{dtype=fp8 BM=64 BN=128 BK=256 vm_per_load_a=2 "
             "vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave", 32,
             ("--iree-codegen-llvmgpu-use-vector-distribution",
              "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # the families with no row before (an audit of every family): A^T x B (both operands read
         # with transposing reads, A copied through registers), fp8 A x B^T (register
         # copies made direct-to-LDS), IREE's 64x128 tile at K step 128 (copies the front
         # end re-distributes; 1024x1024x2048: a main loop LLVM keeps), copies through
         # registers with no DMA asked for, an odd number of K steps (the remainder loop)
         "bf16-atb": Case(dict(dtype="bf16", transpose_a=True, transpose_b=False),
                          "4wave{BM=128 BN=128 BK=32 lgkm_per_load_a=4 lgkm_per_load_b=4}",
                          "4wave", 16),
         "fp8": Case(dict(dtype="fp8"), "4wave{dtype=fp8 BM=128 BN=128 BK=128}", "4wave", 16),
         "bf16-64x128": Case(dict(dtype="bf16", m=1024, n=1024, k=2048),
                             "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
                             "lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave", 32),
         "bf16-no-dma": Case(dict(dtype="bf16"), SPEC, "4wave", 16,
                             ("--iree-llvmgpu-use-direct-load=false",)),
         "bf16-k4000": Case(dict(dtype="bf16", k=4000), SPEC, "4wave", 16),
         "bf16-vector-distribute-odd": Case(
             dict(dtype="bf16", m=2048, n=2048, k=1152), "4wave{BM=64 BN=128 BK=128 "
             "vm_per_load_a=2 vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}", "4wave",
             32, ("--iree-codegen-llvmgpu-use-vector-distribution",
                  "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")),
         # the audit's families still without a row: i8 A x B (B read with 8-bit
         # transposing reads); IREE's 64x128 tile at K step 128 for A x B and A^T x B (16
         # transposing reads per B subtile, issued in runs; A^T's copies through registers)
         "i8-ab": Case(dict(dtype="i8", transpose_b=False),
                       "4wave{dtype=i8 BM=128 BN=128 BK=64 lgkm_per_load_b=4}", "4wave", 16),
         "bf16-ab-64x128": Case(dict(dtype="bf16", m=1024, n=1024, k=2048, transpose_b=False),
                                "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
                                "lgkm_per_load_a=4 lgkm_per_load_b=16}", "4wave", 32),
         "bf16-atb-64x128": Case(dict(dtype="bf16", m=1024, n=1024, k=2048, transpose_a=True,
                                      transpose_b=False),
                                 "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 vm_per_load_b=4 "
                                 "lgkm_per_load_a=8 lgkm_per_load_b=16}", "4wave", 32),
         # 8-wave: 256x256 with an odd number of K steps (63 of 64, the last one in the
         # remainder on the schedule's stage-0 buffers; the tests' K = 192 leaves LLVM no
         # loop to time), 256x128 at K step 32 (copies re-distributed), fp8 A x B (8-bit
         # transposing reads)
         "bf16-256x256-odd-k-8wave": _eight_wave("bf16_abt_256x256", "pingpong", 64,
                                                 k=4032),
         "bf16-256x128-k32-8wave": _eight_wave(
             "bf16_abt_256x128_k32", "pingpong{vm_per_load_a=1 vm_per_load_b=2 "
             "lgkm_per_load_a=2 lgkm_per_load_b=2}", 16),
         "fp8-ab-8wave": _eight_wave(
             "fp8_ab_128x128", "pingpong{dtype=fp8 lgkm_per_load_a=4 lgkm_per_load_b=16}", 16),
         # K known only at launch (tensor<4096x?xbf16>), IREE's MFMA configuration forced:
         # IREE's K-loop copies element by element through registers and stages each tile
         # through scratch (1.2 MB of code, its back edge a long branch); ours: the copies
         # register-staged, their loads an iteration ahead (2 K tiles per iteration)
         # IREE's copy loops run per-lane trip counts (until the exec mask empties): its
         # loop timed with the counts its waves take on the emulator at K = 128 (4 full K
         # tiles; every full tile takes the same), M = N = 4096
         "bf16-dynamic-k": Case(dict(), SPEC, "4wave", 16,
                                source=lambda stages: D.dynamic_k_source(True, stages),
                                launch=(4096, 4096, 128)),
         # IREE's padded kernels of M (M and N) known at launch, K = 200 (7 K tiles, the
         # last masked): each run masked by its row and the K left, element copies in
         # branches the lanes skip where masked; IREE's loop timed with the blocks its
         # waves run on the emulator at M (and N) = 4096.  pipeline-opt's LLVM unrolls our
         # 3 pipelined iterations (no loop to time); back in iree-compile the loop stays
         "bf16-padk-m": _padded(False, 200),
         "bf16-padk-mn": _padded(True, 200),
         # A^T x B^T, A's runs cut along M at the edge: the K-loop versioned on the
         # workgroup's tile (frontend/edge_version.py); at M = 4096 every workgroup is inside
         # M and runs the pipelined loop, A's copies staged through registers
         "bf16-padatbt-m": _padded(False, 256, "4wave{BM=128 BN=128 BK=32 lgkm_per_load_a=4}",
                                   transpose_a=True),
         # IREE's default configuration forced to 1, 2 and 16 waves (64x64, 64x128 in 1x2
         # waves, 256x256 in 4x4 waves at K step 64: 4x4 fragments per wave), and its 8-wave
         # 256x256 kernel (2x4 waves of 128x64, K step 64), each under the 4-wave schedule,
         # every wave in lockstep (the simulator's spec: the wave count and counts)
         "bf16-64x64-1wave": _waves((64, 64, 32), (1, 1), "BM=64 BN=64 BK=32 vm_per_load_a=2 "
                                    "vm_per_load_b=2 lgkm_per_load_a=2 lgkm_per_load_b=2", 16),
         "bf16-64x128-2wave": _waves((64, 128, 32), (1, 2), "BM=64 BN=128 BK=32 "
                                     "lgkm_per_load_a=2 vm_per_load_b=2", 16),
         "bf16-256x256-16wave": _waves((256, 256, 64), (4, 4), "BM=256 BN=256 BK=64 "
                                       "vm_per_load_a=1 vm_per_load_b=1 lgkm_per_load_a=4 "
                                       "lgkm_per_load_b=4", 32),
         "bf16-256x256-8wave-4wave": Case(
             G.EIGHT_WAVE["matmul_bf16_abt_256x256_8wave"] | dict(m=4096, n=4096, k=4096),
             "4wave{BM=256 BN=256 BK=64 vm_per_load_a=2 vm_per_load_b=2 lgkm_per_load_b=4 "
             "waves=8}", "4wave", 64),
         # IREE's 8-wave 256x128 kernel (4x2 waves of 64x64) under the 4-wave schedule, and
         # its default configuration forced to one wave of a 32x32 tile (one MFMA a subtile)
         "bf16-256x128-8wave-4wave": Case(
             G.EIGHT_WAVE["matmul_bf16_abt_256x128_8wave"] | dict(m=4096, n=4096, k=4096),
             "4wave{BM=256 BN=128 BK=64 waves=8 waves_m=4}", "4wave", 32),
         # skinny problems: IREE's own 32x64 (64x32) tile, K step 128, 4 waves of one MFMA
         # row (column) and two columns (rows): that operand split along K (k_subtiles)
         "bf16-32x2048-skinny": Case(dict(dtype="bf16", m=32, n=2048, k=1024),
                                     "4wave{dtype=bf16 BM=32 BN=64 BK=128 k_subtiles=a}",
                                     "4wave", 8),
         "f16-2048x32-skinny": Case(dict(dtype="f16", m=2048, n=32, k=1024),
                                    "4wave{dtype=f16 BM=64 BN=32 BK=128 k_subtiles=b}",
                                    "4wave", 8),
         # unaligned K copied through registers, each K row of the copies kept or padded by
         # an arith.select (frontend/select_masks.py): i8 A x B (64x128 tile, K step 256,
         # 2x4 MFMAs x 4 K steps per wave), f16 A^T x B (64x128, K step 32: 2x4 x 1); at
         # K = 4000 / 4100, so that the pipelined loop runs (at 1000 its 4 K tiles leave none)
         "i8-ab-k4000": Case(dict(dtype="i8", m=1024, n=1024, k=4000, transpose_b=False),
                             "4wave{dtype=i8 BM=64 BN=128 BK=256 lgkm_per_load_b=16}",
                             "4wave", 32),
         # fp8 at K = 4000: IREE's 64x128 tile of gfx942's 16x16x32 FP8 MFMAs, K step 32
         # (2x4 MFMAs per wave), four K steps merged into one K tile of 128 (kmerge.py)
         "fp8-k4000-16x16x32": Case(dict(dtype="fp8", m=512, n=512, k=4000),
                                    "4wave{dtype=fp8 BM=64 BN=128 BK=128 mfma=16x16x32 "
                                    "vm_per_load_a=4}", "4wave", 8),
         "f16-atb-k4100": Case(dict(dtype="f16", m=1024, n=1024, k=4100, transpose_a=True,
                                    transpose_b=False),
                               "4wave{dtype=f16 BM=64 BN=128 BK=32 lgkm_per_load_a=2 "
                               "lgkm_per_load_b=4 vm_per_load_a=2}", "4wave", 8),
         "bf16-32x32-1wave": _waves((32, 32, 32), (1, 1), "BM=32 BN=32 BK=32", 4),
         # the families added last: bf16 A x B 1000^3 (128x256 tile cut at C's edges,
         # 32x32x8 MFMAs at K step 8, each run's edge mask kept in the front end's copies,
         # frontend/kept_layout.py); f16 A^T x B 1000x600x1030 (16x32 tile in 2 waves, one
         # 16x16x32 MFMA per wave and K step of 32: 4 K steps merged into one K tile of 128,
         # both operands split along K; its cycles per IREE's K step)
         "bf16-ab-1000": Case(dict(dtype="bf16", m=1000, n=1000, k=1000, transpose_b=False),
                              "4wave{dtype=bf16 mfma=32x32x8 BM=128 BN=256 BK=8 "
                              "vm_per_load_b=2}", "4wave", 8),
         "f16-atb-1000x600x1030": Case(
             dict(dtype="f16", m=1000, n=600, k=1030, transpose_a=True, transpose_b=False),
             "4wave{dtype=f16 BM=16 BN=32 BK=128 k_subtiles=ab vm_per_load_a=4 "
             "lgkm_per_load_a=4 lgkm_per_load_b=4 waves=2}", "4wave", 1),
         # IREE's default builds (its own 2-stage prefetch, which the front end rolls back):
         # copies through registers loaded a tile ahead (frontend/reroll_regs.py) with an
         # unaligned K (the last tile's loads guarded): bf16 A x B^T 512x512x1020 (64x128
         # tile, K step 128), fp8 512x512x1000 (K step 256), i8 A x B 1024x1024x1000 (K
         # step 256, B read with 8-bit transposing reads); DMA copies in two LDS slots closed
         # by rocdl.asyncmark (frontend/reroll.py): bf16 A x B^T 4096^3
         "bf16-k1020-default": Case(dict(dtype="bf16", m=512, n=512, k=1020),
                                    "4wave{BM=64 BN=128 BK=128 vm_per_load_a=2 "
                                    "vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}",
                                    "4wave", 32, launch=(512, 512, 1020),
                                    default_build=True, measure_ours=True),
         **{f"fp8-k{k}-default": Case(dict(dtype="fp8", m=512, n=512, k=k),
                                      "4wave{dtype=fp8 BM=64 BN=128 BK=256 vm_per_load_a=2 "
                                      "vm_per_load_b=4 lgkm_per_load_a=4 lgkm_per_load_b=8}",
                                      "4wave", 16, launch=(512, 512, k), default_build=True,
                                      measure_ours=True, whole=k == 1000) for k in (1000, 3000)},
         # (at K = 1000 fp8's and i8's 4 K tiles leave no steady loop: every build is timed
         # whole there, and K = 3000 and 4000 time the loop; at fp8 512x512x4000 IREE picks
         # another tile the 4-wave schedule refuses)
         **{f"i8-ab-k{k}-default": Case(dict(dtype="i8", m=1024, n=1024, k=k,
                                             transpose_b=False),
                                        "4wave{dtype=i8 BM=64 BN=128 BK=256 "
                                        "lgkm_per_load_b=16}", "4wave", 32,
                                        launch=(1024, 1024, k), default_build=True,
                                        measure_ours=True, whole=k == 1000)
            for k in (1000, 4000)},
         "bf16-default": Case(G.CONFIGS["matmul_bf16_abt_4096"], SPEC, "4wave", 16,
                              default_build=True),
         # fused epilogues: IREE's default main loop, the epilogue after it
         **{f"bf16-{kind.replace('_', '-')}": _epilogue(kind)
            for kind in ("bias", "bias_row", "relu", "trunc_bf16")}}
# IREE's default 128x128 tile (DMA copies) at an odd number of K steps: 35 of 32 at
# 2048x2048x1120, the last in the remainder loop on buffers of its own, its copies issued
# before the pipelined loop (frontend/remainder_dma.py); timed by the loop and whole
CASES["bf16-odd-k"] = Case(dict(dtype="bf16", m=2048, n=2048, k=1120), SPEC, "4wave", 16)
CASES["bf16-odd-k-whole"] = CASES["bf16-odd-k"]._replace(
    launch=(2048, 2048, 1120), measure_ours=True, whole=True)
# fp8 A x B 129x64x1000 (64x64 tile, K step 256: 3 whole K tiles and a masked one): the
# pipelined loop runs the 3 whole tiles as 6 sub-steps of 128 (the steady loop 2 trips,
# natural._steady_substeps), IREE's remainder loop the masked one; timed whole
CASES["fp8-ab-129x64x1000"] = Case(dict(dtype="fp8", m=129, n=64, k=1000, transpose_b=False),
                                   "4wave{dtype=fp8 BM=64 BN=64 BK=256 lgkm_per_load_b=8}",
                                   "4wave", 8, launch=(129, 64, 1000), measure_ours=True,
                                   whole=True)
# f16 A^T x B^T 300x200x192 (one wave of a 16x16 tile, 3 K steps of 64, two 16x16x32
# MFMAs each): each MFMA halved along K, the pair of K steps pipelined (no steady trip:
# LLVM unrolls it), the third in the remainder loop; timed whole
CASES["f16-atbt-300x200x192"] = Case(
    dict(dtype="f16", m=300, n=200, k=192, transpose_a=True),
    "4wave{dtype=f16 BM=16 BN=16 BK=64 k_subtiles=ab mfma=16x16x16 vm_per_load_a=4 "
    "vm_per_load_b=4 waves=1}", "4wave", 2, launch=(300, 200, 192), measure_ours=True,
    whole=True, k_step=64)
# fp8 A^T x B 64x129x512 (a 64x16 tile per wave, 2 K steps of 256, two 16x16x128 MFMAs
# each): each MFMA cut into 4 of 16x16x32 along K, the pair pipelined; timed whole
CASES["fp8-atb-64x129x512"] = Case(
    dict(dtype="fp8", m=64, n=129, k=512, transpose_a=True, transpose_b=False),
    "4wave{dtype=fp8 BM=64 BN=16 BK=256 k_subtiles=ab mfma=16x16x32 vm_per_load_b=8 "
    "waves_m=4}", "4wave", 2, launch=(64, 129, 512), measure_ours=True, whole=True,
    k_step=256)
# fp8 A^T x B 31x112x224 (a 32x16 tile in 2 waves of one 16x16x32 MFMA per K step, 7 K
# steps of 32): 2 K steps merged in the diagonal form (the MFMA not cut, too few steps for 4
# merged), the seventh in the remainder loop; timed whole
CASES["fp8-atb-31x112x224"] = Case(
    dict(dtype="fp8", m=31, n=112, k=224, transpose_a=True, transpose_b=False),
    "4wave{dtype=fp8 BM=32 BN=16 BK=64 k_subtiles=ab_diagonal mfma=16x16x32 waves_m=2}",
    "4wave", 2, launch=(31, 112, 224), measure_ours=True, whole=True, k_step=32)
# f16 A^T x B^T 24x5x400: IREE's own 16x16x16 MFMAs (a 32x16 tile in 2 waves, one MFMA
# per wave and K step of 16, 25 K steps): 4 merged, crosswise, the 25th in the remainder
# loop; timed whole
CASES["f16-atbt-24x5x400"] = Case(
    dict(dtype="f16", m=24, n=5, k=400, transpose_a=True),
    "4wave{dtype=f16 BM=32 BN=16 BK=64 mfma=16x16x16 waves_m=2}",
    "4wave", 4, launch=(24, 5, 400), measure_ours=True, whole=True, k_step=16)
# ... at K = 232: 2 K steps of 128, the second a masked tail kept in the pipelined pair
CASES["f16-atbt-24x5x232"] = Case(
    dict(dtype="f16", m=24, n=5, k=232, transpose_a=True),
    "4wave{dtype=f16 BM=32 BN=16 BK=128 mfma=16x16x16 waves_m=2}",
    "4wave", 8, launch=(24, 5, 232), measure_ours=True, whole=True, k_step=128)
# i8 A x B^T 59x28x496: IREE's own gfx942 32x32x16 i8 MFMAs (a 64x32 tile in 2 waves, K
# step 16, 31 K steps), 4 merged crosswise; timed whole
CASES["i8-abt-59x28x496"] = Case(
    dict(dtype="i8", m=59, n=28, k=496),
    "4wave{dtype=i8 BM=64 BN=32 BK=64 mfma=32x32x16 waves_m=2}",
    "4wave", 4, launch=(59, 28, 496), measure_ours=True, whole=True, k_step=16)
# IREE's 3-stage build of fp8 E5M2 A x B^T 95x90x271 (3 K tiles of 128, the last cut at 15
# columns): its pipelining through registers peels every K tile, and ours is built from
# that late form, its loop rebuilt (frontend/reroll_straight_regs.py); timed whole
CASES["fp8e5m2-abt-95x90x271-s3"] = Case(
    dict(dtype="fp8e5m2", m=95, n=90, k=271),
    "4wave{dtype=fp8 BM=32 BN=32 BK=128 k_subtiles=ab mfma=16x16x32 vm_per_load_a=2 "
    "vm_per_load_b=2 lgkm_per_load_a=1}", "4wave", 1,
    flags=("--iree-llvmgpu-prefetch-num-stages=3",), launch=(95, 90, 271),
    default_build=True, measure_ours=True, whole=True, k_step=128)
# f16 C += A x B 156x71x383 from IREE's 3-stage build, every K tile peeled with C's rows
# staged in private memory before them (the loop rebuilt, C's staging left before it)
CASES["f16-acc-ab-156x71x383-s3"] = Case(
    dict(dtype="f16", m=156, n=71, k=383, b_kxn=True), "4wave{dtype=f16 BM=64 BN=128 BK=32}",
    "4wave", 1, flags=("--iree-llvmgpu-prefetch-num-stages=3",), epilogue="accumulate",
    launch=(156, 71, 383), default_build=True, measure_ours=True, whole=True, k_step=32)
# IREE's 4-stage build of bf16 batch 2 x 267x969x181 (a 64x128 tile, 3 K steps of 64, the
# third masked; finding 80: the pair pipelined as whole K steps, the third in IREE's loop),
# launched as the batch dispatch it is (measured_trips.DescribedDispatch); timed whole
CASES["bf16-batch-267x969x181-s4"] = Case(
    dict(dtype="bf16", m=267, n=969, k=181, batch=2), "4wave{dtype=bf16 BM=64 BN=128 BK=64}",
    "4wave", 16, flags=("--iree-llvmgpu-prefetch-num-stages=4",), epilogue="batch",
    launch=(267, 969, 181), measure_ours=True, whole=True, k_step=64)
# ... and at K = 192 (3 whole K steps of 64: the pair with no steady trip, the third in the
# remainder loop, its loads ahead; no masked tail)
CASES["bf16-batch-267x969x192-s4"] = CASES["bf16-batch-267x969x181-s4"]._replace(
    matmul=dict(dtype="bf16", m=267, n=969, k=192, batch=2), launch=(267, 969, 192))
# f32 (IREE's MFMA_F32_16x16x4_F32, one f32 of A and of B a lane): A x B^T 4096^3 (a 128x128
# tile, K step 16, 4 MFMAs per accumulator and K step, copies through registers made
# direct-to-LDS copies) and A x B 1024^3 (a 64x128 tile, K step 64, 16 MFMAs per accumulator)
CASES["f32-abt-4096"] = Case(dict(dtype="f32", m=4096, n=4096, k=4096),
                             "4wave{dtype=f32 BM=128 BN=128 BK=16}", "4wave", 64)
CASES["f32-ab-1024"] = Case(dict(dtype="f32", m=1024, n=1024, k=1024, transpose_b=False),
                            "4wave{dtype=f32 BM=64 BN=128 BK=64}", "4wave", 128)
# ... and A^T x B 2048^3 (a 128x128 tile, K step 16, A and B read with K 16 rows apart)
CASES["f32-atb-2048"] = Case(dict(dtype="f32", m=2048, n=2048, k=2048, transpose_a=True,
                                  transpose_b=False),
                             "4wave{dtype=f32 BM=128 BN=128 BK=16}", "4wave", 64)
# ... and A^T x B 94x1826x2660 and 17x164x4066 (a 32x16 tile in 2 waves, K step 4, one
# MFMA per wave and K step, 4 merged): B's 4 x 16 tile copied 4 f32 a lane by 16 threads,
# spread an element a thread onto a buffer with padding rows (frontend/partial_elements.py)
CASES.update({f"f32-atb-{m}x{n}x{k}": Case(
    dict(dtype="f32", m=m, n=n, k=k, transpose_a=True, transpose_b=False),
    "4wave{dtype=f32 BM=32 BN=16 BK=16 k_subtiles=ab waves=2 waves_m=2}", "4wave", 1)
    for m, n, k in ((94, 1826, 2660), (17, 164, 4066))})
# the same at K = 1000 timed by their loops (ours: the remainder loop; fp8's: none left)
CASES.update({f"{d}-k1000-default-loop": CASES[f"{d}-k1000-default"]._replace(whole=False)
              for d in ("i8-ab", "fp8")})
# IREE's 64x128 tile in 2x4 waves of 32x32 MFMAs with K known only at launch (dynamic.py's
# rewrite of IREE's dispatch): the merged loop guarded, its trip count a run-time one
CASES.update({f"{d}-64x128-2x4-32x32-8wave-dynamic-k": CASES[f"{d}-64x128-2x4-32x32-8wave"]
              ._replace(dispatch=lambda text: D.dynamic(text, False, "?"))
              for d in ("i8", "bf16", "fp8")})
# other 4-wave kernels whose K step merge_k merges (factor: the K steps per merged K tile,
# which the simulator's spec of the assembly takes as its BK)
CASES.update({f"{d}-merge-k": CASES[d]._replace(
                  spec=re.sub(r"BK=(\d+)", lambda m, f=f: f"BK={int(m.group(1)) * f}",
                              CASES[d].spec), pipeline=MERGE_K)
              for d, f in (("bf16-mfma32", 2), ("bf16-64x128-2wave", 2),
                           ("bf16-64x64-1wave", 2), ("f16-atb-k4100", 4))})
NAMES = {"4wave": "4-wave", "pingpong": "ping-pong"}
KINDS = (("v_mfma", "mfma"), ("ds_read_b128", "ds_read"), ("buffer_load ... lds", "vmem_load_lds"),
         ("s_waitcnt", "wait"), ("s_barrier", "barrier"), ("s_setprio", "setprio"))


def loop_counts(asm: str) -> Counter:
    fn = next(f for f in parse_asm(asm).functions if any(i.kind == "mfma" for i in f.instrs()))
    return Counter(i.kind for i in fn.main_loop_phases()["loop"])


def simulate(asm_path: Path, spec: str = SPEC) -> dict[str, float] | str:
    """The simulated cycles per iteration of the main loop of ``asm_path``, both cost
    tables; or, when the simulator gives no figure for it, why (pipeline-opt's message,
    without the file's temporary path)."""
    proc = subprocess.run([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt", "--simulate",
                           str(asm_path), f"--pipeline={spec}", "--report"],
                          capture_output=True, text=True)
    m = re.search(r"achieved cycles/iteration\s+([\d.]+)\s+([\d.]+)", proc.stdout)
    if m is not None:
        return {"llvm": float(m.group(1)), "measured": float(m.group(2))}
    said = re.search(r"^pipeline-opt: error: (.*)$", proc.stderr, re.M)
    if proc.returncode != 1 or said is None:
        raise RuntimeError(f"no timing for {asm_path}:\n{proc.stdout}\n{proc.stderr}")
    return said.group(1).replace(f"{asm_path}: ", "")


def kernels(d: Path, dtype: str = "bf16") -> dict[str, Path]:
    case = CASES[dtype]
    args = case.matmul
    if case.source is not None:
        source, own_source = case.source(1), case.source(2)
    else:
        source = (E.epilogue_source(case.epilogue, **args) if case.epilogue
                  else G.matmul_source(**args))
        # a forced configuration states its prefetch stages itself (2: IREE's own pipelining)
        own_source = G.matmul_source(**args, stages=2) if "mma" in args else source
    out = {}
    own = d / "iree_prefetch.s"
    asm, hsaco = G.iree_prefetch_files(own_source, case.flags)
    own.write_text(asm)
    own.with_suffix(".hsaco").write_bytes(hsaco)
    # (its prefetch stages: the case's flag, else IREE's default 2; a forced configuration's
    # own attribute says 2)
    stages = "2" if "mma" in args else next(
        (f.split("=", 1)[1] for f in reversed(case.flags)
         if f.startswith("--iree-llvmgpu-prefetch-num-stages=")), "2")
    out[f"IREE {stages}-stage prefetch"] = own
    src = d / "prefetch.mlir"
    taken = (G.late_form(source, DEFAULT_BUILD + case.flags) if case.default_build
             else G.prefetch_point(source, case.flags))
    src.write_text((case.dispatch or str)(taken))
    pipelined = d / "pipelined.mlir"
    ours = d / "ours.s"
    emits = [["-o", str(pipelined)], ["--emit=asm", "-o", str(ours)]]
    if case.measure_ours:       # the code object the emulator runs, beside the assembly
        emits.append(["--emit=hsaco", "-o", str(ours.with_suffix(".hsaco"))])
    for args in emits:
        subprocess.run([sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt",
                        f"--pipeline={case.pipeline}", str(src), *args], check=True)
    name = NAMES[case.pipeline.partition("{")[0]]
    out[f"{name}, pipeline-opt's LLVM"] = ours
    if case.dispatch is not None:
        return out
    dump = d / "dump"
    G.substitute(source, str(pipelined), d / "k.vmfb", dump)
    (rocm,) = dump.glob("*.rocmasm")
    out[f"{name}, back in iree-compile"] = rocm
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--ratios"]:
        return ratios([a.removeprefix("--dtype=") for a in argv[1:]] or list(CASES))
    dtype = argv[0].removeprefix("--dtype=") if argv else "bf16"
    if len(argv) > 1 or dtype not in CASES or (argv and not argv[0].startswith("--dtype=")):
        print(f"usage: bench_iree.py [--dtype={'|'.join(CASES)}]\n"
              "       bench_iree.py --ratios [--dtype=CASE ...]", file=sys.stderr)
        return 2
    print_table(rows_of(dtype))
    return 0


def rows_of(dtype: str) -> list:
    """The (kernel, K tiles per iteration, loop counts, cycles) rows of case ``dtype``:
    IREE's own prefetch build first."""
    case = CASES[dtype]
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for k, (name, path) in enumerate(kernels(Path(tmp), dtype).items()):
            if case.whole:
                rows.append((name, *whole_cycles(path, Path(tmp) / "prefetch.mlir", case)))
                continue
            try:
                counts = loop_counts(path.read_text())
            except AsmError as e:         # LLVM unrolled the whole K-loop: nothing to time
                rows.append((name, None, Counter(), f"no K-loop to time ({e})"))
                continue
            tiles = counts["mfma"] / case.mfmas_per_k_tile
            measured = case.launch and (k == 0 or case.measure_ours)
            timed = measured_cycles(path, Path(tmp) / "prefetch.mlir", case) \
                if measured else simulate(path, case.spec)
            rows.append((name, tiles, counts, timed))
    if case.dispatch is not None:
        name = NAMES[case.pipeline.partition("{")[0]]
        rows.append((f"{name}, back in iree-compile", None, Counter(),
                     "not handed back (the dispatch pipelined is a rewrite of IREE's: "
                     "iree-compile's source has the static interface)"))
    return rows


def measured_cycles(asm_path: Path, dispatch: Path, case: Case) -> dict | str:
    """The cycles per iteration of IREE's build ``asm_path`` (its code object beside it)
    with the trip counts and block runs its waves take on the emulator at ``case.launch``
    (the launch read from ``dispatch``, the same dispatch at IREE's prefetch point), both
    cost tables, and a ``note`` saying so; or why there is no figure."""
    # IREE's first workgroup runs at most MEASURE_LIMIT instructions, --sim-trips' own limit
    # (the first hundreds of iterations of a copy loop's K-loop; IREE's dynamic-K kernel
    # runs some 30000 per wave and K tile)
    from pipeline_mlir.driver.measured_trips import (MEASURE_LIMIT, dispatch_launch,
                                                     measure_trips, simulate_measured)
    from pipeline_mlir.errors import PipelineError

    m, n, k = case.launch
    asm = asm_path.read_text()
    try:
        problem, grid = dispatch_launch(dispatch.read_text(), case.launch, str(dispatch))
        trips = measure_trips(asm, asm_path.with_suffix(".hsaco").read_bytes(), problem, grid,
                              limit=MEASURE_LIMIT)
        rep = simulate_measured(asm, asm_path.name, len(trips.waves),
                                case.spec.startswith("pingpong"), trips)
    except PipelineError as e:
        return f"trip counts not measured at M = {m}, N = {n}, K = {k}: {e}"
    out = {t.table: t.analysis.achieved_ii for t in rep.timing}
    out["note"] = f"trip counts measured at K = {k} (M = {m}, N = {n}; {trips.describe()})"
    return out


def whole_cycles(asm_path: Path, dispatch: Path, case: Case) -> tuple:
    """(K tiles, instructions executed by kind, cycles: as :func:`rows_of` has them) of the build
    ``asm_path`` (its code object beside it) timed whole at ``case.launch``: its first
    workgroup's every instruction as the emulator ran it, on the CU model, divided by the
    K tiles it ran (its MFMAs per wave over ``case.mfmas_per_k_tile``, or the launch's K over
    ``case.k_step``); the cycles' note says so."""
    from pipeline_mlir.driver.measured_trips import dispatch_launch, whole_kernel
    from pipeline_mlir.emu.errors import CodeMismatch
    from pipeline_mlir.errors import PipelineError

    asm, ran = asm_path.read_text(), ""
    try:
        problem, grid = dispatch_launch(dispatch.read_text(), case.launch, str(dispatch))
        try:
            run = whole_kernel(asm, asm_path.with_suffix(".hsaco").read_bytes(), problem, grid)
        except CodeMismatch:
            # IREE's dumped assembly and the code object it links are two runs of its
            # LLVM step, which may order a few instructions differently (f16 A^T x B^T
            # 24x5x400): the assembly is what the simulator times, so the emulator runs it
            run = whole_kernel(asm, asm, problem, grid)
            ran = "; the assembly run, not the code object, whose order differs"
    except PipelineError as e:
        return None, Counter(), f"not timed whole: {e}"
    m, n, k = case.launch
    tiles = -(-k // case.k_step) if case.k_step else max(run.mfmas) / case.mfmas_per_k_tile
    counts = run.kinds[run.mfmas.index(max(run.mfmas))]
    note = f"{run.describe()}, at M = {m}, N = {n}, K = {k}; per K tile of {tiles:g}{ran}"
    return tiles, counts, {**run.cycles, "note": note}


def ratios(names: list[str]) -> int:
    """One row per case: IREE's and our simulated cycles per K tile and their ratio (ours
    over IREE's; below 1: ours is faster), both cost tables."""
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"bench_iree.py: no case {', '.join(unknown)} (cases: {', '.join(CASES)})",
              file=sys.stderr)
        return 2
    print("| case | schedule | cycles / K tile, IREE (llvm / measured) | ours, pipeline-opt's "
          "LLVM | ours, back in iree-compile | ratio (llvm) | ratio (measured) |")
    print("|" + "---|" * 7)
    for name in names:
        print(ratio_row(name, CASES[name].pipeline, rows_of(name)), flush=True)
    return 0


def ratio_row(name: str, pipeline: str, rows: list) -> str:
    """The ``--ratios`` line of case ``name`` from its :func:`rows_of` rows (IREE's
    first): a kernel the simulator gives no figure for shows why, and the ratio only
    over the kernels it times."""
    per_tile = [c if isinstance(c, str) else (c["llvm"] / t, c["measured"] / t)
                for _, t, _, c in rows]
    cells = [" / ".join(_per_tile(c, t)) for _, t, _, c in rows]
    cells = [cell if isinstance(c, str) or "note" not in c else f"{cell} ({c['note']})"
             for cell, (_, _, _, c) in zip(cells, rows)]
    iree, ours = per_tile[0], [c for c in per_tile[1:] if not isinstance(c, str)]
    if isinstance(iree, str) or not ours:
        ratio = ["—", "—"]
    else:
        ratio = [f"{_ratio(min(o[i] for o in ours) / iree[i])}-"
                 f"{_ratio(max(o[i] for o in ours) / iree[i])}" for i in (0, 1)]
    return f"| {name} | {pipeline} | " + " | ".join(cells + ratio) + " |"


def _per_tile(cycles, tiles: float) -> list[str]:
    """A kernel's cycles per K tile (llvm, measured), or the one cell saying why the
    simulator gives no figure (``cycles``: its message)."""
    if isinstance(cycles, str):
        return [f"no figure: {cycles}"]
    return [f"{cycles['llvm'] / tiles:.0f}", f"{cycles['measured'] / tiles:.0f}"]


def _ratio(x: float) -> str:
    """Two decimals; two significant digits below 0.01 (IREE's dynamic-K loop)."""
    return f"{x:.2f}" if x >= 0.01 else f"{x:.2g}"


def print_table(rows: list, kinds: tuple = KINDS) -> None:
    """The markdown table of (kernel, K tiles per iteration, loop counts, cycles) rows."""
    head = ["kernel", "K tiles / iteration"] + [k for k, _ in kinds] + \
        ["cycles / K tile (llvm)", "cycles / K tile (measured)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, tiles, counts, cycles in rows:
        timed = _per_tile(cycles, tiles) + (["—"] if isinstance(cycles, str) else [])
        cells = [name, f"{tiles:g}"] + [f"{counts[k] / tiles:g}" for _, k in kinds] + timed \
            if tiles else [name] + ["—"] * (len(kinds) + 1) + timed
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
