"""Typed options: one description (name, type, default, range, help) for every option.

The named pipelines (``--pipeline=NAME{key=value ...}``, :mod:`pipeline_mlir.schedules`)
and the passes (``--pass-pipeline=...,sched-lower-to-rocdl{fence-waits=false}``,
``pipeline_mlir.passes``) declare their options as :class:`Option` objects and read
them with the same functions, so syntax, accepted values, ``--help`` text and error
messages are the same everywhere.

Text syntax (:func:`split_spec`)::

    NAME
    NAME{}
    NAME{key=value key=value}
    NAME{key=value, key = value}

Pairs are separated by spaces and/or commas; whitespace around ``=`` is allowed.
Booleans are ``true``/``false``/``1``/``0`` (any case); integers are decimal, ``0x..``
or ``0b..``; enumerations are one of their words (any case).

A value comes in three ways, each checked against the option's type and range:
text (:meth:`Option.parse`), a Python value of the option's type (:meth:`Option.check`,
e.g. an IR attribute's value), or either (:meth:`Option.accept`, the Python API).
Every problem raises :class:`~pipeline_mlir.errors.ConfigError` naming the owner
(``pipeline '4wave'``, ``pass 'sched-annotate'``), the option, what it accepts and the
value given; an unknown key lists the valid ones and suggests the closest.

Plain Python, no MLIR import (the scheduling core and ``--help`` use it).
"""

from __future__ import annotations

import re

from pipeline_mlir.errors import ConfigError

BOOL_WORDS = {"true": True, "1": True, "false": False, "0": False}
KINDS = ("int", "bool", "enum", "str")
#: the range of an integer option (its value is an i64 attribute in the IR)
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1

# patterns of the spec syntax, compiled (and cached by re) when a spec with options is read
_INT_RE = r"^[+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)$"
_DECIMAL_RE = re.compile(r"[+-]?[0-9]+")


def decimal(text: str) -> int | None:
    """The integer ``text`` writes in ASCII decimal digits (a sign allowed), else None: not
    what Python's ``int`` also takes (``1_000``, other scripts' digits, spaces around)."""
    return int(text, 10) if _DECIMAL_RE.fullmatch(text) else None
_KEY_RE = r"[A-Za-z_][A-Za-z0-9_\-]*"
_SEP_RE = r"[\s,]*"
_VALUE_RE = r"[^\s,{}=]+"


