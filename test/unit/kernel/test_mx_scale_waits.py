"""The MX kernels' scale waits are exact: in the main loop of the 4-wave 128x128 MXFP4 and
MXFP8 kernels the instruction each ``s_waitcnt`` is last to complete is a scale instruction
(a fragment load's ``ds_read_u8`` last among its LDS reads, a global load's scale DMA
``buffer_load_dword ... lds`` last among its DMAs), so every counter of every loop wait
weakened by one leaves a scale in flight.  The ISA check reports each such mutant (the wait
weakened, and the scale instruction it no longer completes) and the emulator catches it in
late and random modes: the scale read racing its DMA's LDS write, or the scaled MFMA reading
a scale register whose ``ds_read_u8`` is not waited for.  On the schedule, the simulator
reports each weakened wait that orders LDS (a read-after-write or write-after-read of a
slot) and names the scale op (the scale channels' ``LOAD_SA/SB`` and ``MMA_LOAD_SA/SB``) it
leaves in flight."""

from __future__ import annotations

import copy
import re

import pytest

from kernel_builds import build
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.types import WAIT_LGKM, WAIT_VM, OpRole
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.repair import repair
from pipeline_mlir.sim.trace import kernel_shape, role_of
from steady_loop import assert_steady, counting_loops

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
    with counting_loops() as loops:
        assert _run(b, b.asm, "late") is None
    assert_steady(loops)        # 6 K tiles: the main loop twice
    assert not {k for k, _ in _loop_kinds(_check(b, b.asm))} & {"wait-weakened",
                                                                "wait-unpinned", "wait-short"}


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


# -- the schedule on the simulator -----------------------------------------------------------

SIM_SPECS = ("4wave{dtype=mxfp4 BM=128 BN=128 BK=128}", "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}",
             "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}", "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}")
#: what a weakened wait of each counter leaves in flight, as the simulator names it: the
#: scale channels' ops (a scale read of channel 2 or 3 racing its scale DMA's write, or a
#: scale DMA overwriting a slot a scale read may still be reading)
SIM_SCALE = {WAIT_VM: r"MMA_LOAD_S[AB] s=\d sub=\d reads LDS [AB] scale .* written by "
                      r"LOAD_S[AB] s=\d sub=\d ",
             WAIT_LGKM: r"MMA_LOAD_S[AB] s=\d sub=\d reads LDS [AB] scale .*; LOAD_S[AB] "
                        r"s=\d sub=\d .* may overwrite the slot"}
SIM_ROLE = {WAIT_VM: OpRole.GLOBAL_LOAD, WAIT_LGKM: OpRole.FRAGMENT_LOAD}


def _repaired(spec: str):
    schedule = gemm_kernel(parse_pipeline(spec)).schedule
    shape = kernel_shape(schedule)
    return repair(schedule.compile(), shape, range(0, 3)), shape


def _sim_weakened(fixed, i: int):
    weak = copy.copy(fixed)
    weak.kernel = list(fixed.kernel)
    e = weak.kernel[i]
    weak.kernel[i] = replace(e, op=replace(e.op, wait_value=e.op.wait_value + 1))
    return weak


def _duplicate(kernel, i: int) -> bool:
    """Whether the wait at ``i`` has a twin: a wait of its counter, as strong, next to it
    (before or after) with no load that counter counts between them."""
    tag, role = kernel[i].op.tag, SIM_ROLE[kernel[i].op.tag]
    for side in (kernel[i + 1:], kernel[i - 1::-1] if i else []):
        for e in side:
            if e.op.tag == tag:
                if e.op.wait_value <= kernel[i].op.wait_value:
                    return True
                break
            if role_of(e.op) == role:
                break
    return False


@pytest.mark.parametrize("spec", SIM_SPECS)
def test_the_simulator_names_the_scale_a_weakened_wait_leaves_in_flight(spec):
    fixed, shape = _repaired(spec)
    its = range(0, 3)
    base = simulate(fixed, shape, its)
    assert base.safe
    named = {WAIT_VM: 0, WAIT_LGKM: 0}
    for i, e in enumerate(fixed.kernel):
        if e.op.tag not in SIM_SCALE:
            continue
        run = simulate(_sim_weakened(fixed, i), shape, its)
        found = [h for h, _ in run.distinct_hazards()]
        lds = [h for h in found if h.kind in ("raw", "war")]
        if lds:      # an LDS order the wait kept: the scale op it leaves is named
            assert all(re.search(SIM_SCALE[e.op.tag], h.message) for h in lds), \
                [h.message for h in lds]
            named[e.op.tag] += 1
        elif not found:
            # registers only (LLVM waits for them itself: an implicit wait), or a duplicate
            more = len(run.distinct_implicit_waits()) > len(base.distinct_implicit_waits())
            assert (e.op.tag == WAIT_LGKM and more) or _duplicate(fixed.kernel, i), i
        else:        # a fragment load's guard wait: its counter overflows
            assert {h.kind for h in found} == {"counter"}, [h.message for h in found]
    assert min(named.values()) >= 3, named


def test_a_kernel_without_scales_gets_no_scale_in_its_messages():
    fixed, shape = _repaired("4wave{dtype=fp8 BM=128 BN=128 BK=128}")
    i = next(i for i, e in enumerate(fixed.kernel) if e.op.tag == WAIT_VM)
    found = [h for h, _ in simulate(_sim_weakened(fixed, i), shape, range(0, 3))
             .distinct_hazards()]
    assert found and not any("scale" in h.message for h in found)
