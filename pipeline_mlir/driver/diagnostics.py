"""Diagnostics of the driver: MLIR-style rendering, ``--verify-diagnostics``, and
:class:`Failure`, the located diagnostics a compilation fails with (options that do not make
sense raise :class:`~pipeline_mlir.driver.base.UsageError` instead).

A :class:`Diag` is one diagnostic (error, warning, remark or note) with its
location: ``file:line:col`` when it has one, else a name (``"<spec> default
body"``) or nothing (an unknown location).  :func:`render` prints it the way
MLIR's source-manager handler does: the location and message, then the source
line and a caret under the column, then its notes.

``--verify-diagnostics`` compares the diagnostics of a run with the
``expected-*`` comments of its input, as ``mlir-opt -verify-diagnostics`` does::

    // expected-error @+1 {{substring of the message}}
    // expected-warning-re @below {{regex {{[0-9]+}} in literal text}}
    // expected-remark @unknown {{a diagnostic without a file location}}

Kinds ``error``, ``warning``, ``remark``, ``note``; ``-re`` makes the ``{{...}}``
parts inside the message regular expressions; the line is the comment's own,
``@+N`` / ``@-N``, ``@above`` / ``@below`` (the previous / next line), or
``@unknown``.  Every expectation must be met and every diagnostic expected.
"""

from __future__ import annotations

import re

from pipeline_mlir.driver.base import PROG
from pipeline_mlir.records import field, record


@record
class Diag:
    """One diagnostic. ``file``/``line``/``col`` are None for a location without a file
    position; ``where`` is then the location's text (or None)."""

    severity: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    where: str | None = None
    notes: list["Diag"] = field(default_factory=list)

    def location(self) -> str | None:
        if self.line is not None:
            return f"{self.file}:{self.line}:{self.col}"
        return self.where


class Failure(Exception):
    """Diagnostics to report (at least one error)."""

    def __init__(self, diags: list[Diag]) -> None:
        super().__init__("; ".join(d.message for d in diags))
        self.diags = diags

    @classmethod
    def at(cls, message: str, file: str | None = None) -> "Failure":
        """One error at ``file`` (no line), or at the tool when ``file`` is None."""
        return cls([Diag("error", message, where=file)])


_LOC = re.compile(r'^loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)(?:\s+to\s+[^)]*)?\)$'
                  r'|^loc\("(?P<name>[^"]*)"\)$')
_FILE_IN_LOC = re.compile(r'"(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)')
_SEVERITY_NAMES = {"ERROR": "error", "WARNING": "warning", "REMARK": "remark", "NOTE": "note"}


def from_location(severity: str, message: str, loc, filename: str | None) -> Diag:
    """A :class:`Diag` of an MLIR location (or its text). A location holding a file position
    anywhere (a fused or call-site location) is reported at that position; ``filename``
    replaces the ``-`` of a buffer parsed from a string."""
    text = str(loc)
    m = _LOC.match(text) or _FILE_IN_LOC.search(text)
    if m and m.groupdict().get("line"):
        f = m.group("file")
        f = filename if filename and f in ("-", "") else f
        return Diag(severity, message, f, int(m.group("line")), int(m.group("col")))
    if m and m.groupdict().get("name") is not None:
        return Diag(severity, message, where=f'"{m.group("name")}"')
    return Diag(severity, message, where=None if text == "loc(unknown)" else text)


def at_function(module, name: str | None, message: str, filename: str | None) -> Diag | None:
    """An error ``message`` at the function named ``name`` (any ``*func`` op, by its
    symbol) of ``module`` (None: no module), or None when there is no such function with a
    known location (LLVM's errors and the driver's wait-state check name the function they
    are about)."""
    from pipeline_mlir.dialect.ir_io import walk_ops

    if name is None or module is None:
        return None
    funcs = walk_ops(module.operation, lambda o: o.name.endswith("func") and
                     "sym_name" in o.attributes and
                     str(o.attributes["sym_name"]) == f'"{name}"')
    if not funcs or str(funcs[0].location) == "loc(unknown)":
        return None
    return from_location("error", message, funcs[0].location, filename)


def from_mlir(d, filename: str | None) -> Diag:
    """A :class:`Diag` of an MLIR ``Diagnostic`` or ``DiagnosticInfo`` (with its notes)."""
    sev = _SEVERITY_NAMES.get(str(d.severity).rsplit(".", 1)[-1], "error")
    out = from_location(sev, " ".join(str(d.message).split()), d.location, filename)
    out.notes = [from_mlir(n, filename) for n in d.notes]
    return out


# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------

