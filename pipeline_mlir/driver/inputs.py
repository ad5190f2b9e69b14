"""What a compilation reads: the input file, standard input or text, or, without one, the
schedule's default body or its complete GEMM kernel; split into ``// -----`` chunks.

An input is read as bytes and decoded as UTF-8 (newlines translated as text mode does): a
byte that is not UTF-8 is one error at its line and column.  :func:`check_nesting` refuses
text nested deeper than :data:`MAX_NESTING` before MLIR parses it.

The kernel builder is imported only when a kernel is built (it loads numpy).
"""

from __future__ import annotations

import re
import sys

from pipeline_mlir.driver.arguments import CompileOptions
from pipeline_mlir.driver.base import NEEDS_LLVM, input_name, kernel_only_option_error
from pipeline_mlir.driver.diagnostics import Diag, Failure
from pipeline_mlir.driver.value_cycles import STRING_OR_COMMENT, check_value_cycles
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.records import record

SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)
#: the file name of a generated GEMM kernel in messages starts so
KERNEL_SOURCE = "<gemm kernel "
#: the deepest nesting of brackets an input may have.  MLIR's parser recurses once per
#: level (regions, attributes, types) on the stack: a few thousand levels overflow it and
#: the process dies of a segmentation fault (regions nested ~2,100 deep with an 8 MB
#: stack).  Kernels nest a few dozen levels deep at most.
MAX_NESTING = 256
#: what the nesting count reads: strings and comments (skipped whole), the arrows and
#: comparisons that hold '<' or '>' without opening or closing anything, and brackets
_NESTING_TOKEN = re.compile(STRING_OR_COMMENT + r'|->|[<>]=|[][{}()<>]')
_NESTING_STEP = dict.fromkeys("{([<", 1) | dict.fromkeys("})]>", -1)


@record
class Source:
    """The input of a compilation: its text (None: the default body, built in an empty
    module), its name in messages, the schedule the passes get, and the parsed module when
    the caller parsed it."""

    text: str | None
    filename: str
    schedule: object
    module: object = None

    @property
    def generated(self) -> bool:
        """A kernel the driver wrote (its diagnostics belong to the user's spec)."""
        return self.filename.startswith(KERNEL_SOURCE)


def kernel_source(options: CompileOptions, schedule) -> Source | None:
    """With no input, a named kernel pipeline and a code emit kind: the complete GEMM kernel
    (its MLIR text, its name and the kernel's schedule), else None."""
    emit = options.emit_kind
    if options.has_input or schedule is None or emit not in ("mlir",) + NEEDS_LLVM:
        return None
    from pipeline_mlir.kernel import gemm, gemm_mlir
    from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES

    if not schedule.has_kernel:
        if emit == "mlir":
            return None  # the abstract pipeline, lowered
        raise Failure.at(f"--emit={emit} without an input builds a complete GEMM kernel, "
                         f"which exists for {' and '.join(KERNEL_SCHEDULES)}, not "
                         f"'{schedule.name}' (give a kernel as input)")
    kernel = gemm.gemm_kernel(schedule)
    # the kernel's schedule must compile before its (possibly huge) kernel is written: a tile
    # whose waits exceed the counters fails here in milliseconds, not after minutes of MLIR
    kernel.schedule.compile()
    # the kernel's natural K-loop: sched-adopt-loop makes it the schedule's loop, as it does
    # for any other kernel's
    if kernel.geometry.is_mx:
        # the block-scaled kernels are written tagged: their scale tiles ride in the
        # element loads' logical ops, which the natural-loop front end does not infer
        from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir
        return Source(mx_kernel_mlir(kernel), f"{KERNEL_SOURCE}{kernel.name}>",
                      kernel.schedule)
    return Source(gemm_mlir.natural_kernel_mlir(kernel), f"{KERNEL_SOURCE}{kernel.name}>",
                  kernel.schedule)


