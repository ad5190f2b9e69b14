"""A merged kernel's build again asking LLVM for the waves, judged from the run's own module.

``driver/job.py``'s ``Job._again`` builds a kernel ``merge_k=auto`` merged for time again,
asking LLVM for :data:`~pipeline_mlir.schedules.fourwave.MIN_WAVES_PER_SIMD` waves per SIMD,
where the first build ran too few for its VGPRs (:mod:`pipeline_mlir.driver.merge_confirm`).
The ask changes one thing the passes make: the front end sets ``rocdl.waves_per_eu`` on the
kernel (``frontend/kmerge_factor.py``'s ``ask_merged_waves``), which no pass reads before the
LLVM step's ``sched-extract-device-module`` turns it into the function's
``amdgpu-waves-per-eu``.  So the asked kernel is the run's own module with that attribute
(:func:`ask_on`), taken on to LLVM's code (:func:`continued`) without running the passes
again; :func:`asked_why` judges it as the build again would judge itself.  Where it is
kept, a code emit is that code, and a stage it keeps from before the LLVM step is the
run's own with the attribute set (:func:`asked_stages`); the driver builds it from the input
only where the output is printed before the LLVM step (it shows the attribute), or a stage
kept on the way cannot be had so, giving that build the code already made.
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline_mlir.driver.base import CODE_EMITS, NEEDS_LLVM, PIPELINE_END, SCHEDULE_EMITS


class AskedBuild(NamedTuple):
    """The code of a kernel built asking LLVM for the waves, made from a run's own module
    (:func:`_asked_code`)."""

    out: object                 # the emit's output
    report: object              # its report, or None
    beside: dict                # the outputs kept beside it (the run's stages)
    why: str | None             # why it is built again unmerged, or None: kept


def _defined(module, names: tuple[str, ...]) -> list:
    """The functions (ops named ``names``) ``module`` defines with a body."""
    from pipeline_mlir.dialect.ir_io import walk_ops

    return walk_ops(module.operation, lambda o: o.name in names and len(o.regions) > 0 and
                    len(o.regions[0].blocks) > 0)


def ask_on(module, extracted: bool) -> bool:
    """Make ``module`` (a copy of a run's output) what the run asking for the waves makes,
    and whether it could: it defines one function (the kernel of the merged loop).  Before
    the LLVM step its ``rocdl.waves_per_eu``; after it (``extracted``: the LLVM step's last
    pass consumed that attribute) ``amdgpu-waves-per-eu`` where that pass puts it in the
    function's ``passthrough``, after ``uniform-work-group-size``."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.passes.extract_device_module import passthrough_item
    from pipeline_mlir.schedules.fourwave import MIN_WAVES_PER_SIMD
    from pipeline_mlir.target.gfx950 import WAVES_PER_EU_ATTR

    funcs = _defined(module, ("llvm.func",) if extracted else ("func.func", "gpu.func"))
    if len(funcs) != 1:
        return False
    f = funcs[0]
    with module.context:
        if not extracted:
            if WAVES_PER_EU_ATTR not in f.attributes:
                f.attributes[WAVES_PER_EU_ATTR] = ir.IntegerAttr.get(
                    ir.IntegerType.get_signless(32), MIN_WAVES_PER_SIMD)
            return True
        if "passthrough" not in f.attributes:
            return False
        items = list(ir.ArrayAttr(f.attributes["passthrough"]))
        keys = [passthrough_item(i)[0] for i in items]
        if "amdgpu-waves-per-eu" in keys or "uniform-work-group-size" not in keys:
            return False
        at = keys.index("uniform-work-group-size") + 1
        items.insert(at, ir.ArrayAttr.get([ir.StringAttr.get("amdgpu-waves-per-eu"),
                                           ir.StringAttr.get(str(MIN_WAVES_PER_SIMD))]))
        f.attributes["passthrough"] = ir.ArrayAttr.get(items)
    return True


def _build_errors() -> tuple:
    """What a build of a run's module on to code raises for a kernel it cannot build
    (MLIR's diagnostics, a located failure, LLVM's or the translation's error, a schedule
    option checked on the way to the kernel, a usage error); anything else is a bug, and
    is not taken for a kernel that does not build."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.driver.base import UsageError
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.isa.codegen import CodegenError
    from pipeline_mlir.passes.translate import ToLLVMError

    return ir.MLIRError, Failure, CodegenError, ToLLVMError, ConfigError, UsageError


def continued(job, module, notes: list, isolate: bool,
              ask: bool = False) -> tuple[str | None, bool]:
    """Why the kernel ``job``'s ``module`` (its pipeline's output, already emitted)
    becomes, taken through the rest of the named pipeline and the LLVM step to assembly,
    runs too few waves per SIMD (:func:`~pipeline_mlir.driver.merge_confirm.unconfirmed`),
    or None: kept merged, also when that build fails (the input's own ``--emit=hsaco`` says
    why); and whether it succeeded.  ``ask``: of the kernel asking LLVM for the waves
    (:func:`ask_on`; None, not built, where it cannot say).  The passes of the run are not
    run again; nothing of this build is printed or said."""
    from dataclasses import replace

    from pipeline_mlir.dialect.bindings import passmanager
    from pipeline_mlir.driver.emit import code_timeout, emit_output
    from pipeline_mlir.driver.merge_confirm import unconfirmed
    from pipeline_mlir.passes import registry

    options, chip = job.options, job.options.chip
    # on a copy: the module is the caller's when given (CompileOptions.module), and
    # stays the output it emitted
    copy = module.operation.clone()
    try:    # (the kernel's options are checked only on the way to a kernel: ConfigError)
        done = len(registry.named_pipeline(job.schedule, PIPELINE_END[options.emit_kind],
                                           chip))
        rest = registry.named_pipeline(job.schedule, "llvm", chip)[done:]
        if ask and not ask_on(copy, extracted=not rest):
            return None, False
        pm = passmanager.PassManager("builtin.module", module.context)
        keep = registry.add_elements(pm, rest)
        pm.run(copy)
        del keep            # (the pass objects alive while pm ran)
        asm, _ = emit_output(copy, replace(options, emit="asm", stages=()), job.filename, [],
                             isolate)
    except _build_errors():
        return None, False
    finally:
        copy.erase()
    return unconfirmed("asm", asm, None, notes, code_timeout(job.options)), True


def _asked_code(job, module, plans: list, isolate: bool) -> AskedBuild | None:
    """For a code emit: the :class:`AskedBuild` of ``job``'s kernel built asking for the
    waves, as the build asking would make and judge it; None where it cannot say (the build
    again says it)."""
    from pipeline_mlir.driver.emit import code_timeout, emit_output
    from pipeline_mlir.driver.merge_confirm import unconfirmed

    copy = module.operation.clone()
    try:
        if not ask_on(copy, extracted=True):
            return None
        beside: dict = {}
        out, report = emit_output(copy, job.options, job.filename, plans, isolate,
                                  job.unpipelined_notes(), beside)
        why = unconfirmed(job.options.emit_kind, out, report, plans, code_timeout(job.options))
    except _build_errors():     # (the build again from the input meets it, and says it)
        return None
    finally:
        copy.erase()
    return AskedBuild(out, report, beside, why)


def asked_stages(stages: dict, options, filename: str, context) -> dict | None:
    """The stages a run kept before the LLVM step (those of ``stages``, kind -> text, not
    made by the LLVM step: the code already made gives those) as the build asking for the
    waves makes them, or None where that cannot be said: the schedule kinds as they are
    (the ask is an attribute of the kernel function, which no schedule prints), the
    module's (``adopted``, ``mlir``) parsed again in ``context`` with the ask set
    (:func:`ask_on`) and printed as the run prints a stage.  Those only for MLIR's default
    printing (``--mlir-print-*`` and elision flags unset: the text parses back to the module
    it was printed from) and a module of one kernel function."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.driver.arguments import AsmFormat
    from pipeline_mlir.driver.emit import stage_output

    asked = {}
    for kind, text in stages.items():
        if kind in NEEDS_LLVM:
            continue
        if kind in SCHEDULE_EMITS:
            asked[kind] = text
            continue
        if kind not in ("adopted", "mlir") or options.asm_format != AsmFormat():
            return None
        try:
            parsed = ir.Module.parse(text, context)
        except ir.MLIRError:
            return None
        if not ask_on(parsed, extracted=False):
            return None
        asked[kind] = stage_output(parsed.operation, options, kind, filename, verified=True)
    return asked


def asked_why(job, module, plans: list, source: str, isolate: bool):
    """(why ``job``'s kernel, built again asking LLVM for the waves, would in turn be built
    again unmerged, or None; for a code emit, what that build made: :func:`_asked_code`,
    or None).  Judged as that build judges itself: a code emit on the code of its emit kind,
    another on the build a store holds already, where the run confirmed its own merge on it
    (``job.confirm_on == "store"``: ``merge_confirm.confirmed_by_build``), or on the run's
    own module taken on to assembly (:func:`continued`, the verdict kept for the process:
    ``merge_confirm.verdict``)."""
    from pipeline_mlir.driver.merge_confirm import confirmed_by_build, module_notes, verdict

    options = job.options
    if options.emit_kind in CODE_EMITS:
        built = _asked_code(job, module, plans, isolate)
        return (None if built is None else built.why), built
    if job.confirm_on == "store":
        return confirmed_by_build(options, source, job.build, True), None
    notes = plans or module_notes(module)
    return verdict(options, source,
                   lambda: continued(job, module, notes, isolate, ask=True), True), None
