"""The MX kernels' scale waits are exact: in the main loop of the 4-wave 128x128 MXFP4 and
MXFP8 kernels the instruction each ``s_waitcnt`` is last to complete is a scale instruction
(a fragment load's ``ds_read_u8`` last among its LDS reads, a global load's scale DMA
``buffer_load_dword ... lds`` last among its DMAs), so every counter of every loop wait
weakened by one leaves a scale in flight.  The ISA check reports each such mutant (the wait
weakened, and the scale instruction it no longer completes) and the emulator catches it in
late and random modes: the scale read racing its DMA's LDS write, or the scaled MFMA reading
a scale register whose ``ds_read_u8`` is not waited for."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm

KEYS = ("4wave-mxfp4-128", "4wave-mxfp8-128")
#: the scale instruction a weakened wait of each counter leaves in flight
SCALE_OF = {"vmcnt": "buffer_load_dword", "lgkmcnt": "ds_read_u8"}


def _check(b, asm: str):
    return check_kernel_asm(parse_asm(asm).function(), b.plan, b.kernel.mfmas_per_mma)


def _run(b, asm: str, mode: str):
    """The emulator's finding on one workgroup over two loop iterations, or None (exact)."""
    g = b.kernel.geometry
    try:
        run = emulate_gemm(load_kernel(asm), b.kernel, 2 * g.BM, 2 * g.BN, 6 * g.BK, mode,
                           count=1)
    except Finding as e:
        return e
    assert run.exact, "a mutant the emulator finds wrong but not racy"
    return None


def _mutants(b):
    """(asm line, counter, mutated assembly) of each counter of each main-loop wait, one
    weaker."""
    lines = b.asm.split("\n")
    for ins in parse_asm(b.asm).function().main_loop_phases()["loop"]:
        if ins.mnemonic != "s_waitcnt":
            continue
        for counter in SCALE_OF:
            m = re.search(rf"{counter}\((\d+)\)", ins.text)
            if m:
                new = "\t" + ins.text.replace(m.group(0), f"{counter}({int(m.group(1)) + 1})")
                yield ins.line, counter, "\n".join(lines[:ins.line - 1] + [new] +
                                                   lines[ins.line:])


def _loop_kinds(res):
    return {(f.kind, f.lines) for f in res.findings if f.phase == "loop"}


@pytest.mark.parametrize("key", KEYS)
def test_the_kernel_is_exact_and_its_loop_waits_unreported(key):
    b = build(key)
    assert _run(b, b.asm, "late") is None
    assert not {k for k, _ in _loop_kinds(_check(b, b.asm))} & {"wait-weakened",
                                                                "wait-unpinned"}


def _left_in_flight(res, line: int) -> str:
    """The instruction the weakened wait at ``line`` no longer completes (the ISA check's
    wait-unpinned finding names it)."""
    (msg,) = [f.message for f in res.findings if f.kind == "wait-unpinned" and f.lines == (line,)]
    return re.search(r"but not (\S+) \(line", msg).group(1)


@pytest.mark.parametrize("key", KEYS)
def test_every_loop_wait_one_weaker_leaves_a_scale_in_flight_and_is_caught(key):
    b = build(key)
    seen = set()
    for line, counter, weak in _mutants(b):
        res = _check(b, weak)
        assert ("wait-weakened", (line,)) in _loop_kinds(res), (line, counter)
        assert _left_in_flight(res, line) == SCALE_OF[counter], (line, counter)
        found = _run(b, weak, "late")
        assert found is not None, (line, counter)
        if counter == "vmcnt":   # the scale read races its DMA's LDS write
            assert found.kind == "lds-race" and "'ds_read_u8" in str(found), str(found)
            assert re.search(r"write by wave \d+ at 0x\w+ 'buffer_load_dword ", str(found))
        else:                    # the scaled MFMA reads a scale still in flight
            assert found.kind == "pending-register", str(found)
            assert found.instr.text.startswith("v_mfma_scale") and "'ds_read_u8" in str(found)
        seen.add(counter)
    assert seen == set(SCALE_OF)


def test_the_random_memory_mode_catches_them_too():
    b = build("4wave-mxfp4-128")
    picked = {}
    for line, counter, weak in _mutants(b):
        picked.setdefault(counter, weak)
    for counter, weak in picked.items():
        found = _run(b, weak, "random")
        assert found is not None and found.kind in ("lds-race", "pending-register"), counter
