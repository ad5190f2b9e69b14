"""``wave_costs`` prices many waves at once in numpy; each wave's cost must be what counting
the distinct dwords of each phase per bank one lane at a time gives (the definition in
``pipeline_mlir/sim/lds_banks.py``'s docstring), worst phase and bank included."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.sim.lds_banks import PHASES, BankModelError, bank_cost, phases, wave_costs


def _counted(addresses, width: int, write: bool) -> tuple[int, tuple[int, int, int]]:
    """(cycles, (phase, bank, dwords) of the first phase of the most dwords in one bank,
    the lowest such bank), one lane and one dword at a time."""
    groups, _ = phases(write, width)
    total, worst = 0, (0, 0, 0)
    for p, lanes in enumerate(groups):
        banks: dict[int, set[int]] = {}
        for lane in lanes:
            for w in range(max(1, width // 4)):
                d = int(addresses[lane]) // 4 + w
                banks.setdefault(d % 64, set()).add(d)
        most = max(len(s) for s in banks.values())
        bank = min(b for b, s in banks.items() if len(s) == most)
        total += most
        if most > worst[2]:
            worst = (p, bank, most)
    return total, worst


def _waves(rng, n: int) -> np.ndarray:
    """``n`` waves of addresses: strided rows, XOR-shuffled rows, repeats and random ones."""
    lanes = np.arange(64)
    out = []
    for _ in range(n):
        stride = int(rng.choice([2, 4, 8, 16, 128, 260]))
        kind = rng.integers(4)
        a = int(rng.integers(0, 4096)) + lanes * stride
        if kind == 1:
            a = a ^ (rng.integers(0, 4, 64) * 64)
        elif kind == 2:
            a = a[rng.integers(0, 8, 64)]
        elif kind == 3:
            a = rng.integers(-512, 65536, 64)
        out.append(a)
    return np.concatenate(out)


@pytest.mark.parametrize("write, width", sorted(PHASES) + [(False, 2)])
def test_every_wave_costs_what_counting_gives(write, width):
    addresses = _waves(np.random.default_rng(width + 7 * write), 24)
    costs = wave_costs(addresses, width, write)
    assert costs.ideal == len(phases(write, width)[0]) and len(costs.cycles) == 24
    for w in range(24):
        lanes = addresses[w * 64:(w + 1) * 64]
        cycles, worst = _counted(lanes, width, write)
        c = bank_cost(list(lanes), width, write)
        assert (c.cycles, c.worst) == (cycles, worst) == (int(costs.cycles[w]),
                                                           costs.cost(w).worst)
    assert any(int(c) > costs.ideal for c in costs.cycles)        # conflicts were priced


def test_addresses_that_are_not_whole_waves_are_refused():
    with pytest.raises(BankModelError, match="64 lanes each; got 96 addresses"):
        wave_costs(list(range(96)), 16, False)
