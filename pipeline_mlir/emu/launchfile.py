"""A launch description: how to run any code object's kernel, read from a TOML file
(``--emulate-launch=FILE``).

The file says what the kernel's arguments are, in kernarg order, how big the launch is,
what the buffers hold at the start and what the outputs must equal afterwards::

    kernel = "mm"              # which kernel of the code object (optional if it has one)
    grid = [2, 4]              # workgroups along x, y, z (1 to 3 numbers)
    block = [256]              # work-items per workgroup along x, y, z
    dynamic_lds = 8192         # LDS bytes on top of the kernel's own (optional)

    [[arg]]
    name = "A"
    kind = "buffer"            # buffer | scalar | null (a null pointer)
    dtype = "bf16"
    shape = [64, 128]
    pass = "pointer"           # pointer | memref | memref-flat | memref-0d | resource
    init = "random"            # random | zeros | poison | {random = [lo, hi]} |
                               # {value = v} | {copy = "other buffer"}

    [[arg]]
    name = "M"
    kind = "scalar"
    dtype = "i32"
    value = 64

    [[check]]
    output = "C"
    expect = "A @ B.T + bias"  # names are the buffers' contents at the start

:func:`read_launch` parses and checks it into a :class:`LaunchSpec`; every problem is one
:class:`LaunchFileError` naming the file, the line (of the field, or of its table) and the
field.  Nothing is defaulted silently except what this docstring states: ``pass``
``pointer``; ``init`` ``random`` (-3..3) for a buffer no check names as its output and
``poison`` (every byte 0xFF: NaN, so an element the kernel does not write is wrong) for an
output; ``dynamic_lds`` 0; ``seed`` 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.isa.utf8 import NotUtf8, utf8_text
from pipeline_mlir.emu.expect import (BUFFER_DTYPES, SCALAR_DTYPES, Expr, exact_range,
                                      int_range, parse_expect)
from pipeline_mlir.target.gfx950 import LDS_BYTES

PASSES = ("pointer", "memref", "memref-flat", "memref-0d", "resource")
KINDS = ("buffer", "scalar", "null")
_TOP = {"kernel", "grid", "block", "dynamic_lds", "seed", "arg", "check"}
_ARG = {"buffer": {"kind", "name", "dtype", "shape", "pass", "init", "records"},
        "scalar": {"kind", "name", "dtype", "value"},
        "null": {"kind", "name"}}
_CHECK = {"output", "expect"}
#: the largest workgroup the hardware launches (work-items)
MAX_BLOCK = 1024


class LaunchFileError(EmuError):
    """A launch description that cannot be used: ``location`` (``file[:line[:column]]``)
    and ``detail`` (the field and what is wrong with it)."""

    def __init__(self, location: str, detail: str) -> None:
        self.location, self.detail = location, detail
        super().__init__(f"{location}: {detail}")


@dataclass(frozen=True)
class Init:
    """How a buffer starts: ``random`` (integers in ``low..high``), ``zeros``, ``poison``,
    ``value`` (every element ``value``) or ``copy`` (of buffer ``source``)."""
    how: str
    low: int = -3
    high: int = 3
    value: float = 0.0
    source: str = ""


@dataclass(frozen=True)
class Arg:
    kind: str                  # buffer, scalar or null
    name: str
    dtype: str = ""
    shape: tuple[int, ...] = ()
    passing: str = "pointer"
    init: Init | None = None
    records: int | None = None  # a buffer resource's num_records (None: its bytes)
    value: float = 0
    where: str = ""            # file:line

    @property
    def count(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True)
class Check:
    output: str
    expect: Expr
    text: str
    where: str


@dataclass(frozen=True)
class LaunchSpec:
    path: str
    kernel: str | None
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    grid_dims: int             # how many dimensions the file gave the grid
    dynamic_lds: int
    seed: int
    args: tuple[Arg, ...]
    checks: tuple[Check, ...] = field(default=())
    #: file:line of the top-level fields (grid, block, dynamic_lds)
    where: dict = field(default_factory=dict, compare=False)

    def at(self, key: str) -> str:
        return self.where.get(key, self.path)

    def buffer(self, name: str) -> Arg:
        return next(a for a in self.args if a.kind == "buffer" and a.name == name)


class _Lines:
    """The line of each field of a TOML file: ``[table]`` / ``[[array]]`` headers and
    ``key = ...`` lines (enough for the flat files this format takes; a field not found is
    located at its table's header)."""

    _HEADER = re.compile(r"^\s*\[(\[)?\s*([A-Za-z0-9_.-]+)\s*\]")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple, int] = {}
        table: tuple = ()
        seen: dict[str, int] = {}
        for no, line in enumerate(text.splitlines(), 1):
            h = self._HEADER.match(line)
            if h:
                name = h.group(2)
                if h.group(1):
                    seen[name] = seen.get(name, -1) + 1
                    table = (name, seen[name])
                else:
                    table = (name,)
                self.lines.setdefault(table, no)
                continue
            k = self._KEY.match(line)
            if k:
                self.lines.setdefault(table + (k.group(1),), no)

    def line(self, path: tuple) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.path, self.loc = path, _Lines(text)

    def where(self, at: tuple) -> str:
        line = self.loc.line(at)
        return f"{self.path}:{line}" if line else self.path

    def fail(self, at: tuple, message: str):
        name = ".".join(f"{p}[{i}]" if i is not None else str(p)
                        for p, i in _pairs(at)) or "the file"
        raise LaunchFileError(self.where(at), f"{name}: {message}")

    def unknown(self, table: dict, allowed: set, at: tuple) -> None:
        for key in table:
            if key not in allowed:
                self.fail(at + (key,), f"unknown field (fields here: "
                                       f"{', '.join(sorted(allowed))})")

    def integer(self, table: dict, key: str, at: tuple, low: int, default=None,
                high: int | None = None) -> int:
        v = table.get(key, default)
        if v is None:
            self.fail(at + (key,), "missing")
        if isinstance(v, bool) or not isinstance(v, int) or v < low or \
                (high is not None and v > high):
            rng = f"{low}..{high}" if high is not None else f">= {low}"
            self.fail(at + (key,), f"must be an integer {rng}, got {v!r}")
        return v

    def dims(self, table: dict, key: str, at: tuple, size: int) -> list[int]:
        v = table.get(key)
        if v is None:
            self.fail(at + (key,), "missing")
        if isinstance(v, int) and not isinstance(v, bool):
            v = [v]
        if not isinstance(v, list) or not 1 <= len(v) <= size or \
                any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in v):
            self.fail(at + (key,), f"must be a list of 1 to {size} positive integers, "
                                   f"got {v!r}")
        return v


