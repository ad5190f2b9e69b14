"""The waves a kernel runs, against the schedule that is to run them.

A schedule whose waves run it in lockstep (``4wave``: its ``waves`` option) takes a kernel of
any whole number of waves a workgroup may have, and is given the kernel's count; another one's
kernel runs a fixed number (``pingpong``'s two groups of 4), which the kernel must have.
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.target import gfx950
from pipeline_mlir.target.gfx950 import WAVE_SIZE

#: the option of a schedule whose waves run it in lockstep, any number of them
WAVES_OPTION = "waves"


def lockstep(schedule) -> bool:
    """Whether ``schedule`` takes the kernel's own number of waves."""
    return WAVES_OPTION in type(schedule).options()


def check_waves(kernel, threads: int, schedule) -> None:
    """IRError at ``kernel`` (the function) if ``schedule`` (which has a complete kernel)
    cannot run ``threads`` threads: not whole waves or more than a workgroup may have (a
    lockstep schedule), or not the fixed number of its kernel (another one)."""
    traits = schedule.kernel_traits

    def where() -> str:
        return f"'{kernel.name}' op: the kernel runs {threads} threads ({waves_text(threads)})"

    if not lockstep(schedule):
        if threads != traits.threads:
            raise IRError(kernel, f"{where()} but the '{schedule.name}' schedule is written "
                                  f"for {waves_text(traits.threads)} ({traits.threads} "
                                  f"threads)")
        return
    if threads % WAVE_SIZE or not 0 < threads <= gfx950.MAX_WORKGROUP_THREADS:
        raise IRError(kernel, f"{where()}; the '{schedule.name}' schedule runs whole "
                              f"{WAVE_SIZE}-lane waves in lockstep, 1 to "
                              f"{gfx950.MAX_WAVES} of them (at most "
                              f"{gfx950.MAX_WORKGROUP_THREADS} threads a {gfx950.NAME} "
                              f"workgroup)")


def waves_text(threads: int) -> str:
    """``threads`` as waves: '1 wave', '4 waves', '0.5 waves'."""
    n = threads / WAVE_SIZE
    return f"{n:g} wave{'' if n == 1 else 's'}"


def with_kernel_waves(loop, kernel, threads: int, schedule):
    """``schedule`` running the kernel's waves: a lockstep schedule given the kernel's count
    (:func:`check_waves` first), unless its spec gives another, which is an error at
    ``loop``; another schedule as it is."""
    check_waves(kernel, threads, schedule)
    if not lockstep(schedule):
        return schedule
    waves = threads // WAVE_SIZE
    if WAVES_OPTION in schedule.given and schedule.get(WAVES_OPTION) != waves:
        raise IRError(loop, f"'{loop.name}' op: the pipeline asks for "
                            f"{WAVES_OPTION}={schedule.get(WAVES_OPTION)}, but the kernel "
                            f"runs {waves_text(threads)}")
    if schedule.get(WAVES_OPTION) == waves:
        return schedule
    return schedule.with_(**{WAVES_OPTION: waves})
