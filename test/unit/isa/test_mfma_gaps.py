"""The ISA check's MFMA wait-state rule (``pipeline_mlir/isa/mfma_gaps.py``, findings
``wait-states``): a VALU, vector-memory or LDS instruction touching an MFMA's result, or
overwriting its C, before the wait states gfx950 needs, on any path.  Hand-written assembly
for each part; the ping-pong kernel's epilogue waits deleted: ``test_isa_gate.py``."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.mfma_gaps import mfma_gaps

#: a 16x16x32 BF16 MFMA: 4 passes on the XDL unit (8 wait states before a VALU touches D,
#: 3 before one overwrites its C)
MFMA = "\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[12:15]\n"


def _gaps(body: str) -> list[tuple]:
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    return [(g.reader.line, g.register, g.issued, g.need, g.war) for g in mfma_gaps(fn)]


@pytest.mark.parametrize("between, reader, gap", [
    ("", "\tv_mov_b32_e32 v20, v1\n", (3, "v1", 0, 8, False)),           # reads D
    ("\ts_nop 6\n", "\tv_mov_b32_e32 v1, 0\n", (4, "v1", 7, 8, False)),   # writes D, 7 < 8
    ("\ts_nop 7\n", "\tv_mov_b32_e32 v20, v1\n", None),                   # 8 wait states
    ("\ts_waitcnt lgkmcnt(0)\n\ts_nop 6\n", "\tv_mov_b32_e32 v20, v1\n", None),  # a wait: 1
    ("\t; sched_barrier mask(0x00000000)\n\ts_nop 6\n", "\tv_mov_b32_e32 v20, v1\n",
     (5, "v1", 7, 8, False)),                                             # a fence: none
    ("", "\tglobal_store_dword v[30:31], v2, off\n", (3, "v2", 0, 8, False)),   # store data
    ("\ts_nop 1\n", "\tv_mov_b32_e32 v13, 0\n", (4, "v13", 2, 3, True)),  # C overwritten
    ("\ts_nop 2\n", "\tv_mov_b32_e32 v13, 0\n", None),                    # ... after 3
    ("\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[16:19]\n\ts_nop 7\n",
     "\tv_mov_b32_e32 v20, v1\n", None),    # a later MFMA's D: the first's hold ends there
])
def test_an_mfma_result_needs_its_wait_states(between, reader, gap):
    assert _gaps(MFMA + between + reader) == ([gap] if gap else [])


#: a 4x4x4 F16 MFMA: 2 passes on the XDL unit, 5 wait states before a VALU touches D (not
#: passes + 4: LLVM's gfx950 count, target/gfx950.d_wait_states), 1 before C is overwritten
MFMA4 = "\tv_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[8:9], v[12:15]\n"


@pytest.mark.parametrize("between, reader, gap", [
    ("\ts_nop 3\n", "\tv_mov_b32_e32 v20, v1\n", (4, "v1", 4, 5, False)),
    ("\ts_nop 4\n", "\tv_mov_b32_e32 v20, v1\n", None),
    ("", "\tv_mov_b32_e32 v13, 0\n", (3, "v13", 0, 1, True)),
    ("\ts_nop 0\n", "\tv_mov_b32_e32 v13, 0\n", None),
])
def test_a_two_pass_mfma_needs_one_less(between, reader, gap):
    assert _gaps(MFMA4 + between + reader) == ([gap] if gap else [])


def test_the_gap_is_held_on_every_path():
    """A branch around an ``s_nop``: the path that skips it is too short."""
    body = MFMA + "\ts_cbranch_scc1 .LBB0_2\n\ts_nop 7\n.LBB0_2:\n\tv_mov_b32_e32 v20, v1\n"
    assert _gaps(body) == [(6, "v1", 1, 8, False)]
    assert _gaps(body.replace("\ts_cbranch_scc1 .LBB0_2\n", "")) == []
