"""The pieces of a complete GEMM kernel's text that depend on how often its main loop runs.

A kernel whose main loop runs at least once (``KernelShape.min_trips``, the ``4wave`` option
``loop_once``; ``docs/kernels.md``, "Loop once") bounds its loop so that LLVM sees it run
(:func:`loop_end`); the others keep the plain form.  Used by :mod:`pipeline_mlir.kernel.gemm_mlir`, which
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
        # from the 32-bit K too: its range then bounds the loop's (the lowering runs the
        # pipelined loop on a 32-bit counter when the bound provably fits one)
        w("%kone = arith.constant 1 : index")
        w("%Kx = arith.index_castui %Ki : i32 to index")
        w(f"%npairs0 = arith.divui %Kx, {pair} : index")
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