def _pairs(at: tuple):
    """(name, index-or-None) pairs of a field path: ('arg', 2, 'shape') -> arg[2], shape."""
    out, i = [], 0
    while i < len(at):
        if i + 1 < len(at) and isinstance(at[i + 1], int):
            out.append((at[i], at[i + 1]))
            i += 2
        else:
            out.append((at[i], None))
            i += 1
    return out


def read_launch(path: str, text: str | None = None) -> LaunchSpec:
    """The launch description in ``path`` (or ``text``, named ``path``), checked."""
    import tomllib

    if text is None:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise LaunchFileError(path, f"cannot read the launch description: "
                                        f"{e.strerror or e}") from None
        text = _utf8(path, data)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        at, msg = _toml_position(e, text)
        raise LaunchFileError(path + at, f"not TOML: {msg}") from None
    return _spec(_Reader(path, text), data)


def _utf8(path: str, data: bytes) -> str:
    """``data`` decoded; a byte that is not UTF-8 (TOML's encoding) is an error at its line
    and column (a column counts bytes)."""
    try:
        return utf8_text(data)
    except NotUtf8 as e:
        raise LaunchFileError(e.at(path), f"{e}: a launch description is TOML, which is "
                                          f"UTF-8") from None


def _toml_position(e: Exception, text: str) -> tuple[str, str]:
    """(``:line:column`` or ``""``, the message without its position) of a TOML syntax
    error.  tomllib puts the position into the message, as ``(at line L, column C)`` or,
    for an error at the end of the text (an unclosed array or string), ``(at end of
    document)``: that one is the last line's end."""
    msg = str(e)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)", msg)
    if m:
        return f":{m.group(1)}:{m.group(2)}", msg[:m.start()] + msg[m.end():]
    m = re.search(r"\s*\(at end of document\)", msg)
    if m:
        last = text.rsplit("\n", 1)[-1]
        return f":{text.count(chr(10)) + 1}:{len(last) + 1}", msg[:m.start()] + msg[m.end():]
    return "", msg


