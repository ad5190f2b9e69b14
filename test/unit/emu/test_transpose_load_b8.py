"""``ds_read_b64_tr_b8`` on the emulator: which lane receives which byte, checked against
the rule written out lane by lane (independently of the emulator's tables).

The rule: in a 16-lane group, lanes ``2 e`` and ``2 e + 1`` hold row ``e`` of an 8 x 16
tile of bytes (lane ``2 e + j`` its columns ``8 j .. 8 j + 7``) and lane ``l`` receives
column ``l``.  IREE's own fp8 and i8 ``A x B`` kernels, which read B with this
instruction, are exact on the emulator (``test/unit/tools/test_iree_emulate.py``): the
independent check that the rule is the hardware's.

* one-hot: a single non-zero byte reaches exactly one (lane, element);
* round trip: random LDS, scattered byte addresses (any alignment) and an offset, into
  VGPRs and AGPRs, memory completing eagerly and late;
* a B operand stored K x N arrives as the 16x16x128 MFMA's half-operand: lane ``l`` holds
  ``B[k0 .. k0 + 7][l % 16]``;
* partial EXEC is reported, not guessed.
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_transposing_read
from pipeline_mlir.emu.errors import Finding

LANES = np.arange(64)
MEM = 4096
DATA = 6


def _run(addrs, lds_bytes, **kw):
    """(the 8 bytes each lane receives (64, 8), the machine)."""
    return run_transposing_read("ds_read_b64_tr_b8", addrs, lds_bytes, data=DATA, **kw)


def _expected(lds: np.ndarray, addrs, offset: int = 0) -> np.ndarray:
    """The rule, lane by lane: (64, 8) bytes received."""
    out = np.zeros((64, 8), dtype=np.uint8)
    for lane in range(64):
        group, l16 = divmod(lane, 16)
        for e in range(8):
            src = 16 * group + 2 * e + l16 // 8          # the lane holding row e, column l16
            out[lane, e] = lds[int(addrs[src]) + offset + l16 % 8]
    return out


@pytest.mark.parametrize("lane_src,byte_src", [(0, 0), (1, 7), (6, 3), (15, 5), (22, 1),
                                               (47, 6), (63, 2)])
def test_one_hot_byte_reaches_one_lane(lane_src, byte_src):
    lds = np.zeros(MEM, dtype=np.uint8)
    lds[8 * lane_src + byte_src] = 0xA5
    got, _ = _run(LANES * 8, lds)
    hits = np.argwhere(got != 0).tolist()
    group, r = divmod(lane_src, 16)
    # the source lane 16 g + r holds row r // 2, columns 8 (r % 2) .. + 7 of its group's tile
    assert hits == [[16 * group + 8 * (r % 2) + byte_src, r // 2]]
    assert got[hits[0][0], hits[0][1]] == 0xA5


@pytest.mark.parametrize("mode", ["eager", "late"])
@pytest.mark.parametrize("acc", [False, True])
def test_round_trip_scattered_addresses(acc, mode):
    rng = np.random.default_rng(11 + acc)
    lds = rng.integers(0, 256, MEM, dtype=np.uint8)
    addrs = rng.permutation(np.arange(0, MEM - 64))[:64]        # any byte, any order
    got, _ = _run(addrs, lds, acc=acc, offset=40, mode=mode)
    assert np.array_equal(got, _expected(lds, addrs, 40))


def test_b_operand_stored_k_by_n_arrives_as_the_mfma_reads_it():
    """B (64 x 16 bytes, K x N, row-major) in LDS; lane 2 e + j of group q addresses row
    16 q + e, column 8 j (and, in a second read, row 16 q + 8 + e): lane l then holds
    B[16 q .. 16 q + 15][l % 16]."""
    B = (np.arange(64 * 16) * 7 + 3).astype(np.uint8).reshape(64, 16)
    lds = np.zeros(MEM, dtype=np.uint8)
    lds[:B.size] = B.reshape(-1)
    q, r = LANES // 16, LANES % 16
    e, j = r // 2, r % 2
    parts = [_run((16 * q + 8 * half + e) * 16 + 8 * j, lds)[0] for half in (0, 1)]
    operand = np.concatenate(parts, axis=1)                  # (64, 16)
    want = np.stack([B[16 * (lane // 16):16 * (lane // 16) + 16, lane % 16] for lane in LANES])
    assert np.array_equal(operand, want)


def test_partial_exec_is_reported():
    """Half the wave active: undefined in the ISA, reported under the instruction's name."""
    with pytest.raises(Finding, match="transpose-exec.*ds_read_b64_tr_b8 runs with EXEC"):
        _run(LANES * 8, np.zeros(MEM, dtype=np.uint8), active=LANES < 32)
