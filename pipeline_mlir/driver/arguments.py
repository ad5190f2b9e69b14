"""The typed arguments of :func:`pipeline_mlir.driver.api.compile`, and their checks.

:class:`CompileOptions` is one compilation as ``pipeline-opt`` runs it: the schedule
(``--pipeline``, a spec or the schedule object) or a pass pipeline, the input, the emit kind,
the chip and the mlir-opt style options (:class:`PrintIR`, :class:`AsmFormat`).  :func:`check_options` says
what does not make sense as a :class:`~pipeline_mlir.driver.base.UsageError`, before
anything runs.  No MLIR and nothing heavy here: the command line builds these at start-up.
"""

from __future__ import annotations

from pipeline_mlir.driver.base import CHIPS, EMIT_KINDS, NEEDS_LLVM, PIPELINE_END, \
    SCHEDULE_EMITS, UsageError
from pipeline_mlir.records import field, record
from pipeline_mlir.target import DEFAULT_CHIP
from pipeline_mlir.options import suggest


@record(frozen=True)
class AsmFormat:
    """How IR is printed, in the output and the dumps (mlir-opt's ``--mlir-print-*`` and
    elision flags; pretty locations and the local scope: the output and the named dumps, which
    MLIR's own all-pass printer has no switch for)."""

    elide_elementsattrs_if_larger: int | None = None
    generic: bool = False
    debuginfo: bool = False
    pretty_debuginfo: bool = False
    local_scope: bool = False

    def options(self) -> dict:
        """Keyword arguments of ``Operation.get_asm``."""
        return {"large_elements_limit": self.elide_elementsattrs_if_larger,
                "print_generic_op_form": self.generic, "enable_debug_info": self.debuginfo,
                "pretty_debug_info": self.pretty_debuginfo, "use_local_scope": self.local_scope}


@record(frozen=True)
class PrintIR:
    """mlir-opt's IR dumps on stderr while the passes run: before / after every pass, before /
    after the named passes (or nested pipeline anchors such as ``func.func``), after a pass
    that failed."""

    before_all: bool = False
    after_all: bool = False
    before: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    after_failure: bool = False

    @property
    def any(self) -> bool:
        return bool(self.before_all or self.after_all or self.before or self.after
                    or self.after_failure)


@record(frozen=True)
class CompileOptions:
    """One compilation.

    ``schedule``: the named schedule (``--pipeline``), as spec text (``'4wave{BM=128}'``) or
    the schedule object (:func:`pipeline_mlir.schedules.registry.parse_pipeline`'s).
    ``pass_pipeline``: an explicit pass pipeline instead.  The input is ``input`` (a path,
    ``-`` for standard input) or ``text`` (named ``filename`` in messages), or ``module``:
    an ``ir.Module`` already parsed from ``text`` (its context is used, nothing is parsed
    again; the passes run on it in place, and it is left as they made it: an emit of no
    machine code that confirms a ``merge_k=auto`` merge takes a copy on to LLVM's code);
    with none of them and a schedule, the schedule's default body (or, for a code
    emit kind, its complete GEMM kernel).  ``emit`` None: ``schedule`` without an input,
    else ``mlir``.
    """

    schedule: object = None  # str, a NamedSchedule or None
    pass_pipeline: str | None = None
    input: str | None = None
    text: str | None = None
    filename: str = "<input>"
    module: object = None  # an ir.Module
    emit: str | None = None
    chip: str = DEFAULT_CHIP
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_ir: PrintIR = field(default_factory=PrintIR)
    asm_format: AsmFormat = field(default_factory=AsmFormat)
    #: the pass manager's: one thread, the time of each pass, the pipeline printed first
    disable_threading: bool = False
    timing: bool = False
    dump_pipeline: bool = False
    #: seconds each child-process step may take (the translation to LLVM IR when it runs in
    #: one, LLVM's code generation, the linker); None: :data:`pipeline_mlir.isa.worker.
    #: DEFAULT_TIMEOUT` (``--codegen-timeout``); with ``emit="llvm"`` the translation then
    #: runs in a child
    codegen_timeout: float | None = None
    #: whether a code build (``asm``, ``obj``, ``hsaco``) of pipelined kernels is held to
    #: the ISA check's errors (:mod:`pipeline_mlir.driver.isa_gate`); False:
    #: ``--no-isa-check``
    isa_check: bool = True
    #: outputs of other stages of the same named pipeline kept on the way to ``emit``
    #: (``adopted``: the MLIR after ``sched-adopt-loop``; ``schedule``, ``schedule-json``
    #: after the phases; ``mlir`` after the lowering) or made beside it by the same LLVM
    #: step (``llvm``, ``asm``, ``obj``, ``hsaco``, ``report``, when ``emit`` is one of
    #: them): ``CompileResult.stages`` maps each to what ``--emit`` of that kind writes
    #: (``adopted``: the module as ``--emit=mlir`` would print it there), from the one run
    #: of the passes and of LLVM (no command-line flag: the API's)
    stages: tuple[str, ...] = ()

    @property
    def needs_passes(self) -> bool:
        """Whether something is asked of the pass run (a dump, the pipeline or the timing):
        the default body's schedule is then printed through MLIR, not by the core alone."""
        return self.print_ir.any or self.timing or self.dump_pipeline

    @property
    def has_input(self) -> bool:
        return self.input is not None or self.text is not None or self.module is not None

    @property
    def emit_kind(self) -> str:
        if self.emit is not None:
            return self.emit
        return "schedule" if not self.has_input and self.pass_pipeline is None else "mlir"

    @property
    def spec(self) -> str | None:
        """The schedule as the user wrote it (or its spec text), for messages."""
        if self.schedule is None or isinstance(self.schedule, str):
            return self.schedule
        return self.schedule.spec()


