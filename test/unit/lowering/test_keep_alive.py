"""Every accumulator the pipelined loop computes is computed in the code, stored or not
(``pipeline_mlir/lowering/keep_alive.py``): IREE's committed bf16 kernel at its prefetch
point with one row of its accumulators left unstored (the store takes another row's tile in
their place: a defined kernel) keeps all its MFMAs and the fragment reads they use, so the
waits the schedule counts over them still cover what they were counted for.

The same asm pins a loop's results before the guard ``sched-xdl-guard`` puts after it, in
the registers the kernel keeps its accumulators in (finding 104): a hand-written loop of
16-pass MFMAs whose accumulator a kernel keeps in AGPRs (``inputs/xdl_agpr_kernel.mlir``)
is pinned in AGPRs, and LLVM copies none of it out of them; pinned in VGPRs (the kernel's
mark not read), it copies each of its 16 registers, a ``v_accvgpr_read`` dead after the
asm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from build_cache import ENV as BUILD_CACHE_ENV
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.lowering import keep_alive, xdl_window

ROOT = Path(__file__).parents[3]
KERNEL = ROOT / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"
INPUTS = ROOT / "test/unit/inputs"
#: the guard's pin in LLVM IR: its constraints
PIN = re.compile(r'call void asm sideeffect "", "([av,]+)"')
#: the epilogue's inserts of the first row of accumulators (%47..%50) into C's tile
ROW = re.compile(r"^( *%6[3-6] = vector\.insert_strided_slice) %(47|48|49|50),", re.M)


def unstored_row(text: str) -> str:
    """``text`` with the first row of accumulators replaced, in the stored tile, by %51."""
    out, n = ROW.subn(r"\1 %51,", text)
    assert n == 4, "the committed kernel's epilogue changed: update ROW"
    return out


def test_unstored_accumulators_keep_their_mfmas():
    result = compile(CompileOptions(schedule="4wave", text=unstored_row(KERNEL.read_text()),
                                    emit="asm", stages=("mlir",)))
    asm, lowered = result.checked_output(), result.stages["mlir"]
    if isinstance(asm, bytes):
        asm = asm.decode()
    emitted = len(re.findall(r"\bamdgpu\.mfma\b", lowered))
    issued = len(re.findall(r"^\s+v_mfma_", asm, re.M))
    assert emitted > 0 and issued == emitted
    # the keep-alive issues nothing: an empty asm (LLVM's comments around it, no instruction)
    body = re.search(r";;#ASMSTART\n(.*?);;#ASMEND", asm, re.S)
    assert body is not None and body.group(1).strip() == ""


def _built(name: str, emit: str) -> str:
    result = compile(CompileOptions(input=str(INPUTS / name), emit=emit))
    out = result.checked_output()
    return out.decode() if isinstance(out, bytes) else out


def test_a_kernel_keeping_its_accumulators_in_agprs_pins_them_there():
    assert PIN.findall(_built("xdl_agpr_kernel.mlir", "llvm")) == ["a"]
    asm = _built("xdl_agpr_kernel.mlir", "asm")
    assert len(re.findall(r"^\s+v_mfma_\w+ a\[0:15\]", asm, re.M)) == 2
    assert "v_accvgpr_read" not in asm


def test_pinned_in_vgprs_the_accumulators_are_copied_out_of_their_agprs(monkeypatch):
    """The kernel's mark not read (the pin in VGPRs, as before finding 104): LLVM copies
    every accumulator register to a VGPR for the asm alone."""
    monkeypatch.delenv(BUILD_CACHE_ENV, raising=False)
    monkeypatch.setattr(xdl_window, "in_agpr_kernel", lambda op: False)
    asm = _built("xdl_agpr_kernel.mlir", "asm")
    assert len(re.findall(r"^\s+v_accvgpr_read_b32 v\d+, a\d+$", asm, re.M)) == 16


def test_a_kernel_keeping_its_accumulators_in_vgprs_pins_them_there():
    assert PIN.findall(_built("xdl_exit_kernel.mlir", "llvm")) == ["v"]


@pytest.mark.parametrize("attrs, agprs", [
    ("{sched.agpr_alloc = 16 : i32}", True),
    ('{passthrough = [["amdgpu-agpr-alloc", "16"]]}', True),
    ('{passthrough = [["amdgpu-agpr-alloc", "0"]]}', False),
    ('{passthrough = ["nounwind", ["amdgpu-waves-per-eu", "1"]]}', False),
    ("{}", False)])
def test_the_kernels_mark_says_where_its_accumulators_are(attrs, agprs):
    with new_context():
        module = ir.Module.parse(f"llvm.func @k() attributes {attrs} {{\n  llvm.return\n}}")
        ret = module.body.operations[0].regions[0].blocks[0].operations[0]
        assert keep_alive.in_agpr_kernel(ret) is agprs
