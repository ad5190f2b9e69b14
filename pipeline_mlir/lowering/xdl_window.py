"""The wait states of every XDL MFMA's readers, put in by the lowering: LLVM 22 misses some.

gfx950 does not interlock an XDL MFMA's result: a VALU, VMEM or DS instruction (or another
MFMA's A/B operand) that touches the VGPRs it writes must issue ``passes + 4`` wait states
(5 after a 2-pass one: :func:`~pipeline_mlir.target.gfx950.d_wait_states`) after it (the
emulator's rule ``mfma-d-mem`` / ``mfma-d-valu`` / ``mfma-d-srcab``,
:mod:`pipeline_mlir.emu.hazards`).  LLVM 22's hazard recognizer leaves such a reader short
in two ways:

* **The window.**  For the 16-pass MFMAs (``v_mfma_f32_32x32x64_f8f6f4`` and its scaled
  form with an 8-bit operand) the count is 20, and LLVM 22 asks for 20 too: with 0..18
  independent instructions between the two it adds ``s_nop`` up to 20.  But it looks back
  at most 19 wait states for the MFMA that wrote a register (the search limit of
  ``GCNHazardRecognizer::checkMAIVALUHazards`` and ``checkMAIHazards90A``, kept at gfx940's
  19 when gfx950 raised the 16-pass count to 20), so a reader exactly 19 wait states after
  the MFMA is outside its window and gets nothing: one wait state short.  Found on IREE's
  fp8 64x128 kernel in 2x4 waves at K step 256 (pingpong), whose epilogue store read the
  last MFMA's result 19 wait states after it on the path where ``s_cbranch_execz`` skips
  the warp stagger's barrier; ``test/unit/emu/test_llvm_window.py`` shows LLVM's count at
  every gap.
* **Joins.**  Across blocks it walks a reader's predecessors depth first with one set of
  visited blocks for the whole walk, so a block is counted on the first path that reaches
  it only: when two paths from an MFMA join before a reader and the longer one is walked
  first, the shorter one is never counted, whatever the MFMA.  Found on IREE's f16
  ``A x B^T`` 16x105x477 with C truncated to f8E5M2, whose conversion of each element of C
  sits with its masked byte store in a block of its own (LLVM's, from a masked store the
  IR shows as one op): a conversion read the last MFMA's result 7 wait states after it on
  the path that skipped the previous store (8 needed);
  ``test/unit/emu/test_llvm_join.py`` shows LLVM's count on a diamond in both block orders.

So the lowering puts the count in itself, :func:`emit_guard`: a ``sched_barrier`` no
instruction crosses, ``s_nop`` worth the readers' wait states (:func:`_need`: the MFMA's
``passes + 4``, 20 for the 16-pass ones, :data:`GUARD`), another ``sched_barrier``.  After
the pipelined code of a loop issuing a 16-pass MFMA (:func:`needs_guard`), whatever reads
the accumulators (IREE's epilogue: conversions, stores) is then far enough after the last
MFMA on every path, and LLVM's own count (it counts an ``s_nop`` already there) adds
nothing.  For the other XDL MFMAs a guard goes where a join may come between the MFMA and
a reader, which the IR does not always show (a masked store or load is one op until LLVM
scalarizes it into a branch per element): :func:`may_branch`.  The cost is at most 20
issue cycles once per kernel, while the last MFMA drains (which its readers wait for).

Any other reader of an XDL MFMA's result needs the same guard, whatever marks the front
end left, decided by the IR alone (:func:`guard_exits`, one walk):

* straight-line code: before the first op of the MFMA's block that reads its result other
  than by accumulating on it (for an MFMA of fewer than 16 passes only when an op after it
  in the block may branch: LLVM counts straight code right; after a 16-pass one always:
  LLVM 22 schedules independent work after the MFMA and can land the reader exactly 19
  wait states after it, ``test/unit/inputs/xdl_straight_kernel.mlir`` is such a kernel),
  after whatever the IR puts between them; and before the first reader
  of the next iteration when the result is yielded to it (an ``scf.for``'s iteration
  arguments, followed along a rotation; an ``scf.while``'s ``before`` region);
* exits: after every control-flow op holding one (a loop the kernel runs as written, a
  remainder, an ``scf.if``, a loop a person wrote) whose MFMA is not guarded so in its
  block.  Found on IREE's fp8 512x512x896 kernel with the 32x32x64 MFMA forced (late form,
  4-wave), whose one-iteration remainder LLVM unrolled and interleaved with the epilogue's
  stores, one of which read the last MFMA's result 19 wait states after it.  Only an exit
  that nothing after it can misuse goes without: every XDL MFMA directly in the op's
  body with its result only accumulated on (an MFMA's identical C, or yielded to a result
  that is only accumulated on after the op, as the pipelined main loop's accumulators are
  by its epilogue), so its registers stay live, read with no wait, until an MFMA takes
  them; or only a kernel's return follows (a non-kernel function's caller runs on).  Such
  a guard starts with an empty side-effecting ``llvm.inline_asm`` reading the op's results
  its MFMAs compute (:func:`_mfma_results`; the keep-alive asm of
  :mod:`~pipeline_mlir.lowering.keep_alive`, in AGPRs in a kernel keeping its accumulators
  there, so that LLVM copies none for it): those MFMAs are issued before it, where LLVM
  would otherwise sink an unrolled loop's last MFMAs (pure intrinsics) past the guard, as
  it did on IREE's bf16 ``C += A x B`` + bias + relu 161x383x256 built unpipelined (28 of
  the 64 MFMAs of its unrolled K-loop after the guard, one read 7 wait states early);
* unstructured control flow: at the start of every block such a block branches to, or, for
  a loop header that only compares scalars and branches back or out, at the block it
  leaves to (the exit edge, once, not every iteration: :func:`_exit_block`).

``sched-lower-to-rocdl`` runs it (so ``--emit=mlir`` shows the guards), and so does
``sched-xdl-guard`` in the LLVM step, which every route to machine code runs
(``--pipeline``, ``--pass-pipeline`` with any pass list, MLIR of ``amdgpu`` MFMAs and no
``sched`` ops), before ``convert-scf-to-cf``.  The emulator checks these rules on every path
of the code (``pipeline_mlir/emu/hazard_paths.py``), not only on the path a run takes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from pipeline_mlir.analysis.ir_facts import declares_kernel, transfer
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.lowering.keep_alive import (in_agpr_kernel, is_keep_alive,
                                               keep_accumulators)
from pipeline_mlir.lowering.rocdl_build import mask_attr, sched_barrier_none
from pipeline_mlir.target.gfx950 import MFMAS, d_wait_states, mfma_passes

#: the wait states LLVM 22's hazard recognizer looks back for the MFMA that wrote a VGPR
LLVM_LOOKBACK = 19
#: the most wait states a guard issues: a 16-pass XDL MFMA's readers' count
GUARD = d_wait_states(16, True)
#: the most wait states one ``s_nop`` issues (``s_nop 15``)
NOP_MAX = 16
_MFMA_OPS = ("amdgpu.mfma", "amdgpu.scaled_mfma")


def _operand_class(element: str) -> str | None:
    """The target's operand class (``Mfma.operands``) of an MFMA source element type."""
    if element in ("bf16", "f16", "i8"):
        return element
    if element.startswith(("f8", "f6", "f4")):
        return "f8f6f4"
    return None


