"""``pipeline-opt --emulate=M,N,K [FILE] --pipeline=SPEC [--emulate-mode=MODE]``: the emulator's face.

* Without ``FILE``: builds the complete GEMM kernel of ``--pipeline`` exactly as
  ``--emit=hsaco`` does and runs the code object.
* With ``FILE``: a code object (``.hsaco``, ELF) or its assembly (``--emit=asm``), run as the
  complete kernel of ``--pipeline`` (which gives the tile, the element type and the waves).

It runs ``(M/BM) * (N/BN)`` workgroups on random small integers and compares C with the
numpy reference.  Prints one line (max error, workgroups, instructions, time) and exits 0
when C is exact and nothing racy was seen; exits 1 with the first finding (or the first
wrong element) otherwise.  ``--emulate-mode``: ``eager`` (default), ``late`` or
``random[:SEED]`` (see :mod:`pipeline_mlir.emu.machine`).
"""

from __future__ import annotations

import re

# The emulator and the kernel builder are imported inside the functions: pipeline-opt imports
# this module at start-up, and only --emulate needs them (pipeline_opt itself is a cycle).


class EmulateUsage(Exception):
    """A command-line problem of --emulate (reported as a usage error)."""


def check_args(args) -> None:
    given = set(getattr(args, "_given", ()))
    if args.emulate is None:
        if "--emulate-mode" in given:
            raise EmulateUsage("--emulate-mode goes with --emulate=M,N,K")
        return
    if args.pipeline is None:
        raise EmulateUsage("--emulate needs --pipeline=NAME{...}: the kernel (its tile, element "
                           "type and waves), e.g. --pipeline='4wave{dtype=bf16 BM=128 BN=128 "
                           "BK=64}'")
    clash = [o for o in ("--emit", "--pass-pipeline", "--launch", "--simulate", "-o")
             if o in given]
    if args.split_input_file or args.verify_diagnostics:
        clash.append("--split-input-file/--verify-diagnostics")
    if clash:
        raise EmulateUsage(f"--emulate cannot be combined with {', '.join(clash)}")
    parse_size(args.emulate)
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
    return m, n, k


def _code(args):
    """(code object bytes or assembly text, where) of the kernel to run."""
    import copy

    from pipeline_mlir.errors import PipelineError

    if args.input is None:
        from pipeline_mlir.tools import pipeline_opt

        build = copy.copy(args)
        build.emit, build.output = "hsaco", "-"
        build.emulate = None
        out, diags = pipeline_opt._run(build, pipeline_opt.Sources())
        errors = [d for d in diags if d.severity == "error"]
        if errors or out is None:
            raise pipeline_opt.Failure(errors)
        return out, f"<gemm kernel of {args.pipeline}>"
    path = args.input
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PipelineError(f"cannot read '{path}': {e.strerror or e}") from None
    if data.startswith(b"\x7fELF"):
        return data, path
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PipelineError(f"'{path}' is neither a code object (ELF) nor UTF-8 assembly "
                            f"text") from None
    if ".amdhsa_kernel" not in text and _MLIR_OP.search(text):
        raise PipelineError(f"'{path}' is MLIR, not a kernel to run: --emulate FILE takes a "
                            f"code object or its assembly (build one first with --emit=hsaco "
                            f"-o K.hsaco)")
    return text, path


#: an MLIR operation at the start of a line (``module {``, ``gpu.module``, ``func.func``, ...):
#: gfx950 assembly has none of these
_MLIR_OP = re.compile(r"^\s*(module\b|\"?[a-z_]+\.[a-z_.]+\"?[ (@{])", re.M)


def run(args) -> tuple[str, str | None]:
    """(the summary line, the first problem as an error line or None)."""
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.gemm import emulate_gemm
    from pipeline_mlir.emu.machine import parse_mode
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES, parse_pipeline

    m, n, k = parse_size(args.emulate)
    mode, seed = parse_mode(args.emulate_mode)
    request = parse_pipeline(args.pipeline)
    if not request.has_kernel:
        raise EmulateUsage(f"--emulate runs the complete GEMM kernel, which exists for "
                           f"{' and '.join(KERNEL_SCHEDULES)}, not '{request.name}'")
    gemm = gemm_kernel(request)
    code, where = _code(args)
    try:
        kernel = load_kernel(code, gemm.name if args.input is None else None)
        result = emulate_gemm(kernel, gemm, m, n, k, mode, seed)
    except Finding as e:
        return "", f"{where}: error: {e}"
    except EmuError as e:
        return "", f"{where}: error: {e}"
    line = result.summary() + "\n"
    if not result.exact:
        i, j = result.first_bad
        return line, (f"{where}: error: C differs from the reference: C[{i}][{j}] = "
                      f"{result.C[i, j]:g}, expected {result.reference[i, j]:g} (max error "
                      f"{result.max_error:g})")
    return line, None
