"""IREE's 4-wave matmul configurations shared by the configuration tests.

``CONFIGS`` names each configuration the tests generate with ``iree-compile`` (element
type, ``A x B^T`` or ``A x B``, problem size, IREE flags that change its tiles or its
copies), ``SHORT`` the ones whose exactness runs stay below two iterations of the steady
loop on purpose, ``SPLIT_ONLY`` a configuration only the K-split tests run, ``WAVES`` the
kernels of 1, 2, 8 and 16 waves and a skinny one of one MFMA row per wave only the
wave-grid tests run (``test_iree_config_waves.py``).
``test/unit/tools/test_iree_configurations.py`` pipelines and emulates every one of them
(or checks its refusal); ``test_iree_config_layouts.py``, ``test_iree_config_tiles.py``,
``test_iree_config_vector_distribute.py`` and ``test_iree_config_ksplit.py`` check what
each topic adds (both forms giving one schedule, its counts, random-order runs, refusals
of mutated kernels); ``test_iree_families.py`` takes its kernels from ``CONFIGS``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from pipeline_mlir.tools.pipeline_opt import main
from build_cache import cached
from iree_forms import one_built_reason, unbuilt_form
from kernel_builds import shared_build
from steady_loop import (assert_short, assert_steady, assert_steady_unrolled, counting_loops,
                         lowered_split)

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

NO_LOOP = "is not inside an scf.for: the kernel has no K-loop to pipeline"

#: IREE's VectorDistribute pipeline instead of TileAndFuse
VECTOR_DISTRIBUTE = ("--iree-codegen-llvmgpu-use-vector-distribution",
                     "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")

#: name -> (matmul_source arguments, iree-compile flags, None if pipelined else the reason
#: it is refused; a pair: (at the prefetch point, in the late form), None where pipelined)
CONFIGS = {
    "f16_abt_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024), (), None),
    "bf16_abt_1024x4096x2048": (dict(dtype="bf16", m=1024, n=4096, k=2048), (), None),
    # plain A x B: B read with transposing reads, regrouped per MFMA operand
    # (pipeline_mlir/frontend/transpose.py); at 4096^3 IREE's kernel is this one but for
    # its numbers (sizes, strides, trip count: the same IR, the same passes' paths), 4 times
    # the K steps to emulate: not run again (the benchmark pipelines it, bench_iree.py)
    "bf16_ab_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False),
                               (), None),
    "f16_ab_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024, transpose_b=False),
                              (), None),
    # fp8 / i8 A x B: B read with 8-bit transposing reads (ds_read_b64_tr_b8), 8 bytes each,
    # regrouped as the 16-bit ones: 4 per 32-byte fp8 operand, 2 per 16-byte i8 one
    "fp8_ab_2048x2048x1024": (dict(dtype="fp8", m=2048, n=2048, k=1024, transpose_b=False),
                              (), None),
    "i8_ab_2048x2048x1024": (dict(dtype="i8", m=2048, n=2048, k=1024, transpose_b=False),
                             (), None),
    # 64x128 tile, K step 128: 16 transposing reads per B subtile, one more than lgkmcnt
    # holds (pipeline_mlir/schedule/long_loads.py)
    "bf16_ab_1024x1024x512": (dict(dtype="bf16", m=1024, n=1024, k=512, transpose_b=False),
                              (), None),
    # A^T x B (A is K x M): IREE copies A through registers and reads both operands with
    # transposing reads; the copies made DMA (frontend/regcopy.py), the reads regrouped
    "bf16_atb_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_a=True,
                                     transpose_b=False), (), None),
    "f16_atb_2048x2048x1024": (dict(dtype="f16", m=2048, n=2048, k=1024, transpose_a=True,
                                    transpose_b=False), (), None),
    "bf16_atbt_2048x2048x1024": (dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_a=True),
                                 (), None),
    # 6 K steps: its pipelined loop runs twice (the family's item that goes round it)
    "bf16_atb_1024x1024x768": (dict(dtype="bf16", m=1024, n=1024, k=768, transpose_a=True,
                                    transpose_b=False), (), None),
    # one wave of one 16x16x32 MFMA per K step (a 16x16 tile), 5 K steps: too few for 4
    # merged, so its MFMAs halved along K and 2 K steps merged (a chain of 4, both operands
    # split along K crosswise), the fifth step in the remainder loop (frontend/half_k.py,
    # frontend/kmerge.py)
    "bf16_atb_300x200x160": (dict(dtype="bf16", m=300, n=200, k=160, transpose_a=True,
                                  transpose_b=False), (), None),
    # ... and A^T x B^T: B's N x K tile split along K crosswise on element bit 2 (K 0 to 3
    # in subtile 0), so the front end's own copies of it move runs of 4 elements at most
    # (4-byte copies; frontend/layout.py's run_limit), not the kernel's 8
    "bf16_atbt_300x200x160": (dict(dtype="bf16", m=300, n=200, k=160, transpose_a=True),
                              (), None),
    # i8 A^T x B^T 129x129x129: one wave of a 16x16 tile, 2 whole K steps of one 16x16x64
    # (the third, of one K element, masked: the remainder loop): too few to merge, each
    # MFMA halved into 2 of gfx942's 16x16x32 (frontend/half_k.py), a chain of 2 per K
    # step that the crosswise split's 4 runs want twice: both operands split into the same
    # K halves, the MMAs (0, 0) and (1, 1) alone (k_subtiles=ab_diagonal,
    # frontend/k_subtiles.py); A's runs cut at M's edge at one element (cut_runs.py)
    "i8_atbt_129x129x129": (dict(dtype="i8", m=129, n=129, k=129, transpose_a=True), (),
                            None),
    # fp8 A^T x B 31x112x224: a 32x32 tile in 2 waves of one 16x16x32 MFMA per K step, 7 K
    # steps: too few for the 4 merged the crosswise split needs, the MFMA not cut; 2 K steps
    # merged (a chain of 2) in the diagonal form, each MMA of (0, 0) and (1, 1) one of them
    # (frontend/natural.py's _diagonal_merged), the seventh step in the remainder loop
    "fp8_atb_31x112x224": (dict(dtype="fp8", m=31, n=112, k=224, transpose_a=True,
                                transpose_b=False), (), None),
    # (at K = 96, 3 K steps, too short for the diagonal form: run as written, said at the
    # loop, test_short_loops.py)
    # fp8 A x B^T 64x31x96: a 64x32 tile in 2x2 waves of 32x16, one 16x16x32 MFMA of B per
    # wave and K step, 2 whole K steps (the third the remainder): no split of B's reads into
    # subtiles (one fragment, a chain of one), too few to merge, the MFMA not cut: B held
    # whole in each stage against A's two subtiles (4wave's whole=b, frontend/layout.py)
    "fp8_abt_64x31x96": (dict(dtype="fp8", m=64, n=31, k=96), (), None),
    # ... and its twin 31x64x96: a 32x64 tile in 4 waves of 32x16, B again one fragment per
    # wave and held whole, A split by MFMA rows into halves of 512 bytes, too small for a
    # direct-to-LDS copy of 256 threads: copied through registers, 2 bytes a lane
    # (copy_widths.staged_width)
    "fp8_abt_31x64x96": (dict(dtype="fp8", m=31, n=64, k=96), (), None),
    # one wave of one 16x16x32 MFMA per K step and one workgroup (C 16x16): its late form
    # writes C from the accumulators, reads it back and writes it again, a write the
    # epilogue reader leaves out of C's tree (frontend/epilogue.py, trace_output; before,
    # refused by --emulate: two writes storing two values)
    "bf16_abt_16x16x160": (dict(dtype="bf16", m=16, n=16, k=160), (), None),
    # f16 A^T x B^T 24x5x400: IREE's own 16x16x16 MFMAs (v_mfma_f32_16x16x16_f16, gfx942's
    # rate), a 32x16 tile in 2 waves, K step 16, one MFMA per wave and K step, A read with
    # transposing reads: 4 K steps merged (crosswise), its loop round twice (before, refused
    # at the MFMA: 16x16x16 only for a loop the front end halved)
    "f16_atbt_24x5x400": (dict(dtype="f16", m=24, n=5, k=400, transpose_a=True), (), None),
    # i8 A x B^T 59x28x496: IREE's own gfx942 32x32x16 i8 MFMAs (a 64x32 tile in 2 waves,
    # K step 16, 31 K steps): 4 merged, crosswise (before, refused at the MFMA: i8's gfx942
    # forms only for a loop the front end halved)
    "i8_abt_59x28x496": (dict(dtype="i8", m=59, n=28, k=496), (), None),
    # i8 A x B^T 89x14x257: a 32x16 tile in 2 waves, K step 64, 5 steps (the fifth a masked
    # tail of one K column), copies through registers; its 16x16x64 MFMAs halved into
    # gfx942's 16x16x32 and 2 K steps merged, the two 8-byte halves of A's fragment read
    # by LLVM with one ds_read_b128 (before, refused by the ISA gate: a read as wide as two
    # planned ones placed no buffer, finding 52 of docs/iree-audits.md)
    "i8_abt_89x14x257": (dict(dtype="i8", m=89, n=14, k=257), (), None),
    # IREE's 3-stage prefetch through registers (--iree-llvmgpu-prefetch-num-stages=3): K
    # tile 1 loaded before the loop and carried, the body loading two tiles ahead, an
    # epilogue of two tiles; brought to the 2-stage form (reroll_carried.py) and rolled
    # back (before, the late form refused at its LDS store); f16 A^T x B 133x42x198 (a 16x32
    # tile in one wave, 7 K steps of 32, guarded loads) and f16 A^T x B^T 309x255x2024 (B's
    # stores padded by a select sunk above the second barrier, 32x32x8 MFMAs)
    "f16_atb_133x42x198_s3": (dict(dtype="f16", m=133, n=42, k=198, transpose_a=True,
                                   transpose_b=False),
                              ("--iree-llvmgpu-prefetch-num-stages=3",), None),
    "f16_atbt_309x255x2024_s3": (dict(dtype="f16", m=309, n=255, k=2024, transpose_a=True),
                                 ("--iree-llvmgpu-prefetch-num-stages=3",), None),
    # fp8 A^T x B^T 34x66x4190 (the sweep's 34x66x2142 at a K the steady loop goes round):
    # one wave per workgroup, copies staged through registers; a staged LDS store issued after fragment reads of its buffer still in flight in the
    # wave (both on lgkmcnt, in order) was taken for a hazard by sched-stage-copies'
    # check and the prefetch point's build refused (sim/lds_events.py, one wave)
    "fp8_atbt_34x66x4190": (dict(dtype="fp8", m=34, n=66, k=4190, transpose_a=True), (), None),
    # ... f16 A^T x B^T at K = 232: a K step of 128, 2 iterations, the second a K tail of 104 masked by
    # selects that AND C's edges in M and N, kept in the copies (kept_masks.py), its K rows
    # clamped to the K left: the pair pipelined with the tail in it, the copies' K move
    # measured on the lanes the masks keep (address.py) and the tags compared on the tile
    # both stages load (tag_check.py); before, refused (channel A's copies move by
    # different amounts from one K step to the next)
    "f16_atbt_24x5x232": (dict(dtype="f16", m=24, n=5, k=232, transpose_a=True), (), None),
    # fp8 A^T x B 64x129x512: a 64x16 tile per wave column of one fragment, 2 K steps of
    # 256 with a chain of 2 16x16x128 MFMAs, too few to merge: each cut into 4 of gfx942's
    # 16x16x32 along K (frontend/half_k.py), a chain of 8 the crosswise split cuts; the pair
    # pipelined (prologue and drain)
    "fp8_atb_64x129x512": (dict(dtype="fp8", m=64, n=129, k=512, transpose_a=True,
                                transpose_b=False), (), None),
    # 8-bit A^T x B, A^T x B^T, and fp8 E5M2 A x B (1024x1024xK: a 64x128 tile, K step
    # 256): copies through registers, the K-major operands read with 8-bit transposing
    # reads; the A^T ones run as their dispatch says (i8: an i32 C); fp8 A^T x B at 6 K
    # steps (its loop runs twice), the others at 2
    **{f"{dtype}_{layout}_1024x1024x{k}": (
        dict(dtype=dtype, m=1024, n=1024, k=k, transpose_a=layout.startswith("at"),
             transpose_b=layout.endswith("bt")), (), None)
       for dtype, layout, k in (("fp8e5m2", "ab", 512), ("fp8", "atb", 1536),
                                ("fp8", "atbt", 512), ("i8", "atb", 512),
                                ("fp8e5m2", "atb", 512))},
    "fp8_abt_4096": (dict(dtype="fp8"), (), None),
    "fp8e5m2_abt_2048x2048x1024": (dict(dtype="fp8e5m2", m=2048, n=2048, k=1024), (), None),
    "i8_abt_512": (dict(dtype="i8", m=512, n=512, k=512), (), None),
    # (at 4096^3 the same IR but for its numbers, as bf16 A x B's: not run again)
    "i8_abt_2048x2048x1024": (dict(dtype="i8", m=2048, n=2048, k=1024), (), None),
    # C's edges in M (33 of a 64-row tile) and N (257): 2 K steps of 256; at the prefetch
    # point A's copies of rows 0 to 15 and 16 to 31 are selected by min(33 - row, 1), true
    # in every thread, which the late form has folded away (frontend/select_masks.py:
    # dropped, no K tail peeled, so both forms pipeline the pair; was so at 31x257x512);
    # the copy of rows 32 to 47 by C's edge in the one tile (kept_masks.py), and that of
    # rows 48 to 63 by a select false in every thread, which the late form folds into a
    # store of zero (kept in the copy; the store made that copy: frontend/pad_stores.py)
    "i8_abt_33x257x512": (dict(dtype="i8", m=33, n=257, k=512), (), None),
    # C's edges in M and N with an unaligned K (1030): in the late form the masked last K
    # tile's guarded loads (scf.if around a masked load) lie between a run's read and its
    # LDS store, which writes nothing (kernel_ir.writes_outside_lds looks into them; was
    # refused there while the prefetch point was pipelined)
    "i8_abt_63x33x1030": (dict(dtype="i8", m=63, n=33, k=1030), (), None),
    "bf16_abt_2048x2048x1024_no_dma": (dict(dtype="bf16", m=2048, n=2048, k=1024),
                                       ("--iree-llvmgpu-use-direct-load=false",), None),
    # 64x128 tiles, K step 128: the front end distributes the copies itself
    "bf16_abt_512": (dict(dtype="bf16", m=512, n=512, k=512), (), None),
    "bf16_abt_8192x256x1024": (dict(dtype="bf16", m=8192, n=256, k=1024), (), None),
    "f16_abt_128x4096x1024": (dict(dtype="f16", m=128, n=4096, k=1024), (), None),
    # IREE's default configuration with a forced 32x32x16 MFMA (a compilation_info on the
    # matmul): each wave's 32-row fragment spans two of its copies
    "bf16_abt_512_mfma32": (dict(dtype="bf16", m=512, n=512, k=512,
                                 mma="MFMA_F32_32x32x16_BF16"), (), None),
    "f16_abt_512_mfma32": (dict(dtype="f16", m=512, n=512, k=512,
                                mma="MFMA_F32_32x32x16_F16"), (), None),
    # the 8-bit 32x32 MFMAs forced at K step 128: i8's 32x32x32 (4 per K step), FP8's
    # 32x32x64 (2; each operand two 16-byte reads)
    "i8_abt_512_mfma32": (dict(dtype="i8", m=512, n=512, k=512, mma="MFMA_I32_32x32x32_I8",
                               tile=(128, 128, 128)), (), None),
    # ... FP8's at K = 896: 7 K steps, the last one in the remainder loop, whose 16-pass
    # MFMAs LLVM interleaves with the epilogue's stores (the guard after the remainder
    # loop: lowering/xdl_window.py; without it the late form's store of v2 is 19 wait
    # states after its MFMA, one short)
    "fp8_abt_512x512x896_mfma32": (dict(dtype="fp8", m=512, n=512, k=896,
                                        mma="MFMA_F32_32x32x64_F8E4M3FN",
                                        tile=(128, 128, 128)), (), None),
    # the same i8 MFMA at IREE's own K step of 32: one 32x32x32 MFMA deep
    "i8_abt_512_mfma32_k32": (dict(dtype="i8", m=512, n=512, k=512,
                                   mma="MFMA_I32_32x32x32_I8"), (), None),
    # unaligned sizes: 128x256 tiles cut at the edges of C, 32x32x8 MFMAs, K step 8 (an
    # odd trip count: the remainder loop), A copied 4 bytes per lane and B 16: the front
    # end makes 4-byte copies of its own (1000^3 as IREE picks it for 300x500x200)
    "bf16_abt_300x500x200": (dict(dtype="bf16", m=300, n=500, k=200), (), None),
    "bf16_abt_4096x4096x64": (dict(dtype="bf16", k=64), (), NO_LOOP),
    # ... and A^T x B^T at K 128, one K tile of 128: A K x M, which the emulator's dispatch
    # reader tells by the K-loop's copies alone (test_no_k_loop_refused_by_every_emit)
    "bf16_atbt_300x200x128": (dict(dtype="bf16", m=300, n=200, k=128, transpose_a=True), (),
                              NO_LOOP),
    # skinny N under a wider tile: f16 A x B 2048x16x1000 (128x32 tile in 2 waves, 32x32x8
    # MFMAs, K step 8), B's 16 columns padded to 32 by the transfer's own bounds check and
    # copied 2 bytes per lane: the check kept in the read's index
    # (pipeline_mlir/frontend/padded_reads.py), the front end's own 4-byte copies in place
    # of the narrow ones (frontend/regcopy.py's NARROW), 4 K steps merged
    "f16_ab_2048x16x1000": (dict(dtype="f16", m=2048, n=16, k=1000, transpose_b=False), (),
                            None),
    # unaligned K: rows of 2046 / 2056 bytes, copies register-staged, the masked last K
    # tile peeled (the late form's guarded loads too, its explicit swizzle undone)
    # (K 1023 and 1028: 32 and 33 K steps of 32, fp8 9 of 128; IREE's kernels at K 4095 and
    # 4100 differ from these in their sizes and trip counts alone, rows as unaligned)
    "bf16_abt_2048x2048x1023": (dict(dtype="bf16", m=2048, n=2048, k=1023), (), None),
    "bf16_abt_2048x2048x1028": (dict(dtype="bf16", m=2048, n=2048, k=1028), (), None),
    # fp8 rows of 1028 bytes: 16-byte copies 4-byte aligned; the remainder loop's byte loads
    "fp8_abt_2048x2048x1028": (dict(dtype="fp8", m=2048, n=2048, k=1028), (), None),
    # no DMA copies asked for, K unaligned: the copies through registers staged as well
    "bf16_abt_2048x2048x1023_no_dma": (dict(dtype="bf16", m=2048, n=2048, k=1023),
                                       ("--iree-llvmgpu-use-direct-load=false",), None),
    "bf16_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1024),
        VECTOR_DISTRIBUTE,
        # prefetch point: whole-tile products, distributed by IREE's own passes
        # (pipeline_mlir/frontend/vector_distribute.py); late form: the LDS stores of the
        # register copies inside scf.if %true, inlined (pipeline_mlir/frontend/const_if.py)
        None),
    "f16_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="f16", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    # 6 K steps of 256: the pipelined loop runs twice (LLVM unrolls it)
    "i8_abt_2048x2048x1536_vector_distribute": (
        dict(dtype="i8", m=2048, n=2048, k=1536), VECTOR_DISTRIBUTE, None),
    # B K x N: column reads lowered to one-element reads as IREE lowers them, regrouped
    # into transposing reads (pipeline_mlir/frontend/element_reads.py)
    "bf16_ab_2048x2048x1024_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1024, transpose_b=False), VECTOR_DISTRIBUTE,
        None),
    # fp8: a 64x128 tile with K step 512, two stages of which do not fit the LDS: split
    # into two K sub-steps of 256 (pipeline_mlir/frontend/ksplit.py)
    "fp8_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="fp8", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    "fp8e5m2_abt_2048x2048x1024_vector_distribute": (
        dict(dtype="fp8e5m2", m=2048, n=2048, k=1024), VECTOR_DISTRIBUTE, None),
    # 9 K steps of 128: IREE's LDS of the remainder loop (a 128x132 B buffer) fits in no
    # buffer of the schedule's layout beside which it has no room; the remainder (no masked
    # copies) is rebuilt on the schedule's stage-0 buffers (frontend/aliased_remainder.py)
    "bf16_abt_2048x2048x1152_vector_distribute": (
        dict(dtype="bf16", m=2048, n=2048, k=1152), VECTOR_DISTRIBUTE, None),
    # 3 K steps of 512: the split loop runs 2 (4 sub-steps), the remainder loop the third
    # on the schedule's stage-0 buffers, one sub-step of 256 per iteration
    "fp8_abt_1024x1024x1536_vector_distribute": (
        dict(dtype="fp8", m=1024, n=1024, k=1536), VECTOR_DISTRIBUTE, None),
}


#: configurations whose exactness runs stay below 2 iterations of the steady loop on purpose
#: (each kept small for the emulator's time; another item goes round the loop of what it
#: tests): name -> (the iterations the loop counter sees: 0, LLVM unrolls their loop; by the
#: MFMAs each wave ran, steady_loop.unrolled_iterations, the runs made the iterations the
#: comments say, measured once), why it keeps its size
SHORT: dict[str, tuple[int, str]] = {
    # 4 K steps of 128: the loop once (unrolled)
    "bf16_ab_1024x1024x512": (0, "bf16_atb_1024x1024x768 goes round the loop of the B reads "
                                 "issued in two runs"),
    "bf16_abt_512": (0, "f16_abt_128x4096x1024 goes round the loop of the front end's copies"),
    # 2 K steps of 256: the prologue and the drain alone
    **{name: (0, "fp8_atb_1024x1024x1536 goes round the loop of the 64x128 8-bit tile")
       for name in ("fp8e5m2_ab_1024x1024x512", "fp8_atbt_1024x1024x512",
                    "i8_atb_1024x1024x512", "fp8e5m2_atb_1024x1024x512", "i8_abt_512")},
    # 2 K steps: the pair of the prologue and the drain, its point (both forms pipeline it)
    "i8_abt_33x257x512": (0, "its point is the loop of two K steps, which both forms "
                             "pipeline alike"),
    # 4 K steps of 128 with i8's 32x32 MFMA: the loop once (test_mfma32_... counts the
    # MFMAs of that kernel; FP8's, at 7 K steps, goes round it twice)
    "i8_abt_512_mfma32": (0, "i8_abt_512_mfma32_k32, bf16, f16 and fp8 go round the loop of "
                             "32x32 MFMAs"),
    # 5 K steps, 2 merged: the merged loop's 2 iterations (a prologue and a drain; LLVM
    # unrolls them) and the remainder's one.  A loop is halved and merged 2 by 2 only at 4
    # to 7 K steps (from 8, 4 merged give the chain), so always 2 merged iterations:
    # test_half_k.py and test_kmerge.py go round the loops of each rewrite alone
    "bf16_atb_300x200x160": (0, "halved and merged only when too short to merge 4: never "
                                "round the steady loop"),
    "bf16_atbt_300x200x160": (0, "halved and merged only when too short to merge 4: never "
                                 "round the steady loop"),
    # 2 K steps halved, in the diagonal form: the pair of the prologue and the drain
    "i8_atbt_129x129x129": (0, "the diagonal form only for a loop too short to merge: never "
                               "round the steady loop"),
    # 5 K steps of 64 (the fifth a masked tail), halved and 2 merged: as 300x200x160
    "i8_abt_89x14x257": (0, "its point is A's halves read by one ds_read_b128; halved and "
                            "merged only when too short to merge 4: never round the steady "
                            "loop"),
    # 7 K steps, 2 merged: the merged loop's pair (the prologue and the drain; its steady
    # loop runs from 4 to 4) and the remainder's 3 K steps.  Before LLVM unrolled the
    # remainder's loop (2 trips, once the LLVM step narrowed the index arithmetic to 32
    # bits), its back edge was counted as the steady loop's
    "fp8_atb_31x112x224": (0, "the diagonal form only for a loop too short to merge 4: never "
                              "round the steady loop"),
    "f16_atb_133x42x198_s3": (0, "its point is IREE's 3 stages rolled back; "
                                 "f16_atbt_309x255x2024_s3 goes round the loop"),
    # 2 K steps (one masked): the pair of the prologue and the drain
    "f16_atbt_24x5x232": (0, "its point is the masked K tail inside the pipelined pair; "
                             "f16_atbt_24x5x400 goes round the loop"),
    "bf16_abt_16x16x160": (0, "its point is C read back and written again; halved and "
                              "merged like bf16_atb_300x200x160"),
    # B held whole: the pair of the prologue and the drain (a loop of 4 or more K steps of
    # the kernel's is merged instead, B split along K)
    "fp8_abt_64x31x96": (0, "held whole only when too short to merge: never round the steady "
                            "loop"),
    "fp8_abt_31x64x96": (0, "held whole only when too short to merge: never round the steady "
                            "loop"),
    # 2 K steps, each MFMA cut into 4: the pair of the prologue and the drain (a loop of 4
    # or more K steps of 2 MFMAs is merged instead)
    "fp8_atb_64x129x512": (0, "cut along K only when too short to merge 2: never round the "
                              "steady loop"),
    # K sub-steps of 256: 4 (the loop once), 6 (once, the remainder one K step)
    **{name: (0, "test_dynamic_shapes.py's vdk-late (K = 2560) goes round the split loop")
       for name in ("fp8_abt_2048x2048x1024_vector_distribute",
                    "fp8e5m2_abt_2048x2048x1024_vector_distribute",
                    "fp8_abt_1024x1024x1536_vector_distribute")},
}

#: the schedule form (the kernel plan's, which ``--emit=report`` prints:
#: ``kernel/subtile_form.py``) of the configurations whose form is their point, from each
#: form built (the other, of ``iree_forms.ONE_BUILT``, gives the built one's schedule)
FORMS: dict[str, str] = {
    "i8_atbt_129x129x129": "A, B along K, diagonal (both the same K halves, MFMAs in the MMAs "
                           "(0, 0) and (1, 1) only); each of the kernel's MFMAs halved along K",
    "bf16_atbt_300x200x160": "A, B along K, crosswise; each of the kernel's MFMAs halved along "
                             "K; 2 of the kernel's K steps merged into each K tile",
    "fp8_atb_31x112x224": "A, B along K, diagonal (both the same K halves, MFMAs in the MMAs "
                          "(0, 0) and (1, 1) only); 2 of the kernel's K steps merged into "
                          "each K tile",
    "fp8_abt_64x31x96": "stage form: B whole (one load and one fragment of it per stage, A's "
                        "two subtiles by MFMA rows against it: the MMAs (0, 0) and (1, 0) "
                        "only)",
    "fp8_abt_31x64x96": "stage form: B whole (one load and one fragment of it per stage, A's "
                        "two subtiles by MFMA rows against it: the MMAs (0, 0) and (1, 0) "
                        "only)",
}


#: instructions the code object of a configuration holds, its point: fp8 31x64x96's A halves
#: of 512 bytes copied through registers, 2 bytes a lane (frontend/copy_widths.py's
#: staged_width), which no direct-to-LDS copy of 256 threads fills
HOLDS: dict[str, set[str]] = {"fp8_abt_31x64x96": {"buffer_load_ushort", "ds_write_b16"}}


#: element type -> how its twin's IREE text is renamed to it (IREE's intrinsics say ``BF16``)
TYPE_RENAMES = {"f16": (("bf16", "f16"), ("BF16", "F16")), "fp8e5m2": (("E4M3FN", "E5M2"),)}
#: the line of IREE's target attribute, the same in every kernel (it lists every type and
#: intrinsic, so renamed it is not): left out of a twin's comparison
TARGET_LINE = re.compile(r"^#executable_target.*\n", re.M)


def assert_type_twin(generated, name: str, twin: str, dtype: str, hint: str) -> None:
    """Both forms of kernel ``name`` (of element type ``dtype``) are kernel ``twin``'s text
    with the type renamed (:data:`TYPE_RENAMES`), the target's line aside; ``hint`` says
    what to do when one is not."""
    for form in ("prefetch", "late"):
        text = generated(twin, form).read_text()
        for old, new in TYPE_RENAMES[dtype]:
            text = text.replace(old, new)
        ours = generated(name, form).read_text()
        assert TARGET_LINE.sub("", ours) == TARGET_LINE.sub("", text), \
            f"{name} ({form}) is not its twin {twin}'s text but for the type: {hint}"


def assert_steady_or_short(loops, name: str, generated) -> None:
    """The runs went round the steady loop twice (``steady_loop``), or made the iterations
    ``SHORT`` pins: counted at the loop's back edge, or where LLVM unrolled it (no loop holds
    an MFMA) by the MFMAs each wave ran against the lowering of the prefetch point (both
    forms make one schedule: :func:`forms_agree`, test_iree_families.py)."""
    if name in SHORT:
        assert_short(loops, *SHORT[name])
    elif None in loops.iterations():
        assert_steady_unrolled(loops, lowered_split(generated(name, "prefetch"), "4wave"))
    else:
        assert_steady(loops)


#: configurations only the K-split tests run (test_iree_config_ksplit.py; the same form as
#: CONFIGS; not in test_configuration, to keep the suite's time): fp8 ``A x B`` (B ``K x N``,
#: read one byte at a time, regrouped into 8-bit transposing reads) at a K of 8 sub-steps,
#: whose loop LLVM keeps (3 trips); a K-loop split for steady trips
SPLIT_ONLY = {
    "fp8_ab_1024x1024x2048_vector_distribute": (
        dict(dtype="fp8", m=1024, n=1024, k=2048, transpose_b=False), VECTOR_DISTRIBUTE,
        None),
    # fp8 A x B 129x64x1000 (64x64 tile, K step 256, register-staged rows of 1000 bytes): 3
    # whole K steps and a masked one, split into 6 sub-steps of 128 for steady trips
    "fp8_ab_129x64x1000": (dict(dtype="fp8", m=129, n=64, k=1000, transpose_b=False), (),
                           None),
}


#: configurations only the wave-count tests run (test_iree_config_waves.py; the same form as
#: CONFIGS): IREE's default bf16 configuration forced to 1 wave (32x32 tile: 2x2 MFMAs, one
#: per subtile), 2 (64x128, 1x2 waves) and 16 (256x256, 4x4 waves, K step 64), and its
#: 8-wave 256x256 kernel (2x4 waves of 128x64), each of which ``--pipeline=4wave`` runs in
#: lockstep; and 2 waves of a 32x64 tile in 2x1 (one MFMA row a wave: its K steps merged)
WAVES = {
    "bf16_abt_512_1wave": (dict(dtype="bf16", m=512, n=512, k=512,
                                mma="MFMA_F32_16x16x32_BF16", tile=(32, 32, 32), waves=(1, 1)),
                           (), None),
    "bf16_abt_512_2wave_2x1": (dict(dtype="bf16", m=512, n=512, k=512,
                                    mma="MFMA_F32_16x16x32_BF16", tile=(32, 64, 32),
                                    waves=(2, 1)), (), None),
    "bf16_abt_512_2wave": (dict(dtype="bf16", m=512, n=512, k=512,
                                mma="MFMA_F32_16x16x32_BF16", tile=(64, 128, 32), waves=(1, 2)),
                           (), None),
    # K 384: 6 K steps of 64, the 4-wave loop twice (as generate.steady_k's 8-wave kernels)
    "bf16_abt_1024x1024x384_8wave": (G.EIGHT_WAVE["matmul_bf16_abt_256x256_8wave"], (), None),
    "bf16_abt_1024x1024x384_16wave": (dict(dtype="bf16", m=1024, n=1024, k=384,
                                           mma="MFMA_F32_16x16x32_BF16", tile=(256, 256, 64),
                                           waves=(4, 4)), (), None),
    # a skinny problem: IREE's 32x64 tile in 4 waves of one MFMA row, A split along K
    # (4wave's k_subtiles)
    "bf16_abt_32x2048x1024": (dict(dtype="bf16", m=32, n=2048, k=1024), (), None),
}


def generator(tmp_path_factory):
    """(config, form) -> the path of IREE's kernel, generated once per run (both forms from
    one ``iree-compile`` run, kept in the run's build cache: the tests spread over the
    workers without building a kernel twice); the ``generated`` fixture of the modules."""
    d = tmp_path_factory.mktemp("iree_configs")

    def get(name: str, form: str) -> Path:
        path = d / f"{name}.{form}.mlir"
        if not path.exists():
            cfg, flags, _ = (CONFIGS | SPLIT_ONLY | WAVES)[name]
            path.write_text(G.forms(G.matmul_source(**cfg), flags)[form])
        return path
    return get


#: forms that ``test_configuration`` only pipelines (``iree_forms.ONE_BUILT``) and that
#: ``test_iree_families.py`` builds to a code object through the run's store in the default
#: run anyway (the prefetch point its round trip hands back, the form its random-order run
#: emulates; ``test_the_forms_built_here_for_the_configurations_are_named`` there checks
#: this set): :func:`forms_agree` takes their schedule from that build, not from a run of
#: ``--emit=schedule-json`` more
FAMILIES_BUILD = frozenset({
    ("bf16_ab_2048x2048x1024_vector_distribute", "prefetch"),
    ("bf16_abt_512_mfma32", "prefetch"),
    ("fp8_ab_2048x2048x1024", "prefetch"),
    ("fp8_abt_2048x2048x1024_vector_distribute", "prefetch")})


def built_by_default(name: str, form: str) -> bool:
    """Whether the default run builds ``form`` of ``name``: a form of :data:`CONFIGS` but
    the one ``iree_forms.ONE_BUILT`` only pipelines and those of the long tier
    (:data:`LONG`)."""
    return name in CONFIGS and unbuilt_form(name) != form and name not in LONG and \
        (name, form) not in LONG


def _schedule(text: str) -> str:
    """``--emit=schedule-json`` of ``text`` outside the run's store: a merge is confirmed
    on this run's module taken on to LLVM's code, not by an hsaco build that runs the front
    end again (``driver/merge_confirm.py``; bf16 A^T x B 2048x2048x1024: 1.2 s CPU less)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.driver.code_cache import sharing
    with sharing(None):
        return compile(CompileOptions(schedule="4wave", text=text,
                                      emit="schedule-json")).checked_output()


