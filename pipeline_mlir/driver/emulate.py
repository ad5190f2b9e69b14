"""Run a kernel's gfx950 machine code on the emulator against the numpy reference
(``--emulate``).

* No input file: the complete GEMM kernel of the schedule, built exactly as ``--emit=hsaco``
  builds it (:func:`pipeline_mlir.driver.api.compile`), on ``M x N x K`` (its launch:
  :mod:`pipeline_mlir.kernel.launch`; ``(M/BM) * (N/BN)`` workgroups).
* ``FILE.mlir``: an IREE matmul dispatch (or a kernel with memref arguments A, B, C) the
  front end accepts.  Parsed once: its launch is read from it (its bindings, the sizes
  compiled into it, the workgroups it needs: :mod:`pipeline_mlir.frontend.dispatch`), then
  the same module is built with the schedule as ``--emit=hsaco`` builds it and run as the
  dispatch is launched (with an epilogue, a batch or a bf16/f16 C: as the launch description
  :mod:`pipeline_mlir.driver.dispatch_launch` makes of it).  The sizes may be left out; given, they must be the kernel's.
* ``FILE`` a code object (``.hsaco``, ELF) or its assembly (``--emit=asm`` text): the launch
  is the one its kernel arguments ask for (:func:`pipeline_mlir.emu.iree.launch_contract`).
  The project's GEMM kernels take the schedule (tile, element type, waves) and the sizes;
  IREE's (HAL bindings, or memref descriptors when pipeline-opt built them) take the sizes,
  which a code object does not state: A and B are of the element type its MFMAs multiply,
  B is ``N x K`` (``C = A x B^T``), the grid is found from the tile workgroup 0 writes, and
  the sizes are checked against the kernel's buffer descriptors.

It runs the grid, or ``workgroups`` workgroups spread over it, on random small integers and
compares C with the reference.  The result is the summary line (max error, workgroups,
instructions, time) and the first finding (or the first wrong element), or the diagnostics
of a build that failed.  ``mode``: ``eager`` (default), ``late`` or ``random[:SEED]`` (see
:mod:`pipeline_mlir.emu.machine`).  The emulator and the kernel builder are imported by the
functions that use them.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field

from pipeline_mlir import records
from pipeline_mlir.driver.arguments import CompileOptions
from pipeline_mlir.driver.base import STDIN_NAME, UsageError, input_name
from pipeline_mlir.driver.diagnostics import Diag, Failure, Sources
from pipeline_mlir.errors import PipelineError


@dataclass(frozen=True)
class EmulateOptions:
    """``build``: how the kernel is built (its ``schedule`` and ``input``; the emit kind is
    ``hsaco`` whatever it says); ``sizes``: ``(M, N, K)`` or None (an IREE dispatch's own);
    ``sizes_text``: how they were written, for messages (default ``M,N,K``); ``mode``: when
    memory operations complete; ``workgroups``: run that many, spread over the grid;
    ``jobs``: processes to spread the workgroups over (None: the CPUs this process may use;
    the result is the same for every number); ``progress``: called ``(done, total)`` as
    workgroups finish (None: quiet); ``launch``: a launch description file; ``strict``:
    out-of-range buffer accesses are findings."""

    build: CompileOptions
    sizes: tuple[int, int, int] | None = None
    sizes_text: str | None = None
    mode: str = "eager"
    workgroups: int | None = None
    jobs: int | None = None
    progress: object = field(default=None, compare=False)
    #: a launch description (TOML, :mod:`pipeline_mlir.emu.launchfile`) to run the kernel
    #: as (``-``: standard input); None: the launch its arguments ask for
    launch: str | None = None
    #: report buffer accesses past a resource's records (default: read 0, drop writes)
    strict: bool = False

    def processes(self) -> int:
        """``jobs`` (checked: :func:`check_jobs`), or the CPUs this process may run on."""
        from pipeline_mlir.emu.pool import default_jobs

        if self.jobs is None:
            return default_jobs()
        check_jobs(self.jobs)
        return self.jobs

    @property
    def flag(self) -> str:
        """``--emulate=...`` as the messages name the sizes."""
        text = self.sizes_text if self.sizes_text is not None else \
            ",".join(map(str, self.sizes or ()))
        return f"--emulate={text}"


@dataclass
class EmulateResult:
    summary: str = ""              # the run's summary line (empty when it did not run)
    problem: str | None = None     # the first finding or wrong element, as an error line
    diagnostics: list[Diag] = field(default_factory=list)  # a failed build's
    sources: Sources = field(default_factory=Sources)


#: the most ``--emulate-jobs`` processes per CPU this process may run on: the workers are
#: CPU-bound (more than one per CPU run no faster) and each is an interpreter holding the
#: kernel and the dispatch's memory, so a few per CPU is the sane most
JOBS_PER_CPU = 4


def check_jobs(jobs: int) -> None:
    """A :class:`~pipeline_mlir.driver.base.UsageError` unless ``1 <= jobs <=``
    :data:`JOBS_PER_CPU` times the CPUs this process may run on."""
    from pipeline_mlir.emu.pool import default_jobs

    if jobs < 1:
        raise UsageError(f"--emulate-jobs={jobs}: use at least one process")
    cpus = default_jobs()
    if jobs > JOBS_PER_CPU * cpus:
        raise UsageError(f"--emulate-jobs={jobs}: at most {JOBS_PER_CPU * cpus} processes "
                         f"({JOBS_PER_CPU} per CPU this process may run on, {cpus} here: the "
                         f"workers are CPU-bound and each holds the kernel and its memory)")


def check_mode(mode: str) -> None:
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.machine import parse_mode

    try:
        parse_mode(mode)
    except EmuError as e:
        raise UsageError(f"--emulate-mode={mode}: {e}") from None


def emulate(options: EmulateOptions) -> EmulateResult:
    """Build (when needed) and run the kernel (module docstring); a
    :class:`~pipeline_mlir.driver.base.UsageError` when the options do not say enough
    about it."""
    sources = Sources()
    try:
        summary, problem = _emulate(options, sources)
    except Failure as f:
        return EmulateResult(diagnostics=f.diags, sources=sources)
    return EmulateResult(summary, problem, sources=sources)


def _bytes(path: str) -> bytes:
    """The bytes of the file ``path`` (``-``: standard input)."""
    from pipeline_mlir.driver.inputs import read_bytes

    return read_bytes(path)


def _read(path: str):
    """The file's bytes (a code object) or text (assembly or MLIR); ``-``: standard input."""
    data = _bytes(path)
    if data.startswith(b"\x7fELF"):
        return data
    from pipeline_mlir.isa.utf8 import NotUtf8, utf8_text

    try:
        return utf8_text(data)
    except NotUtf8 as e:
        raise PipelineError(f"{e.at(input_name(path))}: {e}: the input is neither a code object "
                            f"(ELF) nor text (assembly or MLIR)") from None


def _launch_spec(path: str):
    """The launch description in ``path`` (``-``: standard input, named ``<stdin>``)."""
    from pipeline_mlir.emu.launchfile import read_launch

    if path != "-":
        return read_launch(path)
    from pipeline_mlir.isa.utf8 import NotUtf8, utf8_text

    try:
        text = utf8_text(_bytes(path))
    except NotUtf8 as e:
        raise PipelineError(f"{e.at(STDIN_NAME)}: {e}: --emulate-launch reads a launch "
                            f"description (TOML text)") from None
    return read_launch(STDIN_NAME, text)


#: an MLIR operation at the start of a line (``module {``, ``gpu.module``, ``func.func``, ...):
#: gfx950 assembly has none of these
_MLIR_OP = re.compile(r"^\s*(module\b|\"?[a-z_]+\.[a-z_.]+\"?[ (@{])", re.M)


def _build(options: EmulateOptions, **source) -> bytes:
    """The code object ``--emit=hsaco`` builds (of the input, or of the schedule);
    ``source``: ``text`` and ``module`` when the input is parsed already."""
    from pipeline_mlir.driver.api import compile

    result = compile(records.replace(options.build, emit="hsaco", **source))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors or result.output is None:
        raise Failure(errors)
    return result.output


def _emulate(options: EmulateOptions, sources: Sources) -> tuple[str, str | None]:
    """(the summary line, the first problem as an error line or None)."""
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.machine import parse_mode

    from pipeline_mlir.emu.launchfile import LaunchFileError

    mode = parse_mode(options.mode)
    path = options.build.input
    where = input_name(path) if path is not None else f"<gemm kernel of {options.build.spec}>"
    try:
        if options.launch is not None:
            return _described(options, mode, where)
        if path is None:
            return _gemm(options, mode, None, where)
        data = _read(path)
        if isinstance(data, str) and (path.endswith(".mlir") or (
                ".amdhsa_kernel" not in data and _MLIR_OP.search(data))):
            return _dispatch(options, data, mode, sources)
        kernel = load_kernel(data)
        if kernel.meta is None and options.build.schedule is not None:
            contract = "gemm"          # assembly without metadata: --pipeline says the kernel
        else:
            from pipeline_mlir.emu.iree import launch_contract

            contract = launch_contract(kernel)
        if contract == "gemm":
            return _gemm(options, mode, kernel, where)
        return _iree_code(options, kernel, contract, mode)
    except LaunchFileError as e:
        return "", f"{e.location}: error: {e.detail}"
    except (Finding, EmuError) as e:
        return "", f"{where}: error: {_option(options, e)}"


def _described(options: EmulateOptions, mode, where: str):
    """The kernel (of the file, or built by ``--pipeline``) launched as the launch
    description says."""
    from pipeline_mlir.emu.described import emulate_described
    from pipeline_mlir.emu.inputs import load_kernel
    spec = _launch_spec(options.launch)
    path = options.build.input
    data = None if path is None else _read(path)
    if data is None or (isinstance(data, str) and (path.endswith(".mlir") or (
            ".amdhsa_kernel" not in data and _MLIR_OP.search(data)))):
        if options.build.schedule is None:
            raise UsageError(f"--emulate-launch: {'the input is MLIR' if path else 'no input'}"
                             f": give --pipeline=NAME to build the kernel first")
        if data is None:
            data = _build(options)
        else:                     # the text read above (standard input is read only once)
            data = _build(options, text=data, filename=input_name(path))
    kernel = load_kernel(data, spec.kernel)
    run = emulate_described(kernel, spec, mode[0], mode[1], count=options.workgroups,
                            strict=options.strict, progress=options.progress)
    problem = run.problem()
    return run.summary() + "\n", None if problem is None else f"{where}: error: {problem}"


def _option(options: EmulateOptions, e) -> str:
    """The message, naming the sizes or the workgroups when they are what is wrong."""
    from pipeline_mlir.emu.gemm import GridError
    from pipeline_mlir.emu.iree import SizeMismatch

    if isinstance(e, SizeMismatch):
        return f"{options.flag}: {e}"
    if isinstance(e, GridError):
        return f"--emulate-workgroups={options.workgroups}: {e}"
    return str(e)


def _gemm(options: EmulateOptions, mode, kernel, where):
    """The project's GEMM kernel of the schedule (built, or ``kernel``) on the sizes."""
    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.driver.api import parsed_schedule
    from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES

    if options.build.schedule is None:
        raise UsageError(f"'{input_name(options.build.input)}' holds a GEMM kernel of "
                         f"pipeline-mlir (its kernel arguments are the GEMM launch's): "
                         f"--emulate needs the --pipeline=NAME{{...}} it was built with (its "
                         f"tile, element type and waves)")
    if options.sizes is None:
        raise UsageError("--emulate: the GEMM kernel of --pipeline takes its sizes at launch: "
                         "give --emulate=M,N,K")
    schedule = parsed_schedule(options.build)   # a spec that does not parse: a diagnostic
    if not schedule.has_kernel:
        raise UsageError(f"--emulate runs the complete GEMM kernel, which exists for "
                         f"{' and '.join(KERNEL_SCHEDULES)}, not '{schedule.name}'")
    gemm = gemm_kernel(schedule)
    if kernel is None:
        kernel = load_kernel(_build(options), gemm.name)
    result = emulate_gemm(kernel, gemm, *options.sizes, mode[0], mode[1],
                          count=options.workgroups, progress=options.progress,
                          strict=options.strict, jobs=options.processes())
    return _report(result, where)


def _report(run, where: str, hint: str = "") -> tuple[str, str | None]:
    """(the run's summary line, what is wrong with C or None)."""
    return run.summary() + "\n", None if run.exact else f"{where}: error: {_wrong(run)}{hint}"


def _wrong(run) -> str:
    """What is wrong with C (a run that is not exact): a wrong value, elements of the
    workgroups' tiles not written, elements outside them written."""
    from pipeline_mlir.emu.coverage import problems

    said = []
    if run.first_bad is not None:
        i, j = run.first_bad
        said.append(f"C differs from the reference: C[{i}][{j}] = {run.got:g}, expected "
                    f"{run.want:g} (max error {run.max_error:g})")
    return "; ".join(said + problems(run.coverage))


def _iree_code(options: EmulateOptions, kernel, contract, mode):
    """IREE's kernel of a code object or its assembly."""
    from pipeline_mlir.emu.iree import CONTRACTS, Matmul, matmul_dtype

    what = (f"'{input_name(options.build.input)}' holds IREE's kernel {kernel.name} "
            f"({CONTRACTS[contract]})")
    if options.build.schedule is not None:
        raise UsageError(f"{what}: --pipeline describes the project's own GEMM kernels and "
                         f"says nothing about it; leave --pipeline out")
    if options.sizes is None:
        raise UsageError(f"{what}, and a code object does not state the sizes compiled into "
                         f"it: give --emulate=M,N,K (or run the dispatch's .mlir with "
                         f"--pipeline, which states them)")
    problem = Matmul(*options.sizes, matmul_dtype(kernel), True)
    return _matmul_result(options, kernel, problem, None, mode)


def _matmul_result(options: EmulateOptions, kernel, problem, grid, mode, tiles=None):
    from pipeline_mlir.driver.dispatch_tiles import mask_of, with_note
    from pipeline_mlir.emu.iree import emulate_matmul

    result = emulate_matmul(kernel, problem, grid, options.workgroups, mode[0], mode[1],
                            progress=options.progress, strict=options.strict,
                            jobs=options.processes(), tiles=mask_of(tiles))
    hint = ""
    if result.first_bad is not None and grid is None:
        hint = (" (a code object does not say how B is laid out: --emulate runs it as N x K, "
                "C = A x B^T)")
    summary, problem = _report(result, input_name(options.build.input), hint)
    return with_note(summary, tiles), problem


def _dispatch(options: EmulateOptions, text: str, mode, sources: Sources):
    """An IREE dispatch (MLIR): parse it, read its launch, build it with the schedule, run
    it."""
    from pipeline_mlir.dialect.bindings import build_context, ir
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.driver.diagnostics import from_location, from_mlir
    from pipeline_mlir.driver.inputs import check_before_parse, upgraded

    path = input_name(options.build.input)
    if options.build.schedule is None:
        raise UsageError(f"'{path}' is MLIR: --emulate builds it first, with the schedule of "
                         f"--pipeline=NAME (e.g. --pipeline=4wave), as --emit=hsaco would")
    text = upgraded(text, path)
    sources.add(path, text)
    check_before_parse(text, path)
    key = (path, text, options.sizes, options.workgroups, repr(options.build))
    known = _read_before(options, key)
    if known is not None:                       # read and built before: run it again
        return _run_read(options, *known, mode)
    with build_context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError as e:
            raise Failure([from_mlir(d, path) for d in e.error_diagnostics]) from None
        try:
            d, layout = read_dispatch(module, path, options.sizes)
        except Failure:
            _refused_build(options, module, text, path)
            raise
        if options.sizes is not None and options.sizes != (d.M, d.N, d.K):
            raise Failure([from_location(
                "error", f"{options.flag} disagrees with the sizes compiled into kernel "
                         f"{d.kernel}: M={d.M} N={d.N} K={d.K} (its bindings {d.describe()}); "
                         f"give --emulate={d.M},{d.N},{d.K} or --emulate alone",
                d.bindings[0].where, path)])
        from pipeline_mlir.driver.dispatch_tiles import partial_tiles

        try:
            tiles = partial_tiles(module, d, options.workgroups)   # before the build changes it
        except IRError as e:
            raise Failure([from_location("error", f"--emulate: {e}", e.op.location, path)]) \
                from None
        code = _build(options, text=text, filename=path, module=module)
    if layout is not None:
        raise Failure([layout])
    _READ[key] = d, tiles
    while len(_READ) > READ_DISPATCHES:
        _READ.popitem(last=False)
    return _run_read(options, d, tiles, code, mode)


#: the dispatches read by the last runs (:func:`_read_before`): (input name, text, sizes,
#: workgroups, build options) -> (the dispatch, its partial tiles), the most recent
#: :data:`READ_DISPATCHES`
_READ: OrderedDict = OrderedDict()
#: how many dispatches :data:`_READ` keeps
READ_DISPATCHES = 8


def _read_before(options: EmulateOptions, key: tuple):
    """(dispatch, tiles, code object) of a dispatch read by an earlier run of the same input
    name, text, sizes, workgroups and build options that got through (its reading, its
    sizes and B's layout, its build), when the installed code-object store holds the build
    (:func:`pipeline_mlir.driver.code_cache.stored`: the code the build returns, nothing
    compiled); else None (parse, read and build it).  The reading (the front end's work on
    the module, ``partial_tiles``) depends on the first four alone, and the build options
    are in the key so that no reading outlives the build it was checked with: each memory
    mode of a test reads a dispatch once."""
    from pipeline_mlir.driver.code_cache import stored

    hit = _READ.get(key)
    if hit is None:
        return None
    path, text = key[0], key[1]
    built = stored(records.replace(options.build, emit="hsaco", text=text, filename=path))
    if built is None or built.failed or built.diagnostics or built.output is None:
        return None
    _READ.move_to_end(key)
    return hit[0], hit[1], built.output


def _run_read(options: EmulateOptions, d, tiles, code: bytes, mode):
    """Run the code object ``code`` built from the dispatch ``d`` as it is launched."""
    from pipeline_mlir.emu.inputs import load_kernel

    kernel = load_kernel(code)
    if not d.plain:                # an epilogue, a batch, a bf16/f16 C: as the dispatch says
        from pipeline_mlir.driver.dispatch_launch import run_dispatch

        return run_dispatch(d, kernel, input_name(options.build.input), mode,
                            options.workgroups, options.progress, options.strict, tiles)
    return _matmul_result(options, kernel, dispatch_matmul(d), d.grid, mode, tiles)


def dispatch_matmul(d):
    """The :class:`~pipeline_mlir.emu.iree.Matmul` the dispatch ``d`` (a
    :class:`~pipeline_mlir.frontend.dispatch.MatmulDispatch`) launches: its sizes, element
    type, B's layout and push constants."""
    from pipeline_mlir.emu.iree import Matmul

    return Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b, d.constants)


