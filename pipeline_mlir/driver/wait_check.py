"""The emitted code's wait states on every path, when it issues a 16-pass XDL MFMA.

LLVM 22's hazard recognizer looks back 19 wait states for the MFMA that wrote a register,
one short of a 16-pass XDL MFMA's readers (:mod:`pipeline_mlir.lowering.xdl_window`).
``sched-xdl-guard`` puts the guard before every reader the IR shows; a reader it does not
show (a register copy LLVM adds, a register LLVM reuses) could still land exactly 19 wait
states after such an MFMA.  So every route to machine code (``--emit=asm``, ``obj``,
``hsaco``, ``report``) whose LLVM IR holds a 32x32x64 ``f8f6f4`` MFMA checks the assembly
LLVM emits with the emulator's path check
(:func:`~pipeline_mlir.emu.hazard_paths.path_violations`: every rule of the wait-state
table, every path) and refuses a kernel that breaks a rule, at the kernel's function, naming
the reader, the producer, the rule and both counts.  A kernel holding an instruction the
emulator does not model cannot be checked, and is refused too: soundness first.  Other code
is not checked here: LLVM's own counts of every other rule are the emulator's
(``test_hazard_rules.py``), and the check costs a parse of the assembly.
"""

from __future__ import annotations

import re

from pipeline_mlir.driver.diagnostics import Diag, Failure, from_location

#: the LLVM intrinsics of the MFMAs that can have 16 passes (FP8 operands)
SIXTEEN_PASS_INTRINSIC = re.compile(r"llvm\.amdgcn\.mfma\.(scale\.)?f32\.32x32x64\.f8f6f4")


def needs_check(ll_text: str) -> bool:
    """Does the LLVM IR issue an MFMA whose readers LLVM 22 may leave one wait state short?"""
    return SIXTEEN_PASS_INTRINSIC.search(ll_text) is not None


def check_wait_states(asm: str, module, filename: str) -> None:
    """Raise a :class:`Failure` at the kernel's function for the first reader too early on
    some path in each kernel of ``asm`` (or for a kernel the emulator cannot read)."""
    from pipeline_mlir.emu.asmtext import kernels_from_asm
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.hazard_paths import path_violations
    from pipeline_mlir.emu.inputs import load_kernel

    diags = []
    try:
        names = sorted(kernels_from_asm(asm))
        for name in names:
            found = path_violations(load_kernel(asm, name))
            if found:
                v = found[0]
                more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                diags.append(_at(module, name, filename, (
                    f"kernel '{name}': wait states: '{v.reader.text}' at 0x{v.reader.addr:04x}: "
                    f"{v.violation.message()} on some path{more}: LLVM 22's hazard recognizer "
                    f"left it one short (it looks back 19 wait states)")))
    except EmuError as e:
        diags.append(Diag("error", f"the emitted code issues a 16-pass XDL MFMA, whose "
                                   f"readers LLVM 22 may leave one wait state short, and its "
                                   f"wait states cannot be checked: {e}", where=filename))
    if diags:
        raise Failure(diags)


def _at(module, name: str, filename: str, message: str) -> Diag:
    from pipeline_mlir.dialect.ir_io import walk_ops

    funcs = walk_ops(module.operation, lambda o: o.name.endswith("func") and
                     "sym_name" in o.attributes and
                     str(o.attributes["sym_name"]) == f'"{name}"')
    if funcs and str(funcs[0].location) != "loc(unknown)":
        return from_location("error", message, funcs[0].location, filename)
    return Diag("error", message, where=filename)
