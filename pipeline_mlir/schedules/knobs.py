"""Tuning knobs: the options of a named schedule that ``pipeline-opt --tune`` searches.

Each :class:`~pipeline_mlir.schedules.named.NamedSchedule` subclass with a complete kernel
declares its knobs (``tune_knobs``, in search order) next to its options; the tuner
(:mod:`pipeline_mlir.sim.tune`) reads them from the schedule object.  A knob names one
option of its schedule and the values tried, as spec text.
"""

from __future__ import annotations

from pipeline_mlir.records import record


@record(frozen=True)
class Knob:
    """One searched option: its key and the values tried (spec text)."""

    name: str
    values: tuple[str, ...]
    what: str            # the kind of knob (global-load placement, fences, ...)
    kernel_fixed: bool = False   # the complete kernel fixes it: not in the default set

    def text(self) -> str:
        return f"{self.name}={'|'.join(self.values)}"


#: the kinds of knob (``Knob.what``)
PLACEMENT = "global-load placement"
READS = "fragment-read placement"
LGKM = "lgkm grouping"
PRIORITIES = "priorities"
FENCES = "fences and barriers"
ORDER = "scheduling mode and penalty"
COUNTS = "per-load counts and block sizing (what the kernel issues)"

__all__ = ["COUNTS", "FENCES", "Knob", "LGKM", "ORDER", "PLACEMENT", "PRIORITIES",
           "READS"]
