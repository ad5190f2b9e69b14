"""``pipeline-opt --emulate[=M,N,K] [FILE] [--pipeline=SPEC] [--emulate-mode=MODE]
[--emulate-workgroups=N]``: the emulator's face.

* Without ``FILE``: builds the complete GEMM kernel of ``--pipeline`` exactly as
  ``--emit=hsaco`` does and runs it on ``M x N x K`` (its launch: :mod:`pipeline_mlir.
  kernel.launch`; ``(M/BM) * (N/BN)`` workgroups).
* ``FILE.mlir``: an IREE matmul dispatch (or a kernel with memref arguments A, B, C) the
  front end accepts.  Builds it with ``--pipeline`` exactly as ``--emit=hsaco`` does and
  runs it as the dispatch is launched: its bindings, the sizes compiled into it, the
  workgroups it needs (:mod:`pipeline_mlir.frontend.dispatch` reads them).  ``M,N,K`` may
  be left out (``--emulate`` alone); given, they must be the kernel's.
* ``FILE`` a code object (``.hsaco``, ELF) or its assembly (``--emit=asm`` text): the launch
  is the one its kernel arguments ask for (:func:`pipeline_mlir.emu.iree.launch_contract`).
  The project's GEMM kernels take ``--pipeline`` (tile, element type, waves) and ``M,N,K``;
  IREE's (HAL bindings, or memref descriptors when pipeline-opt built them) take ``M,N,K``,
  which a code object does not state: A and B are of the element type its MFMAs multiply,
  B is ``N x K`` (``C = A x B^T``), the grid is found from the tile workgroup 0 writes, and
  the sizes are checked against the kernel's buffer descriptors.

It runs the grid, or ``--emulate-workgroups=N`` workgroups spread over it, on random small
integers and compares C with the numpy reference.  Prints one line (max error, workgroups,
instructions, time) and exits 0 when C is exact and nothing racy was seen; exits 1 with the
first finding (or the first wrong element) otherwise.  ``--emulate-mode``: ``eager``
(default), ``late`` or ``random[:SEED]`` (see :mod:`pipeline_mlir.emu.machine`).
"""

from __future__ import annotations

import re

# The emulator and the kernel builder are imported inside the functions: pipeline-opt imports
# this module at start-up, and only --emulate needs them (pipeline_opt itself is a cycle).


class EmulateUsage(Exception):
    """A command-line problem of --emulate (reported as a usage error)."""


#: ``--emulate M,N,K`` (a separate argument) takes the sizes, well formed or not (digits,
#: signs and separators: ``1,2`` is sizes, and wrong); ``--emulate FILE`` does not
SIZES = re.compile(r"^(?=.*\d)[-+\d\s]*[,x][-+\d\s,x]*$")


def check_args(args) -> None:
    given = set(getattr(args, "_given", ()))
    if args.emulate is None:
        for o in ("--emulate-mode", "--emulate-workgroups"):
            if o in given:
                raise EmulateUsage(f"{o} goes with --emulate")
        return
    if args.pipeline is None and args.input is None:
        raise EmulateUsage("--emulate needs --pipeline=NAME{...} (the project's GEMM kernel to "
                           "build and run, e.g. --pipeline='4wave{dtype=bf16 BM=128 BN=128 "
                           "BK=64}') or a FILE to run: an IREE dispatch (.mlir, with "
                           "--pipeline), a code object or its assembly")
    clash = [o for o in ("--emit", "--pass-pipeline", "--launch", "--simulate", "-o")
             if o in given]
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise EmulateUsage(f"--emulate cannot be combined with {', '.join(clash)}")
    if args.emulate:
        parse_size(args.emulate)
    if args.emulate_workgroups is not None and args.emulate_workgroups < 1:
        raise EmulateUsage(f"--emulate-workgroups={args.emulate_workgroups}: run at least one "
                           f"workgroup")
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.machine import parse_mode

    try:
        parse_mode(args.emulate_mode)
    except EmuError as e:
        raise EmulateUsage(f"--emulate-mode={args.emulate_mode}: {e}") from None


