"""The ISA check of one built kernel: which of its rules run, and which findings refuse it.

:func:`pipelined_check` picks what :func:`~pipeline_mlir.isa.report.kernel_report` prints and
what a code build (``--emit=asm``, ``obj``, ``hsaco``) of a pipelined kernel is held to
(:mod:`pipeline_mlir.driver.isa_gate`): the comparison with the kernel plan when the
assembly's main loop is the pipelined one, else (LLVM unrolled that loop fully, or kept
another loop as the main one) the rules that read the assembly alone, on the whole function.

:data:`ERROR_KINDS` are the findings that show a race in the code as built, whatever the
schedule: an instruction reading or overwriting a register a load may still be writing on
some path (``wait-short``), an MFMA whose operand reads may still be in flight
(``frag-wait-weak``, ``frag-wait-missing``); and, in the pipelined loop, MFMAs of the schedule
LLVM deleted (``mfma-missing`` in the ``loop`` phase: code it found dead, the MFMAs of
unstored accumulators with their fragment reads, which the loop's counted waits count).
The other findings are notes here.  Waits LLVM merged, tightened or added, instructions it
moved, merged (a ``ds_read2``: the reads then missing) or added.  And the comparison's
findings that IREE kernels the emulator runs exact give where the expected skeleton does not
model the kernel: ``wait-weakened``, ``wait-missing``, ``barrier-missing`` and
``load-lds-missing`` on IREE's run-time-K kernel of register-staged copies; ``wait-unpinned``
on a cut between a scratch store and a register load of IREE's 8-wave 1024x1024x384 kernel
under ``4wave``.  They stay findings of ``--emit=report``.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.check import check_kernel_asm, check_without_schedule, \
    not_the_pipelined_loop
from pipeline_mlir.isa.findings import Finding, IsaCheck

__all__ = ["ERROR_KINDS", "LOOP_ERROR_KINDS", "PipelinedCheck", "pipelined_check", "errors"]

#: findings that refuse a build wherever they are
ERROR_KINDS = frozenset({"wait-short", "frag-wait-weak", "frag-wait-missing"})
#: findings that refuse a build in the pipelined loop (its waits count these instructions)
LOOP_ERROR_KINDS = frozenset({"mfma-missing"})


@dataclass
class PipelinedCheck:
    """What :func:`pipelined_check` ran: the comparison with the plan (``isa``), or why not
    (``note``) with the findings of the rules that read the assembly alone (``plain``)."""

    isa: IsaCheck | None = None
    note: str = ""
    plain: list[Finding] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return self.isa.findings if self.isa is not None else self.plain


def pipelined_check(fn: AsmFunction, plan, loop_note: str = "",
                    **isa_options) -> PipelinedCheck:
    """The ISA check of ``fn`` against the kernel plan it was lowered with; ``loop_note``:
    why ``fn`` has no main loop (:func:`~pipeline_mlir.isa.report.unrolled_note`), if so;
    ``isa_options`` go to :func:`~pipeline_mlir.isa.check.check_kernel_asm`."""
    if loop_note:
        return PipelinedCheck(note="the comparison with the schedule and its order rule not "
                                   "run (they read the pipelined loop: main loop above)",
                              plain=check_without_schedule(fn))
    why = not_the_pipelined_loop(fn, plan, isa_options.get("mfmas_per_mma") or
                                 plan.shape.mfmas_per_mma)
    if why:
        return PipelinedCheck(note=f"the comparison with the schedule and its order rule not "
                                   f"run ({why})", plain=check_without_schedule(fn))
    return PipelinedCheck(isa=check_kernel_asm(fn, plan, **isa_options))


def errors(findings: list[Finding]) -> list[Finding]:
    """The findings of ``findings`` that refuse a build (module docstring)."""
    return [f for f in findings if f.kind in ERROR_KINDS or
            (f.kind in LOOP_ERROR_KINDS and f.phase == "loop")]
