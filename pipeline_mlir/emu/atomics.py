"""What an atomic update does to the words of global memory when it completes.

:mod:`~pipeline_mlir.emu.memops` gathers an atomic's lanes when the wave issues it (the
word each active lane addresses and the lane's operands, in workgroup-slot then lane order:
:meth:`~pipeline_mlir.emu.machine.GlobalMemory.atomic_words`) and calls one of these when
the op completes on vmcnt.  The lanes apply one after the other in that order, so lanes on
one word each see the word as the lanes before them left it (the hardware's order among
lanes and workgroups is not pinned: a run is one of the orders):

* :func:`add_f32` (``*_atomic_add_f32``): each lane adds its f32 to the dword, the sum
  rounded to nearest even; an operand, old value or sum that is subnormal, infinite or NaN
  is refused (what the hardware does then is not pinned here).
* :func:`compare_swap` (``buffer_atomic_cmpswap``, ``_x2``): each lane reads the word
  (``tmp``) and writes its source there when ``tmp`` equals its compare value, bit for bit
  (the ISA: ``tmp = MEM[ADDR]; src = DATA[0]; cmp = DATA[1]; MEM[ADDR] = (tmp == cmp) ?
  src : tmp; RETURN_DATA[0] = tmp``; the 64-bit form ``DATA[0:1]`` / ``DATA[2:3]``); the
  ``tmp`` of each lane is what ``sc0`` returns.

No MLIR here.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.operands import refuse

U32, U64 = np.uint32, np.uint64


def add_f32(ins: Instr, words, at, vals) -> None:
    """Add the f32 ``vals`` (n,) to ``words[at]`` one after another, each sum rounded
    (``words`` None: no lane was active)."""
    if words is None:
        return
    mem = words.view(np.float32)
    old = mem[at]
    add = vals.view(np.float32)
    if len(np.unique(at)) == len(at):
        new = old + add
        sums = new
    else:                               # lanes on one dword: in order, each rounded
        sums = np.empty_like(add)
        for k, (i, v) in enumerate(zip(at.tolist(), add.tolist())):
            sums[k] = mem[i] = np.float32(mem[i]) + np.float32(v)
        new = None
    for x in (old, add, sums):
        odd = ~np.isfinite(x) | ((x != 0) & (np.abs(x) < np.finfo(np.float32).tiny))
        if odd.any():
            raise refuse(ins, f"an f32 add of {float(x[odd][0])!r}: subnormal, infinite or "
                              f"NaN operands and sums are not modelled")
    if new is not None:
        mem[at] = new


def compare_swap(words, at, ops):
    """Compare and swap ``words[at]`` (uint32 or uint64 words) lane after lane: ``ops``
    (n, 2) dwords (source, compare value) of 32-bit words, (n, 4) (source low, high,
    compare low, high) of 64-bit ones.  Returns each lane's old word, (n,) of the words'
    type (None when ``words`` is None: no lane was active)."""
    if words is None:
        return None
    if words.dtype == U64:
        ops = ops.astype(U64)
        src, cmp = ops[:, 0] | (ops[:, 1] << U64(32)), ops[:, 2] | (ops[:, 3] << U64(32))
    else:
        src, cmp = ops[:, 0], ops[:, 1]
    if len(np.unique(at)) == len(at):
        old = words[at]
        hit = old == cmp
        words[at[hit]] = src[hit]
        return old
    old = np.empty(len(at), dtype=words.dtype)
    for k, i in enumerate(at.tolist()):      # lanes on one word: each sees the last's
        old[k] = words[i]
        if old[k] == cmp[k]:
            words[i] = src[k]
    return old


def split_words(old, dwords: int) -> list:
    """The ``dwords`` uint32 parts of the old words ``old`` (low dword first)."""
    if dwords == 1:
        return [old.astype(U32)]
    return [(old & U64(0xFFFFFFFF)).astype(U32), (old >> U64(32)).astype(U32)]