def parse_size(text: str) -> tuple[int, int, int]:
    parts = text.replace("x", ",").split(",")
    try:
        m, n, k = (int(x) for x in parts)
    except ValueError:
        raise EmulateUsage(f"--emulate={text}: expected three integers M,N,K") from None
    for name, v in (("M", m), ("N", n), ("K", k)):
        if v < 1:
            raise EmulateUsage(f"--emulate={text}: {name} = {v}; the sizes are positive")
    return m, n, k


def _read(path: str):
    """The file's bytes (a code object) or text (assembly or MLIR)."""
    from pipeline_mlir.errors import PipelineError

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PipelineError(f"cannot read '{path}': {e.strerror or e}") from None
    if data.startswith(b"\x7fELF"):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PipelineError(f"'{path}' is neither a code object (ELF) nor UTF-8 text (assembly "
                            f"or MLIR)") from None


#: an MLIR operation at the start of a line (``module {``, ``gpu.module``, ``func.func``, ...):
#: gfx950 assembly has none of these
_MLIR_OP = re.compile(r"^\s*(module\b|\"?[a-z_]+\.[a-z_.]+\"?[ (@{])", re.M)


def _build(args, sources) -> bytes:
    """The code object ``--emit=hsaco`` builds (of ``args.input``, or of ``--pipeline``)."""
    import copy

    from pipeline_mlir.tools import pipeline_opt

    build = copy.copy(args)
    build.emit, build.output = "hsaco", "-"
    build.emulate = None
    out, diags = pipeline_opt._run(build, sources)
    errors = [d for d in diags if d.severity == "error"]
    if errors or out is None:
        raise pipeline_opt.Failure(errors)
    return out


def run(args, sources=None) -> tuple[str, str | None]:
    """(the summary line, the first problem as an error line or None)."""
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.machine import parse_mode
    from pipeline_mlir.tools.diagnostics import Sources

    sources = sources if sources is not None else Sources()
    sizes = parse_size(args.emulate) if args.emulate else None
    mode = parse_mode(args.emulate_mode)
    where = args.input if args.input is not None else f"<gemm kernel of {args.pipeline}>"
    try:
        if args.input is None:
            return _gemm(args, sizes, mode, None, where, sources)
        data = _read(args.input)
        if isinstance(data, str) and (args.input.endswith(".mlir") or (
                ".amdhsa_kernel" not in data and _MLIR_OP.search(data))):
            return _dispatch(args, data, sizes, mode, sources)
        kernel = load_kernel(data)
        if kernel.meta is None and args.pipeline is not None:
            contract = "gemm"          # assembly without metadata: --pipeline says the kernel
        else:
            from pipeline_mlir.emu.iree import launch_contract

            contract = launch_contract(kernel)
        if contract == "gemm":
            return _gemm(args, sizes, mode, kernel, where, sources)
        return _iree_code(args, kernel, contract, sizes, mode)
    except (Finding, EmuError) as e:
        return "", f"{where}: error: {_option(args, e)}"


def _option(args, e) -> str:
    """The message, naming --emulate's sizes when they are what is wrong."""
    from pipeline_mlir.emu.gemm import GridError
    from pipeline_mlir.emu.iree import SizeMismatch

    if isinstance(e, SizeMismatch):
        return f"--emulate={args.emulate}: {e}"
    if isinstance(e, GridError):
        return f"--emulate-workgroups={args.emulate_workgroups}: {e}"
    return str(e)


def _gemm(args, sizes, mode, kernel, where, sources):
    """The project's GEMM kernel of --pipeline (built, or ``kernel``) on ``sizes``."""
    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES, parse_pipeline

    if args.pipeline is None:
        raise EmulateUsage(f"'{args.input}' holds a GEMM kernel of pipeline-mlir (its kernel "
                           f"arguments are the GEMM launch's): --emulate needs the "
                           f"--pipeline=NAME{{...}} it was built with (its tile, element type "
                           f"and waves)")
    if sizes is None:
        raise EmulateUsage("--emulate: the GEMM kernel of --pipeline takes its sizes at launch: "
                           "give --emulate=M,N,K")
    request = parse_pipeline(args.pipeline)
    if not request.has_kernel:
        raise EmulateUsage(f"--emulate runs the complete GEMM kernel, which exists for "
                           f"{' and '.join(KERNEL_SCHEDULES)}, not '{request.name}'")
    gemm = gemm_kernel(request)
    if kernel is None:
        kernel = load_kernel(_build(args, sources), gemm.name)
    result = emulate_gemm(kernel, gemm, *sizes, mode[0], mode[1],
                          count=args.emulate_workgroups)
    return _report(result, where)


