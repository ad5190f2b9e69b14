"""Named pipelines and their textual options: ``NAME{key=value key=value ...}``.

This is the option syntax of ``pipeline-opt --pipeline=...`` (and, later, of the
named MLIR pass pipelines).  A spec names one of the shipped schedules and sets
some of its options; :func:`parse_pipeline` checks every key and value and
returns a :class:`PipelineRequest`, which builds the schedule object
(:meth:`PipelineRequest.build`) or compiles it (:meth:`PipelineRequest.compile`).

Syntax::

    pingpong
    pingpong{}
    4wave{dtype=fp8 BM=128 BN=128 BK=128}
    pingpong{is_fp8=true, max_globals=0, scheduling=greedy}

Pairs are separated by spaces and/or commas; whitespace around ``=`` is
allowed.  Booleans are ``true``/``false``/``1``/``0``; integers are decimal,
``0x..`` or ``0b..``.  Besides its own keys, a double-buffer pipeline accepts
every :class:`~pipeline_mlir.schedule.config.ScheduleConfig` field by name, applied on
top of the schedule's own configuration.

Every problem -- unknown pipeline, unknown or repeated key, malformed value,
value out of range, an option the schedule would ignore or override -- raises
:class:`~pipeline_mlir.errors.ConfigError` naming the pipeline and the key.
Nothing is silently dropped, clamped or overridden.

No MLIR import here, and the schedule modules are imported only when a schedule
is built, so parsing (and ``pipeline-opt --help``) stays cheap.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from dataclasses import fields

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.schedule.compiler import compile_schedule
from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy
from pipeline_mlir.schedule.targets import mi355x_target
from pipeline_mlir.schedules.fourwave import Pipeline4Wave, kernel_schedule_config, kernel_target
from pipeline_mlir.schedules.geometry import four_wave_geometry
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule, default_config
from pipeline_mlir.schedules.single_buffer import SingleBufferSchedule

# Hardware counter limits (SPEC 4.7): one load's entries must be waitable.
VMCNT_MAX = 63
LGKMCNT_MAX = 15
# Guard against runaway body sizes in the single-buffer schedule.
SINGLE_BUFFER_T_MAX = 256

BOOL_WORDS = {"true": True, "1": True, "false": False, "0": False}
_INT_RE = re.compile(r"^[+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)$")
_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SEP_RE = re.compile(r"[\s,]*")
_VALUE_RE = re.compile(r"[^\s,{}=]+")


# ---------------------------------------------------------------------------
# Option descriptions
# ---------------------------------------------------------------------------

class _Record:
    """Tiny immutable record (plain class: dataclass creation costs start-up time)."""

    __slots__ = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({args})"

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")


class OptionSpec(_Record):
    """One key of a pipeline spec: its type, default, range and meaning."""

    __slots__ = ("name", "kind", "default", "help", "min", "max", "choices")

    def __init__(self, name: str, kind: str, default: object, help: str,
                 min: int | None = None, max: int | None = None,
                 choices: tuple[str, ...] = ()) -> None:
        for n, v in zip(self.__slots__, (name, kind, default, help, min, max, tuple(choices))):
            object.__setattr__(self, n, v)

    def expected(self) -> str:
        """Human description of the accepted values (used in messages and help)."""
        if self.kind == "bool":
            return "a boolean (true, false, 1 or 0)"
        if self.kind == "enum":
            return "one of " + "|".join(self.choices)
        if self.min is not None and self.max is not None:
            return f"an integer in {self.min}..{self.max}"
        if self.min is not None:
            return f"an integer >= {self.min}"
        return "an integer"

    def parse(self, pipeline: str, text: str) -> object:
        """Convert ``text``; a ConfigError names the pipeline, the key and the expected type."""
        where = f"pipeline '{pipeline}': option '{self.name}'"
        if self.kind == "bool":
            v = BOOL_WORDS.get(text.lower())
            if v is None:
                raise ConfigError(f"{where} expects {self.expected()}, got '{text}'")
            return v
        if self.kind == "enum":
            low = text.lower()
            if low not in self.choices:
                raise ConfigError(f"{where} expects {self.expected()}, got '{text}'")
            return low
        if not _INT_RE.match(text):
            raise ConfigError(f"{where} expects {self.expected()}, got '{text}'")
        digits = text.lstrip("+-")
        v = int(digits, 0) if digits[:2].lower() in ("0x", "0b") else int(digits, 10)
        if text.startswith("-"):
            v = -v
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            raise ConfigError(f"{where} is out of range: expects {self.expected()}, got {v}")
        return v

    def format(self, value: object) -> str:
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)


def _int(name, default, help, min=0, max=None) -> OptionSpec:
    return OptionSpec(name, "int", default, help, min, max)


def _bool(name, default, help) -> OptionSpec:
    return OptionSpec(name, "bool", default, help)


def _enum(name, default, help, choices) -> OptionSpec:
    return OptionSpec(name, "enum", default, help, choices=tuple(choices))


STRATEGY_NAMES = tuple(s.name.lower() for s in SchedulingStrategy)

# Per-field ranges of the ScheduleConfig keys (everything else: integer >= 0).
_CONFIG_MIN = {"max_vgpr": 1}


def _schedule_config_options() -> tuple[OptionSpec, ...]:
    defaults = ScheduleConfig()
    out = []
    for f in fields(ScheduleConfig):
        d = getattr(defaults, f.name)
        h = "ScheduleConfig field"
        if f.name == "scheduling":
            out.append(_enum(f.name, d.name.lower(), "ordering strategy", STRATEGY_NAMES))
        elif f.type in ("bool", bool):
            out.append(_bool(f.name, d, h))
        else:
            out.append(_int(f.name, d, h, min=_CONFIG_MIN.get(f.name, 0)))
    return tuple(out)


SCHEDULE_CONFIG_OPTIONS: tuple[OptionSpec, ...] = _schedule_config_options()
_CONFIG_BY_NAME = {o.name: o for o in SCHEDULE_CONFIG_OPTIONS}


class PipelineKind(_Record):
    """A named schedule: its own keys, and whether it reads ScheduleConfig."""

    __slots__ = ("name", "summary", "options", "accepts_schedule_config", "config_note")

    def __init__(self, name: str, summary: str, options: tuple[OptionSpec, ...],
                 accepts_schedule_config: bool, config_note: str = "") -> None:
        for n, v in zip(self.__slots__, (name, summary, tuple(options),
                                         accepts_schedule_config, config_note)):
            object.__setattr__(self, n, v)

    def option(self, key: str) -> OptionSpec | None:
        for o in self.options:
            if o.name == key:
                return o
        if self.accepts_schedule_config:
            return _CONFIG_BY_NAME.get(key)
        return None

    def valid_keys(self) -> list[str]:
        keys = [o.name for o in self.options]
        if self.accepts_schedule_config:
            keys += [o.name for o in SCHEDULE_CONFIG_OPTIONS if o.name not in keys]
        return keys


_DTYPES = ("bf16", "f16", "fp8")

PIPELINES: dict[str, PipelineKind] = {
    "pingpong": PipelineKind(
        "pingpong",
        "ping-pong double-buffer schedule (DeclarativeSchedule), 2x2 MMA grid per half, "
        "CSP order, derived waits",
        (
            _bool("is_fp8", False, "FP8 kernel flag (informational, as in the reference)"),
            _int("lgkm_per_load_a", 2, "lgkmcnt entries per A fragment load (0 = fall back)",
                 0, LGKMCNT_MAX),
            _int("lgkm_per_load_b", 2, "lgkmcnt entries per B fragment load (0 = fall back)",
                 0, LGKMCNT_MAX),
            _int("vm_per_load_a", 4, "vmcnt entries per A global load", 1, VMCNT_MAX),
            _int("vm_per_load_b", 4, "vmcnt entries per B global load", 1, VMCNT_MAX),
            _int("max_globals", 1, "global loads per MMA block (0 = bunched, no cap)"),
        ),
        True,
        "base: ScheduleConfig(scheduling=csp, auto_waits=true)",
    ),
    "4wave": PipelineKind(
        "4wave",
        "4-wave schedule with cross-stage register rotation (Pipeline4Wave); counts derived "
        "from the tile geometry",
        (
            _enum("dtype", "bf16", "element type", _DTYPES),
            _int("BM", 128, "block tile M", 1),
            _int("BN", 128, "block tile N", 1),
            _int("BK", 64, "block tile K", 1),
            _int("vm_per_load_a", None, "override the geometry's vmcnt per A global load",
                 1, VMCNT_MAX),
            _int("vm_per_load_b", None, "override the geometry's vmcnt per B global load",
                 1, VMCNT_MAX),
            _int("lgkm_per_load_a", None, "override the geometry's lgkmcnt per A fragment load",
                 1, LGKMCNT_MAX),
            _int("lgkm_per_load_b", None, "override the geometry's lgkmcnt per B fragment load",
                 1, LGKMCNT_MAX),
            _int("max_globals", None, "override the geometry's global loads per MMA block"),
            _bool("fences", None, "override schedule-barrier fences (default: BM >= 128 and "
                                  "not fp8)"),
        ),
        True,
        "base: the kernel's config (sched_barrier_mask=0xFF and "
        "wrap_waits_with_sched_barrier=true with fences, else 0/false); the schedule always "
        "uses scheduling=identity, minimal_barriers, omit_mma_set_prio, inter_block_lgkm_drain "
        "and partial_prologue_drain = true (other values are rejected)",
    ),
    "single-buffer": PipelineKind(
        "single-buffer",
        "single-buffer default matmul (SingleBufferSchedule) with AMD schedule-group hints",
        (_int("T", 2, "k-tiles per iteration", 1, SINGLE_BUFFER_T_MAX),),
        False,
        "the single-buffer (depth 1) path never reads ScheduleConfig, so its keys are rejected",
    ),
}


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

def _suggest(key: str, candidates: list[str]) -> str:
    lowered = {c.lower(): c for c in candidates}
    if key.lower() in lowered:
        return f" (did you mean '{lowered[key.lower()]}'?)"

    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def split_spec(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """Syntax only: ``NAME{k=v ...}`` -> (NAME, [(key, raw value), ...]) in the given order."""
    if not isinstance(spec, str):
        raise ConfigError(f"pipeline spec must be a string, got {type(spec).__name__}")
    text = spec.strip()
    if not text:
        raise ConfigError("empty pipeline spec (expected NAME or NAME{key=value ...})")
    brace = text.find("{")
    name = (text if brace < 0 else text[:brace]).strip()
    if not name:
        raise ConfigError(f"pipeline spec '{spec}': missing pipeline name before '{{'")
    if any(c.isspace() or c in "}=," for c in name):
        raise ConfigError(f"pipeline spec '{spec}': malformed pipeline name '{name}' "
                          f"(expected NAME or NAME{{key=value ...}})")
    if brace < 0:
        return name, []
    if not text.endswith("}"):
        raise ConfigError(f"pipeline spec '{spec}': missing closing '}}' "
                          f"or text after it")
    body = text[brace + 1:-1]
    pairs: list[tuple[str, str]] = []
    pos = 0
    while True:
        pos = _SEP_RE.match(body, pos).end()
        if pos >= len(body):
            break
        m = _KEY_RE.match(body, pos)
        if not m:
            raise ConfigError(f"pipeline '{name}': expected key=value at '{body[pos:]}'")
        key = m.group(0)
        pos = m.end()
        while pos < len(body) and body[pos] in " \t":
            pos += 1
        if pos >= len(body) or body[pos] != "=":
            raise ConfigError(f"pipeline '{name}': option '{key}' has no value "
                              f"(expected {key}=VALUE)")
        pos += 1
        while pos < len(body) and body[pos] in " \t":
            pos += 1
        v = _VALUE_RE.match(body, pos)
        if not v:
            rest = body[pos:pos + 1] or "end of spec"
            raise ConfigError(f"pipeline '{name}': option '{key}' has an empty or malformed "
                              f"value (at '{rest}')")
        pairs.append((key, v.group(0)))
        pos = v.end()
        if pos < len(body) and not (body[pos].isspace() or body[pos] == ","):
            raise ConfigError(f"pipeline '{name}': unexpected '{body[pos]}' after "
                              f"option '{key}'")
    return name, pairs


def parse_pipeline(spec: str) -> "PipelineRequest":
    """Parse and check a pipeline spec (see the module docstring for the syntax)."""
    name, pairs = split_spec(spec)
    kind = PIPELINES.get(name)
    if kind is None:
        raise ConfigError(f"unknown pipeline '{name}'{_suggest(name, list(PIPELINES))}; "
                          f"known pipelines: {', '.join(PIPELINES)}")
    own = {o.name for o in kind.options}
    values: dict[str, object] = {}
    config: dict[str, object] = {}
    raw: dict[str, str] = {}
    for key, text in pairs:
        if key in raw:
            raise ConfigError(f"pipeline '{name}': option '{key}' given twice "
                              f"('{raw[key]}' and '{text}')")
        raw[key] = text
        opt = kind.option(key)
        if opt is None:
            if key in _CONFIG_BY_NAME and not kind.accepts_schedule_config:
                raise ConfigError(
                    f"pipeline '{name}': option '{key}' is a ScheduleConfig field, but "
                    f"{kind.config_note}; valid keys: {', '.join(kind.valid_keys())}")
            raise ConfigError(
                f"pipeline '{name}': unknown option '{key}'{_suggest(key, kind.valid_keys())}; "
                f"valid keys: {', '.join(kind.valid_keys())}")
        value = opt.parse(name, text)
        (values if key in own else config)[key] = value
    return PipelineRequest(name, tuple(values.items()), tuple(config.items()))


# ---------------------------------------------------------------------------
# The parsed request
# ---------------------------------------------------------------------------

class PipelineRequest(_Record):
    """A checked pipeline spec: the pipeline, its own options and ScheduleConfig overrides.

    Only the options actually given are stored (in the given order); :meth:`get`
    falls back to the documented default.
    """

    __slots__ = ("name", "options", "config_overrides")

    def __init__(self, name: str, options: tuple[tuple[str, object], ...] = (),
                 config_overrides: tuple[tuple[str, object], ...] = ()) -> None:
        for n, v in zip(self.__slots__, (name, tuple(options), tuple(config_overrides))):
            object.__setattr__(self, n, v)

    @property
    def kind(self) -> PipelineKind:
        return PIPELINES[self.name]

    def get(self, key: str) -> object:
        for k, v in self.options:
            if k == key:
                return v
        opt = self.kind.option(key)
        if opt is None or key not in {o.name for o in self.kind.options}:
            raise KeyError(key)
        return opt.default

    def spec(self) -> str:
        """Canonical spec text of the given options (parses back to an equal request)."""
        items = [f"{k}={self.kind.option(k).format(v)}"
                 for k, v in self.options + self.config_overrides]
        return f"{self.name}{{{' '.join(items)}}}" if items else self.name

    # -- building ------------------------------------------------------------
    def _apply_config(self, base: ScheduleConfig) -> ScheduleConfig:
        changes = {}
        for k, v in self.config_overrides:
            changes[k] = SchedulingStrategy[v.upper()] if k == "scheduling" else v
        try:
            return base.with_(**changes)
        except ConfigError as e:
            raise ConfigError(f"pipeline '{self.name}': {e}") from None

    def _check_not_overridden(self, effective: ScheduleConfig) -> None:
        """Reject a ScheduleConfig option the schedule replaces with its own value."""
        for k, v in self.config_overrides:
            got = getattr(effective, k)
            want = SchedulingStrategy[v.upper()] if k == "scheduling" else v
            if got != want:
                opt = _CONFIG_BY_NAME[k]
                shown = got.name.lower() if k == "scheduling" else opt.format(got)
                raise ConfigError(
                    f"pipeline '{self.name}': option '{k}={opt.format(v)}' cannot be honoured: "
                    f"the schedule always uses {k}={shown}")

    def geometry(self):
        """The 4-wave KernelGeometry: the formulas of SPEC 4.5, then the given overrides."""
        if self.name != "4wave":
            raise ConfigError(f"pipeline '{self.name}' has no kernel geometry")
        from dataclasses import replace


        try:
            g = four_wave_geometry(self.get("dtype"), self.get("BM"), self.get("BN"),
                                   self.get("BK"))
        except ConfigError as e:
            raise ConfigError(f"pipeline '4wave': {e}") from None
        overrides = {k: v for k, v in self.options
                     if k in ("vm_per_load_a", "vm_per_load_b", "lgkm_per_load_a",
                              "lgkm_per_load_b", "max_globals", "fences")}
        return replace(g, **overrides) if overrides else g

    def build(self):
        """The schedule object (a ``PipelineSchedule``) this request describes."""
        if self.name == "pingpong":

            target = mi355x_target(self.get("vm_per_load_a"), self.get("vm_per_load_b"),
                                   self.get("max_globals"))
            s = DeclarativeSchedule(self.get("is_fp8"), self.get("lgkm_per_load_a"),
                                    self.get("lgkm_per_load_b"),
                                    self._apply_config(default_config()), target)
        elif self.name == "4wave":

            g = self.geometry()
            s = Pipeline4Wave(g, self._apply_config(kernel_schedule_config(g)), kernel_target(g))
        elif self.name == "single-buffer":

            return SingleBufferSchedule(self.get("T"))
        else:  # pragma: no cover - PipelineRequest is only made by parse_pipeline
            raise ConfigError(f"unknown pipeline '{self.name}'")
        self._check_not_overridden(s.schedule_config())
        return s

    def lgkm_per_load(self, s) -> tuple[int, int]:
        """The lgkm-per-load counts the kernel of schedule ``s`` (built from this) uses.

        Ping-pong: its lgkm options; 4-wave: the geometry's; single-buffer: none.
        """
        return s.lgkm_per_load()

    def compile(self):
        """Build and compile: the ``ScheduleCompiler`` of the named schedule's default body.

        Like the reference's ``build_schedule``, the compiler records the lgkm-per-load
        values the kernel uses (ping-pong: the lgkm options; 4-wave: the geometry's).
        """

        s = self.build()
        try:
            c = compile_schedule(s)
        except PipelineError as e:
            # same error class, but say which pipeline it came from
            raise type(e)(f"pipeline '{self.spec()}': {e}") from e
        c.lgkm_per_load_a, c.lgkm_per_load_b = self.lgkm_per_load(s)
        return c


#: the schedule class of each named pipeline
SCHEDULE_CLASSES = {"pingpong": DeclarativeSchedule, "4wave": Pipeline4Wave,
                    "single-buffer": SingleBufferSchedule}


def kernel_pipelines() -> tuple[str, ...]:
    """The named pipelines that have a complete GEMM kernel, sorted by name."""
    return tuple(sorted(n for n, c in SCHEDULE_CLASSES.items() if c.kernel_traits is not None))


def build_pipeline(spec: str):
    """``parse_pipeline(spec).build()``."""
    return parse_pipeline(spec).build()


def compile_pipeline(spec: str):
    """``parse_pipeline(spec).compile()``."""
    return parse_pipeline(spec).compile()


def describe_pipelines(width: int = 100) -> str:
    """Plain-text list of the named pipelines and their keys (``pipeline-opt --help``)."""

    def wrap(text: str, indent: str, first: str = "") -> list[str]:
        return textwrap.wrap(text, width, initial_indent=first or indent, subsequent_indent=indent)

    lines = []
    for kind in PIPELINES.values():
        lines += wrap(f"{kind.name}: {kind.summary}", "      ", "  ")
        for o in kind.options:
            d = "(derived)" if o.default is None else o.format(o.default)
            lines += wrap(f"{o.help}; {o.expected()}", " " * 32, f"    {o.name + '=' + d:<27} ")
        if kind.config_note:
            lines += wrap(f"({kind.config_note})", "     ", "    ")
    shared = [o.name for o in SCHEDULE_CONFIG_OPTIONS
              if all(o.name not in {x.name for x in k.options}
                     for k in PIPELINES.values() if k.accepts_schedule_config)]
    lines += wrap("ScheduleConfig fields accepted by pingpong and 4wave (lgkm_per_load_a/b are "
                  "the schedules' own keys there): " + " ".join(shared), "    ", "  ")
    return "\n".join(lines)
