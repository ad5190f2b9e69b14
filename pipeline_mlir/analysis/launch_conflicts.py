"""What is contradictory in how a kernel states its launch.

A kernel states its workgroup size in its own attributes (``ir_facts.BLOCK_SIZE_ATTRS``)
and IREE's ``translation_info`` (:func:`~pipeline_mlir.analysis.ir_facts.declared_sizes`),
its wave size in the ``translation_info``; IREE's late form states both again in the
``iree_codegen.dispatch_config`` op beside the function, which IREE's ROCDL translation
makes the kernel's required workgroup size, so the launch's.  The front end builds and
emulates the kernel on the function's size (:func:`~pipeline_mlir.analysis.ir_facts.
block_size`), over which its code is distributed; a statement that differs is refused
(:func:`launch_conflict` at the kernel, :func:`dispatch_conflict` at the dispatch_config:
finding 126 of docs/iree-audits.md).
"""

from __future__ import annotations

import re

from pipeline_mlir.analysis.ir_facts import declared_sizes, stated_size, translation_info_text
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation

__all__ = ["DISPATCH_CONFIG", "launch_conflict", "dispatch_conflict"]

#: IREE's op beside a kernel that states the launch IREE makes of it
DISPATCH_CONFIG = "iree_codegen.dispatch_config"


def launch_conflict(kernel, wave_size: int) -> str | None:
    """What is contradictory in how ``kernel`` states its launch: two workgroup sizes that
    differ (``gpu.known_block_size`` and IREE's ``translation_info`` workgroup size), or a
    ``translation_info`` subgroup size other than the target's ``wave_size``."""
    sizes = declared_sizes(kernel)
    for where, size in sizes[1:]:
        if size != sizes[0][1]:
            return (f"it states two workgroup sizes: {sizes[0][0]} = {list(sizes[0][1])} and "
                    f"{where} = {list(size)}")
    m = re.search(r"subgroup_size\s*=\s*(\d+)", translation_info_text(kernel) or "")
    if m and int(m.group(1)) != wave_size:
        return (f"its translation_info has subgroup_size = {m.group(1)}, but the target runs "
                f"waves of {wave_size} lanes")
    return None


def dispatch_conflict(kernel, wave_size: int) -> tuple | None:
    """``(op, message)`` for an IREE ``iree_codegen.dispatch_config`` of ``kernel`` (in its
    block, its ``function_ref`` the kernel's name) whose ``workgroup_size`` is not the size
    the kernel states (:func:`~pipeline_mlir.analysis.ir_facts.stated_size`) or whose
    ``subgroup_size`` is not the target's ``wave_size``; else None (module docstring)."""
    name = ir.StringAttr(kernel.attributes["sym_name"]).value
    stated = stated_size(kernel)
    for o in kernel.parent.regions[0].blocks[0].operations:
        o = as_operation(o)
        if o.name != DISPATCH_CONFIG or "function_ref" not in o.attributes or \
                ir.FlatSymbolRefAttr(o.attributes["function_ref"]).value != name:
            continue
        if "workgroup_size" in o.attributes and stated is not None:
            v = list(ir.DenseI64ArrayAttr(o.attributes["workgroup_size"]))
            if tuple(v + [1] * (3 - len(v))) != stated[1]:
                return o, (f"'{o.name}' op: workgroup_size = {v}, with which IREE launches "
                           f"@{name}, is not the workgroup size the function states "
                           f"({stated[0]} = {list(stated[1])}), over which its code is "
                           f"distributed")
        if "subgroup_size" in o.attributes:
            n = ir.IntegerAttr(o.attributes["subgroup_size"]).value
            if n != wave_size:
                return o, (f"'{o.name}' op: subgroup_size = {n} for @{name}, but the target "
                           f"runs waves of {wave_size} lanes")
    return None