def _bits(element: str) -> int:
    return int(element[1]) if element.startswith(("f8", "f6", "f4")) else 8


def xdl_passes(op) -> int | None:
    """The passes of the XDL MFMA an ``amdgpu.mfma`` / ``amdgpu.scaled_mfma`` op issues
    (its instruction found in the target's MFMA table by shape and operands, its passes
    from :func:`~pipeline_mlir.target.gfx950.mfma_passes`, the count the emulator's rules
    read); ``None`` for any other op or an MFMA the table lacks (f32, f64: not XDL)."""
    if op.name not in _MFMA_OPS:
        return None
    attrs = op.attributes
    shape = tuple(ir.IntegerAttr(attrs[d]).value for d in ("m", "n", "k"))
    elements = tuple(str(v.type.element_type) if isinstance(v.type, ir.VectorType)
                     else str(v.type) for v in list(op.operands)[:2])
    return _table_passes(op.name, shape, elements)


@functools.lru_cache(maxsize=None)
def _table_passes(name: str, shape: tuple, elements: tuple) -> int | None:
    """:func:`xdl_passes` of an op ``name`` of ``shape`` (m, n, k) whose two sources have
    the element types ``elements``: found in the target's table once per kind (a lowered
    loop has hundreds of MFMAs of a few kinds, each looked at by every walk of the guard)."""
    kinds = {_operand_class(e) for e in elements}
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    for mfma in MFMAS:
        if (mfma.m, mfma.n, mfma.k, mfma.operands) == (*shape, kind) and \
                mfma.scaled == (name == "amdgpu.scaled_mfma"):
            entry = mfma_passes(mfma.mnemonic, all(_bits(e) < 8 for e in elements))
            return entry[0] if entry is not None and entry[1] else None
    return None


