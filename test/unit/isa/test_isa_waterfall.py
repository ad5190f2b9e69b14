"""The ISA check's waterfall finding (pipeline_mlir/isa/waterfall.py): a memory instruction
LLVM wrapped in a ``v_readfirstlane`` / ``s_and_saveexec`` / ``s_cbranch_execnz`` loop
because its scalar operand was in a VGPR."""

from __future__ import annotations

import re

import pytest

from asm_loops import WATERFALL
from kernel_builds import build
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.waterfall import waterfall_loops



def test_a_waterfall_inside_the_main_loop_is_found():
    (w,) = waterfall_loops(parse_asm(WATERFALL).function())
    assert w.phase == "loop" and w.lines == (13,)
    assert [i.mnemonic for i in w.memory] == ["buffer_load_dwordx4"]
    assert "s_cbranch_execnz" in w.message()


@pytest.mark.parametrize("edit", [
    # the same readfirstlane and saveexec without the loop back (a uniform branch region)
    lambda s: s.replace("\ts_cbranch_execnz .LBB0_5\n", ""),
    # a loop back on execnz without a readfirstlane (a divergent loop, not a waterfall)
    lambda s: s.replace("\tv_readfirstlane_b32 s12, v80\n", ""),
    # a readfirstlane loop around no memory instruction
    lambda s: s.replace("\tbuffer_load_dwordx4 v146, s[4:7], s12 offen lds\n", ""),
])
def test_what_is_not_a_waterfall(edit):
    assert waterfall_loops(parse_asm(edit(WATERFALL)).function()) == []


def _wrap_first_dma(asm: str) -> str:
    """The shipped kernel with its main loop's first DMA wrapped in a waterfall."""
    fn = next(f for f in parse_asm(asm).functions if any(i.kind == "mfma" for i in f.instrs()))
    line = next(i.line for i in fn.main_loop_phases()["loop"] if i.kind == "vmem_load_lds")
    lines = asm.split("\n")
    dma = lines[line - 1]
    soff = re.search(r"\], (s\d+) offen", dma).group(1)
    lines[line - 1] = "\n".join([
        ".LBB0_999:", f"\tv_readfirstlane_b32 {soff}, v255", f"\tv_cmp_eq_u32_e32 vcc, {soff}, v255",
        "\ts_and_saveexec_b64 vcc, vcc", dma, "\ts_xor_b64 exec, exec, vcc",
        "\ts_cbranch_execnz .LBB0_999"])
    return "\n".join(lines)


@pytest.mark.parametrize("key", ["4wave-bf16", "pingpong-fp8"])
def test_the_shipped_kernels_have_none_and_an_injected_one_is_a_finding(key):
    """The check's wiring into check_kernel_asm on two shipped kernels (built by other
    tests already: the build cache)."""
    b = build(key)
    clean = check_kernel_asm(parse_asm(b.asm).function(), b.plan)
    assert [f for f in clean.findings if f.kind == "waterfall"] == []
    bad = check_kernel_asm(parse_asm(_wrap_first_dma(b.asm)).function(), b.plan)
    (f,) = [f for f in bad.findings if f.kind == "waterfall"]
    assert f.phase == "loop" and "waterfall loop" in str(f)
