"""The MX kernels' element DMAs as dwords (``KernelGeometry.dma_pieces``): when a kernel
splits its 16-byte copies, that the pieces fetch exactly the copy's bytes (the emulator,
and a mutant whose pieces miss their lane's byte), and the 4-wave prologue's counter
guard that the extra DMA instructions need."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from kernel_builds import build, pipeline_opt_hsaco
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.kernel import dword_dma
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir
from pipeline_mlir.schedule.phases import _counter_guard
from pipeline_mlir.schedule.types import WAIT_VM, OpRole
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate

FP4_256 = "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}"
FP8_256 = "4wave{dtype=mxfp8 BM=256 BN=256 BK=128}"
FP4_128 = "4wave{dtype=mxfp4 BM=128 BN=128 BK=256}"


def geometry(spec: str):
    return parse_pipeline(spec).kernel_geometry()


def test_the_mxfp4_256_kernel_splits_its_copies_and_counts_the_pieces():
    g = geometry(FP4_256)
    # a half tile of 128 rows x 64 bytes: 2 copies a lane, 4 dwords each, + 1 scale DMA
    assert (g.dma_pieces, g.element_copies(0), g.element_copies(1)) == (4, 2, 2)
    assert (g.vm_per_load_a, g.vm_per_load_b) == (9, 9)
    shape = gemm_kernel(parse_pipeline(FP4_256)).shape
    assert {shape.element_dma(ch, j) for ch in (0, 1) for j in range(9)} == \
        {"buffer_load_dword"}


@pytest.mark.parametrize("spec", [FP8_256, FP4_128, "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}",
                                  "4wave{dtype=fp8 BM=256 BN=256 BK=128}"])
def test_the_other_kernels_keep_16_byte_copies(spec):
    g = geometry(spec)
    assert g.dma_pieces == 1
    shape = gemm_kernel(parse_pipeline(spec)).shape
    assert shape.element_dma(0, 0) == "buffer_load_dwordx4"


def test_the_kernel_text_and_assembly_copy_with_dwords_only():
    text = mx_kernel_mlir(gemm_kernel(parse_pipeline(FP4_256)))
    gathers = re.findall(r"amdgpu\.gather_to_lds .*: (vector<\d+xi8>)", text)
    assert gathers and set(gathers) == {"vector<4xi8>"}
    loop = build("4wave-mxfp4-256").asm.split("Inner Loop Header")[1].split("s_cbranch")[0]
    assert loop.count("buffer_load_dword ") == 8 * 9 and "buffer_load_dwordx4" not in loop


def test_a_piece_that_misses_its_lanes_byte_is_inexact(monkeypatch):
    """The mutant: every lane of a piece fetches the first dword of its copy lane's 16
    bytes (no ``4 (l % 4)``), so three of four dwords land wrong."""
    monkeypatch.setattr(dword_dma, "piece_elements", lambda g: 0)
    gemm = gemm_kernel(parse_pipeline(FP4_256))
    hsaco = pipeline_opt_hsaco(FP4_256, mx_kernel_mlir(gemm))
    run = emulate_gemm(load_kernel(hsaco), gemm, 256, 256, 512, "late", 4)
    assert not run.exact


def _vm_overflows(schedule, shape) -> list:
    """The simulator's vmcnt overflows (the lgkmcnt ones are the hazard fixes' to guard)."""
    return [h for r in simulate(schedule, shape).runs for h in r.hazards
            if (h.kind, h.counter) == ("counter", "vmcnt")]


def _prologue(spec: str):
    return gemm_kernel(parse_pipeline(spec)).schedule.compile()


def test_the_prologue_keeps_vmcnt_within_its_counter():
    s = _prologue(FP4_256)
    ops = [e.op for e in s.prologue]
    # (element loads: each scale channel's load follows its element load, one unit)
    loads = [i for i, o in enumerate(ops) if o.role == OpRole.GLOBAL_LOAD and o.channel < 2]
    # 8 loads of 9: a wait completing the first before the eighth (7 x 9 - 9 left)
    assert ops[loads[-1] - 1].tag == WAIT_VM and ops[loads[-1] - 1].wait_value == 54
    # and no bootstrap wait for what it completed (vmcnt(63): a no-op LLVM drops)
    assert 63 not in [o.wait_value for o in ops if o.tag == WAIT_VM]
    shape = gemm_kernel(parse_pipeline(FP4_256)).shape
    assert not _vm_overflows(s, shape)


def test_without_the_guard_more_dmas_are_in_flight_than_vmcnt_holds():
    s = _prologue(FP4_256)
    pro = list(s.prologue)
    k = next(i for i, e in enumerate(pro) if e.op.tag == WAIT_VM)
    mutant = replace(s, prologue=pro[:k] + pro[k + 1:])
    shape = gemm_kernel(parse_pipeline(FP4_256)).shape
    # 8 loads of 9 DMAs before the first wait: 72, over the 63 vmcnt holds
    before = [e.op for e in mutant.prologue[:next(
        i for i, e in enumerate(mutant.prologue) if e.op.tag == WAIT_VM)]]
    assert sum(shape.vm_per_load[o.channel] for o in before
               if o.role == OpRole.GLOBAL_LOAD) == 72
    # on gfx950 the 64th stalls the wave until the oldest completes (the simulator's model,
    # target.gfx950.IN_FLIGHT): no hazard, the guard is what keeps the derived waits
    # encodable and the prologue free of a stall the schedule did not place
    assert not _vm_overflows(mutant, shape)


def test_the_guard_completes_whole_loads_and_not_a_load_over_the_counter():
    flight = [9] * 7
    (wait,) = _counter_guard(flight, 9)
    assert wait.wait_value == 54 and flight == [9] * 7
    flight = [9] * 6
    assert _counter_guard(flight, 9) == [] and flight == [9] * 7
    flight = [30, 30]
    (wait,) = _counter_guard(flight, 20)       # 80: the first whole load completes
    assert wait.wait_value == 30 and flight == [30, 20]
    flight = [8]
    assert _counter_guard(flight, 64) == []    # alone over the counter: the lowering refuses
