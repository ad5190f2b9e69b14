"""The ISA check on the code build of pipelined kernels: a finding that is an error refuses it.

``--emit=report`` prints the ISA check (:mod:`pipeline_mlir.isa.report`).  Every build of
machine code (``--emit=asm``, ``obj``, ``hsaco``) of a compilation that lowered a pipelined
loop runs the same check on the assembly LLVM emitted for it, unless it opts out
(``--no-isa-check``, ``CompileOptions.isa_check``): an ``obj`` or ``hsaco`` build then has
LLVM make the assembly beside the object from the same optimized module
(:func:`~pipeline_mlir.isa.codegen.compile_llvm_ir`'s ``both``; 0.10 to 0.13 s of CPU more
per kernel).  Each function of the module that issues an MFMA is checked: against the plan
of the pipelined loop in it (:attr:`~pipeline_mlir.kernel.plan.KernelPlan.function`), with
the rules that read the assembly alone when it holds none or several.  The build is refused
when one of the errors :func:`~pipeline_mlir.isa.built_check.errors` names is found (a
register read before its load completes on some path, an LDS write or read in flight at a
barrier the other waves' LDS accesses follow, two waves' accesses of one LDS byte, one
writing, with no barrier between, an MFMA reading a fragment still in flight,
MFMAs of the pipelined loop LLVM deleted, fewer barriers in the pipelined loop than the
schedule's), with one error per rule at the kernel's function: its first finding's phase,
schedule entries, instruction and assembly line, and how many more findings the rule has.
Nothing is written then.  The notes (waits LLVM merged or tightened, instructions it moved)
do not refuse it.  Code the check cannot hold against the schedule (a main loop whose MFMAs
are no whole number per MMA entry of the plan, as when LLVM deleted some of them; a plan
whose function the assembly lacks) is refused too, saying why.  A compilation that lowered
no pipelined loop is not checked here.
"""

from __future__ import annotations

from pipeline_mlir.driver.diagnostics import Diag, Failure, at_function


def checked(emit: str, plans: list) -> bool:
    """Does a build of ``emit`` with the kernel plans ``plans`` run the check (unless the
    build opts out, ``--no-isa-check``)?"""
    return emit in ("asm", "obj", "hsaco") and bool(plans)


def _kernels(module, plans: list) -> list[tuple]:
    """(function, its plans) for every function of ``module`` (parsed assembly) that issues
    an MFMA or that a plan names (:attr:`KernelPlan.function`); a plan that names none
    (not lowered from IR) is the only MFMA function's (an assembly reader's error
    otherwise).  A plan naming a function the assembly lacks is an error."""
    from pipeline_mlir.isa.asm import AsmError

    names = {f.name for f in module.functions}
    missing = sorted({p.function for p in plans if p.function and p.function not in names})
    if missing:
        raise AsmError(f"no function {', '.join(map(repr, missing))} of the pipelined "
                       f"loops in the assembly (functions: {', '.join(sorted(names))})")
    mfma = [f for f in module.functions if any(i.kind == "mfma" for i in f.instrs())]
    own = {f.name: [p for p in plans if p.function == f.name] for f in module.functions}
    unnamed = [p for p in plans if not p.function]
    if unnamed:
        only = module.functions[0] if len(module.functions) == 1 else \
            mfma[0] if len(mfma) == 1 else module.function()
        own[only.name] += unnamed
    return [(f, own[f.name]) for f in module.functions if f in mfma or own[f.name]]


def _kernel_errors(fn, plans: list, ll_text: str) -> list:
    """The error findings of the ISA check of ``fn``: against its plan when one pipelined loop is in it; with the rules that read the
    assembly alone when none is (an MFMA kernel beside the pipelined one) or several (the
    comparison reads one loop's phases; then the operand rules too, ``pipelined``)."""
    from pipeline_mlir.isa.built_check import errors, pipelined_check
    from pipeline_mlir.isa.check import check_without_schedule
    from pipeline_mlir.isa.report import unrolled_note

    if len(plans) != 1:
        return errors(check_without_schedule(fn, pipelined=bool(plans)))
    ran = pipelined_check(fn, plans[0], unrolled_note(fn, ll_text), ll_text)
    return errors(ran.findings, ran.isa)


def check_built(asm: str, plans: list, ll_text: str, module, filename: str) -> None:
    """Raise a :class:`Failure` with, at each kernel's function, an error for every error
    finding of the ISA check of ``asm`` (the code LLVM built of ``ll_text``) against
    ``plans`` (the kernel plans of the pipelined loops lowered)."""
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.isa.asm import parse_asm

    try:
        kernels = _kernels(parse_asm(asm), plans)
    except PipelineError as e:
        raise Failure.at(f"the ISA check cannot hold the code built against the pipelined "
                         f"loop's schedule, so the build is refused: {e}", filename) from None
    diags = []
    for fn, own in kernels:
        def at(message: str) -> Diag:
            return at_function(module, fn.name, message, filename) or \
                Diag("error", message, where=filename)
        try:
            bad = _kernel_errors(fn, own, ll_text)
        except PipelineError as e:
            diags.append(at(f"kernel '{fn.name}': the ISA check cannot hold the code built "
                            f"against the pipelined loop's schedule, so the build is "
                            f"refused: {e}"))
            continue
        text = {i.line: i.text for i in fn.instrs()}
        for kind in dict.fromkeys(f.kind for f in bad):     # one error per rule, in order
            same = [f for f in bad if f.kind == kind]
            f = same[0]
            lines = [n for n in f.lines if n in text]
            where = f" at '{text[lines[0]]}' (assembly line {lines[0]})" if lines else ""
            entries = f" (schedule entries {', '.join(f.entries)})" if f.entries else ""
            phase = "function" if f.phase == "-" else f.phase
            more = f" (and {len(same) - 1} more {kind} findings)" if len(same) > 1 else ""
            diags.append(at(f"kernel '{fn.name}': ISA check: {kind} in the {phase}{entries}"
                            f"{where}: {f.message}{more}"))
    if diags:
        raise Failure(diags)
