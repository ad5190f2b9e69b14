"""The byte offset every thread's buffer->LDS copy reads, and a check that a rewrite of the
copies kept it (``sched-buffer-soffset``'s).

:func:`copy_offsets` runs one ``llvm.func`` for one workgroup on the per-lane evaluator
(:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`): from the entry block it follows the
branches (threads whose condition differs go on as separate runs, as the ping-pong
kernel's two warp groups do), gives the integer arguments of each block it enters the
values its branch passes, and at each copy it reaches evaluates the byte offset of the
copy's source in its buffer, per thread:

* ``rocdl.load.to.lds`` on a buffer pointer (``!llvm.ptr<7>``): the pointer's offset in
  its buffer (``rocdl.make.buffer.rsrc``, then one-index ``llvm.getelementptr``), exactly,
  plus the immediate offset;
* ``rocdl.raw.ptr.buffer.load.lds``: ``voffset + soffset``, each an unsigned 32-bit value
  as the hardware adds them, plus the immediate offset.

Kernel arguments take the evaluator's sample value and the workgroup ids the given one, so
a loop over K runs its real trip count for that sample.  :func:`compare_copy_offsets` runs
a function before and after a rewrite that replaced copies in place (the same control flow,
the copies in the same order) and reports each copy reached where some thread's offset
differs, or where the offset before lies outside ``[0, 2^32)`` (no buffer is larger; the
pass assumes it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.analysis.ir_facts import int_attr, segments
from pipeline_mlir.analysis.lane_ops import SAMPLE_WORKGROUP
from pipeline_mlir.analysis.llvm_values import int_width
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.ir_io import IRError

#: a buffer->LDS copy through a buffer pointer, and the same copy with split offsets
LOAD_TO_LDS, BUFFER_LOAD_LDS = "rocdl.load.to.lds", "rocdl.raw.ptr.buffer.load.lds"
COPIES = (LOAD_TO_LDS, BUFFER_LOAD_LDS)
#: block visits before a run is taken for one that does not end
MAX_STEPS = 100_000


def copy_ops(func) -> list:
    """The function's copies (:data:`COPIES`), in block and op order: copy ``n`` of
    :func:`copy_offsets` is ``copy_ops(func)[n]``."""
    return [op.operation for b in func.regions[0].blocks for op in b.operations
            if op.operation.name in COPIES]


def copy_offsets(func, block_size, workgroup_id: int = SAMPLE_WORKGROUP,
                 only=None) -> list:
    """``[(copy number, threads, per-thread byte offset)]`` of every copy the run of
    ``func`` (an ``llvm.func``) for one workgroup of ``block_size`` threads reaches, in
    order; ``threads`` (a boolean mask) are the threads that reach it there.  ``only``: the
    numbers of the copies to evaluate (None: all of them)."""
    ev = Evaluator(block_size, workgroup_id=workgroup_id)
    blocks = list(func.regions[0].blocks)
    first: dict = {}
    block_ops: dict = {}        # each block's ops, listed once (a loop's block is run often)
    count = 0
    for b in blocks:
        first[b] = count
        block_ops[b] = [op.operation for op in b.operations]
        count += sum(1 for op in block_ops[b] if op.name in COPIES)
    out: list = []
    runs = [(blocks[0], np.ones(ev.threads, dtype=bool), {})] if blocks else []
    steps = 0
    while runs:
        block, threads, ev.bound = runs.pop()
        ev.memo, ev.views = {}, {}
        while block is not None:
            steps += 1
            if steps > MAX_STEPS:
                raise IRError(func, f"'llvm.func' op: the run does not end within "
                                    f"{MAX_STEPS} blocks for the sample values")
            ops = block_ops[block]
            n = first[block]
            for op in ops:
                if op.name in COPIES:
                    if only is None or n in only:
                        out.append((n, threads, _offset(ev, op)))
                    n += 1
            block, threads = _branch(ev, ops[-1], threads, runs) if ops else (None, None)
    return out


def _offset(ev: Evaluator, op) -> np.ndarray:
    if op.name == LOAD_TO_LDS:
        return ev.value(op.operands[0]) + int_attr(op, "offset")
    voffset, soffset, imm = (ev.value(op.operands[i]) for i in (3, 4, 5))
    return (voffset & 0xFFFFFFFF) + (soffset & 0xFFFFFFFF) + imm


def _branch(ev: Evaluator, term, threads, runs: list):
    """``(block, threads)``: where the ``threads`` at ``term`` go on (the block's integer
    arguments bound), ``(None, None)`` where the run ends (a return, an ``unreachable``,
    any other terminator).  Threads that branch the other way are a run of their own,
    pushed on ``runs``."""
    if term.name == "llvm.br":
        return _enter(ev, term.successors[0], list(term.operands)), threads
    if term.name != "llvm.cond_br":
        return None, None
    (cond,), yes, no = segments(term)
    taken = ev.value(cond) != 0
    if np.all(taken[threads]):
        return _enter(ev, term.successors[0], yes), threads
    if not np.any(taken[threads]):
        return _enter(ev, term.successors[1], no), threads
    bound = dict(ev.bound)
    other = _enter(ev, term.successors[1], no)
    runs.append((other, threads & ~taken, ev.bound))
    ev.bound = bound
    ev.memo, ev.views = {}, {}
    return _enter(ev, term.successors[0], yes), threads & taken


def _enter(ev: Evaluator, block, values):
    """Bind ``block``'s integer arguments to ``values`` (evaluated first); one the
    evaluation cannot follow is left unbound.  Returns ``block``."""
    bound = []
    for arg, v in zip(block.arguments, values):
        if (int_width(arg) or 65) <= 64:
            try:
                bound.append((arg, ev.value(v)))
            except IRError:
                ev.unbind(arg)
    for arg, a in bound:
        ev.bind(arg, a)
    return block


@dataclass
class CopyCheck:
    """What :func:`compare_copy_offsets` saw: the copies the rewrite changed (by number),
    those of them the runs reached, each difference found (``problems``), and each
    rewritten copy whose offset before the rewrite lies outside ``[0, 2^32)`` for some
    thread (``outside``: the pass assumes no offset does; there the offsets after must
    still agree modulo 2^32, the 32 bits the hardware adds)."""

    rewritten: set = field(default_factory=set)
    reached: set = field(default_factory=set)
    problems: list = field(default_factory=list)
    outside: list = field(default_factory=list)


def compare_copy_offsets(before, after, block_size, workgroup_ids=(0, 1)) -> CopyCheck:
    """Run ``before`` and ``after`` (one ``llvm.func`` before and after a rewrite of its
    copies in place) for each workgroup id and compare the offset of every rewritten copy,
    thread by thread."""
    old_ops, new_ops = copy_ops(before), copy_ops(after)
    out = CopyCheck(rewritten={i for i, (a, b) in enumerate(zip(old_ops, new_ops))
                               if a.name != b.name})
    if len(old_ops) != len(new_ops):
        out.problems.append(f"{len(old_ops)} copies before the rewrite, {len(new_ops)} after")
        return out
    for wg in workgroup_ids:
        old = copy_offsets(before, block_size, wg, out.rewritten)
        new = copy_offsets(after, block_size, wg, out.rewritten)
        if [(n, m.tobytes()) for n, m, _ in old] != [(n, m.tobytes()) for n, m, _ in new]:
            out.problems.append(f"workgroup {wg}: the runs reach other copies after the rewrite")
            continue
        for (n, threads, a), (_, _, b) in zip(old, new):
            out.reached.add(n)
            where = f"workgroup {wg}, copy #{n}"
            inside = (a >= 0) & (a < 1 << 32)
            differ = np.where(inside, a != b, (a - b) % (1 << 32) != 0)
            _report(out.problems, where, threads & differ, a, b,
                    "reads byte {a} before the rewrite, {b} after")
            _report(out.outside, where, threads & ~inside, a, b,
                    "reads byte {a} before the rewrite, outside [0, 2^32)")
    return out


def _report(found: list, where: str, bad, a, b, text: str) -> None:
    idx = np.flatnonzero(bad)
    if idx.size:
        t = int(idx[0])
        found.append(f"{where}: thread {t} " + text.format(a=int(a[t]), b=int(b[t]))
                     + f" ({idx.size} threads)")