def forms_agree(generated, name: str, built: str | None = None):
    """The schedule (JSON) of configuration ``name``, the same from both forms.  A form
    whose code object the default run builds anyway (:func:`built_by_default`,
    :data:`FAMILIES_BUILD`) and the form ``built`` (the one a test emulates next) give
    their schedule from that build (its schedule kept on the way:
    ``build_cache.KEPT_STAGES``), the others (a form of ``iree_forms.ONE_BUILT``, a
    configuration not of :data:`CONFIGS`) from ``--emit=schedule-json`` (once per run:
    :func:`exact_in_random_order` asks again)."""
    schedules = {}
    for form in ("prefetch", "late"):
        if built_by_default(name, form) or form == built or (name, form) in FAMILIES_BUILD:
            result = shared_build("4wave", input=str(generated(name, form)))
            # pipelined: a kernel plan lowered (test_configuration's check, which a form of
            # RANDOM_FORM is not run by)
            assert result.plans, f"{name} ({form}): not pipelined"
            schedules[form] = result.stages["schedule-json"]
            continue
        text = generated(name, form).read_text()
        schedules[form] = cached("4wave-schedule-json", text, lambda: _schedule(text))
    assert schedules["prefetch"] == schedules["late"]
    return schedules["late"]


#: configuration -> the form a topic module runs in random order with
#: :func:`exact_in_random_order` (its item also checks, through :func:`forms_agree`, that
#: both forms are pipelined into one schedule): ``test_configuration`` runs that form's code
#: object in late mode no more, only the other's (for ``iree_forms.ONE_BUILT``, the long
#: tier; the default run its schedule alone; both forms' waits and barriers are the
#: schedule's: the late run of one form checks them; the random run checks the form's own
#: code, on workgroups that show an offset or a swapped id).  The form a test passes to
#: :func:`exact_in_random_order` must be this one; a topic item taken away takes its entry.
RANDOM_FORM = {
    # test_iree_config_layouts.py
    "bf16_ab_2048x2048x1024": "late", "fp8_ab_2048x2048x1024": "late",
    "i8_ab_2048x2048x1024": "late", "bf16_atb_2048x2048x1024": "prefetch",
    "bf16_atbt_2048x2048x1024": "prefetch", "bf16_ab_1024x1024x512": "late",
    "bf16_atb_1024x1024x768": "late",
    # test_iree_config_tiles.py (f16 512^3 with a 32x32 MFMA not: it is run in its late
    # form only, its prefetch point bf16's, TWINS)
    "bf16_abt_2048x2048x1023": "late", "bf16_abt_512": "late",
    "f16_abt_128x4096x1024": "late",
    "i8_abt_2048x2048x1024": "prefetch", "bf16_abt_512_mfma32": "late",
    "i8_abt_512_mfma32": "late", "fp8_abt_512x512x896_mfma32": "late",
    "bf16_abt_300x500x200": "prefetch",
    # test_iree_config_vector_distribute.py
    "bf16_abt_2048x2048x1024_vector_distribute": "late",
    "bf16_abt_2048x2048x1152_vector_distribute": "prefetch",
    "bf16_ab_2048x2048x1024_vector_distribute": "late",
    # test_iree_config_ksplit.py (fp8 E5M2's run in its late form only: TWINS)
    "fp8_abt_2048x2048x1024_vector_distribute": "late",
    "fp8_abt_1024x1024x1536_vector_distribute": "prefetch",
    # test_iree_families.py (its no-dma and halved-merged families' random-order runs)
    "bf16_abt_2048x2048x1024_no_dma": "late", "bf16_atb_300x200x160": "late",
}