def needs_guard(loop) -> bool:
    """Does the op (a loop, any op) issue an XDL MFMA whose readers need more wait states
    than LLVM 22 looks back for?"""
    return bool(walk_ops(_op(loop), _window))


def exceeds_lookback(passes: int) -> bool:
    """Do the readers of an XDL MFMA of ``passes`` passes need more wait states than LLVM 22
    looks back for?  The one statement of the rule: the IR's MFMAs here, the assembly's and
    the LLVM IR's intrinsics in :mod:`pipeline_mlir.driver.wait_check`."""
    return d_wait_states(passes, True) > LLVM_LOOKBACK


def _window(op) -> bool:
    """Is ``op`` an XDL MFMA whose readers need more wait states than LLVM 22 looks back?"""
    return (p := xdl_passes(op)) is not None and exceeds_lookback(p)


def _xdl(op) -> bool:
    """Is ``op`` an XDL MFMA (whose readers behind a join LLVM 22 may count short)?"""
    return xdl_passes(op) is not None


def _need(passes: int) -> int:
    """The wait states before a reader of the result of an XDL MFMA of ``passes`` passes."""
    return d_wait_states(passes, True)


#: ops LLVM lowers to blocks of their own (a masked access a branch per lane's element, a
#: copy a loop) though the IR shows one op: a reader after an MFMA may sit behind a join
_BRANCHING = ("vector.maskedload", "vector.maskedstore", "vector.gather", "vector.scatter",
              "vector.compressstore", "vector.expandload", "memref.copy", "func.call",
              "llvm.call",
              "llvm.intr.masked.load", "llvm.intr.masked.store", "llvm.intr.masked.gather",
              "llvm.intr.masked.scatter", "llvm.intr.masked.compressstore",
              "llvm.intr.masked.expandload", "llvm.intr.memcpy", "llvm.intr.memmove",
              "llvm.intr.memset")


def may_branch(op) -> bool:
    """May ``op`` become control flow in the machine code (regions, successors, an op of
    :data:`_BRANCHING`, a vector transfer with a mask or a dimension not in bounds: a
    masked access)?"""
    if op.name in ("vector.transfer_read", "vector.transfer_write"):
        facts = transfer(op)
        return facts.masked or not all(facts.in_bounds)
    return op.name in _BRANCHING or len(op.regions) > 0 or len(list(op.successors)) > 0


def _is_guard(ops: list, i: int, need: int = GUARD) -> bool:
    """Do the ops from index ``i`` on make a guard (:func:`emit_guard`: a ``sched_barrier``
    none, ``s_nop`` worth at least ``need`` wait states, a ``sched_barrier`` none)?"""
    return guard_states(ops, i) >= need


def _fence(op) -> bool:
    return op.name == "rocdl.sched.barrier" and op.attributes["mask"] == mask_attr(0)


