"""The emitted code's wait states on every path after a 16-pass XDL MFMA.

LLVM 22's hazard recognizer looks back 19 wait states for the MFMA that wrote a register,
one short of a 16-pass XDL MFMA's readers (:mod:`pipeline_mlir.lowering.xdl_window`).
``sched-xdl-guard`` puts the guard before every reader the IR shows; a reader it does not
show (a register copy LLVM adds, a register LLVM reuses) could still land exactly 19 wait
states after such an MFMA.  So every route to machine code (``--emit=asm``, ``obj``,
``hsaco``, ``report``) whose LLVM IR holds a 32x32x64 ``f8f6f4`` MFMA checks the assembly
LLVM emits, read once (:func:`~pipeline_mlir.emu.codeobj.prepared`), with the emulator's
path check (:func:`~pipeline_mlir.emu.hazard_paths.path_violations`: every rule, every
path), in each kernel whose assembly issues such an MFMA (:func:`beyond_lookback`), and
refuses a kernel where an instruction issues too early after one of those MFMAs, at the
kernel's function, naming the reader, the producer, the rule and both counts.  Only those
producers: every other count is LLVM's own and equal to the emulator's
(``test_hazard_rules.py``).

An instruction the assembler reads but the machine does not run (an FP8 conversion such as
``v_cvt_sr_fp8_f32``, ``v_div_fmas_f32``, ``s_setreg_b32``...) keeps the register effects
:func:`~pipeline_mlir.emu.hazards.effects_of` knows, or else is an opaque step: one wait
state that may read any VGPR or AGPR.  The check then refuses only an opaque step within
the window of such an MFMA whose result is still live on some path (it may read it), or
an opaque instruction that may go elsewhere than the next one (``s_swappc_b64``: a call
whose paths it cannot follow).  A line of the assembly the emulator cannot read at all
refuses the compile: its wait states cannot be checked (soundness first).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from pipeline_mlir.driver.diagnostics import Diag, Failure, at_function

#: the instructions that may go elsewhere than the next one: an opaque one of them hides
#: paths (a call's callee, a jump's target) the check cannot follow
_JUMPS = ("s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_call", "s_rfe")
#: every VGPR and AGPR in the hazard tables' numbering (AGPRs from 256): what an opaque
#: step may read
_ANY_VECTOR_REGISTER = tuple(range(512))


def intrinsic(mnemonic: str) -> str:
    """The LLVM intrinsic of the MFMA ``mnemonic`` (``v_mfma_scale_f32_32x32x64_f8f6f4``:
    ``llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4``)."""
    return "llvm.amdgcn." + mnemonic.removeprefix("v_").replace("_", ".")


@functools.cache
def beyond_lookback_intrinsics() -> re.Pattern:
    """The LLVM intrinsics of the XDL MFMAs whose readers (at their most passes: FP8
    operands) need more wait states than LLVM 22 looks back for, from the target's table
    (:data:`~pipeline_mlir.target.gfx950.MFMA_PASSES`)."""
    from pipeline_mlir.lowering.xdl_window import exceeds_lookback
    from pipeline_mlir.target.gfx950 import MFMA_PASSES

    names = [intrinsic(m) for m, (passes, xdl) in MFMA_PASSES.items()
             if xdl and exceeds_lookback(passes)]
    return re.compile("|".join(re.escape(n) for n in names))


def needs_check(ll_text: str) -> bool:
    """Does the LLVM IR issue an MFMA whose readers LLVM 22 may leave one wait state short?"""
    return beyond_lookback_intrinsics().search(ll_text) is not None


def beyond_lookback(ins) -> bool:
    """Is the instruction an XDL MFMA whose readers need more wait states than LLVM 22 looks
    back for (its passes from the target's table, as the emulator's rules read them)?"""
    if not ins.name.startswith("v_mfma"):
        return False
    from pipeline_mlir.lowering.xdl_window import exceeds_lookback
    from pipeline_mlir.target.gfx950 import f8f6f4_narrow, mfma_passes

    f = ins.f
    entry = mfma_passes(ins.name, f8f6f4_narrow(f.get("cbsz", 0), f.get("blgp", 0)))
    return entry is not None and entry[1] and exceeds_lookback(entry[0])


def check_wait_states(asm: str, module, filename: str) -> None:
    """Raise a :class:`Failure` at the kernel's function for the first instruction too early
    after a 16-pass XDL MFMA on some path in each kernel of ``asm`` that issues one (or at
    the input when the emulator cannot read the assembly)."""
    from pipeline_mlir.emu.asmtext import kernels_from_asm
    from pipeline_mlir.emu.codeobj import prepared
    from pipeline_mlir.emu.errors import EmuError

    try:
        kernels = prepared(asm, kernels_from_asm)
    except EmuError as e:
        raise Failure.at(f"the emitted code issues a 16-pass XDL MFMA, whose readers LLVM 22 "
                         f"may leave one wait state short, and the emulator cannot read its "
                         f"assembly, so its wait states cannot be checked: {e}",
                         filename) from None
    diags = []
    for name in sorted(kernels):
        kernel = kernels[name]
        if not any(beyond_lookback(ins) for ins in kernel.instrs):
            continue
        message = _too_early(kernel)
        if message is not None:
            diags.append(at_function(module, name, message, filename) or
                         Diag("error", message, where=filename))
    if diags:
        raise Failure(diags)


def _too_early(kernel) -> str | None:
    """The message for the first instruction too early after a 16-pass XDL MFMA of
    ``kernel`` on some path (None if there is none)."""
    from pipeline_mlir.emu.hazard_paths import path_violations
    from pipeline_mlir.lowering.xdl_window import LLVM_LOOKBACK

    kernel, info, opaque = _rules_view(kernel)
    jump = next((ins for ins in kernel.instrs if id(ins) in opaque and
                 ins.name.startswith(_JUMPS)), None)
    if jump is not None:
        return (f"kernel '{kernel.name}': wait states: '{jump.text}' at 0x{jump.addr:04x}: "
                f"the emulator does not model this instruction, which may go elsewhere than "
                f"the next one, so the paths after the kernel's 16-pass XDL MFMA cannot be "
                f"followed and its wait states cannot be checked")
    found = [v for v in path_violations(kernel, info) if beyond_lookback(v.violation.first)]
    if not found:
        return None
    v, bad = found[0], found[0].violation
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    head = f"kernel '{kernel.name}': wait states: '{v.reader.text}' at 0x{v.reader.addr:04x}"
    if id(v.reader) in opaque:
        return (f"{head}: the emulator does not model this instruction, which may read "
                f"the result ({bad.reg}, ...) of 0x{bad.first.addr:04x} '{bad.first.text}', "
                f"still live {bad.present} wait states after it on some path "
                f"({bad.required} required), so its wait states cannot be checked{more}")
    blame = ""
    if bad.rule.name.startswith("mfma-d") and bad.present == LLVM_LOOKBACK:
        blame = (f": LLVM 22's hazard recognizer left it one short (it looks back "
                 f"{LLVM_LOOKBACK} wait states)")
    return f"{head}: {bad.message()} on some path{more}{blame}"


def _rules_view(kernel) -> tuple:
    """(the kernel to check, the :class:`~pipeline_mlir.emu.hazards.Info` of each of its
    instructions, the ids of the opaque ones): an instruction the machine does not run has
    the register effects :func:`~pipeline_mlir.emu.hazards.effects_of` knows, or is one
    wait state that may read any vector register after an MFMA wrote it.  With any such
    instruction the kernel is a copy of its own (``dataclasses.replace``), so that this
    view of it is not the one the emulator's other callers get for the same text."""
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.hazards import Info, effects_of, info_of, infos, need_after_d
    from pipeline_mlir.emu.long_branch import long_branch_targets
    from pipeline_mlir.emu.program import compile_instr

    try:
        return kernel, infos(kernel.steps()), set()
    except EmuError:
        kernel = replace(kernel)
    index_of, far = kernel.at(), long_branch_targets(kernel.instrs)
    out, opaque = [], set()
    for ins in kernel.instrs:
        try:
            out.append(info_of(compile_instr(ins, index_of, far)))
            continue
        except EmuError:
            effects = effects_of(ins)
        if effects is not None:
            out.append(info_of(effects))
        else:
            opaque.add(id(ins))
            out.append(Info(ins, 1, (("v_mfma", _ANY_VECTOR_REGISTER, "mfma-d-valu",
                                      lambda entry: need_after_d(entry[2])),)))
    return kernel, out, opaque
