"""The MX matrix instructions pinned with one-hot inputs: operand layout, scale selection
and the cbsz/blgp format fields of ``v_mfma_scale_f32_16x16x128_f8f6f4`` (and the unscaled
f8f6f4 MFMA with FP4 operands), one instruction per run.

The expected positions are written from the sources, not from the emulator:

* layout, 16x16x128 with block scales: lane ``l`` holds row (A) / column (B) ``l % 16``, the
  32 K values ``32 * (l // 16) ..`` (IREE ``MFMA_SCALE_F32_16x16x128_B32``: thread {16, 4},
  element {1, 1, 32}; Modular ``mxfp4_matmul_amd``: "Each lane loads 16 contiguous bytes
  from its assigned matrix row"; aiter ``test_mxfp.cu``: 16 bytes at ``group4 * 16``,
  ``fp4_pack(lo, hi)`` puts element 2i in the low nibble);
* scales: lane ``l`` holds the scale of row ``l % 16``, K block ``l // 16`` (Modular
  ``BlockScaledMmaOp``: "lane_row = lane_id % 16 ... lane_k_group = lane_id / 16"), in the
  byte the op_sel bits select: LLVM prints ``opselA = 1`` as ``op_sel:[1,0,0]`` and ``2``
  as ``op_sel_hi:[1,0,0]`` (llc-22), the byte index 0..3 of the packed E8M0 word
  (Modular ``cdna4_block_scaled_mfma``); value 2^(E - 127) (OCP MX v1.0);
* formats: "0 = E4M3 (fp8), 1 = E5M2(bf8), 2 = E2M3(fp6), 3 = E3M2(bf6), 4 = E2M1(fp4)" (AMD
  matrix-core blog); E2M1 codes: 0x2 = 1.0, 0x4 = 2.0, 0x5 = 3.0, 0x7 = 6.0, sign 0x8;
* encodings: ``llvm-mc-22 -show-encoding``; text: ``llvm-objdump-22 -d --mcpu=gfx950``.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.asmline import parse_instruction
from pipeline_mlir.emu.decode import decode
from pipeline_mlir.emu.errors import EmuError, Finding

ONE, TWO, THREE, SIX = 0x2, 0x4, 0x5, 0x7          # E2M1 codes
NEUTRAL = 127                                     # E8M0 2^0
SCALED = "v_mfma_scale_f32_16x16x128_f8f6f4"


def _set_nibble(V, first, lane, e, code):
    """Element ``e`` (0..31) of a lane's FP4 operand at ``v[first:first+3]``."""
    reg, nib = first + e // 8, e % 8
    V[reg, 0, lane] = (int(V[reg, 0, lane]) & ~(0xF << (4 * nib))) | (code << (4 * nib))


def _set_byte(V, reg, lane, byte, value):
    V[reg, 0, lane] = (int(V[reg, 0, lane]) & ~(0xFF << (8 * byte))) | (value << (8 * byte))


def _d(V, first=0):
    """D as the documents place it: [i][j] in lane j + 16 * (i // 4), register i % 4."""
    return np.array([[float(V[first + i % 4, 0, j + 16 * (i // 4)].view(np.float32))
                      for j in range(16)] for i in range(16)])


def _scales(V, reg, value):
    V[reg] = np.uint32(value * 0x01010101)


def _run(program, setup):
    return _d(run_snippet(program + "\ns_endpgm", setup=setup).waves[0].V)


def _only(i, j, value):
    want = np.zeros((16, 16))
    want[i, j] = value
    return want


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (5, 9, 3), (15, 127, 15), (4, 32, 12),
                                   (11, 95, 1), (3, 64, 8), (9, 31, 6), (1, 33, 14)])
def test_fp4_one_hot_layout(i, k, j):
    q, e = divmod(k, 32)

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        _scales(V, 20, NEUTRAL), _scales(V, 21, NEUTRAL)
        _set_nibble(V, 4, i + 16 * q, e, ONE)        # A[i][k] = 1
        _set_nibble(V, 8, j + 16 * q, e, TWO)        # B[k][j] = 2

    got = _run(f"{SCALED} v[0:3], v[4:7], v[8:11], 0, v20, v21 op_sel_hi:[0,0,0] cbsz:4 "
               f"blgp:4", setup)
    assert np.array_equal(got, _only(i, j, 2.0))


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (7, 63, 9), (15, 64, 15), (2, 50, 13)])
def test_unscaled_fp4_same_layout(i, k, j):
    q, e = divmod(k, 32)

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        _set_nibble(V, 4, i + 16 * q, e, THREE)
        _set_nibble(V, 8, j + 16 * q, e, TWO | 0x8)  # -2

    got = _run("v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], 0 cbsz:4 blgp:4", setup)
    assert np.array_equal(got, _only(i, j, -6.0))


