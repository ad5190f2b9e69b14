"""Target descriptions: the chips the tree compiles for, by name.

Everything the tree knows about a chip is written in its module (:mod:`.gfx950`, the only
one today); other code imports the facts from there, and code that needs "the chip" when
none is named uses :data:`DEFAULT_CHIP`.  :func:`lookup` turns a processor name (what
``pipeline-opt --mcpu`` is given) into its :class:`~pipeline_mlir.target.model.Target`.

Layer: below the scheduling core (records < errors < options < target < schedule ...);
imports nothing of the project but :mod:`pipeline_mlir.errors` and
:mod:`pipeline_mlir.records`.
"""

from __future__ import annotations

from pipeline_mlir.target import gfx950
from pipeline_mlir.target.model import Mfma, Target, UnknownTarget, WaitCounter

#: every described chip by processor name
TARGETS: dict[str, Target] = {t.name: t for t in (gfx950.TARGET,)}
#: the processor used when none is named (``--mcpu``'s default)
DEFAULT_CHIP = gfx950.NAME
#: Processors ``iree-convert-to-rocdl`` runs for in iree-base-compiler 3.13 (each tried);
#: for others (gfx900, gfx906, gfx940, gfx941, mi300x, mi355x, typos) it segfaults. Only
#: the described ones (:data:`TARGETS`) have cost models and kernels here.
IREE_GPU_CHIPS = ("gfx908", "gfx90a", "gfx942", gfx950.NAME, "gfx1010", "gfx1030", "gfx1100",
                  "gfx1101", "gfx1102", "gfx1150", "gfx1151", "gfx1200", "gfx1201", "gfx1250")


def names() -> tuple[str, ...]:
    """The processor names :func:`lookup` knows."""
    return tuple(TARGETS)


def lookup(name: str) -> Target:
    """The description of processor ``name``; :class:`UnknownTarget` (a ConfigError naming
    the known chips) for anything else."""
    target = TARGETS.get(name) if isinstance(name, str) else None
    if target is None:
        raise UnknownTarget(str(name), names())
    return target


__all__ = ["DEFAULT_CHIP", "IREE_GPU_CHIPS", "Mfma", "TARGETS", "Target", "UnknownTarget", "WaitCounter", "lookup",
           "names"]
