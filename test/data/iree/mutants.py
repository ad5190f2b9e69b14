"""Semantic mutants of IREE's matmul dispatches, and the verdict on each.

A mutant is one of IREE's kernels (:data:`FAMILIES`: bf16 ``A x B^T``, the committed
4096^3 inputs and a 512^3 one; fp8 and i8 with register-staged copies; plain ``A x B`` and
``A^T x B`` with transposing reads; a forced 32x32 MFMA; unaligned sizes and unaligned K;
IREE's 8-wave kernels, pipelined with ``pingpong`` (bf16 256x128; fp8; ``A x B``; K step 128
at 256 rows, split; 32x32x16 MFMAs); IREE's VectorDistribute kernel; IREE's padded
dispatches of M (and N) known at launch, K of 256 and of 200 (rows, and the K left, masked;
launched at the family's sizes, :attr:`Family.launch`); and, drawn only when named
(:attr:`Family.later`), IREE's i8 32x32x32 8-wave kernels split along K (64x128
crosswise, 128x128 under ``pingpong{waits=fragment}``), the 64x128 ones in bf16 and fp8
(two K steps merged into one K tile), its VectorDistribute i8 ``A x B``, its dynamic-K
kernel and the kernels of the front end's later paths (register copies padded by a select
proven the identity, skinny tiles split along K, static-row partial edge tiles with an
unaligned K, an fp8 C, 8, 16 and one wave in lockstep); each at
the prefetch point and in the late form, :data:`INPUTS`, all but the committed ones made by
``iree-compile``) with one semantic change made to its text: an index constant,
an index operand of a copy or a read (another constant, the workgroup id, the thread id,
the loop's induction variable) or an offset added to it, the loop's bounds or step, a barrier removed or moved, a
copy moved below the reads, a read moved to the top of the body, or an extra side effect in
the loop (a store of 16 bytes to the LDS the copies write, a store or an atomic add to C), two
accumulators swapped in the loop's ``scf.yield``, an MFMA's operands swapped or its B
replaced by its A; and, for the later families only, a ``gpu.barrier`` made a bare
``rocdl.s.barrier`` (with or without a ``rocdl.s.waitcnt`` before it).  The kernels IREE
pipelined itself (its default builds, in the late form the front end rolls back:
:attr:`Family.rolled`) draw the mutations of what the roll-backs prove too
(:data:`ROLLBACK_ONLY`: the prologue's indices, carried values, the epilogue, the rolled
bound, slot arithmetic, ``rocdl.asyncmark`` and its waits).  The families of the newest
paths (:attr:`Family.aimed`: the f16 ``A^T x B`` 1000x600x1030 kernel, IREE's register
prefetch with an unaligned K, the one-wave 32x32 kernels whose K steps are merged, the kept
masks' bf16 ``A x B`` 1000^3, the late padded ``A^T x B`` with M and N at launch, the f32
kernels, those with padding rows among them; :data:`FAMILIES` marks each) draw, twice as
likely each, the mutations aimed at what those paths prove (:data:`AIMED_MUTATIONS`: a
mask's or run's bounds and compares, an affine map's constants, a padding select's values
and condition, a guard's or a mask's condition, a mask's size, the strided slices and
shuffles that regroup reads, a static position moved inside its dimension, a view's
offsets and sizes, C's per-thread write loops, stores and ``memref.copy``); and IREE's
``C +=`` kernel, whose C
tile is staged through LDS after the K-loop (:attr:`Family.staged`), those aimed at the
staged accesses too (:data:`STAGED_MUTATIONS`: an index, a loop bound, a transfer made not
in bounds).

The verdict on a mutant (:func:`verdict`):

* ``invalid``: the mutant is not a kernel (the build without pipelining fails too);
* ``refused``: ``pipeline-opt --pipeline=4wave`` (``pingpong`` for the 8-wave family)
  exits 1 with one located message (``FILE:LINE:COL: error: ...``);
* ``exact``: the pipelined kernel computes, on the emulator (late mode; a plain dispatch's
  two workgroups, any other's every workgroup of a small grid or one of each role:
  :func:`described_ids`; launched as the unmutated kernel's dispatch says: :func:`c_bytes`),
  the same C bytes as the mutant built without pipelining (``--pass-pipeline=
  'builtin.module()'``; at the prefetch point IREE's LDS swizzle, an attribute of the
  ``memref.alloc`` that only IREE's own later passes apply, made explicit first as the
  front end's remainder loops make it, :func:`unswizzled`; LDS tiles copied whole into
  private memory copied by a loop of rows, :func:`rolled`; IREE's asynchronous copies made
  synchronous, :func:`synchronous`), and is race-free;
* ``no-reference``: the swizzle cannot be made explicit in the mutant (an access of the
  swizzled buffer the remainder path does not rewrite), IREE's passes do not distribute
  a VectorDistribute mutant (:func:`distributed`), or LDS of dynamic size has no bound to
  allocate it at (:func:`hoisted`), so there is nothing to compare;
* ``input-broken``: the unpipelined mutant itself is racy (the emulator's race checks of
  LDS and of global memory: waves storing to one element of C, ...) or faults, so there is
  nothing to compare (the pipelined one is not run; run beside a race-free unpipelined
  build, a fault or race of its own is ``RACY``); or,
  when the two C's differ, the unpipelined mutant's C differs between two orders of its
  waves (late and eager mode: a race the global check does not see, a load of a wave of the
  workgroup before another wave's store where a later load of the halfword replaced its
  record, :mod:`pipeline_mlir.emu.globalrace`), or two lanes of one of its waves store
  different values to one byte of an element of C the builds differ in, in two stores no
  barrier orders (:func:`lanes_sharing`: two threads, whose order the emulator keeps as the
  hardware does and LLVM need not);
* ``undefined``: the unpipelined mutant itself indexes a private buffer outside its bounds
  (undefined behaviour, whatever either build then computes): the emulator ran it out of
  its private segment, or the front end's check (:func:`undefined`,
  :mod:`pipeline_mlir.frontend.private_bounds`, which refuses such a kernel at the access
  in the pipelined build) sees an index outside the buffer whenever it runs; or, when the
  two C's differ, every element they differ in changes when the unpipelined build runs
  again with another poison (:func:`stores_poison`: computed from memory or registers
  nothing wrote), or a load the kernel always runs, whose value reaches a store, reads a
  private element nothing writes (:func:`unwritten`), or each such element changes when
  the unpipelined build runs with its ``ub.poison`` values made constants, two sets of
  them (:func:`from_ub_poison`: a pad of a guarded read handed to C);
* ``off-grid``: the mutant's own grid (:func:`off_grid`: its ``scf.forall`` bounds, its
  workgroup loops, its ids' upper bounds) no longer holds a workgroup the comparison would
  run (a bound of its grid made smaller): that workgroup does not exist, and stores nothing
  in either build, so the two C's would agree whatever the pipelined kernel does;
* ``WRONG``, ``RACY``, ``UNLOCATED``, ``CRASH``: what must never happen.

Run as a script it runs a campaign and prints the counts::

    python test/data/iree/mutants.py --count 200 --seed 1
    python test/data/iree/mutants.py --seed 1 --only 17    # one mutant, printed in full
    python test/data/iree/mutants.py --count 50 --family fp8 --family i8

Size: the families, the mutations and the verdict of one campaign, kept together because
the recorded seeds' draws depend on all three (the order of the families and mutations).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import random
import re
import sys
import tempfile
import traceback
from dataclasses import dataclass

import numpy as np
from pathlib import Path

DATA = Path(__file__).parent
#: IREE's VectorDistribute pipeline instead of TileAndFuse
VECTOR_DISTRIBUTE = ("--iree-codegen-llvmgpu-use-vector-distribution",
                     "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")
#: IREE's default prefetch stages (2), overriding the 1 ``generate`` compiles with: the build
#: a user gets from ``iree-compile`` without flags, IREE's own pipelining in it
DEFAULT_BUILD = ("--iree-llvmgpu-prefetch-num-stages=2",)


@dataclass(frozen=True)
class Family:
    """A kernel mutated: the ``generate.matmul_source`` arguments (``eight_wave``: those of
    ``generate.EIGHT_WAVE[eight_wave]``), the ``iree-compile`` flags, the schedule that
    pipelines it, the committed file stem (in ``test/data/iree`` or a path relative to it;
    None: generated with ``iree-compile``) and the
    forms mutated.  ``padded``: IREE's padded dispatch of M (and N) known at launch
    (``dynamic.padded_source`` arguments ``(n, k)``, or more of them) instead of
    ``generate.matmul_source``;
    ``launch``: the sizes (M, N, K) such a dispatch is launched at (both builds of a
    mutant), ``workgroups``: the two it runs, by form (None: :data:`WORKGROUPS`).
    ``dynamic_k``: IREE's forced dynamic-K dispatch (``dynamic.dynamic_k_source``) instead.
    ``later``: a family added after the campaign's recorded numbers: in a campaign only
    when named (``--family``), so the draws of a campaign of every family stay as they
    were, and its mutants draw from :data:`LATER_MUTATIONS` (the bare barrier too).
    ``epilogue``: ``epilogues.epilogue_source`` arguments (a matmul with what IREE fuses
    into its dispatch: a relu, C narrowed to an 8-bit float) instead.  ``rolled``: a kernel
    IREE pipelined itself (its default build, late form: the front end rolls its prologue,
    waits and epilogue back), whose mutants draw from :data:`ROLLBACK_MUTATIONS`.
    ``registers``: the forced configuration (``args``' ``mma``) without its promotion
    types, so that IREE copies through registers rather than with DMA.  ``staged``: C's
    tile staged through LDS the K-loop does not touch (IREE's ``C +=``): its mutants also
    draw :data:`STAGED_MUTATIONS`.  ``newest``: a family of the tenth or twelfth audit,
    whose mutants also draw :data:`NEWEST_MUTATIONS`, three times as likely each.
    ``straight``: a late form whose K tiles IREE's pipelining left straight, whose mutants
    also draw :data:`STRAIGHT_MUTATIONS`, three times as likely each.  ``guarded``: C
    staged through LDS by part of the workgroup outside the K-loop (IREE's tiny ``C +=``),
    whose mutants also draw :func:`m_staged_guard`, four times as likely."""
    args: tuple = ()
    flags: tuple = ()
    pipeline: str = "4wave"
    committed: str | None = None
    eight_wave: str | None = None
    forms: tuple = ("prefetch", "late")
    padded: tuple | None = None
    launch: tuple | None = None
    workgroups: tuple | None = None
    dynamic_k: bool = False
    later: bool = False
    epilogue: tuple | None = None
    rolled: bool = False
    registers: bool = False
    aimed: bool = False
    staged: bool = False
    newest: bool = False
    straight: bool = False
    guarded: bool = False

    def source_args(self) -> dict:
        import generate as G

        if self.eight_wave:
            return dict({**G.EIGHT_WAVE, **G.EIGHT_WAVE_VARIANTS}[self.eight_wave])
        return dict(self.args)


def _f(**kw) -> tuple:
    return tuple(sorted(kw.items()))


#: the kernel families, by name (each mutated at the prefetch point and in the late form):
#: bf16 ``A x B^T`` (4096^3 committed; 512^3: 64x128 tiles, K step 128, copies the front end
#: re-distributes), fp8 and i8 (register-staged copies into a padded LDS), plain ``A x B``
#: (B read with transposing reads), ``A^T x B`` (A copied through registers, both read
#: transposed), a forced 32x32x16 MFMA, unaligned sizes (an odd trip count: the remainder
#: loop) and unaligned K (the masked last tile peeled; at 512x512x1020 onto the schedule's
#: own LDS), IREE's 8-wave 256x128 kernel under
#: ``pingpong``, and IREE's VectorDistribute kernel; then fp8 E5M2, f16 ``A x B``, ``A^T x
#: B^T``, and under ``pingpong`` IREE's 8-wave fp8 kernel (at the prefetch point its reads of
#: 32 elements span two 16-element chunks of IREE's swizzle: :func:`unswizzled` swizzles each
#: chunk on its own, as IREE's late form reads them) and its 8-wave ``A x B`` at K step 128
#: (transposing reads issued in runs); IREE's VectorDistribute fp8 kernel, whose K step the
#: front end splits into sub-steps (``frontend/ksplit.py``), also with an odd number of K
#: steps (the remainder loop on the schedule's buffers); fp8 and i8 ``A x B`` (8-bit
#: transposing reads), the fp8 one also with 8 waves under ``pingpong``; IREE's 8-wave bf16
#: kernels at K step 128 (256x256 and 256x128: the K step split, IREE's XOR swizzle kept)
#: and its 8-wave 256x256 kernel with 32x32x16 MFMAs, under ``pingpong``; its i8 256x128
#: kernel with 32x32x32 MFMAs in 2x4 waves (B split along K), under ``pingpong``
FAMILIES = {
    "4096": Family(committed="matmul_bf16_abt_4096"),
    "512": Family(_f(dtype="bf16", m=512, n=512, k=512)),
    "fp8": Family(_f(dtype="fp8", m=512, n=512, k=1024)),
    "i8": Family(_f(dtype="i8", m=512, n=512, k=512)),
    "ab": Family(_f(dtype="bf16", m=1024, n=1024, k=512, transpose_b=False)),
    "atb": Family(_f(dtype="bf16", m=1024, n=1024, k=512, transpose_a=True,
                     transpose_b=False)),
    "mfma32": Family(_f(dtype="bf16", m=512, n=512, k=512, mma="MFMA_F32_32x32x16_BF16")),
    "odd": Family(_f(dtype="bf16", m=300, n=500, k=200)),
    "k4095": Family(_f(dtype="bf16", m=2048, n=2048, k=4095)),
    # unaligned K at IREE's small-problem tile (64x128, K step 128): the peeled masked
    # tiles on LDS of their own beside the schedule's (on the schedule's own,
    # frontend/aliased_remainder.py, before B's subtile windows wrapped)
    "k1020": Family(_f(dtype="bf16", m=512, n=512, k=1020)),
    "8wave": Family(pipeline="pingpong", eight_wave="matmul_bf16_abt_256x128_8wave"),
    "vd": Family(_f(dtype="bf16", m=512, n=512, k=512), VECTOR_DISTRIBUTE),
    "e5m2": Family(_f(dtype="fp8e5m2", m=512, n=512, k=1024)),
    "f16ab": Family(_f(dtype="f16", m=1024, n=1024, k=512, transpose_b=False)),
    "atbt": Family(_f(dtype="bf16", m=1024, n=1024, k=512, transpose_a=True)),
    "fp8w": Family(pipeline="pingpong", eight_wave="matmul_fp8_abt_256x128_8wave"),
    "abw": Family(pipeline="pingpong", eight_wave="matmul_bf16_ab_128x128_k128_8wave"),
    # VectorDistribute fp8: 64x64 tile, K step 1024, split into two K sub-steps of 512
    "vdfp8": Family(_f(dtype="fp8", m=512, n=512, k=2048), VECTOR_DISTRIBUTE),
    # fp8 / i8 A x B: B read with 8-bit transposing reads (ds_read_b64_tr_b8), regrouped
    # by the front end (frontend/transpose.py); the 8-wave fp8 one under pingpong
    "fp8ab": Family(_f(dtype="fp8", m=1024, n=1024, k=512, transpose_b=False)),
    "i8ab": Family(_f(dtype="i8", m=1024, n=1024, k=512, transpose_b=False)),
    "fp8abw": Family(pipeline="pingpong", eight_wave="matmul_fp8_ab_128x128_8wave"),
    # the same with 3 K steps of 512: the third in a remainder loop on the schedule's
    # stage-0 buffers, one sub-step per iteration (its late form built without the sched
    # passes starts a copy's buffer offset 512 below 0 and adds 512 back as the
    # instruction offset: exact since the emulator wraps that sum at 32 bits)
    "vdodd": Family(_f(dtype="fp8", m=1024, n=1024, k=1536), VECTOR_DISTRIBUTE),
    # IREE's 8-wave bf16 kernels at K step 128 under pingpong: 256 rows, so two stages of
    # the tile exceed the LDS and the front end splits the K step into two sub-steps of 64
    # (frontend/ksplit.py), IREE's xor_shuffle swizzle kept
    "k128w": Family(pipeline="pingpong", eight_wave="matmul_bf16_abt_256x256_k128_8wave"),
    "k128wn": Family(pipeline="pingpong", eight_wave="matmul_bf16_abt_256x128_k128_8wave"),
    # pingpong with 32x32x16 MFMAs (IREE's 8-wave 256x256 tile, 2x4 waves of 128x64)
    "mfma32w": Family(pipeline="pingpong", eight_wave="matmul_bf16_abt_256x256_32x32_8wave"),
    # i8 32x32x32 MFMAs at 256x128 in 2x4 waves of 128x32, under pingpong: one fragment of
    # B per wave, B's subtiles its K halves (frontend/k_subtiles.py)
    "i8kw": Family(pipeline="pingpong", eight_wave="matmul_i8_abt_256x128_2x4_32x32_8wave"),
    # IREE's padded dispatches of M (and N) known at launch (copies through registers, each
    # row masked by M, N: frontend/masked_rows.py, masked_rows_late.py), K of 256, launched
    # at M = 200 (M x N = 200 x 272), the workgroups those of a partial tile
    "padm": Family(padded=(False, 256), launch=(200, 4096, 256),
                   workgroups=(("prefetch", [(0, 0), (1, 1)]), ("late", [0, 37]))),
    "padmn": Family(padded=(True, 256), launch=(200, 272, 256),
                    workgroups=(("prefetch", [(0, 0), (2, 1)]), ("late", [0, 5]))),
    # the same with K = 200 (rows and the K left masked at once: frontend/masked_rows_k.py,
    # masked_rows_k_late.py; the last K tile peeled)
    "padkm": Family(padded=(False, 200), launch=(200, 4096, 200),
                    workgroups=(("prefetch", [(0, 0), (1, 1)]), ("late", [0, 37]))),
    "padkmn": Family(padded=(True, 200), launch=(200, 272, 200),
                     workgroups=(("prefetch", [(0, 0), (2, 1)]), ("late", [0, 5]))),
    # -- later families (named only): i8 32x32x32 at 64x128 in 2x4 waves of 32x32, A and B
    # split along K crosswise, under pingpong (frontend/k_subtiles.py)
    "i8x": Family(pipeline="pingpong", eight_wave="matmul_i8_abt_64x128_2x4_32x32_8wave",
                  later=True),
    # i8 32x32x32 at 128x128 in 4x2 waves (A along K) with per-fragment waits (the reads
    # each MMA leaves unread counted)
    "i8kf": Family(pipeline="pingpong{waits=fragment}",
                   eight_wave="matmul_i8_abt_128x128_32x32_8wave", later=True),
    # IREE's VectorDistribute i8 A x B: one-byte reads of B regrouped into
    # ds_read_b64_tr_b8 (frontend/element_reads.py); K of 8 K steps, so that the pipelined
    # loop's steady state runs
    "vdi8ab": Family(_f(dtype="i8", m=512, n=512, k=4096, transpose_b=False),
                     VECTOR_DISTRIBUTE, later=True),
    # IREE's forced dynamic-K kernel, launched at K = 196: 6 whole K tiles (the pipelined
    # loop's steady state, 2 iterations) and a masked one, its fragments read from LDS with
    # a select on the K left (frontend/masked_stage.py)
    "dynk": Family(dynamic_k=True, launch=(4096, 4096, 196), later=True),
    # IREE's 64x128 tile in 2x4 waves of 32x32 MFMAs in bf16 (32x32x16, K step 64) and fp8
    # (32x32x64, K step 128: a chain of 2), under pingpong: two of IREE's K steps merged
    # into one K tile (frontend/kmerge.py); 19 K steps: 16 merged, the steps left over in
    # IREE's loop, an odd last one
    "bf16x": Family(_f(dtype="bf16", m=1024, n=1024, k=19 * 64, transpose_b=True,
                       mma="MFMA_F32_32x32x16_BF16", tile=(64, 128, 64), waves=(2, 4)),
                    pipeline="pingpong", later=True),
    "fp8x": Family(_f(dtype="fp8", m=1024, n=1024, k=19 * 128, transpose_b=True,
                      mma="MFMA_F32_32x32x64_F8E4M3FN", tile=(64, 128, 128), waves=(2, 4)),
                   pipeline="pingpong", later=True),
    # IREE's fp8 A^T x B at K = 288: gfx942's 16x16x32 FP8 MFMA, 9 K steps of 32
    "fp8m16": Family(_f(dtype="fp8", m=256, n=512, k=288, transpose_a=True,
                        transpose_b=False), later=True),
    # the families of the front end's later paths (all later): register copies padded by
    # an arith.select the front end proves the identity (frontend/select_masks.py; unaligned
    # K, the copy placed at its store across a barrier: frontend/regcopy.py)
    "i8abk": Family(_f(dtype="i8", m=1024, n=1024, k=1000, transpose_b=False), later=True),
    "i8abk2": Family(_f(dtype="i8", m=512, n=512, k=1768, transpose_b=False), later=True),
    "fp8abk": Family(_f(dtype="fp8", m=1024, n=1024, k=1000, transpose_b=False),
                     later=True),
    "i8atbtk": Family(_f(dtype="i8", m=1024, n=1024, k=1000, transpose_a=True),
                      later=True),
    "f16atbk": Family(_f(dtype="f16", m=1024, n=1024, k=1030, transpose_a=True,
                         transpose_b=False), later=True),
    # skinny tiles, one MFMA row (column) a wave, that operand split along K (k_subtiles)
    "skinny": Family(_f(dtype="bf16", m=32, n=2048, k=1024), later=True),
    "skinnyn": Family(_f(dtype="f16", m=2048, n=32, k=1024), later=True),
    # static rows of a partial edge tile and an unaligned K (frontend/masked_rows*.py)
    "rows": Family(_f(dtype="bf16", m=300, n=260, k=1020), later=True),
    "rowsk": Family(_f(dtype="bf16", m=200, n=1000, k=1030), later=True),
    "rowsrelu": Family(epilogue=_f(kind="relu", m=1000, n=1000, k=1030), later=True),
    # C narrowed to E4M3FN by arith.truncf (an 8-bit float C epilogue)
    "fp8c": Family(epilogue=_f(kind="trunc_f8E4M3FN", m=1024, n=1024, k=1024), later=True),
    # lockstep kernels of more than 4 waves (the copy's LDS index read through
    # readfirstlane: read_bases.wave_uniform): 8 waves 4x2 at 256x128, 16 waves 4x4; and
    # one wave of a 32x32 tile (one-MFMA blocks merged by kmerge)
    "w8": Family(_f(dtype="bf16", m=1024, n=1024, k=512, mma="MFMA_F32_16x16x32_BF16",
                    tile=(256, 128, 64), waves=(4, 2)), later=True),
    "w16": Family(_f(dtype="bf16", m=1024, n=1024, k=512, mma="MFMA_F32_16x16x32_BF16",
                     tile=(256, 256, 64), waves=(4, 4)), later=True),
    "w1": Family(_f(dtype="bf16", m=512, n=512, k=512, mma="MFMA_F32_16x16x32_BF16",
                    tile=(32, 32, 32), waves=(1, 1)), later=True),
    # C's edge tiles padded per lane by a condition of the workgroup, kept in the copies and
    # tested per lane by the front end's own copies (kept_masks.py, kept_layout.py)
    # (its runs: an inner tile and the corner tile, x the N tile: both edges cut there)
    "keptab": Family(_f(dtype="bf16", m=1000, n=1000, k=1000, transpose_b=False),
                     workgroups=(("prefetch", [(0, 0), (3, 7)]), ("late", [0, 31])),
                     later=True),
    # IREE's default builds (its own 2-stage prefetch pipelining), late form only (what the
    # roll-backs read; their prefetch point is fp8's and 512's): copies through registers,
    # loaded a tile ahead and stored to LDS at the end of the body (frontend/reroll_regs.py),
    # fp8 A x B^T 512x512x1024 and bf16 512^3; and DMA copies in 2 LDS slots closed by
    # rocdl.asyncmark (frontend/reroll.py), a 32x32 tile of one wave at 2112x2048x256: 4224
    # workgroups, more than the roll-backs' proofs enumerate (analysis/id_forms.py alone),
    # run at workgroups 5 and 4223 (the last: row block 65, column block 63)
    "regfp8": Family(_f(dtype="fp8", m=512, n=512, k=1024), DEFAULT_BUILD, forms=("late",),
                     later=True, rolled=True),
    "reg512": Family(_f(dtype="bf16", m=512, n=512, k=512), DEFAULT_BUILD, forms=("late",),
                     later=True, rolled=True),
    # IREE's 3-stage pipelining of 3 K tiles: no loop left, its K tiles straight
    # (frontend/reroll_straight.py), f16 A x B on a 64x128x32 tile in 2x2 waves
    "peeled": Family(_f(dtype="f16", m=256, n=512, k=96, transpose_b=False,
                        mma="MFMA_F32_32x32x16_F16", tile=(64, 128, 32), waves=(2, 2),
                        stages=3), forms=("late",), later=True, rolled=True,
                     straight=True),
    "dmabig": Family(_f(dtype="bf16", m=2112, n=2048, k=256, mma="MFMA_F32_16x16x32_BF16",
                        tile=(32, 32, 32), waves=(1, 1), stages=2), forms=("late",),
                     workgroups=(("late", [5, 4223]),), later=True, rolled=True),
    # the same one-wave tile copied through registers (no promotion type forced): the
    # register roll-back's proof on 4224 workgroups
    "regbig": Family(_f(dtype="bf16", m=2112, n=2048, k=256, mma="MFMA_F32_16x16x32_BF16",
                        tile=(32, 32, 32), waves=(1, 1), stages=2), forms=("late",),
                     workgroups=(("late", [5, 4223]),), later=True, rolled=True,
                     registers=True),
    # -- the newest paths' families (all later, their mutants also draw AIMED_MUTATIONS):
    # f16 A^T x B 1000x600x1030, a 16x32 tile in 2 waves cut at M, N and K (1197
    # workgroups): the edge masks kept in the copies (frontend/kept_layout.py), 4 K steps
    # merged (kmerge, k_subtiles), A's transposing reads regrouped through vector.shuffle
    # (frontend/transpose.py), C written by per-thread loops (memref.copy of rows at the
    # prefetch point: analysis/output_tiles.py); run at the first and the corner workgroup
    "atb600": Family(_f(dtype="f16", m=1000, n=600, k=1030, transpose_a=True,
                        transpose_b=False), later=True, aimed=True,
                     committed="../../lit/passes/Inputs/iree-f16-atb-1000x600x1030"),
    # IREE's default builds (its register prefetch) with an unaligned K, rolled back
    # (frontend/reroll_regs.py: guarded loads, masks, arith.select paddings): bf16 A x B^T
    # 512x512x1020 (K step 128) and f16 512x512x1030 (K step 32)
    "regk1020": Family(_f(dtype="bf16", m=512, n=512, k=1020), DEFAULT_BUILD,
                       forms=("late",), later=True, rolled=True, aimed=True),
    "regf16k": Family(_f(dtype="f16", m=512, n=512, k=1030), DEFAULT_BUILD,
                      forms=("late",), later=True, rolled=True, aimed=True),
    # one wave of a 32x32 tile, K steps merged by kmerge: IREE's DMA prefetch into two LDS
    # slots (the slot views of the kmerge crash) and its register prefetch, rolled back, at
    # 512x512x512 (256 workgroups: the roll-backs' proofs enumerate them); and the
    # one-wave kernel without IREE's prefetch (w1's; IREE does not build it at an unaligned K)
    "dma1w": Family(_f(dtype="bf16", m=512, n=512, k=512, mma="MFMA_F32_16x16x32_BF16",
                       tile=(32, 32, 32), waves=(1, 1), stages=2), forms=("late",),
                    workgroups=(("late", [5, 255]),), later=True, rolled=True, aimed=True),
    "reg1w": Family(_f(dtype="bf16", m=512, n=512, k=512, mma="MFMA_F32_16x16x32_BF16",
                       tile=(32, 32, 32), waves=(1, 1), stages=2), forms=("late",),
                    workgroups=(("late", [5, 255]),), later=True, rolled=True,
                    registers=True, aimed=True),
    "w1m": Family(_f(dtype="bf16", m=512, n=512, k=512, mma="MFMA_F32_16x16x32_BF16",
                     tile=(32, 32, 32), waves=(1, 1)), later=True, aimed=True),
    # keptab's kernel (bf16 A x B 1000^3, 32x32x8 MFMAs, K step 8, the kept masks) drawing
    # the aimed mutations too (keptab's own draws stay as recorded)
    "keptm": Family(_f(dtype="bf16", m=1000, n=1000, k=1000, transpose_b=False),
                    workgroups=(("prefetch", [(0, 0), (3, 7)]), ("late", [0, 31])),
                    later=True, aimed=True),
    # IREE's padded bf16 A^T x B with M and N at launch, its late form: A's runs masked by
    # the M left of the tile row `v floordivsi ceildiv(N, 128)`, B's by the N left of the
    # column `v remsi ceildiv(N, 128)`, the loop versioned on both
    # (frontend/edge_version.py); at 200 x 272 workgroup 0 lies inside M and N, 5 at both
    # edges
    "padatbmn": Family(padded=(True, 256, "bf16", True, False), launch=(200, 272, 256),
                       forms=("late",), workgroups=(("late", [0, 5]),), later=True,
                       aimed=True),
    # IREE's bf16 C += A x B^T 256^3: C read into LDS the K-loop does not touch, the
    # results staged through it after the loop and copied out by a loop of 8 iterations
    # (frontend/lds_extent.py); drawing the aimed and the staged mutations
    "accst": Family(epilogue=_f(kind="accumulate", m=256, n=256, k=256), later=True,
                    aimed=True, staged=True),
    # IREE's tiny bf16 C += A x B^T 18x17x417: C staged through an LDS tile of C's shape by
    # threads 0 to 89 (an scf.if of the thread id), the accumulators put in by memref.copy
    # of per-thread sizes, the late form's copies in loops from the thread id
    # (frontend/lds_extent.py, frontend/guarded_read.py)
    "acctiny": Family(epilogue=_f(kind="accumulate", m=18, n=17, k=417), later=True,
                      aimed=True, staged=True, guarded=True),
    # padatbmn's kernel at K = 200 (A's K rows masked too: the interior loop's K clamps settled,
    # frontend/loop_choices.py), and IREE's bf16 A^T x B 300x200x160 (one wave, its MFMAs
    # halved along K and 2 K steps merged: frontend/half_k.py, frontend/kmerge.py)
    "padatbk200": Family(padded=(True, 200, "bf16", True, False), launch=(200, 272, 200),
                       forms=("late",), workgroups=(("late", [0, 5]),), later=True,
                       aimed=True),
    "atb300": Family(_f(dtype="bf16", m=300, n=200, k=160, transpose_a=True,
                        transpose_b=False), workgroups=(("prefetch", [(0, 0), (18, 12)]),
                                                        ("late", [0, 246])),
                     later=True, aimed=True),
    # the diagonal form (k_subtiles=ab_diagonal: both operands split into the same K
    # halves, frontend/k_subtiles.py): IREE's bf16 A^T x B^T 300x200x96 (3 K steps of one
    # 16x16x32, halved) and i8 A^T x B^T 129x129x129 (2 whole K steps of one 16x16x64,
    # halved into gfx942's 16x16x32; A's runs cut at M's edge), first and last workgroup
    "diag96": Family(_f(dtype="bf16", m=300, n=200, k=96, transpose_a=True),
                     workgroups=(("prefetch", [(0, 0), (18, 12)]), ("late", [0, 246])),
                     later=True, aimed=True),
    "diagi8": Family(_f(dtype="i8", m=129, n=129, k=129, transpose_a=True),
                     workgroups=(("prefetch", [(0, 0), (8, 8)]), ("late", [0, 80])),
                     later=True, aimed=True),
    # bf16 A^T x B^T 33x17x96 in the diagonal form with 2 waves (3 workgroups, all run)
    "diag2w": Family(_f(dtype="bf16", m=33, n=17, k=96, transpose_a=True), later=True,
                     aimed=True),
    # the diagonal form unhalved: IREE's fp8 A^T x B 31x112x224 (one 16x16x32 MFMA per wave
    # and K step, which the front end does not cut: 2 K steps merged, frontend/natural.py's
    # _diagonal_merged; 7 workgroups of 2 waves) and f16 A^T x B^T 300x200x192 (a chain of
    # 2 per K step, its MFMAs halved: the diagonal form takes only its mutants whose MFMA
    # operands do not halve), first and last workgroup
    "diagfp8": Family(_f(dtype="fp8", m=31, n=112, k=224, transpose_a=True,
                         transpose_b=False),
                      workgroups=(("prefetch", [(0, 0), (6, 0)]), ("late", [0, 6])),
                      later=True, aimed=True),
    # the fifteenth sweep's: IREE's i8 A^T x B^T 128x256x512 in a 128x256 tile of 2x2 waves,
    # 2 stages forced, rolled back with its C stores' index arithmetic between the
    # epilogue's repeats left in place (frontend/reroll.py's _invariant; its one
    # workgroup), and fp8 A^T x B 31x112x96, too short for the diagonal form, run as
    # written (frontend/natural.py's _short_as_written; first and last of 7 workgroups)
    "reroll8": Family(_f(dtype="i8", m=128, n=256, k=512, transpose_a=True,
                         mma="MFMA_I32_16x16x64_I8", stages=2, tile=(128, 256, 128),
                         waves=(2, 2)), forms=("late",), workgroups=(("late", [0]),),
                      later=True, rolled=True, aimed=True),
    "short96": Family(_f(dtype="fp8", m=31, n=112, k=96, transpose_a=True,
                         transpose_b=False),
                      workgroups=(("prefetch", [(0, 0), (6, 0)]), ("late", [0, 6])),
                      later=True, aimed=True),
    # the fifteenth and sixteenth sweeps': IREE's f16 A x B^T 192x256x48 with a 32x32x16
    # MFMA in a 64x128 tile of 2x1 waves (its MFMAs halved, A split along K, B read whole
    # and sliced: frontend/half_k.py's whole; first and last of 6 workgroups), fp8
    # A^T x B^T 652x284x512 (its MFMAs cut into 4, both operands split crosswise, B's
    # pieces of one load read as one: frontend/half_join.py; first and last), the default
    # build of fp8 A x B^T 64x44x357 (B's rows past N clamped, a remui of a negative
    # operand compared as an op by the roll-back: analysis/id_forms.py; one workgroup),
    # and the i8 batch A x B^T 3x256x312x1180, late form (2 K steps merged, the odd one
    # left to the kernel's loop, B's clamped rows proven unused with it:
    # frontend/natural.py's _as_committed; a workgroup of the last column of tiles)
    "half32": Family(_f(dtype="f16", m=192, n=256, k=48, mma="MFMA_F32_32x32x16_F16",
                        tile=(64, 128, 16), waves=(2, 1)),
                     workgroups=(("prefetch", [(0, 0), (1, 2)]), ("late", [0, 5])),
                     later=True, aimed=True),
    "join652": Family(_f(dtype="fp8", m=652, n=284, k=512, transpose_a=True),
                      workgroups=(("prefetch", [(0, 0), (8, 40)]), ("late", [0, 368])),
                      later=True, aimed=True),
    "remui44": Family(_f(dtype="fp8", m=64, n=44, k=357), DEFAULT_BUILD, forms=("late",),
                      workgroups=(("late", [0]),), later=True, rolled=True, aimed=True),
    "merge312": Family(epilogue=_f(kind="batch", dtype="i8", m=256, n=312, k=1180, batch=3),
                       forms=("late",), workgroups=(("late", [0, 2]),), later=True,
                       aimed=True),
    "diag192": Family(_f(dtype="f16", m=300, n=200, k=192, transpose_a=True),
                      workgroups=(("prefetch", [(0, 0), (18, 12)]), ("late", [0, 246])),
                      later=True, aimed=True),
    # (not the diagonal form, for a hole it shares: IREE's bf16 A^T x B^T 129x129x160, its
    # MFMAs halved and 2 K steps merged, crosswise; A's runs cut at M's edge)
    "atbt129": Family(_f(dtype="bf16", m=129, n=129, k=160, transpose_a=True),
                      workgroups=(("prefetch", [(0, 0), (8, 8)]), ("late", [0, 80])),
                      later=True, aimed=True),
    # IREE's batch A x B^T 2x100x128x262, late form: a grid of 4, rows past M clamped to
    # batch 1's first, which the front end proves unused in workgroup 1 alone
    # (frontend/unused_rows.py); the verdict runs all 4 (:func:`described_ids`)
    "batch": Family(epilogue=_f(kind="batch", m=100, n=128, k=262), forms=("late",),
                    later=True),
    # the configurations whose forms were made to agree (docs/iree-audits.md): f16 A^T x B^T
    # 113x240x352 (B's copies split after A's buffer was converted: regcopy.py), IREE's
    # batch A x B f16 3 x 257x128x320 and 3 x 129x128x160, bf16 2 x 100x64x192 (rows past M
    # pointed past the buffer's end, the prefetch point's epilogue staged through private
    # memory a vector at a time: frontend/private_vectors.py, unused_rows.py)
    "atbt113": Family(_f(dtype="f16", m=113, n=240, k=352, transpose_a=True), later=True,
                      aimed=True),
    "bab257": Family(epilogue=_f(kind="batch", dtype="f16", m=257, n=128, k=320, batch=3,
                                 b_kxn=True), later=True, aimed=True),
    "bab129": Family(epilogue=_f(kind="batch", dtype="f16", m=129, n=128, k=160, batch=3,
                                 b_kxn=True), later=True, aimed=True),
    "bab100": Family(epilogue=_f(kind="batch", dtype="bf16", m=100, n=64, k=192, batch=2,
                                 b_kxn=True), later=True, aimed=True),
    # the paths the tenth audit aimed at (docs/iree-audits.md): copies made by part of the
    # workgroup, spread over every thread (frontend/partial_copy.py: f16 A x B^T 100x17x520,
    # B by threads 0 to 127; 17x100x520, A by them); i8 C += A x B 491x125x320 and
    # C += A x B^T 179x295x320 (C's edge tile read into a private buffer forwarded:
    # frontend/private_rows.py; its rows' masks a constant_mask, frontend/select_read.py);
    # bf16 C += A x B with a bias of N and a relu fused, C read from another binding than
    # the one written (frontend/epilogue.py)
    "pc100": Family(_f(dtype="f16", m=100, n=17, k=520), later=True, aimed=True,
                    newest=True),
    "pc17": Family(_f(dtype="f16", m=17, n=100, k=520), later=True, aimed=True,
                   newest=True),
    "i8acc": Family(epilogue=_f(kind="accumulate", dtype="i8", m=491, n=125, k=320,
                                b_kxn=True), later=True, aimed=True, newest=True),
    "i8acct": Family(epilogue=_f(kind="accumulate", dtype="i8", m=179, n=295, k=320),
                     later=True, aimed=True, newest=True),
    "accbr": Family(epilogue=_f(kind="accumulate_bias_relu", dtype="bf16", m=161, n=383,
                                k=256, b_kxn=True), later=True, aimed=True, newest=True),
    # the paths the twelfth audit aimed at (docs/iree-audits.md): fp8 A x B^T and A x B
    # 31x64x96 and 17x64x96 (A's halves copied through registers 2 bytes a lane, B held
    # whole in each stage: copy_widths.staged_width, k_subtiles.held_of); f16 A x B
    # 100x24x520 (B copied by threads 0 to 127 staged through private memory, the two
    # guards made one: frontend/guarded_pairs.py); whole-run masks kept in the one tile
    # (kept_masks.py: f16 A^T x B 9x100x520 and 33x100x520, bf16 28x64x160); batches
    # inside one tile (fp8 2 x 33x257x1000, f16 A x B 2 x 33x128x160)
    "h31": Family(_f(dtype="fp8", m=31, n=64, k=96), later=True, aimed=True, newest=True),
    "h17": Family(_f(dtype="fp8", m=17, n=64, k=96), later=True, aimed=True, newest=True),
    "hab31": Family(_f(dtype="fp8", m=31, n=64, k=96, transpose_b=False), later=True,
                    aimed=True, newest=True),
    "hab17": Family(_f(dtype="fp8", m=17, n=64, k=96, transpose_b=False), later=True,
                    aimed=True, newest=True),
    "gp24": Family(_f(dtype="f16", m=100, n=24, k=520, transpose_b=False), later=True,
                   aimed=True, newest=True),
    # pc100 and pc17 in IREE's default build (2 prefetch stages): IREE pipelines the loop's
    # DMA copies, the copy by threads 0 to 127 guarded in its prologue and body, which the
    # roll-back takes (frontend/reroll.py; finding 86 of docs/iree-audits.md)
    "pc100s2": Family(_f(dtype="f16", m=100, n=17, k=520), DEFAULT_BUILD, forms=("late",),
                      later=True, rolled=True, aimed=True, newest=True),
    "pc17s2": Family(_f(dtype="f16", m=17, n=100, k=520), DEFAULT_BUILD, forms=("late",),
                     later=True, rolled=True, aimed=True, newest=True),
    # f32rows and f32rowst in IREE's default build: IREE pipelines the loop through
    # registers, the copy of threads 0 to 15 staged through private memory between two
    # guards split across it, which the roll-back takes (frontend/reroll_staged.py;
    # finding 87 of docs/iree-audits.md)
    "f32rows2": Family(_f(dtype="f32", m=94, n=1826, k=2660, transpose_a=True,
                          transpose_b=False), DEFAULT_BUILD, forms=("late",), later=True,
                       rolled=True, aimed=True),
    "f32rowst2": Family(_f(dtype="f32", m=621, n=1724, k=1099, transpose_a=True),
                        DEFAULT_BUILD, forms=("late",), later=True, rolled=True, aimed=True),
    # ... and f32 A^T x B^T 380x857x26, whose prologue IREE folds at tile 0 into a plain
    # load and a select
    "f32fold2": Family(_f(dtype="f32", m=380, n=857, k=26, transpose_a=True),
                       DEFAULT_BUILD, forms=("late",), later=True, rolled=True, aimed=True),
    "ot9": Family(_f(dtype="f16", m=9, n=100, k=520, transpose_a=True, transpose_b=False),
                  later=True, aimed=True, newest=True),
    "ot33": Family(_f(dtype="f16", m=33, n=100, k=520, transpose_a=True, transpose_b=False),
                   later=True, aimed=True, newest=True),
    "ot28": Family(_f(dtype="bf16", m=28, n=64, k=160, transpose_a=True, transpose_b=False),
                   later=True, aimed=True, newest=True),
    # IREE's own 16x16x16 MFMAs (f16 A^T x B^T 24x5x400: a 32x16 tile in 2 waves, 4 K
    # steps merged, crosswise) and a masked K tail inside the pipelined pair (24x5x232: two
    # K steps of 128, the second's selects AND C's edges, kept in the copies: address.py's
    # kept moves, tag_check.py's one-tile comparison); one workgroup each
    "own16": Family(_f(dtype="f16", m=24, n=5, k=400, transpose_a=True),
                    workgroups=(("prefetch", [(0, 0)]), ("late", [0])), later=True,
                    aimed=True),
    # and IREE's own gfx942 32x32x16 i8 MFMAs (i8 A x B^T 59x28x496: a 64x32 tile in 2
    # waves, 4 K steps merged)
    "own32i8": Family(_f(dtype="i8", m=59, n=28, k=496),
                      workgroups=(("prefetch", [(0, 0)]), ("late", [0])), later=True,
                      aimed=True),
    "tail232": Family(_f(dtype="f16", m=24, n=5, k=232, transpose_a=True),
                      workgroups=(("prefetch", [(0, 0)]), ("late", [0])), later=True,
                      aimed=True),
    # IREE's 3-stage prefetch through registers (K tile 1 carried in registers), brought
    # to the 2-stage form and rolled back (frontend/reroll_carried.py): f16 A^T x B
    # 133x42x198 (guarded loads) and f16 A^T x B^T 309x255x2024 (B padded by a select)
    "reg3s": Family(_f(dtype="f16", m=133, n=42, k=198, transpose_a=True, transpose_b=False),
                    ("--iree-llvmgpu-prefetch-num-stages=3",), forms=("late",), later=True,
                    rolled=True, aimed=True),
    "reg3pad": Family(_f(dtype="f16", m=309, n=255, k=2024, transpose_a=True),
                      ("--iree-llvmgpu-prefetch-num-stages=3",), forms=("late",), later=True,
                      rolled=True, aimed=True),
    # IREE's 3-stage prefetch through registers of 3 K tiles: no loop left, its K tiles
    # straight (frontend/reroll_straight_regs.py): fp8 E5M2 A x B^T 95x90x271 (the last K
    # tile cut at 15 columns) and i8 A^T x B 389x178x721 (a K tile's copy of rows past K
    # folded to its padding, masks of C's edge)
    "peeledreg": Family(_f(dtype="fp8e5m2", m=95, n=90, k=271),
                        ("--iree-llvmgpu-prefetch-num-stages=3",), forms=("late",),
                        later=True, rolled=True, aimed=True, straight=True),
    "peeledregi8": Family(_f(dtype="i8", m=389, n=178, k=721, transpose_a=True,
                             transpose_b=False), ("--iree-llvmgpu-prefetch-num-stages=3",),
                          forms=("late",), later=True, rolled=True, aimed=True,
                          straight=True),
    # ... and f16 A^T x B 96x29x2858, whose loop also carries whether the carried tile's K
    # rows lie inside K (an index feeding A's padding select)
    "reg3k": Family(_f(dtype="f16", m=96, n=29, k=2858, transpose_a=True, transpose_b=False),
                    ("--iree-llvmgpu-prefetch-num-stages=3",), forms=("late",), later=True,
                    rolled=True, aimed=True),
    # ... and f16 C += A x B 156x71x383: C's rows loaded by IREE's guarded loads and
    # staged in private memory before K tile 0's copies (they stay before the rebuilt loop)
    "accpeel": Family(epilogue=_f(kind="accumulate", dtype="f16", m=156, n=71, k=383,
                                  b_kxn=True), flags=("--iree-llvmgpu-prefetch-num-stages=3",),
                      forms=("late",), later=True, rolled=True, aimed=True, straight=True),
    # IREE's f32 kernels (16x16x4 f32 MFMAs on scalar operands): A x B 512x256x512 (a
    # 64x128 tile, K step 64) and the 3-stage A x B^T 34x27x2112, whose copy of rows past M
    # IREE folded to a store of its padding (frontend/reroll_carried.py)
    "f32ab": Family(_f(dtype="f32", m=512, n=256, k=512, transpose_b=False), later=True,
                    aimed=True),
    # ... and f32 A^T x B^T 292x754x758 (1 prefetch stage), A's subtiles fewer elements
    # than threads: padded (frontend/layout.py's ChannelPlan.padding)
    "f32pad": Family(_f(dtype="f32", m=292, n=754, k=758, transpose_a=True),
                     ("--iree-llvmgpu-prefetch-num-stages=1",), later=True, aimed=True),
    # ... and f32 A^T x B 94x1826x2660 and A^T x B^T 621x1724x1099 (1 prefetch stage):
    # a 4 x 16 tile copied by 16 of 128 threads, spread an element a thread into an LDS
    # buffer grown by padding rows no read reads, left out of the front end's own copies
    # (frontend/partial_elements.py, frontend/unread_bits.py)
    "f32rows": Family(_f(dtype="f32", m=94, n=1826, k=2660, transpose_a=True,
                         transpose_b=False), later=True, aimed=True),
    "f32rowst": Family(_f(dtype="f32", m=621, n=1724, k=1099, transpose_a=True),
                       ("--iree-llvmgpu-prefetch-num-stages=1",), later=True, aimed=True),
    "f32s3": Family(_f(dtype="f32", m=34, n=27, k=2112),
                    ("--iree-llvmgpu-prefetch-num-stages=3",), forms=("late",),
                    workgroups=(("late", [0]),), later=True, rolled=True, aimed=True),
    "bt8": Family(epilogue=_f(kind="batch", dtype="f8E4M3FN", m=33, n=257, k=1000),
                  later=True, aimed=True),
    "btab": Family(epilogue=_f(kind="batch", dtype="f16", m=33, n=128, k=160, b_kxn=True),
                   later=True, aimed=True),
}
FORMS = ("prefetch", "late")
#: the inputs mutated: ``FAMILY.FORM`` -> its family
INPUTS = {f"{name}.{form}": fam for name, fam in FAMILIES.items() for form in fam.forms}
#: the workgroups a plain dispatch's mutants run (IREE's 2-D grid at the prefetch point, the
#: late form's 1-D one; :func:`c_bytes` picks by the kernel's workgroup ids)
WORKGROUPS = {"prefetch": [(0, 0), (1, 1)], "late": [0, 5]}


def plain_ids(name: str, form: str, grid: tuple[int, ...] | None) -> list:
    """The workgroups a plain dispatch's mutants of input ``name`` run in ``form``: its
    family's or :data:`WORKGROUPS`, inside the unmutated dispatch's ``grid``
    (:func:`inside_grid`)."""
    return inside_grid(dict(INPUTS[name].workgroups or WORKGROUPS)[form], grid)


#: a dispatch that is not plain runs every workgroup of a grid of at most this many
#: (:func:`described_ids`); IREE's batch ``A x B^T`` 2x100x128x262 has 4, its workgroup 1
#: (batch 0's last row of tiles) the one where the front end spares rows past M
EVERY_WORKGROUP = 32
#: the tile sizes along M and N a 1-D grid is factored by where the tile its first workgroup
#: writes is not known (:func:`tile_of`, :func:`role_ids`): every multiple of 16 (an MFMA's
#: rows) up to 512, IREE's 64x192 tile among them
TILE_SIZES = tuple(range(16, 513, 16))


def described_ids(d, name: str | None = None) -> list | None:
    """The workgroups a mutant of dispatch ``d`` (of input ``name``) that is not plain runs:
    all of a grid of at most :data:`EVERY_WORKGROUP`, else one of each role
    (:func:`role_ids`, of the tile :func:`tile_of` reads); None for a grid known only at
    launch (its launch decides: the first and the last)."""
    if d.grid is None:
        return None
    grid = tuple(d.grid)
    total = int(np.prod(grid))
    if total <= EVERY_WORKGROUP:
        from pipeline_mlir.emu.gemm import spread_ids
        return spread_ids(grid, None)
    tile = tile_of(name) if name is not None and len(grid) == 1 else None
    return role_ids(grid, d.M, d.N, int(np.prod(d.batch)) if d.batch else 1, tile)


@functools.lru_cache(maxsize=None)
def tile_of(name: str) -> tuple[int, int] | None:
    """The rows and columns of C's tile workgroup 0 of input ``name``'s dispatch writes
    (:func:`pipeline_mlir.driver.dispatch_tiles.partial_tiles` of that workgroup, the box
    of its elements in one batch); None where its writes cannot be read."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.driver.dispatch_tiles import partial_tiles

    d = dispatch(name)
    with new_context() as ctx:
        try:
            mask = partial_tiles(ir.Module.parse(source(name), ctx), d, 1).mask
        except IRError:
            return None
    if mask is None or not mask.any():
        return None
    c = mask.reshape(-1, d.M, d.N).any(axis=0)
    rows, cols = np.nonzero(c.any(axis=1))[0], np.nonzero(c.any(axis=0))[0]
    return int(rows[-1] - rows[0] + 1), int(cols[-1] - cols[0] + 1)


def role_ids(grid: tuple[int, ...], m: int, n: int, batches: int = 1,
             tile: tuple[int, int] | None = None) -> list:
    """One workgroup of each role in ``grid`` for a C of ``batches`` x ``m`` x ``n``: the
    first, the last, an interior one, and the edges.  A grid of several dimensions: each
    corner (each id 0 or the last) and the middle.  A 1-D grid (IREE's late form, its ids
    linearised): the first, the middle and the last of each of the first and the last
    batch; and, for the factoring of a batch's workgroups into ``ceil(m / TM)`` rows x
    ``ceil(n / TN)`` columns of ``tile`` (TM x TN; where that is not known or does not
    factor the grid, each factoring of :data:`TILE_SIZES`) that leaves a partial tile,
    either dimension the fastest, the first and last column of the last row (a partial
    tile along M) or the first and last row of the last column (along N), in the first and
    the last batch.  A grid of whole tiles has no edge unlike its interior."""
    import itertools

    from pipeline_mlir.emu.launchdims import workgroup_id

    total = int(np.prod(grid))
    if len(grid) > 1:
        lin = [sum(i * int(np.prod(grid[:k])) for k, i in enumerate(at))
               for at in itertools.product(*[(0, g - 1) for g in grid])]
        lin.append(sum(g // 2 * int(np.prod(grid[:k])) for k, g in enumerate(grid)))
        return [workgroup_id(i, grid) for i in sorted(set(lin))]
    per = total // batches if batches > 0 and total % batches == 0 else total
    starts = sorted({0, total - per})
    lin = [s + x for s in starts for x in (0, per // 2, per - 1)]

    def factors(tm: int, tn: int) -> bool:
        return -(-m // tm) * -(-n // tn) == per

    tiles = [tile] if tile is not None and factors(*tile) else \
        [t for t in itertools.product(TILE_SIZES, TILE_SIZES) if factors(*t)]
    for tm, tn in tiles:
        rows, cols = -(-m // tm), -(-n // tn)
        at = ([(rows - 1, 0), (rows - 1, cols - 1)] if m % tm else []) + \
            ([(0, cols - 1), (rows - 1, cols - 1)] if n % tn else [])
        lin += [s + i for s in starts for r, c in at for i in (r * cols + c, c * rows + r)]
    return [workgroup_id(i, grid) for i in sorted(set(lin)) if 0 <= i < total]


def inside_grid(ids: list, grid: tuple[int, ...] | None) -> list:
    """``ids`` (ints: linear; tuples: x, y) with each one the launch of ``grid`` (None: not
    known, ``ids`` as they are) does not have replaced by its last workgroup (the edge one
    along every dimension: a grid of one tile along M or N, 1 x 32, has no (1, 1), and
    a run of a workgroup the launch does not have judges nothing), once."""
    if grid is None:
        return list(ids)
    total = int(np.prod(grid))
    out = []
    for w in ids:
        if isinstance(w, int):
            w = w if 0 <= w < total else total - 1
        else:
            dims = tuple(grid) + (1,) * max(0, len(w) - len(grid))
            if not all(0 <= i < n for i, n in zip(w, dims)):
                w = tuple(n - 1 for n in dims[:len(w)])
        if w not in out:
            out.append(w)
    return out
BAD = ("WRONG", "RACY", "UNLOCATED", "CRASH")
LOCATED = re.compile(r"^[^\n:]+:\d+:\d+: error: ", re.M)


def generated(name: str) -> bool:
    """Whether input ``name`` is made by ``iree-compile`` (not committed)."""
    return INPUTS[name].committed is None


def family(name: str) -> Family:
    return INPUTS[name]


@functools.lru_cache(maxsize=None)
def source(name: str) -> str:
    """The text of input ``name`` (:data:`INPUTS`), generated once when not committed (in a
    test run, once per run: the suite's build cache, ``test/unit/build_cache.py``)."""
    fam = INPUTS[name]
    form = name.rsplit(".", 1)[1]
    if fam.committed is not None:
        return (DATA / f"{fam.committed}.{form}.mlir").read_text()
    try:
        from build_cache import cached
    except ImportError:          # not a test run
        def cached(_kind, _inputs, build):
            return build()
    return cached("iree-mutant-input", (fam, form), lambda: _generate(fam, form))


def _generate(fam: Family, form: str) -> str:
    import generate as G

    if fam.epilogue is not None:
        import epilogues as E

        return (G.prefetch_point if form == "prefetch" else G.late_form)(
            E.epilogue_source(**dict(fam.epilogue)), fam.flags)
    if fam.padded is not None or fam.dynamic_k:
        import dynamic as D

        text = D.dynamic_k_source() if fam.dynamic_k else D.padded_source(*fam.padded)
    else:
        text = G.matmul_source(**fam.source_args())
        if fam.registers:
            text = re.sub(r"promotion_types = \[[^\]]*\], ", "", text)
    return (G.prefetch_point if form == "prefetch" else G.late_form)(text, fam.flags)


@dataclass
class Mutant:
    form: str
    index: int
    what: str
    text: str
    #: the name of the mutation that made it (:func:`mutant_of`)
    operator: str = ""


# ---- the mutations ----------------------------------------------------------------------------

def _indent(s: str) -> int:
    return len(s) - len(s.lstrip())


def _loop(lines: list[str]) -> tuple[int, int]:
    """(line of the K-loop's scf.for, line of its scf.yield): the first ``scf.for`` and the
    first ``scf.yield`` one level inside it; where no such yield follows (IREE's dynamic-K
    kernels, their accumulators in LDS: no ``iter_args``), the first ``scf.for`` whose body
    holds an MFMA and the line of its closing brace."""
    start = next(i for i, s in enumerate(lines) if " scf.for " in s)
    indent = _indent(lines[start])
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip().startswith("scf.yield")
                and _indent(lines[i]) == indent + 2), None)
    if end is not None:
        return start, end
    for start in (i for i, s in enumerate(lines) if " scf.for " in s):
        end = next(i for i in range(start + 1, len(lines))
                   if lines[i].strip() == "}" and _indent(lines[i]) == _indent(lines[start]))
        if any("amdgpu.mfma " in s for s in lines[start:end]):
            return start, end
    raise LookupError("no K-loop")


def _index_names(lines: list[str]) -> list[str]:
    """Index values defined before the loop: constants, workgroup and thread ids."""
    out = []
    for s in lines[:_loop(lines)[0]]:
        m = re.match(r"\s*(%\w+) = (arith\.constant -?\d+ : index|hal\.interface\.workgroup"
                     r"\.id|gpu\.thread_id)", s)
        if m:
            out.append(m.group(1))
        m = re.match(r"\s*scf\.forall \((%\w+), (%\w+)\)", s)
        if m:
            out += [m.group(1), m.group(2)]
    return out


def _iv(lines: list[str]) -> tuple[str, str]:
    s = lines[_loop(lines)[0]]
    iv = re.search(r"scf\.for (%\w+) =", s).group(1)
    return iv, ("i32" if re.search(r":\s*i32\s*\{\s*$", s) else "index")


def _body(lines, pattern) -> list[int]:
    start, end = _loop(lines)
    return [i for i in range(start + 1, end) if re.search(pattern, lines[i])]


def m_constant(lines, rng):
    found = [(i, m) for i, s in enumerate(lines)
             if (m := re.match(r"(\s*%\w+ = arith\.constant )(-?\d+)( : (index|i32))", s))]
    i, m = rng.choice(found)
    v = int(m.group(2))
    new = rng.choice(sorted({0, 1, v + 1, v - 1, 2 * v, v + 8} - {v}))
    lines[i] = lines[i].replace(m.group(0), f"{m.group(1)}{new}{m.group(3)}", 1)
    return f"constant on line {i + 1}: {v} -> {new}"


def m_bound(lines, rng):
    start, _ = _loop(lines)
    _, ty = _iv(lines)
    m = re.search(r"= (%\w+) to (%\w+) step (%\w+)", lines[start])
    which = rng.choice(["lower", "upper", "step"])
    value = rng.choice({"lower": [1, 2, -1], "upper": [0, 1, 2, 3, 64, 127, 129],
                        "step": [0, -1, 2, 3]}[which])
    old = m.group({"lower": 1, "upper": 2, "step": 3}[which])
    pre = " " * (len(lines[start]) - len(lines[start].lstrip()))
    lines[start] = lines[start].replace(m.group(0), m.group(0).replace(
        f"{'to' if which == 'upper' else 'step' if which == 'step' else '='} {old}",
        f"{'to' if which == 'upper' else 'step' if which == 'step' else '='} %mut_bound", 1), 1)
    lines.insert(start, f"{pre}%mut_bound = arith.constant {value} : {ty}")
    return f"loop {which} bound -> {value}"


def m_barrier_drop(lines, rng):
    found = [i for i, s in enumerate(lines) if "gpu.barrier" in s]
    i = rng.choice(found)
    del lines[i]
    return f"barrier on line {i + 1} removed"


def m_barrier_move(lines, rng):
    i = rng.choice(_body(lines, r"gpu\.barrier"))
    s = lines.pop(i)
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    lines.insert(j, s)
    return f"barrier on line {i + 1} moved to line {j + 1}"


def _index_operand(lines, rng):
    """(line, match) of an index operand (inside ``[...]``) of a copy, read or LDS store in
    the loop's body."""
    i = rng.choice(_body(lines, rf"amdgpu\.gather_to_lds|{READS}|{LDS_STORES}"))
    spans = [m for m in re.finditer(r"%[\w#]+", lines[i].split(" : ")[0])]
    inside = [m for m in spans if lines[i].rfind("[", 0, m.start()) > lines[i].rfind("]", 0,
                                                                                     m.start())]
    return i, rng.choice(inside)


def m_offset(lines, rng):
    i, m = _index_operand(lines, rng)
    off = rng.choice([1, 8, 16, 64, -8, 128])
    pre = " " * (len(lines[i]) - len(lines[i].lstrip()))
    lines[i] = lines[i][:m.start()] + "%mut_o" + lines[i][m.end():]
    lines[i:i] = [f"{pre}%mut_oc = arith.constant {off} : index",
                  f"{pre}%mut_o = arith.addi {m.group(0)}, %mut_oc : index"]
    return f"offset {off:+d} added to index operand {m.group(0)} on line {i + 1}"


def m_operand(lines, rng):
    i, m = _index_operand(lines, rng)
    names = [n for n in _index_names(lines) if n != m.group(0)]
    iv, ty = _iv(lines)
    if ty == "index":
        names.append(iv)
    new = rng.choice(names)
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return f"index operand {m.group(0)} on line {i + 1} -> {new}"


#: the ops that read memory into registers (fragment reads, the global loads of copies
#: through registers, masked ones too), and those that store registers into LDS (such
#: copies' second half)
READS = r"vector\.transfer_read|vector\.load|vector\.maskedload|amdgpu\.transpose_load"
LDS_STORES = r"(vector\.store|vector\.transfer_write) .*#gpu\.address_space<workgroup>"


def m_copy_down(lines, rng):
    i = rng.choice(_body(lines, rf"amdgpu\.gather_to_lds|{LDS_STORES}"))
    s = lines.pop(i)
    _, end = _loop(lines)
    lines.insert(end, s)
    return f"copy on line {i + 1} moved to the end of the body"


def m_read_up(lines, rng):
    i = rng.choice(_body(lines, READS))
    s = lines.pop(i)
    start, _ = _loop(lines)
    lines.insert(start + 1, s)
    return f"read on line {i + 1} moved to the top of the body"


def _alloc(lines, rng):
    found = [m for s in lines if (m := re.match(
        r"\s*(%\w+) = memref\.alloc\(\)[^:]*: (memref<((?:\d+x)+)(\w+), #gpu\."
        r"address_space<workgroup>>)", s))]
    return rng.choice(found)


def _one(el: str) -> str:
    """1 as a constant of element type ``el``."""
    return "1" if el.startswith("i") else "1.0"


def m_lds_store(lines, rng):
    m = _alloc(lines, rng)
    name, ty, el = m.group(1), m.group(2), m.group(4)
    shape = [int(d) for d in m.group(3).rstrip("x").split("x")]
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    n = 128 // int(re.search(r"\d+", el).group(0))     # 16 bytes: one chunk of a swizzle
    at = [rng.randrange(0, d) for d in shape[:-1]] + [rng.randrange(0, shape[-1] // n) * n]
    pre = " " * (len(lines[end]) - len(lines[end].lstrip()))
    lines[j:j] = [f"{pre}%mut_v = arith.constant dense<{_one(el)}> : vector<{n}x{el}>"] + [
        f"{pre}%mut_i{d} = arith.constant {a} : index" for d, a in enumerate(at)] + [
        f"{pre}vector.store %mut_v, {name}[{', '.join(f'%mut_i{d}' for d in range(len(at)))}]"
        f" : {ty}, vector<{n}x{el}>"]
    where = ", ".join(map(str, at[:-1] + [f"{at[-1]}..{at[-1] + n - 1}"]))
    return f"store of 1 to {name}[{where}] inserted at line {j + 1}"


def _c_binding(lines):
    for s in lines:
        m = re.match(r"\s*(%\w+) = hal\.interface\.binding\.subspan .*binding\(2\).*: "
                     r"(memref<\d+x\d+x(f32|i32)[^>]*>>)", s)
        if m:
            return m.group(1), m.group(2), m.group(3)
    raise LookupError("no C binding")


def m_c_side_effect(lines, rng):
    c, ty, el = _c_binding(lines)
    two, add = ("2", "addi") if el == "i32" else ("2.0", "addf")
    start, end = _loop(lines)
    j = rng.randrange(start + 1, end + 1)
    row, col = rng.randrange(0, 256), rng.randrange(0, 256)
    pre = " " * (len(lines[end]) - len(lines[end].lstrip()))
    new = [f"{pre}%mut_f = arith.constant {two} : {el}",
           f"{pre}%mut_r = arith.constant {row} : index",
           f"{pre}%mut_c = arith.constant {col} : index"]
    if rng.random() < 0.5:
        new.append(f"{pre}memref.store %mut_f, {c}[%mut_r, %mut_c] : {ty}")
        what = "store of 2"
    else:
        new.append(f"{pre}%mut_a = memref.atomic_rmw {add} %mut_f, {c}[%mut_r, %mut_c] : "
                   f"({el}, {ty}) -> {el}")
        what = "atomic add of 2"
    lines[j:j] = new
    return f"{what} to C[{row}, {col}] inserted at line {j + 1}"


def m_yield_swap(lines, rng):
    _, end = _loop(lines)
    head, tail = lines[end].split(" : ", 1)
    names = re.findall(r"%[\w#]+", head)
    i, j = rng.sample(range(len(names)), 2)
    names[i], names[j] = names[j], names[i]
    lines[end] = re.sub(r"scf\.yield .*", "scf.yield " + ", ".join(names), head) + " : " + tail
    return f"accumulators {i} and {j} swapped in the loop's scf.yield"


def m_mfma(lines, rng):
    i = rng.choice(_body(lines, r"amdgpu\.mfma "))
    m = re.search(r"(%[\w#]+) \* (%[\w#]+) \+ (%[\w#]+)", lines[i])
    a, b, c = m.groups()
    if rng.random() < 0.5:
        new, what = f"{b} * {a} + {c}", "operands A and B swapped"
    else:
        new, what = f"{a} * {a} + {c}", "B operand replaced by A"
    lines[i] = lines[i].replace(m.group(0), new, 1)
    return f"MFMA on line {i + 1}: {what}"


#: a ``rocdl.s.waitcnt`` before a bare barrier: vmcnt(0) lgkmcnt(0) (what IREE's
#: ``gpu.barrier`` relies on), lgkmcnt(0) alone, vmcnt(0) alone
WAITS = {112: "vmcnt(0) lgkmcnt(0)", 3952: "vmcnt(0)", 49279: "lgkmcnt(0)"}


def m_bare_barrier(lines, rng):
    """A ``gpu.barrier`` made a bare ``rocdl.s.barrier`` (which waits for none of the wave's
    memory operations), half the time with a ``rocdl.s.waitcnt`` of :data:`WAITS` before
    it."""
    i = rng.choice([i for i, s in enumerate(lines) if "gpu.barrier" in s])
    pre = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = f"{pre}rocdl.s.barrier"
    if rng.random() < 0.5:
        return f"barrier on line {i + 1} made a bare rocdl.s.barrier"
    wait = rng.choice(sorted(WAITS))
    lines.insert(i, f"{pre}rocdl.s.waitcnt {wait}")
    return (f"barrier on line {i + 1} made a rocdl.s.barrier after a rocdl.s.waitcnt "
            f"for {WAITS[wait]}")


# ---- the mutations of the roll-backs' inputs (IREE's own prefetch pipelining) ----------------

def _loop_close(lines: list[str]) -> int:
    """The line of the K-loop's closing brace."""
    start, end = _loop(lines)
    return next(i for i in range(end, len(lines))
                if lines[i].strip().startswith("}") and _indent(lines[i]) == _indent(lines[start]))


def _prologue(lines, pattern) -> list[int]:
    """Lines before the K-loop matching ``pattern`` (IREE's prologue, with what else is
    there)."""
    return [i for i in range(_loop(lines)[0]) if re.search(pattern, lines[i])]


def _epilogue(lines, pattern) -> list[int]:
    """Lines after the K-loop, up to the kernel's first store to global memory, matching
    ``pattern`` (IREE's epilogue: the last tile's reads and MFMAs)."""
    after = range(_loop_close(lines) + 1, len(lines))
    last = next((i for i in after if re.match(r"\s*vector\.store .*fat_raw_buffer|\s*vector"
                                              r"\.store .*#gpu\.address_space<global>",
                                              lines[i])), len(lines))
    return [i for i in after if i < last and re.search(pattern, lines[i])]


#: an op that loads or copies from global memory (a copy's or a register load's source)
GLOBAL_ACCESS = (r"amdgpu\.gather_to_lds|= vector\.load [^\n]*(fat_raw_buffer|#gpu\.address_"
                 r"space<global>)")


def _bracket(line: str, which: int) -> list[re.Match]:
    """The SSA operands inside the ``which``-th ``[...]`` of ``line`` (before its types)."""
    head = line.split(" : ")[0]
    spans = [(m.start(), m.end()) for m in re.finditer(r"\[[^\]]*\]", head)]
    lo, hi = spans[which]
    return [m for m in re.finditer(r"%[\w#]+", head) if lo < m.start() < hi]


def _replace(lines, i: int, m: re.Match, new: str) -> None:
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]


def _add_to(lines, i: int, m: re.Match, term: str) -> str:
    """Operand ``m`` on line ``i`` made ``m + term`` (``term`` a constant, or a value)."""
    pre = " " * _indent(lines[i])
    new = []
    if not term.startswith("%"):
        new.append(f"{pre}%mut_t = arith.constant {term} : index")
        term = "%mut_t"
    new.append(f"{pre}%mut_s = arith.addi {m.group(0)}, {term} : index")
    _replace(lines, i, m, "%mut_s")
    lines[i:i] = new
    return m.group(0)


def _workgroup_ids(lines) -> list[str]:
    return [m.group(1) for s in lines if (m := re.match(
        r"\s*(%\w+) = hal\.interface\.workgroup\.id", s))]


def m_prologue_index(lines, rng):
    """A prologue copy's or global load's index: a K tile other than 0 (an offset of a tile's
    K extent), another workgroup term, or another value."""
    i = rng.choice(_prologue(lines, GLOBAL_ACCESS))
    m = rng.choice(_bracket(lines[i], 0))
    how = rng.choice(["tile", "workgroup", "other"])
    if how == "tile":
        k = rng.choice([16, 32, 64, 128])
        return f"prologue index {_add_to(lines, i, m, str(k))} on line {i + 1} + {k}"
    if how == "workgroup":
        wg = rng.choice(_workgroup_ids(lines))
        return f"prologue index {_add_to(lines, i, m, wg)} on line {i + 1} + {wg}"
    new = rng.choice([n for n in _index_names(lines) if n != m.group(0)])
    _replace(lines, i, m, new)
    return f"prologue index {m.group(0)} on line {i + 1} -> {new}"


def m_prologue_lds_index(lines, rng):
    """A prologue LDS store's (or copy's) LDS index: an offset added, or another value."""
    i = rng.choice(_prologue(lines, rf"amdgpu\.gather_to_lds|{LDS_STORES}"))
    m = rng.choice(_bracket(lines[i], 1 if "gather_to_lds" in lines[i] else 0))
    if rng.random() < 0.6:
        off = rng.choice([1, 8, 16, 64, -8])
        return (f"prologue LDS index {_add_to(lines, i, m, str(off))} on line {i + 1} "
                f"{off:+d}")
    new = rng.choice([n for n in _index_names(lines) if n != m.group(0)])
    _replace(lines, i, m, new)
    return f"prologue LDS index {m.group(0)} on line {i + 1} -> {new}"


def _carried_stores(lines) -> list[tuple[int, str, str]]:
    """(line, value, vector type) of the body's LDS stores of a value the body loaded from
    global memory (a tile loaded a K step ahead, stored at the end of the body)."""
    start, end = _loop(lines)
    loaded = {m.group(1) for s in lines[start:end] if (m := re.match(
        r"\s*(%\w+) = vector\.load .*(fat_raw_buffer|#gpu\.address_space<global>)", s))}
    out = []
    for i in _body(lines, LDS_STORES):
        m = re.match(r"\s*vector\.store (%\w+), .*, (vector<[^>]*>)\s*$", lines[i])
        if m and m.group(1) in loaded:
            out.append((i, m.group(1), m.group(2)))
    return out


def m_carried_change(lines, rng):
    """A value loaded a tile ahead changed before its LDS store: its first element set to
    1, or the value of another such store stored instead."""
    stores = _carried_stores(lines)
    i, v, ty = rng.choice(stores)
    pre = " " * _indent(lines[i])
    same = [w for j, w, t in stores if t == ty and w != v]
    if same and rng.random() < 0.4:
        w = rng.choice(same)
        lines[i] = lines[i].replace(f"vector.store {v},", f"vector.store {w},", 1)
        return f"carried value {v} stored on line {i + 1} -> {w}"
    dims = re.match(r"vector<((?:\d+x)+)(\w+)>", ty)
    el, rank = dims.group(2), dims.group(1).count("x")
    lines[i] = lines[i].replace(f"vector.store {v},", "vector.store %mut_cv,", 1)
    lines[i:i] = [f"{pre}%mut_ce = arith.constant {_one(el)} : {el}",
                  f"{pre}%mut_cv = vector.insert %mut_ce, {v} [{', '.join(['0'] * rank)}] : "
                  f"{el} into {ty}"]
    return f"carried value {v} changed before its store on line {i + 1}"


def m_carried_use(lines, rng):
    """An extra use of a carried value: a tile loaded ahead also stored to its LDS right
    after its load (before the reads of the tile in LDS), or read once more (unused); or, in
    a DMA-pipelined loop, a carried LDS view read once more."""
    stores = _carried_stores(lines)
    if stores:
        i, v, ty = rng.choice(stores)
        j = next(k for k, s in enumerate(lines) if re.match(rf"\s*{v} = ", s))
        if rng.random() < 0.5:
            lines.insert(j + 1, lines[i])
            return f"carried value {v} also stored right after its load on line {j + 1}"
        el, rank = re.match(r"vector<((?:\d+x)+)(\w+)>", ty).group(2), ty.count("x")
        pre = " " * _indent(lines[j])
        lines.insert(j + 1, f"{pre}%mut_u = vector.extract {v}[{', '.join(['0'] * rank)}] : "
                            f"{el} from {ty}")
        return f"carried value {v} read once more (unused) after line {j + 1}"
    start, _ = _loop(lines)
    views = re.findall(r"(%\w+) = %\w+(?=[,)])", lines[start])
    types = re.search(r"-> \((.*)\)\s*(:\s*\w+\s*)?\{", lines[start]).group(1)
    tys = re.findall(r"vector<[^>]*>|memref<(?:[^<>]|<[^<>]*>)*>", types)
    cands = [(a, t) for a, t in zip(views, tys) if t.startswith("memref")]
    a, t = rng.choice(cands)
    el = re.match(r"memref<(?:\d+x)+(\w+)", t).group(1)
    rank = re.match(r"memref<((?:\d+x)+)", t).group(1).count("x")
    pre = " " * (_indent(lines[start]) + 2)
    j = rng.randrange(start + 1, _loop(lines)[1] + 1)
    lines[j:j] = [f"{pre}%mut_z = arith.constant 0 : index",
                  f"{pre}%mut_u = vector.load {a}[{', '.join(['%mut_z'] * rank)}] : {t}, "
                  f"vector<8x{el}>"]
    return f"carried LDS view {a} read once more (unused) at line {j + 1}"


def m_epilogue(lines, rng):
    """An epilogue op changed: an MFMA's operands swapped, its B replaced by its A or its
    accumulator by another of the loop's results; an LDS read's index offset."""
    i = rng.choice(_epilogue(lines, r"amdgpu\.mfma |= vector\.load .*workgroup"))
    if "amdgpu.mfma" in lines[i]:
        m = re.search(r"(%[\w#]+) \* (%[\w#]+) \+ (%[\w#]+)", lines[i])
        a, b, c = m.groups()
        accs = sorted({x for s in lines for x in re.findall(r"%\d+#\d+", s)
                       if x.split("#")[0] == c.split("#")[0]} - {c}) if "#" in c else []
        how = rng.choice(["swap", "b", "acc"] if accs else ["swap", "b"])
        new = {"swap": f"{b} * {a} + {c}", "b": f"{a} * {a} + {c}",
               "acc": f"{a} * {b} + {rng.choice(accs) if accs else c}"}[how]
        lines[i] = lines[i].replace(m.group(0), new, 1)
        return f"epilogue MFMA on line {i + 1}: {m.group(0)} -> {new}"
    m = rng.choice(_bracket(lines[i], 0))
    off = rng.choice([1, 8, 16, -8])
    return f"epilogue read index {_add_to(lines, i, m, str(off))} on line {i + 1} {off:+d}"


def m_rolled_bound(lines, rng):
    """The loop's bounds as the roll-back counts its trips: the upper bound a step (or one)
    more or less, the lower bound a step more, the step doubled."""
    start, _ = _loop(lines)
    _, ty = _iv(lines)
    m = re.search(r"= (%\w+) to (%\w+) step (%\w+)", lines[start])
    value = {}
    for name in m.groups():
        d = next((int(x.group(1)) for s in lines[:start] if (x := re.match(
            rf"\s*{name} = arith\.constant (-?\d+) : ", s))), None)
        if d is None:
            raise LookupError("bounds not constant")
        value[name] = d
    lb, ub, st = (value[n] for n in m.groups())
    which, new = rng.choice([("upper", ub - st), ("upper", ub + st), ("upper", ub + 1),
                             ("upper", ub - 1), ("lower", lb + st), ("step", 2 * st)])
    old = m.group({"lower": 1, "upper": 2, "step": 3}[which])
    kw = {"lower": "=", "upper": "to", "step": "step"}[which]
    lines[start] = lines[start].replace(m.group(0), m.group(0).replace(
        f"{kw} {old}", f"{kw} %mut_bound", 1), 1)
    lines.insert(start, f"{' ' * _indent(lines[start])}%mut_bound = arith.constant {new} : {ty}")
    return f"rolled loop's {which}{'' if which == 'step' else ' bound'} {value[old]} -> {new}"


def m_slot(lines, rng):
    """Slot (and layout) arithmetic before the loop's end: an ``arith.remui`` or
    ``arith.divui`` made the other, made signed, its operands swapped, or its divisor
    another constant."""
    found = [i for i in range(_loop_close(lines))
             if re.search(r"= arith\.(remui|divui) ", lines[i])]
    body = [i for i in found if i > _loop(lines)[0]]      # the slot a copy fills
    i = rng.choice(body if body and rng.random() < 0.5 else found)
    m = re.search(r"= arith\.(remui|divui) (%\w+), (%\w+) : (\w+)", lines[i])
    op, a, b, ty = m.groups()
    how = rng.choice(["other", "signed", "swap", "divisor"])
    if how == "divisor":
        d = rng.choice([1, 2, 3, 4, 8])
        lines[i] = lines[i].replace(m.group(0), f"= arith.{op} {a}, %mut_d : {ty}", 1)
        lines.insert(i, f"{' ' * _indent(lines[i])}%mut_d = arith.constant {d} : {ty}")
        return f"{op} on line {i + 1}: divisor {b} -> {d}"
    new = {"other": f"= arith.{'divui' if op == 'remui' else 'remui'} {a}, {b} : {ty}",
           "signed": f"= arith.{op.replace('ui', 'si')} {a}, {b} : {ty}",
           "swap": f"= arith.{op} {b}, {a} : {ty}"}[how]
    lines[i] = lines[i].replace(m.group(0), new, 1)
    return f"{op} on line {i + 1}: {how} ({new[2:]})"


def m_async(lines, rng):
    """A ``rocdl.asyncmark`` dropped or moved, a ``rocdl.wait.asyncmark``'s count changed
    or the wait dropped; in a loop pipelined through registers (none of those), its
    ``amdgpu.sched_barrier`` dropped or moved."""
    marks = [i for i, s in enumerate(lines[:_loop_close(lines) + 4])
             if re.match(r"\s*(rocdl\.(wait\.)?asyncmark|amdgpu\.sched_barrier)", s)]
    i = rng.choice(marks)
    s = lines[i].strip()
    w = re.match(r"rocdl\.wait\.asyncmark (\d+)", s)
    if w and rng.random() < 0.5:
        n = rng.choice(sorted({0, 1, 2, 3} - {int(w.group(1))}))
        lines[i] = lines[i].replace(w.group(0), f"rocdl.wait.asyncmark {n}")
        return f"wait on line {i + 1}: {w.group(1)} -> {n} groups"
    del lines[i]
    if rng.random() < 0.5:
        return f"{s.split()[0]} on line {i + 1} dropped"
    start, end = _loop(lines)
    first = min(_prologue(lines, GLOBAL_ACCESS), default=start)
    j = rng.randrange(first, end + 1)
    lines.insert(j, " " * _indent(lines[j]) + s)
    return f"{s.split()[0]} on line {i + 1} moved to line {j + 1}"


# ---- the mutations aimed at the newest paths (masks kept, guards, paddings, regrouped reads,
# C's per-thread write, merged slabs) ---------------------------------------------------------

def _typed_add(lines, i: int, m: re.Match, off: int, ty: str) -> str:
    """Operand ``m`` on line ``i`` made ``m + off`` in type ``ty``."""
    pre = " " * _indent(lines[i])
    _replace(lines, i, m, "%mut_s")
    value = f"dense<{off}>" if ty.startswith("vector<") else str(off)
    lines[i:i] = [f"{pre}%mut_t = arith.constant {value} : {ty}",
                  f"{pre}%mut_s = arith.addi {m.group(0)}, %mut_t : {ty}"]
    return m.group(0)


#: an integer op of two operands and one type (the shape of a mask's bounds and compares)
BINARY = r"= arith\.%s (%%[\w#]+), (%%[\w#]+) : (\w+)\s*$"


def m_minmax(lines, rng):
    """A bound of a mask or a run (``arith.minui``/``minsi``/``maxui``/``maxsi``): made
    another of the four, or an operand offset by a small constant."""
    ops = ("minui", "minsi", "maxui", "maxsi")
    i = rng.choice([i for i, s in enumerate(lines)
                    if re.search(BINARY % f"({'|'.join(ops)})", s)])
    m = re.search(BINARY % f"({'|'.join(ops)})", lines[i])
    op, ty = m.group(1), m.group(4)
    if rng.random() < 0.4:
        new = rng.choice(sorted(set(ops) - {op}))
        lines[i] = lines[i].replace(f"arith.{op} ", f"arith.{new} ", 1)
        return f"{op} on line {i + 1} made {new}"
    k = rng.choice([2, 3])
    hit = re.compile(re.escape(m.group(k))).search(lines[i], m.start(k))
    off = rng.choice([1, -1, 4, -4, 8])
    return f"{op} operand {_typed_add(lines, i, hit, off, ty)} on line {i + 1} {off:+d}"


PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def m_cmp(lines, rng):
    """A compare of a mask, guard or C's write: another predicate, or an operand offset by
    one."""
    i = rng.choice([i for i, s in enumerate(lines) if "= arith.cmpi " in s])
    m = re.search(r"= arith\.cmpi (\w+), (%[\w#]+), (%[\w#]+) : (\S+)\s*$", lines[i])
    if rng.random() < 0.5:
        new = rng.choice(sorted(set(PREDICATES) - {m.group(1)}))
        lines[i] = lines[i].replace(f"arith.cmpi {m.group(1)},", f"arith.cmpi {new},", 1)
        return f"cmpi on line {i + 1}: {m.group(1)} -> {new}"
    k = rng.choice([2, 3])
    hit = re.compile(re.escape(m.group(k))).search(lines[i], m.start(k))
    off = rng.choice([1, -1])
    return f"cmpi operand {_typed_add(lines, i, hit, off, m.group(4))} on line {i + 1} {off:+d}"


def m_map(lines, rng):
    """A constant of an affine map (the tiles' edge bounds, the K left's, C's rows): an
    integer of a ``#map`` definition's results (every use of it) changed."""
    found = [(i, t) for i, s in enumerate(lines)
             if re.match(r"#map\d* = affine_map<", s)
             for t in re.finditer(r"(?<![\w])-?\d+(?![\w])", s.split("->", 1)[1])]
    i, t = rng.choice(found)
    v = int(t.group(0))
    head, tail = lines[i].split("->", 1)
    divisor = re.search(r"(floordiv|ceildiv|mod) $", tail[:t.start()])
    new = rng.choice(sorted({v + 1, v - 1, v + 8, 0, 2 * v} - {v} -
                            ({0, -1} if divisor else set())))
    lines[i] = head + "->" + tail[:t.start()] + str(new) + tail[t.end():]
    return f"affine map on line {i + 1}: {v} -> {new} ({lines[i].strip()[:80]})"


def _const_of(ty: str, value: str) -> str:
    """An ``arith.constant`` of ``value`` (``1``, ``true``) in type ``ty`` (a vector splat
    where ``ty`` is a vector)."""
    v = re.match(r"vector<(?:\d+x)+(\w+)>", ty)
    el = v.group(1) if v else ty
    lit = value if el == "i1" or el.startswith("i") and el != "index" else (
        value if el == "index" else f"{value}.0")
    return f"dense<{lit}> : {ty}" if v else f"{lit} : {ty}"


def m_select(lines, rng):
    """A padding select (``arith.select``): its values swapped, its padding made 1, its
    condition made true, negated, or another select's."""
    found = [i for i, s in enumerate(lines) if re.search(r"= arith\.select ", s)]
    i = rng.choice(found)
    m = re.search(r"= arith\.select (%[\w#]+), (%[\w#]+), (%[\w#]+) : (.+?)\s*$", lines[i])
    c, a, b, ty = m.groups()
    cty, vty = ty.split(", ", 1) if ", " in ty else ("i1", ty)    # a vector of conditions
    pre = " " * _indent(lines[i])
    conds = sorted({re.search(r"select (%[\w#]+)", lines[j]).group(1) for j in found} - {c})
    how = rng.choice(["swap", "padding", "true", "not"] + (["other"] if conds else []))
    if how == "swap":
        lines[i] = lines[i].replace(m.group(0), f"= arith.select {c}, {b}, {a} : {ty}", 1)
        return f"select on line {i + 1}: values swapped"
    if how == "padding":
        lines[i] = lines[i].replace(m.group(0), f"= arith.select {c}, {a}, %mut_p : {ty}", 1)
        lines.insert(i, f"{pre}%mut_p = arith.constant {_const_of(vty, '1')}")
        return f"select on line {i + 1}: padding {b} -> 1"
    if how == "other":
        new = rng.choice(conds)
        lines[i] = lines[i].replace(m.group(0), f"= arith.select {new}, {a}, {b} : {ty}", 1)
        return f"select on line {i + 1}: condition {c} -> {new}"
    lines[i] = lines[i].replace(m.group(0), f"= arith.select %mut_c, {a}, {b} : {ty}", 1)
    true = f"dense<true> : {cty}" if cty != "i1" else "true"
    new = [f"{pre}%mut_true = arith.constant {true}"]
    if how == "not":
        new.append(f"{pre}%mut_c = arith.xori {c}, %mut_true : {cty}")
    else:
        new[0] = f"{pre}%mut_c = arith.constant {true}"
    lines[i:i] = new
    return f"select on line {i + 1}: condition {c} {'negated' if how == 'not' else '-> true'}"


def m_cond(lines, rng):
    """A condition of a mask or guard: an ``arith.andi`` / ``ori`` of two conditions made
    the other, or one of its operands made true; an ``scf.if``'s condition made true, false
    or negated (IREE's guarded loads, C's per-thread write)."""
    ands = [i for i, s in enumerate(lines) if re.search(BINARY % "(andi|ori)", s)
            and s.rstrip().endswith(": i1")]
    ifs = [i for i, s in enumerate(lines) if re.search(r"scf\.if %[\w#]+", s)]
    i = rng.choice(ands + ifs)
    pre = " " * _indent(lines[i])
    if i in ands:
        m = re.search(BINARY % "(andi|ori)", lines[i])
        if rng.random() < 0.5:
            other = "ori" if m.group(1) == "andi" else "andi"
            lines[i] = lines[i].replace(f"arith.{m.group(1)} ", f"arith.{other} ", 1)
            return f"{m.group(1)} on line {i + 1} made {other}"
        k = rng.choice([2, 3])
        hit = re.compile(re.escape(m.group(k))).search(lines[i], m.start(k))
        _replace(lines, i, hit, "%mut_true")
        lines.insert(i, f"{pre}%mut_true = arith.constant true")
        return f"{m.group(1)} on line {i + 1}: operand {m.group(k)} -> true"
    m = re.search(r"scf\.if (%[\w#]+)", lines[i])
    how = rng.choice(["true", "false", "not"])
    _replace(lines, i, re.compile(re.escape(m.group(1))).search(lines[i], m.start(1)),
             "%mut_c")
    if how == "not":
        lines[i:i] = [f"{pre}%mut_true = arith.constant true",
                      f"{pre}%mut_c = arith.xori {m.group(1)}, %mut_true : i1"]
    else:
        lines.insert(i, f"{pre}%mut_c = arith.constant {how}")
    return f"scf.if on line {i + 1}: condition {m.group(1)} -> {how}"


def m_mask_size(lines, rng):
    """A mask's size: a ``vector.create_mask`` operand offset by one or made another
    index, a ``vector.constant_mask``'s size changed."""
    found = [i for i, s in enumerate(lines) if re.search(r"= vector\.(create|constant)_mask ",
                                                            s)]
    i = rng.choice(found)
    m = re.search(r"= vector\.constant_mask \[([\d, ]+)\]", lines[i])
    if m:
        sizes = [int(x) for x in m.group(1).split(",")]
        k = rng.randrange(len(sizes))
        sizes[k] = rng.choice(sorted({0, max(sizes[k] - 1, 0), sizes[k] + 1} - {sizes[k]}))
        lines[i] = lines[i].replace(m.group(0),
                                    f"= vector.constant_mask [{', '.join(map(str, sizes))}]")
        return f"constant_mask on line {i + 1}: [{m.group(1)}] -> {sizes}"
    ops = list(re.finditer(r"%[\w#]+", lines[i].split("create_mask", 1)[1].split(":")[0]))
    base = lines[i].index("create_mask") + len("create_mask")
    t = rng.choice(ops)
    hit = re.compile(re.escape(t.group(0))).search(lines[i], base + t.start())
    off = rng.choice([1, -1])
    return f"create_mask operand {_typed_add(lines, i, hit, off, 'index')} on line {i + 1} " \
        f"{off:+d}"


def m_slice(lines, rng):
    """A regrouping of read elements: a ``vector.insert_strided_slice`` /
    ``extract_strided_slice``'s offset, a ``vector.shuffle``'s mask (two entries swapped, or
    one moved), a static ``vector.extract`` / ``insert`` position."""
    found = [i for i, s in enumerate(lines) if re.search(
        r"vector\.(insert_strided_slice|extract_strided_slice|shuffle) ", s) or
        _movable_positions(s)]
    i = rng.choice(found)
    s = lines[i]
    m = re.search(r"offsets = \[([\d, ]+)\]", s)
    if m:
        offs = [int(x) for x in m.group(1).split(",")]
        k = rng.randrange(len(offs))
        offs[k] = rng.choice(sorted({0, offs[k] + 1, offs[k] + 2, offs[k] + 4,
                                     max(offs[k] - 4, 0)} - {offs[k]}))
        lines[i] = s.replace(m.group(0), f"offsets = [{', '.join(map(str, offs))}]", 1)
        return f"strided slice on line {i + 1}: offsets [{m.group(1)}] -> {offs}"
    m = re.search(r"vector\.shuffle (%[\w#]+), (%[\w#]+) ?\[([\d, ]+)\]", s)
    if m:
        mask = [int(x) for x in m.group(3).split(",")]
        if rng.random() < 0.5 and len(mask) > 1:
            a, b = rng.sample(range(len(mask)), 2)
            mask[a], mask[b] = mask[b], mask[a]
        else:
            a = rng.randrange(len(mask))
            mask[a] = rng.choice(sorted(set(range(max(mask) + 1)) - {mask[a]}))
        lines[i] = s.replace(f"[{m.group(3)}]", f"[{', '.join(map(str, mask))}]", 1)
        return f"shuffle on line {i + 1}: mask [{m.group(3)}] -> {mask}"
    m, dims = _movable_positions(s)
    pos = [int(x) for x in m.group(2).split(",")]
    k = rng.choice([k for k, d in enumerate(dims) if d > 1])
    step = 1 if pos[k] == 0 or (pos[k] + 1 < dims[k] and rng.random() < 0.5) else -1
    pos[k] += step
    lines[i] = s.replace(m.group(0), f"{m.group(1)}[{', '.join(map(str, pos))}]", 1)
    return f"static position on line {i + 1}: [{m.group(2)}] -> {pos}"


def _movable_positions(line: str):
    """(the match of a ``vector.extract`` / ``insert``'s static position on ``line``, the
    sizes of the dimensions it indexes) where one of them has another position to move to
    (a dimension of one element has none: such a move makes no kernel), else None."""
    m = re.search(r"(= vector\.(?:extract|insert) [^\[]*)\[([\d, ]+)\]", line)
    shape = m and re.search(r"(?:from|into) vector<((?:\d+x)+)", line)
    if shape is None:
        return None
    dims = [int(d) for d in shape.group(1).split("x")[:-1]]
    dims = dims[:len(m.group(2).split(","))]
    return (m, dims) if any(d > 1 for d in dims) else None


def m_subview(lines, rng):
    """A view's offset or size (``memref.subview``: the copies' and C's runs, the merged
    loop's slabs, the slot views): a dynamic one offset by a constant, a static one
    changed."""
    i = rng.choice([i for i, s in enumerate(lines) if "= memref.subview " in s])
    s = lines[i]
    head = s.split(" : ")[0]
    groups = [g for g in re.finditer(r"\[([^\]]*)\]", head)][:2]    # offsets, sizes
    g = rng.choice(groups)
    items = list(re.finditer(r"%[\w#]+|-?\d+", g.group(1)))
    t = rng.choice(items)
    at = g.start(1) + t.start()
    which = "offset" if g is groups[0] else "size"
    if t.group(0).startswith("%"):
        hit = re.compile(re.escape(t.group(0))).search(s, at)
        off = rng.choice([1, -1, 4, 8, 16])
        return f"subview {which} {_typed_add(lines, i, hit, off, 'index')} on line {i + 1} " \
            f"{off:+d}"
    v = int(t.group(0))
    new = rng.choice(sorted({v + 1, max(v - 1, 0), v + 8, 0} - {v}))
    lines[i] = s[:at] + str(new) + s[at + len(t.group(0)):]
    return f"subview static {which} on line {i + 1}: {v} -> {new}"


def m_c_write(lines, rng):
    """C's write after the K-loop: a per-thread loop's bound (upper one more or less, lower
    1, step 2), a store's index offset by one, or the ``memref.copy`` removed."""
    after = range(_loop_close(lines) + 1, len(lines))
    loops = [i for i in after if re.search(r"scf\.for %\w+ = %\w+ to %\w+ step %\w+", lines[i])]
    stores = [i for i in after if re.search(r"(memref|vector)\.store .*(fat_raw_buffer|"
                                            r"address_space<global>)", lines[i])]
    copies = [i for i in after if "memref.copy " in lines[i]]
    i = rng.choice(loops + stores + copies)
    pre = " " * _indent(lines[i])
    if i in copies:
        s = lines.pop(i)
        return f"memref.copy on line {i + 1} removed ({s.strip()[:60]})"
    if i in stores:
        m = rng.choice(_bracket(lines[i], 0))
        ty = "index"
        return f"C store index {_typed_add(lines, i, m, 1, ty)} on line {i + 1} +1"
    m = re.search(r"scf\.for %\w+ = (%\w+) to (%\w+) step (%\w+)", lines[i])
    ty = "i32" if re.search(r":\s*i32\s*\{\s*$", lines[i]) else "index"
    which = rng.choice(["upper+", "upper-", "lower", "step"])
    if which.startswith("upper"):
        hit = re.compile(re.escape(m.group(2))).search(lines[i], m.start(2))
        off = 1 if which == "upper+" else -1
        return f"C loop upper bound {_typed_add(lines, i, hit, off, ty)} on line {i + 1} {off:+d}"
    k = 1 if which == "lower" else 3
    hit = re.compile(re.escape(m.group(k))).search(lines[i], m.start(k))
    _replace(lines, i, hit, "%mut_b")
    lines.insert(i, f"{pre}%mut_b = arith.constant {1 if which == 'lower' else 2} : {ty}")
    return f"C loop {which} on line {i + 1} -> {1 if which == 'lower' else 2}"


#: the mutations aimed at the newest paths (:attr:`Family.aimed`), each twice as likely
AIMED_MUTATIONS = (m_minmax, m_cmp, m_map, m_select, m_cond, m_mask_size, m_slice, m_subview,
                   m_c_write)


def m_staged(lines, rng):
    """An access of workgroup memory after the K-loop (C's tile staged through LDS: the
    write of the results, the copy out), or an LDS view of it there: an index offset by
    1, 4, 16 or 18 (a row, a padded row), or the lower bound of the loop around it made
    1."""
    after = range(_loop_close(lines) + 1, len(lines))
    found = [i for i in after if re.search(
        r"(vector\.transfer_read|vector\.transfer_write|vector\.load|vector\.store|"
        r"memref\.load|memref\.store|memref\.subview) ", lines[i])
        and "#gpu.address_space<workgroup>" in lines[i].split(" : ", 1)[-1].split(" to ")[0]]
    i = rng.choice(found)
    ops = _bracket(lines[i], 0)
    loop = next((j for j in range(i - 1, _loop_close(lines), -1)
                 if re.search(r"scf\.for %\w+ = %\w+ to", lines[j])
                 and _indent(lines[j]) < _indent(lines[i])), None)
    if loop is not None and (not ops or rng.random() < 0.25):
        m = re.search(r"scf\.for %\w+ = (%\w+) to", lines[loop])
        ty = "i32" if re.search(r":\s*i32\s*\{\s*$", lines[loop]) else "index"
        hit = re.compile(re.escape(m.group(1))).search(lines[loop], m.start(1))
        _replace(lines, loop, hit, "%mut_b")
        lines.insert(loop, f"{' ' * _indent(lines[loop])}%mut_b = arith.constant 1 : {ty}")
        return f"lower bound of the loop on line {loop + 1} around a staged LDS access -> 1"
    m = rng.choice(ops)
    off = rng.choice([1, 4, 16, 18])
    return f"staged LDS index {_typed_add(lines, i, m, off, 'index')} on line {i + 1} +{off}"


def m_staged_masked(lines, rng):
    """A transfer of workgroup memory after the K-loop through a subview (C's tile staged
    through LDS) made not in bounds along its last dimension, and the subview's last offset
    moved 1 to 3 elements on: the transfer moves every element of its view, the last
    thread's last ones past the allocation (the review of the red-team campaign found such
    a read held to its first element and pipelined with C wrong)."""
    after = range(_loop_close(lines) + 1, len(lines))
    views = {}
    for i in after:
        m = re.match(r"\s*(%\w+) = memref\.subview ", lines[i])
        if m and "#gpu.address_space<workgroup>> to" in lines[i]:
            views[m.group(1)] = i
    found = [i for i in after if re.search(r"vector\.transfer_(read|write) ", lines[i])
             and re.search(r"true\]\}", lines[i])
             and any(re.search(rf"{re.escape(v)}\[", lines[i]) for v in views)]
    i = rng.choice(found)
    v = next(v for v in views if re.search(rf"{re.escape(v)}\[", lines[i]))
    lines[i] = re.sub(r"true\]\}", "false]}", lines[i], count=1)
    at = views[v] if views[v] < i else i
    off = rng.choice([1, 2, 3])
    moved = _typed_add(lines, at, _bracket(lines[at], 0)[-1], off, "index")
    return f"staged LDS transfer on line {i + 1} not in bounds, its view's {moved} +{off}"


def m_thread_region(lines, rng):
    """A region of the K-loop's body that part of the workgroup runs (IREE's copy by part
    of the workgroup: an ``scf.if`` on a compare of the thread id, a per-thread
    ``scf.for`` from the thread id): the compare's bound made another (64, 127, 129, 192,
    256) or its predicate another; the loop's upper bound one more or less, or 64, 192 or
    256, its step 64, 128 or 512, its lower bound 1 or 64 more."""
    start, end = _loop(lines)
    ifs = [i for i in range(start + 1, end) if re.match(r"\s*scf\.if (%[\w#]+) \{", lines[i])]
    fors = [i for i in range(start + 1, end)
            if re.search(r"scf\.for %\w+ = %\w+ to %\w+ step %\w+\s*:", lines[i])]
    i = rng.choice(ifs + fors)
    pre = " " * _indent(lines[i])
    if i in ifs:
        c = re.match(r"\s*scf\.if (%[\w#]+)", lines[i]).group(1)
        j = next(j for j in range(i - 1, start, -1) if lines[j].strip().startswith(f"{c} = "))
        m = re.search(r"= arith\.cmpi (\w+), (%[\w#]+), (%[\w#]+) : (\S+)\s*$", lines[j])
        if rng.random() < 0.3:
            new = rng.choice(sorted({"slt", "sle", "ult", "ule", "ne", "sgt"} - {m.group(1)}))
            lines[j] = lines[j].replace(f"arith.cmpi {m.group(1)},", f"arith.cmpi {new},", 1)
            return f"guard's cmpi on line {j + 1}: {m.group(1)} -> {new}"
        value = rng.choice([64, 127, 129, 192, 256])
        hit = re.compile(re.escape(m.group(3))).search(lines[j], m.start(3))
        _replace(lines, j, hit, "%mut_g")
        lines.insert(j, f"{pre}%mut_g = arith.constant {value} : {m.group(4)}")
        return f"guard's bound {m.group(3)} on line {j + 1} -> {value}"
    m = re.search(r"scf\.for %\w+ = (%\w+) to (%\w+) step (%\w+)", lines[i])
    ty = "i32" if re.search(r":\s*i32\s*\{\s*$", lines[i]) else "index"
    which = rng.choice(["upper", "upper", "step", "lower"])
    k = {"upper": 2, "step": 3, "lower": 1}[which]
    hit = re.compile(re.escape(m.group(k))).search(lines[i], m.start(k))
    if which == "lower" or which == "upper" and rng.random() < 0.5:
        off = rng.choice([1, 64]) if which == "lower" else rng.choice([1, -1])
        return f"per-thread loop {which} {_typed_add(lines, i, hit, off, ty)} on line " \
            f"{i + 1} {off:+d}"
    value = rng.choice([64, 192, 256] if which == "upper" else [64, 128, 512])
    _replace(lines, i, hit, "%mut_b")
    lines.insert(i, f"{pre}%mut_b = arith.constant {value} : {ty}")
    return f"per-thread loop {which} on line {i + 1} -> {value}"


PRIVATE_ACCESS = (r"(vector\.transfer_read|vector\.transfer_write|vector\.load|vector\.store|"
                  r"memref\.load|memref\.store) [^\n]*#gpu\.address_space<private>")


def m_private(lines, rng):
    """An access of a private buffer (C's tile read into one and read back, a copy staged
    through one): an index offset by 1 or 16, or a store to it moved one line up or down
    (past the load it stores, or the next access)."""
    found = [i for i, s in enumerate(lines) if re.search(PRIVATE_ACCESS, s.split(" : ")[0] +
                                                         " : " + s.split(" : ", 1)[-1])]
    i = rng.choice(found)
    ops = _bracket(lines[i], 0)
    store = re.match(r"\s*(vector\.transfer_write|vector\.store|memref\.store) ", lines[i])
    if store and (not ops or rng.random() < 0.3):
        j = i + rng.choice([-1, 1])
        if lines[j].strip().startswith(("}", "scf.", "func.")) or \
                re.search(r"^\s*%[\w#]+(:\d+)? = ", lines[j]) and any(
                    re.search(rf"{re.escape(v)}\b", lines[i]) for v in
                    re.findall(r"(%[\w#]+)", lines[j].split("=")[0])):
            raise LookupError("the store cannot move there")
        lines[i], lines[j] = lines[j], lines[i]
        return f"private store on line {i + 1} moved to line {j + 1}"
    m = rng.choice(ops)
    off = rng.choice([1, 1, 16])
    return f"private index {_typed_add(lines, i, m, off, 'index')} on line {i + 1} +{off}"


def m_outer_read(lines, rng):
    """A read of global memory outside the K-loop (the C a ``C +=`` reads before it, a
    bias read after it): an index offset by 1 (a row or a column), or its padding made 1."""
    start, _ = _loop(lines)
    close = _loop_close(lines)
    found = [i for i, s in enumerate(lines) if not start <= i <= close and re.search(
        r"= (vector\.transfer_read|vector\.load|vector\.maskedload|memref\.load) ", s)
        and re.search(r"fat_raw_buffer|address_space<global>|storage_buffer", s)]
    i = rng.choice(found)
    m = re.search(r"= vector\.transfer_read [^,\]]*\[[^\]]*\], (%[\w#]+)", lines[i])
    if m and rng.random() < 0.3:
        ty = re.search(r", vector<(?:\d+x)+(\w+)>\s*$", lines[i]).group(1)
        hit = re.compile(re.escape(m.group(1))).search(lines[i], m.start(1))
        _replace(lines, i, hit, "%mut_p")
        lines.insert(i, f"{' ' * _indent(lines[i])}%mut_p = arith.constant "
                        f"{_const_of(ty, '1')}")
        return f"outer read on line {i + 1}: padding {m.group(1)} -> 1"
    hit = rng.choice(_bracket(lines[i], 0))
    return f"outer read index {_typed_add(lines, i, hit, 1, 'index')} on line {i + 1} +1"


#: the mutations aimed at the tenth audit's paths (:attr:`Family.newest`): the regions of
#: part of the workgroup, private buffers, reads of global memory outside the K-loop
NEWEST_MUTATIONS = (m_thread_region, m_private, m_outer_read)


def _straight(lines: list[str]) -> tuple[int, int]:
    """(first, last) lines of the K tiles IREE's pipelining left straight (no loop around
    the MFMAs): from the first copy into LDS (a ``gather_to_lds`` or a store to LDS) to the
    last MFMA; a form with a loop around its MFMAs has none (LookupError)."""
    mfmas = [i for i, s in enumerate(lines) if "amdgpu.mfma " in s]
    if not mfmas:
        raise LookupError("no MFMA")
    top, indent = mfmas[0], _indent(lines[mfmas[0]])
    while "func.func" not in lines[top]:      # (the ops the first MFMA is nested in)
        top -= 1
        if _indent(lines[top]) < indent and lines[top].rstrip().endswith("{"):
            indent = _indent(lines[top])
            if " scf.for " in lines[top]:
                raise LookupError("the MFMAs are in a loop")
    first = next(i for i in range(top, mfmas[0])
                 if re.search(rf"amdgpu\.gather_to_lds|{LDS_STORES}", lines[i]))
    return first, mfmas[-1]


def _straight_lines(lines, pattern) -> list[int]:
    first, last = _straight(lines)
    return [i for i in range(first, last + 1) if re.search(pattern, lines[i])]


def m_straight_barrier_down(lines, rng):
    """A barrier among the straight K tiles moved down past the next LDS read."""
    i = rng.choice(_straight_lines(lines, r"gpu\.barrier"))
    j = next(k for k in range(i + 1, len(lines)) if re.search(READS, lines[k]) and
             "workgroup>" in lines[k])
    lines.insert(j + 1, lines.pop(i))
    return f"barrier on line {i + 1} moved below the LDS read on line {j + 1}"


def m_straight_copy_up(lines, rng):
    """A copy into LDS of a later straight K tile moved up above the barrier before it
    (where what it copies is made above that barrier)."""
    first, _ = _straight(lines)
    found = []
    for i in _straight_lines(lines, rf"amdgpu\.gather_to_lds|{LDS_STORES}"):
        b = next((k for k in range(i - 1, first, -1) if "gpu.barrier" in lines[k]), None)
        if b is None:
            continue
        used = set(re.findall(r"%[\w#]+", lines[i].split(" : ")[0].split("=")[-1]))
        made = {m.group(1) for k in range(b, i)
                if (m := re.match(r"\s*(%[\w]+)(?::\d+)? = ", lines[k]))}
        if not used & made:
            found.append((i, b))
    i, b = rng.choice(found)
    lines.insert(b, lines.pop(i))
    return f"copy on line {i + 1} moved above the barrier on line {b + 1}"


def m_straight_accumulator(lines, rng):
    """An MFMA of a later straight K tile accumulating onto another MFMA's result."""
    found = [(i, m) for i in _straight_lines(lines, r"amdgpu\.mfma ")
             if (m := re.search(r"\+ (%\w+) :", lines[i]))]
    results = [re.match(r"\s*(%\w+) = ", lines[i]).group(1) for i, _ in found]
    options = [(i, m, [r for r in results[:k] if r != m.group(1)])
               for k, (i, m) in enumerate(found)]
    i, m, earlier = rng.choice([o for o in options if o[2]])
    new = rng.choice(earlier)
    lines[i] = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
    return f"MFMA on line {i + 1} accumulates onto {new}, not {m.group(1)}"


#: the mutations of K tiles left straight (:attr:`Family.straight`), each three times as
#: likely: a barrier moved below a read, a copy moved above a barrier, a chain broken
STRAIGHT_MUTATIONS = (m_straight_barrier_down, m_straight_copy_up, m_straight_accumulator)


#: the mutations of C's tile staged through LDS after the K-loop (:attr:`Family.staged`),
#: each twice as likely
STAGED_MUTATIONS = (m_staged, m_staged, m_staged_masked, m_staged_masked)


def m_staged_guard(lines, rng):
    """A guard of the threads that stage C through LDS outside the K-loop (a compare of the
    thread id with a constant: IREE's tiny ``C +=``, threads 0 to 99 copying 20 rows of 5
    segments) given another bound: one more or less, twice it, or the whole workgroup; or
    the per-thread size of a ``memref.copy`` into LDS there one more."""
    start, end = _loop(lines)
    outside = [i for i in range(len(lines)) if not start <= i <= end]
    guards = [(i, m) for i in outside if (m := re.search(
        r"arith\.cmpi (?:slt|ult), %thread_id_x, (%c\d+)\s*:\s*index", lines[i]))]
    copies = [i for i in outside if re.search(r"memref\.copy .* to memref<[^>]*#gpu\."
                                              r"address_space<workgroup>>", lines[i])]
    if copies and (not guards or rng.random() < 0.3):
        i = rng.choice(copies)
        view = re.search(r"memref\.copy %\w+, (%\w+)", lines[i]).group(1)
        at = next(j for j in range(i - 1, -1, -1)
                  if re.match(rf"\s*{re.escape(view)} = memref\.subview ", lines[j]))
        size = _bracket(lines[at], 1)[-1]
        return f"staged copy's size {_typed_add(lines, at, size, 1, 'index')} on line {at + 1} +1"
    i, m = rng.choice(guards)
    bound = int(m.group(1)[2:])
    new = rng.choice([bound + 1, bound - 1, 2 * bound, 256])
    pre = " " * _indent(lines[i])
    lines[i] = lines[i][:m.start(1)] + "%mut_g" + lines[i][m.end(1):]
    lines.insert(i, f"{pre}%mut_g = arith.constant {new} : index")
    return f"staging guard on line {i + 1}: thread id < {bound} -> < {new}"


#: the mutations of what the roll-backs prove (IREE's prologue, carried values, epilogue,
#: rolled bound, slots, marks), drawn only for :attr:`Family.rolled` families
ROLLBACK_ONLY = (m_prologue_index, m_prologue_lds_index, m_carried_change, m_carried_use,
                 m_epilogue, m_rolled_bound, m_slot, m_async)


MUTATIONS = (m_constant, m_bound, m_barrier_drop, m_barrier_move, m_operand, m_offset,
             m_copy_down, m_read_up, m_lds_store, m_c_side_effect, m_yield_swap, m_mfma)
#: the mutations of the later families (:attr:`Family.later`): :data:`MUTATIONS` (whose
#: draws for the other families stay as recorded) and the bare barrier
LATER_MUTATIONS = MUTATIONS + (m_bare_barrier,)
#: the mutations of the roll-backs' inputs (:attr:`Family.rolled`): :data:`LATER_MUTATIONS`
#: and, twice as likely each, :data:`ROLLBACK_ONLY`
ROLLBACK_MUTATIONS = LATER_MUTATIONS + ROLLBACK_ONLY + ROLLBACK_ONLY


def rng_for(seed: int, index: int) -> random.Random:
    """The random draws of mutant ``index`` of campaign ``seed`` (every campaign's)."""
    return random.Random(seed * 100_003 + index)


def _pool(families=None) -> list[str]:
    """The inputs a campaign draws from: all but the later families' (:attr:`Family.later`),
    or those of ``families`` (a family's name, or ``FAMILY.FORM`` for one of its forms)."""
    if families is None:
        return sorted(n for n, fam in INPUTS.items() if not fam.later)
    return sorted(n for n in INPUTS if n.split(".")[0] in families or n in families)


def mutant_source(seed: int, index: int, families=None) -> str:
    """The input (:data:`INPUTS`) mutant ``index`` of campaign ``seed`` mutates."""
    return rng_for(seed, index).choice(_pool(families))


def mutant(seed: int, index: int, families=None) -> Mutant:
    """Mutant ``index`` of the campaign ``seed`` (deterministic), of an input of
    ``families`` (None: any)."""
    rng = rng_for(seed, index)
    return mutant_of(rng.choice(_pool(families)), index, rng)


def mutant_of(form: str, index: int, rng: random.Random) -> Mutant:
    """A mutant of input ``form`` drawn with ``rng`` (numbered ``index``)."""
    fam = INPUTS[form]
    mutations = (ROLLBACK_MUTATIONS if fam.rolled else LATER_MUTATIONS if fam.later else
                 MUTATIONS)
    if fam.aimed:
        mutations += AIMED_MUTATIONS + AIMED_MUTATIONS
    if fam.staged:
        mutations += STAGED_MUTATIONS
    if fam.guarded:
        mutations += (m_staged_guard,) * 4
    if fam.newest:
        mutations += NEWEST_MUTATIONS * 3
    if fam.straight:
        mutations += STRAIGHT_MUTATIONS * 3
    mutation, what, text = applied_by(source(form), mutations, rng)
    return Mutant(form, index, f"{form}: {what}", text, mutation.__name__)


def apply_one(mutation, text: str, rng: random.Random) -> tuple[str, str] | None:
    """(what was done, the mutated text) of ``mutation`` applied to ``text`` with ``rng``;
    None where it has nothing to mutate there (it raises)."""
    lines = text.split("\n")
    try:
        what = mutation(lines, rng)
    except (IndexError, LookupError, StopIteration, AttributeError, ValueError):
        return None
    return what, "\n".join(lines)


def applied(text: str, mutations, rng: random.Random) -> tuple[str, str]:
    """(what was done, the mutated text): one of ``mutations`` drawn with ``rng`` and
    applied to ``text`` (a mutation with nothing to mutate in it: another one)."""
    return applied_by(text, mutations, rng)[1:]


def applied_by(text: str, mutations, rng: random.Random) -> tuple:
    """(the mutation, what it did, the mutated text): :func:`applied`'s draw."""
    while True:
        mutation = rng.choice(mutations)
        got = apply_one(mutation, text, rng)
        if got is not None:
            return (mutation, *got)



def loop_lds_read_after(text: str) -> str:
    """``text`` (IREE's 4096^3 kernel, late form) with an epilogue that reads what the
    K-loop's last iteration left in its LDS: after the loop, each thread's 8 elements of
    the A buffer ``%alloc`` at 8 times its id, the first 4 widened and added to the loop's
    last accumulator (``frontend/lds_extent.py``'s ``loop_lds_outside`` refuses it)."""
    loop = re.search(r"\n( *)(%\d+):16 = scf\.for", text)
    pre, res = loop.groups()
    close = text.index(f"\n{pre}}}\n", loop.end()) + len(pre) + 3
    use = close + re.search(rf"{res}#15\b", text[close:]).start()
    t = "memref<4096xbf16, #gpu.address_space<workgroup>>"
    return (text[:close] +
            f"{pre}%mut_i = affine.apply affine_map<()[s0] -> (s0 * 8)>()[%thread_id_x]\n"
            f"{pre}%mut_r = vector.load %alloc[%mut_i] : {t}, vector<8xbf16>\n"
            f"{pre}%mut_h = vector.shuffle %mut_r, %mut_r [0, 1, 2, 3] : vector<8xbf16>, "
            f"vector<8xbf16>\n"
            f"{pre}%mut_f = arith.extf %mut_h : vector<4xbf16> to vector<4xf32>\n"
            f"{pre}%mut_a = arith.addf {res}#15, %mut_f : vector<4xf32>\n" +
            text[close:use] + "%mut_a" + text[use + len(res) + 3:])

# ---- the verdict ------------------------------------------------------------------------------

def _opt(args: list[str]) -> tuple[int | None, str]:
    """(exit status or None for an exception, stderr) of pipeline-opt in this process."""
    from pipeline_mlir.tools.pipeline_opt import main

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(args)
    except SystemExit as e:
        rc = e.code
    except Exception:
        return None, err.getvalue() + traceback.format_exc()
    return rc, err.getvalue()


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=8)   # read again by each build's run of each mutant
def dispatch(name: str):
    """The dispatch of input ``name`` unmutated (sizes, dtype, layouts, grid, bindings): both
    builds of each of its mutants are launched as it says."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.emulate import read_dispatch

    with new_context() as ctx:
        return read_dispatch(ir.Module.parse(source(name), ctx), name,
                              INPUTS[name].launch)[0]


@functools.lru_cache(maxsize=8)   # a test compares a C the verdict computed
def c_bytes(hsaco: bytes, name: str, mode: str = "late", poison: int | None = None):
    """C after the workgroups of the mutant of input ``name`` ran (late mode, or ``mode``: the
    order the waves run in; ``poison``: the byte what nothing wrote holds, if not the
    emulator's own; an element
    no store wrote marked as such, whatever it holds), or the
    finding as a string.  A plain dispatch (A, B, C = A x B^T or A x B) runs workgroups
    (0, 0) and (1, 1) of a 2-D grid, 0 and 5 of a 1-D one (the last one instead of one the
    grid does not have: :func:`plain_ids`); any other (``A^T x B``) as its
    dispatch says (:mod:`pipeline_mlir.driver.dispatch_launch`), the workgroups
    :func:`described_ids` names (the first and the last of a grid known only at launch).  The
    last few are kept (read them only)."""
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.poison import DEFAULT, poisoned_with

    d = dispatch(name)
    try:
        with poisoned_with(DEFAULT if poison is None else poison):
            return _c_bytes(load_kernel(hsaco), d, name, mode)
    except (EmuError, Finding) as e:
        return f"{type(e).__name__}: {e}"


def checked_c(hsaco: bytes, name: str, mode: str = "late"):
    """(:func:`c_bytes`' C of a plain dispatch's build, the emulator's check of that C
    against A x B^T or A x B where the run stored: a
    :class:`~pipeline_mlir.emu.coverage.Coverage`), from one run of the same workgroups on
    the same inputs: a build known right (its unpipelined reference) without a second build
    to compare with."""
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import UNSTORED, Launch, Matmul
    from pipeline_mlir.emu.poison import DEFAULT, poisoned_with

    d = dispatch(name)
    if not d.plain:
        raise ValueError(f"{name}: checked_c runs plain dispatches only")
    kernel = load_kernel(hsaco)
    with poisoned_with(DEFAULT):
        launch = Launch(kernel, Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b, d.constants),
                        mode, 0, 0)
        launch.set_grid(d.grid)
        launch.run(plain_ids(name, "prefetch" if kernel.launch.workgroup_id[1] else "late",
                             d.grid))
    return np.where(launch.stored(), launch.C(), np.int64(UNSTORED)), launch.check(None)


def _c_bytes(kernel, d, name: str, mode: str):
    """:func:`c_bytes` of ``kernel`` (dispatch ``d``)."""
    from pipeline_mlir.driver.dispatch_launch import dispatch_spec
    from pipeline_mlir.emu.described import emulate_described
    from pipeline_mlir.emu.iree import Matmul, matmul_c

    if not d.plain:
        run = emulate_described(kernel, dispatch_spec(d, kernel, name), mode,
                                count=2, workgroups=described_ids(d, name))
        # a byte no store wrote is -1, whatever it holds (the poison's value included)
        return np.where(run.stored["C"], run.raw["C"].astype(np.int16), -1)
    ids = plain_ids(name, "prefetch" if kernel.launch.workgroup_id[1] else "late", d.grid)
    return matmul_c(kernel, Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b, d.constants),
                    ids, mode=mode, grid=d.grid)


#: the emulator's finding of an access outside the private segment (pipeline_mlir/emu/scratch.py)
PRIVATE_OOB = "is outside the private segment"


def undefined(text: str) -> str | None:
    """The front end's refusal of a private buffer indexed outside its bounds whenever it runs
    (:func:`~pipeline_mlir.frontend.private_bounds.check_private_bounds`) in a function of
    mutant ``text``, or None (none seen, or the text does not parse)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.frontend.private_bounds import check_private_bounds

    with new_context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError:
            return None
        try:
            for f in walk_ops(module.operation, lambda o: o.name in ("func.func", "gpu.func")):
                check_private_bounds(f)
        except IRError as e:
            return str(e)
    return None


def _index_values(v) -> list[int] | None:
    """The values index ``v`` takes: a constant's, or those of an ``scf.for``'s induction
    variable of constant bounds (through index casts); None for anything else."""
    from pipeline_mlir.analysis.ir_facts import constant_bounds, constant_int
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.dialect.ir_io import as_operation

    c = constant_int(v)
    if c is not None:
        return [c]
    owner = v.owner
    if not isinstance(owner, ir.Block):
        o = as_operation(owner)
        return _index_values(o.operands[0]) if o.name in (
            "arith.index_cast", "arith.index_castui") else None
    loop = as_operation(owner.owner)
    if loop.name != "scf.for" or v.arg_number != 0:
        return None
    bounds = constant_bounds(loop)
    return None if bounds is None or bounds[2] <= 0 else list(range(*bounds))


def _elements(op, first: int) -> set | None:
    """The index tuples ``memref.load``/``store`` ``op`` (indices from operand ``first``)
    accesses over its loops' iterations, or None where an index is not enumerable."""
    import itertools

    values = [_index_values(i) for i in list(op.operands)[first:]]
    return None if any(v is None for v in values) else set(itertools.product(*values))


def _always_runs(op) -> bool:
    """``op`` runs whenever its function does: nested only in ``scf.for`` loops of
    constant bounds and at least one iteration."""
    from pipeline_mlir.analysis.ir_facts import constant_trips
    from pipeline_mlir.dialect.ir_io import as_operation

    o = as_operation(op).parent
    while o.name != "func.func":
        if o.name != "scf.for" or not constant_trips(o):
            return False
        o = o.parent
    return True


#: ops that store a value to memory -> (operand of the value (-1: the last), of the memref)
STORES = {"memref.store": (0, 1), "vector.store": (0, 1), "vector.transfer_write": (0, 1),
          "vector.maskedstore": (-1, 0), "vector.scatter": (-1, 0), "memref.atomic_rmw": (0, 1),
          "iree_linalg_ext.map_store": (0, 1)}


def reaches_memory(value) -> bool:
    """Whether ``value`` flows into a store to memory other than a private buffer: through
    op results, ``scf`` loops' carried values and yields, a private buffer stored and read
    back, a function's return; an op the walk does not know passes it on to its results
    (so it says False only for a value that reaches no such store, a dead load's)."""
    from pipeline_mlir.analysis.views import view_root
    from pipeline_mlir.dialect.ir_io import as_operation

    todo, seen = [value], set()
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            o = as_operation(use.owner)
            if o.name in STORES and use.operand_number == STORES[o.name][0] % len(o.operands):
                root = view_root(o.operands[STORES[o.name][1]])
                if "private" not in str(root.type):
                    return True
                todo += [r for u in root.uses for r in as_operation(u.owner).results]
            elif o.name in ("func.return", "gpu.return") or o.name in STORES:
                return True
            elif o.name == "scf.yield":
                parent = as_operation(o.parent)
                todo.append(parent.results[use.operand_number])
                if parent.name == "scf.for":
                    todo.append(parent.regions[0].blocks[0].arguments[use.operand_number + 1])
            elif o.name == "scf.for" and use.operand_number >= 3:
                todo += [o.results[use.operand_number - 3],
                         o.regions[0].blocks[0].arguments[use.operand_number - 2]]
            else:
                todo += list(o.results)
    return False


def unwritten(text: str) -> str | None:
    """A load of a private buffer (a ``memref.alloca``) in mutant ``text`` that runs
    whenever the kernel does, whose value reaches a store to memory (:func:`reaches_memory`:
    not a dead load), and reads an element no store of the kernel writes (an
    undefined value, which LLVM may replace by anything: the two builds need not agree on
    what reaches C from it), or None (none seen; a store whose elements are not enumerable,
    constants and loops of constant bounds, may write anything; a view of the buffer,
    anything the check does not read, makes it give up on that buffer)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops

    with new_context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError:
            return None
        for alloca in walk_ops(module.operation, lambda o: o.name == "memref.alloca"):
            buf = alloca.results[0]
            users = [as_operation(u.owner) for u in buf.uses]
            if any(u.name not in ("memref.load", "memref.store") for u in users):
                continue
            written: set = set()
            for u in users:
                if u.name == "memref.store":
                    got = _elements(u, 2)
                    if got is None:
                        break
                    written |= got
            else:
                for u in users:
                    if u.name == "memref.load" and _always_runs(u) and \
                            reaches_memory(u.results[0]):
                        missing = sorted((_elements(u, 1) or set()) - written)
                        if missing:
                            at = re.search(r":(\d+:\d+)\)?$", str(u.location))
                            return (f"'memref.load' op at line {at.group(1) if at else '?'} "
                                    f"reads element "
                                    f"{list(missing[0])} of a private buffer no store writes "
                                    f"(undefined), every time the kernel runs")
    return None


def off_grid(text: str, name: str) -> str | None:
    """Why mutant ``text`` of input ``name`` cannot be judged on the workgroups
    :func:`c_bytes` runs (of the unmutated dispatch's grid), when one of them is not in
    the mutant's own grid (:func:`grid_of`); None when they all are (or its grid is not
    known statically: it is launched as the dispatch says)."""
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.gemm import check_in_grid

    grid = grid_of(text)
    if grid is None or grid == grid_of(source(name)):
        return None
    d = dispatch(name)
    if d.grid is None:
        return None
    ids = plain_ids(name, "prefetch" if len(d.grid) > 1 else "late", d.grid) if d.plain \
        else described_ids(d, name)
    try:
        check_in_grid(d.kernel, ids, grid)
    except EmuError as e:
        return f"{e} (the mutant's grid; the dispatch's is {' x '.join(map(str, d.grid))})"
    return None


@functools.lru_cache(maxsize=64)
def grid_of(text: str) -> tuple[int, ...] | None:
    """The grid the one kernel function of dispatch ``text`` states
    (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`: its ``scf.forall`` bounds,
    workgroup loops, ids' upper bounds), or None (none stated, or the text does not parse:
    its builds say why)."""
    from pipeline_mlir.analysis.loop_eval import workgroup_grid
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    with new_context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError:
            return None
        fs = walk_ops(module.operation, lambda o: o.name == "func.func" and o.regions[0].blocks)
        grid = workgroup_grid(fs[0]) if len(fs) == 1 else None
    return None if grid is None else tuple(grid)


#: seconds LLVM may take per step of the unpipelined build (``--codegen-timeout``): a
#: dynamic-K mutant whose staging copies :func:`rolled` leaves as written (an LDS store put
#: between its row loads) takes minutes on a loaded machine; beyond pipeline-opt's default
#: such a mutant was called ``invalid``, which it is not
REFERENCE_TIMEOUT = 1800


@functools.lru_cache(maxsize=8)   # a test builds again what the verdict built
def build(text: str, pipelined: bool, pipeline: str = "4wave") -> tuple[int | None, str,
                                                                          bytes | None]:
    """(exit status, stderr, code object) of ``text`` built with ``--pipeline=PIPELINE`` or
    without the sched passes (the last few kept; :data:`REFERENCE_TIMEOUT`)."""
    how = [f"--pipeline={pipeline}"] if pipelined else [
        "--pass-pipeline=builtin.module()", f"--codegen-timeout={REFERENCE_TIMEOUT}"]
    return hsaco_of(text, how)


def hsaco_of(text: str, how: list[str]) -> tuple[int | None, str, bytes | None]:
    """(exit status, stderr, code object) of ``text`` built by ``pipeline-opt`` with the
    options ``how`` (``--emit=hsaco``), in this process."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "mutant.mlir"), Path(d, "out.hsaco")
        src.write_text(text)
        rc, err = _opt([*how, str(src), "--emit=hsaco", "-o", str(out)])
        return rc, err, (out.read_bytes() if rc == 0 else None)


def unswizzled(text: str) -> str:
    """``text`` with IREE's swizzle attributes replaced by explicit swizzled addresses
    (:func:`pipeline_mlir.frontend.tail_swizzle.resolve_swizzles`) and the swizzled
    buffers' deallocs dropped; an :class:`~pipeline_mlir.dialect.ir_io.IRError` where an
    access cannot be rewritten."""
    from pipeline_mlir.analysis.ir_facts import parse_xor_shuffle
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.tail_swizzle import SWIZZLE_ATTR, resolve_swizzles

    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        swizzled = {}
        for o in walk_ops(module.operation, lambda o: o.name == "memref.alloc"):
            if SWIZZLE_ATTR in o.attributes:
                swizzled[o.results[0]] = parse_xor_shuffle(o.attributes[SWIZZLE_ATTR])
                del o.attributes[SWIZZLE_ATTR]
        for o in walk_ops(module.operation, lambda o: o.name == "memref.dealloc"):
            if o.operands[0] in swizzled:
                o.erase()
        with ir.Location.unknown(ctx):
            resolve_swizzles(swizzled)
        return str(module)


def distributed(text: str) -> str:
    """``text`` with an IREE VectorDistribute kernel that still multiplies whole tiles
    distributed by IREE's own passes, as the front end does first
    (:func:`pipeline_mlir.frontend.vector_distribute.prepare_vector_distribute`): LLVM
    cannot build it otherwise."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.frontend.vector_distribute import prepare_vector_distribute

    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        prepare_vector_distribute(module)
        return str(module)


#: a workgroup-memory allocation sized in the kernel (IREE's dynamic-K tiles)
DYNAMIC_LDS = re.compile(r"= memref\.alloc\(%[^\n]*#gpu\.address_space<workgroup>")


def hoisted(text: str) -> str:
    """``text`` with the LDS each K-loop allocates in its body at a size known only there
    allocated once before it at its bound, as the front end does first
    (:func:`pipeline_mlir.frontend.lds_hoist.hoist_iteration_lds`): LLVM cannot build a
    kernel of LDS of dynamic size otherwise (IREE's later passes bound it)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.frontend.lds_hoist import hoist_iteration_lds
    from pipeline_mlir.frontend.scan import find_natural_loops

    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        for loop in find_natural_loops(module.operation):
            with loop.location:
                hoist_iteration_lds(loop)
        for o in walk_ops(module.operation, lambda o: o.name == "memref.alloc"
                          and not o.operands and "workgroup" in str(o.results[0].type)):
            func = o.parent
            while func.name != "func.func":
                func = func.parent
            o.move_before(func.regions[0].blocks[0].operations[0])   # to the entry block
        return str(module)


#: a buffer in private memory (IREE's dynamic-K kernel stages its LDS tiles in one)
PRIVATE = "#gpu.address_space<private>"


def rolled(text: str) -> str:
    """``text`` with each whole LDS tile copied into private memory copied by a loop of
    rows (:func:`staging_loops.rolled`): the same kernel, which LLVM builds in seconds
    rather than minutes (IREE's dynamic-K kernel, unpipelined)."""
    import staging_loops

    return staging_loops.rolled(text)


#: IREE's asynchronous copies and the marks and waits that close and count their groups
ASYNC = re.compile(r"^\s*rocdl\.(wait\.)?asyncmark\b.*\n", re.M)


def synchronous(text: str) -> str:
    """``text`` with IREE's asynchronous direct-to-LDS copies (its own prefetch pipelining:
    ``amdgpu.gather_to_lds async``, groups closed by ``rocdl.asyncmark``, counted by
    ``rocdl.wait.asyncmark``) made synchronous and the marks and waits dropped: each copy
    complete where it is issued, a wait on it at least as strong as any mark's, which LLVM
    cannot build otherwise (the sched passes roll such a kernel back)."""
    return ASYNC.sub("", text.replace("amdgpu.gather_to_lds async ", "amdgpu.gather_to_lds "))


def reference_text(text: str) -> str:
    """``text`` made what LLVM builds without the sched passes, the same kernel (the
    unpipelined reference :func:`verdict` compares against): IREE's swizzles made explicit,
    a VectorDistribute kernel distributed, LDS of dynamic size hoisted, whole LDS tiles
    staged in private memory copied by loops, asynchronous copies made synchronous; an
    :class:`~pipeline_mlir.dialect.ir_io.IRError` where that cannot be done."""
    plain = text
    if "iree_codegen.swizzle" in text:
        plain = unswizzled(text)
    if "VectorDistribute" in text:
        plain = distributed(plain)
    if DYNAMIC_LDS.search(plain):
        plain = hoisted(plain)
    if PRIVATE in plain:
        plain = rolled(plain)
    if "rocdl.asyncmark" in plain:
        plain = synchronous(plain)
    return plain


def verdict(m: Mutant, refusal_first: bool = False) -> tuple[str, str]:
    """(verdict, detail) of mutant ``m`` (module docstring).  ``refusal_first`` (the tests'):
    the pipelined build first, its refusal (or crash) the verdict without the unpipelined
    build, which only tells an ``invalid`` mutant from a ``refused`` one (neither is a bad
    verdict; a campaign counts them apart, so it builds the reference first); an invalid
    mutant whose pipelined build crashes or is unlocated is then a bad verdict, as it should
    be (bad input gets one located message)."""
    from pipeline_mlir.dialect.ir_io import IRError

    if refusal_first:
        rc, err, _ = build(m.text, True, INPUTS[m.form].pipeline)
        if rc != 0:
            return _refusal(rc, err)
    plain = m.text
    try:
        plain = reference_text(m.text)
    except IRError as e:
        return "no-reference", str(e)
    except Exception as e:  # the mutant does not parse: the build says where
        if "MLIRError" not in type(e).__name__:
            raise
    rc, err, ref = build(plain, False)
    if rc != 0:
        return "invalid", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"
    rc, err, out = build(m.text, True, INPUTS[m.form].pipeline)
    if rc != 0:
        return _refusal(rc, err)
    outside = off_grid(m.text, m.form)
    if outside is not None:
        return "off-grid", outside
    want = c_bytes(ref, m.form)
    if isinstance(want, str):       # whatever the pipelined build does: nothing to compare
        return ("undefined" if PRIVATE_OOB in want else "input-broken"), want
    why = undefined(m.text)
    if why is not None:
        return "undefined", why
    got = c_bytes(out, m.form)
    if isinstance(got, str):
        return "RACY", got
    if (want == got).all():
        return "exact", ""
    other = c_bytes(ref, m.form, "eager")
    if isinstance(other, str) or (other != want).any():
        n = other if isinstance(other, str) else f"{int((other != want).sum())} elements differ"
        return "input-broken", (f"the unpipelined mutant's C depends on the order its waves "
                                f"run (late against eager: {n}): a race the emulator's "
                                f"check does not see")
    shared = lanes_sharing(ref, m.form, want != got)
    if shared is not None:
        return "input-broken", shared
    bad = list(zip(*(want != got).nonzero()))
    poisoned = stores_poison(want, want != got, c_bytes(ref, m.form, "late", OTHER_POISON),
                             dispatch(m.form)) or unwritten(m.text) or \
        from_ub_poison(plain, m.form, want != got)
    if poisoned is not None:
        return "undefined", f"{len(bad)} elements of C differ, {poisoned}"
    return "WRONG", f"{len(bad)} elements of C differ, first at {tuple(map(int, bad[0]))}"


#: the poison byte the unpipelined build runs with again (:func:`stores_poison`): not the
#: emulator's 0xFF, nor a byte of an all-ones or all-zeros value
OTHER_POISON = 0x5A


def stores_poison(want, differ, other, d) -> str | None:
    """Why the unpipelined build's C (``want``: :func:`c_bytes`' words, or bytes) is
    undefined where the two builds differ (``differ``): each such element changes when that
    build runs again with poison :data:`OTHER_POISON` (``other``: its C, or the finding
    that run stopped at), so it is computed from memory or registers nothing wrote (a
    private buffer read where no store of the kernel wrote it: an undefined value in LLVM,
    which either build may replace by any other); or None.  The poison's value alone tells
    nothing: 0xFF is also a byte of ordinary results (a negative ``i32``'s sign bytes, a
    bf16 510).  A byte of C (a dispatch ``d`` that is not plain) counts as changed when a
    byte of its element of C does."""
    from pipeline_mlir.emu.expect import item_bytes

    if not differ.any():
        return None
    if isinstance(other, str):
        return (f"the unpipelined build run again with poison {OTHER_POISON:#x} (what "
                f"nothing wrote) stops: {other} (undefined)")
    changed = other != want
    if want.dtype != np.int64 and not d.plain:       # bytes: whole elements of C
        try:
            size = item_bytes(d.out_dtype)
        except KeyError:                               # a type it does not know: bytes
            size = 1
        if changed.size % size == 0:
            changed = np.repeat(changed.reshape(-1, size).any(axis=1), size).reshape(
                changed.shape)
    if not changed[differ].all():
        return None
    return (f"each of them changes when the unpipelined build runs with poison "
            f"{OTHER_POISON:#x} instead of the emulator's: computed from memory or registers "
            f"nothing wrote (undefined)")


#: the two values each ``ub.poison`` of a mutant is made (:func:`defined_poison`)
POISON_CHOICES = (("7.0", "7", "true"), ("-3.0", "3", "false"))
UB_POISON = re.compile(r"^(\s*%[\w#]+ = )ub\.poison : ((vector<(?:\d+x)+)?(\w+)>?)\s*$", re.M)


def defined_poison(text: str, which: int) -> str:
    """``text`` with each ``ub.poison`` of a float, integer or index type (or a vector of
    one) made a constant: the ``which``-th of :data:`POISON_CHOICES` (a float, an integer,
    an ``i1``)."""
    def constant(m: re.Match) -> str:
        el = m.group(4)
        f, i, b = POISON_CHOICES[which]
        value = b if el == "i1" else i if el.startswith("i") else f
        if not (el in ("index", "i1") or re.fullmatch(r"i\d+|bf16|f16|f32|f64", el)):
            return m.group(0)
        lit = f"dense<{value}> : {m.group(2)}" if m.group(3) else \
            value if el == "i1" else f"{value} : {el}"
        return f"{m.group(1)}arith.constant {lit}"
    return UB_POISON.sub(constant, text)


def from_ub_poison(plain: str, name: str, differ) -> str | None:
    """Why the unpipelined mutant ``plain`` (of input ``name``) is undefined where the two
    builds' C differ (``differ``): built again with its ``ub.poison`` values made one
    constant and then another (:func:`defined_poison`), its C changes at every one of
    those elements, so they are computed from a poison (IREE pads its guarded reads with
    one: a guard negated hands it to C), which LLVM may replace by any value, the one it
    would have loaded too; or None."""
    runs = []
    for which in (0, 1):
        text = defined_poison(plain, which)
        if text == plain:
            return None
        rc, _, hsaco = build(text, False)
        if rc != 0:
            return None
        runs.append(c_bytes(hsaco, name))
    if any(isinstance(r, str) for r in runs) or stores_poison(
            runs[0], differ, runs[1], dispatch(name)) is None:
        return None
    return ("each of them changes when the unpipelined build runs with its ub.poison "
            "values made constants (two of them): computed from a poison (undefined)")


@functools.lru_cache(maxsize=4)   # a test asks again with other differing elements
def lane_notes(hsaco: bytes, name: str) -> tuple:
    """What :func:`pipeline_mlir.emu.globalrace.lanes_watched` notes in a run of
    :func:`c_bytes` of code object ``hsaco`` of input ``name``."""
    from pipeline_mlir.emu.globalrace import lanes_watched

    with lanes_watched() as found:
        c_bytes.__wrapped__(hsaco, name)
    return tuple(found)


def lanes_sharing(hsaco: bytes, name: str, differ=None) -> str | None:
    """Why the unpipelined mutant of input ``name`` (code object ``hsaco``) is racy in a
    compiler's thread model though the emulator's race check passes it: two lanes of one
    wave store different values to one byte of C, in two stores that no barrier orders
    (:func:`pipeline_mlir.emu.globalrace.lanes_watched`), a byte of an element where the two
    builds' C differ (``differ``: :func:`c_bytes`' shape; None: any), so that whatever
    order LLVM gives them is the kernel's; or None.  Run only where the two C's differ."""
    unit = 4 if dispatch(name).plain else 1        # words of C, or bytes
    flat = None if differ is None else np.asarray(differ).reshape(-1)
    hits = [f for f in lane_notes(hsaco, name) if f.buffer == "C" and (
        flat is None or (f.byte // unit < flat.size and flat[f.byte // unit]))]
    if not hits:
        return None
    return (f"the unpipelined mutant's threads race on global memory: {hits[0]}, an element "
            f"where the builds' C differ (the emulator runs a wave's stores in order; LLVM "
            f"need not)")


def _refusal(rc: int | None, err: str) -> tuple[str, str]:
    """The verdict of a pipelined build that did not succeed (exit ``rc``, None: an
    exception; stderr ``err``)."""
    if rc is None:
        return "CRASH", err
    return ("refused" if rc == 1 and LOCATED.search(err) and "Traceback" not in err
            else "UNLOCATED"), err.strip()


def command(seed: int, index: int, families=None) -> str:
    only = "".join(f" --family {f}" for f in families or ())
    return f"python test/data/iree/mutants.py --seed {seed}{only} --only {index}"


def check_recorded(seed: int, index: int, families, want: str, detail: str) -> None:
    """Assert mutant ``index`` of campaign ``seed`` (of ``families``) still gets the
    verdict ``want`` with ``detail`` in its reason, as a test recorded it (the message names
    the mutant and the command that reproduces it)."""
    m = mutant(seed, index, families)
    got, why = verdict(m, refusal_first=True)
    assert got == want and detail in why, (m.what, got, why, command(seed, index, families))


def campaign(seed: int, count: int, out=sys.stdout, families=None) -> dict[str, list]:
    """Mutants 0 .. count-1 of ``seed`` (of ``families``): verdict -> [(mutant, detail)]."""
    found: dict[str, list] = {}
    for i in range(count):
        m = mutant(seed, i, families)
        v, detail = verdict(m)
        found.setdefault(v, []).append((m, detail))
        first = detail.splitlines()[0] if detail else ""
        print(f"[{i}] {v}: {m.what}" + (f"  ({first[:160]})" if first else ""), file=out,
              flush=True)
    return found


def campaign_args(description: str, argv=None, families=None) -> argparse.Namespace:
    """A campaign's command line: ``--seed``, ``--count``, ``--only`` and, given the
    ``families`` a campaign has, ``--family``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--only", type=int, help="one mutant: print it and its verdict")
    if families is not None:
        ap.add_argument("--family", action="append", choices=sorted(families),
                        help="mutate only this family's kernels, or FAMILY.FORM: only "
                             "that form (repeatable)")
    return ap.parse_args(argv)


def per_family(found: dict[str, list]) -> str:
    """A table of the verdicts' counts per kernel family."""
    counts: dict[str, dict[str, int]] = {}
    for v, ms in found.items():
        for m, _ in ms:
            row = counts.setdefault(m.form.split(".")[0], {})
            row[v] = row.get(v, 0) + 1
    return "\n".join(f"{fam:8} {sum(row.values()):4}  " +
                     ", ".join(f"{k}: {n}" for k, n in sorted(row.items()))
                     for fam, row in sorted(counts.items()))


def compared_verdict(text: str, build, unpipelined: str, c, nan_equal: bool = False):
    """(verdict, detail) of a mutant ``text`` built by ``build(text, how)`` with the options
    ``unpipelined`` and with ``--pipeline=4wave``, their C (``c(code object)``) compared
    (:func:`pipelined_verdict`): the Wave and natural-kernel campaigns'."""
    rc, err, ref = build(text, unpipelined)
    if rc != 0:
        return "invalid", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"
    rc, err, out = build(text, "--pipeline=4wave")
    if rc != 0:
        return pipelined_verdict(rc, err, None, None)
    return pipelined_verdict(rc, err, c(ref), c(out), nan_equal)


def pipelined_verdict(rc, err: str, want, got, nan_equal: bool = False):
    """The verdict of a pipelined build (``rc``, ``err``) whose C is ``got`` against the
    unpipelined build's ``want`` (each an array, or a string saying why there is none),
    for the campaigns whose C compares directly (the Wave and natural-kernel ones);
    ``nan_equal``: a NaN equals a NaN."""
    if rc is None:
        return "CRASH", err
    if rc != 0:
        return ("refused" if rc == 1 and LOCATED.search(err) and "Traceback" not in err
                else "UNLOCATED"), err.strip()
    if isinstance(got, str):
        return ("input-broken" if isinstance(want, str) else "RACY"), got
    if isinstance(want, str):
        return "input-broken", want
    same = (want == got) | ((want != want) & (got != got)) if nan_equal else want == got
    if same.all():
        return "exact", ""
    bad = list(zip(*(~same).nonzero()))
    return "WRONG", f"{len(bad)} elements of C differ, first at {tuple(map(int, bad[0]))}"


def run_campaign(doc: str, mutant, verdict, argv=None) -> int:
    """``main`` of a campaign of one pool of kernels (the Wave and natural-kernel ones):
    ``mutant(seed, index)``, ``verdict(mutant)``; the verdicts counted, each printed."""
    a = campaign_args(doc.split("\n")[0], argv)
    picks = [a.only] if a.only is not None else range(a.count)
    found: dict[str, int] = {}
    for i in picks:
        m = mutant(a.seed, i)
        if a.only is not None:
            print(m.text)
        v, detail = verdict(m)
        found[v] = found.get(v, 0) + 1
        first = detail.strip().splitlines()[0][:160] if detail.strip() else ""
        print(f"[{i}] {v}: {m.what}" + (f"  ({first})" if first else ""), file=sys.stderr,
              flush=True)
    print(", ".join(f"{k}: {n}" for k, n in sorted(found.items())))
    return int(any(v in found for v in BAD))


def main(argv=None) -> int:
    a = campaign_args(__doc__.split("\n")[0], argv, [*FAMILIES, *INPUTS])
    if a.only is not None:
        m = mutant(a.seed, a.only, a.family)
        print(m.text)
        v, detail = verdict(m)
        print(f"// {m.what}\n// verdict: {v}\n// {detail}", file=sys.stderr)
        return int(v in BAD)
    found = campaign(a.seed, a.count, families=a.family)
    print(", ".join(f"{k}: {len(v)}" for k, v in sorted(found.items())))
    print(per_family(found))
    for v in BAD:
        for m, _ in found.get(v, []):
            print(f"{v}: {m.what}\n  {command(a.seed, m.index, a.family)}")
    return int(any(v in found for v in BAD))


sys.path.insert(0, str(DATA))              # generate.py

if __name__ == "__main__":
    sys.path.insert(0, str(DATA.parents[2]))
    sys.exit(main())
