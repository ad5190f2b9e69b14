"""The LDS bank cost of a channel's fragment reads in the front end's dense subtile buffers.

:mod:`pipeline_mlir.frontend.layout` stores each subtile of a channel whose copies it makes
itself densely (the element bit that tells the subtiles apart deleted) and keeps the
kernel's layout if the bank model (:mod:`pipeline_mlir.sim.lds_banks`) finds the reads
conflict-free there; else it XOR-swizzles the dense buffers (:func:`choose_swizzle`), each
read's lanes kept contiguous.  :func:`read_cost` prices the reads of one layout.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.sim.lds_banks import BankModelError, wave_costs
from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.target.gfx950 import WAVE_SIZE


def choose_swizzle(an, reads: list, bit: int, half: int, width: int,
                    elem_bytes: int) -> tuple:
    """(XOR swizzle of the dense subtile buffers or None, the reads' bank cost worded):
    the kernel's layout if the bank model finds its reads conflict-free, else the
    cheapest XOR swizzle of chunks that keep every copy's and read's lanes contiguous."""
    cost = read_cost(an, reads, bit, elem_bytes)
    if cost[0] == cost[1]:
        return None, cost[2]
    chunk = int(np.lcm.reduce([width] + [an.reads[r].lds.shape[1] for r in reads]))
    best = (cost, None)
    access = chunk
    deleted: dict = {}      # (the reads' elements with the bit deleted: once, every swizzle)
    while access * 2 <= half and access & (access - 1) == 0:
        row = access * 2
        while row <= half:
            if best[0][0] == cost[1]:   # conflict-free: no swizzle costs less (none below)
                return best[1], best[0][2]
            c = read_cost(an, reads, bit, elem_bytes, (row, access), deleted)
            if c[0] < best[0][0] and _reads_contiguous(an, reads, bit, (row, access)):
                best = (c, (row, access))
            row *= 2
        access *= 2
    return best[1], best[0][2]


def _reads_contiguous(an, reads: list, bit: int, swizzle: tuple) -> bool:
    """Every lane's elements of every read stay consecutive once the subtile bit is
    deleted and ``swizzle`` applied (a read that starts inside one swizzle chunk and ends
    in the next would not: the re-addressed read takes consecutive elements from its
    first)."""
    for r in reads:
        lds = xor_shuffle(LM.delete_bit(an.reads[r].lds, bit), *swizzle)
        if not np.all(np.diff(lds, axis=1) == 1):
            return False
    return True


def read_cost(an, reads: list, bit: int, elem_bytes: int,
              swizzle: tuple | None = None, deleted: dict | None = None) -> tuple[int, int, str]:
    """(LDS cycles, conflict-free cycles, worded) of the channel's reads, every wave, once
    the subtile bit is deleted and ``swizzle`` applied; ``deleted``: where the elements with
    the bit deleted are kept between calls of the same reads and bit (:func:`_priced`)."""
    firsts = []
    for r in reads:
        elements = an.reads[r].lds
        waves = elements.shape[0] // WAVE_SIZE
        if waves:      # every lane's first element, and the elements each lane reads
            firsts.append((elements[:waves * WAVE_SIZE, 0], elements.shape[1]))
    try:
        priced = _priced(firsts, bit, elem_bytes, swizzle, deleted)
    except BankModelError:
        return 0, 0, "not priced by the bank model"
    total, ideal, worst = 0, 0, None
    for costs, start, waves in priced:
        cycles = costs.cycles[start:start + waves]
        total += int(cycles.sum())
        ideal += costs.ideal * waves
        w = int(cycles.argmax())                # the first wave of the most excess cycles
        if worst is None or cycles[w] - costs.ideal > worst.cycles - worst.ideal:
            worst = costs.cost(start + w)
    if total == ideal:
        return total, ideal, "conflict-free"
    return total, ideal, (f"{total / ideal:g}x the conflict-free cycles (worst: "
                          f"{worst.describe()})")


def _priced(firsts: list, bit: int, elem_bytes: int, swizzle: tuple | None,
            deleted: dict | None = None) -> list:
    """Per read of ``firsts`` (its lanes' first elements, the elements each lane reads), in
    order: (the bank costs of every read of its width, its first wave in them, its waves).
    The reads of one width go through the subtile bit's deletion, the swizzle (both
    elementwise) and the bank model (each wave priced on its own) together; ``deleted``:
    width -> the elements with the bit deleted, kept there (the same for every swizzle)."""
    by_width: dict[int, list] = {}
    for first, n in firsts:
        by_width.setdefault(n * elem_bytes, []).append(first)
    costs = {}
    deleted = {} if deleted is None else deleted
    for width, parts in by_width.items():
        if width not in deleted:
            deleted[width] = LM.delete_bit(np.concatenate(parts), bit)
        lds = deleted[width]
        if swizzle is not None:
            lds = xor_shuffle(lds, *swizzle)
        costs[width] = wave_costs(lds * elem_bytes, width, False)
    out, start = [], dict.fromkeys(by_width, 0)
    for first, n in firsts:
        waves = first.size // WAVE_SIZE
        out.append((costs[n * elem_bytes], start[n * elem_bytes], waves))
        start[n * elem_bytes] += waves
    return out
