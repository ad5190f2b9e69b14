"""Packed 16-bit integer instructions (``pipeline_mlir/emu/packed.py``) against a reference
written here from the ISA's definition: for each result half, ``op_sel`` (low result) and
``op_sel_hi`` (high result) pick each source's half; the operation is modulo 2^16."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.errors import EmuError

V4 = (np.arange(64, dtype=np.uint32) * np.uint32(0x00030001) + np.uint32(0xFFF0))
S16 = 0x00200010
OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul_lo": lambda a, b: a * b}


def _setup(m):
    m.waves[0].V[4] = V4[None]
    m.waves[0].S[16] = np.uint32(S16)


def _half(v, hi):
    return (np.asarray(v, dtype=np.int64) >> (16 * hi)) & 0xFFFF


def _reference(fn, a, b, op_sel, op_sel_hi):
    lo = fn(_half(a, op_sel[0]), _half(b, op_sel[1])) & 0xFFFF
    hi = fn(_half(a, op_sel_hi[0]), _half(b, op_sel_hi[1])) & 0xFFFF
    return (lo | (hi << 16)).astype(np.uint32)


@pytest.mark.parametrize("op", ["add", "sub", "mul_lo"])
@pytest.mark.parametrize("op_sel, op_sel_hi", [((0, 0), (1, 1)), ((0, 0), (0, 1)),
                                               ((1, 0), (0, 1)), ((1, 1), (0, 0))])
def test_packed_u16(op, op_sel, op_sel_hi):
    text = (f"v_pk_{op}_u16 v6, v4, s16 op_sel:[{op_sel[0]},{op_sel[1]}] "
            f"op_sel_hi:[{op_sel_hi[0]},{op_sel_hi[1]}]\ns_endpgm")
    m = run_snippet(text, setup=_setup)
    want = _reference(OPS[op], V4, np.full(64, S16), op_sel, op_sel_hi)
    assert np.array_equal(m.waves[0].V[6, 0], want)


@pytest.mark.parametrize("name, fn", [("lshrrev", lambda a, b: b >> (a & 15)),
                                      ("lshlrev", lambda a, b: b << (a & 15))])
def test_shift_by_an_inline_constant(name, fn):
    """LLVM's ``v_pk_lshrrev_b16 v71, 1, v5 op_sel_hi:[0,1]``: the constant's low half
    shifts both halves of the register."""
    m = run_snippet(f"v_pk_{name}_b16 v6, 1, v4 op_sel_hi:[0,1]\ns_endpgm", setup=_setup)
    want = _reference(fn, np.ones(64), V4, (0, 0), (0, 1))
    assert np.array_equal(m.waves[0].V[6, 0], want)


@pytest.mark.parametrize("text, why", [
    ("v_pk_add_u16 v6, v4, s16 clamp", "neg/neg_hi/clamp"),
    ("v_pk_lshrrev_b16 v6, 1, v4", "integer inline constant whose low half"),
    ("v_pk_add_u16 v6, 0.5, v4 op_sel_hi:[0,1]", "integer inline constant"),
    ("v_pk_max_u16 v6, v4, s16", ""),
])
def test_what_is_not_pinned_is_refused_by_name(text, why):
    name = text.split()[0]
    with pytest.raises(EmuError, match=f"{name}.*not implemented by the emulator.*{why}"):
        run_snippet(text + "\ns_endpgm", setup=_setup)
