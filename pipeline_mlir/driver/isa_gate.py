"""The ISA check on the code build of a pipelined kernel: a finding that is an error refuses it.

``--emit=report`` prints the ISA check (:mod:`pipeline_mlir.isa.report`).  A build of
machine code of a compilation that lowered one pipelined loop runs the same check on the
assembly LLVM emitted for it, where the build makes that assembly: ``--emit=asm``, and an
``obj`` or ``hsaco`` build whose code issues a 16-pass XDL MFMA (which compiles the assembly
beside the object, from the same optimized IR, for :mod:`~pipeline_mlir.driver.wait_check`).
It refuses the build when it finds one of the errors
:func:`~pipeline_mlir.isa.built_check.errors` names (a register read before its load
completes on some path, an MFMA reading a fragment still in flight, MFMAs of the pipelined
loop LLVM deleted, fewer barriers in the pipelined loop than the schedule's), with one error per rule at the kernel's function: its first finding's
phase, schedule entries, instruction and assembly line, and how many more findings the rule
has.  Nothing is written then.  The notes (waits LLVM merged or tightened, instructions it
moved) do not refuse it.  Code the check cannot hold against the schedule (a main loop whose
MFMAs are no whole number per MMA entry of the plan, as when LLVM deleted some of them) is
refused too, saying why.  A compilation that lowered no pipelined loop, or several, is not
checked here.

A plain ``obj`` or ``hsaco`` build asks LLVM for the object only and is not checked: the
assembly beside it costs a second optimization and code generation of the module (measured:
0.2 to 0.3 s of CPU per IREE kernel, against 0.3 to 0.4 s for the object alone), too much
for every build of the test suite.
"""

from __future__ import annotations

from pipeline_mlir.driver.diagnostics import Diag, Failure, at_function


def checked(emit: str, plans: list) -> bool:
    """Does a build of ``emit`` with the kernel plans ``plans`` run the check (when it
    makes the assembly)?"""
    return emit in ("asm", "obj", "hsaco") and len(plans) == 1


def _kernel(module):
    """The function of ``module`` (parsed assembly) the pipelined loop is in: the only one,
    else the only one that issues an MFMA (an assembly reader's error otherwise)."""
    if len(module.functions) == 1:
        return module.functions[0]
    mfma = [f for f in module.functions if any(i.kind == "mfma" for i in f.instrs())]
    return mfma[0] if len(mfma) == 1 else module.function()


def check_built(asm: str, plan, ll_text: str, module, filename: str) -> None:
    """Raise a :class:`Failure` at the kernel's function for every error finding of the ISA
    check of ``asm`` (the code LLVM built of ``ll_text``) against ``plan``."""
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.built_check import errors, pipelined_check
    from pipeline_mlir.isa.report import unrolled_note

    try:
        fn = _kernel(parse_asm(asm))
        ran = pipelined_check(fn, plan, unrolled_note(fn, ll_text))
    except PipelineError as e:
        raise Failure.at(f"the ISA check cannot hold the code built against the pipelined "
                         f"loop's schedule, so the build is refused: {e}", filename) from None
    bad = errors(ran.findings, ran.isa)
    if not bad:
        return
    text = {i.line: i.text for i in fn.instrs()}
    diags = []
    for kind in dict.fromkeys(f.kind for f in bad):     # one error per rule, in order
        same = [f for f in bad if f.kind == kind]
        f = same[0]
        lines = [n for n in f.lines if n in text]
        at = f" at '{text[lines[0]]}' (assembly line {lines[0]})" if lines else ""
        entries = f" (schedule entries {', '.join(f.entries)})" if f.entries else ""
        phase = "function" if f.phase == "-" else f.phase
        more = f" (and {len(same) - 1} more {kind} findings)" if len(same) > 1 else ""
        message = (f"kernel '{fn.name}': ISA check: {kind} in the {phase}{entries}{at}: "
                   f"{f.message}{more}")
        diags.append(at_function(module, fn.name, message, filename) or
                     Diag("error", message, where=filename))
    raise Failure(diags)