@pytest.mark.parametrize("i,k,j", [(0, 0, 0), (6, 40, 2), (15, 127, 11), (9, 96, 4)])
def test_scale_selects_row_and_block(i, k, j):
    """Every lane's scale differs; only lane i + 16 * (k // 32) of A and j + 16 * (k // 32)
    of B may scale the product."""
    q, e = divmod(k, 32)
    ea, eb = 3, -2

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        V[20] = np.uint32(NEUTRAL + 5)            # every other lane: 2^5
        V[21] = np.uint32(NEUTRAL - 4)
        V[20, 0, i + 16 * q] = NEUTRAL + ea
        V[21, 0, j + 16 * q] = NEUTRAL + eb
        _set_nibble(V, 4, i + 16 * q, e, ONE)
        _set_nibble(V, 8, j + 16 * q, e, SIX)

    got = _run(f"{SCALED} v[0:3], v[4:7], v[8:11], 0, v20, v21 op_sel_hi:[0,0,0] cbsz:4 "
               f"blgp:4", setup)
    assert np.array_equal(got, _only(i, j, 6.0 * 2.0 ** (ea + eb)))


@pytest.mark.parametrize("byte_a,byte_b", [(0, 0), (1, 0), (2, 3), (3, 1), (0, 2)])
def test_op_sel_picks_the_scale_byte(byte_a, byte_b):
    """Byte b of each scale register holds 2^(b+1) (A) / 2^-(b+1) * 2^-3 (B): the result
    names the bytes read."""
    mods = f"op_sel:[{byte_a & 1},{byte_b & 1},0] op_sel_hi:[{byte_a >> 1},{byte_b >> 1},0]"

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        V[20] = np.uint32(sum((NEUTRAL + b + 1) << (8 * b) for b in range(4)))
        V[21] = np.uint32(sum((NEUTRAL - b - 4) << (8 * b) for b in range(4)))
        _set_nibble(V, 4, 2, 0, ONE)
        _set_nibble(V, 8, 7, 0, ONE)

    got = _run(f"{SCALED} v[0:3], v[4:7], v[8:11], 0, v20, v21 {mods} cbsz:4 blgp:4", setup)
    assert np.array_equal(got, _only(2, 7, 2.0 ** ((byte_a + 1) - (byte_b + 4))))


@pytest.mark.parametrize("mods,a_fp4,b_fp4", [("cbsz:4", True, False), ("blgp:4", False, True),
                                              ("", False, False), ("cbsz:1 blgp:4", False, True)])
