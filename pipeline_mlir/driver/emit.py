"""The output of one compilation's emit kind from the module its passes produced.

:func:`emit_output` is what ``--emit`` writes: the module printed (``mlir``), its schedules
(the schedule kinds), or the LLVM step's LLVM IR, assembly, object, code object or report,
made from one translation and one code generation; the code of a pipelined kernel passes the
ISA gate (:mod:`pipeline_mlir.driver.isa_gate`) and the wait-state check
(:mod:`pipeline_mlir.driver.wait_check`) first.  Errors of the translation and of LLVM are
located at the ops or the function they name.  The run of the passes itself is
:mod:`pipeline_mlir.driver.job`'s; MLIR, LLVM code generation and the ISA report are imported
by the functions that use them.
"""

from __future__ import annotations

from pipeline_mlir.driver.arguments import CompileOptions
from pipeline_mlir.driver.base import CODE_EMITS, NEEDS_LLVM, SCHEDULE_EMITS
from pipeline_mlir.driver.diagnostics import Diag, Failure, at_function, from_location
from pipeline_mlir.driver.printing import format_schedule


def emit_output(module, options: CompileOptions, filename: str, plans: list,
                isolate: bool = True, unpipelined: list[str] = (), beside: dict | None = None):
    """(the output of ``options.emit_kind`` for the module the passes produced, the
    ``--emit=report`` report or None); ``plans``: the kernel plans of the run; ``isolate``:
    translate to LLVM IR in a child process (bounded by ``options.codegen_timeout``);
    ``unpipelined``: why the loops the front end left as written were (the report's).
    ``beside``: where the outputs of the LLVM step's other kinds in ``options.stages`` go
    (kind -> what ``--emit`` of it writes), from the same translation and code generation;
    the report (the second item) is then also the one a kept ``report`` prints."""
    emit = options.emit_kind
    if emit in SCHEDULE_EMITS or emit == "mlir":
        return stage_output(module.operation, options, emit, filename), None
    ll = _llvm_ir(module, options, filename, isolate)
    kinds = [emit] + [k for k in options.stages if k in NEEDS_LLVM and beside is not None]
    outs = {"llvm": ll}
    if any(k in CODE_EMITS for k in kinds):
        from pipeline_mlir.isa.codegen import CodegenError

        try:
            outs.update(_code_outputs(module, ll, options, kinds, plans, filename,
                                      unpipelined))
        except CodegenError as e:
            raise located_llvm_error(e, module, filename) from None
    if beside is not None:
        beside.update({k: outs[k] for k in kinds[1:]})
    return outs[emit], outs.get(_REPORT)


#: the key of :func:`_code_outputs`'s report object (a :class:`~pipeline_mlir.isa.report.
#: KernelReport`) beside the outputs by kind
_REPORT = "report-object"


#: MLIR's second error at an op it cannot translate, after the one that says why
_TRANSLATION_FAILED = "LLVM Translation failed for operation"


def code_timeout(options: CompileOptions) -> float:
    """The seconds a child of the LLVM step may take: ``--codegen-timeout``, else the
    workers' default (:data:`pipeline_mlir.isa.worker.DEFAULT_TIMEOUT`)."""
    from pipeline_mlir.isa.worker import DEFAULT_TIMEOUT

    return options.codegen_timeout or DEFAULT_TIMEOUT


def _llvm_ir(module, options: CompileOptions, filename: str, isolate: bool) -> str:
    """The module's LLVM IR; a :class:`Failure` at the ops the translation (or the checks
    before it) names, or at the input when it names none (a child that timed out, crashed
    or could not start)."""
    from pipeline_mlir.passes.translate import ChildTranslationError, ToLLVMError, \
        translate_to_llvm_ir

    try:
        return translate_to_llvm_ir(module, isolated=isolate, timeout=code_timeout(options))
    except ToLLVMError as e:
        if not (e.located or isinstance(e, ChildTranslationError)):
            raise
        diags: list[Diag] = []
        located = [x for x in e.located if not x[1].startswith(_TRANSLATION_FAILED)]
        for severity, message, loc in located or e.located:
            d = from_location(severity, message, loc, filename)
            if severity == "note" and diags:
                diags[-1].notes.append(d)
            else:
                diags.append(d)
        raise Failure(diags or [Diag("error", str(e), where=filename)]) from None


def _defined_functions(module) -> list[str]:
    """The symbols of the functions ``module`` defines (with a body: the kernels and their
    callees, not the declarations), in order; none without a module."""
    from pipeline_mlir.dialect.ir_io import walk_ops

    if module is None:
        return []
    return [str(o.attributes["sym_name"]).strip('"') for o in walk_ops(
        module.operation, lambda o: o.name.endswith("func") and "sym_name" in o.attributes
        and len(o.regions) > 0 and len(o.regions[0].blocks) > 0)]


def located_llvm_error(err, module, filename: str) -> Exception:
    """LLVM's error ``err`` at the function it names (a :class:`Failure` at that function's
    location); a step that did not finish or start (the whole module's) at the one function
    the module defines, naming it, or at the input naming each of them; or ``err`` itself
    when it names none of the module's functions."""
    from pipeline_mlir.isa.codegen import CodegenStepError

    if isinstance(err, CodegenStepError):
        names = _defined_functions(module)
        text = (f"function{'s' * (len(names) > 1)} {', '.join(repr(n) for n in names)}: "
                if names else "") + str(err)
        d = at_function(module, names[0], text, filename) if len(names) == 1 else None
        return Failure([d]) if d is not None else Failure.at(text, filename)
    d = at_function(module, err.function, str(err), filename)
    return err if d is None else Failure([d])


