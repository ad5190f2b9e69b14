"""The natural kernels' mutation sweep (``test/data/natural/mutants.py``): mutants of the
hand-written kernels the front end's tests pipeline, each refused with a located message or
pipelined and exact on the emulator against its own build without the sched passes.  A CI
run takes two mutants of seed 1; ``python test/data/natural/mutants.py --seed S --count N``
runs a sweep."""

from __future__ import annotations

from pathlib import Path

import pytest

from script_loader import load_script

N = load_script(Path(__file__).parents[2] / "data" / "natural" / "mutants.py",
                "natural_mutants")


def test_the_sweep_mutates_every_variant_deterministically():
    """Each variant is drawn, and a seed draws the same mutants every time."""
    first = [N.mutant(1, i).what for i in range(40)]
    assert first == [N.mutant(1, i).what for i in range(40)]
    assert {w.split(":")[0].split(" ")[1] for w in first} == set(N.VARIANTS)


@pytest.mark.parametrize("index, want", [(9, "refused"), (11, "exact")])
def test_a_natural_mutant_is_refused_or_exact(index, want):
    """Seed 1: mutant 9 (the buffer kernel's barrier made a bare ``rocdl.s.barrier``) is
    refused at it; mutant 11 (the f16 kernel's barrier a ``rocdl.s.barrier`` after a wait
    for vmcnt(0) and lgkmcnt(0)) is exact against its unpipelined build."""
    m = N.mutant(1, index)
    verdict, detail = N.verdict(m)
    assert verdict == want, f"{verdict}: {m.what}\n{detail}"
