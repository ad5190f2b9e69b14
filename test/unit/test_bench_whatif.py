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


# two blocks of a ping-pong-like loop: load, MMA, load, MMA (each ends at a barrier)
PINGPONG_LOOP = """\
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
\tds_read_b128 v[10:13], v1
\tds_read_b128 v[20:23], v2
\tds_read_b128 v[24:27], v2 offset:64
\tbuffer_load_dwordx4 v30, s[12:15], s2 offen lds
\tbuffer_load_dwordx4 v31, s[12:15], s2 offen lds
\ts_waitcnt lgkmcnt(2)
\ts_barrier
\ts_waitcnt lgkmcnt(1)
\tv_mfma_f32_16x16x128_f8f6f4 v[0:3], v[20:27], v[10:17], v[0:3]
\ts_waitcnt lgkmcnt(0)
\tv_mfma_f32_16x16x128_f8f6f4 v[4:7], v[24:31], v[10:17], v[4:7]
\ts_barrier
\ts_waitcnt vmcnt(1)
\tbuffer_load_dwordx4 v32, s[16:19], s2 offen lds
\ts_barrier
\tv_mfma_f32_16x16x128_f8f6f4 v[40:43], v[50:57], v[60:67], v[40:43]
\tv_mfma_f32_16x16x128_f8f6f4 v[44:47], v[50:57], v[60:67], v[44:47]
\ts_waitcnt lgkmcnt(3)
\tv_mfma_f32_16x16x128_f8f6f4 v[48:51], v[50:57], v[60:67], v[48:51]
\ts_barrier
\ts_cbranch_vccnz .LBB0_1
\ts_endpgm
"""


def test_frags_ahead_moves_the_reads_the_barrier_wait_completes(whatif):
    body = _body(whatif.edit_asm(PINGPONG_LOOP, ["frags-ahead"]))
    # lgkmcnt(2) of three reads completed the first one (v[10:13]): it leaves its block
    first_barrier = body.index("s_barrier")
    assert "ds_read_b128 v[10:13], v1" not in body[:first_barrier]
    # ... for the previous MMA run (the loop's last: it serves the next iteration),
    # after that run's second MFMA, and the run's later lgkm wait counts it
    at = body.index("ds_read_b128 v[10:13], v1")
    assert body[at - 1].startswith("v_mfma_f32_16x16x128_f8f6f4 v[44:47]")
    assert body[at + 1] == "s_waitcnt lgkmcnt(4)"
    # the block's own waits are unchanged: lgkmcnt(2) now completes the moved read
    assert body[first_barrier - 2:first_barrier] == ["s_waitcnt lgkmcnt(2)",
                                                   "s_waitcnt vmcnt(1)"]
    assert body.count("ds_read_b128 v[10:13], v1") == 1
    assert len(body) == len(_body(PINGPONG_LOOP)) + 1


def test_frags_ahead_guard_completes_what_the_later_wait_did(whatif):
    # (the test above: vmcnt(1) there completes v30, one DMA (v31) after it: vmcnt(1));
    # vmcnt(0) completes v31 too, the last DMA before the first block's barrier
    loop = PINGPONG_LOOP.replace("\ts_waitcnt vmcnt(1)\n", "\ts_waitcnt vmcnt(0)\n")
    body = _body(whatif.edit_asm(loop, ["frags-ahead"]))
    first_barrier = body.index("s_barrier")
    assert body[first_barrier - 1] == "s_waitcnt vmcnt(0)"


def test_frags_ahead_refuses_registers_in_use(whatif):
    clash = PINGPONG_LOOP.replace("v[60:67], v[40:43]", "v[8:15], v[40:43]")
    with pytest.raises(ValueError, match="registers are in use"):
        whatif.edit_asm(clash, ["frags-ahead"])


def test_frags_ahead_needs_a_vm_wait_to_move_up(whatif):
    with pytest.raises(ValueError, match="no vmcnt wait"):
        whatif.edit_asm(PINGPONG_LOOP.replace("\ts_waitcnt vmcnt(1)\n", ""),
                        ["frags-ahead"])


def test_frags_ahead_leaves_a_loop_without_counted_block_waits(whatif):
    plain = PINGPONG_LOOP.replace("\ts_waitcnt lgkmcnt(2)\n", "\ts_waitcnt lgkmcnt(0)\n")
    assert whatif.edit_asm(plain, ["frags-ahead"]) == plain


