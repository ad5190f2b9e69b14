"""Guards that let VALU work cross them, where a reader crossing one stays safe.

A guard (:func:`~pipeline_mlir.lowering.xdl_window.emit_guard`: ``sched_barrier`` none,
``s_nop``, ``sched_barrier`` none) keeps every instruction after it there, also the ones
that read no accumulator: the address arithmetic and row tests of IREE's C stores after the
remainder, which IREE's own LLVM issues among its last MFMAs.  The guard is there because
LLVM 22 counts a reader's wait states short in two cases only (the module docstring of
:mod:`~pipeline_mlir.lowering.xdl_window`): after a 16-pass MFMA (the window), and behind a
join.  A VALU instruction that crosses the guard upwards lands in the guard's own block,
before its ``s_nop``; if every MFMA result it may read is that of an XDL MFMA of fewer than
16 passes in that block, after the block's last op that may branch, the reader is in
straight code after its MFMA, which LLVM counts right.

:func:`open_guards` gives such a guard's two fences the mask :data:`OPEN`
(:data:`~pipeline_mlir.schedule.fences.OPEN_GUARD_MASK`: VALU and transcendental may cross
them).  No MFMA crosses them (the last MFMAs stay above the ``s_nop``), no memory
instruction (the stores of C, which read the accumulators, stay below it), and no SALU: the
guard's ``s_nop`` is one, and LLVM moves it across a fence that lets SALU through (found on
IREE's f16 ``A x B^T`` 16x105x477 with C truncated to f8E5M2, whose ``s_nop 7`` went below
the second fence).  A guard is opened where the IR shows, for every value an MFMA (any
``amdgpu`` MFMA) computes and every value computed from one (the taint, followed through
every op's operands into its results and its regions' arguments, and out of any op holding
an MFMA):

* the function is a kernel (:func:`~pipeline_mlir.lowering.xdl_window.is_kernel`: another
  function's caller, were LLVM to inline it, would put code of its own after the guard);
* the guard's block ends its region (no successors: the ops after the guard are the rest of
  the region's code, and its terminator's operands are read there);
* a tainted value something other than an MFMA or the keep-alive asm reads after the guard
  (an op after the guard in its block, or nested in one) is the result of an XDL MFMA of
  fewer than 16 passes in the guard's block, after its last op that may branch and before
  the guard; a value computed from one by another op (a conversion, a loop's result) keeps
  the guard closed, as does a reader outside the guard's block.

``sched-xdl-guard`` runs it after placing the guards, having closed the guards it opened
before (:func:`close_guards`: it decides again on the IR it is given).  The ``s_nop``
stays: whatever reads an accumulator below it is still that many wait states after the
last MFMA.  The ISA check knows an opened guard's fences (``isa/asm.py``,
``guard_fences``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.lowering.keep_alive import is_keep_alive
from pipeline_mlir.lowering.rocdl_build import mask_attr
from pipeline_mlir.lowering.xdl_window import (exceeds_lookback, guard_states, is_kernel,
                                               may_branch, xdl_passes)
from pipeline_mlir.schedule.fences import OPEN_GUARD_MASK as OPEN

_MFMA_OPS = ("amdgpu.mfma", "amdgpu.scaled_mfma")


def open_guards(root) -> int:
    """Open (:data:`OPEN`) every guard under ``root`` that the rules of the module allow;
    the number opened."""
    opened = 0
    for func in walk_ops(_op(root), is_kernel):
        tainted = _taint(func)
        for block in _blocks(func):
            ops = [o.operation for o in block.operations]
            for i in range(len(ops)):
                if guard_states(ops, i) > 0 and _may_open(ops, i, block, tainted):
                    opened += _open(ops, i)
    return opened


def close_guards(root) -> int:
    """Give every opened guard's fences under ``root`` the mask none again (a guard as
    :func:`~pipeline_mlir.lowering.xdl_window.emit_guard` makes it, which the guard walk
    counts): ``sched-xdl-guard`` decides again on the IR it is given; the number closed."""
    closed = 0
    for block in _blocks(_op(root)):
        ops = [o.operation for o in block.operations]
        for i in range(len(ops)):
            if _opened(ops[i]):
                j = i + 1
                while j < len(ops) and ops[j].name == "rocdl.s.nop":
                    j += 1
                if j > i + 1 and j < len(ops) and _opened(ops[j]):
                    for k in (i, j):
                        ops[k].attributes["mask"] = mask_attr(0)
                    closed += 1
    return closed


def _opened(op) -> bool:
    return op.name == "rocdl.sched.barrier" and op.attributes["mask"] == mask_attr(OPEN)


def _blocks(func) -> list:
    out = []
    for op in walk_ops(func, lambda o: len(o.regions) > 0):
        for region in op.regions:
            out.extend(region.blocks)
    return out


def _taint(func) -> set:
    """The values an MFMA under ``func`` computes, and every value computed from one."""
    tainted: set = set()
    for op in walk_ops(func, lambda o: o != func):
        holds = op.name in _MFMA_OPS or any(v in tainted for v in op.operands) or (
            len(op.regions) > 0 and walk_ops(op, lambda o: o.name in _MFMA_OPS))
        if not holds:
            continue
        tainted.update(op.results)
        if op.name not in _MFMA_OPS:
            for region in op.regions:
                for block in region.blocks:
                    tainted.update(block.arguments)
    return tainted


def _fences(ops: list, i: int) -> tuple[int, int]:
    """The indices of the two fences of the guard at index ``i`` (after a keep-alive)."""
    first = i + 1 if is_keep_alive(ops[i]) else i
    last = first + 1
    while ops[last].name == "rocdl.s.nop":
        last += 1
    return first, last


def _ancestor_index(op, block, index: dict) -> int | None:
    """The index in ``block`` of ``op`` or of the op of ``block`` it is nested in."""
    while op is not None:
        if op in index:
            return index[op]
        parent = op.parent
        op = _op(parent) if parent is not None else None
    return None


def _may_open(ops: list, i: int, block, tainted: set) -> bool:
    first, last = _fences(ops, i)
    if len(list(ops[-1].successors)) > 0:
        return False
    index = {o: k for k, o in enumerate(ops)}
    lo = max((k for k in range(first) if may_branch(ops[k])), default=-1)
    for value in tainted:
        if _defined_after(value, block, index, last):
            continue
        for use in value.uses:
            user = _op(use.owner)
            if user.name in _MFMA_OPS or is_keep_alive(user):
                continue
            at = _ancestor_index(user, block, index)
            if at is None or (at > last and not _straight_mfma(value, index, lo, first)):
                return False
    return True


def _defined_after(value, block, index: dict, last: int) -> bool:
    """Is ``value`` defined after op ``last`` of ``block`` (or nested in such an op)?"""
    owner = value.owner
    if isinstance(owner, ir.Block):
        if owner == block:
            return False
        parent = owner.owner
        owner = parent if parent is not None else None
        if owner is None:
            return False
    at = _ancestor_index(_op(owner), block, index)
    return at is not None and at > last


def _straight_mfma(value, index: dict, lo: int, first: int) -> bool:
    """Is ``value`` the result of an XDL MFMA of fewer than 16 passes between op ``lo`` and
    op ``first`` of the guard's block?"""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return False
    owner = _op(owner)
    passes = xdl_passes(owner)
    return passes is not None and not exceeds_lookback(passes) and \
        lo < index.get(owner, -1) < first


def _open(ops: list, i: int) -> int:
    for k in _fences(ops, i):
        ops[k].attributes["mask"] = mask_attr(OPEN)
    return 1
