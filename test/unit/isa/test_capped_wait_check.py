"""The ISA check's comparison of a wait the schedule capped at the counter's maximum
(``stages.cap_long_load_waits``: lgkmcnt(15), recording the lgkmcnt(16) it derived) with
the assembly's wait: at its maximum a count waits for nothing, which is how the assembly's
``s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)`` reads, so the two agree (before: two
``wait-weakened`` and two ``wait-over-derived`` findings on IREE's ping-pong A^T x B^T
K-step-128 kernel at K = 2048).  A wait below the maximum that the assembly drops, and a
lowered vmcnt wait whose assembly waits for nothing, are still reported."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.check import IsaCheck, _Phase
from pipeline_mlir.isa.skeleton import Token
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX


def _findings(expected: Token, actual: Token) -> set[str]:
    res = IsaCheck()
    _Phase("loop", [], [], res).wait(expected, actual, across=False)
    return {f.kind for f in res.findings}


CAPPED = Token("wait", lgkm=LGKMCNT_MAX, origin=("KRN[3]",),
               derived=(("lgkmcnt", LGKMCNT_MAX + 1),))


@pytest.mark.parametrize("actual, kinds", [
    (Token("wait", lines=(518,)), set()),                     # waits for nothing: the same
    (Token("wait", lgkm=14, lines=(518,)), {"wait-tightened"}),
])
def test_a_capped_wait_at_the_counters_maximum(actual, kinds):
    assert _findings(CAPPED, actual) == kinds


def test_a_wait_below_the_maximum_that_waits_for_nothing_is_weakened():
    te = Token("wait", lgkm=LGKMCNT_MAX - 1, origin=("KRN[3]",))
    assert _findings(te, Token("wait", lines=(518,))) == {"wait-weakened"}


def test_a_lowered_vm_wait_that_waits_for_nothing_is_over_its_derived_count():
    """vm_cap's vmcnt(31) derived as 48: an assembly wait for nothing (vmcnt 63) is weaker
    than both."""
    te = Token("wait", vm=31, origin=("KRN[0]",), derived=(("vmcnt", 48),))
    assert _findings(te, Token("wait", lines=(9,))) == {"wait-weakened", "wait-over-derived"}
    assert _findings(te, Token("wait", vm=49, lines=(9,))) == {"wait-weakened",
                                                               "wait-over-derived"}
    assert _findings(te, Token("wait", vm=31, lines=(9,))) == set()