#: the long tier's configurations (``long_tier.py``; docs/testing.md, "The long tier"): a
#: second instance of a row of docs/iree-configurations.md's table, whose every item (its
#: forms in ``test_configuration``, its runs in a topic module) only ``PIPELINE_TEST_LONG=1``
#: runs: name -> (the configuration of the default run that stands for it, or a tuple of
#: them, why it takes their path); (name, form) -> the same for one form of it, its other
#: form kept.  Read by the parametrisations (:func:`param`);
#: ``test_each_form_left_out_stands_for_or_by_one_run`` checks each stand-in pipelined by
#: the default run.
LONG: dict[str | tuple[str, str], tuple[str | tuple[str, ...], str]] = {
    # type twins (test_configuration's TWINS: both forms the twin's text but for the type,
    # checked by the twin's item, which moves with it)
    **{name: (twin, "its kernel is its twin's but for the element type, both forms "
                    "(test_configuration's TWINS)")
       for name, twin in (("f16_ab_2048x2048x1024", "bf16_ab_2048x2048x1024"),
                          ("f16_atb_2048x2048x1024", "bf16_atb_2048x2048x1024"),
                          ("f16_abt_512_mfma32", "bf16_abt_512_mfma32"),
                          ("f16_abt_2048x2048x1024_vector_distribute",
                           "bf16_abt_2048x2048x1024_vector_distribute"),
                          ("fp8e5m2_abt_2048x2048x1024_vector_distribute",
                           "fp8_abt_2048x2048x1024_vector_distribute"))},
    # one text but for the element type and the numbers (sizes, strides, trip count, grid;
    # test_configuration's _same_but_numbers' comparison), both forms
    "f16_abt_2048x2048x1024": ("bf16_abt_1024x4096x2048", "both forms are its text but for "
                               "the element type and the numbers (IREE's default 128x128 "
                               "tile)"),
    "bf16_abt_8192x256x1024": ("f16_abt_128x4096x1024", "both forms are its text but for the "
                               "element type and the numbers (64x128 tile, K step 128)"),
    # (its 4 K steps of 128 all in the prologue and the drain, LLVM given no loop, as
    # bf16 A x B 1024x1024x512's on the same tile: --emit=report's "main loop: none")
    "bf16_abt_512": (("f16_abt_128x4096x1024", "bf16_ab_1024x1024x512"),
                     "both forms are f16 128x4096x1024's text but for the element type and "
                     "the numbers (the prefetch point one constant fewer, two of its numbers "
                     "equal); its 4 K steps of 128, no loop left to LLVM, as "
                     "bf16_ab_1024x1024x512's"),
    "fp8e5m2_atb_1024x1024x512": (("fp8_atb_1024x1024x1536", "i8_abt_512"),
                                  "both forms are fp8 A^T x B 1024x1024x1536's text but for "
                                  "the element type and the numbers (the late form one "
                                  "constant more); its 2 K steps, no loop left to LLVM, as "
                                  "i8_abt_512's"),
    # (2026-12-07) configurations whose items run no line or branch of pipeline_mlir that
    # the other items of test_iree_configurations.py leave unrun (coverage.py, per item:
    # docs/testing.md, "The long tier"), each with another configuration of its row run
    "i8_atb_1024x1024x512": (("fp8_atb_1024x1024x1536", "i8_abt_512"),
                             "its K x M and K x N register copies read with 8-bit transposing "
                             "reads are fp8_atb_1024x1024x1536's (the same 64x128 tile, K step "
                             "256), its i8 MFMAs and i32 C i8_abt_512's; its 2 K steps, no "
                             "loop left to LLVM, as i8_abt_512's"),
    "fp8_abt_2048x2048x1028": (("bf16_abt_2048x2048x1028", "bf16_abt_2048x2048x1023"),
                               "its unaligned K (the masked tile peeled, the copies "
                               "register-staged) is bf16 x1028's at the prefetch point and "
                               "bf16 x1023's in the late form; fp8's MFMAs run in fp8_abt_4096"),
    "bf16_abt_2048x2048x1023_no_dma": (("bf16_abt_2048x2048x1023",
                                        "bf16_abt_2048x2048x1024_no_dma"),
                                       "its unaligned K is bf16 x1023's (both forms), its "
                                       "copies through registers made direct-to-LDS "
                                       "bf16_abt_2048x2048x1024_no_dma's"),
    # the 64x128 8-bit tile of K step 256 (the table's row of fp8 E5M2 A x B, fp8 A^T x B
    # and A^T x B^T, i8 A^T x B): its operands' two paths, a register copy read with 8-bit
    # transposing reads (K x M, K x N) or with plain reads (M x K, N x K), run on fp8 A^T x
    # B (both transposing) and i8 A x B^T 512^3 (both plain, the same tile and LDS shapes)
    **{name: (("fp8_atb_1024x1024x1536", "i8_abt_512"), f"{why} is fp8_atb_1024x1024x1536's "
              "(8-bit transposing reads of a register copy), its " + other + " i8_abt_512's "
              "(plain reads of a register copy) on the same 64x128 tile, K step 256; its 2 K "
              "steps, no loop left to LLVM, as i8_abt_512's")
       for name, why, other in (("fp8e5m2_ab_1024x1024x512", "its B (K x N)", "A (M x K)"),
                                ("fp8_atbt_1024x1024x512", "its A (K x M)", "B (N x K)"))},
    # IREE's VectorDistribute pipeline in i8 (6 K steps of 256): both forms compared and the
    # late form run in random order by test_iree_families.py (i8-vector-distribute)
    "i8_abt_2048x2048x1536_vector_distribute": (
        "bf16_abt_2048x2048x1024_vector_distribute", "VectorDistribute's path is bf16's, "
        "i8's own forms compared and its late form exact in random order in "
        "test_iree_families.py (i8-vector-distribute)"),
}