def _refused_build(options: EmulateOptions, module, text: str, path: str) -> None:
    """A dispatch the emulator cannot read but whose K-loop the front end takes up: the
    build's own refusal, when it has one (an already pipelined loop, say), is the error
    rather than what the dispatch's reading ran into (the MFMAs IREE's pipelining left
    after the loop, read as an epilogue).  So too for a kernel with products but no K-loop
    (:func:`~pipeline_mlir.frontend.no_loop.no_loop_reason`: IREE removed the loop of a K of
    one K tile), whose A and B the reading, which tells their layouts by the loop's copies,
    misreads: the build refuses it as every emit does.  The build's front end alone (the
    named pipeline of the schedule object cut after ``sched-adopt-loop``) runs, once, on
    ``text`` (``module``, parsed from it, may be part prepared by the reading): the
    ``--mlir-print-ir-*`` dumps asked for are its, printed once."""
    from pipeline_mlir.driver.api import parsed_schedule
    from pipeline_mlir.driver.job import Job
    from pipeline_mlir.frontend.no_loop import no_loop_reason
    from pipeline_mlir.frontend.scan import find_natural_loops

    if not find_natural_loops(module.operation) and no_loop_reason(module.operation) is None:
        return                          # nothing of a kernel: the dispatch's error says it all
    build = records.replace(options.build, emit="mlir")
    done = Job(build, path, parsed_schedule(build), end="adopted").run(text)
    errors = [d for d in done.diagnostics if d.severity == "error"]
    if errors:
        raise Failure(errors)


