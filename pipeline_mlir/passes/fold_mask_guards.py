"""``sched-fold-mask-guards``: IREE's guarded loads whose masked branch never runs, made plain.

IREE lowers a ``vector.maskedload`` of a ``fat_raw_buffer`` (its guarded copies of a
partial K tile, for one) with upstream ``amdgpu-maskedload-to-load`` into an ``scf.if``:
the ``else`` branch loads the whole vector and selects the masked lanes (a buffer load
past the buffer's end reads 0), and the ``then`` branch keeps the masked load, marked
``amdgpu.buffer_maskedload_needs_mask``, for an access that crosses the buffer's end by a
distance that is not a multiple of 4 bytes (where the buffer's range check, which works
on whole dwords, would zero bytes that are in it).  LLVM scalarises that masked load: a
branch and a one-byte load per element, which a wave runs past (``s_cbranch_execz``) on
every copy even when no lane takes it.

IREE's own build never gets there: its ``iree-util-optimize-int-arithmetic``, whose range
and divisibility analysis sees that distance as a multiple of 4 (rows of 1000 bytes read
in 16-byte columns) or the access inside the buffer, folds the branch's condition to
``false``.  This pass runs the same IREE pass with the options IREE gives it for gfx950
(``index-is-i64=true``, without its narrowing to 32 bits: :data:`FOLD`) on a copy of each
function holding such a guard, and where the copy's condition became the constant
``false`` it replaces the original's ``scf.if`` by its ``else`` branch.  Nothing else of
the function changes (the rest of the analysis' rewrites stay in the copy, which is
erased), so a kernel without such a guard compiles exactly as before.  A guard the
analysis cannot decide keeps its branch; the copy's guards are matched to the original's
by a mark each carries (:data:`MARK`), so a guard the analysis erased, or an ``scf.if`` it
turned into one, folds nothing.

It is part of the LLVM step, after IREE's tail and before ``sched-gpu-kernel``, and it
never fails.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.frontend.const_if import constant_bool, inline_branch
from pipeline_mlir.passes._common import ModulePass, OpError, held_on_folded_copy

#: the mark ``amdgpu-maskedload-to-load`` puts on the masked load it keeps in the branch
NEEDS_MASK = "amdgpu.buffer_maskedload_needs_mask"
#: IREE's integer range and divisibility folding, as IREE runs it for gfx950 but without
#: narrowing the index arithmetic to 32 bits. Narrowed (IREE's own options), the copy
#: also folds the guard of a load that may reach the buffer's end (its column a chain of
#: ``minui``), but the i8 1024x1024x1000 kernel's remainder loop, then one block without
#: a branch, has LLVM 22 issue its 12 global loads one at a time, each waited for
#: (37237 measured-table cycles against 22511 for its first workgroup)
FOLD = "iree-util-optimize-int-arithmetic{index-is-i64=true narrow-to-i32=false}"
#: the functions it folds in (their pass-manager anchors)
FUNCTIONS = ("func.func", "gpu.func")
#: the attribute a guard carries into the copy: its index among the function's guards
MARK = "sched.fold_guard"


def guards(root) -> list:
    """The ``scf.if`` ops under ``root``, in order, whose ``then`` branch holds a masked
    load marked :data:`NEEDS_MASK` (the branch ``amdgpu-maskedload-to-load`` made)."""
    return walk_ops(root, _is_guard)


def _is_guard(o) -> bool:
    if o.name != "scf.if" or len(o.regions) != 2 or not o.regions[1].blocks:
        return False
    return any(_op(x).name == "vector.maskedload" and NEEDS_MASK in _op(x).attributes
               for b in o.regions[0].blocks for x in b.operations)


def never_taken(f) -> list:
    """The guards of function ``f`` (:func:`guards`) whose condition :data:`FOLD` makes
    the constant ``false``, decided on a copy of ``f`` (``held_on_folded_copy``, each guard
    marked with :data:`MARK`: the analysis may erase a dead guard and canonicalise another
    ``scf.if`` into one, its branches swapped, which a match by position would pair with
    the wrong original)."""
    return held_on_folded_copy(
        f, guards(f), FOLD, MARK,
        lambda c: _is_guard(c) and constant_bool(c.operands[0]) is False) or []


class FoldMaskGuards(ModulePass):
    """Every guarded load's never-taken masked branch removed (module docstring)."""

    name = "sched-fold-mask-guards"
    summary = ("IREE's guarded loads of a fat_raw_buffer whose masked branch IREE's integer "
               "analysis proves never taken made plain loads (no per-byte branches)")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            for f in walk_ops(module, lambda o: o.name in FUNCTIONS):
                # innermost first: folding an outer guard erases the guards of its
                # ``then`` branch with it (``guards`` lists outer ones first)
                for g in reversed(never_taken(f)):
                    inline_branch(g, 1)       # its else branch in its place
        return []
