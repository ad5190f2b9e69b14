"""The ISA check's rule on a wave's own LDS order (``pipeline_mlir/isa/lds_waits.py``,
``lds-wait-short``): each wait of the assembly, recounted in the instructions LLVM emitted,
completes the wave's LDS accesses its later accesses of the other counter touch.

IREE's one-wave f32 ``A^T x B`` 1039x8x68 (finding 91 of ``docs/iree-audits.md``): LLVM merges
each fragment load's two reads into one ``ds_read2st64_b32``, and ``sched-lower-to-rocdl``
lowers the wait after the first two loads to ``lgkmcnt(1)``; put back to the ``lgkmcnt(2)``
the schedule derived in its own units, the next DMA overwrites the LDS the older read still
reads (the emulator's ``lds-race``).  Every rule of the check that reads the assembly alone
passed that assembly before this one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernel_builds import build, built_input
from pipeline_mlir.driver.diagnostics import Failure
from pipeline_mlir.driver.isa_gate import check_built
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_without_schedule
from pipeline_mlir.isa.lds_ranges import lds_accesses
from pipeline_mlir.isa.lds_waits import lds_wait_shorts

K68 = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / "iree-f32-atb-1039x8x68.late.mlir"
LOWERED = "s_waitcnt vmcnt(8) lgkmcnt(1)"


def _shorts(asm: str):
    fn = parse_asm(asm).function()
    return lds_wait_shorts(fn, lds_accesses(fn))


def _kinds(asm: str) -> set[str]:
    return {f.kind for f in check_without_schedule(parse_asm(asm).function(), True)}


@pytest.fixture(scope="module")
def k68():
    return built_input("4wave", K68)


def _put_back(asm: str) -> tuple[str, int]:
    """``asm`` with its first lowered wait put back to ``lgkmcnt(2)``, and that wait's line."""
    lines = asm.split("\n")
    n = next(k for k, text in enumerate(lines) if text.strip() == LOWERED)
    lines[n] = lines[n].replace("lgkmcnt(1)", "lgkmcnt(2)")
    return "\n".join(lines), n + 1


def test_the_merged_reads_wait_put_back_is_caught(k68):
    """The build as lowered holds no finding; the wait put back to the schedule's count is
    one ``lds-wait-short`` at that wait (the need recounted: ``lgkmcnt(1)``), a read of the
    merged form left in flight at a DMA, and the only finding of the assembly rules."""
    assert _shorts(k68.asm) == [] and "lds-wait-short" not in _kinds(k68.asm)
    bad, line = _put_back(k68.asm)
    (s,) = _shorts(bad)
    assert s.lines()[0] == line and s.waits[0][1] == 1 and s.counter == "lgkmcnt", s.message()
    assert s.pending.mnemonic.startswith("ds_read2") and s.access.kind == "vmem_load_lds"
    assert f"(line {line}) leaves" in s.message() and "lgkmcnt(1) at line" in s.message()
    assert _kinds(bad) == {"lds-wait-short"}


def test_the_gate_refuses_the_put_back_wait_at_its_line(k68):
    """A code build of that assembly is refused, the error naming the wait's line."""
    bad, line = _put_back(k68.asm)
    check_built(k68.asm, [k68.plan], k68.ll, None, "k.mlir")
    with pytest.raises(Failure) as e:
        check_built(bad, [k68.plan], k68.ll, None, "k.mlir")
    found = [d.message for d in e.value.diags if "lds-wait-short" in d.message]
    assert found and f"(line {line})" in found[0], [d.message for d in e.value.diags]


def _raised(asm: str, line: int, counter: str) -> str:
    lines = asm.split("\n")
    lines[line - 1] = re.sub(counter + r"\((\d+)\)",
                             lambda m: f"{counter}({int(m.group(1)) + 1})", lines[line - 1])
    return "\n".join(lines)


@pytest.mark.parametrize("counter", ["lgkmcnt", "vmcnt"])
def test_a_shipped_kernels_weakened_loop_wait_is_caught(counter):
    """The 4-wave BF16 kernel as built holds no finding; each wait of its main loop with
    ``counter`` raised by one that leaves a wave's read in flight at its own DMA of the
    same bytes (``lgkmcnt``), or its DMA in flight at its own read (``vmcnt``), is caught
    at that wait, and some are."""
    asm = build("4wave-bf16").asm
    assert _shorts(asm) == []
    fn = parse_asm(asm).function()
    field = counter[:-3] if counter == "vmcnt" else "lgkm"
    waits = [i.line for b in fn.main_loop() for i in b.instrs
             if i.kind == "wait" and getattr(i, field) is not None]
    caught = 0
    for line in waits:
        found = [s for s in _shorts(_raised(asm, line, counter)) if s.counter == counter]
        assert all(line in s.lines() for s in found), (line, [s.message() for s in found])
        caught += bool(found)
    assert caught, waits


