"""``sched-adopt-loop``'s walk over the natural K-loops of a module, one adoption after
another.

The loops are found before the first adoption (:func:`~pipeline_mlir.frontend.scan.
find_natural_loops`), but an adoption may put another kernel in the place of its loop's: a
loop too short for its one way runs as written from the kernel as it was before the
analysis' trials (``natural._short_as_written``), and a pair refused with its masked tail
kept is adopted again from the kernel as it was before (:func:`~pipeline_mlir.frontend.
kept_tail.kept_or_peeled`); each erases the kernel it had.  A second loop of that kernel
found before would then be read through an op that no longer exists (the bindings read
freed memory: a crash, or another op).  So :func:`adopt_each` takes a kernel's loops one at
a time, each found again in the kernel in its place (its symbol name in its block) after
the adoption before it: the first natural K-loop left there.  An adoption leaves no
natural K-loop of its own behind (the schedule's loop is tagged, a remainder and a loop
run as written are marked ``sched.remainder``), so the loops left are those the walk found
after it, in order; a count that says otherwise is an internal error at the kernel.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.scan import find_natural_loops

__all__ = ["adopt_each", "kernel_name", "kernel_named", "place_of"]


def adopt_each(loops: list, adopt) -> list:
    """``adopt(loop)`` of each of ``loops`` (the natural K-loops of a module, in the walk's
    order), their results in order; each kernel's loops after its first found again in the
    kernel in its place (module docstring).  A loop outside any function is adopted as
    found (the front end refuses it)."""
    out = []
    for kernel, group in _by_kernel(loops):
        if kernel is None:
            out += [adopt(lp) for lp in group]
            continue
        block, name = place_of(kernel)
        for done in range(len(group)):
            left = group if not done else _left(block, name, done, len(group))
            out.append(adopt(left[0]))
    return out


def _by_kernel(loops: list) -> list:
    """``[(kernel, its loops)]`` in the order of their first loop (a kernel's loops come
    together in the walk); the kernel None for loops outside any function."""
    out: list = []
    for lp in loops:
        kernel = kernel_of(lp)
        if out and out[-1][0] == kernel:
            out[-1][1].append(lp)
        else:
            out.append((kernel, [lp]))
    return out


def _left(block, name: str, done: int, count: int) -> list:
    """The natural K-loops of the function called ``name`` in ``block`` once ``done`` of
    its ``count`` are adopted: ``count - done`` of them, else an internal error."""
    kernel = kernel_named(block, name)
    left = find_natural_loops(kernel) if kernel is not None else []
    if len(left) != count - done:
        at = kernel if kernel is not None else block.owner
        raise IRError(at, f"'{_op(at).name}' op: internal error: {len(left)} natural "
                          f"K-loops of @{name} are left after {done} of its {count} were "
                          f"adopted, not {count - done}; please report it")
    return left


def place_of(kernel) -> tuple:
    """(the block function ``kernel`` lies in, its symbol name): where
    :func:`kernel_named` finds the kernel in its place after an adoption."""
    return kernel.parent.regions[0].blocks[0], kernel_name(kernel)


def kernel_named(block, name: str):
    """The function called ``name`` in ``block``: the kernel in its place, whichever op an
    adoption left there (module docstring); None if there is none."""
    return next((_op(o) for o in block.operations
                 if _op(o).name in ("func.func", "gpu.func") and kernel_name(_op(o)) == name),
                None)


def kernel_name(kernel) -> str:
    """The symbol name of function ``kernel``."""
    return ir.StringAttr(kernel.attributes["sym_name"]).value
