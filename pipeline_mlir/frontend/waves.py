"""The waves a kernel runs, against the schedule that is to run them.

A lockstep schedule (:meth:`~pipeline_mlir.schedules.named.NamedSchedule.lockstep`:
``4wave``, its ``waves`` option) takes a kernel of any whole number of waves a workgroup
may have, and is given the kernel's count; another one's kernel runs a fixed number
(``pingpong``'s two groups of 4), which the kernel must have.  Each path checks once per
loop: a natural loop before its analysis (``partition.check_waves``), a tagged loop after
its tag check (``tagged.import_loop``); the schedule is then given the count
(:func:`with_kernel_waves`).
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.schedules.named import WAVES_OPTION
from pipeline_mlir.target import gfx950
from pipeline_mlir.target.gfx950 import WAVE_SIZE, wave_count

__all__ = ["WAVES_OPTION", "check_waves", "with_kernel_waves"]


def check_waves(kernel, threads: int, schedule) -> None:
    """IRError at ``kernel`` (the function) if ``schedule`` (which has a complete kernel)
    cannot run ``threads`` threads: not whole waves (a lockstep schedule), or not the fixed
    number of its kernel (another one).  ``threads`` are those of the kernel's
    :func:`~pipeline_mlir.analysis.ir_facts.block_size`, which refuses a workgroup of no
    thread or of more than a workgroup may have."""
    traits = schedule.kernel_traits

    def where() -> str:
        return f"'{kernel.name}' op: the kernel runs {threads} threads ({wave_count(threads / WAVE_SIZE)})"

    if not schedule.lockstep():
        if threads != traits.threads:
            raise IRError(kernel, f"{where()} but the '{schedule.name}' schedule is written "
                                  f"for {wave_count(traits.threads / WAVE_SIZE)} ({traits.threads} "
                                  f"threads)")
        return
    if threads % WAVE_SIZE:
        raise IRError(kernel, f"{where()}; the '{schedule.name}' schedule runs whole "
                              f"{WAVE_SIZE}-lane waves in lockstep, 1 to "
                              f"{gfx950.MAX_WAVES} of them (at most "
                              f"{gfx950.MAX_WORKGROUP_THREADS} threads a {gfx950.NAME} "
                              f"workgroup)")


def with_kernel_waves(loop, threads: int, schedule):
    """``schedule`` running the ``threads`` of a kernel :func:`check_waves` took: a
    lockstep schedule given the kernel's count, unless its spec gives another, which is an
    error at ``loop``; another schedule as it is."""
    if not schedule.lockstep():
        return schedule
    waves = threads // WAVE_SIZE
    if WAVES_OPTION in schedule.given and schedule.get(WAVES_OPTION) != waves:
        raise IRError(loop, f"'{loop.name}' op: the pipeline asks for "
                            f"{WAVES_OPTION}={schedule.get(WAVES_OPTION)}, but the kernel "
                            f"runs {wave_count(threads / WAVE_SIZE)}")
    if schedule.get(WAVES_OPTION) == waves:
        return schedule
    return schedule.with_(**{WAVES_OPTION: waves})