def read_source(options: CompileOptions, schedule) -> Source:
    """The input of ``options`` (``schedule``: the parsed schedule or None)."""
    kernel = kernel_source(options, schedule)
    if kernel is not None:
        return kernel
    _check_kernel_only_options(options, schedule)
    if options.module is not None:  # parsed already: its text is the caller's
        return Source(options.text, options.filename, schedule, options.module)
    if options.text is not None:  # as a file's text is read
        return Source(upgraded(options.text, options.filename), options.filename, schedule)
    if options.input is None and schedule is not None:
        return Source(None, "<default body>", schedule)
    path = options.input or "-"
    name = input_name(path)
    try:
        data = read_bytes(path)
    except PipelineError as e:
        raise Failure.at(str(e)) from None
    return Source(upgraded(decode_text(data, name), name), name, schedule)


def read_bytes(path: str) -> bytes:
    """The bytes of the file ``path`` (``-``: standard input); :class:`PipelineError`
    ``cannot read 'path': why`` (the compiler's input, ``--simulate``'s and ``--emulate``'s
    files)."""
    if path == "-":
        try:
            stream = sys.stdin
            data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
        except (AttributeError, OSError, ValueError):
            raise PipelineError("cannot read standard input: it is closed") from None
        return data.encode() if isinstance(data, str) else data
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise PipelineError(f"cannot read '{path}': {e.strerror or e}") from None


def upgraded(text: str, filename: str) -> str:
    """``text`` with an older IREE's syntax read as today's
    (:mod:`pipeline_mlir.frontend.legacy_syntax`); a construct it cannot read is a
    Failure."""
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.frontend.legacy_syntax import upgrade

    try:
        return upgrade(text, filename)
    except ConfigError as e:
        raise Failure.at(str(e)) from None


def _check_kernel_only_options(options: CompileOptions, schedule) -> None:
    """A Failure for an option of the complete kernel given where none is built (an input
    kernel, or the schedule's default body): it would change nothing."""
    where = (f"the input kernel ({input_name(options.input or options.filename)}) stores C "
             f"as it is "
             f"written" if options.has_input else f"--emit={options.emit_kind} builds no kernel")
    message = kernel_only_option_error(schedule, where)
    if message is not None:
        raise Failure.at(message)


def decode_text(data: bytes | str, filename: str) -> str:
    """``data`` as text: UTF-8, newlines translated as text mode does (``\\r\\n`` and
    ``\\r`` become ``\\n``).  A byte that is not UTF-8 is an error at its line and column
    (``filename``: the name in the message)."""
    if isinstance(data, str):
        return data
    from pipeline_mlir.isa.utf8 import NotUtf8, utf8_text

    try:
        text = utf8_text(data, newlines=True)
    except NotUtf8 as e:
        raise Failure([Diag("error", f"{e}: the input must be UTF-8 (MLIR's source encoding)",
                            filename, e.line, e.col)]) from None
    if text.startswith("\ufeff"):  # MLIR's lexer stops at it: 'unexpected character'
        raise Failure([Diag("error", "the input starts with a byte order mark (U+FEFF, bytes EF "
                                     "BB BF), which MLIR's parser does not take: save the file "
                                     "as UTF-8 without it", filename, 1, 1)])
    return text


def check_before_parse(text: str, filename: str, line_offset: int = 0) -> None:
    """Refuse ``text``, one located error, where MLIR's parser or a verifier it runs would
    crash the process on it: brackets nested too deep (:func:`check_nesting`), IREE's
    swizzle dividing by zero (:func:`check_swizzles`), a cycle of values
    (:func:`~pipeline_mlir.driver.value_cycles.check_value_cycles`).  ``line_offset``: the
    lines before ``text`` in its file (a ``--split-input-file`` chunk)."""
    check_nesting(text, filename, line_offset)
    check_swizzles(text, filename, line_offset)
    check_value_cycles(text, filename, line_offset)