def guard_states(ops: list, i: int) -> int:
    """The wait states of the guard the ops from index ``i`` on make (:func:`_is_guard`),
    -1 where they make none."""
    if i < len(ops) and is_keep_alive(ops[i]):
        i += 1
    if i >= len(ops) or not _fence(ops[i]):
        return -1
    total, j = 0, i + 1
    while j < len(ops) and ops[j].name == "rocdl.s.nop":
        total += ir.IntegerAttr(ops[j].attributes["count"]).value + 1
        j += 1
    return total if j < len(ops) and _fence(ops[j]) else -1


def _mfma_results(op) -> tuple:
    """The results of ``op`` (a loop, a branch) that an XDL MFMA in its body computes, also
    through a loop or branch nested in it (the accumulators; 32-bit elements, which an asm
    operand takes in VGPRs or AGPRs, as it does not a vector of bytes)."""
    return tuple(r for i, r in enumerate(op.results) if _yields_mfma(op, i))


def _yields_mfma(op, i: int) -> bool:
    """Does a yield of ``op``'s regions give an XDL MFMA's result as result ``i``?"""
    for region in op.regions:
        for block in region.blocks:
            ops = list(block.operations)
            term = ops[-1].operation if ops else None
            if term is None or term.name != "scf.yield" or i >= len(term.operands):
                continue
            value = term.operands[i]
            owner = value.owner
            if isinstance(owner, ir.Block):
                continue
            owner = _op(owner)
            if _xdl(owner) or (len(owner.regions) and
                               _yields_mfma(owner, list(owner.results).index(value))):
                return True
    return False


def _accumulates(use, value, block, region_op=None) -> bool:
    """Does ``use`` of ``value`` leave it waiting 0 wait states?  An MFMA's C of the same
    type in ``block`` (identical C); the ``scf.yield`` of ``region_op`` (an ``scf.for`` /
    ``scf.if``) whose result is only accumulated on; the initial value of an ``scf.for``
    iteration argument that is only accumulated on in the body and after the loop (a
    loop of no iteration hands it on as it is)."""
    user, n = _op(use.owner), use.operand_number
    if user.name in _MFMA_OPS:
        return n == 2 and user.block == block and user.results[0].type == value.type
    if user.name == "scf.yield":
        return region_op is not None and _op(user.parent) == region_op and \
            region_op.name in ("scf.for", "scf.if") and \
            _only_accumulated(region_op.results[n], region_op.block)
    if user.name == "scf.for" and n >= 3 and user.block == block:
        body = user.regions[0].blocks[0]
        return _only_accumulated(body.arguments[n - 2], body, user) and \
            _only_accumulated(user.results[n - 3], block)
    return False


def _only_accumulated(value, block, region_op=None) -> bool:
    """Is every use of ``value`` one that leaves it waiting 0 wait states
    (:func:`_accumulates`)?"""
    return all(_accumulates(use, value, block, region_op) for use in value.uses)


#: ops whose regions are code but not control flow inside a kernel (modules, functions)
_CONTAINERS = ("builtin.module", "gpu.module", "func.func", "gpu.func", "llvm.func",
               "hal.executable", "hal.executable.variant")
_RETURNS = ("func.return", "gpu.return", "llvm.return")


@dataclass
class _Planned:
    """A guard planned before an op: the wait states it issues, the values it pins."""
    need: int = 0
    pins: list = field(default_factory=list)


