"""IREE's bf16 batch 2 x 267x969x192 built with 4 prefetch stages: a pair with no steady trip.

A 64x128 tile, 3 K steps of 64, DMA copies: the 4-wave schedule takes the first two (its
main loop from 4 to 4 runs no trip, the prologue and the epilogue compute both) and IREE's
loop runs the third as the remainder, its loads issued ahead.  The pair is straight code
(``lowering/straight_pair.py``): no zero-trip fence, and the epilogue's vmcnt waits derived by
``sched-fix-hazards`` for the prologue's copies (``sim/repair.py``): K tile 0's MMAs wait for
K tile 0's copies alone, K tile 1's copies left in flight under them.  The remainder's
LDS stores of the registers it loaded ahead go before the pair's last MMA block
(``lowering/remainder_stores.py``), its barrier still before its reads.  ``iree-compile``
writes both forms once per session; the prefetch point is built once, to assembly, and that
assembly is what the mutants edit.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import cached, share_code_objects
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402

FLAGS = ("--iree-llvmgpu-prefetch-num-stages=4",)
#: a whole wait on vmcnt (with or without lgkmcnt) and its count
VM_WAIT = re.compile(r"\s*s_waitcnt vmcnt\((\d+)\)")


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    d = tmp_path_factory.mktemp("straight_pair")
    forms = G.forms(E.epilogue_source("batch", "bf16", m=267, n=969, k=192), FLAGS)
    out = {}
    for form, text in forms.items():
        out[form] = d / f"k192.{form}.mlir"
        out[form].write_text(text)
    return out


@pytest.fixture(scope="module")
def asm(kernels) -> str:
    """The prefetch point pipelined once per run, to assembly."""
    from pipeline_mlir.driver import CompileOptions, compile

    text = kernels["prefetch"].read_text()

    def build():
        return compile(CompileOptions(schedule="4wave", text=text, emit="asm")).checked_output()
    return cached("straight-pair-asm", ("4wave", text), build)


def _pair_waits(asm: str) -> list[tuple[int, int]]:
    """(line, count) of each vmcnt wait before the pair's last MFMA (the function's 32nd:
    16 MFMAs a wave per K tile) that an ``s_barrier`` follows before the next wait, LDS
    read or MFMA: the waits that hand LDS to the other waves (the schedule's others, which
    repeat the one before them, only keep each MMA apart from its block's reads)."""
    lines = asm.split("\n")
    mfmas = [k for k, ln in enumerate(lines) if "v_mfma" in ln]
    out = []
    for k, ln in enumerate(lines[:mfmas[31]]):
        m = VM_WAIT.match(ln)
        nxt = next(x.strip() for x in lines[k + 1:]
                   if re.match(r"\s*(s_barrier|s_waitcnt|ds_read|v_mfma)", x))
        if m and nxt == "s_barrier":
            out.append((k, int(m.group(1))))
    return out


def test_the_pairs_first_k_tile_waits_for_its_own_copies(asm):
    """Each wave issues 6 DMA copies per K tile (A 1 + 1, B 2 + 2), tile 0's first.  The
    prologue's two waits complete A's and B's first subtiles (vmcnt(11), vmcnt(9)); the
    epilogue's first leaves K tile 1's 6 copies in flight (vmcnt(6)) and MFMAs run before
    the next, vmcnt(0), before K tile 1's first read.  Before, the zero-trip fence
    (``s_waitcnt vmcnt(0) lgkmcnt(0)``) and a vmcnt(0) came before the first MFMA."""
    lines = asm.split("\n")
    copies = [ln for ln in lines if "buffer_load_dwordx4" in ln and " lds" in ln]
    assert len(copies) == 12, len(copies)
    waits = _pair_waits(asm)
    assert [n for _, n in waits] == [11, 9, len(copies) // 2, 0], waits
    first = next(k for k, ln in enumerate(lines) if "v_mfma" in ln)
    assert waits[2][0] < first < waits[3][0], (waits, first)


@pytest.mark.parametrize("form,mode", [("prefetch", "late"), ("late", "random:7")])
def test_the_straight_pair_is_exact(kernels, form, mode, capsys):
    """Exact from both forms, memory completing as late as the counters allow and at random,
    three workgroups (the first and the last batch's last tiles, whose rows past M and N
    the copies keep out)."""
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(kernels[form]), f"--emulate-mode={mode}",
                   "--emulate-workgroups=3", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0 in C (9798 elements), 3 of 80" in out, out + err


@pytest.mark.parametrize("which", [2, 3])
def test_each_derived_wait_is_needed(kernels, asm, which):
    """The epilogue's derived waits raised by one (a copy of the K tile it waits for left in
    flight) are LDS races on the emulator, late mode: neither count is looser than the
    kernel needs."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.dispatch_launch import run_dispatch
    from pipeline_mlir.emu.errors import Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    line, n = _pair_waits(asm)[which]
    lines = asm.split("\n")
    lines[line] = lines[line].replace(f"vmcnt({n})", f"vmcnt({n + 1})")
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(kernels["prefetch"].read_text(), ctx), None)
    with pytest.raises(Finding, match="lds-race"):
        run_dispatch(d, load_kernel("\n".join(lines)), "k192", ("late", 0), 2, None, False)


def _remainder_fence(asm: str) -> tuple[int, int]:
    """(line of the ``s_waitcnt lgkmcnt(0)``, line of the ``s_barrier``) the remainder's
    first barrier is, between the pair's last MFMA and the remainder's first LDS read."""
    lines = asm.split("\n")
    last = [k for k, ln in enumerate(lines) if "v_mfma" in ln][31]
    read = next(k for k in range(last, len(lines)) if "ds_read" in lines[k])
    bar = max(k for k in range(last, read) if lines[k].strip() == "s_barrier")
    wait = max(k for k in range(last, bar) if lines[k].strip() == "s_waitcnt lgkmcnt(0)")
    return wait, bar


def test_the_remainders_stores_run_under_the_pairs_last_mfmas(asm):
    """The remainder's 6 LDS stores of the registers loaded ahead come after the pair's last
    vmcnt wait and before its last MFMA (``lowering/remainder_stores.py``), not after it
    behind the remainder's barrier; that barrier, with LLVM's ``lgkmcnt(0)``, still comes
    before the remainder's reads."""
    lines = asm.split("\n")
    stores = [k for k, ln in enumerate(lines) if "ds_write" in ln]
    last = [k for k, ln in enumerate(lines) if "v_mfma" in ln][31]
    assert len(stores) == 6, stores
    assert _pair_waits(asm)[3][0] < min(stores) and max(stores) < last, (stores, last)
    wait, bar = _remainder_fence(asm)
    assert last < wait < bar


@pytest.mark.parametrize("which", [0, 1])
def test_the_remainders_barrier_hands_its_stores_over(kernels, asm, which):
    """The stores' buffers are the remainder's own: only its barrier (and the wait before
    it) orders them before the other waves' reads; either deleted is an LDS race on the
    emulator, late mode."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.dispatch_launch import run_dispatch
    from pipeline_mlir.emu.errors import Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.frontend.dispatch import matmul_dispatch

    lines = asm.split("\n")
    del lines[_remainder_fence(asm)[which]]
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(kernels["prefetch"].read_text(), ctx), None)
    with pytest.raises(Finding, match="lds-race"):
        run_dispatch(d, load_kernel("\n".join(lines)), "k192", ("late", 0), 2, None, False)


def test_every_copy_fills_m0_with_one_scalar_instruction(asm):
    """Each DMA copy's LDS address is one value for the wave: ``sched-buffer-soffset``
    reads the wave's index once (one ``v_readfirstlane`` in the kernel) and LLVM fills M0
    with one scalar instruction per copy, its LDS offset added to that index's multiple
    (finding 94).  Before, A's copies (their offset holds the kept row mask, which the pass
    does not split) and B's alike took a vector add and a ``v_readfirstlane`` each."""
    lines = [ln.strip() for ln in asm.split("\n")]
    copies = [k for k, ln in enumerate(lines) if ln.startswith("buffer_load_dwordx4") and
              ln.endswith(" lds")]
    fills = [k for k, ln in enumerate(lines) if re.match(r"s_\w+ m0, ", ln)]
    assert len(fills) == len(copies) == 12, (fills, copies)
    for k in copies:
        fill = max(f for f in fills if f < k)
        assert re.fullmatch(r"s_add_i32 m0, s\d+, (0x[0-9a-f]+|\d+)", lines[fill]), lines[fill]
    assert sum(ln.startswith("v_readfirstlane") for ln in lines) == 1


def test_the_llvm_step_narrows_the_index_arithmetic_as_iree_does(kernels, monkeypatch):
    """The LLVM step's tail of IREE's passes runs ``iree-util-optimize-int-arithmetic`` after
    its first affine lowering, as IREE's LLVMGPU lowering does (``registry.NARROW_INDEX``):
    the prefetch point's ``floordiv``/``mod`` of thread ids and K offsets, lowered for any
    sign, are proven non-negative and made unsigned 32-bit divisions.  Its LLVM IR then has
    no ``sdiv`` or ``srem``; without the pass it has some (finding 100 of
    ``docs/iree-audits.md``: 15, and 67 ``select`` s against 28)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.driver.code_cache import sharing
    from pipeline_mlir.passes import registry

    def signed_divisions() -> int:
        with sharing(None):     # (not another build of the input: the passes differ)
            ll = compile(CompileOptions(schedule="4wave", input=str(kernels["prefetch"]),
                                        emit="llvm")).checked_output()
        return len(re.findall(r"= (?:sdiv|srem) ", ll))

    assert signed_divisions() == 0
    tail = [(n, t.replace(registry.NARROW_INDEX + ",", "") if isinstance(t, str) else t)
            for n, t in registry.TO_LLVM_PASSES]
    assert tail != registry.TO_LLVM_PASSES
    monkeypatch.setattr(registry, "TO_LLVM_PASSES", tail)
    assert signed_divisions() > 0