def _frags_ahead_fp8_kernel(whatif) -> str:
    from kernel_builds import EXTRA_SPECS, build

    # the edit is of the reference form; the kernel's ``--emit=asm`` output is the run's
    # build of it (the same compilation, made once per run: test_isa_wait_order.py)
    assert EXTRA_SPECS["pingpong-fp8-none"] == "pingpong{is_fp8=true frags_ahead=none}"
    return whatif.frags_ahead_kernel(build("pingpong-fp8-none").asm, whatif.loop_span)


def _emulate(text: str, mode: str, seed: int = 0):
    from pipeline_mlir.emu.asmtext import kernels_from_asm
    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import parse_pipeline

    gemm = gemm_kernel(parse_pipeline("pingpong{is_fp8=true}"))
    return emulate_gemm(kernels_from_asm(text)[gemm.name], gemm, 256, 256, 1024, mode, seed)


def test_frags_ahead_kernel_is_exact_and_its_guard_needed(whatif):
    """The edited ping-pong FP8 loop, made a kernel, runs exact in the emulator (late and
    random modes); without the vmcnt guards the emulator finds the other warp group's DMA
    racing the moved reads."""
    from pipeline_mlir.emu.errors import Finding

    text = _frags_ahead_fp8_kernel(whatif)
    assert _emulate(text, "late").exact and _emulate(text, "random", 5).exact
    guards = [line for line in text.split("\n") if line == "\ts_waitcnt vmcnt(4)"]
    assert len(guards) == 2
    unguarded = "\n".join(line for line in text.split("\n") if line != "\ts_waitcnt vmcnt(4)")
    with pytest.raises(Finding, match="lds-race"):
        _emulate(unguarded, "late")


def test_kernel_out_needs_frags_ahead_alone():
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    r = subprocess.run([sys.executable, str(BENCH / "bench_whatif.py"), "pingpong",
                        "--edits", "dword-dma", "--kernel-out", os.devnull],
                       capture_output=True, text=True, cwd=BENCH,
                       env={**os.environ, "PYTHONPATH": path})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "--kernel-out: only with --edits frags-ahead alone" in r.stderr


# an MX-like loop: element and scale reads, a wait between them, one reaching back a loop
MX_LOOP = """\
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
\ts_waitcnt lgkmcnt(3)
\tds_read_b128 v[10:13], v1
\tds_read_u8 v20, v2
\tds_read_b128 v[14:17], v1 offset:64
\tds_read_u8 v21, v2 offset:8
\ts_waitcnt lgkmcnt(1)
\tv_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[10:17], v[10:17], a[0:3], v20, v21
\tbuffer_load_dwordx4 v9, s[12:15], s2 offen lds
\tbuffer_load_dword v18, s[20:23], s35 offen lds
\ts_waitcnt vmcnt(1) lgkmcnt(0)
\ts_barrier
\ts_cbranch_vccnz .LBB0_2
\ts_endpgm
"""


def test_no_scale_reads_drops_them_and_lowers_the_waits(whatif):
    body = _body(whatif.edit_asm(MX_LOOP, ["no-scale-reads"]))
    assert not any(line.startswith("ds_read_u8") for line in body)
    assert sum(line.startswith("ds_read_b128") for line in body) == 2
    # lgkmcnt(3) at the top left the previous iteration's last three in flight (b128, u8,
    # b128 from the end: u8 v21 is youngest): two of them were scale reads
    assert body[0] == "s_waitcnt lgkmcnt(1)"
    # lgkmcnt(1) left u8 v21 in flight: nothing of the others, so lgkmcnt(0)
    assert body[3] == "s_waitcnt lgkmcnt(0)"
    # the vm counter is not touched
    assert body[7] == "s_waitcnt vmcnt(1) lgkmcnt(0)"


def test_no_scale_dmas_drops_the_dwords_and_lowers_vmcnt(whatif):
    body = _body(whatif.edit_asm(MX_LOOP, ["no-scale-dmas"]))
    assert [line.split()[0] for line in body if line.startswith("buffer_")] == \
        ["buffer_load_dwordx4"]
    assert body[8] == "s_waitcnt vmcnt(0) lgkmcnt(0)"
    assert body[0] == "s_waitcnt lgkmcnt(3)"
    # a wait reaching back past the loop's own vm instructions counts earlier iterations
    body = _body(whatif.edit_asm(MX_LOOP.replace("vmcnt(1)", "vmcnt(3)"), ["no-scale-dmas"]))
    assert body[8] == "s_waitcnt vmcnt(1) lgkmcnt(0)"


def test_no_scale_dmas_refuses_a_loop_of_dword_element_dmas(whatif):
    dwords = MX_LOOP.replace("buffer_load_dwordx4", "buffer_load_dword")
    with pytest.raises(SystemExit, match="cannot be told apart"):
        whatif.edit_asm(dwords, ["no-scale-dmas"])