def check_nesting(text: str, filename: str, line_offset: int = 0) -> None:
    """Refuse ``text`` when its brackets (braces, brackets, parentheses, angle brackets;
    not inside strings and comments) nest deeper than :data:`MAX_NESTING`: one error at
    the bracket that goes past the limit, naming the deepest level.  ``line_offset``: the
    lines before ``text`` in its file (a ``--split-input-file`` chunk)."""
    depth = deepest = 0
    first = None
    for m in _NESTING_TOKEN.finditer(text):
        step = _NESTING_STEP.get(m.group())
        if step is None:
            continue
        depth = max(0, depth + step)
        if depth > deepest:
            deepest = depth
            if first is None and depth > MAX_NESTING:
                first = m.start()
    if first is None:
        return
    from pipeline_mlir.isa.utf8 import line_col

    line, col = line_col(text, first)
    raise Failure([Diag("error", f"the input nests {deepest} levels deep (braces, brackets, "
                                 f"parentheses, angle brackets); at most {MAX_NESTING} are "
                                 f"accepted: MLIR's parser recurses once per level and would "
                                 f"overflow its stack", filename, line + line_offset, col)])


#: IREE's ``xor_shuffle`` swizzle attribute's row and access widths, read where the parser
#: would (strings and comments skipped whole): its verifier divides the one by the other
_SWIZZLE_TOKEN = re.compile(STRING_OR_COMMENT + r'|'
                            r'#iree_codegen\.xor_shuffle\s*<\s*(-?(?:0x[0-9a-fA-F]+|\d+))\s*,'
                            r'\s*(-?(?:0x[0-9a-fA-F]+|\d+))')
_INT64_MIN = -(1 << 63)


def check_swizzles(text: str, filename: str, line_offset: int = 0) -> None:
    """Refuse ``text`` when an ``#iree_codegen.xor_shuffle<row, access>`` in it has a row
    or access width of 0, or divides the least 64-bit integer by -1: IREE's verifier of the
    attribute divides by them while MLIR parses the input and the process dies of a
    floating-point exception.  One error at the attribute.  ``line_offset``: as
    :func:`check_nesting`'s."""
    for m in _SWIZZLE_TOKEN.finditer(text):
        if m.group(1) is None:
            continue
        row, access = (int(g, 16 if "x" in g else 10) for g in m.groups())
        if row and access and not (row == _INT64_MIN and access == -1):
            continue
        from pipeline_mlir.isa.utf8 import line_col

        line, col = line_col(text, m.start())
        raise Failure([Diag("error", f"#iree_codegen.xor_shuffle<{m.group(1)}, {m.group(2)}>: "
                                     f"IREE's verifier of the swizzle divides its row width "
                                     f"by its access width as MLIR parses the input, which "
                                     f"crashes the process for these; a swizzle's widths are "
                                     f"positive", filename,
                            line + line_offset, col)])


def chunks(text: str | None, split: bool) -> list[tuple[str | None, int]]:
    """``(chunk, line offset)`` of each ``// -----`` separated part (one without ``split``)."""
    if text is None or not split:
        return [(text, 0)]
    out, start, line = [], 0, 0
    for m in SPLIT_MARKER.finditer(text):
        out.append((text[start:m.start()], line))
        line += text[start:m.end()].count("\n")
        start = m.end()
    out.append((text[start:], line))
    return out


def kernel_diags(diags: list[Diag], source: str, spec: str) -> list[Diag]:
    """Diagnostics located in the generated kernel text belong to the user's spec: the
    kernel is no file anyone can open. Identical ones (one payload op, several entries)
    are reported once."""
    out, seen = [], set()
    for d in diags:
        if d.file == source or (d.file is None and d.where == source):
            d = Diag(d.severity, f"pipeline '{spec}': {d.message}",
                     notes=kernel_diags(d.notes, source, spec))
        key = (d.severity, d.location(), d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
