"""Tuning knobs: the options of a named schedule that ``pipeline-opt --tune`` searches.

Each :class:`~pipeline_mlir.schedules.named.NamedSchedule` subclass with a complete kernel
declares its knobs (``tune_knobs``, in search order) next to its options; the tuner
(:mod:`pipeline_mlir.sim.tune`) reads them from the schedule object.  A knob names one
option of its schedule and the values tried, as spec text.  Two kinds are offered only
where they fit: a knob whose values a spec may refuse on its own (``only_accepted``: the
4-wave ``dma``) offers a spec only the values it accepts, and a knob that narrows the
kernel's launch contract (``contract``: ``loop_once``) is searched only for a problem size
(``--tune-size``), at which every candidate must run.
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
    #: a spec may refuse some values on its own: only the values it accepts are offered
    only_accepted: bool = False
    #: it narrows the kernel's launch contract: searched only with a problem size
    contract: bool = False

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
DMA = "global->LDS DMA width"
CONTRACT = "launch contract (searched only for a --tune-size)"

__all__ = ["CONTRACT", "COUNTS", "DMA", "FENCES", "Knob", "LGKM", "ORDER", "PLACEMENT",
           "PRIORITIES", "READS"]
