"""The named schedules, and their spec text ``NAME{key=value key=value ...}``.

This is the option syntax of ``pipeline-opt --pipeline=...`` and of
``sched-import{schedule=NAME ...}``.  A spec names one of the shipped schedules
(:data:`SCHEDULES`) and sets some of its options; :func:`parse_pipeline` checks every
key and value and returns the schedule's typed object
(:class:`~pipeline_mlir.schedules.named.NamedSchedule`), which builds the core
schedule (``.build()``) or compiles it (``.compile()``).

Syntax (:func:`pipeline_mlir.options.split_spec`)::

    pingpong
    pingpong{}
    4wave{dtype=fp8 BM=128 BN=128 BK=128}
    pingpong{is_fp8=true, max_globals=0, scheduling=greedy}

Besides its own keys, a double-buffer schedule accepts every
:class:`~pipeline_mlir.schedule.config.ScheduleConfig` field by name, applied on top
of the schedule's own configuration.

Every problem -- unknown pipeline, unknown or repeated key, malformed value, value
out of range, an option the schedule would ignore or override -- raises
:class:`~pipeline_mlir.errors.ConfigError` naming the pipeline and the key.  Nothing
is silently dropped, clamped or overridden.  No MLIR import here.
"""

from __future__ import annotations

import textwrap

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.options import split_spec, suggest
from pipeline_mlir.schedules.fourwave import FourWave
from pipeline_mlir.schedules.named import SCHEDULE_CONFIG_OPTIONS, NamedSchedule
from pipeline_mlir.schedules.pingpong import PingPong
from pipeline_mlir.schedules.single_buffer import SingleBuffer

#: every named schedule by name, in ``--help`` order
SCHEDULES: dict[str, type[NamedSchedule]] = {c.name: c for c in (PingPong, FourWave,
                                                                 SingleBuffer)}
#: the schedules with a complete GEMM kernel (``has_kernel``), by name
KERNEL_SCHEDULES: tuple[str, ...] = tuple(sorted(n for n, c in SCHEDULES.items()
                                                 if c.kernel_traits is not None))


def schedule_class(name: str) -> type[NamedSchedule]:
    """The class of the schedule ``name``; ConfigError (with a suggestion) if unknown."""
    cls = SCHEDULES.get(name)
    if cls is None:
        raise ConfigError(f"unknown pipeline '{name}'{suggest(name, list(SCHEDULES))}; "
                          f"known pipelines: {', '.join(SCHEDULES)}")
    return cls


def parse_pipeline(spec: str) -> NamedSchedule:
    """Parse and check a pipeline spec (see the module docstring for the syntax)."""
    name, pairs = split_spec(spec, known=SCHEDULES)
    return schedule_class(name).from_pairs(pairs)


def make_schedule(name: str, values: dict, *, text_allowed: bool = False) -> NamedSchedule:
    """The schedule ``name`` with option values ``{key: value}`` (typed; or text too)."""
    return schedule_class(name).from_values(values, text_allowed=text_allowed)


def compile_spec(spec: str):
    """The compiled schedule (a ``ScheduleCompiler``) of a spec's default body:
    ``parse_pipeline(spec).compile()``."""
    return parse_pipeline(spec).compile()


def describe_pipelines(width: int = 100) -> str:
    """Plain-text list of the named pipelines and their keys (``pipeline-opt --help``)."""

    def wrap(text: str, indent: str, first: str = "") -> list[str]:
        return textwrap.wrap(text, width, initial_indent=first or indent, subsequent_indent=indent)

    lines = []
    for cls in SCHEDULES.values():
        lines += wrap(f"{cls.name}: {cls.summary}", "      ", "  ")
        for o in cls.options():
            lines += wrap(f"{o.help}; {o.expected()}", " " * 32,
                          f"    {o.name + '=' + o.default_text('(derived)'):<27} ")
        if cls.config_note:
            lines += wrap(f"({cls.config_note})", "     ", "    ")
    readers = [c for c in SCHEDULES.values() if c.accepts_schedule_config]
    shared = [k for k in SCHEDULE_CONFIG_OPTIONS.names()
              if all(k not in c.options() for c in readers)]
    own = [k for k in SCHEDULE_CONFIG_OPTIONS.names() if k not in shared]
    lines += wrap(f"ScheduleConfig fields accepted by {' and '.join(c.name for c in readers)} "
                  f"({', '.join(own)} are the schedules' own keys there): " + " ".join(shared),
                  "    ", "  ")
    return "\n".join(lines)


__all__ = ["KERNEL_SCHEDULES", "SCHEDULES", "SCHEDULE_CONFIG_OPTIONS", "NamedSchedule",
           "compile_spec", "describe_pipelines", "make_schedule", "parse_pipeline",
           "schedule_class"]