class _Plan:
    """Where the guards go: per block, the indices of the ops a guard goes before (always
    an op of the block: its terminator at the latest) and the wait states each issues, in
    the block's ops as first listed (:meth:`ops_of`, kept: :meth:`place` inserts every
    guard at the end, so no index moves before then).  What the walk asks of a block's
    ops again for each MFMA in it (an op's index, the guards already there, the first op
    after an index that may branch) is found once per block: a lowered loop body holds
    hundreds of MFMAs among a thousand or more ops."""

    def __init__(self) -> None:
        self.at: dict = {}            # block -> {index: _Planned}
        self.ops: dict = {}           # block -> its ops
        self._index: dict = {}        # block -> {op: its index}
        self._guards: dict = {}       # block -> [(index, wait states)] of the guards there
        self._branch: dict = {}       # block -> [the first index >= i that may branch]

    def ops_of(self, block) -> list:
        if block not in self.ops:
            self.ops[block] = [o.operation for o in block.operations]
        return self.ops[block]

    def index(self, block, op) -> int:
        """The index of ``op`` in ``block``'s ops (:meth:`ops_of`)."""
        if block not in self._index:
            self._index[block] = {o: i for i, o in enumerate(self.ops_of(block))}
        return self._index[block][op]

    def branches_between(self, block, first: int, last: int) -> bool:
        """May an op of ``block`` after op ``first`` and before op ``last`` branch
        (:func:`may_branch`)?"""
        if block not in self._branch:
            ops = self.ops_of(block)
            nxt = [len(ops)] * (len(ops) + 1)
            for i in range(len(ops) - 1, -1, -1):
                nxt[i] = i if may_branch(ops[i]) else nxt[i + 1]
            self._branch[block] = nxt
        return first + 1 < last and self._branch[block][first + 1] < last

    def guarded(self, block, first: int, last: int, need: int) -> bool:
        """Is there a guard of ``need`` wait states, already there or planned, after op
        ``first`` and before op ``last`` of ``block`` (``last`` may be its op count: up to
        its end)?  A planned one of fewer is raised to ``need``."""
        if block not in self._guards:
            ops = self.ops_of(block)
            self._guards[block] = [(k, n) for k in range(len(ops))
                                   if (n := guard_states(ops, k)) >= 0]
        if any(first < k < last and n >= need for k, n in self._guards[block]):
            return True
        planned = self.at.get(block, {})
        inside = [i for i in planned if first < i <= last]
        for i in inside:
            planned[i].need = max(planned[i].need, need)
        return bool(inside)

    def add(self, block, i: int, need: int, pins: tuple = ()) -> None:
        guard = self.at.setdefault(block, {}).setdefault(i, _Planned())
        guard.need = max(guard.need, need)
        guard.pins += [v for v in pins if v not in guard.pins]

    def place(self) -> int:
        placed = 0
        for block, where in self.at.items():
            ops = self.ops_of(block)
            for i, guard in sorted(where.items()):
                if _is_guard(ops, i, guard.need):
                    continue
                with ir.InsertionPoint(ops[i]), ops[i].location:
                    keep_accumulators(guard.pins, in_agpr_kernel(ops[i]))
                    emit_guard(guard.need)
                placed += 1
        return placed


def guard_exits(root) -> int:
    """The guard wherever an XDL MFMA's result may be read or overwritten too early,
    decided by the IR alone in one walk (module docstring): before the first op of its
    block that reads it other than by accumulating on it (straight-line code, a
    non-kernel function's return); after every control-flow op holding one it does not
    guard so (a loop, an ``scf.if``) unless only its accumulation leaves the op
    (:func:`_exit_safe`) or only the kernel's return follows; in unstructured control
    flow, at the start of the blocks its block branches to (a loop's exit block, not its
    header, :func:`_exit_block`).  Idempotent: a guard already there counts.  Returns the
    number of guards placed."""
    mfmas = walk_ops(_op(root), _xdl)
    passes = [xdl_passes(m) for m in mfmas]     # each MFMA's, found once more, not thrice
    plan = _Plan()
    for m, p in zip(mfmas, passes):
        _guard_readers(m, p, plan)
    exits: dict = {}                  # op -> the wait states a guard after it issues
    for m, p in zip(mfmas, passes):
        block, need = m.block, _need(p)
        if plan.guarded(block, plan.index(block, m), len(plan.ops_of(block)), need):
            continue
        parent = _op(m.parent)
        if len(list(block.region.blocks)) > 1:
            for succ in _successor_blocks(block):
                target = _exit_block(block, succ)
                if not _is_guard(plan.ops_of(target), 0, need):
                    plan.add(target, 0, need)
        op = parent
        while op is not None and op.name not in _CONTAINERS:
            if not (op == parent and _exit_safe(m, op)):
                exits[op] = max(exits.get(op, 0), need)
            op = _op(op.parent) if op.parent is not None else None
    for op, need in exits.items():
        ops = plan.ops_of(op.block)
        after = plan.index(op.block, op) + 1
        if not _is_guard(ops, after, need) and not _ends_program(ops[after:]):
            plan.add(op.block, after, need, _mfma_results(op))
    return plan.place()