def _spec(r: _Reader, data: dict) -> LaunchSpec:
    r.unknown(data, _TOP, ())
    kernel = data.get("kernel")
    if kernel is not None and not isinstance(kernel, str):
        r.fail(("kernel",), f"must be a kernel's name (a string), got {kernel!r}")
    grid = r.dims(data, "grid", (), 3)
    block = r.dims(data, "block", (), 3)
    threads = block[0] * (block[1] if len(block) > 1 else 1) * \
        (block[2] if len(block) > 2 else 1)
    if threads > MAX_BLOCK or any(d > MAX_BLOCK for d in block):
        r.fail(("block",), f"{block} is {threads} work-items; a workgroup has at most "
                           f"{MAX_BLOCK}")
    lds = r.integer(data, "dynamic_lds", (), 0, 0, LDS_BYTES)
    seed = r.integer(data, "seed", (), 0, 0)
    raw_args = data.get("arg")
    if not isinstance(raw_args, list) or not raw_args:
        r.fail(("arg",), "missing: one [[arg]] table per kernel argument, in kernarg order")
    raw_checks = data.get("check", [])
    if not isinstance(raw_checks, list) or not raw_checks:
        r.fail(("check",), "missing: at least one [[check]] table (an output and what it "
                           "must equal)")
    outputs = {c.get("output") for c in raw_checks if isinstance(c, dict)}
    args = tuple(_arg(r, a, i, outputs) for i, a in enumerate(raw_args))
    _check_names(r, args)
    buffers = {a.name: a for a in args if a.kind == "buffer"}
    checks = tuple(_check(r, c, i, buffers) for i, c in enumerate(raw_checks))
    for i, c in enumerate(checks):
        if [x.output for x in checks].index(c.output) != i:
            r.fail(("check", i, "output"), f"{c.output!r} is checked twice")
    pad = (1, 1)
    return LaunchSpec(r.path, kernel, tuple(grid + list(pad))[:3],
                      tuple(block + list(pad))[:3], len(grid), lds, seed, args, checks,
                      {k: r.where((k,)) for k in ("grid", "block", "dynamic_lds")})


def _check_names(r: _Reader, args) -> None:
    seen = {}
    for i, a in enumerate(args):
        if a.name and a.name in seen:
            r.fail(("arg", i, "name"), f"{a.name!r} is the name of arg[{seen[a.name]}] too")
        seen[a.name] = i
    buffers = {a.name: a for a in args if a.kind == "buffer"}
    for i, a in enumerate(args):
        if a.kind != "buffer" or a.init.how != "copy":
            continue
        src = buffers.get(a.init.source)
        if src is None or src is a:
            r.fail(("arg", i, "init"), f"copies {a.init.source!r}, which is no other buffer "
                                       f"(buffers: {', '.join(buffers)})")
        if src.init.how == "copy":
            r.fail(("arg", i, "init"), f"copies {src.name!r}, which is a copy itself: copy "
                                       f"{src.init.source!r}")
        if (src.dtype, src.shape) != (a.dtype, a.shape):
            r.fail(("arg", i, "init"), f"copies {src.name!r} ({_text(src)}), which is not "
                                       f"of its type {_text(a)}")


def _text(a: Arg) -> str:
    return "x".join(map(str, a.shape)) + "x" + a.dtype