def _report(run, where: str, hint: str = "") -> tuple[str, str | None]:
    """(the run's summary line, what is wrong with C or None)."""
    return run.summary() + "\n", None if run.exact else f"{where}: error: {_wrong(run)}{hint}"


def _wrong(run) -> str:
    """What is wrong with C (a run that is not exact)."""
    if run.first_bad is not None:
        i, j = run.first_bad
        return (f"C differs from the reference: C[{i}][{j}] = {run.got:g}, expected "
                f"{run.want:g} (max error {run.max_error:g})")
    return (f"the {run.workgroups} workgroups wrote {run.written} elements of C, expected "
            f"{run.expected} (one {run.M * run.N // max(run.grid, 1)}-element tile each)")


def _iree_code(args, kernel, contract, sizes, mode):
    """IREE's kernel of a code object or its assembly."""
    from pipeline_mlir.emu.iree import CONTRACTS, Matmul, matmul_dtype

    what = f"'{args.input}' holds IREE's kernel {kernel.name} ({CONTRACTS[contract]})"
    if args.pipeline is not None:
        raise EmulateUsage(f"{what}: --pipeline describes the project's own GEMM kernels and "
                           f"says nothing about it; leave --pipeline out")
    if sizes is None:
        raise EmulateUsage(f"{what}, and a code object does not state the sizes compiled into "
                           f"it: give --emulate=M,N,K (or run the dispatch's .mlir with "
                           f"--pipeline, which states them)")
    problem = Matmul(*sizes, matmul_dtype(kernel), True)
    return _matmul_result(args, kernel, problem, None, mode)


def _matmul_result(args, kernel, problem, grid, mode):
    from pipeline_mlir.emu.iree import emulate_matmul

    result = emulate_matmul(kernel, problem, grid, args.emulate_workgroups, mode[0], mode[1])
    hint = ""
    if result.first_bad is not None and grid is None:
        hint = (" (a code object does not say how B is laid out: --emulate runs it as N x K, "
                "C = A x B^T)")
    return _report(result, args.input, hint)


def _dispatch(args, text, sizes, mode, sources):
    """An IREE dispatch (MLIR): read its launch, build it with --pipeline, run it."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.frontend.dispatch import matmul_dispatch
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul
    from pipeline_mlir.tools.diagnostics import from_location, from_mlir
    from pipeline_mlir.tools.pipeline_opt import Failure

    path = args.input
    if args.pipeline is None:
        raise EmulateUsage(f"'{path}' is MLIR: --emulate builds it first, with the schedule of "
                           f"--pipeline=NAME (e.g. --pipeline=4wave), as --emit=hsaco would")
    sources.add(path, text)
    with new_context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError as e:
            raise Failure([from_mlir(d, path) for d in e.error_diagnostics]) from None
        try:
            d = matmul_dispatch(module)
        except IRError as e:
            raise Failure([from_location("error", f"--emulate: {e}", e.op.location, path)]) \
                from None
        layout = None
        if d.transpose_b is None:       # reported once the build has had its say
            e = d.layout_problem
            layout = from_location(
                "error", f"--emulate: cannot tell whether B ({d.bindings[1].shape[0]}x"
                         f"{d.bindings[1].shape[1]}) is N x K or K x N: {e}", e.op.location, path)
    if sizes is not None and sizes != (d.M, d.N, d.K):
        raise Failure([from_location(
            "error", f"--emulate={args.emulate} disagrees with the sizes compiled into kernel "
                     f"{d.kernel}: M={d.M} N={d.N} K={d.K} (its bindings {d.describe()}); "
                     f"give --emulate={d.M},{d.N},{d.K} or --emulate alone",
            d.bindings[0].where, path)])
    code = _build(args, sources)
    if layout is not None:
        raise Failure([layout])
    kernel = load_kernel(code)
    return _matmul_result(args, kernel, Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b),
                          d.grid, mode)