def read_dispatch(module, path: str, sizes):
    """(the dispatch, a diagnostic when B's layout cannot be told, reported once the build
    has had its say)."""
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.driver.diagnostics import from_location
    from pipeline_mlir.frontend.const_if import inline_constant_true_ifs
    from pipeline_mlir.frontend.dispatch import matmul_dispatch
    from pipeline_mlir.frontend.lds_accumulators import carry_lds_accumulators
    from pipeline_mlir.frontend.producers import distribute_and_roll_back
    from pipeline_mlir.frontend.scan import find_natural_loops

    try:
        # the K-loop as the front end reads it (its copies tell B's layout): an IREE
        # VectorDistribute kernel distributed, IREE's own prefetch pipelining rolled back,
        # the copies' scf.if %true inlined, as the build does first
        distribute_and_roll_back(module.operation)
        for loop in find_natural_loops(module.operation):
            inline_constant_true_ifs(loop)
            with loop.location:   # C kept in LDS across the loop: read as the build does
                carry_lds_accumulators(loop)
        d = matmul_dispatch(module, sizes)
    except IRError as e:
        raise Failure([from_location("error", f"--emulate: {e}", e.op.location, path)]) \
            from None
    if d.transpose_b is not None:
        return d, None
    e = d.layout_problem
    return d, from_location(
        "error", f"--emulate: cannot tell whether B ({d.bindings[1].shape[0]}x"
                 f"{d.bindings[1].shape[1]}) is N x K or K x N: {e}", e.op.location, path)
