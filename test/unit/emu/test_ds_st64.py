"""``ds_read2st64`` / ``ds_write2st64``: the pair's offsets in strides of 64 elements.

The ISA (CDNA3/CDNA4, DS): ``ds_read2st64_b64`` reads the 8-byte elements at ``ADDR +
OFFSET0 * 8 * 64`` and ``ADDR + OFFSET1 * 8 * 64`` into consecutive registers (``_b32``: 4
bytes, ``* 4 * 64``); the writes store two registers there.  LLVM merges two
``ds_read_b64`` 512 bytes apart into one (IREE's 32x32x8 kernels read their fragments so).
"""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet

LANES = np.arange(64)
MEM = 8192


def _setup(lds0, addr, regs=None):
    def setup(m):
        m.lds[0, :MEM] = lds0
        m.waves[0].V[1] = addr.astype(np.uint32)[None]
        if regs is not None:
            m.waves[0].V[4:4 + len(regs), 0] = regs
    return setup


@pytest.mark.parametrize("size,offsets", [(8, (0, 1)), (8, (1, 3)), (4, (2, 5))])
def test_read2st64(size, offsets):
    rng = np.random.default_rng(size + offsets[1])
    lds0 = rng.integers(0, 256, MEM, dtype=np.uint8)
    addr = LANES * size
    dw = size // 4
    regs = f"v[4:{4 + 2 * dw - 1}]"
    m = run_snippet(f"ds_read2st64_b{8 * size} {regs}, v1 offset0:{offsets[0]} "
                    f"offset1:{offsets[1]}\ns_waitcnt lgkmcnt(0)\ns_endpgm",
                    setup=_setup(lds0, addr), lds_bytes=MEM)
    for k, off in enumerate(offsets):
        start = addr + off * 64 * size
        want = np.stack([lds0[s:s + size] for s in start]).view("<u4").T       # (dw, 64)
        assert np.array_equal(m.waves[0].V[4 + k * dw:4 + (k + 1) * dw, 0], want)


@pytest.mark.parametrize("size,offsets", [(8, (0, 2)), (4, (1, 4))])
def test_write2st64(size, offsets):
    rng = np.random.default_rng(7 * size)
    lds0 = rng.integers(0, 256, MEM, dtype=np.uint8)
    regs = rng.integers(0, 1 << 32, (2 * (size // 4), 64), dtype=np.uint32)
    addr = LANES * size
    dw = size // 4
    d0 = "v4" if dw == 1 else "v[4:5]"
    d1 = f"v{4 + dw}" if dw == 1 else f"v[{4 + dw}:{5 + dw}]"
    m = run_snippet(f"ds_write2st64_b{8 * size} v1, {d0}, {d1} offset0:{offsets[0]} "
                    f"offset1:{offsets[1]}\ns_waitcnt lgkmcnt(0)\ns_endpgm",
                    setup=_setup(lds0, addr, regs), lds_bytes=MEM)
    want = lds0.copy()
    for k, off in enumerate(offsets):
        data = np.ascontiguousarray(regs[k * dw:(k + 1) * dw].T).view(np.uint8)  # (64, size)
        for lane in LANES:
            s = addr[lane] + off * 64 * size
            want[s:s + size] = data[lane]
    assert np.array_equal(m.lds[0, :MEM], want)
