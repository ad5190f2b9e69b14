"""``sched-xdl-guard``: the wait states LLVM 22 may miss after an XDL MFMA, at every reader.

LLVM 22's hazard recognizer looks back 19 wait states for the MFMA that wrote a register,
while a 16-pass XDL MFMA's readers need 20; and it counts a reader behind a join of paths
by the path it walks first, whatever the MFMA (:mod:`pipeline_mlir.lowering.xdl_window`).
This pass puts the lowering's guard (``s_nop`` worth the MFMA's readers' wait states, 20 at
most, between two ``sched_barrier`` fences) wherever such an MFMA's result may be read or
overwritten too early: before a reader in its own block (a 16-pass MFMA's always; another
XDL MFMA's when an op after it may branch: a region, a masked access, a copy), after a
loop or branch holding one, on the edges a block holding one leaves by
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
from pipeline_mlir.lowering.open_guards import close_guards, open_guards
from pipeline_mlir.lowering.xdl_window import guard_exits
from pipeline_mlir.passes._common import ModulePass, OpError


class XdlGuard(ModulePass):
    """The guard after every exit from code issuing an XDL MFMA whose readers LLVM 22 may
    leave short."""

    name = "sched-xdl-guard"
    summary = ("an XDL MFMA's wait states (20 after a 16-pass one, which LLVM 22 sees 19 of) "
               "before every reader, loop, branch or block exit where LLVM may count short")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            close_guards(module)
            guard_exits(module)
            open_guards(module)
        return []
