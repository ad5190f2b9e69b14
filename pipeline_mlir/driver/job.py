"""One compilation through MLIR: parse the input (or start from an empty module), run the pass
pipeline, produce the output of the emit kind.

The pass pipeline is the named pipeline of the schedule (:func:`pipeline_mlir.passes.registry.
named_pipeline`, as far as the emit kind needs) or the ``--pass-pipeline`` text; the LLVM step
follows for the code kinds; :mod:`pipeline_mlir.driver.emit` makes the output.  MLIR and the
passes are imported here, by the functions that use them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from pipeline_mlir.driver.arguments import CompileOptions
from pipeline_mlir.driver.base import CODE_EMITS, NEEDS_LLVM, PIPELINE_END, print_stderr
from pipeline_mlir.driver.diagnostics import Diag, Failure, from_location, from_mlir
from pipeline_mlir.driver.emit import code_timeout, emit_output, stage_output
from pipeline_mlir.driver.inputs import KERNEL_SOURCE, check_before_parse
from pipeline_mlir.driver.pass_manager import PrintingPM, bad_element, enable_printing


@dataclass
class JobOutput:
    """What one input (or one split chunk) gave: the output (None: nothing may be written),
    the diagnostics, the kernel plans the pipeline lowered, the ``--emit=report`` report and
    the outputs of the stages kept on the way (``CompileOptions.stages``)."""

    output: object
    diagnostics: list[Diag]
    plans: list = field(default_factory=list)
    report: object = None
    stages: dict = field(default_factory=dict)


class Job:
    """One run of the passes over one input (or one split chunk)."""

    def __init__(self, options: CompileOptions, filename: str, schedule=None,
                 end: str | None = None, build=None, ask_waves: bool = False) -> None:
        self.options = options
        #: whether a loop ``merge_k=auto`` merged for time asks LLVM for the waves per SIMD
        #: the merge was allowed on (``frontend/kmerge.py``'s ``asking_waves``): the build
        #: again of a kernel that ran too few without the ask (:meth:`_again`)
        self.ask_waves = ask_waves
        #: the code of a build asking for the waves made already from the first run's module
        #: (``merge_ask.AskedBuild``, :meth:`_again`), or None
        self.built = None
        #: ``api.compile`` (given by it: this module cannot import it), which builds the
        #: ``--emit=hsaco`` kernel an emit of no machine code confirms a merge on; None: no
        #: such confirmation (a run that ends before any emit)
        self.build = build
        #: what an emit of no machine code confirms its merge on (:meth:`_unbuilt`):
        #: ``"own"``, its own module taken on to LLVM's code after the emit (until a store
        #: that shares hsaco builds settles it before the emit); ``"store"``, the build
        #: store's hsaco build of the input, held already; None, nothing (no merge)
        self.confirm_on: str | None = "own"
        self.filename = filename
        self.schedule = schedule  # the named schedule (NamedSchedule) or None
        #: how far the named pipeline goes (``registry.PIPELINE_ENDS``; None: the emit kind's)
        self.end = end
        self.keep = []  # pass objects must outlive the PassManager
        #: the outputs of the stages kept on the way (``CompileOptions.stages``), and a
        #: Failure one of them met
        self.stages: dict = {}
        self.stage_failure: Failure | None = None

    def build_pm(self, ctx):
        from pipeline_mlir.dialect.bindings import passmanager
        from pipeline_mlir.passes import registry

        options = self.options
        real = passmanager.PassManager("builtin.module", ctx)
        pm = PrintingPM(real, options, self.keep)
        emit = options.emit_kind
        if self.schedule is not None:
            items = registry.named_pipeline(self.schedule, self.end or PIPELINE_END[emit],
                                            options.chip)
        else:
            items = registry.pipeline_elements(options.pass_pipeline or "")
            if emit in NEEDS_LLVM:
                items += _emit_llvm_step(emit, options.chip)
        after = self._stage_ends() if self.schedule is not None and options.stages else {}
        for k, (text, obj) in enumerate(items, 1):
            for kind in after.get(k - 1, ()):    # a pass that records a kept stage's output
                pm.add(self._stage_pass(kind), name=f"keep-{kind}")
            if obj is not None:
                pm.add(obj, name=text)
                continue
            try:
                pm.add(text)
            except ValueError as e:
                raise Failure.at(bad_element(text, e)) from None
        pm.check_requests()
        enable_printing(real, options, len(pm.names))
        return real

    def _stage_ends(self) -> dict[int, list[str]]:
        """The kept stages (``CompileOptions.stages``) by the number of the named
        pipeline's passes after which each is made."""
        from pipeline_mlir.driver.arguments import STAGE_ENDS
        from pipeline_mlir.passes import registry

        after: dict[int, list[str]] = {}
        for kind in self.options.stages:
            if kind in NEEDS_LLVM:      # made by the LLVM step (emit_output), not a pass
                continue
            end = len(registry.named_pipeline(self.schedule, STAGE_ENDS[kind],
                                              self.options.chip))
            after.setdefault(end, []).append(kind)
        return after

    def _stage_pass(self, kind: str):
        def keep(op, pass_):
            try:
                # (the PassManager verified the module after the pass before this one)
                self.stages[kind] = stage_output(op, self.options, kind, self.filename,
                                                 verified=True)
            except Failure as f:
                self.stage_failure = self.stage_failure or f
        return keep

    def lowered_plans(self) -> list:
        """The kernel plans ``sched-lower-to-rocdl`` built in the run (one per pipelined
        loop)."""
        # the pass's module loads only with the pass (passes/registry.py): not loaded, no plans
        lowering = sys.modules.get("pipeline_mlir.passes.lower_to_rocdl")
        if lowering is None:
            return []
        return [plan for obj in self.keep if isinstance(obj, lowering.LowerToROCDL)
                for plan in obj.plans]

    def unpipelined_notes(self) -> list[str]:
        """Why ``sched-adopt-loop`` left each loop too short to pipeline as written
        (``frontend/tails.py``'s ``unpipelined_note``)."""
        adopt = sys.modules.get("pipeline_mlir.passes.adopt_loop")
        if adopt is None:
            return []
        return [note for obj in self.keep if isinstance(obj, adopt.AdoptLoop)
                for note in obj.unpipelined]

    def unpipelined_warnings(self) -> list[Diag]:
        """A warning at each loop ``sched-adopt-loop`` left as written, saying why: the
        kernel given back is not pipelined, which an emit other than the report (which says
        it) and the schedule kinds (an error: no schedule) would otherwise not say; and one
        at each loop it pipelined with its K tile's fragments over the budget of a lane's
        registers, the split refused (``frontend/fragment_budget.py``: LLVM may spill)."""
        adopt = sys.modules.get("pipeline_mlir.passes.adopt_loop")
        if adopt is None or self.options.emit_kind == "report":
            return []
        return [from_location("warning", f"sched-adopt-loop: the K-loop is not pipelined: "
                                         f"{note.removeprefix('not pipelined: ')}",
                              loc, self.filename)
                for obj in self.keep if isinstance(obj, adopt.AdoptLoop)
                for note, loc in zip(obj.unpipelined, obj.unpipelined_at)] + [
            from_location("warning", f"sched-adopt-loop: the K step is {note}", loc,
                          self.filename)
            for obj in self.keep if isinstance(obj, adopt.AdoptLoop)
            for note, loc in obj.over_budget]

    def run(self, text: str | None, line_offset: int = 0, module=None) -> JobOutput:
        """Parse ``text`` (or take ``module``, parsed from it), run the passes, emit; an
        error diagnostic means failure."""
        from pipeline_mlir.dialect.bindings import build_context

        if module is not None:
            return self._run_in(module.context, text, line_offset, module)
        # (a context whose threading the run turns off is not handed on: build_context)
        with build_context() as ctx:
            return self._run_in(ctx, text, line_offset, None)

    def _run_in(self, ctx, text, line_offset, module) -> JobOutput:
        from pipeline_mlir.dialect.bindings import ir

        diags: list[Diag] = []
        if self.options.disable_threading:
            ctx.enable_multithreading(False)

        def collect(d):  # warnings and remarks; errors come with the MLIRError
            diags.append(from_mlir(d, self.filename))
            return True

        if module is None and text is not None:
            check_before_parse(text, self.filename, line_offset)
        handler = ctx.attach_diagnostic_handler(collect)
        try:
            try:
                if module is None:
                    module = ir.Module.parse("\n" * line_offset + text, ctx) \
                        if text is not None else ir.Module.create(ir.Location.unknown(ctx))
            except ir.MLIRError as e:
                return JobOutput(None, diags + [from_mlir(d, self.filename)
                                                for d in e.error_diagnostics])
            if self.schedule is not None and text is not None \
                    and not list(module.body.operations):
                return JobOutput(None, diags + [Diag(
                    "error", f"the input has no operations: nothing to pipeline (without "
                             f"an input file, --pipeline='{self.options.spec}' compiles the "
                             f"schedule's default body)", where=self.filename)])
            pm = self.build_pm(ctx)
            # (a module given unprinted, kept as text for a build again unmerged:
            # driver/merge_confirm.py)
            pristine = module.operation.get_asm(enable_debug_info=True) \
                if text is None and list(module.body.operations) and self._confirms() \
                else None
            # (read from the input: also for the code a confirmation builds, merge_ask.py)
            isolate = (self.options.emit_kind in NEEDS_LLVM or self._confirms()) \
                and self._isolate(module)
            try:
                with self._asking():
                    pm.run(module.operation)
            except ir.MLIRError as e:
                return JobOutput(None, diags + [from_mlir(d, self.filename)
                                                for d in e.error_diagnostics])
            # (MLIR prints a PassManager's --mlir-timing report when it is destroyed: now,
            # before a run again unmerged prints the label and its own, _unmerged)
            del pm
            if self.stage_failure is not None:
                raise self.stage_failure
            plans = self.lowered_plans()
            source = text if pristine is None else pristine
            if (why := self._unbuilt(module, plans, source, isolate, shared=True)) is not None:
                return self._again(why, text, line_offset, pristine,
                                   (module, plans, isolate, list(diags)))
            out, report = self._emit(module, plans, isolate)
            said = len(diags)       # (what the run goes on to say confirming is not its own)
            if (why := self._unconfirmed(out, report, plans) or
                    self._unbuilt(module, plans, source, isolate, shared=False)) is not None:
                return self._again(why, text, line_offset, pristine,
                                   (module, plans, isolate, diags[:said]))
            del diags[said:]
            return JobOutput(out, diags + self.unpipelined_warnings(), plans, report,
                             self.stages)
        finally:
            handler.detach()

    def _confirms(self) -> bool:
        """Whether this run's kernel has ``merge_k=auto``'s merge confirmed on built code
        (:mod:`pipeline_mlir.driver.merge_confirm`): a named schedule's whole pipeline."""
        return self.schedule is not None and self.end is None

    def _unbuilt(self, module, plans, source, isolate: bool, shared: bool) -> str | None:
        """For an emit that builds no machine code (``mlir``, ``llvm``, the schedule
        kinds): why ``--emit=hsaco`` of the same input (``source``) builds its kernel
        again unmerged (a loop ``merge_k=auto`` merged for time, too few waves per SIMD
        built), or None; so every emit of an input gives the one kernel.  ``shared``:
        asked, before the emit, of the hsaco build a build store shares and holds already
        (:func:`~pipeline_mlir.driver.merge_confirm.held_by_store`: :attr:`confirm_on`);
        else, after it, where no store holds one, of a copy of this run's own module taken
        on to LLVM's code (:func:`~pipeline_mlir.driver.merge_ask.continued`; ``isolate``:
        its translation to LLVM IR in a child process, :meth:`_isolate` of the input),
        which runs no pass of this run again."""
        if not self._confirms() or self.options.emit_kind in CODE_EMITS or source is None \
                or self.build is None:
            return None
        from pipeline_mlir.driver.code_cache import shares
        from pipeline_mlir.driver.merge_ask import continued
        from pipeline_mlir.driver.merge_confirm import confirmed_by_build, held_by_store, \
            merged_by_auto, module_notes, verdict

        if shared and not shares("hsaco") or not (shared or self.confirm_on == "own"):
            return None
        notes = plans or module_notes(module)
        merged = merged_by_auto(notes)
        if shared:
            self.confirm_on = None if not merged else \
                "store" if held_by_store(self.options, source) else "own"
            return confirmed_by_build(self.options, source, self.build, self.ask_waves) \
                if self.confirm_on == "store" else None
        if not merged:
            return None
        return verdict(self.options, source,
                       lambda: continued(self, module, notes, isolate),
                       self.ask_waves)

    def _unconfirmed(self, out, report, plans) -> str | None:
        """Why the built kernel of a loop ``merge_k=auto`` merged for time runs too few
        waves per SIMD (:mod:`pipeline_mlir.driver.merge_confirm`), or None."""
        if not self._confirms() or self.options.emit_kind not in CODE_EMITS:
            return None
        if self.built is not None:      # (judged as it was built: _again)
            return self.built.why
        from pipeline_mlir.driver.merge_confirm import unconfirmed

        return unconfirmed(self.options.emit_kind, out, report, plans,
                           code_timeout(self.options))

    def _asking(self):
        """The front end's ask for the waves on (:attr:`ask_waves`) or off, for this run's
        passes (a nested build, a confirmation's, sets its own:
        :func:`~pipeline_mlir.schedules.fourwave.asking_waves`)."""
        from pipeline_mlir.schedules.fourwave import asking_waves

        return asking_waves(self.ask_waves)

    def _again(self, why: str, text, line_offset: int, pristine, run) -> JobOutput:
        """The input built again because the kernel of a loop ``auto`` merged for time was
        not confirmed (``why``): merged, asking LLVM for the waves per SIMD, where it ran too
        few for its VGPRs alone and did not ask already
        (:func:`~pipeline_mlir.driver.merge_confirm.wants_ask`; that build is confirmed in
        turn, and built again unmerged if LLVM spills to meet the ask); else unmerged
        (:meth:`_unmerged`).  ``run``: this run's (module, plans, isolate, diagnostics).
        Where this run prints no IR dumps, timings or pipeline, the build asking is judged
        first on this run's own module (:func:`~pipeline_mlir.driver.merge_ask.asked_why`):
        where it is kept, a code emit is this run's with the code already made, the stages
        it keeps from before the LLVM step this run's with the ask set
        (:func:`~pipeline_mlir.driver.merge_ask.asked_stages`); run from the input where
        those cannot be had so (another emit, or another printing than MLIR's default)."""
        from dataclasses import replace

        from pipeline_mlir.driver.merge_ask import asked_stages, asked_why
        from pipeline_mlir.driver.merge_confirm import (asked_note, merged_by_auto, unasked,
                                                        wants_ask)

        module, plans, isolate, said = run
        if self.ask_waves or not wants_ask(why):
            return self._unmerged(why, text, line_offset, pristine, plans)
        options, built = self.options, None
        if not (options.print_ir.any or options.timing or options.dump_pipeline):
            later, built = asked_why(self, module, plans, text if pristine is None
                                     else pristine, isolate)
            if later is not None:
                return self._unmerged(later, text, line_offset, pristine, plans)
        early = None if built is None else asked_stages(self.stages, options, self.filename,
                                                        module.context)
        if early is not None:
            done = JobOutput(built.out, said + self.unpipelined_warnings(), list(plans),
                             built.report, {**early, **built.beside})
        else:
            self._label_dumps(ASKED_DUMPS, unasked(why))
            again = Job(options, self.filename, self.schedule, self.end, self.build,
                        ask_waves=True)
            again.built = built
            done = again.run(text, line_offset) if pristine is None else again.run(pristine)
        done.plans = [replace(p, merge_note=asked_note(p.merge_note, why))
                      if merged_by_auto([p]) else p for p in done.plans]
        if done.report is not None and merged_by_auto([done.report.merge_note or ""]):
            self._report_note(done, asked_note(done.report.merge_note, why))
        return done

    def _emit(self, module, plans: list, isolate: bool):
        """(the output, the report or None) of this run's ``module``: :func:`emit_output`,
        or the code :attr:`built` already made (the outputs beside among the stages)."""
        if self.built is None:
            return emit_output(module, self.options, self.filename, plans, isolate,
                               self.unpipelined_notes(), self.stages)
        self.stages.update(self.built.beside)
        return self.built.out, self.built.report

    def _label_dumps(self, how: str, why: str) -> None:
        """What this run printed on stderr (IR dumps, timings, the pass pipeline) labelled
        as not the kernel emitted, before a run again prints its own: it was built again
        ``how`` (:data:`REBUILT_DUMPS`, :data:`ASKED_DUMPS`) because ``why``."""
        options = self.options
        kernel = "the merged kernel" + (" built without the ask" if how == ASKED_DUMPS else "")
        if options.print_ir.any or options.timing or options.dump_pipeline:
            print_stderr(f"// -----// {how}: {why}; the IR dumps and timings above are of "
                         f"{kernel}, which is not emitted //----- //")

    def _report_note(self, done: JobOutput, note: str) -> None:
        """``done``'s report (emitted, or kept beside) saying the merge ``note``."""
        done.report.merge_note = note
        if self.options.emit_kind == "report":
            done.output = done.report.format()
        else:
            done.stages["report"] = done.report.format()

    def _unmerged(self, why: str, text, line_offset: int, pristine, plans) -> JobOutput:
        """The input built again with ``merge_k=false``, its plans (and report) saying
        ``why`` where the first build's merged (``plans``).  What the first run printed on
        stderr (IR dumps, timings, the pass pipeline) is labelled as not the kernel emitted
        by a line before the run again prints its own (:data:`REBUILT_DUMPS`)."""
        from dataclasses import replace

        from pipeline_mlir.driver.merge_confirm import declined_note, merged_by_auto, unmerged

        note = declined_note(why)
        self._label_dumps(REBUILT_DUMPS, note)
        again = Job(self.options, self.filename, unmerged(self.schedule), self.end, self.build)
        done = again.run(text, line_offset) if pristine is None else again.run(pristine)
        done.plans = [replace(p, merge_note=note) if merged_by_auto([old]) else p
                      for p, old in zip(done.plans, plans)] + done.plans[len(plans):]
        if done.report is not None:       # (the report's, emitted or kept beside)
            self._report_note(done, note)
        return done

    def _isolate(self, module) -> bool:
        """Whether the translation to LLVM IR runs in a child process: when the IR may hold
        LLVM-dialect ops that did not come from the LLVM step's conversions or the driver's
        own complete kernel (a pass list of the user's, LLVM ops in the user's input: MLIR's
        translation crashes the process on one it cannot translate), or when --emit=llvm is
        given a --codegen-timeout to keep."""
        from pipeline_mlir.dialect.ir_io import walk_ops

        if self.schedule is None or (self.options.emit_kind == "llvm" and
                                     self.options.codegen_timeout is not None):
            return True
        if self.filename.startswith(KERNEL_SOURCE):
            return False
        return bool(walk_ops(module.operation, lambda o: o.name.startswith("llvm.")))


#: how the line starts that pipeline-opt prints on stderr between the IR dumps (timings,
#: pass pipeline) of a run whose kernel is built again unmerged and those of the run again
#: (:meth:`Job._unmerged`): the dumps after it are of the kernel emitted
REBUILT_DUMPS = "built again with merge_k=false"
#: the same, of a kernel built again merged, asking LLVM for the waves (:meth:`Job._again`)
ASKED_DUMPS = "built again asking LLVM for the waves per SIMD"


def _emit_llvm_step(emit: str, chip: str) -> list:
    """The LLVM step --emit runs after a --pass-pipeline; a Failure naming the flags when it
    cannot be had (the pipeline's own sched-to-llvm{chip=...} set another chip: one process
    compiles for one)."""
    from pipeline_mlir.passes import registry
    from pipeline_mlir.passes.translate import ToLLVMError

    try:
        return registry.llvm_step(chip)
    except ToLLVMError as e:
        raise Failure.at(f"--emit={emit} runs the LLVM step for --mcpu={chip} after the "
                         f"--pass-pipeline: {e}") from None