@pytest.mark.parametrize("key", ["pingpong-bf16", "4wave-fp8-256"])
def test_shipped_kernels_pass(key):
    """No finding on the shipped kernels as built (the ping-pong groups of waves, the
    one-wave-per-SIMD 256x256 FP8 kernel)."""
    assert _shorts(build(key).asm) == []


#: each thread reads, and its wave's DMA writes, the thread's own 16 bytes (M0: the wave's
#: first thread id x 16)
_M0 = "\tv_readfirstlane_b32 s4, v0\n\ts_lshl_b32 s4, s4, 4\n\ts_mov_b32 m0, s4\n"
_READ = "\tv_lshlrev_b32_e32 v1, 4, v0\n\tds_read_b128 v[8:11], v1\n"
_DMA = "\tbuffer_load_dwordx4 v9, s[0:3], 0 offen lds\n"


@pytest.mark.parametrize("body, found", [
    (_M0 + _READ + _DMA, "no s_waitcnt lgkmcnt between"),     # the read still reading
    (_M0 + _READ + "\ts_waitcnt lgkmcnt(0)\n" + _DMA, None),   # completed first
    # lgkmcnt(1) completes all but the last read: the first, not the second
    (_M0 + _READ + "\tds_read_b32 v12, v1 offset:4096\n\ts_waitcnt lgkmcnt(1)\n" + _DMA,
     None),
    (_M0 + "\tv_lshlrev_b32_e32 v1, 4, v0\n\tds_read_b32 v12, v1 offset:4096\n"
     "\tds_read_b128 v[8:11], v1\n\ts_waitcnt lgkmcnt(1)\n" + _DMA, "lgkmcnt(0) at line"),
    (_M0 + _DMA + _READ, "no s_waitcnt vmcnt between"),        # reads what is not written
    (_M0 + _DMA + "\ts_waitcnt vmcnt(0)\n" + _READ, None),
    (_M0 + _READ + "\tds_read_b128 v[12:15], v1\n", None),      # two reads: no write
    (_M0 + "\tv_lshlrev_b32_e32 v1, 4, v0\n\tv_add_u32_e32 v1, 0x800, v1\n"
     "\tds_read_b128 v[8:11], v1\n" + _DMA, None),            # other bytes
])
def test_a_waves_own_accesses_of_one_byte_on_two_counters(body, found):
    """Hand-written, two waves: a read and the wave's own DMA of its bytes (either order)
    need a wait of the earlier one's counter between them; the same counter, or other
    bytes, need none."""
    fn = parse_asm(f"kernel:\n{body}\ts_endpgm\n").function()
    fn.threads = 128
    shorts = [s.message() for s in lds_wait_shorts(fn, lds_accesses(fn))]
    assert bool(shorts) == bool(found) and all(found in m for m in shorts), shorts


def test_a_ping_pong_read_left_in_flight_at_a_barrier_is_caught():
    """The ping-pong BF16 kernel's first loop wait ``lgkmcnt(8)`` raised by one leaves a
    read in flight at the barrier after it, whose bytes the other group's DMA, one barrier
    ahead, overwrites (an ``lds-race`` on the emulator, ``--emulate=512,256,512`` late, 2
    workgroups): this rule reads one wave's path and passes it; the LDS rule, which now
    carries the reads in flight at a barrier into the interval after it, refuses it."""
    asm = build("pingpong-bf16").asm
    fn = parse_asm(asm).function()
    line = next(i.line for b in fn.main_loop() for i in b.instrs
                if i.kind == "wait" and i.text.strip() == "s_waitcnt lgkmcnt(8)")
    assert "lds-race" not in _kinds(asm)
    bad = _raised(asm, line, "lgkmcnt")
    found = [f for f in check_without_schedule(parse_asm(bad).function(), True)
             if f.kind == "lds-race"]
    assert found and "s_waitcnt lgkmcnt before the barrier" in found[0].message, found
