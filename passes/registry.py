"""All passes by name, the named pipelines' pass lists, and pipeline-text parsing.

The pipeline order is :data:`pipeline_mlir.dialect.ops.STATES`: each stage pass
declares the state it produces (``passes/_common.py``), and :data:`STAGE_PASS`,
:data:`SCHEDULE_PASSES` and :func:`named_pipeline` follow from it.

Python passes cannot be named in MLIR's textual pipeline parser, so a
``--pass-pipeline`` string is split here: ``sched-*`` names become our pass
objects (with ``{key=value ...}`` options, :mod:`pipeline_mlir.options`),
everything else goes to MLIR as text (upstream and IREE passes, nested
``func.func(...)`` pipelines).
"""

from __future__ import annotations

import re

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.passes._common import is_stage
from pipeline_mlir.passes.adopt_loop import AdoptLoop
from pipeline_mlir.passes.annotate import Annotate
from pipeline_mlir.passes.derive_edges import DeriveEdges
from pipeline_mlir.passes.derive_waits import DeriveWaits
from pipeline_mlir.passes.expand_phases import ExpandPhases
from pipeline_mlir.passes.explicit_blocks import ExplicitBlocks
from pipeline_mlir.passes.fix_hazards import FixHazards
from pipeline_mlir.passes.gpu_kernel import GpuKernel
from pipeline_mlir.passes.import_ import Import
from pipeline_mlir.passes.lower_to_rocdl import LowerToROCDL
from pipeline_mlir.passes.reorder import Reorder
from pipeline_mlir.passes.schedule import Schedule
from pipeline_mlir.passes.to_llvm import add_to_llvm
from pipeline_mlir.passes.verify import Verify

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.options import Option, OptionTable, split_spec, suggest

PASSES = {c.name: c for c in (AdoptLoop, Import, Verify, Annotate, Reorder, DeriveEdges,
                               Schedule, DeriveWaits, ExplicitBlocks, ExpandPhases, FixHazards,
                               LowerToROCDL, GpuKernel)}

#: the pass that takes a pipeline to each state, in pipeline order
STAGE_PASS = {c.produces: c.name for c in sorted(
    (c for c in PASSES.values() if is_stage(c)), key=lambda c: S.state_index(c.produces))}
if list(STAGE_PASS) != list(S.STATES[1:]):  # pragma: no cover - a pass or state was added
    raise AssertionError(f"every state needs one stage pass: {STAGE_PASS} vs {S.STATES}")

#: a named pipeline checks the IR before its first stage and after these states
VERIFY_AFTER = ("blocks", "phases")


def stage_passes(first: str, last: str) -> list[str]:
    """The stage passes taking a pipeline to the states ``first`` .. ``last``, in order."""
    return [STAGE_PASS[s] for s in S.STATES[S.state_index(first):S.state_index(last) + 1]]


def _verified(names: list[str]) -> tuple[str, ...]:
    out = [Verify.name]
    for n in names:
        out.append(n)
        if PASSES[n].produces in VERIFY_AFTER:
            out.append(Verify.name)
    return tuple(out)


#: the sched passes of a named pipeline, up to phase expansion
SCHEDULE_PASSES = _verified(stage_passes(S.STATES[1], "phases"))

#: how far a named pipeline goes: the expanded schedule, the lowered IR, LLVM
PIPELINE_ENDS = ("phases", "lowered", "llvm")


def named_pipeline(named, end: str = "lowered", chip: str = "gfx950") -> list:
    """The passes of ``--pipeline=NAME{...}`` as :func:`plan` elements.

    ``sched-adopt-loop`` and ``sched-import`` of the schedule ``named`` (a
    :class:`~pipeline_mlir.schedules.named.NamedSchedule`), :data:`SCHEDULE_PASSES`;
    then, unless ``end`` is ``"phases"``, ``sched-fix-hazards`` for a schedule with a
    complete kernel (the printed schedule stays as derived) and ``sched-lower-to-rocdl``;
    for ``end="llvm"`` also the LLVM step for ``chip``.
    """
    if end not in PIPELINE_ENDS:
        raise ConfigError(f"named pipeline: unknown end '{end}' (one of "
                          f"{', '.join(PIPELINE_ENDS)})")
    items = [(AdoptLoop.name, AdoptLoop(named)), (Import.name, Import(named))] + \
        [(n, create(n)) for n in SCHEDULE_PASSES]
    if end == "phases":
        return items
    if named.has_kernel:
        items.append((FixHazards.name, FixHazards()))
    items += [(n, create(n)) for n in stage_passes("lowered", "lowered")]
    if end == "llvm":
        items += llvm_step(chip)
    return items


def create(name: str, **options):
    """A pass object ready for ``PassManager.add(obj, name=name, argument=name)``."""
    cls = PASSES.get(name)
    if cls is None:
        raise ConfigError(f"unknown pass '{name}'{suggest(name, list(PASSES))}")
    return cls(**options)


def add(pm, name: str, **options):
    """Create pass ``name`` and add it to the PassManager ``pm``; returns the pass object.

    Keep the returned object alive as long as ``pm`` (the bindings do not).
    """
    obj = create(name, **options)
    pm.add(obj, name=name, argument=name)
    return obj


def split_top(text: str) -> list[str]:
    """Split at top-level commas (not inside (), {} or [])."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise ConfigError(f"unbalanced ')' or '}}' in pass pipeline '{text}'")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise ConfigError(f"unbalanced brackets in pass pipeline '{text}'")
    if cur.strip():
        out.append(cur.strip())
    return out


def strip_module(text: str) -> str:
    m = re.fullmatch(r"\s*builtin\.module\s*\((.*)\)\s*", text, re.S)
    return m.group(1) if m else text


#: the LLVM step as one name: scf->cf, iree-convert-to-rocdl, cleanup, rocdl -> LLVM
#: intrinsics, device-module extraction (passes/to_llvm.py)
LLVM_STEP = "sched-to-llvm"


_LLVM_STEP_OPTIONS = OptionTable([Option("chip", "str", "gfx950", "target processor")])


def llvm_step(chip: str = "gfx950") -> list:
    """The LLVM step for ``chip`` as :func:`plan` elements (sets the GPU target)."""

    class _Collect:  # add_to_llvm checks the chip and sets the target; record what it adds
        def __init__(self):
            self.items = []

        def add(self, entry, name=None, argument=None, description=None):
            self.items.append((entry, None) if isinstance(entry, str) else (name, entry))

    c = _Collect()
    add_to_llvm(c, chip)
    return c.items


def plan(text: str) -> list:
    """The elements of a pipeline text: (name, pass object) for our Python passes,
    (text, None) for upstream pipeline elements handed to MLIR as text."""
    items = []
    for it in split_top(strip_module(text)):
        name = it.split("{", 1)[0].strip()
        if name in PASSES:
            items.append((name, PASSES[name].from_text(split_spec(it, "pass")[1])))
        elif name == LLVM_STEP:
            pairs = split_spec(it, "pass")[1]
            options = _LLVM_STEP_OPTIONS.read_pairs(f"pass '{LLVM_STEP}'", pairs)
            items += llvm_step(options.get("chip", "gfx950"))
        else:
            items.append((it, None))
    return items
