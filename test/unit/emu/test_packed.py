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


def _pairs(m):
    """One-hot dwords: v[2:3], v[4:5] and s[2:3] hold four different values per lane."""
    lane = np.arange(64, dtype=np.uint32)
    w = m.waves[0]
    for r, tag in ((2, 0x100), (3, 0x200), (4, 0x300), (5, 0x400)):
        w.V[r] = (lane + np.uint32(tag))[None]
    w.S[2], w.S[3] = np.uint32(0x500), np.uint32(0x600)


@pytest.mark.parametrize("src0, src1, op_sel, lo, hi", [
    ("v[2:3]", "v[4:5]", (0, 0), 2, 4),     # the default: each source's low dword
    ("v[2:3]", "v[4:5]", (1, 0), 3, 4),
    ("v[2:3]", "v[4:5]", (0, 1), 2, 5),
    ("v[2:3]", "v[4:5]", (1, 1), 3, 5),
    ("v[2:3]", "v[2:3]", (0, 1), 2, 3),     # LLVM's 64-bit move of a pair
    ("s[2:3]", "s[2:3]", (0, 1), "s2", "s3"),
    ("v[4:5]", "s[2:3]", (1, 0), 5, "s2"),
])
def test_pk_mov_b32_picks_one_dword_of_each_source(src0, src1, op_sel, lo, hi):
    """``v_pk_mov_b32 D, S0, S1 op_sel:[a,b]``: D.lo = S0's dword a, D.hi = S1's dword b
    (the ISA's definition of the instruction), each source dword one-hot."""
    m = run_snippet(f"v_pk_mov_b32 v[6:7], {src0}, {src1} op_sel:[{op_sel[0]},{op_sel[1]}]"
                    "\ns_endpgm", setup=_pairs)
    w = m.waves[0]

    def value(r):
        return np.full(64, w.S[int(r[1:])][0]) if isinstance(r, str) else w.V[r, 0]
    assert np.array_equal(w.V[6, 0], value(lo)) and np.array_equal(w.V[7, 0], value(hi))


def test_pk_mov_b32_swaps_a_pair_in_place():
    """The destination the source pair itself: both dwords read before either is written."""
    m = run_snippet("v_pk_mov_b32 v[2:3], v[2:3], v[2:3] op_sel:[1,0]\ns_endpgm", setup=_pairs)
    lane = np.arange(64, dtype=np.uint32)
    assert np.array_equal(m.waves[0].V[2, 0], lane + 0x200)
    assert np.array_equal(m.waves[0].V[3, 0], lane + 0x100)


@pytest.mark.parametrize("text, why", [
    ("v_pk_mov_b32 v[6:7], 1, v[4:5]", "src0: a constant"),
    ("v_pk_mov_b32 v[6:7], v[2:3], v[4:5] op_sel_hi:[0,1]", "op_sel_hi"),
])
def test_pk_mov_b32_what_is_not_pinned_is_refused(text, why):
    with pytest.raises(EmuError, match=f"v_pk_mov_b32.*not implemented by the emulator.*{why}"):
        run_snippet(text + "\ns_endpgm", setup=_pairs)