def check_options(options: CompileOptions) -> None:
    """Raise :class:`UsageError` for options that do not make a compilation."""
    emit = options.emit_kind
    if emit not in EMIT_KINDS:
        raise UsageError(f"unknown --emit kind '{emit}'{suggest(emit, list(EMIT_KINDS))} "
                         f"(choose from {', '.join(EMIT_KINDS)})")
    if options.schedule is None and options.pass_pipeline is None and not options.has_input:
        raise UsageError("nothing to do: give --pipeline=NAME (a named pipeline), "
                         "--pass-pipeline=TEXT or an input file (see --help)")
    if options.schedule is not None and options.pass_pipeline is not None:
        raise UsageError("--pipeline and --pass-pipeline cannot be combined (a named pipeline "
                         "is a pass pipeline; list its passes with --help)")
    if options.chip not in CHIPS:
        raise UsageError(f"--mcpu={options.chip}: unsupported processor (supported: "
                         f"{', '.join(CHIPS)}; the cost models and MFMA shapes are "
                         f"{DEFAULT_CHIP}'s)")
    if options.verify_diagnostics and emit not in ("mlir",) + SCHEDULE_EMITS:
        raise UsageError("--verify-diagnostics works with --emit=mlir or schedule")
    _check_stages(options)
    if not options.isa_check and emit not in ("asm", "obj", "hsaco"):
        raise UsageError(f"--no-isa-check turns off the ISA check of a code build: it goes "
                         f"with --emit=asm, obj or hsaco (or --emulate), not --emit={emit}")
    t = options.codegen_timeout
    if t is not None and not (isinstance(t, (int, float)) and 0 < t < float("inf")):
        raise UsageError(f"--codegen-timeout={t}: a number of seconds above 0")


#: the outputs a run of a named pipeline can keep on the way (``CompileOptions.stages``)
#: -> the end of the named pipeline (``passes/registry.PIPELINE_ENDS``) that makes each (the
#: LLVM step's kinds: with an emit of the LLVM step, from its one translation and code
#: generation)
STAGE_ENDS = {"adopted": "adopted", **{k: "phases" for k in SCHEDULE_EMITS},
              "mlir": "lowered", **{k: "llvm" for k in NEEDS_LLVM}}


def _check_stages(options: CompileOptions) -> None:
    """:class:`UsageError` for ``stages`` that are not other outputs of one plain run of a
    named pipeline to ``emit``: earlier ones, or the LLVM step's beside an emit of it."""
    if not options.stages:
        return
    emit = options.emit_kind
    order = ("adopted", "phases", "lowered", "llvm")
    for kind in options.stages:
        if kind not in STAGE_ENDS:
            raise UsageError(f"stages: '{kind}' is not an output kept on the way (one of "
                             f"{', '.join(STAGE_ENDS)})")
        end, last = order.index(STAGE_ENDS[kind]), order.index(PIPELINE_END[emit])
        if kind == emit or end > last or (end == last and kind not in NEEDS_LLVM):
            beside = ", or one the LLVM step makes beside it" if emit in NEEDS_LLVM else ""
            raise UsageError(f"stages: '{kind}' is not made before --emit={emit}'s output "
                             f"(keep a stage the pipeline passes on its way{beside})")
    if options.schedule is None or not (options.has_input or emit in ("mlir",) + NEEDS_LLVM):
        raise UsageError("stages: only a named pipeline (--pipeline) run on an input (or on "
                         "its complete kernel: no input and a code emit kind) has stages to "
                         "keep")
    if options.split_input_file or options.verify_diagnostics or options.needs_passes:
        raise UsageError("stages: a plain build only (no --split-input-file, "
                         "--verify-diagnostics, IR dumps, timing or pipeline dump)")
