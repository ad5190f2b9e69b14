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