def value_text(value: object) -> str:
    """How a value is written in a spec (booleans as ``true``/``false``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Option:
    """One option: its name, type (``int``, ``bool``, ``enum``, ``str``), default
    (``None``: not set / derived), help text, and accepted range (``min``/``max`` for
    integers, ``choices`` for enumerations)."""

    __slots__ = ("name", "kind", "default", "help", "min", "max", "choices")

    def __init__(self, name: str, kind: str, default: object, help: str, *,
                 min: int | None = None, max: int | None = None,
                 choices: tuple[str, ...] = ()) -> None:
        if kind not in KINDS:
            raise ValueError(f"option '{name}': unknown kind {kind!r}")
        for n, v in zip(self.__slots__, (name, kind, default, help, min, max, tuple(choices))):
            object.__setattr__(self, n, v)

    def __setattr__(self, name, value):
        raise AttributeError("Option is immutable")

    def _key(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Option({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"

    # -- description ---------------------------------------------------------------------
    def expected(self) -> str:
        """The accepted values in words (messages and ``--help``)."""
        if self.kind == "bool":
            return "a boolean (true, false, 1 or 0)"
        if self.kind == "enum":
            return "one of " + "|".join(self.choices)
        if self.kind == "str":
            return "a name"
        if self.min is not None and self.max is not None:
            return f"an integer in {self.min}..{self.max}"
        if self.min is not None:
            return f"an integer >= {self.min}"
        if self.max is not None:
            return f"an integer <= {self.max}"
        return "an integer"

    def default_text(self, unset: str = "(none)") -> str:
        """The default as written in a spec; ``unset`` when there is none."""
        return unset if self.default is None else self.format(self.default)

    def format(self, value: object) -> str:
        return value_text(value)

    # -- reading a value -----------------------------------------------------------------
    def _bad(self, owner: str, shown: str) -> ConfigError:
        return ConfigError(f"{owner}: option '{self.name}' expects {self.expected()}, "
                           f"got '{shown}'")

    def _in_range(self, owner: str, v: int) -> int:
        if not INT64_MIN <= v <= INT64_MAX:  # options travel as i64 IR attributes
            raise ConfigError(f"{owner}: option '{self.name}' is out of range: {v} does not "
                              f"fit in a 64-bit integer ({INT64_MIN}..{INT64_MAX})")
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            raise ConfigError(f"{owner}: option '{self.name}' is out of range: expects "
                              f"{self.expected()}, got {v}")
        return v

    def parse(self, owner: str, text: str) -> object:
        """The value of ``text``; ``owner`` names who has the option (``pipeline 'x'``)."""
        if self.kind == "bool":
            v = BOOL_WORDS.get(text.lower())
            if v is None:
                raise self._bad(owner, text)
            return v
        if self.kind == "enum":
            low = text.lower()
            if low not in self.choices:
                raise self._bad(owner, text)
            return low
        if self.kind == "str":
            if not text:
                raise self._bad(owner, text)
            return text
        if not re.fullmatch(_INT_RE, text):
            raise self._bad(owner, text)
        digits = text.lstrip("+-")
        v = int(digits, 0) if digits[:2].lower() in ("0x", "0b") else int(digits, 10)
        return self._in_range(owner, -v if text.startswith("-") else v)

    def check(self, owner: str, value: object) -> object:
        """``value`` itself if it is a value of this option (enumerations: any case)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._bad(owner, value_text(value))
            return value
        if self.kind in ("enum", "str"):
            if not isinstance(value, str):
                raise self._bad(owner, value_text(value))
            return self.parse(owner, value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._bad(owner, value_text(value))
        return self._in_range(owner, value)

    def accept(self, owner: str, value: object) -> object:
        """Text (parsed) or a Python value (checked): the Python API's way in."""
        if isinstance(value, str):
            return self.parse(owner, value)
        return self.check(owner, value)


class OptionTable:
    """The options of one owner, by name, in declaration order."""

    def __init__(self, options) -> None:
        self.options: tuple[Option, ...] = tuple(options)
        self.by_name = {o.name: o for o in self.options}
        if len(self.by_name) != len(self.options):
            raise ValueError("duplicate option names")

    def __iter__(self):
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def __contains__(self, key: str) -> bool:
        return key in self.by_name

    def get(self, key: str) -> Option | None:
        return self.by_name.get(key)

    def names(self) -> list[str]:
        return [o.name for o in self.options]

    def unknown(self, owner: str, key: str, valid: list[str] | None = None) -> ConfigError:
        """The error for a key that is not an option (with the closest valid key)."""
        keys = self.names() if valid is None else valid
        return ConfigError(f"{owner}: unknown option '{key}'{suggest(key, keys)}; valid keys: "
                           f"{', '.join(keys) or 'none'}")

    def read_pairs(self, owner: str, pairs) -> dict[str, object]:
        """Parse ``[(key, text), ...]`` (each key once) into ``{key: value}``, in order."""
        out: dict[str, object] = {}
        raw: dict[str, str] = {}
        for key, text in pairs:
            check_once(owner, raw, key, text)
            opt = self.by_name.get(key)
            if opt is None:
                raise self.unknown(owner, key)
            out[key] = opt.parse(owner, text)
        return out

    def read_values(self, owner: str, values: dict, *, text_allowed: bool = True) -> dict:
        """Check ``{key: value}`` (Python values, or text when ``text_allowed``)."""
        out = {}
        for key, v in values.items():
            opt = self.by_name.get(key)
            if opt is None:
                raise self.unknown(owner, key)
            out[key] = opt.accept(owner, v) if text_allowed else opt.check(owner, v)
        return out

    def describe(self, indent: str = "    ", width: int = 27) -> list[str]:
        """``--help`` lines: ``name=default  help; accepted values``."""
        return [f"{indent}{o.name + '=' + o.default_text():<{width}} {o.help}; {o.expected()}"
                for o in self.options]


def check_once(owner: str, seen: dict[str, str], key: str, text: str) -> None:
    """Record ``key`` in ``seen``; a key given twice is an error naming both values."""
    if key in seen:
        raise ConfigError(f"{owner}: option '{key}' given twice ('{seen[key]}' and '{text}')")
    seen[key] = text


def suggest(key: str, candidates: list[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest candidate, or nothing."""
    lowered = {c.lower(): c for c in candidates}
    if key.lower() in lowered:
        return f" (did you mean '{lowered[key.lower()]}'?)"
    import difflib  # only for a word that is not known

    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _split_by_the_shell(spec: str, name: str, what: str, known) -> ConfigError | None:
    """The error for ``NAMEKEY=VALUE`` with a known NAME: what bash leaves of an unquoted spec
    with commas (``4wave{BM=128,BN=128}`` becomes the words ``4waveBM=128 4waveBN=128``)."""
    for n in sorted(known, key=len, reverse=True):
        rest = name[len(n):]
        if name.startswith(n) and re.match(r"[A-Za-z_][A-Za-z0-9_\-]*=", rest):
            return ConfigError(
                f"{what} spec '{spec}': '{n}' directly followed by '{rest}' is what bash leaves "
                f"of an unquoted spec with commas (it expands {n}{{a=1,b=2}} into the words "
                f"{n}a=1 {n}b=2); quote the whole spec, every option inside the quotes: "
                f"'{n}{{...,{rest}}}'")
    return None


def _stray(owner: str, body: str, pos: int, pairs: list, value_re) -> str:
    """The message for text at ``pos`` of ``body`` that begins no ``key=value``: a value
    after an option's list value (``force-sources=0,,1``: an empty element between two)
    names that option and the element."""
    item = value_re.match(body, pos)
    if not (pairs and item):
        return f"{owner}: expected key=value at '{body[pos:]}'"
    key, value = pairs[-1]
    last = value.split(",")[-1]
    gap = body[:pos].rstrip(" \t,")
    between = body[len(gap):pos]
    what = (f"an empty element between '{last}' and '{item.group(0)}'"
            if between.count(",") > 1 else
            f"'{item.group(0)}' after it, separated by a space")
    return f"{owner}: option '{key}' has {what} ({key}={value}...; {_list_syntax(key)})"


def _list_syntax(key: str) -> str:
    return f"a list value is {key}=A,B,... with one comma between elements"


def _empty_after(owner: str, body: str, pos: int, key: str, value: str, sep, key_re) -> None:
    """Refuse an empty element after the value ``value`` of ``key`` that ends at ``pos``:
    two commas before the end of the spec or the next key (``force-sources=0,1,,``,
    ``a=1,,b=2``), or a list value that ends in a comma (``force-sources=0,1,``).  A single
    comma after a one-element value stays a pair separator (``BM=128,``): nothing tells it
    from a list there.  Two commas before another value are :func:`_stray`'s case."""
    end = sep.match(body, pos).end()
    commas = body[pos:end].count(",")
    follows = key_re.match(body, end)
    last = value.split(",")[-1]
    if commas >= 2 and (end >= len(body) or follows):
        where = "at the end" if end >= len(body) else f"before '{follows.group(0)}'"
        raise ConfigError(f"{owner}: option '{key}' is followed by an empty element after "
                          f"'{last}', {where} ({key}={value},,...; {_list_syntax(key)})")
    if commas == 1 and end >= len(body) and "," in value:
        raise ConfigError(f"{owner}: option '{key}' ends in a comma after its last element "
                          f"'{last}' ({key}={value},; {_list_syntax(key)})")


def split_spec(spec: str, what: str = "pipeline", known=()) -> tuple[str, list[tuple[str, str]]]:
    """Syntax only: ``NAME{k=v ...}`` -> (NAME, [(key, raw value), ...]) in the given order.

    Pairs are separated by spaces and/or commas; a comma followed by an item that cannot
    begin a key (a number: ``force-sources=0,1``) continues the value as a list.  An empty
    element is an error naming the option and the element: two commas (``force-sources=0,,1``,
    ``force-sources=0,1,,``, ``a=1,,b=2``) or a list value ending in a comma
    (``force-sources=0,1,``).

    ``what`` names the thing in messages (``pipeline``, ``pass``); ``known``: the valid names,
    to recognise a spec the shell split (a known name directly followed by ``KEY=``).
    """
    if not isinstance(spec, str):
        raise ConfigError(f"{what} spec must be a string, got {type(spec).__name__}")
    text = spec.strip()
    if not text:
        raise ConfigError(f"empty {what} spec (expected NAME or NAME{{key=value ...}})")
    brace = text.find("{")
    name = (text if brace < 0 else text[:brace]).strip()
    if not name:
        raise ConfigError(f"{what} spec '{spec}': missing {what} name before '{{'")
    if any(c.isspace() or c in "}=," for c in name):
        raise _split_by_the_shell(spec, name, what, known) or ConfigError(
            f"{what} spec '{spec}': malformed {what} name '{name}' (expected NAME or "
            f"NAME{{key=value ...}})")
    if brace < 0:
        return name, []
    if not text.endswith("}"):
        raise ConfigError(f"{what} spec '{spec}': missing closing '}}' or text after it")
    body = text[brace + 1:-1]
    pairs: list[tuple[str, str]] = []
    pos = 0
    owner = f"{what} '{name}'"
    sep, key_re, value_re = re.compile(_SEP_RE), re.compile(_KEY_RE), re.compile(_VALUE_RE)
    while True:
        pos = sep.match(body, pos).end()
        if pos >= len(body):
            break
        m = key_re.match(body, pos)
        if not m:
            raise ConfigError(_stray(owner, body, pos, pairs, value_re))
        key = m.group(0)
        pos = m.end()
        while pos < len(body) and body[pos] in " \t":
            pos += 1
        if pos >= len(body) or body[pos] != "=":
            raise ConfigError(f"{owner}: option '{key}' has no value (expected {key}=VALUE)")
        pos += 1
        while pos < len(body) and body[pos] in " \t":
            pos += 1
        v = value_re.match(body, pos)
        if not v:
            rest = body[pos:pos + 1] or "end of spec"
            raise ConfigError(f"{owner}: option '{key}' has an empty or malformed value "
                              f"(at '{rest}')")
        pos = v.end()
        # a list value: ``key=0,1`` (a comma followed by an item that cannot begin a key)
        while pos + 1 < len(body) and body[pos] == "," and \
                (more := value_re.match(body, pos + 1)) and not key_re.match(body, pos + 1):
            pos = more.end()
        pairs.append((key, body[v.start():pos]))
        if pos < len(body) and not (body[pos].isspace() or body[pos] == ","):
            raise ConfigError(f"{owner}: unexpected '{body[pos]}' after option '{key}'")
        _empty_after(owner, body, pos, key, pairs[-1][1], sep, key_re)
    return name, pairs


__all__ = ["BOOL_WORDS", "Option", "OptionTable", "check_once", "decimal", "split_spec", "suggest",
           "value_text"]
