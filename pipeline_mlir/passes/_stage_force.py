"""``sched-stage-copies{force-sources=...}``: register-stage copies whose source is aligned.

A helper of :mod:`pipeline_mlir.passes.stage_copies`.  The front end marks a copy
``sched.register_staged`` only when its global source is not aligned to the size it moves;
a staged copy moves what the DMA moves, so any copy may be staged instead.  The option
names global sources by number: the distinct buffers the module's ``amdgpu.gather_to_lds``
ops read, numbered in the order of their first copy (in an IREE matmul, 0 is operand A's
and 1 is B's), each followed through views and casts to the buffer they view.  Every copy
of a named source is marked before the pass stages the marked copies, so a test or a
benchmark stages exactly the copies it names, through the pass's public option.  A number
that names no source is an error at the module; the option's text must be a
comma-separated list of non-negative integers (checked when the pass is made from its
options, :class:`~pipeline_mlir.passes.stage_copies.StageCopies`: an error of the option).
"""

from __future__ import annotations

from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.marks import STAGED
from pipeline_mlir.options import decimal
from pipeline_mlir.passes._common import OpError, as_operation, walk_ops

#: ops a source is followed through to the buffer it views (their operand 0)
THROUGH = ("memref.subview", "memref.expand_shape", "memref.collapse_shape",
           "memref.assume_alignment", "memref.reinterpret_cast", "memref.cast",
           "amdgpu.fat_raw_buffer_cast")
OPTION = "force-sources"


def parse_sources(text: str) -> list[int] | str:
    """The source numbers of option text ``text`` (empty: none), or what is wrong."""
    if not text.strip():
        return []
    out = []
    for part in text.split(","):
        n = decimal(part.strip())
        if n is None or n < 0 or part.strip()[:1] in "+-":
            return (f"option '{OPTION}' must be a comma-separated list of source numbers "
                    f"(0, 1, ...), got '{text}'")
        if n in out:
            return f"option '{OPTION}' names source {n} twice, got '{text}'"
        out.append(n)
    return out


def sources(module, copies: list | None = None) -> list:
    """Every copy of ``module`` grouped by global source, sources in first-copy order
    (``copies``: the module's copies in walk order, walked by the caller already)."""
    groups: dict = {}
    if copies is None:
        copies = walk_ops(module, lambda o: o.name == "amdgpu.gather_to_lds")
    for c in copies:
        c = as_operation(c)
        groups.setdefault(view_root(c.operands[0], THROUGH), []).append(c)
    return list(groups.values())


def force(module, text: str, copies: list | None = None) -> list[OpError]:
    """Mark every copy of the sources option text ``text`` names :data:`STAGED`
    (``copies``: as :func:`sources` takes them)."""
    numbers = parse_sources(text)
    if isinstance(numbers, str):
        return [OpError(module, numbers)]
    groups = sources(module, copies)
    errors = []
    for n in numbers:
        if n >= len(groups):
            errors.append(OpError(module, f"option '{OPTION}' names source {n}, but "
                                          f"the module's copies read {len(groups)} global "
                                          f"source(s) (numbered from 0)"))
            continue
        for c in groups[n]:
            c.attributes[STAGED] = ir.UnitAttr.get()
    return errors