def test_format_fields(mods, a_fp4, b_fp4):
    """cbsz names A's format, blgp B's: FP4 takes 4 registers, FP8 (E4M3 1.0 = 0x38, E5M2
    1.0 = 0x3C) 8, byte e of a lane = K 32 * (lane // 16) + e."""
    i, k, j = 3, 77, 12
    q, e = divmod(k, 32)
    a_regs, b_first = (4, 8) if a_fp4 else (8, 12)
    b_regs = 4 if b_fp4 else 8
    a_one = 0x3C if "cbsz:1" in mods else 0x38

    def setup(m):
        V = m.waves[0].V
        V[4:30] = 0
        _scales(V, 40, NEUTRAL + 1), _scales(V, 41, NEUTRAL)
        if a_fp4:
            _set_nibble(V, 4, i + 16 * q, e, ONE)
        else:
            _set_byte(V, 4 + e // 4, i + 16 * q, e % 4, a_one)
        if b_fp4:
            _set_nibble(V, b_first, j + 16 * q, e, THREE)
        else:
            _set_byte(V, b_first + e // 4, j + 16 * q, e % 4, 0x44)     # E4M3 3.0

    a = f"v[4:{4 + a_regs - 1}]"
    b = f"v[{b_first}:{b_first + b_regs - 1}]"
    got = _run(f"{SCALED} v[0:3], {a}, {b}, 0, v40, v41 op_sel_hi:[0,0,0] {mods}".strip(),
               setup)
    assert np.array_equal(got, _only(i, j, 2.0 * 3.0))


def test_e2m1_values_and_accumulate():
    """All 16 E2M1 codes: A row 0 holds code c at K = c (lane 0), B ones; D = sum + C."""
    values = [0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6]
    for c in range(16):
        weights = np.zeros(16)
        weights[c] = 1.0

        def setup(m, c=c):
            V = m.waves[0].V
            V[4:12] = 0
            V[0:4] = 0
            V[0, 0, 5] = np.float32(10.0).view(np.uint32)           # C[0][5] = 10
            _scales(V, 20, NEUTRAL), _scales(V, 21, NEUTRAL)
            _set_nibble(V, 4, 0, c, c)
            _set_nibble(V, 8, 5, c, ONE)

        got = _run(f"{SCALED} v[0:3], v[4:7], v[8:11], v[0:3], v20, v21 op_sel_hi:[0,0,0] "
                   f"cbsz:4 blgp:4", setup)
        assert got[0, 5] == 10.0 + values[c], c


#: (llvm-mc-22 encoding as dwords, llvm-objdump-22 text)
ENCODED = [
    ((0xD3AC0800, 0x10022B14, 0xD3AD0C00, 0x84021904),
     f"{SCALED} v[0:3], v[4:7], v[12:15], v[0:3], v20, v21 op_sel:[1,0,0] op_sel_hi:[0,1,0] "
     f"cbsz:4 blgp:4"),
    ((0xD3AC0000, 0x00022B14, 0xD3AD8800, 0x04021904),
     f"{SCALED} a[0:3], v[4:11], v[12:19], a[0:3], v20, v21 op_sel_hi:[0,0,0]"),
    ((0xD3AC4000, 0x18022B14), "v_mfma_ld_scale_b32 v20, v21"),
    ((0xD3AD0400, 0x84021904), "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[12:15], v[0:3] "
                               "cbsz:4 blgp:4"),
    ((0xD3AC0000, 0x00022B14, 0xD3AE0C00, 0x84021904),
     "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[4:7], v[12:15], v[0:15], v20, v21 "
     "op_sel_hi:[0,0,0] cbsz:4 blgp:4"),
]


def test_decoder_pairs_the_scale_load_with_its_mfma():
    words = [w for dws, _ in ENCODED for w in dws]
    ins = decode(struct.pack(f"<{len(words)}I", *words))
    assert [i.text for i in ins] == [t for _, t in ENCODED]
    assert [i.size for i in ins] == [16, 16, 8, 8, 16]
    for i in ins:
        if i.name != "v_mfma_ld_scale_b32":
            assert parse_instruction(i.text, i.addr)[0].key() == i.key(), i.text


def test_refused_forms():
    cases = {
        f"{SCALED} v[0:3], v[4:7], v[8:11], 0, s20, v21 op_sel_hi:[0,0,0] cbsz:4 blgp:4":
            "not a VGPR",
        f"{SCALED} v[0:3], v[4:9], v[8:13], 0, v20, v21 op_sel_hi:[0,0,0] cbsz:2 blgp:2":
            "FP6",
        "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[4:7], v[8:11], 0, v20, v21 "
        "op_sel_hi:[0,0,0] cbsz:4 blgp:4": "32x32x64",
    }
    for text, why in cases.items():
        with pytest.raises(EmuError, match=why):
            run_snippet(text + "\ns_endpgm")


def test_scale_read_while_loading_is_a_finding():
    """The scale VGPRs are operands: reading one while a load into it is in flight is
    reported, as for A and B."""
    prog = (f"ds_read_b32 v20, v30\n{SCALED} v[0:3], v[4:7], v[8:11], 0, v20, v21 "
            f"op_sel_hi:[0,0,0] cbsz:4 blgp:4\ns_endpgm")

    def setup(m):
        V = m.waves[0].V
        V[4:12] = 0
        V[30] = 0
        _scales(V, 21, NEUTRAL)

    with pytest.raises(Finding, match="pending-register.*v20 is used while the load"):
        run_snippet(prog, setup=setup, mode="late")