def _exit_safe(m, op) -> bool:
    """Can nothing after ``op`` read or overwrite the result of ``m`` (directly in its
    body) too early?  When it is only accumulated on (:func:`_only_accumulated`): its
    registers stay those MFMAs' C, read with no wait, until an MFMA after ``op`` takes
    them (the pipelined main loop, whose epilogue accumulates on its results)."""
    return _only_accumulated(m.results[0], m.block, op)


def _guard_readers(m, passes: int, plan: _Plan) -> None:
    """Plan the guard before the first op of ``m``'s block (an XDL MFMA of ``passes``
    passes) that reads its result other than by accumulating on it (or holds such a
    reader), unless a guard is between: the straight-line reader LLVM 22 may issue exactly
    19 wait states after a 16-pass ``m``, or behind a join it counts short.  A use by the
    block's terminator is left to the exit rules (``scf.yield``, a branch, a kernel's
    return) or guarded before it (a non-kernel function's return, any other).  Yielded to
    the next iteration (of the ``scf.for`` whose body is the block, or of the ``scf.while``
    whose ``do`` region it is), the result is read there through the iteration argument
    (:func:`_carried`): the first such reader gets the guard too, unless one is after ``m``
    or before the reader (the back edge)."""
    block, need = m.block, _need(passes)
    ops = plan.ops_of(block)
    first = plan.index(block, m)
    last = _first_reader(m.results[0], block, plan)
    joins = exceeds_lookback(passes) or plan.branches_between(block, first, len(ops) - 1)
    if last is not None and joins and not plan.guarded(block, first, last, need):
        plan.add(block, last, need)
    target, args = _carried(m.results[0], block, ops)
    for arg in args:
        r = _first_reader(arg, target, plan)
        if r is not None and not plan.guarded(block, first, len(ops), need) and \
                not plan.guarded(target, -1, r, need):
            plan.add(target, r, need)


def _carried(value, block, ops: list):
    """(the block the next iteration starts in, the arguments of it that may hold
    ``value``) when ``block``'s ``scf.yield`` hands ``value`` to the next iteration: the
    body of an ``scf.for`` (its iteration arguments, followed on when the yield passes one
    on again: a result rotated through several arguments, read iterations later), or the
    ``do`` region of an ``scf.while`` (the ``before`` region's arguments, read there).
    ``(None, [])`` for any other block: its yield feeds the op's results (the exit rules)."""
    term = ops[-1] if ops else None
    if term is None or term.name != "scf.yield" or block.region is None:
        return None, []
    owner = _op(block.region.owner)
    if owner.name == "scf.for":
        target, offset = block, 1
    elif owner.name == "scf.while" and len(list(owner.regions[1].blocks)) and \
            owner.regions[1].blocks[0] == block:
        target, offset = owner.regions[0].blocks[0], 0
    else:
        return None, []
    found, seen, todo = [], set(), [value]
    while todo:
        for use in todo.pop().uses:
            n = use.operand_number
            if _op(use.owner) != term or n in seen:
                continue
            seen.add(n)
            found.append(target.arguments[n + offset])
            if target == block:
                todo.append(target.arguments[n + offset])
    return target, found


def _first_reader(value, block, plan: _Plan) -> int | None:
    """The index in ``block``'s ops (``plan``'s) of the first op reading ``value`` other
    than by accumulating on it (or holding such a reader), the terminator's reads left to
    the exit rules (:func:`_guard_readers`); None if none."""
    ops, last = plan.ops_of(block), None
    for use in value.uses:
        reader = _op(use.owner)
        while reader is not None and reader.block != block:
            reader = _op(reader.parent) if reader.parent is not None else None
        if reader is None:
            continue                  # another block: the successor rule
        i = plan.index(block, reader)
        if i == len(ops) - 1 and (reader.name == "scf.yield" or list(reader.successors) or
                                  _ends_program([reader])):
            continue
        if i < len(ops) - 1 and _accumulates(use, value, block):
            continue
        last = i if last is None else min(last, i)
    return last