def long_reason(name: str, form: str | None = None) -> str | None:
    """The long-tier marker's reason of configuration ``name`` (in ``form``, if one is
    named), None if the default run runs it (:data:`LONG`)."""
    entry = LONG.get((name, form)) or LONG.get(name)
    if entry is None and form is not None and unbuilt_form(name) == form:
        return one_built_reason(name)
    if entry is None:
        return None
    stands, why = entry
    stands = " and ".join((stands,) if isinstance(stands, str) else stands)
    return f"{name}{f' ({form})' if form else ''}: {why}; {stands} in the default run"


def param(name: str, *values, form: str | None = None):
    """``pytest.param(name, *values)``, marked for the long tier when :data:`LONG` names the
    configuration (or that form of it: by default its :data:`RANDOM_FORM`, the form a topic
    module's item runs), with its reason."""
    import pytest

    reason = long_reason(name, form or RANDOM_FORM.get(name))
    return pytest.param(name, *values, marks=[pytest.mark.long(reason)] if reason else [])


def forall_grid(prefetch_text: str) -> tuple[int, int] | None:
    """IREE's workgroup grid (tiles in M, tiles in N): the bounds of its ``scf.forall`` at
    the prefetch point; None without one (VectorDistribute)."""
    m = re.search(r"scf\.forall \([^)]*\) in \((\d+), (\d+)\)", prefetch_text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _square_grid(generated, name: str) -> bool:
    """Whether IREE's workgroup grid of ``name`` (:func:`forall_grid`) is square, its last
    tile on the diagonal."""
    grid = forall_grid(generated(name, "prefetch").read_text())
    return grid is not None and grid[0] == grid[1]


def exact_in_random_order(generated, name: str, capsys, seed: int, form: str,
                          workgroups: int | None = None, shows: str = "") -> None:
    """The kernel of ``form`` exact on ``workgroups`` workgroups spread over the grid,
    memory completing in a random order, the output naming ``shows`` (an element type,
    say).  By default two, the first and the last (the corner tile, cut at C's edges where
    the sizes are unaligned; on a grid that is not square in another row and column than
    its transpose, so an x and a y swapped show), and on a square grid (its last tile on
    the diagonal) three: the one halfway between them in the grid's order too, in another
    row and column.  The random order checks the waits and barriers, which are the
    schedule's and the same in every workgroup; a tile between these takes their paths at
    other offsets.  One form (:data:`RANDOM_FORM`): both give one schedule (checked here,
    :func:`forms_agree`), so the same waits and barriers, and ``test_configuration`` runs
    the other form's code object in late mode (the long tier, for ``iree_forms.ONE_BUILT``;
    the two forms' runs in each mode cost twice, for no wait or barrier more).  The
    form emulated is built once: its schedule is that build's (``forms_agree``'s
    ``built``)."""
    assert RANDOM_FORM.get(name, form) == form, f"{name}: RANDOM_FORM names " \
        f"{RANDOM_FORM[name]}, the form test_configuration leaves to this run; {form} is " \
        f"run here"
    forms_agree(generated, name, built=form)
    if workgroups is None:
        workgroups = 3 if _square_grid(generated, name) else 2
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(generated(name, form)),
                   f"--emulate-workgroups={workgroups}", f"--emulate-mode=random:{seed}"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random" in out and ": exact, max error 0" in out, out + err
    assert shows in out, out
    assert_steady_or_short(loops, name, generated)


def each_form_built(tmp_path: Path, forms: dict, stages: tuple, name: str = ""):
    """Each of IREE's ``forms`` (``generate.forms``) written to ``tmp_path`` (``name``
    before the form's) and built by the 4-wave schedule to a code object, the ``stages``
    kept on the way: (form, its file, the ``CompileResult``), the build checked and kept as
    the store's build of it too (``build_cache.keep_built``: an ``--emulate`` of it reads
    it)."""
    from build_cache import KEPT_STAGES, keep_built
    from pipeline_mlir.driver import CompileOptions, compile

    for form, text in forms.items():
        path = tmp_path / f"{name}{form}.mlir"
        path.write_text(text)
        built = compile(CompileOptions(schedule="4wave", input=str(path), emit="hsaco", stages=(
            stages + tuple(k for k in KEPT_STAGES if k not in stages))))
        built.checked_output()
        keep_built("4wave", text, built)
        yield form, path, built


def built_unspilled_and_exact(tmp_path: Path, late: str, capsys,
                              workgroups: int | None = None) -> tuple[str, str]:
    """IREE's late form ``late`` built by the 4-wave schedule (:func:`each_form_built`):
    asserted to spill no VGPR or SGPR and to run exact in late mode (``workgroups`` of
    them; None: the driver's default); (its assembly, its ``--emit=report``)."""
    from build_cache import share_code_objects

    with share_code_objects():      # (the emulation runs the build below)
        for _, path, built in each_form_built(tmp_path, {"late": late}, ("asm",)):
            asm = built.stages["asm"]
            assert re.search(r"\.vgpr_spill_count:\s+0\n", asm), "VGPRs spilled"
            assert re.search(r"\.sgpr_spill_count:\s+0\n", asm), "SGPRs spilled"
            rc = main(["--pipeline=4wave", str(path), "--emit=report"])
            report, err = capsys.readouterr()
            assert rc == 0, err
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                       "--emulate-jobs=1"] +
                      ([f"--emulate-workgroups={workgroups}"] if workgroups else []))
            out, err = capsys.readouterr()
            assert rc == 0 and ": exact, max error 0" in out, out + err
            return asm, report
    raise AssertionError("no form built")
