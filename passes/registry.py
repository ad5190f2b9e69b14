"""All passes by name, the named pipelines, and pipeline-text parsing.

Python passes cannot be named in MLIR's textual pipeline parser, so a
``--pass-pipeline`` string is split here: ``sched-*`` names become our pass
objects (with ``{key=value ...}`` options), everything else goes to MLIR as text
(upstream and IREE passes, nested ``func.func(...)`` pipelines).
"""

from __future__ import annotations

import re

from pipeline_mlir.passes.annotate import Annotate
from pipeline_mlir.passes.derive_edges import DeriveEdges
from pipeline_mlir.passes.derive_waits import DeriveWaits
from pipeline_mlir.passes.expand_phases import ExpandPhases
from pipeline_mlir.passes.explicit_blocks import ExplicitBlocks
from pipeline_mlir.passes.fix_hazards import FixHazards
from pipeline_mlir.passes.import_ import Import
from pipeline_mlir.passes.lower_to_rocdl import LowerToROCDL
from pipeline_mlir.passes.reorder import Reorder
from pipeline_mlir.passes.schedule import Schedule
from pipeline_mlir.passes.to_llvm import add_to_llvm
from pipeline_mlir.passes.verify import Verify

from pipeline_mlir.errors import ConfigError

PASSES = {c.name: c for c in (Import, Verify, Annotate, Reorder, DeriveEdges, Schedule,
                               DeriveWaits, ExplicitBlocks, ExpandPhases, FixHazards,
                               LowerToROCDL)}

#: the sched passes of a named pipeline, up to phase expansion
SCHEDULE_PASSES = ("sched-verify", "sched-annotate", "sched-reorder", "sched-derive-edges",
                   "sched-schedule", "sched-derive-waits", "sched-verify",
                   "sched-explicit-blocks", "sched-expand-phases", "sched-verify")


def create(name: str, **options):
    """A pass object ready for ``PassManager.add(obj, name=name, argument=name)``."""
    cls = PASSES.get(name)
    if cls is None:
        raise ConfigError(f"unknown pass '{name}'")
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


_ITEM = re.compile(r"^([A-Za-z0-9_.\-]+)\s*(\{(.*)\})?$", re.S)


def parse_item(item: str):
    """(name, [(key, value)...]) of ``name{k=v ...}``; values may not contain spaces."""
    m = _ITEM.match(item)
    if not m:
        raise ConfigError(f"malformed pass pipeline element '{item}'")
    pairs = []
    for kv in (m.group(3) or "").replace(",", " ").split():
        k, eq, v = kv.partition("=")
        if not eq or not k:
            raise ConfigError(f"pass '{m.group(1)}': malformed option '{kv}' (expected key=value)")
        pairs.append((k, v))
    return m.group(1), pairs


def strip_module(text: str) -> str:
    m = re.fullmatch(r"\s*builtin\.module\s*\((.*)\)\s*", text, re.S)
    return m.group(1) if m else text


#: the LLVM step as one name: scf->cf, iree-convert-to-rocdl, cleanup, rocdl -> LLVM
#: intrinsics, device-module extraction (passes/to_llvm.py)
LLVM_STEP = "sched-to-llvm"


def _llvm_step(pairs) -> list:

    chip = "gfx950"
    for k, v in pairs:
        if k != "chip":
            raise ConfigError(f"pass '{LLVM_STEP}' has no option '{k}' (its options: chip)")
        chip = v

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
        name, pairs = parse_item(it) if not it.endswith(")") else (it, [])
        if name in PASSES:
            items.append((name, PASSES[name].from_text(pairs)))
        elif name == LLVM_STEP:
            items += _llvm_step(pairs)
        else:
            items.append((it, None))
    return items
