"""The compile entry point: :func:`compile` takes :class:`~pipeline_mlir.driver.arguments.
CompileOptions` and returns a :class:`CompileResult` (the output, the diagnostics, the kernel
plans, the ``--emit=report`` report), which ``pipeline-opt`` prints and the emulator, the tuner
and embedding code use as they are::

    from pipeline_mlir.driver import CompileOptions, compile
    result = compile(CompileOptions(schedule="4wave{BM=128 BN=128}", emit="asm"))
    asm = result.checked_output()      # or result.output / result.diagnostics

A schedule emit kind without an input is the core's alone (no MLIR: the default body compiled
and printed in Python); everything else runs the passes (:mod:`pipeline_mlir.driver.job`).
A plain ``--emit=hsaco`` build goes through the store :mod:`pipeline_mlir.driver.code_cache`
may have installed (none by default).
"""

from __future__ import annotations

from pipeline_mlir.driver.arguments import CompileOptions, check_options
from pipeline_mlir.driver.code_cache import compile_shared
from pipeline_mlir.driver.base import (BINARY_EMITS, SCHEDULE_EMITS, UsageError,
                                       kernel_only_option_error, merge_request_error)
from pipeline_mlir.driver.diagnostics import Diag, Failure, Sources, check, expectations, render
from pipeline_mlir.driver.inputs import chunks, kernel_diags, read_source
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.records import field, record


@record
class CompileResult:
    """What a compilation gave.

    ``output``: text (or bytes for ``obj`` / ``hsaco``), None when nothing may be written (a
    failure before any output).  With ``split_input_file`` it is every chunk's output, a failed
    chunk's empty, as mlir-opt prints them.  ``diagnostics``: errors, warnings, remarks (with
    notes), located in ``sources``.  ``plans``: the kernel plan of each pipelined loop
    ``sched-lower-to-rocdl`` lowered; ``report``: the structured ``--emit=report`` report
    (:class:`~pipeline_mlir.isa.report.KernelReport`; also when ``report`` is kept beside
    another emit of the LLVM step); ``stages``: the other outputs kept
    (``CompileOptions.stages``: kind -> what ``--emit`` of that kind writes, from the same
    run of the passes and of LLVM; none when the compilation failed).
    """

    output: object
    diagnostics: list[Diag]
    plans: list = field(default_factory=list)
    report: object = None
    sources: Sources = field(default_factory=Sources)
    stages: dict = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.output is None or any(d.severity == "error" for d in self.diagnostics)

    def checked_output(self):
        """The output; :class:`~pipeline_mlir.errors.PipelineError` with the error
        diagnostics (one per line) when the compilation failed."""
        if self.failed:
            errors = [d for d in self.diagnostics if d.severity == "error"]
            raise PipelineError("\n".join(line for d in errors for line in render(d)))
        return self.output


def compile(options: CompileOptions) -> CompileResult:  # noqa: A001 - the driver's verb
    """Run one compilation (:class:`CompileOptions`).

    Options that do not make a compilation raise :class:`~pipeline_mlir.driver.base.
    UsageError`; everything else that is wrong comes back as diagnostics: the input (and the
    passes' work on it), and a schedule spec that does not parse or compile (one error, its
    :class:`~pipeline_mlir.errors.PipelineError`'s message, naming the option).
    """
    check_options(options)
    return compile_shared(options, _compile_fresh)


def _compile_fresh(options: CompileOptions) -> CompileResult:
    sources = Sources()
    try:
        return _compile(options, sources)
    except Failure as f:
        return CompileResult(None, f.diags, sources=sources)
    except UsageError:
        raise
    except PipelineError as e:  # the schedule's, compiled for its kernel or its printing
        return CompileResult(None, [_error(e)], sources=sources)


def _error(e: PipelineError) -> Diag:
    """``e`` as one error without a location (the tool's, as the command line prints it)."""
    return Diag("error", " ".join(str(e).split()))


def parsed_schedule(options: CompileOptions):
    """The named schedule of ``options`` as the object (its spec text parsed), or None; a
    :class:`Failure` (one error naming the option) for a spec that does not parse."""
    from pipeline_mlir.schedules.registry import parse_pipeline

    if options.schedule is None or not isinstance(options.schedule, str):
        return options.schedule
    try:
        return parse_pipeline(options.schedule)
    except PipelineError as e:
        raise Failure([_error(e)]) from None


def _compile(options: CompileOptions, sources: Sources) -> CompileResult:
    schedule = parsed_schedule(options)
    emit = options.emit_kind
    if not options.has_input and schedule is not None and emit in SCHEDULE_EMITS \
            and not options.needs_passes:
        from pipeline_mlir.driver.printing import format_schedule

        message = kernel_only_option_error(schedule, f"--emit={emit} prints the schedule")
        if message is not None:
            raise Failure.at(message)
        message = merge_request_error(schedule, f"--emit={emit} prints the schedule of the "
                                                f"K tile BK")
        if message is not None:
            raise Failure.at(message)
        return CompileResult(format_schedule(schedule.compile(), emit), [], sources=sources)
    source = read_source(options, schedule)
    if not source.generated:
        sources.add(source.filename, source.text)
    parts = chunks(source.text, options.split_input_file)
    if emit in BINARY_EMITS and len(parts) > 1:
        raise Failure.at(f"--emit={emit} writes one binary file: --split-input-file found "
                         f"{len(parts)} chunks (compile them one at a time)")
    return _join([_compile_chunk(options, source, chunk, offset) for chunk, offset in parts],
                  options.split_input_file, sources)


def _compile_chunk(options: CompileOptions, source, chunk: str | None, offset: int):
    """The :class:`~pipeline_mlir.driver.job.JobOutput` of one chunk of the input, its
    diagnostics checked against its expectations with ``verify_diagnostics``."""
    from pipeline_mlir.driver.job import Job, JobOutput

    try:
        done = Job(options, source.filename, source.schedule, build=compile).run(
            chunk, offset, source.module)
    except Failure as f:
        done = JobOutput(None, f.diags)
    if source.generated:
        done.diagnostics = kernel_diags(done.diagnostics, source.filename, options.spec)
    if options.verify_diagnostics:
        expected, bad = expectations(chunk or "", source.filename, offset)
        done.diagnostics = bad + check(expected, done.diagnostics, source.filename)
        if done.output is None and not done.diagnostics:
            done.output = ""
    if done.output is None or any(d.severity == "error" for d in done.diagnostics):
        done.output = None
    return done


def _join(done: list, split: bool, sources: Sources) -> CompileResult:
    """One result of the chunks' (a failed chunk's output is None)."""
    outputs = [d.output for d in done]
    diags = [diag for d in done for diag in d.diagnostics]
    plans = [p for d in done for p in d.plans]
    report = next((d.report for d in done if d.report is not None), None)
    failed = any(o is None for o in outputs)
    # one chunk (check_options); none when it failed
    stages = {} if failed else {k: v for d in done for k, v in d.stages.items()}
    good = [o for o in outputs if o is not None]
    if any(isinstance(o, bytes) for o in good):
        return CompileResult(None if failed else good[0], diags, plans, report, sources,
                             stages)
    if split:  # as mlir-opt: every chunk's output, a failed one empty
        text = "// -----\n".join(_line_end(o) for o in outputs)
    else:
        text = "".join(_line_end(o) for o in good)
    return CompileResult(text if good or not failed else None, diags, plans, report, sources,
                         stages)


def _line_end(text: str | None) -> str:
    return "" if not text else text if text.endswith("\n") else text + "\n"
