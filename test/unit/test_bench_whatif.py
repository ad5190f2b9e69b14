"""benchmarks/bench_whatif.py: the main-loop edits it times (text only; the timing itself
is the simulator's, tested there)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"

LOOP = """\
.LBB0_5:                                ; =>This Inner Loop Header: Depth=1
\ts_waitcnt vmcnt(2) lgkmcnt(0)
\ts_barrier
\tv_mfma_f32_16x16x32_bf16 a[0:3], v[2:5], v[6:9], a[0:3]
\tbuffer_load_dwordx4 v9, s[12:15], s2 offen lds
\tv_mfma_f32_16x16x32_bf16 a[4:7], v[2:5], v[6:9], a[4:7]
\tbuffer_load_dword v17, s[20:23], s35 offen lds
\tv_mfma_f32_16x16x32_bf16 a[8:11], v[2:5], v[6:9], a[8:11]
\ts_barrier
\tv_mfma_f32_16x16x32_bf16 a[12:15], v[2:5], v[6:9], a[12:15]
\tv_mfma_f32_16x16x32_bf16 a[16:19], v[2:5], v[6:9], a[16:19]
\ts_add_u32 s2, s2, 0x80
\ts_addc_u32 s3, s3, 0
\tv_cmp_lt_u64_e32 vcc, s[2:3], v[0:1]
\ts_cbranch_vccnz .LBB0_5
\ts_endpgm
"""


@pytest.fixture(scope="module")
def whatif():
    sys.path.insert(0, str(BENCH))
    try:
        import bench_whatif
    finally:
        sys.path.remove(str(BENCH))
    return bench_whatif


def _body(asm: str) -> list[str]:
    return [line.strip() for line in asm.split("\n")[1:-2]]


def test_dword_dma_splits_each_x4_and_raises_the_wait(whatif):
    body = _body(whatif.edit_asm(LOOP, ["dword-dma"]))
    assert not any("dwordx4" in line for line in body)
    pieces = [k for k, line in enumerate(body) if line.startswith("buffer_load_dword v9")]
    assert len(pieces) == 4
    # the first where the x4 was, the others each after one of the next MFMAs
    assert all(body[k - 1].startswith("v_mfma") for k in pieces[1:])
    # vmcnt(2) left the last two loads in flight: the scale dword and the x4 before it,
    # now four pieces, so it becomes vmcnt(5)
    assert body[0] == "s_waitcnt vmcnt(5) lgkmcnt(0)"


def test_dword_dma_caps_the_wait_at_the_counter(whatif):
    many = LOOP.replace("vmcnt(2)", "vmcnt(40)")
    body = _body(whatif.edit_asm(many, ["dword-dma"]))
    assert body[0] == f"s_waitcnt vmcnt({whatif.VMCNT_MAX}) lgkmcnt(0)"


def test_early_loop_control_moves_only_the_counter(whatif):
    body = _body(whatif.edit_asm(LOOP, ["early-loop-control"]))
    mfmas = [k for k, line in enumerate(body) if line.startswith("v_mfma")]
    assert len(mfmas) == 5
    at = body.index("s_add_u32 s2, s2, 0x80")
    assert body[at:at + 3] == ["s_add_u32 s2, s2, 0x80", "s_addc_u32 s3, s3, 0",
                               "v_cmp_lt_u64_e32 vcc, s[2:3], v[0:1]"]
    assert body[at + 3].startswith("v_mfma_f32_16x16x32_bf16 a[4:7]")
    assert body[-1] == "s_cbranch_vccnz .LBB0_5"
    assert body.count("s_barrier") == 2


def test_half_barriers_drops_every_second(whatif):
    body = _body(whatif.edit_asm(LOOP, ["half-barriers"]))
    assert body.count("s_barrier") == 1 and body[1] == "s_barrier"


def test_no_loop_is_one_message(whatif):
    with pytest.raises(SystemExit, match="no inner loop"):
        whatif.edit_asm("f:\n\ts_endpgm\n", ["dword-dma"])


def test_unknown_edit_is_one_message():
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    r = subprocess.run([sys.executable, str(BENCH / "bench_whatif.py"), "4wave",
                        "--edits", "dword-dma,fewer-nops"], capture_output=True, text=True,
                       cwd=BENCH, env={**os.environ, "PYTHONPATH": path})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "unknown edit 'fewer-nops'" in r.stderr
