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

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.options import split_spec, suggest
from pipeline_mlir.schedules.named import SCHEDULE_CONFIG_OPTIONS, NamedSchedule

#: the names of the named schedules, in ``--help`` order.  A spec imports only the module of
#: the schedule it names (:func:`schedule_class`); :data:`SCHEDULES` imports them all.
NAMES = ("pingpong", "4wave", "single-buffer")


def __getattr__(name: str):
    """:data:`SCHEDULES` (every named schedule's class by name, in ``--help`` order) and
    :data:`KERNEL_SCHEDULES` (the names of those with a complete GEMM kernel, sorted), made
    when first read: they import every schedule."""
    if name == "SCHEDULES":
        value = {n: schedule_class(n) for n in NAMES}
    elif name == "KERNEL_SCHEDULES":
        value = tuple(sorted(n for n in NAMES if schedule_class(n).kernel_traits is not None))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def schedule_class(name: str) -> type[NamedSchedule]:
    """The class of the schedule ``name`` (importing its module); ConfigError (with a
    suggestion) if unknown."""
    if name == "pingpong":
        from pipeline_mlir.schedules.pingpong import PingPong as cls
    elif name == "4wave":
        from pipeline_mlir.schedules.fourwave import FourWave as cls
    elif name == "single-buffer":
        from pipeline_mlir.schedules.single_buffer import SingleBuffer as cls
    else:
        raise ConfigError(f"unknown pipeline '{name}'{suggest(name, list(NAMES))}; "
                          f"known pipelines: {', '.join(NAMES)}")
    return cls


def parse_pipeline(spec: str) -> NamedSchedule:
    """Parse and check a pipeline spec (see the module docstring for the syntax)."""
    name, pairs = split_spec(spec, known=NAMES)
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
    import textwrap

    def wrap(text: str, indent: str, first: str = "") -> list[str]:
        return textwrap.wrap(text, width, initial_indent=first or indent, subsequent_indent=indent)

    schedules = [schedule_class(n) for n in NAMES]
    lines = []
    for cls in schedules:
        lines += wrap(f"{cls.name}: {cls.summary}", "      ", "  ")
        for o in cls.options():
            lines += wrap(f"{o.help}; {o.expected()}", " " * 32,
                          f"    {o.name + '=' + o.default_text('(derived)'):<27} ")
        if cls.config_note:
            lines += wrap(f"({cls.config_note})", "     ", "    ")
    readers = [c for c in schedules if c.accepts_schedule_config]
    shared = [k for k in SCHEDULE_CONFIG_OPTIONS.names()
              if all(k not in c.options() for c in readers)]
    own = [k for k in SCHEDULE_CONFIG_OPTIONS.names() if k not in shared]
    lines += wrap(f"ScheduleConfig fields accepted by {' and '.join(c.name for c in readers)} "
                  f"({', '.join(own)} are the schedules' own keys there): " + " ".join(shared),
                  "    ", "  ")
    return "\n".join(lines)


# KERNEL_SCHEDULES and SCHEDULES are made on first read (__getattr__)
__all__ = ["KERNEL_SCHEDULES", "NAMES", "SCHEDULES", "SCHEDULE_CONFIG_OPTIONS",  # noqa: F822
           "NamedSchedule", "compile_spec", "describe_pipelines", "make_schedule",
           "parse_pipeline", "schedule_class"]
