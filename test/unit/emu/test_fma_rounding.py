"""``v_fma_f32`` and ``v_fmac_f32`` round once (``emu/valu_lanes.fma_f32``): the exact
``a * b + c`` rounded to the nearest f32, ties to even, checked against an exact rational
reference on inputs where rounding the sum to float64 first and then to f32 (double
rounding) gives another f32."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.valu_lanes import fma_f32

F = np.float32


def _nearest_f32(x: Fraction) -> np.float32:
    """``x`` rounded to the nearest f32, ties to the even significand (exact arithmetic;
    finite results only)."""
    guess = F(float(x))
    below, above = (np.nextafter(guess, F(-np.inf)), guess) if Fraction(float(guess)) > x \
        else (guess, np.nextafter(guess, F(np.inf)))
    if Fraction(float(above)) == x:
        return above
    lo, hi = x - Fraction(float(below)), Fraction(float(above)) - x
    if lo != hi:
        return below if lo < hi else above
    return below if int(np.asarray(below).view(np.uint32)) % 2 == 0 else above


def _exact(a, b, c) -> np.ndarray:
    return np.array([_nearest_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(a, b, c)], dtype=F)


def _double_rounded(a, b, c) -> np.ndarray:
    return (a.astype(np.float64) * b + c).astype(F)


def _bits(x) -> np.ndarray:
    return np.asarray(x, dtype=F).view(np.uint32)


E = 2.0 ** -23
#: (a, b, c) whose exact a*b + c lies just off an f32 tie that the float64 sum lands on
CASES = [
    (1 + E, 2.0 ** -24 * (1 - E), 1 + E),          # just below a tie: up is wrong
    (1 + E, 2.0 ** -24 * (1 - E), -(1 + E)),       # the same, negative
    (-(1 + E), 2.0 ** -24 * (1 - E), 1 + E),       # the product negative
    (1 + E, 2.0 ** -24 * (1 + E), 1.0),            # above a tie by 2^-46 (float64 keeps it)
    (1 + 2.0 ** -12, 1 - 2.0 ** -12, 2.0 ** -24),  # 1 - 2^-24 + 2^-24: exact, no error
    (3.0, 1 / 3, 0.0),
]


def test_crafted_cases_round_once():
    a, b, c = (np.array(v, dtype=F) for v in zip(*CASES))
    want = _exact(a, b, c)
    got = fma_f32(_bits(a), _bits(b), _bits(c)).view(F)
    assert np.array_equal(_bits(got), _bits(want)), (got, want)
    # the first three cases are ones double rounding gets wrong: the test can fail
    assert not np.array_equal(_bits(_double_rounded(a, b, c))[:3], _bits(want)[:3])


def test_random_operands_near_ties_match_the_exact_reference():
    rng = np.random.default_rng(7)
    n = 4000
    a = (1 + rng.integers(0, 2 ** 23, n) * E).astype(F)
    b = (2.0 ** -24 / a).astype(F)          # products within 2^-48 of 2^-24: near a tie
    c = (rng.choice([-1, 1], n) * (1 + rng.integers(0, 2 ** 23, n) * E)).astype(F)
    want = _exact(a, b, c)
    got = fma_f32(_bits(a), _bits(b), _bits(c))
    assert np.array_equal(got, _bits(want))
    assert (_bits(_double_rounded(a, b, c)) != _bits(want)).any(), "no case tells them apart"


def test_specials_pass_through():
    a = np.array([np.inf, np.nan, 3e38, 0.0, -0.0], dtype=F)
    b = np.array([2.0, 1.0, 3e38, -1.0, 1.0], dtype=F)
    c = np.array([-1.0, 0.0, 0.0, 0.0, -0.0], dtype=F)
    got = fma_f32(_bits(a), _bits(b), _bits(c)).view(F)
    assert got[0] == np.inf and np.isnan(got[1]) and got[2] == np.inf
    assert got[3] == 0 and not np.signbit(got[3])                      # -0 + +0 = +0
    assert got[4] == 0 and np.signbit(got[4])                          # -0 + -0 = -0


@pytest.mark.parametrize("text", ["v_fma_f32 v6, v4, v5, v6", "v_fmac_f32_e32 v6, v4, v5"])
def test_the_instructions_round_once(text):
    a, b, c = (np.resize(np.array(v, dtype=F), 64) for v in zip(*CASES))

    def setup(m):
        for r, v in ((4, a), (5, b), (6, c)):
            m.waves[0].V[r] = v.view(np.uint32)[None]

    got = run_snippet(f"{text}\ns_endpgm", setup=setup).waves[0].V[6, 0].view(F)
    assert np.array_equal(_bits(got), _bits(_exact(a, b, c)))