class Sources:
    """The text of each input by file name, to show the line a diagnostic points at."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, name: str, text: str | None) -> None:
        if text is not None:
            self._lines[name] = text.split("\n")

    def line(self, name: str | None, number: int | None) -> str | None:
        lines = self._lines.get(name or "")
        if lines is None or number is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1].rstrip("\r")


def caret(source: str, col: int | None) -> str:
    """The caret line under column ``col`` (1-based) of ``source``; tabs stay tabs."""
    col = max(1, min(col or 1, len(source) + 1))
    return "".join(c if c == "\t" else " " for c in source[:col - 1]) + "^"


def render(d: Diag, sources: Sources | None = None, prog: str = PROG) -> list[str]:
    """The lines MLIR would print for ``d``: ``LOC: severity: message``, the source line with
    a caret under the column (when the source is known), then each note the same way."""
    where = d.location()
    head = f"{where}: {d.severity}: {d.message}" if where else f"{prog}: {d.severity}: {d.message}"
    lines = [head]
    src = sources.line(d.file, d.line) if sources is not None else None
    if src is not None:
        lines += [src, caret(src, d.col)]
    for n in d.notes:
        lines += render(n, sources, prog)
    return lines


# ---------------------------------------------------------------------------
# --verify-diagnostics
# ---------------------------------------------------------------------------

_EXPECTED = re.compile(r"expected-(?P<kind>error|warning|remark|note)(?P<re>-re)?"
                       r"[ \t]*(?:@(?P<at>[+-]\d+|above|below|unknown))?[ \t]*\{\{")
#: what starts an expectation (its kind, then '@' or '{'), well-formed or not
_EXPECTED_START = re.compile(r"expected-(?:error|warning|remark|note)(?:-re)?[ \t]*[@{]")


@record
class Expected:
    kind: str
    pattern: re.Pattern
    text: str
    line: int | None       # the line the diagnostic must be on (None: unknown location)
    comment_line: int      # where the expectation is written
    comment_col: int
    regex: bool = False


def _pattern(text: str, regex: bool) -> re.Pattern:
    if not regex:
        return re.compile(re.escape(text))
    parts, pos = [], 0
    while True:
        start = text.find("{{", pos)
        if start < 0:
            parts.append(re.escape(text[pos:]))
            break
        end = text.find("}}", start + 2)
        if end < 0:
            raise ValueError("'{{' without a closing '}}' in the regex")
        parts.append(re.escape(text[pos:start]))
        parts.append(f"(?:{text[start + 2:end]})")
        pos = end + 2
    return re.compile("".join(parts))


def expectations(text: str, filename: str, line_offset: int = 0
                 ) -> tuple[list[Expected], list[Diag]]:
    """The ``expected-*`` comments of ``text`` (its first line is line ``1 + line_offset`` of
    ``filename``), and a diagnostic for each malformed one."""
    out, bad = [], []
    lines = text.split("\n")
    for i, src in enumerate(lines, start=1 + line_offset):
        comment = src.find("//")
        if comment < 0:
            continue
        first = _EXPECTED.search(src, comment)
        for start in _EXPECTED_START.finditer(src, comment, first.start() if first else len(src)):
            bad.append(Diag("error", "malformed expectation: expected-KIND[-re], then @+N, @-N, "
                                     "@above, @below, @unknown or nothing, then {{message}}",
                            filename, i, start.start() + 1))
        for m in _EXPECTED.finditer(src, comment):
            col = m.start() + 1
            close = src.rfind("}}")
            if close < m.end():
                bad.append(Diag("error", "expected '}}' at the end of the expected message",
                                filename, i, col))
                continue
            body = src[m.end():close].strip()
            at = m.group("at")
            if at == "unknown":
                target = None
            elif at in ("above", "below"):
                target = i - 1 if at == "above" else i + 1
            else:
                target = i + int(at) if at else i
            regex = bool(m.group("re"))
            try:
                pat = _pattern(body, regex)
            except (ValueError, re.error) as e:
                bad.append(Diag("error", f"invalid regular expression in expected message: {e}",
                                filename, i, col))
                continue
            out.append(Expected(m.group("kind"), pat, body, target, i, col, regex))
    return out, bad


def _flatten(diags: list[Diag]) -> list[Diag]:
    out = []
    for d in diags:
        out.append(d)
        out += _flatten(d.notes)
    return out


def check(expected: list[Expected], diags: list[Diag], filename: str) -> list[Diag]:
    """The problems: one error per expectation not met and per diagnostic not expected
    (notes included), each at the location concerned."""
    remaining = _flatten(diags)
    problems = []
    for e in expected:
        for i, d in enumerate(remaining):
            on_line = (d.line is None) if e.line is None else (d.line == e.line and
                                                               d.file == filename)
            if d.severity == e.kind and on_line and e.pattern.search(d.message):
                remaining.pop(i)
                break
        else:
            kind = e.kind + ("-re" if e.regex else "")
            problems.append(Diag("error", f"expected {kind} \"{e.text}\" was not produced",
                                 filename, e.comment_line, e.comment_col))
    for d in remaining:
        problems.append(Diag("error", f"unexpected {d.severity}: {d.message}", d.file, d.line,
                             d.col, d.where))
    return problems