def _arg(r: _Reader, a, i: int, outputs: set) -> Arg:
    at = ("arg", i)
    if not isinstance(a, dict):
        r.fail(at, "must be a table")
    kind = a.get("kind")
    if kind not in KINDS:
        r.fail(at + ("kind",), f"must be one of {', '.join(KINDS)}, got {kind!r}")
    r.unknown(a, _ARG[kind], at)
    name = a.get("name", "" if kind == "null" else None)
    if not isinstance(name, str) or (kind != "null" and not re.fullmatch(r"[A-Za-z_]\w*",
                                                                         name)):
        r.fail(at + ("name",), f"must be an identifier (the name checks use), got {name!r}")
    where = r.where(at)
    if kind == "null":
        return Arg("null", name, where=where)
    dtype = a.get("dtype")
    if kind == "scalar":
        if dtype not in SCALAR_DTYPES:
            r.fail(at + ("dtype",), f"must be one of {', '.join(SCALAR_DTYPES)}, got "
                                    f"{dtype!r}")
        value = a.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (dtype[0] in "iu" and not isinstance(value, int)):
            r.fail(at + ("value",), f"must be a number of type {dtype}, got {value!r}")
        if dtype[0] in "iu" and not int_range(dtype)[0] <= value <= int_range(dtype)[1]:
            r.fail(at + ("value",), f"{value} does not fit in {dtype}")
        return Arg("scalar", name, dtype, value=value, where=where)
    if dtype not in BUFFER_DTYPES:
        r.fail(at + ("dtype",), f"must be one of {', '.join(BUFFER_DTYPES)}, got {dtype!r}")
    shape = tuple(r.dims(a, "shape", at, 4))
    passing = a.get("pass", "pointer")
    if passing not in PASSES:
        r.fail(at + ("pass",), f"must be one of {', '.join(PASSES)}, got {passing!r}")
    records = None
    if "records" in a:
        if passing != "resource":
            r.fail(at + ("records",), "goes with pass = \"resource\" (a buffer resource's "
                                      "num_records)")
        records = r.integer(a, "records", at, 0, high=(1 << 32) - 1)
    init = _init(r, a.get("init"), at, dtype, name in outputs)
    return Arg("buffer", name, dtype, shape, passing, init, records, where=where)


def _init(r: _Reader, v, at: tuple, dtype: str, output: bool) -> Init:
    at = at + ("init",)
    if v is None:
        return Init("poison" if output else "random")
    if v in ("random", "zeros", "poison"):
        return Init(v)
    if not isinstance(v, dict) or len(v) != 1:
        r.fail(at, f"must be \"random\", \"zeros\", \"poison\" or one of {{random = [lo, "
                   f"hi]}}, {{value = v}}, {{copy = \"buffer\"}}, got {v!r}")
    (how, x), = v.items()
    lo, hi = exact_range(dtype)
    if how == "random":
        if not isinstance(x, list) or len(x) != 2 or \
                any(isinstance(b, bool) or not isinstance(b, int) for b in x) or x[0] > x[1]:
            r.fail(at, f"random = [lo, hi] takes two integers lo <= hi, got {x!r}")
        if x[0] < lo or x[1] > hi:
            r.fail(at, f"random = {x}: {dtype} holds the integers {lo}..{hi} exactly")
        return Init("random", x[0], x[1])
    if how == "value":
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            r.fail(at, f"value = {x!r} is not a number")
        if not exact_range(dtype, x):
            r.fail(at, f"value = {x} is not exact in {dtype}")
        return Init("value", value=x)
    if how == "copy":
        if not isinstance(x, str):
            r.fail(at, f"copy = {x!r} is not a buffer's name")
        return Init("copy", source=x)
    r.fail(at, f"unknown way to start a buffer {how!r} (random, value, copy)")


def _check(r: _Reader, c, i: int, buffers: dict) -> Check:
    at = ("check", i)
    if not isinstance(c, dict):
        r.fail(at, "must be a table")
    r.unknown(c, _CHECK, at)
    out = c.get("output")
    if out not in buffers:
        r.fail(at + ("output",), f"must name a buffer argument (buffers: "
                                 f"{', '.join(buffers) or 'none'}), got {out!r}")
    text = c.get("expect")
    if not isinstance(text, str):
        r.fail(at + ("expect",), f"must be an expression of the buffers (e.g. \"A @ B.T\"), "
                                 f"got {text!r}")
    try:
        expr = parse_expect(text, {n: b.shape for n, b in buffers.items()})
    except EmuError as e:
        r.fail(at + ("expect",), str(e))
    if expr.shape != buffers[out].shape:
        r.fail(at + ("expect",), f"{text!r} has the shape {list(expr.shape)}, the output "
                                 f"{out!r} {list(buffers[out].shape)}")
    for n in expr.names:
        if buffers[n].init.how == "poison":
            r.fail(at + ("expect",), f"reads {n!r}, which starts as poison: give it an init")
    return Check(out, expr, text, r.where(at))
