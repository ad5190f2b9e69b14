"""The Wave mutation campaign (``test/data/wave/mutants.py``): semantic mutants of IREE
Wave's 1-D-launch GEMM, whose copies the front end distributes itself, each refused with a
located message or pipelined and computing on the emulator what its unpipelined build
computes, race-free.  A CI run takes a handful; ``PIPELINE_MUTANTS=N`` (and
``PIPELINE_MUTANTS_SEED=S``) runs N of them.  No wave-lang needed (the input is
committed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from script_loader import load_script

PATH = Path(__file__).parents[2] / "data" / "wave" / "mutants.py"
SEED = int(os.environ.get("PIPELINE_MUTANTS_SEED", "1"))
COUNT = int(os.environ.get("PIPELINE_MUTANTS", "3"))


@pytest.fixture(scope="module")
def campaign():
    return load_script(PATH, "wave_mutants")


@pytest.mark.parametrize("index", range(COUNT))
def test_mutant_is_refused_or_exact(campaign, index):
    m = campaign.mutant(SEED, index)
    verdict, detail = campaign.verdict(m)
    assert verdict not in campaign.I.BAD, (
        f"{verdict}: {m.what}\n{detail}\n"
        f"reproduce: python test/data/wave/mutants.py --seed {SEED} --only {index}")


def test_a_wrong_pipelined_kernel_is_a_wrong_verdict(campaign, monkeypatch):
    """The verdict compares the two builds' C: a pipelined build that computes another C
    (the unpipelined build of a mutant whose MFMA operands differ) is WRONG."""
    m = campaign.mutant(SEED, 0)
    other = campaign.KERNEL.read_text().replace("%186 * %170", "%186 * %186", 1)
    assert other != campaign.KERNEL.read_text()
    build = campaign._build

    def swapped(text, how):
        if how == "--pipeline=4wave":
            return build(other, campaign.UNPIPELINED)
        return build(campaign.KERNEL.read_text(), how)

    monkeypatch.setattr(campaign, "_build", swapped)
    verdict, detail = campaign.verdict(m)
    assert verdict == "WRONG" and "elements of C differ" in detail, (verdict, detail)
