"""``ds_read_b64_tr_b16`` on the emulator: which lane receives which element, checked
against the ISA's description independently of the emulator's tables.

* one-hot: a single non-zero element in LDS, every lane addressing its own 8 bytes; the
  element must reach exactly one (lane, element) of the result: the one the transpose rule
  names (lanes ``4 e .. 4 e + 3`` of a 16-lane group hold row ``e`` of a 4 x 16 tile, lane
  ``l`` receives column ``l``);
* round trip: random LDS, scattered per-lane addresses and an instruction offset; the
  registers must hold the elements the rule gives, into VGPRs and AGPRs, memory completing
  eagerly and late;
* an MFMA B operand stored K x N (N contiguous) arrives as the MFMA wants it: lane ``l``
  holds ``B[k0 .. k0 + 3][l % 16]`` with ``k0`` from its group;
* partial EXEC is undefined in the ISA: reported, not guessed; so is an odd address.
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_transposing_read
from pipeline_mlir.emu.errors import Finding

LANES = np.arange(64)
MEM = 4096
DATA = 4


def _run(addrs, lds_bytes, **kw):
    """(the 4 16-bit elements each lane receives (64, 4), the machine)."""
    got, m = run_transposing_read("ds_read_b64_tr_b16", addrs, lds_bytes, data=DATA, **kw)
    return got.view(np.uint16), m


def _expected(lds: np.ndarray, addrs, offset: int = 0) -> np.ndarray:
    """The rule, written out lane by lane: (64, 4) elements received."""
    halves = lds.view("<u2")
    out = np.zeros((64, 4), dtype=np.uint16)
    for lane in range(64):
        group, l16 = divmod(lane, 16)
        for e in range(4):
            src = 16 * group + 4 * e + l16 // 4          # the lane holding row e, column l16
            out[lane, e] = halves[(int(addrs[src]) + offset) // 2 + l16 % 4]
    return out


@pytest.mark.parametrize("lane_src,elem_src", [(0, 0), (1, 3), (5, 2), (13, 1), (22, 0),
                                               (47, 3), (63, 2)])
def test_one_hot_element_reaches_one_lane(lane_src, elem_src):
    addrs = LANES * 8                                      # lane l reads bytes 8l .. 8l + 7
    lds = np.zeros(MEM, dtype=np.uint8)
    lds[8 * lane_src + 2 * elem_src:8 * lane_src + 2 * elem_src + 2] = (0x34, 0x12)
    got, _ = _run(addrs, lds)
    hits = np.argwhere(got != 0)
    assert got[tuple(hits.T)].tolist() == [0x1234]
    (lane, e), = hits.tolist()
    group, r = divmod(lane_src, 16)
    # the source lane 16 g + r holds row r // 4, columns 4 (r % 4) .. + 3 of its group's tile
    assert lane == 16 * group + 4 * (r % 4) + elem_src and e == r // 4


@pytest.mark.parametrize("mode", ["eager", "late"])
@pytest.mark.parametrize("acc", [False, True])
def test_round_trip_scattered_addresses(acc, mode):
    rng = np.random.default_rng(3 + acc)
    lds = rng.integers(0, 256, MEM, dtype=np.uint8)
    addrs = rng.permutation(np.arange(0, MEM - 64, 2))[:64]     # 2-byte aligned, any order
    regs0 = rng.integers(0, 1 << 32, (2, 64), dtype=np.uint32)
    got, _ = _run(addrs, lds, acc=acc, offset=24, mode=mode, regs0=regs0)
    assert np.array_equal(got, _expected(lds, addrs, 24))


def test_b_operand_stored_k_by_n_arrives_as_the_mfma_reads_it():
    """B (32 x 16, K x N, row-major bf16 bits) in LDS; lane 4 e + j of group q addresses row
    8 q + e, column 4 j (and, in a second read, row 8 q + 4 + e): lane l then holds
    B[8 q .. 8 q + 7][l % 16], the 16x16x32 MFMA's B operand (k = 8 (l // 16) + i)."""
    n_cols = 16
    B = (np.arange(32 * n_cols, dtype=np.uint16) * 7 + 1).reshape(32, n_cols)
    lds = np.zeros(MEM, dtype=np.uint8)
    lds[:B.nbytes] = B.view(np.uint8).reshape(-1)
    q, r = LANES // 16, LANES % 16
    e, j = r // 4, r % 4
    parts = []
    for half in (0, 1):
        addrs = ((8 * q + 4 * half + e) * n_cols + 4 * j) * 2
        got, _ = _run(addrs, lds)
        parts.append(got)
    operand = np.concatenate(parts, axis=1)                  # (64, 8)
    want = np.stack([B[8 * (lane // 16):8 * (lane // 16) + 8, lane % 16] for lane in LANES])
    assert np.array_equal(operand, want)


def test_partial_exec_is_reported():
    lds = np.zeros(MEM, dtype=np.uint8)
    with pytest.raises(Finding, match="transpose-exec.*EXEC not all ones"):
        _run(LANES * 8, lds, active=(LANES % 3 == 0) | (LANES >= 60))


def test_odd_address_is_reported():
    lds = np.zeros(MEM, dtype=np.uint8)
    addrs = LANES * 8
    addrs[9] += 1
    with pytest.raises(Finding, match=r"misaligned.*address 73 \(lane 9\)"):
        _run(addrs, lds)
