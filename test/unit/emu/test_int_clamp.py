"""The ``clamp`` (saturation) modifier of the integer adds and subtracts
(``pipeline_mlir/emu/valu.py``) against a reference written here with Python integers:
the exact sum or difference of the sources read as unsigned or signed ``bits``-bit
integers, limited to the destination type's range.  Each case also checks that its
inputs overflow, so that the unclamped instruction would give other bits."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import EmuError

# per lane: values near 0, the signed limits and the unsigned limit (both bit widths)
_EDGES = [0, 1, 5, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF0, 0xFFFFFFFF]
V4 = np.array([_EDGES[i % len(_EDGES)] for i in range(64)], dtype=np.uint32)
V5 = np.array([_EDGES[(7 * i + 3) % len(_EDGES)] for i in range(64)], dtype=np.uint32)


def _setup(m):
    m.waves[0].V[4] = V4[None]
    m.waves[0].V[5] = V5[None]


def _reference(op: str, bits: int, signed: bool, a: int, b: int) -> tuple[int, int]:
    """(clamped, wrapped) results of one lane."""
    low = (1 << bits) - 1
    x, y = a & low, b & low
    if signed:
        sign = 1 << (bits - 1)
        x, y = (x ^ sign) - sign, (y ^ sign) - sign
    r = {"add": x + y, "sub": x - y, "subrev": y - x}[op]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, low)
    return min(max(r, lo), hi) & low, r & low


CASES = [("v_add_u32_e64", "add", 32, False), ("v_sub_u32_e64", "sub", 32, False),
         ("v_subrev_u32_e64", "subrev", 32, False), ("v_add_i32", "add", 32, True),
         ("v_sub_i32", "sub", 32, True), ("v_add_u16_e64", "add", 16, False),
         ("v_sub_u16_e64", "sub", 16, False), ("v_subrev_u16_e64", "subrev", 16, False),
         ("v_add_co_u32_e64 v6, vcc,", "add", 32, False),
         ("v_sub_co_u32_e64 v6, vcc,", "sub", 32, False),
         ("v_subrev_co_u32_e64 v6, vcc,", "subrev", 32, False)]


@pytest.mark.parametrize("name, op, bits, signed", CASES)
def test_clamp_saturates(name, op, bits, signed):
    head = name if "," in name else f"{name} v6,"
    clamped = run_snippet(f"{head} v4, v5 clamp\ns_endpgm", setup=_setup).waves[0].V[6, 0]
    plain = run_snippet(f"{head} v4, v5\ns_endpgm", setup=_setup).waves[0].V[6, 0]
    want = [_reference(op, bits, signed, int(a), int(b)) for a, b in zip(V4, V5)]
    assert [int(x) for x in clamped] == [w[0] for w in want]
    assert [int(x) for x in plain] == [w[1] for w in want]
    assert any(w[0] != w[1] for w in want), "no lane saturates: the case cannot fail"
    assert not np.array_equal(clamped, plain)


def test_carry_out_is_the_operations_own():
    """With clamp the carry out of ``v_add_co_u32`` still says whether the sum overflowed."""
    m = run_snippet("v_add_co_u32_e64 v6, s[20:21], v4, v5 clamp\ns_endpgm", setup=_setup)
    mask = int(m.waves[0].S[20, 0]) | (int(m.waves[0].S[21, 0]) << 32)
    want = sum(1 << i for i in range(64) if int(V4[i]) + int(V5[i]) > 0xFFFFFFFF)
    assert want and mask == want


@pytest.mark.parametrize("text", ["v_add3_u32 v6, v4, v5, v4 clamp",
                                  "v_add_i16 v6, v4, v5 clamp"])
def test_other_clamp_forms_are_refused(text):
    with pytest.raises(EmuError, match=f"{text.split()[0]}.*not implemented by the emulator"):
        run_snippet(text + "\ns_endpgm", setup=_setup)
