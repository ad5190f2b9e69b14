"""The pieces of a complete GEMM kernel's text that depend on how often its main loop runs.

A kernel whose main loop runs at least once (``KernelShape.min_trips``, the ``4wave`` option
``loop_once``; ``docs/kernels.md``, "Loop once") bounds its loop so that LLVM sees it run
(:func:`loop_end`) and recomputes the C stores' lane terms after it (:func:`store_lane`);
the others keep the plain forms.  Used by :mod:`pipeline_mlir.kernel.gemm_mlir`, which
owns the writer and the kernel text; nothing here imports MLIR.
"""

from __future__ import annotations


def loop_end(w, pair: str, least: int = 1) -> str:
    """Write (``w``: the kernel text's writer) the main loop's upper bound: ``K`` rounded
    down to a multiple of ``pair`` (the index value of two K tiles), at least ``least`` of
    them.  Visibly a positive multiple
    of two tiles, so the K columns derived from the induction variable are provably
    non-negative (what lets sched-buffer-soffset move them into soffset); at least two
    pairs (a kernel whose main loop runs at least once, ``min_k``) also tells LLVM that
    the pipelined loop cannot run zero times.  Returns its name."""
    if least == 1:
        w("%kone = arith.constant 1 : index")
        w(f"%npairs0 = arith.divui %K, {pair} : index")
        w("%npairs = arith.maxui %npairs0, %kone : index")
        w(f"%kend = arith.muli %npairs, {pair} : index")
        return "%kend"
    # from the 32-bit K (the launch contract's K < 2**31): the bound cannot wrap, so
    # LLVM sees it above the loop's first K position
    w(f"%kleast = arith.constant {least} : index")
    w("%Kx = arith.index_castui %Ki : i32 to index")
    w(f"%npairs0 = arith.divui %Kx, {pair} : index")
    w("%npairs = arith.maxui %npairs0, %kleast : index")
    w(f"%kend = arith.muli %npairs, {pair} overflow<nsw, nuw> : index")
    return "%kend"


def store_lane(t) -> tuple[str, str]:
    """The lane's column and row group the C stores of kernel text ``t`` use: the
    prologue's, or, in a kernel whose main loop runs at least once (``min_k``),
    recomputed after the loop from the lane count (``mbcnt``), so that no lane term stays
    live across the loop (with every AGPR an accumulator, the MXFP8 256x256 kernel spills
    them)."""
    w = t.w
    if not t.k.shape.min_trips:
        return "%l16", "%lgrp"
    w(f"%slane0 = rocdl.mbcnt.lo {w.const(-1)}, {w.const(0)} : (i32, i32) -> i32")
    w(f"%slane = rocdl.mbcnt.hi {w.const(-1)}, %slane0 : (i32, i32) -> i32")
    w(f"%sl16 = arith.remui %slane, {w.const(16)} : i32")
    w(f"%slgrp = arith.divui %slane, {w.const(16)} : i32")
    return "%sl16", "%slgrp"
