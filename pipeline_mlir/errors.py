"""Exceptions raised by the scheduling core.

Every failure a user can cause (a bad configuration, a body the framework
cannot place, a schedule that fails verification) raises a subclass of
:class:`PipelineError` with one readable message.  The command-line driver
turns these into ``error: ...`` lines and exit status 1.
"""


class PipelineError(Exception):
    """Base class of every error the scheduling core raises on bad input."""


class ConfigError(PipelineError):
    """An invalid configuration value (names the field)."""


class BodyError(PipelineError):
    """A loop body the framework cannot handle (ops it would have to drop, cycles, ...)."""


class SchedulingError(PipelineError):
    """A scheduler found no order satisfying its constraints."""


class VerificationError(PipelineError):
    """A structural check of :func:`verify_schedule` failed (reference messages)."""
