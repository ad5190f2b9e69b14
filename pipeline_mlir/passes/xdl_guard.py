"""``sched-xdl-guard``: the wait states LLVM 22 misses after a 16-pass XDL MFMA, at every reader.

LLVM 22's hazard recognizer looks back 19 wait states for the MFMA that wrote a register;
a 16-pass XDL MFMA's readers need 20 (:mod:`pipeline_mlir.lowering.xdl_window`).  This pass
puts the lowering's guard (``s_nop`` worth 20 wait states between two ``sched_barrier``
fences) wherever such an MFMA's result may be read or overwritten too early: before a
reader in its own block (straight-line code, a non-kernel function's return), after a loop
or branch holding one, on the edges a block holding one leaves by
(:func:`~pipeline_mlir.lowering.xdl_window.guard_exits`).  It decides from the
IR alone, not from a mark, and it is idempotent: a guard ``sched-lower-to-rocdl`` or an
earlier run placed counts.

It is part of the LLVM step (after ``sched-check-device-input``, before
``convert-scf-to-cf``), so every route to machine code runs it: a named pipeline, a
``--pass-pipeline`` of any passes followed by ``--emit=llvm|asm|obj|hsaco``, and MLIR given
with ``amdgpu`` MFMAs and no ``sched`` op.  It never fails.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.lowering.xdl_window import guard_exits
from pipeline_mlir.passes._common import ModulePass, OpError


class XdlGuard(ModulePass):
    """The guard after every exit from code issuing a 16-pass XDL MFMA."""

    name = "sched-xdl-guard"
    summary = ("20 wait states before every reader, loop, branch or block exit following a "
               "16-pass XDL MFMA whose result may be read too early (LLVM 22 sees 19)")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            guard_exits(module)
        return []
