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
    while access * 2 <= half and access & (access - 1) == 0:
        row = access * 2
        while row <= half:
            c = read_cost(an, reads, bit, elem_bytes, (row, access))
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
               swizzle: tuple | None = None) -> tuple[int, int, str]:
    """(LDS cycles, conflict-free cycles, worded) of the channel's reads, every wave, once
    the subtile bit is deleted and ``swizzle`` applied."""
    total, ideal, worst = 0, 0, None
    for r in reads:
        elements = an.reads[r].lds
        waves = elements.shape[0] // WAVE_SIZE
        if not waves:
            continue
        # every lane's first element (the bit deletion and the swizzle are elementwise)
        lds = LM.delete_bit(elements[:waves * WAVE_SIZE, 0], bit)
        if swizzle is not None:
            lds = xor_shuffle(lds, *swizzle)
        try:
            costs = wave_costs(lds * elem_bytes, elements.shape[1] * elem_bytes, False)
        except BankModelError:
            return 0, 0, "not priced by the bank model"
        total += int(costs.cycles.sum())
        ideal += costs.ideal * waves
        w = int(costs.cycles.argmax())          # the first wave of the most excess cycles
        if worst is None or costs.cycles[w] - costs.ideal > worst.cycles - worst.ideal:
            worst = costs.cost(w)
    if total == ideal:
        return total, ideal, "conflict-free"
    return total, ideal, (f"{total / ideal:g}x the conflict-free cycles (worst: "
                          f"{worst.describe()})")
