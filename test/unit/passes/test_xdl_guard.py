"""``sched-xdl-guard`` on every route to machine code, checked on the emulator's path check.

A loop of 16-pass XDL MFMAs written by hand (``inputs/xdl_exit_kernel.mlir``: no ``sched``
op, no ``sched.remainder`` mark, the mutant of a remainder loop without its mark) goes to
gfx950 assembly by the routes ``pipeline-opt`` offers: the input alone with ``--emit=asm``
and a ``--pass-pipeline`` that lowers ``scf`` to unstructured control flow itself before
the LLVM step; a ``--pass-pipeline`` that does not lower anything (no
``sched-lower-to-rocdl``) takes the straight-line kernel below.  Each comes
out with the guard and at least 20 wait states after the loop's last MFMA on every path
(the emulator's path check, :func:`~pipeline_mlir.emu.hazard_paths.path_violations`, finds
nothing).  With the guard's ``s_nop`` deleted from the first route's assembly the path check
reports the stores that read the MFMA's result too early, so the check is one that fails.
The guard goes on the loop's exit edge in unstructured form (the block the header leaves
to), not at the header.  ``inputs/xdl_straight_kernel.mlir`` is straight-line code: LLVM 22
issues 19 independent VALU ops after its MFMA and the store of the result exactly 19 wait
states after it (one short: the path check reports it without the guard sched-xdl-guard
puts before the store, ``mfma-d-mem`` 19 of 20); with the guard it is clean.

The driver's own check of the assembly (``driver/wait_check.py``) refuses only what
follows a 16-pass XDL MFMA too early, and reads an instruction the emulator does not run
(``inputs/xdl_divide_kernel.mlir``'s f32 division) by its known register effects or as an
opaque step that may read the MFMA's result."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from emu_helpers import guard_nops
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.emu.hazard_paths import path_violations
from pipeline_mlir.emu.inputs import load_kernel

INPUTS = Path(__file__).parents[1] / "inputs"
#: route -> (input, --pass-pipeline)
ROUTES = {"input": ("xdl_exit_kernel.mlir", None),
          "unstructured": ("xdl_exit_kernel.mlir", "builtin.module(convert-scf-to-cf)"),
          "pass-pipeline": ("xdl_straight_kernel.mlir", "builtin.module(cse)")}


@functools.cache
def _asm(route: str) -> str:
    name, pipeline = ROUTES[route]
    result = compile(CompileOptions(input=str(INPUTS / name), emit="asm",
                                    pass_pipeline=pipeline))
    return result.checked_output()


@pytest.mark.parametrize("route", list(ROUTES))
def test_every_route_guards_the_mfma_readers(route):
    lines = _asm(route).split("\n")
    nops = guard_nops(lines)
    assert sum(int(lines[i].split()[1]) + 1 for i in nops) >= 20
    assert path_violations(load_kernel("\n".join(lines))) == []


def test_without_the_guard_the_path_check_fails():
    """The guard's ``s_nop`` deleted: the stores after the loop read the last MFMA's result
    too early on the loop's exit path (LLVM counted the guard's ``s_nop`` as its own)."""
    lines = _asm("input").split("\n")
    nops = set(guard_nops(lines))
    found = path_violations(load_kernel("\n".join(ln for i, ln in enumerate(lines)
                                                   if i not in nops)))
    assert found and {v.violation.rule.name for v in found} <= {"mfma-d-mem", "mfma-d-valu"}
    assert all(v.violation.required == 20 for v in found)


def test_a_reader_the_guard_misses_is_refused(monkeypatch):
    """Without the guard (``sched-xdl-guard`` made a no-op) the straight-line kernel's store
    lands 19 wait states after its MFMA; the step to machine code checks the assembly on
    every path (``driver/wait_check.py``) and refuses it at the kernel, naming the rule."""
    import pipeline_mlir.passes.xdl_guard as pass_module

    monkeypatch.setattr(pass_module, "guard_exits", lambda module: 0)
    name, _ = ROUTES["pass-pipeline"]
    result = compile(CompileOptions(input=str(INPUTS / name), emit="asm",
                                    pass_pipeline="builtin.module(canonicalize)"))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert result.output is None and len(errors) == 1
    assert errors[0].location() == f"{INPUTS / name}:7:5"
    assert "19 wait states after" in errors[0].message and "20 required (mfma-d-mem" \
        in errors[0].message and "on some path" in errors[0].message


DIVIDE = INPUTS / "xdl_divide_kernel.mlir"


def _refusal(asm: str) -> str | None:
    """The driver's wait-state check of ``asm``: its one error's message, None if it passes."""
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.wait_check import check_wait_states

    try:
        check_wait_states(asm, None, "x.mlir")
    except Failure as e:
        assert len(e.diags) == 1
        return e.diags[0].message
    return None


def test_an_instruction_the_machine_does_not_run_is_checked_around():
    """``inputs/xdl_divide_kernel.mlir``: the epilogue's division (``v_div_scale_f32``: no
    model, an opaque step that may read any VGPR; ``v_div_fmas_f32``: its register effects)
    20 wait states after the 16-pass MFMA compiles; one wait state less before the first
    ``v_div_scale_f32``, which reads the MFMA's result, is refused, as a step the check
    cannot see into; so is an unmodelled call (``s_swappc_b64``: paths the check cannot
    follow), unless the kernel issues no 16-pass MFMA (its operands made FP4: 8 passes); a
    line the emulator cannot read refuses, saying so."""
    result = compile(CompileOptions(input=str(DIVIDE), emit="asm"))
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    asm = result.output
    assert "v_div_scale_f32" in asm and "v_div_fmas_f32" in asm and _refusal(asm) is None
    assert asm.count("s_nop 15\n\ts_nop 3\n") == 1
    short = _refusal(asm.replace("s_nop 15\n\ts_nop 3\n", "s_nop 15\n\ts_nop 2\n"))
    assert short is not None and "'v_div_scale_f32" in short and \
        "does not model this instruction" in short and \
        "still live 19 wait states after it on some path (20 required)" in short
    call = _refusal(asm.replace("\tv_div_fixup_f32", "\ts_swappc_b64 s[30:31], s[30:31]\n"
                                                    "\tv_div_fixup_f32", 1))
    assert call is not None and "'s_swappc_b64" in call and "cannot be followed" in call
    # the same MFMA with FP4 operands (8 passes: LLVM counts its readers): not checked
    mfma = "v_mfma_f32_32x32x64_f8f6f4 v[2:17], v[18:25], v[18:25], 0"
    assert mfma in asm
    narrow = asm.replace(mfma, "v_mfma_f32_32x32x64_f8f6f4 v[2:17], v[18:21], v[18:21], 0 "
                               "cbsz:4 blgp:4")
    assert _refusal(narrow.replace("\tv_div_fixup_f32", "\ts_swappc_b64 s[30:31], "
                                   "s[30:31]\n\tv_div_fixup_f32", 1)) is None
    bad = _refusal(asm.replace("v_div_fixup_f32", "v_no_such_op_f32", 1))
    assert bad is not None and "the emulator cannot read its assembly" in bad and \
        "v_no_such_op_f32" in bad


def test_only_a_sixteen_pass_mfma_producer_is_refused():
    """Another rule broken in the straight-line kernel's assembly (a VALU writes the SGPR a
    buffer load reads at once: ``valu-sgpr-vmem``, 5 wait states, a count LLVM places as the
    emulator does) is the path check's finding but not the driver's: it refuses only what
    follows a 16-pass XDL MFMA too early."""
    asm = _asm("pass-pipeline").replace(
        "\ts_endpgm\n", "\tv_readfirstlane_b32 s20, v0\n"
                        "\tbuffer_load_dword v1, v60, s[0:3], s20 offen\n\ts_endpgm\n", 1)
    found = path_violations(load_kernel(asm))
    assert [v.violation.rule.name for v in found] == ["valu-sgpr-vmem"]
    assert _refusal(asm) is None


def test_the_llvm_ir_is_checked_for_the_tables_16_pass_xdl_mfmas():
    """``needs_check`` looks for the intrinsics of the target table's XDL MFMAs beyond
    LLVM 22's look-back (both 32x32x64 ``f8f6f4`` forms), no other MFMA's."""
    from pipeline_mlir.driver.wait_check import intrinsic, needs_check
    from pipeline_mlir.target.gfx950 import MFMA_PASSES

    found = {m for m in MFMA_PASSES if needs_check(f"call @{intrinsic(m)}.v8i32(")}
    assert found == {"v_mfma_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"}
    assert needs_check("call <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v8i32")
    assert not needs_check("call <4 x float> @llvm.amdgcn.mfma.f32.16x16x128.f8f6f4.v8i32")


def test_the_guard_nops_of_opened_guards_are_found():
    """``guard_nops`` (the mutants' and these tests' reader of the assembly) finds an opened
    guard's ``s_nop`` as the ISA check does (``AsmFunction.guard_fences``): its two fences of
    ``OPEN_GUARD_MASK`` with VALU and waits among the ``s_nop``; not two fences of different
    masks, an SALU among them, or VALU between two closed fences."""
    opened = ["k:", "\t; sched_barrier mask(0x00000402)", "\tv_or_b32_e32 v4, 3, v49",
              "\ts_waitcnt lgkmcnt(0)", "\ts_nop 7", "\t; sched_barrier mask(0x00000402)"]
    assert guard_nops(opened) == [4]
    assert guard_nops(opened[:5] + ["\t; sched_barrier mask(0x00000000)"]) == []
    assert guard_nops(opened[:2] + ["\ts_movk_i32 s1, 0x2200"] + opened[2:]) == []
    closed = [ln.replace("0x00000402", "0x00000000") for ln in opened]
    assert guard_nops(closed) == []
    assert guard_nops([closed[0], closed[1], closed[4], closed[4], closed[5]]) == [2, 3]