def is_kernel(func) -> bool:
    """Is ``func`` a kernel's entry (its return ends the program)?  A ``gpu.func`` marked
    ``kernel``; an ``llvm.func`` of the AMDGPU kernel calling convention or marked
    ``rocdl.kernel``; a ``func.func`` that states a workgroup size or carries IREE's
    ``translation_info`` (what ``sched-gpu-kernel`` makes a kernel).  Any other function's
    return is not the end: its caller runs on and may read the result."""
    attrs = func.attributes
    if func.name == "gpu.func":
        return any(k in attrs for k in ("kernel", "gpu.kernel"))
    if func.name == "llvm.func":
        return "rocdl.kernel" in attrs or ("CConv" in attrs and
                                           "amdgpu_kernel" in str(attrs["CConv"]))
    return func.name == "func.func" and declares_kernel(func)


def _ends_program(ops: list) -> bool:
    """Is ``ops`` (what follows an op in its block) only a kernel's return of nothing (IREE's
    ``scf.forall`` over workgroups, the whole kernel)?  A device function's return is not
    the end (:func:`is_kernel`)."""
    if len(ops) != 1 or list(ops[0].operands) or ops[0].name not in _RETURNS:
        return False
    return is_kernel(_op(ops[0].parent))


def _scalar(t) -> bool:
    return isinstance(t, (ir.IntegerType, ir.IndexType))


def _scalar_only(ops: list) -> bool:
    """Are ``ops`` all ``arith`` ops on scalars (no vector, no memory: nothing that reads
    or writes an MFMA's registers while they are live)?"""
    return all(o.name.startswith("arith.") and
               all(_scalar(v.type) for v in [*o.operands, *o.results]) for o in ops)


def _exit_block(block, succ):
    """Where the guard goes for the edge ``block`` -> ``succ`` in unstructured control flow:
    ``succ``, or, when ``succ`` is the header of a loop whose body is ``block`` (it only
    compares scalars and branches back to ``block`` or out; ``block`` only computes scalars
    before its first MFMA, has no vector argument, and takes each vector the header holds
    as an MFMA's C, only accumulating on it, so those registers stay live until an MFMA
    reads them), the block the header branches out to: the loop's exit edge, not every
    iteration."""
    ops = [o.operation for o in succ.operations]
    if not ops or ops[-1].name != "cf.cond_br" or not _scalar_only(ops[:-1]):
        return succ
    targets = list(ops[-1].successors)
    if len(targets) != 2 or block not in targets or targets[0] == targets[1]:
        return succ
    body = [o.operation for o in block.operations]
    first = next((i for i, o in enumerate(body) if _xdl(o)), None)
    if first is None or not _scalar_only(body[:first]):
        return succ
    if any(not _scalar(a.type) for a in block.arguments):
        return succ
    for arg in succ.arguments:            # each accumulator: taken by an MFMA in the body
        uses = [u for u in arg.uses if _op(u.owner).block in (succ, block)]
        if not _scalar(arg.type) and not (
                any(_op(u.owner).block == block and _accumulates(u, arg, block) for u in uses)
                and all(list(_op(u.owner).successors) or _accumulates(u, arg, block)
                        for u in uses)):
            return succ
    return targets[1] if targets[0] == block else targets[0]


def _successor_blocks(block) -> list:
    ops = list(block.operations)
    return list(ops[-1].operation.successors) if ops else []


def emit_guard(need: int = GUARD) -> None:
    """``need`` wait states at the insertion point (:data:`GUARD`: every XDL MFMA's
    readers'), fenced so that no instruction moves across them."""
    sched_barrier_none()
    left = need
    while left:
        n = min(left, NOP_MAX)
        B.rocdl.s_nop(n - 1)
        left -= n
    sched_barrier_none()