def _code_outputs(module, ll: str, options: CompileOptions, kinds: list[str], plans: list,
                  filename: str, unpipelined: list[str] = ()) -> dict:
    """The outputs of the ``kinds`` LLVM's code generation makes (asm, report, obj, hsaco)
    among ``kinds``, by kind, from one code generation (``both``: the assembly and the
    object of one optimized module) and one link, and the report object
    (:data:`_REPORT`) when a report is asked; code issuing a 16-pass XDL MFMA has its wait
    states checked on every path first (:mod:`pipeline_mlir.driver.wait_check`), and the
    code of a pipelined kernel its ISA check's errors when a kind of machine code is asked
    (:mod:`pipeline_mlir.driver.isa_gate`; not with ``--no-isa-check``): an ``obj`` or
    ``hsaco`` build then makes the assembly beside the object."""
    from pipeline_mlir.driver.isa_gate import check_built, checked
    from pipeline_mlir.driver.wait_check import check_wait_states, needs_check
    from pipeline_mlir.isa.codegen import compile_llvm_ir, link_hsaco

    code = [k for k in kinds if k in CODE_EMITS]
    timeout = code_timeout(options)
    check = needs_check(ll)
    gate = options.isa_check and any(checked(k, plans) for k in code)
    want_asm = "asm" in code or "report" in code or check or gate
    want_obj = any(k != "asm" for k in code)
    asm = obj = None
    said: list[str] = []        # a module built twice: which build was kept (codegen._kept)
    if want_asm and want_obj:
        asm, obj = compile_llvm_ir(ll, mcpu=options.chip, kind="both", timeout=timeout,
                                   said=said)
    elif want_asm:
        asm = compile_llvm_ir(ll, mcpu=options.chip, kind="asm", timeout=timeout, said=said)
    else:
        obj = compile_llvm_ir(ll, mcpu=options.chip, kind="obj", timeout=timeout, said=said)
    if check:
        check_wait_states(asm, module, filename)
    if gate:
        check_built(asm, plans, ll, module, filename)
    outs = {"asm": asm, "obj": obj}
    if "hsaco" in code or "report" in code:
        outs["hsaco"] = link_hsaco(obj, timeout=timeout)
    if "report" in code:  # resources, occupancy, counts, ISA check (isa/report.py)
        report = _kernel_report(asm, outs["hsaco"], plans, ll, module, filename)
        report.unpipelined = list(unpipelined)
        report.allocation_note = "; ".join(said)
        outs["report"], outs[_REPORT] = report.format(), report
    return {k: v for k, v in outs.items() if k in code or k == _REPORT}


def _kernel_report(asm: str, hsaco: bytes, plans: list, ll: str, module, filename: str):
    """The ``--emit=report`` report of the module's one kernel; a :class:`Failure` at its
    second kernel when it has several (the report is of one kernel)."""
    from pipeline_mlir.isa.asm import FunctionCountError
    from pipeline_mlir.isa.report import kernel_report

    try:
        return kernel_report(asm, hsaco, plans[0] if len(plans) == 1 else None, ll_text=ll)
    except FunctionCountError as e:
        if len(e.names) < 2:        # (none: parse_asm refuses assembly without a function)
            raise
        message = (f"--emit=report reports on one kernel, and the module has "
                   f"{len(e.names)} ({', '.join(e.names)}): compile each in a module of "
                   f"its own")
        raise Failure([at_function(module, e.names[1], message, filename) or
                       Diag("error", message, where=filename)]) from None


def stage_output(op, options: CompileOptions, emit: str, filename: str,
                 verified: bool = False) -> str:
    """What ``--emit=EMIT`` writes for the module ``op`` (an ``ir.Operation``) when
    ``emit`` is a kind of text the passes' IR gives (``mlir``, the schedule kinds): the
    output of ``--emit`` itself, and of a stage kept on the way to a later one (``adopted``:
    the module printed as ``mlir``).  ``verified``: the module was verified since its last
    change (a stage kept between two passes of a PassManager, which verifies after each
    pass), so the printer does not verify it again (MLIR's printer verifies first, to fall
    back to the generic form on an invalid op: a quarter of the printing's CPU, measured)."""
    if emit in ("mlir", "adopted"):
        return op.get_asm(**options.asm_format.options(), assume_verified=verified)
    return _schedule_output(op, emit, filename)


def _schedule_output(op, emit: str, filename: str) -> str:
    from pipeline_mlir.dialect.ir_io import IRError, compiled_from_ir, pipeline_ops, \
        read_pipeline

    pops = pipeline_ops(op)
    if not pops:
        from pipeline_mlir.frontend.marks import whole_note, whole_remainders

        left = whole_remainders(op)     # (loops the front end runs as written: why)
        if left:
            raise Failure([from_location(
                "error", f"--emit={emit}: no schedule to print, the K-loop is not pipelined: "
                         f"{whole_note(left[0]).removeprefix('not pipelined: ')}",
                left[0].location, filename)])
        raise Failure.at(f"--emit={emit}: the output has no 'sched.pipeline' op", filename)
    try:
        return "".join(format_schedule(compiled_from_ir(read_pipeline(p)), emit) for p in pops)
    except IRError as e:
        raise Failure([from_location("error", f"--emit={emit}: {e}", e.op.location,
                                     filename)]) from None
